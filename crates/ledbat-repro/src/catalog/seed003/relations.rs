//! How the claims of seed 003's chapters 2, 3, 4 and 7 that read the same runs relate
//! (module doc of `catalog`, rule 13): a bound of one value by the other, with its
//! arithmetic, or why neither bounds the other. Kept apart from the claims so that each
//! group's relations can be read together; each claim names its list here.
//!
//! Bounds used:
//! - two flows whose rates are in ratio r have Jain's index F(r) = (1 + r)^2 / (2 (1 + r^2)),
//!   1 at r = 1 and falling as r moves away from 1 (F(r) = F(1/r));
//! - a share of seeds p showing an order whose seeds also bound a value by b (the value
//!   lying in [0, 1] otherwise) bounds the mean of that value by p b + (1 - p).

use crate::catalog::Sibling::{self, Implies, Independent};

/// Jain's index of two flows whose rates are in ratio `r`.
fn jain_of(r: f64) -> f64 {
    (1.0 + r).powi(2) / (2.0 * (1.0 + r * r))
}

/// The Jain indices of two flows whose rate ratio lies in `(lo, hi)`.
fn jain_of_ratio((lo, hi): (f64, f64)) -> (f64, f64) {
    let (a, b) = (jain_of(lo), jain_of(hi.min(1e12)));
    let top = if lo <= 1.0 && 1.0 <= hi {
        1.0
    } else {
        a.max(b)
    };
    (a.min(b), top)
}

/// A share `p` of seeds with fLEDBAT's largest share at most 0.1 bounds the mean of that
/// largest share by 0.1 p + (1 - p).
fn low_priority_mean((lo, _): (f64, f64)) -> (f64, f64) {
    let p = lo.clamp(0.0, 1.0);
    (0.0, 0.1 * p + (1.0 - p))
}

// ------------------------------------------------ Fig. 3.3(a): ledbat-newreno.toml

const RAMP: &str = "the ramp-up ratio is read over 0.2-0.9 s, under 1 % of the 100-s run";
const TRACE_VS_BYTES: &str = "when the queue first reaches the target, a time of the \
    first seconds, fixes nothing of how the remaining 98 s split the bytes";
const FLOOR_VS_BYTES: &str = "when LEDBAT first reaches its floor says nothing of how long \
    it stays there or how far it regrows between TCP's cycles, which set the byte split";
const LOSSES_VS_BYTES: &str = "a flow's share of the retransmissions does not bound its \
    share of the bytes: a LEDBAT flow can carry a sixth of the data with no loss or with many";

/// `s003-ledbat-newreno-data-ratio`.
pub(in crate::catalog) const NEWRENO_DATA_RATIO: &[Sibling] = &[
    Implies {
        other: "s003-ledbat-newreno-jain",
        map: jain_of_ratio,
        why: "both read the two flows' throughputs over the same 100 s: a TCP/LEDBAT ratio r \
              gives F(r) = (1 + r)^2 / (2 (1 + r^2)), 0.700 at r = 4.8 and 0.636 at 7.2",
    },
    Independent {
        other: "s003-fig33-ramp-together",
        why: RAMP,
    },
    Independent {
        other: "s003-fig33-target-after-2s",
        why: TRACE_VS_BYTES,
    },
    Independent {
        other: "s003-fig33-ledbat-min-before-6s",
        why: FLOOR_VS_BYTES,
    },
    Independent {
        other: "s003-fig33-losses-are-tcps",
        why: LOSSES_VS_BYTES,
    },
];

/// `s003-ledbat-newreno-jain` (its relation to the data ratio is declared there).
pub(in crate::catalog) const NEWRENO_JAIN: &[Sibling] = &[
    Independent {
        other: "s003-fig33-ramp-together",
        why: RAMP,
    },
    Independent {
        other: "s003-fig33-target-after-2s",
        why: TRACE_VS_BYTES,
    },
    Independent {
        other: "s003-fig33-ledbat-min-before-6s",
        why: FLOOR_VS_BYTES,
    },
    Independent {
        other: "s003-fig33-losses-are-tcps",
        why: LOSSES_VS_BYTES,
    },
];

/// `s003-fig33-ramp-together`.
pub(in crate::catalog) const FIG33_RAMP: &[Sibling] = &[
    Independent {
        other: "s003-fig33-target-after-2s",
        why: "the ratio of the two growth rates does not fix their sum, which with the pipe \
              sets when the queue reaches the target",
    },
    Independent {
        other: "s003-fig33-ledbat-min-before-6s",
        why: "growth before 1 s and the descent after TCP fills the queue are separate \
              phases of the trace",
    },
    Independent {
        other: "s003-fig33-losses-are-tcps",
        why: "no packet is lost during the ramp (the queue is below the buffer until about \
              4 s), so the ramp's rates say nothing of whose later losses they are",
    },
];

/// `s003-fig33-target-after-2s`.
pub(in crate::catalog) const FIG33_TARGET: &[Sibling] = &[
    Independent {
        other: "s003-fig33-ledbat-min-before-6s",
        why: "the descent to the floor starts at the target time but is paced by TCP's \
              filling of the queue and its first loss, which the earlier time does not bound",
    },
    Independent {
        other: "s003-fig33-losses-are-tcps",
        why: "the time the queue reaches the target precedes every loss of the run and \
              bounds neither flow's share of them",
    },
];

