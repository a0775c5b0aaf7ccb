//! Runs the claims: loads every distinct scenario instance once, simulates it for seeds
//! `1..=n` in parallel (rayon), extracts each claim's metric per seed, summarises over seeds
//! and applies the verdict rule of [`crate::claims`]. A claim whose scenario departs from its
//! paper where a verdict could depend on it (a setup row of the coverage map with `risk =
//! "yes"` and `alt` overrides) is also run the paper's way, for the same seeds.

use crate::catalog::{self, Claim, ScenarioRef};
use crate::claims::{fill_quotes, NullOutcome, Outcome, Quoted, Verdict};
use crate::coverage::{Map, Risk};
use crate::report::Report;
use crate::sequential::{self, Rule, Seeds, Stop};
use crate::stats::Summary;
use ledbat_sim::{RunResult, Scenario};
use std::collections::{BTreeMap, BTreeSet};
use std::path::PathBuf;

mod verdict;
pub use verdict::evaluate;

/// What to run.
#[derive(Clone, Debug)]
pub struct Options {
    /// Directory holding `seed000/` .. `seed004/`.
    pub scenarios_dir: PathBuf,
    /// Seeds per scenario (seeds 1..=n). Default 10. Ignored under `sequential`.
    pub seeds: u64,
    /// Seeds in rounds by the sequential rule (`--seeds auto`) instead of `seeds`: each
    /// claim stops at the first look where its verdict is decided ([`crate::sequential`]).
    pub sequential: Option<Rule>,
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
            sequential: None,
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
    /// Every scenario instance for the seeds its claims needed, as written (start times
    /// drawn from the seed): seeds 1..=n, n the largest of its claims' [`Seeds`].
    pub seeded: RunMap<(ScenarioRef, u64)>,
    /// Every scenario instance once more with the exact start times (every flow's
    /// `start_jitter` 0), seed 1: the reference for fragility ([`crate::claims`]).
    pub exact: RunMap<ScenarioRef>,
    /// Runs, cache hits, wall and CPU time.
    pub cost: crate::progress::Summary,
    /// The seeds each claim's values come from, by claim id.
    pub seeds: BTreeMap<&'static str, Seeds>,
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

