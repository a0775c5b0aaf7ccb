//! State shared by every connection of one torrent: the sans-IO peer of
//! `ledbat-bt-proto` (what we have and want, choking, picking, each connection's protocol
//! state), the storage, the blocks of pieces not yet checked, and the wake-ups of the
//! connection tasks.
//!
//! The connection tasks of [`crate::peer`] call in here under one lock; after each call the
//! peer's events are handled (a close, a peer's listening port, an upload queue that became
//! non-empty) and every connection that got frames to send is woken. A piece is kept in
//! memory until all its blocks arrived, then checked against its SHA-1: a good piece is
//! written to storage and announced, a bad one is dropped and every connection that sent a
//! block of it is closed (the download goes on with the others). A storage error (disk full)
//! is fatal for the whole torrent: [`Torrent::fatal`] names it, every connection closes, the
//! verified pieces stay on disk.

use crate::metainfo::Metainfo;
use crate::storage::{piece_ok, Storage, StorageError};
use ledbat_bt_proto::{
    Bitfield, BlockRequest, CloseReason, ConnId, ConnInfo, ConnStats, Event, Frame, Message, Peer,
    PeerConfig, PeerStats, Received, Transport,
};
use ledbat_core::Instant;
use std::collections::BTreeMap;
use std::net::SocketAddr;
use std::sync::{Arc, Mutex, MutexGuard};
use tokio::sync::{watch, Notify};

/// Payload bytes one way and the other.
pub use ledbat_bt_proto::Bytes;

/// Totals over the torrent's lifetime.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, serde::Serialize)]
pub struct TorrentCounters {
    /// Payload bytes received in blocks that were kept.
    pub downloaded: u64,
    /// Payload bytes sent in `piece` messages.
    pub uploaded: u64,
    /// Blocks received that were not needed (endgame and crossed-choke duplicates, blocks
    /// that are not blocks of the torrent).
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

impl From<PeerStats> for TorrentCounters {
    fn from(s: PeerStats) -> Self {
        Self {
            downloaded: s.downloaded,
            uploaded: s.uploaded,
            wasted_blocks: s.duplicate_blocks + s.invalid_blocks,
            hash_failures: s.hash_failures,
            pieces_verified: s.pieces_verified,
            utp: s.utp,
            tcp: s.tcp,
        }
    }
}

/// How the torrent's connections behave: the protocol settings (their info-hash is the
/// torrent's) and the seed of the peer's random draws (first piece, rarest-first ties,
/// optimistic unchokes).
#[derive(Clone, Debug, PartialEq)]
pub struct TorrentConfig {
    /// Protocol settings.
    pub peer: PeerConfig,
    /// Seed of the random draws.
    pub seed: u64,
}

impl Default for TorrentConfig {
    /// The client's protocol settings with a fresh peer id ([`crate::new_peer_id`]).
    fn default() -> Self {
        Self {
            peer: PeerConfig {
                peer_id: crate::new_peer_id(),
                ..PeerConfig::default()
            },
            seed: 0,
        }
    }
}

/// One connection's handle on the torrent.
pub(crate) struct Link {
    pub conn: ConnId,
    pub wake: Arc<Notify>,
}

/// What a connection task learns at each turn of its loop.
pub(crate) struct Turn {
    /// The connection is to close, and why.
    pub closing: Option<CloseReason>,
    /// When the peer's next timer is due.
    pub deadline: Instant,
}

/// What a finished connection did.
pub(crate) struct Ended {
    pub peer_id: Option<[u8; 20]>,
    pub fast: bool,
    pub stats: ConnStats,
}

struct State {
    peer: Peer<Vec<u8>>,
    storage: Storage,
    /// Blocks of pieces not yet complete and checked.
    bufs: BTreeMap<u32, Vec<u8>>,
    wakers: BTreeMap<ConnId, Arc<Notify>>,
    addrs: BTreeMap<ConnId, SocketAddr>,
    next_conn: ConnId,
    fatal: Option<String>,
    learned: Vec<SocketAddr>,
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

