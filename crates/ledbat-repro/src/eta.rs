//! The time left of a batch of `ledbat repro` runs (sans-IO: every call is given the time),
//! and [`replay`], which runs a recorded batch (a `LEDBAT_REPRO_TRACE` file,
//! [`crate::progress::TRACE_ENV`]) through it again.
//!
//! Cost model. Each run has a weight before it starts ([`crate::progress::cost`]: the
//! packets it should carry, a swarm's counted 10 times). A run not finished is expected to
//! take, the first that applies:
//!
//! 1. the mean time of its instance's runs simulated so far (other seeds);
//! 2. its weight times its *group's* seconds per unit of weight so far, `Σ secs / Σ weights`
//!    over the simulated runs of the same scenario file (the label up to its first space):
//!    the seconds per unit differ five-fold between files (0.28 µs per unit for
//!    `p2p-peer` runs against 1.5 µs for `chunks`, docs/repro/README.md) but little between
//!    the instances of one file;
//! 3. its weight times the seconds per unit of every run simulated so far.
//!
//! Schedule. The runner starts the cheapest run of each group first, then the others
//! heaviest first ([`crate::schedule::pilots_first`] on the weights), on `workers` workers,
//! each taking the next run when it is free: so every group has a run of its own (rule 2)
//! early, not only once the heavy groups are done. The time
//! left is that schedule played forward: the workers are free after what is left of their
//! run under way (its expected time less the time it has run, at least 0), or now; the runs
//! waiting are placed in that order, each on the first free worker, taking its expected time
//! times the share of runs done so far that were simulated rather than read from the cache;
//! the estimate is when the last worker is free ([`crate::schedule::list_schedule_from`]'s
//! makespan). Unlike `work / workers`, that sees one heavy run left to end alone while the
//! other workers are idle. There is no estimate before a run was simulated, nor while a
//! group has no run done (its pilot is still running): a file priced at another's rate
//! can be several times off, and the pilots take the first seconds.
//!
//! Measured (estimate against the true time left at 30 s, 1 and 2 min, before and after)
//! in docs/repro/README.md, with the command that regenerates it.

use crate::schedule::{list_schedule_from, longest_first, makespan, pilots_first};
use std::collections::HashMap;

/// Where one run of a batch is.
#[derive(Clone, Copy, Debug, PartialEq)]
enum RunState {
    Waiting,
    /// Started at this time, s.
    Running(f64),
    Done,
}

/// Seconds and weight of the runs simulated so far, of one group or all.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
struct Rate {
    secs: f64,
    weight: f64,
}

impl Rate {
    fn add(&mut self, secs: f64, weight: f64) {
        self.secs += secs;
        self.weight += weight;
    }

    /// Seconds per unit of weight; `None` before a run.
    fn per_unit(&self) -> Option<f64> {
        (self.weight > 0.0).then(|| self.secs / self.weight)
    }
}

/// The time-left estimate of one batch of runs (see the module comment).
#[derive(Clone, Debug)]
pub struct Estimator {
    /// Per instance: its weight, group, runs simulated and their seconds.
    weights: Vec<f64>,
    group: Vec<usize>,
    sim_runs: Vec<usize>,
    sim_secs: Vec<f64>,
    /// Per group, and over every simulated run.
    groups: Vec<Rate>,
    /// Per group, whether a run of it is done (simulated or from the cache), and how many
    /// groups have none yet.
    group_seen: Vec<bool>,
    groups_unseen: usize,
    all: Rate,
    /// Per run of the batch: its instance and state.
    instance: Vec<usize>,
    state: Vec<RunState>,
    /// The runs heaviest first: the order in which the runner starts them.
    order: Vec<usize>,
    workers: usize,
    done: usize,
    hits: usize,
}

impl Estimator {
    /// A batch whose run `j` is of instance `instances[j]` (an index into `weights`, each
    /// instance's [`crate::progress::cost`]), run by `workers` workers at once, every
    /// instance in one group.
    pub fn new(weights: Vec<f64>, instances: Vec<usize>, workers: usize) -> Estimator {
        let n = weights.len();
        let order = longest_first(&instances.iter().map(|&i| weights[i]).collect::<Vec<_>>());
        Estimator {
            group: vec![0; n],
            sim_runs: vec![0; n],
            sim_secs: vec![0.0; n],
            groups: vec![Rate::default()],
            group_seen: vec![false],
            groups_unseen: usize::from(!instances.is_empty()),
            all: Rate::default(),
            weights,
            state: vec![RunState::Waiting; instances.len()],
            instance: instances,
            order,
            workers: workers.max(1),
            done: 0,
            hits: 0,
        }
    }

