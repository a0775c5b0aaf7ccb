//! Progress of `ledbat repro` on stderr: runs done of the total, runs read from the cache,
//! and an estimate of the time left; at the end, wall time, CPU time and cache hits.
//!
//! Runs differ in cost by three orders of magnitude (a 2-s dumbbell against a swarm of 100
//! leechers), so each run has a weight before it starts, [`cost`], the packets it is
//! expected to carry, and the runner starts one pilot per scenario file (its cheapest run),
//! then the heaviest first ([`crate::schedule::pilots_first`]). The
//! time left is [`crate::eta`]'s [`Estimator`]: each run priced by its instance's own runs,
//! else by the seconds per unit of weight of its scenario file's runs, else of every run,
//! and the runs left played forward through that schedule on the workers.
//! Measured in `docs/repro/README.md`; with the weight `duration × link rates` for swarms
//! too (up to 100 times too high for them) it was off by a factor of 10 for minutes.
//!
//! On a terminal the line is redrawn in place (at most 5 times a second); otherwise a plain
//! line is printed every 5 % of the runs, and at least once a minute while runs finish (the
//! heaviest runs go first, so the first 5 % can take many minutes).

use ledbat_sim::scenario::Topology;
use ledbat_sim::Scenario;
use std::io::{IsTerminal, Write};
use std::sync::Mutex;
use std::time::{Duration, Instant};

/// How many times a packet of a swarm costs one of a dumbbell's flows: measured on
/// `ledbat repro --quick seed003` (docs/repro/README.md), 0.9 µs of simulation per packet
/// of capacity of the dumbbells (table21.toml) against 7 to 18 µs per packet downloaded for
/// the swarms (swarm-target.toml, swarm.toml, swarm-flashcrowd.toml): peers, connections,
/// choking rounds and piece picking per packet.
pub const SWARM_PACKET_COST: f64 = 10.0;

/// How many times a packet of a flash crowd (every leecher at t = 0) costs one of a swarm
/// whose leechers arrive over time: on two traces of `ledbat repro --quick --seeds 8
/// seed003` (docs/repro/README.md) swarm-flashcrowd.toml took 4.1 and 1.8 times
/// swarm.toml's seconds per packet (the load of the shared machine changed under them); 3
/// keeps the time-left estimate within 0.8-1.4 of the truth up to 1 min on both, 4 within
/// 0.62-1.10, 1 (the two weighted alike) 0.43-0.55 on the first: weighted at half a
/// Poisson swarm's run, the flash crowds ran after the other swarms, priced by them.
pub const FLASH_CROWD_PACKET_COST: f64 = 3.0;

/// The relative cost of simulating `sc` (see the module comment): the packets it is
/// expected to carry. A swarm carries its leechers' downloads, `leechers × file_size / mss`,
/// however long the run may last, each counted [`SWARM_PACKET_COST`] times (and
/// [`FLASH_CROWD_PACKET_COST`] times more when every leecher arrives at once); flows, what the
/// links could carry in the simulated time, `duration × Σ link rates / (8 × mss)`, infinite
/// links counting nothing, or when every flow is a finite transfer and they carry less, what
/// they carry: `2 × Σ count × bytes / mss` (a data packet and its ACK each, as a link's
/// capacity counts both ways; an idle link costs a discrete-event run nothing, so a 30-MB
/// transfer in a 1300-s run costs a thirtieth of a 1-GB one, not the same). At least 1.
pub fn cost(sc: &Scenario) -> f64 {
    let mss = f64::from(sc.mss.max(1));
    if let Some(sw) = &sc.swarm {
        let packets = f64::from(sw.leechers) * sw.file_size.0 as f64 / mss;
        let crowd = match sw.arrival {
            ledbat_sim::scenario::swarm::Arrival::AllAtOnce => FLASH_CROWD_PACKET_COST,
            ledbat_sim::scenario::swarm::Arrival::Poisson { .. } => 1.0,
        };
        return (SWARM_PACKET_COST * crowd * packets).max(1.0);
    }
    let bps = |r: ledbat_sim::units::Rate| {
        if r.is_infinite() {
            0.0
        } else {
            r.bits_per_sec() as f64
        }
    };
    let rate = match &sc.topology {
        Topology::Dumbbell(d) => bps(d.rate) + d.reverse_rate.map_or(bps(d.rate), bps),
        Topology::Star(s) => s.hosts.iter().map(|h| f64::from(h.count) * bps(h.up)).sum(),
    };
    let capacity = sc.duration.as_secs_f64() * rate / (8.0 * mss);
    let offered = sc
        .flows
        .iter()
        .map(|f| match &f.traffic {
            ledbat_sim::scenario::Traffic::Transfer(t) => {
                2.0 * f64::from(f.count) * t.bytes as f64 / mss
            }
            _ => f64::INFINITY,
        })
        .sum::<f64>();
    capacity.min(offered).max(1.0)
}

