//! `ledbat tcp`: the controllers as Linux TCP congestion controls (crate `ledbat-tcp`).
//!
//! Parameters are checked in every build; loading needs Linux and the `tcp` feature (on by
//! default: the committed BPF objects and libbpf), and a binary without them says so. Every
//! command that touches BPF first runs [`require`]: kernel version, BTF, capabilities.

use ledbat_tcp::params::{TcpController, KERNEL_BUILDS};
use ledbat_tcp::preflight::{self, Need};

/// The checks to run before touching BPF for an operation that needs `need`
/// ([`preflight::REGISTER`] or [`preflight::INSPECT`]): one line naming what is missing.
#[cfg_attr(not(all(feature = "tcp", target_os = "linux")), allow(dead_code))]
pub fn require(need: &Need) -> anyhow::Result<()> {
    preflight::check(need).map_err(anyhow::Error::from)
}

mod cgroup;

/// Arguments of `ledbat tcp`.
#[derive(clap::Args, Debug)]
pub struct Args {
    #[command(subcommand)]
    command: Cmd,
}

#[derive(clap::Subcommand, Debug)]
enum Cmd {
    /// Register a controller as a TCP congestion control any program can select by name.
    Load(LoadArgs),
    /// The controllers registered by ledbat, with their parameters.
    List(ListArgs),
    /// Unregister controllers (connections using them keep them until they close).
    Unload(UnloadArgs),
    /// Per connection: window, base and current delay, queuing delay, slowdowns.
    Stats(StatsArgs),
    /// Record every event a controller gives its connections, with the window after each.
    Trace(TraceArgs),
    /// Replay a trace through ledbat-core and compare the windows, event by event.
    Check(CheckArgs),
    /// Run a command with a congestion control for every TCP connection it and its
    /// children open (a cgroup of its own; removed when it exits).
    Run(cgroup::RunArgs),
    /// Give every TCP connection of a cgroup (a systemd service's) a congestion control,
    /// until `detach`.
    Attach(cgroup::AttachArgs),
    /// Undo `attach`.
    Detach(cgroup::DetachArgs),
    /// Per connection: the receive window receiver-side LEDBAT allows, queue, RTT.
    Rstats(cgroup::RstatsArgs),
    /// (internal: the child of `run`) join a cgroup, then execute a command.
    #[command(hide = true)]
    CgroupExec(cgroup::ExecArgs),
    /// (internal: started by `run`) close `run`'s cgroup if `run` is killed.
    #[command(hide = true)]
    CgroupReap(cgroup::ReapArgs),
}

#[derive(clap::Args, Debug)]
struct LoadArgs {
    /// The controller: ledbat, ledbat-linear-min, ledbat-md, ledbat-mdvar, ledbat++,
    /// scavenger or tcp-lp.
    controller: String,
    /// A parameter (`key=value`, the names `ledbat controllers NAME` shows, plus
    /// `signal=owd|rtt`); repeatable.
    #[arg(long = "param", value_name = "KEY=VALUE")]
    params: Vec<String>,
    /// The name to register under (default: the controller's, e.g. `scavenger`,
    /// `ledbat_md`): 1 to 15 ASCII letters, digits, `_` and `.`, as the kernel accepts.
    #[arg(long = "as", value_name = "NAME")]
    name: Option<String>,
    /// Let unprivileged programs select it with setsockopt(TCP_CONGESTION) (routes and the
    /// sysctl default need no such permission).
    #[arg(long)]
    unprivileged: bool,
    /// Succeed without loading when ledbat registered NAME already with the same controller
    /// and parameters (a boot unit run again); still fail when NAME is another controller
    /// or program's, or ours with other parameters. An instance of ours unloaded but still
    /// held by connections is not registered: a new one is loaded.
    #[arg(long)]
    if_absent: bool,
    /// Print JSON.
    #[arg(long)]
    json: bool,
}

#[derive(clap::Args, Debug)]
struct ListArgs {
    /// Print JSON.
    #[arg(long)]
    json: bool,
}

