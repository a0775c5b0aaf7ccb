//! Everything that decides how a [`crate::Peer`] behaves, with the defaults of a real
//! client. The simulator and the client differ on some of these on purpose (the simulator
//! reproduces seed 003's ns-2 BitTorrent module, the client interoperates with deployed
//! ones); each such value is a field here, and each driver sets it, instead of a rule
//! hidden in one driver's code.
//!
//! | field | client (`ledbat-bt`) | simulator (`[swarm]` defaults) |
//! |---|---|---|
//! | `picker.endgame` | [`Endgame::Idle`] | off (`endgame = true`: [`Endgame::All`]) |
//! | `choker.snub_after` | 60 s | off |
//! | `snub_clock` | [`SnubClock::SinceBlockOrInterest`] | [`SnubClock::SinceBlockOrConnect`] |
//! | `pipeline` | [`Pipeline::Rate`] 3 s, 4..=64 blocks | [`Pipeline::Fixed`] 5 |
//! | `opening` | [`Opening::AfterHandshake`] | [`Opening::AtOnce`] |
//! | `verification` | [`Verification::External`] (SHA-1) | [`Verification::Trusted`] |
//! | `fast_extension`, `extension_protocol` | on | off |
//! | `close_seed_pairs` | on | off |
//! | timers (keep-alive, idle, request, handshake) | on | off |

use crate::choker::ChokerConfig;
use crate::layout::BLOCK_LEN;
use crate::picker::{Endgame, PickerConfig};
use crate::wire::Sha1Digest;
use ledbat_core::{ConfigError, Duration};

const NAME: &str = "bt peer";

/// How many requests to keep outstanding on a connection.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Pipeline {
    /// Always this many blocks (5 in seed 003 section 1.2 and its ns-2 module).
    Fixed(u32),
    /// Enough blocks to cover `queue_time` at the rate the peer delivers (an average over
    /// seconds, `rate = (rate + last second) / 2`), at least `min` (or `max` if smaller)
    /// and at most `max`: libtorrent's `request_queue_time`. On a 1 Mbit/s uplink shared
    /// by 5 downloaders, 3 s are about 5 blocks, so blocks are not queued for half a
    /// minute at one slow peer while others sit idle.
    Rate {
        /// Time the requests should cover. Client default 3 s.
        queue_time: Duration,
        /// Fewest blocks. Client default 4.
        min: u32,
        /// Most blocks. Client default 64 (1 MiB: 80 Mbit/s at a 100 ms RTT; libtorrent
        /// caps its own queue at 500, `max_out_request_queue`).
        max: u32,
    },
}

impl Pipeline {
    /// The most blocks it keeps outstanding.
    pub fn max_blocks(&self) -> u32 {
        match *self {
            Pipeline::Fixed(n) => n,
            Pipeline::Rate { max, .. } => max,
        }
    }

    /// The same rule with at most `max` blocks.
    pub fn with_max(self, max: u32) -> Self {
        match self {
            Pipeline::Fixed(_) => Pipeline::Fixed(max),
            Pipeline::Rate {
                queue_time, min, ..
            } => Pipeline::Rate {
                queue_time,
                min,
                max,
            },
        }
    }
}

/// When the opening messages (bitfield, extended handshake) go out.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Opening {
    /// After the peer's handshake arrived and was accepted (a real client: the info-hash,
    /// the peer id and the extension bits are known first). The connection takes part in
    /// choking and picking from then on.
    AfterHandshake,
    /// Right behind our own handshake, and the connection takes part at once (the
    /// simulator, which does not model the handshake's round trip). The opening then uses
    /// BEP 3's plain bitfield, since the peer's extension bits are not known yet.
    AtOnce,
}

/// Who checks a piece whose blocks have all arrived.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Verification {
    /// The driver: it keeps the data of each block ([`crate::Received`]), hashes the
    /// piece and reports [`crate::Peer::handle_piece_verified`] or
    /// [`crate::Peer::handle_piece_failed`].
    External,
    /// Nobody: a complete piece is ours at once (the simulator carries no data).
    Trusted,
}

