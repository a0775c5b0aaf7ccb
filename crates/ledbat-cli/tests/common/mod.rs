//! What the binary's integration tests share: scratch directories, children killed on
//! drop, path strings.
#![allow(dead_code)]

use std::path::Path;
use std::process::Child;

pub use tempfile::TempDir;

/// The `ledbat` binary under test.
pub const BIN: &str = env!("CARGO_BIN_EXE_ledbat");

/// A fresh scratch directory named for the test file (`suite`) and the test (`tag`),
/// removed when dropped, whether the test passed or not.
pub fn tmpdir(suite: &str, tag: &str) -> TempDir {
    tempfile::Builder::new()
        .prefix(&format!("ledbat-cli-{suite}-{tag}-"))
        .tempdir()
        .unwrap()
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
