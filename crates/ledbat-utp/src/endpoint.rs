//! Many connections behind one UDP socket, sans-IO.
//!
//! Incoming datagrams are demultiplexed by `(peer address, connection id)`: a connection is
//! keyed by its `recv_id`, the id its peer puts on every packet. A SYN is keyed by
//! `SYN.conn_id + 1` (the acceptor's future `recv_id`), so a retransmitted SYN reaches the
//! connection it created. A RESET may carry either of our ids (libutp answers strangers
//! with the id it received, which is our `send_id`), so RESETs are also matched on
//! `send_id` at `id +/- 1`.
//!
//! Packets for unknown connections are answered with RESET (`conn_id` and `ack_nr` echo
//! the stranger's, as libutp does), except RESETs themselves. SYNs are refused with RESET
//! when not listening, when `max_half_open` accepted connections have heard nothing
//! since their SYN, or when `max_connections` exist. Malformed datagrams are counted and
//! dropped.
//!
//! Scheduling, so that no per-packet work grows with the number of connections:
//!
//! - timers: a binary heap of `(deadline, connection)`. After every event that touches a
//!   connection its deadline is recomputed; an earlier one is pushed, a later one waits
//!   until the entry in the heap comes due and is then pushed again (each connection has
//!   one live entry; superseded ones are skipped when popped). [`Endpoint::poll_timeout`]
//!   may therefore be early, never late. O(log n) per change.
//! - transmission: a queue of connections that may have something to send (they handled
//!   a packet or a timer, or the application touched them). [`Endpoint::poll_transmit`]
//!   serves the front one up to [`BURST`] datagrams in a row (runs of one peer's
//!   datagrams are what UDP GSO batches), then moves it to the back; one that has
//!   nothing leaves the queue until its next event.
//! - the application's side: [`Endpoint::connection_mut`] marks the connection, and the
//!   next call into the endpoint re-arms and queues it. [`Endpoint::take_changed`] lists
//!   the connections that had events, so a runtime wakes only their tasks.

use crate::config::ConnectionConfig;
use crate::conn::{Connection, State, Unreachable};
use crate::packet::{self, Header, PacketType};
use crate::stats::EndpointStats;
use ledbat_core::{ConfigError, Instant, Timestamp32};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha12Rng;
use std::cmp::Reverse;
use std::collections::{BTreeMap, BinaryHeap, HashMap, VecDeque};
use std::net::{IpAddr, SocketAddr};

/// Peer addresses whose path MTU an endpoint remembers at most (the table is emptied
/// when full).
pub const PATH_MTU_CACHE: usize = 4096;

/// Endpoint parameters.
#[derive(Clone, Debug, PartialEq)]
pub struct EndpointConfig {
    /// Parameters of every connection.
    pub connection: ConnectionConfig,
    /// Accept incoming SYNs. Default false (a pure client).
    pub listen: bool,
    /// Accepted connections that have heard nothing since their SYN, at most. Default 64.
    pub max_half_open: usize,
    /// Connections at most. Default 1024.
    pub max_connections: usize,
    /// Queued RESET answers at most (excess ones are counted and dropped). Default 64.
    pub max_pending_resets: usize,
}

impl Default for EndpointConfig {
    fn default() -> Self {
        EndpointConfig {
            connection: ConnectionConfig::default(),
            listen: false,
            max_half_open: 64,
            max_connections: 1024,
            max_pending_resets: 64,
        }
    }
}

impl EndpointConfig {
    /// Sets the connection parameters.
    pub fn connection(mut self, c: ConnectionConfig) -> Self {
        self.connection = c;
        self
    }
    /// Accept incoming connections.
    pub fn listen(mut self, on: bool) -> Self {
        self.listen = on;
        self
    }
    /// Sets the half-open bound.
    pub fn max_half_open(mut self, n: usize) -> Self {
        self.max_half_open = n;
        self
    }
    /// Checks every field.
    pub fn validate(&self) -> Result<(), ConfigError> {
        if self.max_half_open == 0 {
            return Err(ConfigError::new(
                "utp",
                "max_half_open",
                "must be at least 1",
            ));
        }
        if self.max_connections == 0 {
            return Err(ConfigError::new(
                "utp",
                "max_connections",
                "must be at least 1",
            ));
        }
        self.connection.validate()
    }
}

/// Names one connection of an [`Endpoint`]. Never reused within one endpoint.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct ConnHandle(pub u64);

