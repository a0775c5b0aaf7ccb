//! End to end: `ledbat repro --quick --seeds 2` over every claim. A claim that does not
//! reproduce is not a failure here (that is the report's job); a claim that cannot run, an
//! extractor that fails, or a report writer that breaks is; and so is a claim whose null
//! run (catalog rule 12) gives its own verdict or "reproduced", unless the claim lists it
//! (`Claim::null_same`, printed by the report).

use ledbat_repro::claims::{NullOutcome, Verdict};
use ledbat_repro::runner::{run, Options};
use std::path::Path;

#[test]
fn every_claim_runs_in_quick_mode_and_the_reports_render() {
    let opts = Options {
        scenarios_dir: Path::new(env!("CARGO_MANIFEST_DIR")).join("../../scenarios"),
        seeds: 2,
        quick: true,
        select: Vec::new(),
        progress: false,
        cache: None,
        remote: None,
    };
    let report = run(&opts, "ledbat repro --quick --seeds 2").unwrap();
    let mut bad = Vec::new();
    for o in &report.claims {
        if o.verdict == Verdict::NotRun || !o.errors.is_empty() {
            bad.push(format!("{} did not run: {:?}", o.id, o.errors));
        }
        if o.values.len() != 2 {
            bad.push(format!("{}: {} values", o.id, o.values.len()));
        }
        if o.verdict == Verdict::NotTestable {
            if o.untestable.is_empty() {
                bad.push(format!("{} is untestable without why", o.id));
            }
        } else if o.verdict != Verdict::Reproduced && o.explanation.is_empty() {
            bad.push(format!(
                "{} is {} without an explanation",
                o.id,
                o.verdict.label()
            ));
        }
    }
    for o in &report.claims {
        let Some(NullOutcome::Run {
            setup,
            mean,
            verdict,
            ..
        }) = &o.null
        else {
            continue;
        };
        if mean.is_none() {
            bad.push(format!("{}: its null run ({setup}) gave no value", o.id));
        }
        if o.null.as_ref().and_then(|n| n.discriminates(o.verdict)) == Some(false)
            && o.null_same.is_empty()
        {
            bad.push(format!(
                "{}: {} under its null ({setup}) as in its own run ({}): fix the claim or \
                 the null, or list it with `null_same: Some(\"why\")`",
                o.id,
                verdict.label(),
                o.verdict.label()
            ));
        }
    }
    assert!(bad.is_empty(), "{}", bad.join("\n"));
    let md = report.to_markdown();
    assert!(md.contains("**2 seeds per scenario**"));
    let html = report.to_html();
    assert!(html.matches("<svg").count() >= report.claims.len());
    let json: serde_json::Value = serde_json::from_str(&report.to_json()).unwrap();
    assert_eq!(
        json["claims"].as_array().unwrap().len(),
        report.claims.len()
    );
}

#[test]
fn the_same_seeds_give_the_same_report() {
    let opts = Options {
        scenarios_dir: Path::new(env!("CARGO_MANIFEST_DIR")).join("../../scenarios"),
        seeds: 2,
        quick: true,
        select: vec!["seed003".into()],
        progress: false,
        cache: None,
        remote: None,
    };
    let a = run(&opts, "x").unwrap().to_json();
    let b = run(&opts, "x").unwrap().to_json();
    assert_eq!(a, b);
}
