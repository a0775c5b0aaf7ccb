//! Discrete-event core: integer nanosecond time, a binary heap of small `Copy` events, ties
//! broken in insertion order (a monotone sequence number is part of the key), so the order
//! of events — and therefore every output — is a function of the scenario and seed only.
//!
//! *Pipes* keep the heap small: most events are packets leaving a link, and a FIFO link
//! produces them in key order. An event pushed through a pipe whose key is not below the
//! pipe's last one waits in the pipe's FIFO; only the pipe's head is in the heap, and
//! popping it brings the next one in (by replacing the heap's top in place: one sift
//! instead of a pop and a push). Keys are unchanged, so the global order is exactly that of
//! a single heap.
//!
//! *Two heaps*: pipe heads (one per link at most) and everything else (timers, of which a
//! swarm keeps thousands pending: one retransmission timer per open connection). Almost
//! every event is a pipe's, so keeping the timers apart keeps the heap those events sift
//! through a few hundred entries deep instead of thousands. `pop` takes the smaller of the
//! two tops; keys are unique, so the order is still that of a single heap.
//!
//! Both heaps are 4-ary min-heaps on the key (`QuadHeap`): half the depth of a binary
//! heap (7 levels for the swarm's ~9,000 timers instead of 13), each level's four children
//! adjacent in memory, so a pop touches fewer cache lines. Keys are unique, so any correct
//! heap pops the same sequence.

use ledbat_bt_proto::deque;
use std::collections::VecDeque;

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
    /// A swarm peer joins: the index of its plan (`world::swarm`).
    PeerArrive(u32),
    /// A swarm peer's choke round may be due.
    PeerTick(u32),
    /// A swarm peer leaves.
    PeerLeave(u32),
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
    /// The pipe this entry heads, or [`NO_PIPE`].
    pipe: u32,
}

const NO_PIPE: u32 = u32::MAX;

#[derive(Debug, Default)]
struct Pipe {
    waiting: VecDeque<(u128, Ev)>,
    in_heap: bool,
    last: u128,
}

/// A 4-ary min-heap of [`Entry`]s by key: the children of slot `i` are `4i + 1 ..= 4i + 4`.
#[derive(Debug, Default)]
struct QuadHeap {
    v: Vec<Entry>,
}

impl QuadHeap {
    fn with_capacity(cap: usize) -> Self {
        QuadHeap {
            v: Vec::with_capacity(cap),
        }
    }

    #[inline]
    fn peek(&self) -> Option<&Entry> {
        self.v.first()
    }

    #[inline]
    fn push(&mut self, e: Entry) {
        let mut i = self.v.len();
        self.v.push(e);
        while i > 0 {
            let parent = (i - 1) / 4;
            if self.v[parent].key <= e.key {
                break;
            }
            self.v[i] = self.v[parent];
            i = parent;
        }
        self.v[i] = e;
    }

    /// Removes the smallest entry.
    #[inline]
    fn pop(&mut self) -> Option<Entry> {
        let last = self.v.pop()?;
        if self.v.is_empty() {
            return Some(last);
        }
        let top = self.v[0];
        self.sift_down(last);
        Some(top)
    }

    /// Replaces the smallest entry's key and event (the heap must not be empty).
    #[inline]
    fn replace_top(&mut self, key: u128, ev: Ev) {
        let e = Entry {
            key,
            ev,
            ..self.v[0]
        };
        self.sift_down(e);
    }

    /// Puts `e` at the root's place and moves it down to where it belongs.
    #[inline(always)]
    fn sift_down(&mut self, e: Entry) {
        let n = self.v.len();
        let mut i = 0;
        loop {
            let c = 4 * i + 1;
            if c >= n {
                break;
            }
            let (mut m, mut mk) = (c, self.v[c].key);
            if c + 4 <= n {
                // A full group of four: fixed indices into one slice, no bounds checks.
                let g = &self.v[c..c + 4];
                for (j, x) in g.iter().enumerate().skip(1) {
                    if x.key < mk {
                        (m, mk) = (c + j, x.key);
                    }
                }
            } else {
                for j in c + 1..n {
                    let k = self.v[j].key;
                    if k < mk {
                        (m, mk) = (j, k);
                    }
                }
            }
            if mk >= e.key {
                break;
            }
            self.v[i] = self.v[m];
            i = m;
        }
        self.v[i] = e;
    }
}

/// The pending-event set.
#[derive(Debug, Default)]
pub struct EventQueue {
    /// Pipe heads.
    heap: QuadHeap,
    /// Everything pushed outside a pipe (and a pipe's out-of-order events).
    timers: QuadHeap,
    pipes: Vec<Pipe>,
    len: usize,
    seq: u64,
    popped: u64,
    peak: usize,
}

