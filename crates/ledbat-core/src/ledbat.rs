//! LEDBAT as RFC 6817 specifies it (section 2.4.2 pseudo-code, constants of section 3.4).
//!
//! On every ACK newly acknowledging `bytes_acked`:
//!
//! ```text
//! queuing_delay = FILTER(current_delays) - min(base_delays)
//! off_target    = (TARGET - queuing_delay) / TARGET
//! cwnd         += GAIN * off_target * bytes_acked * MSS / cwnd
//! cwnd          = min(cwnd, flightsize + ALLOWED_INCREASE * MSS)
//! cwnd          = max(cwnd, MIN_CWND * MSS)
//! ```
//!
//! On loss: `cwnd = max(cwnd / 2, MIN_CWND * MSS)`, at most once per RTT (losses of packets
//! sent before the last reduction are part of the same event). On a congestion timeout:
//! `cwnd = 1 * MSS`. With GAIN 1 the window grows by at most one MSS per RTT at zero queuing
//! delay and shrinks by one MSS per RTT at twice the target.
//!
//! Optional slow start (off by default, as the RFC recommends against it): `cwnd +=
//! bytes_acked` until the queuing delay reaches `slow_start_exit * TARGET` or a loss.
//!
//! [`LedbatState`] holds the parts every LEDBAT variant shares (delay estimation, the
//! flightsize cap, the minimum, loss and timeout handling) so variant modules only state
//! their window rule. Every variant is written like [`Ledbat`] below: a plain struct
//! `{ cfg, st: LedbatState, ... }`, a config that implements [`ControllerFactory`] (its
//! `validate` starts with the shared [`LedbatConfig::validate_as`] of the config's LEDBAT
//! part), and a [`Controller`] impl whose `on_ack` is the variant's rule.

use crate::controller::{
    config_setters, Ack, Controller, ControllerFactory, Loss, Metrics, Timeout,
};
use crate::delay::{DelayConfig, DelayEstimator};
use crate::error::{in_range, nonzero, positive, ConfigError};
use crate::time::{Duration, Instant};
use serde::{Deserialize, Serialize};

/// RFC 6817 LEDBAT parameters.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct LedbatConfig {
    /// Queuing-delay target. Default 100 ms (RFC 6817 section 3.4.2 "TARGET MUST be 100
    /// milliseconds or less"; BEP 29 uses 100 ms; seeds 000, 002 and 003 ch. 3 use 25 ms).
    pub target: Duration,
    /// Window gain. Default 1 (RFC 6817 section 3.4.2: "GAIN MUST be set to 1 or less").
    pub gain: f64,
    /// Allowed increase over the flight size, packets. Default 1 (RFC 6817 section 3.4.2).
    pub allowed_increase: f64,
    /// Minimum window, packets. Default 2 (RFC 6817 section 3.4.2, MIN_CWND).
    pub min_cwnd: f64,
    /// Initial window, packets. Default 2 (RFC 6817 section 3.4.2, INIT_CWND).
    pub init_cwnd: f64,
    /// Slow start at the start of a connection. Default off (RFC 6817 section 2.4.2 does not
    /// mandate it; libutp and libtorrent use it).
    pub slow_start: bool,
    /// Slow start ends when the queuing delay reaches this fraction of TARGET. Default 0.9
    /// (libutp; libtorrent uses 1.0, LEDBAT++ 0.75).
    pub slow_start_exit: f64,
    /// Delay estimation (RFC 6817 section 3.4.2 defaults).
    pub delay: DelayConfig,
}

impl Default for LedbatConfig {
    fn default() -> Self {
        LedbatConfig {
            target: Duration::from_millis(100),
            gain: 1.0,
            allowed_increase: 1.0,
            min_cwnd: 2.0,
            init_cwnd: 2.0,
            slow_start: false,
            slow_start_exit: 0.9,
            delay: DelayConfig::default(),
        }
    }
}

