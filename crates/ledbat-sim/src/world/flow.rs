//! One flow: its configuration, its [`Sender`] and [`Receiver`], its application and its
//! statistics, and the glue that turns what the transport decides into packets and timer
//! events.

use super::metrics::FlowStats;
use super::net::{Kind, Packet, Route};
use super::sources::AppState;
use super::swarm::{SwarmConn, SEGMENT_HEADER};
use super::{wire_clock, World};
use crate::engine::Ev;
use crate::scenario::{ClockConfig, Interruptions};
use crate::transport::{AckFields, AckIn, Next, Receiver, Segment, Sender};
use ledbat_core::{Controller, ControllerConfig, DelaySample, Duration, Instant, Timestamp32};

/// Pending timer events of a flow, so that each deadline is scheduled once.
#[derive(Debug, Default)]
pub(super) struct Timers {
    pub rto: Option<Instant>,
    pub wake: Option<Instant>,
    pub tick: Option<Instant>,
}

/// A swarm flow's sender as the idle-uplink samples read it
/// ([`World::on_swarm_sample`]): a copy in a dense vector indexed by flow, refreshed
/// whenever the sender changes (written, sent, acknowledged, touched, closed), so that a
/// sample reads 16 bytes per flow instead of following every flow's boxed sender.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(super) struct Brief {
    /// The flow has a sender (open).
    pub live: bool,
    /// Bytes written and not yet in a transmitted segment (`written > snd_nxt`).
    pub unsent: bool,
    /// Sent packets not yet cumulatively acknowledged.
    pub outstanding: bool,
    /// The sending peer (swarm flows; kept after the flow closes).
    pub from: u32,
    /// The sender's last transmission or ACK.
    pub last_activity: Instant,
}

/// Per sending peer, how many of its open flows are [`Brief::outstanding`] and
/// [`Brief::unsent`]: kept up to date with the briefs, so that a sample of an idle uplink
/// whose flows have nothing outstanding visits none of them.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(super) struct PeerBrief {
    pub outstanding: u32,
    pub unsent: u32,
}

impl PeerBrief {
    /// Adds (`add`) or removes the counts of open flow brief `b`.
    #[inline]
    fn count(&mut self, b: &Brief, add: bool) {
        if !b.live {
            return;
        }
        let (o, u) = (b.outstanding as u32, b.unsent as u32);
        if add {
            self.outstanding += o;
            self.unsent += u;
        } else {
            self.outstanding -= o;
            self.unsent -= u;
        }
    }
}

/// What a flow's packets never touch: its name and controller for the report, its
/// schedule. Kept apart (boxed) so that the per-packet state of thousands of swarm flows
/// stays compact.
#[derive(Debug)]
pub(super) struct FlowMeta {
    pub name: String,
    /// Controller name ("udp" for CBR).
    pub ctrl: String,
    pub cc_cfg: Option<ControllerConfig>,
    pub start: Instant,
    /// `Instant::from_nanos(u64::MAX)` when the flow never stops.
    pub stop: Instant,
    pub interrupts: Option<Interruptions>,
    pub finished_at: Option<Instant>,
}

/// A flow's record. A swarm has thousands of flows taking turns, so each packet finds its
/// flow's lines cold: the fields a packet reads or writes come first, in declaration order
/// (`repr(C)`), and a record starts on a cache line (`align(64)`), so that they span the
/// first six lines (the counters at the start of [`FlowStats`] included) and the series,
/// the metadata and the send jitter's last departure come after them.
#[derive(Debug)]
#[repr(C, align(64))]
pub(super) struct Flow {
    /// None for CBR, which sends without a transport.
    pub sender: Option<Box<Sender>>,
    pub interrupted_until: Instant,
    pub snd_clock: ClockConfig,
    pub rcv_clock: ClockConfig,
    pub payload: Payload,
    pub timers: Timers,
    pub receiver: Receiver,
    /// Copies of the routes (`World::routes`) the flow's data and ACKs take, which each
    /// packet carries: read here, on the flow's lines that a packet reads anyway.
    pub data_route: Route,
    pub ack_route: Route,
    /// Read by every packet sent (zero almost always).
    pub send_jitter: Duration,
    pub from: u32,
    pub to: u32,
    pub active: bool,
    pub stats: FlowStats,
    pub jitter_last: Instant,
    pub meta: Box<FlowMeta>,
}

