//! Which blocks to request from whom: BitTorrent's piece picker (Cohen 2003, section 2.3;
//! seed 003 section 1.2), with the request pipeline and endgame mode.
//!
//! For a connection whose peer unchokes us, [`Picker::pick`] tops the requests outstanding
//! there up to a target (the pipeline depth, which the caller sizes), choosing each block by
//! these rules in order:
//!
//! 1. **Strict priority**: a block of a piece already started (some block received or
//!    requested) that the peer has; among those pieces the one with the fewest blocks
//!    neither received nor requested, then the lowest index; inside it, the lowest free
//!    block.
//! 2. **Random first piece** (`random_first`): while we have no piece, a piece chosen
//!    uniformly at random among those the peer has and we lack (a newcomer needs *any*
//!    piece quickly to trade with; a rare one would take longest to get).
//! 3. **Rarest first** (`rarest_first`; off: lowest index first): a piece the peer has that
//!    we lack with the fewest copies among our connected peers (availability counted from
//!    their bitfields and HAVEs), ties broken uniformly at random.
//! 4. **Endgame** ([`Endgame`]): once every missing block is requested somewhere, a block
//!    the peer has that is not yet requested from it, the least-requested first, so that the
//!    last blocks come from whoever is fastest. [`Endgame::All`] tops every connection's
//!    pipeline up with such copies; [`Endgame::Idle`] gives one copy at a time and only to a
//!    connection with nothing outstanding (libtorrent's strict end-game mode: with deep
//!    pipelines at many peers the endgame starts while much of the file is still
//!    outstanding, and handing every connection every remaining block wastes a large share
//!    of the bytes). When a block arrives, [`Picker::on_block`] names the other connections
//!    it was requested from, which the caller sends CANCEL; a copy that still arrives is a
//!    duplicate.
//!
//! Requests die with the connection, a CHOKE, a REJECT or a timeout ([`Picker::release`],
//! [`Picker::release_one`]), which makes their blocks free again. A piece whose blocks have
//! all arrived waits for [`Picker::piece_verified`] (it is ours) or [`Picker::piece_failed`]
//! (its hash failed: every block is missing again).

use crate::bitfield::Bitfield;
use crate::layout::{Block, Layout};
use crate::ConnId;
use ledbat_core::Instant;
use rand::Rng;
use std::collections::{BTreeMap, BTreeSet};

/// Endgame mode (rule 4 of the module comment).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Endgame {
    /// No endgame: each block is requested from one connection at a time.
    Off,
    /// One copy at a time, to connections with nothing outstanding (libtorrent's strict
    /// end-game mode).
    Idle,
    /// Every connection's pipeline is topped up with copies (mainline; the simulator's
    /// `endgame = true`).
    All,
}

/// Picker settings.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PickerConfig {
    /// Rule 2 (random first piece). Default on.
    pub random_first: bool,
    /// Rule 3 (rarest first); off means lowest index first. Default on.
    pub rarest_first: bool,
    /// Rule 4. Default [`Endgame::Idle`].
    pub endgame: Endgame,
}

impl Default for PickerConfig {
    fn default() -> Self {
        Self {
            random_first: true,
            rarest_first: true,
            endgame: Endgame::Idle,
        }
    }
}

/// What became of an arriving block.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Arrival {
    /// First copy: keep it.
    New {
        /// The block completed its piece (which now waits for verification).
        piece_done: bool,
        /// Other connections it was also requested from (send them CANCEL).
        cancel: Vec<ConnId>,
        /// When it was requested from the sender, if it was outstanding there.
        requested_at: Option<Instant>,
    },
    /// We already had it: an endgame copy (`endgame`: the block had been requested from
    /// several connections at once), or a copy in flight when its request was released
    /// (CHOKE) and re-requested elsewhere.
    Duplicate {
        /// The block had been requested in endgame mode.
        endgame: bool,
    },
}

#[derive(Clone, Debug)]
struct Partial {
    received: Vec<bool>,
    requested: Vec<Vec<ConnId>>,
    received_count: u32,
    /// Blocks neither received nor requested (kept up to date: the strict-priority rule
    /// reads it for every started piece at every pick).
    free: u32,
    /// Blocks requested from at least one connection.
    busy: u32,
}

