//! Plots the claims draw from the first seed's runs: per-flow rate and window over time,
//! the bottleneck queueing delay, transfer-time CDFs, and a measured sweep against its
//! parameter.

use super::extract::{completion_times, queue_delay_series};
use crate::plot::{HBand, Plot, Series};
use ledbat_sim::RunResult;

/// The plots that could be drawn (a run without time series draws nothing).
pub fn plots<const N: usize>(p: [Option<Plot>; N]) -> Vec<Plot> {
    p.into_iter().flatten().collect()
}

/// One line per flow over time, `y` picking the flow's series.
fn flow_lines(
    title: &str,
    y_label: &str,
    r: &RunResult,
    y: fn(&ledbat_sim::result::FlowSeries) -> &[f64],
) -> Option<Plot> {
    let s = r.series.as_ref()?;
    Some(Plot::lines(
        title,
        "time (s)",
        y_label,
        s.flows
            .iter()
            .map(|f| {
                let pts = s.t_s.iter().copied().zip(y(f).iter().copied()).collect();
                (f.name.clone(), pts)
            })
            .collect(),
    ))
}

/// Every flow's rate over time.
pub fn rate_plot(title: &str, r: &RunResult) -> Option<Plot> {
    flow_lines(title, "rate (Mb/s)", r, |f| &f.rate_mbps)
}

/// Every flow's congestion window over time.
pub fn cwnd_plot(title: &str, r: &RunResult) -> Option<Plot> {
    flow_lines(title, "cwnd (packets)", r, |f| &f.cwnd_pkts)
}

/// The bottleneck queueing delay over time (`mss` bytes per queued packet).
pub fn queue_plot(title: &str, r: &RunResult, mss: f64) -> Option<Plot> {
    let q = queue_delay_series(r, mss).ok()?;
    Some(Plot::lines(
        title,
        "time (s)",
        "bottleneck queueing delay (ms)",
        vec![("queue".into(), q)],
    ))
}

/// CDFs of the flow `name`'s transfer times, alone (first run) and beside LEDBAT (second).
pub fn cdf_plot(title: &str, r: &[&RunResult], name: &str) -> Vec<Plot> {
    let mut series = Vec::new();
    for (label, run) in [("alone", r[0]), ("with LEDBAT", r[1])] {
        if let Ok(mut v) = completion_times(run, name) {
            v.sort_by(|a, b| a.total_cmp(b));
            let n = v.len() as f64;
            series.push((
                label.to_string(),
                v.iter()
                    .enumerate()
                    .map(|(i, x)| (x * 1e3, (i + 1) as f64 / n))
                    .collect(),
            ));
        }
    }
    vec![Plot::lines(title, "transfer time (ms)", "CDF", series)]
}

/// A measured value against a sweep parameter (seed 1), with optional bands.
pub fn sweep_plot(
    title: &str,
    (x_label, y_label): (&str, &str),
    points: Vec<(f64, f64)>,
    scatter: bool,
    bands: Vec<HBand>,
) -> Vec<Plot> {
    vec![Plot {
        title: title.into(),
        x_label: x_label.into(),
        y_label: y_label.into(),
        series: vec![Series {
            label: "measured (seed 1)".into(),
            points,
            scatter,
        }],
        bands,
    }]
}

/// A shaded band with its legend label.
pub fn band(label: &str, lo: f64, hi: f64) -> Vec<HBand> {
    vec![HBand {
        label: label.into(),
        lo,
        hi,
    }]
}
