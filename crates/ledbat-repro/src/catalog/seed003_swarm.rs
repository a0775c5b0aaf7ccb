//! Seed 003 chapter 5: BitTorrent swarms in the thesis's own ns-2 simulation, where the
//! metric is the torrent completion time a user feels (section 5.1:
//! `scenarios/seed003/swarm.toml`, whose comment gives every value and its source). Target
//! heterogeneity (section 5.2.2) has a flow-level part (`ledbat-pair.toml` with chapter 5's
//! 700-ms buffer) and a swarm part (`swarm-target.toml`). Chapter 6 is in
//! [`super::seed003_flash`], which shares the helpers below.
//!
//! The queue quantities follow the thesis's own measurement: chapter 5's Fig. 5.2 samples
//! every uplink queue at 10 Hz, idle samples included ("gathered by sampling all uplink
//! queues at 10 Hz", section 5.2.1); where a statement speaks of the queue LEDBAT controls
//! while it sends, the queue left by each dequeue (idle time left out) is read as well and
//! the claim says so.
//!
//! Tolerances follow the catalog's policy and rules (module `catalog`); the thesis states
//! few numbers here, so most claims encode a qualitative statement with a threshold fixed
//! before running, written in each `tolerance_note`.
//!
//! One module per figure group: [`behaviour`] the populations and seed behaviours of Figs.
//! 5.2 and 5.3(a), [`queues`] the uplink queues of Fig. 5.2 (right), [`buffer`] the access
//! buffer of Fig. 5.3(b) and [`targets`] the target heterogeneity of Figs. 5.4-5.5 with the
//! footnote of section 5.1. This module holds what they (and chapter 6) share; [`claims`]
//! lists them in that order (the report's order).

mod behaviour;
mod buffer;
mod queues;
mod targets;

use super::{Claim, Convention, Form, Null, ScenarioRef, Sibling, SweepRange, Threshold};
use crate::plot::{Plot, Series};
use ledbat_sim::swarm::report::{ClassResult, SwarmResult};
use ledbat_sim::RunResult;

/// "Intermediate" on the position scale between two ends (0 at the one, 1 at the other): not
/// past the far end.
pub(in crate::catalog) const FAR_END: Convention = Convention {
    name: "intermediate between two ends, on the position scale from the one (0) to the other \
           (1): at most the far end, 1",
    value: 1.0,
    why: "a value between two ends lies between them: past 1 it is beyond the far end, which \
          no reading of 'intermediate' allows (the near end, 0, is the form's null)",
};

/// "Affected" (differs), as a direction on the relative difference of two mean completion
/// times: beyond 5 %.
pub(in crate::catalog) const AFFECTED: Convention = Convention {
    name: "affected (differs), as a direction on a relative difference of mean completion \
           times: beyond 5 %",
    value: 0.05,
    why: "half the 10 % that 'alike' allows as its tolerance (s003-swarm-random-stay-homogeneous-\
          alike): a difference under it is one two runs of one swarm show, past it the \
          populations are told apart in the direction of 'affected'",
};

/// "Seconds" of queueing delay, as a direction: at least one second.
pub(in crate::catalog) const SECONDS: Convention = Convention {
    name: "seconds of queueing delay, as a direction: at least one second",
    value: 1.0,
    why: "a wait under a second is told in milliseconds; 'seconds' says the queue holds a \
          second of data or more (the plural, two or more, is the tolerance)",
};

/// A value the thesis states ("about 20 %", "near the target", "settles to 630ms"), read as
/// a ratio to it: within a factor of two either way (comparable in size).
pub(super) const T_FACTOR_TWO: &[Threshold] = &[
    Threshold::Convention(&super::seed003::conventions::FACTOR_TWO_LO),
    Threshold::Convention(&super::seed003::conventions::FACTOR_TWO_HI),
];

/// The share of TCP uplink samples above 100 packets that section 5.2.1 reads off Fig. 5.2
/// ("about 20% of the cases").
const STATED_OVER_100: f64 = 0.2;

/// Chapter 5's LEDBAT TARGET, ms (section 5.1; `scenarios/seed003/swarm.toml`).
const CH5_TARGET_MS: f64 = 100.0;

/// The T1 peers' mean delay section 5.2.2 states ("settles to 630ms"), ms.
const STATED_T1_DELAY_MS: f64 = 630.0;

