//! Seed 003 (Testa), chapter 4 beyond the first catalog round: the other latecomer cases of
//! Fig. 4.1, Fig. 4.4's two traffic models, and the sensitivity of fLEDBAT to zeta against
//! TCP, against LEDBAT and for N flows (Figs. 4.5-4.6).

use super::extract::*;
use super::plots::*;
use super::{Claim, Form, Null, ScenarioRef};
use crate::stats::{jain, mean};
use ledbat_sim::RunResult;

/// zeta values of the Fig. 4.5 sweeps (the thesis's axis spans 1e-4 to 10).
const ZETA_TCP: [f64; 6] = [1e-4, 1e-3, 1e-2, 0.1, 1.0, 10.0];
const ZETA_LEDBAT: [f64; 7] = [1e-4, 1e-3, 1e-2, 0.1, 1.0, 5.0, 10.0];
/// The shaded zone of Fig. 4.5 (c) tried for N flows (Fig. 4.6), and the N.
const ZETA_ZONE: [f64; 4] = [0.01, 0.1, 0.2, 0.5];
const FLOWS_N: [u32; 3] = [2, 5, 10];

fn zeta_sweep(file: &'static str, zetas: &[f64]) -> Vec<ScenarioRef> {
    zetas
        .iter()
        .map(|z| ScenarioRef::with(file, &[format!("flow.0.cc.zeta={z}")]))
        .collect()
}

/// Fig. 4.6's runs: each N, each zeta of the zone (all flows share the one table).
fn n_points() -> Vec<ScenarioRef> {
    FLOWS_N
        .iter()
        .flat_map(|n| {
            ZETA_ZONE.iter().map(move |z| {
                ScenarioRef::with(
                    "seed003/chunks-fledbat-n.toml",
                    &[format!("flow.0.count={n}"), format!("flow.0.cc.zeta={z}")],
                )
            })
        })
        .collect()
}

/// Jain's index of the flows' mean rates over `[from, to)` s (from the time series).
fn jain_between(r: &RunResult, from: f64, to: f64) -> Result<f64, String> {
    let n = series(r)?.flows.len();
    let x: Vec<f64> = (0..n)
        .map(|i| rate_between(r, i, from, to))
        .collect::<Result<_, _>>()?;
    jain(&x).ok_or_else(|| format!("{}: no throughput in [{from}, {to}) s", r.scenario))
}

/// The flow `name`'s share of the throughput.
fn share(r: &RunResult, name: &str) -> Result<f64, String> {
    Ok(tput(r, name)? / total_tput(r))
}

/// log10 of the zeta where LEDBAT's share first reaches 1/2 along `ZETA_LEDBAT`
/// (interpolated in log zeta), or an error when it never does.
fn crossover(r: &[&RunResult]) -> Result<f64, String> {
    let s: Vec<f64> = r
        .iter()
        .map(|x| share(x, "ledbat"))
        .collect::<Result<_, _>>()?;
    for k in 1..s.len() {
        if s[k - 1] < 0.5 && s[k] >= 0.5 {
            let (a, b) = (ZETA_LEDBAT[k - 1].log10(), ZETA_LEDBAT[k].log10());
            return Ok(a + (b - a) * (0.5 - s[k - 1]) / (s[k] - s[k - 1]));
        }
    }
    Err("LEDBAT's share never crosses one half".into())
}

/// LEDBAT in place of fLEDBAT in the chunk files (their floor and cap).
const LEDBAT_CC_0: &str = "flow.0.cc={ name = \"ledbat\", target = \"25ms\", gain = 1.0, \
    min_cwnd = 1.0, allowed_increase = 1000.0 }";

/// Two backlogged fLEDBAT flows 10 s apart, both with `zeta`.
fn backlogged_10s(zeta: f64) -> ScenarioRef {
    ScenarioRef::with(
        "seed003/fledbat-fluid.toml",
        &[
            format!("flow.0.cc.zeta={zeta}"),
            format!("flow.1.cc.zeta={zeta}"),
            "flow.1.start=10s".to_string(),
        ],
    )
}

/// Fig. 4.5(a)'s sweep with fLEDBAT replaced by NewReno (one run, simulated once).
fn fledbat_tcp_as_newreno() -> Vec<ScenarioRef> {
    vec![
        ScenarioRef::with(
            "seed003/chunks-fledbat-tcp.toml",
            &["flow.0.cc={ name = \"newreno\" }"],
        );
        ZETA_TCP.len()
    ]
}

pub(super) fn claims() -> Vec<Claim> {
    let mut v = latecomer_claims();
    v.extend(zeta_claims());
    v
}

