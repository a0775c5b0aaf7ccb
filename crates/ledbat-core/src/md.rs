//! LEDBAT with a multiplicative decrease of fixed factor beta (Carofiglio et al., as evaluated
//! by Kühlewind & Fisches, seed 002, sections 3.2 and 5.2; algorithms.md section 3).
//!
//! ```text
//! off_target = (TARGET - queuing_delay) / TARGET
//! off_target >= 0:  cwnd += GAIN * off_target * bytes_acked * MSS / cwnd     (RFC 6817)
//! off_target <  0:  cwnd  = beta * cwnd,  at most once per RTT               (beta = 0.6)
//! ```
//!
//! "At most once per RTT" follows the paper's reason for it ("during the first RTT after the
//! decrease all delay measurements still reflect the situation before the decrease"): after
//! a decrease, further decreases wait for an ACK of a packet sent after it
//! ([`Ack::newest_sent`] later than the decrease). Increases are not held back. A decrease
//! counts as a window reduction for loss handling too, so a loss from the same window does
//! not halve again (one reduction per RTT whatever its cause).
//!
//! The noise filter of the paper's MD-NF1 / MD-NF2 variants is the current-delay filter:
//! the minimum of the last 1 or 2 delay samples, `delay.filter = { min = { len = 1 } }` or
//! `{ len = 2 }` (default 2, MD-NF2; [`MdConfig::noise_filter`] sets it). MD-NF1 in the
//! paper also ran without delayed ACKs, which is a property of the receiver, not of this
//! controller.

use crate::controller::{
    config_setters, Ack, Controller, ControllerFactory, Loss, Metrics, Timeout,
};
use crate::delay::{CurrentFilter, DelayConfig};
use crate::error::ConfigError;
use crate::ledbat::{LedbatConfig, LedbatState};
use crate::time::{Duration, Instant};
use serde::{Deserialize, Serialize};

/// Parameters of `ledbat-md`.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct MdConfig {
    /// Queuing-delay target. Default 25 ms (seed 002, section 5.1).
    pub target: Duration,
    /// Gain of the (RFC 6817) increase. Default 1 (RFC 6817 section 3.4.2).
    pub gain: f64,
    /// Multiplicative decrease factor, in (0, 1). Default 0.6 (seed 002, section 5.2: "a
    /// fixed value for beta of 0.6").
    pub beta: f64,
    /// Allowed increase over the flight size, packets. Default 1 (RFC 6817 section 3.4.2).
    pub allowed_increase: f64,
    /// Minimum window, packets. Default 2 (RFC 6817 section 3.4.2).
    pub min_cwnd: f64,
    /// Initial window, packets. Default 2 (RFC 6817 section 3.4.2).
    pub init_cwnd: f64,
    /// Delay estimation; `filter` is the paper's noise filter. Default RFC 6817's base
    /// history with the minimum of the last 2 samples (MD-NF2, seed 002, section 5.2).
    pub delay: DelayConfig,
}

impl Default for MdConfig {
    fn default() -> Self {
        MdConfig {
            target: Duration::from_millis(25),
            gain: 1.0,
            beta: 0.6,
            allowed_increase: 1.0,
            min_cwnd: 2.0,
            init_cwnd: 2.0,
            delay: DelayConfig::default().filter(CurrentFilter::Min { len: 2 }),
        }
    }
}

config_setters!(MdConfig {
    target: Duration,
    gain: f64,
    beta: f64,
    allowed_increase: f64,
    min_cwnd: f64,
    init_cwnd: f64,
    delay: DelayConfig,
});

impl MdConfig {
    /// Sets the noise filter: current delay = minimum of the last `n` samples (1 = MD-NF1,
    /// 2 = MD-NF2).
    pub fn noise_filter(mut self, n: usize) -> Self {
        self.delay.filter = CurrentFilter::Min { len: n };
        self
    }

    fn base(&self) -> LedbatConfig {
        LedbatConfig {
            target: self.target,
            gain: self.gain,
            allowed_increase: self.allowed_increase,
            min_cwnd: self.min_cwnd,
            init_cwnd: self.init_cwnd,
            slow_start: false,
            slow_start_exit: 1.0,
            delay: self.delay,
        }
    }
}