const SWARM: &str = "seed003/swarm.toml";
const TARGET: &str = "seed003/swarm-target.toml";
const PAIR: &str = "seed003/ledbat-pair.toml";

/// Populations of section 5.1.
#[derive(Clone, Copy)]
enum Pop {
    AllTcp,
    AllLedbat,
    Mixed,
}

/// The section 5.1 swarm with a population, a seed behaviour and extra overrides. The
/// 50-50 random-stay swarm is the file as is, so that every claim reading it shares one set
/// of runs.
fn ch5_with(pop: Pop, behaviour: &str, extra: &[&str]) -> ScenarioRef {
    let mut set: Vec<String> = match pop {
        Pop::AllTcp => vec!["swarm.class.0.share=0".into()],
        Pop::AllLedbat => vec!["swarm.class.1.share=0".into()],
        Pop::Mixed => Vec::new(),
    };
    if behaviour != "random-stay" {
        set.push(format!("swarm.seed_behaviour=\"{behaviour}\""));
    }
    set.extend(extra.iter().map(|s| s.to_string()));
    ScenarioRef::with(SWARM, &set)
}

fn ch5(pop: Pop, behaviour: &str) -> ScenarioRef {
    ch5_with(pop, behaviour, &[])
}

/// The random-stay swarm of `pop` with one upload slot per peer (one regular unchoke, no
/// optimistic one): no upload starts beside another on the same uplink.
fn one_slot(pop: Pop) -> ScenarioRef {
    ch5_with(
        pop,
        "random-stay",
        &["swarm.choke.regular=1", "swarm.choke.optimistic=0"],
    )
}

/// The 50-50 swarm with seed behaviour `behaviour` and TARGET 25 ms for both classes
/// (section 5.1's footnote 1; class `tcp`'s target matters only where its roles are swapped).
fn at_25ms(behaviour: &str) -> ScenarioRef {
    ch5_with(
        Pop::Mixed,
        behaviour,
        &[
            "swarm.class.0.utp_cc.target=25ms",
            "swarm.class.1.utp_cc.target=25ms",
        ],
    )
}

/// The three populations with one seed behaviour: all-TCP, all-LEDBAT, 50-50.
fn pops(behaviour: &str) -> Vec<ScenarioRef> {
    vec![
        ch5(Pop::AllTcp, behaviour),
        ch5(Pop::AllLedbat, behaviour),
        ch5(Pop::Mixed, behaviour),
    ]
}

/// The two classes' roles swapped: the peers of class `ledbat` initiate TCP (13) and those
/// of class `tcp` LEDBAT (14), so that what a claim reads of one class is the other's
/// behaviour (the null runs of the class comparisons, catalog rule 12).
const SWAP: &[&str] = &[
    "swarm.class.0.disposition=13",
    "swarm.class.1.disposition=14",
];

/// The all-LEDBAT swarm's peers initiating TCP instead (class `ledbat`, disposition 13):
/// the null runs of the claims on LEDBAT's queue.
const LEDBAT_AS_TCP: &[&str] = &["swarm.class.0.disposition=13"];

/// The 50-50 random-stay swarm with an access buffer of `b` packets (200: the file).
fn buffer(b: u32) -> ScenarioRef {
    if b == 200 {
        return ScenarioRef::file(SWARM);
    }
    ScenarioRef::with(
        SWARM,
        &[
            format!("swarm.class.0.buffer={b}"),
            format!("swarm.class.1.buffer={b}"),
        ],
    )
}

/// Buffers of the Fig. 5.3(b) sweep: the thesis's 10 to 200 packets, and 8 packets (96 ms
/// at 1 Mb/s), the largest that cannot hold TARGET plus a packet (section 5.2.1's condition;
/// its own B = 10 holds 120 ms, more than the 112 needed).
const BUFFERS: [u32; 7] = [8, 10, 25, 50, 100, 150, 200];

/// The target-heterogeneity swarm with T1 = `ms`.
fn t1(ms: u32) -> ScenarioRef {
    ScenarioRef::with(TARGET, &[format!("swarm.class.0.utp_cc.target={ms}ms")])
}

/// The target-heterogeneity swarm with the roles swapped: T2 = `ms` for the `t2` class, the
/// `t1` class at 100 ms (the file as [`t1`]`(100)` where `ms` is 100, the same instance).
fn t2(ms: u32) -> ScenarioRef {
    if ms == 100 {
        return t1(100);
    }
    ScenarioRef::with(TARGET, &[format!("swarm.class.1.utp_cc.target={ms}ms")])
}

