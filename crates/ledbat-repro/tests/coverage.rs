//! Keeps `docs/repro/coverage.md` honest against the claim catalog: every claim ID the page
//! names exists, every catalog claim is named by a statement it checks, statement IDs are
//! unique with a known status, and the summary table equals the counts of the rows.
//!
//! The page's statement rows are Markdown table lines starting `| 00N-` with six cells:
//! ID, where, statement, kind, status, and "by / reason" (claim IDs in backticks). A checked
//! or weak row names a claim, or a committed test-bed result (a backticked path of a Markdown file
//! under the docs directory, which must exist): bed experiments are not part of the simulated `ledbat repro` run.

use ledbat_repro::catalog;
use std::collections::{BTreeMap, BTreeSet};

const STATUSES: [&str; 6] = ["checked", "weak", "missing", "swarm", "testbed", "n/a"];

fn coverage_md() -> String {
    let path =
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../docs/repro/coverage.md");
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// Backticked tokens that look like claim IDs (`s00N-` followed by lower-case letters,
/// digits and dashes).
fn claim_refs(text: &str) -> BTreeSet<String> {
    text.split('`')
        .skip(1)
        .step_by(2)
        .filter(|t| {
            t.len() > 5
                && t.starts_with("s00")
                && t.as_bytes()[3].is_ascii_digit()
                && t.as_bytes()[4] == b'-'
                && t.bytes()
                    .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'-')
        })
        .map(str::to_string)
        .collect()
}

/// Backticked repository paths of committed test-bed results (Markdown files under the docs
/// directory).
fn bed_refs(text: &str) -> BTreeSet<String> {
    text.split('`')
        .skip(1)
        .step_by(2)
        .filter(|t| t.starts_with("docs/") && t.ends_with(".md") && !t.contains(' '))
        .map(str::to_string)
        .collect()
}

#[derive(Debug)]
struct Row {
    line: usize,
    id: String,
    status: String,
    refs: BTreeSet<String>,
    beds: BTreeSet<String>,
}

/// The statement rows: table lines whose first cell starts with a paper number `00N-`.
fn statement_rows(doc: &str) -> Vec<Row> {
    doc.lines()
        .enumerate()
        .filter(|(_, l)| {
            let b = l.as_bytes();
            l.starts_with("| 00") && b.len() > 6 && b[4].is_ascii_digit() && b[5] == b'-'
        })
        .map(|(i, l)| {
            let cells: Vec<&str> = l.split('|').map(str::trim).collect();
            // leading and trailing empty cells around the six columns
            assert_eq!(
                cells.len(),
                8,
                "coverage.md line {}: expected 6 cells, got {}: {l}",
                i + 1,
                cells.len().saturating_sub(2)
            );
            Row {
                line: i + 1,
                id: cells[1].to_string(),
                status: cells[5].to_string(),
                refs: claim_refs(cells[6]),
                beds: bed_refs(cells[6]),
            }
        })
        .collect()
}

/// Summary rows: `| seed 00N | n | checked | weak | missing | swarm | testbed | n/a | c % | s % |`
/// and the `| all | ... |` row, keyed by `000`..`004` and `all`.
fn summary(doc: &str) -> BTreeMap<String, Vec<u64>> {
    doc.lines()
        .filter(|l| l.starts_with("| seed 00") || l.starts_with("| all |"))
        .map(|l| {
            let cells: Vec<&str> = l.split('|').map(str::trim).collect();
            let key = cells[1].trim_start_matches("seed ").to_string();
            let nums = cells[2..cells.len() - 1]
                .iter()
                .map(|c| {
                    c.trim_end_matches('%')
                        .trim()
                        .parse::<u64>()
                        .unwrap_or_else(|e| panic!("summary row `{l}`: cell `{c}`: {e}"))
                })
                .collect();
            (key, nums)
        })
        .collect()
}

/// [statements, checked, weak, missing, swarm, testbed, n/a, coverage %, strict %]
fn counts<'a>(rows: impl Iterator<Item = &'a Row>) -> Vec<u64> {
    let mut by_status = [0u64; 6];
    for r in rows {
        let i = STATUSES
            .iter()
            .position(|s| *s == r.status)
            .unwrap_or_else(|| panic!("line {}: unknown status `{}`", r.line, r.status));
        by_status[i] += 1;
    }
    let n: u64 = by_status.iter().sum();
    let speakable = (n - by_status[5]) as f64;
    let pct = |x: u64| (100.0 * x as f64 / speakable).round() as u64;
    let mut v = vec![n];
    v.extend(by_status);
    v.push(pct(by_status[0] + by_status[1]));
    v.push(pct(by_status[0]));
    v
}

