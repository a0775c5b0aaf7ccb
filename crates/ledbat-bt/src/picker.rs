//! Which blocks to request from whom: BitTorrent's piece picker (Cohen 2003, section 2.3;
//! seed 003, section 1.2) with endgame mode, sans-IO.
//!
//! [`Picker::pick`] fills a connection's free request slots, choosing each block by these
//! rules in order:
//!
//! 1. **Strict priority**: a free block of a piece already started that the peer has; among
//!    those pieces the one with the fewest free blocks (the closest to done), then the lowest
//!    index; inside it, the lowest free block.
//! 2. **Random first piece**: while we have no piece, a piece the peer has, chosen uniformly
//!    (a newcomer needs any piece soon to have something to trade).
//! 3. **Rarest first**: the piece the peer has with the fewest copies among our connected
//!    peers (counted from their bitfields and HAVEs), ties broken uniformly at random.
//! 4. **Endgame**: once every missing block is requested somewhere, a connection with no
//!    request outstanding gets one block the peer has that is not yet requested from it,
//!    the least-requested first, so the last blocks come from whoever is fastest. Only idle
//!    connections get such copies, one at a time (libtorrent's strict end-game mode): with
//!    deep pipelines at many peers the endgame starts while much of the file is still
//!    outstanding, and handing every connection every remaining block wastes a large share
//!    of the bytes (measured in `docs/swarm/README.md`). When a block arrives, [`Picker::on_block`] names the other
//!    connections it was requested from, which are sent CANCEL.
//!
//! Requests die with the connection, a CHOKE, a REJECT or a timeout ([`Picker::release`]),
//! which makes their blocks free again. A piece that fails its hash starts over
//! ([`Picker::piece_failed`]).

use crate::bitfield::Bitfield;
use crate::choker::ConnId;
use crate::wire::{BlockRef, BLOCK_LEN};
use rand::Rng;
use std::collections::BTreeMap;

/// Picker settings.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PickerConfig {
    /// Rule 2 (random first piece). Default on.
    pub random_first: bool,
    /// Rule 3 (rarest first); off means lowest index first. Default on.
    pub rarest_first: bool,
    /// Rule 4 (endgame). Default on.
    pub endgame: bool,
}

impl Default for PickerConfig {
    fn default() -> Self {
        Self {
            random_first: true,
            rarest_first: true,
            endgame: true,
        }
    }
}

/// What became of an arriving block.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Arrival {
    /// First copy: keep it. `piece_done` when it was the piece's last missing block;
    /// `cancel` lists the other connections it was also requested from.
    New {
        /// The piece has all its blocks.
        piece_done: bool,
        /// Send these CANCEL.
        cancel: Vec<ConnId>,
    },
    /// We have this block already (an endgame copy, or one that crossed a CHOKE).
    Duplicate,
    /// Not a block of a piece we lack, or misaligned, or of the wrong length.
    Invalid,
}

#[derive(Clone, Debug)]
struct Partial {
    received: Vec<bool>,
    requested: Vec<Vec<ConnId>>,
    received_count: u32,
}

impl Partial {
    fn new(blocks: u32) -> Self {
        Self {
            received: vec![false; blocks as usize],
            requested: vec![Vec::new(); blocks as usize],
            received_count: 0,
        }
    }
    fn free(&self) -> usize {
        self.received
            .iter()
            .zip(&self.requested)
            .filter(|(r, q)| !**r && q.is_empty())
            .count()
    }
    fn untouched(&self) -> bool {
        self.received_count == 0 && self.requested.iter().all(Vec::is_empty)
    }
}

/// The download side of a torrent: what we have, what is asked of whom.
#[derive(Clone, Debug)]
pub struct Picker {
    cfg: PickerConfig,
    piece_length: u32,
    total_length: u64,
    have: Bitfield,
    availability: Vec<u32>,
    partial: BTreeMap<u32, Partial>,
    /// Missing blocks requested from nobody.
    unrequested: u64,
}

