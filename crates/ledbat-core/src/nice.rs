//! TCP Nice (Venkataramani, Kokku & Dahlin, "TCP Nice: a mechanism for background
//! transfers", OSDI 2002), one of seed 003's lower-than-best-effort references (section
//! 3.1.4, equation 3.3; algorithms.md section 6).
//!
//! Vegas (see [`crate::vegas`]) plus an early congestion detector. With `rtt_min` and
//! `rtt_max` the extreme RTT samples seen so far, a sample is *congested* when
//!
//! ```text
//! rtt > rtt_min + (rtt_max - rtt_min) * threshold          # eq. (3.3), threshold = 0.2
//! ```
//!
//! and once per round trip:
//!
//! ```text
//! if congested_samples > fraction * samples:  cwnd = cwnd / 2      # fraction = 0.5
//! else:                                       Vegas's rule
//! ```
//!
//! The window may fall below one packet, down to `min_cwnd` (a fraction of a packet): the
//! sender then keeps one packet in flight and, after each send, pauses for `1 / cwnd`
//! smoothed RTTs ([`Controller::pause_until`], with [`Controller::next_tick`] waking the
//! driver), so it averages `cwnd` packets per RTT. The Nice prototype waits the matching
//! number of RTTs and then sends two packets (Linux's two-packet minimum); one packet every
//! `1 / cwnd` RTTs is the same average rate (seed 003: "sending one packet after waiting for
//! the appropriate number of RTTs"). Losses and timeouts are Reno's, except that they never
//! raise a sub-packet window.
//!
//! `rtt_max` is the largest RTT sample seen, as in the Nice paper ("maxRTT as an estimate
//! of the round trip time when the bottleneck queue is full", design section); neither the paper
//! nor seed 003 gives another initialisation, and the thesis' own ns-2 NICE is not
//! published. Consequence: a NICE flow *alone* never sees a full queue (Vegas keeps 2-4
//! packets queued and its slow start leaves at one), so `rtt_max - rtt_min` is a few
//! packets' serialisation (plus any jitter), the threshold sits within one packet of
//! `rtt_min`, Vegas's own queue reads as congestion and the window halves to `min_cwnd`.
//! The thesis never runs NICE alone: Fig. 3.6 always has a NewReno flow, which fills the
//! buffer. Its Fig. 3.2 (g) (two NICE flows near capacity) is not reproduced by this
//! reading; an `rtt_max` seeded with the full-buffer RTT would be a different controller,
//! not the source's. Figures: `docs/controllers-notes.md`, "nice".
//!
//! `min_cwnd` = 1/48: the value is given in the paper's prototype section ("We limit the minimum
//! window size to ... in our prototype"); in the stored HTML copy the number is an image,
//! so 1/48 is from memory of the PDF and unverified here.

use crate::controller::{
    config_setters, Ack, Controller, ControllerFactory, Loss, Metrics, Timeout,
};
use crate::error::{in_range, ConfigError};
use crate::time::{Duration, Instant};
use crate::vegas::{VegasConfig, VegasCore};
use serde::{Deserialize, Serialize};

/// NICE parameters.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct NiceConfig {
    /// Position of the congestion threshold between `rtt_min` and `rtt_max`. Default 0.2
    /// (seed 003 section 3.1.4: "delta = 0.2 ... as in \[81\]").
    pub threshold: f64,
    /// Fraction of a round's samples that must be congested to halve. Default 0.5 (seed
    /// 003 section 3.1.4: "phi = 0.5").
    pub fraction: f64,
    /// Smallest window, packets. Default 1/48, the limit of the Nice prototype
    /// (Venkataramani et al. section 4; seed 003 gives no value).
    pub min_cwnd: f64,
    /// Vegas's lower bound on queued packets. Default 2 (see [`VegasConfig::alpha`]).
    pub alpha: f64,
    /// Vegas's upper bound on queued packets. Default 4 (see [`VegasConfig::beta`]).
    pub beta: f64,
    /// Vegas's slow-start exit threshold. Default 1 (see [`VegasConfig::gamma`]).
    pub gamma: f64,
    /// Vegas's every-other-RTT slow start. Default on (see [`VegasConfig::vegas_slow_start`]).
    pub vegas_slow_start: bool,
    /// Initial window, packets. Default 2 (see [`VegasConfig::init_cwnd`]).
    pub init_cwnd: f64,
    /// Slow start at the start of the connection. Default on; seed 003 section 3.2.3 turns
    /// it off.
    pub slow_start: bool,
}

