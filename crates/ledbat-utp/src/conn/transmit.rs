//! The sending path of [`Connection`]: which datagram goes out next (RESET, SYN,
//! retransmission, new data, FIN, then a STATE for a pending or selective ACK or a
//! keep-alive), whether the congestion window, the peer's window, the controller's pause
//! and pacing let it leave, and the header every packet carries.

use super::{wire_clock, Closing, Connection, Kind, Phase, Sent, SYN_SEQ_NR};
use crate::packet::{self, Header, PacketType, HEADER_LEN};
use ledbat_core::{Controller, Duration, Instant, Timeout};

/// How far a paced connection may catch up with a schedule it fell behind (late timer
/// wake-ups): about two of the runtime's timer ticks.
const PACING_CATCH_UP: Duration = Duration::from_millis(2);

/// The end of the gap a packet of `len` bytes due at `due` opens at `rate` bytes/s.
///
/// The rate is the one in force when the next packet is considered, not when this one left,
/// as the simulator's sender does: a controller that raises its rate (a yielding scavenger's
/// probe at 17 times its yield rate) is paced at the new rate at once, instead of after a
/// gap of the old one, which can be longer than the whole probe.
fn pace_gap_end(due: Instant, len: u64, rate: u64) -> Instant {
    match len.saturating_mul(1_000_000_000).checked_div(rate) {
        Some(gap) => due + Duration::from_nanos(gap),
        None => Instant::ZERO,
    }
}

impl Connection {
    fn header(&mut self, now: Instant, ty: PacketType, seq_nr: u16) -> Header {
        if let Some(r) = &mut self.rledbat {
            // A packet from a timer: a push or probe that has ended no longer widens it.
            r.advance(now);
        }
        let wnd = self.adv_wnd();
        self.last_adv_wnd = wnd;
        Header {
            ty,
            conn_id: if ty == PacketType::Syn {
                self.recv_id
            } else {
                self.send_id
            },
            timestamp: wire_clock(now),
            timestamp_diff: self.reply_micro,
            wnd_size: wnd.min(u32::MAX as u64) as u32,
            seq_nr,
            ack_nr: self.rx.ack_nr(),
        }
    }

    /// Whether a packet of `len` payload bytes may leave now; records why not.
    fn may_send(&mut self, now: Instant, len: u64) -> bool {
        if let Some(p) = self.ctrl.pause_until() {
            if now < p {
                self.blocked_until = Some(p);
                return false;
            }
        }
        let next = self.next_send_at();
        if now < next {
            self.blocked_until = Some(next);
            return false;
        }
        if self.in_flight_bytes > 0 && self.in_flight_bytes + len > self.ctrl.window() {
            return false;
        }
        if self.in_flight_bytes + len > self.peer_wnd {
            if self.in_flight_bytes == 0 {
                if self.probe_ok {
                    return true;
                }
                self.probe_at.get_or_insert(now + self.rto());
            }
            return false;
        }
        true
    }

    fn copy_payload(&self, offset: u64, len: usize, out: &mut Vec<u8>) {
        let start = (offset - self.send_base) as usize;
        let (a, b) = self.send_buf.as_slices();
        if start < a.len() {
            let end = (start + len).min(a.len());
            out.extend_from_slice(&a[start..end]);
            out.extend_from_slice(&b[..len - (end - start)]);
        } else {
            let s = start - a.len();
            out.extend_from_slice(&b[s..s + len]);
        }
    }

    fn on_data_sent(&mut self, now: Instant, len: u64) {
        self.in_flight_bytes += len;
        if len > 0 {
            // A FIN carries no data: the controller only hears about data packets.
            self.ctrl.on_sent(now, len, self.in_flight_bytes);
        }
        if self.ctrl.pacing_rate().is_some() {
            // From when this packet was due, not from when it left: a wake-up that came
            // late (timers have a granularity of about a millisecond) is made up by sending
            // sooner, at most PACING_CATCH_UP's worth at once.
            self.paced = Some((self.next_send_at().max(now - PACING_CATCH_UP), len));
        }
        if self.rto_at.is_none() {
            self.rto_at = Some(now + self.rto());
        }
        self.probe_ok = false;
        self.probe_at = None;
        self.stats.bytes_sent += len;
    }

