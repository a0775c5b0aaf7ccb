//! The claims framework: a claim is one quantitative statement of a seed paper, the
//! scenario(s) that reproduce its setting, a metric extracted from each seed's run, a
//! tolerance fixed before looking at our numbers, and a verdict rule.
//!
//! Verdict rule (the same for every claim):
//! - **reproduced**: the mean over seeds satisfies the claim's `tolerance` band (the paper's
//!   value widened by the documented tolerance);
//! - **differs**: it misses the band but satisfies the claim's `direction`, the qualitative
//!   statement behind the number (e.g. "LEDBAT yields: TCP carries more than LEDBAT");
//! - **not reproduced**: even the direction fails;
//! - **not testable in this model**: the claim's statement is about something the model
//!   cannot decide (its value follows from how the model is built, whatever the run); the
//!   claim names why (`Claim::untestable`), still runs and shows its value, and is counted
//!   apart from the three verdicts above;
//! - **inconclusive**: the scenario cannot show the effect: a precondition the claim
//!   declares on its own runs (`catalog::Precondition`, "the queue reaches TARGET") fails
//!   on the mean over seeds. Decided by that check, never by hand; counted apart, never as
//!   "not reproduced".
//!
//! An *order* ("X finishes first") is decided in each seed: the claim's value is the share
//! of seeds that show it, with its Wilson 95 % interval, and the bands apply to that share
//! (`catalog::Form::Order`).
//!
//! Fragility: the verdict is also applied to each seed's value alone, and to one run of every
//! scenario with the exact start times (`start_jitter = 0s` for every flow, seed 1), the runs
//! before the simulator drew start times from the seed. A claim is **fragile** when those
//! verdicts do not all agree with the verdict of the mean: the result then hangs on the
//! start-time jitter (or on the scenario's other random elements) and is reported as such.
//!
//! A claim is also fragile when a setup departure that could change it (a row of
//! `docs/repro/setup.md` marked "yes") flips its verdict when the claim is run the paper's
//! way: the verdict then hangs on a parameter where the scenario departs from the paper.
//!
//! A claim whose scenarios cannot run (a controller or traffic kind not available in the
//! simulator) is reported as **not run** with the error, never silently dropped. A claim
//! that does not reproduce carries an `explanation`: the cause found (our bug, fixed or
//! reported, or the paper's setup differing in a stated way), or a plain statement that none
//! was found yet.

use crate::stats::Summary;
use serde::Serialize;

/// A condition on a measured value.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(tag = "kind", rename_all = "kebab-case")]
pub enum Band {
    /// `value - tol <= x <= value + tol` (the ends computed as `interval` gives them, so
    /// that a value on an edge, such as 1 for 0.98 ± 0.02, is inside whatever the rounding
    /// of `x - value`).
    Near {
        /// The centre.
        value: f64,
        /// Absolute half-width.
        tol: f64,
    },
    /// `lo <= x <= hi`.
    Between {
        /// Lower bound.
        lo: f64,
        /// Upper bound.
        hi: f64,
    },
    /// `x >= bound`.
    AtLeast {
        /// Lower bound.
        bound: f64,
    },
    /// `x <= bound`.
    AtMost {
        /// Upper bound.
        bound: f64,
    },
    /// `x > bound`: for a direction that must exclude its bound (the null result).
    Above {
        /// Strict lower bound.
        bound: f64,
    },
    /// `x < bound`.
    Below {
        /// Strict upper bound.
        bound: f64,
    },
    /// `lo < x <= hi`: a value's band cut at the null result it must exclude.
    AboveTo {
        /// Strict lower bound.
        lo: f64,
        /// Upper bound.
        hi: f64,
    },
}

impl Band {
    /// `value` with a relative tolerance (`rel` = 0.2 for +-20 %).
    pub fn rel(value: f64, rel: f64) -> Band {
        Band::Near {
            value,
            tol: (value * rel).abs(),
        }
    }

    /// Whether `x` satisfies the band.
    pub fn holds(&self, x: f64) -> bool {
        match *self {
            Band::Near { value, tol } => value - tol <= x && x <= value + tol,
            Band::Between { lo, hi } => lo <= x && x <= hi,
            Band::AtLeast { bound } => x >= bound,
            Band::AtMost { bound } => x <= bound,
            Band::Above { bound } => x > bound,
            Band::Below { bound } => x < bound,
            Band::AboveTo { lo, hi } => lo < x && x <= hi,
        }
    }