/// TCP's growth while the queue builds, against another phase of the trace.
const TCP_GROWTH_PHASE: &str = "TCP's growth per RTT over 1.1-2.0 s, before the queue \
    reaches the target and before any loss, is a phase of its own: it bounds nothing read \
    in another phase";

/// `s003-fig33-tcp-stays-linear`.
pub(in crate::catalog) const FIG33_TCP_LINEAR: &[Sibling] = &[
    Independent {
        other: "s003-ledbat-newreno-jain",
        why: TCP_GROWTH_PHASE,
    },
    Independent {
        other: "s003-ledbat-newreno-data-ratio",
        why: TCP_GROWTH_PHASE,
    },
    Independent {
        other: "s003-fig33-ramp-together",
        why: RAMP,
    },
    Independent {
        other: "s003-fig33-ledbat-slows-as-queue-builds",
        why: "the slowing claim reads LEDBAT's growth over TCP's in the same phase, this one \
              TCP's growth per RTT: TCP at one packet per RTT allows any LEDBAT growth, and \
              the ratio allows any TCP growth",
    },
    Independent {
        other: "s003-fig33-target-after-2s",
        why: "TCP's growth per RTT does not fix when the queue reaches the target: LEDBAT's \
              growth adds to the queue too",
    },
    Independent {
        other: "s003-fig33-ledbat-min-before-6s",
        why: TCP_GROWTH_PHASE,
    },
    Independent {
        other: "s003-fig33-losses-are-tcps",
        why: TCP_GROWTH_PHASE,
    },
    Independent {
        other: "s003-fig33-queue-drains",
        why: TCP_GROWTH_PHASE,
    },
    Independent {
        other: "s003-fig33-second-cycle-target-earlier",
        why: TCP_GROWTH_PHASE,
    },
];

/// `s003-fig33-second-cycle-target-earlier`.
pub(in crate::catalog) const FIG33_SECOND_CYCLE: &[Sibling] = &[
    Independent {
        other: "s003-ledbat-newreno-jain",
        why: "how fast the second cycle's queue refills fixes nothing of how the whole run \
              splits the bytes",
    },
    Independent {
        other: "s003-ledbat-newreno-data-ratio",
        why: "how fast the second cycle's queue refills fixes nothing of how the whole run \
              splits the bytes",
    },
    Independent {
        other: "s003-fig33-ramp-together",
        why: RAMP,
    },
    Independent {
        other: "s003-fig33-ledbat-slows-as-queue-builds",
        why: "LEDBAT's slowing in the first cycle and the second cycle's refill are separate \
              phases of the trace",
    },
    Independent {
        other: "s003-fig33-target-after-2s",
        why: "the first hit time is this ratio's denominator, but the second cycle's refill \
              time, its numerator, is free of it: any first time allows any ratio",
    },
    Independent {
        other: "s003-fig33-ledbat-min-before-6s",
        why: "LEDBAT's floor time in the first cycle does not bound how fast TCP refills the \
              queue after its halving",
    },
    Independent {
        other: "s003-fig33-losses-are-tcps",
        why: "whose the overflow's losses are does not bound how fast the queue refills after \
              it",
    },
    Independent {
        other: "s003-fig33-queue-drains",
        why: "a queue that drains starts the second cycle this ratio reads, but how fast it \
              refills is TCP's growth from its halved window, which the drain does not bound",
    },
];

/// `s003-fig33-ledbat-min-before-6s`.
pub(in crate::catalog) const FIG33_FLOOR: &[Sibling] = &[Independent {
    other: "s003-fig33-losses-are-tcps",
    why: "a LEDBAT window at or near its floor rarely loses a packet whenever it gets \
          there, so the floor time does not bound LEDBAT's share of the losses",
}];

// ------------------------------------------------ Fig. 3.3(b): ledbat-ledbat.toml

/// `s003-ledbat-ledbat-fair`.
pub(in crate::catalog) const LEDBAT_LEDBAT_FAIR: &[Sibling] = &[Independent {
    other: "s003-ledbat-ledbat-half-queue",
    why: "the mean queue is the two windows' sum beyond the pipe, the Jain index their \
          split: two flows can hold one target together at any split",
}];

// ------------------------------------------------ Fig. 3.4: the target sweep

const SPLIT_VS_SUM: &str = "TCP's share says which flow carries the bytes, the efficiency \
    how many both carry: the lowest efficiency over the sweep bounds no split";

/// `s003-target-sweep-curve`.
pub(in crate::catalog) const TARGET_CURVE: &[Sibling] = &[
    Independent {
        other: "s003-target-efficiency-high",
        why: SPLIT_VS_SUM,
    },
    Independent {
        other: "s003-target-fairness-tracks-split",
        why: "the fall fixes the split at two targets of ten; the rank correlation is over \
              all ten and reads the 1-s Jain index, which the long-term split does not fix",
    },
    Independent {
        other: "s003-target-queue-rises",
        why: "the split at two targets does not order the mean queue over ten: at T = 40 % \
              TCP's sawtooth sets the queue, at 100 % LEDBAT's target",
    },
    Independent {
        other: "s003-target-losses-rise",
        why: "the split at two targets does not order the loss rate over the eight targets \
              up to 100 %",
    },
    Independent {
        other: "s003-target-losses-peak-at-100",
        why: "which target loses most is not fixed by the TCP share at two targets",
    },
];

