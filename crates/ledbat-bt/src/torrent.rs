//! State shared by every connection of one torrent: the pieces we have and those in
//! progress, the connections and their choking, the storage, and the counters.
//!
//! This is the glue between the sans-IO parts ([`Picker`]: which block to ask whom for;
//! [`Choker`]: whom to upload to; [`disposition::keep_existing`]: which of two connections
//! to the same peer stays) and the connection tasks of [`crate::peer`], which call in here
//! and are woken through [`Torrent::subscribe`] when something they must act on changed
//! (a piece verified, a choke decision, a CANCEL to send, a connection to close).
//!
//! A piece is kept in memory until all its blocks arrived, then checked against its
//! SHA-1; a good piece is written to storage and announced with `have`, a bad one is
//! discarded and every peer that contributed to it is disconnected (the download goes on
//! with the others). A storage error (disk full) is fatal for the whole torrent:
//! [`Torrent::fatal`] names it, every connection closes, the verified pieces stay on disk.

use crate::bitfield::Bitfield;
pub use crate::choker::ConnId;
use crate::choker::{Candidate, Choker, ChokerConfig};
use crate::disposition::{self, ConnKind, Transport};
use crate::metainfo::Metainfo;
use crate::picker::{Arrival, Picker, PickerConfig};
use crate::storage::{piece_ok, Storage, StorageError};
use crate::wire::{BlockRef, BLOCK_LEN};
use ledbat_core::Instant;
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use std::collections::{BTreeMap, HashMap};
use std::net::SocketAddr;
use std::sync::{Arc, Mutex, MutexGuard};
use tokio::sync::watch;

struct PieceBuf {
    buf: Vec<u8>,
    contributors: Vec<ConnId>,
    /// Bytes of it received over uTP and over TCP (taken back if it fails its hash).
    utp: u64,
    tcp: u64,
}

/// Payload bytes one way and the other.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, serde::Serialize)]
pub struct Bytes {
    /// Received (kept blocks).
    pub downloaded: u64,
    /// Sent.
    pub uploaded: u64,
}

/// Totals over the torrent's lifetime.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, serde::Serialize)]
pub struct TorrentCounters {
    /// Payload bytes received in blocks that were kept.
    pub downloaded: u64,
    /// Payload bytes sent in `piece` messages.
    pub uploaded: u64,
    /// Blocks received that were not needed (endgame and crossed-choke duplicates, never
    /// requested, out of range).
    pub wasted_blocks: u64,
    /// Pieces that failed their SHA-1 check.
    pub hash_failures: u64,
    /// Pieces verified and written.
    pub pieces_verified: u64,
    /// Over uTP connections.
    pub utp: Bytes,
    /// Over TCP connections.
    pub tcp: Bytes,
}

/// How the torrent's connections behave together.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TorrentConfig {
    /// Piece picking.
    pub picker: PickerConfig,
    /// Choking.
    pub choker: ChokerConfig,
    /// At most this many connections at once; more are refused. Default 50.
    pub max_peers: usize,
    /// Seed of the random draws (first piece, rarest ties, optimistic unchokes).
    pub seed: u64,
}

impl Default for TorrentConfig {
    fn default() -> Self {
        Self {
            picker: PickerConfig::default(),
            choker: ChokerConfig::default(),
            max_peers: 50,
            seed: 0,
        }
    }
}

/// What a connection tells the torrent about itself once the handshake is done.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ConnInfo {
    /// Our peer id.
    pub ours: [u8; 20],
    /// The remote's peer id.
    pub theirs: [u8; 20],
    /// Remote address, if known.
    pub addr: Option<SocketAddr>,
    /// Transport, if known (None for in-memory pipes).
    pub transport: Option<Transport>,
    /// We dialled it.
    pub outgoing: bool,
}

/// Why a connection was refused at registration.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum Refused {
    /// The remote is ourselves (our own address came back from the tracker).
    #[error("connected to ourselves")]
    Self_,
    /// Another connection to the same peer is kept instead.
    #[error("duplicate connection to this peer; the other one is kept")]
    Duplicate,
    /// The connection limit is reached.
    #[error("connection limit ({0}) reached")]
    Full(usize),
}

