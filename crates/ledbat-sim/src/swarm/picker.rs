//! Which blocks a downloader asks each uploader for: the piece picker of BitTorrent
//! (Cohen, "Incentives Build Robustness in BitTorrent", 2003, section 2.3; seed 003
//! section 1.2), with the request pipeline and endgame mode.
//!
//! For an uploader `r` that unchokes us, [`Picker::pick`] tops the requests outstanding at
//! `r` up to the pipeline depth (in blocks; 5 in seed 003 section 1.2 and in the ns-2
//! module of its chapter 5), choosing each block by these rules in order:
//!
//! 1. **Strict priority**: a block of a piece already started (some block received or
//!    requested) that `r` has; among those pieces the one with the fewest blocks neither
//!    received nor requested, then the lowest index; inside it, the lowest free block.
//! 2. **Random first piece**: while no piece is complete, a piece chosen uniformly at random
//!    among those `r` has and we lack (a newcomer needs *any* piece quickly to trade with;
//!    a rare one would take longest to get).
//! 3. **Rarest first**: a piece `r` has that we lack with the fewest copies among our
//!    connected neighbours (availability counted from their bitfields and HAVEs), ties
//!    broken uniformly at random.
//! 4. **Endgame**: when every missing block is already requested somewhere, a block `r` has
//!    that is not yet requested from `r` (the least requested first), so the last blocks come
//!    from whoever is fastest. When a block arrives, [`Picker::on_block`] names the other
//!    uploaders it was requested from, which the caller sends CANCEL; a copy that still
//!    arrives is counted as a duplicate.
//!
//! Requests outstanding at an uploader are forgotten when it chokes us or disconnects (BEP 3:
//! a choked peer's requests are discarded), which makes their blocks free again.

use super::bitfield::Bitfield;
use super::torrent::{BlockRef, Torrent};
use super::PeerId;
use rand::Rng;
use std::collections::{BTreeMap, BTreeSet};

/// Picker settings.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PickerConfig {
    /// Requests kept outstanding per uploader, in blocks.
    pub pipeline: u32,
    /// Random piece until the first piece completes (rule 2).
    pub random_first: bool,
    /// Endgame mode (rule 4).
    pub endgame: bool,
}

impl Default for PickerConfig {
    fn default() -> Self {
        PickerConfig {
            pipeline: 5,
            random_first: true,
            endgame: true,
        }
    }
}

/// What became of a received block.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum BlockOutcome {
    /// First copy of the block.
    New {
        /// The block completed its piece.
        piece_done: bool,
        /// Other uploaders the block was also requested from (send them CANCEL).
        cancel: Vec<PeerId>,
    },
    /// We already had the block: an endgame copy (`endgame`, the block had been requested
    /// from several uploaders at once), or a copy already in flight when the request was
    /// released by a CHOKE and re-requested elsewhere.
    Duplicate {
        /// The block had been requested in endgame mode.
        endgame: bool,
    },
    /// Not a block of this torrent.
    Invalid,
}

#[derive(Clone, Debug)]
struct Partial {
    received: Vec<bool>,
    requested: Vec<Vec<PeerId>>,
    received_count: u32,
}

