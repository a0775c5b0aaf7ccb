//! Building a [`World`] from a [`Scenario`]: links of the topology, each flow's access
//! links and routes, its controller, transport and application, and the start and stop
//! events.

use super::flow::{Flow, FlowMeta, Payload, Timers};
use super::metrics::FlowStats;
use super::net::{Link, Pool};
use super::sources::{App, AppState};
use super::{uniform_dur, RunError, World};
use crate::engine::{Ev, EventQueue};
use crate::queue::TokenBucket;
use crate::scenario::{Direction, FlowSpec, Scenario, Topology, Traffic};
use crate::transport::{Receiver, Sender, SenderConfig};
use ledbat_core::{Duration, Instant};
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use std::collections::BTreeMap;

impl<'a> World<'a> {
    pub(super) fn build(sc: &'a Scenario, seed: u64) -> Result<World<'a>, RunError> {
        let mss = sc.mss;
        let mut w = World {
            sc,
            now: Instant::ZERO,
            end: Instant::ZERO + sc.duration,
            warmup: Instant::ZERO + sc.warmup,
            mss,
            ack_size: sc.ack_size,
            sample_every: sc.sample_interval,
            ev: EventQueue::with_capacity(1024),
            rng: ChaCha8Rng::seed_from_u64(seed),
            pool: Pool::default(),
            links: Vec::new(),
            routes: Vec::new(),
            route_cache: BTreeMap::new(),
            star: Vec::new(),
            flows: Vec::new(),
            monitored: Vec::new(),
            primary: None,
            capacity_bps: 0.0,
            sent: 0,
            delivered: 0,
            dropped: 0,
            scratch: Vec::new(),
            brief: Vec::new(),
            peer_brief: Vec::new(),
            series_t: Vec::new(),
            series_tests: Vec::new(),
            series_links: Vec::new(),
            swarm: None,
            series_len: if sc.series && sc.swarm.is_none() {
                (sc.duration.as_nanos() / sc.sample_interval.as_nanos()) as usize
            } else {
                0
            },
        };
        w.series_t.reserve_exact(w.series_len);
        match &sc.topology {
            Topology::Dumbbell(d) => {
                let mut f = Link::new(
                    "bottleneck".into(),
                    d.rate,
                    d.delay,
                    &d.queue,
                    d.loss,
                    true,
                    mss,
                );
                f.jitter = d.jitter;
                f.bucket = d.burst.map(|b| TokenBucket::new(d.rate.tx_time_ns(b)));
                let rq = d.reverse_queue.clone().unwrap_or_else(|| d.queue.clone());
                let rr = d.reverse_rate.unwrap_or(d.rate);
                let mut r = Link::new(
                    "bottleneck-rev".into(),
                    rr,
                    d.delay,
                    &rq,
                    d.reverse_loss,
                    true,
                    mss,
                );
                r.jitter = d.jitter;
                w.links.push(f);
                w.links.push(r);
                w.monitored = vec![0, 1];
                w.primary = Some(0);
                // Both directions count when some flow sends on the reverse path.
                let reverse = sc.flows.iter().any(|f| f.direction == Direction::Reverse);
                w.capacity_bps = d.rate.bits_per_sec() as f64
                    + if reverse {
                        rr.bits_per_sec() as f64
                    } else {
                        0.0
                    };
            }
            Topology::Star(s) => {
                let mut idx = 0u32;
                for h in &s.hosts {
                    for _ in 0..h.count {
                        let up = Link::new(
                            format!("up{idx}"),
                            h.up,
                            h.delay + s.core_delay,
                            &h.up_queue,
                            h.loss,
                            true,
                            mss,
                        );
                        let down = Link::new(
                            format!("down{idx}"),
                            h.down,
                            h.delay,
                            &h.down_queue,
                            0.0,
                            true,
                            mss,
                        );
                        w.links.push(up);
                        w.links.push(down);
                        w.star.push((
                            (w.links.len() - 2) as u32,
                            (w.links.len() - 1) as u32,
                            h.clock,
                        ));
                        idx += 1;
                    }
                }
                w.monitored = (0..w.links.len()).collect();
                let mut senders: Vec<u32> = sc.flows.iter().map(|f| f.from).collect();
                senders.sort_unstable();
                senders.dedup();
                w.capacity_bps = senders
                    .iter()
                    .map(|h| w.links[w.star[*h as usize].0 as usize].rate.0 as f64)
                    .sum();
            }
        }
        for (si, spec) in sc.flows.iter().enumerate() {
            for k in 0..spec.count {
                let name = if !spec.name.is_empty() {
                    if spec.count > 1 {
                        format!("{}.{k}", spec.name)
                    } else {
                        spec.name.clone()
                    }
                } else if spec.count > 1 {
                    format!("flow{si}.{k}")
                } else {
                    format!("flow{si}")
                };
                w.add_flow(spec, name, k)?;
            }
        }
        for _ in 0..w.links.len() {
            w.ev.add_pipe();
        }
        w.series_links = (0..w.monitored.len().min(8))
            .map(|_| Vec::with_capacity(w.series_len))
            .collect();
        if sc.swarm.is_some() {
            w.build_swarm(seed);
        }
        Ok(w)
    }

    fn add_flow(&mut self, spec: &FlowSpec, name: String, copy: u32) -> Result<(), RunError> {
        let fi = self.flows.len() as u32;
        let mss = self.mss;
        let (data_route, ack_route, snd_clock, rcv_clock) = match &self.sc.topology {
            Topology::Dumbbell(d) => {
                let up = Link::new(
                    format!("{name}-up"),
                    d.access_rate,
                    spec.access_delay,
                    &d.access_queue,
                    0.0,
                    false,
                    mss,
                );
                let down = Link::new(
                    format!("{name}-down"),
                    d.access_rate,
                    spec.access_delay,
                    &d.access_queue,
                    0.0,
                    false,
                    mss,
                );
                self.links.push(up);
                self.links.push(down);
                let (u, dn) = ((self.links.len() - 2) as u32, (self.links.len() - 1) as u32);
                let (dr, ar) = match spec.direction {
                    Direction::Forward => (self.add_route(&[u, 0]), self.add_route(&[1, dn])),
                    Direction::Reverse => (self.add_route(&[1, dn]), self.add_route(&[u, 0])),
                };
                (dr, ar, spec.sender_clock, spec.receiver_clock)
            }
            Topology::Star(_) => {
                let (dr, ar) = self.star_routes(spec.from, spec.to);
                (
                    dr,
                    ar,
                    self.star[spec.from as usize].2,
                    self.star[spec.to as usize].2,
                )
            }
        };
        let cc = match &spec.cc {
            Some(cfg) if !matches!(spec.traffic, Traffic::Cbr(_)) => {
                Some(cfg.build(mss).map_err(|e| RunError::Controller {
                    flow: name.clone(),
                    source: e,
                })?)
            }
            _ => None,
        };
        let ctrl = if cc.is_some() {
            spec.cc.as_ref().map_or("udp", |c| c.name()).to_string()
        } else {
            "udp".into()
        };
        let tp = spec.transport.as_ref().unwrap_or(&self.sc.transport);
        let sender = cc.map(|cc| Box::new(Sender::new(SenderConfig::from_transport(mss, tp), cc)));
        let jitter = uniform_dur(&mut self.rng, [Duration::ZERO, spec.start_jitter]);
        let start = Instant::ZERO + spec.start + spec.start_spacing * copy as u64 + jitter;
        let stop = Instant::from_nanos(spec.stop.map_or(u64::MAX, |s| s.as_nanos()));
        let f = Flow {
            meta: Box::new(FlowMeta {
                name,
                ctrl,
                cc_cfg: spec.cc.clone(),
                start,
                stop,
                interrupts: spec.interruptions.clone(),
                finished_at: None,
            }),
            data_route: self.routes[data_route as usize],
            ack_route: self.routes[ack_route as usize],
            from: spec.from,
            to: spec.to,
            snd_clock,
            rcv_clock,
            send_jitter: spec.send_jitter,
            active: false,
            interrupted_until: Instant::ZERO,
            jitter_last: Instant::ZERO,
            timers: Timers::default(),
            sender,
            receiver: Receiver::new(tp.delayed_ack, tp.delack_timeout),
            payload: Payload::App(Box::new(AppState::new(App::new(&spec.traffic, mss)))),
            stats: FlowStats::new(
                self.series_len,
                (self.end.as_nanos() / 1_000_000_000) as usize,
            ),
        };
        if start <= self.end {
            self.at(start, Ev::Start(fi));
        }
        if stop < self.end {
            self.at(stop.max(start), Ev::Stop(fi));
        }
        self.flows.push(f);
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn starts(text: &str, seed: u64) -> Vec<u64> {
        let sc = Scenario::from_toml(text).unwrap();
        let w = World::build(&sc, seed).unwrap();
        w.flows.iter().map(|f| f.meta.start.as_nanos()).collect()
    }

    const THREE: &str = "[[flow]]\ncc = { name = \"ledbat\" }\ncount = 3\nstart = \"1s\"\n\
                         start_spacing = \"2s\"\nstart_jitter = \"50ms\"\n";

    #[test]
    fn start_jitter_delays_each_copy_within_its_bound() {
        for seed in 1..=20 {
            for (k, s) in starts(THREE, seed).into_iter().enumerate() {
                let nominal = 1_000_000_000 + 2_000_000_000 * k as u64;
                assert!(
                    (nominal..=nominal + 50_000_000).contains(&s),
                    "seed {seed}: copy {k} starts at {s} ns"
                );
            }
        }
    }

    #[test]
    fn start_jitter_follows_the_seed() {
        assert_eq!(starts(THREE, 7), starts(THREE, 7));
        assert_ne!(starts(THREE, 7), starts(THREE, 8));
        // The three copies of one run draw different offsets.
        let s = starts(THREE, 7);
        let offsets: Vec<u64> = (0..3).map(|k| s[k] - 2_000_000_000 * k as u64).collect();
        assert!(
            offsets[0] != offsets[1] && offsets[1] != offsets[2],
            "{offsets:?}"
        );
    }

    #[test]
    fn zero_start_jitter_gives_the_exact_start_times() {
        let text = THREE.replace("\"50ms\"", "\"0s\"");
        for seed in [1, 2] {
            assert_eq!(
                starts(&text, seed),
                vec![1_000_000_000, 3_000_000_000, 5_000_000_000]
            );
        }
    }

    #[test]
    fn start_jitter_defaults_to_a_tenth_of_a_second() {
        let s = starts("[[flow]]\ncc = { name = \"ledbat\" }\ncount = 8\n", 3);
        assert!(s.iter().all(|&t| t <= 100_000_000), "{s:?}");
        assert!(s.iter().any(|&t| t > 0), "{s:?}");
    }
}
