//! Hashes of the code a simulation run executes, for the run cache's keys
//! (`src/cache.rs`): one "simulator" hash and one hash per built-in controller.
//!
//! - simulator: every file of `crates/ledbat-sim` and `crates/ledbat-bt-proto` (sources and
//!   manifests), `crates/ledbat-core`'s manifest and its modules that are not a controller's
//!   (time, wire, delay estimation, the trait, the registry, shared components), the
//!   workspace `Cargo.lock` (the versions of every dependency, `rand_chacha` included) and the
//!   compiler's `rustc -vV`;
//! - per controller: the modules its line of the registry names (`crate::ledbat_pp::LedbatPp,
//!   crate::scavenger::ScavengerConfig`), and every controller module those reach through
//!   `crate::x` / `super::x` paths in code (comments aside), directly or through shared
//!   modules (which are in the simulator hash already).
//!
//! Writes `$OUT_DIR/code_hashes.rs` with `SIMULATOR`, `SIMULATOR_FILES`, `CONTROLLERS` and
//! `CONTROLLER_MODULES`.

use sha2::{Digest, Sha256};
use std::collections::{BTreeMap, BTreeSet};
use std::fmt::Write as _;
use std::path::{Path, PathBuf};

fn files_under(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(rd) = std::fs::read_dir(dir) else {
        return;
    };
    let mut entries: Vec<PathBuf> = rd.filter_map(|e| e.ok().map(|e| e.path())).collect();
    entries.sort();
    for p in entries {
        if p.is_dir() {
            files_under(&p, out);
        } else {
            out.push(p);
        }
    }
}

