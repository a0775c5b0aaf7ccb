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
//!   apart from the three verdicts above.
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
    /// `|x - value| <= tol`.
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
            Band::Near { value, tol } => (x - value).abs() <= tol,
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

/// The claim ids an explanation quotes as `{=id}`: the report replaces each with that
/// claim's measured mean, so an explanation never types a figure of a run.
pub fn quoted_claims(text: &str) -> Vec<&str> {
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

/// `text` with every `{=id}` replaced by `mean(id)` (4 significant digits), or by
/// "`id` (not run here)" when that claim was not evaluated.
pub fn fill_quotes(text: &str, mean: impl Fn(&str) -> Option<f64>) -> String {
    let mut s = text.to_string();
    for id in quoted_claims(text) {
        let v = match mean(id) {
            Some(m) => fmt_num(m),
            None => format!("`{id}` (not run here)"),
        };
        s = s.replacen(&format!("{{={id}}}"), &v, 1);
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
                Verdict::NotRun | Verdict::NotTestable => None,
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
    /// Explanation when not reproduced (or a note on the setup), empty otherwise.
    pub explanation: String,
    /// Errors met while running or extracting (one per failing seed).
    pub errors: Vec<String>,
    /// The claim's setup departures that could flip its verdict, run the paper's way.
    pub setup_runs: Vec<SetupRun>,
    /// What the claim's null gave (catalog rule 12); `None` for a claim without one.
    pub null: Option<NullOutcome>,
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
        let f = fill_quotes(t, |id| match id {
            "s001-a" => Some(0.123456),
            "s002-b" => Some(42.0),
            _ => None,
        });
        assert_eq!(f, "ours 0.1235 against 42, `s003-c` (not run here)");
        assert_eq!(fill_quotes("no quote {here}", |_| None), "no quote {here}");
    }

    #[test]
    fn numbers_are_printed_compactly() {
        assert_eq!(fmt_num(27.0), "27");
        assert_eq!(fmt_num(0.654321), "0.6543");
        assert_eq!(fmt_num(1234.6), "1235");
        assert_eq!(fmt_num(0.0), "0");
    }
}
