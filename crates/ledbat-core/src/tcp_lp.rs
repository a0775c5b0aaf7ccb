//! TCP-LP (Kuzmanovic & Knightly, "TCP-LP: a distributed algorithm for low priority data
//! transfer", INFOCOM 2003), one of seed 003's lower-than-best-effort references (section
//! 3.1.4, equations 3.1-3.2; algorithms.md section 6).
//!
//! On every one-way-delay sample `D` (wrap-safe, see [`crate::wire::Unwrapper`]):
//!
//! ```text
//! d_min = min(d_min, D); d_max: see "forgetting the max" below
//! D~    = (1 - alpha) D~ + alpha D                          # eq. (3.1), alpha = 1/8
//! early congestion:  D~ > d_min + (d_max - d_min) delta     # eq. (3.2), delta = 0.15
//! ```
//!
//! On early congestion: if the previous one was less than one inference period ago, cwnd =
//! 1 packet; otherwise cwnd = cwnd / 2. Either way an inference period starts, during which
//! the window does not grow. Outside it the window grows like Reno's; losses and timeouts are
//! Reno's (see [`crate::reno`]).
//!
//! The bookkeeping of `d_min` / `d_max` follows the reference implementation the thesis used
//! (ns-2's tcp-linux runs Linux `net/ipv4/tcp_lp.c`; seed 003 section 3.2: "TCP-LP ...
//! already implemented in the simulator"):
//! - *forgetting the max*: a sample above `d_max` sets `d_max` to the previous record
//!   (`d_max_rsv`) and becomes the new record, so one outlier never stretches the range;
//! - *reset on every indication*: `d_min = D~`, `d_max = d_max_rsv = 2 D~`, so the next
//!   indication needs the smoothed delay to grow by a further `delta D~`. That reset, not a
//!   once-per-RTT rule, is what keeps one queue build-up from halving the window on every
//!   ACK. Linux's `D~` there is an absolute delay (ns-2's clocks are synchronised). Here
//!   the delays are kept relative to the first sample, so clock offsets cancel, and the
//!   absolute delay in `2 D~ = D~ + D~` is estimated offset-free as `(D~ - lowest sample
//!   ever) + min_rtt / 2` (the base one-way delay on a symmetric path: within a
//!   serialisation time of the true value in the thesis's dumbbell).
//!
//! An all-time `d_max` with a once-per-RTT rule instead would let jitter alone set the
//! range, and a lone flow on a jittery link without a queue would sit at one packet
//! (figures against the thesis's Fig. 3.6 (b): `docs/controllers-notes.md`, "tcp-lp").
//!
//! Choices the sources leave open, stated:
//! - `d_max == d_min` (a single distinct sample) is no indication; Linux's integer
//!   comparison `D~ < d_min + 0` halves on the very first ACK, an artefact this avoids.
//! - The inference period is `inference_rtts * srtt`, default 3 (Linux: three times the
//!   latest RTT sample). algorithms.md section 6 says "about one RTT".
//! - After a reduction ssthresh = max(cwnd, 2 packets), so growth resumes in congestion
//!   avoidance ("restarts the TCP Reno congestion avoidance scheme", seed 003 3.1.4).

use crate::controller::{
    config_setters, Ack, Controller, ControllerFactory, Loss, Metrics, RttEstimator, Timeout,
};
use crate::error::{in_range, ConfigError};
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

config_setters!(TcpLpConfig {
    alpha: f64,
    delta: f64,
    inference_rtts: f64,
    init_cwnd: f64,
    slow_start: bool,
});

impl ControllerFactory for TcpLpConfig {
    type Controller = TcpLp;
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

    fn build(&self, mss: u32) -> Result<TcpLp, ConfigError> {
        TcpLp::new(*self, mss)
    }
}

