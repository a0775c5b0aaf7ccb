//! What `ledbat tcp` checks before it touches BPF, so that a missing kernel feature or
//! privilege is one line naming it instead of an error from inside libbpf.
//!
//! [`check`] runs, in this order: the kernel version against [`MIN_KERNEL`], the kernel's
//! BTF (`/sys/kernel/btf/vmlinux`), and the process's effective capabilities (`CapEff` of
//! `/proc/self/status`, so a root shell without them, or a non-root process granted them,
//! is judged by what the kernel will judge) against what the operation [`Need`]s.
//!
//! Which capabilities the kernel asks for (Linux `kernel/bpf/syscall.c`, `bpf_prog_load`
//! and `bpf_obj_get_next_id`; checked on this project's machine with `setpriv
//! --bounding-set`, docs/tcp/README.md):
//! - [`REGISTER`]: loading the object's `struct_ops` programs needs CAP_BPF, and CAP_PERFMON
//!   because they read kernel memory (`struct sock`); CAP_SYS_ADMIN alone covers both;
//! - [`INSPECT`]: finding loaded objects by id (`BPF_MAP_GET_NEXT_ID`, `BPF_MAP_GET_FD_BY_ID`
//!   and the same for programs), which `list`, `stats`, `trace` and `unload` do, needs
//!   CAP_SYS_ADMIN.

use std::fmt;

/// The oldest kernel the objects load on. By reading the kernel's history (not run on
/// older kernels): struct_ops TCP congestion controls came in 5.6, BPF ring buffers in 5.8,
/// socket storage from struct_ops programs after 5.6, and global (non-inlined) functions
/// that take pointers, which csrc/lbcc_delay.h and csrc/lbcc_math.h use to keep the
/// verifier's work bounded, in 5.12.
pub const MIN_KERNEL: (u32, u32) = (5, 12);

/// Why the objects need [`MIN_KERNEL`], for the message.
const MIN_KERNEL_WHY: &str =
    "BPF struct_ops with ring buffers, socket storage and global functions taking pointers";

/// The environment variable that skips the version check (distribution kernels with the
/// features backported).
pub const IGNORE_VERSION_ENV: &str = "LEDBAT_TCP_IGNORE_KERNEL_VERSION";

const BTF: &str = "/sys/kernel/btf/vmlinux";
const OSRELEASE: &str = "/proc/sys/kernel/osrelease";
const STATUS: &str = "/proc/self/status";

/// A Linux capability: its bit in `CapEff` and its name.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Cap {
    /// Bit number (`include/uapi/linux/capability.h`).
    pub bit: u32,
    /// `CAP_...`.
    pub name: &'static str,
}

/// CAP_NET_ADMIN.
pub const CAP_NET_ADMIN: Cap = Cap {
    bit: 12,
    name: "CAP_NET_ADMIN",
};
/// CAP_SYS_ADMIN.
pub const CAP_SYS_ADMIN: Cap = Cap {
    bit: 21,
    name: "CAP_SYS_ADMIN",
};
/// CAP_PERFMON (Linux 5.8+).
pub const CAP_PERFMON: Cap = Cap {
    bit: 38,
    name: "CAP_PERFMON",
};
/// CAP_BPF (Linux 5.8+).
pub const CAP_BPF: Cap = Cap {
    bit: 39,
    name: "CAP_BPF",
};

/// What an operation needs: every capability of `all`, or else `instead` alone.
#[derive(Clone, Copy, Debug)]
pub struct Need {
    /// The operation, for the message ("registering a congestion control").
    pub what: &'static str,
    /// Capabilities needed together.
    pub all: &'static [Cap],
    /// One capability that replaces all of them, if any.
    pub instead: Option<Cap>,
}

/// Loading and registering a congestion control (`ledbat tcp load`).
pub const REGISTER: Need = Need {
    what: "registering a congestion control",
    all: &[CAP_BPF, CAP_PERFMON],
    instead: Some(CAP_SYS_ADMIN),
};

/// Finding loaded controllers by id (`ledbat tcp list`, `stats`, `trace`, `unload`).
pub const INSPECT: Need = Need {
    what: "finding the kernel's BPF objects (list, stats, trace, unload)",
    all: &[CAP_SYS_ADMIN],
    instead: None,
};

