//! The BitTorrent swarm of a `[swarm]` scenario on the simulated network: the sans-IO
//! peers of [`crate::swarm`] carried over star hosts and transport connections, following
//! the contract in that module's documentation.
//!
//! - **Hosts.** A peer arriving gets a star host of its own: an uplink (its class's rate,
//!   a DropTail buffer of `buffer` packets or `buffer_bytes` bytes, the plan's one-way delay plus the core's) and a
//!   downlink (rate `down`, buffer `down_buffer`, the same delay); the core is infinite
//!   (seed 003 section 5.1, Fig. 5.1). Links stay after a departure so that packets in
//!   flight drain.
//! - **Connections.** On arrival the peer asks the tracker for neighbours
//!   ([`crate::swarm::population::Population::tracker_reply`]) and dials them while it has
//!   fewer than `max_initiate` connections; a neighbour with `max_connections` refuses.
//!   A peer below `min_peers` connections asks again every `reannounce`. The two
//!   classes' dispositions give the transports ([`ledbat_bt_proto::disposition::resolve`],
//!   both peers dialling). Each direction of a connection is one flow of the transport
//!   model (sender at one end, receiver at the other): under `per-uploader` (chapter 5)
//!   control messages travel on a TCP flow each way and each direction's data on a
//!   separate flow of the uploader's transport, opened when it first has a block to send;
//!   under `utorrent` one flow each way carries both. The scenario's `[transport]` is the
//!   TCP stack's: uTP flows acknowledge every packet and never undo a timeout, whatever
//!   its `delayed_ack` and `spurious_rto` say (libutp does neither). The handshake's round trip is not
//!   modelled: both peers learn of the connection at once and their BEP 3 handshakes and
//!   bitfields then travel as frames. A peer's connection ids are its neighbours' peer ids.
//! - **Messages.** Every frame, control or data, is written as its BEP 3 size into its
//!   flow's byte stream ([`super::stream::Stream`]): small messages written in the same
//!   instant share a segment, a PIECE of a 16 KiB block fills 12 segments, every segment
//!   carries [`SEGMENT_HEADER`] bytes of headers. A message reaches its peer when its last
//!   byte is delivered in order, so requests wait behind the same uplink queue as data:
//!   the delay seed 003 section 5.2.1 holds responsible for its results.
//! - **Data.** A data flow takes the next queued block ([`ledbat_bt_proto::Peer::poll_upload`])
//!   whenever less than one block waits unsent in it, as the ns-2 module of seed 003
//!   chapter 5 hands TCP one block at a time; so a CHOKE or CANCEL still catches blocks not
//!   yet handed over.
//! - **Departures.** A leaving peer's flows close in both directions: whatever was in
//!   flight on them is lost (block bytes counted in `lost_bytes`), its neighbours see
//!   [`ledbat_bt_proto::Peer::handle_closed`], and the population plan may bring a
//!   replacement at the same instant.
//! - **Stop.** The run ends at the `discard + measure`-th leecher completion, or at the
//!   scenario's `duration`, whichever comes first.
//!
//! Memory: a closed flow drops its sender and stream; scratch buffers are reused, so the
//! steady state allocates per connection and per message with a bitfield, not per packet.

mod measure;

pub(super) use measure::SwarmMeasure;

use super::flow::{Flow, FlowMeta, Payload, Timers};
use super::metrics::FlowStats;
use super::net::Link;
use super::stream::Stream;
use super::World;
use crate::engine::Ev;
use crate::scenario::swarm::SwarmConfig;
use crate::scenario::{ClockConfig, DropTail, QueueConfig, SpuriousRto, Topology};
use crate::swarm::population::{PeerPlan, Population};
use crate::swarm::PeerId;
use crate::transport::{Receiver, Sender, SenderConfig};
use ledbat_bt_proto::disposition::{resolve, Dials, DispositionModel, Transport};
use ledbat_bt_proto::{
    Bitfield, ConnId, ConnInfo, Event, Frame, Layout, Len, Message, Peer, PeerConfig,
};
use ledbat_core::{Duration, Instant};

