//! One torrent as one peer sees it, as a sans-IO state machine in the shape of
//! `ledbat-utp`'s `Connection` and quinn-proto: inputs are `handle_*` calls, each with the
//! current time, outputs are `poll_*` calls; no socket, no clock, no disk. It composes the
//! [`Picker`] (what to ask whom for), the [`Choker`] (whom to serve), the disposition's
//! duplicate rule ([`crate::disposition::keep_existing`]) and the state of each connection
//! (BEP 3: choking and interest both ways, the peer's bitfield, requests both ways).
//!
//! **In**: [`Peer::handle_connected`] (a transport connection is up),
//! [`Peer::handle_handshake`], [`Peer::handle_message`], [`Peer::handle_piece_verified`] /
//! [`Peer::handle_piece_failed`] (with [`Verification::External`]),
//! [`Peer::handle_closed`], [`Peer::handle_timeout`] (due at [`Peer::poll_timeout`]: choke
//! rounds, the rate estimate, the protocol timers), [`Peer::close`] (we leave).
//!
//! **Out**: per connection, [`Peer::poll_transmit`] gives the frames to send, in order
//! (handshake, then messages; never a PIECE); [`Peer::poll_dirty`] names the connections
//! that got frames, in the order they first did since last asked (a driver that writes every
//! connection's frames in one pass uses it to keep the order deterministic). Data is pulled:
//! requests we accepted to serve wait in a per-connection queue, and whenever the
//! connection's transport has room the driver asks [`Peer::poll_upload`] for the next block
//! and sends it as a PIECE with the bytes (or, in a simulator, the length). Events
//! ([`Peer::poll_event`]): [`Event::DataReady`] (an upload queue became non-empty), block
//! arrivals with their request-to-block latency, piece and download completion, a peer's
//! listening port, and closes ([`Event::Close`]: the driver closes the transport, then
//! calls [`Peer::handle_closed`]).
//!
//! Randomness (random first piece, rarest-first ties, the choker's draws) comes from one
//! ChaCha8 generator the driver seeds; connections are kept sorted by id (`conn::ConnMap`),
//! so every iteration that reaches the wire or the generator is in id order.
//!
//! Policies not fixed by BEP 3, as implemented: an INTERESTED from a choked peer is
//! unchoked at once when fewer than `regular + optimistic` connections are unchoked (as
//! libtorrent does; otherwise a newcomer would wait up to a full round); a NOT INTERESTED
//! peer is choked at once, freeing its slot (as the ns-2 module of seed 003 chapter 5
//! does); a HAVE goes to every connection when a piece is ours. Tit-for-tat counts the bytes
//! of blocks received from each connection during the last round, duplicates included
//! (they were uploaded to us all the same). Whenever requests are released (a CHOKE, a
//! REJECT, a timeout, a closed connection, a failed piece) every connection is topped up
//! again, in id order.
//!
//! Untrusted input: a protocol violation (a bad bitfield, a bitfield after the first
//! message, a HAVE out of range, BEP 6 messages without the extension, a request longer
//! than `max_request`) closes the connection with the reason; a block that is not one of
//! ours, a request we cannot serve, or anything for an unknown connection is dropped and
//! counted ([`PeerStats`]). Nothing panics.

mod conn;
mod events;
#[cfg(test)]
mod tests;
mod timers;

pub use events::{
    Bytes, CloseReason, ConnInfo, ConnStats, ConnView, Event, PeerStats, Received, Violation,
};

use crate::bitfield::Bitfield;
use crate::choker::Choker;
use crate::config::{Opening, PeerConfig, Pipeline, SnubClock, Verification};
use crate::deque::pop_front;
use crate::disposition::{self, ConnKind, Transport};
use crate::layout::{Block, Layout};
use crate::picker::{Arrival, Picker};
use crate::wire::{
    ext_handshake, parse_ext_handshake, BlockData, BlockRequest, Frame, Handshake, Message,
};
use crate::ConnId;
use conn::{Conn, ConnMap, Phase};
use ledbat_core::{Duration, Instant};
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use std::collections::{BTreeMap, VecDeque};

/// Period of the request-rate estimate behind [`Pipeline::Rate`].
pub(super) const RATE_TICK: Duration = Duration::from_secs(1);

/// Contributions to a piece still to be checked ([`Verification::External`]).
#[derive(Clone, Debug, Default)]
struct Pending {
    contributors: Vec<ConnId>,
    bytes: [u64; 2],
}