/// T1 values of the Fig. 5.5 sweep (T2 = 100 ms; the thesis's T1/T2 spans 1 to 10).
const T1_MS: [u32; 6] = [100, 200, 300, 500, 700, 1000];

/// Chapter 5's pair of LEDBAT flows (Fig. 5.4): T2 = 100 ms, T1 = `ratio` T2, a buffer of 7
/// T2 = 700 ms (583 packets at 10 Mb/s), so that the targets' sum exceeds it from T1/T2 =
/// 6 on, as section 5.2.2 places the gray zone.
fn pair(ratio: f64) -> ScenarioRef {
    ScenarioRef::with(
        PAIR,
        &[
            "topology.queue.packets=583".to_string(),
            "flow.1.cc.target=100000us".to_string(),
            format!("flow.0.cc.target={}us", (ratio * 100_000.0) as u64),
        ],
    )
}

pub(super) fn sw(r: &RunResult) -> Result<&SwarmResult, String> {
    r.swarm
        .as_ref()
        .ok_or_else(|| format!("{}: not a swarm run", r.scenario))
}

pub(super) fn class<'a>(r: &'a RunResult, name: &str) -> Result<&'a ClassResult, String> {
    sw(r)?
        .class(name)
        .ok_or_else(|| format!("{}: no class `{name}`", r.scenario))
}

pub(super) fn need(v: Option<f64>, what: &str) -> Result<f64, String> {
    v.ok_or_else(|| format!("no {what}"))
}

/// Mean download time of the run's measured completions, s.
pub(super) fn dl(r: &RunResult) -> Result<f64, String> {
    need(sw(r)?.download.mean, "measured completion")
}

/// Mean download time of class `name`'s measured completions, s.
pub(super) fn class_dl(r: &RunResult, name: &str) -> Result<f64, String> {
    need(
        class(r, name)?.download.mean,
        &format!("measured completion of class {name}"),
    )
}

/// Mean 10-Hz sampled uplink queueing delay of class `name`, ms (idle samples count).
pub(super) fn class_q(r: &RunResult, name: &str) -> Result<f64, String> {
    need(
        class(r, name)?.queue_mean_ms,
        &format!("queue sample of class {name}"),
    )
}

/// Mean queue left by the dequeues of class `name`'s uplinks, as serialisation time, ms.
pub(super) fn class_deq(r: &RunResult, name: &str) -> Result<f64, String> {
    need(
        class(r, name)?.dequeue_queue_mean_ms,
        &format!("dequeue of class {name}"),
    )
}

/// Mean 10-Hz sampled uplink queueing delay over the swarm, ms.
fn swarm_q(r: &RunResult) -> Result<f64, String> {
    need(sw(r)?.queue_mean_ms, "queue sample")
}

/// The `q` quantile of the 10-Hz sampled uplink queueing delay over the swarm's classes
/// pooled, s (histogram bins of 1 ms, read at their lower edge).
fn sampled_wait_quantile(r: &RunResult, q: f64) -> Result<f64, String> {
    let mut pooled: Vec<u64> = Vec::new();
    for c in &sw(r)?.classes {
        if pooled.len() < c.queue_hist_ms.len() {
            pooled.resize(c.queue_hist_ms.len(), 0);
        }
        for (p, n) in pooled.iter_mut().zip(&c.queue_hist_ms) {
            *p += n;
        }
    }
    hist_quantile(&pooled, q)
        .map(|ms| ms as f64 / 1000.0)
        .ok_or_else(|| format!("{}: no queue sample", r.scenario))
}

/// The smallest bin `k` of `hist` with at least a share `q` of the counts in bins up to `k`.
fn hist_quantile(hist: &[u64], q: f64) -> Option<usize> {
    let total: u64 = hist.iter().sum();
    if total == 0 {
        return None;
    }
    let mut seen = 0;
    hist.iter().position(|&n| {
        seen += n;
        seen as f64 >= q * total as f64
    })
}

/// Share of class `name`'s 10-Hz uplink samples with more than 100 packets waiting.
fn over_100(r: &RunResult, name: &str) -> Result<f64, String> {
    need(class(r, name)?.queue_over_100_pkts, "queue sample")
}

