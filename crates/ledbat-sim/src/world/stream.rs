//! A byte stream over the packet-granular transport: the swarm's connections write
//! messages of any size, the transport moves sequence-numbered packets.
//!
//! Writing a message appends its bytes to the stream. They fill the last segment if that
//! one has not been transmitted yet (as a TCP send buffer coalesces small writes until they
//! leave), then new segments of at most `payload` bytes each; every segment becomes one
//! packet of the [`crate::transport::Sender`], whose wire size is its bytes plus the
//! header. A segment's size is fixed once it has been transmitted, so a retransmission
//! carries the same bytes. A message is delivered when the receiver's in-order sequence
//! covers its last byte, in the order written.
//!
//! The stream keeps the byte end of every segment not yet both acknowledged and delivered,
//! and the messages not yet delivered; [`Stream::trim`] forgets the rest.

use ledbat_bt_proto::deque;
use std::collections::VecDeque;

/// One direction of a connection, as bytes and messages.
#[derive(Debug)]
pub(super) struct Stream<T> {
    /// Most payload bytes in one segment.
    payload: u32,
    /// Sequence of `ends[0]`.
    base: u64,
    /// Byte offset at which segment `base - 1` ends (0 at the start).
    before: u64,
    /// Cumulative byte end of segments `base ..`.
    ends: VecDeque<u64>,
    /// Bytes written.
    written: u64,
    /// Messages not yet delivered, with the offset of their last byte + 1.
    msgs: VecDeque<(u64, T)>,
}

impl<T> Stream<T> {
    /// An empty stream cut into segments of at most `payload` bytes.
    pub fn new(payload: u32) -> Self {
        assert!(payload > 0, "a segment carries at least one byte");
        Stream {
            payload,
            base: 0,
            before: 0,
            ends: VecDeque::new(),
            written: 0,
            msgs: VecDeque::new(),
        }
    }

    /// Number of segments made so far (the next new one's sequence).
    pub fn segments(&self) -> u64 {
        self.base + self.ends.len() as u64
    }

    /// Byte offset at which segment `seq` ends; `seq` must be a live segment.
    fn end_of(&self, seq: u64) -> u64 {
        self.ends[(seq - self.base) as usize]
    }

    /// Byte offset at which segment `seq` starts.
    fn start_of(&self, seq: u64) -> u64 {
        if seq == self.base {
            self.before
        } else {
            self.end_of(seq - 1)
        }
    }

    /// Appends `msg` of `bytes` bytes, given that segments below `snd_nxt` have been
    /// transmitted; returns the number of new segments to hand to the sender.
    pub fn write(&mut self, bytes: u32, msg: T, snd_nxt: u64) -> u64 {
        let mut left = bytes as u64;
        let segs = self.segments();
        if left > 0 && segs > self.base && segs > snd_nxt {
            // Top up the last segment while it is still in the send buffer.
            let last = segs - 1;
            let room = self.payload as u64 - (self.end_of(last) - self.start_of(last));
            let take = room.min(left);
            *self.ends.back_mut().expect("live") += take;
            left -= take;
        }
        let mut new = 0;
        let mut end = self.written + (bytes as u64 - left);
        while left > 0 {
            let take = left.min(self.payload as u64);
            end += take;
            self.ends.push_back(end);
            left -= take;
            new += 1;
        }
        self.written += bytes as u64;
        self.msgs.push_back((self.written, msg));
        new
    }

    /// Payload bytes of segment `seq`.
    pub fn seg_bytes(&self, seq: u64) -> u32 {
        (self.end_of(seq) - self.start_of(seq)) as u32
    }

    /// Bytes written but not yet in a transmitted segment, given `snd_nxt`.
    pub fn unsent(&self, snd_nxt: u64) -> u64 {
        if snd_nxt >= self.segments() {
            return 0;
        }
        self.written - self.start_of(snd_nxt)
    }

    /// Appends to `out` the messages whose last byte lies in segments below `rcv_nxt`, in
    /// order; each message once.
    pub fn deliver_into(&mut self, rcv_nxt: u64, out: &mut Vec<T>) {
        let upto = if rcv_nxt <= self.base {
            self.before
        } else {
            self.end_of(rcv_nxt.min(self.segments()) - 1)
        };
        while self.msgs.front().is_some_and(|(end, _)| *end <= upto) {
            out.push(deque::pop_front(&mut self.msgs).expect("checked").1);
        }
    }

