//! Seed 003 (Testa), chapter 4 beyond the first catalog round, one module per figure group:
//! [`latecomer`] the other latecomer cases of Fig. 4.1 and Fig. 4.4's two traffic models,
//! [`zeta`] the sensitivity of fLEDBAT to zeta against TCP, against LEDBAT and for N flows
//! (Figs. 4.5-4.6), [`review`] the claims a line-by-line review of the chapter added
//! (TARGET = 100 ms, efficiency for N flows, RTT heterogeneity in Fig. 4.7). This module
//! holds what several of them share; [`claims`] lists them in that order (the report's
//! order).

mod latecomer;
mod review;
mod zeta;

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
/// Fig. 4.6's range of N, "N ∈ [2, 10]" (section 4.6.4), as run by [`n_points`] (rule 7;
/// the zeta axis is the zone's four values, all run).
const N_RANGE: super::SweepRange = super::SweepRange {
    key: "flow.0.count",
    paper: (2.0, 10.0),
    left_out: "N = 3, 4 and 6 to 9 are not run (run time): both ends and N = 5 are, and the \
        text states the result for the whole range, not a trend between its ends",
};

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
    let mut v = latecomer::claims();
    v.extend(zeta::claims());
    v.extend(review::claims());
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
