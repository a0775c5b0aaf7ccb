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
//! **Backoff** (`slowdown_backoff`, 1 by default: the draft's fixed spacing; our extension,
//! the sender's rule of ledbat-core's `slowdown.rs` in integers): a hold of the receiver's own
//! (a periodic slowdown's or a test's) that drained the queue (its least queuing delay at or
//! below `eta`, below) without finding a lower base delay doubles a factor `k`, up to
//! `slowdown_backoff`; any other hold puts it back to 1; the next slowdown comes
//! `9 k` times the last one's duration after the climb ends. Alone the base is known, and
//! the slowdowns' cost (about a tenth of the link at base RTTs of 60 ms and more,
//! docs/tcp/README.md, "What the draft cannot reach") falls by up to `k`. Beside another
//! download that keeps a queue, a hold does not drain it and the spacing is the draft's
//! again from the next one on (figures: docs/tcp/README.md, "Beyond the draft:
//! `slowdown_backoff`").
//!
//! **Restart** (`empty_queue_restart`, off by default: our extension, not the draft's; the
//! sender's rule of ledbat-core's `slow_start.rs`, whose helpers this uses): in congestion
//! avoidance, once the queuing delay has stayed at or below
//! `eta = clamp(base_rtt / 8, 4 ms, 16 ms)` (RFC 9406 section 4.2's thresholds) for one RTT,
//! slow start again: `rcwnd += GAIN b` from the packet that finds it due, until
//! `qd > 3/4 TARGET`, a loss, or `rcwnd` reaching the bound below; the slowdown scheduled
//! before stays scheduled (one due meanwhile starts at the first packet after the restart
//! ends). Without it, a window left at the floor by a loss-based download that filled the
//! queue grows GAIN packets per RTT once that download leaves: `(0.9 P - 2) / GAIN` RTTs to
//! 90 % of a path of P packets (docs/tcp/README.md, "What the draft cannot reach"); with it,
//! `ln(0.9 P / 2) / ln(1 + GAIN)` RTTs after the first RTT of empty queue. The growth is the
//! draft's own slow start at full speed (the sender's restart grows a quarter as fast: 31
//! RTTs rather than 9 at a base RTT of 100 ms on 10 Mbit/s). The clock runs only in
//! avoidance: a slowdown's hold and its climb back empty the queue on purpose, and neither
//! counts (nor does an empty queue that began before the slowdown). The restart's bound is
//! the window that fills the path at the fastest rate received and queues 3/4 TARGET there:
//!
//! ```text
//! bound = max_rate x (base RTT + 3/4 TARGET)     max_rate: the fastest of the rate samples
//!                                                (the detection's, below), bytes/s
//! ```
//!
//! The clock runs only while `rcwnd < bound / 2` (a window a competitor pushed down; none
//! before a rate sample), and the restart ends at `rcwnd >= bound`: it goes back to where
//! the delay would end it, without the delay signal's lag of an RTT. A sender that the
//! window does not limit (bbr) otherwise drives the restart on: its pacing keeps the queue
//! under `eta`, so the delay never ends it. The rule this replaces, the largest window
//! avoidance had, failed there: the restart's own overshoot became that largest window, a
//! loss halved it, and the restart fired again (docs/tcp/README.md, "The bbr sender at
//! 100 ms breaks `empty_queue_restart`'s guard").
//!
//! **Window validation** (`window_validation`, off by default: our extension, not the
//! draft's). A sender that the window does not limit (bbr, whose own queue stays under
//! 3/4 TARGET at every RTT, or an application that sends less) never ends the draft's slow
//! start, and the window grows without bound (megabytes on the bed at 10 Mbit/s), binding
//! nothing, so that the delay rules and the detection below have nothing to act on. With
//! it, in the spirit of the IETF's rate-limited increase (draft-ietf-ccwg-ratelimited-increase:
//! cap the window at a limit of the largest flight): `flight` is the most payload received
//! in one round (an RTT, measured from the first packet of each) over the connection, and
//!
//! ```text
//! rcwnd >= VALIDATION_FACTOR x flight:  slow start (and a restart) ends; avoidance does not grow
//! ```
//!
//! with `VALIDATION_FACTOR = 8`: a window-limited sender delivers in a round the window of
//! the round before, and the check runs through the next round, by whose end slow start
//! (GAIN <= 1 per byte, at most doubling a round) has grown that window up to
//! `(1 + GAIN)^2 <= 4` times; 8 leaves room for rounds split at their edges, so that the
//! rule holds no window the sender fills. Decreases are the draft's.
//!
//! **Competitor detection** (`competitor.enabled`, off by default: our extension, not the
//! draft's). A delay-based receiver yields only to a queue above TARGET; a BBR download
//! keeps about one BDP of queue, under TARGET at short RTTs, so the draft never yields to
//! it (docs/tcp/README.md, "Against a BBR sender"). ledbat-core's sender-side detection
//! ([`ledbat_core::competitor`], docs/algorithms.md section 11) tells such a flow by the
//! flow's share of the path's rate on a busy link; the receiver runs the same
//! [`Competitor`] with the same `competitor.*` parameters, and feeds it what it measures:
//!
//! ```text
//! rate samples: payload bytes received over spans of at least max(RATE_SPAN, RTT), in
//!               whole bytes/s (floored)
//! path rate C:  their maximum over rate_window not spent yielding (as the sender's)
//! qd, RTT, eta: the receiver's (above); newest_sent = now - RTT (data arriving now left
//!               under the window advertised an RTT ago); flight = min(window,
//!               last rate sample x RTT)
//! busy:         qd > eta                   (the sender's: qd >= TARGET / 2); a probe
//!               due above eta is not run unless the queue is within TARGET / 4 to
//!               1.2 TARGET and has not stood above 1.2 TARGET in the last
//!               HIGH_MEMORY (5 s) without draining to eta since, and one that runs
//!               from above eta finds no room (the sender's: from TARGET / 2)
//! hold test:    rcwnd held at 2 packets for test_hold_rtts RTTs, then the climb back of a
//!               slowdown (to half the window after a positive test, whose next comes soon)
//! push test:    the advertised window is rcwnd + extra for an RTT (the sender's extra)
//! yielding:     window max(1 packet, yield_share C RTT)   (the sender paces at
//!               yield_share C with one packet)
//! probe:        window max(2 packets, probe_share C RTT) for the sender's length, from
//!               eta or below for at least PROBE_RTTS RTTs (the sender paces at
//!               probe_share C); from a standing queue, max(2 packets, probe_share C
//!               max(RTT, length)), or probe_share C (RTT + length) with
//!               standing_probe_span = Sum; such a probe lasts at least
//!               standing_probe_rtts RTTs (0 by default), its window still sized by the
//!               sender's length, and the wait before the next probe is probe_interval
//!               scaled by the same factor (at most KIN_CONFIRM / 2)
//! kin:          the sender's rule (two falls in a row after probes); with rtt_fall (off
//!               by default) a fall also counts at push_drop min(TARGET, base RTT + the
//!               queue at the probe's start), looked for until the probe's own queue has
//!               drained (AFTERMATH_RTTS RTTs + its peak less its start)
//! resume:       slow start from 2 packets, one byte per byte up to the detection's
//!               C x (RTT - qd), GAIN per byte above, until qd > 3/4 TARGET (the sender's)
//! ```
//!
//! What differs from the sender's rule, and why:
//!
//! - busy from `eta` rather than TARGET / 2: a sender that the receiver's window does not
//!   limit (BBR's own queue) holds less than TARGET / 2 beside a competitor at short RTTs;
//!   the share rule, not the queue, says the flow is short-changed. While yielding, the
//!   window is at its floor, so a queue above `eta` when a probe begins is the others':
//!   no room then, whatever the probe adds (a BBR sender paces the probe's window at the
//!   low rate it measured while yielding, and its small growth read as room: in the harness
//!   a yield to a BBR download at 10 ms lasted 2 s before this rule, and holds with it).
//!   Such a probe is not run at all unless the queue is near TARGET, where it can still
//!   tell our kind by its backing off (on the bed, probes of 6 RTTs run from cubic's
//!   standing queue every second kept the download at 15-40 % of the link), and then for
//!   the sender's length only: it pushes the queue up for our kind to back off from, and
//!   has no room to find, so 6 RTTs at half the rate would only cost the competitor more
//!   of its link. Its window is `probe_share C max(RTT, length)`: the window bounds what
//!   of ours can be in the queue, and a probe of the sender's length at `probe_share C`
//!   adds `probe_share length` to a queue the others keep full, by that length's choice
//!   the rise to `(1 + push_share) TARGET`; a window of `probe_share C RTT` alone falls
//!   short of it where the length passes the RTT (short RTTs), so another receiver of our
//!   kind never sees the queue above TARGET, never backs off, and a yield to it never ends
//!   (docs/tcp/README.md, "Two kernel receivers of our kind"). `standing_probe_span = Sum`
//!   opens `probe_share C (RTT + length)` instead: the uTP sender fills a window at once and
//!   would overshoot by `probe_share C RTT`, but the kernel's receive window, once the clamp
//!   is raised, opens only as `rcv_ssthresh` grows with the data received, and most of a
//!   probe of `max(RTT, length)` never reaches the sender (docs/tcp/README.md, "A probe
//!   from a standing queue offers its length"). `standing_probe_rtts = k` keeps the window
//!   of `max(RTT, length)` open for at least k RTTs: after a yield the kernel's window
//!   grows about threefold per RTT from one packet, and reaches the clamp only in the third
//!   or fourth (docs/tcp/README.md, "A probe the kernel has time to open" and "Eight
//!   RTTs"). `rtt_fall` judges the fall after such a probe in the RTT's terms where the RTT
//!   is under TARGET: a receiver of our kind that cuts its window by a share of it lowers
//!   the queue by that share of its RTT, which behind a short base RTT and a queue held low
//!   stays under `push_drop` TARGET however deep the cut, and shows only once the probe's
//!   own queue has drained, which it waits for (docs/tcp/README.md, "A fall in the RTT's
//!   terms"). Nor near TARGET after the queue stood above 1.2 TARGET in the last
//!   HIGH_MEMORY: our kind holds the queue at TARGET, while a loss-based download's sits
//!   near TARGET for seconds after each of its losses and rises above it between them
//!   (docs/tcp/README.md, "Beyond the draft: competitor detection");
//! - the periodic slowdowns are not tests, only the holds the suspicion asks for: another
//!   rLEDBAT receiver does not join a slowdown (the draft has no join), so the queue it
//!   holds stays during this one's hold, and every periodic hold beside it would read
//!   positive. A test asked for with the queue above 1.1 TARGET beside another receiver
//!   reads positive too; the push tests near TARGET, where two receivers share, tell them
//!   apart (the other backs off from the pushed queue), and a yield that one of them
//!   caused ends when two probes find the queue falling (the sender's rule for its kind);
//! - windows, not pacing: the receiver cannot pace its sender. A window opened to
//!   `probe_share C RTT` arrives at the sender as one burst, which queues `probe_share RTT`
//!   even on an idle link; the probe judges its queue's growth against `probe_share len /
//!   4`, so one that may find room lasts at least PROBE_RTTS = 6 RTTs (`6 / 4 > 1`, the
//!   burst's queue is half an RTT and the threshold 0.75 RTT). A sender that a window
//!   does not limit (BBR again) ignores a push's extra, and the push still gives a
//!   verdict: positive whatever the other traffic is, since it had nothing to back off
//!   from, and two in a row make the receiver yield to another of its kind: a download
//!   whose BBR sender the window does not limit looks like a plain BBR download, and the
//!   probes' rule above keeps the yield (two detecting receivers with BBR senders: one
//!   yields to the other at most of the start times tried, the link nearly as full as
//!   without the detection; tests/rledbat.rs asserts it, docs/tcp/README.md gives the
//!   figures). With NewReno senders the push tells them apart;
//! - a collision (a push voided because another flow pushed at once) is a finding of our
//!   kind, as a negative is (`Competitor::collision_quiets`): only a flow of our kind
//!   pushes, and after a collision two receivers both cut their windows and, at a base RTT
//!   of 40 ms, hold the queue at 13-31 ms for seconds, where their pushes read each other
//!   as competitors (on the bed, 8 of the 9 pair runs that did not share yielded on
//!   positives within 3 s of a collision: docs/tcp/README.md, "Why a run fails");
//! - the yield's window is one packet, as the sender's is, not the draft's minimum of two:
//!   a window delivers its size every RTT, and when a BBR competitor's queue falls (its
//!   ProbeRTT) the RTT falls with it, so at a base RTT near zero two packets a round are a
//!   third of the link for the half second BBR takes to rebuild its queue
//!   (docs/tcp/README.md, "Beyond the draft: competitor detection"). A probe keeps two.
//!
//! With the detection off nothing of it runs, and the window rules are the draft's.
//! Figures: docs/tcp/README.md, "Beyond the draft: competitor detection".