    /// The seeds `claim`'s values come from (seeds 1..=n).
    pub fn seeds_of(&self, claim: &Claim) -> Seeds {
        self.seeds.get(claim.id).copied().unwrap_or(Seeds {
            n: 0,
            stop: Stop::Fixed,
        })
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

/// Every scenario instance `claim` needs for each seed: its own scenarios, its setup
/// variants' and its null's.
fn seeded_instances(claim: &Claim, map: &Map) -> Vec<ScenarioRef> {
    claim
        .scenarios
        .iter()
        .cloned()
        .chain(
            setup_variants(claim, map)
                .into_iter()
                .flat_map(|v| v.scenarios),
        )
        .chain(claim.null_scenarios().into_iter().flatten())
        .collect()
}

/// One simulation: `sc` for `seed` (the one place a run is made; the cache calls it on a
/// miss). What the cache does not store is dropped (the series' state names and tests, for
/// `ledbat sim`'s traces; no claim reads them): a simulated run then holds no more memory
/// than a cached one while the report waits for every run.
fn run_one(sref: &ScenarioRef, sc: &Scenario, seed: u64) -> Result<RunResult, String> {
    let mut r = ledbat_sim::run(sc, seed).map_err(|e| format!("{}: {e}", sref.label()))?;
    if let Some(s) = &mut r.series {
        s.states = Vec::new();
        s.tests = Vec::new();
    }
    Ok(r)
}

/// Simulates every distinct scenario instance of `claims` once with the exact start times,
/// and every instance a claim needs (its own, its setup variants', its null's) for seeds
/// 1..=n: n = `opts.seeds` for every claim, or under `opts.sequential` each claim's
/// stopping look, the instances run in rounds up to each look while any of their claims is
/// still open ([`crate::sequential`]).
pub fn simulate(opts: &Options, claims: &[Claim]) -> Results {
    let map = coverage_map();
    let mut refs: Vec<ScenarioRef> = claims
        .iter()
        .flat_map(|c| c.scenarios.iter().cloned())
        .collect();
    refs.sort();
    refs.dedup();
    let n_base = refs.len();
    let mut variants: Vec<ScenarioRef> = claims
        .iter()
        .flat_map(|c| seeded_instances(c, &map))
        .filter(|r| refs[..n_base].binary_search(r).is_err())
        .collect();
    variants.sort();
    variants.dedup();
    refs.extend(variants);
    let index: BTreeMap<&ScenarioRef, usize> =
        refs.iter().enumerate().map(|(i, r)| (r, i)).collect();
    // The instances each claim needs for each seed, as indices of `loaded`.
    let needs: Vec<Vec<usize>> = claims
        .iter()
        .map(|c| {
            let mut v: Vec<usize> = seeded_instances(c, &map).iter().map(|r| index[r]).collect();
            v.sort_unstable();
            v.dedup();
            v
        })
        .collect();
    // (instance, as written, with the exact start times)
    type Loaded = (
        ScenarioRef,
        Result<Scenario, String>,
        Result<Scenario, String>,
    );
    let loaded: Vec<Loaded> = refs
        .iter()
        .map(|r| {
            let s = load(opts, r);
            let exact = s.clone().map(exact_starts);
            (r.clone(), s, exact)
        })
        .collect();
    let mut results = Results {
        seeded: BTreeMap::new(),
        exact: BTreeMap::new(),
        cost: crate::progress::Summary {
            runs: 0,
            hits: 0,
            wall_s: 0.0,
            cpu_s: None,
        },
        seeds: BTreeMap::new(),
    };
    let weights: Vec<f64> = loaded
        .iter()
        .map(|l| l.1.as_ref().map_or(1.0, crate::progress::cost))
        .collect();
    let labels: Vec<String> = loaded.iter().map(|l| l.0.label()).collect();
    // The seed-independent part of each instance's cache keys (as written, exact starts),
    // computed once ([`crate::cache::InstanceKey`]).
    let keys: Vec<[crate::cache::LazyKey; 2]> = loaded.iter().map(|_| Default::default()).collect();
    let start = std::time::Instant::now();
    let cpu_start = crate::progress::cpu_time();
    // Runs `jobs` in parallel (`None`: the exact-start run, seed 1) into `results`, each
    // through the run cache, with one progress display per round.
    let run_jobs = |jobs: Vec<(usize, Option<u64>)>, results: &mut Results, what: &str| {
        if opts.progress && !what.is_empty() {
            eprintln!("repro: {what}");
        }
        let progress = crate::progress::Progress::new(
            opts.progress,
            weights.clone(),
            labels.clone(),
            jobs.iter().map(|&(i, _)| i).collect(),
            rayon::current_num_threads(),
        );
        // The runs the cache lacks go to the remote executor first, in one batch.
        if let Some(r) = &opts.remote {
            r.prefetch(
                opts.cache.as_deref(),
                jobs.iter().filter_map(|&(i, seed)| {
                    let sc = if seed.is_some() {
                        &loaded[i].1
                    } else {
                        &loaded[i].2
                    };
                    let sc = sc.as_ref().ok()?;
                    let (s, ex) = (seed.unwrap_or(1), seed.is_none());
                    Some((sc, keys[i][usize::from(ex)].get(sc).key(s, ex), s, ex))
                }),
            );
        }
        // One pilot per scenario file, then the runs predicted longest first, as the
        // progress's estimate plays them ([`crate::schedule::pilots_first`]); results in
        // `jobs`' order.
        let order = progress.order();
        let numbered: Vec<(usize, (usize, Option<u64>))> =
            jobs.iter().copied().enumerate().collect();
        let out: Vec<(usize, Option<u64>, Result<RunResult, String>)> =
            crate::schedule::run_in_order(&numbered, &order, |&(j, (i, seed))| {
                progress.started(j);
                let (sref, sc, exact) = &loaded[i];
                let sc = if seed.is_some() { sc } else { exact };
                let t0 = std::time::Instant::now();
                let (s, ex) = (seed.unwrap_or(1), seed.is_none());
                let (res, cached) = match sc {
                    Ok(sc) => {
                        let key = || keys[i][usize::from(ex)].get(sc).key(s, ex);
                        crate::cache::run_with(opts.cache.as_deref(), key, || {
                            match crate::remote::take(opts.remote.as_deref(), key) {
                                Some(r) => r.map_err(|e| format!("{}: {e}", sref.label())),
                                None => run_one(sref, sc, s),
                            }
                        })
                    }
                    Err(e) => (Err(e.clone()), false),
                };
                progress.finished(j, t0.elapsed().as_secs_f64(), cached);
                (i, seed, res)
            });
        let round = progress.finish();
        results.cost.runs += round.runs;
        results.cost.hits += round.hits;
        results.cost.wall_s = start.elapsed().as_secs_f64();
        results.cost.cpu_s = cpu_start
            .zip(crate::progress::cpu_time())
            .map(|(a, b)| b.saturating_sub(a).as_secs_f64());
        for (i, seed, res) in out {
            let sref = loaded[i].0.clone();
            match seed {
                Some(s) => results.seeded.insert((sref, s), res),
                None => results.exact.insert(sref, res),
            };
        }
    };
    let exact_jobs = (0..n_base).map(|i| (i, None));
    let Some(rule) = &opts.sequential else {
        let mut seeded: BTreeSet<usize> = BTreeSet::new();
        seeded.extend(needs.iter().flatten());
        let jobs = exact_jobs
            .chain(
                seeded
                    .iter()
                    .flat_map(|&i| (1..=opts.seeds).map(move |s| (i, Some(s)))),
            )
            .collect();
        run_jobs(jobs, &mut results, "");
        for c in claims {
            results.seeds.insert(
                c.id,
                Seeds {
                    n: opts.seeds,
                    stop: Stop::Fixed,
                },
            );
        }
        return results;
    };
    let mut open: Vec<usize> = (0..claims.len()).collect();
    let mut ran: BTreeMap<usize, u64> = BTreeMap::new();
    let mut jobs: Vec<(usize, Option<u64>)> = exact_jobs.collect();
    for (k, &look) in rule.looks.iter().enumerate() {
        // Every instance an open claim needs, up to this look's seeds.
        let mut want: BTreeSet<usize> = BTreeSet::new();
        want.extend(open.iter().flat_map(|&c| needs[c].iter().copied()));
        for i in want {
            let from = ran.get(&i).copied().unwrap_or(0);
            jobs.extend((from + 1..=look).map(|s| (i, Some(s))));
            ran.insert(i, look.max(from));
        }
        let what = format!("seeds to {look}, {} claims open", open.len());
        run_jobs(std::mem::take(&mut jobs), &mut results, &what);
        let last = k + 1 == rule.looks.len();
        open.retain(|&c| {
            let stop = match decide(rule, &claims[c], &results, look) {
                Decision::Decided => Stop::Decided,
                Decision::Futile if !last => Stop::Futile,
                Decision::Futile | Decision::Open if last => Stop::Open,
                _ => return true,
            };
            results.seeds.insert(claims[c].id, Seeds { n: look, stop });
            false
        });
        if open.is_empty() {
            break;
        }
    }
    results
}

/// The finite values of `claim`'s metric on `scenarios` for seeds 1..=n, by seed (seeds
/// whose runs or extraction failed left out).
fn seed_values(
    claim: &Claim,
    scenarios: &[ScenarioRef],
    results: &Results,
    n: u64,
) -> Vec<(u64, f64)> {
    let c = Claim {
        scenarios: scenarios.to_vec(),
        ..claim.clone()
    };
    (1..=n)
        .filter_map(|seed| {
            let runs = claim_runs(&c, |s| results.seeded.get(&(s.clone(), seed))).ok()?;
            let v = (c.extract)(&runs).ok().filter(|v| v.is_finite())?;
            Some((seed, v))
        })
        .collect()
}

/// The interval of the quantity `values` give a verdict on, at two-sided error `err`: the
/// share of seeds that show an order (Wilson), else the mean (Student).
fn interval(claim: &Claim, values: &[f64], err: f64) -> Option<(f64, f64)> {
    match claim.form {
        crate::catalog::Form::Order { .. } => {
            let hits = values
                .iter()
                .filter(|v| claim.form.shows_order(**v) == Some(true))
                .count();
            sequential::share_interval(hits, values.len(), err)
        }
        _ => sequential::mean_interval(values, err),
    }
}

/// The finite ends of `bands`, where a verdict read from them can change.
fn band_ends(bands: &[&crate::claims::Band]) -> Vec<f64> {
    bands
        .iter()
        .flat_map(|b| {
            let (lo, hi) = b.interval();
            [lo, hi]
        })
        .filter(|x| x.is_finite())
        .collect()
}

/// What the sequential rule says of a claim at a look.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Decision {
    /// The verdict is the same on every interval: stop.
    Decided,
    /// Not yet: more seeds may decide it.
    Open,
    /// Not yet, and the interval the limit would give around the current mean with the
    /// current spread would still hold a band end: stop (non-binding futility).
    Futile,
}

/// What the sequential rule says of `claim` at `n` seeds: decided when its verdict is the
/// same on the whole interval of each quantity it reads ([`crate::sequential`]); futile when
/// the value's interval projected to the limit still is not.
fn decide(rule: &Rule, claim: &Claim, results: &Results, n: u64) -> Decision {
    if claim.untestable.is_some() {
        return Decision::Decided;
    }
    let values: Vec<f64> = seed_values(claim, &claim.scenarios, results, n)
        .into_iter()
        .map(|v| v.1)
        .collect();
    if values.is_empty() {
        // not run: no seed gave a value
        return Decision::Decided;
    }
    let err = rule.per_interval(1 + usize::from(claim.precondition.is_some()));
    let ends = band_ends(&[&claim.tolerance, &claim.direction]);
    let judge = |x: f64| Verdict::judge(x, &claim.tolerance, &claim.direction);
    let on = |iv: Option<(f64, f64)>| {
        iv.is_some_and(|(lo, hi)| sequential::settled(lo, hi, &ends, judge))
    };
    let value = if on(interval(claim, &values, err)) {
        Decision::Decided
    } else if rule.first_futile_look().is_some_and(|f| n >= f)
        && values.len() >= 2
        && !on(projected(claim, &values, err, rule.limit()))
    {
        Decision::Futile
    } else {
        Decision::Open
    };
    let Some(p) = &claim.precondition else {
        return value;
    };
    let c = Claim {
        extract: p.extract,
        ..claim.clone()
    };
    let pv: Vec<f64> = seed_values(&c, &claim.scenarios, results, n)
        .into_iter()
        .map(|v| v.1)
        .collect();
    match sequential::mean_interval(&pv, err) {
        // Decided failing: inconclusive whatever the value; decided holding: the value's.
        Some((lo, hi))
            if sequential::settled(lo, hi, &band_ends(&[&p.band]), |x| p.band.holds(x)) =>
        {
            if p.band.holds(lo) {
                value
            } else {
                Decision::Decided
            }
        }
        _ => Decision::Open,
    }
}

/// The interval `values` would give at `limit` seeds with the same mean and spread (the
/// same share, for an order): `mean +- t(1 - e/2, N-1) s / sqrt(N)`, or Wilson's at
/// `round(p N)` of `N`.
fn projected(claim: &Claim, values: &[f64], err: f64, limit: u64) -> Option<(f64, f64)> {
    let n = limit as usize;
    match claim.form {
        crate::catalog::Form::Order { .. } => {
            let hits = values
                .iter()
                .filter(|v| claim.form.shows_order(**v) == Some(true))
                .count();
            let at = (hits as f64 / values.len() as f64 * n as f64).round() as usize;
            sequential::share_interval(at, n, err)
        }
        _ => {
            let m = crate::stats::mean(values);
            let half = sequential::t_quantile(1.0 - err / 2.0, n.max(2) - 1)
                * crate::stats::sample_sd(values)
                / (n as f64).sqrt();
            half.is_finite().then_some((m - half, m + half))
        }
    }
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

/// The mean over seeds 1..=n of `claim`'s metric on `scenarios` (its own, or a setup
/// variant's).
fn mean_over_seeds(
    n: u64,
    claim: &Claim,
    scenarios: &[ScenarioRef],
    results: &Results,
) -> Option<f64> {
    let v: Vec<f64> = seed_values(claim, scenarios, results, n)
        .into_iter()
        .map(|v| v.1)
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
    let fluid_runs: Vec<&RunResult> = results
        .seeded
        .range((fluid_ref.clone(), 1)..=(fluid_ref.clone(), u64::MAX))
        .filter_map(|(_, r)| r.as_ref().ok())
        .collect();
    let outcomes_max_seeds = results
        .seeds
        .values()
        .map(|s| s.n)
        .max()
        .unwrap_or(opts.seeds);
    let sections = vec![
        crate::fluid_compare::section(&fluid_runs),
        bed_section(),
        setup_section(&map),
    ];
    Ok(Report {
        runs: results.len(),
        threads: rayon::current_num_threads(),
        seeds: outcomes_max_seeds,
        sequential: opts.sequential.clone(),
        quick: opts.quick,
        command: command.into(),
        claims: outcomes,
        plots,
        sections,
        coverage: crate::coverage::render::counts_lines(&map),
        elapsed_secs: 0.0,
        cached: results.cost.hits,
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
    use crate::catalog::Null;

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

    /// `opts` for the source tree's scenarios under the sequential rule with `looks`.
    fn sequential_opts(looks: &[u64]) -> Options {
        Options {
            scenarios_dir: PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../scenarios"),
            sequential: Some(Rule {
                looks: looks.to_vec(),
                alpha: 0.05,
                futile_from: 0,
            }),
            ..Options::default()
        }
    }

    #[test]
    fn a_value_equal_in_every_seed_is_decided_at_the_first_look_with_its_null() {
        // The duration is 2 s in every seed: a zero-width interval inside the band.
        let claim = duration_claim(None);
        let opts = sequential_opts(&[3, 5]);
        let results = simulate(&opts, std::slice::from_ref(&claim));
        let want = Seeds {
            n: 3,
            stop: Stop::Decided,
        };
        assert_eq!(results.seeds_of(&claim), want);
        // own instance: 3 seeds + exact start; the null's (3 s): the same 3 seeds
        assert_eq!(results.len(), 7);
        let (o, _) = evaluate(&opts, &claim, &coverage_map(), &results);
        assert_eq!(
            (o.verdict, o.seeds, o.runs, o.values.len()),
            (Verdict::Reproduced, want, 7, 3)
        );
        let Some(NullOutcome::Run { mean, .. }) = o.null else {
            panic!("{:?}", o.null)
        };
        assert_eq!(mean, Some(3.0));
    }

    /// A claim on a 1-s run whose value is the seed's number: 1, 2, .., n.
    fn seed_number_claim(id: &'static str, tolerance: crate::claims::Band) -> Claim {
        use crate::claims::Band;
        Claim {
            scenarios: vec![ScenarioRef::with(
                "seed003/ledbat-newreno.toml",
                &["duration=1s", "warmup=0s"],
            )],
            extract: |r| Ok(r[0].seed as f64),
            tolerance,
            direction: Band::AtMost { bound: 100.0 },
            form: crate::catalog::Form::Value,
            null: Null::None { reason: "a test" },
            ..Claim::base(id)
        }
    }

    #[test]
    fn a_knife_edge_goes_on_to_the_look_that_decides_it_and_a_shared_instance_runs_that_long() {
        use crate::claims::Band;
        // Values 1..=n, band "<= 1". Error 0.05 / 3 looks = 1/60 per interval;
        // t(1 - 1/120, 9) < 3 since P(|T| <= 3) = 0.98504 > 59/60 = 0.98333 (nu = 9), and
        // t(1 - 1/120, 4) > 3.5 since P(|T| <= 3.5) = 0.9751 < 59/60 (nu = 4).
        // n = 3: mean 2, s = 1; t(1 - 1/120, 2) = 7.65 (t / sqrt(2 + t^2) = 59/60): 2 +- 4.42
        //   holds 1: not decided; at 10 seeds 2 +- (< 3 / sqrt 10 = 0.95) would not: open.
        // n = 5: mean 3, s = 1.5811: 3 +- (> 3.5 * 1.5811 / sqrt 5 = 2.47) holds 1; at 10
        //   seeds 3 +- (< 3 * 1.5811 / sqrt 10 = 1.5) would not: open.
        // n = 10: mean 5.5, s = 3.0277: 5.5 +- (< 3 * 3.0277 / sqrt 10 = 2.87), all in
        //   (1, 100]: differs throughout: decided.
        assert!(sequential::t_two_sided(3.0, 9) > 59.0 / 60.0);
        assert!(sequential::t_two_sided(3.5, 4) < 59.0 / 60.0);
        let edge = seed_number_claim("s003-edge", Band::AtMost { bound: 1.0 });
        // Values far inside "<= 1000" from the first look on, on the same instance.
        let easy = seed_number_claim("s003-easy", Band::AtMost { bound: 1000.0 });
        let opts = sequential_opts(&[3, 5, 10]);
        let claims = [edge.clone(), easy.clone()];
        let results = simulate(&opts, &claims);
        let seeds = |n, stop| Seeds { n, stop };
        assert_eq!(results.seeds_of(&edge), seeds(10, Stop::Decided));
        assert_eq!(results.seeds_of(&easy), seeds(3, Stop::Decided));
        // One instance: 10 seeds (while the edge was open) and the exact-start run.
        assert_eq!(results.len(), 11);
        let (o, _) = evaluate(&opts, &easy, &coverage_map(), &results);
        assert_eq!(o.values.len(), 3, "the easy claim reads only its own seeds");
        let (o, _) = evaluate(&opts, &edge, &coverage_map(), &results);
        assert_eq!((o.verdict, o.values.len()), (Verdict::Differs, 10));
    }

    #[test]
    fn a_knife_edge_the_limit_cannot_decide_stops_early_as_futile() {
        use crate::claims::Band;
        // Looks 3 and 5: 0.025 per interval. n = 3: 2 +- t(0.9875, 2) / sqrt 3 = 2 +- 3.58
        // holds 1; at 5 seeds 2 +- t(0.9875, 4) / sqrt 5 = 2 +- 1.56 (t = 3.495, > 2.3 since
        // P(|T| <= 2.3) < 0.975) would still hold 1: futile at 3.
        assert!(sequential::t_two_sided(2.3, 4) < 0.975);
        let edge = seed_number_claim("s003-edge", Band::AtMost { bound: 1.0 });
        let opts = sequential_opts(&[3, 5]);
        let results = simulate(&opts, std::slice::from_ref(&edge));
        let want = Seeds {
            n: 3,
            stop: Stop::Futile,
        };
        assert_eq!(results.seeds_of(&edge), want);
        assert_eq!(results.len(), 4);
        let (o, _) = evaluate(&opts, &edge, &coverage_map(), &results);
        assert_eq!((o.verdict, o.seeds), (Verdict::Differs, want), "the mean 2");
    }

    #[test]
    fn a_claim_still_open_at_the_limit_keeps_its_means_verdict() {
        use crate::claims::Band;
        // Values 1, 2, 3, then 30: against "<= 5" with looks 3 and 5 (0.025 each).
        // n = 3: 2 +- 3.58 holds 5; at 5 seeds 2 +- 1.56 would not: open.
        // n = 5: 1, 2, 3, 30, 30: mean 13.2, s = sqrt(942.8 / 4) = 15.35, half 3.495 *
        //   15.35 / sqrt 5 = 24.0: holds 5, and it is the last look: open at the limit.
        let claim = Claim {
            extract: |r| {
                Ok(if r[0].seed <= 3 {
                    r[0].seed as f64
                } else {
                    30.0
                })
            },
            ..seed_number_claim("s003-open", Band::AtMost { bound: 5.0 })
        };
        let opts = sequential_opts(&[3, 5]);
        let results = simulate(&opts, std::slice::from_ref(&claim));
        let want = Seeds {
            n: 5,
            stop: Stop::Open,
        };
        assert_eq!(results.seeds_of(&claim), want);
        let (o, _) = evaluate(&opts, &claim, &coverage_map(), &results);
        assert_eq!(
            (o.verdict, o.seeds),
            (Verdict::Differs, want),
            "the mean 13.2"
        );
    }

    #[test]
    fn a_precondition_decided_failing_decides_the_claim_whatever_its_value() {
        use crate::claims::Band;
        let with = |band| Claim {
            precondition: Some(crate::catalog::Precondition {
                what: "the queue reaches TARGET",
                extract: |_| Ok(3.0),
                band,
            }),
            // on the knife edge at 3 seeds (values 1, 2, 3 against "<= 2")
            ..seed_number_claim("s003-edge", Band::AtMost { bound: 2.0 })
        };
        let r = Rule {
            looks: vec![3, 5],
            alpha: 0.05,
            futile_from: 0,
        };
        let late = Rule {
            futile_from: 5,
            ..r.clone()
        };
        let opts = sequential_opts(&r.looks);
        let claim = with(Band::AtLeast { bound: 25.0 });
        let results = simulate(&opts, std::slice::from_ref(&claim));
        assert_eq!(
            decide(&r, &claim, &results, 3),
            Decision::Decided,
            "fails everywhere: inconclusive"
        );
        // Holding, the value decides: 1, 2, 3 against "<= 2" at 0.05 / 4 per interval,
        // 2 +- t(0.99375, 4) / sqrt 5 at 5 seeds (t > 2.3) still holds 2: futile.
        let claim = with(Band::AtMost { bound: 25.0 });
        assert_eq!(decide(&r, &claim, &results, 3), Decision::Futile);
        // Not before the rule's first futile look.
        assert_eq!(decide(&late, &claim, &results, 3), Decision::Open);
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

    #[test]
    fn a_simulated_run_holds_what_its_cached_copy_holds() {
        // The bed's scavenger beside cubic, shortened to 35 s: its detection tests the
        // competitor, so the simulator's series has state names and tests to drop.
        let opts = Options {
            scenarios_dir: PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../scenarios"),
            ..Options::default()
        };
        let sref = ScenarioRef::with("testbed/scavenger-beside.toml", &["duration=35s"]);
        let sc = load(&opts, &sref).unwrap();
        let full = ledbat_sim::run(&sc, 1).unwrap();
        let s = full.series.as_ref().unwrap();
        assert!(!s.states.is_empty() && !s.tests.is_empty());
        let r = run_one(&sref, &sc, 1).unwrap();
        let kept = r.series.as_ref().unwrap();
        assert!(kept.states.is_empty() && kept.tests.is_empty());
        assert_eq!(kept.t_s, s.t_s);
        // Field for field what the cache gives back (Debug, since NaN != NaN in the series).
        let cached = crate::cache::decode(&crate::cache::encode(&r)).unwrap();
        assert!(
            format!("{cached:?}") == format!("{r:?}"),
            "the cached copy differs"
        );
    }
}
