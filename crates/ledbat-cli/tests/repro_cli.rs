//! `ledbat repro --seeds auto:LOOKS`: the sequential rule with the rounds the user names, end
//! to end through the command line, and a malformed value refused before anything runs.

mod common;
use common::{tmpdir, BIN};
use std::process::Command;

#[test]
fn seeds_auto_with_looks_runs_those_rounds_and_the_report_states_them() {
    let dir = tmpdir("repro", "looks");
    let out = Command::new(BIN)
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .args(["repro", "--seeds", "auto:3,5", "--no-cache", "--out"])
        .arg(dir.path())
        .arg("s000-fixed320-utilisation")
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "stderr: {err}");
    let report = std::fs::read_to_string(dir.path().join("report.md")).unwrap();
    assert!(report.contains("ledbat repro --seeds auto:3,5 s000-fixed320-utilisation"));
    assert!(report.contains("(3, 5 seeds)"), "{report}");
    // 0.05 over two looks: 97.5 % intervals; the last look is the limit, no futility stop.
    assert!(report.contains("Bonferroni: 97.5 % Student or Wilson intervals"));
    assert!(!report.contains("also stops, open"), "{report}");
}

#[test]
fn seeds_auto_with_looks_that_do_not_increase_is_refused_with_the_reason() {
    let dir = tmpdir("repro", "bad-looks");
    let out = Command::new(BIN)
        .args(["repro", "--seeds", "auto:10,5", "--no-cache", "--out"])
        .arg(dir.path().join("out"))
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "stderr: {err}");
    assert!(
        err.contains("`auto:10,5`") && err.contains("must increase"),
        "{err}"
    );
    assert!(!dir.path().join("out").exists());
}
