//! rLEDBAT's parameters ([`RledbatConfig`]) and their one `KEY=VALUE` parser, shared by the
//! uTP receiver (`ledbat recv --rledbat-param`, `ledbat torrent get --rledbat-param`) and the
//! kernel receiver (`ledbat tcp run --rledbat-param`, which adds the keys of its own delay
//! signal). The rules the parameters switch are described in the parent module's comment.

use ledbat_core::competitor::CompetitorConfig;
use ledbat_core::{ConfigError, Duration};
use serde::Serialize;

/// The largest `slowdown_backoff`.
pub const MAX_SLOWDOWN_BACKOFF: u64 = 64;

/// The largest `standing_probe_rtts`.
pub const MAX_STANDING_PROBE_RTTS: f64 = 16.0;

/// The smallest TARGET: 1 ms.
pub const MIN_TARGET: Duration = Duration::from_millis(1);

/// The largest TARGET: 10 s.
pub const MAX_TARGET: Duration = Duration::from_secs(10);

/// The keys [`RledbatConfig::set`] takes, for messages.
pub const KEYS: &str = "target, slowdowns, slowdown_backoff, empty_queue_restart, \
                        window_validation, standing_probe_span, standing_probe_rtts, \
                        rtt_fall, competitor.*";

/// The keys whose values have a range, in the order [`RledbatConfig::validate`] checks
/// them.
const RANGED: [&str; 3] = ["target", "slowdown_backoff", "standing_probe_rtts"];

/// What a key of [`RANGED`] must be, in the parser's messages and `validate`'s alike.
fn range(field: &str) -> String {
    match field {
        "target" => format!("TARGET is between {MIN_TARGET} and {MAX_TARGET}"),
        "slowdown_backoff" => {
            format!("a whole number from 1 (the draft) to {MAX_SLOWDOWN_BACKOFF}")
        }
        "standing_probe_rtts" => {
            format!("a number of RTTs from 0 (none) to {MAX_STANDING_PROBE_RTTS}")
        }
        _ => String::new(),
    }
}

/// rLEDBAT's parameters.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct RledbatConfig {
    /// Queuing-delay target. Default 60 ms (LEDBAT++'s, which the draft adopts).
    pub target: Duration,
    /// Periodic slowdowns. Default on (the draft's way of keeping the base delay true).
    pub slowdowns: bool,
    /// Largest factor by which the spacing of the slowdowns grows while they find the base
    /// where it was, 1 to [`MAX_SLOWDOWN_BACKOFF`] (see the parent module's comment).
    /// Default 1 (the draft's fixed spacing).
    pub slowdown_backoff: u64,
    /// Slow start again after one RTT of empty queue in avoidance (see the parent module's
    /// comment). Default off (the draft has no such rule).
    pub empty_queue_restart: bool,
    /// Hold the window under `VALIDATION_FACTOR` times the most received in one round (see
    /// the parent module's comment). Default off (the draft has no such rule).
    pub window_validation: bool,
    /// Competitor detection (`competitor.*`, ledbat-core's parameters; see the parent
    /// module's comment). Default off (`enabled` false: the draft has no such rule).
    pub competitor: CompetitorConfig,
    /// What a probe from a standing queue opens, `probe_share C` times this span (see the
    /// parent module's comment). Default [`ProbeSpan::Max`].
    pub standing_probe_span: ProbeSpan,
    /// A probe from a standing queue lasts at least this many RTTs, 0 to
    /// [`MAX_STANDING_PROBE_RTTS`], its window still sized by its push's length (see the
    /// parent module's comment). Default 0: the push's length.
    pub standing_probe_rtts: f64,
    /// After a probe while yielding, the others also count as backing off when the queue
    /// fell by `competitor.push_drop` of the RTT the probe began at, where that is less than
    /// TARGET, looked for until the probe's own queue has drained (ledbat-core's
    /// `Competitor::rtt_fall`; see the parent module's comment). Default off: `push_drop`
    /// TARGET, over AFTERMATH_RTTS RTTs.
    pub rtt_fall: bool,
}

