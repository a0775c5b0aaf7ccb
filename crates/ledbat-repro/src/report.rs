//! Report writers: a terminal table, JSON, `report.md` (one row per claim) and a
//! self-contained `index.html` (inline SVG plots, no external resources).

use crate::claims::{fmt_num, setup_flips, NullOutcome, Outcome, Verdict};
use crate::plot::Plot;
use crate::sequential::Stop;
use serde::Serialize;
use std::fmt::Write as _;

mod html;

/// A whole reproduction report.
#[derive(Clone, Debug, Serialize)]
pub struct Report {
    /// Seeds per scenario (seeds 1..=n); under the sequential rule the most any claim got.
    pub seeds: u64,
    /// The sequential rule that set each claim's seeds (`--seeds auto`); `None`: `seeds`
    /// for every claim.
    pub sequential: Option<crate::sequential::Rule>,
    /// Whether the quick (reduced-duration) variants were used.
    pub quick: bool,
    /// The command line that produced the report.
    pub command: String,
    /// One outcome per claim, in catalog order.
    pub claims: Vec<Outcome>,
    /// Plots per claim id (same order as `claims`).
    #[serde(skip)]
    pub plots: Vec<Vec<Plot>>,
    /// Extra sections (title, markdown-ish text, plots), e.g. the fluid model.
    #[serde(skip)]
    pub sections: Vec<Section>,
    /// Simulation runs made for the report (every distinct scenario instance for every seed,
    /// plus one exact-start run each).
    pub runs: usize,
    /// Worker threads the runs were spread over.
    #[serde(skip)]
    pub threads: usize,
    /// The coverage map's counts, one line per paper and one for all (statements, checked,
    /// weak, missing, n/a: `docs/repro/coverage.md`).
    pub coverage: Vec<String>,
    /// Wall-clock seconds the whole report took. Printed in `report.md` and `index.html`,
    /// which therefore differ from run to run in this one line; left out of the JSON, which
    /// stays byte-identical for the same seeds.
    #[serde(skip)]
    pub elapsed_secs: f64,
    /// Of [`Report::runs`], those read from the run cache rather than simulated. Printed
    /// in the cost line beside the wall clock, which it explains; left out of the JSON,
    /// which is the same with and without the cache.
    #[serde(skip)]
    pub cached: usize,
}

/// What the claims' nulls gave (catalog rule 12), as the summary and the JSON count them.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize)]
pub struct NullTally {
    /// Claims with a null run.
    pub runs: usize,
    /// Null runs whose verdict is neither "reproduced" nor the claim's own (where the
    /// claim's holds its direction).
    pub discriminate: usize,
    /// Of those, the claims not reproduced in their own run and not reproduced under their
    /// null either: the null shows only that the claim cannot pass there, not that its
    /// verdict can change.
    pub both_fail: usize,
    /// Null runs that gave the same verdict as the claim's own, or "reproduced".
    pub same: usize,
    /// Of those, the listed exceptions (the claim says why: `null_same`).
    pub same_listed: usize,
    /// Claims with an alternative model value instead.
    pub alternatives: usize,
    /// Of those, the values the claim's tolerance excludes.
    pub excluded: usize,
    /// Claims that say why they have neither.
    pub reasons: usize,
    /// Claims that name no null.
    pub unset: usize,
}

/// Whether a claim's null discriminates (`NullOutcome::discriminates`); `None` without one.
pub fn null_discriminates(o: &Outcome) -> Option<bool> {
    o.null.as_ref()?.discriminates(o.verdict)
}

/// The JSON key of a verdict in `tally` (`not-reproduced`).
fn verdict_key(v: Verdict) -> String {
    serde_json::to_value(v)
        .ok()
        .and_then(|x| x.as_str().map(str::to_string))
        .unwrap_or_default()
}

/// A claim's null in one cell: what it is and what it gave.
fn null_cell(o: &Outcome) -> String {
    match &o.null {
        None => "none named".into(),
        Some(NullOutcome::Run { mean, verdict, .. }) => {
            let v = mean.map_or("no value".into(), fmt_num);
            let mark = match null_discriminates(o) {
                Some(false) if o.null_same.is_empty() => ": same as own",
                Some(false) => ": same as own (listed)",
                _ => "",
            };
            format!("null run {v}, {}{mark}", verdict.label())
        }
        Some(NullOutcome::Excludes {
            excludes, excluded, ..
        }) => format!(
            "alternative {}{}",
            fmt_num(*excludes),
            if *excluded {
                ", excluded"
            } else {
                ", NOT excluded"
            }
        ),
        Some(NullOutcome::None { .. }) => "none (reason listed)".into(),
    }
}

/// A claim's null and precondition in full, one line each (the details of a claim).
fn null_details(o: &Outcome) -> Vec<String> {
    let mut out = Vec::new();
    match &o.null {
        None => {}
        Some(NullOutcome::Run {
            setup,
            scenarios,
            mean,
            verdict,
        }) => out.push(format!(
            "Null run ({setup}; {}): {}, {}{}",
            scenarios.join(", "),
            mean.map_or("no value".into(), fmt_num),
            verdict.label(),
            match null_discriminates(o) {
                Some(false) if o.null_same.is_empty() => " — the same verdict as its own".into(),
                Some(false) => format!(" — the same verdict as its own, listed: {}", o.null_same),
                _ => String::new(),
            }
        )),
        Some(NullOutcome::Excludes {
            excludes,
            model,
            excluded,
        }) => out.push(format!(
            "Null: another model's value {} ({model}), {} by the tolerance",
            fmt_num(*excludes),
            if *excluded {
                "excluded"
            } else {
                "NOT excluded"
            }
        )),
        Some(NullOutcome::None { none }) => out.push(format!("Null: none ({none})")),
    }
    if let Some(p) = &o.precondition {
        out.push(format!(
            "Precondition ({}, {}): {}, {}",
            p.what,
            p.band.describe(),
            p.mean.map_or("no value".into(), fmt_num),
            if p.holds {
                "holds"
            } else {
                "fails: the scenario cannot show the effect (inconclusive)"
            }
        ));
    }
    out
}