/// Why the torrent closes a connection it had accepted.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Closing {
    /// It contributed to a piece that failed its hash.
    Kicked,
    /// A better connection to the same peer replaced it (module `disposition`).
    Replaced,
    /// The torrent stopped on a storage error.
    Fatal(String),
}

struct Conn {
    info: ConnInfo,
    peer_has: Bitfield,
    closing: Option<Closing>,
    peer_interested: bool,
    am_interested: bool,
    unchoked: bool,
    round: Bytes,
    last_block: Instant,
    connected_at: Instant,
    cancels: Vec<BlockRef>,
}

struct State {
    storage: Storage,
    picker: Picker,
    have_log: Vec<u32>,
    bufs: BTreeMap<u32, PieceBuf>,
    conns: BTreeMap<ConnId, Conn>,
    next_conn: ConnId,
    counters: TorrentCounters,
    choker: Choker,
    rng: ChaCha8Rng,
    fatal: Option<String>,
    max_peers: usize,
    learned: Vec<SocketAddr>,
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

/// One connection as the progress display sees it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize)]
pub struct ConnView {
    /// Transport, if known.
    pub transport: Option<Transport>,
    /// We upload to it.
    pub unchoked: bool,
    /// It wants our pieces.
    pub interested: bool,
    /// Pieces it has.
    pub pieces: u32,
}

/// One torrent's shared state; cheap to clone (an `Arc`).
#[derive(Clone)]
pub struct Torrent {
    meta: Arc<Metainfo>,
    state: Arc<Mutex<State>>,
    changes: Arc<watch::Sender<u64>>,
    epoch: tokio::time::Instant,
}

impl Torrent {
    /// A torrent over `storage` with the default settings, of which the pieces in `have`
    /// are already verified.
    pub fn new(meta: Metainfo, storage: Storage, have: Bitfield) -> Self {
        Self::with_config(meta, storage, have, TorrentConfig::default())
    }

    /// A torrent with settings.
    pub fn with_config(
        meta: Metainfo,
        storage: Storage,
        have: Bitfield,
        cfg: TorrentConfig,
    ) -> Self {
        assert_eq!(have.len(), meta.num_pieces());
        let (tx, _) = watch::channel(0);
        let picker = Picker::new(cfg.picker, meta.piece_length, meta.total_length, have);
        Self {
            meta: Arc::new(meta),
            state: Arc::new(Mutex::new(State {
                storage,
                picker,
                have_log: Vec::new(),
                bufs: BTreeMap::new(),
                conns: BTreeMap::new(),
                next_conn: 0,
                counters: TorrentCounters::default(),
                choker: Choker::new(cfg.choker),
                rng: ChaCha8Rng::seed_from_u64(cfg.seed),
                fatal: None,
                max_peers: cfg.max_peers.max(1),
                learned: Vec::new(),
            })),
            changes: Arc::new(tx),
            epoch: tokio::time::Instant::now(),
        }
    }

    fn lock(&self) -> MutexGuard<'_, State> {
        // A panic while holding the lock is a bug; poisoning is not recovered from.
        self.state.lock().expect("torrent state poisoned")
    }

    fn bump(&self) {
        self.changes.send_modify(|g| *g += 1);
    }

    /// The time since the torrent was made, as the sans-IO parts count it.
    pub fn now(&self) -> Instant {
        Instant::from_nanos(self.epoch.elapsed().as_nanos() as u64)
    }

    /// The metainfo.
    pub fn meta(&self) -> &Metainfo {
        &self.meta
    }

    /// The choking settings.
    pub fn choker_config(&self) -> ChokerConfig {
        *self.lock().choker.config()
    }

