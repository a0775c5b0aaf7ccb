//! RED (Random Early Detection): the average queue, the drop probability and its spacing,
//! under two sets of rules chosen by [`RedPreset`].
//!
//! **Floyd and Jacobson 1993** (presets `classic` and `floyd-jacobson-1993`). On each
//! arrival finding `q` packets waiting, `avg = (1 - w_q) avg + w_q q`; an arrival that ends
//! an idle period of length `t` first decays the average, `avg = (1 - w_q)^m avg` with
//! `m = t / s` (here `s` is one MSS's transmission time, fractional `m`). Below `min_th`
//! admit (`count = -1`); between the thresholds `count += 1`,
//! `p_b = max_p (avg - min_th) / (max_th - min_th)` and the arrival is dropped with
//! `p_a = p_b / (1 - count p_b)` (then `count = 0`), so the gap between drops is uniform on
//! `[1, 1/p_b]`; gentle RED continues `p_b` linearly from `max_p` at `max_th` to 1 at
//! `2 max_th`; beyond, every arrival is dropped.
//!
//! **ns-2.35's `Queue/RED`** (preset `ns2-auto`; formulas from ns-2.35 `queue/red.cc` and
//! defaults from its `tcl/lib/ns-default.tcl`: `bytes_` and `queue_in_bytes_` true,
//! `thresh_` and `maxthresh_` 0, `mean_pktsize_` 500, `q_weight_` -1, `wait_` true,
//! `linterm_` 10, `gentle_` true, `use_mark_p_` true, `targetdelay_` 0.005 s):
//! - `ptc = rate / (8 mean_pktsize)`, the link's rate in mean-size packets per second.
//! - Automatic configuration (a threshold left at 0, `q_weight_ = -1`):
//!   `min_th = max(5, targetdelay ptc / 2)`, `max_th = 3 min_th` (in mean-size packets;
//!   times `mean_pktsize` in byte mode, so at 10 Mb/s 3125 and 9375 bytes);
//!   `w_q = 1 - exp(-1 / (10 rtt ptc))` with `rtt = max(0.1 s, 3 (delay + 1 / ptc))` and
//!   `delay` the link's propagation delay.
//! - The average is over bytes waiting in byte mode, packets otherwise; an arrival ending an
//!   idle period (from the moment the link found nothing to send) first multiplies it by
//!   `(1 - w_q)^m` with `m = floor(ptc t)`.
//! - `count` and `count_bytes` count arrivals since the last drop, the arrival included.
//!   Early drops are considered only when `avg >= min_th` and the instantaneous queue holds
//!   more than one packet (more than one byte in byte mode); the first such arrival after
//!   the average crossed `min_th` (or after the queue held at most one) is admitted and
//!   resets `count = 1`.
//! - `p_b` as above (gentle: `max_p` to 1 between `max_th` and `2 max_th`, 1 beyond; with
//!   `use_mark_p_` there is no separate forced drop above `2 max_th`, `p_b = 1` does it).
//!   With `c = count` (byte mode: `floor(count_bytes / mean_pktsize)`), `wait_` gives
//!   `p_a = 0` while `c p_b < 1`, `p_b / (2 - c p_b)` while `c p_b < 2`, then 1, so the gap
//!   between drops lies in `[1/p_b, 2/p_b]` (without `wait_`: `p_b / (1 - c p_b)`). Byte
//!   mode then scales `p_a` by `size / mean_pktsize` when `p_a < 1`.
//! - The hard limit is `packets x mean_pktsize` bytes in byte mode (ns-2's `qlim_` in mean
//!   packets), `packets` otherwise.

use crate::scenario::{Red, RedPreset};
use rand::Rng;
use rand_chacha::ChaCha8Rng;

/// ns-2's rules and the values derived from the link.
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct Ns2Rules {
    /// `wait_`: drop spacing in `[1/p_b, 2/p_b]`.
    pub wait: bool,
    /// Byte mode: average, thresholds and limit in bytes, `p_a` scaled by size.
    pub bytes: bool,
    /// `mean_pktsize_`, bytes.
    pub mean_pktsize: u32,
    /// `ptc`: mean-size packets per second the link carries.
    pub ptc: f64,
}

