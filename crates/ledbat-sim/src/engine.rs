//! Discrete-event core: integer nanosecond time, a binary heap of small `Copy` events, ties
//! broken in insertion order (a monotone sequence number is part of the key), so the order
//! of events — and therefore every output — is a function of the scenario and seed only.

use std::cmp::Ordering;
use std::collections::BinaryHeap;

/// What happens at an instant. Every variant is a few machine words.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Ev {
    /// A packet reaches the next hop of its route (a link input, or its destination).
    Arrive(u32),
    /// A link finished serialising the packet it was sending.
    TxDone(u32),
    /// A flow may be able to send (pacing, pause, interruption or jitter over).
    Wake(u32),
    /// A flow's retransmission timer.
    Rto(u32),
    /// A flow's delayed-ACK timer.
    DelAck(u32),
    /// A flow's controller asked for a tick.
    Tick(u32),
    /// A flow's traffic model has something to do (burst, CBR packet, next train).
    App(u32),
    /// A flow starts.
    Start(u32),
    /// A flow stops.
    Stop(u32),
    /// A flow's sending interruption begins.
    Interrupt(u32),
    /// Time-series sample.
    Sample,
    /// End of a one-second measurement window.
    Second,
}

/// `key = at << 64 | seq`: one integer comparison orders by time, then insertion.
#[derive(Clone, Copy, Debug)]
struct Entry {
    key: u128,
    ev: Ev,
}

impl PartialEq for Entry {
    fn eq(&self, o: &Self) -> bool {
        self.key == o.key
    }
}
impl Eq for Entry {}
impl PartialOrd for Entry {
    fn partial_cmp(&self, o: &Self) -> Option<Ordering> {
        Some(self.cmp(o))
    }
}
impl Ord for Entry {
    /// Reversed, so that the max-heap pops the earliest (then first-inserted) entry.
    fn cmp(&self, o: &Self) -> Ordering {
        o.key.cmp(&self.key)
    }
}

/// The pending-event set.
#[derive(Debug, Default)]
pub struct EventQueue {
    heap: BinaryHeap<Entry>,
    seq: u64,
    popped: u64,
    peak: usize,
}

impl EventQueue {
    /// An empty queue with room for `cap` events.
    pub fn with_capacity(cap: usize) -> Self {
        EventQueue {
            heap: BinaryHeap::with_capacity(cap),
            ..Default::default()
        }
    }
    /// Schedules `ev` at `at` (nanoseconds); events at the same instant run in the order
    /// they were scheduled.
    #[inline]
    pub fn push(&mut self, at: u64, ev: Ev) {
        self.heap.push(Entry {
            key: ((at as u128) << 64) | self.seq as u128,
            ev,
        });
        self.seq += 1;
        if self.heap.len() > self.peak {
            self.peak = self.heap.len();
        }
    }
    /// The earliest event, if any.
    #[inline]
    pub fn pop(&mut self) -> Option<(u64, Ev)> {
        let e = self.heap.pop()?;
        self.popped += 1;
        Some(((e.key >> 64) as u64, e.ev))
    }
    /// Time of the earliest event.
    pub fn peek_time(&self) -> Option<u64> {
        self.heap.peek().map(|e| (e.key >> 64) as u64)
    }
    /// Events popped so far.
    pub fn processed(&self) -> u64 {
        self.popped
    }
    /// Largest number of pending events seen.
    pub fn peak(&self) -> usize {
        self.peak
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    #[test]
    fn ties_run_in_insertion_order() {
        let mut q = EventQueue::default();
        q.push(5, Ev::Wake(1));
        q.push(3, Ev::Wake(2));
        q.push(5, Ev::Wake(3));
        q.push(5, Ev::Wake(4));
        let order: Vec<_> = std::iter::from_fn(|| q.pop()).collect();
        assert_eq!(
            order,
            vec![
                (3, Ev::Wake(2)),
                (5, Ev::Wake(1)),
                (5, Ev::Wake(3)),
                (5, Ev::Wake(4))
            ]
        );
    }

    proptest! {
        #[test]
        fn pops_are_sorted_by_time_then_insertion(times in proptest::collection::vec(0u64..20, 0..200)) {
            let mut q = EventQueue::default();
            for (i, t) in times.iter().enumerate() {
                q.push(*t, Ev::Wake(i as u32));
            }
            let mut last = (0u64, 0u32);
            let mut n = 0;
            while let Some((t, Ev::Wake(i))) = q.pop() {
                prop_assert!((t, i) >= last);
                prop_assert_eq!(times[i as usize], t);
                last = (t, i);
                n += 1;
            }
            prop_assert_eq!(n, times.len());
        }
    }
}
