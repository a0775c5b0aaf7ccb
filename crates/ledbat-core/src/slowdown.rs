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
//! queued, so a latecomer keeps a base delay a few ms too high. A flow that sees another
//! flow's slowdown drain the queue starts its own at once; slowdowns then overlap, the queue
//! empties and every flow measures the true base. The queue also falls for reasons of the
//! flow's own (the transient of its own ramp, a stall of its receiver or application),
//! and a join then costs a needless slowdown. With `thr = join * TARGET`, the rule is:
//!
//! ```text
//! armed:  qd > thr without a break for one RTT (a standing queue, not a burst), while the
//!         flow's flight exceeds twice the hold window (it has a share of the queue to drain);
//!         remember F = the largest flight and Q = the largest qd since qd rose above thr
//! dip:    qd <= thr after that; it disarms unless
//!           explained = RTT * (F - flight) / F  <  (Q - qd) / 2
//!         and the flow's own slowdown ended at least 4 RTTs ago; it joins when the
//!         queue has stayed at or below thr for `min_dip` (the owner's choice: 0, or RTT / 2
//!         where a join is costly; a shorter dip is noise and the flow stays armed)
//! ```
//!
//! **Recent** (extension, `join_recent`): `F` above is the largest flight since the queue
//! rose, which can be far in the past. A flow that a latecomer's slow start pushed from
//! tens of packets to a few reads the later drop of the latecomer's slowdown as almost all
//! its own and never joins; the queue then does not drain and the latecomer keeps a base a
//! few packets high (docs/tcp/measured.md has the run and the figures). With it:
//!
//! ```text
//! F:     the largest flight of the last one or two RTT-long windows above thr
//! dip:   a dip the flight explains leaves the flow armed for one RTT of further samples
//!        (the queue may still be falling) instead of disarming at the first one
//! ```
//!
//! and the owner's empty-queue restart waits its RTT while such a dip is pending
//! ([`Slowdowns::join_dip_pending`]), so that a flow cut by another's slow start does not
//! refill the queue during the other's hold (a stall's dip is explained: no wait).
//!
//! `explained` is the queue the flow's own reduction removed: a window-limited flow sending
//! at `F / RTT` that cuts its flight by `F - flight` removes `(F - flight) / (F / RTT)` of
//! queueing delay. Alone, that is the whole drop, whatever the base RTT (a stall is never
//! joined); when another flow's slowdown drains the queue, the flow's flight has not fallen
//! and `explained` is 0. A flow at twice the hold window or less (beside a TCP flow that
//! fills the buffer) never arms, so the end of such cross traffic is not taken for a
//! slowdown. Regression cases: `scenarios/testbed/` and
//! `crates/ledbat-sim/tests/controller_behaviour.rs`.
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

/// RTTs the queue must stay drained before a flow whose join would pause it joins (the
/// owner passes `min_dip` to [`Slowdowns::observe`]): another flow's slowdown holds the
/// queue down for two of its RTTs, a run of early samples (the bed's 0.06 ms path at a
/// threshold of 0.8 TARGET) for a few ms.
pub const JOIN_DIP_RTTS: f64 = 0.5;

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
    /// Largest factor by which the interval grows while slowdowns find the base where it was
    /// ([`Slowdowns::found_base`]); 1 = the draft's fixed interval.
    pub max_backoff: f64,
    /// Judge a dip by the recent flight (see the module comment, "recent"); false = since
    /// the queue rose.
    pub join_recent: bool,
}

