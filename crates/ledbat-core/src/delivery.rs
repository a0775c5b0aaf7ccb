//! Delivery-rate samples from the controller's own view of sends and ACKs
//! (draft-cheng-iccrg-delivery-rate-estimation-02, the estimator under BBR; Linux
//! `tcp_rate.c` follows the same draft), for controllers that need the rate at which the path
//! delivers their data: [`crate::bbr`] and the scavenger's competitor detection
//! ([`crate::competitor`]).
//!
//! The draft keeps per-packet state in the sender's scoreboard. Here the controller keeps it,
//! so that every driver gets it through the [`crate::Controller`] contract unchanged: one
//! record per [`crate::Controller::on_sent`], in send order, found again on the ACK through
//! [`crate::Ack::newest_sent`] (the send time of the newest packet the ACK covers):
//!
//! ```text
//! on send of P:   if nothing else is in flight: first_sent_time = delivered_time = now
//!                 P.{delivered, delivered_time, first_sent_time, app_limited} = the connection's
//! on ACK (P = newest packet acknowledged):
//!                 delivered += bytes_acked; delivered_time = now
//!                 send_elapsed = P.sent_time - P.first_sent_time
//!                 ack_elapsed  = delivered_time - P.delivered_time
//!                 first_sent_time = P.sent_time
//!                 interval = max(send_elapsed, ack_elapsed)
//!                 rate = (delivered - P.delivered) / interval,  discarded when interval < min_rtt
//! app-limited:    when the sender has nothing to send, app_limited = delivered + in_flight;
//!                 samples of packets sent before that much was delivered are marked
//! ```
//!
//! Taking the larger of the two elapsed times keeps a burst of ACKs (ACK compression) or of
//! sends from inflating the rate (draft section 3.3). Packets sent at the same instant share
//! one state unless an ACK came between them; a lookup picks the latest record sent at or before
//! `newest_sent`, the one with the most data already delivered, so that a tie gives the smaller
//! (safer) rate. Records older than an ACK's newest packet are dropped: a lost packet's record
//! goes with the first ACK beyond it, and its retransmission gets a record of its own.

use crate::controller::Ack;
use crate::time::{Duration, Instant};
use std::collections::VecDeque;

/// Records kept at most (a driver that never acknowledges cannot make the estimator grow
/// without bound); the oldest go first.
pub const MAX_RECORDS: usize = 1 << 16;

/// The connection's state at one packet's transmission.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Sent {
    sent_at: Instant,
    delivered: u64,
    delivered_time: Instant,
    first_sent_time: Instant,
    app_limited: bool,
}

/// One delivery-rate sample (draft section 3.3's `rs`).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct RateSample {
    /// Bytes delivered over the interval.
    pub delivered: u64,
    /// The interval, `max(send_elapsed, ack_elapsed)`.
    pub interval: Duration,
    /// `delivered / interval`, bytes per second.
    pub rate: f64,
    /// The connection's delivered count when the packet was sent (round counting).
    pub prior_delivered: u64,
    /// The packet was sent while the sender was application-limited.
    pub app_limited: bool,
}

/// The estimator's connection state and per-packet records.
#[derive(Clone, Debug, Default)]
pub struct DeliveryRate {
    delivered: u64,
    delivered_time: Option<Instant>,
    first_sent_time: Option<Instant>,
    /// `delivered` mark until which samples are app-limited (0: not app-limited).
    app_limited_until: u64,
    sent: VecDeque<Sent>,
}

impl DeliveryRate {
    /// Nothing sent yet.
    pub fn new() -> Self {
        DeliveryRate::default()
    }

    /// Bytes delivered (acknowledged) so far.
    pub fn delivered(&self) -> u64 {
        self.delivered
    }

    /// Whether samples are currently marked application-limited.
    pub fn app_limited(&self) -> bool {
        self.app_limited_until > 0
    }

