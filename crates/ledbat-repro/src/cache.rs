//! A content-addressed cache of simulation runs, so that `ledbat repro` re-simulates only
//! the runs whose inputs or code changed.
//!
//! **Key.** SHA-256 over: the format version; the simulator hash; for every built-in
//! controller the scenario names (any `{ name = "..." }` table in it, flows and swarm
//! classes alike), its name and hash; the seed; whether it is the exact-start run; and the
//! scenario as loaded with its overrides, serialised as JSON (every default filled in,
//! fields in declaration order, so the same scenario always gives the same bytes however it
//! was written). The code hashes come from `build.rs`:
//!
//! - the simulator hash covers every file of `crates/ledbat-sim` and `crates/ledbat-bt-proto`,
//!   `crates/ledbat-core`'s modules that are no controller's (time, delay estimation, the
//!   trait, the registry, shared components), the workspace `Cargo.lock` (so a dependency's
//!   version) and `rustc -vV`;
//! - a controller's hash covers the modules its registry line names and the controller
//!   modules they reach (`crate::x`, `super::x`); a change to `cubic.rs` re-simulates only
//!   the runs that name `cubic`.
//!
//! Not covered: code of a dependency at an unchanged version (a patched registry copy,
//! a `[patch]` path dependency), the compiler flags and target CPU (the simulator uses
//! no float intrinsics whose results depend on them), and edits made after the binary was
//! built (the hashes are the build's). `ledbat cache clear` empties the cache.
//!
//! **Value.** The whole [`RunResult`], postcard-encoded (bit-exact floats, NaN included,
//! which JSON cannot carry), so that a report built from the cache is byte-identical to
//! one built by simulating. File `DIR/v1/ab/<64 hex>.run`: `MAGIC`, the payload length
//! (u64 little-endian), the payload, and the payload's SHA-256. A file that is short, too
//! long, fails its checksum or does not decode is a miss with a warning, and is replaced.
//! Writes go through [`crate::atomic`] (a temporary file renamed into place), so
//! concurrent runs never see half an entry. Runs that fail are not stored.

use ledbat_sim::result::{
    Aggregate, Conservation, EngineStats, FlowResult, LinkResult, RunResult, Series,
};
use ledbat_sim::swarm::report::SwarmResult;
use ledbat_sim::Scenario;
use sha2::{Digest, Sha256};
use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};

/// The code hashes computed by `build.rs`.
pub mod code {
    include!(concat!(env!("OUT_DIR"), "/code_hashes.rs"));
}

/// First bytes of every entry (format version 1).
pub const MAGIC: &[u8; 8] = b"LBTRUN1\n";
/// The subdirectory of the cache directory holding format-1 entries.
pub const VERSION_DIR: &str = "v1";
/// The file recording the last run's counters.
pub const LAST_RUN: &str = "last-run.json";

/// The default cache directory: `$XDG_CACHE_HOME/ledbat`, else `$HOME/.cache/ledbat`.
pub fn default_dir() -> Option<PathBuf> {
    dir_from(std::env::var_os("XDG_CACHE_HOME"), std::env::var_os("HOME"))
}

/// [`default_dir`] given the two variables (a relative value is ignored, as XDG says).
fn dir_from(xdg: Option<std::ffi::OsString>, home: Option<std::ffi::OsString>) -> Option<PathBuf> {
    let abs = |v: std::ffi::OsString| Some(PathBuf::from(v)).filter(|p| p.is_absolute());
    xdg.and_then(abs)
        .or_else(|| home.and_then(abs).map(|h| h.join(".cache")))
        .map(|d| d.join("ledbat"))
}

/// The content address of one run.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Key(pub [u8; 32]);

impl Key {
    /// The key of `sc` run with `seed` (`exact`: the exact-start run), with the code hashes
    /// of this build.
    pub fn of(sc: &Scenario, seed: u64, exact: bool) -> Key {
        InstanceKey::of(sc).key(seed, exact)
    }

