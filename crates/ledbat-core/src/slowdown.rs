//! Periodic slowdowns (LEDBAT++, draft-irtf-iccrg-ledbat-plus-plus-01; algorithms.md
//! section 7) as a component any window-based LEDBAT variant can drive, plus this crate's
//! "join" extension.
//!
//! A slowdown lets a flow see the queue without its own packets, so that it measures the
//! base delay instead of a standing queue (the latecomer advantage and base-delay creep of
//! seeds 001 and 003):
//!
//! ```text
//! start:  ssthresh = W;  W = hold window (2 packets);  hold for hold_rtts RTTs
//! ramp:   the owner grows W (its own slow start) back to ssthresh, then calls end_ramp
//! next:   interval * (end - start) after the end   (9 x: slowdowns take ~10 % of the time)
//! first:  first_rtts RTTs after schedule_first (the end of the initial slow start)
//! ```
//!
//! **Join** (extension, `join > 0`): one flow's slowdown empties only its own share of a
//! shared queue; where the base RTT is far below TARGET every other flow's packets are still
//! queued, so a latecomer keeps a base delay a few ms too high. A flow that sees its
//! queuing delay fall to `join * TARGET`, after having been above it since its own last
//! slowdown and at least 4 RTTs after that slowdown ended, starts its slowdown at once.
//! Slowdowns then overlap, the queue empties and every flow measures the true base.
//!
//! The component holds no clock: every entry point takes `now`, and the owner reports the
//! time-driven deadline through [`crate::Controller::next_tick`] ([`Slowdowns::next_tick`]).

use crate::time::{Duration, Instant};

/// `d * k` rounded to the nanosecond, exact for spans below 2^53 ns (104 days).
pub(crate) fn scale(d: Duration, k: f64) -> Duration {
    Duration::from_nanos((d.as_nanos() as f64 * k).round() as u64)
}

/// RTTs a flow waits after its own slowdown ended before it may join another one.
pub const JOIN_REST_RTTS: f64 = 4.0;

/// Timing of the slowdowns (validated by the owning controller's config).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SlowdownConfig {
    /// RTTs between [`Slowdowns::schedule_first`] and the first slowdown. Draft -01: 2.
    pub first_rtts: f64,
    /// RTTs the window is held in a slowdown. Draft -01: 2.
    pub hold_rtts: f64,
    /// The next slowdown starts this many times the last one's duration after it ended.
    /// Draft -01: 9.
    pub interval: f64,
    /// Join threshold as a fraction of TARGET; 0 = never join (the draft).
    pub join: f64,
}

impl Default for SlowdownConfig {
    /// The draft's timing, without joining.
    fn default() -> Self {
        SlowdownConfig {
            first_rtts: 2.0,
            hold_rtts: 2.0,
            interval: 9.0,
            join: 0.0,
        }
    }
}

/// Where the slowdown cycle is.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum SlowdownPhase {
    /// No slowdown in progress (one may be scheduled).
    Idle,
    /// The window is held until `until`.
    Hold {
        /// End of the hold.
        until: Instant,
    },
    /// The owner ramps the window back up to [`Slowdowns::ssthresh`].
    Ramp,
}

/// The slowdown state machine of one flow.
#[derive(Clone, Debug)]
pub struct Slowdowns {
    cfg: SlowdownConfig,
    phase: SlowdownPhase,
    /// When the next slowdown starts, once scheduled.
    at: Option<Instant>,
    /// Start of the current slowdown.
    start: Option<Instant>,
    /// End of the last slowdown.
    end: Option<Instant>,
    /// Window before the current slowdown, bytes.
    ssthresh: Option<f64>,
    count: u64,
    first_scheduled: bool,
    /// Whether the queuing delay has been above the join threshold since the last slowdown.
    armed: bool,
}