/// The time the run's file takes at a leecher's 8 Mb/s downlink, s: the file's size is the
/// bytes a completed leecher received for the first time (so that a reduced file, as in
/// quick mode, is measured against its own limit).
fn downlink_limit(r: &RunResult) -> Result<f64, String> {
    let bytes = sw(r)?
        .peers
        .iter()
        .filter(|p| !p.initial_seed && p.completed_s.is_some())
        .map(|p| p.downloaded)
        .max()
        .ok_or_else(|| format!("{}: no completed leecher", r.scenario))?;
    Ok(bytes as f64 * 8.0 / 8e6)
}

/// (max - min) / min of `v`.
pub(super) fn spread(v: &[f64]) -> f64 {
    let max = v.iter().copied().fold(f64::MIN, f64::max);
    let min = v.iter().copied().fold(f64::MAX, f64::min);
    (max - min) / min
}

/// Completion-time CDFs per class of a run.
pub(super) fn class_cdfs(title: &str, r: &RunResult) -> Vec<Plot> {
    let Ok(s) = sw(r) else { return Vec::new() };
    let series = s
        .classes
        .iter()
        .filter_map(|c| {
            let mut t: Vec<f64> = s
                .completions
                .iter()
                .filter(|x| x.measured && x.class == c.name)
                .map(|x| x.download_s)
                .collect();
            t.sort_by(f64::total_cmp);
            let n = t.len() as f64;
            (!t.is_empty()).then(|| {
                (
                    c.name.clone(),
                    t.iter()
                        .enumerate()
                        .map(|(i, x)| (*x, (i + 1) as f64 / n))
                        .collect(),
                )
            })
        })
        .collect();
    vec![Plot::lines(title, "download time (s)", "CDF", series)]
}

/// One value per run against `xs`, a line per class.
fn per_class(
    title: &str,
    axes: (&str, &str),
    xs: &[f64],
    runs: &[&RunResult],
    classes: &[&str],
    f: fn(&RunResult, &str) -> Result<f64, String>,
) -> Vec<Plot> {
    let series = classes
        .iter()
        .map(|c| {
            let points = xs
                .iter()
                .zip(runs)
                .filter_map(|(x, r)| f(r, c).ok().map(|y| (*x, y)))
                .collect();
            Series {
                label: format!("{c} (seed 1)"),
                points,
                scatter: false,
            }
        })
        .collect();
    vec![Plot {
        title: title.into(),
        x_label: axes.0.into(),
        y_label: axes.1.into(),
        series,
        bands: Vec::new(),
    }]
}

/// `|het / hom - 1|`: how far the heterogeneous swarm's mean lies from a homogeneous one's.
/// Rule 13's map from the slowest population's download time over the downlink limit, in
/// `(lo, hi)`, to the three populations' relative spread: every mean is at least the limit,
/// so the spread is at most `hi / 1 - 1`.
fn spread_within_slowest((_, hi): (f64, f64)) -> (f64, f64) {
    (0.0, hi.max(1.0) - 1.0)
}

fn off(het: f64, hom: f64) -> f64 {
    (het / hom - 1.0).abs()
}

/// The TCP peers' mean download time over the LEDBAT peers' in a 50-50 run.
fn tcp_over_ledbat(r: &RunResult) -> Result<f64, String> {
    Ok(class_dl(r, "tcp")? / class_dl(r, "ledbat")?)
}

const SETUP: &str = "Setup: section 5.1's swarm (scenarios/seed003/swarm.toml, whose comment \
    gives every value and its source; the sensitivity to the values chosen is in \
    docs/swarm-sim.md).";

pub(super) fn claims() -> Vec<Claim> {
    let mut v = behaviour::claims();
    v.extend(queues::claims());
    v.extend(buffer::claims());
    v.extend(targets::claims());
    v
}

#[cfg(test)]
mod tests {
    use super::hist_quantile;

    #[test]
    fn a_quantile_is_the_first_bin_reaching_its_share() {
        // 10 samples: 5 at 0 ms, 4 at 2 ms, 1 at 7 ms.
        let h = [5, 0, 4, 0, 0, 0, 0, 1];
        assert_eq!(hist_quantile(&h, 0.5), Some(0));
        assert_eq!(hist_quantile(&h, 0.51), Some(2));
        assert_eq!(hist_quantile(&h, 0.9), Some(2));
        assert_eq!(hist_quantile(&h, 0.99), Some(7));
        assert_eq!(hist_quantile(&[0, 0], 0.5), None);
    }
}
