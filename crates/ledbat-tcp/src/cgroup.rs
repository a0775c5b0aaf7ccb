//! Per-application selection: a congestion control for every TCP connection of the processes
//! in one cgroup-v2 directory, whatever program they run (`ledbat tcp run`, `ledbat tcp
//! attach`).
//!
//! The kernel side is `bpf/select.bpf.c`, a sock_ops program: attached to a cgroup, it runs
//! for every TCP socket of the cgroup's processes (and its descendants' processes) and sets
//! the congestion control with `bpf_setsockopt(SOL_TCP, TCP_CONGESTION, name)` before the SYN
//! leaves (`TCP_CONNECT_CB`), on an accepted connection (`PASSIVE_ESTABLISHED_CB`), and again
//! when an active open completes (`ACTIVE_ESTABLISHED_CB`). sock_ops programs exist only for
//! cgroup v2; on a hybrid system (v1 controllers, v2 mounted beside them, often at
//! `/sys/fs/cgroup/unified`) the v2 hierarchy is found in `/proc/self/mountinfo` and used
//! alone: v1 controllers do not matter to it.
//!
//! Two lifetimes:
//!
//! - `ledbat tcp run`: a new cgroup `<v2 mount>/ledbat/run-<PID>`, the programs attached by
//!   file descriptor (the kernel detaches them when ledbat exits, however it exits), the
//!   child moved in before it executes the command, and on every exit the programs detached
//!   and the cgroup removed ([`RunCgroup`]). A SIGKILL to ledbat runs no code of its own: a
//!   reaper started before the command (`ledbat tcp cgroup-reap`, in a process group of its
//!   own, outside the cgroup) waits for the end of a pipe ledbat holds open; when the pipe
//!   closes with the cgroup still there, it closes the cgroup as ledbat would have
//!   ([`RunCgroup::adopt`]);
//! - `ledbat tcp attach`: an existing cgroup (a systemd service's), the programs' links
//!   pinned in bpffs under [`PIN_ROOT`] so that the attachment outlives ledbat, until
//!   `ledbat tcp detach` unpins them (or the cgroup is removed: the kernel then detaches the
//!   links and the pins are only files, which `detach` or the next `attach` remove).
//!
//! The pure parts (mountinfo and /proc/PID/cgroup parsing, path construction, exit-status
//! mapping) are here without the `bpf` feature, with their tests.

use std::path::{Path, PathBuf};

/// Where `ledbat tcp attach` pins its links: `<PIN_ROOT>/<cgroup path below the v2 mount>/`.
pub const PIN_ROOT: &str = "/sys/fs/bpf/ledbat/cgroup";
/// The bpffs mount point.
pub const BPFFS: &str = "/sys/fs/bpf";
/// The directory under the v2 mount in which `ledbat tcp run` creates its cgroups.
pub const RUN_PARENT: &str = "ledbat";
/// File names of the pinned links.
pub const SELECT_PIN: &str = "select";
/// File name of the pinned rLEDBAT link.
pub const RLEDBAT_PIN: &str = "rledbat";

/// Why a cgroup operation failed.
#[derive(Debug, thiserror::Error)]
pub enum CgroupError {
    /// No cgroup2 in the mount table.
    #[error(
        "no cgroup v2 hierarchy is mounted (no `cgroup2` file system in /proc/self/mountinfo); \
         per-application selection needs one: mount it with `mount -t cgroup2 none \
         /sys/fs/cgroup/unified` (or boot with systemd.unified_cgroup_hierarchy=1)"
    )]
    NoCgroup2,
    /// The path is not a cgroup of the v2 hierarchy.
    #[error(
        "{0} is not a cgroup of the v2 hierarchy mounted at {1} (give a directory under it \
         with a cgroup.procs file, a path relative to it such as \
         `system.slice/restic.service`, or `self`)"
    )]
    NotCgroup(PathBuf, PathBuf),
    /// A file of the cgroup or bpffs.
    #[error("{what} {path}: {err}")]
    Io {
        /// What was being done.
        what: &'static str,
        /// The file.
        path: PathBuf,
        /// The error.
        err: std::io::Error,
    },
    /// There is no directory to mount bpffs on.
    #[error(
        "{BPFFS} does not exist, so ledbat cannot mount bpffs there to pin the attachment \
         (a container that hides the host's {BPFFS}: give it one, for example \
         `systemd-nspawn --tmpfs={BPFFS}`); `ledbat tcp run` pins nothing and works without it"
    )]
    NoBpffsDir,
    /// This process's cgroup could not be read.
    #[error(
        "cannot tell this process's cgroup-v2 directory from /proc/self/cgroup (no `0::` line)"
    )]
    NoOwnCgroup,
    /// Nothing attached there.
    #[error("no ledbat program is attached to {0} (no pins in {1})")]
    NotAttached(PathBuf, PathBuf),
    /// The congestion control does not exist and is not ours to load.
    #[error(
        "no congestion control named `{0}` is registered and ledbat has no kernel build of \
         that name (registered: {1}; ledbat's: {2})"
    )]
    UnknownCc(String, String, String),
    /// Loading a controller failed.
    #[cfg(feature = "bpf")]
    #[error(transparent)]
    Load(#[from] crate::loader::LoadError),
    /// The kernel may retract windows, which rLEDBAT must never do.
    #[error(
        "net.ipv4.tcp_shrink_window is 1: the kernel may shrink an advertised window, which \
         receiver-side LEDBAT must not do (RFC 7323); set it to 0 to use --rledbat"
    )]
    Shrink,
    /// An rLEDBAT parameter.
    #[error(transparent)]
    RlParam(#[from] crate::rledbat::RlParamError),
    /// libbpf or the kernel refused.
    #[cfg(feature = "bpf")]
    #[error("{what}: {source}")]
    Bpf {
        /// What was being done.
        what: String,
        /// The error.
        source: libbpf_rs::Error,
    },
}