/// RFC 6817's upper limit on TARGET.
pub const RFC_MAX_TARGET: Duration = Duration::from_millis(100);
/// RFC 6817's upper limit on GAIN.
pub const RFC_MAX_GAIN: f64 = 1.0;
/// The papers sweep GAIN up to this (seed 003, section 3.3); beyond it is refused.
pub const MAX_GAIN: f64 = 10.0;
/// The papers sweep TARGET up to this (seed 003, section 5.2.2: T1 = 10 x 100 ms in a
/// swarm); beyond it is refused.
pub const MAX_TARGET: Duration = Duration::from_millis(1000);

config_setters!(LedbatConfig {
    target: Duration,
    gain: f64,
    allowed_increase: f64,
    min_cwnd: f64,
    init_cwnd: f64,
    slow_start: bool,
    slow_start_exit: f64,
    delay: DelayConfig,
});

impl LedbatConfig {
    /// Rejects nonsense; `controller` names the owner in the error.
    pub fn validate_as(&self, controller: &'static str) -> Result<(), ConfigError> {
        nonzero(controller, "target", self.target)?;
        if self.target > MAX_TARGET {
            return Err(ConfigError::new(
                controller,
                "target",
                format!(
                    "must be at most {MAX_TARGET} (the largest the papers sweep), got {}",
                    self.target
                ),
            ));
        }
        positive(controller, "gain", self.gain)?;
        if self.gain > MAX_GAIN {
            return Err(ConfigError::new(
                controller,
                "gain",
                format!(
                    "must be at most {MAX_GAIN} (the largest the papers sweep), got {}",
                    self.gain
                ),
            ));
        }
        in_range(
            controller,
            "allowed_increase",
            self.allowed_increase,
            0.0,
            1e6,
        )?;
        in_range(controller, "min_cwnd", self.min_cwnd, 1.0, 1e6)?;
        in_range(controller, "init_cwnd", self.init_cwnd, 1.0, 1e6)?;
        if self.init_cwnd < self.min_cwnd {
            return Err(ConfigError::new(
                controller,
                "init_cwnd",
                format!(
                    "must be at least min_cwnd ({}), got {}",
                    self.min_cwnd, self.init_cwnd
                ),
            ));
        }
        in_range(
            controller,
            "slow_start_exit",
            self.slow_start_exit,
            0.0,
            10.0,
        )?;
        self.delay.validate(controller)
    }
}

impl ControllerFactory for LedbatConfig {
    type Controller = Ledbat;
    const NAME: &'static str = Ledbat::NAME;

    fn validate(&self) -> Result<(), ConfigError> {
        self.validate_as(Self::NAME)
    }

    /// Ways in which this config departs from RFC 6817's limits (allowed, but reported).
    fn compliance_notes(&self) -> Vec<String> {
        let mut v = Vec::new();
        if self.target > RFC_MAX_TARGET {
            v.push(format!("TARGET {} exceeds RFC 6817's 100 ms", self.target));
        }
        if self.gain > RFC_MAX_GAIN {
            v.push(format!("GAIN {} exceeds RFC 6817's 1", self.gain));
        }
        if self.delay.base_interval != Duration::from_secs(60) {
            v.push(format!(
                "base-delay bucket {} differs from RFC 6817's 1 minute",
                self.delay.base_interval
            ));
        }
        v
    }

    fn build(&self, mss: u32) -> Result<Ledbat, ConfigError> {
        Ledbat::new(*self, mss)
    }
}

/// State shared by every LEDBAT variant: window in bytes (fractional), delay estimator,
/// loss bookkeeping.
#[derive(Clone, Debug)]
pub struct LedbatState {
    /// Maximum segment size, bytes.
    pub mss: f64,
    /// Congestion window, bytes.
    pub cwnd: f64,
    /// Minimum window, bytes.
    pub min_cwnd: f64,
    /// Allowed increase over flight size, bytes.
    pub allowed_increase: f64,
    /// Queuing-delay target.
    pub target: Duration,
    /// Delay estimation.
    pub delay: DelayEstimator,
    /// In slow start.
    pub slow_start: bool,
    /// Slow-start exit as a fraction of TARGET.
    pub slow_start_exit: f64,
    /// When the window was last reduced (loss or timeout).
    pub last_reduction: Option<Instant>,
    /// RTT bookkeeping.
    pub rtt: crate::controller::RttEstimator,
}