impl Default for SlowdownConfig {
    /// The draft's timing, without joining.
    fn default() -> Self {
        SlowdownConfig {
            first_rtts: 2.0,
            hold_rtts: 2.0,
            interval: 9.0,
            join: 0.0,
            max_backoff: 1.0,
            join_recent: false,
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
    /// The scheduled slowdown was moved to now by the join rule.
    join_pending: bool,
    /// The slowdown in progress was started by the join rule.
    joined: bool,
    /// The next slowdown comes after half the usual interval ([`Slowdowns::come_back_early`]).
    early: bool,
    /// The join rule's evidence (see the module comment).
    join: JoinState,
    /// The interval's current factor (1 up to `max_backoff`).
    backoff: f64,
    /// The next slowdown's hold in RTTs, when the owner asked for another than the
    /// configured one ([`Slowdowns::start_now`]).
    hold_rtts: Option<f64>,
}

/// What the owner tells the join rule on each RTT sample.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct JoinInput {
    /// Queuing delay (filtered).
    pub qd: Duration,
    /// The owner's TARGET; the threshold is `join * target`.
    pub target: Duration,
    /// Smoothed RTT.
    pub rtt: Duration,
    /// This flow's flight before the ACK, bytes.
    pub flight: f64,
    /// The flight it must exceed to arm, bytes (twice the hold window).
    pub min_flight: f64,
    /// How long the queue must stay drained before joining (0: at the first sample).
    pub min_dip: Duration,
}

/// What the join rule has seen since the queuing delay last rose above its threshold.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
struct JoinState {
    /// When the queuing delay rose above the threshold (None: at or below it).
    above_since: Option<Instant>,
    /// Largest flight (bytes) and queuing delay since then.
    peak_flight: f64,
    peak_qd: Duration,
    /// Whether the queue above the threshold has stood for one RTT with a flight above the
    /// arming minimum.
    armed: bool,
    /// When an armed flow first saw the queue at or below the threshold, by more than its
    /// own flight explains.
    dip_since: Option<Instant>,
    /// `join_recent`: the largest flight of the current and the previous RTT-long window
    /// above the threshold, and when the current one opened.
    window_start: Option<Instant>,
    window_prev: f64,
    window_cur: f64,
    /// `join_recent`: when the queue first fell to the threshold with a drop the flight
    /// explained (the flow stays armed for one RTT while it goes on falling).
    falling_since: Option<Instant>,
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
            join_pending: false,
            joined: false,
            early: false,
            join: JoinState::default(),
            backoff: 1.0,
            hold_rtts: None,
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

    /// Whether the slowdown in progress was started by the join rule (another flow's
    /// slowdown), not by this flow's own timer.
    pub fn joined(&self) -> bool {
        self.joined && self.phase != SlowdownPhase::Idle
    }

    /// Whether the queue is in a dip the flow's own flight does not explain, which the
    /// rule will join once it has lasted `min_dip`: another flow's slowdown, probably.
    pub fn join_dip_pending(&self) -> bool {
        self.join.dip_since.is_some()
    }

    /// Schedules the first slowdown `first_rtts * rtt` after `now`; later calls do nothing.
    pub fn schedule_first(&mut self, now: Instant, rtt: Duration) {
        if !self.first_scheduled {
            self.first_scheduled = true;
            self.at = Some(now + scale(rtt, self.cfg.first_rtts));
        }
    }

