//! The coverage map: every statement the five papers make about behaviour, with a verbatim
//! quote, the claims that test it and a mechanical status; and every scenario's setup set
//! against the paper's words.
//!
//! The map is data, one TOML file per paper under `docs/repro/coverage/` (seed 003's
//! chapters 5 and 6 in a file of their own), compiled into this crate so that the report
//! can count from it. `docs/repro/coverage.md` and `docs/repro/setup.md` are generated
//! from it ([`render`]; `ledbat repro --coverage docs/repro` writes them, and
//! `tests/coverage.rs` fails when the committed pages are stale or the map disagrees with
//! the catalog).
//!
//! Status rule (mechanical, the same for every row):
//! - **checked**: a claim tests the statement as written, every part of it, over the range
//!   the paper describes (or a committed test-bed result does);
//! - **weak**: a claim exists but tests less than the statement (one point of a curve, one
//!   half of a sentence, a different quantity or setup, a one-sided band); the row says what;
//! - **missing**: nothing tests it; the row says what it would take (`needs`);
//! - **n/a**: not a result a simulation can speak to, with the reason: a suggestion,
//!   hypothesis or future work (`nature = "suggestion"`), a property of the setup or of a
//!   formula, background on other work, the behaviour of a client version that no longer
//!   exists.
//!
//! A claim that tests what the paper only suggests is listed in `tried` of the suggestion's
//! row, never in `claims` of a result row: the report puts it in "the papers' suggestions,
//! tried", outside the reproduced / differs / not reproduced counts.

pub mod render;

use serde::Deserialize;
use std::collections::{BTreeMap, BTreeSet};

/// The map's files: (file name under `docs/repro/coverage/`, contents), in report order.
pub const FILES: &[(&str, &str)] = &[
    (
        "seed000.toml",
        include_str!("../../../../docs/repro/coverage/seed000.toml"),
    ),
    (
        "seed001.toml",
        include_str!("../../../../docs/repro/coverage/seed001.toml"),
    ),
    (
        "seed002.toml",
        include_str!("../../../../docs/repro/coverage/seed002.toml"),
    ),
    (
        "seed003.toml",
        include_str!("../../../../docs/repro/coverage/seed003.toml"),
    ),
    (
        "seed003-ch5-6.toml",
        include_str!("../../../../docs/repro/coverage/seed003-ch5-6.toml"),
    ),
    (
        "seed004.toml",
        include_str!("../../../../docs/repro/coverage/seed004.toml"),
    ),
];

/// The papers in report order, with the names the report uses.
pub const PAPERS: [(&str, &str); 5] = [
    ("seed000", "seed 000"),
    ("seed001", "seed 001"),
    ("seed002", "seed 002"),
    ("seed003", "seed 003"),
    ("seed004", "seed 004"),
];

/// One file of the map: one paper, or one part of the thesis.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PaperMap {
    /// Paper short name, `seed000` .. `seed004`.
    pub paper: String,
    /// Heading of this file's part of the page (`Seed 000 (Abu & Gordon, dynamic gain)`).
    pub heading: String,
    /// What the file covers and how the paper was read (sections, what is left out and why).
    #[serde(default)]
    pub scope: String,
    /// Headings of the groups of rows, keyed by the first component of `section`
    /// (`"3"` for sections 3.x of the thesis); empty: one table for the file.
    #[serde(default)]
    pub groups: BTreeMap<String, String>,
    /// The statements, in the paper's order.
    #[serde(default, rename = "statement")]
    pub statements: Vec<Statement>,
    /// The scenario setups this paper's files use.
    #[serde(default, rename = "setup")]
    pub setups: Vec<Setup>,
}

/// One statement of a paper.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Statement {
    /// `PAPER-SECTION-FIGURE-N` (`000-V-fig4c-2`), unique over the map.
    pub id: String,
    /// Section as the paper numbers it (`V-C`, `3.2.4.1`).
    pub section: String,
    /// Figure, table or equation, when the statement is about one.
    #[serde(default)]
    pub figure: String,
    /// A few words of the paper, verbatim, that find the sentence.
    #[serde(default)]
    pub quote: String,
    /// What the statement says, with its numbers.
    pub says: String,
    /// The form of the statement.
    pub kind: Kind,
    /// Whether the paper offers it as a result, or as something else.
    #[serde(default)]
    pub nature: Nature,
    /// The status under the module's rule.
    pub status: Status,
    /// Claims that test it as a result (checked and weak rows).
    #[serde(default)]
    pub claims: Vec<String>,
    /// Claims that try a suggestion (suggestion rows only).
    #[serde(default)]
    pub tried: Vec<String>,
    /// Committed test-bed results (paths of Markdown files under `docs/`).
    #[serde(default)]
    pub bed: Vec<String>,
    /// Why weak, missing or n/a; or a note on a checked row.
    #[serde(default)]
    pub reason: String,
    /// What a missing row would take.
    #[serde(default)]
    pub needs: Option<Needs>,
    /// Carried over from the former hand-written page and not yet re-read against the paper
    /// (no quote yet); the page marks such rows.
    #[serde(default)]
    pub legacy: bool,
}

