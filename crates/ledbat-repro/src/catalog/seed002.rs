//! Seed 002 (Kühlewind & Fisches, decrease schemes): linear against multiplicative decrease;
//! completion order, fairness, utilisation, yielding to TCP at 20 Mb/s.

use super::extract::*;
use super::plots::*;
use super::{files, Claim, Convention, Form, Null, ScenarioRef, Sibling, Threshold};
use ledbat_sim::RunResult;

const PAPER: &str = "seed002";

/// MD-NF1's controller table (beta 0.6, no noise filter), as an override value.
const MD_NF1: &str = "{ name = \"ledbat-md\", target = \"25ms\", beta = 0.6, delay = { \
    filter = { min = { len = 1 } } } }";
/// MD-NF2's (a noise filter of two samples).
const MD_NF2: &str = "{ name = \"ledbat-md\", target = \"25ms\", beta = 0.6, delay = { \
    filter = { min = { len = 2 } } } }";
/// Fig. 5's transfer sizes, MB, and flow counts.
const FIG5_MB: [f64; 3] = [30.0, 100.0, 300.0];
const FIG5_N: [u32; 2] = [2, 5];

/// "Yields to TCP": a less-than-best-effort flow keeps at most 15 % of the link beside it.
pub(super) const YIELDED: Convention = Convention {
    name: "yielded to TCP: a share of at most 15 % beside it",
    value: 0.15,
    why: "the paper gives no number for yielding; a flow that yields keeps a few per cent \
          beside a backlogged TCP once TCP has ramped up, and 15 % is three times that while \
          still far from the even split of a flow that does not yield: above it the flow has \
          not yielded",
};

/// "Increases more slowly", read off a plot of the window: a ratio of at least 1.02.
pub(super) const VISIBLY_SLOWER: Convention = Convention {
    name: "visibly slower: a window ratio of at least 1.02",
    value: 1.02,
    why: "the paper reads 'slower' off Fig. 6's plot of the window; a window under 2 % smaller \
          (one packet in fifty) is not visible on such a plot, and is the size of the cut a \
          one-packet minimum decrease alone makes near the target, without the delay noise the \
          statement names as the cause",
};

/// Fig. 5's runs: for each scheme (linear, MDvar), each N, each size.
fn fig5_points() -> Vec<ScenarioRef> {
    let mut v = Vec::new();
    for file in ["seed002/fig5-linear.toml", "seed002/fig5-mdvar.toml"] {
        for n in FIG5_N {
            for mb in FIG5_MB {
                v.push(ScenarioRef::with(
                    file,
                    &[
                        format!("flow.0.count={n}"),
                        format!("flow.0.traffic.bytes={}", (mb * 1e6) as u64),
                    ],
                ));
            }
        }
    }
    v
}

/// Index into `fig5_points`.
fn fig5_at(mdvar: bool, n: usize, mb: usize) -> usize {
    (mdvar as usize * FIG5_N.len() + n) * FIG5_MB.len() + mb
}

/// Fig. 5's runs for a null: MDvar on both sides (`both_mdvar`), and every size replaced by
/// `FIG5_MB[k]` (`size`).
fn fig5_null(both_mdvar: bool, size: Option<usize>) -> Vec<ScenarioRef> {
    let pts = fig5_points();
    let mut v = Vec::new();
    for mdvar in [false, true] {
        for n in 0..FIG5_N.len() {
            for mb in 0..FIG5_MB.len() {
                v.push(pts[fig5_at(mdvar || both_mdvar, n, size.unwrap_or(mb))].clone());
            }
        }
    }
    v
}

/// Seed 002's five-flow runs: flows start 15 s apart.
const FIVE_SPACING_S: f64 = 15.0;

/// The mean, over the arrivals of flows 2-5, of Jain's index of the present flows' mean rates
/// in the 10 s after each arrival: how far each newcomer disturbs the sharing (Fig. 4).
fn arrival_jain(r: &RunResult) -> Result<f64, String> {
    let n = series(r)?.flows.len();
    if n < 2 {
        return Err(format!("{}: fewer than two flows", r.scenario));
    }
    let mut sum = 0.0;
    for k in 1..n {
        let t0 = FIVE_SPACING_S * k as f64;
        let rates = (0..=k)
            .map(|i| rate_between(r, i, t0, t0 + 10.0))
            .collect::<Result<Vec<_>, _>>()?;
        sum += crate::stats::jain(&rates).ok_or("zero throughput")?;
    }
    Ok(sum / (n - 1) as f64)
}

/// The mean sum rate (Mb/s): every byte delivered over the time from the first start to the
/// last completion.
fn sum_rate(r: &RunResult) -> Result<f64, String> {
    let mut first: f64 = f64::INFINITY;
    let mut last: f64 = 0.0;
    let mut bytes = 0.0;
    for f in &r.flows {
        let c = f
            .completions
            .last()
            .ok_or_else(|| format!("{}: {} did not complete", r.scenario, f.name))?;
        first = first.min(c.start_s);
        last = last.max(c.start_s + c.time_s);
        bytes += c.packets as f64 * 1500.0;
    }
    Ok(bytes * 8.0 / (last - first) / 1e6)
}

pub(super) fn claims() -> Vec<Claim> {
    let mut v = paper_claims();
    v.extend(more_claims());
    v
}

