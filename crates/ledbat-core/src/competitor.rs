//! Competitor detection for `ledbat++` and the `scavenger` preset (`competitor.enabled`, off
//! by default in `ledbat++`, on in `scavenger`; our extension): telling a flow that does not
//! yield (BBR, a CUBIC that grows along its curve a few ms above TARGET, NewReno, a short web
//! transfer) from the flow's own dips, a stalled receiver, delay noise and another LEDBAT++
//! flow, and getting out of its way until it leaves. A clock-free component that
//! [`crate::ledbat_pp`] drives when `competitor.enabled` is on (algorithms.md section 11);
//! the uTP rLEDBAT receiver drives it too, with owner options
//! ([`Competitor::busy_above_eta`], [`Competitor::probe_rtts`],
//! [`Competitor::collision_quiets`], [`Competitor::standing_probe_rtts`],
//! [`Competitor::rtt_fall`]) that the sender leaves off.
//!
//! A delay-based flow yields only to a queue above its TARGET. BBR keeps the queue below it:
//! after its ProbeRTT it measures the path's base RTT and caps its flight at twice its
//! bandwidth times that RTT, so beside a flow that holds TARGET it is window-limited and the
//! delay-based flow keeps most of the link (docs/controllers-notes.md, "scavenger"). What does
//! show is the flow's share: the link stays busy while the flow delivers much less than the
//! path's rate. What tells a competitor from another LEDBAT++ flow is a slowdown: another
//! LEDBAT++ flow joins it ([`crate::slowdown`]) and the queue empties; a competitor's queue
//! stays.
//!
//! ```text
//! rate samples: bytes delivered over spans of at least max(RATE_SPAN, srtt)
//!                (crate::delivery::SpanRate)
//! path rate  C = max rate sample over rate_window of time not yielding, in 1 s buckets
//!                (application-limited samples only when larger)
//! watching:  suspect, in congestion avoidance, while the link is busy (qd >= TARGET / 2)
//!            and on every rate sample, none application-limited,  rate < share * C  and
//!            (qd > 1.1 TARGET or rate >= min_share * C or a test was positive), for
//!            suspect_rtts smoothed RTTs (a sample below min_share * C otherwise neither
//!            starts nor ends it: low_share_keeps); then a test:
//!   hold test (qd > 1.1 TARGET): the owner starts a slowdown of test_hold_rtts RTTs now;
//!            qd_min = smallest qd from one RTT into the hold to its end
//!              qd_min > max(eta, test_packets * MSS / C)          positive
//!   push test (qd near TARGET; the suspicion lasts up to DESYNC_RTTS more, at random):
//!            the window grows by
//!              extra = C * max(push_share * TARGET, (1 + push_share) * TARGET - qd)
//!            for an RTT; over the two RTTs after the next one, the others' queue is
//!              other = qd + (flight at the start - flight now) / C
//!            min(other) <= qd at the start - push_drop * TARGET     negative (they backed
//!                                                                   off: our own kind)
//!            (with push_drop_scaled, off by default: push_drop * min(1, 2 (1 - share));
//!            with push_drop_raised, off by default: push_drop * max(1, 2 (1 - share)))
//!            max qd - qd at the start > DOUBLE_PUSH * extra / C     void (another flow
//!                                                                   pushed at once; with
//!                                                                   collision_quiets, a
//!                                                                   finding of our kind)
//!   every hold of the flow's own (periodic slowdowns too) is also a hold test, while the
//!   flow has at least min_share of C; a periodic slowdown's only when negative, unless
//!   periodic_positive (its 2-RTT hold ends before a late joiner of our kind shows)
//!   `tests` positives in a row, the last at least test_gap after the first: yield
//!   (a test after a positive one starts TEST_RTTS RTTs before that gap ends, the time from
//!   a push's or a default hold's start to its verdict);
//!   start-up seen (startup_hold): the queue above STARTUP_QUEUE TARGET during the flow's
//!            ramp back from a slowdown; for STARTUP_MEMORY after it, and while the last
//!            test was positive, the tests the suspicion asks for near TARGET are holds,
//!            at the push's time (until one is negative); with startup_exit (off by
//!            default) it also ends the ramp;
//!   a negative test the suspicion asked for: no test for quiet * 2^k (k-th in a row, k <= 3)
//! yielding:  window one packet, paced at yield_share * C; every probe_interval (at once
//!            when the queue drains below eta) a probe paces at probe_share * C for
//!            PROBE_LEN (longer from a queue of TARGET / 4 to 1.2 TARGET: until it would
//!            reach (1 + push_share) TARGET; with busy_above_eta one due above eta runs
//!            only from that range, and not when the queue stood above 1.2 TARGET in the
//!            last HIGH_MEMORY and has not drained since; with probe_rtts one from eta
//!            or below lasts at least probe_rtts RTTs, with standing_probe_rtts one from
//!            above eta at least that many, and the wait after it is probe_interval
//!            scaled by its length over its push's, at most KIN_CONFIRM / 2); over its ACKs
//!              growth = max qd - qd when it began
//!            queue at the start >= TARGET / 2 (or above eta, with busy_above_eta), or
//!            growth >= probe_share * length / 4: busy
//!            otherwise room; room twice, at least `confirm` apart: the competitor left:
//!            slow start again, at full speed up to C x (RTT - qd)
//!            from a queue of TARGET / 4 to 1.2 TARGET, the others backed off when in the
//!            AFTERMATH_RTTS after the probe it fell by push_drop * TARGET (with rtt_fall
//!            push_drop * min(TARGET, base RTT + its queue at the start), in an
//!            aftermath longer by the probe's growth) or below eta;
//!            they backed off after two probes in a row, at most KIN_CONFIRM apart: a
//!            flow of our kind; resume sharing with it (after three when a drain below
//!            eta was followed by a fall short of it)
//! ```
//!
//! Why each guard: a slowdown empties the queue of a flow alone, so its own dips never test
//! positive; a stalled receiver drains the flow's flight and with it the queue, so it never
//! suspects (the link is not busy); per-packet jitter only adds to samples, and the minimum
//! over a hold's filtered samples sees through it; a latecomer of the flow's own kind joins a
//! test, unless it is in its slow start or resting after its own slowdown, which is why two
//! tests `test_gap` apart are needed. BBR's ProbeRTT leaves the link idle for 200 ms every
//! 10 s, which is why room is confirmed 500 ms later; it also empties the queue after one
//! probe and leaves bbr's queue lower (its window set from the base RTT it just measured)
//! after the next, two falls in a row from one ProbeRTT (a trace on the bed:
//! docs/sidebyside/default.md), which is why a fall short of a drain right after a fall
//! that drained needs a third (not every fall after an empty queue: our kind's own
//! slowdowns empty it between two probes). Figures and the choice of each value:
//! docs/controllers-notes.md, "scavenger".