/// RED's parameters once the preset and the link are resolved. Thresholds and limit are in
/// bytes in ns-2's byte mode, packets otherwise.
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct RedParams {
    pub limit: u64,
    pub min_th: f64,
    pub max_th: f64,
    pub max_p: f64,
    pub w_q: f64,
    pub gentle: bool,
    /// `None`: Floyd and Jacobson's rules.
    pub ns2: Option<Ns2Rules>,
}

/// The thresholds of a non-ns-2 preset, which need no link (for validation).
pub fn red_thresholds_without_link(r: &Red) -> (f64, f64) {
    let p = resolve(r, None, 0);
    (p.min_th, p.max_th)
}

/// Resolves `r` for a link of `rate_bps` (none: a queue built outside a world, where ns-2's
/// link-derived values fall back to its floor of 5 packets and the pre-2001 weight 0.002)
/// and propagation delay `delay_ns`.
pub(crate) fn resolve(r: &Red, rate_bps: Option<u64>, delay_ns: u64) -> RedParams {
    let limit = r.limit() as u64;
    match r.preset {
        RedPreset::Classic | RedPreset::FloydJacobson1993 => {
            let fj = r.preset == RedPreset::FloydJacobson1993;
            RedParams {
                limit,
                min_th: r.min_th.unwrap_or(5.0),
                max_th: r.max_th.unwrap_or(15.0),
                max_p: r.max_p.unwrap_or(if fj { 1.0 / 50.0 } else { 0.1 }),
                w_q: r.w_q.unwrap_or(0.002),
                gentle: r.gentle.unwrap_or(!fj),
                ns2: None,
            }
        }
        RedPreset::Ns2Auto => {
            let mean = r.mean_pktsize.unwrap_or(500);
            let bytes = r.bytes.unwrap_or(true);
            let target = r.target_delay.map_or(0.005, |d| d.as_nanos() as f64 / 1e9);
            let ptc = rate_bps
                .filter(|&b| b > 0 && b != u64::MAX)
                .map_or(0.0, |b| b as f64 / (8.0 * mean as f64));
            let min_pkts = r.min_th.unwrap_or((target * ptc / 2.0).max(5.0));
            let max_pkts = r.max_th.unwrap_or(3.0 * min_pkts);
            let w_q = r.w_q.unwrap_or_else(|| {
                if ptc == 0.0 {
                    return 0.002;
                }
                let rtt = (3.0 * (delay_ns as f64 / 1e9 + 1.0 / ptc)).max(0.1);
                1.0 - (-1.0 / (10.0 * rtt * ptc)).exp()
            });
            let unit = if bytes { mean as f64 } else { 1.0 };
            RedParams {
                limit: if bytes { limit * mean as u64 } else { limit },
                min_th: min_pkts * unit,
                max_th: max_pkts * unit,
                max_p: r.max_p.unwrap_or(0.1),
                w_q,
                gentle: r.gentle.unwrap_or(true),
                ns2: Some(Ns2Rules {
                    wait: r.wait.unwrap_or(true),
                    bytes,
                    mean_pktsize: mean,
                    ptc,
                }),
            }
        }
    }
}

/// ns-2's `p_b` (`calculate_p_new`): linear from 0 at `min_th` to `max_p` at `max_th`;
/// gentle: on to 1 at `2 max_th`; otherwise 1 from `max_th`. At most 1.
pub(crate) fn ns2_prob(avg: f64, p: &RedParams) -> f64 {
    let pb = if avg >= p.max_th {
        if p.gentle {
            (1.0 - p.max_p) / p.max_th * avg + 2.0 * p.max_p - 1.0
        } else {
            1.0
        }
    } else {
        p.max_p * (avg - p.min_th) / (p.max_th - p.min_th)
    };
    pb.min(1.0)
}

