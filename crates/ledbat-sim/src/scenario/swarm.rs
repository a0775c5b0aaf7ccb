//! The `[swarm]` section of the scenario schema: the torrent, the BitTorrent policies, the
//! population and its peer classes. Every table refuses unknown keys; a bad value is an
//! error naming its dotted key ([`SwarmConfig::validate`]), to which
//! [`super::Scenario::from_toml`] adds its line as for every other key.
//!
//! Defaults are seed 003 chapter 5's (section 5.1) where it states a value: 1 Mb/s up and
//! 8 Mb/s down, 200-packet buffers, one-way access delay uniform in [1, 25] ms, TARGET
//! 100 ms, one seed and 100 leechers arriving at 0.1 Hz, 50 completions discarded and 50
//! measured, newborn seeds staying an exponential time of mean half their download time.
//! Where it is silent, its BitTorrent simulator's (the ns-2 module of Eger et al., its
//! reference 41): 256 KiB pieces, 16 KiB blocks, 5 pipelined requests, 10 s choke rounds,
//! an optimistic unchoke every 30 s, seeds choosing by upload rate, no endgame and no
//! anti-snubbing (section 5.3 notes both are missing from it). The file size is stated
//! nowhere in chapter 5; the default, 10 MiB, is the smallest torrent of the thesis's own
//! µTorrent experiments (section 6.1: 10 MB with 256 KB chunks).
//!
//! ```toml
//! [swarm]
//! file_size = "10MiB"
//! seed_behaviour = "random-stay"
//! [[swarm.class]]
//! name = "ledbat"
//! share = 0.5
//! disposition = 14
//! utp_cc = { name = "ledbat", target = "100ms" }
//! [[swarm.class]]
//! name = "tcp"
//! share = 0.5
//! disposition = 13
//! ```

use super::{invalid, ScenarioError};
use crate::units::Rate;
use ledbat_bt_proto::config::{Opening, Pipeline, SnubClock, Timers, Verification};
use ledbat_bt_proto::disposition::{Disposition, DispositionModel};
use ledbat_bt_proto::{
    ChokerConfig, Endgame, Layout, LayoutError, PeerConfig, PickerConfig, SeedChoking, BLOCK_LEN,
};
use ledbat_core::{ControllerConfig, Duration};
use serde::{Deserialize, Deserializer, Serialize, Serializer};
use std::fmt;

/// A byte count, written as an integer or with a unit (`"10MiB"`, `"256KiB"`, `"10MB"`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub struct ByteSize(pub u64);

impl std::str::FromStr for ByteSize {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, String> {
        let err = || {
            format!("invalid size `{s}`: expected bytes or a number with B, kB, KiB, MB, MiB, GB or GiB")
        };
        let t = s.trim();
        let split = t.find(|c: char| c.is_ascii_alphabetic()).unwrap_or(t.len());
        let (num, unit) = t.split_at(split);
        let v: f64 = num.trim().parse().map_err(|_| err())?;
        let scale: f64 = match unit.trim() {
            "" | "B" => 1.0,
            "kB" | "KB" => 1e3,
            "KiB" => 1024.0,
            "MB" => 1e6,
            "MiB" => 1024.0 * 1024.0,
            "GB" => 1e9,
            "GiB" => 1024.0 * 1024.0 * 1024.0,
            _ => return Err(err()),
        };
        let bytes = v * scale;
        if !bytes.is_finite() || bytes < 0.0 || bytes.fract() != 0.0 || bytes > u64::MAX as f64 {
            return Err(err());
        }
        Ok(ByteSize(bytes as u64))
    }
}

impl fmt::Display for ByteSize {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} B", self.0)
    }
}

impl Serialize for ByteSize {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_u64(self.0)
    }
}

impl<'de> Deserialize<'de> for ByteSize {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        #[derive(Deserialize)]
        #[serde(untagged)]
        enum Raw {
            N(u64),
            S(String),
        }
        match Raw::deserialize(d)? {
            Raw::N(n) => Ok(ByteSize(n)),
            Raw::S(s) => s.parse().map_err(serde::de::Error::custom),
        }
    }
}