    /// Admits a connection whose handshake completed, or refuses it.
    pub fn register(&self, info: ConnInfo) -> Result<ConnId, Refused> {
        if info.ours == info.theirs {
            return Err(Refused::Self_);
        }
        let now = self.now();
        let mut s = self.lock();
        let same = s
            .conns
            .iter()
            .find(|(_, c)| c.info.theirs == info.theirs && c.closing.is_none())
            .map(|(&id, c)| (id, c.info));
        let mut replaced = false;
        if let Some((id, old)) = same {
            let kind = |i: &ConnInfo| ConnKind {
                transport: i.transport.unwrap_or(Transport::Tcp),
                outgoing: i.outgoing,
            };
            if disposition::keep_existing(kind(&old), kind(&info), &info.ours, &info.theirs) {
                return Err(Refused::Duplicate);
            }
            s.conns.get_mut(&id).expect("present").closing = Some(Closing::Replaced);
            replaced = true;
        } else if s.conns.values().filter(|c| c.closing.is_none()).count() >= s.max_peers {
            return Err(Refused::Full(s.max_peers));
        }
        s.next_conn += 1;
        let id = s.next_conn;
        let n = self.meta.num_pieces();
        let closing = s.fatal.clone().map(Closing::Fatal);
        s.conns.insert(
            id,
            Conn {
                info,
                peer_has: Bitfield::new(n),
                closing,
                peer_interested: false,
                am_interested: false,
                unchoked: false,
                round: Bytes::default(),
                last_block: now,
                connected_at: now,
                cancels: Vec::new(),
            },
        );
        drop(s);
        if replaced {
            self.bump();
        }
        Ok(id)
    }

    /// A connection ended: its requests are released and its pieces leave the counts.
    pub fn unregister(&self, conn: ConnId) {
        let mut guard = self.lock();
        let s = &mut *guard;
        if let Some(c) = s.conns.remove(&conn) {
            s.picker.remove_bitfield(&c.peer_has);
            s.picker.release(conn, None);
        }
    }

    /// Wakes when pieces are verified, choking changes, cancels are queued or connections
    /// must close.
    pub fn subscribe(&self) -> watch::Receiver<u64> {
        self.changes.subscribe()
    }

    /// A copy of the pieces we have.
    pub fn have(&self) -> Bitfield {
        self.lock().picker.have().clone()
    }

    /// Whether we have every piece.
    pub fn is_complete(&self) -> bool {
        self.lock().picker.have().is_full()
    }

    /// Bytes still missing.
    pub fn left(&self) -> u64 {
        let s = self.lock();
        let have = s.picker.have();
        have.iter_set().fold(self.meta.total_length, |left, i| {
            left - self.meta.piece_len(i) as u64
        })
    }

    /// Counters so far.
    pub fn counters(&self) -> TorrentCounters {
        self.lock().counters
    }

    /// The storage error that stopped the torrent, if any.
    pub fn fatal(&self) -> Option<String> {
        self.lock().fatal.clone()
    }

    /// The connections, for display.
    pub fn conns(&self) -> Vec<ConnView> {
        self.lock()
            .conns
            .values()
            .filter(|c| c.closing.is_none())
            .map(|c| ConnView {
                transport: c.info.transport,
                unchoked: c.unchoked,
                interested: c.peer_interested,
                pieces: c.peer_has.count(),
            })
            .collect()
    }

    /// Pieces verified since position `from` of the completion log, and the new position.
    pub fn haves_since(&self, from: usize) -> (Vec<u32>, usize) {
        let s = self.lock();
        (
            s.have_log[from.min(s.have_log.len())..].to_vec(),
            s.have_log.len(),
        )
    }

    /// Why the torrent wants `conn` closed, if it does.
    pub fn closing(&self, conn: ConnId) -> Option<Closing> {
        self.lock().conns.get(&conn).and_then(|c| c.closing.clone())
    }

    /// The peer's bitfield arrived (or `have all` / `have none`).
    pub fn on_bitfield(&self, conn: ConnId, b: Bitfield) {
        let mut guard = self.lock();
        let s = &mut *guard;
        if let Some(c) = s.conns.get_mut(&conn) {
            s.picker.remove_bitfield(&c.peer_has);
            s.picker.add_bitfield(&b);
            c.peer_has = b;
        }
    }

    /// The peer announced piece `i` (in range: the caller checked).
    pub fn on_have(&self, conn: ConnId, i: u32) {
        let mut guard = self.lock();
        let s = &mut *guard;
        if let Some(c) = s.conns.get_mut(&conn) {
            if c.peer_has.set(i) {
                s.picker.add_have(i);
            }
        }
    }

    /// Whether the peer has every piece.
    pub fn peer_is_seed(&self, conn: ConnId) -> bool {
        self.lock()
            .conns
            .get(&conn)
            .is_some_and(|c| c.peer_has.is_full())
    }

