//! Seed 003 chapter 3: mixes of k flows each of TCP-LP, LEDBAT and NICE against 3k TCP
//! flows, and the all-TCP reference (Figs. 3.7-3.8).

use super::{loss, queue_over_buffer, trend};
use crate::catalog::extract::*;
use crate::catalog::plots::*;
use crate::catalog::{Claim, Form, Null, ScenarioRef};
use crate::stats::mean;
use ledbat_sim::RunResult;

/// Flows per protocol of the Figs. 3.7-3.8 mixes.
const MIX_K: [f64; 4] = [1.0, 2.0, 3.0, 5.0];

/// Figs. 3.7-3.8's runs: the mix for each k, then the all-TCP reference for each k.
fn mix_points() -> Vec<ScenarioRef> {
    let mut v: Vec<ScenarioRef> = MIX_K
        .iter()
        .map(|k| {
            ScenarioRef::with(
                "seed003/lbe-mix.toml",
                &[
                    format!("flow.0.count={k}"),
                    format!("flow.1.count={k}"),
                    format!("flow.2.count={k}"),
                ],
            )
        })
        .collect();
    v.extend(MIX_K.iter().map(|k| {
        ScenarioRef::with(
            "seed003/reno-mix.toml",
            &[format!("flow.0.count={}", 3.0 * k)],
        )
    }));
    v
}

/// Fig. 3.7's all-TCP reference runs alone (3k flows for each k).
fn reno_points() -> Vec<ScenarioRef> {
    mix_points().split_off(4)
}

/// The mix runs with the all-TCP runs in the LBE mix's slots as well (a null without LBE
/// flows), or the two halves swapped (`swap`).
fn mix_points_as(swap: bool) -> Vec<ScenarioRef> {
    let p = mix_points();
    let (mix, reno) = p.split_at(4);
    if swap {
        reno.iter().chain(mix).cloned().collect()
    } else {
        reno.iter().chain(reno).cloned().collect()
    }
}

/// The mix runs with every mix slot holding the k = 1 mix (a null with nothing to vary).
fn mix_points_k1() -> Vec<ScenarioRef> {
    let p = mix_points();
    std::iter::repeat_n(p[0].clone(), 4)
        .chain(p[4..].iter().cloned())
        .collect()
}

/// Share of the throughput of the flows whose controller is `ctrl`.
fn share_of(r: &RunResult, ctrl: &str) -> f64 {
    r.aggregate.protocol_share.get(ctrl).copied().unwrap_or(0.0)
}