/// The form of a statement.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Kind {
    /// A value.
    Number,
    /// More or less, rises or falls, yields or not.
    Direction,
    /// An order among three or more.
    Ranking,
    /// A described behaviour.
    Qualitative,
}

/// What the paper offers the statement as.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Nature {
    /// A result of the paper's experiments or analysis.
    #[default]
    Result,
    /// A proposal, hypothesis, expectation or future work: not a result.
    Suggestion,
    /// A property of the setup, or arithmetic on it.
    Setup,
    /// Background: other work, history, a survey.
    Background,
    /// An analytical result (a proof, a formula's property).
    Analysis,
}

/// The mechanical status of a statement.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Status {
    /// A claim tests it as written.
    Checked,
    /// A claim tests part of it.
    Weak,
    /// Nothing tests it.
    Missing,
    /// Not a result a simulation can speak to.
    #[serde(rename = "n/a")]
    NotApplicable,
}

impl Status {
    /// The word used on the page.
    pub fn label(self) -> &'static str {
        match self {
            Status::Checked => "checked",
            Status::Weak => "weak",
            Status::Missing => "missing",
            Status::NotApplicable => "n/a",
        }
    }
}

impl Kind {
    /// The word used on the page.
    pub fn label(self) -> &'static str {
        match self {
            Kind::Number => "number",
            Kind::Direction => "direction",
            Kind::Ranking => "ranking",
            Kind::Qualitative => "qualitative",
        }
    }
}

impl Nature {
    /// The word used on the page.
    pub fn label(self) -> &'static str {
        match self {
            Nature::Result => "result",
            Nature::Suggestion => "suggestion",
            Nature::Setup => "setup",
            Nature::Background => "background",
            Nature::Analysis => "analysis",
        }
    }
}

/// What a missing statement would take to check.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Needs {
    /// A claim on the packet simulator as it is.
    Sim,
    /// A swarm model the simulator lacks.
    Swarm,
    /// Real clients or real links on the namespace test bed.
    Testbed,
    /// The paper's own data (a value the text copy lacks).
    Paper,
}

impl Needs {
    /// The word used on the page.
    pub fn label(self) -> &'static str {
        match self {
            Needs::Sim => "sim",
            Needs::Swarm => "swarm",
            Needs::Testbed => "testbed",
            Needs::Paper => "paper",
        }
    }
}

/// A setup table: the parameters of one or more scenario files against the paper's words.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Setup {
    /// Scenario files (relative to `scenarios/`) the table describes.
    pub files: Vec<String>,
    /// What the files simulate.
    pub what: String,
    /// The parameters.
    #[serde(rename = "param")]
    pub params: Vec<Param>,
}

/// One parameter of a setup table.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Param {
    /// What it is (`bottleneck rate`).
    pub name: String,
    /// Where the paper states it (section, figure or table); empty when it does not.
    #[serde(default)]
    pub section: String,
    /// The paper's words, verbatim; empty when the paper does not state the parameter.
    #[serde(default)]
    pub quote: String,
    /// The paper's value (starting `not stated` when it gives none).
    pub paper: String,
    /// Ours.
    pub ours: String,
    /// `key=value` overrides that the files already hold (checked: applying them changes
    /// nothing), so the table cannot drift from the files.
    #[serde(default)]
    pub set: Vec<String>,
    /// The subset of the table's files this row is about (default: all of them).
    #[serde(default)]
    pub only: Vec<String>,
    /// Why ours departs from the paper's (empty: it does not).
    #[serde(default)]
    pub departure: String,
    /// Whether a verdict could depend on the departure.
    #[serde(default)]
    pub risk: Option<Risk>,
    /// Why no verdict can depend on it (`risk = "no"`), or what the alternative run shows.
    #[serde(default)]
    pub why: String,
    /// The paper's way as `key=value` overrides (`risk = "yes"`): `ledbat repro` runs every
    /// claim that reads these files both ways and marks it fragile where the verdict flips.
    #[serde(default)]
    pub alt: Vec<String>,
    /// The claims the alternative run applies to; default: every claim reading the files.
    #[serde(default)]
    pub claims: Vec<String>,
}