/// How leechers arrive.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "kebab-case", deny_unknown_fields)]
pub enum Arrival {
    /// A Poisson process of `rate` arrivals per second (0.1 in seed 003 section 5.1).
    Poisson {
        /// Arrivals per second.
        rate: f64,
    },
    /// Every leecher at t = 0 (the flash crowd of seed 003 section 6.2.1).
    AllAtOnce,
}

impl Default for Arrival {
    fn default() -> Self {
        Arrival::Poisson { rate: 0.1 }
    }
}

/// What a leecher does once it has the whole file (seed 003 section 5.1).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum SeedBehaviour {
    /// Stays forever.
    NeverLeave,
    /// Stays an exponential time of mean `stay_factor` times its own download time, then
    /// leaves and a new leecher joins.
    #[default]
    RandomStay,
    /// Leaves at once and a new leecher joins.
    LeaveAtOnce,
}

/// Whose BitTorrent the peers run (`protocol`): both are `ledbat-bt-proto`'s peer, set up
/// differently.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Protocol {
    /// Seed 003's ns-2 BitTorrent module (its reference 41), the default: a fixed
    /// pipeline, the opening messages right behind the handshake, no extension, no
    /// protocol timer, with this section's `pipeline`, `random_first`, `endgame` and
    /// `[swarm.choke]`.
    #[default]
    Ns2,
    /// Our client's, as `ledbat torrent` runs it (`PeerConfig::default()`): requests sized
    /// to 3 s of each peer's rate (4 to 64 blocks), endgame on idle connections, 4 + 1
    /// unchoke slots with anti-snubbing after 60 s, the Fast Extension and the Extension
    /// Protocol, connections closed between two seeds, its protocol timers (keep-alive,
    /// idle, request, handshake). Pieces are trusted (the simulator carries no bytes to
    /// hash). The section's `pipeline`, `random_first`, `endgame` and `[swarm.choke]` must
    /// keep their defaults: they describe the ns-2 module.
    Client,
}

/// Choking settings (`[swarm.choke]`).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct ChokeSection {
    /// Regular unchoke slots. Default 4 (seed 003 section 1.2).
    pub regular: u32,
    /// Optimistic unchoke slots. Default 1 (seed 003 section 1.2).
    pub optimistic: u32,
    /// Choke round. Default 10 s.
    pub round: Duration,
    /// Optimistic unchoke period, a multiple of `round`. Default 30 s.
    pub optimistic_period: Duration,
    /// Weight of newly connected peers in the optimistic draw. Default 3.
    pub new_peer_weight: u32,
    /// How seeds choose: `upload-rate` (default) or `round-robin`.
    pub seed_choking: SeedChoking,
    /// Anti-snubbing threshold (mainline: 60 s); absent = off (the default).
    pub snub_after: Option<Duration>,
}

impl Default for ChokeSection {
    fn default() -> Self {
        ChokeSection {
            regular: 4,
            optimistic: 1,
            round: Duration::from_secs(10),
            optimistic_period: Duration::from_secs(30),
            new_peer_weight: 3,
            seed_choking: SeedChoking::UploadRate,
            snub_after: None,
        }
    }
}

/// A class of peers (`[[swarm.class]]`).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct PeerClass {
    /// Name used in reports. Required, unique.
    pub name: String,
    /// Relative probability that a newcomer is of this class. Default 1.
    pub share: f64,
    /// `bt.transp_disposition` (module `disposition`). Default 31, µTorrent's.
    pub disposition: Disposition,
    /// Controller of the peer's uTP uploads. Default LEDBAT, TARGET 100 ms.
    pub utp_cc: ControllerConfig,
    /// Controller of the peer's TCP connections. Default NewReno (ns-2's TCP in seed 003
    /// chapter 5).
    pub tcp_cc: ControllerConfig,
    /// Access uplink. Default 1 Mb/s.
    pub up: Rate,
    /// Access downlink. Default 8 Mb/s.
    pub down: Rate,
    /// Uplink DropTail buffer in packets. Default 200.
    pub buffer: u32,
    /// Uplink DropTail buffer in bytes instead of packets (`buffer` is then ignored), as
    /// a byte-limited shaper holds it (tc's tbf `limit`, an HTB queue sized "B/C = 1 s"
    /// in seed 003 section 6.2.1): a 40-byte ACK takes 40 bytes of it rather than a whole
    /// packet's place. Default none: the buffer counts packets.
    pub buffer_bytes: Option<u64>,
    /// Downlink DropTail buffer in packets. Default: `buffer`.
    pub down_buffer: Option<u32>,
    /// One-way access delay, drawn uniformly in `[lo, hi]` per peer. Default [1 ms, 25 ms].
    pub delay: [Duration; 2],
}