use ledbat_core::competitor::{Action, Competitor, FlowPhase, Observation, RATE_SPAN};
use ledbat_core::delivery::SpanRate;
use ledbat_core::slow_start::{empty_queue_threshold, SlowStart, SlowStartRules};
use ledbat_core::{DelayConfig, DelayEstimator, DelaySample, Duration, Instant};

mod config;
pub use config::{
    split_param, ProbeSpan, RledbatConfig, RledbatParamError, KEYS, MAX_SLOWDOWN_BACKOFF,
    MAX_STANDING_PROBE_RTTS, MAX_TARGET, MIN_TARGET,
};

/// `rcwnd` at the start, packets.
pub const INITIAL_PACKETS: u64 = 10;
/// Smallest `rcwnd`, packets (RFC 6817's minimum window), and a probe's window.
pub const MIN_PACKETS: u64 = 2;
/// Smallest window while yielding outside a probe, packets: the sender's yield is a window of
/// one packet too (see the module comment).
pub const YIELD_MIN_PACKETS: u64 = 1;
/// A competitor detection's probe lasts at least this many RTTs (see the module comment).
pub const PROBE_RTTS: f64 = 6.0;
/// Window validation: slow start ends and avoidance stops growing at this many times the
/// most received in one round (see the module comment).
pub const VALIDATION_FACTOR: u64 = 8;
/// The largest restart bound kept, bytes (`RL_MAX_RESTART_BOUND` of the kernel receiver,
/// whose bound in 32.32 stays below 2^64).
pub const MAX_RESTART_BOUND: u64 = 1 << 31;

