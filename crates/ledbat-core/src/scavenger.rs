//! `scavenger`: the configuration this project recommends for bulk transfers on real paths,
//! and the default of `ledbat send`, `recv` and `torrent`. It is a preset, not another
//! algorithm: LEDBAT++ ([`crate::ledbat_pp`], draft-irtf-iccrg-ledbat-plus-plus-01,
//! algorithms.md section 7) with this crate's extensions on, under its own registry name so
//! that `ledbat controllers scavenger` shows its exact parameters and `--cc ledbat++` keeps
//! meaning the draft.
//!
//! | parameter | draft -01 | scavenger | why |
//! |---|---|---|---|
//! | `max_gain_divisor` | 16 | 1 | GAIN 1 whatever the base: at a base RTT far below TARGET the draft's 1/16 leaves a latecomer its advantage |
//! | `ramp_delay_exit` | true | false | a slowdown's ramp returns to the window held before, even when other flows keep the queue up |
//! | `slowdown_join` | 0 | 0.8 | join another flow's slowdown so that the queue empties; at 0.8 a large flow also joins a small one's ([`crate::slowdown`]) |
//! | `slowdown_hold_packets` | 2 | 1 | at a base RTT near zero every packet held is queued: one per flow leaves the least |
//! | `slowdown_hold_bdp` | 0 | 0.7 | from the second slowdown on, hold 70 % of the window in flight: the queue drains and the link stays busy |
//! | `slowdown_join_pause` | false | true | at a base RTT near zero a flow joining another's slowdown sends nothing during its hold, so the flow that started it (a latecomer) measures the true base |
//! | `conservative_slow_start` | false | true | no slow-start overshoot to the FIFO limit ([`crate::slow_start`]) |
//! | `empty_queue_restart` | false | true | back to full rate within RTTs when cross traffic leaves or the receiver stalled ([`crate::slow_start`]) |
//! | `competitor.enabled` | false | true | yield also to competitors that keep the queue below TARGET, such as BBR, which the delay signal alone never sees ([`crate::competitor`]) |
//! | `slowdown_backoff` | 1 | 8 | space slowdowns that find the base unchanged up to 8 times further apart: alone they cost less of the link, and the detection's probes and tests have the interval between them |
//!
//! Every other parameter is the draft's (TARGET 60 ms, slow-start exit at 3/4 TARGET,
//! slowdowns 2 RTTs long, 9 durations apart) and any of them can be changed like those of
//! any controller (`--cc-param`, scenario files); keys left out keep the preset's values,
//! not the draft's. Measured behaviour, in the simulator and on the test bed, with the
//! commands that regenerate it: `docs/controllers-notes.md`, "scavenger".
//!
//! The last two rows, the competitor set, are on by default since the side-by-side
//! decision of `docs/sidebyside/default.md`: without them the preset kept most of the link
//! beside kernel BBR at short base RTTs (BBR keeps the queue below TARGET). They go
//! together; [`PLAIN_PARAMS`] (`competitor.enabled=false`, `slowdown_backoff=1`) gives the
//! preset as it was before, e.g. to compare with figures measured then. Nested tables given
//! in part keep the preset's other keys (`competitor = { share = 0.7 }`).

use crate::competitor::CompetitorConfig;
use crate::controller::ControllerFactory;
use crate::error::ConfigError;
use crate::ledbat_pp::{LedbatPp, LedbatPpConfig};
use serde::{Deserialize, Deserializer, Serialize, Serializer};

/// Parameters of `scavenger`: a [`LedbatPpConfig`] whose defaults are the preset's.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ScavengerConfig(pub LedbatPpConfig);

/// Registry name.
pub const NAME: &str = "scavenger";

/// The preset as it was before the competitor set was its default: the parameters
/// (`--cc-param` syntax) that turn competitor detection and the slowdown backoff off.
pub const PLAIN_PARAMS: [&str; 2] = ["competitor.enabled=false", "slowdown_backoff=1"];

impl Default for ScavengerConfig {
    fn default() -> Self {
        ScavengerConfig(
            LedbatPpConfig::default()
                .max_gain_divisor(1.0)
                .ramp_delay_exit(false)
                .slowdown_join(0.8)
                .slowdown_hold_packets(1.0)
                .slowdown_hold_bdp(0.7)
                .slowdown_join_pause(true)
                .conservative_slow_start(true)
                .empty_queue_restart(true)
                .competitor(CompetitorConfig {
                    enabled: true,
                    ..CompetitorConfig::default()
                })
                .slowdown_backoff(8.0),
        )
    }
}

impl Serialize for ScavengerConfig {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        self.0.serialize(s)
    }
}

