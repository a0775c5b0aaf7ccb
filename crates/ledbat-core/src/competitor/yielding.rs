//! Yielding (module documentation of [`crate::competitor`]): a window of one packet paced
//! at `yield_share C`, probes at `probe_share C` every `probe_interval`, and the two
//! findings that end it: room found twice (the competitor left) or the others backing off
//! after two probes in a row (a flow of our kind).

use super::{
    Action, Competitor, Observation, State, AFTERMATH_RTTS, HIGH_MEMORY, KIN_CONFIRM,
    PROBE_GIVE_UP, PROBE_LEN,
};
use crate::time::{Duration, Instant};

/// A queue a probe pushes to (1 + push_share) TARGET, where a flow of our kind may be
/// holding it or ramping back to it: a quarter of TARGET to 1.2 TARGET.
fn probe_range(qd: Duration, target: Duration) -> bool {
    let (q, t) = (qd.as_nanos(), target.as_nanos());
    q * 4 >= t && q * 5 <= t * 6
}

/// Above [`probe_range`]: more than 1.2 TARGET.
fn above_probe_range(qd: Duration, target: Duration) -> bool {
    qd.as_nanos() * 5 > target.as_nanos() * 6
}

/// The wait from the end of a probe of length `len`, whose push lasted `push_len`, to the
/// next: `probe_interval` for a probe as long as its push; for one that
/// [`Competitor::standing_probe_rtts`] lengthened, `probe_interval` scaled by the same
/// factor, at most [`KIN_CONFIRM`] / 2:
///
/// ```text
/// gap = min(probe_interval len / push_len, max(probe_interval, KIN_CONFIRM / 2))
/// ```
///
/// (floored to the nanosecond). The yield's probes then take about the share of the link
/// that probes of their push's length take: at a base RTT of 0 ms beside bbr every probe
/// begins from bbr's standing queue, and eight RTTs every `probe_interval` cost the
/// yielding download about 3 % of the link over the push's length (docs/tcp/README.md,
/// "`rtt_fall` where it had not been measured"). The bound keeps two probes' falls, which
/// tell a flow of our kind, within [`KIN_CONFIRM`] of each other.
fn successor_gap(probe_interval: Duration, len: Duration, push_len: Duration) -> Duration {
    if len <= push_len || push_len.is_zero() {
        return probe_interval;
    }
    let ns =
        probe_interval.as_nanos() as u128 * len.as_nanos() as u128 / push_len.as_nanos() as u128;
    let cap = probe_interval.max(KIN_CONFIRM / 2).as_nanos();
    Duration::from_nanos(ns.min(cap as u128) as u64)
}

/// A probe while yielding.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(super) struct Probe {
    pub(super) start: Instant,
    pub(super) end: Instant,
    pub(super) give_up: Instant,
    /// Queuing delay when it began.
    pub(super) from: Duration,
    /// Whether it began from a standing queue (with busy_above_eta, above eta): it finds no
    /// room and only pushes ([`Competitor::pushing_probe`]).
    pub(super) standing: bool,
    /// The length of its push: `end - start` but for one from a standing queue lengthened
    /// by `standing_probe_rtts`.
    pub(super) push_len: Duration,
    /// Largest queuing delay over the ACKs of its packets.
    pub(super) peak: Option<Duration>,
    /// When the last of its packets was acknowledged.
    pub(super) acked: Option<Instant>,
    /// Smallest queuing delay in the AFTERMATH_RTTS after that.
    pub(super) after: Option<Duration>,
}

impl Competitor {
    /// The length of the push of the probe sending at `now` when it began from a standing
    /// queue (see [`Competitor::busy_above_eta`]): such a probe has no room to find and only
    /// pushes the queue, for a flow of our kind to back off from. The probe itself may last
    /// longer ([`Competitor::standing_probe_rtts`]). None otherwise.
    pub fn pushing_probe(&self, now: Instant) -> Option<Duration> {
        match self.state {
            State::Yielding { probe: Some(p), .. } if now < p.end && p.standing => Some(p.push_len),
            _ => None,
        }
    }

    /// While yielding: the pacing rate (bytes/s) and the window (bytes) the flow must keep
    /// to at `now`, a probe's or the yield's. None when not yielding.
    pub fn limits(&self, now: Instant, mss: f64, rtt: Duration) -> Option<(f64, f64)> {
        let State::Yielding { probe, .. } = self.state else {
            return None;
        };
        let c = self.path.get().max(mss);
        match probe {
            Some(p) if now < p.end => {
                let rate = self.cfg.probe_share * c;
                let len = p.end.saturating_since(p.start);
                Some((rate, (rate * (rtt + len).as_secs_f64()).max(2.0 * mss)))
            }
            _ => Some((self.cfg.yield_share * c, mss)),
        }
    }