/// `s003-target-efficiency-high`.
pub(in crate::catalog) const TARGET_EFFICIENCY: &[Sibling] = &[
    Independent {
        other: "s003-target-fairness-tracks-split",
        why: "a full link says nothing of how its bytes split nor of the 1-s index",
    },
    Independent {
        other: "s003-target-queue-rises",
        why: "a link kept busy needs some queue at each target, not an order of the mean \
              queue along the sweep",
    },
    Independent {
        other: "s003-target-losses-rise",
        why: "the efficiency counts delivered bytes; how often the buffer overflows along \
              the sweep is not fixed by its lowest value",
    },
    Independent {
        other: "s003-target-losses-peak-at-100",
        why: "the lowest efficiency over the sweep does not say at which target losses peak",
    },
];

/// `s003-target-fairness-tracks-split`.
pub(in crate::catalog) const TARGET_FAIRNESS: &[Sibling] = &[
    Independent {
        other: "s003-target-queue-rises",
        why: "the 1-s index and the split are rates of the flows; the mean queue's order \
              along the sweep is another quantity",
    },
    Independent {
        other: "s003-target-losses-rise",
        why: "the 1-s index and the split bound no loss rate",
    },
    Independent {
        other: "s003-target-losses-peak-at-100",
        why: "the 1-s index and the split do not say at which target losses peak",
    },
];

/// `s003-target-queue-rises`.
pub(in crate::catalog) const TARGET_QUEUE: &[Sibling] = &[
    Independent {
        other: "s003-target-losses-rise",
        why: "the mean queue is where the occupancy sits between overflows, the loss rate \
              how often it overflows: neither's order along the sweep fixes the other's",
    },
    Independent {
        other: "s003-target-losses-peak-at-100",
        why: "the mean queue's order does not say at which target overflows are most frequent",
    },
];

/// `s003-target-losses-rise`.
pub(in crate::catalog) const TARGET_LOSSES: &[Sibling] = &[Independent {
    other: "s003-target-losses-peak-at-100",
    why: "a peak at 100 %, the last of the eight points the rank correlation reads, makes 7 \
          of its 28 pairs concordant and leaves 21 free: tau anywhere in [-0.5, 1]; a peak at \
          120 % is outside those eight points",
}];

/// `s003-gain-flat-all-metrics`.
pub(in crate::catalog) const GAIN_ALL: &[Sibling] = &[Independent {
    other: "s003-gain-flat",
    why: "the largest |difference| over TCP share, efficiency and Jain index bounds the TCP \
          share's |difference|, but s003-gain-flat reads that difference over the smaller of \
          the two shares (a relative spread), which no bound on the difference alone fixes: \
          0.05 is a spread of 5 % between shares near 1 and of 100 % between 0.05 and 0.1",
}];

// ------------------------------------------------ Fig. 3.6: lbe_points()

const EFF_VS_SHARE: &str = "efficiencies count both the TCP and the low-priority bytes; \
    how those split is not bounded by them";
const EFF_VS_INDEX: &str = "a full link bounds no Jain index: its bytes may split any way";
const EFF_VS_QUEUE: &str = "a link kept full needs a non-empty queue, not a trend of its \
    mean over N";
const EFF_VS_LOSS: &str = "the efficiencies count delivered bytes; the loss rates of TCP-LP \
    and TCP at N = 10 are not bounded by them";
const INDEX_VS_QUEUE: &str = "a Jain index is a property of the split of the rates, the \
    queue's trend over N of their sum";
const INDEX_VS_LOSS: &str = "a Jain index of the rates bounds no loss rate";
const SHARE_VS_INDEX: &str = "TCP's share over N beside LEDBAT and TCP-LP does not fix how \
    the low-priority flows split the rest, nor the index over all flows at N = 10 (the \
    rest may split any way)";
const SHARE_VS_QUEUE: &str = "which flow carries the bytes does not order the queue's mean \
    over N";
const QUEUE_VS_LOSS: &str = "the mean queue's trend and the loss rates at N = 10 are not \
    bound: losses come from overflows, the mean from where the queue sits between them";
const OTHER_RUNS: &str = "the two read different protocols' runs of the set (no run is \
    read by both), so neither constrains the other";

/// `s003-lbe-n-efficiency-ranking`.
pub(in crate::catalog) const LBE_N_EFFICIENCY: &[Sibling] = &[
    Independent {
        other: "s003-lbe-n-ledbat-below-tcplp",
        why: EFF_VS_SHARE,
    },
    Independent {
        other: "s003-lbe-n-fairness-lower-bound",
        why: EFF_VS_INDEX,
    },
    Independent {
        other: "s003-lbe-n-lbe-fairness-high",
        why: EFF_VS_INDEX,
    },
    Independent {
        other: "s003-lbe-n-nice-least-fair",
        why: EFF_VS_INDEX,
    },
    Independent {
        other: "s003-lbe-n-queue-falls-tcp",
        why: EFF_VS_QUEUE,
    },
    Independent {
        other: "s003-lbe-n-queue-rises-nice",
        why: EFF_VS_QUEUE,
    },
    Independent {
        other: "s003-lbe-n-queue-flat-ledbat",
        why: EFF_VS_QUEUE,
    },
    Independent {
        other: "s003-lbe-n-tcplp-losses-like-tcp",
        why: EFF_VS_LOSS,
    },
];