impl Partial {
    fn new(blocks: u32) -> Self {
        Partial {
            received: vec![false; blocks as usize],
            requested: vec![Vec::new(); blocks as usize],
            received_count: 0,
        }
    }
    /// Blocks neither received nor requested.
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

/// The download side of one peer: what it has, what it asked whom for.
#[derive(Clone, Debug)]
pub struct Picker {
    torrent: Torrent,
    cfg: PickerConfig,
    have: Bitfield,
    availability: Vec<u32>,
    partial: BTreeMap<u32, Partial>,
    outstanding: BTreeMap<PeerId, Vec<BlockRef>>,
    /// Missing blocks requested from nobody.
    unrequested: u64,
    /// Blocks requested in endgame mode (to classify their duplicates).
    endgame_requested: BTreeSet<BlockRef>,
    duplicate_blocks: u64,
    duplicate_bytes: u64,
    endgame_duplicate_bytes: u64,
}

impl Picker {
    /// A picker for a peer holding `have`.
    pub fn new(torrent: Torrent, cfg: PickerConfig, have: Bitfield) -> Self {
        let unrequested = (0..torrent.pieces())
            .filter(|&p| !have.get(p))
            .map(|p| torrent.blocks_in(p) as u64)
            .sum();
        Picker {
            availability: vec![0; torrent.pieces() as usize],
            torrent,
            cfg,
            have,
            partial: BTreeMap::new(),
            outstanding: BTreeMap::new(),
            unrequested,
            endgame_requested: BTreeSet::new(),
            duplicate_blocks: 0,
            duplicate_bytes: 0,
            endgame_duplicate_bytes: 0,
        }
    }

    /// Pieces held.
    pub fn have(&self) -> &Bitfield {
        &self.have
    }
    /// Whether every piece is held.
    pub fn is_complete(&self) -> bool {
        self.have.is_full()
    }
    /// Copies of piece `p` among connected neighbours.
    pub fn availability(&self, p: u32) -> u32 {
        self.availability.get(p as usize).copied().unwrap_or(0)
    }
    /// Blocks requested from `r` and not yet received, in request order.
    pub fn outstanding(&self, r: PeerId) -> &[BlockRef] {
        self.outstanding.get(&r).map_or(&[], Vec::as_slice)
    }
    /// Whether endgame mode is on: every missing block is requested somewhere.
    pub fn in_endgame(&self) -> bool {
        self.cfg.endgame && self.unrequested == 0 && !self.is_complete()
    }
    /// Blocks received more than once.
    pub fn duplicate_blocks(&self) -> u64 {
        self.duplicate_blocks
    }
    /// Bytes of blocks received more than once.
    pub fn duplicate_bytes(&self) -> u64 {
        self.duplicate_bytes
    }
    /// The part of [`Picker::duplicate_bytes`] due to endgame requests.
    pub fn endgame_duplicate_bytes(&self) -> u64 {
        self.endgame_duplicate_bytes
    }
    /// Whether `remote` has a piece we lack.
    pub fn wants_from(&self, remote: &Bitfield) -> bool {
        self.have.lacks_any_of(remote)
    }

    /// A neighbour's bitfield joins the availability counts.
    pub fn add_bitfield(&mut self, b: &Bitfield) {
        for p in b.iter() {
            self.availability[p as usize] += 1;
        }
    }
    /// A neighbour's bitfield leaves the availability counts.
    pub fn remove_bitfield(&mut self, b: &Bitfield) {
        for p in b.iter() {
            let a = &mut self.availability[p as usize];
            *a = a.saturating_sub(1);
        }
    }
    /// A neighbour announced piece `p` (HAVE); the caller checked it was new.
    pub fn add_have(&mut self, p: u32) {
        if let Some(a) = self.availability.get_mut(p as usize) {
            *a += 1;
        }
    }

    /// Forgets every request outstanding at `r` (it choked us or left); returns them.
    pub fn release(&mut self, r: PeerId) -> Vec<BlockRef> {
        let blocks = self.outstanding.remove(&r).unwrap_or_default();
        for b in &blocks {
            self.drop_requester(*b, r);
        }
        blocks
    }

    fn drop_requester(&mut self, b: BlockRef, r: PeerId) {
        let Some(part) = self.partial.get_mut(&b.piece) else {
            return;
        };
        let q = &mut part.requested[b.block as usize];
        if let Some(i) = q.iter().position(|&x| x == r) {
            q.remove(i);
            if q.is_empty() && !part.received[b.block as usize] {
                self.unrequested += 1;
            }
        }
        if part.untouched() {
            self.partial.remove(&b.piece);
        }
    }