    /// The key with the given simulator hash and controller hashes (`None`: not a
    /// controller's name).
    pub fn with_code<'h>(
        sc: &Scenario,
        seed: u64,
        exact: bool,
        simulator: &str,
        controller: impl Fn(&str) -> Option<&'h str>,
    ) -> Key {
        InstanceKey::with_code(sc, simulator, controller).key(seed, exact)
    }

    /// Lower-case hex.
    pub fn hex(&self) -> String {
        hex(&self.0)
    }
}

/// The part of the [`Key`]s of one scenario that does not depend on the seed, computed once
/// for all its runs: the hash state after the format, the code hashes and the controller
/// names, and the scenario's JSON. [`InstanceKey::key`] gives the same key as [`Key::of`].
#[derive(Clone)]
pub struct InstanceKey {
    prefix: Sha256,
    json: String,
}

impl InstanceKey {
    /// The instance part of the keys of `sc`, with the code hashes of this build.
    pub fn of(sc: &Scenario) -> InstanceKey {
        InstanceKey::with_code(sc, code::SIMULATOR, |name| {
            code::CONTROLLERS
                .iter()
                .find(|(n, _)| *n == name)
                .map(|(_, h)| *h)
        })
    }

    /// The instance part with the given code hashes (see [`Key::with_code`]).
    pub fn with_code<'h>(
        sc: &Scenario,
        simulator: &str,
        controller: impl Fn(&str) -> Option<&'h str>,
    ) -> InstanceKey {
        let json = serde_json::to_value(sc).expect("a scenario serialises");
        let mut names = std::collections::BTreeSet::new();
        named(&json, &mut names);
        let mut h = Sha256::new();
        h.update(MAGIC);
        h.update(simulator.as_bytes());
        h.update(b"\n");
        for n in &names {
            if let Some(c) = controller(n) {
                h.update(format!("{n}={c}\n").as_bytes());
            }
        }
        InstanceKey {
            prefix: h,
            json: json.to_string(),
        }
    }

    /// The key of the run with `seed` (`exact`: the exact-start run).
    pub fn key(&self, seed: u64, exact: bool) -> Key {
        let mut h = self.prefix.clone();
        h.update(format!("seed={seed} exact={exact}\n").as_bytes());
        h.update(self.json.as_bytes());
        Key(h.finalize().into())
    }
}

/// An [`InstanceKey`] computed on first use (by whichever thread first needs it).
#[derive(Default)]
pub struct LazyKey(std::sync::OnceLock<InstanceKey>);

impl LazyKey {
    /// The instance part of the keys of `sc` (the same `sc` at every call).
    pub fn get(&self, sc: &Scenario) -> &InstanceKey {
        self.0.get_or_init(|| InstanceKey::of(sc))
    }
}

/// Every string under a `name` key in `v` (where a controller config keeps its name).
fn named(v: &serde_json::Value, out: &mut std::collections::BTreeSet<String>) {
    match v {
        serde_json::Value::Object(m) => {
            for (k, x) in m {
                if let (true, serde_json::Value::String(s)) = (k == "name", x) {
                    out.insert(s.clone());
                }
                named(x, out);
            }
        }
        serde_json::Value::Array(a) => a.iter().for_each(|x| named(x, out)),
        _ => {}
    }
}

fn hex(d: &[u8]) -> String {
    d.iter().fold(String::new(), |mut s, b| {
        let _ = write!(s, "{b:02x}");
        s
    })
}

/// Counters of one use of the cache.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Counts {
    /// Runs read from the cache.
    pub hits: u64,
    /// Runs simulated (not in the cache, or unreadable).
    pub misses: u64,
    /// Of the misses, entries that were there but corrupt.
    pub corrupt: u64,
    /// Entries written.
    pub written: u64,
    /// Entries that could not be written (the run's result is still used).
    pub write_errors: u64,
}

/// A cache directory and the counters of this process's use of it.
#[derive(Debug)]
pub struct Cache {
    dir: PathBuf,
    hits: AtomicU64,
    misses: AtomicU64,
    corrupt: AtomicU64,
    written: AtomicU64,
    write_errors: AtomicU64,
}

