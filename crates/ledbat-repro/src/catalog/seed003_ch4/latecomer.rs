//! Seed 003 chapter 4: the other latecomer cases of Fig. 4.1 (section 4.2.1) and Fig. 4.4's
//! two traffic models (section 4.5).

use super::*;

/// The time Fig. 4.1(a) (middle) gives for the latecomer's loss, "around t = 25 s" (section
/// 4.2.1): the correction claim reads its time as a multiple of it.
const LOSS_PAPER_S: f64 = 25.0;

/// Two backlogged fLEDBAT flows on Fig. 4.3's file (2 s apart), both with `zeta`.
fn backlogged_2s(zeta: f64) -> ScenarioRef {
    ScenarioRef::with(
        "seed003/fledbat-fluid.toml",
        &[
            format!("flow.0.cc.zeta={zeta}"),
            format!("flow.1.cc.zeta={zeta}"),
        ],
    )
}

/// Fig. 4.3's file as is (zeta 0.1), then [`backlogged_2s`] at `zeta`: the pair Fig. 4.4(b)'s
/// orders compare (zeta 5) and their nulls (zeta 0.5).
fn fig43_and_zeta(zeta: f64) -> Vec<ScenarioRef> {
    vec![
        ScenarioRef::file("seed003/fledbat-fluid.toml"),
        backlogged_2s(zeta),
    ]
}

/// The share of the packets arriving at the bottleneck that find its queue empty (the
/// histogram at enqueue's value at zero: Fig. 4.4's PDF of the queue length at 0).
fn empty_queue_share(r: &RunResult) -> Result<f64, String> {
    let h = &bottleneck(r)?.queue_hist;
    let n: u64 = h.iter().sum();
    if n == 0 {
        return Err(format!("{}: no arrivals at the bottleneck", r.scenario));
    }
    Ok(h[0] as f64 / n as f64)
}

/// The LEDBAT latecomer's start in `latecomer-ledbat.toml` (flow 1's `start`), s.
const LATE_S: f64 = 10.0;

/// The LEDBAT latecomer's base-delay error after TCP's first halving, as a fraction of its
/// error on arrival (section 4.2.1: a latecomer "will over-estimate the base delay by the
/// amount of TCP packets present in the buffer"; "after TCP halves its window, the capacity
/// drains the queue empty and LEDBAT corrects its wrong base delay estimate"). The error at
/// a sample is the bottleneck's queueing delay (its queue x 1.2 ms) minus flow 1's own
/// queueing-delay estimate. On arrival: the median over flow 1's first 0.5 s of estimates
/// (cut at the halving); after: the median over 0.5-3.5 s after TCP's (flow 0's) first
/// halving from the latecomer's start, the first TCP cycle after it. Medians, since at a
/// sample where the queue has just emptied the estimate lags it by one series interval.
fn base_error_left(r: &RunResult) -> Result<f64, String> {
    let q = queue_delay_series(r, 1500.0)?;
    let est = flow_points(r, 1, |f| &f.qdelay_ms)?;
    let tcp = flow_points(r, 0, |f| &f.cwnd_pkts)?;
    let halved = tcp
        .windows(2)
        .find(|w| w[1].0 > LATE_S && w[1].1 < 0.75 * w[0].1)
        .map(|w| w[1].0)
        .ok_or_else(|| format!("{}: TCP never halves after {LATE_S} s", r.scenario))?;
    let err_in = |from: f64, to: f64| -> Result<f64, String> {
        let mut v: Vec<f64> = q
            .iter()
            .zip(&est)
            .filter(|((t, _), (_, e))| *t >= from && *t < to && e.is_finite())
            .map(|((_, d), (_, e))| d - e)
            .collect();
        if v.is_empty() {
            return Err(format!(
                "{}: no delay estimate of the latecomer in {from}-{to} s",
                r.scenario
            ));
        }
        v.sort_by(f64::total_cmp);
        let m = v.len() / 2;
        Ok(if v.len() % 2 == 1 {
            v[m]
        } else {
            (v[m - 1] + v[m]) / 2.0
        })
    };
    let arrival = err_in(LATE_S, (LATE_S + 0.5).min(halved))?;
    if arrival <= 0.0 {
        return Err(format!(
            "{}: the latecomer arrived on no standing queue (error {arrival} ms)",
            r.scenario
        ));
    }
    Ok(err_in(halved + 0.5, halved + 3.5)? / arrival)
}

