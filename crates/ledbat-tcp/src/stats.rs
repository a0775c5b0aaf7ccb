//! The per-connection entries the kernel build publishes (`csrc/lbcc_stats.h`): one entry of
//! an LRU hash map per connection using the controller, keyed by addresses and ports,
//! refreshed at most every 100 ms and on every congestion event, deleted when the connection
//! releases the controller.

use serde::Serialize;
use std::net::{IpAddr, Ipv4Addr, Ipv6Addr, SocketAddr};

/// `LB_FLOW_KEY_SIZE`.
pub const KEY_SIZE: usize = 40;
/// `LB_FLOW_STATS_SIZE`.
pub const VALUE_SIZE: usize = 120;

const AF_INET: u32 = 2;
const AF_INET6: u32 = 10;

/// One connection's state as the kernel build last published it.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct FlowStats {
    /// Local address and port.
    pub local: SocketAddr,
    /// Remote address and port.
    pub remote: SocketAddr,
    /// When the entry was written (the kernel's TCP clock, ns).
    pub updated_ns: u64,
    /// The controller's window, bytes.
    pub cwnd_bytes: u64,
    /// The window written to the socket, packets.
    pub snd_cwnd: u64,
    /// Segment size, bytes.
    pub mss: u64,
    /// Base delay (the minimum over the base history; a one-way delay carries the two
    /// clocks' offset), ns.
    pub base_ns: Option<u64>,
    /// Filtered current delay on the same scale, ns.
    pub current_ns: Option<u64>,
    /// Queuing delay estimate, ns.
    pub queuing_ns: Option<u64>,
    /// Smoothed RTT, ns.
    pub srtt_ns: u64,
    /// Slowdowns started (LEDBAT++ and scavenger).
    pub slowdowns: u64,
    /// Delay samples taken.
    pub delay_samples: u64,
    /// The peer's timestamp clock, microseconds per tick, once learnt.
    pub owd_us_per_tick: Option<u64>,
    /// Congestion events (the kernel asked for a reduced window).
    pub losses: u64,
    /// Retransmission timeouts.
    pub timeouts: u64,
    /// Reductions the kernel found spurious and undid.
    pub undos: u64,
    /// `slow-start`, `avoidance`, `slowdown`, `slowdown-ramp` or `inference` (TCP-LP).
    pub phase: &'static str,
    /// The timestamp clock gave no usable rate: the RTT signal is used instead.
    pub owd_unusable: bool,
    /// The connection carries no timestamps: the RTT signal is used instead.
    pub no_timestamps: bool,
    /// A joined slowdown holds one packet (the core's drivers send none).
    pub paused: bool,
}

fn word(b: &[u8], i: usize) -> u64 {
    u64::from_ne_bytes(b[i * 8..i * 8 + 8].try_into().expect("8 bytes"))
}

fn u32_at(b: &[u8], off: usize) -> u32 {
    u32::from_ne_bytes(b[off..off + 4].try_into().expect("4 bytes"))
}

fn u16_at(b: &[u8], off: usize) -> u16 {
    u16::from_ne_bytes(b[off..off + 2].try_into().expect("2 bytes"))
}

fn addr(family: u32, b: &[u8]) -> Option<IpAddr> {
    // Addresses are in network byte order, as the kernel keeps them.
    match family {
        AF_INET => Some(IpAddr::V4(Ipv4Addr::new(b[0], b[1], b[2], b[3]))),
        AF_INET6 => {
            let mut a = [0u8; 16];
            a.copy_from_slice(&b[..16]);
            Some(IpAddr::V6(Ipv6Addr::from(a)))
        }
        _ => None,
    }
}

