//! Seed 001 (Ros & Welzl, base-delay growth): the standing queue growing every BASE_HISTORY,
//! sender jitter, short TCP transfers and web-like trains beside LEDBAT.

use super::extract::*;
use super::plots::*;
use super::{files, Claim, Form, Null, ScenarioRef, Sibling, Threshold};
use crate::stats::mean;
use ledbat_sim::RunResult;

const PAPER: &str = "seed001";

/// TCP file sizes of the Fig. 3-4 sweep, packets (the paper's axis runs from a few to a few
/// hundred packets; "small" is below 50).
const SIZES: [f64; 6] = [5.0, 10.0, 20.0, 50.0, 100.0, 200.0];
/// The file-size axis as rule 7 reads it (`flow.0.traffic.chunk_packets`, packets). The
/// paper's text gives no range for Fig. 4's axis (its ticks are not in the text): it names
/// 10-packet flows (the 152 and 566 ms example) and "small" flows below 50 packets, and
/// "large" flows only as larger. Those two named points are the range declared here; `SIZES`
/// reaches beyond both ends, to 5 and 200 packets, so "large" is read as 200 packets (four
/// times the small/large boundary), a choice of ours.
const SIZE_RANGE: super::SweepRange = super::SweepRange {
    key: "flow.0.traffic.chunk_packets",
    paper: (10.0, 50.0),
    left_out: "",
};
/// Sender jitter dmax of the Fig. 2 sweep (multiples of the 12-ms packet time, all with
/// dmax / 2 below TARGET).
const DMAX_MS: [u32; 5] = [12, 48, 96, 144, 192];

/// Files of every size of `SIZES`, alone then beside LEDBAT (12 scenario instances).
fn size_sweep() -> Vec<ScenarioRef> {
    let mut v = Vec::new();
    for file in [
        "seed001/short-tcp-alone.toml",
        "seed001/short-tcp-ledbat.toml",
    ] {
        for n in SIZES {
            v.push(ScenarioRef::with(
                file,
                &[format!("flow.0.traffic.chunk_packets=[{n}, {n}]")],
            ));
        }
    }
    v
}

/// Fig. 2's runs: the jitter sweep over `DMAX_MS`, with the interruptions.
fn jitter_sweep() -> Vec<ScenarioRef> {
    DMAX_MS
        .iter()
        .map(|d| {
            ScenarioRef::with(
                "seed001/base-growth-jitter.toml",
                &[format!("flow.0.send_jitter={d}ms")],
            )
        })
        .collect()
}

/// Fig. 1's run with the paper's fix, ledbat-pause (the instance of s001-pause-stops-growth).
fn pause_run() -> ScenarioRef {
    ScenarioRef::with(
        "seed001/base-growth.toml",
        &["flow.0.cc={ name = \"ledbat-pause\", target = \"100ms\" }"],
    )
}

/// Fig. 2's run with dmax = 240 ms, where the paper's jitter stops the growth (the instance
/// of s001-jitter-above-target-prevents).
fn jitter240_run() -> ScenarioRef {
    ScenarioRef::with(
        "seed001/base-growth-jitter.toml",
        &["flow.0.send_jitter=240ms"],
    )
}

/// The threshold between growth and no growth of the standing queue (rule 14): one packet's
/// transmission time, the granularity of the queue.
const PACKET_TIME: Threshold = Threshold::Quote {
    value: 12.0,
    written: "12 ms",
    quote: "picked as multiples of 12 ms, the transmission time of a 1500-byte packet at 1 Mbit/s",
};

/// The queueing-delay steps (ms) between consecutive growth periods of a base-growth run,
/// each period's level read over the middle 60 % of it, for the periods whose level window
/// ends before the buffer first fills (or the run ends, when it never fills).
fn steps_before_full(r: &RunResult) -> Result<Vec<f64>, String> {
    let p = growth_period(r);
    let end = first_full_buffer(r).unwrap_or(r.duration_s);
    let mut v = Vec::new();
    let mut k = 1;
    while (k as f64 + 0.8) * p <= end {
        v.push(growth_level(r, p, k)? - growth_level(r, p, k - 1)?);
        k += 1;
    }
    Ok(v)
}

/// Of a base-growth run, how far (ms) the queue falls below the full buffer in the minute
/// after it first fills: the buffer's delay minus the lowest queueing delay then.
fn drain_after_overflow(r: &RunResult) -> Result<f64, String> {
    let t = first_full_buffer(r)?;
    let link = bottleneck(r)?;
    let pkt_ms = 1500.0 * 8.0 / link.rate_bps * 1e3;
    let full = f64::from(link.buffer_pkts.ok_or("no buffer limit")?) * pkt_ms;
    let (lo, _) = window_range(&queue_delay_series(r, 1500.0)?, t, t + 60.0)?;
    Ok(full - lo)
}

/// `size_sweep` without LEDBAT: the files alone twice, so every ratio is 1.
fn size_sweep_without_ledbat() -> Vec<ScenarioRef> {
    let v = size_sweep();
    let alone = v[..SIZES.len()].to_vec();
    alone.iter().chain(&alone).cloned().collect()
}

