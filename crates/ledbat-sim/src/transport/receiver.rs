//! The receiving half of a connection: cumulative and out-of-order state, delayed ACKs.

use super::AckFields;
use ledbat_core::{DelaySample, Duration, Instant};

/// Out-of-order set for `[base, base + capacity)`, in a power-of-two ring that doubles when
/// a sequence lands beyond it.
#[derive(Debug)]
struct SeqBits {
    bits: Vec<bool>,
    mask: u64,
}

impl SeqBits {
    fn new() -> Self {
        SeqBits {
            bits: vec![false; 64],
            mask: 63,
        }
    }
    fn set(&mut self, base: u64, seq: u64) {
        while seq - base >= self.bits.len() as u64 {
            let mut bigger = vec![false; self.bits.len() * 2];
            let m = bigger.len() as u64 - 1;
            for s in base..base + self.bits.len() as u64 {
                bigger[(s & m) as usize] = self.bits[(s & self.mask) as usize];
            }
            self.bits = bigger;
            self.mask = m;
        }
        self.bits[(seq & self.mask) as usize] = true;
    }
    fn test(&self, base: u64, seq: u64) -> bool {
        seq - base < self.bits.len() as u64 && self.bits[(seq & self.mask) as usize]
    }
    fn test_clear(&mut self, seq: u64) -> bool {
        let b = &mut self.bits[(seq & self.mask) as usize];
        std::mem::replace(b, false)
    }
}

/// What one data packet did at the receiver.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Received {
    /// Packets newly delivered in order to the application (0 for duplicates and
    /// out-of-order arrivals; more than 1 when a hole is filled).
    pub delivered: u64,
    /// The ACK to send now, if any.
    pub ack: Option<AckFields>,
    /// A delayed-ACK deadline newly armed: call [`Receiver::on_delack_timer`] then.
    pub delack: Option<Instant>,
}

/// Receiver state of one connection.
#[derive(Debug)]
pub struct Receiver {
    rcv_nxt: u64,
    ooo: SeqBits,
    ooo_count: u64,
    pending: u32,
    delack_deadline: Option<Instant>,
    last_delay: DelaySample,
    delayed_ack: bool,
    delack_timeout: Duration,
    /// RFC 7323's Last.ACK.sent (the cumulative sequence of the last ACK) and TS.Recent.
    last_ack_sent: u64,
    ts_recent: Option<u32>,
}

impl Receiver {
    /// A receiver expecting sequence 0; with `delayed_ack`, in-order packets are
    /// acknowledged every second packet or `delack_timeout` after the first unacknowledged
    /// one (RFC 5681 section 4.2).
    pub fn new(delayed_ack: bool, delack_timeout: Duration) -> Self {
        Receiver {
            rcv_nxt: 0,
            ooo: SeqBits::new(),
            ooo_count: 0,
            pending: 0,
            delack_deadline: None,
            last_delay: DelaySample(0),
            delayed_ack,
            delack_timeout,
            last_ack_sent: 0,
            ts_recent: None,
        }
    }

    /// The next sequence expected in order.
    pub fn rcv_nxt(&self) -> u64 {
        self.rcv_nxt
    }