/// Fig. 4.1 and section 4.2.1; Fig. 4.4 and section 4.5.
fn latecomer_claims() -> Vec<Claim> {
    use crate::claims::Band::*;
    let tcp_first = "flow.0.cc={ name = \"newreno\", slow_start = false }";
    let b40 = "topology.queue.packets=40";
    vec![
        Claim {
            figure: "Fig. 4.1(a) bottom, section 4.2.1",
            statement: "A latecomer starting at t2 while the queue holds tQ(t2) over-estimates \
                the base delay by that much, tB(t2) = tB(t1) + tQ(t2), and so sets its target \
                higher than the first flow's.",
            paper_value: "tQ(t2): the first flow's 25-ms target",
            unit: "ms",
            metric: "mean over 20-80 s of the first flow's queueing-delay estimate minus the \
                latecomer's (both of the one shared queue, so the difference is the latecomer's \
                base-delay error), gap 10 s, B = 100",
            scenarios: vec![ScenarioRef::file("seed003/latecomer-ledbat.toml")],
            extract: |r| {
                let first = mean(&delay_estimates_from(r[0], 0, 20.0)?);
                Ok(first - mean(&delay_estimates_from(r[0], 1, 20.0)?))
            },
            tolerance: Near {
                value: 25.0,
                tol: 5.0,
            },
            direction: Above { bound: 0.0 },
            tolerance_note: "tQ(t2) is the queue the first flow holds alone at t2 = 10 s, its \
                25-ms target (it settles there within a few seconds): ±20 %; direction: the \
                latecomer's estimate is the lower, its base delay the higher",
            explanation: "",
            form: Form::Effect { null: 0.0 },
            null: Null::run(
                "both flows start together: both measure the empty queue's base delay",
                &["flow.1.start=0s"],
            ),
            siblings: &[super::Sibling::Independent {
                other: "s003-latecomer-starves-first",
                why: "the error gives the latecomer a target tQ(t2) above the first's, but \
                      whether the first starves also needs the buffer to hold both targets \
                      stacked (B = 100 does, B = 40 not): the error bounds no share by itself",
            }],
            ..Claim::base("s003-latecomer-base-overestimate")
        },
        Claim {
            figure: "section 4.2.1",
            statement: "A LEDBAT latecomer against TCP has a negligible effect: the first TCP \
                halving drains the queue and LEDBAT corrects its base delay.",
            paper_value: "negligible",
            unit: "share difference",
            metric: "|LEDBAT's share joining 10 s after TCP - joining with it|, 30-80 s, B = 40",
            scenarios: vec![
                ScenarioRef::with("seed003/latecomer-ledbat.toml", &[tcp_first, "warmup=30s", b40]),
                ScenarioRef::with(
                    "seed003/latecomer-ledbat.toml",
                    &[tcp_first, "warmup=30s", "flow.1.start=0s", b40],
                ),
            ],
            extract: |r| Ok((share(r[0], "latecomer")? - share(r[1], "latecomer")?).abs()),
            tolerance: AtMost { bound: 0.05 },
            direction: AtMost { bound: 0.2 },
            tolerance_note: "negligible = within 5 points of the share; direction: 20 points",
            explanation:
                "Run with B = 40, where the correction the thesis describes can happen: TCP's \
                window peaks at 41.7 + 40 = 81.7 packets and its halving (40.8) falls under the \
                41.7-packet pipe, so the queue empties and the latecomer measures the true base \
                delay. With B = 100 TCP's halved window (about 71 packets) leaves about 29 \
                packets queued, above LEDBAT's 20.8-packet target, so LEDBAT sits at its \
                floor whenever it starts and the claim could not fail there. Section 4.2.1 \
                states no buffer for this case.",
            form: Form::Alike { null: 0.0 },
            null: Null::scenarios(
                "TCP replaced by a first LEDBAT: the latecomer takes the standing queue for base \
                delay and nothing drains it, the advantage of Fig. 4.1",
                vec![
                    ScenarioRef::with("seed003/latecomer-ledbat.toml", &["warmup=30s", b40]),
                    ScenarioRef::with(
                        "seed003/latecomer-ledbat.toml",
                        &["warmup=30s", "flow.1.start=0s", b40],
                    ),
                ],
            ),
            ..Claim::base("s003-latecomer-vs-tcp-negligible")
        },
        Claim {
            figure: "Fig. 4.1(a) top, section 4.2.1",
            statement: "With a 2-s gap and B = 40 both flows measure the same base delay and the \
                first keeps the larger share.",
            paper_value: "first ahead",
            unit: "share difference",
            metric: "first flow's share minus the latecomer's, 20-80 s, gap 2 s, B = 40",
            scenarios: vec![ScenarioRef::with(
                "seed003/latecomer-ledbat.toml",
                &["flow.1.start=2s", "topology.queue.packets=40"],
            )],
            extract: |r| Ok(share(r[0], "first")? - share(r[0], "latecomer")?),
            tolerance: super::ORDER_TOLERANCE,
            direction: super::ORDER_DIRECTION,
            tolerance_note: "an order, decided in each seed (the first flow keeping the larger share); reproduced when 8 seeds in 10 show it, the direction holds when more than half do",
            form: Form::Order { null: 0.0, above: true },
            null: Null::run(
                "a 10-s gap (Fig. 4.1(a), middle): the queue has formed before the latecomer \
                measures its base, and it is the latecomer that gets ahead",
                &["flow.1.start=10s"],
            ),
            ..Claim::base("s003-latecomer-gap2-first-ahead")
        },
        Claim {
            figure: "Fig. 4.1(a) middle, section 4.2.1",
            statement: "With a 10-s gap and B = 40 the latecomer's doubled target drives the \
                first flow to its minimum just after 20 s.",
            paper_value: "just after 20 s",
            unit: "s",
            metric: "time the first flow's window first falls to 1.5 packets or less after 10 s, \
                gap 10 s, B = 40 (the run's end when it never does)",
            scenarios: vec![ScenarioRef::with(
                "seed003/latecomer-ledbat.toml",
                &["topology.queue.packets=40", "warmup=0s"],
            )],
            extract: |r| {
                Ok(flow_points(r[0], 0, |f| &f.cwnd_pkts)?
                    .into_iter()
                    .find(|(t, w)| *t >= 10.0 && *w <= 1.5)
                    .map_or(r[0].duration_s, |p| p.0))
            },
            draw: Some(|r| plots([cwnd_plot("latecomer 10 s later, B = 40: windows", r[0])])),
            tolerance: Between { lo: 16.0, hi: 26.4 },
            direction: AtMost { bound: 40.0 },
            tolerance_note: "20-22 s ±20 %; wider because \"just after 20 s\" is a range read off a figure, widened at both ends; direction: well before the end",
            form: Form::Value,
            null: Null::run(
                "a 2-s gap: the latecomer measures the same base delay as the first flow, \
                whose target is not doubled, and the first flow is not driven to its floor",
                &["flow.1.start=2s"],
            ),
            siblings: super::seed003::relations::GAP10_FLOOR,
            ..Claim::base("s003-latecomer-gap10-b40-first-floor")
        },
        Claim {
            figure: "Fig. 4.1(a) middle, section 4.2.1",
            statement: "With a 10-s gap and B = 40 a loss near 25 s resets the latecomer and the \
                sharing becomes fairer.",
            paper_value: "fairer after the loss",
            unit: "Jain difference",
            metric: "Jain's index of the rates over 40-80 s minus over 20-25 s (from the first \
                flow's floor, \"slightly after t = 20 s\", to the loss \"around t = 25 s\"), \
                gap 10 s, B = 40",
            scenarios: vec![ScenarioRef::with(
                "seed003/latecomer-ledbat.toml",
                &["topology.queue.packets=40", "warmup=0s"],
            )],
            extract: |r| Ok(jain_between(r[0], 40.0, 80.0)? - jain_between(r[0], 20.0, 25.0)?),
            tolerance: super::ORDER_TOLERANCE,
            direction: super::ORDER_DIRECTION,
            tolerance_note: "an order, decided in each seed (the sharing fairer after the loss than before); reproduced when 8 seeds in 10 show it, the direction holds when more than half do",
            explanation:
                "The reference window was 12-25 s until a review found it held the moment the \
                two windows cross (about 15 s), whose near-equal mean rates made the verdict \
                an artefact of the window; it is now the thesis's own 'before' interval, from \
                the first flow's floor (just after 20 s, s003-latecomer-gap10-b40-first-floor) \
                to the loss near 25 s. What a run shows (seed 1, `ledbat sim \
                scenarios/seed003/latecomer-ledbat.toml --set topology.queue.packets=40 --set \
                warmup=0s`): the first flow at its floor from 22.5 s (1 packet against the \
                latecomer's 77-82 at 23-25 s), a loss near 26 s halves the latecomer once and \
                the first flow climbs back to about 11 packets against 55. The loss time and \
                the corrected base delay themselves are read by no claim.",
            form: Form::Order { null: 0.0, above: true },
            null: Null::run(
                "B = 100: the latecomer's doubled target fits in the buffer, no loss resets it \
                and the first flow stays at its floor (s003-latecomer-starves-first)",
                &["topology.queue.packets=100"],
            ),
            ..Claim::base("s003-latecomer-gap10-b40-fairer-later")
        },
        Claim {
            figure: "Fig. 4.1(b), section 4.2.1",
            statement: "With five LEDBAT flows starting 4 s apart the last one takes all the \
                capacity.",
            paper_value: "all",
            unit: "share",
            metric: "the last flow's share of the throughput, 30-80 s",
            scenarios: vec![ScenarioRef::file("seed003/latecomer-five.toml")],
            extract: |r| Ok(r[0].flows[4].throughput_bps / total_tput(r[0])),
            draw: Some(|r| plots([rate_plot("five LEDBAT flows 4 s apart: rates", r[0])])),
            tolerance: AtLeast { bound: 0.8 },
            direction: AtLeast { bound: 0.4 },
            tolerance_note: "all = at least 80 %; direction: by far the largest (twice the fair \
                fifth)",
            form: Form::Value,
            null: Null::run(
                "the five flows started together: none arrives on another's standing queue",
                &["flow.0.start_spacing=0s"],
            ),
            ..Claim::base("s003-latecomer-five-last-takes-all")
        },
        Claim {
            figure: "Fig. 4.4(a), section 4.5.1",
            statement: "In chunk mode with zeta = 0.01 the firstcomer's multiplicative decrease \
                lets the latecomer correct its base delay, and the shares converge to equal.",
            paper_value: "equal",
            unit: "Jain index",
            metric: "long-term Jain index, two fLEDBAT flows 10 s apart, chunk mode, zeta 0.01, \
                20-120 s",
            scenarios: vec![ScenarioRef::with(
                "seed003/chunks-fledbat.toml",
                &["flow.0.cc.zeta=0.01", "flow.1.cc.zeta=0.01"],
            )],
            extract: first_jain_long,
            tolerance: AtLeast { bound: 0.95 },
            direction: AtLeast { bound: 0.8 },
            tolerance_note: "equal = F >= 0.95",
            form: Form::Value,
            null: Null::scenarios(
                "fLEDBAT replaced by LEDBAT (same chunks, same 10-s gap): no multiplicative \
                decrease lets the latecomer correct its base delay",
                vec![ScenarioRef::file("seed003/chunks-ledbat.toml")],
            ),
            thresholds: super::seed003::conventions::T_JAIN_ONE_TO_THREE,
            ..Claim::base("s003-chunks-zeta001-equal")
        },
        Claim {
            figure: "Fig. 4.4(b), section 4.5.2",
            statement: "Backlogged with zeta = 5 the queue often empties and fairness returns.",
            paper_value: "fair",
            unit: "Jain index",
            metric: "long-term Jain index, two backlogged fLEDBAT flows 10 s apart (as \
                s003-backlogged-small-zeta-latecomer), zeta 5, 20-60 s",
            scenarios: vec![backlogged_10s(5.0)],
            extract: first_jain_long,
            tolerance: AtLeast { bound: 0.9 },
            direction: AtLeast { bound: 0.75 },
            tolerance_note: "fair = F >= 0.9",
            explanation:
                "Run with a 10-s gap, as the small-zeta case, so that a latecomer error exists \
                for zeta = 5 to undo: with Fig. 4.3's 2-s gap zeta = 0.1 is already fair \
                (s003-fledbat-fluid-fair), and a fair result there would not show zeta = 5 \
                restoring fairness (the gap of Fig. 4.4(b) is not stated). With the 10-s gap \
                our queue does not flush: in most seeds the latecomer keeps nearly the whole \
                link, in a few the two share evenly (`ledbat sim \
                scenarios/seed003/fledbat-fluid.toml --set flow.0.cc.zeta=5 --set \
                flow.1.cc.zeta=5 --set flow.1.start=10s --seed N`), while with zeta = 0.01 the \
                latecomer keeps {=s003-backlogged-small-zeta-latecomer} of it. The latecomer \
                took the first flow's standing queue for base delay and holds the queue one \
                target above it, so the first flow, measuring the whole queue against its \
                target, is the one the large multiplicative decrease cuts; the latecomer's own \
                offset stays near zero and nothing empties the queue. What flushed the \
                thesis's queue is not established.",
            hinge: Some(super::Hinge {
                choice: "Fig. 4.3's 2-s gap instead of 10 s",
                alt: &["flow.1.start=2s"],
                files: &[],
                unstated: true,
            }),
            null: Null::scenarios(
                "fLEDBAT replaced by LEDBAT (same 10-s gap): no multiplicative decrease, the \
                latecomer keeps its advantage (Fig. 4.1(a))",
                vec![ScenarioRef::with(
                    "seed003/fledbat-fluid.toml",
                    &[
                        "flow.0.cc={ name = \"ledbat\", target = \"25ms\" }",
                        "flow.1.cc={ name = \"ledbat\", target = \"25ms\" }",
                        "flow.1.start=10s",
                    ],
                )],
            ),
            form: Form::Value,
            thresholds: super::seed003::conventions::T_JAIN_THREE_QUARTERS,
            ..Claim::base("s003-backlogged-zeta5-fair")
        },
        Claim {
            figure: "Fig. 4.4(b), section 4.5.2",
            statement: "Backlogged with zeta = 5 the fluid model over-estimates the queue (the \
                queue flushes).",
            paper_value: "queue below the model",
            unit: "packets",
            metric: "the model's Q* = C tau + N alpha tau / (zeta R) = 21.0 packets minus the \
                measured mean queue (time average), zeta 5",
            scenarios: vec![ScenarioRef::with(
                "seed003/fledbat-fluid.toml",
                &["flow.0.cc.zeta=5", "flow.1.cc.zeta=5"],
            )],
            extract: |r| {
                let q_star = 10e6 / 12000.0 * 0.025 + 2.0 * 0.025 / (5.0 * 0.05);
                Ok(q_star - bottleneck(r[0])?.queue_mean_time_pkts)
            },
            tolerance: super::ORDER_TOLERANCE,
            direction: super::ORDER_DIRECTION,
            tolerance_note: "an order, decided in each seed (the fluid model's queue above the simulated one); reproduced when 8 seeds in 10 show it, the direction holds when more than half do",
            explanation:
                "A weak test: Q*(5) is only 0.2 packet above C tau = 20.8 packets, so any run \
                whose mean queue stays at or under the target passes; 'slightly' is not \
                bounded. The thesis's 'the protocol is less efficient' at zeta = 5 is read by \
                no claim.",
            null: Null::scenarios(
                "zeta = 0.1 (Fig. 4.3, where the model's queue is 30.8 packets): the queue \
                stands above this claim's Q*(5)",
                vec![ScenarioRef::file("seed003/fledbat-fluid.toml")],
            ),
            form: Form::Order { null: 0.0, above: true },
            ..Claim::base("s003-backlogged-zeta5-model-over")
        },
        Claim {
            figure: "section 4.5.2",
            statement: "Backlogged, with too small a zeta the latecomer advantage persists.",
            paper_value: "latecomer ahead",
            unit: "share",
            metric: "the latecomer's share, two backlogged fLEDBAT flows 10 s apart, zeta 0.01, \
                20-60 s",
            scenarios: vec![backlogged_10s(0.01)],
            extract: |r| share(r[0], "second"),
            tolerance: AtLeast { bound: 0.7 },
            direction: AtLeast { bound: 0.5 },
            tolerance_note: "persists = the latecomer takes at least 70 %; direction: more \
                than half",
            explanation:
                "The advantage persists, but in our runs not because zeta is small: with zeta = \
                5 the latecomer keeps as much or more (s003-backlogged-zeta5-fair, whose \
                explanation gives the runs). The null run (both flows started together) shows \
                the share is the latecomer's advantage and not a bias of the setup.",
            form: Form::Value,
            null: Null::scenarios(
                "both flows started together (zeta = 0.01): there is no latecomer, and neither \
                flow takes the standing queue for base delay",
                vec![ScenarioRef::with(
                    "seed003/fledbat-fluid.toml",
                    &["flow.0.cc.zeta=0.01", "flow.1.cc.zeta=0.01", "flow.1.start=0s"],
                )],
            ),
            thresholds: super::seed003::conventions::T_MOST,
            ..Claim::base("s003-backlogged-small-zeta-latecomer")
        },
    ]
}

