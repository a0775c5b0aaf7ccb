//! Seed 000's statements of Figs. 3 and 4 beyond the first catalog round: the traces of
//! Figs. 3 and 4(a, b), the time to steady state, the utilisation curves' knees and the
//! fixed gain with UDP (the coverage map, `docs/repro/coverage.md`, lists them). Split from
//! `seed000.rs` for length; the helpers are the parent's.

use super::*;

/// The statements of Figs. 3 and 4 beyond the first catalog round (the coverage map,
/// `docs/repro/coverage.md`, lists them).
pub(super) fn more_claims() -> Vec<Claim> {
    use crate::claims::Band::*;
    let dyn_sweep = s000_dyn_sweep("seed000/dynamic-gain.toml");
    let dyn_cbr_sweep = s000_dyn_sweep("seed000/dynamic-gain-cbr.toml");
    vec![
        Claim {
            figure: "Fig. 3(a), section IV",
            statement: "With gain 40 LEDBAT's window climbs from 2 to about 12 packets, where \
                the queueing delay reaches about 25 ms, and stays there until the UDP source \
                arrives.",
            paper_value: "≈ 12 packets",
            unit: "packets",
            metric: "mean cwnd over 10-20 s of the 30-s trace, gain 40 (RFC GAIN 1)",
            scenarios: s000_traces(),
            extract: |r| cwnd_between(r[0], 0, 10.0, 20.0),
            draw: Some(|r| {
                plots([
                    cwnd_plot("gain 40, UDP from 20 s: cwnd", r[0]),
                    queue_plot("gain 40, UDP from 20 s: queue", r[0], 1500.0),
                ])
            }),
            tolerance: Near {
                value: 12.0,
                tol: 2.4,
            },
            direction: Above { bound: 2.0 },
            tolerance_note: "figure value ±20 %; direction: the window climbs from the 2 packets it starts at",
            form: Form::Value,
            null: Null::run(
                "NewReno in LEDBAT's place: a loss-based window fills the 50-packet buffer \
                 instead of holding TARGET",
                &["flow.0.cc={ name = \"newreno\" }"],
            ),
            siblings: &[
                Sibling::Independent {
                    other: "s000-dynamic320-cwnd-peak",
                    why: SIB_TRACES,
                },
                Sibling::Independent {
                    other: "s000-dynamic320-queue-peak",
                    why: SIB_TRACES,
                },
                Sibling::Independent {
                    other: "s000-dynamic320-settling",
                    why: SIB_TRACES,
                },
                Sibling::Independent {
                    other: "s000-gain320-queue-swing",
                    why: SIB_TRACES,
                },
                Sibling::Independent {
                    other: "s000-gain40-cwnd-after-udp",
                    why: SIB_WINDOWS,
                },
                Sibling::Independent {
                    other: "s000-gain40-queue-before-udp",
                    why: "on a busy link the window is the queue plus the pipe (about 7.5 \
                        packets), but the bands are not nested: a window of 9.6-14.4 packets \
                        means a queue of 2.1-6.9 packets (17-55 ms), reaching past the \
                        queue's direction (below 50 ms), and a queue of 20-30 ms a window of \
                        10-11.3 packets; neither band decides the other's verdict",
                },
                Sibling::Independent {
                    other: "s000-gain40-share-with-udp",
                    why: SIB_WINDOWS,
                },
            ],
            thresholds: &[Threshold::Quote { value: 2.0, written: "2 packets", quote: "from 2 packets to 12 packets" }],
            ..Claim::base("s000-gain40-cwnd-before-udp")
        },
        Claim {
            figure: "Fig. 3(b), section IV",
            statement: "With gain 40 the queueing delay holds at about 25 ms (TARGET) until \
                the UDP source arrives at 20 s.",
            paper_value: "≈ 25 ms",
            unit: "ms",
            metric: "mean bottleneck queueing delay (queue length x 8 ms) over 10-20 s, gain 40",
            scenarios: s000_traces(),
            extract: |r| window_mean(&qd(r[0])?, 10.0, 20.0),
            tolerance: Near {
                value: 25.0,
                tol: 5.0,
            },
            direction: Below { bound: 50.0 },
            tolerance_note: "figure value ±20 %; direction: below the 50 ms that the paper's \
                fixed gain reaches only at its largest gain (Fig. 4h), twice TARGET",
            form: Form::Value,
            null: Null::run(
                "NewReno in LEDBAT's place: a loss-based window fills the 50-packet buffer \
                 instead of holding TARGET",
                &["flow.0.cc={ name = \"newreno\" }"],
            ),
            siblings: &[
                Sibling::Independent {
                    other: "s000-dynamic320-cwnd-peak",
                    why: SIB_TRACES,
                },
                Sibling::Independent {
                    other: "s000-dynamic320-queue-peak",
                    why: SIB_TRACES,
                },
                Sibling::Independent {
                    other: "s000-dynamic320-settling",
                    why: SIB_TRACES,
                },
                Sibling::Independent {
                    other: "s000-gain320-queue-swing",
                    why: SIB_TRACES,
                },
                Sibling::Independent {
                    other: "s000-gain40-cwnd-after-udp",
                    why: SIB_WINDOWS,
                },
                Sibling::Independent {
                    other: "s000-gain40-share-with-udp",
                    why: SIB_WINDOWS,
                },
            ],
            thresholds: &[Threshold::Quote { value: 50.0, written: "50ms", quote: "from 25ms to 50ms" }],
            ..Claim::base("s000-gain40-queue-before-udp")
        },
        Claim {
            figure: "Fig. 3(a), section IV",
            statement: "After the 750 kb/s UDP source starts at 20 s, LEDBAT's window (gain 40) \
                falls and settles at about 6 packets.",
            paper_value: "≈ 6 packets",
            unit: "packets",
            metric: "mean cwnd over 25-30 s of the 30-s trace, gain 40",
            scenarios: s000_traces(),
            extract: |r| cwnd_between(r[0], 0, 25.0, 30.0),
            tolerance: Near {
                value: 6.0,
                tol: 1.2,
            },
            direction: Below { bound: 12.0 },
            tolerance_note: "figure value ±20 %; direction: below the 12 packets held before the UDP source",
            form: Form::Value,
            null: Null::run(
                "the UDP source never starts: nothing to yield to",
                &["flow.1.start=1000s"],
            ),
            siblings: &[
                Sibling::Independent {
                    other: "s000-dynamic320-cwnd-peak",
                    why: SIB_TRACES,
                },
                Sibling::Independent {
                    other: "s000-dynamic320-queue-peak",
                    why: SIB_TRACES,
                },
                Sibling::Independent {
                    other: "s000-dynamic320-settling",
                    why: SIB_TRACES,
                },
                Sibling::Independent {
                    other: "s000-gain320-queue-swing",
                    why: SIB_TRACES,
                },
                Sibling::Independent {
                    other: "s000-gain40-share-with-udp",
                    why: "by Little's law a share s of the link needs a mean window of at \
                        least s x 125 packets/s x 60 ms (3.6 packets at 0.48), a bound from \
                        below only; a window above the pipe's half adds queue, not rate",
                },
            ],
            thresholds: &[Threshold::Quote { value: 12.0, written: "12 packets", quote: "from 2 packets to 12 packets" }],
            ..Claim::base("s000-gain40-cwnd-after-udp")
        },
        Claim {
            figure: "Fig. 3(a, b), section IV",
            statement: "With the UDP source present LEDBAT (gain 40) uses the remaining half of \
                the 1.5 Mb/s.",
            paper_value: "50 %",
            unit: "fraction of capacity",
            metric: "LEDBAT's mean rate over 25-30 s of the trace / 1.5 Mb/s, gain 40",
            scenarios: s000_traces(),
            extract: |r| Ok(rate_between(r[0], 0, 25.0, 30.0)? / 1.5),
            tolerance: Between { lo: 0.48, hi: 0.52 },
            direction: Above { bound: 0.45 },
            tolerance_note: "as s000-dynamic-utilisation-cbr: 50 % ± 2 points; direction: \
                above the ≈ 45 % the paper's fixed gain falls to at large gains",
            form: Form::Value,
            null: Null::scenarios(
                "LEDBAT's window growth switched off (its gain cut a thousandfold, the schema \
                 takes no 0): it stays near its initial window and cannot take up the half \
                 the UDP source leaves",
                {
                    let mut v = s000_traces();
                    v[0] = ScenarioRef::with("seed000/fig3-trace.toml", &["flow.0.cc.gain=0.001"]);
                    v
                },
            ),
            siblings: &[
                Sibling::Independent {
                    other: "s000-dynamic320-cwnd-peak",
                    why: SIB_TRACES,
                },
                Sibling::Independent {
                    other: "s000-dynamic320-queue-peak",
                    why: SIB_TRACES,
                },
                Sibling::Independent {
                    other: "s000-dynamic320-settling",
                    why: SIB_TRACES,
                },
                Sibling::Independent {
                    other: "s000-gain320-queue-swing",
                    why: SIB_TRACES,
                },
            ],
            thresholds: &[Threshold::Quote { value: 0.45, written: "45%", quote: r"to $\approx 70\%$ and $\approx 45\%$" }],
            ..Claim::base("s000-gain40-share-with-udp")
        },
        Claim {
            figure: "Fig. 3(d), section V-C",
            statement: "With gain 320 the queueing delay swings between about 0 and 80 ms.",
            paper_value: "0-80 ms",
            unit: "ms",
            metric: "largest minus smallest queueing-delay sample (every 50 ms) over 5-20 s of \
                the trace, gain 320 (RFC GAIN 8)",
            scenarios: s000_traces(),
            extract: |r| {
                let (lo, hi) = window_range(&qd(r[1])?, 5.0, 20.0)?;
                Ok(hi - lo)
            },
            draw: Some(|r| plots([queue_plot("gain 320, UDP from 20 s: queue", r[1], 1500.0)])),
            tolerance: Near {
                value: 80.0,
                tol: 16.0,
            },
            direction: Above { bound: 25.0 },
            tolerance_note: "figure value ±20 %; direction: a swing wider than TARGET, 25 ms",
            explanation: "Same root cause as s000-gain400-queue-sd: the overshoot grows with the \
                current-delay filter's length, which the paper does not state.",
            hinge: Some(crate::catalog::Hinge { choice: "current-delay filter: 16 samples instead of RFC 6817's 4", alt: &["flow.0.cc.delay.filter.min.len=16"], files: &[], unstated: true }),
            form: Form::Value,
            null: Null::scenarios(
                "the gain-40 trace in place of gain 320's: the paper's small gain settles",
                {
                    let t = s000_traces();
                    vec![t[0].clone(), t[0].clone(), t[2].clone()]
                },
            ),
            siblings: &[
                Sibling::Independent {
                    other: "s000-dynamic320-cwnd-peak",
                    why: SIB_TRACES,
                },
                Sibling::Independent {
                    other: "s000-dynamic320-queue-peak",
                    why: SIB_TRACES,
                },
                Sibling::Independent {
                    other: "s000-dynamic320-settling",
                    why: SIB_TRACES,
                },
            ],
            thresholds: &[Threshold::Quote {
                value: 25.0,
                written: "25ms",
                quote: "We use a delay *target* of 25ms throughout this work",
            }],
            ..Claim::base("s000-gain320-queue-swing")
        },
        Claim {
            figure: "Fig. 4(a), section V-C",
            statement: "With the dynamic gain started at 320 the window first shoots from 2 to \
                about 19 packets.",
            paper_value: "≈ 19 packets",
            unit: "packets",
            metric: "largest cwnd sample over 0-10 s of the trace, dynamic gain from 320",
            scenarios: s000_traces(),
            extract: |r| Ok(window_range(&flow_points(r[2], 0, |f| &f.cwnd_pkts)?, 0.0, 10.0)?.1),
            draw: Some(|r| {
                plots([
                    cwnd_plot("dynamic gain from 320: cwnd", r[2]),
                    queue_plot("dynamic gain from 320: queue", r[2], 1500.0),
                ])
            }),
            tolerance: Near {
                value: 19.0,
                tol: 3.8,
            },
            direction: AtLeast { bound: 12.0 },
            tolerance_note: "figure value ±20 %; direction: overshoots the 12 packets it \
                settles at",
            explanation: "Same root cause as s000-gain400-queue-sd: how far a fast start \
                overshoots depends on the current-delay filter's length, which the paper does \
                not state. With a 16-sample filter the same trace peaks at 19.8 packets and 96 \
                ms and settles after 5.5 s, the paper's figures (seed 1, the third trace of \
                this claim: `ledbat sim scenarios/seed000/fig3-trace.toml --set \
                'flow.0.cc={ name = \
                \"ledbat-dynamic-gain\", target = \"25ms\", initial_gain = 320.0 }' \
                --set flow.0.cc.delay.filter.min.len=16`).",
            hinge: Some(crate::catalog::Hinge { choice: "current-delay filter: 16 samples instead of RFC 6817's 4", alt: &["flow.0.cc.delay.filter.min.len=16"], files: &[], unstated: true }),
            form: Form::Value,
            null: Null::scenarios(
                "initial gain 40 in place of 320: a small initial gain does not overshoot",
                {
                    let t = s000_traces();
                    vec![
                        t[0].clone(),
                        t[1].clone(),
                        ScenarioRef::with(
                            "seed000/fig3-trace.toml",
                            &["flow.0.cc={ name = \"ledbat-dynamic-gain\", target = \"25ms\", \
                               initial_gain = 40.0 }"],
                        ),
                    ]
                },
            ),
            siblings: &[
                Sibling::Implies {
                    other: "s000-dynamic320-queue-peak",
                    map: cwnd_peak_to_queue_peak,
                    why: SIB_CWND_PEAK_QUEUE_PEAK,
                },
                Sibling::Independent {
                    other: "s000-dynamic320-settling",
                    why: SIB_SETTLE,
                },
            ],
            thresholds: &[Threshold::Quote { value: 12.0, written: "12 packets", quote: "stabilize at approximately 12 packets" }],
            ..Claim::base("s000-dynamic320-cwnd-peak")
        },
        Claim {
            figure: "Fig. 4(b), section V-C",
            statement: "With the dynamic gain started at 320 the queueing delay first peaks at \
                about 80 ms.",
            paper_value: "≈ 80 ms",
            unit: "ms",
            metric: "largest queueing-delay sample over 0-10 s of the trace, dynamic gain from \
                320",
            scenarios: s000_traces(),
            extract: |r| Ok(window_range(&qd(r[2])?, 0.0, 10.0)?.1),
            tolerance: Near {
                value: 80.0,
                tol: 16.0,
            },
            direction: Above { bound: 50.0 },
            tolerance_note: "figure value ±20 %; direction: above 50 ms, twice the TARGET it \
                settles at and the most the paper's fixed gain queues on average (Fig. 4h); a \
                queue settled at TARGET peaks at 4 packets, 32 ms",
            explanation: "Same root cause as s000-gain400-queue-sd (the current-delay filter's \
                length sets the overshoot). With 16 samples the peak is 96 ms (seed 1, \
                `ledbat sim scenarios/seed000/fig3-trace.toml --set 'flow.0.cc={ name = \
                \"ledbat-dynamic-gain\", target = \"25ms\", initial_gain = 320.0 }' \
                --set flow.0.cc.delay.filter.min.len=16`).",
            hinge: Some(crate::catalog::Hinge { choice: "current-delay filter: 16 samples instead of RFC 6817's 4", alt: &["flow.0.cc.delay.filter.min.len=16"], files: &[], unstated: true }),
            form: Form::Value,
            null: Null::scenarios(
                "initial gain 40 in place of 320: a small initial gain does not overshoot",
                {
                    let t = s000_traces();
                    vec![
                        t[0].clone(),
                        t[1].clone(),
                        ScenarioRef::with(
                            "seed000/fig3-trace.toml",
                            &["flow.0.cc={ name = \"ledbat-dynamic-gain\", target = \"25ms\", \
                               initial_gain = 40.0 }"],
                        ),
                    ]
                },
            ),
            siblings: &[
                Sibling::Independent {
                    other: "s000-dynamic320-settling",
                    why: SIB_SETTLE,
                },
            ],
            thresholds: &[Threshold::Quote { value: 50.0, written: "50ms", quote: "from 25ms to 50ms" }],
            ..Claim::base("s000-dynamic320-queue-peak")
        },
        Claim {
            figure: "Fig. 4(a, b), section V-C",
            statement: "With the dynamic gain (from 320) window and queueing delay settle at \
                about 12 packets and 25 ms within 5-6 s.",
            paper_value: "5-6 s",
            unit: "s",
            metric: "time after which every 1-s window of queueing-delay samples has its mean \
                within 20-30 ms and every sample within 10-40 ms, until the UDP source starts \
                (20 s; 20 when it never settles), dynamic gain from 320",
            scenarios: s000_traces(),
            extract: |r| settling_time(r[2], 20.0),
            tolerance: Between { lo: 5.0, hi: 6.0 },
            direction: Below { bound: 20.0 },
            tolerance_note: "the paper's 5-6 s as stated; direction: settles at all before the \
                UDP source starts at 20 s (the metric is 20 when it does not)",
            explanation: "Settles sooner than the paper's because it overshoots less (see \
                s000-dynamic320-cwnd-peak). With a 16-sample current-delay filter it settles \
                after 5.5 s (seed 1, `ledbat sim scenarios/seed000/fig3-trace.toml --set \
                'flow.0.cc={ name = \
                \"ledbat-dynamic-gain\", target = \"25ms\", initial_gain = 320.0 }' \
                --set flow.0.cc.delay.filter.min.len=16`).",
            hinge: Some(crate::catalog::Hinge { choice: "current-delay filter: 16 samples instead of RFC 6817's 4", alt: &["flow.0.cc.delay.filter.min.len=16"], files: &[], unstated: true }),
            form: Form::Bound { lo: Some(5.0), hi: Some(6.0) },
            null: Null::scenarios(
                "the fixed gain 320 in place of the dynamic gain from 320: it oscillates \
                 instead of settling (Fig. 3c, d)",
                {
                    let t = s000_traces();
                    vec![t[0].clone(), t[1].clone(), t[1].clone()]
                },
            ),
            thresholds: &[Threshold::Quote {
                value: 20.0,
                written: "20s",
                quote: "dynamic gain with initial value 320 (UDP starts at 20s)",
            }],
            ..Claim::base("s000-dynamic320-settling")
        },
        Claim {
            figure: "Fig. 3(e), section IV",
            statement: "Beyond gain 240 the time to reach steady state stays constant.",
            paper_value: "constant for gain ≥ 240",
            unit: "relative spread",
            metric: "(largest - smallest) / smallest of the time to TARGET at gains 240, 320, \
                400",
            scenarios: s000_fixed_sweep(),
            extract: |r| {
                let t: Vec<f64> = r[6..9]
                    .iter()
                    .map(|x| time_to_target(x, 25.0))
                    .collect::<Result<_, _>>()?;
                Ok(rel_spread(&t))
            },
            tolerance: AtMost { bound: 0.2 },
            direction: AtMost { bound: 0.25 },
            tolerance_note: "constant = within 20 % of the smallest; direction: within 25 % (the \
                ALIKE_SPREAD convention)",
            sweep: Some(crate::catalog::SweepRange { key: "flow.0.cc.gain", paper: (6.0, 10.0), left_out: "" }),
            form: Form::Alike { null: 0.0 },
            null: Null::scenarios(
                "gains 5, 40 and 240 in place of 240, 320 and 400: below 240 the time falls with \
                 the gain (Fig. 3e)",
                {
                    let mut v = s000_fixed_sweep();
                    v[8] = v[6].clone();
                    v[6] = v[0].clone();
                    v[7] = v[3].clone();
                    v
                },
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
                    other: "s000-fixed400-mean-cwnd",
                    why: SIB_STARTUP,
                },
            ],
            thresholds: &[Threshold::Convention(&crate::catalog::ALIKE_SPREAD)],
            ..Claim::base("s000-fixed-steady-time-flat")
        },
        Claim {
            figure: "Fig. 3(e), section IV",
            statement: "With the UDP source present the time to steady state also falls as the \
                gain grows from 5 to 240.",
            paper_value: "monotone decrease",
            unit: "Kendall τ",
            metric: "Kendall's tau between gain (5..240) and the time to TARGET, CBR present \
                from the start",
            scenarios: s000_fixed_cbr_sweep(true),
            extract: |r| Ok(kendall_tau(&S000_GAINS[..7], &steady_times(r)?)),
            tolerance: AtMost { bound: -0.8 },
            direction: Below { bound: 0.0 },
            tolerance_note: "as s000-fixed-steady-time-falls",
            sweep: Some(crate::catalog::SweepRange { key: "flow.0.cc.gain", paper: (0.125, 6.0), left_out: "" }),
            form: Form::Effect { null: 0.0 },
            null: Null::scenarios(
                "seven gains spread over 240-400, where the paper says the time stays constant",
                s000_flat_sweep()
                    .into_iter()
                    .map(|mut s| {
                        s.file = "seed000/fixed-gain-cbr.toml";
                        s.set.push("flow.1.start=0s".into());
                        s
                    })
                    .collect(),
            ),
            siblings: &[Sibling::Independent {
                other: "s000-fixed-steady-time-flat-cbr",
                why: "the two read the time to TARGET at different gains (5..240 and \
                    240..400, sharing only 240): a rank correlation over the first seven and a \
                    relative spread over the last three do not bound each other",
            }],
            ..Claim::base("s000-fixed-steady-time-falls-cbr")
        },
        Claim {
            figure: "Fig. 3(e), section IV",
            statement: "With the UDP source present, too, the time to reach steady state stays \
                constant beyond gain 240.",
            paper_value: "constant for gain ≥ 240",
            unit: "relative spread",
            metric: "(largest - smallest) / smallest of the time to TARGET at gains 240, 320, \
                400, CBR present from the start",
            scenarios: s000_fixed_cbr_sweep(true),
            extract: |r| {
                let t: Vec<f64> = r[6..9]
                    .iter()
                    .map(|x| time_to_target(x, 25.0))
                    .collect::<Result<_, _>>()?;
                Ok(rel_spread(&t))
            },
            tolerance: AtMost { bound: 0.2 },
            direction: AtMost { bound: 0.25 },
            tolerance_note: "as s000-fixed-steady-time-flat: within 20 % of the smallest; \
                direction: within 25 % (the ALIKE_SPREAD convention)",
            sweep: Some(crate::catalog::SweepRange { key: "flow.0.cc.gain", paper: (6.0, 10.0), left_out: "" }),
            form: Form::Alike { null: 0.0 },
            null: Null::scenarios(
                "gains 5, 40 and 240 in place of 240, 320 and 400: below 240 the time falls with \
                 the gain (Fig. 3e)",
                {
                    let mut v = s000_fixed_cbr_sweep(true);
                    v[8] = v[6].clone();
                    v[6] = v[0].clone();
                    v[7] = v[3].clone();
                    v
                },
            ),
            siblings: &[Sibling::Independent {
                other: "s000-fixed-steady-time-falls-cbr",
                why: "the two read the time to TARGET at different gains (5..240 and \
                    240..400, sharing only 240): a rank correlation over the first seven and a \
                    relative spread over the last three do not bound each other",
            }],
            thresholds: &[Threshold::Convention(&crate::catalog::ALIKE_SPREAD)],
            ..Claim::base("s000-fixed-steady-time-flat-cbr")
        },
        Claim {
            figure: "Fig. 3(e), section IV",
            statement: "Steady state is reached sooner with the UDP source present than without \
                (less capacity to fill).",
            paper_value: "sooner with UDP",
            unit: "s",
            metric: "share of the gains 5..240 whose time to TARGET is shorter with UDP (CBR \
                from the start) than without; a seed shows the order when more than half do",
            scenarios: {
                let mut v = s000_fixed_sweep();
                v.extend(s000_fixed_cbr_sweep(true));
                v
            },
            extract: |r| {
                let without = steady_times(&r[..9])?;
                let with = steady_times(&r[9..])?;
                let sooner = without.iter().zip(&with).filter(|(a, b)| a > b).count();
                Ok(sooner as f64 / with.len() as f64)
            },
            tolerance: crate::catalog::ORDER_TOLERANCE,
            direction: crate::catalog::ORDER_DIRECTION,
            tolerance_note: "an order, decided in each seed (steady state sooner with the UDP source); reproduced when 8 seeds in 10 show it, the direction holds when more than half do",
            sweep: Some(crate::catalog::SweepRange { key: "flow.0.cc.gain", paper: (0.125, 10.0), left_out: "" }),
            null: Null::run_on(
                "the UDP source never starts in the second sweep: nothing to make it sooner",
                &["seed000/fixed-gain-cbr.toml"],
                &["flow.1.start=1000s"],
            ),
            form: Form::Order {
                null: 0.5,
                above: true,
            },
            ..Claim::base("s000-steady-sooner-with-udp")
        },
        Claim {
            figure: "Fig. 4(c), section V-C",
            statement: "With a fixed gain and no UDP, LEDBAT keeps the link 100 % busy up to \
                gain 160.",
            paper_value: "100 % up to 160",
            unit: "fraction of capacity",
            metric: "lowest LEDBAT utilisation over gains 5..160, 10-60 s",
            scenarios: s000_fixed_sweep(),
            extract: |r| {
                r[..6]
                    .iter()
                    .map(|x| utilisation_of(x, "ledbat"))
                    .try_fold(f64::INFINITY, |m, v| v.map(|v| m.min(v)))
            },
            tolerance: AtLeast { bound: 0.95 },
            direction: Above { bound: 0.7 },
            tolerance_note: "as s000-dynamic-utilisation: 100 % read from a figure, 5 points",
            sweep: Some(crate::catalog::SweepRange { key: "flow.0.cc.gain", paper: (0.125, 4.0), left_out: "" }),
            form: Form::Value,
            null: Null::scenarios(
                "gains 40-400 in place of 5-160: beyond 160 the paper's utilisation falls",
                s000_fixed_sweep()[3..].to_vec(),
            ),
            siblings: &[
                Sibling::Independent {
                    other: "s000-fixed-falls-beyond-160",
                    why: "a utilisation of at least 0.95 up to gain 160 bounds only the first \
                        term of the fall from 160 to 240; the utilisation at 240 is free",
                },
                Sibling::Independent {
                    other: "s000-fixed400-mean-cwnd",
                    why: "the utilisation up to gain 160 bounds the window at gain 40 from \
                        below only (Little's law: at least 0.95 x 125 packets/s x 60 ms) and \
                        not the window at gain 400, so it fixes no ratio of the two",
                },
            ],
            thresholds: &[Threshold::Quote { value: 0.7, written: "70%", quote: r"to $\approx 70\%$ and $\approx 45\%$" }],
            ..Claim::base("s000-fixed-full-to-160")
        },
        Claim {
            figure: "Fig. 4(c), section V-C",
            statement: "With a fixed gain and the UDP source, LEDBAT keeps 50 % of the link up \
                to gain 80.",
            paper_value: "50 % up to 80",
            unit: "fraction of capacity",
            metric: "lowest LEDBAT throughput / 1.5 Mb/s over gains 5..80, CBR from 20 s, \
                measured from 25 s",
            scenarios: s000_fixed_cbr_sweep(false),
            extract: |r| {
                r[..5]
                    .iter()
                    .map(|x| utilisation_of(x, "ledbat"))
                    .try_fold(f64::INFINITY, |m, v| v.map(|v| m.min(v)))
            },
            tolerance: Between { lo: 0.48, hi: 0.52 },
            direction: Above { bound: 0.45 },
            tolerance_note: "50 % ± 2 points (the CBR caps LEDBAT at 50 %, so more cannot come); direction: above the fixed gain's ≈ 45 % at the top of the sweep",
            sweep: Some(crate::catalog::SweepRange { key: "flow.0.cc.gain", paper: (0.125, 2.0), left_out: "" }),
            form: Form::Value,
            null: Null::scenarios(
                "gains 80-400 in place of 5-80: beyond 80 the paper's share falls",
                s000_fixed_cbr_sweep(false)[4..].to_vec(),
            ),
            siblings: &[
                Sibling::Independent {
                    other: "s000-fixed-cbr-falls-beyond-80",
                    why: "a share of at least 0.48 up to gain 80 bounds only the first term \
                        of the fall from 80 to 160; the share at 160 is free",
                },
                Sibling::Independent {
                    other: "s000-fixed-cbr-mean-cwnd-rises",
                    why: "the share up to gain 80 bounds the window at gain 40 from below \
                        only (Little's law), not the window at 400, so it fixes no ratio of \
                        the two",
                },
                Sibling::Independent {
                    other: "s000-fixed-cbr-rises-with-gain",
                    why: SIB_CBR_GAINS,
                },
                Sibling::Independent {
                    other: "s000-fixed-cbr-share-at-400",
                    why: "a share of at least 0.48 over gains 5..80 bounds the first term of \
                        the fall from 40 to 400 (between 0.48 and the CBR's cap, 0.5) but not \
                        the share at 400, so it fixes no fall",
                },
            ],
            thresholds: &[Threshold::Quote { value: 0.45, written: "45%", quote: r"to $\approx 70\%$ and $\approx 45\%$" }],
            ..Claim::base("s000-fixed-cbr-half-to-80")
        },
        Claim {
            figure: "Fig. 4(c), section V-C",
            statement: "With a fixed gain and the UDP source, LEDBAT's share falls to about \
                45 % at large gains.",
            paper_value: "a fall of 5 points: 50 % to ≈ 45 %",
            unit: "points",
            metric: "LEDBAT throughput / 1.5 Mb/s at gain 40 (the small gains' half, in the \
                same sweep) minus at gain 400, in percentage points, CBR from 20 s, from 25 s",
            scenarios: s000_fixed_cbr_sweep(false),
            extract: |r| {
                Ok(100.0 * (utilisation_of(r[3], "ledbat")? - utilisation_of(r[8], "ledbat")?))
            },
            tolerance: Near {
                value: 5.0,
                tol: 1.0,
            },
            direction: Above { bound: 0.0 },
            tolerance_note: "the statement is a fall of 5 points, from 50 % to about 45 %: \
                that fall ±20 % (1 point), against the same sweep's gain 40 (rule 5); \
                direction: a fall at all (the CBR caps the share at 50 %, so the share itself \
                below half could not fail)",
            explanation: "Ours falls by {=s000-fixed-cbr-share-at-400} points, not 5. The \
                current-delay filter that decides the other large-gain claims \
                (s000-gain400-queue-sd) does not close the gap: with 16 samples the share at \
                gain 400 is 0.487 (seed 1, `ledbat sim scenarios/seed000/fixed-gain-cbr.toml \
                --set flow.0.cc.gain=10 --set flow.0.cc.delay.filter.min.len=16`: 0.731 of 1.5 \
                Mb/s). What makes the paper's fall larger is not established.",
            sweep: Some(crate::catalog::SweepRange { key: "flow.0.cc.gain", paper: (0.125, 10.0), left_out: "" }),
            form: Form::Effect { null: 0.0 },
            null: Null::scenarios(
                "gain 40 in place of 400: up to gain 80 the paper's share stays at 50 %",
                {
                    let mut v = s000_fixed_cbr_sweep(false);
                    v[8] = v[3].clone();
                    v
                },
            ),
            siblings: &[
                Sibling::Independent {
                    other: "s000-fixed-cbr-falls-beyond-80",
                    why: "the fall from 40 to 400 and the fall from 80 to 160 share no gain; \
                        the first is the second plus the falls from 40 to 80 and from 160 to \
                        400, which neither bounds",
                },
                Sibling::Independent {
                    other: "s000-fixed-cbr-mean-cwnd-rises",
                    why: "both read gains 40 and 400, but a window is the rate times the RTT \
                        (Little's law), and the RTT's queueing part differs between the gains: \
                        a fall of the share fits a window ratio on either side of 1",
                },
                Sibling::Independent {
                    other: "s000-fixed-cbr-rises-with-gain",
                    why: SIB_CBR_GAINS,
                },
            ],
            ..Claim::base("s000-fixed-cbr-share-at-400")
        },
        Claim {
            figure: "Fig. 4(d), section V-C",
            statement: "With a fixed gain the mean window rises from 12 to about 15 packets \
                beyond gain 240.",
            paper_value: "15 / 12 = 1.25",
            unit: "ratio",
            metric: "mean cwnd at fixed gain 400 / at fixed gain 40 (the small gains' 12 \
                packets, in the same sweep), 10-60 s",
            scenarios: s000_fixed_sweep(),
            extract: |r| Ok(r[8].flows[0].cwnd_mean_pkts / r[3].flows[0].cwnd_mean_pkts),
            tolerance: Between { lo: 1.2, hi: 1.3 },
            direction: Above { bound: 1.0 },
            tolerance_note: "the statement is a rise of 3 packets on 12: that rise ±20 % (0.6 \
                packet, 0.05 of the ratio); direction: a rise against the same sweep's gain \
                40, not against the paper's 12 packets (rule 5)",
            explanation: "Same root cause as s000-gain400-queue-sd: with RFC 6817's 4-sample \
                filter the window at gain 400 oscillates down to a few packets (the link is \
                under-used, s000-fixed320-utilisation) and its mean falls below that of small \
                gains; a longer filter makes it overshoot upwards instead: mean 11.7 \
                packets with 16 samples and 13.5 with 24 (seed 1, `ledbat sim \
                scenarios/seed000/fixed-gain.toml --set flow.0.cc.gain=10 --set \
                flow.0.cc.delay.filter.min.len=24`).",
            sweep: Some(crate::catalog::SweepRange { key: "flow.0.cc.gain", paper: (0.125, 10.0), left_out: "" }),
            hinge: Some(crate::catalog::Hinge { choice: "current-delay filter: 16 samples instead of RFC 6817's 4", alt: &["flow.0.cc.delay.filter.min.len=16"], files: &[], unstated: true }),
            null: Null::scenarios(
                "gain 240 in place of 400: up to 240 the paper's window stays at 12 packets",
                {
                    let mut v = s000_fixed_sweep();
                    v[8] = v[6].clone();
                    v
                },
            ),
            form: Form::Effect { null: 1.0 },
            siblings: &[
                Sibling::Independent {
                    other: "s000-fixed-falls-beyond-160",
                    why: "the window ratio reads gains 400 and 40, the fall gains 160 and \
                        240: no gain in common",
                },
            ],
            ..Claim::base("s000-fixed400-mean-cwnd")
        },
        Claim {
            figure: "Fig. 4(d), section V-C",
            statement: "With the dynamic gain the mean window stays at about 12 packets for \
                every initial gain.",
            paper_value: "≈ 12 packets",
            unit: "packets",
            metric: "the per-gain mean cwnd farthest from 12, over the 9 initial gains, 10-60 s",
            scenarios: dyn_sweep,
            extract: |r| farthest(r, 12.0, |x| Ok(x.flows[0].cwnd_mean_pkts)),
            tolerance: Near {
                value: 12.0,
                tol: 2.4,
            },
            direction: Below { bound: 15.0 },
            tolerance_note: "figure value ±20 %; direction: below the fixed gain's 15 packets at the top of the sweep (Fig. 4d)",
            sweep: Some(crate::catalog::SweepRange { key: "flow.0.cc.initial_gain", paper: (5.0, 400.0), left_out: "" }),
            form: Form::Value,
            null: Null::scenarios(
                "the extension off: the fixed gain at the same 9 gains (Fig. 4d's other curve)",
                s000_fixed_sweep(),
            ),
            thresholds: &[Threshold::Quote { value: 15.0, written: "15 packets", quote: "from 12 packets to about 15 packets" }],
            ..Claim::base("s000-dynamic-mean-cwnd")
        },
        Claim {
            figure: "Fig. 4(f), section V-C",
            statement: "With the UDP source the dynamic gain's mean window is about 6 packets \
                (half the 12 without UDP) for every initial gain.",
            paper_value: "≈ 6 packets",
            unit: "packets",
            metric: "the per-gain mean cwnd farthest from 6, over the 9 initial gains, from 25 s",
            scenarios: dyn_cbr_sweep.clone(),
            extract: |r| farthest(r, 6.0, |x| Ok(x.flows[0].cwnd_mean_pkts)),
            tolerance: Near {
                value: 6.0,
                tol: 1.2,
            },
            direction: Below { bound: 12.0 },
            tolerance_note: "figure value ±20 %; direction: below the 12 packets without UDP (Fig. 4d)",
            sweep: Some(crate::catalog::SweepRange { key: "flow.0.cc.initial_gain", paper: (5.0, 400.0), left_out: "" }),
            form: Form::Value,
            null: Null::run(
                "the UDP source never starts: nothing to yield to",
                &["flow.1.start=1000s"],
            ),
            siblings: &[
                Sibling::Independent {
                    other: "s000-dynamic-cbr-cwnd-sd",
                    why: SIB_MOMENTS,
                },
                Sibling::Independent {
                    other: "s000-dynamic-cbr-delay-flat",
                    why: "the window's level at one gain and the spread across gains of the \
                        mean queueing delay do not bound each other",
                },
            ],
            thresholds: &[Threshold::Quote { value: 12.0, written: "12 packets", quote: "≈ 12 packets in Fig. 4d" }],
            ..Claim::base("s000-dynamic-cbr-mean-cwnd")
        },
        Claim {
            figure: "Fig. 4(g), section V-C",
            statement: "With the UDP source the dynamic gain's sd(cwnd) stays under 1 packet.",
            paper_value: "< 1 packet",
            unit: "packets",
            metric: "largest cwnd standard deviation over the 9 initial gains, from 25 s",
            scenarios: dyn_cbr_sweep.clone(),
            extract: |r| {
                Ok(r.iter()
                    .map(|x| x.flows[0].cwnd_sd_pkts)
                    .fold(0.0, f64::max))
            },
            tolerance: AtMost { bound: 1.0 },
            direction: Below { bound: 5.0 },
            tolerance_note: "as s000-dynamic-cwnd-sd",
            sweep: Some(crate::catalog::SweepRange { key: "flow.0.cc.initial_gain", paper: (5.0, 400.0), left_out: "" }),
            form: Form::Bound { lo: None, hi: Some(1.0) },
            null: Null::scenarios(
                "the extension off: the fixed gain at the same 9 gains with the CBR (Fig. 4g)",
                s000_fixed_cbr_sweep(false),
            ),
            siblings: &[
                Sibling::Independent {
                    other: "s000-dynamic-cbr-delay-flat",
                    why: "the spread of the window within a gain and the spread across gains \
                        of the mean queueing delay do not bound each other",
                },
            ],
            thresholds: &[Threshold::Quote { value: 5.0, written: "5 packets", quote: "from 1 packet to 5 packets" }],
            ..Claim::base("s000-dynamic-cbr-cwnd-sd")
        },
        Claim {
            figure: "Fig. 4(j, k), section V-C",
            statement: "With the UDP source the dynamic gain's mean queueing delay stays flat \
                over the initial gain, as without UDP.",
            paper_value: "flat",
            unit: "relative spread",
            metric: "(largest - smallest) / smallest of the per-gain mean queueing delay over \
                the 9 initial gains, from 25 s",
            scenarios: dyn_cbr_sweep,
            extract: |r| {
                let q: Vec<f64> = r
                    .iter()
                    .map(|x| Ok(bottleneck(x)?.qdelay_mean_ms))
                    .collect::<Result<_, String>>()?;
                Ok(rel_spread(&q))
            },
            tolerance: AtMost { bound: 0.2 },
            direction: AtMost { bound: 0.25 },
            tolerance_note: "flat = within 20 % of the smallest; direction: within 25 % (the \
                ALIKE_SPREAD convention)",
            sweep: Some(crate::catalog::SweepRange { key: "flow.0.cc.initial_gain", paper: (5.0, 400.0), left_out: "" }),
            form: Form::Alike { null: 0.0 },
            null: Null::scenarios(
                "the extension off: the fixed gain at the same 9 gains with the CBR (Fig. 4j)",
                s000_fixed_cbr_sweep(false),
            ),
            thresholds: &[Threshold::Convention(&crate::catalog::ALIKE_SPREAD)],
            ..Claim::base("s000-dynamic-cbr-delay-flat")
        },
        Claim {
            figure: "Fig. 4(c), section V-C",
            statement: "With a fixed gain and no UDP, utilisation falls below 100 % beyond gain \
                160.",
            paper_value: "below 100 % beyond 160",
            unit: "points",
            metric: "LEDBAT utilisation at gain 160 minus at gain 240, the sweep's first point \
                beyond 160, in percentage points, 10-60 s",
            scenarios: s000_fixed_sweep(),
            extract: |r| {
                Ok(100.0 * (utilisation_of(r[5], "ledbat")? - utilisation_of(r[6], "ledbat")?))
            },
            tolerance: AtLeast { bound: 5.0 },
            direction: Above { bound: 0.0 },
            tolerance_note: "a fall of at least 5 points, out of the band that \
                s000-fixed-full-to-160 counts as full (95-100 %); direction: a fall at all",
            sweep: Some(crate::catalog::SweepRange { key: "flow.0.cc.gain", paper: (0.125, 10.0), left_out: "" }),
            null: Null::scenarios(
                "gain 160 in place of 240: up to 160 the paper's utilisation is 100 %",
                {
                    let mut v = s000_fixed_sweep();
                    v[6] = v[5].clone();
                    v
                },
            ),
            form: Form::Effect { null: 0.0 },
            ..Claim::base("s000-fixed-falls-beyond-160")
        },
        Claim {
            figure: "Fig. 4(c), section V-C",
            statement: "With a fixed gain and the UDP source, LEDBAT's share falls below 50 % \
                beyond gain 80.",
            paper_value: "below 50 % beyond 80",
            unit: "points",
            metric: "LEDBAT throughput / 1.5 Mb/s at gain 80 minus at gain 160, the sweep's \
                first point beyond 80, in percentage points, CBR from 20 s, from 25 s",
            scenarios: s000_fixed_cbr_sweep(false),
            extract: |r| {
                Ok(100.0 * (utilisation_of(r[4], "ledbat")? - utilisation_of(r[5], "ledbat")?))
            },
            tolerance: AtLeast { bound: 2.0 },
            direction: Above { bound: 0.0 },
            tolerance_note: "a fall of at least 2 points, out of the band of 'half' (50 ± 2 \
                points, s000-fixed-cbr-half-to-80); direction: a fall at all",
            sweep: Some(crate::catalog::SweepRange { key: "flow.0.cc.gain", paper: (0.125, 10.0), left_out: "" }),
            null: Null::scenarios(
                "gain 80 in place of 160: up to 80 the paper's share is 50 %",
                {
                    let mut v = s000_fixed_cbr_sweep(false);
                    v[5] = v[4].clone();
                    v
                },
            ),
            form: Form::Effect { null: 0.0 },
            siblings: &[
                Sibling::Independent {
                    other: "s000-fixed-cbr-mean-cwnd-rises",
                    why: "the fall of the share from 80 to 160 and the window ratio 400 / 40 \
                        read different gains",
                },
                Sibling::Independent {
                    other: "s000-fixed-cbr-rises-with-gain",
                    why: SIB_CBR_GAINS,
                },
            ],
            ..Claim::base("s000-fixed-cbr-falls-beyond-80")
        },
        Claim {
            figure: "Fig. 4(d, f), section V-C",
            statement: "With the UDP source the fixed gain's mean window also rises at large \
                gains, as without UDP (from 12 to about 15 packets there).",
            paper_value: "rise, as 15 / 12 = 1.25",
            unit: "ratio",
            metric: "mean cwnd at fixed gain 400 / at fixed gain 40, CBR from 20 s, from 25 s",
            scenarios: s000_fixed_cbr_sweep(false),
            extract: |r| Ok(r[8].flows[0].cwnd_mean_pkts / r[3].flows[0].cwnd_mean_pkts),
            tolerance: Between { lo: 1.2, hi: 1.3 },
            direction: Above { bound: 1.0 },
            tolerance_note: "as s000-fixed400-mean-cwnd ('similar results')",
            explanation: "Same root cause as s000-fixed400-mean-cwnd: with RFC 6817's 4-sample \
                current-delay filter the window at large gains swings down as far as up. \
                With 16 samples it rises: 8.36 packets at gain 400 against 6.03 at gain 40, a \
                ratio of 1.39 (seed 1, `ledbat sim scenarios/seed000/fixed-gain-cbr.toml --set \
                flow.0.cc.gain=10 --set flow.0.cc.delay.filter.min.len=16`, and gain=1).",
            sweep: Some(crate::catalog::SweepRange { key: "flow.0.cc.gain", paper: (0.125, 10.0), left_out: "" }),
            hinge: Some(crate::catalog::Hinge { choice: "current-delay filter: 16 samples instead of RFC 6817's 4", alt: &["flow.0.cc.delay.filter.min.len=16"], files: &[], unstated: true }),
            null: Null::scenarios(
                "gain 240 in place of 400: up to 240 the paper's window does not rise",
                {
                    let mut v = s000_fixed_cbr_sweep(false);
                    v[8] = v[6].clone();
                    v
                },
            ),
            form: Form::Effect { null: 1.0 },
            siblings: &[
                Sibling::Independent {
                    other: "s000-fixed-cbr-rises-with-gain",
                    why: "a rank correlation over five gains (80..400) fixes neither the size \
                        of a rise nor the ratio of its ends, and the ratio 400 / 40 reads a \
                        gain (40) outside those five",
                },
            ],
            ..Claim::base("s000-fixed-cbr-mean-cwnd-rises")
        },
        Claim {
            figure: "Fig. 4(g, j, k), section V-C",
            statement: "With the UDP source the fixed gain's sd(cwnd), mean queueing delay and \
                its sd rise with the gain beyond 80, as without UDP.",
            paper_value: "rise (similar to Fig. 4e, h, i)",
            unit: "Kendall τ",
            metric: "the smallest of three Kendall taus between the gain (80..400, 5 values) \
                and sd(cwnd), the mean and the sd of the bottleneck queueing delay, CBR from \
                20 s, from 25 s",
            scenarios: s000_fixed_cbr_sweep(false),
            extract: |r| {
                let g = &S000_GAINS[4..];
                let pick = |f: fn(&RunResult) -> Result<f64, String>| {
                    r[4..].iter().map(|x| f(x)).collect::<Result<Vec<f64>, String>>()
                };
                let sd = pick(|x| Ok(x.flows[0].cwnd_sd_pkts))?;
                let q = pick(|x| Ok(bottleneck(x)?.qdelay_mean_ms))?;
                let qsd = pick(|x| Ok(bottleneck(x)?.qdelay_sd_ms))?;
                Ok([sd, q, qsd]
                    .iter()
                    .map(|v| kendall_tau(g, v))
                    .fold(f64::INFINITY, f64::min))
            },
            tolerance: AtLeast { bound: 0.8 },
            direction: Above { bound: 0.0 },
            tolerance_note: "a nearly monotone rise of each (at most one pair in ten out of \
                order); direction: each rises on balance",
            sweep: Some(crate::catalog::SweepRange { key: "flow.0.cc.gain", paper: (0.125, 10.0), left_out: "" }),
            null: Null::scenarios(
                "the extension on: the dynamic gain at the same initial gains, where the \
                 paper's curves are flat",
                s000_dyn_sweep("seed000/dynamic-gain-cbr.toml"),
            ),
            form: Form::Effect { null: 0.0 },
            ..Claim::base("s000-fixed-cbr-rises-with-gain")
        },
    ]
}

