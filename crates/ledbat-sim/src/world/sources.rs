//! The traffic applications: what each flow offers to its transport, and when.
//!
//! Backlogged writes without end; Transfer writes one unit and finishes when it is
//! acknowledged; Chunks writes unit after unit, switching peer (and controller) with
//! probability `1 - persistence`; Cbr sends datagrams at a fixed interval without a
//! transport; Bursty writes bursts into a bounded buffer of the packets not yet
//! acknowledged, discarding what does not fit;
//! Sessions writes trains of chunks separated by think times, each train on a new
//! connection or (persistent) all on one.

use super::flow::Flow;
use super::net::{Kind, Packet};
use super::{uniform, uniform_dur, wire_clock, World};
use crate::engine::Ev;
use crate::result::Completion;
use crate::scenario::Traffic;
use ledbat_core::{Duration, Instant};
use rand::Rng;

#[derive(Clone, Debug)]
pub(super) enum App {
    Backlogged,
    Transfer {
        pkts: u64,
    },
    Chunks {
        pkts: u64,
        pp: f64,
        peers: Vec<u32>,
    },
    Cbr {
        interval: Duration,
        size: u32,
    },
    Bursty {
        packets: u64,
        period: Duration,
        buffer: u64,
    },
    Sessions {
        chunks: u32,
        cp: [u32; 2],
        gap: [Duration; 2],
        think: [Duration; 2],
        persistent: bool,
    },
}

impl App {
    /// The application of `traffic` for packets of `mss` bytes.
    pub fn new(traffic: &Traffic, mss: u32) -> App {
        let pkts_of = |bytes: u64| bytes.div_ceil(mss as u64).max(1);
        match traffic {
            Traffic::Backlogged(_) => App::Backlogged,
            Traffic::Transfer(t) => App::Transfer {
                pkts: pkts_of(t.bytes),
            },
            Traffic::Chunks(c) => App::Chunks {
                pkts: pkts_of(c.size),
                pp: c.persistence,
                peers: c.peers.clone(),
            },
            Traffic::Cbr(c) => App::Cbr {
                interval: Duration::from_nanos(c.rate.tx_time_ns(c.size).max(1)),
                size: c.size,
            },
            Traffic::Bursty(b) => App::Bursty {
                packets: b.packets as u64,
                period: b.period,
                buffer: b.buffer as u64,
            },
            Traffic::Sessions(s) => App::Sessions {
                chunks: s.chunks,
                cp: s.chunk_packets,
                gap: s.gap,
                think: s.think,
                persistent: s.persistent,
            },
        }
    }
}

/// A flow's application and its current unit (transfer, chunk or session).
#[derive(Debug)]
pub(super) struct AppState {
    pub app: App,
    unit_active: bool,
    unit_start: Instant,
    unit_start_seq: u64,
    chunks_written: u32,
    /// CBR: datagrams sent.
    udp_seq: u64,
}

impl AppState {
    pub fn new(app: App) -> Self {
        AppState {
            app,
            unit_active: false,
            unit_start: Instant::ZERO,
            unit_start_seq: 0,
            chunks_written: 0,
            udp_seq: 0,
        }
    }
}

/// The sender of a flow with a transport (every flow but CBR, which never gets here).
fn sender(f: &mut Flow) -> &mut crate::transport::Sender {
    f.sender.as_mut().expect("only CBR flows have no sender")
}