fn paper_claims() -> Vec<Claim> {
    use crate::claims::Band::*;
    vec![
        Claim {
            id: "s002-linear-latecomer-finishes-first",
            paper: PAPER,
            figure: "Fig. 1, section 5.2",
            statement: "With the linear decrease the latecomer dominates and finishes first (at \
                106 s, the first flow at 171 s).",
            paper_value: "171 - 106 = 65 s",
            unit: "s",
            metric: "completion time of the first flow minus that of the \
                latecomer (absolute times)",
            scenarios: vec![ScenarioRef::file("seed002/two-flows-linear.toml")],
            extract: |r| Ok(finish(r[0], "first")? - finish(r[0], "latecomer")?),
            draw: Some(|r| plots([rate_plot("linear: rates", r[0])])),
            tolerance: Near {
                value: 65.0,
                tol: 13.0,
            },
            direction: Above { bound: 0.0 },
            tolerance_note: "text values ±20 %; direction: the latecomer finishes first (a tie \
                does not)",
            explanation: "An effect with its size, not only an order: the statement gives the \
                gap (65 s), so the claim reads the gap, whose absence is 0 (the strict \
                direction keeps a tie from passing 'finishes first'). The mean gap stands for \
                each seed: every seed's latecomer finishes first by about the same margin (the \
                per-seed values), so no seed is outweighed.",
            form: Form::Effect { null: 0.0 },
            null: Null::scenarios(
                "MDvar's decrease in place of the linear one: its beta drains the queue, so the latecomer learns the true base delay and its advantage vanishes (Fig. 2, lower)",
                vec![ScenarioRef::file("seed002/two-flows-mdvar.toml")],
            ),
            ..Claim::base("s002-linear-latecomer-finishes-first")
        },
        order_claim(
            "s002-md-nf1-first-finishes-first",
            "Fig. 2 (middle), section 5.2",
            "With the multiplicative decrease (MD-NF1) flows share equally, so the first flow \
                finishes first.",
            "seed002/two-flows-md-nf1.toml",
        ),
        finish_time_claim(
            "s002-md-nf1-first-finish-time",
            "Fig. 2 (middle), section 5.2",
            "With MD-NF1 the first flow finishes at 134-158 s.",
            "seed002/two-flows-md-nf1.toml",
            SIB_NF1_IN_RANGE,
        ),
        order_claim(
            "s002-md-nf2-first-finishes-first",
            "Fig. 2 (upper), section 5.2",
            "With MD-NF2 (noise filter of 2 samples) the first flow also finishes first.",
            "seed002/two-flows-md-nf2.toml",
        ),
        finish_time_claim(
            "s002-md-nf2-first-finish-time",
            "Fig. 2 (upper), section 5.2",
            "With MD-NF2 the first flow finishes at 134-158 s.",
            "seed002/two-flows-md-nf2.toml",
            SIB_NF2_IN_RANGE,
        ),
        Claim {
            id: "s002-mdvar-first-finishes-first",
            paper: PAPER,
            figure: "Fig. 2 (lower), section 5.2",
            statement: "With MDvar the first flow also finishes at 134-158 s (equal \
                sharing, 40 ms base RTT).",
            paper_value: "134-158 s",
            unit: "s",
            metric: "completion time of the first flow",
            scenarios: vec![ScenarioRef::file("seed002/two-flows-mdvar.toml")],
            extract: first_flow_finish,
            draw: Some(|r| plots([rate_plot("MDvar, RTT 40 ms: rates", r[0])])),
            tolerance: Between {
                lo: 134.0,
                hi: 158.0,
            },
            direction: Between {
                lo: 134.0,
                hi: 158.0,
            },
            tolerance_note: "the paper's own range, as the direction too: the statement gives \
                the range and nothing looser (a first flow done by 158 s is also ahead of the \
                latecomer, since the two transfers need 160 s of the link)",
            explanation: "Judged on the mean over seeds, unlike the MD-NF1 and MD-NF2 finish \
                times (judged seed by seed): MDvar's first flow finishes at about the same \
                time in every seed (the per-seed values), so the mean stands for each seed.",
            thresholds: &[
                Threshold::Quote {
                    value: 134.0,
                    written: "134-158ms",
                    quote: FIG2_QUOTE,
                },
                Threshold::Quote {
                    value: 158.0,
                    written: "158ms",
                    quote: FIG2_QUOTE,
                },
            ],
            form: Form::Bound { lo: Some(134.0), hi: Some(158.0) },
            null: Null::scenarios(
                "the linear decrease in this scheme's place: the latecomer takes the queue as base delay and dominates (Fig. 1)",
                vec![ScenarioRef::file("seed002/two-flows-linear.toml")],
            ),
            siblings: &[
                Sibling::Independent {
                    other: "s002-mdvar-fair-rtt40",
                    why: SIB_JAIN_FINISH,
                },
            ],
            ..Claim::base("s002-mdvar-first-finishes-first")
        },
        Claim {
            id: "s002-last-finish-linear",
            paper: PAPER,
            figure: "Figs. 1-2, section 5.2",
            statement: "Whatever the decrease scheme, the last transfer finishes at about \
                171 s.",
            paper_value: "171 s",
            unit: "s",
            metric: "latest completion time over the four schemes (linear, MD-NF1, MD-NF2, \
                MDvar)",
            scenarios: files(&[
                "seed002/two-flows-linear.toml",
                "seed002/two-flows-md-nf1.toml",
                "seed002/two-flows-md-nf2.toml",
                "seed002/two-flows-mdvar.toml",
            ]),
            extract: |r| {
                let mut last: f64 = 0.0;
                for x in r {
                    last = last.max(finish(x, "first")?).max(finish(x, "latecomer")?);
                }
                Ok(last)
            },
            draw: None,
            tolerance: Near {
                value: 171.0,
                tol: 15.0,
            },
            direction: AtLeast { bound: 156.0 },
            tolerance_note: "text value ± 15 s (under 10 %), from the latecomer's own completion \
                time the paper gives beside it (171 - 15 = 156 s), which is also the direction: \
                a last finish before 156 s would end both transfers sooner than the paper's \
                latecomer alone. What this can tell apart is little: the total \
                is set by capacity (200 MB at 10 Mb/s = 160 s, plus the 15 s offset), so any \
                scheme that keeps the link above about 85 % busy passes; it checks that no \
                scheme wastes more, taking the slowest of the four",
            explanation: "",
            form: Form::Value,
            thresholds: &[Threshold::Quote {
                value: 156.0,
                written: "156ms",
                quote: "(171ms - 15ms = 156ms)",
            }],
            untestable: Some(
                "the link's capacity sets the value: 200 MB take 160 s at 10 Mb/s, so any \
                scheme that keeps the link 85 % busy lands in the band, whichever scheme it is",
            ),
            null: Null::none(
                "no scheme of the paper idles the link enough: even MD-NF1 with beta = 0.1 and \
                2 ms of delay noise ends at 176 s, inside the band (seed 1, `ledbat sim \
                scenarios/seed002/two-flows-md-nf1.toml --set flow.0.cc.beta=0.1 --set \
                flow.1.cc.beta=0.1 --set topology.jitter=2ms`)",
            ),
            ..Claim::base("s002-last-finish-linear")
        },
        Claim {
            id: "s002-md-lower-utilisation",
            paper: PAPER,
            figure: "section 5.2, 5.3",
            statement: "The MD schemes share equally but at lower utilisation than the linear \
                decrease (the queue empties at every decrease).",
            paper_value: "lower than linear",
            unit: "ratio",
            metric: "mean bottleneck utilisation MD-NF1 / linear while both flows transfer \
                (whole-run link utilisation)",
            scenarios: files(&[
                "seed002/two-flows-md-nf1.toml",
                "seed002/two-flows-linear.toml",
            ]),
            extract: |r| {
                // bytes / (last completion time) per scenario: the utilisation of the busy period
                let busy = |x: &RunResult| -> Result<f64, String> {
                    let end = finish(x, "first")?.max(finish(x, "latecomer")?);
                    Ok(2.0 * 100e6 * 8.0 / (end * x.capacity_bps))
                };
                Ok(busy(r[0])? / busy(r[1])?)
            },
            draw: None,
            tolerance: super::ORDER_TOLERANCE,
            direction: super::ORDER_DIRECTION,
            tolerance_note: "an order, decided in each seed (MD-NF1's utilisation below the linear decrease's); reproduced when 8 seeds in 10 show it, the direction holds when more than half do",
            explanation: "Root cause: without delay noise our MD flows almost never decrease. \
                A LEDBAT window approaches the target from below and, with exact \
                delay samples, seldom exceeds it, so the periodic 'probing' \
                decreases the paper describes (section 5.2: 'LEDBAT itself will \
                exceed the TARGET for probing') hardly happen: a single MD-NF1 \
                transfer of 100 MB alone takes 80.91 s against 80.88 s for the \
                linear decrease (seed 1, `ledbat sim \
                scenarios/seed002/two-flows-md-nf1.toml --set flow.1.start=299s`, \
                and the same for two-flows-linear.toml). With the paper's kind of \
                noise (1 ms of per-packet jitter, `ledbat sim \
                scenarios/seed002/two-flows-md-nf1.toml --set flow.1.start=299s --set \
                topology.jitter=1ms`, and the same for two-flows-linear.toml) \
                MD-NF1 alone takes 81.17 s and with 2 ms 81.50 s against 80.94 and \
                80.99 s: the cost appears but stays below 1 %, because beta = 0.6 \
                leaves about 32.5 packets, a pipe's worth, after a decrease. Two \
                flows absorb one another's decreases, so the whole-transfer \
                utilisation of this 2 x 100 MB scenario cannot show it; the paper's \
                own section 5.2 puts the last finish at 171 s for every scheme. The \
                paper's evidence for the under-use is Fig. 5 (MDvar with 2-5 flows \
                over transfer sizes), checked by the s002-fig5 claims.",
            form: Form::Order { null: 1.0, above: false },
            untestable: Some(
                "this scenario cannot show the statement: the paper's own section 5.2 ends every \
                scheme's transfers at 171 s, a ratio of 1; its evidence for the under-use is Fig. \
                5, tested by s002-fig5-linear-higher-sum-rate",
            ),
            null: Null::none(
                "not testable here: by the paper's own section 5.2 every scheme ends at 171 s in \
                this scenario, so no null run of it can differ; Fig. 5's claims carry the test",
            ),
            ..Claim::base("s002-md-lower-utilisation")
        },
        Claim {
            id: "s002-md-nf1-fair",
            paper: PAPER,
            figure: "Fig. 2 (middle), section 5.2",
            statement: "With MD-NF1 the decrease times synchronise and both flows get the same \
                share of the bandwidth.",
            paper_value: "equal share",
            unit: "Jain index",
            metric: "Jain's index of the two flows' mean rates while both transfer (from 30 s \
                to the first completion)",
            scenarios: vec![ScenarioRef::file("seed002/two-flows-md-nf1.toml")],
            extract: |r| jain_period(r[0]),
            draw: None,
            tolerance: AtLeast { bound: 0.95 },
            direction: AtLeast { bound: 0.9 },
            tolerance_note: "equal share = Jain ≥ 0.95",
            explanation: "",
            form: Form::Value,
            null: Null::scenarios(
                "the linear decrease in this scheme's place: the latecomer takes the queue as base delay and dominates (Fig. 1)",
                vec![ScenarioRef::file("seed002/two-flows-linear.toml")],
            ),
            siblings: &[
                Sibling::Independent {
                    other: "s002-md-nf1-first-finish-time",
                    why: SIB_JAIN_FINISH,
                },
                Sibling::Independent {
                    other: "s002-md-nf1-first-finishes-first",
                    why: SIB_JAIN_ORDER,
                },
            ],
            thresholds: &[Threshold::Convention(&super::FAIR_JAIN)],
            ..Claim::base("s002-md-nf1-fair")
        },
        Claim {
            id: "s002-mdvar-fair-rtt40",
            paper: PAPER,
            figure: "Fig. 2 (lower)",
            statement: "MDvar shares the link equally between the two flows at base RTT 40 ms.",
            paper_value: "equal share",
            unit: "Jain index",
            metric: "Jain's index of the two flows' mean rates while both transfer (from 30 s \
                to the first completion)",
            scenarios: vec![ScenarioRef::file("seed002/two-flows-mdvar.toml")],
            extract: |r| jain_period(r[0]),
            draw: None,
            tolerance: AtLeast { bound: 0.95 },
            direction: AtLeast { bound: 0.9 },
            tolerance_note: "equal share = Jain ≥ 0.95 (fixed before running)",
            explanation: "",
            form: Form::Value,
            null: Null::scenarios(
                "the linear decrease in this scheme's place: the latecomer takes the queue as base delay and dominates (Fig. 1)",
                vec![ScenarioRef::file("seed002/two-flows-linear.toml")],
            ),
            thresholds: &[Threshold::Convention(&super::FAIR_JAIN)],
            ..Claim::base("s002-mdvar-fair-rtt40")
        },
        Claim {
            id: "s002-mdvar-fair-rtt20",
            paper: PAPER,
            figure: "Fig. 3",
            statement: "MDvar shares the link equally at base RTT 20 ms.",
            paper_value: "equal share",
            unit: "Jain index",
            metric: "Jain's index of the two flows' mean rates while both transfer",
            scenarios: vec![ScenarioRef::file("seed002/two-flows-mdvar-rtt20.toml")],
            extract: |r| jain_period(r[0]),
            draw: Some(|r| plots([rate_plot("MDvar, RTT 20 ms: rates", r[0])])),
            tolerance: AtLeast { bound: 0.95 },
            direction: AtLeast { bound: 0.9 },
            tolerance_note: "equal share = Jain ≥ 0.95",
            explanation: "",
            form: Form::Value,
            null: Null::scenarios(
                "MD-NF1's fixed beta = 0.6 in MDvar's place at base RTT 20 ms, which the paper shows unfair (Fig. 3)",
                vec![ScenarioRef::with("seed002/two-flows-md-nf1.toml", &["topology.delay=5ms"])],
            ),
            thresholds: &[Threshold::Convention(&super::FAIR_JAIN)],
            ..Claim::base("s002-mdvar-fair-rtt20")
        },
        Claim {
            id: "s002-mdvar-fair-5-flows",
            paper: PAPER,
            figure: "Fig. 4",
            statement: "With five flows starting 15 s apart, MDvar flows always share the link \
                equally after a short time.",
            paper_value: "equal share",
            unit: "Jain index",
            metric: "long-term Jain's index of the five flows, 75-180 s",
            scenarios: vec![ScenarioRef::file("seed002/five-flows-mdvar.toml")],
            extract: first_jain_long,
            draw: Some(|r| plots([rate_plot("MDvar, 5 flows: rates", r[0])])),
            tolerance: AtLeast { bound: 0.95 },
            direction: AtLeast { bound: 0.9 },
            tolerance_note: "equal share = Jain ≥ 0.95",
            explanation: "",
            form: Form::Value,
            null: Null::run(
                "five linear-decrease flows in MDvar's place: each latecomer takes the queue as base delay and more than its share",
                &["flow.0.cc={ name = \"ledbat\", target = \"25ms\" }"],
            ),
            thresholds: &[Threshold::Convention(&super::FAIR_JAIN)],
            ..Claim::base("s002-mdvar-fair-5-flows")
        },
        Claim {
            id: "s002-linear-does-not-yield-20mbps",
            paper: PAPER,
            figure: "Fig. 6 (upper), section 5.4",
            statement: "At 20 Mb/s with a 60-packet queue (TARGET = 42 packets), linear LEDBAT \
                fails to yield to a joining TCP flow.",
            paper_value: "does not yield",
            unit: "LEDBAT share",
            metric: "LEDBAT's share of the total throughput from 30 s (10 s \
                after TCP joins) to 120 s",
            scenarios: vec![ScenarioRef::file("seed002/tcp-20mbps-linear.toml")],
            extract: ledbat_share,
            draw: Some(|r| plots([rate_plot("linear vs TCP, 20 Mb/s", r[0])])),
            tolerance: AtLeast { bound: 0.3 },
            direction: Above { bound: 0.15 },
            tolerance_note: "not yielding = LEDBAT keeps ≥ 30 % (yielding LBE flows keep a few \
                %); direction: more than a yielding flow keeps (the YIELDED convention)",
            thresholds: &[Threshold::Convention(&YIELDED)],
            explanation: "Root cause: delayed ACKs make our LEDBAT share TCP's losses. The \
                paper's mechanism is that TCP's slow-start bursts overflow the queue \
                and 'this loss only hits the standard TCP flow itself', so LEDBAT \
                never halves. With delayed ACKs on, as the paper states for Fig. 6, \
                our LEDBAT sends pairs of packets per ACK too and some of them are \
                dropped in the same overflows (its retransmissions are non-zero), \
                which halves its window. Isolating run: the same scenario with \
                delayed ACKs off (`ledbat sim \
                scenarios/seed002/tcp-20mbps-linear.toml --set \
                transport.delayed_ack=false`, seed 1) gives LEDBAT no retransmission \
                at all and 48 % of the link, the paper's non-yielding; the window \
                floor, the flightsize cap, the delay filter and the start times \
                change the share by a few points only. The paper's Linux receiver \
                acknowledges differently (quick-ACK mode, ACK per two full segments, \
                TSO), which our delayed-ACK model does not reproduce.",
            form: Form::Value,
            null: Null::scenarios(
                "the minimum decrease of one packet per RTT in the linear decrease's place (Fig. 6, lower), which the paper shows yielding",
                vec![ScenarioRef::file("seed002/tcp-20mbps-linear-min.toml")],
            ),
            siblings: &[
                Sibling::Independent {
                    other: "s002-slow-start-losses-hit-only-tcp",
                    why: "a LEDBAT flow that loses nothing can hold any share of the link, \
                        and one with losses any share too: the loss ratio does not bound the \
                        share",
                },
            ],
            ..Claim::base("s002-linear-does-not-yield-20mbps")
        },
        Claim {
            id: "s002-linear-min-yields-20mbps",
            paper: PAPER,
            figure: "Fig. 6 (lower), section 5.4",
            statement: "With a decrease of at least one packet per RTT, LEDBAT yields \
                to the joining TCP flow.",
            paper_value: "yields",
            unit: "LEDBAT share",
            metric: "LEDBAT's share of the total throughput from 30 s to 120 s",
            scenarios: vec![ScenarioRef::file("seed002/tcp-20mbps-linear-min.toml")],
            extract: ledbat_share,
            draw: Some(|r| plots([rate_plot("linear-min vs TCP, 20 Mb/s", r[0])])),
            tolerance: AtMost { bound: 0.15 },
            direction: Below { bound: 0.5 },
            tolerance_note: "yielding = LEDBAT keeps ≤ 15 % (the YIELDED convention); direction: \
                TCP takes most of the link (the MOST convention), LEDBAT under half",
            thresholds: &[Threshold::Convention(&super::MOST)],
            explanation: "The verdict on the paper's setup does not show the paper's mechanism: \
                with delayed ACKs on, the plain linear decrease yields as well (min_decrease = 0 \
                keeps 9 %, seed 1, `ledbat sim scenarios/seed002/tcp-20mbps-linear-min.toml \
                --set flow.0.cc.min_decrease=0`), because our LEDBAT loses packets in \
                TCP's slow-start overflows (root cause at s002-linear-does-not-yield-20mbps). \
                The minimum decrease is what yields where those losses are absent: with delayed \
                ACKs off LEDBAT keeps 8 % with it and 47 % without it (seed 1, `ledbat sim \
                scenarios/seed002/tcp-20mbps-linear-min.toml --set transport.delayed_ack=false`, \
                and with `--set flow.0.cc.min_decrease=0`), which is the null run.",
            form: Form::Value,
            null: Null::run(
                "the minimum decrease switched off (the plain linear decrease), with delayed ACKs off: with them on, our LEDBAT shares TCP's losses and yields without it",
                &["flow.0.cc.min_decrease=0", "transport.delayed_ack=false"],
            ),
            ..Claim::base("s002-linear-min-yields-20mbps")
        },
    ]
}

