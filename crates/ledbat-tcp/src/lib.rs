//! `ledbat-tcp`: the controllers of ledbat-core as Linux TCP congestion controls, so that any
//! TCP program (rsync, scp, apt, a backup tool) yields to everything else.
//!
//! A congestion control here is a BPF `struct tcp_congestion_ops` registered through
//! `bpf_tcp_ca` (Linux 5.12+ with BTF, [`preflight::MIN_KERNEL`]; no module, nothing
//! compiled against the running kernel): applications select it by name like reno or cubic (`setsockopt(TCP_CONGESTION)`,
//! `ip route ... congctl NAME`, `sysctl net.ipv4.tcp_congestion_control`, `iperf3 -C NAME`).
//! Kernel builds exist for `ledbat` (RFC 6817) and seed 002's decrease schemes
//! (`ledbat-linear-min`, `ledbat-md`, `ledbat-mdvar`), `ledbat++`, the `scavenger` preset and
//! `tcp-lp` ([`params::KERNEL_BUILDS`]), each loadable several times under its own name with
//! its own parameters.
//!
//! **One source of truth.** The window arithmetic is written once, in C without floating
//! point (`csrc/lbcc*.h`, 32.32 fixed point), mirroring ledbat-core function by function; the
//! same headers are compiled into the BPF object and, for the host, into the replay tool the
//! differential test drives side by side with ledbat-core on the same traces
//! (`tests/differential`). `bpf/ledbat.bpf.c` only turns the kernel's callbacks into the
//! controller's events (its module comment lists what the kernel cannot do as the core's
//! other drivers do).
//!
//! - [`params`]: a core configuration and the delay signal to the words the object reads;
//! - [`stats`]: the per-connection entries the object publishes for `ledbat tcp stats`;
//! - [`trace`]: controller events, the kernel's event trace and its replay through the core
//!   (`ledbat tcp trace` and `ledbat tcp check`);
//! - [`preflight`]: the kernel version, BTF and capability checks every command that
//!   touches BPF runs first;
//! - `loader` (feature `bpf`, default, Linux only): load, list, unload and read statistics
//!   through libbpf;
//! - [`cgroup`]: per-application selection, a sock_ops program on a cgroup-v2 directory that
//!   gives every TCP socket of its processes a congestion control (`ledbat tcp run`,
//!   `ledbat tcp attach`); its pure parts (mountinfo, paths, exit status) in every build;
//! - [`rledbat`]: receiver-side LEDBAT, a sock_ops program that clamps the receive window of
//!   a cgroup's connections (the arithmetic `csrc/rledbat.h`, checked against the uTP
//!   receiver), attached beside the selector.
//!
//! The BPF objects are committed (`bpf/NAME.bpf.o`, built by clang `-target bpf` from
//! `bpf/NAME.bpf.c`), so building needs no clang; build.rs compiles them again when a source
//! changed or `LEDBAT_BPF_REBUILD=1` asks, and CI checks that a rebuild gives the committed
//! bytes. The loader links libbpf (vendored by libbpf-sys) and the system's libelf
//! (linked dynamically) and zlib (Debian: libelf-dev). The differential test needs only the host C
//! compiler.

pub mod cgroup;
mod layout;
pub mod params;
pub mod preflight;
pub mod rledbat;
pub mod stats;
pub mod trace;

#[cfg(all(feature = "bpf", target_os = "linux"))]
pub mod loader;

/// build.rs's decision between a committed BPF object and a clang build, tested here.
#[cfg(test)]
#[path = "../build/plan.rs"]
mod build_plan;

/// Path of the host replay tool built by build.rs (the controller arithmetic compiled for
/// this machine; see `csrc/replay.c` for its input and output).
pub const REPLAY_TOOL: &str = env!("LBCC_REPLAY");

/// Path of rLEDBAT's host replay tool built by build.rs (`csrc/rledbat.h` compiled for this
/// machine; see `csrc/rl_replay.c`).
pub const RL_REPLAY_TOOL: &str = env!("RL_REPLAY");

/// Path of the competitor detection's host replay tool built by build.rs
/// (`csrc/lbcc_competitor.h` compiled for this machine; see `csrc/comp_replay.c`).
pub const COMP_REPLAY_TOOL: &str = env!("COMP_REPLAY");
