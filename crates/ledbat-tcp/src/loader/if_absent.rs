//! `ledbat tcp load --if-absent`: what to do when the name may be registered already.
//!
//! A registration lives until `unload` or a reboot, so a boot unit's `ExecStart=ledbat tcp
//! load NAME` runs again on every restart of the unit and must not fail when its own earlier
//! run is still registered. [`presence`] decides from what the kernel has (the names it
//! offers, and ledbat's instances with their parameter words) and what was asked:
//!
//! - NAME not offered: absent, load it. This includes an instance of ours by that name that
//!   is *unregistered but still held* by live connections (or a sysctl default): the kernel
//!   never registers an unloaded struct_ops map again, applications cannot select it by name
//!   any more, and a new `load` of the name succeeds at once; refusing would keep the unit
//!   failing until the last old connection closes, hours for a backup. So it is loaded anew
//!   and the caller is told about the held one (and, by `load`'s own check, a sysctl default
//!   that still holds it).
//! - NAME offered by a registered instance of ours with the same controller (the core's
//!   registry name) and the same parameter words (`struct lb_params`, what the kernel runs;
//!   compared as words rather than as the JSON description, whose floats need not read back
//!   bit for bit): present, nothing to do. `--unprivileged` asked of a restricted one is a
//!   difference (unprivileged programs would fail to select it); an instance that is open
//!   though not asked to be is accepted, since making a control the sysctl default opens it
//!   (`TCP_CONG_NON_RESTRICTED`), as the boot unit's own `ExecStartPost=` does.
//! - NAME offered by anything else (the kernel's own, another program's BPF control, ours
//!   with another controller or other parameters, ours from another ledbat version whose
//!   parameters cannot be compared): an error naming which, non-zero exit.

use super::{Instance, LoadError};
use crate::params::TcpController;

/// What `--if-absent` found.
#[derive(Debug, PartialEq)]
pub enum Presence<'a> {
    /// The name is free: load. `held` counts our unregistered instances of that name that
    /// connections (or a sysctl default) still hold.
    Absent {
        /// Unregistered instances of ours under the name, still held.
        held: usize,
    },
    /// Ours, registered, with the controller and parameters asked for: nothing to do.
    Present(&'a Instance),
}

/// Decides `ledbat tcp load NAME --if-absent` for the controller `asked` (with
/// `unprivileged` if that was asked), given the names the kernel offers now (`available`,
/// `tcp_available_congestion_control`) and ledbat's instances (`ours`, from `list`).
pub fn presence<'a>(
    name: &str,
    asked: &TcpController,
    unprivileged: bool,
    available: &[String],
    ours: &'a [Instance],
) -> Result<Presence<'a>, LoadError> {
    let registered = super::find(ours, name);
    if !available.iter().any(|n| n == name) && registered.is_none() {
        let held = ours
            .iter()
            .filter(|i| i.name == name && !i.registered)
            .count();
        return Ok(Presence::Absent { held });
    }
    let Some(inst) = registered else {
        return Err(LoadError::TakenByOther(name.to_string()));
    };
    let (Some(have), Some(words)) = (&inst.controller, &inst.words) else {
        return Err(LoadError::OtherVersion(name.to_string()));
    };
    let asked_words = asked.params()?;
    if have.name() != asked.name() || *words != asked_words {
        let (have, asked) = differing(have, asked);
        return Err(LoadError::OtherParams {
            name: name.to_string(),
            have,
            asked,
        });
    }
    if unprivileged && !inst.unprivileged {
        return Err(LoadError::Restricted(name.to_string()));
    }
    Ok(Presence::Present(inst))
}