/// Header bytes of every segment of a swarm connection: IP and TCP, 20 + 20. The thesis's
/// LEDBAT used the same TCP framing (seed 003 section 5.3).
pub(super) const SEGMENT_HEADER: u32 = 40;

/// What a directed connection carries.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Carries {
    /// Control messages only.
    Control,
    /// Blocks only.
    Data,
    /// Both (`utorrent` disposition model).
    Both,
}

/// The swarm side of a flow: one direction of a peer connection.
#[derive(Debug)]
pub(super) struct SwarmConn {
    /// Frames written and the segments they fill.
    pub stream: Stream<Frame<Len>>,
    /// The sending peer.
    pub from: PeerId,
    /// The receiving peer.
    pub to: PeerId,
    /// Its transport.
    pub transport: Transport,
    /// What it carries.
    pub carries: Carries,
}

/// The flows by which a peer sends to one neighbour.
#[derive(Clone, Copy, Debug)]
struct Out {
    control: u32,
    data: Option<u32>,
    data_transport: Transport,
}

/// A peer's [`Out`]s by neighbour, iterated in increasing id (the order a `BTreeMap`
/// gave, which the run's event order depends on).
type OutMap = ledbat_bt_proto::sorted_map::SortedMap<PeerId, Out>;

/// A peer present in the swarm.
#[derive(Debug)]
struct Member {
    peer: Peer<Len>,
    class: usize,
    host: u32,
    out: OutMap,
    next_announce: Instant,
    /// When its pending `PeerTick` fires (an earlier deadline of its protocol timers
    /// schedules another and makes that one stale).
    next_tick: Instant,
}

impl Member {
    /// Its outgoing flows, each once (control and data may be one flow).
    fn out_flows(&self) -> impl Iterator<Item = u32> + '_ {
        self.out
            .values()
            .flat_map(|o| [Some(o.control), o.data.filter(|&d| d != o.control)])
            .flatten()
    }
}

/// The swarm's state inside a [`World`].
#[derive(Debug)]
pub(super) struct SwarmState {
    torrent: Layout,
    peer_cfg: PeerConfig,
    pop: Population,
    /// Every peer's plan, by id.
    plans: Vec<PeerPlan>,
    /// Peers present, by id.
    members: Vec<Option<Box<Member>>>,
    /// Ids present, increasing.
    present: Vec<PeerId>,
    /// Measurement.
    pub measure: SwarmMeasure,
    /// Connections a peer has frames for, in order (reused).
    dirty_buf: Vec<ConnId>,
    /// A peer's events (reused).
    ev_buf: Vec<Event>,
    /// Frames delivered (reused).
    msg_buf: Vec<Frame<Len>>,
}

/// The peer id a simulated peer announces in its handshake: its number, big-endian, after
/// an Azureus-style prefix (unique in the run, never ours: a peer never meets itself).
fn sim_peer_id(id: PeerId) -> [u8; 20] {
    let mut p = [0u8; 20];
    p[..8].copy_from_slice(b"-SIM000-");
    p[16..].copy_from_slice(&id.to_be_bytes());
    p
}

/// The connection id of neighbour `n` at a peer.
fn conn_of(n: PeerId) -> ConnId {
    n as ConnId
}

/// The neighbour on connection `c`.
fn neighbour_of(c: ConnId) -> PeerId {
    c as PeerId
}

fn droptail(packets: u32) -> QueueConfig {
    QueueConfig::DropTail(DropTail {
        packets: Some(packets),
        bytes: None,
    })
}