#[test]
fn every_claim_named_in_coverage_exists_in_the_catalog() {
    let ids: BTreeSet<&str> = catalog::all().iter().map(|c| c.id).collect();
    let unknown: Vec<String> = claim_refs(&coverage_md())
        .into_iter()
        .filter(|r| !ids.contains(r.as_str()))
        .collect();
    assert!(
        unknown.is_empty(),
        "coverage.md names claims the catalog lacks: {unknown:?}"
    );
}

#[test]
fn every_catalog_claim_checks_a_statement_in_coverage() {
    let rows = statement_rows(&coverage_md());
    let named: BTreeSet<&str> = rows
        .iter()
        .filter(|r| r.status == "checked" || r.status == "weak")
        .flat_map(|r| r.refs.iter().map(String::as_str))
        .collect();
    let absent: Vec<&str> = catalog::all()
        .iter()
        .map(|c| c.id)
        .filter(|id| !named.contains(id))
        .collect();
    assert!(
        absent.is_empty(),
        "catalog claims no checked/weak row of coverage.md names: {absent:?}"
    );
}

#[test]
fn statement_ids_are_unique_and_checked_rows_name_a_claim() {
    let rows = statement_rows(&coverage_md());
    assert!(!rows.is_empty(), "no statement rows found");
    let mut seen = BTreeSet::new();
    for r in &rows {
        assert!(
            seen.insert(r.id.as_str()),
            "line {}: duplicate ID {}",
            r.line,
            r.id
        );
        assert!(
            STATUSES.contains(&r.status.as_str()),
            "line {}: unknown status `{}`",
            r.line,
            r.status
        );
        if r.status == "checked" || r.status == "weak" {
            assert!(
                !r.refs.is_empty() || !r.beds.is_empty(),
                "line {}: {} names no claim and no test-bed result",
                r.line,
                r.id
            );
        }
        for b in &r.beds {
            let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
                .join("../..")
                .join(b);
            assert!(path.is_file(), "line {}: {b} does not exist", r.line);
        }
    }
}

#[test]
fn summary_table_matches_the_rows() {
    let doc = coverage_md();
    let rows = statement_rows(&doc);
    let table = summary(&doc);
    for paper in ["000", "001", "002", "003", "004"] {
        let want = counts(rows.iter().filter(|r| r.id.starts_with(paper)));
        assert_eq!(table.get(paper), Some(&want), "summary row of seed {paper}");
    }
    assert_eq!(
        table.get("all"),
        Some(&counts(rows.iter())),
        "summary row `all`"
    );
}

#[test]
fn bed_refs_takes_only_backticked_docs_markdown_paths() {
    let text = "`docs/repro/README.md`, `docs/repro/index.html`, `testbed/README.md`, \
                docs/papers.md";
    let got: Vec<String> = bed_refs(text).into_iter().collect();
    assert_eq!(got, ["docs/repro/README.md"]);
}

#[test]
fn claim_refs_takes_only_backticked_claim_ids() {
    let text = "`s003-red-queue` and `s000-fixed320-utilisation`, not `seed000/x.toml`, \
                not s001-bare, not `S002-UPPER`, not `s00x-y`";
    let got: Vec<String> = claim_refs(text).into_iter().collect();
    assert_eq!(got, ["s000-fixed320-utilisation", "s003-red-queue"]);
}

#[test]
fn counts_splits_by_status_and_leaves_na_out_of_the_percentages() {
    let row = |id: &str, status: &str| Row {
        line: 0,
        id: id.into(),
        status: status.into(),
        refs: BTreeSet::new(),
        beds: BTreeSet::new(),
    };
    let rows = [
        row("000-a", "checked"),
        row("000-b", "weak"),
        row("000-c", "missing"),
        row("000-d", "n/a"),
    ];
    // 4 statements, 3 a simulation can speak to: (1 + 1) / 3 = 67 %, strict 1 / 3 = 33 %
    assert_eq!(counts(rows.iter()), [4, 1, 1, 1, 0, 0, 1, 67, 33]);
}