/// Whether a verdict could depend on a departure.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Risk {
    /// No verdict can depend on it (the row says why).
    No,
    /// A verdict could: the claims are run both ways (`alt`).
    Yes,
}

/// The whole map, parsed.
#[derive(Clone, Debug)]
pub struct Map {
    /// The files, in [`FILES`] order.
    pub files: Vec<(String, PaperMap)>,
}

/// Counts of one paper (or of all), from the rows.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Counts {
    /// Every statement row.
    pub statements: usize,
    /// Checked rows.
    pub checked: usize,
    /// Weak rows.
    pub weak: usize,
    /// Missing rows.
    pub missing: usize,
    /// Not-applicable rows.
    pub na: usize,
    /// Of the n/a rows, the suggestions (proposals, hypotheses, future work).
    pub suggestions: usize,
    /// Rows not yet re-read against the paper (no quote).
    pub legacy: usize,
}

impl Counts {
    fn add(&mut self, s: &Statement) {
        self.statements += 1;
        match s.status {
            Status::Checked => self.checked += 1,
            Status::Weak => self.weak += 1,
            Status::Missing => self.missing += 1,
            Status::NotApplicable => self.na += 1,
        }
        if s.nature == Nature::Suggestion {
            self.suggestions += 1;
        }
        if s.legacy {
            self.legacy += 1;
        }
    }
}

impl Map {
    /// Parses the compiled-in files.
    pub fn load() -> Result<Map, String> {
        Self::parse(FILES.iter().map(|(n, t)| (*n, *t)))
    }

    /// Parses `(name, text)` pairs; an error names the file.
    pub fn parse<'a>(files: impl IntoIterator<Item = (&'a str, &'a str)>) -> Result<Map, String> {
        let files = files
            .into_iter()
            .map(|(name, text)| {
                toml::from_str::<PaperMap>(text)
                    .map(|m| (name.to_string(), m))
                    .map_err(|e| format!("docs/repro/coverage/{name}: {e}"))
            })
            .collect::<Result<Vec<_>, _>>()?;
        Ok(Map { files })
    }

    /// Every statement with the file it is in.
    pub fn statements(&self) -> impl Iterator<Item = (&str, &Statement)> {
        self.files
            .iter()
            .flat_map(|(n, m)| m.statements.iter().map(move |s| (n.as_str(), s)))
    }

    /// Every setup table with its paper.
    pub fn setups(&self) -> impl Iterator<Item = (&str, &Setup)> {
        self.files
            .iter()
            .flat_map(|(_, m)| m.setups.iter().map(move |s| (m.paper.as_str(), s)))
    }

    /// Counts per paper (`seed000` ..), in [`PAPERS`] order, then `all`.
    pub fn counts(&self) -> Vec<(String, Counts)> {
        let mut v: Vec<(String, Counts)> = PAPERS
            .iter()
            .map(|(p, _)| {
                let mut c = Counts::default();
                for (_, m) in &self.files {
                    if m.paper == *p {
                        m.statements.iter().for_each(|s| c.add(s));
                    }
                }
                (p.to_string(), c)
            })
            .collect();
        let mut all = Counts::default();
        self.statements().for_each(|(_, s)| all.add(s));
        v.push(("all".into(), all));
        v
    }

    /// Claims named only by suggestion rows (`tried`): the report lists them apart.
    pub fn tried_claims(&self) -> BTreeSet<&str> {
        self.statements()
            .flat_map(|(_, s)| s.tried.iter().map(String::as_str))
            .collect()
    }

    /// The rows that name `claim` (in `claims` or `tried`).
    pub fn rows_of<'a>(&'a self, claim: &'a str) -> impl Iterator<Item = &'a Statement> + 'a {
        self.statements()
            .map(|(_, s)| s)
            .filter(move |s| s.claims.iter().chain(&s.tried).any(|c| c == claim))
    }

    /// Every rule of the module doc that a row or a setup table breaks, one message each
    /// (the file and the row's id or the table's first file named). Rules against the
    /// catalog and the scenario files are in `tests/coverage.rs`.
    pub fn problems(&self) -> Vec<String> {
        let mut out = Vec::new();
        let mut ids = BTreeSet::new();
        let mut tried_by: BTreeMap<&str, &str> = BTreeMap::new();
        let mut claimed_by: BTreeMap<&str, &str> = BTreeMap::new();
        for (file, m) in &self.files {
            if !PAPERS.iter().any(|(p, _)| *p == m.paper) {
                out.push(format!("{file}: unknown paper `{}`", m.paper));
            }
            for s in &m.statements {
                let at = format!("{file}: {}", s.id);
                out.extend(
                    statement_problems(&m.paper, s)
                        .into_iter()
                        .map(|p| format!("{at}: {p}")),
                );
                if !ids.insert(s.id.as_str()) {
                    out.push(format!("{at}: duplicate id"));
                }
                for c in &s.tried {
                    tried_by.insert(c, &s.id);
                }
                for c in &s.claims {
                    claimed_by.insert(c, &s.id);
                }
            }
            for t in &m.setups {
                let at = format!(
                    "{file}: setup of {}",
                    t.files.first().map_or("(no file)", String::as_str)
                );
                out.extend(setup_problems(t).into_iter().map(|p| format!("{at}: {p}")));
            }
        }
        for (c, row) in &tried_by {
            if let Some(r) = claimed_by.get(c) {
                out.push(format!(
                    "claim {c} tries a suggestion ({row}) and tests a result ({r}): it is one or the other"
                ));
            }
        }
        out
    }
}

