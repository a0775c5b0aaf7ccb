//! Every scenario file shipped in the repository parses under the current schema and
//! round-trips through `Scenario::to_toml` (what `ledbat sim --out` writes).

use ledbat_sim::Scenario;
use std::path::Path;

fn toml_files(dir: &Path, out: &mut Vec<std::path::PathBuf>) {
    let Ok(rd) = std::fs::read_dir(dir) else {
        return;
    };
    for e in rd.flatten() {
        let p = e.path();
        if p.is_dir() {
            toml_files(&p, out);
        } else if p.extension().is_some_and(|x| x == "toml") {
            out.push(p);
        }
    }
}

#[test]
fn shipped_scenarios_parse_and_round_trip() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../scenarios");
    let mut files = Vec::new();
    toml_files(&root, &mut files);
    files.sort();
    let mut checked = 0;
    for f in &files {
        let text = std::fs::read_to_string(f).unwrap();
        // Sweep files have a `scenario` key and a `[grid]`; they are not scenarios.
        if text
            .lines()
            .any(|l| l.trim_start().starts_with("scenario ="))
        {
            continue;
        }
        let sc = Scenario::from_toml(&text).unwrap_or_else(|e| panic!("{}: {e}", f.display()));
        let back = Scenario::from_toml(&sc.to_toml())
            .unwrap_or_else(|e| panic!("{} round trip: {e}", f.display()));
        assert_eq!(back, sc, "{}", f.display());
        checked += 1;
    }
    assert!(
        checked >= 4,
        "found only {checked} scenario files under {}",
        root.display()
    );
}
