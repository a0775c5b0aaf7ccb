//! Datagram sequences replayed against one endpoint: the `endpoint` fuzz target's body,
//! and the way a capture of a real peer (libtorrent, Transmission, qBittorrent) is played
//! back to our state machine in tests.
//!
//! Input format (every integer big-endian):
//!
//! ```text
//! flags: u8    bit 0: the endpoint dials peer 0 first (else it only listens)
//! id0:   u16   the connection id our SYN carried in the capture (dial only)
//! isn0:  u16   the seq_nr of the first packet our side sent to peer 0 in the capture
//! then records, each starting with a tag byte t; peer k = t & 3 (address 10.9.0.k+1:6881):
//!   t >> 2 == 0: datagram from peer k: len: u16, then len bytes
//!   t >> 2 == 1: time passes: u8 n, n x 10 ms (timers fire)
//!   t >> 2 == 2: the application accepts, reads everything, writes 1000 bytes everywhere
//!   t >> 2 == 3: the application releases the connections to peer k
//!   any other tag: ignored
//! ```
//!
//! A capture cannot be replayed byte for byte: our endpoint draws its own connection id
//! and initial sequence number, and a real peer's packets name those. So the datagrams of
//! peer 0 are rebased before delivery: `ack_nr` moves by `(our first seq_nr to peer 0) -
//! isn0`, and when we dialled, `conn_id` by `(our recv_id) - id0` (16-bit wrapping, as the
//! fields are). Other peers' datagrams are delivered as they are (strangers, floods, forged
//! packets). A capture rebased this way drives our side through the same handshake and
//! data exchange the real peer had with us; the test at the bottom checks that it does.
//!
//! After every record each connection's bookkeeping invariants are checked
//! ([`crate::Connection::check_invariants`]); a violation panics, which is what the fuzzer
//! looks for. At the end the timers run until everything is quiet or five virtual minutes
//! have passed.

use crate::endpoint::{ConnHandle, Endpoint, EndpointConfig};
use crate::packet::{HEADER_LEN, VERSION};
use ledbat_core::{Duration, Instant};
use std::net::SocketAddr;

/// The address of replay peer `k` (0..=3).
pub fn peer_addr(k: u8) -> SocketAddr {
    SocketAddr::from(([10, 9, 0, k + 1], 6881))
}

/// What a replay did, for tests.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ReplayOutcome {
    /// Datagrams handed to the endpoint.
    pub delivered: u64,
    /// Datagrams the endpoint sent.
    pub sent: u64,
    /// Connections the application accepted.
    pub accepted: u64,
    /// Stream bytes the application read from peer 0's connections, in order.
    pub read_from_peer0: Vec<u8>,
    /// Whether a connection to peer 0 was ever established.
    pub peer0_established: bool,
    /// The most bytes of ours peer 0 ever had acknowledged (over its connections).
    pub peer0_bytes_acked: u64,
}

struct Replay {
    ep: Endpoint,
    now: Instant,
    dial: Option<ConnHandle>,
    id0: u16,
    isn0: u16,
    /// Our first seq_nr sent to peer 0, once seen.
    our_isn: Option<u16>,
    apps: Vec<ConnHandle>,
    out: ReplayOutcome,
    buf: Vec<u8>,
    read_buf: Vec<u8>,
}

impl Replay {
    fn drain(&mut self) {
        while let Some(to) = self.ep.poll_transmit(self.now, &mut self.buf) {
            self.out.sent += 1;
            if to == peer_addr(0) && self.our_isn.is_none() && self.buf.len() >= HEADER_LEN {
                self.our_isn = Some(u16::from_be_bytes([self.buf[16], self.buf[17]]));
            }
            self.buf.clear();
        }
    }

    fn rebase(&self, d: &mut [u8]) {
        if d.len() < HEADER_LEN || d[0] & 0x0f != VERSION {
            return;
        }
        if let Some(ours) = self.our_isn {
            let ack = u16::from_be_bytes([d[18], d[19]]);
            let rebased = ack.wrapping_add(ours.wrapping_sub(self.isn0));
            d[18..20].copy_from_slice(&rebased.to_be_bytes());
        }
        if let Some(c) = self.dial.and_then(|h| self.ep.connection(h)) {
            let id = u16::from_be_bytes([d[2], d[3]]);
            let rebased = id.wrapping_add(c.recv_id().wrapping_sub(self.id0));
            d[2..4].copy_from_slice(&rebased.to_be_bytes());
        }
    }