mod config;
mod outcome;
mod path_rate;
mod push;
mod startup;
#[cfg(test)]
mod test_util;
mod yielding;

pub use config::CompetitorConfig;
pub use outcome::{TestKind, TestOutcome, Verdict};
use path_rate::PathRate;
use push::Push;
pub use startup::{STARTUP_MEMORY, STARTUP_MIN_BASE, STARTUP_QUEUE};
use yielding::Probe;

use crate::time::{Duration, Instant};

/// With [`Competitor::busy_above_eta`], no probe near TARGET this long after the queue stood
/// above 1.2 TARGET: a loss-based download pushes it there every few seconds (every 2 to 3 s
/// behind CUBIC at a base RTT of 100 ms on the test bed's 10 Mbit/s link, docs/tcp/README.md),
/// and it sits near TARGET for seconds after each loss; a flow of our kind holds it at TARGET.
pub const HIGH_MEMORY: Duration = Duration::from_secs(5);
/// How long a probe sends: long enough for its queue to show above the delay noise at a
/// base RTT near zero, short enough that at `probe_share` 0.5 it adds at most 15 ms of queue
/// (a competitor's queue plus a probe's must stay inside a FIFO).
pub const PROBE_LEN: Duration = Duration::from_millis(30);
/// A probe whose ACKs have not all come this long (or two RTTs) after its end is given up.
pub const PROBE_GIVE_UP: Duration = Duration::from_secs(1);
/// RTTs a probe's aftermath is watched: a LEDBAT++ flow pushed above its TARGET backs off
/// within them.
pub const AFTERMATH_RTTS: f64 = 2.0;
/// A push test is void when the queue rose more than this many times what the push added.
pub const DOUBLE_PUSH: f64 = 1.25;
/// A queue that falls after a probe shows a flow of our kind only when it fell after the
/// previous probe too, at most this long before (BBR's ProbeRTT comes every 10 s).
pub const KIN_CONFIRM: Duration = Duration::from_secs(5);
/// Before a push test the suspicion lasts up to this many RTTs more, drawn at random.
pub const DESYNC_RTTS: f64 = 4.0;
/// RTTs from a test's start to its verdict: a push's (one RTT pushing, one waiting, two
/// watched) and a hold's of the default `test_hold_rtts`. The next test after a positive one
/// starts this long before `test_gap` has passed, so that the two verdicts, not the first's
/// verdict and the second's start, are `test_gap` apart.
pub const TEST_RTTS: u64 = 4;
/// Rate samples span at least this long (and the smoothed RTT; [`crate::delivery::SpanRate`]):
/// the path's rate is a maximum over a minute of them, and a sample of one RTT at a base RTT
/// near zero takes a token bucket's burst for rate (a 15 KiB burst doubles a 20 ms sample at
/// 10 Mbit/s; over 200 ms it adds 6 %).
pub const RATE_SPAN: Duration = Duration::from_millis(200);

/// What the owner's flow is doing, as far as the detection cares.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FlowPhase {
    /// Congestion avoidance: suspicion runs.
    Avoidance,
    /// A slowdown's hold of the flow's own (not a join): a test runs.
    OwnHold,
    /// Anything else (slow start, a joined hold).
    Other,
    /// A slowdown's ramp back to the window before it: as `Other`, and the start-up rule
    /// watches it ([`STARTUP_QUEUE`]).
    Ramp,
}

/// What the owner tells the detection on each ACK.
#[derive(Clone, Copy, Debug)]
pub struct Observation {
    /// Filtered queuing delay (RTT-based).
    pub qd: Duration,
    /// The owner's TARGET.
    pub target: Duration,
    /// Smoothed RTT.
    pub rtt: Duration,
    /// The path's base RTT as the owner knows it: its smallest RTT sample, zero before the
    /// first.
    pub base_rtt: Duration,
    /// The empty-queue threshold `eta` ([`crate::slow_start::empty_queue_threshold`]).
    pub eta: Duration,
    /// Packet size, bytes.
    pub mss: f64,
    /// The flow's phase.
    pub phase: FlowPhase,
    /// A delivery-rate sample of this ACK, bytes/s, and whether it was application-limited.
    pub rate: Option<(f64, bool)>,
    /// Send time of the newest packet this ACK acknowledges.
    pub newest_sent: Instant,
    /// Bytes in flight before this ACK.
    pub flight: f64,
}

/// The quiet time after the `kin`-th finding of our own kind in a row (counting it):
/// `quiet * 2^kin`, at most 8 times `quiet`.
fn quiet_for(quiet: Duration, kin: &mut u32) -> Duration {
    let d = quiet * (1u64 << (*kin).min(3));
    *kin += 1;
    d
}

/// Where the detection is.
#[derive(Clone, Copy, Debug, PartialEq)]
enum State {
    Watching {
        suspect_since: Option<Instant>,
        positives: u32,
        first_positive: Option<Instant>,
        quiet_until: Option<Instant>,
    },
    Yielding {
        next_probe: Instant,
        probe: Option<Probe>,
        room_at: Option<Instant>,
        /// When the queue last fell after a probe (see `probe_range`), and how many times in
        /// a row.
        backed_at: Option<Instant>,
        falls: u32,
        /// Whether the row's last fall drained the queue (to at most eta).
        drained_last: bool,
        /// When the queue last stood above 1.2 TARGET (not counting a probe's own ACKs),
        /// unless it drained to eta since (read with `busy_above_eta`).
        high_at: Option<Instant>,
    },
}

impl State {
    /// Yielding from now on, the first probe due at `next_probe`, nothing seen yet.
    fn yielding(next_probe: Instant) -> Self {
        State::Yielding {
            next_probe,
            probe: None,
            room_at: None,
            backed_at: None,
            falls: 0,
            drained_last: false,
            high_at: None,
        }
    }
}

