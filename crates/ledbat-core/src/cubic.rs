//! CUBIC (RFC 9438), the Linux default TCP and seed 003's real-world foreground flow
//! (chapter 6: "we used the Cubic flavor of TCP, the default for Linux kernels").
//!
//! Windows in segments, time in seconds (from `now`):
//!
//! ```text
//! W_cubic(t) = C (t - K)^3 + W_max                        # RFC 9438 eq. (1)
//! K          = cbrt((W_max - cwnd_epoch) / C)             # eq. (2); = cbrt(W_max (1-beta)/C)
//!                                                         #   right after a loss reduction
//! per ACK in avoidance, t = now - t_epoch:
//!   target = clamp(W_cubic(t + RTT), cwnd, 1.5 cwnd)      # section 4.2
//!   W_est += alpha * segments_acked / cwnd                # section 4.3 (Reno-friendly)
//!     alpha = 3 (1 - beta) / (1 + beta), 1 once W_est >= cwnd_prior
//!   if W_cubic(t) < W_est: cwnd = W_est                   # Reno-friendly region
//!   else: cwnd += (target - cwnd) / cwnd * segments_acked # concave / convex, 4.4 and 4.5
//! on a congestion event (once per RTT):                   # section 4.6
//!   W_max = cwnd (1 + beta) / 2 if fast convergence and cwnd < W_max else cwnd   # 4.7
//!   ssthresh = max(flight_size * beta, 2); cwnd = ssthresh; a new epoch starts
//! on a retransmission timeout: as above for ssthresh and W_max, cwnd = 1 segment  # 4.8
//! ```
//!
//! C = 0.4 and beta_cubic = 0.7 (section 5). RTT is the smoothed RTT (RFC 6298). The epoch
//! (t_epoch, cwnd_epoch) begins at the first ACK in congestion avoidance after slow start or
//! a reduction; after a slow start that ended without a loss, W_max = cwnd_epoch and K = 0.
//! Slow start is RFC 5681's; with `hystart = "rfc9406"` HyStart++ (RFC 9406) leaves it on an
//! RTT increase into conservative slow start (state `css`), then sets ssthresh = cwnd; with
//! `hystart = "linux"` Linux CUBIC's HyStart sets ssthresh = cwnd on an ACK train or an RTT
//! increase over the connection's minimum ([`crate::hystart`] gives both and how they differ). ACKs of data sent
//! before the last reduction (loss recovery) do not grow the window. The increase is scaled by the
//! segments an ACK covers, so delayed or batched ACKs grow the window as per-packet ACKs do.

use crate::controller::{
    config_setters, Ack, Controller, ControllerFactory, Loss, Metrics, RttEstimator, Timeout,
};
use crate::error::{in_range, ConfigError};
use crate::hystart::{HyStart, HyStartKind, Phase, NON_PACED_L};
use crate::reno::RenoWindow;
use crate::time::Instant;
use serde::{Deserialize, Serialize};

/// CUBIC parameters.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct CubicConfig {
    /// Scaling constant C, segments per second cubed. Default 0.4 (RFC 9438 section 5).
    pub c: f64,
    /// Multiplicative decrease factor beta_cubic. Default 0.7 (RFC 9438 section 4.6).
    pub beta: f64,
    /// Fast convergence (RFC 9438 section 4.7). Default on.
    pub fast_convergence: bool,
    /// Reno-friendly region (RFC 9438 section 4.3). Default on.
    pub reno_friendly: bool,
    /// Initial window, packets. Default 2, as for [`crate::newreno::NewRenoConfig`] (ns-2's
    /// `windowInit_`; RFC 9438 defers to RFC 5681).
    pub init_cwnd: f64,
    /// Slow start at the start of the connection. Default on (RFC 9438 section 4.10 defers to
    /// RFC 5681); off starts in avoidance with W_max = the initial window.
    pub slow_start: bool,
    /// Initial slow-start threshold, packets. Default none (unbounded, RFC 5681 section 3.1).
    pub initial_ssthresh: Option<f64>,
    /// An early slow-start exit on delay: `rfc9406` (HyStart++, through conservative slow
    /// start, initial slow start only) or `linux` (Linux CUBIC's HyStart). Default `off`
    /// (RFC 5681 slow start, exit on loss or ssthresh only).
    pub hystart: HyStartKind,
}

