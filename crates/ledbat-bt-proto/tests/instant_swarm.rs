//! Whole swarms of `Peer`s over an instant, lossless, in-memory network: the reference for
//! how a driver must use the peer (the simulator's network model follows the same steps
//! with bandwidth and delay), and the swarm-level test bed of the protocol.
//!
//! Every frame, control or data, goes into one FIFO; each delivery advances the clock by a
//! fixed `step` (so choke rounds happen) and hands the frame to its receiver. Data is
//! pulled as a transport would: once a peer reports `DataReady` for a connection, one block
//! per step is taken from that upload queue until it is empty, so a CANCEL or a CHOKE can
//! still catch blocks not yet sent. Peers can join (connecting to every peer present) and
//! leave (their neighbours see the connections close; whatever was in flight to or from
//! them is lost and counted). Connection ids are peer numbers.
//!
//! Both drivers' settings run here: the simulator's (blocks as lengths, pieces trusted,
//! opening at once) and the client's (blocks as bytes, pieces checked by the driver, the
//! opening after the peer's handshake, timers on), the latter with an uploader that
//! corrupts one piece.

use ledbat_bt_proto::config::{Opening, Pipeline, SnubClock, Timers, Verification};
use ledbat_bt_proto::{
    Bitfield, BlockData, ChokerConfig, CloseReason, ConnId, ConnInfo, Endgame, Event, Frame,
    Layout, Len, Message, Peer, PeerConfig, PickerConfig, Received,
};
use ledbat_core::{Duration, Instant};
use std::collections::{BTreeMap, BTreeSet, VecDeque};

/// What a PIECE carries in a test swarm.
trait Payload: BlockData + Clone + std::fmt::Debug {
    /// The block `(index, begin, length)` as uploader `from` sends it.
    fn make(from: u32, index: u32, begin: u32, length: u32) -> Self;
}

impl Payload for Len {
    fn make(_: u32, _: u32, _: u32, length: u32) -> Self {
        Len(length)
    }
}

/// The true content of byte `i` of the torrent.
fn byte(i: u64) -> u8 {
    (i.wrapping_mul(2_654_435_761) >> 7) as u8
}

/// Peers numbered [`LIAR`] send piece 1 corrupted.
const LIAR: u32 = 9;

impl Payload for Vec<u8> {
    fn make(from: u32, index: u32, begin: u32, length: u32) -> Self {
        let start = index as u64 * PIECE as u64 + begin as u64;
        let mut v: Vec<u8> = (start..start + length as u64).map(byte).collect();
        if from == LIAR && index == 1 {
            v[0] ^= 0xff;
        }
        v
    }
}

const PIECE: u32 = 4 * 16_384;

/// 2,051,616 bytes: 31 pieces of 64 KiB (4 blocks) and a last piece of 20,000 bytes (one
/// full block and one of 3,616 bytes): 126 blocks.
fn layout() -> Layout {
    Layout::new(31 * 65_536 + 20_000, PIECE, 16_384).unwrap()
}

struct InstantSwarm<D> {
    peers: Vec<Peer<D>>,
    present: BTreeSet<u32>,
    queue: VecDeque<(u32, u32, Frame<D>)>,
    ready: BTreeSet<(u32, u32)>,
    now: Instant,
    step: Duration,
    completions: Vec<(u32, Instant)>,
    /// Blocks kept by each peer for pieces not yet checked (client settings).
    bufs: BTreeMap<(u32, u32), BTreeMap<u32, D>>,
    /// Payload bytes put on each directed connection `(uploader, downloader)`.
    data_sent: BTreeMap<(u32, u32), u64>,
    /// Payload bytes delivered on each directed connection.
    data_delivered: BTreeMap<(u32, u32), u64>,
    /// Payload bytes in flight on a connection when one of its ends left.
    data_dropped: BTreeMap<(u32, u32), u64>,
    /// Every frame delivered, as `(time ns, from, to, name)`, for determinism checks.
    log: Vec<(u64, u32, u32, &'static str)>,
}

fn data_len<D: BlockData>(f: &Frame<D>) -> u64 {
    match f {
        Frame::Message(m) => m.data_len() as u64,
        Frame::Handshake(_) => 0,
    }
}

impl<D: Payload> InstantSwarm<D> {
    fn new(peers: Vec<Peer<D>>, step: Duration) -> Self {
        InstantSwarm {
            present: (0..peers.len() as u32).collect(),
            peers,
            queue: VecDeque::new(),
            ready: BTreeSet::new(),
            now: Instant::ZERO,
            step,
            completions: Vec::new(),
            bufs: BTreeMap::new(),
            data_sent: BTreeMap::new(),
            data_delivered: BTreeMap::new(),
            data_dropped: BTreeMap::new(),
            log: Vec::new(),
        }
    }

