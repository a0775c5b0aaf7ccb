//! State shared by every connection of one torrent: the pieces we have, the pieces in
//! progress (block by block), the storage, and the counters.
//!
//! Piece selection: pieces already in progress first (to finish them), then the lowest
//! missing piece the peer has. Each block is requested from at most one connection at a
//! time; a connection that closes or is choked gives its blocks back. A piece is kept in
//! memory until all its blocks arrived, then checked against its SHA-1; a good piece is
//! written to storage and announced with `have`, a bad one is discarded and every peer that
//! contributed to it is disconnected (the download goes on with the other peers).

use crate::bitfield::Bitfield;
use crate::metainfo::Metainfo;
use crate::storage::{piece_ok, Storage, StorageError};
use crate::wire::{BlockRef, BLOCK_LEN};
use std::collections::{BTreeMap, HashSet};
use std::sync::{Arc, Mutex, MutexGuard};
use tokio::sync::watch;

/// Identifies one connection inside a torrent.
pub type ConnId = u64;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Block {
    Free,
    Requested(ConnId),
    Received,
}

struct Partial {
    buf: Vec<u8>,
    blocks: Vec<Block>,
    received: u32,
    contributors: Vec<ConnId>,
}

/// Totals over the torrent's lifetime.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, serde::Serialize)]
pub struct TorrentCounters {
    /// Payload bytes received in blocks that were kept.
    pub downloaded: u64,
    /// Payload bytes sent in `piece` messages.
    pub uploaded: u64,
    /// Blocks received that were not needed (duplicates, never requested, out of range).
    pub wasted_blocks: u64,
    /// Pieces that failed their SHA-1 check.
    pub hash_failures: u64,
    /// Pieces verified and written.
    pub pieces_verified: u64,
}

struct State {
    storage: Storage,
    have: Bitfield,
    have_log: Vec<u32>,
    partial: BTreeMap<u32, Partial>,
    kicked: HashSet<ConnId>,
    next_conn: ConnId,
    counters: TorrentCounters,
}

/// What became of a received block.
#[derive(Debug, PartialEq, Eq)]
pub enum BlockOutcome {
    /// Not needed; dropped.
    Wasted,
    /// Kept; the piece is still incomplete.
    Stored,
    /// Completed piece `index`, which verified and was written.
    Verified(u32),
    /// Completed piece `index`, which failed its hash; the listed connections are refused.
    HashFailed {
        /// The piece.
        index: u32,
        /// Every connection that sent a block of it.
        contributors: Vec<ConnId>,
    },
}

/// One torrent's shared state; cheap to clone (an `Arc`).
#[derive(Clone)]
pub struct Torrent {
    meta: Arc<Metainfo>,
    state: Arc<Mutex<State>>,
    changes: Arc<watch::Sender<u64>>,
}

impl Torrent {
    /// A torrent over `storage`, of which the pieces in `have` are already verified.
    pub fn new(meta: Metainfo, storage: Storage, have: Bitfield) -> Self {
        assert_eq!(have.len(), meta.num_pieces());
        let (tx, _) = watch::channel(0);
        Self {
            meta: Arc::new(meta),
            state: Arc::new(Mutex::new(State {
                storage,
                have,
                have_log: Vec::new(),
                partial: BTreeMap::new(),
                kicked: HashSet::new(),
                next_conn: 0,
                counters: TorrentCounters::default(),
            })),
            changes: Arc::new(tx),
        }
    }

