//! Reno-style window machinery shared by the loss-based reference controllers (NewReno,
//! CUBIC's slow start, Vegas, TCP-LP and NICE fall back to it on loss).
//!
//! RFC 5681 with the byte counting of RFC 3465, window in bytes:
//!
//! ```text
//! slow start (cwnd < ssthresh):  cwnd += min(bytes_acked, 2 * SMSS)      # RFC 3465 2.2, L = 2
//! avoidance:                     acked += bytes_acked
//!                                if acked >= cwnd { acked -= cwnd; cwnd += SMSS }   # RFC 5681 3.1
//! loss (once per RTT):           ssthresh = max(FlightSize / 2, 2 * SMSS)  # RFC 5681 eq. (4)
//!                                cwnd = ssthresh                          # RFC 6582 3.2 step 6
//! retransmission timeout:        ssthresh as above (held if the timer fires again before an
//!                                ACK, RFC 5681 section 3.1), cwnd = 1 * SMSS (loss window)
//! idle restart:                  cwnd = min(cwnd, IW)                      # RFC 5681 4.1
//! ```
//!
//! Slow start stops at ssthresh; bytes beyond it count towards avoidance. ACKs that only
//! cover data sent before the last reduction belong to the recovery episode and do not grow
//! the window (RFC 6582 section 3.2: the window is ssthresh when recovery ends). "Once per RTT" is
//! the controller's side of the driver contract (see [`crate::controller`]): a loss of a packet
//! sent before the last reduction belongs to the congestion event already answered.
//!
//! [`RoundTracker`] delimits round trips for per-RTT controllers (Vegas, NICE): a round ends
//! when an ACK arrives for a packet sent at or after the instant the round began.

use crate::controller::{Ack, Loss, Timeout};
use crate::time::Instant;

/// RFC 3465's limit L on the slow-start increase per ACK, in segments.
pub const ABC_LIMIT: f64 = 2.0;

/// Reno window state, in bytes (fractional so that sub-packet windows stay exact).
#[derive(Clone, Debug)]
pub struct RenoWindow {
    /// Sender maximum segment size, bytes.
    pub mss: f64,
    /// Congestion window, bytes.
    pub cwnd: f64,
    /// Slow-start threshold, bytes (`f64::INFINITY` until the first congestion event).
    pub ssthresh: f64,
    /// Initial window, bytes (the idle restart window).
    pub init_cwnd: f64,
    /// Bytes acknowledged in avoidance since the last one-MSS increase.
    acked: f64,
    /// When the window was last reduced (loss, timeout or a controller's own decision).
    pub last_reduction: Option<Instant>,
    /// Bytes in flight as last reported by the driver.
    pub flight: u64,
    /// A retransmission timeout fired and no ACK has arrived since.
    rto_backoff: bool,
    /// The last ACK acknowledged only data sent before the last reduction.
    recovering: bool,
}

impl RenoWindow {
    /// A window of `init_cwnd` packets with threshold `ssthresh` packets (`None`:
    /// unbounded), for segments of `mss` bytes.
    pub fn new(mss: u32, init_cwnd: f64, ssthresh: Option<f64>) -> Self {
        let mss = mss.max(1) as f64;
        RenoWindow {
            mss,
            cwnd: init_cwnd * mss,
            ssthresh: ssthresh.map_or(f64::INFINITY, |s| s * mss),
            init_cwnd: init_cwnd * mss,
            acked: 0.0,
            last_reduction: None,
            flight: 0,
            rto_backoff: false,
            recovering: false,
        }
    }

    /// Whether the window is below the slow-start threshold.
    pub fn in_slow_start(&self) -> bool {
        self.cwnd < self.ssthresh
    }

