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
use std::net::{IpAddr, SocketAddr};
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
/// torrent's), the resource limits, and the seed of the peer's random draws (first piece,
/// rarest-first ties, optimistic unchokes).
#[derive(Clone, Debug, PartialEq)]
pub struct TorrentConfig {
    /// Protocol settings (among them two limits: `max_connections`, connections per
    /// torrent, and `max_queued_requests`, a peer's requests queued for upload).
    pub peer: PeerConfig,
    /// The limits the client adds around the protocol.
    pub limits: Limits,
    /// Seed of the random draws.
    pub seed: u64,
}

/// Resource limits against hostile peers, with the bans (docs/attack-swarm.md). What a
/// limit turns away is counted ([`LimitCounters`]), never an error of the torrent.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize)]
pub struct Limits {
    /// Incoming connections whose BitTorrent handshake has not arrived yet, at most, and
    /// [`MAX_HALF_OPEN_PER_ADDRESS`] from one address; more are closed at once. Default 16:
    /// a slowloris peer holding connections open without a handshake ties up two places,
    /// not every descriptor (each lasts at most the handshake timeout, 10 s). Connections
    /// we dial are not counted: a slowloris peer must not keep us from dialling (the
    /// attacked swarm's first run: with one limit for both, a newcomer could not connect).
    pub max_half_open: usize,
    /// Bytes encoded for one connection and not yet taken by its transport, at most; a
    /// connection over it is closed. Default 1 MiB: uploads are read from storage only
    /// below 64 KiB unsent, so only control messages pile up past that, and a peer that
    /// sends requests but never reads (each refused with a 17-byte REJECT) grew this
    /// buffer by hundreds of megabytes before the limit.
    pub max_buffered: usize,
    /// An address is banned (its connections refused, never dialled) at this many pieces
    /// that failed their hash with it as the only sender of their blocks. Default 2: a
    /// failure with one sender is proof, but one corrupted block from a faulty disk or
    /// memory is forgiven once; each failure costs one piece of download. Pieces with
    /// several senders do not count (they cannot tell who lied); their senders are closed.
    pub ban_after: u32,
}

impl Default for Limits {
    fn default() -> Self {
        Self {
            max_half_open: 16,
            max_buffered: 1 << 20,
            ban_after: 2,
        }
    }
}

/// Incoming connections from one address waiting for their handshake, at most.
pub const MAX_HALF_OPEN_PER_ADDRESS: usize = 2;

/// Addresses whose hash failures are remembered, at most (the table is emptied of those
/// not banned when full); banned addresses are kept up to the same number.
pub const MAX_REMEMBERED_ADDRESSES: usize = 4096;

/// What the limits turned away.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, serde::Serialize)]
pub struct LimitCounters {
    /// Connections refused at the connection limit (`max_connections`).
    pub connections: u64,
    /// Connections closed because `max_half_open` were waiting for a handshake.
    pub half_open: u64,
    /// Requests refused because the requester's queue was full (`max_queued_requests`).
    pub requests: u64,
    /// Connections closed for more than `max_buffered` bytes unsent.
    pub buffered: u64,
    /// Connections from banned addresses refused.
    pub banned: u64,
}

/// The limits in force and what they turned away, for reports.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
pub struct LimitsReport {
    /// Connections per torrent.
    pub max_connections: Option<usize>,
    /// A peer's requests queued for upload.
    pub max_requests_per_peer: usize,
    /// The client's own limits and ban bound.
    #[serde(flatten)]
    pub limits: Limits,
    /// What they turned away.
    pub exceeded: LimitCounters,
    /// Addresses banned, in the order they were.
    pub banned: Vec<std::net::IpAddr>,
}

/// Why the torrent refused a connection before its handshake.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
pub enum Refusal {
    /// Its address is banned.
    #[error("address banned after pieces that failed their hash")]
    Banned,
    /// `max_half_open` connections wait for their handshake.
    #[error("{0} connections already wait for their handshake")]
    HalfOpen(usize),
    /// [`MAX_HALF_OPEN_PER_ADDRESS`] connections from this address wait for their handshake.
    #[error("{MAX_HALF_OPEN_PER_ADDRESS} connections from {0} already wait for their handshake")]
    HalfOpenFrom(std::net::IpAddr),
}