/// "The first flow finishes first": the order of the two completion times is the claim, so
/// it is the metric (positive when the first flow finishes first) and no band can pass the
/// opposite order.
fn order_claim(
    id: &'static str,
    figure: &'static str,
    statement: &'static str,
    file: &'static str,
) -> Claim {
    Claim {
        id,
        paper: PAPER,
        figure,
        statement,
        paper_value: "> 0 s (the first flow first)",
        unit: "s",
        metric: "completion time of the latecomer minus that of the first flow",
        scenarios: vec![ScenarioRef::file(file)],
        extract: |r| Ok(finish(r[0], "latecomer")? - finish(r[0], "first")?),
        draw: None,
        tolerance: super::ORDER_TOLERANCE,
        direction: super::ORDER_DIRECTION,
        tolerance_note: "the order is the statement: decided in each seed (the first flow \
            finishes first), the share of seeds that show it",
        explanation: "Root cause: a knife edge of the setup, decided by delay noise our \
            scenario lacks. When the latecomer starts, the first flow's window is \
            about the pipe (`10 Mb/s x 40 ms = 33.3 packets`) plus its target queue \
            (`10 Mb/s x 25 ms = 20.8 packets`); beta = 0.6 brings it to about \
            `0.6 x 54.1 = 32.5 packets`, which with the latecomer's first \
            packets is within a packet of the pipe, so the decrease drains the queue \
            only in some phases. Where it does not (seed 1: one packet stays queued \
            at 15 s and the queue first empties at 32.8 s, `ledbat sim \
            scenarios/seed002/two-flows-md-nf1.toml --set sample_interval=5ms --set \
            duration=40s`), the latecomer's base delay stays a packet too high, the \
            first flow alone keeps seeing the target exceeded and the latecomer \
            finishes first; where it does (seed 4: empty at 15.26 s) the first flow \
            finishes 23.7 s ahead, as in the paper. The paper's delay samples are \
            noisy (Linux timestamps of 1 ms, section 4); with 1 ms of per-packet \
            jitter on the bottleneck as a stand-in (`ledbat sim \
            scenarios/seed002/two-flows-md-nf1.toml --set topology.jitter=1ms --seed N`, N = \
            1-10) the \
            first flow finishes first in all 10 seeds with MD-NF1, at 145-156 s \
            (inside the paper's 134-158 s), and in 8 of 10 with MD-NF2. Quantising \
            the timestamps to 1 ms instead (`ledbat sim \
            scenarios/seed002/two-flows-md-nf1.toml --set \
            flow.N.sender_clock.resolution=1ms` and `receiver_clock`, N = 0, 1) is \
            not the same noise: MD-NF1's first flow then finishes at 112-123 s and \
            MD-NF2's latecomer first. The noise filter itself is not the cause (the \
            minimum of 1, 2 or 8 samples gives the same times without noise). On the \
            kernel bed (`python3 testbed/tcpbed.py --experiments seed002 --seed002 \
            two-flows-md-nf1`, BPF ledbat_md, this scenario's setup) the first flow \
            finished first in 3 of 3 runs, at 148.5-151.2 s against the latecomer's \
            168.3 s, as in the paper. Of what the simulated run lacks, the candidate the \
            runs above single out is the noise on the delay samples: per-packet jitter \
            restores the order and the finish times, while 1-ms timestamps do not and the \
            filter length does not matter. Delayed ACKs (on by default on the bed) put the \
            first flow ahead in seeds 1-3 of the simulator too, but by 0.3 s only and in \
            runs that end both transfers at 146 s, sooner than 200 MB can cross a 10 Mb/s \
            link (160 s), so that run is not evidence until the simulator's delayed-ACK \
            accounting is checked (`ledbat sim scenarios/seed002/two-flows-md-nf1.toml \
            --set transport.delayed_ack=true`).",
        form: Form::Order {
            null: 0.0,
            above: true,
        },
        null: Null::scenarios(
            "the linear decrease in this scheme's place: the latecomer takes the queue as base \
                delay and finishes first (Fig. 1)",
            vec![ScenarioRef::file("seed002/two-flows-linear.toml")],
        ),
        ..Claim::base(id)
    }
}

