//! What `ledbat sim` shows and writes for a swarm scenario: the per-class summary table,
//! `peers.csv`, `completions.csv` and SVG plots like seed 003's Fig. 5.2 (download time by
//! completion rank, completion-time CDF per class, uplink queue CCDF per class in packets
//! and in milliseconds).

use ledbat_sim::export;
use ledbat_sim::swarm::report::{ccdf, SwarmResult};
use plotters::coord::ranged1d::ValueFormatter;
use plotters::coord::types::RangedCoordf64;
use plotters::prelude::*;
use std::fmt::Write as _;
use std::path::Path;

use super::plot::COLOURS;

fn opt(v: Option<f64>, digits: usize) -> String {
    v.map_or("-".into(), |x| format!("{x:.digits$}"))
}

/// The table `ledbat sim` prints for a swarm run.
pub fn summary_table(s: &SwarmResult) -> String {
    let mut out = String::new();
    let window = s
        .window_start_s
        .map_or("the transient never ended".into(), |w| {
            format!("measured from {w:.1} s")
        });
    let _ = writeln!(
        out,
        "{} leecher completions by {:.1} s ({}), {} measured{}",
        s.completions.len(),
        s.ended_s,
        window,
        s.measured,
        if s.complete {
            ""
        } else {
            " (stopped at the scenario's duration before the last measured completion)"
        }
    );
    let d = &s.download;
    let _ = writeln!(
        out,
        "download time (s): mean {} sd {}  q1 {}  median {}  q3 {}",
        opt(d.mean, 1),
        opt(d.sd, 1),
        opt(d.q1, 1),
        opt(d.median, 1),
        opt(d.q3, 1)
    );
    let _ = writeln!(
        out,
        "block data in the window: {:.1} MB over TCP, {:.1} MB over uTP (TCP share {}); uplink queue mean {} ms sampled, {} ms per dequeue ({} of dequeues leave it non-empty); {:.1} MB lost to departures",
        s.data_tcp_bytes as f64 / 1e6,
        s.data_utp_bytes as f64 / 1e6,
        opt(s.tcp_byte_share, 3),
        opt(s.queue_mean_ms, 1),
        opt(s.dequeue_queue_mean_ms, 1),
        opt(s.dequeue_nonempty, 3),
        s.lost_bytes as f64 / 1e6
    );
    let _ = writeln!(
        out,
        "{:<12} {:>5} {:>5} {:>8} {:>8} {:>8} {:>8} {:>8} {:>8} {:>6} {:>6} {:>8} {:>6} {:>9} {:>9} {:>8} {:>8}",
        "class",
        "peers",
        "meas",
        "mean s",
        "median",
        "q1",
        "q3",
        "queue ms",
        "q pkts",
        ">100",
        "util",
        "deq ms",
        "deq>0",
        "req->blk",
        "p95 ms",
        "up uTP",
        "up TCP"
    );
    for c in &s.classes {
        let d = &c.download;
        let _ = writeln!(
            out,
            "{:<12} {:>5} {:>5} {:>8} {:>8} {:>8} {:>8} {:>8} {:>8} {:>6} {:>6} {:>8} {:>6} {:>9} {:>9} {:>7.1}M {:>7.1}M",
            c.name,
            c.peers,
            d.n,
            opt(d.mean, 1),
            opt(d.median, 1),
            opt(d.q1, 1),
            opt(d.q3, 1),
            opt(c.queue_mean_ms, 1),
            opt(c.queue_mean_pkts, 1),
            opt(c.queue_over_100_pkts, 3),
            opt(c.uplink_utilisation, 3),
            opt(c.dequeue_queue_mean_ms, 1),
            opt(c.dequeue_nonempty, 3),
            opt(c.block_latency_mean_ms, 0),
            opt(c.block_latency_p95_ms, 0),
            c.uploaded_utp as f64 / 1e6,
            c.uploaded_tcp as f64 / 1e6
        );
    }
    out
}