/// Feeds `path` (relative to `root`, as a name) and its bytes to `h`.
fn feed(h: &mut Sha256, root: &Path, path: &Path) {
    let rel = path.strip_prefix(root).unwrap_or(path);
    let bytes = std::fs::read(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    h.update(rel.to_string_lossy().as_bytes());
    h.update((bytes.len() as u64).to_le_bytes());
    h.update(&bytes);
}

/// The module names a source text reaches: `crate::x`, `super::x` and `use crate::{x, y}`.
fn reached_modules(text: &str) -> BTreeSet<String> {
    let mut out = BTreeSet::new();
    let ident = |s: &str| -> String {
        s.chars()
            .take_while(|c| c.is_ascii_alphanumeric() || *c == '_')
            .collect()
    };
    for prefix in ["crate::", "super::"] {
        let mut rest = text;
        while let Some(i) = rest.find(prefix) {
            rest = &rest[i + prefix.len()..];
            if let Some(group) = rest.strip_prefix('{') {
                let end = group.find('}').unwrap_or(group.len());
                for item in group[..end].split(',') {
                    let m = ident(item.trim());
                    if !m.is_empty() {
                        out.insert(m);
                    }
                }
            } else {
                let m = ident(rest);
                if !m.is_empty() {
                    out.insert(m);
                }
            }
        }
    }
    out
}

fn hex(d: &[u8]) -> String {
    d.iter().fold(String::new(), |mut s, b| {
        let _ = write!(s, "{b:02x}");
        s
    })
}

fn main() {
    let manifest = PathBuf::from(std::env::var("CARGO_MANIFEST_DIR").expect("cargo sets it"));
    let root = manifest.join("../..");
    let root = root.canonicalize().unwrap_or(root);
    let core_src = root.join("crates/ledbat-core/src");
    for p in [
        "crates/ledbat-sim",
        "crates/ledbat-bt-proto",
        "crates/ledbat-core/src",
        "crates/ledbat-core/Cargo.toml",
        "Cargo.lock",
    ] {
        println!("cargo:rerun-if-changed={}", root.join(p).display());
    }

    // The registry's lines: `Variant = "name" => crate::m::Type, crate::n::Config,`.
    let registry = std::fs::read_to_string(core_src.join("registry.rs"))
        .expect("crates/ledbat-core/src/registry.rs");
    let mut controllers: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    for line in registry.lines() {
        let t = line.trim();
        let Some((lhs, rhs)) = t.split_once("=>") else {
            continue;
        };
        let Some((variant, name)) = lhs.split_once('=') else {
            continue;
        };
        let name = name.trim();
        let is_entry = variant.trim().chars().all(|c| c.is_ascii_alphanumeric())
            && name.starts_with('"')
            && name.ends_with('"')
            && name.len() > 2;
        if !is_entry {
            continue;
        }
        let modules = reached_modules(rhs);
        if !modules.is_empty() {
            controllers.insert(name.trim_matches('"').to_string(), modules);
        }
    }
    assert!(
        controllers.len() >= 10,
        "build.rs found only {} controllers in the registry: its `builtin!` line format changed",
        controllers.len()
    );
    let controller_modules: BTreeSet<String> = controllers.values().flatten().cloned().collect();

    // Every module of ledbat-core (a file `m.rs` or a directory `m/`), with what it reaches.
    let mut modules: BTreeMap<String, (Vec<PathBuf>, BTreeSet<String>)> = BTreeMap::new();
    let mut core_files = Vec::new();
    files_under(&core_src, &mut core_files);
    for f in &core_files {
        let rel = f.strip_prefix(&core_src).expect("under src");
        let first = rel.components().next().expect("non-empty");
        let m = first
            .as_os_str()
            .to_string_lossy()
            .trim_end_matches(".rs")
            .to_string();
        // Code only: a doc link (`[`crate::scavenger`]`) is no dependency.
        let text: String = std::fs::read_to_string(f)
            .unwrap_or_default()
            .lines()
            .filter(|l| !l.trim_start().starts_with("//"))
            .collect::<Vec<_>>()
            .join("\n");
        let e = modules.entry(m).or_default();
        e.0.push(f.clone());
        e.1.extend(reached_modules(&text));
    }
    for m in &controller_modules {
        assert!(
            modules.contains_key(m),
            "the registry names crate::{m}, which build.rs cannot find"
        );
    }

    // The simulator hash.
    let mut sim = Sha256::new();
    let mut sim_files = Vec::new();
    for c in ["crates/ledbat-sim", "crates/ledbat-bt-proto"] {
        files_under(&root.join(c), &mut sim_files);
    }
    sim_files.push(root.join("crates/ledbat-core/Cargo.toml"));
    for (m, (files, _)) in &modules {
        if !controller_modules.contains(m) {
            sim_files.extend(files.iter().cloned());
        }
    }
    sim_files.push(root.join("Cargo.lock"));
    for f in &sim_files {
        feed(&mut sim, &root, f);
    }
    let rustc = std::env::var("RUSTC").unwrap_or_else(|_| "rustc".into());
    let version = std::process::Command::new(rustc)
        .arg("-vV")
        .output()
        .map(|o| o.stdout)
        .unwrap_or_default();
    sim.update(&version);

    // Per controller: its modules and the controller modules they reach, transitively.
    let mut per = Vec::new();
    for (name, start) in &controllers {
        let mut seen: BTreeSet<String> = BTreeSet::new();
        let mut todo: Vec<String> = start.iter().cloned().collect();
        while let Some(m) = todo.pop() {
            if !seen.insert(m.clone()) {
                continue;
            }
            if let Some((_, reach)) = modules.get(&m) {
                todo.extend(reach.iter().filter(|r| modules.contains_key(*r)).cloned());
            }
        }
        let mut h = Sha256::new();
        for m in seen.iter().filter(|m| controller_modules.contains(*m)) {
            for f in &modules[m].0 {
                feed(&mut h, &root, f);
            }
        }
        let mods: Vec<String> = seen
            .into_iter()
            .filter(|m| controller_modules.contains(m))
            .collect();
        per.push((name.clone(), hex(&h.finalize()), mods));
    }

    let mut out = String::new();
    let _ = writeln!(
        out,
        "/// Hash of the simulator's code (see `build.rs`).\npub const SIMULATOR: &str = \"{}\";",
        hex(&sim.finalize())
    );
    let _ = writeln!(
        out,
        "/// The files in [`SIMULATOR`], relative to the workspace root.\npub const SIMULATOR_FILES: &[&str] = &["
    );
    for f in &sim_files {
        let rel = f.strip_prefix(&root).unwrap_or(f);
        let _ = writeln!(out, "    {:?},", rel.to_string_lossy());
    }
    let _ = writeln!(out, "];");
    let _ = writeln!(
        out,
        "/// Hash of each built-in controller's code, by registry name.\npub const CONTROLLERS: &[(&str, &str)] = &["
    );
    for (n, h, _) in &per {
        let _ = writeln!(out, "    ({n:?}, {h:?}),");
    }
    let _ = writeln!(out, "];");
    let _ = writeln!(
        out,
        "/// The `ledbat-core` modules in each controller's hash.\npub const CONTROLLER_MODULES: &[(&str, &[&str])] = &["
    );
    for (n, _, m) in &per {
        let _ = writeln!(out, "    ({n:?}, &{m:?}),");
    }
    let _ = writeln!(out, "];");
    let dest =
        PathBuf::from(std::env::var("OUT_DIR").expect("cargo sets it")).join("code_hashes.rs");
    std::fs::write(&dest, out).unwrap_or_else(|e| panic!("{}: {e}", dest.display()));
}
