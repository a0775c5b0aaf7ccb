//! The order in which `ledbat repro` runs a batch: the runs predicted longest first
//! (longest-processing-time-first list scheduling, Graham 1969: on `m` workers its
//! makespan is at most `4/3 - 1/(3m)` times the optimum, against up to `2 - 1/m` for an
//! arbitrary order), on `m` workers that each take the next run of the order when they
//! finish one. An expensive run met last leaves one core idle while it finishes alone; met
//! first, the cheap runs fill the other core around it. Before them, [`pilots_first`] runs
//! the cheapest run of each scenario file, so that the time-left estimate
//! ([`crate::progress`]) has every file's own cost per unit of weight within the first
//! seconds, not only once the expensive files are done.
//!
//! The order changes nothing in the results: each run is a pure function of its scenario and
//! seed, and [`run_in_order`] hands the results back in the batch's own order.

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Mutex;

/// The indices of `costs` from the largest cost to the smallest (ties and NaN in index
/// order).
pub fn longest_first(costs: &[f64]) -> Vec<usize> {
    let mut order: Vec<usize> = (0..costs.len()).collect();
    order.sort_by(|&a, &b| {
        costs[b]
            .partial_cmp(&costs[a])
            .unwrap_or(std::cmp::Ordering::Equal)
    });
    order
}

/// [`longest_first`] after one *pilot* per group: the cheapest run of each group (`groups[j]`
/// is run `j`'s group, the scenario file in `ledbat repro`), the pilots cheapest first, then
/// every other run longest first. The time-left estimate prices a group's runs by its own
/// runs once one is done, and by the pooled rate before ([`crate::eta`]); groups differ
/// several-fold in seconds per unit of weight (a Poisson swarm's packet cost 3.5 times a
/// flash crowd's, per unit, in the full job of docs/repro/README.md), so longest first alone
/// left the cheaper groups priced at the heavy ones' rate until the heavy ones were done.
/// The pilots are a small part of the work, so the list schedule's makespan barely moves.
pub fn pilots_first(costs: &[f64], groups: &[usize]) -> Vec<usize> {
    assert_eq!(costs.len(), groups.len(), "one group per run");
    let mut pilot: std::collections::BTreeMap<usize, usize> = std::collections::BTreeMap::new();
    for (j, &g) in groups.iter().enumerate() {
        let e = pilot.entry(g).or_insert(j);
        // The cheapest run; NaN never replaces, ties keep the first.
        if costs[j] < costs[*e] {
            *e = j;
        }
    }
    let mut pilots: Vec<usize> = pilot.into_values().collect();
    pilots.sort_by(|&a, &b| {
        costs[a]
            .partial_cmp(&costs[b])
            .unwrap_or(std::cmp::Ordering::Equal)
            .then(a.cmp(&b))
    });
    let mut is_pilot = vec![false; costs.len()];
    for &j in &pilots {
        is_pilot[j] = true;
    }
    let rest = longest_first(costs).into_iter().filter(|&j| !is_pilot[j]);
    pilots.into_iter().chain(rest).collect()
}

/// `f` over every item, items taken in `order` (a permutation of the indices of `items`) by
/// the threads of rayon's pool, each taking the next item when it is done with one; the
/// results in the order of `items`.
pub fn run_in_order<T: Sync, R: Send>(
    items: &[T],
    order: &[usize],
    f: impl Fn(&T) -> R + Sync,
) -> Vec<R> {
    assert_eq!(
        order.len(),
        items.len(),
        "order is a permutation of the items"
    );
    let next = AtomicUsize::new(0);
    let slots: Vec<Mutex<Option<R>>> = items.iter().map(|_| Mutex::new(None)).collect();
    let workers = rayon::current_num_threads().min(items.len()).max(1);
    rayon::scope(|s| {
        for _ in 0..workers {
            s.spawn(|_| loop {
                let k = next.fetch_add(1, Ordering::Relaxed);
                let Some(&i) = order.get(k) else { break };
                let r = f(&items[i]);
                *slots[i].lock().unwrap_or_else(|e| e.into_inner()) = Some(r);
            });
        }
    });
    slots
        .into_iter()
        .map(|m| {
            m.into_inner()
                .unwrap_or_else(|e| e.into_inner())
                .expect("every item run once")
        })
        .collect()
}

/// One run of a [`list_schedule`]: its index, start and end (same unit as the costs).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Slot {
    /// Index into the costs.
    pub job: usize,
    /// When it starts.
    pub start: f64,
    /// When it ends.
    pub end: f64,
}

/// How [`run_in_order`] would place runs of known `costs` taken in `order` on `workers`
/// workers (each takes the next run when free; ties to the lowest worker); in `order`.
pub fn list_schedule(costs: &[f64], order: &[usize], workers: usize) -> Vec<Slot> {
    list_schedule_from(&vec![0.0; workers.max(1)], costs, order)
}

