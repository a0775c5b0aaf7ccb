//! Built-in controllers by name: one config enum (for scenario files and the command line),
//! one statically dispatched controller enum, and the catalog `ledbat controllers` prints.
//!
//! This module is a leaf: it imports every controller module and nothing in the crate
//! imports it back (only `lib.rs` re-exports its types). A controller module implements
//! [`Controller`] and, for its config, [`ControllerFactory`]
//! (`crate::controller`); registering it is one line in the `builtin!` list at the bottom
//! of this file (`Variant = "name" => Type, Config, "description", "source";`). The steps
//! are in `ARCHITECTURE.md`, "Adding a controller".

use crate::controller::{Ack, Controller, ControllerFactory, Loss, Metrics, Timeout};
use crate::error::ConfigError;
use crate::time::Instant;
use serde::{Deserialize, Serialize};

/// The controller this project recommends for bulk transfers on real paths, and the one the
/// transfer commands (`ledbat send`, `recv`, `torrent`) use unless told otherwise.
pub const RECOMMENDED: &str = crate::scavenger::NAME;

/// One row of the catalog.
#[derive(Clone, Copy, Debug, Serialize)]
pub struct ControllerInfo {
    /// Registry name.
    pub name: &'static str,
    /// One line on what it does.
    pub description: &'static str,
    /// Where it comes from (RFC section, seed file and section).
    pub source: &'static str,
}

/// A name that is not a built-in controller.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("unknown controller `{0}` (run `ledbat controllers` for the list)")]
pub struct UnknownController(pub String);

/// Why a `key=value` parameter could not be applied.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ParamError {
    /// The controller name is unknown.
    #[error(transparent)]
    Unknown(#[from] UnknownController),
    /// The parameter text is not `key=value`.
    #[error("parameter `{0}` is not of the form key=value")]
    Syntax(String),
    /// The key or value was refused.
    #[error("{controller}: parameter `{key}`: {reason}")]
    Value {
        /// Controller name.
        controller: String,
        /// The key as given.
        key: String,
        /// What was wrong.
        reason: String,
    },
    /// The resulting config failed validation.
    #[error(transparent)]
    Invalid(#[from] ConfigError),
}

macro_rules! builtin {
    ($( $variant:ident = $name:literal => $ty:ty, $cfg:ty, $desc:literal, $source:literal; )*) => {
        /// The configuration of a built-in controller, tagged by `name` in TOML and JSON
        /// (`{ name = "ledbat", target = "25ms" }`).
        #[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
        #[serde(tag = "name")]
        pub enum ControllerConfig {
            $(
                #[doc = $desc]
                #[serde(rename = $name)]
                $variant($cfg),
            )*
        }

        /// A built-in controller, dispatched statically.
        #[derive(Debug, Clone)]
        #[allow(clippy::large_enum_variant)]
        pub enum AnyController {
            $(
                #[doc = $desc]
                $variant($ty),
            )*
        }

        /// Every built-in controller, in catalog order.
        pub const CATALOG: &[ControllerInfo] = &[
            $( ControllerInfo { name: $name, description: $desc, source: $source }, )*
        ];

        impl ControllerConfig {
            /// The default configuration of the controller called `name`.
            pub fn from_name(name: &str) -> Result<Self, UnknownController> {
                $( if name == <$cfg as ControllerFactory>::NAME { return Ok(ControllerConfig::$variant(<$cfg>::default())); } )*
                Err(UnknownController(name.to_string()))
            }
            /// Registry name.
            pub fn name(&self) -> &'static str {
                match self { $( ControllerConfig::$variant(_) => <$cfg as ControllerFactory>::NAME, )* }
            }
            /// Validates without building.
            pub fn validate(&self) -> Result<(), ConfigError> {
                match self { $( ControllerConfig::$variant(c) => c.validate(), )* }
            }
            /// Departures from the source's limits.
            pub fn compliance_notes(&self) -> Vec<String> {
                match self { $( ControllerConfig::$variant(c) => c.compliance_notes(), )* }
            }
            /// Builds the controller for packets of `mss` bytes.
            pub fn build(&self, mss: u32) -> Result<AnyController, ConfigError> {
                match self {
                    $( ControllerConfig::$variant(c) => Ok(AnyController::$variant(c.build(mss)?)), )*
                }
            }
        }

        impl Controller for AnyController {
            fn name(&self) -> &'static str {
                match self { $( AnyController::$variant(c) => c.name(), )* }
            }
            #[inline]
            fn on_sent(&mut self, now: Instant, bytes: u64, in_flight: u64) {
                match self { $( AnyController::$variant(c) => c.on_sent(now, bytes, in_flight), )* }
            }
            #[inline]
            fn on_ack(&mut self, now: Instant, ack: &Ack<'_>) {
                match self { $( AnyController::$variant(c) => c.on_ack(now, ack), )* }
            }
            #[inline]
            fn on_loss(&mut self, now: Instant, loss: &Loss) {
                match self { $( AnyController::$variant(c) => c.on_loss(now, loss), )* }
            }
            fn on_timeout(&mut self, now: Instant, kind: Timeout) {
                match self { $( AnyController::$variant(c) => c.on_timeout(now, kind), )* }
            }
            #[inline]
            fn window(&self) -> u64 {
                match self { $( AnyController::$variant(c) => c.window(), )* }
            }
            #[inline]
            fn pacing_rate(&self) -> Option<u64> {
                match self { $( AnyController::$variant(c) => c.pacing_rate(), )* }
            }
            #[inline]
            fn on_app_limited(&mut self, now: Instant, in_flight: u64) {
                match self { $( AnyController::$variant(c) => c.on_app_limited(now, in_flight), )* }
            }
            #[inline]
            fn pause_until(&self) -> Option<Instant> {
                match self { $( AnyController::$variant(c) => c.pause_until(), )* }
            }
            #[inline]
            fn next_tick(&self) -> Option<Instant> {
                match self { $( AnyController::$variant(c) => c.next_tick(), )* }
            }
            fn on_tick(&mut self, now: Instant) {
                match self { $( AnyController::$variant(c) => c.on_tick(now), )* }
            }
            fn on_delay_source_change(&mut self, now: Instant) {
                match self { $( AnyController::$variant(c) => c.on_delay_source_change(now), )* }
            }
            fn metrics(&self) -> Metrics {
                match self { $( AnyController::$variant(c) => c.metrics(), )* }
            }
        }
    };
}

