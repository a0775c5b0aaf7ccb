//! `ledbat tcp run`, `attach`, `detach`: a congestion control for every TCP connection of
//! one program and its children, or of one cgroup (a systemd service's), through the sock_ops
//! selector of `ledbat_tcp::cgroup`.
//!
//! `run` moves its child into the new cgroup before the command executes: the child is this
//! binary again (`ledbat tcp cgroup-exec`, hidden), which writes its own pid to the cgroup's
//! `cgroup.procs` and then replaces itself with the command (`execvp`), so that the command's
//! first socket is already in the cgroup, as are the processes it starts (a network
//! namespace entered later, `ip netns exec`, does not change a process's cgroup).

use std::path::PathBuf;

/// Arguments of `ledbat tcp run`.
#[derive(clap::Args, Debug)]
pub struct RunArgs {
    /// The congestion control for every TCP connection of the command: one registered in
    /// the kernel, or one of ledbat's kernel builds (registered now, with its default
    /// parameters, if it is not yet).
    #[arg(long, default_value = "scavenger", value_name = "NAME")]
    pub cc: String,
    /// Kill processes the command leaves running in its cgroup when it exits (default: they
    /// are moved to ledbat's own cgroup, and named).
    #[arg(long)]
    pub kill: bool,
    #[command(flatten)]
    pub rl: RlArgs,
    /// Seconds the command gets to exit after a signal ledbat received (SIGINT, SIGTERM,
    /// SIGHUP) was passed on to it, before it is killed.
    #[arg(long, default_value_t = 10.0, value_name = "SECONDS")]
    pub grace: f64,
    /// The command and its arguments.
    #[arg(required = true, trailing_var_arg = true, allow_hyphen_values = true)]
    pub command: Vec<String>,
}

/// Arguments of `ledbat tcp attach`.
#[derive(clap::Args, Debug)]
pub struct AttachArgs {
    /// The cgroup: `self` (ledbat's own, for a systemd unit's `ExecStartPre=+`), a path
    /// from the cgroup-v2 root (`system.slice/restic.service`), or a directory under it.
    #[arg(long, value_name = "PATH")]
    pub cgroup: String,
    /// The congestion control (as for `ledbat tcp run`).
    #[arg(long, default_value = "scavenger", value_name = "NAME")]
    pub cc: String,
    #[command(flatten)]
    pub rl: RlArgs,
}

/// Receiver-side LEDBAT options of `run` and `attach`.
#[derive(clap::Args, Debug)]
pub struct RlArgs {
    /// Also clamp the receive window of every connection (receiver-side LEDBAT): remote
    /// senders yield to other traffic on this side's downlink, whatever their controller.
    #[arg(long)]
    pub rledbat: bool,
    /// A receiver-side LEDBAT parameter: target=60ms, slowdowns=true, slowdown_backoff=1
    /// (to 64), signal=owd|rtt, max_window=BYTES, publish_interval_ms=100 (0 to 1000, how
    /// often rstats' figures are refreshed; 0: every segment), empty_queue_restart=false,
    /// window_validation=false,
    /// standing_probe_span=max|sum, standing_probe_rtts=8 (0 to 16; the uTP receiver's 0),
    /// rtt_fall=true (the uTP receiver's false),
    /// competitor.enabled=false (and the other competitor.*
    /// keys of ledbat-core); repeatable (implies --rledbat).
    #[arg(long = "rledbat-param", value_name = "KEY=VALUE")]
    pub params: Vec<String>,
}

impl RlArgs {
    /// The configuration, when asked for.
    pub fn config(&self) -> anyhow::Result<Option<ledbat_tcp::rledbat::RlConfig>> {
        if !self.rledbat && self.params.is_empty() {
            return Ok(None);
        }
        Ok(Some(ledbat_tcp::rledbat::RlConfig::parse(
            self.params.iter().map(String::as_str),
        )?))
    }
}

/// Arguments of `ledbat tcp rstats`.
#[derive(clap::Args, Debug)]
pub struct RstatsArgs {
    /// Print JSON.
    #[arg(long)]
    pub json: bool,
    /// Repeat every this many seconds until interrupted (a connection's figures change as
    /// often as its `publish_interval_ms`, 100 ms by default).
    #[arg(long, value_name = "SECONDS")]
    pub watch: Option<f64>,
}

