//! TCP-LP (Kuzmanovic & Knightly, "TCP-LP: a distributed algorithm for low priority data
//! transfer", INFOCOM 2003), one of seed 003's lower-than-best-effort references (section
//! 3.1.4, equations 3.1-3.2; algorithms.md section 6).
//!
//! On every one-way-delay sample `D` (wrap-safe, see [`crate::wire::Unwrapper`]):
//!
//! ```text
//! d_min = min(D), d_max = max(D)
//! D~    = (1 - alpha) D~ + alpha D                          # eq. (3.1), alpha = 1/8
//! early congestion:  D~ > d_min + (d_max - d_min) delta     # eq. (3.2), delta = 0.15
//! ```
//!
//! On early congestion: if the previous one was less than one inference period ago, cwnd =
//! 1 packet; otherwise cwnd = cwnd / 2. Either way an inference period starts, during which
//! the window does not grow. Outside it the window grows like Reno's; losses and timeouts are
//! Reno's (see [`crate::reno`]).
//!
//! Choices the sources leave open, stated:
//! - An indication counts only if the acknowledged packet left after the last reduction
//!   (early-congestion or loss), so
//!   one queue build-up does not halve and then collapse the window within the same round
//!   trip (the same once-per-RTT rule as for losses; Linux `tcp_lp` resets d_min/d_max
//!   instead, which this avoids).
//! - The inference period is `inference_rtts * srtt`, default 3: algorithms.md section 6
//!   says "about one RTT", but with the rule above the first packet sent after a halving is
//!   acknowledged one RTT later, so a one-RTT period could never see a second indication.
//!   Linux `tcp_lp` uses three times its delay estimate.
//! - After a reduction ssthresh = max(cwnd, 2 packets), so growth resumes in congestion
//!   avoidance ("restarts the TCP Reno congestion avoidance scheme", seed 003 3.1.4).

use crate::controller::{Ack, Controller, Loss, Metrics, RttEstimator, Timeout};
use crate::error::{in_range, ConfigError};
use crate::registry::ControllerParams;
use crate::reno::RenoWindow;
use crate::time::{Duration, Instant};
use crate::wire::Unwrapper;
use serde::{Deserialize, Serialize};

/// TCP-LP parameters.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct TcpLpConfig {
    /// EWMA weight of a new one-way-delay sample. Default 1/8 (seed 003 section 3.1.4,
    /// "alpha = 1/8 ... selected in \[60\]").
    pub alpha: f64,
    /// Early-congestion threshold as a fraction of `d_max - d_min`. Default 0.15 (seed 003
    /// section 3.1.4, "delta = 0.15").
    pub delta: f64,
    /// Inference period, in smoothed RTTs. Default 3 (Linux `tcp_lp`; see the module
    /// documentation for why not 1).
    pub inference_rtts: f64,
    /// Initial window, packets. Default 2 (as NewReno).
    pub init_cwnd: f64,
    /// Slow start at the start of the connection. Default on (TCP-LP is Reno outside early
    /// congestion); seed 003 section 3.2.3 turns it off.
    pub slow_start: bool,
}

impl Default for TcpLpConfig {
    fn default() -> Self {
        TcpLpConfig {
            alpha: 0.125,
            delta: 0.15,
            inference_rtts: 3.0,
            init_cwnd: 2.0,
            slow_start: true,
        }
    }
}

impl TcpLpConfig {
    /// Sets [`TcpLpConfig::alpha`].
    pub fn alpha(mut self, a: f64) -> Self {
        self.alpha = a;
        self
    }
    /// Sets [`TcpLpConfig::delta`].
    pub fn delta(mut self, d: f64) -> Self {
        self.delta = d;
        self
    }
    /// Sets [`TcpLpConfig::inference_rtts`].
    pub fn inference_rtts(mut self, n: f64) -> Self {
        self.inference_rtts = n;
        self
    }
    /// Sets [`TcpLpConfig::init_cwnd`].
    pub fn init_cwnd(mut self, packets: f64) -> Self {
        self.init_cwnd = packets;
        self
    }
    /// Sets [`TcpLpConfig::slow_start`].
    pub fn slow_start(mut self, on: bool) -> Self {
        self.slow_start = on;
        self
    }
}

impl ControllerParams for TcpLpConfig {
    const NAME: &'static str = TcpLp::NAME;
    fn validate(&self) -> Result<(), ConfigError> {
        let n = Self::NAME;
        if !(self.alpha > 0.0 && self.alpha <= 1.0) {
            return Err(ConfigError::new(
                n,
                "alpha",
                format!("must be in (0, 1], got {}", self.alpha),
            ));
        }
        if !(self.delta > 0.0 && self.delta < 1.0) {
            return Err(ConfigError::new(
                n,
                "delta",
                format!("must be in (0, 1), got {}", self.delta),
            ));
        }
        in_range(n, "inference_rtts", self.inference_rtts, 0.0, 1000.0)?;
        in_range(n, "init_cwnd", self.init_cwnd, 1.0, 1e6)
    }
}

