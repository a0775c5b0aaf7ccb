//! Atomic file and directory writes, shared by the CLI's outputs and the run cache
//! ([`crate::cache`]).
//!
//! Outputs are written under a hidden temporary name beside their destination
//! (`.NAME.tmp-PID-N`, `N` counting within the process so that threads writing beside each
//! other never share one) and renamed into place only when complete, so a failed command
//! leaves nothing half-written under the final name. A [`TempPath`] that is dropped without
//! being persisted removes its file or directory.

use anyhow::{Context, Result};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};

/// Temporary paths made by this process so far (part of each name).
static MADE: AtomicU64 = AtomicU64::new(0);

/// A hidden temporary path beside a destination, removed on drop unless persisted.
#[derive(Debug)]
pub struct TempPath {
    path: PathBuf,
    keep: bool,
}

impl TempPath {
    /// `.NAME.tmp-PID-N` in the directory of `dest` (created if missing).
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
        let n = MADE.fetch_add(1, Ordering::Relaxed);
        let path = dir.join(format!(".{name}.tmp-{}-{n}", std::process::id()));
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

    #[test]
    fn dir_write_leaves_nothing_on_failure_and_replaces_on_success() {
        let temp = crate::tmpdir("dir");
        let base = temp.path();
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
            std::fs::read_dir(base).unwrap().count(),
            1,
            "no temporary directory left"
        );
        write_dir_atomically(&out, |d| Ok(std::fs::write(d.join("b"), "3")?)).unwrap();
        assert!(!out.join("a").exists() && out.join("b").exists());
        assert_eq!(
            std::fs::read_dir(base).unwrap().count(),
            1,
            "old copy removed"
        );
    }

    #[test]
    fn file_write_replaces_and_leaves_only_the_destination() {
        let temp = crate::tmpdir("file");
        let base = temp.path();
        let out = base.join("report.md");
        write_file_atomically(&out, "first").unwrap();
        write_file_atomically(&out, "second").unwrap();
        assert_eq!(std::fs::read_to_string(&out).unwrap(), "second");
        let names: Vec<_> = std::fs::read_dir(base)
            .unwrap()
            .map(|e| e.unwrap().file_name())
            .collect();
        assert_eq!(names, vec![std::ffi::OsString::from("report.md")]);
    }

    #[test]
    fn dropped_temp_path_is_removed_and_persisted_one_is_kept() {
        let temp = crate::tmpdir("drop");
        let base = temp.path();
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
    }

    #[test]
    fn a_path_without_a_file_name_is_an_error_naming_it() {
        let e = TempPath::beside(Path::new("/")).unwrap_err();
        assert!(format!("{e:#}").contains("no file name"), "{e:#}");
    }
}