/// Figs. 3.7-3.8: k flows each of TCP-LP, LEDBAT and NICE, against 3k TCP flows.
pub(super) fn claims() -> Vec<Claim> {
    use crate::claims::Band::*;
    vec![
        Claim {
            figure: "Fig. 3.7(a), section 3.2.6",
            statement: "A mix of 1-5 flows each of TCP-LP, LEDBAT and NICE keeps the efficiency \
                near 1.",
            paper_value: "≈ 1",
            unit: "efficiency",
            metric: "lowest efficiency of the mix over k = 1, 2, 3, 5",
            scenarios: mix_points(),
            extract: |r| min_over(&r[..4], |x| Ok(x.aggregate.efficiency)),
            draw: Some(|r| {
                let mut p = sweep_plot(
                    "LBE mix: shares against flows per protocol",
                    ("flows per protocol k", "share of the throughput"),
                    vec![],
                    false,
                    vec![],
                );
                for c in ["tcp-lp", "ledbat", "nice"] {
                    p[0].series.push(crate::plot::Series {
                        label: c.to_string(),
                        points: (0..4).map(|k| (MIX_K[k], share_of(r[k], c))).collect(),
                        scatter: false,
                    });
                }
                p
            }),
            tolerance: AtLeast { bound: 0.95 },
            direction: AtLeast { bound: 0.85 },
            tolerance_note: "near 1 = at least 95 %",
            sweep: Some(crate::catalog::SweepRange { key: "flow.0.count", paper: (1.0, 5.0), left_out: "k = 4 is not run" }),
            form: Form::Value,
            null: Null::run(
                "the buffer cut to 10 packets, a quarter of the 41.7-packet pipe: a halving \
                flow then leaves the link idle and the mix no longer fills it",
                &["topology.queue.packets=10"],
            ),
            siblings: crate::catalog::seed003::relations::MIX_EFFICIENCY,
            thresholds: crate::catalog::seed003::conventions::T_EFFICIENT,
            ..Claim::base("s003-mix-efficiency")
        },
        Claim {
            figure: "Fig. 3.7(a), section 3.2.6",
            statement: "The same number of TCP flows loses efficiency as it grows \
                (synchronised losses).",
            paper_value: "falls",
            unit: "Kendall τ",
            metric: "Kendall's tau between k and the all-TCP efficiency (3k flows)",
            scenarios: mix_points(),
            extract: |r| trend(&MIX_K, &r[4..], |x| Ok(x.aggregate.efficiency)),
            tolerance: AtMost { bound: -0.6 },
            direction: Below { bound: 0.0 },
            tolerance_note: "falls = at most one of six pairs out of order",
            sweep: Some(crate::catalog::SweepRange { key: "flow.0.count", paper: (1.0, 5.0), left_out: "k = 4 is not run" }),
            form: Form::Effect { null: 0.0 },
            null: Null::scenarios(
                "the all-TCP runs replaced by the LBE mix, whose efficiency the thesis finds \
                unaffected by k",
                mix_points_as(true),
            ),
            siblings: crate::catalog::seed003::relations::MIX_RENO_EFFICIENCY,
            ..Claim::base("s003-mix-reno-efficiency-falls")
        },
        Claim {
            figure: "Fig. 3.7(a), section 3.2.6",
            statement: "The all-TCP mean queue stays near 2/3 of the buffer for any number of \
                flows.",
            paper_value: "≈ 2/3",
            unit: "queue / buffer",
            metric: "the all-TCP mean queue over the buffer farthest from 2/3, over k (the \
                level at every k; that it does not move with k is s003-mix-reno-queue-flat-in-n)",
            scenarios: mix_points(),
            extract: |r| {
                let q: Vec<f64> = r[4..]
                    .iter()
                    .map(|x| queue_over_buffer(x))
                    .collect::<Result<_, _>>()?;
                q.into_iter()
                    .max_by(|a, b| (a - 2.0 / 3.0).abs().total_cmp(&(b - 2.0 / 3.0).abs()))
                    .ok_or_else(|| "no run".to_string())
            },
            tolerance: Near {
                value: 2.0 / 3.0,
                tol: 2.0 / 15.0,
            },
            direction: Above { bound: 0.5 },
            tolerance_note: "2/3 ±20 %; direction: above half the buffer, one sawtooth's mean \
                (the null's model)",
            sweep: Some(crate::catalog::SweepRange { key: "flow.0.count", paper: (1.0, 5.0), left_out: "k = 4 is not run" }),
            form: Form::Value,
            null: Null::excludes(
                0.5,
                "one NewReno sawtooth in a 40-packet buffer under a 41.7-packet pipe: the \
                halved window (40.8) leaves the queue empty, which then refills linearly to B \
                before the next loss, a mean of B/2",
            ),
            siblings: crate::catalog::seed003::relations::MIX_RENO_QUEUE,
            thresholds: crate::catalog::seed003::conventions::T_MOST,
            ..Claim::base("s003-mix-reno-queue-two-thirds")
        },
        Claim {
            figure: "Fig. 3.7(a), section 3.2.6",
            statement: "The all-TCP mean queue is not affected by the number of flows.",
            paper_value: "flat in N",
            unit: "relative spread",
            metric: "(max - min) / min of the all-TCP mean queue over the buffer, over 3k = 3, \
                6, 9, 15 flows",
            scenarios: reno_points(),
            extract: |r| {
                let q: Vec<f64> = r
                    .iter()
                    .map(|x| queue_over_buffer(x))
                    .collect::<Result<_, _>>()?;
                let lo = q.iter().copied().fold(f64::INFINITY, f64::min);
                let hi = q.iter().copied().fold(f64::NEG_INFINITY, f64::max);
                if lo <= 0.0 || !lo.is_finite() {
                    return Err("an empty all-TCP queue: no relative spread".into());
                }
                Ok((hi - lo) / lo)
            },
            tolerance: AtMost { bound: 0.05 },
            direction: AtMost { bound: 0.25 },
            tolerance_note: "not affected = within 5 % (as s003-gain-flat); direction: the \
                catalog's 'alike' on a relative spread, within 25 %",
            explanation: "Read over every flow count of the sweep, the thesis's 'not affected \
                by the number of flows' as written. Ours rises steadily with N (as the \
                all-TCP queue of Fig. 3.6 does, s003-lbe-n-queue-falls-tcp): more flows \
                means a smaller part of the aggregate window halves at each loss, so less of \
                the buffer empties per cycle. The level itself stays within 2/3 ± 20 % at \
                every k (s003-mix-reno-queue-two-thirds).",
            sweep: Some(crate::catalog::SweepRange {
                key: "flow.0.count",
                paper: (3.0, 15.0),
                left_out: "3k = 12 (k = 4) is not run",
            }),
            form: Form::Alike { null: 0.0 },
            null: Null::scenarios(
                "the buffer swept instead of the flow count (10, 20, 40, 100 packets, 3 \
                flows): how much of the buffer a halving empties depends on B against the \
                41.7-packet pipe, a parameter that does move the queue's share",
                [10, 20, 40, 100]
                    .iter()
                    .map(|b| {
                        ScenarioRef::with(
                            "seed003/reno-mix.toml",
                            &[
                                "flow.0.count=3".to_string(),
                                format!("topology.queue.packets={b}"),
                            ],
                        )
                    })
                    .collect(),
            ),
            thresholds: crate::catalog::seed003::conventions::T_ALIKE_SPREAD,
            ..Claim::base("s003-mix-reno-queue-flat-in-n")
        },
        Claim {
            figure: "Fig. 3.7(a), section 3.2.6",
            statement: "The LBE mix's queue reaches the all-TCP level only with two or more \
                flows per protocol.",
            paper_value: "lower with one each",
            unit: "queue / buffer",
            metric: "the mix's shortfall below the all-TCP mean queue (over the buffer) at k = \
                1, minus its largest shortfall at k = 2, 3, 5",
            scenarios: mix_points(),
            extract: |r| {
                let gap = |k: usize| -> Result<f64, String> {
                    Ok(queue_over_buffer(r[4 + k])? - queue_over_buffer(r[k])?)
                };
                Ok(gap(0)? - gap(1)?.max(gap(2)?).max(gap(3)?))
            },
            tolerance: crate::catalog::ORDER_TOLERANCE,
            direction: crate::catalog::ORDER_DIRECTION,
            tolerance_note: "an order, decided in each seed (the mix's queue reaching the all-TCP level only from two flows per protocol); reproduced when 8 seeds in 10 show it, the direction holds when more than half do",
            explanation:
                "Our mix's queue is the same at k = 1 and k = 2 to within a few thousandths of \
                the buffer, either sign depending on the seed (the metric is \
                {=s003-mix-queue-needs-two-each@seed1} in seed 1 and \
                {=s003-mix-queue-needs-two-each@seed2} in seed 2, the all-TCP level \
                {=s003-mix-reno-queue-two-thirds} of the buffer): our LEDBAT dominates the mix \
                at every k (s003-mix-ledbat-large-at-k1) and holds the queue near its own target plus \
                TCP-LP's small windows, so adding a flow per protocol changes little. The \
                thesis's lower queue at k = 1 comes with TCP-LP and LEDBAT sharing there, \
                which ours do not (root cause at s003-lbe10-tcplp-each).",
            sweep: Some(crate::catalog::SweepRange { key: "flow.0.count", paper: (1.0, 5.0), left_out: "k = 4 is not run" }),
            form: Form::Order { null: 0.0, above: true },
            null: Null::scenarios(
                "the LBE mix replaced by the same number of TCP flows: no shortfall at any k",
                mix_points_as(false),
            ),
            siblings: crate::catalog::seed003::relations::MIX_QUEUE_TWO,
            ..Claim::base("s003-mix-queue-needs-two-each")
        },
        Claim {
            figure: "Fig. 3.7(a), 3.8, section 3.2.6",
            statement: "With one flow per protocol LEDBAT often pushes TCP-LP into its \
                low-priority mode and takes a large share.",
            paper_value: "large share",
            unit: "share",
            metric: "LEDBAT's share of the throughput with one flow per protocol",
            scenarios: mix_points(),
            extract: |r| Ok(share_of(r[0], "ledbat")),
            tolerance: Between {
                lo: 1.0 / 3.0,
                hi: 5.0 / 9.0,
            },
            direction: AtLeast { bound: 1.0 / 3.0 },
            tolerance_note: "large = at least the even third, and at most 5/9: the same \
                section says TCP-LP's and LEDBAT's shares are very close at k = 1 \
                (s003-mix-ledbat-as-tcplp-at-k1, a ratio within 1.25), and a LEDBAT share s \
                leaves TCP-LP at most 1 - s, so s / (1 - s) <= 1.25 caps s at 5/9; wider \
                because the band is the range the two statements allow together, not a value \
                read off a figure; direction: at least the even third",
            explanation:
                "Ours takes {=s003-mix-ledbat-large-at-k1}: large, as section 3.2.6 says, but \
                more than the same section's 'TCP-LP and LEDBAT performance are very close' \
                allows (s003-mix-ledbat-as-tcplp-at-k1), because our TCP-LP yields on its \
                early-congestion threshold as soon as LEDBAT's target queue forms (root cause \
                at s003-lbe10-tcplp-each). Until a review the band had no upper end, so this \
                claim was reproduced on runs that contradict its sibling.",
            sweep: Some(crate::catalog::SweepRange { key: "flow.0.count", paper: (1.0, 5.0), left_out: "k = 4 is not run" }),
            form: Form::Value,
            null: Null::run_on(
                "TCP-LP's early-congestion inference nearly switched off (delta = 0.9: its \
                threshold 90 % of the way to the largest delay seen): it behaves almost as \
                Reno, and LEDBAT yields to it",
                &["seed003/lbe-mix.toml"],
                &["flow.0.cc.delta=0.9"],
            ),
            siblings: crate::catalog::seed003::relations::MIX_LEDBAT_LARGE,
            thresholds: super::T_EVEN_THIRD,
            ..Claim::base("s003-mix-ledbat-large-at-k1")
        },
        Claim {
            figure: "Figs. 3.7, 3.8, sections 3.2.6, 3.3",
            statement: "With one flow per protocol TCP-LP and LEDBAT perform very closely: LEDBAT \
                is as aggressive as TCP-LP.",
            paper_value: "very close",
            unit: "ratio",
            metric: "LEDBAT's share of the throughput / TCP-LP's, one flow per protocol",
            scenarios: mix_points(),
            extract: |r| Ok(share_of(r[0], "ledbat") / share_of(r[0], "tcp-lp").max(1e-9)),
            tolerance: Between { lo: 0.8, hi: 1.25 },
            direction: Between { lo: 0.5, hi: 2.0 },
            tolerance_note: "very close = within 25 % either way; direction: within a factor of \
                two",
            explanation:
                "Our LEDBAT takes {=s003-mix-ledbat-large-at-k1} of the link with one flow per \
                protocol, because our TCP-LP yields on its early-congestion threshold as soon \
                as LEDBAT's target queue forms (root cause at s003-lbe10-tcplp-each).",
            sweep: Some(crate::catalog::SweepRange { key: "flow.0.count", paper: (1.0, 5.0), left_out: "k = 4 is not run" }),
            null: Null::run_on(
                "TCP-LP's early-congestion inference nearly switched off (delta = 0.9: its \
                threshold 90 % of the way to the largest delay seen): it behaves almost as \
                Reno, and LEDBAT yields to it",
                &["seed003/lbe-mix.toml"],
                &["flow.0.cc.delta=0.9"],
            ),
            form: Form::Alike { null: 1.0 },
            siblings: crate::catalog::seed003::relations::MIX_LEDBAT_AS_TCPLP,
            thresholds: crate::catalog::seed003::conventions::T_FACTOR_TWO,
            ..Claim::base("s003-mix-ledbat-as-tcplp-at-k1")
        },
        Claim {
            figure: "Fig. 3.7(b), section 3.2.6",
            statement: "The LBE mix loses far fewer packets than the all-TCP reference.",
            paper_value: "far fewer",
            unit: "ratio",
            metric: "mean over k of the mix's loss rate / the all-TCP loss rate",
            scenarios: mix_points(),
            extract: |r| {
                let v: Vec<f64> = (0..4)
                    .map(|k| Ok(loss(r[k])? / loss(r[4 + k])?.max(1e-9)))
                    .collect::<Result<_, String>>()?;
                Ok(mean(&v))
            },
            tolerance: AtMost { bound: 0.5 },
            direction: Below { bound: 1.0 },
            tolerance_note: "far fewer = at most half; direction: fewer",
            sweep: Some(crate::catalog::SweepRange { key: "flow.0.count", paper: (1.0, 5.0), left_out: "k = 4 is not run" }),
            form: Form::Effect { null: 1.0 },
            null: Null::scenarios(
                "the LBE mix replaced by the same number of TCP flows: the mix is the all-TCP \
                reference, ratio 1",
                mix_points_as(false),
            ),
            siblings: crate::catalog::seed003::relations::MIX_FEWER_LOSSES,
            ..Claim::base("s003-mix-fewer-losses")
        },
        Claim {
            figure: "Fig. 3.7(b), section 3.2.6",
            statement: "Fairness of the LBE mix lies below that of the same number of TCP \
                flows.",
            paper_value: "below all-TCP",
            unit: "fraction of k",
            metric: "share of k = 1, 2, 3, 5 where the all-TCP Jain index is at least the \
                mix's",
            scenarios: mix_points(),
            extract: |r| {
                let mut ok = 0;
                for k in 0..4 {
                    if jain_long(r[4 + k])? >= jain_long(r[k])? {
                        ok += 1;
                    }
                }
                Ok(ok as f64 / 4.0)
            },
            tolerance: AtLeast { bound: 1.0 },
            direction: AtLeast { bound: 0.5 },
            tolerance_note: "every k; direction: most",
            sweep: Some(crate::catalog::SweepRange { key: "flow.0.count", paper: (1.0, 5.0), left_out: "k = 4 is not run" }),
            form: Form::Value,
            null: Null::scenarios(
                "the mix and the all-TCP runs swapped: the mix is then the one judged fairer",
                mix_points_as(true),
            ),
            siblings: crate::catalog::seed003::relations::MIX_BELOW_TCP,
            thresholds: crate::catalog::seed003::conventions::T_MOST,
            ..Claim::base("s003-mix-fairness-below-tcp")
        },
        Claim {
            figure: "Figs. 3.7(b), 3.8, section 3.2.6",
            statement: "The mix's fairness is highest with one flow per protocol (TCP-LP's and \
                LEDBAT's shares close).",
            paper_value: "highest at k = 1",
            unit: "Jain difference",
            metric: "the mix's Jain index at k = 1 minus its largest at k = 2, 3, 5",
            scenarios: mix_points(),
            extract: |r| {
                let rest = r[1..4]
                    .iter()
                    .map(|x| jain_long(x))
                    .try_fold(0.0, |m: f64, v| v.map(|v| m.max(v)))?;
                Ok(jain_long(r[0])? - rest)
            },
            tolerance: crate::catalog::ORDER_TOLERANCE,
            direction: crate::catalog::ORDER_DIRECTION,
            tolerance_note: "an order, decided in each seed (the mix fairest with one flow per protocol); reproduced when 8 seeds in 10 show it, the direction holds when more than half do",
            explanation:
                "With one flow per protocol our LEDBAT takes {=s003-mix-ledbat-large-at-k1} of \
                the link, because our TCP-LP yields early (root cause at \
                s003-lbe10-tcplp-each) and our NICE starves (s003-lbe10-nice-each), so the k = \
                1 index is low, where the thesis's TCP-LP and LEDBAT shares were close.",
            sweep: Some(crate::catalog::SweepRange { key: "flow.0.count", paper: (1.0, 5.0), left_out: "k = 4 is not run" }),
            form: Form::Order { null: 0.0, above: true },
            null: Null::scenarios(
                "the k = 1 mix in every slot: nothing distinguishes k = 1 from the others",
                mix_points_k1(),
            ),
            siblings: crate::catalog::seed003::relations::MIX_FAIREST_K1,
            ..Claim::base("s003-mix-fairest-at-k1")
        },
        Claim {
            figure: "Fig. 3.8, section 3.2.6",
            statement: "With more flows per protocol TCP-LP takes a growing share and fairness \
                falls.",
            paper_value: "TCP-LP share grows",
            unit: "Kendall τ",
            metric: "Kendall's tau between k and TCP-LP's share of the mix",
            scenarios: mix_points(),
            extract: |r| {
                Ok(kendall_tau(
                    &MIX_K,
                    &(0..4).map(|k| share_of(r[k], "tcp-lp")).collect::<Vec<_>>(),
                ))
            },
            tolerance: AtLeast { bound: 0.6 },
            direction: Above { bound: 0.0 },
            tolerance_note: "grows = at most one of six pairs out of order",
            sweep: Some(crate::catalog::SweepRange { key: "flow.0.count", paper: (1.0, 5.0), left_out: "k = 4 is not run" }),
            form: Form::Effect { null: 0.0 },
            null: Null::run_on(
                "TCP-LP held at one flow while LEDBAT and NICE grow to k: its share can no \
                longer grow with the number of its flows",
                &["seed003/lbe-mix.toml"],
                &["flow.0.count=1"],
            ),
            siblings: crate::catalog::seed003::relations::MIX_TCPLP_GROWS,
            ..Claim::base("s003-mix-tcplp-share-grows")
        },
        Claim {
            figure: "Figs. 3.7(a), 3.8, section 3.2.6",
            statement: "With two or more TCP-LP flows their early-congestion phases rarely \
                coincide, so LEDBAT has fewer chances and its share of the mix falls.",
            paper_value: "LEDBAT's share falls",
            unit: "Kendall τ",
            metric: "Kendall's tau between k and LEDBAT's share of the mix",
            scenarios: mix_points(),
            extract: |r| {
                Ok(kendall_tau(
                    &MIX_K,
                    &(0..4).map(|k| share_of(r[k], "ledbat")).collect::<Vec<_>>(),
                ))
            },
            tolerance: AtMost { bound: -0.6 },
            direction: Below { bound: 0.0 },
            tolerance_note: "falls = at most one of six pairs out of order; direction: not rising",
            sweep: Some(crate::catalog::SweepRange { key: "flow.0.count", paper: (1.0, 5.0), left_out: "k = 4 is not run" }),
            form: Form::Effect { null: 0.0 },
            null: Null::run_on(
                "TCP-LP held at one flow while LEDBAT and NICE grow to k: no second TCP-LP flow \
                to take LEDBAT's chances, and LEDBAT's own flows grow in number",
                &["seed003/lbe-mix.toml"],
                &["flow.0.count=1"],
            ),
            siblings: crate::catalog::seed003::relations::MIX_LEDBAT_FALLS,
            ..Claim::base("s003-mix-ledbat-share-falls")
        },
        Claim {
            figure: "Fig. 3.8, section 3.2.6",
            statement: "With more flows per protocol the mix's fairness falls.",
            paper_value: "falls",
            unit: "Kendall τ",
            metric: "Kendall's tau between k and the mix's long-term Jain index",
            scenarios: mix_points(),
            extract: |r| trend(&MIX_K, &r[..4], jain_long),
            tolerance: AtMost { bound: -0.6 },
            direction: Below { bound: 0.0 },
            tolerance_note: "falls = at most one of six pairs out of order",
            explanation: "Follows from s003-mix-fairest-at-k1: our k = 1 point is unfair (LEDBAT \
                dominant), so fairness cannot fall from it; as k grows TCP-LP's share does \
                grow (s003-mix-tcplp-share-grows) and brings the index up rather than down.",
            sweep: Some(crate::catalog::SweepRange { key: "flow.0.count", paper: (1.0, 5.0), left_out: "k = 4 is not run" }),
            form: Form::Effect { null: 0.0 },
            null: Null::scenarios(
                "the k = 1 mix in every slot: the index has no k to fall with",
                mix_points_k1(),
            ),
            ..Claim::base("s003-mix-fairness-falls")
        },
    ]
}
