//! `ledbat sim` (one scenario) and `ledbat sweep` (a parameter grid times seeds, in
//! parallel). Outputs are written into a temporary directory next to the destination and
//! renamed into place, so a failed run leaves nothing half-written.

mod plot;
mod swarm_out;

use crate::support::outln;
use crate::support::{write_dir_atomically, LateBar};
use anyhow::{bail, Context};
use ledbat_sim::export::{self, Cells};
use ledbat_sim::sweep::{run_grid, SweepSpec};
use ledbat_sim::{RunResult, Scenario};
use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::time::Instant as WallClock;

/// Arguments of `ledbat sim`.
#[derive(clap::Args, Debug)]
pub struct SimArgs {
    /// Scenario file (TOML; schema in crates/ledbat-sim/SCENARIOS.md).
    pub scenario: PathBuf,
    /// Seed (default: the scenario's `seed`).
    #[arg(long)]
    pub seed: Option<u64>,
    /// Write summary.json, series.csv and SVG plots into this directory (replaced
    /// atomically); for a swarm, summary.json, peers.csv, completions.csv and its plots.
    #[arg(long)]
    pub out: Option<PathBuf>,
    /// Override a scenario key, e.g. `--set flow.0.cc.target=100ms` (repeatable).
    #[arg(long = "set", value_name = "KEY=VALUE")]
    pub set: Vec<String>,
    /// Also print wall time, bottleneck packets and events per wall-second, and peak memory.
    #[arg(long)]
    pub bench: bool,
}

/// Arguments of `ledbat sweep`.
#[derive(clap::Args, Debug)]
pub struct SweepArgs {
    /// Sweep file (TOML: `scenario`, `seeds`, `set`, `[grid]`).
    pub sweep: PathBuf,
    /// Parallel runs (default: available cores).
    #[arg(long)]
    pub jobs: Option<usize>,
    /// Output directory for runs.csv and means.csv (default: `<sweep stem>-results` next to
    /// the sweep file).
    #[arg(long)]
    pub out: Option<PathBuf>,
}

fn load_scenario(path: &Path, set: &[String]) -> anyhow::Result<Scenario> {
    let text =
        std::fs::read_to_string(path).with_context(|| format!("reading {}", path.display()))?;
    let mut sc = Scenario::from_toml_with(&text, set)
        .map_err(|e| anyhow::anyhow!("{}: {e}", path.display()))?;
    if sc.name.is_empty() {
        sc.name = path
            .file_stem()
            .map(|s| s.to_string_lossy().into_owned())
            .unwrap_or_default();
    }
    Ok(sc)
}

/// Peak resident set size of this process in kB (Linux `VmHWM`).
pub fn peak_rss_kb() -> Option<u64> {
    let s = std::fs::read_to_string("/proc/self/status").ok()?;
    s.lines()
        .find(|l| l.starts_with("VmHWM:"))?
        .split_whitespace()
        .nth(1)?
        .parse()
        .ok()
}

/// Runs one scenario.
pub fn run_sim(a: SimArgs) -> anyhow::Result<()> {
    let sc = load_scenario(&a.scenario, &a.set)?;
    let seed = a.seed.unwrap_or(sc.seed);
    let mut bar = LateBar::new(
        1000,
        "{spinner} simulating [{bar:40}] {percent}% ({elapsed})",
    );
    let t0 = WallClock::now();
    let r = ledbat_sim::run_with_progress(&sc, seed, &mut |f| bar.set((f * 1000.0) as u64))?;
    let wall = t0.elapsed().as_secs_f64();
    bar.finish();
    print!("{}", summary_table(&r));
    if let Some(s) = &r.swarm {
        print!("{}", swarm_out::summary_table(s));
    }
    if !r.conservation.holds {
        bail!("packet conservation violated: {:?}", r.conservation);
    }
    if a.bench {
        outln!(
            "bench: wall {:.3} s, simulated {:.1} s, bottleneck packets {} ({:.2} M/wall-s), events {} ({:.2} M/wall-s), peak packets in network {}, peak RSS {} kB",
            wall,
            r.duration_s,
            r.engine.bottleneck_packets,
            r.engine.bottleneck_packets as f64 / wall / 1e6,
            r.engine.events,
            r.engine.events as f64 / wall / 1e6,
            r.engine.peak_packets,
            peak_rss_kb().map_or("?".into(), |k| k.to_string())
        );
    }
    if let Some(out) = &a.out {
        write_dir_atomically(out, |dir| write_run(dir, &sc, &r))?;
        outln!("wrote {}", out.display());
    }
    Ok(())
}

