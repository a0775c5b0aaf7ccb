//! Runs simulated elsewhere: `ledbat repro --dask ADDR` sends the runs that are not in the
//! run cache to a Dask cluster, one task per run, and builds the same report as a local run.
//!
//! **The runner's hook.** Before the runner simulates a batch of runs, [`Remote::prefetch`]
//! gives the [`Executor`] every run of the batch whose [`Key`] has no readable cache entry,
//! in one call. The runner then asks [`Remote::take`] for each run before simulating it;
//! a result that came back is used as if it had been simulated here (stored in the cache by
//! [`crate::cache::Cache::run`], errors labelled the same way), so the report is the local
//! one byte for byte. When the batch fails as a whole (scheduler unreachable, a worker's
//! build differs), every run it held becomes an error without being simulated here, and
//! [`Remote::failure`] says why: the command reports it and writes no report.
//!
//! **The wire format.** A [`Job`] is one line of JSON: `{"key", "seed", "exact",
//! "scenario"}`, the scenario as loaded (every default filled in, as the cache key sees it).
//! A worker runs [`run_job`] on it (`ledbat repro --run-job`, stdin to stdout): it rebuilds
//! the scenario, recomputes the key with its own build's code hashes and refuses a job whose
//! key differs (another version of the simulator, or a scenario that does not survive the
//! JSON round trip: serde_json parses floats exactly only with its `float_roundtrip`
//! feature, which this crate turns on), then answers with the run's cache entry
//! ([`crate::cache::encode`]: bit-exact floats, checksummed) or the simulator's error text. [`DaskExecutor`] writes the
//! jobs to a file, runs `python -m ledbat.dask_runs` (the Python package in `python/`) and
//! reads back, per job in order, a status byte (0: entry, 1: simulation error), the payload
//! length (u64 little-endian) and the payload.

use crate::cache::{self, Cache, Key};
use ledbat_sim::{RunResult, Scenario};
use std::collections::{HashMap, HashSet};
use std::path::PathBuf;
use std::sync::Mutex;

/// A run's result as the runner sees it: the run, or the simulator's error text.
pub type Outcome = Result<RunResult, String>;

/// One run to simulate elsewhere.
#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct Job {
    /// The cache key of the run (lower-case hex), as computed by the sender.
    pub key: String,
    /// The seed.
    pub seed: u64,
    /// Whether it is the exact-start run.
    pub exact: bool,
    /// The scenario as loaded.
    pub scenario: Scenario,
}

impl Job {
    /// The job of `sc` run with `seed`.
    pub fn new(sc: &Scenario, seed: u64, exact: bool) -> Job {
        Job::keyed(sc, &Key::of(sc, seed, exact), seed, exact)
    }

    /// The job of `sc` run with `seed`, whose key is `key` (from its instance's
    /// [`crate::cache::InstanceKey`]).
    pub fn keyed(sc: &Scenario, key: &Key, seed: u64, exact: bool) -> Job {
        Job {
            key: key.hex(),
            seed,
            exact,
            scenario: sc.clone(),
        }
    }

    /// The job as one line of JSON (no newline).
    pub fn to_line(&self) -> String {
        serde_json::to_string(self).expect("a job serialises")
    }
}

/// What a worker answers to a job it could read.
#[derive(Debug, PartialEq)]
pub enum Answer {
    /// The run's cache entry ([`crate::cache::encode`]).
    Entry(Vec<u8>),
    /// The simulator's error.
    Failed(String),
}

/// Runs one job (the worker's side): `Err` when the job cannot be read or its key is not
/// this build's key for it.
pub fn run_job(line: &[u8]) -> Result<Answer, String> {
    let job: Job = serde_json::from_slice(line).map_err(|e| format!("not a repro job: {e}"))?;
    let key = Key::of(&job.scenario, job.seed, job.exact).hex();
    if key != job.key {
        return Err(format!(
            "job {}: this worker computes key {key}: its ledbat build (simulator or \
             controller code) differs from the sender's, or the scenario does not survive \
             the JSON round trip",
            job.key
        ));
    }
    Ok(match ledbat_sim::run(&job.scenario, job.seed) {
        Ok(r) => Answer::Entry(cache::encode(&r)),
        Err(e) => Answer::Failed(e.to_string()),
    })
}

