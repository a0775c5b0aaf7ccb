//! LEDBAT with a linear decrease of at least N packets per RTT (Kühlewind & Fisches, seed 002,
//! section 3.2, "Linear Controller"; restated in algorithms.md section 3).
//!
//! The increase is RFC 6817's. When over target (`off_target < 0`), the decrease per ACK is
//! the larger of the RFC's linear decrease and N packets per RTT:
//!
//! ```text
//! off_target = (TARGET - queuing_delay) / TARGET
//! off_target >= 0:  cwnd += GAIN * off_target * bytes_acked * MSS / cwnd
//! off_target <  0:  cwnd -= max(GAIN * |off_target|, N) * bytes_acked * MSS / cwnd
//! ```
//!
//! Summed over one window of ACKs (`bytes_acked` adding up to `cwnd`) the decrease is
//! `max(GAIN * |off_target|, N)` packets, i.e. at least N packets per RTT, as the paper
//! intends ("LEDBAT would decrease the congestion window at least by one packet per RTT").
//! The paper's printed rule "GAIN = TARGET * N" for the decrease is garbled in extraction;
//! the form above is the reading algorithms.md section 3 chose: N replaces the decrease
//! term only when it is larger, so a queuing delay well above twice the target still
//! decreases as fast as RFC LEDBAT does. N = 1 by default (one competing TCP flow). The
//! flightsize cap, MIN_CWND, loss and timeout handling are RFC 6817's ([`crate::ledbat::LedbatState`]).

use crate::controller::{
    config_setters, Ack, Controller, ControllerFactory, Loss, Metrics, Timeout,
};
use crate::delay::{CurrentFilter, DelayConfig};
use crate::error::{in_range, ConfigError};
use crate::ledbat::{LedbatConfig, LedbatState};
use crate::time::{Duration, Instant};
use serde::{Deserialize, Serialize};

/// Parameters of `ledbat-linear-min`.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct LinearMinConfig {
    /// Queuing-delay target. Default 25 ms (seed 002, section 5.1: "we used a TARGET value
    /// of 25ms").
    pub target: Duration,
    /// Window gain. Default 1 (RFC 6817 section 3.4.2).
    pub gain: f64,
    /// Minimum decrease N, packets per RTT, when over target. Default 1 (seed 002, section
    /// 3.2: "we assume ... only one flow starting at the same time and set N to 1").
    pub min_decrease: f64,
    /// Allowed increase over the flight size, packets. Default 1 (RFC 6817 section 3.4.2).
    pub allowed_increase: f64,
    /// Minimum window, packets. Default 2 (RFC 6817 section 3.4.2).
    pub min_cwnd: f64,
    /// Initial window, packets. Default 2 (RFC 6817 section 3.4.2).
    pub init_cwnd: f64,
    /// Slow start at the start of a connection. Default off (RFC 6817 section 2.4.2).
    pub slow_start: bool,
    /// Slow start ends when the queuing delay reaches this fraction of TARGET. Default 0.9
    /// (libutp).
    pub slow_start_exit: f64,
    /// Delay estimation. Default RFC 6817's base history with a current filter of the
    /// minimum of 2 samples (seed 002, section 5.1: "a length CURRENT_FILTER of 1 or 2").
    pub delay: DelayConfig,
}

impl Default for LinearMinConfig {
    fn default() -> Self {
        LinearMinConfig {
            target: Duration::from_millis(25),
            gain: 1.0,
            min_decrease: 1.0,
            allowed_increase: 1.0,
            min_cwnd: 2.0,
            init_cwnd: 2.0,
            slow_start: false,
            slow_start_exit: 0.9,
            delay: DelayConfig::default().filter(CurrentFilter::Min { len: 2 }),
        }
    }
}

config_setters!(LinearMinConfig {
    target: Duration,
    gain: f64,
    min_decrease: f64,
    allowed_increase: f64,
    min_cwnd: f64,
    init_cwnd: f64,
    slow_start: bool,
    slow_start_exit: f64,
    delay: DelayConfig,
});

impl LinearMinConfig {
    fn base(&self) -> LedbatConfig {
        LedbatConfig {
            target: self.target,
            gain: self.gain,
            allowed_increase: self.allowed_increase,
            min_cwnd: self.min_cwnd,
            init_cwnd: self.init_cwnd,
            slow_start: self.slow_start,
            slow_start_exit: self.slow_start_exit,
            delay: self.delay,
        }
    }
}

impl ControllerFactory for LinearMinConfig {
    type Controller = LinearMin;
    const NAME: &'static str = LinearMin::NAME;

    fn validate(&self) -> Result<(), ConfigError> {
        self.base().validate_as(Self::NAME)?;
        in_range(Self::NAME, "min_decrease", self.min_decrease, 0.0, 1e6)
    }

    fn compliance_notes(&self) -> Vec<String> {
        self.base().compliance_notes()
    }

    fn build(&self, mss: u32) -> Result<LinearMin, ConfigError> {
        LinearMin::new(*self, mss)
    }
}

/// `ledbat-linear-min`: RFC 6817 LEDBAT whose decrease is at least N packets per RTT
/// (seed 002).
#[derive(Clone, Debug)]
pub struct LinearMin {
    cfg: LinearMinConfig,
    st: LedbatState,
}

impl LinearMin {
    /// Registry name.
    pub const NAME: &'static str = "ledbat-linear-min";

    /// A controller for packets of `mss` bytes; fails on an invalid config.
    pub fn new(cfg: LinearMinConfig, mss: u32) -> Result<Self, ConfigError> {
        cfg.validate()?;
        Ok(LinearMin {
            st: LedbatState::new(&cfg.base(), mss),
            cfg,
        })
    }

