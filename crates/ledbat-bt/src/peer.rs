//! One peer connection over any ordered byte stream (uTP, TCP, an in-memory pipe).
//!
//! A single task runs the connection as an event loop: it waits at the same time for the
//! next frame from the peer, for room to write queued bytes, for pieces the torrent
//! verified (announced with `have`), for the keep-alive and idle timers, and for a stop
//! request. Reading and writing are independent, so two peers that both upload never
//! block each other. Frame reads and buffer writes are cancellation-safe: no byte is lost
//! when another event wins the race.
//!
//! Choking, picking and duplicate connections are the torrent's business
//! ([`Torrent`]): this loop sends CHOKE / UNCHOKE when the torrent's decision for the
//! connection changes (dropping the requests it queued for a peer it chokes, BEP 3),
//! CANCEL for endgame copies another connection delivered, and closes when the torrent
//! asks. Requests: enough 16 KiB blocks outstanding to cover
//! [`PeerConfig::request_queue_time`] at the rate this peer delivers (as libtorrent sizes
//! its queue), at least 4 and at most [`PeerConfig::pipeline`], refilled as blocks arrive.
//! The connection is refused (closed with an error) on a wrong info-hash, a frame over the
//! size limit, a request over 16 KiB, a malformed message, or a piece that fails its hash;
//! the torrent keeps what it verified.

use crate::bitfield::{Bitfield, BitfieldError};
use crate::config::PeerConfig;
use crate::disposition::Transport;
use crate::metainfo::hex;
use crate::storage::StorageError;
use crate::torrent::{BlockOutcome, Closing, ConnId, ConnInfo, Refused, Torrent};
use crate::wire::{
    ext_handshake, max_frame_len, parse_ext_handshake, BlockRef, Handshake, Message, WireError,
    BLOCK_LEN, HANDSHAKE_LEN,
};
use std::collections::{HashSet, VecDeque};
use std::net::SocketAddr;
use tokio::io::{AsyncRead, AsyncReadExt, AsyncWrite, AsyncWriteExt};
use tokio::sync::watch;
use tokio::time::Instant;

