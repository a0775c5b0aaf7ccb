//! The slow starts of this crate's extended LEDBAT++ (`ledbat++` with
//! `conservative_slow_start` and `empty_queue_restart`; the `scavenger` preset) as a
//! clock-free component: how fast a slow start grows, and when a flow in congestion
//! avoidance starts one again.
//!
//! A slow start that ends on delay (LEDBAT++'s: `qd > 3/4 TARGET`, algorithms.md section 7;
//! RFC 6817 section 2.4.2 allows such an exit) learns that the queue has reached the exit
//! one feedback delay late, `base + qd`, while it keeps sending at up to twice the
//! bottleneck rate: the queue overshoots the exit by about the growth over that delay, a
//! whole BDP when the window doubles, and reaches a 100-frame FIFO from a base RTT of about
//! 40 ms on a 10 Mbit/s link. Three rules bound the overshoot:
//!
//! ```text
//! eta = clamp(base / 8, 4 ms, 16 ms)                          RFC 9406 section 4.2
//! step = GAIN * bytes_acked
//!   * (max_ssthresh / 2) / cwnd   when cwnd > max_ssthresh     RFC 3742, max_ssthresh 100
//!   / 4                           when qd > eta                RFC 9406's CSS_GROWTH_DIVISOR
//!   / 4                           in a ramp from a BDP-sized hold, and in a restart
//!                                 beyond the window it regrows
//! ```
//!
//! With a quarter of the growth the overshoot is a quarter of the feedback delay: at most
//! `3/4 TARGET + (base + 3/4 TARGET) / 4`: 106 ms at a base RTT of 200 ms and TARGET
//! 60 ms, inside a 121 ms FIFO.
//!
//! **Restart** (`empty_queue_restart`): the draft's congestion avoidance adds `GAIN` packets
//! per RTT, so a flow whose window is far below the path's (beside a TCP flow that has just
//! left, or after a stall of its receiver) takes about a BDP of RTTs to fill the link: 8 s
//! at a base RTT of 100 ms on 10 Mbit/s. A flow in congestion avoidance whose queuing delay
//! has stayed at or below `eta` for one RTT, so that the link has room, slow starts again
//! with the same exit, a quarter as fast (nothing tells how much room there is). When the
//! flightsize cap (RFC 6817 section 2.4.2) cut the window while the flow could not send
//! (its receiver stalled), the restart begins at once and regrows that window at full speed
//! (`eta` and RFC 3742 still apply): it was the flow's window a moment ago.

use crate::time::{Duration, Instant};

/// RFC 9406 section 4.2's MIN_RTT_THRESH: the smallest `eta`.
pub const ETA_MIN: Duration = Duration::from_millis(4);
/// RFC 9406 section 4.2's MAX_RTT_THRESH: the largest `eta`.
pub const ETA_MAX: Duration = Duration::from_millis(16);
/// RFC 9406 section 4.2's MIN_RTT_DIVISOR: `eta = base / 8` between the two.
pub const ETA_DIVISOR: u64 = 8;
/// RFC 9406 section 4.2's CSS_GROWTH_DIVISOR.
pub const CSS_GROWTH_DIVISOR: f64 = 4.0;
/// RFC 3742's max_ssthresh, packets: above it a slow start adds at most half of it per RTT.
pub const MAX_SSTHRESH_PACKETS: f64 = 100.0;

/// `eta = clamp(base / 8, 4 ms, 16 ms)`: the queuing delay up to which the queue counts as
/// empty (RFC 9406 section 4.2's thresholds on the RTT increase); 4 ms before any sample.
pub fn empty_queue_threshold(base: Option<Duration>) -> Duration {
    let b = base.unwrap_or(Duration::ZERO);
    Duration::from_nanos(b.as_nanos() / ETA_DIVISOR).clamp(ETA_MIN, ETA_MAX)
}

