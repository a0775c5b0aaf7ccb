//! `ledbat-sim`: a deterministic packet-level simulator for less-than-best-effort
//! congestion control.
//!
//! A [`Scenario`] (TOML, schema in `SCENARIOS.md`) describes a network (dumbbell or access
//! star), queues (DropTail, RED, CoDel) and flows, each driven by an unchanged
//! `ledbat_core` controller through a TCP-like transport (SACK-based loss detection, RFC 6298
//! RTO, optional delayed ACKs, one-way-delay samples on ACKs). [`run`] plays it with one
//! seeded generator and returns a serialisable [`RunResult`]: per-flow and aggregate
//! metrics and time series. Same scenario + same seed = identical result.

#![forbid(unsafe_code)]
#![warn(missing_docs)]

pub mod scenario;
pub mod units;

pub use scenario::{Scenario, ScenarioError};
pub use units::Rate;