impl ControllerFactory for MdConfig {
    type Controller = Md;
    const NAME: &'static str = Md::NAME;

    fn validate(&self) -> Result<(), ConfigError> {
        self.base().validate_as(Self::NAME)?;
        if !(self.beta > 0.0 && self.beta < 1.0) {
            return Err(ConfigError::new(
                Self::NAME,
                "beta",
                format!("must be in (0, 1), got {}", self.beta),
            ));
        }
        Ok(())
    }

    fn compliance_notes(&self) -> Vec<String> {
        self.base().compliance_notes()
    }

    fn build(&self, mss: u32) -> Result<Md, ConfigError> {
        Md::new(*self, mss)
    }
}

/// `ledbat-md`: RFC 6817 increase, multiplicative decrease by beta at most once per RTT
/// when over target (seed 002, after Carofiglio et al.).
#[derive(Clone, Debug)]
pub struct Md {
    cfg: MdConfig,
    st: LedbatState,
}

impl Md {
    /// Registry name.
    pub const NAME: &'static str = "ledbat-md";

    /// A controller for packets of `mss` bytes; fails on an invalid config.
    pub fn new(cfg: MdConfig, mss: u32) -> Result<Self, ConfigError> {
        cfg.validate()?;
        Ok(Md {
            st: LedbatState::new(&cfg.base(), mss),
            cfg,
        })
    }

    /// The configuration in force.
    pub fn config(&self) -> &MdConfig {
        &self.cfg
    }

    /// Shared state (read-only), for tests and tracing.
    pub fn state(&self) -> &LedbatState {
        &self.st
    }
}

impl Controller for Md {
    fn name(&self) -> &'static str {
        Self::NAME
    }

    fn on_sent(&mut self, _now: Instant, _bytes: u64, _in_flight: u64) {}

    fn on_ack(&mut self, now: Instant, ack: &Ack<'_>) {
        let Some(qd) = self.st.absorb(now, ack) else {
            return;
        };
        let off = self.st.off_target(qd);
        if off >= 0.0 {
            self.st.cwnd +=
                self.cfg.gain * off * ack.bytes_acked as f64 * self.st.mss / self.st.cwnd;
        } else if ack.bytes_acked > 0 && self.st.acks_after_reduction(ack.newest_sent) {
            self.st.cwnd *= self.cfg.beta;
            self.st.last_reduction = Some(now);
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
        self.st.metrics("avoidance", self.cfg.gain)
    }
}

/// Test helpers shared by the multiplicative-decrease modules.
#[cfg(test)]
pub(crate) mod mdtest {
    use crate::controller::Ack;
    use crate::time::{Duration, Instant};
    use crate::wire::DelaySample;