impl Cache {
    /// The cache in `dir` (created on the first write).
    pub fn new(dir: impl Into<PathBuf>) -> Cache {
        Cache {
            dir: dir.into(),
            hits: AtomicU64::new(0),
            misses: AtomicU64::new(0),
            corrupt: AtomicU64::new(0),
            written: AtomicU64::new(0),
            write_errors: AtomicU64::new(0),
        }
    }

    /// The directory.
    pub fn dir(&self) -> &Path {
        &self.dir
    }

    /// Where the entry of `key` lives.
    pub fn path(&self, key: &Key) -> PathBuf {
        let h = key.hex();
        self.dir
            .join(VERSION_DIR)
            .join(&h[..2])
            .join(format!("{h}.run"))
    }

    /// The counters so far.
    pub fn counts(&self) -> Counts {
        Counts {
            hits: self.hits.load(Ordering::Relaxed),
            misses: self.misses.load(Ordering::Relaxed),
            corrupt: self.corrupt.load(Ordering::Relaxed),
            written: self.written.load(Ordering::Relaxed),
            write_errors: self.write_errors.load(Ordering::Relaxed),
        }
    }

    /// The stored run of `key`; `None` when absent or unreadable (with a warning on stderr
    /// for an entry that exists but is corrupt).
    pub fn get(&self, key: &Key) -> Option<RunResult> {
        let path = self.path(key);
        let bytes = std::fs::read(&path).ok()?;
        match decode(&bytes) {
            Ok(r) => Some(r),
            Err(e) => {
                self.corrupt.fetch_add(1, Ordering::Relaxed);
                eprintln!(
                    "warning: run cache entry {}: {e}; simulating again",
                    path.display()
                );
                None
            }
        }
    }

    /// Whether a readable entry of `key` is stored (no counter moves, no warning).
    pub fn contains(&self, key: &Key) -> bool {
        std::fs::read(self.path(key)).is_ok_and(|b| decode(&b).is_ok())
    }

    /// Stores `r` under `key` (a failure is a warning: the cache is an optimisation).
    pub fn put(&self, key: &Key, r: &RunResult) {
        let path = self.path(key);
        match crate::atomic::write_file_atomically(&path, encode(r)) {
            Ok(()) => {
                self.written.fetch_add(1, Ordering::Relaxed);
            }
            Err(e) => {
                if self.write_errors.fetch_add(1, Ordering::Relaxed) == 0 {
                    eprintln!("warning: run cache: {e:#} (further write errors not shown)");
                }
            }
        }
    }

    /// The run of `sc` with `seed` (`exact`: the exact-start run): from the cache if there,
    /// else from `simulate`, stored when it succeeds.
    pub fn run(
        &self,
        sc: &Scenario,
        seed: u64,
        exact: bool,
        simulate: impl FnOnce() -> Result<RunResult, String>,
    ) -> (Result<RunResult, String>, bool) {
        self.run_keyed(&Key::of(sc, seed, exact), simulate)
    }

    /// The run of `key`: from the cache if there, else from `simulate`, stored when it
    /// succeeds.
    pub fn run_keyed(
        &self,
        key: &Key,
        simulate: impl FnOnce() -> Result<RunResult, String>,
    ) -> (Result<RunResult, String>, bool) {
        if let Some(r) = self.get(key) {
            self.hits.fetch_add(1, Ordering::Relaxed);
            return (Ok(r), true);
        }
        self.misses.fetch_add(1, Ordering::Relaxed);
        let r = simulate();
        if let Ok(r) = &r {
            self.put(key, r);
        }
        (r, false)
    }

    /// Records the counters in `DIR/last-run.json` for `ledbat cache stats`.
    pub fn record(&self) -> anyhow::Result<()> {
        let text = serde_json::to_string_pretty(&self.counts())? + "\n";
        crate::atomic::write_file_atomically(&self.dir.join(LAST_RUN), text)
    }
}