/// Datagrams one connection sends in a row before the next one's turn.
pub const BURST: u32 = 32;

#[derive(Debug)]
struct Entry {
    conn: Connection,
    addr: SocketAddr,
    released: bool,
    /// Its deadline (timers, and the drain time once released), as last computed.
    armed: Option<Instant>,
    /// The time of its live entry in the timer heap.
    in_heap: Option<Instant>,
    /// In the transmit queue.
    queued: bool,
    /// Datagrams sent in its current turn.
    burst: u32,
    /// Handed to the application mutably since the endpoint last looked.
    touched: bool,
    /// Listed for [`Endpoint::take_changed`].
    changed: bool,
}

impl Entry {
    fn deadline(&self) -> Option<Instant> {
        let drain = if self.released {
            self.conn.drain_at()
        } else {
            None
        };
        match (self.conn.poll_timeout(), drain) {
            (Some(a), Some(b)) => Some(a.min(b)),
            (a, b) => a.or(b),
        }
    }
}

/// A set of connections sharing one socket.
#[derive(Debug)]
pub struct Endpoint {
    cfg: EndpointConfig,
    rng: ChaCha12Rng,
    conns: BTreeMap<ConnHandle, Entry>,
    by_key: HashMap<(SocketAddr, u16), ConnHandle>,
    timers: BinaryHeap<Reverse<(Instant, ConnHandle)>>,
    ready: VecDeque<ConnHandle>,
    touched: Vec<ConnHandle>,
    changed: Vec<ConnHandle>,
    /// Accepted connections that may still be half-open (pruned when counted).
    half_open: Vec<ConnHandle>,
    /// Scratch list of [`Endpoint::handle_timeout`].
    due: Vec<ConnHandle>,
    /// What path-MTU searches learned, per peer address: (confirmed size, ceiling).
    path_mtu: HashMap<IpAddr, (u16, u16)>,
    next_handle: u64,
    incoming: VecDeque<ConnHandle>,
    resets: VecDeque<(SocketAddr, Header)>,
    stats: EndpointStats,
}

impl Endpoint {
    /// A new endpoint; `seed` drives connection ids and initial sequence numbers (pass
    /// OS randomness in production, a fixed seed in tests).
    pub fn new(cfg: EndpointConfig, seed: u64) -> Result<Self, ConfigError> {
        cfg.validate()?;
        Ok(Endpoint {
            cfg,
            rng: ChaCha12Rng::seed_from_u64(seed),
            conns: BTreeMap::new(),
            by_key: HashMap::new(),
            timers: BinaryHeap::new(),
            ready: VecDeque::new(),
            touched: Vec::new(),
            changed: Vec::new(),
            half_open: Vec::new(),
            due: Vec::new(),
            path_mtu: HashMap::new(),
            next_handle: 0,
            incoming: VecDeque::new(),
            resets: VecDeque::new(),
            stats: EndpointStats::default(),
        })
    }

    /// The configuration in force.
    pub fn config(&self) -> &EndpointConfig {
        &self.cfg
    }

    /// Replaces the configuration of the connections opened or accepted from now on; those
    /// open keep theirs (e.g. one receiver with and without rLEDBAT side by side).
    pub fn set_connection_config(&mut self, c: ConnectionConfig) -> Result<(), ConfigError> {
        c.validate()?;
        self.cfg.connection = c;
        Ok(())
    }

    /// Endpoint-wide counters.
    pub fn stats(&self) -> &EndpointStats {
        &self.stats
    }

    /// Number of connections (lingering ones included).
    pub fn len(&self) -> usize {
        self.conns.len()
    }

    /// Whether there are no connections.
    pub fn is_empty(&self) -> bool {
        self.conns.is_empty()
    }

    /// The connection `h`, while it exists.
    pub fn connection(&self, h: ConnHandle) -> Option<&Connection> {
        self.conns.get(&h).map(|e| &e.conn)
    }

    /// The connection `h`, mutably. Its timers and transmissions are looked at again at
    /// the next call into the endpoint.
    pub fn connection_mut(&mut self, h: ConnHandle) -> Option<&mut Connection> {
        let e = self.conns.get_mut(&h)?;
        if !e.touched {
            e.touched = true;
            self.touched.push(h);
        }
        Some(&mut e.conn)
    }