/// The paper's range for the first flow's completion time with a multiplicative decrease
/// (Fig. 2), s.
const FIG2_FIRST: (f64, f64) = (134.0, 158.0);

/// How far inside [`FIG2_FIRST`] the first flow's completion time lies: the smaller of its
/// distances to the two ends, positive inside the range and negative outside.
fn first_finish_in_fig2_range(r: &[&RunResult]) -> Result<f64, String> {
    let t = first_flow_finish(r)?;
    Ok((t - FIG2_FIRST.0).min(FIG2_FIRST.1 - t))
}

/// Rule 13: a first flow done within the paper's range finishes first, seed by seed.
fn in_range_share_bounds_order_share((lo, _): (f64, f64)) -> (f64, f64) {
    (lo, 1.0)
}

/// Rule 13: why the share of seeds finishing in range bounds the order's share.
const WHY_IN_RANGE_ORDER: &str =
    "per seed, a first flow done by 158 s finishes first: the two 100-MB \
                transfers need at least 160 s of the 10 Mb/s link (200 MB x 8 / 10 Mb/s), so \
                the latecomer cannot have finished by then. Every seed inside the range thus \
                shows the order, and a share x of seeds inside gives an order share of at \
                least x (0.8 for the tolerance, inside the order's direction above 0.5)";

/// Rule 13: MD-NF1's finish time and order, seed by seed.
const SIB_NF1_IN_RANGE: &[Sibling] = &[Sibling::Implies {
    other: "s002-md-nf1-first-finishes-first",
    map: in_range_share_bounds_order_share,
    why: WHY_IN_RANGE_ORDER,
}];

/// Rule 13: MD-NF2's finish time and order, seed by seed.
const SIB_NF2_IN_RANGE: &[Sibling] = &[Sibling::Implies {
    other: "s002-md-nf2-first-finishes-first",
    map: in_range_share_bounds_order_share,
    why: WHY_IN_RANGE_ORDER,
}];