/// A free-standing report section.
#[derive(Clone, Debug)]
pub struct Section {
    /// Heading.
    pub title: String,
    /// Paragraphs of plain text.
    pub text: Vec<String>,
    /// Markdown written as is into `report.md` (tables), and preformatted into the HTML.
    pub markdown: String,
    /// Plots.
    pub plots: Vec<Plot>,
}

impl Report {
    /// The claims that test the papers' results, in catalog order.
    pub fn results(&self) -> impl Iterator<Item = &Outcome> {
        self.claims.iter().filter(|o| !o.tried)
    }

    /// The claims that try what a paper only suggests (reported apart, not counted).
    pub fn tried(&self) -> impl Iterator<Item = &Outcome> {
        self.claims.iter().filter(|o| o.tried)
    }

    /// Counts of each verdict among the claims that test results: the three a run decides
    /// and "not run" first, then those counted apart ("inconclusive", "not testable in this
    /// model").
    pub fn tally(&self) -> [(Verdict, usize); 6] {
        let c = |v| self.results().filter(|o| o.verdict == v).count();
        [
            (Verdict::Reproduced, c(Verdict::Reproduced)),
            (Verdict::Differs, c(Verdict::Differs)),
            (Verdict::NotReproduced, c(Verdict::NotReproduced)),
            (Verdict::NotRun, c(Verdict::NotRun)),
            (Verdict::Inconclusive, c(Verdict::Inconclusive)),
            (Verdict::NotTestable, c(Verdict::NotTestable)),
        ]
    }

    /// What the claims' nulls gave (catalog rule 12), over every claim (tried ones too).
    pub fn null_tally(&self) -> NullTally {
        let mut t = NullTally::default();
        for o in &self.claims {
            match &o.null {
                None => t.unset += 1,
                Some(NullOutcome::Run { .. }) => t.runs += 1,
                Some(NullOutcome::Excludes { excluded, .. }) => {
                    t.alternatives += 1;
                    t.excluded += usize::from(*excluded);
                }
                Some(NullOutcome::None { .. }) => t.reasons += 1,
            }
            match null_discriminates(o) {
                Some(true) if matches!(o.null, Some(NullOutcome::Run { .. })) => {
                    t.discriminate += 1;
                    let null_fails = matches!(
                        o.null,
                        Some(NullOutcome::Run {
                            verdict: Verdict::NotReproduced,
                            ..
                        })
                    );
                    t.both_fail += usize::from(o.verdict == Verdict::NotReproduced && null_fails);
                }
                Some(false) if matches!(o.null, Some(NullOutcome::Run { .. })) => {
                    t.same += 1;
                    t.same_listed += usize::from(!o.null_same.is_empty());
                }
                _ => {}
            }
        }
        t
    }

    fn tally_line(&self) -> String {
        let fragile = self.results().filter(|o| o.fragile).count();
        let by_setup = self
            .results()
            .filter(|o| setup_flips(o.verdict, &o.setup_runs))
            .count();
        let mut s = format!(
            "{} claims test the papers' results: ",
            self.results().count()
        );
        let t = self.tally();
        s.push_str(
            &t[..4]
                .iter()
                .map(|(v, n)| format!("{n} {}", v.label()))
                .collect::<Vec<_>>()
                .join(", "),
        );
        let _ = write!(
            s,
            "; apart from them, {} {} (the scenario cannot show the effect) and {} {}",
            t[4].1,
            t[4].0.label(),
            t[5].1,
            t[5].0.label()
        );
        let _ = write!(
            s,
            "; {fragile} fragile ({by_setup} of them under a setup departure run the paper's way)"
        );
        let tried = self.tried().count();
        if tried > 0 {
            let _ = write!(
                s,
                "; {tried} more try what a paper only suggests (\"The papers' suggestions, tried\", not counted)"
            );
        }
        s
    }

    /// The nulls' counts in words.
    fn null_line(&self) -> String {
        let n = self.null_tally();
        let mut s = format!(
            "Nulls (what would prove each claim wrong): {} null runs, {} of them not \
             reproduced under the null and, where the claim holds its direction, with a \
             verdict other than its own ({} of these are claims not reproduced in their own \
             run either, whose null can only show that they cannot pass), {} that fail that \
             rule ({} of them listed exceptions, with their reason); {} alternative model \
             values ({} excluded by their claim's tolerance); {} claims say why they have \
             neither",
            n.runs,
            n.discriminate,
            n.both_fail,
            n.same,
            n.same_listed,
            n.alternatives,
            n.excluded,
            n.reasons
        );
        if n.unset > 0 {
            let _ = write!(s, "; {} claims name no null yet", n.unset);
        }
        s
    }

