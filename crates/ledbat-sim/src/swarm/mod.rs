//! BitTorrent swarms (seed 003 chapters 5 and 6): the protocol's logic as pure, sans-IO,
//! deterministic components, for a network model to carry over simulated connections.
//!
//! | module | holds |
//! |---|---|
//! | [`torrent`], [`bitfield`] | a file in pieces and 16 KiB blocks; sets of pieces |
//! | [`wire`] | the BEP 3 messages and their sizes on the wire |
//! | [`picker`] | what to request: strict priority, random first piece, rarest first, pipeline, endgame |
//! | [`choker`] | whom to serve: tit-for-tat rounds, optimistic unchoke, seed policies, anti-snubbing |
//! | [`disposition`] | µTorrent's `bt.transp_disposition`: which transport carries a pair's data |
//! | [`peer`] | one peer's state machine composing the above: inputs, control and data outputs, events |
//! | [`population`] | arrivals, class draws, departures, replacements, tracker replies |
//! | [`config`] | the `[swarm]` scenario section, its defaults and their sources, validation |
//! | [`report`] | what a run measured: per peer, per class, completion-time statistics |
//! | [`harness`] | an instant in-memory network driving peers: reference driver and test bed |
//!
//! # Design
//!
//! Nothing here reads a clock, owns a socket or schedules an event: every entry point takes
//! `now` ([`ledbat_core::Instant`]) and returns what to send. Randomness comes from ChaCha8
//! generators seeded from the run seed: the [`population::Population`] draws arrivals,
//! classes, delays, stays and tracker replies from separate streams, and gives every peer
//! the seed of its own generator (piece and optimistic draws), so a run is a function of
//! (configuration, seed) whatever order the network model delivers simultaneous events in,
//! as long as that order is itself deterministic. Collections are ordered (`BTreeMap`,
//! sorted vectors) so iteration never depends on hashing.
//!
//! # How the network model drives it
//!
//! 1. From [`config::SwarmConfig`]: the torrent ([`config::SwarmConfig::torrent`]), the
//!    per-peer settings ([`config::SwarmConfig::peer_config`]), and
//!    [`population::Population::new`] with the run seed; schedule the arrivals of
//!    [`population::Population::initial`].
//! 2. At an arrival, build [`peer::Peer::new`] with the plan's id, seed flag and generator
//!    seed and its class's access links (rates, buffer, the plan's delay). Ask
//!    [`population::Population::tracker_reply`] for neighbours among the peers present;
//!    for each, [`disposition::resolve`] the two classes' dispositions under
//!    `disposition_model`. `None`: no connection. Otherwise open the connections the
//!    [`disposition::Link`] names: control on `control` (TCP in chapter 5's model), and the
//!    data of each direction on the uploader's transport (`a_to_b`, `b_to_a`; uTP means the
//!    class's `utp_cc`, TCP its `tcp_cc`). Once established (after the handshake's round
//!    trip, if modelled), call [`peer::Peer::on_connected`] on both peers.
//! 3. After any input to a peer, take its control messages ([`peer::Peer::take_control`])
//!    and write each message's [`wire::Message::wire_bytes`] into the control connection
//!    to its destination, remembering where each message ends in that byte stream; when
//!    the receiver has received a message's last byte in order, call
//!    [`peer::Peer::on_message`] on it.
//! 4. Take its events ([`peer::Peer::take_events`]). [`peer::Event::DataReady`] marks the
//!    data connection towards that neighbour as having application data: whenever that
//!    connection can take more (its send buffer holds less than one block, as the ns-2
//!    module hands TCP one block at a time), call [`peer::Peer::next_data`] and write the
//!    PIECE's wire bytes; deliver it like a control message. [`peer::Event::Block`] feeds
//!    the metrics (its `latency` is the request-to-block signalling delay);
//!    [`peer::Event::Completed`] goes to [`population::Population::on_completed`], whose
//!    answer schedules the departure. At a departure, close the peer's connections, call
//!    [`peer::Peer::on_closed`] on each neighbour, and schedule the replacement from
//!    [`population::Population::on_departed`].
//! 5. Schedule [`peer::Peer::on_tick`] at [`peer::Peer::next_tick`] (the choke rounds).
//!
//! Messages on one connection arrive in order; control and data travel on different
//! connections and may overtake each other (a CHOKE can arrive before blocks already sent),
//! which the peer handles: blocks that arrive after their request was released are kept
//! if still needed and counted as duplicates otherwise. The [`harness`] follows these steps
//! with an instant network and is the reference for the contract.

pub mod bitfield;
pub mod choker;
pub mod config;
pub mod disposition;
pub mod harness;
pub mod peer;
pub mod picker;
pub mod population;
pub mod report;
pub mod torrent;
pub mod wire;

/// A peer of the swarm, as numbered by the population plan.
pub type PeerId = u32;
