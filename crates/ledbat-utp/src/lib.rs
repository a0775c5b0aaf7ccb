//! `ledbat-utp`: uTP (BitTorrent BEP 29) on the `ledbat-core` congestion controllers.
//!
//! The protocol is sans-IO in the style of quinn-proto: every entry point takes `now`
//! ([`ledbat_core::Instant`]), datagrams go in as bytes and come out as bytes, and the caller
//! owns sockets and clocks.
//!
//! - [`packet`]: the wire codec (header, extension chain, selective ACK);
//! - [`seq`]: wrap-safe 16-bit sequence arithmetic;
//! - [`config`]: connection parameters with documented defaults;
//! - [`conn`]: one connection's state machine;
//! - [`rledbat`]: receiver-driven LEDBAT, the receive side's window;
//! - [`endpoint`]: many connections behind one socket (demultiplexing, accept, RESET for
//!   strangers, half-open bound);
//! - `harness` (feature `harness`, for tests, benchmarks and fuzz targets): two endpoints
//!   over an in-memory lossy network with a virtual clock;
//! - `replay` (feature `harness` too): datagram sequences (captures of real peers, fuzz
//!   inputs) played to one endpoint;
//! - `runtime` (feature `tokio`): UDP socket, listener and `AsyncRead`/`AsyncWrite` streams.

pub mod config;
pub mod conn;
pub mod packet;
mod recv;
pub mod rledbat;
pub mod seq;
pub mod stats;

pub use config::ConnectionConfig;
pub use conn::{Connection, ConnectionError, State, StreamError, Unreachable};
pub use stats::{ConnectionStats, EndpointStats};
pub mod endpoint;
#[cfg(feature = "harness")]
pub mod harness;
#[cfg(feature = "harness")]
pub mod replay;

pub use endpoint::{ConnHandle, Endpoint, EndpointConfig};
#[cfg(feature = "tokio")]
mod gso;
#[cfg(feature = "tokio")]
mod icmp;
#[cfg(feature = "tokio")]
pub mod runtime;
#[cfg(feature = "tokio")]
mod udp;
#[cfg(feature = "tokio")]
pub use runtime::{StatsHandle, UtpSocket, UtpStream};