impl LedbatState {
    /// Fresh state from a validated config.
    pub fn new(cfg: &LedbatConfig, mss: u32) -> Self {
        let mss = mss.max(1) as f64;
        LedbatState {
            mss,
            cwnd: cfg.init_cwnd * mss,
            min_cwnd: cfg.min_cwnd * mss,
            allowed_increase: cfg.allowed_increase * mss,
            target: cfg.target,
            delay: DelayEstimator::new(cfg.delay),
            slow_start: cfg.slow_start,
            slow_start_exit: cfg.slow_start_exit,
            last_reduction: None,
            rtt: Default::default(),
        }
    }

    /// Feeds the ACK's delay and RTT samples to the estimators and returns the queuing
    /// delay estimate (None until the first delay sample).
    pub fn absorb(&mut self, now: Instant, ack: &Ack<'_>) -> Option<Duration> {
        for s in ack.delay_samples {
            self.delay.on_sample(now, *s);
        }
        if let Some(r) = ack.reverse_delay {
            self.delay.on_reverse_sample(r);
        }
        if let Some(r) = ack.rtt {
            self.rtt.on_sample(r);
            self.delay.on_rtt(r);
        }
        self.delay.queuing_delay()
    }

    /// Like [`LedbatState::absorb`], but the delay signal is the round trip: the ACK's RTT
    /// sample is fed to the delay estimator as if it were a one-way sample (so the base is
    /// the minimum RTT over the base history and the queuing delay is the filtered RTT minus
    /// it). One-way samples on the ACK are ignored. Used by LEDBAT++.
    pub fn absorb_rtt(&mut self, now: Instant, ack: &Ack<'_>) -> Option<Duration> {
        if let Some(r) = ack.rtt {
            self.rtt.on_sample(r);
            self.delay.on_rtt(r);
            let us = r.as_micros().min(u32::MAX as u64 / 2) as u32;
            self.delay.on_sample(now, crate::wire::DelaySample(us));
        }
        self.delay.queuing_delay()
    }

    /// Congestion window in packets (fractional).
    pub fn cwnd_packets(&self) -> f64 {
        self.cwnd / self.mss
    }

    /// `(TARGET - queuing_delay) / TARGET`.
    pub fn off_target(&self, qd: Duration) -> f64 {
        let t = self.target.as_nanos() as f64;
        (t - qd.as_nanos() as f64) / t
    }

    /// Slow-start step: returns true if the ACK was consumed by slow start.
    pub fn slow_start_step(&mut self, qd: Duration, bytes_acked: u64) -> bool {
        if !self.slow_start {
            return false;
        }
        if qd.as_nanos() as f64 >= self.slow_start_exit * self.target.as_nanos() as f64 {
            self.slow_start = false;
            return false;
        }
        self.cwnd += bytes_acked as f64;
        true
    }

    /// RFC 6817's cap at `flightsize + ALLOWED_INCREASE * MSS` and floor at MIN_CWND.
    pub fn cap_and_floor(&mut self, flight_before: u64) {
        let max_allowed = flight_before as f64 + self.allowed_increase;
        if self.cwnd > max_allowed {
            self.cwnd = max_allowed;
        }
        self.clamp_min();
    }

    /// Floor at MIN_CWND (a NaN window also becomes MIN_CWND, hence the negated test).
    #[allow(clippy::neg_cmp_op_on_partial_ord)]
    pub fn clamp_min(&mut self) {
        if !(self.cwnd >= self.min_cwnd) {
            self.cwnd = self.min_cwnd;
        }
    }

    /// Whether a loss of a packet sent at `sent_at` starts a new congestion event (it was
    /// sent after the last reduction). Records the reduction time when it does.
    pub fn new_congestion_event(&mut self, now: Instant, sent_at: Instant) -> bool {
        match self.last_reduction {
            Some(t) if sent_at <= t => false,
            _ => {
                self.last_reduction = Some(now);
                self.slow_start = false;
                true
            }
        }
    }