    fn lock(&self) -> MutexGuard<'_, State> {
        // A panic while holding the lock is a bug; poisoning is not recovered from.
        self.state.lock().expect("torrent state poisoned")
    }

    fn bump(&self) {
        self.changes.send_modify(|g| *g += 1);
    }

    /// The metainfo.
    pub fn meta(&self) -> &Metainfo {
        &self.meta
    }

    /// A new connection id.
    pub fn register(&self) -> ConnId {
        let mut s = self.lock();
        s.next_conn += 1;
        s.next_conn
    }

    /// Wakes when pieces are verified or peers are refused.
    pub fn subscribe(&self) -> watch::Receiver<u64> {
        self.changes.subscribe()
    }

    /// A copy of the pieces we have.
    pub fn have(&self) -> Bitfield {
        self.lock().have.clone()
    }

    /// Whether we have every piece.
    pub fn is_complete(&self) -> bool {
        self.lock().have.is_full()
    }

    /// Counters so far.
    pub fn counters(&self) -> TorrentCounters {
        self.lock().counters
    }

    /// Pieces verified since position `from` of the completion log, and the new position.
    pub fn haves_since(&self, from: usize) -> (Vec<u32>, usize) {
        let s = self.lock();
        (
            s.have_log[from.min(s.have_log.len())..].to_vec(),
            s.have_log.len(),
        )
    }

    /// Whether `conn` has been refused (it sent data for a piece that failed its hash).
    pub fn is_kicked(&self, conn: ConnId) -> bool {
        self.lock().kicked.contains(&conn)
    }

    /// Whether the peer has a piece we lack.
    pub fn wants_from(&self, peer_has: &Bitfield) -> bool {
        let s = self.lock();
        peer_has.iter_set().any(|i| !s.have.get(i))
    }

    /// Picks up to `max` blocks to request from `conn`, whose peer has `peer_has`.
    pub fn pick(&self, conn: ConnId, peer_has: &Bitfield, max: usize) -> Vec<BlockRef> {
        let mut out = Vec::new();
        if max == 0 {
            return out;
        }
        let meta = &self.meta;
        let mut s = self.lock();
        // Finish pieces in progress first.
        for (&index, p) in s.partial.iter_mut() {
            if !peer_has.get(index) {
                continue;
            }
            for (b, st) in p.blocks.iter_mut().enumerate() {
                if *st == Block::Free {
                    *st = Block::Requested(conn);
                    out.push(block_ref(meta, index, b as u32));
                    if out.len() == max {
                        return out;
                    }
                }
            }
        }
        // Then open new pieces, lowest index first.
        let candidates: Vec<u32> = peer_has
            .iter_set()
            .filter(|&i| !s.have.get(i) && !s.partial.contains_key(&i))
            .collect();
        for index in candidates {
            let len = meta.piece_len(index);
            let nblocks = len.div_ceil(BLOCK_LEN) as usize;
            let mut p = Partial {
                buf: vec![0; len as usize],
                blocks: vec![Block::Free; nblocks],
                received: 0,
                contributors: Vec::new(),
            };
            for b in 0..nblocks {
                if out.len() == max {
                    break;
                }
                p.blocks[b] = Block::Requested(conn);
                out.push(block_ref(meta, index, b as u32));
            }
            s.partial.insert(index, p);
            if out.len() == max {
                break;
            }
        }
        out
    }

    /// Gives back blocks requested by `conn`: one, or all when `which` is None.
    pub fn release(&self, conn: ConnId, which: Option<BlockRef>) {
        let mut s = self.lock();
        for (&index, p) in s.partial.iter_mut() {
            for (b, st) in p.blocks.iter_mut().enumerate() {
                if *st == Block::Requested(conn) {
                    let matches = match which {
                        None => true,
                        Some(r) => r.index == index && r.begin == b as u32 * BLOCK_LEN,
                    };
                    if matches {
                        *st = Block::Free;
                    }
                }
            }
        }
    }

    /// Takes a received block from `conn`; verifies and writes the piece once complete.
    pub fn on_block(
        &self,
        conn: ConnId,
        index: u32,
        begin: u32,
        data: &[u8],
    ) -> Result<BlockOutcome, StorageError> {
        let meta = &self.meta;
        let mut guard = self.lock();
        let s = &mut *guard;
        let Some(p) = s.partial.get_mut(&index) else {
            s.counters.wasted_blocks += 1;
            return Ok(BlockOutcome::Wasted);
        };
        let b = begin / BLOCK_LEN;
        let fits = begin & (BLOCK_LEN - 1) == 0
            && (b as usize) < p.blocks.len()
            && block_ref(meta, index, b).length as usize == data.len();
        if !fits || p.blocks[b as usize] == Block::Received {
            s.counters.wasted_blocks += 1;
            return Ok(BlockOutcome::Wasted);
        }
        // A block that was not requested from this peer (or was released on choke) is
        // still taken if it is missing: the data is checked by the piece hash anyway.
        p.blocks[b as usize] = Block::Received;
        p.received += 1;
        p.buf[begin as usize..begin as usize + data.len()].copy_from_slice(data);
        if !p.contributors.contains(&conn) {
            p.contributors.push(conn);
        }
        s.counters.downloaded += data.len() as u64;
        if p.received as usize != p.blocks.len() {
            return Ok(BlockOutcome::Stored);
        }
        let p = s.partial.remove(&index).expect("present");
        if !piece_ok(meta, index, &p.buf) {
            s.counters.hash_failures += 1;
            s.counters.downloaded -= p.buf.len() as u64;
            s.kicked.extend(p.contributors.iter().copied());
            // Other connections' requests for this piece are void; they are dropped.
            drop(guard);
            self.bump();
            return Ok(BlockOutcome::HashFailed {
                index,
                contributors: p.contributors,
            });
        }
        s.storage
            .write(index as u64 * meta.piece_length as u64, &p.buf)?;
        s.have.set(index);
        s.have_log.push(index);
        s.counters.pieces_verified += 1;
        if s.have.is_full() {
            s.storage.sync()?;
        }
        drop(guard);
        self.bump();
        Ok(BlockOutcome::Verified(index))
    }

    /// Reads a block we have for upload; None when the request is out of range, not a
    /// piece we have, or longer than 16 KiB.
    pub fn read_block(&self, r: BlockRef) -> Result<Option<Vec<u8>>, StorageError> {
        let meta = &self.meta;
        if !self.request_valid(r) {
            return Ok(None);
        }
        let s = self.lock();
        if !s.have.get(r.index) {
            return Ok(None);
        }
        let mut buf = vec![0; r.length as usize];
        s.storage.read(
            r.index as u64 * meta.piece_length as u64 + r.begin as u64,
            &mut buf,
        )?;
        Ok(Some(buf))
    }

    /// Whether a request lies inside a piece and is 1..=16 KiB long.
    pub fn request_valid(&self, r: BlockRef) -> bool {
        r.index < self.meta.num_pieces()
            && r.length > 0
            && r.length <= BLOCK_LEN
            && r.begin as u64 + r.length as u64 <= self.meta.piece_len(r.index) as u64
    }

    /// Whether we have piece `index`.
    pub fn has(&self, index: u32) -> bool {
        self.lock().have.get(index)
    }

    /// Adds to the upload counter.
    pub fn count_upload(&self, bytes: u64) {
        self.lock().counters.uploaded += bytes;
    }
}