/// One peer of one torrent. `D` is what a PIECE message carries: the bytes (`Vec<u8>`) in
/// a client, the length ([`crate::wire::Len`]) in a simulator.
#[derive(Clone, Debug)]
pub struct Peer<D> {
    cfg: PeerConfig,
    layout: Layout,
    picker: Picker,
    choker: Choker,
    rng: ChaCha8Rng,
    conns: ConnMap<D>,
    dirty: VecDeque<ConnId>,
    events: VecDeque<Event>,
    next_round: Instant,
    next_rate_tick: Instant,
    completed_at: Option<Instant>,
    pending: BTreeMap<u32, Pending>,
    stats: PeerStats,
    scratch: Vec<Block>,
    /// Connections we unchoke (kept up to date: every INTERESTED asks for it).
    unchoked: usize,
}

impl<D: BlockData> Peer<D> {
    /// A peer joining at `now` with the pieces in `have` (verified), whose generator is
    /// seeded with `rng_seed`. `cfg` must be valid ([`PeerConfig::validate`]).
    pub fn new(
        cfg: PeerConfig,
        layout: Layout,
        have: Bitfield,
        now: Instant,
        rng_seed: u64,
    ) -> Self {
        debug_assert_eq!(have.len(), layout.pieces());
        let complete = have.is_full();
        Peer {
            picker: Picker::new(layout, cfg.picker, have),
            choker: Choker::new(cfg.choker),
            next_round: now + cfg.choker.round,
            next_rate_tick: now + RATE_TICK,
            cfg,
            layout,
            rng: ChaCha8Rng::seed_from_u64(rng_seed),
            conns: ConnMap::default(),
            dirty: VecDeque::new(),
            events: VecDeque::new(),
            completed_at: complete.then_some(now),
            pending: BTreeMap::new(),
            stats: PeerStats::default(),
            scratch: Vec::new(),
            unchoked: 0,
        }
    }

    /// Sets the listening port told in extended handshakes from now on (the driver may
    /// learn it only once its socket is bound).
    pub fn set_listen_port(&mut self, port: Option<u16>) {
        self.cfg.listen_port = port;
    }

    // ----- reading -----

