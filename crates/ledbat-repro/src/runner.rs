//! Runs the claims: loads every distinct scenario instance once, simulates it for seeds
//! `1..=n` in parallel (rayon), extracts each claim's metric per seed, summarises over seeds
//! and applies the verdict rule of [`crate::claims`].

use crate::catalog::{self, Claim, ScenarioRef};
use crate::claims::{fill_quotes, is_fragile, Outcome, Verdict};
use crate::plot::{HBand, Plot, Series};
use crate::report::Report;
use crate::stats::Summary;
use ledbat_sim::{RunResult, Scenario};
use rayon::prelude::*;
use std::collections::BTreeMap;
use std::path::PathBuf;
use std::sync::atomic::{AtomicUsize, Ordering};

/// What to run.
#[derive(Clone, Debug)]
pub struct Options {
    /// Directory holding `seed000/` .. `seed004/`.
    pub scenarios_dir: PathBuf,
    /// Seeds per scenario (seeds 1..=n). Default 10.
    pub seeds: u64,
    /// Use the reduced variants of [`catalog::QUICK`].
    pub quick: bool,
    /// Claim ids, id prefixes or paper names (`seed003`); empty = all.
    pub select: Vec<String>,
    /// Print progress to stderr.
    pub progress: bool,
}

impl Default for Options {
    fn default() -> Self {
        Options {
            scenarios_dir: PathBuf::from("scenarios"),
            seeds: 10,
            quick: false,
            select: Vec::new(),
            progress: false,
        }
    }
}

/// A selection that matches no claim.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("no claim matches `{0}` (ids are listed by `ledbat repro --list`)")]
pub struct UnknownClaim(pub String);

/// The claims matching `select` (ids, id prefixes, or paper names), in catalog order.
pub fn select(select: &[String]) -> Result<Vec<Claim>, UnknownClaim> {
    let all = catalog::all();
    if select.is_empty() {
        return Ok(all);
    }
    let matches = |c: &Claim, s: &str| c.id == s || c.id.starts_with(s) || c.paper == s;
    for s in select {
        if !all.iter().any(|c| matches(c, s)) {
            return Err(UnknownClaim(s.clone()));
        }
    }
    Ok(all
        .into_iter()
        .filter(|c| select.iter().any(|s| matches(c, s)))
        .collect())
}

/// Overrides applied in quick mode to `file`, and the note saying what they change.
pub fn quick_overrides(file: &str) -> Option<(&'static [&'static str], &'static str)> {
    catalog::QUICK
        .iter()
        .find(|(f, _, _)| *f == file)
        .map(|(_, s, n)| (*s, *n))
}

/// Loads one scenario instance (quick overrides first, then the sweep's).
pub fn load(opts: &Options, sref: &ScenarioRef) -> Result<Scenario, String> {
    let path = opts.scenarios_dir.join(sref.file);
    let text = std::fs::read_to_string(&path).map_err(|e| format!("{}: {e}", path.display()))?;
    let mut set: Vec<String> = Vec::new();
    if opts.quick {
        if let Some((q, _)) = quick_overrides(sref.file) {
            set.extend(q.iter().map(|s| s.to_string()));
        }
    }
    set.extend(sref.set.iter().cloned());
    Scenario::from_toml_with(&text, &set).map_err(|e| format!("{}: {e}", sref.label()))
}

type RunMap<K> = BTreeMap<K, Result<RunResult, String>>;

/// What [`simulate`] produced.
pub struct Results {
    /// Every scenario instance for seeds 1..=n, as written (start times drawn from the seed).
    pub seeded: RunMap<(ScenarioRef, u64)>,
    /// Every scenario instance once more with the exact start times (every flow's
    /// `start_jitter` 0), seed 1: the reference for fragility ([`crate::claims`]).
    pub exact: RunMap<ScenarioRef>,
}

impl Results {
    /// How many simulations were run.
    pub fn len(&self) -> usize {
        self.seeded.len() + self.exact.len()
    }

    /// Whether nothing was simulated.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
}

/// `sc` with every flow starting at its exact nominal time.
pub fn exact_starts(mut sc: Scenario) -> Scenario {
    for f in &mut sc.flows {
        f.start_jitter = ledbat_core::Duration::ZERO;
    }
    sc
}

