//! One peer connection over any ordered byte stream (uTP, TCP, an in-memory pipe).
//!
//! A single task runs the connection as an event loop: it waits at the same time for the
//! next frame from the peer, for room to write queued bytes, for a wake-up from the torrent
//! (frames to send, an upload queue that filled, a close), for the peer state machine's next
//! timer, and for a stop request. Reading and writing are independent, so two peers that
//! both upload never block each other. Frame reads and buffer writes are cancellation-safe:
//! no byte is lost when another event wins the race.
//!
//! Everything the protocol decides (handshake checks, choking, picking, requests, timers,
//! which connection to one peer stays) is the sans-IO peer's, behind [`Torrent`]; this loop
//! only moves bytes: it encodes the frames the peer wants sent, reads blocks from storage
//! for the uploads it pulls while less than 64 KiB wait unsent, decodes what arrives, and
//! closes when the peer says so. A clean close (a stop, both sides seeds, a better
//! connection to the same peer) flushes what is queued and waits briefly for the peer to
//! close its side; any other ends the connection with an error naming the reason.

use crate::metainfo::hex;
use crate::storage::StorageError;
use crate::torrent::{Link, Torrent};
use ledbat_bt_proto::wire::{frame_len, max_frame_len, HANDSHAKE_LEN};
use ledbat_bt_proto::{CloseReason, ConnInfo, Handshake, Message, Transport, WireError, BLOCK_LEN};
use ledbat_core::Duration;
use std::net::SocketAddr;
use tokio::io::{AsyncRead, AsyncReadExt, AsyncWrite, AsyncWriteExt};
use tokio::sync::watch;

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
    /// The peer state machine closed the connection (a protocol violation, a timeout, a
    /// piece that failed its hash, a refused or duplicate connection).
    #[error("{0}")]
    Closed(CloseReason),
    /// The connection closed or was reset before the peer's handshake came.
    #[error("connection closed during the handshake")]
    ClosedInHandshake,
    /// Storage failed.
    #[error("storage: {0}")]
    Storage(#[from] StorageError),
    /// The torrent stopped on a storage error.
    #[error("torrent stopped: {0}")]
    Fatal(String),
    /// Refused before the handshake: a banned address, or too many handshakes pending.
    #[error("refused: {0}")]
    Refused(#[from] crate::torrent::Refusal),
    /// More than the limit of bytes waited unsent: a peer that does not read.
    #[error("{0} bytes unsent (limit {1}): the peer does not read")]
    OverBuffered(usize, usize),
}

/// How a connection ended without error.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Ending {
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
    /// REQUEST messages it sent us.
    pub requests_received: u64,
    /// Of those, refused (see [`ledbat_bt_proto::ConnStats`]).
    pub requests_refused: u64,
    /// Times we unchoked it.
    pub unchokes: u64,
    /// How it ended.
    pub reason: Ending,
}

/// The transport side of one connection (the protocol settings are the torrent's).
#[derive(Clone, Debug)]
pub struct PeerOptions {
    /// When this turns true, the connection closes cleanly.
    pub stop: Option<watch::Receiver<bool>>,
    /// The remote address, if known (a peer's listening port is learned against it).
    pub addr: Option<SocketAddr>,
    /// The transport carrying the stream, if known (None for in-memory pipes).
    pub transport: Option<Transport>,
    /// We dialled this connection.
    pub outgoing: bool,
    /// On a clean close, how long to wait for the peer to close its side after ours.
    /// Default 2 s.
    pub close_grace: Duration,
}

