//! `ledbat-utp`: uTP (BitTorrent BEP 29) on the `ledbat-core` congestion controllers.
//!
//! - [`packet`]: the wire codec (header, extension chain, selective ACK);
//! - [`seq`]: wrap-safe 16-bit sequence arithmetic.

#![forbid(unsafe_code)]
#![warn(missing_docs)]

pub mod packet;
pub mod seq;