#[derive(clap::Args, Debug)]
struct UnloadArgs {
    /// Names to unregister.
    #[arg(required_unless_present = "all")]
    names: Vec<String>,
    /// Unregister every controller ledbat registered.
    #[arg(long, conflicts_with = "names")]
    all: bool,
}

#[derive(clap::Args, Debug)]
struct StatsArgs {
    /// Only connections using this controller.
    name: Option<String>,
    /// Print JSON.
    #[arg(long)]
    json: bool,
    /// Repeat every this many seconds until interrupted.
    #[arg(long, value_name = "SECONDS")]
    watch: Option<f64>,
}

#[derive(clap::Args, Debug)]
struct TraceArgs {
    /// The controller's kernel name.
    name: String,
    /// Where to write the trace (JSON lines: a header, then one event per line).
    #[arg(long, short)]
    out: std::path::PathBuf,
    /// Stop after this many seconds (default: at Ctrl-C).
    #[arg(long)]
    seconds: Option<f64>,
}

#[derive(clap::Args, Debug)]
struct CheckArgs {
    /// A trace written by `ledbat tcp trace`.
    file: std::path::PathBuf,
    /// Largest difference of the fractional windows counted as agreement, bytes.
    #[arg(long, default_value_t = 1e-3)]
    tolerance: f64,
    /// Print JSON.
    #[arg(long)]
    json: bool,
}

/// `ledbat tcp check`: needs no kernel support, only the trace.
fn check(a: &CheckArgs) -> anyhow::Result<()> {
    use anyhow::Context;
    use ledbat_tcp::trace::{check, parse};
    let text = std::fs::read_to_string(&a.file)
        .with_context(|| format!("reading {}", a.file.display()))?;
    let (head, records) = parse(&text).with_context(|| format!("{}", a.file.display()))?;
    let res = check(&head.controller, &records, a.tolerance);
    let bad = res.iter().filter(|c| c.mismatches > 0).count();
    if a.json {
        crate::support::outln!("{}", serde_json::to_string_pretty(&res)?);
    } else {
        for c in &res {
            crate::support::outln!(
                "{}:{} -> {}: {} events, largest window difference {:.3e} bytes, {} mismatch(es){}{}",
                head.instance,
                c.ports.0,
                c.ports.1,
                c.events,
                c.max_diff,
                c.mismatches,
                c.first_mismatch.as_ref().map_or(String::new(), |m| format!("; first: {m}")),
                c.stopped.as_ref().map_or(String::new(), |m| format!("; stopped: {m}"))
            );
        }
    }
    anyhow::ensure!(
        !res.is_empty(),
        "no connection of the trace starts inside it"
    );
    anyhow::ensure!(bad == 0, "{bad} connection(s) differ from ledbat-core");
    Ok(())
}

/// Runs `ledbat tcp`.
pub fn run(a: Args) -> anyhow::Result<()> {
    if let Cmd::Load(l) = &a.command {
        // the parameters are checked whatever the build
        let c = TcpController::parse(&l.controller, l.params.iter().map(String::as_str))?;
        let name = l.name.as_deref().unwrap_or(c.default_kernel_name());
        return imp::load(&c, name, l.unprivileged, l.if_absent, l.json);
    }
    match a.command {
        Cmd::Load(_) => unreachable!("handled above"),
        Cmd::Check(c) => check(&c),
        Cmd::Trace(t) => imp::trace(&t),
        Cmd::List(l) => imp::list(l.json),
        Cmd::Unload(u) => imp::unload(&u.names, u.all),
        Cmd::Stats(s) => imp::stats(s.name.as_deref(), s.json, s.watch),
        Cmd::Run(r) => cgroup::run(&r),
        Cmd::Attach(a) => cgroup::attach(&a),
        Cmd::Detach(d) => cgroup::detach(&d),
        Cmd::Rstats(r) => cgroup::rstats(&r),
        Cmd::CgroupExec(e) => cgroup::cgroup_exec(&e),
        Cmd::CgroupReap(r) => cgroup::cgroup_reap(&r),
    }
}