impl Picker {
    /// A picker for a torrent of `total_length` bytes in pieces of `piece_length`, of which
    /// we hold `have`.
    pub fn new(cfg: PickerConfig, piece_length: u32, total_length: u64, have: Bitfield) -> Self {
        let mut p = Self {
            cfg,
            piece_length,
            total_length,
            availability: vec![0; have.len() as usize],
            have,
            partial: BTreeMap::new(),
            unrequested: 0,
        };
        p.unrequested = (0..p.have.len())
            .filter(|&i| !p.have.get(i))
            .map(|i| p.blocks_in(i) as u64)
            .sum();
        p
    }

    fn piece_len(&self, index: u32) -> u32 {
        let start = index as u64 * self.piece_length as u64;
        (self.total_length - start).min(self.piece_length as u64) as u32
    }

    fn blocks_in(&self, index: u32) -> u32 {
        self.piece_len(index).div_ceil(BLOCK_LEN)
    }

    fn block(&self, index: u32, b: u32) -> BlockRef {
        let begin = b * BLOCK_LEN;
        BlockRef {
            index,
            begin,
            length: (self.piece_len(index) - begin).min(BLOCK_LEN),
        }
    }

    /// The pieces we have.
    pub fn have(&self) -> &Bitfield {
        &self.have
    }

    /// Copies of piece `i` among connected peers.
    pub fn availability(&self, i: u32) -> u32 {
        self.availability.get(i as usize).copied().unwrap_or(0)
    }

    /// Whether every missing block is requested somewhere (endgame on).
    pub fn in_endgame(&self) -> bool {
        self.cfg.endgame && self.unrequested == 0 && !self.have.is_full()
    }

    /// A peer's bitfield joins the availability counts.
    pub fn add_bitfield(&mut self, b: &Bitfield) {
        for i in b.iter_set() {
            self.availability[i as usize] += 1;
        }
    }

    /// A peer's bitfield leaves the availability counts (it disconnected).
    pub fn remove_bitfield(&mut self, b: &Bitfield) {
        for i in b.iter_set() {
            let a = &mut self.availability[i as usize];
            *a = a.saturating_sub(1);
        }
    }

    /// A peer announced piece `i` (the caller checked that it is new for that peer).
    pub fn add_have(&mut self, i: u32) {
        if let Some(a) = self.availability.get_mut(i as usize) {
            *a += 1;
        }
    }

    /// Up to `max` new requests for `conn`, whose peer has `remote`.
    pub fn pick<R: Rng>(
        &mut self,
        conn: ConnId,
        remote: &Bitfield,
        max: usize,
        rng: &mut R,
    ) -> Vec<BlockRef> {
        let mut out = Vec::new();
        while out.len() < max {
            let Some((index, b)) = self.next_block(conn, remote, rng) else {
                break;
            };
            let blocks = self.blocks_in(index);
            let part = self
                .partial
                .entry(index)
                .or_insert_with(|| Partial::new(blocks));
            let q = &mut part.requested[b as usize];
            if q.is_empty() {
                self.unrequested -= 1;
            }
            q.push(conn);
            out.push(self.block(index, b));
        }
        out
    }

