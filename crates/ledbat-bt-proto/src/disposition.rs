//! Which transports a peer opens and accepts, which transport carries a pair's data, and
//! which of two connections to one peer stays: µTorrent's `bt.transp_disposition` (seed 003,
//! section 6.1.2, Table 6.1).
//!
//! The setting is a bitmask (µTorrent's manual, as seed 003 section 6.1.2 quotes it):
//!
//! | bit | meaning |
//! |---|---|
//! | 1 | attempt outgoing TCP connections |
//! | 2 | attempt outgoing uTP (LEDBAT) connections |
//! | 4 | accept incoming TCP connections |
//! | 8 | accept incoming uTP (LEDBAT) connections |
//! | 16 | use the new uTP header format (ours always does; accepted and ignored) |
//!
//! Chapter 6 uses 31 (µTorrent's default: everything), 5 (TCP only), 10 (uTP only), 13
//! (attempt TCP, accept both) and 14 (attempt uTP, accept both). A mask that neither
//! attempts nor accepts any transport (0, 16) is refused: such a peer could never connect.
//! Chapter 5's text calls its "new" peers (that initiate LEDBAT and accept TCP) `=5` and its
//! "old" ones `=10`, which contradicts the bitmask; by the bitmask, and by section 5.3
//! ("peers initiate data connections with either LEDBAT or TCP, but can accept any
//! flavor"), those peers are 14 and 13.
//!
//! **Which transport carries a pair's data** ([`resolve`]): the thesis observed that its
//! chapter 5 simulator and µTorrent differ (section 6.1.2, Table 6.1; section 6.2.3):
//!
//! - [`DispositionModel::PerUploader`] (chapter 5's simulator): each direction's data
//!   travels on the transport its *uploader* attempts, if the downloader accepts it (uTP
//!   first when the uploader attempts both); if it accepts none of them, on the connection
//!   the other side opened, if any. Control messages use a separate TCP connection.
//! - [`DispositionModel::Utorrent`] (what µTorrent 3.0 does, Table 6.1): every connection
//!   attempt that the other side accepts succeeds; if a uTP connection exists between the
//!   two peers it carries everything in both directions ("hardcoded LEDBAT preference": the
//!   TCP one is closed), otherwise the TCP one does. Control travels with the data.
//!
//! [`Dials`] says who attempts: in a swarm both peers usually learn of each other from the
//! tracker and both dial (as in the thesis's testbed); [`Dials::First`] models a connection
//! only the first peer initiates. No common transport means no connection at all.
//!
//! **Which of two connections stays** ([`keep_existing`]), for a client that really dials
//! both transports at once, as the thesis observed µTorrent do ("two connections, a TCP and
//! an LEDBAT ones are attempted"): uTP wins over TCP (µTorrent's "hardcoded LEDBAT
//! preference", Table 6.1 case 1); between two of the same transport (both sides dialled
//! each other), the one opened by the peer with the smaller peer id wins, so that both ends
//! close the same one. The data of both directions then travels on the connection kept,
//! which is what makes a 13-peer upload over uTP to a 14-peer (Table 6.1, case 1).

use serde::{Deserialize, Serialize};
use std::fmt;

/// A transport carrying a peer connection, in order of preference.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Transport {
    /// uTP (BEP 29) over UDP: the peer's LEDBAT-family controller.
    Utp,
    /// TCP (kernel TCP in a client; the simulator's loss-based controller).
    Tcp,
}

impl Transport {
    /// Both transports, uTP first (the preferred one).
    pub const ALL: [Transport; 2] = [Transport::Utp, Transport::Tcp];

    /// Lower-case name (`utp`, `tcp`).
    pub fn name(self) -> &'static str {
        match self {
            Transport::Utp => "utp",
            Transport::Tcp => "tcp",
        }
    }
}

impl fmt::Display for Transport {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A `bt.transp_disposition` bitmask.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(try_from = "u32", into = "u32")]
pub struct Disposition(u8);

