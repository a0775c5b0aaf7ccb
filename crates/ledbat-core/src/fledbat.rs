//! fLEDBAT, "fair LEDBAT" (Testa's thesis, seed 003, chapter 4, equation 4.5;
//! algorithms.md section 4): Reno-like additive increase, and a multiplicative decrease
//! driven by how far the queuing delay is above the target.
//!
//! With `delta = queuing_delay - TARGET` and `tau = TARGET`, per ACK of one packet, window in
//! packets:
//!
//! ```text
//! no loss, delta <= 0:  cwnd += alpha / cwnd
//! no loss, delta >  0:  cwnd += alpha / cwnd - zeta * delta / tau
//! loss:                 cwnd  = cwnd / 2                 (once per RTT, not below MIN_CWND)
//! ```
//!
//! In bytes, for an ACK of `bytes_acked` (`bytes_acked / MSS` packets):
//! `cwnd += alpha * bytes_acked * MSS / cwnd - zeta * (delta / tau) * bytes_acked`.
//! Over one RTT (`cwnd` packets acknowledged) the decrease term removes
//! `zeta * delta / tau` of the window: multiplicative, which is what restores fairness
//! (thesis section 4.2: the RFC's additive decrease leaves window differences untouched).
//!
//! Fluid model (thesis equations 4.8-4.10): N flows, capacity C, RTT R have the unique,
//! globally stable equilibrium `X_i = C / N`, `Q = C tau + N alpha tau / (zeta R)`. Per
//! flow, with `W = C R / N` packets, the queue offset is `delta* = (Q - C tau) / C =
//! alpha tau / (zeta W)`: exactly where the per-ACK increase `alpha / W` equals the decrease
//! `zeta delta / tau` (tested below).
//!
//! Delay estimation, the flightsize cap, MIN_CWND and timeouts are RFC 6817's
//! ([`LedbatState`]); the thesis's ns-2 fLEDBAT is built on the same LEDBAT code.
//!
//! **Extension of this crate** (off by default): `slowdowns = true` adds LEDBAT++'s periodic
//! slowdowns ([`crate::slowdown`]: window 2 packets for 2 RTTs, Reno slow start back to the
//! window held before, the next one 9 durations later), and `slowdown_join = f` joins other
//! flows' slowdowns. The fluid model assumes every flow knows the true base delay; a
//! latecomer that arrives on a standing queue takes that queue as its base and, with nothing
//! to empty the queue, keeps the error for the whole base history (10 minutes) and takes
//! most of the link. Overlapping slowdowns empty the queue and correct the latecomer's base
//! (figures: `docs/controllers-notes.md`, "fledbat").

use crate::controller::{
    config_setters, Ack, Controller, ControllerFactory, Loss, Metrics, Timeout,
};
use crate::delay::DelayConfig;
use crate::error::in_range;
use crate::error::ConfigError;
use crate::ledbat::{LedbatConfig, LedbatState};
use crate::slowdown::{JoinInput, SlowdownConfig, SlowdownPhase, Slowdowns};
use crate::time::{Duration, Instant};
use serde::{Deserialize, Serialize};

/// Largest zeta accepted; the thesis's sensitivity analysis (section 4.6, Fig. 4.5) sweeps
/// well below it.
pub const MAX_ZETA: f64 = 100.0;
/// Largest alpha accepted (alpha above 1 is more aggressive than Reno and is reported).
pub const MAX_ALPHA: f64 = 10.0;

