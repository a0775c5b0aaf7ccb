//! Whom to upload to: BitTorrent's choking algorithm (Cohen 2003, section 2.4; seed 003
//! section 1.2), run every round (`round`, 10 s).
//!
//! - **Regular slots** (`regular`, 4 in seed 003 section 1.2: "only to four remote peers from
//!   which we are downloading the most"): a leecher unchokes the interested peers it
//!   received the most bytes from during the last round (tit-for-tat); ties are broken at
//!   random (the pool is shuffled before a stable sort), so that newcomers with nothing to
//!   offer yet are not ordered by their number.
//! - **Optimistic slots** (`optimistic`, 1 in seed 003 section 1.2: "one connection is kept
//!   for the optimistic unchoking"): drawn at random among the interested peers left
//!   choked, kept for `optimistic_rounds` rounds (3 x 10 s = 30 s), redrawn earlier only if
//!   the optimistic peer leaves, loses interest or wins a regular slot. Peers that
//!   connected since the previous draw weigh `new_peer_weight` (3) times more, as in
//!   mainline BitTorrent and the ns-2 module of seed 003 chapter 5, so that a newcomer
//!   with no piece gets its first one soon.
//! - **Seeds** have no download rate to reciprocate. [`SeedChoking::UploadRate`] unchokes
//!   the peers it uploaded the most to in the last round: what seed 003 section 1.2
//!   describes ("a seed performs the content's upload towards the peers that achieve the
//!   highest throughput") and the ns-2 module of its chapter 5 does (mainline 3.x).
//!   [`SeedChoking::RoundRobin`] gives the regular slots in turn to every interested peer
//!   (the later mainline 4.x / libtorrent seed policy, Legout et al. 2006), so that one
//!   fast downloader cannot keep a seed to itself.
//! - **Anti-snubbing** (`snub_after`; mainline: 60 s; `None` turns it off, as in the ns-2
//!   module of seed 003 chapter 5, section 5.3): a leecher keeps a peer that has not sent
//!   it a block for that long while it wanted the peer's pieces out of the regular slots;
//!   it may still be unchoked optimistically. Whether a candidate snubs is the caller's
//!   judgement ([`Candidate::snubbed`]).
//!
//! Between rounds, [`Choker::admit`] says whether an interested peer may be unchoked at
//! once because a slot is free (libtorrent does this; otherwise a newcomer waits up to a
//! round).
//!
//! Note on slot counts: the ns-2 module of seed 003 chapter 5 counts the optimistic
//! unchoke among its 4 slots (`unchokes 4`); set `regular = 3` to reproduce it.

use crate::ConnId;
use ledbat_core::{Duration, Instant};
use rand::seq::SliceRandom;
use rand::Rng;
use serde::{Deserialize, Serialize};
use std::collections::VecDeque;