/// The fewest words a quote has: enough to find its sentence in the paper.
pub const MIN_QUOTE_WORDS: usize = 4;

/// The rules one statement row obeys.
fn statement_problems(paper: &str, s: &Statement) -> Vec<String> {
    let mut p = Vec::new();
    let num = paper.trim_start_matches("seed");
    if !s.id.starts_with(&format!("{num}-")) {
        p.push(format!("id must start with `{num}-`"));
    }
    if s.section.trim().is_empty() || s.says.trim().is_empty() {
        p.push("empty section or says".into());
    }
    if s.quote.trim().is_empty() && !s.legacy {
        p.push("no quote (only rows marked legacy may lack one)".into());
    }
    if !s.quote.trim().is_empty() && s.quote.split_whitespace().count() < MIN_QUOTE_WORDS {
        p.push(format!(
            "a quote of fewer than {MIN_QUOTE_WORDS} words cannot find its sentence"
        ));
    }
    let names = !s.claims.is_empty() || !s.bed.is_empty();
    match s.status {
        Status::Checked if !names => p.push("checked but names no claim and no bed result".into()),
        Status::Weak if !names => p.push("weak but names no claim and no bed result".into()),
        Status::Weak if s.reason.trim().is_empty() => p.push("weak without a reason".into()),
        Status::Missing if names => p.push("missing but names a claim (then it is weak)".into()),
        Status::Missing if s.needs.is_none() => p.push("missing without `needs`".into()),
        Status::NotApplicable if !s.claims.is_empty() => {
            p.push("n/a but names a claim in `claims` (a suggestion's claims go in `tried`)".into())
        }
        Status::NotApplicable if s.reason.trim().is_empty() => {
            p.push("n/a without a reason".into())
        }
        _ => {}
    }
    if s.status == Status::Missing && s.reason.trim().is_empty() {
        p.push("missing without a reason".into());
    }
    if s.needs.is_some() && s.status != Status::Missing {
        p.push("`needs` on a row that is not missing".into());
    }
    if s.nature == Nature::Suggestion && s.status != Status::NotApplicable {
        p.push(
            "a suggestion is not a result: its status is n/a (claims that try it: `tried`)".into(),
        );
    }
    if !s.tried.is_empty() && s.nature != Nature::Suggestion {
        p.push("`tried` on a row that is not a suggestion".into());
    }
    if s.nature != Nature::Result && matches!(s.status, Status::Checked | Status::Weak) {
        p.push(format!(
            "a {} row cannot be checked or weak: only results are reproduced",
            s.nature.label()
        ));
    }
    p
}