/// Parameters of `fledbat`.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct FledbatConfig {
    /// Queuing-delay target tau. Default 25 ms (seed 003, section 4.4: "two fLEDBAT flows
    /// with the same target tau = 25ms").
    pub target: Duration,
    /// Additive increase per RTT, packets. Default 1 (seed 003, section 4.3: "by selecting
    /// alpha <= 1 the additive increase component can be made at most as aggressive as
    /// TCP"; 1 is Reno's increase).
    pub alpha: f64,
    /// Multiplicative decrease factor. Default 0.1 (seed 003, section 4.4: "we fix the
    /// decrease component by setting zeta = 0.1"; section 4.6.4 finds [0.01, 0.5] fair).
    pub zeta: f64,
    /// Allowed increase over the flight size, packets. Default 1 (RFC 6817 section 3.4.2).
    pub allowed_increase: f64,
    /// Minimum window, packets. Default 2 (RFC 6817 section 3.4.2).
    pub min_cwnd: f64,
    /// Initial window, packets. Default 2 (RFC 6817 section 3.4.2).
    pub init_cwnd: f64,
    /// Slow start at the start of a connection. Default off (seed 003 runs LEDBAT-family
    /// flows without slow start, section 3.2.3).
    pub slow_start: bool,
    /// Slow start ends when the queuing delay reaches this fraction of TARGET. Default 0.9
    /// (libutp).
    pub slow_start_exit: f64,
    /// Periodic slowdowns (LEDBAT++ draft -01 timing; extension of this crate, see the
    /// module comment). Default false (the thesis's fLEDBAT has none).
    pub slowdowns: bool,
    /// Join other flows' slowdowns when the queuing delay falls to this fraction of TARGET
    /// ([`crate::slowdown`]; only with `slowdowns`). Default 0: never (extension).
    pub slowdown_join: f64,
    /// Delay estimation. Default RFC 6817 section 3.4.2.
    pub delay: DelayConfig,
}

impl Default for FledbatConfig {
    fn default() -> Self {
        FledbatConfig {
            target: Duration::from_millis(25),
            alpha: 1.0,
            zeta: 0.1,
            allowed_increase: 1.0,
            min_cwnd: 2.0,
            init_cwnd: 2.0,
            slow_start: false,
            slow_start_exit: 0.9,
            slowdowns: false,
            slowdown_join: 0.0,
            delay: DelayConfig::default(),
        }
    }
}

config_setters!(FledbatConfig {
    target: Duration,
    alpha: f64,
    zeta: f64,
    allowed_increase: f64,
    min_cwnd: f64,
    init_cwnd: f64,
    slow_start: bool,
    slow_start_exit: f64,
    slowdowns: bool,
    slowdown_join: f64,
    delay: DelayConfig,
});

impl FledbatConfig {
    fn base(&self) -> LedbatConfig {
        LedbatConfig {
            target: self.target,
            gain: 1.0,
            allowed_increase: self.allowed_increase,
            min_cwnd: self.min_cwnd,
            init_cwnd: self.init_cwnd,
            slow_start: self.slow_start,
            slow_start_exit: self.slow_start_exit,
            delay: self.delay,
        }
    }

    /// The fluid model's per-flow equilibrium offset above the target for a window of
    /// `w_packets`: `delta* = alpha * tau / (zeta * W)` (seed 003, equation 4.10 divided by C
    /// with `W = C R / N`).
    pub fn equilibrium_offset(&self, w_packets: f64) -> Duration {
        Duration::from_secs_f64(self.alpha * self.target.as_secs_f64() / (self.zeta * w_packets))
    }
}

impl ControllerFactory for FledbatConfig {
    type Controller = Fledbat;
    const NAME: &'static str = Fledbat::NAME;

    fn validate(&self) -> Result<(), ConfigError> {
        self.base().validate_as(Self::NAME)?;
        if !(self.alpha > 0.0 && self.alpha <= MAX_ALPHA) {
            return Err(ConfigError::new(
                Self::NAME,
                "alpha",
                format!("must be in (0, {MAX_ALPHA}], got {}", self.alpha),
            ));
        }
        if !(self.zeta > 0.0 && self.zeta <= MAX_ZETA) {
            return Err(ConfigError::new(
                Self::NAME,
                "zeta",
                format!("must be in (0, {MAX_ZETA}], got {}", self.zeta),
            ));
        }
        in_range(Self::NAME, "slowdown_join", self.slowdown_join, 0.0, 1.0)
    }

    fn compliance_notes(&self) -> Vec<String> {
        let mut v = self.base().compliance_notes();
        if self.alpha > 1.0 {
            v.push(format!(
                "alpha {} exceeds 1: increases faster than TCP (seed 003 section 4.3 requires alpha <= 1)",
                self.alpha
            ));
        }
        if self.slowdowns {
            v.push(
                "periodic slowdowns (LEDBAT++'s, extension of this crate, not in seed 003)"
                    .to_string(),
            );
        }
        if self.slowdown_join > 0.0 {
            v.push(format!(
                "joins other flows' slowdowns below {} x TARGET (extension of this crate)",
                self.slowdown_join
            ));
        }
        v
    }

    fn build(&self, mss: u32) -> Result<Fledbat, ConfigError> {
        Fledbat::new(*self, mss)
    }
}