    /// The settings.
    pub fn config(&self) -> &PeerConfig {
        &self.cfg
    }
    /// The torrent's layout.
    pub fn layout(&self) -> &Layout {
        &self.layout
    }
    /// The pieces that are ours.
    pub fn have(&self) -> &Bitfield {
        self.picker.have()
    }
    /// Whether every piece is ours.
    pub fn is_complete(&self) -> bool {
        self.picker.is_complete()
    }
    /// Bytes still missing.
    pub fn left(&self) -> u64 {
        self.have()
            .iter()
            .fold(self.layout.total_length(), |left, p| {
                left - self.layout.piece_len(p) as u64
            })
    }
    /// When the download completed (the start, for a peer that began complete).
    pub fn completed_at(&self) -> Option<Instant> {
        self.completed_at
    }
    /// Counters.
    pub fn stats(&self) -> PeerStats {
        self.stats
    }
    /// The picker (read only).
    pub fn picker(&self) -> &Picker {
        &self.picker
    }
    /// The choker (read only).
    pub fn choker(&self) -> &Choker {
        &self.choker
    }
    /// Connections, closing ones included, in id order.
    pub fn conn_ids(&self) -> impl Iterator<Item = ConnId> + '_ {
        self.conns.keys().copied()
    }
    /// Connections that are open (not closing), for display.
    pub fn conns(&self) -> impl Iterator<Item = ConnView> + '_ {
        self.conns
            .iter()
            .filter(|(_, c)| c.closing.is_none())
            .map(|(&id, c)| ConnView {
                conn: id,
                transport: c.info.transport,
                unchoked: !c.am_choking,
                interested: c.peer_interested,
                pieces: c.bitfield.count(),
                fast: c.fast,
            })
    }
    /// Why `conn` is closing, if it is.
    pub fn closing(&self, conn: ConnId) -> Option<&CloseReason> {
        self.conns.get(&conn).and_then(|c| c.closing.as_ref())
    }
    /// Counters of `conn`.
    pub fn conn_stats(&self, conn: ConnId) -> Option<ConnStats> {
        self.conns.get(&conn).map(|c| c.stats)
    }
    /// The peer id `conn`'s handshake gave.
    pub fn remote_id(&self, conn: ConnId) -> Option<[u8; 20]> {
        self.conns.get(&conn).and_then(|c| c.peer_id)
    }
    /// Whether both sides of `conn` negotiated the Fast Extension.
    pub fn is_fast(&self, conn: ConnId) -> bool {
        self.conns.get(&conn).is_some_and(|c| c.fast)
    }
    /// Whether we are choking `conn` (true for unknown connections).
    pub fn is_choking(&self, conn: ConnId) -> bool {
        self.conns.get(&conn).is_none_or(|c| c.am_choking)
    }
    /// Whether we are interested in `conn`'s peer.
    pub fn is_interested_in(&self, conn: ConnId) -> bool {
        self.conns.get(&conn).is_some_and(|c| c.am_interested)
    }
    /// The pieces `conn`'s peer has.
    pub fn remote_have(&self, conn: ConnId) -> Option<&Bitfield> {
        self.conns.get(&conn).map(|c| &c.bitfield)
    }
    /// Requests of `conn`'s peer queued for upload.
    pub fn queued_uploads(&self, conn: ConnId) -> usize {
        self.conns.get(&conn).map_or(0, |c| c.uploads.len())
    }
    /// Open connections by transport (None: transport unknown).
    pub fn transports(&self) -> BTreeMap<Option<Transport>, usize> {
        let mut m = BTreeMap::new();
        for c in self.conns.values().filter(|c| c.closing.is_none()) {
            *m.entry(c.info.transport).or_default() += 1;
        }
        m
    }

    // ----- output -----

    /// The next frame to send on `conn`, if any; `now` is when it leaves (the keep-alive
    /// timer counts from there).
    pub fn poll_transmit(&mut self, now: Instant, conn: ConnId) -> Option<Frame<D>> {
        let c = self.conns.get_mut(&conn)?;
        let f = pop_front(&mut c.out)?;
        c.last_sent = now;
        Some(f)
    }

    /// A connection that got frames to send since it was last named here, in the order
    /// they first did.
    pub fn poll_dirty(&mut self) -> Option<ConnId> {
        while let Some(id) = pop_front(&mut self.dirty) {
            if let Some(c) = self.conns.get_mut(&id) {
                c.dirty = false;
                return Some(id);
            }
        }
        None
    }

    /// The next block to upload on `conn`, when its transport can take more: the driver
    /// sends it as a PIECE (the block's bytes read from storage, or its length).
    pub fn poll_upload(&mut self, now: Instant, conn: ConnId) -> Option<BlockRequest> {
        let c = self.conns.get_mut(&conn)?;
        let r = pop_front(&mut c.uploads)?;
        let n = r.length as u64;
        c.up_round += n;
        c.stats.uploaded += n;
        c.last_sent = now;
        self.stats.uploaded += n;
        if let Some(t) = c.info.transport {
            self.stats.by_transport(t).uploaded += n;
        }
        Some(r)
    }

    /// The next event, in order.
    pub fn poll_event(&mut self) -> Option<Event> {
        pop_front(&mut self.events)
    }

    /// When [`Peer::handle_timeout`] next has work.
    pub fn poll_timeout(&self) -> Instant {
        let mut t = self.next_round;
        if matches!(self.cfg.pipeline, Pipeline::Rate { .. }) {
            t = t.min(self.next_rate_tick);
        }
        let timers = self.cfg.timers;
        if timers == crate::config::Timers::OFF {
            return t;
        }
        for c in self.conns.values().filter(|c| c.closing.is_none()) {
            if let Phase::Handshaking { deadline: Some(d) } = c.phase {
                t = t.min(d);
            }
            if let Some(k) = timers.keepalive {
                t = t.min(c.last_sent + k);
            }
            if let Some(i) = timers.idle {
                t = t.min(c.last_recv + i);
            }
            if let (Some(r), true) = (timers.request, c.phase == Phase::Open) {
                if self.picker.outstanding_len(c.id) > 0 {
                    t = t.min(c.request_clock + r);
                }
            }
        }
        t
    }

    fn send(&mut self, conn: ConnId, m: Message<D>) {
        self.push_frame(conn, Frame::Message(m));
    }

    fn push_frame(&mut self, conn: ConnId, f: Frame<D>) {
        let Some(c) = self.conns.get_mut(&conn) else {
            return;
        };
        c.out.push_back(f);
        if !c.dirty {
            c.dirty = true;
            self.dirty.push_back(conn);
        }
    }

    // ----- connections -----

    /// A transport connection `conn` is up at `now`: our handshake is queued (and, with
    /// [`Opening::AtOnce`], the opening messages behind it).
    pub fn handle_connected(&mut self, now: Instant, conn: ConnId, info: ConnInfo) {
        if self.conns.contains_key(&conn) {
            self.stats.ignored += 1;
            return;
        }
        let deadline = self.cfg.timers.handshake.map(|d| now + d);
        let pieces = self.layout.pieces();
        self.conns
            .insert(conn, Conn::new(conn, info, pieces, now, deadline));
        let hs = Handshake::new(
            self.cfg.info_hash,
            self.cfg.peer_id,
            self.cfg.fast_extension,
            self.cfg.extension_protocol,
        );
        self.push_frame(conn, Frame::Handshake(Box::new(hs)));
        if self.cfg.opening == Opening::AtOnce {
            self.open(now, conn);
        }
    }

    /// Starts `conn`'s message exchange: our pieces, our extended handshake.
    fn open(&mut self, now: Instant, conn: ConnId) {
        let (fast, extended) = {
            let c = self.conns.get_mut(&conn).expect("caller checked");
            c.phase = Phase::Open;
            c.connected_at = now;
            c.snub_since = now;
            c.request_clock = now;
            (c.fast, c.extended)
        };
        let have = self.picker.have();
        if fast && have.is_full() {
            self.send(conn, Message::HaveAll);
        } else if fast && have.count() == 0 {
            self.send(conn, Message::HaveNone);
        } else if have.count() > 0 {
            let b = have.to_wire();
            self.send(conn, Message::Bitfield(b));
        }
        if extended {
            let payload = ext_handshake(self.cfg.listen_port);
            self.send(conn, Message::Extended { id: 0, payload });
        }
    }

    /// The peer's handshake on `conn` arrived: checked against the torrent, ourselves, the
    /// connection limit and the other connections to the same peer (the disposition's
    /// duplicate rule). A refusal closes `conn` ([`Peer::closing`] says why; no event, since
    /// the caller is handling it), a connection it replaces gets [`Event::Close`].
    pub fn handle_handshake(&mut self, now: Instant, conn: ConnId, hs: &Handshake) {
        let Some(c) = self.conns.get_mut(&conn) else {
            self.stats.ignored += 1;
            return;
        };
        if c.closing.is_some() || c.peer_id.is_some() {
            return;
        }
        c.last_recv = now;
        let refusal = if hs.info_hash != self.cfg.info_hash {
            Some(CloseReason::WrongInfoHash)
        } else if hs.peer_id == self.cfg.peer_id {
            Some(CloseReason::SelfConnection)
        } else {
            None
        };
        if let Some(r) = refusal {
            self.detach(now, conn, r, false);
            return;
        }
        let kind = |info: &ConnInfo| ConnKind {
            transport: info.transport.unwrap_or(Transport::Tcp),
            outgoing: info.outgoing,
        };
        let new_kind = kind(&c.info);
        let same = self
            .conns
            .iter()
            .find(|(&id, o)| id != conn && o.closing.is_none() && o.peer_id == Some(hs.peer_id))
            .map(|(&id, o)| (id, kind(&o.info)));
        if let Some((old, old_kind)) = same {
            if disposition::keep_existing(old_kind, new_kind, &self.cfg.peer_id, &hs.peer_id) {
                self.detach(now, conn, CloseReason::Duplicate, false);
                return;
            }
            self.detach(now, old, CloseReason::Replaced, true);
        } else if let Some(max) = self.cfg.max_connections {
            let open = self
                .conns
                .values()
                .filter(|o| o.closing.is_none() && o.peer_id.is_some())
                .count();
            if open >= max {
                self.detach(now, conn, CloseReason::Full(max), false);
                return;
            }
        }
        let c = self.conns.get_mut(&conn).expect("present");
        c.peer_id = Some(hs.peer_id);
        c.fast = self.cfg.fast_extension && hs.fast();
        c.extended = self.cfg.extension_protocol && hs.extended();
        if c.phase != Phase::Open {
            self.open(now, conn);
        }
    }

    /// `conn` is gone (the peer closed it, the driver did, or after [`Event::Close`]).
    pub fn handle_closed(&mut self, now: Instant, conn: ConnId) {
        let Some(c) = self.conns.get(&conn) else {
            return;
        };
        if c.closing.is_none() {
            self.detach(now, conn, CloseReason::Stopped, false);
        }
        self.conns.remove(&conn);
    }

    /// We close `conn` (we leave the swarm): a NOT INTERESTED is queued if we were
    /// interested, then the driver flushes and closes, and reports
    /// [`Peer::handle_closed`].
    pub fn close(&mut self, now: Instant, conn: ConnId) {
        let Some(c) = self.conns.get(&conn) else {
            return;
        };
        if c.closing.is_some() {
            return;
        }
        if c.am_interested && c.phase == Phase::Open {
            self.send(conn, Message::NotInterested);
        }
        self.detach(now, conn, CloseReason::Stopped, false);
    }

    /// Marks `conn` closing and takes it out of the swarm: its pieces leave the counts, its
    /// requests are released (and the others topped up), it is choked for good. `event`:
    /// tell the driver with [`Event::Close`].
    fn detach(&mut self, now: Instant, conn: ConnId, reason: CloseReason, event: bool) {
        let Some(c) = self.conns.get_mut(&conn) else {
            return;
        };
        if c.closing.is_some() {
            return;
        }
        if matches!(reason, CloseReason::Protocol(_)) {
            self.stats.violations += 1;
        }
        c.closing = Some(reason.clone());
        if !std::mem::replace(&mut c.am_choking, true) {
            self.unchoked -= 1;
        }
        c.uploads.clear();
        let bitfield = std::mem::replace(&mut c.bitfield, Bitfield::new(0));
        self.picker.remove_bitfield(&bitfield);
        if event {
            self.events.push_back(Event::Close { conn, reason });
        }
        if self.picker.release(conn) > 0 {
            self.request_all(now);
        }
    }

    /// Closes `conn` for `reason`, telling the driver.
    fn fail(&mut self, now: Instant, conn: ConnId, reason: CloseReason) {
        self.detach(now, conn, reason, true);
    }

    // ----- messages -----

    /// A message from `conn`'s peer arrived. A new block's data comes back to be kept.
    pub fn handle_message(&mut self, now: Instant, conn: ConnId, msg: Message<D>) -> Received<D> {
        let Some(c) = self.conns.get_mut(&conn) else {
            self.stats.ignored += 1;
            return Received::Nothing;
        };
        if c.closing.is_some() {
            return Received::Nothing;
        }
        if c.phase != Phase::Open {
            // Before the peer's handshake was accepted nothing else can come.
            self.stats.ignored += 1;
            return Received::Nothing;
        }
        c.last_recv = now;
        let first = std::mem::replace(&mut c.first_message, false);
        let fast = c.fast;
        let n = self.layout.pieces();
        match msg {
            Message::KeepAlive => self.conn_mut(conn).first_message = first,
            Message::Bitfield(bytes) => {
                if !first {
                    return self.violate(now, conn, Violation::LateBitfield("bitfield"));
                }
                match Bitfield::from_wire(&bytes, n) {
                    Ok(b) => self.on_bitfield(now, conn, b),
                    Err(e) => return self.violate(now, conn, e.into()),
                }
            }
            Message::HaveAll | Message::HaveNone => {
                let all = matches!(msg, Message::HaveAll);
                let name = if all { "have all" } else { "have none" };
                if !fast {
                    return self.violate(now, conn, Violation::NotFast(name));
                }
                if !first {
                    return self.violate(now, conn, Violation::LateBitfield(name));
                }
                let b = if all {
                    Bitfield::full(n)
                } else {
                    Bitfield::new(n)
                };
                self.on_bitfield(now, conn, b);
            }
            Message::Have(p) => {
                if p >= n {
                    return self.violate(
                        now,
                        conn,
                        Violation::HaveOutOfRange {
                            index: p,
                            pieces: n,
                        },
                    );
                }
                if self.conn_mut(conn).bitfield.set(p) {
                    self.picker.add_have(p);
                }
                self.update_interest(now, conn);
                self.check_seed_pair(now, conn);
                self.request(now, conn);
            }
            Message::Interested => self.on_interested(conn),
            Message::NotInterested => {
                let c = self.conn_mut(conn);
                c.peer_interested = false;
                if !c.am_choking {
                    self.choke(conn);
                }
            }
            Message::Choke => {
                self.conn_mut(conn).peer_choking = true;
                if self.picker.release(conn) > 0 {
                    self.request_all(now);
                }
            }
            Message::Unchoke => {
                self.conn_mut(conn).peer_choking = false;
                self.request(now, conn);
            }
            Message::Request(r) => self.on_request(now, conn, r),
            Message::Piece { index, begin, data } => {
                return self.on_piece(now, conn, index, begin, data);
            }
            Message::Cancel(r) => {
                let c = self.conn_mut(conn);
                let before = c.uploads.len();
                c.uploads.retain(|&q| q != r);
                if fast && c.uploads.len() < before {
                    self.send(conn, Message::RejectRequest(r));
                }
            }
            Message::RejectRequest(r) => {
                if !fast {
                    return self.violate(now, conn, Violation::NotFast("reject request"));
                }
                let released = self
                    .layout
                    .block_at(r.index, r.begin, r.length)
                    .is_some_and(|b| self.picker.release_one(conn, b));
                if released {
                    self.request_all(now);
                }
            }
            Message::Extended { id: 0, payload } => {
                // libtorrent sends its extended handshake before its bitfield or have
                // none (BEP 10 puts it right after the BEP 3 handshake): it does not count
                // as the first message. Only the port matters; a handshake we cannot read
                // is ignored (BEP 10 makes every key optional).
                self.conn_mut(conn).first_message = first;
                if let Ok(Some(port)) = parse_ext_handshake(&payload).map(|h| h.port) {
                    self.events.push_back(Event::ListenPort { conn, port });
                }
            }
            Message::Extended { .. }
            | Message::Port(_)
            | Message::SuggestPiece(_)
            | Message::AllowedFast(_)
            | Message::Unknown { .. } => {}
        }
        Received::Nothing
    }

    fn conn_mut(&mut self, conn: ConnId) -> &mut Conn<D> {
        self.conns
            .get_mut(&conn)
            .expect("caller checked membership")
    }

    fn violate(&mut self, now: Instant, conn: ConnId, v: Violation) -> Received<D> {
        self.fail(now, conn, CloseReason::Protocol(v));
        Received::Nothing
    }

    fn on_bitfield(&mut self, now: Instant, conn: ConnId, b: Bitfield) {
        let old = std::mem::replace(&mut self.conn_mut(conn).bitfield, b);
        self.picker.remove_bitfield(&old);
        let c = &self.conns[&conn];
        self.picker.add_bitfield(&c.bitfield);
        self.update_interest(now, conn);
        self.check_seed_pair(now, conn);
        self.request(now, conn);
    }

    fn on_interested(&mut self, conn: ConnId) {
        let c = self.conn_mut(conn);
        c.peer_interested = true;
        if !c.am_choking {
            return;
        }
        if self.choker.admit(self.unchoked) {
            self.unchoke(conn);
        }
    }

    fn on_request(&mut self, now: Instant, conn: ConnId, r: BlockRequest) {
        if r.length > self.cfg.max_request {
            let max = self.cfg.max_request;
            self.violate(
                now,
                conn,
                Violation::RequestTooLong {
                    length: r.length,
                    max,
                },
            );
            return;
        }
        let valid = self.layout.request_in_range(r, self.cfg.max_request)
            && self.picker.have().get(r.index);
        let max_queued = self.cfg.max_queued_requests;
        let stats = &mut self.stats;
        let c = self
            .conns
            .get_mut(&conn)
            .expect("caller checked membership");
        c.stats.requests_received += 1;
        let refused = if !valid {
            stats.ignored += 1;
            true
        } else if c.am_choking {
            stats.late_requests += 1;
            true
        } else if c.uploads.contains(&r) {
            // Our CHOKE and UNCHOKE crossed its request and its re-request: serve once.
            stats.duplicate_requests += 1;
            return;
        } else if c.uploads.len() >= max_queued {
            stats.refused_requests += 1;
            true
        } else {
            false
        };
        if refused {
            c.stats.requests_refused += 1;
            if c.fast {
                self.send(conn, Message::RejectRequest(r));
            }
            return;
        }
        c.uploads.push_back(r);
        if c.uploads.len() == 1 {
            self.events.push_back(Event::DataReady { conn });
        }
    }

    fn on_piece(
        &mut self,
        now: Instant,
        conn: ConnId,
        index: u32,
        begin: u32,
        data: D,
    ) -> Received<D> {
        let len = data.data_len();
        let Some(block) = self.layout.block_at(index, begin, len) else {
            self.stats.invalid_blocks += 1;
            return Received::Nothing;
        };
        let c = self.conn_mut(conn);
        c.down_round += len as u64;
        c.snub_since = now;
        c.request_clock = now;
        let transport = c.info.transport;
        let was_endgame = self.picker.in_endgame();
        let arrival = self.picker.on_block(conn, block);
        let (duplicate, latency) = match &arrival {
            Arrival::New { requested_at, .. } => (false, requested_at.map(|t| now - t)),
            Arrival::Duplicate { .. } => (true, None),
        };
        self.events.push_back(Event::Block {
            conn,
            block,
            bytes: len,
            duplicate,
            latency,
        });
        let mut received = Received::Nothing;
        match arrival {
            Arrival::Duplicate { endgame } => {
                self.stats.duplicate_blocks += 1;
                self.stats.duplicate += len as u64;
                if endgame {
                    self.stats.endgame_duplicate += len as u64;
                }
            }
            Arrival::New {
                piece_done, cancel, ..
            } => {
                let n = len as u64;
                self.stats.downloaded += n;
                self.conn_mut(conn).stats.downloaded += n;
                if let Some(t) = transport {
                    self.stats.by_transport(t).downloaded += n;
                }
                let r = self.layout.request(block);
                for &other in &cancel {
                    self.send(other, Message::Cancel(r));
                }
                match self.cfg.verification {
                    Verification::Trusted => {
                        if piece_done {
                            self.piece_ours(now, block.piece);
                        }
                    }
                    Verification::External => {
                        let p = self.pending.entry(block.piece).or_default();
                        if !p.contributors.contains(&conn) {
                            p.contributors.push(conn);
                        }
                        if let Some(t) = transport {
                            p.bytes[t as usize] += n;
                        }
                        received = Received::Block {
                            block,
                            data,
                            piece_done,
                        };
                    }
                }
                for other in cancel {
                    self.request(now, other);
                }
            }
        }
        self.request(now, conn);
        if !was_endgame && self.picker.in_endgame() {
            self.request_all(now);
        }
        received
    }

    /// Piece `piece` (all its blocks received) matched its hash: it is ours; a HAVE goes to
    /// every connection.
    /// Anything else (a piece still missing blocks, or already ours) is ignored.
    pub fn handle_piece_verified(&mut self, now: Instant, piece: u32) {
        if !self.picker.is_awaiting_check(piece) {
            self.stats.ignored += 1;
            return;
        }
        self.pending.remove(&piece);
        self.piece_ours(now, piece);
    }

    /// Piece `piece` (all its blocks received) failed its hash: its blocks are missing
    /// again, its bytes no longer count as downloaded, and every connection that sent a
    /// block of it is closed ([`CloseReason::HashFailed`]). Returns those connections,
    /// the ones already gone included (the driver tells a lone sender from a shared
    /// piece). Anything else (a piece still missing blocks, or already ours) is ignored.
    pub fn handle_piece_failed(&mut self, now: Instant, piece: u32) -> Vec<ConnId> {
        if !self.picker.is_awaiting_check(piece) {
            self.stats.ignored += 1;
            return Vec::new();
        }
        let p = self.pending.remove(&piece).unwrap_or_default();
        self.stats.hash_failures += 1;
        self.picker.piece_failed(piece);
        let len = self.layout.piece_len(piece) as u64;
        self.stats.downloaded = self.stats.downloaded.saturating_sub(len);
        for t in Transport::ALL {
            let b = self.stats.by_transport(t);
            b.downloaded = b.downloaded.saturating_sub(p.bytes[t as usize]);
        }
        for &c in &p.contributors {
            self.fail(now, c, CloseReason::HashFailed(piece));
        }
        self.request_all(now);
        p.contributors
    }

    fn piece_ours(&mut self, now: Instant, piece: u32) {
        self.picker.piece_verified(piece);
        self.stats.pieces_verified += 1;
        self.events.push_back(Event::PieceCompleted { piece });
        let ids: Vec<ConnId> = self.live().map(|(&id, _)| id).collect();
        for &id in &ids {
            self.send(id, Message::Have(piece));
            self.update_interest(now, id);
        }
        if self.picker.is_complete() && self.completed_at.is_none() {
            self.completed_at = Some(now);
            self.events.push_back(Event::Completed);
            for id in ids {
                self.check_seed_pair(now, id);
            }
        }
    }

    /// With `close_seed_pairs`, closes `conn` when both sides have every piece.
    fn check_seed_pair(&mut self, now: Instant, conn: ConnId) {
        if !self.cfg.close_seed_pairs || !self.picker.is_complete() {
            return;
        }
        if self
            .conns
            .get(&conn)
            .is_some_and(|c| c.bitfield.is_full() && c.closing.is_none())
        {
            self.fail(now, conn, CloseReason::BothSeeds);
        }
    }

    /// Open connections in id order.
    fn live(&self) -> impl Iterator<Item = (&ConnId, &Conn<D>)> {
        self.conns
            .iter()
            .filter(|(_, c)| c.closing.is_none() && c.phase == Phase::Open)
    }

    fn update_interest(&mut self, now: Instant, conn: ConnId) {
        let want = self.picker.wants_from(&self.conns[&conn].bitfield);
        let since_interest = self.cfg.snub_clock == SnubClock::SinceBlockOrInterest;
        let c = self.conn_mut(conn);
        if want != c.am_interested {
            c.am_interested = want;
            if want && since_interest {
                c.snub_since = c.snub_since.max(now);
            }
            self.send(
                conn,
                if want {
                    Message::Interested
                } else {
                    Message::NotInterested
                },
            );
        }
    }

    /// Requests outstanding wanted on `conn`.
    fn pipeline_target(&self, c: &Conn<D>) -> usize {
        match self.cfg.pipeline {
            Pipeline::Fixed(n) => n as usize,
            Pipeline::Rate {
                queue_time,
                min,
                max,
            } => {
                let want = (c.rate * queue_time.as_secs_f64() / self.layout.block_length() as f64)
                    .ceil() as usize;
                want.clamp(min.min(max) as usize, max as usize)
            }
        }
    }

    /// Tops up the requests on `conn` if its peer unchokes us and has something we want.
    fn request(&mut self, now: Instant, conn: ConnId) {
        let Some(c) = self.conns.get(&conn) else {
            return;
        };
        if c.peer_choking || !c.am_interested || c.closing.is_some() || self.picker.is_complete() {
            return;
        }
        let target = self.pipeline_target(c);
        if self.picker.outstanding_len(conn) >= target {
            return;
        }
        if self.picker.outstanding_len(conn) == 0 {
            self.conn_mut(conn).request_clock = now;
        }
        let mut blocks = std::mem::take(&mut self.scratch);
        let c = &self.conns[&conn];
        self.picker
            .pick(conn, &c.bitfield, target, now, &mut self.rng, &mut blocks);
        for b in blocks.drain(..) {
            let r = self.layout.request(b);
            self.send(conn, Message::Request(r));
        }
        self.scratch = blocks;
    }

    fn request_all(&mut self, now: Instant) {
        let ids: Vec<ConnId> = self.live().map(|(&id, _)| id).collect();
        for id in ids {
            self.request(now, id);
        }
    }

    fn choke(&mut self, conn: ConnId) {
        let c = self
            .conns
            .get_mut(&conn)
            .expect("caller checked membership");
        if !std::mem::replace(&mut c.am_choking, true) {
            self.unchoked -= 1;
        }
        let dropped = std::mem::take(&mut c.uploads);
        let fast = c.fast;
        self.send(conn, Message::Choke);
        if fast {
            for r in dropped {
                self.send(conn, Message::RejectRequest(r));
            }
        }
    }

    fn unchoke(&mut self, conn: ConnId) {
        let c = self
            .conns
            .get_mut(&conn)
            .expect("caller checked membership");
        if std::mem::replace(&mut c.am_choking, false) {
            self.unchoked += 1;
            c.stats.unchokes += 1;
        }
        self.send(conn, Message::Unchoke);
    }

    /// Checks the bookkeeping against a recount (for tests): the picker's, and the count of
    /// unchoked connections.
    pub fn check_invariants(&self) -> Result<(), String> {
        self.picker.check_invariants()?;
        let unchoked = self.live().filter(|(_, c)| !c.am_choking).count();
        if unchoked != self.unchoked {
            return Err(format!(
                "{unchoked} connections unchoked, counted {}",
                self.unchoked
            ));
        }
        if self
            .conns
            .values()
            .any(|c| c.phase != Phase::Open && !c.am_choking)
        {
            return Err("a connection unchoked before its handshake".into());
        }
        Ok(())
    }
}
