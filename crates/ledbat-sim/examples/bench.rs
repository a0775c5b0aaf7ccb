//! Simulator benchmark: wall time, bottleneck packets and events per wall-second, peak
//! memory (VmHWM), for the reference scenario, larger ones, and seed 003's swarm of section
//! 5.1 (`scenarios/seed003/swarm.toml`, run until its 100th completion; its "bottleneck
//! packets" are the packets every peer's uplink serialised).
//!
//! `cargo run --release -p ledbat-sim --example bench` runs every configuration in its own
//! child process (so each peak-memory figure is its own), prints one line each, then each
//! swarm's CPU time per packet as a multiple of the 1200-s dumbbell's, measured in the same
//! invocation; `... --example bench -- <name>` runs one configuration in this process, and
//! `... -- <name> <name> ...` runs those (e.g. `reference-1200s flashcrowd-100MB`, the
//! flash crowd's ratio to the dumbbell).

use ledbat_sim::{run, Scenario};
use std::time::Instant as WallClock;

/// The reference: 10 Mb/s, RTT 50 ms, DropTail 100, one LEDBAT + one NewReno, 120 s.
const REFERENCE: &str = r#"
name = "reference"
duration = "120s"
[topology]
kind = "dumbbell"
rate = "10Mbps"
delay = "20ms"
queue = { kind = "droptail", packets = 100 }
[[flow]]
cc = { name = "ledbat", target = "25ms" }
[[flow]]
cc = { name = "newreno" }
"#;

/// Seed 003 section 5.1: 1 seed, 100 leechers at 0.1 Hz, 50-50 LEDBAT/TCP, random stay.
const SWARM: &str = include_str!("../../../scenarios/seed003/swarm.toml");

/// Seed 003 chapter 6: 1 seed and 75 leechers at once, 100-MB file, 13/14 at 50/50.
const FLASH: &str = include_str!("../../../scenarios/seed003/swarm-flashcrowd.toml");

fn config(name: &str) -> Option<(String, Vec<String>)> {
    let s = |v: &[&str]| v.iter().map(|x| x.to_string()).collect::<Vec<_>>();
    Some(match name {
        "reference" => (REFERENCE.into(), vec![]),
        // Ten times the packets: memory must not grow.
        "reference-1200s" => (REFERENCE.into(), s(&["duration=1200s"])),
        // The same without time series (which grow with simulated time, not packets).
        "reference-1200s-noseries" => (REFERENCE.into(), s(&["duration=1200s", "series=false"])),
        // Flows and queue grow: memory grows with them.
        "100-flows-1Gbps" => (
            REFERENCE.into(),
            s(&[
                "topology.rate=1Gbps",
                "topology.queue.packets=1000",
                "flow.0.count=50",
                "flow.1.count=50",
                "duration=30s",
            ]),
        ),
        "1000-flows-1Gbps" => (
            REFERENCE.into(),
            s(&[
                "topology.rate=1Gbps",
                "topology.queue.packets=4000",
                "flow.0.count=500",
                "flow.1.count=500",
                "duration=30s",
            ]),
        ),
        "swarm-5050-random-stay" => (SWARM.into(), vec![]),
        "swarm-5050-leave-at-once" => {
            (SWARM.into(), s(&["swarm.seed_behaviour=\"leave-at-once\""]))
        }
        "swarm-tcp-random-stay" => (SWARM.into(), s(&["swarm.class.0.share=0"])),
        // The thesis's 100-MB flash crowd, run to its last completion.
        "flashcrowd-100MB" => (FLASH.into(), vec![]),
        // The same with the golden tests' 10-MiB file (a tenth of the packets).
        "flashcrowd-10MiB" => (
            FLASH.into(),
            s(&["swarm.file_size=\"10MiB\"", "swarm.piece_size=\"128KiB\""]),
        ),
        _ => return None,
    })
}