    fn check(&mut self) {
        let Replay { ep, out, .. } = self;
        for h in ep.handles() {
            let Some(c) = ep.connection(h) else {
                continue;
            };
            if let Err(e) = c.check_invariants() {
                panic!("invariant broken: {e}");
            }
            if ep.peer_addr(h) == Some(peer_addr(0)) {
                out.peer0_established |= c.is_established();
                out.peer0_bytes_acked = out.peer0_bytes_acked.max(c.bytes_acked());
            }
        }
    }

    fn app(&mut self) {
        while let Some(h) = self.ep.accept() {
            self.out.accepted += 1;
            self.apps.push(h);
        }
        let data = [0x5au8; 1000];
        for &h in &self.apps {
            let peer0 = self.ep.peer_addr(h) == Some(peer_addr(0));
            let Some(c) = self.ep.connection_mut(h) else {
                continue;
            };
            while let Ok(n) = c.read(&mut self.read_buf) {
                if n == 0 {
                    break;
                }
                if peer0 {
                    self.out
                        .read_from_peer0
                        .extend_from_slice(&self.read_buf[..n]);
                }
            }
            let _ = c.write(&data);
        }
    }

    fn advance(&mut self, to: Instant) {
        loop {
            self.drain();
            match self.ep.poll_timeout() {
                Some(t) if t <= to => {
                    self.now = self.now.max(t);
                    self.ep.handle_timeout(self.now);
                }
                _ => break,
            }
        }
        self.now = self.now.max(to);
        self.drain();
    }
}