/// A disposition outside 0..=31, or one that can neither open nor accept a connection.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum DispositionError {
    /// More than five bits.
    #[error("bt.transp_disposition is a 5-bit mask (0-31), got {0}")]
    Range(u32),
    /// Neither attempts nor accepts any transport.
    #[error("bt.transp_disposition {0} neither attempts nor accepts any transport")]
    Useless(u8),
}

impl Disposition {
    /// Attempt outgoing TCP.
    pub const OUT_TCP: u8 = 1;
    /// Attempt outgoing uTP.
    pub const OUT_UTP: u8 = 2;
    /// Accept incoming TCP.
    pub const IN_TCP: u8 = 4;
    /// Accept incoming uTP.
    pub const IN_UTP: u8 = 8;
    /// New uTP header format (no effect).
    pub const NEW_HEADER: u8 = 16;
    /// µTorrent's default, 31.
    pub const DEFAULT: Disposition = Disposition(31);
    /// uTP only, both ways (10).
    pub const UTP_ONLY: Disposition = Disposition(10);
    /// TCP only, both ways (5).
    pub const TCP_ONLY: Disposition = Disposition(5);

    /// The bitmask `bits`.
    pub fn new(bits: u32) -> Result<Self, DispositionError> {
        if bits > 31 {
            return Err(DispositionError::Range(bits));
        }
        let d = Disposition(bits as u8);
        if d.0 & 0x0f == 0 {
            return Err(DispositionError::Useless(d.0));
        }
        Ok(d)
    }

    /// The bitmask.
    pub fn bits(self) -> u8 {
        self.0
    }

    /// Whether it attempts outgoing connections over `t`.
    pub fn attempts(self, t: Transport) -> bool {
        self.0 & Self::out_bit(t) != 0
    }

    /// Whether it accepts incoming connections over `t`.
    pub fn accepts(self, t: Transport) -> bool {
        self.0 & Self::in_bit(t) != 0
    }

    /// Whether it needs `t` at all (to dial or to accept).
    pub fn uses(self, t: Transport) -> bool {
        self.attempts(t) || self.accepts(t)
    }

    /// The transports it dials a new peer over, uTP first.
    pub fn dials(self) -> impl Iterator<Item = Transport> {
        Transport::ALL
            .into_iter()
            .filter(move |&t| self.attempts(t))
    }

    fn out_bit(t: Transport) -> u8 {
        match t {
            Transport::Tcp => Self::OUT_TCP,
            Transport::Utp => Self::OUT_UTP,
        }
    }

    fn in_bit(t: Transport) -> u8 {
        match t {
            Transport::Tcp => Self::IN_TCP,
            Transport::Utp => Self::IN_UTP,
        }
    }
}

impl Default for Disposition {
    fn default() -> Self {
        Self::DEFAULT
    }
}

impl TryFrom<u32> for Disposition {
    type Error = DispositionError;
    fn try_from(v: u32) -> Result<Self, DispositionError> {
        Disposition::new(v)
    }
}

impl From<Disposition> for u32 {
    fn from(d: Disposition) -> u32 {
        d.0 as u32
    }
}

impl fmt::Display for Disposition {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.0)
    }
}

impl std::str::FromStr for Disposition {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, String> {
        let v: u32 = s
            .trim()
            .parse()
            .map_err(|_| format!("`{s}` is not a number 0-31"))?;
        Disposition::new(v).map_err(|e| e.to_string())
    }
}

/// Which rule decides the transports of a pair (module comment).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum DispositionModel {
    /// Seed 003 chapter 5's simulator: each uploader its own transport, control on TCP.
    #[default]
    PerUploader,
    /// µTorrent 3.0 as observed in seed 003 section 6.1.2: one transport, uTP preferred.
    Utorrent,
}

/// Who attempts a connection.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Dials {
    /// Only the first peer.
    First,
    /// Both peers.
    Both,
}