impl Default for CubicConfig {
    fn default() -> Self {
        CubicConfig {
            c: 0.4,
            beta: 0.7,
            fast_convergence: true,
            reno_friendly: true,
            init_cwnd: 2.0,
            slow_start: true,
            initial_ssthresh: None,
            hystart: HyStartKind::Off,
        }
    }
}

config_setters!(CubicConfig {
    c: f64,
    beta: f64,
    fast_convergence: bool,
    reno_friendly: bool,
    init_cwnd: f64,
    slow_start: bool,
    initial_ssthresh: Option<f64>,
    hystart: HyStartKind,
});

impl ControllerFactory for CubicConfig {
    type Controller = Cubic;
    const NAME: &'static str = Cubic::NAME;
    fn validate(&self) -> Result<(), ConfigError> {
        let n = Self::NAME;
        in_range(n, "c", self.c, 1e-6, 1e3)?;
        if !(self.beta > 0.0 && self.beta < 1.0) {
            return Err(ConfigError::new(
                n,
                "beta",
                format!("must be in (0, 1), got {}", self.beta),
            ));
        }
        in_range(n, "init_cwnd", self.init_cwnd, 1.0, 1e6)?;
        if let Some(s) = self.initial_ssthresh {
            in_range(n, "initial_ssthresh", s, 2.0, 1e9)?;
        }
        Ok(())
    }
    fn compliance_notes(&self) -> Vec<String> {
        let mut v = Vec::new();
        if self.c != 0.4 {
            v.push(format!("C {} differs from RFC 9438's 0.4", self.c));
        }
        if self.beta != 0.7 {
            v.push(format!(
                "beta_cubic {} differs from RFC 9438's 0.7",
                self.beta
            ));
        }
        v
    }

    fn build(&self, mss: u32) -> Result<Cubic, ConfigError> {
        Cubic::new(*self, mss)
    }
}

/// The current congestion-avoidance epoch.
#[derive(Clone, Copy, Debug)]
struct Epoch {
    start: Instant,
    k: f64,
}

/// CUBIC's congestion window.
#[derive(Clone, Debug)]
pub struct Cubic {
    cfg: CubicConfig,
    w: RenoWindow,
    rtt: RttEstimator,
    /// Window before the last reduction, segments (`None` before any).
    w_max: Option<f64>,
    /// cwnd just before the last reduction, segments.
    cwnd_prior: f64,
    /// Reno-friendly estimate, segments.
    w_est: f64,
    epoch: Option<Epoch>,
    region: &'static str,
    /// The slow-start exit's state (`hystart` not `off`).
    hystart: Option<HyStart>,
}

impl Cubic {
    /// Registry name.
    pub const NAME: &'static str = "cubic";

    /// A controller for packets of `mss` bytes; fails on an invalid config.
    pub fn new(cfg: CubicConfig, mss: u32) -> Result<Self, ConfigError> {
        cfg.validate()?;
        let ssthresh = if cfg.slow_start {
            cfg.initial_ssthresh
        } else {
            Some(cfg.init_cwnd)
        };
        Ok(Cubic {
            w: RenoWindow::new(mss, cfg.init_cwnd, ssthresh),
            rtt: RttEstimator::default(),
            w_max: None,
            cwnd_prior: cfg.init_cwnd,
            w_est: cfg.init_cwnd,
            epoch: None,
            region: "slow-start",
            hystart: cfg.hystart.build().filter(|_| cfg.slow_start),
            cfg,
        })
    }

    /// The configuration in force.
    pub fn config(&self) -> &CubicConfig {
        &self.cfg
    }

    /// W_max in segments, once known.
    pub fn w_max(&self) -> Option<f64> {
        self.w_max
    }

    /// K of the current epoch in seconds, once an epoch has begun.
    pub fn k(&self) -> Option<f64> {
        self.epoch.map(|e| e.k)
    }