    /// An ACK of one 1500-byte packet sent at `sent`, carrying `samples` and an RTT sample.
    pub fn ack_sent<'a>(
        sent: Instant,
        samples: &'a [DelaySample],
        rtt: Option<Duration>,
    ) -> Ack<'a> {
        Ack {
            bytes_acked: 1500,
            packets_acked: 1,
            flight_before: u64::MAX / 4,
            delay_samples: samples,
            rtt,
            reverse_delay: None,
            newest_sent: sent,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::mdtest::ack_sent;
    use super::*;
    use crate::controller::Loss;
    use crate::ledbat::testutil::*;
    use crate::wire::DelaySample;

    fn ctl(cfg: MdConfig) -> Md {
        Md::new(cfg, MSS).unwrap()
    }

    #[test]
    fn over_target_multiplies_by_beta_once_per_rtt() {
        let mut c = ctl(MdConfig::default().init_cwnd(20.0));
        settle(&mut c, Instant::ZERO, 10_000, 30_000);
        assert_eq!(c.window(), 30_000);
        let s = [DelaySample(40_000)];
        let t1 = Instant::from_secs(1);
        // Packet sent at 0.95 s acknowledged at 1 s, 5 ms over target: 30000 * 0.6.
        c.on_ack(t1, &ack_sent(Instant::from_millis(950), &s, None));
        assert_eq!(c.window(), 18_000);
        // More ACKs of packets sent before the decrease: no further decrease.
        for i in 0..20 {
            c.on_ack(
                t1 + Duration::from_millis(i),
                &ack_sent(Instant::from_millis(999), &s, None),
            );
        }
        assert_eq!(c.window(), 18_000);
        // First ACK of a packet sent after the decrease: decreases again.
        let t2 = t1 + Duration::from_millis(50);
        c.on_ack(t2, &ack_sent(t1 + Duration::from_millis(1), &s, None));
        assert_eq!(c.window(), 10_800);
    }

    #[test]
    fn below_target_increases_like_rfc_even_right_after_a_decrease() {
        let mut c = ctl(MdConfig::default().init_cwnd(20.0));
        settle(&mut c, Instant::ZERO, 10_000, 30_000);
        let t1 = Instant::from_secs(1);
        c.on_ack(
            t1,
            &ack_sent(Instant::from_millis(950), &[DelaySample(40_000)], None),
        );
        assert_eq!(c.window(), 18_000);
        // Two samples at base (filter length 2) bring the queuing delay to 0.
        let s = [DelaySample(10_000)];
        let z = ack(0, u64::MAX / 4, &s);
        c.on_ack(t1, &z);
        c.on_ack(t1, &z);
        c.on_ack(t1, &ack_sent(Instant::from_millis(990), &s, None));
        // += 1500*1500/18000 = 125.
        assert_eq!(c.window(), 18_125);
    }

    #[test]
    fn noise_filter_length_decides_whether_one_spike_triggers_a_decrease() {
        let spike = |n: usize| {
            let mut c = ctl(MdConfig::default().init_cwnd(20.0).noise_filter(n));
            settle(&mut c, Instant::ZERO, 10_000, 0);
            // One sample 50 ms over the base, right after samples at the base.
            let s = [DelaySample(60_000)];
            c.on_ack(
                Instant::from_secs(1),
                &ack_sent(Instant::from_millis(990), &s, None),
            );
            c.window()
        };
        // MD-NF2: min(10 ms, 60 ms) is still the base: queuing delay 0, increase by
        // 1500*1500/30000 = 75.
        assert_eq!(spike(2), 30_075);
        // MD-NF1: the spike is the current delay: 50 ms > 25 ms, decrease to 0.6 * 30000.
        assert_eq!(spike(1), 18_000);
    }

    #[test]
    fn loss_after_a_decrease_in_the_same_window_does_not_halve_again() {
        let mut c = ctl(MdConfig::default().init_cwnd(20.0));
        settle(&mut c, Instant::ZERO, 10_000, 30_000);
        let t1 = Instant::from_secs(1);
        c.on_ack(
            t1,
            &ack_sent(Instant::from_millis(950), &[DelaySample(40_000)], None),
        );
        assert_eq!(c.window(), 18_000);
        let loss = Loss {
            bytes: 1500,
            sent_at: Instant::from_millis(960),
            in_flight: 18_000,
        };
        c.on_loss(t1 + Duration::from_millis(5), &loss);
        assert_eq!(c.window(), 18_000);
        let loss = Loss {
            bytes: 1500,
            sent_at: t1 + Duration::from_millis(1),
            in_flight: 18_000,
        };
        c.on_loss(t1 + Duration::from_millis(60), &loss);
        assert_eq!(c.window(), 9_000);
    }

    #[test]
    fn never_below_min_cwnd() {
        let mut c = ctl(MdConfig::default().init_cwnd(4.0));
        settle(&mut c, Instant::ZERO, 0, 100_000);
        let s = [DelaySample(100_000)];
        for i in 1..20u64 {
            c.on_ack(
                Instant::from_secs(i),
                &ack_sent(Instant::from_secs(i) - Duration::from_millis(1), &s, None),
            );
        }
        assert_eq!(c.window(), 3000);
    }

    #[test]
    fn config_rejects_nonsense_and_names_the_field() {
        let cases: [(MdConfig, &str); 6] = [
            (MdConfig::default().target(Duration::ZERO), "target"),
            (MdConfig::default().beta(1.0), "beta"),
            (MdConfig::default().beta(0.0), "beta"),
            (MdConfig::default().beta(f64::NAN), "beta"),
            (MdConfig::default().noise_filter(0), "delay.filter.len"),
            (MdConfig::default().gain(-1.0), "gain"),
        ];
        for (cfg, field) in cases {
            let e = Md::new(cfg, MSS).unwrap_err();
            assert_eq!(e.field, field, "{e}");
        }
    }
}
