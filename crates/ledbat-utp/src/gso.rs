//! Outgoing datagrams grouped for UDP generic segmentation offload (GSO).
//!
//! With GSO (Linux `UDP_SEGMENT`), one `sendmsg` carries a buffer that the kernel (or the
//! NIC) cuts into datagrams of `segment` bytes each, the last one possibly shorter, all to
//! one destination. uTP packets are independent datagrams and a connection sends runs of
//! full-size DATA packets, so consecutive datagrams to one peer of one size form such a
//! buffer: a [`Batch`]. A datagram joins the open batch when it goes to the same address,
//! is no longer than the segment, and the batch has room (`max_segments`, and the 64 KiB
//! of one UDP payload); a shorter one is the batch's last. Anything else starts a new
//! batch, so the order of datagrams per destination is kept.

use std::net::SocketAddr;

/// Largest buffer one GSO send carries: the largest UDP payload over IPv4 (65 535 minus
/// the 20-byte IP and 8-byte UDP headers).
pub(crate) const MAX_GSO_BYTES: usize = 65_507;

/// Datagrams to one destination, back to back in `buf`: each `segment` bytes but the last.
#[derive(Debug)]
pub(crate) struct Batch {
    pub(crate) to: SocketAddr,
    pub(crate) segment: usize,
    pub(crate) count: usize,
    pub(crate) buf: Vec<u8>,
    /// A shorter datagram ended the batch.
    closed: bool,
}

/// Collects datagrams into [`Batch`]es, reusing buffers.
#[derive(Debug, Default)]
pub(crate) struct Batcher {
    batches: Vec<Batch>,
    pool: Vec<Vec<u8>>,
    datagrams: usize,
}

impl Batcher {
    /// Appends one datagram for `to`; `max_segments` is what one send may carry (1 without
    /// GSO).
    pub(crate) fn push(&mut self, to: SocketAddr, d: &[u8], max_segments: usize) {
        self.datagrams += 1;
        if let Some(b) = self.batches.last_mut() {
            if b.to == to
                && !b.closed
                && b.count < max_segments
                && d.len() <= b.segment
                && b.buf.len() + d.len() <= MAX_GSO_BYTES
            {
                b.buf.extend_from_slice(d);
                b.count += 1;
                b.closed = d.len() < b.segment;
                return;
            }
        }
        let mut buf = self.pool.pop().unwrap_or_default();
        buf.clear();
        buf.extend_from_slice(d);
        self.batches.push(Batch {
            to,
            segment: d.len(),
            count: 1,
            buf,
            closed: false,
        });
    }

    /// Datagrams pushed since the last [`Batcher::drain`].
    pub(crate) fn datagrams(&self) -> usize {
        self.datagrams
    }

    /// Moves the batches, in order, to the end of `into`; give their buffers back with
    /// [`Batcher::recycle`].
    pub(crate) fn take(&mut self, into: &mut Vec<Batch>) {
        self.datagrams = 0;
        into.append(&mut self.batches);
    }

    /// Returns a batch's buffer for reuse.
    pub(crate) fn recycle(&mut self, buf: Vec<u8>) {
        self.pool.push(buf);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn a(p: u16) -> SocketAddr {
        SocketAddr::from(([10, 0, 0, 1], p))
    }

    fn shape(b: &mut Batcher) -> Vec<(u16, usize, usize, usize)> {
        let mut v = Vec::new();
        b.take(&mut v);
        v.iter()
            .map(|x| (x.to.port(), x.segment, x.count, x.buf.len()))
            .collect()
    }

    #[test]
    fn equal_datagrams_to_one_peer_share_a_batch_and_a_shorter_one_ends_it() {
        let mut b = Batcher::default();
        for _ in 0..3 {
            b.push(a(1), &[1; 100], 64);
        }
        b.push(a(1), &[2; 40], 64); // shorter: the last segment
        b.push(a(1), &[3; 100], 64); // after a short one: a new batch
        assert_eq!(b.datagrams(), 5);
        assert_eq!(shape(&mut b), vec![(1, 100, 4, 340), (1, 100, 1, 100)]);
        assert_eq!(b.datagrams(), 0);
    }

    #[test]
    fn another_peer_a_longer_datagram_or_a_full_batch_start_a_new_one() {
        let mut b = Batcher::default();
        b.push(a(1), &[0; 100], 2);
        b.push(a(2), &[0; 100], 2); // other peer
        b.push(a(2), &[0; 150], 2); // longer than the segment
        b.push(a(2), &[0; 150], 2);
        b.push(a(2), &[0; 150], 2); // max_segments 2 reached
        assert_eq!(
            shape(&mut b),
            vec![
                (1, 100, 1, 100),
                (2, 100, 1, 100),
                (2, 150, 2, 300),
                (2, 150, 1, 150)
            ]
        );
    }

    #[test]
    fn a_batch_never_exceeds_one_udp_payload() {
        let mut b = Batcher::default();
        for _ in 0..100 {
            b.push(a(1), &[0; 1400], 64);
        }
        let s = shape(&mut b);
        // 65 507 / 1400 = 46 segments per batch: 46 + 46 + 8
        assert_eq!(
            s,
            vec![
                (1, 1400, 46, 64_400),
                (1, 1400, 46, 64_400),
                (1, 1400, 8, 11_200)
            ]
        );
    }

    #[test]
    fn without_gso_every_datagram_is_its_own_batch() {
        let mut b = Batcher::default();
        for _ in 0..3 {
            b.push(a(1), &[0; 10], 1);
        }
        assert_eq!(shape(&mut b).len(), 3);
    }
}
