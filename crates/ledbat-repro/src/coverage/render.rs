//! The pages generated from the map: `docs/repro/coverage.md` (every statement) and
//! `docs/repro/setup.md` (every scenario's setup against the paper's words), and the
//! per-paper counts table the report's header repeats.

use super::{Counts, Map, Needs, Param, Risk, Statement, Status, PAPERS};
use std::fmt::Write as _;

/// The command that regenerates the pages.
pub const COMMAND: &str = "ledbat repro --coverage docs/repro";

const GENERATED: &str = "<!-- generated from docs/repro/coverage/*.toml by `ledbat repro --coverage docs/repro`: edit the TOML files, not this page -->";

/// A table cell: pipes escaped, line breaks folded.
fn cell(s: &str) -> String {
    s.split_whitespace()
        .collect::<Vec<_>>()
        .join(" ")
        .replace('|', "\\|")
}

fn ticks(ids: &[String]) -> String {
    ids.iter()
        .map(|c| format!("`{c}`"))
        .collect::<Vec<_>>()
        .join(", ")
}

fn paper_name(p: &str) -> &str {
    PAPERS.iter().find(|(k, _)| *k == p).map_or(p, |(_, n)| *n)
}

/// The per-paper counts as a Markdown table (statements, checked, weak, missing, n/a, of
/// which suggestions; and rows not yet re-read when there are any).
pub fn counts_table(map: &Map) -> String {
    let counts = map.counts();
    let legacy = counts.iter().any(|(_, c)| c.legacy > 0);
    let mut s = String::from(
        "| paper | statements | checked | weak | missing | n/a | of the n/a: suggestions |",
    );
    if legacy {
        s.push_str(" not yet re-read |");
    }
    s.push('\n');
    s.push_str("|---|---|---|---|---|---|---|");
    if legacy {
        s.push_str("---|");
    }
    s.push('\n');
    for (p, c) in &counts {
        let name = if p == "all" { "all" } else { paper_name(p) };
        let _ = write!(
            s,
            "| {name} | {} | {} | {} | {} | {} | {} |",
            c.statements, c.checked, c.weak, c.missing, c.na, c.suggestions
        );
        if legacy {
            let _ = write!(s, " {} |", c.legacy);
        }
        s.push('\n');
    }
    s
}

/// One line per paper for a header: `seed 000: 29 statements, 20 checked, ...`.
pub fn counts_lines(map: &Map) -> Vec<String> {
    map.counts()
        .iter()
        .map(|(p, c)| {
            let name = if p == "all" { "all" } else { paper_name(p) };
            format!("{name}: {}", counts_phrase(c))
        })
        .collect()
}

/// `29 statements: 20 checked, 5 weak, 2 missing, 2 n/a`.
pub fn counts_phrase(c: &Counts) -> String {
    format!(
        "{} statements: {} checked, {} weak, {} missing, {} n/a",
        c.statements, c.checked, c.weak, c.missing, c.na
    )
}

fn where_cell(s: &Statement) -> String {
    if s.figure.is_empty() {
        cell(&s.section)
    } else {
        cell(&format!("{}, {}", s.section, s.figure))
    }
}

fn by_cell(s: &Statement) -> String {
    let mut parts = Vec::new();
    if !s.claims.is_empty() {
        parts.push(ticks(&s.claims));
    }
    if !s.bed.is_empty() {
        parts.push(format!("bed: {}", ticks(&s.bed)));
    }
    if !s.tried.is_empty() {
        parts.push(format!("tried by {}", ticks(&s.tried)));
    }
    let mut reason = String::new();
    if s.status == Status::NotApplicable {
        reason.push_str(s.nature.label());
        if !s.reason.is_empty() {
            reason.push_str(": ");
        }
    }
    if let Some(n) = s.needs {
        let _ = write!(reason, "needs {}: ", n.label());
    }
    reason.push_str(&s.reason);
    if !reason.is_empty() {
        parts.push(reason);
    }
    if s.legacy {
        parts.push("(carried from the former page, not yet re-read against the paper)".into());
    }
    cell(&parts.join("; "))
}

fn quote_cell(s: &Statement) -> String {
    if s.quote.is_empty() {
        String::new()
    } else {
        format!("“{}”", cell(&s.quote))
    }
}

