//! `ledbat repro`: re-checks the quantitative claims of the five seed papers.
//!
//! Runs each selected claim's scenarios (`scenarios/seed00N/`) for seeds 1..=N in parallel
//! (or, with `--seeds auto`, in rounds until each claim's verdict is decided),
//! judges every claim against its documented tolerance, prints a table (or JSON) and writes
//! `DIR/report.md` and a self-contained `DIR/index.html` (plots inline as SVG). Runs come
//! from the run cache (`ledbat_repro::cache`) when their scenario, seed and code are
//! unchanged; `--no-cache` simulates them all. `--dask ADDR` sends the others to a Dask
//! cluster (`ledbat_repro::remote`; the workers run `ledbat repro --run-job`).

use crate::support::write_file_atomically;
use anyhow::{bail, Context};
use ledbat_repro::remote::{Answer, DaskExecutor, Remote};
use ledbat_repro::runner::{self, Options};
use ledbat_repro::sequential::{Rule, LOOKS};
use std::path::{Path, PathBuf};

/// Arguments of `ledbat repro`.
#[derive(clap::Args, Debug)]
pub struct Args {
    /// Claims to run: ids (`s003-ledbat-newreno-jain`), id prefixes (`s003-red`) or papers
    /// (`seed001`). Default: every claim.
    pub claims: Vec<String>,
    /// Seeds per scenario: N (seeds 1..=N for every claim), or `auto`: seeds in rounds of
    /// 5, 10, 20, 30, each claim stopping at the first where its verdict is decided at 95 %
    /// or where 30 could not decide it (the report states the rule and each claim's seeds);
    /// `auto:5,10` (any increasing looks from 2): the same rule with those rounds, the last
    /// the limit.
    #[arg(long, default_value = "10", value_parser = parse_seeds)]
    pub seeds: SeedsArg,
    /// Output directory for report.md and index.html.
    #[arg(long, default_value = "repro")]
    pub out: PathBuf,
    /// Reduced-duration variants of the long scenarios (listed in the report) for CI.
    #[arg(long)]
    pub quick: bool,
    /// Print the outcomes as JSON instead of the table.
    #[arg(long)]
    pub json: bool,
    /// List the claims and exit.
    #[arg(long)]
    pub list: bool,
    /// Directory holding the scenario files. Default: ./scenarios, else the source tree's.
    #[arg(long)]
    pub scenarios: Option<PathBuf>,
    /// Worker threads (default: one per core).
    #[arg(long)]
    pub jobs: Option<usize>,
    /// The run cache's directory: runs whose scenario, seed and code are unchanged are read
    /// from it instead of simulated. Default: $XDG_CACHE_HOME/ledbat, else ~/.cache/ledbat.
    #[arg(long, value_name = "DIR")]
    pub cache: Option<PathBuf>,
    /// Simulate every run; neither read nor write the run cache.
    #[arg(long, conflicts_with = "cache")]
    pub no_cache: bool,
    /// Send the runs not in the run cache to the Dask scheduler at ADDR (`tcp://host:8786`),
    /// one task per run; the report is the local one byte for byte. Needs a Python with the
    /// `ledbat` package and its dask extra (`pip install './python[dask]'`), and this binary
    /// at the same path on every worker.
    #[arg(long, value_name = "ADDR")]
    pub dask: Option<String>,
    /// The Python that runs `-m ledbat.dask_runs` for --dask. Default: $LEDBAT_PYTHON, else
    /// python3.
    #[arg(long, value_name = "PATH", requires = "dask")]
    pub dask_python: Option<PathBuf>,
    /// Seconds to wait for the Dask scheduler before giving up (--dask).
    #[arg(long, value_name = "SECS", default_value_t = 10.0, requires = "dask")]
    pub dask_timeout: f64,
    /// Run one job read from stdin and write its result to stdout (what a Dask worker runs;
    /// `ledbat_repro::remote`).
    #[arg(long, hide = true)]
    pub run_job: bool,
    /// Write the pages generated from the coverage map (DIR/coverage.md, DIR/setup.md) and
    /// exit without simulating (`--coverage docs/repro` regenerates the committed ones).
    #[arg(long, value_name = "DIR")]
    pub coverage: Option<PathBuf>,
    /// With --coverage: check every quote of the map against the papers' text files in DIR
    /// (`000_*.txt` .. `004_*.txt`); fails listing the quotes not found.
    #[arg(long, value_name = "DIR", requires = "coverage")]
    pub papers: Option<PathBuf>,
}

/// What `--seeds` asks for.
#[derive(Clone, Debug, PartialEq)]
pub enum SeedsArg {
    /// Seeds 1..=N for every claim.
    Fixed(u64),
    /// The sequential rule of `ledbat_repro::sequential`, with its looks.
    Auto(Rule),
}

impl std::fmt::Display for SeedsArg {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            SeedsArg::Fixed(n) => write!(f, "{n}"),
            SeedsArg::Auto(r) if r.looks == LOOKS => f.write_str("auto"),
            SeedsArg::Auto(r) => {
                let looks: Vec<String> = r.looks.iter().map(u64::to_string).collect();
                write!(f, "auto:{}", looks.join(","))
            }
        }
    }
}