/// Where the watching stands, for traces ([`Competitor::stage`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Stage {
    /// Nothing suspected (and while yielding, which the owner's phase shows).
    Watching,
    /// The suspicion counts.
    Suspect,
    /// A push test runs.
    PushTest,
    /// No test after a negative one.
    Quiet,
}

/// What the owner must do after an ACK.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Action {
    /// Nothing.
    None,
    /// Start a slowdown now: a test.
    Test,
    /// The competitor is gone: slow start again, up to this window (bytes) at full speed.
    Resume(u64),
}

/// The detection of one flow. See the module documentation.
#[derive(Clone, Debug)]
pub struct Competitor {
    cfg: CompetitorConfig,
    state: State,
    path: PathRate,
    /// Every ACK of the rate sample under way saw a standing queue (`clean_spans`).
    span_busy: bool,
    /// Smallest queuing delay seen in the current own hold after its first RTT.
    hold_start: Option<Instant>,
    hold_rtt: Duration,
    hold_min: Option<Duration>,
    /// The current hold was asked for by the suspicion.
    hold_suspected: bool,
    /// Findings of our own kind in a row (the quiet time doubles with each).
    kin: u32,
    /// The flow's share of the path's rate at its last sample, and when the hold began.
    share: f64,
    hold_share: f64,
    /// The suspicion asked for a test that has not started yet.
    test_pending: bool,
    /// A push test in progress.
    push: Option<Push>,
    /// The queuing delay of the last ACK while yielding without a probe.
    last_qd: Option<Duration>,
    /// The owner's TARGET (known from the first observation).
    push_target: Option<Duration>,
    detections: u64,
    tests: u64,
    /// Push tests voided because another flow pushed at the same time.
    push_collisions: u64,
    last_test: Option<TestOutcome>,
    /// The link counts as busy above `eta` rather than from TARGET / 2
    /// ([`Competitor::busy_above_eta`]).
    busy_above_eta: bool,
    /// A probe lasts at least this many RTTs ([`Competitor::probe_rtts`]; 0: PROBE_LEN).
    probe_rtts: f64,
    /// A probe from a standing queue lasts at least this many RTTs
    /// ([`Competitor::standing_probe_rtts`]; 0: its push's length).
    standing_probe_rtts: f64,
    /// A collision counts as a finding of our own kind ([`Competitor::collision_quiets`]).
    collision_quiets: bool,
    /// A probe's fall also counts at `push_drop` of the RTT it began at
    /// ([`Competitor::rtt_fall`]).
    rtt_fall: bool,
    /// The last observation's `eta` (a probe due above it is skipped with
    /// `busy_above_eta`).
    eta: Option<Duration>,
    /// When the queue last stood above [`STARTUP_QUEUE`] TARGET in the flow's ramp, until
    /// a test reads negative (`startup_hold`).
    startup_at: Option<Instant>,
}

impl Competitor {
    /// Watching, nothing seen.
    pub fn new(cfg: CompetitorConfig) -> Self {
        Competitor {
            cfg,
            state: State::Watching {
                suspect_since: None,
                positives: 0,
                first_positive: None,
                quiet_until: None,
            },
            path: PathRate::default(),
            span_busy: false,
            hold_start: None,
            hold_rtt: Duration::ZERO,
            hold_min: None,
            hold_suspected: false,
            kin: 0,
            share: 0.0,
            hold_share: 0.0,
            test_pending: false,
            push: None,
            last_qd: None,
            push_target: None,
            detections: 0,
            tests: 0,
            push_collisions: 0,
            last_test: None,
            busy_above_eta: false,
            probe_rtts: 0.0,
            standing_probe_rtts: 0.0,
            collision_quiets: false,
            rtt_fall: false,
            eta: None,
            startup_at: None,
        }
    }

    /// A probe that may find room lasts at least `k` RTTs (the sender's: PROBE_LEN). For an
    /// owner that cannot pace: its probe's window arrives as a burst of `probe_share` C RTT,
    /// which queues `probe_share` RTT on an idle link; a probe of `k` RTTs judges its growth
    /// against `probe_share k RTT / 4`, above that burst when `k > 4`. With
    /// [`Competitor::busy_above_eta`], a probe from above `eta` finds no room whatever it
    /// adds and keeps the sender's length: it only pushes the queue up for a flow of our
    /// kind to back off from, and `k` RTTs at `probe_share` cost the competitor more of
    /// its link than a yield may take (docs/tcp/README.md, "Beyond the draft: competitor
    /// detection").
    pub fn probe_rtts(mut self, k: f64) -> Self {
        self.probe_rtts = k;
        self
    }

    /// With [`Competitor::busy_above_eta`], a probe from a standing queue (above `eta`)
    /// lasts at least `k` RTTs, while [`Competitor::pushing_probe`] still gives its push's
    /// length (the sender's), from which the owner sizes its window. For an owner whose
    /// window reaches its sender slowly: the kernel's receive window, after a yield's clamp
    /// of one packet, opens toward a raised clamp only as `rcv_ssthresh` grows with the
    /// segments received, about threefold per RTT, so a probe of one or two RTTs is
    /// advertised a fraction of its window and never lifts the queue where a flow of our
    /// kind backs off (docs/tcp/README.md, "A probe the kernel has time to open"). The
    /// window bounds what of ours the queue holds, so the longer probe does not lift the
    /// queue higher, only for longer; the wait after it is longer by the same factor (at
    /// most [`KIN_CONFIRM`] / 2), so that the yield's probes take about the share of the
    /// link that probes of the push's length take.
    pub fn standing_probe_rtts(mut self, k: f64) -> Self {
        self.standing_probe_rtts = k;
        self
    }