/// TCP-LP.
#[derive(Clone, Debug)]
pub struct TcpLp {
    cfg: TcpLpConfig,
    w: RenoWindow,
    rtt: RttEstimator,
    unwrap: Unwrapper,
    origin: Option<i64>,
    smoothed: Option<f64>,
    d_min: i64,
    d_max: i64,
    last_drop: Option<Instant>,
    state: &'static str,
}

impl TcpLp {
    /// Registry name.
    pub const NAME: &'static str = "tcp-lp";

    /// A controller for packets of `mss` bytes; fails on an invalid config.
    pub fn new(cfg: TcpLpConfig, mss: u32) -> Result<Self, ConfigError> {
        cfg.validate()?;
        let ssthresh = (!cfg.slow_start).then_some(cfg.init_cwnd);
        Ok(TcpLp {
            w: RenoWindow::new(mss, cfg.init_cwnd, ssthresh),
            rtt: RttEstimator::default(),
            unwrap: Unwrapper::default(),
            origin: None,
            smoothed: None,
            d_min: i64::MAX,
            d_max: i64::MIN,
            last_drop: None,
            state: if cfg.slow_start {
                "slow-start"
            } else {
                "avoidance"
            },
            cfg,
        })
    }

    /// The configuration in force.
    pub fn config(&self) -> &TcpLpConfig {
        &self.cfg
    }

    fn inference(&self) -> Duration {
        self.rtt
            .srtt()
            .map_or(Duration::ZERO, |s| s.mul_f64(self.cfg.inference_rtts))
    }

    /// Whether `now` falls in the inference period after the last early-congestion reduction.
    pub fn in_inference(&self, now: Instant) -> bool {
        self.last_drop
            .is_some_and(|t| now.saturating_since(t) < self.inference())
    }

    fn early_congestion(&self) -> bool {
        let Some(s) = self.smoothed else { return false };
        if self.d_max <= self.d_min {
            return false;
        }
        s > self.d_min as f64 + (self.d_max - self.d_min) as f64 * self.cfg.delta
    }
}