    /// Human-readable form (`27 +- 5.4`, `[12, 24]`, `>= 0.99`).
    pub fn describe(&self) -> String {
        match *self {
            Band::Near { value, tol } => format!("{} ± {}", fmt_num(value), fmt_num(tol)),
            Band::Between { lo, hi } => format!("[{}, {}]", fmt_num(lo), fmt_num(hi)),
            Band::AtLeast { bound } => format!("≥ {}", fmt_num(bound)),
            Band::AtMost { bound } => format!("≤ {}", fmt_num(bound)),
            Band::Above { bound } => format!("> {}", fmt_num(bound)),
            Band::Below { bound } => format!("< {}", fmt_num(bound)),
            Band::AboveTo { lo, hi } => format!("({}, {}]", fmt_num(lo), fmt_num(hi)),
        }
    }

    /// The interval `[lo, hi]` the band covers (infinite ends for one-sided bands; a
    /// strict band's open end is given as its bound).
    pub fn interval(&self) -> (f64, f64) {
        match *self {
            Band::Near { value, tol } => (value - tol, value + tol),
            Band::Between { lo, hi } | Band::AboveTo { lo, hi } => (lo, hi),
            Band::AtLeast { bound } | Band::Above { bound } => (bound, f64::INFINITY),
            Band::AtMost { bound } | Band::Below { bound } => (f64::NEG_INFINITY, bound),
        }
    }

    /// Whether every value `inner` holds, `self` holds too (strict ends included).
    pub fn contains(&self, inner: &Band) -> bool {
        let (il, ih) = inner.interval();
        let (ol, oh) = self.interval();
        let lo_ok = ol < il || (ol == il && (self.holds(ol) || !inner.holds(il)));
        let hi_ok = ih < oh || (ih == oh && (self.holds(oh) || !inner.holds(ih)));
        lo_ok && hi_ok
    }
}

/// Formats a number with at most 4 significant digits, no trailing zeros.
pub fn fmt_num(x: f64) -> String {
    if !x.is_finite() {
        return format!("{x}");
    }
    if x == 0.0 {
        return "0".into();
    }
    let mag = x.abs().log10().floor() as i32;
    let decimals = (3 - mag).clamp(0, 6) as usize;
    let s = format!("{x:.decimals$}");
    if s.contains('.') {
        s.trim_end_matches('0').trim_end_matches('.').to_string()
    } else {
        s
    }
}

/// The outcome of a claim.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Verdict {
    /// The mean lies in the tolerance band.
    Reproduced,
    /// Outside the band, but the qualitative direction holds.
    Differs,
    /// The qualitative direction fails.
    NotReproduced,
    /// The scenario could not be run (error recorded).
    NotRun,
    /// The model cannot decide the statement (the claim says why); counted apart.
    NotTestable,
    /// The scenario cannot show the effect: the claim's declared precondition on its runs
    /// fails (`catalog::Precondition`); counted apart, never as "not reproduced".
    Inconclusive,
}

impl Verdict {
    /// The word used in reports.
    pub fn label(self) -> &'static str {
        match self {
            Verdict::Reproduced => "reproduced",
            Verdict::Differs => "differs",
            Verdict::NotReproduced => "not reproduced",
            Verdict::NotRun => "not run",
            Verdict::NotTestable => "not testable in this model",
            Verdict::Inconclusive => "inconclusive",
        }
    }

    /// Applies the rule of the module doc to a measured mean.
    pub fn judge(mean: f64, tolerance: &Band, direction: &Band) -> Verdict {
        if tolerance.holds(mean) {
            Verdict::Reproduced
        } else if direction.holds(mean) {
            Verdict::Differs
        } else {
            Verdict::NotReproduced
        }
    }
}

/// What a template of an explanation quotes from a claim's run: `{=id}` its mean over
/// seeds, `{=id:null}` the mean of its null run, `{=id@seedN}` seed N's value alone.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Quoted {
    /// The mean over seeds (`{=id}`).
    Mean,
    /// The mean over seeds of the claim's null run (`{=id:null}`).
    Null,
    /// One seed's value (`{=id@seedN}`).
    Seed(u64),
}