    fn connect(&mut self, a: u32, b: u32) {
        for (x, y, outgoing) in [(a, b, true), (b, a, false)] {
            let info = ConnInfo {
                transport: None,
                outgoing,
            };
            self.peers[x as usize].handle_connected(self.now, y as ConnId, info);
        }
    }

    fn connect_all(&mut self) {
        let ids: Vec<u32> = self.present.iter().copied().collect();
        for (i, &a) in ids.iter().enumerate() {
            for &b in &ids[i + 1..] {
                self.connect(a, b);
            }
        }
        for i in ids {
            self.collect(i);
        }
    }

    /// `peer` (its number is the next index) joins now and connects to every peer present.
    fn join(&mut self, peer: Peer<D>) {
        let id = self.peers.len() as u32;
        self.peers.push(peer);
        let others: Vec<u32> = self.present.iter().copied().collect();
        self.present.insert(id);
        for q in others {
            self.connect(id, q);
            self.collect(q);
        }
        self.collect(id);
    }

    /// Peer `id` leaves now: its neighbours see their connections close, and whatever was
    /// in flight to or from it is lost.
    fn leave(&mut self, id: u32) {
        if !self.present.remove(&id) {
            return;
        }
        for q in self.present.clone() {
            self.peers[q as usize].handle_closed(self.now, id as ConnId);
            self.collect(q);
        }
        let dropped = &mut self.data_dropped;
        self.queue.retain(|(from, to, f)| {
            let gone = *from == id || *to == id;
            if gone && data_len(f) > 0 {
                *dropped.entry((*from, *to)).or_default() += data_len(f);
            }
            !gone
        });
        self.ready.retain(|(from, to)| *from != id && *to != id);
    }

    fn collect(&mut self, i: u32) {
        let now = self.now;
        let p = &mut self.peers[i as usize];
        while let Some(c) = p.poll_dirty() {
            while let Some(f) = p.poll_transmit(now, c) {
                self.queue.push_back((i, c as u32, f));
            }
        }
        while let Some(e) = p.poll_event() {
            match e {
                Event::DataReady { conn } => {
                    self.ready.insert((i, conn as u32));
                }
                Event::Completed => self.completions.push((i, now)),
                Event::Close { conn, reason } => panic!("{i} closed {conn}: {reason}"),
                _ => {}
            }
        }
    }

    /// One block from every non-empty upload queue.
    fn pull_data(&mut self) {
        let ready: Vec<(u32, u32)> = self.ready.iter().copied().collect();
        for (from, to) in ready {
            match self.peers[from as usize].poll_upload(self.now, to as ConnId) {
                Some(r) => {
                    *self.data_sent.entry((from, to)).or_default() += r.length as u64;
                    let data = D::make(from, r.index, r.begin, r.length);
                    let m = Message::Piece {
                        index: r.index,
                        begin: r.begin,
                        data,
                    };
                    self.queue.push_back((from, to, Frame::Message(m)));
                }
                None => {
                    self.ready.remove(&(from, to));
                }
            }
        }
    }

