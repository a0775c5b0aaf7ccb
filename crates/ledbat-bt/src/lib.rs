//! `ledbat-bt`: a minimal BitTorrent peer over any ordered byte stream.
//!
//! It exists to carry real BitTorrent traffic over `ledbat-utp`, because deployed uTP
//! peers (libtorrent, Transmission's libutp) accept uTP only as the carrier of the
//! BitTorrent peer protocol. It speaks enough of it to exchange a torrent with them:
//!
//! - [`metainfo`]: v1 `.torrent` files (BEP 3), parsed and created;
//! - [`wire`]: the handshake and peer messages (BEP 3, Fast Extension BEP 6);
//! - [`bitfield`]: piece sets in wire layout;
//! - [`storage`]: pieces mapped onto files, SHA-1 checks, temporary download names;
//! - [`torrent`]: state shared by a torrent's connections, piece picking;
//! - [`peer`]: one connection's event loop over any `AsyncRead + AsyncWrite` stream;
//! - [`config`]: the connection settings and their sources.
//!
//! No tracker and no DHT: peers are given as addresses by the caller, which also owns the
//! transport (uTP, TCP or an in-memory pipe).

pub mod bitfield;
pub mod config;
pub mod metainfo;
pub mod peer;
pub mod storage;
pub mod torrent;
pub mod wire;

pub use bitfield::Bitfield;
pub use config::PeerConfig;
pub use metainfo::{create as create_torrent, Metainfo, MetainfoError};
pub use peer::{new_peer_id, run_peer, CloseReason, PeerError, PeerOptions, PeerSummary};
pub use storage::{OutputPaths, Storage, StorageError};
pub use torrent::{Torrent, TorrentCounters};