/// Writes `peers.csv`, `completions.csv` and the plots into `dir`.
pub fn write_files(dir: &Path, s: &SwarmResult) -> anyhow::Result<()> {
    std::fs::write(dir.join("peers.csv"), export::swarm_peers_table(s).to_csv())?;
    std::fs::write(
        dir.join("completions.csv"),
        export::swarm_completions_table(s).to_csv(),
    )?;
    completion_by_rank(&dir.join("completion_rank.svg"), s)?;
    // Classes first, so that a class has the same colour in every plot; "all" last.
    let cdf: Vec<(String, Vec<(f64, f64)>)> = s
        .classes
        .iter()
        .map(|c| (c.name.clone(), Some(c.name.as_str())))
        .chain(std::iter::once(("all".to_string(), None)))
        .map(|(label, class)| {
            let mut t: Vec<f64> = s
                .completions
                .iter()
                .filter(|r| r.measured && class.is_none_or(|c| c == r.class))
                .map(|r| r.download_s)
                .collect();
            t.sort_by(f64::total_cmp);
            let n = t.len() as f64;
            let pts = t
                .iter()
                .enumerate()
                .map(|(i, &x)| (x, (i + 1) as f64 / n))
                .collect();
            (label, pts)
        })
        .filter(|(_, p): &(String, Vec<(f64, f64)>)| !p.is_empty())
        .collect();
    steps(
        &dir.join("completion_cdf.svg"),
        "Completion time CDF (measured completions)",
        "download time (s)",
        "P(T <= t)",
        &cdf,
        false,
    )?;
    for (file, title, x_label, pick) in [
        (
            "queue_ccdf.svg",
            "Uplink queue CCDF (samples in the window)",
            "packets waiting",
            true,
        ),
        (
            "queue_ccdf_ms.svg",
            "Uplink queueing delay CCDF (samples in the window)",
            "wait of a packet arriving at the sample (ms)",
            false,
        ),
    ] {
        let lines: Vec<(String, Vec<(f64, f64)>)> = s
            .classes
            .iter()
            .map(|c| {
                let h = if pick {
                    &c.queue_hist_pkts
                } else {
                    &c.queue_hist_ms
                };
                (c.name.clone(), ccdf(h))
            })
            .filter(|(_, p)| !p.is_empty())
            .collect();
        steps(&dir.join(file), title, x_label, "P(Q > q)", &lines, true)?;
    }
    Ok(())
}

fn err(e: impl std::fmt::Display) -> anyhow::Error {
    anyhow::anyhow!("{e}")
}

/// Step lines through `(x, y)` points, linear or logarithmic in y.
fn steps(
    path: &Path,
    title: &str,
    x_label: &str,
    y_label: &str,
    lines: &[(String, Vec<(f64, f64)>)],
    log_y: bool,
) -> anyhow::Result<()> {
    let x_max = lines
        .iter()
        .flat_map(|(_, p)| p.iter().map(|q| q.0))
        .fold(0.0f64, f64::max)
        .max(1.0)
        * 1.02;
    let root = SVGBackend::new(path, (800, 450)).into_drawing_area();
    root.fill(&WHITE).map_err(err)?;
    let mut b = ChartBuilder::on(&root);
    b.caption(title, ("sans-serif", 18))
        .margin(10)
        .x_label_area_size(35)
        .y_label_area_size(60);
    // Step from each point to the next: the CDF/CCDF is constant between changes.
    let stepped = |p: &[(f64, f64)], floor: f64| -> Vec<(f64, f64)> {
        let mut out = Vec::with_capacity(p.len() * 2);
        for (i, &(x, y)) in p.iter().enumerate() {
            if i > 0 {
                out.push((x, p[i - 1].1.max(floor)));
            }
            out.push((x, y.max(floor)));
        }
        out
    };
    if log_y {
        let floor = 1e-4;
        let mut c = b
            .build_cartesian_2d(0.0..x_max, (floor..1.0).log_scale())
            .map_err(err)?;
        let stepped: Vec<_> = lines.iter().map(|(l, p)| (l, stepped(p, floor))).collect();
        draw_lines(
            &mut c,
            (x_label, y_label),
            &stepped,
            SeriesLabelPosition::UpperRight,
        )?;
    } else {
        let mut c = b.build_cartesian_2d(0.0..x_max, 0.0..1.0).map_err(err)?;
        let stepped: Vec<_> = lines.iter().map(|(l, p)| (l, stepped(p, 0.0))).collect();
        draw_lines(
            &mut c,
            (x_label, y_label),
            &stepped,
            SeriesLabelPosition::LowerRight,
        )?;
    }
    root.present().map_err(err)?;
    Ok(())
}