pub use crate::eta::Estimator;

struct State {
    est: Estimator,
    last_print: Option<Instant>,
    next_line: usize,
    trace: Option<std::io::BufWriter<std::fs::File>>,
}

/// The environment variable naming a file to which every finished run is appended as a
/// tab-separated line (see [`Progress::finished`]), to measure the estimate afterwards.
pub const TRACE_ENV: &str = "LEDBAT_REPRO_TRACE";

/// The progress of one set of runs.
pub struct Progress {
    enabled: bool,
    tty: bool,
    labels: Vec<String>,
    start: Instant,
    cpu_start: Option<Duration>,
    state: Mutex<State>,
}

/// What a finished set of runs cost.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Summary {
    /// Runs.
    pub runs: usize,
    /// Of them, read from the cache.
    pub hits: usize,
    /// Wall time, s.
    pub wall_s: f64,
    /// CPU time of the process (user + system, every thread) over the same span, s; `None`
    /// where it cannot be read.
    pub cpu_s: Option<f64>,
}

impl Summary {
    /// `repro: 612 runs (600 from the cache) in 12.3 s wall, 20.1 s CPU`.
    pub fn line(&self) -> String {
        let cpu = self
            .cpu_s
            .map_or(String::new(), |c| format!(", {} CPU", fmt_secs(c)));
        format!(
            "repro: {} runs ({} from the cache) in {} wall{cpu}",
            self.runs,
            self.hits,
            fmt_secs(self.wall_s)
        )
    }
}

/// `42 s`, `3 min 05 s`, `1 h 02 min`.
pub fn fmt_secs(s: f64) -> String {
    let s = s.max(0.0);
    if s < 60.0 {
        return format!("{s:.1} s");
    }
    let t = s.round() as u64;
    if t < 3600 {
        format!("{} min {:02} s", t / 60, t % 60)
    } else {
        format!("{} h {:02} min", t / 3600, (t % 3600) / 60)
    }
}

/// User + system CPU time of this process, from `/proc/self/stat` (fields 14 and 15, in
/// clock ticks of 1/100 s, the value on every Linux platform this runs on).
pub fn cpu_time() -> Option<Duration> {
    let stat = std::fs::read_to_string("/proc/self/stat").ok()?;
    parse_cpu(&stat)
}

fn parse_cpu(stat: &str) -> Option<Duration> {
    // The command name (field 2) is in parentheses and may hold spaces: count after it.
    let rest = &stat[stat.rfind(')')? + 1..];
    let f: Vec<&str> = rest.split_whitespace().collect();
    // `rest` starts at field 3 (state); utime and stime are fields 14 and 15.
    let ticks = f.get(11)?.parse::<u64>().ok()? + f.get(12)?.parse::<u64>().ok()?;
    Some(Duration::from_millis(ticks * 10))
}

