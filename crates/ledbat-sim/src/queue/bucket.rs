//! A token bucket in front of a link's FIFO, as Linux's `tbf` shapes the test bed's
//! bottleneck (docs/sidebyside/README.md): the link earns credit at its rate up to `burst`
//! bytes and a packet leaves as soon as the credit covers it, at once (the wire behind the
//! bucket is taken as infinitely fast), so that after an idle spell up to `burst` bytes
//! pass without waiting; a packet the credit does not cover waits in the queue for it.
//!
//! ```text
//! credit in time units: c = bytes * 8 / rate, capped at cap = burst * 8 / rate
//! a packet whose turn comes at r (the previous one left at a <= r) needing tx:
//!   c(r)  = min(cap, c(a) + (r - a))
//!   leave = r                   if c(r) >= tx,   and then c = c(r) - tx
//!         = r + (tx - c(r))     otherwise,       and then c = 0
//! ```
//!
//! Without a bucket a packet takes its serialisation time `tx` on the link; with a bucket of
//! one packet the two differ only in that time (the bucket sends it at the end of its wait,
//! the serialising link at the end of its transmission): the same rate, one packet's
//! delay apart. What a larger bucket changes is the delay a flow sees on an idle link: a
//! burst's first packets pass at no delay, the rest queue.

/// The bucket's state, in nanoseconds of the link's rate.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TokenBucket {
    /// The credit a full bucket holds.
    cap: u64,
    /// The credit left when the last packet left, at `at`.
    credit: u64,
    at: u64,
}

impl TokenBucket {
    /// A full bucket holding `cap_ns` of the link's time (`burst` bytes at its rate).
    pub fn new(cap_ns: u64) -> Self {
        TokenBucket {
            cap: cap_ns,
            credit: cap_ns,
            at: 0,
        }
    }

    /// When a packet whose turn comes at `ready` (ns, no earlier than the previous
    /// packet's departure) and that needs `tx` of credit leaves. A packet larger than the
    /// bucket (a configuration validation refuses) leaves once the full bucket's credit has
    /// come, as if the bucket had been just large enough.
    pub fn depart(&mut self, ready: u64, tx: u64) -> u64 {
        debug_assert!(ready >= self.at, "packets leave in order");
        let credit = self
            .credit
            .saturating_add(ready.saturating_sub(self.at))
            .min(self.cap.max(tx));
        let leave = ready + tx.saturating_sub(credit);
        self.credit = credit.saturating_sub(tx);
        self.at = leave;
        leave
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A 1500-byte packet on a 10 Mbit/s link: 1.2 ms.
    const TX: u64 = 1_200_000;

    #[test]
    fn a_full_bucket_passes_its_burst_at_once_then_one_packet_per_tx() {
        // Ten packets of credit, twelve packets arriving together at t = 5 ms; a packet's
        // turn comes when the previous one left: the first ten at 5 ms, then 6.2 and 7.4 ms.
        let mut b = TokenBucket::new(10 * TX);
        let t = 5_000_000;
        let mut ready = t;
        let mut chained = Vec::new();
        for _ in 0..12 {
            ready = b.depart(ready, TX);
            chained.push(ready);
        }
        assert_eq!(chained[..10], [t; 10]);
        assert_eq!(chained[10..], [t + TX, t + 2 * TX]);
    }

    #[test]
    fn the_credit_comes_back_at_the_links_rate_up_to_the_cap() {
        let mut b = TokenBucket::new(3 * TX);
        for _ in 0..3 {
            assert_eq!(b.depart(0, TX), 0);
        }
        // Empty: 2.5 packets of time later, two packets leave at once and the third waits
        // half a packet.
        let r = 5 * TX / 2;
        assert_eq!(b.depart(r, TX), r);
        assert_eq!(b.depart(r, TX), r);
        assert_eq!(b.depart(r, TX), r + TX / 2);
        // An hour idle refills only the cap: three at once, the fourth after one tx.
        let h = 3_600_000_000_000;
        for _ in 0..3 {
            assert_eq!(b.depart(h, TX), h);
        }
        assert_eq!(b.depart(h, TX), h + TX);
    }

    #[test]
    fn a_bucket_of_one_packet_keeps_the_rate_of_a_serialising_link() {
        // Back to back, 100 packets leave one tx apart, the first at once.
        let mut b = TokenBucket::new(TX);
        let mut ready = 0;
        for i in 0..100 {
            ready = b.depart(ready, TX);
            assert_eq!(ready, i * TX);
        }
    }

    #[test]
    fn a_packet_larger_than_the_bucket_waits_for_its_own_size() {
        let mut b = TokenBucket::new(TX);
        assert_eq!(b.depart(0, 2 * TX), TX);
        assert_eq!(b.depart(TX, 2 * TX), 3 * TX);
    }
}