impl ControllerConfig {
    /// The configuration of `name` with `key=value` parameters applied on top of its
    /// defaults. Keys are the config's field names, dotted for nested ones
    /// (`delay.base_history=12`); values are JSON (`25`, `true`) or bare strings (`25ms`).
    pub fn with_params<'a>(
        name: &str,
        params: impl IntoIterator<Item = &'a str>,
    ) -> Result<Self, ParamError> {
        let mut cfg = Self::from_name(name)?;
        for p in params {
            let (k, v) = p
                .split_once('=')
                .ok_or_else(|| ParamError::Syntax(p.to_string()))?;
            cfg = cfg.set(k.trim(), v.trim())?;
        }
        cfg.validate()?;
        Ok(cfg)
    }

    /// This configuration with one parameter changed (see [`ControllerConfig::with_params`]).
    pub fn set(&self, key: &str, value: &str) -> Result<Self, ParamError> {
        crate::param_path::set(self, key, value, &["name"]).map_err(|reason| ParamError::Value {
            controller: self.name().to_string(),
            key: key.to_string(),
            reason,
        })
    }

    /// Every parameter key of this configuration (dotted), with its value as text.
    pub fn params(&self) -> Vec<(String, String)> {
        crate::param_path::list(self, &["name"])
    }
}

impl AnyController {
    /// The competitor detection of a `ledbat++` or `scavenger` flow when it is enabled
    /// (`competitor.enabled`), for traces of its tests; `None` for every other controller.
    pub fn competitor(&self) -> Option<&crate::competitor::Competitor> {
        match self {
            AnyController::LedbatPp(pp) | AnyController::Scavenger(pp) => {
                Some(pp.competitor()).filter(|c| c.enabled())
            }
            _ => None,
        }
    }
}