impl Progress {
    /// Progress over a batch whose run `j` is of scenario instance `instances[j]` (an index
    /// into `weights`, each instance's [`cost`], and `labels`), run by `workers` workers;
    /// silent unless `enabled`.
    pub fn new(
        enabled: bool,
        weights: Vec<f64>,
        labels: Vec<String>,
        instances: Vec<usize>,
        workers: usize,
    ) -> Progress {
        let trace = std::env::var_os(TRACE_ENV).and_then(|p| {
            std::fs::OpenOptions::new()
                .create(true)
                .append(true)
                .open(&p)
                .map_err(|e| eprintln!("warning: {TRACE_ENV}: {}: {e}", p.to_string_lossy()))
                .ok()
                .map(std::io::BufWriter::new)
        });
        // Labels beyond the weights' (none in tests) are ignored; missing ones group together.
        let groups: Vec<&str> = (0..weights.len())
            .map(|i| labels.get(i).map_or("", |l| crate::eta::group_of(l)))
            .collect();
        let est = Estimator::new(weights, instances, workers).with_groups(&groups);
        Progress {
            enabled,
            tty: std::io::stderr().is_terminal(),
            labels,
            start: Instant::now(),
            cpu_start: cpu_time(),
            state: Mutex::new(State {
                est,
                last_print: None,
                next_line: 0,
                trace,
            }),
        }
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, State> {
        self.state.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// The order in which to start the batch's runs, the one the estimate plays forward
    /// ([`Estimator::order`]).
    pub fn order(&self) -> Vec<usize> {
        self.lock().est.order().to_vec()
    }

    /// Run `j` starts now.
    pub fn started(&self, j: usize) {
        let now = self.start.elapsed().as_secs_f64();
        self.lock().est.start(j, now);
    }

    /// Run `j` finished after `secs` (`cached`: read from the cache). With [`TRACE_ENV`]
    /// set, appends `wall_s instance weight secs cached eta_s label` (tab-separated; `eta_s`
    /// empty while estimating) to its file.
    pub fn finished(&self, j: usize, secs: f64, cached: bool) {
        let mut s = self.lock();
        s.est.finish(j, secs, cached);
        let now = Instant::now();
        let elapsed = (now - self.start).as_secs_f64();
        let eta = s.est.eta(elapsed);
        let i = s.est.instance(j);
        let weight = s.est.weight(i);
        if let Some(t) = &mut s.trace {
            let label = self.labels.get(i).map_or("", String::as_str);
            let e = eta.map_or(String::new(), |e| format!("{e:.3}"));
            let _ = writeln!(
                t,
                "{elapsed:.3}\t{i}\t{weight:.1}\t{secs:.6}\t{}\t{e}\t{label}",
                u8::from(cached)
            );
        }
        if !self.enabled {
            return;
        }
        let (done, total) = (s.est.done(), s.est.total());
        let print = if self.tty {
            s.last_print
                .is_none_or(|t| now - t >= Duration::from_millis(200))
                || done == total
        } else {
            done >= s.next_line
                || done == total
                || s.last_print
                    .is_some_and(|t| now - t >= Duration::from_secs(60))
        };
        if !print {
            return;
        }
        s.last_print = Some(now);
        s.next_line = done + (total / 20).max(1);
        let eta = eta.map_or("estimating".into(), |e| {
            format!("about {} left", fmt_secs(e))
        });
        let line = format!(
            "repro: {done}/{total} runs done ({} from the cache), {}, {eta}",
            s.est.hits(),
            fmt_secs(elapsed)
        );
        let mut err = std::io::stderr().lock();
        let _ = if self.tty {
            write!(err, "\r\x1b[2K{line}")
        } else {
            writeln!(err, "{line}")
        };
        let _ = err.flush();
    }

    /// The summary; on a terminal, ends the redrawn line.
    pub fn finish(&self) -> Summary {
        let mut s = self.lock();
        if let Some(t) = &mut s.trace {
            let _ = t.flush();
        }
        if self.enabled && self.tty && s.est.done() > 0 {
            eprintln!();
        }
        Summary {
            runs: s.est.done(),
            hits: s.est.hits(),
            wall_s: self.start.elapsed().as_secs_f64(),
            cpu_s: self
                .cpu_start
                .zip(cpu_time())
                .map(|(a, b)| b.saturating_sub(a).as_secs_f64()),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cost_is_packets_the_links_could_carry() {
        // 10 Mb/s both ways for 12 s, 1500-byte packets: 2 x 10e6 x 12 / 12000 = 20000.
        let sc = Scenario::from_toml_with(
            "duration = \"12s\"\n[[flow]]\ncc = { name = \"ledbat\" }\n",
            &["topology.rate=10Mbps"],
        )
        .unwrap();
        assert!((cost(&sc) - 20_000.0).abs() < 1e-9, "{}", cost(&sc));
    }

    #[test]
    fn finite_transfers_cost_what_they_carry_when_the_links_could_carry_more() {
        // Two 30-MB transfers in 1500-byte packets, a data packet and an ACK each:
        // 2 x 2 x 3e7 / 1500 = 80000, below the 10 Mb/s links' 2 x 10e6 x 1300 / 12000.
        let text = "duration = \"1300s\"\n[[flow]]\ncc = { name = \"ledbat\" }\ncount = 2\n\
                    traffic = { kind = \"transfer\", bytes = 30000000 }\n";
        let sc = Scenario::from_toml_with(text, &["topology.rate=10Mbps"]).unwrap();
        assert!((cost(&sc) - 80_000.0).abs() < 1e-6, "{}", cost(&sc));
        // In 12 s the links carry less than the transfers offer: their capacity, 20000.
        let short = Scenario::from_toml_with(text, &["topology.rate=10Mbps", "duration=12s"]);
        assert!((cost(&short.unwrap()) - 20_000.0).abs() < 1e-6);
        // One backlogged flow beside them: the links' capacity.
        let mixed = format!("{text}[[flow]]\ncc = {{ name = \"ledbat\" }}\n");
        let mixed = Scenario::from_toml_with(&mixed, &["topology.rate=10Mbps"]).unwrap();
        assert!((cost(&mixed) - 2.0 * 10e6 * 1300.0 / 12_000.0).abs() < 1e-3);
    }

    #[test]
    fn a_swarm_costs_its_leechers_downloads_not_its_duration() {
        // Seed 003's swarm: 100 leechers of a 10-MiB file in 1500-byte packets,
        // 100 x 10485760 / 1500 = 699050.67 packets, 10 times that, whatever its 20000-s
        // duration.
        let text = std::fs::read_to_string(concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/../../scenarios/seed003/swarm.toml"
        ))
        .unwrap();
        let sc = Scenario::from_toml(&text).unwrap();
        assert!((cost(&sc) - 6_990_506.666_66).abs() < 1e-2, "{}", cost(&sc));
        let longer = Scenario::from_toml_with(&text, &["duration=40000s"]).unwrap();
        assert_eq!(cost(&longer), cost(&sc));
    }

    #[test]
    fn a_flash_crowd_costs_three_times_a_poisson_swarm_per_packet() {
        // Seed 003's flash crowd: 75 leechers of a 100-MB file in 1500-byte packets, all at
        // t = 0: 75 x 1e8 / 1500 = 5e6 packets, x 10 x 3 = 1.5e8.
        let text = std::fs::read_to_string(concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/../../scenarios/seed003/swarm-flashcrowd.toml"
        ))
        .unwrap();
        let sc = Scenario::from_toml(&text).unwrap();
        assert!((cost(&sc) - 1.5e8).abs() < 1e-3, "{}", cost(&sc));
        let mut poisson = sc.clone();
        poisson.swarm.as_mut().unwrap().arrival =
            ledbat_sim::scenario::swarm::Arrival::Poisson { rate: 0.1 };
        assert!((cost(&poisson) - 5e7).abs() < 1e-3, "{}", cost(&poisson));
    }

    #[test]
    fn cpu_time_reads_utime_and_stime_after_the_command_name() {
        let stat = "1234 (a b) c) S 1 2 3 4 5 6 7 8 9 10 250 150 0 0 20 0 1 0";
        assert_eq!(parse_cpu(stat), Some(Duration::from_millis(4000)));
        assert_eq!(parse_cpu("garbage"), None);
        assert!(cpu_time().is_some(), "readable on Linux");
    }

    #[test]
    fn seconds_read_as_minutes_and_hours() {
        assert_eq!(fmt_secs(42.04), "42.0 s");
        assert_eq!(fmt_secs(185.0), "3 min 05 s");
        assert_eq!(fmt_secs(3720.0), "1 h 02 min");
    }

    #[test]
    fn the_summary_counts_runs_and_hits() {
        let p = Progress::new(false, vec![1.0, 2.0], vec![], vec![0, 1, 1], 2);
        p.started(0);
        p.finished(0, 0.0, true);
        p.finished(1, 0.5, false);
        let s = p.finish();
        assert_eq!((s.runs, s.hits), (2, 1));
        assert!(s.wall_s >= 0.0);
    }
}
