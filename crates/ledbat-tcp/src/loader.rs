//! Registering, listing and unregistering the kernel builds, through libbpf.
//!
//! One [`load`] opens the BPF object built into this binary, writes the parameter words and
//! a JSON description into its read-only data, renames its `tcp_congestion_ops`, loads it
//! (the verifier checks every program; CO-RE relocates every field access against the running
//! kernel's BTF) and registers it. The registration outlives this process: the kernel holds
//! the struct_ops map (and through it the programs and their maps) until [`unload`] deletes
//! it; connections that use the controller keep it until they close.
//!
//! The kernel is the only record of what is loaded: [`list`] finds every struct_ops map
//! whose `init` program is this object's, and reads its parameters and description back.

use crate::params::{LbParams, TcpController};
use crate::stats::FlowStats;
use crate::trace::Record;
use libbpf_rs::btf::types::MemberAttr;
use libbpf_rs::btf::types::Struct;
use libbpf_rs::query::{MapInfoIter, ProgInfoIter, ProgInfoQueryOptions};
use libbpf_rs::{
    Btf, ErrorKind, MapCore, MapFlags, MapHandle, MapType, ObjectBuilder, RingBufferBuilder,
};
use serde::{Deserialize, Serialize};
use std::collections::HashMap;
use std::sync::Mutex;

mod if_absent;
pub use if_absent::{presence, Presence};

/// The BPF object, compiled from bpf/ledbat.bpf.c by build.rs.
pub const OBJECT: &[u8] = include_bytes!(concat!(env!("OUT_DIR"), "/ledbat.bpf.o"));

/// `LB_DESC_LEN`: room for the JSON description after the parameter words.
const DESC_LEN: usize = 2048;
/// The name the object is compiled with, replaced at load.
const PLACEHOLDER: &[u8] = b"ledbat_tcp\0";
/// The object's `init` program: how [`list`] knows a struct_ops map is one of ours.
const INIT_PROG: &str = "ledbat_init";
/// TCP_CONG_NON_RESTRICTED: unprivileged sockets may select the controller.
const NON_RESTRICTED: u32 = 1;
const AVAILABLE: &str = "/proc/sys/net/ipv4/tcp_available_congestion_control";
/// The controls whose TCP_CONG_NON_RESTRICTED flag is set now: `load --unprivileged`, a
/// later `sysctl net.ipv4.tcp_allowed_congestion_control=...`, or being made a default.
const ALLOWED: &str = "/proc/sys/net/ipv4/tcp_allowed_congestion_control";
const DEFAULT_CC: &str = "/proc/sys/net/ipv4/tcp_congestion_control";