/// One template `{=...}` of an explanation, split into the claim id and what it quotes;
/// `None` for a suffix that is not `:null` or `@seedN`.
pub fn parse_quote(inner: &str) -> Option<(&str, Quoted)> {
    if let Some(id) = inner.strip_suffix(":null") {
        return Some((id, Quoted::Null));
    }
    if let Some((id, seed)) = inner.split_once("@seed") {
        return seed.parse().ok().map(|n| (id, Quoted::Seed(n)));
    }
    (!inner.contains([':', '@'])).then_some((inner, Quoted::Mean))
}

/// The templates of an explanation, as written between `{=` and `}` (`s001-a`,
/// `s001-a:null`, `s001-a@seed2`): the report replaces each with the quoted value, so an
/// explanation never types a figure of a run.
pub fn quoted_templates(text: &str) -> Vec<&str> {
    let mut out = Vec::new();
    let mut rest = text;
    while let Some(i) = rest.find("{=") {
        let after = &rest[i + 2..];
        match after.find('}') {
            Some(j) => {
                out.push(&after[..j]);
                rest = &after[j + 1..];
            }
            None => break,
        }
    }
    out
}

/// The claim ids an explanation quotes (every template's id, whatever it quotes of it).
pub fn quoted_claims(text: &str) -> Vec<&str> {
    quoted_templates(text)
        .into_iter()
        .map(|t| parse_quote(t).map_or(t, |(id, _)| id))
        .collect()
}

/// `text` with every template replaced by `value(id, what)` (4 significant digits), or by
/// "`id` (not run here)" when that claim gave no such value.
pub fn fill_quotes(text: &str, value: impl Fn(&str, Quoted) -> Option<f64>) -> String {
    let mut s = text.to_string();
    for t in quoted_templates(text) {
        let v = match parse_quote(t).and_then(|(id, q)| value(id, q)) {
            Some(m) => fmt_num(m),
            None => format!("`{t}` (not run here)"),
        };
        s = s.replacen(&format!("{{={t}}}"), &v, 1);
    }
    s
}

/// Whether a setup run's verdict differs from `verdict` (runs that gave no value do not
/// count).
pub fn setup_flips(verdict: Verdict, runs: &[SetupRun]) -> bool {
    runs.iter()
        .any(|r| r.mean.is_some() && r.verdict != verdict)
}

/// Whether `verdict` is fragile: some per-seed verdict, or the exact-start verdict, differs.
pub fn is_fragile(verdict: Verdict, seeds: &[Verdict], exact: Option<Verdict>) -> bool {
    seeds.iter().chain(exact.iter()).any(|v| *v != verdict)
}

/// A claim run once more the paper's way, for a setup departure that could flip its verdict
/// (a setup row of the coverage map with `risk = "yes"` and `alt` overrides).
#[derive(Clone, Debug, Serialize)]
pub struct SetupRun {
    /// The parameter of the setup table (`minimum window`).
    pub param: String,
    /// The overrides that give the paper's value, applied to the files the row is about.
    pub alt: Vec<String>,
    /// The mean over seeds, the paper's way (`None`: no seed gave a value).
    pub mean: Option<f64>,
    /// The verdict of that mean.
    pub verdict: Verdict,
}

/// What a claim's null gave (catalog rule 12): serialised as `{"setup", "verdict", ..}` for
/// a null run, `{"excludes", "model", ..}` for an alternative model's value and `{"none"}`
/// for a claim with neither.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(untagged)]
pub enum NullOutcome {
    /// The claim run under its null.
    Run {
        /// What the null run changes.
        setup: String,
        /// The scenario instances of the null run.
        scenarios: Vec<String>,
        /// The mean over seeds under the null (`None`: no seed gave a value).
        mean: Option<f64>,
        /// The verdict of that mean under the claim's own bands.
        verdict: Verdict,
    },
    /// Another model's value, which the claim's tolerance band must exclude.
    Excludes {
        /// The value.
        excludes: f64,
        /// The model that gives it.
        model: String,
        /// Whether the claim's tolerance band excludes it.
        excluded: bool,
    },
    /// Why the claim has neither.
    None {
        /// The reason.
        none: String,
    },
}

