//! `ledbat-bt-proto`: the BitTorrent peer protocol as sans-IO, deterministic components,
//! driven alike by the real client (`ledbat-bt`, over uTP and TCP) and by the simulator's
//! swarms (`ledbat-sim`), so that a simulated swarm and a real one run the same rules.
//!
//! - [`layout`]: a torrent in pieces and blocks, and the wire's `(index, begin, length)`;
//! - [`bitfield`]: sets of pieces, and their BEP 3 wire layout;
//! - [`bencode`]: the one way bencode from strangers is decoded (bounds and depth checked
//!   first): extended handshakes here, torrents and tracker answers in the client;
//! - [`wire`]: the handshake and messages of BEP 3, BEP 6 and BEP 10's handshake, with
//!   their encoded lengths (blocks as bytes or, in a simulator, as a length);
//! - [`picker`]: what to request (strict priority, random first piece, rarest first,
//!   pipeline, endgame);
//! - [`choker`]: whom to serve (tit-for-tat, optimistic unchoke, seed policies,
//!   anti-snubbing);
//! - [`disposition`]: µTorrent's `bt.transp_disposition`, the transport of a pair's data,
//!   and which of two connections to one peer stays;
//! - [`config`]: every setting, with the values where the client and the simulator differ;
//! - [`peer`]: one torrent as one peer sees it, composing the above: `handle_*` in,
//!   `poll_*` out, time passed in, randomness from a generator the driver seeds;
//! - [`sorted_map`]: the ordered map of a peer's per-connection tables (here and in the
//!   simulator's swarms).
//!
//! No socket, no clock, no disk: metainfo, storage, SHA-1, trackers and the network are
//! the drivers' business.

pub mod bencode;
pub mod bitfield;
pub mod choker;
pub mod config;
pub mod deque;
pub mod disposition;
pub mod layout;
pub mod peer;
pub mod picker;
pub mod sorted_map;
pub mod wire;

/// A connection, as the peer names it (any number the driver chooses, unique among the
/// peer's connections; iteration is in increasing order).
pub type ConnId = u64;

pub use bitfield::{Bitfield, BitfieldError};
pub use choker::{ChokerConfig, SeedChoking};
pub use config::{Opening, PeerConfig, Pipeline, SnubClock, Timers, Verification};
pub use disposition::{Disposition, DispositionError, Transport};
pub use layout::{Block, Layout, LayoutError, BLOCK_LEN};
pub use peer::{
    Bytes, CloseReason, ConnInfo, ConnStats, ConnView, Event, Peer, PeerStats, Received, Violation,
};
pub use picker::{Endgame, PickerConfig};
pub use wire::{BlockData, BlockRequest, Frame, Handshake, Len, Message, WireError};
