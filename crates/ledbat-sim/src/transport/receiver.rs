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
        }
    }

    /// The next sequence expected in order.
    pub fn rcv_nxt(&self) -> u64 {
        self.rcv_nxt
    }

    /// A data packet `seq` arrived at `now`, with one-way-delay sample `delay`.
    /// Duplicates and out-of-order packets are acknowledged at once; in-order ones at once,
    /// or every second one with delayed ACKs (never while a hole is open).
    pub fn on_data(&mut self, now: Instant, seq: u64, delay: DelaySample) -> Received {
        self.last_delay = delay;
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

    fn ack(&mut self, sack: u64) -> AckFields {
        self.pending = 0;
        self.delack_deadline = None;
        AckFields {
            cum: self.rcv_nxt,
            sack,
            delay: self.last_delay,
        }
    }
}