impl Default for NiceConfig {
    fn default() -> Self {
        NiceConfig::from_vegas(0.2, 0.5, 1.0 / 48.0, VegasConfig::default())
    }
}

config_setters!(NiceConfig {
    threshold: f64,
    fraction: f64,
    min_cwnd: f64,
    alpha: f64,
    beta: f64,
    gamma: f64,
    vegas_slow_start: bool,
    init_cwnd: f64,
    slow_start: bool,
});

impl NiceConfig {
    fn from_vegas(threshold: f64, fraction: f64, min_cwnd: f64, v: VegasConfig) -> Self {
        NiceConfig {
            threshold,
            fraction,
            min_cwnd,
            alpha: v.alpha,
            beta: v.beta,
            gamma: v.gamma,
            vegas_slow_start: v.vegas_slow_start,
            init_cwnd: v.init_cwnd,
            slow_start: v.slow_start,
        }
    }
    /// The Vegas part of this configuration.
    pub fn vegas_config(&self) -> VegasConfig {
        VegasConfig {
            alpha: self.alpha,
            beta: self.beta,
            gamma: self.gamma,
            vegas_slow_start: self.vegas_slow_start,
            init_cwnd: self.init_cwnd,
            slow_start: self.slow_start,
        }
    }
    /// Sets every Vegas field from `v`.
    pub fn vegas(self, v: VegasConfig) -> Self {
        NiceConfig::from_vegas(self.threshold, self.fraction, self.min_cwnd, v)
    }
}

impl ControllerFactory for NiceConfig {
    type Controller = Nice;
    const NAME: &'static str = Nice::NAME;
    fn validate(&self) -> Result<(), ConfigError> {
        let n = Self::NAME;
        in_range(n, "threshold", self.threshold, 0.0, 1.0)?;
        in_range(n, "fraction", self.fraction, 0.0, 1.0)?;
        in_range(n, "min_cwnd", self.min_cwnd, 1e-3, 2.0)?;
        self.vegas_config().validate_as(n)
    }

    fn build(&self, mss: u32) -> Result<Nice, ConfigError> {
        Nice::new(*self, mss)
    }
}

/// TCP Nice.
#[derive(Clone, Debug)]
pub struct Nice {
    cfg: NiceConfig,
    core: VegasCore,
    rtt_min: Option<Duration>,
    rtt_max: Option<Duration>,
    samples: u32,
    congested: u32,
    pause: Option<Instant>,
}

impl Nice {
    /// Registry name.
    pub const NAME: &'static str = "nice";

    /// A controller for packets of `mss` bytes; fails on an invalid config.
    pub fn new(cfg: NiceConfig, mss: u32) -> Result<Self, ConfigError> {
        cfg.validate()?;
        Ok(Nice {
            core: VegasCore::new(cfg.vegas_config(), mss, cfg.min_cwnd),
            cfg,
            rtt_min: None,
            rtt_max: None,
            samples: 0,
            congested: 0,
            pause: None,
        })
    }

    /// The configuration in force.
    pub fn config(&self) -> &NiceConfig {
        &self.cfg
    }

    /// Window in packets, fractional (may be below one).
    pub fn cwnd_packets(&self) -> f64 {
        self.core.w.cwnd / self.core.w.mss
    }

    fn congested_sample(&self, r: Duration) -> bool {
        let (Some(lo), Some(hi)) = (self.rtt_min, self.rtt_max) else {
            return false;
        };
        let thr = lo.as_secs_f64() + (hi - lo).as_secs_f64() * self.cfg.threshold;
        r.as_secs_f64() > thr
    }
}