/// How a seed fills its regular slots.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum SeedChoking {
    /// The peers uploaded to the most in the last round (seed 003 section 1.2, its ns-2
    /// module).
    #[default]
    UploadRate,
    /// Every interested peer in turn (mainline 4.x, libtorrent).
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
    /// Optimistic slots. Default 1 (seed 003 section 1.2).
    pub optimistic: u32,
    /// Rounds an optimistic unchoke lasts. Default 3 (30 s).
    pub optimistic_rounds: u32,
    /// Weight of peers connected since the previous optimistic draw. Default 3.
    pub new_peer_weight: u32,
    /// The round period. Default 10 s.
    pub round: Duration,
    /// How seeds choose. Default [`SeedChoking::UploadRate`].
    pub seed_choking: SeedChoking,
    /// A peer that sent no block for this long while we wanted its pieces is snubbing us.
    /// Default 60 s (mainline); `None` turns anti-snubbing off.
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
    /// It snubs us (anti-snubbing; judged by the caller).
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

    /// Whether an interested peer may be unchoked between rounds: fewer than all slots are
    /// in use (`unchoked` counts the unchoked connections).
    pub fn admit(&self, unchoked: usize) -> bool {
        (unchoked as u32) < self.cfg.slots()
    }

    /// Runs one round at `now`: the connections to have unchoked, ascending. `cands` must
    /// be in ascending order of id (the random draws depend on it).
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
        let snubbing = self.cfg.snub_after.is_some() && !seeding;
        let mut pool: Vec<&Candidate> = cands
            .iter()
            .filter(|c| c.interested && !(snubbing && c.snubbed))
            .collect();
        pool.shuffle(rng);
        if seeding {
            pool.sort_by_key(|c| std::cmp::Reverse(c.uploaded));
        } else {
            pool.sort_by_key(|c| std::cmp::Reverse(c.downloaded));
        }
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

    fn rng(seed: u64) -> ChaCha8Rng {
        ChaCha8Rng::seed_from_u64(seed)
    }

    #[test]
    fn leecher_unchokes_its_four_best_uploaders_plus_one_optimistic() {
        // Interested peers 1..6 sent 100, 500, 300, 0, 200, 400 bytes; peer 7 sent the
        // most but is not interested.
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
        let out = ch.rechoke(at(0), false, &cands, &mut rng(5));
        assert_eq!(out.len(), 5);
        for id in [2, 3, 5, 6] {
            assert!(out.contains(&id), "{out:?}");
        }
        let opt = ch.optimistic()[0];
        assert!(opt == 1 || opt == 4, "optimistic among the rest: {opt}");
        assert!(!out.contains(&7));
    }

    #[test]
    fn fewer_interested_than_slots_unchokes_them_all() {
        let cands = [cand(1, true, 0), cand(2, false, 0), cand(3, true, 10)];
        let mut ch = Choker::new(ChokerConfig::default());
        assert_eq!(ch.rechoke(at(0), false, &cands, &mut rng(0)), vec![1, 3]);
    }

    #[test]
    fn optimistic_unchoke_rotates_every_third_round() {
        // Two regular slots go to peers 1 and 2 (fastest); peers 3..10 compete for the
        // optimistic slot.
        let cfg = ChokerConfig {
            regular: 2,
            ..ChokerConfig::default()
        };
        let mut cands: Vec<Candidate> = (1..=10).map(|i| cand(i, true, 0)).collect();
        cands[0].downloaded = 1000;
        cands[1].downloaded = 900;
        let mut changed_at_30 = 0;
        for seed in 0..60 {
            let mut ch = Choker::new(cfg);
            let mut r = rng(seed);
            ch.rechoke(at(0), false, &cands, &mut r);
            let first = ch.optimistic().to_vec();
            assert_eq!(first.len(), 1);
            assert!(first[0] >= 3);
            ch.rechoke(at(10), false, &cands, &mut r);
            assert_eq!(ch.optimistic(), first, "kept at 10 s");
            ch.rechoke(at(20), false, &cands, &mut r);
            assert_eq!(ch.optimistic(), first, "kept at 20 s");
            ch.rechoke(at(30), false, &cands, &mut r);
            if ch.optimistic() != first {
                changed_at_30 += 1;
            }
        }
        // A fresh uniform draw among 8 repeats the previous one with probability 1/8:
        // 52.5 of 60 expected to change.
        assert!(changed_at_30 >= 44, "{changed_at_30}");
    }

    #[test]
    fn optimistic_peer_promoted_to_regular_is_replaced_at_once() {
        let cfg = ChokerConfig {
            regular: 1,
            ..ChokerConfig::default()
        };
        let mut cands = vec![cand(1, true, 100), cand(2, true, 0)];
        let mut ch = Choker::new(cfg);
        let mut r = rng(0);
        assert_eq!(ch.rechoke(at(0), false, &cands, &mut r), vec![1, 2]);
        assert_eq!(ch.optimistic(), &[2]);
        // Peer 2 now uploads the most: it takes the regular slot, peer 1 becomes optimistic.
        cands[1].downloaded = 500;
        cands[0].downloaded = 0;
        assert_eq!(ch.rechoke(at(10), false, &cands, &mut r), vec![1, 2]);
        assert_eq!(ch.optimistic(), &[1]);
    }

    #[test]
    fn newcomers_are_three_times_likelier_optimistic_picks() {
        let cfg = ChokerConfig {
            regular: 0,
            ..ChokerConfig::default()
        };
        let mut new_won = 0;
        for seed in 0..400 {
            let mut ch = Choker::new(cfg);
            let mut r = rng(seed);
            ch.rechoke(at(0), false, &[cand(1, true, 0)], &mut r);
            let mut late = cand(2, true, 0);
            late.connected_at = at(5);
            // Third round after the first draw: redraw among peer 1 (old) and 2 (new).
            for t in [10, 20] {
                ch.rechoke(at(t), false, &[cand(1, true, 0), late], &mut r);
            }
            ch.rechoke(at(30), false, &[cand(1, true, 0), late], &mut r);
            if ch.optimistic() == [2] {
                new_won += 1;
            }
        }
        // Weight 3 against 1: 300 of 400 expected (sd ~8.7).
        assert!((265..=335).contains(&new_won), "{new_won}");
    }

    #[test]
    fn seed_round_robin_serves_every_interested_peer_in_turn() {
        let cfg = ChokerConfig {
            regular: 2,
            optimistic: 0,
            seed_choking: SeedChoking::RoundRobin,
            ..ChokerConfig::default()
        };
        let mut cands: Vec<Candidate> = (1..=6).map(|i| cand(i, true, 0)).collect();
        cands[2].interested = false; // peer 3 is skipped but keeps its turn
        let mut ch = Choker::new(cfg);
        let mut r = rng(0);
        let rounds: Vec<Vec<ConnId>> = (0..4)
            .map(|k| ch.rechoke(at(10 * k), true, &cands, &mut r))
            .collect();
        // Rotation 1 2 3 4 5 6 with 3 uninterested: {1,2}, then {4,5}, then 6 and 1 (the
        // turn wraps), then 2 and 4.
        assert_eq!(rounds, vec![vec![1, 2], vec![4, 5], vec![1, 6], vec![2, 4]]);
    }

    #[test]
    fn seed_by_upload_rate_prefers_the_fastest_downloaders() {
        let cfg = ChokerConfig {
            regular: 2,
            optimistic: 0,
            ..ChokerConfig::default()
        };
        let mut cands: Vec<Candidate> = (1..=4).map(|i| cand(i, true, 0)).collect();
        for (c, up) in cands.iter_mut().zip([10, 300, 200, 50]) {
            c.uploaded = up;
        }
        let mut ch = Choker::new(cfg);
        assert_eq!(ch.rechoke(at(0), true, &cands, &mut rng(0)), vec![2, 3]);
    }

    #[test]
    fn snubbing_peer_loses_its_regular_slot_only_while_leeching() {
        let cfg = ChokerConfig {
            regular: 1,
            optimistic: 0,
            ..ChokerConfig::default()
        };
        let mut cands = vec![cand(1, true, 900), cand(2, true, 100)];
        cands[0].snubbed = true;
        assert_eq!(
            Choker::new(cfg).rechoke(at(0), false, &cands, &mut rng(0)),
            vec![2]
        );
        // Seeding: the snub judgement does not apply; peer 1 was uploaded to the most.
        cands[0].uploaded = 50;
        assert_eq!(
            Choker::new(cfg).rechoke(at(0), true, &cands, &mut rng(0)),
            vec![1]
        );
        // Anti-snubbing off: the judgement is ignored.
        let off = ChokerConfig {
            snub_after: None,
            ..cfg
        };
        assert_eq!(
            Choker::new(off).rechoke(at(0), false, &cands, &mut rng(0)),
            vec![1]
        );
    }

    #[test]
    fn a_free_slot_admits_at_once() {
        let ch = Choker::new(ChokerConfig::default());
        assert!(ch.admit(4));
        assert!(!ch.admit(5));
    }
}