/// The controllers with a kernel build and the names they register under.
fn builds() -> String {
    KERNEL_BUILDS
        .iter()
        .map(|(c, k)| format!("{c} (as {k})"))
        .collect::<Vec<_>>()
        .join(", ")
}

#[cfg(not(all(feature = "tcp", target_os = "linux")))]
mod imp {
    use super::*;

    fn missing() -> anyhow::Error {
        if cfg!(target_os = "linux") {
            anyhow::anyhow!(
                "this ledbat was built without kernel TCP support (`--no-default-features`): \
                 rebuild it with the default features, `cargo build --release -p ledbat-cli` \
                 (needs libelf-dev; kernel builds: {})",
                builds()
            )
        } else {
            anyhow::anyhow!(
                "kernel TCP congestion controls need Linux (BPF struct_ops); this ledbat was \
                 built for {} (kernel builds: {})",
                std::env::consts::OS,
                builds()
            )
        }
    }

    pub fn load(_: &TcpController, _: &str, _: bool, _: bool, _: bool) -> anyhow::Result<()> {
        Err(missing())
    }
    pub fn list(_: bool) -> anyhow::Result<()> {
        Err(missing())
    }
    pub fn unload(_: &[String], _: bool) -> anyhow::Result<()> {
        Err(missing())
    }
    pub fn stats(_: Option<&str>, _: bool, _: Option<f64>) -> anyhow::Result<()> {
        Err(missing())
    }
    pub fn trace(_: &TraceArgs) -> anyhow::Result<()> {
        Err(missing())
    }
}

#[cfg(all(feature = "tcp", target_os = "linux"))]
mod imp {
    use super::*;
    use crate::support::outln;
    use ledbat_tcp::loader::{self, Instance};
    use ledbat_tcp::stats::FlowStats;

    fn describe(i: &Instance) -> String {
        let Some(c) = &i.controller else {
            return "loaded by another version of ledbat, whose parameters this one cannot \
                    read: unload it and load it again"
                .into();
        };
        c.describe()
            .into_iter()
            .map(|(k, v)| format!("{k}={v}"))
            .collect::<Vec<_>>()
            .join(" ")
    }

    /// The note for connections the controller could not take on, if any.
    fn without_state(i: &Instance) -> String {
        if i.without_state == 0 {
            return String::new();
        }
        format!(
            ", {} connection(s) ran WITHOUT it (socket storage allocation failed: \
             Reno instead of the controller)",
            i.without_state
        )
    }

    pub fn load(
        c: &TcpController,
        name: &str,
        unprivileged: bool,
        if_absent: bool,
        json: bool,
    ) -> anyhow::Result<()> {
        loader::check_name(name)?;
        require(&preflight::REGISTER)?;
        let default_before = loader::default_control();
        let i = if if_absent {
            // finding what is registered needs what `list` needs
            require(&preflight::INSPECT)?;
            match loader::load_if_absent(c, name, unprivileged)? {
                loader::IfAbsent::Present(i) => {
                    if json {
                        outln!("{}", serde_json::to_string_pretty(&i)?);
                    } else {
                        outln!(
                            "`{}` is registered already by ledbat with these parameters \
                             ({}): nothing to do",
                            i.name,
                            c.name()
                        );
                    }
                    return Ok(());
                }
                loader::IfAbsent::Loaded { instance, held } => {
                    if held > 0 {
                        eprintln!(
                            "note: an earlier `{name}` of ledbat is unregistered but still held \
                             by connections; they keep it, new ones get this one"
                        );
                    }
                    instance
                }
            }
        } else {
            loader::load(c, name, unprivileged)?
        };
        if json {
            outln!("{}", serde_json::to_string_pretty(&i)?);
        } else {
            outln!(
                "registered `{}` ({}); select it with setsockopt(TCP_CONGESTION, \"{0}\"), \
                 `ip route ... congctl {0}`, or `sysctl net.ipv4.tcp_congestion_control={0}`{}",
                i.name,
                c.name(),
                if unprivileged {
                    ""
                } else {
                    " (privileged sockets only: --unprivileged opens it to every program)"
                }
            );
            outln!("parameters: {}", describe(&i));
        }
        if default_before.as_deref() == Some(name) {
            // the name was free, so the default holds an earlier, unregistered instance
            eprintln!(
                "warning: net.ipv4.tcp_congestion_control names `{name}` but still holds the \
                 earlier, unregistered `{name}`: set it again (`sysctl \
                 net.ipv4.tcp_congestion_control={name}`) for new connections to get this one"
            );
        }
        Ok(())
    }

