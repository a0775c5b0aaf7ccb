//! What the binary's integration tests share: scratch directories, children killed on
//! drop, path strings.
#![allow(dead_code)]

use std::path::{Path, PathBuf};
use std::process::Child;

/// The `ledbat` binary under test.
pub const BIN: &str = env!("CARGO_BIN_EXE_ledbat");

/// A scratch directory removed on drop.
pub struct Dir(pub PathBuf);
impl Drop for Dir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

/// A fresh scratch directory named for the test file (`suite`) and the test (`tag`).
pub fn tmpdir(suite: &str, tag: &str) -> Dir {
    let d = std::env::temp_dir().join(format!("ledbat-cli-{suite}-{tag}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    Dir(d)
}

/// Kills the child on drop so a failing test leaves no process behind.
pub struct Kid(pub Child);
impl Drop for Kid {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

/// A path as a command-line argument.
pub fn s(p: &Path) -> &str {
    p.to_str().unwrap()
}
