//! Competitor detection for `ledbat++` and the `scavenger` preset (`competitor.enabled`, off
//! by default in `ledbat++`, on in `scavenger`; our extension): telling a flow that does not
//! yield (BBR, a CUBIC that grows along its curve a few ms above TARGET, NewReno, a short web
//! transfer) from the flow's own dips, a stalled receiver, delay noise and another LEDBAT++
//! flow, and getting out of its way until it leaves. A clock-free component that
//! [`crate::ledbat_pp`] drives when `competitor.enabled` is on (algorithms.md section 11);
//! the uTP rLEDBAT receiver drives it too, with two owner options ([`Competitor::busy_above_eta`],
//! [`Competitor::probe_rtts`]) that the sender leaves off.
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
//!            suspect_rtts smoothed RTTs; then a test:
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
//!            (with push_drop_scaled, off by default: push_drop * min(1, 2 (1 - share)))
//!            max qd - qd at the start > DOUBLE_PUSH * extra / C     void (another flow
//!                                                                   pushed at once)
//!   every hold of the flow's own (periodic slowdowns too) is also a hold test, while the
//!   flow has at least min_share of C; a periodic slowdown's only when negative, unless
//!   periodic_positive (its 2-RTT hold ends before a late joiner of our kind shows)
//!   `tests` positives in a row, the last at least test_gap after the first: yield
//!   (a test after a positive one starts TEST_RTTS RTTs before that gap ends, the time from
//!   a push's or a default hold's start to its verdict);
//!   a negative test the suspicion asked for: no test for quiet * 2^k (k-th in a row, k <= 3)
//! yielding:  window one packet, paced at yield_share * C; every probe_interval (at once
//!            when the queue drains below eta) a probe paces at probe_share * C for
//!            PROBE_LEN (longer from a queue of TARGET / 4 to 1.2 TARGET: until it would
//!            reach (1 + push_share) TARGET; with busy_above_eta one due above eta runs
//!            only from that range, and not when the queue stood above 1.2 TARGET in the
//!            last HIGH_MEMORY and has not drained since; with probe_rtts one from eta
//!            or below lasts at least probe_rtts RTTs); over its ACKs
//!              growth = max qd - qd when it began
//!            queue at the start >= TARGET / 2 (or above eta, with busy_above_eta), or
//!            growth >= probe_share * length / 4: busy
//!            otherwise room; room twice, at least `confirm` apart: the competitor left:
//!            slow start again, at full speed up to C x (RTT - qd)
//!            from a queue of TARGET / 4 to 1.2 TARGET, the others backed off when in the
//!            AFTERMATH_RTTS after the probe it fell by push_drop * TARGET or below eta;
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

use crate::error::{in_range, nonzero, ConfigError};
use crate::time::{Duration, Instant};
use serde::{Deserialize, Serialize};

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
/// Width of the path-rate estimate's buckets (the window is `rate_window`).
const RATE_BUCKET: Duration = Duration::from_secs(1);

/// Parameters of the competitor detection (`competitor.*` of `ledbat++` and `scavenger`).
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct CompetitorConfig {
    /// Detect competitors and yield to them. Default false (`ledbat++` as drafted; `--cc-param
    /// competitor.enabled=true` turns it on); true in the `scavenger` preset.
    pub enabled: bool,
    /// Suspect a competitor while the flow delivers less than this share of the path's rate
    /// on a busy link. Default 0.8.
    pub share: f64,
    /// ... and at least this share: a flow with less cannot drain enough of the queue for
    /// another LEDBAT++ flow to join its slowdown (it joins at 0.8 TARGET), and already
    /// leaves most of the link to the others (not asked after a positive test, whose hold
    /// left the flow with little). Default 0.2.
    pub min_share: f64,
    /// ... for this many RTTs (smoothed). Default 4.
    pub suspect_rtts: f64,
    /// Positive tests in a row before yielding. Default 2.
    pub tests: u32,
    /// A test holds for this many RTTs: another LEDBAT++ flow sees the queue fall after one
    /// and its joined hold shows after another. Default 4.
    pub test_hold_rtts: f64,
    /// The last of them at least this long after the first. Default 1 s.
    pub test_gap: Duration,
    /// A hold test is positive when the queue left during the hold exceeds this many packets
    /// at the path's rate (and `eta`). Default 3.
    pub test_packets: f64,
    /// A push test raises the queue to (1 + this) TARGET for an RTT (by this share of TARGET
    /// at least). Default 0.3.
    pub push_share: f64,
    /// ... and is negative when the queue then falls this share of TARGET below where it
    /// was: the other traffic backed off. Default 0.15.
    pub push_drop: f64,
    /// No test for this long after a negative one (or after finding that the flow yielded
    /// to one of its own kind), doubled at each such finding in a row up to 8 times. Default
    /// 2 s.
    pub quiet: Duration,
    /// While yielding, pace at this share of the path's rate. Default 0.03.
    pub yield_share: f64,
    /// Time between probes while yielding. Default 1 s.
    pub probe_interval: Duration,
    /// A probe paces at this share of the path's rate. Default 0.5.
    pub probe_share: f64,
    /// Room must be found twice this far apart to stop yielding. Default 500 ms.
    pub confirm: Duration,
    /// The path's rate is the largest delivery rate over this much time spent not yielding.
    /// Default 60 s.
    pub rate_window: Duration,
    /// Take the path's rate only from rate samples whose every ACK saw a standing queue
    /// (above eta). A shaper's token bucket fills while the link idles and its burst adds
    /// to a sample that spans an idle spell (a 30 KiB bucket, 12 % to a 200-ms span at 10
    /// Mbit/s), and a rate taken too high makes a push test read our own kind as a
    /// competitor; under a standing queue the bucket is empty. Default false: tried in the
    /// simulator only (docs/sidebyside/bucket.md); the kernel build refuses it.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub clean_spans: bool,
    /// A hold of a periodic slowdown that finds a standing queue counts as a positive test
    /// (one that finds the queue drained counts as a negative either way). Default false:
    /// only the holds the suspicion asks for (`test_hold_rtts` long) can be positive. A
    /// periodic hold lasts the slowdown's 2 RTTs, and a flow of our kind that joins it
    /// late shows only after its end; with a shaper's token bucket that was most false
    /// detections between two of ours (docs/sidebyside/periodic.md).
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub periodic_positive: bool,
    /// A push test's threshold scales with the others' share of the path's rate when the
    /// pushing flow holds more than half of it: the queue must fall
    /// `push_drop x min(1, 2 (1 - share))` TARGET. Another LEDBAT++ flow with the share
    /// `1 - share` falls about `0.39 (1 - share)` TARGET in an RTT after a push to 1.3
    /// TARGET, short of the unscaled 0.15 when it holds less than 0.38 of the link. Default
    /// false: tried in the simulator only, where it made two of ours at a base RTT of 0 ms
    /// less fair (docs/tcp/measured.md); the kernel build refuses it.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub push_drop_scaled: bool,
}

impl Default for CompetitorConfig {
    fn default() -> Self {
        CompetitorConfig {
            enabled: false,
            share: 0.8,
            min_share: 0.2,
            suspect_rtts: 4.0,
            tests: 2,
            test_hold_rtts: 4.0,
            test_gap: Duration::from_secs(1),
            test_packets: 3.0,
            push_share: 0.3,
            push_drop: 0.15,
            quiet: Duration::from_secs(2),
            yield_share: 0.03,
            probe_interval: Duration::from_secs(1),
            probe_share: 0.5,
            confirm: Duration::from_millis(500),
            rate_window: Duration::from_secs(60),
            clean_spans: false,
            periodic_positive: false,
            push_drop_scaled: false,
        }
    }
}

