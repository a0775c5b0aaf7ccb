//! Runs simulated elsewhere ([`ledbat_repro::remote`]) end to end, with an executor that
//! stands in for the Dask workers: every job goes through the wire format (its JSON line,
//! [`remote::run_job`] as `ledbat repro --run-job` runs it, the cache entry it answers) on
//! threads of its own. The report is byte for byte the local one; runs already in the cache
//! are not sent; a failed batch leaves a failure and simulates nothing here.

use ledbat_repro::cache::{self, Cache};
use ledbat_repro::remote::{self, Answer, Executor, Job, Outcome, Remote};
use ledbat_repro::runner::{run, Options};
use std::path::Path;
use std::sync::{Arc, Mutex};

fn opts(cache: Option<Arc<Cache>>, remote: Option<Arc<Remote>>) -> Options {
    Options {
        scenarios_dir: Path::new(env!("CARGO_MANIFEST_DIR")).join("../../scenarios"),
        seeds: 2,
        quick: true,
        select: vec!["s003-ledbat-ledbat-fair".into()],
        progress: false,
        cache,
        remote,
        ..Options::default()
    }
}

/// Each job on a thread of its own, through the wire format; counts the jobs it saw.
struct Workers(Arc<Mutex<usize>>);

impl Executor for Workers {
    fn run(&self, jobs: &[Job]) -> Result<Vec<Outcome>, String> {
        *self.0.lock().unwrap() += jobs.len();
        let lines: Vec<String> = jobs.iter().map(Job::to_line).collect();
        let answers: Vec<Result<Answer, String>> = std::thread::scope(|s| {
            let hs: Vec<_> = lines
                .iter()
                .map(|l| s.spawn(move || remote::run_job(l.as_bytes())))
                .collect();
            hs.into_iter().map(|h| h.join().unwrap()).collect()
        });
        answers
            .into_iter()
            .map(|a| match a? {
                Answer::Entry(bytes) => Ok(cache::decode(&bytes).map_err(|e| e.to_string())),
                Answer::Failed(e) => Ok(Err(e)),
            })
            .collect()
    }
}

struct Down;

impl Executor for Down {
    fn run(&self, _: &[Job]) -> Result<Vec<Outcome>, String> {
        Err("cannot reach the scheduler".into())
    }
}

#[test]
fn remote_runs_give_the_local_report_and_cached_runs_are_not_sent() {
    let plain = run(&opts(None, None), "x").unwrap();
    let runs = plain.runs;

    let seen = Arc::new(Mutex::new(0));
    let r = Arc::new(Remote::new(Workers(seen.clone())));
    let far = run(&opts(None, Some(r.clone())), "x").unwrap();
    assert_eq!(*seen.lock().unwrap(), runs, "every run sent once");
    assert_eq!(r.failure(), None);
    assert_eq!(far.to_markdown(), plain.to_markdown());
    assert_eq!(far.to_html(), plain.to_html());
    assert_eq!(far.to_json(), plain.to_json());

    // With a cache: the first time every run is sent and stored; the second time none.
    let temp = tempfile::Builder::new()
        .prefix("ledbat-remote-runs-")
        .tempdir()
        .unwrap();
    let dir = temp.path().join("cache");
    for expected_sent in [runs, 0] {
        let seen = Arc::new(Mutex::new(0));
        let c = Arc::new(Cache::new(&dir));
        let r = Arc::new(Remote::new(Workers(seen.clone())));
        let rep = run(&opts(Some(c.clone()), Some(r)), "x").unwrap();
        assert_eq!(*seen.lock().unwrap(), expected_sent);
        assert_eq!(c.counts().written as usize, expected_sent, "stored here");
        // The same report but for the cost line's count of the runs from the cache.
        let all = "; all read from the run cache, none simulated";
        assert_eq!(rep.to_markdown().contains(all), expected_sent == 0);
        assert_eq!(rep.to_markdown().replace(all, ""), plain.to_markdown());
    }
}

#[test]
fn a_failed_batch_is_reported_and_nothing_is_simulated_here() {
    let r = Arc::new(Remote::new(Down));
    let rep = run(&opts(None, Some(r.clone())), "x").unwrap();
    assert_eq!(r.failure().as_deref(), Some("cannot reach the scheduler"));
    assert!(r.sent() > 0);
    // The outcome carries the failure: no run was simulated here instead.
    assert!(rep.to_markdown().contains("remote runs failed"));
}