impl NullOutcome {
    /// Whether the null proves the claim could fail: a null run whose verdict is neither
    /// "reproduced" nor, where the claim's own verdict holds its direction, that verdict; an
    /// alternative value the tolerance excludes. `None` where the null says nothing (no run
    /// gave a value, the claim was not run or is not testable, or the claim has no null).
    pub fn discriminates(&self, own: Verdict) -> Option<bool> {
        match self {
            NullOutcome::Run { mean: None, .. } => None,
            NullOutcome::Run { verdict, .. } => match own {
                Verdict::NotRun | Verdict::NotTestable | Verdict::Inconclusive => None,
                Verdict::Reproduced | Verdict::Differs => {
                    Some(*verdict != own && *verdict != Verdict::Reproduced)
                }
                Verdict::NotReproduced => Some(*verdict != Verdict::Reproduced),
            },
            NullOutcome::Excludes { excluded, .. } => Some(*excluded),
            NullOutcome::None { .. } => None,
        }
    }
}

/// What a claim's precondition gave (the scenario can show the effect only when it holds).
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct PreconditionOutcome {
    /// What must hold, in words ("the queue reaches TARGET").
    pub what: String,
    /// The band the precondition's quantity must lie in.
    pub band: Band,
    /// The mean over seeds of that quantity (`None`: no seed gave a value).
    pub mean: Option<f64>,
    /// Whether the mean lies in the band.
    pub holds: bool,
}

/// The result of evaluating one claim.
#[derive(Clone, Debug, Serialize)]
pub struct Outcome {
    /// Claim id.
    pub id: String,
    /// Seed paper short name (`seed003`).
    pub paper: String,
    /// Figure, table or section of the paper.
    pub figure: String,
    /// The paper's statement.
    pub statement: String,
    /// The paper's value, as the paper states it.
    pub paper_value: String,
    /// Unit of the measured value.
    pub unit: String,
    /// What is measured, exactly.
    pub metric: String,
    /// Tolerance band (reproduced).
    pub tolerance: Band,
    /// Direction band (differs vs not reproduced).
    pub direction: Band,
    /// Why this tolerance.
    pub tolerance_note: String,
    /// Scenario files used (relative to the scenarios directory).
    pub scenarios: Vec<String>,
    /// Per-seed values (seed, value).
    pub values: Vec<(u64, f64)>,
    /// Summary over seeds.
    pub summary: Option<Summary>,
    /// The verdict.
    pub verdict: Verdict,
    /// The verdict of each seed's value alone (same order as `values`).
    pub seed_verdicts: Vec<Verdict>,
    /// The value and verdict of one run of every scenario with the exact start times
    /// (every flow's `start_jitter` 0, seed 1); `None` when that run failed.
    pub exact_start: Option<(f64, Verdict)>,
    /// Some seed's verdict, or the exact-start verdict, differs from `verdict`.
    pub fragile: bool,
    /// Simulation runs the claim's value comes from: its scenario instances times the
    /// seeds, plus one exact-start run per instance.
    pub runs: usize,
    /// The seeds its values come from (1..=n) and what set their number: fixed, or the
    /// sequential rule of `--seeds auto` (`crate::sequential`).
    pub seeds: crate::sequential::Seeds,
    /// Explanation when not reproduced (or a note on the setup), empty otherwise.
    pub explanation: String,
    /// Errors met while running or extracting (one per failing seed).
    pub errors: Vec<String>,
    /// The claim's setup departures that could flip its verdict, run the paper's way.
    pub setup_runs: Vec<SetupRun>,
    /// What the claim's null gave (catalog rule 12); `None` for a claim without one.
    pub null: Option<NullOutcome>,
    /// Why the claim's verdict may be the same under its null (`Claim::null_same`); empty
    /// where it may not.
    pub null_same: String,
    /// The claim's precondition on its runs and whether it held (`None`: the claim declares
    /// none); a failed one makes the verdict "inconclusive".
    pub precondition: Option<PreconditionOutcome>,
    /// The claim tries what the paper only suggests (coverage map, `tried`): it is reported
    /// apart and left out of the verdict counts.
    pub tried: bool,
    /// The claim is an order: `summary` is the share of seeds that show it, `values` the
    /// per-seed margins.
    pub order: bool,
    /// Why the model cannot decide the statement (verdict "not testable in this model");
    /// empty for a testable claim.
    pub untestable: String,
    /// Whether the quick (reduced) variant of the scenarios was used.
    pub quick: bool,
    /// Notes on what quick mode changes.
    pub quick_note: String,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn verdict_follows_band_then_direction() {
        let tol = Band::Near {
            value: 27.0,
            tol: 5.0,
        };
        let dir = Band::AtMost { bound: 50.0 };
        assert_eq!(Verdict::judge(30.0, &tol, &dir), Verdict::Reproduced);
        assert_eq!(Verdict::judge(40.0, &tol, &dir), Verdict::Differs);
        assert_eq!(Verdict::judge(60.0, &tol, &dir), Verdict::NotReproduced);
    }

