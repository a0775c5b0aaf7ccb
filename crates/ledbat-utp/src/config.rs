//! Connection and endpoint configuration, with documented defaults and validation.

use ledbat_core::{ConfigError, ControllerConfig, Duration};

const COMPONENT: &str = "utp";

/// Smallest packet (header + payload) we agree to use.
pub const MIN_PACKET_SIZE: u16 = 150;
/// Largest packet (header + payload): a 1500-byte Ethernet MTU minus IPv4 (20) and UDP (8)
/// headers.
pub const MAX_PACKET_SIZE: u16 = 1472;

/// Parameters of one uTP connection.
#[derive(Clone, Debug, PartialEq)]
pub struct ConnectionConfig {
    /// Congestion controller. Default `ledbat` with its defaults (TARGET 100 ms, as BEP 29).
    pub controller: ControllerConfig,
    /// Largest packet sent, header included, in bytes. Default 1400 (libtorrent's
    /// conservative uTP packet size without path-MTU discovery); at most
    /// [`MAX_PACKET_SIZE`].
    pub packet_size: u16,
    /// Receive buffer advertised in `wnd_size`, bytes. Default 1 MiB (libutp's default
    /// `UTP_RCVBUF` is 1 MB).
    pub recv_buffer: u32,
    /// Send buffer (unsent plus unacknowledged bytes), bytes. Default 1 MiB.
    pub send_buffer: u32,
    /// Lower bound of the retransmission timeout. Default 500 ms (libtorrent
    /// `utp_min_timeout`).
    pub min_rto: Duration,
    /// Upper bound of the backed-off retransmission timeout. Default 60 s (RFC 6298
    /// section 2.5 allows a maximum of at least 60 s).
    pub max_rto: Duration,
    /// Consecutive retransmission timeouts before the connection is declared dead.
    /// Default 8 (about 2 minutes with the 500 ms floor and doubling; libtorrent gives up
    /// after `utp_num_resends` = 3 resends of one packet, libutp after 4 timeouts when the
    /// window is small: we are more patient because test links drop heavily).
    pub max_timeouts: u32,
    /// SYN retransmissions before a connect fails. Default 4 (libtorrent `utp_syn_resends`
    /// defaults to 2, libutp tries 3 times; one more for lossy test beds).
    pub max_syn_retries: u32,
    /// Send a keep-alive after this long without sending. Default 29 s (libutp
    /// `KEEPALIVE_INTERVAL`, below common 30 s NAT timeouts).
    pub keepalive: Duration,
    /// Duplicate ACKs (or selective ACKs of later packets) that declare a packet lost.
    /// Default 3 (BEP 29, libutp `DUPLICATE_ACKS_BEFORE_RESEND`).
    pub dup_ack_threshold: u32,
    /// Largest selective-ACK bitmask sent, bytes (a multiple of 4). Default 32 (256
    /// packets past the cumulative ACK; libtorrent accepts up to 255 bytes).
    pub max_sack_bytes: u8,
    /// Packets the reorder buffer accepts past the next expected one. Default 2048. Must
    /// stay far below 2^15 for the wrap-safe comparisons.
    pub max_reorder: u16,
    /// Packets in flight at most (sequence-space bound). Default 4096.
    pub max_packets_in_flight: u16,
    /// A connection stays after closing this long, to acknowledge a retransmitted FIN.
    /// Default 2 s.
    pub linger: Duration,
    /// An accepted connection that hears nothing after the SYN is dropped after this long.
    /// Default 30 s.
    pub handshake_timeout: Duration,
    /// Receiver-driven LEDBAT on what this side receives (see [`crate::rledbat`]): the
    /// advertised window is also limited by a delay-based window of the receiver's own.
    /// Default off.
    pub rledbat: Option<crate::rledbat::RledbatConfig>,
    /// Search the path MTU (see [`crate::conn::pmtu`]): packets start at 548 bytes and
    /// grow, through probes, up to `packet_size`. Default off (packets are `packet_size`).
    pub mtu_probe: bool,
}

impl Default for ConnectionConfig {
    fn default() -> Self {
        ConnectionConfig {
            controller: ControllerConfig::from_name("ledbat").expect("ledbat is built in"),
            packet_size: 1400,
            recv_buffer: 1 << 20,
            send_buffer: 1 << 20,
            min_rto: Duration::from_millis(500),
            max_rto: Duration::from_secs(60),
            max_timeouts: 8,
            max_syn_retries: 4,
            keepalive: Duration::from_secs(29),
            dup_ack_threshold: 3,
            max_sack_bytes: 32,
            max_reorder: 2048,
            max_packets_in_flight: 4096,
            linger: Duration::from_secs(2),
            handshake_timeout: Duration::from_secs(30),
            rledbat: None,
            mtu_probe: false,
        }
    }
}