impl EventQueue {
    /// An empty queue with room for `cap` events.
    pub fn with_capacity(cap: usize) -> Self {
        EventQueue {
            heap: QuadHeap::with_capacity(cap),
            timers: QuadHeap::with_capacity(cap),
            ..Default::default()
        }
    }
    /// Schedules `ev` at `at` (nanoseconds); events at the same instant run in the order
    /// they were scheduled.
    #[inline]
    pub fn push(&mut self, at: u64, ev: Ev) {
        let key = self.next_key(at);
        self.timers.push(Entry {
            key,
            ev,
            pipe: NO_PIPE,
        });
    }

    #[inline]
    fn next_key(&mut self, at: u64) -> u128 {
        let key = ((at as u128) << 64) | self.seq as u128;
        self.seq += 1;
        self.len += 1;
        if self.len > self.peak {
            self.peak = self.len;
        }
        key
    }

    /// A new pipe (see the module documentation); returns its id.
    pub fn add_pipe(&mut self) -> u32 {
        self.pipes.push(Pipe::default());
        (self.pipes.len() - 1) as u32
    }

    /// Schedules `ev` at `at` through `pipe`: same order as [`EventQueue::push`], cheaper
    /// when a pipe's events come in time order.
    #[inline]
    pub fn push_via(&mut self, pipe: u32, at: u64, ev: Ev) {
        let key = self.next_key(at);
        let p = &mut self.pipes[pipe as usize];
        if !p.in_heap {
            p.in_heap = true;
            p.last = key;
            self.heap.push(Entry { key, ev, pipe });
        } else if key >= p.last {
            p.last = key;
            p.waiting.push_back((key, ev));
        } else {
            self.timers.push(Entry {
                key,
                ev,
                pipe: NO_PIPE,
            });
        }
    }
    /// The earliest event, if any.
    #[inline]
    pub fn pop(&mut self) -> Option<(u64, Ev)> {
        let from_timers = match (self.heap.peek(), self.timers.peek()) {
            (_, None) => false,
            (None, Some(_)) => true,
            (Some(h), Some(t)) => t.key < h.key,
        };
        let (key, ev) = if from_timers {
            let e = self.timers.pop()?;
            (e.key, e.ev)
        } else {
            let top = *self.heap.peek()?;
            // Only pipe heads are in `heap`.
            let p = &mut self.pipes[top.pipe as usize];
            match deque::pop_front(&mut p.waiting) {
                // The pipe's next event takes the top's place (one sift).
                Some((k, e)) => self.heap.replace_top(k, e),
                None => {
                    p.in_heap = false;
                    self.heap.pop();
                }
            }
            (top.key, top.ev)
        };
        self.len -= 1;
        self.popped += 1;
        Some(((key >> 64) as u64, ev))
    }
    /// Time of the earliest event.
    pub fn peek_time(&self) -> Option<u64> {
        let h = self.heap.peek().map(|e| e.key);
        let t = self.timers.peek().map(|e| e.key);
        match (h, t) {
            (Some(a), Some(b)) => Some(a.min(b)),
            (a, b) => a.or(b),
        }
        .map(|k| (k >> 64) as u64)
    }
    /// Events popped so far.
    pub fn processed(&self) -> u64 {
        self.popped
    }
    /// Pending events.
    pub fn len(&self) -> usize {
        self.len
    }
    /// Whether nothing is pending.
    pub fn is_empty(&self) -> bool {
        self.len == 0
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
        /// Pushing through pipes (in any order) pops exactly like plain pushes.
        #[test]
        fn pipes_do_not_change_the_order(ops in proptest::collection::vec((0u64..50, 0u32..4, any::<bool>()), 0..300)) {
            let mut a = EventQueue::default();
            let mut b = EventQueue::default();
            for _ in 0..3 { b.add_pipe(); }
            let mut now = 0;
            for (i, (dt, pipe, pop)) in ops.into_iter().enumerate() {
                if pop {
                    let (x, y) = (a.pop(), b.pop());
                    prop_assert_eq!(x, y);
                    if let Some((t, _)) = x { now = t; }
                } else {
                    a.push(now + dt, Ev::Wake(i as u32));
                    if pipe < 3 { b.push_via(pipe, now + dt, Ev::Wake(i as u32)) } else { b.push(now + dt, Ev::Wake(i as u32)) }
                }
                prop_assert_eq!(a.len(), b.len());
            }
            while let Some(x) = a.pop() {
                prop_assert_eq!(Some(x), b.pop());
            }
            prop_assert!(b.is_empty());
        }

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
