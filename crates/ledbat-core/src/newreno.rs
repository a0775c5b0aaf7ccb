//! TCP NewReno's window (RFC 5681 and RFC 6582), the loss-based foreground flow of the
//! seed papers (seed 003 chapters 3-4 "TCP NewReno flavor"; seed 004 section III).
//!
//! ```text
//! slow start (cwnd < ssthresh): cwnd += min(bytes_acked, 2 * SMSS)   # RFC 5681 3.1, RFC 3465
//! avoidance:                    cwnd += SMSS per cwnd bytes acked      # +1 MSS per RTT
//! loss, once per RTT:           ssthresh = max(FlightSize / 2, 2 * SMSS); cwnd = ssthresh
//! retransmission timeout:       ssthresh as above; cwnd = 1 * SMSS (loss window)
//! ```
//!
//! The driver does fast retransmit and the recovery bookkeeping (RFC 6582's partial ACKs
//! retransmit without touching the window); this module owns the window: it reduces once
//! per congestion event, ignoring losses of packets sent before its last reduction, and
//! deflates straight to ssthresh (RFC 6582 section 3.2 step 6) instead of inflating during
//! recovery. Seed 003 section 3.2.3 turns slow start off ([`NewRenoConfig::slow_start`]
//! false): the flow starts in congestion avoidance at its initial window.
//!
//! Seed 004 reports more throughput under 5 % random loss than Mathis' and Padhye et al.'s
//! formulas allow any Reno-family TCP; this window is not tuned to match it
//! (`docs/controllers-notes.md`, "newreno").

use crate::controller::{
    config_setters, Ack, Controller, ControllerFactory, Loss, Metrics, Timeout,
};
use crate::error::{in_range, ConfigError};
use crate::reno::RenoWindow;
use crate::time::Instant;
use serde::{Deserialize, Serialize};

/// NewReno parameters.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct NewRenoConfig {
    /// Initial window, packets. Default 2: ns-2's `Agent/TCP windowInit_` default, the
    /// simulator of seed 003's comparisons (RFC 5681 section 3.1 would allow 3 for 1500-byte
    /// segments, RFC 6928 up to 10).
    pub init_cwnd: f64,
    /// Slow start at the start of the connection and after timeouts. Default on (RFC 5681);
    /// seed 003 section 3.2.3 runs with it off, starting in congestion avoidance.
    pub slow_start: bool,
    /// Initial slow-start threshold, packets. Default none, i.e. unbounded (RFC 5681 section
    /// 3.1: "SHOULD be set arbitrarily high"). Ignored when `slow_start` is off.
    pub initial_ssthresh: Option<f64>,
}

impl Default for NewRenoConfig {
    fn default() -> Self {
        NewRenoConfig {
            init_cwnd: 2.0,
            slow_start: true,
            initial_ssthresh: None,
        }
    }
}

config_setters!(NewRenoConfig {
    init_cwnd: f64,
    slow_start: bool,
    initial_ssthresh: Option<f64>,
});

impl NewRenoConfig {
    /// The threshold the window starts with, packets (`None`: unbounded).
    pub(crate) fn start_ssthresh(&self) -> Option<f64> {
        if self.slow_start {
            self.initial_ssthresh
        } else {
            Some(self.init_cwnd)
        }
    }

    /// Checks the Reno fields, naming `controller` in the error (shared by controllers that
    /// embed this config).
    pub fn validate_as(&self, controller: &'static str) -> Result<(), ConfigError> {
        in_range(controller, "init_cwnd", self.init_cwnd, 1.0, 1e6)?;
        if let Some(s) = self.initial_ssthresh {
            in_range(controller, "initial_ssthresh", s, 2.0, 1e9)?;
        }
        Ok(())
    }
}

impl ControllerFactory for NewRenoConfig {
    type Controller = NewReno;
    const NAME: &'static str = NewReno::NAME;
    fn validate(&self) -> Result<(), ConfigError> {
        self.validate_as(Self::NAME)
    }

    fn build(&self, mss: u32) -> Result<NewReno, ConfigError> {
        NewReno::new(*self, mss)
    }
}

/// TCP NewReno's congestion window.
#[derive(Clone, Debug)]
pub struct NewReno {
    cfg: NewRenoConfig,
    w: RenoWindow,
}

impl NewReno {
    /// Registry name.
    pub const NAME: &'static str = "newreno";