/// What a flow carries. The generic flow path below knows nothing else about it: its
/// hooks (`payload_delivered`, `payload_acked`, the segment size, whether a closed flow
/// still takes packets) are the one place that tells the two apart.
#[derive(Debug)]
pub(super) enum Payload {
    /// A scenario flow's traffic application (`sources`).
    App(Box<AppState>),
    /// One direction of a swarm connection: its byte stream and ends (`swarm`).
    Swarm(Box<SwarmConn>),
}

impl Payload {
    /// The traffic application of a scenario flow (only they run `sources`' events).
    pub fn app(&mut self) -> &mut AppState {
        match self {
            Payload::App(a) => a,
            Payload::Swarm(_) => unreachable!("a swarm connection has no traffic application"),
        }
    }

    /// The swarm connection, if it is one.
    pub fn conn_mut(&mut self) -> Option<&mut SwarmConn> {
        match self {
            Payload::Swarm(c) => Some(c),
            Payload::App(_) => None,
        }
    }
}

impl Flow {
    /// The traffic application of a scenario flow.
    pub fn app(&mut self) -> &mut AppState {
        self.payload.app()
    }

    /// The swarm connection this flow is one direction of, if it is.
    pub fn conn(&self) -> Option<&SwarmConn> {
        match &self.payload {
            Payload::Swarm(c) => Some(c),
            Payload::App(_) => None,
        }
    }

    /// [`Flow::conn`], mutable.
    pub fn conn_mut(&mut self) -> Option<&mut SwarmConn> {
        self.payload.conn_mut()
    }

    /// A closed swarm connection: packets still in flight on it are dropped (a scenario
    /// flow that stopped still receives what it sent before).
    fn closed_conn(&self) -> bool {
        !self.active && matches!(self.payload, Payload::Swarm(_))
    }

    /// Wire size of segment `seq`: the swarm stream's bytes plus headers, or a full packet.
    fn seg_size(&self, seq: u64, mss: u32) -> u32 {
        match &self.payload {
            Payload::Swarm(c) => c.stream.seg_bytes(seq) + SEGMENT_HEADER,
            Payload::App(_) => mss,
        }
    }
}