const STATUS_TEXT: &str = "\
| status | rule |
|---|---|
| checked | a claim tests the statement as written: every part of it, over the whole range the paper describes, the quantity the paper names (or a committed test-bed result does, its page named) |
| weak | a claim exists but tests less than the statement: one point of a curve described as a whole, one half of a two-part sentence, a different quantity or setup, a one-sided band; the row says what is left out |
| missing | no claim tests it; `needs` says what it would take: `sim` a claim on the simulator as it is, `swarm` a swarm model it lacks, `testbed` real clients or links, `paper` a value the text copy of the paper lacks |
| n/a | not a result to reproduce, with the reason: a `suggestion` (proposal, hypothesis, expectation, future work), `setup` (a property of the setup or arithmetic on it), `background` (other work, history), `analysis` (a proof or a formula's property), or a result about something no longer available (a client version) |

Kinds: `number` (a value), `direction` (more or less, rises or falls, yields or not),
`ranking` (an order among three or more), `qualitative` (a described behaviour). Quotes are
verbatim words of the paper's text (pieces joined by `...`), enough to find the sentence;
`ledbat repro --coverage docs/repro --papers DIR` checks every quote against the papers'
text files in DIR.";

/// `docs/repro/coverage.md`.
pub fn coverage_md(map: &Map) -> String {
    let mut s = String::new();
    let _ = writeln!(
        s,
        "# Coverage: every statement of the five papers and the claims that test it\n"
    );
    let _ = writeln!(s, "{GENERATED}\n");
    let _ = writeln!(
        s,
        "Every statement about behaviour that the five papers ([papers.md](../papers.md)) \
         make, read section by section, with a few verbatim words to find it, the claims of \
         `ledbat repro` that test it and a status under one mechanical rule. The rows are \
         data, one file per paper under [coverage/](coverage/) (seed 003's chapters 5 and 6 \
         in a file of their own); this page is generated from them by `{}`, and `cargo test \
         -p ledbat-repro --test coverage` fails when it is stale, when a row names a claim \
         the catalog lacks, or when a catalog claim is named by no row. The scenarios' setups \
         against the papers' words are in [setup.md](setup.md).\n",
        COMMAND
    );
    let _ = writeln!(s, "## Status rule\n\n{STATUS_TEXT}\n");
    let _ = writeln!(s, "## Counts\n\n{}", counts_table(map));
    let missing_by = |n: Needs| map.statements().filter(|(_, r)| r.needs == Some(n)).count();
    let _ = writeln!(
        s,
        "Of the missing rows, {} need a claim on the simulator as it is, {} a swarm model it \
         lacks, {} the test bed and {} values the text copy of the paper lacks.\n",
        missing_by(Needs::Sim),
        missing_by(Needs::Swarm),
        missing_by(Needs::Testbed),
        missing_by(Needs::Paper)
    );
    let tried: Vec<&Statement> = map
        .statements()
        .map(|(_, r)| r)
        .filter(|r| !r.tried.is_empty())
        .collect();
    let _ = writeln!(s, "## The papers' suggestions, tried\n");
    let _ = writeln!(
        s,
        "Statements the papers offer as a proposal, a hypothesis or future work are not \
         results; the claims that try them are listed here and in their own section of the \
         report, outside its reproduced / differs / not reproduced counts.\n"
    );
    if tried.is_empty() {
        let _ = writeln!(s, "None yet.\n");
    } else {
        let _ = writeln!(s, "| ID | where | suggestion | claims that try it |");
        let _ = writeln!(s, "|---|---|---|---|");
        for r in tried {
            let _ = writeln!(
                s,
                "| {} | {} | {} | {} |",
                r.id,
                where_cell(r),
                cell(&r.says),
                ticks(&r.tried)
            );
        }
        s.push('\n');
    }
    for (_, m) in &map.files {
        let _ = writeln!(s, "## {}\n", m.heading);
        if !m.scope.is_empty() {
            let _ = writeln!(s, "{}\n", m.scope.trim());
        }
        let mut group: Option<String> = None;
        let mut open = false;
        for r in &m.statements {
            let g = r
                .section
                .split(['.', ' ', '-'])
                .next()
                .unwrap_or("")
                .to_string();
            if !m.groups.is_empty() && group.as_deref() != Some(&g) {
                let title = m
                    .groups
                    .get(&g)
                    .cloned()
                    .unwrap_or_else(|| format!("Section {g}"));
                let _ = writeln!(s, "{}### {title}\n", if open { "\n" } else { "" });
                group = Some(g);
                open = false;
            }
            if !open {
                let _ = writeln!(
                    s,
                    "| ID | where | quote | statement | kind | status | claims / reason |"
                );
                let _ = writeln!(s, "|---|---|---|---|---|---|---|");
                open = true;
            }
            let _ = writeln!(
                s,
                "| {} | {} | {} | {} | {} | {} | {} |",
                r.id,
                where_cell(r),
                quote_cell(r),
                cell(&r.says),
                r.kind.label(),
                r.status.label(),
                by_cell(r)
            );
        }
        s.push('\n');
    }
    s.trim_end().to_string() + "\n"
}

fn risk_cell(p: &Param) -> String {
    match p.risk {
        None => "—".into(),
        Some(Risk::No) => cell(&format!("no: {}", p.why)),
        Some(Risk::Yes) => {
            let mut t = String::from("**yes**");
            if !p.alt.is_empty() {
                let _ = write!(t, ": also run the paper's way, {}", ticks(&p.alt));
                if !p.claims.is_empty() {
                    let _ = write!(t, " for {}", ticks(&p.claims));
                }
            }
            if !p.why.is_empty() {
                let _ = write!(t, "; {}", p.why);
            }
            cell(&t)
        }
    }
}

/// `docs/repro/setup.md`.
pub fn setup_md(map: &Map) -> String {
    let mut s = String::new();
    let _ = writeln!(s, "# Scenario setups against the papers' words\n");
    let _ = writeln!(s, "{GENERATED}\n");
    let _ = writeln!(
        s,
        "Every parameter a paper states for the experiment a scenario file reproduces, with \
         where the paper states it and its words, the paper's value and ours; every \
         departure with its reason and whether a claim's verdict could depend on it. Where \
         one could, the row gives the paper's way as `--set` overrides and `ledbat repro` \
         runs every claim that reads the file both ways, for the same seeds, and marks it \
         fragile where the verdict flips (per claim in the report: \"The paper's way\"). \
         Parameters the paper leaves open are \
         listed as `not stated` with the value we chose. `cargo test -p ledbat-repro --test \
         coverage` checks that every scenario file of the papers has a table and that each \
         `key=value` a row cites is what the file holds. Generated by `{COMMAND}`.\n"
    );
    let _ = writeln!(
        s,
        "| paper | tables | files | parameters | departures | could flip a verdict |\n|---|---|---|---|---|---|"
    );
    for (p, name) in PAPERS {
        let tables: Vec<_> = map.setups().filter(|(q, _)| *q == p).collect();
        let files: usize = tables.iter().map(|(_, t)| t.files.len()).sum();
        let params: Vec<&Param> = tables.iter().flat_map(|(_, t)| &t.params).collect();
        let dep = params.iter().filter(|r| !r.departure.is_empty()).count();
        let flip = params.iter().filter(|r| r.risk == Some(Risk::Yes)).count();
        let _ = writeln!(
            s,
            "| {name} | {} | {files} | {} | {dep} | {flip} |",
            tables.len(),
            params.len()
        );
    }
    s.push('\n');
    for (p, name) in PAPERS {
        let tables: Vec<_> = map.setups().filter(|(q, _)| *q == p).collect();
        if tables.is_empty() {
            continue;
        }
        let _ = writeln!(s, "## {}\n", name[..1].to_uppercase() + &name[1..]);
        for (_, t) in tables {
            let files = t
                .files
                .iter()
                .map(|f| format!("`{f}`"))
                .collect::<Vec<_>>()
                .join(", ");
            let _ = writeln!(s, "### {}\n\n{files}\n", cell(&t.what));
            let _ = writeln!(
                s,
                "| parameter | where | paper's words | paper | ours | departure | could a verdict depend on it? |"
            );
            let _ = writeln!(s, "|---|---|---|---|---|---|---|");
            for r in &t.params {
                let mut name = cell(&r.name);
                if !r.only.is_empty() {
                    let _ = write!(name, " ({})", ticks(&r.only));
                }
                let quote = if r.quote.is_empty() {
                    String::new()
                } else {
                    format!("“{}”", cell(&r.quote))
                };
                let mut ours = cell(&r.ours);
                if !r.set.is_empty() {
                    let _ = write!(ours, " ({})", ticks(&r.set));
                }
                let _ = writeln!(
                    s,
                    "| {name} | {} | {quote} | {} | {ours} | {} | {} |",
                    cell(&r.section),
                    cell(&r.paper),
                    if r.departure.is_empty() {
                        "—".to_string()
                    } else {
                        cell(&r.departure)
                    },
                    risk_cell(r)
                );
            }
            s.push('\n');
        }
    }
    s.trim_end().to_string() + "\n"
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cells_escape_pipes_and_fold_lines() {
        assert_eq!(cell("a | b\n  c"), "a \\| b c");
    }

    #[test]
    fn the_counts_table_has_a_row_per_paper_and_all() {
        let m = Map::parse([(
            "t.toml",
            "paper = \"seed002\"\nheading = \"h\"\n[[statement]]\nid = \"002-a\"\n\
             section = \"5\"\nquote = \"q\"\nsays = \"s\"\nkind = \"number\"\n\
             status = \"weak\"\nclaims = [\"c\"]\nreason = \"r\"\n",
        )])
        .unwrap();
        let t = counts_table(&m);
        assert!(t.contains("| seed 002 | 1 | 0 | 1 | 0 | 0 | 0 |"), "{t}");
        assert!(t.contains("| all | 1 | 0 | 1 | 0 | 0 | 0 |"), "{t}");
        assert!(t.contains("| seed 000 | 0 |"), "{t}");
    }
}