/// [`list_schedule`] on workers that are free from the times `free` (one per worker, at
/// least one), rather than all at 0: the runs left of a batch under way. Costs and times
/// below 0 count as 0. The earliest free worker is found on a heap, O(log workers) a run.
pub fn list_schedule_from(free: &[f64], costs: &[f64], order: &[usize]) -> Vec<Slot> {
    use std::cmp::Reverse;
    use std::collections::BinaryHeap;
    assert!(!free.is_empty(), "at least one worker");
    // A finite time of at least 0 orders as its bits do; the worker's index breaks ties.
    let mut heap: BinaryHeap<Reverse<(u64, usize)>> = free
        .iter()
        .enumerate()
        .map(|(w, t)| Reverse((t.max(0.0).to_bits(), w)))
        .collect();
    order
        .iter()
        .map(|&job| {
            let Reverse((bits, w)) = heap.pop().expect("at least one worker");
            let start = f64::from_bits(bits);
            let end = start + costs[job].max(0.0);
            heap.push(Reverse((end.to_bits(), w)));
            Slot { job, start, end }
        })
        .collect()
}

/// When the last run of a [`list_schedule`] ends.
pub fn makespan(slots: &[Slot]) -> f64 {
    slots.iter().map(|s| s.end).fold(0.0, f64::max)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn longest_first_sorts_by_cost_descending_and_keeps_ties_in_order() {
        assert_eq!(longest_first(&[1.0, 5.0, 3.0, 5.0]), vec![1, 3, 2, 0]);
        assert_eq!(longest_first(&[]), Vec::<usize>::new());
    }

    #[test]
    fn pilots_first_runs_each_groups_cheapest_then_the_rest_longest_first() {
        // Group 0: runs 0 (9), 2 (4), 4 (1); group 1: runs 1 (7), 3 (2); group 2: run 5 (3).
        // Pilots, cheapest first: 4 (1), 3 (2), 5 (3); then 0 (9), 1 (7), 2 (4).
        let costs = [9.0, 7.0, 4.0, 2.0, 1.0, 3.0];
        let groups = [0, 1, 0, 1, 0, 2];
        assert_eq!(pilots_first(&costs, &groups), vec![4, 3, 5, 0, 1, 2]);
        // One group: its cheapest first, then longest first.
        assert_eq!(pilots_first(&[1.0, 5.0, 3.0], &[0, 0, 0]), vec![0, 1, 2]);
        assert_eq!(pilots_first(&[], &[]), Vec::<usize>::new());
    }

    #[test]
    fn pilots_first_is_a_permutation() {
        let costs: Vec<f64> = (0..40).map(|j| ((j * 37) % 11) as f64).collect();
        let groups: Vec<usize> = (0..40).map(|j| j % 7).collect();
        let mut order = pilots_first(&costs, &groups);
        order.sort_unstable();
        assert_eq!(order, (0..40).collect::<Vec<_>>());
    }

    #[test]
    fn results_come_back_in_the_items_order_whatever_the_order_of_runs() {
        let items: Vec<u64> = (0..50).collect();
        let order: Vec<usize> = (0..50).rev().collect();
        let out = run_in_order(&items, &order, |x| x * x);
        assert_eq!(out, items.iter().map(|x| x * x).collect::<Vec<_>>());
    }

    #[test]
    #[should_panic(expected = "permutation")]
    fn an_order_of_another_length_is_refused() {
        run_in_order(&[1, 2], &[0], |x| *x);
    }

    #[test]
    fn workers_busy_at_the_start_take_runs_when_they_are_free() {
        // Worker 0 free at 5, worker 1 at 1. Run 2 (4 s) goes to worker 1 (1 -> 5); run 0
        // (3 s) to the tie at 5, the lower worker 0 (5 -> 8); run 1 (1 s) to worker 1 (5 -> 6).
        let slots = list_schedule_from(&[5.0, 1.0], &[3.0, 1.0, 4.0], &[2, 0, 1]);
        let got: Vec<(usize, f64, f64)> = slots.iter().map(|s| (s.job, s.start, s.end)).collect();
        assert_eq!(got, vec![(2, 1.0, 5.0), (0, 5.0, 8.0), (1, 5.0, 6.0)]);
        assert_eq!(makespan(&slots), 8.0);
    }

    #[test]
    fn the_expensive_run_last_leaves_a_worker_idle_and_first_does_not() {
        // Eight runs of 1 and one of 8 on two workers: total 16, optimum 8.
        // In this order the 8 starts at 4 (each worker did four 1s) and ends at 12;
        // longest first it runs on one worker from 0 to 8 while the other does the 1s.
        let mut costs = vec![1.0; 8];
        costs.push(8.0);
        let given: Vec<usize> = (0..9).collect();
        assert_eq!(makespan(&list_schedule(&costs, &given, 2)), 12.0);
        let lpt = longest_first(&costs);
        let slots = list_schedule(&costs, &lpt, 2);
        assert_eq!(makespan(&slots), 8.0);
        assert_eq!(
            slots[0],
            Slot {
                job: 8,
                start: 0.0,
                end: 8.0
            }
        );
        assert_eq!(
            slots[8],
            Slot {
                job: 7,
                start: 7.0,
                end: 8.0
            }
        );
    }
}