fn io_err(what: &'static str, path: &Path) -> impl FnOnce(std::io::Error) -> CgroupError {
    let path = path.to_path_buf();
    move |err| CgroupError::Io { what, path, err }
}

/// Undoes the octal escapes of /proc/PID/mountinfo (`\040` for a space, `\011`, `\012`,
/// `\134`).
pub fn unescape_mount_field(s: &str) -> String {
    let b = s.as_bytes();
    let mut out = Vec::with_capacity(b.len());
    let mut i = 0;
    while i < b.len() {
        if b[i] == b'\\'
            && i + 3 < b.len()
            && b[i + 1..i + 4].iter().all(|c| (b'0'..=b'7').contains(c))
        {
            let v = (b[i + 1] - b'0') as u32 * 64
                + (b[i + 2] - b'0') as u32 * 8
                + (b[i + 3] - b'0') as u32;
            if let Ok(byte) = u8::try_from(v) {
                out.push(byte);
                i += 4;
                continue;
            }
        }
        out.push(b[i]);
        i += 1;
    }
    String::from_utf8_lossy(&out).into_owned()
}

/// The mount point of a file system of type `fstype` in a /proc/PID/mountinfo text: the
/// first one that mounts the root of its file system (a bind mount of a subdirectory does
/// not show the whole hierarchy), else the first one at all.
///
/// A line is `ID PARENT MAJ:MIN ROOT MOUNTPOINT OPTIONS [OPTIONAL...] - FSTYPE SOURCE
/// SUPEROPTIONS` (proc(5)); the optional fields end at the lone `-`.
pub fn mount_point_from(mountinfo: &str, fstype: &str) -> Option<PathBuf> {
    let mut any = None;
    for line in mountinfo.lines() {
        let fields: Vec<&str> = line.split_whitespace().collect();
        let Some(sep) = fields.iter().position(|&f| f == "-") else {
            continue;
        };
        if sep < 5 || fields.get(sep + 1) != Some(&fstype) {
            continue;
        }
        let point = PathBuf::from(unescape_mount_field(fields[4]));
        if fields[3] == "/" {
            return Some(point);
        }
        any.get_or_insert(point);
    }
    any
}

/// The cgroup-v2 mount point in a /proc/PID/mountinfo text: `/sys/fs/cgroup` on a unified
/// system, `/sys/fs/cgroup/unified` on a hybrid one.
pub fn cgroup2_mount_from(mountinfo: &str) -> Option<PathBuf> {
    mount_point_from(mountinfo, "cgroup2")
}

/// The cgroup-v2 mount point of this system.
pub fn cgroup2_mount() -> Result<PathBuf, CgroupError> {
    let p = Path::new("/proc/self/mountinfo");
    let text = std::fs::read_to_string(p).map_err(io_err("reading", p))?;
    cgroup2_mount_from(&text).ok_or(CgroupError::NoCgroup2)
}

/// The v2 cgroup path (`/system.slice/x.service`) in a /proc/PID/cgroup text: the `0::`
/// line (hybrid systems list their v1 hierarchies beside it).
pub fn own_cgroup_from(proc_cgroup: &str) -> Option<&str> {
    proc_cgroup
        .lines()
        .find_map(|l| l.strip_prefix("0::"))
        .map(str::trim_end)
}

/// Whether bpffs must be mounted at [`BPFFS`] before a pin: not when a bpf file system is
/// mounted there in `mountinfo` (a /proc/PID/mountinfo text); when it is not, and the
/// directory exists (`dir_exists`), yes; without the directory, as in a container that hides
/// the host's, [`CgroupError::NoBpffsDir`].
pub fn bpffs_mount_needed(mountinfo: &str, dir_exists: bool) -> Result<bool, CgroupError> {
    let mounted = mountinfo.lines().any(|l| {
        let f: Vec<&str> = l.split_whitespace().collect();
        let sep = f.iter().position(|&x| x == "-");
        sep.is_some_and(|s| {
            f.get(s + 1) == Some(&"bpf")
                && f.get(4).map(|m| unescape_mount_field(m)).as_deref() == Some(BPFFS)
        })
    });
    match (mounted, dir_exists) {
        (true, _) => Ok(false),
        (false, true) => Ok(true),
        (false, false) => Err(CgroupError::NoBpffsDir),
    }
}

/// This process's cgroup-v2 directory under `mount`.
pub fn own_cgroup(mount: &Path) -> Result<PathBuf, CgroupError> {
    let p = Path::new("/proc/self/cgroup");
    let text = std::fs::read_to_string(p).map_err(io_err("reading", p))?;
    let rel = own_cgroup_from(&text).ok_or(CgroupError::NoOwnCgroup)?;
    Ok(join_below(mount, rel))
}