    /// Join rule (see the module comment): moves a scheduled slowdown to `now` when
    /// another flow's slowdown has drained the queue for `seen.min_dip`. Only when idle.
    pub fn observe(&mut self, now: Instant, seen: &JoinInput) {
        let JoinInput {
            qd,
            target,
            rtt,
            flight,
            min_flight,
            min_dip,
        } = *seen;
        if self.cfg.join <= 0.0 || self.phase != SlowdownPhase::Idle {
            return;
        }
        let Some(at) = self.at else {
            return;
        };
        let j = &mut self.join;
        if qd.as_nanos() as f64 > self.cfg.join * target.as_nanos() as f64 {
            // A dip shorter than JOIN_DIP_RTTS was noise: the standing queue goes on.
            j.dip_since = None;
            j.falling_since = None;
            let since = *j.above_since.get_or_insert(now);
            j.peak_flight = j.peak_flight.max(flight);
            if j.window_start
                .is_none_or(|t| now.saturating_since(t) >= rtt)
            {
                j.window_prev = j.window_cur;
                j.window_cur = flight;
                j.window_start = Some(now);
            } else {
                j.window_cur = j.window_cur.max(flight);
            }
            j.peak_qd = j.peak_qd.max(qd);
            if now.saturating_since(since) >= rtt && j.peak_flight > min_flight {
                j.armed = true;
            }
            return;
        }
        if !j.armed {
            *j = JoinState::default();
            return;
        }
        let rested = self
            .end
            .is_none_or(|end| now.saturating_since(end) >= scale(rtt, JOIN_REST_RTTS));
        let peak = if self.cfg.join_recent {
            j.window_prev.max(j.window_cur).max(flight)
        } else {
            j.peak_flight
        };
        let cut = (peak - flight).max(0.0) / peak;
        let explained = scale(rtt, cut);
        let observed = j.peak_qd.saturating_sub(qd);
        if !(rested && at > now && explained.as_nanos() * 2 < observed.as_nanos()) {
            if self.cfg.join_recent && rested && at > now {
                // The queue may still be falling: judge the deeper samples of the next RTT.
                let since = *j.falling_since.get_or_insert(now);
                if now.saturating_since(since) <= rtt {
                    j.dip_since = None;
                    return;
                }
            }
            *j = JoinState::default();
            return;
        }
        let since = *j.dip_since.get_or_insert(now);
        if now.saturating_since(since) >= min_dip {
            *j = JoinState::default();
            self.at = Some(now);
            self.join_pending = true;
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
            self.joined = std::mem::take(&mut self.join_pending);
            self.join = JoinState::default();
            let k = self.hold_rtts.take().unwrap_or(self.cfg.hold_rtts);
            self.phase = SlowdownPhase::Hold {
                until: now + scale(rtt, k),
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

    /// Schedules the next slowdown after half the usual interval: a flow that sat out a
    /// joined slowdown without measuring the base (it paused) starts the next one itself,
    /// before the others, and they join it; the roles alternate and every flow keeps
    /// measuring its own base.
    pub fn come_back_early(&mut self) {
        if self.phase != SlowdownPhase::Idle {
            self.early = true;
        }
    }

    /// Ends the slowdown in progress at `now` (the ramp reached ssthresh, or the owner cut
    /// it short on delay or loss) and schedules the next one `interval` durations later
    /// (half that after [`Slowdowns::come_back_early`]).
    pub fn end_ramp(&mut self, now: Instant) {
        if self.phase == SlowdownPhase::Idle {
            return;
        }
        let start = self.start.unwrap_or(now);
        let k = if std::mem::take(&mut self.early) {
            0.5
        } else {
            1.0
        };
        let k = k * self.backoff;
        self.at = Some(now + scale(now.saturating_since(start), k * self.cfg.interval));
        self.end = Some(now);
        self.ssthresh = None;
        self.phase = SlowdownPhase::Idle;
    }

    /// Starts a slowdown at the next [`Slowdowns::poll`] (a test of the owner's), if none is
    /// in progress, holding for `hold_rtts` RTTs instead of the configured number.
    pub fn start_now(&mut self, now: Instant, hold_rtts: f64) {
        if self.phase == SlowdownPhase::Idle {
            self.at = Some(now);
            self.hold_rtts = Some(hold_rtts);
        }
    }

    /// Scales the ramp's goal of the slowdown in progress by `k`.
    pub fn scale_ssthresh(&mut self, k: f64) {
        if let Some(s) = &mut self.ssthresh {
            *s *= k;
        }
    }

    /// Moves the next slowdown to `at` at the earliest (none while a slowdown runs).
    pub fn defer(&mut self, at: Instant) {
        if self.phase == SlowdownPhase::Idle {
            self.at = Some(self.at.map_or(at, |a| a.max(at)));
        }
    }

    /// What the owner's last hold of its own saw: `true` when it found the base where it was
    /// (the queue drained and no lower base turned up), which doubles the interval's factor
    /// up to `max_backoff`; `false` puts it back to 1. Call before the ramp ends.
    pub fn found_base(&mut self, same: bool) {
        self.backoff = if same {
            (self.backoff * 2.0).min(self.cfg.max_backoff.max(1.0))
        } else {
            1.0
        };
    }

    /// The interval's current factor.
    pub fn backoff(&self) -> f64 {
        self.backoff
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

    const PKT: f64 = 1500.0;
    /// Twice a 2-packet hold window: the flight a flow must exceed to arm.
    const MIN_FLIGHT: f64 = 4.0 * PKT;

    fn joining() -> Slowdowns {
        let mut s = Slowdowns::new(SlowdownConfig {
            join: 0.5,
            ..SlowdownConfig::default()
        });
        // Due at 10 s: every test below happens before it.
        s.schedule_first(Instant::ZERO, Duration::from_secs(5));
        s
    }

    /// One sample at `t_ms` of `qd_ms` queuing delay with `flight_pkts` in flight.
    fn see(s: &mut Slowdowns, t_ms: u64, qd_ms: u64, flight_pkts: f64) {
        let ms = Duration::from_millis;
        let now = Instant::from_millis(t_ms);
        s.observe(now, &input(ms(qd_ms), flight_pkts, DIP));
    }

    fn input(qd: Duration, flight_pkts: f64, min_dip: Duration) -> JoinInput {
        JoinInput {
            qd,
            target: TARGET,
            rtt: RTT,
            flight: flight_pkts * PKT,
            min_flight: MIN_FLIGHT,
            min_dip,
        }
    }

    /// What a flow whose join would pause it waits for: half of RTT.
    const DIP: Duration = Duration::from_millis(25);

    #[test]
    fn without_a_minimum_dip_the_first_drained_sample_joins() {
        let mut s = joining();
        let ms = Duration::from_millis;
        for (t, qd) in [(80, 40), (130, 50), (140, 30)] {
            let now = Instant::from_millis(t);
            s.observe(now, &input(ms(qd), 20.0, Duration::ZERO));
        }
        assert_eq!(s.next_at(), Some(Instant::from_millis(140)));
    }

    #[test]
    fn join_needs_a_queue_that_stood_for_an_rtt() {
        let mut s = joining();
        let due = s.next_at().unwrap();
        // Never above 30 ms: nothing to join.
        see(&mut s, 10, 5, 20.0);
        // Above for 40 ms only (< RTT 50 ms), then at 30 ms: a burst, not a standing queue.
        see(&mut s, 20, 40, 20.0);
        see(&mut s, 60, 45, 20.0);
        see(&mut s, 70, 30, 20.0);
        assert_eq!(s.next_at(), Some(due));
        // Above from 80 ms to 130 ms (one RTT), then at 30 ms with the flight unchanged
        // for half an RTT: another flow drained the queue; join then.
        see(&mut s, 80, 40, 20.0);
        see(&mut s, 130, 50, 20.0);
        see(&mut s, 140, 30, 20.0);
        see(&mut s, 160, 28, 20.0);
        assert_eq!(s.next_at(), Some(due), "drained for 20 ms < RTT / 2");
        see(&mut s, 165, 29, 20.0);
        assert_eq!(s.next_at(), Some(Instant::from_millis(165)));
    }

    #[test]
    fn a_dip_shorter_than_half_an_rtt_is_noise() {
        let mut s = joining();
        let due = s.next_at().unwrap();
        see(&mut s, 80, 40, 20.0);
        see(&mut s, 130, 50, 20.0);
        // 20 ms at 25-30 ms, then back above: not joined, and still armed.
        see(&mut s, 140, 25, 20.0);
        see(&mut s, 160, 30, 20.0);
        see(&mut s, 170, 45, 20.0);
        see(&mut s, 190, 30, 20.0);
        assert_eq!(s.next_at(), Some(due));
        // The queue stands on; a dip that lasts half an RTT is joined.
        see(&mut s, 215, 30, 20.0);
        assert_eq!(s.next_at(), Some(Instant::from_millis(215)));
    }

    #[test]
    fn a_slowdown_knows_whether_a_join_started_it() {
        let mut s = joining();
        let mut cwnd = 20.0 * PKT;
        // Joined at 165 ms (drained from 140 ms): the slowdown that starts then was a join.
        see(&mut s, 80, 40, 20.0);
        see(&mut s, 130, 50, 20.0);
        see(&mut s, 140, 30, 20.0);
        see(&mut s, 165, 30, 20.0);
        assert!(!s.joined(), "nothing in progress yet");
        assert!(s.poll(Instant::from_millis(165), &mut cwnd, PKT, RTT));
        assert!(s.joined());
        // Hold 2 RTTs (100 ms), ramp, end at 400 ms: the next one is the flow's own timer,
        // 9 x 235 ms later.
        s.poll(Instant::from_millis(265), &mut cwnd, PKT, RTT);
        s.end_ramp(Instant::from_millis(400));
        assert!(!s.joined());
        assert_eq!(s.next_at(), Some(Instant::from_millis(400 + 9 * 235)));
        assert!(s.poll(Instant::from_millis(2515), &mut cwnd, PKT, RTT));
        assert!(!s.joined(), "started by its own timer");
    }

    #[test]
    fn slowdowns_that_find_the_base_space_the_next_further_up_to_the_backoff() {
        let mut s = Slowdowns::new(SlowdownConfig {
            max_backoff: 4.0,
            ..SlowdownConfig::default()
        });
        let mut cwnd = 20.0 * PKT;
        s.schedule_first(Instant::ZERO, RTT); // due at 100 ms
                                              // Each slowdown 200 ms from its start to its ramp's end: the next 9 x 200 ms =
                                              // 1.8 s later, then 3.6 s (base found), 7.2 s, 7.2 s (at 4 x), and 1.8 s again once
                                              // a slowdown finds a lower base or a queue that did not drain.
        let mut t = 100;
        for (same, gap) in [(true, 3600), (true, 7200), (true, 7200), (false, 1800)] {
            assert!(s.poll(Instant::from_millis(t), &mut cwnd, PKT, RTT));
            s.found_base(same);
            s.end_ramp(Instant::from_millis(t + 200));
            assert_eq!(s.next_at(), Some(Instant::from_millis(t + 200 + gap)));
            t += 200 + gap;
        }
        assert_eq!(s.backoff(), 1.0);
        // The draft's fixed interval: found or not, the factor stays 1.
        let mut s = Slowdowns::new(SlowdownConfig::default());
        s.found_base(true);
        assert_eq!(s.backoff(), 1.0);
    }

    #[test]
    fn an_owners_test_starts_at_once_with_its_own_hold() {
        let mut s = Slowdowns::new(SlowdownConfig::default());
        let mut cwnd = 20.0 * PKT;
        s.schedule_first(Instant::ZERO, RTT); // due at 100 ms
        s.start_now(Instant::from_millis(40), 4.0);
        assert!(s.poll(Instant::from_millis(40), &mut cwnd, PKT, RTT));
        // Held for 4 RTTs (200 ms), not the configured 2.
        let until = Instant::from_millis(240);
        assert_eq!(s.phase(), SlowdownPhase::Hold { until });
        // A positive test halves the ramp's goal.
        s.scale_ssthresh(0.5);
        assert_eq!(s.ssthresh(), Some(10.0 * PKT));
        // Neither a test nor a deferral moves a slowdown in progress.
        s.start_now(Instant::from_millis(100), 4.0);
        s.defer(Instant::from_secs(5));
        assert_eq!(s.phase(), SlowdownPhase::Hold { until });
        s.poll(until, &mut cwnd, PKT, RTT);
        s.end_ramp(Instant::from_millis(300));
        // 260 ms from start to end: the next 9 x 260 ms later, the usual hold again.
        assert_eq!(s.next_at(), Some(Instant::from_millis(300 + 2340)));
        s.defer(Instant::from_secs(5));
        assert_eq!(s.next_at(), Some(Instant::from_secs(5)));
        s.defer(Instant::from_secs(4));
        assert_eq!(s.next_at(), Some(Instant::from_secs(5)), "never earlier");
        assert!(s.poll(Instant::from_secs(5), &mut cwnd, PKT, RTT));
        assert_eq!(
            s.phase(),
            SlowdownPhase::Hold {
                until: Instant::from_millis(5_100)
            }
        );
    }

    #[test]
    fn coming_back_early_halves_one_interval() {
        let mut s = Slowdowns::new(SlowdownConfig::default());
        let mut cwnd = 20.0 * PKT;
        s.come_back_early(); // idle: nothing to shorten
        s.schedule_first(Instant::ZERO, RTT); // due at 100 ms
        assert!(s.poll(Instant::from_millis(100), &mut cwnd, PKT, RTT));
        s.come_back_early();
        s.end_ramp(Instant::from_millis(300));
        // 200 ms long: the next 4.5 x 200 ms after its end, not 9 x.
        assert_eq!(s.next_at(), Some(Instant::from_millis(300 + 900)));
        assert!(s.poll(Instant::from_millis(1200), &mut cwnd, PKT, RTT));
        s.end_ramp(Instant::from_millis(1400));
        assert_eq!(
            s.next_at(),
            Some(Instant::from_millis(1400 + 1800)),
            "only once"
        );
    }

    #[test]
    fn join_ignores_a_drop_the_flows_own_flight_explains() {
        let mut s = joining();
        let due = s.next_at().unwrap();
        // A standing 60 ms queue with 40 packets in flight; the receiver stalls and the
        // flight falls to 10: that removes 3/4 of the flow's own queue, 3/4 * 50 = 37.5 ms
        // of the 40 ms drop (explained 37.5 >= 40 / 2): its own dip, not joined.
        see(&mut s, 0, 60, 40.0);
        see(&mut s, 60, 60, 40.0);
        see(&mut s, 100, 20, 10.0);
        assert_eq!(s.next_at(), Some(due));
        // The dip disarmed the rule: the next drop needs a standing queue again.
        see(&mut s, 200, 10, 40.0);
        assert_eq!(s.next_at(), Some(due));
        // A flight down by a tenth explains 5 ms of a 40 ms drop: another flow's slowdown.
        see(&mut s, 300, 60, 40.0);
        see(&mut s, 360, 60, 40.0);
        see(&mut s, 400, 20, 36.0);
        see(&mut s, 425, 20, 36.0);
        assert_eq!(s.next_at(), Some(Instant::from_millis(425)));
    }

    fn joining_recent() -> Slowdowns {
        let mut s = Slowdowns::new(SlowdownConfig {
            join: 0.5,
            join_recent: true,
            ..SlowdownConfig::default()
        });
        s.schedule_first(Instant::ZERO, Duration::from_secs(5));
        s
    }

    /// Armed at 40 packets, then cut to 5 and 4 by another flow's queue of 100 ms, then the
    /// queue falls to 20 ms.
    fn cut_then_drained(s: &mut Slowdowns) {
        for (t, qd, f) in [
            (0, 60, 40.0),
            (60, 60, 40.0),
            (120, 100, 5.0),
            (180, 100, 5.0),
            (240, 100, 4.0),
            (260, 20, 4.0),
            (285, 20, 4.0),
        ] {
            see(s, t, qd, f);
        }
    }

    #[test]
    fn with_join_recent_an_old_larger_flight_does_not_explain_a_later_drop() {
        // Since the queue rose the largest flight is 40: a cut to 4 explains 0.9 * 50 =
        // 45 ms of the 80 ms drop (45 >= 80 / 2), so the rule disarms.
        let mut s = joining();
        let due = s.next_at().unwrap();
        cut_then_drained(&mut s);
        assert_eq!(s.next_at(), Some(due));
        assert!(!s.join.armed);
        // Over the last two RTT-long windows the largest flight is 5: 1/5 * 50 = 10 ms of
        // 80 (10 < 40): another flow's slowdown, joined after the 25 ms dip.
        let mut r = joining_recent();
        cut_then_drained(&mut r);
        assert_eq!(r.next_at(), Some(Instant::from_millis(285)));
    }

    #[test]
    fn with_join_recent_a_dip_stays_armed_for_an_rtt_while_the_queue_falls() {
        // Armed at 20 packets. At 100 ms the queue is at 25 ms with 12 in flight: 0.4 * 50
        // = 20 ms explained of 35 (20 >= 17.5), but the queue goes on falling; at 130 ms
        // 20 of 55 (20 < 27.5): joined 25 ms later.
        let mut s = joining_recent();
        for (t, qd, f) in [(0, 60, 20.0), (60, 60, 20.0), (100, 25, 12.0)] {
            see(&mut s, t, qd, f);
        }
        assert!(s.join.armed);
        assert!(!s.join_dip_pending());
        see(&mut s, 130, 5, 12.0);
        assert!(s.join_dip_pending());
        see(&mut s, 155, 5, 12.0);
        assert_eq!(s.next_at(), Some(Instant::from_millis(155)));
        // A drop still explained more than an RTT after the first such sample disarms.
        let mut s = joining_recent();
        let due = s.next_at().unwrap();
        for (t, qd, f) in [
            (0, 60, 20.0),
            (60, 60, 20.0),
            (100, 25, 12.0),
            (151, 24, 12.0),
        ] {
            see(&mut s, t, qd, f);
        }
        assert!(!s.join.armed);
        see(&mut s, 160, 0, 12.0);
        see(&mut s, 200, 0, 12.0);
        assert_eq!(s.next_at(), Some(due));
    }

    #[test]
    fn a_flow_at_the_hold_window_never_arms() {
        // Beside a TCP flow that fills the buffer the flow sits at 2 packets; the queue
        // falls when the TCP flow leaves: nothing of its own to drain, no slowdown.
        let mut s = joining();
        let due = s.next_at().unwrap();
        see(&mut s, 0, 120, 2.0);
        see(&mut s, 100, 120, 4.0);
        see(&mut s, 200, 0, 2.0);
        assert_eq!(s.next_at(), Some(due));
    }

    #[test]
    fn join_waits_four_rtts_after_the_own_slowdown() {
        let mut s = joining();
        see(&mut s, 0, 60, 20.0);
        see(&mut s, 50, 60, 20.0);
        see(&mut s, 60, 20, 20.0);
        see(&mut s, 85, 20, 20.0);
        let mut cwnd = 30_000.0;
        assert!(s.poll(Instant::from_millis(85), &mut cwnd, 3000.0, RTT));
        s.poll(Instant::from_millis(185), &mut cwnd, 3000.0, RTT);
        s.end_ramp(Instant::from_millis(200));
        let next = s.next_at().unwrap();
        // 150 ms after the end (< 4 RTTs): a drop after a standing queue is not joined.
        see(&mut s, 250, 60, 20.0);
        see(&mut s, 300, 60, 20.0);
        see(&mut s, 350, 0, 20.0);
        assert_eq!(s.next_at(), Some(next));
        // 250 ms after the end: joined.
        see(&mut s, 360, 60, 20.0);
        see(&mut s, 410, 60, 20.0);
        see(&mut s, 450, 0, 20.0);
        see(&mut s, 475, 0, 20.0);
        assert_eq!(s.next_at(), Some(Instant::from_millis(475)));
    }

    #[test]
    fn without_join_a_drained_queue_changes_nothing() {
        let mut s = Slowdowns::new(SlowdownConfig::default());
        s.schedule_first(Instant::ZERO, RTT);
        let due = s.next_at();
        see(&mut s, 10, 90, 20.0);
        see(&mut s, 100, 90, 20.0);
        see(&mut s, 110, 0, 20.0);
        assert_eq!(s.next_at(), due);
    }
}