    /// Starts a probe when one is due while yielding, gives up one whose ACKs did not come.
    pub(super) fn poll_probe(&mut self, now: Instant, qd: Duration, rtt: Duration) {
        let State::Yielding {
            next_probe,
            probe,
            room_at,
            high_at,
            ..
        } = &mut self.state
        else {
            return;
        };
        match probe {
            None if now >= *next_probe => {
                // Long enough, at probe_share of the path's rate into a busy link, to raise a
                // queue held near TARGET to (1 + push_share) TARGET: a LEDBAT++ flow holding
                // it backs off from that.
                // (From a quarter of TARGET: a queue that may be a flow of our kind's ramp
                // gets the same push.)
                let t = self.push_target.unwrap_or(Duration::ZERO);
                let near = probe_range(qd, t);
                // With busy_above_eta a probe from a queue above eta finds no room whatever
                // it adds (see `on_ack`); only one near TARGET can still tell our kind by
                // its backing off. The others are not run: they would only cost the
                // competitor a share of its link (up to 6 RTTs at probe_share each
                // probe_interval, a third of the link behind a loss-based download).
                // Nor one near TARGET when the queue stood above 1.2 TARGET in the last
                // HIGH_MEMORY: our kind holds it at TARGET, and a loss-based download's
                // sawtooth passes through the range after each loss.
                let high = high_at.is_some_and(|h| now.saturating_since(h) < HIGH_MEMORY);
                let standing = self.busy_above_eta && self.eta.is_some_and(|e| qd > e);
                if standing && (!near || high) {
                    *next_probe = now + self.cfg.probe_interval;
                    *room_at = None;
                    return;
                }
                let rise = crate::slowdown::scale(t, 1.0 + self.cfg.push_share).saturating_sub(qd);
                let len = if near {
                    PROBE_LEN.max(crate::slowdown::scale(rise, 1.0 / self.cfg.probe_share))
                } else {
                    PROBE_LEN
                };
                // probe_rtts is for a probe that may find room; one from a standing queue
                // cannot (see `on_ack`) and only pushes: the sender's length does that.
                let len = if self.probe_rtts > 0.0 && !standing {
                    len.max(crate::slowdown::scale(rtt, self.probe_rtts))
                } else {
                    len
                };
                // standing_probe_rtts: one from a standing queue lasts long enough for the
                // owner's window to open, with its push's length kept for the window's size.
                let push_len = len;
                let len = if self.standing_probe_rtts > 0.0 && standing {
                    len.max(crate::slowdown::scale(rtt, self.standing_probe_rtts))
                } else {
                    len
                };
                let end = now + len;
                *probe = Some(Probe {
                    start: now,
                    end,
                    give_up: end + (rtt * 4).max(PROBE_GIVE_UP),
                    from: qd,
                    standing,
                    push_len,
                    peak: None,
                    acked: None,
                    after: None,
                });
            }
            Some(p) if now >= p.give_up => {
                // No ACK of packets sent after it (the receiver stalled): no evidence.
                *probe = None;
                *room_at = None;
                *next_probe = now + self.cfg.probe_interval;
            }
            _ => {}
        }
    }

