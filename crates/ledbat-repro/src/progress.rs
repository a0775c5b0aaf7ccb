//! Progress of `ledbat repro` on stderr: runs done of the total, runs read from the cache,
//! and an estimate of the time left; at the end, wall time, CPU time and cache hits.
//!
//! Runs differ in cost by three orders of magnitude (a 2-s dumbbell against a swarm of 100
//! leechers), so each run has a weight before it starts, [`cost`], the packets it is
//! expected to carry, and the runner starts the heaviest first ([`crate::schedule`]). The
//! [`Estimator`] (sans-IO: given the time) expects of each run not finished the mean time of
//! its instance's runs (other seeds) simulated so far, else its weight times the seconds per
//! unit of weight of every run simulated so far (`Σ seconds / Σ weights`, so dominated by
//! the heavy runs, which are most of the work); of a run under way that, less the time it
//! has run. Time left = the sum over the runs left (waiting ones times the share of runs done
//! so far that were simulated rather than read from the cache) over the workers, and never
//! less than the longest run left. Measured in `docs/repro/README.md`; with the weight
//! `duration × link rates` for swarms too (up to 100 times too high for them) it was off by
//! a factor of 10 for minutes.
//!
//! On a terminal the line is redrawn in place (at most 5 times a second); otherwise a plain
//! line is printed every 5 % of the runs.

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

