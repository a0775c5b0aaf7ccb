//! Ring buffers that start over at their first slot when they empty.
//!
//! `VecDeque::pop_front` leaves the ring's start where the last element was, so a queue
//! that holds a few elements at a time still walks its whole capacity as it is used:
//! every push lands on the next slot, and after the capacity has been grown once (a
//! burst) each push writes a line not touched since the ring last went round. With
//! thousands of such rings (a simulated swarm's pipes, streams, senders and link queues,
//! and its peers' frame and upload queues), those lines have left the caches.
//! [`pop_front`] moves an emptied ring's start back to slot 0 (`VecDeque::clear` does so
//! on an empty ring), so that a ring which empties often keeps reusing its first lines. Contents and order are unchanged: only where the
//! elements sit in the buffer differs.

use std::collections::VecDeque;

/// `q.pop_front()`, then back to slot 0 if that emptied `q`.
#[inline]
pub fn pop_front<T>(q: &mut VecDeque<T>) -> Option<T> {
    let x = q.pop_front();
    if x.is_some() && q.is_empty() {
        q.clear();
    }
    x
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_emptied_ring_starts_again_at_its_first_slot() {
        let mut q: VecDeque<u32> = VecDeque::with_capacity(8);
        q.push_back(0);
        let first_slot = q.as_slices().0.as_ptr();
        for i in 1..5 {
            q.push_back(i);
        }
        for i in 0..5 {
            assert_eq!(pop_front(&mut q), Some(i));
        }
        assert_eq!(pop_front(&mut q), None);
        // Without the rewind the next push would land in slot 5.
        q.push_back(7);
        assert_eq!(q.as_slices().0.as_ptr(), first_slot);
        assert_eq!(q.iter().copied().collect::<Vec<_>>(), vec![7]);
    }

    #[test]
    fn a_ring_still_holding_elements_keeps_its_order() {
        let mut q: VecDeque<u32> = (0..4).collect();
        assert_eq!(pop_front(&mut q), Some(0));
        q.push_back(4);
        assert_eq!(q.iter().copied().collect::<Vec<_>>(), vec![1, 2, 3, 4]);
    }
}