/// ns-2's `p_a` from `p_b` (`modify_p`): the spacing rule and, in byte mode, the size
/// scaling. `count` and `count_bytes` include the arriving packet of `size` bytes.
pub(crate) fn ns2_spacing(pb: f64, count: u64, count_bytes: u64, size: u32, r: &Ns2Rules) -> f64 {
    let c = if r.bytes {
        (count_bytes / r.mean_pktsize as u64) as f64
    } else {
        count as f64
    };
    let mut p = if r.wait {
        if c * pb < 1.0 {
            0.0
        } else if c * pb < 2.0 {
            pb / (2.0 - c * pb)
        } else {
            1.0
        }
    } else if c * pb < 1.0 {
        pb / (1.0 - c * pb)
    } else {
        1.0
    };
    if r.bytes && p < 1.0 {
        p = p * size as f64 / r.mean_pktsize as f64;
    }
    p.min(1.0)
}

/// A RED queue's state.
#[derive(Clone, Debug)]
pub(crate) struct RedState {
    pub p: RedParams,
    pub avg: f64,
    /// Floyd and Jacobson: -1 below `min_th`; ns-2: arrivals since the last drop.
    count: i64,
    count_bytes: u64,
    /// ns-2's `old`: the last arrival was in the early-drop region.
    old: bool,
    /// Start of the current idle period, if the link is idle.
    pub idle_since: Option<u64>,
}

impl RedState {
    pub fn new(p: RedParams) -> RedState {
        RedState {
            p,
            avg: 0.0,
            count: -1,
            count_bytes: 0,
            old: false,
            idle_since: Some(0),
        }
    }

    /// Whether to admit a packet of `size` bytes arriving at `now` to `q_pkts` packets
    /// (`q_bytes` bytes) waiting; `typical_tx_ns` is one MSS's transmission time (the unit
    /// of Floyd and Jacobson's idle decay here).
    pub fn admit(
        &mut self,
        q_pkts: usize,
        q_bytes: u64,
        size: u32,
        now: u64,
        typical_tx_ns: u64,
        rng: &mut ChaCha8Rng,
    ) -> bool {
        match self.p.ns2.clone() {
            None => self.admit_fj(q_pkts, now, typical_tx_ns, rng),
            Some(n) => self.admit_ns2(&n, q_pkts, q_bytes, size, now, rng),
        }
    }

    fn admit_fj(&mut self, q: usize, now: u64, typical_tx_ns: u64, rng: &mut ChaCha8Rng) -> bool {
        let r = &self.p;
        if let Some(since) = self.idle_since.take() {
            let m = if typical_tx_ns == 0 {
                0.0
            } else {
                now.saturating_sub(since) as f64 / typical_tx_ns as f64
            };
            self.avg *= (1.0 - r.w_q).powf(m);
        }
        self.avg = (1.0 - r.w_q) * self.avg + r.w_q * q as f64;
        if q as u64 >= r.limit {
            self.count = 0;
            return false;
        }
        let pb = if self.avg < r.min_th {
            self.count = -1;
            return true;
        } else if self.avg < r.max_th {
            r.max_p * (self.avg - r.min_th) / (r.max_th - r.min_th)
        } else if r.gentle && self.avg < 2.0 * r.max_th {
            r.max_p + (1.0 - r.max_p) * (self.avg - r.max_th) / r.max_th
        } else {
            self.count = 0;
            return false;
        };
        self.count += 1;
        let denom = 1.0 - self.count as f64 * pb;
        let pa = if denom <= 0.0 {
            1.0
        } else {
            (pb / denom).min(1.0)
        };
        if rng.gen::<f64>() < pa {
            self.count = 0;
            false
        } else {
            true
        }
    }

