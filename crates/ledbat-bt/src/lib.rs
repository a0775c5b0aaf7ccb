//! `ledbat-bt`: a minimal BitTorrent peer over any ordered byte stream.
//!
//! It exists to carry real BitTorrent traffic over `ledbat-utp`, because deployed uTP
//! peers (libtorrent, Transmission's libutp) accept uTP only as the carrier of the
//! BitTorrent peer protocol. It speaks enough of it to exchange a torrent with them:
//!
//! - [`bencode`]: the one way bencode from strangers is decoded (bounds checked first);
//! - [`metainfo`]: v1 `.torrent` files (BEP 3), parsed and created;
//! - [`wire`]: the handshake and peer messages (BEP 3, Fast Extension BEP 6);
//! - [`bitfield`]: piece sets in wire layout;
//! - [`storage`]: pieces mapped onto files, SHA-1 checks, temporary download names;
//! - [`picker`]: which block to ask whom for (rarest first, random first piece, endgame);
//! - [`choker`]: whom to upload to (tit-for-tat rounds, optimistic unchoke, anti-snubbing);
//! - [`disposition`]: µTorrent's `bt.transp_disposition`, which transports to open and
//!   accept, and which of two connections to one peer to keep;
//! - [`tracker`]: HTTP tracker announces (BEP 3, BEP 23) and their schedule;
//! - [`torrent`]: state shared by a torrent's connections, composing the above;
//! - [`peer`]: one connection's event loop over any `AsyncRead + AsyncWrite` stream;
//! - [`config`]: the connection settings and their sources.
//!
//! `picker`, `choker`, `disposition` and the tracker's request, answer and schedule are
//! sans-IO (time passed in as `now`). No DHT: peers come from the tracker or from the
//! caller, which also owns the transports (uTP, TCP or an in-memory pipe).

pub mod bencode;
pub mod bitfield;
pub mod choker;
pub mod config;
pub mod disposition;
pub mod metainfo;
pub mod peer;
pub mod picker;
pub mod storage;
pub mod torrent;
pub mod tracker;
pub mod wire;

pub use bitfield::Bitfield;
pub use config::PeerConfig;
pub use disposition::{Disposition, Transport};
pub use metainfo::{create as create_torrent, Metainfo, MetainfoError};
pub use peer::{new_peer_id, run_peer, CloseReason, PeerError, PeerOptions, PeerSummary};
pub use storage::{OutputPaths, Storage, StorageError};
pub use torrent::{Torrent, TorrentConfig, TorrentCounters};