    /// Whether an ACK whose newest acknowledged packet was sent at `newest_sent` reflects
    /// the window after the last reduction (the packet left after it). Delay-triggered
    /// decreases that must happen at most once per RTT wait for such an ACK.
    pub fn acks_after_reduction(&self, newest_sent: Instant) -> bool {
        match self.last_reduction {
            Some(t) => newest_sent > t,
            None => true,
        }
    }

    /// RFC 6817 loss reaction: halve, not below MIN_CWND, once per RTT. Returns whether
    /// this loss started a new congestion event (the window was halved).
    pub fn halve_on_loss(&mut self, now: Instant, loss: &Loss) -> bool {
        let new = self.new_congestion_event(now, loss.sent_at);
        if new {
            self.cwnd = (self.cwnd / 2.0).max(self.min_cwnd);
        }
        new
    }

    /// The smoothed RTT, or TARGET before the first sample: the RTT that sizes slowdown
    /// timers.
    pub fn srtt_or_target(&self) -> Duration {
        self.rtt.srtt().unwrap_or(self.target)
    }

    /// The window held during a slowdown: 2 packets, not below MIN_CWND (LEDBAT++ draft -01).
    pub fn slowdown_window(&self) -> f64 {
        (2.0 * self.mss).max(self.min_cwnd)
    }

    /// RFC 6817 congestion timeout: one MSS. Idle restarts leave the window alone (RFC 6817
    /// is silent; the flightsize cap already stops a window from growing while idle).
    pub fn timeout(&mut self, now: Instant, kind: Timeout) {
        if kind == Timeout::Retransmission {
            self.cwnd = self.mss;
            self.slow_start = false;
            self.last_reduction = Some(now);
        }
    }

    /// Window in whole bytes.
    pub fn window(&self) -> u64 {
        self.cwnd as u64
    }

    /// The metrics every variant reports, with `state` and `gain` filled by the caller.
    pub fn metrics(&self, state: &'static str, gain: f64) -> Metrics {
        Metrics {
            cwnd: self.window(),
            ssthresh: None,
            queuing_delay: self.delay.queuing_delay(),
            base_delay: self.delay.base_delay(),
            pacing_rate: None,
            state,
            gain,
        }
    }

    /// `slow-start` or `avoidance`.
    pub fn phase(&self) -> &'static str {
        if self.slow_start {
            "slow-start"
        } else {
            "avoidance"
        }
    }
}

/// RFC 6817 LEDBAT.
#[derive(Clone, Debug)]
pub struct Ledbat {
    cfg: LedbatConfig,
    st: LedbatState,
}

impl Ledbat {
    /// Registry name.
    pub const NAME: &'static str = "ledbat";

    /// A controller for packets of `mss` bytes; fails on an invalid config.
    pub fn new(cfg: LedbatConfig, mss: u32) -> Result<Self, ConfigError> {
        cfg.validate()?;
        Ok(Ledbat {
            st: LedbatState::new(&cfg, mss),
            cfg,
        })
    }

    /// The configuration in force.
    pub fn config(&self) -> &LedbatConfig {
        &self.cfg
    }

    /// Shared state (read-only), for tests and tracing.
    pub fn state(&self) -> &LedbatState {
        &self.st
    }
}

impl Controller for Ledbat {
    fn name(&self) -> &'static str {
        Self::NAME
    }

    fn on_sent(&mut self, _now: Instant, _bytes: u64, _in_flight: u64) {}

    fn on_ack(&mut self, now: Instant, ack: &Ack<'_>) {
        let Some(qd) = self.st.absorb(now, ack) else {
            return;
        };
        if !self.st.slow_start_step(qd, ack.bytes_acked) {
            let off = self.st.off_target(qd);
            self.st.cwnd +=
                self.cfg.gain * off * ack.bytes_acked as f64 * self.st.mss / self.st.cwnd;
        }
        self.st.cap_and_floor(ack.flight_before);
    }

    fn on_loss(&mut self, now: Instant, loss: &Loss) {
        self.st.halve_on_loss(now, loss);
    }

    fn on_timeout(&mut self, now: Instant, kind: Timeout) {
        self.st.timeout(now, kind);
    }

    fn window(&self) -> u64 {
        self.st.window()
    }

    fn on_delay_source_change(&mut self, _now: Instant) {
        self.st.delay.reset_signal();
    }

    fn metrics(&self) -> Metrics {
        self.st.metrics(self.st.phase(), self.cfg.gain)
    }
}