/// TCP-LP's delay state ([`TcpLp::delays`]): microseconds relative to the first sample
/// since the delay source last changed (`origin`, the raw unwrapped sample it was), `None`
/// before a sample set it. The kernel build's differential test compares it event by event.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct LpDelays {
    /// The first sample, unwrapped (microseconds on the peer's clock line).
    pub origin: Option<i64>,
    /// `D~`, the smoothed delay (eq. 3.1).
    pub smoothed: Option<f64>,
    /// `d_min` and `d_max` (eq. 3.2), set together by the first sample.
    pub d_min: Option<f64>,
    /// See `d_min`.
    pub d_max: Option<f64>,
    /// The record `d_max` falls back to ("forgetting the max").
    pub d_max_rsv: Option<f64>,
    /// The lowest sample ever (the offset-free base of the range's reset).
    pub lowest: Option<f64>,
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
    d_min: f64,
    d_max: f64,
    d_max_rsv: Option<f64>,
    lowest: f64,
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
            d_min: f64::INFINITY,
            d_max: f64::NEG_INFINITY,
            d_max_rsv: None,
            lowest: f64::INFINITY,
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

    /// The Reno window (read-only), for tests and tracing.
    pub fn reno(&self) -> &RenoWindow {
        &self.w
    }

    /// The delay state behind the early-congestion test.
    pub fn delays(&self) -> LpDelays {
        let finite = |v: f64| v.is_finite().then_some(v);
        LpDelays {
            origin: self.origin,
            smoothed: self.smoothed,
            d_min: finite(self.d_min),
            d_max: finite(self.d_max),
            d_max_rsv: self.d_max_rsv,
            lowest: finite(self.lowest),
        }
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
        s > self.d_min + (self.d_max - self.d_min) * self.cfg.delta
    }

    /// One relative delay sample `v` (microseconds since the first sample's line).
    fn on_delay(&mut self, v: f64) {
        self.lowest = self.lowest.min(v);
        self.d_min = self.d_min.min(v);
        if v > self.d_max {
            // Linux tcp_lp: "always forget the max of the max".
            match self.d_max_rsv {
                Some(rsv) if v <= rsv => self.d_max = v,
                Some(rsv) => {
                    self.d_max = rsv;
                    self.d_max_rsv = Some(v);
                }
                None => {
                    self.d_max = v;
                    self.d_max_rsv = Some(v);
                }
            }
        }
        let a = self.cfg.alpha;
        self.smoothed = Some(self.smoothed.map_or(v, |e| (1.0 - a) * e + a * v));
    }

    /// Linux tcp_lp's reset on an indication: `d_min = D~`, `d_max = 2 D~` with `D~` the
    /// absolute smoothed delay, estimated offset-free (module documentation).
    fn reset_range(&mut self, s: f64) {
        let base = self.rtt.min().map_or(0.0, |r| r.as_secs_f64() * 1e6 / 2.0);
        let absolute = (s - self.lowest).max(0.0) + base;
        self.d_min = s;
        self.d_max = s + absolute;
        self.d_max_rsv = Some(self.d_max);
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
            self.on_delay(v as f64);
        }
        if self.early_congestion() {
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
            if let Some(s) = self.smoothed {
                self.reset_range(s);
            }
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

    /// The relative delays start again from the next sample: unwrapper, origin, smoothed
    /// delay and range (the window and the inference period are kept).
    fn on_delay_source_change(&mut self, _now: Instant) {
        self.unwrap = Unwrapper::default();
        self.origin = None;
        self.smoothed = None;
        self.d_min = f64::INFINITY;
        self.d_max = f64::NEG_INFINITY;
        self.d_max_rsv = None;
        self.lowest = f64::INFINITY;
    }

    fn metrics(&self) -> Metrics {
        let queuing = self
            .smoothed
            .filter(|_| self.lowest.is_finite())
            .map(|s| Duration::from_micros((s - self.lowest).max(0.0) as u64));
        Metrics {
            cwnd: self.window(),
            ssthresh: self.w.ssthresh_bytes(),
            queuing_delay: queuing,
            // inference as the last ACK found it; else the Reno window's phase now (a loss or
            // timeout since that ACK may have moved it)
            state: if self.state == "inference" {
                "inference"
            } else {
                self.w.phase()
            },
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
                                               // The first 110 ms sample is a new record: d_max forgets it (stays at 10 ms).
        ack_owd(&mut c, t0 + Duration::from_millis(1), t0 - RTT, 110_000);
        assert_eq!(pkts(&c), 20.0);
        // The second one is not above the record: d_max = 110 ms; D~ = 33.4 ms > 10 + 15.
        let t1 = t0 + Duration::from_millis(2);
        ack_owd(&mut c, t1, t0 - RTT, 110_000);
        assert_eq!(pkts(&c), 10.0);
        assert!(c.in_inference(t1));
        assert_eq!(c.metrics().state, "inference");
        // Reset: d_min = D~ = 33.4 ms, d_max = D~ + (33.4 - 10 + 100 / 2) ms; the threshold
        // is now 44.4 ms. The next sample brings D~ to 43.0 ms: below, no new indication.
        ack_owd(&mut c, t1 + Duration::from_millis(5), t1, 110_000);
        assert_eq!(pkts(&c), 10.0);
        // The queue keeps growing inside the inference period: one packet.
        let t2 = t1 + Duration::from_millis(150);
        ack_owd(&mut c, t2, t1 + Duration::from_millis(10), 110_000);
        assert_eq!(pkts(&c), 1.0);
    }

    #[test]
    fn d_max_forgets_the_newest_record_like_linux() {
        // Linux tcp_lp "always forget the max of the max": a new record moves d_max to the
        // previous record, so one outlier does not stretch the range (with d_max = 1000,
        // the threshold would be 10 + 0.15 * 990 = 158.5 and 100 of queue never trips it).
        let mut c = lp(20.0);
        for (v, d_max) in [
            (10.0, 10.0),
            (20.0, 10.0),
            (1000.0, 20.0),
            (500.0, 500.0),
            (2000.0, 1000.0),
            (1500.0, 1500.0),
        ] {
            c.on_delay(v);
            assert_eq!(c.d_max, d_max, "after {v}");
        }
        assert_eq!(c.d_min, 10.0);
    }

    #[test]
    fn no_growth_during_inference_then_reno_growth() {
        let mut c = lp(20.0);
        let t0 = Instant::from_secs(1);
        ack_owd(&mut c, t0, t0 - RTT, 10_000);
        ack_owd(&mut c, t0, t0 - RTT, 110_000);
        ack_owd(&mut c, t0, t0 - RTT, 110_000);
        assert_eq!(pkts(&c), 10.0);
        // The delay levels off at 40 ms (below the reset threshold of 44.4 ms): no growth
        // inside 3 RTTs.
        for i in 0..40 {
            ack_owd(&mut c, t0 + Duration::from_millis(i), t0 - RTT, 40_000);
        }
        assert_eq!(pkts(&c), 10.0);
        // After the inference period: Reno avoidance, +1 packet per window of ACKs.
        let t1 = t0 + RTT * 4;
        assert!(!c.in_inference(t1));
        for _ in 0..10 {
            ack_owd(&mut c, t1, t1 - RTT, 40_000);
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
        // After the reset the threshold is 44.4 ms: one more 110 ms sample brings D~ to
        // 43.0 ms, the next to 51.4 ms, outside the inference period: halve, not one packet.
        let t1 = t0 + RTT * 5;
        ack_owd(&mut c, t1, t1 - RTT, 110_000);
        assert_eq!(pkts(&c), 20.0);
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
    fn losses_are_reno() {
        let mut c = lp(20.0);
        let t0 = Instant::from_secs(1);
        c.on_loss(t0, &loss(t0 - RTT, 20 * 1500));
        assert_eq!(pkts(&c), 10.0);
        c.on_timeout(t0 + RTT, Timeout::Retransmission);
        assert_eq!(pkts(&c), 1.0);
    }

    #[test]
    fn the_state_after_a_loss_or_timeout_is_the_windows_not_the_last_acks() {
        let mut c = TcpLp::new(TcpLpConfig::default().init_cwnd(20.0), MSS).unwrap();
        let t0 = Instant::from_secs(1);
        c.on_ack(t0, &ack_rtt(t0 - RTT, Some(RTT), 20 * 1500));
        assert_eq!(c.metrics().state, "slow-start");
        // loss: ssthresh = cwnd = max(flight / 2, 2 MSS) = 10 packets, avoidance at once
        c.on_loss(t0 + RTT, &loss(t0, 20 * 1500));
        assert_eq!(pkts(&c), 10.0);
        assert_eq!(c.metrics().state, "avoidance");
        // timeout: 1 packet below ssthresh, slow start before any ACK
        c.on_timeout(t0 + RTT * 3, Timeout::Retransmission);
        assert_eq!(c.metrics().state, "slow-start");
    }

    #[test]
    fn delays_are_relative_to_the_first_sample_and_empty_before_it() {
        let mut c = lp(20.0);
        assert_eq!(c.delays(), LpDelays::default());
        let t0 = Instant::from_secs(1);
        ack_owd(&mut c, t0, t0 - RTT, 10_000);
        ack_owd(&mut c, t0, t0 - RTT, 18_000);
        // v = 0 then 8000 us; D~ = 0 + (8000 - 0) / 8 = 1000; the 8000 record is forgotten
        // (d_max stays at the previous record, 0)
        let d = c.delays();
        assert_eq!(d.origin, Some(10_000));
        assert_eq!(d.smoothed, Some(1000.0));
        assert_eq!(
            (d.d_min, d.d_max, d.d_max_rsv),
            (Some(0.0), Some(0.0), Some(8000.0))
        );
        assert_eq!(d.lowest, Some(0.0));
        c.on_delay_source_change(t0);
        assert_eq!(c.delays(), LpDelays::default());
    }

    #[test]
    fn config_errors_name_the_field() {
        let e = TcpLp::new(TcpLpConfig::default().delta(1.5), MSS).unwrap_err();
        assert_eq!(e.field, "delta");
        let e = TcpLp::new(TcpLpConfig::default().alpha(0.0), MSS).unwrap_err();
        assert_eq!(e.field, "alpha");
    }
}