    /// Whether the peer has a piece we lack; records our interest (for anti-snubbing).
    pub fn update_interest(&self, conn: ConnId) -> bool {
        let now = self.now();
        let mut guard = self.lock();
        let s = &mut *guard;
        let Some(c) = s.conns.get_mut(&conn) else {
            return false;
        };
        let want = s.picker.wants_from(&c.peer_has);
        if want && !c.am_interested {
            c.last_block = c.last_block.max(now);
        }
        c.am_interested = want;
        want
    }

    /// The peer said it is (not) interested. An interested peer is unchoked at once when
    /// a slot is free; one that loses interest is choked, freeing its slot.
    pub fn set_peer_interested(&self, conn: ConnId, interested: bool) {
        let mut guard = self.lock();
        let s = &mut *guard;
        let unchoked = s.conns.values().filter(|c| c.unchoked).count();
        let admit = s.choker.admit(unchoked);
        if let Some(c) = s.conns.get_mut(&conn) {
            c.peer_interested = interested;
            if !interested {
                c.unchoked = false;
            } else if admit {
                c.unchoked = true;
            }
        }
    }

    /// Whether we unchoke `conn` (the connection task sends CHOKE / UNCHOKE to match).
    pub fn is_unchoked(&self, conn: ConnId) -> bool {
        self.lock().conns.get(&conn).is_some_and(|c| c.unchoked)
    }

    /// One choke round at `now` (every [`ChokerConfig::round`]).
    pub fn rechoke(&self, now: Instant) {
        let mut guard = self.lock();
        let s = &mut *guard;
        let seeding = s.picker.have().is_full();
        let cands: Vec<Candidate> = s
            .conns
            .iter()
            .filter(|(_, c)| c.closing.is_none())
            .map(|(&id, c)| Candidate {
                id,
                interested: c.peer_interested,
                downloaded: c.round.downloaded,
                uploaded: c.round.uploaded,
                snubbed: s.choker.snubbed(now, c.am_interested, c.last_block),
                connected_at: c.connected_at,
            })
            .collect();
        let unchoke = s.choker.rechoke(now, seeding, &cands, &mut s.rng);
        for (id, c) in s.conns.iter_mut() {
            c.unchoked = unchoke.contains(id);
            c.round = Bytes::default();
        }
        drop(guard);
        self.bump();
    }

    /// Picks up to `max` blocks to request from `conn`.
    pub fn pick(&self, conn: ConnId, max: usize) -> Vec<BlockRef> {
        if max == 0 {
            return Vec::new();
        }
        let mut guard = self.lock();
        let s = &mut *guard;
        let Some(c) = s.conns.get(&conn) else {
            return Vec::new();
        };
        s.picker.pick(conn, &c.peer_has, max, &mut s.rng)
    }

    /// Gives back blocks requested by `conn`: one, or all when `which` is None.
    pub fn release(&self, conn: ConnId, which: Option<BlockRef>) {
        self.lock().picker.release(conn, which);
    }

    /// CANCELs to send on `conn` (endgame copies that another connection delivered).
    pub fn take_cancels(&self, conn: ConnId) -> Vec<BlockRef> {
        self.lock()
            .conns
            .get_mut(&conn)
            .map(|c| std::mem::take(&mut c.cancels))
            .unwrap_or_default()
    }