    /// A torrent with settings (`cfg.peer` must be valid; its info-hash is set to the
    /// torrent's).
    pub fn with_config(
        meta: Metainfo,
        storage: Storage,
        have: Bitfield,
        mut cfg: TorrentConfig,
    ) -> Self {
        assert_eq!(have.len(), meta.num_pieces());
        cfg.peer.info_hash = meta.info_hash;
        let (tx, _) = watch::channel(0);
        let peer = Peer::new(cfg.peer, meta.layout(), have, Instant::ZERO, cfg.seed);
        Self {
            meta: Arc::new(meta),
            state: Arc::new(Mutex::new(State {
                peer,
                storage,
                bufs: BTreeMap::new(),
                wakers: BTreeMap::new(),
                addrs: BTreeMap::new(),
                next_conn: 0,
                fatal: None,
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

    /// The time since the torrent was made, as the sans-IO peer counts it.
    pub fn now(&self) -> Instant {
        Instant::from_nanos(self.epoch.elapsed().as_nanos() as u64)
    }

    /// The tokio instant of a sans-IO instant.
    pub(crate) fn wall(&self, t: Instant) -> tokio::time::Instant {
        self.epoch + std::time::Duration::from_nanos(t.as_nanos())
    }

    /// The metainfo.
    pub fn meta(&self) -> &Metainfo {
        &self.meta
    }

    /// The protocol settings.
    pub fn config(&self) -> PeerConfig {
        self.lock().peer.config().clone()
    }

    /// Sets the listening port told to peers in the extended handshake (BEP 10).
    pub fn set_listen_port(&self, port: Option<u16>) {
        self.lock().peer.set_listen_port(port);
    }

    /// Wakes when pieces are verified, the download completes, a peer's listening port is
    /// learned, or the torrent stops on an error.
    pub fn subscribe(&self) -> watch::Receiver<u64> {
        self.changes.subscribe()
    }

    /// A copy of the pieces we have.
    pub fn have(&self) -> Bitfield {
        self.lock().peer.have().clone()
    }

    /// Whether we have every piece.
    pub fn is_complete(&self) -> bool {
        self.lock().peer.is_complete()
    }

    /// Whether we have piece `index`.
    pub fn has(&self, index: u32) -> bool {
        self.lock().peer.have().get(index)
    }

    /// Bytes still missing.
    pub fn left(&self) -> u64 {
        self.lock().peer.left()
    }

    /// Counters so far.
    pub fn counters(&self) -> TorrentCounters {
        self.lock().peer.stats().into()
    }

    /// The storage error that stopped the torrent, if any.
    pub fn fatal(&self) -> Option<String> {
        self.lock().fatal.clone()
    }

    /// Open connections by transport (None: an in-memory pipe).
    pub fn transports(&self) -> BTreeMap<Option<Transport>, usize> {
        self.lock().peer.transports()
    }

    /// The addresses peers told as their listening ports (BEP 10) since the last call: the
    /// owner of the sockets may dial them over the transports it prefers.
    pub fn take_learned(&self) -> Vec<SocketAddr> {
        std::mem::take(&mut self.lock().learned)
    }

    /// Runs `f` on the state, then handles the peer's events and wakes the connections
    /// that have something to send.
    fn with<T>(&self, f: impl FnOnce(&mut State, Instant) -> T) -> T {
        let now = self.now();
        let mut s = self.lock();
        let out = f(&mut s, now);
        let changed = s.after();
        drop(s);
        if changed {
            self.bump();
        }
        out
    }

    /// A transport connection is up: registers it and queues our handshake.
    pub(crate) fn open(&self, info: ConnInfo, addr: Option<SocketAddr>) -> Link {
        self.with(|s, now| {
            s.next_conn += 1;
            let conn = s.next_conn;
            let wake = Arc::new(Notify::new());
            s.wakers.insert(conn, wake.clone());
            if let Some(a) = addr {
                s.addrs.insert(conn, a);
            }
            s.peer.handle_connected(now, conn, info);
            Link { conn, wake }
        })
    }

    /// The connection's next turn: frames to send are appended to `out` (encoded), then
    /// blocks to upload while less than `room` bytes wait unsent; whether it must close.
    pub(crate) fn turn(
        &self,
        conn: ConnId,
        out: &mut Vec<u8>,
        unsent: usize,
        room: usize,
    ) -> Result<Turn, StorageError> {
        self.with(|s, now| {
            let start = out.len();
            while let Some(f) = s.peer.poll_transmit(now, conn) {
                match f {
                    Frame::Handshake(h) => out.extend_from_slice(&h.encode()),
                    Frame::Message(m) => m.encode_into(out),
                }
            }
            while unsent + (out.len() - start) < room {
                let Some(r) = s.peer.poll_upload(now, conn) else {
                    break;
                };
                s.encode_block(&self.meta, r, out)?;
            }
            Ok(Turn {
                closing: s.peer.closing(conn).cloned(),
                deadline: s.peer.poll_timeout(),
            })
        })
    }

    /// The peer's handshake arrived on `conn`.
    pub(crate) fn on_handshake(&self, conn: ConnId, h: &ledbat_bt_proto::Handshake) {
        self.with(|s, now| s.peer.handle_handshake(now, conn, h));
    }

    /// A message arrived on `conn`. A storage error (writing a verified piece) is
    /// returned and also stops the torrent ([`Torrent::fatal`]).
    pub(crate) fn on_message(&self, conn: ConnId, m: Message) -> Result<(), StorageError> {
        self.with(|s, now| match s.peer.handle_message(now, conn, m) {
            Received::Nothing => Ok(()),
            Received::Block {
                block,
                data,
                piece_done,
            } => s.keep_block(&self.meta, now, block, &data, piece_done),
        })
    }

    /// Runs the peer's timers that are due (choke rounds, the rate estimate, keep-alives,
    /// timeouts); any connection task may call it, it does only what is due.
    pub(crate) fn tick(&self) {
        self.with(|s, now| s.peer.handle_timeout(now));
    }

    /// We close `conn` (a stop was requested).
    pub(crate) fn close(&self, conn: ConnId) {
        self.with(|s, now| s.peer.close(now, conn));
    }

    /// `conn` is gone: its requests are released and its pieces leave the counts. Returns
    /// what it did.
    pub(crate) fn closed(&self, conn: ConnId) -> Ended {
        self.with(|s, now| {
            let ended = Ended {
                peer_id: s.peer.remote_id(conn),
                fast: s.peer.is_fast(conn),
                stats: s.peer.conn_stats(conn).unwrap_or_default(),
            };
            s.peer.handle_closed(now, conn);
            s.wakers.remove(&conn);
            s.addrs.remove(&conn);
            ended
        })
    }
}

impl State {
    /// Handles the peer's events and wakes connections with frames to send; whether
    /// something the swarm loop watches changed.
    fn after(&mut self) -> bool {
        let mut changed = false;
        while let Some(e) = self.peer.poll_event() {
            match e {
                Event::DataReady { conn } | Event::Close { conn, .. } => self.wake(conn),
                Event::ListenPort { conn, port } => {
                    if let Some(a) = self.addrs.get(&conn) {
                        self.learned.push(SocketAddr::new(a.ip(), port));
                        changed = true;
                    }
                }
                Event::PieceCompleted { .. } | Event::Completed => changed = true,
                Event::Block { .. } => {}
            }
        }
        while let Some(conn) = self.peer.poll_dirty() {
            self.wake(conn);
        }
        changed
    }

    fn wake(&self, conn: ConnId) {
        if let Some(w) = self.wakers.get(&conn) {
            w.notify_one();
        }
    }

    /// Appends the PIECE answering `r`, read from storage.
    fn encode_block(
        &self,
        meta: &Metainfo,
        r: BlockRequest,
        out: &mut Vec<u8>,
    ) -> Result<(), StorageError> {
        let mut data = vec![0; r.length as usize];
        self.storage.read(
            r.index as u64 * meta.piece_length as u64 + r.begin as u64,
            &mut data,
        )?;
        Message::Piece {
            index: r.index,
            begin: r.begin,
            data,
        }
        .encode_into(out);
        Ok(())
    }

    /// Keeps a new block; once its piece is complete, checks it, writes it and tells the
    /// peer.
    fn keep_block(
        &mut self,
        meta: &Metainfo,
        now: Instant,
        block: ledbat_bt_proto::Block,
        data: &[u8],
        piece_done: bool,
    ) -> Result<(), StorageError> {
        let index = block.piece;
        let layout = meta.layout();
        let buf = self
            .bufs
            .entry(index)
            .or_insert_with(|| vec![0; layout.piece_len(index) as usize]);
        let begin = layout.block_offset(block) as usize;
        buf[begin..begin + data.len()].copy_from_slice(data);
        if !piece_done {
            return Ok(());
        }
        let buf = self.bufs.remove(&index).expect("present");
        if !piece_ok(meta, index, &buf) {
            self.peer.handle_piece_failed(now, index);
            return Ok(());
        }
        let last = self.peer.have().count() + 1 == meta.num_pieces();
        let written = self
            .storage
            .write(layout.piece_offset(index), &buf)
            .and_then(|()| if last { self.storage.sync() } else { Ok(()) });
        if let Err(e) = written {
            self.fatal = Some(format!("writing piece {index}: {e}"));
            for w in self.wakers.values() {
                w.notify_one();
            }
            return Err(e);
        }
        self.peer.handle_piece_verified(now, index);
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::metainfo::create;
    use ledbat_bt_proto::{Handshake, BLOCK_LEN};
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
        let mut cfg = TorrentConfig::default();
        cfg.peer.picker.random_first = false;
        cfg.peer.picker.rarest_first = false;
        (
            d,
            Torrent::with_config(meta, dst, Bitfield::new(n), cfg),
            data,
        )
    }

    /// A connection to a seed that unchokes us; returns its id.
    fn seed_conn(t: &Torrent, who: u8) -> ConnId {
        let info = ConnInfo {
            transport: Some(Transport::Utp),
            outgoing: true,
        };
        let l = t.open(info, None);
        let ih = t.meta().info_hash;
        t.on_handshake(l.conn, &Handshake::new(ih, [who; 20], true, true));
        t.on_message(l.conn, Message::HaveAll).unwrap();
        t.on_message(l.conn, Message::Unchoke).unwrap();
        l.conn
    }

    /// The requests `conn` sent, decoded from its frames.
    fn requests(t: &Torrent, conn: ConnId) -> Vec<BlockRequest> {
        let mut out = Vec::new();
        t.turn(conn, &mut out, 0, 0).unwrap();
        let mut reqs = Vec::new();
        let mut rest = &out[68..];
        while let Some(n) = ledbat_bt_proto::wire::frame_len(rest, 1 << 20).unwrap() {
            if let Message::Request(r) = Message::decode(&rest[4..n]).unwrap() {
                reqs.push(r);
            }
            rest = &rest[n..];
        }
        reqs
    }

    fn piece(data: &[u8], r: BlockRequest) -> Message {
        let off = r.index as usize * 32768 + r.begin as usize;
        Message::Piece {
            index: r.index,
            begin: r.begin,
            data: data[off..off + r.length as usize].to_vec(),
        }
    }

    #[test]
    fn good_pieces_are_written_and_bad_ones_close_their_senders() {
        let (d, t, data) = setup("verify", 65_536);
        let a = seed_conn(&t, 1);
        let reqs = requests(&t, a);
        assert_eq!(reqs.len(), 4);
        let b = seed_conn(&t, 2);
        for &r in &reqs[..3] {
            t.on_message(a, piece(&data, r)).unwrap();
        }
        assert!(t.has(0));
        // Piece 1's second block comes corrupted from connection b.
        let Message::Piece {
            index,
            begin,
            mut data,
        } = piece(&data, reqs[3])
        else {
            unreachable!()
        };
        data[0] ^= 1;
        t.on_message(b, Message::Piece { index, begin, data })
            .unwrap();
        assert!(!t.has(1));
        let c = t.counters();
        assert_eq!((c.hash_failures, c.pieces_verified), (1, 1));
        assert_eq!(c.utp.downloaded, 32768, "only the verified piece counts");
        assert_eq!(t.left(), 32768);
        let mut out = Vec::new();
        for conn in [a, b] {
            let turn = t.turn(conn, &mut out, 0, 0).unwrap();
            assert_eq!(turn.closing, Some(CloseReason::HashFailed(1)));
        }
        // Verified data is on disk.
        let st = Storage::open_existing(t.meta(), &d.join("out")).unwrap();
        assert_eq!(st.read_piece(t.meta(), 0).unwrap(), data_piece(&d, 0));
        std::fs::remove_dir_all(&d).unwrap();
    }

    fn data_piece(d: &std::path::Path, i: usize) -> Vec<u8> {
        let all = std::fs::read(d.join("f")).unwrap();
        all[i * 32768..((i + 1) * 32768).min(all.len())].to_vec()
    }

    #[test]
    fn uploads_fill_the_buffer_up_to_the_room_given() {
        let d = std::env::temp_dir().join(format!("ledbat-bt-tor-up-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&d);
        std::fs::create_dir_all(&d).unwrap();
        let f = d.join("f");
        std::fs::write(&f, vec![5u8; 100_000]).unwrap();
        let meta = Metainfo::from_bytes(&create(&f, 32768, None).unwrap()).unwrap();
        let st = Storage::open_existing(&meta, &f).unwrap();
        let have = st.verify_all(&meta).unwrap();
        let t = Torrent::new(meta, st, have);
        let info = ConnInfo {
            transport: Some(Transport::Tcp),
            outgoing: false,
        };
        let l = t.open(info, None);
        let ih = t.meta().info_hash;
        t.on_handshake(l.conn, &Handshake::new(ih, [9; 20], true, true));
        t.on_message(l.conn, Message::HaveNone).unwrap();
        t.on_message(l.conn, Message::Interested).unwrap();
        for k in 0..4 {
            let r = BlockRequest {
                index: k / 2,
                begin: (k % 2) * BLOCK_LEN,
                length: BLOCK_LEN,
            };
            t.on_message(l.conn, Message::Request(r)).unwrap();
        }
        // Room for 20,000 bytes: the control frames and one block go out (a block is
        // 16,397 bytes framed), then another while less than 20,000 bytes wait.
        let mut out = Vec::new();
        t.turn(l.conn, &mut out, 0, 20_000).unwrap();
        let control = out.len() - 2 * 16_397;
        assert!((0..3_603).contains(&control), "{control}");
        let mut out = Vec::new();
        t.turn(l.conn, &mut out, 0, 20_000).unwrap();
        assert_eq!(out.len(), 2 * 16_397, "two blocks, nothing else");
        assert_eq!(t.counters().tcp.uploaded, 4 * BLOCK_LEN as u64);
        std::fs::remove_dir_all(&d).unwrap();
    }
}
