//! End to end: `ledbat repro --quick --seeds 2` over every claim. A claim that does not
//! reproduce is not a failure here (that is the report's job); a claim that cannot run, an
//! extractor that fails, or a report writer that breaks is.

use ledbat_repro::claims::Verdict;
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
    };
    let report = run(&opts, "ledbat repro --quick --seeds 2").unwrap();
    for o in &report.claims {
        assert_ne!(
            o.verdict,
            Verdict::NotRun,
            "{} did not run: {:?}",
            o.id,
            o.errors
        );
        assert!(o.errors.is_empty(), "{}: {:?}", o.id, o.errors);
        assert_eq!(o.values.len(), 2, "{}", o.id);
        if o.verdict != Verdict::Reproduced {
            assert!(
                !o.explanation.is_empty(),
                "{} is {} without an explanation",
                o.id,
                o.verdict.label()
            );
        }
    }
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
    };
    let a = run(&opts, "x").unwrap().to_json();
    let b = run(&opts, "x").unwrap().to_json();
    assert_eq!(a, b);
}