/// The runs of a simulation, from `cache` when given: the one hook of [`crate::runner`].
/// `key` (the run's [`Key`], from its instance's [`InstanceKey`]) is called only with a
/// cache.
pub fn run_with(
    cache: Option<&Cache>,
    key: impl FnOnce() -> Key,
    simulate: impl FnOnce() -> Result<RunResult, String>,
) -> (Result<RunResult, String>, bool) {
    match cache {
        Some(c) => c.run_keyed(&key(), simulate),
        None => (simulate(), false),
    }
}

/// [`RunResult`] field for field, without its `skip_serializing_if` (a format without
/// field names, such as postcard, must see every field). Destructuring the result in
/// [`encode`] and building it in [`decode`] keeps the two in step: a field added to
/// `RunResult` does not compile until it is added here (the simulator hash changes too).
#[derive(serde::Serialize)]
struct StoredRef<'a> {
    scenario: &'a String,
    seed: u64,
    duration_s: f64,
    warmup_s: f64,
    capacity_bps: f64,
    aggregate: &'a Aggregate,
    flows: &'a Vec<FlowResult>,
    links: &'a Vec<LinkResult>,
    conservation: &'a Conservation,
    engine: &'a EngineStats,
    series: &'a Option<Series>,
    swarm: &'a Option<SwarmResult>,
}

/// What [`StoredRef`] reads back as.
#[derive(serde::Deserialize)]
struct Stored {
    scenario: String,
    seed: u64,
    duration_s: f64,
    warmup_s: f64,
    capacity_bps: f64,
    aggregate: Aggregate,
    flows: Vec<FlowResult>,
    links: Vec<LinkResult>,
    conservation: Conservation,
    engine: EngineStats,
    series: Option<Series>,
    swarm: Option<SwarmResult>,
}

/// An entry's bytes.
pub fn encode(r: &RunResult) -> Vec<u8> {
    let RunResult {
        scenario,
        seed,
        duration_s,
        warmup_s,
        capacity_bps,
        aggregate,
        flows,
        links,
        conservation,
        engine,
        series,
        swarm,
    } = r;
    let stored = StoredRef {
        scenario,
        seed: *seed,
        duration_s: *duration_s,
        warmup_s: *warmup_s,
        capacity_bps: *capacity_bps,
        aggregate,
        flows,
        links,
        conservation,
        engine,
        series,
        swarm,
    };
    let payload = postcard::to_stdvec(&stored).expect("a run result serialises");
    let mut out = Vec::with_capacity(payload.len() + 48);
    out.extend_from_slice(MAGIC);
    out.extend_from_slice(&(payload.len() as u64).to_le_bytes());
    out.extend_from_slice(&payload);
    out.extend_from_slice(&Sha256::digest(&payload));
    out
}

/// Why an entry could not be read.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum Corrupt {
    /// It does not start with [`MAGIC`].
    #[error("not a run cache entry (bad header)")]
    Header,
    /// Its length disagrees with the length it records.
    #[error("{found} bytes where the header announces {expected}")]
    Length {
        /// Bytes the header announces (header and checksum included).
        expected: u64,
        /// Bytes found.
        found: u64,
    },
    /// The checksum does not match the payload.
    #[error("checksum mismatch")]
    Checksum,
    /// The payload does not decode.
    #[error("payload does not decode: {0}")]
    Decode(String),
}

/// The run an entry holds.
pub fn decode(bytes: &[u8]) -> Result<RunResult, Corrupt> {
    let head = MAGIC.len() + 8;
    if bytes.len() < head || &bytes[..MAGIC.len()] != MAGIC {
        return Err(Corrupt::Header);
    }
    let mut n = [0u8; 8];
    n.copy_from_slice(&bytes[MAGIC.len()..head]);
    let n = u64::from_le_bytes(n);
    let expected = (head as u64).saturating_add(n).saturating_add(32);
    if bytes.len() as u64 != expected {
        return Err(Corrupt::Length {
            expected,
            found: bytes.len() as u64,
        });
    }
    let payload = &bytes[head..head + n as usize];
    if Sha256::digest(payload).as_slice() != &bytes[head + n as usize..] {
        return Err(Corrupt::Checksum);
    }
    let s: Stored = postcard::from_bytes(payload).map_err(|e| Corrupt::Decode(e.to_string()))?;
    Ok(RunResult {
        scenario: s.scenario,
        seed: s.seed,
        duration_s: s.duration_s,
        warmup_s: s.warmup_s,
        capacity_bps: s.capacity_bps,
        aggregate: s.aggregate,
        flows: s.flows,
        links: s.links,
        conservation: s.conservation,
        engine: s.engine,
        series: s.series,
        swarm: s.swarm,
    })
}