impl Partial {
    fn new(blocks: u32) -> Self {
        Self {
            received: vec![false; blocks as usize],
            requested: vec![Vec::new(); blocks as usize],
            received_count: 0,
            free: blocks,
            busy: 0,
        }
    }
    /// Blocks neither received nor requested.
    fn free(&self) -> usize {
        self.free as usize
    }
    fn untouched(&self) -> bool {
        self.received_count == 0 && self.busy == 0
    }
    /// Records a request for block `b` on `conn`; whether the block was free.
    fn request(&mut self, b: usize, conn: ConnId) -> bool {
        let q = &mut self.requested[b];
        let was_free = q.is_empty();
        if was_free {
            self.free -= 1;
            self.busy += 1;
        }
        q.push(conn);
        was_free
    }
    /// Forgets the request for block `b` on `conn`; whether the block became free.
    fn unrequest(&mut self, b: usize, conn: ConnId) -> bool {
        let q = &mut self.requested[b];
        let Some(i) = q.iter().position(|&x| x == conn) else {
            return false;
        };
        q.remove(i);
        if !q.is_empty() {
            return false;
        }
        self.busy -= 1;
        if self.received[b] {
            return false;
        }
        self.free += 1;
        true
    }
    /// Block `b` arrived (not received before): its requesters.
    fn receive(&mut self, b: usize) -> Vec<ConnId> {
        let requesters = std::mem::take(&mut self.requested[b]);
        if requesters.is_empty() {
            self.free -= 1;
        } else {
            self.busy -= 1;
        }
        self.received[b] = true;
        self.received_count += 1;
        requesters
    }
}

/// The download side of a torrent: what we have, what is asked of whom.
#[derive(Clone, Debug)]
pub struct Picker {
    layout: Layout,
    cfg: PickerConfig,
    have: Bitfield,
    availability: Vec<u32>,
    partial: BTreeMap<u32, Partial>,
    /// Per connection, the blocks requested there and not yet received, in request order,
    /// with the time of the request (a list emptied by arrivals is kept for the next
    /// requests; [`Picker::release`] drops it).
    outstanding: BTreeMap<ConnId, Vec<(Block, Instant)>>,
    /// Missing blocks requested from nobody.
    unrequested: u64,
    /// Blocks requested while another request for them was outstanding (endgame copies).
    endgame_requested: BTreeSet<Block>,
}

impl Picker {
    /// A picker for a torrent laid out as `layout`, of which we hold `have`.
    pub fn new(layout: Layout, cfg: PickerConfig, have: Bitfield) -> Self {
        let unrequested = (0..layout.pieces())
            .filter(|&p| !have.get(p))
            .map(|p| layout.blocks_in(p) as u64)
            .sum();
        Self {
            availability: vec![0; layout.pieces() as usize],
            layout,
            cfg,
            have,
            partial: BTreeMap::new(),
            outstanding: BTreeMap::new(),
            unrequested,
            endgame_requested: BTreeSet::new(),
        }
    }

