//! Keeps the coverage map (`docs/repro/coverage/*.toml`) honest against the catalog and the
//! scenario files, and the pages generated from it (`docs/repro/coverage.md`,
//! `docs/repro/setup.md`) fresh: every claim a row names exists, every catalog claim is
//! named by a row (as a result's test or a suggestion's trial), the rows obey the status
//! rule, every scenario file of the papers has a setup table whose cited `key=value`s are
//! what the file holds, and the committed pages equal what the map renders.

use ledbat_repro::catalog;
use ledbat_repro::coverage::{render, Map, Status};
use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

fn map() -> Map {
    Map::load().unwrap_or_else(|e| panic!("{e}"))
}

#[test]
fn the_map_obeys_the_status_rule() {
    let p = map().problems();
    assert!(p.is_empty(), "{}", p.join("\n"));
}

#[test]
fn every_claim_a_row_names_exists_in_the_catalog() {
    let ids: BTreeSet<&str> = catalog::all().iter().map(|c| c.id).collect();
    let m = map();
    let unknown: Vec<String> = m
        .statements()
        .flat_map(|(f, s)| {
            s.claims
                .iter()
                .chain(&s.tried)
                .filter(|c| !ids.contains(c.as_str()))
                .map(move |c| format!("{f}: {}: {c}", s.id))
        })
        .collect();
    assert!(
        unknown.is_empty(),
        "rows name claims the catalog lacks:\n{}",
        unknown.join("\n")
    );
}

#[test]
fn every_catalog_claim_tests_a_statement_or_tries_a_suggestion() {
    let m = map();
    let named: BTreeSet<&str> = m
        .statements()
        .flat_map(|(_, s)| {
            let results = matches!(s.status, Status::Checked | Status::Weak)
                .then_some(s.claims.iter())
                .into_iter()
                .flatten();
            results.chain(s.tried.iter()).map(String::as_str)
        })
        .collect();
    let absent: Vec<&str> = catalog::all()
        .iter()
        .map(|c| c.id)
        .filter(|id| !named.contains(id))
        .collect();
    assert!(
        absent.is_empty(),
        "catalog claims that no checked or weak row names and no suggestion row tries: {absent:?}"
    );
}

#[test]
fn bed_results_a_row_names_are_committed() {
    for (f, s) in map().statements() {
        for b in &s.bed {
            assert!(
                b.starts_with("docs/") && b.ends_with(".md") && root().join(b).is_file(),
                "{f}: {}: bed result {b} is not a committed Markdown file under docs/",
                s.id
            );
        }
    }
}

/// The scenario files of the papers' directories (`scenarios/seed00N/*.toml`, sweep files
/// excluded: they name a scenario file that has its own table).
fn paper_scenarios() -> Vec<String> {
    let mut v = Vec::new();
    for p in ["seed000", "seed001", "seed002", "seed003", "seed004"] {
        let dir = root().join("scenarios").join(p);
        for e in std::fs::read_dir(&dir).unwrap_or_else(|e| panic!("{}: {e}", dir.display())) {
            let name = e.unwrap().file_name().to_string_lossy().to_string();
            if name.ends_with(".toml") && !name.ends_with(".sweep.toml") {
                v.push(format!("{p}/{name}"));
            }
        }
    }
    v.sort();
    v
}

#[test]
fn setup_tables_name_existing_files_and_cite_what_they_hold() {
    let m = map();
    let mut bad = Vec::new();
    for (paper, t) in m.setups() {
        for f in &t.files {
            if !f.starts_with(&format!("{paper}/")) {
                bad.push(format!(
                    "{paper}: setup names {f}, outside scenarios/{paper}/"
                ));
            }
            let path = root().join("scenarios").join(f);
            let Ok(text) = std::fs::read_to_string(&path) else {
                bad.push(format!("{paper}: setup names {f}, which does not exist"));
                continue;
            };
            let base =
                ledbat_sim::Scenario::from_toml(&text).unwrap_or_else(|e| panic!("{f}: {e}"));
            for r in &t.params {
                if !r.only.is_empty() && !r.only.contains(f) {
                    continue;
                }
                match ledbat_sim::Scenario::from_toml_with(&text, &r.set) {
                    Ok(sc) if sc == base => {}
                    Ok(_) => bad.push(format!(
                        "{f}: `{}` cites {:?}, which the file does not hold",
                        r.name, r.set
                    )),
                    Err(e) => bad.push(format!("{f}: `{}`: {e}", r.name)),
                }
                if let Err(e) = ledbat_sim::Scenario::from_toml_with(&text, &r.alt) {
                    bad.push(format!("{f}: `{}`: alt {:?}: {e}", r.name, r.alt));
                }
            }
        }
    }
    assert!(bad.is_empty(), "{}", bad.join("\n"));
}

#[test]
fn every_paper_scenario_has_a_setup_table() {
    let m = map();
    let covered: BTreeSet<&str> = m
        .setups()
        .flat_map(|(_, t)| t.files.iter().map(String::as_str))
        .collect();
    let missing: Vec<String> = paper_scenarios()
        .into_iter()
        .filter(|f| !covered.contains(f.as_str()))
        .collect();
    assert!(
        missing.is_empty(),
        "scenario files without a setup table: {missing:?}"
    );
}

fn check_page(name: &str, want: &str) {
    let path = root().join("docs/repro").join(name);
    let have = std::fs::read_to_string(&path).unwrap_or_default();
    assert!(
        have == want,
        "docs/repro/{name} is stale: regenerate it with `cargo run --release -p ledbat-cli -- repro --coverage docs/repro` ({})",
        render::COMMAND
    );
}

#[test]
fn coverage_md_is_generated_from_the_map() {
    check_page("coverage.md", &render::coverage_md(&map()));
}

#[test]
fn setup_md_is_generated_from_the_map() {
    check_page("setup.md", &render::setup_md(&map()));
}

#[test]
fn a_cited_value_the_file_does_not_hold_is_caught() {
    // The check above compares the file with and without the cited overrides; a wrong
    // value must make them differ (and a right one must not).
    let text = std::fs::read_to_string(root().join("scenarios/seed000/fixed-gain.toml")).unwrap();
    let base = ledbat_sim::Scenario::from_toml(&text).unwrap();
    let same = ledbat_sim::Scenario::from_toml_with(&text, &["topology.rate=1.5Mbps"]).unwrap();
    let other = ledbat_sim::Scenario::from_toml_with(&text, &["topology.rate=2Mbps"]).unwrap();
    assert_eq!(same, base);
    assert_ne!(other, base);
}

#[test]
fn the_readme_quotes_the_maps_counts() {
    // The README gives the map's counts per paper, not a percentage: the table the report's
    // header and coverage.md give, verbatim.
    let readme = std::fs::read_to_string(root().join("README.md")).unwrap();
    let table = render::counts_table(&map());
    assert!(
        readme.contains(&table),
        "README.md does not quote the coverage map's counts; replace its table with:\n{table}"
    );
}