/// Arguments of `ledbat tcp detach`.
#[derive(clap::Args, Debug)]
pub struct DetachArgs {
    /// The cgroup given to `ledbat tcp attach` (it need not exist any more).
    #[arg(long, value_name = "PATH")]
    pub cgroup: String,
}

/// Arguments of the hidden `ledbat tcp cgroup-exec`: join a cgroup, then execute.
#[derive(clap::Args, Debug)]
pub struct ExecArgs {
    /// The cgroup directory to join.
    #[arg(long)]
    pub cgroup: PathBuf,
    /// The command and its arguments.
    #[arg(required = true, trailing_var_arg = true, allow_hyphen_values = true)]
    pub command: Vec<String>,
}

/// `ledbat tcp cgroup-exec`: the child of `ledbat tcp run`. Joins the cgroup and becomes the
/// command; returns only on failure, with a shell's statuses (126: cannot execute, 127: not
/// found).
pub fn cgroup_exec(a: &ExecArgs) -> anyhow::Result<()> {
    use std::os::unix::process::CommandExt;
    ledbat_tcp::cgroup::enter(&a.cgroup, std::process::id())?;
    let err = std::process::Command::new(&a.command[0])
        .args(&a.command[1..])
        .exec();
    eprintln!("ledbat tcp run: cannot run `{}`: {err}", a.command[0]);
    std::process::exit(if err.kind() == std::io::ErrorKind::NotFound {
        127
    } else {
        126
    });
}

/// Arguments of `ledbat tcp cgroup-reap` (internal).
#[derive(clap::Args, Debug)]
pub struct ReapArgs {
    /// The cgroup directory of the `run` that started this reaper.
    #[arg(long)]
    pub cgroup: PathBuf,
    /// Kill the processes left in it rather than move them out (`run --kill`).
    #[arg(long)]
    pub kill: bool,
}

#[cfg(not(feature = "tcp"))]
pub use off::*;

#[cfg(not(feature = "tcp"))]
mod off {
    use super::*;

    fn missing() -> anyhow::Error {
        anyhow::anyhow!(
            "this ledbat was built without kernel TCP support: rebuild it with `cargo build \
             --release -p ledbat-cli --features tcp` (needs clang, libelf-dev and zlib1g-dev)"
        )
    }

    /// `ledbat tcp run` in a build without the BPF parts (the parameters are checked).
    pub fn run(a: &RunArgs) -> anyhow::Result<()> {
        a.rl.config()?;
        Err(missing())
    }
    /// `ledbat tcp attach` in a build without the BPF parts (the parameters are checked).
    pub fn attach(a: &AttachArgs) -> anyhow::Result<()> {
        a.rl.config()?;
        Err(missing())
    }
    /// `ledbat tcp detach` in a build without the BPF parts.
    pub fn detach(_: &DetachArgs) -> anyhow::Result<()> {
        Err(missing())
    }
    /// `ledbat tcp rstats` in a build without the BPF parts.
    pub fn rstats(_: &RstatsArgs) -> anyhow::Result<()> {
        Err(missing())
    }
    /// `ledbat tcp cgroup-reap` in a build without the BPF parts.
    pub fn cgroup_reap(_: &ReapArgs) -> anyhow::Result<()> {
        Err(missing())
    }
}

#[cfg(feature = "tcp")]
pub use on::*;

#[cfg(feature = "tcp")]
mod on {
    use super::*;
    use anyhow::Context;
    use ledbat_tcp::cgroup::{self as cg, RunCgroup};
    use std::sync::atomic::{AtomicI32, Ordering};
    use std::sync::Arc;
    use std::time::{Duration, Instant};