    #[test]
    fn near_holds_a_value_on_its_edge_despite_rounding() {
        // |1.0 - 0.98| rounds to 0.020000000000000018 > 0.02: the edge must still hold.
        let band = Band::Near {
            value: 0.98,
            tol: 0.02,
        };
        assert!((1.0f64 - 0.98).abs() > 0.02);
        assert!(band.holds(1.0) && band.holds(0.96) && band.holds(0.99));
        assert!(!band.holds(1.0000001) && !band.holds(0.9599999));
    }

    #[test]
    fn strict_bands_reject_their_bound_and_containment_sees_it() {
        let above = Band::Above { bound: 1.0 };
        assert!(!above.holds(1.0) && above.holds(1.000001));
        assert!(Band::Below { bound: 0.0 }.holds(-1e-9));
        assert_eq!(above.describe(), "> 1");
        // [1, 2] holds 1, which "> 1" does not: not contained; (1.1, 2) is.
        assert!(!above.contains(&Band::Between { lo: 1.0, hi: 2.0 }));
        assert!(above.contains(&Band::Between { lo: 1.1, hi: 2.0 }));
        assert!(above.contains(&Band::Above { bound: 1.0 }));
        assert!(Band::AtLeast { bound: 1.0 }.contains(&above));
        assert!(Band::AtMost { bound: 3.0 }.contains(&Band::Near {
            value: 2.0,
            tol: 1.0
        }));
        assert!(!Band::AtMost { bound: 3.0 }.contains(&Band::AtLeast { bound: 2.0 }));
    }

    #[test]
    fn bands_hold_where_they_say() {
        assert!(Band::Between { lo: 12.0, hi: 24.0 }.holds(12.0));
        assert!(!Band::Between { lo: 12.0, hi: 24.0 }.holds(24.1));
        assert!(Band::AtLeast { bound: 0.99 }.holds(0.995));
        assert!(Band::rel(100.0, 0.2).holds(80.0));
        assert!(!Band::rel(100.0, 0.2).holds(79.0));
    }

    #[test]
    fn a_verdict_is_fragile_when_a_seed_or_the_exact_start_run_disagrees() {
        use Verdict::*;
        assert!(!is_fragile(Reproduced, &[Reproduced; 3], Some(Reproduced)));
        assert!(!is_fragile(Differs, &[Differs; 2], None));
        assert!(is_fragile(
            Reproduced,
            &[Reproduced, Differs],
            Some(Reproduced)
        ));
        assert!(is_fragile(
            Reproduced,
            &[Reproduced; 3],
            Some(NotReproduced)
        ));
    }

    #[test]
    fn quoted_claims_are_replaced_by_their_means() {
        let t = "ours {=s001-a} against {=s002-b}, {=s003-c}";
        assert_eq!(quoted_claims(t), vec!["s001-a", "s002-b", "s003-c"]);
        let f = fill_quotes(t, |id, q| match (id, q) {
            ("s001-a", Quoted::Mean) => Some(0.123456),
            ("s002-b", Quoted::Mean) => Some(42.0),
            _ => None,
        });
        assert_eq!(f, "ours 0.1235 against 42, `s003-c` (not run here)");
        assert_eq!(
            fill_quotes("no quote {here}", |_, _| None),
            "no quote {here}"
        );
    }