/// Parses `--seeds`: a count of at least 1, `auto`, or `auto:` and the looks.
fn parse_seeds(s: &str) -> Result<SeedsArg, String> {
    if s == "auto" {
        return Ok(SeedsArg::Auto(Rule::default()));
    }
    if let Some(list) = s.strip_prefix("auto:") {
        let looks = list
            .split(',')
            .map(|n| {
                n.trim()
                    .parse::<u64>()
                    .map_err(|_| format!("`{s}`: `{n}` is not a number of seeds"))
            })
            .collect::<Result<Vec<u64>, String>>()?;
        return Rule::with_looks(looks)
            .map(SeedsArg::Auto)
            .map_err(|e| format!("`{s}`: {e}"));
    }
    match s.parse::<u64>() {
        Ok(0) => Err("must be at least 1".into()),
        Ok(n) => Ok(SeedsArg::Fixed(n)),
        Err(_) => Err(format!(
            "`{s}` is neither a number of seeds nor `auto` (or `auto:5,10`)"
        )),
    }
}

/// `--coverage DIR [--papers DIR]`.
fn write_coverage(dir: &Path, papers: Option<&Path>) -> anyhow::Result<()> {
    use ledbat_repro::coverage::{render, unmatched_quotes, Map, PAPERS};
    let map = Map::load().map_err(anyhow::Error::msg)?;
    let problems = map.problems();
    if !problems.is_empty() {
        bail!(
            "the coverage map breaks its rules:\n{}",
            problems.join("\n")
        );
    }
    if let Some(pd) = papers {
        let mut missing = Vec::new();
        for (paper, _) in PAPERS {
            let prefix = format!("{}_", &paper[4..]);
            let file = std::fs::read_dir(pd)
                .with_context(|| format!("--papers {}", pd.display()))?
                .filter_map(|e| e.ok().map(|e| e.path()))
                .find(|p| {
                    p.file_name()
                        .and_then(|n| n.to_str())
                        .is_some_and(|n| n.starts_with(&prefix) && n.ends_with(".txt"))
                })
                .with_context(|| format!("--papers {}: no {prefix}*.txt", pd.display()))?;
            let text = std::fs::read_to_string(&file)
                .with_context(|| format!("reading {}", file.display()))?;
            for (at, q) in unmatched_quotes(&map, paper, &text) {
                missing.push(format!("{paper} {at}: \"{q}\""));
            }
        }
        if !missing.is_empty() {
            bail!(
                "{} quotes not found in the papers' text:\n{}",
                missing.len(),
                missing.join("\n")
            );
        }
        eprintln!("repro: every quote of the coverage map is in the papers' text");
    }
    std::fs::create_dir_all(dir).with_context(|| format!("creating {}", dir.display()))?;
    write_file_atomically(&dir.join("coverage.md"), render::coverage_md(&map))?;
    write_file_atomically(&dir.join("setup.md"), render::setup_md(&map))?;
    eprintln!(
        "repro: wrote {} and {}",
        dir.join("coverage.md").display(),
        dir.join("setup.md").display()
    );
    Ok(())
}

fn scenarios_dir(given: Option<PathBuf>) -> anyhow::Result<PathBuf> {
    if let Some(d) = given {
        if !d.is_dir() {
            bail!("--scenarios {}: not a directory", d.display());
        }
        return Ok(d);
    }
    let local = PathBuf::from("scenarios");
    if local.join("seed000").is_dir() {
        return Ok(local);
    }
    let tree = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../scenarios");
    if tree.join("seed000").is_dir() {
        return Ok(tree);
    }
    bail!("no scenarios directory: run from the repository root or pass --scenarios DIR")
}

/// Writes to stdout; a closed pipe (`| head`) ends output quietly instead of panicking.
fn emit(text: &str) -> anyhow::Result<()> {
    use std::io::Write;
    match std::io::stdout().lock().write_all(text.as_bytes()) {
        Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => Ok(()),
        r => r.context("writing to stdout"),
    }
}

/// `--run-job`: one job from stdin; its cache entry on stdout (exit 0), or the simulator's
/// error on stdout (exit 3); a job that cannot be run here is an error (exit 1).
fn run_job() -> anyhow::Result<()> {
    use std::io::{Read, Write};
    let mut line = Vec::new();
    std::io::stdin()
        .read_to_end(&mut line)
        .context("reading the job from stdin")?;
    let answer = ledbat_repro::remote::run_job(&line).map_err(anyhow::Error::msg)?;
    let mut out = std::io::stdout().lock();
    match answer {
        Answer::Entry(bytes) => {
            out.write_all(&bytes).context("writing the result")?;
            out.flush().context("writing the result")?;
            Ok(())
        }
        Answer::Failed(e) => {
            out.write_all(e.as_bytes()).context("writing the result")?;
            out.flush().context("writing the result")?;
            std::process::exit(3)
        }
    }
}