/// Why a `ledbat tcp` operation failed.
#[derive(Debug, thiserror::Error)]
pub enum LoadError {
    /// Not privileged enough (the kernel said EPERM; [`crate::preflight`] usually tells
    /// first).
    #[error(
        "permission denied: registering a congestion control needs CAP_BPF and CAP_PERFMON \
         (or CAP_SYS_ADMIN), finding or removing one CAP_SYS_ADMIN: run it as root"
    )]
    NotRoot,
    /// No kernel BTF.
    #[error(
        "this kernel exposes no BTF (/sys/kernel/btf/vmlinux is missing): BPF congestion \
         controls need a kernel built with CONFIG_DEBUG_INFO_BTF"
    )]
    NoBtf,
    /// No `bpf_tcp_ca`.
    #[error(
        "this kernel cannot register BPF TCP congestion controls (no bpf_tcp_ca struct_ops in \
         its BTF; Linux 5.12 or later with CONFIG_BPF_JIT and CONFIG_BPF_SYSCALL)"
    )]
    NoTcpCa,
    /// The name is registered already.
    #[error(
        "a congestion control named `{0}` is already registered (see {AVAILABLE}); choose \
         another with --as, or `ledbat tcp unload {0}` first if it is one of ours"
    )]
    NameTaken(String),
    /// The name cannot be a kernel name.
    #[error("`{0}` cannot name a congestion control: {1}")]
    BadName(String, &'static str),
    /// Nothing of ours by that name.
    #[error(
        "no congestion control named `{0}` is loaded by ledbat (`ledbat tcp list` shows them)"
    )]
    NotLoaded(String),
    /// Ours, but unregistered already; connections still hold it.
    #[error(
        "`{0}` is unregistered already: the connections that use it keep it until they close \
         (`ledbat tcp list` shows how many)"
    )]
    AlreadyUnloaded(String),
    /// A kernel controller, not ours.
    #[error("`{0}` is not one of ledbat's congestion controls (it is built into the kernel or loaded by another program)")]
    NotOurs(String),
    /// `--if-absent`: the name is registered, not by ledbat.
    #[error(
        "a congestion control named `{0}` is registered already and is not ledbat's (built \
         into the kernel or loaded by another program): choose another name with --as"
    )]
    TakenByOther(String),
    /// `--if-absent`: ours under the name, with another controller or other parameters.
    #[error(
        "`{name}` is registered by ledbat with other parameters ({have}; asked: {asked}): \
         `ledbat tcp unload {name}` first, or choose another name with --as"
    )]
    OtherParams {
        /// The kernel name.
        name: String,
        /// The registered controller and its parameters that differ.
        have: String,
        /// The same, as asked.
        asked: String,
    },
    /// `--if-absent`: ours under the name, loaded by another version of ledbat.
    #[error(
        "`{0}` was loaded by another version of ledbat, whose parameters this one cannot \
         compare: `ledbat tcp unload {0}` first"
    )]
    OtherVersion(String),
    /// `--if-absent --unprivileged`: ours with the same parameters, restricted.
    #[error(
        "`{0}` is registered by ledbat with these parameters but only for privileged \
         sockets (--unprivileged asked): `ledbat tcp unload {0}` first, or add it to \
         net.ipv4.tcp_allowed_congestion_control"
    )]
    Restricted(String),
    /// The description does not fit.
    #[error("the configuration's description is {0} bytes, more than the object's {DESC_LEN}")]
    TooLong(usize),
    /// libbpf or the kernel refused, with libbpf's last messages.
    #[error("{what}: {source}{log}")]
    Bpf {
        /// What was being done.
        what: &'static str,
        /// The error.
        source: libbpf_rs::Error,
        /// libbpf's messages (the verifier's log when loading failed).
        log: String,
    },
    /// The configuration has no kernel build.
    #[error(transparent)]
    Params(#[from] crate::params::ParamsError),
    /// A /proc file.
    #[error("{0}: {1}")]
    Io(&'static str, std::io::Error),
}

/// One of our controllers as registered in the kernel.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Instance {
    /// The kernel name applications select.
    pub name: String,
    /// The configuration it was loaded with; `None` when another version of ledbat loaded
    /// it (its parameter words or description do not parse here): such an instance is
    /// still listed and can be unloaded, but its statistics and events are not read.
    pub controller: Option<TcpController>,
    /// Whether unprivileged sockets may select it: the kernel's flag now (the registered
    /// name in `tcp_allowed_congestion_control`), or for an unregistered instance what
    /// `load` set.
    pub unprivileged: bool,
    /// Registered (applications can select it), or unregistered but still held by the
    /// connections that use it (and by the sysctl default if that names it) until they let
    /// go: then the kernel frees it.
    pub registered: bool,
    /// Its struct_ops map.
    pub map_id: u32,
    /// Its per-connection statistics map.
    pub stats_map_id: Option<u32>,
    /// Connections using it now (entries of the statistics map).
    pub connections: usize,
    /// Connections it could not take on since it was loaded (socket storage allocation
    /// failed): they ran with the kernel's window, not this controller.
    pub without_state: u64,
    /// The parameter words it runs, when this version's layout (`--if-absent` compares
    /// them).
    #[serde(skip)]
    words: Option<LbParams>,
    /// Its event ring buffer and the switch that turns tracing on (`.bss`).
    #[serde(skip)]
    trace_maps: Option<(u32, u32)>,
}

/// What the object's read-only data says about itself.
#[derive(Clone, Debug, Serialize, Deserialize)]
struct Desc {
    name: String,
    unprivileged: bool,
    controller: TcpController,
}

static LOG: Mutex<String> = Mutex::new(String::new());

fn collect_log(_level: libbpf_rs::PrintLevel, msg: String) {
    if let Ok(mut l) = LOG.lock() {
        l.push_str(&msg);
        // keep the tail: the verifier's conclusion is at the end
        if l.len() > 4 << 20 {
            let cut = l.len() - (2 << 20);
            let cut = (cut..l.len()).find(|&i| l.is_char_boundary(i)).unwrap_or(0);
            l.replace_range(..cut, "");
        }
    }
}