/// Helpers shared by the unit tests of every LEDBAT-family module.
#[cfg(test)]
pub(crate) mod testutil {
    use super::*;
    use crate::wire::DelaySample;

    /// MSS used by tests.
    pub const MSS: u32 = 1500;

    /// Feeds one base sample (delay `base_us`) and then holds the filter at
    /// `base_us + qd_us` by feeding four samples, all as zero-byte ACKs.
    pub fn settle<C: Controller>(c: &mut C, now: Instant, base_us: u32, qd_us: u32) {
        let s = [DelaySample(base_us)];
        c.on_ack(now, &ack(0, u64::MAX / 4, &s));
        let s = [DelaySample(base_us + qd_us)];
        for _ in 0..4 {
            c.on_ack(now, &ack(0, u64::MAX / 4, &s));
        }
    }

    /// An ACK of `bytes` carrying `samples`, with a flight size large enough not to cap.
    pub fn ack(bytes: u64, flight_before: u64, samples: &[DelaySample]) -> Ack<'_> {
        Ack {
            bytes_acked: bytes,
            packets_acked: (bytes / MSS as u64) as u32,
            flight_before,
            delay_samples: samples,
            rtt: None,
            reverse_delay: None,
            newest_sent: Instant::ZERO,
        }
    }

    /// Acknowledges one full window, one MSS per ACK, at queuing delay `base+qd`, and
    /// returns the window afterwards (in bytes, fractional).
    pub fn one_rtt<C: Controller>(c: &mut C, now: Instant, base_us: u32, qd_us: u32) -> f64 {
        let w = c.window();
        let packets = (w / MSS as u64).max(1);
        let s = [DelaySample(base_us + qd_us)];
        for _ in 0..packets {
            c.on_ack(now, &ack(MSS as u64, u64::MAX / 4, &s));
        }
        c.window() as f64
    }
}

#[cfg(test)]
mod tests {
    use super::testutil::*;
    use super::*;

    fn ledbat(target_ms: u64, init: f64) -> Ledbat {
        Ledbat::new(
            LedbatConfig::default()
                .target(Duration::from_millis(target_ms))
                .init_cwnd(init),
            MSS,
        )
        .unwrap()
    }

    #[test]
    fn gains_one_mss_per_rtt_at_zero_queuing_delay() {
        let mut c = ledbat(25, 20.0);
        settle(&mut c, Instant::ZERO, 10_000, 0);
        let before = c.window() as f64;
        let after = one_rtt(&mut c, Instant::ZERO, 10_000, 0);
        // Sum over 20 ACKs of MSS*MSS/cwnd with cwnd growing from 20 to 21 MSS: just under 1 MSS.
        let gained = (after - before) / MSS as f64;
        assert!((gained - 1.0).abs() < 0.03, "gained {gained} MSS");
    }

    #[test]
    fn loses_one_mss_per_rtt_at_twice_the_target() {
        let mut c = ledbat(25, 20.0);
        settle(&mut c, Instant::ZERO, 10_000, 50_000);
        let before = c.window() as f64;
        let after = one_rtt(&mut c, Instant::ZERO, 10_000, 50_000);
        let lost = (before - after) / MSS as f64;
        assert!((lost - 1.0).abs() < 0.03, "lost {lost} MSS");
    }

    #[test]
    fn holds_still_at_the_target() {
        let mut c = ledbat(25, 20.0);
        settle(&mut c, Instant::ZERO, 10_000, 25_000);
        let before = c.window();
        one_rtt(&mut c, Instant::ZERO, 10_000, 25_000);
        assert_eq!(c.window(), before);
    }

