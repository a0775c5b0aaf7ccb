//! Receiver-driven LEDBAT (rLEDBAT, docs/algorithms.md section 9): the receiving side of a
//! connection limits the window it advertises (`wnd_size`, BEP 29) to a congestion window
//! `rcwnd` of its own, driven by the queuing delay of the data it receives, so that any
//! uTP sender that honours `wnd_size` (libutp, libtorrent, Transmission) yields to other
//! traffic on the receiver's link whatever its own controller.
//!
//! Measurement: each DATA packet gives a one-way-delay sample, our clock at receipt minus
//! the packet's timestamp (offset by the difference of the two clocks, which the base
//! cancels); the queuing delay is the current filter minus the base, from
//! [`ledbat_core::DelayEstimator`] as the senders' LEDBAT uses it. The round-trip time
//! that paces the per-RTT rules is the sum of the two one-way delays the headers carry:
//! the peer's `timestamp_difference` (our STATE to it) and the sample above (its DATA to
//! us); the clock offset has opposite signs in the two and cancels. Its minimum over the
//! connection is the base RTT.
//!
//! The window follows LEDBAT++ (docs/algorithms.md section 7), as the draft specifies, with
//! its per-RTT rules spread over the packets of one window (each received packet of `b`
//! bytes applies `b / rcwnd` of the per-RTT step):
//!
//! - `GAIN = 1 / min(16, ceil(2 TARGET / base_rtt))`;
//! - slow start from [`INITIAL_PACKETS`]: `rcwnd += GAIN b`, until `qd > 3/4 TARGET`;
//! - then per RTT: `rcwnd += GAIN` packets when `qd <= TARGET`, else
//!   `rcwnd += max(GAIN - rcwnd (qd / TARGET - 1), -rcwnd / 2)` packets;
//! - a lost packet (a gap in the sequence, or a retransmitted duplicate) halves `rcwnd`,
//!   at most once per RTT;
//! - periodic slowdowns: 2 RTTs after slow start ends, `rcwnd` is held at 2 packets for 2
//!   RTTs (the queue drains, the base is measured again), then slow start climbs back to
//!   the window before; the next slowdown comes 9 times the last one's duration (from the
//!   hold's start to the end of the climb back) after the climb ends, so that slowdowns
//!   take about a tenth of the time (LEDBAT++ draft-01 section 4.4; ledbat-core's
//!   `slowdown.rs` measures its slowdowns the same way);
//! - `rcwnd` never falls below 2 packets.
//!
//! **Restart** (`empty_queue_restart`, off by default: our extension, not the draft's; the
//! sender's rule of ledbat-core's `slow_start.rs`, whose helpers this uses): in congestion
//! avoidance, once the queuing delay has stayed at or below
//! `eta = clamp(base_rtt / 8, 4 ms, 16 ms)` (RFC 9406 section 4.2's thresholds) for one RTT,
//! slow start again: `rcwnd += GAIN b` from the packet that finds it due, until
//! `qd > 3/4 TARGET` or a loss; the slowdown scheduled before stays scheduled (one due
//! meanwhile starts at the first packet after the restart ends). Without it, a window
//! left at the floor by a loss-based download that filled the queue grows GAIN packets per
//! RTT once that download leaves: `(0.9 P - 2) / GAIN` RTTs to 90 % of a path of P packets
//! (docs/tcp/README.md, "What the draft cannot reach"); with it, `ln(0.9 P / 2) /
//! ln(1 + GAIN)` RTTs after the first RTT of empty queue. The growth is the draft's own
//! slow start at full speed (the sender's restart grows a quarter as fast: 31 RTTs rather
//! than 9 at a base RTT of 100 ms on 10 Mbit/s); its overshoot is that of the draft's
//! initial slow start. The clock runs only in avoidance: a slowdown's hold and its climb
//! back empty the queue on purpose, and neither counts (nor does an empty queue that began
//! before the slowdown).

use ledbat_core::slow_start::{empty_queue_threshold, SlowStart, SlowStartRules};
use ledbat_core::{DelayConfig, DelayEstimator, DelaySample, Duration, Instant};

