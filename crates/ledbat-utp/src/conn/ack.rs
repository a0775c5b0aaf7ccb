//! Acknowledgement processing and loss detection for [`Connection`]: the cumulative
//! `ack_nr` and the selective-ACK bitmap retire packets and feed the controller
//! (bytes, RTT from packets sent once (Karn), the pending one-way-delay samples); a packet
//! is lost after `dup_ack_threshold` duplicate ACKs, or when that many packets sent after
//! it are selectively acknowledged (libutp's rule); a retransmission timeout resends the
//! SYN or marks every unacknowledged packet for retransmission, with exponential backoff.

use super::{Closing, Connection, ConnectionError, Kind, Phase};
use crate::packet;
use crate::seq::seq_diff;
use ledbat_core::{Ack, Controller, DelaySample, Duration, Instant, Loss, Timeout};

impl Connection {
    /// `dup_candidate`: a STATE that would be a duplicate ACK if it acknowledges nothing
    /// new (not a pure window update).
    pub(super) fn process_ack(
        &mut self,
        now: Instant,
        ack_nr: u16,
        sack: Option<&[u8]>,
        dup_candidate: bool,
    ) {
        if self.inflight.is_empty() {
            return;
        }
        let d = seq_diff(ack_nr, self.una);
        if d < -1 || d >= self.inflight.len() as i32 {
            // Stale (older than anything in flight) or acknowledging what we never sent.
            return;
        }
        let n = (d + 1) as usize;
        // RFC 6817's flightsize "before this ACK": what the sender had out when it could
        // last send. ACKs handled back to back without a transmit opportunity between
        // them count as one stretch ACK; capping each against the flight the previous
        // one left would cut cwnd to what one batch of ACKs drained.
        let flight_before = self.in_flight_bytes.max(self.flight_at_poll);
        let mut bytes = 0u64;
        let mut packets = 0u32;
        let mut newest: Option<Instant> = None;
        let mut rtt: Option<Duration> = None;
        for _ in 0..n {
            let Some(e) = self.inflight.pop_front() else {
                break;
            };
            self.una = self.una.wrapping_add(1);
            if e.need_resend {
                self.resend_count -= 1;
            }
            if !e.acked {
                bytes += e.len as u64;
                packets += 1;
                if e.in_flight {
                    self.in_flight_bytes -= e.len as u64;
                }
                if e.transmissions == 1 {
                    rtt = Some(now.saturating_since(e.sent_at));
                }
                newest = Some(newest.map_or(e.sent_at, |t| t.max(e.sent_at)));
            }
            if e.probe != 0 {
                if let Some(p) = &mut self.pmtu {
                    p.on_probe_acked(e.probe);
                }
            }
            match e.kind {
                Kind::Fin => self.closing = Closing::FinAcked,
                Kind::Data => {
                    let end = e.offset + e.len as u64;
                    let k = (end - self.send_base) as usize;
                    self.send_buf.drain(..k);
                    self.send_base = end;
                }
                Kind::Syn => {}
            }
        }
        if let Some(mask) = sack {
            for i in packet::SelectiveAck(mask).iter() {
                let seq = ack_nr.wrapping_add(2).wrapping_add(i as u16);
                let idx = seq_diff(seq, self.una);
                if idx < 0 {
                    continue;
                }
                let Some(e) = self.inflight.get_mut(idx as usize) else {
                    break;
                };
                if e.acked || e.kind == Kind::Syn {
                    continue;
                }
                e.acked = true;
                if e.need_resend {
                    e.need_resend = false;
                    self.resend_count -= 1;
                }
                bytes += e.len as u64;
                packets += 1;
                if e.in_flight {
                    e.in_flight = false;
                    self.in_flight_bytes -= e.len as u64;
                }
                if e.transmissions == 1 {
                    rtt = Some(now.saturating_since(e.sent_at));
                }
                newest = Some(newest.map_or(e.sent_at, |t| t.max(e.sent_at)));
                if e.probe != 0 {
                    if let Some(p) = &mut self.pmtu {
                        p.on_probe_acked(e.probe);
                    }
                    e.probe = 0;
                }
            }
        }
        if let Some(r) = rtt {
            self.rtt.on_sample(r);
        }
        let advanced = n > 0 || packets > 0;
        if advanced {
            self.stats.bytes_acked += bytes;
            self.backoff = 0;
            self.rto_at = if self.inflight.is_empty() {
                None
            } else {
                Some(now + self.rto())
            };
        }
        if bytes > 0 {
            let samples = std::mem::take(&mut self.delay_samples);
            let ack = Ack {
                bytes_acked: bytes,
                packets_acked: packets,
                flight_before,
                delay_samples: &samples,
                rtt,
                reverse_delay: Some(DelaySample(self.reply_micro)),
                newest_sent: newest.unwrap_or(now),
            };
            self.ctrl.on_ack(now, &ack);
            self.delay_samples = samples;
            self.delay_samples.clear();
        }
        // Loss detection.
        if n > 0 {
            self.dup_acks = 0;
        } else if dup_candidate && d == -1 && !self.inflight.is_empty() {
            self.dup_acks += 1;
            if self.dup_acks == self.cfg.dup_ack_threshold {
                let front = self.inflight[0];
                if !front.acked && !front.need_resend && front.kind != Kind::Syn {
                    self.mark_lost(now, 0);
                }
            }
        }
        if sack.is_some() {
            let threshold = self.cfg.dup_ack_threshold;
            let mut later_acked = 0u32;
            let mut newest_acked_sent: Option<Instant> = None;
            for idx in (0..self.inflight.len()).rev() {
                let e = self.inflight[idx];
                if e.acked {
                    later_acked += 1;
                    newest_acked_sent =
                        Some(newest_acked_sent.map_or(e.sent_at, |t| t.max(e.sent_at)));
                } else if later_acked >= threshold
                    && !e.need_resend
                    && e.kind != Kind::Syn
                    && newest_acked_sent.is_some_and(|t| e.sent_at < t)
                {
                    self.mark_lost(now, idx);
                }
            }
        }
    }

