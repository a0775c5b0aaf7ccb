//! Who is in the swarm when: the arrival and departure plan of seed 003 section 5.1, drawn
//! from one seeded generator so that a run is reproducible.
//!
//! - At t = 0, `initial_seeds` seeds (of `seed_class`, or of a class drawn by the shares
//!   from a stream of their own); they never leave, so the content
//!   cannot vanish.
//! - `leechers` leechers arrive as a Poisson process of rate λ (exponential gaps of mean
//!   1/λ, "exponentially distributed arrival times (mean rate 0.1 Hz)"), or all at t = 0.
//! - Each newcomer's class is drawn with probability proportional to its `share` (the
//!   thesis's 50-50 population is "equally split, on average"), its one-way access delay
//!   uniformly in its class's range.
//! - A leecher that completes after a download of `T` seconds: `never-leave` stays;
//!   `random-stay` stays an exponential time of mean `stay_factor x T` (0.5, "roughly
//!   models the BitTorrent netiquette ... uploaded data reaches 1.5 times the downloaded
//!   amount"), then leaves; `leave-at-once` leaves at once. In both leaving cases a new
//!   leecher (class drawn afresh) joins at the instant of the departure, "so that the swarm
//!   size remains constant".
//!
//! - A newcomer asks the tracker for neighbours: [`Population::tracker_reply`] returns up
//!   to `tracker_peers` peers drawn uniformly without replacement among those present (the
//!   tracker of BEP 3 answers with a random subset; 50 is mainline's `numwant`).
//!
//! Independent ChaCha8 streams serve arrivals, classes, delays, stays, tracker replies and
//! the peers' own generators, so that, for one seed, changing the class shares does not move the arrival
//! times (common random numbers across populations).

use super::PeerId;
use crate::scenario::swarm::{Arrival, SeedBehaviour, SwarmConfig};
use ledbat_core::{Duration, Instant};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

/// One peer of the plan.
#[derive(Clone, Debug, PartialEq)]
pub struct PeerPlan {
    /// Its number (0.. in order of creation).
    pub id: PeerId,
    /// Index of its class in the configuration.
    pub class: usize,
    /// An initial seed.
    pub seed: bool,
    /// When it joins.
    pub arrival: Instant,
    /// One-way delay of its access link.
    pub delay: Duration,
    /// Seed of its own generator (piece and optimistic draws).
    pub rng_seed: u64,
    /// The peer whose departure it replaces.
    pub replaces: Option<PeerId>,
}

/// The population's generator.
#[derive(Clone, Debug)]
pub struct Population {
    behaviour: SeedBehaviour,
    stay_factor: f64,
    shares: Vec<f64>,
    delays: Vec<[Duration; 2]>,
    next_id: PeerId,
    initial_seeds: u32,
    arrivals: ChaCha8Rng,
    classes: ChaCha8Rng,
    seed_classes: ChaCha8Rng,
    delay_rng: ChaCha8Rng,
    stays: ChaCha8Rng,
    peer_seeds: ChaCha8Rng,
    tracker: ChaCha8Rng,
    tracker_peers: u32,
}

fn stream(seed: u64, s: u64) -> ChaCha8Rng {
    let mut r = ChaCha8Rng::seed_from_u64(seed);
    r.set_stream(s);
    r
}

/// A class index drawn with probability proportional to `shares`.
fn draw(shares: &[f64], rng: &mut ChaCha8Rng) -> usize {
    let total: f64 = shares.iter().sum();
    let mut x = rng.gen::<f64>() * total;
    for (i, s) in shares.iter().enumerate() {
        if x < *s {
            return i;
        }
        x -= s;
    }
    shares.iter().rposition(|&s| s > 0.0).unwrap_or(0)
}

/// An exponential variate of mean `mean` seconds, by inversion.
fn exponential<R: Rng>(rng: &mut R, mean: f64) -> Duration {
    let u: f64 = rng.gen::<f64>();
    Duration::from_secs_f64(-mean * (1.0 - u).ln())
}

