//! Time: choke rounds, the request-rate estimate behind [`Pipeline::Rate`], and the
//! protocol timers of a real client (keep-alive, idle, request and handshake timeouts).

use super::conn::Phase;
use super::{CloseReason, Peer, RATE_TICK};
use crate::choker::Candidate;
use crate::config::{Pipeline, Timers};
use crate::layout::Block;
use crate::wire::{BlockData, Message};
use crate::ConnId;
use ledbat_core::Instant;

impl<D: BlockData> Peer<D> {
    /// Runs what is due at `now`: choke rounds, the rate estimate, the protocol timers.
    pub fn handle_timeout(&mut self, now: Instant) {
        while now >= self.next_round {
            self.rechoke(now);
            self.next_round += self.cfg.choker.round;
        }
        if matches!(self.cfg.pipeline, Pipeline::Rate { .. }) && now >= self.next_rate_tick {
            while now >= self.next_rate_tick {
                self.next_rate_tick += RATE_TICK;
            }
            for c in self.conns.values_mut() {
                let got = (c.stats.downloaded - c.rate_mark) as f64;
                c.rate_mark = c.stats.downloaded;
                c.rate = 0.5 * c.rate + 0.5 * got;
            }
            self.request_all(now);
        }
        if self.cfg.timers != Timers::OFF {
            self.run_timers(now);
        }
    }

    fn run_timers(&mut self, now: Instant) {
        let t = self.cfg.timers;
        let ids: Vec<ConnId> = self.conns.keys().copied().collect();
        for id in ids {
            let c = &self.conns[&id];
            if c.closing.is_some() {
                continue;
            }
            if let (Phase::Handshaking { deadline: Some(d) }, Some(limit)) = (c.phase, t.handshake)
            {
                if now >= d {
                    self.fail(now, id, CloseReason::HandshakeTimeout(limit));
                    continue;
                }
            }
            if let Some(idle) = t.idle {
                if now.saturating_since(c.last_recv) >= idle {
                    self.fail(now, id, CloseReason::IdleTimeout(idle));
                    continue;
                }
            }
            if let Some(k) = t.keepalive {
                if now.saturating_since(c.last_sent) >= k && c.out.is_empty() {
                    self.send(id, Message::KeepAlive);
                    self.conn_mut(id).last_sent = now;
                }
            }
            let c = &self.conns[&id];
            if let (Some(rt), Phase::Open) = (t.request, c.phase) {
                if self.picker.outstanding_len(id) > 0
                    && now.saturating_since(c.request_clock) >= rt
                {
                    // The peer sits on our requests: cancel them and pick again.
                    let blocks: Vec<Block> = self.picker.outstanding(id).collect();
                    for b in blocks {
                        let r = self.layout.request(b);
                        self.send(id, Message::Cancel(r));
                    }
                    self.picker.release(id);
                    let c = self.conn_mut(id);
                    c.stats.request_timeouts += 1;
                    c.request_clock = now;
                    self.request_all(now);
                }
            }
        }
    }

    fn rechoke(&mut self, now: Instant) {
        let snub = self.cfg.choker.snub_after;
        let cands: Vec<Candidate> = self
            .live()
            .map(|(&id, c)| Candidate {
                id,
                interested: c.peer_interested,
                downloaded: c.down_round,
                uploaded: c.up_round,
                snubbed: snub
                    .is_some_and(|d| c.am_interested && now.saturating_since(c.snub_since) >= d),
                connected_at: c.connected_at,
            })
            .collect();
        let seeding = self.picker.is_complete();
        let set = self.choker.rechoke(now, seeding, &cands, &mut self.rng);
        for cand in cands {
            let id = cand.id;
            let should = set.binary_search(&id).is_ok();
            let choking = self.conns[&id].am_choking;
            if should && choking {
                self.unchoke(id);
            } else if !should && !choking {
                self.choke(id);
            }
            let c = self.conn_mut(id);
            c.down_round = 0;
            c.up_round = 0;
        }
    }
}