/// Draws labelled lines, one colour each, with the mesh and the legend.
fn draw_lines<'a, DB, Y>(
    c: &mut ChartContext<'a, DB, Cartesian2d<RangedCoordf64, Y>>,
    (x_label, y_label): (&str, &str),
    lines: &[(&String, Vec<(f64, f64)>)],
    legend: SeriesLabelPosition,
) -> anyhow::Result<()>
where
    DB: DrawingBackend + 'a,
    Y: Ranged<ValueType = f64> + ValueFormatter<f64>,
{
    c.configure_mesh()
        .x_desc(x_label)
        .y_desc(y_label)
        .draw()
        .map_err(err)?;
    for (i, (label, p)) in lines.iter().enumerate() {
        let colour = COLOURS[i % COLOURS.len()];
        c.draw_series(LineSeries::new(p.iter().copied(), colour))
            .map_err(err)?
            .label(label.as_str())
            .legend(move |(x, y)| PathElement::new(vec![(x, y), (x + 18, y)], colour));
    }
    c.configure_series_labels()
        .border_style(BLACK)
        .background_style(WHITE.mix(0.8))
        .position(legend)
        .draw()
        .map_err(err)?;
    Ok(())
}

/// Download time of every leecher completion against its rank, the discarded transient
/// shaded (seed 003 Fig. 5.2, left).
fn completion_by_rank(path: &Path, s: &SwarmResult) -> anyhow::Result<()> {
    let n = s.completions.len().max(1) as f64;
    let y_max = s
        .completions
        .iter()
        .map(|c| c.download_s)
        .fold(0.0f64, f64::max)
        .max(1.0)
        * 1.05;
    // Ranks before the first measured one are the transient (all of them if none is).
    let transient = s
        .completions
        .iter()
        .position(|c| c.measured)
        .unwrap_or(s.completions.len()) as f64;
    let root = SVGBackend::new(path, (800, 450)).into_drawing_area();
    root.fill(&WHITE).map_err(err)?;
    let mut c = ChartBuilder::on(&root)
        .caption(
            "Download time by completion rank (shaded: discarded transient)",
            ("sans-serif", 18),
        )
        .margin(10)
        .x_label_area_size(35)
        .y_label_area_size(60)
        .build_cartesian_2d(0.0..n + 1.0, 0.0..y_max)
        .map_err(err)?;
    c.configure_mesh()
        .x_desc("completion rank")
        .y_desc("download time (s)")
        .draw()
        .map_err(err)?;
    if transient > 0.0 {
        c.draw_series(std::iter::once(Rectangle::new(
            [(0.0, 0.0), (transient + 0.5, y_max)],
            RGBColor(200, 200, 200).filled(),
        )))
        .map_err(err)?;
    }
    for (i, class) in s.classes.iter().enumerate() {
        let colour = COLOURS[i % COLOURS.len()];
        c.draw_series(
            s.completions
                .iter()
                .filter(|r| r.class == class.name)
                .map(|r| Circle::new((r.rank as f64, r.download_s), 3, colour.filled())),
        )
        .map_err(err)?
        .label(class.name.clone())
        .legend(move |(x, y)| Circle::new((x + 9, y), 3, colour.filled()));
    }
    c.configure_series_labels()
        .border_style(BLACK)
        .background_style(WHITE.mix(0.8))
        .draw()
        .map_err(err)?;
    root.present().map_err(err)?;
    Ok(())
}