impl Population {
    /// The generator for a validated configuration and a run seed.
    pub fn new(cfg: &SwarmConfig, seed: u64) -> Self {
        Population {
            behaviour: cfg.seed_behaviour,
            stay_factor: cfg.stay_factor,
            shares: cfg.classes.iter().map(|c| c.share).collect(),
            delays: cfg.classes.iter().map(|c| c.delay).collect(),
            next_id: 0,
            initial_seeds: cfg.initial_seeds,
            arrivals: stream(seed, 1),
            classes: stream(seed, 2),
            seed_classes: stream(seed, 7),
            delay_rng: stream(seed, 3),
            stays: stream(seed, 4),
            peer_seeds: stream(seed, 5),
            tracker: stream(seed, 6),
            tracker_peers: cfg.tracker_peers,
        }
    }

    fn draw_class(&mut self) -> usize {
        draw(&self.shares, &mut self.classes)
    }

    fn plan(
        &mut self,
        class: usize,
        seed: bool,
        arrival: Instant,
        replaces: Option<PeerId>,
    ) -> PeerPlan {
        let [lo, hi] = self.delays[class];
        let delay = Duration::from_nanos(self.delay_rng.gen_range(lo.as_nanos()..=hi.as_nanos()));
        let id = self.next_id;
        self.next_id += 1;
        PeerPlan {
            id,
            class,
            seed,
            arrival,
            delay,
            rng_seed: self.peer_seeds.gen(),
            replaces,
        }
    }

    /// The initial seeds and the arriving crowd, in order of arrival.
    pub fn initial(&mut self, cfg: &SwarmConfig) -> Vec<PeerPlan> {
        let mut out = Vec::new();
        for _ in 0..cfg.initial_seeds {
            let class = match cfg.seed_class_index() {
                Some(c) => c,
                None => draw(&self.shares, &mut self.seed_classes),
            };
            out.push(self.plan(class, true, Instant::ZERO, None));
        }
        let mut t = Instant::ZERO;
        for _ in 0..cfg.leechers {
            if let Arrival::Poisson { rate } = cfg.arrival {
                t += exponential(&mut self.arrivals, 1.0 / rate);
            }
            let class = self.draw_class();
            out.push(self.plan(class, false, t, None));
        }
        out
    }

    /// The tracker's answer to `me`: up to `tracker_peers` of `present` (excluding `me`),
    /// drawn uniformly without replacement, in increasing order.
    pub fn tracker_reply(&mut self, me: PeerId, present: &[PeerId]) -> Vec<PeerId> {
        let pool: Vec<PeerId> = present.iter().copied().filter(|&p| p != me).collect();
        let n = (self.tracker_peers as usize).min(pool.len());
        let mut out: Vec<PeerId> = rand::seq::index::sample(&mut self.tracker, pool.len(), n)
            .into_iter()
            .map(|i| pool[i])
            .collect();
        out.sort_unstable();
        out
    }

    /// Peer `id`, which joined at `joined`, completed its download at `now`: when it
    /// leaves, if ever.
    pub fn on_completed(&mut self, id: PeerId, joined: Instant, now: Instant) -> Option<Instant> {
        if id < self.initial_seeds {
            return None;
        }
        match self.behaviour {
            SeedBehaviour::NeverLeave => None,
            SeedBehaviour::LeaveAtOnce => Some(now),
            SeedBehaviour::RandomStay => {
                let download = (now - joined).as_secs_f64();
                Some(now + exponential(&mut self.stays, self.stay_factor * download))
            }
        }
    }

