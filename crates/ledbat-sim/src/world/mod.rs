//! The simulated world: links, routes, flows and the event loop.
//!
//! `World` owns everything a run touches and dispatches each event to the module that
//! handles it: `net` (links, routes, the packet pool), `flow` (the glue between a
//! flow's packets and timers and its [`crate::transport`] sender and receiver), `sources`
//! (the traffic applications), `metrics` (sampling and the final [`RunResult`]); `build`
//! makes a world from a [`Scenario`].
//!
//! Times are [`Instant`]s and [`Duration`]s; the event queue keys and the per-link
//! statistics accumulators stay integer nanoseconds.

mod build;
mod flow;
mod metrics;
mod net;
mod sources;
mod stream;
mod swarm;

use crate::engine::{Ev, EventQueue};
use crate::result::RunResult;
use crate::scenario::{ClockConfig, Scenario, ScenarioError};
use flow::Flow;
use ledbat_core::{Duration, Instant, Timestamp32};
use net::{Link, Pool, Route};
use rand::Rng;
use rand_chacha::ChaCha8Rng;
use std::collections::BTreeMap;

/// Controllers counted as "TCP" in the TCP share.
pub const TCP_CONTROLLERS: &[&str] = &["newreno", "cubic", "vegas"];

/// One second, the length of the fairness and steady-state windows.
const SECOND: Duration = Duration::from_secs(1);

/// Why a run could not start.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum RunError {
    /// The scenario is invalid.
    #[error(transparent)]
    Scenario(#[from] ScenarioError),
    /// A controller refused its configuration.
    #[error("flow {flow}: {source}")]
    Controller {
        /// Flow name.
        flow: String,
        /// The controller's error.
        source: ledbat_core::ConfigError,
    },
}

struct World<'a> {
    sc: &'a Scenario,
    now: Instant,
    end: Instant,
    warmup: Instant,
    mss: u32,
    ack_size: u32,
    sample_every: Duration,
    ev: EventQueue,
    rng: ChaCha8Rng,
    pool: Pool,
    links: Vec<Link>,
    routes: Vec<Route>,
    route_cache: BTreeMap<(u32, u32), (u32, u32)>,
    /// Star hosts: (up link, down link, clock).
    star: Vec<(u32, u32, ClockConfig)>,
    flows: Vec<Flow>,
    monitored: Vec<usize>,
    primary: Option<usize>,
    capacity_bps: f64,
    sent: u64,
    delivered: u64,
    dropped: u64,
    scratch: Vec<u32>,
    /// What the swarm's idle-uplink classification reads of each flow's sender, kept
    /// compact (see [`flow::Brief`]); empty outside a swarm.
    brief: Vec<flow::Brief>,
    /// The briefs' counts per sending peer (see [`flow::PeerBrief`]).
    peer_brief: Vec<flow::PeerBrief>,
    series_t: Vec<f64>,
    /// The competitor detection's tests seen at samples (`Series::tests`).
    series_tests: Vec<crate::result::TestRecord>,
    series_links: Vec<Vec<u32>>,
    /// Number of time-series samples (0 without series): vectors are allocated exactly.
    series_len: usize,
    /// The BitTorrent swarm of a `[swarm]` scenario.
    swarm: Option<Box<swarm::SwarmState>>,
}

/// Runs `scenario` with `seed`. Pure: the same inputs give the same result.
pub fn run(scenario: &Scenario, seed: u64) -> Result<RunResult, RunError> {
    run_with_progress(scenario, seed, &mut |_| {})
}

/// [`run`], calling `progress` with the simulated fraction done (0..=1) from time to time.
pub fn run_with_progress(
    scenario: &Scenario,
    seed: u64,
    progress: &mut dyn FnMut(f64),
) -> Result<RunResult, RunError> {
    scenario.validate()?;
    let mut w = World::build(scenario, seed)?;
    w.run_loop(progress);
    Ok(if w.swarm.is_some() {
        w.finish_swarm(seed)
    } else {
        w.finish(seed)
    })
}