    /// Takes a received block from `conn`; verifies and writes the piece once complete.
    /// A storage error is returned and also stops the torrent ([`Torrent::fatal`]).
    pub fn on_block(
        &self,
        conn: ConnId,
        index: u32,
        begin: u32,
        data: &[u8],
    ) -> Result<BlockOutcome, StorageError> {
        let now = self.now();
        let r = BlockRef {
            index,
            begin,
            length: data.len() as u32,
        };
        let mut guard = self.lock();
        let s = &mut *guard;
        let transport = s.conns.get_mut(&conn).and_then(|c| {
            c.last_block = now;
            c.round.downloaded += data.len() as u64;
            c.info.transport
        });
        let (piece_done, cancel) = match s.picker.on_block(conn, r) {
            Arrival::New { piece_done, cancel } => (piece_done, cancel),
            Arrival::Duplicate | Arrival::Invalid => {
                s.counters.wasted_blocks += 1;
                return Ok(BlockOutcome::Wasted);
            }
        };
        let mut wake = !cancel.is_empty();
        for other in cancel {
            if let Some(c) = s.conns.get_mut(&other) {
                c.cancels.push(r);
            }
        }
        let len = self.meta.piece_len(index) as usize;
        let pb = s.bufs.entry(index).or_insert_with(|| PieceBuf {
            buf: vec![0; len],
            contributors: Vec::new(),
            utp: 0,
            tcp: 0,
        });
        match transport {
            Some(Transport::Utp) => pb.utp += data.len() as u64,
            Some(Transport::Tcp) => pb.tcp += data.len() as u64,
            None => {}
        }
        pb.buf[begin as usize..begin as usize + data.len()].copy_from_slice(data);
        if !pb.contributors.contains(&conn) {
            pb.contributors.push(conn);
        }
        s.counters.downloaded += data.len() as u64;
        if let Some(t) = transport {
            by_transport(&mut s.counters, t).downloaded += data.len() as u64;
        }
        if !piece_done {
            drop(guard);
            if wake {
                self.bump();
            }
            return Ok(BlockOutcome::Stored);
        }
        let pb = s.bufs.remove(&index).expect("present");
        if !piece_ok(&self.meta, index, &pb.buf) {
            s.counters.hash_failures += 1;
            s.counters.downloaded -= pb.buf.len() as u64;
            s.counters.utp.downloaded -= pb.utp;
            s.counters.tcp.downloaded -= pb.tcp;
            s.picker.piece_failed(index);
            for id in &pb.contributors {
                if let Some(c) = s.conns.get_mut(id) {
                    c.closing.get_or_insert(Closing::Kicked);
                }
            }
            drop(guard);
            self.bump();
            return Ok(BlockOutcome::HashFailed {
                index,
                contributors: pb.contributors,
            });
        }
        let written = s
            .storage
            .write(index as u64 * self.meta.piece_length as u64, &pb.buf)
            .and_then(|()| {
                if s.picker.have().count() + 1 == self.meta.num_pieces() {
                    s.storage.sync()
                } else {
                    Ok(())
                }
            });
        if let Err(e) = written {
            let msg = format!("writing piece {index}: {e}");
            s.fatal = Some(msg.clone());
            for c in s.conns.values_mut() {
                c.closing = Some(Closing::Fatal(msg.clone()));
            }
            drop(guard);
            self.bump();
            return Err(e);
        }
        s.picker.piece_verified(index);
        s.have_log.push(index);
        s.counters.pieces_verified += 1;
        wake = true;
        drop(guard);
        if wake {
            self.bump();
        }
        Ok(BlockOutcome::Verified(index))
    }

