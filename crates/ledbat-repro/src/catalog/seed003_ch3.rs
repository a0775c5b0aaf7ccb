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

use super::extract::*;
use super::Claim;
use ledbat_sim::RunResult;

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