    /// W_cubic(t) in segments for `t` seconds into the current epoch.
    pub fn w_cubic(&self, t: f64) -> Option<f64> {
        let e = self.epoch?;
        Some(self.cfg.c * (t - e.k).powi(3) + self.w_max?)
    }

    fn segs(&self) -> f64 {
        self.w.cwnd / self.w.mss
    }

    fn alpha(&self) -> f64 {
        let b = self.cfg.beta;
        3.0 * (1.0 - b) / (1.0 + b)
    }

    fn begin_epoch(&mut self, now: Instant) {
        let cwnd = self.segs();
        let w_max = match self.w_max {
            Some(m) if m > cwnd => m,
            _ => {
                self.w_max = Some(cwnd);
                cwnd
            }
        };
        let k = ((w_max - cwnd) / self.cfg.c).cbrt();
        self.epoch = Some(Epoch { start: now, k });
        self.w_est = cwnd;
    }

    /// RFC 9438 section 4.6/4.7 bookkeeping common to losses and timeouts, given cwnd
    /// before the reduction (segments).
    fn congestion_event(&mut self, cwnd_before: f64) {
        self.w_max = Some(match self.w_max {
            Some(m) if self.cfg.fast_convergence && cwnd_before < m => {
                cwnd_before * (1.0 + self.cfg.beta) / 2.0
            }
            _ => cwnd_before,
        });
        self.cwnd_prior = cwnd_before;
        self.epoch = None;
    }
}