    /// Peer `id` left at `now`: the leecher that replaces it, if the behaviour says so.
    pub fn on_departed(&mut self, id: PeerId, now: Instant) -> Option<PeerPlan> {
        match self.behaviour {
            SeedBehaviour::NeverLeave => None,
            SeedBehaviour::RandomStay | SeedBehaviour::LeaveAtOnce => {
                let class = self.draw_class();
                Some(self.plan(class, false, now, Some(id)))
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn cfg(text: &str) -> SwarmConfig {
        let sc = crate::Scenario::from_toml(&format!("{text}[topology]\nkind = \"star\"\n"));
        sc.unwrap().swarm.unwrap()
    }

    const FIFTY_FIFTY: &str = "[swarm]\n[[swarm.class]]\nname = \"ledbat\"\nshare = 0.5\n[[swarm.class]]\nname = \"tcp\"\nshare = 0.5\n";

    #[test]
    fn one_seed_at_zero_then_a_hundred_leechers_in_arrival_order() {
        let c = cfg(FIFTY_FIFTY);
        let plan = Population::new(&c, 1).initial(&c);
        assert_eq!(plan.len(), 101);
        assert!(plan[0].seed && plan[0].arrival == Instant::ZERO);
        assert!(plan[1..].iter().all(|p| !p.seed));
        assert!(plan.windows(2).all(|w| w[0].arrival <= w[1].arrival));
        assert!(plan.iter().enumerate().all(|(i, p)| p.id as usize == i));
    }

    #[test]
    fn the_seed_class_is_named_or_drawn_by_the_shares() {
        // Drawn: a class of share 0 never seeds; over 400 seeds of a 50-50 population each
        // class seeds about half the time (sd 10 of 200).
        let all_tcp = cfg(&FIFTY_FIFTY.replacen("share = 0.5", "share = 0.0", 1));
        assert!((0..50).all(|s| Population::new(&all_tcp, s).initial(&all_tcp)[0].class == 1));
        let c = cfg(FIFTY_FIFTY);
        let ones: usize = (0..400)
            .map(|s| Population::new(&c, s).initial(&c)[0].class)
            .sum();
        assert!((160..=240).contains(&ones), "{ones}");
        // Named.
        let named = cfg(&FIFTY_FIFTY.replace("[swarm]\n", "[swarm]\nseed_class = \"tcp\"\n"));
        assert!((0..50).all(|s| Population::new(&named, s).initial(&named)[0].class == 1));
        // Drawing the seed's class leaves the leechers' plan unchanged.
        let a = Population::new(&c, 3).initial(&c);
        let b = Population::new(&named, 3).initial(&named);
        assert_eq!(a[1..], b[1..]);
    }

    #[test]
    fn poisson_arrivals_have_the_configured_rate() {
        // Arrivals in the first 500 s at 0.1 Hz: mean 50, variance 50; over 200 seeds the
        // mean count has standard deviation 0.5, so 4 sd is +-2.
        let c = cfg(FIFTY_FIFTY);
        let n = 200;
        let total: usize = (0..n)
            .map(|seed| {
                Population::new(&c, seed)
                    .initial(&c)
                    .iter()
                    .filter(|p| !p.seed && p.arrival <= Instant::from_secs(500))
                    .count()
            })
            .sum();
        let mean = total as f64 / n as f64;
        assert!((mean - 50.0).abs() < 2.0, "{mean}");
    }

    #[test]
    fn same_seed_same_plan_and_shares_do_not_move_arrivals() {
        let c = cfg(FIFTY_FIFTY);
        assert_eq!(
            Population::new(&c, 9).initial(&c),
            Population::new(&c, 9).initial(&c)
        );
        assert_ne!(
            Population::new(&c, 9).initial(&c),
            Population::new(&c, 10).initial(&c)
        );
        let skewed = cfg(&FIFTY_FIFTY.replacen("share = 0.5", "share = 0.9", 1));
        let a: Vec<Instant> = Population::new(&c, 9)
            .initial(&c)
            .iter()
            .map(|p| p.arrival)
            .collect();
        let b: Vec<Instant> = Population::new(&skewed, 9)
            .initial(&skewed)
            .iter()
            .map(|p| p.arrival)
            .collect();
        assert_eq!(a, b);
    }

    #[test]
    fn classes_follow_their_shares_and_delays_their_range() {
        let c = cfg(&FIFTY_FIFTY
            .replacen("share = 0.5", "share = 0.25", 1)
            .replacen("share = 0.5", "share = 0.75", 1));
        let mut tcp = 0;
        let mut n = 0;
        let mut delay_sum = 0.0;
        for seed in 0..40 {
            for p in Population::new(&c, seed)
                .initial(&c)
                .iter()
                .filter(|p| !p.seed)
            {
                n += 1;
                tcp += p.class;
                let d = p.delay.as_millis_f64();
                assert!((1.0..=25.0).contains(&d), "{d}");
                delay_sum += d;
            }
        }
        // 4000 draws with p = 0.75: sd of the fraction ~0.007.
        let frac = tcp as f64 / n as f64;
        assert!((frac - 0.75).abs() < 0.03, "{frac}");
        // Uniform on [1, 25] ms: mean 13 ms, sd of the mean over 4000 ~0.11 ms.
        let mean = delay_sum / n as f64;
        assert!((mean - 13.0).abs() < 0.5, "{mean}");
    }

    #[test]
    fn tracker_returns_a_uniform_subset_without_the_asker() {
        let c = cfg(&FIFTY_FIFTY.replace("[swarm]\n", "[swarm]\ntracker_peers = 3\n"));
        let mut p = Population::new(&c, 4);
        let present: Vec<PeerId> = (0..10).collect();
        let mut hits = [0u32; 10];
        for _ in 0..900 {
            let r = p.tracker_reply(2, &present);
            assert_eq!(r.len(), 3);
            assert!(r.windows(2).all(|w| w[0] < w[1]), "distinct, sorted");
            assert!(!r.contains(&2));
            for x in r {
                hits[x as usize] += 1;
            }
        }
        // 2700 picks over 9 peers: 300 each expected (sd ~14).
        assert_eq!(hits[2], 0);
        assert!(
            hits.iter()
                .enumerate()
                .all(|(i, &h)| i == 2 || (240..=360).contains(&h)),
            "{hits:?}"
        );
        assert_eq!(p.tracker_reply(0, &[0, 1]), vec![1]);
    }

    #[test]
    fn flash_crowd_arrives_at_once() {
        let c = cfg(&FIFTY_FIFTY.replace(
            "[swarm]\n",
            "[swarm]\narrival = { kind = \"all-at-once\" }\nleechers = 75\n",
        ));
        let plan = Population::new(&c, 3).initial(&c);
        assert_eq!(plan.len(), 76);
        assert!(plan.iter().all(|p| p.arrival == Instant::ZERO));
    }

    #[test]
    fn seed_behaviours_decide_departure_and_replacement() {
        let joined = Instant::from_secs(100);
        let done = Instant::from_secs(300);
        let with = |b: &str| {
            cfg(&FIFTY_FIFTY.replace("[swarm]\n", &format!("[swarm]\nseed_behaviour = \"{b}\"\n")))
        };

        let c = with("never-leave");
        let mut p = Population::new(&c, 1);
        p.initial(&c);
        assert_eq!(p.on_completed(5, joined, done), None);
        assert_eq!(p.on_departed(5, done), None);

        let c = with("leave-at-once");
        let mut p = Population::new(&c, 1);
        let first = p.initial(&c);
        assert_eq!(p.on_completed(5, joined, done), Some(done));
        let r = p.on_departed(5, done).unwrap();
        assert_eq!((r.arrival, r.replaces, r.seed), (done, Some(5), false));
        assert_eq!(r.id as usize, first.len(), "a fresh id");
        // The initial seed never leaves.
        assert_eq!(p.on_completed(0, Instant::ZERO, done), None);

        // Random stay: exponential of mean 0.5 x 200 s = 100 s; over 2000 draws the
        // mean's sd is ~2.2 s.
        let c = with("random-stay");
        let mut p = Population::new(&c, 1);
        p.initial(&c);
        let n = 2000;
        let mean = (0..n)
            .map(|_| (p.on_completed(5, joined, done).unwrap() - done).as_secs_f64())
            .sum::<f64>()
            / n as f64;
        assert!((mean - 100.0).abs() < 9.0, "{mean}");
        assert!(p.on_departed(5, done).is_some());
    }
}
