//! `ledbat-repro`: re-checks the quantitative claims of the five seed papers against the
//! `ledbat-sim` packet simulator and publishes the verdicts.
//!
//! - [`claims`]: the claim type, tolerance bands and the verdict rule;
//! - [`fluid`]: the fLEDBAT fluid model of seed 003 section 4.3 and its equilibrium;
//! - [`stats`]: mean and Student-t confidence intervals over seeds;
//! - [`plot`]: inline SVG plots;
//! - [`report`]: terminal table, JSON, `report.md` and a self-contained `index.html`.

#![forbid(unsafe_code)]
#![warn(missing_docs)]

pub mod claims;
pub mod fluid;
pub mod plot;
pub mod report;
pub mod stats;