/// Keys given override the preset; keys left out keep the preset's values (a plain
/// `LedbatPpConfig` would fill them with the draft's). Unknown keys and bad values are
/// refused with the same messages as for `ledbat++`.
impl<'de> Deserialize<'de> for ScavengerConfig {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        use serde::de::Error;
        let given = serde_json::Value::deserialize(d)?;
        let serde_json::Value::Object(given) = given else {
            return Err(D::Error::custom("expected a table of scavenger parameters"));
        };
        let mut merged =
            serde_json::to_value(ScavengerConfig::default().0).map_err(D::Error::custom)?;
        merge(&mut merged, serde_json::Value::Object(given));
        serde_json::from_value(merged)
            .map(ScavengerConfig)
            .map_err(D::Error::custom)
    }
}

/// Overlays `given` on `base`, table by table: a nested table given in part
/// (`competitor = { share = 0.7 }`) keeps the preset's other keys of that table.
fn merge(base: &mut serde_json::Value, given: serde_json::Value) {
    match (base, given) {
        (serde_json::Value::Object(b), serde_json::Value::Object(g)) => {
            for (k, v) in g {
                match b.get_mut(&k) {
                    Some(slot) => merge(slot, v),
                    None => {
                        b.insert(k, v);
                    }
                }
            }
        }
        (slot, v) => *slot = v,
    }
}

impl ControllerFactory for ScavengerConfig {
    type Controller = LedbatPp;
    const NAME: &'static str = NAME;

    fn validate(&self) -> Result<(), ConfigError> {
        self.0.validate_as(NAME)
    }

    /// Where this configuration departs from draft -01: at the preset's defaults, the
    /// extensions in the table above.
    fn compliance_notes(&self) -> Vec<String> {
        self.0.departures_from_draft()
    }

    fn build(&self, mss: u32) -> Result<LedbatPp, ConfigError> {
        LedbatPp::named(NAME, self.0, mss)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::controller::Controller;

    #[test]
    fn the_preset_is_ledbat_pp_with_the_extensions_and_its_own_name() {
        let c = ScavengerConfig::default();
        let d = LedbatPpConfig::default();
        assert_eq!(c.0.target, d.target);
        assert_eq!(c.0.slow_start_exit, d.slow_start_exit);
        assert_eq!(c.0.slowdown_interval, d.slowdown_interval);
        assert_eq!(
            (
                c.0.max_gain_divisor,
                c.0.ramp_delay_exit,
                c.0.slowdown_join,
                c.0.slowdown_hold_packets,
                c.0.slowdown_hold_bdp,
                c.0.slowdown_join_pause,
                c.0.conservative_slow_start,
                c.0.empty_queue_restart
            ),
            (1.0, false, 0.8, 1.0, 0.7, true, true, true)
        );
        let ctl = c.build(1500).unwrap();
        assert_eq!(ctl.name(), "scavenger");
        assert_eq!(ctl.config(), &c.0);
        // The competitor set is on, with the detection's own defaults.
        assert!(c.0.competitor.enabled);
        assert_eq!(
            c.0.competitor,
            crate::competitor::CompetitorConfig {
                enabled: true,
                ..d.competitor
            }
        );
        assert_eq!(c.0.slowdown_backoff, 8.0);
        // Ten departures from the draft, one per extension.
        assert_eq!(c.compliance_notes().len(), 10, "{:?}", c.compliance_notes());
    }

    #[test]
    fn a_nested_table_given_in_part_keeps_the_presets_other_keys() {
        let c: ScavengerConfig =
            serde_json::from_str(r#"{ "competitor": { "share": 0.7 }, "target": "50ms" }"#)
                .unwrap();
        // The preset's `enabled = true` stays; the draft's would be false.
        assert!(c.0.competitor.enabled);
        assert_eq!(c.0.competitor.share, 0.7);
        assert_eq!(c.0.competitor.tests, 2);
        assert_eq!(c.0.target, crate::Duration::from_millis(50));
        // Keys outside the table keep the preset's values, not the draft's.
        assert_eq!(c.0.slowdown_join, 0.8);
    }

    #[test]
    fn the_plain_params_give_the_preset_without_the_competitor_set() {
        let c = crate::ControllerConfig::with_params(NAME, PLAIN_PARAMS).unwrap();
        let crate::ControllerConfig::Scavenger(s) = c else {
            panic!("not the scavenger: {c:?}");
        };
        assert!(!s.0.competitor.enabled);
        assert_eq!(s.0.slowdown_backoff, 1.0);
        // Everything else is the preset's: the default with only those two keys changed.
        let mut want = ScavengerConfig::default().0;
        want.competitor.enabled = false;
        want.slowdown_backoff = 1.0;
        assert_eq!(s.0, want);
        // Eight departures from the draft: the extensions before the competitor set.
        assert_eq!(s.compliance_notes().len(), 8, "{:?}", s.compliance_notes());
        let ctl = s.build(1500).unwrap();
        assert_eq!(ctl.name(), "scavenger");
    }
}
