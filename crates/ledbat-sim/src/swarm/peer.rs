//! One BitTorrent peer as a sans-IO state machine: it composes the [`Picker`] (what to ask
//! whom for) and the [`Choker`] (whom to serve), keeps per-neighbour protocol state (BEP 3:
//! choking and interest both ways, the neighbour's bitfield) and turns inputs into
//! messages.
//!
//! Inputs, each with the current time: [`Peer::on_connected`], [`Peer::on_message`],
//! [`Peer::on_closed`] and [`Peer::on_tick`] (choke rounds, due at [`Peer::next_tick`]).
//!
//! Outputs, kept apart because seed 003 chapter 5 carries them on different connections:
//! - **control** messages (everything but PIECE), taken with [`Peer::take_control`], in
//!   the order they were produced;
//! - **data**: requests the peer has accepted to serve wait in a per-neighbour upload
//!   queue; the network model pulls the next block with [`Peer::next_data`] when the
//!   uploader's data connection can take more (as the ns-2 module of seed 003 chapter 5
//!   hands one block at a time to TCP). [`Event::DataReady`] says a queue became non-empty.
//!   A CANCEL removes a block still queued; a CHOKE empties the queue (BEP 3).
//!
//! Events ([`Peer::take_events`]): block arrivals (with the request-to-block latency,
//! the signalling delay the thesis blames), piece completions, download completion.
//!
//! Policies not fixed by BEP 3, as implemented: an INTERESTED from a choked neighbour is
//! unchoked at once when fewer than `regular + optimistic` neighbours are unchoked (as
//! libtorrent does; otherwise a newcomer would wait up to a full 10 s round); a NOT
//! INTERESTED neighbour is choked at once, freeing its slot (as the ns-2 module does); a
//! HAVE goes to every neighbour when a piece completes. Tit-for-tat uses the bytes of
//! blocks received from each neighbour during the last round (duplicates included: they
//! were uploaded to us all the same).
//!
//! Malformed or out-of-place input (wrong bitfield length, index out of range, a request
//! for a piece we lack, a block of the wrong length, a message from an unknown neighbour)
//! is dropped and counted in [`PeerStats::ignored`]; nothing panics. Requests that crossed
//! our CHOKE are refused as BEP 3 says and counted apart ([`PeerStats::late_requests`]).

use super::bitfield::Bitfield;
use super::choker::{Candidate, Choker, ChokerConfig};
use super::picker::{BlockOutcome, Picker, PickerConfig};
use super::torrent::{BlockRef, Torrent};
use super::wire::Message;
use super::PeerId;
use ledbat_core::{Duration, Instant};
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use std::collections::{BTreeMap, VecDeque};

/// Peer settings.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PeerConfig {
    /// Piece picker.
    pub picker: PickerConfig,
    /// Choker.
    pub choker: ChokerConfig,
    /// Choke round period (10 s: seed 003 section 1.2's tit-for-tat, mainline, the ns-2
    /// module of its chapter 5).
    pub round: Duration,
}

impl Default for PeerConfig {
    fn default() -> Self {
        PeerConfig {
            picker: PickerConfig::default(),
            choker: ChokerConfig::default(),
            round: Duration::from_secs(10),
        }
    }
}

/// A control message for a neighbour.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Outgoing {
    /// The neighbour.
    pub to: PeerId,
    /// The message (never a PIECE).
    pub msg: Message,
}

/// Something that happened inside the peer.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Event {
    /// The upload queue towards `to` became non-empty: pull it with [`Peer::next_data`].
    DataReady {
        /// The neighbour.
        to: PeerId,
    },
    /// A block arrived.
    Block {
        /// The uploader.
        from: PeerId,
        /// The block.
        block: BlockRef,
        /// Payload bytes.
        bytes: u32,
        /// We already had it.
        duplicate: bool,
        /// Time since we queued the request for it at `from`, if we had.
        latency: Option<Duration>,
    },
    /// A piece is complete.
    PieceCompleted {
        /// Its index.
        piece: u32,
    },
    /// The whole file is here: the peer is a seed from now on.
    Completed,
}