    /// Records a packet of `bytes` sent at `now`; `in_flight` counts it.
    pub fn on_sent(&mut self, now: Instant, bytes: u64, in_flight: u64) {
        if in_flight <= bytes || self.first_sent_time.is_none() {
            self.first_sent_time = Some(now);
            self.delivered_time = Some(now);
        }
        if self.sent.len() >= MAX_RECORDS {
            self.sent.pop_front();
        }
        self.sent.push_back(Sent {
            sent_at: now,
            delivered: self.delivered,
            delivered_time: self.delivered_time.unwrap_or(now),
            first_sent_time: self.first_sent_time.unwrap_or(now),
            app_limited: self.app_limited_until > 0,
        });
    }

    /// The sender had nothing to send at a moment its window allowed it: samples until the
    /// data now in flight is delivered are application-limited.
    pub fn on_app_limited(&mut self, in_flight: u64) {
        self.app_limited_until = (self.delivered + in_flight).max(1);
    }

    /// Every record is forgotten (a retransmission timeout: what was in flight is lost).
    pub fn forget_in_flight(&mut self) {
        self.sent.clear();
    }

    /// `bytes` more were delivered at `now`: the count and the app-limited mark only, for a
    /// user that wants no per-packet samples ([`SpanRate`]'s); [`DeliveryRate::on_ack`] does
    /// this first.
    pub fn on_delivered(&mut self, now: Instant, bytes: u64) {
        self.delivered += bytes;
        self.delivered_time = Some(now);
        if self.app_limited_until > 0 && self.delivered > self.app_limited_until {
            self.app_limited_until = 0;
        }
    }

    /// An ACK at `now`; a sample when the ACK covers a recorded packet and its interval is
    /// at least `min_rtt` (when known).
    pub fn on_ack(
        &mut self,
        now: Instant,
        ack: &Ack<'_>,
        min_rtt: Option<Duration>,
    ) -> Option<RateSample> {
        if ack.bytes_acked == 0 {
            return None;
        }
        self.on_delivered(now, ack.bytes_acked);
        // The latest record sent at or before the newest packet acknowledged.
        let idx = self
            .sent
            .partition_point(|s| s.sent_at <= ack.newest_sent)
            .checked_sub(1)?;
        let p = self.sent[idx];
        // Drop the records of packets sent before it: acknowledged or lost.
        let stale = self.sent.partition_point(|s| s.sent_at < p.sent_at);
        self.sent.drain(..stale);
        self.first_sent_time = Some(p.sent_at);
        let send_elapsed = p.sent_at.saturating_since(p.first_sent_time);
        let ack_elapsed = now.saturating_since(p.delivered_time);
        let interval = send_elapsed.max(ack_elapsed);
        let delivered = self.delivered - p.delivered;
        if interval.is_zero() || min_rtt.is_some_and(|m| interval < m) {
            return None;
        }
        Some(RateSample {
            delivered,
            interval,
            rate: delivered as f64 / interval.as_secs_f64(),
            prior_delivered: p.delivered,
            app_limited: p.app_limited,
        })
    }
}

/// The delivery rate over spans of at least a given length, from the ACK clock alone: the
/// bytes delivered between the first ACK of a span and the first ACK at least `min_span`
/// later, over the time between them.
///
/// ```text
/// span from (t0, d0):  on an ACK at t with delivered d:  t - t0 >= min_span  ->
///                      sample (d - d0) / (t - t0), app-limited if any ACK of it was;
///                      the next span starts at (t, d)
/// ```
///
/// Per-packet samples ([`DeliveryRate`]) span about one RTT, and a burst the path lets through
/// at once (a token bucket's, `tbf`'s 15 KiB; a train of ACKs) adds its bytes to whichever
/// sample it lands in: `B / T` on a sample of length `T`. A maximum over many such samples is
/// the largest of those errors. Spans of at least 200 ms keep a 15 KiB burst under 7 % of
/// 10 Mbit/s, whatever the RTT.
#[derive(Clone, Copy, Debug, Default)]
pub struct SpanRate {
    start: Option<(Instant, u64)>,
    limited: bool,
}