    fn next_block<R: Rng>(
        &self,
        conn: ConnId,
        remote: &Bitfield,
        rng: &mut R,
    ) -> Option<(u32, u32)> {
        // 1. Strict priority to started pieces.
        let started = self
            .partial
            .iter()
            .filter(|(i, p)| remote.get(**i) && p.free() > 0)
            .min_by_key(|(i, p)| (p.free(), **i));
        if let Some((&i, p)) = started {
            let b = (0..p.received.len()).find(|&b| !p.received[b] && p.requested[b].is_empty())?;
            return Some((i, b as u32));
        }
        let fresh = |i: &u32| !self.have.get(*i) && !self.partial.contains_key(i);
        // 2. Random first piece.
        if self.cfg.random_first && self.have.count() == 0 {
            let c: Vec<u32> = remote.iter_set().filter(fresh).collect();
            if !c.is_empty() {
                return Some((c[rng.gen_range(0..c.len())], 0));
            }
        }
        // 3. Rarest first (or lowest index).
        let mut best = Vec::new();
        let mut min = u32::MAX;
        for i in remote.iter_set().filter(fresh) {
            if !self.cfg.rarest_first {
                return Some((i, 0));
            }
            let a = self.availability[i as usize];
            if a < min {
                min = a;
                best.clear();
            }
            if a == min {
                best.push(i);
            }
        }
        if !best.is_empty() {
            return Some((best[rng.gen_range(0..best.len())], 0));
        }
        // 4. Endgame, for idle connections only.
        if !self.in_endgame() || self.has_requests(conn) {
            return None;
        }
        self.partial
            .iter()
            .filter(|(i, _)| remote.get(**i))
            .flat_map(|(&i, p)| {
                (0..p.received.len())
                    .filter(|&b| !p.received[b] && !p.requested[b].contains(&conn))
                    .map(move |b| (p.requested[b].len(), i, b as u32))
            })
            .min()
            .map(|(_, i, b)| (i, b))
    }

    /// Whether `conn` has a request outstanding.
    fn has_requests(&self, conn: ConnId) -> bool {
        self.partial
            .values()
            .any(|p| p.requested.iter().any(|q| q.contains(&conn)))
    }

    /// Forgets requests of `conn`: one block, or all of them when `which` is None.
    pub fn release(&mut self, conn: ConnId, which: Option<BlockRef>) {
        let mut emptied = Vec::new();
        for (&i, p) in self.partial.iter_mut() {
            if which.is_some_and(|r| r.index != i) {
                continue;
            }
            for (b, q) in p.requested.iter_mut().enumerate() {
                if which.is_some_and(|r| r.begin != b as u32 * BLOCK_LEN) {
                    continue;
                }
                if let Some(k) = q.iter().position(|&c| c == conn) {
                    q.remove(k);
                    if q.is_empty() && !p.received[b] {
                        self.unrequested += 1;
                    }
                }
            }
            if p.untouched() {
                emptied.push(i);
            }
        }
        for i in emptied {
            self.partial.remove(&i);
        }
    }

    /// A block arrived from `conn`.
    pub fn on_block(&mut self, conn: ConnId, r: BlockRef) -> Arrival {
        let index = r.index;
        if index >= self.have.len()
            || !r.begin.is_multiple_of(BLOCK_LEN)
            || r.begin >= self.piece_len(index)
            || self.block(index, r.begin / BLOCK_LEN).length != r.length
        {
            return Arrival::Invalid;
        }
        if self.have.get(index) {
            return Arrival::Duplicate;
        }
        let b = (r.begin / BLOCK_LEN) as usize;
        let blocks = self.blocks_in(index);
        let part = self
            .partial
            .entry(index)
            .or_insert_with(|| Partial::new(blocks));
        if part.received[b] {
            if let Some(k) = part.requested[b].iter().position(|&c| c == conn) {
                part.requested[b].remove(k);
            }
            return Arrival::Duplicate;
        }
        let requesters = std::mem::take(&mut part.requested[b]);
        if requesters.is_empty() {
            self.unrequested -= 1;
        }
        part.received[b] = true;
        part.received_count += 1;
        let piece_done = part.received_count == blocks;
        Arrival::New {
            piece_done,
            cancel: requesters.into_iter().filter(|&c| c != conn).collect(),
        }
    }

    /// Piece `index` (all blocks received) verified: it is ours.
    pub fn piece_verified(&mut self, index: u32) {
        self.partial.remove(&index);
        self.have.set(index);
    }