    /// Payload bytes in flight on each directed connection.
    fn data_in_flight(&self) -> BTreeMap<(u32, u32), u64> {
        let mut out = BTreeMap::new();
        for (from, to, f) in &self.queue {
            if data_len(f) > 0 {
                *out.entry((*from, *to)).or_default() += data_len(f);
            }
        }
        out
    }

    /// The driver's side of a kept block: with the client's settings, checks the piece
    /// once complete (against the true content: the simulated SHA-1).
    fn keep(&mut self, to: u32, received: Received<D>)
    where
        D: AsRef<[u8]>,
    {
        let Received::Block {
            block,
            data,
            piece_done,
        } = received
        else {
            return;
        };
        let l = *self.peers[to as usize].layout();
        let piece = self.bufs.entry((to, block.piece)).or_default();
        piece.insert(l.block_offset(block), data);
        if !piece_done {
            return;
        }
        let blocks = self.bufs.remove(&(to, block.piece)).expect("kept");
        let start = l.piece_offset(block.piece);
        let good = blocks.iter().all(|(&off, d)| {
            d.as_ref()
                .iter()
                .enumerate()
                .all(|(k, &b)| b == byte(start + off as u64 + k as u64))
        });
        let p = &mut self.peers[to as usize];
        if good {
            p.handle_piece_verified(self.now, block.piece);
        } else {
            p.handle_piece_failed(self.now, block.piece);
        }
    }

    /// Runs the timers due, pulls data, delivers one frame (advancing the clock by `step`),
    /// or, with nothing in flight, jumps to the next timer.
    fn step(&mut self, on_block: &mut dyn FnMut(&mut Self, u32, Received<D>)) {
        for i in self.present.clone() {
            if self.peers[i as usize].poll_timeout() <= self.now {
                self.peers[i as usize].handle_timeout(self.now);
                self.collect(i);
            }
        }
        self.pull_data();
        match self.queue.pop_front() {
            Some((from, to, f)) => {
                let name = match &f {
                    Frame::Handshake(_) => "handshake",
                    Frame::Message(m) => m.name(),
                };
                self.log.push((self.now.as_nanos(), from, to, name));
                let n = data_len(&f);
                if n > 0 {
                    *self.data_delivered.entry((from, to)).or_default() += n;
                }
                let now = self.now;
                let p = &mut self.peers[to as usize];
                match f {
                    Frame::Handshake(h) => p.handle_handshake(now, from as ConnId, &h),
                    Frame::Message(m) => {
                        let r = p.handle_message(now, from as ConnId, m);
                        on_block(self, to, r);
                    }
                }
                self.collect(to);
                self.now += self.step;
            }
            None => {
                let next = self
                    .present
                    .iter()
                    .map(|&i| self.peers[i as usize].poll_timeout())
                    .min();
                self.now = next.unwrap_or(self.now).max(self.now + self.step);
            }
        }
    }

