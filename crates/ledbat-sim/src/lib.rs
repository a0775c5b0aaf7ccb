//! `ledbat-sim`: a deterministic packet-level simulator for less-than-best-effort
//! congestion control.
//!
//! A [`Scenario`] (TOML, schema in `SCENARIOS.md`) describes a network (dumbbell or access
//! star), queues (DropTail, RED, CoDel) and flows, each driven by an unchanged
//! `ledbat_core` controller through a TCP-like transport (SACK-based loss detection, RFC 6298
//! RTO, optional delayed ACKs, one-way-delay samples on ACKs). [`run`] plays it with one
//! seeded generator and returns a serialisable [`RunResult`]: per-flow and aggregate
//! metrics and time series. Same scenario + same seed = identical result.
//!
//! ```
//! let sc = ledbat_sim::Scenario::from_toml(r#"
//!     duration = "5s"
//!     [[flow]]
//!     cc = { name = "ledbat", target = "25ms" }
//! "#).unwrap();
//! let r = ledbat_sim::run(&sc, 1).unwrap();
//! assert!(r.conservation.holds);
//! assert!(r.aggregate.efficiency > 0.5);
//! ```

pub mod engine;
pub mod export;
pub mod queue;
pub mod result;
pub mod scenario;
pub mod stats;
pub mod swarm;
pub mod sweep;
pub mod transport;
pub mod units;
pub mod world;

pub use result::RunResult;
pub use scenario::{Scenario, ScenarioError};
pub use units::Rate;
pub use world::{run, run_with_progress, RunError};
