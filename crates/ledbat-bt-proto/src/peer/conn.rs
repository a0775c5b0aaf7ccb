//! The state of one connection as the peer keeps it.

use super::{CloseReason, ConnInfo, ConnStats};
use crate::bitfield::Bitfield;
use crate::wire::{BlockRequest, Frame};
use crate::ConnId;
use ledbat_core::Instant;
use std::collections::VecDeque;

/// Where a connection is in its life.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Phase {
    /// Our handshake is queued; the peer's must arrive by `deadline` (if timed).
    Handshaking {
        /// When the handshake timeout closes the connection.
        deadline: Option<Instant>,
    },
    /// Messages flow; the connection takes part in choking and picking.
    Open,
}

/// One connection (BEP 3's four flags, the peer's pieces, requests both ways, counters).
#[derive(Clone, Debug)]
pub(super) struct Conn<D> {
    pub id: ConnId,
    pub info: ConnInfo,
    pub phase: Phase,
    /// The peer id of its handshake, once accepted.
    pub peer_id: Option<[u8; 20]>,
    /// Both sides announced the Fast Extension.
    pub fast: bool,
    /// Both sides announced the Extension Protocol.
    pub extended: bool,
    /// No message but keep-alives and extended handshakes received yet.
    pub first_message: bool,
    /// The peer's pieces.
    pub bitfield: Bitfield,
    pub am_choking: bool,
    pub am_interested: bool,
    pub peer_choking: bool,
    pub peer_interested: bool,
    /// When it opened (the optimistic draw favours newcomers).
    pub connected_at: Instant,
    /// Payload received this choke round (tit-for-tat while leeching).
    pub down_round: u64,
    /// Payload sent this choke round (a seed's upload-rate policy).
    pub up_round: u64,
    /// Anti-snubbing counts from here ([`crate::SnubClock`]).
    pub snub_since: Instant,
    /// The request timeout counts from here: the last block, or when requests started
    /// from none outstanding.
    pub request_clock: Instant,
    pub last_recv: Instant,
    pub last_sent: Instant,
    /// Requests accepted for upload, in arrival order.
    pub uploads: VecDeque<BlockRequest>,
    /// Frames to send, in order.
    pub out: VecDeque<Frame<D>>,
    /// Listed in the peer's dirty queue.
    pub dirty: bool,
    /// Payload bytes per second it delivers (average over seconds).
    pub rate: f64,
    /// `stats.downloaded` at the last rate update.
    pub rate_mark: u64,
    pub stats: ConnStats,
    pub closing: Option<CloseReason>,
}

impl<D> Conn<D> {
    pub fn new(
        id: ConnId,
        info: ConnInfo,
        pieces: u32,
        now: Instant,
        deadline: Option<Instant>,
    ) -> Self {
        Conn {
            id,
            info,
            phase: Phase::Handshaking { deadline },
            peer_id: None,
            fast: false,
            extended: false,
            first_message: true,
            bitfield: Bitfield::new(pieces),
            am_choking: true,
            am_interested: false,
            peer_choking: true,
            peer_interested: false,
            connected_at: now,
            down_round: 0,
            up_round: 0,
            snub_since: now,
            request_clock: now,
            last_recv: now,
            last_sent: now,
            uploads: VecDeque::new(),
            out: VecDeque::new(),
            dirty: false,
            rate: 0.0,
            rate_mark: 0,
            stats: ConnStats::default(),
            closing: None,
        }
    }
}

/// A peer's connections by id, iterated in id order.
pub(super) type ConnMap<D> = crate::sorted_map::SortedMap<ConnId, Conn<D>>;