    /// Makes sure `name` is registered; says so when it registered it now.
    fn ensure(name: &str) -> anyhow::Result<String> {
        let (kernel, loaded) = cg::ensure_cc(name)?;
        if let Some(i) = loaded {
            eprintln!(
                "ledbat: registered `{}` ({}, default parameters); it stays registered \
                 (`ledbat tcp unload {0}`)",
                i.name,
                i.controller
                    .as_ref()
                    .map_or("another ledbat version's build", |c| c.name())
            );
        }
        Ok(kernel)
    }

    /// The last of SIGINT, SIGTERM and SIGHUP received (0: none yet), from a watcher thread.
    fn signal_watch() -> anyhow::Result<Arc<AtomicI32>> {
        use tokio::signal::unix::{signal, SignalKind};
        let got = Arc::new(AtomicI32::new(0));
        let set = got.clone();
        let rt = tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
            .context("starting the signal watcher")?;
        let (tx, rx) = std::sync::mpsc::channel();
        std::thread::spawn(move || {
            rt.block_on(async move {
                let (Ok(mut int), Ok(mut term), Ok(mut hup)) = (
                    signal(SignalKind::interrupt()),
                    signal(SignalKind::terminate()),
                    signal(SignalKind::hangup()),
                ) else {
                    let _ = tx.send(false);
                    return;
                };
                let _ = tx.send(true);
                loop {
                    let n = tokio::select! {
                        _ = int.recv() => 2,
                        _ = term.recv() => 15,
                        _ = hup.recv() => 1,
                    };
                    set.store(n, Ordering::SeqCst);
                }
            });
        });
        anyhow::ensure!(
            rx.recv_timeout(Duration::from_secs(5)).unwrap_or(false),
            "could not install the signal handlers"
        );
        Ok(got)
    }

    /// `ledbat tcp run`: never returns on success (exits with the command's status).
    pub fn run(a: &RunArgs) -> anyhow::Result<()> {
        anyhow::ensure!(
            a.grace >= 0.0 && a.grace.is_finite(),
            "--grace needs a number of seconds, 0 or more"
        );
        crate::tcp_cmd::require(&ledbat_tcp::preflight::ATTACH)?;
        let code = supervise(a)?;
        std::process::exit(code);
    }

    /// Everything of `run` that holds resources: they are released (programs detached,
    /// cgroup removed) when this returns, whichever way.
    fn supervise(a: &RunArgs) -> anyhow::Result<i32> {
        let rl = a.rl.config()?;
        let cc = ensure(&a.cc)?;
        let mount = cg::cgroup2_mount()?;
        let exe = std::env::current_exe().context("finding ledbat's own executable")?;
        // started first, so that it is dropped last: its pipe closes after the cgroup did
        let reaper = Reaper::start(
            &exe,
            &cg::run_cgroup_path(&mount, std::process::id()),
            a.kill,
        )?;
        let mut group = RunCgroup::create(&mount, std::process::id(), a.kill)
            .context("ledbat tcp run needs root (CAP_SYS_ADMIN for the cgroup, CAP_BPF and CAP_NET_ADMIN for the program)")?;
        let att = cg::attach(group.dir(), &cc, rl.as_ref())?;
        let signals = signal_watch()?;
        let mut child = std::process::Command::new(exe)
            .args(["tcp", "cgroup-exec", "--cgroup"])
            .arg(group.dir())
            .arg("--")
            .args(&a.command)
            .spawn()
            .context("starting the command")?;
        let pid = child.id();
        let mut kill_at: Option<Instant> = None;
        let status = loop {
            if let Some(s) = child.try_wait().context("waiting for the command")? {
                break s;
            }
            let sig = signals.swap(0, Ordering::SeqCst);
            if sig != 0 {
                // a terminal's Ctrl-C went to the whole foreground group, the command too
                if !(sig == 2 && cg::terminal_foreground()) {
                    cg::signal(pid, sig);
                }
                kill_at.get_or_insert(Instant::now() + Duration::from_secs_f64(a.grace));
            }
            if kill_at.is_some_and(|t| Instant::now() >= t) {
                eprintln!(
                    "ledbat: `{}` did not exit within {} s of the signal: killing it",
                    a.command[0], a.grace
                );
                let _ = child.kill();
                kill_at = Some(Instant::now() + Duration::from_secs(3600));
            }
            std::thread::sleep(Duration::from_millis(20));
        };
        let counts = att.counts();
        let rl_counts = att.rl_counts();
        drop(att);
        let report = group.close();
        reaper.finish();
        if let Some(left) = report.left_summary() {
            let advice = if report.killed {
                String::new()
            } else {
                format!(
                    " (their open connections keep `{cc}`, new ones get the system's default; \
                     --kill ends them instead)"
                )
            };
            eprintln!("ledbat: `{}` exited; {left}{advice}", a.command[0]);
        }
        if !report.removed {
            eprintln!(
                "ledbat: warning: the cgroup {} could not be removed",
                group.dir().display()
            );
        }
        if let Some(r) = rl_counts {
            if r.errors > 0 {
                eprintln!(
                    "ledbat: warning: the kernel refused {} window clamp(s) (error {})",
                    r.errors, r.last_error
                );
            }
        }
        if counts.errors > 0 {
            eprintln!(
                "ledbat: warning: the kernel refused `{cc}` for {} socket(s) (error {})",
                counts.errors, counts.last_error
            );
        }
        use std::os::unix::process::ExitStatusExt;
        Ok(cg::exit_code(status.code(), status.signal()))
    }

