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

/// The time Fig. 4.1(a) (middle) gives for the first flow's floor, "slightly after t = 20
/// s" (section 4.2.1): the gap-10 floor claim reads its time as a multiple of it.
const FLOOR_PAPER_S: f64 = 20.0;

/// "Negligible", as a direction on the shift of a share between two runs (module doc of
/// `catalog`, rule 14).
pub(super) const NEGLIGIBLE_SHIFT: super::Convention = super::Convention {
    name: "a negligible shift of a share, as a direction: under a fifth of the link",
    value: 0.2,
    why: "the latecomer advantage a 'negligible' effect is set against moves half the link or \
          more (Fig. 4.1: from an even split to starvation); a shift of a fifth of the link is \
          40 % of a two-flow fair share, a change of rate a figure shows at a glance, and \
          less than half of that advantage",
};

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
    v.extend(review_claims());
    v
}

/// Fig. 4.7's persistences, as `seed003_p2p` sweeps them (the same instances, so they are
/// simulated once for both).
const P2P_PPS: [f64; 5] = super::seed003_p2p::PPS;

/// Fig. 4.7's 20 instances in `seed003_p2p`'s order: for each RTT case of `cases` (false:
/// the mixed access delays of the files, true: every host at 12.5 ms), each PP, fLEDBAT
/// then LEDBAT.
fn p2p_points(cases: [bool; 2]) -> Vec<ScenarioRef> {
    super::seed003_p2p::points_of(cases, super::seed003_p2p::FILES, P2P_PPS)
}

/// Mean over PP of the 1-s Jain index of protocol `ledbat` (false: fLEDBAT) in the RTT case
/// `equal` of [`p2p_points`]' runs.
fn p2p_mean_fairness(r: &[&RunResult], equal: bool, ledbat: bool) -> Result<f64, String> {
    let x: Vec<f64> = (0..P2P_PPS.len())
        .map(|pp| {
            let run = r[(equal as usize * P2P_PPS.len() + pp) * 2 + ledbat as usize];
            run.aggregate
                .jain_short
                .ok_or_else(|| format!("{}: no short-term Jain index", run.scenario))
        })
        .collect::<Result<_, _>>()?;
    Ok(mean(&x))
}

/// The slowest flow's rate over the flows' mean rate (1 when all are equal, 0 when one is
/// starved).
fn slowest_slot(r: &RunResult) -> Result<f64, String> {
    let x: Vec<f64> = r.flows.iter().map(|f| f.throughput_bps).collect();
    let m = mean(&x);
    if x.is_empty() || m <= 0.0 {
        return Err(format!("{}: no throughput", r.scenario));
    }
    Ok(x.iter().cloned().fold(f64::INFINITY, f64::min) / m)
}

/// Fig. 4.5(c)'s runs over the shaded zone (as `seed003`'s latecomer zeta range: the same
/// instances), with `extra` overrides appended.
fn latecomer_zone(extra: &[&str]) -> Vec<ScenarioRef> {
    ZETA_ZONE
        .iter()
        .map(|z| {
            let mut set = vec![format!("flow.0.cc.zeta={z}"), format!("flow.1.cc.zeta={z}")];
            set.extend(extra.iter().map(|e| e.to_string()));
            ScenarioRef::with("seed003/chunks-fledbat.toml", &set)
        })
        .collect()
}