/// Runs the command.
pub fn run(a: Args) -> anyhow::Result<()> {
    if a.run_job {
        return run_job();
    }
    if let Some(dir) = &a.coverage {
        return write_coverage(dir, a.papers.as_deref());
    }
    if a.list {
        let mut text = String::new();
        for c in runner::select(&a.claims)? {
            text.push_str(&format!("{:<40} {:<8} {}\n", c.id, c.paper, c.statement));
        }
        return emit(&text);
    }
    if !(a.dask_timeout > 0.0 && a.dask_timeout.is_finite()) {
        bail!("--dask-timeout must be a positive number of seconds");
    }
    if let Some(j) = a.jobs {
        if j == 0 {
            bail!("--jobs must be at least 1");
        }
        rayon::ThreadPoolBuilder::new()
            .num_threads(j)
            .build_global()
            .context("setting --jobs")?;
    }
    let cache = if a.no_cache {
        None
    } else {
        let dir = crate::cache_cmd::dir(a.cache)?;
        eprintln!("repro: run cache {}", dir.display());
        Some(std::sync::Arc::new(ledbat_repro::cache::Cache::new(dir)))
    };
    let remote = match &a.dask {
        None => None,
        Some(addr) => {
            let python = a
                .dask_python
                .clone()
                .or_else(|| std::env::var_os("LEDBAT_PYTHON").map(PathBuf::from))
                .unwrap_or_else(|| PathBuf::from("python3"));
            let ledbat = std::env::current_exe().context("--dask: locating this binary")?;
            Some(std::sync::Arc::new(Remote::new(DaskExecutor {
                scheduler: addr.clone(),
                python,
                ledbat,
                timeout_s: a.dask_timeout,
            })))
        }
    };
    let opts = Options {
        scenarios_dir: scenarios_dir(a.scenarios)?,
        seeds: match &a.seeds {
            SeedsArg::Fixed(n) => *n,
            SeedsArg::Auto(rule) => rule.limit(),
        },
        sequential: match &a.seeds {
            SeedsArg::Fixed(_) => None,
            SeedsArg::Auto(rule) => Some(rule.clone()),
        },
        quick: a.quick,
        select: a.claims.clone(),
        progress: true,
        cache,
        remote: remote.clone(),
    };
    let mut command = format!("ledbat repro --seeds {}", a.seeds);
    if a.quick {
        command.push_str(" --quick");
    }
    for c in &a.claims {
        command.push(' ');
        command.push_str(c);
    }
    runner::select(&a.claims)?;
    std::fs::create_dir_all(&a.out).with_context(|| format!("creating {}", a.out.display()))?;
    let t0 = std::time::Instant::now();
    let mut report = runner::run(&opts, &command)?;
    report.elapsed_secs = t0.elapsed().as_secs_f64();
    if let Some(e) = remote.as_ref().and_then(|r| r.failure()) {
        bail!("--dask: {e}; no report written");
    }
    write_file_atomically(&a.out.join("report.md"), report.to_markdown())?;
    write_file_atomically(&a.out.join("index.html"), report.to_html())?;
    if a.json {
        emit(&(report.to_json() + "\n"))?;
    } else {
        emit(&report.to_terminal())?;
    }
    eprintln!(
        "repro: {} claims in {:.1} s wall clock; wrote {} and {}",
        report.claims.len(),
        report.elapsed_secs,
        a.out.join("report.md").display(),
        a.out.join("index.html").display()
    );
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn seeds_are_a_count_or_auto() {
        assert_eq!(parse_seeds("10"), Ok(SeedsArg::Fixed(10)));
        assert_eq!(parse_seeds("auto"), Ok(SeedsArg::Auto(Rule::default())));
        let short = parse_seeds("auto:5,10").unwrap();
        assert_eq!(
            short,
            SeedsArg::Auto(Rule::with_looks(vec![5, 10]).unwrap())
        );
        assert_eq!(short.to_string(), "auto:5,10");
        assert_eq!(parse_seeds("auto:5,10,20,30").unwrap().to_string(), "auto");
        let e = parse_seeds("auto:5,x").unwrap_err();
        assert!(
            e.contains("`auto:5,x`") && e.contains("`x` is not a number"),
            "{e}"
        );
        let e = parse_seeds("auto:10,5").unwrap_err();
        assert!(
            e.contains("`auto:10,5`") && e.contains("must increase"),
            "{e}"
        );
        assert!(parse_seeds("auto:1,5")
            .unwrap_err()
            .contains("at least 2 seeds"));
        assert!(parse_seeds("auto:")
            .unwrap_err()
            .contains("`` is not a number"));
        assert!(parse_seeds("0").unwrap_err().contains("at least 1"));
        assert!(parse_seeds("many").unwrap_err().contains("`many`"));
        assert_eq!(SeedsArg::Auto(Rule::default()).to_string(), "auto");
        assert_eq!(SeedsArg::Fixed(3).to_string(), "3");
    }
}