    /// Recomputes `h`'s deadline after an event (see the module documentation).
    fn rearm(&mut self, h: ConnHandle) {
        let Some(e) = self.conns.get_mut(&h) else {
            return;
        };
        e.armed = e.deadline();
        if let Some(t) = e.armed {
            if e.in_heap.is_none_or(|x| t < x) {
                e.in_heap = Some(t);
                self.timers.push(Reverse((t, h)));
            }
        }
    }

    /// `h` had an event: re-arm it, queue it for transmission, list it as changed, and
    /// keep what its path-MTU search learned.
    fn touch(&mut self, h: ConnHandle) {
        self.rearm(h);
        let Some(e) = self.conns.get_mut(&h) else {
            return;
        };
        if let Some(b) = e.conn.path_mtu() {
            let ip = e.addr.ip();
            if self.path_mtu.get(&ip) != Some(&b) {
                if self.path_mtu.len() >= PATH_MTU_CACHE && !self.path_mtu.contains_key(&ip) {
                    self.path_mtu.clear();
                }
                self.path_mtu.insert(ip, b);
            }
        }
        if !e.queued {
            e.queued = true;
            e.burst = 0;
            self.ready.push_back(h);
        }
        if !e.changed {
            e.changed = true;
            self.changed.push(h);
        }
    }

    /// Takes in the connections the application touched.
    fn settle(&mut self) {
        while let Some(h) = self.touched.pop() {
            if let Some(e) = self.conns.get_mut(&h) {
                e.touched = false;
            }
            self.touch(h);
        }
    }

    /// Appends to `out` every connection that had an event since the last call (handled a
    /// packet, a timer or a report, sent, was touched by the application, or was
    /// removed), once each.
    pub fn take_changed(&mut self, out: &mut Vec<ConnHandle>) {
        self.settle();
        for h in self.changed.drain(..) {
            if let Some(e) = self.conns.get_mut(&h) {
                e.changed = false;
            }
            out.push(h);
        }
    }

    /// Memory the connections hold now, bytes (see [`Connection::memory_bytes`]).
    /// Walks every connection: for reports, not for per-packet use.
    pub fn memory_bytes(&self) -> usize {
        self.conns.values().map(|e| e.conn.memory_bytes()).sum()
    }

    /// The peer address of `h`.
    pub fn peer_addr(&self, h: ConnHandle) -> Option<SocketAddr> {
        self.conns.get(&h).map(|e| e.addr)
    }

    /// An ICMP destination-unreachable report for datagrams sent to `addr`: every
    /// connection to that address gets [`Connection::on_unreachable`]. Returns how many
    /// failed. Connections to other addresses are untouched.
    pub fn handle_unreachable(
        &mut self,
        now: Instant,
        addr: SocketAddr,
        kind: Unreachable,
    ) -> usize {
        self.settle();
        self.stats.unreachable_reports += 1;
        let mut failed = Vec::new();
        for (&h, e) in self.conns.iter_mut() {
            if e.addr == addr && e.conn.on_unreachable(now, kind) {
                failed.push(h);
            }
        }
        self.stats.unreachable_failed += failed.len() as u64;
        for &h in &failed {
            self.touch(h);
        }
        failed.len()
    }

