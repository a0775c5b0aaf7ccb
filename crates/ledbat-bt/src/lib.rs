//! `ledbat-bt`: a BitTorrent client over any ordered byte stream, on the sans-IO protocol
//! of `ledbat-bt-proto`.
//!
//! It carries real BitTorrent traffic over `ledbat-utp` and kernel TCP, in swarms with
//! libtorrent, Transmission and qBittorrent: deployed uTP peers accept uTP only as the
//! carrier of the BitTorrent peer protocol. The protocol's decisions (bitfields, the BEP 3
//! codec, picking, choking, the transport disposition, each connection's state and timers)
//! are `ledbat-bt-proto`'s, the same code the simulator's swarms run; this crate adds what
//! a real client needs around them:
//!
//! - [`metainfo`]: v1 `.torrent` files (BEP 3), parsed and created;
//! - [`storage`]: pieces mapped onto files, SHA-1 checks, temporary download names;
//! - [`tracker`]: HTTP tracker announces (BEP 3, BEP 23) and their schedule;
//! - [`torrent`]: the state a torrent's connections share (the sans-IO peer, the storage,
//!   pieces being checked) behind one lock, and their wake-ups;
//! - [`peer`]: one connection's tokio task over any `AsyncRead + AsyncWrite` stream.
//!
//! No DHT: peers come from the tracker or from the caller, which also owns the transports
//! (uTP, TCP or an in-memory pipe).

pub mod metainfo;
pub mod peer;
pub mod storage;
pub mod torrent;
pub mod tracker;

/// The sans-IO protocol this client runs.
pub use ledbat_bt_proto as proto;
pub use ledbat_bt_proto::{Bitfield, Disposition, PeerConfig, Transport};
pub use metainfo::{create as create_torrent, Metainfo, MetainfoError};
pub use peer::{new_peer_id, run_peer, Ending, PeerError, PeerOptions, PeerSummary};
pub use storage::{OutputPaths, Storage, StorageError};
pub use torrent::{Limits, LimitsReport, Refusal, Torrent, TorrentConfig, TorrentCounters};

/// A fresh scratch directory for a unit test, named for `tag`, removed when dropped whether
/// the test passes or fails.
#[cfg(test)]
pub(crate) fn tmpdir(tag: &str) -> tempfile::TempDir {
    tempfile::Builder::new()
        .prefix(&format!("ledbat-bt-{tag}-"))
        .tempdir()
        .unwrap()
}
