//! SVG plots of a run's time series: congestion windows, queue lengths, throughputs.

use ledbat_sim::result::Series;
use plotters::prelude::*;
use std::path::Path;

/// Line colours, in order (shared with the swarm plots).
pub const COLOURS: [RGBColor; 8] = [
    RGBColor(31, 119, 180),
    RGBColor(255, 127, 14),
    RGBColor(44, 160, 44),
    RGBColor(214, 39, 40),
    RGBColor(148, 103, 189),
    RGBColor(140, 86, 75),
    RGBColor(227, 119, 194),
    RGBColor(127, 127, 127),
];

/// Draws one chart with one line per `(label, values)` against `t`.
fn chart(
    path: &Path,
    title: &str,
    y_label: &str,
    t: &[f64],
    lines: &[(String, Vec<f64>)],
) -> anyhow::Result<()> {
    let x_max = t.last().copied().unwrap_or(1.0).max(1e-9);
    let y_max = lines
        .iter()
        .flat_map(|(_, v)| v.iter().copied())
        .filter(|v| v.is_finite())
        .fold(0.0f64, f64::max)
        .max(1e-9)
        * 1.05;
    let root = SVGBackend::new(path, (900, 420)).into_drawing_area();
    root.fill(&WHITE).map_err(|e| anyhow::anyhow!("{e}"))?;
    let mut c = ChartBuilder::on(&root)
        .caption(title, ("sans-serif", 18))
        .margin(10)
        .x_label_area_size(35)
        .y_label_area_size(55)
        .build_cartesian_2d(0.0..x_max, 0.0..y_max)
        .map_err(|e| anyhow::anyhow!("{e}"))?;
    c.configure_mesh()
        .x_desc("time (s)")
        .y_desc(y_label)
        .draw()
        .map_err(|e| anyhow::anyhow!("{e}"))?;
    for (i, (label, v)) in lines.iter().enumerate() {
        let colour = COLOURS[i % COLOURS.len()];
        let pts = t
            .iter()
            .zip(v)
            .filter(|(_, y)| y.is_finite())
            .map(|(x, y)| (*x, *y));
        c.draw_series(LineSeries::new(pts, colour))
            .map_err(|e| anyhow::anyhow!("{e}"))?
            .label(label.clone())
            .legend(move |(x, y)| PathElement::new(vec![(x, y), (x + 18, y)], colour));
    }
    if lines.len() > 1 {
        c.configure_series_labels()
            .background_style(WHITE.mix(0.8))
            .border_style(BLACK)
            .draw()
            .map_err(|e| anyhow::anyhow!("{e}"))?;
    }
    root.present().map_err(|e| anyhow::anyhow!("{e}"))?;
    Ok(())
}

/// Writes `cwnd.svg`, `queue.svg` and `throughput.svg` into `dir` (at most 8 flows drawn).
pub fn write_plots(dir: &Path, s: &Series) -> anyhow::Result<()> {
    let flows = s.flows.iter().take(8);
    let cwnd: Vec<_> = flows
        .clone()
        .map(|f| (f.name.clone(), f.cwnd_pkts.clone()))
        .collect();
    chart(
        &dir.join("cwnd.svg"),
        "Congestion window",
        "cwnd (packets)",
        &s.t_s,
        &cwnd,
    )?;
    let rate: Vec<_> = flows
        .map(|f| (f.name.clone(), f.rate_mbps.clone()))
        .collect();
    chart(
        &dir.join("throughput.svg"),
        "Throughput",
        "Mb/s",
        &s.t_s,
        &rate,
    )?;
    let q: Vec<_> = s
        .links
        .iter()
        .map(|l| {
            (
                l.name.clone(),
                l.queue_pkts.iter().map(|&x| x as f64).collect(),
            )
        })
        .collect();
    chart(
        &dir.join("queue.svg"),
        "Queue length",
        "packets",
        &s.t_s,
        &q,
    )?;
    Ok(())
}