/// `s003-lbe-n-ledbat-below-tcplp`.
pub(in crate::catalog) const LBE_N_LEDBAT_BELOW: &[Sibling] = &[
    Independent {
        other: "s003-lbe-n-fairness-lower-bound",
        why: SHARE_VS_INDEX,
    },
    Independent {
        other: "s003-lbe-n-lbe-fairness-high",
        why: SHARE_VS_INDEX,
    },
    Independent {
        other: "s003-lbe-n-nice-least-fair",
        why: SHARE_VS_INDEX,
    },
    Independent {
        other: "s003-lbe-n-queue-falls-tcp",
        why: SHARE_VS_QUEUE,
    },
    Independent {
        other: "s003-lbe-n-queue-rises-nice",
        why: OTHER_RUNS,
    },
    Independent {
        other: "s003-lbe-n-queue-flat-ledbat",
        why: SHARE_VS_QUEUE,
    },
    Independent {
        other: "s003-lbe-n-tcplp-losses-like-tcp",
        why: "TCP's share beside TCP-LP bounds no loss rate: TCP-LP can yield by halving on \
              delay (few losses) or by losing (many)",
    },
];

/// `s003-lbe-n-fairness-lower-bound`.
pub(in crate::catalog) const LBE_N_LOWER_BOUND: &[Sibling] = &[
    Independent {
        other: "s003-lbe-n-lbe-fairness-high",
        why: "the index over all eleven flows is set mostly by the TCP flow's share, the \
              index among the ten low-priority flows by how they split the rest: either can \
              be high with the other low",
    },
    Independent {
        other: "s003-lbe-n-nice-least-fair",
        why: "NICE's index over its ten flows does not fix the index over all eleven, which \
              the TCP flow's share dominates",
    },
    Independent {
        other: "s003-lbe-n-queue-falls-tcp",
        why: OTHER_RUNS,
    },
    Independent {
        other: "s003-lbe-n-queue-rises-nice",
        why: INDEX_VS_QUEUE,
    },
    Independent {
        other: "s003-lbe-n-queue-flat-ledbat",
        why: INDEX_VS_QUEUE,
    },
    Independent {
        other: "s003-lbe-n-tcplp-losses-like-tcp",
        why: OTHER_RUNS,
    },
];

/// `s003-lbe-n-lbe-fairness-high`.
pub(in crate::catalog) const LBE_N_LBE_FAIR: &[Sibling] = &[
    Independent {
        other: "s003-lbe-n-nice-least-fair",
        why: "the order compares NICE's index with the lower of LEDBAT's and TCP-LP's; \
              that lower index being high leaves NICE's free on either side",
    },
    Independent {
        other: "s003-lbe-n-queue-falls-tcp",
        why: INDEX_VS_QUEUE,
    },
    Independent {
        other: "s003-lbe-n-queue-rises-nice",
        why: OTHER_RUNS,
    },
    Independent {
        other: "s003-lbe-n-queue-flat-ledbat",
        why: INDEX_VS_QUEUE,
    },
    Independent {
        other: "s003-lbe-n-tcplp-losses-like-tcp",
        why: INDEX_VS_LOSS,
    },
];

/// `s003-lbe-n-nice-least-fair`.
pub(in crate::catalog) const LBE_N_NICE_LEAST: &[Sibling] = &[
    Independent {
        other: "s003-lbe-n-queue-falls-tcp",
        why: INDEX_VS_QUEUE,
    },
    Independent {
        other: "s003-lbe-n-queue-rises-nice",
        why: INDEX_VS_QUEUE,
    },
    Independent {
        other: "s003-lbe-n-queue-flat-ledbat",
        why: INDEX_VS_QUEUE,
    },
    Independent {
        other: "s003-lbe-n-tcplp-losses-like-tcp",
        why: INDEX_VS_LOSS,
    },
];

/// `s003-lbe-n-queue-falls-tcp`.
pub(in crate::catalog) const LBE_N_QUEUE_TCP: &[Sibling] = &[
    Independent {
        other: "s003-lbe-n-queue-rises-nice",
        why: OTHER_RUNS,
    },
    Independent {
        other: "s003-lbe-n-queue-flat-ledbat",
        why: OTHER_RUNS,
    },
    Independent {
        other: "s003-lbe-n-tcplp-losses-like-tcp",
        why: QUEUE_VS_LOSS,
    },
];

/// `s003-lbe-n-queue-rises-nice`.
pub(in crate::catalog) const LBE_N_QUEUE_NICE: &[Sibling] = &[
    Independent {
        other: "s003-lbe-n-queue-flat-ledbat",
        why: OTHER_RUNS,
    },
    Independent {
        other: "s003-lbe-n-tcplp-losses-like-tcp",
        why: OTHER_RUNS,
    },
];

/// `s003-lbe-n-queue-flat-ledbat`.
pub(in crate::catalog) const LBE_N_QUEUE_LEDBAT: &[Sibling] = &[Independent {
    other: "s003-lbe-n-tcplp-losses-like-tcp",
    why: OTHER_RUNS,
}];

// ------------------------------------------------ Figs. 3.7-3.8: mix_points()

const MIX_VS_TCP: &str = "one reads the LBE mix's runs only, the other the all-TCP \
    reference runs only: no run is read by both";
const MIX_EFF_VS: &str = "a full link bounds neither how its bytes split nor how the mix's \
    losses, queue or index compare with the all-TCP reference";
const SHARE_VS_LOSSES: &str = "which flows carry the bytes does not bound how many packets \
    the mix loses against the all-TCP runs";
const INDEX_VS_MIX_LOSSES: &str = "a Jain index of the rates bounds no loss rate";