fn opt(v: Option<f64>, digits: usize) -> String {
    v.map_or("-".into(), |x| format!("{x:.digits$}"))
}

/// The human summary printed by `ledbat sim`.
pub fn summary_table(r: &RunResult) -> String {
    let mut s = String::new();
    let a = &r.aggregate;
    let _ = writeln!(
        s,
        "{} (seed {}): {:.1} s simulated, metrics from {:.1} s",
        if r.scenario.is_empty() {
            "scenario"
        } else {
            &r.scenario
        },
        r.seed,
        r.duration_s,
        r.warmup_s
    );
    let _ = writeln!(
        s,
        "throughput {:.3} Mb/s  eta {:.3}  Jain long {}  short {}  TCP share {:.3}  loss {:.4}",
        a.throughput_bps / 1e6,
        a.efficiency,
        opt(a.jain_long, 3),
        opt(a.jain_short, 3),
        a.tcp_share,
        a.loss_rate
    );
    if !r.flows.is_empty() {
        let _ = writeln!(
            s,
            "{:<16} {:<12} {:>10} {:>9} {:>8} {:>8} {:>8} {:>7} {:>6} {:>8}",
            "flow",
            "controller",
            "Mb/s",
            "cwnd",
            "sd",
            "rtt ms",
            "loss",
            "retx",
            "RTOs",
            "steady s"
        );
    }
    for f in &r.flows {
        let _ = writeln!(
            s,
            "{:<16} {:<12} {:>10.3} {:>9.2} {:>8.2} {:>8} {:>8.4} {:>7} {:>6} {:>8}",
            f.name,
            f.controller,
            f.throughput_bps / 1e6,
            f.cwnd_mean_pkts,
            f.cwnd_sd_pkts,
            opt(f.rtt_mean_ms, 1),
            f.loss_rate,
            f.retransmits,
            f.timeouts,
            opt(f.time_to_steady_s, 1)
        );
        if !f.completions.is_empty() {
            let mean =
                f.completions.iter().map(|c| c.time_s).sum::<f64>() / f.completions.len() as f64;
            let _ = writeln!(
                s,
                "{:<16} {} completions, mean {:.3} s",
                "",
                f.completions.len(),
                mean
            );
        }
    }
    if !r.links.is_empty() {
        let _ = writeln!(
            s,
            "{:<16} {:>6} {:>9} {:>9} {:>8} {:>8} {:>8} {:>8} {:>8} {:>7}",
            "link", "util", "q arrival", "q time", "q/B", "qd ms", "sd", "p95", "p99", "loss"
        );
    }
    for l in &r.links {
        let _ = writeln!(
            s,
            "{:<16} {:>6.3} {:>9.2} {:>9.2} {:>8} {:>8.2} {:>8.2} {:>8} {:>8} {:>7.4}",
            l.name,
            l.utilisation,
            l.queue_mean_arrival_pkts,
            l.queue_mean_time_pkts,
            opt(l.queue_mean_over_buffer, 3),
            l.qdelay_mean_ms,
            l.qdelay_sd_ms,
            opt(l.qdelay_p95_ms, 2),
            opt(l.qdelay_p99_ms, 2),
            l.loss_rate
        );
    }
    let c = &r.conservation;
    let _ = writeln!(
        s,
        "packets: sent {} = delivered {} + dropped {} + in network {} ({})",
        c.sent,
        c.delivered,
        c.dropped,
        c.in_network,
        if c.holds { "ok" } else { "VIOLATED" }
    );
    s
}

