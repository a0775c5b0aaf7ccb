//! One uTP connection as a sans-IO state machine.
//!
//! Driven by `(now, packet)` in ([`Connection::handle_packet`],
//! [`Connection::handle_timeout`]) and `(datagrams, next timer)` out
//! ([`Connection::poll_transmit`], [`Connection::poll_timeout`]); the application side is
//! [`Connection::write`], [`Connection::read`] and [`Connection::close`]. No clock is read.
//!
//! Wire behaviour follows BEP 29 as libutp and libtorrent deploy it:
//!
//! - handshake: the initiator picks `recv_id`, sets `send_id = recv_id + 1`, sends SYN with
//!   `conn_id = recv_id`, `seq_nr = 1`. The acceptor sets `send_id = SYN.conn_id`,
//!   `recv_id = SYN.conn_id + 1`, `ack_nr = SYN.seq_nr`, picks a random `seq_nr` and answers
//!   STATE. A STATE carries the *next* sequence number without consuming it, so the
//!   acceptor's first DATA has exactly the `seq_nr` of its STATE and the initiator sets
//!   `ack_nr = STATE.seq_nr - 1` (libutp `CS_SYN_SENT` handling). A DATA packet acking the
//!   SYN establishes the connection too (the STATE may be lost). A duplicate SYN is
//!   answered with STATE again.
//! - every packet carries `ack_nr` (last in-order packet received), `wnd_size` (free
//!   receive buffer) and `timestamp_difference` = our clock at the last receipt minus that
//!   packet's timestamp (libutp's `reply_micro`). The peer's `timestamp_difference` is our
//!   one-way-delay sample, fed to the controller as a [`DelaySample`].
//! - loss: a packet is lost after `dup_ack_threshold` (3) duplicate ACKs, or when at least
//!   3 packets sent after it are selectively acknowledged (libutp's rule); it is
//!   retransmitted at once, window permitting. A retransmission timeout (RFC 6298 RTO from
//!   Karn-filtered samples, floor `min_rto`, doubled per consecutive timeout) marks every
//!   packet in flight for retransmission and tells the controller.
//! - sending: a new packet of `n` payload bytes leaves when
//!   `in_flight + n <= min(cwnd, peer wnd_size)` (or nothing is in flight, for the
//!   congestion window), the controller's pause is over and, if it paces, `n / rate` after
//!   the previous packet. A zero peer window is probed after one RTO.
//! - window cap: the controller's `flight_before` (RFC 6817's flightsize, which caps cwnd at
//!   `flightsize + ALLOWED_INCREASE * MSS`) is the flight when the sender last had a
//!   chance to send (its last `poll_transmit`), not the flight the previous ACK of the
//!   same batch left: a runtime that reads several ACKs before transmitting would
//!   otherwise see the window cut to whatever one batch drained.
//! - FIN carries the last sequence number and is retransmitted like data; the reader sees
//!   end of stream once every packet up to it was delivered. RESET aborts.
//! - keep-alive: after `keepalive` without sending, a STATE with `ack_nr - 1` (libutp: a
//!   duplicate ACK the peer ignores) keeps NAT bindings open.
//!
//! Layout: this module holds the state, the application side and packet dispatch; `ack`
//! the acknowledgement processing, loss detection and retransmission timeout; `transmit`
//! what goes out next. The receive side (reorder buffer, the peer's FIN, the selective-ACK
//! bitmap) lives in the crate-private `recv` module. The lifecycle is one enum, `Phase`
//! (the public [`State`] plus a SYN or RESET still owed), and our direction's close
//! another, `Closing` (open, FIN queued, FIN sent, FIN acknowledged), because closing is
//! independent of the handshake: a FIN may be queued before the SYN is answered.

mod ack;
pub mod pmtu;
mod transmit;

use crate::config::ConnectionConfig;
use crate::packet::{self, Header, Packet, PacketType};
use crate::recv::{Receipt, Receiver};
use crate::rledbat::Rledbat;
use crate::stats::ConnectionStats;
use ledbat_core::{
    AnyController, ConfigError, Controller, DelaySample, Duration, Instant, RttEstimator,
    Timestamp32,
};
use pmtu::Pmtu;
use std::collections::VecDeque;

