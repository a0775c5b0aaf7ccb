//! Builds the host replay tool of the differential test (always: it needs only the C
//! compiler every Rust toolchain links with) and, with the `bpf` feature, the BPF object
//! (clang -target bpf, with libbpf's bpf_helpers.h from libbpf-sys).

use std::env;
use std::path::PathBuf;
use std::process::Command;

fn main() {
    let out = PathBuf::from(env::var_os("OUT_DIR").expect("cargo sets OUT_DIR"));
    for dir in ["csrc", "bpf"] {
        println!("cargo:rerun-if-changed={dir}");
    }
    println!("cargo:rerun-if-env-changed=CLANG");

    let replay = out.join("lbcc-replay");
    let compiler = cc::Build::new().opt_level(2).get_compiler();
    let status = compiler
        .to_command()
        .args(["-std=c11", "-Wall", "-Wextra", "-Werror"])
        .arg("csrc/replay.c")
        .arg("-o")
        .arg(&replay)
        .status();
    match status {
        Ok(s) if s.success() => {}
        other => panic!(
            "could not compile csrc/replay.c with {:?}: {other:?}",
            compiler.path()
        ),
    }
    println!("cargo:rustc-env=LBCC_REPLAY={}", replay.display());

    // rLEDBAT's arithmetic for the host (tests/rledbat.rs)
    let rl_replay = out.join("rl-replay");
    let status = compiler
        .to_command()
        .args(["-std=c11", "-Wall", "-Wextra", "-Werror"])
        .arg("csrc/rl_replay.c")
        .arg("-o")
        .arg(&rl_replay)
        .status();
    match status {
        Ok(s) if s.success() => {}
        other => panic!(
            "could not compile csrc/rl_replay.c with {:?}: {other:?}",
            compiler.path()
        ),
    }
    println!("cargo:rustc-env=RL_REPLAY={}", rl_replay.display());

    if env::var_os("CARGO_FEATURE_BPF").is_some() {
        let clang = env::var("CLANG").unwrap_or_else(|_| "clang".to_string());
        let include = env::var("DEP_BPF_INCLUDE").expect("libbpf-sys exports its include dir");
        let object = out.join("ledbat.bpf.o");
        let result = Command::new(&clang)
            .args(["-O2", "-g", "-target", "bpf", "-Wall", "-Werror"])
            .arg(format!("-I{include}"))
            .args(["-c", "bpf/ledbat.bpf.c", "-o"])
            .arg(&object)
            .status();
        match result {
            Ok(s) if s.success() => {}
            Ok(s) => panic!("`{clang}` failed to compile bpf/ledbat.bpf.c ({s})"),
            Err(e) => panic!(
                "the `bpf` feature compiles bpf/ledbat.bpf.c with clang, which could not be \
                 run as `{clang}` ({e}); install it (Debian: apt install clang) or set CLANG"
            ),
        }
        // the sock_ops programs of per-application selection (src/cgroup.rs)
        for name in ["select", "rledbat"] {
            let src = format!("bpf/{name}.bpf.c");
            let status = Command::new(&clang)
                .args(["-O2", "-g", "-target", "bpf", "-Wall", "-Werror"])
                .arg(format!("-I{include}"))
                .args(["-c", &src, "-o"])
                .arg(out.join(format!("{name}.bpf.o")))
                .status();
            match status {
                Ok(s) if s.success() => {}
                other => panic!("`{clang}` failed to compile {src} ({other:?})"),
            }
        }
    }
}