/// The controller name and the parameters whose text differs, each side: what the error
/// shows. When no text differs (two floats that print alike but give other words), every
/// parameter is shown.
fn differing(have: &TcpController, asked: &TcpController) -> (String, String) {
    let (h, a) = (have.describe(), asked.describe());
    let differs = |k: &str| {
        h.iter().find(|(x, _)| x == k).map(|p| &p.1) != a.iter().find(|(x, _)| x == k).map(|p| &p.1)
    };
    let any = h.iter().chain(&a).any(|(k, _)| differs(k));
    let show = |side: &[(String, String)], c: &TcpController| {
        let mut parts = vec![c.name().to_string()];
        parts.extend(
            side.iter()
                .filter(|(k, _)| !any || differs(k))
                .map(|(k, v)| format!("{k}={v}")),
        );
        parts.join(" ")
    };
    (show(&h, have), show(&a, asked))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ctl(name: &str, params: &[&str]) -> TcpController {
        TcpController::parse(name, params.iter().copied()).unwrap()
    }

    /// An instance of ours as `list` reads it back from the kernel.
    fn ours(name: &str, c: &TcpController, registered: bool, open: bool) -> Instance {
        Instance {
            name: name.into(),
            controller: Some(c.clone()),
            unprivileged: open,
            registered,
            map_id: 1,
            stats_map_id: None,
            connections: 0,
            without_state: 0,
            words: Some(c.params().unwrap()),
            trace_maps: None,
        }
    }

    fn names(n: &[&str]) -> Vec<String> {
        n.iter().map(|s| s.to_string()).collect()
    }

    #[test]
    fn a_free_name_is_absent_and_loaded() {
        let c = ctl("scavenger", &[]);
        let p = presence("scavenger", &c, false, &names(&["reno", "cubic"]), &[]).unwrap();
        assert_eq!(p, Presence::Absent { held: 0 });
    }

    #[test]
    fn ours_with_the_same_controller_and_parameters_is_present() {
        let c = ctl("ledbat-md", &["target=25ms"]);
        let all = [ours("lb_t25", &c, true, false)];
        let again = ctl("ledbat-md", &["target=25ms"]);
        let p = presence("lb_t25", &again, false, &names(&["cubic", "lb_t25"]), &all).unwrap();
        assert_eq!(p, Presence::Present(&all[0]));
    }

    #[test]
    fn ours_with_other_parameters_fails_naming_the_difference() {
        let all = [ours(
            "lb_t25",
            &ctl("ledbat-md", &["target=25ms"]),
            true,
            false,
        )];
        let e = presence(
            "lb_t25",
            &ctl("ledbat-md", &["target=50ms"]),
            false,
            &names(&["lb_t25"]),
            &all,
        )
        .unwrap_err();
        let msg = e.to_string();
        assert!(matches!(e, LoadError::OtherParams { .. }), "{msg}");
        // only the differing parameter is shown, with the controller
        assert!(msg.contains("ledbat-md target=25ms"), "{msg}");
        assert!(msg.contains("ledbat-md target=50ms"), "{msg}");
        assert!(!msg.contains("gain="), "{msg}");
    }

    #[test]
    fn ours_with_another_controller_fails() {
        // ledbat++ and its scavenger preset have the same algorithm word; the controller
        // asked for is part of what must match
        let all = [ours("scavenger", &ctl("ledbat++", &[]), true, false)];
        let e = presence(
            "scavenger",
            &ctl("scavenger", &[]),
            false,
            &names(&["scavenger"]),
            &all,
        )
        .unwrap_err();
        assert!(matches!(e, LoadError::OtherParams { .. }), "{e}");
        assert!(e.to_string().contains("ledbat++"), "{e}");
    }

    #[test]
    fn the_same_text_with_other_words_is_a_difference() {
        // a registered instance whose words differ from what its description says (e.g.
        // loaded by a build whose conversion rounded otherwise): the words decide
        let c = ctl("ledbat", &[]);
        let mut inst = ours("ledbat", &c, true, false);
        let mut w = c.params().unwrap();
        w.gain_q32 += 1;
        inst.words = Some(w);
        let all = [inst];
        let e = presence("ledbat", &c, false, &names(&["ledbat"]), &all).unwrap_err();
        assert!(matches!(e, LoadError::OtherParams { .. }), "{e}");
        // nothing textual differs, so every parameter is shown
        assert!(e.to_string().contains("gain="), "{e}");
    }

    #[test]
    fn a_name_the_kernel_or_another_program_offers_fails() {
        let c = ctl("tcp-lp", &[]);
        // the kernel's module tcp_lp, or another program's BPF control: offered, not ours
        let e = presence("tcp_lp", &c, false, &names(&["cubic", "tcp_lp"]), &[]).unwrap_err();
        assert!(matches!(e, LoadError::TakenByOther(_)), "{e}");
        // ours only unregistered under the name while another program registered it again
        let all = [ours("tcp_lp", &c, false, false)];
        let e = presence("tcp_lp", &c, false, &names(&["tcp_lp"]), &all).unwrap_err();
        assert!(matches!(e, LoadError::TakenByOther(_)), "{e}");
    }

    #[test]
    fn another_versions_instance_cannot_be_compared_and_fails() {
        let c = ctl("scavenger", &[]);
        let mut inst = ours("scavenger", &c, true, false);
        inst.controller = None;
        inst.words = None;
        let all = [inst];
        let e = presence("scavenger", &c, false, &names(&["scavenger"]), &all).unwrap_err();
        assert!(matches!(e, LoadError::OtherVersion(_)), "{e}");
    }

    #[test]
    fn ours_unregistered_but_held_counts_as_absent() {
        // unloaded while connections still use it: not selectable by name, never
        // registered again by the kernel; a fresh instance is loaded
        let c = ctl("scavenger", &[]);
        let all = [ours("scavenger", &c, false, false)];
        let p = presence("scavenger", &c, false, &names(&["cubic"]), &all).unwrap();
        assert_eq!(p, Presence::Absent { held: 1 });
        // with a registered one beside it, that one is what counts
        let all = [
            ours("scavenger", &c, false, false),
            ours("scavenger", &c, true, false),
        ];
        let p = presence("scavenger", &c, false, &names(&["scavenger"]), &all).unwrap();
        assert_eq!(p, Presence::Present(&all[1]));
    }

    #[test]
    fn unprivileged_asked_of_a_restricted_instance_fails_but_open_unasked_passes() {
        let c = ctl("scavenger", &[]);
        let shut = [ours("scavenger", &c, true, false)];
        let e = presence("scavenger", &c, true, &names(&["scavenger"]), &shut).unwrap_err();
        assert!(matches!(e, LoadError::Restricted(_)), "{e}");
        // opened since (the sysctl default sets the flag): what was asked is there
        let open = [ours("scavenger", &c, true, true)];
        let p = presence("scavenger", &c, false, &names(&["scavenger"]), &open).unwrap();
        assert_eq!(p, Presence::Present(&open[0]));
        let p = presence("scavenger", &c, true, &names(&["scavenger"]), &open).unwrap();
        assert_eq!(p, Presence::Present(&open[0]));
    }
}