    /// The claims the nulls section lists: those whose null is an alternative value or a
    /// reason, and those whose null run gave the same verdict as their own.
    fn listed_nulls(&self) -> Vec<(&Outcome, String)> {
        self.claims
            .iter()
            .filter_map(|o| {
                let line = match (&o.null, null_discriminates(o)) {
                    (
                        Some(NullOutcome::Excludes {
                            excludes,
                            model,
                            excluded,
                        }),
                        _,
                    ) => format!(
                        "alternative value {} ({model}): {}",
                        fmt_num(*excludes),
                        if *excluded {
                            "excluded by the tolerance"
                        } else {
                            "NOT excluded by the tolerance"
                        }
                    ),
                    (Some(NullOutcome::None { none }), _) => format!("no null: {none}"),
                    (
                        Some(NullOutcome::Run {
                            setup,
                            mean,
                            verdict,
                            ..
                        }),
                        Some(false),
                    ) => {
                        format!(
                            "same verdict under its null ({setup}: {}, {}): {}",
                            mean.map_or("no value".into(), fmt_num),
                            verdict.label(),
                            if o.null_same.is_empty() {
                                "NOT a listed exception".to_string()
                            } else {
                                format!("listed exception: {}", o.null_same)
                            }
                        )
                    }
                    _ => return None,
                };
                Some((o, line))
            })
            .collect()
    }

    /// The JSON form: the report's fields, and `tally` (verdict counts, fragile, nulls).
    pub fn to_json(&self) -> String {
        let mut v = match serde_json::to_value(self) {
            Ok(v) => v,
            Err(e) => return format!("{{\"error\": \"{e}\"}}"),
        };
        let mut tally = serde_json::Map::new();
        for (verdict, n) in self.tally() {
            tally.insert(verdict_key(verdict), n.into());
        }
        tally.insert(
            "fragile".into(),
            self.results().filter(|o| o.fragile).count().into(),
        );
        tally.insert("tried".into(), self.tried().count().into());
        tally.insert(
            "nulls".into(),
            serde_json::to_value(self.null_tally()).unwrap_or_default(),
        );
        if let Some(m) = v.as_object_mut() {
            m.insert("tally".into(), tally.into());
        }
        serde_json::to_string_pretty(&v).unwrap_or_else(|e| format!("{{\"error\": \"{e}\"}}"))
    }

    /// How the report was made: runs, wall clock, threads.
    fn cost_line(&self) -> String {
        let per = match &self.sequential {
            None => format!("{} seeds per scenario instance", self.seeds),
            Some(_) => "each claim's instances for the seeds that decided it".to_string(),
        };
        let cached = match self.cached {
            0 => String::new(),
            n if n >= self.runs => "; all read from the run cache, none simulated".into(),
            n => format!("; {n} of them read from the run cache, not simulated"),
        };
        format!(
            "{} simulation runs ({per} plus one exact-start run each; \
             the null, hinge and setup instances for every seed{cached}) in {:.1} s wall \
             clock on {} worker threads",
            self.runs, self.elapsed_secs, self.threads
        )
    }

    /// How many seeds each claim got: `10 seeds per scenario`, or the sequential rule's
    /// looks and error.
    fn seeds_phrase(&self) -> String {
        match &self.sequential {
            None => format!("{} seeds per scenario", self.seeds),
            Some(r) => format!(
                "seeds by the sequential rule (looks at {} seeds, error {} per claim)",
                r.looks
                    .iter()
                    .map(u64::to_string)
                    .collect::<Vec<_>>()
                    .join(", "),
                fmt_num(r.alpha)
            ),
        }
    }

    /// Under the sequential rule: how many claims each look decided and which are still
    /// open at the limit; `None` for a fixed number of seeds.
    pub fn seeds_line(&self) -> Option<String> {
        let rule = self.sequential.as_ref()?;
        let mut parts = Vec::new();
        for &look in &rule.looks {
            let n = self
                .claims
                .iter()
                .filter(|o| o.seeds.n == look && o.seeds.stop == Stop::Decided)
                .count();
            if n > 0 {
                parts.push(format!("{n} at {look}"));
            }
        }
        let open: Vec<&str> = self
            .claims
            .iter()
            .filter(|o| o.seeds.stop == Stop::Open)
            .map(|o| o.id.as_str())
            .collect();
        let futile: Vec<String> = self
            .claims
            .iter()
            .filter(|o| o.seeds.stop == Stop::Futile)
            .map(|o| format!("{} ({})", o.id, o.seeds.n))
            .collect();
        let decided = if parts.is_empty() {
            "no claim decided".to_string()
        } else {
            format!("claims decided by seeds: {}", parts.join(", "))
        };
        let open = if open.is_empty() {
            format!("{decided}; none still open at {} seeds", rule.limit())
        } else {
            format!(
                "{decided}; {} still open at {} seeds: {}",
                open.len(),
                rule.limit(),
                open.join(", ")
            )
        };
        Some(if futile.is_empty() {
            open
        } else {
            format!(
                "{open}; {} stopped open because {} seeds would not decide them either: {}",
                futile.len(),
                rule.limit(),
                futile.join(", ")
            )
        })
    }