    fn mark_lost(&mut self, now: Instant, idx: usize) {
        let in_flight = self.in_flight_bytes;
        let e = &mut self.inflight[idx];
        e.need_resend = true;
        self.resend_count += 1;
        if e.in_flight {
            e.in_flight = false;
            self.in_flight_bytes -= e.len as u64;
        }
        if e.probe != 0 {
            // A lost path-MTU probe says the size does not cross, not that the path is
            // congested (RFC 4821 section 7.5): the controller does not hear of it, and
            // the data goes again in an ordinary packet.
            let size = std::mem::take(&mut e.probe);
            if let Some(p) = &mut self.pmtu {
                p.on_probe_lost(size);
            }
            return;
        }
        let loss = Loss {
            bytes: e.len as u64,
            sent_at: e.sent_at,
            in_flight,
        };
        self.stats.fast_losses += 1;
        self.ctrl.on_loss(now, &loss);
    }

    pub(super) fn on_rto(&mut self, now: Instant) {
        self.rto_at = None;
        self.stats.timeouts += 1;
        if let Phase::SynSent { .. } = self.phase {
            self.syn_retries += 1;
            if self.syn_retries > self.cfg.max_syn_retries {
                self.fail(now, ConnectionError::TimedOut);
            } else {
                self.backoff += 1;
                self.phase = Phase::SynSent { syn_due: true };
            }
            return;
        }
        if self.inflight.is_empty() {
            return;
        }
        self.backoff += 1;
        if self.backoff > self.cfg.max_timeouts {
            self.fail(now, ConnectionError::TimedOut);
            return;
        }
        for e in self.inflight.iter_mut() {
            if !e.acked && !e.need_resend {
                e.need_resend = true;
                self.resend_count += 1;
                if e.probe != 0 {
                    if let Some(p) = &mut self.pmtu {
                        p.on_probe_lost(e.probe);
                    }
                    e.probe = 0;
                }
                if e.in_flight {
                    e.in_flight = false;
                    self.in_flight_bytes -= e.len as u64;
                }
            }
        }
        self.dup_acks = 0;
        self.flight_at_poll = 0;
        self.ctrl.on_timeout(now, Timeout::Retransmission);
    }
}