/// Why the RTT-heterogeneity claim bounds none of the other claims on Fig. 4.7's runs.
const P2P_RTT_INDEPENDENT: &[super::Sibling] = &[
    super::Sibling::Independent {
        other: "s003-chunks-fledbat-fairer",
        why: "the gap between the protocols at each point is not the gap between the RTT \
              cases of each protocol: both indices of a protocol may fall by the same amount",
    },
    super::Sibling::Independent {
        other: "s003-chunks-fledbat-efficient",
        why: "efficiency is the sum of the slots' rates, the index their split",
    },
    super::Sibling::Independent {
        other: "s003-chunks-fairness-gap-at-high-pp",
        why: "the protocols' gap over PP ranges says nothing of each protocol's index with \
              mixed against equal RTTs",
    },
    super::Sibling::Independent {
        other: "s003-chunks-ledbat-fairness-falls-with-pp",
        why: "LEDBAT's trend over PP with equal RTTs orders the equal-RTT indices among \
              themselves; their mean against the mixed-RTT mean is not bounded by an order",
    },
    super::Sibling::Independent {
        other: "s003-chunks-fledbat-fairness-rises-with-pp",
        why: "fLEDBAT's trend over PP with equal RTTs orders the equal-RTT indices among \
              themselves; their mean against the mixed-RTT mean is not bounded by an order",
    },
    super::Sibling::Independent {
        other: "s003-chunks-pp0-underuses",
        why: "efficiency is the sum of the slots' rates, the index their split",
    },
    super::Sibling::Independent {
        other: "s003-chunks-mixed-rtt-wastes-more",
        why: "the efficiency mixed RTTs cost at PP = 0 is the sum of the slots' rates, the \
              index their split: slower long-RTT slots may lower either alone",
    },
];

