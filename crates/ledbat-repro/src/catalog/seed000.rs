//! Seed 000 (Abu & Gordon, dynamic gain): fixed against dynamic gain; utilisation, queueing
//! delay and its spread, cwnd spread, time to steady state.

use super::extract::*;
use super::plots::*;
use super::{sweep, Claim, Form, Null, ScenarioRef, Sibling, Threshold, FULL};
use ledbat_sim::RunResult;

mod more;
mod rows;

const PAPER: &str = "seed000";

/// The paper's gains g (Figs. 3-4); RFC 6817 GAIN = g x TARGET(s) = g x 0.025.
const S000_GAINS: [f64; 9] = [5.0, 10.0, 20.0, 40.0, 80.0, 160.0, 240.0, 320.0, 400.0];

/// The fixed gain at each of `gains` (paper units) in turn: RFC GAIN = g x TARGET(s) = g x
/// 0.025.
fn s000_fixed_at(gains: &[f64]) -> Vec<ScenarioRef> {
    let rfc: Vec<f64> = gains.iter().map(|g| g * 0.025).collect();
    sweep("seed000/fixed-gain.toml", "flow.0.cc.gain", &rfc)
}

/// The fixed gain at the paper's nine gains.
fn s000_fixed_sweep() -> Vec<ScenarioRef> {
    s000_fixed_at(&S000_GAINS)
}

/// Seven fixed gains over 240..400 (paper units), where Fig. 3(e)'s time to steady state
/// stays constant: the null of the claims that it falls over 5..240.
fn s000_flat_sweep() -> Vec<ScenarioRef> {
    s000_fixed_at(&[240.0, 267.0, 293.0, 320.0, 347.0, 373.0, 400.0])
}

/// The dynamic-gain sweep of `file` over the initial gains.
fn s000_dyn_sweep(file: &'static str) -> Vec<ScenarioRef> {
    sweep(file, "flow.0.cc.initial_gain", &S000_GAINS)
}

/// The fixed-gain sweep with the CBR present (from 20 s, or from 0 with `from_start`).
fn s000_fixed_cbr_sweep(from_start: bool) -> Vec<ScenarioRef> {
    S000_GAINS
        .iter()
        .map(|g| {
            let mut set = vec![format!("flow.0.cc.gain={}", g * 0.025)];
            if from_start {
                set.push("flow.1.start=0s".into());
            }
            ScenarioRef::with("seed000/fixed-gain-cbr.toml", &set)
        })
        .collect()
}

/// The 30-s trace of Figs. 3-4: fixed gain 40, fixed gain 320, dynamic gain from 320.
fn s000_traces() -> Vec<ScenarioRef> {
    vec![
        ScenarioRef::file("seed000/fig3-trace.toml"),
        ScenarioRef::with("seed000/fig3-trace.toml", &["flow.0.cc.gain=8"]),
        ScenarioRef::with(
            "seed000/fig3-trace.toml",
            &[
                "flow.0.cc={ name = \"ledbat-dynamic-gain\", target = \"25ms\", \
                 initial_gain = 320.0 }",
            ],
        ),
    ]
}

/// Bottleneck queueing-delay samples (ms) of a seed-000 run (1500-byte packets).
fn qd(r: &RunResult) -> Result<Vec<(f64, f64)>, String> {
    queue_delay_series(r, 1500.0)
}

/// Time (s) after which every 1-s window of queueing-delay samples is settled at TARGET
/// until `until`: its mean within [20, 30] ms (TARGET 25 ms +- 20 %) and every sample
/// within [10, 40] ms (a queue oscillating about 25 ms has the right mean but is not
/// settled). `until` when the queue never settles before it.
fn settling_time(r: &RunResult, until: f64) -> Result<f64, String> {
    let q = qd(r)?;
    let mut last_out = 0.0;
    let mut t = 0.0;
    while t + 1.0 <= until {
        let m = window_mean(&q, t, t + 1.0)?;
        let (lo, hi) = window_range(&q, t, t + 1.0)?;
        if !(20.0..=30.0).contains(&m) || lo < 10.0 || hi > 40.0 {
            last_out = t + 1.0;
        }
        t += 0.5;
    }
    Ok(if last_out + 1.0 > until {
        until
    } else {
        last_out
    })
}