impl Slowdowns {
    /// No slowdown scheduled yet.
    pub fn new(cfg: SlowdownConfig) -> Self {
        Slowdowns {
            cfg,
            phase: SlowdownPhase::Idle,
            at: None,
            start: None,
            end: None,
            ssthresh: None,
            count: 0,
            first_scheduled: false,
            armed: false,
        }
    }

    /// The current phase.
    pub fn phase(&self) -> SlowdownPhase {
        self.phase
    }

    /// Whether a slowdown is in progress (hold or ramp).
    pub fn active(&self) -> bool {
        self.phase != SlowdownPhase::Idle
    }

    /// When the next slowdown starts, if scheduled and none is in progress.
    pub fn next_at(&self) -> Option<Instant> {
        self.at
    }

    /// The window (bytes) held before the current slowdown: the ramp's goal.
    pub fn ssthresh(&self) -> Option<f64> {
        self.ssthresh
    }

    /// Slowdowns started so far.
    pub fn count(&self) -> u64 {
        self.count
    }

    /// Schedules the first slowdown `first_rtts * rtt` after `now`; later calls do nothing.
    pub fn schedule_first(&mut self, now: Instant, rtt: Duration) {
        if !self.first_scheduled {
            self.first_scheduled = true;
            self.at = Some(now + scale(rtt, self.cfg.first_rtts));
        }
    }

    /// Join rule: given the queuing delay `qd` against `target`, moves a scheduled slowdown
    /// to `now` when the queue has drained (see the module comment). Only when idle.
    pub fn observe(&mut self, now: Instant, qd: Duration, target: Duration, rtt: Duration) {
        if self.cfg.join <= 0.0 || self.phase != SlowdownPhase::Idle {
            return;
        }
        let Some(at) = self.at else {
            return;
        };
        if qd.as_nanos() as f64 > self.cfg.join * target.as_nanos() as f64 {
            self.armed = true;
            return;
        }
        let rested = self
            .end
            .is_none_or(|end| now.saturating_since(end) >= scale(rtt, JOIN_REST_RTTS));
        if self.armed && rested && at > now {
            self.at = Some(now);
        }
    }

    /// Fires what is due at `now`: starts a slowdown (remembering `*cwnd` as ssthresh and
    /// setting it to `hold_window`), or ends a hold (the owner then ramps). `rtt` sizes the
    /// hold. Returns true when a slowdown started.
    pub fn poll(&mut self, now: Instant, cwnd: &mut f64, hold_window: f64, rtt: Duration) -> bool {
        let mut started = false;
        if self.phase == SlowdownPhase::Idle && self.at.is_some_and(|at| now >= at) {
            self.ssthresh = Some(*cwnd);
            *cwnd = hold_window;
            self.start = Some(now);
            self.at = None;
            self.count += 1;
            self.armed = false;
            self.phase = SlowdownPhase::Hold {
                until: now + scale(rtt, self.cfg.hold_rtts),
            };
            started = true;
        }
        if let SlowdownPhase::Hold { until } = self.phase {
            if now >= until {
                self.phase = SlowdownPhase::Ramp;
            }
        }
        started
    }

    /// Ends the slowdown in progress at `now` (the ramp reached ssthresh, or the owner cut
    /// it short on delay or loss) and schedules the next one `interval` durations later.
    pub fn end_ramp(&mut self, now: Instant) {
        if self.phase == SlowdownPhase::Idle {
            return;
        }
        let start = self.start.unwrap_or(now);
        self.at = Some(now + scale(now.saturating_since(start), self.cfg.interval));
        self.end = Some(now);
        self.ssthresh = None;
        self.phase = SlowdownPhase::Idle;
    }