    #[test]
    fn window_is_capped_at_flightsize_plus_allowed_increase() {
        let mut c = ledbat(25, 20.0);
        let s = [crate::wire::DelaySample(1000)];
        c.on_ack(Instant::ZERO, &ack(1500, 4 * 1500, &s));
        assert_eq!(c.window(), 5 * 1500);
    }

    #[test]
    fn never_below_min_cwnd() {
        let mut c = ledbat(25, 2.0);
        settle(&mut c, Instant::ZERO, 0, 1_000_000);
        for _ in 0..100 {
            one_rtt(&mut c, Instant::ZERO, 0, 1_000_000);
        }
        assert_eq!(c.window(), 2 * 1500);
    }

    #[test]
    fn loss_halves_once_per_rtt() {
        let mut c = ledbat(25, 40.0);
        let t0 = Instant::from_secs(1);
        let loss = |sent| Loss {
            bytes: 1500,
            sent_at: sent,
            in_flight: 40 * 1500,
        };
        c.on_loss(t0, &loss(Instant::from_millis(900)));
        assert_eq!(c.window(), 20 * 1500);
        // A second loss from the same window (sent before the reduction) is ignored.
        c.on_loss(
            t0 + Duration::from_millis(1),
            &loss(Instant::from_millis(950)),
        );
        assert_eq!(c.window(), 20 * 1500);
        // A loss of a packet sent after the reduction halves again.
        c.on_loss(
            t0 + Duration::from_millis(100),
            &loss(t0 + Duration::from_millis(50)),
        );
        assert_eq!(c.window(), 10 * 1500);
    }

    #[test]
    fn congestion_timeout_sets_one_mss() {
        let mut c = ledbat(25, 40.0);
        c.on_timeout(Instant::ZERO, Timeout::Retransmission);
        assert_eq!(c.window(), 1500);
        c.on_timeout(Instant::ZERO, Timeout::Idle);
        assert_eq!(c.window(), 1500);
    }

    #[test]
    fn slow_start_doubles_until_delay_nears_target() {
        let mut c = Ledbat::new(
            LedbatConfig::default()
                .target(Duration::from_millis(100))
                .slow_start(true),
            MSS,
        )
        .unwrap();
        settle(&mut c, Instant::ZERO, 0, 0);
        let w0 = c.window();
        one_rtt(&mut c, Instant::ZERO, 0, 0);
        assert_eq!(c.window(), 2 * w0);
        assert_eq!(c.metrics().state, "slow-start");
        // Queuing delay at 95 ms > 0.9 * TARGET: leaves slow start.
        one_rtt(&mut c, Instant::ZERO, 0, 95_000);
        assert_eq!(c.metrics().state, "avoidance");
    }

    #[test]
    fn config_rejects_nonsense_and_names_the_field() {
        let cases: [(LedbatConfig, &str); 5] = [
            (LedbatConfig::default().target(Duration::ZERO), "target"),
            (
                LedbatConfig::default().target(Duration::from_millis(1500)),
                "target",
            ),
            (LedbatConfig::default().gain(f64::NAN), "gain"),
            (LedbatConfig::default().gain(-1.0), "gain"),
            (LedbatConfig::default().min_cwnd(4.0), "init_cwnd"),
        ];
        for (cfg, field) in cases {
            let e = Ledbat::new(cfg, MSS).unwrap_err();
            assert_eq!(e.field, field, "{e}");
        }
    }

    #[test]
    fn paper_values_beyond_the_rfc_are_allowed_but_reported() {
        let cfg = LedbatConfig::default()
            .gain(10.0)
            .target(Duration::from_millis(1000));
        assert!(Ledbat::new(cfg, MSS).is_ok());
        let beyond = LedbatConfig::default().target(Duration::from_millis(1001));
        assert_eq!(Ledbat::new(beyond, MSS).unwrap_err().field, "target");
        let notes = cfg.compliance_notes();
        assert_eq!(notes.len(), 2, "{notes:?}");
        assert!(LedbatConfig::default().compliance_notes().is_empty());
    }
}
