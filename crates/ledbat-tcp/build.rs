//! Builds the host tools of the tests (always: they need only the C compiler every Rust
//! toolchain links with), the replay tools of the differential tests and the layout table
//! (csrc/layout.c) that unit tests compare with the Rust structs, and, with the `bpf`
//! feature on Linux, provides the BPF objects of [`OBJECTS`] in OUT_DIR.
//!
//! The objects are committed (`bpf/NAME.bpf.o`, with the stamp `bpf/NAME.bpf.stamp`), so a
//! build needs no clang: build/plan.rs decides, per object, between the committed bytes and
//! a clang build (`-target bpf`, with libbpf's headers from libbpf-sys). clang is needed
//! when a source changed since the object was committed, or when `LEDBAT_BPF_REBUILD=1` asks
//! for it. `LEDBAT_BPF_OUT=DIR` copies each object and its stamp to DIR: CI compares a
//! rebuild with the committed files that way, and
//! `LEDBAT_BPF_REBUILD=1 LEDBAT_BPF_OUT=crates/ledbat-tcp/bpf cargo build -p ledbat-tcp`
//! regenerates them.

#[path = "build/plan.rs"]
mod plan;

use plan::{decide, inputs_digest_text, Found, Plan, Stamp};
use sha2::{Digest, Sha256};
use std::env;
use std::fs;
use std::path::{Path, PathBuf};
use std::process::Command;

/// The BPF programs, `bpf/NAME.bpf.c` each; the loader embeds `OUT_DIR/NAME.bpf.o`.
/// A new program is one more name here (then regenerate, as the module comment says).
const OBJECTS: &[&str] = &["ledbat", "select", "rledbat"];

/// clang's flags, apart from the include directory and the debug path maps. `-g` makes the
/// BTF that CO-RE relocates against the running kernel; the path maps (added in
/// [`compile`]) keep the build directory out of the object, so that the bytes depend on the
/// sources and the compiler only.
const CLANG_FLAGS: &[&str] = &["-O2", "-g", "-target", "bpf", "-Wall", "-Werror"];

fn main() {
    let out = PathBuf::from(env::var_os("OUT_DIR").expect("cargo sets OUT_DIR"));
    for dir in ["csrc", "bpf"] {
        println!("cargo:rerun-if-changed={dir}");
    }
    for var in ["CLANG", "LEDBAT_BPF_REBUILD", "LEDBAT_BPF_OUT"] {
        println!("cargo:rerun-if-env-changed={var}");
    }

    let compiler = cc::Build::new().opt_level(2).get_compiler();
    // the controller arithmetic for the host (tests/differential), rLEDBAT's
    // (tests/rledbat.rs), the competitor detection's (tests/differential/competitor.rs), and
    // the layouts the loader writes (the unit tests of src/params.rs and src/rledbat.rs)
    for (source, tool, var) in [
        ("csrc/replay.c", "lbcc-replay", "LBCC_REPLAY"),
        ("csrc/rl_replay.c", "rl-replay", "RL_REPLAY"),
        ("csrc/comp_replay.c", "comp-replay", "COMP_REPLAY"),
        ("csrc/layout.c", "lbcc-layout", "LBCC_LAYOUT"),
    ] {
        let path = out.join(tool);
        let status = compiler
            .to_command()
            .args(["-std=c11", "-Wall", "-Wextra", "-Werror"])
            .arg(source)
            .arg("-o")
            .arg(&path)
            .status();
        match status {
            Ok(s) if s.success() => {}
            other => panic!(
                "could not compile {source} with {:?}: {other:?}",
                compiler.path()
            ),
        }
        println!("cargo:rustc-env={var}={}", path.display());
    }

    let linux = env::var("CARGO_CFG_TARGET_OS").is_ok_and(|os| os == "linux");
    if env::var_os("CARGO_FEATURE_BPF").is_some() && linux {
        let include = PathBuf::from(
            env::var_os("DEP_BPF_INCLUDE").expect("libbpf-sys exports its include dir"),
        );
        for name in OBJECTS {
            if let Err(e) = provide(name, &include, &out) {
                panic!("{e}");
            }
        }
        // tests/fallback.rs compiles a test build of bpf/ledbat.bpf.c the same way
        println!("cargo:rustc-env=LEDBAT_BPF_INCLUDE={}", include.display());
        println!(
            "cargo:rustc-env=LEDBAT_BPF_CLANG_FLAGS={}",
            CLANG_FLAGS.join(" ")
        );
    }
}

fn sha256(bytes: &[u8]) -> String {
    Sha256::digest(bytes)
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect()
}

/// `(name, bytes)` of every file in `dir` ending in `ext`, named `prefix/FILE`.
fn files(dir: &Path, ext: &str, prefix: &str) -> Vec<(String, Vec<u8>)> {
    let mut v: Vec<(String, Vec<u8>)> = fs::read_dir(dir)
        .unwrap_or_else(|e| panic!("reading {}: {e}", dir.display()))
        .filter_map(|e| {
            let p = e.ok()?.path();
            let f = p.file_name()?.to_str()?.to_string();
            f.ends_with(ext).then(|| {
                let bytes = fs::read(&p).unwrap_or_else(|e| panic!("reading {}: {e}", p.display()));
                (format!("{prefix}/{f}"), bytes)
            })
        })
        .collect();
    v.sort();
    v
}