/// From when a peer we want pieces from is judged to snub us (anti-snubbing).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SnubClock {
    /// Its last block, or the connection's start if it sent none (the simulator).
    SinceBlockOrConnect,
    /// Its last block, or the moment we became interested in it, whichever is later: a
    /// peer cannot snub us while we wanted nothing from it (the client).
    SinceBlockOrInterest,
}

/// The protocol timers of a real client; `None` turns one off.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Timers {
    /// A keep-alive is sent after this long without sending anything. Client default 60 s,
    /// half of the two minutes BEP 3 gives as the usual keep-alive period, so that peers
    /// using a 120 s inactivity timeout (libtorrent's `peer_timeout`) never drop us.
    pub keepalive: Option<Duration>,
    /// The connection is closed after this long without receiving anything. Client default
    /// 150 s: more than BEP 3's 120 s keep-alive period.
    pub idle: Option<Duration>,
    /// With requests outstanding and no block received for this long, the requests are
    /// cancelled and the blocks picked again. Client default 60 s (libtorrent's
    /// `request_timeout`).
    pub request: Option<Duration>,
    /// The peer must complete the handshake within this. Client default 10 s
    /// (libtorrent's `handshake_timeout`).
    pub handshake: Option<Duration>,
}

impl Timers {
    /// No timer at all (the simulator's peers).
    pub const OFF: Timers = Timers {
        keepalive: None,
        idle: None,
        request: None,
        handshake: None,
    };
}

impl Default for Timers {
    fn default() -> Self {
        Self {
            keepalive: Some(Duration::from_secs(60)),
            idle: Some(Duration::from_secs(150)),
            request: Some(Duration::from_secs(60)),
            handshake: Some(Duration::from_secs(10)),
        }
    }
}

/// How one peer of one torrent behaves. `Default` is the client's configuration.
#[derive(Clone, Debug, PartialEq)]
pub struct PeerConfig {
    /// The torrent's info-hash (sent in our handshake; a peer's must match).
    pub info_hash: Sha1Digest,
    /// Our peer id.
    pub peer_id: [u8; 20],
    /// Piece picking.
    pub picker: PickerConfig,
    /// Choking.
    pub choker: ChokerConfig,
    /// From when anti-snubbing counts.
    pub snub_clock: SnubClock,
    /// Requests outstanding per connection.
    pub pipeline: Pipeline,
    /// Longest request served; a longer one closes the connection. Default 16 KiB (BEP 3).
    pub max_request: u32,
    /// Requests from a peer queued for upload before further ones are refused. Default
    /// 500, the `reqq` Transmission announces.
    pub max_queued_requests: usize,
    /// Announce and use the Fast Extension (BEP 6). Default on.
    pub fast_extension: bool,
    /// Announce and use the Extension Protocol's handshake (BEP 10). Default on.
    pub extension_protocol: bool,
    /// Our listening port, told in the extended handshake so that a peer that connected to
    /// us can dial us back; None when we accept nothing.
    pub listen_port: Option<u16>,
    /// When the opening messages go out.
    pub opening: Opening,
    /// Who checks complete pieces.
    pub verification: Verification,
    /// Close a connection once both sides have every piece (nothing is left to exchange).
    /// Default on.
    pub close_seed_pairs: bool,
    /// Connections at once; a handshake beyond this is refused. Default 50; None: no limit.
    pub max_connections: Option<usize>,
    /// Protocol timers.
    pub timers: Timers,
}

impl Default for PeerConfig {
    fn default() -> Self {
        Self {
            info_hash: [0; 20],
            peer_id: [0; 20],
            picker: PickerConfig {
                random_first: true,
                rarest_first: true,
                endgame: Endgame::Idle,
            },
            choker: ChokerConfig::default(),
            snub_clock: SnubClock::SinceBlockOrInterest,
            pipeline: Pipeline::Rate {
                queue_time: Duration::from_secs(3),
                min: 4,
                max: 64,
            },
            max_request: BLOCK_LEN,
            max_queued_requests: 500,
            fast_extension: true,
            extension_protocol: true,
            listen_port: None,
            opening: Opening::AfterHandshake,
            verification: Verification::External,
            close_seed_pairs: true,
            max_connections: Some(50),
            timers: Timers::default(),
        }
    }
}

