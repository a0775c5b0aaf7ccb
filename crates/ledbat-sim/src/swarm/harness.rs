//! An instant, lossless, in-memory "network" that drives a set of [`Peer`]s: the reference
//! for how the network model must drive them, and the test bed of the message-level
//! swarm tests.
//!
//! Every message, control or data, goes into one FIFO; each delivery advances the clock by
//! a fixed `step` (so choke rounds happen) and hands the message to its receiver. Data is
//! pulled as a transport would: once a peer reports [`Event::DataReady`] for a neighbour,
//! one block per step is taken from that upload queue until it is empty, so a CANCEL or a
//! CHOKE can still catch blocks not yet sent. There is no bandwidth and no transport: only
//! the protocol's logic is exercised.

use super::peer::{Event, Peer};
use super::wire::Message;
use super::PeerId;
use ledbat_core::{Duration, Instant};
use std::collections::{BTreeMap, BTreeSet, VecDeque};

/// Peers joined by an instant network.
#[derive(Clone, Debug)]
pub struct InstantSwarm {
    /// The peers; a peer's id is its index.
    pub peers: Vec<Peer>,
    queue: VecDeque<(PeerId, PeerId, Message)>,
    ready: BTreeSet<(PeerId, PeerId)>,
    now: Instant,
    step: Duration,
    /// Payload bytes put on each directed connection `(uploader, downloader)`.
    pub data_sent: BTreeMap<(PeerId, PeerId), u64>,
    /// Payload bytes delivered on each directed connection.
    pub data_delivered: BTreeMap<(PeerId, PeerId), u64>,
    /// Every message delivered, as `(time ns, from, to, name)`, for determinism checks.
    pub log: Vec<(u64, PeerId, PeerId, &'static str)>,
}

impl InstantSwarm {
    /// `peers` (peer `i` must have id `i`), one delivery every `step`.
    pub fn new(peers: Vec<Peer>, step: Duration) -> Self {
        assert!(peers.iter().enumerate().all(|(i, p)| p.id() as usize == i));
        InstantSwarm {
            peers,
            queue: VecDeque::new(),
            ready: BTreeSet::new(),
            now: Instant::ZERO,
            step,
            data_sent: BTreeMap::new(),
            data_delivered: BTreeMap::new(),
            log: Vec::new(),
        }
    }

    /// Simulated time.
    pub fn now(&self) -> Instant {
        self.now
    }

    /// Connects every pair of peers.
    pub fn connect_all(&mut self) {
        let n = self.peers.len() as PeerId;
        for a in 0..n {
            for b in a + 1..n {
                self.peers[a as usize].on_connected(self.now, b);
                self.peers[b as usize].on_connected(self.now, a);
            }
        }
        for i in 0..n {
            self.collect(i);
        }
    }

    fn collect(&mut self, i: PeerId) {
        let p = &mut self.peers[i as usize];
        for o in p.take_control() {
            self.queue.push_back((i, o.to, o.msg));
        }
        for e in p.take_events() {
            if let Event::DataReady { to } = e {
                self.ready.insert((i, to));
            }
        }
    }

    /// One block from every non-empty upload queue.
    fn pull_data(&mut self) {
        let ready: Vec<(PeerId, PeerId)> = self.ready.iter().copied().collect();
        for (from, to) in ready {
            match self.peers[from as usize].next_data(self.now, to) {
                Some(m) => {
                    *self.data_sent.entry((from, to)).or_default() += m.data_bytes() as u64;
                    self.queue.push_back((from, to, m));
                }
                None => {
                    self.ready.remove(&(from, to));
                }
            }
        }
    }

    /// Runs until every peer is a seed and nothing is in flight, or until `limit`;
    /// returns whether the swarm completed.
    pub fn run(&mut self, limit: Instant) -> bool {
        loop {
            let done = self.peers.iter().all(Peer::is_seed);
            if done && self.queue.is_empty() && self.ready.is_empty() {
                return true;
            }
            if self.now > limit {
                return false;
            }
            for i in 0..self.peers.len() as PeerId {
                if self.peers[i as usize].next_tick() <= self.now {
                    self.peers[i as usize].on_tick(self.now);
                    self.collect(i);
                }
            }
            self.pull_data();
            match self.queue.pop_front() {
                Some((from, to, msg)) => {
                    self.log.push((self.now.as_nanos(), from, to, msg.name()));
                    if msg.data_bytes() > 0 {
                        *self.data_delivered.entry((from, to)).or_default() +=
                            msg.data_bytes() as u64;
                    }
                    self.peers[to as usize].on_message(self.now, from, msg);
                    self.collect(to);
                    self.now += self.step;
                }
                None => {
                    let next = self.peers.iter().map(Peer::next_tick).min();
                    self.now = next.unwrap_or(self.now).max(self.now + self.step);
                }
            }
        }
    }
}

#[cfg(test)]
#[cfg(test)]
mod tests {
    use super::*;
    use crate::swarm::choker::ChokerConfig;
    use crate::swarm::peer::PeerConfig;
    use crate::swarm::torrent::{Torrent, BLOCK_SIZE};