impl Default for PeerOptions {
    fn default() -> Self {
        Self {
            stop: None,
            addr: None,
            transport: None,
            outgoing: false,
            close_grace: Duration::from_secs(2),
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

/// Reads the handshake and length-prefixed frames; the buffer lives here, so a cancelled
/// read loses nothing.
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

    /// The peer's handshake (`handshaken` false) or its next message.
    async fn input(&mut self, handshaken: bool) -> Result<Input, PeerError> {
        Ok(if handshaken {
            Input::Message(self.next().await?)
        } else {
            Input::Handshake(self.handshake().await?)
        })
    }

    /// The next message, or None at a clean end of stream.
    async fn next(&mut self) -> Result<Option<Message>, PeerError> {
        loop {
            if let Some(total) = frame_len(self.buffered(), self.limit)? {
                let m = Message::decode(&self.buffered()[4..total])?;
                self.consume(total);
                return Ok(Some(m));
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

/// What the reader read.
enum Input {
    Handshake(Handshake),
    /// None: a clean end of stream.
    Message(Option<Message>),
}

fn printable_id(id: &[u8; 20]) -> String {
    id.iter()
        .map(|&c| if c.is_ascii_graphic() { c as char } else { '.' })
        .collect()
}

/// Upload buffer high-water mark: more blocks are read for upload only below it.
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
    let n = torrent.meta().num_pieces();
    let (r, mut w) = tokio::io::split(stream);
    let mut reader = FrameReader::new(r, max_frame_len(n, BLOCK_LEN));
    let info = ConnInfo {
        transport: opts.transport,
        outgoing: opts.outgoing,
    };
    let link = match torrent.open(info, opts.addr) {
        Ok(l) => l,
        Err(e) => {
            let _ = w.shutdown().await;
            return Err(e.into());
        }
    };
    let mut c = Conn {
        torrent: &torrent,
        link: &link,
        out: Vec::new(),
        out_pos: 0,
        theirs: None,
    };
    let result = c
        .run(&mut reader, &mut w, opts.stop.clone(), opts.close_grace)
        .await;
    let ended = torrent.closed(link.conn);
    if result.is_err() {
        let _ = w.shutdown().await;
    }
    // A transport error before the peer's handshake came ends the handshake like an end of
    // stream does: a peer that refuses a connection may close it or reset it (closing with
    // our handshake unread resets it), and a caller tells a busy peer by this error.
    let result = match result {
        Err(PeerError::Io(_)) if ended.peer_id.is_none() => Err(PeerError::ClosedInHandshake),
        r => r,
    };
    let reason = result?;
    Ok(PeerSummary {
        peer_id: ended.peer_id.as_ref().map(printable_id).unwrap_or_default(),
        fast: ended.fast,
        downloaded: ended.stats.downloaded,
        uploaded: ended.stats.uploaded,
        request_timeouts: ended.stats.request_timeouts,
        requests_received: ended.stats.requests_received,
        requests_refused: ended.stats.requests_refused,
        unchokes: ended.stats.unchokes,
        reason,
    })
}

struct Conn<'a> {
    torrent: &'a Torrent,
    link: &'a Link,
    out: Vec<u8>,
    out_pos: usize,
    /// The peer's handshake, once read.
    theirs: Option<Handshake>,
}

impl Conn<'_> {
    async fn run<R, W>(
        &mut self,
        reader: &mut FrameReader<R>,
        w: &mut W,
        mut stop: Option<watch::Receiver<bool>>,
        grace: Duration,
    ) -> Result<Ending, PeerError>
    where
        R: AsyncRead + Unpin,
        W: AsyncWrite + Unpin,
    {
        let conn = self.link.conn;
        let max_buffered = self.torrent.max_buffered();
        // Blocks are read for upload only below half the limit, so that uploads alone never
        // reach it: only control messages a peer does not read can.
        let high_water = OUT_HIGH_WATER.min(max_buffered / 2);
        let mut stopping = false;
        loop {
            if let Some(e) = self.torrent.fatal() {
                let _ = self.close(reader, w, grace, Ending::Stopped).await;
                return Err(PeerError::Fatal(e));
            }
            if !stopping && stop.as_ref().is_some_and(|s| *s.borrow()) {
                stopping = true;
                self.torrent.close(conn);
            }
            let unsent = self.out.len() - self.out_pos;
            let turn = self.torrent.turn(conn, &mut self.out, unsent, high_water)?;
            if let Some(reason) = turn.closing {
                return match reason {
                    CloseReason::Stopped => self.close(reader, w, grace, Ending::Stopped).await,
                    CloseReason::BothSeeds => self.close(reader, w, grace, Ending::BothSeeds).await,
                    CloseReason::Replaced => self.close(reader, w, grace, Ending::Replaced).await,
                    CloseReason::WrongInfoHash => Err(PeerError::WrongInfoHash {
                        got: self
                            .theirs
                            .as_ref()
                            .map_or(String::new(), |h| hex(&h.info_hash)),
                        expected: hex(&self.torrent.meta().info_hash),
                    }),
                    other => Err(PeerError::Closed(other)),
                };
            }
            let unsent = self.out.len() - self.out_pos;
            if unsent > max_buffered {
                self.torrent.count_over_buffered();
                return Err(PeerError::OverBuffered(unsent, max_buffered));
            }
            let deadline = self.torrent.wall(turn.deadline);
            let pending = self.out_pos < self.out.len();
            let handshaken = self.theirs.is_some();
            tokio::select! {
                input = reader.input(handshaken) => match input? {
                    Input::Handshake(h) => {
                        self.torrent.on_handshake(conn, &h);
                        self.theirs = Some(h);
                    }
                    Input::Message(Some(m)) => self
                        .torrent
                        .on_message(conn, m)
                        .map_err(|e| PeerError::Fatal(e.to_string()))?,
                    Input::Message(None) => return Ok(Ending::PeerClosed),
                },
                wrote = w.write(&self.out[self.out_pos..]), if pending => {
                    let k = wrote?;
                    if k == 0 {
                        return Err(std::io::Error::from(std::io::ErrorKind::WriteZero).into());
                    }
                    self.out_pos += k;
                    if self.out_pos == self.out.len() {
                        self.out.clear();
                        self.out_pos = 0;
                        w.flush().await?;
                    }
                }
                _ = self.link.wake.notified() => {}
                _ = tokio::time::sleep_until(deadline) => self.torrent.tick(),
                _ = async { stop.as_mut().expect("guarded").changed().await }, if stop.is_some() && !stopping => {}
            }
        }
    }

    /// Clean close: flush what is queued, close our direction, wait briefly for theirs.
    async fn close<R, W>(
        &mut self,
        reader: &mut FrameReader<R>,
        w: &mut W,
        grace: Duration,
        ending: Ending,
    ) -> Result<Ending, PeerError>
    where
        R: AsyncRead + Unpin,
        W: AsyncWrite + Unpin,
    {
        let out = std::mem::take(&mut self.out);
        let pos = self.out_pos;
        let _ = tokio::time::timeout(grace.into(), async {
            w.write_all(&out[pos..]).await?;
            w.flush().await?;
            w.shutdown().await?;
            // Drain until the peer closes too.
            while reader.next().await?.is_some() {}
            Ok::<_, PeerError>(())
        })
        .await;
        Ok(ending)
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
            let mut data = Handshake::new([7; 20], [8; 20], true, true).encode().to_vec();
            for m in &sent {
                m.encode_into(&mut data);
            }
            let mut r = FrameReader::new(Chunked { data, pos: 0, sizes, k: 0 }, max_frame_len(10, BLOCK_LEN));
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
        let mut data = Message::<Vec<u8>>::Have(1).encode();
        data.pop();
        let mut r = FrameReader::new(
            Chunked {
                data,
                pos: 0,
                sizes: vec![100],
                k: 0,
            },
            max_frame_len(10, BLOCK_LEN),
        );
        assert!(block_on(r.next()).is_err());
    }

    #[test]
    fn oversized_frame_is_refused_before_it_is_read() {
        let mut data = (1u32 << 20).to_be_bytes().to_vec();
        data.push(7);
        let mut r = FrameReader::new(
            Chunked {
                data,
                pos: 0,
                sizes: vec![100],
                k: 0,
            },
            max_frame_len(10, BLOCK_LEN),
        );
        let e = block_on(r.next()).unwrap_err();
        assert!(e.to_string().contains("exceeds the limit"), "{e}");
    }

    #[test]
    fn peer_ids_are_azureus_style_and_differ() {
        let a = new_peer_id();
        assert_eq!(&a[..8], b"-LB0100-");
        assert!(a.iter().all(|c| c.is_ascii_graphic()));
        assert_ne!(new_peer_id()[8..], a[8..]);
    }
}