/// `mount` joined with a cgroup path given from the hierarchy's root (`/a/b` or `a/b`).
pub fn join_below(mount: &Path, rel: &str) -> PathBuf {
    let mut p = mount.to_path_buf();
    for c in rel.split('/').filter(|c| !c.is_empty() && *c != ".") {
        p.push(c);
    }
    p
}

/// The cgroup a `--cgroup` argument names: `self` (ledbat's own: for a systemd unit's
/// `ExecStartPre=`), a directory under `mount`, or a path from the hierarchy's root
/// (`system.slice/restic.service`). `..` is refused (the result must stay under `mount`).
pub fn resolve_cgroup(mount: &Path, spec: &str, own: Option<&str>) -> Result<PathBuf, CgroupError> {
    let not = || CgroupError::NotCgroup(PathBuf::from(spec), mount.to_path_buf());
    if spec.split('/').any(|c| c == "..") {
        return Err(not());
    }
    if spec == "self" {
        return own
            .map(|o| join_below(mount, o))
            .ok_or(CgroupError::NoOwnCgroup);
    }
    let p = Path::new(spec);
    if p.is_absolute() {
        return match p.strip_prefix(mount) {
            Ok(rel) => Ok(join_below(mount, &rel.to_string_lossy())),
            // an absolute path outside the mount: read as from the hierarchy's root, as
            // /proc/PID/cgroup and systemd's ControlGroup= print it
            Err(_) => Ok(join_below(mount, spec)),
        };
    }
    Ok(join_below(mount, spec))
}

/// The cgroup `ledbat tcp run` with process id `pid` creates: `<mount>/ledbat/run-<pid>`.
pub fn run_cgroup_path(mount: &Path, pid: u32) -> PathBuf {
    mount.join(RUN_PARENT).join(format!("run-{pid}"))
}

/// A cgroup directory's name as a bpffs name: bpffs refuses names with a dot (reserved by
/// the kernel), which systemd's units all have, so `%` becomes `%25` and `.` becomes `%2E`.
pub fn bpffs_name(name: &str) -> String {
    name.replace('%', "%25").replace('.', "%2E")
}

/// Where `ledbat tcp attach` pins the links of `cgroup` (a directory under `mount`): the
/// cgroup's path below the mount, each name through [`bpffs_name`], under [`PIN_ROOT`];
/// the root cgroup's are in `<PIN_ROOT>/%root` (no escaped name starts with a lone `%r`).
pub fn pin_dir(mount: &Path, cgroup: &Path) -> Result<PathBuf, CgroupError> {
    let rel = cgroup
        .strip_prefix(mount)
        .map_err(|_| CgroupError::NotCgroup(cgroup.to_path_buf(), mount.to_path_buf()))?;
    let mut p = PathBuf::from(PIN_ROOT);
    if rel.as_os_str().is_empty() {
        p.push("%root");
    }
    for c in rel.components() {
        p.push(bpffs_name(&c.as_os_str().to_string_lossy()));
    }
    Ok(p)
}

/// The exit status a shell gives a finished child: its exit code, or 128 + the number of
/// the signal that killed it.
pub fn exit_code(code: Option<i32>, signal: Option<i32>) -> i32 {
    match (code, signal) {
        (Some(c), _) => c,
        (None, Some(s)) => 128 + s,
        (None, None) => 1,
    }
}

/// Checks that `dir` is a cgroup directory (it has `cgroup.procs`).
pub fn check_cgroup(mount: &Path, dir: &Path) -> Result<(), CgroupError> {
    if dir.starts_with(mount) && dir.join("cgroup.procs").is_file() {
        Ok(())
    } else {
        Err(CgroupError::NotCgroup(
            dir.to_path_buf(),
            mount.to_path_buf(),
        ))
    }
}

/// The process ids in a cgroup (its `cgroup.procs`; not its descendants').
pub fn procs(dir: &Path) -> Result<Vec<u32>, CgroupError> {
    let p = dir.join("cgroup.procs");
    let text = std::fs::read_to_string(&p).map_err(io_err("reading", &p))?;
    Ok(text
        .split_whitespace()
        .filter_map(|s| s.parse().ok())
        .collect())
}

/// Moves the process `pid` (0: the calling process) into the cgroup `dir`.
pub fn enter(dir: &Path, pid: u32) -> Result<(), CgroupError> {
    let p = dir.join("cgroup.procs");
    std::fs::write(&p, pid.to_string()).map_err(io_err("writing to", &p))
}

/// A cgroup created for one `ledbat tcp run`: removed when dropped (see [`RunCgroup::close`]).
#[derive(Debug)]
pub struct RunCgroup {
    dir: PathBuf,
    mount: PathBuf,
    kill_left: bool,
    closed: bool,
}

/// What closing a [`RunCgroup`] found.
#[derive(Debug, Default, PartialEq, Eq)]
pub struct CloseReport {
    /// Processes still in the cgroup after the command exited.
    pub left: Vec<u32>,
    /// Whether they were killed (else moved to ledbat's own cgroup).
    pub killed: bool,
    /// Whether the cgroup directory is gone.
    pub removed: bool,
}

