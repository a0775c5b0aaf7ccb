//! The receive side of one uTP connection: the in-order byte queue the application reads,
//! the reorder buffer of packets that arrived after a gap, the peer's FIN, and the
//! selective-ACK bitmap that describes the gaps (BEP 29).
//!
//! Numbering (BEP 29): `ack_nr` is the last sequence number received in order; the next
//! expected one is `ack_nr + 1`. A packet `d` positions past it (`d = seq - (ack_nr + 1)`,
//! modulo 2^16) is buffered in slot `d - 1`, which is also its selective-ACK bit: bit `i`
//! stands for packet `ack_nr + 2 + i`, least significant bit of byte `i / 8` first. A
//! packet is refused when `d >= max_reorder` (too far ahead) or when taking it would leave
//! more than twice the receive buffer queued, so a peer cannot make us buffer without
//! bound.

use crate::packet;
use crate::seq::{seq_diff, seq_lt};
use std::collections::VecDeque;

/// What happened to one received DATA or FIN packet.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Receipt {
    /// It was the next expected packet: `bytes` (its payload plus that of the buffered
    /// packets it made contiguous) became readable.
    Delivered {
        /// Bytes moved to the readable queue.
        bytes: u64,
    },
    /// Ahead of a gap: kept in the reorder buffer.
    Buffered,
    /// Already received (before `ack_nr`, or its reorder slot is taken).
    Duplicate,
    /// After the peer's FIN, or a second FIN at another number: ignored.
    PastFin,
    /// Too far ahead, or the buffers are full: dropped.
    OutOfWindow,
}

/// Reassembly state of the receive direction.
#[derive(Debug)]
pub(crate) struct Receiver {
    /// Last in-order sequence number received.
    ack_nr: u16,
    /// In-order bytes not yet read by the application.
    buf: VecDeque<u8>,
    /// `ooo[i]` holds packet `ack_nr + 2 + i` (the selective-ACK bit numbering).
    ooo: VecDeque<Option<Vec<u8>>>,
    /// Payload bytes held in `ooo`.
    ooo_bytes: usize,
    /// Sequence number of the peer's FIN, once seen.
    peer_fin: Option<u16>,
    /// Every packet up to the FIN was delivered.
    eof: bool,
}

impl Receiver {
    /// A receiver whose last in-order packet is `ack_nr`.
    pub(crate) fn new(ack_nr: u16) -> Self {
        Receiver {
            ack_nr,
            buf: VecDeque::new(),
            ooo: VecDeque::new(),
            ooo_bytes: 0,
            peer_fin: None,
            eof: false,
        }
    }

    /// Last in-order sequence number received.
    pub(crate) fn ack_nr(&self) -> u16 {
        self.ack_nr
    }

    /// Sets the last in-order sequence number (handshake: before any data is received).
    pub(crate) fn set_ack_nr(&mut self, ack_nr: u16) {
        self.ack_nr = ack_nr;
    }

    /// Bytes ready to read.
    pub(crate) fn readable(&self) -> usize {
        self.buf.len()
    }

    /// Bytes held: readable plus buffered out of order (what the receive window counts).
    pub(crate) fn buffered(&self) -> usize {
        self.buf.len() + self.ooo_bytes
    }

    /// Whether the peer's FIN was reached (every packet before it delivered).
    pub(crate) fn is_eof(&self) -> bool {
        self.eof
    }

    /// Whether some packet is waiting behind a gap.
    pub(crate) fn has_gap(&self) -> bool {
        !self.ooo.is_empty()
    }