    /// The reaper of one `run`: `ledbat tcp cgroup-reap` in a process group of its own (a
    /// terminal's Ctrl-C does not reach it) and outside the cgroup, reading a pipe whose
    /// other end only this process holds. The pipe closes when this process exits, however
    /// it exits; the reaper then closes the cgroup if it is still there, that is after a
    /// SIGKILL to ledbat.
    struct Reaper {
        child: std::process::Child,
    }

    impl Reaper {
        fn start(exe: &std::path::Path, dir: &std::path::Path, kill: bool) -> anyhow::Result<Self> {
            use std::os::unix::process::CommandExt;
            use std::process::Stdio;
            let mut cmd = std::process::Command::new(exe);
            cmd.args(["tcp", "cgroup-reap", "--cgroup"]).arg(dir);
            if kill {
                cmd.arg("--kill");
            }
            let child = cmd
                .stdin(Stdio::piped())
                .stdout(Stdio::null())
                .process_group(0)
                .spawn()
                .context("starting the cgroup's reaper")?;
            Ok(Reaper { child })
        }

        /// After the cgroup is closed: the pipe closes, the reaper finds nothing to do and
        /// exits; waited for (at most 2 s) so that no process of the run outlives it.
        fn finish(mut self) {
            drop(self.child.stdin.take());
            let until = Instant::now() + Duration::from_secs(2);
            while Instant::now() < until {
                if let Ok(Some(_)) = self.child.try_wait() {
                    return;
                }
                std::thread::sleep(Duration::from_millis(5));
            }
        }
    }

    /// `ledbat tcp cgroup-reap`: waits until the `run` that started it exits (its standard
    /// input closes), then closes the run's cgroup if it is still there.
    pub fn cgroup_reap(a: &ReapArgs) -> anyhow::Result<()> {
        use std::io::{Read, Write};
        // in a background group of its own, it reports on the terminal all the same
        cg::write_to_terminal_from_background();
        let mut sink = [0u8; 64];
        let mut stdin = std::io::stdin().lock();
        // nothing is written: a read returns 0 at the end, or fails when stdin is gone
        while let Ok(n) = stdin.read(&mut sink) {
            if n == 0 {
                break;
            }
        }
        let mount = cg::cgroup2_mount()?;
        let Some(mut group) = RunCgroup::adopt(&mount, &a.cgroup, a.kill) else {
            return Ok(());
        };
        let report = group.close();
        let what = report
            .left_summary()
            .map(|left| format!("; {left}"))
            .unwrap_or_default();
        // a report that cannot be written (the terminal gone) must not end in a panic
        let _ = writeln!(
            std::io::stderr(),
            "ledbat: `ledbat tcp run` ended without closing its cgroup (killed?); {} {}{what}",
            a.cgroup.display(),
            if report.removed {
                "removed"
            } else {
                "could not be removed"
            }
        );
        anyhow::ensure!(report.removed, "the cgroup {} is left", a.cgroup.display());
        Ok(())
    }