    /// Runs until every peer present has every piece and nothing is in flight, or until
    /// `limit`; returns whether the swarm completed.
    fn run(
        &mut self,
        limit: Instant,
        on_block: &mut dyn FnMut(&mut Self, u32, Received<D>),
    ) -> bool {
        loop {
            let done = self
                .present
                .iter()
                .all(|&i| self.peers[i as usize].is_complete());
            if done && self.queue.is_empty() && self.ready.is_empty() {
                return true;
            }
            if self.now > limit {
                return false;
            }
            self.step(on_block);
        }
    }
}

/// The simulator's settings (seed 003's ns-2 module), with endgame on and 2 regular + 1
/// optimistic slots so that the seed cannot serve everybody at once.
fn sim_cfg(id: u32) -> PeerConfig {
    let mut peer_id = [0u8; 20];
    peer_id[16..].copy_from_slice(&id.to_be_bytes());
    PeerConfig {
        peer_id,
        picker: PickerConfig {
            random_first: true,
            rarest_first: true,
            endgame: Endgame::All,
        },
        choker: ChokerConfig {
            regular: 2,
            optimistic: 1,
            snub_after: None,
            ..ChokerConfig::default()
        },
        snub_clock: SnubClock::SinceBlockOrConnect,
        pipeline: Pipeline::Fixed(5),
        fast_extension: false,
        extension_protocol: false,
        opening: Opening::AtOnce,
        verification: Verification::Trusted,
        close_seed_pairs: false,
        max_connections: None,
        timers: Timers::OFF,
        ..PeerConfig::default()
    }
}

fn sim_peer(id: u32, seed: bool, at: Instant, rng: u64) -> Peer<Len> {
    let n = layout().pieces();
    let have = if seed {
        Bitfield::full(n)
    } else {
        Bitfield::new(n)
    };
    Peer::new(sim_cfg(id), layout(), have, at, rng)
}

/// One seed (peer 0) and five leechers, all connected.
fn sim_swarm(seed: u64) -> InstantSwarm<Len> {
    let peers = (0..6)
        .map(|i| sim_peer(i, i == 0, Instant::ZERO, seed * 100 + i as u64))
        .collect();
    let mut s = InstantSwarm::new(peers, Duration::from_millis(20));
    s.connect_all();
    s
}

fn nothing(_: &mut InstantSwarm<Len>, _: u32, _: Received<Len>) {}

#[test]
fn every_leecher_gets_the_file_exactly_once_plus_counted_duplicates() {
    let f = layout().total_length();
    for seed in 1..=5 {
        let mut s = sim_swarm(seed);
        assert!(
            s.run(Instant::from_secs(600), &mut nothing),
            "seed {seed} stalled at {:?}",
            s.now
        );
        let mut delivered = 0;
        for (i, p) in s.peers.iter().enumerate().skip(1) {
            let st = p.stats();
            assert_eq!(st.downloaded, f, "peer {i} seed {seed}");
            assert!(p.have().is_full());
            assert!(p.completed_at().is_some());
            delivered += st.downloaded + st.duplicate;
            // Each leecher received the file plus its duplicates, nothing else.
            let into: u64 = s
                .data_delivered
                .iter()
                .filter(|((_, to), _)| *to == i as u32)
                .map(|(_, b)| b)
                .sum();
            assert_eq!(into, st.downloaded + st.duplicate);
            assert_eq!(
                (st.ignored, st.invalid_blocks, st.violations),
                (0, 0, 0),
                "no malformed traffic in a sound swarm"
            );
        }
        // Conservation: bytes handed to the network = bytes delivered, per connection and
        // in total, and equal to what the uploaders counted.
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
    // Over a few seeds the endgame's parallel requests let a second copy through before
    // its CANCEL arrives at least once.
    let dups: u64 = (1..=10)
        .map(|seed| {
            let mut s = sim_swarm(seed);
            assert!(s.run(Instant::from_secs(600), &mut nothing));
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
        let mut s = sim_swarm(seed);
        s.run(Instant::from_secs(600), &mut nothing);
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

#[test]
fn a_churning_swarm_keeps_delivering_whole_files() {
    // 1 seed and 5 leechers; each leecher leaves 30 s after completing and a newcomer
    // joins at that moment, until 20 completions.
    for seed in 1..=3 {
        let mut s = sim_swarm(seed);
        let mut departures: Vec<(Instant, u32)> = Vec::new();
        let mut completed = Vec::new();
        while completed.len() < 20 && s.now < Instant::from_secs(3_000) {
            s.step(&mut nothing);
            for (id, at) in std::mem::take(&mut s.completions) {
                completed.push(id);
                departures.push((at + Duration::from_secs(30), id));
            }
            departures.sort();
            while departures.first().is_some_and(|(t, _)| *t <= s.now) {
                let (_, id) = departures.remove(0);
                s.leave(id);
                let n = s.peers.len() as u32;
                let p = sim_peer(n, false, s.now, seed * 1000 + n as u64);
                s.join(p);
            }
        }
        assert_eq!(completed.len(), 20, "seed {seed} stalled at {:?}", s.now);
        let f = layout().total_length();
        for &id in &completed {
            assert_eq!(s.peers[id as usize].stats().downloaded, f, "peer {id}");
        }
        assert!(s.peers.iter().all(|p| p.stats().downloaded <= f));
        // Conservation with departures: sent = delivered + lost when an end left + still
        // in flight, per connection.
        let flying = s.data_in_flight();
        for (k, sent) in &s.data_sent {
            let got = s.data_delivered.get(k).copied().unwrap_or(0)
                + s.data_dropped.get(k).copied().unwrap_or(0)
                + flying.get(k).copied().unwrap_or(0);
            assert_eq!(*sent, got, "seed {seed} connection {k:?}");
        }
        assert!(s.peers.len() > 20, "departures were replaced");
    }
}

/// The client's settings: a real torrent's info-hash, SHA-1 checked by the driver.
fn client_peer(id: u32, seed: bool) -> Peer<Vec<u8>> {
    let mut peer_id = *b"-LB0100-000000000000";
    peer_id[16..].copy_from_slice(&id.to_be_bytes());
    let cfg = PeerConfig {
        info_hash: [7; 20],
        peer_id,
        ..PeerConfig::default()
    };
    let n = layout().pieces();
    let have = if seed {
        Bitfield::full(n)
    } else {
        Bitfield::new(n)
    };
    Peer::new(cfg, layout(), have, Instant::ZERO, id as u64)
}

#[test]
fn client_peers_trade_checked_pieces_and_shun_a_liar() {
    // Peers 0 and LIAR (9) are seeds, 1..=4 leechers; the liar sends piece 1 corrupted.
    let mut peers: Vec<Peer<Vec<u8>>> = (0..10)
        .map(|i| client_peer(i, i == 0 || i == LIAR))
        .collect();
    // Only 0, 1..=4 and 9 take part; 5..=8 are placeholders that never connect.
    let mut s = InstantSwarm::new(std::mem::take(&mut peers), Duration::from_millis(5));
    s.present = [0, 1, 2, 3, 4, LIAR].into_iter().collect();
    // The liar first: it is the only peer piece 1 can come from at the start.
    s.connect_all();
    let mut closes: Vec<(u32, u64, CloseReason)> = Vec::new();
    let mut keep = |s: &mut InstantSwarm<Vec<u8>>, to: u32, r: Received<Vec<u8>>| {
        s.keep(to, r);
        let p = &mut s.peers[to as usize];
        let mut back = Vec::new();
        while let Some(e) = p.poll_event() {
            match e {
                Event::Close { conn, reason } => {
                    closes.push((to, conn, reason));
                    p.handle_closed(s.now, conn);
                }
                other => back.push(other),
            }
        }
        // Events the driver did not consume stay for `collect` (DataReady, Completed).
        for e in back {
            if let Event::DataReady { conn } = e {
                s.ready.insert((to, conn as u32));
            } else if let Event::Completed = e {
                s.completions.push((to, s.now));
            }
        }
    };
    let done = s.run(Instant::from_secs(600), &mut keep);
    assert!(done, "stalled at {:?}", s.now);
    for i in 1..=4u32 {
        let p = &s.peers[i as usize];
        assert!(p.have().is_full(), "peer {i}");
        assert_eq!(p.stats().downloaded, layout().total_length(), "peer {i}");
        if p.stats().hash_failures > 0 {
            assert!(
                closes.iter().any(|(at, c, r)| *at == i
                    && *c == LIAR as u64
                    && *r == CloseReason::HashFailed(1)),
                "{i} kept the liar: {closes:?}"
            );
        }
    }
    let failures: u64 = (1..=4).map(|i| s.peers[i].stats().hash_failures).sum();
    assert!(failures > 0, "the liar's piece reached someone");
    // Connections closed for a bad piece closed for piece 1 (with the liar, every peer
    // that sent a block of that copy of it: nobody can tell which block was bad); the
    // others closed because both sides were seeds.
    for (at, c, r) in &closes {
        match r {
            CloseReason::HashFailed(1) | CloseReason::BothSeeds => {}
            other => panic!("{at} closed {c}: {other}"),
        }
    }
}