fn take_log() -> String {
    let l = LOG
        .lock()
        .map(|mut l| std::mem::take(&mut *l))
        .unwrap_or_default();
    if let Some(path) = std::env::var_os("LEDBAT_BPF_LOG") {
        let _ = std::fs::write(path, &l);
    }
    let tail: Vec<&str> = l.lines().rev().take(20).collect();
    if tail.is_empty() {
        String::new()
    } else {
        let mut t: Vec<&str> = tail.into_iter().rev().collect();
        t.insert(0, "");
        t.join("\n  libbpf: ")
    }
}

fn bpf_err(what: &'static str) -> impl FnOnce(libbpf_rs::Error) -> LoadError {
    move |source| match source.kind() {
        // the verifier also answers EACCES: only a non-root caller is told about privileges
        ErrorKind::PermissionDenied if !rustix::process::geteuid().is_root() => {
            let _ = take_log();
            LoadError::NotRoot
        }
        _ => LoadError::Bpf {
            what,
            source,
            log: take_log(),
        },
    }
}

/// Whether the instance `name` is open to unprivileged sockets: a registered one by the
/// kernel's list of allowed controls `allowed` (the flag can change after `load`: the
/// sysctl, or the control made a default, sets it), when that list could be read; else, and
/// for an unregistered instance (no longer in the list), what `load` set (`loaded_open`).
fn unprivileged_now(
    allowed: &Option<String>,
    name: &str,
    registered: bool,
    loaded_open: bool,
) -> bool {
    match allowed {
        Some(list) if registered => list.split_whitespace().any(|n| n == name),
        _ => loaded_open,
    }
}

/// The congestion controls the kernel offers now.
pub fn available() -> Result<Vec<String>, LoadError> {
    let text = std::fs::read_to_string(AVAILABLE).map_err(|e| LoadError::Io(AVAILABLE, e))?;
    Ok(text.split_whitespace().map(str::to_string).collect())
}

/// Checks a kernel name: 1 to 15 characters of ASCII letters, digits, `_` and `.`, what the
/// kernel's `bpf_obj_name_cpy` accepts when it copies the name of a BPF congestion control
/// (Linux `kernel/bpf/syscall.c`); anything else would fail late with EINVAL.
pub fn check_name(name: &str) -> Result<(), LoadError> {
    let bad = |why| Err(LoadError::BadName(name.to_string(), why));
    if name.is_empty() || name.len() > 15 {
        return bad("a kernel name has 1 to 15 characters");
    }
    if !name
        .chars()
        .all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '.')
    {
        return bad("the kernel accepts only ASCII letters, digits, `_` and `.` (no `-` or `+`)");
    }
    Ok(())
}

/// The offsets in a struct_ops map value of the ops name, its `init` program id, and the
/// kernel's `state` (Linux `bpf_struct_ops_map_sys_lookup_elem` fills it in). The value's
/// `refcnt` is not used: since sockets hold the map itself (Linux 6.4's struct_ops links)
/// it no longer counts them.
struct Layout {
    name: usize,
    init: usize,
    state: usize,
}

/// `enum bpf_struct_ops_state`: registered (non-link `INUSE`, or link-based `READY`), or
/// unregistered while sockets still hold it (`TOBEFREE`).
const STATE_INUSE: u32 = 1;
const STATE_TOBEFREE: u32 = 2;
const STATE_READY: u32 = 3;

/// Whether a struct_ops map value is registered (`Some(true)`), unregistered but held
/// (`Some(false)`), or neither (never registered, or a state this code does not know).
fn registration(value: &[u8], layout: &Layout) -> Option<bool> {
    let state = value
        .get(layout.state..layout.state + 4)
        .map(|b| u32::from_ne_bytes(b.try_into().expect("4 bytes")))?;
    match state {
        STATE_INUSE | STATE_READY => Some(true),
        STATE_TOBEFREE => Some(false),
        _ => None,
    }
}

fn member_offset(btf: &Btf<'_>, ty: &str, member: &str) -> Option<usize> {
    let s: Struct<'_> = btf.type_by_name(ty)?;
    let offset = s.iter().find_map(|m| {
        (m.name.and_then(|n| n.to_str()) == Some(member)).then_some(match m.attr {
            MemberAttr::Normal { offset } | MemberAttr::BitField { offset, .. } => {
                offset as usize / 8
            }
        })
    });
    offset
}