/// Simulates every distinct scenario instance of `claims` for seeds 1..=n, and once with the
/// exact start times.
pub fn simulate(opts: &Options, claims: &[Claim]) -> Results {
    let mut refs: Vec<ScenarioRef> = claims
        .iter()
        .flat_map(|c| c.scenarios.iter().cloned())
        .collect();
    refs.sort();
    refs.dedup();
    // (instance, as written, with the exact start times)
    type Loaded = (
        ScenarioRef,
        Result<Scenario, String>,
        Result<Scenario, String>,
    );
    let loaded: Vec<Loaded> = refs
        .into_iter()
        .map(|r| {
            let s = load(opts, &r);
            let exact = s.clone().map(exact_starts);
            (r, s, exact)
        })
        .collect();
    // `None`: the exact-start run (seed 1).
    let jobs: Vec<(usize, Option<u64>)> = (0..loaded.len())
        .flat_map(|i| {
            (1..=opts.seeds)
                .map(move |s| (i, Some(s)))
                .chain(std::iter::once((i, None)))
        })
        .collect();
    let total = jobs.len();
    let done = AtomicUsize::new(0);
    let out: Vec<(usize, Option<u64>, Result<RunResult, String>)> = jobs
        .par_iter()
        .map(|&(i, seed)| {
            let (sref, sc, exact) = &loaded[i];
            let sc = if seed.is_some() { sc } else { exact };
            let res = match sc {
                Ok(sc) => ledbat_sim::run(sc, seed.unwrap_or(1))
                    .map_err(|e| format!("{}: {e}", sref.label())),
                Err(e) => Err(e.clone()),
            };
            let n = done.fetch_add(1, Ordering::Relaxed) + 1;
            if opts.progress && (n.is_multiple_of((total / 20).max(1)) || n == total) {
                eprintln!("repro: {n}/{total} runs done");
            }
            (i, seed, res)
        })
        .collect();
    let mut results = Results {
        seeded: BTreeMap::new(),
        exact: BTreeMap::new(),
    };
    for (i, seed, res) in out {
        let sref = loaded[i].0.clone();
        match seed {
            Some(s) => results.seeded.insert((sref, s), res),
            None => results.exact.insert(sref, res),
        };
    }
    results
}

/// How many distinct scenario instances `claim` reads.
fn distinct_instances(claim: &Claim) -> usize {
    let mut v: Vec<&ScenarioRef> = claim.scenarios.iter().collect();
    v.sort();
    v.dedup();
    v.len()
}

/// The runs of `claim`'s scenarios, in its order, from `lookup`; the first error otherwise.
fn claim_runs<'r>(
    claim: &Claim,
    lookup: impl Fn(&ScenarioRef) -> Option<&'r Result<RunResult, String>>,
) -> Result<Vec<&'r RunResult>, String> {
    claim
        .scenarios
        .iter()
        .map(|s| match lookup(s) {
            Some(Ok(r)) => Ok(r),
            Some(Err(e)) => Err(e.clone()),
            None => Err(format!("{}: not simulated", s.label())),
        })
        .collect()
}

/// Evaluates one claim from the simulation results.
pub fn evaluate(opts: &Options, claim: &Claim, results: &Results) -> (Outcome, Vec<Plot>) {
    let mut values = Vec::new();
    let mut errors = Vec::new();
    let mut first_runs: Option<Vec<&RunResult>> = None;
    for seed in 1..=opts.seeds {
        let runs = match claim_runs(claim, |s| results.seeded.get(&(s.clone(), seed))) {
            Ok(r) => r,
            Err(e) => {
                if !errors.contains(&e) {
                    errors.push(e);
                }
                continue;
            }
        };
        match (claim.extract)(&runs) {
            Ok(v) if v.is_finite() => values.push((seed, v)),
            Ok(v) => errors.push(format!("seed {seed}: metric is {v}")),
            Err(e) => errors.push(format!("seed {seed}: {e}")),
        }
        if first_runs.is_none() {
            first_runs = Some(runs);
        }
    }
    let summary = Summary::of(&values.iter().map(|v| v.1).collect::<Vec<_>>());
    let judge = |x: f64| Verdict::judge(x, &claim.tolerance, &claim.direction);
    let verdict = summary.as_ref().map_or(Verdict::NotRun, |s| judge(s.mean));
    let seed_verdicts: Vec<Verdict> = values.iter().map(|(_, v)| judge(*v)).collect();
    let exact_start = claim_runs(claim, |s| results.exact.get(s))
        .and_then(|runs| (claim.extract)(&runs))
        .ok()
        .filter(|v| v.is_finite())
        .map(|v| (v, judge(v)));
    let fragile =
        verdict != Verdict::NotRun && is_fragile(verdict, &seed_verdicts, exact_start.map(|e| e.1));
    let quick_notes: Vec<String> = if opts.quick {
        let mut files: Vec<&str> = claim.scenarios.iter().map(|s| s.file).collect();
        files.dedup();
        files
            .iter()
            .filter_map(|f| quick_overrides(f).map(|(_, n)| format!("{f}: {n}")))
            .collect()
    } else {
        Vec::new()
    };
    let mut scen: Vec<String> = claim.scenarios.iter().map(|s| s.label()).collect();
    scen.dedup();
    let mut plots = Vec::new();
    if !values.is_empty() {
        let (lo, hi) = claim.tolerance.interval();
        plots.push(Plot {
            title: format!("{}: per-seed values", claim.id),
            x_label: "seed".into(),
            y_label: claim.unit.into(),
            series: vec![Series {
                label: "measured".into(),
                points: values.iter().map(|(s, v)| (*s as f64, *v)).collect(),
                scatter: true,
            }],
            bands: vec![HBand {
                label: format!("tolerance {}", claim.tolerance.describe()),
                lo,
                hi,
            }],
        });
    }
    if let (Some(draw), Some(runs)) = (claim.draw, &first_runs) {
        plots.extend(draw(runs));
    }
    let outcome = Outcome {
        id: claim.id.into(),
        paper: claim.paper.into(),
        figure: claim.figure.into(),
        statement: claim.statement.into(),
        paper_value: claim.paper_value.into(),
        unit: claim.unit.into(),
        metric: claim.metric.into(),
        tolerance: claim.tolerance.clone(),
        direction: claim.direction.clone(),
        tolerance_note: claim.tolerance_note.into(),
        scenarios: scen,
        values,
        summary,
        verdict,
        seed_verdicts,
        exact_start,
        fragile,
        runs: distinct_instances(claim) * (opts.seeds as usize + 1),
        explanation: claim.explanation.into(),
        errors,
        quick: opts.quick,
        quick_note: quick_notes.join("; "),
    };
    (outcome, plots)
}

