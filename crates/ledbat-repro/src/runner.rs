//! Runs the claims: loads every distinct scenario instance once, simulates it for seeds
//! `1..=n` in parallel (rayon), extracts each claim's metric per seed, summarises over seeds
//! and applies the verdict rule of [`crate::claims`]. A claim whose scenario departs from its
//! paper where a verdict could depend on it (a setup row of the coverage map with `risk =
//! "yes"` and `alt` overrides) is also run the paper's way, for the same seeds.

use crate::catalog::Null;
use crate::catalog::{self, Claim, ScenarioRef};
use crate::claims::{
    fill_quotes, is_fragile, setup_flips, NullOutcome, Outcome, PreconditionOutcome, Quoted,
    SetupRun, Verdict,
};
use crate::coverage::{Map, Risk};
use crate::plot::{HBand, Plot, Series};
use crate::report::Report;
use crate::stats::Summary;
use ledbat_sim::{RunResult, Scenario};
use rayon::prelude::*;
use std::collections::BTreeMap;
use std::path::PathBuf;

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
    /// Print progress to stderr ([`crate::progress`]).
    pub progress: bool,
    /// The run cache ([`crate::cache`]); `None`: simulate every run.
    pub cache: Option<std::sync::Arc<crate::cache::Cache>>,
    /// Where runs missing from the cache are simulated ([`crate::remote`]); `None`: here.
    pub remote: Option<std::sync::Arc<crate::remote::Remote>>,
}

