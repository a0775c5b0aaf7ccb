//! Simulator benchmark: wall time, bottleneck packets and events per wall-second, peak
//! memory (VmHWM), for the reference scenario, larger ones, and seed 003's swarm of section
//! 5.1 (`scenarios/seed003/swarm.toml`, run until its 100th completion; its "bottleneck
//! packets" are the packets every peer's uplink serialised).
//!
//! `cargo run --release -p ledbat-sim --example bench` runs every configuration in its own
//! child process (so each peak-memory figure is its own) and prints one line each;
//! `... --example bench -- <name>` runs one.

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
        _ => return None,
    })
}

const ALL: [&str; 8] = [
    "reference",
    "reference-1200s",
    "reference-1200s-noseries",
    "100-flows-1Gbps",
    "1000-flows-1Gbps",
    "swarm-5050-random-stay",
    "swarm-5050-leave-at-once",
    "swarm-tcp-random-stay",
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

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    if let Some(name) = args.first() {
        one(name);
        return;
    }
    let exe = std::env::current_exe().expect("own path");
    for name in ALL {
        let st = std::process::Command::new(&exe)
            .arg(name)
            .status()
            .expect("spawn");
        assert!(st.success(), "{name} failed");
    }
}