    pub fn list(json: bool) -> anyhow::Result<()> {
        require(&preflight::INSPECT)?;
        let all = loader::list()?;
        if json {
            outln!("{}", serde_json::to_string_pretty(&all)?);
            return Ok(());
        }
        if all.is_empty() {
            outln!(
                "no controller of ledbat is registered (kernel builds: {})",
                builds()
            );
        }
        for i in &all {
            outln!(
                "{:<15} {:<18} {} connection(s){}{}{}",
                i.name,
                i.controller.as_ref().map_or("other version", |c| c.name()),
                i.connections,
                without_state(i),
                if i.unprivileged { ", unprivileged" } else { "" },
                if i.registered {
                    ""
                } else {
                    ", unregistered: kept until the connections using it close"
                }
            );
            outln!("{:<15} {}", "", describe(i));
        }
        Ok(())
    }

    pub fn unload(names: &[String], all: bool) -> anyhow::Result<()> {
        require(&preflight::INSPECT)?;
        let names: Vec<String> = if all {
            loader::list()?
                .into_iter()
                .filter(|i| i.registered)
                .map(|i| i.name)
                .collect()
        } else {
            names.to_vec()
        };
        let mut failed = Vec::new();
        for n in &names {
            match loader::unload(n) {
                Ok(i) => {
                    outln!(
                        "unregistered `{}`{}",
                        i.name,
                        if i.connections > 0 {
                            format!(
                                " ({} connection(s) keep it until they close)",
                                i.connections
                            )
                        } else {
                            String::new()
                        }
                    );
                    if loader::default_control().as_deref() == Some(i.name.as_str()) {
                        eprintln!(
                            "warning: net.ipv4.tcp_congestion_control still names `{0}`: new \
                             connections in this network namespace keep getting the \
                             unregistered `{0}`, with its old parameters, until the sysctl is \
                             set again (e.g. `sysctl net.ipv4.tcp_congestion_control=cubic`)",
                            i.name
                        );
                    }
                }
                Err(e) => {
                    eprintln!("error: {e}");
                    failed.push(n.clone());
                }
            }
        }
        anyhow::ensure!(
            failed.is_empty(),
            "could not unregister {}",
            failed.join(", ")
        );
        Ok(())
    }

    fn ms(ns: Option<u64>) -> String {
        ns.map_or("-".into(), |v| format!("{:.1}ms", v as f64 / 1e6))
    }

    fn row(name: &str, f: &FlowStats) -> String {
        let mut notes = Vec::new();
        if f.owd_unusable {
            notes.push("owd-unusable");
        }
        if f.no_timestamps {
            notes.push("no-timestamps");
        }
        if f.paused {
            notes.push("paused");
        }
        format!(
            "{:<14} {:<22} {:<22} {:<13} {:>5} {:>9} {:>9} {:>9} {:>9} {:>4} {:>3}/{:<3} {}",
            name,
            f.local.to_string(),
            f.remote.to_string(),
            f.phase,
            f.snd_cwnd,
            ms(f.base_ns),
            ms(f.current_ns),
            ms(f.queuing_ns),
            ms(Some(f.srtt_ns)),
            f.slowdowns,
            f.losses,
            f.timeouts,
            notes.join(",")
        )
    }

