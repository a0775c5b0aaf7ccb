//! The time-left estimate of a recorded `ledbat repro` batch against the true time left:
//! as the run printed it (the trace's `eta_s`), and replayed through
//! `ledbat_repro::eta::Estimator` with every run in one pool and per scenario file (the
//! runs' traced times, heaviest first on WORKERS workers; `eta::replay`).
//!
//! `LEDBAT_REPRO_TRACE=T ledbat repro ...; cargo run --release -p ledbat-repro --example
//! eta_replay -- T [WORKERS]` (a trace of one batch: one `--seeds N` run).

use ledbat_repro::eta::{live, parse_trace, replay};

fn cell((eta, truth): (Option<f64>, f64)) -> String {
    match eta {
        None => format!("estimating / {truth:.0} s"),
        Some(e) if truth > 0.0 => format!("{e:.0} / {truth:.0} s ({:.2})", e / truth),
        Some(e) => format!("{e:.0} / 0 s"),
    }
}

fn main() -> Result<(), String> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let path = args.first().ok_or("usage: eta_replay TRACE [WORKERS]")?;
    let workers: usize = match args.get(1) {
        Some(w) => w
            .parse()
            .map_err(|_| format!("WORKERS: `{w}` is not a count"))?,
        None => 2,
    };
    let text = std::fs::read_to_string(path).map_err(|e| format!("{path}: {e}"))?;
    let rows = parse_trace(&text)?;
    // The first minutes, then the last five a minute apart: the last files to run are
    // priced from few runs of their own, so errors in their weights show there.
    let end = rows.iter().map(|r| r.wall_s).fold(0.0, f64::max);
    let mut at = vec![15.0, 30.0, 60.0, 120.0, 240.0, 480.0];
    at.extend(
        (1..=5)
            .rev()
            .map(|m| end - 60.0 * f64::from(m))
            .filter(|&t| t > 480.0)
            .map(f64::round),
    );
    let secs: f64 = rows.iter().map(|r| r.secs).sum();
    println!(
        "{} runs, {secs:.1} s of run time, {workers} workers",
        rows.len()
    );
    println!(
        "| estimate / truth at | {} |",
        at.iter()
            .map(|t| format!("{t} s"))
            .collect::<Vec<_>>()
            .join(" | ")
    );
    println!("|---|{}", "---|".repeat(at.len()));
    for (name, out) in [
        ("printed live", live(&rows, &at)),
        ("replayed, one pool", replay(&rows, workers, false, &at)),
        ("replayed, per file", replay(&rows, workers, true, &at)),
    ] {
        let cells: Vec<String> = out.into_iter().map(cell).collect();
        println!("| {name} | {} |", cells.join(" | "));
    }
    Ok(())
}
