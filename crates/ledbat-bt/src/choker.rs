//! Whom to upload to: BitTorrent's choking algorithm (Cohen 2003, section 2.4; seed 003,
//! section 1.2), sans-IO.
//!
//! Every round (10 s) [`Choker::rechoke`] chooses the connections to unchoke:
//!
//! - **Regular slots** (`regular`, default 4): while leeching, the interested peers that sent
//!   us the most payload during the last round (tit-for-tat on download rate); while seeding,
//!   the interested peers we sent the most to ([`SeedChoking::UploadRate`], seed 003 section
//!   1.2) or every interested peer in turn ([`SeedChoking::RoundRobin`], libtorrent's and
//!   later mainline's seed policy). Ties are broken at random.
//! - **Optimistic slot** (`optimistic`, default 1): an interested peer left choked, drawn at
//!   random, kept for `optimistic_rounds` rounds (3 x 10 s = 30 s); peers connected since the
//!   previous draw weigh `new_peer_weight` (3) times more, as in mainline, so a newcomer with
//!   nothing to offer yet gets a first piece soon.
//! - **Anti-snubbing** (`snub_after`, default 60 s as in mainline): while leeching, a peer we
//!   are interested in that has sent no block for that long is left out of the regular slots
//!   (it can still be drawn optimistically).
//!
//! Between rounds, [`Choker::admit`] says whether an interested peer may be unchoked at once
//! because a slot is free (libtorrent does this; otherwise a newcomer waits up to a round).

use ledbat_core::{Duration, Instant};
use rand::seq::SliceRandom;
use rand::Rng;
use std::collections::VecDeque;

/// A connection, as the choker names it.
pub type ConnId = u64;

/// How a seed fills its regular slots.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum SeedChoking {
    /// The peers we uploaded the most to in the last round (seed 003 section 1.2).
    #[default]
    UploadRate,
    /// Every interested peer in turn (libtorrent's default).
    RoundRobin,
}

impl std::str::FromStr for SeedChoking {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, String> {
        match s {
            "upload-rate" => Ok(Self::UploadRate),
            "round-robin" => Ok(Self::RoundRobin),
            _ => Err(format!("`{s}`: expected `upload-rate` or `round-robin`")),
        }
    }
}

/// Choker settings.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ChokerConfig {
    /// Regular (tit-for-tat) slots. Default 4 (seed 003 section 1.2).
    pub regular: u32,
    /// Optimistic slots. Default 1.
    pub optimistic: u32,
    /// Rounds an optimistic unchoke lasts. Default 3 (30 s).
    pub optimistic_rounds: u32,
    /// Weight of peers connected since the previous optimistic draw. Default 3.
    pub new_peer_weight: u32,
    /// The round period. Default 10 s.
    pub round: Duration,
    /// Seed policy.
    pub seed_choking: SeedChoking,
    /// A peer that sent no block for this long while we wanted its pieces is snubbing us.
    /// Default 60 s; `None` turns anti-snubbing off.
    pub snub_after: Option<Duration>,
}

impl Default for ChokerConfig {
    fn default() -> Self {
        Self {
            regular: 4,
            optimistic: 1,
            optimistic_rounds: 3,
            new_peer_weight: 3,
            round: Duration::from_secs(10),
            seed_choking: SeedChoking::UploadRate,
            snub_after: Some(Duration::from_secs(60)),
        }
    }
}

impl ChokerConfig {
    /// Total unchoke slots.
    pub fn slots(&self) -> u32 {
        self.regular + self.optimistic
    }
}

/// What the choker knows of one connection at a round.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Candidate {
    /// The connection.
    pub id: ConnId,
    /// The peer is interested in our pieces.
    pub interested: bool,
    /// Payload received from it during the last round.
    pub downloaded: u64,
    /// Payload sent to it during the last round.
    pub uploaded: u64,
    /// It snubs us (see [`Choker::snubbed`]).
    pub snubbed: bool,
    /// When it connected.
    pub connected_at: Instant,
}

/// The choking state across rounds.
#[derive(Clone, Debug)]
pub struct Choker {
    cfg: ChokerConfig,
    rounds: u64,
    optimistic: Vec<ConnId>,
    last_draw: Option<Instant>,
    rotation: VecDeque<ConnId>,
}

impl Choker {
    /// A choker that ran no round yet.
    pub fn new(cfg: ChokerConfig) -> Self {
        Self {
            cfg,
            rounds: 0,
            optimistic: Vec::new(),
            last_draw: None,
            rotation: VecDeque::new(),
        }
    }