    /// A controller for packets of `mss` bytes; fails on an invalid config.
    pub fn new(cfg: NewRenoConfig, mss: u32) -> Result<Self, ConfigError> {
        cfg.validate()?;
        Ok(NewReno {
            w: RenoWindow::new(mss, cfg.init_cwnd, cfg.start_ssthresh()),
            cfg,
        })
    }

    /// The configuration in force.
    pub fn config(&self) -> &NewRenoConfig {
        &self.cfg
    }

    /// Slow-start threshold in bytes, `None` while unbounded.
    pub fn ssthresh(&self) -> Option<u64> {
        self.w.ssthresh_bytes()
    }
}

impl Controller for NewReno {
    fn name(&self) -> &'static str {
        Self::NAME
    }

    fn on_sent(&mut self, _now: Instant, _bytes: u64, in_flight: u64) {
        self.w.on_sent(in_flight);
    }

    fn on_ack(&mut self, _now: Instant, ack: &Ack<'_>) {
        self.w.on_ack(ack);
        self.w.grow(ack.bytes_acked);
    }

    fn on_loss(&mut self, now: Instant, loss: &Loss) {
        self.w.on_loss(now, loss);
    }

    fn on_timeout(&mut self, now: Instant, kind: Timeout) {
        self.w.on_timeout(now, kind);
    }

    fn window(&self) -> u64 {
        self.w.window_at_least(self.w.mss)
    }

    fn metrics(&self) -> Metrics {
        Metrics {
            cwnd: self.window(),
            ssthresh: self.w.ssthresh_bytes(),
            state: self.w.phase(),
            gain: 1.0,
            ..Metrics::default()
        }
    }
}

/// Test helpers shared by the reference-controller modules.
#[cfg(test)]
pub(crate) mod testutil {
    use crate::controller::{Ack, Controller, Loss};
    use crate::time::{Duration, Instant};

    /// MSS used by tests.
    pub const MSS: u32 = 1500;

    /// An ACK of one MSS for a packet sent at `sent`, with an RTT sample `rtt`.
    pub fn ack_rtt(sent: Instant, rtt: Option<Duration>, flight: u64) -> Ack<'static> {
        Ack {
            bytes_acked: MSS as u64,
            packets_acked: 1,
            flight_before: flight,
            delay_samples: &[],
            rtt,
            reverse_delay: None,
            newest_sent: sent,
        }
    }

    /// Sends a full window at `start`, then acknowledges it one packet per ACK at
    /// `start + rtt`, every packet with RTT sample `rtt`. Returns the time of the last ACK.
    pub fn round<C: Controller>(c: &mut C, start: Instant, rtt: Duration) -> Instant {
        let packets = (c.window() / MSS as u64).max(1);
        for i in 0..packets {
            c.on_sent(start, MSS as u64, (i + 1) * MSS as u64);
        }
        let end = start + rtt;
        for i in 0..packets {
            c.on_ack(end, &ack_rtt(start, Some(rtt), (packets - i) * MSS as u64));
        }
        end
    }

    /// A loss of a packet sent at `sent` with `in_flight` bytes outstanding.
    pub fn loss(sent: Instant, in_flight: u64) -> Loss {
        Loss {
            bytes: MSS as u64,
            sent_at: sent,
            in_flight,
        }
    }

    /// Window in packets (fractional).
    pub fn pkts<C: Controller>(c: &C) -> f64 {
        c.window() as f64 / MSS as f64
    }
}

#[cfg(test)]
mod tests {
    use super::testutil::*;
    use super::*;
    use crate::time::Duration;

    fn reno(cfg: NewRenoConfig) -> NewReno {
        NewReno::new(cfg, MSS).unwrap()
    }

    const RTT: Duration = Duration::from_millis(100);

    #[test]
    fn slow_start_doubles_the_window_each_round_trip() {
        let mut c = reno(NewRenoConfig::default());
        let mut t = Instant::ZERO;
        for expect in [4.0, 8.0, 16.0, 32.0] {
            t = round(&mut c, t, RTT);
            assert_eq!(pkts(&c), expect);
        }
        assert_eq!(c.metrics().state, "slow-start");
    }

    #[test]
    fn avoidance_adds_one_mss_per_round_trip() {
        let mut c = reno(NewRenoConfig::default().slow_start(false).init_cwnd(10.0));
        assert_eq!(c.metrics().state, "avoidance");
        let mut t = Instant::ZERO;
        for expect in [11.0, 12.0, 13.0] {
            t = round(&mut c, t, RTT);
            assert_eq!(pkts(&c), expect);
        }
    }

