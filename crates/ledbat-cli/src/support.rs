//! What every subcommand shares: the async runtime, progress bars, standard output that
//! survives a closed pipe, and atomic writes.
//!
//! Outputs are written under a hidden temporary name beside their destination
//! (`.NAME.tmp-PID`) and renamed into place only when complete, so a failed command leaves
//! nothing half-written under the final name. A [`TempPath`] that is dropped without being
//! persisted removes its file or directory.

use anyhow::{Context, Result};
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use std::path::{Path, PathBuf};
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

/// A hidden temporary path beside a destination, removed on drop unless persisted.
#[derive(Debug)]
pub struct TempPath {
    path: PathBuf,
    keep: bool,
}

impl TempPath {
    /// `.NAME.tmp-PID` in the directory of `dest` (created if missing).
    pub fn beside(dest: &Path) -> Result<TempPath> {
        let dir = dest
            .parent()
            .filter(|p| !p.as_os_str().is_empty())
            .unwrap_or(Path::new("."));
        std::fs::create_dir_all(dir).with_context(|| format!("creating {}", dir.display()))?;
        let name = dest
            .file_name()
            .with_context(|| format!("{}: the output path has no file name", dest.display()))?
            .to_string_lossy();
        let path = dir.join(format!(".{name}.tmp-{}", std::process::id()));
        remove_any(&path);
        Ok(TempPath { path, keep: false })
    }

    /// The temporary path.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// Renames the temporary file or directory to `dest`, replacing what was there.
    pub fn persist(mut self, dest: &Path) -> Result<()> {
        let rename = |from: &Path, to: &Path| {
            std::fs::rename(from, to)
                .with_context(|| format!("renaming {} to {}", from.display(), to.display()))
        };
        if dest.is_dir() {
            // A directory cannot be renamed over a non-empty one: move the old one aside.
            let old = self
                .path
                .with_extension(format!("old-{}", std::process::id()));
            rename(dest, &old)?;
            if let Err(e) = rename(&self.path, dest) {
                let _ = std::fs::rename(&old, dest);
                return Err(e);
            }
            remove_any(&old);
        } else {
            rename(&self.path, dest)?;
        }
        self.keep = true;
        Ok(())
    }
}

impl Drop for TempPath {
    fn drop(&mut self) {
        if !self.keep {
            remove_any(&self.path);
        }
    }
}

fn remove_any(p: &Path) {
    if p.is_dir() {
        let _ = std::fs::remove_dir_all(p);
    } else {
        let _ = std::fs::remove_file(p);
    }
}

/// Writes `bytes` to `dest` through a temporary file and a rename.
pub fn write_file_atomically(dest: &Path, bytes: impl AsRef<[u8]>) -> Result<()> {
    let tmp = TempPath::beside(dest)?;
    std::fs::write(tmp.path(), bytes)
        .with_context(|| format!("writing {}", tmp.path().display()))?;
    tmp.persist(dest)
}

/// Fills a fresh temporary directory beside `dest` with `fill`, then renames it to `dest`
/// (replacing a previous `dest`). On error the temporary directory is removed.
pub fn write_dir_atomically(dest: &Path, fill: impl FnOnce(&Path) -> Result<()>) -> Result<()> {
    let tmp = TempPath::beside(dest)?;
    std::fs::create_dir(tmp.path())
        .with_context(|| format!("creating {}", tmp.path().display()))?;
    fill(tmp.path())?;
    tmp.persist(dest)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn scratch(tag: &str) -> PathBuf {
        let d = std::env::temp_dir().join(format!("ledbat-support-{tag}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&d);
        std::fs::create_dir_all(&d).unwrap();
        d
    }

    #[test]
    fn dir_write_leaves_nothing_on_failure_and_replaces_on_success() {
        let base = scratch("dir");
        let out = base.join("out");
        write_dir_atomically(&out, |d| Ok(std::fs::write(d.join("a"), "1")?)).unwrap();
        assert_eq!(std::fs::read_to_string(out.join("a")).unwrap(), "1");
        let e = write_dir_atomically(&out, |d| {
            std::fs::write(d.join("a"), "2")?;
            anyhow::bail!("boom")
        });
        assert!(e.is_err());
        assert_eq!(std::fs::read_to_string(out.join("a")).unwrap(), "1");
        assert_eq!(
            std::fs::read_dir(&base).unwrap().count(),
            1,
            "no temporary directory left"
        );
        write_dir_atomically(&out, |d| Ok(std::fs::write(d.join("b"), "3")?)).unwrap();
        assert!(!out.join("a").exists() && out.join("b").exists());
        assert_eq!(
            std::fs::read_dir(&base).unwrap().count(),
            1,
            "old copy removed"
        );
        std::fs::remove_dir_all(&base).unwrap();
    }

    #[test]
    fn file_write_replaces_and_leaves_only_the_destination() {
        let base = scratch("file");
        let out = base.join("report.md");
        write_file_atomically(&out, "first").unwrap();
        write_file_atomically(&out, "second").unwrap();
        assert_eq!(std::fs::read_to_string(&out).unwrap(), "second");
        let names: Vec<_> = std::fs::read_dir(&base)
            .unwrap()
            .map(|e| e.unwrap().file_name())
            .collect();
        assert_eq!(names, vec![std::ffi::OsString::from("report.md")]);
        std::fs::remove_dir_all(&base).unwrap();
    }

    #[test]
    fn dropped_temp_path_is_removed_and_persisted_one_is_kept() {
        let base = scratch("drop");
        let dest = base.join("file.bin");
        let tmp = TempPath::beside(&dest).unwrap();
        std::fs::write(tmp.path(), b"partial").unwrap();
        let tmp_path = tmp.path().to_path_buf();
        assert!(tmp_path
            .file_name()
            .unwrap()
            .to_string_lossy()
            .starts_with(".file.bin.tmp-"));
        drop(tmp);
        assert!(!tmp_path.exists(), "an abandoned temporary file is removed");
        assert!(!dest.exists());
        let tmp = TempPath::beside(&dest).unwrap();
        std::fs::write(tmp.path(), b"whole").unwrap();
        tmp.persist(&dest).unwrap();
        assert_eq!(std::fs::read(&dest).unwrap(), b"whole");
        std::fs::remove_dir_all(&base).unwrap();
    }

    #[test]
    fn a_path_without_a_file_name_is_an_error_naming_it() {
        let e = TempPath::beside(Path::new("/")).unwrap_err();
        assert!(format!("{e:#}").contains("no file name"), "{e:#}");
    }
}
