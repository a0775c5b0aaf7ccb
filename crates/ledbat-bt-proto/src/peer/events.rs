//! What the peer tells its driver and what it counts: connection facts, closes and their
//! reasons, events, data handed back, counters.

use crate::bitfield::BitfieldError;
use crate::disposition::Transport;
use crate::layout::Block;
use crate::ConnId;
use ledbat_core::Duration;

/// What the driver knows of a new connection.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ConnInfo {
    /// The transport carrying it, if any is meaningful (counters by transport, the
    /// duplicate rule).
    pub transport: Option<Transport>,
    /// We dialled it.
    pub outgoing: bool,
}

/// A protocol violation by a peer.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum Violation {
    /// A bitfield of the wrong size or with spare bits set.
    #[error("{0}")]
    Bitfield(#[from] BitfieldError),
    /// A bitfield, have all or have none after the first message.
    #[error("{0} after the first message")]
    LateBitfield(&'static str),
    /// A HAVE for a piece the torrent does not have.
    #[error("have {index} for a torrent of {pieces} pieces")]
    HaveOutOfRange {
        /// The index.
        index: u32,
        /// The torrent's piece count.
        pieces: u32,
    },
    /// BEP 6 messages without the Fast Extension negotiated.
    #[error("{0} without the Fast Extension")]
    NotFast(&'static str),
    /// A request longer than we serve.
    #[error("request for {length} bytes exceeds the {max}-byte block limit")]
    RequestTooLong {
        /// Requested length.
        length: u32,
        /// Our limit.
        max: u32,
    },
}

/// Why a connection is closed (by the peer state machine, or at the driver's request).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum CloseReason {
    /// The peer broke the protocol.
    #[error("protocol: {0}")]
    Protocol(#[from] Violation),
    /// Its handshake names another torrent.
    #[error("peer handshake is for another torrent")]
    WrongInfoHash,
    /// The peer is ourselves (our own address came back from a tracker).
    #[error("connected to ourselves")]
    SelfConnection,
    /// Another connection to the same peer is kept instead of this new one.
    #[error("duplicate connection to this peer; the other one is kept")]
    Duplicate,
    /// A better connection to the same peer replaced this one (uTP over TCP).
    #[error("replaced by a better connection to the same peer")]
    Replaced,
    /// The connection limit is reached.
    #[error("connection limit ({0}) reached")]
    Full(usize),
    /// It sent data for a piece that failed its hash.
    #[error("sent data for piece {0}, which failed its hash check")]
    HashFailed(u32),
    /// Nothing received for the idle timeout.
    #[error("nothing received for {0}")]
    IdleTimeout(Duration),
    /// No handshake within the handshake timeout.
    #[error("no handshake within {0}")]
    HandshakeTimeout(Duration),
    /// Both sides have every piece: nothing is left to exchange.
    #[error("both sides are seeds")]
    BothSeeds,
    /// We leave ([`crate::Peer::close`]).
    #[error("stopped")]
    Stopped,
}

impl CloseReason {
    /// Whether the close is an orderly one rather than a fault of the peer's or ours.
    pub fn is_clean(&self) -> bool {
        matches!(
            self,
            CloseReason::Replaced | CloseReason::BothSeeds | CloseReason::Stopped
        )
    }
}

/// Something that happened inside the peer.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Event {
    /// The upload queue of `conn` became non-empty: pull it with [`crate::Peer::poll_upload`].
    DataReady {
        /// The connection.
        conn: ConnId,
    },
    /// A block arrived.
    Block {
        /// The connection it came on.
        conn: ConnId,
        /// The block.
        block: Block,
        /// Payload bytes.
        bytes: u32,
        /// We already had it.
        duplicate: bool,
        /// Time since we requested it on that connection, if we had.
        latency: Option<Duration>,
    },
    /// A piece is ours (verified, or trusted).
    PieceCompleted {
        /// Its index.
        piece: u32,
    },
    /// Every piece is ours: we are a seed from now on.
    Completed,
    /// The peer told its listening port (BEP 10 extended handshake).
    ListenPort {
        /// The connection.
        conn: ConnId,
        /// The port.
        port: u16,
    },
    /// Close the connection (then report [`crate::Peer::handle_closed`]); its remaining frames
    /// may still be flushed when the reason is clean.
    Close {
        /// The connection.
        conn: ConnId,
        /// Why.
        reason: CloseReason,
    },
}

/// What [`crate::Peer::handle_message`] hands back to the driver.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Received<D> {
    /// Nothing to keep.
    Nothing,
    /// A new block: keep its data (with [`crate::Verification::External`], until the piece is
    /// checked). `piece_done`: the piece has all its blocks; check it now.
    Block {
        /// The block.
        block: Block,
        /// Its data.
        data: D,
        /// The piece has all its blocks.
        piece_done: bool,
    },
}

