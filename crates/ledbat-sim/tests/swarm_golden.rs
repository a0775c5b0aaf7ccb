//! Golden outputs of seeded swarms: seed 003's section 5.1 swarm
//! (`scenarios/seed003/swarm.toml`) and its chapter 6 flash crowd
//! (`scenarios/seed003/swarm-flashcrowd.toml` with a 10-MiB file in 128-KiB pieces instead
//! of the thesis's 100 MB, [`FLASH_SMALL`], to keep the test short), three seeds each. What `ledbat swarm`
//! writes besides its plots (summary.json, peers.csv, completions.csv) must stay byte for
//! byte the same; a change to the swarm's code that moves it is explained in its commit and
//! the files regenerated with
//! `UPDATE_GOLDEN=1 cargo test --release -p ledbat-sim --test swarm_golden`.

use ledbat_sim::export;
use ledbat_sim::{run, Scenario};
use std::path::PathBuf;

/// The flash crowd's file for these tests.
const FLASH_SMALL: &[&str] = &["swarm.file_size=\"10MiB\"", "swarm.piece_size=\"128KiB\""];

fn check(scenario: &str, seed: u64) {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    let file = root
        .join("../../scenarios/seed003")
        .join(format!("{scenario}.toml"));
    let text = std::fs::read_to_string(&file).unwrap();
    let set: &[&str] = if scenario == "swarm-flashcrowd" {
        FLASH_SMALL
    } else {
        &[]
    };
    let sc = Scenario::from_toml_with(&text, set).unwrap();
    let r = run(&sc, seed).unwrap();
    let s = r.swarm.as_ref().expect("a swarm run");
    let outputs = [
        ("summary.json", export::summary_json(&r)),
        ("peers.csv", export::swarm_peers_table(s).to_csv()),
        (
            "completions.csv",
            export::swarm_completions_table(s).to_csv(),
        ),
    ];
    let dir = root
        .join("tests/golden/swarm")
        .join(format!("{scenario}-seed{seed}"));
    if std::env::var_os("UPDATE_GOLDEN").is_some() {
        std::fs::create_dir_all(&dir).unwrap();
        for (name, got) in &outputs {
            std::fs::write(dir.join(name), got).unwrap();
        }
    }
    for (name, got) in &outputs {
        let path = dir.join(name);
        let want = std::fs::read_to_string(&path)
            .unwrap_or_else(|_| panic!("{} missing: run with UPDATE_GOLDEN=1", path.display()));
        if *got != want {
            let line = got
                .lines()
                .zip(want.lines())
                .position(|(a, b)| a != b)
                .unwrap_or(got.lines().count().min(want.lines().count()));
            panic!(
                "{} differs from this run, first at line {}:\n  golden: {}\n  now:    {}",
                path.display(),
                line + 1,
                want.lines().nth(line).unwrap_or("<end>"),
                got.lines().nth(line).unwrap_or("<end>"),
            );
        }
    }
}

#[test]
fn section_5_1_swarm_seed_1() {
    check("swarm", 1);
}

#[test]
fn section_5_1_swarm_seed_2() {
    check("swarm", 2);
}

#[test]
fn section_5_1_swarm_seed_3() {
    check("swarm", 3);
}

#[test]
fn flash_crowd_seed_1() {
    check("swarm-flashcrowd", 1);
}

#[test]
fn flash_crowd_seed_2() {
    check("swarm-flashcrowd", 2);
}

#[test]
fn flash_crowd_seed_3() {
    check("swarm-flashcrowd", 3);
}