impl Default for Options {
    fn default() -> Self {
        Options {
            scenarios_dir: PathBuf::from("scenarios"),
            seeds: 10,
            quick: false,
            select: Vec::new(),
            progress: false,
            cache: None,
            remote: None,
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
    /// Runs, cache hits, wall and CPU time.
    pub cost: crate::progress::Summary,
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

/// One way of running a claim the paper's way: the setup row's parameter, its overrides,
/// and the claim's scenarios with them applied to the files the row is about.
#[derive(Clone, Debug, PartialEq)]
pub struct SetupVariant {
    /// The parameter (`minimum window`).
    pub param: String,
    /// The overrides giving the paper's value.
    pub alt: Vec<String>,
    /// The claim's scenarios, in its order, with `alt` appended where the row applies.
    pub scenarios: Vec<ScenarioRef>,
}

/// The setup variants of `claim`: one per setup row of `map` that could flip a verdict, has
/// `alt` overrides and applies to one of the claim's scenario files (and to the claim, when
/// the row lists claims).
pub fn setup_variants(claim: &Claim, map: &Map) -> Vec<SetupVariant> {
    let mut out = Vec::new();
    if let (Some(h), Some(scenarios)) = (claim.hinge, claim.hinge_scenarios()) {
        out.push(SetupVariant {
            param: if h.unstated {
                format!("{} (left open by the paper)", h.choice)
            } else {
                h.choice.to_string()
            },
            alt: h.alt.iter().map(|a| a.to_string()).collect(),
            scenarios,
        });
    }
    for (_, t) in map.setups() {
        for p in &t.params {
            if p.risk != Some(Risk::Yes) || p.alt.is_empty() {
                continue;
            }
            if !p.claims.is_empty() && !p.claims.iter().any(|c| c == claim.id) {
                continue;
            }
            let files = if p.only.is_empty() { &t.files } else { &p.only };
            let applies = |s: &ScenarioRef| files.iter().any(|f| f == s.file);
            if !claim.scenarios.iter().any(applies) {
                continue;
            }
            let scenarios = claim
                .scenarios
                .iter()
                .map(|s| {
                    let mut s = s.clone();
                    if applies(&s) {
                        s.set.extend(p.alt.iter().cloned());
                    }
                    s
                })
                .collect();
            out.push(SetupVariant {
                param: p.name.clone(),
                alt: p.alt.clone(),
                scenarios,
            });
        }
    }
    out
}

/// The coverage map compiled into this crate (validated by `tests/coverage.rs`).
pub fn coverage_map() -> Map {
    Map::load().unwrap_or_else(|e| panic!("the compiled-in coverage map: {e}"))
}

/// Simulates every distinct scenario instance of `claims` for seeds 1..=n, and once with the
/// exact start times; and each claim's setup variants for seeds 1..=n.
pub fn simulate(opts: &Options, claims: &[Claim]) -> Results {
    let map = coverage_map();
    let mut refs: Vec<ScenarioRef> = claims
        .iter()
        .flat_map(|c| c.scenarios.iter().cloned())
        .collect();
    refs.sort();
    refs.dedup();
    let mut variants: Vec<ScenarioRef> = claims
        .iter()
        .flat_map(|c| setup_variants(c, &map))
        .flat_map(|v| v.scenarios)
        .chain(claims.iter().filter_map(Claim::null_scenarios).flatten())
        .filter(|r| refs.binary_search(r).is_err())
        .collect();
    variants.sort();
    variants.dedup();
    let n_base = refs.len();
    refs.extend(variants);
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
                .chain((i < n_base).then_some((i, None)))
        })
        .collect();
    let weights: Vec<f64> = loaded
        .iter()
        .map(|l| l.1.as_ref().map_or(1.0, crate::progress::cost))
        .collect();
    let progress =
        crate::progress::Progress::new(opts.progress, weights, jobs.iter().map(|&(i, _)| i));
    if let Some(r) = &opts.remote {
        r.prefetch(
            opts.cache.as_deref(),
            jobs.iter().filter_map(|&(i, seed)| {
                let sc = if seed.is_some() {
                    &loaded[i].1
                } else {
                    &loaded[i].2
                };
                Some((sc.as_ref().ok()?, seed.unwrap_or(1), seed.is_none()))
            }),
        );
    }
    let out: Vec<(usize, Option<u64>, Result<RunResult, String>)> = jobs
        .par_iter()
        .map(|&(i, seed)| {
            let (sref, sc, exact) = &loaded[i];
            let sc = if seed.is_some() { sc } else { exact };
            let t0 = std::time::Instant::now();
            let (res, cached) = match sc {
                Ok(sc) => crate::cache::run_with(
                    opts.cache.as_deref(),
                    sc,
                    seed.unwrap_or(1),
                    seed.is_none(),
                    || {
                        let (s, ex) = (seed.unwrap_or(1), seed.is_none());
                        crate::remote::take(opts.remote.as_deref(), sc, s, ex)
                            .unwrap_or_else(|| ledbat_sim::run(sc, s).map_err(|e| e.to_string()))
                            .map_err(|e| format!("{}: {e}", sref.label()))
                    },
                ),
                Err(e) => (Err(e.clone()), false),
            };
            progress.done(i, t0.elapsed().as_secs_f64(), cached);
            (i, seed, res)
        })
        .collect();
    let mut results = Results {
        seeded: BTreeMap::new(),
        exact: BTreeMap::new(),
        cost: progress.finish(),
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

/// The mean over seeds of `claim`'s metric on `scenarios` (its own, or a setup variant's).
fn mean_over_seeds(
    opts: &Options,
    claim: &Claim,
    scenarios: &[ScenarioRef],
    results: &Results,
) -> Option<f64> {
    let c = Claim {
        scenarios: scenarios.to_vec(),
        ..claim.clone()
    };
    let v: Vec<f64> = (1..=opts.seeds)
        .filter_map(|seed| {
            let runs = claim_runs(&c, |s| results.seeded.get(&(s.clone(), seed))).ok()?;
            (c.extract)(&runs).ok().filter(|v| v.is_finite())
        })
        .collect();
    aggregate(claim, &v).map(|s| s.mean)
}

/// The summary of a claim's per-seed values: their mean with its Student interval, or, for
/// an order (catalog rule 2), the share of seeds that show it with its Wilson interval.
pub fn aggregate(claim: &Claim, values: &[f64]) -> Option<Summary> {
    if values.iter().any(|v| !v.is_finite()) {
        return None;
    }
    match claim.form {
        crate::catalog::Form::Order { .. } => {
            let hits = values
                .iter()
                .filter(|v| claim.form.shows_order(**v) == Some(true))
                .count();
            Summary::share(hits, values.len())
        }
        _ => Summary::of(values),
    }
}

/// The value a single seed's metric gives to the verdict rule: itself, or for an order
/// whether the seed shows it (1) or not (0).
fn seed_value(claim: &Claim, v: f64) -> f64 {
    match claim.form.shows_order(v) {
        Some(shows) => f64::from(u8::from(shows)),
        None => v,
    }
}

/// Evaluates one claim from the simulation results.
pub fn evaluate(
    opts: &Options,
    claim: &Claim,
    map: &Map,
    results: &Results,
) -> (Outcome, Vec<Plot>) {
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
    let summary = aggregate(claim, &values.iter().map(|v| v.1).collect::<Vec<_>>());
    let judge = |x: f64| Verdict::judge(x, &claim.tolerance, &claim.direction);
    let precondition = claim.precondition.as_ref().map(|p| {
        let c = Claim {
            extract: p.extract,
            form: crate::catalog::Form::Value,
            ..claim.clone()
        };
        let mean = mean_over_seeds(opts, &c, &claim.scenarios, results);
        PreconditionOutcome {
            what: p.what.into(),
            band: p.band.clone(),
            mean,
            holds: mean.is_some_and(|m| p.band.holds(m)),
        }
    });
    let verdict = match (&summary, claim.untestable) {
        (None, _) => Verdict::NotRun,
        (Some(_), Some(_)) => Verdict::NotTestable,
        (Some(_), None) if precondition.as_ref().is_some_and(|p| !p.holds) => Verdict::Inconclusive,
        (Some(s), None) => judge(s.mean),
    };
    let seed_verdicts: Vec<Verdict> = values
        .iter()
        .map(|(_, v)| judge(seed_value(claim, *v)))
        .collect();
    let exact_start = claim_runs(claim, |s| results.exact.get(s))
        .and_then(|runs| (claim.extract)(&runs))
        .ok()
        .filter(|v| v.is_finite())
        .map(|v| seed_value(claim, v))
        .map(|v| (v, judge(v)));
    let variants = setup_variants(claim, map);
    let setup_runs: Vec<SetupRun> = variants
        .iter()
        .map(|v| {
            let mean = mean_over_seeds(opts, claim, &v.scenarios, results);
            SetupRun {
                param: v.param.clone(),
                alt: v.alt.clone(),
                mean,
                verdict: mean.map_or(Verdict::NotRun, judge),
            }
        })
        .chain(
            crate::catalog::variants::metric_variants()
                .into_iter()
                .filter(|m| m.claim == claim.id)
                .map(|m| {
                    let c = Claim {
                        extract: m.extract,
                        ..claim.clone()
                    };
                    let mean = mean_over_seeds(opts, &c, &claim.scenarios, results);
                    SetupRun {
                        param: m.param.into(),
                        alt: vec![m.what.into()],
                        mean,
                        verdict: mean.map_or(Verdict::NotRun, judge),
                    }
                }),
        )
        .collect();
    let null = match &claim.null {
        Null::Unset => None,
        Null::Run { setup, .. } | Null::Scenarios { setup, .. } => {
            let scenarios = claim.null_scenarios().unwrap_or_default();
            let mean = mean_over_seeds(opts, claim, &scenarios, results);
            Some(NullOutcome::Run {
                setup: setup.to_string(),
                scenarios: scenarios.iter().map(ScenarioRef::label).collect(),
                mean,
                verdict: mean.map_or(Verdict::NotRun, judge),
            })
        }
        Null::Excludes { value, model } => Some(NullOutcome::Excludes {
            excludes: *value,
            model: model.to_string(),
            excluded: !claim.tolerance.holds(*value),
        }),
        Null::None { reason } => Some(NullOutcome::None {
            none: reason.to_string(),
        }),
    };
    // An untestable or inconclusive claim's verdict does not come from its values:
    // fragility is judged on what its values alone would say.
    let judged = match (&summary, verdict) {
        (Some(s), Verdict::NotTestable | Verdict::Inconclusive) => judge(s.mean),
        _ => verdict,
    };
    let fragile = verdict != Verdict::NotRun
        && (is_fragile(judged, &seed_verdicts, exact_start.map(|e| e.1))
            || setup_flips(judged, &setup_runs)
            || claim.hinge.is_some_and(|h| h.unstated));
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
        // An order's bands are on the share of seeds; its per-seed values are margins,
        // drawn with the line where the order flips.
        let band = match claim.form {
            crate::catalog::Form::Order { null, .. } => HBand {
                label: format!("no order ({})", crate::claims::fmt_num(null)),
                lo: null,
                hi: null,
            },
            _ => HBand {
                label: format!("tolerance {}", claim.tolerance.describe()),
                lo,
                hi,
            },
        };
        plots.push(Plot {
            title: format!("{}: per-seed values", claim.id),
            x_label: "seed".into(),
            y_label: claim.unit.into(),
            series: vec![Series {
                label: "measured".into(),
                points: values.iter().map(|(s, v)| (*s as f64, *v)).collect(),
                scatter: true,
            }],
            bands: vec![band],
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
        runs: distinct_instances(claim) * (opts.seeds as usize + 1)
            + (variants.len() + usize::from(claim.null_scenarios().is_some()))
                * distinct_instances(claim)
                * opts.seeds as usize,
        explanation: claim.explanation.into(),
        errors,
        setup_runs,
        null,
        null_same: claim.null_same.unwrap_or_default().into(),
        precondition,
        tried: map.tried_claims().contains(claim.id),
        order: matches!(claim.form, crate::catalog::Form::Order { .. }),
        untestable: claim.untestable.unwrap_or_default().into(),
        quick: opts.quick,
        quick_note: quick_notes.join("; "),
    };
    (outcome, plots)
}

/// Runs the selected claims and builds the report (`command` is recorded in it).
pub fn run(opts: &Options, command: &str) -> Result<Report, UnknownClaim> {
    let claims = select(&opts.select)?;
    let results = simulate(opts, &claims);
    if opts.progress {
        eprintln!("{}", results.cost.line());
    }
    if let Some(c) = &opts.cache {
        if let Err(e) = c.record() {
            eprintln!("warning: run cache: {e:#}");
        }
    }
    let map = coverage_map();
    let mut outcomes = Vec::new();
    let mut plots = Vec::new();
    for c in &claims {
        let (o, p) = evaluate(opts, c, &map, &results);
        outcomes.push(o);
        plots.push(p);
    }
    let quoted: BTreeMap<&str, &Outcome> = outcomes.iter().map(|o| (o.id.as_str(), o)).collect();
    let filled: Vec<String> = outcomes
        .iter()
        .map(|o| fill_quotes(&o.explanation, |id, q| quoted_value(quoted.get(id)?, q)))
        .collect();
    for (o, e) in outcomes.iter_mut().zip(filled) {
        o.explanation = e;
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
    let sections = vec![
        crate::fluid_compare::section(&fluid_runs),
        bed_section(),
        setup_section(&map),
    ];
    Ok(Report {
        runs: results.len(),
        threads: rayon::current_num_threads(),
        seeds: opts.seeds,
        quick: opts.quick,
        command: command.into(),
        claims: outcomes,
        plots,
        sections,
        coverage: crate::coverage::render::counts_lines(&map),
        elapsed_secs: 0.0,
    })
}

/// The value a template of an explanation quotes from a claim's outcome (`claims::Quoted`).
pub fn quoted_value(o: &Outcome, q: Quoted) -> Option<f64> {
    match q {
        Quoted::Mean => o.summary.as_ref().map(|s| s.mean),
        Quoted::Null => match &o.null {
            Some(NullOutcome::Run { mean, .. }) => *mean,
            _ => None,
        },
        Quoted::Seed(n) => o.values.iter().find(|(s, _)| *s == n).map(|v| v.1),
    }
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
        markdown: String::new(),
        plots: Vec::new(),
    }
}

/// The scenario setups against the papers' words (`docs/repro/setup.md`'s tables).
fn setup_section(map: &Map) -> crate::report::Section {
    let md = crate::coverage::render::setup_md(map);
    // The page without its title: the section has its own heading.
    let body = md.split_once('\n').map_or(md.as_str(), |(_, b)| b).trim();
    crate::report::Section {
        title: "Scenario setups against the papers' words".into(),
        text: Vec::new(),
        markdown: body.replace("\n### ", "\n#### ").replace("\n## ", "\n### "),
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
    fn setup_variants_append_the_papers_way_to_the_files_a_row_is_about() {
        let map = coverage_map();
        let c = &select(&["s000-fixed320-utilisation".into()]).unwrap()[0];
        let v = setup_variants(c, &map);
        let params: Vec<&str> = v.iter().map(|v| v.param.as_str()).collect();
        assert!(params.contains(&"minimum window"), "{params:?}");
        assert!(params.contains(&"run length (scenario 2)"), "{params:?}");
        // rows about the CBR files only do not apply to this claim's fixed-gain.toml
        assert!(
            !params.contains(&"UDP for the whole run (scenario 3)"),
            "{params:?}"
        );
        let w = v.iter().find(|v| v.param == "minimum window").unwrap();
        assert_eq!(w.scenarios[0].file, c.scenarios[0].file);
        assert_eq!(
            w.scenarios[0].set.last().map(String::as_str),
            Some("flow.0.cc.min_cwnd=1")
        );
    }

    #[test]
    fn an_order_counts_seeds_not_margins() {
        use crate::catalog::Form;
        let order = Claim {
            form: Form::Order {
                null: 0.0,
                above: true,
            },
            ..Claim::base("s000-x")
        };
        // One seed far ahead, nine slightly behind: the mean margin (0.1) is positive, but
        // one seed in ten shows the order.
        let mut v = vec![10.0];
        v.extend([-1.0; 9]);
        let s = aggregate(&order, &v).unwrap();
        assert_eq!((s.mean, s.n), (0.1, 10));
        assert!(s.ci_lo < 0.1 && s.ci_hi < 0.5, "{s:?}");
        assert_eq!(seed_value(&order, 10.0), 1.0);
        assert_eq!(seed_value(&order, 0.0), 0.0, "a tie shows no order");
        // Any other form averages.
        let value = Claim {
            form: Form::Value,
            ..Claim::base("s000-x")
        };
        assert!((aggregate(&value, &v).unwrap().mean - 0.1).abs() < 1e-12);
    }

    /// A claim on a 2-s run whose value is the simulated duration: its null run lasts 3 s.
    fn duration_claim(null_same: Option<&'static str>) -> Claim {
        use crate::claims::Band;
        Claim {
            scenarios: vec![ScenarioRef::with(
                "seed003/ledbat-newreno.toml",
                &["duration=2s", "warmup=0s"],
            )],
            extract: |r| Ok(r[0].duration_s),
            tolerance: Band::Near {
                value: 2.0,
                tol: 0.1,
            },
            direction: Band::AtMost { bound: 2.5 },
            form: crate::catalog::Form::Value,
            null: Null::run("a longer run", &["duration=3s"]),
            null_same,
            ..Claim::base("s003-x")
        }
    }

    fn evaluate_alone(claim: &Claim) -> Outcome {
        let opts = Options {
            scenarios_dir: PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../scenarios"),
            seeds: 2,
            ..Options::default()
        };
        let results = simulate(&opts, std::slice::from_ref(claim));
        evaluate(&opts, claim, &coverage_map(), &results).0
    }

    #[test]
    fn a_null_run_is_simulated_and_judged_by_the_claims_bands() {
        let o = evaluate_alone(&duration_claim(None));
        assert_eq!(o.verdict, Verdict::Reproduced);
        let Some(NullOutcome::Run {
            mean,
            verdict,
            scenarios,
            ..
        }) = &o.null
        else {
            panic!("{:?}", o.null)
        };
        assert_eq!(*mean, Some(3.0));
        assert_eq!(*verdict, Verdict::NotReproduced);
        assert!(scenarios[0].ends_with("duration=3s]"), "{scenarios:?}");
        assert_eq!(
            o.null.as_ref().unwrap().discriminates(o.verdict),
            Some(true)
        );
        // own instance: 2 seeds + exact start; the null's: 2 seeds
        assert_eq!(o.runs, 5);
        assert_eq!(quoted_value(&o, Quoted::Null), Some(3.0));
        assert_eq!(quoted_value(&o, Quoted::Seed(2)), Some(2.0));
        assert_eq!(quoted_value(&o, Quoted::Seed(3)), None);
    }

    #[test]
    fn a_failed_precondition_makes_the_verdict_inconclusive() {
        use crate::claims::Band;
        let with = |band| Claim {
            precondition: Some(crate::catalog::Precondition {
                what: "the queue reaches TARGET",
                extract: |_| Ok(3.0),
                band,
            }),
            ..duration_claim(Some("a listed exception"))
        };
        let o = evaluate_alone(&with(Band::AtLeast { bound: 25.0 }));
        assert_eq!(o.verdict, Verdict::Inconclusive);
        let p = o.precondition.as_ref().unwrap();
        assert_eq!((p.mean, p.holds), (Some(3.0), false));
        assert_eq!(o.null_same, "a listed exception");
        // The null says nothing about a claim the scenario cannot decide.
        assert_eq!(o.null.as_ref().unwrap().discriminates(o.verdict), None);
        let o = evaluate_alone(&with(Band::AtMost { bound: 25.0 }));
        assert_eq!(o.verdict, Verdict::Reproduced);
        assert!(o.precondition.unwrap().holds);
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
        let (o, _) = evaluate(&opts, &claims[0], &coverage_map(), &results);
        assert_eq!(o.verdict, Verdict::NotRun);
        assert!(o.errors[0].contains("/nonexistent"), "{:?}", o.errors);
    }
}