/// Which of the rules apply (validated by the owning controller's config).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct SlowStartRules {
    /// RFC 9406's quarter growth above `eta`, RFC 3742's limit, a ramp from a BDP-sized
    /// hold a quarter as fast.
    pub conservative: bool,
    /// Slow start again after one RTT of empty queue (and at once after a stall).
    pub restart: bool,
}

/// What one ACK of a slow start sees.
#[derive(Clone, Copy, Debug)]
pub struct Growth {
    /// `GAIN * bytes_acked`: the step of a plain slow start, bytes.
    pub step: f64,
    /// The window before the step, bytes.
    pub cwnd: f64,
    /// Packet size, bytes.
    pub mss: f64,
    /// The filtered queuing delay.
    pub qd: Duration,
    /// `eta` of [`empty_queue_threshold`].
    pub eta: Duration,
    /// The slow start is a slowdown's ramp that began from a hold of a share of the BDP.
    pub ramp_from_bdp: bool,
}

/// The restart state of one flow.
#[derive(Clone, Debug, Default)]
pub struct SlowStart {
    rules: SlowStartRules,
    /// The slow start in progress is a restart.
    restarted: bool,
    /// The window the flightsize cap took away while the flow could not send.
    regrow_to: Option<f64>,
    /// Since when the queue has been empty in congestion avoidance.
    empty_since: Option<Instant>,
}

impl SlowStart {
    /// No restart pending.
    pub fn new(rules: SlowStartRules) -> Self {
        SlowStart {
            rules,
            ..SlowStart::default()
        }
    }

    /// Whether the slow start in progress is a restart.
    pub fn restarted(&self) -> bool {
        self.restarted
    }

    /// The window a restart regrows at full speed, bytes, if the cap cut one.
    pub fn regrow_to(&self) -> Option<f64> {
        self.regrow_to
    }

    /// The step (bytes) of one ACK of a slow start (see the module comment).
    pub fn step(&self, g: Growth) -> f64 {
        let mut step = g.step;
        let beyond_regrow = self.restarted && self.regrow_to.is_none_or(|w| g.cwnd >= w);
        if self.rules.conservative {
            let max_ss = MAX_SSTHRESH_PACKETS * g.mss;
            if g.cwnd > max_ss {
                step *= 0.5 * max_ss / g.cwnd;
            }
            if g.qd > g.eta || g.ramp_from_bdp {
                step /= CSS_GROWTH_DIVISOR;
            }
        }
        if beyond_regrow {
            step /= CSS_GROWTH_DIVISOR;
        }
        step
    }

    /// In congestion avoidance, after an ACK at queuing delay `qd` with the window `cwnd`:
    /// whether to slow start again now (the caller enters slow start).
    pub fn restart_due(
        &mut self,
        now: Instant,
        qd: Duration,
        eta: Duration,
        rtt: Duration,
        cwnd: f64,
        mss: f64,
    ) -> bool {
        let stalled = self.regrow_to.is_some_and(|w| w > cwnd + mss);
        self.restart_when(now, qd, eta, rtt, stalled)
    }

    /// [`SlowStart::restart_due`] that always waits the RTT of empty queue, even after a cap
    /// cut: for an owner that cannot yet tell the queue's fall from another flow's slowdown
    /// (`join_recent` in [`crate::slowdown`]).
    pub fn restart_due_after_rtt(
        &mut self,
        now: Instant,
        qd: Duration,
        eta: Duration,
        rtt: Duration,
    ) -> bool {
        self.restart_when(now, qd, eta, rtt, false)
    }

    /// The restart's clock: due after `rtt` of queue at or below `eta`, or at once when
    /// `at_once` (a window the cap cut has room to regrow).
    fn restart_when(
        &mut self,
        now: Instant,
        qd: Duration,
        eta: Duration,
        rtt: Duration,
        at_once: bool,
    ) -> bool {
        if !self.rules.restart || qd > eta {
            self.empty_since = None;
            return false;
        }
        let since = *self.empty_since.get_or_insert(now);
        if at_once || now.saturating_since(since) >= rtt {
            self.empty_since = None;
            self.restarted = true;
            return true;
        }
        false
    }

