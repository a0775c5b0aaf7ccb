//! Seed 003 chapter 3: the gain and target ratios of two LEDBAT flows (Fig. 3.5), their
//! chapter-5 repetition (Fig. 5.4), and RTT heterogeneity (Fig. 3.9).

use super::retx;
use crate::catalog::extract::*;
use crate::catalog::{Claim, Form, Null, ScenarioRef};
use ledbat_sim::RunResult;

/// RTT ratios of Fig. 3.9 (the long flow's access delay makes its RTT R x 50 ms).
const RTT_RATIOS: [f64; 4] = [2.0, 4.0, 8.0, 10.0];

/// The pair scenario with flow `one`'s gain or target scaled by `ratio`.
fn pair(set: &[String]) -> ScenarioRef {
    ScenarioRef::with("seed003/ledbat-pair.toml", set)
}

fn target_ratio_points() -> Vec<ScenarioRef> {
    [1.5, 2.0, 3.0, 6.0, 10.0]
        .iter()
        .map(|k| pair(&[format!("flow.0.cc.target={}us", (k * 25_000.0) as u64)]))
        .collect()
}

/// Chapter 5's pair: T1 = `ratio` x T2 with a buffer of 7 T2 (the targets' sum exceeds it
/// at T1 / T2 = 6), T2 = `t2_ms` (the thesis's 100 ms; targets up to
/// `ledbat_core::ledbat::MAX_TARGET`, 1 s, are accepted).
fn ch5_pair(ratio: f64, t2_ms: f64) -> ScenarioRef {
    pair(&[
        format!(
            "topology.queue.packets={}",
            (7.0 * t2_ms / 1.2).round() as u64
        ),
        format!("flow.1.cc.target={}us", (t2_ms * 1000.0) as u64),
        format!("flow.0.cc.target={}us", (ratio * t2_ms * 1000.0) as u64),
    ])
}

/// The flow `one`'s share of the throughput (the thesis's Brk).
fn one_share(r: &[&RunResult]) -> Result<f64, String> {
    Ok(tput(r[0], "one")? / total_tput(r[0]))
}

/// Fig. 3.9's RTT-heterogeneity runs for `cc` (a controller table), every ratio.
pub(in crate::catalog) fn rtt_points(cc: Option<&str>) -> Vec<ScenarioRef> {
    RTT_RATIOS
        .iter()
        .map(|k| {
            let mut set = vec![format!(
                "flow.1.access_delay={}ms",
                (k * 25.0 - 20.0) as u64
            )];
            if let Some(cc) = cc {
                set.push(format!("flow.0.cc={cc}"));
                set.push(format!("flow.1.cc={cc}"));
            }
            ScenarioRef::with("seed003/rtt-hetero-ledbat.toml", &set)
        })
        .collect()
}

/// Of Fig. 3.9's LEDBAT runs, the long-RTT flow's largest share of the pair's throughput
/// over the ratios (one run per ratio).
fn long_rtt_share_largest(r: &[&RunResult]) -> Result<f64, String> {
    r.iter()
        .map(|x| Ok(tput(x, "long-rtt")? / total_tput(x)))
        .try_fold(f64::NEG_INFINITY, |m: f64, v: Result<f64, String>| {
            v.map(|v| m.max(v))
        })
}

/// Rule 13: two flows' Jain index as a function of one flow's share s of their sum,
/// 1 / (2 (s^2 + (1 - s)^2)), increasing on [0, 1/2]; so while every ratio's share lies in
/// [lo, hi] within [0, 1/2], the largest index over the ratios is that of the largest share.
fn long_share_to_jain((lo, hi): (f64, f64)) -> (f64, f64) {
    let j = |s: f64| {
        let s = s.clamp(0.0, 0.5);
        1.0 / (2.0 * (s * s + (1.0 - s) * (1.0 - s)))
    };
    if hi <= 0.5 {
        (j(lo), j(hi))
    } else {
        (0.5, 1.0)
    }
}