    /// Handles one DATA (`fin` false) or FIN (`fin` true, empty payload) packet.
    /// `max_reorder` bounds how far ahead of the next expected packet one may be buffered;
    /// `recv_buffer` is the receive buffer size (at most twice it is held).
    pub(crate) fn receive(
        &mut self,
        seq: u16,
        payload: &[u8],
        fin: bool,
        max_reorder: u16,
        recv_buffer: u32,
    ) -> Receipt {
        let expected = self.ack_nr.wrapping_add(1);
        let d = seq_diff(seq, expected);
        if d < 0 {
            return Receipt::Duplicate;
        }
        if let Some(f) = self.peer_fin {
            if seq_lt(f, seq) || (fin && f != seq) {
                return Receipt::PastFin;
            }
        }
        let d = d as usize;
        let buffered = self.buf.len() + self.ooo_bytes + payload.len();
        if d >= max_reorder as usize || buffered > 2 * recv_buffer as usize {
            return Receipt::OutOfWindow;
        }
        if fin {
            self.peer_fin = Some(seq);
        }
        if d == 0 {
            let mut bytes = self.deliver(seq, payload);
            while let Some(slot) = self.ooo.pop_front() {
                match slot {
                    Some(p) => {
                        self.ooo_bytes -= p.len();
                        let s = self.ack_nr.wrapping_add(1);
                        bytes += self.deliver(s, &p);
                    }
                    None => break,
                }
            }
            Receipt::Delivered { bytes }
        } else {
            let i = d - 1;
            if self.ooo.len() <= i {
                self.ooo.resize(i + 1, None);
            }
            if self.ooo[i].is_none() {
                self.ooo_bytes += payload.len();
                self.ooo[i] = Some(payload.to_vec());
                Receipt::Buffered
            } else {
                Receipt::Duplicate
            }
        }
    }

    fn deliver(&mut self, seq: u16, payload: &[u8]) -> u64 {
        self.ack_nr = seq;
        self.buf.extend(payload);
        if self.peer_fin == Some(seq) {
            self.eof = true;
            self.ooo.clear();
            self.ooo_bytes = 0;
        }
        payload.len() as u64
    }

    /// Memory held, bytes: the in-order queue's and the reorder slots' capacity and the
    /// packets buffered in them.
    pub(crate) fn memory_bytes(&self) -> usize {
        self.buf.capacity()
            + self.ooo.capacity() * std::mem::size_of::<Option<Vec<u8>>>()
            + self.ooo_bytes
    }

    /// Moves up to `buf.len()` readable bytes into `buf`; returns how many.
    pub(crate) fn read(&mut self, buf: &mut [u8]) -> usize {
        let n = buf.len().min(self.buf.len());
        let (a, b) = self.buf.as_slices();
        let from_a = n.min(a.len());
        buf[..from_a].copy_from_slice(&a[..from_a]);
        buf[from_a..n].copy_from_slice(&b[..n - from_a]);
        self.buf.drain(..n);
        n
    }

    /// The selective-ACK bitmap of the reorder buffer (at most `max_bytes`, see
    /// [`packet::build_sack`]), or `None` when nothing is waiting behind a gap.
    pub(crate) fn selective_ack(&self, max_bytes: usize) -> Option<Vec<u8>> {
        if self.ooo.is_empty() {
            return None;
        }
        Some(packet::build_sack(
            self.ooo.iter().map(|s| s.is_some()),
            max_bytes,
        ))
    }

