//! Seed 003 (Testa), chapter 3 beyond the first catalog round, one module per figure group:
//! [`traces`] the traces of Figs. 3.2-3.3, [`target_sweep`] the rest of the target sweep of
//! Fig. 3.4, [`ratios`] the gain and target ratios of Fig. 3.5 (and their chapter-5
//! repetition, Fig. 5.4) and the RTT heterogeneity of Fig. 3.9, [`lbe_n`] the N-sweep of
//! Fig. 3.6 and [`mixes`] the protocol mixes of Figs. 3.7-3.8. This module holds what
//! several of them share; [`claims`] lists them in that order (the report's order).

mod lbe_n;
mod mixes;
mod ratios;
mod target_sweep;
mod traces;

pub(super) use ratios::rtt_points;

use super::extract::*;
use super::Threshold::{self, Convention as By};
use super::{Claim, Convention};
use ledbat_sim::RunResult;

/// "Nearly flat", as a direction, for a quantity between 0 and 1 (a share, an efficiency, a
/// Jain index) over a sweep: it moves by at most 0.15.
pub(super) const FLAT_IN_UNIT: Convention = Convention {
    name: "nearly flat, as a direction, on a 0-1 scale: a change of at most 0.15",
    value: 0.15,
    why: "on a figure whose axis runs from 0 to 1 a change of 0.15 is a seventh of the axis, \
          which a reader sees at a glance as a slope; three times the 0.05 tolerance",
};

/// "Approaches its lower bound 1/(N + 1)", as a direction: Jain's index over N + 1 flows lies
/// between 1/(N + 1) (one flow takes all) and 1 (even shares); a value that approaches the
/// lower end lies in the lower half of that range, position at most 0.5.
pub(super) const NEAR_LOWER_BOUND_11: Convention = Convention {
    name: "approaches the bound 1/(N + 1) of Jain's index: nearer it than even shares",
    value: 0.5,
    why: "Jain's index over N + 1 flows lies between 1/(N + 1) (one flow takes all) and 1 \
          (even shares); a value that approaches the lower end is at least nearer it than \
          the upper one: position (J - 1/(N + 1)) / (1 - 1/(N + 1)) at most one half",
};

/// "Holds one target (each flow half)" against the alternative of one target per flow.
pub(super) const NEARER_ONE_TARGET: Convention = Convention {
    name: "one target between two flows, not one each: under 1.5 targets",
    value: 1.5,
    why: "two flows that measure the same base delay hold one target together; flows that \
          each hold their own hold two: 1.5 is the middle, past which the queue is nearer \
          the alternative than the statement",
};

/// A large share of a link that three flows share: at least the even third.
pub(super) const EVEN_THIRD: Convention = Convention {
    name: "a large share of three flows' link: at least the even third",
    value: 1.0 / 3.0,
    why: "three flows sharing evenly get a third each; a flow below it has less than its \
          even share, which no reading of 'a large share' or 'a significant part' allows",
};

/// See [`FLAT_IN_UNIT`].
const T_FLAT_IN_UNIT: &[Threshold] = &[By(&FLAT_IN_UNIT)];
/// See [`NEAR_LOWER_BOUND_11`].
const T_NEAR_LOWER_BOUND_11: &[Threshold] = &[By(&NEAR_LOWER_BOUND_11)];
/// One target between the two flows: within a factor of two below it, and nearer it than
/// two targets ([`NEARER_ONE_TARGET`]).
const T_ONE_TARGET: &[Threshold] = &[
    By(&super::seed003::conventions::FACTOR_TWO_LO),
    By(&NEARER_ONE_TARGET),
];
/// See [`EVEN_THIRD`].
const T_EVEN_THIRD: &[Threshold] = &[By(&EVEN_THIRD)];

/// The protocols of Figs. 3.2 and 3.6, as indices (into `lbe_n`'s scenario files, whose
/// last is the all-TCP reference).
const LEDBAT: usize = 0;
const NICE: usize = 1;
const TCP_LP: usize = 2;
const RENO: usize = 3;

fn queue_over_buffer(r: &RunResult) -> Result<f64, String> {
    bottleneck(r)?
        .queue_mean_over_buffer
        .ok_or_else(|| format!("{}: no buffer size", r.scenario))
}

fn loss(r: &RunResult) -> Result<f64, String> {
    Ok(bottleneck(r)?.loss_rate)
}

/// Kendall's tau between `xs` and `f` over `runs`.
fn trend(
    xs: &[f64],
    runs: &[&RunResult],
    f: fn(&RunResult) -> Result<f64, String>,
) -> Result<f64, String> {
    let y: Vec<f64> = runs.iter().map(|r| f(r)).collect::<Result<_, _>>()?;
    Ok(kendall_tau(xs, &y))
}

/// The flow `name`'s retransmissions.
fn retx(r: &RunResult, name: &str) -> Result<f64, String> {
    r.flows
        .iter()
        .find(|f| f.name == name)
        .map(|f| f.retransmits as f64)
        .ok_or_else(|| format!("{}: no flow `{name}`", r.scenario))
}

pub(super) fn claims() -> Vec<Claim> {
    let mut v = traces::claims();
    v.extend(target_sweep::claims());
    v.extend(ratios::claims());
    v.extend(lbe_n::claims());
    v.extend(mixes::claims());
    v
}
