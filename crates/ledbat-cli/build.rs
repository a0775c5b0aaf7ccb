//! The commit a `ledbat` binary was built from, for `ledbat --version`: test beds record it
//! beside their results, so that a run with a build kept aside (an A/B of two commits)
//! names the build it ran and not the checkout it ran from.
//!
//! `LEDBAT_BUILD_COMMIT` is `git describe --always --dirty --abbrev=10` of the workspace:
//! the commit's short hash, `-dirty` when a tracked file differed from it at build time,
//! `unknown` outside a git checkout (a source tarball) or without git. The script runs
//! again when HEAD moves (a commit, a checkout) and when a file under `crates/` changes, so
//! that the string follows the tree the binary was compiled from.

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
    println!("cargo:rerun-if-changed={}", crates.display());
    let workspace = crates.join("..").canonicalize().ok();
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
        git(&["describe", "--always", "--dirty", "--abbrev=10"])
    } else {
        None
    };
    let commit = commit.unwrap_or_else(|| "unknown".to_string());
    println!("cargo:rustc-env=LEDBAT_BUILD_COMMIT={commit}");
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