impl Default for RledbatConfig {
    fn default() -> Self {
        RledbatConfig {
            target: Duration::from_millis(60),
            slowdowns: true,
            slowdown_backoff: 1,
            empty_queue_restart: false,
            window_validation: false,
            competitor: CompetitorConfig::default(),
            standing_probe_span: ProbeSpan::Max,
            standing_probe_rtts: 0.0,
            rtt_fall: false,
        }
    }
}

/// The span over which a probe from a standing queue opens `probe_share C`: the window of
/// such a probe is `probe_share C` times it (see the parent module's comment).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum ProbeSpan {
    /// `max(RTT, length)`: the probe's rise of the queue and no more, where the sender
    /// fills the window at once (the uTP sender).
    #[default]
    Max,
    /// `RTT + length`: also the path's RTT at that rate, for a sender whose window opens
    /// over several RTTs (the kernel's receive window grows with `rcv_ssthresh`).
    Sum,
}

/// Why an rLEDBAT parameter was refused.
#[derive(Debug, thiserror::Error, PartialEq, Eq)]
pub enum RledbatParamError {
    /// Not `KEY=VALUE`.
    #[error("rledbat parameter `{0}`: expected KEY=VALUE")]
    Syntax(String),
    /// A key that is none of `keys`.
    #[error("rledbat has no parameter `{key}` (keys: {keys})")]
    Unknown {
        /// The key given.
        key: String,
        /// The keys there are.
        keys: &'static str,
    },
    /// A bad value: the `KEY=VALUE` given (or the field) and what it must be.
    #[error("rledbat parameter `{0}`: {1}")]
    Value(String, String),
}

/// Splits `KEY=VALUE`, trimming the key.
pub fn split_param(kv: &str) -> Result<(&str, &str), RledbatParamError> {
    kv.split_once('=')
        .map(|(k, v)| (k.trim(), v))
        .ok_or_else(|| RledbatParamError::Syntax(kv.to_string()))
}