    /// The next deadline to be woken for: the end of a hold, or the next slowdown.
    pub fn next_tick(&self) -> Option<Instant> {
        match self.phase {
            SlowdownPhase::Hold { until } => Some(until),
            SlowdownPhase::Idle => self.at,
            SlowdownPhase::Ramp => None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const RTT: Duration = Duration::from_millis(50);
    const TARGET: Duration = Duration::from_millis(60);

    #[test]
    fn first_slowdown_comes_first_rtts_after_scheduling_and_only_once() {
        let mut s = Slowdowns::new(SlowdownConfig::default());
        assert_eq!(s.next_tick(), None);
        s.schedule_first(Instant::from_secs(1), RTT);
        s.schedule_first(Instant::from_secs(2), RTT);
        assert_eq!(s.next_at(), Some(Instant::from_millis(1_100)));
    }

    #[test]
    fn a_slowdown_holds_then_ramps_and_the_next_is_interval_durations_later() {
        let mut s = Slowdowns::new(SlowdownConfig::default());
        s.schedule_first(Instant::ZERO, RTT);
        let mut cwnd = 60_000.0;
        assert!(!s.poll(Instant::from_millis(99), &mut cwnd, 3000.0, RTT));
        assert!(s.poll(Instant::from_millis(100), &mut cwnd, 3000.0, RTT));
        assert_eq!(cwnd, 3000.0);
        assert_eq!(s.ssthresh(), Some(60_000.0));
        let until = Instant::from_millis(200);
        assert_eq!(s.phase(), SlowdownPhase::Hold { until });
        assert_eq!(s.next_tick(), Some(until));
        s.poll(until, &mut cwnd, 3000.0, RTT);
        assert_eq!(s.phase(), SlowdownPhase::Ramp);
        assert_eq!(s.next_tick(), None);
        // Ramp done at 400 ms: 300 ms long, the next one 2.7 s later.
        s.end_ramp(Instant::from_millis(400));
        assert_eq!(s.phase(), SlowdownPhase::Idle);
        assert_eq!(s.next_at(), Some(Instant::from_millis(3_100)));
        assert_eq!(s.ssthresh(), None);
        assert_eq!(s.count(), 1);
    }

    #[test]
    fn join_needs_a_drop_after_a_queue_and_a_rest_after_the_own_slowdown() {
        let cfg = SlowdownConfig {
            join: 0.5,
            ..SlowdownConfig::default()
        };
        let mut s = Slowdowns::new(cfg);
        s.schedule_first(Instant::ZERO, RTT);
        let due = s.next_at().unwrap();
        let ms = Duration::from_millis;
        // Never above 30 ms: nothing to join.
        s.observe(Instant::from_millis(10), ms(5), TARGET, RTT);
        assert_eq!(s.next_at(), Some(due));
        // Above, then at 30 ms: join now.
        s.observe(Instant::from_millis(20), ms(40), TARGET, RTT);
        s.observe(Instant::from_millis(30), ms(30), TARGET, RTT);
        assert_eq!(s.next_at(), Some(Instant::from_millis(30)));
        let mut cwnd = 30_000.0;
        assert!(s.poll(Instant::from_millis(30), &mut cwnd, 3000.0, RTT));
        s.poll(Instant::from_millis(130), &mut cwnd, 3000.0, RTT);
        s.end_ramp(Instant::from_millis(200));
        let next = s.next_at().unwrap();
        // 150 ms after the end (< 4 RTTs): no join, even after a queue.
        s.observe(Instant::from_millis(300), ms(40), TARGET, RTT);
        s.observe(Instant::from_millis(350), ms(0), TARGET, RTT);
        assert_eq!(s.next_at(), Some(next));
        // 200 ms after the end: join.
        s.observe(Instant::from_millis(400), ms(0), TARGET, RTT);
        assert_eq!(s.next_at(), Some(Instant::from_millis(400)));
    }

    #[test]
    fn without_join_a_drained_queue_changes_nothing() {
        let mut s = Slowdowns::new(SlowdownConfig::default());
        s.schedule_first(Instant::ZERO, RTT);
        let due = s.next_at();
        s.observe(
            Instant::from_millis(10),
            Duration::from_millis(90),
            TARGET,
            RTT,
        );
        s.observe(Instant::from_millis(20), Duration::ZERO, TARGET, RTT);
        assert_eq!(s.next_at(), due);
    }
}