    /// New requests for uploader `r` (holding `remote`), topping its pipeline up.
    pub fn pick<R: Rng>(&mut self, r: PeerId, remote: &Bitfield, rng: &mut R) -> Vec<BlockRef> {
        let mut out = Vec::new();
        while (self.outstanding(r).len() as u32) < self.cfg.pipeline {
            let Some(b) = self.next_block(r, remote, rng) else {
                break;
            };
            let part = self
                .partial
                .entry(b.piece)
                .or_insert_with(|| Partial::new(self.torrent.blocks_in(b.piece)));
            let q = &mut part.requested[b.block as usize];
            if q.is_empty() {
                self.unrequested -= 1;
            } else {
                self.endgame_requested.insert(b);
            }
            q.push(r);
            self.outstanding.entry(r).or_default().push(b);
            out.push(b);
        }
        out
    }

    fn next_block<R: Rng>(&self, r: PeerId, remote: &Bitfield, rng: &mut R) -> Option<BlockRef> {
        // 1. Strict priority to started pieces.
        let started = self
            .partial
            .iter()
            .filter(|(p, part)| remote.get(**p) && part.free() > 0)
            .min_by_key(|(p, part)| (part.free(), **p));
        if let Some((&p, part)) = started {
            let i = (0..part.received.len())
                .find(|&i| !part.received[i] && part.requested[i].is_empty())?;
            return Some(BlockRef::new(p, i as u32));
        }
        let fresh = |p: &u32| !self.have.get(*p) && !self.partial.contains_key(p);
        // 2. Random first piece.
        if self.cfg.random_first && self.have.count() == 0 {
            let candidates: Vec<u32> = remote.iter().filter(fresh).collect();
            if !candidates.is_empty() {
                let p = candidates[rng.gen_range(0..candidates.len())];
                return Some(BlockRef::new(p, 0));
            }
        }
        // 3. Rarest first.
        let mut rarest = Vec::new();
        let mut min = u32::MAX;
        for p in remote.iter().filter(fresh) {
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
            return Some(BlockRef::new(p, 0));
        }
        // 4. Endgame.
        if !self.in_endgame() {
            return None;
        }
        self.partial
            .iter()
            .filter(|(p, _)| remote.get(**p))
            .flat_map(|(&p, part)| {
                (0..part.received.len())
                    .filter(|&i| !part.received[i] && !part.requested[i].contains(&r))
                    .map(move |i| (part.requested[i].len(), BlockRef::new(p, i as u32)))
            })
            .min()
            .map(|(_, b)| b)
    }