/// The rules one setup table obeys (those that need no scenario file).
fn setup_problems(t: &Setup) -> Vec<String> {
    let mut p = Vec::new();
    if t.files.is_empty() {
        p.push("no file".into());
    }
    for r in &t.params {
        let at = &r.name;
        if r.paper.trim().is_empty() || r.ours.trim().is_empty() {
            p.push(format!("{at}: empty paper or ours value"));
        }
        if !r.quote.trim().is_empty() && r.quote.split_whitespace().count() < MIN_QUOTE_WORDS {
            p.push(format!(
                "{at}: a quote of fewer than {MIN_QUOTE_WORDS} words cannot find its sentence"
            ));
        }
        if !r.quote.trim().is_empty() && r.section.trim().is_empty() {
            p.push(format!("{at}: a quote without its section"));
        }
        if r.quote.trim().is_empty() && !r.paper.trim().starts_with("not stated") {
            p.push(format!(
                "{at}: no quote: the paper's value must be quoted, or start with `not stated`"
            ));
        }
        for o in &r.only {
            if !t.files.contains(o) {
                p.push(format!("{at}: `only` names {o}, not a file of the table"));
            }
        }
        match (r.departure.trim().is_empty(), r.risk) {
            (true, Some(_)) if !r.paper.trim().starts_with("not stated") => p.push(format!(
                "{at}: a risk without a departure (or a value the paper leaves open)"
            )),
            (false, None) => p.push(format!(
                "{at}: a departure must say whether a verdict could depend on it (`risk`)"
            )),
            (_, Some(Risk::No)) if r.why.trim().is_empty() => {
                p.push(format!("{at}: risk = no without `why`"))
            }
            (_, Some(Risk::Yes)) if r.alt.is_empty() && r.why.trim().is_empty() => p.push(format!(
                "{at}: risk = yes needs `alt` (run both ways) or `why` (what was run)"
            )),
            _ => {}
        }
        if !r.alt.is_empty() && r.risk != Some(Risk::Yes) {
            p.push(format!("{at}: `alt` only with risk = yes"));
        }
    }
    p
}

/// Normalises text for quote matching: lower case, markup (`*`, `_`, `$`, `\`) dropped,
/// typographic dashes and quotes folded, whitespace collapsed.
pub fn normalise(text: &str) -> String {
    let mut s = String::with_capacity(text.len());
    let mut space = false;
    for ch in text.chars() {
        let ch = match ch {
            '*' | '_' | '$' | '\\' | '{' | '}' => continue,
            '\u{2010}'..='\u{2015}' | '\u{2212}' => '-',
            '\u{2018}' | '\u{2019}' | '`' => '\'',
            '\u{201c}' | '\u{201d}' => '"',
            '\u{00a0}' => ' ',
            c => c,
        };
        if ch.is_whitespace() {
            if !space && !s.is_empty() {
                s.push(' ');
            }
            space = true;
        } else {
            s.extend(ch.to_lowercase());
            space = false;
        }
    }
    s.trim_end().to_string()
}

/// The quotes of the map (statements' and setup parameters') that `paper_text` does not
/// contain, as `(where, quote)`; `paper` selects the rows (`seed003`).
pub fn unmatched_quotes<'a>(map: &'a Map, paper: &str, paper_text: &str) -> Vec<(String, &'a str)> {
    let hay = normalise(paper_text);
    let mut out = Vec::new();
    for (_, m) in map.files.iter().filter(|(_, m)| m.paper == paper) {
        for s in &m.statements {
            for q in split_quote(&s.quote) {
                if !hay.contains(&normalise(q)) {
                    out.push((s.id.clone(), q));
                }
            }
        }
        for t in &m.setups {
            for r in &t.params {
                for q in split_quote(&r.quote) {
                    if !hay.contains(&normalise(q)) {
                        out.push((format!("setup {}: {}", t.files[0], r.name), q));
                    }
                }
            }
        }
    }
    out
}