builtin! {
    Ledbat = "ledbat" => crate::ledbat::Ledbat, crate::ledbat::LedbatConfig,
        "RFC 6817 LEDBAT: linear controller on one-way queuing delay",
        "RFC 6817 section 2.4";
    DynamicGain = "ledbat-dynamic-gain" => crate::dynamic_gain::DynamicGain, crate::dynamic_gain::DynamicGainConfig,
        "LEDBAT whose gain becomes 10^ceil(log10 cwnd)/cwnd once queuing delay reaches TARGET",
        "seed 000 (Abu & Gordon), section V, equation 2";
    LinearMin = "ledbat-linear-min" => crate::linear_min::LinearMin, crate::linear_min::LinearMinConfig,
        "LEDBAT whose decrease is at least N packets per RTT when over target",
        "seed 002 (Kühlewind & Fisches), section 3.2; algorithms.md section 3";
    Md = "ledbat-md" => crate::md::Md, crate::md::MdConfig,
        "LEDBAT with multiplicative decrease cwnd *= beta (0.6) once per RTT over target; noise filter 1 or 2",
        "seed 002 (Kühlewind & Fisches, after Carofiglio et al.), sections 3.2 and 5.2";
    MdVar = "ledbat-mdvar" => crate::mdvar::MdVar, crate::mdvar::MdVarConfig,
        "LEDBAT with cwnd = (1 - TARGET/RTT) * cwnd - 3 packets once per RTT over target",
        "seed 002 (Kühlewind & Fisches), section 3.2 with its erratum";
    Fledbat = "fledbat" => crate::fledbat::Fledbat, crate::fledbat::FledbatConfig,
        "fair LEDBAT: additive increase alpha/cwnd, decrease zeta*(qd-TARGET)/TARGET per ACK, halve on loss",
        "seed 003 (Testa), chapter 4, equation 4.5";
    Pause = "ledbat-pause" => crate::pause::LedbatPause, crate::pause::PauseConfig,
        "RFC LEDBAT that stops sending for TARGET + 1 RTT before a base-delay refresh that could raise the base",
        "seed 001 (Ros & Welzl), sections II.B and III";
    LedbatPp = "ledbat++" => crate::ledbat_pp::LedbatPp, crate::ledbat_pp::LedbatPpConfig,
        "LEDBAT++: RTT-based, TARGET 60 ms, GAIN 1/min(16, ceil(2 TARGET/base)), decrease bounded by W/2, periodic slowdowns",
        "draft-irtf-iccrg-ledbat-plus-plus-01; algorithms.md section 7";
    Scavenger = "scavenger" => crate::ledbat_pp::LedbatPp, crate::scavenger::ScavengerConfig,
        "recommended preset: ledbat++ with this project's extensions (gain 1, joined slowdowns holding the share in flight, conservative slow start, restart on an empty queue, competitor detection with spaced slowdowns)",
        "draft-irtf-iccrg-ledbat-plus-plus-01 and this project's extensions (crates/ledbat-core/src/scavenger.rs)";
    NewReno = "newreno" => crate::newreno::NewReno, crate::newreno::NewRenoConfig,
        "TCP NewReno window: slow start, +1 MSS per RTT, halve once per RTT on loss",
        "RFC 5681 section 3, RFC 6582; seed 003 section 3.2";
    Cubic = "cubic" => crate::cubic::Cubic, crate::cubic::CubicConfig,
        "CUBIC: cubic window growth around W_max, beta 0.7, Reno-friendly region",
        "RFC 9438 section 4; seed 003 chapter 6";
    Bbr = "bbr" => crate::bbr::Bbr, crate::bbr::BbrConfig,
        "BBRv1: paces at the windowed-max delivery rate with a gain cycle, cwnd 2 BDP, ProbeRTT every 10 s",
        "draft-cardwell-iccrg-bbr-congestion-control-00 with Linux tcp_bbr.c's choices; algorithms.md section 10";
    Vegas = "vegas" => crate::vegas::Vegas, crate::vegas::VegasConfig,
        "TCP Vegas: keep alpha..beta packets queued, +/-1 packet per RTT from base-RTT vs RTT",
        "Brakmo & Peterson 1995; seed 003 section 3.1";
    TcpLp = "tcp-lp" => crate::tcp_lp::TcpLp, crate::tcp_lp::TcpLpConfig,
        "TCP-LP: Reno that halves on smoothed one-way delay over 15% of its range, 1 packet if again",
        "Kuzmanovic & Knightly 2003; seed 003 section 3.1.4, eqs. 3.1-3.2";
    Hybrid = "hybrid" => crate::hybrid::Hybrid, crate::hybrid::HybridConfig,
        "Hybrid window and rate: per-min-RTT epoch, delay zones 1-3, AIMD on a paced rate, W = R * L",
        "seed 004 (Mehrotra et al.), section II";
    Nice = "nice" => crate::nice::Nice, crate::nice::NiceConfig,
        "TCP Nice: Vegas that halves when most RTTs of a round exceed 20% of the RTT range; sub-packet windows",
        "Venkataramani et al. 2002; seed 003 section 3.1.4, eq. 3.3";
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_catalog_name_builds_with_defaults() {
        for info in CATALOG {
            let cfg = ControllerConfig::from_name(info.name).unwrap();
            assert_eq!(cfg.name(), info.name);
            let c = cfg.build(1500).unwrap();
            assert_eq!(c.name(), info.name);
            assert_eq!(serde_json::to_value(&cfg).unwrap()["name"], info.name);
            assert!(c.window() >= 1500 / 2, "{}", info.name);
        }
    }

    #[test]
    fn only_a_flow_with_the_detection_on_has_a_competitor() {
        let on = |name: &str, params: &[&str]| {
            let cfg = ControllerConfig::with_params(name, params.iter().copied()).unwrap();
            cfg.build(1500).unwrap().competitor().is_some()
        };
        // On in the scavenger preset, off in ledbat++ as drafted until asked for.
        assert!(on("scavenger", &[]));
        assert!(!on("scavenger", &["competitor.enabled=false"]));
        assert!(!on("ledbat++", &[]));
        assert!(on("ledbat++", &["competitor.enabled=true"]));
        assert!(!on("ledbat", &[]));
    }

    #[test]
    fn the_recommended_controller_is_in_the_catalog() {
        assert!(CATALOG.iter().any(|c| c.name == RECOMMENDED));
        assert!(ControllerConfig::from_name(RECOMMENDED).is_ok());
    }

    #[test]
    fn unknown_name_is_an_error_naming_it() {
        let e = ControllerConfig::from_name("bogus").unwrap_err();
        assert!(e.to_string().contains("bogus"));
    }

    #[test]
    fn a_parameter_left_out_of_the_serialised_form_at_its_default_can_be_set() {
        // competitor.clean_spans is not serialised while false.
        let cfg = ControllerConfig::Scavenger(Default::default());
        assert!(!cfg
            .params()
            .iter()
            .any(|(k, _)| k == "competitor.clean_spans"));
        let cfg = cfg.set("competitor.clean_spans", "true").unwrap();
        let ControllerConfig::Scavenger(c) = &cfg else {
            panic!("not scavenger: {cfg:?}")
        };
        assert!(c.0.competitor.clean_spans);
        // A key the struct does not have is still refused, by name and with the known ones.
        let e = cfg
            .set("competitor.clean_spam", "true")
            .unwrap_err()
            .to_string();
        assert!(
            e.contains("competitor.clean_spam") && e.contains("no such parameter"),
            "{e}"
        );
        let e = cfg
            .set("competitor.clean_spans", "maybe")
            .unwrap_err()
            .to_string();
        assert!(e.contains("competitor.clean_spans"), "{e}");
    }

    #[test]
    fn params_apply_and_errors_name_the_key() {
        let cfg = ControllerConfig::with_params(
            "ledbat",
            ["target=25ms", "gain=0.5", "delay.base_history=3"],
        )
        .unwrap();
        let ControllerConfig::Ledbat(c) = &cfg else {
            panic!("not ledbat: {cfg:?}")
        };
        assert_eq!(c.target, crate::Duration::from_millis(25));
        assert_eq!(c.gain, 0.5);
        assert_eq!(c.delay.base_history, 3);

        let e = ControllerConfig::with_params("ledbat", ["tagret=25ms"]).unwrap_err();
        assert!(e.to_string().contains("tagret"), "{e}");
        let e = ControllerConfig::with_params("ledbat", ["gain=-2"]).unwrap_err();
        assert!(e.to_string().contains("gain"), "{e}");
        let e = ControllerConfig::with_params("ledbat", ["target=soon"]).unwrap_err();
        assert!(e.to_string().contains("target"), "{e}");
    }

    #[test]
    fn config_round_trips_through_json_and_rejects_unknown_fields() {
        for info in CATALOG {
            let cfg = ControllerConfig::from_name(info.name).unwrap();
            let j = serde_json::to_string(&cfg).unwrap();
            let back: ControllerConfig = serde_json::from_str(&j).unwrap();
            assert_eq!(back, cfg, "{j}");
        }
        let bad: Result<ControllerConfig, _> =
            serde_json::from_str(r#"{"name":"ledbat","bogus":1}"#);
        assert!(bad.is_err());
    }

    #[test]
    fn scavenger_keys_left_out_keep_the_preset_and_ledbat_pp_keeps_the_draft() {
        use crate::ledbat_pp::LedbatPpConfig;
        let cfg: ControllerConfig =
            serde_json::from_str(r#"{"name":"scavenger","target":"40ms"}"#).unwrap();
        let ControllerConfig::Scavenger(c) = &cfg else {
            panic!("not scavenger: {cfg:?}")
        };
        assert_eq!(c.0.target, crate::Duration::from_millis(40));
        assert_eq!(c.0.slowdown_hold_bdp, 0.7);
        let bad: Result<ControllerConfig, _> =
            serde_json::from_str(r#"{"name":"scavenger","bogus":1}"#);
        assert!(bad.unwrap_err().to_string().contains("bogus"));
        let e = ControllerConfig::with_params("scavenger", ["slowdown_hold_bdp=1.5"]).unwrap_err();
        assert!(e.to_string().contains("scavenger"), "{e}");
        assert!(e.to_string().contains("slowdown_hold_bdp"), "{e}");
        let ControllerConfig::LedbatPp(pp) = ControllerConfig::from_name("ledbat++").unwrap()
        else {
            panic!("not ledbat++")
        };
        assert_eq!(pp, LedbatPpConfig::default());
        assert!(pp.compliance_notes().is_empty());
    }

    #[test]
    fn hybrid_thresholds_take_duration_strings() {
        let ms = crate::Duration::from_millis;
        let cfg =
            ControllerConfig::with_params("hybrid", ["d1=10ms", "d2=20ms", "gamma=0.5"]).unwrap();
        let ControllerConfig::Hybrid(h) = &cfg else {
            panic!("not hybrid: {cfg:?}")
        };
        assert_eq!((h.d1, h.d2, h.gamma), (ms(10), ms(20), 0.5));
        let e = ControllerConfig::with_params("hybrid", ["d2=5ms"]).unwrap_err();
        assert!(e.to_string().contains("d2"), "{e}");
    }

    #[test]
    fn newreno_params_set_the_optional_threshold_by_name() {
        let cfg = ControllerConfig::with_params("newreno", ["initial_ssthresh=20", "init_cwnd=4"])
            .unwrap();
        let ControllerConfig::NewReno(c) = &cfg else {
            panic!("not newreno: {cfg:?}")
        };
        assert_eq!((c.initial_ssthresh, c.init_cwnd), (Some(20.0), 4.0));
        let e = ControllerConfig::with_params("newreno", ["initial_ssthresh=1"]).unwrap_err();
        assert!(e.to_string().contains("initial_ssthresh"), "{e}");
    }
}