    #[test]
    fn slow_start_hands_over_to_avoidance_at_ssthresh() {
        let mut c = reno(NewRenoConfig::default().initial_ssthresh(Some(6.0)));
        let mut t = round(&mut c, Instant::ZERO, RTT); // 2 -> 4
        t = round(&mut c, t, RTT); // 4 -> 6 after two ACKs, then 2 of 6 avoidance bytes
        assert_eq!(pkts(&c), 6.0);
        round(&mut c, t, RTT);
        assert_eq!(pkts(&c), 7.0);
    }

    #[test]
    fn loss_halves_the_flight_once_per_round_trip() {
        let mut c = reno(NewRenoConfig::default().slow_start(false).init_cwnd(40.0));
        let t0 = Instant::from_secs(1);
        c.on_loss(t0, &loss(Instant::from_millis(950), 40 * 1500));
        assert_eq!(pkts(&c), 20.0);
        assert_eq!(c.ssthresh(), Some(20 * 1500));
        // More losses from the same window: same event.
        c.on_loss(
            t0 + Duration::from_millis(5),
            &loss(Instant::from_millis(960), 39 * 1500),
        );
        assert_eq!(pkts(&c), 20.0);
        // A packet sent after the reduction is a new event.
        c.on_loss(t0 + RTT, &loss(t0 + Duration::from_millis(10), 20 * 1500));
        assert_eq!(pkts(&c), 10.0);
        // Never below two segments on loss.
        for i in 2..10 {
            let t = t0 + RTT * i;
            c.on_loss(t, &loss(t - Duration::from_millis(1), 1500));
        }
        assert_eq!(pkts(&c), 2.0);
    }

    #[test]
    fn acks_during_recovery_do_not_grow_the_window() {
        let mut c = reno(NewRenoConfig::default().slow_start(false).init_cwnd(10.0));
        let t0 = Instant::from_secs(1);
        c.on_loss(t0, &loss(t0 - RTT, 10 * 1500));
        assert_eq!(pkts(&c), 5.0);
        // The rest of the old window is acknowledged (SACK recovery): no growth.
        for i in 0..20 {
            let now = t0 + Duration::from_millis(i);
            c.on_ack(now, &ack_rtt(t0 - RTT, Some(RTT), 10 * 1500));
        }
        assert_eq!(pkts(&c), 5.0);
        // ACKs of data sent after the reduction end recovery; avoidance resumes.
        round(&mut c, t0 + RTT, RTT);
        assert_eq!(pkts(&c), 6.0);
    }

    #[test]
    fn timeout_falls_to_the_loss_window_and_slow_starts_back() {
        let mut c = reno(NewRenoConfig::default().slow_start(false).init_cwnd(20.0));
        c.on_sent(Instant::ZERO, 1500, 20 * 1500);
        c.on_timeout(Instant::from_secs(1), Timeout::Retransmission);
        assert_eq!(pkts(&c), 1.0);
        assert_eq!(c.ssthresh(), Some(10 * 1500));
        assert_eq!(c.metrics().state, "slow-start");
        let t = round(&mut c, Instant::from_secs(1), RTT);
        assert_eq!(pkts(&c), 2.0);
        round(&mut c, t, RTT);
        assert_eq!(pkts(&c), 4.0);
    }

    #[test]
    fn idle_restart_caps_the_window_at_the_initial_window() {
        let mut c = reno(NewRenoConfig::default().slow_start(false).init_cwnd(3.0));
        let mut t = Instant::ZERO;
        for _ in 0..5 {
            t = round(&mut c, t, RTT);
        }
        assert_eq!(pkts(&c), 8.0);
        c.on_timeout(t, Timeout::Idle);
        assert_eq!(pkts(&c), 3.0);
    }

    #[test]
    fn config_errors_name_the_field() {
        let e = NewReno::new(NewRenoConfig::default().init_cwnd(0.0), MSS).unwrap_err();
        assert_eq!(e.field, "init_cwnd");
        let e = NewReno::new(
            NewRenoConfig::default().initial_ssthresh(Some(f64::NAN)),
            MSS,
        )
        .unwrap_err();
        assert_eq!(e.field, "initial_ssthresh");
    }
}