    /// A fixed-width table for the terminal.
    pub fn to_terminal(&self) -> String {
        let mut rows: Vec<[String; 5]> = vec![[
            "claim".into(),
            "paper".into(),
            "measured (95% CI)".into(),
            "band".into(),
            "verdict".into(),
        ]];
        for o in &self.claims {
            rows.push([
                o.id.clone(),
                o.paper_value.clone(),
                measured(o),
                o.tolerance.describe(),
                match o.seeds.stop {
                    Stop::Fixed => o.verdict.label().into(),
                    Stop::Decided => format!("{} ({} seeds)", o.verdict.label(), o.seeds.n),
                    Stop::Open | Stop::Futile => {
                        format!("{} ({} seeds, open)", o.verdict.label(), o.seeds.n)
                    }
                },
            ]);
        }
        let mut w = [0usize; 5];
        for r in &rows {
            for (i, c) in r.iter().enumerate() {
                w[i] = w[i]
                    .max(c.chars().count())
                    .min(if i == 1 { 28 } else { 60 });
            }
        }
        let mut s = String::new();
        for (k, r) in rows.iter().enumerate() {
            for (i, c) in r.iter().enumerate() {
                let c: String = c.chars().take(w[i]).collect();
                let pad = w[i] - c.chars().count();
                let _ = write!(s, "{c}{}  ", " ".repeat(pad));
            }
            s = s.trim_end().to_string();
            s.push('\n');
            if k == 0 {
                s.push_str(&"-".repeat(w.iter().sum::<usize>() + 8));
                s.push('\n');
            }
        }
        let _ = writeln!(
            s,
            "\n{} claims, {}{}: {}",
            self.claims.len(),
            self.seeds_phrase(),
            if self.quick { " (quick mode)" } else { "" },
            self.tally_line()
        );
        if let Some(line) = self.seeds_line() {
            let _ = writeln!(s, "Seeds: {line}.");
        }
        let _ = writeln!(s, "{}.", self.null_line());
        s
    }

    /// `report.md`.
    pub fn to_markdown(&self) -> String {
        let mut s = String::new();
        let _ = writeln!(s, "# Reproduction of the seed papers' claims\n");
        let _ = writeln!(
            s,
            "Generated by `{}`: **{}**{}. {}.\n",
            self.command,
            self.seeds_phrase(),
            if self.quick {
                ", quick mode (reduced durations, listed per claim)"
            } else {
                ", full durations"
            },
            self.tally_line()
        );
        let _ = writeln!(s, "{}.\n", self.null_line());
        let _ = writeln!(s, "Cost: {}.\n", self.cost_line());
        if !self.coverage.is_empty() {
            let _ = writeln!(
                s,
                "Coverage of the papers' statements ([coverage.md](coverage.md), from the map \
                 under `docs/repro/coverage/`): {}.\n",
                self.coverage.join("; ")
            );
        }
        let _ = writeln!(s, "{}\n", RULE_TEXT);
        if let (Some(line), Some(rule)) = (self.seeds_line(), &self.sequential) {
            let _ = writeln!(s, "{} Seeds: {line}.\n", rule.describe());
        }
        self.claims_table_md(&mut s, false);
        if self.tried().count() > 0 {
            let _ = writeln!(s, "\n## The papers' suggestions, tried\n");
            let _ = writeln!(s, "{TRIED_TEXT}\n");
            self.claims_table_md(&mut s, true);
        }
        let listed = self.listed_nulls();
        if !listed.is_empty() {
            let _ = writeln!(s, "\n## Nulls listed\n");
            let _ = writeln!(s, "{NULLS_TEXT}\n");
            for (o, line) in &listed {
                let _ = writeln!(s, "- `{}`: {}", o.id, md_escape(line));
            }
        }
        let _ = writeln!(s, "\n## Details\n");
        for o in &self.claims {
            let _ = writeln!(s, "### `{}` — {}\n", o.id, verdict_label(o));
            let _ = writeln!(s, "- Paper: {} {}: {}", o.paper, o.figure, o.statement);
            if o.tried {
                let _ = writeln!(
                    s,
                    "- The paper offers this as a suggestion: tried, not counted."
                );
            }
            let _ = writeln!(s, "- Metric: {} [{}]", o.metric, o.unit);
            let _ = writeln!(
                s,
                "- Scenarios: {}",
                o.scenarios
                    .iter()
                    .map(|p| format!("`scenarios/{p}`"))
                    .collect::<Vec<_>>()
                    .join(", ")
            );
            let _ = writeln!(
                s,
                "- Tolerance: {} ({}); direction: {}",
                o.tolerance.describe(),
                o.tolerance_note,
                o.direction.describe()
            );
            if o.quick && !o.quick_note.is_empty() {
                let _ = writeln!(s, "- Quick mode: {}", o.quick_note);
            }
            let vals: Vec<String> = o
                .values
                .iter()
                .map(|(seed, v)| format!("{seed}: {}", fmt_num(*v)))
                .collect();
            let _ = writeln!(
                s,
                "- Per-seed values: {}",
                if vals.is_empty() {
                    "none".into()
                } else {
                    vals.join(", ")
                }
            );
            let _ = writeln!(s, "- Verdicts: {}", stability(o));
            if o.seeds.stop != Stop::Fixed {
                let _ = writeln!(s, "- Seeds: {}", o.seeds.describe());
            }
            for line in null_details(o) {
                let _ = writeln!(s, "- {line}");
            }
            if !o.setup_runs.is_empty() {
                let _ = writeln!(
                    s,
                    "- The paper's way ([setup.md](setup.md)): {}",
                    setup_line(o)
                );
            }
            if matches!(&o.summary, Some(sm) if sm.n > 1 && sm.sd == 0.0) {
                let _ = writeln!(s, "- All seeds give the same value although every seed draws other start times: this metric does not depend on them.");
            }
            for e in &o.errors {
                let _ = writeln!(s, "- Error: {}", e.replace('\n', " "));
            }
            if !o.untestable.is_empty() {
                let _ = writeln!(s, "- Not testable in this model: {}", o.untestable);
            }
            if !o.explanation.is_empty() {
                let _ = writeln!(s, "- Explanation: {}", o.explanation);
            }
            s.push('\n');
        }
        for sec in &self.sections {
            let _ = writeln!(s, "## {}\n", sec.title);
            for p in &sec.text {
                let _ = writeln!(s, "{p}\n");
            }
            if !sec.markdown.is_empty() {
                let _ = writeln!(s, "{}\n", sec.markdown.trim_end());
            }
        }
        s
    }