/// `s003-mix-efficiency`.
pub(in crate::catalog) const MIX_EFFICIENCY: &[Sibling] = &[
    Independent {
        other: "s003-mix-reno-efficiency-falls",
        why: MIX_VS_TCP,
    },
    Independent {
        other: "s003-mix-reno-queue-two-thirds",
        why: MIX_VS_TCP,
    },
    Independent {
        other: "s003-mix-queue-needs-two-each",
        why: MIX_EFF_VS,
    },
    Independent {
        other: "s003-mix-ledbat-large-at-k1",
        why: MIX_EFF_VS,
    },
    Independent {
        other: "s003-mix-ledbat-as-tcplp-at-k1",
        why: MIX_EFF_VS,
    },
    Independent {
        other: "s003-mix-fewer-losses",
        why: MIX_EFF_VS,
    },
    Independent {
        other: "s003-mix-fairness-below-tcp",
        why: MIX_EFF_VS,
    },
    Independent {
        other: "s003-mix-fairest-at-k1",
        why: MIX_EFF_VS,
    },
    Independent {
        other: "s003-mix-tcplp-share-grows",
        why: MIX_EFF_VS,
    },
    Independent {
        other: "s003-mix-fairness-falls",
        why: MIX_EFF_VS,
    },
];

/// `s003-mix-reno-efficiency-falls`.
pub(in crate::catalog) const MIX_RENO_EFFICIENCY: &[Sibling] = &[
    Independent {
        other: "s003-mix-reno-queue-two-thirds",
        why: "synchronised losses empty the buffer more often as flows are added, which lowers \
              the efficiency; the mean queue farthest from 2/3 bounds no trend of it",
    },
    Independent {
        other: "s003-mix-queue-needs-two-each",
        why: "the all-TCP efficiency's trend does not fix the all-TCP queue the mix is \
              compared with, nor the mix's",
    },
    Independent {
        other: "s003-mix-ledbat-large-at-k1",
        why: MIX_VS_TCP,
    },
    Independent {
        other: "s003-mix-ledbat-as-tcplp-at-k1",
        why: MIX_VS_TCP,
    },
    Independent {
        other: "s003-mix-fewer-losses",
        why: "the all-TCP efficiency's trend over k does not bound its loss rate's level, \
              nor the mix's",
    },
    Independent {
        other: "s003-mix-fairness-below-tcp",
        why: "the all-TCP efficiency's trend bounds neither fairness compared",
    },
    Independent {
        other: "s003-mix-fairest-at-k1",
        why: MIX_VS_TCP,
    },
    Independent {
        other: "s003-mix-tcplp-share-grows",
        why: MIX_VS_TCP,
    },
    Independent {
        other: "s003-mix-fairness-falls",
        why: MIX_VS_TCP,
    },
];

/// `s003-mix-reno-queue-two-thirds`.
pub(in crate::catalog) const MIX_RENO_QUEUE: &[Sibling] = &[
    Independent {
        other: "s003-mix-queue-needs-two-each",
        why: "the order compares the mix's shortfall below the all-TCP queue at k = 1 with \
              k >= 2; the all-TCP level being near 2/3 leaves the mix's queue free",
    },
    Independent {
        other: "s003-mix-ledbat-large-at-k1",
        why: MIX_VS_TCP,
    },
    Independent {
        other: "s003-mix-ledbat-as-tcplp-at-k1",
        why: MIX_VS_TCP,
    },
    Independent {
        other: "s003-mix-fewer-losses",
        why: "the all-TCP mean queue's level does not bound its loss rate nor the mix's",
    },
    Independent {
        other: "s003-mix-fairness-below-tcp",
        why: "the all-TCP mean queue bounds no Jain index",
    },
    Independent {
        other: "s003-mix-fairest-at-k1",
        why: MIX_VS_TCP,
    },
    Independent {
        other: "s003-mix-tcplp-share-grows",
        why: MIX_VS_TCP,
    },
    Independent {
        other: "s003-mix-fairness-falls",
        why: MIX_VS_TCP,
    },
];

/// `s003-mix-queue-needs-two-each`.
pub(in crate::catalog) const MIX_QUEUE_TWO: &[Sibling] = &[
    Independent {
        other: "s003-mix-ledbat-large-at-k1",
        why: "the thesis ties them (LEDBAT's target plus TCP-LP's and NICE's contributions \
              set the k = 1 queue) but LEDBAT's share at k = 1 bounds no queue shortfall",
    },
    Independent {
        other: "s003-mix-ledbat-as-tcplp-at-k1",
        why: "the ratio of two flows' shares at k = 1 bounds no queue shortfall",
    },
    Independent {
        other: "s003-mix-fewer-losses",
        why: QUEUE_VS_LOSS,
    },
    Independent {
        other: "s003-mix-fairness-below-tcp",
        why: "queue shortfalls and Jain indices are properties of the sum and of the split \
              of the rates",
    },
    Independent {
        other: "s003-mix-fairest-at-k1",
        why: "both single out k = 1, but the queue's shortfall there and the index's peak \
              there are the sum's and the split's of the rates",
    },
    Independent {
        other: "s003-mix-tcplp-share-grows",
        why: "TCP-LP's share's trend bounds no queue shortfall",
    },
    Independent {
        other: "s003-mix-fairness-falls",
        why: "the index's trend bounds no queue shortfall",
    },
];