impl SpanRate {
    /// No span yet.
    pub fn new() -> Self {
        SpanRate::default()
    }

    /// An ACK at `now`, when `delivered` bytes have been delivered in all and the sender is
    /// `app_limited` or not: the rate (bytes/s) and whether any ACK of the span was
    /// app-limited, once the span is at least `min_span` long.
    pub fn on_ack(
        &mut self,
        now: Instant,
        delivered: u64,
        app_limited: bool,
        min_span: Duration,
    ) -> Option<(f64, bool)> {
        self.on_ack_span(now, delivered, app_limited, min_span)
            .map(|(bytes, span, limited)| (bytes as f64 / span.as_secs_f64(), limited))
    }

    /// [`SpanRate::on_ack`] before the division: the span's bytes, its length (never zero)
    /// and whether it was app-limited, for an owner that keeps rates in other units (the
    /// kernel's whole bytes/s).
    pub fn on_ack_span(
        &mut self,
        now: Instant,
        delivered: u64,
        app_limited: bool,
        min_span: Duration,
    ) -> Option<(u64, Duration, bool)> {
        let Some((t0, d0)) = self.start else {
            self.start = Some((now, delivered));
            self.limited = app_limited;
            return None;
        };
        self.limited |= app_limited;
        let span = now.saturating_since(t0);
        if span < min_span || span.is_zero() {
            return None;
        }
        let out = (delivered.saturating_sub(d0), span, self.limited);
        self.start = Some((now, delivered));
        self.limited = app_limited;
        Some(out)
    }
}

/// The exact maximum of the values of the last `window` rounds (BBR's BtlBw filter; Linux
/// keeps an approximation of three samples, `win_minmax`): a deque of `(round, value)`
/// decreasing in value.
#[derive(Clone, Debug, Default)]
pub struct WindowedMax {
    window: u64,
    q: VecDeque<(u64, f64)>,
}

impl WindowedMax {
    /// A filter over `window` rounds (at least 1).
    pub fn new(window: u64) -> Self {
        WindowedMax {
            window: window.max(1),
            q: VecDeque::new(),
        }
    }

    /// Adds `v` seen in round `round` (rounds never decrease) and returns the maximum of the
    /// values of rounds `round - window + 1 ..= round`.
    pub fn update(&mut self, round: u64, v: f64) -> f64 {
        while self.q.back().is_some_and(|&(_, b)| b <= v) {
            self.q.pop_back();
        }
        self.q.push_back((round, v));
        self.expire(round);
        self.get()
    }

    /// Drops values older than the window as of `round`.
    pub fn expire(&mut self, round: u64) {
        while self
            .q
            .front()
            .is_some_and(|&(r, _)| r + self.window <= round)
        {
            self.q.pop_front();
        }
    }

    /// The current maximum (0 when empty).
    pub fn get(&self) -> f64 {
        self.q.front().map_or(0.0, |&(_, v)| v)
    }

    /// Forgets every value.
    pub fn reset(&mut self) {
        self.q.clear();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const MSS: u64 = 1500;

    fn ack_of(packets: u64, newest_sent: Instant) -> Ack<'static> {
        Ack::bare(packets * MSS, packets as u32, 0, newest_sent)
    }

    fn ms(v: u64) -> Instant {
        Instant::from_millis(v)
    }