    /// The claims table of `report.md`: the results' claims, or (`tried`) the suggestions'.
    fn claims_table_md(&self, s: &mut String, tried: bool) {
        let _ = writeln!(s, "| claim | paper, figure | statement | paper value | measured (mean, 95 % CI, n) | tolerance band | verdict | null | runs | explanation |");
        let _ = writeln!(s, "|---|---|---|---|---|---|---|---|---|---|");
        for o in self.claims.iter().filter(|o| o.tried == tried) {
            let _ = writeln!(
                s,
                "| `{}` | {} {} | {} | {} | {} | {} (direction {}) | **{}** | {} | {} | {} |",
                o.id,
                o.paper,
                md_escape(&o.figure),
                md_escape(&o.statement),
                md_escape(&o.paper_value),
                md_escape(&measured(o)),
                o.tolerance.describe(),
                o.direction.describe(),
                verdict_label(o),
                md_escape(&null_cell(o)),
                runs_cell(o),
                md_escape(&explanation(o)),
            );
        }
    }
}

/// What the "Nulls listed" section lists.
pub const NULLS_TEXT: &str = "Every claim names what would prove it wrong (its null): a run in which the effect it asserts is absent, judged by the claim's own bands, whose verdict must be neither reproduced nor the claim's own; or, for a plain number with a band, another model's value its tolerance must exclude; or why neither exists. Listed here: every claim whose null is an alternative value or a reason, and every claim whose null run gave the same verdict as its own (a listed exception says why; one that is not is a defect of the claim).";

/// Why the claims of "The papers' suggestions, tried" are apart.
pub const TRIED_TEXT: &str = "These claims test what a paper offers as a proposal, a hypothesis or future work (the coverage map's suggestion rows), not a result of its experiments: they keep their measurements and verdicts, which say whether the suggestion holds in our simulator, and are left out of the counts above.";

/// The claim's setup runs: `param (alt): mean, verdict` each, flips marked.
fn setup_line(o: &Outcome) -> String {
    o.setup_runs
        .iter()
        .map(|r| {
            let value = r.mean.map_or("no value".to_string(), fmt_num);
            let flip = if r.mean.is_some() && r.verdict != o.verdict {
                " (flips: fragile)"
            } else {
                ""
            };
            format!(
                "{} ({}): {value}, {}{flip}",
                r.param,
                r.alt.join(", "),
                r.verdict.label()
            )
        })
        .collect::<Vec<_>>()
        .join("; ")
}

/// The runs column: the runs, and under the sequential rule the seeds that decided the
/// claim (`42; 5 seeds`) or that it is still open at the limit (`182; 30 seeds, open`).
fn runs_cell(o: &Outcome) -> String {
    match o.seeds.stop {
        Stop::Fixed => o.runs.to_string(),
        Stop::Decided => format!("{}; {} seeds", o.runs, o.seeds.n),
        Stop::Open | Stop::Futile => format!("{}; {} seeds, open", o.runs, o.seeds.n),
    }
}

/// The verdict, with "(fragile)" when the seeds or the exact-start run disagree with it.
fn verdict_label(o: &Outcome) -> String {
    if o.fragile {
        format!("{} (fragile)", o.verdict.label())
    } else {
        o.verdict.label().to_string()
    }
}

/// Per-seed verdict counts and the exact-start run's value and verdict.
fn stability(o: &Outcome) -> String {
    let mut counts: Vec<String> = Vec::new();
    for v in [
        Verdict::Reproduced,
        Verdict::Differs,
        Verdict::NotReproduced,
    ] {
        let n = o.seed_verdicts.iter().filter(|x| **x == v).count();
        if n > 0 {
            counts.push(format!("{n} {}", v.label()));
        }
    }
    let seeds = if counts.is_empty() {
        "no seed gave a value".to_string()
    } else {
        format!("per seed {}", counts.join(", "))
    };
    let exact = match o.exact_start {
        Some((v, verdict)) => format!(
            "exact start times (seed 1): {}, {}",
            fmt_num(v),
            verdict.label()
        ),
        None => "exact start times: no value".to_string(),
    };
    format!(
        "{seeds}; {exact}{}",
        if o.fragile { " (fragile)" } else { "" }
    )
}