/// Byte and message counters of one peer.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct PeerStats {
    /// File bytes received for the first time.
    pub downloaded: u64,
    /// Bytes of blocks received again (endgame copies, and copies in flight when a CHOKE
    /// released their request).
    pub duplicate: u64,
    /// The part of `duplicate` requested in endgame mode.
    pub endgame_duplicate: u64,
    /// Bytes of blocks handed to the network by [`Peer::next_data`].
    pub uploaded: u64,
    /// Requests refused because we were choking the requester (they crossed our CHOKE:
    /// normal, not an error).
    pub late_requests: u64,
    /// Requests for a block already queued for the requester (a request re-sent after our
    /// CHOKE released it, overtaking our UNCHOKE: normal, not an error).
    pub duplicate_requests: u64,
    /// Input dropped as malformed or out of place.
    pub ignored: u64,
}

#[derive(Clone, Debug)]
struct Remote {
    bitfield: Bitfield,
    am_choking: bool,
    am_interested: bool,
    peer_choking: bool,
    peer_interested: bool,
    connected_at: Instant,
    down_round: u64,
    up_round: u64,
    last_block_at: Option<Instant>,
    uploads: VecDeque<BlockRef>,
    requested_at: Vec<(BlockRef, Instant)>,
}

/// One peer.
#[derive(Clone, Debug)]
pub struct Peer {
    id: PeerId,
    torrent: Torrent,
    cfg: PeerConfig,
    picker: Picker,
    choker: Choker,
    rng: ChaCha8Rng,
    remotes: BTreeMap<PeerId, Remote>,
    control: Vec<Outgoing>,
    events: Vec<Event>,
    next_round: Instant,
    completed_at: Option<Instant>,
    stats: PeerStats,
}

impl Peer {
    /// A peer joining at `now`, holding the whole file if `seed`; `rng_seed` seeds its own
    /// generator (piece and optimistic draws), so that a run is reproducible.
    pub fn new(
        id: PeerId,
        torrent: Torrent,
        cfg: PeerConfig,
        seed: bool,
        now: Instant,
        rng_seed: u64,
    ) -> Self {
        let have = if seed {
            Bitfield::full(torrent.pieces())
        } else {
            Bitfield::new(torrent.pieces())
        };
        Peer {
            id,
            torrent,
            picker: Picker::new(torrent, cfg.picker, have),
            choker: Choker::new(cfg.choker),
            cfg,
            rng: ChaCha8Rng::seed_from_u64(rng_seed),
            remotes: BTreeMap::new(),
            control: Vec::new(),
            events: Vec::new(),
            next_round: now + cfg.round,
            completed_at: if seed { Some(now) } else { None },
            stats: PeerStats::default(),
        }
    }