/// Claims added for a line-by-line review of chapter 4: TARGET = 100 ms (footnote 4),
/// efficiency for N flows (section 4.6.4), RTT heterogeneity in Fig. 4.7 (section 4.7.1).
fn review_claims() -> Vec<Claim> {
    use crate::claims::Band::*;
    let t100 = ["flow.0.cc.target=100ms", "flow.1.cc.target=100ms"];
    vec![
        Claim {
            figure: "footnote 4 and Fig. 4.3, section 4.4",
            statement: "The actual value of tau is not critical: with both targets at 100 ms \
                (BEP-29's setting) two fLEDBAT flows 2 s apart still share the capacity \
                fairly, X_i = C/2, as with 25 ms.",
            paper_value: "X_i = C/2 at tau = 100 ms",
            unit: "Jain index",
            metric: "long-term Jain's index, 20-60 s, Fig. 4.3's two fLEDBAT flows (zeta 0.1, \
                2 s apart, B = 100) with both targets at 100 ms",
            scenarios: vec![ScenarioRef::with("seed003/fledbat-fluid.toml", &t100)],
            extract: first_jain_long,
            tolerance: AtLeast { bound: 0.95 },
            direction: AtLeast { bound: 0.8 },
            tolerance_note: "fair = F >= 0.95, as s003-fledbat-fluid-fair at 25 ms",
            explanation: "The footnote's condition holds here: one target for both flows, and \
                100 ms at 10 Mb/s is under the 100-packet buffer. Its null breaks the first \
                half of that condition: with targets 25 and 100 ms the index is \
                {=s003-fledbat-fluid-fair-target100:null}. Of the chapter's results only this \
                one is rerun at 100 ms.",
            form: Form::Value,
            null: Null::run(
                "the targets unequal, 25 and 100 ms (the footnote's 'all flows have the same \
                target value' broken): the 100-ms flow holds the queue above the other's \
                target",
                &["flow.0.cc.target=25ms"],
            ),
            thresholds: super::seed003::conventions::T_JAIN_ONE_TO_THREE,
            ..Claim::base("s003-fledbat-fluid-fair-target100")
        },
        Claim {
            figure: "Fig. 4.6, section 4.6.4",
            statement: "The zetas that give N fLEDBAT flows a fair share also use the link \
                efficiently, shown for N = 2 and holding for N > 2.",
            paper_value: "efficient for N = 2 .. 10",
            unit: "efficiency",
            metric: "lowest efficiency over N = 2, 5, 10 and zeta in {0.01, 0.1, 0.2, 0.5} \
                (Fig. 4.6's runs)",
            scenarios: n_points(),
            extract: |r| min_over(r, |x| Ok(x.aggregate.efficiency)),
            tolerance: AtLeast { bound: 0.95 },
            direction: AtLeast { bound: 0.85 },
            tolerance_note: "efficient = at least 95 % of the link",
            explanation: "The lowest point is two flows at the zone's largest zeta (`ledbat sim \
                scenarios/seed003/chunks-fledbat-n.toml --set flow.0.count=2 --set \
                flow.0.cc.zeta=0.5` gives 0.925, and 1.000 with flow.0.count=10). The larger \
                the multiplicative decrease and the fewer the flows, the more often the queue \
                empties between chunks: the inefficiency section 4.5.2 notes at zeta = 5, \
                reached here within the zone.",
            form: Form::Value,
            null: Null::scenarios(
                "the window reset at every chunk (PP = 0), section 4.7.1's case where 'the \
                link capacity is not fully utilized': each chunk restarts from one packet",
                FLOWS_N
                    .iter()
                    .flat_map(|n| {
                        ZETA_ZONE.iter().map(move |z| {
                            ScenarioRef::with(
                                "seed003/chunks-fledbat-n.toml",
                                &[
                                    format!("flow.0.count={n}"),
                                    format!("flow.0.cc.zeta={z}"),
                                    "flow.0.traffic.persistence=0".to_string(),
                                ],
                            )
                        })
                    })
                    .collect(),
            ),
            siblings: &[super::Sibling::Independent {
                other: "s003-fledbat-n-flows-fair",
                why: "the efficiency is the sum of the flows' rates, the index their split; \
                      and the fair claim takes the best zeta per N, this one the worst",
            }],
            thresholds: super::seed003::conventions::T_EFFICIENT,
            ..Claim::base("s003-fledbat-n-flows-efficient")
        },
        Claim {
            figure: "Fig. 4.6, section 4.6.4",
            statement: "For the number of flows typically active in BitTorrent (its five \
                upload slots) any zeta of the shaded zone {0.01, 0.1, 0.2, 0.5} keeps the \
                flows fair.",
            paper_value: "fair for any zeta of the zone",
            unit: "Jain index",
            metric: "lowest long-term Jain index over the four zetas, N = 5 (Fig. 4.6's runs)",
            scenarios: ZETA_ZONE
                .iter()
                .map(|z| {
                    ScenarioRef::with(
                        "seed003/chunks-fledbat-n.toml",
                        &["flow.0.count=5".to_string(), format!("flow.0.cc.zeta={z}")],
                    )
                })
                .collect(),
            extract: |r| min_over(r, jain_long),
            sweep: Some(super::SweepRange {
                key: "flow.0.cc.zeta",
                paper: (0.01, 0.5),
                left_out: "",
            }),
            tolerance: AtLeast { bound: 0.9 },
            direction: AtLeast { bound: 0.75 },
            tolerance_note: "fair = F >= 0.9 at every zeta",
            explanation: "N = 5 is read as the number of flows typically active: BitTorrent's \
                five upload slots, which the thesis itself uses in section 4.7.",
            form: Form::Value,
            null: Null::scenarios(
                "fLEDBAT replaced by LEDBAT (same chunks, same 2-s spacing, N = 5): without the \
                multiplicative decrease the latecomers keep their advantage",
                vec![
                    ScenarioRef::with(
                        "seed003/chunks-fledbat-n.toml",
                        &["flow.0.count=5".to_string(), LEDBAT_CC_0.to_string()],
                    );
                    ZETA_ZONE.len()
                ],
            ),
            thresholds: super::seed003::conventions::T_JAIN_THREE_QUARTERS,
            ..Claim::base("s003-fledbat-n5-any-zone-zeta-fair")
        },
        Claim {
            figure: "Fig. 4.5(c), section 4.6.3",
            statement: "Two fLEDBAT flows (latecomer 10 s later) operate efficiently for \
                every zeta of the shaded zone {0.01, 0.1, 0.2, 0.5}.",
            paper_value: "efficient over the zone",
            unit: "efficiency",
            metric: "lowest efficiency over the four zetas (chunk mode, B = 100, 20-120 s; \
                the runs of s003-fledbat-latecomer-zeta-range)",
            scenarios: latecomer_zone(&[]),
            extract: |r| min_over(r, |x| Ok(x.aggregate.efficiency)),
            sweep: Some(super::SweepRange {
                key: "flow.0.cc.zeta",
                paper: (0.01, 0.5),
                left_out: "",
            }),
            tolerance: AtLeast { bound: 0.95 },
            direction: AtLeast { bound: 0.85 },
            tolerance_note: "efficient = at least 95 % of the link",
            explanation: "The lowest point is the zone's largest zeta (`ledbat sim \
                scenarios/seed003/chunks-fledbat.toml --set flow.0.cc.zeta=0.5 --set \
                flow.1.cc.zeta=0.5` gives 0.925, and 0.972 with both zetas at 0.01). The \
                larger the multiplicative decrease, the more often the queue empties between \
                chunks: the inefficiency section 4.5.2 notes at zeta = 5, reached here within \
                the zone.",
            form: Form::Value,
            null: Null::scenarios(
                "the window reset at every chunk (PP = 0), section 4.7.1's case where 'the \
                link capacity is not fully utilized': each chunk restarts from one packet",
                latecomer_zone(&[
                    "flow.0.traffic.persistence=0",
                    "flow.1.traffic.persistence=0",
                ]),
            ),
            siblings: &[super::Sibling::Independent {
                other: "s003-fledbat-latecomer-zeta-range",
                why: "the efficiency is the sum of the two rates, the index their split: a \
                      starved flow leaves the link full",
            }],
            thresholds: super::seed003::conventions::T_EFFICIENT,
            ..Claim::base("s003-fledbat-latecomer-zone-efficient")
        },
        Claim {
            figure: "Fig. 4.7 (right), section 4.7.1",
            statement: "Heterogeneous delays introduce RTT unfairness in both fLEDBAT and \
                LEDBAT, reducing the absolute value of F.",
            paper_value: "F(mixed RTTs) < F(equal RTTs), both protocols",
            unit: "share of seeds",
            metric: "per seed, the smaller over fLEDBAT and LEDBAT of the mean over PP in {0, \
                0.2, 0.5, 0.8, 1} of the 1-Hz Jain index with equal RTTs minus with mixed RTTs \
                (Fig. 4.7's runs): both protocols in each seed",
            scenarios: p2p_points([false, true]),
            extract: |r| {
                let fall = |ledbat| {
                    Ok::<f64, String>(
                        p2p_mean_fairness(r, true, ledbat)? - p2p_mean_fairness(r, false, ledbat)?,
                    )
                };
                Ok(fall(false)?.min(fall(true)?))
            },
            tolerance: super::ORDER_TOLERANCE,
            direction: super::ORDER_DIRECTION,
            tolerance_note: "an order, decided in each seed (the 1-s index lower with mixed RTTs than with equal ones, for both protocols); reproduced when 8 seeds in 10 show it, the direction holds when more than half do",
            form: Form::Order { null: 0.0, above: true },
            null: Null::scenarios(
                "equal RTTs in place of the mixed ones: no RTT heterogeneity, so no RTT \
                unfairness to lower the index",
                p2p_points([true, true]),
            ),
            siblings: P2P_RTT_INDEPENDENT,
            ..Claim::base("s003-chunks-mixed-rtt-lowers-fairness")
        },
        Claim {
            figure: "Fig. 4.7 (right), section 4.7.1",
            statement: "With mixed RTTs, RTT unfairness does not translate into serious issues \
                such as long-time starvation of an fLEDBAT upload slot.",
            paper_value: "no starvation",
            unit: "slowest slot / mean slot",
            metric: "smallest, over PP in {0, 0.2, 0.5, 0.8, 1}, of the slowest of the five \
                fLEDBAT upload slots' mean rate (over the run) divided by the slots' mean rate, \
                mixed RTTs (Fig. 4.7's runs)",
            scenarios: p2p_points([false, true])
                .into_iter()
                .take(2 * P2P_PPS.len())
                .step_by(2)
                .collect(),
            extract: |r| min_over(r, slowest_slot),
            sweep: Some(super::SweepRange {
                key: "flow.0.traffic.persistence",
                paper: (0.0, 1.0),
                left_out: "",
            }),
            tolerance: AtLeast { bound: 0.5 },
            direction: Above { bound: 0.0 },
            tolerance_note: "no serious issue = no slot under half the slots' mean rate (a \
                factor of two, the catalog's line for 'alike'); direction: no slot starved to \
                nothing",
            explanation: "The null is the thesis's own contrast in the same sentence, LEDBAT, \
                whose latecomer advantage persists at PP = 1: there one slot keeps under half \
                the mean rate ({=s003-chunks-mixed-rtt-no-starvation:null}). No slot of either \
                protocol falls near zero over a whole run, so the 'long time' of the \
                statement is read as the run, not as spells of a few seconds.",
            form: Form::Effect { null: 0.0 },
            null: Null::scenarios(
                "LEDBAT in place of fLEDBAT (the same mixed RTTs and PPs): its latecomer \
                advantage leaves one slot far behind at PP = 1",
                p2p_points([false, true])
                    .into_iter()
                    .take(2 * P2P_PPS.len())
                    .skip(1)
                    .step_by(2)
                    .collect(),
            ),
            ..Claim::base("s003-chunks-mixed-rtt-no-starvation")
        },
    ]
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
            thresholds: &[super::Threshold::Convention(&NEGLIGIBLE_SHIFT)],
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
            siblings: super::seed003::relations::GAP10_FLOOR,
            thresholds: super::seed003::conventions::T_FACTOR_TWO,
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
            thresholds: super::seed003::conventions::T_MOST,
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
                "A weak test: Q*(5) lies a fraction of a packet above C tau, the queue at the \
                target alone, so any run whose mean queue stays at or under the target passes; 'slightly' is not \
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
                buffer delta reaches several times tau, so W* is hundreds of packets at zeta = \
                1e-3, about a fair share at 1e-2 and a few packets at 0.1. Backlogged (`ledbat sim \
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
            direction: AtLeast { bound: -2.0 },
            tolerance_note: "a factor of two around 5 (the axis is logarithmic); wider because zeta is swept in coarse steps (1, 5, 10) and \"near 5\" resolves only to a factor of two; direction: beyond zeta = 1e-2, below which the thesis finds LEDBAT under 20 %",
            thresholds: &[super::Threshold::Quote {
                value: -2.0,
                written: "−2",
                quote: "less than 20% of the bottleneck is occupied by LEDBAT when ζ < 10−2",
            }],
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
            direction: AtMost { bound: 0.9 },
            tolerance_note: "never fair = below the catalog's 0.9 for fair at every zeta; \
                direction: the same line, since a run fair by the catalog's own convention at \
                some zeta refutes 'in no case' and leaves no weaker reading",
            explanation:
                "Near the crossover (zeta 0.1-1) our two flows share evenly in most seeds \
                (highest index {=s003-fledbat-vs-ledbat-never-fair}; seed 1 \
                {=s003-fledbat-vs-ledbat-never-fair@seed1}, seed 4 \
                {=s003-fledbat-vs-ledbat-never-fair@seed4}): with random start times in [0, \
                10] s the latecomer advantage often does not develop in chunk mode, and the \
                index reaches that of two fLEDBAT flows with one zeta \
                ({=s003-fledbat-vs-ledbat-never-fair:null}), the intra-protocol case the \
                thesis calls fair (Fig. 4.5(c)). The direction was looser than the tolerance until a \
                full run found the claim and its null both 'differs' in the gap: that gap \
                called a fair share (by the catalog's 0.9) consistent with 'never fair', so \
                the claim could not tell fLEDBAT-LEDBAT from fLEDBAT-fLEDBAT; the direction is \
                now the catalog's fair line, and a run fair at some zeta contradicts the \
                statement. The thesis's 'never fair' may describe an average over runs, some \
                of which starve one flow; a per-run index at the fairest zeta does not \
                reproduce it.",
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
            thresholds: super::seed003::conventions::T_FAIR,
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