    /// After a probe from a queue of TARGET / 4 to 1.2 TARGET, the others also count as
    /// backing off when the queue fell by `push_drop` of the RTT the probe began at (the
    /// base RTT plus its queue), where that is less than `push_drop` TARGET; and the
    /// aftermath in which the fall is looked for lasts, beyond AFTERMATH_RTTS RTTs, the
    /// time the queue the probe added takes to drain at the link's rate:
    ///
    /// ```text
    /// aftermath = AFTERMATH_RTTS RTT + (peak - from)
    /// fell      = after <= eta  or  from - after >= push_drop * min(TARGET, base + from)
    /// ```
    ///
    /// A flow of our kind that cuts its window by a share `s` lowers the queue by `s`
    /// times its RTT, so behind a short base RTT and a low queue its cut falls short of
    /// `push_drop` TARGET of queue however deep it is (two kernel receivers at a base RTT
    /// of 10 ms). And the cut shows only once the probe's own queue has drained, after the
    /// sender's aftermath of two RTTs has ended when the owner gets a packet an RTT, as a
    /// yielding receiver does. A competitor's queue does not fall after a probe: BBR's
    /// stands as high or higher (the figures, traced per segment: docs/tcp/README.md, "A
    /// fall in the RTT's terms").
    pub fn rtt_fall(mut self, on: bool) -> Self {
        self.rtt_fall = on;
        self
    }

    /// The link counts as busy whenever the queue stands above `eta` (the sender's rule:
    /// from TARGET / 2), both for the suspicion and, while yielding, for a probe that
    /// begins there (the owner's window is at its floor then, so a standing queue is the
    /// others'; such a probe is not even run unless the queue is near TARGET, where it can
    /// still tell our kind, and has not stood above 1.2 TARGET in the last [`HIGH_MEMORY`]
    /// without draining to eta since, which our kind does not let it do). For an owner that cannot bring the queue up to TARGET itself, nor fill a
    /// probe: a receiver whose sender is not limited by its window (BBR keeps about one BDP
    /// of queue, under TARGET / 2 at short RTTs, and paces a probe's window at the low rate
    /// it measured while yielding, so that the probe's growth reads as room;
    /// `ledbat_utp::rledbat`).
    pub fn busy_above_eta(mut self) -> Self {
        self.busy_above_eta = true;
        self
    }

    /// A push test voided by a collision (another flow pushed at the same time, which only
    /// a flow of our kind does) is a finding of our own kind: the positives in a row are
    /// forgotten and no test follows for the quiet time, as after a negative. For an owner
    /// whose flows of our kind collide and are then left below TARGET: two receivers both
    /// cut their windows after a collision, and at a base RTT of 40 ms they grow back
    /// for seconds with the queue at 13-31 ms, where a push reads our kind as a competitor
    /// (docs/tcp/README.md, "Why a run fails"). A newcomer's start-up that meets a push
    /// also voids it; the flow then waits the quiet time before testing the newcomer.
    pub fn collision_quiets(mut self) -> Self {
        self.collision_quiets = true;
        self
    }

    /// RTTs a test holds.
    pub fn test_hold_rtts(&self) -> f64 {
        self.cfg.test_hold_rtts
    }

    /// Whether the detection runs at all.
    pub fn enabled(&self) -> bool {
        self.cfg.enabled
    }

    /// The path's rate estimate, bytes/s (0 before any sample).
    pub fn path_rate(&self) -> f64 {
        self.path.get()
    }

    /// How far the last rate sample lies from the nearer of the thresholds it is compared
    /// with, `share C` and `min_share C` (a `min_share` of 0 is none), bytes/s; `None`
    /// while the path's rate is unknown. For tests that compare the detection with a build
    /// in other arithmetic (the kernel's whole bytes/s and Q32 shares), where a sample at a
    /// threshold may be decided either way.
    pub fn threshold_gap(&self) -> Option<f64> {
        let c = self.path.get();
        (c > 0.0).then_some(())?;
        [self.cfg.share, self.cfg.min_share]
            .into_iter()
            .filter(|s| *s > 0.0)
            .map(|s| (self.share - s).abs() * c)
            .reduce(f64::min)
    }

    /// Whether the last rate sample lies exactly on `share C` or `min_share C` (a
    /// [`Competitor::threshold_gap`] of at most a billionth of C; at the defaults' fifths
    /// both are whole bytes/s when `5 rate = 4 C` or `5 rate = C`). There `rate < share C` is
    /// a tie that builds in other arithmetic break differently: the kernel's multiplies by
    /// the share in Q32 (0.8 rounded to a hair above), this one by an `f64` product whose
    /// rounding goes either way; tests that compare the two end at it.
    pub fn at_threshold(&self) -> bool {
        self.threshold_gap()
            .is_some_and(|g| g <= 1e-9 * self.path.get())
    }

    /// Whether the flow is yielding to a competitor.
    pub fn yielding(&self) -> bool {
        matches!(self.state, State::Yielding { .. })
    }

    /// Whether a probe is sending at `now`.
    pub fn probing(&self, now: Instant) -> bool {
        matches!(self.state, State::Yielding { probe: Some(p), .. } if now < p.end)
    }

    /// Competitors detected so far (times the flow started yielding).
    pub fn detections(&self) -> u64 {
        self.detections
    }

    /// Tests evaluated so far.
    pub fn tests(&self) -> u64 {
        self.tests
    }

    /// Push tests voided because another flow pushed at the same time.
    pub fn push_collisions(&self) -> u64 {
        self.push_collisions
    }

    /// Where the watching stands at `now`, for traces ([`Stage`]).
    pub fn stage(&self, now: Instant) -> Stage {
        if self.push.is_some() {
            return Stage::PushTest;
        }
        match self.state {
            State::Watching {
                quiet_until: Some(q),
                ..
            } if now < q => Stage::Quiet,
            State::Watching {
                suspect_since: Some(_),
                ..
            } => Stage::Suspect,
            _ => Stage::Watching,
        }
    }

    /// The next instant the owner must be woken at: a probe's start, its end, or the moment
    /// a probe whose ACKs did not come is given up.
    pub fn next_tick(&self) -> Option<Instant> {
        if let Some(p) = self.push {
            let last = self.path.last.unwrap_or(Instant::ZERO);
            return Some(if last < p.push_until {
                p.push_until
            } else {
                p.until
            });
        }
        let State::Yielding {
            next_probe, probe, ..
        } = self.state
        else {
            return None;
        };
        Some(match probe {
            None => next_probe,
            Some(p) if self.path.last.is_none_or(|l| l < p.end) => p.end,
            Some(p) => p.give_up,
        })
    }