/// Checks the kernel: BTF, and struct_ops for TCP congestion control.
fn layout() -> Result<Layout, LoadError> {
    if !std::path::Path::new("/sys/kernel/btf/vmlinux").exists() {
        return Err(LoadError::NoBtf);
    }
    let btf = Btf::from_vmlinux().map_err(bpf_err("reading the kernel's BTF"))?;
    let data = member_offset(&btf, "bpf_struct_ops_tcp_congestion_ops", "data")
        .ok_or(LoadError::NoTcpCa)?;
    let name = member_offset(&btf, "tcp_congestion_ops", "name").ok_or(LoadError::NoTcpCa)?;
    let init = member_offset(&btf, "tcp_congestion_ops", "init").ok_or(LoadError::NoTcpCa)?;
    // newer kernels keep `state` in a `common` struct; older ones in the value itself
    let state = match member_offset(&btf, "bpf_struct_ops_tcp_congestion_ops", "common") {
        Some(common) => {
            member_offset(&btf, "bpf_struct_ops_common_value", "state").map(|o| common + o)
        }
        None => member_offset(&btf, "bpf_struct_ops_tcp_congestion_ops", "state"),
    };
    Ok(Layout {
        name: data + name,
        init: data + init,
        state: state.ok_or(LoadError::NoTcpCa)?,
    })
}

/// Registers `c` as the congestion control `name`; with `unprivileged`, any socket may
/// select it (otherwise only privileged ones, and routes and the sysctl default).
pub fn load(c: &TcpController, name: &str, unprivileged: bool) -> Result<Instance, LoadError> {
    load_object(OBJECT, c, name, unprivileged)
}

/// [`load`] for another build of bpf/ledbat.bpf.c than the one built in: `object` must be
/// compiled from that file (its parameter section, its ops placeholder and its `init`
/// program, by which [`list`] finds it; anything else panics). For tests only: the
/// live-kernel test of the Reno fallback (tests/fallback.rs) loads the program compiled
/// so that no connection gets socket storage. `ledbat tcp` loads [`OBJECT`].
pub fn load_object(
    object: &[u8],
    c: &TcpController,
    name: &str,
    unprivileged: bool,
) -> Result<Instance, LoadError> {
    check_name(name)?;
    layout()?;
    if available()?.iter().any(|n| n == name) {
        return Err(LoadError::NameTaken(name.to_string()));
    }
    let params = c.params()?;
    let desc = serde_json::to_vec(&Desc {
        name: name.to_string(),
        unprivileged,
        controller: c.clone(),
    })
    .expect("a config serialises");
    if desc.len() >= DESC_LEN {
        return Err(LoadError::TooLong(desc.len()));
    }
    libbpf_rs::set_print(Some((libbpf_rs::PrintLevel::Debug, collect_log)));
    let _ = take_log();
    let mut open = ObjectBuilder::default()
        .open_memory(object)
        .map_err(bpf_err("opening the BPF object"))?;
    let mut wrote_params = false;
    let mut wrote_name = false;
    for mut m in open.maps_mut() {
        let map_name = m.name().to_string_lossy().into_owned();
        let Some(v) = m.initial_value_mut() else {
            continue;
        };
        if map_name.contains("lbparam") {
            let p = params.to_bytes();
            v[..p.len()].copy_from_slice(&p);
            v[p.len()..p.len() + desc.len()].copy_from_slice(&desc);
            wrote_params = true;
        } else if map_name == "ledbat_ops" {
            if let Some(at) = v.windows(PLACEHOLDER.len()).position(|w| w == PLACEHOLDER) {
                v[at..at + 16].fill(0);
                v[at..at + name.len()].copy_from_slice(name.as_bytes());
                // `__u32 flags` follows `char name[16]` in the object's declaration
                v[at + 16..at + 20].copy_from_slice(
                    &(if unprivileged { NON_RESTRICTED } else { 0 }).to_ne_bytes(),
                );
                wrote_name = true;
            }
        }
    }
    assert!(
        wrote_params && wrote_name,
        "the BPF object has its parameter section and ops placeholder (bpf/ledbat.bpf.c's)"
    );
    let mut obj = open.load().map_err(bpf_err("loading the BPF object"))?;
    // the ids of the object's maps, read from its own descriptors: finding them again by id
    // (as `list` does) would need CAP_SYS_ADMIN, which registering does not
    let mut ids: HashMap<String, u32> = HashMap::new();
    for m in obj.maps() {
        let info = m
            .info()
            .map_err(bpf_err("reading the loaded object's maps"))?;
        ids.insert(m.name().to_string_lossy().into_owned(), info.info.id);
    }
    let mut attached = None;
    for mut m in obj.maps_mut() {
        if m.map_type() == MapType::StructOps {
            let mut link = m.attach_struct_ops().map_err(|e| {
                if e.kind() == ErrorKind::AlreadyExists {
                    LoadError::NameTaken(name.to_string())
                } else {
                    bpf_err("registering the congestion control")(e)
                }
            })?;
            // keep the registration after this process exits
            link.disconnect();
            attached = ids.get(&m.name().to_string_lossy().into_owned()).copied();
        }
    }
    let map_id = attached.expect("the object has a struct_ops map");
    libbpf_rs::set_print(None);
    let bss = ids
        .iter()
        .find(|(n, _)| n.ends_with(".bss"))
        .map(|(_, &i)| i);
    Ok(Instance {
        name: name.to_string(),
        controller: Some(c.clone()),
        unprivileged,
        registered: true,
        map_id,
        stats_map_id: ids.get("lb_stats").copied(),
        connections: 0,
        without_state: 0,
        words: Some(params),
        trace_maps: ids.get("lb_trace").copied().zip(bss),
    })
}

