//! Progress of `ledbat repro` on stderr: runs done of the total, runs read from the cache,
//! and an estimate of the time left; at the end, wall time, CPU time and cache hits.
//!
//! Runs differ in cost by three orders of magnitude (a 2-s dumbbell against a 15-min swarm),
//! so each remaining run is estimated on its own: the mean time of the runs of the same
//! scenario instance (other seeds) simulated so far, else its weight [`cost`] (the packets
//! its links could carry in its simulated time, `duration × Σ link rates / (8 × mss)`) times
//! the seconds per unit of weight of every run simulated so far. Time left = the sum of
//! those estimates, times the share of runs done so far that were simulated rather than read
//! from the cache, divided by the parallelism seen so far (run time done / wall time). It
//! leans high at first (runs in progress count as not done) and settles as runs finish.
//!
//! On a terminal the line is redrawn in place (at most 5 times a second); otherwise a plain
//! line is printed every 5 % of the runs.

use ledbat_sim::scenario::Topology;
use ledbat_sim::Scenario;
use std::io::{IsTerminal, Write};
use std::sync::Mutex;
use std::time::{Duration, Instant};

/// The relative cost of simulating `sc` (see the module comment): packets its links could
/// carry in its simulated time. Infinite links count nothing; at least 1.
pub fn cost(sc: &Scenario) -> f64 {
    let bps = |r: ledbat_sim::units::Rate| {
        if r.is_infinite() {
            0.0
        } else {
            r.bits_per_sec() as f64
        }
    };
    let mut rate = match &sc.topology {
        Topology::Dumbbell(d) => bps(d.rate) + d.reverse_rate.map_or(bps(d.rate), bps),
        Topology::Star(s) => s.hosts.iter().map(|h| f64::from(h.count) * bps(h.up)).sum(),
    };
    if let Some(sw) = &sc.swarm {
        let peers = f64::from(sw.initial_seeds + sw.leechers);
        let classes = sw.classes.len().max(1) as f64;
        rate += peers * sw.classes.iter().map(|c| bps(c.up)).sum::<f64>() / classes;
    }
    let packets = sc.duration.as_secs_f64() * rate / (8.0 * f64::from(sc.mss.max(1)));
    packets.max(1.0)
}

struct State {
    done: usize,
    hits: usize,
    /// Per instance: runs left, simulated runs done and their seconds.
    left: Vec<usize>,
    sim_runs: Vec<usize>,
    sim_secs: Vec<f64>,
    /// Over every simulated run: seconds and weight.
    secs_simulated: f64,
    weight_simulated: f64,
    /// Seconds of every run done (hits included), for the parallelism.
    secs_done: f64,
    last_print: Option<Instant>,
    next_line: usize,
}

/// The progress of one set of runs.
pub struct Progress {
    enabled: bool,
    tty: bool,
    total: usize,
    weights: Vec<f64>,
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
    /// Progress over runs of the given scenario instances (indices into `weights`, each
    /// instance's [`cost`]); silent unless `enabled`.
    pub fn new(
        enabled: bool,
        weights: Vec<f64>,
        instances: impl IntoIterator<Item = usize>,
    ) -> Progress {
        let mut left = vec![0; weights.len()];
        let mut total = 0;
        for i in instances {
            left[i] += 1;
            total += 1;
        }
        let n = weights.len();
        Progress {
            enabled,
            tty: std::io::stderr().is_terminal(),
            total,
            weights,
            start: Instant::now(),
            cpu_start: cpu_time(),
            state: Mutex::new(State {
                done: 0,
                hits: 0,
                left,
                sim_runs: vec![0; n],
                sim_secs: vec![0.0; n],
                secs_simulated: 0.0,
                weight_simulated: 0.0,
                secs_done: 0.0,
                last_print: None,
                next_line: 0,
            }),
        }
    }