/// Something that simulates a batch of runs elsewhere.
pub trait Executor: Send + Sync {
    /// One outcome per job, in the jobs' order; `Err` when the batch failed as a whole.
    fn run(&self, jobs: &[Job]) -> Result<Vec<Outcome>, String>;
}

/// The runner's view of an [`Executor`]: the results that came back, and the failure.
pub struct Remote {
    exec: Box<dyn Executor>,
    done: Mutex<HashMap<Key, Outcome>>,
    failure: Mutex<Option<String>>,
    sent: Mutex<u64>,
}

impl std::fmt::Debug for Remote {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Remote")
            .field("sent", &self.sent())
            .field("failure", &self.failure())
            .finish()
    }
}

impl Remote {
    /// Runs sent to `exec`.
    pub fn new(exec: impl Executor + 'static) -> Remote {
        Remote {
            exec: Box::new(exec),
            done: Mutex::new(HashMap::new()),
            failure: Mutex::new(None),
            sent: Mutex::new(0),
        }
    }

    /// Sends the runs of a batch that `cache` cannot give (each distinct run once) to the
    /// executor, and keeps what comes back: `(scenario, its key, seed, exact)`. Nothing is
    /// sent after a failure.
    pub fn prefetch<'a>(
        &self,
        cache: Option<&Cache>,
        runs: impl IntoIterator<Item = (&'a Scenario, Key, u64, bool)>,
    ) {
        if self.failure().is_some() {
            return;
        }
        let mut seen = HashSet::new();
        let mut keys = Vec::new();
        let mut jobs = Vec::new();
        {
            let done = self.done.lock().expect("not poisoned");
            for (sc, key, seed, exact) in runs {
                if !seen.insert(key) || done.contains_key(&key) {
                    continue;
                }
                if cache.is_some_and(|c| c.contains(&key)) {
                    continue;
                }
                keys.push(key);
                jobs.push(Job::keyed(sc, &key, seed, exact));
            }
        }
        if jobs.is_empty() {
            return;
        }
        *self.sent.lock().expect("not poisoned") += jobs.len() as u64;
        match self.exec.run(&jobs) {
            Ok(out) if out.len() == jobs.len() => {
                self.done
                    .lock()
                    .expect("not poisoned")
                    .extend(keys.into_iter().zip(out));
            }
            Ok(out) => {
                *self.failure.lock().expect("not poisoned") = Some(format!(
                    "{} results came back for {} runs",
                    out.len(),
                    jobs.len()
                ));
            }
            Err(e) => *self.failure.lock().expect("not poisoned") = Some(e),
        }
    }

    /// The outcome of a run sent by [`Remote::prefetch`] (as often as asked: instances
    /// that load to the same scenario share a run); an error for any run after a failed
    /// batch; `None` for a run never sent (simulate it here).
    pub fn take(&self, key: &Key) -> Option<Outcome> {
        if let Some(o) = self.done.lock().expect("not poisoned").get(key) {
            return Some(o.clone());
        }
        self.failure()
            .map(|e| Err(format!("not simulated (remote runs failed: {e})")))
    }

    /// Why a batch failed, if one did.
    pub fn failure(&self) -> Option<String> {
        self.failure.lock().expect("not poisoned").clone()
    }

    /// Runs sent so far.
    pub fn sent(&self) -> u64 {
        *self.sent.lock().expect("not poisoned")
    }
}

/// [`Remote::take`] of the run of `key` when there is a remote (`key` is called only then),
/// else `None`: the runner's one call.
pub fn take(remote: Option<&Remote>, key: impl FnOnce() -> Key) -> Option<Outcome> {
    remote.and_then(|r| r.take(&key()))
}

/// Runs a batch on a Dask cluster through `PYTHON -m ledbat.dask_runs`.
#[derive(Clone, Debug)]
pub struct DaskExecutor {
    /// The scheduler's address (`tcp://host:8786`).
    pub scheduler: String,
    /// The Python interpreter that has the `ledbat` package and its `dask` extra.
    pub python: PathBuf,
    /// The `ledbat` binary the workers run (`ledbat repro --run-job`); the same path on
    /// every worker.
    pub ledbat: PathBuf,
    /// How long the helper waits for the scheduler before giving up (seconds).
    pub timeout_s: f64,
}