/// `rcwnd` at the start, packets.
pub const INITIAL_PACKETS: u64 = 10;
/// Smallest `rcwnd`, packets.
pub const MIN_PACKETS: u64 = 2;

/// rLEDBAT's parameters.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct RledbatConfig {
    /// Queuing-delay target. Default 60 ms (LEDBAT++'s, which the draft adopts).
    pub target: Duration,
    /// Periodic slowdowns. Default on (the draft's way of keeping the base delay true).
    pub slowdowns: bool,
    /// Slow start again after one RTT of empty queue in avoidance (see the module comment).
    /// Default off (the draft has no such rule).
    pub empty_queue_restart: bool,
}

impl Default for RledbatConfig {
    fn default() -> Self {
        RledbatConfig {
            target: Duration::from_millis(60),
            slowdowns: true,
            empty_queue_restart: false,
        }
    }
}

/// Where the window is in its cycle.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Phase {
    /// Growing by `GAIN` per byte until `limit` (bytes) or the delay says stop.
    SlowStart { limit: Option<u64> },
    /// LEDBAT++'s delay-based increase and decrease; a slowdown starts at `slowdown_at`.
    Avoidance { slowdown_at: Option<Instant> },
    /// A restart (`empty_queue_restart`): slow start until the delay says stop, then back
    /// to avoidance with the slowdown scheduled before.
    Restart { slowdown_at: Option<Instant> },
    /// Held at the minimum until `until`; then slow start back to `resume` bytes.
    Slowdown {
        started: Instant,
        until: Instant,
        resume: u64,
    },
}

/// The receive-side controller of one connection.
#[derive(Debug)]
pub struct Rledbat {
    cfg: RledbatConfig,
    mss: u64,
    rcwnd: f64,
    phase: Phase,
    delay: DelayEstimator,
    base_rtt: Option<Duration>,
    rtt: Option<Duration>,
    last_halving: Option<Instant>,
    /// Duration of the last slowdown (hold and climb back), for the spacing of the next.
    last_slowdown: Duration,
    /// When the slowdown whose slow start back is running began (None: no such climb).
    slowdown_started: Option<Instant>,
    /// The empty-queue clock of `empty_queue_restart`.
    restart: SlowStart,
}

impl Rledbat {
    /// A controller for packets of up to `mss` payload bytes.
    pub fn new(cfg: RledbatConfig, mss: u64) -> Self {
        Rledbat {
            cfg,
            mss,
            rcwnd: (INITIAL_PACKETS * mss) as f64,
            phase: Phase::SlowStart { limit: None },
            delay: DelayEstimator::new(DelayConfig::default()),
            base_rtt: None,
            rtt: None,
            last_halving: None,
            last_slowdown: Duration::ZERO,
            slowdown_started: None,
            restart: SlowStart::new(SlowStartRules {
                conservative: false,
                restart: cfg.empty_queue_restart,
            }),
        }
    }

    /// The window to advertise, bytes.
    pub fn window(&self) -> u64 {
        self.rcwnd as u64
    }

    /// Queuing delay of the incoming data, once measured.
    pub fn queuing_delay(&self) -> Option<Duration> {
        self.delay.queuing_delay()
    }

    /// The round-trip time estimate (last sample), once measured.
    pub fn rtt(&self) -> Option<Duration> {
        self.rtt
    }

    fn min_window(&self) -> f64 {
        (MIN_PACKETS * self.mss) as f64
    }

    /// The RTT the per-RTT rules use: the last sample, else a guess of 100 ms.
    fn round(&self) -> Duration {
        self.rtt.unwrap_or(Duration::from_millis(100))
    }

    /// `eta` of the restart: the queuing delay up to which the queue counts as empty.
    fn eta(&self) -> Duration {
        empty_queue_threshold(self.base_rtt)
    }

    fn gain(&self) -> f64 {
        let base = self.base_rtt.unwrap_or(self.round()).as_nanos().max(1);
        let ratio = (2 * self.cfg.target.as_nanos()).div_ceil(base);
        1.0 / ratio.clamp(1, 16) as f64
    }