    /// The configuration in force.
    pub fn config(&self) -> &LinearMinConfig {
        &self.cfg
    }

    /// Shared state (read-only), for tests and tracing.
    pub fn state(&self) -> &LedbatState {
        &self.st
    }
}

impl Controller for LinearMin {
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
            let per_rtt = if off >= 0.0 {
                self.cfg.gain * off
            } else {
                -(self.cfg.gain * -off).max(self.cfg.min_decrease)
            };
            self.st.cwnd += per_rtt * ack.bytes_acked as f64 * self.st.mss / self.st.cwnd;
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ledbat::testutil::*;
    use crate::ledbat::{Ledbat, LedbatConfig};
    use crate::wire::DelaySample;

    fn ctl(cfg: LinearMinConfig) -> LinearMin {
        LinearMin::new(cfg, MSS).unwrap()
    }

    /// Feeds the base and four samples at `base + qd` without moving the window.
    fn settle_min<C: Controller>(c: &mut C, base_us: u32, qd_us: u32) {
        settle(c, Instant::ZERO, base_us, qd_us);
    }

    #[test]
    fn slightly_over_target_decreases_one_packet_per_rtt_not_the_rfc_trickle() {
        // qd 26 ms at TARGET 25 ms: off_target = -0.04; RFC would remove 0.04 MSS per RTT.
        let mut c = ctl(LinearMinConfig::default().init_cwnd(20.0));
        settle_min(&mut c, 10_000, 26_000);
        assert_eq!(c.window(), 30_000);
        let s = [DelaySample(36_000)];
        c.on_ack(Instant::ZERO, &ack(1500, u64::MAX / 4, &s));
        // -max(0.04, 1) * 1500 * 1500 / 30000 = -75 bytes.
        assert_eq!(c.window(), 29_925);

        let mut c = ctl(LinearMinConfig::default().init_cwnd(20.0));
        settle_min(&mut c, 10_000, 26_000);
        let before = c.window() as f64;
        let after = one_rtt(&mut c, Instant::ZERO, 10_000, 26_000);
        let lost = (before - after) / 1500.0;
        // Per-ACK steps of MSS^2/cwnd with cwnd shrinking: a hair over one packet.
        assert!((lost - 1.0).abs() < 0.03, "lost {lost} MSS");

        let mut rfc = Ledbat::new(
            LedbatConfig::default()
                .target(Duration::from_millis(25))
                .init_cwnd(20.0),
            MSS,
        )
        .unwrap();
        settle_min(&mut rfc, 10_000, 26_000);
        let rfc_after = one_rtt(&mut rfc, Instant::ZERO, 10_000, 26_000);
        assert!(
            before - rfc_after < 0.05 * 1500.0,
            "RFC lost {}",
            before - rfc_after
        );
    }

    #[test]
    fn far_over_target_decreases_like_the_rfc() {
        // qd 75 ms: off_target = -2 > N in magnitude: -2 * 1500 * 1500 / 30000 = -150.
        let mut c = ctl(LinearMinConfig::default().init_cwnd(20.0));
        settle_min(&mut c, 10_000, 75_000);
        let s = [DelaySample(85_000)];
        c.on_ack(Instant::ZERO, &ack(1500, u64::MAX / 4, &s));
        assert_eq!(c.window(), 29_850);
    }

    #[test]
    fn n_is_configurable() {
        let mut c = ctl(LinearMinConfig::default().init_cwnd(20.0).min_decrease(3.0));
        settle_min(&mut c, 10_000, 26_000);
        let s = [DelaySample(36_000)];
        c.on_ack(Instant::ZERO, &ack(1500, u64::MAX / 4, &s));
        assert_eq!(c.window(), 30_000 - 225);
    }

    #[test]
    fn increase_is_the_rfc_increase() {
        // qd 0: off_target 1: +1500*1500/30000 = +75.
        let mut c = ctl(LinearMinConfig::default().init_cwnd(20.0));
        settle_min(&mut c, 10_000, 0);
        let s = [DelaySample(10_000)];
        c.on_ack(Instant::ZERO, &ack(1500, u64::MAX / 4, &s));
        assert_eq!(c.window(), 30_075);
        // Exactly at the target: no change (the minimum applies only over target).
        let mut c = ctl(LinearMinConfig::default().init_cwnd(20.0));
        settle_min(&mut c, 10_000, 25_000);
        one_rtt(&mut c, Instant::ZERO, 10_000, 25_000);
        assert_eq!(c.window(), 30_000);
    }

    #[test]
    fn never_below_min_cwnd() {
        let mut c = ctl(LinearMinConfig::default());
        settle_min(&mut c, 0, 30_000);
        for _ in 0..100 {
            one_rtt(&mut c, Instant::ZERO, 0, 30_000);
        }
        assert_eq!(c.window(), 3000);
    }

    #[test]
    fn config_rejects_nonsense_and_names_the_field() {
        let cases: [(LinearMinConfig, &str); 4] = [
            (LinearMinConfig::default().target(Duration::ZERO), "target"),
            (
                LinearMinConfig::default().min_decrease(f64::NAN),
                "min_decrease",
            ),
            (
                LinearMinConfig::default().min_decrease(-1.0),
                "min_decrease",
            ),
            (LinearMinConfig::default().gain(f64::INFINITY), "gain"),
        ];
        for (cfg, field) in cases {
            let e = LinearMin::new(cfg, MSS).unwrap_err();
            assert_eq!(e.field, field, "{e}");
        }
        assert!(LinearMinConfig::default().compliance_notes().is_empty());
        assert_eq!(
            LinearMinConfig::default()
                .gain(10.0)
                .compliance_notes()
                .len(),
            1
        );
    }
}
