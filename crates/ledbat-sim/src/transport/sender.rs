//! The sending half of a connection: sequence space, scoreboard, loss detection,
//! retransmission queue, RTT estimation, RTO with back-off, the undo of spurious timeouts,
//! and the congestion controller.
//!
//! **Spurious timeouts** (`SenderConfig::spurious_rto`, off by default). A timeout opens
//! an *episode* that lasts until every packet sent before it is acknowledged; the
//! controller's state before the timeout is kept. Within the episode, on each ACK, in the
//! order of Linux's `tcp_process_loss` (which implements both):
//! 1. *Timestamp test* (Eifel detection, RFC 3522): the ACK advances the window and echoes
//!    a timestamp older than the first retransmission still outstanding: it was sent by an
//!    original transmission, the timeout was spurious.
//! 2. *F-RTO* (RFC 5682 section 3, SACK-enhanced): (3b) the ACK newly acknowledges,
//!    cumulatively or selectively, a packet sent before the timeout and never
//!    retransmitted: spurious. (3a) after new data went out, a duplicate or selective ACK:
//!    the timeout was genuine, F-RTO stops and the retransmissions resume. (2b) the first
//!    ACK advancing the window but not past `recover` (the highest sequence sent at the
//!    timeout): `recover` moves to `snd_nxt` and, until the next ACK, only new data goes out
//!    (as the window allows: two packets after a one-packet window); with no new data to
//!    send F-RTO stops.
//! 3. The window passes `recover`: the episode ends (undone first if the timestamp test
//!    says so).
//!
//! Undo (Linux `tcp_undo_cwnd_reduction`): the controller returns to its state before the
//! episode's first timeout, and packets the timeout declared lost that were not
//! retransmitted since count as in flight again (loss detection sees them in transmission
//! order). Linux's timestamps tick at 1 ms; here they are the wire clock's, which makes no
//! difference when the timeout is at least the 200 ms RTO floor after the original.

use super::AckFields;
use crate::scenario::{SpuriousRto, TransportConfig};
use ledbat_bt_proto::deque;
use ledbat_core::{
    Ack, AnyController, Controller, DelaySample, Duration, Instant, Loss, RttEstimator, Timeout,
};
use std::collections::VecDeque;

/// Longest back-off exponent: the RTO doubles at most 20 times (then `max_rto` caps it).
const MAX_BACKOFF: u32 = 20;

/// Initial capacity of the scoreboard and of the list in transmission order, packets (a
/// power of two; both grow with the window). Small, because a ring's slots are written in
/// turn: a flow whose window stays small then keeps its few lines instead of walking a
/// large ring, which matters with thousands of flows taking turns (a swarm).
const INITIAL_RING: usize = 16;
// The scoreboard indexes its ring with `mask = len - 1`.
const _: () = assert!(INITIAL_RING.is_power_of_two());

/// Scoreboard entry of one sequence in `[snd_una, snd_nxt)`.
#[derive(Clone, Copy, Debug, Default)]
struct Seg {
    /// Time of the latest transmission.
    sent_at: Instant,
    /// Transmission number (1, 2, ... over the connection) of the latest transmission.
    tx: u64,
    /// Transmitted at least once.
    out: bool,
    /// Selectively acknowledged.
    sacked: bool,
    /// Declared lost and not retransmitted since.
    lost: bool,
    /// Retransmitted at least once (no RTT sample, Karn).
    retransmitted: bool,
}

impl Seg {
    /// Counted in the flight size.
    #[inline]
    fn in_flight(&self) -> bool {
        self.out && !self.sacked && !self.lost
    }
}

/// Per-sequence sender state for `[snd_una, snd_nxt)`, in a power-of-two ring that doubles
/// when the window outgrows it.
#[derive(Debug)]
struct SegRing {
    segs: Vec<Seg>,
    mask: u64,
}

impl SegRing {
    fn new() -> Self {
        SegRing {
            segs: vec![Seg::default(); INITIAL_RING],
            mask: INITIAL_RING as u64 - 1,
        }
    }
    #[inline]
    fn get(&mut self, seq: u64) -> &mut Seg {
        &mut self.segs[(seq & self.mask) as usize]
    }
    fn make_room(&mut self, una: u64, nxt: u64) {
        if nxt - una < self.segs.len() as u64 {
            return;
        }
        let mut bigger = vec![Seg::default(); self.segs.len() * 2];
        let m = bigger.len() as u64 - 1;
        for s in una..nxt {
            bigger[(s & m) as usize] = self.segs[(s & self.mask) as usize];
        }
        self.segs = bigger;
        self.mask = m;
    }
}

/// The recovery after a retransmission timeout, while it may still prove spurious.
#[derive(Debug)]
struct Episode {
    /// The controller before the episode's first timeout.
    prior_cc: AnyController,
    /// RFC 5682's `recover` (Linux's `high_seq`): `snd_nxt` at the latest timeout, or when
    /// F-RTO sent new data.
    recover: u64,
    /// F-RTO runs.
    frto: bool,
    /// The highest transmission acknowledged unambiguously: before the timeout, or of a
    /// packet never retransmitted since. An ACK of a retransmitted packet may have been
    /// sent by its original, so on undo loss detection restarts from this one.
    h_tx: u64,
}

/// Why a timeout was undone.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Undo {
    /// F-RTO: never-retransmitted data sent before the timeout was acknowledged.
    Frto,
    /// The timestamp test: the ACK echoed an original transmission.
    Timestamp,
}

/// What [`Sender::next`] decided.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Next {
    /// Transmit this segment now (the sender's state already counts it as sent).
    Send(Segment),
    /// Sending is gated (pacing, controller pause, interruption) until this instant.
    Wait(Instant),
    /// Nothing to send: no data written, or the window is full. An ACK, a timeout or a
    /// write changes that.
    Blocked,
}

/// One data packet to transmit.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Segment {
    /// Its sequence number.
    pub seq: u64,
    /// A retransmission.
    pub retransmit: bool,
    /// The retransmission timer was armed for this instant (it was not running, or this
    /// is a retransmission of the oldest unacknowledged packet, which restarts it).
    pub rto_armed: Option<Instant>,
}