impl CloseReport {
    /// The processes that were left in the cgroup and what became of them, in the words
    /// `run` and its reaper both print; `None` when none was left.
    pub fn left_summary(&self) -> Option<String> {
        if self.left.is_empty() {
            return None;
        }
        let pids: Vec<String> = self.left.iter().map(u32::to_string).collect();
        let (n, pids) = (pids.len(), pids.join(" "));
        Some(if self.killed {
            format!("killed {n} process(es) left in the cgroup: {pids}")
        } else {
            format!("{n} process(es) left in the cgroup still run, moved out of it: {pids}")
        })
    }
}

impl RunCgroup {
    /// Creates the cgroup for `ledbat tcp run` with process id `pid` under `mount`; with
    /// `kill_left`, processes left in it at the end are killed instead of moved out.
    pub fn create(mount: &Path, pid: u32, kill_left: bool) -> Result<RunCgroup, CgroupError> {
        let dir = run_cgroup_path(mount, pid);
        let parent = dir.parent().expect("a run cgroup has a parent");
        if !parent.exists() {
            std::fs::create_dir(parent)
                .or_else(|e| {
                    if e.kind() == std::io::ErrorKind::AlreadyExists {
                        Ok(())
                    } else {
                        Err(e)
                    }
                })
                .map_err(io_err("creating the cgroup", parent))?;
        }
        std::fs::create_dir(&dir).map_err(io_err("creating the cgroup", &dir))?;
        Ok(RunCgroup {
            dir,
            mount: mount.to_path_buf(),
            kill_left,
            closed: false,
        })
    }

    /// Takes over the cgroup `dir` of a `ledbat tcp run` that can no longer close it (the
    /// reaper's, after a SIGKILL to ledbat): `None` when it is gone already.
    pub fn adopt(mount: &Path, dir: &Path, kill_left: bool) -> Option<RunCgroup> {
        dir.join("cgroup.procs").is_file().then(|| RunCgroup {
            dir: dir.to_path_buf(),
            mount: mount.to_path_buf(),
            kill_left,
            closed: false,
        })
    }

    /// The cgroup's directory.
    pub fn dir(&self) -> &Path {
        &self.dir
    }

    /// Empties and removes the cgroup: processes still in it (the command's children that
    /// outlived it) are killed with `kill_left`, else moved to ledbat's own cgroup (their
    /// open connections keep the controller; new ones get the system's default); then the
    /// directory is removed, and `<mount>/ledbat` too when no other run uses it.
    pub fn close(&mut self) -> CloseReport {
        if self.closed {
            return CloseReport::default();
        }
        self.closed = true;
        let mut report = CloseReport::default();
        let left = procs(&self.dir).unwrap_or_default();
        if !left.is_empty() {
            report.left = left.clone();
            if self.kill_left {
                report.killed = true;
                // cgroup.kill (Linux 5.14+) kills every process, forks included; older
                // kernels: SIGKILL each one, a few rounds for late forks
                if std::fs::write(self.dir.join("cgroup.kill"), "1").is_err() {
                    for _ in 0..10 {
                        let now = procs(&self.dir).unwrap_or_default();
                        if now.is_empty() {
                            break;
                        }
                        for pid in now {
                            kill(pid);
                        }
                        std::thread::sleep(std::time::Duration::from_millis(20));
                    }
                }
            } else if let Ok(own) = own_cgroup(&self.mount) {
                for pid in left {
                    let _ = enter(&own, pid);
                }
            }
        }
        // a killed process leaves the cgroup when it has exited: wait for it, at most 2 s
        for _ in 0..100 {
            if std::fs::remove_dir(&self.dir).is_ok() || !self.dir.exists() {
                report.removed = true;
                break;
            }
            std::thread::sleep(std::time::Duration::from_millis(20));
        }
        if let Some(parent) = self.dir.parent() {
            // fails while another run's cgroup is there, as it should
            let _ = std::fs::remove_dir(parent);
        }
        report
    }
}

impl Drop for RunCgroup {
    fn drop(&mut self) {
        if !self.closed {
            let r = self.close();
            if !r.removed {
                eprintln!(
                    "warning: could not remove the cgroup {}",
                    self.dir.display()
                );
            }
        }
    }
}

#[cfg(feature = "bpf")]
fn kill(pid: u32) {
    if let Some(p) = rustix::process::Pid::from_raw(pid as i32) {
        let _ = rustix::process::kill_process(p, rustix::process::Signal::KILL);
    }
}

#[cfg(not(feature = "bpf"))]
fn kill(pid: u32) {
    // without rustix: the kill command, which every system with cgroups has
    let _ = std::process::Command::new("kill")
        .args(["-KILL", &pid.to_string()])
        .status();
}

/// Sends the signal `sig` (SIGINT 2, SIGTERM 15 or SIGHUP 1; others: SIGTERM) to `pid`.
#[cfg(feature = "bpf")]
pub fn signal(pid: u32, sig: i32) {
    use rustix::process::Signal;
    let s = match sig {
        1 => Signal::HUP,
        2 => Signal::INT,
        _ => Signal::TERM,
    };
    if let Some(p) = rustix::process::Pid::from_raw(pid as i32) {
        let _ = rustix::process::kill_process(p, s);
    }
}