    #[test]
    fn a_paced_flow_samples_its_sending_rate() {
        // Packet k leaves at 10k ms and is acknowledged at 10k + 45 ms. When packet j left,
        // packets 0..=j-5 were delivered (the last at 10j - 5 ms; first_sent_time then became
        // its send time, 10j - 50 ms); at its ACK j + 1 are: 5 packets over
        // max(50 ms sent, 50 ms acknowledged) = 150 kB/s.
        let mut d = DeliveryRate::new();
        let mut samples = Vec::new();
        let mut in_flight = 0;
        for t in (0..300u64).step_by(5) {
            if t % 10 == 5 && t >= 45 {
                let j = (t - 45) / 10;
                in_flight -= MSS;
                samples.push(d.on_ack(ms(t), &ack_of(1, ms(10 * j)), None));
            }
            if t % 10 == 0 {
                in_flight += MSS;
                d.on_sent(ms(t), MSS, in_flight);
            }
        }
        let s = samples.last().unwrap().unwrap();
        assert_eq!(s.delivered, 5 * MSS);
        assert_eq!(s.interval, Duration::from_millis(50));
        assert!((s.rate - 150_000.0).abs() < 1e-6, "{s:?}");
        assert!(!s.app_limited);
    }

    #[test]
    fn ack_compression_does_not_inflate_the_rate() {
        // Ten packets sent 10 ms apart (100 ms), all acknowledged in one burst at 150 ms:
        // the ACK elapsed time is tiny but the send elapsed time (90 ms) bounds the rate.
        let mut d = DeliveryRate::new();
        for k in 0..10u64 {
            d.on_sent(ms(10 * k), MSS, MSS * (k + 1));
        }
        let s = d.on_ack(ms(150), &ack_of(10, ms(90)), None).unwrap();
        // Packet 9: first_sent_time 0 (the flight started there), sent at 90 ms; delivered 0
        // at time 0 when it left. send_elapsed 90 ms, ack_elapsed 150 ms: 15000 B / 150 ms.
        assert_eq!(s.delivered, 15_000);
        assert_eq!(s.interval, Duration::from_millis(150));
        assert!((s.rate - 100_000.0).abs() < 1e-6);
    }

    #[test]
    fn samples_shorter_than_the_minimum_rtt_are_discarded() {
        let mut d = DeliveryRate::new();
        d.on_sent(ms(0), MSS, MSS);
        let a = ack_of(1, ms(0));
        assert!(d
            .on_ack(ms(20), &a, Some(Duration::from_millis(30)))
            .is_none());
        let mut d = DeliveryRate::new();
        d.on_sent(ms(0), MSS, MSS);
        let s = d
            .on_ack(ms(40), &a, Some(Duration::from_millis(30)))
            .unwrap();
        assert!((s.rate - 1500.0 / 0.040).abs() < 1e-6);
    }

    #[test]
    fn app_limited_marks_samples_until_the_flight_is_delivered() {
        let mut d = DeliveryRate::new();
        d.on_sent(ms(0), MSS, MSS);
        d.on_sent(ms(0), MSS, 2 * MSS);
        d.on_app_limited(2 * MSS);
        d.on_sent(ms(5), MSS, 3 * MSS);
        assert!(d.app_limited());
        // Packets 0 and 1 left before the mark: not app-limited; delivered becomes 3000,
        // not beyond the mark (3000).
        let s = d.on_ack(ms(50), &ack_of(2, ms(0)), None).unwrap();
        assert!(!s.app_limited);
        assert!(d.app_limited());
        // Packet 2 left after it: its sample is app-limited, and delivering it clears the mark.
        let s = d.on_ack(ms(55), &ack_of(1, ms(5)), None).unwrap();
        assert!(s.app_limited);
        assert!(!d.app_limited());
    }

    #[test]
    fn records_of_lost_packets_go_with_the_first_ack_beyond_them() {
        let mut d = DeliveryRate::new();
        for k in 0..4u64 {
            d.on_sent(ms(k), MSS, MSS * (k + 1));
        }
        // Packet 1 is lost; 2 and 3 are acknowledged (SACK) one by one.
        d.on_ack(ms(50), &ack_of(1, ms(0)), None);
        d.on_ack(ms(52), &ack_of(1, ms(2)), None);
        assert_eq!(d.sent.len(), 2, "records of packets 2 and 3 remain");
        // The retransmission of packet 1 gets a record of its own, the newest.
        d.on_sent(ms(60), MSS, 2 * MSS);
        let s = d.on_ack(ms(110), &ack_of(1, ms(60)), None).unwrap();
        assert_eq!(d.sent.len(), 1);
        assert_eq!(s.prior_delivered, 2 * MSS);
    }