/// The sequence number of the initiator's SYN (BEP 29, libutp).
pub const SYN_SEQ_NR: u16 = 1;
/// Delay samples kept between ACKs that acknowledge data.
const MAX_PENDING_SAMPLES: usize = 16;

/// Where a connection is in its life.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum State {
    /// Initiator: SYN sent, waiting for the acceptor's STATE.
    SynSent,
    /// Acceptor: STATE sent, nothing heard since the SYN. May already send data.
    SynReceived,
    /// Both sides know the connection.
    Connected,
    /// Failed (reset or timed out); see [`Connection::error`].
    Failed,
}

/// The lifecycle as the connection tracks it: the public [`State`] plus the control
/// packet that state may still owe (a SYN to send or resend, a RESET after an abort).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Phase {
    /// Initiator waiting for the acceptor; `syn_due`: the SYN goes out at the next poll
    /// (first transmission or after a retransmission timeout).
    SynSent { syn_due: bool },
    /// Acceptor: STATE sent, nothing heard since the SYN.
    SynReceived,
    /// Both sides know the connection.
    Connected,
    /// Failed; `reset_due`: one RESET is still to be sent (local abort after the
    /// handshake started).
    Failed { reset_due: bool },
}

impl Phase {
    fn state(self) -> State {
        match self {
            Phase::SynSent { .. } => State::SynSent,
            Phase::SynReceived => State::SynReceived,
            Phase::Connected => State::Connected,
            Phase::Failed { .. } => State::Failed,
        }
    }
}

/// Our direction of the stream. Independent of [`Phase`]: the application may close
/// before the handshake completes (the FIN then waits), and an acceptor may send its FIN
/// while still in `SynReceived`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Closing {
    /// Writes accepted.
    Open,
    /// [`Connection::close`] called: the FIN follows the data already written.
    FinQueued,
    /// The FIN is out (it is retransmitted like data), not yet acknowledged.
    FinSent,
    /// The FIN is acknowledged: every byte written was delivered.
    FinAcked,
}

/// Why a connection ended abnormally.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ConnectionError {
    /// The peer sent RESET.
    #[error("connection reset by peer")]
    Reset,
    /// Too many consecutive retransmission timeouts, or the SYN was never answered.
    #[error("connection timed out")]
    TimedOut,
    /// Aborted locally.
    #[error("connection aborted locally")]
    Aborted,
    /// The peer's host answered with ICMP port unreachable: nothing listens there.
    #[error("connection refused (ICMP port unreachable)")]
    Refused,
    /// The network reported the peer unreachable (ICMP host or network unreachable)
    /// while the handshake was outstanding.
    #[error("{0} unreachable (ICMP)")]
    Unreachable(Unreachable),
}

/// What an ICMP destination-unreachable report says about a peer address.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Unreachable {
    /// Port unreachable (ICMP type 3 code 3, ICMPv6 type 1 code 4): no socket listens.
    Port,
    /// Host unreachable (codes 1, ICMPv6 code 3) or administratively prohibited.
    Host,
    /// Network unreachable (code 0, ICMPv6 code 0).
    Network,
}

impl std::fmt::Display for Unreachable {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            Unreachable::Port => "port",
            Unreachable::Host => "host",
            Unreachable::Network => "network",
        })
    }
}