/// Times to TARGET of the sweep's first seven gains (5..240).
fn steady_times(r: &[&RunResult]) -> Result<Vec<f64>, String> {
    r.iter().take(7).map(|x| time_to_target(x, 25.0)).collect()
}

pub(super) fn claims() -> Vec<Claim> {
    let mut v = paper_claims();
    v.extend(more::more_claims());
    v.extend(rows::row_claims());
    v
}

fn paper_claims() -> Vec<Claim> {
    use crate::claims::Band::*;
    let dyn_sweep = s000_dyn_sweep("seed000/dynamic-gain.toml");
    let dyn_cbr_sweep = s000_dyn_sweep("seed000/dynamic-gain-cbr.toml");
    vec![
        Claim {
            id: "s000-fixed320-utilisation",
            paper: PAPER,
            figure: "Fig. 4(c)",
            statement: "With fixed gain 320 the single LEDBAT flow no longer fills the 1.5 Mb/s \
                link: utilisation drops to about 70 %.",
            paper_value: "≈ 70 %",
            unit: "fraction of capacity",
            metric: "LEDBAT throughput / bottleneck rate, 10-60 s",
            scenarios: vec![ScenarioRef::file("seed000/fixed-gain.toml")],
            extract: |r| utilisation_of(r[0], "ledbat"),
            draw: Some(|r| {
                plots([
                    cwnd_plot("fixed gain 320: cwnd", r[0]),
                    queue_plot("fixed gain 320: queue", r[0], 1500.0),
                ])
            }),
            tolerance: Near {
                value: 0.70,
                tol: 0.14,
            },
            direction: Below { bound: 0.95 },
            tolerance_note: "figure value ±20 %; direction: the link no longer full (the \
                FULL convention: below 0.95 of its rate)",
            explanation: "Read at gain 320, the file's default; the paper's 'about 70 %' is where \
                its curve ends, at gain 400. There ours is 0.755 of the link, inside the same \
                band (seed 1, `ledbat sim scenarios/seed000/fixed-gain.toml --set \
                flow.0.cc.gain=10`: 1.133 Mb/s of 1.5), so the sweep point does not decide \
                the verdict.",
            form: Form::Value,
            null: Null::run(
                "fixed gain 40 (RFC GAIN 1) instead of 320: below gain 160 the paper's fixed gain \
                 fills the link",
                &["flow.0.cc.gain=1"],
            ),
            siblings: &[
                Sibling::Independent {
                    other: "s000-fixed320-cwnd-sd",
                    why: "a window swinging by 5 packets keeps the link full if its troughs \
                        stay above the pipe (about 7.5 packets) and idles it if they do not: \
                        the spread does not fix the utilisation, nor the utilisation the \
                        spread",
                },
            ],
            thresholds: &[Threshold::Convention(&FULL)],
            ..Claim::base("s000-fixed320-utilisation")
        },
        Claim {
            id: "s000-gain400-queue-sd",
            paper: PAPER,
            figure: "Fig. 4(i), section VI",
            statement: "With a fixed gain the standard deviation of the queueing delay grows \
                with the gain, from about 0 to about 35 ms at the sweep's largest gain, 400.",
            paper_value: "sd ≈ 35 ms at gain 400",
            unit: "ms",
            metric: "standard deviation of the per-packet queueing delay at \
                the bottleneck, 10-60 s, fixed gain 400 (RFC GAIN 10)",
            scenarios: vec![ScenarioRef::with(
                "seed000/fixed-gain.toml",
                &["flow.0.cc.gain=10"],
            )],
            extract: |r| Ok(bottleneck(r[0])?.qdelay_sd_ms),
            draw: None,
            tolerance: Near {
                value: 35.0,
                tol: 7.0,
            },
            direction: Above { bound: 5.0 },
            tolerance_note: "figure value ±20 %; direction: above the dynamic gain's 5 ms (s000-dynamic-queue-delay-sd's value)",
            explanation: "Root cause: the feedback delay of the current-delay filter, a \
                parameter the paper does not state. Our scenario keeps RFC 6817's \
                usual CURRENT_FILTER of 4 samples. A longer minimum filter sees the \
                queue it builds later, so the window overshoots further: at gain 400 \
                the sd of the queueing delay is 14.4 ms with a 1-sample filter, 28.5 \
                ms with 8 and 35.6 ms with 16, the mean 22.4, 42.6 and 55.4 ms (seed \
                1, `ledbat sim scenarios/seed000/fixed-gain.toml --set \
                flow.0.cc.gain=10 --set flow.0.cc.delay.filter.min.len=N`). The \
                paper's 35 ms and 50 ms (s000-fixed400-queue-delay) both correspond \
                to a filter of 12-16 samples; at gain 1 the filter changes nothing \
                (mean 24.9-26.5 ms, sd 3.2-4.0 ms for 1 to 24 samples, seed 1, `ledbat sim \
                scenarios/seed000/fixed-gain.toml --set flow.0.cc.gain=1 --set \
                flow.0.cc.delay.filter.min.len=N`). Lifting the flightsize cap \
                (`allowed_increase = 1000`) or a 1-packet window floor changes the sd by \
                less than a millisecond. The paper's ns-2.34 module is \
                not published, so the scenario keeps the RFC's filter rather than \
                the one that fits.",
            hinge: Some(super::Hinge {
                choice: "current-delay filter: 16 samples instead of RFC 6817's 4",
                alt: &["flow.0.cc.delay.filter.min.len=16"],
                files: &[],
                unstated: true,
            }),
            form: Form::Value,
            null: Null::run(
                "fixed gain 40 (RFC GAIN 1) instead of 400: at small gains the paper's sd is about 0",
                &["flow.0.cc.gain=1"],
            ),
            thresholds: &[Threshold::Quote { value: 5.0, written: "5ms", quote: "at about 27ms and 5ms" }],
            ..Claim::base("s000-gain400-queue-sd")
        },
        Claim {
            id: "s000-dynamic-cwnd-sd",
            paper: PAPER,
            figure: "Fig. 4(e)",
            statement: "With the dynamic gain, sd(cwnd) stays under 1 packet for \
                every initial gain 5..400.",
            paper_value: "< 1 packet",
            unit: "packets",
            metric: "largest cwnd standard deviation over the 9 initial gains \
                (steady state, 10-60 s)",
            scenarios: dyn_sweep.clone(),
            extract: |r| {
                Ok(r.iter()
                    .map(|x| x.flows[0].cwnd_sd_pkts)
                    .fold(0.0, f64::max))
            },
            draw: Some(|r| {
                let pts = S000_GAINS
                    .iter()
                    .zip(r)
                    .map(|(g, x)| (*g, x.flows[0].cwnd_sd_pkts));
                sweep_plot(
                    "dynamic gain: sd(cwnd) vs initial gain",
                    ("initial gain (paper units)", "sd(cwnd) (packets)"),
                    pts.collect(),
                    true,
                    band("paper: < 1", 0.0, 1.0),
                )
            }),
            tolerance: AtMost { bound: 1.0 },
            direction: AtMost { bound: 1.0 },
            tolerance_note: "the paper's own bound; direction: the same bound, the 1 packet \
                from which the fixed gain's sd rises (Fig. 4e's other curve), so that this \
                direction and s000-fixed320-cwnd-sd's (above 1 packet) exclude each other",
            explanation: "The direction is the tolerance: the paper's 1 packet is both the \
                dynamic gain's bound and where the fixed gain's curve starts to rise, so a \
                direction wider than it would overlap the fixed gain's (above 1 packet) and let \
                one value read as steady for the dynamic gain and as oscillating for the fixed \
                one.",
            sweep: Some(super::SweepRange {
                key: "flow.0.cc.initial_gain",
                paper: (5.0, 400.0),
                left_out: "",
            }),
            form: Form::Bound {
                lo: None,
                hi: Some(1.0),
            },
            null: Null::scenarios(
                "the extension off: the fixed gain at the same 9 gains (Fig. 4e's other curve)",
                s000_fixed_sweep(),
            ),
            siblings: &[
                Sibling::Independent {
                    other: "s000-dynamic-mean-cwnd",
                    why: SIB_MOMENTS,
                },
                Sibling::Independent {
                    other: "s000-dynamic-queue-delay",
                    why: SIB_MOMENTS,
                },
                Sibling::Implies {
                    other: "s000-dynamic-queue-delay-sd",
                    map: cwnd_sd_to_queue_sd,
                    why: SIB_CWND_SD_QUEUE_SD,
                },
                Sibling::Independent {
                    other: "s000-dynamic-utilisation",
                    why: "a window steady within a packet may sit below the pipe (about 7.5 \
                        packets: 125 packets/s x 60 ms) and leave the link idle, or above it \
                        and fill the link; and a full link allows any spread of the window \
                        above the pipe",
                },
            ],
            thresholds: &[Threshold::Quote { value: 1.0, written: "1 packet", quote: "from 1 packet to 5 packets" }],
            ..Claim::base("s000-dynamic-cwnd-sd")
        },
        Claim {
            id: "s000-dynamic-queue-delay",
            paper: PAPER,
            figure: "Fig. 4(h)",
            statement: "With the dynamic gain the mean queueing delay stays at about 27 ms for \
                every initial gain 5..400.",
            paper_value: "≈ 27 ms",
            unit: "ms",
            metric: "the per-gain mean bottleneck queueing delay farthest from 27 ms, \
                over the 9 initial gains",
            scenarios: dyn_sweep.clone(),
            extract: |r| {
                let v: Vec<f64> = r
                    .iter()
                    .map(|x| bottleneck(x).map(|l| l.qdelay_mean_ms))
                    .collect::<Result<_, _>>()?;
                Ok(v.into_iter()
                    .max_by(|a, b| (a - 27.0).abs().total_cmp(&(b - 27.0).abs()))
                    .unwrap_or(f64::NAN))
            },
            draw: Some(|r| {
                let pts = S000_GAINS.iter().zip(r);
                let pts =
                    pts.filter_map(|(g, x)| bottleneck(x).ok().map(|l| (*g, l.qdelay_mean_ms)));
                sweep_plot(
                    "dynamic gain: mean queueing delay vs initial gain",
                    ("initial gain (paper units)", "mean queueing delay (ms)"),
                    pts.collect(),
                    true,
                    band("paper 27 ms ±20 %", 21.6, 32.4),
                )
            }),
            tolerance: Near {
                value: 27.0,
                tol: 5.4,
            },
            direction: Below { bound: 50.0 },
            tolerance_note: "figure value ±20 %; direction: below the fixed gain's 50 ms at the top of the sweep (Fig. 4h's other curve)",
            explanation: "",
            sweep: Some(super::SweepRange {
                key: "flow.0.cc.initial_gain",
                paper: (5.0, 400.0),
                left_out: "",
            }),
            form: Form::Value,
            null: Null::scenarios(
                "the extension off: the fixed gain at the same 9 gains (Fig. 4h's other curve)",
                s000_fixed_sweep(),
            ),
            siblings: &[
                Sibling::Independent {
                    other: "s000-dynamic-mean-cwnd",
                    why: "the window holds at least its queued packets and at most the queue \
                        plus the pipe (about 7.5 packets), so a mean queue of 21.6-32.4 ms \
                        (2.7-4.1 packets) bounds the window only within about 2.7-11.6 \
                        packets, wider than the window's direction (6-24); each value is also \
                        an extreme over nine gains, not necessarily of the same gain",
                },
                Sibling::Independent {
                    other: "s000-dynamic-queue-delay-sd",
                    why: SIB_MOMENTS,
                },
                Sibling::Independent {
                    other: "s000-dynamic-utilisation",
                    why: "a full link allows any standing queue, none included, and a mean \
                        queue of 21.6-32.4 ms can come in bursts between idle spells, so \
                        neither bounds the other",
                },
            ],
            thresholds: &[Threshold::Quote { value: 50.0, written: "50ms", quote: "from 25ms to 50ms" }],
            ..Claim::base("s000-dynamic-queue-delay")
        },
        Claim {
            id: "s000-dynamic-utilisation",
            paper: PAPER,
            figure: "Fig. 4(c)",
            statement: "With the dynamic gain utilisation stays at 100 % for every initial gain.",
            paper_value: "100 %",
            unit: "fraction of capacity",
            metric: "lowest LEDBAT utilisation over the 9 initial gains, 10-60 s",
            scenarios: dyn_sweep.clone(),
            extract: |r| min_over(r, |x| utilisation_of(x, "ledbat")),
            draw: None,
            tolerance: AtLeast { bound: 0.95 },
            direction: Above { bound: 0.7 },
            tolerance_note: "full = at least 0.95; direction: above the fixed gain's ≈ 70 % at the top of the sweep",
            explanation: "",
            sweep: Some(super::SweepRange {
                key: "flow.0.cc.initial_gain",
                paper: (5.0, 400.0),
                left_out: "",
            }),
            form: Form::Value,
            null: Null::scenarios(
                "the extension off: the fixed gain at the same 9 gains (Fig. 4c's other curve)",
                s000_fixed_sweep(),
            ),
            siblings: &[
                Sibling::Independent {
                    other: "s000-dynamic-mean-cwnd",
                    why: "by Little's law a utilisation u needs a mean window of at least u x \
                        125 packets/s x 60 ms (7.1 packets at 0.95), a bound from below only: \
                        a full link allows any window above the pipe, and the utilisation is \
                        a minimum over nine gains, the window an extreme over them",
                },
                Sibling::Independent {
                    other: "s000-dynamic-queue-delay-sd",
                    why: "a full link allows any spread of the queue, and a queue that swings \
                        by a few milliseconds may or may not empty between swings, so the \
                        utilisation and the queueing-delay spread do not bound each other",
                },
            ],
            thresholds: &[Threshold::Quote { value: 0.7, written: "70%", quote: r"to $\approx 70\%$ and $\approx 45\%$" }],
            ..Claim::base("s000-dynamic-utilisation")
        },
        Claim {
            id: "s000-dynamic-utilisation-cbr",
            paper: PAPER,
            figure: "Fig. 4(c)",
            statement:
                "With the 750 kb/s CBR present, dynamic-gain LEDBAT uses the remaining half \
                of the link for every initial gain.",
            paper_value: "50 %",
            unit: "fraction of capacity",
            metric: "lowest over the 9 initial gains of LEDBAT throughput / 1.5 Mb/s, from 25 s",
            scenarios: dyn_cbr_sweep,
            extract: |r| min_over(r, |x| utilisation_of(x, "ledbat")),
            draw: Some(|r| plots([rate_plot("dynamic gain 5 with CBR: rates", r[0])])),
            tolerance: Between { lo: 0.48, hi: 0.52 },
            direction: Above { bound: 0.45 },
            tolerance_note: "as s000-fixed-cbr-half-to-80: 50 % ± 2 points (the CBR caps LEDBAT at 50 %, so more cannot come); direction: above the fixed gain's ≈ 45 % at the top of the sweep",
            explanation: "",
            sweep: Some(super::SweepRange {
                key: "flow.0.cc.initial_gain",
                paper: (5.0, 400.0),
                left_out: "",
            }),
            form: Form::Value,
            null: Null::scenarios(
                "the extension off: the fixed gain at the same 9 gains with the CBR (Fig. 4c)",
                s000_fixed_cbr_sweep(false),
            ),
            siblings: &[
                Sibling::Independent {
                    other: "s000-dynamic-cbr-cwnd-sd",
                    why: "a share of the link is a mean rate; a window steady within a packet \
                        or swinging by two allows the same mean rate",
                },
                Sibling::Independent {
                    other: "s000-dynamic-cbr-delay-flat",
                    why: "the share is LEDBAT's rate at the lowest gain, the flatness the \
                        spread across gains of the mean queueing delay; one share fits any \
                        spread of the queue",
                },
                Sibling::Independent {
                    other: "s000-dynamic-cbr-mean-cwnd",
                    why: "by Little's law a share s needs a mean window of at least s x 125 \
                        packets/s x 60 ms (3.6 packets at 0.48), a bound from below only, and \
                        the share is a minimum over nine gains, the window an extreme over \
                        them",
                },
            ],
            thresholds: &[Threshold::Quote { value: 0.45, written: "45%", quote: r"to $\approx 70\%$ and $\approx 45\%$" }],
            ..Claim::base("s000-dynamic-utilisation-cbr")
        },
        Claim {
            id: "s000-fixed320-cwnd-sd",
            paper: PAPER,
            figure: "Fig. 4(e)",
            statement: "Without the extension sd(cwnd) grows from 1 packet (gain 80) to about 5 \
                packets for large gains.",
            paper_value: "≈ 5 packets",
            unit: "packets",
            metric: "cwnd standard deviation at fixed gain 320 (RFC GAIN 8), 10-60 s",
            scenarios: vec![ScenarioRef::file("seed000/fixed-gain.toml")],
            extract: |r| Ok(r[0].flows[0].cwnd_sd_pkts),
            draw: None,
            tolerance: Near {
                value: 5.0,
                tol: 1.0,
            },
            direction: Above { bound: 1.0 },
            tolerance_note: "figure value ±20 %; direction: above the 1 packet of the small gains",
            explanation: "Read at gain 320, the file's default; the paper's 5 packets is where \
                its curve ends, at gain 400. There ours is 5.08 packets, inside the same band \
                (seed 1, `ledbat sim scenarios/seed000/fixed-gain.toml --set \
                flow.0.cc.gain=10`), so the sweep point does not decide the verdict.",
            form: Form::Value,
            null: Null::run(
                "fixed gain 40 (RFC GAIN 1) instead of 320: up to gain 80 the paper's sd is 1 packet",
                &["flow.0.cc.gain=1"],
            ),
            thresholds: &[Threshold::Quote { value: 1.0, written: "1 packet", quote: "from 1 packet to 5 packets" }],
            ..Claim::base("s000-fixed320-cwnd-sd")
        },
        Claim {
            id: "s000-fixed400-queue-delay",
            paper: PAPER,
            figure: "Fig. 4(h)",
            statement:
                "Without the extension the mean queueing delay rises from 25 ms to about 50 \
                ms as the gain grows to 400.",
            paper_value: "a rise of 25 ms: 25 ms to ≈ 50 ms at gain 400",
            unit: "ms",
            metric: "mean per-packet bottleneck queueing delay at fixed gain 400 (RFC GAIN 10) \
                minus at fixed gain 40 (RFC GAIN 1, the small gains' level in the same sweep), \
                10-60 s",
            scenarios: vec![
                ScenarioRef::with("seed000/fixed-gain.toml", &["flow.0.cc.gain=1"]),
                ScenarioRef::with("seed000/fixed-gain.toml", &["flow.0.cc.gain=10"]),
            ],
            extract: |r| Ok(bottleneck(r[1])?.qdelay_mean_ms - bottleneck(r[0])?.qdelay_mean_ms),
            draw: None,
            tolerance: Near {
                value: 25.0,
                tol: 5.0,
            },
            direction: Above { bound: 0.0 },
            tolerance_note: "the statement is a rise of 25 ms (from 25 to about 50): that rise \
                ±20 %; direction: a rise at all, against the same sweep's gain 40, not \
                against the paper's 25 ms (rule 5)",
            explanation: "Same root cause as s000-gain400-queue-sd: the current-delay filter's \
                length, which the paper does not state, sets how far the window \
                overshoots. With a 16-sample minimum filter the mean queueing delay \
                at gain 400 is 55.4 ms (seed 1, `ledbat sim scenarios/seed000/fixed-gain.toml \
                --set flow.0.cc.gain=10 --set flow.0.cc.delay.filter.min.len=16`), a rise of \
                about 30 ms over gain 40's, whose mean the filter hardly moves (24.9-26.5 ms \
                for 1 to 24 samples, s000-gain400-queue-sd's explanation); with the \
                scenario's 4 samples the rise is {=s000-fixed400-queue-delay}.",
            hinge: Some(super::Hinge {
                choice: "current-delay filter: 16 samples instead of RFC 6817's 4",
                alt: &["flow.0.cc.delay.filter.min.len=16"],
                files: &[],
                unstated: true,
            }),
            null: Null::scenarios(
                "fixed gain 40 (RFC GAIN 1) in place of 400: at small gains the paper's mean \
                 stays at 25 ms",
                vec![
                    ScenarioRef::with("seed000/fixed-gain.toml", &["flow.0.cc.gain=1"]),
                    ScenarioRef::with("seed000/fixed-gain.toml", &["flow.0.cc.gain=1"]),
                ],
            ),
            form: Form::Effect { null: 0.0 },
            ..Claim::base("s000-fixed400-queue-delay")
        },
        Claim {
            id: "s000-dynamic-queue-delay-sd",
            paper: PAPER,
            figure: "Fig. 4(i)",
            statement: "With the dynamic gain the standard deviation of the queueing delay stays \
                at about 5 ms for every initial gain.",
            paper_value: "≈ 5 ms",
            unit: "ms",
            metric: "the per-gain standard deviation of the per-packet queueing delay \
                farthest from 5 ms, over the 9 initial gains, 10-60 s",
            scenarios: dyn_sweep,
            extract: |r| farthest(r, 5.0, |x| Ok(bottleneck(x)?.qdelay_sd_ms)),
            draw: None,
            tolerance: Near {
                value: 5.0,
                tol: 1.0,
            },
            direction: Below { bound: 35.0 },
            tolerance_note: "about 5 ms ±20 %, at every gain; direction: below the 35 ms the \
                fixed gain reaches at gain 400, the contrast of Fig. 4(i)",
            explanation:
                "Read as a value at every initial gain (catalog rule 10), our dynamic gain's \
                sd lies below the figure's: it holds the queue steadier here than in the \
                paper. Whether the current-delay filter's length, the root cause of \
                s000-gain400-queue-sd, accounts for the gap is not checked. The null run \
                cannot contradict the direction in this model: with RFC 6817's 4-sample filter \
                our fixed gain's sd stays at most {=s000-gain400-queue-sd}, under the paper's \
                35 ms, at every gain, so the fixed-gain sweep also lies below 35 ms; the \
                contrast the paper draws shows instead in the bands: this claim's value \
                against s000-gain400-queue-sd's. That claim's direction (above the dynamic \
                gain's 5 ms) and this one's (below the fixed gain's 35 ms) overlap between the \
                two curves' values: the paper gives no number between them that both could \
                share, so each direction reads the other curve's value; the two tolerances \
                are disjoint, so no single value is reproduced for both, and the separation \
                the paper draws is read there.",
            sweep: Some(super::SweepRange {
                key: "flow.0.cc.initial_gain",
                paper: (5.0, 400.0),
                left_out: "",
            }),
            form: Form::Value,
            null: Null::scenarios(
                "the extension off: the fixed gain at the same 9 gains (Fig. 4i's other curve)",
                s000_fixed_sweep(),
            ),
            null_same: Some(
                "with RFC 6817's 4-sample current-delay filter the fixed gain's queueing-delay sd \
                 stays under the paper's 35 ms at every gain (s000-gain400-queue-sd), so the \
                 fixed-gain null lies inside the direction too: both differ from the paper's \
                 5 ms",
            ),
            siblings: &[Sibling::Independent { other: "s000-dynamic-mean-cwnd", why: SIB_MOMENTS }],
            thresholds: &[Threshold::Quote { value: 35.0, written: "35ms", quote: "0ms to 35ms" }],
            ..Claim::base("s000-dynamic-queue-delay-sd")
        },
        Claim {
            id: "s000-fixed-steady-time-falls",
            paper: PAPER,
            figure: "Fig. 3(e)",
            statement: "Time to reach steady state (queueing delay first at TARGET) falls as the \
                gain grows from 5 to 240.",
            paper_value: "monotone decrease (Kendall τ = -1)",
            unit: "Kendall τ",
            metric: "Kendall rank correlation between gain (5..240, 7 values) and the time the \
                flow's queueing-delay estimate first reaches 95 % of TARGET",
            scenarios: s000_fixed_sweep(),
            extract: |r| {
                let t: Vec<f64> = r
                    .iter()
                    .take(7)
                    .map(|x| time_to_target(x, 25.0))
                    .collect::<Result<_, _>>()?;
                Ok(kendall_tau(&S000_GAINS[..7], &t))
            },
            draw: Some(|r| {
                let pts = S000_GAINS.iter().zip(r);
                let pts = pts.filter_map(|(g, x)| time_to_target(x, 25.0).ok().map(|t| (*g, t)));
                sweep_plot(
                    "fixed gain: time to steady state",
                    ("gain (paper units)", "time to TARGET (s)"),
                    pts.collect(),
                    true,
                    vec![],
                )
            }),
            tolerance: AtMost { bound: -0.8 },
            direction: Below { bound: 0.0 },
            tolerance_note: "a nearly monotone fall allows one inversion among 21 pairs at \
                sample resolution (50 ms)",
            explanation: "",
            sweep: Some(super::SweepRange {
                key: "flow.0.cc.gain",
                paper: (0.125, 6.0),
                left_out: "",
            }),
            form: Form::Effect { null: 0.0 },
            null: Null::scenarios(
                "seven gains spread over 240-400, where the paper says the time stays constant",
                s000_flat_sweep(),
            ),
            siblings: &[
                Sibling::Independent {
                    other: "s000-fixed-falls-beyond-160",
                    why: SIB_STARTUP,
                },
                Sibling::Independent {
                    other: "s000-fixed-full-to-160",
                    why: SIB_STARTUP,
                },
                Sibling::Independent {
                    other: "s000-fixed-steady-time-flat",
                    why: "the two read the time to TARGET at different gains (5..240 and \
                        240..400, sharing only 240): a rank correlation over the first seven \
                        and a relative spread over the last three do not bound each other",
                },
                Sibling::Independent {
                    other: "s000-fixed400-mean-cwnd",
                    why: SIB_STARTUP,
                },
            ],
            ..Claim::base("s000-fixed-steady-time-falls")
        },
    ]
}