/// The verdict rule, stated once in every report.
pub const RULE_TEXT: &str = "Verdict rule: reproduced = the mean over seeds lies in the tolerance band (the paper's value widened by a tolerance fixed per claim before running, stated with its reason); differs = outside the band but the qualitative direction of the claim holds; not reproduced = the direction fails; not run = the scenario could not be simulated (error shown); not testable in this model = the model fixes the value whatever the run (the reason is given), so the claim shows its value and is counted apart; inconclusive = the scenario cannot show the effect: a precondition the claim declares on its own runs (\"the queue reaches TARGET\") fails, so its value says nothing either way and is counted apart, never as not reproduced. An order (\"X finishes first\") is decided in each seed: its value is the share of seeds that show it, with a Wilson 95 % interval. Confidence intervals of means are 95 % Student t over seeds; every seed draws its own flow start times (and the scenario's other random elements). Fragile = some seed's value alone, one run with the exact start times, or the claim run the paper's way where its scenario departs from the paper in a way that could change the verdict (docs/repro/setup.md), gets another verdict than the mean; a claim whose result hinges on a choice the paper leaves open is fragile whatever the other choice gives, and the report shows that other choice's verdict.";

fn measured(o: &Outcome) -> String {
    if o.order {
        return match &o.summary {
            Some(s) => format!(
                "share of seeds {} [{}, {}] n={}",
                fmt_num(s.mean),
                fmt_num(s.ci_lo),
                fmt_num(s.ci_hi),
                s.n
            ),
            None => "—".into(),
        };
    }
    match &o.summary {
        Some(s) if s.n > 1 => format!(
            "{} [{}, {}] n={}",
            fmt_num(s.mean),
            fmt_num(s.ci_lo),
            fmt_num(s.ci_hi),
            s.n
        ),
        Some(s) => format!("{} n=1", fmt_num(s.mean)),
        None => "—".into(),
    }
}

fn explanation(o: &Outcome) -> String {
    if !o.untestable.is_empty() {
        format!(
            "Not testable in this model: {} {}",
            o.untestable, o.explanation
        )
        .trim_end()
        .to_string()
    } else if !o.explanation.is_empty() {
        o.explanation.clone()
    } else if o.verdict == Verdict::NotRun {
        o.errors.first().cloned().unwrap_or_default()
    } else {
        String::new()
    }
}