/// `fledbat`: additive increase alpha/cwnd per ACK, multiplicative decrease
/// `zeta * (qd - TARGET) / TARGET` per ACK above target, halve on loss (seed 003, ch. 4).
#[derive(Clone, Debug)]
pub struct Fledbat {
    cfg: FledbatConfig,
    st: LedbatState,
    slowdowns: Slowdowns,
}

impl Fledbat {
    /// Registry name.
    pub const NAME: &'static str = "fledbat";

    /// A controller for packets of `mss` bytes; fails on an invalid config.
    pub fn new(cfg: FledbatConfig, mss: u32) -> Result<Self, ConfigError> {
        cfg.validate()?;
        Ok(Fledbat {
            st: LedbatState::new(&cfg.base(), mss),
            slowdowns: Slowdowns::new(SlowdownConfig {
                join: cfg.slowdown_join,
                ..SlowdownConfig::default()
            }),
            cfg,
        })
    }

    /// The configuration in force.
    pub fn config(&self) -> &FledbatConfig {
        &self.cfg
    }

    /// Shared state (read-only), for tests and tracing.
    pub fn state(&self) -> &LedbatState {
        &self.st
    }

    /// The slowdown cycle (idle unless `slowdowns` is on).
    pub fn slowdowns(&self) -> &Slowdowns {
        &self.slowdowns
    }

    /// Starts or ends a hold when due (with `slowdowns`).
    fn poll(&mut self, now: Instant) {
        if self.cfg.slowdowns && !self.st.slow_start {
            let w = self.st.slowdown_window();
            let rtt = self.st.srtt_or_target();
            self.slowdowns.poll(now, &mut self.st.cwnd, w, rtt);
        }
    }

    /// Runs the slowdown part of an ACK at queuing delay `qd`; true when the ACK is
    /// consumed (held, or ramping back towards the window held before the slowdown).
    fn slowdown_ack(&mut self, now: Instant, qd: Duration, ack: &Ack<'_>) -> bool {
        if !self.cfg.slowdowns || self.st.slow_start {
            return false;
        }
        let rtt = self.st.srtt_or_target();
        self.slowdowns.schedule_first(now, rtt);
        let min_flight = 2.0 * self.st.slowdown_window();
        let flight = ack.flight_before as f64;
        let seen = JoinInput {
            qd,
            target: self.cfg.target,
            rtt,
            flight,
            min_flight,
            min_dip: Duration::ZERO,
        };
        self.slowdowns.observe(now, &seen);
        self.poll(now);
        match self.slowdowns.phase() {
            SlowdownPhase::Idle => false,
            SlowdownPhase::Hold { .. } => true,
            SlowdownPhase::Ramp => {
                self.st.cwnd += ack.bytes_acked as f64;
                if let Some(ss) = self.slowdowns.ssthresh() {
                    if self.st.cwnd >= ss {
                        self.st.cwnd = ss;
                        self.slowdowns.end_ramp(now);
                    }
                }
                self.st.cap_and_floor(ack.flight_before);
                true
            }
        }
    }
    /// The window change, in bytes, that one ACK of `bytes_acked` at queuing delay `qd`
    /// makes from the current window (before the flightsize cap and the floor).
    pub fn ack_delta(&self, qd: Duration, bytes_acked: u64) -> f64 {
        let b = bytes_acked as f64;
        let inc = self.cfg.alpha * b * self.st.mss / self.st.cwnd;
        let tau = self.cfg.target.as_secs_f64();
        let delta = qd.as_secs_f64() - tau;
        if delta > 0.0 {
            inc - self.cfg.zeta * (delta / tau) * b
        } else {
            inc
        }
    }
}