/// What [`load_if_absent`] did.
#[derive(Debug)]
pub enum IfAbsent {
    /// Registered now; `held` unregistered instances of ours under the name were still held
    /// by connections.
    Loaded {
        /// The new instance.
        instance: Instance,
        /// Unregistered instances of ours under the name, still held.
        held: usize,
    },
    /// Registered already by ledbat with the controller and parameters asked for.
    Present(Instance),
}

/// `load --if-absent`: registers `c` as `name` unless ledbat registered it already with the
/// same controller and parameters (then nothing changes); fails when the name is taken by
/// anything else ([`presence`] decides). Needs what [`load`] and [`list`] need.
pub fn load_if_absent(
    c: &TcpController,
    name: &str,
    unprivileged: bool,
) -> Result<IfAbsent, LoadError> {
    check_name(name)?;
    layout()?;
    // twice at most: another loader may register the name between the look and the load
    for attempt in 0..2 {
        let all = list()?;
        match presence(name, c, unprivileged, &available()?, &all)? {
            Presence::Present(i) => return Ok(IfAbsent::Present(i.clone())),
            Presence::Absent { held } => match load(c, name, unprivileged) {
                Ok(instance) => return Ok(IfAbsent::Loaded { instance, held }),
                Err(LoadError::NameTaken(_)) if attempt == 0 => continue,
                Err(e) => return Err(e),
            },
        }
    }
    Err(LoadError::NameTaken(name.to_string()))
}