    /// Piece `index` (all blocks received) failed its hash: every block is missing again
    /// and requested from nobody (its blocks' requests were all answered).
    pub fn piece_failed(&mut self, index: u32) {
        if self.partial.remove(&index).is_some() {
            self.unrequested += self.blocks_in(index) as u64;
        }
    }

    /// Whether the peer has a piece we lack.
    pub fn wants_from(&self, remote: &Bitfield) -> bool {
        remote.iter_set().any(|i| !self.have.get(i))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::SeedableRng;
    use rand_chacha::ChaCha8Rng;

    fn bits(len: u32, set: &[u32]) -> Bitfield {
        let mut b = Bitfield::new(len);
        for &i in set {
            b.set(i);
        }
        b
    }

    /// `n` pieces of one block each.
    fn one_block(n: u32, cfg: PickerConfig) -> Picker {
        Picker::new(
            cfg,
            BLOCK_LEN,
            n as u64 * BLOCK_LEN as u64,
            Bitfield::new(n),
        )
    }

    fn no_random() -> PickerConfig {
        PickerConfig {
            random_first: false,
            ..PickerConfig::default()
        }
    }

    fn rng() -> ChaCha8Rng {
        ChaCha8Rng::seed_from_u64(1)
    }

    #[test]
    fn rarest_piece_comes_first() {
        // Availability: piece 0 in 3 peers, piece 1 in 1, pieces 2 and 3 in 2.
        let mut p = one_block(4, no_random());
        p.add_bitfield(&bits(4, &[0, 1, 2, 3]));
        p.add_bitfield(&bits(4, &[0, 2]));
        p.add_bitfield(&bits(4, &[0, 3]));
        let all = bits(4, &[0, 1, 2, 3]);
        let mut r = rng();
        let got: Vec<u32> = p.pick(7, &all, 4, &mut r).iter().map(|b| b.index).collect();
        assert_eq!(got[0], 1);
        assert!(got[1..3] == [2, 3] || got[1..3] == [3, 2], "{got:?}");
        assert_eq!(got[3], 0);
    }

    #[test]
    fn first_piece_is_random_then_rarest() {
        let mut seen = [0u32; 4];
        for seed in 0..200 {
            let mut p = one_block(4, PickerConfig::default());
            // Piece 3 is the rarest, but the first pick ignores rarity.
            p.add_bitfield(&bits(4, &[0, 1, 2, 3]));
            p.add_bitfield(&bits(4, &[0, 1, 2]));
            let b = p.pick(
                1,
                &bits(4, &[0, 1, 2, 3]),
                1,
                &mut ChaCha8Rng::seed_from_u64(seed),
            );
            seen[b[0].index as usize] += 1;
        }
        assert!(seen.iter().all(|&n| n > 25), "{seen:?}");
    }

    #[test]
    fn started_pieces_are_finished_first_closest_to_done_first() {
        // Pieces of 4 blocks; piece 2 has 3 blocks requested by conn 1, piece 0 has 1.
        let mut p = Picker::new(
            no_random(),
            4 * BLOCK_LEN,
            4 * 4 * BLOCK_LEN as u64,
            Bitfield::new(4),
        );
        let all = bits(4, &[0, 1, 2, 3]);
        let mut r = rng();
        let only = |i| bits(4, &[i]);
        assert_eq!(p.pick(1, &only(2), 3, &mut r).len(), 3);
        assert_eq!(p.pick(1, &only(0), 1, &mut r).len(), 1);
        let next = p.pick(2, &all, 1, &mut r)[0];
        assert_eq!((next.index, next.begin), (2, 3 * BLOCK_LEN));
        let next = p.pick(2, &all, 1, &mut r)[0];
        assert_eq!((next.index, next.begin), (0, BLOCK_LEN));
    }

    #[test]
    fn endgame_requests_twice_and_cancels_the_other() {
        let mut p = one_block(2, no_random());
        let all = bits(2, &[0, 1]);
        let mut r = rng();
        let a = p.pick(1, &all, 2, &mut r);
        assert_eq!(a.len(), 2);
        assert!(p.in_endgame());
        // Idle conn 2 gets one of the two blocks again; conn 1 nothing more (it is busy),
        // nor conn 2 until its copy arrives.
        let b = p.pick(2, &all, 5, &mut r);
        assert_eq!(b.len(), 1);
        assert!(a.contains(&b[0]));
        assert!(p.pick(1, &all, 5, &mut r).is_empty());
        assert!(p.pick(2, &all, 5, &mut r).is_empty());
        // A third idle connection gets the other block (the least requested).
        let c = p.pick(3, &all, 5, &mut r);
        assert_eq!(c.len(), 1);
        assert_ne!(c[0], b[0]);
        assert_eq!(
            p.on_block(2, b[0]),
            Arrival::New {
                piece_done: true,
                cancel: vec![1]
            }
        );
        p.piece_verified(b[0].index);
        assert_eq!(p.on_block(1, b[0]), Arrival::Duplicate);
    }

    #[test]
    fn endgame_can_be_turned_off() {
        let mut p = one_block(
            2,
            PickerConfig {
                endgame: false,
                ..no_random()
            },
        );
        let all = bits(2, &[0, 1]);
        let mut r = rng();
        p.pick(1, &all, 2, &mut r);
        assert!(p.pick(2, &all, 5, &mut r).is_empty());
    }

    #[test]
    fn released_blocks_are_picked_again() {
        let mut p = one_block(
            3,
            PickerConfig {
                endgame: false,
                ..no_random()
            },
        );
        let all = bits(3, &[0, 1, 2]);
        let mut r = rng();
        let a = p.pick(1, &all, 3, &mut r);
        p.release(1, Some(a[1]));
        assert_eq!(p.pick(2, &all, 3, &mut r), vec![a[1]]);
        p.release(1, None);
        let mut again = p.pick(3, &all, 3, &mut r);
        again.sort_by_key(|b| b.index);
        let mut want = vec![a[0], a[2]];
        want.sort_by_key(|b| b.index);
        assert_eq!(again, want);
    }

    #[test]
    fn failed_piece_starts_over() {
        let mut p = Picker::new(
            no_random(),
            2 * BLOCK_LEN,
            2 * BLOCK_LEN as u64,
            Bitfield::new(1),
        );
        let all = bits(1, &[0]);
        let mut r = rng();
        let a = p.pick(1, &all, 2, &mut r);
        assert!(matches!(
            p.on_block(1, a[0]),
            Arrival::New {
                piece_done: false,
                ..
            }
        ));
        assert!(matches!(
            p.on_block(1, a[1]),
            Arrival::New {
                piece_done: true,
                ..
            }
        ));
        p.piece_failed(0);
        assert!(!p.in_endgame());
        assert_eq!(p.pick(2, &all, 5, &mut r), a);
    }

    #[test]
    fn misaligned_or_wrong_length_blocks_are_invalid() {
        let mut p = Picker::new(no_random(), 2 * BLOCK_LEN, 40_000, Bitfield::new(2));
        let r = |index, begin, length| BlockRef {
            index,
            begin,
            length,
        };
        assert_eq!(p.on_block(1, r(0, 100, BLOCK_LEN)), Arrival::Invalid);
        assert_eq!(p.on_block(1, r(0, 0, 100)), Arrival::Invalid);
        assert_eq!(p.on_block(1, r(2, 0, BLOCK_LEN)), Arrival::Invalid);
        // The last piece is 40 000 - 32 768 = 7 232 bytes: one short block.
        assert_eq!(p.on_block(1, r(1, 0, BLOCK_LEN)), Arrival::Invalid);
        assert!(matches!(
            p.on_block(1, r(1, 0, 7_232)),
            Arrival::New {
                piece_done: true,
                ..
            }
        ));
    }
}