    /// `slow-start` or `avoidance`.
    pub fn phase(&self) -> &'static str {
        if self.in_slow_start() {
            "slow-start"
        } else {
            "avoidance"
        }
    }

    /// Records the flight size after a send.
    pub fn on_sent(&mut self, in_flight: u64) {
        self.flight = in_flight;
    }

    /// Records the flight size after an ACK, ends any timeout back-off, and notes whether
    /// the ACK belongs to a recovery episode.
    pub fn on_ack(&mut self, ack: &Ack<'_>) {
        self.flight = ack.flight_before.saturating_sub(ack.bytes_acked);
        self.rto_backoff = false;
        self.recovering = self.last_reduction.is_some_and(|t| ack.newest_sent < t);
    }

    /// Whether the last ACK acknowledged only data sent before the last reduction: loss
    /// recovery is still under way (RFC 6582 ends it with the first ACK covering data sent
    /// after the loss was detected), and the window does not grow.
    pub fn in_recovery(&self) -> bool {
        self.recovering
    }

    /// Reno growth for `bytes` newly acknowledged: slow start up to ssthresh, the rest as
    /// congestion avoidance (one MSS per window of acknowledged bytes). Nothing during
    /// recovery.
    pub fn grow(&mut self, bytes: u64) {
        if self.recovering {
            return;
        }
        let rest = self.slow_start(bytes as f64);
        if rest > 0.0 {
            self.avoidance(rest);
        }
    }

    /// The slow-start part of [`RenoWindow::grow`]: grows by `min(bytes, L * SMSS)` up to
    /// ssthresh and returns the bytes left for congestion avoidance (all of them when not
    /// in slow start).
    pub fn slow_start(&mut self, bytes: f64) -> f64 {
        self.slow_start_scaled(bytes, ABC_LIMIT, 1.0)
    }

    /// [`RenoWindow::slow_start`] with limit L = `limit` segments per ACK and the growth
    /// scaled by `factor` (HyStart++'s conservative slow start: `min(N, L * SMSS) / 4`).
    /// Returns the bytes left for congestion avoidance.
    pub fn slow_start_scaled(&mut self, bytes: f64, limit: f64, factor: f64) -> f64 {
        if !self.in_slow_start() {
            return bytes;
        }
        let step = bytes.min(limit * self.mss);
        let room = self.ssthresh - self.cwnd;
        if step * factor <= room {
            self.cwnd += step * factor;
            0.0
        } else {
            self.cwnd = self.ssthresh;
            step - room / factor
        }
    }

    /// Congestion-avoidance growth only: one MSS per cwnd bytes acknowledged.
    pub fn avoidance(&mut self, bytes: f64) {
        self.acked += bytes;
        let w = self.cwnd.max(self.mss);
        if self.acked >= w {
            self.acked -= w;
            self.cwnd += self.mss;
            // A large cumulative ACK never gives more than one MSS (RFC 5681 3.1).
            self.acked = self.acked.min(self.cwnd);
        }
    }

    /// Whether a congestion signal about a packet sent at `sent_at` starts a new event (the
    /// packet left after the last reduction); records `now` as the reduction time if so.
    pub fn new_event(&mut self, now: Instant, sent_at: Instant) -> bool {
        match self.last_reduction {
            Some(t) if sent_at <= t => false,
            _ => {
                self.last_reduction = Some(now);
                true
            }
        }
    }

    /// Records a reduction decided by the controller itself (delay signal).
    pub fn mark_reduction(&mut self, now: Instant) {
        self.last_reduction = Some(now);
        self.acked = 0.0;
    }

    /// `max(flight * beta, 2 * SMSS)`: RFC 5681 eq. (4) with beta = 1/2, RFC 9438 section
    /// 4.6 with beta_cubic.
    pub fn reduced_flight(&self, flight: u64, beta: f64) -> f64 {
        (flight as f64 * beta).max(2.0 * self.mss)
    }

    /// RFC 5681/6582 loss reaction, once per RTT. Returns whether the window was reduced.
    pub fn on_loss(&mut self, now: Instant, loss: &Loss) -> bool {
        self.on_loss_beta(now, loss, 0.5)
    }

    /// Loss reaction with multiplicative factor `beta`: `ssthresh = max(flight * beta,
    /// 2 * SMSS)`, `cwnd = ssthresh`, once per RTT. Returns whether the window was reduced.
    pub fn on_loss_beta(&mut self, now: Instant, loss: &Loss, beta: f64) -> bool {
        if !self.new_event(now, loss.sent_at) {
            return false;
        }
        self.ssthresh = self.reduced_flight(loss.in_flight, beta);
        self.cwnd = self.ssthresh;
        self.acked = 0.0;
        true
    }

    /// RFC 5681 timeout reaction: loss window of one segment; ssthresh from the flight size
    /// unless this timer already fired without an ACK in between. Idle restarts cap the
    /// window at the initial window (section 4.1).
    pub fn on_timeout(&mut self, now: Instant, kind: Timeout) {
        self.on_timeout_beta(now, kind, 0.5);
    }

    /// [`RenoWindow::on_timeout`] with ssthresh `max(flight * beta, 2 * SMSS)`. Returns
    /// whether ssthresh was recomputed (a first timeout, not a back-off).
    pub fn on_timeout_beta(&mut self, now: Instant, kind: Timeout, beta: f64) -> bool {
        let mut fresh = false;
        match kind {
            Timeout::Retransmission => {
                if !self.rto_backoff {
                    self.ssthresh = self.reduced_flight(self.flight, beta);
                    fresh = true;
                }
                self.rto_backoff = true;
                self.cwnd = self.mss;
                self.acked = 0.0;
                self.last_reduction = Some(now);
            }
            Timeout::Idle => {
                self.cwnd = self.cwnd.min(self.init_cwnd);
            }
        }
        fresh
    }

    /// Window in whole bytes, never below `floor` bytes.
    pub fn window_at_least(&self, floor: f64) -> u64 {
        self.cwnd.max(floor) as u64
    }

    /// ssthresh in whole bytes, `None` while unbounded.
    pub fn ssthresh_bytes(&self) -> Option<u64> {
        self.ssthresh.is_finite().then_some(self.ssthresh as u64)
    }
}