/// Every controller of ours registered now.
pub fn list() -> Result<Vec<Instance>, LoadError> {
    let layout = layout()?;
    let progs: HashMap<u32, (String, Vec<u32>)> =
        ProgInfoIter::with_query_opts(ProgInfoQueryOptions::default().include_map_ids(true))
            .map(|p| (p.id, (p.name.to_string_lossy().into_owned(), p.map_ids)))
            .collect();
    let mut found = Vec::new();
    let allowed = std::fs::read_to_string(ALLOWED).ok();
    for info in MapInfoIter::default() {
        if info.ty != MapType::StructOps {
            continue;
        }
        let Ok(map) = MapHandle::from_map_id(info.id) else {
            continue;
        };
        let Ok(Some(value)) = map.lookup(&0u32.to_ne_bytes(), MapFlags::ANY) else {
            continue;
        };
        let Some(registered) = registration(&value, &layout) else {
            continue;
        };
        let Some(init) = value
            .get(layout.init..layout.init + 8)
            .map(|b| u64::from_ne_bytes(b.try_into().expect("8 bytes")) as u32)
        else {
            continue;
        };
        let Some((prog_name, map_ids)) = progs.get(&init) else {
            continue;
        };
        if prog_name != INIT_PROG {
            continue;
        }
        let kernel_name = value
            .get(layout.name..layout.name + 16)
            .map(|b| {
                let end = b.iter().position(|&x| x == 0).unwrap_or(b.len());
                String::from_utf8_lossy(&b[..end]).into_owned()
            })
            .unwrap_or_default();
        let mut desc = None;
        let mut words = None;
        let mut has_params = false;
        let mut without_state = 0;
        let mut stats = None;
        let (mut ring, mut bss) = (None, None);
        for &id in map_ids {
            let Ok(m) = MapHandle::from_map_id(id) else {
                continue;
            };
            let name = m.name().to_string_lossy().into_owned();
            if name.contains("lbparam") {
                has_params = true;
                if let Ok(Some(v)) = m.lookup(&0u32.to_ne_bytes(), MapFlags::ANY) {
                    desc = read_desc(&v);
                    words = LbParams::from_bytes(&v);
                }
            } else if name == "lb_stats" {
                stats = Some((id, m.keys().count()));
            } else if name == "lb_no_state" {
                without_state = m
                    .lookup(&0u32.to_ne_bytes(), MapFlags::ANY)
                    .ok()
                    .flatten()
                    .and_then(|v| Some(u64::from_ne_bytes(v.get(..8)?.try_into().ok()?)))
                    .unwrap_or(0);
            } else if name == "lb_trace" {
                ring = Some(id);
            } else if name.ends_with(".bss") {
                bss = Some(id);
            }
        }
        // ours by its `init` program and parameter section, whatever version wrote them
        if !has_params {
            continue;
        }
        let loaded_open = desc.as_ref().is_some_and(|d| d.unprivileged);
        // words and description come together, or neither (another version's layout)
        let words = words.filter(|_| desc.is_some());
        found.push(Instance {
            unprivileged: unprivileged_now(&allowed, &kernel_name, registered, loaded_open),
            name: kernel_name,
            controller: desc.map(|d| d.controller),
            registered,
            map_id: info.id,
            stats_map_id: stats.map(|s| s.0),
            connections: stats.map_or(0, |s| s.1),
            without_state,
            words,
            trace_maps: ring.zip(bss),
        });
    }
    // registered ones first under each name: they are what a name selects now
    found.sort_by(|a, b| (&a.name, !a.registered).cmp(&(&b.name, !b.registered)));
    Ok(found)
}

/// The description in an object's parameter section, if this version wrote it: the
/// parameter words' magic and version match, and the JSON after them parses.
fn read_desc(section: &[u8]) -> Option<Desc> {
    let words = crate::params::WORDS * 8;
    if LbParams::from_bytes(section).is_none() || section.len() <= words {
        return None;
    }
    let d = &section[words..];
    let end = d.iter().position(|&x| x == 0).unwrap_or(d.len());
    serde_json::from_slice::<Desc>(&d[..end]).ok()
}

/// The instance a name selects now: the registered one of that name. Unregistered ones of
/// the same name (held by connections, a previous load) never are. It may have been loaded
/// by another version of ledbat (`controller` is `None`).
pub fn find<'a>(all: &'a [Instance], name: &str) -> Option<&'a Instance> {
    all.iter().find(|i| i.name == name && i.registered)
}

/// The system default congestion control of this network namespace.
pub fn default_control() -> Option<String> {
    std::fs::read_to_string(DEFAULT_CC)
        .ok()
        .map(|s| s.trim().to_string())
}

/// Unregisters our controller `name`. Connections using it keep it until they close.
pub fn unload(name: &str) -> Result<Instance, LoadError> {
    let all = list()?;
    let Some(inst) = find(&all, name).cloned() else {
        return Err(if all.iter().any(|i| i.name == name) {
            LoadError::AlreadyUnloaded(name.to_string())
        } else if available()?.iter().any(|n| n == name) {
            LoadError::NotOurs(name.to_string())
        } else {
            LoadError::NotLoaded(name.to_string())
        });
    };
    let map = MapHandle::from_map_id(inst.map_id).map_err(bpf_err("opening the struct_ops map"))?;
    map.delete(&0u32.to_ne_bytes())
        .map_err(bpf_err("unregistering the congestion control"))?;
    Ok(inst)
}

/// The connections using `inst` now, as the kernel build last published them.
pub fn flows(inst: &Instance) -> Result<Vec<FlowStats>, LoadError> {
    let Some(id) = inst.stats_map_id else {
        return Ok(Vec::new());
    };
    let map = MapHandle::from_map_id(id).map_err(bpf_err("opening the statistics map"))?;
    let mut v: Vec<FlowStats> = map
        .keys()
        .filter_map(|k| {
            let val = map.lookup(&k, MapFlags::ANY).ok()??;
            FlowStats::decode(&k, &val)
        })
        .collect();
    v.sort_by_key(|f| (f.local, f.remote));
    Ok(v)
}