/// Runs the selected claims and builds the report (`command` is recorded in it).
pub fn run(opts: &Options, command: &str) -> Result<Report, UnknownClaim> {
    let claims = select(&opts.select)?;
    let results = simulate(opts, &claims);
    let mut outcomes = Vec::new();
    let mut plots = Vec::new();
    for c in &claims {
        let (o, p) = evaluate(opts, c, &results);
        outcomes.push(o);
        plots.push(p);
    }
    let means: BTreeMap<String, f64> = outcomes
        .iter()
        .filter_map(|o| o.summary.as_ref().map(|s| (o.id.clone(), s.mean)))
        .collect();
    for o in &mut outcomes {
        o.explanation = fill_quotes(&o.explanation, |id| means.get(id).copied());
    }
    let fluid_ref = ScenarioRef::file("seed003/fledbat-fluid.toml");
    let fluid_runs: Vec<&RunResult> = (1..=opts.seeds)
        .filter_map(|s| {
            results
                .seeded
                .get(&(fluid_ref.clone(), s))
                .and_then(|r| r.as_ref().ok())
        })
        .collect();
    let sections = vec![crate::fluid_compare::section(&fluid_runs), bed_section()];
    Ok(Report {
        runs: results.len(),
        threads: rayon::current_num_threads(),
        seeds: opts.seeds,
        quick: opts.quick,
        command: command.into(),
        claims: outcomes,
        plots,
        sections,
        elapsed_secs: 0.0,
    })
}

/// Where the test-bed repetitions of the papers' real-network experiments are: they need
/// root and real peers, so they are committed results, not part of this simulated run.
fn bed_section() -> crate::report::Section {
    crate::report::Section {
        title: "Test-bed results (not part of this run)".into(),
        text: vec![
            "Seed 001's Fig. 7 (the ping delay while libutp uploads over a 500 kbit/s, 50 ms \
             link) was repeated on the namespace test bed with our uTP, Transmission (libutp) \
             and libtorrent: docs/repro/bed-fig7.md, with the commands that regenerate it \
             (testbed/pingdelay.py, root)."
                .into(),
        ],
        plots: Vec::new(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn selection_by_id_prefix_and_paper() {
        assert_eq!(
            select(&["seed004".into()])
                .unwrap()
                .iter()
                .filter(|c| c.paper != "seed004")
                .count(),
            0
        );
        assert!(select(&["s003-red".into()]).unwrap().len() >= 2);
        assert_eq!(select(&["s000-dynamic-cwnd-sd".into()]).unwrap().len(), 1);
        assert_eq!(
            select(&["nope".into()]).err(),
            Some(UnknownClaim("nope".into()))
        );
    }

    #[test]
    fn a_missing_scenario_file_makes_the_claim_not_run() {
        let opts = Options {
            scenarios_dir: PathBuf::from("/nonexistent"),
            seeds: 2,
            ..Options::default()
        };
        let claims = select(&["s003-ledbat-ledbat-fair".into()]).unwrap();
        let results = simulate(&opts, &claims);
        assert_eq!(results.len(), 3, "two seeds and the exact-start run");
        let (o, _) = evaluate(&opts, &claims[0], &results);
        assert_eq!(o.verdict, Verdict::NotRun);
        assert!(o.errors[0].contains("/nonexistent"), "{:?}", o.errors);
    }
}