/// Mean transfer time beside LEDBAT / alone for size index `k` of `size_sweep`.
fn size_ratio(r: &[&RunResult], k: usize) -> Result<f64, String> {
    let alone = mean(&completion_times(r[k], "tcp-files")?);
    let with = mean(&completion_times(r[SIZES.len() + k], "tcp-files")?);
    Ok(with / alone)
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
            id: "s001-base-delay-growth-step",
            paper: PAPER,
            figure: "Fig. 1",
            statement:
                "When the queue never drains, the standing queue grows by about TARGET (100 \
                ms) every BASE_HISTORY (10) minutes.",
            paper_value: "+100 ms per 10 min",
            unit: "ms",
            metric: "of the steps between consecutive growth periods whose level is read \
                before the buffer first fills (mean bottleneck queueing delay over the middle \
                60 % of each period), the one farthest from 100 ms",
            scenarios: vec![ScenarioRef::file("seed001/base-growth.toml")],
            extract: |r| {
                let v = steps_before_full(r[0])?;
                v.into_iter()
                    .max_by(|a, b| (a - 100.0).abs().total_cmp(&(b - 100.0).abs()))
                    .ok_or_else(|| "no growth period before the buffer filled".to_string())
            },
            draw: Some(|r| {
                plots([queue_plot(
                    "base-delay growth: queueing delay",
                    r[0],
                    1500.0,
                )])
            }),
            tolerance: Near {
                value: 100.0,
                tol: 20.0,
            },
            direction: Above { bound: 12.0 },
            tolerance_note: "TARGET ±20 %; direction: growth, a step of more than one packet \
                (12 ms at 1 Mb/s)",
            explanation: "",
            form: Form::Value,
            null: Null::scenarios(
                "the paper's fix, a pause before each base refresh (ledbat-pause): the queue \
                 drains, so no growth",
                vec![pause_run()],
            ),
            siblings: &[
                Sibling::Independent {
                    other: "s001-alone-steady-queue",
                    why: "the step is the difference between two periods' queues, the steady \
                        queue the first period's level; a level fits any step",
                },
                Sibling::Independent {
                    other: "s001-base-delay-growth-loss-time",
                    why: "the queue reaches the 384-ms buffer when the first period's level \
                        plus the steps reach it, so the loss time depends on the step and the \
                        first level together (a third claim's), not on the step alone",
                },
            ],
            thresholds: &[PACKET_TIME],
            ..Claim::base("s001-base-delay-growth-step")
        },
        Claim {
            id: "s001-base-delay-growth-loss-time",
            paper: PAPER,
            figure: "Fig. 1",
            statement: "The growth continues until the 32-packet (384 ms) buffer overflows, at \
                about t = 30 min in the paper's setup.",
            paper_value: "≈ 30 min",
            unit: "min",
            metric: "time the bottleneck queue first reaches the buffer limit, in minutes of \
                the paper's 10-minute growth period (BASE_HISTORY x bucket length; quick \
                mode's 5-minute period is scaled to 10)",
            scenarios: vec![ScenarioRef::file("seed001/base-growth.toml")],
            extract: |r| Ok(10.0 * first_full_buffer(r[0])? / growth_period(r[0])),
            draw: None,
            tolerance: Near {
                value: 30.0,
                tol: 6.0,
            },
            direction: Above { bound: 10.0 },
            tolerance_note: "±20 %; direction: the buffer overflows only after the base-delay \
                history of 10 min first rolls over, so through the growth",
            explanation: "",
            form: Form::Value,
            null: Null::run(
                "an 8-packet (96 ms) buffer, under TARGET: the queue LEDBAT aims at overflows \
                 it from the start, with no growth needed",
                &["topology.queue.packets=8"],
            ),
            siblings: &[Sibling::Independent {
                other: "s001-alone-steady-queue",
                why: "the loss time depends on the first level and the step together; the \
                        level alone (0.8-1.2 TARGET, 80-120 ms) with steps of unknown size \
                        allows any number of periods to the buffer",
            }],
            thresholds: &[Threshold::Quote {
                value: 10.0,
                written: "10 min",
                quote: "the history of minimum observed delays goes back 10 min",
            }],
            ..Claim::base("s001-base-delay-growth-loss-time")
        },
        Claim {
            id: "s001-jitter-below-target-still-grows",
            paper: PAPER,
            figure: "Fig. 2",
            statement: "Sender jitter with dmax/2 < TARGET (here dmax = 96 ms) plus interruptions \
                does not stop the base-delay growth.",
            paper_value: "growth persists",
            unit: "ms",
            metric: "queueing-delay step between the first two growth periods, dmax = 96 ms",
            scenarios: vec![ScenarioRef::file("seed001/base-growth-jitter.toml")],
            extract: growth_step,
            draw: Some(|r| plots([queue_plot("jitter 96 ms: queueing delay", r[0], 1500.0)])),
            tolerance: AtLeast { bound: 50.0 },
            direction: Above { bound: 12.0 },
            tolerance_note: "growth = a step of at least half of TARGET; direction: a step of \
                more than one packet (12 ms at 1 Mb/s), where the direction of 'no growth' \
                (s001-jitter-above-target-prevents) ends, so that one value cannot hold both",
            explanation: "",
            form: Form::Effect { null: 0.0 },
            null: Null::scenarios(
                "dmax = 240 ms, where dmax / 2 >= TARGET and the paper's growth stops",
                vec![jitter240_run()],
            ),
            thresholds: &[PACKET_TIME],
            ..Claim::base("s001-jitter-below-target-still-grows")
        },
        Claim {
            id: "s001-jitter-above-target-prevents",
            paper: PAPER,
            figure: "Fig. 2",
            statement:
                "Only when dmax/2 >= TARGET (here dmax = 240 ms) does jitter let the sender \
                see the true base delay and stop the growth.",
            paper_value: "no growth",
            unit: "ms",
            metric: "queueing-delay step between the first two growth periods, dmax = 240 ms",
            scenarios: vec![ScenarioRef::with(
                "seed001/base-growth-jitter.toml",
                &["flow.0.send_jitter=240ms"],
            )],
            extract: growth_step,
            draw: Some(|r| plots([queue_plot("jitter 240 ms: queueing delay", r[0], 1500.0)])),
            tolerance: AtMost { bound: 12.0 },
            direction: AtMost { bound: 12.0 },
            tolerance_note: "no growth = a step of at most one packet (12 ms at 1 Mb/s), the \
                queue's own granularity; direction: the same, where the direction of 'growth' \
                (s001-jitter-below-target-still-grows) starts",
            explanation: "",
            form: Form::Alike { null: 0.0 },
            null: Null::scenarios(
                "dmax = 96 ms, where dmax / 2 < TARGET and the paper's growth goes on",
                vec![ScenarioRef::file("seed001/base-growth-jitter.toml")],
            ),
            thresholds: &[PACKET_TIME],
            ..Claim::base("s001-jitter-above-target-prevents")
        },
        Claim {
            id: "s001-short-tcp-alone",
            paper: PAPER,
            figure: "Fig. 4(a), text",
            statement: "A 10-packet TCP transfer (RTT 25 ms) over the idle 1 Mb/s uplink takes \
                about 152 ms on average.",
            paper_value: "152 ms",
            unit: "ms",
            metric: "mean transfer time of the 10-packet files (first packet sent to last ACK)",
            scenarios: vec![ScenarioRef::file("seed001/short-tcp-alone.toml")],
            extract: mean_file_time_ms,
            draw: None,
            tolerance: Near {
                value: 152.0,
                tol: 30.4,
            },
            direction: Below { bound: 566.0 },
            tolerance_note: "text value ±20 % (initial window and ACK details of TCP-Linux \
                differ); direction: faster than the paper's 566 ms beside LEDBAT",
            explanation: "",
            form: Form::Value,
            null: Null::scenarios(
                "the same files beside a NewReno upload in LEDBAT's place: the link is no \
                 longer idle, and a loss-based upload fills the 384-ms buffer",
                vec![ScenarioRef::with(
                    "seed001/short-tcp-ledbat.toml",
                    &["flow.1.cc={ name = \"newreno\" }"],
                )],
            ),
            thresholds: &[Threshold::Quote {
                value: 566.0,
                written: "566 ms",
                quote:
                    "average transfer time goes from 152 ms to 566 ms when the LEDBAT flow is added",
            }],
            ..Claim::base("s001-short-tcp-alone")
        },
        Claim {
            id: "s001-short-tcp-beside-ledbat",
            paper: PAPER,
            figure: "Fig. 4(a), text",
            statement: "Beside a long LEDBAT upload the same 10-packet \
                transfer takes about 566 ms.",
            paper_value: "566 ms",
            unit: "ms",
            metric: "mean transfer time of the 10-packet files beside LEDBAT",
            scenarios: vec![ScenarioRef::file("seed001/short-tcp-ledbat.toml")],
            extract: mean_file_time_ms,
            draw: None,
            tolerance: Near {
                value: 566.0,
                tol: 113.2,
            },
            direction: Above { bound: 152.0 },
            tolerance_note: "text value ±20 %; direction: slower than the paper's 152 ms on the \
                idle link",
            explanation: "The slowdown is LEDBAT's standing queue: it holds about its \
                100-ms TARGET in the 1-Mb/s buffer, and every round trip of the file waits \
                behind it. The null keeps the upload but cuts its TARGET to 1 ms, so it \
                holds almost no queue: the files then take {=s001-short-tcp-beside-ledbat:null} \
                ms, far under the band. That null is judged 'differs', not 'not reproduced': \
                the direction (slower than the paper's idle-link 152 ms) cannot fail in this \
                model, whose files alone already take {=s001-short-tcp-alone} ms, so only the \
                band tells the mechanism's presence from its absence.",
            form: Form::Value,
            null: Null::run(
                "LEDBAT's TARGET cut from 100 ms to 1 ms: the upload stays but holds almost \
                 no standing queue, the delay the files wait behind",
                &["flow.1.cc.target=1ms"],
            ),
            thresholds: &[Threshold::Quote {
                value: 152.0,
                written: "152 ms",
                quote:
                    "average transfer time goes from 152 ms to 566 ms when the LEDBAT flow is added",
            }],
            ..Claim::base("s001-short-tcp-beside-ledbat")
        },
        Claim {
            id: "s001-web-upstream-shift",
            paper: PAPER,
            figure: "Fig. 5(a)",
            statement: "The transfer-time distribution of web-like upstream trains \
                shifts right beside LEDBAT.",
            paper_value: "shift right",
            unit: "ratio of medians",
            metric: "median train transfer time beside LEDBAT / alone",
            scenarios: files(&["seed001/web-up-alone.toml", "seed001/web-up-ledbat.toml"]),
            extract: train_ratio,
            draw: Some(|r| cdf_plot("web-like trains upstream", r, "web")),
            tolerance: AtLeast { bound: 1.2 },
            direction: Above { bound: 1.0 },
            tolerance_note: "a visible shift = median at least 20 % later (fixed before running)",
            explanation: "",
            form: Form::Effect { null: 1.0 },
            null: Null::scenarios(
                "the LEDBAT upload removed: the trains alone in both runs",
                files(&["seed001/web-up-alone.toml", "seed001/web-up-alone.toml"]),
            ),
            ..Claim::base("s001-web-upstream-shift")
        },
        Claim {
            id: "s001-web-downstream-shift",
            paper: PAPER,
            figure: "Fig. 6(a)",
            statement:
                "Downstream trains (sharing the uplink with LEDBAT only through their ACKs) \
                are also noticeably slower beside LEDBAT.",
            paper_value: "shift right",
            unit: "ratio of medians",
            metric: "median train transfer time beside LEDBAT / alone",
            scenarios: files(&[
                "seed001/web-down-alone.toml",
                "seed001/web-down-ledbat.toml",
            ]),
            extract: train_ratio,
            draw: Some(|r| cdf_plot("web-like trains downstream", r, "web")),
            tolerance: AtLeast { bound: 1.2 },
            direction: Above { bound: 1.0 },
            tolerance_note: "same threshold as upstream",
            explanation: "",
            form: Form::Effect { null: 1.0 },
            null: Null::scenarios(
                "the LEDBAT upload removed: the trains alone in both runs",
                files(&["seed001/web-down-alone.toml", "seed001/web-down-alone.toml"]),
            ),
            ..Claim::base("s001-web-downstream-shift")
        },
    ]
}

