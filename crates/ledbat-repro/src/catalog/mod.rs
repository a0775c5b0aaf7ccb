//! The claims of the five seed papers, each with its scenario(s), metric, tolerance and
//! direction, fixed before looking at our numbers.
//!
//! Tolerance policy (applied uniformly, stated per claim):
//! - a value the paper states in its text as "about X" or reads off its own figure: X ± 20 %
//!   (figure-reading precision and seed-to-seed spread in a different simulator), unless the
//!   claim's own wording gives a bound (e.g. "between 12 and 24 ms", "> 0.99", "< 1 packet");
//! - a qualitative statement ("yields", "shares equally", "finishes first"): the band encodes
//!   the statement with a threshold stated before running (e.g. Jain ≥ 0.9 for "fair");
//! - the direction is the weakest reading of the claim that would still make the paper's
//!   point (e.g. "TCP carries more than LEDBAT").
//!
//! Rules every claim obeys (`tests/claim_rules.rs` checks the first three on the whole
//! catalog):
//! - its direction can fail: some value contradicts it;
//! - its tolerance band lies inside its direction band, so that a "reproduced" value never
//!   contradicts the claim's own direction;
//! - two claims about one measurement cannot disagree: where two claims read the same run
//!   (a Jain index and a throughput ratio of the same two flows), one band is derived from
//!   the other (`s003-ledbat-newreno-jain` from `s003-ledbat-newreno-data-ratio`);
//! - where the statement is an order ("the first flow finishes first"), the order is the
//!   metric, not one of the two values;
//! - a number is checked against the value the paper states, with at most 25 % relative
//!   tolerance unless the reason for more is written in the claim's `tolerance_note`;
//! - an explanation does not type figures of the run it accompanies (the report shows them):
//!   it quotes another claim's measured value as `{=claim-id}`, which the report fills in
//!   (`claims::fill_quotes`); figures it types come from other runs, with the command that
//!   produced them, or from the paper's setup (arithmetic shown).
//!
//! Sweeps are expressed as `--set` overrides of one scenario file, so one file serves a whole
//! gain or target sweep.
//!
//! Layout: this module holds the claim type and the scenario-building helpers; one module per
//! paper (`seed000` .. `seed004`) lists that paper's claims; [`extract`] holds the value
//! extractors shared by several claims and [`plots`] the plots drawn from a run.

pub mod extract;
pub mod plots;
mod seed000;
mod seed001;
mod seed002;
mod seed003;
mod seed003_ch2;
mod seed003_ch3;
mod seed003_ch4;
mod seed003_p2p;
mod seed003_swarm;
mod seed004;
pub mod variants;

pub use extract::kendall_tau;

use ledbat_sim::RunResult;

/// One scenario instance: a file under `scenarios/` and overrides.
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct ScenarioRef {
    /// Path relative to the scenarios directory.
    pub file: &'static str,
    /// `key=value` overrides (sweep point).
    pub set: Vec<String>,
}

impl ScenarioRef {
    /// The scenario as is.
    pub fn file(file: &'static str) -> Self {
        ScenarioRef {
            file,
            set: Vec::new(),
        }
    }
    /// The scenario with overrides (`key=value` strings).
    pub fn with<S: AsRef<str>>(file: &'static str, set: &[S]) -> Self {
        ScenarioRef {
            file,
            set: set.iter().map(|s| s.as_ref().to_string()).collect(),
        }
    }
    /// Display form: `file [k=v, ...]`.
    pub fn label(&self) -> String {
        if self.set.is_empty() {
            self.file.to_string()
        } else {
            format!("{} [{}]", self.file, self.set.join(", "))
        }
    }
}

/// The same scenario file with `key` set to each of `values` in turn (one sweep point each).
pub fn sweep(file: &'static str, key: &str, values: &[f64]) -> Vec<ScenarioRef> {
    values
        .iter()
        .map(|v| ScenarioRef::with(file, &[format!("{key}={v}")]))
        .collect()
}