    /// One DATA packet of `bytes` payload bytes received at `now`: `owd` is our clock at
    /// receipt minus its timestamp, `reverse` the peer's `timestamp_difference` (0 when it
    /// has none yet).
    pub fn on_data(&mut self, now: Instant, bytes: u64, owd: u32, reverse: u32) {
        self.delay.on_sample(now, DelaySample(owd));
        if reverse != 0 {
            // Sum of the two one-way delays: the clock offset cancels. Implausible sums
            // (a peer's clock stepping) are ignored.
            let us = owd.wrapping_add(reverse) as i32;
            if (0..10_000_000).contains(&us) {
                let r = Duration::from_micros(us as u64);
                self.rtt = Some(r);
                self.base_rtt = Some(self.base_rtt.map_or(r, |b| b.min(r)));
            }
        }
        let Some(qd) = self.delay.queuing_delay() else {
            return;
        };
        let target = self.cfg.target.as_nanos() as f64;
        let qd_ratio = qd.as_nanos() as f64 / target;
        let gain = self.gain();
        let mss = self.mss as f64;
        let b = bytes as f64;
        if !matches!(self.phase, Phase::Avoidance { .. }) {
            self.restart.not_avoiding();
        }
        match self.phase {
            Phase::SlowStart { limit } => {
                if qd_ratio > 0.75 || limit.is_some_and(|l| self.rcwnd >= l as f64) {
                    self.enter_avoidance(now);
                } else {
                    self.rcwnd += gain * b;
                }
            }
            Phase::Avoidance { slowdown_at } => {
                if slowdown_at.is_some_and(|t| now >= t) {
                    let hold = self.round() * 2;
                    self.phase = Phase::Slowdown {
                        started: now,
                        until: now + hold,
                        resume: self.rcwnd as u64,
                    };
                    self.rcwnd = self.min_window();
                    self.restart.not_avoiding();
                    return;
                }
                let eta = self.eta();
                if self
                    .restart
                    .restart_due(now, qd, eta, self.round(), self.rcwnd, mss)
                {
                    self.phase = Phase::Restart { slowdown_at };
                    self.rcwnd += gain * b;
                    return;
                }
                // The per-RTT step in packets, applied in proportion b / rcwnd.
                let w = self.rcwnd / mss;
                let step = if qd_ratio <= 1.0 {
                    gain
                } else {
                    (gain - w * (qd_ratio - 1.0)).max(-w / 2.0)
                };
                self.rcwnd += step * mss * b / self.rcwnd;
            }
            Phase::Restart { slowdown_at } => {
                if qd_ratio > 0.75 {
                    self.end_restart(slowdown_at);
                } else {
                    self.rcwnd += gain * b;
                }
            }
            Phase::Slowdown {
                started,
                until,
                resume,
            } => {
                if now >= until {
                    self.slowdown_started = Some(started);
                    self.phase = Phase::SlowStart {
                        limit: Some(resume),
                    };
                }
            }
        }
        self.rcwnd = self.rcwnd.max(self.min_window());
    }

    /// A restart ends (on delay or a loss): avoidance, the slowdown schedule kept.
    fn end_restart(&mut self, slowdown_at: Option<Instant>) {
        self.restart.ended();
        self.phase = Phase::Avoidance { slowdown_at };
    }

    fn enter_avoidance(&mut self, now: Instant) {
        if let Some(started) = self.slowdown_started.take() {
            self.last_slowdown = now.saturating_since(started);
        }
        let slowdown_at = self.cfg.slowdowns.then(|| {
            if self.last_slowdown.is_zero() {
                // First slowdown: 2 RTTs after the initial slow start ends.
                now + self.round() * 2
            } else {
                now + self.last_slowdown * 9
            }
        });
        self.phase = Phase::Avoidance { slowdown_at };
    }