/// `s003-mix-ledbat-large-at-k1`.
pub(in crate::catalog) const MIX_LEDBAT_LARGE: &[Sibling] = &[
    Independent {
        other: "s003-mix-ledbat-as-tcplp-at-k1",
        why: "with three flows the shares sum to one, so a LEDBAT share s bounds the ratio \
              from below only, s / (1 - s) (0.5 at s = 1/3); NICE's share leaves it free \
              above. The tolerance is cut at 5/9, the largest share a ratio of 1.25 allows, \
              so that a share too large for the thesis's 'very close' is not reproduced",
    },
    Independent {
        other: "s003-mix-fewer-losses",
        why: SHARE_VS_LOSSES,
    },
    Independent {
        other: "s003-mix-fairness-below-tcp",
        why: "LEDBAT's share at k = 1 bounds the mix's index at k = 1 only with TCP-LP's \
              and NICE's, and the other k not at all",
    },
    Independent {
        other: "s003-mix-fairest-at-k1",
        why: "LEDBAT's share at k = 1 alone does not fix the k = 1 index (the other two \
              shares split the rest any way) nor the indices at larger k",
    },
    Independent {
        other: "s003-mix-tcplp-share-grows",
        why: "LEDBAT's share at k = 1 bounds TCP-LP's there by its complement only, and the \
              trend over k not at all",
    },
    Independent {
        other: "s003-mix-fairness-falls",
        why: "one share at k = 1 does not order the indices over k",
    },
];

/// `s003-mix-ledbat-as-tcplp-at-k1`.
pub(in crate::catalog) const MIX_LEDBAT_AS_TCPLP: &[Sibling] = &[
    Independent {
        other: "s003-mix-fewer-losses",
        why: SHARE_VS_LOSSES,
    },
    Independent {
        other: "s003-mix-fairness-below-tcp",
        why: "two of three shares close at k = 1 leave the third, and so the index, free",
    },
    Independent {
        other: "s003-mix-fairest-at-k1",
        why: "two of three shares close at k = 1 leave NICE's, and so the k = 1 index, free, \
              and bound no index at larger k",
    },
    Independent {
        other: "s003-mix-tcplp-share-grows",
        why: "a ratio at k = 1 does not order TCP-LP's share over k",
    },
    Independent {
        other: "s003-mix-fairness-falls",
        why: "a ratio at k = 1 does not order the indices over k",
    },
];

/// `s003-mix-fewer-losses`.
pub(in crate::catalog) const MIX_FEWER_LOSSES: &[Sibling] = &[
    Independent {
        other: "s003-mix-fairness-below-tcp",
        why: INDEX_VS_MIX_LOSSES,
    },
    Independent {
        other: "s003-mix-fairest-at-k1",
        why: INDEX_VS_MIX_LOSSES,
    },
    Independent {
        other: "s003-mix-tcplp-share-grows",
        why: SHARE_VS_LOSSES,
    },
    Independent {
        other: "s003-mix-fairness-falls",
        why: INDEX_VS_MIX_LOSSES,
    },
];

/// `s003-mix-fairness-below-tcp`.
pub(in crate::catalog) const MIX_BELOW_TCP: &[Sibling] = &[
    Independent {
        other: "s003-mix-fairest-at-k1",
        why: "the mix below the all-TCP index at every k leaves the mix's own order over k \
              free",
    },
    Independent {
        other: "s003-mix-tcplp-share-grows",
        why: "the comparison with the all-TCP index bounds no share's trend",
    },
    Independent {
        other: "s003-mix-fairness-falls",
        why: "the mix below the all-TCP index at every k leaves the mix's trend free",
    },
];

/// `s003-mix-fairest-at-k1`.
pub(in crate::catalog) const MIX_FAIREST_K1: &[Sibling] = &[
    Independent {
        other: "s003-mix-fairness-falls",
        why: "a seed whose index is highest at k = 1 has 3 of the 6 pairs of k = 1, 2, 3, 5 \
              falling, so its tau is at most 0: with 8 such seeds in 10 the mean tau is at most \
              0.2, which does not bound it below 0",
    },
    Independent {
        other: "s003-mix-tcplp-share-grows",
        why: "the index peaks where the shares are closest, which a growing TCP-LP share \
              neither requires nor prevents at k = 1",
    },
];

/// `s003-mix-tcplp-share-grows`.
pub(in crate::catalog) const MIX_TCPLP_GROWS: &[Sibling] = &[Independent {
    other: "s003-mix-fairness-falls",
    why: "a growing TCP-LP share lowers the index only once it exceeds the others'; below \
          that it raises it, so the trends bound each other in neither sense",
}];

/// LEDBAT's share trend against an index of all the mix's flows.
const LEDBAT_TREND_VS_INDEX: &str = "the index depends on how all the mix's flows split; \
    LEDBAT's share can fall with k while the index rises or falls, as the other flows take \
    what it leaves";

