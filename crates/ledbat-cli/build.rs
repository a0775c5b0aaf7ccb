//! The commit a `ledbat` binary was built from, for `ledbat --version`: test beds record it
//! beside their results, so that a run with a build kept aside (an A/B of two commits)
//! names the build it ran and not the checkout it ran from.
//!
//! `LEDBAT_BUILD_COMMIT` is the workspace's commit as a 10-digit short hash (`git
//! rev-parse --short=10 HEAD`), with `-dirty` when a tracked file differed from it at build
//! time (`git status`, without taking the index lock, so that a commit run beside a build
//! does not fail), `unknown` outside a git checkout (a source tarball) or without git. The
//! script runs again when HEAD moves (a commit, a checkout) and when a file the binary is
//! built from changes (`crates/`, the workspace's `Cargo.toml` and `Cargo.lock`, and
//! `docs/repro/coverage/`, which ledbat-repro embeds), so that the string follows the tree
//! the binary was compiled from.

use std::path::Path;
use std::process::Command;

fn git(args: &[&str]) -> Option<String> {
    let out = Command::new("git")
        .args(["-C", env!("CARGO_MANIFEST_DIR")])
        .args(args)
        .output()
        .ok()?;
    out.status
        .success()
        .then(|| String::from_utf8_lossy(&out.stdout).trim().to_string())
        .filter(|s| !s.is_empty())
}

fn main() {
    let crates = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let root = crates.join("..");
    println!("cargo:rerun-if-changed={}", crates.display());
    for input in ["Cargo.toml", "Cargo.lock", "docs/repro/coverage"] {
        println!("cargo:rerun-if-changed={}", root.join(input).display());
    }
    let workspace = root.canonicalize().ok();
    // Only the workspace's own checkout: a tarball unpacked inside another repository is
    // not that repository's commit.
    let ours = git(&["rev-parse", "--show-toplevel"])
        .and_then(|top| Path::new(&top).canonicalize().ok())
        .is_some_and(|top| Some(top) == workspace);
    let commit = if ours {
        // HEAD, the branch it names, and the index (a commit rewrites the last two).
        let branch = git(&["symbolic-ref", "-q", "HEAD"]);
        for name in ["HEAD", "index", "packed-refs"]
            .into_iter()
            .chain(branch.as_deref())
        {
            if let Some(p) = git(&["rev-parse", "--git-path", name]).map(|p| resolve(&p)) {
                if Path::new(&p).exists() {
                    println!("cargo:rerun-if-changed={p}");
                }
            }
        }
        git(&["rev-parse", "--short=10", "HEAD"]).map(|head| {
            if clean() {
                head
            } else {
                format!("{head}-dirty")
            }
        })
    } else {
        None
    };
    let commit = commit.unwrap_or_else(|| "unknown".to_string());
    println!("cargo:rustc-env=LEDBAT_BUILD_COMMIT={commit}");
}

/// Whether no tracked file differs from HEAD (false when git cannot tell: a build that
/// cannot be named clean is not called clean).
fn clean() -> bool {
    Command::new("git")
        .args(["-C", env!("CARGO_MANIFEST_DIR"), "--no-optional-locks"])
        .args(["status", "--porcelain", "--untracked-files=no"])
        .output()
        .is_ok_and(|out| out.status.success() && out.stdout.is_empty())
}

/// `git rev-parse --git-path` answers relative to the directory git ran in.
fn resolve(p: &str) -> String {
    let path = Path::new(p);
    if path.is_absolute() {
        p.to_string()
    } else {
        Path::new(env!("CARGO_MANIFEST_DIR"))
            .join(path)
            .display()
            .to_string()
    }
}