    /// Checks that the buffered byte count matches the slots and that the reorder buffer
    /// stays within `max_reorder` slots.
    pub(crate) fn check_invariants(&self, max_reorder: u16) -> Result<(), String> {
        let ooo: usize = self.ooo.iter().flatten().map(|p| p.len()).sum();
        if ooo != self.ooo_bytes {
            return Err(format!(
                "ooo_bytes {} but buffer holds {ooo}",
                self.ooo_bytes
            ));
        }
        if self.ooo.len() > max_reorder as usize {
            return Err(format!("reorder buffer of {} slots", self.ooo.len()));
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const REORDER: u16 = 64;
    const BUFFER: u32 = 1000;

    fn rx(r: &mut Receiver, seq: u16, payload: &[u8]) -> Receipt {
        r.receive(seq, payload, false, REORDER, BUFFER)
    }

    fn read_all(r: &mut Receiver) -> Vec<u8> {
        let mut buf = vec![0u8; 4096];
        let n = r.read(&mut buf);
        buf.truncate(n);
        buf
    }

    #[test]
    fn in_order_packets_are_delivered_at_once() {
        let mut r = Receiver::new(9);
        assert_eq!(rx(&mut r, 10, b"ab"), Receipt::Delivered { bytes: 2 });
        assert_eq!(rx(&mut r, 11, b"cde"), Receipt::Delivered { bytes: 3 });
        assert_eq!(r.ack_nr(), 11);
        assert_eq!(r.readable(), 5);
        assert!(!r.has_gap());
        assert_eq!(r.selective_ack(4), None);
        assert_eq!(read_all(&mut r), b"abcde");
        assert_eq!(r.readable(), 0);
    }

    #[test]
    fn a_gap_holds_later_packets_until_it_is_filled() {
        let mut r = Receiver::new(9);
        // expected 10; 12 and 11 arrive first
        assert_eq!(rx(&mut r, 12, b"EF"), Receipt::Buffered);
        assert_eq!(rx(&mut r, 11, b"CD"), Receipt::Buffered);
        assert_eq!(r.ack_nr(), 9);
        assert_eq!(r.readable(), 0);
        assert_eq!(r.buffered(), 4);
        // 10 fills the gap: 2 + 2 + 2 bytes become readable, ack_nr jumps to 12
        assert_eq!(rx(&mut r, 10, b"AB"), Receipt::Delivered { bytes: 6 });
        assert_eq!(r.ack_nr(), 12);
        assert!(!r.has_gap());
        assert_eq!(read_all(&mut r), b"ABCDEF");
        r.check_invariants(REORDER).unwrap();
    }

    #[test]
    fn delivery_stops_at_the_next_hole() {
        let mut r = Receiver::new(0);
        // expected 1; 2 and 4 buffered, 3 missing
        rx(&mut r, 2, b"b");
        rx(&mut r, 4, b"d");
        assert_eq!(rx(&mut r, 1, b"a"), Receipt::Delivered { bytes: 2 });
        assert_eq!(r.ack_nr(), 2);
        assert!(r.has_gap(), "packet 4 still waits for 3");
        assert_eq!(r.buffered(), 3);
    }

    #[test]
    fn sack_bits_follow_bep29_numbering() {
        // ack_nr 100: bit i is packet 102 + i. Received out of order: 102, 104, 111.
        let mut r = Receiver::new(100);
        for seq in [102u16, 104, 111] {
            assert_eq!(rx(&mut r, seq, b"x"), Receipt::Buffered);
        }
        // bits 0, 2 (byte 0 = 0b0000_0101) and 9 (byte 1 = 0b0000_0010), padded to 4 bytes
        assert_eq!(r.selective_ack(4), Some(vec![0x05, 0x02, 0, 0]));
    }

    #[test]
    fn sack_bits_span_the_sequence_wrap() {
        // ack_nr 65534: bit 0 is packet 0 (65534 + 2 wraps), bit 1 is packet 1
        let mut r = Receiver::new(65534);
        rx(&mut r, 1, b"y");
        assert_eq!(r.selective_ack(4), Some(vec![0x02, 0, 0, 0]));
        rx(&mut r, 0, b"x");
        assert_eq!(r.selective_ack(4), Some(vec![0x03, 0, 0, 0]));
        assert_eq!(rx(&mut r, 65535, b"w"), Receipt::Delivered { bytes: 3 });
        assert_eq!(r.ack_nr(), 1);
        assert_eq!(read_all(&mut r), b"wxy");
    }

    #[test]
    fn packets_beyond_the_reorder_window_or_buffer_are_dropped() {
        let mut r = Receiver::new(0);
        // expected 1: d = seq - 1; d = REORDER - 1 is the last slot accepted
        assert_eq!(rx(&mut r, REORDER, b"x"), Receipt::Buffered);
        assert_eq!(rx(&mut r, REORDER + 1, b"x"), Receipt::OutOfWindow);
        // buffered 1 byte; 1 + 1999 = 2 * BUFFER still fits, one more byte does not
        assert_eq!(rx(&mut r, 3, &[0; 1999]), Receipt::Buffered);
        assert_eq!(rx(&mut r, 4, b"z"), Receipt::OutOfWindow);
        r.check_invariants(REORDER).unwrap();
    }

    #[test]
    fn duplicates_are_recognised_and_not_delivered_twice() {
        let mut r = Receiver::new(0);
        rx(&mut r, 1, b"a");
        assert_eq!(rx(&mut r, 1, b"a"), Receipt::Duplicate, "before ack_nr");
        rx(&mut r, 3, b"c");
        assert_eq!(rx(&mut r, 3, b"c"), Receipt::Duplicate, "slot taken");
        assert_eq!(r.buffered(), 2);
        assert_eq!(rx(&mut r, 2, b"b"), Receipt::Delivered { bytes: 2 });
        assert_eq!(read_all(&mut r), b"abc");
    }

    #[test]
    fn fin_ends_the_stream_once_everything_before_it_arrived() {
        let mut r = Receiver::new(0);
        assert_eq!(
            r.receive(3, &[], true, REORDER, BUFFER),
            Receipt::Buffered,
            "FIN at 3 waits for 1 and 2"
        );
        assert!(!r.is_eof());
        assert_eq!(rx(&mut r, 4, b"late"), Receipt::PastFin);
        assert_eq!(
            r.receive(5, &[], true, REORDER, BUFFER),
            Receipt::PastFin,
            "a second FIN at another number"
        );
        rx(&mut r, 2, b"b");
        assert_eq!(rx(&mut r, 1, b"a"), Receipt::Delivered { bytes: 2 });
        assert!(r.is_eof());
        assert_eq!(r.ack_nr(), 3);
        assert!(!r.has_gap());
        assert_eq!(read_all(&mut r), b"ab");
    }

    proptest::proptest! {
        /// Any arrival order of packets `start + 1 ..= start + 20` (some twice, any start,
        /// so also across the wrap) reassembles the stream exactly, and after every arrival
        /// the SACK bits are exactly the packets seen beyond `ack_nr`.
        #[test]
        fn any_arrival_order_reassembles_the_stream(
            start: u16,
            order in proptest::collection::vec((0u16..20, proptest::bool::ANY), 1..40),
        ) {
            let payload = |k: u16| vec![k as u8; k as usize % 3 + 1];
            let mut arrivals = Vec::new();
            for (k, twice) in order {
                arrivals.push(k);
                if twice {
                    arrivals.push(k);
                }
            }
            arrivals.extend(0..20); // everything arrives in the end
            let mut r = Receiver::new(start);
            let mut seen = std::collections::HashSet::new();
            let mut got = Vec::new();
            for k in arrivals {
                let seq = start.wrapping_add(1).wrapping_add(k);
                r.receive(seq, &payload(k), false, REORDER, BUFFER);
                seen.insert(seq);
                r.check_invariants(REORDER).unwrap();
                let bits = r.selective_ack(8).unwrap_or_default();
                let sack = packet::SelectiveAck(&bits);
                for i in 0..64u16 {
                    let s = r.ack_nr().wrapping_add(2).wrapping_add(i);
                    proptest::prop_assert_eq!(sack.get(i as usize), seen.contains(&s), "bit {}", i);
                }
                let mut buf = [0u8; 64];
                let m = r.read(&mut buf);
                got.extend_from_slice(&buf[..m]);
            }
            let want: Vec<u8> = (0..20).flat_map(payload).collect();
            proptest::prop_assert_eq!(got, want);
            proptest::prop_assert_eq!(r.ack_nr(), start.wrapping_add(20));
            proptest::prop_assert!(!r.has_gap());
        }
    }
}