impl Default for PeerClass {
    fn default() -> Self {
        PeerClass {
            name: String::new(),
            share: 1.0,
            disposition: Disposition::DEFAULT,
            utp_cc: ControllerConfig::from_name("ledbat").expect("built in"),
            tcp_cc: ControllerConfig::from_name("newreno").expect("built in"),
            up: Rate::mbps(1),
            down: Rate::mbps(8),
            buffer: 200,
            buffer_bytes: None,
            down_buffer: None,
            delay: [Duration::from_millis(1), Duration::from_millis(25)],
        }
    }
}

/// The `[swarm]` section.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct SwarmConfig {
    /// File size. Default 10 MiB (module comment).
    pub file_size: ByteSize,
    /// Piece size. Default 256 KiB (the ns-2 module; seed 003 section 1.2: 256-1024 KB).
    pub piece_size: ByteSize,
    /// Block size. Default 16 KiB (BEP 3 practice; seed 003 section 1.2).
    pub block_size: ByteSize,
    /// Requests outstanding per uploader, in blocks. Default 5 (seed 003 section 1.2).
    pub pipeline: u32,
    /// Random first piece. Default true (the ns-2 module, mainline).
    pub random_first: bool,
    /// Endgame mode. Default false: the thesis's simulator lacks it (section 5.3).
    pub endgame: bool,
    /// Initial seeds at t = 0. Default 1.
    pub initial_seeds: u32,
    /// Class of the initial seeds. Default: drawn by the classes' shares, like a newcomer's
    /// (so an all-TCP population has a TCP seed and a 50-50 one either kind).
    pub seed_class: Option<String>,
    /// Leechers of the initial crowd (replacements come on top). Default 100.
    pub leechers: u32,
    /// Neighbours a tracker reply holds at most. Default 50 (mainline's `numwant`; the
    /// ns-2 module's documented default).
    pub tracker_peers: u32,
    /// A peer dials the neighbours of a tracker reply only while it has fewer connections
    /// than this. Default 40 (mainline BitTorrent's `max_initiate`).
    pub max_initiate: u32,
    /// A peer refuses incoming connections once it has this many. Default 80 (mainline's
    /// `max_allow_in`).
    pub max_connections: u32,
    /// A peer with fewer connections than this asks the tracker again every `reannounce`.
    /// Default 20 (mainline's `min_peers`).
    pub min_peers: u32,
    /// Period of those re-announces. Default 300 s (mainline's `rerequest_interval`).
    pub reannounce: Duration,
    /// Period of the uplink queue samples. Default 100 ms (10 Hz, seed 003 section 5.2.1:
    /// "sampling all uplink queues at 10 Hz").
    pub queue_sample: Duration,
    /// How they arrive. Default Poisson at 0.1 Hz.
    pub arrival: Arrival,
    /// What newborn seeds do. Default `random-stay`. Initial seeds never leave.
    pub seed_behaviour: SeedBehaviour,
    /// Mean stay of a newborn seed over its download time (`random-stay`). Default 0.5.
    pub stay_factor: f64,
    /// Completions discarded as transient. Default 50.
    pub discard: u32,
    /// Completions measured after those. Default 50.
    pub measure: u32,
    /// Transport rule (module `disposition`). Default `per-uploader` (chapter 5's).
    pub disposition_model: DispositionModel,
    /// Whose BitTorrent the peers run. Default `ns2`.
    pub protocol: Protocol,
    /// Choking.
    pub choke: ChokeSection,
    /// Peer classes, as `[[swarm.class]]`.
    #[serde(rename = "class")]
    pub classes: Vec<PeerClass>,
}