impl FlowStats {
    /// Decodes one map entry; `None` if the sizes or the address family are not the ones
    /// the object writes.
    pub fn decode(key: &[u8], value: &[u8]) -> Option<Self> {
        if key.len() != KEY_SIZE || value.len() != VALUE_SIZE {
            return None;
        }
        let family = u32_at(key, 0);
        let local = SocketAddr::new(addr(family, &key[8..24])?, u16_at(key, 4));
        let remote = SocketAddr::new(addr(family, &key[24..40])?, u16_at(key, 6));
        // offsets, word indices and flag bits as csrc/lbcc_stats.h asserts them
        let phase_code = u32_at(value, 112);
        let flags = u32_at(value, 116);
        let opt = |w: u64, flag: u32| (flags & flag != 0).then_some(w);
        Some(FlowStats {
            local,
            remote,
            updated_ns: word(value, 0),
            cwnd_bytes: word(value, 1),
            snd_cwnd: word(value, 2),
            mss: word(value, 3),
            base_ns: opt(word(value, 4), 2),
            current_ns: opt(word(value, 5), 2),
            queuing_ns: opt(word(value, 6), 1),
            srtt_ns: word(value, 7),
            slowdowns: word(value, 8),
            delay_samples: word(value, 9),
            owd_us_per_tick: Some(word(value, 10)).filter(|&r| r > 0),
            losses: word(value, 11),
            timeouts: word(value, 12),
            undos: word(value, 13),
            phase: phase_name(phase_code),
            owd_unusable: flags & 4 != 0,
            no_timestamps: flags & 8 != 0,
            paused: flags & 16 != 0,
        })
    }
}

/// The name of `lb_phase()`'s code.
pub fn phase_name(code: u32) -> &'static str {
    match code {
        0 => "slow-start",
        1 => "avoidance",
        2 => "slowdown",
        3 => "slowdown-ramp",
        4 => "inference",
        5 => "yield",
        6 => "yield-probe",
        _ => "unknown",
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn put(b: &mut [u8], off: usize, v: &[u8]) {
        b[off..off + v.len()].copy_from_slice(v);
    }

    #[test]
    fn decodes_an_ipv4_entry_with_its_flags() {
        let mut key = [0u8; KEY_SIZE];
        put(&mut key, 0, &AF_INET.to_ne_bytes());
        put(&mut key, 4, &5201u16.to_ne_bytes());
        put(&mut key, 6, &40000u16.to_ne_bytes());
        put(&mut key, 8, &[10, 0, 0, 1]);
        put(&mut key, 24, &[10, 0, 0, 2]);
        let mut v = [0u8; VALUE_SIZE];
        for (i, w) in [7u64, 60_000, 40, 1500, 20_000_000, 45_000_000, 25_000_000]
            .iter()
            .enumerate()
        {
            put(&mut v, i * 8, &w.to_ne_bytes());
        }
        put(&mut v, 8 * 8, &3u64.to_ne_bytes());
        put(&mut v, 10 * 8, &1000u64.to_ne_bytes());
        put(&mut v, 112, &2u32.to_ne_bytes());
        put(&mut v, 116, &(1u32 | 2 | 16).to_ne_bytes());
        let s = FlowStats::decode(&key, &v).unwrap();
        assert_eq!(s.local, "10.0.0.1:5201".parse().unwrap());
        assert_eq!(s.remote, "10.0.0.2:40000".parse().unwrap());
        assert_eq!((s.cwnd_bytes, s.snd_cwnd, s.mss), (60_000, 40, 1500));
        assert_eq!(s.base_ns, Some(20_000_000));
        assert_eq!(s.current_ns, Some(45_000_000));
        assert_eq!(s.queuing_ns, Some(25_000_000));
        assert_eq!((s.slowdowns, s.owd_us_per_tick), (3, Some(1000)));
        assert_eq!(s.phase, "slowdown");
        assert!(s.paused && !s.owd_unusable && !s.no_timestamps);
    }

    #[test]
    fn an_entry_without_delay_has_none_and_bad_sizes_are_refused() {
        let mut key = [0u8; KEY_SIZE];
        put(&mut key, 0, &AF_INET6.to_ne_bytes());
        key[8 + 15] = 1; // ::1
        key[24 + 15] = 1;
        let v = [0u8; VALUE_SIZE];
        let s = FlowStats::decode(&key, &v).unwrap();
        assert_eq!(s.local.ip(), "::1".parse::<IpAddr>().unwrap());
        assert_eq!(
            (s.base_ns, s.queuing_ns, s.owd_us_per_tick),
            (None, None, None)
        );
        assert_eq!(s.phase, "slow-start");
        assert!(FlowStats::decode(&key[..39], &v).is_none());
        put(&mut key, 0, &7u32.to_ne_bytes());
        assert!(FlowStats::decode(&key, &v).is_none());
    }
}
