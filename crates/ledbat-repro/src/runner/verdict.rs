//! One claim's outcome from the runs: its metric per seed and their summary, the verdict
//! by the rule of [`crate::claims`], its null run's, its setup runs' and its precondition's,
//! and the plots of its first seed.

use super::{
    aggregate, claim_runs, distinct_instances, mean_over_seeds, quick_overrides, seed_value,
    setup_variants, Options, Results,
};
use crate::catalog::{Claim, Null, ScenarioRef};
use crate::claims::{
    is_fragile, setup_flips, NullOutcome, Outcome, PreconditionOutcome, SetupRun, Verdict,
};
use crate::coverage::Map;
use crate::plot::{HBand, Plot, Series};
use ledbat_sim::RunResult;

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
    let seeds = results.seeds_of(claim);
    for seed in 1..=seeds.n {
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
        let mean = mean_over_seeds(seeds.n, &c, &claim.scenarios, results);
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
            let mean = mean_over_seeds(seeds.n, claim, &v.scenarios, results);
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
                    let mean = mean_over_seeds(seeds.n, &c, &claim.scenarios, results);
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
            let mean = mean_over_seeds(seeds.n, claim, &scenarios, results);
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
        runs: distinct_instances(claim) * (seeds.n as usize + 1)
            + (variants.len() + usize::from(claim.null_scenarios().is_some()))
                * distinct_instances(claim)
                * seeds.n as usize,
        seeds,
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
