//! An instant, lossless, in-memory "network" that drives a set of [`Peer`]s: the reference
//! for how the network model must drive them, and the test bed of the message-level
//! swarm tests.
//!
//! Every message, control or data, goes into one FIFO; each delivery advances the clock by
//! a fixed `step` (so choke rounds happen) and hands the message to its receiver. Data is
//! pulled as a transport would: once a peer reports [`Event::DataReady`] for a neighbour,
//! one block per step is taken from that upload queue until it is empty, so a CANCEL or a
//! CHOKE can still catch blocks not yet sent. Peers can join (connecting to the neighbours
//! a tracker gave them) and leave (their neighbours see the connections close; whatever was
//! in flight to or from them is lost and counted). There is no bandwidth and no transport:
//! only the protocol's logic is exercised.

use super::peer::{Event, Peer};
use super::wire::Message;
use super::PeerId;
use ledbat_core::{Duration, Instant};
use std::collections::{BTreeMap, BTreeSet, VecDeque};

/// Peers joined by an instant network.
#[derive(Clone, Debug)]
pub struct InstantSwarm {
    /// Every peer that ever joined; a peer's id is its index.
    pub peers: Vec<Peer>,
    present: BTreeSet<PeerId>,
    queue: VecDeque<(PeerId, PeerId, Message)>,
    ready: BTreeSet<(PeerId, PeerId)>,
    now: Instant,
    step: Duration,
    completions: Vec<(PeerId, Instant)>,
    /// Payload bytes put on each directed connection `(uploader, downloader)`.
    pub data_sent: BTreeMap<(PeerId, PeerId), u64>,
    /// Payload bytes delivered on each directed connection.
    pub data_delivered: BTreeMap<(PeerId, PeerId), u64>,
    /// Payload bytes in flight on a connection when one of its ends left.
    pub data_dropped: BTreeMap<(PeerId, PeerId), u64>,
    /// Every message delivered, as `(time ns, from, to, name)`, for determinism checks.
    pub log: Vec<(u64, PeerId, PeerId, &'static str)>,
}

impl InstantSwarm {
    /// `peers` (peer `i` must have id `i`), one delivery every `step`.
    pub fn new(peers: Vec<Peer>, step: Duration) -> Self {
        assert!(peers.iter().enumerate().all(|(i, p)| p.id() as usize == i));
        InstantSwarm {
            present: (0..peers.len() as PeerId).collect(),
            peers,
            queue: VecDeque::new(),
            ready: BTreeSet::new(),
            now: Instant::ZERO,
            step,
            completions: Vec::new(),
            data_sent: BTreeMap::new(),
            data_delivered: BTreeMap::new(),
            data_dropped: BTreeMap::new(),
            log: Vec::new(),
        }
    }

    /// Simulated time.
    pub fn now(&self) -> Instant {
        self.now
    }

    /// The peers present, in increasing order.
    pub fn present(&self) -> Vec<PeerId> {
        self.present.iter().copied().collect()
    }

    /// Downloads completed since the last call: `(peer, time)`.
    pub fn take_completions(&mut self) -> Vec<(PeerId, Instant)> {
        std::mem::take(&mut self.completions)
    }

    fn connect(&mut self, a: PeerId, b: PeerId) {
        self.peers[a as usize].on_connected(self.now, b);
        self.peers[b as usize].on_connected(self.now, a);
    }

    /// Connects every pair of peers present.
    pub fn connect_all(&mut self) {
        let ids = self.present();
        for (i, &a) in ids.iter().enumerate() {
            for &b in &ids[i + 1..] {
                self.connect(a, b);
            }
        }
        for i in ids {
            self.collect(i);
        }
    }

    /// `peer` (its id must be the next index) joins now and connects to `neighbours`.
    pub fn join(&mut self, peer: Peer, neighbours: &[PeerId]) {
        let id = peer.id();
        assert_eq!(id as usize, self.peers.len(), "ids are allocated in order");
        self.peers.push(peer);
        self.present.insert(id);
        for &q in neighbours {
            if self.present.contains(&q) && q != id {
                self.connect(id, q);
                self.collect(q);
            }
        }
        self.collect(id);
    }

    /// Peer `id` leaves now: its neighbours see their connections close, and whatever was
    /// in flight to or from it is lost.
    pub fn leave(&mut self, id: PeerId) {
        if !self.present.remove(&id) {
            return;
        }
        let neighbours: Vec<PeerId> = self.peers[id as usize].neighbours().collect();
        for q in neighbours {
            if self.present.contains(&q) {
                self.peers[q as usize].on_closed(self.now, id);
                self.collect(q);
            }
        }
        let dropped = &mut self.data_dropped;
        self.queue.retain(|(from, to, m)| {
            let gone = *from == id || *to == id;
            if gone && m.data_bytes() > 0 {
                *dropped.entry((*from, *to)).or_default() += m.data_bytes() as u64;
            }
            !gone
        });
        self.ready.retain(|(from, to)| *from != id && *to != id);
    }