    /// Settings.
    pub fn config(&self) -> &ChokerConfig {
        &self.cfg
    }

    /// The optimistic unchokes in force.
    pub fn optimistic(&self) -> &[ConnId] {
        &self.optimistic
    }

    /// Whether a peer we want pieces from snubs us at `now`: it sent its last block (or,
    /// if none, we became interested) before `now - snub_after`.
    pub fn snubbed(&self, now: Instant, we_are_interested: bool, last_block: Instant) -> bool {
        match self.cfg.snub_after {
            Some(after) => we_are_interested && now.saturating_since(last_block) >= after,
            None => false,
        }
    }

    /// Whether an interested peer may be unchoked between rounds: fewer than all slots are
    /// in use (`unchoked` counts the unchoked connections).
    pub fn admit(&self, unchoked: usize) -> bool {
        (unchoked as u32) < self.cfg.slots()
    }

    /// Runs one round at `now`: the connections to have unchoked, ascending.
    pub fn rechoke<R: Rng>(
        &mut self,
        now: Instant,
        seeding: bool,
        cands: &[Candidate],
        rng: &mut R,
    ) -> Vec<ConnId> {
        let regular = self.regular(seeding, cands, rng);
        let redraw = self
            .rounds
            .is_multiple_of(self.cfg.optimistic_rounds.max(1) as u64);
        if redraw {
            self.optimistic.clear();
        } else {
            self.optimistic.retain(|id| {
                !regular.contains(id) && cands.iter().any(|c| c.id == *id && c.interested)
            });
        }
        if (self.optimistic.len() as u32) < self.cfg.optimistic {
            self.draw(now, cands, &regular, rng);
        }
        self.rounds += 1;
        let mut out: Vec<ConnId> = regular.into_iter().chain(self.optimistic.clone()).collect();
        out.sort_unstable();
        out.dedup();
        out
    }

    fn regular<R: Rng>(&mut self, seeding: bool, cands: &[Candidate], rng: &mut R) -> Vec<ConnId> {
        let n = self.cfg.regular as usize;
        if seeding && self.cfg.seed_choking == SeedChoking::RoundRobin {
            self.rotation.retain(|id| cands.iter().any(|c| c.id == *id));
            for c in cands {
                if !self.rotation.contains(&c.id) {
                    self.rotation.push_back(c.id);
                }
            }
            let chosen: Vec<ConnId> = self
                .rotation
                .iter()
                .copied()
                .filter(|id| cands.iter().any(|c| c.id == *id && c.interested))
                .take(n)
                .collect();
            self.rotation.retain(|id| !chosen.contains(id));
            self.rotation.extend(chosen.iter().copied());
            return chosen;
        }
        let mut pool: Vec<&Candidate> = cands
            .iter()
            .filter(|c| c.interested && (seeding || !c.snubbed))
            .collect();
        pool.shuffle(rng);
        pool.sort_by_key(|c| std::cmp::Reverse(if seeding { c.uploaded } else { c.downloaded }));
        pool.into_iter().take(n).map(|c| c.id).collect()
    }