    /// Instance `i` in the group of the other instances of the same `keys[i]` (the scenario
    /// file: see [`group_of`]). Panics unless there is one key per instance.
    pub fn with_groups<S: AsRef<str>>(mut self, keys: &[S]) -> Estimator {
        assert_eq!(keys.len(), self.weights.len(), "one group key per instance");
        let mut ids: HashMap<&str, usize> = HashMap::new();
        self.group = keys
            .iter()
            .map(|k| {
                let next = ids.len();
                *ids.entry(k.as_ref()).or_insert(next)
            })
            .collect();
        self.groups = vec![Rate::default(); ids.len().max(1)];
        // Only groups with runs in the batch wait for one.
        self.group_seen = vec![true; self.groups.len()];
        for &i in &self.instance {
            self.group_seen[self.group[i]] = false;
        }
        self.groups_unseen = self.group_seen.iter().filter(|&&seen| !seen).count();
        // The runner's order with groups: one pilot per group first.
        let costs: Vec<f64> = self.instance.iter().map(|&i| self.weights[i]).collect();
        let groups: Vec<usize> = self.instance.iter().map(|&i| self.group[i]).collect();
        self.order = pilots_first(&costs, &groups);
        self
    }

    /// The order in which the runner starts the batch's runs: heaviest first, after one
    /// pilot per group once groups are given ([`crate::schedule::pilots_first`]).
    pub fn order(&self) -> &[usize] {
        &self.order
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

    /// The instance of run `j`.
    pub fn instance(&self, j: usize) -> usize {
        self.instance[j]
    }

    /// The weight of instance `i`.
    pub fn weight(&self, i: usize) -> f64 {
        self.weights[i]
    }

    /// Run `j` started at `now`.
    pub fn start(&mut self, j: usize, now: f64) {
        if self.state[j] == RunState::Waiting {
            self.state[j] = RunState::Running(now);
        }
    }

    /// Run `j` ended after `secs` of its own (`cached`: read from the cache).
    pub fn finish(&mut self, j: usize, secs: f64, cached: bool) {
        if self.state[j] == RunState::Done {
            return;
        }
        self.state[j] = RunState::Done;
        self.done += 1;
        let i = self.instance[j];
        let g = self.group[i];
        if !self.group_seen[g] {
            self.group_seen[g] = true;
            self.groups_unseen -= 1;
        }
        if cached {
            self.hits += 1;
        } else {
            self.sim_runs[i] += 1;
            self.sim_secs[i] += secs;
            self.groups[self.group[i]].add(secs, self.weights[i]);
            self.all.add(secs, self.weights[i]);
        }
    }

    /// The seconds a simulated run of instance `i` is expected to take (the module
    /// comment's three rules); `None` before any run was simulated.
    pub fn expected(&self, i: usize) -> Option<f64> {
        if self.sim_runs[i] > 0 {
            return Some(self.sim_secs[i] / self.sim_runs[i] as f64);
        }
        let per_unit = self.groups[self.group[i]]
            .per_unit()
            .or(self.all.per_unit())?;
        Some(self.weights[i] * per_unit)
    }

    /// The estimated seconds left at `now`; `None` before a run was simulated or while a
    /// group has no run done.
    pub fn eta(&self, now: f64) -> Option<f64> {
        self.all.per_unit()?;
        if self.groups_unseen > 0 {
            return None;
        }
        let simulated_share = (self.done - self.hits) as f64 / self.done.max(1) as f64;
        let expected = |j: usize| self.expected(self.instance[j]).unwrap_or(0.0);
        // Workers busy until their run ends, the others free now (time 0 = now).
        let mut free: Vec<f64> = self
            .state
            .iter()
            .enumerate()
            .filter_map(|(j, st)| match *st {
                RunState::Running(t0) => Some((expected(j) - (now - t0)).max(0.0)),
                _ => None,
            })
            .collect();
        // More runs under way than workers (a caller's slip): all of them count.
        let busy = free.len();
        free.resize(self.workers.max(busy), 0.0);
        let last_busy = free.iter().copied().fold(0.0, f64::max);
        let waiting: Vec<usize> = self
            .order
            .iter()
            .copied()
            .filter(|&j| self.state[j] == RunState::Waiting)
            .collect();
        let mut costs = vec![0.0; self.state.len()];
        for &j in &waiting {
            costs[j] = expected(j) * simulated_share;
        }
        Some(makespan(&list_schedule_from(&free, &costs, &waiting)).max(last_busy))
    }
}

/// The group of a run's label (`seed003/swarm.toml [swarm.leechers=40]`): its scenario
/// file, the label up to its first space.
pub fn group_of(label: &str) -> &str {
    label.split_whitespace().next().unwrap_or("")
}

/// One line of a trace: `wall_s instance weight secs cached eta_s label`, tab-separated
/// (see [`crate::progress::Progress::finished`]).
#[derive(Clone, Debug, PartialEq)]
pub struct TraceRow {
    /// When the run ended, s since the batch started.
    pub wall_s: f64,
    /// Its instance.
    pub instance: usize,
    /// The instance's weight.
    pub weight: f64,
    /// Its own time, s.
    pub secs: f64,
    /// Read from the cache.
    pub cached: bool,
    /// The estimate printed when it ended (empty in the trace while estimating).
    pub eta_s: Option<f64>,
    /// The instance's label.
    pub label: String,
}

/// Parses a trace; a bad line is an error naming its number and field.
pub fn parse_trace(text: &str) -> Result<Vec<TraceRow>, String> {
    text.lines()
        .enumerate()
        .filter(|(_, l)| !l.trim().is_empty())
        .map(|(n, l)| {
            let f: Vec<&str> = l.split('\t').collect();
            let bad = |what: &str| format!("trace line {}: {what}: {l:?}", n + 1);
            if f.len() < 7 {
                return Err(bad("expected 7 tab-separated fields"));
            }
            let num = |k: usize, what: &str| f[k].parse::<f64>().map_err(|_| bad(what));
            Ok(TraceRow {
                wall_s: num(0, "wall_s")?,
                instance: f[1].parse().map_err(|_| bad("instance"))?,
                weight: num(2, "weight")?,
                secs: num(3, "secs")?,
                cached: f[4] == "1",
                eta_s: if f[5].is_empty() {
                    None
                } else {
                    Some(num(5, "eta_s")?)
                },
                label: f[6..].join("\t"),
            })
        })
        .collect()
}

/// The estimate at each of `at` (s) when the runs of `rows` (one batch), each taking its
/// traced time, run heaviest first on `workers` workers (as the runner starts them, timed as
/// [`crate::schedule::list_schedule`] would); `grouped`: with the per-file rule 2 of the
/// module comment, else every run in one group. With each, the true time left of that
/// schedule.
pub fn replay(
    rows: &[TraceRow],
    workers: usize,
    grouped: bool,
    at: &[f64],
) -> Vec<(Option<f64>, f64)> {
    use crate::schedule::list_schedule;
    // Instances renumbered densely, with their weights and labels.
    let mut ids: HashMap<usize, usize> = HashMap::new();
    let (mut weights, mut keys) = (Vec::new(), Vec::new());
    let instances: Vec<usize> = rows
        .iter()
        .map(|r| {
            *ids.entry(r.instance).or_insert_with(|| {
                weights.push(r.weight);
                keys.push(if grouped { group_of(&r.label) } else { "" });
                weights.len() - 1
            })
        })
        .collect();
    let secs: Vec<f64> = rows.iter().map(|r| r.secs).collect();
    let mut e = Estimator::new(weights, instances, workers).with_groups(&keys);
    let slots = list_schedule(&secs, &e.order.clone(), workers);
    let end = makespan(&slots);
    // (time, 0 = an end before 1 = a start at the same time, run)
    let mut events: Vec<(f64, u8, usize)> = slots
        .iter()
        .flat_map(|s| [(s.start, 1, s.job), (s.end, 0, s.job)])
        .collect();
    events.sort_by(|a, b| a.0.total_cmp(&b.0).then(a.1.cmp(&b.1)));
    let mut next = 0;
    at.iter()
        .map(|&t| {
            while next < events.len() && events[next].0 <= t {
                match events[next] {
                    (s, 1, j) => e.start(j, s),
                    (_, _, j) => e.finish(j, secs[j], rows[j].cached),
                }
                next += 1;
            }
            (e.eta(t), (end - t).max(0.0))
        })
        .collect()
}

/// The estimate the run printed (the trace's `eta_s`) at each of `at` (s), from the last run
/// ended by then, less the time since; with the true time left (to the trace's last end).
pub fn live(rows: &[TraceRow], at: &[f64]) -> Vec<(Option<f64>, f64)> {
    let end = rows.iter().map(|r| r.wall_s).fold(0.0, f64::max);
    at.iter()
        .map(|&t| {
            let last = rows
                .iter()
                .filter(|r| r.wall_s <= t)
                .max_by(|a, b| a.wall_s.total_cmp(&b.wall_s));
            let eta = last.and_then(|r| r.eta_s.map(|e| (e - (t - r.wall_s)).max(0.0)));
            (eta, (end - t).max(0.0))
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

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
        // Two workers, heaviest first: 20 and 20 on the two, then 2 and 2: 22 s.
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
    fn replay_secs(
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
        let out = replay_secs(&weights, &instances, &secs, 2, &[1.0, 3.0, 4.0]);
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
    fn a_files_own_seconds_per_weight_price_its_other_instances() {
        // Instances 0 and 1 of file a (weight 100 and 50), 2 and 3 of file b (100, 50).
        // a costs 0.01 s per unit, b 0.05 s: a 50-weight run of a 0.5 s, of b 2.5 s.
        let mut e = Estimator::new(vec![100.0, 50.0, 100.0, 50.0], vec![0, 1, 2, 3], 1)
            .with_groups(&["a", "a", "b", "b"]);
        e.start(0, 0.0);
        e.finish(0, 1.0, false);
        // Only a is known: b's runs at a's rate, but no estimate until b has a run done.
        assert_eq!(e.expected(3), Some(0.5));
        assert_eq!(e.eta(1.0), None);
        e.start(2, 1.0);
        e.finish(2, 5.0, false);
        // b's 50-weight run at b's own 0.05 s per unit: 2.5 s (one pool: 6 s / 200 = 1.5 s).
        assert_eq!(e.expected(3), Some(2.5));
        assert_eq!(e.expected(1), Some(0.5));
        assert_eq!(e.eta(6.0), Some(3.0));
        let mut p = Estimator::new(vec![100.0, 50.0, 100.0, 50.0], vec![0, 1, 2, 3], 1);
        p.finish(0, 1.0, false);
        p.finish(2, 5.0, false);
        assert_eq!(p.expected(3), Some(1.5));
    }

    #[test]
    fn no_estimate_while_a_file_has_no_run_done() {
        // Files a (instance 0) and b (instance 1), two runs each; c has instances but no run.
        let mut e = Estimator::new(vec![10.0, 10.0, 5.0], vec![0, 0, 1, 1], 1)
            .with_groups(&["a", "b", "c"]);
        e.start(0, 0.0);
        e.finish(0, 1.0, false);
        assert_eq!(e.eta(1.0), None, "b has no run done");
        // b's first run from the cache counts as seen: a's rate prices b's other run, and
        // half the runs done were simulated: (1 + 1) / 2.
        e.finish(2, 0.0, true);
        assert_eq!(e.eta(1.0), Some(1.0));
    }

    #[test]
    fn one_heavy_run_left_ends_alone_and_the_estimate_sees_it() {
        // Two workers; instance 0 (weight 10) known at 10 s, instance 1 (weight 1) at 1 s.
        // Waiting: one run of 0 and four of 1. Heaviest first: the 10 s on one worker, the
        // four 1 s on the other: 10 s, where work / workers would say (10 + 4) / 2 = 7 s.
        let mut e = Estimator::new(vec![10.0, 1.0], vec![0, 0, 1, 1, 1, 1, 1], 2);
        e.start(0, 0.0);
        e.start(2, 0.0);
        e.finish(2, 1.0, false);
        e.finish(0, 10.0, false);
        assert_eq!(e.eta(10.0), Some(10.0));
        // With the heavy run under way for 4 s, 6 s of it is left; the light ones (4 s) go
        // to the other worker: 6 s.
        e.start(1, 10.0);
        assert_eq!(e.eta(14.0), Some(6.0));
    }

    fn row(wall_s: f64, instance: usize, weight: f64, secs: f64, label: &str) -> String {
        format!("{wall_s}\t{instance}\t{weight}\t{secs}\t0\t\t{label}\n")
    }

    #[test]
    fn a_trace_parses_and_a_bad_line_is_named() {
        let text = "1.5\t3\t20.0\t0.25\t1\t12.5\tseed003/a.toml [x=1]\n\n";
        let rows = parse_trace(text).unwrap();
        assert_eq!(
            rows,
            vec![TraceRow {
                wall_s: 1.5,
                instance: 3,
                weight: 20.0,
                secs: 0.25,
                cached: true,
                eta_s: Some(12.5),
                label: "seed003/a.toml [x=1]".into(),
            }]
        );
        assert_eq!(group_of(&rows[0].label), "seed003/a.toml");
        let err = parse_trace("1\tx\t2\t3\t0\t\tl\n").unwrap_err();
        assert!(err.contains("line 1: instance"), "{err}");
        assert!(parse_trace("1\t2\n")
            .unwrap_err()
            .contains("7 tab-separated"));
    }

    #[test]
    fn replayed_per_file_the_estimate_is_right_once_each_file_has_run() {
        // Synthetic trace, 1 worker: file h (heavy) 2 runs of weight 100 at 0.01 s per unit
        // (1 s each, instances 1 and 2); file l (light) 4 runs of weight 10 at 0.05 s per unit
        // (0.5 s each) over instances 3 and 4. The order: one pilot per file, cheapest first
        // (l's first run, then h's), then the rest heaviest first: l 0-0.5, h 0.5-1.5 and
        // 1.5-2.5, l 2.5-3, 3-3.5, 3.5-4. Without groups (one file) the cheapest run first,
        // then heaviest first: the same order.
        let mut text = String::new();
        text += &row(1.5, 1, 100.0, 1.0, "h.toml [a=1]");
        text += &row(2.5, 2, 100.0, 1.0, "h.toml [a=2]");
        for k in 0..4 {
            text += &row(
                0.5 + 2.0 * (k.min(1) as f64) + 0.5 * k as f64,
                3 + k % 2,
                10.0,
                0.5,
                "l.toml",
            );
        }
        let rows = parse_trace(&text).unwrap();
        let at = [1.0, 1.5];
        let grouped = replay(&rows, 1, true, &at);
        let pooled = replay(&rows, 1, false, &at);
        // At 1 s: l's pilot is done (0.05 s per unit), h's under way for 0.5 s. Grouped, h
        // has no run done, so there is no estimate yet. One pool prices h at l's rate: 4.5 s
        // left of the one running, 5 s for h's other, 0.5 s for each of l's three: 11 s
        // against the true 3 s.
        assert_eq!(grouped[0], (None, 3.0));
        let (eta, truth) = pooled[0];
        assert!((eta.unwrap() - 11.0).abs() < 1e-12, "{eta:?}");
        assert_eq!(truth, 3.0);
        // At 1.5 s both pilots are done. Grouped: h's other run at h's 0.01 s per unit (1 s),
        // l's three at 0.5 s (instance 3 its own, instance 4 l's rate): 2.5 s, the truth.
        // Pooled: 1.5 s over 110 units: 150/110 s for h's, 15/110 for each of instance 4's
        // two, instance 3's own 0.5 s: 2.14 s.
        let (eta, truth) = grouped[1];
        assert!((eta.unwrap() - 2.5).abs() < 1e-12, "{eta:?}");
        assert_eq!(truth, 2.5);
        let (eta, truth) = pooled[1];
        assert!(
            (eta.unwrap() - (180.0 / 110.0 + 0.5)).abs() < 1e-12,
            "{eta:?}"
        );
        assert_eq!(truth, 2.5);
    }

    #[test]
    fn the_live_estimate_is_the_last_printed_one_less_the_time_since() {
        let text = "1\t0\t1\t1\t0\t\ta\n2\t0\t1\t1\t0\t10\ta\n12\t0\t1\t1\t0\t0\ta\n";
        let rows = parse_trace(text).unwrap();
        // At 1.5 s nothing was estimated; at 5 s the 10 s printed at 2 s is 7 s; truth 12 - t.
        assert_eq!(
            live(&rows, &[1.5, 5.0]),
            vec![(None, 10.5), (Some(7.0), 7.0)]
        );
    }
}