    /// Handles of every connection.
    pub fn handles(&self) -> impl Iterator<Item = ConnHandle> + '_ {
        self.conns.keys().copied()
    }

    fn insert(&mut self, addr: SocketAddr, mut conn: Connection) -> ConnHandle {
        if let Some(&(floor, ceiling)) = self.path_mtu.get(&addr.ip()) {
            conn.seed_path_mtu(floor, ceiling);
        }
        let h = ConnHandle(self.next_handle);
        self.next_handle += 1;
        self.by_key.insert((addr, conn.recv_id()), h);
        self.conns.insert(
            h,
            Entry {
                conn,
                addr,
                released: false,
                armed: None,
                in_heap: None,
                queued: false,
                burst: 0,
                touched: false,
                changed: false,
            },
        );
        self.touch(h);
        h
    }

    /// Opens a connection to `addr`; its SYN leaves on the next
    /// [`Endpoint::poll_transmit`].
    pub fn connect(&mut self, now: Instant, addr: SocketAddr) -> Result<ConnHandle, ConfigError> {
        // A recv_id whose key and whose +1 (the acceptor-side key a peer's SYN would map
        // to) are both free.
        let mut id: u16 = self.rng.gen();
        for _ in 0..65536 {
            if !self.by_key.contains_key(&(addr, id))
                && !self.by_key.contains_key(&(addr, id.wrapping_add(1)))
            {
                break;
            }
            id = id.wrapping_add(2);
        }
        self.settle();
        let conn = Connection::connect(now, self.cfg.connection.clone(), id)?;
        Ok(self.insert(addr, conn))
    }

    /// The next connection accepted from a peer's SYN, if any.
    pub fn accept(&mut self) -> Option<ConnHandle> {
        while let Some(h) = self.incoming.pop_front() {
            if self.conns.contains_key(&h) {
                return Some(h);
            }
        }
        None
    }

    /// The application is done with `h`: it is closed gracefully (FIN after the data
    /// written) and removed once drained.
    pub fn release(&mut self, h: ConnHandle) {
        if let Some(e) = self.conns.get_mut(&h) {
            e.released = true;
            e.conn.close();
            self.touch(h);
        }
    }

    fn queue_reset(&mut self, now: Instant, addr: SocketAddr, to: &Header) {
        if self.resets.len() >= self.cfg.max_pending_resets {
            self.stats.resets_suppressed += 1;
            return;
        }
        let h = Header {
            ty: PacketType::Reset,
            conn_id: to.conn_id,
            timestamp: Timestamp32::from_instant(now, 0).0,
            timestamp_diff: 0,
            wnd_size: 0,
            seq_nr: self.rng.gen(),
            ack_nr: to.seq_nr,
        };
        self.resets.push_back((addr, h));
    }

    /// Accepted connections that have heard nothing since their SYN (at most
    /// `max_half_open` are kept, so counting them is bounded too).
    fn half_open(&mut self) -> usize {
        let conns = &self.conns;
        self.half_open.retain(|h| {
            conns
                .get(h)
                .is_some_and(|e| e.conn.state() == State::SynReceived)
        });
        self.half_open.len()
    }

    /// Handles one datagram from `addr`. Returns the connection it was for, if any.
    pub fn handle(
        &mut self,
        now: Instant,
        addr: SocketAddr,
        datagram: &[u8],
    ) -> Option<ConnHandle> {
        self.settle();
        self.stats.datagrams_received += 1;
        let p = match packet::decode(datagram) {
            Ok(p) => p,
            Err(_) => {
                self.stats.malformed_dropped += 1;
                if datagram.len() >= 4 {
                    let id = u16::from_be_bytes([datagram[2], datagram[3]]);
                    if let Some(h) = self.by_key.get(&(addr, id)) {
                        if let Some(e) = self.conns.get_mut(h) {
                            e.conn.count_malformed();
                        }
                    }
                }
                return None;
            }
        };
        let h = &p.header;
        let key_id = if h.ty == PacketType::Syn {
            h.conn_id.wrapping_add(1)
        } else {
            h.conn_id
        };
        let mut found = self.by_key.get(&(addr, key_id)).copied();
        if found.is_none() && h.ty == PacketType::Reset {
            for cand in [h.conn_id.wrapping_add(1), h.conn_id.wrapping_sub(1)] {
                if let Some(&c) = self.by_key.get(&(addr, cand)) {
                    if self
                        .conns
                        .get(&c)
                        .is_some_and(|e| e.conn.send_id() == h.conn_id)
                    {
                        found = Some(c);
                        break;
                    }
                }
            }
        }
        if let Some(c) = found {
            if let Some(e) = self.conns.get_mut(&c) {
                e.conn.handle_packet(now, &p);
                self.touch(c);
            }
            return Some(c);
        }
        match h.ty {
            PacketType::Reset => {
                self.stats.unknown_connection += 1;
                None
            }
            PacketType::Syn => {
                if !self.cfg.listen
                    || self.conns.len() >= self.cfg.max_connections
                    || self.half_open() >= self.cfg.max_half_open
                {
                    self.stats.syns_refused += 1;
                    self.queue_reset(now, addr, h);
                    return None;
                }
                let isn: u16 = self.rng.gen();
                let conn = Connection::accept(now, self.cfg.connection.clone(), h, isn).ok()?;
                let c = self.insert(addr, conn);
                self.half_open.push(c);
                self.incoming.push_back(c);
                self.stats.accepted += 1;
                Some(c)
            }
            _ => {
                self.stats.unknown_connection += 1;
                self.queue_reset(now, addr, h);
                None
            }
        }
    }

    /// Writes the next datagram into `out` (cleared first) and returns its destination,
    /// or `None` when nothing is due. Connections take turns of up to [`BURST`] datagrams.
    pub fn poll_transmit(&mut self, now: Instant, out: &mut Vec<u8>) -> Option<SocketAddr> {
        self.settle();
        out.clear();
        if let Some((addr, h)) = self.resets.pop_front() {
            packet::encode(&h, &[], &[], out);
            self.stats.resets_sent += 1;
            return Some(addr);
        }
        while let Some(&h) = self.ready.front() {
            let Some(e) = self.conns.get_mut(&h) else {
                self.ready.pop_front();
                continue;
            };
            let sent = e.conn.poll_transmit(now, out);
            let addr = e.addr;
            if sent {
                e.burst += 1;
                if e.burst >= BURST {
                    e.burst = 0;
                    self.ready.pop_front();
                    self.ready.push_back(h);
                }
                if !e.changed {
                    e.changed = true;
                    self.changed.push(h);
                }
            } else {
                e.queued = false;
                self.ready.pop_front();
            }
            // Sending arms the retransmission timer; a blocked send may arm a pause.
            self.rearm(h);
            if sent {
                return Some(addr);
            }
        }
        None
    }

    /// The earliest deadline of any connection: may be early (a deadline that moved
    /// later since), never late.
    pub fn poll_timeout(&self) -> Option<Instant> {
        let heap = self.timers.peek().map(|Reverse((t, _))| *t);
        // Connections the application touched since the last call are not re-armed yet.
        let touched = self
            .touched
            .iter()
            .filter_map(|h| self.conns.get(h).and_then(Entry::deadline))
            .min();
        match (heap, touched) {
            (Some(a), Some(b)) => Some(a.min(b)),
            (a, b) => a.or(b),
        }
    }

    /// Runs due timers and removes connections that are released and drained (or failed
    /// and released). Each connection's timers run once per call: a deadline still due
    /// afterwards (a keep-alive waits for the next transmit) comes up at the next call.
    pub fn handle_timeout(&mut self, now: Instant) {
        self.settle();
        let mut due = std::mem::take(&mut self.due);
        while let Some(&Reverse((t, h))) = self.timers.peek() {
            if t > now {
                break;
            }
            self.timers.pop();
            let Some(e) = self.conns.get_mut(&h) else {
                continue;
            };
            if e.in_heap != Some(t) {
                continue; // superseded by an earlier entry
            }
            e.in_heap = None;
            match e.armed {
                Some(a) if a <= now => due.push(h),
                // The deadline moved later: its entry goes back at the new time.
                Some(_) => self.rearm(h),
                None => {}
            }
        }
        for h in due.drain(..) {
            let Some(e) = self.conns.get_mut(&h) else {
                continue;
            };
            if e.conn.poll_timeout().is_some_and(|x| x <= now) {
                e.conn.handle_timeout(now);
            }
            if e.released && e.conn.is_drained(now) {
                self.remove(h);
            } else {
                self.touch(h);
            }
        }
        self.due = due;
    }

    /// Forgets `h` at once (no FIN, no RESET).
    pub fn remove(&mut self, h: ConnHandle) {
        if let Some(e) = self.conns.remove(&h) {
            self.by_key.remove(&(e.addr, e.conn.recv_id()));
            // Its heap, queue and list entries are skipped when they come up; its tasks
            // hear of the removal through `take_changed`.
            if !e.changed {
                self.changed.push(h);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn addr(p: u16) -> SocketAddr {
        SocketAddr::from(([10, 0, 0, 1], p))
    }

    fn drain(ep: &mut Endpoint, now: Instant) -> Vec<(SocketAddr, Vec<u8>)> {
        let mut v = Vec::new();
        let mut out = Vec::new();
        while let Some(a) = ep.poll_transmit(now, &mut out) {
            v.push((a, out.clone()));
        }
        v
    }

    #[test]
    fn an_unreachable_report_fails_only_the_connections_to_that_address() {
        let now = Instant::from_millis(1);
        let mut ep = Endpoint::new(EndpointConfig::default(), 3).unwrap();
        let a1 = ep.connect(now, addr(1)).unwrap();
        let a2 = ep.connect(now, addr(1)).unwrap();
        let b = ep.connect(now, addr(2)).unwrap();
        assert_eq!(drain(&mut ep, now).len(), 3, "three SYNs");
        assert_eq!(ep.handle_unreachable(now, addr(1), Unreachable::Port), 2);
        for h in [a1, a2] {
            assert_eq!(
                ep.connection(h).unwrap().error(),
                Some(crate::ConnectionError::Refused)
            );
        }
        assert_eq!(ep.connection(b).unwrap().state(), State::SynSent);
        assert_eq!(ep.handle_unreachable(now, addr(3), Unreachable::Host), 0);
        assert_eq!(ep.stats().unreachable_reports, 2);
        assert_eq!(ep.stats().unreachable_failed, 2);
    }

    #[test]
    fn unknown_connection_gets_a_reset_echoing_its_ids() {
        let mut ep = Endpoint::new(EndpointConfig::default().listen(true), 1).unwrap();
        let h = Header {
            ty: PacketType::Data,
            conn_id: 4242,
            timestamp: 1,
            timestamp_diff: 0,
            wnd_size: 1000,
            seq_nr: 77,
            ack_nr: 3,
        };
        let mut b = Vec::new();
        packet::encode(&h, &[], b"x", &mut b);
        assert!(ep.handle(Instant::ZERO, addr(1), &b).is_none());
        let out = drain(&mut ep, Instant::ZERO);
        assert_eq!(out.len(), 1);
        let r = packet::decode(&out[0].1).unwrap();
        assert_eq!(
            (r.header.ty, r.header.conn_id, r.header.ack_nr),
            (PacketType::Reset, 4242, 77)
        );
        assert_eq!(ep.stats().resets_sent, 1);
        // A RESET for a stranger is not answered.
        let mut rb = Vec::new();
        packet::encode(&r.header, &[], &[], &mut rb);
        ep.handle(Instant::ZERO, addr(1), &rb);
        assert!(drain(&mut ep, Instant::ZERO).is_empty());
    }

    #[test]
    fn malformed_datagrams_are_counted_not_fatal() {
        let mut ep = Endpoint::new(EndpointConfig::default().listen(true), 1).unwrap();
        for junk in [&b""[..], &[0xff; 3][..], &[0x47; 40][..]] {
            assert!(ep.handle(Instant::ZERO, addr(1), junk).is_none());
        }
        assert_eq!(ep.stats().malformed_dropped, 3);
        assert!(drain(&mut ep, Instant::ZERO).is_empty());
    }

    #[test]
    fn half_open_connections_are_bounded() {
        let mut ep =
            Endpoint::new(EndpointConfig::default().listen(true).max_half_open(3), 1).unwrap();
        for i in 0..5u16 {
            let h = Header {
                ty: PacketType::Syn,
                conn_id: i * 10,
                timestamp: 0,
                timestamp_diff: 0,
                wnd_size: 1 << 20,
                seq_nr: 1,
                ack_nr: 0,
            };
            let mut b = Vec::new();
            packet::encode(&h, &[], &[], &mut b);
            ep.handle(Instant::ZERO, addr(1000 + i), &b);
        }
        assert_eq!(ep.len(), 3);
        assert_eq!(ep.stats().syns_refused, 2);
        let out = drain(&mut ep, Instant::ZERO);
        let resets = out
            .iter()
            .filter(|(_, d)| packet::decode(d).unwrap().header.ty == PacketType::Reset)
            .count();
        assert_eq!(resets, 2);
        // The half-open ones expire.
        let t = ep.poll_timeout().unwrap();
        assert!(t <= Instant::ZERO + ConnectionConfig::default().handshake_timeout);
        ep.handle_timeout(Instant::from_secs(31));
        for h in ep.handles().collect::<Vec<_>>() {
            assert!(ep.connection(h).unwrap().error().is_some());
        }
    }

    #[test]
    fn reset_addressed_to_our_send_id_is_matched() {
        let mut client = Endpoint::new(EndpointConfig::default(), 7).unwrap();
        let h = client.connect(Instant::ZERO, addr(9)).unwrap();
        let syn = drain(&mut client, Instant::ZERO);
        let syn_h = packet::decode(&syn[0].1).unwrap().header;
        // A stranger answers with RESET carrying the id it received.
        let rst = Header {
            ty: PacketType::Reset,
            conn_id: syn_h.conn_id.wrapping_add(1),
            timestamp: 0,
            timestamp_diff: 0,
            wnd_size: 0,
            seq_nr: 5,
            ack_nr: 1,
        };
        let mut b = Vec::new();
        packet::encode(&rst, &[], &[], &mut b);
        assert_eq!(client.handle(Instant::ZERO, addr(9), &b), Some(h));
        assert_eq!(
            client.connection(h).unwrap().error(),
            Some(crate::ConnectionError::Reset)
        );
    }
}