    /// [`Stream::deliver_into`] into a new vector.
    #[cfg(test)]
    pub fn deliver(&mut self, rcv_nxt: u64) -> Vec<T> {
        let mut out = Vec::new();
        self.deliver_into(rcv_nxt, &mut out);
        out
    }

    /// Forgets segments below `min(snd_una, rcv_nxt)`: acknowledged and delivered.
    pub fn trim(&mut self, snd_una: u64, rcv_nxt: u64) {
        let keep_from = snd_una.min(rcv_nxt).min(self.segments());
        while self.base < keep_from {
            self.before = deque::pop_front(&mut self.ends).expect("live");
            self.base += 1;
        }
    }

    /// Messages written and not delivered.
    pub fn pending(&self) -> impl Iterator<Item = &T> {
        self.msgs.iter().map(|(_, m)| m)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_large_message_is_cut_into_full_segments_and_a_tail() {
        let mut s = Stream::new(1460);
        // 16,397 bytes (a PIECE of a 16 KiB block) = 11 x 1460 + 337.
        assert_eq!(s.write(16_397, "piece", 0), 12);
        assert_eq!(s.seg_bytes(0), 1460);
        assert_eq!(s.seg_bytes(10), 1460);
        assert_eq!(s.seg_bytes(11), 337);
        assert_eq!(s.unsent(0), 16_397);
        assert_eq!(s.unsent(11), 337);
        assert_eq!(s.unsent(12), 0);
    }

    #[test]
    fn small_writes_share_a_segment_until_it_is_transmitted() {
        let mut s = Stream::new(1460);
        assert_eq!(s.write(17, "req1", 0), 1);
        assert_eq!(s.write(17, "req2", 0), 0, "coalesced into segment 0");
        assert_eq!(s.seg_bytes(0), 34);
        // Segment 0 leaves; the next write needs a segment of its own.
        assert_eq!(s.write(17, "req3", 1), 1);
        assert_eq!((s.seg_bytes(0), s.seg_bytes(1)), (34, 17));
    }

    #[test]
    fn topping_up_spills_into_new_segments() {
        let mut s = Stream::new(100);
        assert_eq!(s.write(60, 'a', 0), 1);
        // 40 bytes fill segment 0, the other 150 make 100 + 50.
        assert_eq!(s.write(190, 'b', 0), 2);
        assert_eq!(
            (s.seg_bytes(0), s.seg_bytes(1), s.seg_bytes(2)),
            (100, 100, 50)
        );
    }

    #[test]
    fn a_message_is_delivered_once_its_last_byte_is_in_order() {
        let mut s = Stream::new(100);
        s.write(150, 'a', 0); // segments 0 (100) and 1 (50)
        s.write(30, 'b', 0); // tops segment 1 up to 80
        s.write(40, 'c', 2); // segment 2
        assert!(s.deliver(1).is_empty(), "a ends in segment 1");
        assert_eq!(s.deliver(2), vec!['a', 'b']);
        assert_eq!(s.deliver(2), Vec::<char>::new(), "each message once");
        assert_eq!(s.deliver(3), vec!['c']);
    }

    #[test]
    fn trimming_keeps_what_the_sender_or_receiver_still_needs() {
        let mut s = Stream::new(100);
        s.write(250, 'a', 0); // 100, 100, 50
        s.write(10, 'b', 3); // segment 3
        s.trim(2, 1);
        assert_eq!(s.seg_bytes(1), 100, "not yet delivered: kept");
        assert_eq!(s.deliver(3), vec!['a']);
        s.trim(3, 3);
        assert_eq!((s.seg_bytes(3), s.unsent(3)), (10, 10));
        assert_eq!(s.deliver(4), vec!['b']);
        s.trim(4, 4);
        assert_eq!(s.segments(), 4);
        assert_eq!(s.write(5, 'c', 4), 1);
        assert_eq!(s.seg_bytes(4), 5);
        assert_eq!(s.deliver(5), vec!['c']);
    }

    #[test]
    fn an_empty_message_is_delivered_with_what_precedes_it() {
        let mut s = Stream::new(100);
        s.write(10, 'a', 0);
        assert_eq!(s.write(0, 'k', 0), 0);
        assert_eq!(s.deliver(1), vec!['a', 'k']);
    }
}