/// Payload bytes one way and the other.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, serde::Serialize)]
pub struct Bytes {
    /// Received in blocks that were kept.
    pub downloaded: u64,
    /// Sent.
    pub uploaded: u64,
}

/// Counters of one peer.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, serde::Serialize)]
pub struct PeerStats {
    /// Payload bytes of blocks received for the first time (less those of pieces that
    /// failed their hash).
    pub downloaded: u64,
    /// Bytes of blocks received again (endgame copies, and copies in flight when a CHOKE
    /// released their request).
    pub duplicate: u64,
    /// The part of `duplicate` requested in endgame mode.
    pub endgame_duplicate: u64,
    /// Blocks received again.
    pub duplicate_blocks: u64,
    /// Blocks that are not blocks of the torrent (misaligned, wrong length, out of range).
    pub invalid_blocks: u64,
    /// Payload bytes handed out by [`crate::Peer::poll_upload`].
    pub uploaded: u64,
    /// Requests refused because we were choking the requester (they crossed our CHOKE:
    /// normal, not an error).
    pub late_requests: u64,
    /// Requests for a block already queued for the requester (a request re-sent after our
    /// CHOKE released it, overtaking our UNCHOKE: normal, not an error).
    pub duplicate_requests: u64,
    /// Requests refused because the requester's queue was full.
    pub refused_requests: u64,
    /// Input dropped as out of place: messages for unknown connections, requests for
    /// pieces we lack or ranges outside the torrent.
    pub ignored: u64,
    /// Connections closed for a protocol violation.
    pub violations: u64,
    /// Pieces that failed their hash.
    pub hash_failures: u64,
    /// Pieces verified.
    pub pieces_verified: u64,
    /// Bytes over uTP connections.
    pub utp: Bytes,
    /// Bytes over TCP connections.
    pub tcp: Bytes,
}

impl PeerStats {
    pub(super) fn by_transport(&mut self, t: Transport) -> &mut Bytes {
        match t {
            Transport::Utp => &mut self.utp,
            Transport::Tcp => &mut self.tcp,
        }
    }
}

/// Counters of one connection.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, serde::Serialize)]
pub struct ConnStats {
    /// Payload bytes received in new blocks.
    pub downloaded: u64,
    /// Payload bytes uploaded.
    pub uploaded: u64,
    /// Times our requests went unanswered for the request timeout.
    pub request_timeouts: u64,
    /// REQUEST messages it sent us.
    pub requests_received: u64,
    /// Of those, refused (out of range or for a piece we lack, while we choked it, or past
    /// the queue limit).
    pub requests_refused: u64,
    /// Times we unchoked it.
    pub unchokes: u64,
}

/// One connection as a progress display sees it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize)]
pub struct ConnView {
    /// The connection.
    pub conn: ConnId,
    /// Its transport, if known.
    pub transport: Option<Transport>,
    /// We upload to it.
    pub unchoked: bool,
    /// It wants our pieces.
    pub interested: bool,
    /// Pieces it has.
    pub pieces: u32,
    /// Both sides negotiated the Fast Extension.
    pub fast: bool,
}