/// One arriving ACK.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct AckIn {
    /// What the receiver sent.
    pub fields: AckFields,
    /// Reverse-path delay sample: sender clock now minus the receiver's timestamp.
    pub reverse_delay: DelaySample,
    /// When the packet whose timestamp the ACK echoes was sent, on the sender's clock
    /// (the host converts the echoed wire timestamp).
    pub echo_sent: Instant,
}

/// What one ACK did at the sender.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct AckOutcome {
    /// The RTT sample taken (none when nothing new was acknowledged or the packet that
    /// triggered the ACK had been retransmitted).
    pub rtt: Option<Duration>,
    /// Packets newly declared lost.
    pub losses: u64,
    /// The retransmission timer was re-armed for this instant (the cumulative ACK advanced
    /// with data still outstanding).
    pub rto_armed: Option<Instant>,
    /// The cumulative acknowledgement advanced.
    pub advanced: bool,
    /// The ACK proved the latest timeout spurious and it was undone.
    pub undone: Option<Undo>,
}

/// Transport parameters the sender needs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SenderConfig {
    /// Packet size, bytes.
    pub mss: u32,
    /// Packets acknowledged after a packet, in transmission order, before it is lost.
    pub dupthresh: u32,
    /// Clock granularity `G` of the RTO formula.
    pub granularity: Duration,
    /// RTO floor.
    pub min_rto: Duration,
    /// RTO ceiling (also after back-off).
    pub max_rto: Duration,
    /// The receiver's window, packets: new data leaves only while fewer than this many
    /// packets are unacknowledged (`snd_nxt - snd_una`). `None`: unlimited.
    pub receive_window: Option<u64>,
    /// Restart the controller after an RTO without sending (RFC 5681 section 4.1).
    pub idle_restart: bool,
    /// Detection and undo of spurious timeouts (module comment).
    pub spurious_rto: SpuriousRto,
}

impl SenderConfig {
    /// The sender parameters of a scenario's transport, for packets of `mss` bytes.
    pub fn from_transport(mss: u32, tp: &TransportConfig) -> Self {
        SenderConfig {
            mss,
            dupthresh: tp.dupthresh,
            granularity: tp.granularity,
            min_rto: tp.min_rto,
            max_rto: tp.max_rto,
            receive_window: tp.receive_window.map(u64::from),
            idle_restart: tp.idle_restart,
            spurious_rto: tp.spurious_rto,
        }
    }
}

/// Sender state of one connection.
///
/// In declaration order (`repr(C)`): the fields an ACK or a transmission reads or writes,
/// then the configuration, then the controller. A swarm has thousands of senders taking
/// turns, so each packet finds its sender's lines cold; this way the sender's own state
/// spans its first six lines, the last shared with the controller's start, instead of
/// lines at both ends of the 1.6-kB controller (where the compiler's own order put them).
#[derive(Debug)]
#[repr(C)]
pub struct Sender {
    /// Packets written by the application so far (new data is sent below this).
    written: u64,
    snd_una: u64,
    snd_nxt: u64,
    in_flight: u64,
    tx_count: u64,
    /// Highest transmission number acknowledged.
    h_tx: u64,
    last_send: Instant,
    last_activity: Instant,
    board: SegRing,
    /// `(transmission number, seq)` in transmission order, for loss detection.
    sent_list: VecDeque<(u64, u64)>,
    /// Sequences to retransmit, oldest first.
    retx: VecDeque<u64>,
    rto_deadline: Option<Instant>,
    rtt: RttEstimator,
    /// When the first retransmission still outstanding left (Linux's `retrans_stamp`),
    /// and one past the highest sequence retransmitted since.
    retx_stamp: Option<Instant>,
    retx_high: u64,
    /// The timeout episode, when spurious timeouts are detected.
    episode: Option<Box<Episode>>,
    backoff: u32,
    /// F-RTO step 2b: until the next ACK, send only new data.
    frto_new_data: bool,
    cfg: SenderConfig,
    cc: AnyController,
}

impl Sender {
    /// A sender at sequence 0 with nothing written, driving `cc`.
    pub fn new(cfg: SenderConfig, cc: AnyController) -> Self {
        Sender {
            cfg,
            cc,
            written: 0,
            snd_una: 0,
            snd_nxt: 0,
            board: SegRing::new(),
            sent_list: VecDeque::with_capacity(INITIAL_RING),
            retx: VecDeque::new(),
            tx_count: 0,
            h_tx: 0,
            in_flight: 0,
            rtt: RttEstimator::default(),
            backoff: 0,
            rto_deadline: None,
            last_send: Instant::ZERO,
            last_activity: Instant::ZERO,
            retx_stamp: None,
            retx_high: 0,
            episode: None,
            frto_new_data: false,
        }
    }

    /// The congestion controller.
    pub fn cc(&self) -> &AnyController {
        &self.cc
    }
    /// Oldest unacknowledged sequence.
    pub fn snd_una(&self) -> u64 {
        self.snd_una
    }
    /// Next new sequence to send.
    pub fn snd_nxt(&self) -> u64 {
        self.snd_nxt
    }
    /// Packets written by the application so far.
    pub fn written(&self) -> u64 {
        self.written
    }
    /// Bytes in flight (sent, not acknowledged, not declared lost).
    pub fn in_flight(&self) -> u64 {
        self.in_flight
    }
    /// Current back-off exponent.
    pub fn backoff(&self) -> u32 {
        self.backoff
    }
    /// The RTT estimator.
    pub fn rtt(&self) -> &RttEstimator {
        &self.rtt
    }
    /// Last transmission or ACK arrival (or [`Sender::touch`]).
    pub fn last_activity(&self) -> Instant {
        self.last_activity
    }
    /// Sent packets not yet cumulatively acknowledged, `snd_nxt - snd_una`.
    pub fn outstanding(&self) -> u64 {
        self.snd_nxt - self.snd_una
    }
    /// When the retransmission timer expires, if it runs.
    pub fn rto_deadline(&self) -> Option<Instant> {
        self.rto_deadline
    }
    /// Every written packet has been acknowledged.
    pub fn all_acked(&self) -> bool {
        self.snd_una >= self.written
    }

