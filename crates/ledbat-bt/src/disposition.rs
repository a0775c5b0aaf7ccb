//! Which transports a peer opens and accepts, and which connection it keeps when it has two
//! to the same peer: µTorrent's `bt.transp_disposition` (seed 003, section 6.1.2, Table 6.1).
//!
//! The setting is a bitmask (µTorrent's manual, as seed 003 section 6.1.2 quotes it):
//!
//! | bit | meaning |
//! |---|---|
//! | 1 | attempt outgoing TCP connections |
//! | 2 | attempt outgoing uTP connections |
//! | 4 | accept incoming TCP connections |
//! | 8 | accept incoming uTP connections |
//! | 16 | use the new uTP header format (ours always does; the bit is accepted and ignored) |
//!
//! Chapter 6 uses 31 (µTorrent's default: everything), 5 (TCP only), 10 (uTP only), 13
//! (attempt TCP, accept both) and 14 (attempt uTP, accept both).
//!
//! A peer that attempts both transports dials both at once, as the thesis observed µTorrent
//! do ("two connections, a TCP and an LEDBAT ones are attempted"). When two connections to
//! the same peer (same peer id) complete their handshakes, one is closed by
//! [`keep_existing`]: uTP wins over TCP (µTorrent's "hardcoded LEDBAT preference", Table
//! 6.1 case 1); between two of the same transport (both sides dialled each other), the one
//! opened by the peer with the smaller peer id wins, so that both ends close the same one.
//! The data of both directions then travels on the connection kept, which is what makes a
//! 13-peer upload over uTP to a 14-peer (Table 6.1, case 1).

use std::fmt;

/// A transport carrying a peer connection.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, serde::Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Transport {
    /// uTP (BEP 29) over UDP.
    Utp,
    /// Kernel TCP.
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
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
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

    fn d(v: u32) -> Disposition {
        Disposition::new(v).unwrap()
    }

    #[test]
    fn bits_decode_as_the_manual_says() {
        assert!(d(5).attempts(Tcp) && !d(5).attempts(Utp));
        assert!(d(5).accepts(Tcp) && !d(5).accepts(Utp));
        assert!(d(10).attempts(Utp) && d(10).accepts(Utp) && !d(10).accepts(Tcp));
        assert!(d(13).attempts(Tcp) && !d(13).attempts(Utp) && d(13).accepts(Utp));
        assert!(d(14).attempts(Utp) && !d(14).attempts(Tcp) && d(14).accepts(Tcp));
        assert_eq!(d(31).dials().collect::<Vec<_>>(), vec![Utp, Tcp]);
        assert_eq!(d(13).dials().collect::<Vec<_>>(), vec![Tcp]);
    }

    #[test]
    fn out_of_range_and_useless_masks_are_refused() {
        assert_eq!(Disposition::new(32), Err(DispositionError::Range(32)));
        assert_eq!(Disposition::new(16), Err(DispositionError::Useless(16)));
        assert!("abc".parse::<Disposition>().is_err());
        assert_eq!("14".parse::<Disposition>().unwrap().bits(), 14);
    }

    #[test]
    fn utp_wins_over_tcp_whichever_came_first() {
        let (a, b) = ([1u8; 20], [2u8; 20]);
        let tcp_out = ConnKind {
            transport: Tcp,
            outgoing: true,
        };
        let utp_in = ConnKind {
            transport: Utp,
            outgoing: false,
        };
        assert!(!keep_existing(tcp_out, utp_in, &a, &b));
        assert!(keep_existing(utp_in, tcp_out, &a, &b));
    }

    #[test]
    fn crossed_dials_keep_the_smaller_ids_connection_on_both_ends() {
        let (small, big) = ([1u8; 20], [2u8; 20]);
        let out = ConnKind {
            transport: Utp,
            outgoing: true,
        };
        let inc = ConnKind {
            transport: Utp,
            outgoing: false,
        };
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
    fn table_6_1_case_1_ends_on_utp() {
        let (a, b) = (d(13), d(14));
        let from_a: Vec<_> = a.dials().filter(|&t| b.accepts(t)).collect();
        let from_b: Vec<_> = b.dials().filter(|&t| a.accepts(t)).collect();
        assert_eq!((from_a.clone(), from_b.clone()), (vec![Tcp], vec![Utp]));
        let (ida, idb) = ([3u8; 20], [4u8; 20]);
        let at_a_tcp = ConnKind {
            transport: Tcp,
            outgoing: true,
        };
        let at_a_utp = ConnKind {
            transport: Utp,
            outgoing: false,
        };
        assert!(!keep_existing(at_a_tcp, at_a_utp, &ida, &idb));
        let at_b_tcp = ConnKind {
            transport: Tcp,
            outgoing: false,
        };
        let at_b_utp = ConnKind {
            transport: Utp,
            outgoing: true,
        };
        assert!(keep_existing(at_b_utp, at_b_tcp, &idb, &ida));
    }

    /// Table 6.1 case 2: 5 (TCP only) meets 31: only TCP is possible.
    #[test]
    fn table_6_1_case_2_ends_on_tcp() {
        let (a, b) = (d(5), d(31));
        let from_a: Vec<_> = a.dials().filter(|&t| b.accepts(t)).collect();
        let from_b: Vec<_> = b.dials().filter(|&t| a.accepts(t)).collect();
        assert_eq!(from_a, vec![Tcp]);
        assert_eq!(from_b, vec![Tcp]);
    }
}
