//! Value extractors: the numbers a claim reads from a run (throughputs, completion times,
//! queueing delays, Jain's index), and whole-claim extractors ([`super::Extract`]) that
//! several claims share. Each returns an error naming the scenario and what is missing
//! rather than a made-up number.

use crate::stats::{jain, mean, quantile};
use ledbat_sim::result::{LinkResult, Series};
use ledbat_sim::RunResult;

// ---------------------------------------------------------------- one run

fn flow_index(r: &RunResult, name: &str) -> Result<usize, String> {
    r.flows
        .iter()
        .position(|f| f.name == name)
        .ok_or_else(|| format!("{}: no flow named `{name}`", r.scenario))
}

/// Throughput of the flow `name`, bit/s.
pub fn tput(r: &RunResult, name: &str) -> Result<f64, String> {
    Ok(r.flows[flow_index(r, name)?].throughput_bps)
}

/// Sum of all flows' throughputs, bit/s.
pub fn total_tput(r: &RunResult) -> f64 {
    r.flows.iter().map(|f| f.throughput_bps).sum()
}

/// The bottleneck link (the scenario's primary link, else the first).
pub fn bottleneck(r: &RunResult) -> Result<&LinkResult, String> {
    let i = r.aggregate.primary_link.unwrap_or(0);
    r.links
        .get(i)
        .ok_or_else(|| format!("{}: no bottleneck link in the result", r.scenario))
}

/// Absolute time (s) the flow `name` completed its last transfer.
pub fn finish(r: &RunResult, name: &str) -> Result<f64, String> {
    let f = &r.flows[flow_index(r, name)?];
    f.completions
        .last()
        .map(|c| c.start_s + c.time_s)
        .ok_or_else(|| {
            format!(
                "{}: flow `{name}` did not complete its transfer within {} s",
                r.scenario, r.duration_s
            )
        })
}

/// Transfer times (s) of every completed transfer of the flow `name`.
pub fn completion_times(r: &RunResult, name: &str) -> Result<Vec<f64>, String> {
    let f = &r.flows[flow_index(r, name)?];
    if f.completions.is_empty() {
        return Err(format!("{}: flow `{name}` completed nothing", r.scenario));
    }
    Ok(f.completions.iter().map(|c| c.time_s).collect())
}

/// The run's time series (present when the scenario records them).
pub fn series(r: &RunResult) -> Result<&Series, String> {
    r.series
        .as_ref()
        .ok_or_else(|| format!("{}: no time series", r.scenario))
}

/// Queueing delay of the bottleneck over time, ms, from the queue-length series
/// (packets x packet time at the link rate).
pub fn queue_delay_series(r: &RunResult, mss: f64) -> Result<Vec<(f64, f64)>, String> {
    let s = series(r)?;
    let link = bottleneck(r)?;
    let l = s.links.first().ok_or("no link series")?;
    let pkt_ms = mss * 8.0 / link.rate_bps * 1e3;
    Ok(s.t_s
        .iter()
        .zip(&l.queue_pkts)
        .map(|(t, q)| (*t, *q as f64 * pkt_ms))
        .collect())
}

/// The series of flow `i` as (time, value) points, `y` picking which (cwnd, rate, delay).
pub fn flow_points(
    r: &RunResult,
    i: usize,
    y: fn(&ledbat_sim::result::FlowSeries) -> &[f64],
) -> Result<Vec<(f64, f64)>, String> {
    let s = series(r)?;
    let f = s
        .flows
        .get(i)
        .ok_or_else(|| format!("{}: no flow {i} in the series", r.scenario))?;
    Ok(s.t_s.iter().copied().zip(y(f).iter().copied()).collect())
}

/// Flow `i`'s own queueing-delay estimate (its `qdelay_ms` series, one sample per series
/// interval) from `from` s on, the samples without an estimate left out.
pub fn delay_estimates_from(r: &RunResult, i: usize, from: f64) -> Result<Vec<f64>, String> {
    let d: Vec<f64> = flow_points(r, i, |f| &f.qdelay_ms)?
        .into_iter()
        .filter(|(t, y)| *t >= from && y.is_finite())
        .map(|p| p.1)
        .collect();
    if d.is_empty() {
        return Err(format!(
            "{}: flow {i} has no delay samples from {from} s",
            r.scenario
        ));
    }
    Ok(d)
}