impl Executor for DaskExecutor {
    fn run(&self, jobs: &[Job]) -> Result<Vec<Outcome>, String> {
        // A directory of its own for each batch (the jobs and the results), removed when
        // the batch ends, whatever its outcome.
        let dir = tempfile::Builder::new()
            .prefix("ledbat-dask-")
            .tempdir()
            .map_err(|e| format!("creating a batch directory under the temp dir: {e}"))?;
        self.run_in(dir.path(), jobs)
    }
}

impl DaskExecutor {
    fn run_in(&self, dir: &std::path::Path, jobs: &[Job]) -> Result<Vec<Outcome>, String> {
        let jobs_path = dir.join("jobs.jsonl");
        let results_path = dir.join("results.bin");
        let mut text = String::new();
        for j in jobs {
            text.push_str(&j.to_line());
            text.push('\n');
        }
        std::fs::write(&jobs_path, text)
            .map_err(|e| format!("writing {}: {e}", jobs_path.display()))?;
        eprintln!(
            "repro: {} runs to the Dask scheduler at {}",
            jobs.len(),
            self.scheduler
        );
        let status = std::process::Command::new(&self.python)
            .args(["-m", "ledbat.dask_runs", "--scheduler", &self.scheduler])
            .arg("--ledbat")
            .arg(&self.ledbat)
            .arg("--jobs")
            .arg(&jobs_path)
            .arg("--results")
            .arg(&results_path)
            .args(["--timeout", &self.timeout_s.to_string()])
            .stdin(std::process::Stdio::null())
            .stdout(std::process::Stdio::null())
            .status()
            .map_err(|e| {
                format!(
                    "cannot start {}: {e} (--dask needs a Python with the ledbat package and \
                     its dask extra: pip install './python[dask]'; --dask-python PATH)",
                    self.python.display()
                )
            })?;
        if !status.success() {
            return Err(format!(
                "{} -m ledbat.dask_runs failed ({status}); its message is above",
                self.python.display()
            ));
        }
        let bytes = std::fs::read(&results_path)
            .map_err(|e| format!("reading {}: {e}", results_path.display()))?;
        parse_results(&bytes, jobs.len())
    }
}