/// The transports between two peers `a` and `b`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Link {
    /// Carries data uploaded by `a` to `b`.
    pub a_to_b: Transport,
    /// Carries data uploaded by `b` to `a`.
    pub b_to_a: Transport,
    /// Carries control messages (both directions).
    pub control: Transport,
}

/// The transport `from` prefers among those it attempts and `to` accepts: uTP first.
fn opens(from: Disposition, to: Disposition) -> Option<Transport> {
    from.dials().find(|&t| to.accepts(t))
}

/// The link between `a` and `b`, or `None` when no connection can be established.
pub fn resolve(
    model: DispositionModel,
    a: Disposition,
    b: Disposition,
    dials: Dials,
) -> Option<Link> {
    let ab = opens(a, b);
    let ba = match dials {
        Dials::Both => opens(b, a),
        Dials::First => None,
    };
    match model {
        DispositionModel::PerUploader => {
            let a_to_b = ab.or(ba)?;
            let b_to_a = ba.or(ab)?;
            Some(Link {
                a_to_b,
                b_to_a,
                control: Transport::Tcp,
            })
        }
        DispositionModel::Utorrent => {
            let t = if ab == Some(Transport::Utp) || ba == Some(Transport::Utp) {
                Transport::Utp
            } else {
                ab.or(ba)?
            };
            Some(Link {
                a_to_b: t,
                b_to_a: t,
                control: t,
            })
        }
    }
}

/// One side's view of a connection, for the duplicate rule.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ConnKind {
    /// Its transport.
    pub transport: Transport,
    /// We dialled it.
    pub outgoing: bool,
}

/// Of two connections to the same remote peer, whether the one already there (`existing`)
/// stays and the new one closes (true), or the other way round (false). `ours` and
/// `theirs` are the two peer ids. Both ends reach the same verdict about the same
/// connection (module comment).
pub fn keep_existing(
    existing: ConnKind,
    new: ConnKind,
    ours: &[u8; 20],
    theirs: &[u8; 20],
) -> bool {
    if existing.transport != new.transport {
        return existing.transport == Transport::Utp;
    }
    if existing.outgoing == new.outgoing {
        // Same transport, same direction: a redial; keep the one that works already.
        return true;
    }
    // One of each direction: keep the one the smaller peer id opened.
    let we_open_kept = ours < theirs;
    existing.outgoing == we_open_kept
}

#[cfg(test)]
mod tests {
    use super::*;
    use Transport::{Tcp, Utp};

    const VALUES: [u32; 5] = [5, 10, 13, 14, 31];

    fn d(v: u32) -> Disposition {
        Disposition::new(v).unwrap()
    }

    #[test]
    fn bits_decode_as_the_manual_says() {
        assert!(d(5).attempts(Tcp) && !d(5).attempts(Utp));
        assert!(d(5).accepts(Tcp) && !d(5).accepts(Utp));
        assert!(d(10).attempts(Utp) && d(10).accepts(Utp) && !d(10).accepts(Tcp));
        assert!(d(13).attempts(Tcp) && !d(13).attempts(Utp));
        assert!(d(13).accepts(Tcp) && d(13).accepts(Utp));
        assert!(d(14).attempts(Utp) && !d(14).attempts(Tcp));
        assert!(d(14).accepts(Tcp) && d(14).accepts(Utp));
        assert!(d(31).attempts(Tcp) && d(31).attempts(Utp));
        assert_eq!(d(31).dials().collect::<Vec<_>>(), vec![Utp, Tcp]);
        assert_eq!(d(13).dials().collect::<Vec<_>>(), vec![Tcp]);
        assert!(d(8).uses(Utp) && !d(8).uses(Tcp));
    }