    /// A data packet `seq` arrived at `now`, with one-way-delay sample `delay` and the
    /// sender's timestamp `tsval`. Duplicates and out-of-order packets are acknowledged at
    /// once; in-order ones at once, or every second one with delayed ACKs (never while a
    /// hole is open). The timestamp becomes TS.Recent, which ACKs echo, when the packet
    /// does not lie beyond the last ACK's cumulative sequence and the timestamp is not
    /// older (RFC 7323 section 4.3; Linux `tcp_replace_ts_recent`): so an ACK echoes the
    /// packet that filled the left edge of the window, not an out-of-order one.
    #[inline]
    pub fn on_data(&mut self, now: Instant, seq: u64, delay: DelaySample, tsval: u32) -> Received {
        self.last_delay = delay;
        if seq <= self.last_ack_sent
            && self
                .ts_recent
                .is_none_or(|r| tsval.wrapping_sub(r) as i32 >= 0)
        {
            self.ts_recent = Some(tsval);
        }
        let at_once = |r: &mut Self, delivered| Received {
            delivered,
            ack: Some(r.ack(seq)),
            delack: None,
        };
        if seq < self.rcv_nxt {
            return at_once(self, 0);
        }
        if seq > self.rcv_nxt {
            if !self.ooo.test(self.rcv_nxt, seq) {
                self.ooo.set(self.rcv_nxt, seq);
                self.ooo_count += 1;
            }
            return at_once(self, 0);
        }
        let had_ooo = self.ooo_count > 0;
        self.rcv_nxt += 1;
        let mut adv = 1;
        while self.ooo_count > 0 && self.ooo.test_clear(self.rcv_nxt) {
            self.rcv_nxt += 1;
            self.ooo_count -= 1;
            adv += 1;
        }
        if !self.delayed_ack || had_ooo {
            return at_once(self, adv);
        }
        self.pending += 1;
        if self.pending >= 2 {
            return at_once(self, adv);
        }
        let mut delack = None;
        if self.delack_deadline.is_none() {
            let t = now + self.delack_timeout;
            self.delack_deadline = Some(t);
            delack = Some(t);
        }
        Received {
            delivered: adv,
            ack: None,
            delack,
        }
    }

    /// The delayed-ACK timer armed for `now` fired: the ACK still owed, if any (a timer
    /// made stale by an earlier ACK yields nothing).
    pub fn on_delack_timer(&mut self, now: Instant) -> Option<AckFields> {
        if self.delack_deadline == Some(now) && self.pending > 0 {
            let last = self.rcv_nxt.saturating_sub(1);
            return Some(self.ack(last));
        }
        None
    }