/// Fig. 3.9's runs of LEDBAT, NICE, TCP-LP and NewReno, in that order, each at every ratio of
/// `RTT_RATIOS`.
fn rtt_most_efficient_points() -> Vec<ScenarioRef> {
    let mut v = rtt_points(None);
    for cc in ["nice", "tcp-lp", "newreno"] {
        v.extend(rtt_points(Some(&format!(
            "{{ name = \"{cc}\", slow_start = false }}"
        ))));
    }
    v
}

/// Fig. 3.5 and its chapter-5 repetition (Fig. 5.4).
pub(super) fn claims() -> Vec<Claim> {
    use crate::claims::Band::*;
    vec![
        Claim {
            figure: "Fig. 3.5 (left), section 3.2.4.2",
            statement: "Two LEDBAT flows with gain ratios G1/G2 from 1 to 10 stay fair: the \
                gain barely matters.",
            paper_value: "fair",
            unit: "Jain index",
            metric: "lowest long-term Jain index over G1/G2 = 2, 5, 10 (G2 = 1, T = 25 ms, B = \
                100)",
            scenarios: [2.0, 5.0, 10.0]
                .iter()
                .map(|g| pair(&[format!("flow.0.cc.gain={g}")]))
                .collect(),
            extract: |r| min_over(r, jain_long),
            tolerance: AtLeast { bound: 0.9 },
            direction: AtLeast { bound: 0.75 },
            tolerance_note: "fair = F >= 0.9",
            explanation:
                "Root cause: once the queue reaches the target neither LEDBAT window moves, so \
                the split set during the ramp persists. RFC 6817 changes the window by GAIN x \
                off_target packets per RTT whatever its size; with G1 = 10 the first flow \
                ramps to 56 packets within a second while the second reaches 9, the queue then \
                holds the 20.8-packet target and both off_targets are zero; the windows stay \
                56 and 9 to the end (seed 1, `ledbat sim scenarios/seed003/ledbat-pair.toml \
                --set flow.0.cc.gain=10`, F 0.644; 0.692 with exact start times; equal gains \
                give 0.99995). The thesis's argument that the smaller offset of the faster \
                flow compensates its larger gain holds only while the queue is below the \
                target, where both still grow; what equalised its flows after the ramp is not \
                established.",
            sweep: Some(crate::catalog::SweepRange { key: "flow.0.cc.gain", paper: (1.0, 10.0), left_out: "G1/G2 = 1 is two equal flows, s003-ledbat-ledbat-fair" }),
            form: Form::Value,
            null: Null::scenarios(
                "the gain ratio replaced by a target ratio of 2 (Fig. 3.5, right): the higher \
                target takes the link",
                vec![ScenarioRef::with("seed003/ledbat-pair.toml", &["flow.0.cc.target=50000us"]); 3],
            ),
            thresholds: crate::catalog::seed003::conventions::T_JAIN_THREE_QUARTERS,
            ..Claim::base("s003-gain-ratio-fair")
        },
        Claim {
            figure: "Fig. 3.5 (right), section 3.2.4.2",
            statement: "As soon as the target ratio T1/T2 exceeds 1, long-term fairness drops \
                to its minimum 0.5: the higher target starves the other.",
            paper_value: "F ≈ 0.5",
            unit: "Jain index",
            metric: "highest long-term Jain index over T1/T2 = 1.5, 2, 3, 6, 10 (T2 = 25 ms, B \
                = 100)",
            scenarios: target_ratio_points(),
            extract: |r| {
                r.iter()
                    .map(|x| jain_long(x))
                    .try_fold(0.0, |m: f64, v| v.map(|v| m.max(v)))
            },
            tolerance: AtMost { bound: 0.6 },
            direction: AtMost { bound: 0.8 },
            tolerance_note: "the minimum 0.5 +20 %; direction: clearly unfair",
            sweep: Some(crate::catalog::SweepRange { key: "flow.0.cc.target", paper: (25000.0, 250000.0), left_out: "T1/T2 = 1 is two equal flows (s003-ledbat-ledbat-fair); the smallest ratio run is 1.5, and s003-ch5-target-ratio-1-2 tests 1.2" }),
            form: Form::Value,
            null: Null::scenarios(
                "equal targets (T1/T2 = 1): the two flows measure the same queue and share",
                vec![pair(&[]); 5],
            ),
            siblings: crate::catalog::seed003::relations::TARGET_RATIO_UNFAIR,
            thresholds: crate::catalog::seed003::conventions::T_JAIN_ONE_TO_THREE,
            ..Claim::base("s003-target-ratio-unfair")
        },
        Claim {
            figure: "Fig. 3.5 (right), section 3.2.4.2",
            statement: "Beyond T1/T2 = 5 (targets summing over the buffer) both flows see \
                losses.",
            paper_value: "both lose",
            unit: "retransmissions",
            metric: "the smaller of the two flows' retransmission counts, the smallest over \
                T1/T2 = 6 and 10",
            scenarios: target_ratio_points(),
            extract: |r| {
                r[3..]
                    .iter()
                    .map(|x| Ok(retx(x, "one")?.min(retx(x, "two")?)))
                    .try_fold(f64::INFINITY, |m: f64, v: Result<f64, String>| v.map(|v| m.min(v)))
            },
            tolerance: AtLeast { bound: 1.0 },
            direction: Above { bound: 0.0 },
            tolerance_note: "both lose = each retransmits at least once; direction: the same, \
                a count above none",
            explanation:
                "Our lower-target flow sits at its one-packet floor (mean window 1.0, 0.09 \
                Mb/s) and in 90 s none of its packets meets the moments the queue is full, so \
                it never retransmits, while the higher-target flow does (seed 1, `ledbat sim \
                scenarios/seed003/ledbat-pair.toml --set flow.0.cc.target=150ms`: 4 and 0 \
                retransmissions). The unfairness itself reproduces \
                (s003-target-ratio-6-unfair).",
            sweep: Some(crate::catalog::SweepRange { key: "flow.0.cc.target", paper: (25000.0, 250000.0), left_out: "T1/T2 = 1 is two equal flows (s003-ledbat-ledbat-fair); the smallest ratio run is 1.5, and s003-ch5-target-ratio-1-2 tests 1.2" }),
            form: Form::Effect { null: 0.0 },
            null: Null::scenarios(
                "equal targets (T1/T2 = 1), their sum well under the buffer: nothing \
                overflows, neither flow loses",
                vec![pair(&[]); 5],
            ),
            siblings: crate::catalog::seed003::relations::TARGET_RATIO_BOTH_LOSE,
            ..Claim::base("s003-target-ratio-6-both-lose")
        },
        Claim {
            figure: "Fig. 3.5 (right), section 3.2.4.2",
            statement: "Beyond T1/T2 = 5 the unfairness persists.",
            paper_value: "F ≈ 0.5",
            unit: "Jain index",
            metric: "highest long-term Jain index over T1/T2 = 6 and 10",
            scenarios: target_ratio_points(),
            extract: |r| {
                r[3..]
                    .iter()
                    .map(|x| jain_long(x))
                    .try_fold(0.0, |m: f64, v| v.map(|v| m.max(v)))
            },
            tolerance: AtMost { bound: 0.6 },
            direction: AtMost { bound: 0.8 },
            tolerance_note: "as s003-target-ratio-unfair",
            sweep: Some(crate::catalog::SweepRange { key: "flow.0.cc.target", paper: (25000.0, 250000.0), left_out: "T1/T2 = 1 is two equal flows (s003-ledbat-ledbat-fair); the smallest ratio run is 1.5, and s003-ch5-target-ratio-1-2 tests 1.2" }),
            form: Form::Value,
            null: Null::scenarios(
                "equal targets (T1/T2 = 1): the two flows measure the same queue and share",
                vec![pair(&[]); 5],
            ),
            thresholds: crate::catalog::seed003::conventions::T_JAIN_ONE_TO_THREE,
            ..Claim::base("s003-target-ratio-6-unfair")
        },
        Claim {
            figure: "Fig. 5.4(b), section 5.2.2",
            statement: "With T1 = 1.2 T2 (T2 = 100 ms) the higher-target flow's window takes \
                over.",
            paper_value: "takes over",
            unit: "share",
            metric: "the higher-target flow's share of the throughput (the thesis's Brk), T1 = \
                120 ms, T2 = 100 ms, 700-ms buffer",
            scenarios: vec![ch5_pair(1.2, 100.0)],
            extract: one_share,
            tolerance: AtLeast { bound: 0.9 },
            direction: AtLeast { bound: 0.6 },
            tolerance_note: "takes over = at least 90 %; direction: the larger part",
            explanation:
                "Measurement window: with targets of 120 and 100 ms in a 700-ms buffer the \
                takeover is slow, and over the 10-100 s measured here the higher-target flow \
                has {=s003-ch5-target-ratio-1-2} of the throughput. Run longer, the \
                lower-target flow reaches its floor only at about 150 s and over 10-300 s the \
                higher-target flow has 90 % (seed 1, `ledbat sim \
                scenarios/seed003/ledbat-pair.toml --set topology.queue.packets=583 --set \
                flow.1.cc.target=100000us --set flow.0.cc.target=120000us --set \
                duration=300s`); the report shows the verdict of that run length beside this \
                one (the hinge). The thesis does not give the run length of Fig. 5.4.",
            hinge: Some(crate::catalog::Hinge { choice: "run length: 300 s instead of 100 s", alt: &["duration=300s"], files: &[], unstated: true }),
            form: Form::Effect { null: 0.5 },
            null: Null::scenarios(
                "equal targets (T1 = T2 = 100 ms): neither flow takes over",
                vec![ch5_pair(1.0, 100.0)],
            ),
            thresholds: crate::catalog::seed003::conventions::T_CLEAR_MAJORITY,
            ..Claim::base("s003-ch5-target-ratio-1-2")
        },
        Claim {
            figure: "Fig. 5.4(a), section 5.2.2",
            statement: "The higher-target flow takes everything even when the targets' sum \
                exceeds the buffer (T1/T2 > 6, T2 = 100 ms).",
            paper_value: "takes everything",
            unit: "share",
            metric: "the higher-target flow's share at T1/T2 = 8, T1 = 800 ms, T2 = 100 ms, \
                700-ms buffer",
            scenarios: vec![ch5_pair(8.0, 100.0)],
            extract: one_share,
            tolerance: AtLeast { bound: 0.9 },
            direction: AtLeast { bound: 0.6 },
            tolerance_note: "as s003-ch5-target-ratio-1-2",
            form: Form::Effect { null: 0.5 },
            null: Null::scenarios(
                "equal targets (T1 = T2 = 100 ms): neither flow takes over",
                vec![ch5_pair(1.0, 100.0)],
            ),
            thresholds: crate::catalog::seed003::conventions::T_CLEAR_MAJORITY,
            ..Claim::base("s003-ch5-target-ratio-8")
        },
        Claim {
            figure: "Fig. 3.9 (left), section 3.2.7",
            statement: "Under RTT heterogeneity LEDBAT is totally unfair, for every RTT ratio.",
            paper_value: "unfair",
            unit: "Jain index",
            metric: "highest long-term Jain index over RTT ratios 2, 4, 8, 10",
            scenarios: rtt_points(None),
            extract: |r| {
                r.iter()
                    .map(|x| jain_long(x))
                    .try_fold(0.0, |m: f64, v| v.map(|v| m.max(v)))
            },
            tolerance: AtMost { bound: 0.7 },
            direction: AtMost { bound: 0.9 },
            tolerance_note: "as s003-rtt-hetero-ledbat-unfair, at every ratio",
            explanation:
                "The unfairness grows with the RTT ratio: F 0.783, 0.620 and 0.530 at ratios 2, \
                4 and 8, the long flow keeping 24 %, 11 % and 3 % (seed 1, `ledbat sim \
                scenarios/seed003/rtt-hetero-ledbat.toml --set flow.1.access_delay=30ms`, \
                80ms, 180ms). At ratio 2 the long-RTT flow is squeezed, not starved; why the \
                thesis's small ratios are already totally unfair is not established.",
            sweep: Some(crate::catalog::SweepRange { key: "flow.1.access_delay", paper: (5.0, 230.0), left_out: "RTT1/RTT2 = 1 (5 ms) is two equal flows, s003-ledbat-ledbat-fair; the ratios run are 2, 4, 8 and 10" }),
            form: Form::Value,
            null: Null::scenarios(
                "equal RTTs (both access delays 5 ms): nothing favours either flow",
                vec![
                    ScenarioRef::with(
                        "seed003/rtt-hetero-ledbat.toml",
                        &["flow.1.access_delay=5ms"]
                    );
                    4
                ],
            ),
            thresholds: crate::catalog::seed003::conventions::T_FAIR,
            ..Claim::base("s003-rtt-hetero-ledbat-unfair-all")
        },
        Claim {
            figure: "Fig. 3.9 (left), section 3.2.7",
            statement: "Under RTT heterogeneity LEDBAT is totally unfair at every RTT ratio: \
                the small-RTT flow reaches its target first and the long-RTT flow, seeing a \
                queueing delay equal to its target, settles in a starvation state.",
            paper_value: "the long-RTT flow starved",
            unit: "share",
            metric: "the long-RTT flow's share of the two LEDBAT flows' throughput, the largest \
                over RTT ratios 2, 4, 8, 10 (the short flow's RTT 50 ms)",
            scenarios: rtt_points(None),
            extract: long_rtt_share_largest,
            tolerance: AtMost { bound: 0.1 },
            direction: Below { bound: 0.25 },
            tolerance_note: "starved = at most 10 % of the pair's throughput, at every ratio \
                (the catalog's reading of the thesis's \"starves (TCP% ≃ 0%)\", section \
                3.2.5, as s003-latecomer-starves-first); direction: totally unfair with the \
                long-RTT flow the loser, its share below the 1 : 3 line (the EVEN_SPLIT \
                convention), which also says that the short-RTT flow is ahead",
            explanation: "The largest share is the smallest ratio's: the unfairness grows with \
                the RTT ratio, and at ratio 2 the long-RTT flow is squeezed rather than \
                starved (s003-rtt-hetero-ledbat-unfair-all's explanation gives each ratio's \
                share with its command). The direction is not the even split itself: with \
                equal RTTs the two flows' shares scatter around one half from seed to seed, so \
                a direction at one half would read half of those seeds as unfair; the 1 : 3 \
                line keeps the null's even split out.",
            sweep: Some(crate::catalog::SweepRange {
                key: "flow.1.access_delay",
                paper: (5.0, 230.0),
                left_out: "RTT1/RTT2 = 1 (5 ms) is two equal flows, the null; the ratios run \
                    are 2, 4, 8 and 10",
            }),
            form: Form::Value,
            null: Null::scenarios(
                "equal RTTs (both access delays 5 ms): neither flow gets the faster feedback, \
                 so neither starves",
                vec![
                    ScenarioRef::with(
                        "seed003/rtt-hetero-ledbat.toml",
                        &["flow.1.access_delay=5ms"]
                    );
                    4
                ],
            ),
            siblings: &[
                crate::catalog::Sibling::Implies {
                    other: "s003-rtt-hetero-ledbat-unfair-all",
                    map: long_share_to_jain,
                    why: "two flows' Jain index is 1 / (2 (s^2 + (1 - s)^2)) of one flow's share \
                          s, increasing up to s = 1/2: with the long-RTT flow's share at most \
                          0.1 at every ratio the largest index over the ratios is at most \
                          1 / (2 (0.01 + 0.81)) = 0.61, inside the index's direction (at most \
                          0.9)",
                },
                crate::catalog::Sibling::Independent {
                    other: "s003-rtt-hetero-ledbat-efficient",
                    why: "the share is the split of the two rates, the efficiency their sum: a \
                          starving long-RTT flow leaves the link full or idle alike",
                },
            ],
            thresholds: &[crate::catalog::Threshold::Convention(
                &crate::catalog::seed003::conventions::EVEN_SPLIT_LO,
            )],
            ..Claim::base("s003-rtt-hetero-long-rtt-starves")
        },
        Claim {
            figure: "Fig. 3.9 (left), section 3.2.7",
            statement: "Under RTT heterogeneity only NICE, by virtue of its Vegas inheritance, \
                stays fair: TCP-LP, TCP and LEDBAT are less fair.",
            paper_value: "NICE fairest",
            unit: "Jain difference",
            metric: "the smallest over RTT ratios 2, 4, 8, 10 of NICE's long-term Jain index \
                minus the best of LEDBAT's, TCP-LP's and NewReno's at the same ratio: the \
                order must hold at every ratio",
            scenarios: rtt_most_efficient_points(),
            extract: |r| {
                let n = RTT_RATIOS.len();
                let mut low = f64::INFINITY;
                for i in 0..n {
                    let j = |p: usize| jain_long(r[p * n + i]);
                    low = low.min(j(1)? - j(0)?.max(j(2)?).max(j(3)?));
                }
                Ok(low)
            },
            tolerance: crate::catalog::ORDER_TOLERANCE,
            direction: crate::catalog::ORDER_DIRECTION,
            tolerance_note: "an order, decided in each seed (NICE the fairest at every ratio); reproduced when 8 seeds in 10 show it, the direction holds when more than half do",
            explanation: "Read with s003-rtt-hetero-nice-fair: our two NICE flows starve without \
                a loss-based flow beside them, and the index of two near-zero rates swings \
                from seed to seed.",
            sweep: Some(crate::catalog::SweepRange { key: "flow.1.access_delay", paper: (5.0, 230.0), left_out: "RTT1/RTT2 = 1 (5 ms) is two equal flows; the ratios run are 2, 4, 8 and 10" }),
            form: Form::Order { null: 0.0, above: true },
            null: Null::scenarios(
                "NICE's and NewReno's roles swapped: NewReno is then the one judged fairest",
                {
                    let s = rtt_most_efficient_points();
                    let n = RTT_RATIOS.len();
                    [&s[..n], &s[3 * n..], &s[2 * n..3 * n], &s[n..2 * n]].concat()
                },
            ),
            siblings: &[crate::catalog::Sibling::Independent {
                other: "s003-rtt-hetero-ledbat-most-efficient",
                why: "the index is how each protocol's two flows split the link, the \
                      efficiency how much of it they fill: an order of the one bounds no order \
                      of the other",
            }],
            ..Claim::base("s003-rtt-hetero-nice-fairest")
        },
        Claim {
            figure: "Fig. 3.9 (right), section 3.2.7",
            statement: "NICE pays for its fairness with efficiency, and TCP-LP and TCP lose \
                efficiency too, while LEDBAT stays perfectly efficient.",
            paper_value: "LEDBAT most efficient",
            unit: "efficiency",
            metric: "the smallest over RTT ratios 2, 4, 8, 10 of LEDBAT's efficiency minus the \
                best of NICE's, TCP-LP's and NewReno's at the same ratio: the order must hold at \
                every ratio",
            scenarios: rtt_most_efficient_points(),
            extract: |r| {
                let n = RTT_RATIOS.len();
                let e = |p: usize, i: usize| r[p * n + i].aggregate.efficiency;
                Ok((0..n)
                    .map(|i| e(0, i) - e(1, i).max(e(2, i)).max(e(3, i)))
                    .fold(f64::INFINITY, f64::min))
            },
            sweep: Some(crate::catalog::SweepRange { key: "flow.1.access_delay", paper: (5.0, 230.0), left_out: "RTT1/RTT2 = 1 (5 ms) is two equal flows; the ratios run are 2, 4, 8 and 10" }),
            tolerance: crate::catalog::ORDER_TOLERANCE,
            direction: crate::catalog::ORDER_DIRECTION,
            tolerance_note: "an order, decided in each seed (LEDBAT the most efficient); reproduced when 8 seeds in 10 show it, the direction holds when more than half do",
            form: Form::Order { null: 0.0, above: true },
            null: Null::scenarios(
                "LEDBAT's and NewReno's roles swapped: NewReno is then the one judged most \
                efficient",
                {
                    let s = rtt_most_efficient_points();
                    let n = RTT_RATIOS.len();
                    [&s[3 * n..], &s[n..3 * n], &s[..n]].concat()
                },
            ),
            ..Claim::base("s003-rtt-hetero-ledbat-most-efficient")
        },
    ]
}