    /// The owner slow starts again because the path has room (cross traffic left): a restart
    /// that regrows `to` bytes at full speed.
    pub fn restart_to(&mut self, to: f64) {
        self.empty_since = None;
        self.restarted = true;
        self.regrow_to = Some(to);
    }

    /// Not in congestion avoidance: the empty-queue clock stops.
    pub fn not_avoiding(&mut self) {
        self.empty_since = None;
    }

    /// In congestion avoidance, the flightsize cap changed the window from `before` to
    /// `after` bytes: remembers a cut for a restart to regrow.
    pub fn capped(&mut self, before: f64, after: f64) {
        if self.rules.restart && after < before {
            self.regrow_to = Some(self.regrow_to.unwrap_or(0.0).max(before));
        }
    }

    /// The window grew to `cwnd`: a regrowth that reached its goal is done.
    pub fn grew(&mut self, cwnd: f64) {
        if self.regrow_to.is_some_and(|w| cwnd >= w) {
            self.regrow_to = None;
        }
    }

    /// A slow start ended (on delay or a loss), or the window was cut by a loss or a
    /// timeout: nothing to regrow.
    pub fn ended(&mut self) {
        self.restarted = false;
        self.regrow_to = None;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const MSS: f64 = 1500.0;
    const MS: fn(u64) -> Duration = Duration::from_millis;

    fn growth(cwnd_pkts: f64, qd_ms: u64) -> Growth {
        Growth {
            step: MSS,
            cwnd: cwnd_pkts * MSS,
            mss: MSS,
            qd: MS(qd_ms),
            eta: MS(5),
            ramp_from_bdp: false,
        }
    }

    fn rules(conservative: bool, restart: bool) -> SlowStartRules {
        SlowStartRules {
            conservative,
            restart,
        }
    }

    #[test]
    fn eta_is_an_eighth_of_the_base_between_4_and_16_ms() {
        assert_eq!(empty_queue_threshold(None), MS(4));
        assert_eq!(empty_queue_threshold(Some(MS(20))), MS(4)); // 2.5 ms
        assert_eq!(empty_queue_threshold(Some(MS(40))), MS(5));
        assert_eq!(
            empty_queue_threshold(Some(MS(100))),
            Duration::from_micros(12_500)
        );
        assert_eq!(empty_queue_threshold(Some(MS(200))), MS(16)); // 25 ms
    }

    #[test]
    fn a_restart_to_a_window_regrows_it_at_full_speed_then_a_quarter_as_fast() {
        let mut s = SlowStart::new(rules(true, true));
        s.restart_to(40.0 * MSS);
        assert!(s.restarted());
        assert_eq!(s.regrow_to(), Some(40.0 * MSS));
        // Below 40 packets and eta: the whole step; beyond them a quarter.
        assert_eq!(s.step(growth(10.0, 0)), MSS);
        assert_eq!(s.step(growth(40.0, 0)), MSS / 4.0);
        s.grew(40.0 * MSS);
        assert_eq!(s.regrow_to(), None);
        assert_eq!(s.step(growth(41.0, 0)), MSS / 4.0);
        s.ended();
        assert!(!s.restarted());
    }

    #[test]
    fn conservative_growth_is_a_quarter_above_eta_and_limited_above_100_packets() {
        let plain = SlowStart::new(rules(false, false));
        assert_eq!(plain.step(growth(200.0, 30)), MSS);
        let c = SlowStart::new(rules(true, false));
        assert_eq!(c.step(growth(20.0, 5)), MSS); // at eta: full
        assert_eq!(c.step(growth(20.0, 6)), MSS / 4.0);
        // 200 packets: (100 / 2) / 200 of an MSS per ACK, i.e. 50 packets per RTT.
        assert_eq!(c.step(growth(200.0, 0)), MSS / 4.0);
        assert_eq!(c.step(growth(200.0, 6)), MSS / 16.0);
        let ramp = Growth {
            ramp_from_bdp: true,
            ..growth(20.0, 0)
        };
        assert_eq!(c.step(ramp), MSS / 4.0);
    }

    #[test]
    fn restart_after_one_rtt_of_empty_queue_grows_a_quarter_as_fast() {
        let mut s = SlowStart::new(rules(false, true));
        let rtt = MS(50);
        let t = Instant::from_secs(1);
        assert!(!s.restart_due(t, MS(3), MS(4), rtt, 10.0 * MSS, MSS));
        // A sample above eta restarts the clock.
        assert!(!s.restart_due(t + MS(30), MS(5), MS(4), rtt, 10.0 * MSS, MSS));
        assert!(!s.restart_due(t + MS(40), MS(4), MS(4), rtt, 10.0 * MSS, MSS));
        assert!(!s.restart_due(t + MS(89), MS(0), MS(4), rtt, 10.0 * MSS, MSS));
        assert!(s.restart_due(t + MS(90), MS(0), MS(4), rtt, 10.0 * MSS, MSS));
        assert!(s.restarted());
        assert_eq!(s.step(growth(10.0, 0)), MSS / 4.0);
        s.ended();
        assert!(!s.restarted());
        let mut off = SlowStart::new(rules(true, false));
        assert!(!off.restart_due(t, MS(0), MS(4), rtt, 10.0 * MSS, MSS));
        assert!(!off.restart_due(t + MS(100), MS(0), MS(4), rtt, 10.0 * MSS, MSS));
    }

    #[test]
    fn a_window_the_cap_cut_is_regrown_at_once_and_at_full_speed() {
        let mut s = SlowStart::new(rules(false, true));
        // A stall: each ACK's flight is a packet smaller; the cap follows it.
        s.capped(40.0 * MSS, 39.0 * MSS);
        s.capped(39.0 * MSS, 3.0 * MSS);
        assert_eq!(s.regrow_to(), Some(40.0 * MSS));
        // The first empty-queue sample restarts.
        let t = Instant::from_secs(2);
        assert!(s.restart_due(t, MS(0), MS(4), MS(50), 3.0 * MSS, MSS));
        assert_eq!(s.step(growth(3.0, 0)), MSS);
        s.grew(39.0 * MSS);
        assert_eq!(s.regrow_to(), Some(40.0 * MSS));
        s.grew(40.0 * MSS);
        assert_eq!(s.regrow_to(), None);
        // Beyond it, a quarter.
        assert_eq!(s.step(growth(40.0, 0)), MSS / 4.0);
        // Without the restart rule nothing is remembered.
        let mut off = SlowStart::new(rules(true, false));
        off.capped(40.0 * MSS, 3.0 * MSS);
        assert_eq!(off.regrow_to(), None);
    }

    #[test]
    fn a_restart_after_a_cut_waits_its_rtt_when_asked_and_still_regrows_at_full_speed() {
        let mut s = SlowStart::new(rules(false, true));
        s.capped(40.0 * MSS, 3.0 * MSS);
        let t = Instant::from_secs(2);
        // Empty from t: not at the first sample, nor 49 ms on; at 50 ms (one RTT), yes.
        assert!(!s.restart_due_after_rtt(t, MS(0), MS(4), MS(50)));
        assert!(!s.restart_due_after_rtt(t + MS(49), MS(2), MS(4), MS(50)));
        assert!(s.restart_due_after_rtt(t + MS(50), MS(1), MS(4), MS(50)));
        // The cut window is still regrown at full speed.
        assert_eq!(s.regrow_to(), Some(40.0 * MSS));
        assert_eq!(s.step(growth(3.0, 0)), MSS);
    }
}