/// The relative cost of simulating `sc` (see the module comment): the packets it is
/// expected to carry. A swarm carries its leechers' downloads, `leechers × file_size / mss`,
/// however long the run may last, each counted [`SWARM_PACKET_COST`] times; flows, what the
/// links could carry in the simulated time, `duration × Σ link rates / (8 × mss)`, infinite
/// links counting nothing. At least 1.
pub fn cost(sc: &Scenario) -> f64 {
    let mss = f64::from(sc.mss.max(1));
    if let Some(sw) = &sc.swarm {
        let packets = f64::from(sw.leechers) * sw.file_size.0 as f64 / mss;
        return (SWARM_PACKET_COST * packets).max(1.0);
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
    (sc.duration.as_secs_f64() * rate / (8.0 * mss)).max(1.0)
}

/// Where one run of a batch is.
#[derive(Clone, Copy, Debug, PartialEq)]
enum RunState {
    Waiting,
    /// Started at this time, s.
    Running(f64),
    Done,
}

/// The time-left estimate of one batch of runs (see the module comment), sans-IO: every
/// call is given the time, in seconds since the batch started.
#[derive(Clone, Debug)]
pub struct Estimator {
    /// Per instance: its weight ([`cost`]), runs simulated and their seconds.
    weights: Vec<f64>,
    sim_runs: Vec<usize>,
    sim_secs: Vec<f64>,
    /// Per run of the batch: its instance and state.
    instance: Vec<usize>,
    state: Vec<RunState>,
    workers: usize,
    done: usize,
    hits: usize,
    /// Over every simulated run: seconds and weight.
    secs_simulated: f64,
    weight_simulated: f64,
}

impl Estimator {
    /// A batch whose run `j` is of instance `instances[j]` (an index into `weights`, each
    /// instance's [`cost`]), run by `workers` workers at once.
    pub fn new(weights: Vec<f64>, instances: Vec<usize>, workers: usize) -> Estimator {
        let n = weights.len();
        Estimator {
            sim_runs: vec![0; n],
            sim_secs: vec![0.0; n],
            weights,
            state: vec![RunState::Waiting; instances.len()],
            instance: instances,
            workers: workers.max(1),
            done: 0,
            hits: 0,
            secs_simulated: 0.0,
            weight_simulated: 0.0,
        }
    }

    /// Runs in the batch.
    pub fn total(&self) -> usize {
        self.instance.len()
    }

    /// Runs done.
    pub fn done(&self) -> usize {
        self.done
    }

    /// Runs done that came from the cache.
    pub fn hits(&self) -> usize {
        self.hits
    }

    /// Run `j` started at `now`.
    pub fn start(&mut self, j: usize, now: f64) {
        self.state[j] = RunState::Running(now);
    }

    /// Run `j` ended after `secs` of its own (`cached`: read from the cache).
    pub fn finish(&mut self, j: usize, secs: f64, cached: bool) {
        if self.state[j] == RunState::Done {
            return;
        }
        self.state[j] = RunState::Done;
        self.done += 1;
        let i = self.instance[j];
        if cached {
            self.hits += 1;
        } else {
            self.sim_runs[i] += 1;
            self.sim_secs[i] += secs;
            self.secs_simulated += secs;
            self.weight_simulated += self.weights[i];
        }
    }

    /// The seconds a simulated run of instance `i` is expected to take: its instance's mean
    /// so far, else its weight times the seconds per unit of weight so far.
    fn expected(&self, i: usize) -> f64 {
        if self.sim_runs[i] > 0 {
            self.sim_secs[i] / self.sim_runs[i] as f64
        } else {
            self.weights[i] * self.secs_simulated / self.weight_simulated
        }
    }

    /// The estimated seconds left at `now`; `None` before a run was simulated.
    pub fn eta(&self, now: f64) -> Option<f64> {
        if self.weight_simulated <= 0.0 {
            return None;
        }
        let simulated_share = (self.done - self.hits) as f64 / self.done.max(1) as f64;
        let (mut work, mut longest, mut left) = (0.0, 0.0f64, 0usize);
        for (j, st) in self.state.iter().enumerate() {
            let rest = match *st {
                RunState::Done => continue,
                RunState::Waiting => self.expected(self.instance[j]) * simulated_share,
                RunState::Running(t0) => (self.expected(self.instance[j]) - (now - t0)).max(0.0),
            };
            work += rest;
            longest = longest.max(rest);
            left += 1;
        }
        let workers = self.workers.min(left).max(1) as f64;
        Some((work / workers).max(longest))
    }
}

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
        Progress {
            enabled,
            tty: std::io::stderr().is_terminal(),
            labels,
            start: Instant::now(),
            cpu_start: cpu_time(),
            state: Mutex::new(State {
                est: Estimator::new(weights, instances, workers),
                last_print: None,
                next_line: 0,
                trace,
            }),
        }
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, State> {
        self.state.lock().unwrap_or_else(|e| e.into_inner())
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
        let i = s.est.instance[j];
        let weight = s.est.weights[i];
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
            done >= s.next_line || done == total
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
    fn eta_uses_the_instances_own_runs_then_the_weight() {
        // Instance 0 (weight 1) has runs 0-2, instance 1 (weight 10) runs 3-4; one worker.
        let mut e = Estimator::new(vec![1.0, 10.0], vec![0, 0, 0, 1, 1], 1);
        assert_eq!(e.eta(0.0), None);
        e.start(0, 0.0);
        assert_eq!(e.eta(1.0), None, "nothing simulated yet");
        e.finish(0, 2.0, false);
        // Left: 2 of instance 0 at its own 2 s, 2 of instance 1 at 10 x 2 s per weight.
        assert_eq!(e.eta(2.0), Some(44.0));
        // Two workers: half of it, but never less than the longest run left (20 s).
        let mut two = e.clone();
        two.workers = 2;
        assert_eq!(two.eta(2.0), Some(22.0));
        // A hit of instance 0: half the runs done came from the cache, so half of each
        // waiting run counts: (2 + 2 x 20) / 2.
        e.start(1, 2.0);
        e.finish(1, 0.0, true);
        assert_eq!(e.eta(2.0), Some(21.0));
        // Run 3 (instance 1) running for 5 s: 20 - 5 = 15 s of it left, the waiting
        // runs 2 and 4 at half of 2 and 20 s: 26 s.
        e.start(3, 2.0);
        assert_eq!(e.eta(7.0), Some(26.0));
        // Past its estimate, a running run counts nothing more.
        assert_eq!(e.eta(30.0), Some(11.0));
        // It took 5 s: instance 1's own mean replaces its weight, and 2 of the 3 runs done
        // were simulated: runs 2 and 4 at 2 x 2/3 and 5 x 2/3 s.
        e.finish(3, 5.0, false);
        let left = e.eta(7.0).unwrap();
        assert!((left - 7.0 * 2.0 / 3.0).abs() < 1e-12, "{left}");
        assert_eq!((e.done(), e.hits(), e.total()), (3, 1, 5));
    }

    /// The estimate at each of `at` for runs of the given instances and true `secs`, run
    /// longest predicted first on `workers` workers; with the true time left.
    fn replay(
        weights: &[f64],
        instances: &[usize],
        secs: &[f64],
        workers: usize,
        at: &[f64],
    ) -> Vec<(Option<f64>, f64)> {
        use crate::schedule::{list_schedule, longest_first, makespan};
        let predicted: Vec<f64> = instances.iter().map(|&i| weights[i]).collect();
        let slots = list_schedule(secs, &longest_first(&predicted), workers);
        let end = makespan(&slots);
        // (time, 0 = end before 1 = start at the same time, run)
        let mut events: Vec<(f64, u8, usize)> = slots
            .iter()
            .flat_map(|s| [(s.start, 1, s.job), (s.end, 0, s.job)])
            .collect();
        events.sort_by(|a, b| a.partial_cmp(b).unwrap());
        let mut e = Estimator::new(weights.to_vec(), instances.to_vec(), workers);
        let mut next = 0;
        at.iter()
            .map(|&t| {
                while next < events.len() && events[next].0 <= t {
                    match events[next] {
                        (_, 1, j) => e.start(j, events[next].0),
                        (_, _, j) => e.finish(j, secs[j], false),
                    }
                    next += 1;
                }
                (e.eta(t), end - t)
            })
            .collect()
    }

    #[test]
    fn longest_first_the_estimate_is_within_5_percent_after_an_eighth_of_the_work() {
        // Costs three orders of magnitude apart, and a weight that is right for the costly
        // runs but 1.5 times low for the middle ones:
        //   2 instances of weight 1000, 2 s a run (0.002 s per unit)   40 s of work
        //  20 instances of weight   10, 0.03 s (0.003 s per unit)     6 s
        // 200 instances of weight    1, 0.002 s                         4 s
        // 10 seeds each, 2 workers: 50 s of work. The costly runs go first, two at a time.
        let mut weights = vec![1000.0; 2];
        weights.extend([10.0; 20]);
        weights.extend([1.0; 200]);
        let per_unit = |w: f64| if w == 10.0 { 0.003 } else { 0.002 };
        let instances: Vec<usize> = (0..weights.len()).flat_map(|i| [i; 10]).collect();
        let secs: Vec<f64> = instances
            .iter()
            .map(|&i| weights[i] * per_unit(weights[i]))
            .collect();
        let total: f64 = secs.iter().sum();
        assert!((total - 50.0).abs() < 1e-9);
        let out = replay(&weights, &instances, &secs, 2, &[1.0, 3.0, 4.0]);
        assert_eq!(out[0].0, None, "no run has ended at 1 s");
        // The truth: 20 costly runs two at a time end at 20 s, the middle ones at 23 s, the
        // cheap ones at 25 s.
        // At 3 s (4 s of work done, 2 s under way: 12 % of it): 2 runs done, 2 running 1 s
        // of their 2 s, 16 costly waiting (32 s), the rest by weight at 0.002 s per unit
        // (4 + 4 s): (2 + 32 + 8) / 2 = 21 s, against 22 s.
        let (eta, truth) = out[1];
        assert!((eta.unwrap() - 21.0).abs() < 1e-9, "{eta:?}");
        assert!((truth - 22.0).abs() < 1e-6, "{truth}");
        // At 4 s (8 s done, 16 %): (4 + 28 + 8) / 2 = 20 s against 21 s.
        let (eta, truth) = out[2];
        assert!((eta.unwrap() - 20.0).abs() < 1e-9, "{eta:?}");
        assert!((truth - 21.0).abs() < 1e-6, "{truth}");
        assert!((eta.unwrap() - truth).abs() / truth < 0.05);
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