/// Whether this process's group is the foreground group of the terminal on standard input:
/// then a Ctrl-C (SIGINT from the terminal) reached its children in the group too.
#[cfg(feature = "bpf")]
pub fn terminal_foreground() -> bool {
    rustix::termios::tcgetpgrp(std::io::stdin()).is_ok_and(|g| g == rustix::process::getpgrp())
}

/// Blocks SIGTTOU in the calling thread, for a process outside the terminal's foreground
/// group that must still report on it (`ledbat tcp run`'s reaper). With `stty tostop`, the
/// kernel stops such a writer with SIGTTOU, or fails the write with EIO when its process
/// group is orphaned (the reaper's is, once `run` has died); while SIGTTOU is blocked it
/// lets the write through (`tty_check_change`).
#[cfg(feature = "bpf")]
pub fn write_to_terminal_from_background() {
    use nix::sys::signal::{pthread_sigmask, SigSet, SigmaskHow, Signal};
    let mut set = SigSet::empty();
    set.add(Signal::SIGTTOU);
    // fails only for an invalid `how`, which SIG_BLOCK is not
    let _ = pthread_sigmask(SigmaskHow::SIG_BLOCK, Some(&set), None);
}

#[cfg(feature = "bpf")]
pub use attach::*;

#[cfg(feature = "bpf")]
mod attach {
    use super::*;
    use crate::loader::{self, Instance};
    use crate::params::{TcpController, KERNEL_BUILDS};
    use libbpf_rs::{Link, MapCore, MapFlags, Object, ObjectBuilder};
    use std::os::fd::AsRawFd;

    /// The selector object, compiled from bpf/select.bpf.c by build.rs.
    pub const SELECT_OBJECT: &[u8] = include_bytes!(concat!(env!("OUT_DIR"), "/select.bpf.o"));

    fn bpf(what: impl Into<String>) -> impl FnOnce(libbpf_rs::Error) -> CgroupError {
        let what = what.into();
        move |source| CgroupError::Bpf { what, source }
    }

    /// Makes sure the congestion control `name` is registered: a name the kernel offers is
    /// used as it is; otherwise, if it is one of ledbat's kernel builds (by kernel name or
    /// controller name), it is registered with its default parameters under its kernel
    /// name. Returns the kernel name and the instance registered now, if any.
    pub fn ensure_cc(name: &str) -> Result<(String, Option<Instance>), CgroupError> {
        let available = loader::available()?;
        if available.iter().any(|n| n == name) {
            return Ok((name.to_string(), None));
        }
        let build = KERNEL_BUILDS.iter().find(|(c, k)| *c == name || *k == name);
        let Some((controller, kernel)) = build else {
            return Err(CgroupError::UnknownCc(
                name.to_string(),
                available.join(", "),
                KERNEL_BUILDS
                    .iter()
                    .map(|(c, k)| format!("{c} (as {k})"))
                    .collect::<Vec<_>>()
                    .join(", "),
            ));
        };
        if available.iter().any(|n| n == kernel) {
            return Ok((kernel.to_string(), None));
        }
        let c = TcpController::parse(controller, std::iter::empty())
            .map_err(loader::LoadError::from)?;
        let inst = match loader::load(&c, kernel, false) {
            // another ledbat registered it meanwhile
            Err(loader::LoadError::NameTaken(_)) => None,
            other => Some(other?),
        };
        Ok((kernel.to_string(), inst))
    }

    /// Programs attached to one cgroup, detached when dropped unless pinned.
    pub struct Attachment {
        select: Object,
        rledbat: Option<Object>,
        links: Vec<(&'static str, Link)>,
    }

    impl std::fmt::Debug for Attachment {
        fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
            f.debug_struct("Attachment")
                .field("links", &self.links.iter().map(|l| l.0).collect::<Vec<_>>())
                .finish()
        }
    }

    fn bss_words(obj: &Object) -> [u64; 4] {
        let mut w = [0u64; 4];
        for m in obj.maps() {
            if !m.name().to_string_lossy().ends_with(".bss") {
                continue;
            }
            if let Ok(Some(v)) = m.lookup(&0u32.to_ne_bytes(), MapFlags::ANY) {
                for (i, x) in w.iter_mut().enumerate() {
                    *x = v
                        .get(i * 8..i * 8 + 8)
                        .map_or(0, |b| u64::from_ne_bytes(b.try_into().expect("8 bytes")));
                }
            }
        }
        w
    }

    /// What the rLEDBAT program counted.
    #[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
    pub struct RlCounts {
        /// Connections it took on.
        pub connections: u64,
        /// Window clamps written.
        pub clamps: u64,
        /// Clamps the kernel refused.
        pub errors: u64,
        /// The last refusal's error.
        pub last_error: i64,
    }

    /// What the selector counted.
    #[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
    pub struct SelectCounts {
        /// Sockets given the controller (a connection may count twice: at connect and
        /// when established).
        pub done: u64,
        /// Refusals by the kernel.
        pub errors: u64,
        /// The last refusal's error (a negative errno).
        pub last_error: i64,
    }