/// What `ledbat cache stats` prints.
#[derive(Clone, Debug, PartialEq, serde::Serialize)]
pub struct Stats {
    /// Entries (format 1).
    pub entries: u64,
    /// Their bytes.
    pub bytes: u64,
    /// Files of other formats or leftovers (temporary files of interrupted writes).
    pub other_files: u64,
    /// The last recorded run's counters.
    pub last_run: Option<Counts>,
}

fn walk(dir: &Path, f: &mut impl FnMut(&Path, u64)) {
    let Ok(rd) = std::fs::read_dir(dir) else {
        return;
    };
    for e in rd.flatten() {
        let p = e.path();
        match e.metadata() {
            Ok(m) if m.is_dir() => walk(&p, f),
            Ok(m) => f(&p, m.len()),
            Err(_) => {}
        }
    }
}

/// The entries and bytes in `dir`, and its last recorded run.
pub fn stats(dir: &Path) -> Stats {
    let mut s = Stats {
        entries: 0,
        bytes: 0,
        other_files: 0,
        last_run: None,
    };
    walk(&dir.join(VERSION_DIR), &mut |p, len| {
        if p.extension().is_some_and(|e| e == "run") {
            s.entries += 1;
            s.bytes += len;
        } else {
            s.other_files += 1;
        }
    });
    s.last_run = std::fs::read_to_string(dir.join(LAST_RUN))
        .ok()
        .and_then(|t| serde_json::from_str(&t).ok());
    s
}