impl<'a> World<'a> {
    fn swarm_cfg(&self) -> &'a SwarmConfig {
        let sc: &'a crate::scenario::Scenario = self.sc;
        sc.swarm.as_ref().expect("a swarm world")
    }

    fn sw(&mut self) -> &mut SwarmState {
        self.swarm.as_mut().expect("a swarm world")
    }

    fn member(&mut self, id: PeerId) -> Option<&mut Member> {
        self.sw().members.get_mut(id as usize)?.as_deref_mut()
    }

    /// Sets up a swarm run: the population plan and its arrivals. The scenario has been
    /// validated, so the torrent and the controllers build.
    pub(super) fn build_swarm(&mut self, seed: u64) {
        let cfg = self.swarm_cfg();
        let torrent = cfg.torrent().expect("validated");
        let mut pop = Population::new(cfg, seed);
        let plans = pop.initial(cfg);
        for p in &plans {
            self.at(p.arrival, Ev::PeerArrive(p.id));
        }
        let n = plans.len();
        self.swarm = Some(Box::new(SwarmState {
            torrent,
            peer_cfg: cfg.peer_config(),
            pop,
            members: (0..n).map(|_| None).collect(),
            measure: SwarmMeasure::new(cfg, &plans),
            plans,
            present: Vec::new(),
            dirty_buf: Vec::new(),
            ev_buf: Vec::new(),
            msg_buf: Vec::new(),
        }));
        // Metrics count from the end of the transient (the `discard`-th completion).
        if cfg.discard > 0 {
            self.warmup = Instant::from_nanos(u64::MAX);
        }
    }

    /// Peer `id` of the plan joins.
    pub(super) fn on_peer_arrive(&mut self, id: PeerId) {
        let now = self.now;
        let mss = self.mss;
        let cfg = self.swarm_cfg();
        let plan = self.sw().plans[id as usize].clone();
        let class = &cfg.classes[plan.class];
        let core = match &self.sc.topology {
            Topology::Star(s) => s.core_delay,
            Topology::Dumbbell(_) => Duration::ZERO,
        };
        let up = Link::new(
            format!("up{id}"),
            class.up,
            plan.delay + core,
            &match class.buffer_bytes {
                Some(b) => QueueConfig::DropTail(DropTail {
                    packets: None,
                    bytes: Some(b),
                }),
                None => droptail(class.buffer),
            },
            0.0,
            true,
            mss,
        )
        .swarm_uplink();
        let down = Link::new(
            format!("down{id}"),
            class.down,
            plan.delay,
            &droptail(class.down_buffer.unwrap_or(class.buffer)),
            0.0,
            false,
            mss,
        );
        for l in [up, down] {
            self.links.push(l);
            self.ev.add_pipe();
        }
        let (ul, dl) = ((self.links.len() - 2) as u32, (self.links.len() - 1) as u32);
        self.star.push((ul, dl, ClockConfig::default()));
        let host = (self.star.len() - 1) as u32;
        let sw = self.sw();
        let pieces = sw.torrent.pieces();
        let have = if plan.seed {
            Bitfield::full(pieces)
        } else {
            Bitfield::new(pieces)
        };
        let peer_cfg = PeerConfig {
            peer_id: sim_peer_id(id),
            ..sw.peer_cfg.clone()
        };
        let peer = Peer::new(peer_cfg, sw.torrent, have, now, plan.rng_seed);
        let tick = peer.poll_timeout();
        sw.members[id as usize] = Some(Box::new(Member {
            peer,
            class: plan.class,
            host,
            out: OutMap::default(),
            next_announce: now + cfg.reannounce,
            next_tick: tick,
        }));
        sw.present.push(id);
        sw.measure.on_join(id, now, ul);
        self.at(tick, Ev::PeerTick(id));
        self.announce(id);
    }

    /// Asks the tracker for neighbours and dials them while below `max_initiate`.
    fn announce(&mut self, id: PeerId) {
        let cfg = self.swarm_cfg();
        let sw = self.sw();
        let present = std::mem::take(&mut sw.present);
        let reply = sw.pop.tracker_reply(id, &present);
        sw.present = present;
        let mut dialled = Vec::new();
        for n in reply {
            let sw = self.sw();
            let (mine, theirs, known) = match (&sw.members[id as usize], &sw.members[n as usize]) {
                (Some(a), Some(b)) => (a.out.len(), b.out.len(), a.out.contains_key(&n)),
                _ => continue,
            };
            if mine >= cfg.max_initiate as usize {
                break;
            }
            if known || theirs >= cfg.max_connections as usize {
                continue;
            }
            if self.connect(id, n) {
                dialled.push(n);
            }
        }
        self.drive(id);
        for n in dialled {
            self.drive(n);
        }
    }

    /// Opens the connection between `a` (dialling) and `b`; false when their
    /// dispositions share no transport.
    fn connect(&mut self, a: PeerId, b: PeerId) -> bool {
        let now = self.now;
        let cfg = self.swarm_cfg();
        let (ca, cb) = match (
            self.member(a).map(|m| m.class),
            self.member(b).map(|m| m.class),
        ) {
            (Some(x), Some(y)) => (x, y),
            _ => return false,
        };
        let Some(link) = resolve(
            cfg.disposition_model,
            cfg.classes[ca].disposition,
            cfg.classes[cb].disposition,
            Dials::Both,
        ) else {
            return false;
        };
        let (out_a, out_b) = match cfg.disposition_model {
            DispositionModel::PerUploader => {
                let ab = self.open_flow(a, b, Transport::Tcp, Carries::Control);
                let ba = self.open_flow(b, a, Transport::Tcp, Carries::Control);
                (
                    Out {
                        control: ab,
                        data: None,
                        data_transport: link.a_to_b,
                    },
                    Out {
                        control: ba,
                        data: None,
                        data_transport: link.b_to_a,
                    },
                )
            }
            DispositionModel::Utorrent => {
                let t = link.control;
                let ab = self.open_flow(a, b, t, Carries::Both);
                let ba = self.open_flow(b, a, t, Carries::Both);
                let out = |fi| Out {
                    control: fi,
                    data: Some(fi),
                    data_transport: t,
                };
                (out(ab), out(ba))
            }
        };
        for (me, other, out) in [(a, b, out_a), (b, a, out_b)] {
            let m = self.member(me).expect("checked present");
            m.out.insert(other, out);
            let info = ConnInfo {
                transport: None,
                outgoing: me == a,
            };
            m.peer.handle_connected(now, conn_of(other), info);
            let conns = m.out.len() as u32;
            self.sw().measure.on_connections(me, conns);
        }
        true
    }

    /// A new flow from `from` to `to` over `transport`, driven by the sender's class
    /// controller for that transport.
    fn open_flow(
        &mut self,
        from: PeerId,
        to: PeerId,
        transport: Transport,
        carries: Carries,
    ) -> u32 {
        let now = self.now;
        let mss = self.mss;
        let cfg = self.swarm_cfg();
        let (fc, fh) = {
            let m = self.member(from).expect("present");
            (m.class, m.host)
        };
        let th = self.member(to).expect("present").host;
        let class = &cfg.classes[fc];
        let cc_cfg = match transport {
            Transport::Utp => &class.utp_cc,
            Transport::Tcp => &class.tcp_cc,
        };
        // Validated with the scenario (`SwarmConfig::validate` checks both controllers).
        let cc = cc_cfg.build(mss).expect("validated controller");
        let tp = &self.sc.transport;
        let mut scfg = SenderConfig::from_transport(mss, tp);
        if transport == Transport::Utp {
            // `transport.spurious_rto` and `delayed_ack` are the TCP stack's: libutp,
            // BEP 29's reference implementation and µTorrent's uTP, falls back to a
            // one-packet window on every timeout without spurious-timeout detection, and
            // acknowledges every packet.
            scfg.spurious_rto = SpuriousRto::None;
        }
        let delayed_ack = tp.delayed_ack && transport == Transport::Tcp;
        let mut sender = Sender::new(scfg, cc);
        sender.touch(now);
        let (data_route, ack_route) = self.star_routes(fh, th);
        let fi = self.flows.len() as u32;
        self.flows.push(Flow {
            meta: Box::new(FlowMeta {
                name: String::new(),
                ctrl: String::new(),
                cc_cfg: None,
                start: now,
                stop: Instant::from_nanos(u64::MAX),
                interrupts: None,
                finished_at: None,
            }),
            data_route: self.routes[data_route as usize],
            ack_route: self.routes[ack_route as usize],
            from: fh,
            to: th,
            snd_clock: ClockConfig::default(),
            rcv_clock: ClockConfig::default(),
            send_jitter: Duration::ZERO,
            active: true,
            interrupted_until: Instant::ZERO,
            jitter_last: Instant::ZERO,
            timers: Timers::default(),
            sender: Some(Box::new(sender)),
            receiver: Receiver::new(delayed_ack, tp.delack_timeout),
            stats: FlowStats::new(0, 0),
            payload: Payload::Swarm(Box::new(SwarmConn {
                stream: Stream::new(mss - SEGMENT_HEADER),
                from,
                to,
                transport,
                carries,
            })),
        });
        self.refresh_brief(fi as usize);
        fi
    }

    /// Writes `frame` into flow `fi`'s stream (sent by the next [`World::try_send`], which
    /// both callers make before the event ends, and which refreshes the flow's brief).
    fn conn_write(&mut self, fi: usize, frame: Frame<Len>) {
        let f = &mut self.flows[fi];
        let (Some(c), Some(s)) = (f.payload.conn_mut(), f.sender.as_mut()) else {
            return;
        };
        let n = c
            .stream
            .write(frame.encoded_len() as u32, frame, s.snd_nxt());
        s.write(n);
    }

    /// Bytes written to flow `fi` and not yet in a transmitted segment.
    fn unsent(&self, fi: usize) -> u64 {
        let f = &self.flows[fi];
        match (f.conn(), f.sender.as_ref()) {
            (Some(c), Some(s)) => c.stream.unsent(s.snd_nxt()),
            _ => 0,
        }
    }

    /// Hands `from`'s queued blocks for `to` to their data flow (opening it if needed)
    /// while less than one block waits unsent in it, and sends.
    fn pump_data(&mut self, from: PeerId, to: PeerId) {
        let Some(out) = self.member(from).and_then(|m| m.out.get(&to).copied()) else {
            return;
        };
        let fi = match out.data {
            Some(fi) => fi,
            None => {
                let fi = self.open_flow(from, to, out.data_transport, Carries::Data);
                if let Some(o) = self.member(from).and_then(|m| m.out.get_mut(&to)) {
                    o.data = Some(fi);
                }
                fi
            }
        } as usize;
        self.pump_flow(fi, from, to, out.data_transport);
    }

    /// [`World::pump_data`] on the data flow `fi` from `from` to `to`, over `transport`: the
    /// peer is asked for blocks only while less than one block waits unsent.
    fn pump_flow(&mut self, fi: usize, from: PeerId, to: PeerId, transport: Transport) {
        let now = self.now;
        let block = self.sw().torrent.block_length() as u64;
        loop {
            while self.unsent(fi) < block {
                let Some(r) = self
                    .member(from)
                    .and_then(|m| m.peer.poll_upload(now, conn_of(to)))
                else {
                    break;
                };
                self.sw().measure.on_upload(from, transport, r.length);
                let piece = Message::Piece {
                    index: r.index,
                    begin: r.begin,
                    data: Len(r.length),
                };
                self.conn_write(fi, Frame::Message(piece));
            }
            self.try_send(fi);
            if self.unsent(fi) > 0 {
                return;
            }
            let queued = self
                .member(from)
                .map_or(0, |m| m.peer.queued_uploads(conn_of(to)));
            if queued == 0 {
                return;
            }
        }
    }

    /// Sends `id`'s frames and handles its events until it has none: each connection that
    /// got frames, in the order it first did, has them written into its control flow, and
    /// those flows transmit in the same order.
    fn drive(&mut self, id: PeerId) {
        let now = self.now;
        let mut dirty = std::mem::take(&mut self.sw().dirty_buf);
        let mut evs = std::mem::take(&mut self.sw().ev_buf);
        let mut touched: Vec<u32> = Vec::new();
        while let Some(m) = self.member(id) {
            dirty.extend(std::iter::from_fn(|| m.peer.poll_dirty()));
            evs.extend(std::iter::from_fn(|| m.peer.poll_event()));
            if dirty.is_empty() && evs.is_empty() {
                break;
            }
            for conn in dirty.drain(..) {
                let Some(out) = self
                    .member(id)
                    .and_then(|m| m.out.get(&neighbour_of(conn)).copied())
                else {
                    continue;
                };
                while let Some(f) = self
                    .member(id)
                    .and_then(|m| m.peer.poll_transmit(now, conn))
                {
                    self.conn_write(out.control as usize, f);
                }
                if !touched.contains(&out.control) {
                    touched.push(out.control);
                }
            }
            for fi in touched.drain(..) {
                self.try_send(fi as usize);
            }
            for e in evs.drain(..) {
                self.on_peer_event(id, e);
            }
        }
        let sw = self.sw();
        sw.dirty_buf = dirty;
        sw.ev_buf = evs;
        // An input may have armed a protocol timer (a request or keep-alive deadline)
        // before the pending tick: the peer is woken then.
        if let Some(m) = self.member(id) {
            let due = m.peer.poll_timeout().max(now);
            if due < m.next_tick {
                m.next_tick = due;
                self.at(due, Ev::PeerTick(id));
            }
        }
    }

    fn on_peer_event(&mut self, id: PeerId, e: Event) {
        let now = self.now;
        match e {
            Event::DataReady { conn } => self.pump_data(id, neighbour_of(conn)),
            Event::Block { latency, .. } => {
                let measuring = self.measuring();
                let class = self.member(id).map(|m| m.class);
                if let (true, Some(c), Some(l)) = (measuring, class, latency) {
                    self.sw().measure.on_latency(id, c, l);
                }
            }
            Event::Completed => self.on_completed(id, now),
            Event::Close { conn, .. } => self.disconnect(id, neighbour_of(conn)),
            Event::PieceCompleted { .. } | Event::ListenPort { .. } => {}
        }
    }

    /// A leecher completed: rank it, open the window after the transient, schedule its
    /// departure, and stop after the last measured completion.
    fn on_completed(&mut self, id: PeerId, now: Instant) {
        let cfg = self.swarm_cfg();
        let sw = self.sw();
        let joined = sw.plans[id as usize].arrival;
        let class = sw.plans[id as usize].class;
        let rank = sw.measure.on_completed(id, class, joined, now);
        let leave = sw.pop.on_completed(id, joined, now);
        if rank == cfg.discard {
            self.warmup = now;
            self.sw().measure.open_window(now);
        }
        if let Some(t) = leave {
            self.at(t, Ev::PeerLeave(id));
        }
        if rank >= cfg.discard + cfg.measure {
            self.end = now;
        }
    }

    /// Bytes written to flow `fi` are acknowledged: forget what both ends are done with
    /// and refill it with blocks.
    pub(super) fn conn_acked(&mut self, fi: usize) {
        let f = &mut self.flows[fi];
        let (Some(c), Some(s)) = (f.payload.conn_mut(), f.sender.as_ref()) else {
            return;
        };
        c.stream.trim(s.snd_una(), f.receiver.rcv_nxt());
        if c.carries != Carries::Control {
            let (from, to, transport) = (c.from, c.to, c.transport);
            self.pump_flow(fi, from, to, transport);
        }
    }

    /// Flow `fi`'s receiver has new in-order segments: hand the complete messages to the
    /// receiving peer.
    pub(super) fn conn_delivered(&mut self, fi: usize) {
        let now = self.now;
        let measuring = self.measuring();
        let mut msgs = std::mem::take(&mut self.sw().msg_buf);
        let f = &mut self.flows[fi];
        let rcv_nxt = f.receiver.rcv_nxt();
        let snd_una = f.sender.as_ref().map_or(rcv_nxt, |s| s.snd_una());
        let Some(c) = f.conn_mut() else { return };
        c.stream.deliver_into(rcv_nxt, &mut msgs);
        c.stream.trim(snd_una, rcv_nxt);
        let (from, to, transport) = (c.from, c.to, c.transport);
        let delivered = !msgs.is_empty();
        for frame in msgs.drain(..) {
            let Some(m) = self.member(to) else { continue };
            match frame {
                Frame::Handshake(h) => m.peer.handle_handshake(now, conn_of(from), &h),
                Frame::Message(msg) => {
                    let len = msg.data_len();
                    if len > 0 && measuring {
                        let class = m.class;
                        self.sw().measure.on_received(class, transport, len);
                    }
                    if let Some(m) = self.member(to) {
                        m.peer.handle_message(now, conn_of(from), msg);
                    }
                }
            }
        }
        self.sw().msg_buf = msgs;
        if delivered {
            self.drive(to);
        }
    }

    /// Peer `id`'s choke round (and re-announce) may be due.
    pub(super) fn on_peer_tick(&mut self, id: PeerId) {
        let now = self.now;
        let cfg = self.swarm_cfg();
        let Some(m) = self.member(id) else { return };
        if now != m.next_tick {
            return; // superseded by an earlier deadline
        }
        m.peer.handle_timeout(now);
        let next = m.peer.poll_timeout();
        m.next_tick = next;
        let reannounce = if now >= m.next_announce {
            m.next_announce = now + cfg.reannounce;
            m.out.len() < cfg.min_peers as usize
        } else {
            false
        };
        self.at(next, Ev::PeerTick(id));
        if reannounce {
            self.announce(id);
        } else {
            self.drive(id);
        }
    }

    /// Closes flow `fi`: no more sending or delivery; block bytes still in it are lost.
    fn close_flow(&mut self, fi: u32) {
        let f = &mut self.flows[fi as usize];
        f.active = false;
        f.sender = None;
        self.refresh_brief(fi as usize);
        let f = &mut self.flows[fi as usize];
        let mut lost = 0;
        if let Some(c) = f.conn_mut() {
            lost = c
                .stream
                .pending()
                .map(|f| match f {
                    Frame::Message(m) => m.data_len() as u64,
                    Frame::Handshake(_) => 0,
                })
                .sum();
            c.stream = Stream::new(1);
        }
        self.sw().measure.lost_bytes += lost;
    }

    /// Closes a peer's flows to one neighbour (control, and data when separate).
    fn close_out(&mut self, o: Out) {
        self.close_flow(o.control);
        if let Some(d) = o.data.filter(|&d| d != o.control) {
            self.close_flow(d);
        }
    }

    /// The peer state machine of `a` closed its connection to `b` (a protocol violation;
    /// none happens between the simulator's own peers): the flows both ways close and both
    /// peers are told.
    fn disconnect(&mut self, a: PeerId, b: PeerId) {
        let now = self.now;
        for (x, y) in [(a, b), (b, a)] {
            if let Some(o) = self.member(x).and_then(|m| m.out.remove(&y)) {
                self.close_out(o);
            }
            if let Some(m) = self.member(x) {
                m.peer.handle_closed(now, conn_of(y));
            }
        }
        self.drive(b);
    }

    /// Peer `id` leaves: its connections close, its neighbours are told, a replacement
    /// may join.
    pub(super) fn on_peer_leave(&mut self, id: PeerId) {
        let now = self.now;
        let Some(m) = self.sw().members[id as usize].take() else {
            return;
        };
        self.sw().present.retain(|&p| p != id);
        let stats = m.peer.stats();
        self.sw().measure.on_leave(id, now, stats);
        for (&n, &out) in m.out.iter() {
            self.close_out(out);
            if let Some(o) = self.member(n).and_then(|nm| nm.out.remove(&id)) {
                self.close_out(o);
            }
            if let Some(nm) = self.member(n) {
                nm.peer.handle_closed(now, conn_of(id));
            }
            self.drive(n);
        }
        let sw = self.sw();
        if let Some(plan) = sw.pop.on_departed(id, now) {
            let nid = plan.id;
            sw.measure.on_planned(&plan);
            sw.plans.push(plan);
            sw.members.push(None);
            self.at(now, Ev::PeerArrive(nid));
        }
    }

    /// Fraction of the run done: simulated time or completions, whichever is further.
    pub(super) fn swarm_progress(&self) -> Option<f64> {
        let sw = self.swarm.as_ref()?;
        let cfg = self.sc.swarm.as_ref()?;
        let target = (cfg.discard + cfg.measure).max(1) as f64;
        Some((sw.measure.completions() as f64 / target).min(1.0))
    }
}