impl ConnectionConfig {
    /// Sets the congestion controller.
    pub fn controller(mut self, c: ControllerConfig) -> Self {
        self.controller = c;
        self
    }
    /// Sets the packet size (header included).
    pub fn packet_size(mut self, n: u16) -> Self {
        self.packet_size = n;
        self
    }
    /// Sets the receive buffer.
    pub fn recv_buffer(mut self, n: u32) -> Self {
        self.recv_buffer = n;
        self
    }
    /// Sets the send buffer.
    pub fn send_buffer(mut self, n: u32) -> Self {
        self.send_buffer = n;
        self
    }
    /// Sets the RTO floor.
    pub fn min_rto(mut self, d: Duration) -> Self {
        self.min_rto = d;
        self
    }
    /// Sets the number of consecutive timeouts tolerated.
    pub fn max_timeouts(mut self, n: u32) -> Self {
        self.max_timeouts = n;
        self
    }
    /// Sets the keep-alive interval.
    pub fn keepalive(mut self, d: Duration) -> Self {
        self.keepalive = d;
        self
    }
    /// Turns receiver-driven LEDBAT on (`Some`) or off.
    pub fn rledbat(mut self, r: Option<crate::rledbat::RledbatConfig>) -> Self {
        self.rledbat = r;
        self
    }
    /// Turns the path-MTU search on or off.
    pub fn mtu_probe(mut self, on: bool) -> Self {
        self.mtu_probe = on;
        self
    }
    /// Sets the linger time after close.
    pub fn linger(mut self, d: Duration) -> Self {
        self.linger = d;
        self
    }

    /// Largest payload of a DATA packet.
    pub fn max_payload(&self) -> usize {
        self.packet_size as usize - crate::packet::HEADER_LEN
    }

    /// Upper bound of [`crate::Connection::memory_bytes`] under this configuration. Each
    /// buffer's length is bounded (send buffer: `send_buffer`; received bytes, in order
    /// and reordered: twice `recv_buffer`; reorder slots: `max_reorder`; packets in flight:
    /// `max_packets_in_flight` + 1; delay samples: 16; selective-ACK scratch:
    /// `max_sack_bytes`) and a growing buffer's capacity is at most twice its length.
    pub fn memory_bound(&self) -> usize {
        crate::conn::memory_bound(self)
    }

    /// Checks every field; the error names the first bad one.
    pub fn validate(&self) -> Result<(), ConfigError> {
        let err = |f: &'static str, r: String| Err(ConfigError::new(COMPONENT, f, r));
        if !(MIN_PACKET_SIZE..=MAX_PACKET_SIZE).contains(&self.packet_size) {
            return err(
                "packet_size",
                format!(
                    "must be in [{MIN_PACKET_SIZE}, {MAX_PACKET_SIZE}] bytes, got {}",
                    self.packet_size
                ),
            );
        }
        if (self.recv_buffer as usize) < self.max_payload() {
            return err(
                "recv_buffer",
                format!("must hold one packet payload, got {}", self.recv_buffer),
            );
        }
        if (self.send_buffer as usize) < self.max_payload() {
            return err(
                "send_buffer",
                format!("must hold one packet payload, got {}", self.send_buffer),
            );
        }
        if self.min_rto.is_zero() || self.min_rto > self.max_rto {
            return err(
                "min_rto",
                format!("must be positive and at most max_rto, got {}", self.min_rto),
            );
        }
        if self.max_timeouts == 0 {
            return err("max_timeouts", "must be at least 1".into());
        }
        if self.dup_ack_threshold == 0 {
            return err("dup_ack_threshold", "must be at least 1".into());
        }
        if self.max_sack_bytes < 4 || (self.max_sack_bytes & 3) != 0 {
            return err(
                "max_sack_bytes",
                format!(
                    "must be a positive multiple of 4, got {}",
                    self.max_sack_bytes
                ),
            );
        }
        if self.max_reorder == 0 || self.max_reorder > 8192 {
            return err(
                "max_reorder",
                format!("must be in [1, 8192], got {}", self.max_reorder),
            );
        }
        if self.max_packets_in_flight < 2 || self.max_packets_in_flight > 8192 {
            return err(
                "max_packets_in_flight",
                format!("must be in [2, 8192], got {}", self.max_packets_in_flight),
            );
        }
        if self.keepalive.is_zero() {
            return err("keepalive", "must be positive".into());
        }
        if let Some(r) = &self.rledbat {
            r.validate()?;
        }
        self.controller.validate()?;
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn defaults_validate() {
        ConnectionConfig::default().validate().unwrap();
        assert_eq!(ConnectionConfig::default().max_payload(), 1380);
    }

    #[test]
    fn bad_fields_are_named() {
        let e = ConnectionConfig::default()
            .packet_size(9000)
            .validate()
            .unwrap_err();
        assert_eq!(e.field, "packet_size");
        let e = ConnectionConfig::default()
            .recv_buffer(10)
            .validate()
            .unwrap_err();
        assert_eq!(e.field, "recv_buffer");
        let e = ConnectionConfig::default()
            .min_rto(Duration::ZERO)
            .validate()
            .unwrap_err();
        assert_eq!(e.field, "min_rto");
    }

    #[test]
    fn the_receivers_rledbat_settings_are_checked_by_their_own_rules() {
        let mut c = ConnectionConfig::default().rledbat(Some(crate::rledbat::RledbatConfig {
            target: Duration::from_micros(500),
            ..Default::default()
        }));
        let e = c.validate().unwrap_err();
        assert_eq!((e.controller, e.field.as_ref()), ("rledbat", "target"));
        c.rledbat = Some(crate::rledbat::RledbatConfig {
            slowdown_backoff: 0,
            ..Default::default()
        });
        assert_eq!(c.validate().unwrap_err().field, "slowdown_backoff");
        c.rledbat = Some(Default::default());
        c.validate().unwrap();
    }
}