/// Rule 13 (why two claims on the same runs do not, or do, bound each other).
const SIB_CBR_GAINS: &str = "the taus rank the window's spread and the queue's mean and \
    spread over gains 80..400; they fix neither the level of the share nor its fall between \
    two gains";

/// Rule 13 (why two claims on the same runs do not, or do, bound each other).
const SIB_CWND_PEAK_QUEUE_PEAK: &str = "approximately: a full window of w packets holds at \
    least w - P of them in the queue, P the pipe of about 7.5 packets (125 packets/s x 60 \
    ms), and at most w, at 8 ms a packet; a peak of 15.2-22.8 packets gives a queue peak of \
    62-182 ms, inside the sibling's direction (above 50 ms)";

/// Rule 13 (why two claims on the same runs do not, or do, bound each other).
const SIB_SETTLE: &str = "how high the start-up overshoots does not fix how soon the queue \
    then settles: a high peak may settle fast or slowly";

/// Rule 13 (why two claims on the same runs do not, or do, bound each other).
const SIB_TRACES: &str = "the two read different runs of the three traces (fixed gain 40, \
    fixed gain 320, dynamic gain from 320), simulated separately: no value of one bounds the \
    other";

/// Rule 13 (why two claims on the same runs do not, or do, bound each other).
const SIB_WINDOWS: &str = "the two read the gain-40 trace in different windows (10-20 s \
    before the UDP source, 25-30 s after it): the level before does not fix the level after";

/// Rule 13: a cwnd peak w (packets) gives a queue peak of 8 x (w - 7.5) to 8 x w ms.
fn cwnd_peak_to_queue_peak((lo, hi): (f64, f64)) -> (f64, f64) {
    (8.0 * (lo - 7.5), 8.0 * hi)
}