/// `s003-mix-ledbat-share-falls`.
pub(in crate::catalog) const MIX_LEDBAT_FALLS: &[Sibling] = &[
    Independent {
        other: "s003-mix-efficiency",
        why: MIX_EFF_VS,
    },
    Independent {
        other: "s003-mix-reno-efficiency-falls",
        why: MIX_VS_TCP,
    },
    Independent {
        other: "s003-mix-reno-queue-two-thirds",
        why: MIX_VS_TCP,
    },
    Independent {
        other: "s003-mix-queue-needs-two-each",
        why: "the mix's queue is set by its loss-based flows' windows, not by which flow \
              carries the bytes: LEDBAT's share trend bounds no queue level",
    },
    Independent {
        other: "s003-mix-ledbat-large-at-k1",
        why: "a large share at k = 1 leaves room to fall but does not force it; a small one \
              can still fall",
    },
    Independent {
        other: "s003-mix-ledbat-as-tcplp-at-k1",
        why: "the two shares' ratio at k = 1 says nothing of how LEDBAT's share moves at \
              larger k",
    },
    Independent {
        other: "s003-mix-fewer-losses",
        why: SHARE_VS_LOSSES,
    },
    Independent {
        other: "s003-mix-fairness-below-tcp",
        why: LEDBAT_TREND_VS_INDEX,
    },
    Independent {
        other: "s003-mix-fairest-at-k1",
        why: LEDBAT_TREND_VS_INDEX,
    },
    Independent {
        other: "s003-mix-tcplp-share-grows",
        why: "TCP-LP's share growing leaves LEDBAT's free: NICE's or TCP's shares can give \
              way instead, and both can grow together while those fall",
    },
    Independent {
        other: "s003-mix-fairness-falls",
        why: LEDBAT_TREND_VS_INDEX,
    },
];

// ------------------------------------------------ Table 2.1: rows()

const TAB_OTHER_ROWS: &str = "the two read different rows of the table (no run is read by \
    both), so neither constrains the other";
const TAB_EFF_VS_SPLIT: &str = "an efficiency counts all flows' bytes, a share or ratio how \
    they split: neither bounds the other";

/// `s003-tab21-four-tcpw-efficiency`.
pub(in crate::catalog) const TAB_FOUR_TCPW: &[Sibling] = &[
    Independent {
        other: "s003-tab21-ledbat-above-tcpw",
        why: TAB_OTHER_ROWS,
    },
    Independent {
        other: "s003-tab21-tcpw-mix-efficiency",
        why: "four Windows-like flows alone and the mixes with LEDBAT are other rows; the \
              window limit that caps the four does not cap LEDBAT",
    },
    Independent {
        other: "s003-tab21-ledbat-starved-by-tcpl",
        why: TAB_OTHER_ROWS,
    },
    Independent {
        other: "s003-tab21-tcpl-efficiency",
        why: TAB_OTHER_ROWS,
    },
    Independent {
        other: "s003-tab21-four-ledbat-fair",
        why: TAB_OTHER_ROWS,
    },
    Independent {
        other: "s003-tab21-flavour-ranking",
        why: TAB_OTHER_ROWS,
    },
];

/// `s003-tab21-ledbat-above-tcpw`.
pub(in crate::catalog) const TAB_ABOVE_TCPW: &[Sibling] = &[
    Independent {
        other: "s003-tab21-tcpw-mix-efficiency",
        why: TAB_EFF_VS_SPLIT,
    },
    Independent {
        other: "s003-tab21-ledbat-starved-by-tcpl",
        why: TAB_OTHER_ROWS,
    },
    Independent {
        other: "s003-tab21-tcpl-efficiency",
        why: TAB_OTHER_ROWS,
    },
    Independent {
        other: "s003-tab21-four-ledbat-fair",
        why: TAB_OTHER_ROWS,
    },
    Independent {
        other: "s003-tab21-flavour-ranking",
        why: "a ratio of LEDBAT's to TCP's per-flow share beside Windows-like TCP does not \
              fix LEDBAT's share itself, which the ranking compares with its share beside \
              Linux-like TCP",
    },
];

/// `s003-tab21-tcpw-mix-efficiency`.
pub(in crate::catalog) const TAB_TCPW_MIX: &[Sibling] = &[
    Independent {
        other: "s003-tab21-ledbat-starved-by-tcpl",
        why: TAB_OTHER_ROWS,
    },
    Independent {
        other: "s003-tab21-tcpl-efficiency",
        why: TAB_OTHER_ROWS,
    },
    Independent {
        other: "s003-tab21-four-ledbat-fair",
        why: TAB_OTHER_ROWS,
    },
    Independent {
        other: "s003-tab21-flavour-ranking",
        why: TAB_EFF_VS_SPLIT,
    },
];

/// `s003-tab21-ledbat-starved-by-tcpl`.
pub(in crate::catalog) const TAB_STARVED: &[Sibling] = &[
    Independent {
        other: "s003-tab21-tcpl-efficiency",
        why: TAB_EFF_VS_SPLIT,
    },
    Independent {
        other: "s003-tab21-four-ledbat-fair",
        why: TAB_OTHER_ROWS,
    },
    Independent {
        other: "s003-tab21-flavour-ranking",
        why: "LEDBAT's largest share beside Linux-like TCP, at most 5 %, bounds the \
              ranking's difference from below only by LEDBAT's share beside Windows-like TCP \
              minus 5 %, which this claim does not read",
    },
];

/// `s003-tab21-tcpl-efficiency`.
pub(in crate::catalog) const TAB_TCPL_EFF: &[Sibling] = &[
    Independent {
        other: "s003-tab21-four-ledbat-fair",
        why: TAB_OTHER_ROWS,
    },
    Independent {
        other: "s003-tab21-flavour-ranking",
        why: TAB_EFF_VS_SPLIT,
    },
];

/// `s003-tab21-four-ledbat-fair`.
pub(in crate::catalog) const TAB_FOUR_LEDBAT: &[Sibling] = &[Independent {
    other: "s003-tab21-flavour-ranking",
    why: TAB_OTHER_ROWS,
}];