impl CompetitorConfig {
    /// Rejects nonsense; `controller` names the owner.
    pub fn validate_as(&self, controller: &'static str) -> Result<(), ConfigError> {
        let c = controller;
        in_range(c, "competitor.share", self.share, 0.0, 1.0)?;
        in_range(c, "competitor.min_share", self.min_share, 0.0, 1.0)?;
        in_range(c, "competitor.suspect_rtts", self.suspect_rtts, 0.0, 1e4)?;
        in_range(c, "competitor.tests", self.tests as f64, 1.0, 100.0)?;
        in_range(
            c,
            "competitor.test_hold_rtts",
            self.test_hold_rtts,
            1.0,
            100.0,
        )?;
        in_range(c, "competitor.test_packets", self.test_packets, 0.0, 1e4)?;
        in_range(c, "competitor.push_share", self.push_share, 0.0, 10.0)?;
        in_range(c, "competitor.push_drop", self.push_drop, 0.0, 1.0)?;
        in_range(c, "competitor.yield_share", self.yield_share, 1e-4, 1.0)?;
        in_range(c, "competitor.probe_share", self.probe_share, 1e-3, 1.0)?;
        nonzero(c, "competitor.probe_interval", self.probe_interval)?;
        nonzero(c, "competitor.rate_window", self.rate_window)?;
        Ok(())
    }
}

/// The largest delivery rate over a window of time spent not yielding, in one-second
/// buckets (a competitor that stays does not make the flow forget the path's rate).
#[derive(Clone, Debug, Default)]
struct PathRate {
    /// Time counted so far (not yielding).
    clock: Duration,
    last: Option<Instant>,
    /// (bucket start on `clock`, largest sample in it), oldest first.
    buckets: std::collections::VecDeque<(Duration, f64)>,
}

impl PathRate {
    /// Advances the clock to `now` unless `frozen`.
    fn tick(&mut self, now: Instant, frozen: bool, window: Duration) {
        if let Some(l) = self.last {
            if !frozen {
                self.clock += now.saturating_since(l);
            }
        }
        self.last = Some(now);
        while self
            .buckets
            .front()
            .is_some_and(|&(t, _)| self.clock.saturating_sub(t) > window)
        {
            self.buckets.pop_front();
        }
    }

    fn sample(&mut self, rate: f64) {
        match self.buckets.back_mut() {
            Some((t, m)) if self.clock.saturating_sub(*t) < RATE_BUCKET => *m = m.max(rate),
            _ => self.buckets.push_back((self.clock, rate)),
        }
    }

    fn get(&self) -> f64 {
        self.buckets.iter().fold(0.0, |m, &(_, r)| m.max(r))
    }
}

/// What the owner's flow is doing, as far as the detection cares.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FlowPhase {
    /// Congestion avoidance: suspicion runs.
    Avoidance,
    /// A slowdown's hold of the flow's own (not a join): a test runs.
    OwnHold,
    /// Anything else (slow start, ramp, a joined hold).
    Other,
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

/// A queue a probe pushes to (1 + push_share) TARGET, where a flow of our kind may be
/// holding it or ramping back to it: a quarter of TARGET to 1.2 TARGET.
fn probe_range(qd: Duration, target: Duration) -> bool {
    let (q, t) = (qd.as_nanos(), target.as_nanos());
    q * 4 >= t && q * 5 <= t * 6
}

/// Above [`probe_range`]: more than 1.2 TARGET.
fn above_probe_range(qd: Duration, target: Duration) -> bool {
    qd.as_nanos() * 5 > target.as_nanos() * 6
}

/// The quiet time after the `kin`-th finding of our own kind in a row (counting it):
/// `quiet * 2^kin`, at most 8 times `quiet`.
fn quiet_for(quiet: Duration, kin: &mut u32) -> Duration {
    let d = quiet * (1u64 << (*kin).min(3));
    *kin += 1;
    d
}

/// A push test: the window grows by `extra` for an RTT; then the queue shows whether the
/// other traffic backed off, counting out what this flow's own flight changed.
#[derive(Clone, Copy, Debug, PartialEq)]
struct Push {
    /// Queuing delay and flight (bytes) when it began.
    q0: Duration,
    f0: f64,
    /// The path's rate then, bytes/s.
    c: f64,
    extra: f64,
    push_until: Instant,
    observe_from: Instant,
    until: Instant,
    /// Smallest queuing delay from `observe_from` to `until`, plus the queue this flow's
    /// flight had then dropped below `f0` (seconds).
    after: Option<f64>,
    /// Largest queuing delay until `until` (seconds).
    peak: f64,
    /// The flow's share of the path's rate when it began.
    share: f64,
}

/// How a test ended ([`Competitor::last_test`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Verdict {
    /// The others backed off (a push test), or the queue left with the flow's own (a hold):
    /// a flow of our kind, or no one.
    Negative,
    /// They did not: a competitor, if a second test agrees.
    Positive,
    /// Another flow pushed at the same time (push tests only): no verdict.
    Collision,
}

impl Verdict {
    /// Lower-case name for traces (`positive`, `negative`, `collision`).
    pub fn name(self) -> &'static str {
        match self {
            Verdict::Negative => "negative",
            Verdict::Positive => "positive",
            Verdict::Collision => "collision",
        }
    }
}

/// Which test, with the figures its verdict was taken from.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum TestKind {
    /// A hold of the flow's own (asked for by the suspicion, or a periodic slowdown).
    Hold {
        /// The smallest queuing delay after the hold's first RTT.
        min: Duration,
        /// Positive above this: max(eta, test_packets at the path's rate).
        threshold: Duration,
    },
    /// A push test.
    Push {
        /// How far the others' queue fell below the queue at its start, as a share of
        /// TARGET (negative: it rose).
        drop: f64,
        /// How far the queue rose above the queue at its start, as a share of what the push
        /// added.
        rise: f64,
    },
}

impl TestKind {
    /// Lower-case name for traces (`hold`, `push`).
    pub fn name(&self) -> &'static str {
        match self {
            TestKind::Hold { .. } => "hold",
            TestKind::Push { .. } => "push",
        }
    }
}

/// The figures of the last test that counted (or collided), for traces: what a detection's
/// verdicts were taken from (`tests.csv` of a simulation, `comp_timeline` of a kernel trace).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct TestOutcome {
    /// When it ended.
    pub at: Instant,
    /// Which test.
    pub kind: TestKind,
    /// The flow's share of the path's rate when it began.
    pub share: f64,
    /// The suspicion asked for it (a periodic slowdown's hold did not).
    pub suspected: bool,
    /// The verdict.
    pub verdict: Verdict,
    /// Positive tests in a row after it.
    pub positives: u32,
    /// It made the flow yield.
    pub yielded: bool,
}

impl std::fmt::Display for TestOutcome {
    /// One line: `hold positive (suspected): share 0.42, min 10.0 ms against 3.6 ms; 2 in a
    /// row, yields`.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let name = self.kind.name();
        let asked = match (self.kind, self.suspected) {
            (TestKind::Push { .. }, _) => "",
            (TestKind::Hold { .. }, true) => " (suspected)",
            (TestKind::Hold { .. }, false) => " (periodic)",
        };
        write!(
            f,
            "{name} {}{asked}: share {:.2}, ",
            self.verdict.name(),
            self.share
        )?;
        match self.kind {
            TestKind::Hold { min, threshold } => write!(
                f,
                "min {:.1} ms against {:.1} ms",
                min.as_millis_f64(),
                threshold.as_millis_f64()
            )?,
            TestKind::Push { drop, rise } => write!(
                f,
                "the others' queue fell {drop:.3} TARGET, rose {rise:.2} of the push"
            )?,
        }
        write!(f, "; {} in a row", self.positives)?;
        if self.yielded {
            write!(f, ", yields")?;
        }
        Ok(())
    }
}

/// A probe while yielding.
#[derive(Clone, Copy, Debug, PartialEq)]
struct Probe {
    start: Instant,
    end: Instant,
    give_up: Instant,
    /// Queuing delay when it began.
    from: Duration,
    /// Whether it began from a standing queue (with busy_above_eta, above eta): it finds no
    /// room and only pushes ([`Competitor::pushing_probe`]).
    standing: bool,
    /// Largest queuing delay over the ACKs of its packets.
    peak: Option<Duration>,
    /// When the last of its packets was acknowledged.
    acked: Option<Instant>,
    /// Smallest queuing delay in the AFTERMATH_RTTS after that.
    after: Option<Duration>,
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
    /// The last observation's `eta` (a probe due above it is skipped with
    /// `busy_above_eta`).
    eta: Option<Duration>,
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
            eta: None,
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