/// `floor(a x b / c)`, saturating at `u64::MAX` (also for `c = 0`), as the kernel
/// receiver's `lb_muldiv` computes it.
fn muldiv(a: u64, b: u64, c: u64) -> u64 {
    match (u128::from(a) * u128::from(b)).checked_div(u128::from(c)) {
        Some(q) => u64::try_from(q).unwrap_or(u64::MAX),
        None => u64::MAX,
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
    /// Held at the minimum until `until`; then slow start back to `resume` bytes. `test`:
    /// asked for by the competitor detection, which evaluates it when it ends.
    Slowdown {
        started: Instant,
        until: Instant,
        resume: u64,
        test: bool,
    },
    /// Yielding to a competitor: the detection sets the window.
    Yield,
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
    /// `slowdown_backoff`'s factor now (1 up to it), and, through a hold of our own, the
    /// base delay at its start and its least queuing delay so far.
    backoff: u64,
    hold_base: Option<Duration>,
    hold_min: Option<Duration>,
    /// The empty-queue clock of `empty_queue_restart`.
    restart: SlowStart,
    /// The fastest rate sample so far, bytes/s (the restart's bound, [`Self::restart_bound`]).
    max_rate: u64,
    /// The competitor detection (`competitor.enabled`).
    comp: Competitor,
    /// Payload bytes received in all, and the detection's rate samples of them.
    received: u64,
    span: SpanRate,
    /// The detection's last rate sample, bytes/s.
    last_rate: Option<f64>,
    /// After a competitor left: slow start at one byte per byte up to this window.
    full_speed_to: f64,
    /// The last event's time (the detection's window depends on it).
    now: Instant,
    /// Window validation: the round running (its start, payload so far) and the most
    /// payload of one round, bytes.
    round_start: Option<Instant>,
    round_bytes: u64,
    max_flight: u64,
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
            backoff: 1,
            hold_base: None,
            hold_min: None,
            restart: SlowStart::new(SlowStartRules {
                conservative: false,
                restart: cfg.empty_queue_restart,
            }),
            max_rate: 0,
            comp: Competitor::new(cfg.competitor)
                .busy_above_eta()
                .collision_quiets()
                .probe_rtts(PROBE_RTTS)
                .standing_probe_rtts(cfg.standing_probe_rtts)
                .rtt_fall(cfg.rtt_fall),
            received: 0,
            span: SpanRate::new(),
            full_speed_to: 0.0,
            last_rate: None,
            now: Instant::ZERO,
            round_start: None,
            round_bytes: 0,
            max_flight: 0,
        }
    }

    /// The window to advertise, bytes: `rcwnd`, plus a push test's extra; while yielding,
    /// the detection's (see the module comment).
    pub fn window(&self) -> u64 {
        if self.comp.yielding() {
            let c = self.comp.path_rate();
            // a probe from a standing queue: its length, if longer than an RTT, or both
            let len = self.comp.pushing_probe(self.now).unwrap_or_default();
            let span = match self.cfg.standing_probe_span {
                ProbeSpan::Max => self.round().max(len),
                ProbeSpan::Sum => self.round() + len,
            };
            let (share, floor) = if self.comp.probing(self.now) {
                (self.cfg.competitor.probe_share, MIN_PACKETS)
            } else {
                (self.cfg.competitor.yield_share, YIELD_MIN_PACKETS)
            };
            return (share * c * span.as_secs_f64()).max((floor * self.mss) as f64) as u64;
        }
        (self.rcwnd + self.comp.push_window(self.now).unwrap_or(0.0)) as u64
    }

    /// Time passes without data (a window is about to be advertised in a packet sent from a
    /// timer): what [`Rledbat::window`] says from `now` on, a push's extra or a probe's
    /// window gone when they have ended.
    pub fn advance(&mut self, now: Instant) {
        self.now = self.now.max(now);
    }

    /// The competitor detection (read-only), for tests and statistics.
    pub fn competitor(&self) -> &Competitor {
        &self.comp
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

    /// The restart's bound, bytes: the window that fills the path at the fastest rate
    /// received and queues 3/4 TARGET on it, `max_rate x (base RTT + 3/4 TARGET)`, floored
    /// and at most [`MAX_RESTART_BOUND`] (0 before a rate sample: no restart).
    fn restart_bound(&self) -> u64 {
        let base = self.base_rtt.unwrap_or(self.round()).as_nanos();
        let span = base + self.cfg.target.as_nanos() * 3 / 4;
        muldiv(self.max_rate, span, 1_000_000_000).min(MAX_RESTART_BOUND)
    }

    /// `eta` of the restart: the queuing delay up to which the queue counts as empty.
    fn eta(&self) -> Duration {
        empty_queue_threshold(self.base_rtt)
    }

    /// Window validation: one packet of `bytes` at `now` into the rounds.
    fn count_round(&mut self, now: Instant, bytes: u64) {
        match self.round_start {
            Some(s) if now.saturating_since(s) < self.round() => {}
            Some(_) => {
                self.max_flight = self.max_flight.max(self.round_bytes);
                self.round_start = Some(now);
                self.round_bytes = 0;
            }
            None => self.round_start = Some(now),
        }
        self.round_bytes += bytes;
    }

    /// Window validation: whether the window has reached its bound (never before a round
    /// has closed), counting a window within 2^-12 byte below it as reaching it: sums of
    /// fractions of a packet land on a whole bound below it by their rounding (1 034 slow
    /// start steps of 1 448 / 11 bytes from 10 packets make exactly 8 x 13 packets).
    fn validated_out(&self) -> bool {
        self.cfg.window_validation
            && self.max_flight > 0
            && self.reached(VALIDATION_FACTOR * self.max_flight)
    }

    /// Whether `rcwnd` has reached `bound` bytes, within 2^-12 byte below it (as
    /// [`Self::validated_out`] counts it).
    fn reached(&self, bound: u64) -> bool {
        self.rcwnd + 1.0 / 4096.0 >= bound as f64
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
        self.now = self.now.max(now);
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
        if self.cfg.window_validation {
            self.count_round(now, bytes);
        }
        let sample = if self.comp.enabled() || self.cfg.empty_queue_restart {
            self.received += bytes;
            let span = self.round().max(RATE_SPAN);
            // In whole bytes/s, floored, as the kernel receiver keeps them: a sample then
            // falls on the same side of `share C` in both builds.
            let s =
                self.span
                    .on_ack_span(now, self.received, false, span)
                    .map(|(b, d, limited)| {
                        let r = muldiv(b, 1_000_000_000, d.as_nanos());
                        (r as f64, limited)
                    });
            if let Some((r, _)) = s {
                self.last_rate = Some(r);
                self.max_rate = self.max_rate.max(r as u64);
            }
            s
        } else {
            None
        };
        let Some(qd) = self.delay.queuing_delay() else {
            return;
        };
        if self.comp.enabled() && self.detect(now, qd, sample) {
            self.restart.not_avoiding();
            return;
        }
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
                if qd_ratio > 0.75
                    || limit.is_some_and(|l| self.rcwnd >= l as f64)
                    || self.validated_out()
                {
                    self.enter_avoidance(now);
                } else if self.rcwnd < self.full_speed_to {
                    self.rcwnd += b;
                } else {
                    self.rcwnd += gain * b;
                }
            }
            Phase::Avoidance { slowdown_at } => {
                // Not during a push test: its verdict counts this flow's window.
                if slowdown_at.is_some_and(|t| now >= t) && !self.comp.pushing() {
                    self.hold(now, self.round() * 2, false);
                    return;
                }
                let eta = self.eta();
                let bound = self.restart_bound();
                if bound == 0 || self.rcwnd >= bound as f64 / 2.0 {
                    // not pushed down: the empty-queue clock does not run
                    self.restart.not_avoiding();
                } else if self
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
                if step <= 0.0 || !self.validated_out() {
                    self.rcwnd += step * mss * b / self.rcwnd;
                }
            }
            Phase::Restart { slowdown_at } => {
                if qd_ratio > 0.75 || self.validated_out() || self.reached(self.restart_bound()) {
                    self.end_restart(slowdown_at);
                } else {
                    self.rcwnd += gain * b;
                }
            }
            Phase::Slowdown {
                started,
                until,
                resume,
                test,
            } => {
                if now < until {
                    self.hold_min = Some(self.hold_min.map_or(qd, |m| m.min(qd)));
                } else {
                    self.hold_ended();
                    let mut resume = resume;
                    if test {
                        self.comp.hold_ended(now, self.eta(), mss);
                        if self.comp.yielding() {
                            self.phase = Phase::Yield;
                            self.rcwnd = self.min_window();
                            return;
                        }
                        if self.comp.confirming() {
                            // A positive test: climb back to half the window, the other
                            // test's hold comes soon.
                            resume /= 2;
                        }
                    }
                    self.slowdown_started = Some(started);
                    self.phase = Phase::SlowStart {
                        limit: Some(resume),
                    };
                }
            }
            Phase::Yield => {}
        }
        self.rcwnd = self.rcwnd.max(self.min_window());
    }

    /// A slowdown starts at `now`: the window held at the minimum for `len`, a test's hold
    /// when `test`.
    fn hold(&mut self, now: Instant, len: Duration, test: bool) {
        let rtt = self.round();
        self.phase = Phase::Slowdown {
            started: now,
            until: now + len,
            resume: self.rcwnd as u64,
            test,
        };
        if test {
            self.comp.hold_started(now, rtt);
        }
        self.hold_base = self.delay.base_delay();
        self.hold_min = None;
        self.rcwnd = self.min_window();
        self.restart.not_avoiding();
    }

    /// A hold of ours ended: `slowdown_backoff`'s factor doubles (up to it) when the hold
    /// drained the queue to `eta` and found no lower base, and is 1 again otherwise.
    fn hold_ended(&mut self) {
        let drained = self.hold_min.is_some_and(|m| m <= self.eta());
        let same = self.hold_base.is_some() && self.delay.base_delay() == self.hold_base;
        let max = self.cfg.slowdown_backoff.clamp(1, MAX_SLOWDOWN_BACKOFF);
        self.backoff = if drained && same {
            (self.backoff * 2).min(max)
        } else {
            1
        };
        self.hold_min = None;
        self.hold_base = None;
    }

    /// `slowdown_backoff`'s factor now.
    pub fn backoff(&self) -> u64 {
        self.backoff
    }

    /// The competitor detection on one DATA packet: what it must know, what it asks.
    /// Returns whether the window rules are to be skipped (yielding, or a test's hold began).
    fn detect(&mut self, now: Instant, qd: Duration, rate: Option<(f64, bool)>) -> bool {
        let rtt = self.round();
        let phase = match self.phase {
            Phase::Avoidance { .. } => FlowPhase::Avoidance,
            Phase::Slowdown {
                test: true, until, ..
            } if now < until => FlowPhase::OwnHold,
            _ => FlowPhase::Other,
        };
        let o = Observation {
            qd,
            target: self.cfg.target,
            rtt,
            base_rtt: self.base_rtt.unwrap_or(Duration::ZERO),
            eta: self.eta(),
            mss: self.mss as f64,
            phase,
            rate,
            // The data that arrives now left under the window advertised an RTT ago.
            newest_sent: now - rtt,
            // What the sender has in flight: the window it was given, or what it delivers
            // in an RTT when it sends less.
            flight: match self.last_rate {
                Some(r) => (self.window() as f64).min(r * rtt.as_secs_f64()),
                None => self.window() as f64,
            },
        };
        match self.comp.on_ack(now, &o) {
            Action::Test if matches!(self.phase, Phase::Avoidance { .. }) => {
                let len = rtt.as_nanos() as f64 * self.comp.test_hold_rtts();
                self.hold(now, Duration::from_nanos(len.round() as u64), true);
                return true;
            }
            Action::Resume(bdp) => {
                // The competitor left: slow start, at full speed up to the path's BDP.
                self.rcwnd = self.min_window();
                self.full_speed_to = bdp as f64;
                self.slowdown_started = None;
                self.phase = Phase::SlowStart { limit: None };
            }
            _ => {}
        }
        if self.comp.yielding() && self.phase != Phase::Yield {
            // A push test's verdict.
            self.phase = Phase::Yield;
            self.rcwnd = self.min_window();
        }
        self.comp.yielding()
    }

    /// A restart ends (on delay or a loss): avoidance, the slowdown schedule kept.
    fn end_restart(&mut self, slowdown_at: Option<Instant>) {
        self.restart.ended();
        self.phase = Phase::Avoidance { slowdown_at };
    }

    fn enter_avoidance(&mut self, now: Instant) {
        self.full_speed_to = 0.0;
        if let Some(started) = self.slowdown_started.take() {
            self.last_slowdown = now.saturating_since(started);
        }
        let slowdown_at = self.cfg.slowdowns.then(|| {
            if self.last_slowdown.is_zero() {
                // First slowdown: 2 RTTs after the initial slow start ends.
                now + self.round() * 2
            } else {
                now + self.last_slowdown * (9 * self.backoff)
            }
        });
        self.phase = Phase::Avoidance { slowdown_at };
    }

    /// A packet was lost on the way to us (a gap opened, or a retransmission arrived):
    /// halve the window, once per RTT.
    pub fn on_loss(&mut self, now: Instant) {
        self.now = self.now.max(now);
        if self.comp.yielding() {
            // The detection's window, not rcwnd, is advertised.
            return;
        }
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
    use ledbat_core::competitor::CompetitorConfig;

    const MSS: u64 = 1000;
    /// The path of most tests: a base delay of 10 ms one way and an RTT of 40 ms, which
    /// make GAIN = 1 / min(16, ceil(2 TARGET / 40 ms)) = 1/3 and eta = clamp(40 / 8, 4, 16)
    /// = 5 ms.
    const BASE: (u64, u64) = (10, 40);

    /// Wire value of a one-way delay of `ms` (plus an arbitrary clock offset).
    fn owd(ms: u64) -> u32 {
        0x8000_0000u32.wrapping_add((ms * 1000) as u32)
    }
    /// The reverse sample that makes the RTT `rtt_ms` with a forward delay of `fwd_ms`.
    fn rev(rtt_ms: u64, fwd_ms: u64) -> u32 {
        ((rtt_ms * 1000) as u32).wrapping_sub(owd(fwd_ms))
    }

    /// One packet of `bytes` at a forward delay of `fwd_ms` and an RTT of `rtt_ms`.
    fn packet(r: &mut Rledbat, t: Instant, bytes: u64, (fwd_ms, rtt_ms): (u64, u64)) {
        r.on_data(t, bytes, owd(fwd_ms), rev(rtt_ms, fwd_ms));
    }

    /// `n` packets without bytes (the window does not move on 0 bytes) on `path`: four
    /// fill the current-delay filter (minimum of the last 4) with its forward delay.
    fn samples(r: &mut Rledbat, t: Instant, path: (u64, u64), n: usize) {
        for _ in 0..n {
            packet(r, t, 0, path);
        }
    }

    fn cfg() -> RledbatConfig {
        RledbatConfig {
            target: Duration::from_millis(60),
            slowdowns: false,
            slowdown_backoff: 1,
            empty_queue_restart: false,
            window_validation: false,
            competitor: CompetitorConfig::default(),
            standing_probe_span: ProbeSpan::Max,
            standing_probe_rtts: 0.0,
            rtt_fall: false,
        }
    }

    fn with_slowdowns(c: RledbatConfig) -> RledbatConfig {
        RledbatConfig {
            slowdowns: true,
            ..c
        }
    }

    fn restart_cfg() -> RledbatConfig {
        RledbatConfig {
            empty_queue_restart: true,
            ..cfg()
        }
    }

    fn detecting_cfg() -> RledbatConfig {
        RledbatConfig {
            competitor: CompetitorConfig {
                enabled: true,
                ..CompetitorConfig::default()
            },
            ..cfg()
        }
    }

    /// A receiver with `c` put into avoidance at 1 s (returned) on [`BASE`] with a window of
    /// `w` bytes.
    fn avoiding(c: RledbatConfig, w: u64) -> (Rledbat, Instant) {
        let mut r = Rledbat::new(c, MSS);
        let t0 = Instant::from_secs(1);
        packet(&mut r, t0, 0, BASE);
        r.rcwnd = w as f64;
        r.enter_avoidance(t0);
        (r, t0)
    }

    /// As [`avoiding`], after avoidance had a window of 100 packets, which a competitor
    /// pushed down to `w` (the restart's case).
    fn pushed_down(c: RledbatConfig, w: u64) -> (Rledbat, Instant) {
        let (mut r, t0) = avoiding(c, w);
        r.max_rate = 10_000_000;
        (r, t0)
    }

    #[test]
    fn slow_start_grows_by_gain_per_byte_until_three_quarters_of_target() {
        let mut r = Rledbat::new(cfg(), MSS);
        assert_eq!(r.window(), 10_000);
        let t = Instant::from_secs(1);
        // Base delay 10 ms; RTT 40 ms: GAIN = 1 / min(16, ceil(120 / 40)) = 1/3.
        packet(&mut r, t, MSS, BASE);
        assert_eq!(r.rtt(), Some(Duration::from_millis(40)));
        // 3 000 bytes at GAIN 1/3: + 1 000 (the first packet grew it by 333 already).
        for _ in 0..3 {
            packet(&mut r, t, MSS, BASE);
        }
        assert_eq!(r.window(), 10_000 + 1_333);
        // Queuing delay 44 ms < 45 (3/4 of 60): still slow start.
        samples(&mut r, t, (54, 84), 4);
        assert!(matches!(r.phase, Phase::SlowStart { .. }));
        // 46 ms > 45: slow start ends, the window stays.
        samples(&mut r, t, (56, 86), 4);
        assert_eq!(r.window(), 11_333);
        assert!(matches!(r.phase, Phase::Avoidance { .. }));
    }

    #[test]
    fn below_target_the_window_grows_by_gain_packets_per_window() {
        let (mut r, _) = avoiding(cfg(), 20_000);
        // qd 30 ms < 60: per RTT + GAIN (1/3) packets; one packet of b = 1 000 bytes
        // applies b / rcwnd = 1/20 of it: 1/3 * 1000 / 20 = 16.67 bytes.
        let t = Instant::from_secs(2);
        samples(&mut r, t, (40, 70), 4);
        assert_eq!(r.queuing_delay(), Some(Duration::from_millis(30)));
        packet(&mut r, t, MSS, (40, 70));
        // The RTT sample of 70 ms leaves the base RTT at 40: GAIN stays 1/3.
        assert!((r.rcwnd - 20_016.667).abs() < 0.01, "{}", r.rcwnd);
    }

    #[test]
    fn above_target_the_window_shrinks_in_proportion_and_at_most_by_half() {
        // qd 90 ms = 1.5 TARGET, W = 20 packets: per RTT max(1/3 - 20 * 0.5, -10) = -9.67
        // packets; one packet applies 1/20: -483.3 bytes.
        let t = Instant::from_secs(2);
        let (mut r, _) = avoiding(cfg(), 20_000);
        samples(&mut r, t, (100, 130), 4);
        packet(&mut r, t, MSS, (100, 130));
        assert!((r.rcwnd - (20_000.0 - 483.333)).abs() < 0.01, "{}", r.rcwnd);
        // qd 190 ms: 1/3 - 20 * (190/60 - 1) = -43 packets, capped at -W/2 = -10: -500.
        let (mut r, _) = avoiding(cfg(), 20_000);
        samples(&mut r, t, (200, 230), 4);
        packet(&mut r, t, MSS, (200, 230));
        assert!((r.rcwnd - 19_500.0).abs() < 0.01, "{}", r.rcwnd);
    }

    #[test]
    fn a_loss_halves_the_window_once_per_rtt_never_below_two_packets() {
        let (mut r, _) = avoiding(cfg(), 20_000);
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
        let (mut r, t0) = avoiding(with_slowdowns(cfg()), 30_000);
        // 2 RTTs (80 ms) later the slowdown starts: 2 packets for 2 RTTs.
        let t1 = t0 + Duration::from_millis(80);
        packet(&mut r, t1, MSS, BASE);
        assert_eq!(r.window(), 2 * MSS);
        packet(&mut r, t1 + Duration::from_millis(79), MSS, BASE);
        assert_eq!(r.window(), 2 * MSS, "held for 80 ms");
        let t2 = t1 + Duration::from_millis(80);
        packet(&mut r, t2, MSS, BASE);
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
    fn a_slowdown_that_drains_the_queue_to_the_same_base_spaces_the_next_further() {
        let c = RledbatConfig {
            slowdown_backoff: 4,
            ..with_slowdowns(cfg())
        };
        let (mut r, t0) = avoiding(c, 30_000);
        // The first slowdown as in the test above (80 ms from t0, 80 ms long), its hold
        // finding the queue empty (qd 0, eta 5 ms) and the base where it was: the factor
        // doubles, and the next comes 9 x 2 x 137 = 2 466 ms after the climb.
        for ms in [80, 159, 160] {
            packet(&mut r, t0 + Duration::from_millis(ms), MSS, BASE);
        }
        let t2 = t0 + Duration::from_millis(160);
        let t = climb_back(&mut r, t2);
        assert_eq!(r.backoff(), 2);
        let next = t + Duration::from_millis(2466);
        assert_eq!(next_slowdown(&r), Some(next));
        // Another flow's queue stands at 20 ms (forward delay 30 ms, RTT 60 ms) through the
        // next hold, which lasts 2 x 60 ms: it does not drain the queue, the factor is 1
        // again, and the spacing the draft's: 120 + 57 ms of slowdown, the next 9 x 177 =
        // 1 593 ms after the climb.
        samples(&mut r, next - Duration::from_millis(1), (30, 60), 4);
        packet(&mut r, next, MSS, (30, 60));
        packet(&mut r, next + Duration::from_millis(119), MSS, (30, 60));
        assert_eq!(r.backoff(), 2, "the hold runs");
        let t3 = next + Duration::from_millis(120);
        packet(&mut r, t3, MSS, BASE);
        assert_eq!(r.backoff(), 1);
        let t = climb_back(&mut r, t3);
        assert_eq!(next_slowdown(&r), Some(t + Duration::from_millis(1593)));
    }

    /// When the next slowdown is due, in avoidance.
    fn next_slowdown(r: &Rledbat) -> Option<Instant> {
        match r.phase {
            Phase::Avoidance { slowdown_at } => slowdown_at,
            _ => None,
        }
    }

    #[test]
    fn the_backoff_stops_at_its_bound_and_a_lower_base_puts_it_back_to_one() {
        let c = RledbatConfig {
            slowdown_backoff: 2,
            ..with_slowdowns(cfg())
        };
        let (mut r, t0) = avoiding(c, 30_000);
        // Two holds that find the queue empty and the base the same: 2, then still 2.
        let mut t = t0;
        for want in [2, 2] {
            r.hold(t, Duration::from_millis(80), false);
            packet(&mut r, t + Duration::from_millis(40), MSS, BASE);
            t += Duration::from_millis(80);
            packet(&mut r, t, MSS, BASE);
            assert_eq!(r.backoff(), want);
            t += Duration::from_secs(1);
        }
        // A hold in which a packet comes 2 ms faster than the base: a lower base, back to 1.
        r.hold(t, Duration::from_millis(80), false);
        packet(&mut r, t + Duration::from_millis(40), MSS, (8, 38));
        packet(&mut r, t + Duration::from_millis(80), MSS, (8, 38));
        assert_eq!(r.backoff(), 1);
    }

    #[test]
    fn a_loss_during_the_climb_back_ends_the_slowdown_there() {
        let (mut r, t0) = avoiding(with_slowdowns(cfg()), 30_000);
        let t1 = t0 + Duration::from_millis(80);
        packet(&mut r, t1, MSS, BASE); // the slowdown starts
        let t2 = t1 + Duration::from_millis(80);
        packet(&mut r, t2, MSS, BASE); // the climb starts

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
            packet(r, t, 1500, BASE);
        }
        assert_eq!(t, t2 + Duration::from_millis(57));
        t
    }

    #[test]
    fn restart_slow_starts_at_the_floor_after_one_rtt_of_empty_queue() {
        let (mut r, _) = pushed_down(restart_cfg(), 2 * MSS);
        assert_eq!(r.eta(), Duration::from_millis(5));
        let t = Instant::from_secs(2);
        // qd 0: the clock starts at t; 39 ms later (under the 40 ms RTT) nothing yet.
        samples(&mut r, t, BASE, 1);
        samples(&mut r, t + Duration::from_millis(39), BASE, 1);
        assert_eq!(r.phase, Phase::Avoidance { slowdown_at: None });
        // At t + 40 ms the packet finds it due and is the first of the slow start: + GAIN b
        // = 333.33 bytes, not avoidance's GAIN mss b / rcwnd = 166.67.
        let t1 = t + Duration::from_millis(40);
        packet(&mut r, t1, MSS, BASE);
        assert_eq!(r.phase, Phase::Restart { slowdown_at: None });
        assert_eq!(r.window(), 2_333);
        packet(&mut r, t1, MSS, BASE);
        assert_eq!(r.window(), 2_666);
        // It ends like the initial one: qd 44 ms <= 45 (3/4 TARGET) goes on, 46 ms stops.
        samples(&mut r, t1, (54, 40), 4);
        assert_eq!(r.phase, Phase::Restart { slowdown_at: None });
        samples(&mut r, t1, (56, 40), 4);
        assert_eq!(r.phase, Phase::Avoidance { slowdown_at: None });
        assert_eq!(r.window(), 2_666);
    }

    #[test]
    fn a_queue_above_eta_restarts_the_clock() {
        let (mut r, _) = pushed_down(restart_cfg(), 2 * MSS);
        let t = Instant::from_secs(2);
        samples(&mut r, t, BASE, 1);
        // qd 6 ms > eta 5 at t + 20 ms (four samples fill the minimum filter), empty again
        // from t + 30 ms: due at t + 70 ms, not at t + 69.
        samples(&mut r, t + Duration::from_millis(20), (16, 40), 4);
        samples(&mut r, t + Duration::from_millis(30), BASE, 1);
        samples(&mut r, t + Duration::from_millis(69), BASE, 1);
        assert!(matches!(r.phase, Phase::Avoidance { .. }));
        samples(&mut r, t + Duration::from_millis(70), BASE, 1);
        assert!(matches!(r.phase, Phase::Restart { .. }));
        // At eta exactly the queue still counts as empty.
        let (mut r, _) = pushed_down(restart_cfg(), 2 * MSS);
        samples(&mut r, t, (15, 40), 4);
        assert_eq!(r.queuing_delay(), Some(Duration::from_millis(5)));
        samples(&mut r, t + Duration::from_millis(40), (15, 40), 1);
        assert!(matches!(r.phase, Phase::Restart { .. }));
    }

    #[test]
    fn the_fastest_rate_sample_sets_the_restarts_bound() {
        let (mut r, _) = avoiding(restart_cfg(), 10 * MSS);
        // No rate sample yet: no bound, and an empty queue for a second (a sender that
        // keeps it so, bbr) only adds GAIN per RTT.
        let t = Instant::from_secs(2);
        for k in 0..=25 {
            samples(&mut r, t + Duration::from_millis(40 * k), BASE, 1);
        }
        assert_eq!(r.restart_bound(), 0);
        assert_eq!(r.phase, Phase::Avoidance { slowdown_at: None });
        // Spans of max(200 ms, RTT): the 1 000 bytes at t1 open one, 8 000 more within it
        // and 1 000 at t1 + 200 ms close it: 9 000 bytes in 200 ms, 45 000 bytes/s. A
        // slower span after it leaves the fastest.
        let t1 = Instant::from_secs(4);
        packet(&mut r, t1, MSS, BASE);
        for _ in 0..8 {
            packet(&mut r, t1 + Duration::from_millis(100), MSS, BASE);
        }
        packet(&mut r, t1 + Duration::from_millis(200), MSS, BASE);
        assert_eq!(r.max_rate, 45_000);
        packet(&mut r, t1 + Duration::from_millis(400), MSS, BASE);
        assert_eq!(r.max_rate, 45_000);
        // 45 000 bytes/s x (40 ms base RTT + 45 ms, 3/4 TARGET) = 3 825 bytes.
        assert_eq!(r.restart_bound(), 3_825);
    }

    #[test]
    fn a_window_not_below_half_the_bound_does_not_restart() {
        // 100 000 bytes/s x (40 + 45 ms) = 8 500 bytes; half of it: 4 250.
        let (mut r, _) = pushed_down(restart_cfg(), 4_250);
        r.max_rate = 100_000;
        assert_eq!(r.restart_bound(), 8_500);
        let t = Instant::from_secs(2);
        samples(&mut r, t, BASE, 1);
        samples(&mut r, t + Duration::from_millis(40), BASE, 1);
        samples(&mut r, t + Duration::from_millis(80), BASE, 1);
        assert_eq!(r.phase, Phase::Avoidance { slowdown_at: None });
        // Pushed below half (a competitor), the clock runs: due one RTT after it starts.
        r.rcwnd = 4_249.0;
        samples(&mut r, t + Duration::from_millis(100), BASE, 1);
        samples(&mut r, t + Duration::from_millis(139), BASE, 1);
        assert_eq!(r.phase, Phase::Avoidance { slowdown_at: None });
        samples(&mut r, t + Duration::from_millis(140), BASE, 1);
        assert_eq!(r.phase, Phase::Restart { slowdown_at: None });
    }

    #[test]
    fn a_restart_ends_at_its_bound_before_the_delay_says_so() {
        let (mut r, _) = pushed_down(restart_cfg(), 3_000);
        r.max_rate = 100_000;
        let t = Instant::from_secs(2);
        samples(&mut r, t, BASE, 1);
        // Due after an RTT of empty queue; packets of 1 500 bytes at GAIN 1/3 add 500 each,
        // all at one instant (no rate span closes, the bound stays 8 500).
        let t1 = t + Duration::from_millis(40);
        packet(&mut r, t1, 1500, BASE);
        assert_eq!(r.phase, Phase::Restart { slowdown_at: None });
        assert_eq!(r.window(), 3_500);
        for _ in 0..10 {
            packet(&mut r, t1, 1500, BASE);
        }
        assert_eq!(r.window(), 8_500);
        assert_eq!(r.phase, Phase::Restart { slowdown_at: None });
        // The next packet finds the bound reached, the queue still empty: avoidance, the
        // window where it was.
        packet(&mut r, t1, 1500, BASE);
        assert_eq!(r.phase, Phase::Avoidance { slowdown_at: None });
        assert_eq!(r.window(), 8_500);
    }

    proptest::proptest! {
        /// Whatever the stretches of packets (each with its count, size, spacing, queue on
        /// the [`BASE`] path, and a loss before it or not), a restart starts only below
        /// half its bound, and grows the window only while it is below the bound (both as
        /// the packet left them: its rate and RTT samples come first).
        #[test]
        fn a_restart_starts_below_half_its_bound_and_ends_by_it(
            stretches in proptest::collection::vec(
                (1u32..400, 0u64..=1500, 0u64..6, proptest::sample::select(
                    vec![0u64, 0, 3, 30, 50, 100]), proptest::bool::ANY), 1..10),
        ) {
            let mut r = Rledbat::new(with_slowdowns(restart_cfg()), MSS);
            let mut t = Instant::from_secs(1);
            for (count, bytes, gap_ms, queue_ms, loss) in stretches {
                if loss {
                    r.on_loss(t);
                }
                for _ in 0..count {
                    t += Duration::from_millis(gap_ms);
                    let (phase, w) = (r.phase, r.rcwnd);
                    packet(&mut r, t, bytes, (BASE.0 + queue_ms, BASE.1 + queue_ms));
                    if !matches!(r.phase, Phase::Restart { .. }) {
                        continue;
                    }
                    let bound = r.restart_bound();
                    if matches!(phase, Phase::Avoidance { .. }) {
                        proptest::prop_assert!(bound > 0 && w < bound as f64 / 2.0,
                            "restarted at {w} with the bound {bound}");
                    }
                    proptest::prop_assert!(r.rcwnd <= w || w < bound as f64,
                        "grew from {w} to {} with the bound {bound}", r.rcwnd);
                }
            }
        }
    }

    #[test]
    fn without_the_parameter_an_empty_queue_only_adds_gain_per_rtt() {
        let (mut r, _) = avoiding(cfg(), 2 * MSS);
        let t = Instant::from_secs(2);
        samples(&mut r, t, BASE, 1);
        for k in [40, 100, 1000] {
            samples(&mut r, t + Duration::from_millis(k), BASE, 1);
        }
        // Avoidance: one packet applies GAIN mss b / rcwnd = 1000 / 3 / 2 = 166.67 bytes.
        packet(&mut r, t + Duration::from_secs(2), MSS, BASE);
        assert_eq!(r.phase, Phase::Avoidance { slowdown_at: None });
        assert_eq!(r.window(), 2_166);
    }

    #[test]
    fn a_loss_ends_a_restart_halving_the_window() {
        let (mut r, _) = pushed_down(restart_cfg(), 2 * MSS);
        let t = Instant::from_secs(2);
        samples(&mut r, t, BASE, 1);
        r.rcwnd = 8_000.0;
        samples(&mut r, t + Duration::from_millis(40), BASE, 1);
        assert!(matches!(r.phase, Phase::Restart { .. }));
        r.on_loss(t + Duration::from_millis(41));
        assert_eq!(r.phase, Phase::Avoidance { slowdown_at: None });
        assert_eq!(r.window(), 4_000);
    }

    #[test]
    fn neither_a_slowdowns_hold_nor_its_climb_counts_and_the_schedule_survives_a_restart() {
        let (mut r, t0) = pushed_down(with_slowdowns(restart_cfg()), 30_000);
        // A queue of 50 ms (above eta), empty from 20 ms before the slowdown starts (80 ms
        // later): that clock stops at the slowdown.
        samples(&mut r, t0, (60, 40), 4);
        let t1 = t0 + Duration::from_millis(80);
        samples(&mut r, t1 - Duration::from_millis(20), BASE, 1);
        packet(&mut r, t1, MSS, BASE);
        assert_eq!(r.window(), 2 * MSS);
        // The hold empties the queue for its 80 ms: no restart.
        for k in 1..80 {
            samples(&mut r, t1 + Duration::from_millis(k), BASE, 1);
        }
        assert!(matches!(r.phase, Phase::Slowdown { .. }));
        let t2 = t1 + Duration::from_millis(80);
        packet(&mut r, t2, MSS, BASE);
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
        samples(&mut r, t + Duration::from_millis(1), BASE, 1);
        samples(&mut r, t + Duration::from_millis(40), BASE, 1);
        assert_eq!(r.phase, Phase::Avoidance { slowdown_at: next });
        samples(&mut r, t + Duration::from_millis(41), BASE, 1);
        assert_eq!(r.phase, Phase::Restart { slowdown_at: next });
        // The restart runs past the slowdown's time; when it ends, that slowdown starts at
        // the next packet.
        let late = t + Duration::from_millis(1300);
        samples(&mut r, late, BASE, 1);
        assert!(matches!(r.phase, Phase::Restart { .. }));
        samples(&mut r, late, (56, 40), 4);
        assert_eq!(r.phase, Phase::Avoidance { slowdown_at: next });
        packet(&mut r, late, MSS, (56, 40));
        assert!(matches!(r.phase, Phase::Slowdown { .. }));
        assert_eq!(r.window(), 2 * MSS);
    }

    /// Packets of MSS bytes every `every_ms` ms from `t` until before `until`, at a forward
    /// delay of `fwd_ms` and an RTT of `rtt_ms`; `watch` sees the receiver after each.
    /// Returns the time of the next packet.
    fn stream(
        r: &mut Rledbat,
        mut t: Instant,
        until: Instant,
        every_ms: u64,
        (fwd_ms, rtt_ms): (u64, u64),
        mut watch: impl FnMut(&Rledbat, Instant),
    ) -> Instant {
        while t < until {
            packet(r, t, MSS, (fwd_ms, rtt_ms));
            watch(r, t);
            t += Duration::from_millis(every_ms);
        }
        t
    }

    /// A receiver with `c` in avoidance at 30 000 bytes from 1 s, then 1 s at 1 MB/s over an
    /// empty queue on [`BASE`]: the path's rate is learnt from 200-ms spans, 200 000 bytes /
    /// 0.2 s = C = 1 000 000 bytes/s. Returns it and the time after.
    fn rate_learnt(c: RledbatConfig) -> (Rledbat, Instant) {
        let (mut r, t0) = avoiding(c, 30_000);
        let t = stream(
            &mut r,
            t0 + Duration::from_millis(1),
            t0 + Duration::from_secs(1),
            1,
            BASE,
            |_, _| {},
        );
        if r.comp.enabled() {
            assert_eq!(r.competitor().path_rate(), 1_000_000.0);
        }
        (r, t)
    }

    #[test]
    fn rate_samples_are_whole_bytes_per_second_floored_as_the_kernels() {
        let mut r = Rledbat::new(detecting_cfg(), MSS);
        let t0 = Instant::from_millis(1000);
        packet(&mut r, t0, 1000, BASE);
        // 150 ms on: under the 200-ms span, no sample yet.
        packet(&mut r, t0 + Duration::from_millis(150), 500, BASE);
        assert_eq!(r.competitor().path_rate(), 0.0);
        // 300 ms on: 1,000 bytes over 0.3 s = 3,333.3 bytes/s, taken as 3,333.
        packet(&mut r, t0 + Duration::from_millis(300), 500, BASE);
        assert_eq!(r.competitor().path_rate(), 3333.0);
    }

    /// A detecting receiver after [`rate_learnt`] and 7 s beside a competitor's standing
    /// 70-ms queue (RTT 110 ms), yielding by then. Returns it and the time after.
    fn yielding() -> (Rledbat, Instant) {
        let (mut r, t) = rate_learnt(detecting_cfg());
        let t = stream(
            &mut r,
            t,
            t + Duration::from_secs(7),
            4,
            (80, 110),
            |_, _| {},
        );
        assert!(r.competitor().yielding());
        (r, t)
    }

    /// The advertised window after each packet of [`stream`] for `ms` from `t` on `path`,
    /// as (ms since `t`, bytes).
    fn windows(r: &mut Rledbat, t: Instant, ms: u64, path: (u64, u64)) -> Vec<(u64, u64)> {
        let mut w = Vec::new();
        let end = t + Duration::from_millis(ms);
        stream(r, t, end, 4, path, |r, now| {
            w.push((now.saturating_since(t).as_millis(), r.window()))
        });
        w
    }

    /// The window of the first entry of `w` at `ms` or later.
    fn window_at(w: &[(u64, u64)], ms: u64) -> u64 {
        w.iter().find(|x| x.0 >= ms).unwrap().1
    }

    #[test]
    fn a_standing_queue_above_target_beside_a_small_share_makes_the_receiver_yield() {
        // Then a queue of 70 ms (> 1.1 TARGET = 66), RTT 110 ms, 1 000 bytes every 4 ms:
        // 0.25 C. Suspicion for 4 RTTs, then a hold of test_hold_rtts = 4 RTTs = 440 ms at
        // 2 packets; the queue stays (70 ms > max(eta 5 ms, 3 packets / C = 3 ms)):
        // positive. The second test's verdict at least test_gap = 1 s after the first
        // positive one, also positive: yield, at max(2 packets, yield_share C RTT =
        // 0.03 x 1e6 x 0.11 = 3 300).
        let (mut r, t) = rate_learnt(detecting_cfg());
        let (mut holds, mut yielded) = (Vec::new(), None);
        let end = t + Duration::from_secs(5);
        stream(&mut r, t, end, 4, (80, 110), |r, now| {
            if let Phase::Slowdown {
                started,
                until,
                test: true,
                ..
            } = r.phase
            {
                if holds.last() != Some(&(started, until)) {
                    assert_eq!(r.window(), 2 * MSS);
                    holds.push((started, until));
                }
            }
            if r.competitor().yielding() && yielded.is_none() {
                yielded = Some(now);
            }
        });
        assert_eq!(holds.len(), 2, "{holds:?}");
        for &(a, b) in &holds {
            assert_eq!(b.saturating_since(a), Duration::from_millis(440));
        }
        // The verdicts (each hold's end) at least test_gap apart; the second hold may start
        // TEST_RTTS = 4 RTTs (440 ms) before that gap ends.
        assert!(holds[1].1.saturating_since(holds[0].1) >= Duration::from_millis(1000));
        assert!(holds[1].0.saturating_since(holds[0].1) >= Duration::from_millis(560));
        let yielded = yielded.expect("yields");
        assert!(yielded >= holds[1].1 && yielded < holds[1].1 + Duration::from_millis(4));
        assert_eq!(r.competitor().detections(), 1);
        assert_eq!(r.phase, Phase::Yield);

        // The draft alone never holds for it (no slowdowns here).
        let (mut d, t) = rate_learnt(cfg());
        stream(&mut d, t, end, 4, (80, 110), |d, _| {
            assert!(matches!(d.phase, Phase::Avoidance { .. }));
        });
    }

    #[test]
    fn yielding_the_window_is_yield_share_and_a_probe_opens_probe_share_for_what_it_asks() {
        let (mut r, t) = rate_learnt(detecting_cfg());
        let mut yielded = None;
        let mut seen = Vec::new();
        let t = stream(
            &mut r,
            t,
            t + Duration::from_secs(7),
            4,
            (80, 110),
            |r, now| {
                if r.competitor().yielding() {
                    let y = *yielded.get_or_insert(now);
                    seen.push((now.saturating_since(y).as_millis(), r.window()));
                }
            },
        );
        // yield_share C RTT = 0.03 x 1e6 x 0.11 = 3 300 bytes.
        assert_eq!(seen[0], (0, 3_300));
        // probe_interval (1 s) later a probe, for the sender's length: from a queue above
        // eta no room can show, and the probe only raises the queue (70 ms, near TARGET)
        // towards 1.3 TARGET, (78 - 70) / 0.5 = 16 ms, PROBE_LEN (30 ms) at least. Its
        // window is probe_share C max(RTT, length) = 0.5 x 1e6 x 0.11 = 55 000 bytes.
        assert_eq!(window_at(&seen, 996), 3_300);
        assert_eq!(window_at(&seen, 1_000), 55_000);
        assert_eq!(window_at(&seen, 1_028), 55_000);
        assert_eq!(window_at(&seen, 1_032), 3_300);
        // The queue drains (RTT 40 ms; the yield's window 0.03 x 1e6 x 0.04 = 1 200 bytes,
        // above its floor of one packet): a probe from the next packet on, which may find
        // room, for PROBE_RTTS x 40 ms = 240 ms, of 0.5 x 1e6 x 0.04 = 20 000 bytes.
        let drained = windows(&mut r, t, 400, BASE);
        assert_eq!(drained[0], (0, 1_200));
        assert_eq!(window_at(&drained, 4), 20_000);
        assert_eq!(window_at(&drained, 240), 20_000);
        assert_eq!(window_at(&drained, 244), 1_200);
    }

    #[test]
    fn yielding_at_a_short_rtt_the_window_is_one_packet_and_a_probe_two() {
        // The queue drains on a 2-ms RTT: a probe from the next packet, of max(2 packets,
        // 0.5 x 1e6 x 0.002 = 1 000 bytes) = 2 000 bytes for max(PROBE_LEN 30 ms, 6 x 2 ms);
        // then the yield's max(1 packet, 0.03 x 1e6 x 0.002 = 60 bytes) = 1 000 bytes. The
        // probe may find room (not a standing one), so the standing span does not apply.
        for span in [ProbeSpan::Max, ProbeSpan::Sum] {
            let (mut r, t) = yielding();
            r.cfg.standing_probe_span = span;
            let w = windows(&mut r, t, 100, (10, 2));
            assert_eq!(w[0], (0, 1_000), "{span:?}");
            assert_eq!(window_at(&w, 4), 2_000, "{span:?}");
            assert_eq!(window_at(&w, 32), 2_000, "{span:?}");
            assert_eq!(window_at(&w, 36), 1_000, "{span:?}");
            assert_eq!(window_at(&w, 96), 1_000, "{span:?}");
        }
    }

    #[test]
    fn a_probe_from_a_standing_queue_longer_than_an_rtt_opens_its_length() {
        // The queue at 20 ms (above eta 4 ms, near TARGET) on an RTT of 30 ms: the next
        // probe lasts the sender's length, (1.3 x 60 - 20) / 0.5 = 116 ms, longer than the
        // RTT, and opens probe_share C x 116 ms = 0.5 x 1e6 x 0.116 = 58 000 bytes (one
        // RTT's would be 15 000); with the span RTT + length, 0.5 x 1e6 x 0.146 = 73 000;
        // around it the yield's max(1 packet, 0.03 x 1e6 x 0.03 = 900 bytes) = 1 000 bytes.
        for (span, want) in [(ProbeSpan::Max, 58_000), (ProbeSpan::Sum, 73_000)] {
            let (mut r, t) = yielding();
            r.cfg.standing_probe_span = span;
            let w = windows(&mut r, t, 2_500, (30, 30));
            let first = w.iter().position(|x| x.1 > 1_000).expect("a probe");
            let start = w[first].0;
            assert_eq!(w[first - 1].1, 1_000);
            assert_eq!(w[first].1, want, "{span:?}");
            assert_eq!(window_at(&w, start + 112), want, "{span:?}");
            assert_eq!(window_at(&w, start + 116), 1_000, "{span:?}");
        }
    }

    #[test]
    fn a_push_test_adds_the_senders_extra_to_the_advertised_window_for_an_rtt() {
        // A queue of 60 ms (TARGET: busy, not above 1.1 TARGET), RTT 100 ms, 0.5 C: a
        // push after 4 to 8 RTTs of suspicion (DESYNC_RTTS at random), of
        // extra = C max(0.3 TARGET, 1.3 TARGET - qd) = 1e6 x 0.018 = 18 000 bytes, for one
        // RTT.
        let (mut r, t) = rate_learnt(detecting_cfg());
        let mut pushed: Vec<(Instant, u64)> = Vec::new();
        stream(
            &mut r,
            t,
            t + Duration::from_secs(2),
            2,
            (70, 100),
            |r, now| {
                let extra = r.window() - r.rcwnd as u64;
                if extra > 0 {
                    pushed.push((now, extra));
                }
            },
        );
        let (first, last) = (pushed[0].0, pushed.last().unwrap().0);
        assert!(pushed.iter().all(|&(_, e)| (17_999..=18_000).contains(&e)));
        // The first sample of 0.5 C spans t + 0 to 200 ms (the one at t still spans the
        // learning's last 200 ms); the push comes 400 to 800 ms after it, at the next ACK.
        let after = first.saturating_since(t);
        assert!(after >= Duration::from_millis(600) && after <= Duration::from_millis(1_002));
        // The push ends an RTT after it began (ACKs 2 ms apart).
        assert_eq!(last.saturating_since(first), Duration::from_millis(98));
    }

    #[test]
    fn a_push_s_extra_leaves_the_window_when_time_passes_without_data() {
        // The push of the test above, its data stopped just after it began: the window
        // advertised from a timer keeps the extra for the push's RTT (100 ms), not after.
        let run = |r: &mut Rledbat, from: Instant, until: Instant| {
            let mut first = None;
            stream(r, from, until, 2, (70, 100), |r, now| {
                if first.is_none() && r.window() > r.rcwnd as u64 {
                    first = Some(now);
                }
            });
            first
        };
        let (mut probe, t) = rate_learnt(detecting_cfg());
        let first = run(&mut probe, t, t + Duration::from_secs(2)).unwrap();
        let (mut r, t) = rate_learnt(detecting_cfg());
        assert_eq!(
            run(&mut r, t, first + Duration::from_millis(1)),
            Some(first)
        );
        let base = r.rcwnd as u64;
        assert_eq!(r.window(), base + 18_000);
        r.advance(first + Duration::from_millis(99));
        assert_eq!(r.window(), base + 18_000);
        r.advance(first + Duration::from_millis(100));
        assert_eq!(r.window(), base);
    }

    #[test]
    fn after_a_competitor_slow_start_grows_a_byte_per_byte_up_to_the_bdp() {
        let (mut r, _) = avoiding(detecting_cfg(), 2 * MSS);
        r.full_speed_to = 5_000.0;
        r.phase = Phase::SlowStart { limit: None };
        let t = Instant::from_secs(2);
        // 2 000 + 3 x 1 000 = 5 000, then GAIN (1/3) per byte.
        for _ in 0..3 {
            packet(&mut r, t, MSS, BASE);
        }
        assert_eq!(r.window(), 5_000);
        packet(&mut r, t, MSS, BASE);
        assert_eq!(r.window(), 5_333);
        // Its end forgets the bound.
        samples(&mut r, t, (56, 40), 4);
        assert!(matches!(r.phase, Phase::Avoidance { .. }));
        assert_eq!(r.full_speed_to, 0.0);
    }

    fn validating_cfg() -> RledbatConfig {
        RledbatConfig {
            window_validation: true,
            ..cfg()
        }
    }

    #[test]
    fn window_validation_ends_slow_start_at_eight_times_the_most_received_in_a_round() {
        // BASE: RTT 40 ms, GAIN 1/3. A sender that delivers one 1 000-byte packet per
        // round: the first (0 ms) opens a round and grows the window from 10 000 to
        // 10 333.33; the second (40 ms) closes that round (1 000 bytes: the bound is 8 000,
        // below the window), so slow start ends there without growing, and avoidance at an
        // empty queue does not grow either. Without the rule the window grows by 333.33 a
        // packet.
        for (c, want) in [
            (validating_cfg(), [10_333u64, 10_333, 10_333, 10_333]),
            (cfg(), [10_333, 10_666, 11_000, 11_333]),
        ] {
            let mut r = Rledbat::new(c, MSS);
            let t0 = Instant::from_secs(1);
            samples(&mut r, t0, BASE, 4);
            let got: Vec<u64> = (0..4u64)
                .map(|i| {
                    packet(&mut r, t0 + Duration::from_millis(40 * i), MSS, BASE);
                    r.window()
                })
                .collect();
            assert_eq!(got, want, "validation {}", c.window_validation);
            let avoiding = matches!(r.phase, Phase::Avoidance { .. });
            assert_eq!(avoiding, c.window_validation);
        }
    }

    #[test]
    fn window_validation_leaves_a_sender_that_fills_the_window_alone() {
        // A sender that delivers the whole window every round (evenly over the RTT, at an
        // empty queue): slow start grows the window by GAIN a round (1/3 at 40 ms; 1 at
        // 140 ms, doubling it), the rounds' flights follow it a round late, and the rule
        // never acts: every window as without it (3/4 TARGET is never reached here, so slow
        // start runs the whole time). At 140 ms a factor of 4 would act: the 9 000 bytes of
        // the first round bound the window at 36 000 before the second round closes.
        for (path, rounds) in [(BASE, 12), ((70, 140), 8)] {
            let mut on = Rledbat::new(validating_cfg(), MSS);
            let mut off = Rledbat::new(cfg(), MSS);
            let t0 = Instant::from_secs(1);
            samples(&mut on, t0, path, 4);
            samples(&mut off, t0, path, 4);
            let mut t = t0;
            for _round in 0..rounds {
                let n = on.window() / MSS;
                for _ in 0..n {
                    t += Duration::from_micros(path.1 * 1000 / n);
                    packet(&mut on, t, MSS, path);
                    packet(&mut off, t, MSS, path);
                    assert_eq!(on.window(), off.window(), "{path:?}");
                }
            }
            assert!(on.max_flight > 20 * MSS, "{}", on.max_flight);
            assert!(matches!(on.phase, Phase::SlowStart { .. }));
        }
    }
}