    fn admit_ns2(
        &mut self,
        n: &Ns2Rules,
        q_pkts: usize,
        q_bytes: u64,
        size: u32,
        now: u64,
        rng: &mut ChaCha8Rng,
    ) -> bool {
        let w = self.p.w_q;
        if let Some(since) = self.idle_since.take() {
            let m = (now.saturating_sub(since) as f64 / 1e9 * n.ptc).floor();
            self.avg *= (1.0 - w).powi(m.min(i32::MAX as f64) as i32);
        }
        let qlen = if n.bytes { q_bytes } else { q_pkts as u64 };
        self.avg = (1.0 - w) * self.avg + w * qlen as f64;
        self.count = self.count.max(0) + 1;
        self.count_bytes += size as u64;
        let mut drop = false;
        if self.avg >= self.p.min_th && qlen > 1 {
            if !self.old {
                self.old = true;
                self.count = 1;
                self.count_bytes = size as u64;
            } else {
                let pb = ns2_prob(self.avg, &self.p);
                let pa = ns2_spacing(pb, self.count as u64, self.count_bytes, size, n);
                drop = pa >= 1.0 || (pa > 0.0 && rng.gen::<f64>() < pa);
            }
        } else {
            self.old = false;
        }
        if qlen >= self.p.limit {
            drop = true;
        }
        if drop {
            self.count = 0;
            self.count_bytes = 0;
        }
        !drop
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use ledbat_core::Duration;
    use rand::SeedableRng;

    const MS: u64 = 1_000_000;

    fn ns2(r: Red) -> Red {
        Red {
            preset: RedPreset::Ns2Auto,
            ..r
        }
    }

    fn close(a: f64, b: f64, tol: f64) -> bool {
        (a - b).abs() <= tol
    }

    #[test]
    fn ns2_auto_sets_thresholds_from_target_delay_and_weight_from_the_link() {
        // 10 Mb/s, 500-byte mean packets: ptc = 1e7 / 4000 = 2500/s. targetdelay 5 ms gives a
        // target queue of 12.5 packets; min_th = 12.5 / 2 = 6.25 (above the floor 5),
        // max_th = 18.75, i.e. 3125 and 9375 bytes. rtt = 3 (20 ms + 0.4 ms) = 61.2 ms,
        // raised to 100 ms: w_q = 1 - exp(-1 / 2500) = 0.0004 - 8e-8 + 1.07e-11.
        let p = resolve(&ns2(Red::default()), Some(10_000_000), 20 * MS);
        assert_eq!((p.min_th, p.max_th), (3125.0, 9375.0));
        assert!(close(p.w_q, 3.999_200_1e-4, 1e-12), "{}", p.w_q);
        assert_eq!((p.max_p, p.gentle, p.limit), (0.1, true, 100 * 500));
        let n = p.ns2.unwrap();
        assert!(n.wait && n.bytes && n.mean_pktsize == 500 && n.ptc == 2500.0);
    }

    #[test]
    fn ns2_auto_keeps_the_floor_of_five_packets_on_a_slow_link() {
        // 1 Mb/s: ptc 250/s, half the 5-ms target queue is 0.625 packet < 5: min_th 5,
        // max_th 15 mean packets = 2500 and 7500 bytes. rtt = 3 (20 + 4) ms = 72 ms -> 100
        // ms: w_q = 1 - exp(-1/250) = 0.004 - 8e-6 + 1.07e-8.
        let p = resolve(&ns2(Red::default()), Some(1_000_000), 20 * MS);
        assert_eq!((p.min_th, p.max_th), (2500.0, 7500.0));
        assert!(close(p.w_q, 3.992_010_7e-3, 1e-10), "{}", p.w_q);
    }

    #[test]
    fn ns2_auto_weight_follows_a_long_link_delay() {
        // 100 ms link delay at 10 Mb/s: rtt = 3 (0.1 + 0.0004) = 0.3012 s > 0.1 s, so
        // w_q = 1 - exp(-1 / (10 x 0.3012 x 2500)) = 1 - exp(-1/7530) = 1.327933e-4.
        let p = resolve(&ns2(Red::default()), Some(10_000_000), 100 * MS);
        assert!(close(p.w_q, 1.327_933e-4, 1e-10), "{}", p.w_q);
    }

    #[test]
    fn explicit_keys_override_the_preset_and_max_th_follows_min_th() {
        let r = ns2(Red {
            min_th: Some(4.0),
            target_delay: Some(Duration::from_millis(50)),
            bytes: Some(false),
            ..Red::default()
        });
        let p = resolve(&r, Some(10_000_000), 0);
        // Packet mode: thresholds in packets; max_th = 3 x 4; limit stays 100 packets.
        assert_eq!((p.min_th, p.max_th, p.limit), (4.0, 12.0, 100));
        // The floyd-jacobson-1993 preset: 5/15, max_p 1/50, no gentle region.
        let fj = resolve(
            &Red {
                preset: RedPreset::FloydJacobson1993,
                ..Red::default()
            },
            None,
            0,
        );
        assert_eq!(
            (fj.min_th, fj.max_th, fj.max_p, fj.gentle),
            (5.0, 15.0, 0.02, false)
        );
        assert_eq!(fj.w_q, 0.002);
    }

    fn state(r: &Red) -> RedState {
        RedState::new(resolve(r, Some(10_000_000), 20 * MS))
    }

    #[test]
    fn the_average_is_an_ewma_of_the_queue_seen_by_arrivals() {
        // w_q 1/4 from 0: arrivals finding 4, 4, 8 packets give 1, 1.75, 3.3125.
        let mut rng = ChaCha8Rng::seed_from_u64(1);
        for preset in [RedPreset::Classic, RedPreset::Ns2Auto] {
            let mut s = state(&Red {
                preset,
                w_q: Some(0.25),
                bytes: (preset == RedPreset::Ns2Auto).then_some(false),
                ..Red::default()
            });
            let mut got = Vec::new();
            for q in [4, 4, 8] {
                assert!(s.admit(q, q as u64 * 1500, 1500, 0, 1_200_000, &mut rng));
                got.push(s.avg);
            }
            assert_eq!(got, [1.0, 1.75, 3.3125], "{preset:?}");
        }
    }

    #[test]
    fn an_idle_period_decays_the_average_in_mss_times_or_in_ns2_mean_packets() {
        let mut rng = ChaCha8Rng::seed_from_u64(1);
        // Classic: idle 3 MSS times (3.6 ms at 1.2 ms each), w_q 1/2: 8 x (1/2)^3 = 1, then
        // the arrival's own update with an empty queue: 0.5.
        let mut s = state(&Red {
            w_q: Some(0.5),
            ..Red::default()
        });
        s.avg = 8.0;
        s.idle_since = Some(10 * MS);
        s.admit(0, 0, 1500, 10 * MS + 3_600_000, 1_200_000, &mut rng);
        assert_eq!(s.avg, 0.5);
        // ns-2: ptc = 2500 mean packets/s, one per 0.4 ms; idle 1.1 ms gives
        // m = floor(2.75) = 2: 8 x (1/2)^2 = 2, then x 1/2 + 0: 1.
        let mut s = state(&ns2(Red {
            w_q: Some(0.5),
            ..Red::default()
        }));
        s.avg = 8.0;
        s.idle_since = Some(10 * MS);
        s.admit(0, 0, 1500, 10 * MS + 1_100_000, 1_200_000, &mut rng);
        assert_eq!(s.avg, 1.0);
    }

    #[test]
    fn ns2_wait_spaces_drops_between_one_and_two_over_p_b() {
        let rules = Ns2Rules {
            wait: true,
            bytes: false,
            mean_pktsize: 500,
            ptc: 2500.0,
        };
        // p_b = 0.1: nothing while count p_b < 1; then p_b / (2 - count p_b); 1 from 2.
        let pa: Vec<f64> = [9, 10, 15, 20]
            .iter()
            .map(|&c| ns2_spacing(0.1, c, 0, 1500, &rules))
            .collect();
        assert_eq!(pa[0], 0.0);
        assert!(
            close(pa[1], 0.1, 1e-12) && close(pa[2], 0.2, 1e-12),
            "{pa:?}"
        );
        assert_eq!(pa[3], 1.0);
        // Without wait_ (Floyd and Jacobson's form): count 5 gives 0.1 / (1 - 0.5) = 0.2.
        let no_wait = Ns2Rules {
            wait: false,
            ..rules.clone()
        };
        assert!(close(ns2_spacing(0.1, 5, 0, 1500, &no_wait), 0.2, 1e-12));
        // Byte mode, 1500-byte packets of 500-byte means: count 3 is c = 9 (0.9 < 1): 0;
        // count 4 is c = 12: 0.1 / 0.8 = 0.125, times 1500 / 500: 0.375.
        let bytes = Ns2Rules {
            bytes: true,
            ..rules
        };
        assert_eq!(ns2_spacing(0.1, 3, 4500, 1500, &bytes), 0.0);
        assert!(close(ns2_spacing(0.1, 4, 6000, 1500, &bytes), 0.375, 1e-12));
    }

    /// Gaps (arrivals from one drop to the next, the dropped one included) with the average
    /// pinned at `q` (w_q 1) and p_b = 0.05.
    fn gaps(r: Red, q_pkts: usize, q_bytes: u64) -> Vec<u64> {
        let mut rng = ChaCha8Rng::seed_from_u64(7);
        let mut s = state(&r);
        let (mut since, mut out) = (0, Vec::new());
        for _ in 0..40_000 {
            since += 1;
            if !s.admit(q_pkts, q_bytes, 1500, 0, 1_200_000, &mut rng) {
                out.push(since);
                since = 0;
            }
        }
        out.remove(0);
        out
    }

    #[test]
    fn ns2_drop_gaps_lie_between_one_and_two_over_p_b() {
        // Packet mode, thresholds 2 and 12, avg 7: p_b = 0.1 x 5/10 = 0.05. No drop before
        // count 20 (20 x 0.05 = 1), certain at count 39 (0.05 / (2 - 1.95) = 1).
        let r = ns2(Red {
            min_th: Some(2.0),
            max_th: Some(12.0),
            w_q: Some(1.0),
            bytes: Some(false),
            packets: Some(1000),
            ..Red::default()
        });
        let g = gaps(r.clone(), 7, 0);
        assert!(g.len() > 1000);
        assert_eq!(
            (*g.iter().min().unwrap(), *g.iter().max().unwrap()),
            (20, 39)
        );
        // Floyd and Jacobson's spacing at the same p_b: from 1 to 19 (count 19, the arrival
        // included, gives p_a = 0.05 / (1 - 0.95) = 1).
        let fj = gaps(
            Red {
                preset: RedPreset::Classic,
                bytes: None,
                ..r
            },
            7,
            0,
        );
        assert_eq!(
            (*fj.iter().min().unwrap(), *fj.iter().max().unwrap()),
            (1, 19)
        );
        // Byte mode (thresholds 1000 and 6000 bytes, avg 3500: p_b 0.05): c = 3 count, so
        // no drop before count 7 (c p_b = 1.05) and certain at count 13 (c p_b = 1.95).
        let b = gaps(
            ns2(Red {
                min_th: Some(2.0),
                max_th: Some(12.0),
                w_q: Some(1.0),
                packets: Some(1000),
                ..Red::default()
            }),
            3,
            3500,
        );
        assert_eq!(
            (*b.iter().min().unwrap(), *b.iter().max().unwrap()),
            (7, 13)
        );
    }

    #[test]
    fn ns2_admits_the_first_arrival_above_min_th_and_arrivals_to_a_near_empty_queue() {
        let mut rng = ChaCha8Rng::seed_from_u64(1);
        // Average pinned far above 2 max_th (p_b = 1), packet mode.
        let mut s = state(&ns2(Red {
            min_th: Some(2.0),
            max_th: Some(4.0),
            w_q: Some(1.0),
            bytes: Some(false),
            ..Red::default()
        }));
        // The first arrival with the average above min_th is admitted and restarts count;
        // the next one is dropped (p_b = 1).
        assert!(s.admit(50, 0, 1500, 0, 1, &mut rng), "first above min_th");
        assert!(!s.admit(50, 0, 1500, 0, 1, &mut rng), "then p_b = 1");
        // With the average held at 50: one packet waiting is never early-dropped, and the
        // next arrival to a longer queue is again a first one.
        let mut s2 = s.clone();
        s2.p.w_q = 1e-9;
        assert!(
            s2.admit(1, 0, 1500, 0, 1, &mut rng),
            "qlen 1: never early-dropped"
        );
        assert!(
            s2.admit(2, 0, 1500, 0, 1, &mut rng),
            "first again after qlen <= 1"
        );
        assert!(!s2.admit(2, 0, 1500, 0, 1, &mut rng));
    }
}