/// Mean congestion window (packets) of flow `i` over `[from, to)` s.
pub fn cwnd_between(r: &RunResult, i: usize, from: f64, to: f64) -> Result<f64, String> {
    window_mean(&flow_points(r, i, |f| &f.cwnd_pkts)?, from, to)
}

/// Mean delivered rate (Mb/s) of flow `i` over `[from, to)` s.
pub fn rate_between(r: &RunResult, i: usize, from: f64, to: f64) -> Result<f64, String> {
    window_mean(&flow_points(r, i, |f| &f.rate_mbps)?, from, to)
}

/// Largest and smallest sample with `from <= t < to`.
pub fn window_range(pts: &[(f64, f64)], from: f64, to: f64) -> Result<(f64, f64), String> {
    let v: Vec<f64> = pts
        .iter()
        .filter(|(t, y)| *t >= from && *t < to && y.is_finite())
        .map(|p| p.1)
        .collect();
    if v.is_empty() {
        return Err(format!("no samples in [{from}, {to}) s"));
    }
    let hi = v.iter().copied().fold(f64::NEG_INFINITY, f64::max);
    let lo = v.iter().copied().fold(f64::INFINITY, f64::min);
    Ok((lo, hi))
}

/// Mean of the samples with `from <= t < to`.
pub fn window_mean(pts: &[(f64, f64)], from: f64, to: f64) -> Result<f64, String> {
    let v: Vec<f64> = pts
        .iter()
        .filter(|(t, _)| *t >= from && *t < to)
        .map(|p| p.1)
        .collect();
    if v.is_empty() {
        Err(format!("no samples in [{from}, {to}) s"))
    } else {
        Ok(mean(&v))
    }
}

/// Kendall's tau between two equally long sequences.
pub fn kendall_tau(x: &[f64], y: &[f64]) -> f64 {
    let n = x.len().min(y.len());
    let (mut c, mut d) = (0i64, 0i64);
    for i in 0..n {
        for j in i + 1..n {
            let s = (x[j] - x[i]) * (y[j] - y[i]);
            if s > 0.0 {
                c += 1;
            } else if s < 0.0 {
                d += 1;
            }
        }
    }
    let pairs = (n * (n.saturating_sub(1)) / 2) as f64;
    if pairs == 0.0 {
        0.0
    } else {
        (c - d) as f64 / pairs
    }
}

/// Long-term Jain's index of the run.
pub fn jain_long(r: &RunResult) -> Result<f64, String> {
    r.aggregate
        .jain_long
        .ok_or_else(|| "no Jain index".to_string())
}

/// TCP flows' share of the total throughput.
pub fn tcp_share(r: &RunResult) -> f64 {
    r.aggregate.tcp_share
}

/// Throughput of the flow `name` as a fraction of the bottleneck capacity.
pub fn utilisation_of(r: &RunResult, name: &str) -> Result<f64, String> {
    Ok(tput(r, name)? / r.capacity_bps)
}

// ---------------------------------------------------------------- seed-specific measures

/// Seconds from the start to the first sample where the flow's own queueing-delay estimate
/// reaches 95 % of TARGET (seed 000's "time to reach steady state").
pub fn time_to_target(r: &RunResult, target_ms: f64) -> Result<f64, String> {
    let s = series(r)?;
    let f = s.flows.first().ok_or("no flow series")?;
    s.t_s
        .iter()
        .zip(&f.qdelay_ms)
        .find(|(_, q)| q.is_finite() && **q >= 0.95 * target_ms)
        .map(|(t, _)| *t)
        .ok_or_else(|| format!("{}: queueing delay never reached TARGET", r.scenario))
}

/// Mean queueing delay (ms) over the bucket-period `k` (0-based) of a base-growth run,
/// skipping the first and last 20 % of the period. `period` in s.
pub fn growth_level(r: &RunResult, period: f64, k: usize) -> Result<f64, String> {
    let q = queue_delay_series(r, 1500.0)?;
    let from = k as f64 * period + 0.2 * period;
    let to = (k + 1) as f64 * period - 0.2 * period;
    window_mean(&q, from, to)
}