    fn resolve(spec: &str) -> anyhow::Result<(PathBuf, PathBuf)> {
        let mount = cg::cgroup2_mount()?;
        let own = std::fs::read_to_string("/proc/self/cgroup").unwrap_or_default();
        let dir = cg::resolve_cgroup(&mount, spec, cg::own_cgroup_from(&own))?;
        Ok((mount, dir))
    }

    /// `ledbat tcp attach`.
    pub fn attach(a: &AttachArgs) -> anyhow::Result<()> {
        let rl = a.rl.config()?;
        crate::tcp_cmd::require(&ledbat_tcp::preflight::ATTACH)?;
        let (mount, dir) = resolve(&a.cgroup)?;
        cg::check_cgroup(&mount, &dir)?;
        let cc = ensure(&a.cc)?;
        let pins = cg::pin_dir(&mount, &dir)?;
        let pinned = cg::attach(&dir, &cc, rl.as_ref())?.pin(&pins)?;
        crate::support::outln!(
            "attached to {}: `{cc}` for every TCP connection of its processes{} (pinned: {}; \
             `ledbat tcp detach --cgroup {}` removes it)",
            dir.display(),
            rl.map_or(String::new(), |r| format!(
                ", and receiver-side LEDBAT ({})",
                r.describe()
            )),
            pinned
                .iter()
                .map(|p| p.display().to_string())
                .collect::<Vec<_>>()
                .join(", "),
            a.cgroup
        );
        Ok(())
    }

    /// `ledbat tcp detach`.
    pub fn detach(a: &DetachArgs) -> anyhow::Result<()> {
        crate::tcp_cmd::require(&ledbat_tcp::preflight::ATTACH)?;
        let (mount, dir) = resolve(&a.cgroup)?;
        let pins = cg::pin_dir(&mount, &dir)?;
        let removed = cg::detach_pinned(&dir, &pins)?;
        crate::support::outln!(
            "detached from {} ({} program(s))",
            dir.display(),
            removed.len()
        );
        Ok(())
    }

    /// `ledbat tcp rstats`: the connections receiver-side LEDBAT clamps now.
    pub fn rstats(a: &RstatsArgs) -> anyhow::Result<()> {
        use crate::support::outln;
        crate::tcp_cmd::require(&ledbat_tcp::preflight::INSPECT)?;
        let ms = |ns: u64| format!("{:.1}ms", ns as f64 / 1e6);
        loop {
            let flows = ledbat_tcp::rledbat::flows();
            if a.json {
                outln!("{}", serde_json::to_string(&flows)?);
            } else {
                outln!(
                    "{:<22} {:<22} {:>9} {:>9} {:>8} {:>8} {:>8} {:>5} {:>4} {:>4} {:>11} phase/signal",
                    "local",
                    "remote",
                    "window",
                    "clamp",
                    "queue",
                    "rtt",
                    "base",
                    "loss",
                    "slow",
                    "rest",
                    "yld/tst/hld"
                );
                for f in &flows {
                    outln!(
                        "{:<22} {:<22} {:>9} {:>9} {:>8} {:>8} {:>8} {:>5} {:>4} {:>4} {:>11} {}/{}",
                        f.local.to_string(),
                        f.remote.to_string(),
                        f.window,
                        f.clamp,
                        ms(f.qd_ns),
                        ms(f.rtt_ns),
                        ms(f.base_rtt_ns),
                        f.losses,
                        f.slowdowns,
                        f.restarts,
                        format!("{}/{}/{}", f.detections, f.tests, f.test_holds),
                        ["slow-start", "avoidance", "slowdown", "restart", "yielding"]
                            .get(f.phase as usize)
                            .unwrap_or(&"?"),
                        serde_json::to_value(f.signal)?.as_str().unwrap_or("?")
                    );
                }
            }
            let Some(s) = a.watch else { return Ok(()) };
            anyhow::ensure!(
                s > 0.0 && s.is_finite(),
                "--watch needs a positive number of seconds"
            );
            std::thread::sleep(Duration::from_secs_f64(s));
        }
    }
}