/// Removes every entry and the last run's record from `dir`; returns the stats before.
pub fn clear(dir: &Path) -> anyhow::Result<Stats> {
    use anyhow::Context;
    let before = stats(dir);
    let v = dir.join(VERSION_DIR);
    if v.exists() {
        std::fs::remove_dir_all(&v).with_context(|| format!("removing {}", v.display()))?;
    }
    let last = dir.join(LAST_RUN);
    if last.exists() {
        std::fs::remove_file(&last).with_context(|| format!("removing {}", last.display()))?;
    }
    Ok(before)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn scenario(extra: &[&str]) -> Scenario {
        let text = "duration = \"2s\"\n[[flow]]\ncc = { name = \"ledbat\" }\n[[flow]]\n\
                    cc = { name = \"newreno\" }\n";
        Scenario::from_toml_with(text, extra).unwrap()
    }

    #[test]
    fn the_key_takes_the_hashes_of_the_controllers_the_scenario_names_only() {
        let sc = scenario(&[]);
        let hashes = |changed: &'static str| {
            move |n: &str| match n {
                _ if n == changed => Some("changed"),
                "ledbat" | "newreno" | "cubic" => Some("h"),
                _ => None,
            }
        };
        let base = Key::with_code(&sc, 1, false, "sim", hashes("none"));
        assert_eq!(base, Key::with_code(&sc, 1, false, "sim", hashes("none")));
        assert_eq!(
            base,
            Key::with_code(&sc, 1, false, "sim", hashes("cubic")),
            "cubic is not in the scenario"
        );
        assert_ne!(base, Key::with_code(&sc, 1, false, "sim", hashes("ledbat")));
        assert_ne!(
            base,
            Key::with_code(&sc, 1, false, "sim", hashes("newreno"))
        );
        assert_ne!(base, Key::with_code(&sc, 1, false, "sim2", hashes("none")));
        assert_ne!(base, Key::with_code(&sc, 2, false, "sim", hashes("none")));
        assert_ne!(base, Key::with_code(&sc, 1, true, "sim", hashes("none")));
        let other = scenario(&["flow.0.cc.target=50ms"]);
        assert_ne!(
            base,
            Key::with_code(&other, 1, false, "sim", hashes("none")),
            "an override"
        );
    }

    /// The key as computed before [`InstanceKey`] (everything per run), kept to show that
    /// existing caches stay valid.
    fn key_computed_per_run<'h>(
        sc: &Scenario,
        seed: u64,
        exact: bool,
        simulator: &str,
        controller: impl Fn(&str) -> Option<&'h str>,
    ) -> Key {
        let json = serde_json::to_value(sc).unwrap();
        let mut names = std::collections::BTreeSet::new();
        named(&json, &mut names);
        let mut h = Sha256::new();
        h.update(MAGIC);
        h.update(simulator.as_bytes());
        h.update(b"\n");
        for n in &names {
            if let Some(c) = controller(n) {
                h.update(format!("{n}={c}\n").as_bytes());
            }
        }
        h.update(format!("seed={seed} exact={exact}\n").as_bytes());
        h.update(json.to_string().as_bytes());
        Key(h.finalize().into())
    }

    #[test]
    fn the_instance_part_computed_once_gives_the_keys_computed_per_run() {
        let swarm = std::fs::read_to_string(concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/../../scenarios/seed003/swarm-flashcrowd.toml"
        ))
        .unwrap();
        let scenarios = [
            scenario(&[]),
            scenario(&["flow.0.cc.target=50ms"]),
            Scenario::from_toml(&swarm).unwrap(),
        ];
        let code = |n: &str| match n {
            "ledbat" => Some("h1"),
            "newreno" => Some("h2"),
            _ => None,
        };
        for sc in &scenarios {
            let once = InstanceKey::with_code(sc, "sim", code);
            let this_build = InstanceKey::of(sc);
            let lazy = LazyKey::default();
            for seed in [1, 2, 10, u64::MAX] {
                for exact in [false, true] {
                    let old = key_computed_per_run(sc, seed, exact, "sim", code);
                    assert_eq!(once.key(seed, exact), old);
                    assert_eq!(Key::with_code(sc, seed, exact, "sim", code), old);
                    let built = Key::of(sc, seed, exact);
                    assert_eq!(this_build.key(seed, exact), built);
                    assert_eq!(lazy.get(sc).key(seed, exact), built);
                }
            }
        }
        assert_ne!(
            InstanceKey::of(&scenarios[0]).key(1, false),
            InstanceKey::of(&scenarios[1]).key(1, false)
        );
    }

    #[test]
    fn the_key_is_the_same_however_the_scenario_was_written() {
        // A default written out, keys in another order, an override instead of a key.
        let a = scenario(&[]);
        let b = Scenario::from_toml_with(
            "mss = 1500\n[[flow]]\ncc = { name = \"ledbat\" }\n[[flow]]\n\
             cc = { name = \"newreno\" }\n",
            &["duration=2s"],
        )
        .unwrap();
        assert_eq!(a, b);
        assert_eq!(Key::of(&a, 3, false), Key::of(&b, 3, false));
    }

    #[test]
    fn the_build_hashes_every_registered_controller() {
        assert_eq!(code::SIMULATOR.len(), 64);
        for info in ledbat_core::CATALOG {
            assert!(
                code::CONTROLLERS.iter().any(|(n, _)| *n == info.name),
                "{} has no hash",
                info.name
            );
        }
        assert!(code::SIMULATOR_FILES.contains(&"Cargo.lock"));
        assert!(code::SIMULATOR_FILES.contains(&"crates/ledbat-core/src/delay.rs"));
        assert!(!code::SIMULATOR_FILES.contains(&"crates/ledbat-core/src/cubic.rs"));
    }

    #[test]
    fn a_stored_run_comes_back_bit_exact_and_a_corrupt_one_is_a_miss() {
        let temp = crate::tmpdir("roundtrip");
        let dir = temp.path().join("cache");
        let cache = Cache::new(&dir);
        let sc = scenario(&[]);
        let calls = std::cell::Cell::new(0);
        let sim = || {
            calls.set(calls.get() + 1);
            ledbat_sim::run(&sc, 1).map_err(|e| e.to_string())
        };
        let (first, hit) = cache.run(&sc, 1, false, sim);
        assert!(!hit);
        let (second, hit) = cache.run(&sc, 1, false, sim);
        assert!(hit);
        assert_eq!(calls.get(), 1);
        let (first, second) = (first.unwrap(), second.unwrap());
        // Bit-exact, NaN included: compare the encodings.
        assert_eq!(encode(&first), encode(&second));
        assert_eq!(
            cache.counts(),
            Counts {
                hits: 1,
                misses: 1,
                corrupt: 0,
                written: 1,
                write_errors: 0
            }
        );
        // Truncate the entry: a miss, simulated again and rewritten.
        let path = cache.path(&Key::of(&sc, 1, false));
        let bytes = std::fs::read(&path).unwrap();
        std::fs::write(&path, &bytes[..bytes.len() / 2]).unwrap();
        let (third, hit) = cache.run(&sc, 1, false, sim);
        assert!(!hit);
        assert_eq!(calls.get(), 2);
        assert_eq!(encode(&third.unwrap()), encode(&first));
        assert_eq!(cache.counts().corrupt, 1);
        assert_eq!(std::fs::read(&path).unwrap(), bytes, "rewritten whole");
        let s = stats(&dir);
        assert_eq!((s.entries, s.bytes), (1, bytes.len() as u64));
        cache.record().unwrap();
        assert_eq!(stats(&dir).last_run, Some(cache.counts()));
        let before = clear(&dir).unwrap();
        assert_eq!(before.entries, 1);
        assert_eq!(stats(&dir).entries, 0);
        assert_eq!(stats(&dir).last_run, None);
    }

    #[test]
    fn every_kind_of_damage_is_named() {
        let r = ledbat_sim::run(&scenario(&["duration=200ms"]), 1).unwrap();
        let good = encode(&r);
        assert_eq!(decode(&good).map(|d| encode(&d)), Ok(good.clone()));
        assert_eq!(decode(b"LBT"), Err(Corrupt::Header));
        assert_eq!(decode(&[0u8; 64]), Err(Corrupt::Header));
        let short = &good[..good.len() - 1];
        assert_eq!(
            decode(short),
            Err(Corrupt::Length {
                expected: good.len() as u64,
                found: good.len() as u64 - 1
            })
        );
        let mut flipped = good.clone();
        flipped[20] ^= 1;
        assert_eq!(decode(&flipped), Err(Corrupt::Checksum));
        // A payload that passes its checksum but is not a run.
        let mut junk = MAGIC.to_vec();
        junk.extend_from_slice(&3u64.to_le_bytes());
        junk.extend_from_slice(&[0xff; 3]);
        junk.extend_from_slice(&Sha256::digest([0xff; 3]));
        assert!(matches!(decode(&junk), Err(Corrupt::Decode(_))));
    }

    #[test]
    fn without_a_cache_every_run_is_simulated() {
        let sc = scenario(&["duration=100ms"]);
        let mut calls = 0;
        for _ in 0..2 {
            let (_, hit) = run_with(
                None,
                || unreachable!("no key without a cache"),
                || {
                    calls += 1;
                    ledbat_sim::run(&sc, 1).map_err(|e| e.to_string())
                },
            );
            assert!(!hit);
        }
        assert_eq!(calls, 2);
    }

    #[test]
    fn the_default_directory_follows_xdg_then_home() {
        let os = |s: &str| Some(std::ffi::OsString::from(s));
        assert_eq!(
            dir_from(os("/x/cache"), os("/home/u")),
            Some(PathBuf::from("/x/cache/ledbat"))
        );
        assert_eq!(
            dir_from(os("relative"), os("/home/u")),
            Some(PathBuf::from("/home/u/.cache/ledbat"))
        );
        assert_eq!(
            dir_from(None, os("/home/u")),
            Some(PathBuf::from("/home/u/.cache/ledbat"))
        );
        assert_eq!(dir_from(None, None), None);
    }
}