/// Sections II-III beyond the first catalog round: Fig. 2's sweep, Figs. 3-5's other sizes
/// and RTT, the paper's mitigation.
fn more_claims() -> Vec<Claim> {
    use crate::claims::Band::*;
    vec![
        Claim {
            figure: "section II-A, Fig. 1",
            statement: "One LEDBAT flow alone keeps a steady queue of TARGET = 100 ms (the \
                384-ms buffer takes it without loss) until its base delay is first refreshed.",
            paper_value: "TARGET (100 ms)",
            unit: "ratio",
            metric: "mean queueing delay over the middle 60 % of the first growth period / \
                TARGET (100 ms)",
            scenarios: vec![ScenarioRef::file("seed001/base-growth.toml")],
            extract: |r| Ok(growth_level(r[0], growth_period(r[0]), 0)? / 100.0),
            tolerance: Near {
                value: 1.0,
                tol: 0.2,
            },
            direction: Between {
                lo: 0.8,
                hi: 1.25,
            },
            tolerance_note: "the queue alike TARGET: within 20 %; direction: the ALIKE_RATIO \
                conventions, 0.8 to 1.25",
            form: Form::Alike { null: 1.0 },
            null: Null::run(
                "NewReno in LEDBAT's place: a loss-based window fills the 384-ms buffer \
                 instead of holding TARGET",
                &["flow.0.cc={ name = \"newreno\" }"],
            ),
            thresholds: &[
                Threshold::Convention(&super::ALIKE_RATIO_LO),
                Threshold::Convention(&super::ALIKE_RATIO_HI),
            ],
            ..Claim::base("s001-alone-steady-queue")
        },
        Claim {
            figure: "Fig. 2, section II-B",
            statement: "Sender jitter with dmax / 2 below TARGET, for every dmax tried (multiples \
                of 12 ms), plus interruptions does not stop the base-delay growth.",
            paper_value: "growth persists for every dmax/2 < TARGET",
            unit: "ms",
            metric: "smallest queueing-delay step between the first two growth periods over \
                dmax = 12, 48, 96, 144, 192 ms",
            scenarios: jitter_sweep(),
            extract: |r| min_over(r, |x| growth_step(&[x])),
            tolerance: AtLeast { bound: 50.0 },
            direction: Above { bound: 12.0 },
            tolerance_note: "as s001-jitter-below-target-still-grows, at every dmax",
            explanation:
                "Not reproduced at the top of the paper's range, for two reasons. At dmax = 192 \
                ms (dmax / 2 = 96 ms, just under TARGET) there is no growth at all, because \
                there is no standing queue to grow: LEDBAT reads its own sender jitter as \
                queueing delay and holds a window so small that it uses about 0.3 of the link, \
                the queue staying at 3-4 ms in every period, so each base refresh sees the \
                true base delay (seed 1: `ledbat sim scenarios/seed001/base-growth-jitter.toml \
                --set flow.0.send_jitter=192ms --out DIR`, mean of `bottleneck.queue_pkts` x \
                12 ms and of `ledbat.rate_mbps` over the middle 60 % of each 10-min period). \
                At dmax = 144 ms the growth starts late: the queue drains often in the first \
                period, so the step from period 0 to 1 is small (17 to 38 ms, seed 1), and the \
                levels then climb by about 60 ms per period (99, then 167 ms); at dmax = 12, 48 \
                and 96 ms the steps are 52-59 ms (seed 1, `ledbat sim \
                scenarios/seed001/base-growth-jitter.toml --set flow.0.send_jitter=D --out DIR` \
                with D = 144ms, 96ms, 48ms and 12ms). So the \
                growth persists up to dmax = 144 ms, but the paper's 'every dmax / 2 below \
                TARGET' fails near TARGET, where our LEDBAT starves itself instead of \
                building the queue.",
            sweep: Some(super::SweepRange { key: "flow.0.send_jitter", paper: (12.0, 192.0), left_out: "" }),
            form: Form::Effect { null: 0.0 },
            null: Null::scenarios(
                "dmax = 240 ms at every point, where dmax / 2 >= TARGET and the paper's growth \
                 stops",
                vec![jitter240_run(); 5],
            ),
            thresholds: &[PACKET_TIME],
            ..Claim::base("s001-jitter-sweep-still-grows")
        },
        Claim {
            figure: "Fig. 2, section II-B",
            statement: "Transmission interruptions alone (every 5-15 s, up to 50 ms) do not stop \
                the growth.",
            paper_value: "growth persists",
            unit: "ms",
            metric: "queueing-delay step between the first two growth periods, interruptions \
                without sender jitter",
            scenarios: vec![ScenarioRef::with(
                "seed001/base-growth-jitter.toml",
                &["flow.0.send_jitter=0ms"],
            )],
            extract: growth_step,
            tolerance: AtLeast { bound: 50.0 },
            direction: Above { bound: 12.0 },
            tolerance_note: "as s001-jitter-below-target-still-grows",
            form: Form::Effect { null: 0.0 },
            null: Null::scenarios(
                "sender jitter dmax = 240 ms added to the interruptions: dmax / 2 >= TARGET \
                 stops the paper's growth",
                vec![jitter240_run()],
            ),
            thresholds: &[PACKET_TIME],
            ..Claim::base("s001-interruptions-alone-grow")
        },
        Claim {
            figure: "section II-B",
            statement: "The growing base delay costs negligible throughput, in each flow of \
                Fig. 2.",
            paper_value: "negligible",
            unit: "ratio",
            metric: "LEDBAT's mean rate after its first base-delay refresh (the growth \
                periods) / before it (the first period, no growth yet), the lowest over the \
                flows of Fig. 2 (jitter dmax = 12, 48, 96, 144, 192 ms and interruptions)",
            scenarios: jitter_sweep(),
            extract: |r| {
                min_over(r, |x| {
                    let p = growth_period(x);
                    rate_between(x, 0, p, x.duration_s)
                        .and_then(|after| Ok(after / rate_between(x, 0, 0.0, p)?))
                })
            },
            sweep: Some(super::SweepRange {
                key: "flow.0.send_jitter",
                paper: (12.0, 192.0),
                left_out: "",
            }),
            tolerance: AtLeast { bound: 0.95 },
            direction: AtLeast { bound: 0.8 },
            tolerance_note: "negligible = within 5 % of the rate before any growth; direction: \
                alike, at least 0.8 of it (the ALIKE_RATIO_LO convention)",
            explanation: "The baseline is the same run before its first base-delay refresh, \
                when the queue has not grown yet.",
            null: Null::none(
                "a lone LEDBAT sender with a standing queue keeps the link busy whatever the \
                 queue's size, so no run of this setup makes the growth cost throughput",
            ),
            form: Form::Alike { null: 1.0 },
            thresholds: &[Threshold::Convention(&super::ALIKE_RATIO_LO)],
            siblings: &[Sibling::Independent {
                other: "s001-jitter-sweep-still-grows",
                why: "a lone sender that keeps a standing queue keeps the link busy whatever \
                    the queue's size, so the smallest growth step does not bound the lowest \
                    rate ratio, nor the ratio the step",
            }],
            ..Claim::base("s001-growth-costs-no-throughput")
        },
        Claim {
            figure: "Fig. 3, section II-C",
            statement: "The competing LEDBAT flow's throughput drops only when the TCP flows are \
                large: LEDBAT yields only to large flows.",
            paper_value: "falls with TCP flow size",
            unit: "Kendall τ",
            metric: "Kendall's tau between the TCP file size (5-200 packets) and LEDBAT's \
                throughput beside it",
            scenarios: size_sweep(),
            sweep: Some(SIZE_RANGE),
            extract: |r| {
                let x: Vec<f64> = r[SIZES.len()..]
                    .iter()
                    .map(|x| tput(x, "ledbat"))
                    .collect::<Result<_, _>>()?;
                Ok(kendall_tau(&SIZES, &x))
            },
            draw: Some(|r| {
                let pts = SIZES
                    .iter()
                    .zip(&r[SIZES.len()..])
                    .filter_map(|(n, x)| tput(x, "ledbat").ok().map(|t| (*n, t / 1e6)));
                sweep_plot(
                    "LEDBAT's throughput against the TCP file size",
                    ("TCP file size (packets)", "LEDBAT throughput (Mb/s)"),
                    pts.collect(),
                    true,
                    vec![],
                )
            }),
            tolerance: AtMost { bound: -0.6 },
            direction: Below { bound: 0.0 },
            tolerance_note: "a clear fall: at most two of fifteen pairs out of order; \
                direction: falls on balance",
            untestable: Some(
                "LEDBAT's throughput is the link left over by the TCP files, whose offered load \
                 (file size / think time) grows with the file size: the fall is fixed by the \
                 offered load, whether or not LEDBAT yields",
            ),
            explanation: "The tau cannot tell yielding from arithmetic: beside files of n \
                packets every 5-15 s, TCP offers about n x 12 kb / 10 s, which a busy 1 Mb/s \
                link takes out of LEDBAT's share whatever LEDBAT's controller does (NewReno in \
                LEDBAT's place falls the same way). Whether LEDBAT yields \
                shows instead in the files' transfer times: s001-small-flows-3-4x and \
                s001-large-flows-less-relative-harm.",
            null: Null::none(
                "untestable: any controller in LEDBAT's place gives the same fall (NewReno \
                 gives τ = -1 too: the quick run with flow.1.cc = newreno, 2 seeds)",
            ),
            form: Form::Effect { null: 0.0 },
            siblings: &[
                Sibling::Independent {
                    other: "s001-large-flows-less-relative-harm",
                    why: "LEDBAT's throughput against the file size and the TCP files' \
                        slowdown at two sizes: how much LEDBAT gives up does not fix how much \
                        the TCP files gain relative to being alone",
                },
                Sibling::Independent {
                    other: "s001-large-flows-timeouts-alone",
                    why: SIB_SIZES_ALONE,
                },
                Sibling::Independent {
                    other: "s001-small-flows-3-4x",
                    why: "LEDBAT's throughput falling with the file size and the small files' \
                        slowdown of 3-4 do not bound each other: the slowdown is set by the \
                        queue LEDBAT keeps, not by its rate",
                },
            ],
            ..Claim::base("s001-ledbat-yields-to-large-flows")
        },
        Claim {
            figure: "Fig. 4, section II-C",
            statement: "For every flow size below 50 packets, transfer times beside LEDBAT are \
                three to four times those without.",
            paper_value: "3-4x",
            unit: "ratio of means",
            metric: "the ratio (mean transfer time beside LEDBAT / alone) farthest from 3.5, \
                over sizes 5, 10 and 20 packets",
            scenarios: size_sweep(),
            sweep: Some(SIZE_RANGE),
            extract: |r| {
                let v = (0..3)
                    .map(|k| size_ratio(r, k))
                    .collect::<Result<Vec<_>, _>>()?;
                v.into_iter()
                    .max_by(|a, b| (a - 3.5).abs().total_cmp(&(b - 3.5).abs()))
                    .ok_or_else(|| "no size".to_string())
            },
            draw: Some(|r| {
                let pts =
                    (0..SIZES.len()).filter_map(|k| size_ratio(r, k).ok().map(|v| (SIZES[k], v)));
                sweep_plot(
                    "TCP transfer time beside LEDBAT / alone",
                    ("TCP file size (packets)", "ratio of mean transfer times"),
                    pts.collect(),
                    true,
                    band("3-4x", 3.0, 4.0),
                )
            }),
            tolerance: Between { lo: 3.0, hi: 4.0 },
            direction: Above { bound: 1.0 },
            tolerance_note: "three to four times, as stated; direction: slower at all beside \
                LEDBAT",
            explanation: "The paper's 'three to four times' is now used as stated (catalog rule 4; the \
                former band widened it by 20 %). Our ratio lies near the lower edge, on either \
                side of it with the run length: quick mode's shorter transfer period falls \
                below it.",
            form: Form::Effect { null: 1.0 },
            null: Null::scenarios(
                "the LEDBAT upload removed: the files alone in both runs",
                size_sweep_without_ledbat(),
            ),
            siblings: &[
                Sibling::Independent {
                    other: "s001-large-flows-less-relative-harm",
                    why: "a slowdown of 3-4 at 10 packets bounds the first term of the \
                        difference only; the 200-packet slowdown is free",
                },
                Sibling::Independent {
                    other: "s001-large-flows-timeouts-alone",
                    why: SIB_SIZES_ALONE,
                },
            ],
            ..Claim::base("s001-small-flows-3-4x")
        },
        Claim {
            figure: "Fig. 4, section II-C",
            statement: "For large flows the relative extra latency shrinks, because LEDBAT \
                contributes less delay (yields more).",
            paper_value: "smaller ratio for large flows",
            unit: "ratio difference",
            metric: "ratio of mean transfer times (beside LEDBAT / alone) at 10 packets minus \
                at 200 packets",
            scenarios: size_sweep(),
            sweep: Some(SIZE_RANGE),
            extract: |r| Ok(size_ratio(r, 1)? - size_ratio(r, 5)?),
            explanation: "'Large' is read as the sweep's largest size, our choice: the \
                paper's text gives no range for Fig. 4's file-size axis (its ticks are not in \
                the text) and names only 10-packet flows and 'small' flows below 50 packets, \
                so the declared range is those two points and the sweep reaches past both \
                ends (`SIZE_RANGE` in crates/ledbat-repro/src/catalog/seed001.rs).",
            tolerance: super::ORDER_TOLERANCE,
            direction: super::ORDER_DIRECTION,
            tolerance_note: "an order, decided in each seed (the relative harm smaller for the large flows than for the small ones); reproduced when 8 seeds in 10 show it, the direction holds when more than half do",
            form: Form::Order { null: 0.0, above: true },
            null: Null::scenarios(
                "the LEDBAT upload removed: no harm at either size",
                size_sweep_without_ledbat(),
            ),
            siblings: &[
                Sibling::Independent {
                    other: "s001-large-flows-timeouts-alone",
                    why: "timeouts alone lengthen the 200-packet files' time alone and so \
                        lower their slowdown, but by an amount no count of timeouts fixes",
                },
            ],
            ..Claim::base("s001-large-flows-less-relative-harm")
        },
        Claim {
            figure: "Fig. 4, section II-C",
            statement: "For larger flows, timeouts start to lengthen transfers even without \
                LEDBAT.",
            paper_value: "timeouts for large flows",
            unit: "timeouts per transfer",
            metric: "retransmission timeouts per completed 200-packet transfer, alone",
            scenarios: size_sweep(),
            sweep: Some(SIZE_RANGE),
            extract: |r| {
                let f = r[5]
                    .flows
                    .iter()
                    .find(|f| f.name == "tcp-files")
                    .ok_or("no tcp-files flow")?;
                Ok(f.timeouts as f64 / f.completions.len().max(1) as f64)
            },
            tolerance: AtLeast { bound: 0.1 },
            direction: Above { bound: 0.001 },
            tolerance_note: "start to have an impact = at least one transfer in ten; \
                direction: more than none, which the NO_LOSS convention reads as under one \
                in a thousand",
            explanation: "Mechanism: our transport recovers the slow-start losses of 200-packet \
                transfers on the 32-packet buffer by fast retransmit alone: 1823 \
                retransmissions and no timeout in 47 transfers (seed 1, `ledbat sim \
                scenarios/seed001/short-tcp-alone.toml --set \
                flow.0.traffic.chunk_packets=[200, 200]`). Any packet with three later packets \
                acknowledged is declared lost (SACK-style, SCENARIOS.md), so several losses in \
                one window, and lost retransmissions, are caught without waiting for the RTO. \
                The paper's TCP-Linux in ns-2 evidently fell back to timeouts for some of \
                these losses; which of its recovery details did (the RTO floor, lost \
                retransmissions, or the limit on SACK blocks) is not established.",
            form: Form::Effect { null: 0.0 },
            null: Null::scenarios(
                "10-packet files in place of 200: the paper sees timeouts only for larger flows",
                {
                    let mut v = size_sweep();
                    v[5] = v[1].clone();
                    v
                },
            ),
            thresholds: &[Threshold::Convention(&super::NO_LOSS)],
            ..Claim::base("s001-large-flows-timeouts-alone")
        },
        Claim {
            figure: "Fig. 5(b), section II-C",
            statement: "At RTT 100 ms web-like upstream trains are also slowed beside LEDBAT.",
            paper_value: "shift right",
            unit: "ratio of medians",
            metric: "median train transfer time beside LEDBAT / alone, TCP RTT 100 ms",
            scenarios: vec![
                ScenarioRef::with("seed001/web-up-alone.toml", &["flow.0.access_delay=40ms"]),
                ScenarioRef::with("seed001/web-up-ledbat.toml", &["flow.0.access_delay=40ms"]),
            ],
            extract: train_ratio,
            tolerance: AtLeast { bound: 1.2 },
            direction: Above { bound: 1.0 },
            tolerance_note: "as s001-web-upstream-shift",
            form: Form::Effect { null: 1.0 },
            null: Null::scenarios(
                "the LEDBAT upload removed: the trains alone in both runs",
                vec![
                    ScenarioRef::with("seed001/web-up-alone.toml", &["flow.0.access_delay=40ms"]),
                    ScenarioRef::with("seed001/web-up-alone.toml", &["flow.0.access_delay=40ms"]),
                ],
            ),
            ..Claim::base("s001-web-upstream-shift-rtt100")
        },
        Claim {
            figure: "Fig. 5(a, b), section II-C",
            statement: "The added TARGET weighs relatively more at the lower RTT: trains are \
                slowed less, relatively, at RTT 100 ms than at 25 ms.",
            paper_value: "less at 100 ms",
            unit: "ratio difference",
            metric: "median ratio (beside LEDBAT / alone) at RTT 25 ms minus at RTT 100 ms",
            scenarios: vec![
                ScenarioRef::file("seed001/web-up-alone.toml"),
                ScenarioRef::file("seed001/web-up-ledbat.toml"),
                ScenarioRef::with("seed001/web-up-alone.toml", &["flow.0.access_delay=40ms"]),
                ScenarioRef::with("seed001/web-up-ledbat.toml", &["flow.0.access_delay=40ms"]),
            ],
            extract: |r| Ok(train_ratio(&r[..2])? - train_ratio(&r[2..])?),
            tolerance: super::ORDER_TOLERANCE,
            direction: super::ORDER_DIRECTION,
            tolerance_note: "an order, decided in each seed (the trains slowed relatively less at RTT 100 ms than at 25 ms); reproduced when 8 seeds in 10 show it, the direction holds when more than half do",
            explanation:
                "Ours is the opposite order, and not because of the queueing delay: at RTT 100 \
                ms the trains beside LEDBAT suffer spurious retransmission timeouts (69 \
                timeouts in 94 trains, 3672 retransmissions for 2504 drops, seed 1, `ledbat sim \
                scenarios/seed001/web-up-ledbat.toml --set flow.0.access_delay=40ms`) as the RTT \
                jumps from 100 to about 200 ms within a train while the RTO floor is 200 ms. \
                With a 1-s floor (`ledbat sim scenarios/seed001/web-up-ledbat.toml --set \
                flow.0.access_delay=40ms --set flow.0.transport={min_rto=\"1s\"}`, and the same \
                on web-up-alone.toml) the timeouts vanish and the ratio at 100 ms falls to 1.70 \
                (2.666 / 1.572 s), about the 25-ms one: the harm is then similar at both RTTs, \
                because at 1 Mb/s a train of about 100 packets is mostly transmission-bound \
                (1.2 s against 25 or 100 ms of RTT). The paper's larger relative harm at 25 ms \
                needs trains that are RTT-bound; which detail of its traffic or TCP makes them \
                so is not established.",
            form: Form::Order { null: 0.0, above: true },
            null: Null::scenarios(
                "RTT 25 ms in both pairs: the RTT no longer differs",
                files(&[
                    "seed001/web-up-alone.toml",
                    "seed001/web-up-ledbat.toml",
                    "seed001/web-up-alone.toml",
                    "seed001/web-up-ledbat.toml",
                ]),
            ),
            ..Claim::base("s001-web-rtt25-harms-more")
        },
        Claim {
            figure: "Figs. 5(a), 6(a), section II-C",
            statement: "Downstream trains are hit less than upstream ones: they compete with \
                LEDBAT for the uplink buffer only through their ACKs.",
            paper_value: "less downstream",
            unit: "ratio difference",
            metric: "median train ratio (beside LEDBAT / alone) upstream minus downstream, RTT \
                25 ms",
            scenarios: files(&[
                "seed001/web-up-alone.toml",
                "seed001/web-up-ledbat.toml",
                "seed001/web-down-alone.toml",
                "seed001/web-down-ledbat.toml",
            ]),
            extract: |r| Ok(train_ratio(&r[..2])? - train_ratio(&r[2..])?),
            tolerance: super::ORDER_TOLERANCE,
            direction: super::ORDER_DIRECTION,
            tolerance_note: "an order, decided in each seed (the upstream trains slowed \
                relatively more than the downstream ones); reproduced when 8 seeds in 10 show \
                it, the direction holds when more than half do",
            explanation: "Ours is the opposite order. Every downstream RTT carries LEDBAT's \
                standing queue on the uplink, through the ACKs, as every upstream one does; \
                what differs is the rest of the train's time. Upstream, a train of about 100 \
                packets at 1 Mb/s is mostly transmission time (`100 x 12 ms = 1.2 s`, against 25 ms \
                of RTT), \
                so TARGET's 100 ms per RTT adds relatively little; downstream, at 10 Mb/s, the \
                same train takes `100 x 1.2 ms = 0.12 s` of transmission and is bound by its RTTs, so the \
                same 100 ms per RTT multiplies its time. The paper's Fig. 6 may be read in \
                absolute terms; in relative ones our model cannot give its order.",
            null: Null::scenarios(
                "the LEDBAT upload removed: the trains alone in both pairs",
                files(&[
                    "seed001/web-up-alone.toml",
                    "seed001/web-up-alone.toml",
                    "seed001/web-down-alone.toml",
                    "seed001/web-down-alone.toml",
                ]),
            ),
            form: Form::Order { null: 0.0, above: true },
            ..Claim::base("s001-web-downstream-hit-less")
        },
        Claim {
            figure: "section III",
            statement: "Pausing at least TARGET before a base-delay refresh (ledbat-pause) stops \
                the growth of Fig. 1.",
            paper_value: "no growth",
            unit: "ms",
            metric: "queueing-delay step between the first two growth periods of Fig. 1's \
                scenario with the ledbat-pause controller",
            scenarios: vec![ScenarioRef::with(
                "seed001/base-growth.toml",
                &["flow.0.cc={ name = \"ledbat-pause\", target = \"100ms\" }"],
            )],
            extract: growth_step,
            draw: Some(|r| plots([queue_plot("ledbat-pause: queueing delay", r[0], 1500.0)])),
            tolerance: AtMost { bound: 12.0 },
            direction: AtMost { bound: 12.0 },
            tolerance_note: "as s001-jitter-above-target-prevents",
            form: Form::Alike { null: 0.0 },
            null: Null::scenarios(
                "plain LEDBAT without the pause: Fig. 1's growth",
                vec![ScenarioRef::file("seed001/base-growth.toml")],
            ),
            thresholds: &[PACKET_TIME],
            ..Claim::base("s001-pause-stops-growth")
        },
        Claim {
            figure: "section III",
            statement: "A smaller TARGET reduces LEDBAT's harm to short TCP flows.",
            paper_value: "less harm",
            unit: "ratio of means",
            metric: "mean 10-packet transfer time beside LEDBAT with TARGET 25 ms / with \
                TARGET 100 ms",
            scenarios: vec![
                ScenarioRef::with("seed001/short-tcp-ledbat.toml", &["flow.1.cc.target=25ms"]),
                ScenarioRef::file("seed001/short-tcp-ledbat.toml"),
            ],
            extract: |r| Ok(mean_file_time_ms(&r[..1])? / mean_file_time_ms(&r[1..])?),
            tolerance: AtMost { bound: 0.8 },
            direction: Below { bound: 1.0 },
            tolerance_note: "reduces = at least 20 % shorter; direction: shorter at all",
            form: Form::Effect { null: 1.0 },
            null: Null::scenarios(
                "TARGET 100 ms in both runs: the same LEDBAT, no change of TARGET",
                files(&["seed001/short-tcp-ledbat.toml", "seed001/short-tcp-ledbat.toml"]),
            ),
            ..Claim::base("s001-smaller-target-less-harm")
        },
        Claim {
            figure: "section III",
            statement: "Pausing before a base-delay refresh also reduces LEDBAT's harm to short \
                TCP flows.",
            paper_value: "less harm",
            unit: "ratio of means",
            metric: "mean 10-packet transfer time beside ledbat-pause / beside ledbat (TARGET \
                100 ms)",
            scenarios: vec![
                ScenarioRef::with(
                    "seed001/short-tcp-ledbat.toml",
                    &["flow.1.cc={ name = \"ledbat-pause\", target = \"100ms\" }"],
                ),
                ScenarioRef::file("seed001/short-tcp-ledbat.toml"),
            ],
            extract: |r| Ok(mean_file_time_ms(&r[..1])? / mean_file_time_ms(&r[1..])?),
            tolerance: AtMost { bound: 0.8 },
            direction: Below { bound: 1.0 },
            tolerance_note: "as s001-smaller-target-less-harm",
            explanation:
                "The pause acts only around a base-delay refresh: ledbat-pause stops for TARGET \
                plus an RTT about once every BASE_HISTORY - 1 bucket intervals (its module \
                comment, crates/ledbat-core/src/pause.rs), and otherwise keeps the 100-ms \
                standing queue, so short flows see that queue as they do beside plain LEDBAT. \
                What difference the full run shows comes from the other side: plain LEDBAT's \
                first base-delay refresh, about 10 min into the run, lets its queue grow \
                by TARGET for the last minute (Fig. 1's growth), which the pause prevents. \
                The run-length setup row shows it: cut before that refresh (`ledbat sim \
                scenarios/seed001/short-tcp-ledbat.toml --set duration=590s`, with and without \
                the pause) the two runs give the same transfer times, a ratio of exactly 1. So the pause reduces \
                the harm only by stopping the growth (s001-pause-stops-growth); against the \
                steady TARGET of queue it changes nothing, while the smaller TARGET does \
                (s001-smaller-target-less-harm).",
            form: Form::Effect { null: 1.0 },
            null: Null::scenarios(
                "plain LEDBAT in both runs: no pause",
                files(&["seed001/short-tcp-ledbat.toml", "seed001/short-tcp-ledbat.toml"]),
            ),
            ..Claim::base("s001-pause-less-harm")
        },
        Claim {
            figure: "Fig. 1, section II-B",
            statement: "Once the growing queue fills the buffer, losses make LEDBAT reduce its \
                rate and the buffer partly drains.",
            paper_value: "partly drained",
            unit: "ms",
            metric: "the buffer's delay (32 packets x 12 ms) minus the lowest bottleneck \
                queueing delay in the minute after the queue first reaches it",
            scenarios: vec![ScenarioRef::file("seed001/base-growth.toml")],
            extract: |r| drain_after_overflow(r[0]),
            tolerance: Between {
                lo: 12.0,
                hi: 372.0,
            },
            direction: Above { bound: 0.0 },
            tolerance_note: "partly drained = by more than the queue's granularity, one packet \
                (12 ms), and by less than the whole buffer less one packet; wider because the \
                statement gives no magnitude, only 'partially'; direction: drained at all",
            form: Form::Effect { null: 0.0 },
            null: Null::excludes(
                0.0,
                "a sender that does not reduce its window on loss keeps sending into the full \
                 buffer, which then stays full: drained by 0 ms",
            ),
            siblings: &[
                Sibling::Independent {
                    other: "s001-base-delay-growth-step",
                    why: "the steps are read before the buffer fills, the drain after it, \
                        where the loss reaction (a halved window) sets it",
                },
                Sibling::Independent {
                    other: "s001-base-delay-growth-loss-time",
                    why: "the loss time is when the buffer first fills, the drain how far the \
                        queue then falls: the loss reaction sets the second whenever the \
                        first happens",
                },
                Sibling::Independent {
                    other: "s001-alone-steady-queue",
                    why: "the first period's level is read long before the buffer fills, the \
                        drain after it",
                },
            ],
            ..Claim::base("s001-overflow-partly-drains")
        },
        Claim {
            figure: "section II-C, Fig. 4",
            statement: "Short TCP flows beside LEDBAT see roughly an extra TARGET (100 ms) of \
                queueing delay, all the time.",
            paper_value: "≈ +100 ms, all the time",
            unit: "ms",
            metric: "of the 10-s windows from the files' start (60 s) to the end of the run or \
                600 s, before LEDBAT's first base-delay refresh, the mean bottleneck queueing \
                delay beside LEDBAT farthest from 100 ms above the mean with the files alone",
            scenarios: files(&[
                "seed001/short-tcp-alone.toml",
                "seed001/short-tcp-ledbat.toml",
            ]),
            extract: |r| {
                let alone = queue_delay_series(r[0], 1500.0)?;
                let with = queue_delay_series(r[1], 1500.0)?;
                let end = r[1].duration_s.min(600.0);
                let base = window_mean(&alone, 60.0, r[0].duration_s)?;
                let mut worst: Option<f64> = None;
                let mut t = 60.0;
                while t + 10.0 <= end {
                    let x = window_mean(&with, t, t + 10.0)? - base;
                    if worst.is_none_or(|w| (x - 100.0).abs() > (w - 100.0).abs()) {
                        worst = Some(x);
                    }
                    t += 10.0;
                }
                worst.ok_or_else(|| "no 10-s window".to_string())
            },
            tolerance: Near {
                value: 100.0,
                tol: 20.0,
            },
            direction: Above { bound: 0.0 },
            tolerance_note: "TARGET ±20 %, in every 10-s window ('all the time'); direction: \
                extra delay at all",
            explanation: "The queueing delay is the bottleneck's, which every packet arriving \
                there sees, the files' packets included. The windows stop at 600 s: LEDBAT's \
                first base-delay refresh, about 10 min into the run, starts Fig. 1's growth \
                (s001-base-delay-growth-step), a second effect the statement does not speak of.",
            form: Form::Effect { null: 0.0 },
            null: Null::scenarios(
                "the LEDBAT upload removed: the files alone in both runs",
                files(&["seed001/short-tcp-alone.toml", "seed001/short-tcp-alone.toml"]),
            ),
            ..Claim::base("s001-short-tcp-extra-delay")
        },
    ]
}

/// Rule 13 (why two claims on the same runs do not, or do, bound each other).
const SIB_SIZES_ALONE: &str = "the timeouts are counted with the TCP files alone, the other \
    value beside LEDBAT: the alone run's timeouts do not bound the LEDBAT-beside one";