/// Switches a tracing instance's events off again when dropped.
struct TraceSwitch(MapHandle);

impl TraceSwitch {
    fn set(&self, on: bool) -> Result<(), LoadError> {
        self.0
            .update(
                &0u32.to_ne_bytes(),
                &(on as u32).to_ne_bytes(),
                MapFlags::ANY,
            )
            .map_err(bpf_err("switching the event trace"))
    }
}

impl Drop for TraceSwitch {
    fn drop(&mut self) {
        let _ = self.set(false);
    }
}

/// Records every event the controller `inst` gives its connections, passing each to `sink`,
/// until `done()` says stop (checked every 100 ms). Returns the events recorded. Tracing is
/// switched off again whatever happens.
pub fn trace(
    inst: &Instance,
    mut done: impl FnMut() -> bool,
    mut sink: impl FnMut(Record),
) -> Result<u64, LoadError> {
    let Some((ring_id, bss_id)) = inst.trace_maps else {
        return Err(LoadError::NotLoaded(format!(
            "{} (no event trace in its object)",
            inst.name
        )));
    };
    let bss = MapHandle::from_map_id(bss_id).map_err(bpf_err("opening the trace switch"))?;
    if bss.value_size() != 4 {
        return Err(LoadError::NotLoaded(format!(
            "{} (its trace switch has an unexpected layout)",
            inst.name
        )));
    }
    let ring = MapHandle::from_map_id(ring_id).map_err(bpf_err("opening the event ring"))?;
    let mut count = 0u64;
    let switch = TraceSwitch(bss);
    {
        let mut b = RingBufferBuilder::new();
        b.add(&ring, |bytes| {
            if let Some(r) = Record::decode(bytes) {
                count += 1;
                sink(r);
            }
            0
        })
        .map_err(bpf_err("reading the event ring"))?;
        let rb = b.build().map_err(bpf_err("reading the event ring"))?;
        switch.set(true)?;
        while !done() {
            if let Err(e) = rb.poll(std::time::Duration::from_millis(100)) {
                // a signal (the one that ends the trace) interrupts the wait: look again
                if e.kind() != ErrorKind::Interrupted {
                    return Err(bpf_err("reading the event ring")(e));
                }
            }
        }
        switch.set(false)?;
        rb.consume().map_err(bpf_err("reading the event ring"))?;
    }
    drop(switch);
    Ok(count)
}

#[cfg(test)]
mod tests {
    #[test]
    fn the_unprivileged_flag_is_the_kernels_now_for_a_registered_instance() {
        let allowed = Some("reno cubic lb_open\n".to_string());
        // opened later (sysctl or made a default), though loaded restricted
        assert!(unprivileged_now(&allowed, "lb_open", true, false));
        // restricted again by the sysctl, though loaded with --unprivileged
        assert!(!unprivileged_now(&allowed, "lb_shut", true, true));
        // no prefix match
        assert!(!unprivileged_now(&allowed, "lb_ope", true, true));
        // unregistered (no longer listed), or the list unreadable: what load set
        assert!(unprivileged_now(&allowed, "lb_gone", false, true));
        assert!(!unprivileged_now(&None, "lb_open", true, false));
    }

    use super::*;

    #[test]
    fn names_the_kernel_accepts_pass() {
        for n in [
            "scavenger",
            "ledbat_md",
            "ci_ledbat_pp",
            "lb.t25",
            "A1_b.2",
            "x",
        ] {
            assert!(check_name(n).is_ok(), "{n}");
        }
        assert!(check_name("fifteen_chars_x").is_ok());
    }

    #[test]
    fn dash_plus_and_other_characters_are_refused_before_the_kernel_sees_them() {
        // bpf_obj_name_cpy accepts isalnum, `_` and `.` only: `ledbat-md` (the core's own
        // spelling) and `ledbat++` would fail with EINVAL inside libbpf
        for n in ["ledbat-md", "ledbat++", "a b", "é", "a/b", "a:b"] {
            let e = check_name(n).unwrap_err().to_string();
            assert!(
                e.contains("only ASCII letters, digits, `_` and `.`"),
                "{n}: {e}"
            );
        }
    }