// ------------------------------------------------ Fig. 7.1, Fig. 3.9, Fig. 4.3: one file each

/// `s003-droptail-queue`.
pub(in crate::catalog) const DROPTAIL_QUEUE: &[Sibling] = &[Independent {
    other: "s003-droptail-ledbat-low-priority",
    why: "the queueing delay is set by the sum of the windows against the 600-ms buffer, \
          TCP's share by their split: NewReno fills the buffer whether LEDBAT yields or not",
}];

/// `s003-red-queue`.
pub(in crate::catalog) const RED_QUEUE: &[Sibling] = &[Independent {
    other: "s003-red-removes-priority",
    why: "RED's thresholds set the mean queue; how the early drops split the bytes between \
          NewReno and LEDBAT is not fixed by that level",
}];

/// `s003-rtt-hetero-ledbat-efficient`.
pub(in crate::catalog) const RTT_HETERO_EFFICIENT: &[Sibling] = &[Independent {
    other: "s003-rtt-hetero-ledbat-unfair-all",
    why: "the index is the split of the two rates, the efficiency their sum: a starving \
          long-RTT flow leaves a full link",
}];

/// `s003-fledbat-fluid-queue`.
pub(in crate::catalog) const FLUID_QUEUE: &[Sibling] = &[Independent {
    other: "s003-fledbat-fluid-fair",
    why: "the queue is set by the sum of the windows, the index by their split",
}];

// ------------------------------------------------ Figs. 4.1, 4.5: chapter 4

/// `s003-latecomer-gap10-b40-first-floor`.
pub(in crate::catalog) const GAP10_FLOOR: &[Sibling] = &[Independent {
    other: "s003-latecomer-gap10-b40-fairer-later",
    why: "the time the first flow reaches its floor and the change of the index from 20-25 s \
          to 40-80 s are read in separate windows; the floor time bounds neither index",
}];

/// `s003-fledbat-vs-tcp-low-priority`.
pub(in crate::catalog) const FLEDBAT_TCP_LOW: &[Sibling] = &[Independent {
    other: "s003-fledbat-vs-tcp-efficient",
    why: "fLEDBAT's share is the split, the efficiency the sum: a yielding fLEDBAT may leave \
          TCP's per-chunk idle time unused or fill it",
}];

/// `s003-fledbat-vs-tcp-tiny-zeta-aggressive`.
pub(in crate::catalog) const FLEDBAT_TCP_TINY: &[Sibling] = &[
    Implies {
        other: "s003-fledbat-vs-tcp-low-priority",
        map: low_priority_mean,
        why: "a seed shows the order only if fLEDBAT's largest share from zeta = 1e-3 on is \
              at most 0.1, the other claim's value in that seed; a share of seeds p bounds \
              the mean of that value by 0.1 p + (1 - p), 0.28 at p = 0.8",
    },
    Independent {
        other: "s003-fledbat-vs-tcp-efficient",
        why: "the share's order over zeta is the split, the efficiency the sum",
    },
];

/// `s003-fledbat-vs-ledbat-small-zeta`.
pub(in crate::catalog) const FLEDBAT_LEDBAT_SMALL: &[Sibling] = &[
    Independent {
        other: "s003-fledbat-vs-ledbat-crossover",
        why: "LEDBAT below one half at zeta = 1e-3 puts the crossover above log10 zeta = -3, \
              which the crossover's direction [-1, 2] does not bound",
    },
    Independent {
        other: "s003-fledbat-vs-ledbat-never-fair",
        why: "LEDBAT at most 20 % at zeta <= 1e-3 bounds the index there (at most 0.74), \
              not its highest over the larger zetas",
    },
];

/// `s003-fledbat-vs-ledbat-crossover`.
pub(in crate::catalog) const FLEDBAT_LEDBAT_CROSS: &[Sibling] = &[Independent {
    other: "s003-fledbat-vs-ledbat-never-fair",
    why: "the crossover is interpolated between the sampled zetas: the shares can pass one \
          half between two samples, each of which is unfair, or sit near it at one",
}];

// ------------------------------------------------ Fig. 3.5 (right): target_ratio_points()

/// Two flows' Jain index is at least 1/2; a highest index over a set of ratios bounds the
/// highest over a subset from above.
fn subset_index((_, hi): (f64, f64)) -> (f64, f64) {
    (0.5, hi.max(0.5))
}

const INDEX_VS_BOTH_LOSE: &str = "the index is the split of the two rates; whether each flow \
    loses at least one packet at T1/T2 = 6 and 10 is not bounded by it";

/// `s003-target-ratio-unfair`.
pub(in crate::catalog) const TARGET_RATIO_UNFAIR: &[Sibling] = &[
    Implies {
        other: "s003-target-ratio-6-unfair",
        map: subset_index,
        why: "the highest index over T1/T2 = 1.5, 2, 3, 6, 10 is at least the highest over 6 \
              and 10, and two flows' index is at least 1/2: at most 0.6 here puts the other \
              in [0.5, 0.6]",
    },
    Independent {
        other: "s003-target-ratio-6-both-lose",
        why: INDEX_VS_BOTH_LOSE,
    },
];

/// `s003-target-ratio-6-both-lose`.
pub(in crate::catalog) const TARGET_RATIO_BOTH_LOSE: &[Sibling] = &[Independent {
    other: "s003-target-ratio-6-unfair",
    why: INDEX_VS_BOTH_LOSE,
}];