    /// Reads a block we have for upload; None when the request is out of range, not a
    /// piece we have, or longer than 16 KiB.
    pub fn read_block(&self, r: BlockRef) -> Result<Option<Vec<u8>>, StorageError> {
        if !self.request_valid(r) {
            return Ok(None);
        }
        let s = self.lock();
        if !s.picker.have().get(r.index) {
            return Ok(None);
        }
        let mut buf = vec![0; r.length as usize];
        s.storage.read(
            r.index as u64 * self.meta.piece_length as u64 + r.begin as u64,
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
        self.lock().picker.have().get(index)
    }

    /// Counts `bytes` of payload sent on `conn`.
    pub fn count_upload(&self, conn: ConnId, bytes: u64) {
        let mut guard = self.lock();
        let s = &mut *guard;
        s.counters.uploaded += bytes;
        if let Some(c) = s.conns.get_mut(&conn) {
            c.round.uploaded += bytes;
            if let Some(t) = c.info.transport {
                by_transport(&mut s.counters, t).uploaded += bytes;
            }
        }
    }

    /// A peer's listening address, learned from its extended handshake (BEP 10): the
    /// owner of the sockets may dial it over the transports it prefers.
    pub fn learn(&self, addr: SocketAddr) {
        self.lock().learned.push(addr);
        self.bump();
    }

    /// The addresses learned since the last call.
    pub fn take_learned(&self) -> Vec<SocketAddr> {
        std::mem::take(&mut self.lock().learned)
    }

    /// Peers by transport among the open connections.
    pub fn transports(&self) -> HashMap<Option<Transport>, usize> {
        let mut m = HashMap::new();
        for c in self.lock().conns.values().filter(|c| c.closing.is_none()) {
            *m.entry(c.info.transport).or_default() += 1;
        }
        m
    }
}

fn by_transport(c: &mut TorrentCounters, t: Transport) -> &mut Bytes {
    match t {
        Transport::Utp => &mut c.utp,
        Transport::Tcp => &mut c.tcp,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::metainfo::create;
    use std::path::PathBuf;

    fn setup(tag: &str, len: usize) -> (PathBuf, Torrent, Vec<u8>) {
        let d = std::env::temp_dir().join(format!("ledbat-bt-tor-{tag}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&d);
        std::fs::create_dir_all(&d).unwrap();
        let data: Vec<u8> = (0..len).map(|i| (i * 7 % 256) as u8).collect();
        let f = d.join("f");
        std::fs::write(&f, &data).unwrap();
        let meta = Metainfo::from_bytes(&create(&f, 32768, None).unwrap()).unwrap();
        let dst = Storage::create(&meta, &d.join("out")).unwrap();
        let n = meta.num_pieces();
        let cfg = TorrentConfig {
            picker: PickerConfig {
                random_first: false,
                rarest_first: false,
                endgame: true,
            },
            ..TorrentConfig::default()
        };
        (
            d,
            Torrent::with_config(meta, dst, Bitfield::new(n), cfg),
            data,
        )
    }

    fn info(theirs: u8, transport: Transport, outgoing: bool) -> ConnInfo {
        ConnInfo {
            ours: [0; 20],
            theirs: [theirs; 20],
            addr: None,
            transport: Some(transport),
            outgoing,
        }
    }

    /// A connection to a seed.
    fn seed_conn(t: &Torrent, who: u8) -> ConnId {
        let c = t.register(info(who, Transport::Utp, true)).unwrap();
        t.on_bitfield(c, Bitfield::full(t.meta().num_pieces()));
        c
    }

    #[test]
    fn last_block_is_short() {
        let (d, t, _) = setup("short", 100_000);
        let c = seed_conn(&t, 1);
        let picks = t.pick(c, 100);
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
        let (d, t, data) = setup("verify", 65_536);
        let (a, b) = (seed_conn(&t, 1), seed_conn(&t, 2));
        let picks = t.pick(a, 100);
        assert_eq!(picks.len(), 4);
        let block = |r: &BlockRef| {
            let off = r.index as usize * 32768 + r.begin as usize;
            data[off..off + r.length as usize].to_vec()
        };
        assert_eq!(
            t.on_block(a, 0, 0, &block(&picks[0])).unwrap(),
            BlockOutcome::Stored
        );
        assert_eq!(
            t.on_block(a, 0, 16384, &block(&picks[1])).unwrap(),
            BlockOutcome::Verified(0)
        );
        assert!(t.has(0));
        // Piece 1: the second block corrupted, sent by conn b.
        assert_eq!(
            t.on_block(a, 1, 0, &block(&picks[2])).unwrap(),
            BlockOutcome::Stored
        );
        let mut bad = block(&picks[3]);
        bad[0] ^= 1;
        assert_eq!(
            t.on_block(b, 1, 16384, &bad).unwrap(),
            BlockOutcome::HashFailed {
                index: 1,
                contributors: vec![a, b]
            }
        );
        assert_eq!(t.closing(a), Some(Closing::Kicked));
        assert_eq!(t.closing(b), Some(Closing::Kicked));
        assert!(!t.has(1));
        assert_eq!(t.counters().hash_failures, 1);
        assert_eq!(
            t.counters().utp.downloaded,
            32768,
            "only the verified piece counts"
        );
        // The piece can be fetched again.
        let c = seed_conn(&t, 3);
        assert_eq!(t.pick(c, 100).len(), 2);
        std::fs::remove_dir_all(&d).unwrap();
    }

    #[test]
    fn duplicate_and_misaligned_blocks_are_wasted() {
        let (d, t, data) = setup("dup", 65_536);
        let c = seed_conn(&t, 1);
        t.pick(c, 1);
        assert_eq!(
            t.on_block(c, 0, 0, &data[..16384]).unwrap(),
            BlockOutcome::Stored
        );
        assert_eq!(
            t.on_block(c, 0, 0, &data[..16384]).unwrap(),
            BlockOutcome::Wasted
        );
        assert_eq!(
            t.on_block(c, 0, 100, &data[..16384]).unwrap(),
            BlockOutcome::Wasted
        );
        assert_eq!(
            t.on_block(c, 1, 0, &data[..100]).unwrap(),
            BlockOutcome::Wasted
        );
        assert_eq!(t.counters().wasted_blocks, 3);
        std::fs::remove_dir_all(&d).unwrap();
    }

    #[test]
    fn endgame_copy_queues_a_cancel_for_the_other_connection() {
        let (d, t, data) = setup("endgame", 16384);
        let (a, b) = (seed_conn(&t, 1), seed_conn(&t, 2));
        let r = t.pick(a, 5);
        assert_eq!(t.pick(b, 5), r, "endgame: the same block again");
        assert_eq!(
            t.on_block(b, 0, 0, &data).unwrap(),
            BlockOutcome::Verified(0)
        );
        assert_eq!(t.take_cancels(a), r);
        assert!(t.take_cancels(b).is_empty());
        std::fs::remove_dir_all(&d).unwrap();
    }

    #[test]
    fn requests_past_the_piece_or_over_16k_are_invalid() {
        let (d, t, _) = setup("req", 40_000);
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

    #[test]
    fn utp_connection_replaces_tcp_to_the_same_peer() {
        let (d, t, _) = setup("dup-peer", 40_000);
        let tcp = t.register(info(9, Transport::Tcp, true)).unwrap();
        let utp = t.register(info(9, Transport::Utp, false)).unwrap();
        assert_eq!(t.closing(tcp), Some(Closing::Replaced));
        assert_eq!(t.closing(utp), None);
        assert_eq!(
            t.register(info(9, Transport::Tcp, false)),
            Err(Refused::Duplicate)
        );
        let mut me = info(0, Transport::Utp, true);
        me.theirs = me.ours;
        assert_eq!(t.register(me), Err(Refused::Self_));
        std::fs::remove_dir_all(&d).unwrap();
    }

    #[test]
    fn interested_peers_fill_free_slots_at_once_and_wait_beyond() {
        let (d, t, _) = setup("slots", 40_000);
        let ids: Vec<ConnId> = (1..=7)
            .map(|i| t.register(info(i, Transport::Utp, false)).unwrap())
            .collect();
        for &c in &ids {
            t.set_peer_interested(c, true);
        }
        // 4 regular + 1 optimistic slots.
        let unchoked: Vec<bool> = ids.iter().map(|&c| t.is_unchoked(c)).collect();
        assert_eq!(unchoked, [true, true, true, true, true, false, false]);
        t.set_peer_interested(ids[0], false);
        assert!(!t.is_unchoked(ids[0]));
        t.set_peer_interested(ids[5], true);
        assert!(t.is_unchoked(ids[5]));
        std::fs::remove_dir_all(&d).unwrap();
    }

    #[test]
    fn rechoke_rewards_the_peers_that_sent_the_most() {
        let (d, t, data) = setup("titfortat", 7 * 32768);
        let ids: Vec<ConnId> = (1..=7).map(|i| seed_conn(&t, i)).collect();
        for &c in &ids {
            t.set_peer_interested(c, true);
        }
        // Conns 3..=6 (indices 2..6) each deliver one block; the others nothing.
        for &c in &ids[2..6] {
            let r = t.pick(c, 1)[0];
            let off = r.index as usize * 32768 + r.begin as usize;
            t.on_block(c, r.index, r.begin, &data[off..off + r.length as usize])
                .unwrap();
        }
        t.rechoke(t.now());
        for &c in &ids[2..6] {
            assert!(t.is_unchoked(c), "{c}");
        }
        let others = [ids[0], ids[1], ids[6]];
        assert_eq!(
            others.iter().filter(|&&c| t.is_unchoked(c)).count(),
            1,
            "one optimistic"
        );
        std::fs::remove_dir_all(&d).unwrap();
    }

    #[test]
    fn left_counts_the_missing_bytes() {
        let (d, t, data) = setup("left", 40_000);
        assert_eq!(t.left(), 40_000);
        let c = seed_conn(&t, 1);
        for r in t.pick(c, 2) {
            t.on_block(
                c,
                r.index,
                r.begin,
                &data[r.begin as usize..(r.begin + r.length) as usize],
            )
            .unwrap();
        }
        assert_eq!(t.left(), 40_000 - 32768);
        std::fs::remove_dir_all(&d).unwrap();
    }
}