    fn draw<R: Rng>(&mut self, now: Instant, cands: &[Candidate], regular: &[ConnId], rng: &mut R) {
        let since = self.last_draw.replace(now);
        let mut pool: Vec<(ConnId, u32)> = cands
            .iter()
            .filter(|c| {
                c.interested && !regular.contains(&c.id) && !self.optimistic.contains(&c.id)
            })
            .map(|c| {
                let new = since.is_some_and(|t| c.connected_at > t);
                (
                    c.id,
                    if new {
                        self.cfg.new_peer_weight.max(1)
                    } else {
                        1
                    },
                )
            })
            .collect();
        while (self.optimistic.len() as u32) < self.cfg.optimistic && !pool.is_empty() {
            let total: u32 = pool.iter().map(|(_, w)| w).sum();
            let mut x = rng.gen_range(0..total);
            let i = pool
                .iter()
                .position(|&(_, w)| {
                    let hit = x < w;
                    x = x.saturating_sub(w);
                    hit
                })
                .unwrap_or(0);
            self.optimistic.push(pool.swap_remove(i).0);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::SeedableRng;
    use rand_chacha::ChaCha8Rng;

    fn cand(id: ConnId, interested: bool, downloaded: u64) -> Candidate {
        Candidate {
            id,
            interested,
            downloaded,
            uploaded: 0,
            snubbed: false,
            connected_at: Instant::ZERO,
        }
    }

    fn at(s: u64) -> Instant {
        Instant::from_secs(s)
    }

    #[test]
    fn leecher_unchokes_its_four_best_uploaders_and_one_more() {
        let cands = [
            cand(1, true, 100),
            cand(2, true, 500),
            cand(3, true, 300),
            cand(4, true, 0),
            cand(5, true, 200),
            cand(6, true, 400),
            cand(7, false, 9_999),
        ];
        let mut ch = Choker::new(ChokerConfig::default());
        let out = ch.rechoke(at(0), false, &cands, &mut ChaCha8Rng::seed_from_u64(5));
        assert_eq!(out.len(), 5);
        for id in [2, 3, 5, 6] {
            assert!(out.contains(&id), "{out:?}");
        }
        assert!(
            matches!(ch.optimistic(), [1] | [4]),
            "{:?}",
            ch.optimistic()
        );
    }

    #[test]
    fn optimistic_slot_is_kept_for_three_rounds() {
        let cfg = ChokerConfig {
            regular: 1,
            ..ChokerConfig::default()
        };
        let mut cands: Vec<Candidate> = (1..=10).map(|i| cand(i, true, 0)).collect();
        cands[0].downloaded = 1000;
        let mut changed = 0;
        for seed in 0..50 {
            let mut ch = Choker::new(cfg);
            let mut rng = ChaCha8Rng::seed_from_u64(seed);
            ch.rechoke(at(0), false, &cands, &mut rng);
            let first = ch.optimistic().to_vec();
            ch.rechoke(at(10), false, &cands, &mut rng);
            ch.rechoke(at(20), false, &cands, &mut rng);
            assert_eq!(ch.optimistic(), first);
            ch.rechoke(at(30), false, &cands, &mut rng);
            changed += usize::from(ch.optimistic() != first);
        }
        // A fresh draw among 9 repeats the last one with probability 1/9: ~44 of 50 change.
        assert!(changed >= 36, "{changed}");
    }

    #[test]
    fn snubbing_peer_loses_its_regular_slot_but_not_when_seeding() {
        let cfg = ChokerConfig {
            regular: 1,
            optimistic: 0,
            ..ChokerConfig::default()
        };
        let mut cands = vec![cand(1, true, 900), cand(2, true, 100)];
        cands[0].snubbed = true;
        let mut rng = ChaCha8Rng::seed_from_u64(0);
        assert_eq!(
            Choker::new(cfg).rechoke(at(0), false, &cands, &mut rng),
            vec![2]
        );
        cands[0].uploaded = 50;
        assert_eq!(
            Choker::new(cfg).rechoke(at(0), true, &cands, &mut rng),
            vec![1]
        );
    }

    #[test]
    fn snub_is_sixty_seconds_without_a_block_while_interested() {
        let ch = Choker::new(ChokerConfig::default());
        assert!(!ch.snubbed(at(59), true, at(0)));
        assert!(ch.snubbed(at(60), true, at(0)));
        assert!(!ch.snubbed(at(600), false, at(0)));
    }

    #[test]
    fn seed_round_robin_serves_everyone_in_turn() {
        let cfg = ChokerConfig {
            regular: 2,
            optimistic: 0,
            seed_choking: SeedChoking::RoundRobin,
            ..ChokerConfig::default()
        };
        let cands: Vec<Candidate> = (1..=5).map(|i| cand(i, true, 0)).collect();
        let mut ch = Choker::new(cfg);
        let mut rng = ChaCha8Rng::seed_from_u64(0);
        let rounds: Vec<Vec<ConnId>> = (0..3)
            .map(|r| ch.rechoke(at(10 * r), true, &cands, &mut rng))
            .collect();
        assert_eq!(rounds, vec![vec![1, 2], vec![3, 4], vec![1, 5]]);
    }

    #[test]
    fn seed_by_upload_rate_prefers_its_fastest_downloaders() {
        let cfg = ChokerConfig {
            regular: 2,
            optimistic: 0,
            ..ChokerConfig::default()
        };
        let mut cands: Vec<Candidate> = (1..=4).map(|i| cand(i, true, 0)).collect();
        for (c, up) in cands.iter_mut().zip([10, 300, 200, 50]) {
            c.uploaded = up;
        }
        let mut rng = ChaCha8Rng::seed_from_u64(0);
        assert_eq!(
            Choker::new(cfg).rechoke(at(0), true, &cands, &mut rng),
            vec![2, 3]
        );
    }

    #[test]
    fn a_free_slot_admits_at_once() {
        let ch = Choker::new(ChokerConfig::default());
        assert!(ch.admit(4));
        assert!(!ch.admit(5));
    }
}