    /// Its number.
    pub fn id(&self) -> PeerId {
        self.id
    }
    /// Pieces held.
    pub fn have(&self) -> &Bitfield {
        self.picker.have()
    }
    /// Whether it holds the whole file.
    pub fn is_seed(&self) -> bool {
        self.picker.is_complete()
    }
    /// When it completed its download (its join time for an initial seed).
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
    /// Connected neighbours, in increasing order.
    pub fn neighbours(&self) -> impl Iterator<Item = PeerId> + '_ {
        self.remotes.keys().copied()
    }
    /// Whether we are choking `r` (true for unknown neighbours).
    pub fn is_choking(&self, r: PeerId) -> bool {
        self.remotes.get(&r).is_none_or(|x| x.am_choking)
    }
    /// Whether we are interested in `r`.
    pub fn is_interested_in(&self, r: PeerId) -> bool {
        self.remotes.get(&r).is_some_and(|x| x.am_interested)
    }
    /// Blocks queued for upload to `r`.
    pub fn queued_uploads(&self, r: PeerId) -> usize {
        self.remotes.get(&r).map_or(0, |x| x.uploads.len())
    }
    /// When [`Peer::on_tick`] next has work (the next choke round).
    pub fn next_tick(&self) -> Instant {
        self.next_round
    }

    /// Control messages produced since the last call, in order.
    pub fn take_control(&mut self) -> Vec<Outgoing> {
        std::mem::take(&mut self.control)
    }
    /// Events since the last call, in order.
    pub fn take_events(&mut self) -> Vec<Event> {
        std::mem::take(&mut self.events)
    }
    /// [`Peer::take_control`] appending to `out`: both buffers keep their capacity, so a
    /// network model that reuses `out` allocates nothing per message.
    pub fn drain_control(&mut self, out: &mut Vec<Outgoing>) {
        out.append(&mut self.control);
    }
    /// [`Peer::take_events`] appending to `out`, keeping both buffers' capacity.
    pub fn drain_events(&mut self, out: &mut Vec<Event>) {
        out.append(&mut self.events);
    }

    fn send(&mut self, to: PeerId, msg: Message) {
        self.control.push(Outgoing { to, msg });
    }

    /// A connection to `r` is established: send the handshake and our bitfield (omitted
    /// when we have no piece, as BEP 3 allows).
    pub fn on_connected(&mut self, now: Instant, r: PeerId) {
        if r == self.id || self.remotes.contains_key(&r) {
            self.stats.ignored += 1;
            return;
        }
        self.remotes.insert(
            r,
            Remote {
                bitfield: Bitfield::new(self.torrent.pieces()),
                am_choking: true,
                am_interested: false,
                peer_choking: true,
                peer_interested: false,
                connected_at: now,
                down_round: 0,
                up_round: 0,
                last_block_at: None,
                uploads: VecDeque::new(),
                requested_at: Vec::new(),
            },
        );
        self.send(r, Message::Handshake);
        if self.have().count() > 0 {
            let b = self.have().clone();
            self.send(r, Message::Bitfield(b));
        }
    }

    /// The connection to `r` is gone (it left, or we did).
    pub fn on_closed(&mut self, now: Instant, r: PeerId) {
        let Some(remote) = self.remotes.remove(&r) else {
            return;
        };
        self.picker.remove_bitfield(&remote.bitfield);
        if !self.picker.release(r).is_empty() {
            self.request_all(now);
        }
    }

    /// A message from `from` arrived.
    pub fn on_message(&mut self, now: Instant, from: PeerId, msg: Message) {
        if !self.remotes.contains_key(&from) {
            self.stats.ignored += 1;
            return;
        }
        match msg {
            Message::Handshake | Message::KeepAlive => {}
            Message::Bitfield(b) => {
                self.on_bitfield(from, b);
                self.request(now, from);
            }
            Message::Have(p) => {
                self.on_have(from, p);
                self.request(now, from);
            }
            Message::Interested => self.on_interested(from),
            Message::NotInterested => {
                let r = self.remote(from);
                r.peer_interested = false;
                if !r.am_choking {
                    self.choke(from);
                }
            }
            Message::Choke => {
                let r = self.remote(from);
                r.peer_choking = true;
                r.requested_at.clear();
                if !self.picker.release(from).is_empty() {
                    self.request_all(now);
                }
            }
            Message::Unchoke => {
                self.remote(from).peer_choking = false;
                self.request(now, from);
            }
            Message::Request { block, len } => self.on_request(from, block, len),
            Message::Piece { block, len } => self.on_piece(now, from, block, len),
            Message::Cancel { block, .. } => {
                let r = self.remote(from);
                r.uploads.retain(|&b| b != block);
            }
        }
    }

    fn remote(&mut self, r: PeerId) -> &mut Remote {
        self.remotes.get_mut(&r).expect("caller checked membership")
    }

    fn on_bitfield(&mut self, from: PeerId, b: Bitfield) {
        if b.len() != self.torrent.pieces() {
            self.stats.ignored += 1;
            return;
        }
        let old = std::mem::replace(&mut self.remote(from).bitfield, b.clone());
        self.picker.remove_bitfield(&old);
        self.picker.add_bitfield(&b);
        self.update_interest(from);
    }

    fn on_have(&mut self, from: PeerId, p: u32) {
        if p >= self.torrent.pieces() {
            self.stats.ignored += 1;
            return;
        }
        if self.remote(from).bitfield.set(p) {
            self.picker.add_have(p);
        }
        self.update_interest(from);
    }

    fn on_interested(&mut self, from: PeerId) {
        let r = self.remote(from);
        r.peer_interested = true;
        if !r.am_choking {
            return;
        }
        let slots = (self.cfg.choker.regular + self.cfg.choker.optimistic) as usize;
        let unchoked = self.remotes.values().filter(|x| !x.am_choking).count();
        if unchoked < slots {
            self.unchoke(from);
        }
    }

    fn on_request(&mut self, from: PeerId, block: BlockRef, len: u32) {
        let valid = self.torrent.block_len(block) == len && len > 0 && self.have().get(block.piece);
        let r = self
            .remotes
            .get_mut(&from)
            .expect("caller checked membership");
        if valid && r.am_choking {
            self.stats.late_requests += 1;
            return;
        }
        if !valid {
            self.stats.ignored += 1;
            return;
        }
        if r.uploads.contains(&block) {
            // Our CHOKE and UNCHOKE crossed its request and its re-request: serve once.
            self.stats.duplicate_requests += 1;
            return;
        }
        r.uploads.push_back(block);
        if r.uploads.len() == 1 {
            self.events.push(Event::DataReady { to: from });
        }
    }

    fn on_piece(&mut self, now: Instant, from: PeerId, block: BlockRef, len: u32) {
        if len == 0 || self.torrent.block_len(block) != len {
            self.stats.ignored += 1;
            return;
        }
        let r = self.remote(from);
        r.down_round += len as u64;
        r.last_block_at = Some(now);
        let latency = r
            .requested_at
            .iter()
            .position(|(b, _)| *b == block)
            .map(|i| now - r.requested_at.remove(i).1);
        let was_endgame = self.picker.in_endgame();
        let outcome = self.picker.on_block(from, block);
        let duplicate = !matches!(outcome, BlockOutcome::New { .. });
        self.events.push(Event::Block {
            from,
            block,
            bytes: len,
            duplicate,
            latency,
        });
        match outcome {
            // Unreachable after the length check above; counted rather than trusted.
            BlockOutcome::Invalid => self.stats.ignored += 1,
            BlockOutcome::Duplicate { endgame } => {
                self.stats.duplicate += len as u64;
                if endgame {
                    self.stats.endgame_duplicate += len as u64;
                }
            }
            BlockOutcome::New { piece_done, cancel } => {
                self.stats.downloaded += len as u64;
                for c in &cancel {
                    if let Some(rc) = self.remotes.get_mut(c) {
                        rc.requested_at.retain(|(b, _)| *b != block);
                    }
                    self.send(*c, Message::Cancel { block, len });
                }
                if piece_done {
                    self.piece_done(now, block.piece);
                }
                for c in cancel {
                    self.request(now, c);
                }
            }
        }
        self.request(now, from);
        if !was_endgame && self.picker.in_endgame() {
            self.request_all(now);
        }
    }

    fn piece_done(&mut self, now: Instant, piece: u32) {
        self.events.push(Event::PieceCompleted { piece });
        let ids: Vec<PeerId> = self.remotes.keys().copied().collect();
        for r in ids {
            self.send(r, Message::Have(piece));
            self.update_interest(r);
        }
        if self.picker.is_complete() && self.completed_at.is_none() {
            self.completed_at = Some(now);
            self.events.push(Event::Completed);
        }
    }

    fn update_interest(&mut self, r: PeerId) {
        let want = {
            let remote = &self.remotes[&r];
            self.picker.wants_from(&remote.bitfield)
        };
        let remote = self.remote(r);
        if want != remote.am_interested {
            remote.am_interested = want;
            self.send(
                r,
                if want {
                    Message::Interested
                } else {
                    Message::NotInterested
                },
            );
        }
    }

    /// Tops up the requests at `r` if it unchokes us and has something we want.
    fn request(&mut self, now: Instant, r: PeerId) {
        let Some(remote) = self.remotes.get(&r) else {
            return;
        };
        if remote.peer_choking || !remote.am_interested || self.picker.is_complete() {
            return;
        }
        let blocks = self.picker.pick(r, &remote.bitfield, &mut self.rng);
        for block in blocks {
            let len = self.torrent.block_len(block);
            self.remote(r).requested_at.push((block, now));
            self.send(r, Message::Request { block, len });
        }
    }

    fn request_all(&mut self, now: Instant) {
        let ids: Vec<PeerId> = self.remotes.keys().copied().collect();
        for r in ids {
            self.request(now, r);
        }
    }

    fn choke(&mut self, r: PeerId) {
        let remote = self.remote(r);
        remote.am_choking = true;
        remote.uploads.clear();
        self.send(r, Message::Choke);
    }

    fn unchoke(&mut self, r: PeerId) {
        self.remote(r).am_choking = false;
        self.send(r, Message::Unchoke);
    }

    /// The next block to upload to `r`, if any is queued: the network model calls this
    /// when the data connection towards `r` can take more.
    pub fn next_data(&mut self, _now: Instant, r: PeerId) -> Option<Message> {
        let remote = self.remotes.get_mut(&r)?;
        let block = remote.uploads.pop_front()?;
        let len = self.torrent.block_len(block);
        remote.up_round += len as u64;
        self.stats.uploaded += len as u64;
        Some(Message::Piece { block, len })
    }

    /// Runs the choke rounds due at `now`.
    pub fn on_tick(&mut self, now: Instant) {
        while now >= self.next_round {
            self.rechoke(now);
            self.next_round += self.cfg.round;
        }
    }

    fn rechoke(&mut self, now: Instant) {
        let snub = self.cfg.choker.snub_after;
        let cands: Vec<Candidate> = self
            .remotes
            .iter()
            .map(|(&id, r)| Candidate {
                id,
                interested: r.peer_interested,
                downloaded: r.down_round,
                uploaded: r.up_round,
                snubbed: snub.is_some_and(|d| {
                    r.am_interested && now - r.last_block_at.unwrap_or(r.connected_at) >= d
                }),
                connected_at: r.connected_at,
            })
            .collect();
        let seeding = self.picker.is_complete();
        let set = self.choker.rechoke(now, seeding, &cands, &mut self.rng);
        let ids: Vec<PeerId> = self.remotes.keys().copied().collect();
        for r in ids {
            let should = set.binary_search(&r).is_ok();
            let choking = self.remotes[&r].am_choking;
            if should && choking {
                self.unchoke(r);
            } else if !should && !choking {
                self.choke(r);
            }
            let remote = self.remote(r);
            remote.down_round = 0;
            remote.up_round = 0;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::swarm::choker::SeedChoking;
    use crate::swarm::torrent::BLOCK_SIZE;

    const B: u32 = BLOCK_SIZE;

    /// Four pieces of two blocks.
    fn torrent() -> Torrent {
        Torrent::new(8 * B as u64, 2 * B, B).unwrap()
    }

    fn t(ms: u64) -> Instant {
        Instant::from_millis(ms)
    }

    fn msgs(out: Vec<Outgoing>) -> Vec<(PeerId, Message)> {
        out.into_iter().map(|o| (o.to, o.msg)).collect()
    }

    /// Seed 0 and leecher 1, connected, bitfield and interest exchanged.
    fn pair(cfg: PeerConfig) -> (Peer, Peer) {
        let mut s = Peer::new(0, torrent(), cfg, true, t(0), 1);
        let mut l = Peer::new(1, torrent(), cfg, false, t(0), 2);
        s.on_connected(t(0), 1);
        l.on_connected(t(0), 0);
        for o in s.take_control() {
            l.on_message(t(1), 0, o.msg);
        }
        for o in l.take_control() {
            s.on_message(t(2), 1, o.msg);
        }
        (s, l)
    }

    #[test]
    fn connect_sends_handshake_and_bitfield_only_when_holding_pieces() {
        let mut s = Peer::new(0, torrent(), PeerConfig::default(), true, t(0), 1);
        let mut l = Peer::new(1, torrent(), PeerConfig::default(), false, t(0), 2);
        s.on_connected(t(0), 1);
        l.on_connected(t(0), 0);
        assert_eq!(
            msgs(s.take_control()),
            vec![
                (1, Message::Handshake),
                (1, Message::Bitfield(Bitfield::full(4)))
            ]
        );
        assert_eq!(msgs(l.take_control()), vec![(0, Message::Handshake)]);
    }

    #[test]
    fn interest_is_answered_by_an_unchoke_when_a_slot_is_free() {
        let (mut s, mut l) = pair(PeerConfig::default());
        assert!(l.is_interested_in(0));
        assert!(!s.is_choking(1), "a free slot unchokes at once");
        assert_eq!(msgs(s.take_control()), vec![(1, Message::Unchoke)]);
        l.on_message(t(3), 0, Message::Unchoke);
        let reqs = msgs(l.take_control());
        // Pipeline of 5: a random first piece (2 blocks), then, still with no piece
        // complete, two more random pieces, the last one started.
        assert_eq!(reqs.len(), 5);
        let blocks: Vec<BlockRef> = reqs
            .iter()
            .map(|(to, m)| match m {
                Message::Request { block, len } => {
                    assert_eq!((*to, *len), (0, B));
                    *block
                }
                other => panic!("{other:?}"),
            })
            .collect();
        assert_eq!(blocks[0].piece, blocks[1].piece);
        assert_eq!((blocks[0].block, blocks[1].block), (0, 1));
        let mut uniq = blocks.clone();
        uniq.sort();
        uniq.dedup();
        assert_eq!(uniq.len(), 5);
    }

    #[test]
    fn requested_blocks_flow_as_data_and_complete_pieces() {
        let (mut s, mut l) = pair(PeerConfig::default());
        s.take_control();
        l.on_message(t(3), 0, Message::Unchoke);
        for o in l.take_control() {
            s.on_message(t(4), 1, o.msg);
        }
        assert_eq!(s.take_events(), vec![Event::DataReady { to: 1 }]);
        assert_eq!(s.queued_uploads(1), 5);
        let mut pieces = Vec::new();
        while let Some(m) = s.next_data(t(5), 1) {
            pieces.push(m);
        }
        assert_eq!(s.stats().uploaded, 5 * B as u64);
        let first_piece = match pieces[0] {
            Message::Piece { block, .. } => block.piece,
            _ => unreachable!(),
        };
        l.take_events();
        l.on_message(t(50), 0, pieces[0].clone());
        l.on_message(t(60), 0, pieces[1].clone());
        let ev = l.take_events();
        assert_eq!(
            ev[0],
            Event::Block {
                from: 0,
                block: BlockRef::new(first_piece, 0),
                bytes: B,
                duplicate: false,
                latency: Some(Duration::from_millis(47)),
            }
        );
        assert!(ev.contains(&Event::PieceCompleted { piece: first_piece }));
        let out = msgs(l.take_control());
        assert!(out.contains(&(0, Message::Have(first_piece))), "{out:?}");
        // Each arrival refills the pipeline by one request.
        assert_eq!(
            out.iter()
                .filter(|(_, m)| matches!(m, Message::Request { .. }))
                .count(),
            2
        );
        assert_eq!(l.stats().downloaded, 2 * B as u64);
    }

    #[test]
    fn choke_empties_the_queue_and_releases_requests() {
        let (mut s, mut l) = pair(PeerConfig::default());
        s.take_control();
        l.on_message(t(3), 0, Message::Unchoke);
        for o in l.take_control() {
            s.on_message(t(4), 1, o.msg);
        }
        assert_eq!(l.picker().outstanding(0).len(), 5);
        s.on_message(t(5), 1, Message::NotInterested);
        assert_eq!(msgs(s.take_control()), vec![(1, Message::Choke)]);
        assert_eq!(s.queued_uploads(1), 0);
        assert_eq!(s.next_data(t(5), 1), None);
        l.on_message(t(6), 0, Message::Choke);
        assert!(l.picker().outstanding(0).is_empty());
        assert!(l.take_control().is_empty(), "no request while choked");
    }

    #[test]
    fn a_new_piece_at_an_idle_uploader_is_requested_at_once() {
        // Leecher 1 is unchoked by leecher 2, which has nothing it lacks until 2 announces
        // piece 3: the request must follow the HAVE, not wait for another event.
        let cfg = PeerConfig::default();
        let mut l = Peer::new(1, torrent(), cfg, false, t(0), 2);
        l.on_connected(t(0), 2);
        l.on_message(t(1), 2, Message::Unchoke);
        l.take_control();
        assert!(!l.is_interested_in(2));
        l.on_message(t(2), 2, Message::Have(3));
        assert_eq!(
            msgs(l.take_control()),
            vec![
                (2, Message::Interested),
                (
                    2,
                    Message::Request {
                        block: BlockRef::new(3, 0),
                        len: B
                    }
                ),
                (
                    2,
                    Message::Request {
                        block: BlockRef::new(3, 1),
                        len: B
                    }
                ),
            ]
        );
    }

    #[test]
    fn cancel_removes_a_queued_block() {
        let (mut s, mut l) = pair(PeerConfig::default());
        s.take_control();
        l.on_message(t(3), 0, Message::Unchoke);
        let reqs = l.take_control();
        for o in &reqs {
            s.on_message(t(4), 1, o.msg.clone());
        }
        let Message::Request { block, len } = reqs[2].msg else {
            panic!()
        };
        s.on_message(t(5), 1, Message::Cancel { block, len });
        assert_eq!(s.queued_uploads(1), 4);
    }

    #[test]
    fn a_request_already_queued_is_served_once_and_counted_apart() {
        let (mut s, mut l) = pair(PeerConfig::default());
        s.take_control();
        l.on_message(t(3), 0, Message::Unchoke);
        let reqs = l.take_control();
        for o in &reqs {
            s.on_message(t(4), 1, o.msg.clone());
        }
        // The same request again (re-sent after a CHOKE, overtaking our UNCHOKE).
        s.on_message(t(5), 1, reqs[0].msg.clone());
        assert_eq!(s.queued_uploads(1), 5);
        let st = s.stats();
        assert_eq!((st.duplicate_requests, st.ignored), (1, 0));
    }

    #[test]
    fn malformed_input_is_dropped_and_counted() {
        let (mut s, mut l) = pair(PeerConfig::default());
        let before = l.stats().ignored;
        l.on_message(t(9), 0, Message::Bitfield(Bitfield::full(5)));
        l.on_message(t(9), 0, Message::Have(4));
        l.on_message(t(9), 7, Message::Unchoke);
        l.on_message(
            t(9),
            0,
            Message::Piece {
                block: BlockRef::new(0, 0),
                len: 3,
            },
        );
        assert_eq!(l.stats().ignored, before + 4);
        // A request to a peer that chokes us, or for a piece it lacks, is refused.
        s.on_message(t(9), 1, Message::NotInterested);
        s.on_message(
            t(9),
            1,
            Message::Request {
                block: BlockRef::new(0, 0),
                len: B,
            },
        );
        assert_eq!(s.queued_uploads(1), 0);
        assert_eq!(s.stats().late_requests, 1);
        l.on_message(
            t(9),
            0,
            Message::Request {
                block: BlockRef::new(0, 0),
                len: B,
            },
        );
        assert_eq!(l.queued_uploads(0), 0);
        assert_eq!(
            l.stats().ignored,
            before + 5,
            "a request for a piece we lack"
        );
        assert_eq!(s.stats().ignored, 0);
    }

    fn any_message() -> impl proptest::strategy::Strategy<Value = Message> {
        use proptest::prelude::*;
        let block = (0u32..6, 0u32..4).prop_map(|(p, b)| BlockRef::new(p, b));
        let len = prop_oneof![Just(B), 0u32..70_000];
        prop_oneof![
            Just(Message::Handshake),
            (0u32..8).prop_map(|n| Message::Bitfield(Bitfield::full(n))),
            Just(Message::Choke),
            Just(Message::Unchoke),
            Just(Message::Interested),
            Just(Message::NotInterested),
            (0u32..8).prop_map(Message::Have),
            (block.clone(), len.clone()).prop_map(|(block, len)| Message::Request { block, len }),
            (block.clone(), len.clone()).prop_map(|(block, len)| Message::Piece { block, len }),
            (block, len).prop_map(|(block, len)| Message::Cancel { block, len }),
            Just(Message::KeepAlive),
        ]
    }

    proptest::proptest! {
        /// Arbitrary, possibly malformed input from known and unknown neighbours, with
        /// ticks and closes in between, never panics, never queues uploads to a choked
        /// neighbour, and never counts more new bytes than the file holds.
        #[test]
        fn arbitrary_input_never_panics(
            seed_peer in proptest::bool::ANY,
            ops in proptest::collection::vec((0u32..5, any_message(), 0u8..20), 1..200),
        ) {
            let mut p = Peer::new(0, torrent(), PeerConfig::default(), seed_peer, t(0), 3);
            for r in 1..4 {
                p.on_connected(t(0), r);
            }
            let mut now = 0;
            for (from, msg, action) in ops {
                now += 700;
                match action {
                    0 => p.on_tick(t(now)),
                    1 => p.on_closed(t(now), from),
                    2 => p.on_connected(t(now), from),
                    3 => {
                        p.next_data(t(now), from);
                    }
                    _ => p.on_message(t(now), from, msg),
                }
                p.take_control();
                p.take_events();
                for r in p.neighbours().collect::<Vec<_>>() {
                    proptest::prop_assert!(!p.is_choking(r) || p.queued_uploads(r) == 0);
                }
                proptest::prop_assert!(p.stats().downloaded <= torrent().file_size());
            }
        }
    }

    #[test]
    fn choke_rounds_rotate_a_round_robin_seed() {
        let cfg = PeerConfig {
            choker: ChokerConfig {
                regular: 1,
                optimistic: 0,
                seed_choking: SeedChoking::RoundRobin,
                ..ChokerConfig::default()
            },
            ..PeerConfig::default()
        };
        let mut s = Peer::new(0, torrent(), cfg, true, t(0), 1);
        for r in 1..=3 {
            s.on_connected(t(0), r);
            s.on_message(t(1), r, Message::Interested);
        }
        let first: Vec<_> = msgs(s.take_control())
            .into_iter()
            .filter(|(_, m)| !matches!(m, Message::Handshake | Message::Bitfield(_)))
            .collect();
        assert_eq!(first, vec![(1, Message::Unchoke)], "one free slot");
        assert_eq!(s.next_tick(), t(10_000));
        s.on_tick(t(9_999));
        assert!(s.take_control().is_empty(), "no round before 10 s");
        s.on_tick(t(10_000));
        assert!(
            s.take_control().is_empty(),
            "round 1: peer 1 keeps its turn"
        );
        s.on_tick(t(20_000));
        assert_eq!(
            msgs(s.take_control()),
            vec![(1, Message::Choke), (2, Message::Unchoke)]
        );
        s.on_tick(t(30_000));
        assert_eq!(
            msgs(s.take_control()),
            vec![(2, Message::Choke), (3, Message::Unchoke)]
        );
        assert_eq!(s.next_tick(), t(40_000));
    }
}