    /// The application writes `pkts` more packets (saturating: `u64::MAX` is a backlog).
    pub fn write(&mut self, pkts: u64) {
        self.written = self.written.saturating_add(pkts);
    }

    /// The current RTO: RFC 6298's `SRTT + max(G, 4 RTTVAR)` (floor `min_rto`), doubled per
    /// back-off, capped at `max_rto`.
    #[inline]
    pub fn rto(&self) -> Duration {
        let c = &self.cfg;
        let base = self.rtt.rto(c.granularity, c.min_rto).as_nanos();
        Duration::from_nanos(
            base.saturating_mul(1u64 << self.backoff.min(MAX_BACKOFF))
                .min(c.max_rto.as_nanos()),
        )
    }

    /// Notes activity at `now` (the connection (re)starts): idle time, after which the
    /// controller restarts, is counted from here.
    pub fn touch(&mut self, now: Instant) {
        self.last_activity = now;
    }

    /// Stops the retransmission timer (the connection is closed or paused for good).
    pub fn cancel_rto(&mut self) {
        self.rto_deadline = None;
    }

    /// A new connection over the same sequence space: a fresh controller and RTT estimator,
    /// no back-off.
    pub fn new_connection(&mut self, cc: AnyController) {
        self.cc = cc;
        self.rtt = RttEstimator::default();
        self.backoff = 0;
        self.episode = None;
        self.frto_new_data = false;
    }

    /// Lets the controller run its timer when it is due.
    pub fn on_tick(&mut self, now: Instant) {
        if self.cc.next_tick().is_some_and(|t| t <= now) {
            self.cc.on_tick(now);
        }
    }

    /// What to do at `now`, sending nothing before `not_before`: the next segment
    /// (retransmissions first), or why not. Call again after each [`Next::Send`].
    #[inline]
    pub fn next(&mut self, now: Instant, not_before: Instant) -> Next {
        let mss = self.cfg.mss as u64;
        let mut gate = not_before;
        if let Some(p) = self.cc.pause_until() {
            gate = gate.max(p);
        }
        if let Some(r) = self.cc.pacing_rate() {
            if r > 0 && self.tx_count > 0 {
                gate = gate.max(self.last_send + Duration::from_nanos(mss * 1_000_000_000 / r));
            }
        }
        if gate > now {
            return Next::Wait(gate);
        }
        let mut retx = None;
        while let Some(&s) = self.retx.front().filter(|_| !self.frto_new_data) {
            let seg = self.board.get(s);
            if s >= self.snd_una && seg.lost && !seg.sacked {
                retx = Some(s);
                break;
            }
            deque::pop_front(&mut self.retx);
        }
        let seq = match retx {
            Some(s) => s,
            None if self.snd_nxt < self.written => self.snd_nxt,
            None => {
                if self.in_flight + mss <= self.cc.window() {
                    // The application, not the window, holds the flow back.
                    self.cc.on_app_limited(now, self.in_flight);
                }
                return Next::Blocked;
            }
        };
        let idle_restart = self.cfg.idle_restart
            && retx.is_none()
            && self.in_flight == 0
            && self.snd_una == self.snd_nxt
            && self.tx_count > 0
            && now - self.last_activity >= self.rto();
        if self.in_flight > 0 && self.in_flight + mss > self.cc.window() {
            return Next::Blocked;
        }
        if retx.is_none()
            && self
                .cfg
                .receive_window
                .is_some_and(|w| self.snd_nxt - self.snd_una >= w)
        {
            return Next::Blocked;
        }
        if idle_restart {
            self.cc.on_timeout(now, Timeout::Idle);
        }
        Next::Send(self.transmit(now, seq, retx.is_some()))
    }

    #[inline]
    fn transmit(&mut self, now: Instant, seq: u64, retransmit: bool) -> Segment {
        let mss = self.cfg.mss as u64;
        self.tx_count += 1;
        if retransmit {
            deque::pop_front(&mut self.retx);
        } else {
            self.board.make_room(self.snd_una, self.snd_nxt + 1);
            *self.board.get(seq) = Seg::default();
            self.snd_nxt += 1;
        }
        let tx = self.tx_count;
        let seg = self.board.get(seq);
        seg.sent_at = now;
        seg.tx = tx;
        seg.lost = false;
        seg.out = true;
        seg.retransmitted |= retransmit;
        if retransmit {
            self.retx_stamp.get_or_insert(now);
            self.retx_high = self.retx_high.max(seq + 1);
        }
        self.in_flight += mss;
        self.sent_list.push_back((tx, seq));
        self.last_send = now;
        self.last_activity = now;
        self.cc.on_sent(now, mss, self.in_flight);
        // The timer starts when it is not running (RFC 6298 (5.1)) and restarts when the
        // oldest unacknowledged packet is retransmitted, as Linux's
        // `tcp_xmit_retransmit_queue` does: the retransmission gets a full RTO to be
        // acknowledged, instead of what remains of the one armed by the last ACK that
        // advanced the window, which a fast retransmit held back by the halved window and
        // queued behind a full buffer can outlast.
        let head_retx = retransmit && seq == self.snd_una;
        let rto_armed = (self.rto_deadline.is_none() || head_retx).then(|| self.arm_rto(now));
        Segment {
            seq,
            retransmit,
            rto_armed,
        }
    }

    #[inline]
    fn arm_rto(&mut self, now: Instant) -> Instant {
        let d = now + self.rto();
        self.rto_deadline = Some(d);
        d
    }