    #[inline]
    fn ack(&mut self, sack: u64) -> AckFields {
        self.pending = 0;
        self.delack_deadline = None;
        self.last_ack_sent = self.rcv_nxt;
        AckFields {
            cum: self.rcv_nxt,
            sack,
            delay: self.last_delay,
            tsecr: self.ts_recent.unwrap_or(0),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const D: DelaySample = DelaySample(7);

    fn ms(n: u64) -> Instant {
        Instant::from_millis(n)
    }

    fn ack(cum: u64, sack: u64) -> Option<AckFields> {
        Some(AckFields {
            cum,
            sack,
            delay: D,
            tsecr: 0,
        })
    }

    #[test]
    fn in_order_packets_are_acknowledged_cumulatively_one_by_one() {
        let mut r = Receiver::new(false, Duration::from_millis(100));
        for seq in 0..3 {
            let got = r.on_data(ms(seq), seq, D, 0);
            assert_eq!(got.delivered, 1);
            assert_eq!(got.ack, ack(seq + 1, seq));
            assert_eq!(got.delack, None);
        }
        assert_eq!(r.rcv_nxt(), 3);
    }

    #[test]
    fn out_of_order_packet_is_acknowledged_at_once_and_filling_the_hole_delivers_all() {
        let mut r = Receiver::new(true, Duration::from_millis(100));
        assert_eq!(r.on_data(ms(0), 0, D, 0).delack, Some(ms(100)));
        // 1 is missing: 2 and 3 are acknowledged at once with cum 1, delivering nothing.
        let got = r.on_data(ms(1), 2, D, 0);
        assert_eq!((got.delivered, got.ack), (0, ack(1, 2)));
        let got = r.on_data(ms(2), 3, D, 0);
        assert_eq!((got.delivered, got.ack), (0, ack(1, 3)));
        // The retransmitted 1 fills the hole: 1, 2, 3 delivered, ACK at once (hole was open).
        let got = r.on_data(ms(3), 1, D, 0);
        assert_eq!((got.delivered, got.ack), (3, ack(4, 1)));
        // A duplicate is acknowledged at once too.
        let got = r.on_data(ms(4), 2, D, 0);
        assert_eq!((got.delivered, got.ack), (0, ack(4, 2)));
    }

    #[test]
    fn delayed_ack_goes_out_every_second_packet() {
        let mut r = Receiver::new(true, Duration::from_millis(40));
        let got = r.on_data(ms(0), 0, D, 0);
        assert_eq!(
            (got.delivered, got.ack, got.delack),
            (1, None, Some(ms(40)))
        );
        let got = r.on_data(ms(5), 1, D, 0);
        assert_eq!((got.ack, got.delack), (ack(2, 1), None));
        // The timer armed for 40 ms is stale now.
        assert_eq!(r.on_delack_timer(ms(40)), None);
        let got = r.on_data(ms(50), 2, D, 0);
        assert_eq!((got.ack, got.delack), (None, Some(ms(90))));
        let got = r.on_data(ms(60), 3, D, 0);
        assert_eq!(got.ack, ack(4, 3));
    }

    #[test]
    fn delayed_ack_timer_acknowledges_a_lone_packet() {
        let mut r = Receiver::new(true, Duration::from_millis(40));
        r.on_data(ms(0), 0, D, 0);
        assert_eq!(r.on_delack_timer(ms(39)), None, "not the armed deadline");
        assert_eq!(r.on_delack_timer(ms(40)), ack(1, 0));
        assert_eq!(r.on_delack_timer(ms(40)), None, "already sent");
    }

    #[test]
    fn acks_echo_the_timestamp_of_the_packet_at_the_left_edge() {
        let mut r = Receiver::new(false, Duration::from_millis(100));
        let tsecr = |g: Received| g.ack.map(|a| a.tsecr);
        // 0 (stamped 100) in order: echoed.
        assert_eq!(tsecr(r.on_data(ms(0), 0, D, 100)), Some(100));
        // 1 is late; 2 and 3 arrive out of order: they do not set TS.Recent, the ACKs echo 0.
        assert_eq!(tsecr(r.on_data(ms(1), 2, D, 120)), Some(100));
        assert_eq!(tsecr(r.on_data(ms(2), 3, D, 130)), Some(100));
        // The original 1 (stamped 110) fills the hole: echoed, although 2 and 3 are newer.
        // A sender whose retransmission of 1 left at 300 learns the original arrived.
        assert_eq!(tsecr(r.on_data(ms(3), 1, D, 110)), Some(110));
        // The retransmission of 1 (stamped 300) arrives as a duplicate: below the last
        // ACK and newer, it replaces TS.Recent (RFC 7323 section 4.3).
        assert_eq!(tsecr(r.on_data(ms(4), 1, D, 300)), Some(300));
        // An older timestamp never replaces a newer one.
        assert_eq!(tsecr(r.on_data(ms(5), 2, D, 120)), Some(300));
    }

    #[test]
    fn with_delayed_acks_the_first_of_two_packets_is_echoed() {
        let mut r = Receiver::new(true, Duration::from_millis(40));
        assert_eq!(r.on_data(ms(0), 0, D, 10).ack, None);
        // 1 lies beyond the last ACK (none sent: cum 0), so the ACK echoes 0's timestamp,
        // and its RTT sample covers the delay (RFC 7323 section 4.3's example).
        assert_eq!(r.on_data(ms(5), 1, D, 15).ack.map(|a| a.tsecr), Some(10));
    }

    #[test]
    fn out_of_order_set_grows_beyond_its_first_ring() {
        let mut r = Receiver::new(false, Duration::ZERO);
        // Everything but 0 arrives first, far beyond the initial 64 slots.
        for seq in (1..200).rev() {
            assert_eq!(r.on_data(ms(0), seq, D, 0).delivered, 0);
        }
        let got = r.on_data(ms(1), 0, D, 0);
        assert_eq!((got.delivered, got.ack), (200, ack(200, 0)));
    }
}