    pub fn stats(only: Option<&str>, json: bool, watch: Option<f64>) -> anyhow::Result<()> {
        require(&preflight::INSPECT)?;
        loop {
            let mut out: Vec<(String, FlowStats)> = Vec::new();
            let all = loader::list()?;
            let chosen: Vec<&Instance> = match only {
                Some(n) => {
                    let i = loader::find(&all, n).ok_or_else(|| {
                        anyhow::anyhow!("no congestion control named `{n}` is registered by ledbat")
                    })?;
                    anyhow::ensure!(
                        i.controller.is_some(),
                        "`{n}` was loaded by another version of ledbat, whose statistics this \
                         one cannot read"
                    );
                    vec![i]
                }
                // another version's statistics entries may have another layout
                None => all.iter().filter(|i| i.controller.is_some()).collect(),
            };
            for i in &chosen {
                if i.without_state > 0 && !json {
                    eprintln!("warning: `{}`{}", i.name, without_state(i));
                }
            }
            for i in chosen {
                for f in loader::flows(i)? {
                    out.push((i.name.clone(), f));
                }
            }
            if json {
                let v: Vec<serde_json::Value> = out
                    .iter()
                    .map(|(n, f)| serde_json::json!({ "controller": n, "flow": f }))
                    .collect();
                outln!("{}", serde_json::to_string(&v)?);
            } else {
                outln!(
                    "{:<14} {:<22} {:<22} {:<13} {:>5} {:>9} {:>9} {:>9} {:>9} {:>4} {:>7} notes",
                    "controller",
                    "local",
                    "remote",
                    "phase",
                    "cwnd",
                    "base",
                    "current",
                    "queue",
                    "srtt",
                    "slow",
                    "loss/rto"
                );
                for (n, f) in &out {
                    outln!("{}", row(n, f));
                }
            }
            let Some(s) = watch else { return Ok(()) };
            anyhow::ensure!(
                s > 0.0 && s.is_finite(),
                "--watch needs a positive number of seconds"
            );
            std::thread::sleep(std::time::Duration::from_secs_f64(s));
        }
    }

    pub fn trace(a: &TraceArgs) -> anyhow::Result<()> {
        use anyhow::Context;
        use std::io::Write;
        use std::sync::atomic::Ordering;
        require(&preflight::INSPECT)?;
        let all = loader::list()?;
        let inst = loader::find(&all, &a.name).cloned().ok_or_else(|| {
            anyhow::anyhow!(
                "no congestion control named `{}` is registered by ledbat",
                a.name
            )
        })?;
        let tmp = crate::support::TempPath::beside(&a.out)?;
        let file = std::fs::File::create(tmp.path())
            .with_context(|| format!("creating {}", tmp.path().display()))?;
        let mut w = std::io::BufWriter::new(file);
        serde_json::to_writer(
            &mut w,
            &ledbat_tcp::trace::TraceHeader {
                instance: inst.name.clone(),
                controller: inst.controller.clone().ok_or_else(|| {
                    anyhow::anyhow!(
                        "`{}` was loaded by another version of ledbat, whose events this one \
                         cannot read",
                        inst.name
                    )
                })?,
            },
        )?;
        writeln!(w)?;
        let stop = crate::support::stop_flag()?;
        let start = std::time::Instant::now();
        let limit = a.seconds.map(std::time::Duration::from_secs_f64);
        let mut err = None;
        let n = loader::trace(
            &inst,
            || stop.load(Ordering::SeqCst) || limit.is_some_and(|l| start.elapsed() >= l),
            |r| {
                if err.is_none() {
                    if let Err(e) = serde_json::to_writer(&mut w, &r)
                        .map_err(std::io::Error::from)
                        .and_then(|_| writeln!(w))
                    {
                        err = Some(e);
                    }
                }
            },
        )?;
        if let Some(e) = err {
            return Err(e).with_context(|| format!("writing {}", tmp.path().display()));
        }
        w.flush()?;
        drop(w);
        tmp.persist(&a.out)?;
        eprintln!(
            "{n} events of `{}` written to {}",
            inst.name,
            a.out.display()
        );
        Ok(())
    }
}