impl Controller for Fledbat {
    fn name(&self) -> &'static str {
        Self::NAME
    }

    fn on_sent(&mut self, now: Instant, _bytes: u64, _in_flight: u64) {
        self.poll(now);
    }

    fn on_ack(&mut self, now: Instant, ack: &Ack<'_>) {
        let Some(qd) = self.st.absorb(now, ack) else {
            return;
        };
        if self.slowdown_ack(now, qd, ack) {
            return;
        }
        if !self.st.slow_start_step(qd, ack.bytes_acked) {
            self.st.cwnd += self.ack_delta(qd, ack.bytes_acked);
        }
        self.st.cap_and_floor(ack.flight_before);
    }

    fn on_loss(&mut self, now: Instant, loss: &Loss) {
        self.poll(now);
        if self.st.halve_on_loss(now, loss) {
            // A loss ends a slowdown's ramp (as it ends a slow start).
            self.slowdowns.end_ramp(now);
        }
    }

    fn on_timeout(&mut self, now: Instant, kind: Timeout) {
        self.poll(now);
        if kind == Timeout::Retransmission {
            self.slowdowns.end_ramp(now);
        }
        self.st.timeout(now, kind);
    }

    fn window(&self) -> u64 {
        self.st.window()
    }

    fn next_tick(&self) -> Option<Instant> {
        if self.cfg.slowdowns && !self.st.slow_start {
            self.slowdowns.next_tick()
        } else {
            None
        }
    }

    fn on_tick(&mut self, now: Instant) {
        self.poll(now);
    }

    fn metrics(&self) -> Metrics {
        let state = match self.slowdowns.phase() {
            SlowdownPhase::Idle => self.st.phase(),
            SlowdownPhase::Hold { .. } => "slowdown",
            SlowdownPhase::Ramp => "slowdown-ramp",
        };
        let mut m = self.st.metrics(state, 1.0);
        if let Some(ss) = self.slowdowns.ssthresh() {
            m.ssthresh = Some(ss as u64);
        }
        m
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::controller::Loss;
    use crate::ledbat::testutil::*;
    use crate::wire::DelaySample;

    fn ctl(cfg: FledbatConfig) -> Fledbat {
        Fledbat::new(cfg, MSS).unwrap()
    }

    fn one_ack(c: &mut Fledbat, base_us: u32, qd_us: u32) {
        let s = [DelaySample(base_us + qd_us)];
        c.on_ack(Instant::ZERO, &ack(1500, u64::MAX / 4, &s));
    }

    #[test]
    fn below_target_adds_alpha_over_cwnd_whatever_the_delay() {
        // 20 packets: +1/20 packet = 75 bytes, at 0 ms and at 24 ms of queuing alike.
        for qd in [0u32, 24_000, 25_000] {
            let mut c = ctl(FledbatConfig::default().init_cwnd(20.0));
            settle(&mut c, Instant::ZERO, 10_000, qd);
            one_ack(&mut c, 10_000, qd);
            assert_eq!(c.window(), 30_075, "qd {qd}");
        }
        let mut c = ctl(FledbatConfig::default().init_cwnd(20.0).alpha(0.5));
        settle(&mut c, Instant::ZERO, 10_000, 0);
        one_ack(&mut c, 10_000, 0);
        assert!((c.state().cwnd - 30_037.5).abs() < 1e-9);
    }

    #[test]
    fn above_target_subtracts_zeta_delta_over_tau_per_ack() {
        // qd 50 ms, tau 25 ms: delta/tau = 1; per ACK +75 - 0.1 * 1 * 1500 = -75 bytes.
        let mut c = ctl(FledbatConfig::default().init_cwnd(20.0));
        settle(&mut c, Instant::ZERO, 10_000, 50_000);
        one_ack(&mut c, 10_000, 50_000);
        assert!(
            (c.state().cwnd - 29_925.0).abs() < 1e-9,
            "{}",
            c.state().cwnd
        );
    }

    #[test]
    fn decrease_is_multiplicative_over_one_rtt() {
        // With alpha tiny, one window of ACKs at delta = tau removes ~ zeta of the window.
        let mut c = ctl(FledbatConfig::default().init_cwnd(100.0).alpha(1e-9));
        settle(&mut c, Instant::ZERO, 10_000, 50_000);
        let before = c.state().cwnd;
        let s = [DelaySample(60_000)];
        for _ in 0..100 {
            c.on_ack(Instant::ZERO, &ack(1500, u64::MAX / 4, &s));
        }
        // Each ACK removes 0.1 * 1500 = 150 bytes: 100 ACKs remove 15000 = 0.1 of 150000.
        assert!((before - c.state().cwnd - 15_000.0).abs() < 1e-3);
    }

    #[test]
    fn increase_and_decrease_balance_at_the_fluid_equilibrium() {
        // Per-flow offset delta* = alpha tau / (zeta W): W = 20, alpha 1, zeta 0.1, tau 25 ms
        // gives 12.5 ms, i.e. queuing delay 37.5 ms.
        let cfg = FledbatConfig::default().init_cwnd(20.0);
        assert_eq!(cfg.equilibrium_offset(20.0), Duration::from_micros(12_500));
        let mut c = ctl(cfg);
        settle(&mut c, Instant::ZERO, 10_000, 37_500);
        let d = c.ack_delta(Duration::from_micros(37_500), 1500);
        assert!(d.abs() < 1e-9, "delta {d}");
        one_ack(&mut c, 10_000, 37_500);
        assert!(
            (c.state().cwnd - 30_000.0).abs() < 1e-9,
            "{}",
            c.state().cwnd
        );
        // Just below the equilibrium offset the window grows, just above it shrinks.
        assert!(c.ack_delta(Duration::from_micros(37_400), 1500) > 0.0);
        assert!(c.ack_delta(Duration::from_micros(37_600), 1500) < 0.0);
    }

    #[test]
    fn thesis_scenario_equilibrium_queue_matches_equation_4_10() {
        // Thesis section 4.4: C = 10 Mb/s, 1500-byte packets, R = 50 ms, N = 2 flows,
        // tau = 25 ms, alpha = 1, zeta = 0.1. Q* = C tau + N alpha tau / (zeta R) packets.
        let c_pkts = 10e6 / (1500.0 * 8.0);
        let (r, n, tau, alpha, zeta) = (0.050, 2.0, 0.025, 1.0, 0.1);
        let q_star = c_pkts * tau + n * alpha * tau / (zeta * r);
        let w = c_pkts * r / n; // X_i = C / N, W = X R
        let cfg = FledbatConfig::default();
        let qd_star = Duration::from_secs_f64(q_star / c_pkts);
        let model = cfg.target + cfg.equilibrium_offset(w);
        assert!(
            qd_star.as_nanos().abs_diff(model.as_nanos()) <= 1,
            "{qd_star} vs {model}"
        );
        // A flow with that window at that queuing delay holds still.
        let mut c = ctl(cfg.init_cwnd(w));
        settle(&mut c, Instant::ZERO, 10_000, qd_star.as_micros() as u32);
        let d = c.ack_delta(qd_star, 1500);
        assert!(d.abs() < 1e-3, "delta {d} bytes");
    }

    #[test]
    fn loss_halves_once_per_rtt() {
        let mut c = ctl(FledbatConfig::default().init_cwnd(40.0));
        let loss = |sent| Loss {
            bytes: 1500,
            sent_at: sent,
            in_flight: 60_000,
        };
        c.on_loss(Instant::from_secs(1), &loss(Instant::from_millis(900)));
        assert_eq!(c.window(), 30_000);
        c.on_loss(Instant::from_millis(1001), &loss(Instant::from_millis(950)));
        assert_eq!(c.window(), 30_000);
    }

    #[test]
    fn never_below_min_cwnd() {
        let mut c = ctl(FledbatConfig::default().zeta(5.0));
        settle(&mut c, Instant::ZERO, 0, 500_000);
        for _ in 0..20 {
            one_rtt(&mut c, Instant::ZERO, 0, 500_000);
        }
        assert_eq!(c.window(), 3000);
    }

    #[test]
    fn config_rejects_nonsense_and_names_the_field() {
        let cases: [(FledbatConfig, &str); 6] = [
            (FledbatConfig::default().target(Duration::ZERO), "target"),
            (FledbatConfig::default().alpha(0.0), "alpha"),
            (FledbatConfig::default().alpha(f64::NAN), "alpha"),
            (FledbatConfig::default().zeta(-0.1), "zeta"),
            (FledbatConfig::default().zeta(f64::INFINITY), "zeta"),
            (FledbatConfig::default().min_cwnd(0.5), "min_cwnd"),
        ];
        for (cfg, field) in cases {
            let e = Fledbat::new(cfg, MSS).unwrap_err();
            assert_eq!(e.field, field, "{e}");
        }
        assert!(FledbatConfig::default().compliance_notes().is_empty());
        assert_eq!(
            FledbatConfig::default().alpha(2.0).compliance_notes().len(),
            1
        );
    }

    proptest::proptest! {
        #[test]
        fn per_ack_change_changes_sign_at_the_fluid_equilibrium_offset(
            w in 2.0f64..500.0,
            alpha in 0.01f64..1.0,
            zeta in 0.01f64..5.0,
            target_ms in 5u64..180,
        ) {
            let cfg = FledbatConfig::default()
                .init_cwnd(w)
                .alpha(alpha)
                .zeta(zeta)
                .target(Duration::from_millis(target_ms));
            let c = Fledbat::new(cfg, MSS).unwrap();
            let off = cfg.equilibrium_offset(w);
            // Offsets of a few nanoseconds are below the resolution of Duration.
            proptest::prop_assume!(off >= Duration::from_micros(10));
            let at = |k: f64| c.ack_delta(cfg.target + off.mul_f64(k), 1500);
            // At the offset the increase alpha*MSS^2/cwnd is cancelled to within the
            // nanosecond rounding of the offset (relative error below 1e-4 here).
            let inc = alpha * 1500.0 / w;
            proptest::prop_assert!(at(1.0).abs() <= inc * 1e-4, "{} vs {}", at(1.0), inc);
            proptest::prop_assert!(at(0.9) > 0.0);
            proptest::prop_assert!(at(1.1) < 0.0);
        }
    }

    #[test]
    fn without_slowdowns_no_timer_is_requested_and_the_state_is_the_thesis_one() {
        let mut c = ctl(FledbatConfig::default().init_cwnd(20.0));
        settle(&mut c, Instant::ZERO, 10_000, 30_000);
        assert_eq!(c.next_tick(), None);
        c.on_tick(Instant::from_secs(10));
        assert_eq!(c.slowdowns().count(), 0);
        assert!(FledbatConfig::default().compliance_notes().is_empty());
    }

    #[test]
    fn slowdowns_hold_two_packets_then_ramp_back_to_the_window_held_before() {
        let cfg = FledbatConfig::default().init_cwnd(20.0).slowdowns(true);
        let mut c = ctl(cfg);
        // No RTT sample: the timers use TARGET (25 ms); first slowdown 2 "RTTs" later.
        settle(&mut c, Instant::ZERO, 10_000, 30_000);
        let at = Instant::from_millis(50);
        assert_eq!(c.next_tick(), Some(at));
        let held = c.state().cwnd;
        c.on_tick(at);
        assert_eq!(c.window(), 3000);
        assert_eq!(c.metrics().state, "slowdown");
        assert_eq!(c.metrics().ssthresh, Some(held as u64));
        // ACKs during the hold leave the window alone.
        one_ack(&mut c, 10_000, 30_000);
        assert_eq!(c.window(), 3000);
        let until = Instant::from_millis(100);
        assert_eq!(c.next_tick(), Some(until));
        c.on_tick(until);
        assert_eq!(c.metrics().state, "slowdown-ramp");
        // Reno slow start (+1 MSS per MSS acknowledged) whatever the queue, up to `held`.
        let mut acks = 0;
        while c.slowdowns().active() {
            c.on_ack(until, &ack(1500, u64::MAX / 4, &[DelaySample(40_000)]));
            acks += 1;
            assert!(acks < 100);
        }
        assert_eq!(c.state().cwnd, held);
        assert_eq!(acks, 18, "3000 -> {held} bytes in 1500-byte steps");
        // The slowdown lasted 50 ms (hold + ramp at one instant): the next one 450 ms later.
        assert_eq!(
            c.slowdowns().next_at(),
            Some(until + Duration::from_millis(450))
        );
        assert_eq!(c.config().compliance_notes().len(), 1);
    }

    #[test]
    fn a_loss_ends_a_slowdown_ramp() {
        let cfg = FledbatConfig::default().init_cwnd(20.0).slowdowns(true);
        let mut c = ctl(cfg);
        settle(&mut c, Instant::ZERO, 10_000, 0);
        c.on_tick(Instant::from_millis(50));
        c.on_tick(Instant::from_millis(100));
        assert!(c.slowdowns().active());
        let loss = crate::controller::Loss {
            bytes: 1500,
            sent_at: Instant::from_millis(90),
            in_flight: 3000,
        };
        c.on_loss(Instant::from_millis(110), &loss);
        assert!(!c.slowdowns().active());
        assert_eq!(c.window(), 3000, "halved to MIN_CWND");
    }

    #[test]
    fn slowdown_join_outside_zero_to_one_is_refused() {
        for j in [-0.1, 1.5, f64::NAN] {
            let e = Fledbat::new(FledbatConfig::default().slowdown_join(j), MSS).unwrap_err();
            assert_eq!(e.field, "slowdown_join", "{e}");
        }
    }
}