impl World<'_> {
    pub(super) fn count_delivered(&mut self, fi: usize, bytes: u64) {
        let measuring = self.measuring();
        let s = &mut self.flows[fi].stats;
        if measuring {
            s.delivered_win += bytes;
        }
        s.sec_bytes += bytes;
        s.sample_bytes += bytes;
    }

    // ----- payload hooks -----

    /// `segs` new in-order segments reached the receiver of flow `fi`.
    fn payload_delivered(&mut self, fi: usize, segs: u64) {
        match self.flows[fi].payload {
            Payload::App(_) => self.count_delivered(fi, segs * self.mss as u64),
            Payload::Swarm(_) => self.conn_delivered(fi),
        }
    }

    /// An ACK advanced flow `fi`'s sender.
    fn payload_acked(&mut self, fi: usize) {
        match self.flows[fi].payload {
            Payload::App(_) => self.check_unit_done(fi),
            Payload::Swarm(_) => self.conn_acked(fi),
        }
    }

    // ----- receiver -----

    pub(super) fn receive_data(&mut self, fi: usize, p: &Packet) {
        let now = self.now;
        let f = &mut self.flows[fi];
        if f.closed_conn() {
            return;
        }
        let delay = wire_clock(&f.rcv_clock, now).delay_since(Timestamp32(p.ts));
        let r = f.receiver.on_data(now, p.seq, delay, p.ts);
        if r.delivered > 0 {
            self.payload_delivered(fi, r.delivered);
        }
        if let Some(a) = r.ack {
            self.send_ack(fi, a);
        } else if let Some(t) = r.delack {
            self.at(t, Ev::DelAck(fi as u32));
        }
    }

    pub(super) fn on_delack(&mut self, fi: usize) {
        let now = self.now;
        if self.flows[fi].closed_conn() {
            return;
        }
        if let Some(a) = self.flows[fi].receiver.on_delack_timer(now) {
            self.send_ack(fi, a);
        }
    }

    fn send_ack(&mut self, fi: usize, a: AckFields) {
        let f = &self.flows[fi];
        let p = Packet {
            seq: a.sack,
            cum: a.cum,
            flow: fi as u32,
            size: self.ack_size,
            ts: wire_clock(&f.rcv_clock, self.now).0,
            echo: a.delay.0,
            tsecr: a.tsecr,
            route: f.ack_route,
            hop: 0,
            kind: Kind::Ack,
        };
        let id = self.pool.alloc(p);
        self.inject(id, fi);
    }

    // ----- sender -----

    fn schedule_rto(&mut self, fi: usize, d: Instant) {
        let f = &mut self.flows[fi];
        if f.timers.rto.is_none_or(|e| e > d) {
            f.timers.rto = Some(d);
            self.at(d, Ev::Rto(fi as u32));
        }
    }

    pub(super) fn schedule_wake(&mut self, fi: usize, t: Instant) {
        let now = self.now;
        let f = &mut self.flows[fi];
        if f.timers.wake.is_none_or(|w| w > t || w < now) {
            f.timers.wake = Some(t);
            self.at(t, Ev::Wake(fi as u32));
        }
    }

    pub(super) fn schedule_tick(&mut self, fi: usize) {
        let now = self.now;
        let f = &mut self.flows[fi];
        let Some(t) = f.sender.as_ref().and_then(|s| s.cc().next_tick()) else {
            return;
        };
        let t = t.max(now);
        if f.timers.tick.is_none_or(|x| x > t || x < now) {
            f.timers.tick = Some(t);
            self.at(t, Ev::Tick(fi as u32));
        }
    }

    pub(super) fn on_wake(&mut self, fi: usize) {
        let f = &mut self.flows[fi];
        if f.timers.wake.is_some_and(|w| w <= self.now) {
            f.timers.wake = None;
        }
        self.try_send(fi);
    }

    pub(super) fn on_tick(&mut self, fi: usize) {
        let now = self.now;
        let f = &mut self.flows[fi];
        if f.timers.tick.is_some_and(|t| t <= now) {
            f.timers.tick = None;
        }
        if let Some(s) = f.sender.as_mut() {
            s.on_tick(now);
        }
        self.try_send(fi);
        self.schedule_tick(fi);
    }

    /// Copies flow `fi`'s sender into its [`Brief`] (swarm runs only).
    #[inline]
    pub(super) fn refresh_brief(&mut self, fi: usize) {
        if self.swarm.is_none() {
            return;
        }
        if fi >= self.brief.len() {
            self.brief.resize(fi + 1, Brief::default());
        }
        let old = self.brief[fi];
        let f = &self.flows[fi];
        // The sending peer is read from the connection once, when the flow opens.
        let from = if old.live {
            old.from
        } else {
            f.conn().map_or(old.from, |c| c.from)
        };
        let new = match f.sender.as_ref() {
            Some(s) => Brief {
                live: true,
                unsent: s.written() > s.snd_nxt(),
                outstanding: s.outstanding() > 0,
                from,
                last_activity: s.last_activity(),
            },
            None => Brief {
                from,
                ..Brief::default()
            },
        };
        if old == new {
            return;
        }
        self.brief[fi] = new;
        if (old.live, old.outstanding, old.unsent) != (new.live, new.outstanding, new.unsent) {
            if from as usize >= self.peer_brief.len() {
                self.peer_brief
                    .resize(from as usize + 1, PeerBrief::default());
            }
            let c = &mut self.peer_brief[from as usize];
            c.count(&old, false);
            c.count(&new, true);
        }
    }

    /// Sends while the sender has something it may send now.
    pub(super) fn try_send(&mut self, fi: usize) {
        self.try_send_loop(fi);
        self.refresh_brief(fi);
    }

    fn try_send_loop(&mut self, fi: usize) {
        let now = self.now;
        loop {
            let f = &mut self.flows[fi];
            if !f.active {
                return;
            }
            let Some(s) = f.sender.as_mut() else { return };
            match s.next(now, f.interrupted_until) {
                Next::Send(seg) => self.transmit(fi, seg),
                Next::Wait(t) => return self.schedule_wake(fi, t),
                Next::Blocked => return,
            }
        }
    }

    fn transmit(&mut self, fi: usize, seg: Segment) {
        let measuring = self.measuring() as u64;
        let f = &mut self.flows[fi];
        if seg.retransmit {
            f.stats.retx_pkts += measuring;
        }
        f.stats.sent_pkts += measuring;
        let p = Packet {
            seq: seg.seq,
            cum: 0,
            flow: fi as u32,
            size: f.seg_size(seg.seq, self.mss),
            ts: wire_clock(&f.snd_clock, self.now).0,
            echo: 0,
            tsecr: 0,
            route: f.data_route,
            hop: 0,
            kind: Kind::Data,
        };
        if let Some(d) = seg.rto_armed {
            self.schedule_rto(fi, d);
        }
        let id = self.pool.alloc(p);
        self.inject(id, fi);
    }

    pub(super) fn receive_ack(&mut self, fi: usize, p: &Packet) {
        let now = self.now;
        let measuring = self.measuring();
        let f = &mut self.flows[fi];
        let Some(s) = f.sender.as_mut() else { return };
        let wire_now = wire_clock(&f.snd_clock, now);
        let echo_age = wire_now.delay_since(Timestamp32(p.tsecr)).0;
        let ack = AckIn {
            fields: AckFields {
                cum: p.cum,
                sack: p.seq,
                delay: DelaySample(p.echo),
                tsecr: p.tsecr,
            },
            reverse_delay: wire_now.delay_since(Timestamp32(p.ts)),
            echo_sent: now - Duration::from_micros(echo_age as u64),
        };
        let out = s.on_ack(now, &ack);
        if measuring {
            if let Some(r) = out.rtt {
                f.stats.rtt_sum_ms += r.as_millis_f64();
                f.stats.rtt_n += 1;
            }
            f.stats.losses += out.losses;
            f.stats.loss_acks += (out.losses > 0) as u64;
            f.stats.rto_undone += out.undone.is_some() as u64;
        }
        if out.advanced && self.flows[fi].stats.idle_pending > 0 {
            self.settle_idle(fi, false);
        }
        if let Some(d) = out.rto_armed {
            self.schedule_rto(fi, d);
        }
        self.payload_acked(fi);
        self.try_send(fi);
        self.schedule_tick(fi);
    }

    pub(super) fn on_rto(&mut self, fi: usize) {
        let now = self.now;
        let measuring = self.measuring();
        let f = &mut self.flows[fi];
        if f.timers.rto == Some(now) {
            f.timers.rto = None;
        }
        let Some(s) = f.sender.as_mut() else { return };
        let Some(d) = s.rto_deadline() else { return };
        if d > now {
            return self.schedule_rto(fi, d);
        }
        if !f.active {
            s.cancel_rto();
            return;
        }
        let head_delivered = s.backoff() == 0 && f.receiver.rcv_nxt() > s.snd_una();
        let Some(d) = s.on_rto(now) else { return };
        f.stats.timeouts += measuring as u64;
        f.stats.rto_head_delivered += (measuring && head_delivered) as u64;
        if f.stats.idle_pending > 0 {
            self.settle_idle(fi, true);
        }
        self.schedule_rto(fi, d);
        self.try_send(fi);
        self.schedule_tick(fi);
    }
}