impl Default for SwarmConfig {
    fn default() -> Self {
        SwarmConfig {
            file_size: ByteSize(10 * 1024 * 1024),
            piece_size: ByteSize(256 * 1024),
            block_size: ByteSize(BLOCK_LEN as u64),
            pipeline: 5,
            random_first: true,
            endgame: false,
            initial_seeds: 1,
            seed_class: None,
            leechers: 100,
            tracker_peers: 50,
            max_initiate: 40,
            max_connections: 80,
            min_peers: 20,
            reannounce: Duration::from_secs(300),
            queue_sample: Duration::from_millis(100),
            arrival: Arrival::default(),
            seed_behaviour: SeedBehaviour::default(),
            stay_factor: 0.5,
            discard: 50,
            measure: 50,
            disposition_model: DispositionModel::default(),
            protocol: Protocol::default(),
            choke: ChokeSection::default(),
            classes: Vec::new(),
        }
    }
}

impl SwarmConfig {
    /// Checks every constraint; the error names the dotted key (`swarm.class.1.share`).
    pub fn validate(&self) -> Result<(), ScenarioError> {
        let k = |s: &str| format!("swarm.{s}");
        if self.file_size.0 == 0 {
            return Err(invalid(k("file_size"), "must be positive"));
        }
        let block = self.block_size.0;
        if block == 0 || block > 128 * 1024 {
            return Err(invalid(
                k("block_size"),
                format!("must be between 1 B and 128 KiB, got {block}"),
            ));
        }
        let piece = self.piece_size.0;
        if piece == 0 || piece > u32::MAX as u64 || !piece.is_multiple_of(block) {
            return Err(invalid(
                k("piece_size"),
                format!("must be a positive multiple of block_size ({block}), got {piece}"),
            ));
        }
        self.torrent()
            .map_err(|e| invalid(k("file_size"), e.to_string()))?;
        if self.pipeline == 0 {
            return Err(invalid(k("pipeline"), "must be at least 1 block"));
        }
        if self.initial_seeds == 0 {
            return Err(invalid(k("initial_seeds"), "must be at least 1"));
        }
        if self.leechers == 0 {
            return Err(invalid(k("leechers"), "must be at least 1"));
        }
        if self.tracker_peers == 0 {
            return Err(invalid(k("tracker_peers"), "must be at least 1"));
        }
        if self.max_initiate == 0 {
            return Err(invalid(k("max_initiate"), "must be at least 1"));
        }
        if self.max_connections < self.max_initiate {
            return Err(invalid(
                k("max_connections"),
                format!(
                    "must be at least max_initiate ({}), got {}",
                    self.max_initiate, self.max_connections
                ),
            ));
        }
        if self.reannounce.is_zero() {
            return Err(invalid(k("reannounce"), "must be positive"));
        }
        if self.queue_sample.is_zero() {
            return Err(invalid(k("queue_sample"), "must be positive"));
        }
        if let Arrival::Poisson { rate } = self.arrival {
            if !(rate.is_finite() && rate > 0.0) {
                return Err(invalid(
                    k("arrival.rate"),
                    format!("must be a positive number of arrivals per second, got {rate}"),
                ));
            }
        }
        if !(self.stay_factor.is_finite() && self.stay_factor > 0.0) {
            return Err(invalid(k("stay_factor"), "must be positive"));
        }
        if self.measure == 0 {
            return Err(invalid(k("measure"), "must be at least 1 completion"));
        }
        let c = &self.choke;
        if c.round.is_zero() {
            return Err(invalid(k("choke.round"), "must be positive"));
        }
        if c.optimistic_period.is_zero()
            || !c
                .optimistic_period
                .as_nanos()
                .is_multiple_of(c.round.as_nanos())
        {
            return Err(invalid(
                k("choke.optimistic_period"),
                format!("must be a positive multiple of choke.round ({})", c.round),
            ));
        }
        if c.regular + c.optimistic == 0 {
            return Err(invalid(k("choke.regular"), "no unchoke slot at all"));
        }
        if c.snub_after.is_some_and(|d| d.is_zero()) {
            return Err(invalid(k("choke.snub_after"), "must be positive"));
        }
        if self.protocol == Protocol::Client {
            let ns2 = SwarmConfig::default();
            let fixed = [
                ("pipeline", self.pipeline != ns2.pipeline),
                ("random_first", self.random_first != ns2.random_first),
                ("endgame", self.endgame != ns2.endgame),
                ("choke", self.choke != ns2.choke),
            ];
            if let Some((key, _)) = fixed.into_iter().find(|&(_, changed)| changed) {
                return Err(invalid(
                    k(key),
                    "describes the ns-2 module's BitTorrent: with protocol = \"client\" the \
                     client's own setting applies (leave it out)",
                ));
            }
        }
        if self.classes.is_empty() {
            return Err(invalid(
                k("class"),
                "at least one [[swarm.class]] is required",
            ));
        }
        let mut total = 0.0;
        for (i, cl) in self.classes.iter().enumerate() {
            let ck = |s: &str| format!("swarm.class.{i}.{s}");
            if cl.name.trim().is_empty() {
                return Err(invalid(ck("name"), "a class needs a name"));
            }
            if self.classes[..i].iter().any(|o| o.name == cl.name) {
                return Err(invalid(
                    ck("name"),
                    format!("duplicate class `{}`", cl.name),
                ));
            }
            if !(cl.share.is_finite() && cl.share >= 0.0) {
                return Err(invalid(ck("share"), "must be a non-negative number"));
            }
            total += cl.share;
            cl.utp_cc
                .validate()
                .map_err(|e| invalid(ck(&format!("utp_cc.{}", e.field)), e.reason))?;
            cl.tcp_cc
                .validate()
                .map_err(|e| invalid(ck(&format!("tcp_cc.{}", e.field)), e.reason))?;
            if cl.up.bits_per_sec() == 0 || cl.down.bits_per_sec() == 0 {
                return Err(invalid(ck("up"), "rates must be positive"));
            }
            if cl.buffer == 0 {
                return Err(invalid(ck("buffer"), "must be at least 1 packet"));
            }
            if cl.buffer_bytes == Some(0) {
                return Err(invalid(ck("buffer_bytes"), "must be at least 1 byte"));
            }
            if cl.down_buffer == Some(0) {
                return Err(invalid(ck("down_buffer"), "must be at least 1 packet"));
            }
            if cl.delay[0] > cl.delay[1] {
                return Err(invalid(
                    ck("delay"),
                    format!("range [{}, {}] is reversed", cl.delay[0], cl.delay[1]),
                ));
            }
        }
        if total <= 0.0 {
            return Err(invalid(k("class.0.share"), "the shares sum to zero"));
        }
        if let Some(name) = &self.seed_class {
            if !self.classes.iter().any(|c| &c.name == name) {
                return Err(invalid(k("seed_class"), format!("no class named `{name}`")));
            }
        }
        Ok(())
    }