/// The sha256 of everything `bpf/NAME.bpf.c` is compiled from.
fn inputs_digest(name: &str, include: &Path) -> String {
    let source = format!("bpf/{name}.bpf.c");
    let mut all = vec![(
        source.clone(),
        fs::read(&source).unwrap_or_else(|e| panic!("reading {source}: {e}")),
    )];
    all.extend(files(Path::new("bpf"), ".h", "bpf"));
    all.extend(files(Path::new("csrc"), ".h", "csrc"));
    all.extend(files(&include.join("bpf"), ".h", "libbpf/bpf"));
    sha256(&inputs_digest_text(&CLANG_FLAGS.join(" "), &all))
}

fn clang() -> String {
    env::var("CLANG").unwrap_or_else(|_| "clang".to_string())
}

fn clang_runs() -> bool {
    Command::new(clang())
        .arg("--version")
        .output()
        .is_ok_and(|o| o.status.success())
}

/// Compiles `bpf/NAME.bpf.c` to `object`.
fn compile(name: &str, include: &Path, object: &Path) -> Result<(), String> {
    let clang = clang();
    let here = env::current_dir().map_err(|e| format!("the build directory: {e}"))?;
    let status = Command::new(&clang)
        .args(CLANG_FLAGS)
        .arg(format!("-fdebug-prefix-map={}=.", here.display()))
        .arg(format!("-fdebug-prefix-map={}=libbpf", include.display()))
        .arg(format!("-I{}", include.display()))
        .arg("-c")
        .arg(format!("bpf/{name}.bpf.c"))
        .arg("-o")
        .arg(object)
        .status();
    match status {
        Ok(s) if s.success() => Ok(()),
        Ok(s) => Err(format!(
            "`{clang}` failed to compile bpf/{name}.bpf.c ({s})"
        )),
        Err(e) => Err(format!("could not run `{clang}`: {e}")),
    }
}

/// Puts `OUT_DIR/NAME.bpf.o` and its stamp in place, from the committed files or clang.
fn provide(name: &str, include: &Path, out: &Path) -> Result<(), String> {
    let committed = PathBuf::from(format!("bpf/{name}.bpf.o"));
    let stamp_path = PathBuf::from(format!("bpf/{name}.bpf.stamp"));
    let object = out.join(format!("{name}.bpf.o"));
    let mut found = Found {
        name,
        rebuild_asked: env::var("LEDBAT_BPF_REBUILD").is_ok_and(|v| v == "1"),
        stamp: fs::read_to_string(&stamp_path)
            .ok()
            .and_then(|t| Stamp::parse(&t)),
        object: fs::read(&committed).ok().map(|b| sha256(&b)),
        inputs: inputs_digest(name, include),
        clang: false,
    };
    if decide(&found) != Plan::Committed {
        found.clang = clang_runs();
    }
    let stamp = match decide(&found) {
        Plan::Committed => {
            fs::copy(&committed, &object)
                .map_err(|e| format!("copying {}: {e}", committed.display()))?;
            found.stamp.expect("a committed object has its stamp")
        }
        Plan::Compile { stale } => {
            if let Some(why) = stale {
                println!(
                    "cargo:warning={why}: compiled it with clang; regenerate the committed \
                     object with LEDBAT_BPF_REBUILD=1 LEDBAT_BPF_OUT=crates/ledbat-tcp/bpf"
                );
            }
            compile(name, include, &object)?;
            let bytes = fs::read(&object).map_err(|e| format!("{}: {e}", object.display()))?;
            Stamp {
                inputs: found.inputs.clone(),
                object: sha256(&bytes),
            }
        }
        Plan::Fail(msg) => return Err(msg),
    };
    let stamp_out = out.join(format!("{name}.bpf.stamp"));
    fs::write(&stamp_out, stamp.to_string())
        .map_err(|e| format!("{}: {e}", stamp_out.display()))?;
    if let Some(dir) = env::var_os("LEDBAT_BPF_OUT") {
        let dir = PathBuf::from(dir);
        // relative to where cargo was run would be ambiguous: cargo runs this script in the
        // crate's directory, so a relative DIR is taken from the workspace root
        let dir = if dir.is_absolute() {
            dir
        } else {
            workspace_root().join(dir)
        };
        fs::create_dir_all(&dir).map_err(|e| format!("{}: {e}", dir.display()))?;
        for f in [format!("{name}.bpf.o"), format!("{name}.bpf.stamp")] {
            fs::copy(out.join(&f), dir.join(&f))
                .map_err(|e| format!("copying {f} to {}: {e}", dir.display()))?;
        }
    }
    Ok(())
}

/// The workspace root: two levels above this crate.
fn workspace_root() -> PathBuf {
    let here = PathBuf::from(env::var_os("CARGO_MANIFEST_DIR").expect("cargo sets it"));
    here.ancestors()
        .nth(2)
        .map(Path::to_path_buf)
        .unwrap_or(here)
}