    /// The estimated wall seconds left (see the module comment); `None` before anything
    /// was simulated.
    fn eta(&self, s: &State, elapsed: f64) -> Option<f64> {
        if s.weight_simulated <= 0.0 || elapsed <= 0.0 {
            return None;
        }
        let per_weight = s.secs_simulated / s.weight_simulated;
        let work: f64 = (0..self.weights.len())
            .filter(|&i| s.left[i] > 0)
            .map(|i| {
                let each = if s.sim_runs[i] > 0 {
                    s.sim_secs[i] / s.sim_runs[i] as f64
                } else {
                    self.weights[i] * per_weight
                };
                each * s.left[i] as f64
            })
            .sum();
        let simulated_share = (s.done - s.hits) as f64 / s.done.max(1) as f64;
        let parallelism = (s.secs_done / elapsed).max(1.0);
        Some(work * simulated_share / parallelism)
    }

    /// One run of instance `i` finished after `secs` (`cached`: read from the cache).
    pub fn done(&self, i: usize, secs: f64, cached: bool) {
        let mut s = self.state.lock().unwrap_or_else(|e| e.into_inner());
        s.done += 1;
        s.left[i] = s.left[i].saturating_sub(1);
        s.secs_done += secs;
        if cached {
            s.hits += 1;
        } else {
            s.sim_runs[i] += 1;
            s.sim_secs[i] += secs;
            s.secs_simulated += secs;
            s.weight_simulated += self.weights[i];
        }
        if !self.enabled {
            return;
        }
        let now = Instant::now();
        let print = if self.tty {
            s.last_print
                .is_none_or(|t| now - t >= Duration::from_millis(200))
                || s.done == self.total
        } else {
            s.done >= s.next_line || s.done == self.total
        };
        if !print {
            return;
        }
        s.last_print = Some(now);
        s.next_line = s.done + (self.total / 20).max(1);
        let elapsed = (now - self.start).as_secs_f64();
        let eta = self.eta(&s, elapsed).map_or("estimating".into(), |e| {
            format!("about {} left", fmt_secs(e))
        });
        let line = format!(
            "repro: {}/{} runs done ({} from the cache), {}, {eta}",
            s.done,
            self.total,
            s.hits,
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
        let s = self.state.lock().unwrap_or_else(|e| e.into_inner());
        if self.enabled && self.tty && s.done > 0 {
            eprintln!();
        }
        Summary {
            runs: s.done,
            hits: s.hits,
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
    fn eta_uses_the_instances_own_runs_then_the_weight() {
        // Instance 0 (weight 1) has 3 runs, instance 1 (weight 10) has 2.
        let p = Progress::new(false, vec![1.0, 10.0], [0, 0, 0, 1, 1]);
        assert_eq!(p.eta(&p.state.lock().unwrap(), 1.0), None);
        p.done(0, 2.0, false);
        // Left: 2 of instance 0 at its own 2 s, 2 of instance 1 at 10 x 2 s per weight:
        // 44 s of work; 2 s of runs done in 2 s of wall time: parallelism 1.
        assert_eq!(p.eta(&p.state.lock().unwrap(), 2.0), Some(44.0));
        // The same in 1 s of wall time: two runs at once, half the time.
        assert_eq!(p.eta(&p.state.lock().unwrap(), 1.0), Some(22.0));
        // A hit of instance 0: half the runs done came from the cache.
        p.done(0, 0.0, true);
        // Left: 1 x 2 s + 2 x 20 s = 42 s, times 1/2, parallelism max(2/2, 1) = 1.
        assert_eq!(p.eta(&p.state.lock().unwrap(), 2.0), Some(21.0));
        // Instance 1's own run (5 s) replaces its weight estimate: 1 x 2 + 1 x 5 = 7 s,
        // times 2/3 simulated, over 7 s of runs in 7 s.
        p.done(1, 5.0, false);
        let e = p.eta(&p.state.lock().unwrap(), 7.0).unwrap();
        assert!((e - 7.0 * 2.0 / 3.0).abs() < 1e-12, "{e}");
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
        let p = Progress::new(false, vec![1.0, 2.0], [0, 1, 1]);
        p.done(0, 0.0, true);
        p.done(1, 0.5, false);
        let s = p.finish();
        assert_eq!((s.runs, s.hits), (2, 1));
        assert!(s.wall_s >= 0.0);
    }
}
