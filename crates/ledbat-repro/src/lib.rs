//! `ledbat-repro`: re-checks the quantitative claims of the five seed papers against the
//! `ledbat-sim` packet simulator and publishes the verdicts.
//!
//! - [`claims`]: tolerance bands, verdicts and the outcome record;
//! - [`catalog`]: every claim with its scenarios, metric and tolerance;
//! - [`coverage`]: the map of every statement of the papers to the claims that test it, and
//!   every scenario's setup against the paper's words (`docs/repro/coverage/`);
//! - [`runner`]: runs the scenarios (deduplicated, in parallel over seeds) and judges;
//! - [`fluid`] and [`fluid_compare`]: the fLEDBAT fluid model of seed 003 section 4.3, its
//!   equilibrium, and the comparison with the packet simulation (Fig. 4.3);
//! - [`cache`]: the content-addressed cache of runs (keyed by scenario, seed and code
//!   hashes), [`progress`]: runs done, time left, and what the runs cost, and [`schedule`]:
//!   the runs of a batch, one pilot per scenario file then longest first;
//! - [`remote`]: runs sent to other machines (`ledbat repro --dask`), one hook in the runner;
//! - [`atomic`]: atomic file writes (shared with the CLI);
//! - [`sequential`]: the rule of `--seeds auto` (seeds in rounds until a claim's verdict is
//!   decided, with its error rate);
//! - [`stats`]: mean and Student-t confidence intervals over seeds;
//! - [`plot`]: inline SVG plots; [`report`]: terminal table, JSON, `report.md`, `index.html`.

pub mod atomic;
pub mod cache;
pub mod catalog;
pub mod claims;
pub mod coverage;
pub mod eta;
pub mod fluid;
pub mod fluid_compare;
pub mod plot;
pub mod progress;
pub mod remote;
pub mod report;
pub mod runner;
pub mod schedule;
pub mod sequential;
pub mod stats;

/// A fresh scratch directory for a unit test, named for `tag`, removed when dropped whether
/// the test passes or fails.
#[cfg(test)]
pub(crate) fn tmpdir(tag: &str) -> tempfile::TempDir {
    tempfile::Builder::new()
        .prefix(&format!("ledbat-repro-{tag}-"))
        .tempdir()
        .unwrap()
}