/// The 32-bit microsecond wire clock of a host with clock `c` at true time `now`.
fn wire_clock(c: &ClockConfig, now: Instant) -> Timestamp32 {
    let mut t = if c.drift_ppm == 0.0 {
        now
    } else {
        Instant::from_nanos((now.as_nanos() as f64 * (1.0 + c.drift_ppm * 1e-6)).max(0.0) as u64)
    };
    let tick = c.resolution.as_nanos();
    if tick > 1 {
        t = Instant::from_nanos(t.as_nanos() / tick * tick);
    }
    Timestamp32::from_instant(t, c.offset.as_micros())
}

/// Uniform in `[r[0], r[1]]` (nanosecond resolution); `r[0]` when the range is empty.
fn uniform(rng: &mut ChaCha8Rng, r: [u64; 2]) -> u64 {
    if r[0] >= r[1] {
        r[0]
    } else {
        rng.gen_range(r[0]..=r[1])
    }
}

/// [`uniform`] over durations.
fn uniform_dur(rng: &mut ChaCha8Rng, r: [Duration; 2]) -> Duration {
    Duration::from_nanos(uniform(rng, [r[0].as_nanos(), r[1].as_nanos()]))
}

impl World<'_> {
    /// Schedules `ev` at `t`.
    #[inline]
    fn at(&mut self, t: Instant, ev: Ev) {
        self.ev.push(t.as_nanos(), ev);
    }

    /// Metrics count from the end of the warm-up.
    #[inline]
    fn measuring(&self) -> bool {
        self.now >= self.warmup
    }

    fn run_loop(&mut self, progress: &mut dyn FnMut(f64)) {
        let first = Instant::ZERO
            + match &self.sc.swarm {
                Some(c) => c.queue_sample,
                None => self.sample_every,
            };
        if first <= self.end {
            self.at(first, Ev::Sample);
        }
        let sec = Instant::ZERO + SECOND;
        if sec <= self.end && self.swarm.is_none() {
            self.at(sec, Ev::Second);
        }
        let mut n: u64 = 0;
        // A swarm may end the run early (`self.end` moves back), so it is read every time.
        while let Some((t, ev)) = self.ev.pop() {
            let end = self.end.as_nanos();
            if t > end {
                break;
            }
            self.now = Instant::from_nanos(t);
            match ev {
                Ev::Arrive(p) => self.arrive(p),
                Ev::TxDone(l) => self.tx_done(l as usize),
                Ev::Wake(f) => self.on_wake(f as usize),
                Ev::Rto(f) => self.on_rto(f as usize),
                Ev::DelAck(f) => self.on_delack(f as usize),
                Ev::Tick(f) => self.on_tick(f as usize),
                Ev::App(f) => self.on_app(f as usize),
                Ev::Start(f) => self.on_start(f as usize),
                Ev::Stop(f) => self.on_stop(f as usize),
                Ev::Interrupt(f) => self.on_interrupt(f as usize),
                Ev::PeerArrive(p) => self.on_peer_arrive(p),
                Ev::PeerTick(p) => self.on_peer_tick(p),
                Ev::PeerLeave(p) => self.on_peer_leave(p),
                Ev::Sample => self.on_sample(),
                Ev::Second => self.on_second(),
            }
            n += 1;
            if n & 0xFFFF == 0 {
                let time = t as f64 / self.end.as_nanos().max(1) as f64;
                progress(self.swarm_progress().map_or(time, |c| c.max(time)));
            }
        }
        self.now = self.end;
        progress(1.0);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn wire_clock_ticks_at_its_resolution() {
        let ms = |x: u64| Instant::from_nanos(x * 1_000_000);
        let exact = ClockConfig::default();
        assert_eq!(
            wire_clock(&exact, ms(7) + Duration::from_micros(999)).0,
            7_999
        );
        let coarse = ClockConfig {
            resolution: Duration::from_millis(1),
            offset: Duration::from_micros(5),
            ..ClockConfig::default()
        };
        // 7.999 ms reads 7 ms (plus the 5-us offset); 8.000 ms reads 8 ms.
        assert_eq!(
            wire_clock(&coarse, ms(7) + Duration::from_micros(999)).0,
            7_005
        );
        assert_eq!(wire_clock(&coarse, ms(8)).0, 8_005);
    }
}