/// Why a read or write cannot proceed now.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
pub enum StreamError {
    /// Nothing to read, or no buffer space: try again after the next event.
    #[error("operation would block")]
    WouldBlock,
    /// Writing after [`Connection::close`].
    #[error("stream closed for writing")]
    WriteClosed,
    /// The connection failed.
    #[error(transparent)]
    Connection(#[from] ConnectionError),
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Kind {
    Syn,
    Data,
    Fin,
}

/// One packet that consumed a sequence number and is not yet cumulatively acknowledged.
#[derive(Clone, Copy, Debug)]
struct Sent {
    kind: Kind,
    /// Stream offset of the payload.
    offset: u64,
    len: u32,
    sent_at: Instant,
    transmissions: u32,
    /// Selectively acknowledged.
    acked: bool,
    /// Counted in `in_flight_bytes`.
    in_flight: bool,
    /// Declared lost, waiting to be sent again.
    need_resend: bool,
    /// The size of the path-MTU probe this packet was (padded to), 0 if it was none.
    probe: u16,
}

/// A uTP connection. See the module documentation.
#[derive(Debug)]
pub struct Connection {
    cfg: ConnectionConfig,
    ctrl: AnyController,
    phase: Phase,
    error: Option<ConnectionError>,
    initiator: bool,
    recv_id: u16,
    send_id: u16,

    // Send side.
    /// Next sequence number to assign.
    seq_nr: u16,
    /// Sequence number of `inflight[0]`.
    una: u16,
    inflight: VecDeque<Sent>,
    in_flight_bytes: u64,
    /// Bytes in flight when the sender last had a chance to send (the last
    /// [`Connection::poll_transmit`] call). Between two such calls the flight can only
    /// shrink, so ACKs handled back to back (a runtime reading a batch of datagrams
    /// before it transmits) are capped against this, not against a flight the sender was
    /// never given the chance to refill.
    flight_at_poll: u64,
    resend_count: usize,
    send_buf: VecDeque<u8>,
    /// Stream offset of `send_buf[0]`.
    send_base: u64,
    /// Stream offset of the next byte to packetize.
    unsent: u64,
    closing: Closing,
    syn_retries: u32,
    peer_wnd: u64,
    dup_acks: u32,
    rtt: RttEstimator,
    backoff: u32,
    rto_at: Option<Instant>,
    /// The last paced packet: when it was due and its length (the next one's gap is
    /// computed at the rate in force then).
    paced: Option<(Instant, u64)>,
    blocked_until: Option<Instant>,
    probe_at: Option<Instant>,
    probe_ok: bool,
    last_sent: Option<Instant>,
    last_recv: Instant,
    keepalive_due: bool,
    delay_samples: Vec<DelaySample>,

    // Receive side.
    /// Reassembly: `ack_nr`, the readable bytes, the reorder buffer, the peer's FIN.
    rx: Receiver,
    ack_pending: bool,
    reply_micro: u32,
    last_adv_wnd: u64,
    /// Receiver-driven LEDBAT, when configured: limits the advertised window.
    rledbat: Option<Rledbat>,
    /// Path-MTU search, when configured; else packets are `packet_size`.
    pmtu: Option<Pmtu>,

    done_at: Option<Instant>,
    stats: ConnectionStats,
    sack_scratch: Vec<u8>,
}

/// See [`ConnectionConfig::memory_bound`].
pub(crate) fn memory_bound(cfg: &ConnectionConfig) -> usize {
    use std::mem::size_of;
    let grown = cfg.send_buffer as usize
        + 2 * cfg.recv_buffer as usize
        + cfg.max_reorder as usize * size_of::<Option<Vec<u8>>>()
        + (cfg.max_packets_in_flight as usize + 1) * size_of::<Sent>()
        + MAX_PENDING_SAMPLES * size_of::<DelaySample>()
        + cfg.max_sack_bytes as usize;
    // Growing buffers at most double their length; reordered packets are held exactly.
    size_of::<Connection>() + 2 * grown + 2 * cfg.recv_buffer as usize
}

fn wire_clock(now: Instant) -> u32 {
    Timestamp32::from_instant(now, 0).0
}

impl Connection {
    fn new(
        now: Instant,
        cfg: ConnectionConfig,
        initiator: bool,
        recv_id: u16,
        send_id: u16,
    ) -> Result<Self, ConfigError> {
        cfg.validate()?;
        let ctrl = cfg.controller.build(cfg.max_payload() as u32)?;
        Ok(Connection {
            ctrl,
            phase: Phase::SynSent { syn_due: false },
            error: None,
            initiator,
            recv_id,
            send_id,
            seq_nr: 0,
            una: 0,
            inflight: VecDeque::new(),
            in_flight_bytes: 0,
            flight_at_poll: 0,
            resend_count: 0,
            send_buf: VecDeque::new(),
            send_base: 0,
            unsent: 0,
            closing: Closing::Open,
            syn_retries: 0,
            peer_wnd: cfg.max_payload() as u64,
            dup_acks: 0,
            rtt: RttEstimator::default(),
            backoff: 0,
            rto_at: None,
            paced: None,
            blocked_until: None,
            probe_at: None,
            probe_ok: false,
            last_sent: None,
            last_recv: now,
            keepalive_due: false,
            delay_samples: Vec::new(),
            rx: Receiver::new(0),
            ack_pending: false,
            reply_micro: 0,
            last_adv_wnd: 0,
            rledbat: cfg
                .rledbat
                .map(|r| Rledbat::new(r, cfg.max_payload() as u64)),
            pmtu: cfg
                .mtu_probe
                .then(|| Pmtu::new(pmtu::MIN_PACKET, cfg.packet_size)),
            done_at: None,
            stats: ConnectionStats::default(),
            sack_scratch: Vec::new(),
            cfg,
        })
    }

    /// An initiating connection whose SYN goes out on the first
    /// [`Connection::poll_transmit`]: `recv_id` as chosen (randomly) by the caller,
    /// `send_id = recv_id + 1`.
    pub fn connect(now: Instant, cfg: ConnectionConfig, recv_id: u16) -> Result<Self, ConfigError> {
        let mut c = Connection::new(now, cfg, true, recv_id, recv_id.wrapping_add(1))?;
        c.seq_nr = SYN_SEQ_NR.wrapping_add(1);
        c.una = SYN_SEQ_NR;
        c.inflight.push_back(Sent {
            kind: Kind::Syn,
            offset: 0,
            len: 0,
            sent_at: now,
            transmissions: 0,
            acked: false,
            in_flight: false,
            need_resend: false,
            probe: 0,
        });
        c.phase = Phase::SynSent { syn_due: true };
        Ok(c)
    }

    /// The accepting side of a received SYN, with initial sequence number `isn` (random,
    /// chosen by the caller). A STATE answering the SYN is queued.
    pub fn accept(
        now: Instant,
        cfg: ConnectionConfig,
        syn: &Header,
        isn: u16,
    ) -> Result<Self, ConfigError> {
        let mut c = Connection::new(now, cfg, false, syn.conn_id.wrapping_add(1), syn.conn_id)?;
        c.phase = Phase::SynReceived;
        c.rx.set_ack_nr(syn.seq_nr);
        c.seq_nr = isn;
        c.una = isn;
        c.peer_wnd = syn.wnd_size as u64;
        c.reply_micro = wire_clock(now).wrapping_sub(syn.timestamp);
        c.ack_pending = true;
        c.stats.packets_received = 1;
        Ok(c)
    }

    /// Largest packet this connection sends now, header included: the configured
    /// `packet_size`, or what the path-MTU search has confirmed so far.
    pub fn packet_size(&self) -> u16 {
        self.pmtu.map_or(self.cfg.packet_size, |p| p.packet_size())
    }

    fn max_payload(&self) -> usize {
        self.packet_size() as usize - packet::HEADER_LEN
    }

    /// The path-MTU search's confirmed size and ceiling, when it runs (an endpoint keeps
    /// them per peer address, so the next connection starts from them).
    pub fn path_mtu(&self) -> Option<(u16, u16)> {
        self.pmtu.map(|p| p.bounds())
    }

    /// Starts the path-MTU search from what an earlier connection to the same peer
    /// learned (`floor` crossed the path, nothing above `ceiling` is tried); ignored when
    /// the search is off.
    pub fn seed_path_mtu(&mut self, floor: u16, ceiling: u16) {
        if self.pmtu.is_some() {
            self.pmtu = Some(Pmtu::new(floor, ceiling.min(self.cfg.packet_size)));
        }
    }

    /// Connection id expected on incoming packets.
    pub fn recv_id(&self) -> u16 {
        self.recv_id
    }
    /// Connection id put on outgoing packets (except SYN).
    pub fn send_id(&self) -> u16 {
        self.send_id
    }
    /// Whether this side sent the SYN.
    pub fn is_initiator(&self) -> bool {
        self.initiator
    }
    /// Lifecycle state.
    pub fn state(&self) -> State {
        self.phase.state()
    }
    /// Whether the handshake completed from this side's point of view (the acceptor may
    /// send as soon as it has answered the SYN).
    pub fn is_established(&self) -> bool {
        matches!(self.phase, Phase::Connected | Phase::SynReceived)
    }
    /// Why the connection failed, if it did.
    pub fn error(&self) -> Option<ConnectionError> {
        self.error
    }
    /// Whether a `close` was requested and the FIN is acknowledged (every byte written
    /// was delivered).
    pub fn is_write_closed(&self) -> bool {
        self.closing == Closing::FinAcked
    }
    /// Whether the peer's FIN was reached and every byte before it has been read.
    pub fn is_read_closed(&self) -> bool {
        self.rx.is_eof() && self.rx.readable() == 0
    }
    /// Whether there is nothing left to do: failed, or closed in both directions (or closed
    /// by us, the peer's remaining data being unwanted), and the linger time after that
    /// has passed.
    pub fn is_drained(&self, now: Instant) -> bool {
        match self.done_at {
            Some(t) => self.error.is_some() || now >= t + self.cfg.linger,
            None => false,
        }
    }

    /// Payload bytes of ours the peer has acknowledged so far
    /// ([`ConnectionStats::bytes_acked`] without building the whole report).
    pub fn bytes_acked(&self) -> u64 {
        self.stats.bytes_acked
    }

    /// Counters and state.
    pub fn stats(&self) -> ConnectionStats {
        let mut s = self.stats.clone();
        s.cwnd = self.ctrl.window();
        s.in_flight = self.in_flight_bytes;
        s.peer_window = self.peer_wnd;
        s.srtt = self.rtt.srtt();
        s.rto = self.rto();
        s.controller = self.ctrl.name();
        s.metrics = self.ctrl.metrics();
        s.memory_bytes = self.memory_bytes();
        s.packet_size = self.packet_size();
        if let Some(r) = &self.rledbat {
            s.rledbat_window = Some(r.window());
            s.rledbat_queuing_delay = r.queuing_delay();
            s.rledbat_detections = Some(r.competitor().detections());
        }
        if let Some(c) = self.ctrl.competitor() {
            s.competitor_tests = Some(c.tests() + c.push_collisions());
            s.competitor_last_test = c.last_test();
        }
        s
    }

    /// Memory this connection holds now, bytes: the structure itself (the controller lives
    /// inline) and the capacity of its buffers: send buffer, records of packets in flight,
    /// pending delay samples, and the receive side (in-order bytes, reorder slots and the
    /// packets in them). Not counted: the controller's delay filters, a few hundred bytes
    /// allocated once. At most [`ConnectionConfig::memory_bound`].
    pub fn memory_bytes(&self) -> usize {
        std::mem::size_of::<Self>()
            + self.send_buf.capacity()
            + self.inflight.capacity() * std::mem::size_of::<Sent>()
            + self.delay_samples.capacity() * std::mem::size_of::<DelaySample>()
            + self.sack_scratch.capacity()
            + self.rx.memory_bytes()
    }

    /// Checks the internal bookkeeping (for tests and fuzzing): bytes in flight, pending
    /// retransmissions, buffered out-of-order bytes and the send buffer agree with the
    /// per-packet records.
    pub fn check_invariants(&self) -> Result<(), String> {
        let flight: u64 = self
            .inflight
            .iter()
            .filter(|e| e.in_flight)
            .map(|e| e.len as u64)
            .sum();
        if flight != self.in_flight_bytes {
            return Err(format!(
                "in_flight_bytes {} but packets say {flight}",
                self.in_flight_bytes
            ));
        }
        let resend = self.inflight.iter().filter(|e| e.need_resend).count();
        if resend != self.resend_count {
            return Err(format!(
                "resend_count {} but packets say {resend}",
                self.resend_count
            ));
        }
        self.rx.check_invariants(self.cfg.max_reorder)?;
        if self.inflight.len() > self.cfg.max_packets_in_flight as usize + 1 {
            return Err(format!("{} packets in flight", self.inflight.len()));
        }
        if self.unsent < self.send_base || self.unsent > self.send_base + self.send_buf.len() as u64
        {
            return Err("unsent offset outside the send buffer".into());
        }
        if self.error.is_none() && self.seq_nr != self.una.wrapping_add(self.inflight.len() as u16)
        {
            return Err(format!(
                "seq_nr {} != una {} + {}",
                self.seq_nr,
                self.una,
                self.inflight.len()
            ));
        }
        Ok(())
    }

    /// Counts a malformed datagram addressed to this connection.
    pub fn count_malformed(&mut self) {
        self.stats.malformed_dropped += 1;
    }

    /// Bytes [`Connection::write`] would accept now.
    pub fn writable(&self) -> usize {
        (self.cfg.send_buffer as usize).saturating_sub(self.send_buf.len())
    }

    /// Bytes ready for [`Connection::read`].
    pub fn readable(&self) -> usize {
        self.rx.readable()
    }

    /// Whether [`Connection::read`] would return something other than `WouldBlock`
    /// (data, end of stream or an error).
    pub fn is_readable(&self) -> bool {
        self.rx.readable() > 0 || self.rx.is_eof() || self.error.is_some()
    }

    /// Whether written bytes are waiting to be packetized.
    pub fn has_unsent(&self) -> bool {
        self.unsent < self.send_base + self.send_buf.len() as u64
    }

    /// Whether a datagram may be due without any new event: an acknowledgement or
    /// keep-alive is pending, or written data has not been packetized yet. Runtimes use it
    /// to avoid waking their driver for nothing.
    pub fn wants_transmit(&self) -> bool {
        self.ack_pending
            || self.keepalive_due
            || matches!(
                self.phase,
                Phase::SynSent { syn_due: true } | Phase::Failed { reset_due: true }
            )
            || self.has_unsent()
            || self.closing == Closing::FinQueued
    }

    /// Queues bytes for sending; returns how many were taken (at most
    /// [`Connection::writable`]).
    pub fn write(&mut self, data: &[u8]) -> Result<usize, StreamError> {
        if let Some(e) = self.error {
            return Err(e.into());
        }
        if self.closing != Closing::Open {
            return Err(StreamError::WriteClosed);
        }
        let n = data.len().min(self.writable());
        if n == 0 && !data.is_empty() {
            return Err(StreamError::WouldBlock);
        }
        self.send_buf.extend(&data[..n]);
        Ok(n)
    }

    /// Copies received bytes into `buf`. `Ok(0)` (for a non-empty `buf`) is end of stream.
    pub fn read(&mut self, buf: &mut [u8]) -> Result<usize, StreamError> {
        if self.rx.readable() == 0 {
            if self.rx.is_eof() {
                return Ok(0);
            }
            if let Some(e) = self.error {
                return Err(e.into());
            }
            return Err(StreamError::WouldBlock);
        }
        let n = self.rx.read(buf);
        // Window update (libutp): the peer may be stalled on a window smaller than a packet.
        let mss = self.max_payload() as u64;
        if self.last_adv_wnd < mss && self.adv_wnd() >= mss {
            self.ack_pending = true;
        }
        Ok(n)
    }

    /// Ends our direction of the stream: a FIN follows the data already written.
    pub fn close(&mut self) {
        if self.closing == Closing::Open {
            self.closing = Closing::FinQueued;
        }
    }

    /// Aborts the connection: one RESET is sent and the connection fails.
    pub fn abort(&mut self, now: Instant) {
        if self.error.is_none() {
            let reset_due = !matches!(self.phase, Phase::SynSent { .. });
            self.fail(now, ConnectionError::Aborted);
            self.phase = Phase::Failed { reset_due };
        }
    }

    /// An ICMP destination-unreachable report about this connection's peer address.
    ///
    /// RFC 1122 section 4.2.3.9 (as TCP does): port unreachable is a hard error and fails
    /// the connection in any state, since no socket listens at the peer any more; host and
    /// network unreachable are soft errors, which fail only a handshake still outstanding
    /// (nothing was ever exchanged, so waiting out the SYN retries only delays the same
    /// answer) and otherwise leave an established connection to its timers, since routes
    /// come back. Returns whether the connection failed. ICMP reports can be forged by
    /// anyone on the path; a forged one can do no more than a forged RESET.
    pub fn on_unreachable(&mut self, now: Instant, kind: Unreachable) -> bool {
        if self.error.is_some() {
            return false;
        }
        let handshake = matches!(self.phase, Phase::SynSent { .. });
        let e = match kind {
            Unreachable::Port => ConnectionError::Refused,
            _ if handshake => ConnectionError::Unreachable(kind),
            _ => return false,
        };
        self.fail(now, e);
        true
    }

    fn fail(&mut self, now: Instant, e: ConnectionError) {
        self.error = Some(e);
        self.phase = Phase::Failed { reset_due: false };
        self.done_at.get_or_insert(now);
        self.rto_at = None;
        self.inflight.clear();
        self.in_flight_bytes = 0;
        self.resend_count = 0;
    }

    fn adv_wnd(&self) -> u64 {
        let free = (self.cfg.recv_buffer as u64).saturating_sub(self.rx.buffered() as u64);
        match &self.rledbat {
            Some(r) => free.min(r.window()),
            None => free,
        }
    }

    fn rto(&self) -> Duration {
        let base = self.rtt.rto(Duration::from_millis(1), self.cfg.min_rto);
        let shift = self.backoff.min(16);
        (base * (1u64 << shift)).min(self.cfg.max_rto)
    }

    /// Decodes and handles one datagram already matched to this connection. Malformed
    /// datagrams are counted and dropped.
    pub fn handle_datagram(&mut self, now: Instant, datagram: &[u8]) {
        match packet::decode(datagram) {
            Ok(p) => self.handle_packet(now, &p),
            Err(_) => self.count_malformed(),
        }
    }

    /// Handles one decoded packet matched to this connection.
    pub fn handle_packet(&mut self, now: Instant, p: &Packet<'_>) {
        let h = &p.header;
        if self.error.is_some() {
            return;
        }
        self.stats.packets_received += 1;
        match h.ty {
            PacketType::Reset => {
                self.fail(now, ConnectionError::Reset);
                return;
            }
            PacketType::Syn => {
                // A retransmitted SYN: our STATE was lost. Answer again.
                if !self.initiator && h.conn_id.wrapping_add(1) == self.recv_id {
                    self.ack_pending = true;
                }
                return;
            }
            _ => {}
        }
        if matches!(self.phase, Phase::SynSent { .. }) {
            if h.ack_nr != SYN_SEQ_NR {
                return;
            }
            // The STATE's seq_nr is the acceptor's next (unconsumed) number; a DATA's is
            // its own: either way the last one "received" is one before.
            self.rx.set_ack_nr(h.seq_nr.wrapping_sub(1));
            self.phase = Phase::Connected;
        } else if self.phase == Phase::SynReceived {
            self.phase = Phase::Connected;
        }
        self.last_recv = now;
        self.reply_micro = wire_clock(now).wrapping_sub(h.timestamp);
        // A STATE that only announces a new receive window (libtorrent sends one when its
        // application drains the buffer) is not a duplicate ACK (RFC 5681 section 2: a
        // duplicate ACK leaves the advertised window unchanged); one carrying a SACK is,
        // whatever its window (a receiver's window shrinks as it buffers out-of-order data).
        let window_update = h.wnd_size as u64 != self.peer_wnd && p.sack.is_none();
        self.peer_wnd = h.wnd_size as u64;
        if h.timestamp_diff != 0 {
            if self.delay_samples.len() == MAX_PENDING_SAMPLES {
                self.delay_samples.remove(0);
            }
            self.delay_samples.push(DelaySample(h.timestamp_diff));
        }
        let dup_candidate = h.ty == PacketType::State && !window_update;
        self.process_ack(now, h.ack_nr, p.sack.map(|s| s.0), dup_candidate);
        match h.ty {
            PacketType::Data => {
                if let Some(r) = &mut self.rledbat {
                    r.on_data(
                        now,
                        p.payload.len() as u64,
                        self.reply_micro,
                        h.timestamp_diff,
                    );
                }
                self.receive(now, h.seq_nr, p.payload, false)
            }
            PacketType::Fin => self.receive(now, h.seq_nr, &[], true),
            _ => {}
        }
        self.check_done(now);
    }

    fn check_done(&mut self, now: Instant) {
        if self.done_at.is_none() && self.closing == Closing::FinAcked {
            self.done_at = Some(now);
        }
    }

    fn receive(&mut self, now: Instant, seq: u16, payload: &[u8], fin: bool) {
        self.ack_pending = true;
        let (max_reorder, recv_buffer) = (self.cfg.max_reorder, self.cfg.recv_buffer);
        let gap_before = self.rx.has_gap();
        let receipt = self.rx.receive(seq, payload, fin, max_reorder, recv_buffer);
        if let Some(r) = &mut self.rledbat {
            // A gap opening, or a packet arriving twice (retransmitted), is a loss on the
            // way to us.
            let opened = receipt == Receipt::Buffered && !gap_before;
            if opened || receipt == Receipt::Duplicate {
                r.on_loss(now);
            }
        }
        match receipt {
            Receipt::Delivered { bytes } => self.stats.bytes_received += bytes,
            Receipt::Duplicate => self.stats.duplicate_packets += 1,
            Receipt::OutOfWindow => self.stats.dropped_out_of_window += 1,
            Receipt::Buffered | Receipt::PastFin => {}
        }
    }

    /// The next instant at which [`Connection::handle_timeout`] has work, if any.
    ///
    /// The linger deadline is not included (see [`Connection::drain_at`]): only the owner
    /// knows whether the application still holds the connection.
    pub fn poll_timeout(&self) -> Option<Instant> {
        if self.error.is_some() {
            return None;
        }
        let mut t: Option<Instant> = None;
        let mut consider = |x: Option<Instant>| {
            if let Some(x) = x {
                t = Some(t.map_or(x, |t| t.min(x)));
            }
        };
        consider(self.rto_at);
        consider(self.ctrl.next_tick());
        consider(self.probe_at);
        consider(self.blocked_until);
        if !matches!(self.phase, Phase::SynSent { .. }) {
            consider(self.last_sent.map(|s| s + self.cfg.keepalive));
        }
        if self.phase == Phase::SynReceived {
            consider(Some(self.last_recv + self.cfg.handshake_timeout));
        }
        t
    }

    /// When [`Connection::is_drained`] becomes true, once known.
    pub fn drain_at(&self) -> Option<Instant> {
        match (self.error, self.done_at) {
            (Some(_), Some(t)) => Some(t),
            (None, Some(t)) => Some(t + self.cfg.linger),
            _ => None,
        }
    }

    /// Runs every timer due at `now`.
    pub fn handle_timeout(&mut self, now: Instant) {
        if self.error.is_some() {
            return;
        }
        if self.ctrl.next_tick().is_some_and(|t| t <= now) {
            self.ctrl.on_tick(now);
        }
        if self.blocked_until.is_some_and(|t| t <= now) {
            self.blocked_until = None;
        }
        if self.probe_at.is_some_and(|t| t <= now) {
            self.probe_at = None;
            self.probe_ok = true;
        }
        if self.phase == Phase::SynReceived && now >= self.last_recv + self.cfg.handshake_timeout {
            self.fail(now, ConnectionError::TimedOut);
            return;
        }
        if !matches!(self.phase, Phase::SynSent { .. })
            && self
                .last_sent
                .is_some_and(|s| now >= s + self.cfg.keepalive)
        {
            self.keepalive_due = true;
        }
        if self.rto_at.is_some_and(|t| t <= now) {
            self.on_rto(now);
        }
    }
}

#[cfg(test)]
mod tests;