/// The growth period: BASE_HISTORY x bucket length (10 min, or 5 min in quick mode).
pub fn growth_period(r: &RunResult) -> f64 {
    if r.duration_s < 30.0 * 60.0 {
        300.0
    } else {
        600.0
    }
}

/// Time (s) the bottleneck queue first reaches its buffer limit (within one packet).
pub fn first_full_buffer(r: &RunResult) -> Result<f64, String> {
    let s = series(r)?;
    let l = s.links.first().ok_or("no link series")?;
    let limit = bottleneck(r)?.buffer_pkts.unwrap_or(u32::MAX);
    s.t_s
        .iter()
        .zip(&l.queue_pkts)
        .find(|(_, q)| **q + 1 >= limit)
        .map(|(t, _)| *t)
        .ok_or_else(|| {
            format!(
                "{}: the buffer never filled in {} s",
                r.scenario, r.duration_s
            )
        })
}

/// Jain's index of the flows' mean rates from 30 s to the first completion (or the end).
pub fn jain_period(r: &RunResult) -> Result<f64, String> {
    let s = series(r)?;
    let end = r
        .flows
        .iter()
        .filter_map(|f| f.completions.first().map(|c| c.start_s + c.time_s))
        .fold(r.duration_s, f64::min);
    let mut x = vec![0.0; s.flows.len()];
    let mut n = 0usize;
    for (k, t) in s.t_s.iter().enumerate() {
        if *t >= 30.0 && *t < end {
            for (i, f) in s.flows.iter().enumerate() {
                x[i] += f.rate_mbps.get(k).copied().unwrap_or(0.0);
            }
            n += 1;
        }
    }
    if n == 0 {
        return Err(format!("{}: no period with both flows active", r.scenario));
    }
    jain(&x).ok_or_else(|| "zero throughput".to_string())
}

// ---------------------------------------------------------------- whole-claim extractors

/// Long-term Jain's index of the first scenario.
pub fn first_jain_long(r: &[&RunResult]) -> Result<f64, String> {
    jain_long(r[0])
}

/// Mean per-packet bottleneck queueing delay (ms) of the first scenario.
pub fn first_qdelay_mean(r: &[&RunResult]) -> Result<f64, String> {
    Ok(bottleneck(r[0])?.qdelay_mean_ms)
}

/// Bottleneck loss rate of the first scenario.
pub fn first_loss_rate(r: &[&RunResult]) -> Result<f64, String> {
    Ok(bottleneck(r[0])?.loss_rate)
}

/// TCP share of the throughput in the first scenario.
pub fn first_tcp_share(r: &[&RunResult]) -> Result<f64, String> {
    Ok(tcp_share(r[0]))
}

/// Throughput (Mb/s) of the first flow of the first scenario.
pub fn first_flow_mbps(r: &[&RunResult]) -> Result<f64, String> {
    Ok(r[0].flows[0].throughput_bps / 1e6)
}

/// Completion time (s) of the flow named `first` in the first scenario.
pub fn first_flow_finish(r: &[&RunResult]) -> Result<f64, String> {
    finish(r[0], "first")
}

/// The `ledbat` flow's share of the total throughput in the first scenario.
pub fn ledbat_share(r: &[&RunResult]) -> Result<f64, String> {
    Ok(tput(r[0], "ledbat")? / total_tput(r[0]))
}

/// Mean transfer time (ms) of the `tcp-files` flow's transfers in the first scenario.
pub fn mean_file_time_ms(r: &[&RunResult]) -> Result<f64, String> {
    Ok(mean(&completion_times(r[0], "tcp-files")?) * 1e3)
}

/// Queueing-delay step (ms) between the first two growth periods of a base-growth run.
pub fn growth_step(r: &[&RunResult]) -> Result<f64, String> {
    let p = growth_period(r[0]);
    Ok(growth_level(r[0], p, 1)? - growth_level(r[0], p, 0)?)
}