/// Several scenario files, each as is (the order the claim's extractor expects).
pub fn files(files: &[&'static str]) -> Vec<ScenarioRef> {
    files.iter().map(|f| ScenarioRef::file(f)).collect()
}

/// Extracts one number from one seed's runs (in the claim's scenario order).
pub type Extract = fn(&[&RunResult]) -> Result<f64, String>;
/// Draws plots from the first seed's runs.
pub type Draw = fn(&[&RunResult]) -> Vec<crate::plot::Plot>;

/// A claim of a paper.
#[derive(Clone)]
pub struct Claim {
    /// Stable identifier (`s003-ledbat-newreno-jain`).
    pub id: &'static str,
    /// Seed paper short name.
    pub paper: &'static str,
    /// Figure, table or section.
    pub figure: &'static str,
    /// The paper's statement.
    pub statement: &'static str,
    /// The paper's value as stated.
    pub paper_value: &'static str,
    /// Unit of the metric.
    pub unit: &'static str,
    /// What exactly is measured.
    pub metric: &'static str,
    /// Scenarios, in the order the extractor expects.
    pub scenarios: Vec<ScenarioRef>,
    /// The extractor.
    pub extract: Extract,
    /// Optional plots.
    pub draw: Option<Draw>,
    /// Tolerance band (reproduced).
    pub tolerance: crate::claims::Band,
    /// Direction band (differs vs not reproduced).
    pub direction: crate::claims::Band,
    /// Why this tolerance.
    pub tolerance_note: &'static str,
    /// Explanation when it does not reproduce (filled after investigation), or a setup note.
    pub explanation: &'static str,
}

impl Claim {
    /// A claim with only its id and paper filled in (the paper from the id's `s00N-`
    /// prefix); every other field is a placeholder the caller replaces with struct-update
    /// syntax, `Claim { statement: .., ..Claim::base("s000-x") }`. A catalog test checks
    /// that no placeholder is left.
    pub fn base(id: &'static str) -> Claim {
        use crate::claims::Band;
        let paper = match id.get(..5) {
            Some("s000-") => "seed000",
            Some("s001-") => "seed001",
            Some("s002-") => "seed002",
            Some("s003-") => "seed003",
            Some("s004-") => "seed004",
            _ => "",
        };
        Claim {
            id,
            paper,
            figure: "",
            statement: "",
            paper_value: "",
            unit: "",
            metric: "",
            scenarios: Vec::new(),
            extract: |_| Err("no extractor".into()),
            draw: None,
            tolerance: Band::AtLeast {
                bound: f64::INFINITY,
            },
            direction: Band::AtLeast {
                bound: f64::INFINITY,
            },
            tolerance_note: "",
            explanation: "",
        }
    }
}

/// Reduced variants of long scenarios for `--quick`: (file, overrides, what changes).
pub const QUICK: &[(&str, &[&str], &str)] = &[
    (
        "seed001/base-growth.toml",
        &["duration=25min", "flow.0.cc.delay.base_interval=30s"],
        "base-delay buckets of 30 s instead of 1 min (BASE_HISTORY still 10), 25 min simulated: \
         the growth period becomes 5 min instead of 10, loss expected near 15 min instead of 30",
    ),
    (
        "seed001/base-growth-jitter.toml",
        &["duration=12min", "flow.0.cc.delay.base_interval=30s"],
        "base-delay buckets of 30 s, 12 min simulated (two growth periods)",
    ),
    (
        "seed001/short-tcp-alone.toml",
        &["duration=300s"],
        "240 s of transfers instead of 600 s",
    ),
    (
        "seed001/short-tcp-ledbat.toml",
        &["duration=300s"],
        "240 s of transfers instead of 600 s",
    ),
    (
        "seed001/web-up-alone.toml",
        &["duration=400s"],
        "340 s of trains instead of 1200 s",
    ),
    (
        "seed001/web-up-ledbat.toml",
        &["duration=400s"],
        "340 s of trains instead of 1200 s",
    ),
    (
        "seed001/web-down-alone.toml",
        &["duration=400s"],
        "340 s of trains instead of 1200 s",
    ),
    (
        "seed001/web-down-ledbat.toml",
        &["duration=400s"],
        "340 s of trains instead of 1200 s",
    ),
    (
        "seed000/dynamic-gain-cbr.toml",
        &["duration=60s"],
        "60 s instead of 180 s",
    ),
    (
        "seed000/fixed-gain-cbr.toml",
        &["duration=60s"],
        "60 s instead of 180 s",
    ),
    (
        "seed003/target-sweep.toml",
        &["duration=50s"],
        "50 s instead of 100 s",
    ),
    (
        "seed003/lbe10-ledbat.toml",
        &["duration=50s"],
        "50 s instead of 100 s",
    ),
    (
        "seed003/lbe10-nice.toml",
        &["duration=50s"],
        "50 s instead of 100 s",
    ),
    (
        "seed003/lbe10-tcp-lp.toml",
        &["duration=50s"],
        "50 s instead of 100 s",
    ),
    (
        "seed003/aqm-droptail.toml",
        &["duration=60s"],
        "60 s instead of 120 s",
    ),
    (
        "seed003/aqm-red.toml",
        &["duration=60s"],
        "60 s instead of 120 s",
    ),
    (
        "seed003/chunks-ledbat.toml",
        &["duration=60s"],
        "60 s instead of 120 s",
    ),
    (
        "seed003/chunks-fledbat.toml",
        &["duration=60s"],
        "60 s instead of 120 s",
    ),
    (
        "seed003/swarm.toml",
        &[
            "swarm.leechers=40",
            "swarm.discard=10",
            "swarm.measure=20",
            "swarm.file_size=\"4MiB\"",
        ],
        "40 leechers instead of 100, 10 completions discarded and 20 measured instead of 50 \
         and 50, a 4 MiB file instead of 10 MiB",
    ),
    (
        "seed003/swarm-target.toml",
        &[
            "swarm.leechers=40",
            "swarm.discard=10",
            "swarm.measure=20",
            "swarm.file_size=\"4MiB\"",
        ],
        "40 leechers instead of 100, 10 + 20 completions instead of 50 + 50, a 4 MiB file",
    ),
    (
        "seed003/swarm-flashcrowd.toml",
        &[
            "swarm.leechers=20",
            "swarm.measure=20",
            "swarm.file_size=\"4MiB\"",
        ],
        "20 leechers instead of 75, a 4 MiB file instead of 10 MiB",
    ),
    (
        "seed003/target-hetero.toml",
        &["duration=60s"],
        "60 s instead of 120 s",
    ),
    (
        "seed004/hybrid-five.toml",
        &["duration=460s", "warmup=410s"],
        "flows measured over 410-460 s (all five present) instead of 420-600 s",
    ),
];

/// Every claim, in report order.
pub fn all() -> Vec<Claim> {
    let mut v = seed000::claims();
    v.extend(seed001::claims());
    v.extend(seed002::claims());
    v.extend(seed003::claims());
    v.extend(seed003_ch2::claims());
    v.extend(seed003_ch3::claims());
    v.extend(seed003_ch4::claims());
    v.extend(seed003_p2p::claims());
    v.extend(seed003_swarm::claims());
    v.extend(seed004::claims());
    v
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::HashSet;

    fn scenarios_dir() -> std::path::PathBuf {
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../scenarios")
    }

    #[test]
    fn claim_ids_are_unique_and_prefixed_by_their_paper() {
        let mut seen = HashSet::new();
        for c in all() {
            assert!(seen.insert(c.id), "duplicate id {}", c.id);
            assert!(
                c.id.starts_with(&format!("s{}", &c.paper[4..])),
                "{} vs {}",
                c.id,
                c.paper
            );
            assert!(!c.scenarios.is_empty(), "{} has no scenario", c.id);
            assert!(!c.tolerance_note.is_empty());
        }
    }

    #[test]
    fn no_claim_keeps_a_placeholder_of_claim_base() {
        for c in all() {
            assert!(!c.paper.is_empty(), "{}: paper", c.id);
            for (what, v) in [
                ("figure", c.figure),
                ("statement", c.statement),
                ("paper_value", c.paper_value),
                ("unit", c.unit),
                ("metric", c.metric),
            ] {
                assert!(!v.is_empty(), "{}: empty {what}", c.id);
            }
            for b in [&c.tolerance, &c.direction] {
                let (lo, hi) = b.interval();
                assert!(
                    lo.is_finite() || hi.is_finite(),
                    "{}: placeholder band",
                    c.id
                );
                assert!(!(lo == f64::INFINITY), "{}: placeholder band", c.id);
            }
        }
    }

    #[test]
    fn every_scenario_instance_parses_and_validates() {
        for c in all() {
            for s in &c.scenarios {
                let text = std::fs::read_to_string(scenarios_dir().join(s.file))
                    .unwrap_or_else(|e| panic!("{}: {e}", s.file));
                assert!(
                    text.starts_with("# Seed 00"),
                    "{} must open with a comment citing its figure",
                    s.file
                );
                ledbat_sim::Scenario::from_toml_with(&text, &s.set)
                    .unwrap_or_else(|e| panic!("{}: {e}", s.label()));
            }
        }
    }

    #[test]
    fn explanations_quote_only_existing_claims() {
        let ids: HashSet<&str> = all().iter().map(|c| c.id).collect();
        for c in all() {
            for q in crate::claims::quoted_claims(c.explanation) {
                assert!(ids.contains(q), "{} quotes unknown claim {q}", c.id);
            }
        }
    }

    #[test]
    fn quick_overrides_apply_to_existing_files() {
        for (file, set, note) in QUICK {
            let text = std::fs::read_to_string(scenarios_dir().join(file)).unwrap();
            ledbat_sim::Scenario::from_toml_with(&text, set)
                .unwrap_or_else(|e| panic!("{file}: {e}"));
            assert!(!note.is_empty());
        }
    }

    #[test]
    fn sweep_sets_one_key_per_point_in_order() {
        let s = sweep("seed000/fixed-gain.toml", "flow.0.cc.gain", &[0.125, 10.0]);
        assert_eq!(s.len(), 2);
        assert_eq!(s[0].set, vec!["flow.0.cc.gain=0.125".to_string()]);
        assert_eq!(s[1].set, vec!["flow.0.cc.gain=10".to_string()]);
        assert_eq!(s[1].label(), "seed000/fixed-gain.toml [flow.0.cc.gain=10]");
    }

    #[test]
    fn claims_are_listed_paper_by_paper_in_report_order() {
        let papers: Vec<&str> = all().iter().map(|c| c.paper).collect();
        let mut sorted = papers.clone();
        sorted.sort();
        assert_eq!(papers, sorted);
        assert_eq!(papers.first(), Some(&"seed000"));
        assert_eq!(papers.last(), Some(&"seed004"));
    }
}