    fn open_cgroup(dir: &Path) -> Result<std::fs::File, CgroupError> {
        std::fs::File::open(dir).map_err(io_err("opening the cgroup", dir))
    }

    /// Attaches the selector for the congestion control `cc` (a registered kernel name) to
    /// the cgroup `dir`, and with `rledbat` the receive-side window program configured by it
    /// (both may be attached: cgroup links run every program, BPF_F_ALLOW_MULTI's rule).
    pub fn attach(
        dir: &Path,
        cc: &str,
        rledbat: Option<&crate::rledbat::RlConfig>,
    ) -> Result<Attachment, CgroupError> {
        loader::check_name(cc)?;
        let cg = open_cgroup(dir)?;
        let mut open = ObjectBuilder::default()
            .open_memory(SELECT_OBJECT)
            .map_err(bpf("opening the selector object"))?;
        let mut wrote = false;
        for mut m in open.maps_mut() {
            if !m.name().to_string_lossy().ends_with(".rodata") {
                continue;
            }
            if let Some(v) = m.initial_value_mut() {
                v[..16].fill(0);
                v[..cc.len()].copy_from_slice(cc.as_bytes());
                wrote = true;
            }
        }
        assert!(
            wrote,
            "the built-in selector object has its name in .rodata"
        );
        let obj = open.load().map_err(bpf("loading the selector program"))?;
        let mut links = Vec::new();
        {
            let prog = obj
                .progs_mut()
                .find(|p| p.name() == "ledbat_select")
                .expect("the selector object has its program");
            let link = prog
                .attach_cgroup(cg.as_raw_fd())
                .map_err(bpf(format!("attaching the selector to {}", dir.display())))?;
            links.push((SELECT_PIN, link));
        }
        let mut rl_obj = None;
        if let Some(cfg) = rledbat {
            let (o, link) = crate::rledbat::attach(&cg, dir, cfg)?;
            links.push((RLEDBAT_PIN, link));
            rl_obj = Some(o);
        }
        Ok(Attachment {
            select: obj,
            rledbat: rl_obj,
            links,
        })
    }

    impl Attachment {
        /// What the selector has done so far.
        pub fn counts(&self) -> SelectCounts {
            let w = bss_words(&self.select);
            SelectCounts {
                done: w[0],
                errors: w[1],
                last_error: w[2] as i64,
            }
        }

        /// What the rLEDBAT program has done so far, when attached.
        pub fn rl_counts(&self) -> Option<RlCounts> {
            self.rledbat.as_ref().map(|o| {
                let w = bss_words(o);
                RlCounts {
                    connections: w[0],
                    clamps: w[1],
                    errors: w[2],
                    last_error: w[3] as i64,
                }
            })
        }

        /// Pins every link under `dir` (created in bpffs) so that the attachment outlives
        /// this process; pins there from an earlier attachment are replaced.
        pub fn pin(mut self, dir: &Path) -> Result<Vec<PathBuf>, CgroupError> {
            ensure_bpffs()?;
            std::fs::create_dir_all(dir).map_err(io_err("creating the pin directory", dir))?;
            unpin_all(dir)?;
            let mut pinned = Vec::new();
            for (name, link) in &mut self.links {
                let p = dir.join(name);
                link.pin(&p)
                    .map_err(bpf(format!("pinning the link at {}", p.display())))?;
                pinned.push(p);
            }
            Ok(pinned)
        }
    }

    /// Mounts bpffs at [`BPFFS`] unless it is mounted.
    pub fn ensure_bpffs() -> Result<(), CgroupError> {
        let p = Path::new("/proc/self/mountinfo");
        let text = std::fs::read_to_string(p).map_err(io_err("reading", p))?;
        if bpffs_mount_needed(&text, Path::new(BPFFS).is_dir())? {
            rustix::mount::mount(
                "bpf",
                BPFFS,
                "bpf",
                rustix::mount::MountFlags::empty(),
                None,
            )
            .map_err(|e| CgroupError::Io {
                what: "mounting bpffs at",
                path: PathBuf::from(BPFFS),
                err: e.into(),
            })?;
        }
        Ok(())
    }

    /// Removes the pins of ours in `dir`; returns what it removed.
    fn unpin_all(dir: &Path) -> Result<Vec<PathBuf>, CgroupError> {
        let mut removed = Vec::new();
        for name in [SELECT_PIN, RLEDBAT_PIN] {
            let p = dir.join(name);
            if p.exists() {
                std::fs::remove_file(&p).map_err(io_err("removing the pin", &p))?;
                removed.push(p);
            }
        }
        Ok(removed)
    }