    fn collect(&mut self, i: PeerId) {
        let p = &mut self.peers[i as usize];
        for o in p.take_control() {
            self.queue.push_back((i, o.to, o.msg));
        }
        for e in p.take_events() {
            match e {
                Event::DataReady { to } => {
                    self.ready.insert((i, to));
                }
                Event::Completed => self.completions.push((i, self.now)),
                _ => {}
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

    /// Payload bytes in flight on each directed connection.
    pub fn data_in_flight(&self) -> BTreeMap<(PeerId, PeerId), u64> {
        let mut out = BTreeMap::new();
        for (from, to, m) in &self.queue {
            if m.data_bytes() > 0 {
                *out.entry((*from, *to)).or_default() += m.data_bytes() as u64;
            }
        }
        out
    }

    /// Whether nothing is in flight or waiting to be pulled.
    pub fn quiet(&self) -> bool {
        self.queue.is_empty() && self.ready.is_empty()
    }

    /// Runs the choke rounds due, pulls data, delivers one message (advancing the clock by
    /// `step`), or, with nothing in flight, jumps to the next choke round.
    pub fn step(&mut self) {
        for i in self.present() {
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
                    *self.data_delivered.entry((from, to)).or_default() += msg.data_bytes() as u64;
                }
                self.peers[to as usize].on_message(self.now, from, msg);
                self.collect(to);
                self.now += self.step;
            }
            None => {
                let next = self
                    .present
                    .iter()
                    .map(|&i| self.peers[i as usize].next_tick())
                    .min();
                self.now = next.unwrap_or(self.now).max(self.now + self.step);
            }
        }
    }

    /// Runs until every peer present is a seed and nothing is in flight, or until
    /// `limit`; returns whether the swarm completed.
    pub fn run(&mut self, limit: Instant) -> bool {
        loop {
            let done = self
                .present
                .iter()
                .all(|&i| self.peers[i as usize].is_seed());
            if done && self.quiet() {
                return true;
            }
            if self.now > limit {
                return false;
            }
            self.step();
        }
    }
}

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

    /// Churn through the population plan: 1 seed and 6 leechers all at once, newborn seeds
    /// leave (at once, or after a random stay) and are replaced by a newcomer that asks the
    /// tracker for neighbours; run until 20 completions.
    fn churn(behaviour: &str, seed: u64) -> (InstantSwarm, Vec<PeerId>) {
        use crate::swarm::config::SwarmConfig;
        use crate::swarm::population::Population;
        let text = format!(
            "[swarm]\nfile_size = 1000000\npiece_size = 65536\nleechers = 6\n\
             endgame = true\narrival = {{ kind = \"all-at-once\" }}\n\
             seed_behaviour = \"{behaviour}\"\n[[swarm.class]]\nname = \"all\"\n"
        );
        let cfg = SwarmConfig::from_toml(&text).unwrap();
        let (t, pc) = (cfg.torrent().unwrap(), cfg.peer_config());
        let mut pop = Population::new(&cfg, seed);
        let peers = pop
            .initial(&cfg)
            .iter()
            .map(|p| Peer::new(p.id, t, pc, p.seed, p.arrival, p.rng_seed))
            .collect();
        let mut s = InstantSwarm::new(peers, Duration::from_millis(20));
        s.connect_all();
        let mut joined: Vec<Instant> = vec![Instant::ZERO; 7];
        let mut departures: Vec<(Instant, PeerId)> = Vec::new();
        let mut completed = Vec::new();
        while completed.len() < 20 && s.now() < Instant::from_secs(3_000) {
            s.step();
            for (id, at) in s.take_completions() {
                completed.push(id);
                if let Some(leave) = pop.on_completed(id, joined[id as usize], at) {
                    departures.push((leave, id));
                }
            }
            departures.sort();
            while departures.first().is_some_and(|(t, _)| *t <= s.now()) {
                let (_, id) = departures.remove(0);
                s.leave(id);
                if let Some(plan) = pop.on_departed(id, s.now()) {
                    let neighbours = pop.tracker_reply(plan.id, &s.present());
                    joined.push(s.now());
                    let peer = Peer::new(plan.id, t, pc, false, s.now(), plan.rng_seed);
                    s.join(peer, &neighbours);
                }
            }
        }
        (s, completed)
    }

    #[test]
    fn churning_swarm_keeps_delivering_whole_files() {
        for behaviour in ["leave-at-once", "random-stay"] {
            for seed in 1..=3 {
                let (s, completed) = churn(behaviour, seed);
                assert_eq!(
                    completed.len(),
                    20,
                    "{behaviour} seed {seed} stalled at {:?}",
                    s.now()
                );
                let f = 1_000_000;
                for &id in &completed {
                    let st = s.peers[id as usize].stats();
                    assert_eq!(st.downloaded, f, "{behaviour} seed {seed} peer {id}");
                    assert_eq!(st.ignored, 0);
                }
                // Nobody downloads more than the file; partial downloads of those present.
                assert!(s.peers.iter().all(|p| p.stats().downloaded <= f));
                // Conservation with departures: sent = delivered + lost when an end left
                // + still in flight, per connection.
                let flying = s.data_in_flight();
                for (k, sent) in &s.data_sent {
                    let got = s.data_delivered.get(k).copied().unwrap_or(0)
                        + s.data_dropped.get(k).copied().unwrap_or(0)
                        + flying.get(k).copied().unwrap_or(0);
                    assert_eq!(*sent, got, "{behaviour} seed {seed} connection {k:?}");
                }
                assert!(s.peers.len() > 20, "departures were replaced");
                if behaviour == "leave-at-once" {
                    // Every newborn seed left, so only leechers and the first seed remain.
                    let seeds = s
                        .present()
                        .iter()
                        .filter(|&&i| s.peers[i as usize].is_seed())
                        .count();
                    assert_eq!(seeds, 1, "only the initial seed stays");
                }
            }
        }
    }
}