    #[test]
    fn templates_quote_a_null_run_or_one_seed() {
        let t = "own {=s001-a}, null {=s001-a:null}, seed 2 {=s001-a@seed2}, bad {=s001-a:x}";
        // A malformed template is kept whole, so the catalog test names it as unknown.
        assert_eq!(
            quoted_claims(t),
            vec!["s001-a", "s001-a", "s001-a", "s001-a:x"]
        );
        assert_eq!(parse_quote("s001-a:null"), Some(("s001-a", Quoted::Null)));
        assert_eq!(
            parse_quote("s001-a@seed2"),
            Some(("s001-a", Quoted::Seed(2)))
        );
        assert_eq!(parse_quote("s001-a@seedx"), None);
        assert_eq!(parse_quote("s001-a:x"), None);
        let f = fill_quotes(t, |_, q| match q {
            Quoted::Mean => Some(1.0),
            Quoted::Null => Some(2.0),
            Quoted::Seed(n) => Some(n as f64 * 10.0),
        });
        assert_eq!(f, "own 1, null 2, seed 2 20, bad `s001-a:x` (not run here)");
    }

    fn null_run(verdict: Verdict) -> NullOutcome {
        NullOutcome::Run {
            setup: "roles swapped".into(),
            scenarios: vec![],
            mean: Some(0.5),
            verdict,
        }
    }

    #[test]
    fn a_null_run_discriminates_when_it_is_not_reproduced_nor_the_own_verdict() {
        use Verdict::*;
        // Own verdict reproduced: the null must give differs' neither; only "not reproduced".
        assert_eq!(
            null_run(NotReproduced).discriminates(Reproduced),
            Some(true)
        );
        assert_eq!(null_run(Differs).discriminates(Reproduced), Some(true));
        assert_eq!(null_run(Reproduced).discriminates(Reproduced), Some(false));
        // Own verdict differs: the null giving differs as well shows nothing.
        assert_eq!(null_run(Differs).discriminates(Differs), Some(false));
        assert_eq!(null_run(NotReproduced).discriminates(Differs), Some(true));
        assert_eq!(null_run(Reproduced).discriminates(Differs), Some(false));
        // Own verdict not reproduced: only a reproduced null is suspect.
        assert_eq!(
            null_run(NotReproduced).discriminates(NotReproduced),
            Some(true)
        );
        assert_eq!(
            null_run(Reproduced).discriminates(NotReproduced),
            Some(false)
        );
        // Nothing to say where the claim itself says nothing, or the null gave no value.
        for own in [NotRun, NotTestable, Inconclusive] {
            assert_eq!(null_run(NotReproduced).discriminates(own), None);
        }
        let empty = NullOutcome::Run {
            setup: String::new(),
            scenarios: vec![],
            mean: None,
            verdict: NotRun,
        };
        assert_eq!(empty.discriminates(Reproduced), None);
    }

    #[test]
    fn an_alternative_value_discriminates_when_excluded_and_a_reason_never_does() {
        let alt = |excluded| NullOutcome::Excludes {
            excludes: 1200.0,
            model: "TCP fills the buffer".into(),
            excluded,
        };
        assert_eq!(alt(true).discriminates(Verdict::Reproduced), Some(true));
        assert_eq!(alt(false).discriminates(Verdict::Differs), Some(false));
        let none = NullOutcome::None {
            none: "a setup number".into(),
        };
        assert_eq!(none.discriminates(Verdict::Reproduced), None);
    }

    #[test]
    fn null_outcomes_serialise_as_the_issue_asks() {
        let j = |n: &NullOutcome| serde_json::to_value(n).unwrap();
        let r = j(&null_run(Verdict::Differs));
        assert_eq!(r["setup"], "roles swapped");
        assert_eq!(r["verdict"], "differs");
        let e = j(&NullOutcome::Excludes {
            excludes: 1200.0,
            model: "m".into(),
            excluded: true,
        });
        assert_eq!(
            (e["excludes"].as_f64(), &e["model"]),
            (Some(1200.0), &"m".into())
        );
        let n = j(&NullOutcome::None { none: "why".into() });
        assert_eq!(n, serde_json::json!({"none": "why"}));
        assert_eq!(
            serde_json::to_value(Verdict::Inconclusive).unwrap(),
            "inconclusive"
        );
    }

    #[test]
    fn numbers_are_printed_compactly() {
        assert_eq!(fmt_num(27.0), "27");
        assert_eq!(fmt_num(0.654321), "0.6543");
        assert_eq!(fmt_num(1234.6), "1235");
        assert_eq!(fmt_num(0.0), "0");
    }
}