const ALL: [&str; 10] = [
    "reference",
    "reference-1200s",
    "reference-1200s-noseries",
    "100-flows-1Gbps",
    "1000-flows-1Gbps",
    "swarm-5050-random-stay",
    "swarm-5050-leave-at-once",
    "swarm-tcp-random-stay",
    "flashcrowd-100MB",
    "flashcrowd-10MiB",
];

fn peak_rss_kb() -> Option<u64> {
    let s = std::fs::read_to_string("/proc/self/status").ok()?;
    s.lines()
        .find(|l| l.starts_with("VmHWM:"))?
        .split_whitespace()
        .nth(1)?
        .parse()
        .ok()
}

/// CPU time this (single-threaded) process has run, from `/proc/self/schedstat` (ns).
fn cpu_ns() -> Option<u64> {
    std::fs::read_to_string("/proc/self/schedstat")
        .ok()?
        .split_whitespace()
        .next()?
        .parse()
        .ok()
}

fn one(name: &str) {
    let (text, sets) =
        config(name).unwrap_or_else(|| panic!("unknown configuration {name}; known: {ALL:?}"));
    let sc = Scenario::from_toml_with(&text, &sets).expect("valid benchmark scenario");
    let c0 = cpu_ns();
    let t0 = WallClock::now();
    let r = run(&sc, 1).expect("run");
    let wall = t0.elapsed().as_secs_f64();
    let cpu = match (c0, cpu_ns()) {
        (Some(a), Some(b)) => (b - a) as f64 * 1e-9,
        _ => f64::NAN,
    };
    assert!(r.conservation.holds);
    println!(
        "{name:<26} flows {:>4}  sim {:>5.0} s  wall {:>6.3} s  cpu {:>6.3} s  bottleneck pkts {:>8}  {:>5.2} M pkts/wall-s  {:>5.2} M pkts/cpu-s  events {:>9}  {:>5.2} M ev/wall-s  peak pkts in net {:>5}  peak RSS {:>6} kB  eta {:.3}",
        r.flows.len(),
        r.duration_s,
        wall,
        cpu,
        r.engine.bottleneck_packets,
        r.engine.bottleneck_packets as f64 / wall / 1e6,
        r.engine.bottleneck_packets as f64 / cpu / 1e6,
        r.engine.events,
        r.engine.events as f64 / wall / 1e6,
        r.engine.peak_packets,
        peak_rss_kb().unwrap_or(0),
        r.aggregate.efficiency,
    );
}

/// The `M pkts/cpu-s` figure of one of [`one`]'s lines.
fn pkts_per_cpu_s(line: &str) -> Option<f64> {
    let w: Vec<&str> = line.split_whitespace().collect();
    let i = w
        .windows(3)
        .position(|p| p[1] == "M" && p[2] == "pkts/cpu-s")?;
    w[i].parse().ok()
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    if let [name] = args.as_slice() {
        one(name);
        return;
    }
    let names: Vec<&str> = if args.is_empty() {
        ALL.to_vec()
    } else {
        args.iter().map(String::as_str).collect()
    };
    let exe = std::env::current_exe().expect("own path");
    let mut figures = Vec::new();
    for name in names {
        let out = std::process::Command::new(&exe)
            .arg(name)
            .stderr(std::process::Stdio::inherit())
            .output()
            .expect("spawn");
        assert!(out.status.success(), "{name} failed");
        let text = String::from_utf8_lossy(&out.stdout);
        print!("{text}");
        if let Some(f) = text.lines().last().and_then(pkts_per_cpu_s) {
            figures.push((name, f));
        }
    }
    // Each swarm's cost per packet against the 1200-s dumbbell's, from this one invocation.
    if let Some(&(dumbbell, base)) = figures.iter().find(|(n, _)| *n == "reference-1200s") {
        for (name, f) in figures
            .iter()
            .filter(|(n, _)| n.contains("swarm") || n.contains("flash"))
        {
            println!(
                "cpu per packet, {name} / {dumbbell}: {:.2} ({base:.2} / {f:.2} M pkts/cpu-s)",
                base / f
            );
        }
    }
}