    #[test]
    fn names_have_1_to_15_characters() {
        assert!(check_name("").is_err());
        let e = check_name("sixteen_chars_xx").unwrap_err().to_string();
        assert!(e.contains("1 to 15 characters"), "{e}");
    }

    fn inst(name: &str, registered: bool, map_id: u32) -> Instance {
        Instance {
            name: name.into(),
            controller: Some(
                TcpController::parse("scavenger", std::iter::empty::<&str>()).unwrap(),
            ),
            unprivileged: false,
            registered,
            map_id,
            stats_map_id: None,
            connections: 0,
            without_state: 0,
            words: None,
            trace_maps: None,
        }
    }

    #[test]
    fn a_name_selects_the_registered_instance_not_an_unregistered_one_held_by_sockets() {
        // map ids ascend with age: the unregistered `scavenger` (id 7, still held by live
        // connections) comes first in the kernel's order, the reloaded one (id 9) after
        let all = [inst("scavenger", false, 7), inst("scavenger", true, 9)];
        assert_eq!(find(&all, "scavenger").map(|i| i.map_id), Some(9));
        // only an unregistered one: nothing to select, unload or read by that name
        assert!(find(&all[..1], "scavenger").is_none());
        assert!(find(&all, "ledbat").is_none());
    }

    #[test]
    fn the_kernel_state_word_says_registered_or_held() {
        // the kernel's value: `refcnt` then `state`, 4 bytes each
        let layout = Layout {
            name: 0,
            init: 0,
            state: 4,
        };
        let value = |state: u32| {
            let mut v = 1u32.to_ne_bytes().to_vec();
            v.extend_from_slice(&state.to_ne_bytes());
            v
        };
        assert_eq!(registration(&value(1), &layout), Some(true));
        assert_eq!(registration(&value(3), &layout), Some(true));
        assert_eq!(registration(&value(2), &layout), Some(false));
        // INIT (a map never registered) and unknown states are not instances
        assert_eq!(registration(&value(0), &layout), None);
        assert_eq!(registration(&value(9), &layout), None);
        assert_eq!(registration(&[0, 0], &layout), None);
    }

    /// A parameter section as `load` writes it: the words, then the JSON description.
    fn section(words: Vec<u8>, desc: &[u8]) -> Vec<u8> {
        let mut v = words;
        v.extend_from_slice(desc);
        v.resize(crate::params::WORDS * 8 + DESC_LEN, 0);
        v
    }

    #[test]
    fn a_description_reads_back_only_from_this_versions_layout() {
        let c = TcpController::parse("ledbat", ["target=25ms"]).unwrap();
        let words = c.params().unwrap().to_bytes();
        let desc = serde_json::to_vec(&Desc {
            name: "lb_t25".into(),
            unprivileged: true,
            controller: c.clone(),
        })
        .unwrap();
        let d = read_desc(&section(words.clone(), &desc)).expect("this version's section");
        assert_eq!((d.name.as_str(), d.unprivileged), ("lb_t25", true));
        assert_eq!(d.controller, c);
        // another layout version (an older or newer binary), or zeroed words (the object
        // registered by another tool): no description, and `list` shows the instance as
        // another version's instead of skipping it
        let mut other = words.clone();
        other[8] ^= 1;
        assert!(read_desc(&section(other, &desc)).is_none());
        assert!(read_desc(&section(vec![0; words.len()], &desc)).is_none());
        // a description whose fields another version renamed
        let renamed = String::from_utf8(desc)
            .unwrap()
            .replace("\"name\"", "\"label\"");
        assert!(read_desc(&section(words, renamed.as_bytes())).is_none());
    }

    #[test]
    fn the_object_counts_connections_it_could_not_take_on() {
        // opening parses the ELF only: no privileges, no kernel
        let open = ObjectBuilder::default().open_memory(OBJECT).unwrap();
        let names: Vec<String> = open
            .maps()
            .map(|m| m.name().to_string_lossy().into_owned())
            .collect();
        assert!(names.iter().any(|n| n == "lb_no_state"), "{names:?}");
    }

    #[test]
    fn every_default_kernel_name_is_valid() {
        for (_, k) in crate::params::KERNEL_BUILDS {
            assert!(check_name(k).is_ok(), "{k}");
        }
    }
}