    #[test]
    fn an_ack_of_an_unrecorded_packet_gives_no_sample() {
        let mut d = DeliveryRate::new();
        d.on_sent(ms(10), MSS, MSS);
        assert!(d.on_ack(ms(20), &ack_of(1, ms(5)), None).is_none());
        assert_eq!(d.delivered(), MSS);
    }

    #[test]
    fn a_span_rate_is_the_bytes_between_its_first_and_last_ack_over_their_distance() {
        let mut s = SpanRate::new();
        let span = Duration::from_millis(200);
        // First ACK at 0 (12,000 bytes delivered so far) opens the span.
        assert_eq!(s.on_ack(ms(0), 12_000, false, span), None);
        // 150 ms: too short, nothing.
        assert_eq!(s.on_ack(ms(150), 200_000, false, span), None);
        // 250 ms: 250,000 - 12,000 bytes over 0.25 s = 952,000 B/s.
        assert_eq!(
            s.on_ack(ms(250), 250_000, false, span),
            Some((952_000.0, false))
        );
        // The next span starts at 250 ms; one app-limited ACK marks it.
        assert_eq!(s.on_ack(ms(300), 260_000, true, span), None);
        // 500,000 - 250,000 over 0.5 s.
        assert_eq!(
            s.on_ack(ms(750), 500_000, false, span),
            Some((500_000.0, true))
        );
    }

    #[test]
    fn a_span_before_the_division_gives_its_bytes_length_and_limit() {
        let mut s = SpanRate::new();
        let span = Duration::from_millis(200);
        assert_eq!(s.on_ack_span(ms(0), 1_000, true, span), None);
        // 1,000 to 2,000 bytes over 0.3 s; the opening ACK's app limit marks the span.
        assert_eq!(
            s.on_ack_span(ms(300), 2_000, false, span),
            Some((1_000, ms(300).saturating_since(ms(0)), true))
        );
        // An ACK at the same instant as the span's start is never a span of length 0.
        assert_eq!(s.on_ack_span(ms(300), 3_000, false, Duration::ZERO), None);
    }

    #[test]
    fn a_burst_inflates_a_span_by_its_size_over_the_span() {
        // 10 Mbit/s (1.25 MB/s) with a 15 KiB burst at the start of a sample: a per-RTT
        // sample of 20 ms reads 1.25e6 + 15,360 / 0.02 = 2.018 MB/s (+61 %); a 200 ms span
        // 1.25e6 + 15,360 / 0.2 = 1.3268 MB/s (+6.1 %).
        let mut s = SpanRate::new();
        let span = Duration::from_millis(200);
        s.on_ack(ms(0), 0, false, span);
        let (r, _) = s.on_ack(ms(200), 15_360 + 250_000, false, span).unwrap();
        assert!((r - 1_326_800.0).abs() < 1.0, "{r}");
    }

    #[test]
    fn windowed_max_keeps_the_largest_of_the_last_rounds() {
        let mut f = WindowedMax::new(3);
        assert_eq!(f.update(0, 5.0), 5.0);
        assert_eq!(f.update(1, 3.0), 5.0);
        assert_eq!(f.update(2, 4.0), 5.0);
        // Round 3: round 0's 5 has left the window of rounds 1..=3.
        assert_eq!(f.update(3, 1.0), 4.0);
        assert_eq!(f.update(4, 2.0), 4.0);
        assert_eq!(f.update(5, 2.0), 2.0);
        f.expire(8);
        assert_eq!(f.get(), 0.0);
    }
}
