//! LEDBAT with a multiplicative decrease whose factor follows TARGET and the RTT (MDvar,
//! Kühlewind & Fisches, seed 002, section 3.2, *as corrected by the paper's erratum*;
//! algorithms.md section 3).
//!
//! ```text
//! off_target = (TARGET - queuing_delay) / TARGET
//! off_target >= 0:  cwnd += GAIN * off_target * bytes_acked * MSS / cwnd          (RFC 6817)
//! off_target <  0:  cwnd  = (1 - TARGET / current_rtt) * cwnd - 3 * MSS,  once per RTT
//! ```
//!
//! The printed paper says `cwnd = TARGET / current_rtt * cwnd`; the erratum corrects it: the
//! window is *reduced by* `TARGET / current_rtt` of itself (the share of the window that
//! sits in a TARGET-long queue), so beta = `1 - TARGET / current_rtt`. The extra 3 packets
//! absorb "measurement and computation inaccuracies" (chosen by the authors in simulation).
//!
//! `current_rtt` is the most recent RTT sample the driver reported ([`Ack::rtt`]). The
//! paper notes it is about `2 * base_delay + TARGET`, but that needs the *absolute* one-way
//! base delay, which unsynchronised clocks do not give (it carries the clock offset); so
//! until the first RTT sample arrives there is no multiplicative decrease (the RFC 6817 cap
//! and floor still apply). Once per RTT means as in `ledbat-md`: after a decrease,
//! the next waits for an ACK of a packet sent after it; the decrease also counts as the
//! window reduction for loss handling. The default noise filter is 1 sample (seed 002,
//! section 5.2: MDvar ran "with ... no noise filter").

use crate::controller::{
    config_setters, Ack, Controller, ControllerFactory, Loss, Metrics, Timeout,
};
use crate::delay::{CurrentFilter, DelayConfig};
use crate::error::{in_range, ConfigError};
use crate::ledbat::{LedbatConfig, LedbatState};
use crate::time::{Duration, Instant};
use serde::{Deserialize, Serialize};

/// Parameters of `ledbat-mdvar`.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct MdVarConfig {
    /// Queuing-delay target. Default 25 ms (seed 002, section 5.1).
    pub target: Duration,
    /// Gain of the (RFC 6817) increase. Default 1 (RFC 6817 section 3.4.2).
    pub gain: f64,
    /// Packets subtracted after the multiplicative step. Default 3 (seed 002, section 3.2:
    /// "we subtracted additional 3 packets after this calculation").
    pub extra_decrease: f64,
    /// Allowed increase over the flight size, packets. Default 1 (RFC 6817 section 3.4.2).
    pub allowed_increase: f64,
    /// Minimum window, packets. Default 2 (RFC 6817 section 3.4.2).
    pub min_cwnd: f64,
    /// Initial window, packets. Default 2 (RFC 6817 section 3.4.2).
    pub init_cwnd: f64,
    /// Delay estimation. Default RFC 6817's base history with no noise filtering (minimum
    /// of 1 sample; seed 002, section 5.2).
    pub delay: DelayConfig,
}

impl Default for MdVarConfig {
    fn default() -> Self {
        MdVarConfig {
            target: Duration::from_millis(25),
            gain: 1.0,
            extra_decrease: 3.0,
            allowed_increase: 1.0,
            min_cwnd: 2.0,
            init_cwnd: 2.0,
            delay: DelayConfig::default().filter(CurrentFilter::Min { len: 1 }),
        }
    }
}

config_setters!(MdVarConfig {
    target: Duration,
    gain: f64,
    extra_decrease: f64,
    allowed_increase: f64,
    min_cwnd: f64,
    init_cwnd: f64,
    delay: DelayConfig,
});

impl MdVarConfig {
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

impl ControllerFactory for MdVarConfig {
    type Controller = MdVar;
    const NAME: &'static str = MdVar::NAME;

    fn validate(&self) -> Result<(), ConfigError> {
        self.base().validate_as(Self::NAME)?;
        in_range(Self::NAME, "extra_decrease", self.extra_decrease, 0.0, 1e6)
    }

    fn compliance_notes(&self) -> Vec<String> {
        self.base().compliance_notes()
    }

    fn build(&self, mss: u32) -> Result<MdVar, ConfigError> {
        MdVar::new(*self, mss)
    }
}

/// `ledbat-mdvar`: RFC 6817 increase; when over target, once per RTT, `cwnd = (1 -
/// TARGET/current_rtt) * cwnd - 3 packets` (seed 002 with its erratum).
#[derive(Clone, Debug)]
pub struct MdVar {
    cfg: MdVarConfig,
    st: LedbatState,
}

impl MdVar {
    /// Registry name.
    pub const NAME: &'static str = "ledbat-mdvar";

    /// A controller for packets of `mss` bytes; fails on an invalid config.
    pub fn new(cfg: MdVarConfig, mss: u32) -> Result<Self, ConfigError> {
        cfg.validate()?;
        Ok(MdVar {
            st: LedbatState::new(&cfg.base(), mss),
            cfg,
        })
    }

    /// The configuration in force.
    pub fn config(&self) -> &MdVarConfig {
        &self.cfg
    }

