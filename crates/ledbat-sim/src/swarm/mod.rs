//! BitTorrent swarms (seed 003 chapters 5 and 6): what the simulator adds to the protocol
//! of `ledbat-bt-proto`, the same sans-IO peer the real client (`ledbat-bt`) runs.
//!
//! | module | holds |
//! |---|---|
//! | [`population`] | arrivals, class draws, departures, replacements, tracker replies |
//! | [`report`] | what a run measured: per peer, per class, completion-time statistics |
//!
//! The `[swarm]` section of a scenario (its defaults and their sources, validation, and the
//! peers' protocol settings it gives) is part of the scenario schema,
//! [`crate::scenario::swarm`]; the network model that carries the peers over simulated
//! connections is `world::swarm`.
//!
//! # Design
//!
//! Nothing here reads a clock, owns a socket or schedules an event. Randomness comes from
//! ChaCha8 generators seeded from the run seed: the [`population::Population`] draws
//! arrivals, classes, delays, stays and tracker replies from separate streams, and gives
//! every peer the seed of its own generator (piece and optimistic draws), so a run is a
//! function of (configuration, seed) whatever order the network model delivers
//! simultaneous events in, as long as that order is itself deterministic. Collections are
//! ordered (`BTreeMap`, sorted vectors) so iteration never depends on hashing.
//!
//! # How the network model drives a peer ([`ledbat_bt_proto::Peer`])
//!
//! 1. From [`SwarmConfig`](crate::scenario::swarm::SwarmConfig): the torrent's layout
//!    ([`torrent`](crate::scenario::swarm::SwarmConfig::torrent)), the per-peer protocol
//!    settings ([`peer_config`](crate::scenario::swarm::SwarmConfig::peer_config)), and
//!    [`population::Population::new`] with the run seed; schedule the arrivals of
//!    [`population::Population::initial`].
//! 2. At an arrival, build the peer with the plan's id (its connection ids are its
//!    neighbours' peer ids), seed flag and generator seed, and its class's access links
//!    (rates, buffer, the plan's delay). Ask [`population::Population::tracker_reply`] for
//!    neighbours among the peers present; for each, [`ledbat_bt_proto::disposition::resolve`]
//!    the two classes' dispositions under `disposition_model`. `None`: no connection.
//!    Otherwise open the connections the [`ledbat_bt_proto::disposition::Link`] names:
//!    control on `control` (TCP in chapter 5's model), and the data of each direction on the
//!    uploader's transport (`a_to_b`, `b_to_a`; uTP means the class's `utp_cc`, TCP its
//!    `tcp_cc`). Once established (after the handshake's round trip, if modelled), call
//!    `handle_connected` on both peers: with the simulator's settings each queues its
//!    handshake and bitfield at once.
//! 3. After any input to a peer, take the connections it has frames for (`poll_dirty`, in
//!    order) and write each frame's `encoded_len` into the control connection to that
//!    neighbour (`poll_transmit`), remembering where each frame ends in that byte stream;
//!    when the receiver has received a frame's last byte in order, hand it to the receiving
//!    peer (`handle_handshake` or `handle_message`).
//! 4. Take its events (`poll_event`). `DataReady` marks the data connection towards that
//!    neighbour as having application data: whenever that connection can take more (its
//!    send buffer holds less than one block, as the ns-2 module hands TCP one block at a
//!    time), call `poll_upload` and write the PIECE's encoded length; deliver it like a
//!    control message. `Block` feeds the metrics (its `latency` is the request-to-block
//!    signalling delay); `Completed` goes to [`population::Population::on_completed`],
//!    whose answer schedules the departure. At a departure, close the peer's connections,
//!    call `handle_closed` on each neighbour, and schedule the replacement from
//!    [`population::Population::on_departed`].
//! 5. Call `handle_timeout` at `poll_timeout` (the choke rounds).
//!
//! Messages on one connection arrive in order; control and data travel on different
//! connections and may overtake each other (a CHOKE can arrive before blocks already sent),
//! which the peer handles: blocks that arrive after their request was released are kept if
//! still needed and counted as duplicates otherwise. `ledbat-bt-proto`'s instant-network
//! test (`crates/ledbat-bt-proto/tests/instant_swarm.rs`) follows these steps without
//! bandwidth.

pub mod population;
pub mod report;

/// A peer of the swarm, as numbered by the population plan.
pub type PeerId = u32;