    /// Time passes (any event): starts a probe when one is due, gives up one whose ACKs did
    /// not come. `qd` is the current queuing delay, `rtt` the smoothed RTT.
    pub fn poll(&mut self, now: Instant, qd: Duration, rtt: Duration) {
        self.path.tick(now, self.yielding(), self.cfg.rate_window);
        if let Some(t) = self.push_target {
            self.poll_push(now, t);
        }
        self.poll_probe(now, qd, rtt);
    }

    /// The flow's own slowdown hold began (a test, or a periodic slowdown).
    pub fn hold_started(&mut self, now: Instant, rtt: Duration) {
        self.hold_start = Some(now);
        self.hold_rtt = rtt;
        self.hold_min = None;
        self.hold_suspected = std::mem::take(&mut self.test_pending);
        self.hold_share = self.share;
    }

    /// The smallest queuing delay the last (or current) own hold saw after its first RTT.
    pub fn hold_min(&self) -> Option<Duration> {
        self.hold_min
    }

    /// The hold ended: evaluates the test (`eta` as in [`Observation`]).
    pub fn hold_ended(&mut self, now: Instant, eta: Duration, mss: f64) {
        if self.hold_start.take().is_none() {
            return;
        }
        let Some(min) = self.hold_min else { return };
        if !self.cfg.enabled || (!self.hold_suspected && self.hold_share < self.cfg.min_share) {
            // A flow with less than min_share cannot make another LEDBAT++ flow join: its
            // periodic slowdown is not a test.
            return;
        }
        let c = self.path.get();
        let packets = if c > 0.0 {
            Duration::from_secs_f64(self.cfg.test_packets * mss / c)
        } else {
            Duration::ZERO
        };
        let threshold = eta.max(packets);
        if !self.hold_suspected && !self.cfg.periodic_positive && min > threshold {
            // Not a test: only a drained periodic hold says something.
            return;
        }
        let kind = TestKind::Hold { min, threshold };
        let verdict = if min > threshold {
            Verdict::Positive
        } else {
            Verdict::Negative
        };
        self.verdict(now, kind, self.hold_share, verdict, self.hold_suspected);
    }

    /// A finding of our own kind at `now` (a yield that ends on our kind backing off, a
    /// collision with [`Competitor::collision_quiets`]): watching, no suspicion, no
    /// positive, and quiet for `quiet x 2^k`.
    fn kin_found(&mut self, now: Instant) {
        self.state = State::Watching {
            suspect_since: None,
            positives: 0,
            first_positive: None,
            quiet_until: Some(now + quiet_for(self.cfg.quiet, &mut self.kin)),
        };
    }

    /// A test's outcome at `now` (Positive or Negative); `suspected` when the suspicion
    /// asked for it. Tests are ignored while quiet.
    fn verdict(
        &mut self,
        now: Instant,
        kind: TestKind,
        share: f64,
        verdict: Verdict,
        suspected: bool,
    ) {
        let State::Watching {
            suspect_since,
            positives,
            first_positive,
            quiet_until,
        } = &mut self.state
        else {
            return;
        };
        if quiet_until.is_some_and(|q| now < q) {
            // Sharing with a flow of our kind: holds are not tests for a while.
            return;
        }
        self.tests += 1;
        *suspect_since = None;
        let positive = verdict == Verdict::Positive;
        let mut outcome = TestOutcome {
            at: now,
            kind,
            share,
            suspected,
            verdict,
            positives: 0,
            yielded: false,
        };
        if !positive {
            self.startup_at = None;
            self.last_test = Some(outcome);
            *positives = 0;
            *first_positive = None;
            if suspected {
                // Sharing with a flow that yields (another LEDBAT++): no test for a while.
                *quiet_until = Some(now + quiet_for(self.cfg.quiet, &mut self.kin));
            }
            return;
        }
        self.kin = 0;
        *positives += 1;
        outcome.positives = *positives;
        let first = *first_positive.get_or_insert(now);
        outcome.yielded =
            *positives >= self.cfg.tests && now.saturating_since(first) >= self.cfg.test_gap;
        self.last_test = Some(outcome);
        if outcome.yielded {
            self.detections += 1;
            self.state = State::yielding(now + self.cfg.probe_interval);
        }
    }

    /// The figures of the last test that counted or collided, if any.
    pub fn last_test(&self) -> Option<TestOutcome> {
        self.last_test
    }

    /// Whether a test has been positive and another is wanted (the owner keeps the ramp
    /// after it short).
    pub fn confirming(&self) -> bool {
        matches!(self.state, State::Watching { positives, .. } if positives > 0)
    }

    /// One ACK. Returns what the owner must do.
    pub fn on_ack(&mut self, now: Instant, o: &Observation) -> Action {
        self.eta = Some(o.eta);
        self.poll(now, o.qd, o.rtt);
        let standing = o.qd > o.eta;
        self.span_busy &= standing;
        if let Some((rate, app_limited)) = o.rate {
            let clean = self.span_busy || !self.cfg.clean_spans;
            if clean && !self.yielding() && (!app_limited || rate > self.path.get()) {
                self.path.sample(rate);
            }
            // This ACK ends one sample and starts the next.
            self.span_busy = standing;
            let c = self.path.get();
            self.share = if c > 0.0 { rate / c } else { 0.0 };
        }
        if o.phase == FlowPhase::OwnHold {
            if let Some(s) = self.hold_start {
                if now.saturating_since(s) >= self.hold_rtt {
                    self.hold_min = Some(self.hold_min.map_or(o.qd, |m| m.min(o.qd)));
                }
            }
        }
        if !self.cfg.enabled {
            return Action::None;
        }
        self.push_target = Some(o.target);
        self.note_startup(now, o);
        if self.observe_push(now, o) {
            return Action::None;
        }
        let c = self.path.get();
        match self.state {
            State::Watching { .. } => self.on_ack_watching(now, o, c),
            State::Yielding { .. } => self.on_ack_yielding(now, o, c),
        }
    }