impl Controller for Cubic {
    fn name(&self) -> &'static str {
        Self::NAME
    }

    fn on_sent(&mut self, now: Instant, _bytes: u64, in_flight: u64) {
        self.w.on_sent(in_flight);
        if let Some(h) = &mut self.hystart {
            h.on_sent(now);
        }
    }

    fn on_ack(&mut self, now: Instant, ack: &Ack<'_>) {
        self.w.on_ack(ack);
        if let Some(r) = ack.rtt {
            self.rtt.on_sample(r);
            if let Some(h) = &mut self.hystart {
                h.on_rtt(r);
            }
        }
        if self.w.in_recovery() {
            return;
        }
        if self.w.in_slow_start() {
            let bytes = ack.bytes_acked as f64;
            let cwnd = self.segs();
            let rest = match self.hystart.as_mut() {
                Some(h) if h.phase() != Phase::Done => {
                    let phase = h.on_ack(now, ack.newest_sent, ack.rtt, cwnd);
                    self.region = if phase == Phase::Css {
                        "css"
                    } else {
                        "slow-start"
                    };
                    if phase == Phase::Done {
                        // RFC 9406 section 4.2 after CSS_ROUNDS; Linux on its exit.
                        self.w.ssthresh = self.w.cwnd;
                    }
                    match h {
                        HyStart::Rfc9406(_) => {
                            self.w
                                .slow_start_scaled(bytes, NON_PACED_L, phase.growth_factor())
                        }
                        HyStart::Linux(_) => self.w.slow_start(bytes),
                    }
                }
                _ => {
                    self.region = "slow-start";
                    self.w.slow_start(bytes)
                }
            };
            if rest <= 0.0 {
                return;
            }
        }
        if self.epoch.is_none() {
            self.begin_epoch(now);
        }
        let Some(epoch) = self.epoch else { return };
        let Some(w_max) = self.w_max else { return };
        let cwnd = self.segs();
        let acked = ack.bytes_acked as f64 / self.w.mss;
        let t = now.saturating_since(epoch.start).as_secs_f64();
        let rtt = self.rtt.srtt().map_or(0.0, |d| d.as_secs_f64());
        let c = self.cfg.c;
        let w_at = |t: f64| c * (t - epoch.k).powi(3) + w_max;
        let target = w_at(t + rtt).clamp(cwnd, 1.5 * cwnd);
        if self.cfg.reno_friendly {
            let alpha = if self.w_est >= self.cwnd_prior {
                1.0
            } else {
                self.alpha()
            };
            self.w_est += alpha * acked / cwnd;
            if w_at(t) < self.w_est {
                self.w.cwnd = self.w_est * self.w.mss;
                self.region = "reno-friendly";
                return;
            }
        }
        self.region = if t < epoch.k { "concave" } else { "convex" };
        self.w.cwnd += (target - cwnd) / cwnd * acked * self.w.mss;
    }

    fn on_loss(&mut self, now: Instant, loss: &Loss) {
        let before = self.segs();
        if self.w.on_loss_beta(now, loss, self.cfg.beta) {
            self.congestion_event(before);
            if let Some(h) = &mut self.hystart {
                h.on_congestion(false);
            }
        }
    }

    fn on_timeout(&mut self, now: Instant, kind: Timeout) {
        let before = self.segs();
        if self.w.on_timeout_beta(now, kind, self.cfg.beta) {
            self.congestion_event(before);
            if let Some(h) = &mut self.hystart {
                h.on_congestion(true);
            }
        } else {
            // Back-off timeouts and idle restarts start a new epoch from the current window
            // (an idle period must not count as growth time; Linux resets likewise).
            self.epoch = None;
        }
    }

    fn window(&self) -> u64 {
        self.w.window_at_least(self.w.mss)
    }

    fn metrics(&self) -> Metrics {
        Metrics {
            cwnd: self.window(),
            ssthresh: self.w.ssthresh_bytes(),
            state: self.region,
            gain: 1.0,
            ..Metrics::default()
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::newreno::testutil::*;
    use crate::time::Duration;

    fn avoidance(init: f64) -> Cubic {
        Cubic::new(
            CubicConfig::default().slow_start(false).init_cwnd(init),
            MSS,
        )
        .unwrap()
    }

    fn ack_at(c: &mut Cubic, now: Instant, rtt_ms: u64) {
        c.on_ack(
            now,
            &ack_rtt(
                now - Duration::from_millis(rtt_ms),
                Some(Duration::from_millis(rtt_ms)),
                1 << 30,
            ),
        );
    }

    #[test]
    fn loss_reduces_by_beta_and_k_matches_the_closed_form() {
        let mut c = avoidance(100.0);
        let t0 = Instant::from_secs(10);
        c.on_loss(t0, &loss(t0 - Duration::from_millis(50), 100 * 1500));
        assert_eq!(pkts(&c), 70.0);
        assert_eq!(c.w_max(), Some(100.0));
        ack_at(&mut c, t0 + Duration::from_millis(101), 100);
        // K = cbrt(100 * (1 - 0.7) / 0.4) = cbrt(75)
        let k = c.k().unwrap();
        assert!((k - 4.217_163_326_5).abs() < 1e-9, "K = {k}");
        // W(0) = 70, W(2) = 0.4 (2 - K)^3 + 100, W(5) just above W_max.
        assert!((c.w_cubic(0.0).unwrap() - 70.0).abs() < 1e-9);
        assert!((c.w_cubic(2.0).unwrap() - 95.640_335_686_6).abs() < 1e-9);
        assert!((c.w_cubic(5.0).unwrap() - 100.191_899_339_4).abs() < 1e-9);
    }

    #[test]
    fn window_follows_w_cubic_in_the_concave_region() {
        let mut c = avoidance(100.0);
        let t0 = Instant::from_secs(10);
        c.on_loss(t0, &loss(t0 - Duration::from_millis(50), 100 * 1500));
        let start = t0 + Duration::from_millis(101);
        ack_at(&mut c, start, 100);
        // ACKs at cwnd / RTT (about 700 per second) for 2 s: cwnd tracks W_cubic(t + RTT)
        // from below, lagging by about one RTT.
        let mut now = start;
        let step = Duration::from_micros(1_000_000 / 700);
        while now < start + Duration::from_secs(2) {
            now += step;
            ack_at(&mut c, now, 100);
        }
        let t = now.saturating_since(start).as_secs_f64();
        let w_t = c.w_cubic(t).unwrap();
        let w_next = c.w_cubic(t + 0.1).unwrap();
        let cwnd = c.window() as f64 / 1500.0;
        assert!(
            cwnd > w_t - 0.5 && cwnd <= w_next + 0.01,
            "cwnd {cwnd}, W(t) {w_t}, W(t+RTT) {w_next}"
        );
        assert_eq!(c.metrics().state, "concave");
    }

    #[test]
    fn target_growth_is_capped_at_half_the_window_per_rtt() {
        // Far into the convex region the target exceeds 1.5 cwnd; one ACK then grows the
        // window by (1.5 cwnd - cwnd) / cwnd = 0.5 segments.
        let mut c = avoidance(10.0);
        let t0 = Instant::from_secs(1);
        c.on_loss(t0, &loss(t0 - Duration::from_millis(1), 10 * 1500));
        // The first ACK of data sent after the reduction starts the epoch at cwnd 7.
        ack_at(&mut c, t0 + Duration::from_millis(101), 100);
        let before = c.w.cwnd / 1500.0;
        ack_at(&mut c, t0 + Duration::from_secs(60), 100);
        let after = c.w.cwnd / 1500.0;
        assert!((after - before - 0.5).abs() < 1e-9, "{before} -> {after}");
        assert_eq!(c.metrics().state, "convex");
    }

    #[test]
    fn fast_convergence_lowers_w_max_when_the_window_shrinks() {
        let mut c = avoidance(100.0);
        let t0 = Instant::from_secs(1);
        c.on_loss(t0, &loss(t0 - Duration::from_millis(1), 100 * 1500));
        assert_eq!(c.w_max(), Some(100.0));
        // Second event at cwnd 70 < W_max: W_max = 70 * 1.7 / 2 = 59.5.
        let t1 = t0 + Duration::from_secs(1);
        c.on_loss(t1, &loss(t1 - Duration::from_millis(1), 70 * 1500));
        assert!((c.w_max().unwrap() - 59.5).abs() < 1e-9);
        assert_eq!(pkts(&c), 49.0);
        let mut plain = Cubic::new(
            CubicConfig::default()
                .slow_start(false)
                .init_cwnd(100.0)
                .fast_convergence(false),
            MSS,
        )
        .unwrap();
        plain.on_loss(t0, &loss(t0 - Duration::from_millis(1), 100 * 1500));
        plain.on_loss(t1, &loss(t1 - Duration::from_millis(1), 70 * 1500));
        assert_eq!(plain.w_max(), Some(70.0));
    }

    #[test]
    fn one_reduction_per_round_trip() {
        let mut c = avoidance(100.0);
        let t0 = Instant::from_secs(1);
        c.on_loss(t0, &loss(t0 - Duration::from_millis(50), 100 * 1500));
        c.on_loss(
            t0 + Duration::from_millis(10),
            &loss(t0 - Duration::from_millis(40), 99 * 1500),
        );
        assert_eq!(pkts(&c), 70.0);
    }

    #[test]
    fn short_rtts_put_cubic_in_the_reno_friendly_region() {
        // RTT 1 ms: Reno gains 0.53 segment per ms while W_cubic barely moves.
        let mut c = avoidance(10.0);
        let t0 = Instant::from_secs(1);
        c.on_loss(t0, &loss(t0 - Duration::from_micros(500), 10 * 1500));
        let mut t = t0;
        for _ in 0..20 {
            t = round(&mut c, t, Duration::from_millis(1));
        }
        let start = c.epoch.unwrap().start;
        let w_cubic = c.w_cubic(t.saturating_since(start).as_secs_f64()).unwrap();
        let cwnd = c.w.cwnd / 1500.0;
        assert_eq!(c.metrics().state, "reno-friendly");
        assert!(cwnd > w_cubic + 5.0, "cwnd {cwnd} vs W_cubic {w_cubic}");
        // alpha_cubic = 3 * 0.3 / 1.7 until W_est reaches cwnd_prior (10), 1 after: about
        // 6 rounds at 0.53 and 14 at 1 from 7 segments.
        assert!((20.0..24.0).contains(&cwnd), "cwnd {cwnd}");
    }

    #[test]
    fn timeout_sets_the_loss_window_and_remembers_w_max() {
        let mut c = avoidance(50.0);
        c.on_sent(Instant::ZERO, 1500, 50 * 1500);
        c.on_timeout(Instant::from_secs(1), Timeout::Retransmission);
        assert_eq!(pkts(&c), 1.0);
        assert_eq!(c.w_max(), Some(50.0));
        assert_eq!(c.metrics().ssthresh, Some(35 * 1500));
    }

    proptest::proptest! {
        #[test]
        fn the_cubic_curve_starts_at_the_reduced_window_and_peaks_at_w_max(
            w in 4u32..5000,
            beta in 0.3f64..0.95,
            c_const in 0.05f64..2.0,
        ) {
            let cfg = CubicConfig::default().slow_start(false).init_cwnd(w as f64).beta(beta).c(c_const);
            let mut c = Cubic::new(cfg, MSS).unwrap();
            let t0 = Instant::from_secs(1);
            c.on_loss(t0, &loss(t0 - Duration::from_millis(1), w as u64 * 1500));
            ack_at(&mut c, t0 + Duration::from_millis(101), 100);
            let reduced = (w as f64 * beta).max(2.0);
            let k = c.k().unwrap();
            // K = cbrt((W_max - cwnd_epoch) / C); W(0) = cwnd_epoch, W(K) = W_max.
            proptest::prop_assert!((k - ((w as f64 - reduced) / c_const).cbrt()).abs() < 1e-9);
            proptest::prop_assert!((c.w_cubic(0.0).unwrap() - reduced).abs() < 1e-6 * w as f64);
            proptest::prop_assert!((c.w_cubic(k).unwrap() - w as f64).abs() < 1e-9 * w as f64);
        }
    }

    fn hystart(init: f64) -> Cubic {
        let cfg = CubicConfig::default().init_cwnd(init);
        Cubic::new(cfg.hystart(HyStartKind::Rfc9406), MSS).unwrap()
    }

    /// Rounds of 100, 100 and 120 ms from 10 packets: 10 -> 20 -> 40, then in the third
    /// round 7 ACKs at 1 packet (47), the eighth sample enters CSS (120 >= 100 + 12.5 ms)
    /// and it and the other 32 grow by a quarter each: 47 + 33 / 4 = 55.25 packets.
    fn into_css(c: &mut Cubic) -> Instant {
        let mut t = Instant::ZERO;
        for rtt in [100, 100, 120] {
            t = round(c, t, Duration::from_millis(rtt));
        }
        t
    }

    #[test]
    fn hystart_enters_css_on_an_rtt_increase() {
        let mut c = hystart(10.0);
        into_css(&mut c);
        assert_eq!(pkts(&c), 55.25);
        assert_eq!(c.metrics().state, "css");
        assert_eq!(c.metrics().ssthresh, None);
    }

    #[test]
    fn hystart_returns_to_slow_start_when_the_rtt_falls_back() {
        let mut c = hystart(10.0);
        let t = into_css(&mut c);
        // 55 ACKs at 110 ms < the 120 ms baseline: 7 in CSS (+1.75), from the eighth sample
        // slow start again (+48): 105 packets.
        round(&mut c, t, Duration::from_millis(110));
        assert_eq!(pkts(&c), 105.0);
        assert_eq!(c.metrics().state, "slow-start");
    }

    #[test]
    fn hystart_ends_css_in_avoidance_after_five_rounds() {
        let mut c = hystart(10.0);
        let mut t = into_css(&mut c);
        // CSS rounds 2-5 at a quarter per ACK: 55.25 + 55/4 = 69,
        // + 69/4 = 86.25, + 86/4 = 107.75, + 107/4 = 134.5.
        for expect in [69.0, 86.25, 107.75, 134.5] {
            t = round(&mut c, t, Duration::from_millis(120));
            assert_eq!(pkts(&c), expect);
            assert_eq!(c.metrics().state, "css");
        }
        // The first ACK of the next round: ssthresh = cwnd, a CUBIC epoch with W_max = cwnd.
        c.on_sent(t, 1500, 1500);
        let ms120 = Duration::from_millis(120);
        c.on_ack(t + ms120, &ack_rtt(t, Some(ms120), 1500));
        assert_eq!(c.metrics().ssthresh, Some(134 * 1500 + 750));
        assert_eq!(c.w_max(), Some(134.5));
        assert_ne!(c.metrics().state, "css");
    }

    #[test]
    fn hystart_needs_eight_samples_in_a_round() {
        // From 2 packets the RTT doubles in round 2, but 4 samples cannot end slow start.
        let mut c = hystart(2.0);
        let mut t = Instant::ZERO;
        for (rtt, expect) in [(100, 4.0), (200, 8.0)] {
            t = round(&mut c, t, Duration::from_millis(rtt));
            assert_eq!((pkts(&c), c.metrics().state), (expect, "slow-start"));
        }
        // Round 3 has 8 samples at 300 ms >= 200 + 16: the eighth enters CSS (7 + 1/4).
        round(&mut c, t, Duration::from_millis(300));
        assert_eq!((pkts(&c), c.metrics().state), (15.25, "css"));
    }

    #[test]
    fn without_hystart_slow_start_ignores_the_rtt_and_keeps_l_2() {
        let mut c = Cubic::new(CubicConfig::default().init_cwnd(10.0), MSS).unwrap();
        into_css(&mut c);
        assert_eq!((pkts(&c), c.metrics().state), (80.0, "slow-start"));
        // A stretch ACK of 4 segments: RFC 3465's L = 2 without HyStart++, RFC 9406's
        // non-paced L = 8 with it.
        for (mut c, grown) in [(c, 2.0), (hystart(80.0), 4.0)] {
            let t = Instant::from_secs(10);
            c.on_sent(t, 1500, 4 * 1500);
            let mut a = ack_rtt(t, Some(Duration::from_millis(100)), 4 * 1500);
            a.bytes_acked = 4 * 1500;
            a.packets_acked = 4;
            c.on_ack(t + Duration::from_millis(100), &a);
            assert_eq!(pkts(&c), 80.0 + grown);
        }
    }

    #[test]
    fn a_timeout_ends_hystart_for_the_connection() {
        let mut c = hystart(10.0);
        let t = into_css(&mut c);
        c.on_sent(t, 1500, 55 * 1500);
        c.on_timeout(t, Timeout::Retransmission);
        // Slow start again from 1 packet towards ssthresh 0.7 * 55 = 38.5; the fourth round
        // has 8 samples at twice the third's RTT and still doubles the window.
        let mut t = t;
        for rtt in [100, 200, 400, 800] {
            t = round(&mut c, t, Duration::from_millis(rtt));
        }
        assert_eq!((pkts(&c), c.metrics().state), (16.0, "slow-start"));
    }

    #[test]
    fn linux_hystart_goes_straight_to_avoidance() {
        // From 20 packets: 20 -> 40 -> 80 at 100 ms; at 120 ms (> 100 + 12.5) the ninth
        // sample of the third round exits at 88 packets: ssthresh = cwnd, W_max = 88, K = 0.
        let cfg = CubicConfig::default().init_cwnd(20.0);
        let mut c = Cubic::new(cfg.hystart(HyStartKind::Linux), MSS).unwrap();
        into_css(&mut c);
        assert_eq!(c.metrics().ssthresh, Some(88 * 1500));
        assert_eq!((c.w_max(), c.k()), (Some(88.0), Some(0.0)));
        assert_ne!(c.metrics().state, "css");
    }

    #[test]
    fn config_errors_name_the_field() {
        let cases = [
            (CubicConfig::default().c(0.0), "c"),
            (CubicConfig::default().beta(1.0), "beta"),
            (CubicConfig::default().init_cwnd(f64::INFINITY), "init_cwnd"),
        ];
        for (cfg, field) in cases {
            assert_eq!(Cubic::new(cfg, MSS).unwrap_err().field, field);
        }
        assert!(CubicConfig::default().compliance_notes().is_empty());
    }
}