impl World<'_> {
    /// A fresh controller and RTT estimator for the flow's next connection.
    fn new_connection(&mut self, fi: usize) {
        let mss = self.mss;
        let f = &mut self.flows[fi];
        let Some(s) = f.sender.as_mut() else { return };
        // Validated when the flow was built, so this cannot fail.
        if let Some(Ok(c)) = f.meta.cc_cfg.as_ref().map(|cfg| cfg.build(mss)) {
            s.new_connection(c);
        }
    }

    fn start_unit(&mut self, fi: usize, pkts: u64) {
        let now = self.now;
        let f = &mut self.flows[fi];
        let s = sender(f);
        let written = s.written();
        s.write(pkts);
        let a = f.payload.app();
        a.unit_active = true;
        a.unit_start = now;
        a.unit_start_seq = written;
    }

    /// After an ACK: when the current unit is fully acknowledged, record its completion
    /// and start what comes next.
    pub(super) fn check_unit_done(&mut self, fi: usize) {
        let now = self.now;
        let f = &mut self.flows[fi];
        let s = sender(f);
        let (done, written) = (s.all_acked(), s.written());
        let a = f.payload.app();
        if !a.unit_active || !done {
            return;
        }
        if let App::Sessions { chunks, .. } = a.app {
            if a.chunks_written < chunks {
                return;
            }
        }
        a.unit_active = false;
        f.stats.completions.push(Completion {
            start_s: a.unit_start.as_secs_f64(),
            time_s: (now - a.unit_start).as_secs_f64(),
            packets: written - a.unit_start_seq,
        });
        match a.app.clone() {
            App::Transfer { .. } => {
                f.active = false;
                f.meta.finished_at = Some(now);
                sender(f).cancel_rto();
            }
            App::Chunks { pkts, pp, peers } => {
                let stay = pp >= 1.0 || self.rng.gen::<f64>() < pp;
                if !stay {
                    self.new_connection(fi);
                    let f = &self.flows[fi];
                    let candidates: Vec<u32> =
                        peers.iter().copied().filter(|p| *p != f.to).collect();
                    if !candidates.is_empty() {
                        let to = candidates[self.rng.gen_range(0..candidates.len())];
                        let from = f.from;
                        let (d, a) = self.star_routes(from, to);
                        let clock = self.star[to as usize].2;
                        let (d, a) = (self.routes[d as usize], self.routes[a as usize]);
                        let f = &mut self.flows[fi];
                        f.to = to;
                        f.data_route = d;
                        f.ack_route = a;
                        f.rcv_clock = clock;
                    }
                }
                self.start_unit(fi, pkts);
            }
            App::Sessions { think, .. } => {
                let t = now + uniform_dur(&mut self.rng, think);
                self.at(t, Ev::App(fi as u32));
            }
            _ => {}
        }
    }

    pub(super) fn on_start(&mut self, fi: usize) {
        let now = self.now;
        let f = &mut self.flows[fi];
        if now >= f.meta.stop {
            return;
        }
        f.active = true;
        if let Some(s) = f.sender.as_mut() {
            s.touch(now);
        }
        if let Some(x) = &f.meta.interrupts {
            let t = now + uniform_dur(&mut self.rng, x.every);
            self.at(t, Ev::Interrupt(fi as u32));
        }
        match self.flows[fi].app().app.clone() {
            App::Backlogged => sender(&mut self.flows[fi]).write(u64::MAX),
            App::Transfer { pkts } | App::Chunks { pkts, .. } => self.start_unit(fi, pkts),
            App::Cbr { .. } | App::Bursty { .. } | App::Sessions { .. } => {
                self.at(now, Ev::App(fi as u32))
            }
        }
        self.try_send(fi);
        self.schedule_tick(fi);
    }

    pub(super) fn on_stop(&mut self, fi: usize) {
        let f = &mut self.flows[fi];
        f.active = false;
        if let Some(s) = f.sender.as_mut() {
            s.cancel_rto();
        }
    }

    pub(super) fn on_interrupt(&mut self, fi: usize) {
        let now = self.now;
        let f = &mut self.flows[fi];
        let Some(x) = f.meta.interrupts.clone() else {
            return;
        };
        if !f.active {
            return;
        }
        f.interrupted_until = now + uniform_dur(&mut self.rng, x.length);
        let next = now + uniform_dur(&mut self.rng, x.every).max(Duration::from_nanos(1));
        self.at(next, Ev::Interrupt(fi as u32));
        let until = self.flows[fi].interrupted_until;
        self.schedule_wake(fi, until);
    }

    pub(super) fn on_app(&mut self, fi: usize) {
        let now = self.now;
        if !self.flows[fi].active {
            return;
        }
        match self.flows[fi].app().app.clone() {
            App::Cbr { interval, size } => {
                let measuring = self.measuring() as u64;
                let f = &mut self.flows[fi];
                f.stats.sent_pkts += measuring;
                let p = Packet {
                    seq: f.app().udp_seq,
                    cum: 0,
                    flow: fi as u32,
                    size,
                    ts: wire_clock(&f.snd_clock, now).0,
                    echo: 0,
                    tsecr: 0,
                    route: f.data_route,
                    hop: 0,
                    kind: Kind::Udp,
                };
                f.app().udp_seq += 1;
                let id = self.pool.alloc(p);
                self.inject(id, fi);
                self.at(now + interval, Ev::App(fi as u32));
            }
            App::Bursty {
                packets,
                period,
                buffer,
            } => {
                // Seed 004, section III: the buffer "empties packets once they are
                // sequentially decodable (the packet and all previous packets have been
                // acknowledged)", so it holds every packet not yet cumulatively acknowledged.
                let f = &mut self.flows[fi];
                let s = sender(f);
                let queued = s.written() - s.snd_una();
                let add = packets.min(buffer.saturating_sub(queued));
                s.write(add);
                f.stats.app_discarded += packets - add;
                self.at(now + period, Ev::App(fi as u32));
                self.try_send(fi);
            }
            App::Sessions {
                chunks,
                cp,
                gap,
                persistent,
                ..
            } => {
                if !self.flows[fi].app().unit_active {
                    if !persistent {
                        self.new_connection(fi);
                    }
                    self.start_unit(fi, 0);
                    self.flows[fi].app().chunks_written = 0;
                }
                let n = uniform(&mut self.rng, [cp[0] as u64, cp[1] as u64]);
                let f = &mut self.flows[fi];
                sender(f).write(n);
                f.app().chunks_written += 1;
                if f.app().chunks_written < chunks {
                    let t = now + uniform_dur(&mut self.rng, gap);
                    self.at(t, Ev::App(fi as u32));
                }
                self.try_send(fi);
            }
            App::Backlogged | App::Transfer { .. } | App::Chunks { .. } => {}
        }
    }
}