/// Attaching sock_ops programs to a cgroup and moving processes into it (`ledbat tcp run`,
/// `attach`, `detach`): loading a networking program and attaching it to a cgroup take
/// CAP_BPF with CAP_NET_ADMIN (or CAP_SYS_ADMIN on its own); `run` and `attach` may also
/// register the controller they select, which [`REGISTER`] covers with the same
/// CAP_SYS_ADMIN, so a user without it is told at once.
pub const ATTACH: Need = Need {
    what: "attaching programs to a cgroup (run, attach, detach)",
    all: &[CAP_BPF, CAP_NET_ADMIN, CAP_PERFMON],
    instead: Some(CAP_SYS_ADMIN),
};

/// Why `ledbat tcp` refuses before doing anything.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Refusal {
    /// Not Linux, or no /proc.
    NotLinux,
    /// The running kernel is older than [`MIN_KERNEL`].
    OldKernel(String),
    /// The kernel exposes no BTF.
    NoBtf,
    /// Capabilities are missing: the operation, what it needs, what is missing.
    Missing {
        /// The operation.
        need: &'static str,
        /// Its requirement in words ("CAP_BPF and CAP_PERFMON, or CAP_SYS_ADMIN").
        needs: String,
        /// The capabilities of `all` this process lacks.
        missing: Vec<&'static str>,
    },
    /// `/proc/self/status` has no readable `CapEff`.
    NoCapEff,
}

impl fmt::Display for Refusal {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Refusal::NotLinux => write!(
                f,
                "kernel TCP congestion controls need Linux ({OSRELEASE} is not readable)"
            ),
            Refusal::OldKernel(release) => write!(
                f,
                "Linux {release} is too old: ledbat's BPF congestion controls need Linux {}.{} \
                 or later ({MIN_KERNEL_WHY}); {IGNORE_VERSION_ENV}=1 tries anyway",
                MIN_KERNEL.0, MIN_KERNEL.1
            ),
            Refusal::NoBtf => write!(
                f,
                "this kernel exposes no BTF ({BTF} is missing): BPF congestion controls need \
                 a kernel built with CONFIG_DEBUG_INFO_BTF"
            ),
            Refusal::Missing {
                need,
                needs,
                missing,
            } => write!(
                f,
                "permission denied: {need} needs {needs}, and this process lacks {} (run it \
                 as root, e.g. with sudo)",
                missing.join(" and ")
            ),
            Refusal::NoCapEff => write!(f, "cannot read this process's capabilities ({STATUS})"),
        }
    }
}

impl std::error::Error for Refusal {}

/// The `CapEff` mask of a `/proc/PID/status` text.
pub fn parse_cap_eff(status: &str) -> Option<u64> {
    status.lines().find_map(|l| {
        let hex = l.strip_prefix("CapEff:")?.trim();
        u64::from_str_radix(hex, 16).ok()
    })
}

/// `major.minor` of a kernel release string (`6.1.0-13-amd64`, `5.15.0-91-generic`).
pub fn parse_release(release: &str) -> Option<(u32, u32)> {
    let mut parts = release.trim().split(|c: char| !c.is_ascii_digit());
    let major = parts.next()?.parse().ok()?;
    let minor = parts.next()?.parse().ok()?;
    Some((major, minor))
}

/// The requirement in words.
fn needs_text(need: &Need) -> String {
    let all = need
        .all
        .iter()
        .map(|c| c.name)
        .collect::<Vec<_>>()
        .join(" and ");
    match need.instead {
        Some(i) if need.all != [i] => format!("{all}, or {}", i.name),
        _ => all,
    }
}

/// Checks the capability mask `eff` against `need`.
pub fn check_caps(need: &Need, eff: u64) -> Result<(), Refusal> {
    let has = |c: &Cap| eff >> c.bit & 1 == 1;
    if need.instead.as_ref().is_some_and(has) {
        return Ok(());
    }
    let missing: Vec<&'static str> = need
        .all
        .iter()
        .filter(|c| !has(c))
        .map(|c| c.name)
        .collect();
    if missing.is_empty() {
        return Ok(());
    }
    Err(Refusal::Missing {
        need: need.what,
        needs: needs_text(need),
        missing,
    })
}

/// Checks a kernel release against [`MIN_KERNEL`] (an unparsable one passes: the feature
/// checks that follow still hold).
pub fn check_release(release: &str) -> Result<(), Refusal> {
    match parse_release(release) {
        Some(v) if v < MIN_KERNEL => Err(Refusal::OldKernel(release.trim().to_string())),
        _ => Ok(()),
    }
}