impl Default for TorrentConfig {
    /// The client's protocol settings with a fresh peer id ([`crate::new_peer_id`]).
    fn default() -> Self {
        Self {
            peer: PeerConfig {
                peer_id: crate::new_peer_id(),
                ..PeerConfig::default()
            },
            limits: Limits::default(),
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
    limits: Limits,
    /// Incoming connections whose handshake has not arrived, with their address.
    half_open: BTreeMap<ConnId, Option<IpAddr>>,
    /// Pieces failed with each address as their only sender.
    strikes: std::collections::HashMap<IpAddr, u32>,
    banned: Vec<IpAddr>,
    exceeded: LimitCounters,
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
                limits: cfg.limits,
                half_open: Default::default(),
                strikes: Default::default(),
                banned: Vec::new(),
                exceeded: LimitCounters::default(),
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

    /// A transport connection is up: registers it and queues our handshake, unless its
    /// address is banned or too many connections wait for their handshake.
    pub(crate) fn open(&self, info: ConnInfo, addr: Option<SocketAddr>) -> Result<Link, Refusal> {
        self.with(|s, now| {
            if addr.is_some_and(|a| s.banned.contains(&a.ip())) {
                s.exceeded.banned += 1;
                return Err(Refusal::Banned);
            }
            let ip = addr.map(|a| a.ip());
            if !info.outgoing {
                let same = s
                    .half_open
                    .values()
                    .filter(|&&a| a.is_some() && a == ip)
                    .count();
                if s.half_open.len() >= s.limits.max_half_open {
                    s.exceeded.half_open += 1;
                    return Err(Refusal::HalfOpen(s.limits.max_half_open));
                }
                if let Some(ip) = ip.filter(|_| same >= MAX_HALF_OPEN_PER_ADDRESS) {
                    s.exceeded.half_open += 1;
                    return Err(Refusal::HalfOpenFrom(ip));
                }
            }
            s.next_conn += 1;
            let conn = s.next_conn;
            let wake = Arc::new(Notify::new());
            s.wakers.insert(conn, wake.clone());
            if let Some(a) = addr {
                s.addrs.insert(conn, a);
            }
            s.peer.handle_connected(now, conn, info);
            if !info.outgoing {
                s.half_open.insert(conn, ip);
            }
            Ok(Link { conn, wake })
        })
    }

    /// Whether connections from `ip` are refused (and it is never dialled).
    pub fn is_banned(&self, ip: IpAddr) -> bool {
        self.lock().banned.contains(&ip)
    }

    /// The most bytes a connection may leave unsent ([`Limits::max_buffered`]).
    pub(crate) fn max_buffered(&self) -> usize {
        self.lock().limits.max_buffered
    }

    /// A connection went over [`Limits::max_buffered`] and is closed.
    pub(crate) fn count_over_buffered(&self) {
        self.lock().exceeded.buffered += 1;
    }

    /// The limits in force and what they turned away.
    pub fn limits(&self) -> LimitsReport {
        let s = self.lock();
        let cfg = s.peer.config();
        LimitsReport {
            max_connections: cfg.max_connections,
            max_requests_per_peer: cfg.max_queued_requests,
            limits: s.limits,
            exceeded: LimitCounters {
                requests: s.peer.stats().refused_requests,
                ..s.exceeded
            },
            banned: s.banned.clone(),
        }
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
        self.with(|s, now| {
            s.half_open.remove(&conn);
            s.peer.handle_handshake(now, conn, h)
        });
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
            s.half_open.remove(&conn);
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
                Event::Close { conn, reason } => {
                    if matches!(reason, CloseReason::Full(_)) {
                        self.exceeded.connections += 1;
                    }
                    self.wake(conn);
                }
                Event::DataReady { conn } => self.wake(conn),
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

    /// `ip` alone sent a piece that failed its hash; bans it at [`Limits::ban_after`].
    /// Both tables stay within [`MAX_REMEMBERED_ADDRESSES`].
    fn strike(&mut self, ip: IpAddr) {
        if self.banned.contains(&ip) {
            return;
        }
        if self.strikes.len() >= MAX_REMEMBERED_ADDRESSES && !self.strikes.contains_key(&ip) {
            self.strikes.clear();
        }
        let n = self.strikes.entry(ip).or_default();
        *n += 1;
        if *n < self.limits.ban_after {
            return;
        }
        self.strikes.remove(&ip);
        if self.banned.len() >= MAX_REMEMBERED_ADDRESSES {
            self.banned.remove(0);
        }
        self.banned.push(ip);
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
            let senders = self.peer.handle_piece_failed(now, index);
            if let [conn] = senders[..] {
                if let Some(ip) = self.addrs.get(&conn).map(SocketAddr::ip) {
                    self.strike(ip);
                }
            }
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

    /// A torrent of `len` bytes in a fresh directory (returned, to keep it alive), its
    /// payload seeded as `f` and an empty download in `out`.
    fn setup(tag: &str, len: usize) -> (tempfile::TempDir, Torrent, Vec<u8>) {
        let tmp = crate::tmpdir(tag);
        let d = tmp.path();
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
            tmp,
            Torrent::with_config(meta, dst, Bitfield::new(n), cfg),
            data,
        )
    }

    /// A connection to a seed that unchokes us; returns its id.
    fn seed_conn(t: &Torrent, who: u8) -> ConnId {
        seed_conn_from(t, who, None).unwrap()
    }

    /// The same from an address (refused when the torrent refuses it).
    fn seed_conn_from(t: &Torrent, who: u8, addr: Option<SocketAddr>) -> Result<ConnId, Refusal> {
        let info = ConnInfo {
            transport: Some(Transport::Utp),
            outgoing: true,
        };
        let l = t.open(info, addr)?;
        let ih = t.meta().info_hash;
        t.on_handshake(l.conn, &Handshake::new(ih, [who; 20], true, true));
        t.on_message(l.conn, Message::HaveAll).unwrap();
        t.on_message(l.conn, Message::Unchoke).unwrap();
        Ok(l.conn)
    }

    /// `conn` answers every request it was sent with corrupted data.
    fn send_bad_blocks(t: &Torrent, conn: ConnId, data: &[u8]) {
        for r in requests(t, conn) {
            let Message::Piece {
                index,
                begin,
                mut data,
            } = piece(data, r)
            else {
                unreachable!()
            };
            data[0] ^= 1;
            t.on_message(conn, Message::Piece { index, begin, data })
                .unwrap();
        }
    }

    #[test]
    fn the_lone_sender_of_two_bad_pieces_is_banned_and_refused() {
        let (_tmp, t, data) = setup("ban", 4 * 32_768);
        let addr = |port| Some(SocketAddr::from(([10, 0, 0, 9], port)));
        // A connection is closed at its first bad piece; the address comes back.
        for (k, port) in [(1, 1000), (2, 1001)] {
            let a = seed_conn_from(&t, k, addr(port)).unwrap();
            send_bad_blocks(&t, a, &data);
            assert_eq!(t.counters().hash_failures, k as u64);
            assert_eq!(t.is_banned(addr(1).unwrap().ip()), k == 2);
            t.closed(a);
        }
        assert_eq!(t.limits().banned, vec![addr(1).unwrap().ip()]);
        assert_eq!(seed_conn_from(&t, 1, addr(2000)), Err(Refusal::Banned));
        assert_eq!(t.limits().exceeded.banned, 1);
        // Another address is not concerned.
        assert!(seed_conn_from(&t, 2, Some(SocketAddr::from(([10, 0, 0, 8], 1)))).is_ok());
    }

    #[test]
    fn one_lone_failure_is_forgiven_and_shared_failures_strike_nobody() {
        let (tmp, t, data) = setup("strike", 4 * 32_768);
        let d = tmp.path();
        let ip = |k| SocketAddr::from(([10, 0, 0, k], 1000));
        // One bad piece from a lone sender: a strike, no ban (the default bound is 2).
        let a = seed_conn_from(&t, 1, Some(ip(1))).unwrap();
        send_bad_blocks(&t, a, &data);
        assert_eq!(t.counters().hash_failures, 1);
        assert!(!t.is_banned(ip(1).ip()));
        // With a bound of 1, a piece whose blocks came from two senders (one of them gone
        // since) fails: neither is struck.
        let t = {
            let meta = t.meta().clone();
            let st = Storage::create(&meta, &d.join("out2")).unwrap();
            let n = meta.num_pieces();
            let mut c = TorrentConfig::default();
            c.peer.pipeline = c.peer.pipeline.with_max(1);
            c.limits.ban_after = 1;
            Torrent::with_config(meta, st, Bitfield::new(n), c)
        };
        let b = seed_conn_from(&t, 2, Some(ip(2))).unwrap();
        let c = seed_conn_from(&t, 3, Some(ip(3))).unwrap();
        let rb = requests(&t, b);
        t.on_message(b, piece(&data, rb[0])).unwrap();
        t.closed(b);
        // c picks up the rest of b's piece and corrupts it.
        let r = (0..4)
            .flat_map(|_| {
                let rs = requests(&t, c);
                for &r in &rs {
                    if r.index != rb[0].index {
                        t.on_message(c, piece(&data, r)).unwrap();
                    }
                }
                rs
            })
            .find(|r| r.index == rb[0].index)
            .expect("the piece b left");
        let Message::Piece {
            index,
            begin,
            mut data,
        } = piece(&data, r)
        else {
            unreachable!()
        };
        data[0] ^= 1;
        t.on_message(c, Message::Piece { index, begin, data })
            .unwrap();
        assert_eq!(t.counters().hash_failures, 1);
        assert!(t.limits().banned.is_empty());
    }

    #[test]
    fn connections_waiting_for_a_handshake_are_bounded() {
        let (tmp, t, _) = setup("halfopen", 40_000);
        let d = tmp.path();
        let info = ConnInfo {
            transport: Some(Transport::Tcp),
            outgoing: false,
        };
        // Two per address; then the address is turned away, others are not; our own dials
        // never are.
        let from = |k| Some(SocketAddr::from(([10, 0, 0, k], 1000)));
        let two: Vec<Link> = (0..2).map(|_| t.open(info, from(1)).unwrap()).collect();
        let refused = t.open(info, from(1)).err().unwrap();
        assert_eq!(refused, Refusal::HalfOpenFrom([10, 0, 0, 1].into()));
        // The reason names the address's limit, not the torrent's (16).
        assert_eq!(
            refused.to_string(),
            "2 connections from 10.0.0.1 already wait for their handshake"
        );
        assert!(t.open(info, from(2)).is_ok());
        let out = ConnInfo {
            outgoing: true,
            ..info
        };
        assert!(t.open(out, from(1)).is_ok());
        assert_eq!(t.limits().exceeded.half_open, 1);
        for l in two {
            t.closed(l.conn);
        }
        let t = {
            let meta = t.meta().clone();
            let st = Storage::create(&meta, &d.join("out2")).unwrap();
            let n = meta.num_pieces();
            Torrent::new(meta, st, Bitfield::new(n))
        };
        let max = Limits::default().max_half_open;
        let links: Vec<Link> = (0..max).map(|_| t.open(info, None).unwrap()).collect();
        assert_eq!(t.open(info, None).err(), Some(Refusal::HalfOpen(max)));
        // A handshake frees a place, and so does a close.
        let ih = t.meta().info_hash;
        t.on_handshake(links[0].conn, &Handshake::new(ih, [1; 20], true, true));
        assert!(t.open(info, None).is_ok());
        t.closed(links[1].conn);
        assert!(t.open(info, None).is_ok());
        assert!(t.open(info, None).is_err());
        assert_eq!(t.limits().exceeded.half_open, 2);
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
        let (tmp, t, data) = setup("verify", 65_536);
        let d = tmp.path();
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
        assert_eq!(st.read_piece(t.meta(), 0).unwrap(), data_piece(d, 0));
    }

    fn data_piece(d: &std::path::Path, i: usize) -> Vec<u8> {
        let all = std::fs::read(d.join("f")).unwrap();
        all[i * 32768..((i + 1) * 32768).min(all.len())].to_vec()
    }

    #[test]
    fn uploads_fill_the_buffer_up_to_the_room_given() {
        let tmp = crate::tmpdir("up");
        let d = tmp.path();
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
        let l = t.open(info, None).unwrap();
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
    }
}