    /// An ACK arrived at `now`: cumulative and SACK processing, an RTT sample (Karn), the
    /// controller's `on_ack`, then loss detection in transmission order (a packet is lost
    /// once `dupthresh` packets sent after it are acknowledged) with one `on_loss` each.
    #[inline]
    pub fn on_ack(&mut self, now: Instant, ack: &AckIn) -> AckOutcome {
        let mss = self.cfg.mss as u64;
        let mut out = AckOutcome::default();
        let flight_before = self.in_flight;
        let mut bytes = 0u64;
        let mut pkts = 0u32;
        let mut rtt: Option<Duration> = None;
        let mut newest_sent = Instant::ZERO;
        let mut acked_tx = 0u64;
        let cum = ack.fields.cum.min(self.snd_nxt);
        let mut advanced = false;
        // Newly acknowledged: a packet sent before the timeout episode's `recover` and
        // never retransmitted (Linux's FLAG_ORIG_SACK_ACKED); and newly SACKed data.
        let recover = self.episode.as_ref().map_or(0, |e| e.recover);
        let mut orig_acked = false;
        let mut data_sacked = false;
        let mut plain_tx = 0u64;
        if cum > self.snd_una {
            for s in self.snd_una..cum {
                let seg = *self.board.get(s);
                if !seg.sacked {
                    orig_acked |= !seg.retransmitted && s < recover;
                    if !seg.retransmitted {
                        plain_tx = plain_tx.max(seg.tx);
                    }
                    if seg.in_flight() {
                        self.in_flight -= mss;
                    }
                    bytes += mss;
                    pkts += 1;
                    if s + 1 == cum && !seg.retransmitted {
                        rtt = Some(now - seg.sent_at);
                    }
                    newest_sent = newest_sent.max(seg.sent_at);
                }
                acked_tx = acked_tx.max(seg.tx);
            }
            self.snd_una = cum;
            self.backoff = 0;
            advanced = true;
        }
        let s = ack.fields.sack;
        if s >= self.snd_una && s < self.snd_nxt {
            let seg = self.board.get(s);
            if !seg.sacked {
                orig_acked |= !seg.retransmitted && s < recover;
                if !seg.retransmitted {
                    plain_tx = plain_tx.max(seg.tx);
                }
                data_sacked = true;
                if seg.in_flight() {
                    self.in_flight -= mss;
                }
                seg.sacked = true;
                bytes += mss;
                pkts += 1;
                if !seg.retransmitted {
                    rtt = Some(now - seg.sent_at);
                }
                newest_sent = newest_sent.max(seg.sent_at);
            }
            acked_tx = acked_tx.max(seg.tx);
        }
        self.h_tx = self.h_tx.max(acked_tx);
        self.last_activity = now;
        let dupack = !advanced && s >= self.snd_una && s < self.snd_nxt;
        self.frto_new_data = false;
        if let Some(e) = self.episode.as_mut() {
            e.h_tx = e.h_tx.max(plain_tx);
            out.undone =
                self.spurious_rto_step(ack.echo_sent, advanced, orig_acked, data_sacked, dupack);
        }
        if advanced && self.snd_una >= self.retx_high {
            self.retx_stamp = None;
        }
        if pkts > 0 {
            let samples = [ack.fields.delay];
            if let Some(r) = rtt {
                self.rtt.on_sample(r);
                out.rtt = Some(r);
            }
            let a = Ack {
                bytes_acked: bytes,
                packets_acked: pkts,
                flight_before,
                delay_samples: &samples,
                rtt,
                reverse_delay: Some(ack.reverse_delay),
                newest_sent,
            };
            self.cc.on_ack(now, &a);
        }
        let thresh = self.cfg.dupthresh as u64;
        while let Some(&(tx, s)) = self.sent_list.front() {
            if s < self.snd_una {
                deque::pop_front(&mut self.sent_list);
                continue;
            }
            let seg = self.board.get(s);
            if seg.tx != tx || seg.sacked || seg.lost {
                deque::pop_front(&mut self.sent_list);
                continue;
            }
            if tx + thresh > self.h_tx {
                break;
            }
            let in_flight_before = self.in_flight;
            if seg.in_flight() {
                self.in_flight -= mss;
            }
            seg.lost = true;
            let loss = Loss {
                bytes: mss,
                sent_at: seg.sent_at,
                in_flight: in_flight_before,
            };
            self.retx.push_back(s);
            out.losses += 1;
            deque::pop_front(&mut self.sent_list);
            self.cc.on_loss(now, &loss);
        }
        out.advanced = advanced;
        if advanced {
            if self.snd_una < self.snd_nxt {
                out.rto_armed = Some(self.arm_rto(now));
            } else {
                self.rto_deadline = None;
            }
        }
        out
    }

    /// One ACK of a timeout episode (module comment): the timestamp test, F-RTO's steps,
    /// the episode's end. Returns how the timeout was undone, if it was.
    fn spurious_rto_step(
        &mut self,
        echo_sent: Instant,
        advanced: bool,
        orig_acked: bool,
        data_sacked: bool,
        dupack: bool,
    ) -> Option<Undo> {
        let mode = self.cfg.spurious_rto;
        let delayed = mode.eifel() && self.retx_stamp.is_some_and(|t| echo_sent < t);
        let e = self.episode.as_mut()?;
        let recovered = self.snd_una >= e.recover;
        if advanced && delayed {
            self.undo();
            return Some(Undo::Timestamp);
        }
        if e.frto {
            if orig_acked {
                self.undo();
                return Some(Undo::Frto);
            }
            if self.snd_nxt > e.recover {
                if data_sacked || dupack {
                    e.frto = false; // step 3a: the loss was real
                }
            } else if advanced && !recovered {
                // Step 2b: new data instead of retransmissions, if there is any to send.
                e.recover = self.snd_nxt;
                let window_open = self
                    .cfg
                    .receive_window
                    .is_none_or(|w| self.snd_nxt - self.snd_una < w);
                if self.written > self.snd_nxt && window_open {
                    self.frto_new_data = true;
                    return None;
                }
                e.frto = false;
            }
        }
        if recovered {
            self.episode = None;
        }
        None
    }

    /// Undoes the episode's timeouts: the controller as before the first, and the packets
    /// they declared lost that were not retransmitted since back in flight.
    fn undo(&mut self) {
        let Some(e) = self.episode.take() else {
            return;
        };
        self.cc = e.prior_cc;
        self.h_tx = e.h_tx;
        self.frto_new_data = false;
        let mss = self.cfg.mss as u64;
        let mut order: Vec<(u64, u64)> = self.sent_list.drain(..).collect();
        for s in self.snd_una..self.snd_nxt {
            let seg = self.board.get(s);
            if seg.lost && seg.out && !seg.sacked {
                seg.lost = false;
                self.in_flight += mss;
                order.push((seg.tx, s));
            }
        }
        order.sort_unstable();
        self.sent_list.extend(order);
    }

