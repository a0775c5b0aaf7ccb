//! Which transport carries a connection's data: µTorrent's `bt.transp_disposition`.
//!
//! Seed 003 section 6.1.2 gives the bitmask from the µTorrent manual:
//!
//! | bit | meaning |
//! |---|---|
//! | 1 | attempt outgoing TCP connections |
//! | 2 | attempt outgoing uTP (LEDBAT) connections |
//! | 4 | accept incoming TCP connections |
//! | 8 | accept incoming uTP (LEDBAT) connections |
//! | 16 | use the new uTP header format (no effect in the simulator) |
//!
//! and the values its chapter 6 uses: 31 (µTorrent's default: everything), 5 (TCP only:
//! attempt and accept TCP, like legacy clients), 10 (LEDBAT only), 13 (attempt TCP, accept
//! both) and 14 (attempt LEDBAT, accept both). Chapter 5's text calls its "new" peers (that
//! initiate LEDBAT and accept TCP) `=5` and its "old" ones `=10`, which contradicts the
//! bitmask; by the bitmask, and by section 5.3 ("peers initiate data connections with either
//! LEDBAT or TCP, but can accept any flavor"), those peers are 14 and 13.
//!
//! Two rules decide the data transport of a pair, because the thesis observed that its
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
//! Table 6.1 checks: 13 and 14 give uTP both ways under `Utorrent` (case 1; under
//! `PerUploader`, TCP from 13 and uTP from 14); 5 and 31 give TCP both ways (case 2).

use serde::{Deserialize, Serialize};
use std::fmt;

/// A data transport.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Transport {
    /// TCP (the simulator's loss-based controller, NewReno unless configured).
    Tcp,
    /// uTP, i.e. the peer's LEDBAT-family controller.
    Utp,
}

/// A `bt.transp_disposition` bitmask.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(try_from = "u8", into = "u8")]
pub struct Disposition(u8);

impl Disposition {
    /// Attempt outgoing TCP.
    pub const OUT_TCP: u8 = 1;
    /// Attempt outgoing uTP.
    pub const OUT_UTP: u8 = 2;
    /// Accept incoming TCP.
    pub const IN_TCP: u8 = 4;
    /// Accept incoming uTP.
    pub const IN_UTP: u8 = 8;
    /// New uTP header format (no effect here).
    pub const NEW_HEADER: u8 = 16;
    /// µTorrent's default, 31.
    pub const DEFAULT: Disposition = Disposition(31);

    /// The bitmask `bits` (at most 31).
    pub fn new(bits: u8) -> Result<Self, String> {
        if bits > 31 {
            return Err(format!(
                "bt.transp_disposition is a 5-bit mask (0-31), got {bits}"
            ));
        }
        Ok(Disposition(bits))
    }
    /// The bitmask.
    pub fn bits(self) -> u8 {
        self.0
    }
    /// Whether it attempts outgoing connections over `t`.
    pub fn attempts(self, t: Transport) -> bool {
        self.0
            & match t {
                Transport::Tcp => Self::OUT_TCP,
                Transport::Utp => Self::OUT_UTP,
            }
            != 0
    }
    /// Whether it accepts incoming connections over `t`.
    pub fn accepts(self, t: Transport) -> bool {
        self.0
            & match t {
                Transport::Tcp => Self::IN_TCP,
                Transport::Utp => Self::IN_UTP,
            }
            != 0
    }
}

impl TryFrom<u8> for Disposition {
    type Error = String;
    fn try_from(v: u8) -> Result<Self, String> {
        Disposition::new(v)
    }
}

impl From<Disposition> for u8 {
    fn from(d: Disposition) -> u8 {
        d.0
    }
}

impl fmt::Display for Disposition {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.0)
    }
}

/// Which rule decides the transports (module comment).
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
    [Transport::Utp, Transport::Tcp]
        .into_iter()
        .find(|&t| from.attempts(t) && to.accepts(t))
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

#[cfg(test)]
mod tests {
    use super::*;
    use Transport::{Tcp, Utp};

    const VALUES: [u8; 5] = [5, 10, 13, 14, 31];

    fn d(v: u8) -> Disposition {
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
        assert!(Disposition::new(32).is_err());
    }

    /// Every ordered pair of the five values, both dialling, both models; the expected
    /// transports worked out by hand from the bitmask:
    /// `(a, b, per-uploader a->b, per-uploader b->a, utorrent)`, `None` = no connection.
    #[test]
    fn every_pair_of_the_five_values() {
        type Row = (u8, u8, Option<(Transport, Transport)>, Option<Transport>);
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

    #[test]
    fn disposition_parses_from_toml_numbers() {
        #[derive(Deserialize)]
        struct T {
            d: Disposition,
        }
        let t: T = toml::from_str("d = 14").unwrap();
        assert_eq!(t.d, d(14));
        assert!(toml::from_str::<T>("d = 40").is_err());
    }
}