    /// A packet was lost on the way to us (a gap opened, or a retransmission arrived):
    /// halve the window, once per RTT.
    pub fn on_loss(&mut self, now: Instant) {
        if self
            .last_halving
            .is_some_and(|t| now.saturating_since(t) < self.round())
        {
            return;
        }
        self.last_halving = Some(now);
        self.rcwnd = (self.rcwnd / 2.0).max(self.min_window());
        match self.phase {
            Phase::SlowStart { .. } => self.enter_avoidance(now),
            Phase::Restart { slowdown_at } => self.end_restart(slowdown_at),
            _ => {}
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const MSS: u64 = 1000;

    /// Wire value of a one-way delay of `ms` (plus an arbitrary clock offset).
    fn owd(ms: u64) -> u32 {
        0x8000_0000u32.wrapping_add((ms * 1000) as u32)
    }
    /// The reverse sample that makes the RTT `rtt_ms` with a forward delay of `fwd_ms`.
    fn rev(rtt_ms: u64, fwd_ms: u64) -> u32 {
        ((rtt_ms * 1000) as u32).wrapping_sub(owd(fwd_ms))
    }

    /// Feeds empty samples until the current-delay filter (minimum of the last 4) holds
    /// only `fwd_ms`: the window does not move on 0 bytes.
    fn hold_delay(r: &mut Rledbat, t: Instant, fwd_ms: u64, rtt_ms: u64) {
        for _ in 0..4 {
            r.on_data(t, 0, owd(fwd_ms), rev(rtt_ms, fwd_ms));
        }
    }

    fn cfg() -> RledbatConfig {
        RledbatConfig {
            target: Duration::from_millis(60),
            slowdowns: false,
            empty_queue_restart: false,
        }
    }

    #[test]
    fn slow_start_grows_by_gain_per_byte_until_three_quarters_of_target() {
        let mut r = Rledbat::new(cfg(), MSS);
        assert_eq!(r.window(), 10_000);
        let t = Instant::from_secs(1);
        // Base delay 10 ms; RTT 40 ms: GAIN = 1 / min(16, ceil(120 / 40)) = 1/3.
        r.on_data(t, MSS, owd(10), rev(40, 10));
        assert_eq!(r.rtt(), Some(Duration::from_millis(40)));
        // 3 000 bytes at GAIN 1/3: + 1 000 (the first packet grew it by 333 already).
        for _ in 0..3 {
            r.on_data(t, MSS, owd(10), rev(40, 10));
        }
        assert_eq!(r.window(), 10_000 + 1_333);
        // Queuing delay 44 ms < 45 (3/4 of 60): still slow start.
        hold_delay(&mut r, t, 54, 84);
        assert!(matches!(r.phase, Phase::SlowStart { .. }));
        // 46 ms > 45: slow start ends, the window stays.
        hold_delay(&mut r, t, 56, 86);
        assert_eq!(r.window(), 11_333);
        assert!(matches!(r.phase, Phase::Avoidance { .. }));
    }

    /// A controller in avoidance with a window of `w` bytes, base delay 10 ms, RTT 40 ms.
    fn in_avoidance(w: u64) -> Rledbat {
        let mut r = Rledbat::new(cfg(), MSS);
        let t = Instant::from_secs(1);
        r.on_data(t, 0, owd(10), rev(40, 10));
        r.rcwnd = w as f64;
        r.enter_avoidance(t);
        r
    }

    #[test]
    fn below_target_the_window_grows_by_gain_packets_per_window() {
        let mut r = in_avoidance(20_000);
        // qd 30 ms < 60: per RTT + GAIN (1/3) packets; one packet of b = 1 000 bytes
        // applies b / rcwnd = 1/20 of it: 1/3 * 1000 / 20 = 16.67 bytes.
        let t = Instant::from_secs(2);
        hold_delay(&mut r, t, 40, 70);
        assert_eq!(r.queuing_delay(), Some(Duration::from_millis(30)));
        r.on_data(t, MSS, owd(40), rev(70, 40));
        // The RTT sample of 70 ms leaves the base RTT at 40: GAIN stays 1/3.
        assert!((r.rcwnd - 20_016.667).abs() < 0.01, "{}", r.rcwnd);
    }

    #[test]
    fn above_target_the_window_shrinks_in_proportion_and_at_most_by_half() {
        // qd 90 ms = 1.5 TARGET, W = 20 packets: per RTT max(1/3 - 20 * 0.5, -10) = -9.67
        // packets; one packet applies 1/20: -483.3 bytes.
        let t = Instant::from_secs(2);
        let mut r = in_avoidance(20_000);
        hold_delay(&mut r, t, 100, 130);
        r.on_data(t, MSS, owd(100), rev(130, 100));
        assert!((r.rcwnd - (20_000.0 - 483.333)).abs() < 0.01, "{}", r.rcwnd);
        // qd 190 ms: 1/3 - 20 * (190/60 - 1) = -43 packets, capped at -W/2 = -10: -500.
        let mut r = in_avoidance(20_000);
        hold_delay(&mut r, t, 200, 230);
        r.on_data(t, MSS, owd(200), rev(230, 200));
        assert!((r.rcwnd - 19_500.0).abs() < 0.01, "{}", r.rcwnd);
    }

    #[test]
    fn a_loss_halves_the_window_once_per_rtt_never_below_two_packets() {
        let mut r = in_avoidance(20_000);
        let t = Instant::from_secs(2);
        r.on_loss(t);
        assert_eq!(r.window(), 10_000);
        r.on_loss(t + Duration::from_millis(30)); // within the 40 ms RTT
        assert_eq!(r.window(), 10_000);
        r.on_loss(t + Duration::from_millis(41));
        assert_eq!(r.window(), 5_000);
        for k in 2..10 {
            r.on_loss(t + Duration::from_millis(41 * k));
        }
        assert_eq!(r.window(), 2 * MSS);
    }

    #[test]
    fn a_slowdown_holds_two_packets_for_two_rtts_then_climbs_back() {
        let mut r = Rledbat::new(
            RledbatConfig {
                slowdowns: true,
                ..cfg()
            },
            MSS,
        );
        let t0 = Instant::from_secs(1);
        r.on_data(t0, 0, owd(10), rev(40, 10));
        r.rcwnd = 30_000.0;
        r.enter_avoidance(t0);
        // 2 RTTs (80 ms) later the slowdown starts: 2 packets for 2 RTTs.
        let t1 = t0 + Duration::from_millis(80);
        r.on_data(t1, MSS, owd(10), rev(40, 10));
        assert_eq!(r.window(), 2 * MSS);
        r.on_data(t1 + Duration::from_millis(79), MSS, owd(10), rev(40, 10));
        assert_eq!(r.window(), 2 * MSS, "held for 80 ms");
        let t2 = t1 + Duration::from_millis(80);
        r.on_data(t2, MSS, owd(10), rev(40, 10));
        assert_eq!(
            r.phase,
            Phase::SlowStart {
                limit: Some(30_000)
            }
        );
        // Slow start climbs back to 30 000 in 57 ms (`climb_back`). The slowdown lasted from
        // t1 to there, 80 + 57 = 137 ms, and the next one comes 9 x 137 = 1 233 ms later.
        let t = climb_back(&mut r, t2);
        assert_eq!(r.window(), 30_000);
        assert_eq!(
            r.phase,
            Phase::Avoidance {
                slowdown_at: Some(t + Duration::from_millis(1233))
            }
        );
    }

    #[test]
    fn a_loss_during_the_climb_back_ends_the_slowdown_there() {
        let mut r = Rledbat::new(
            RledbatConfig {
                slowdowns: true,
                ..cfg()
            },
            MSS,
        );
        let t0 = Instant::from_secs(1);
        r.on_data(t0, 0, owd(10), rev(40, 10));
        r.rcwnd = 30_000.0;
        r.enter_avoidance(t0);
        let t1 = t0 + Duration::from_millis(80);
        r.on_data(t1, MSS, owd(10), rev(40, 10)); // the slowdown starts
        let t2 = t1 + Duration::from_millis(80);
        r.on_data(t2, MSS, owd(10), rev(40, 10)); // the climb starts
                                                  // A loss 20 ms into the climb: avoidance from there, the slowdown 100 ms long,
                                                  // the next one 900 ms later.
        let t3 = t2 + Duration::from_millis(20);
        r.on_loss(t3);
        assert_eq!(
            r.phase,
            Phase::Avoidance {
                slowdown_at: Some(t3 + Duration::from_millis(900))
            }
        );
    }

    /// The climb back after a slowdown from 2 000 bytes to 30 000 at an empty queue: 1 500-byte
    /// packets 1 ms apart at GAIN 1/3 add 500 bytes each, 2 000 + 56 x 500 = 30 000 after the
    /// packet at `t2` + 56 ms; the packet at `t2` + 57 ms (returned) hands over to avoidance.
    fn climb_back(r: &mut Rledbat, t2: Instant) -> Instant {
        let mut t = t2;
        while matches!(r.phase, Phase::SlowStart { .. }) {
            t += Duration::from_millis(1);
            r.on_data(t, 1500, owd(10), rev(40, 10));
        }
        assert_eq!(t, t2 + Duration::from_millis(57));
        t
    }

    fn restart_cfg() -> RledbatConfig {
        RledbatConfig {
            empty_queue_restart: true,
            ..cfg()
        }
    }

    /// `n` samples without bytes at a forward delay of `fwd_ms` and an RTT of 40 ms.
    fn samples(r: &mut Rledbat, t: Instant, fwd_ms: u64, n: usize) {
        for _ in 0..n {
            r.on_data(t, 0, owd(fwd_ms), rev(40, fwd_ms));
        }
    }

    /// At the floor (2 packets), base 10 ms one way, RTT 40 ms: GAIN 1/3, eta =
    /// clamp(40 / 8, 4, 16) = 5 ms.
    fn at_the_floor(c: RledbatConfig) -> Rledbat {
        let mut r = Rledbat::new(c, MSS);
        let t = Instant::from_secs(1);
        r.on_data(t, 0, owd(10), rev(40, 10));
        r.rcwnd = (2 * MSS) as f64;
        r.enter_avoidance(t);
        r
    }

    #[test]
    fn restart_slow_starts_at_the_floor_after_one_rtt_of_empty_queue() {
        let mut r = at_the_floor(restart_cfg());
        assert_eq!(r.eta(), Duration::from_millis(5));
        let t = Instant::from_secs(2);
        // qd 0: the clock starts at t; 39 ms later (under the 40 ms RTT) nothing yet.
        samples(&mut r, t, 10, 1);
        samples(&mut r, t + Duration::from_millis(39), 10, 1);
        assert_eq!(r.phase, Phase::Avoidance { slowdown_at: None });
        // At t + 40 ms the packet finds it due and is the first of the slow start: + GAIN b
        // = 333.33 bytes, not avoidance's GAIN mss b / rcwnd = 166.67.
        let t1 = t + Duration::from_millis(40);
        r.on_data(t1, MSS, owd(10), rev(40, 10));
        assert_eq!(r.phase, Phase::Restart { slowdown_at: None });
        assert_eq!(r.window(), 2_333);
        r.on_data(t1, MSS, owd(10), rev(40, 10));
        assert_eq!(r.window(), 2_666);
        // It ends like the initial one: qd 44 ms <= 45 (3/4 TARGET) goes on, 46 ms stops.
        samples(&mut r, t1, 54, 4);
        assert_eq!(r.phase, Phase::Restart { slowdown_at: None });
        samples(&mut r, t1, 56, 4);
        assert_eq!(r.phase, Phase::Avoidance { slowdown_at: None });
        assert_eq!(r.window(), 2_666);
    }

    #[test]
    fn a_queue_above_eta_restarts_the_clock() {
        let mut r = at_the_floor(restart_cfg());
        let t = Instant::from_secs(2);
        samples(&mut r, t, 10, 1);
        // qd 6 ms > eta 5 at t + 20 ms (four samples fill the minimum filter), empty again
        // from t + 30 ms: due at t + 70 ms, not at t + 69.
        samples(&mut r, t + Duration::from_millis(20), 16, 4);
        samples(&mut r, t + Duration::from_millis(30), 10, 1);
        samples(&mut r, t + Duration::from_millis(69), 10, 1);
        assert!(matches!(r.phase, Phase::Avoidance { .. }));
        samples(&mut r, t + Duration::from_millis(70), 10, 1);
        assert!(matches!(r.phase, Phase::Restart { .. }));
        // At eta exactly the queue still counts as empty.
        let mut r = at_the_floor(restart_cfg());
        samples(&mut r, t, 15, 4);
        assert_eq!(r.queuing_delay(), Some(Duration::from_millis(5)));
        samples(&mut r, t + Duration::from_millis(40), 15, 1);
        assert!(matches!(r.phase, Phase::Restart { .. }));
    }

    #[test]
    fn without_the_parameter_an_empty_queue_only_adds_gain_per_rtt() {
        let mut r = at_the_floor(cfg());
        let t = Instant::from_secs(2);
        samples(&mut r, t, 10, 1);
        for k in [40, 100, 1000] {
            samples(&mut r, t + Duration::from_millis(k), 10, 1);
        }
        // Avoidance: one packet applies GAIN mss b / rcwnd = 1000 / 3 / 2 = 166.67 bytes.
        r.on_data(t + Duration::from_secs(2), MSS, owd(10), rev(40, 10));
        assert_eq!(r.phase, Phase::Avoidance { slowdown_at: None });
        assert_eq!(r.window(), 2_166);
    }

    #[test]
    fn a_loss_ends_a_restart_halving_the_window() {
        let mut r = at_the_floor(restart_cfg());
        let t = Instant::from_secs(2);
        samples(&mut r, t, 10, 1);
        r.rcwnd = 8_000.0;
        samples(&mut r, t + Duration::from_millis(40), 10, 1);
        assert!(matches!(r.phase, Phase::Restart { .. }));
        r.on_loss(t + Duration::from_millis(41));
        assert_eq!(r.phase, Phase::Avoidance { slowdown_at: None });
        assert_eq!(r.window(), 4_000);
    }

    #[test]
    fn neither_a_slowdowns_hold_nor_its_climb_counts_and_the_schedule_survives_a_restart() {
        let mut r = Rledbat::new(
            RledbatConfig {
                slowdowns: true,
                ..restart_cfg()
            },
            MSS,
        );
        let t0 = Instant::from_secs(1);
        r.on_data(t0, 0, owd(10), rev(40, 10));
        r.rcwnd = 30_000.0;
        r.enter_avoidance(t0);
        // A queue of 50 ms (above eta), empty from 20 ms before the slowdown starts (80 ms
        // later): that clock stops at the slowdown.
        samples(&mut r, t0, 60, 4);
        let t1 = t0 + Duration::from_millis(80);
        samples(&mut r, t1 - Duration::from_millis(20), 10, 1);
        r.on_data(t1, MSS, owd(10), rev(40, 10));
        assert_eq!(r.window(), 2 * MSS);
        // The hold empties the queue for its 80 ms: no restart.
        for k in 1..80 {
            samples(&mut r, t1 + Duration::from_millis(k), 10, 1);
        }
        assert!(matches!(r.phase, Phase::Slowdown { .. }));
        let t2 = t1 + Duration::from_millis(80);
        r.on_data(t2, MSS, owd(10), rev(40, 10));
        assert_eq!(
            r.phase,
            Phase::SlowStart {
                limit: Some(30_000)
            }
        );
        // The climb back at an empty queue, as in the test above: 57 ms to 30 000, then
        // avoidance with the next slowdown 9 x 137 ms later.
        let t = climb_back(&mut r, t2);
        let next = Some(t + Duration::from_millis(1233));
        assert_eq!(r.phase, Phase::Avoidance { slowdown_at: next });
        // The clock starts at the first packet in avoidance (t + 1 ms), not in the hold:
        // due at t + 41 ms.
        samples(&mut r, t + Duration::from_millis(1), 10, 1);
        samples(&mut r, t + Duration::from_millis(40), 10, 1);
        assert_eq!(r.phase, Phase::Avoidance { slowdown_at: next });
        samples(&mut r, t + Duration::from_millis(41), 10, 1);
        assert_eq!(r.phase, Phase::Restart { slowdown_at: next });
        // The restart runs past the slowdown's time; when it ends, that slowdown starts at
        // the next packet.
        let late = t + Duration::from_millis(1300);
        samples(&mut r, late, 10, 1);
        assert!(matches!(r.phase, Phase::Restart { .. }));
        samples(&mut r, late, 56, 4);
        assert_eq!(r.phase, Phase::Avoidance { slowdown_at: next });
        r.on_data(late, MSS, owd(56), rev(40, 56));
        assert!(matches!(r.phase, Phase::Slowdown { .. }));
        assert_eq!(r.window(), 2 * MSS);
    }
}