impl Controller for Nice {
    fn name(&self) -> &'static str {
        Self::NAME
    }

    fn on_sent(&mut self, now: Instant, _bytes: u64, in_flight: u64) {
        self.core.on_sent(now, in_flight);
        let w = &self.core.w;
        if w.cwnd < w.mss {
            if let Some(srtt) = self.core.srtt.srtt() {
                self.pause = Some(now + srtt.mul_f64(w.mss / w.cwnd));
            }
        }
    }

    fn on_ack(&mut self, now: Instant, ack: &Ack<'_>) {
        if let Some(r) = ack.rtt {
            self.rtt_min = Some(self.rtt_min.map_or(r, |m| m.min(r)));
            self.rtt_max = Some(self.rtt_max.map_or(r, |m| m.max(r)));
            self.samples += 1;
            if self.congested_sample(r) {
                self.congested += 1;
            }
        }
        if let Some(end) = self.core.on_ack(now, ack) {
            let congested = !end.in_recovery
                && self.samples > 0
                && self.congested as f64 > self.cfg.fraction * self.samples as f64;
            if congested {
                let w = &mut self.core.w;
                w.cwnd = (w.cwnd / 2.0).max(self.core.min_cwnd);
                w.ssthresh = w.cwnd;
                w.mark_reduction(now);
            } else {
                self.core.vegas_update(end);
            }
            self.samples = 0;
            self.congested = 0;
        }
        if self.core.w.cwnd >= self.core.w.mss {
            self.pause = None;
        }
    }

    fn on_loss(&mut self, now: Instant, loss: &Loss) {
        let before = self.core.w.cwnd;
        if self.core.w.on_loss(now, loss) {
            let w = &mut self.core.w;
            w.cwnd = w.cwnd.min((before / 2.0).max(self.core.min_cwnd));
            w.ssthresh = w.cwnd;
        }
    }

    fn on_timeout(&mut self, now: Instant, kind: Timeout) {
        let before = self.core.w.cwnd;
        self.core.w.on_timeout(now, kind);
        let w = &mut self.core.w;
        w.cwnd = w.cwnd.min(before.max(self.core.min_cwnd));
    }

    fn window(&self) -> u64 {
        self.core.w.window_at_least(self.core.w.mss)
    }

    fn pause_until(&self) -> Option<Instant> {
        self.pause
    }

    fn next_tick(&self) -> Option<Instant> {
        self.pause
    }

    fn on_tick(&mut self, now: Instant) {
        if self.pause.is_some_and(|p| now >= p) {
            self.pause = None;
        }
    }

    fn metrics(&self) -> Metrics {
        let w = &self.core.w;
        let state = if w.cwnd < w.mss { "pause" } else { w.phase() };
        self.core.metrics(state, self.window())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::newreno::testutil::*;

    const BASE: Duration = Duration::from_millis(100);
    const SLOW: Duration = Duration::from_millis(200);

    fn nice(init: f64) -> Nice {
        let v = VegasConfig::default().slow_start(false).init_cwnd(init);
        Nice::new(NiceConfig::default().vegas(v), MSS).unwrap()
    }

    #[test]
    fn behaves_like_vegas_without_congestion() {
        let mut c = nice(10.0);
        let mut t = Instant::ZERO;
        for _ in 0..3 {
            t = round(&mut c, t, BASE);
        }
        assert_eq!(pkts(&c), 13.0);
        assert_eq!(c.metrics().state, "avoidance");
    }

    #[test]
    fn halves_when_most_samples_of_a_round_exceed_the_threshold() {
        let mut c = nice(20.0);
        let t = round(&mut c, Instant::ZERO, BASE);
        // The first slow round still holds the base-RTT samples (1 congested of 21): Vegas.
        let t = round(&mut c, t, SLOW);
        let w1 = pkts(&c);
        // Next round: every sample at 200 ms > 100 + 0.2 * 100 ms: halve (Vegas alone
        // would take one packet).
        round(&mut c, t, SLOW);
        assert_eq!(pkts(&c), w1 / 2.0);
    }

    /// A round of 20 samples of which `slow` see 200 ms (rtt_min 100 ms, rtt_max 200 ms
    /// already known); returns the window before and after the round closes.
    fn mixed_round(slow: usize) -> (f64, f64) {
        let mut c = nice(20.0);
        let mut t = round(&mut c, Instant::ZERO, BASE);
        t = round(&mut c, t, SLOW); // rtt_max = 200 ms
        t = round(&mut c, t, BASE);
        // This ACK closes the previous round; the next 20 samples form the round under test.
        c.on_sent(t, MSS as u64, MSS as u64);
        t += BASE;
        c.on_ack(t, &ack_rtt(t - BASE, Some(BASE), MSS as u64));
        for i in 0..20 {
            let rtt = if i < slow { SLOW } else { BASE };
            c.on_ack(t, &ack_rtt(t - BASE - BASE, Some(rtt), MSS as u64));
        }
        let before = c.cwnd_packets();
        // A packet sent now, acknowledged at base RTT, closes the round under test.
        c.on_sent(t, MSS as u64, MSS as u64);
        c.on_ack(t + BASE, &ack_rtt(t, Some(BASE), MSS as u64));
        (before, c.cwnd_packets())
    }

    #[test]
    fn a_minority_of_congested_samples_is_not_congestion() {
        // 10 of 21 samples congested: not more than half, Vegas adds a packet.
        let (before, after) = mixed_round(10);
        assert_eq!(after, before + 1.0);
        // 11 of 21: more than half, halve.
        let (before, after) = mixed_round(11);
        assert_eq!(after, before / 2.0);
    }

    #[test]
    fn window_drops_below_one_packet_and_paces_one_packet_every_k_rtts() {
        let mut c = nice(2.0);
        let mut t = round(&mut c, Instant::ZERO, BASE);
        t = round(&mut c, t, SLOW);
        // One packet per round, each acknowledged after 200 ms: every round is congested.
        let mut seen = Vec::new();
        for _ in 0..9 {
            let now = c.pause_until().map_or(t, |p| p.max(t));
            c.on_tick(now);
            assert_eq!(c.pause_until(), None);
            c.on_sent(now, MSS as u64, MSS as u64);
            let cw = c.cwnd_packets();
            if cw < 1.0 {
                // Paused for 1/cwnd smoothed RTTs after the send, with a tick to wake up.
                let p = c.pause_until().expect("pausing below one packet");
                assert_eq!(c.next_tick(), Some(p));
                let k = p.saturating_since(now).as_secs_f64()
                    / c.core.srtt.srtt().unwrap().as_secs_f64();
                assert!((k - 1.0 / cw).abs() < 1e-6, "k = {k}, cwnd = {cw}");
                c.on_tick(p - Duration::from_millis(1));
                assert_eq!(c.pause_until(), Some(p));
            }
            t = now + SLOW;
            c.on_ack(t, &ack_rtt(now, Some(SLOW), MSS as u64));
            if c.cwnd_packets() < 1.0 {
                assert_eq!(c.window(), MSS as u64, "window is at least one packet");
            }
            seen.push(c.cwnd_packets());
        }
        assert_eq!(c.metrics().state, "pause");
        // Halving each round to the 1/48 floor.
        let floor = 1.0 / 48.0;
        assert!((seen[seen.len() - 1] - floor).abs() < 1e-12, "{seen:?}");
        assert!(
            seen.windows(2).all(|w| w[1] == (w[0] / 2.0).max(floor)),
            "{seen:?}"
        );
    }

    #[test]
    fn losses_halve_like_reno_but_never_raise_a_sub_packet_window() {
        let mut c = nice(20.0);
        let t0 = Instant::from_secs(1);
        c.on_loss(t0, &loss(t0 - BASE, 20 * 1500));
        assert_eq!(pkts(&c), 10.0);
        let mut small = nice(2.0);
        small.core.w.cwnd = 0.25 * 1500.0;
        small.on_loss(t0, &loss(t0 - BASE, 1500));
        assert!((small.cwnd_packets() - 0.125).abs() < 1e-12);
        small.on_timeout(t0 + BASE, Timeout::Retransmission);
        assert!((small.cwnd_packets() - 0.125).abs() < 1e-12);
    }

    #[test]
    fn config_errors_name_the_field() {
        let e = Nice::new(NiceConfig::default().threshold(1.5), MSS).unwrap_err();
        assert_eq!(e.field, "threshold");
        let e = Nice::new(
            NiceConfig::default().vegas(VegasConfig::default().alpha(9.0)),
            MSS,
        )
        .unwrap_err();
        assert_eq!(e.field, "beta");
        let e = Nice::new(NiceConfig::default().min_cwnd(0.0), MSS).unwrap_err();
        assert_eq!(e.field, "min_cwnd");
    }
}