fn block_ref(meta: &Metainfo, index: u32, block: u32) -> BlockRef {
    let begin = block * BLOCK_LEN;
    BlockRef {
        index,
        begin,
        length: (meta.piece_len(index) - begin).min(BLOCK_LEN),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::metainfo::create;
    use std::path::PathBuf;

    fn setup(tag: &str, len: usize) -> (PathBuf, Torrent, Storage, Vec<u8>) {
        let d = std::env::temp_dir().join(format!("ledbat-bt-tor-{tag}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&d);
        std::fs::create_dir_all(&d).unwrap();
        let data: Vec<u8> = (0..len).map(|i| (i * 7 % 256) as u8).collect();
        let f = d.join("f");
        std::fs::write(&f, &data).unwrap();
        let meta = Metainfo::from_bytes(&create(&f, 32768).unwrap()).unwrap();
        let seed = Storage::open_existing(&meta, &f).unwrap();
        let dst = Storage::create(&meta, &d.join("out")).unwrap();
        let n = meta.num_pieces();
        (d, Torrent::new(meta, dst, Bitfield::new(n)), seed, data)
    }

    #[test]
    fn pick_finishes_pieces_in_progress_before_opening_new_ones() {
        let (d, t, _, _) = setup("pick", 100_000);
        let all = Bitfield::full(t.meta().num_pieces());
        let a = t.pick(1, &all, 1);
        assert_eq!((a[0].index, a[0].begin), (0, 0));
        let b = t.pick(2, &all, 2);
        assert_eq!(
            b.iter().map(|r| (r.index, r.begin)).collect::<Vec<_>>(),
            vec![(0, 16384), (1, 0)]
        );
        t.release(1, None);
        let c = t.pick(3, &all, 1);
        assert_eq!((c[0].index, c[0].begin), (0, 0));
        std::fs::remove_dir_all(&d).unwrap();
    }

    #[test]
    fn last_block_is_short() {
        let (d, t, _, _) = setup("short", 100_000);
        let all = Bitfield::full(t.meta().num_pieces());
        let picks = t.pick(1, &all, 100);
        assert_eq!(picks.len(), 7);
        let last = picks.last().unwrap();
        assert_eq!(
            (last.index, last.begin, last.length),
            (3, 0, 100_000 - 3 * 32768)
        );
        std::fs::remove_dir_all(&d).unwrap();
    }

    #[test]
    fn good_blocks_verify_and_bad_ones_kick_contributors() {
        let (d, t, seed, data) = setup("verify", 65_536);
        let all = Bitfield::full(2);
        let picks = t.pick(7, &all, 100);
        assert_eq!(picks.len(), 4);
        let block = |r: &BlockRef| {
            let off = r.index as usize * 32768 + r.begin as usize;
            data[off..off + r.length as usize].to_vec()
        };
        assert_eq!(
            t.on_block(7, 0, 0, &block(&picks[0])).unwrap(),
            BlockOutcome::Stored
        );
        assert_eq!(
            t.on_block(7, 0, 16384, &block(&picks[1])).unwrap(),
            BlockOutcome::Verified(0)
        );
        assert!(t.has(0));
        // Piece 1: second block corrupted by peer 8.
        assert_eq!(
            t.on_block(7, 1, 0, &block(&picks[2])).unwrap(),
            BlockOutcome::Stored
        );
        let mut bad = block(&picks[3]);
        bad[0] ^= 1;
        assert_eq!(
            t.on_block(8, 1, 16384, &bad).unwrap(),
            BlockOutcome::HashFailed {
                index: 1,
                contributors: vec![7, 8]
            }
        );
        assert!(t.is_kicked(8) && t.is_kicked(7));
        assert!(!t.has(1));
        assert_eq!(t.counters().hash_failures, 1);
        // The piece can be fetched again.
        assert_eq!(t.pick(9, &all, 100).len(), 2);
        drop(seed);
        std::fs::remove_dir_all(&d).unwrap();
    }

    #[test]
    fn duplicate_and_misaligned_blocks_are_wasted() {
        let (d, t, _, data) = setup("dup", 65_536);
        let all = Bitfield::full(2);
        t.pick(1, &all, 1);
        assert_eq!(
            t.on_block(1, 0, 0, &data[..16384]).unwrap(),
            BlockOutcome::Stored
        );
        assert_eq!(
            t.on_block(1, 0, 0, &data[..16384]).unwrap(),
            BlockOutcome::Wasted
        );
        assert_eq!(
            t.on_block(1, 0, 100, &data[..16384]).unwrap(),
            BlockOutcome::Wasted
        );
        assert_eq!(
            t.on_block(1, 1, 0, &data[..16384]).unwrap(),
            BlockOutcome::Wasted
        );
        assert_eq!(t.counters().wasted_blocks, 3);
        std::fs::remove_dir_all(&d).unwrap();
    }

    #[test]
    fn requests_past_the_piece_or_over_16k_are_invalid() {
        let (d, t, _, _) = setup("req", 40_000);
        let r = |index, begin, length| BlockRef {
            index,
            begin,
            length,
        };
        assert!(t.request_valid(r(0, 16384, 16384)));
        assert!(!t.request_valid(r(0, 0, 16385)));
        assert!(!t.request_valid(r(1, 0, 16384)));
        assert!(t.request_valid(r(1, 0, 40_000 - 32768)));
        assert!(!t.request_valid(r(2, 0, 1)));
        assert!(!t.request_valid(r(0, 0, 0)));
        std::fs::remove_dir_all(&d).unwrap();
    }
}
