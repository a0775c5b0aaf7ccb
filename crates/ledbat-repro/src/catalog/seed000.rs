//! Seed 000 (Abu & Gordon, dynamic gain): fixed against dynamic gain; utilisation, queueing
//! delay and its spread, cwnd spread, time to steady state.

use super::extract::*;
use super::plots::*;
use super::{sweep, Claim, ScenarioRef};
use crate::stats::mean;

const PAPER: &str = "seed000";

/// The paper's gains g (Figs. 3-4); RFC 6817 GAIN = g x TARGET(s) = g x 0.025.
const S000_GAINS: [f64; 9] = [5.0, 10.0, 20.0, 40.0, 80.0, 160.0, 240.0, 320.0, 400.0];

fn s000_fixed_sweep() -> Vec<ScenarioRef> {
    // paper gain g = RFC GAIN / TARGET(s): GAIN = g * 0.025
    S000_GAINS
        .iter()
        .map(|g| {
            ScenarioRef::with(
                "seed000/fixed-gain.toml",
                &[format!("flow.0.cc.gain={}", g * 0.025)],
            )
        })
        .collect()
}

pub(super) fn claims() -> Vec<Claim> {
    use crate::claims::Band::*;
    let dyn_sweep = sweep(
        "seed000/dynamic-gain.toml",
        "flow.0.cc.initial_gain",
        &S000_GAINS,
    );
    let dyn_cbr_sweep = sweep(
        "seed000/dynamic-gain-cbr.toml",
        "flow.0.cc.initial_gain",
        &S000_GAINS,
    );
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
            direction: AtMost { bound: 0.95 },
            tolerance_note: "figure value ±20 %; direction: clearly below full utilisation",
            explanation: "",
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
            direction: AtLeast { bound: 10.0 },
            tolerance_note: "figure value ±20 %; direction: sd at least twice \
                the dynamic gain's 5 ms",
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
                (mean 24.9-26.5 ms, sd 3.2-4.0 ms for 1 to 24 samples). Lifting the \
                flightsize cap (allowed_increase = 1000) or a 1-packet window floor \
                changes the sd by less than 0.2 ms. The paper's ns-2.34 module is \
                not published, so the scenario keeps the RFC's filter rather than \
                the one that fits.",
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
            direction: AtMost { bound: 2.5 },
            tolerance_note: "the paper's own bound; direction: half the fixed gain's 5 packets",
            explanation: "",
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
            direction: Between { lo: 15.0, hi: 40.0 },
            tolerance_note: "figure value ±20 %; direction: held near TARGET (25 ms) \
                rather than growing with gain",
            explanation: "",
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
            direction: AtLeast { bound: 0.85 },
            tolerance_note: "100 % read from a figure, 5 points for \
                ACK-clock and packet granularity",
            explanation: "",
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
            metric: "mean over the 9 initial gains of LEDBAT throughput / 1.5 Mb/s, from 25 s",
            scenarios: dyn_cbr_sweep,
            extract: |r| {
                Ok(mean(
                    &r.iter()
                        .map(|x| utilisation_of(x, "ledbat"))
                        .collect::<Result<Vec<_>, _>>()?,
                ))
            },
            draw: Some(|r| plots([rate_plot("dynamic gain 5 with CBR: rates", r[0])])),
            tolerance: Near {
                value: 0.5,
                tol: 0.05,
            },
            direction: Between { lo: 0.35, hi: 0.6 },
            tolerance_note: "the CBR takes exactly 50 %; 5 points for LEDBAT's share of the rest",
            explanation: "",
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
            direction: AtLeast { bound: 2.0 },
            tolerance_note: "figure value ±20 %; direction: well above the dynamic gain's < 1",
            explanation: "",
        },
        Claim {
            id: "s000-fixed400-queue-delay",
            paper: PAPER,
            figure: "Fig. 4(h)",
            statement:
                "Without the extension the mean queueing delay rises from 25 ms to about 50 \
                ms as the gain grows to 400.",
            paper_value: "≈ 50 ms at gain 400",
            unit: "ms",
            metric: "mean per-packet bottleneck queueing delay at fixed gain \
                400 (RFC GAIN 10), 10-60 s",
            scenarios: vec![ScenarioRef::with(
                "seed000/fixed-gain.toml",
                &["flow.0.cc.gain=10"],
            )],
            extract: first_qdelay_mean,
            draw: None,
            tolerance: Near {
                value: 50.0,
                tol: 10.0,
            },
            direction: AtLeast { bound: 27.0 },
            tolerance_note: "figure value ±20 %; direction: above the dynamic gain's 27 ms",
            explanation: "Same root cause as s000-gain400-queue-sd: the current-delay filter's \
                length, which the paper does not state, sets how far the window \
                overshoots; with a 16-sample minimum filter the mean queueing delay \
                at gain 400 is 55.4 ms (seed 1, command there), with the scenario's \
                4 samples it is the value shown.",
        },
        Claim {
            id: "s000-dynamic-queue-delay-sd",
            paper: PAPER,
            figure: "Fig. 4(i)",
            statement: "With the dynamic gain the standard deviation of the queueing delay stays \
                at about 5 ms for every initial gain.",
            paper_value: "≈ 5 ms",
            unit: "ms",
            metric: "largest per-packet queueing-delay standard deviation over the \
                9 initial gains, 10-60 s",
            scenarios: dyn_sweep,
            extract: |r| {
                r.iter()
                    .map(|x| bottleneck(x).map(|l| l.qdelay_sd_ms))
                    .try_fold(0.0f64, |m, v| v.map(|v| m.max(v)))
            },
            draw: None,
            tolerance: AtMost { bound: 6.0 },
            direction: AtMost { bound: 17.0 },
            tolerance_note: "about 5 ms: at most 5 ms + 20 %; direction: below the fixed gain's sd",
            explanation: "",
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
            direction: AtMost { bound: -0.3 },
            tolerance_note: "a nearly monotone fall allows one inversion among 21 pairs at \
                sample resolution (50 ms)",
            explanation: "",
        },
    ]
}