/// Replays `input` (format in the module documentation) against a fresh endpoint.
pub fn replay(input: &[u8]) -> ReplayOutcome {
    let cfg = EndpointConfig::default().listen(true).max_half_open(8);
    let mut r = Replay {
        ep: Endpoint::new(cfg, 7).expect("valid endpoint config"),
        now: Instant::from_secs(1),
        dial: None,
        id0: 0,
        isn0: 0,
        our_isn: None,
        apps: Vec::new(),
        out: ReplayOutcome::default(),
        buf: Vec::new(),
        read_buf: vec![0; 16 * 1024],
    };
    let u16_at = |i: usize| {
        input
            .get(i..i + 2)
            .map_or(0, |b| u16::from_be_bytes([b[0], b[1]]))
    };
    let flags = input.first().copied().unwrap_or(0);
    r.id0 = u16_at(1);
    r.isn0 = u16_at(3);
    if flags & 1 != 0 {
        let h = r.ep.connect(r.now, peer_addr(0)).expect("valid config");
        r.dial = Some(h);
        r.apps.push(h);
        r.drain();
    }
    let mut i = 5.min(input.len());
    while i < input.len() {
        let tag = input[i];
        i += 1;
        let k = tag & 3;
        match tag >> 2 {
            0 => {
                let len = u16_at(i) as usize;
                i = (i + 2).min(input.len());
                let end = (i + len).min(input.len());
                let mut d = input[i..end].to_vec();
                i = end;
                if k == 0 {
                    r.rebase(&mut d);
                }
                r.out.delivered += 1;
                r.ep.handle(r.now, peer_addr(k), &d);
                r.drain();
            }
            1 => {
                let n = input.get(i).copied().unwrap_or(0);
                i += 1;
                let to = r.now + Duration::from_millis(10 * n as u64);
                r.advance(to);
            }
            2 => {
                r.app();
                r.drain();
            }
            3 => {
                let addr = peer_addr(k);
                let hs: Vec<ConnHandle> = r
                    .apps
                    .iter()
                    .copied()
                    .filter(|&h| r.ep.peer_addr(h) == Some(addr))
                    .collect();
                for h in hs {
                    r.ep.release(h);
                }
                r.apps.retain(|&h| r.ep.peer_addr(h) != Some(addr));
                r.drain();
            }
            _ => {}
        }
        r.check();
    }
    r.app();
    let end = r.now + Duration::from_secs(300);
    r.advance(end);
    r.check();
    r.out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::packet::{encode, Header, PacketType};

    fn datagram(out: &mut Vec<u8>, k: u8, h: &Header, payload: &[u8]) {
        let mut d = Vec::new();
        encode(h, &[], payload, &mut d);
        out.push(k);
        out.extend_from_slice(&(d.len() as u16).to_be_bytes());
        out.extend_from_slice(&d);
    }

    fn hdr(ty: PacketType, conn_id: u16, seq_nr: u16, ack_nr: u16) -> Header {
        Header {
            ty,
            conn_id,
            timestamp: 1000,
            timestamp_diff: 0,
            wnd_size: 1 << 20,
            seq_nr,
            ack_nr,
        }
    }

    /// A stranger's SYN, then DATA acknowledging "our" first packet as the capture saw
    /// it (isn0 = 500): rebased, the DATA is in sequence and its payload is read.
    #[test]
    fn a_peers_handshake_replays_with_our_sequence_numbers() {
        let mut input = vec![0, 0, 0, 0x01, 0xf4];
        datagram(&mut input, 0, &hdr(PacketType::Syn, 40, 9000, 0), &[]);
        datagram(
            &mut input,
            0,
            &hdr(PacketType::Data, 41, 9001, 500),
            b"\x13BitTorrent protocol",
        );
        input.push(2 << 2);
        let out = replay(&input);
        assert!(out.peer0_established);
        assert_eq!(out.accepted, 1);
        assert_eq!(out.read_from_peer0, b"\x13BitTorrent protocol");
    }

    /// We accept, write 1000 bytes, and the peer acknowledges them in the capture's
    /// numbering (our first packet had seq_nr 500 there): rebased, the ACK covers our
    /// DATA; with a wrong isn0 it names packets we never sent and acknowledges nothing.
    #[test]
    fn the_peers_acks_are_rebased_onto_our_initial_sequence_number() {
        let run = |isn0: u16| {
            let mut input = vec![0, 0, 0];
            input.extend_from_slice(&isn0.to_be_bytes());
            datagram(&mut input, 0, &hdr(PacketType::Syn, 40, 9000, 0), &[]);
            input.push(2 << 2);
            datagram(&mut input, 0, &hdr(PacketType::State, 41, 9001, 500), &[]);
            replay(&input).peer0_bytes_acked
        };
        assert_eq!(run(500), 1000);
        assert_eq!(run(0x8000), 0);
    }

    #[test]
    fn a_dialled_peers_answers_are_rebased_onto_our_connection_id() {
        // Our SYN carried id 77 and seq 300 in the "capture"; the peer answers with
        // STATE(conn_id 77, ack 300), then DATA.
        let mut input = vec![1, 0, 77, 0x01, 0x2c];
        datagram(&mut input, 0, &hdr(PacketType::State, 77, 20, 300), &[]);
        datagram(&mut input, 0, &hdr(PacketType::Data, 77, 20, 300), b"hello");
        input.push(2 << 2);
        let out = replay(&input);
        assert!(out.peer0_established);
        assert_eq!(out.read_from_peer0, b"hello");
    }

    #[test]
    fn garbage_and_truncated_records_never_panic() {
        for input in [
            &b""[..],
            &[1][..],
            &[0, 0, 0, 0, 0, 0, 0xff, 0xff, 1, 2][..],
            &[0, 0, 0, 0, 0, 4, 255, 8, 12, 1, 0, 20][..],
        ] {
            replay(input);
        }
    }

    proptest::proptest! {
        #![proptest_config(proptest::prelude::ProptestConfig::with_cases(64))]
        /// The fuzz target `fuzz/fuzz_targets/endpoint.rs` on stable.
        #[test]
        fn arbitrary_sequences_never_break_an_endpoint(
            input in proptest::collection::vec(proptest::prelude::any::<u8>(), 0..600)
        ) {
            replay(&input);
        }
    }
}