    /// When pacing lets the next packet leave: the last paced packet's due time plus its
    /// length at the rate in force now ([`pace_gap_end`]).
    pub(super) fn next_send_at(&self) -> Instant {
        match (self.paced, self.ctrl.pacing_rate()) {
            (Some((due, len)), Some(rate)) => pace_gap_end(due, len, rate),
            _ => Instant::ZERO,
        }
    }

    fn finish_packet(&mut self, now: Instant) {
        self.last_sent = Some(now);
        self.keepalive_due = false;
        self.stats.packets_sent += 1;
        // An ACK rides on every packet; a selective ACK needs a STATE of its own.
        if !self.rx.has_gap() {
            self.ack_pending = false;
        }
    }

    /// Writes the next datagram into `out` (cleared first) and returns true, or returns
    /// false when nothing is due now. Call until it returns false after every event.
    pub fn poll_transmit(&mut self, now: Instant, out: &mut Vec<u8>) -> bool {
        let sent = self.poll_transmit_inner(now, out);
        self.flight_at_poll = self.in_flight_bytes;
        sent
    }

    fn poll_transmit_inner(&mut self, now: Instant, out: &mut Vec<u8>) -> bool {
        out.clear();
        if self.error.is_some() {
            if self.phase == (Phase::Failed { reset_due: true }) {
                self.phase = Phase::Failed { reset_due: false };
                let h = self.header(now, PacketType::Reset, self.seq_nr);
                packet::encode(&h, &[], &[], out);
                self.stats.packets_sent += 1;
                return true;
            }
            return false;
        }
        if let Phase::SynSent { syn_due } = self.phase {
            if !syn_due {
                return false;
            }
            self.phase = Phase::SynSent { syn_due: false };
            let h = self.header(now, PacketType::Syn, SYN_SEQ_NR);
            packet::encode(&h, &[], &[], out);
            if let Some(e) = self.inflight.front_mut() {
                e.transmissions += 1;
                e.sent_at = now;
            }
            if self.rto_at.is_none() {
                self.rto_at = Some(now + self.rto());
            }
            self.finish_packet(now);
            return true;
        }
        // Retransmissions first.
        if self.resend_count > 0 {
            if let Some(idx) = self.inflight.iter().position(|e| e.need_resend) {
                let e = self.inflight[idx];
                if self.may_send(now, e.len as u64) {
                    let seq = self.una.wrapping_add(idx as u16);
                    let ty = if e.kind == Kind::Fin {
                        PacketType::Fin
                    } else {
                        PacketType::Data
                    };
                    let h = self.header(now, ty, seq);
                    packet::encode(&h, &[], &[], out);
                    if e.kind == Kind::Data {
                        self.copy_payload(e.offset, e.len as usize, out);
                    }
                    let s = &mut self.inflight[idx];
                    s.need_resend = false;
                    s.in_flight = true;
                    s.sent_at = now;
                    s.transmissions += 1;
                    self.resend_count -= 1;
                    self.stats.retransmissions += 1;
                    self.on_data_sent(now, e.len as u64);
                    self.finish_packet(now);
                    return true;
                }
                // Blocked: new data must not overtake a pending retransmission.
                return self.poll_ack(now, out);
            }
        }
        let avail = self.send_base + self.send_buf.len() as u64 - self.unsent;
        let room = self.inflight.len() < self.cfg.max_packets_in_flight as usize;
        if avail > 0 && room {
            let max = self.max_payload() as u64;
            let len = avail.min(max);
            if self.in_flight_bytes == 0 {
                if let Some(last) = self.last_sent {
                    if now.saturating_since(last) >= self.rto() && self.stats.bytes_sent > 0 {
                        self.ctrl.on_timeout(now, Timeout::Idle);
                    }
                }
            }
            if self.may_send(now, len) {
                let seq = self.seq_nr;
                self.seq_nr = seq.wrapping_add(1);
                let h = self.header(now, PacketType::Data, seq);
                // A full packet may carry a path-MTU probe: padded to the size tried.
                let probe = match self.pmtu.and_then(|p| p.next_probe()) {
                    Some(size) if len == max && size as u64 >= HEADER_LEN as u64 + len + 2 => size,
                    _ => 0,
                };
                let start = out.len();
                packet::encode(&h, &[], &[], out);
                self.copy_payload(self.unsent, len as usize, out);
                if probe != 0 {
                    let payload = out.split_off(start + HEADER_LEN);
                    out.truncate(start);
                    packet::encode_padded(&h, &payload, probe as usize, out);
                    if let Some(p) = &mut self.pmtu {
                        p.on_probe_sent(probe);
                    }
                    self.stats.mtu_probes += 1;
                }
                self.inflight.push_back(Sent {
                    kind: Kind::Data,
                    offset: self.unsent,
                    len: len as u32,
                    sent_at: now,
                    transmissions: 1,
                    acked: false,
                    in_flight: true,
                    need_resend: false,
                    probe,
                });
                self.unsent += len;
                self.on_data_sent(now, len);
                self.finish_packet(now);
                return true;
            }
        } else if avail == 0
            && self.stats.bytes_sent > 0
            && self.in_flight_bytes + self.max_payload() as u64 <= self.ctrl.window()
        {
            // The application, not the window, holds the connection back.
            self.ctrl.on_app_limited(now, self.in_flight_bytes);
        }
        if avail == 0 && room && self.closing == Closing::FinQueued {
            let seq = self.seq_nr;
            self.seq_nr = seq.wrapping_add(1);
            let h = self.header(now, PacketType::Fin, seq);
            packet::encode(&h, &[], &[], out);
            self.inflight.push_back(Sent {
                kind: Kind::Fin,
                offset: self.unsent,
                len: 0,
                sent_at: now,
                transmissions: 1,
                acked: false,
                in_flight: false,
                need_resend: false,
                probe: 0,
            });
            self.closing = Closing::FinSent;
            self.on_data_sent(now, 0);
            self.finish_packet(now);
            return true;
        }
        self.poll_ack(now, out)
    }

