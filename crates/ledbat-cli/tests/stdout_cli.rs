//! Standard output that nobody reads any more (`ledbat controllers | head`): the program
//! ends quietly with status 0 instead of panicking.

use std::io::Read;
use std::process::{Command, Stdio};

const BIN: &str = env!("CARGO_BIN_EXE_ledbat");

#[test]
fn a_closed_stdout_ends_the_listing_quietly() {
    // The pipe's read end is closed before the child starts, so its first write to stdout
    // gets EPIPE whatever the scheduling (Rust ignores SIGPIPE, so the write returns the
    // error instead of killing the process).
    let (reader, writer) = std::io::pipe().unwrap();
    drop(reader);
    let mut child = Command::new(BIN)
        .arg("controllers")
        .stdout(writer)
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut err = String::new();
    child
        .stderr
        .take()
        .unwrap()
        .read_to_string(&mut err)
        .unwrap();
    let status = child.wait().unwrap();
    assert!(err.is_empty(), "stderr: {err}");
    assert_eq!(status.code(), Some(0), "stderr: {err}");
}

#[test]
fn an_open_stdout_gets_the_whole_listing() {
    let out = Command::new(BIN).arg("controllers").output().unwrap();
    assert!(out.status.success());
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(text.starts_with("ledbat "), "{text}");
    assert!(text.contains("\nscavenger "), "{text}");
}