    /// The torrent's layout.
    pub fn layout(&self) -> &Layout {
        &self.layout
    }
    /// The pieces we have (verified).
    pub fn have(&self) -> &Bitfield {
        &self.have
    }
    /// Whether every piece is ours.
    pub fn is_complete(&self) -> bool {
        self.have.is_full()
    }
    /// Copies of piece `p` among connected peers.
    pub fn availability(&self, p: u32) -> u32 {
        self.availability.get(p as usize).copied().unwrap_or(0)
    }
    /// Blocks requested on `conn` and not yet received, in request order.
    pub fn outstanding(&self, conn: ConnId) -> impl ExactSizeIterator<Item = Block> + '_ {
        self.outstanding
            .get(&conn)
            .map_or(&[][..], Vec::as_slice)
            .iter()
            .map(|&(b, _)| b)
    }
    /// Number of blocks requested on `conn` and not yet received.
    pub fn outstanding_len(&self, conn: ConnId) -> usize {
        self.outstanding.get(&conn).map_or(0, Vec::len)
    }
    /// Whether endgame mode is on: every missing block is requested somewhere.
    pub fn in_endgame(&self) -> bool {
        self.cfg.endgame != Endgame::Off && self.unrequested == 0 && !self.is_complete()
    }
    /// Whether `remote` has a piece we lack.
    pub fn wants_from(&self, remote: &Bitfield) -> bool {
        self.have.lacks_any_of(remote)
    }

    /// A peer's bitfield joins the availability counts.
    pub fn add_bitfield(&mut self, b: &Bitfield) {
        for p in b.iter() {
            self.availability[p as usize] += 1;
        }
    }
    /// A peer's bitfield leaves the availability counts (it disconnected).
    pub fn remove_bitfield(&mut self, b: &Bitfield) {
        for p in b.iter() {
            let a = &mut self.availability[p as usize];
            *a = a.saturating_sub(1);
        }
    }
    /// A peer announced piece `p` (HAVE); the caller checked it was new for that peer.
    pub fn add_have(&mut self, p: u32) {
        if let Some(a) = self.availability.get_mut(p as usize) {
            *a += 1;
        }
    }

    /// Forgets every request outstanding on `conn` (it choked us, left or timed out);
    /// returns how many there were.
    pub fn release(&mut self, conn: ConnId) -> usize {
        let blocks = self.outstanding.remove(&conn).unwrap_or_default();
        for &(b, _) in &blocks {
            self.drop_requester(b, conn);
        }
        blocks.len()
    }

    /// Forgets the request for `b` on `conn` (the peer rejected it); whether there was one.
    pub fn release_one(&mut self, conn: ConnId, b: Block) -> bool {
        let Some(list) = self.outstanding.get_mut(&conn) else {
            return false;
        };
        let Some(i) = list.iter().position(|&(x, _)| x == b) else {
            return false;
        };
        list.remove(i);
        self.drop_requester(b, conn);
        true
    }

    fn drop_requester(&mut self, b: Block, conn: ConnId) {
        let Some(part) = self.partial.get_mut(&b.piece) else {
            return;
        };
        if part.unrequest(b.block as usize, conn) {
            self.unrequested += 1;
        }
        if part.untouched() {
            self.partial.remove(&b.piece);
        }
    }

    /// New requests on `conn` (whose peer holds `remote`), made at `now`, appended to
    /// `out` until `target` are outstanding there or nothing is left to ask for.
    pub fn pick<R: Rng>(
        &mut self,
        conn: ConnId,
        remote: &Bitfield,
        target: usize,
        now: Instant,
        rng: &mut R,
        out: &mut Vec<Block>,
    ) {
        while self.outstanding_len(conn) < target {
            let Some(b) = self.next_block(conn, remote, rng) else {
                break;
            };
            let blocks = self.layout.blocks_in(b.piece);
            let part = self
                .partial
                .entry(b.piece)
                .or_insert_with(|| Partial::new(blocks));
            if part.request(b.block as usize, conn) {
                self.unrequested -= 1;
            } else {
                self.endgame_requested.insert(b);
            }
            self.outstanding.entry(conn).or_default().push((b, now));
            out.push(b);
        }
    }

    fn next_block<R: Rng>(&self, conn: ConnId, remote: &Bitfield, rng: &mut R) -> Option<Block> {
        // 1. Strict priority to started pieces.
        let started = self
            .partial
            .iter()
            .filter(|(p, part)| remote.get(**p) && part.free() > 0)
            .min_by_key(|(p, part)| (part.free(), **p));
        if let Some((&p, part)) = started {
            let i = (0..part.received.len())
                .find(|&i| !part.received[i] && part.requested[i].is_empty())?;
            return Some(Block::new(p, i as u32));
        }
        let fresh = |p: &u32| !self.have.get(*p) && !self.partial.contains_key(p);
        // 2. Random first piece.
        if self.cfg.random_first && self.have.count() == 0 {
            let candidates: Vec<u32> = remote.iter().filter(fresh).collect();
            if !candidates.is_empty() {
                let p = candidates[rng.gen_range(0..candidates.len())];
                return Some(Block::new(p, 0));
            }
        }
        // 3. Rarest first (or lowest index).
        let mut rarest = Vec::new();
        let mut min = u32::MAX;
        for p in remote.iter().filter(fresh) {
            if !self.cfg.rarest_first {
                return Some(Block::new(p, 0));
            }
            let a = self.availability[p as usize];
            if a < min {
                min = a;
                rarest.clear();
            }
            if a == min {
                rarest.push(p);
            }
        }
        if !rarest.is_empty() {
            let p = rarest[rng.gen_range(0..rarest.len())];
            return Some(Block::new(p, 0));
        }
        // 4. Endgame.
        if !self.in_endgame()
            || (self.cfg.endgame == Endgame::Idle && self.outstanding_len(conn) > 0)
        {
            return None;
        }
        self.partial
            .iter()
            .filter(|(p, _)| remote.get(**p))
            .flat_map(|(&p, part)| {
                (0..part.received.len())
                    .filter(|&i| !part.received[i] && !part.requested[i].contains(&conn))
                    .map(move |i| (part.requested[i].len(), Block::new(p, i as u32)))
            })
            .min()
            .map(|(_, b)| b)
    }

    /// Block `b` (a block of the layout) arrived on `conn`.
    pub fn on_block(&mut self, conn: ConnId, b: Block) -> Arrival {
        let mut requested_at = None;
        if let Some(list) = self.outstanding.get_mut(&conn) {
            if let Some(i) = list.iter().position(|&(x, _)| x == b) {
                requested_at = Some(list.remove(i).1);
            }
        }
        let already = self.have.get(b.piece)
            || self
                .partial
                .get(&b.piece)
                .is_some_and(|part| part.received[b.block as usize]);
        if already {
            self.drop_requester(b, conn);
            return Arrival::Duplicate {
                endgame: self.endgame_requested.contains(&b),
            };
        }
        let blocks = self.layout.blocks_in(b.piece);
        let part = self
            .partial
            .entry(b.piece)
            .or_insert_with(|| Partial::new(blocks));
        let requesters = part.receive(b.block as usize);
        if requesters.is_empty() {
            self.unrequested -= 1;
        }
        let piece_done = part.received_count == blocks;
        let cancel: Vec<ConnId> = requesters.into_iter().filter(|&x| x != conn).collect();
        for other in &cancel {
            if let Some(list) = self.outstanding.get_mut(other) {
                list.retain(|&(x, _)| x != b);
            }
        }
        Arrival::New {
            piece_done,
            cancel,
            requested_at,
        }
    }

    /// Whether piece `p` has all its blocks and waits for [`Picker::piece_verified`] or
    /// [`Picker::piece_failed`].
    pub fn is_awaiting_check(&self, p: u32) -> bool {
        self.partial
            .get(&p)
            .is_some_and(|part| part.received_count as usize == part.received.len())
    }

    /// Piece `p` (all blocks received) verified: it is ours.
    pub fn piece_verified(&mut self, p: u32) {
        self.partial.remove(&p);
        self.have.set(p);
    }

    /// Piece `p` (all blocks received) failed its hash: every block is missing again and
    /// requested from nobody (its blocks' requests were all answered).
    pub fn piece_failed(&mut self, p: u32) {
        if self.partial.remove(&p).is_some() {
            self.unrequested += self.layout.blocks_in(p) as u64;
        }
    }

    /// Checks the bookkeeping against a recount (for tests): free blocks, and requests
    /// both ways (outstanding lists and per-block requester lists).
    pub fn check_invariants(&self) -> Result<(), String> {
        let recount = (0..self.layout.pieces())
            .filter(|&i| !self.have.get(i))
            .flat_map(|i| self.layout.blocks(i))
            .filter(|b| match self.partial.get(&b.piece) {
                None => true,
                Some(part) => {
                    !part.received[b.block as usize] && part.requested[b.block as usize].is_empty()
                }
            })
            .count() as u64;
        if recount != self.unrequested {
            return Err(format!(
                "unrequested {} but {recount} free blocks",
                self.unrequested
            ));
        }
        for (conn, list) in &self.outstanding {
            for (b, _) in list {
                let ok = self
                    .partial
                    .get(&b.piece)
                    .is_some_and(|p| p.requested[b.block as usize].contains(conn));
                if !ok {
                    return Err(format!("{b:?} outstanding on {conn} but not requested"));
                }
            }
        }
        for (piece, part) in &self.partial {
            if self.have.get(*piece) {
                return Err(format!("piece {piece} is both ours and partial"));
            }
            let free = (0..part.received.len())
                .filter(|&i| !part.received[i] && part.requested[i].is_empty())
                .count();
            let busy = part.requested.iter().filter(|q| !q.is_empty()).count();
            if (free, busy) != (part.free(), part.busy as usize) {
                return Err(format!(
                    "piece {piece}: {free} free and {busy} requested blocks counted as {} and {}",
                    part.free, part.busy
                ));
            }
            for (i, q) in part.requested.iter().enumerate() {
                let b = Block::new(*piece, i as u32);
                if part.received[i] && !q.is_empty() {
                    return Err(format!("{b:?} received but still requested"));
                }
                for c in q {
                    if !self.outstanding(*c).any(|x| x == b) {
                        return Err(format!("{b:?} requested on {c} but not outstanding"));
                    }
                }
                if self.cfg.endgame == Endgame::Off && q.len() > 1 {
                    return Err(format!("{b:?} requested twice without endgame"));
                }
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::layout::BLOCK_LEN;
    use rand::SeedableRng;
    use rand_chacha::ChaCha8Rng;

    const T0: Instant = Instant::ZERO;

    fn bits(len: u32, set: &[u32]) -> Bitfield {
        let mut b = Bitfield::new(len);
        for &p in set {
            b.set(p);
        }
        b
    }

    /// `pieces` one-block pieces.
    fn one_block_pieces(pieces: u32) -> Layout {
        Layout::new(pieces as u64 * BLOCK_LEN as u64, BLOCK_LEN, BLOCK_LEN).unwrap()
    }

    /// `pieces` pieces of `blocks` blocks.
    fn layout(pieces: u32, blocks: u32) -> Layout {
        Layout::new(
            (pieces * blocks) as u64 * BLOCK_LEN as u64,
            blocks * BLOCK_LEN,
            BLOCK_LEN,
        )
        .unwrap()
    }

    fn cfg(random_first: bool, endgame: Endgame) -> PickerConfig {
        PickerConfig {
            random_first,
            rarest_first: true,
            endgame,
        }
    }

    fn rng(seed: u64) -> ChaCha8Rng {
        ChaCha8Rng::seed_from_u64(seed)
    }

    /// [`Picker::pick`] into a fresh vector.
    fn pick(
        p: &mut Picker,
        conn: ConnId,
        remote: &Bitfield,
        target: usize,
        r: &mut ChaCha8Rng,
    ) -> Vec<Block> {
        let mut out = Vec::new();
        p.pick(conn, remote, target, T0, r, &mut out);
        out
    }

    fn new(piece_done: bool, cancel: Vec<ConnId>) -> Arrival {
        Arrival::New {
            piece_done,
            cancel,
            requested_at: Some(T0),
        }
    }

    #[test]
    fn rarest_piece_is_requested_first() {
        // Availability: piece 0 in 3 peers, piece 1 in 1, pieces 2 and 3 in 2.
        let mut p = Picker::new(
            one_block_pieces(4),
            cfg(false, Endgame::Off),
            Bitfield::new(4),
        );
        p.add_bitfield(&bits(4, &[0, 1, 2, 3]));
        p.add_bitfield(&bits(4, &[0, 2]));
        p.add_bitfield(&bits(4, &[0, 3]));
        assert_eq!(
            (0..4).map(|i| p.availability(i)).collect::<Vec<_>>(),
            [3, 1, 2, 2]
        );
        let all = bits(4, &[0, 1, 2, 3]);
        let mut r = rng(1);
        let got: Vec<u32> = pick(&mut p, 7, &all, 4, &mut r)
            .iter()
            .map(|b| b.piece)
            .collect();
        assert_eq!(got[0], 1);
        assert!(got[1..3] == [2, 3] || got[1..3] == [3, 2], "{got:?}");
        assert_eq!(got[3], 0);
    }

    #[test]
    fn without_rarest_first_the_lowest_index_comes_first() {
        let mut c = cfg(false, Endgame::Off);
        c.rarest_first = false;
        let mut p = Picker::new(one_block_pieces(4), c, Bitfield::new(4));
        p.add_bitfield(&bits(4, &[0, 1, 2, 3]));
        p.add_bitfield(&bits(4, &[1]));
        let got = pick(&mut p, 1, &bits(4, &[0, 1, 2, 3]), 4, &mut rng(0));
        assert_eq!(
            got.iter().map(|b| b.piece).collect::<Vec<_>>(),
            [0, 1, 2, 3]
        );
    }

    #[test]
    fn rarest_ties_are_broken_at_random() {
        let mut seen = [0u32; 4];
        for seed in 0..200 {
            let mut p = Picker::new(
                one_block_pieces(4),
                cfg(false, Endgame::Off),
                Bitfield::new(4),
            );
            p.add_bitfield(&bits(4, &[0, 1, 2, 3]));
            let b = pick(&mut p, 1, &bits(4, &[0, 1, 2, 3]), 1, &mut rng(seed))[0];
            seen[b.piece as usize] += 1;
        }
        // Each of 4 equally rare pieces: 50 expected; binomial sd ~6.1.
        assert!(seen.iter().all(|&n| (25..=75).contains(&n)), "{seen:?}");
    }

    #[test]
    fn first_piece_is_random_then_rarest_first() {
        // Piece 0 is the rarest (1 copy); pieces 1..4 have 3 copies each.
        let setup = || {
            let mut p = Picker::new(
                one_block_pieces(4),
                cfg(true, Endgame::Off),
                Bitfield::new(4),
            );
            p.add_bitfield(&bits(4, &[0, 1, 2, 3]));
            p.add_bitfield(&bits(4, &[1, 2, 3]));
            p.add_bitfield(&bits(4, &[1, 2, 3]));
            p
        };
        let all = bits(4, &[0, 1, 2, 3]);
        let mut not_rarest = 0;
        for seed in 0..100 {
            let mut p = setup();
            let mut r = rng(seed);
            let b = pick(&mut p, 1, &all, 1, &mut r)[0];
            if b.piece != 0 {
                not_rarest += 1;
                // After the first piece is ours, the rarest (piece 0) comes next.
                assert_eq!(p.on_block(1, b), new(true, vec![]));
                p.piece_verified(b.piece);
                assert_eq!(pick(&mut p, 1, &all, 1, &mut r), vec![Block::new(0, 0)]);
            }
        }
        // Uniform over 4 pieces: 75 of 100 expected to be other than the rarest.
        assert!((55..=95).contains(&not_rarest), "{not_rarest}");
    }

    #[test]
    fn started_pieces_are_finished_first_closest_to_done_first() {
        // Pieces of 4 blocks; piece 2 has 3 blocks requested by conn 1, piece 0 has 1.
        let mut p = Picker::new(layout(4, 4), cfg(false, Endgame::Off), Bitfield::new(4));
        let all = bits(4, &[0, 1, 2, 3]);
        let mut r = rng(1);
        let only = |i| bits(4, &[i]);
        assert_eq!(pick(&mut p, 1, &only(2), 3, &mut r).len(), 3);
        assert_eq!(pick(&mut p, 1, &only(0), 4, &mut r).len(), 1);
        // Piece 2 has 1 free block, piece 0 three: piece 2 first.
        assert_eq!(pick(&mut p, 2, &all, 1, &mut r), vec![Block::new(2, 3)]);
        assert_eq!(pick(&mut p, 2, &all, 2, &mut r), vec![Block::new(0, 1)]);
    }

    #[test]
    fn pipeline_target_is_respected_and_refilled() {
        let mut p = Picker::new(layout(1, 10), cfg(false, Endgame::Off), Bitfield::new(1));
        let all = bits(1, &[0]);
        p.add_bitfield(&all);
        let mut r = rng(0);
        let first = pick(&mut p, 9, &all, 3, &mut r);
        assert_eq!(first.len(), 3);
        assert!(pick(&mut p, 9, &all, 3, &mut r).is_empty(), "pipeline full");
        p.on_block(9, first[1]);
        assert_eq!(pick(&mut p, 9, &all, 3, &mut r), vec![Block::new(0, 3)]);
        assert_eq!(
            p.outstanding(9).collect::<Vec<_>>(),
            [Block::new(0, 0), Block::new(0, 2), Block::new(0, 3)]
        );
    }

    #[test]
    fn choke_releases_requests_for_others() {
        let mut p = Picker::new(layout(1, 4), cfg(false, Endgame::Off), Bitfield::new(1));
        let all = bits(1, &[0]);
        let mut r = rng(0);
        assert_eq!(pick(&mut p, 1, &all, 2, &mut r).len(), 2);
        assert_eq!(p.release(1), 2);
        assert_eq!(p.outstanding_len(1), 0);
        assert_eq!(
            pick(&mut p, 2, &all, 2, &mut r),
            vec![Block::new(0, 0), Block::new(0, 1)]
        );
        assert!(!p.in_endgame());
    }

    #[test]
    fn a_rejected_block_is_picked_again_elsewhere() {
        let mut p = Picker::new(
            one_block_pieces(3),
            cfg(false, Endgame::Off),
            Bitfield::new(3),
        );
        let all = bits(3, &[0, 1, 2]);
        let mut r = rng(0);
        let mut c = cfg(false, Endgame::Off);
        c.rarest_first = false;
        p.cfg = c;
        let a = pick(&mut p, 1, &all, 3, &mut r);
        assert!(p.release_one(1, a[1]));
        assert!(!p.release_one(1, a[1]), "released once");
        assert_eq!(pick(&mut p, 2, &all, 3, &mut r), vec![a[1]]);
        p.release(1);
        assert_eq!(pick(&mut p, 3, &all, 3, &mut r), vec![a[0], a[2]]);
    }

    #[test]
    fn endgame_all_requests_duplicates_and_cancels_on_arrival() {
        // One piece of two blocks, two uploaders, pipeline 5.
        let mut p = Picker::new(layout(1, 2), cfg(false, Endgame::All), Bitfield::new(1));
        let all = bits(1, &[0]);
        p.add_bitfield(&all);
        p.add_bitfield(&all);
        let mut r = rng(0);
        let a = pick(&mut p, 1, &all, 5, &mut r);
        assert_eq!(a, vec![Block::new(0, 0), Block::new(0, 1)]);
        assert!(p.in_endgame(), "every missing block is requested");
        let b = pick(&mut p, 2, &all, 5, &mut r);
        assert_eq!(b, vec![Block::new(0, 0), Block::new(0, 1)]);
        // Block 0 from conn 1: cancel it at conn 2.
        assert_eq!(p.on_block(1, Block::new(0, 0)), new(false, vec![2]));
        assert_eq!(p.outstanding(2).collect::<Vec<_>>(), [Block::new(0, 1)]);
        // Block 1 from conn 2: cancel it at conn 1, piece complete.
        assert_eq!(p.on_block(2, Block::new(0, 1)), new(true, vec![1]));
        p.piece_verified(0);
        assert!(p.is_complete());
        assert!(!p.in_endgame());
        // Conn 1's copy of block 1 crossed the cancel: an endgame duplicate.
        assert_eq!(
            p.on_block(1, Block::new(0, 1)),
            Arrival::Duplicate { endgame: true }
        );
    }

    #[test]
    fn endgame_idle_gives_one_copy_to_idle_connections_only() {
        let mut p = Picker::new(
            one_block_pieces(2),
            cfg(false, Endgame::Idle),
            Bitfield::new(2),
        );
        let all = bits(2, &[0, 1]);
        let mut r = rng(0);
        let a = pick(&mut p, 1, &all, 2, &mut r);
        assert_eq!(a.len(), 2);
        assert!(p.in_endgame());
        // Idle conn 2 gets one of the two blocks again; conn 1 nothing more (it is busy),
        // nor conn 2 until its copy arrives.
        let b = pick(&mut p, 2, &all, 5, &mut r);
        assert_eq!(b.len(), 1);
        assert!(a.contains(&b[0]));
        assert!(pick(&mut p, 1, &all, 5, &mut r).is_empty());
        assert!(pick(&mut p, 2, &all, 5, &mut r).is_empty());
        // A third idle connection gets the other block (the least requested).
        let c = pick(&mut p, 3, &all, 5, &mut r);
        assert_eq!(c.len(), 1);
        assert_ne!(c[0], b[0]);
        assert_eq!(p.on_block(2, b[0]), new(true, vec![1]));
        p.piece_verified(b[0].piece);
        assert_eq!(p.on_block(1, b[0]), Arrival::Duplicate { endgame: true });
    }

    #[test]
    fn endgame_off_requests_each_block_once() {
        let mut p = Picker::new(layout(1, 2), cfg(false, Endgame::Off), Bitfield::new(1));
        let all = bits(1, &[0]);
        let mut r = rng(0);
        assert_eq!(pick(&mut p, 1, &all, 5, &mut r).len(), 2);
        assert!(pick(&mut p, 2, &all, 5, &mut r).is_empty());
        assert!(!p.in_endgame());
    }

    #[test]
    fn copy_in_flight_after_a_choke_is_a_non_endgame_duplicate() {
        // Conn 1 chokes us with block (0,0) in flight; we re-request it on conn 2, whose
        // copy arrives first.
        let mut p = Picker::new(layout(1, 4), cfg(false, Endgame::All), Bitfield::new(1));
        let all = bits(1, &[0]);
        let mut r = rng(0);
        assert_eq!(pick(&mut p, 1, &all, 1, &mut r), vec![Block::new(0, 0)]);
        p.release(1);
        assert_eq!(pick(&mut p, 2, &all, 1, &mut r), vec![Block::new(0, 0)]);
        assert_eq!(p.on_block(2, Block::new(0, 0)), new(false, vec![]));
        assert_eq!(
            p.on_block(1, Block::new(0, 0)),
            Arrival::Duplicate { endgame: false }
        );
    }

    #[test]
    fn an_unrequested_block_still_counts_when_it_arrives() {
        // A block whose request was released (choke) is kept when it arrives anyway.
        let mut p = Picker::new(layout(2, 2), cfg(false, Endgame::Off), Bitfield::new(2));
        assert_eq!(
            p.on_block(1, Block::new(1, 0)),
            Arrival::New {
                piece_done: false,
                cancel: vec![],
                requested_at: None
            }
        );
        p.check_invariants().unwrap();
    }

    #[test]
    fn a_failed_piece_starts_over() {
        let mut p = Picker::new(layout(1, 2), cfg(false, Endgame::Idle), Bitfield::new(1));
        let all = bits(1, &[0]);
        let mut r = rng(0);
        let a = pick(&mut p, 1, &all, 2, &mut r);
        assert_eq!(p.on_block(1, a[0]), new(false, vec![]));
        assert_eq!(p.on_block(1, a[1]), new(true, vec![]));
        // Waiting for verification: nothing to ask for, and a copy is a duplicate.
        assert!(pick(&mut p, 2, &all, 5, &mut r).is_empty());
        assert_eq!(p.on_block(2, a[0]), Arrival::Duplicate { endgame: false });
        p.piece_failed(0);
        assert!(!p.in_endgame());
        assert_eq!(pick(&mut p, 2, &all, 5, &mut r), a);
        p.check_invariants().unwrap();
    }

    #[test]
    fn a_seed_picks_nothing() {
        let mut p = Picker::new(
            one_block_pieces(3),
            cfg(true, Endgame::All),
            Bitfield::full(3),
        );
        assert!(pick(&mut p, 1, &Bitfield::full(3), 5, &mut rng(0)).is_empty());
        assert!(!p.wants_from(&Bitfield::full(3)));
        assert!(!p.in_endgame());
    }

    proptest::proptest! {
        /// Under any interleaving of picks, arrivals (requested or not, in or out of order,
        /// duplicated), releases of one request or all, and verifications that pass or
        /// fail, the free-block count matches a recount, pipelines stay within their
        /// target, the outstanding lists agree with the per-block requester lists, and a
        /// block is requested twice only in endgame.
        #[test]
        fn bookkeeping_survives_any_interleaving(
            ops in proptest::collection::vec((0u8..6, 0u64..4, 0usize..8), 1..300),
            endgame in proptest::sample::select(vec![Endgame::Off, Endgame::Idle, Endgame::All]),
            random_first in proptest::bool::ANY,
            seed in 0u64..1000,
        ) {
            // 3 pieces of 2 blocks, the last one 100 bytes past 5 blocks: 2, 2, 2 blocks.
            let l = Layout::new(5 * BLOCK_LEN as u64 + 100, 2 * BLOCK_LEN, BLOCK_LEN).unwrap();
            let c = PickerConfig { random_first, rarest_first: true, endgame };
            let mut p = Picker::new(l, c, Bitfield::new(l.pieces()));
            let remotes: Vec<Bitfield> = vec![
                Bitfield::full(3),
                bits(3, &[0, 1]),
                bits(3, &[2]),
                bits(3, &[1, 2]),
            ];
            for r in &remotes {
                p.add_bitfield(r);
            }
            let mut r = rng(seed);
            let mut done: Vec<u32> = Vec::new();
            for (op, conn, k) in ops {
                match op {
                    0 => {
                        let mut out = Vec::new();
                        p.pick(conn, &remotes[conn as usize], 3, T0, &mut r, &mut out);
                        proptest::prop_assert!(p.outstanding_len(conn) <= 3);
                        for b in out {
                            proptest::prop_assert!(remotes[conn as usize].get(b.piece));
                        }
                    }
                    1 => {
                        // A block: one outstanding there, or any block of the torrent.
                        let out: Vec<Block> = p.outstanding(conn).collect();
                        let b = if out.is_empty() {
                            let piece = (k % 3) as u32;
                            Block::new(piece, (k / 3 % 2) as u32)
                        } else {
                            out[k % out.len()]
                        };
                        if let Arrival::New { piece_done: true, .. } = p.on_block(conn, b) {
                            done.push(b.piece);
                        }
                    }
                    2 => {
                        p.release(conn);
                    }
                    3 => {
                        let out: Vec<Block> = p.outstanding(conn).collect();
                        if !out.is_empty() {
                            p.release_one(conn, out[k % out.len()]);
                        }
                    }
                    _ => {
                        if !done.is_empty() {
                            let piece = done.remove(k % done.len());
                            if op == 4 { p.piece_verified(piece) } else { p.piece_failed(piece) }
                        }
                    }
                }
                if let Err(e) = p.check_invariants() {
                    return Err(proptest::test_runner::TestCaseError::fail(e));
                }
            }
        }
    }
}