    /// The length of the probe sending at `now` when it began from a standing queue (see
    /// [`Competitor::busy_above_eta`]): such a probe has no room to find and only pushes the
    /// queue, for a flow of our kind to back off from. None otherwise.
    pub fn pushing_probe(&self, now: Instant) -> Option<Duration> {
        match self.state {
            State::Yielding { probe: Some(p), .. } if now < p.end && p.standing => {
                Some(p.end.saturating_since(p.start))
            }
            _ => None,
        }
    }

    /// While yielding: the pacing rate (bytes/s) and the window (bytes) the flow must keep
    /// to at `now`, a probe's or the yield's. None when not yielding.
    pub fn limits(&self, now: Instant, mss: f64, rtt: Duration) -> Option<(f64, f64)> {
        let State::Yielding { probe, .. } = self.state else {
            return None;
        };
        let c = self.path.get().max(mss);
        match probe {
            Some(p) if now < p.end => {
                let rate = self.cfg.probe_share * c;
                let len = p.end.saturating_since(p.start);
                Some((rate, (rate * (rtt + len).as_secs_f64()).max(2.0 * mss)))
            }
            _ => Some((self.cfg.yield_share * c, mss)),
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
        let State::Yielding {
            next_probe,
            probe,
            room_at,
            high_at,
            ..
        } = &mut self.state
        else {
            return;
        };
        match probe {
            None if now >= *next_probe => {
                // Long enough, at probe_share of the path's rate into a busy link, to raise a
                // queue held near TARGET to (1 + push_share) TARGET: a LEDBAT++ flow holding
                // it backs off from that.
                // (From a quarter of TARGET: a queue that may be a flow of our kind's ramp
                // gets the same push.)
                let t = self.push_target.unwrap_or(Duration::ZERO);
                let near = probe_range(qd, t);
                // With busy_above_eta a probe from a queue above eta finds no room whatever
                // it adds (see `on_ack`); only one near TARGET can still tell our kind by
                // its backing off. The others are not run: they would only cost the
                // competitor a share of its link (up to 6 RTTs at probe_share each
                // probe_interval, a third of the link behind a loss-based download).
                // Nor one near TARGET when the queue stood above 1.2 TARGET in the last
                // HIGH_MEMORY: our kind holds it at TARGET, and a loss-based download's
                // sawtooth passes through the range after each loss.
                let high = high_at.is_some_and(|h| now.saturating_since(h) < HIGH_MEMORY);
                let standing = self.busy_above_eta && self.eta.is_some_and(|e| qd > e);
                if standing && (!near || high) {
                    *next_probe = now + self.cfg.probe_interval;
                    *room_at = None;
                    return;
                }
                let rise = crate::slowdown::scale(t, 1.0 + self.cfg.push_share).saturating_sub(qd);
                let len = if near {
                    PROBE_LEN.max(crate::slowdown::scale(rise, 1.0 / self.cfg.probe_share))
                } else {
                    PROBE_LEN
                };
                // probe_rtts is for a probe that may find room; one from a standing queue
                // cannot (see `on_ack`) and only pushes: the sender's length does that.
                let len = if self.probe_rtts > 0.0 && !standing {
                    len.max(crate::slowdown::scale(rtt, self.probe_rtts))
                } else {
                    len
                };
                let end = now + len;
                *probe = Some(Probe {
                    start: now,
                    end,
                    give_up: end + (rtt * 4).max(PROBE_GIVE_UP),
                    from: qd,
                    standing,
                    peak: None,
                    acked: None,
                    after: None,
                });
            }
            Some(p) if now >= p.give_up => {
                // No ACK of packets sent after it (the receiver stalled): no evidence.
                *probe = None;
                *room_at = None;
                *next_probe = now + self.cfg.probe_interval;
            }
            _ => {}
        }
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
            self.state = State::Yielding {
                next_probe: now + self.cfg.probe_interval,
                probe: None,
                room_at: None,
                backed_at: None,
                falls: 0,
                drained_last: false,
                high_at: None,
            };
        }
    }

    /// During a push test's push: the bytes the window grows by.
    pub fn push_window(&self, now: Instant) -> Option<f64> {
        self.push.filter(|p| now < p.push_until).map(|p| p.extra)
    }

    /// The figures of the last test that counted or collided, if any.
    pub fn last_test(&self) -> Option<TestOutcome> {
        self.last_test
    }

    /// Whether a push test is in progress (the owner starts no slowdown meanwhile).
    pub fn pushing(&self) -> bool {
        self.push.is_some()
    }

    /// The fall, in TARGETs, that makes a push test by a flow holding `share` of the path's
    /// rate negative: `push_drop`, or with `push_drop_scaled` `push_drop x min(1, 2 (1 -
    /// share))`.
    fn push_threshold(&self, share: f64) -> f64 {
        if self.cfg.push_drop_scaled {
            self.cfg.push_drop * (2.0 * (1.0 - share)).clamp(0.0, 1.0)
        } else {
            self.cfg.push_drop
        }
    }

