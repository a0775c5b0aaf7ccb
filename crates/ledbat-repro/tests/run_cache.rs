//! The run cache end to end: a report built from cached runs is byte-identical to one built
//! by simulating; a warm cache simulates nothing; a corrupt entry is simulated again; a
//! changed override is a different entry. Every cache lives in a temporary directory.

use ledbat_repro::cache::{self, Cache, Key};
use ledbat_repro::catalog::ScenarioRef;
use ledbat_repro::runner::{load, run, Options};
use std::path::{Path, PathBuf};
use std::sync::Arc;

fn opts(cache: Option<Arc<Cache>>) -> Options {
    Options {
        scenarios_dir: Path::new(env!("CARGO_MANIFEST_DIR")).join("../../scenarios"),
        seeds: 2,
        quick: true,
        select: vec!["s003-ledbat-ledbat-fair".into()],
        progress: false,
        cache,
        ..Options::default()
    }
}

/// A fresh directory, removed when dropped whether the test passes or fails.
fn scratch(tag: &str) -> tempfile::TempDir {
    tempfile::Builder::new()
        .prefix(&format!("ledbat-run-cache-{tag}-"))
        .tempdir()
        .unwrap()
}

fn entries(dir: &Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    for sub in std::fs::read_dir(dir.join(cache::VERSION_DIR)).unwrap() {
        for e in std::fs::read_dir(sub.unwrap().path()).unwrap() {
            out.push(e.unwrap().path());
        }
    }
    out.sort();
    out
}

#[test]
fn reports_from_the_cache_are_byte_identical_and_a_warm_cache_simulates_nothing() {
    let temp = scratch("identical");
    let dir = temp.path().join("cache");
    let plain = run(&opts(None), "x").unwrap();
    let runs = plain.runs as u64;
    assert!(runs >= 3, "{runs}");

    let cold = Arc::new(Cache::new(&dir));
    let from_cold = run(&opts(Some(cold.clone())), "x").unwrap();
    let c = cold.counts();
    assert_eq!((c.hits, c.misses, c.written, c.corrupt), (0, runs, runs, 0));

    let warm = Arc::new(Cache::new(&dir));
    let from_warm = run(&opts(Some(warm.clone())), "x").unwrap();
    let c = warm.counts();
    assert_eq!((c.hits, c.misses, c.written), (runs, 0, 0));
    assert_eq!(
        cache::stats(&dir).last_run,
        Some(c),
        "the last run is recorded"
    );

    // The same report but for the cost line's count of the runs read from the cache.
    let all = "; all read from the run cache, none simulated";
    assert!(!from_cold.to_markdown().contains("run cache"));
    assert!(from_warm.to_markdown().contains(all));
    for r in [&from_cold, &from_warm] {
        assert_eq!(r.to_markdown().replace(all, ""), plain.to_markdown());
        assert_eq!(r.to_html().replace(all, ""), plain.to_html());
        assert_eq!(r.to_json(), plain.to_json());
    }

    // Damage one entry: that run alone is simulated again, and the report does not change.
    let files = entries(&dir);
    assert_eq!(files.len() as u64, runs, "one entry per run");
    let bytes = std::fs::read(&files[0]).unwrap();
    std::fs::write(&files[0], &bytes[..bytes.len() - 7]).unwrap();
    let again = Arc::new(Cache::new(&dir));
    let from_damaged = run(&opts(Some(again.clone())), "x").unwrap();
    let c = again.counts();
    assert_eq!(
        (c.hits, c.misses, c.corrupt, c.written),
        (runs - 1, 1, 1, 1)
    );
    let some = format!(
        "; {} of them read from the run cache, not simulated",
        runs - 1
    );
    assert_eq!(
        from_damaged.to_markdown().replace(&some, ""),
        plain.to_markdown()
    );
    assert_eq!(
        std::fs::read(&files[0]).unwrap(),
        bytes,
        "the entry is rewritten"
    );
}

#[test]
fn an_override_is_a_different_entry() {
    let o = opts(None);
    let plain = ScenarioRef::file("seed003/ledbat-ledbat.toml");
    let changed = ScenarioRef::with("seed003/ledbat-ledbat.toml", &["flow.0.cc.target=50ms"]);
    let a = load(&o, &plain).unwrap();
    let b = load(&o, &changed).unwrap();
    assert_ne!(Key::of(&a, 1, false), Key::of(&b, 1, false));
    // The same instance loaded twice is the same entry.
    assert_eq!(
        Key::of(&a, 1, false),
        Key::of(&load(&o, &plain).unwrap(), 1, false)
    );
}
