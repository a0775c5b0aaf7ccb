//! BitTorrent swarms (seed 003 chapters 5 and 6): the protocol logic as pure, sans-IO,
//! deterministic components. (Module documentation in progress.)

pub mod bitfield;
pub mod choker;
pub mod config;
pub mod disposition;
pub mod harness;
pub mod peer;
pub mod picker;
pub mod population;
pub mod torrent;
pub mod wire;

/// A peer of the swarm, as numbered by the population plan.
pub type PeerId = u32;