    /// Ends a push test that is due at `now`.
    fn poll_push(&mut self, now: Instant, target: Duration) {
        let Some(p) = self.push else { return };
        if now < p.until {
            return;
        }
        self.push = None;
        let q0 = p.q0.as_secs_f64();
        let t = target.as_secs_f64();
        let drop = q0 - p.after.unwrap_or(q0);
        let rise = if p.c > 0.0 && p.extra > 0.0 {
            (p.peak - q0) / (p.extra / p.c)
        } else {
            0.0
        };
        let verdict = if rise > DOUBLE_PUSH {
            // The queue rose well beyond what this push added: another flow pushed at the
            // same time (another of our kind testing), and neither could back off. No
            // verdict; the next suspicion waits a different random time.
            Verdict::Collision
        } else if drop >= self.push_threshold(p.share) * t {
            Verdict::Negative
        } else {
            Verdict::Positive
        };
        let kind = TestKind::Push {
            drop: if t > 0.0 { drop / t } else { 0.0 },
            rise,
        };
        if verdict == Verdict::Collision {
            self.push_collisions += 1;
            self.last_test = Some(TestOutcome {
                at: now,
                kind,
                share: p.share,
                suspected: true,
                verdict,
                positives: 0,
                yielded: false,
            });
        } else {
            self.verdict(now, kind, p.share, verdict, true);
        }
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
        if let Some(p) = &mut self.push {
            p.peak = p.peak.max(o.qd.as_secs_f64());
            if now >= p.observe_from && p.c > 0.0 {
                // The queue the others hold: this flow's flight below f0 took its part away.
                let other = o.qd.as_secs_f64() + (p.f0 - o.flight) / p.c;
                p.after = Some(p.after.map_or(other, |m| m.min(other)));
            }
            return Action::None;
        }
        let c = self.path.get();
        let confirming = self.confirming();
        match &mut self.state {
            State::Watching {
                suspect_since,
                quiet_until,
                first_positive,
                ..
            } => {
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
                let small = o.rate.is_some_and(|(r, app_limited)| {
                    !app_limited
                        && c > 0.0
                        && r < self.cfg.share * c
                        && (above || confirming || r >= self.cfg.min_share * c)
                });
                let quiet = quiet_until.is_some_and(|q| now < q);
                if o.phase != FlowPhase::Avoidance || !busy || quiet {
                    *suspect_since = None;
                    return Action::None;
                }
                if o.rate.is_none() {
                    return Action::None;
                }
                if !small {
                    *suspect_since = None;
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
                let gap = first_positive
                    .is_some_and(|f| verdict_at.saturating_since(f) < self.cfg.test_gap);
                if now.saturating_since(since) >= due && !gap {
                    *suspect_since = None;
                    if above {
                        // A queue standing above TARGET: does it stay while this flow holds?
                        self.test_pending = true;
                        return Action::Test;
                    }
                    // Near TARGET: push it above and see whether the others back off.
                    let rtt = o.rtt;
                    let push_until = now + rtt;
                    let observe_from = push_until + rtt;
                    self.push = Some(Push {
                        q0: o.qd,
                        f0: o.flight,
                        c,
                        // Up to (1 + push_share) TARGET, and at least push_share TARGET more.
                        extra: c
                            * (self.cfg.push_share * o.target.as_secs_f64()).max(
                                (1.0 + self.cfg.push_share) * o.target.as_secs_f64()
                                    - o.qd.as_secs_f64(),
                            ),
                        push_until,
                        observe_from,
                        until: observe_from + rtt * 2,
                        after: None,
                        peak: o.qd.as_secs_f64(),
                        share: self.share,
                    });
                    return Action::None;
                }
                Action::None
            }
            State::Yielding {
                next_probe,
                probe,
                room_at,
                backed_at,
                falls,
                drained_last,
                high_at,
            } => {
                let Some(mut p) = *probe else {
                    // The queue drained: the competitor may have left; probe at once.
                    if o.qd <= o.eta && self.last_qd.is_some_and(|q| q > o.eta) {
                        *next_probe = (*next_probe).min(now);
                    }
                    if o.qd <= o.eta {
                        *high_at = None;
                    } else if above_probe_range(o.qd, o.target) {
                        *high_at = Some(now);
                    }
                    self.last_qd = Some(o.qd);
                    return Action::None;
                };
                if o.newest_sent >= p.start && o.newest_sent < p.end {
                    p.peak = Some(p.peak.map_or(o.qd, |m| m.max(o.qd)));
                    *probe = Some(p);
                    return Action::None;
                }
                if o.newest_sent < p.end {
                    return Action::None;
                }
                // The probe's packets are all acknowledged; for AFTERMATH_RTTS more, does
                // the other traffic back off from the queue the probe added?
                let acked = *p.acked.get_or_insert(now);
                p.after = Some(p.after.map_or(o.qd, |m| m.min(o.qd)));
                if now.saturating_since(acked) < crate::slowdown::scale(o.rtt, AFTERMATH_RTTS) {
                    *probe = Some(p);
                    return Action::None;
                }
                *probe = None;
                *next_probe = now + self.cfg.probe_interval;
                let len = p.end.saturating_since(p.start);
                let growth = p.peak.map(|m| m.saturating_sub(p.from));
                // A link kept full by a flow pacing at its rate queues all the probe adds,
                // probe_share * len; a window-limited one part of it. A quarter of it is busy.
                let full = crate::slowdown::scale(len, self.cfg.probe_share * 0.25);
                let t = o.target.as_nanos();
                let from = p.from.as_nanos();
                let after = p.after.unwrap_or(p.from).as_nanos();
                // A flow that backs off from the probe's queue twice in a row is one of our
                // kind (a latecomer whose slow start looked like a competitor): share with
                // it as LEDBAT++ does. Backing off: the queue falls by push_drop * TARGET,
                // or drains to nothing (a LEDBAT++ flow that joined the slowdown it read in
                // the probe's end). Once is not enough: BBR's queue falls at times of its
                // own (the window it sets after a ProbeRTT) and drains in its ProbeRTT, a
                // competitor's drains when it leaves (which the room test below finds);
                // only our kind backs off after each probe. Nor a drain and then a fall
                // short of one: one ProbeRTT empties the queue after one probe and leaves
                // BBR's queue lower after the next; our kind falls a third time, BBR's
                // queue stands by then. An empty queue between two falls short of a drain
                // proves nothing: our kind's periodic slowdowns empty it too.
                let drop = crate::slowdown::scale(o.target, self.cfg.push_drop).as_nanos();
                if probe_range(p.from, o.target) {
                    let drained = after <= o.eta.as_nanos();
                    let fell = drained || after + drop <= from;
                    let in_row = backed_at.is_some_and(|b| now.saturating_since(b) <= KIN_CONFIRM);
                    let need = if fell && in_row && *drained_last && !drained {
                        3
                    } else {
                        2
                    };
                    if !fell {
                        *falls = 0;
                    } else if in_row {
                        *falls += 1;
                    } else {
                        *falls = 1;
                    }
                    *backed_at = fell.then_some(now);
                    *drained_last = drained;
                    if *falls >= need {
                        self.state = State::Watching {
                            suspect_since: None,
                            positives: 0,
                            first_positive: None,
                            quiet_until: Some(now + quiet_for(self.cfg.quiet, &mut self.kin)),
                        };
                        return Action::Resume(0);
                    }
                }
                // A queue at half TARGET or more when it began: the link was busy anyway
                // (a full FIFO has no room to show a probe's growth); with busy_above_eta,
                // any queue above eta (ours was at its floor).
                let standing = self.busy_above_eta && from > o.eta.as_nanos();
                if from * 2 >= t || standing || growth.is_none_or(|g| g >= full) {
                    *room_at = None;
                    return Action::None;
                }
                match *room_at {
                    Some(first) if now.saturating_since(first) >= self.cfg.confirm => {
                        self.state = State::Watching {
                            suspect_since: None,
                            positives: 0,
                            first_positive: None,
                            quiet_until: Some(now + self.cfg.quiet),
                        };
                        let bdp = c * o.rtt.saturating_sub(o.qd).as_secs_f64();
                        Action::Resume(bdp as u64)
                    }
                    Some(_) => {
                        *next_probe = now + self.cfg.confirm;
                        Action::None
                    }
                    None => {
                        *room_at = Some(now);
                        *next_probe = now + self.cfg.confirm;
                        Action::None
                    }
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const MSS: f64 = 1500.0;
    /// 10 Mbit/s in bytes per second.
    const C: f64 = 1_250_000.0;

    fn ms(v: u64) -> Duration {
        Duration::from_millis(v)
    }

    fn at(v: u64) -> Instant {
        Instant::from_millis(v)
    }

    fn on() -> Competitor {
        Competitor::new(CompetitorConfig {
            enabled: true,
            ..CompetitorConfig::default()
        })
    }

    /// Detection on, periodic holds counted when positive too.
    fn periodic_on() -> Competitor {
        Competitor::new(CompetitorConfig {
            enabled: true,
            periodic_positive: true,
            ..CompetitorConfig::default()
        })
    }

    /// An observation at TARGET 60 ms, RTT 100 ms, eta 2 ms.
    fn obs(qd: u64, phase: FlowPhase, rate: Option<f64>, newest_sent: Instant) -> Observation {
        Observation {
            qd: ms(qd),
            target: ms(60),
            rtt: ms(100),
            eta: ms(2),
            mss: MSS,
            phase,
            rate: rate.map(|r| (r, false)),
            newest_sent,
            flight: 50.0 * MSS,
        }
    }

    /// Teaches `c` the path's rate C at `t` ms (a sample of a flow alone, queue empty).
    fn learn_rate(c: &mut Competitor, t: u64) {
        c.on_ack(at(t), &obs(0, FlowPhase::Avoidance, Some(C), at(t)));
    }

    /// One hold of the flow's own from `t` ms, 400 ms long, whose queue after its first RTT
    /// (100 ms) is `qd` ms.
    fn hold(c: &mut Competitor, t: u64, qd: u64) {
        c.hold_started(at(t), ms(100));
        // Within the first RTT the queue of before the hold still shows: not counted.
        c.on_ack(at(t + 50), &obs(70, FlowPhase::OwnHold, None, at(t)));
        for k in 1..=3 {
            c.on_ack(at(t + 100 * k), &obs(qd, FlowPhase::OwnHold, None, at(t)));
        }
        c.hold_ended(at(t + 400), ms(2), MSS);
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
    fn the_stage_names_the_suspicion_and_the_push_for_traces() {
        let mut c = on();
        learn_rate(&mut c, 0);
        assert_eq!(c.stage(at(0)), Stage::Watching);
        // Half of C with the queue at TARGET: suspect from the first such sample...
        c.on_ack(
            at(1000),
            &obs(60, FlowPhase::Avoidance, Some(0.5 * C), at(1000)),
        );
        assert_eq!(c.stage(at(1000)), Stage::Suspect);
        // ... and, once it has lasted, a push test (the suspicion is over then).
        let (c, t) = pushed();
        assert_eq!(c.stage(at(t)), Stage::PushTest);
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

    /// A flow near TARGET with 50 % of C, suspect from 1 s: a push test starts 4 RTTs
    /// (400 ms) and a random 0-4 RTTs later, with the queue at 60 ms and 50 packets in
    /// flight. Returns the detection and the push's start (ms).
    fn pushed() -> (Competitor, u64) {
        pushed_by(on(), 0.5)
    }

    /// `c` suspects at `share` of the path's rate and pushes (as `pushed`).
    fn pushed_by(mut c: Competitor, share: f64) -> (Competitor, u64) {
        learn_rate(&mut c, 0);
        let mut t = 1000;
        while !c.pushing() {
            let a = c.on_ack(
                at(t),
                &obs(60, FlowPhase::Avoidance, Some(share * C), at(t)),
            );
            assert_eq!(a, Action::None);
            t += 100;
        }
        let t = t - 100;
        assert!((1400..=1800).contains(&t), "push at {t} ms");
        // The window grows by C x max(0.3 x 60 ms, 1.3 x 60 ms - 60 ms) = 22 500 B for an RTT.
        let extra = c.push_window(at(t + 50)).unwrap();
        assert!((extra - 22_500.0).abs() < 1e-6, "{extra}");
        assert_eq!(c.push_window(at(t + 100)), None);
        (c, t)
    }

    #[test]
    fn a_push_the_others_back_off_from_is_negative_and_quiets_the_tests() {
        let (mut c, t) = pushed();
        // Observed from 2 to 4 RTTs after it began: the queue falls to 45 ms with our flight
        // as before, 15 ms below where it was (>= 0.15 x 60 = 9 ms): the others backed off.
        for d in [250, 300, 350] {
            c.on_ack(at(t + d), &obs(45, FlowPhase::Avoidance, None, at(t + d)));
        }
        c.poll(at(t + 400), ms(45), ms(100));
        assert!(!c.pushing());
        assert_eq!(c.tests(), 1);
        assert!(!c.confirming());
        // Quiet for 2 s: no suspicion meanwhile.
        for k in 1..=19 {
            let now = t + 400 + 100 * k;
            let a = c.on_ack(
                at(now),
                &obs(60, FlowPhase::Avoidance, Some(0.5 * C), at(now)),
            );
            assert_eq!(a, Action::None);
        }
        assert!(!c.pushing());
    }

    /// A push whose queue is `qd` ms (our flight as at the start) from 2 to 4 RTTs after
    /// it began; returns the outcome.
    fn push_met_by(qd: u64) -> (Competitor, TestOutcome) {
        push_at_share_met_by(on(), 0.5, qd)
    }

    /// As `push_met_by`, `c` pushing at `share` of the path's rate.
    fn push_at_share_met_by(c: Competitor, share: f64, qd: u64) -> (Competitor, TestOutcome) {
        let (mut c, t) = pushed_by(c, share);
        for d in [250, 300, 350] {
            c.on_ack(at(t + d), &obs(qd, FlowPhase::Avoidance, None, at(t + d)));
        }
        c.poll(at(t + 400), ms(qd), ms(100));
        assert!(!c.pushing());
        let o = c.last_test().expect("the push ended");
        assert_eq!(o.at, at(t + 400));
        (c, o)
    }

    #[test]
    fn a_test_outcome_reads_as_one_line_for_traces() {
        let hold = TestOutcome {
            at: at(1400),
            kind: TestKind::Hold {
                min: ms(10),
                threshold: Duration::from_micros(3_600),
            },
            share: 0.5,
            suspected: false,
            verdict: Verdict::Positive,
            positives: 2,
            yielded: true,
        };
        assert_eq!(
            hold.to_string(),
            "hold positive (periodic): share 0.50, min 10.0 ms against 3.6 ms; 2 in a row, yields"
        );
        let push = TestOutcome {
            kind: TestKind::Push {
                drop: 0.0667,
                rise: 0.0,
            },
            suspected: true,
            verdict: Verdict::Negative,
            positives: 0,
            yielded: false,
            ..hold
        };
        assert_eq!(
            push.to_string(),
            "push negative: share 0.50, the others' queue fell 0.067 TARGET, rose 0.00 of the \
             push; 0 in a row"
        );
    }

    /// A push test's figures (drop, rise).
    fn push_figures(o: &TestOutcome) -> (f64, f64) {
        match o.kind {
            TestKind::Push { drop, rise } => (drop, rise),
            k => panic!("not a push test: {k:?}"),
        }
    }

    #[test]
    fn a_push_test_records_its_figures_for_traces() {
        // 60 -> 56 ms, our flight as at the start: the others' queue fell 4 ms = 0.067
        // TARGET, short of push_drop x TARGET = 9 ms: positive. A flow of our kind with a
        // small share backs off by about that much in two RTTs at a base RTT near zero;
        // docs/sidebyside/push-backoff.md tells why the threshold stays.
        let (c, o) = push_met_by(56);
        assert_eq!(o.verdict, Verdict::Positive);
        let (drop, rise) = push_figures(&o);
        assert!((drop - 4.0 / 60.0).abs() < 1e-9, "{drop}");
        assert!((o.share - 0.5).abs() < 1e-9, "{}", o.share);
        // The queue never rose above 60 ms: 0 of the push's 18 ms.
        assert_eq!(rise, 0.0);
        assert!(o.suspected);
        assert_eq!((o.positives, o.yielded), (1, false));
        assert_eq!(c.tests(), 1);
        assert!(c.confirming(), "one positive");
        // 60 -> 50 ms: 10 ms >= 9 ms, negative.
        let (c, o) = push_met_by(50);
        assert_eq!(o.verdict, Verdict::Negative);
        assert!((push_figures(&o).0 - 10.0 / 60.0).abs() < 1e-9, "{o:?}");
        assert_eq!(o.positives, 0);
        assert!(!c.confirming());
    }

    #[test]
    fn a_scaled_push_threshold_falls_with_the_others_share_above_half() {
        let scaled = || {
            Competitor::new(CompetitorConfig {
                enabled: true,
                push_drop_scaled: true,
                ..CompetitorConfig::default()
            })
        };
        // push_drop x min(1, 2 (1 - share)): 0.15 up to a share of 0.5, 0.15 x 0.6 = 0.09 at
        // 0.7, 0 at 1; unscaled 0.15 whatever the share.
        let c = scaled();
        for (share, want) in [(0.3, 0.15), (0.5, 0.15), (0.7, 0.09), (1.0, 0.0)] {
            assert!((c.push_threshold(share) - want).abs() < 1e-12, "{share}");
            assert!((on().push_threshold(share) - 0.15).abs() < 1e-12, "{share}");
        }
        // Pushing at 0.7 of C, the queue falls 60 -> 54 ms: 6 ms = 0.1 TARGET, above 0.09
        // x 60 = 5.4 ms (negative) and short of the unscaled 9 ms (positive).
        let (_, o) = push_at_share_met_by(scaled(), 0.7, 54);
        assert!((o.share - 0.7).abs() < 1e-9, "{}", o.share);
        assert_eq!(o.verdict, Verdict::Negative);
        assert_eq!(
            push_at_share_met_by(on(), 0.7, 54).1.verdict,
            Verdict::Positive
        );
        // 60 -> 55 ms: 5 ms < 5.4 ms, positive either way.
        assert_eq!(
            push_at_share_met_by(scaled(), 0.7, 55).1.verdict,
            Verdict::Positive
        );
        // At half the link the scaled threshold is the unscaled one: 6 ms is short of 9.
        assert_eq!(
            push_at_share_met_by(scaled(), 0.5, 54).1.verdict,
            Verdict::Positive
        );
    }

    #[test]
    fn a_push_whose_queue_stays_is_positive() {
        let (mut c, t) = pushed();
        // The queue stays at 60 ms although our flight is 5 packets (6 ms at C) smaller than
        // at the start: the others' queue grew to 66 ms.
        for d in [250, 300, 350] {
            let mut o = obs(60, FlowPhase::Avoidance, None, at(t + d));
            o.flight = 45.0 * MSS;
            c.on_ack(at(t + d), &o);
        }
        c.poll(at(t + 400), ms(60), ms(100));
        assert!(!c.pushing());
        assert!(c.confirming(), "one positive");
    }

    #[test]
    fn a_push_that_meets_another_push_is_void() {
        let (mut c, t) = pushed();
        // Ours adds 22 500 B = 18 ms; the queue reaches 60 + 36 ms: another flow pushed too.
        c.on_ack(
            at(t + 100),
            &obs(96, FlowPhase::Avoidance, None, at(t + 50)),
        );
        for d in [250, 300, 350] {
            c.on_ack(at(t + d), &obs(60, FlowPhase::Avoidance, None, at(t + d)));
        }
        c.poll(at(t + 400), ms(60), ms(100));
        assert!(!c.pushing());
        assert_eq!((c.tests(), c.push_collisions()), (0, 1));
        assert!(!c.confirming());
        // Risen 36 ms, twice the push's 18 ms.
        let o = c.last_test().unwrap();
        assert_eq!(o.verdict, Verdict::Collision);
        assert!((push_figures(&o).1 - 2.0).abs() < 1e-9, "{o:?}");
    }

    /// A detection yielding from `t` ms with C known, its first probe due at `t` + 1 s.
    fn yielding_at(t: u64) -> Competitor {
        let mut c = on();
        learn_rate(&mut c, 0);
        c.state = State::Yielding {
            next_probe: at(t + 1000),
            probe: None,
            room_at: None,
            backed_at: None,
            falls: 0,
            drained_last: false,
            high_at: None,
        };
        c
    }

    /// A probe starting at `t` ms (when the queue is `from` ms) whose ACKs show `peak` ms of
    /// queue; its aftermath at `after` ms. Returns the action of the ACK that ends it.
    fn probe(c: &mut Competitor, t: u64, from: u64, peak: u64, after: u64) -> Action {
        c.on_ack(at(t), &obs(from, FlowPhase::Other, None, at(t - 100)));
        assert!(c.probing(at(t)), "a probe from {t} ms");
        // PROBE_LEN (30 ms) at half of C: 0.5 x 1.25 MB/s, a window of rate x (RTT + 30 ms).
        let (rate, window) = c.limits(at(t + 10), MSS, ms(100)).unwrap();
        assert!((rate - 625_000.0).abs() < 1e-6 && (window - 81_250.0).abs() < 1e-6);
        assert!(!c.probing(at(t + 30)));
        c.on_ack(at(t + 100), &obs(peak, FlowPhase::Other, None, at(t + 10)));
        c.on_ack(at(t + 130), &obs(after, FlowPhase::Other, None, at(t + 30)));
        // The aftermath lasts AFTERMATH_RTTS (200 ms) from the first ACK beyond the probe.
        c.on_ack(
            at(t + 250),
            &obs(after, FlowPhase::Other, None, at(t + 150)),
        );
        c.on_ack(
            at(t + 330),
            &obs(after, FlowPhase::Other, None, at(t + 230)),
        )
    }

    #[test]
    fn probes_that_find_room_twice_half_a_second_apart_end_the_yield() {
        let mut c = yielding_at(0);
        // Growth 1 ms < 0.5 x 30 ms / 4 = 3.75 ms: room, confirmed 500 ms later.
        assert_eq!(probe(&mut c, 1000, 0, 1, 0), Action::None);
        assert!(c.yielding());
        assert_eq!(c.next_tick(), Some(at(1830)));
        match probe(&mut c, 1830, 0, 1, 0) {
            // Slow start up to C x (RTT 100 ms - qd 0) = 125 000 B.
            Action::Resume(bdp) => assert!(bdp.abs_diff(125_000) <= 1, "{bdp}"),
            a => panic!("{a:?}"),
        }
        assert!(!c.yielding());
    }

    #[test]
    fn a_probe_whose_queue_stays_keeps_the_flow_yielding() {
        let mut c = yielding_at(0);
        // From 5 ms of queue the probe's 15 ms show in full: a link kept busy by a flow that
        // does not leave room. Then room once, then busy again: the count starts over.
        assert_eq!(probe(&mut c, 1000, 5, 20, 5), Action::None);
        // Busy: the next probe 1 s after the evaluation (1.33 s); room: 0.5 s after it.
        assert_eq!(probe(&mut c, 2330, 0, 1, 0), Action::None);
        // 80 ms of queue when it begins (TARGET / 2 or more, and above 1.2 TARGET, so a
        // probe of the standard length): busy whatever it adds.
        assert_eq!(probe(&mut c, 3160, 80, 80, 80), Action::None);
        assert_eq!(probe(&mut c, 4490, 0, 1, 0), Action::None);
        assert!(c.yielding(), "room once since the last busy probe");
    }

    #[test]
    fn with_busy_above_eta_a_probe_due_on_a_standing_queue_is_not_run() {
        // From 5 ms of queue (above eta 2 ms, under TARGET / 4) a probe that adds 1 ms:
        // room for the sender's rule, twice and the yield ends. For an owner whose window
        // is at its floor (busy_above_eta) the 5 ms are the others': no probe (it could
        // find no room), the next due a probe_interval later; nor from 80 ms (above 1.2
        // TARGET).
        let mut sender = yielding_at(0);
        assert_eq!(probe(&mut sender, 1000, 5, 6, 5), Action::None);
        assert!(matches!(
            probe(&mut sender, 1830, 5, 6, 5),
            Action::Resume(_)
        ));
        let mut receiver = yielding_at(0);
        receiver.busy_above_eta = true;
        for (t, qd) in [(1000, 5), (2000, 80)] {
            receiver.on_ack(at(t), &obs(qd, FlowPhase::Other, None, at(t - 100)));
            assert!(!receiver.probing(at(t)), "{qd} ms");
            assert_eq!(receiver.next_tick(), Some(at(t + 1000)));
        }
        // The queue at eta or under when it is due: probes as the sender's, room twice.
        assert_eq!(probe(&mut receiver, 3000, 2, 3, 2), Action::None);
        assert!(matches!(
            probe(&mut receiver, 3830, 2, 3, 2),
            Action::Resume(_)
        ));
    }

    #[test]
    fn with_probe_rtts_only_a_probe_that_may_find_room_lasts_that_many_rtts() {
        // probe_rtts 6 at an RTT of 100 ms: 600 ms. From 50 ms of queue (near TARGET 60 ms)
        // the sender's length: until the queue would reach 1.3 x 60 = 78 ms at half of C,
        // (78 - 50) / 0.5 = 56 ms. With busy_above_eta that queue stands above eta (2 ms):
        // no room to find, the 56 ms; without it, the 600. From eta, 600 either way. Only
        // the first only pushes (pushing_probe: its length while it runs).
        for (above_eta, from, len) in [
            (true, 50, 56),
            (false, 50, 600),
            (true, 2, 600),
            (false, 2, 600),
        ] {
            let mut c = yielding_at(0).probe_rtts(6.0);
            c.busy_above_eta = above_eta;
            c.on_ack(at(1000), &obs(from, FlowPhase::Other, None, at(900)));
            assert!(c.probing(at(1000)), "{above_eta} {from}");
            assert_eq!(c.next_tick(), Some(at(1000 + len)), "{above_eta} {from}");
            let pushes = (above_eta && from == 50).then(|| Duration::from_millis(len));
            assert_eq!(c.pushing_probe(at(1000)), pushes, "{above_eta} {from}");
            assert_eq!(c.pushing_probe(at(1000 + len - 1)), pushes);
            assert_eq!(c.pushing_probe(at(1000 + len)), None, "ended");
        }
    }

    #[test]
    fn with_busy_above_eta_no_probe_near_target_after_the_queue_stood_above_it() {
        // A loss-based download's sawtooth: 100 ms of queue (above 1.2 TARGET = 72 ms) at
        // 0.5 s, then 50 to 60 ms (near TARGET). The sender probes when due, at 1 s; the
        // receiver skips the probes due at 1 to 5 s (our kind would not have let the queue
        // stand at 100 ms HIGH_MEMORY ago) and runs the one due at 6 s.
        for above_eta in [false, true] {
            let mut c = yielding_at(0);
            c.busy_above_eta = above_eta;
            c.on_ack(at(500), &obs(100, FlowPhase::Other, None, at(400)));
            c.on_ack(at(1000), &obs(50, FlowPhase::Other, None, at(900)));
            assert_eq!(
                c.probing(at(1000)),
                !above_eta,
                "busy_above_eta {above_eta}"
            );
            if above_eta {
                for t in [2000, 3000, 4000, 5000] {
                    assert_eq!(c.next_tick(), Some(at(t)));
                    c.on_ack(at(t), &obs(60, FlowPhase::Other, None, at(t - 100)));
                    assert!(!c.probing(at(t)), "{t}");
                }
                c.on_ack(at(6000), &obs(50, FlowPhase::Other, None, at(5900)));
                assert!(c.probing(at(6000)));
            }
        }
        // A queue that drains to eta after standing high: the probe due then runs.
        let mut c = yielding_at(0);
        c.busy_above_eta = true;
        c.on_ack(at(500), &obs(100, FlowPhase::Other, None, at(400)));
        c.on_ack(at(600), &obs(2, FlowPhase::Other, None, at(500)));
        // (the drain made a probe due at once; it runs from the next ACK, from eta)
        c.on_ack(at(610), &obs(2, FlowPhase::Other, None, at(510)));
        assert!(c.probing(at(610)));
        // ... and, when the next ACK comes with the queue near TARGET again, from there:
        // the drain cleared what stood before it.
        let mut c = yielding_at(0);
        c.busy_above_eta = true;
        c.on_ack(at(500), &obs(100, FlowPhase::Other, None, at(400)));
        c.on_ack(at(600), &obs(2, FlowPhase::Other, None, at(500)));
        c.on_ack(at(1000), &obs(50, FlowPhase::Other, None, at(900)));
        assert!(c.probing(at(1000)));
    }

    #[test]
    fn with_busy_above_eta_a_probe_near_target_runs_and_its_standing_start_is_busy() {
        // 20 ms of queue when due (TARGET / 4 = 15 ms: near, so the probe runs, to tell our
        // kind); it adds 1 ms and the queue stays. Room for the sender's rule (under
        // TARGET / 2 when it began): twice, and the yield ends; busy for the receiver's
        // (above eta): it keeps yielding.
        for (above_eta, yielding) in [(false, false), (true, true)] {
            let mut c = yielding_at(0);
            c.busy_above_eta = above_eta;
            let mut due = at(1000);
            for _ in 0..2 {
                c.on_ack(due, &obs(20, FlowPhase::Other, None, due - ms(100)));
                assert!(c.probing(due));
                let end = c.next_tick().unwrap();
                c.on_ack(due + ms(20), &obs(21, FlowPhase::Other, None, due + ms(1)));
                // its aftermath: ACKs of packets sent after its end, for AFTERMATH_RTTS
                let mut t = end + ms(100);
                while t <= end + ms(400) {
                    c.on_ack(t, &obs(20, FlowPhase::Other, None, end + ms(1)));
                    t += ms(100);
                }
                match c.next_tick() {
                    Some(t) => due = t,
                    None => break, // resumed
                }
            }
            assert_eq!(c.yielding(), yielding, "busy_above_eta {above_eta}");
        }
    }

    #[test]
    fn a_probe_near_target_runs_until_it_would_raise_the_queue_to_1_3_target() {
        let mut c = yielding_at(0);
        // From 60 ms: until the probe would raise the queue to 1.3 x 60 = 78 ms, 18 ms at half
        // of C: 36 ms. From 10 ms (below TARGET / 4): the standard 30 ms.
        c.on_ack(at(1000), &obs(60, FlowPhase::Other, None, at(900)));
        let State::Yielding { probe: Some(p), .. } = c.state else {
            panic!("no probe");
        };
        assert_eq!(p.end.saturating_since(p.start), ms(36));
        let mut c = yielding_at(0);
        c.on_ack(at(1000), &obs(10, FlowPhase::Other, None, at(900)));
        let State::Yielding { probe: Some(p), .. } = c.state else {
            panic!("no probe");
        };
        assert_eq!(p.end.saturating_since(p.start), PROBE_LEN);
    }

    /// A probe from a queue of 60 ms at `t` ms (36 ms long) whose aftermath falls to `after`
    /// ms; returns the action of the ACK that ends it, 345 ms after `t`.
    fn probe_near_target(c: &mut Competitor, t: u64, after: u64) -> Action {
        c.on_ack(at(t), &obs(60, FlowPhase::Other, None, at(t - 100)));
        assert!(c.probing(at(t)), "a probe from {t} ms");
        c.on_ack(at(t + 100), &obs(75, FlowPhase::Other, None, at(t + 10)));
        c.on_ack(at(t + 140), &obs(after, FlowPhase::Other, None, at(t + 36)));
        c.on_ack(
            at(t + 250),
            &obs(after, FlowPhase::Other, None, at(t + 150)),
        );
        c.on_ack(
            at(t + 345),
            &obs(after, FlowPhase::Other, None, at(t + 245)),
        )
    }

    #[test]
    fn a_queue_near_target_that_falls_after_two_probes_is_a_flow_of_our_kind() {
        let mut c = yielding_at(0);
        // Falls to 45 ms (by 15 >= push_drop x TARGET = 9 ms): BBR's window settling after a
        // ProbeRTT could do that once; busy (the probe began at TARGET / 2 or more). The
        // next probe 1 s after the evaluation.
        assert_eq!(probe_near_target(&mut c, 1000, 45), Action::None);
        assert!(c.yielding());
        assert_eq!(c.next_tick(), Some(at(2345)));
        // Again 1.345 s later (<= KIN_CONFIRM): a flow that backs off after each probe.
        assert_eq!(probe_near_target(&mut c, 2345, 45), Action::Resume(0));
        assert!(!c.yielding());
    }

    #[test]
    fn a_queue_that_drains_after_two_probes_near_target_is_a_flow_of_our_kind() {
        let mut c = yielding_at(0);
        // Drained to 0 ms: a LEDBAT++ flow that joined the slowdown it read in the probe's
        // end, or a ProbeRTT; the second time, our kind (BBR's ProbeRTT comes every 10 s).
        assert_eq!(probe_near_target(&mut c, 1000, 0), Action::None);
        assert_eq!(probe_near_target(&mut c, 2345, 0), Action::Resume(0));
    }

    #[test]
    fn two_falls_with_the_queue_emptied_between_them_are_a_flow_of_our_kind() {
        let mut c = yielding_at(0);
        // A fall to 45 ms (by 15 >= 9 ms); then the queue drains between the probes (an ACK
        // at 0 ms: a periodic slowdown of our kind's); the next probe starts at once, from
        // an empty queue (cannot tell: busy, its 15 ms show in full).
        assert_eq!(probe_near_target(&mut c, 1000, 45), Action::None);
        c.on_ack(at(1350), &obs(45, FlowPhase::Other, None, at(1250)));
        c.on_ack(at(1400), &obs(0, FlowPhase::Other, None, at(1300)));
        assert_eq!(c.next_tick(), Some(at(1400)));
        assert_eq!(probe(&mut c, 1405, 0, 15, 0), Action::None);
        // Probe 1 s after that one was evaluated (1735 ms): falls to 45 ms again, 1.735 s
        // after the first (<= KIN_CONFIRM). Neither fall drained: our kind.
        assert_eq!(probe_near_target(&mut c, 2735, 45), Action::Resume(0));
        assert!(!c.yielding());
    }

    #[test]
    fn a_fall_short_of_a_drain_right_after_a_drain_needs_a_third_fall() {
        let mut c = yielding_at(0);
        // A drain after the first probe (a ProbeRTT, or our kind joining the slowdown it
        // read), then a fall to 45 ms 1.345 s later: BBR's queue settling lower could do
        // that after its ProbeRTT; not yet our kind.
        assert_eq!(probe_near_target(&mut c, 1000, 0), Action::None);
        assert_eq!(probe_near_target(&mut c, 2345, 45), Action::None);
        assert!(c.yielding());
        // A third fall in the row, 1.345 s later: a flow that backs off after each probe.
        assert_eq!(probe_near_target(&mut c, 3690, 45), Action::Resume(0));
    }

    #[test]
    fn a_queue_that_drains_after_two_probes_from_half_target_is_a_flow_of_our_kind() {
        let mut c = yielding_at(0);
        for (t, want) in [(1000, Action::None), (2500, Action::Resume(0))] {
            // From 30 ms: the probe runs until it would raise the queue to 78 ms, 48 ms at
            // half of C: 96 ms. Its ACKs show 60 ms; after it the queue drains to 0 (<= eta
            // 2 ms): a flow that joined the slowdown it read in the probe's end.
            c.on_ack(at(t), &obs(30, FlowPhase::Other, None, at(t - 100)));
            let State::Yielding { probe: Some(p), .. } = c.state else {
                panic!("no probe at {t}");
            };
            assert_eq!(p.end.saturating_since(p.start), ms(96));
            c.on_ack(at(t + 150), &obs(60, FlowPhase::Other, None, at(t + 90)));
            c.on_ack(at(t + 200), &obs(0, FlowPhase::Other, None, at(t + 100)));
            c.on_ack(at(t + 300), &obs(0, FlowPhase::Other, None, at(t + 200)));
            assert_eq!(
                c.on_ack(at(t + 400), &obs(0, FlowPhase::Other, None, at(t + 300))),
                want,
                "{t}"
            );
        }
        assert!(!c.yielding());
    }

    /// A probe from `from` ms at `t` ms, hand-driven: its ACKs show `peak` ms of queue, its
    /// aftermath `after` ms. With `from` in 15..=72 ms it runs until it would raise the
    /// queue to 78 ms, (78 - from) x 2 ms (30 ms at least); its last ACK comes at `t` + 100
    /// ms + that, the aftermath ends AFTERMATH_RTTS (200 ms) later. Returns that ACK's
    /// action.
    fn probe_from(c: &mut Competitor, t: u64, from: u64, peak: u64, after: u64) -> Action {
        c.on_ack(at(t), &obs(from, FlowPhase::Other, None, at(t - 100)));
        let State::Yielding { probe: Some(p), .. } = c.state else {
            panic!("no probe at {t}");
        };
        let len = p.end.saturating_since(p.start).as_millis();
        c.on_ack(at(t + 100), &obs(peak, FlowPhase::Other, None, at(t + 1)));
        let acked = t + 100 + len;
        c.on_ack(at(acked), &obs(after, FlowPhase::Other, None, at(t + len)));
        c.on_ack(
            at(acked + 100),
            &obs(after, FlowPhase::Other, None, at(t + len + 100)),
        );
        c.on_ack(
            at(acked + 200),
            &obs(after, FlowPhase::Other, None, at(t + len + 200)),
        )
    }

    #[test]
    fn a_probertt_that_empties_the_queue_and_settles_it_lower_is_not_a_flow_of_our_kind() {
        // The bed's trace beside BBR at 20 ms (docs/sidebyside/default.md): yielding, BBR's
        // queue at 66 ms (the last ACK before the probe says so).
        let mut c = yielding_at(0);
        c.on_ack(at(900), &obs(66, FlowPhase::Other, None, at(800)));
        // Probe 1 from 66 ms (in 15..=72 ms: one that can tell), 30 ms long ((78 - 66) x 2 =
        // 24 < 30); BBR's ProbeRTT empties the queue in its aftermath: a fall (drained),
        // evaluated at 1000 + 100 + 30 + 200 = 1330 ms. Busy (66 >= TARGET / 2).
        assert_eq!(probe_from(&mut c, 1000, 66, 80, 0), Action::None);
        assert_eq!(c.next_tick(), Some(at(2330)));
        // The queue drained below eta after 66 ms: probe at once (the next ACK starts it).
        c.on_ack(at(1340), &obs(0, FlowPhase::Other, None, at(1240)));
        assert_eq!(c.next_tick(), Some(at(1340)));
        // Probe 2 from an empty queue (below TARGET / 4: cannot tell); it adds 1 ms, room
        // (< 3.75 ms), evaluated at 1345 + 330 = 1675 ms; the next one `confirm` later.
        assert_eq!(probe(&mut c, 1345, 0, 1, 0), Action::None);
        assert_eq!(c.next_tick(), Some(at(2175)));
        // Probe 3 from 42 ms (72 ms long): BBR's queue settles 13 ms lower after its
        // ProbeRTT (>= push_drop x TARGET = 9 ms): a second fall, 0.9 s after the first.
        // Two falls in a row, the first a drain and this one short of it: not yet our kind
        // (the flow used to resume here).
        assert_eq!(probe_from(&mut c, 2175, 42, 70, 29), Action::None);
        assert!(c.yielding());
        // Evaluated at 2175 + 100 + 72 + 200 = 2547 ms; probe 4 a second later, from 29 ms
        // (98 ms long): BBR's queue stands. The row is broken.
        assert_eq!(c.next_tick(), Some(at(3547)));
        assert_eq!(probe_from(&mut c, 3547, 29, 45, 29), Action::None);
        assert!(c.yielding());
        // Probe 5 a second after probe 4 was evaluated (3945 ms): a fall starts a new row.
        assert_eq!(c.next_tick(), Some(at(4945)));
        assert_eq!(probe_near_target(&mut c, 4945, 45), Action::None);
        assert!(c.yielding());
    }

    #[test]
    fn a_queue_that_falls_less_than_push_drop_is_no_finding() {
        let mut c = yielding_at(0);
        // From 30 ms to 25 ms after each probe, twice: 5 ms < push_drop x TARGET = 9 ms (BBR's
        // 3/4 phase at a base RTT of 20 ms takes a quarter of 20 ms away). Busy: the queue
        // began at TARGET / 2.
        for t in [1000, 2500] {
            c.on_ack(at(t), &obs(30, FlowPhase::Other, None, at(t - 100)));
            c.on_ack(at(t + 150), &obs(60, FlowPhase::Other, None, at(t + 90)));
            c.on_ack(at(t + 200), &obs(25, FlowPhase::Other, None, at(t + 100)));
            c.on_ack(at(t + 300), &obs(25, FlowPhase::Other, None, at(t + 200)));
            let a = c.on_ack(at(t + 400), &obs(25, FlowPhase::Other, None, at(t + 300)));
            assert_eq!(a, Action::None, "{t}");
        }
        assert!(c.yielding());
    }

    #[test]
    fn back_offs_that_are_not_in_a_row_keep_the_flow_yielding() {
        let mut c = yielding_at(0);
        // Fell, stayed, fell (1.345 s apart): the queue that stayed is not our kind's.
        assert_eq!(probe_near_target(&mut c, 1000, 45), Action::None);
        assert_eq!(probe_near_target(&mut c, 2345, 60), Action::None);
        assert_eq!(probe_near_target(&mut c, 3690, 45), Action::None);
        assert!(c.yielding());
    }

    #[test]
    fn back_offs_more_than_kin_confirm_apart_keep_the_flow_yielding() {
        let mut c = yielding_at(0);
        assert_eq!(probe_near_target(&mut c, 1000, 45), Action::None);
        // Four probes from a full FIFO (80 ms, not near TARGET: busy, no finding), each
        // evaluated 330 ms after it and the next 1 s later; then the queue falls after a
        // probe near TARGET again, 5.65 s after the first fell (> KIN_CONFIRM).
        let mut t = 2345;
        for _ in 0..4 {
            assert_eq!(probe(&mut c, t, 80, 80, 80), Action::None);
            t += 1330;
        }
        assert_eq!(t, 7665);
        assert_eq!(probe_near_target(&mut c, t, 45), Action::None);
        assert!(c.yielding());
    }

    #[test]
    fn a_probe_whose_acks_never_come_is_given_up() {
        let mut c = yielding_at(0);
        c.on_ack(at(1000), &obs(0, FlowPhase::Other, None, at(900)));
        assert!(c.probing(at(1000)));
        // Given up PROBE_GIVE_UP (1 s > 4 RTTs) after its end, 1.03 s: no evidence either way.
        c.poll(at(2029), ms(0), ms(100));
        assert!(c.next_tick() == Some(at(2030)));
        c.poll(at(2030), ms(0), ms(100));
        assert!(c.yielding());
        assert_eq!(c.next_tick(), Some(at(3030)));
    }

    #[test]
    fn config_errors_name_the_field() {
        let bad = CompetitorConfig {
            share: 1.5,
            ..CompetitorConfig::default()
        };
        assert_eq!(
            bad.validate_as("scavenger").unwrap_err().field,
            "competitor.share"
        );
        let bad = CompetitorConfig {
            probe_interval: Duration::ZERO,
            ..CompetitorConfig::default()
        };
        let e = bad.validate_as("scavenger").unwrap_err();
        assert_eq!(e.field, "competitor.probe_interval");
        assert!(CompetitorConfig::default().validate_as("scavenger").is_ok());
    }
}