impl RledbatConfig {
    /// The defaults with `KEY=VALUE` overrides (keys: [`KEYS`]), checked as a whole
    /// ([`RledbatConfig::check`]).
    pub fn parse<'a>(kvs: impl IntoIterator<Item = &'a str>) -> Result<Self, RledbatParamError> {
        let mut c = RledbatConfig::default();
        for kv in kvs {
            let (k, v) = split_param(kv)?;
            c.set(k, v)?;
        }
        c.check()?;
        Ok(c)
    }

    /// Sets one parameter. An unknown key is [`RledbatParamError::Unknown`] with [`KEYS`]; a
    /// caller with keys of its own tries those first.
    pub fn set(&mut self, key: &str, value: &str) -> Result<(), RledbatParamError> {
        let bad = |why: &str| RledbatParamError::Value(format!("{key}={value}"), why.into());
        let flag = |v: &str| v.trim().parse::<bool>().map_err(|_| bad("true or false"));
        let mut next = *self;
        match key {
            "target" => {
                next.target = value.trim().parse().map_err(|e| bad(&format!("{e}")))?;
            }
            "slowdowns" => next.slowdowns = flag(value)?,
            "slowdown_backoff" => {
                next.slowdown_backoff = value.trim().parse().map_err(|_| bad(&range(key)))?;
            }
            "empty_queue_restart" => next.empty_queue_restart = flag(value)?,
            "window_validation" => next.window_validation = flag(value)?,
            "standing_probe_span" => {
                next.standing_probe_span = match value.trim() {
                    "max" => ProbeSpan::Max,
                    "sum" => ProbeSpan::Sum,
                    _ => return Err(bad("max (max(RTT, length)) or sum (RTT + length)")),
                }
            }
            "standing_probe_rtts" => {
                next.standing_probe_rtts = value.trim().parse().map_err(|_| bad(&range(key)))?;
            }
            "rtt_fall" => next.rtt_fall = flag(value)?,
            other => match other.strip_prefix("competitor.") {
                Some(k) => {
                    next.competitor =
                        ledbat_core::param_path::set(&self.competitor, k, value.trim(), &[])
                            .map_err(|why| bad(&why))?
                }
                None => {
                    return Err(RledbatParamError::Unknown {
                        key: other.to_string(),
                        keys: KEYS,
                    })
                }
            },
        }
        if next.out_of_range(key).is_some() {
            return Err(bad(&range(key)));
        }
        *self = next;
        Ok(())
    }

    /// The value of `field`, one of [`RANGED`], when it is out of its range ([`range`]).
    fn out_of_range(&self, field: &str) -> Option<String> {
        let (inside, value) = match field {
            "target" => (
                (MIN_TARGET..=MAX_TARGET).contains(&self.target),
                self.target.to_string(),
            ),
            "slowdown_backoff" => (
                (1..=MAX_SLOWDOWN_BACKOFF).contains(&self.slowdown_backoff),
                self.slowdown_backoff.to_string(),
            ),
            "standing_probe_rtts" => (
                (0.0..=MAX_STANDING_PROBE_RTTS).contains(&self.standing_probe_rtts),
                self.standing_probe_rtts.to_string(),
            ),
            _ => return None,
        };
        (!inside).then_some(value)
    }

    /// [`RledbatConfig::validate`] as a parameter error: what one key alone cannot check
    /// (the competitor detection's parameters together), and the bounds of a config built in
    /// code rather than parsed.
    pub fn check(&self) -> Result<(), RledbatParamError> {
        self.validate()
            .map_err(|e| RledbatParamError::Value(e.field.to_string(), e.reason))
    }

    /// Rejects a configuration the parser would refuse, however it was built: TARGET within
    /// [[`MIN_TARGET`], [`MAX_TARGET`]], `slowdown_backoff` within [1,
    /// [`MAX_SLOWDOWN_BACKOFF`]], `standing_probe_rtts` within [0,
    /// [`MAX_STANDING_PROBE_RTTS`]], and the competitor detection's parameters. The error
    /// names the field (`target`, `slowdown_backoff`, `standing_probe_rtts`, `competitor.*`)
    /// of the component `rledbat`.
    pub fn validate(&self) -> Result<(), ConfigError> {
        for field in RANGED {
            if let Some(got) = self.out_of_range(field) {
                let why = format!("{}, got {got}", range(field));
                return Err(ConfigError::new("rledbat", field, why));
            }
        }
        self.competitor.validate_as("rledbat")
    }

    /// `KEY=VALUE` pairs of every key but the competitor's others than `enabled`, for display.
    pub fn describe(&self) -> String {
        format!(
            "target={} slowdowns={} slowdown_backoff={} empty_queue_restart={} \
             window_validation={} standing_probe_span={} standing_probe_rtts={} \
             rtt_fall={} competitor.enabled={}",
            self.target,
            self.slowdowns,
            self.slowdown_backoff,
            self.empty_queue_restart,
            self.window_validation,
            match self.standing_probe_span {
                ProbeSpan::Max => "max",
                ProbeSpan::Sum => "sum",
            },
            self.standing_probe_rtts,
            self.rtt_fall,
            self.competitor.enabled
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn no_overrides_give_the_drafts_defaults() {
        let c = RledbatConfig::parse([]).unwrap();
        assert_eq!(c, RledbatConfig::default());
        assert_eq!(c.target, Duration::from_millis(60));
        assert!(c.slowdowns);
        assert_eq!(c.slowdown_backoff, 1);
        assert!(!c.competitor.enabled);
        assert_eq!(
            c.describe(),
            "target=60ms slowdowns=true slowdown_backoff=1 empty_queue_restart=false \
             window_validation=false standing_probe_span=max standing_probe_rtts=0 \
             rtt_fall=false competitor.enabled=false"
        );
    }

    #[test]
    fn every_key_sets_its_field() {
        let c = RledbatConfig::parse([
            "target=25ms",
            "slowdowns=false",
            "slowdown_backoff=8",
            "empty_queue_restart=true",
            " window_validation = true",
            "standing_probe_span=sum",
            "standing_probe_rtts=2.5",
            "rtt_fall=true",
            "competitor.enabled=true",
            "competitor.share=0.5",
        ])
        .unwrap();
        assert_eq!(c.target, Duration::from_millis(25));
        assert!(!c.slowdowns);
        assert_eq!(c.slowdown_backoff, 8);
        assert!(c.empty_queue_restart && c.window_validation);
        assert_eq!(c.standing_probe_span, ProbeSpan::Sum);
        assert_eq!(c.standing_probe_rtts, 2.5);
        assert!(c.rtt_fall);
        assert!(c.competitor.enabled);
        assert_eq!(c.competitor.share, 0.5);
    }

    #[test]
    fn bad_parameters_name_what_is_wrong() {
        let err = |kv: &str| RledbatConfig::parse([kv]).unwrap_err().to_string();
        assert_eq!(
            err("target"),
            "rledbat parameter `target`: expected KEY=VALUE"
        );
        assert!(err("gain=2").starts_with("rledbat has no parameter `gain` (keys: target,"));
        assert!(err("target=0.5ms").contains("TARGET is between 1ms and 10s"));
        assert!(err("target=11s").contains("TARGET is between 1ms and 10s"));
        assert!(err("slowdowns=yes").ends_with("true or false"));
        for k in ["0", "65", "1.5", "-1"] {
            let e = err(&format!("slowdown_backoff={k}"));
            assert!(e.contains("from 1 (the draft) to 64"), "{e}");
        }
        assert_eq!(
            RledbatConfig::parse(["slowdown_backoff=64"])
                .unwrap()
                .slowdown_backoff,
            64
        );
        assert!(err("standing_probe_span=min").contains("max (max(RTT, length))"));
        for k in ["-1", "16.5", "nan", "inf", "four"] {
            let e = err(&format!("standing_probe_rtts={k}"));
            assert!(e.contains("from 0 (none) to 16"), "{e}");
        }
        assert!(err("competitor.nonesuch=1").contains("no such parameter"));
        // A value each key accepts alone, refused by the competitor's check as a whole.
        assert!(err("competitor.share=2").contains("competitor.share"));
    }

    #[test]
    fn a_refused_value_leaves_the_config_as_it_was() {
        let mut c = RledbatConfig::parse(["slowdown_backoff=8", "target=25ms"]).unwrap();
        let before = c;
        for (k, v) in [
            ("slowdown_backoff", "65"),
            ("target", "20s"),
            ("standing_probe_rtts", "nan"),
            ("competitor.share", "x"),
        ] {
            assert!(c.set(k, v).is_err(), "{k}={v}");
            assert_eq!(c, before, "{k}={v}");
        }
        c.set("standing_probe_rtts", "16").unwrap();
        assert_eq!(c.standing_probe_rtts, 16.0);
    }

    #[test]
    fn validate_refuses_what_the_parser_refuses_in_a_config_built_by_hand() {
        let ok = RledbatConfig {
            target: MIN_TARGET,
            slowdown_backoff: MAX_SLOWDOWN_BACKOFF,
            ..RledbatConfig::default()
        };
        ok.validate().unwrap();
        let c = RledbatConfig {
            target: Duration::from_micros(999),
            ..RledbatConfig::default()
        };
        let e = c.validate().unwrap_err();
        assert_eq!((e.controller, e.field.as_ref()), ("rledbat", "target"));
        assert_eq!(e.reason, "TARGET is between 1ms and 10s, got 999us");
        let c = RledbatConfig {
            target: Duration::from_millis(10_001),
            ..RledbatConfig::default()
        };
        assert_eq!(c.validate().unwrap_err().field, "target");
        for k in [0, MAX_SLOWDOWN_BACKOFF + 1] {
            let c = RledbatConfig {
                slowdown_backoff: k,
                ..RledbatConfig::default()
            };
            assert_eq!(c.validate().unwrap_err().field, "slowdown_backoff");
            assert!(
                matches!(c.check(), Err(RledbatParamError::Value(f, _)) if f == "slowdown_backoff")
            );
        }
        for k in [-0.5, MAX_STANDING_PROBE_RTTS + 0.5, f64::NAN] {
            let c = RledbatConfig {
                standing_probe_rtts: k,
                ..RledbatConfig::default()
            };
            assert_eq!(c.validate().unwrap_err().field, "standing_probe_rtts");
        }
        let mut c = RledbatConfig::default();
        c.competitor.share = 1.5;
        assert_eq!(c.validate().unwrap_err().field, "competitor.share");
    }
}