fn md_escape(s: &str) -> String {
    s.replace('|', "\\|").replace('\n', " ")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::claims::Band;
    use crate::stats::Summary;

    fn outcome(verdict: Verdict) -> Outcome {
        Outcome {
            id: "s003-jain".into(),
            paper: "seed003".into(),
            figure: "Fig. 3.3".into(),
            statement: "LEDBAT | NewReno <share>".into(),
            paper_value: "0.65".into(),
            unit: "".into(),
            metric: "Jain".into(),
            tolerance: Band::Near {
                value: 0.65,
                tol: 0.1,
            },
            direction: Band::AtMost { bound: 0.9 },
            tolerance_note: "read from a figure".into(),
            scenarios: vec!["seed003/a.toml".into()],
            values: vec![(1, 0.6), (2, 0.7)],
            summary: Summary::of(&[0.6, 0.7]),
            verdict,
            seed_verdicts: vec![verdict, verdict],
            exact_start: Some((0.65, verdict)),
            fragile: false,
            runs: 3,
            seeds: crate::sequential::Seeds {
                n: 2,
                stop: Stop::Fixed,
            },
            explanation: String::new(),
            errors: vec![],
            setup_runs: vec![],
            null: None,
            null_same: String::new(),
            precondition: None,
            tried: false,
            order: false,
            untestable: String::new(),
            quick: false,
            quick_note: String::new(),
        }
    }

    fn report() -> Report {
        Report {
            seeds: 2,
            sequential: None,
            quick: false,
            command: "ledbat repro --seeds 2".into(),
            claims: vec![outcome(Verdict::Reproduced), outcome(Verdict::NotRun)],
            plots: vec![
                vec![Plot::lines(
                    "p",
                    "x",
                    "y",
                    vec![("a".into(), vec![(0.0, 0.0), (1.0, 1.0)])],
                )],
                vec![],
            ],
            sections: vec![],
            runs: 6,
            threads: 2,
            coverage: vec!["seed 003: 2 statements: 1 checked, 1 weak, 0 missing, 0 n/a".into()],
            elapsed_secs: 1.0,
            cached: 0,
        }
    }

    #[test]
    fn markdown_has_one_row_per_claim_and_the_seed_count() {
        let md = report().to_markdown();
        assert!(md.contains("**2 seeds per scenario**"));
        assert_eq!(
            md.lines()
                .filter(|l| l.starts_with("| `s003-jain`"))
                .count(),
            2
        );
        assert!(md.contains("LEDBAT \\| NewReno"), "pipes escaped");
    }

    #[test]
    fn a_sequential_report_says_per_claim_how_many_seeds_decided_it() {
        use crate::sequential::{Rule, Seeds};
        let mut r = report();
        r.sequential = Some(Rule::default());
        r.seeds = 30;
        r.claims[0].seeds = Seeds {
            n: 5,
            stop: Stop::Decided,
        };
        r.claims[0].runs = 6;
        r.claims[1].id = "s003-open".into();
        r.claims[1].seeds = Seeds {
            n: 30,
            stop: Stop::Open,
        };
        let line = r.seeds_line().unwrap();
        assert_eq!(
            line,
            "claims decided by seeds: 1 at 5; 1 still open at 30 seeds: s003-open"
        );
        let md = r.to_markdown();
        assert!(
            md.contains("**seeds by the sequential rule (looks at 5, 10, 20, 30 seeds, error 0.05 per claim)**"),
            "{md}"
        );
        assert!(md.contains(&format!("Seeds: {line}.")), "{md}");
        assert!(md.contains("| 6; 5 seeds |"), "{md}");
        assert!(md.contains("- Seeds: 5 seeds (decided by the sequential rule)"));
        assert!(md.contains("- Seeds: 30 seeds (still open at the sequential rule's limit)"));
        let html = r.to_html();
        assert!(html.contains("<td>6; 5 seeds</td>"), "{html}");
        assert!(html.contains(&format!("Seeds: {line}.")));
        let term = r.to_terminal();
        assert!(term.contains("reproduced (5 seeds)"), "{term}");
        assert!(term.contains("not run (30 seeds, open)"), "{term}");
        let v: serde_json::Value = serde_json::from_str(&r.to_json()).unwrap();
        assert_eq!(
            v["claims"][0]["seeds"],
            serde_json::json!({"n": 5, "stop": "decided"})
        );
        assert_eq!(v["claims"][1]["seeds"]["stop"], "open");
        assert_eq!(v["sequential"]["looks"], serde_json::json!([5, 10, 20, 30]));
        // A fixed count says nothing per claim beyond the header.
        let md = report().to_markdown();
        assert!(!md.contains("- Seeds:") && report().seeds_line().is_none());
    }

    #[test]
    fn markdown_states_runs_cost_and_fragility() {
        let mut r = report();
        r.claims[0].fragile = true;
        r.claims[0].seed_verdicts = vec![Verdict::Reproduced, Verdict::Differs];
        let md = r.to_markdown();
        assert!(md.contains("6 simulation runs"), "{md}");
        assert!(
            md.contains("for every seed) in 1.0 s wall clock on 2 worker threads"),
            "{md}"
        );
        assert!(
            md.contains("**reproduced (fragile)** | none named | 3 |"),
            "{md}"
        );
        assert!(md.contains("1 fragile"), "{md}");
        assert!(md.contains("per seed 1 reproduced, 1 differs"), "{md}");
        assert!(md.contains("exact start times (seed 1): 0.65, reproduced (fragile)"));
    }

    #[test]
    fn a_tried_suggestion_is_reported_apart_and_not_counted() {
        let mut r = report();
        r.claims[1] = outcome(Verdict::NotReproduced);
        r.claims[1].id = "s001-pause-less-harm".into();
        r.claims[1].tried = true;
        let md = r.to_markdown();
        assert!(
            md.contains(
                "1 claims test the papers' results: 1 reproduced, 0 differs, 0 not reproduced"
            ),
            "{md}"
        );
        assert!(md.contains("1 more try what a paper only suggests"), "{md}");
        let (table, tried) = md.split_once("## The papers' suggestions, tried").unwrap();
        assert!(!table.contains("| `s001-pause-less-harm`"));
        assert!(tried.contains("| `s001-pause-less-harm`"));
        assert!(md.contains("Coverage of the papers' statements"));
    }

    #[test]
    fn a_setup_run_that_flips_the_verdict_is_shown_and_counted_fragile() {
        let mut r = report();
        r.claims[0].fragile = true;
        r.claims[0].setup_runs = vec![crate::claims::SetupRun {
            param: "minimum window".into(),
            alt: vec!["flow.0.cc.min_cwnd=1".into()],
            mean: Some(0.9),
            verdict: Verdict::Differs,
        }];
        let md = r.to_markdown();
        assert!(
            md.contains("1 fragile (1 of them under a setup departure"),
            "{md}"
        );
        assert!(
            md.contains("minimum window (flow.0.cc.min_cwnd=1): 0.9, differs (flips: fragile)"),
            "{md}"
        );
    }

    fn null_run(verdict: Verdict) -> Option<NullOutcome> {
        Some(NullOutcome::Run {
            setup: "LEDBAT replaced by NewReno".into(),
            scenarios: vec!["seed003/a.toml [flow.0.cc.name=newreno]".into()],
            mean: Some(0.95),
            verdict,
        })
    }

    #[test]
    fn a_claim_not_reproduced_under_its_null_and_in_its_own_run_is_counted_apart() {
        let mut r = report();
        r.claims[0] = outcome(Verdict::NotReproduced);
        r.claims[0].null = null_run(Verdict::NotReproduced);
        r.claims[1] = outcome(Verdict::Reproduced);
        r.claims[1].null = null_run(Verdict::NotReproduced);
        let t = r.null_tally();
        assert_eq!((t.runs, t.discriminate, t.both_fail, t.same), (2, 2, 1, 0));
    }

    #[test]
    fn a_null_is_shown_beside_the_verdict_and_the_same_ones_are_listed() {
        let mut r = report();
        r.claims[0].null = null_run(Verdict::NotReproduced);
        r.claims[1] = outcome(Verdict::Reproduced);
        r.claims[1].id = "s003-same".into();
        r.claims[1].null = null_run(Verdict::Reproduced);
        let md = r.to_markdown();
        assert!(
            md.contains("| **reproduced** | null run 0.95, not reproduced | 3 |"),
            "{md}"
        );
        assert!(
            md.contains("null run 0.95, reproduced: same as own | 3 |"),
            "{md}"
        );
        let (_, listed) = md.split_once("## Nulls listed").unwrap();
        let (listed, _) = listed.split_once("## Details").unwrap();
        assert!(!listed.contains("`s003-jain`"), "{listed}");
        assert!(
            listed.contains("- `s003-same`: same verdict under its null (LEDBAT replaced by NewReno: 0.95, reproduced): NOT a listed exception"),
            "{listed}"
        );
        assert!(md.contains("2 null runs, 1 of them not reproduced under the null and, where the claim holds its direction, with a verdict other than its own (0 of these are claims not reproduced in their own run either, whose null can only show that they cannot pass), 1 that fail that rule (0 of them listed"), "{md}");
        // A listed exception says why.
        r.claims[1].null_same = "the roles are symmetric".into();
        let md = r.to_markdown();
        assert!(
            md.contains("listed exception: the roles are symmetric"),
            "{md}"
        );
        assert!(md.contains("(1 of them listed exceptions"), "{md}");
        assert!(md.contains("- Null run (LEDBAT replaced by NewReno; seed003/a.toml [flow.0.cc.name=newreno]): 0.95, not reproduced\n"), "{md}");
        let html = r.to_html();
        assert!(html.contains("<h2>Nulls listed</h2>"));
        assert!(
            html.contains("<td>null run 0.95, not reproduced</td>"),
            "{html}"
        );
    }

    #[test]
    fn alternative_values_and_reasons_are_listed_and_counted() {
        let mut r = report();
        r.claims[0].null = Some(NullOutcome::Excludes {
            excludes: 1200.0,
            model: "TCP fills the buffer: 100 x 12 ms".into(),
            excluded: true,
        });
        r.claims[1].null = Some(NullOutcome::None {
            none: "a setup number".into(),
        });
        let md = r.to_markdown();
        assert!(md.contains("- `s003-jain`: alternative value 1200 (TCP fills the buffer: 100 x 12 ms): excluded by the tolerance"), "{md}");
        assert!(
            md.contains("- `s003-jain`: no null: a setup number"),
            "{md}"
        );
        assert!(md.contains("1 alternative model values (1 excluded by their claim's tolerance); 1 claims say why they have neither"), "{md}");
        assert!(md.contains("| alternative 1200, excluded |"), "{md}");
        let t = r.null_tally();
        assert_eq!(
            (t.alternatives, t.excluded, t.reasons, t.runs, t.unset),
            (1, 1, 1, 0, 0)
        );
        // Without a null, the summary says so.
        assert!(report().to_markdown().contains("2 claims name no null yet"));
    }

    #[test]
    fn inconclusive_is_counted_apart_in_every_form() {
        let mut r = report();
        r.claims[1] = outcome(Verdict::Inconclusive);
        r.claims[1].precondition = Some(crate::claims::PreconditionOutcome {
            what: "the queue reaches TARGET".into(),
            band: Band::AtLeast { bound: 25.0 },
            mean: Some(3.0),
            holds: false,
        });
        let md = r.to_markdown();
        assert!(
            md.contains("2 claims test the papers' results: 1 reproduced, 0 differs, 0 not reproduced, 0 not run; apart from them, 1 inconclusive"),
            "{md}"
        );
        assert!(
            md.contains("- Precondition (the queue reaches TARGET, ≥ 25): 3, fails"),
            "{md}"
        );
        assert!(r.to_html().contains("class=\"inconclusive\""));
        let v: serde_json::Value = serde_json::from_str(&r.to_json()).unwrap();
        assert_eq!(v["tally"]["inconclusive"], 1);
        assert_eq!(v["tally"]["not-reproduced"], 0);
        assert_eq!(v["tally"]["reproduced"], 1);
        assert_eq!(v["claims"][1]["verdict"], "inconclusive");
        assert_eq!(v["claims"][1]["precondition"]["holds"], false);
    }

    #[test]
    fn json_tally_counts_the_nulls() {
        let mut r = report();
        r.claims[0].null = null_run(Verdict::Differs);
        let v: serde_json::Value = serde_json::from_str(&r.to_json()).unwrap();
        assert_eq!(v["tally"]["nulls"]["runs"], 1);
        assert_eq!(v["tally"]["nulls"]["discriminate"], 1);
        assert_eq!(v["tally"]["nulls"]["unset"], 1);
        assert_eq!(
            v["claims"][0]["null"]["setup"],
            "LEDBAT replaced by NewReno"
        );
        assert_eq!(v["claims"][0]["null"]["verdict"], "differs");
        assert_eq!(v["tally"]["fragile"], 0);
    }

    #[test]
    fn html_is_self_contained_and_escaped() {
        let html = report().to_html();
        assert!(html.contains("<svg"));
        assert!(!html.contains("<script"));
        assert!(!html.contains("src=\"http"));
        assert!(html.contains("&lt;share&gt;"));
    }

    #[test]
    fn terminal_and_json_list_every_claim() {
        let r = report();
        let t = r.to_terminal();
        assert_eq!(t.lines().filter(|l| l.starts_with("s003-jain")).count(), 2);
        assert!(t.contains("1 reproduced"));
        let v: serde_json::Value = serde_json::from_str(&r.to_json()).unwrap();
        assert_eq!(v["claims"].as_array().unwrap().len(), 2);
        assert_eq!(v["seeds"], 2);
    }

    #[test]
    fn the_cost_line_says_how_many_runs_came_from_the_cache() {
        let mut r = report();
        r.cached = 4;
        let md = r.to_markdown();
        assert!(
            md.contains(
                "for every seed; 4 of them read from the run cache, not simulated) in 1.0 s"
            ),
            "{md}"
        );
        assert!(r.to_html().contains("4 of them read from the run cache"));
        r.cached = 6;
        assert!(r
            .to_markdown()
            .contains("for every seed; all read from the run cache, none simulated) in 1.0 s"));
        // The JSON leaves it out: it is the same with and without the cache.
        assert_eq!(r.to_json(), report().to_json());
    }
}