    /// A block arrived from `r`.
    pub fn on_block(&mut self, r: PeerId, b: BlockRef) -> BlockOutcome {
        let len = self.torrent.block_len(b);
        if len == 0 {
            return BlockOutcome::Invalid;
        }
        if let Some(list) = self.outstanding.get_mut(&r) {
            if let Some(i) = list.iter().position(|&x| x == b) {
                list.remove(i);
            }
        }
        let already = self.have.get(b.piece)
            || self
                .partial
                .get(&b.piece)
                .is_some_and(|part| part.received[b.block as usize]);
        if already {
            self.drop_requester(b, r);
            self.duplicate_blocks += 1;
            self.duplicate_bytes += len as u64;
            let endgame = self.endgame_requested.contains(&b);
            if endgame {
                self.endgame_duplicate_bytes += len as u64;
            }
            return BlockOutcome::Duplicate { endgame };
        }
        let blocks = self.torrent.blocks_in(b.piece);
        let part = self
            .partial
            .entry(b.piece)
            .or_insert_with(|| Partial::new(blocks));
        let requesters = std::mem::take(&mut part.requested[b.block as usize]);
        if requesters.is_empty() {
            self.unrequested -= 1;
        }
        part.received[b.block as usize] = true;
        part.received_count += 1;
        let piece_done = part.received_count == blocks;
        let cancel: Vec<PeerId> = requesters.into_iter().filter(|&x| x != r).collect();
        for other in &cancel {
            if let Some(list) = self.outstanding.get_mut(other) {
                list.retain(|&x| x != b);
            }
        }
        if piece_done {
            self.partial.remove(&b.piece);
            self.have.set(b.piece);
        }
        BlockOutcome::New { piece_done, cancel }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::swarm::torrent::BLOCK_SIZE;
    use rand::SeedableRng;
    use rand_chacha::ChaCha8Rng;

    fn bits(len: u32, set: &[u32]) -> Bitfield {
        let mut b = Bitfield::new(len);
        for &p in set {
            b.set(p);
        }
        b
    }

    /// `pieces` one-block pieces.
    fn one_block_pieces(pieces: u32) -> Torrent {
        Torrent::new(pieces as u64 * BLOCK_SIZE as u64, BLOCK_SIZE, BLOCK_SIZE).unwrap()
    }

    fn cfg(pipeline: u32, random_first: bool) -> PickerConfig {
        PickerConfig {
            pipeline,
            random_first,
            endgame: true,
        }
    }

    #[test]
    fn rarest_piece_is_requested_first() {
        // Availability: piece 0 in 3 neighbours, piece 1 in 1, pieces 2 and 3 in 2.
        let t = one_block_pieces(4);
        let mut p = Picker::new(t, cfg(1, false), Bitfield::new(4));
        p.add_bitfield(&bits(4, &[0, 1, 2, 3]));
        p.add_bitfield(&bits(4, &[0, 2]));
        p.add_bitfield(&bits(4, &[0, 3]));
        assert_eq!(
            (0..4).map(|i| p.availability(i)).collect::<Vec<_>>(),
            [3, 1, 2, 2]
        );
        let all = bits(4, &[0, 1, 2, 3]);
        let mut rng = ChaCha8Rng::seed_from_u64(1);
        // Pipeline of one: each pick returns one block; release it to pick the next rarest
        // piece without receiving (the released piece is fresh again, so receive instead).
        let first = p.pick(7, &all, &mut rng);
        assert_eq!(first, vec![BlockRef::new(1, 0)]);
        p.on_block(7, first[0]);
        let second = p.pick(7, &all, &mut rng)[0];
        assert!(second.piece == 2 || second.piece == 3, "{second:?}");
        p.on_block(7, second);
        let third = p.pick(7, &all, &mut rng)[0];
        assert_eq!(
            third.piece,
            5 - second.piece,
            "the other piece of availability 2"
        );
        p.on_block(7, third);
        assert_eq!(p.pick(7, &all, &mut rng), vec![BlockRef::new(0, 0)]);
    }

    #[test]
    fn rarest_ties_are_broken_at_random() {
        let t = one_block_pieces(4);
        let mut seen = [0u32; 4];
        for seed in 0..200 {
            let mut p = Picker::new(t, cfg(1, false), Bitfield::new(4));
            p.add_bitfield(&bits(4, &[0, 1, 2, 3]));
            let mut rng = ChaCha8Rng::seed_from_u64(seed);
            let b = p.pick(1, &bits(4, &[0, 1, 2, 3]), &mut rng)[0];
            seen[b.piece as usize] += 1;
        }
        // Each of 4 equally rare pieces: 50 expected; binomial sd ~6.1.
        assert!(seen.iter().all(|&n| (25..=75).contains(&n)), "{seen:?}");
    }

    #[test]
    fn first_piece_is_random_then_rarest_first() {
        // Piece 0 is the rarest (1 copy); pieces 1..4 have 3 copies each.
        let t = one_block_pieces(4);
        let setup = || {
            let mut p = Picker::new(t, cfg(1, true), Bitfield::new(4));
            p.add_bitfield(&bits(4, &[0, 1, 2, 3]));
            p.add_bitfield(&bits(4, &[1, 2, 3]));
            p.add_bitfield(&bits(4, &[1, 2, 3]));
            p
        };
        let all = bits(4, &[0, 1, 2, 3]);
        let mut not_rarest = 0;
        for seed in 0..100 {
            let mut p = setup();
            let mut rng = ChaCha8Rng::seed_from_u64(seed);
            let b = p.pick(1, &all, &mut rng)[0];
            if b.piece != 0 {
                not_rarest += 1;
                // After the first piece completes, the rarest (piece 0) comes next.
                assert!(matches!(
                    p.on_block(1, b),
                    BlockOutcome::New {
                        piece_done: true,
                        ..
                    }
                ));
                assert_eq!(p.pick(1, &all, &mut rng), vec![BlockRef::new(0, 0)]);
            }
        }
        // Uniform over 4 pieces: 75 of 100 expected to be other than the rarest.
        assert!((55..=95).contains(&not_rarest), "{not_rarest}");
    }

    #[test]
    fn started_pieces_are_finished_before_new_ones() {
        // Two pieces of 4 blocks; piece 1 is rarer, but piece 0 was started from peer 1.
        let t = Torrent::new(8 * BLOCK_SIZE as u64, 4 * BLOCK_SIZE, BLOCK_SIZE).unwrap();
        let mut p = Picker::new(t, cfg(2, false), Bitfield::new(2));
        p.add_bitfield(&bits(2, &[0]));
        p.add_bitfield(&bits(2, &[0]));
        p.add_bitfield(&bits(2, &[0, 1]));
        let mut rng = ChaCha8Rng::seed_from_u64(3);
        assert_eq!(
            p.pick(1, &bits(2, &[0]), &mut rng),
            vec![BlockRef::new(0, 0), BlockRef::new(0, 1)]
        );
        // Peer 2 has both; rarest would be piece 1, strict priority says piece 0.
        assert_eq!(
            p.pick(2, &bits(2, &[0, 1]), &mut rng),
            vec![BlockRef::new(0, 2), BlockRef::new(0, 3)]
        );
        // Piece 0 has no free block left: peer 3 starts piece 1.
        assert_eq!(
            p.pick(3, &bits(2, &[0, 1]), &mut rng),
            vec![BlockRef::new(1, 0), BlockRef::new(1, 1)]
        );
    }

    #[test]
    fn pipeline_depth_is_respected_and_refilled() {
        let t = Torrent::new(10 * BLOCK_SIZE as u64, 10 * BLOCK_SIZE, BLOCK_SIZE).unwrap();
        let mut p = Picker::new(t, cfg(3, false), Bitfield::new(1));
        let all = bits(1, &[0]);
        p.add_bitfield(&all);
        let mut rng = ChaCha8Rng::seed_from_u64(0);
        let first = p.pick(9, &all, &mut rng);
        assert_eq!(first.len(), 3);
        assert!(p.pick(9, &all, &mut rng).is_empty(), "pipeline full");
        p.on_block(9, first[1]);
        assert_eq!(p.pick(9, &all, &mut rng), vec![BlockRef::new(0, 3)]);
        assert_eq!(p.outstanding(9).len(), 3);
    }

    #[test]
    fn choke_releases_requests_for_others() {
        let t = Torrent::new(4 * BLOCK_SIZE as u64, 4 * BLOCK_SIZE, BLOCK_SIZE).unwrap();
        let mut p = Picker::new(t, cfg(2, false), Bitfield::new(1));
        let all = bits(1, &[0]);
        let mut rng = ChaCha8Rng::seed_from_u64(0);
        assert_eq!(p.pick(1, &all, &mut rng).len(), 2);
        assert_eq!(p.release(1).len(), 2);
        assert!(p.outstanding(1).is_empty());
        assert_eq!(
            p.pick(2, &all, &mut rng),
            vec![BlockRef::new(0, 0), BlockRef::new(0, 1)]
        );
        assert!(!p.in_endgame());
    }

    #[test]
    fn endgame_requests_duplicates_and_cancels_on_arrival() {
        // One piece of two blocks, two uploaders, pipeline 5.
        let t = Torrent::new(2 * BLOCK_SIZE as u64, 2 * BLOCK_SIZE, BLOCK_SIZE).unwrap();
        let mut p = Picker::new(t, cfg(5, false), Bitfield::new(1));
        let all = bits(1, &[0]);
        p.add_bitfield(&all);
        p.add_bitfield(&all);
        let mut rng = ChaCha8Rng::seed_from_u64(0);
        let a = p.pick(1, &all, &mut rng);
        assert_eq!(a, vec![BlockRef::new(0, 0), BlockRef::new(0, 1)]);
        assert!(p.in_endgame(), "every missing block is requested");
        let b = p.pick(2, &all, &mut rng);
        assert_eq!(b, vec![BlockRef::new(0, 0), BlockRef::new(0, 1)]);
        // Block 0 from peer 1: cancel it at peer 2.
        assert_eq!(
            p.on_block(1, BlockRef::new(0, 0)),
            BlockOutcome::New {
                piece_done: false,
                cancel: vec![2]
            }
        );
        assert_eq!(p.outstanding(2), &[BlockRef::new(0, 1)]);
        // Block 1 from peer 2: cancel it at peer 1, piece complete.
        assert_eq!(
            p.on_block(2, BlockRef::new(0, 1)),
            BlockOutcome::New {
                piece_done: true,
                cancel: vec![1]
            }
        );
        assert!(p.is_complete());
        assert!(!p.in_endgame());
        // Peer 1's copy of block 1 crossed the cancel: a counted duplicate.
        assert_eq!(
            p.on_block(1, BlockRef::new(0, 1)),
            BlockOutcome::Duplicate { endgame: true }
        );
        assert_eq!(p.duplicate_blocks(), 1);
        assert_eq!(p.duplicate_bytes(), BLOCK_SIZE as u64);
        assert_eq!(p.endgame_duplicate_bytes(), BLOCK_SIZE as u64);
    }

    #[test]
    fn copy_in_flight_after_a_choke_is_a_non_endgame_duplicate() {
        // Peer 1 chokes us with block (0,0) in flight; we re-request it from peer 2, whose
        // copy arrives first.
        let t = Torrent::new(4 * BLOCK_SIZE as u64, 4 * BLOCK_SIZE, BLOCK_SIZE).unwrap();
        let mut p = Picker::new(t, cfg(1, false), Bitfield::new(1));
        let all = bits(1, &[0]);
        let mut rng = ChaCha8Rng::seed_from_u64(0);
        assert_eq!(p.pick(1, &all, &mut rng), vec![BlockRef::new(0, 0)]);
        p.release(1);
        assert_eq!(p.pick(2, &all, &mut rng), vec![BlockRef::new(0, 0)]);
        assert!(matches!(
            p.on_block(2, BlockRef::new(0, 0)),
            BlockOutcome::New { .. }
        ));
        assert_eq!(
            p.on_block(1, BlockRef::new(0, 0)),
            BlockOutcome::Duplicate { endgame: false }
        );
        assert_eq!(p.endgame_duplicate_bytes(), 0);
        assert_eq!(p.duplicate_bytes(), BLOCK_SIZE as u64);
    }

    #[test]
    fn endgame_off_requests_each_block_once() {
        let t = Torrent::new(2 * BLOCK_SIZE as u64, 2 * BLOCK_SIZE, BLOCK_SIZE).unwrap();
        let mut c = cfg(5, false);
        c.endgame = false;
        let mut p = Picker::new(t, c, Bitfield::new(1));
        let all = bits(1, &[0]);
        let mut rng = ChaCha8Rng::seed_from_u64(0);
        assert_eq!(p.pick(1, &all, &mut rng).len(), 2);
        assert!(p.pick(2, &all, &mut rng).is_empty());
        assert!(!p.in_endgame());
    }

    #[test]
    fn invalid_and_unrequested_blocks() {
        let t = Torrent::new(3 * BLOCK_SIZE as u64, 2 * BLOCK_SIZE, BLOCK_SIZE).unwrap();
        let mut p = Picker::new(t, cfg(5, false), Bitfield::new(2));
        assert_eq!(p.on_block(1, BlockRef::new(1, 1)), BlockOutcome::Invalid);
        assert_eq!(p.on_block(1, BlockRef::new(5, 0)), BlockOutcome::Invalid);
        // A block whose request was released (choke) still counts when it arrives.
        assert_eq!(
            p.on_block(1, BlockRef::new(1, 0)),
            BlockOutcome::New {
                piece_done: true,
                cancel: vec![]
            }
        );
        assert!(p.have().get(1));
    }

    /// Missing blocks requested from nobody, counted from scratch.
    fn unrequested_brute(p: &Picker) -> u64 {
        (0..p.torrent.pieces())
            .filter(|&i| !p.have.get(i))
            .flat_map(|i| p.torrent.blocks(i))
            .filter(|b| match p.partial.get(&b.piece) {
                None => true,
                Some(part) => {
                    !part.received[b.block as usize] && part.requested[b.block as usize].is_empty()
                }
            })
            .count() as u64
    }

    proptest::proptest! {
        /// Under any interleaving of picks, arrivals (in or out of order, duplicated) and
        /// releases, the free-block count matches a recount, pipelines stay within depth,
        /// and the outstanding lists agree with the per-block requester lists.
        #[test]
        fn bookkeeping_survives_any_interleaving(
            ops in proptest::collection::vec((0u8..3, 0u32..4, 0usize..8), 1..300),
            endgame in proptest::bool::ANY,
            seed in 0u64..1000,
        ) {
            let t = Torrent::new(5 * BLOCK_SIZE as u64 + 100, 2 * BLOCK_SIZE, BLOCK_SIZE).unwrap();
            let c = PickerConfig { pipeline: 3, random_first: true, endgame };
            let mut p = Picker::new(t, c, Bitfield::new(t.pieces()));
            let remotes: Vec<Bitfield> = vec![
                Bitfield::full(3),
                bits(3, &[0, 1]),
                bits(3, &[2]),
                bits(3, &[1, 2]),
            ];
            for r in &remotes {
                p.add_bitfield(r);
            }
            let mut rng = ChaCha8Rng::seed_from_u64(seed);
            let mut delivered: Vec<(PeerId, BlockRef)> = Vec::new();
            for (op, r, k) in ops {
                match op {
                    0 => {
                        p.pick(r, &remotes[r as usize], &mut rng);
                    }
                    1 => {
                        let out = p.outstanding(r).to_vec();
                        let b = if out.is_empty() {
                            delivered.get(k % delivered.len().max(1)).map(|x| x.1)
                        } else {
                            Some(out[k % out.len()])
                        };
                        if let Some(b) = b {
                            p.on_block(r, b);
                            delivered.push((r, b));
                        }
                    }
                    _ => {
                        p.release(r);
                    }
                }
                proptest::prop_assert_eq!(p.unrequested, unrequested_brute(&p));
                for (id, list) in &p.outstanding {
                    proptest::prop_assert!(list.len() <= 3);
                    for b in list {
                        let part = &p.partial[&b.piece];
                        proptest::prop_assert!(part.requested[b.block as usize].contains(id));
                    }
                }
                for (piece, part) in &p.partial {
                    for (i, q) in part.requested.iter().enumerate() {
                        for id in q {
                            let b = BlockRef::new(*piece, i as u32);
                            proptest::prop_assert!(p.outstanding(*id).contains(&b));
                        }
                        proptest::prop_assert!(endgame || q.len() <= 1, "duplicates only in endgame");
                    }
                }
            }
        }
    }

    #[test]
    fn seed_picks_nothing() {
        let t = one_block_pieces(3);
        let mut p = Picker::new(t, cfg(5, true), Bitfield::full(3));
        let mut rng = ChaCha8Rng::seed_from_u64(0);
        assert!(p.pick(1, &Bitfield::full(3), &mut rng).is_empty());
        assert!(!p.wants_from(&Bitfield::full(3)));
    }
}