    #[test]
    fn out_of_range_and_useless_masks_are_refused() {
        assert_eq!(Disposition::new(32), Err(DispositionError::Range(32)));
        assert_eq!(Disposition::new(16), Err(DispositionError::Useless(16)));
        assert_eq!(Disposition::new(0), Err(DispositionError::Useless(0)));
        assert!("abc".parse::<Disposition>().is_err());
        assert_eq!("14".parse::<Disposition>().unwrap().bits(), 14);
        assert_eq!(" 31 ".parse::<Disposition>().unwrap(), Disposition::DEFAULT);
    }

    #[test]
    fn disposition_parses_from_toml_numbers() {
        #[derive(Deserialize)]
        struct T {
            d: Disposition,
        }
        let t: T = toml::from_str("d = 14").unwrap();
        assert_eq!(t.d, d(14));
        let e = toml::from_str::<T>("d = 40").err().unwrap().to_string();
        assert!(e.contains("0-31"), "{e}");
        let e = toml::from_str::<T>("d = 16").err().unwrap().to_string();
        assert!(e.contains("neither attempts nor accepts"), "{e}");
    }

    /// Every ordered pair of the five values, both dialling, both models; the expected
    /// transports worked out by hand from the bitmask:
    /// `(a, b, per-uploader a->b, per-uploader b->a, utorrent)`, `None` = no connection.
    #[test]
    fn every_pair_of_the_five_values() {
        type Row = (u32, u32, Option<(Transport, Transport)>, Option<Transport>);
        let rows: [Row; 25] = [
            (5, 5, Some((Tcp, Tcp)), Some(Tcp)),
            (5, 10, None, None),
            (5, 13, Some((Tcp, Tcp)), Some(Tcp)),
            // 14 attempts only uTP, which 5 refuses: 14 uploads on 5's TCP connection.
            (5, 14, Some((Tcp, Tcp)), Some(Tcp)),
            (5, 31, Some((Tcp, Tcp)), Some(Tcp)),
            (10, 5, None, None),
            (10, 10, Some((Utp, Utp)), Some(Utp)),
            // 13 attempts only TCP, which 10 refuses: 13 uploads on 10's uTP connection.
            (10, 13, Some((Utp, Utp)), Some(Utp)),
            (10, 14, Some((Utp, Utp)), Some(Utp)),
            (10, 31, Some((Utp, Utp)), Some(Utp)),
            (13, 5, Some((Tcp, Tcp)), Some(Tcp)),
            (13, 10, Some((Utp, Utp)), Some(Utp)),
            (13, 13, Some((Tcp, Tcp)), Some(Tcp)),
            // Table 6.1 case 1: per uploader TCP from 13 and uTP from 14; µTorrent: uTP.
            (13, 14, Some((Tcp, Utp)), Some(Utp)),
            (13, 31, Some((Tcp, Utp)), Some(Utp)),
            (14, 5, Some((Tcp, Tcp)), Some(Tcp)),
            (14, 10, Some((Utp, Utp)), Some(Utp)),
            (14, 13, Some((Utp, Tcp)), Some(Utp)),
            (14, 14, Some((Utp, Utp)), Some(Utp)),
            (14, 31, Some((Utp, Utp)), Some(Utp)),
            // Table 6.1 case 2: 31 meets 5: TCP both ways.
            (31, 5, Some((Tcp, Tcp)), Some(Tcp)),
            (31, 10, Some((Utp, Utp)), Some(Utp)),
            (31, 13, Some((Utp, Tcp)), Some(Utp)),
            (31, 14, Some((Utp, Utp)), Some(Utp)),
            (31, 31, Some((Utp, Utp)), Some(Utp)),
        ];
        for (a, b, per, ut) in rows {
            let got = resolve(DispositionModel::PerUploader, d(a), d(b), Dials::Both);
            assert_eq!(
                got.map(|l| (l.a_to_b, l.b_to_a)),
                per,
                "per-uploader {a}/{b}"
            );
            if let Some(l) = got {
                assert_eq!(l.control, Tcp, "chapter 5: control on TCP");
            }
            let got = resolve(DispositionModel::Utorrent, d(a), d(b), Dials::Both);
            assert_eq!(got.map(|l| l.a_to_b), ut, "utorrent {a}/{b}");
            if let Some(l) = got {
                assert_eq!((l.b_to_a, l.control), (l.a_to_b, l.a_to_b));
            }
        }
        // The rule is symmetric in the peers when both dial.
        for a in VALUES {
            for b in VALUES {
                for m in [DispositionModel::PerUploader, DispositionModel::Utorrent] {
                    let ab = resolve(m, d(a), d(b), Dials::Both);
                    let ba = resolve(m, d(b), d(a), Dials::Both);
                    assert_eq!(
                        ab.map(|l| (l.a_to_b, l.b_to_a)),
                        ba.map(|l| (l.b_to_a, l.a_to_b))
                    );
                }
            }
        }
    }