    fn poll_ack(&mut self, now: Instant, out: &mut Vec<u8>) -> bool {
        if !(self.ack_pending || self.keepalive_due) {
            return false;
        }
        let mut h = self.header(now, PacketType::State, self.seq_nr);
        if self.keepalive_due && !self.ack_pending {
            h.ack_nr = h.ack_nr.wrapping_sub(1);
        }
        let mut sack = std::mem::take(&mut self.sack_scratch);
        sack.clear();
        if let Some(bits) = self.rx.selective_ack(self.cfg.max_sack_bytes as usize) {
            sack = bits;
        }
        packet::encode(&h, &sack, &[], out);
        self.sack_scratch = sack;
        self.last_sent = Some(now);
        self.keepalive_due = false;
        self.ack_pending = false;
        self.stats.packets_sent += 1;
        true
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_pacing_gap_follows_the_rate_in_force_when_the_next_packet_is_considered() {
        let due = Instant::from_secs(10);
        // 1,400 bytes at 37,500 B/s (a yield at 3 % of 10 Mbit/s): 37.33 ms.
        assert_eq!(
            pace_gap_end(due, 1_400, 37_500),
            due + Duration::from_nanos(37_333_333)
        );
        // The same packet once the rate is 625,000 B/s (a probe at half the link): 2.24 ms.
        assert_eq!(
            pace_gap_end(due, 1_400, 625_000),
            due + Duration::from_nanos(2_240_000)
        );
        // A rate of zero gates nothing (no division by zero).
        assert_eq!(pace_gap_end(due, 1_400, 0), Instant::ZERO);
    }
}