    /// Shared state (read-only), for tests and tracing.
    pub fn state(&self) -> &LedbatState {
        &self.st
    }
}

impl MdVar {
    /// The RTT the decrease uses: the latest RTT sample (none before the first one; the
    /// paper's `2 * base_delay + TARGET` would depend on the peers' clock offset).
    pub fn current_rtt(&self) -> Option<Duration> {
        self.st.rtt.latest()
    }

    /// The multiplicative factor `1 - TARGET / current_rtt` (never negative).
    pub fn beta(&self) -> Option<f64> {
        let r = self.current_rtt()?.as_secs_f64();
        (r > 0.0).then(|| (1.0 - self.cfg.target.as_secs_f64() / r).max(0.0))
    }
}

impl Controller for MdVar {
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
            if let Some(beta) = self.beta() {
                self.st.cwnd = beta * self.st.cwnd - self.cfg.extra_decrease * self.st.mss;
                self.st.last_reduction = Some(now);
            }
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ledbat::testutil::*;
    use crate::md::mdtest::ack_sent;
    use crate::wire::DelaySample;

    fn ctl(init: f64) -> MdVar {
        MdVar::new(MdVarConfig::default().init_cwnd(init), MSS).unwrap()
    }

    #[test]
    fn removes_target_over_rtt_of_the_window_then_3_packets_once_per_rtt() {
        let mut c = ctl(40.0);
        settle(&mut c, Instant::ZERO, 10_000, 30_000);
        assert_eq!(c.window(), 60_000);
        let s = [DelaySample(40_000)];
        let rtt = Some(Duration::from_millis(100));
        let t1 = Instant::from_secs(1);
        // 100 ms RTT, TARGET 25 ms: keep 3/4 of 40 packets, minus 3: 27 packets.
        c.on_ack(t1, &ack_sent(Instant::from_millis(900), &s, rtt));
        assert_eq!(c.window(), 27 * 1500);
        // Same window: no second decrease.
        for i in 1..30 {
            c.on_ack(
                t1 + Duration::from_millis(i),
                &ack_sent(Instant::from_millis(990), &s, rtt),
            );
        }
        assert_eq!(c.window(), 27 * 1500);
        // Next window: 0.75 * 27 - 3 = 17.25 packets.
        let t2 = t1 + Duration::from_millis(100);
        c.on_ack(t2, &ack_sent(t1 + Duration::from_millis(10), &s, rtt));
        assert_eq!(c.window(), 25_875);
    }

    #[test]
    fn beta_follows_the_latest_rtt_sample() {
        let mut c = ctl(40.0);
        settle(&mut c, Instant::ZERO, 10_000, 30_000);
        let s = [DelaySample(40_000)];
        // 50 ms RTT: keep half, minus 3: 17 packets.
        c.on_ack(
            Instant::from_secs(1),
            &ack_sent(
                Instant::from_millis(900),
                &s,
                Some(Duration::from_millis(50)),
            ),
        );
        assert_eq!(c.window(), 17 * 1500);
        assert_eq!(c.beta(), Some(0.5));
    }

    #[test]
    fn without_rtt_samples_waits_for_one_instead_of_guessing_from_the_offset_laden_base() {
        let mut c = ctl(45.0);
        settle(&mut c, Instant::ZERO, 10_000, 30_000);
        assert_eq!(c.current_rtt(), None);
        let before = c.state().cwnd;
        let s = [DelaySample(40_000)];
        c.on_ack(
            Instant::from_secs(1),
            &ack_sent(Instant::from_millis(900), &s, None),
        );
        // Over target, but no RTT yet: no multiplicative step (the cap does not bind here).
        assert!(c.state().cwnd <= before);
        assert!(c.state().cwnd > 40.0 * 1500.0, "{}", c.state().cwnd);
    }

    #[test]
    fn increase_below_target_is_rfc() {
        let mut c = ctl(20.0);
        settle(&mut c, Instant::ZERO, 10_000, 0);
        c.on_ack(
            Instant::from_secs(1),
            &ack_sent(Instant::ZERO, &[DelaySample(10_000)], None),
        );
        assert_eq!(c.window(), 30_075);
    }

    #[test]
    fn never_below_min_cwnd() {
        let mut c = ctl(4.0);
        settle(&mut c, Instant::ZERO, 10_000, 30_000);
        let s = [DelaySample(40_000)];
        c.on_ack(
            Instant::from_secs(1),
            &ack_sent(
                Instant::from_millis(900),
                &s,
                Some(Duration::from_millis(20)),
            ),
        );
        // 20 ms RTT < TARGET: factor clamps at 0, minus 3 packets, floored at 2 packets.
        assert_eq!(c.window(), 3000);
    }

    #[test]
    fn config_rejects_nonsense_and_names_the_field() {
        let cases: [(MdVarConfig, &str); 3] = [
            (MdVarConfig::default().target(Duration::ZERO), "target"),
            (
                MdVarConfig::default().extra_decrease(f64::NAN),
                "extra_decrease",
            ),
            (
                MdVarConfig::default().extra_decrease(-3.0),
                "extra_decrease",
            ),
        ];
        for (cfg, field) in cases {
            let e = MdVar::new(cfg, MSS).unwrap_err();
            assert_eq!(e.field, field, "{e}");
        }
    }
}