    /// The torrent's geometry.
    pub fn torrent(&self) -> Result<Layout, LayoutError> {
        Layout::new(
            self.file_size.0,
            self.piece_size.0.min(u32::MAX as u64) as u32,
            self.block_size.0.min(u32::MAX as u64) as u32,
        )
    }

    /// Index of the initial seeds' class, if the configuration names one.
    pub fn seed_class_index(&self) -> Option<usize> {
        self.seed_class
            .as_ref()
            .and_then(|n| self.classes.iter().position(|c| &c.name == n))
    }

    /// The per-peer settings these values give ([`Protocol`]): the protocol of
    /// `ledbat-bt-proto` set up as seed 003's ns-2 BitTorrent module (a fixed pipeline, the
    /// opening messages right behind the handshake, pieces trusted, no extension, no
    /// protocol timer) with the picking and choking of this section, or as our client with
    /// pieces trusted. The caller sets each peer's id.
    pub fn peer_config(&self) -> PeerConfig {
        if self.protocol == Protocol::Client {
            return PeerConfig {
                verification: Verification::Trusted,
                ..PeerConfig::default()
            };
        }
        let c = &self.choke;
        PeerConfig {
            picker: PickerConfig {
                random_first: self.random_first,
                rarest_first: true,
                endgame: if self.endgame {
                    Endgame::All
                } else {
                    Endgame::Off
                },
            },
            choker: ChokerConfig {
                regular: c.regular,
                optimistic: c.optimistic,
                optimistic_rounds: (c.optimistic_period.as_nanos() / c.round.as_nanos().max(1))
                    .max(1) as u32,
                new_peer_weight: c.new_peer_weight,
                round: c.round,
                seed_choking: c.seed_choking,
                snub_after: c.snub_after,
            },
            snub_clock: SnubClock::SinceBlockOrConnect,
            pipeline: Pipeline::Fixed(self.pipeline),
            max_request: self.block_size.0.min(u32::MAX as u64) as u32,
            fast_extension: false,
            extension_protocol: false,
            opening: Opening::AtOnce,
            verification: Verification::Trusted,
            close_seed_pairs: false,
            max_connections: None,
            timers: Timers::OFF,
            ..PeerConfig::default()
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The `[swarm]` of `text` made a whole scenario (a star, appended after the text so
    /// that line numbers stay the text's), through the scenario parser.
    fn swarm(text: &str) -> Result<SwarmConfig, ScenarioError> {
        let sc = crate::Scenario::from_toml(&format!("{text}\n[topology]\nkind = \"star\"\n"))?;
        Ok(sc.swarm.expect("a [swarm] section"))
    }

    const FIFTY_FIFTY: &str = r#"
duration = "3000s"
[swarm]
seed_behaviour = "random-stay"
[[swarm.class]]
name = "ledbat"
share = 0.5
disposition = 14
utp_cc = { name = "ledbat", target = "100ms" }
[[swarm.class]]
name = "tcp"
share = 0.5
disposition = 13
"#;

    #[test]
    fn defaults_are_the_thesis_section_5_1_values() {
        let c = swarm(FIFTY_FIFTY).unwrap();
        assert_eq!(c.leechers, 100);
        assert_eq!(c.arrival, Arrival::Poisson { rate: 0.1 });
        assert_eq!((c.discard, c.measure), (50, 50));
        assert_eq!(c.stay_factor, 0.5);
        let cl = &c.classes[1];
        assert_eq!(
            (cl.up, cl.down, cl.buffer),
            (Rate::mbps(1), Rate::mbps(8), 200)
        );
        assert_eq!(
            cl.delay,
            [Duration::from_millis(1), Duration::from_millis(25)]
        );
        assert_eq!(cl.disposition.bits(), 13);
        assert_eq!(cl.tcp_cc.name(), "newreno");
        let t = c.torrent().unwrap();
        assert_eq!((t.pieces(), t.block_length()), (40, 16_384));
        let p = c.peer_config();
        assert_eq!(p.pipeline, Pipeline::Fixed(5));
        assert_eq!(p.picker.endgame, Endgame::Off);
        assert_eq!(p.choker.snub_after, None);
        assert_eq!(
            (
                p.choker.regular,
                p.choker.optimistic,
                p.choker.optimistic_rounds
            ),
            (4, 1, 3)
        );
        assert_eq!(p.choker.round, Duration::from_secs(10));
        p.validate().unwrap();
    }

    #[test]
    fn sizes_take_units() {
        let c = swarm(
            "[swarm]\nfile_size = \"1.5MiB\"\npiece_size = 32768\n[[swarm.class]]\nname = \"a\"\n",
        )
        .unwrap();
        assert_eq!(c.file_size, ByteSize(1_572_864));
        assert_eq!(c.piece_size, ByteSize(32_768));
        assert!("3 parsecs".parse::<ByteSize>().is_err());
        assert!("0.5B".parse::<ByteSize>().is_err());
    }

    #[test]
    fn unknown_key_names_key_and_line() {
        let text = FIFTY_FIFTY.replace("share = 0.5\ndisposition = 13", "shrae = 0.5");
        let e = swarm(&text).unwrap_err().to_string();
        assert!(e.contains("shrae") && e.contains("line 12"), "{e}");
    }

    #[test]
    fn semantic_errors_name_key_and_line() {
        let cases = [
            (
                "share = 0.5\ndisposition = 13",
                "share = -1.0\ndisposition = 13",
                "swarm.class.1.share",
                12,
            ),
            (
                "disposition = 14",
                "disposition = 14\ndelay = [\"30ms\", \"2ms\"]",
                "swarm.class.0.delay",
                9,
            ),
            (
                "disposition = 14",
                "disposition = 14\nbuffer_bytes = 0",
                "swarm.class.0.buffer_bytes",
                9,
            ),
            (
                "seed_behaviour = \"random-stay\"",
                "pipeline = 0",
                "swarm.pipeline",
                4,
            ),
            (
                "target = \"100ms\"",
                "target = \"100ms\", gain = -1.0",
                "swarm.class.0.utp_cc.gain",
                9,
            ),
        ];
        for (from, to, key, line) in cases {
            let text = FIFTY_FIFTY.replace(from, to);
            let e = swarm(&text).unwrap_err().to_string();
            assert!(e.contains(key), "{key}: {e}");
            assert!(e.contains(&format!("line {line}")), "{key}: {e}");
        }
        let e = swarm(&FIFTY_FIFTY.replace("disposition = 14", "disposition = 40"))
            .unwrap_err()
            .to_string();
        assert!(e.contains("0-31") && e.contains("line 8"), "{e}");
        let e = swarm("[swarm]\npiece_size = 20000\n[[swarm.class]]\nname = \"a\"\n")
            .unwrap_err()
            .to_string();
        assert!(
            e.contains("swarm.piece_size") && e.contains("line 2"),
            "{e}"
        );
        let e = swarm("[swarm]\nleechers = 3\n").unwrap_err().to_string();
        assert!(e.contains("swarm.class"), "{e}");
        let e = swarm("[swarm]\nseed_class = \"x\"\n[[swarm.class]]\nname = \"a\"\n")
            .unwrap_err()
            .to_string();
        assert!(e.contains("seed_class") && e.contains("line 2"), "{e}");
        let e = swarm(
            "[swarm]\n[swarm.choke]\noptimistic_period = \"25s\"\n[[swarm.class]]\nname = \"a\"\n",
        )
        .unwrap_err()
        .to_string();
        assert!(
            e.contains("swarm.choke.optimistic_period") && e.contains("line 3"),
            "{e}"
        );
    }

    #[test]
    fn swarm_section_round_trips_through_toml() {
        let c = swarm(FIFTY_FIFTY).unwrap();
        #[derive(Serialize)]
        struct Doc<'a> {
            swarm: &'a SwarmConfig,
        }
        let text = toml::to_string(&Doc { swarm: &c }).unwrap();
        assert_eq!(swarm(&text).unwrap(), c, "{text}");
    }

    #[test]
    fn the_client_protocol_is_the_clients_settings_with_pieces_trusted() {
        let c = swarm(
            &FIFTY_FIFTY.replace("seed_behaviour = \"random-stay\"", "protocol = \"client\""),
        )
        .unwrap();
        let p = c.peer_config();
        let client = PeerConfig::default();
        assert_eq!(p.verification, Verification::Trusted);
        assert_eq!(
            PeerConfig {
                verification: client.verification,
                ..p.clone()
            },
            client
        );
        assert_eq!(p.picker.endgame, Endgame::Idle);
        assert_eq!(p.choker.snub_after, Some(Duration::from_secs(60)));
        // What only the ns-2 module has is refused rather than silently ignored.
        let e = swarm(&FIFTY_FIFTY.replace(
            "seed_behaviour = \"random-stay\"",
            "protocol = \"client\"\nendgame = true",
        ))
        .unwrap_err()
        .to_string();
        assert!(e.contains("swarm.endgame") && e.contains("line 5"), "{e}");
    }
}