impl Controller for TcpLp {
    fn name(&self) -> &'static str {
        Self::NAME
    }

    fn on_sent(&mut self, _now: Instant, _bytes: u64, in_flight: u64) {
        self.w.on_sent(in_flight);
    }

    fn on_ack(&mut self, now: Instant, ack: &Ack<'_>) {
        self.w.on_ack(ack);
        if let Some(r) = ack.rtt {
            self.rtt.on_sample(r);
        }
        for s in ack.delay_samples {
            // Relative to the first sample, so that the clock offset cancels exactly (the
            // EWMA's floating-point rounding then does not depend on it).
            let raw = self.unwrap.unwrap(s.0);
            let v = raw - *self.origin.get_or_insert(raw);
            self.d_min = self.d_min.min(v);
            self.d_max = self.d_max.max(v);
            let a = self.cfg.alpha;
            self.smoothed = Some(
                self.smoothed
                    .map_or(v as f64, |e| (1.0 - a) * e + a * v as f64),
            );
        }
        // Only packets sent after the last reduction (by delay or by loss) can signal anew.
        let fresh = self.w.last_reduction.is_none_or(|t| ack.newest_sent > t);
        if fresh && self.early_congestion() {
            let mss = self.w.mss;
            self.w.cwnd = if self.in_inference(now) {
                mss
            } else {
                (self.w.cwnd / 2.0).max(mss)
            };
            self.w.ssthresh = self.w.cwnd.max(2.0 * mss);
            self.w.mark_reduction(now);
            self.last_drop = Some(now);
            self.state = "inference";
            return;
        }
        if self.in_inference(now) {
            self.state = "inference";
        } else {
            self.w.grow(ack.bytes_acked);
            self.state = self.w.phase();
        }
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
        let queuing = self
            .smoothed
            .filter(|_| self.d_min != i64::MAX)
            .map(|s| Duration::from_micros((s - self.d_min as f64).max(0.0) as u64));
        Metrics {
            cwnd: self.window(),
            ssthresh: self.w.ssthresh_bytes(),
            queuing_delay: queuing,
            state: self.state,
            gain: 1.0,
            ..Metrics::default()
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::newreno::testutil::*;
    use crate::wire::DelaySample;

    const RTT: Duration = Duration::from_millis(100);

    fn lp(init: f64) -> TcpLp {
        TcpLp::new(
            TcpLpConfig::default().slow_start(false).init_cwnd(init),
            MSS,
        )
        .unwrap()
    }

    /// An ACK at `now` for a packet sent at `sent` carrying one-way delay `owd_us`.
    fn ack_owd(c: &mut TcpLp, now: Instant, sent: Instant, owd_us: u32) {
        let s = [DelaySample(owd_us)];
        let mut a = ack_rtt(sent, Some(RTT), 1 << 30);
        a.delay_samples = &s;
        c.on_ack(now, &a);
    }

    #[test]
    fn early_congestion_halves_then_a_second_inside_inference_sets_one_packet() {
        let mut c = lp(20.0);
        let t0 = Instant::from_secs(1);
        ack_owd(&mut c, t0, t0 - RTT, 10_000); // d_min = 10 ms
                                               // 100 ms of queueing: after one sample D~ = 10 + 12.5 = 22.5 ms < 10 + 15 = 25 ms;
                                               // after the second, 33.4 ms > 25 ms: early congestion.
        ack_owd(&mut c, t0 + Duration::from_millis(1), t0 - RTT, 110_000);
        assert_eq!(pkts(&c), 20.0);
        let t1 = t0 + Duration::from_millis(2);
        ack_owd(&mut c, t1, t0 - RTT, 110_000);
        assert_eq!(pkts(&c), 10.0);
        assert!(c.in_inference(t1));
        assert_eq!(c.metrics().state, "inference");
        // Packets sent before the halving do not count again.
        ack_owd(
            &mut c,
            t1 + Duration::from_millis(5),
            t1 - Duration::from_millis(1),
            110_000,
        );
        assert_eq!(pkts(&c), 10.0);
        // A packet sent after it, still queued, inside the inference period: one packet.
        let t2 = t1 + Duration::from_millis(150);
        ack_owd(&mut c, t2, t1 + Duration::from_millis(10), 110_000);
        assert_eq!(pkts(&c), 1.0);
    }

    #[test]
    fn no_growth_during_inference_then_reno_growth() {
        let mut c = lp(20.0);
        let t0 = Instant::from_secs(1);
        ack_owd(&mut c, t0, t0 - RTT, 10_000);
        ack_owd(&mut c, t0, t0 - RTT, 110_000);
        ack_owd(&mut c, t0, t0 - RTT, 110_000);
        assert_eq!(pkts(&c), 10.0);
        // Delay back near the base, ACKs of old packets: no growth inside 3 RTTs.
        for i in 0..40 {
            ack_owd(&mut c, t0 + Duration::from_millis(i), t0 - RTT, 10_000);
        }
        assert_eq!(pkts(&c), 10.0);
        // After the inference period: Reno avoidance, +1 packet per window of ACKs.
        let t1 = t0 + RTT * 4;
        assert!(!c.in_inference(t1));
        for _ in 0..10 {
            ack_owd(&mut c, t1, t1 - RTT, 10_000);
        }
        assert_eq!(pkts(&c), 11.0);
    }

    #[test]
    fn early_congestion_after_the_inference_period_halves_again() {
        let mut c = lp(40.0);
        let t0 = Instant::from_secs(1);
        ack_owd(&mut c, t0, t0 - RTT, 10_000);
        ack_owd(&mut c, t0, t0 - RTT, 110_000);
        ack_owd(&mut c, t0, t0 - RTT, 110_000);
        assert_eq!(pkts(&c), 20.0);
        let t1 = t0 + RTT * 5;
        ack_owd(&mut c, t1, t1 - RTT, 110_000);
        assert_eq!(pkts(&c), 10.0);
    }

    #[test]
    fn delay_arithmetic_survives_the_32_bit_wrap() {
        let mut c = lp(20.0);
        let t0 = Instant::from_secs(1);
        let base = u32::MAX - 2_000;
        ack_owd(&mut c, t0, t0 - RTT, base);
        ack_owd(&mut c, t0, t0 - RTT, base.wrapping_add(100_000));
        ack_owd(&mut c, t0, t0 - RTT, base.wrapping_add(100_000));
        assert_eq!(pkts(&c), 10.0);
    }

    #[test]
    fn a_loss_and_a_delay_signal_from_the_same_window_reduce_once() {
        let mut c = lp(20.0);
        let t0 = Instant::from_secs(1);
        ack_owd(&mut c, t0, t0 - RTT, 10_000);
        c.on_loss(t0, &loss(t0 - RTT, 20 * 1500));
        assert_eq!(pkts(&c), 10.0);
        // The queue of that same window shows up in the delays: no second halving.
        ack_owd(&mut c, t0, t0 - RTT, 110_000);
        ack_owd(&mut c, t0, t0 - RTT, 110_000);
        assert_eq!(pkts(&c), 10.0);
        // A packet sent after the loss reaction, still queued: early congestion, halve.
        let t1 = t0 + RTT;
        ack_owd(&mut c, t1, t0 + Duration::from_millis(1), 110_000);
        assert_eq!(pkts(&c), 5.0);
    }

    #[test]
    fn losses_are_reno() {
        let mut c = lp(20.0);
        let t0 = Instant::from_secs(1);
        c.on_loss(t0, &loss(t0 - RTT, 20 * 1500));
        assert_eq!(pkts(&c), 10.0);
        c.on_timeout(t0 + RTT, Timeout::Retransmission);
        assert_eq!(pkts(&c), 1.0);
    }

    #[test]
    fn config_errors_name_the_field() {
        let e = TcpLp::new(TcpLpConfig::default().delta(1.5), MSS).unwrap_err();
        assert_eq!(e.field, "delta");
        let e = TcpLp::new(TcpLpConfig::default().alpha(0.0), MSS).unwrap_err();
        assert_eq!(e.field, "alpha");
    }
}