    /// An ACK while watching, with the path's rate `c`: the suspicion, and the test it asks
    /// for when it has lasted long enough.
    fn on_ack_watching(&mut self, now: Instant, o: &Observation, c: f64) -> Action {
        let confirming = self.confirming();
        let startup = self.startup_holds(now, confirming);
        let State::Watching {
            suspect_since,
            quiet_until,
            first_positive,
            ..
        } = &mut self.state
        else {
            return Action::None;
        };
        let busy = if self.busy_above_eta {
            o.qd > o.eta
        } else {
            o.qd.as_nanos() * 2 >= o.target.as_nanos()
        };
        // Above TARGET the flow's share does not matter: LEDBAT++ flows bring the
        // queue down to TARGET, a standing queue above it is a competitor's. Nor
        // after a positive test: the test's hold left the flow with little, and a
        // push needs no share of its own to show whether the others back off. A
        // sample its application held back shows nothing of the others: a flow of
        // requests beside the download that fills the queue it measures would yield
        // to that download, and pace its requests at a share of their own rate.
        let above = o.qd.as_nanos() * 10 > o.target.as_nanos() * 11;
        let below_share = o
            .rate
            .is_some_and(|(r, app_limited)| !app_limited && c > 0.0 && r < self.cfg.share * c);
        let share_exempt = above || confirming;
        let small = below_share
            && (share_exempt || o.rate.is_some_and(|(r, _)| r >= self.cfg.min_share * c));
        let quiet = quiet_until.is_some_and(|q| now < q);
        if o.phase != FlowPhase::Avoidance || !busy || quiet {
            *suspect_since = None;
            return Action::None;
        }
        if o.rate.is_none() {
            return Action::None;
        }
        if !small {
            // Below share C but not small: below min_share (and not above 1.1 TARGET,
            // not confirming). The flow has too little of the link to test now, which
            // is no reason to forget a suspicion (`low_share_keeps`).
            let low = below_share && !share_exempt;
            if !(self.cfg.low_share_keeps && low) {
                *suspect_since = None;
            }
            return Action::None;
        }
        let since = *suspect_since.get_or_insert(now);
        // Before a push, a random wait of up to DESYNC_RTTS more (from the instant
        // the suspicion began, so deterministic): two flows of our kind that suspect
        // each other together then rarely push together.
        let extra = if above {
            0.0
        } else {
            (crate::bbr::splitmix64(since.as_nanos()) % 1024) as f64 / 1024.0 * DESYNC_RTTS
        };
        let due = crate::slowdown::scale(o.rtt, self.cfg.suspect_rtts + extra);
        // The next test's verdict comes test_gap after the first positive one at the
        // earliest: it starts TEST_RTTS before that.
        let verdict_at = now + o.rtt * TEST_RTTS;
        let gap =
            first_positive.is_some_and(|f| verdict_at.saturating_since(f) < self.cfg.test_gap);
        if now.saturating_since(since) >= due && !gap {
            *suspect_since = None;
            if above || startup {
                // A queue standing above TARGET (or a newcomer's start-up seen): does it
                // stay while this flow holds?
                self.test_pending = true;
                return Action::Test;
            }
            // Near TARGET: push it above and see whether the others back off.
            self.start_push(now, o, c);
            return Action::None;
        }
        Action::None
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::competitor::test_util::*;

    #[test]
    fn threshold_gap_is_the_last_samples_distance_from_share_or_min_share_c() {
        let mut c = on();
        assert_eq!(c.threshold_gap(), None);
        let sample = |c: &mut Competitor, t: u64, r: f64| {
            c.on_ack(at(t), &obs(30, FlowPhase::Avoidance, Some(r), at(t)));
            c.threshold_gap().expect("a path rate")
        };
        // the path's rate 94,040 bytes/s: 0.8 of it is 75,232 and 0.2 of it 18,808 exactly
        assert!((sample(&mut c, 0, 94_040.0) - 18_808.0).abs() < 1e-6);
        assert!(sample(&mut c, 300, 75_232.0) <= 1e-9 * 94_040.0);
        assert!(sample(&mut c, 600, 18_808.0) <= 1e-9 * 94_040.0);
        assert!((sample(&mut c, 900, 75_231.0) - 1.0).abs() < 1e-6);
        assert!((sample(&mut c, 1200, 18_809.0) - 1.0).abs() < 1e-6);
        // an ACK without a sample keeps the last sample's gap
        c.on_ack(at(1250), &obs(30, FlowPhase::Avoidance, None, at(1250)));
        assert!((c.threshold_gap().unwrap() - 1.0).abs() < 1e-6);
        // a min_share of 0 is no threshold: a sample of 0 is 0.8 C from share C
        let mut d = Competitor::new(CompetitorConfig {
            enabled: true,
            min_share: 0.0,
            ..CompetitorConfig::default()
        });
        sample(&mut d, 0, 94_040.0);
        assert!((sample(&mut d, 300, 0.0) - 75_232.0).abs() < 1e-6);
    }

    #[test]
    fn at_threshold_is_a_sample_exactly_on_share_or_min_share_c() {
        let mut c = on();
        assert!(!c.at_threshold(), "no path rate yet");
        let sample = |c: &mut Competitor, t: u64, r: f64| {
            c.on_ack(at(t), &obs(30, FlowPhase::Avoidance, Some(r), at(t)));
            c.at_threshold()
        };
        // C = 94,040 bytes/s: 0.8 C = 75,232 and 0.2 C = 18,808, both whole
        assert!(!sample(&mut c, 0, 94_040.0));
        assert!(sample(&mut c, 300, 75_232.0));
        assert!(sample(&mut c, 600, 18_808.0));
        // one byte/s off either is not a tie
        assert!(!sample(&mut c, 900, 75_231.0));
        assert!(!sample(&mut c, 1200, 18_809.0));
    }

    #[test]
    fn a_sample_below_min_share_neither_starts_nor_ends_a_suspicion() {
        // ACKs every 100 ms from 1.0 s at 50 ms of queue (busy, not above 1.1 TARGET), the
        // samples alternating 30 % of C and 10 % (below min_share's 20 %). The suspicion
        // begun at 1.0 s is due after 4 RTTs and its random wait (243 ms from 1.0 s, as in
        // the start-up rule's tests): 1643 ms; the push starts at the next 30 % sample, 1.8 s.
        let push_at = |keeps: bool| {
            let mut c = Competitor::new(CompetitorConfig {
                enabled: true,
                low_share_keeps: keeps,
                ..CompetitorConfig::default()
            });
            learn_rate(&mut c, 0);
            (0..20).map(|k| 1000 + 100 * k).find(|&t| {
                let share = if t % 200 == 0 { 0.3 } else { 0.1 };
                c.on_ack(
                    at(t),
                    &obs(50, FlowPhase::Avoidance, Some(share * C), at(t)),
                );
                c.pushing()
            })
        };
        assert_eq!(push_at(true), Some(1800));
        // without the rule each 10 % sample ends the suspicion, which never lasts 400 ms
        assert_eq!(push_at(false), None);
    }

    #[test]
    fn quiet_time_doubles_per_finding_up_to_eight_times() {
        let mut kin = 0;
        let got: Vec<Duration> = (0..5).map(|_| quiet_for(ms(2000), &mut kin)).collect();
        assert_eq!(got, [ms(2000), ms(4000), ms(8000), ms(16000), ms(16000)]);
        assert_eq!(kin, 5);
    }

    #[test]
    fn with_clean_spans_a_sample_that_saw_the_queue_empty_does_not_set_the_path_rate() {
        let mut c = Competitor::new(CompetitorConfig {
            enabled: true,
            clean_spans: true,
            ..CompetitorConfig::default()
        });
        let ack = |c: &mut Competitor, t: u64, qd: u64, rate: Option<f64>| {
            c.on_ack(at(t), &obs(qd, FlowPhase::Avoidance, rate, at(t)));
        };
        // The first ACK only starts a sample: no rate taken from it.
        ack(&mut c, 0, 30, Some(C));
        assert_eq!(c.path_rate(), 0.0);
        // A span whose ACKs all saw 30 ms of queue (above eta 2 ms): taken.
        ack(&mut c, 100, 30, None);
        ack(&mut c, 200, 30, Some(C));
        assert_eq!(c.path_rate(), C);
        // A span in which one ACK saw the queue at eta (a bucket may have refilled): a
        // sample 12 % higher is not taken, and the next, all busy again, is.
        ack(&mut c, 300, 2, None);
        ack(&mut c, 400, 30, Some(1.12 * C));
        assert_eq!(c.path_rate(), C);
        ack(&mut c, 500, 30, None);
        ack(&mut c, 600, 30, Some(1.05 * C));
        assert_eq!(c.path_rate(), 1.05 * C);
        // Without the option the same sequence takes the 12 % sample.
        let mut d = on();
        for (t, qd, r) in [
            (0, 30, Some(C)),
            (200, 30, Some(C)),
            (300, 2, None),
            (400, 30, Some(1.12 * C)),
        ] {
            ack(&mut d, t, qd, r);
        }
        assert_eq!(d.path_rate(), 1.12 * C);
    }

    #[test]
    fn path_rate_is_the_largest_sample_of_the_window_not_spent_yielding() {
        let w = Duration::from_secs(60);
        let mut p = PathRate::default();
        p.tick(at(0), false, w);
        p.sample(100.0);
        p.tick(at(500), false, w);
        p.sample(200.0);
        p.tick(at(1500), false, w);
        p.sample(50.0);
        assert_eq!(p.get(), 200.0);
        assert_eq!(p.buckets.len(), 2, "0 and 0.5 s share the first 1 s bucket");
        // 100 s of yielding do not count: the window still holds both buckets.
        p.tick(at(101_500), true, w);
        assert_eq!(p.get(), 200.0);
        // 59.5 s more, not yielding: the clock is at 61 s, the first bucket (opened at 0)
        // is older than 60 s, the second (1.5 s) is not; 0.6 s later neither is left.
        p.tick(at(161_000), false, w);
        assert_eq!(p.get(), 50.0);
        p.tick(at(161_600), false, w);
        assert_eq!(p.get(), 0.0);
    }

    #[test]
    fn two_holds_that_find_a_standing_queue_a_second_apart_make_the_flow_yield() {
        let mut c = periodic_on();
        learn_rate(&mut c, 0);
        // Threshold max(eta 2 ms, 3 packets at 1.25 MB/s = 3.6 ms): 10 ms left is positive.
        hold(&mut c, 1000, 10);
        assert_eq!(
            c.hold_min(),
            Some(ms(10)),
            "the 70 ms of the first RTT do not count"
        );
        assert!(c.confirming() && !c.yielding());
        let o = c.last_test().unwrap();
        assert_eq!(
            o.kind,
            TestKind::Hold {
                min: ms(10),
                threshold: Duration::from_secs_f64(3.0 * MSS / C)
            }
        );
        assert_eq!(
            (o.at, o.verdict, o.suspected),
            (at(1400), Verdict::Positive, false)
        );
        assert_eq!((o.positives, o.yielded), (1, false));
        // A second positive 0.5 s after the first: not yet test_gap (1 s) apart.
        hold(&mut c, 1500, 10);
        assert!(!c.yielding());
        hold(&mut c, 2000, 10);
        assert!(c.yielding());
        let o = c.last_test().unwrap();
        assert_eq!((o.positives, o.yielded), (3, true));
        assert_eq!((c.detections(), c.tests()), (1, 3));
        // Yielding: one packet, paced at 3 % of C.
        let (rate, window) = c.limits(at(2400), MSS, ms(100)).unwrap();
        assert_eq!(window, MSS);
        assert!((rate - 0.03 * C).abs() < 1e-6, "{rate}");
    }

    #[test]
    fn a_hold_that_drains_the_queue_is_negative_and_resets_the_count() {
        let mut c = periodic_on();
        learn_rate(&mut c, 0);
        hold(&mut c, 1000, 10);
        assert!(c.confirming());
        // 3 ms left: under 3.6 ms, the flow's own queue (its dip found the path empty).
        hold(&mut c, 2000, 3);
        assert!(!c.confirming() && !c.yielding());
        hold(&mut c, 3000, 10);
        assert!(
            c.confirming() && !c.yielding(),
            "one positive again, not two"
        );
    }

    #[test]
    fn by_default_a_periodic_hold_counts_only_when_it_finds_the_queue_drained() {
        let mut c = on();
        learn_rate(&mut c, 0);
        // 10 ms left (above 3.6 ms) in two periodic holds a second apart: no test at all.
        hold(&mut c, 1000, 10);
        hold(&mut c, 2000, 10);
        assert_eq!(c.tests(), 0);
        assert!(!c.confirming() && !c.yielding());
        assert_eq!(c.last_test(), None);
        // 3 ms left: a negative test.
        hold(&mut c, 3000, 3);
        assert_eq!(c.tests(), 1);
        let o = c.last_test().unwrap();
        assert_eq!((o.verdict, o.suspected), (Verdict::Negative, false));
        // A hold the suspicion asked for still counts when positive.
        c.test_pending = true;
        hold(&mut c, 4000, 10);
        assert_eq!(c.tests(), 2);
        assert!(c.confirming());
    }

    #[test]
    fn a_flow_with_less_than_min_share_does_not_test_in_its_periodic_slowdowns() {
        let mut c = periodic_on();
        learn_rate(&mut c, 0);
        // Its last sample is 10 % of C: below min_share (20 %).
        c.on_ack(at(500), &obs(0, FlowPhase::Other, Some(0.1 * C), at(400)));
        hold(&mut c, 1000, 10);
        hold(&mut c, 2000, 10);
        assert_eq!(c.tests(), 0);
        assert!(!c.yielding());
    }

    #[test]
    fn disabled_it_never_acts() {
        let mut c = Competitor::new(CompetitorConfig::default());
        learn_rate(&mut c, 0);
        for k in 0..50 {
            let a = c.on_ack(
                at(100 + 100 * k),
                &obs(80, FlowPhase::Avoidance, Some(0.3 * C), at(100 * k)),
            );
            assert_eq!(a, Action::None);
        }
        hold(&mut c, 6000, 10);
        hold(&mut c, 8000, 10);
        assert!(!c.yielding() && !c.pushing());
        assert_eq!((c.tests(), c.detections()), (0, 0));
        assert_eq!(c.next_tick(), None);
    }

    #[test]
    fn a_small_share_under_a_queue_above_target_asks_for_a_hold_test() {
        let mut c = on();
        learn_rate(&mut c, 0);
        // 80 ms of queue (> 1.1 x 60 ms) and 30 % of C on every sample: suspect from 1.0 s,
        // a test once 4 RTTs (400 ms) have passed.
        let mut actions = Vec::new();
        for k in 0..=4 {
            let t = 1000 + 100 * k;
            actions.push(c.on_ack(at(t), &obs(80, FlowPhase::Avoidance, Some(0.3 * C), at(t))));
        }
        assert_eq!(actions[..4], [Action::None; 4]);
        assert_eq!(actions[4], Action::Test, "{actions:?}");
        // The hold it asked for counts as a test even if the flow's share were small.
        c.on_ack(
            at(1450),
            &obs(80, FlowPhase::Other, Some(0.1 * C), at(1400)),
        );
        hold(&mut c, 1500, 10);
        assert_eq!(c.tests(), 1);
    }

    #[test]
    fn an_application_limited_flow_under_a_queue_above_target_is_not_suspect() {
        let mut c = on();
        learn_rate(&mut c, 0);
        // The samples of the test above, 80 ms of queue and 30 % of C, but each one marked
        // application-limited: no test however long it lasts.
        for k in 0..=20 {
            let t = 1000 + 100 * k;
            let mut o = obs(80, FlowPhase::Avoidance, None, at(t));
            o.rate = Some((0.3 * C, true));
            assert_eq!(c.on_ack(at(t), &o), Action::None, "at {t} ms");
            assert_eq!(c.stage(at(t)), Stage::Watching, "at {t} ms");
        }
        // One sample the window held back starts the suspicion; the next limited one ends
        // it: the 400 ms of suspicion a test needs are never reached.
        let full = |c: &mut Competitor, t: u64| {
            c.on_ack(at(t), &obs(80, FlowPhase::Avoidance, Some(0.3 * C), at(t)))
        };
        assert_eq!(full(&mut c, 3200), Action::None);
        assert_eq!(c.stage(at(3200)), Stage::Suspect);
        let mut o = obs(80, FlowPhase::Avoidance, None, at(3300));
        o.rate = Some((0.3 * C, true));
        c.on_ack(at(3300), &o);
        assert_eq!(c.stage(at(3300)), Stage::Watching);
        assert_eq!(c.tests(), 0);
    }

    #[test]
    fn the_test_after_a_positive_one_starts_so_that_the_verdicts_are_test_gap_apart() {
        let mut c = on();
        learn_rate(&mut c, 0);
        let suspect = |c: &mut Competitor, t: u64| {
            c.on_ack(at(t), &obs(80, FlowPhase::Avoidance, Some(0.3 * C), at(t)))
        };
        // Suspect from 1.0 s, a test at 1.4 s, its hold from 1.5 s: positive at 1.9 s.
        for t in [1000, 1100, 1200, 1300] {
            assert_eq!(suspect(&mut c, t), Action::None);
        }
        assert_eq!(suspect(&mut c, 1400), Action::Test);
        hold(&mut c, 1500, 10);
        assert_eq!(c.last_test().unwrap().at, at(1900));
        assert!(c.confirming() && !c.yielding());
        // Suspect again from 2.0 s, ripe at 2.4 s; the next verdict, TEST_RTTS (400 ms) after
        // its test starts, may come at 1.9 + 1.0 (test_gap) s: the test starts at 2.5 s, not
        // at 2.9 s (test_gap after the first verdict).
        for t in [2000, 2100, 2200, 2300, 2400] {
            assert_eq!(suspect(&mut c, t), Action::None, "at {t} ms");
        }
        assert_eq!(suspect(&mut c, 2500), Action::Test);
        hold(&mut c, 2600, 10);
        let o = c.last_test().unwrap();
        assert_eq!((o.at, o.positives, o.yielded), (at(3000), 2, true));
        assert!(c.yielding());
    }

    #[test]
    fn a_full_share_or_an_idle_link_is_not_suspect() {
        let mut c = on();
        learn_rate(&mut c, 0);
        for k in 0..20 {
            let t = 1000 + 100 * k;
            // 90 % of C with the queue at TARGET: the flow has the link.
            let a = c.on_ack(at(t), &obs(60, FlowPhase::Avoidance, Some(0.9 * C), at(t)));
            assert_eq!(a, Action::None);
            // 30 % of C with 20 ms of queue: the link is not busy (< TARGET / 2): a receiver
            // or an application that holds the flow back.
            let a = c.on_ack(
                at(t + 50),
                &obs(20, FlowPhase::Avoidance, Some(0.3 * C), at(t)),
            );
            assert_eq!(a, Action::None);
        }
        assert!(!c.pushing());
    }
}