/// Fig. 4.1 and section 4.2.1; Fig. 4.4 and section 4.5.
pub(super) fn claims() -> Vec<Claim> {
    use crate::claims::Band::*;
    let tcp_first = "flow.0.cc={ name = \"newreno\", slow_start = false }";
    let b40 = "topology.queue.packets=40";
    let tcp_late = "flow.1.cc={ name = \"newreno\", slow_start = false }";
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
            siblings: &[crate::catalog::Sibling::Independent {
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
            tolerance_note: "negligible = within 5 points of the share; direction: \
                NEGLIGIBLE_SHIFT (a fifth of the link)",
            explanation:
                "Run with B = 40, where the correction the thesis describes can happen: TCP's \
                window peaks at the pipe (C x RTT, a little over 40 packets) plus B, and its \
                halving falls just under the pipe, so the queue empties and the latecomer \
                measures the true base delay. With B = 100 TCP's halved window, (pipe + B) / \
                2, leaves a standing queue larger than LEDBAT's target, so LEDBAT sits at its \
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
            thresholds: &[crate::catalog::Threshold::Convention(&NEGLIGIBLE_SHIFT)],
            ..Claim::base("s003-latecomer-vs-tcp-negligible")
        },
        Claim {
            figure: "section 4.2.1",
            statement: "Whenever LEDBAT starts first it then yields to TCP: the start order \
                has a negligible effect on LEDBAT's share against a TCP latecomer too.",
            paper_value: "negligible",
            unit: "share difference",
            metric: "|LEDBAT's share starting 10 s before TCP - starting with it|, 30-80 s, B = \
                40",
            scenarios: vec![
                ScenarioRef::with("seed003/latecomer-ledbat.toml", &[tcp_late, "warmup=30s", b40]),
                ScenarioRef::with(
                    "seed003/latecomer-ledbat.toml",
                    &[tcp_late, "warmup=30s", "flow.1.start=0s", b40],
                ),
            ],
            extract: |r| Ok((share(r[0], "first")? - share(r[1], "first")?).abs()),
            tolerance: AtMost { bound: 0.05 },
            direction: AtMost { bound: 0.2 },
            tolerance_note: "as s003-latecomer-vs-tcp-negligible, the other start order",
            explanation: "The other order of the thesis's 'heterogeneity of initial \
                conditions' against TCP (s003-latecomer-vs-tcp-negligible has LEDBAT late): \
                LEDBAT, first alone on the link, yields as soon as TCP's queue passes its \
                target, so its share is what it gets starting with TCP.",
            form: Form::Alike { null: 0.0 },
            null: Null::scenarios(
                "the TCP latecomer replaced by a LEDBAT one: it takes the first flow's queue \
                for base delay, and the first flow's share then depends on the start order \
                (the advantage of Fig. 4.1)",
                vec![
                    ScenarioRef::with("seed003/latecomer-ledbat.toml", &["warmup=30s", b40]),
                    ScenarioRef::with(
                        "seed003/latecomer-ledbat.toml",
                        &["warmup=30s", "flow.1.start=0s", b40],
                    ),
                ],
            ),
            thresholds: &[crate::catalog::Threshold::Convention(&NEGLIGIBLE_SHIFT)],
            ..Claim::base("s003-latecomer-ledbat-first-vs-tcp-negligible")
        },
        Claim {
            figure: "section 4.2.1",
            statement: "A LEDBAT latecomer against TCP, which took TCP's standing queue for \
                base delay, corrects its wrong base delay estimate once TCP halves its window \
                and the queue drains empty.",
            paper_value: "corrected",
            unit: "fraction of the error",
            metric: "the latecomer's base-delay error (the bottleneck's queueing delay minus \
                its own queueing-delay estimate, median) over 0.5-3.5 s after TCP's first \
                halving, over its error in its first 0.5 s; LEDBAT 10 s after TCP, B = 40",
            scenarios: vec![ScenarioRef::with(
                "seed003/latecomer-ledbat.toml",
                &[tcp_first, "warmup=30s", b40],
            )],
            extract: |r| base_error_left(r[0]),
            tolerance: AtMost { bound: 0.2 },
            direction: Below { bound: 1.0 },
            tolerance_note: "corrected = at most a fifth of the arrival error left (the \
                figure-value family's 20 %, here of an error whose corrected value is 0); \
                direction: some of the error removed (below 1, the ratio of no correction)",
            explanation: "Run on the runs of s003-latecomer-vs-tcp-negligible's late start, \
                with B = 40, where TCP's halved window falls under the pipe and the queue \
                empties. The null is the buffer of Fig. 4.1's bottom plot, B = 100, where the \
                halved window leaves a standing queue: the latecomer's base delay falls only to \
                that queue's trough, and {=s003-latecomer-vs-tcp-corrects-base:null} of its \
                error stays.",
            form: Form::Effect { null: 1.0 },
            null: Null::run(
                "B = 100: TCP's halved window, (pipe + B) / 2, leaves a standing queue, so the \
                queue never drains and the base delay stays over-estimated by its trough",
                &["topology.queue.packets=100"],
            ),
            ..Claim::base("s003-latecomer-vs-tcp-corrects-base")
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
            tolerance: crate::catalog::ORDER_TOLERANCE,
            direction: crate::catalog::ORDER_DIRECTION,
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
            unit: "x 20 s",
            metric: "time the first flow's window first falls to 1.5 packets or less after 10 s \
                (the run's end when it never does), over the thesis's 20 s; gap 10 s, B = 40",
            scenarios: vec![ScenarioRef::with(
                "seed003/latecomer-ledbat.toml",
                &["topology.queue.packets=40", "warmup=0s"],
            )],
            extract: |r| {
                Ok(flow_points(r[0], 0, |f| &f.cwnd_pkts)?
                    .into_iter()
                    .find(|(t, w)| *t >= 10.0 && *w <= 1.5)
                    .map_or(r[0].duration_s, |p| p.0)
                    / FLOOR_PAPER_S)
            },
            draw: Some(|r| plots([cwnd_plot("latecomer 10 s later, B = 40: windows", r[0])])),
            tolerance: Between { lo: 0.8, hi: 1.32 },
            direction: Between { lo: 0.5, hi: 2.0 },
            tolerance_note: "20-22 s ±20 % (16-26.4 s); wider because \"just after 20 s\" is a range read off a figure, widened at both ends; direction: within a factor of two of 20 s (10-40 s)",
            form: Form::Value,
            null: Null::run(
                "a 2-s gap: the latecomer measures the same base delay as the first flow, \
                whose target is not doubled, and the first flow is not driven to its floor",
                &["flow.1.start=2s"],
            ),
            siblings: crate::catalog::seed003::relations::GAP10_FLOOR,
            thresholds: crate::catalog::seed003::conventions::T_FACTOR_TWO,
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
            tolerance: crate::catalog::ORDER_TOLERANCE,
            direction: crate::catalog::ORDER_DIRECTION,
            tolerance_note: "an order, decided in each seed (the sharing fairer after the loss than before); reproduced when 8 seeds in 10 show it, the direction holds when more than half do",
            explanation:
                "The reference window began before the first flow's floor until a review found \
                it held the moment the two windows cross, whose near-equal mean rates made the verdict \
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
            figure: "Fig. 4.1(a) middle, section 4.2.1",
            statement: "With a 10-s gap and B = 40 the latecomer over-estimates the base delay \
                by the queue the first flow holds when it arrives, and so sets its target to a \
                value higher than the first flow's.",
            paper_value: "tQ(t2): the first flow's 25-ms target",
            unit: "ms",
            metric: "mean over 12-25 s (from 2 s after the latecomer's start to the loss \
                \"around t = 25 s\") of the first flow's queueing-delay estimate minus the \
                latecomer's (both of the one shared queue, so the difference is the latecomer's \
                base-delay error), gap 10 s, B = 40",
            scenarios: vec![ScenarioRef::with(
                "seed003/latecomer-ledbat.toml",
                &["topology.queue.packets=40", "warmup=0s"],
            )],
            extract: |r| {
                let est = |i| -> Result<f64, String> {
                    let v: Vec<f64> = flow_points(r[0], i, |f| &f.qdelay_ms)?
                        .into_iter()
                        .filter(|(t, y)| (12.0..25.0).contains(t) && y.is_finite())
                        .map(|p| p.1)
                        .collect();
                    if v.is_empty() {
                        return Err(format!("{}: flow {i} has no delay samples in 12-25 s", r[0].scenario));
                    }
                    Ok(mean(&v))
                };
                Ok(est(0)? - est(1)?)
            },
            tolerance: Near {
                value: 25.0,
                tol: 5.0,
            },
            direction: Above { bound: 0.0 },
            tolerance_note: "tQ(t2) is the queue the first flow holds alone at t2 = 10 s, its \
                25-ms target (20.8 packets, inside B = 40), as s003-latecomer-base-overestimate \
                reads it with B = 100: ±20 %; direction: the latecomer's estimate is the lower, \
                its base delay the higher",
            explanation: "",
            form: Form::Effect { null: 0.0 },
            null: Null::run(
                "both flows start together: both measure the empty queue's base delay",
                &["flow.1.start=0s"],
            ),
            siblings: &[
                crate::catalog::Sibling::Independent {
                    other: "s003-latecomer-gap10-b40-first-floor",
                    why: "the error gives the latecomer a target above the first's; how fast \
                          the first flow's window then falls to its floor also depends on the \
                          gain and the buffer, so the error bounds no floor time",
                },
                crate::catalog::Sibling::Independent {
                    other: "s003-latecomer-gap10-b40-fairer-later",
                    why: "the error before the loss sets the unfairness of 20-25 s only \
                          together with the buffer and the windows, and says nothing of the \
                          index after the loss",
                },
            ],
            ..Claim::base("s003-latecomer-gap10-b40-base-overestimate")
        },
        Claim {
            figure: "Fig. 4.1(a) middle, section 4.2.1",
            statement: "With a 10-s gap and B = 40, around t = 25 s the latecomer causes a loss \
                that drains the queue, and it corrects its base delay.",
            paper_value: "around t = 25 s",
            unit: "x 25 s",
            metric: "first time from 12 s on at which the latecomer's base-delay error (the \
                first flow's queueing-delay estimate minus the latecomer's, mean over the next \
                second) falls under half the first flow's 25-ms target (the run's end when it \
                never does), over the thesis's 25 s; gap 10 s, B = 40",
            scenarios: vec![ScenarioRef::with(
                "seed003/latecomer-ledbat.toml",
                &["topology.queue.packets=40", "warmup=0s"],
            )],
            extract: |r| {
                let a = flow_points(r[0], 0, |f| &f.qdelay_ms)?;
                let b = flow_points(r[0], 1, |f| &f.qdelay_ms)?;
                let d: Vec<(f64, f64)> = a
                    .iter()
                    .zip(&b)
                    .filter(|((t, x), (_, y))| *t >= 12.0 && x.is_finite() && y.is_finite())
                    .map(|((t, x), (_, y))| (*t, x - y))
                    .collect();
                let at = d.iter().enumerate().find_map(|(i, (t, _))| {
                    let next: Vec<f64> = d[i..]
                        .iter()
                        .take_while(|(u, _)| *u < t + 1.0)
                        .map(|p| p.1)
                        .collect();
                    (mean(&next) < 12.5).then_some(*t)
                });
                Ok(at.unwrap_or(r[0].duration_s) / LOSS_PAPER_S)
            },
            tolerance: Between { lo: 0.8, hi: 1.2 },
            direction: Between { lo: 0.5, hi: 2.0 },
            tolerance_note: "around 25 s ±20 % (20-30 s); direction: within a factor of two of \
                25 s (12.5-50 s)",
            explanation: "",
            form: Form::Value,
            null: Null::run(
                "B = 100: the latecomer's doubled target fits in the buffer, no loss drains the \
                queue and its base delay stays wrong (s003-latecomer-starves-first)",
                &["topology.queue.packets=100"],
            ),
            siblings: &[
                crate::catalog::Sibling::Independent {
                    other: "s003-latecomer-gap10-b40-first-floor",
                    why: "the first flow reaches its floor before the loss; when the loss comes \
                          depends on how fast the latecomer fills the buffer, not on that time",
                },
                crate::catalog::Sibling::Independent {
                    other: "s003-latecomer-gap10-b40-fairer-later",
                    why: "the correction's time bounds neither window's index: the sharing \
                          after it depends on how the windows regrow",
                },
                crate::catalog::Sibling::Independent {
                    other: "s003-latecomer-gap10-b40-base-overestimate",
                    why: "the error's mean before 25 s is read in a window that ends where \
                          this claim's times of interest begin; a correction at any time past \
                          it leaves that mean unchanged",
                },
            ],
            thresholds: crate::catalog::seed003::conventions::T_FACTOR_TWO,
            ..Claim::base("s003-latecomer-gap10-b40-corrects-near-25s")
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
            direction: AtLeast { bound: 0.5 },
            tolerance_note: "all = at least 80 %; direction: the larger part, more than the \
                four others together",
            form: Form::Value,
            null: Null::run(
                "the five flows started together: none arrives on another's standing queue",
                &["flow.0.start_spacing=0s"],
            ),
            thresholds: crate::catalog::seed003::conventions::T_MOST,
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
            thresholds: crate::catalog::seed003::conventions::T_JAIN_ONE_TO_THREE,
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
            hinge: Some(crate::catalog::Hinge {
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
            thresholds: crate::catalog::seed003::conventions::T_JAIN_THREE_QUARTERS,
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
            scenarios: vec![backlogged_2s(5.0)],
            extract: |r| {
                let q_star = 10e6 / 12000.0 * 0.025 + 2.0 * 0.025 / (5.0 * 0.05);
                Ok(q_star - bottleneck(r[0])?.queue_mean_time_pkts)
            },
            tolerance: crate::catalog::ORDER_TOLERANCE,
            direction: crate::catalog::ORDER_DIRECTION,
            tolerance_note: "an order, decided in each seed (the fluid model's queue above the simulated one); reproduced when 8 seeds in 10 show it, the direction holds when more than half do",
            explanation:
                "A weak test: Q*(5) lies a fraction of a packet above C tau, the queue at the \
                target alone, so any run whose mean queue stays at or under the target passes; 'slightly' is not \
                bounded. The thesis's 'the protocol is less efficient' at zeta = 5 is \
                s003-backlogged-zeta5-less-efficient.",
            null: Null::scenarios(
                "zeta = 0.1 (Fig. 4.3, where the model's queue is 30.8 packets): the queue \
                stands above this claim's Q*(5)",
                vec![ScenarioRef::file("seed003/fledbat-fluid.toml")],
            ),
            form: Form::Order { null: 0.0, above: true },
            ..Claim::base("s003-backlogged-zeta5-model-over")
        },
        Claim {
            figure: "Fig. 4.4(b), section 4.5.2",
            statement: "Backlogged with zeta = 5 the protocol is less efficient than with Fig. \
                4.3's zeta = 0.1.",
            paper_value: "less efficient",
            unit: "efficiency",
            metric: "efficiency at zeta = 0.1 minus efficiency at zeta = 5, two backlogged \
                fLEDBAT flows 2 s apart (Fig. 4.3's file)",
            scenarios: fig43_and_zeta(5.0),
            extract: |r| Ok(r[0].aggregate.efficiency - r[1].aggregate.efficiency),
            tolerance: crate::catalog::ORDER_TOLERANCE,
            direction: crate::catalog::ORDER_DIRECTION,
            tolerance_note: "an order, decided in each seed (zeta = 5 the less efficient); \
                reproduced when 8 seeds in 10 show it, the direction holds when more than half \
                do",
            explanation: "The thesis's 'less efficient with respect to the previous cases', \
                read against the zeta of Fig. 4.3 on the same file. The order is what is \
                tested; its size is tiny in ours ({=s003-backlogged-zeta5-less-efficient@seed1} \
                of the link in seed 1): our queue at zeta = 5 sits below the target without \
                emptying often enough to idle the link.",
            null: Null::scenarios(
                "zeta = 5 moved to 0.5, the upper end of Fig. 4.5(c)'s shaded zone, where the \
                thesis finds fLEDBAT efficient: the queue keeps the link busy as at 0.1",
                fig43_and_zeta(0.5),
            ),
            form: Form::Order { null: 0.0, above: true },
            ..Claim::base("s003-backlogged-zeta5-less-efficient")
        },
        Claim {
            figure: "Fig. 4.4(b), section 4.5.2",
            statement: "Backlogged with zeta = 5 the queue now flushes at times: the PDF of the \
                queue length shows an increased probability of an empty queue.",
            paper_value: "increased probability of a null queue length",
            unit: "probability difference",
            metric: "share of the packets arriving at the bottleneck that find its queue empty \
                at zeta = 5 minus the same at Fig. 4.3's zeta = 0.1, two backlogged fLEDBAT \
                flows 2 s apart (Fig. 4.3's file), 20-60 s",
            scenarios: fig43_and_zeta(5.0),
            extract: |r| Ok(empty_queue_share(r[1])? - empty_queue_share(r[0])?),
            tolerance: crate::catalog::ORDER_TOLERANCE,
            direction: crate::catalog::ORDER_DIRECTION,
            tolerance_note: "an order, decided in each seed (an empty queue more likely at zeta = \
                5 than at zeta = 0.1); reproduced when 8 seeds in 10 show it, the direction \
                holds when more than half do",
            explanation: "The thesis's PDF is of the queue length; ours is the queue each \
                arriving packet finds (the link's histogram at enqueue), whose value at zero is \
                the probability read here. 'Increased' is read against the backlogged case \
                before it, Fig. 4.3's zeta = 0.1 on the same file, where the queue stands at \
                its equilibrium and never empties, as the section's 'provided that zeta is \
                large enough to let the queue flush' contrasts. The other PDF of Fig. 4.4, the \
                chunk case of part (a), also empties its queue, between chunks: against it the \
                difference is small (seed 1: 0.0050 with chunks at zeta = 0.01, `ledbat sim \
                scenarios/seed003/chunks-fledbat.toml --seed 1 --set flow.0.cc.zeta=0.01 --set \
                flow.1.cc.zeta=0.01 --out DIR`, summary.json's bottleneck queue_hist, against \
                0.0076 at zeta = 5 with `ledbat sim scenarios/seed003/fledbat-fluid.toml --seed 1 \
                --set flow.0.cc.zeta=5 --set flow.1.cc.zeta=5 --out DIR`), so that reading is not \
                the one tested.",
            null: Null::scenarios(
                "zeta = 5 moved to 0.5, the upper end of Fig. 4.5(c)'s shaded zone: its \
                decreases are too small to flush the queue, which never empties as at 0.1",
                fig43_and_zeta(0.5),
            ),
            form: Form::Order { null: 0.0, above: true },
            siblings: &[crate::catalog::Sibling::Independent {
                other: "s003-backlogged-zeta5-less-efficient",
                why: "a packet can find the queue empty while the link still sends the one \
                      before it, so an empty queue at arrivals bounds no idle time, and the \
                      link can idle between arrivals that all find a queue",
            }],
            ..Claim::base("s003-backlogged-zeta5-empty-queue-likelier")
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
            thresholds: crate::catalog::seed003::conventions::T_MOST,
            ..Claim::base("s003-backlogged-small-zeta-latecomer")
        },
    ]
}

#[cfg(test)]
mod tests {
    use super::*;
    use ledbat_sim::result::{FlowSeries, LinkSeries, Series};

    /// A short real run of the latecomer file (for its link and flow records), whose series
    /// the tests replace with hand-made ones.
    fn a_run() -> RunResult {
        let text = std::fs::read_to_string(
            std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
                .join("../../scenarios/seed003/latecomer-ledbat.toml"),
        )
        .unwrap();
        let sc =
            ledbat_sim::Scenario::from_toml_with(&text, &["duration=1s", "warmup=0s"]).unwrap();
        ledbat_sim::run(&sc, 1).unwrap()
    }

    fn flow(name: &str, cwnd: Vec<f64>, qdelay: Vec<f64>) -> FlowSeries {
        FlowSeries {
            name: name.into(),
            rate_mbps: vec![0.0; cwnd.len()],
            cwnd_pkts: cwnd,
            qdelay_ms: qdelay,
        }
    }

    #[test]
    fn the_error_left_is_read_after_tcps_first_halving_over_the_arrival_error() {
        // 0-20 s every 0.1 s. TCP's window is 60 packets and halves to 30 at 12 s. The
        // queue holds 20 packets (24 ms at 10 Mb/s) until then, the latecomer estimating 4
        // ms from 10 s on: an error of 20 ms on arrival. From 12 s the queue holds 10
        // packets (12 ms) and the latecomer estimates 10 ms: 2 ms left, a tenth.
        let t: Vec<f64> = (1..=200).map(|k| k as f64 / 10.0).collect();
        let after = |x: &f64| *x >= 12.0 - 1e-9;
        let cwnd = t
            .iter()
            .map(|x| if after(x) { 30.0 } else { 60.0 })
            .collect();
        let est = t
            .iter()
            .map(|x| {
                if *x < 10.0 - 1e-9 {
                    f64::NAN
                } else if after(x) {
                    10.0
                } else {
                    4.0
                }
            })
            .collect();
        let queue = t.iter().map(|x| if after(x) { 10 } else { 20 }).collect();
        let mut r = a_run();
        r.series = Some(Series {
            states: Vec::new(),
            tests: Vec::new(),
            flows: vec![
                flow("first", cwnd, vec![f64::NAN; t.len()]),
                flow("latecomer", vec![5.0; t.len()], est),
            ],
            links: vec![LinkSeries {
                name: "bottleneck".into(),
                queue_pkts: queue,
            }],
            t_s: t,
        });
        let left = base_error_left(&r).unwrap();
        assert!((left - 0.1).abs() < 1e-9, "{left}");
    }

    #[test]
    fn the_empty_queue_share_is_the_histograms_value_at_zero() {
        let mut r = a_run();
        let i = r.aggregate.primary_link.unwrap();
        r.links[i].queue_hist = vec![3, 1, 0, 4];
        assert_eq!(empty_queue_share(&r).unwrap(), 3.0 / 8.0);
        r.links[i].queue_hist = vec![];
        assert!(empty_queue_share(&r).is_err());
    }
}