/// The helper's results file: per job, status byte, length (u64 LE), payload.
pub fn parse_results(mut bytes: &[u8], n: usize) -> Result<Vec<Outcome>, String> {
    let mut out = Vec::with_capacity(n);
    while !bytes.is_empty() {
        if bytes.len() < 9 {
            return Err(format!("results: record {} is truncated", out.len()));
        }
        let status = bytes[0];
        let mut len = [0u8; 8];
        len.copy_from_slice(&bytes[1..9]);
        let len = u64::from_le_bytes(len);
        let rest = &bytes[9..];
        if (rest.len() as u64) < len {
            return Err(format!("results: record {} is truncated", out.len()));
        }
        let (payload, tail) = rest.split_at(len as usize);
        out.push(match status {
            0 => Ok(cache::decode(payload)
                .map_err(|e| format!("results: record {}: {e}", out.len()))?),
            1 => Err(String::from_utf8_lossy(payload).into_owned()),
            s => return Err(format!("results: record {}: status {s}", out.len())),
        });
        bytes = tail;
    }
    if out.len() != n {
        return Err(format!("results: {} records for {n} runs", out.len()));
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn record(status: u8, payload: &[u8]) -> Vec<u8> {
        let mut v = vec![status];
        v.extend_from_slice(&(payload.len() as u64).to_le_bytes());
        v.extend_from_slice(payload);
        v
    }

    #[test]
    fn results_parse_in_order_and_errors_keep_their_text() {
        let mut bytes = record(1, b"boom");
        bytes.extend(record(1, b""));
        let out = parse_results(&bytes, 2).unwrap();
        assert_eq!(out, vec![Err("boom".to_string()), Err(String::new())]);
    }

    #[test]
    fn truncated_or_miscounted_results_are_refused() {
        let bytes = record(1, b"boom");
        assert!(parse_results(&bytes[..bytes.len() - 1], 1)
            .unwrap_err()
            .contains("truncated"));
        assert!(parse_results(&bytes[..5], 1)
            .unwrap_err()
            .contains("truncated"));
        assert!(parse_results(&bytes, 2)
            .unwrap_err()
            .contains("1 records for 2 runs"));
        assert!(parse_results(&record(7, b""), 1)
            .unwrap_err()
            .contains("status 7"));
        assert!(parse_results(&record(0, b"not an entry"), 1)
            .unwrap_err()
            .contains("record 0"));
    }

    #[test]
    fn a_job_with_another_builds_key_is_refused() {
        let sc = Scenario::default();
        let mut job = Job::new(&sc, 1, false);
        job.key = "00".repeat(32);
        let e = run_job(job.to_line().as_bytes()).unwrap_err();
        assert!(e.contains("build"), "{e}");
        assert!(run_job(b"{}").unwrap_err().contains("not a repro job"));
    }

    #[test]
    fn a_job_parses_back_to_the_same_key_with_floats_at_full_precision() {
        // 9.325000000000001 (a hinge of seed 000's gain) is one ULP from what a best-effort
        // float parser reads: without serde_json's float_roundtrip the worker refused it.
        let sc = Scenario::from_toml(
            &std::fs::read_to_string(concat!(
                env!("CARGO_MANIFEST_DIR"),
                "/../../scenarios/seed000/fixed-gain.toml"
            ))
            .unwrap(),
        )
        .unwrap();
        let mut v = serde_json::to_value(&sc).unwrap();
        v["flow"][0]["cc"]["gain"] = serde_json::json!(9.325000000000001_f64);
        let sc: Scenario = serde_json::from_value(v).unwrap();
        let line = Job::new(&sc, 2, false).to_line();
        assert!(line.contains("9.325000000000001"), "{line}");
        let back: Job = serde_json::from_str(&line).unwrap();
        assert_eq!(back.scenario, sc);
        assert_eq!(back.key, Key::of(&back.scenario, 2, false).hex());
    }

    /// Answers every job with the simulator's error `e<seed>`.
    struct Erring;
    impl Executor for Erring {
        fn run(&self, jobs: &[Job]) -> Result<Vec<Outcome>, String> {
            Ok(jobs.iter().map(|j| Err(format!("e{}", j.seed))).collect())
        }
    }

    #[test]
    fn a_run_sent_once_answers_every_instance_that_shares_it() {
        let r = Remote::new(Erring);
        let sc = Scenario::default();
        let k = |seed| Key::of(&sc, seed, false);
        r.prefetch(
            None,
            [
                (&sc, k(1), 1, false),
                (&sc, k(1), 1, false),
                (&sc, k(2), 2, false),
            ],
        );
        assert_eq!(r.sent(), 2);
        for _ in 0..2 {
            assert_eq!(r.take(&k(1)), Some(Err("e1".to_string())));
        }
        assert_eq!(r.take(&k(2)), Some(Err("e2".to_string())));
        assert_eq!(r.take(&k(3)), None, "not sent: simulated here");
        assert_eq!(take(Some(&r), || k(1)), Some(Err("e1".to_string())));
        assert_eq!(take(None, || unreachable!("no key without a remote")), None);
        assert_eq!(r.failure(), None);
    }

    struct Failing;
    impl Executor for Failing {
        fn run(&self, _: &[Job]) -> Result<Vec<Outcome>, String> {
            Err("scheduler unreachable".into())
        }
    }

    #[test]
    fn after_a_failed_batch_every_run_is_an_error_and_nothing_more_is_sent() {
        let r = Remote::new(Failing);
        let sc = Scenario::default();
        let k = |seed| Key::of(&sc, seed, false);
        assert_eq!(r.take(&k(1)), None, "never sent: simulate here");
        r.prefetch(
            None,
            [
                (&sc, k(1), 1, false),
                (&sc, k(1), 1, false),
                (&sc, k(2), 2, false),
            ],
        );
        assert_eq!(r.sent(), 2, "each distinct run once");
        assert_eq!(r.failure().as_deref(), Some("scheduler unreachable"));
        let e = r.take(&k(1)).unwrap().unwrap_err();
        assert!(e.contains("scheduler unreachable"), "{e}");
        r.prefetch(None, [(&sc, k(3), 3, false)]);
        assert_eq!(r.sent(), 2);
    }
}