/// The first flow's completion time against the paper's 134-158 s range (Fig. 2), judged
/// seed by seed: the completion times fall into two groups across seeds (just after 160 s
/// where the latecomer wins, inside the range where the first flow does), so their mean
/// lies between the groups and says nothing of either; each seed says instead whether its
/// first flow finishes inside the range, and the claim's value is the share of seeds that
/// do (the order form's share, rule 2).
fn finish_time_claim(
    id: &'static str,
    figure: &'static str,
    statement: &'static str,
    file: &'static str,
    siblings: &'static [Sibling],
) -> Claim {
    Claim {
        id,
        paper: PAPER,
        figure,
        statement,
        paper_value: "134-158 s",
        unit: "s",
        metric: "per seed, how far inside the paper's 134-158 s the first flow's completion \
            time lies (the smaller of t - 134 and 158 - t, positive inside); the claim's value \
            is the share of seeds whose first flow finishes inside the range",
        scenarios: vec![ScenarioRef::file(file)],
        extract: first_finish_in_fig2_range,
        draw: None,
        tolerance: super::ORDER_TOLERANCE,
        direction: super::ORDER_DIRECTION,
        tolerance_note: "decided in each seed: a seed shows the statement when its first flow \
            finishes inside the paper's 134-158 s, the range used as stated; reproduced when 8 \
            seeds in 10 do, the direction holds when more than half do",
        explanation: "Judged seed by seed because the completion times are bimodal across \
            seeds: where the latecomer wins (see the matching ...-first-finishes-first claim \
            for why, and how delay noise restores the paper's order) the first flow finishes \
            last, once both transfers are through; where the first flow wins it finishes inside the paper's \
            134-158 s. A mean over seeds lies between the two groups and could land inside \
            the range with most seeds outside it, or outside with most inside, so it is not \
            read. With 1 ms of per-packet jitter the first flow finishes inside the paper's \
            range in all 10 seeds with MD-NF1 (the report's delay-noise line for this claim).",
        form: Form::Order {
            null: 0.0,
            above: true,
        },
        null: Null::scenarios(
            "the linear decrease in this scheme's place: the latecomer dominates and the first \
                flow finishes last (Fig. 1)",
            vec![ScenarioRef::file("seed002/two-flows-linear.toml")],
        ),
        siblings,
        ..Claim::base(id)
    }
}

/// The shortest completion time of any flow in a run, each counted from its own start (the
/// paper's way: "171ms - 15ms = 156ms").
fn best_own_completion(r: &RunResult) -> Result<f64, String> {
    let mut best = f64::INFINITY;
    for f in &r.flows {
        let c = f
            .completions
            .last()
            .ok_or_else(|| format!("{}: {} did not complete", r.scenario, f.name))?;
        best = best.min(c.time_s);
    }
    Ok(best)
}

/// The two-flow runs of Figs. 1-2, the linear decrease first (the order
/// `s002-linear-best-completion-sooner`'s extractor expects).
const FIG12_FILES: [&str; 4] = [
    "seed002/two-flows-linear.toml",
    "seed002/two-flows-md-nf1.toml",
    "seed002/two-flows-md-nf2.toml",
    "seed002/two-flows-mdvar.toml",
];