    /// Detaches what `ledbat tcp attach` pinned for the cgroup whose pins are in `dir`:
    /// removing the last reference to a link detaches its program. Empty pin directories
    /// up to [`PIN_ROOT`] are removed.
    pub fn detach_pinned(cgroup: &Path, dir: &Path) -> Result<Vec<PathBuf>, CgroupError> {
        let removed = unpin_all(dir)?;
        if removed.is_empty() {
            return Err(CgroupError::NotAttached(
                cgroup.to_path_buf(),
                dir.to_path_buf(),
            ));
        }
        let mut d = dir.to_path_buf();
        while d.starts_with(PIN_ROOT) && d != Path::new(PIN_ROOT) && std::fs::remove_dir(&d).is_ok()
        {
            d.pop();
        }
        Ok(removed)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const HYBRID: &str = "\
22 1 8:1 / / rw,relatime shared:1 - ext4 /dev/root rw
25 22 0:23 / /sys rw,nosuid,nodev,noexec,relatime shared:7 - sysfs sysfs rw
31 25 0:27 / /sys/fs/cgroup ro,nosuid,nodev,noexec shared:9 - tmpfs tmpfs ro,mode=755
41 31 0:38 / /sys/fs/cgroup/unified rw,relatime shared:10 - cgroup2 cgroup2 rw
42 31 0:39 / /sys/fs/cgroup/systemd rw,relatime shared:11 - cgroup cgroup rw,xattr,name=systemd
43 31 0:40 / /sys/fs/cgroup/memory rw,relatime shared:12 - cgroup cgroup rw,memory
";

    const UNIFIED: &str = "\
24 1 259:2 / / rw,relatime shared:1 - ext4 /dev/nvme0n1p2 rw
35 24 0:30 / /sys/fs/cgroup rw,nosuid,nodev,noexec,relatime shared:4 - cgroup2 cgroup2 rw,nsdelegate,memory_recursiveprot
36 24 0:31 / /sys/fs/bpf rw,nosuid,nodev,noexec,relatime shared:5 - bpf bpf rw,mode=700
";

    #[test]
    fn cgroup2_is_found_on_a_hybrid_and_on_a_unified_system() {
        assert_eq!(
            cgroup2_mount_from(HYBRID),
            Some(PathBuf::from("/sys/fs/cgroup/unified"))
        );
        assert_eq!(
            cgroup2_mount_from(UNIFIED),
            Some(PathBuf::from("/sys/fs/cgroup"))
        );
        assert_eq!(
            mount_point_from(UNIFIED, "bpf"),
            Some(PathBuf::from("/sys/fs/bpf"))
        );
    }

    #[test]
    fn only_cgroup_v1_mounted_means_no_cgroup2() {
        let v1only: String = HYBRID
            .lines()
            .filter(|l| !l.contains("cgroup2"))
            .map(|l| format!("{l}\n"))
            .collect();
        assert_eq!(cgroup2_mount_from(&v1only), None);
        assert_eq!(cgroup2_mount_from(""), None);
    }

    #[test]
    fn a_whole_hierarchy_mount_wins_over_an_earlier_bind_mount_of_a_subtree() {
        // a container's bind mount of its own subtree (root /docker/abc), then the whole
        let text = "\
50 1 0:38 /docker/abc /sys/fs/cgroup rw - cgroup2 cgroup2 rw
51 1 0:38 / /mnt/cg rw - cgroup2 cgroup2 rw
";
        assert_eq!(cgroup2_mount_from(text), Some(PathBuf::from("/mnt/cg")));
        // only the subtree: that is what there is
        assert_eq!(
            cgroup2_mount_from(text.lines().next().unwrap()),
            Some(PathBuf::from("/sys/fs/cgroup"))
        );
    }

    #[test]
    fn optional_fields_and_escaped_spaces_in_mountinfo_are_read() {
        // no optional field at all, and a mount point with a space (\040)
        let text = "60 1 0:41 / /mnt/my\\040cgroups rw - cgroup2 none rw\n";
        assert_eq!(
            cgroup2_mount_from(text),
            Some(PathBuf::from("/mnt/my cgroups"))
        );
        assert_eq!(unescape_mount_field("a\\011b\\134c"), "a\tb\\c");
        // an escape cut short stays as it is
        assert_eq!(unescape_mount_field("x\\04"), "x\\04");
    }

    #[test]
    fn the_v2_line_of_proc_cgroup_is_found_beside_v1_lines() {
        let text = "9:name=systemd:/\n4:memory:/process_api/d5\n0::/system.slice/ssh.service\n";
        assert_eq!(own_cgroup_from(text), Some("/system.slice/ssh.service"));
        assert_eq!(own_cgroup_from("0::/\n"), Some("/"));
        assert_eq!(own_cgroup_from("4:memory:/x\n"), None);
    }

    #[test]
    fn cgroup_arguments_resolve_under_the_mount() {
        let m = Path::new("/sys/fs/cgroup/unified");
        let want = PathBuf::from("/sys/fs/cgroup/unified/system.slice/restic.service");
        assert_eq!(
            resolve_cgroup(m, "system.slice/restic.service", None).unwrap(),
            want
        );
        assert_eq!(
            resolve_cgroup(m, "/system.slice/restic.service", None).unwrap(),
            want
        );
        assert_eq!(
            resolve_cgroup(
                m,
                "/sys/fs/cgroup/unified/system.slice/restic.service/",
                None
            )
            .unwrap(),
            want
        );
        assert_eq!(
            resolve_cgroup(m, "self", Some("/system.slice/restic.service")).unwrap(),
            want
        );
        assert!(matches!(
            resolve_cgroup(m, "self", None),
            Err(CgroupError::NoOwnCgroup)
        ));
        assert!(matches!(
            resolve_cgroup(m, "system.slice/../../etc", None),
            Err(CgroupError::NotCgroup(..))
        ));
        assert_eq!(join_below(m, "/"), m);
    }

    #[test]
    fn run_cgroups_and_pin_directories_have_their_places() {
        let m = Path::new("/sys/fs/cgroup");
        assert_eq!(
            run_cgroup_path(m, 4242),
            PathBuf::from("/sys/fs/cgroup/ledbat/run-4242")
        );
        // bpffs refuses dots: escaped, and % too so that no two names meet
        assert_eq!(
            pin_dir(m, Path::new("/sys/fs/cgroup/system.slice/restic.service")).unwrap(),
            PathBuf::from("/sys/fs/bpf/ledbat/cgroup/system%2Eslice/restic%2Eservice")
        );
        assert_eq!(bpffs_name("a%2Eb"), "a%252Eb");
        assert_ne!(bpffs_name("a%2Eb"), bpffs_name("a.b"));
        assert_eq!(
            pin_dir(m, m).unwrap(),
            PathBuf::from("/sys/fs/bpf/ledbat/cgroup/%root")
        );
        assert!(pin_dir(m, Path::new("/tmp/x")).is_err());
    }

    #[test]
    fn only_a_cgroup_still_there_is_adopted() {
        let temp = tempfile::Builder::new()
            .prefix("ledbat-adopt-")
            .tempdir()
            .unwrap();
        let root = temp.path().join("ledbat");
        let dir = root.join("run-1");
        std::fs::create_dir_all(&dir).unwrap();
        // a directory without cgroup.procs is not a cgroup (or no longer one)
        assert!(RunCgroup::adopt(&root, &dir, false).is_none());
        std::fs::write(dir.join("cgroup.procs"), "").unwrap();
        let g = RunCgroup::adopt(&root, &dir, true).expect("a cgroup directory");
        assert_eq!(
            (g.dir(), g.kill_left, g.closed),
            (dir.as_path(), true, false)
        );
        // not a real cgroup: its directory cannot be removed by rmdir, so no close
        std::mem::forget(g);
        std::fs::remove_dir_all(&root).unwrap();
        assert!(RunCgroup::adopt(&root, &dir, false).is_none());
    }

    #[test]
    fn bpffs_is_mounted_only_where_it_is_not_and_a_missing_directory_is_named() {
        let with_bpf = format!(
            "{HYBRID}50 25 0:45 / /sys/fs/bpf rw,nosuid,nodev,noexec,relatime shared:13 - bpf bpf rw\n"
        );
        assert!(!bpffs_mount_needed(&with_bpf, true).unwrap());
        // mounted, so the directory is there whatever the caller saw
        assert!(!bpffs_mount_needed(&with_bpf, false).unwrap());
        assert!(bpffs_mount_needed(HYBRID, true).unwrap());
        // a bpf file system elsewhere is not the one pins go to
        let elsewhere = format!("{HYBRID}50 25 0:45 / /run/bpf rw shared:13 - bpf bpf rw\n");
        assert!(bpffs_mount_needed(&elsewhere, true).unwrap());
        let err = bpffs_mount_needed(HYBRID, false).unwrap_err();
        assert!(matches!(err, CgroupError::NoBpffsDir));
        let msg = err.to_string();
        assert!(msg.starts_with("/sys/fs/bpf does not exist"), "{msg}");
        assert!(msg.contains("--tmpfs=/sys/fs/bpf"), "{msg}");
    }

    #[test]
    fn exit_status_is_the_code_or_128_plus_the_signal() {
        assert_eq!(exit_code(Some(0), None), 0);
        assert_eq!(exit_code(Some(3), None), 3);
        // SIGINT 2 -> 130, SIGKILL 9 -> 137, SIGTERM 15 -> 143
        assert_eq!(exit_code(None, Some(2)), 130);
        assert_eq!(exit_code(None, Some(9)), 137);
        assert_eq!(exit_code(None, Some(15)), 143);
        assert_eq!(exit_code(None, None), 1);
    }

    #[cfg(feature = "bpf")]
    #[test]
    fn a_reporter_in_the_background_blocks_sigttou_in_its_thread() {
        use nix::sys::signal::{pthread_sigmask, SigSet, SigmaskHow, Signal};
        // in a thread of its own, so that the test harness's threads keep their masks
        std::thread::spawn(|| {
            let blocked = || {
                let mut old = SigSet::empty();
                pthread_sigmask(SigmaskHow::SIG_BLOCK, None, Some(&mut old)).unwrap();
                old.contains(Signal::SIGTTOU)
            };
            assert!(!blocked());
            write_to_terminal_from_background();
            assert!(blocked());
        })
        .join()
        .unwrap();
    }

    #[test]
    fn the_close_report_names_the_processes_left_and_their_fate() {
        let mut r = CloseReport {
            left: vec![],
            killed: false,
            removed: true,
        };
        assert_eq!(r.left_summary(), None);
        r.left = vec![41, 7];
        assert_eq!(
            r.left_summary().unwrap(),
            "2 process(es) left in the cgroup still run, moved out of it: 41 7"
        );
        r.killed = true;
        assert_eq!(
            r.left_summary().unwrap(),
            "killed 2 process(es) left in the cgroup: 41 7"
        );
    }
}