/// The kernel version, BTF and capability checks for `need`, in that order, on this machine.
pub fn check(need: &Need) -> Result<(), Refusal> {
    let release = std::fs::read_to_string(OSRELEASE).map_err(|_| Refusal::NotLinux)?;
    if std::env::var_os(IGNORE_VERSION_ENV).is_none_or(|v| v != "1") {
        check_release(&release)?;
    }
    if !std::path::Path::new(BTF).exists() {
        return Err(Refusal::NoBtf);
    }
    let status = std::fs::read_to_string(STATUS).map_err(|_| Refusal::NoCapEff)?;
    let eff = parse_cap_eff(&status).ok_or(Refusal::NoCapEff)?;
    check_caps(need, eff)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `/proc/self/status` of a root shell on a 6.x kernel (41 capabilities) and of an
    /// ordinary user, trimmed to the capability lines.
    const ROOT: &str = "Name:\tcat\nCapInh:\t0000000000000000\nCapPrm:\t000001ffffffffff\n\
                        CapEff:\t000001ffffffffff\nCapBnd:\t000001ffffffffff\n";
    const USER: &str = "Name:\tcat\nCapInh:\t0000000000000000\nCapPrm:\t0000000000000000\n\
                        CapEff:\t0000000000000000\n";

    #[test]
    fn cap_eff_is_read_from_its_line_in_hex() {
        assert_eq!(parse_cap_eff(ROOT), Some((1 << 41) - 1));
        assert_eq!(parse_cap_eff(USER), Some(0));
        assert_eq!(parse_cap_eff("CapEff:\t0000000000200000\n"), Some(1 << 21));
        assert_eq!(parse_cap_eff("CapPrm:\t1\n"), None);
        assert_eq!(parse_cap_eff("CapEff:\tzz\n"), None);
    }

    #[test]
    fn root_may_register_and_inspect() {
        let eff = parse_cap_eff(ROOT).unwrap();
        assert_eq!(check_caps(&REGISTER, eff), Ok(()));
        assert_eq!(check_caps(&INSPECT, eff), Ok(()));
    }

    #[test]
    fn cap_sys_admin_alone_replaces_bpf_and_perfmon() {
        assert_eq!(check_caps(&REGISTER, 1 << 21), Ok(()));
    }

    #[test]
    fn cap_bpf_and_perfmon_register_but_do_not_inspect() {
        let eff = 1 << 39 | 1 << 38;
        assert_eq!(check_caps(&REGISTER, eff), Ok(()));
        let Err(Refusal::Missing { missing, .. }) = check_caps(&INSPECT, eff) else {
            panic!("inspecting needs CAP_SYS_ADMIN");
        };
        assert_eq!(missing, ["CAP_SYS_ADMIN"]);
    }

    #[test]
    fn the_message_names_exactly_the_missing_capabilities() {
        // CAP_BPF held, CAP_PERFMON not
        let e = check_caps(&REGISTER, 1 << 39).unwrap_err();
        assert_eq!(
            e.to_string(),
            "permission denied: registering a congestion control needs CAP_BPF and \
             CAP_PERFMON, or CAP_SYS_ADMIN, and this process lacks CAP_PERFMON (run it as \
             root, e.g. with sudo)"
        );
        let e = check_caps(&INSPECT, 0).unwrap_err().to_string();
        assert!(e.contains("needs CAP_SYS_ADMIN, and this process lacks CAP_SYS_ADMIN"));
        assert!(!e.contains('\n'), "one line: {e}");
        // CAP_NET_ADMIN is irrelevant to both
        assert!(check_caps(&REGISTER, 1 << CAP_NET_ADMIN.bit).is_err());
    }

    #[test]
    fn release_strings_give_major_and_minor() {
        assert_eq!(parse_release("6.1.0-13-amd64\n"), Some((6, 1)));
        assert_eq!(parse_release("5.15.0-91-generic"), Some((5, 15)));
        assert_eq!(parse_release("6.18.44-fc-v657"), Some((6, 18)));
        assert_eq!(parse_release("4.19"), Some((4, 19)));
        assert_eq!(parse_release("six"), None);
    }

    #[test]
    fn kernels_before_5_12_are_refused_by_version() {
        assert_eq!(check_release("5.12.0"), Ok(()));
        assert_eq!(check_release("6.1.0-13-amd64"), Ok(()));
        // 5.10 (Debian 11) is older; 5.9 < 5.12 compares numerically, not as text
        let e = check_release("5.10.0-28-amd64\n").unwrap_err();
        assert_eq!(e, Refusal::OldKernel("5.10.0-28-amd64".into()));
        assert!(e
            .to_string()
            .starts_with("Linux 5.10.0-28-amd64 is too old"));
        assert!(check_release("5.9.1").is_err());
        assert!(check_release("4.19.0").is_err());
        assert_eq!(check_release("weird"), Ok(()));
    }
}