/// Sections 3.2 and 5.2-5.4 beyond the first catalog round.
fn more_claims() -> Vec<Claim> {
    use crate::claims::Band::*;
    vec![
        Claim {
            figure: "section 5.2, Figs. 1-2",
            statement: "In case of linear decrease at least one user gets a much better \
                completion time, whereas with the multiplicative decrease schemes all users \
                have to wait quite long.",
            paper_value: "the linear decrease's best completion sooner",
            unit: "ratio",
            metric: "per seed, the shortest completion time of any flow (from its own start) \
                under the fastest of MD-NF1, MD-NF2 and MDvar, over the same under the linear \
                decrease (Figs. 1-2's two-flow runs); above 1 when the linear decrease's best \
                user finishes sooner than every multiplicative scheme's",
            scenarios: files(&FIG12_FILES),
            extract: |r| {
                let mut md_best = f64::INFINITY;
                for x in &r[1..] {
                    md_best = md_best.min(best_own_completion(x)?);
                }
                Ok(md_best / best_own_completion(r[0])?)
            },
            tolerance: super::ORDER_TOLERANCE,
            direction: super::ORDER_DIRECTION,
            tolerance_note: "an order, decided in each seed (the linear decrease's best user \
                finishes sooner than any multiplicative scheme's best); reproduced when 8 seeds \
                in 10 show it, the direction holds when more than half do. The paper gives no \
                size for 'much better' (its Fig. 1 latecomer's 106 s against the \
                multiplicative schemes' 134-158 s), so the order is the test",
            form: Form::Order {
                null: 1.0,
                above: true,
            },
            null: Null::scenarios(
                "MDvar in the linear decrease's place: a multiplicative scheme against the \
                    multiplicative schemes, no user favoured",
                files(&[
                    "seed002/two-flows-mdvar.toml",
                    "seed002/two-flows-md-nf1.toml",
                    "seed002/two-flows-md-nf2.toml",
                    "seed002/two-flows-mdvar.toml",
                ]),
            ),
            siblings: &[Sibling::Independent {
                other: "s002-last-finish-linear",
                why: "the last completion over the four schemes is the slowest flow's, set by \
                    the link's capacity; it bounds no flow's shortest completion time, which \
                    depends on how the link is shared",
            }],
            ..Claim::base("s002-linear-best-completion-sooner")
        },
        Claim {
            figure: "section 3.2",
            statement: "A too small beta under-uses the link (the window after a decrease no \
                longer fills the pipe).",
            paper_value: "lower utilisation",
            unit: "ratio",
            metric: "busy-period utilisation (200 MB over the last completion time) of MD-NF1 \
                with beta = 0.3 / with beta = 0.6",
            scenarios: vec![
                ScenarioRef::with(
                    "seed002/two-flows-md-nf1.toml",
                    &["flow.0.cc.beta=0.3", "flow.1.cc.beta=0.3"],
                ),
                ScenarioRef::file("seed002/two-flows-md-nf1.toml"),
            ],
            extract: |r| {
                let busy = |x: &RunResult| -> Result<f64, String> {
                    Ok(finish(x, "first")?.max(finish(x, "latecomer")?))
                };
                // the same bytes over a longer busy period = lower utilisation
                Ok(busy(r[1])? / busy(r[0])?)
            },
            tolerance: super::ORDER_TOLERANCE,
            direction: super::ORDER_DIRECTION,
            tolerance_note: "an order, decided in each seed (utilisation with beta = 0.3 below that with 0.6); reproduced when 8 seeds in 10 show it, the direction holds when more than half do",
            form: Form::Order { null: 1.0, above: false },
            null: Null::scenarios(
                "beta = 0.6 in both runs: no change of beta, so no change of utilisation",
                vec![ScenarioRef::file("seed002/two-flows-md-nf1.toml"), ScenarioRef::file("seed002/two-flows-md-nf1.toml")],
            ),
            ..Claim::base("s002-small-beta-underuses")
        },
        Claim {
            figure: "section 3.2",
            statement: "A too large beta does not drain the queue, so a latecomer keeps the \
                wrong base delay (and its advantage).",
            paper_value: "latecomer ahead",
            unit: "s",
            metric: "completion time of the latecomer minus that of the first flow, MD-NF1 \
                with beta = 0.9",
            scenarios: vec![ScenarioRef::with(
                "seed002/two-flows-md-nf1.toml",
                &["flow.0.cc.beta=0.9", "flow.1.cc.beta=0.9"],
            )],
            extract: |r| Ok(finish(r[0], "latecomer")? - finish(r[0], "first")?),
            tolerance: super::ORDER_TOLERANCE,
            direction: super::ORDER_DIRECTION,
            tolerance_note: "an order, decided in each seed (the latecomer finishing first with beta = 0.9); reproduced when 8 seeds in 10 show it, the direction holds when more than half do",
            form: Form::Order { null: 0.0, above: false },
            null: Null::scenarios(
                "MDvar's beta, computed to drain the queue, in place of the fixed 0.9: the latecomer sees the true base delay and loses its advantage (Fig. 2, lower)",
                vec![ScenarioRef::file("seed002/two-flows-mdvar.toml")],
            ),
            ..Claim::base("s002-large-beta-keeps-latecomer-ahead")
        },
        Claim {
            figure: "section 5.2",
            statement: "Two linear-decrease flows that start together share the capacity \
                equally.",
            paper_value: "equal share",
            unit: "Jain index",
            metric: "Jain's index of the two flows' mean rates from 30 s to the first \
                completion, both starting at 0",
            scenarios: vec![ScenarioRef::with(
                "seed002/two-flows-linear.toml",
                &["flow.1.start=0s"],
            )],
            extract: |r| jain_period(r[0]),
            tolerance: AtLeast { bound: 0.95 },
            direction: AtLeast { bound: 0.9 },
            tolerance_note: "as s002-md-nf1-fair",
            form: Form::Value,
            null: Null::scenarios(
                "the latecomer starts 15 s after the first flow (Fig. 1): it takes the queue as base delay and dominates",
                vec![ScenarioRef::file("seed002/two-flows-linear.toml")],
            ),
            thresholds: &[Threshold::Convention(&super::FAIR_JAIN)],
            ..Claim::base("s002-linear-together-fair")
        },
        Claim {
            figure: "Fig. 2 (upper), section 5.2",
            statement: "MD-NF2's decreases do not synchronise, but the two flows get roughly \
                equal shares.",
            paper_value: "roughly equal",
            unit: "Jain index",
            metric: "Jain's index of the two flows' mean rates from 30 s to the first \
                completion, MD-NF2",
            scenarios: vec![ScenarioRef::file("seed002/two-flows-md-nf2.toml")],
            extract: |r| jain_period(r[0]),
            tolerance: AtLeast { bound: 0.9 },
            direction: AtLeast { bound: 0.8 },
            tolerance_note: "roughly equal = F >= 0.9 (the FAIR_JAIN convention, below MD-NF1's \
                0.95: not perfectly); direction: the two flows within 1 : 3 (Jain 0.8, the \
                JAIN_ONE_TO_THREE convention)",
            thresholds: &[Threshold::Convention(&super::seed003::conventions::JAIN_ONE_TO_THREE)],
            explanation: "Tests the 'roughly equal shares' half only: the band takes a \
                perfectly fair result too, so 'not perfectly' and the missing synchronisation \
                are not tested (the coverage row says so). Stamped at 1 ms, as the paper's \
                kernels did, the share falls apart (the seed 002 stack in \
                crates/ledbat-repro/src/catalog/mod.rs): with exact stamps the flows are \
                fairer than the paper's.",
            form: Form::Value,
            null: Null::scenarios(
                "the linear decrease in this scheme's place: the latecomer takes the queue as base delay and dominates (Fig. 1)",
                vec![ScenarioRef::file("seed002/two-flows-linear.toml")],
            ),
            siblings: &[
                Sibling::Independent {
                    other: "s002-md-nf2-first-finish-time",
                    why: SIB_JAIN_FINISH,
                },
                Sibling::Independent {
                    other: "s002-md-nf2-first-finishes-first",
                    why: SIB_JAIN_ORDER,
                },
            ],
            ..Claim::base("s002-md-nf2-roughly-fair")
        },
        Claim {
            figure: "Fig. 3, sections 5.2-5.3",
            statement: "At base RTT 20 ms the fixed-beta schemes (MD-NF1, MD-NF2) do not share \
                the link fairly.",
            paper_value: "unfair",
            unit: "Jain index",
            metric: "the larger Jain index (from 30 s to the first completion) of MD-NF1 and \
                MD-NF2 at base RTT 20 ms",
            scenarios: vec![
                ScenarioRef::with("seed002/two-flows-md-nf1.toml", &["topology.delay=5ms"]),
                ScenarioRef::with("seed002/two-flows-md-nf2.toml", &["topology.delay=5ms"]),
            ],
            extract: |r| Ok(jain_period(r[0])?.max(jain_period(r[1])?)),
            thresholds: &[Threshold::Convention(&super::FAIR_JAIN)],
            tolerance: Below { bound: 0.9 },
            direction: Below { bound: 0.9 },
            tolerance_note: "unfair = not fair by the FAIR_JAIN convention (Jain below 0.9) for \
                both schemes; the direction is the same: the statement gives no degree of \
                unfairness",
            form: Form::Value,
            null: Null::scenarios(
                "base RTT 40 ms, where the paper shows the fixed-beta schemes sharing equally (Fig. 2)",
                vec![ScenarioRef::file("seed002/two-flows-md-nf1.toml"), ScenarioRef::file("seed002/two-flows-md-nf2.toml")],
            ),
            ..Claim::base("s002-fixed-beta-unfair-rtt20")
        },
        Claim {
            figure: "Fig. 4, section 5.2",
            statement: "With five MD-NF1 flows 15 s apart the later arrivals keep disturbing \
                the others, whereas MDvar flows share equally after a short time.",
            paper_value: "less fair than MDvar",
            unit: "Jain difference",
            metric: "Jain index of the present flows' mean rates in the 10 s after each \
                arrival (flows 2-5), averaged over the four arrivals: MDvar minus MD-NF1",
            scenarios: vec![
                ScenarioRef::file("seed002/five-flows-mdvar.toml"),
                ScenarioRef::with(
                    "seed002/five-flows-mdvar.toml",
                    &[format!("flow.0.cc={MD_NF1}")],
                ),
            ],
            extract: |r| Ok(arrival_jain(r[0])? - arrival_jain(r[1])?),
            tolerance: super::ORDER_TOLERANCE,
            direction: super::ORDER_DIRECTION,
            tolerance_note: "an order, decided in each seed (MD-NF1's five flows less fair than MDvar's); reproduced when 8 seeds in 10 show it, the direction holds when more than half do",
            explanation:
                "The window is the arrival phases, where the paper's 'later arrivals keep \
                disturbing the others' lies. The first window, all five flows present (s002-mdvar-fair-5-flows's, fixed \
                before running and shared with it), could not show it: there MD-NF1, MD-NF2 \
                and MDvar are all fair to within a thousandth and each \
                seed's order was decided by differences of 1e-5. In the arrival phases the \
                newcomers do disturb the sharing (with MD-NF1 the second flow takes 8.7 of 10 \
                Mb/s for 10 s after joining, seed 1, `ledbat sim \
                scenarios/seed002/five-flows-mdvar.toml --set flow.0.cc={MD-NF1's table} \
                --set warmup=15s`, 5-s mean rates), but MDvar's newcomers disturb it as much: \
                without delay noise the three schemes differ little (the knife edge of \
                s002-md-nf1-first-finishes-first).",
            form: Form::Order { null: 0.0, above: true },
            null: Null::scenarios(
                "MDvar in both runs: the same scheme on both sides, no difference in fairness",
                vec![ScenarioRef::file("seed002/five-flows-mdvar.toml"), ScenarioRef::file("seed002/five-flows-mdvar.toml")],
            ),
            ..Claim::base("s002-five-md-nf1-less-fair")
        },
        Claim {
            figure: "section 5.2",
            statement: "With five MD-NF2 flows the flows again do not synchronise (and share \
                less equally than MDvar's).",
            paper_value: "less fair than MDvar",
            unit: "Jain difference",
            metric: "Jain index of the present flows' mean rates in the 10 s after each \
                arrival (flows 2-5), averaged over the four arrivals: MDvar minus MD-NF2",
            scenarios: vec![
                ScenarioRef::file("seed002/five-flows-mdvar.toml"),
                ScenarioRef::with(
                    "seed002/five-flows-mdvar.toml",
                    &[format!("flow.0.cc={MD_NF2}")],
                ),
            ],
            extract: |r| Ok(arrival_jain(r[0])? - arrival_jain(r[1])?),
            tolerance: super::ORDER_TOLERANCE,
            direction: super::ORDER_DIRECTION,
            tolerance_note: "an order, decided in each seed (MD-NF2's five flows less fair than MDvar's); reproduced when 8 seeds in 10 show it, the direction holds when more than half do",
            explanation:
                "As for MD-NF1 (s002-five-md-nf1-less-fair): the window is the 10 s after each \
                arrival, since all three schemes are fair once the five flows are present.",
            form: Form::Order { null: 0.0, above: true },
            null: Null::scenarios(
                "MDvar in both runs: the same scheme on both sides, no difference in fairness",
                vec![ScenarioRef::file("seed002/five-flows-mdvar.toml"), ScenarioRef::file("seed002/five-flows-mdvar.toml")],
            ),
            ..Claim::base("s002-five-md-nf2-less-fair")
        },
        Claim {
            figure: "Fig. 5, section 5.3",
            statement: "With 2-5 staggered flows the linear decrease gets a higher mean sum \
                rate than MDvar, most clearly for large transfers.",
            paper_value: "linear > MDvar",
            unit: "Mb/s",
            metric: "linear minus MDvar mean sum rate at 300 MB per flow, mean over N = 2 and 5",
            scenarios: fig5_points(),
            extract: |r| {
                let mut d = 0.0;
                for n in 0..FIG5_N.len() {
                    d += sum_rate(r[fig5_at(false, n, 2)])? - sum_rate(r[fig5_at(true, n, 2)])?;
                }
                Ok(d / FIG5_N.len() as f64)
            },
            draw: Some(|r| {
                let mut p = sweep_plot(
                    "Fig. 5: mean sum rate against transfer size",
                    ("transfer size per flow (MB)", "mean sum rate (Mb/s)"),
                    vec![],
                    false,
                    vec![],
                );
                for (mdvar, name) in [(false, "linear"), (true, "MDvar")] {
                    for (n, count) in FIG5_N.iter().enumerate() {
                        let pts = (0..FIG5_MB.len())
                            .filter_map(|k| {
                                sum_rate(r[fig5_at(mdvar, n, k)])
                                    .ok()
                                    .map(|y| (FIG5_MB[k], y))
                            })
                            .collect();
                        p[0].series.push(crate::plot::Series {
                            label: format!("{name}, N = {count}"),
                            points: pts,
                            scatter: false,
                        });
                    }
                }
                p
            }),
            tolerance: super::ORDER_TOLERANCE,
            direction: super::ORDER_DIRECTION,
            tolerance_note: "an order, decided in each seed (the linear decrease's sum rate above MDvar's); reproduced when 8 seeds in 10 show it, the direction holds when more than half do",
            form: Form::Order { null: 0.0, above: true },
            sweep: Some(super::SweepRange {
                key: "flow.0.traffic.bytes",
                paper: (30e6, 1000e6),
                left_out: "500 and 1000 MB per flow (and 50 MB, N = 3 and 4): five 1000-MB \
                    transfers simulate 5 GB at 10 Mb/s, over an hour of simulated time per seed \
                    and scheme; the claims judge the largest size run, 300 MB",
            }),
            null: Null::scenarios(
                "MDvar in the linear decrease's place: the same scheme on both sides, no gap",
                fig5_null(true, None),
            ),
            siblings: &[
                Sibling::Independent {
                    other: "s002-fig5-gap-grows-with-size",
                    why: "a gap that grows from 30 to 300 MB is positive at 300 MB only if it \
                        is not negative at 30 MB, which neither claim bounds",
                },
                Sibling::Independent {
                    other: "s002-fig5-sum-rate-rises-with-size",
                    why: "a rank correlation of each curve with the size says nothing of the \
                        order of two curves at one size",
                },
            ],
            ..Claim::base("s002-fig5-linear-higher-sum-rate")
        },
        Claim {
            figure: "Fig. 5, section 5.3",
            statement: "The linear decrease's advantage grows with the transfer size.",
            paper_value: "most clearly for large transfers",
            unit: "Mb/s",
            metric: "(linear - MDvar) sum rate at 300 MB minus at 30 MB, mean over N = 2 and 5",
            scenarios: fig5_points(),
            extract: |r| {
                let gap = |k: usize| -> Result<f64, String> {
                    let mut d = 0.0;
                    for n in 0..FIG5_N.len() {
                        d += sum_rate(r[fig5_at(false, n, k)])? - sum_rate(r[fig5_at(true, n, k)])?;
                    }
                    Ok(d / FIG5_N.len() as f64)
                };
                Ok(gap(2)? - gap(0)?)
            },
            tolerance: super::ORDER_TOLERANCE,
            direction: super::ORDER_DIRECTION,
            tolerance_note: "an order, decided in each seed (the linear decrease's advantage larger for the largest transfer than for the smallest); reproduced when 8 seeds in 10 show it, the direction holds when more than half do",
            form: Form::Order { null: 0.0, above: true },
            sweep: Some(super::SweepRange {
                key: "flow.0.traffic.bytes",
                paper: (30e6, 1000e6),
                left_out: "500 and 1000 MB per flow (and 50 MB, N = 3 and 4): five 1000-MB \
                    transfers simulate 5 GB at 10 Mb/s, over an hour of simulated time per seed \
                    and scheme; the claims judge the largest size run, 300 MB",
            }),
            null: Null::scenarios(
                "MDvar in the linear decrease's place: the same scheme on both sides, no gap at any size",
                fig5_null(true, None),
            ),
            siblings: &[
                Sibling::Independent {
                    other: "s002-fig5-sum-rate-rises-with-size",
                    why: "every curve's sum rate may rise with the size whether the gap \
                        between the linear and MDvar curves grows or shrinks",
                },
            ],
            ..Claim::base("s002-fig5-gap-grows-with-size")
        },
        Claim {
            figure: "Fig. 5, section 5.3",
            statement: "The sum rate rises with the transfer size, since the idle periods at \
                each start and end weigh less.",
            paper_value: "rises with size",
            unit: "Kendall τ",
            metric: "the smallest Kendall tau between size (30, 100, 300 MB) and sum rate over \
                the four curves (linear and MDvar, N = 2 and 5)",
            scenarios: fig5_points(),
            extract: |r| {
                let mut worst: f64 = 1.0;
                for mdvar in [false, true] {
                    for n in 0..FIG5_N.len() {
                        let y: Vec<f64> = (0..FIG5_MB.len())
                            .map(|k| sum_rate(r[fig5_at(mdvar, n, k)]))
                            .collect::<Result<_, _>>()?;
                        worst = worst.min(kendall_tau(&FIG5_MB, &y));
                    }
                }
                Ok(worst)
            },
            tolerance: AtLeast { bound: 0.99 },
            direction: Above { bound: 0.0 },
            tolerance_note: "every curve rises (three points, tau = 1); direction: none falls \
                on balance (tau above 0, which over three points is at least 1/3)",
            explanation:
                "Every sum rate is within 1-3 % of the link (seed 1: linear 9.67 / 9.90 / 9.97 \
                Mb/s at 30 / 100 / 300 MB with two flows, MDvar with five 9.87 / 9.84 / 9.92, \
                `ledbat sim scenarios/seed002/fig5-mdvar.toml --set flow.0.count=5 --set \
                flow.0.traffic.bytes=100000000`), so the start and end idle periods that make \
                the paper's rates rise weigh a few hundredths of a Mb/s here, less than the \
                seed-to-seed spread, and one curve's order is a coin toss. Our schemes idle \
                the link less at each start and end than the paper's, for the reason found at \
                s002-md-lower-utilisation (no delay noise, so hardly any probing decreases).",
            form: Form::Effect { null: 0.0 },
            sweep: Some(super::SweepRange {
                key: "flow.0.traffic.bytes",
                paper: (30e6, 1000e6),
                left_out: "500 and 1000 MB per flow (and 50 MB, N = 3 and 4): five 1000-MB \
                    transfers simulate 5 GB at 10 Mb/s, over an hour of simulated time per seed \
                    and scheme; the claims judge the largest size run, 300 MB",
            }),
            null: Null::scenarios(
                "every point at 30 MB per flow: no change of size, so no change of the idle periods' weight",
                fig5_null(false, Some(0)),
            ),
            ..Claim::base("s002-fig5-sum-rate-rises-with-size")
        },
        Claim {
            figure: "section 5.4",
            statement: "At 20 Mb/s with a 60-packet queue TCP's slow-start losses hit only TCP, \
                so LEDBAT never falls back to halving.",
            paper_value: "no LEDBAT loss",
            unit: "ratio",
            metric: "LEDBAT's retransmissions / TCP's, from 30 s (the upper scenario of Fig. 6)",
            scenarios: vec![ScenarioRef::file("seed002/tcp-20mbps-linear.toml")],
            extract: |r| {
                let l = r[0]
                    .flows
                    .iter()
                    .find(|f| f.name == "ledbat")
                    .ok_or("no ledbat")?;
                let t = r[0]
                    .flows
                    .iter()
                    .find(|f| f.name == "tcp")
                    .ok_or("no tcp")?;
                Ok(l.retransmits as f64 / t.retransmits.max(1) as f64)
            },
            tolerance: AtMost { bound: 0.0 },
            direction: AtMost { bound: 0.0 },
            tolerance_note: "none, as the direction: 'only hits the standard TCP flow' leaves \
                LEDBAT no loss, and the statement names no share of TCP's losses that would \
                still read as none",
            explanation: "Root cause at s002-linear-does-not-yield-20mbps: with delayed ACKs \
                our LEDBAT sends pairs of packets and shares TCP's overflows; without delayed \
                ACKs it retransmits nothing. The form is 'no effect': TCP's slow-start \
                overflows leave LEDBAT without a loss, the value 0.",
            form: Form::Alike { null: 0.0 },
            null: Null::run(
                "LEDBAT replaced by a second NewReno: a loss-based flow shares TCP's slow-start overflows",
                &["flow.0.cc={ name = \"newreno\" }"],
            ),
            ..Claim::base("s002-slow-start-losses-hit-only-tcp")
        },
        Claim {
            figure: "section 5.4",
            statement: "With delayed ACKs the minimum-decrease variant also increases more \
                slowly (than the linear decrease, Fig. 6), because delay noise from the ACK \
                timer triggers decreases.",
            paper_value: "slower with delayed ACKs",
            unit: "ratio",
            metric: "LEDBAT's mean window over 5-20 s (before TCP joins), linear decrease / \
                ledbat-linear-min, both with delayed ACKs (Fig. 6's two runs)",
            scenarios: files(&[
                "seed002/tcp-20mbps-linear.toml",
                "seed002/tcp-20mbps-linear-min.toml",
            ]),
            extract: |r| Ok(cwnd_between(r[0], 0, 5.0, 20.0)? / cwnd_between(r[1], 0, 5.0, 20.0)?),
            tolerance: AtLeast { bound: 1.1 },
            direction: AtLeast { bound: 1.02 },
            tolerance_note: "more slowly = a window at least 10 % smaller than the linear \
                decrease's; direction: at least 2 % smaller (the VISIBLY_SLOWER convention), so \
                that the minimum decrease's own small cut near the target, without the noise \
                the statement names, does not decide it",
            thresholds: &[Threshold::Convention(&VISIBLY_SLOWER)],
            explanation:
                "Mechanism: our delayed ACKs add no noise to the delay samples, so the \
                minimum decrease seldom fires before TCP joins and the two windows differ by \
                less than the direction's 2 %. Our receiver takes each data packet's one-way \
                delay on arrival and an ACK echoes the sample of the packet that triggered it, \
                so waiting for a second packet or the ACK timer changes no sample. The paper's \
                Linux receiver echoes the first packet's timestamp at the ACK's send time \
                (section 4), which carries the wait as artificial delay; modelling that echo \
                rule would be a change to the simulator's transport, not made here. The \
                former metric compared linear-min with delayed ACKs off and on, not the \
                paper's comparison with the linear decrease (Fig. 6's two runs).",
            form: Form::Effect { null: 1.0 },
            null: Null::run(
                "delayed ACKs off in both runs: the noise the paper blames for the slower increase is gone",
                &["transport.delayed_ack=false"],
            ),
            ..Claim::base("s002-delayed-ack-slows-linear-min")
        },
        Claim {
            figure: "Abstract, section 6",
            statement: "The multiplicative decrease schemes are much more sensitive to noise \
                than the linear decrease: delay noise changes their outcome more.",
            paper_value: "more sensitive",
            unit: "s",
            metric: "how far 1 ms of per-packet jitter moves the gap between the two flows' \
                completion times (latecomer minus first flow), MD-NF1 minus the linear \
                decrease: |gap with jitter - gap without| for MD-NF1 minus the same for linear",
            scenarios: noise_pairs("seed002/two-flows-md-nf1.toml"),
            extract: |r| {
                let gap = |x: &RunResult| Ok::<f64, String>(finish(x, "latecomer")? - finish(x, "first")?);
                Ok((gap(r[1])? - gap(r[0])?).abs() - (gap(r[3])? - gap(r[2])?).abs())
            },
            tolerance: Above { bound: 0.0 },
            direction: Above { bound: 0.0 },
            tolerance_note: "the paper gives no magnitude ('much more sensitive'): the band is \
                the effect's side, cut at no effect",
            explanation: "Noise stands in as 1 ms of per-packet jitter on the bottleneck, the \
                stand-in the delay-noise setup row uses; the paper's noise is its kernels' \
                timing (section 4). The outcome read is the order and gap of the two \
                completions, what Figs. 1-2 show; MD-NF1's order is the knife edge of \
                s002-md-nf1-first-finishes-first. The report's delay-noise line for this claim \
                jitters all four runs, so it shows no contrast by construction.",
            form: Form::Effect { null: 0.0 },
            null: Null::scenarios(
                "the linear decrease on both sides: the same scheme's sensitivity against \
                    itself, no difference",
                noise_pairs("seed002/two-flows-linear.toml"),
            ),
            ..Claim::base("s002-md-more-sensitive-to-noise")
        },
    ]
}