/// Figs. 4.5-4.6: zeta against TCP, against LEDBAT, and for N flows.
fn zeta_claims() -> Vec<Claim> {
    use crate::claims::Band::*;
    vec![
        Claim {
            figure: "Fig. 4.5(a), section 4.6.1",
            statement: "Against TCP, fLEDBAT's share goes to 0 % (fairness to 1/N) for every \
                zeta above 1e-3.",
            paper_value: "≈ 0 %",
            unit: "share",
            metric: "largest fLEDBAT share beside one NewReno over zeta = 1e-3, 1e-2, 0.1, 1, \
                10 (chunk mode)",
            scenarios: zeta_sweep("seed003/chunks-fledbat-tcp.toml", &ZETA_TCP),
            extract: |r| {
                r[1..]
                    .iter()
                    .map(|x| share(x, "fledbat"))
                    .try_fold(0.0, |m: f64, v| v.map(|v| m.max(v)))
            },
            draw: Some(|r| {
                let pts = ZETA_TCP
                    .iter()
                    .zip(r)
                    .filter_map(|(z, x)| share(x, "fledbat").ok().map(|s| (z.log10(), s)));
                sweep_plot(
                    "fLEDBAT beside TCP: fLEDBAT's share against zeta",
                    ("log10 zeta", "fLEDBAT share"),
                    pts.collect(),
                    true,
                    vec![],
                )
            }),
            tolerance: AtMost { bound: 0.1 },
            direction: AtMost { bound: 0.5 },
            tolerance_note: "≈ 0 % = at most 10 %; direction: less than half",
            explanation:
                "Root cause: under eq. 4.5 the thesis's own threshold for low priority is about \
                0.1, not 1e-3. Beside a TCP that holds the queue delta above the target, a \
                fLEDBAT window settles where the increase alpha per RTT equals the decrease \
                zeta (delta / tau) W, at W* = alpha tau / (zeta delta); with the 100-packet \
                buffer delta reaches 95 ms, so W* = 263 packets at zeta = 1e-3, 26 at 1e-2 (a \
                fair share) and 2.6 at 0.1. Backlogged (`ledbat sim \
                scenarios/seed003/chunks-fledbat-tcp.toml` with both flows' traffic \
                backlogged, seed 1) fLEDBAT keeps 42, 35, 4 and 1 % at zeta = 1e-3, 1e-2, 0.1, \
                1, as that predicts; in chunk mode TCP also idles about an RTT per chunk, \
                which fLEDBAT fills (18 % at zeta 0.1). The thesis's figure, low priority from \
                1e-3, does not follow from its stated update law.",
            sweep: Some(super::SweepRange { key: "flow.0.cc.zeta", paper: (0.0001, 10.0), left_out: "" }),
            form: Form::Value,
            null: Null::scenarios(
                "fLEDBAT replaced by NewReno: two TCP flows share the link",
                fledbat_tcp_as_newreno(),
            ),
            siblings: super::seed003::relations::FLEDBAT_TCP_LOW,
            thresholds: super::seed003::conventions::T_MOST,
            ..Claim::base("s003-fledbat-vs-tcp-low-priority")
        },
        Claim {
            figure: "Fig. 4.5(a), section 4.6.1",
            statement: "Against TCP the efficiency stays high for every zeta (fLEDBAT pushes \
                bytes TCP leaves).",
            paper_value: "high",
            unit: "efficiency",
            metric: "lowest efficiency over zeta = 1e-4 .. 10",
            scenarios: zeta_sweep("seed003/chunks-fledbat-tcp.toml", &ZETA_TCP),
            extract: |r| min_over(r, |x| Ok(x.aggregate.efficiency)),
            tolerance: AtLeast { bound: 0.95 },
            direction: AtLeast { bound: 0.85 },
            tolerance_note: "high = at least 95 %",
            explanation:
                "Our TCP in chunk mode idles for about an RTT after each 250-kB chunk: alone it \
                uses 0.785 of the link (seed 1, `ledbat sim \
                scenarios/seed003/chunks-fledbat-tcp.toml --set flow.0.start=200s`), and a \
                low-priority fLEDBAT (large zeta) leaves most of that idle time unused, so the \
                efficiency is lowest where fLEDBAT yields most. The thesis's TCP evidently \
                lost less per chunk; how its chunks were scheduled is not stated beyond 'not \
                pipelined'. The hinge: the thesis states chunk mode for every flow (section \
                4.6.1) and chunks not pipelined (section 4.5), which the scenario follows; what \
                it leaves open is how long TCP idles between chunks, and the backlogged run is \
                that idle time's lower bound, zero.",
            sweep: Some(super::SweepRange { key: "flow.0.cc.zeta", paper: (0.0001, 10.0), left_out: "" }),
            hinge: Some(super::Hinge { choice: "TCP's chunks sent back to back (backlogged) instead of one at a time", alt: &["flow.1.traffic={ kind = \"backlogged\" }"], files: &[], unstated: true }),
            form: Form::Value,
            null: Null::scenarios(
                "fLEDBAT absent (it starts after the run): TCP alone leaves its per-chunk idle \
                time unused",
                vec![
                    ScenarioRef::with("seed003/chunks-fledbat-tcp.toml", &["flow.0.start=200s"]);
                    ZETA_TCP.len()
                ],
            ),
            thresholds: super::seed003::conventions::T_EFFICIENT,
            ..Claim::base("s003-fledbat-vs-tcp-efficient")
        },
        Claim {
            figure: "Fig. 4.5(a), section 4.6.1",
            statement: "Only for zeta below 1e-3 does fLEDBAT lose its low priority against TCP.",
            paper_value: "higher share only at zeta < 1e-3",
            unit: "share difference",
            metric: "the smaller of fLEDBAT's share at zeta = 1e-4 minus its largest at zeta = \
                1e-3 .. 10 (aggressive below 1e-3) and 0.1 minus that largest (low priority, \
                at most 10 % as s003-fledbat-vs-tcp-low-priority, from 1e-3 on): both halves \
                in each seed",
            scenarios: zeta_sweep("seed003/chunks-fledbat-tcp.toml", &ZETA_TCP),
            extract: |r| {
                let rest = r[1..]
                    .iter()
                    .map(|x| share(x, "fledbat"))
                    .try_fold(0.0, |m: f64, v| v.map(|v| m.max(v)))?;
                Ok((share(r[0], "fledbat")? - rest).min(0.1 - rest))
            },
            tolerance: super::ORDER_TOLERANCE,
            direction: super::ORDER_DIRECTION,
            tolerance_note: "an order, decided in each seed (fLEDBAT's share at zeta below 1e-3 above its share at every larger zeta, and at most 10 % there); reproduced when 8 seeds in 10 show it, the direction holds when more than half do",
            sweep: Some(super::SweepRange { key: "flow.0.cc.zeta", paper: (0.0001, 10.0), left_out: "" }),
            explanation: "The 'only' half decides it: fLEDBAT is not low priority at zeta = \
                1e-3 and 1e-2 (s003-fledbat-vs-tcp-low-priority, root cause there), so the \
                exception is not confined to zeta below 1e-3. The claim read the trend alone \
                (the share at 1e-4 above the share at every zeta from 1e-2) until a review \
                found it reported reproduced on the runs that refute the statement.",
            form: Form::Order { null: 0.0, above: true },
            null: Null::scenarios(
                "fLEDBAT replaced by NewReno: it takes its half at every zeta, low priority at \
                none",
                fledbat_tcp_as_newreno(),
            ),
            siblings: super::seed003::relations::FLEDBAT_TCP_TINY,
            ..Claim::base("s003-fledbat-vs-tcp-tiny-zeta-aggressive")
        },
        Claim {
            figure: "Fig. 4.5(b), section 4.6.2",
            statement: "Against LEDBAT (random starts in [0, 10] s), LEDBAT gets less than 20 % \
                of the bottleneck for zeta below 1e-2.",
            paper_value: "< 20 %",
            unit: "share",
            metric: "LEDBAT's largest share at zeta = 1e-4 and 1e-3 (chunk mode)",
            scenarios: zeta_sweep("seed003/chunks-fledbat-ledbat.toml", &ZETA_LEDBAT),
            extract: |r| Ok(share(r[0], "ledbat")?.max(share(r[1], "ledbat")?)),
            draw: Some(|r| {
                let pts = ZETA_LEDBAT
                    .iter()
                    .zip(r)
                    .filter_map(|(z, x)| share(x, "ledbat").ok().map(|s| (z.log10(), s)));
                sweep_plot(
                    "fLEDBAT beside LEDBAT: LEDBAT's share against zeta",
                    ("log10 zeta", "LEDBAT share"),
                    pts.collect(),
                    true,
                    band("one half", 0.5, 0.5),
                )
            }),
            tolerance: AtMost { bound: 0.2 },
            direction: AtMost { bound: 0.5 },
            tolerance_note: "the thesis's bound; direction: less than half",
            sweep: Some(super::SweepRange { key: "flow.0.cc.zeta", paper: (0.0001, 10.0), left_out: "" }),
            form: Form::Value,
            null: Null::scenarios(
                "zeta = 10, beyond the crossover: fLEDBAT yields and LEDBAT takes the larger \
                part",
                vec![
                    ScenarioRef::with(
                        "seed003/chunks-fledbat-ledbat.toml",
                        &[format!("flow.0.cc.zeta={}", 10.0)]
                    );
                    2
                ],
            ),
            siblings: super::seed003::relations::FLEDBAT_LEDBAT_SMALL,
            thresholds: super::seed003::conventions::T_MOST,
            ..Claim::base("s003-fledbat-vs-ledbat-small-zeta")
        },
        Claim {
            figure: "Fig. 4.5(b), section 4.6.2",
            statement: "The crossover is near zeta = 5, beyond which fLEDBAT is lower priority \
                than LEDBAT.",
            paper_value: "≈ 5",
            unit: "log10 zeta",
            metric: "log10 of the zeta where LEDBAT's share first reaches one half (interpolated \
                over zeta = 1e-3 .. 10)",
            scenarios: zeta_sweep("seed003/chunks-fledbat-ledbat.toml", &ZETA_LEDBAT),
            extract: crossover,
            tolerance: Near {
                value: 5f64.log10(),
                tol: 0.3,
            },
            direction: Between { lo: -1.0, hi: 2.0 },
            tolerance_note: "a factor of two around 5 (the axis is logarithmic); wider because zeta is swept in coarse steps (1, 5, 10) and \"near 5\" resolves only to a factor of two; direction: within the swept range beyond 0.1",
            explanation: "Ours crosses much earlier, at log10 zeta = {=s003-fledbat-vs-ledbat-crossover}: by the law of \
                s003-fledbat-vs-tcp-low-priority, fLEDBAT's decrease overtakes its increase \
                once zeta (delta / tau) W exceeds alpha, and beside LEDBAT's standing queue \
                that happens at zeta near 0.1, not 5. The thesis's crossover at 5 would need a \
                much smaller queue offset or window than this setup gives; what it was is not \
                established.",
            sweep: Some(super::SweepRange { key: "flow.0.cc.zeta", paper: (0.0001, 10.0), left_out: "" }),
            form: Form::Value,
            null: Null::run(
                "LEDBAT replaced by fLEDBAT with zeta = 0.01: the two are alike where the zetas \
                are equal, so the crossover moves to 0.01",
                &["flow.1.cc={ name = \"fledbat\", target = \"25ms\", alpha = 1.0, zeta = 0.01, min_cwnd = 1.0, allowed_increase = 1000.0 }"],
            ),
            siblings: super::seed003::relations::FLEDBAT_LEDBAT_CROSS,
            ..Claim::base("s003-fledbat-vs-ledbat-crossover")
        },
        Claim {
            figure: "Fig. 4.5(b), section 4.6.2",
            statement: "The fLEDBAT-LEDBAT share is never fair.",
            paper_value: "never fair",
            unit: "Jain index",
            metric: "highest long-term Jain index over zeta = 1e-4 .. 10",
            scenarios: zeta_sweep("seed003/chunks-fledbat-ledbat.toml", &ZETA_LEDBAT),
            extract: |r| {
                r.iter()
                    .map(|x| jain_long(x))
                    .try_fold(0.0, |m: f64, v| v.map(|v| m.max(v)))
            },
            tolerance: AtMost { bound: 0.9 },
            direction: AtMost { bound: 0.95 },
            tolerance_note: "never fair = always below the catalog's 0.9 for fair",
            explanation:
                "Near the crossover (zeta 0.1-1) our two flows share almost evenly in a run (highest index {=s003-fledbat-vs-ledbat-never-fair}): with random start times in [0, 10] s the latecomer \
                advantage often does not develop in chunk mode. The thesis's 'never fair' \
                describes runs where one flow starves the other; its mean breakdown near 50 % \
                at the crossover is then an average over runs, which our per-run index does \
                not reproduce.",
            sweep: Some(super::SweepRange { key: "flow.0.cc.zeta", paper: (0.0001, 10.0), left_out: "" }),
            form: Form::Value,
            null: Null::scenarios(
                "LEDBAT replaced by a second fLEDBAT, both with zeta = 0.1 (the zone of Fig. \
                4.5(c)): the two share fairly",
                vec![
                    ScenarioRef::with(
                        "seed003/chunks-fledbat-ledbat.toml",
                        &["flow.1.cc={ name = \"fledbat\", target = \"25ms\", alpha = 1.0, zeta = 0.1, min_cwnd = 1.0, allowed_increase = 1000.0 }"]
                    );
                    ZETA_LEDBAT.len()
                ],
            ),
            ..Claim::base("s003-fledbat-vs-ledbat-never-fair")
        },
        Claim {
            figure: "Fig. 4.6, section 4.6.4",
            statement: "For N = 2..10 fLEDBAT flows some zeta in {0.01, 0.1, 0.2, 0.5} keeps them \
                fair.",
            paper_value: "fair for some zeta",
            unit: "Jain index",
            metric: "the smallest, over N = 2, 5, 10, of the best long-term Jain index over the \
                four zetas",
            scenarios: n_points(),
            extract: |r| {
                let z = ZETA_ZONE.len();
                (0..FLOWS_N.len())
                    .map(|n| {
                        r[n * z..(n + 1) * z]
                            .iter()
                            .map(|x| jain_long(x))
                            .try_fold(0.0, |m: f64, v| v.map(|v| m.max(v)))
                    })
                    .try_fold(f64::INFINITY, |m, v| v.map(|v| m.min(v)))
            },
            tolerance: AtLeast { bound: 0.9 },
            direction: AtLeast { bound: 0.75 },
            tolerance_note: "fair = F >= 0.9",
            form: Form::Value,
            null: Null::scenarios(
                "fLEDBAT replaced by LEDBAT (same chunks, same 2-s spacing): without the \
                multiplicative decrease the latecomers keep their advantage",
                FLOWS_N
                    .iter()
                    .flat_map(|n| {
                        std::iter::repeat_n(
                            ScenarioRef::with(
                                "seed003/chunks-fledbat-n.toml",
                                &[format!("flow.0.count={n}"), LEDBAT_CC_0.into()],
                            ),
                            ZETA_ZONE.len(),
                        )
                    })
                    .collect(),
            ),
            thresholds: super::seed003::conventions::T_JAIN_THREE_QUARTERS,
            ..Claim::base("s003-fledbat-n-flows-fair")
        },
    ]
}
