//! `ledbat-core`: sans-IO congestion controllers for less-than-best-effort transport.
//!
//! Everything here is a pure state machine: no sockets, no clocks, no threads. Drivers (the
//! packet-level simulator in `ledbat-sim`, the uTP transport in `ledbat-utp`) pass `now` in
//! as an [`Instant`] and feed the [`Controller`] trait with sends, ACKs, losses and timeouts;
//! the controller answers with a window in bytes, and optionally a pacing rate or a pause.
//!
//! - [`time`]: integer nanosecond [`Instant`] and [`Duration`];
//! - [`wire`]: wrap-safe 32-bit microsecond timestamps and delay samples;
//! - [`delay`]: base- and current-delay estimation shared by the delay-based controllers;
//! - [`delivery`]: delivery-rate samples from sends and ACKs, for the rate-based ones;
//! - [`controller`]: the [`Controller`] trait, its events, and the [`ControllerFactory`] every
//!   controller config implements (name, validation, construction);
//! - [`registry`]: built-in controllers by name ([`ControllerConfig`], [`AnyController`]);
//! - one module per controller, each stating its formula and source; [`scavenger`], the
//!   recommended preset of [`ledbat_pp`], and the components LEDBAT variants share
//!   ([`slowdown`], [`slow_start`], [`competitor`]).

pub mod bbr;
pub mod competitor;
pub mod controller;
pub mod cubic;
pub mod delay;
pub mod delivery;
pub mod dynamic_gain;
pub mod error;
pub mod fledbat;
pub mod hybrid;
pub mod hystart;
pub mod ledbat;
pub mod ledbat_pp;
pub mod linear_min;
pub mod md;
pub mod mdvar;
pub mod newreno;
pub mod nice;
pub mod param_path;
pub mod pause;
pub mod registry;
pub mod reno;
pub mod scavenger;
pub mod slow_start;
pub mod slowdown;
pub mod tcp_lp;
pub mod time;
pub mod vegas;
pub mod wire;

pub use controller::{Ack, Controller, ControllerFactory, Loss, Metrics, RttEstimator, Timeout};
pub use delay::{CurrentFilter, DelayConfig, DelayEstimator};
pub use error::ConfigError;
pub use registry::{AnyController, ControllerConfig, ControllerInfo, CATALOG};
pub use time::{Duration, Instant};
pub use wire::{DelaySample, Timestamp32};
