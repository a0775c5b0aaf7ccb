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
//!
//! `--rounds N` runs the named configurations N times, in turn (`a b a b ...`), and gives each
//! swarm's ratio to the dumbbell per round, then their median and range. The 1200-s dumbbell
//! takes a fifth of a second of CPU, so one invocation's ratio moves with whatever else the
//! machine does in that fifth of a second; rounds side by side show that spread.

use ledbat_sim::{run, stats::median, Scenario};
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
    let mut args: Vec<String> = std::env::args().skip(1).collect();
    let rounds = match take_rounds(&mut args) {
        Ok(r) => r,
        Err(e) => {
            eprintln!("bench: {e}");
            std::process::exit(2);
        }
    };
    if let (1, [name]) = (rounds, args.as_slice()) {
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
    for round in 1..=rounds {
        if rounds > 1 {
            println!("round {round} of {rounds}");
        }
        let mut this = Vec::new();
        for &name in &names {
            let out = std::process::Command::new(&exe)
                .arg(name)
                .stderr(std::process::Stdio::inherit())
                .output()
                .expect("spawn");
            assert!(out.status.success(), "{name} failed");
            let text = String::from_utf8_lossy(&out.stdout);
            print!("{text}");
            if let Some(f) = text.lines().last().and_then(pkts_per_cpu_s) {
                this.push((name, f));
            }
        }
        figures.push(this);
    }
    for line in ratio_lines(&figures) {
        println!("{line}");
    }
}

/// Removes `--rounds N` from `args`: N, or 1 without it.
fn take_rounds(args: &mut Vec<String>) -> Result<usize, String> {
    let Some(i) = args.iter().position(|a| a == "--rounds") else {
        return Ok(1);
    };
    let value = args
        .get(i + 1)
        .ok_or("--rounds needs a number of rounds")?
        .clone();
    let n = value
        .parse::<usize>()
        .ok()
        .filter(|&n| n > 0)
        .ok_or(format!(
            "--rounds {value}: not a whole number of at least 1"
        ))?;
    args.drain(i..i + 2);
    Ok(n)
}

/// Each swarm's CPU time per packet as a multiple of the 1200-s dumbbell's, from the
/// figures (M packets per CPU-second) of each round: a line per round and swarm, and with
/// more than one round a line per swarm with the median and range of its rounds' ratios.
fn ratio_lines(rounds: &[Vec<(&str, f64)>]) -> Vec<String> {
    const DUMBBELL: &str = "reference-1200s";
    let is_swarm = |n: &str| n.contains("swarm") || n.contains("flash");
    let mut lines = Vec::new();
    let mut per_swarm: Vec<(&str, Vec<f64>)> = Vec::new();
    for (r, figures) in rounds.iter().enumerate() {
        let Some(&(_, base)) = figures.iter().find(|(n, _)| *n == DUMBBELL) else {
            continue;
        };
        let round = if rounds.len() > 1 {
            format!(" (round {})", r + 1)
        } else {
            String::new()
        };
        for &(name, f) in figures.iter().filter(|(n, _)| is_swarm(n)) {
            let ratio = base / f;
            lines.push(format!(
                "cpu per packet, {name} / {DUMBBELL}{round}: {ratio:.2} ({base:.2} / {f:.2} M pkts/cpu-s)"
            ));
            match per_swarm.iter_mut().find(|(n, _)| *n == name) {
                Some((_, v)) => v.push(ratio),
                None => per_swarm.push((name, vec![ratio])),
            }
        }
    }
    if rounds.len() > 1 {
        // What else runs on the machine only ever slows a run down, so each configuration's
        // fastest round is the least disturbed figure of its own cost.
        let best = |name: &str| {
            rounds
                .iter()
                .flatten()
                .filter(|(n, _)| *n == name)
                .map(|&(_, f)| f)
                .fold(f64::NAN, f64::max)
        };
        let base = best(DUMBBELL);
        for (name, mut v) in per_swarm {
            v.sort_by(f64::total_cmp);
            let f = best(name);
            lines.push(format!(
                "cpu per packet, {name} / {DUMBBELL}, {} rounds: median {:.2} [{:.2}..{:.2}]; \
                 fastest of each {:.2} ({base:.2} / {f:.2} M pkts/cpu-s)",
                v.len(),
                median(&v).expect("a swarm in the list has a round"),
                v[0],
                v[v.len() - 1],
                base / f
            ));
        }
    }
    lines
}

#[cfg(test)]
mod tests {
    use super::*;

    fn strings(v: &[&str]) -> Vec<String> {
        v.iter().map(|s| s.to_string()).collect()
    }

    #[test]
    fn rounds_are_taken_out_of_the_names() {
        let mut a = strings(&["reference-1200s", "--rounds", "5", "flashcrowd-100MB"]);
        assert_eq!(take_rounds(&mut a), Ok(5));
        assert_eq!(a, strings(&["reference-1200s", "flashcrowd-100MB"]));
        let mut b = strings(&["flashcrowd-10MiB"]);
        assert_eq!(take_rounds(&mut b), Ok(1));
        assert_eq!(b, strings(&["flashcrowd-10MiB"]));
    }

    #[test]
    fn a_bad_round_count_is_refused_by_name() {
        for bad in [&["--rounds"][..], &["--rounds", "0"], &["--rounds", "two"]] {
            let e = take_rounds(&mut strings(bad)).unwrap_err();
            assert!(e.starts_with("--rounds"), "{e}");
        }
    }

    #[test]
    fn each_round_is_compared_with_its_own_dumbbell() {
        // Rounds' ratios: 8 / 2 = 4, 4 / 3.2 = 1.25, 9 / 3 = 3: median 3, range 1.25..4. The
        // fastest of each come from different rounds: the dumbbell's 9 (round 3) and the
        // crowd's 3.2 (round 2): 9 / 3.2 = 2.8125.
        let rounds = vec![
            vec![("reference-1200s", 8.0), ("flashcrowd-100MB", 2.0)],
            vec![("reference-1200s", 4.0), ("flashcrowd-100MB", 3.2)],
            vec![("reference-1200s", 9.0), ("flashcrowd-100MB", 3.0)],
        ];
        let lines = ratio_lines(&rounds);
        assert_eq!(lines.len(), 4);
        assert!(
            lines[0].ends_with("(round 1): 4.00 (8.00 / 2.00 M pkts/cpu-s)"),
            "{}",
            lines[0]
        );
        assert!(lines[1].ends_with("(round 2): 1.25 (4.00 / 3.20 M pkts/cpu-s)"));
        assert_eq!(
            lines[3],
            "cpu per packet, flashcrowd-100MB / reference-1200s, 3 rounds: median 3.00 \
             [1.25..4.00]; fastest of each 2.81 (9.00 / 3.20 M pkts/cpu-s)"
        );
    }

    #[test]
    fn one_round_prints_the_ratio_alone() {
        let lines = ratio_lines(&[vec![("flashcrowd-10MiB", 2.5), ("reference-1200s", 5.0)]]);
        assert_eq!(
            lines,
            ["cpu per packet, flashcrowd-10MiB / reference-1200s: 2.00 (5.00 / 2.50 M pkts/cpu-s)"]
        );
    }
}