    /// 2,051,616 bytes: 31 pieces of 64 KiB (4 blocks) and a last piece of 20,000 bytes
    /// (one full block and one of 3,616 bytes): 126 blocks.
    fn torrent() -> Torrent {
        Torrent::new(31 * 65_536 + 20_000, 4 * BLOCK_SIZE, BLOCK_SIZE).unwrap()
    }

    /// One seed (peer 0) and five leechers; the seed and leechers unchoke 2 regular + 1
    /// optimistic, so the seed cannot serve everybody at once.
    fn swarm(seed: u64) -> InstantSwarm {
        let cfg = PeerConfig {
            choker: ChokerConfig {
                regular: 2,
                optimistic: 1,
                ..ChokerConfig::default()
            },
            ..PeerConfig::default()
        };
        let peers = (0..6)
            .map(|i| {
                Peer::new(
                    i,
                    torrent(),
                    cfg,
                    i == 0,
                    Instant::ZERO,
                    seed * 100 + i as u64,
                )
            })
            .collect();
        let mut s = InstantSwarm::new(peers, Duration::from_millis(20));
        s.connect_all();
        s
    }

    #[test]
    fn every_leecher_gets_the_file_exactly_once_plus_counted_duplicates() {
        let f = torrent().file_size();
        for seed in 1..=5 {
            let mut s = swarm(seed);
            assert!(
                s.run(Instant::from_secs(600)),
                "seed {seed} stalled at {:?}",
                s.now()
            );
            let mut delivered = 0;
            for p in &s.peers[1..] {
                let st = p.stats();
                assert_eq!(st.downloaded, f, "peer {} seed {seed}", p.id());
                assert!(p.have().is_full());
                assert!(p.completed_at().is_some());
                delivered += st.downloaded + st.duplicate;
                // Each leecher received the file plus its duplicates, nothing else.
                let into: u64 = s
                    .data_delivered
                    .iter()
                    .filter(|((_, to), _)| *to == p.id())
                    .map(|(_, b)| b)
                    .sum();
                assert_eq!(into, st.downloaded + st.duplicate);
                assert_eq!(st.ignored, 0, "no malformed traffic in a sound swarm");
            }
            // Conservation: bytes handed to the network = bytes delivered, per connection
            // and in total, and equal to what the uploaders counted.
            assert_eq!(s.data_sent, s.data_delivered);
            let uploaded: u64 = s.peers.iter().map(|p| p.stats().uploaded).sum();
            assert_eq!(uploaded, delivered);
            assert_eq!(
                s.peers[0].stats().downloaded,
                0,
                "the seed downloads nothing"
            );
            // It is a swarm: leechers upload to each other.
            let leecher_up: u64 = s.peers[1..].iter().map(|p| p.stats().uploaded).sum();
            assert!(leecher_up > 0, "seed {seed}: leechers never traded");
        }
    }

    #[test]
    fn endgame_duplicates_are_counted_when_they_happen() {
        // Over a few seeds the endgame's parallel requests let a second copy through
        // before its CANCEL arrives at least once.
        let dups: u64 = (1..=10)
            .map(|seed| {
                let mut s = swarm(seed);
                assert!(s.run(Instant::from_secs(600)));
                s.peers
                    .iter()
                    .map(|p| p.stats().endgame_duplicate)
                    .sum::<u64>()
            })
            .sum();
        assert!(dups > 0);
    }

    #[test]
    fn identical_seeds_give_identical_runs() {
        let run = |seed| {
            let mut s = swarm(seed);
            s.run(Instant::from_secs(600));
            let done: Vec<_> = s
                .peers
                .iter()
                .map(|p| (p.completed_at(), p.stats()))
                .collect();
            (s.log, done)
        };
        let a = run(7);
        assert_eq!(a, run(7));
        assert_ne!(a.0, run(8).0, "the seed drives the random choices");
    }
}
