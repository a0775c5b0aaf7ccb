//! What every subcommand shares: the async runtime, progress bars, standard output that
//! survives a closed pipe, and atomic writes (`ledbat_repro::atomic`, which the run cache
//! uses too: complete files renamed into place, never half-written under the final name).

use anyhow::{Context, Result};
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use std::time::Instant as WallClock;

/// `println!` for the CLI's standard output: when the reader has gone (`ledbat controllers
/// | head`) the program ends quietly with status 0, as a C program would on SIGPIPE,
/// instead of panicking; any other write error ends it with status 1.
macro_rules! outln {
    () => {
        $crate::support::out_line(format_args!(""))
    };
    ($($arg:tt)*) => {
        $crate::support::out_line(format_args!($($arg)*))
    };
}
pub(crate) use outln;

/// Writes one line to standard output (see [`outln`]).
pub fn out_line(line: std::fmt::Arguments<'_>) {
    use std::io::Write;
    if let Err(e) = writeln!(std::io::stdout().lock(), "{line}") {
        if e.kind() == std::io::ErrorKind::BrokenPipe {
            std::process::exit(0);
        }
        eprintln!("error: writing to standard output: {e}");
        std::process::exit(1);
    }
}

/// The single-threaded tokio runtime the network commands run on.
pub fn runtime() -> Result<tokio::runtime::Runtime> {
    tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .context("starting the async runtime")
}

/// A byte-counting progress bar on stderr (hidden when `quiet`): a bar when the total is
/// known, a spinner otherwise.
pub fn transfer_bar(total: Option<u64>, quiet: bool) -> ProgressBar {
    let target = if quiet {
        ProgressDrawTarget::hidden()
    } else {
        ProgressDrawTarget::stderr_with_hz(5)
    };
    let pb = ProgressBar::with_draw_target(total, target);
    let template = if total.is_some() {
        "{bar:30} {bytes}/{total_bytes} {binary_bytes_per_sec} {msg}"
    } else {
        "{spinner} up {bytes} {binary_bytes_per_sec} {msg}"
    };
    pb.set_style(ProgressStyle::with_template(template).expect("valid template"));
    pb
}

/// A one-line status on stderr (hidden when `quiet`): a spinner, `msg` and the time spent.
pub fn status_spinner(msg: String, quiet: bool) -> ProgressBar {
    let pb = ProgressBar::with_draw_target(None, ProgressDrawTarget::stderr_with_hz(5));
    if quiet {
        pb.set_draw_target(ProgressDrawTarget::hidden());
    }
    pb.set_style(
        ProgressStyle::with_template("{spinner} {msg} ({elapsed})").expect("valid template"),
    );
    pb.set_message(msg);
    pb.enable_steady_tick(std::time::Duration::from_millis(200));
    pb
}

/// A progress bar that appears only once the work has taken more than a second, so quick
/// commands print nothing but their result.
pub struct LateBar {
    bar: ProgressBar,
    started: WallClock,
    shown: bool,
}

impl LateBar {
    /// A hidden bar of `len` steps drawn with `template` once it is shown.
    pub fn new(len: u64, template: &str) -> Self {
        let bar = ProgressBar::with_draw_target(Some(len), ProgressDrawTarget::hidden());
        if let Ok(style) = ProgressStyle::with_template(template) {
            bar.set_style(style);
        }
        LateBar {
            bar,
            started: WallClock::now(),
            shown: false,
        }
    }

    /// Moves the bar to `pos`, showing it if the work has run for more than a second.
    pub fn set(&mut self, pos: u64) {
        if !self.shown && self.started.elapsed().as_secs_f64() > 1.0 {
            self.bar.set_draw_target(ProgressDrawTarget::stderr());
            self.shown = true;
        }
        self.bar.set_position(pos);
    }

    /// Clears the bar if it was shown.
    pub fn finish(&self) {
        if self.shown {
            self.bar.finish_and_clear();
        }
    }
}

/// Resolves on Ctrl-C (SIGINT) or SIGTERM: the end of a command that runs until told to stop.
pub async fn shutdown_signal() {
    use tokio::signal::unix::{signal, SignalKind};
    let Ok(mut term) = signal(SignalKind::terminate()) else {
        return std::future::pending().await;
    };
    tokio::select! {
        _ = tokio::signal::ctrl_c() => {}
        _ = term.recv() => {}
    }
}

/// A flag set when [`shutdown_signal`] fires, for loops that are not async (a watcher
/// thread with its own small runtime). Used by `ledbat tcp trace` (the `tcp` feature).
#[cfg_attr(not(feature = "tcp"), allow(dead_code))]
pub fn stop_flag() -> Result<std::sync::Arc<std::sync::atomic::AtomicBool>> {
    use std::sync::atomic::{AtomicBool, Ordering};
    let flag = std::sync::Arc::new(AtomicBool::new(false));
    let set = flag.clone();
    let rt = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .context("starting the signal watcher")?;
    std::thread::spawn(move || {
        rt.block_on(shutdown_signal());
        set.store(true, Ordering::SeqCst);
    });
    Ok(flag)
}

/// Atomic writes (moved to `ledbat_repro::atomic` so that the run cache shares them).
pub use ledbat_repro::atomic::{write_dir_atomically, write_file_atomically, TempPath};