impl PeerConfig {
    /// Refuses nonsense, naming the field.
    pub fn validate(&self) -> Result<(), ConfigError> {
        match self.pipeline {
            Pipeline::Fixed(0) => {
                return Err(ConfigError::new(
                    NAME,
                    "pipeline",
                    "must be at least 1 block",
                ))
            }
            Pipeline::Rate {
                queue_time,
                min,
                max,
            } => {
                if !(1..=4096).contains(&max) {
                    return Err(ConfigError::new(
                        NAME,
                        "pipeline",
                        format!("must be in 1..=4096 blocks, got {max}"),
                    ));
                }
                if min == 0 {
                    return Err(ConfigError::new(
                        NAME,
                        "pipeline.min",
                        "must be at least 1 block",
                    ));
                }
                ledbat_core::error::nonzero(NAME, "request_queue_time", queue_time)?;
            }
            Pipeline::Fixed(_) => {}
        }
        if self.max_queued_requests == 0 {
            return Err(ConfigError::new(
                NAME,
                "max_queued_requests",
                "must be at least 1",
            ));
        }
        if self.max_request == 0 {
            return Err(ConfigError::new(
                NAME,
                "max_request",
                "must be at least 1 byte",
            ));
        }
        if self.max_connections == Some(0) {
            return Err(ConfigError::new(
                NAME,
                "max_connections",
                "must be at least 1",
            ));
        }
        let c = &self.choker;
        if c.regular + c.optimistic == 0 {
            return Err(ConfigError::new(
                NAME,
                "choker.regular",
                "no unchoke slot at all",
            ));
        }
        ledbat_core::error::nonzero(NAME, "choker.round", c.round)?;
        if let Some(d) = c.snub_after {
            ledbat_core::error::nonzero(NAME, "choker.snub_after", d)?;
        }
        let t = &self.timers;
        for (field, v) in [
            ("keepalive_interval", t.keepalive),
            ("idle_timeout", t.idle),
            ("request_timeout", t.request),
            ("handshake_timeout", t.handshake),
        ] {
            if let Some(d) = v {
                ledbat_core::error::nonzero(NAME, field, d)?;
            }
        }
        if let (Some(k), Some(i)) = (t.keepalive, t.idle) {
            if k >= i {
                return Err(ConfigError::new(
                    NAME,
                    "keepalive_interval",
                    "must be shorter than idle_timeout",
                ));
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn defaults_are_valid() {
        PeerConfig::default().validate().unwrap();
    }

    #[test]
    fn errors_name_the_field() {
        let field = |c: PeerConfig| c.validate().unwrap_err().field.to_string();
        let base = PeerConfig::default();
        assert_eq!(
            field(PeerConfig {
                pipeline: Pipeline::Fixed(0),
                ..base.clone()
            }),
            "pipeline"
        );
        assert_eq!(
            field(PeerConfig {
                pipeline: Pipeline::Rate {
                    queue_time: Duration::from_secs(3),
                    min: 4,
                    max: 0
                },
                ..base.clone()
            }),
            "pipeline"
        );
        let mut t = base.clone();
        t.timers.keepalive = Some(Duration::from_secs(200));
        assert_eq!(field(t), "keepalive_interval");
        let mut t = base.clone();
        t.timers.request = Some(Duration::ZERO);
        assert_eq!(field(t), "request_timeout");
        let mut c = base.clone();
        c.choker.regular = 0;
        c.choker.optimistic = 0;
        assert_eq!(field(c), "choker.regular");
        assert_eq!(
            field(PeerConfig {
                max_queued_requests: 0,
                ..base
            }),
            "max_queued_requests"
        );
    }
}