#[cfg(test)]
mod tests {
    use crate::{run, Scenario};

    /// Train completion times of a sessions flow of 40-packet files at RTT 200 ms on an
    /// idle 10 Mb/s link (3 s apart), one connection or one per file, with the window kept
    /// over idle periods.
    fn session_times(persistent: bool) -> Vec<f64> {
        let sc = Scenario::from_toml(&format!(
            "duration = \"30s\"\n[topology]\nkind = \"dumbbell\"\ndelay = \"95ms\"\n\
             [transport]\nidle_restart = false\n[[flow]]\ncc = {{ name = \"newreno\" }}\n\
             traffic = {{ kind = \"sessions\", chunks = 1, chunk_packets = [40, 40], \
             gap = [\"0s\", \"0s\"], think = [\"3s\", \"3s\"], persistent = {persistent} }}\n"
        ))
        .unwrap();
        let r = run(&sc, 1).unwrap();
        r.flows[0].completions.iter().map(|c| c.time_s).collect()
    }

    /// A new connection per file slow-starts every file from the initial window (2, 4, 8,
    /// 16, 32: five round trips for 40 packets); one connection keeps the window the first
    /// file grew, so the later files leave in one round trip.
    #[test]
    fn persistent_sessions_keep_the_window_across_think_times() {
        let fresh = session_times(false);
        let kept = session_times(true);
        assert!(fresh.len() >= 5 && kept.len() >= 5, "{fresh:?} {kept:?}");
        let first = fresh[0];
        assert!(fresh.iter().all(|t| (t - first).abs() < 0.05), "{fresh:?}");
        assert!((kept[0] - first).abs() < 0.05, "{kept:?} {fresh:?}");
        assert!(
            kept[2..].iter().all(|t| *t < first - 0.3),
            "{kept:?} against {first}"
        );
    }

    /// Seed 004's source buffer holds packets until they are acknowledged, so a flow can
    /// have at most `buffer` packets outstanding.
    #[test]
    fn bursty_buffer_holds_packets_until_acknowledged() {
        // 15 packets every 100 ms into a 10-packet buffer; RTT 2 x (100 + 5) ms = 210 ms on
        // an otherwise idle 10 Mb/s link, so a packet written at a burst is acknowledged
        // 210 ms later: at each burst the two previous bursts are still in the buffer, and
        // a burst of x packets in steady state fills x = 10 - 2x, i.e. 10/3 packets per
        // 100 ms = 0.4 Mb/s of 1500-byte packets. A buffer counting unsent packets only
        // would let the flow send all 150 packets/s offered (1.8 Mb/s).
        let sc = Scenario::from_toml(
            "duration = \"30s\"\nwarmup = \"5s\"\n[topology]\nkind = \"dumbbell\"\n\
             delay = \"100ms\"\n[[flow]]\ncc = { name = \"newreno\" }\n\
             traffic = { kind = \"bursty\", packets = 15, period = \"100ms\", buffer = 10 }\n",
        )
        .unwrap();
        let r = run(&sc, 1).unwrap();
        let f = &r.flows[0];
        let want = 10.0 / 3.0 * 10.0 * 1500.0 * 8.0;
        assert!(
            (f.throughput_bps - want).abs() < 0.02 * want,
            "{} against {want}",
            f.throughput_bps
        );
        assert!(f.app_discarded > 0);
    }
}