/// The value of `f` over the runs that lies farthest from `centre`.
fn farthest(
    r: &[&RunResult],
    centre: f64,
    f: fn(&RunResult) -> Result<f64, String>,
) -> Result<f64, String> {
    let v: Vec<f64> = r.iter().map(|x| f(x)).collect::<Result<_, _>>()?;
    v.into_iter()
        .max_by(|a, b| (a - centre).abs().total_cmp(&(b - centre).abs()))
        .ok_or_else(|| "no run".to_string())
}

/// Relative spread of `v`: (largest - smallest) / smallest, the quantity the ALIKE_SPREAD
/// convention reads.
fn rel_spread(v: &[f64]) -> f64 {
    let hi = v.iter().copied().fold(f64::NEG_INFINITY, f64::max);
    let lo = v.iter().copied().fold(f64::INFINITY, f64::min);
    (hi - lo) / lo
}

/// Rule 13 (why two claims on the same runs do not, or do, bound each other).
const SIB_CWND_SD_QUEUE_SD: &str = "approximately, per gain: with the window full (a bulk \
    sender), the queue holds what the window has beyond the pipe, max(0, cwnd - P) packets, a \
    1-Lipschitz function of the window, so its standard deviation is at most the window's; at \
    8 ms a packet (1500 bytes at 1.5 Mb/s) a window sd of at most 1 packet gives a \
    queueing-delay sd of at most 8 ms, inside the sibling's direction (under 10 ms)";

/// Rule 13 (why two claims on the same runs do not, or do, bound each other).
const SIB_MOMENTS: &str = "the mean and the spread of one quantity, or of the window and of \
    the queue, are separate moments: a spread of a few packets or milliseconds fits any \
    level, and each value is an extreme over the gains that may come from different gains";

/// Rule 13 (why two claims on the same runs do not, or do, bound each other).
const SIB_STARTUP: &str = "the time to reach TARGET once is a transient of the start-up, the \
    other an average over 10-60 s of other gains or at another point of the curve; neither \
    fixes the other";

/// Rule 13: a cwnd sd (packets) bounds the queueing-delay sd: at most 8 ms a packet.
fn cwnd_sd_to_queue_sd((_lo, hi): (f64, f64)) -> (f64, f64) {
    (0.0, 8.0 * hi)
}