/// A scheme's two-flow run without and with 1 ms of per-packet jitter, then the linear
/// decrease's (the order `s002-md-more-sensitive-to-noise`'s extractor expects).
fn noise_pairs(file: &'static str) -> Vec<ScenarioRef> {
    vec![
        ScenarioRef::file(file),
        ScenarioRef::with(file, &["topology.jitter=1ms"]),
        ScenarioRef::file("seed002/two-flows-linear.toml"),
        ScenarioRef::with("seed002/two-flows-linear.toml", &["topology.jitter=1ms"]),
    ]
}

/// The paper's range for the first flow's completion time (Fig. 2), as the coverage row
/// 002-5.2-t-3 quotes it (the part after the paper's hyphenation of "multiplicative").
const FIG2_QUOTE: &str = "tive decrease in Figure 2 the first flow finishes after 134-158ms";

/// Rule 13: a fair share does not fix the first flow's finish time.
const SIB_JAIN_FINISH: &str = "a Jain index of at least 0.95 (0.9 for MD-NF2's 'roughly') still \
    lets either flow take up to 1.56 (2) times the other's rate, so either may finish first: the \
    fairness does not put the first flow's finish inside 134-158 s, and neither a finish time \
    nor the share of seeds finishing in that range bounds a Jain index";
/// Rule 13: a fair share does not decide the order.
const SIB_JAIN_ORDER: &str = "a Jain index of at least 0.95 still lets the latecomer take 1.56 \
    times the first flow's rate (6.1 against 3.9 Mb/s), which brings its 100 MB in by about \
    146 s, before the first flow's remaining 81 MB: a fair share does not decide the order, and \
    a share of seeds showing the order bounds no Jain index";