fn write_run(dir: &Path, sc: &Scenario, r: &RunResult) -> anyhow::Result<()> {
    std::fs::write(dir.join("summary.json"), export::summary_json(r))?;
    std::fs::write(dir.join("scenario.toml"), sc.to_toml())?;
    if let Some(s) = &r.series {
        std::fs::write(dir.join("series.csv"), export::series_table(s).to_csv())?;
        std::fs::write(dir.join("states.csv"), export::states_table(s).to_csv())?;
        std::fs::write(dir.join("tests.csv"), export::tests_table(s).to_csv())?;
        plot::write_plots(dir, s)?;
    }
    if let Some(s) = &r.swarm {
        swarm_out::write_files(dir, s)?;
    }
    Ok(())
}

/// Runs a sweep.
pub fn run_sweep(a: SweepArgs) -> anyhow::Result<()> {
    let text = std::fs::read_to_string(&a.sweep)
        .with_context(|| format!("reading {}", a.sweep.display()))?;
    let spec =
        SweepSpec::from_toml(&text).map_err(|e| anyhow::anyhow!("{}: {e}", a.sweep.display()))?;
    let base_path = a
        .sweep
        .parent()
        .unwrap_or(Path::new("."))
        .join(&spec.scenario);
    let base = std::fs::read_to_string(&base_path)
        .with_context(|| format!("reading scenario {}", base_path.display()))?;
    let points = spec
        .points(&base)
        .map_err(|e| anyhow::anyhow!("{}: {e}", a.sweep.display()))?;
    let seeds = spec.seed_list();
    let total = points.len() * seeds.len();
    let out = a.out.clone().unwrap_or_else(|| {
        let stem = a
            .sweep
            .file_stem()
            .map(|s| s.to_string_lossy().into_owned())
            .unwrap_or_else(|| "sweep".into());
        a.sweep
            .parent()
            .unwrap_or(Path::new("."))
            .join(format!("{stem}-results"))
    });
    let bar = std::sync::Mutex::new(LateBar::new(
        total as u64,
        "{spinner} runs [{bar:40}] {pos}/{len} ({elapsed}, eta {eta})",
    ));
    let runs = run_grid(&points, &seeds, a.jobs.unwrap_or(0), &|n| {
        if let Ok(mut b) = bar.lock() {
            b.set(n as u64);
        }
    });
    if let Ok(b) = bar.lock() {
        b.finish();
    }
    let runs = runs?;
    let keys = spec.param_keys();
    let params: Vec<Vec<String>> = points
        .iter()
        .map(|p| p.params.iter().map(|(_, v)| v.clone()).collect())
        .collect();
    let tables = export::sweep_tables(&keys, &params, &runs);
    let (eta, eta_ci) = match (
        tables.means.column("efficiency.mean"),
        tables.means.column("efficiency.ci95"),
    ) {
        (Some(Cells::Float { values: m, .. }), Some(Cells::Float { values: h, .. })) => {
            (m.clone(), h.clone())
        }
        _ => (vec![f64::NAN; points.len()], vec![f64::NAN; points.len()]),
    };
    let mut table = String::new();
    for (p, point) in points.iter().enumerate() {
        let params: Vec<String> = point
            .params
            .iter()
            .map(|(k, v)| format!("{k}={v}"))
            .collect();
        let _ = writeln!(
            table,
            "{:<60} eta {:.3} +/- {}",
            if params.is_empty() {
                "(base)".into()
            } else {
                params.join(" ")
            },
            eta[p],
            if eta_ci[p].is_finite() {
                format!("{:.3}", eta_ci[p])
            } else {
                "-".into()
            }
        );
    }
    write_dir_atomically(&out, |dir| {
        std::fs::write(dir.join("runs.csv"), tables.runs.to_csv())?;
        std::fs::write(dir.join("means.csv"), tables.means.to_csv())?;
        Ok(())
    })?;
    print!("{table}");
    outln!(
        "{} runs ({} grid points x {} seeds); wrote {}",
        runs.len(),
        points.len(),
        seeds.len(),
        out.display()
    );
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sim_writes_identical_files_for_the_same_seed_and_sweep_writes_csvs() {
        let dir = crate::tmpdir("sim-run");
        let base = dir.path();
        let sc = base.join("s.toml");
        std::fs::write(
            &sc,
            "duration = \"3s\"\n[[flow]]\ncc = { name = \"ledbat\", target = \"25ms\" }\n",
        )
        .unwrap();
        let files = [
            "summary.json",
            "series.csv",
            "states.csv",
            "tests.csv",
            "cwnd.svg",
            "queue.svg",
            "throughput.svg",
            "scenario.toml",
        ];
        let mut outs = Vec::new();
        for k in 0..2 {
            let out = base.join(format!("out{k}"));
            run_sim(SimArgs {
                scenario: sc.clone(),
                seed: Some(3),
                out: Some(out.clone()),
                set: vec![],
                bench: false,
            })
            .unwrap();
            outs.push(files.map(|f| std::fs::read(out.join(f)).unwrap()));
        }
        assert!(
            outs[0] == outs[1],
            "same scenario and seed must give byte-identical files"
        );
        let sw = base.join("sw.toml");
        std::fs::write(
            &sw,
            "scenario = \"s.toml\"\nseeds = 2\n[grid]\n\"topology.queue.packets\" = [20, 50]\n",
        )
        .unwrap();
        let out = base.join("sweep");
        run_sweep(SweepArgs {
            sweep: sw,
            jobs: Some(2),
            out: Some(out.clone()),
        })
        .unwrap();
        let runs = std::fs::read_to_string(out.join("runs.csv")).unwrap();
        assert_eq!(runs.lines().count(), 1 + 4);
        assert!(runs.starts_with("topology.queue.packets,seed,efficiency"));
        let means = std::fs::read_to_string(out.join("means.csv")).unwrap();
        assert_eq!(means.lines().count(), 1 + 2);
        assert!(means.lines().next().unwrap().contains("efficiency.ci95"));
    }

    #[test]
    fn a_swarm_writes_its_tables_and_plots_identically_for_the_same_seed() {
        let dir = crate::tmpdir("sim-swarm");
        let base = dir.path();
        let sc = base.join("swarm.toml");
        std::fs::write(
            &sc,
            "duration = \"600s\"\n[topology]\nkind = \"star\"\n[swarm]\n\
             file_size = \"512KiB\"\npiece_size = \"64KiB\"\nleechers = 6\n\
             arrival = { kind = \"all-at-once\" }\ndiscard = 2\nmeasure = 4\n\
             [[swarm.class]]\nname = \"ledbat\"\ndisposition = 14\n\
             [[swarm.class]]\nname = \"tcp\"\ndisposition = 13\n",
        )
        .unwrap();
        let files = [
            "summary.json",
            "scenario.toml",
            "peers.csv",
            "completions.csv",
            "completion_cdf.svg",
            "completion_rank.svg",
            "queue_ccdf.svg",
            "queue_ccdf_ms.svg",
        ];
        let mut outs = Vec::new();
        for k in 0..2 {
            let out = base.join(format!("out{k}"));
            run_sim(SimArgs {
                scenario: sc.clone(),
                seed: Some(5),
                out: Some(out.clone()),
                set: vec![],
                bench: false,
            })
            .unwrap();
            outs.push(files.map(|f| std::fs::read(out.join(f)).unwrap()));
        }
        assert!(outs[0] == outs[1], "same seed, byte-identical files");
        let peers = String::from_utf8(outs[0][2].clone()).unwrap();
        assert!(peers.starts_with("id,class,initial_seed,"));
        assert!(
            peers.lines().count() > 7,
            "a header, the seed and six leechers"
        );
        let done = String::from_utf8(outs[0][3].clone()).unwrap();
        let measured = done.lines().skip(1).filter(|l| l.ends_with(",1")).count();
        assert_eq!(measured, 4);
        assert!(!base.join("out0").join("series.csv").exists(), "no series");
    }
}