/// Median `web` train transfer time beside LEDBAT (second scenario) / alone (first).
pub fn train_ratio(r: &[&RunResult]) -> Result<f64, String> {
    let alone = completion_times(r[0], "web")?;
    let with = completion_times(r[1], "web")?;
    Ok(quantile(&with, 0.5).unwrap_or(f64::NAN) / quantile(&alone, 0.5).unwrap_or(f64::NAN))
}

/// Mean throughput of the flows other than `tcp`, as a fraction of capacity (first
/// scenario; it must have a `tcp` flow).
pub fn lbe_share_each(r: &[&RunResult]) -> Result<f64, String> {
    let x = r[0];
    tput(x, "tcp")?;
    let lbe: Vec<f64> = x
        .flows
        .iter()
        .filter(|f| f.name != "tcp")
        .map(|f| f.throughput_bps)
        .collect();
    Ok(mean(&lbe) / x.capacity_bps)
}

/// Smallest value of `f` over all scenarios (`+inf` when there are none).
pub fn min_over(r: &[&RunResult], f: fn(&RunResult) -> Result<f64, String>) -> Result<f64, String> {
    r.iter()
        .map(|x| f(x))
        .try_fold(f64::INFINITY, |m, v| v.map(|v| m.min(v)))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn delay_estimates_start_at_the_given_time() {
        // One LEDBAT flow for 30 s, sampled every 100 ms: from 20 s on there are the
        // samples at 20.0, 20.1, ..., 30.0 s (the run's end is sampled too), 101 of them,
        // every one an estimate.
        let sc = ledbat_sim::Scenario::from_toml(
            r#"
name = "one-flow"
duration = "30s"
[topology]
kind = "dumbbell"
rate = "10Mbps"
delay = "20ms"
queue = { kind = "droptail", packets = 100 }
[[flow]]
cc = { name = "ledbat" }
"#,
        )
        .unwrap();
        let r = ledbat_sim::run(&sc, 1).unwrap();
        let d = delay_estimates_from(&r, 0, 20.0).unwrap();
        assert_eq!(d.len(), 101);
        assert!(d.iter().all(|x| x.is_finite() && *x >= 0.0));
        // nothing after the run's end, and no such flow: errors naming what is missing
        let late = delay_estimates_from(&r, 0, 31.0).unwrap_err();
        assert!(late.contains("no delay samples from 31 s"), "{late}");
        assert!(delay_estimates_from(&r, 1, 0.0)
            .unwrap_err()
            .contains("no flow 1"));
    }

    #[test]
    fn kendall_tau_of_monotone_sequences() {
        assert_eq!(kendall_tau(&[1.0, 2.0, 3.0], &[3.0, 2.0, 1.0]), -1.0);
        assert_eq!(kendall_tau(&[1.0, 2.0, 3.0], &[1.0, 2.0, 3.0]), 1.0);
    }

    #[test]
    fn kendall_tau_counts_one_inversion_among_three_pairs() {
        // pairs (0,1) concordant, (0,2) concordant, (1,2) discordant: (2 - 1) / 3
        assert!((kendall_tau(&[1.0, 2.0, 3.0], &[1.0, 3.0, 2.0]) - 1.0 / 3.0).abs() < 1e-12);
        assert_eq!(kendall_tau(&[1.0], &[1.0]), 0.0);
    }

    #[test]
    fn window_range_skips_samples_outside_and_nan() {
        let pts = [
            (0.0, 9.0),
            (1.0, 2.0),
            (2.0, f64::NAN),
            (2.5, 5.0),
            (3.0, 0.0),
        ];
        assert_eq!(window_range(&pts, 1.0, 3.0), Ok((2.0, 5.0)));
        assert!(window_range(&pts, 2.0, 2.4).is_err());
    }

    #[test]
    fn window_mean_takes_the_half_open_interval() {
        let pts = [(0.0, 1.0), (1.0, 2.0), (2.0, 4.0), (3.0, 8.0)];
        assert_eq!(window_mean(&pts, 1.0, 3.0), Ok(3.0));
        assert!(window_mean(&pts, 5.0, 6.0).is_err());
    }
}