    /// The retransmission timer fired at `now` (at or after [`Sender::rto_deadline`]).
    /// With data outstanding: back off, tell the controller, queue every unacknowledged
    /// packet for retransmission and return the re-armed deadline. Otherwise stop the timer
    /// and return `None`.
    pub fn on_rto(&mut self, now: Instant) -> Option<Instant> {
        let mss = self.cfg.mss as u64;
        if self.snd_una == self.snd_nxt {
            self.rto_deadline = None;
            return None;
        }
        self.backoff = (self.backoff + 1).min(MAX_BACKOFF);
        let mode = self.cfg.spurious_rto;
        if mode != SpuriousRto::None {
            match self.episode.as_mut() {
                // A recurring timeout: the episode and its prior state go on (RFC 5682
                // section 3.2; Linux keeps `prior_cwnd` within a loss episode).
                Some(e) => {
                    e.recover = self.snd_nxt;
                    e.frto = mode.frto();
                }
                None => {
                    self.episode = Some(Box::new(Episode {
                        prior_cc: self.cc.clone(),
                        recover: self.snd_nxt,
                        frto: mode.frto(),
                        h_tx: self.h_tx,
                    }))
                }
            }
        }
        self.frto_new_data = false;
        self.cc.on_timeout(now, Timeout::Retransmission);
        self.retx.clear();
        self.sent_list.clear();
        for s in self.snd_una..self.snd_nxt {
            let seg = self.board.get(s);
            if !seg.sacked {
                if seg.in_flight() {
                    self.in_flight -= mss;
                }
                seg.lost = true;
                self.retx.push_back(s);
            }
        }
        Some(self.arm_rto(now))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use ledbat_core::ControllerConfig;
    use proptest::prelude::*;

    const MSS: u64 = 1000;

    fn ms(n: u64) -> Instant {
        Instant::from_millis(n)
    }

    /// MSS 1000, dupthresh 3, G = 1 ms, RTO in [200 ms, 60 s], NewReno with a 10-packet
    /// initial window.
    fn sender() -> Sender {
        let cfg = SenderConfig {
            mss: MSS as u32,
            dupthresh: 3,
            granularity: Duration::from_millis(1),
            min_rto: Duration::from_millis(200),
            max_rto: Duration::from_secs(60),
            receive_window: None,
            idle_restart: true,
            spurious_rto: SpuriousRto::None,
        };
        let cc = ControllerConfig::with_params("newreno", ["init_cwnd=10"])
            .unwrap()
            .build(MSS as u32)
            .unwrap();
        Sender::new(cfg, cc)
    }

    /// Everything the sender may send at `now`.
    fn send_all(s: &mut Sender, now: Instant) -> Vec<Segment> {
        let mut out = Vec::new();
        while let Next::Send(seg) = s.next(now, Instant::ZERO) {
            out.push(seg);
        }
        out
    }

    fn ack(s: &mut Sender, now: Instant, cum: u64, sack: u64) -> AckOutcome {
        ack_echo(s, now, cum, sack, now)
    }

    /// An ACK echoing the timestamp of a packet sent at `echo_sent`.
    fn ack_echo(
        s: &mut Sender,
        now: Instant,
        cum: u64,
        sack: u64,
        echo_sent: Instant,
    ) -> AckOutcome {
        let fields = AckFields {
            cum,
            sack,
            delay: DelaySample(0),
            tsecr: 0,
        };
        s.on_ack(
            now,
            &AckIn {
                fields,
                reverse_delay: DelaySample(0),
                echo_sent,
            },
        )
    }

    /// `(seq, retransmit)` of everything the sender may send at `now`.
    fn sent(s: &mut Sender, now: Instant) -> Vec<(u64, bool)> {
        send_all(s, now)
            .iter()
            .map(|g| (g.seq, g.retransmit))
            .collect()
    }

    /// A sender in `mode` with 20 packets written, 0..9 sent at 0 (the 10-packet window),
    /// and the timeout at 1 s (no RTT sample yet) fired and its retransmission of 0 sent.
    fn timed_out(mode: SpuriousRto) -> Sender {
        let mut s = sender();
        s.cfg.spurious_rto = mode;
        s.write(20);
        send_all(&mut s, ms(0));
        assert_eq!(s.on_rto(ms(1000)), Some(ms(3000)));
        // NewReno after a timeout: a one-packet window.
        assert_eq!(sent(&mut s, ms(1000)), [(0, true)]);
        s
    }

    #[test]
    fn without_detection_a_late_original_does_not_undo_the_timeout() {
        let mut s = timed_out(SpuriousRto::None);
        // The original 0 and 1 arrive late: nothing is undone, and the window (1 packet,
        // grown by 2 in slow start by this ACK of two) resends 2, 3 and 4 although they
        // were never lost.
        let o = ack_echo(&mut s, ms(1100), 2, 1, ms(0));
        assert_eq!(o.undone, None);
        assert_eq!(sent(&mut s, ms(1100)), [(2, true), (3, true), (4, true)]);
    }

    #[test]
    fn frto_sends_new_data_after_the_first_ack_and_undoes_on_an_original_acked() {
        let mut s = timed_out(SpuriousRto::Frto);
        // Step 2b: the ACK of 0 advances the window but not to `recover` (10): new data
        // instead of retransmissions, as the window (2 packets after this ACK) allows.
        let o = ack(&mut s, ms(1100), 1, 0);
        assert_eq!(o.undone, None);
        assert_eq!(sent(&mut s, ms(1100)), [(10, false), (11, false)]);
        // Step 3b: the next ACK acknowledges 1, sent before the timeout and never resent:
        // spurious. The window returns to the 10 packets it had, grown by this ACK to 11;
        // 2..9 count as in flight again beside 10 and 11, so one new packet goes out.
        let o = ack(&mut s, ms(1110), 2, 1);
        assert_eq!(o.undone, Some(Undo::Frto));
        assert_eq!(s.in_flight(), 10 * MSS);
        assert_eq!(s.cc().window(), 11 * MSS);
        assert_eq!(sent(&mut s, ms(1110)), [(12, false)]);
        // Nothing the timeout marked is resent: the originals of 2.. arrive and are acked.
        let o = ack(&mut s, ms(1120), 3, 2);
        assert_eq!((o.undone, o.losses), (None, 0));
        assert!(sent(&mut s, ms(1120)).iter().all(|&(_, r)| !r));
    }

    #[test]
    fn frto_resumes_the_retransmissions_when_new_data_is_sacked() {
        let mut s = timed_out(SpuriousRto::Frto);
        // 1..9 were lost: the ACK of the retransmitted 0 moves to step 2b ...
        ack(&mut s, ms(1100), 1, 0);
        assert_eq!(sent(&mut s, ms(1100)), [(10, false), (11, false)]);
        // ... and 10 arriving out of order is SACKed (step 3a): the timeout was real.
        let o = ack(&mut s, ms(1200), 1, 10);
        assert_eq!(o.undone, None);
        // The window, 3 packets after two ACKs of one, holds 11: two retransmissions.
        assert_eq!(sent(&mut s, ms(1200)), [(1, true), (2, true)]);
        // Later ACKs of originals sent before the timeout cannot undo it any more: 1 and
        // 2 were retransmitted, and F-RTO stopped.
        let o = ack(&mut s, ms(1300), 3, 2);
        assert_eq!(o.undone, None);
    }

    #[test]
    fn frto_without_new_data_to_send_falls_back_to_retransmitting() {
        let mut s = sender();
        s.cfg.spurious_rto = SpuriousRto::Frto;
        s.write(10);
        send_all(&mut s, ms(0));
        s.on_rto(ms(1000));
        assert_eq!(sent(&mut s, ms(1000)), [(0, true)]);
        // Step 2b with nothing new written: conventional recovery, 1 and 2 resent.
        ack(&mut s, ms(1100), 1, 0);
        assert_eq!(sent(&mut s, ms(1100)), [(1, true), (2, true)]);
        // The originals of 3.. arriving now are not 'never retransmitted data' of a
        // running F-RTO: no undo.
        assert_eq!(ack(&mut s, ms(1110), 4, 3).undone, None);
    }

    #[test]
    fn the_timestamp_test_undoes_when_the_ack_echoes_the_original() {
        let mut s = timed_out(SpuriousRto::Eifel);
        // The ACK of 0 echoes a timestamp from 0 ms, before the retransmission at 1 s:
        // the original arrived. Window back to 10, plus 1 for this ACK; 1..9 in flight.
        let o = ack_echo(&mut s, ms(1100), 1, 0, ms(0));
        assert_eq!(o.undone, Some(Undo::Timestamp));
        assert_eq!(s.in_flight(), 9 * MSS);
        assert_eq!(sent(&mut s, ms(1100)), [(10, false), (11, false)]);
    }

    #[test]
    fn the_timestamp_test_keeps_a_timeout_whose_retransmission_is_echoed() {
        let mut s = timed_out(SpuriousRto::Eifel);
        // Echo of the retransmission (sent at 1 s): not older than it, the loss was real.
        let o = ack_echo(&mut s, ms(1100), 1, 0, ms(1000));
        assert_eq!(o.undone, None);
        assert_eq!(sent(&mut s, ms(1100)), [(1, true), (2, true)]);
        // The retransmitted 1 and 2 fill the holes up to 10, echoing the retransmission
        // of 1: still real, and every packet sent before the timeout is acknowledged, so
        // the episode is over ...
        let o = ack_echo(&mut s, ms(1200), 10, 2, ms(1100));
        assert_eq!(o.undone, None);
        assert_eq!(sent(&mut s, ms(1200)).first(), Some(&(10, false)));
        // ... and a later ACK echoing an old timestamp undoes nothing.
        let o = ack_echo(&mut s, ms(1300), 11, 10, ms(0));
        assert_eq!(o.undone, None);
    }

    #[test]
    fn linux_undoes_a_recurring_timeout_to_the_state_before_the_first() {
        let mut s = timed_out(SpuriousRto::Linux);
        // The retransmission's timer fires too (backed off to 2 s): same episode.
        assert_eq!(s.on_rto(ms(3000)), Some(ms(7000)));
        assert_eq!(sent(&mut s, ms(3000)), [(0, true)]);
        // Then the original 0's ACK comes, echoing 0 ms: the first timeout's prior state
        // (window 10) comes back, not the one-packet window of the second.
        let o = ack_echo(&mut s, ms(3100), 1, 0, ms(0));
        assert_eq!(o.undone, Some(Undo::Timestamp));
        assert_eq!(s.cc().window(), 11 * MSS);
    }

    #[test]
    fn reports_whether_the_cumulative_ack_advanced_and_what_is_outstanding() {
        let mut s = sender();
        s.write(5);
        send_all(&mut s, ms(0));
        assert_eq!((s.outstanding(), s.last_activity()), (5, ms(0)));
        // seq 0 lost: the ACK of seq 1 only SACKs it, the cumulative ACK stays at 0.
        let o = ack(&mut s, ms(40), 0, 1);
        assert!(!o.advanced);
        assert_eq!((s.outstanding(), s.last_activity()), (5, ms(40)));
        // The ACK covering 0..=2 advances it; 2 of the 5 remain outstanding.
        let o = ack(&mut s, ms(60), 3, 2);
        assert!(o.advanced);
        assert_eq!(s.outstanding(), 2);
    }

    #[test]
    fn the_receive_window_caps_unacknowledged_new_data() {
        let mut s = sender();
        s.cfg.receive_window = Some(4);
        s.write(20);
        // The 10-packet congestion window would allow 10; the receiver allows 4.
        assert_eq!(send_all(&mut s, ms(0)).len(), 4);
        // Two acknowledged: two more may leave, never more than 4 outstanding.
        ack(&mut s, ms(50), 2, 1);
        let segs = send_all(&mut s, ms(50));
        assert_eq!(segs.iter().map(|g| g.seq).collect::<Vec<_>>(), vec![4, 5]);
        assert_eq!(s.next(ms(50), Instant::ZERO), Next::Blocked);
    }

    #[test]
    fn an_idle_connection_restarts_from_the_initial_window_unless_told_not_to() {
        for (restart, burst) in [(true, 10), (false, 12)] {
            let mut s = sender();
            s.cfg.idle_restart = restart;
            s.write(10);
            send_all(&mut s, ms(0));
            // One ACK for all ten in slow start: +2 packets (RFC 3465's L = 2), window 12.
            ack(&mut s, ms(100), 10, 0);
            // 5 s without sending, far beyond the 300 ms RTO (100 ms + 4 x 50 ms): RFC
            // 5681's restart window is min(IW, cwnd) = 10 packets; without the restart the
            // 12-packet window leaves at once.
            s.write(30);
            assert_eq!(
                send_all(&mut s, ms(5100)).len(),
                burst,
                "idle_restart {restart}"
            );
        }
    }

    #[test]
    fn sends_written_data_up_to_the_window_and_arms_the_rto_once() {
        let mut s = sender();
        assert_eq!(
            s.next(ms(0), Instant::ZERO),
            Next::Blocked,
            "nothing written"
        );
        s.write(20);
        let segs = send_all(&mut s, ms(0));
        // 10-packet window: seq 0..9; the first arms the RTO at 1 s (no sample yet).
        assert_eq!(segs.len(), 10);
        assert_eq!(segs[0].rto_armed, Some(ms(1000)));
        assert!(segs[1..]
            .iter()
            .all(|g| g.rto_armed.is_none() && !g.retransmit));
        assert_eq!(
            segs.iter().map(|g| g.seq).collect::<Vec<_>>(),
            (0..10).collect::<Vec<_>>()
        );
        assert_eq!((s.in_flight(), s.snd_nxt()), (10 * MSS, 10));
        assert_eq!(s.next(ms(0), Instant::ZERO), Next::Blocked, "window full");
    }

    #[test]
    fn sending_waits_for_the_gate() {
        let mut s = sender();
        s.write(1);
        assert_eq!(s.next(ms(0), ms(5)), Next::Wait(ms(5)));
        assert!(matches!(s.next(ms(5), ms(5)), Next::Send(_)));
    }

    #[test]
    fn cumulative_ack_samples_the_rtt_and_rearms_the_rto() {
        let mut s = sender();
        s.write(2);
        send_all(&mut s, ms(0));
        let out = ack(&mut s, ms(100), 1, 0);
        // srtt 100 ms, rttvar 50 ms: RTO = 100 + max(1, 4 * 50) = 300 ms, from 100 ms.
        assert_eq!(out.rtt, Some(Duration::from_millis(100)));
        assert_eq!(out.rto_armed, Some(ms(400)));
        assert_eq!((s.snd_una(), s.in_flight()), (1, MSS));
        let out = ack(&mut s, ms(120), 2, 1);
        assert_eq!(out.rtt, Some(Duration::from_millis(120)));
        assert_eq!(out.rto_armed, None);
        assert_eq!(s.rto_deadline(), None, "nothing outstanding: timer stopped");
        assert!(s.all_acked());
    }

    #[test]
    fn sack_counts_each_packet_once_and_dupthresh_declares_the_hole_lost() {
        let mut s = sender();
        s.write(5);
        send_all(&mut s, ms(0)); // seq 0..4 = transmissions 1..5
                                 // Seq 0 is lost; 1 and 2 arrive: transmissions 2 and 3 acknowledged, 1 + 3 > 3.
        assert_eq!(ack(&mut s, ms(10), 0, 1).losses, 0);
        assert_eq!(ack(&mut s, ms(11), 0, 2).losses, 0);
        // Seq 3 = transmission 4: 1 + 3 <= 4, so seq 0 is lost.
        let out = ack(&mut s, ms(12), 0, 3);
        assert_eq!(out.losses, 1);
        assert_eq!(out.rtt, Some(Duration::from_millis(12)));
        // In flight: only seq 4 (1, 2, 3 SACKed, 0 lost).
        assert_eq!(s.in_flight(), MSS);
        // The same SACK again acknowledges nothing new.
        let again = ack(&mut s, ms(13), 0, 3);
        assert_eq!((again.rtt, again.losses), (None, 0));
        assert_eq!(s.in_flight(), MSS);
        // The retransmission goes first, then nothing (all written data sent). It is the
        // oldest unacknowledged packet, so it restarts the timer: the three samples of
        // 10-12 ms give an RTO under the 200-ms floor, 13 + 200 ms.
        match s.next(ms(13), Instant::ZERO) {
            Next::Send(g) => {
                assert_eq!((g.seq, g.retransmit, g.rto_armed), (0, true, Some(ms(213))))
            }
            other => panic!("expected the retransmission, got {other:?}"),
        }
        assert_eq!(s.next(ms(13), Instant::ZERO), Next::Blocked);
        // The cumulative ACK for everything: seq 4 (never retransmitted) gives the sample.
        let out = ack(&mut s, ms(50), 5, 0);
        assert_eq!(out.rtt, Some(Duration::from_millis(50)));
        assert_eq!((s.snd_una(), s.in_flight()), (5, 0));
    }

    #[test]
    fn retransmitting_the_oldest_packet_restarts_the_timer_linux() {
        let mut s = sender();
        s.write(20);
        assert_eq!(sent(&mut s, ms(0)).len(), 10);
        // At 100 ms, 0 acknowledged: first RTT sample 100 ms, SRTT 100, RTTVAR 50, RTO
        // 100 + 4 * 50 = 300 ms; the cumulative ACK arms the timer for 400 ms.
        assert_eq!(ack(&mut s, ms(100), 1, 0).rto_armed, Some(ms(400)));
        for q in 2..8 {
            ack(&mut s, ms(100), 1, q);
        }
        // Then 2..7 selectively, six more 100-ms samples: RTTVAR decays by 3/4 each to
        // 50 * 0.75^6 = 8.9 ms, RTO = 100 + 35.6 ms, raised to the 200-ms floor. 1 is lost
        // (three later packets acknowledged); in flight 8, 9 = 2 packets, and the halved
        // window ssthresh = max(6 / 2, 2) = 3 packets lets its retransmission out (at
        // 250 ms, when the host next asks) and nothing else.
        assert_eq!(s.rto_deadline(), Some(ms(400)));
        let g = send_all(&mut s, ms(250));
        assert_eq!(g.len(), 1);
        assert_eq!((g[0].seq, g[0].retransmit), (1, true));
        // A full RTO from the retransmission, 250 + 200 ms, not the 150 ms left of the old.
        assert_eq!(g[0].rto_armed, Some(ms(450)));
        assert_eq!(s.rto_deadline(), Some(ms(450)));
    }

    #[test]
    fn retransmitting_a_later_packet_leaves_the_timer() {
        let mut s = sender();
        s.write(20);
        assert_eq!(sent(&mut s, ms(0)).len(), 10);
        // 0 acknowledged at 100 ms (timer for 400 ms, as above); 1 and 3 missing, the other
        // seven selectively acknowledged (RTO down to the 200-ms floor, as above). 1 is lost
        // at the SACK of 4, with 10 - 1 - 2 = 7 packets in flight: window 3.5 packets; 3 a
        // packet later (the same congestion event). Nothing is left in flight, so at 150 ms
        // both retransmissions and one new packet go out.
        ack(&mut s, ms(100), 1, 0);
        for q in [2, 4, 5, 6, 7, 8, 9] {
            ack(&mut s, ms(100), 1, q);
        }
        let g = send_all(&mut s, ms(150));
        let seqs: Vec<(u64, bool)> = g.iter().map(|x| (x.seq, x.retransmit)).collect();
        assert_eq!(seqs, [(1, true), (3, true), (10, false)]);
        // 1 is the oldest: the timer restarts, 200 ms from 150 ms; 3 and 10 leave it.
        assert_eq!(g[0].rto_armed, Some(ms(350)));
        assert_eq!(g[1].rto_armed, None);
        assert_eq!(g[2].rto_armed, None);
        assert_eq!(s.rto_deadline(), Some(ms(350)));
    }

    #[test]
    fn retransmitted_packet_gives_no_rtt_sample_karn() {
        let mut s = sender();
        s.write(1);
        send_all(&mut s, ms(0));
        assert_eq!(
            s.on_rto(ms(1000)),
            Some(ms(3000)),
            "1 s doubled once, from 1 s"
        );
        assert_eq!(s.backoff(), 1);
        let segs = send_all(&mut s, ms(1000));
        assert_eq!(segs.len(), 1);
        assert!(segs[0].retransmit);
        let out = ack(&mut s, ms(1100), 1, 0);
        assert_eq!(out.rtt, None);
        assert_eq!(s.rtt().srtt(), None);
        assert_eq!(s.backoff(), 0, "new data acknowledged: back-off cleared");
    }

    #[test]
    fn rto_doubles_per_backoff_up_to_max_rto() {
        let mut s = sender();
        s.write(3);
        send_all(&mut s, ms(0));
        // RTO 1 s before any sample, doubled per back-off: 2, 4, 8, 16, 32 s, then the
        // 60 s cap. Each deadline counts from the expiry.
        let mut now = ms(1000);
        for (k, expect) in [3u64, 7, 15, 31, 63, 123].into_iter().enumerate() {
            let d = s.on_rto(now).expect("data outstanding");
            assert_eq!(d, Instant::from_secs(expect), "expiry {}", k + 1);
            assert_eq!(s.rto_deadline(), Some(d));
            now = d;
        }
        assert_eq!(s.backoff(), 6);
        // Every unacknowledged packet was queued for retransmission, in order, once; after
        // a timeout NewReno's window is one packet, so one goes now and two after its ACK.
        let segs = send_all(&mut s, now);
        assert_eq!(
            segs.iter()
                .map(|g| (g.seq, g.retransmit))
                .collect::<Vec<_>>(),
            [(0, true)]
        );
        ack(&mut s, now + Duration::from_millis(100), 1, 0);
        let segs = send_all(&mut s, now + Duration::from_millis(100));
        assert_eq!(
            segs.iter()
                .map(|g| (g.seq, g.retransmit))
                .collect::<Vec<_>>(),
            [(1, true), (2, true)]
        );
    }

    #[test]
    fn rto_with_nothing_outstanding_stops_the_timer() {
        let mut s = sender();
        s.write(1);
        send_all(&mut s, ms(0));
        ack(&mut s, ms(10), 1, 0);
        assert_eq!(s.on_rto(ms(1000)), None);
        assert_eq!((s.rto_deadline(), s.backoff()), (None, 0));
    }

    #[test]
    fn sacked_packets_are_not_retransmitted_after_a_timeout() {
        let mut s = sender();
        s.write(3);
        send_all(&mut s, ms(0));
        ack(&mut s, ms(10), 0, 1);
        s.on_rto(ms(1000));
        let seqs: Vec<u64> = send_all(&mut s, ms(1000)).iter().map(|g| g.seq).collect();
        assert_eq!(seqs, [0], "one-packet window after the timeout");
        ack(&mut s, ms(1100), 1, 0);
        let seqs: Vec<u64> = send_all(&mut s, ms(1100)).iter().map(|g| g.seq).collect();
        assert_eq!(seqs, [2], "1 was SACKed before the timeout");
    }

    proptest! {
        /// Whatever ACKs arrive (cumulative never beyond what was delivered, SACKs
        /// anywhere), the flight size is the packets sent, not acknowledged and not lost,
        /// and a timeout empties it.
        #[test]
        fn flight_size_matches_the_scoreboard(
            acks in prop::collection::vec((0u64..12, 0u64..14), 1..30),
        ) {
            let mut s = sender();
            s.write(12);
            send_all(&mut s, ms(0));
            let mut cum = 0;
            for (i, (c, sack)) in acks.into_iter().enumerate() {
                cum = cum.max(c);
                ack(&mut s, ms(1 + i as u64), cum, sack);
                let mut counted = 0;
                for seq in s.snd_una..s.snd_nxt {
                    if s.board.get(seq).in_flight() {
                        counted += 1;
                    }
                }
                prop_assert_eq!(s.in_flight(), counted * MSS);
                prop_assert!(s.snd_una() <= s.snd_nxt());
            }
            if s.on_rto(ms(5000)).is_some() {
                prop_assert_eq!(s.in_flight(), 0);
            }
        }
    }
}