    #[test]
    fn only_the_initiators_attempts_count_when_one_side_dials() {
        // 13 dials 14: only 13's TCP attempt exists, so both directions use it, even
        // under µTorrent's uTP preference.
        let l = resolve(DispositionModel::Utorrent, d(13), d(14), Dials::First).unwrap();
        assert_eq!((l.a_to_b, l.b_to_a), (Tcp, Tcp));
        let l = resolve(DispositionModel::PerUploader, d(14), d(13), Dials::First).unwrap();
        assert_eq!((l.a_to_b, l.b_to_a), (Utp, Utp));
        // 14 dials 5: its only attempt (uTP) is refused.
        assert_eq!(
            resolve(DispositionModel::Utorrent, d(14), d(5), Dials::First),
            None
        );
    }

    fn kind(transport: Transport, outgoing: bool) -> ConnKind {
        ConnKind {
            transport,
            outgoing,
        }
    }

    #[test]
    fn utp_wins_over_tcp_whichever_came_first() {
        let (a, b) = ([1u8; 20], [2u8; 20]);
        assert!(!keep_existing(kind(Tcp, true), kind(Utp, false), &a, &b));
        assert!(keep_existing(kind(Utp, false), kind(Tcp, true), &a, &b));
    }

    #[test]
    fn a_redial_in_the_same_direction_keeps_the_first() {
        let (a, b) = ([1u8; 20], [2u8; 20]);
        assert!(keep_existing(kind(Tcp, true), kind(Tcp, true), &a, &b));
        assert!(keep_existing(kind(Utp, false), kind(Utp, false), &b, &a));
    }

    #[test]
    fn crossed_dials_keep_the_smaller_ids_connection_on_both_ends() {
        let (small, big) = ([1u8; 20], [2u8; 20]);
        let (out, inc) = (kind(Utp, true), kind(Utp, false));
        // The small peer keeps its outgoing connection whichever completed first...
        assert!(keep_existing(out, inc, &small, &big));
        assert!(!keep_existing(inc, out, &small, &big));
        // ...and the big peer keeps the same one: its incoming connection.
        assert!(keep_existing(inc, out, &big, &small));
        assert!(!keep_existing(out, inc, &big, &small));
    }

    /// Table 6.1: 13 (attempts TCP) meets 14 (attempts uTP), both accept both: each dials
    /// its transport, both connections complete, uTP is kept by both ends.
    #[test]
    fn table_6_1_case_1_ends_on_utp_at_both_ends() {
        let (a, b) = (d(13), d(14));
        let from_a: Vec<_> = a.dials().filter(|&t| b.accepts(t)).collect();
        let from_b: Vec<_> = b.dials().filter(|&t| a.accepts(t)).collect();
        assert_eq!((from_a, from_b), (vec![Tcp], vec![Utp]));
        let (ida, idb) = ([3u8; 20], [4u8; 20]);
        assert!(!keep_existing(
            kind(Tcp, true),
            kind(Utp, false),
            &ida,
            &idb
        ));
        assert!(keep_existing(kind(Utp, true), kind(Tcp, false), &idb, &ida));
    }
}