/// Delimits round trips: a round ends when an ACK acknowledges a packet sent at or after
/// the round's start; the next round starts then.
#[derive(Clone, Copy, Debug, Default)]
pub struct RoundTracker {
    start: Option<Instant>,
}

impl RoundTracker {
    /// A send at `now` opens the first round if none is open.
    pub fn on_sent(&mut self, now: Instant) {
        if self.start.is_none() {
            self.start = Some(now);
        }
    }

    /// Whether the ACK (newest packet sent at `newest_sent`, arriving at `now`) closes the
    /// current round; if so the next round starts at `now`.
    pub fn on_ack(&mut self, now: Instant, newest_sent: Instant) -> bool {
        match self.start {
            Some(s) if newest_sent >= s => {
                self.start = Some(now);
                true
            }
            Some(_) => false,
            None => {
                self.start = Some(now);
                false
            }
        }
    }

    /// When the current round began.
    pub fn start(&self) -> Option<Instant> {
        self.start
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::time::Duration;

    const MSS: u32 = 1000;

    #[test]
    fn slow_start_stops_at_ssthresh_and_spills_into_avoidance() {
        let mut w = RenoWindow::new(MSS, 2.0, Some(3.0));
        w.grow(1000);
        assert_eq!(w.cwnd, 3000.0);
        assert!(!w.in_slow_start());
        // 3000 bytes acknowledged in avoidance at cwnd 3000 give one MSS.
        w.grow(1000);
        w.grow(1000);
        assert_eq!(w.cwnd, 3000.0);
        w.grow(1000);
        assert_eq!(w.cwnd, 4000.0);
    }

    #[test]
    fn slow_start_increase_per_ack_is_limited_to_two_segments() {
        let mut w = RenoWindow::new(MSS, 2.0, None);
        w.grow(10_000);
        assert_eq!(w.cwnd, 4000.0);
    }

    #[test]
    fn timeout_holds_ssthresh_while_backing_off() {
        let mut w = RenoWindow::new(MSS, 20.0, None);
        w.on_sent(20_000);
        w.on_timeout(Instant::from_secs(1), Timeout::Retransmission);
        assert_eq!((w.cwnd, w.ssthresh), (1000.0, 10_000.0));
        w.on_sent(1000);
        w.on_timeout(Instant::from_secs(3), Timeout::Retransmission);
        assert_eq!((w.cwnd, w.ssthresh), (1000.0, 10_000.0));
    }

    #[test]
    fn rounds_end_when_a_packet_of_the_round_is_acknowledged() {
        let mut r = RoundTracker::default();
        let t = |ms| Instant::ZERO + Duration::from_millis(ms);
        r.on_sent(t(0));
        r.on_sent(t(1));
        assert!(r.on_ack(t(100), t(0)));
        // Packets sent before 100 ms belong to the finished round.
        assert!(!r.on_ack(t(101), t(1)));
        assert!(r.on_ack(t(200), t(100)));
    }
}