    /// An ACK while yielding, with the path's rate `c`: a probe's queue, its aftermath, and
    /// whether the competitor left or the others are of our kind.
    pub(super) fn on_ack_yielding(&mut self, now: Instant, o: &Observation, c: f64) -> Action {
        let State::Yielding {
            next_probe,
            probe,
            room_at,
            backed_at,
            falls,
            drained_last,
            high_at,
        } = &mut self.state
        else {
            return Action::None;
        };
        let Some(mut p) = *probe else {
            // The queue drained: the competitor may have left; probe at once.
            if o.qd <= o.eta && self.last_qd.is_some_and(|q| q > o.eta) {
                *next_probe = (*next_probe).min(now);
            }
            if o.qd <= o.eta {
                *high_at = None;
            } else if above_probe_range(o.qd, o.target) {
                *high_at = Some(now);
            }
            self.last_qd = Some(o.qd);
            return Action::None;
        };
        if o.newest_sent >= p.start && o.newest_sent < p.end {
            p.peak = Some(p.peak.map_or(o.qd, |m| m.max(o.qd)));
            *probe = Some(p);
            return Action::None;
        }
        if o.newest_sent < p.end {
            return Action::None;
        }
        // The probe's packets are all acknowledged; for AFTERMATH_RTTS more, does
        // the other traffic back off from the queue the probe added?
        let acked = *p.acked.get_or_insert(now);
        p.after = Some(p.after.map_or(o.qd, |m| m.min(o.qd)));
        // With rtt_fall, also the time the queue the probe added takes to drain at the
        // link's rate: the others' cut shows only once it has.
        let drain = match p.peak {
            Some(m) if self.rtt_fall => m.saturating_sub(p.from),
            _ => Duration::ZERO,
        };
        if now.saturating_since(acked) < crate::slowdown::scale(o.rtt, AFTERMATH_RTTS) + drain {
            *probe = Some(p);
            return Action::None;
        }
        *probe = None;
        let len = p.end.saturating_since(p.start);
        *next_probe = now + successor_gap(self.cfg.probe_interval, len, p.push_len);
        let growth = p.peak.map(|m| m.saturating_sub(p.from));
        // A link kept full by a flow pacing at its rate queues all the probe adds,
        // probe_share * len; a window-limited one part of it. A quarter of it is busy.
        let full = crate::slowdown::scale(len, self.cfg.probe_share * 0.25);
        let t = o.target.as_nanos();
        let from = p.from.as_nanos();
        let after = p.after.unwrap_or(p.from).as_nanos();
        // A flow that backs off from the probe's queue twice in a row is one of our
        // kind (a latecomer whose slow start looked like a competitor): share with
        // it as LEDBAT++ does. Backing off: the queue falls by push_drop * TARGET,
        // or drains to nothing (a LEDBAT++ flow that joined the slowdown it read in
        // the probe's end). Once is not enough: BBR's queue falls at times of its
        // own (the window it sets after a ProbeRTT) and drains in its ProbeRTT, a
        // competitor's drains when it leaves (which the room test below finds);
        // only our kind backs off after each probe. Nor a drain and then a fall
        // short of one: one ProbeRTT empties the queue after one probe and leaves
        // BBR's queue lower after the next; our kind falls a third time, BBR's
        // queue stands by then. An empty queue between two falls short of a drain
        // proves nothing: our kind's periodic slowdowns empty it too.
        // With rtt_fall, push_drop of the RTT the probe began at when that is less: our
        // kind's cut of a share of its window, at a short RTT and a low queue.
        let scale = if self.rtt_fall {
            o.target.min(o.base_rtt + p.from)
        } else {
            o.target
        };
        let drop = crate::slowdown::scale(scale, self.cfg.push_drop).as_nanos();
        if probe_range(p.from, o.target) {
            let drained = after <= o.eta.as_nanos();
            let fell = drained || after + drop <= from;
            let in_row = backed_at.is_some_and(|b| now.saturating_since(b) <= KIN_CONFIRM);
            let need = if fell && in_row && *drained_last && !drained {
                3
            } else {
                2
            };
            if !fell {
                *falls = 0;
            } else if in_row {
                *falls += 1;
            } else {
                *falls = 1;
            }
            *backed_at = fell.then_some(now);
            *drained_last = drained;
            if *falls >= need {
                self.kin_found(now);
                return Action::Resume(0);
            }
        }
        // A queue at half TARGET or more when it began: the link was busy anyway
        // (a full FIFO has no room to show a probe's growth); with busy_above_eta,
        // any queue above eta (ours was at its floor).
        let standing = self.busy_above_eta && from > o.eta.as_nanos();
        if from * 2 >= t || standing || growth.is_none_or(|g| g >= full) {
            *room_at = None;
            return Action::None;
        }
        match *room_at {
            Some(first) if now.saturating_since(first) >= self.cfg.confirm => {
                self.state = State::Watching {
                    suspect_since: None,
                    positives: 0,
                    first_positive: None,
                    quiet_until: Some(now + self.cfg.quiet),
                };
                let bdp = c * o.rtt.saturating_sub(o.qd).as_secs_f64();
                Action::Resume(bdp as u64)
            }
            Some(_) => {
                *next_probe = now + self.cfg.confirm;
                Action::None
            }
            None => {
                *room_at = Some(now);
                *next_probe = now + self.cfg.confirm;
                Action::None
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::competitor::test_util::*;
    use crate::competitor::*;

    /// A detection yielding from `t` ms with C known, its first probe due at `t` + 1 s.
    fn yielding_at(t: u64) -> Competitor {
        let mut c = on();
        learn_rate(&mut c, 0);
        c.state = State::yielding(at(t + 1000));
        c
    }

    /// A probe starting at `t` ms (when the queue is `from` ms) whose ACKs show `peak` ms of
    /// queue; its aftermath at `after` ms. Returns the action of the ACK that ends it.
    fn probe(c: &mut Competitor, t: u64, from: u64, peak: u64, after: u64) -> Action {
        c.on_ack(at(t), &obs(from, FlowPhase::Other, None, at(t - 100)));
        assert!(c.probing(at(t)), "a probe from {t} ms");
        // PROBE_LEN (30 ms) at half of C: 0.5 x 1.25 MB/s, a window of rate x (RTT + 30 ms).
        let (rate, window) = c.limits(at(t + 10), MSS, ms(100)).unwrap();
        assert!((rate - 625_000.0).abs() < 1e-6 && (window - 81_250.0).abs() < 1e-6);
        assert!(!c.probing(at(t + 30)));
        c.on_ack(at(t + 100), &obs(peak, FlowPhase::Other, None, at(t + 10)));
        c.on_ack(at(t + 130), &obs(after, FlowPhase::Other, None, at(t + 30)));
        // The aftermath lasts AFTERMATH_RTTS (200 ms) from the first ACK beyond the probe.
        c.on_ack(
            at(t + 250),
            &obs(after, FlowPhase::Other, None, at(t + 150)),
        );
        c.on_ack(
            at(t + 330),
            &obs(after, FlowPhase::Other, None, at(t + 230)),
        )
    }

    #[test]
    fn probes_that_find_room_twice_half_a_second_apart_end_the_yield() {
        let mut c = yielding_at(0);
        // Growth 1 ms < 0.5 x 30 ms / 4 = 3.75 ms: room, confirmed 500 ms later.
        assert_eq!(probe(&mut c, 1000, 0, 1, 0), Action::None);
        assert!(c.yielding());
        assert_eq!(c.next_tick(), Some(at(1830)));
        match probe(&mut c, 1830, 0, 1, 0) {
            // Slow start up to C x (RTT 100 ms - qd 0) = 125 000 B.
            Action::Resume(bdp) => assert!(bdp.abs_diff(125_000) <= 1, "{bdp}"),
            a => panic!("{a:?}"),
        }
        assert!(!c.yielding());
    }

    #[test]
    fn a_probe_whose_queue_stays_keeps_the_flow_yielding() {
        let mut c = yielding_at(0);
        // From 5 ms of queue the probe's 15 ms show in full: a link kept busy by a flow that
        // does not leave room. Then room once, then busy again: the count starts over.
        assert_eq!(probe(&mut c, 1000, 5, 20, 5), Action::None);
        // Busy: the next probe 1 s after the evaluation (1.33 s); room: 0.5 s after it.
        assert_eq!(probe(&mut c, 2330, 0, 1, 0), Action::None);
        // 80 ms of queue when it begins (TARGET / 2 or more, and above 1.2 TARGET, so a
        // probe of the standard length): busy whatever it adds.
        assert_eq!(probe(&mut c, 3160, 80, 80, 80), Action::None);
        assert_eq!(probe(&mut c, 4490, 0, 1, 0), Action::None);
        assert!(c.yielding(), "room once since the last busy probe");
    }

    #[test]
    fn with_busy_above_eta_a_probe_due_on_a_standing_queue_is_not_run() {
        // From 5 ms of queue (above eta 2 ms, under TARGET / 4) a probe that adds 1 ms:
        // room for the sender's rule, twice and the yield ends. For an owner whose window
        // is at its floor (busy_above_eta) the 5 ms are the others': no probe (it could
        // find no room), the next due a probe_interval later; nor from 80 ms (above 1.2
        // TARGET).
        let mut sender = yielding_at(0);
        assert_eq!(probe(&mut sender, 1000, 5, 6, 5), Action::None);
        assert!(matches!(
            probe(&mut sender, 1830, 5, 6, 5),
            Action::Resume(_)
        ));
        let mut receiver = yielding_at(0);
        receiver.busy_above_eta = true;
        for (t, qd) in [(1000, 5), (2000, 80)] {
            receiver.on_ack(at(t), &obs(qd, FlowPhase::Other, None, at(t - 100)));
            assert!(!receiver.probing(at(t)), "{qd} ms");
            assert_eq!(receiver.next_tick(), Some(at(t + 1000)));
        }
        // The queue at eta or under when it is due: probes as the sender's, room twice.
        assert_eq!(probe(&mut receiver, 3000, 2, 3, 2), Action::None);
        assert!(matches!(
            probe(&mut receiver, 3830, 2, 3, 2),
            Action::Resume(_)
        ));
    }

    #[test]
    fn with_probe_rtts_only_a_probe_that_may_find_room_lasts_that_many_rtts() {
        // probe_rtts 6 at an RTT of 100 ms: 600 ms. From 50 ms of queue (near TARGET 60 ms)
        // the sender's length: until the queue would reach 1.3 x 60 = 78 ms at half of C,
        // (78 - 50) / 0.5 = 56 ms. With busy_above_eta that queue stands above eta (2 ms):
        // no room to find, the 56 ms; without it, the 600. From eta, 600 either way. Only
        // the first only pushes (pushing_probe: its length while it runs).
        for (above_eta, from, len) in [
            (true, 50, 56),
            (false, 50, 600),
            (true, 2, 600),
            (false, 2, 600),
        ] {
            let mut c = yielding_at(0).probe_rtts(6.0);
            c.busy_above_eta = above_eta;
            c.on_ack(at(1000), &obs(from, FlowPhase::Other, None, at(900)));
            assert!(c.probing(at(1000)), "{above_eta} {from}");
            assert_eq!(c.next_tick(), Some(at(1000 + len)), "{above_eta} {from}");
            let pushes = (above_eta && from == 50).then(|| Duration::from_millis(len));
            assert_eq!(c.pushing_probe(at(1000)), pushes, "{above_eta} {from}");
            assert_eq!(c.pushing_probe(at(1000 + len - 1)), pushes);
            assert_eq!(c.pushing_probe(at(1000 + len)), None, "ended");
        }
    }

    #[test]
    fn with_standing_probe_rtts_a_pushing_probe_lasts_that_many_rtts_with_its_push_length() {
        // standing_probe_rtts 4 at an RTT of 100 ms: 400 ms. From 50 ms of queue above eta
        // (2 ms) the push is the sender's 56 ms (as above), the probe 400 ms, and
        // pushing_probe gives 56 ms all through. From eta (it may find room) probe_rtts
        // alone: 600 ms, no push. Without busy_above_eta no probe is standing: 600 ms.
        for (above_eta, from, len, pushes) in [
            (true, 50, 400, Some(56)),
            (true, 2, 600, None),
            (false, 50, 600, None),
        ] {
            let mut c = yielding_at(0).probe_rtts(6.0).standing_probe_rtts(4.0);
            c.busy_above_eta = above_eta;
            c.on_ack(at(1000), &obs(from, FlowPhase::Other, None, at(900)));
            assert_eq!(c.next_tick(), Some(at(1000 + len)), "{above_eta} {from}");
            let pushes = pushes.map(Duration::from_millis);
            assert_eq!(c.pushing_probe(at(1000)), pushes, "{above_eta} {from}");
            assert_eq!(c.pushing_probe(at(1000 + len - 1)), pushes);
            assert!(c.probing(at(1000 + len - 1)));
            assert_eq!(c.pushing_probe(at(1000 + len)), None, "ended");
        }
        // A push longer than the RTTs asked for keeps its own length: half an RTT is 50 ms.
        let mut c = yielding_at(0).standing_probe_rtts(0.5);
        c.busy_above_eta = true;
        c.on_ack(at(1000), &obs(50, FlowPhase::Other, None, at(900)));
        assert_eq!(c.next_tick(), Some(at(1056)));
        assert_eq!(c.pushing_probe(at(1000)), Some(Duration::from_millis(56)));
    }

    #[test]
    fn a_probe_standing_probe_rtts_lengthened_spaces_its_successor_by_the_same_factor() {
        // From 50 ms of queue above eta the push is 56 ms (as above). standing_probe_rtts 1
        // at an RTT of 100 ms: a probe of 100 ms, and the next due 1 s x 100 / 56 =
        // 1.785714285 s (floored to the ns) after the ACK that judged it; 4 RTTs (400 ms):
        // 7.1 s, bounded by KIN_CONFIRM / 2 = 2.5 s; none, or a probe from eta (probe_rtts
        // 6: 600 ms, as long as its push): 1 s.
        for (k, from, len, gap_ns) in [
            (1.0, 50, 100, 1_785_714_285),
            (4.0, 50, 400, 2_500_000_000),
            (0.0, 50, 56, 1_000_000_000),
            (4.0, 2, 600, 1_000_000_000),
        ] {
            let mut c = yielding_at(0).probe_rtts(6.0).standing_probe_rtts(k);
            c.busy_above_eta = true;
            c.on_ack(at(1000), &obs(from, FlowPhase::Other, None, at(900)));
            assert_eq!(c.next_tick(), Some(at(1000 + len)), "{k} {from}");
            let end = 1000 + len;
            // The first ACK of a packet sent at the probe's end, then two RTTs later.
            c.on_ack(at(end + 100), &obs(from, FlowPhase::Other, None, at(end)));
            let a = c.on_ack(
                at(end + 300),
                &obs(from, FlowPhase::Other, None, at(end + 200)),
            );
            assert_eq!(a, Action::None);
            let judged = at(end + 300);
            assert_eq!(
                c.next_tick(),
                Some(judged + Duration::from_nanos(gap_ns)),
                "{k} {from}"
            );
        }
    }

    #[test]
    fn with_busy_above_eta_no_probe_near_target_after_the_queue_stood_above_it() {
        // A loss-based download's sawtooth: 100 ms of queue (above 1.2 TARGET = 72 ms) at
        // 0.5 s, then 50 to 60 ms (near TARGET). The sender probes when due, at 1 s; the
        // receiver skips the probes due at 1 to 5 s (our kind would not have let the queue
        // stand at 100 ms HIGH_MEMORY ago) and runs the one due at 6 s.
        for above_eta in [false, true] {
            let mut c = yielding_at(0);
            c.busy_above_eta = above_eta;
            c.on_ack(at(500), &obs(100, FlowPhase::Other, None, at(400)));
            c.on_ack(at(1000), &obs(50, FlowPhase::Other, None, at(900)));
            assert_eq!(
                c.probing(at(1000)),
                !above_eta,
                "busy_above_eta {above_eta}"
            );
            if above_eta {
                for t in [2000, 3000, 4000, 5000] {
                    assert_eq!(c.next_tick(), Some(at(t)));
                    c.on_ack(at(t), &obs(60, FlowPhase::Other, None, at(t - 100)));
                    assert!(!c.probing(at(t)), "{t}");
                }
                c.on_ack(at(6000), &obs(50, FlowPhase::Other, None, at(5900)));
                assert!(c.probing(at(6000)));
            }
        }
        // A queue that drains to eta after standing high: the probe due then runs.
        let mut c = yielding_at(0);
        c.busy_above_eta = true;
        c.on_ack(at(500), &obs(100, FlowPhase::Other, None, at(400)));
        c.on_ack(at(600), &obs(2, FlowPhase::Other, None, at(500)));
        // (the drain made a probe due at once; it runs from the next ACK, from eta)
        c.on_ack(at(610), &obs(2, FlowPhase::Other, None, at(510)));
        assert!(c.probing(at(610)));
        // ... and, when the next ACK comes with the queue near TARGET again, from there:
        // the drain cleared what stood before it.
        let mut c = yielding_at(0);
        c.busy_above_eta = true;
        c.on_ack(at(500), &obs(100, FlowPhase::Other, None, at(400)));
        c.on_ack(at(600), &obs(2, FlowPhase::Other, None, at(500)));
        c.on_ack(at(1000), &obs(50, FlowPhase::Other, None, at(900)));
        assert!(c.probing(at(1000)));
    }

    #[test]
    fn with_busy_above_eta_a_probe_near_target_runs_and_its_standing_start_is_busy() {
        // 20 ms of queue when due (TARGET / 4 = 15 ms: near, so the probe runs, to tell our
        // kind); it adds 1 ms and the queue stays. Room for the sender's rule (under
        // TARGET / 2 when it began): twice, and the yield ends; busy for the receiver's
        // (above eta): it keeps yielding.
        for (above_eta, yielding) in [(false, false), (true, true)] {
            let mut c = yielding_at(0);
            c.busy_above_eta = above_eta;
            let mut due = at(1000);
            for _ in 0..2 {
                c.on_ack(due, &obs(20, FlowPhase::Other, None, due - ms(100)));
                assert!(c.probing(due));
                let end = c.next_tick().unwrap();
                c.on_ack(due + ms(20), &obs(21, FlowPhase::Other, None, due + ms(1)));
                // its aftermath: ACKs of packets sent after its end, for AFTERMATH_RTTS
                let mut t = end + ms(100);
                while t <= end + ms(400) {
                    c.on_ack(t, &obs(20, FlowPhase::Other, None, end + ms(1)));
                    t += ms(100);
                }
                match c.next_tick() {
                    Some(t) => due = t,
                    None => break, // resumed
                }
            }
            assert_eq!(c.yielding(), yielding, "busy_above_eta {above_eta}");
        }
    }

    #[test]
    fn a_probe_near_target_runs_until_it_would_raise_the_queue_to_1_3_target() {
        let mut c = yielding_at(0);
        // From 60 ms: until the probe would raise the queue to 1.3 x 60 = 78 ms, 18 ms at half
        // of C: 36 ms. From 10 ms (below TARGET / 4): the standard 30 ms.
        c.on_ack(at(1000), &obs(60, FlowPhase::Other, None, at(900)));
        let State::Yielding { probe: Some(p), .. } = c.state else {
            panic!("no probe");
        };
        assert_eq!(p.end.saturating_since(p.start), ms(36));
        let mut c = yielding_at(0);
        c.on_ack(at(1000), &obs(10, FlowPhase::Other, None, at(900)));
        let State::Yielding { probe: Some(p), .. } = c.state else {
            panic!("no probe");
        };
        assert_eq!(p.end.saturating_since(p.start), PROBE_LEN);
    }

    /// A probe from a queue of 60 ms at `t` ms (36 ms long) whose aftermath falls to `after`
    /// ms; returns the action of the ACK that ends it, 345 ms after `t`.
    fn probe_near_target(c: &mut Competitor, t: u64, after: u64) -> Action {
        c.on_ack(at(t), &obs(60, FlowPhase::Other, None, at(t - 100)));
        assert!(c.probing(at(t)), "a probe from {t} ms");
        c.on_ack(at(t + 100), &obs(75, FlowPhase::Other, None, at(t + 10)));
        c.on_ack(at(t + 140), &obs(after, FlowPhase::Other, None, at(t + 36)));
        c.on_ack(
            at(t + 250),
            &obs(after, FlowPhase::Other, None, at(t + 150)),
        );
        c.on_ack(
            at(t + 345),
            &obs(after, FlowPhase::Other, None, at(t + 245)),
        )
    }

    #[test]
    fn a_queue_near_target_that_falls_after_two_probes_is_a_flow_of_our_kind() {
        let mut c = yielding_at(0);
        // Falls to 45 ms (by 15 >= push_drop x TARGET = 9 ms): BBR's window settling after a
        // ProbeRTT could do that once; busy (the probe began at TARGET / 2 or more). The
        // next probe 1 s after the evaluation.
        assert_eq!(probe_near_target(&mut c, 1000, 45), Action::None);
        assert!(c.yielding());
        assert_eq!(c.next_tick(), Some(at(2345)));
        // Again 1.345 s later (<= KIN_CONFIRM): a flow that backs off after each probe.
        assert_eq!(probe_near_target(&mut c, 2345, 45), Action::Resume(0));
        assert!(!c.yielding());
    }

    #[test]
    fn a_queue_that_drains_after_two_probes_near_target_is_a_flow_of_our_kind() {
        let mut c = yielding_at(0);
        // Drained to 0 ms: a LEDBAT++ flow that joined the slowdown it read in the probe's
        // end, or a ProbeRTT; the second time, our kind (BBR's ProbeRTT comes every 10 s).
        assert_eq!(probe_near_target(&mut c, 1000, 0), Action::None);
        assert_eq!(probe_near_target(&mut c, 2345, 0), Action::Resume(0));
    }

    #[test]
    fn two_falls_with_the_queue_emptied_between_them_are_a_flow_of_our_kind() {
        let mut c = yielding_at(0);
        // A fall to 45 ms (by 15 >= 9 ms); then the queue drains between the probes (an ACK
        // at 0 ms: a periodic slowdown of our kind's); the next probe starts at once, from
        // an empty queue (cannot tell: busy, its 15 ms show in full).
        assert_eq!(probe_near_target(&mut c, 1000, 45), Action::None);
        c.on_ack(at(1350), &obs(45, FlowPhase::Other, None, at(1250)));
        c.on_ack(at(1400), &obs(0, FlowPhase::Other, None, at(1300)));
        assert_eq!(c.next_tick(), Some(at(1400)));
        assert_eq!(probe(&mut c, 1405, 0, 15, 0), Action::None);
        // Probe 1 s after that one was evaluated (1735 ms): falls to 45 ms again, 1.735 s
        // after the first (<= KIN_CONFIRM). Neither fall drained: our kind.
        assert_eq!(probe_near_target(&mut c, 2735, 45), Action::Resume(0));
        assert!(!c.yielding());
    }

    #[test]
    fn a_fall_short_of_a_drain_right_after_a_drain_needs_a_third_fall() {
        let mut c = yielding_at(0);
        // A drain after the first probe (a ProbeRTT, or our kind joining the slowdown it
        // read), then a fall to 45 ms 1.345 s later: BBR's queue settling lower could do
        // that after its ProbeRTT; not yet our kind.
        assert_eq!(probe_near_target(&mut c, 1000, 0), Action::None);
        assert_eq!(probe_near_target(&mut c, 2345, 45), Action::None);
        assert!(c.yielding());
        // A third fall in the row, 1.345 s later: a flow that backs off after each probe.
        assert_eq!(probe_near_target(&mut c, 3690, 45), Action::Resume(0));
    }

    #[test]
    fn a_queue_that_drains_after_two_probes_from_half_target_is_a_flow_of_our_kind() {
        let mut c = yielding_at(0);
        for (t, want) in [(1000, Action::None), (2500, Action::Resume(0))] {
            // From 30 ms: the probe runs until it would raise the queue to 78 ms, 48 ms at
            // half of C: 96 ms. Its ACKs show 60 ms; after it the queue drains to 0 (<= eta
            // 2 ms): a flow that joined the slowdown it read in the probe's end.
            c.on_ack(at(t), &obs(30, FlowPhase::Other, None, at(t - 100)));
            let State::Yielding { probe: Some(p), .. } = c.state else {
                panic!("no probe at {t}");
            };
            assert_eq!(p.end.saturating_since(p.start), ms(96));
            c.on_ack(at(t + 150), &obs(60, FlowPhase::Other, None, at(t + 90)));
            c.on_ack(at(t + 200), &obs(0, FlowPhase::Other, None, at(t + 100)));
            c.on_ack(at(t + 300), &obs(0, FlowPhase::Other, None, at(t + 200)));
            assert_eq!(
                c.on_ack(at(t + 400), &obs(0, FlowPhase::Other, None, at(t + 300))),
                want,
                "{t}"
            );
        }
        assert!(!c.yielding());
    }

    /// A probe from `from` ms at `t` ms, hand-driven: its ACKs show `peak` ms of queue, its
    /// aftermath `after` ms. With `from` in 15..=72 ms it runs until it would raise the
    /// queue to 78 ms, (78 - from) x 2 ms (30 ms at least); its last ACK comes at `t` + 100
    /// ms + that, the aftermath ends AFTERMATH_RTTS (200 ms) later. Returns that ACK's
    /// action.
    fn probe_from(c: &mut Competitor, t: u64, from: u64, peak: u64, after: u64) -> Action {
        c.on_ack(at(t), &obs(from, FlowPhase::Other, None, at(t - 100)));
        let State::Yielding { probe: Some(p), .. } = c.state else {
            panic!("no probe at {t}");
        };
        let len = p.end.saturating_since(p.start).as_millis();
        c.on_ack(at(t + 100), &obs(peak, FlowPhase::Other, None, at(t + 1)));
        let acked = t + 100 + len;
        c.on_ack(at(acked), &obs(after, FlowPhase::Other, None, at(t + len)));
        c.on_ack(
            at(acked + 100),
            &obs(after, FlowPhase::Other, None, at(t + len + 100)),
        );
        c.on_ack(
            at(acked + 200),
            &obs(after, FlowPhase::Other, None, at(t + len + 200)),
        )
    }

    #[test]
    fn a_probertt_that_empties_the_queue_and_settles_it_lower_is_not_a_flow_of_our_kind() {
        // The bed's trace beside BBR at 20 ms (docs/sidebyside/default.md): yielding, BBR's
        // queue at 66 ms (the last ACK before the probe says so).
        let mut c = yielding_at(0);
        c.on_ack(at(900), &obs(66, FlowPhase::Other, None, at(800)));
        // Probe 1 from 66 ms (in 15..=72 ms: one that can tell), 30 ms long ((78 - 66) x 2 =
        // 24 < 30); BBR's ProbeRTT empties the queue in its aftermath: a fall (drained),
        // evaluated at 1000 + 100 + 30 + 200 = 1330 ms. Busy (66 >= TARGET / 2).
        assert_eq!(probe_from(&mut c, 1000, 66, 80, 0), Action::None);
        assert_eq!(c.next_tick(), Some(at(2330)));
        // The queue drained below eta after 66 ms: probe at once (the next ACK starts it).
        c.on_ack(at(1340), &obs(0, FlowPhase::Other, None, at(1240)));
        assert_eq!(c.next_tick(), Some(at(1340)));
        // Probe 2 from an empty queue (below TARGET / 4: cannot tell); it adds 1 ms, room
        // (< 3.75 ms), evaluated at 1345 + 330 = 1675 ms; the next one `confirm` later.
        assert_eq!(probe(&mut c, 1345, 0, 1, 0), Action::None);
        assert_eq!(c.next_tick(), Some(at(2175)));
        // Probe 3 from 42 ms (72 ms long): BBR's queue settles 13 ms lower after its
        // ProbeRTT (>= push_drop x TARGET = 9 ms): a second fall, 0.9 s after the first.
        // Two falls in a row, the first a drain and this one short of it: not yet our kind
        // (the flow used to resume here).
        assert_eq!(probe_from(&mut c, 2175, 42, 70, 29), Action::None);
        assert!(c.yielding());
        // Evaluated at 2175 + 100 + 72 + 200 = 2547 ms; probe 4 a second later, from 29 ms
        // (98 ms long): BBR's queue stands. The row is broken.
        assert_eq!(c.next_tick(), Some(at(3547)));
        assert_eq!(probe_from(&mut c, 3547, 29, 45, 29), Action::None);
        assert!(c.yielding());
        // Probe 5 a second after probe 4 was evaluated (3945 ms): a fall starts a new row.
        assert_eq!(c.next_tick(), Some(at(4945)));
        assert_eq!(probe_near_target(&mut c, 4945, 45), Action::None);
        assert!(c.yielding());
    }

    #[test]
    fn a_queue_that_falls_less_than_push_drop_is_no_finding() {
        let mut c = yielding_at(0);
        // From 30 ms to 25 ms after each probe, twice: 5 ms < push_drop x TARGET = 9 ms (BBR's
        // 3/4 phase at a base RTT of 20 ms takes a quarter of 20 ms away). Busy: the queue
        // began at TARGET / 2.
        for t in [1000, 2500] {
            c.on_ack(at(t), &obs(30, FlowPhase::Other, None, at(t - 100)));
            c.on_ack(at(t + 150), &obs(60, FlowPhase::Other, None, at(t + 90)));
            c.on_ack(at(t + 200), &obs(25, FlowPhase::Other, None, at(t + 100)));
            c.on_ack(at(t + 300), &obs(25, FlowPhase::Other, None, at(t + 200)));
            let a = c.on_ack(at(t + 400), &obs(25, FlowPhase::Other, None, at(t + 300)));
            assert_eq!(a, Action::None, "{t}");
        }
        assert!(c.yielding());
    }

    /// A probe from 17 ms of queue at a base RTT of 10 ms (RTT 27 ms at its start) whose
    /// queue peaks at 70 ms; its aftermath from t + 200 ms, the queue `draining` ms at t +
    /// 200, 300 and 400 ms and `after` ms at t + 460 ms; the first action other than None.
    /// The probe lasts until the queue would reach 1.3 TARGET at half of C: (78 - 17) / 0.5
    /// = 122 ms.
    fn short_rtt_probe(c: &mut Competitor, t: u64, draining: u64, after: u64) -> Action {
        let o = |qd: u64, sent: u64| Observation {
            base_rtt: ms(10),
            ..obs(qd, FlowPhase::Other, None, at(sent))
        };
        c.on_ack(at(t), &o(17, t - 100));
        assert!(c.probing(at(t)) && !c.probing(at(t + 122)));
        c.on_ack(at(t + 150), &o(70, t + 100));
        [
            (200, draining, 130),
            (300, draining, 200),
            (400, draining, 300),
            (460, after, 360),
        ]
        .into_iter()
        .map(|(now, qd, sent)| c.on_ack(at(t + now), &o(qd, t + sent)))
        .find(|a| *a != Action::None)
        .unwrap_or(Action::None)
    }

    #[test]
    fn with_rtt_fall_a_fall_of_push_drop_of_a_short_rtt_is_a_finding() {
        // From 17 ms to 12 ms twice: 5 ms, under push_drop x TARGET = 9 ms, so no finding
        // by the sender's rule; with rtt_fall over push_drop x (10 + 17) ms = 4.05 ms: our
        // kind, found on the second. A fall of 4 ms (to 13) is under it either way.
        let mut sender = yielding_at(0);
        let mut receiver = yielding_at(0).rtt_fall(true);
        let mut short = yielding_at(0).rtt_fall(true);
        for t in [1000, 2500] {
            assert_eq!(short_rtt_probe(&mut sender, t, 12, 12), Action::None, "{t}");
            assert_eq!(short_rtt_probe(&mut short, t, 13, 13), Action::None, "{t}");
        }
        assert!(sender.yielding() && short.yielding());
        assert_eq!(short_rtt_probe(&mut receiver, 1000, 12, 12), Action::None);
        assert_eq!(
            short_rtt_probe(&mut receiver, 2500, 12, 12),
            Action::Resume(0)
        );
        assert!(!receiver.yielding());
    }

    #[test]
    fn with_rtt_fall_the_aftermath_waits_for_the_probes_queue_to_drain() {
        // The queue still 30 ms two RTTs (200 ms) into the aftermath, 12 ms 60 ms later.
        // The sender's rule judges at 200 ms: no fall. With rtt_fall the aftermath also
        // waits the 70 - 17 = 53 ms the probe's queue takes to drain, so the ACK at 260 ms
        // counts: a fall of 5 ms, twice, our kind. Without the wait it would read 30 ms.
        let mut sender = yielding_at(0).rtt_fall(false);
        let mut receiver = yielding_at(0).rtt_fall(true);
        for t in [1000, 2500] {
            assert_eq!(short_rtt_probe(&mut sender, t, 30, 12), Action::None, "{t}");
        }
        assert!(sender.yielding());
        assert_eq!(short_rtt_probe(&mut receiver, 1000, 30, 12), Action::None);
        assert_eq!(
            short_rtt_probe(&mut receiver, 2500, 30, 12),
            Action::Resume(0)
        );
    }

    #[test]
    fn with_rtt_fall_a_long_rtt_keeps_push_drop_of_target() {
        // The test's base RTT 40 ms and a queue of 30 ms: the RTT at the start, 70 ms, is
        // over TARGET, so the fall still needs 9 ms; 30 -> 25 ms twice is no finding (the
        // sender's case above, a_queue_that_falls_less_than_push_drop_is_no_finding).
        let mut c = yielding_at(0).rtt_fall(true);
        for t in [1000, 2500] {
            c.on_ack(at(t), &obs(30, FlowPhase::Other, None, at(t - 100)));
            c.on_ack(at(t + 150), &obs(60, FlowPhase::Other, None, at(t + 90)));
            for (now, sent) in [(200, 100), (300, 200), (400, 300)] {
                let a = c.on_ack(at(t + now), &obs(25, FlowPhase::Other, None, at(t + sent)));
                assert_eq!(a, Action::None, "{t}");
            }
        }
        assert!(c.yielding());
    }

    #[test]
    fn back_offs_that_are_not_in_a_row_keep_the_flow_yielding() {
        let mut c = yielding_at(0);
        // Fell, stayed, fell (1.345 s apart): the queue that stayed is not our kind's.
        assert_eq!(probe_near_target(&mut c, 1000, 45), Action::None);
        assert_eq!(probe_near_target(&mut c, 2345, 60), Action::None);
        assert_eq!(probe_near_target(&mut c, 3690, 45), Action::None);
        assert!(c.yielding());
    }

    #[test]
    fn back_offs_more_than_kin_confirm_apart_keep_the_flow_yielding() {
        let mut c = yielding_at(0);
        assert_eq!(probe_near_target(&mut c, 1000, 45), Action::None);
        // Four probes from a full FIFO (80 ms, not near TARGET: busy, no finding), each
        // evaluated 330 ms after it and the next 1 s later; then the queue falls after a
        // probe near TARGET again, 5.65 s after the first fell (> KIN_CONFIRM).
        let mut t = 2345;
        for _ in 0..4 {
            assert_eq!(probe(&mut c, t, 80, 80, 80), Action::None);
            t += 1330;
        }
        assert_eq!(t, 7665);
        assert_eq!(probe_near_target(&mut c, t, 45), Action::None);
        assert!(c.yielding());
    }

    #[test]
    fn a_probe_whose_acks_never_come_is_given_up() {
        let mut c = yielding_at(0);
        c.on_ack(at(1000), &obs(0, FlowPhase::Other, None, at(900)));
        assert!(c.probing(at(1000)));
        // Given up PROBE_GIVE_UP (1 s > 4 RTTs) after its end, 1.03 s: no evidence either way.
        c.poll(at(2029), ms(0), ms(100));
        assert!(c.next_tick() == Some(at(2030)));
        c.poll(at(2030), ms(0), ms(100));
        assert!(c.yielding());
        assert_eq!(c.next_tick(), Some(at(3030)));
    }
}