/// A quote may join several verbatim pieces with ` ... `; each piece is matched alone.
pub fn split_quote(q: &str) -> impl Iterator<Item = &str> {
    q.split(" ... ").map(str::trim).filter(|p| !p.is_empty())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn row(status: &str, extra: &str) -> String {
        format!(
            "paper = \"seed000\"\nheading = \"h\"\n[[statement]]\nid = \"000-a\"\nsection = \"I\"\n\
             quote = \"four words of it\"\nsays = \"s\"\nkind = \"number\"\nstatus = \"{status}\"\n{extra}\n"
        )
    }

    fn problems_of(text: &str) -> Vec<String> {
        Map::parse([("t.toml", text)]).unwrap().problems()
    }

    #[test]
    fn a_checked_row_must_name_a_claim() {
        assert!(problems_of(&row("checked", ""))[0].contains("names no claim"));
        assert!(problems_of(&row("checked", "claims = [\"s000-x\"]")).is_empty());
    }

    #[test]
    fn weak_missing_and_na_rows_must_say_why() {
        assert!(problems_of(&row("weak", "claims = [\"s000-x\"]"))[0].contains("reason"));
        let missing = problems_of(&row("missing", "reason = \"r\""));
        assert!(missing[0].contains("needs"), "{missing:?}");
        assert!(problems_of(&row("missing", "reason = \"r\"\nneeds = \"sim\"")).is_empty());
        assert!(problems_of(&row("n/a", ""))[0].contains("reason"));
    }

    #[test]
    fn a_suggestion_is_na_and_its_claims_are_tried() {
        let ok = row(
            "n/a",
            "nature = \"suggestion\"\nreason = \"proposed\"\ntried = [\"s000-x\"]",
        );
        assert!(problems_of(&ok).is_empty());
        let checked = row("checked", "nature = \"suggestion\"\nclaims = [\"s000-x\"]");
        assert!(problems_of(&checked)
            .iter()
            .any(|p| p.contains("not a result")));
        let tried_on_result = row("checked", "claims = [\"s000-y\"]\ntried = [\"s000-x\"]");
        assert!(problems_of(&tried_on_result)
            .iter()
            .any(|p| p.contains("`tried` on a row")));
    }

    #[test]
    fn a_row_without_a_quote_must_be_legacy() {
        let text = row("n/a", "reason = \"r\"").replace("quote = \"four words of it\"\n", "");
        assert!(problems_of(&text)[0].contains("no quote"));
        assert!(problems_of(&(text + "legacy = true\n")).is_empty());
    }

    #[test]
    fn counts_split_by_status_and_count_suggestions_among_na() {
        let text = "paper = \"seed001\"\nheading = \"h\"\n\
            [[statement]]\nid = \"001-a\"\nsection = \"I\"\nquote = \"four words of it\"\nsays = \"s\"\nkind = \"number\"\nstatus = \"checked\"\nclaims = [\"c\"]\n\
            [[statement]]\nid = \"001-b\"\nsection = \"I\"\nquote = \"four words of it\"\nsays = \"s\"\nkind = \"number\"\nstatus = \"n/a\"\nnature = \"suggestion\"\nreason = \"r\"\n\
            [[statement]]\nid = \"001-c\"\nsection = \"I\"\nquote = \"four words of it\"\nsays = \"s\"\nkind = \"number\"\nstatus = \"missing\"\nneeds = \"sim\"\nreason = \"r\"\n";
        let m = Map::parse([("t.toml", text)]).unwrap();
        let c = m.counts();
        let s1 = c.iter().find(|(p, _)| p == "seed001").unwrap().1;
        assert_eq!(
            (s1.statements, s1.checked, s1.missing, s1.na, s1.suggestions),
            (3, 1, 1, 1, 1)
        );
        assert_eq!(c.last().unwrap().1, s1);
    }

    #[test]
    fn quotes_match_across_markup_case_and_line_breaks() {
        let paper = "LEDBAT *significantly* increases its\n congestion window from 2 packets";
        assert!(normalise(paper).contains(&normalise("significantly increases its congestion")));
        let q = "increases its ... from 2 packets";
        assert_eq!(split_quote(q).count(), 2);
        assert!(split_quote(q).all(|p| normalise(paper).contains(&normalise(p))));
    }

    #[test]
    fn a_departure_must_state_its_risk() {
        let t = |extra: &str| {
            format!(
                "paper = \"seed000\"\nheading = \"h\"\n[[setup]]\nfiles = [\"seed000/a.toml\"]\n\
                 what = \"w\"\n[[setup.param]]\nname = \"rate\"\nsection = \"III\"\nquote = \"four words of it\"\n\
                 paper = \"1\"\nours = \"2\"\n{extra}\n"
            )
        };
        assert!(problems_of(&t("departure = \"d\""))[0].contains("risk"));
        assert!(problems_of(&t("departure = \"d\"\nrisk = \"no\""))[0].contains("why"));
        assert!(problems_of(&t("departure = \"d\"\nrisk = \"no\"\nwhy = \"w\"")).is_empty());
        assert!(problems_of(&t("departure = \"d\"\nrisk = \"yes\""))[0].contains("alt"));
        assert!(problems_of(&t("departure = \"d\"\nrisk = \"yes\"\nalt = [\"x=1\"]")).is_empty());
    }
}
