//! `ledbat cache stats|clear`: the run cache of `ledbat repro` (`ledbat_repro::cache`).

use anyhow::{bail, Context};
use ledbat_repro::cache;
use std::path::PathBuf;

/// Arguments of `ledbat cache`.
#[derive(clap::Args, Debug)]
pub struct Args {
    /// What to do.
    #[command(subcommand)]
    pub action: Action,
    /// The cache directory. Default: $XDG_CACHE_HOME/ledbat, else ~/.cache/ledbat.
    #[arg(long, value_name = "DIR", global = true)]
    pub cache: Option<PathBuf>,
}

/// `ledbat cache` actions.
#[derive(clap::Subcommand, Debug)]
pub enum Action {
    /// Entries, bytes, and the hits and misses of the last `ledbat repro` that used it.
    Stats {
        /// As JSON.
        #[arg(long)]
        json: bool,
    },
    /// Remove every entry.
    Clear,
}

/// The cache directory: `given`, else the default.
pub fn dir(given: Option<PathBuf>) -> anyhow::Result<PathBuf> {
    match given {
        Some(d) if d.exists() && !d.is_dir() => bail!("--cache {}: not a directory", d.display()),
        Some(d) => Ok(d),
        None => cache::default_dir()
            .context("no cache directory: neither XDG_CACHE_HOME nor HOME is set; pass --cache DIR or --no-cache"),
    }
}

fn mib(b: u64) -> String {
    format!("{:.1} MiB", b as f64 / (1024.0 * 1024.0))
}

/// Runs the command.
pub fn run(a: Args) -> anyhow::Result<()> {
    let d = dir(a.cache)?;
    match a.action {
        Action::Stats { json } => {
            let s = cache::stats(&d);
            if json {
                let v = serde_json::json!({ "dir": d, "stats": s });
                crate::support::outln!("{}", serde_json::to_string_pretty(&v)?);
                return Ok(());
            }
            crate::support::outln!("cache     {}", d.display());
            crate::support::outln!("entries   {}", s.entries);
            crate::support::outln!("size      {} ({} bytes)", mib(s.bytes), s.bytes);
            if s.other_files > 0 {
                crate::support::outln!(
                    "other     {} files (leftovers of interrupted writes, or another format)",
                    s.other_files
                );
            }
            match s.last_run {
                Some(c) => crate::support::outln!(
                    "last run  {} hits, {} misses ({} corrupt entries replaced), {} written{}",
                    c.hits,
                    c.misses,
                    c.corrupt,
                    c.written,
                    if c.write_errors > 0 {
                        format!(", {} write errors", c.write_errors)
                    } else {
                        String::new()
                    }
                ),
                None => crate::support::outln!("last run  not recorded"),
            }
        }
        Action::Clear => {
            let s = cache::clear(&d)?;
            crate::support::outln!(
                "removed {} entries ({}) from {}",
                s.entries,
                mib(s.bytes),
                d.display()
            );
        }
    }
    Ok(())
}