/// Why a connection ended with an error.
#[derive(Debug, thiserror::Error)]
pub enum PeerError {
    /// Transport error.
    #[error("transport: {0}")]
    Io(#[from] std::io::Error),
    /// Malformed or oversized input.
    #[error("protocol: {0}")]
    Wire(#[from] WireError),
    /// The peer's handshake names another torrent.
    #[error("peer handshake has info-hash {got}, expected {expected}")]
    WrongInfoHash {
        /// What the peer sent (hex).
        got: String,
        /// Ours (hex).
        expected: String,
    },
    /// The handshake did not arrive in time.
    #[error("no handshake within {0:?}")]
    HandshakeTimeout(std::time::Duration),
    /// Nothing received for too long.
    #[error("nothing received for {0:?}")]
    IdleTimeout(std::time::Duration),
    /// A bad bitfield.
    #[error("protocol: {0}")]
    Bitfield(#[from] BitfieldError),
    /// Any other protocol violation.
    #[error("protocol: {0}")]
    Protocol(String),
    /// The peer sent data for a piece that failed its SHA-1 check.
    #[error("peer sent data for piece {0}, which failed its SHA-1 check")]
    HashFailed(u32),
    /// Storage failed.
    #[error("storage: {0}")]
    Storage(#[from] StorageError),
    /// The connection closed before the handshake completed.
    #[error("connection closed during the handshake")]
    ClosedInHandshake,
    /// The torrent refused the connection after the handshake.
    #[error("refused: {0}")]
    Refused(#[from] Refused),
    /// The torrent stopped on a storage error.
    #[error("torrent stopped: {0}")]
    Fatal(String),
}

/// How a connection ended without error.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "snake_case")]
pub enum CloseReason {
    /// The peer closed the stream.
    PeerClosed,
    /// Both sides have every piece: nothing left to exchange.
    BothSeeds,
    /// A stop was requested (download complete, or shutdown).
    Stopped,
    /// Replaced by a better connection to the same peer (uTP over TCP).
    Replaced,
}

/// What one connection did.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
pub struct PeerSummary {
    /// Peer id from its handshake, printable bytes kept, others as `.`.
    pub peer_id: String,
    /// Whether both sides negotiated the Fast Extension (BEP 6).
    pub fast: bool,
    /// Payload bytes received from this peer in blocks that were kept.
    pub downloaded: u64,
    /// Payload bytes sent to this peer.
    pub uploaded: u64,
    /// Times our outstanding requests went unanswered for the request timeout.
    pub request_timeouts: u64,
    /// How it ended.
    pub reason: CloseReason,
}

/// Per-connection settings.
#[derive(Clone, Debug)]
pub struct PeerOptions {
    /// Protocol settings.
    pub config: PeerConfig,
    /// Our 20-byte peer id.
    pub peer_id: [u8; 20],
    /// When this turns true, the connection closes cleanly.
    pub stop: Option<watch::Receiver<bool>>,
    /// The remote address, if known.
    pub addr: Option<SocketAddr>,
    /// The transport carrying the stream, if known (None for in-memory pipes).
    pub transport: Option<Transport>,
    /// We dialled this connection.
    pub outgoing: bool,
    /// Our listening port, told to peers in the extended handshake (BEP 10) so that one
    /// that connected to us can be dialled back; None when we accept nothing.
    pub listen_port: Option<u16>,
}

impl PeerOptions {
    /// Settings for a connection of unknown address and transport, not dialled by us.
    pub fn new(config: PeerConfig, peer_id: [u8; 20]) -> Self {
        Self {
            config,
            peer_id,
            stop: None,
            addr: None,
            transport: None,
            outgoing: false,
            listen_port: None,
        }
    }
}

/// A fresh Azureus-style peer id, `-LB0100-` followed by 12 random alphanumerics (from
/// the standard library's randomly keyed hasher: unique per process, not secret).
pub fn new_peer_id() -> [u8; 20] {
    use std::hash::{BuildHasher, Hasher};
    let mut id = [0u8; 20];
    id[..8].copy_from_slice(b"-LB0100-");
    let mut h = std::collections::hash_map::RandomState::new().build_hasher();
    h.write_u32(std::process::id());
    let mut x = h.finish();
    for (k, b) in id[8..].iter_mut().enumerate() {
        if k == 6 {
            h.write_u8(1);
            x = h.finish();
        }
        *b = b"0123456789abcdefghijklmnopqrstuvwxyz"[(x % 36) as usize];
        x /= 36;
    }
    id
}

/// Reads length-prefixed frames; the buffer lives here, so a cancelled `next` loses
/// nothing.
struct FrameReader<R> {
    r: R,
    buf: Vec<u8>,
    start: usize,
    limit: u32,
}

impl<R: AsyncRead + Unpin> FrameReader<R> {
    fn new(r: R, limit: u32) -> Self {
        Self {
            r,
            buf: Vec::with_capacity(64 * 1024),
            start: 0,
            limit,
        }
    }

    fn buffered(&self) -> &[u8] {
        &self.buf[self.start..]
    }

    fn consume(&mut self, n: usize) {
        self.start += n;
        if self.start == self.buf.len() {
            self.buf.clear();
            self.start = 0;
        } else if self.start > 32 * 1024 {
            self.buf.drain(..self.start);
            self.start = 0;
        }
    }

    /// Reads more bytes; false at end of stream.
    async fn fill(&mut self) -> std::io::Result<bool> {
        let mut tmp = [0u8; 16 * 1024];
        let n = self.r.read(&mut tmp).await?;
        self.buf.extend_from_slice(&tmp[..n]);
        Ok(n > 0)
    }

    async fn handshake(&mut self) -> Result<Handshake, PeerError> {
        while self.buffered().len() < HANDSHAKE_LEN {
            if !self.fill().await? {
                return Err(PeerError::ClosedInHandshake);
            }
        }
        let b: [u8; HANDSHAKE_LEN] = self.buffered()[..HANDSHAKE_LEN].try_into().expect("68");
        self.consume(HANDSHAKE_LEN);
        Ok(Handshake::decode(&b)?)
    }

    /// The next message, or None at a clean end of stream.
    async fn next(&mut self) -> Result<Option<Message>, PeerError> {
        loop {
            let b = self.buffered();
            if b.len() >= 4 {
                let len = u32::from_be_bytes([b[0], b[1], b[2], b[3]]);
                if len > self.limit {
                    return Err(WireError::Oversized {
                        len,
                        limit: self.limit,
                    }
                    .into());
                }
                let total = 4 + len as usize;
                if b.len() >= total {
                    let m = Message::decode(&b[4..total])?;
                    self.consume(total);
                    return Ok(Some(m));
                }
            }
            if !self.fill().await? {
                return if self.buffered().is_empty() {
                    Ok(None)
                } else {
                    Err(std::io::Error::from(std::io::ErrorKind::UnexpectedEof).into())
                };
            }
        }
    }
}

fn printable_id(id: &[u8; 20]) -> String {
    id.iter()
        .map(|&c| if c.is_ascii_graphic() { c as char } else { '.' })
        .collect()
}

/// Upload buffer high-water mark: more pieces are queued for writing only below it.
const OUT_HIGH_WATER: usize = 64 * 1024;

/// Runs one connection to completion: handshake, then the message loop.
pub async fn run_peer<S>(
    stream: S,
    torrent: Torrent,
    opts: PeerOptions,
) -> Result<PeerSummary, PeerError>
where
    S: AsyncRead + AsyncWrite + Unpin,
{
    let cfg = &opts.config;
    let meta = torrent.meta().clone();
    let n = meta.num_pieces();
    let (r, mut w) = tokio::io::split(stream);
    let mut reader = FrameReader::new(r, max_frame_len(n));

    // Handshake: ours first, then theirs, bounded in time.
    let ours = Handshake::new(meta.info_hash, opts.peer_id);
    let hs_timeout: std::time::Duration = cfg.handshake_timeout.into();
    let theirs = tokio::time::timeout(hs_timeout, async {
        w.write_all(&ours.encode()).await?;
        w.flush().await?;
        reader.handshake().await
    })
    .await
    .map_err(|_| PeerError::HandshakeTimeout(hs_timeout))??;
    if theirs.info_hash != meta.info_hash {
        let _ = w.shutdown().await;
        return Err(PeerError::WrongInfoHash {
            got: hex(&theirs.info_hash),
            expected: hex(&meta.info_hash),
        });
    }
    let conn = match torrent.register(ConnInfo {
        ours: opts.peer_id,
        theirs: theirs.peer_id,
        addr: opts.addr,
        transport: opts.transport,
        outgoing: opts.outgoing,
    }) {
        Ok(c) => c,
        Err(e) => {
            let _ = w.shutdown().await;
            return Err(e.into());
        }
    };
    let mut c = Conn {
        torrent: &torrent,
        cfg,
        conn,
        fast: ours.fast() && theirs.fast(),
        extended: ours.extended() && theirs.extended(),
        remote: opts.addr,
        peer_has: Bitfield::new(n),
        first_message: true,
        am_choking: true,
        am_interested: false,
        peer_choking: true,
        outstanding: HashSet::new(),
        uploads: VecDeque::new(),
        out: Vec::new(),
        out_pos: 0,
        have_pos: 0,
        interest_dirty: true,
        last_block: Instant::now(),
        request_timeouts: 0,
        downloaded: 0,
        uploaded: 0,
        rate: 0.0,
        rate_mark: 0,
    };
    let result = c
        .run(&mut reader, &mut w, opts.stop.clone(), opts.listen_port)
        .await;
    torrent.unregister(conn);
    let reason = result?;
    Ok(PeerSummary {
        peer_id: printable_id(&theirs.peer_id),
        fast: c.fast,
        downloaded: c.downloaded,
        uploaded: c.uploaded,
        request_timeouts: c.request_timeouts,
        reason,
    })
}

struct Conn<'a> {
    torrent: &'a Torrent,
    cfg: &'a PeerConfig,
    conn: ConnId,
    fast: bool,
    extended: bool,
    remote: Option<SocketAddr>,
    peer_has: Bitfield,
    first_message: bool,
    am_choking: bool,
    am_interested: bool,
    peer_choking: bool,
    outstanding: HashSet<BlockRef>,
    uploads: VecDeque<BlockRef>,
    out: Vec<u8>,
    out_pos: usize,
    have_pos: usize,
    interest_dirty: bool,
    last_block: Instant,
    request_timeouts: u64,
    downloaded: u64,
    uploaded: u64,
    /// Payload bytes per second this peer delivers (moving average, updated each second).
    rate: f64,
    /// `downloaded` at the last rate update.
    rate_mark: u64,
}

impl Conn<'_> {
    fn send(&mut self, m: Message) {
        m.encode_into(&mut self.out);
    }

    async fn run<R, W>(
        &mut self,
        reader: &mut FrameReader<R>,
        w: &mut W,
        mut stop: Option<watch::Receiver<bool>>,
        listen_port: Option<u16>,
    ) -> Result<CloseReason, PeerError>
    where
        R: AsyncRead + Unpin,
        W: AsyncWrite + Unpin,
    {
        let mut changes = self.torrent.subscribe();
        changes.mark_unchanged();
        // Announce what we have (BEP 6 short forms when both sides support them).
        let have = self.torrent.have();
        self.have_pos = self.torrent.haves_since(0).1;
        if self.fast && have.is_full() {
            self.send(Message::HaveAll);
        } else if self.fast && have.count() == 0 {
            self.send(Message::HaveNone);
        } else if have.count() > 0 {
            self.send(Message::Bitfield(have.as_bytes().to_vec()));
        }
        if self.extended {
            self.send(Message::Extended {
                id: 0,
                payload: ext_handshake(listen_port),
            });
        }
        let idle: std::time::Duration = self.cfg.idle_timeout.into();
        let keepalive: std::time::Duration = self.cfg.keepalive_interval.into();
        let request_timeout: std::time::Duration = self.cfg.request_timeout.into();
        let mut last_recv = Instant::now();
        let mut last_send = Instant::now();
        let mut second = tokio::time::interval(std::time::Duration::from_secs(1));
        second.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);

        loop {
            match self.torrent.closing(self.conn) {
                None => {}
                Some(Closing::Kicked) => {
                    return Err(PeerError::Protocol(
                        "refused: contributed to a piece that failed its hash".into(),
                    ))
                }
                Some(Closing::Replaced) => {
                    return self.close(reader, w, CloseReason::Replaced).await
                }
                Some(Closing::Fatal(e)) => {
                    let _ = self.close(reader, w, CloseReason::Stopped).await;
                    return Err(PeerError::Fatal(e));
                }
            }
            if stop.as_ref().is_some_and(|s| *s.borrow()) {
                return self.close(reader, w, CloseReason::Stopped).await;
            }
            if self.torrent.is_complete() && self.peer_has.is_full() {
                return self.close(reader, w, CloseReason::BothSeeds).await;
            }
            self.sync_choke();
            for r in self.torrent.take_cancels(self.conn) {
                if self.outstanding.remove(&r) {
                    self.send(Message::Cancel(r));
                }
            }
            self.update_interest();
            self.fill_requests();
            self.fill_uploads()?;

            let pending = self.out_pos < self.out.len();
            tokio::select! {
                m = reader.next() => {
                    last_recv = Instant::now();
                    match m? {
                        Some(m) => self.handle(m)?,
                        None => return Ok(CloseReason::PeerClosed),
                    }
                }
                wrote = w.write(&self.out[self.out_pos..]), if pending => {
                    let k = wrote?;
                    if k == 0 {
                        return Err(std::io::Error::from(std::io::ErrorKind::WriteZero).into());
                    }
                    self.out_pos += k;
                    last_send = Instant::now();
                    if self.out_pos == self.out.len() {
                        self.out.clear();
                        self.out_pos = 0;
                        w.flush().await?;
                    }
                }
                r = changes.changed() => {
                    if r.is_ok() {
                        self.interest_dirty = true;
                        let (new, pos) = self.torrent.haves_since(self.have_pos);
                        self.have_pos = pos;
                        for i in new {
                            self.send(Message::Have(i));
                        }
                    }
                }
                _ = tokio::time::sleep_until(last_recv + idle) => {
                    return Err(PeerError::IdleTimeout(idle));
                }
                _ = tokio::time::sleep_until(last_send + keepalive), if !pending => {
                    self.send(Message::KeepAlive);
                }
                _ = tokio::time::sleep_until(self.last_block + request_timeout), if !self.outstanding.is_empty() => {
                    // The peer sits on our requests: cancel them and pick again.
                    for r in std::mem::take(&mut self.outstanding) {
                        self.send(Message::Cancel(r));
                    }
                    self.torrent.release(self.conn, None);
                    self.request_timeouts += 1;
                    self.last_block = Instant::now();
                }
                _ = second.tick() => {
                    let got = (self.downloaded - self.rate_mark) as f64;
                    self.rate_mark = self.downloaded;
                    self.rate = 0.5 * self.rate + 0.5 * got;
                }
                _ = async { stop.as_mut().expect("guarded").changed().await }, if stop.is_some() => {}
            }
        }
    }

    /// Clean close: flush what is queued, close our direction, wait briefly for theirs.
    async fn close<R, W>(
        &mut self,
        reader: &mut FrameReader<R>,
        w: &mut W,
        reason: CloseReason,
    ) -> Result<CloseReason, PeerError>
    where
        R: AsyncRead + Unpin,
        W: AsyncWrite + Unpin,
    {
        if self.am_interested {
            self.send(Message::NotInterested);
        }
        let grace: std::time::Duration = self.cfg.close_grace.into();
        let out = std::mem::take(&mut self.out);
        let pos = self.out_pos;
        let _ = tokio::time::timeout(grace, async {
            w.write_all(&out[pos..]).await?;
            w.flush().await?;
            w.shutdown().await?;
            // Drain until the peer closes too.
            while reader.next().await?.is_some() {}
            Ok::<_, PeerError>(())
        })
        .await;
        Ok(reason)
    }

    /// Sends CHOKE or UNCHOKE when the torrent's decision changed; a choked peer's queued
    /// requests are dropped (BEP 3), each rejected explicitly under BEP 6.
    fn sync_choke(&mut self) {
        let unchoke = self.torrent.is_unchoked(self.conn);
        if unchoke != self.am_choking {
            return;
        }
        self.am_choking = !unchoke;
        if unchoke {
            self.send(Message::Unchoke);
        } else {
            self.send(Message::Choke);
            for r in std::mem::take(&mut self.uploads) {
                if self.fast {
                    self.send(Message::RejectRequest(r));
                }
            }
        }
    }

    /// Outstanding requests wanted: `request_queue_time` at this peer's rate, 4..=pipeline.
    fn pipeline_target(&self) -> usize {
        let max = self.cfg.pipeline;
        let secs = self.cfg.request_queue_time.as_secs_f64();
        let want = (self.rate * secs / BLOCK_LEN as f64).ceil() as usize;
        want.clamp(max.min(4), max)
    }

    fn update_interest(&mut self) {
        if !std::mem::replace(&mut self.interest_dirty, false) {
            return;
        }
        let want = self.torrent.update_interest(self.conn);
        if want != self.am_interested {
            self.am_interested = want;
            self.send(if want {
                Message::Interested
            } else {
                Message::NotInterested
            });
        }
    }

    fn fill_requests(&mut self) {
        if self.peer_choking || !self.am_interested {
            return;
        }
        let room = self
            .pipeline_target()
            .saturating_sub(self.outstanding.len());
        if room == 0 {
            return;
        }
        if self.outstanding.is_empty() {
            self.last_block = Instant::now();
        }
        for r in self.torrent.pick(self.conn, room) {
            self.outstanding.insert(r);
            self.send(Message::Request(r));
        }
    }

    fn fill_uploads(&mut self) -> Result<(), PeerError> {
        while self.out.len() - self.out_pos < OUT_HIGH_WATER {
            let Some(r) = self.uploads.pop_front() else {
                break;
            };
            match self.torrent.read_block(r)? {
                Some(data) => {
                    self.uploaded += data.len() as u64;
                    self.torrent.count_upload(self.conn, data.len() as u64);
                    self.send(Message::Piece {
                        index: r.index,
                        begin: r.begin,
                        data,
                    });
                }
                None if self.fast => self.send(Message::RejectRequest(r)),
                None => {}
            }
        }
        Ok(())
    }

    fn handle(&mut self, m: Message) -> Result<(), PeerError> {
        let first = std::mem::replace(&mut self.first_message, false);
        let n = self.peer_has.len();
        match m {
            Message::KeepAlive => self.first_message = first,
            Message::Choke => {
                self.peer_choking = true;
                // Requests die with a choke (BEP 3); under BEP 6 the peer rejects them
                // explicitly, but a block that still arrives is accepted if needed.
                self.torrent.release(self.conn, None);
                self.outstanding.clear();
            }
            Message::Unchoke => self.peer_choking = false,
            Message::Interested => self.torrent.set_peer_interested(self.conn, true),
            Message::NotInterested => self.torrent.set_peer_interested(self.conn, false),
            Message::Have(i) => {
                if i >= n {
                    return Err(PeerError::Protocol(format!(
                        "have {i} for a torrent of {n} pieces"
                    )));
                }
                self.peer_has.set(i);
                self.torrent.on_have(self.conn, i);
                self.interest_dirty = true;
            }
            Message::Bitfield(b) => {
                if !first {
                    return Err(PeerError::Protocol(
                        "bitfield after the first message".into(),
                    ));
                }
                self.peer_has = Bitfield::from_wire(&b, n)?;
                self.torrent.on_bitfield(self.conn, self.peer_has.clone());
                self.interest_dirty = true;
            }
            Message::HaveAll | Message::HaveNone => {
                if !self.fast {
                    return Err(PeerError::Protocol(
                        "have all/none without the Fast Extension".into(),
                    ));
                }
                if !first {
                    return Err(PeerError::Protocol(
                        "have all/none after the first message".into(),
                    ));
                }
                self.peer_has = if m == Message::HaveAll {
                    Bitfield::full(n)
                } else {
                    Bitfield::new(n)
                };
                self.torrent.on_bitfield(self.conn, self.peer_has.clone());
                self.interest_dirty = true;
            }
            Message::Request(r) => {
                if r.length > BLOCK_LEN {
                    return Err(PeerError::Protocol(format!(
                        "request for {} bytes exceeds the 16 KiB block limit",
                        r.length
                    )));
                }
                let acceptable = !self.am_choking
                    && self.uploads.len() < self.cfg.max_queued_requests
                    && self.torrent.request_valid(r)
                    && self.torrent.has(r.index);
                if acceptable {
                    self.uploads.push_back(r);
                } else if self.fast {
                    self.send(Message::RejectRequest(r));
                }
            }
            Message::Cancel(r) => {
                if let Some(pos) = self.uploads.iter().position(|&q| q == r) {
                    self.uploads.remove(pos);
                    if self.fast {
                        self.send(Message::RejectRequest(r));
                    }
                }
            }
            Message::Piece { index, begin, data } => {
                self.last_block = Instant::now();
                self.outstanding.remove(&BlockRef {
                    index,
                    begin,
                    length: data.len() as u32,
                });
                let outcome = match self.torrent.on_block(self.conn, index, begin, &data) {
                    Ok(o) => o,
                    Err(e) => return Err(PeerError::Fatal(e.to_string())),
                };
                match outcome {
                    BlockOutcome::Stored | BlockOutcome::Verified(_) => {
                        self.downloaded += data.len() as u64;
                    }
                    BlockOutcome::Wasted => {}
                    BlockOutcome::HashFailed { index, .. } => {
                        return Err(PeerError::HashFailed(index));
                    }
                }
            }
            Message::RejectRequest(r) => {
                if self.outstanding.remove(&r) {
                    self.torrent.release(self.conn, Some(r));
                }
            }
            Message::Extended { id: 0, payload } => {
                // libtorrent sends its extended handshake before its bitfield or have
                // none; the bitfield may still follow (BEP 10 puts the handshake right
                // after the BEP 3 one), so it does not count as the first message.
                self.first_message = first;
                // Only the listening port matters; a handshake we cannot read is ignored
                // (BEP 10 makes every key optional).
                if let (Ok(h), Some(remote)) = (parse_ext_handshake(&payload), self.remote) {
                    if let Some(port) = h.port {
                        self.torrent.learn(SocketAddr::new(remote.ip(), port));
                    }
                }
            }
            Message::Extended { .. }
            | Message::Port(_)
            | Message::SuggestPiece(_)
            | Message::AllowedFast(_)
            | Message::Unknown { .. } => {}
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    /// Delivers a byte string in the given chunk sizes, one read at a time.
    struct Chunked {
        data: Vec<u8>,
        pos: usize,
        sizes: Vec<usize>,
        k: usize,
    }

    impl AsyncRead for Chunked {
        fn poll_read(
            mut self: std::pin::Pin<&mut Self>,
            _cx: &mut std::task::Context<'_>,
            buf: &mut tokio::io::ReadBuf<'_>,
        ) -> std::task::Poll<std::io::Result<()>> {
            let me = &mut *self;
            let want = me.sizes[me.k % me.sizes.len()].max(1);
            me.k += 1;
            let n = want.min(me.data.len() - me.pos).min(buf.remaining());
            buf.put_slice(&me.data[me.pos..me.pos + n]);
            me.pos += n;
            std::task::Poll::Ready(Ok(()))
        }
    }

    fn block_on<F: std::future::Future>(f: F) -> F::Output {
        tokio::runtime::Builder::new_current_thread()
            .build()
            .unwrap()
            .block_on(f)
    }

    proptest! {
        #[test]
        fn frames_survive_any_read_chunking(
            haves in proptest::collection::vec(any::<u32>(), 1..20),
            block in proptest::collection::vec(any::<u8>(), 0..3000),
            sizes in proptest::collection::vec(1usize..200, 1..10),
        ) {
            let mut sent: Vec<Message> = haves.into_iter().map(Message::Have).collect();
            sent.insert(1, Message::KeepAlive);
            sent.push(Message::Piece { index: 3, begin: 16384, data: block });
            let mut data = Handshake::new([7; 20], [8; 20]).encode().to_vec();
            for m in &sent {
                m.encode_into(&mut data);
            }
            let mut r = FrameReader::new(Chunked { data, pos: 0, sizes, k: 0 }, max_frame_len(10));
            let got = block_on(async {
                let h = r.handshake().await.unwrap();
                let mut v = Vec::new();
                while let Some(m) = r.next().await.unwrap() {
                    v.push(m);
                }
                (h, v)
            });
            prop_assert_eq!(got.0.info_hash, [7; 20]);
            prop_assert_eq!(got.1, sent);
        }
    }

    #[test]
    fn truncated_frame_at_end_of_stream_is_an_error() {
        let mut data = Message::Have(1).encode();
        data.pop();
        let mut r = FrameReader::new(
            Chunked {
                data,
                pos: 0,
                sizes: vec![100],
                k: 0,
            },
            max_frame_len(10),
        );
        assert!(block_on(r.next()).is_err());
    }

    #[test]
    fn peer_ids_are_azureus_style_and_differ() {
        let a = new_peer_id();
        assert_eq!(&a[..8], b"-LB0100-");
        assert!(a.iter().all(|c| c.is_ascii_graphic()));
        assert_ne!(new_peer_id()[8..], a[8..]);
    }
}
