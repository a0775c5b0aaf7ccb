//! `ledbat tcp` where it needs no kernel: parameters are checked in every build, and a
//! trace file is replayed through ledbat-core (`check`) with clear errors for bad files;
//! and, as root on a kernel with BPF congestion controls (skipped otherwise), `load
//! --if-absent`.

use ledbat_tcp::params::TcpController;
use ledbat_tcp::trace::{apply, core_cwnd, Event, Record, TraceHeader, Traced};
use std::path::Path;
use std::process::{Command, Output};

mod common;
use common::{tmpdir, BIN};

fn ledbat(args: &[&str]) -> Output {
    Command::new(BIN).args(args).output().unwrap()
}

fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

#[test]
fn an_unknown_controller_or_parameter_is_named_and_fails() {
    let o = ledbat(&["tcp", "load", "nosuch"]);
    assert!(!o.status.success());
    assert!(stderr(&o).contains("nosuch"), "{}", stderr(&o));
    let o = ledbat(&["tcp", "load", "ledbat", "--param", "bogus_key=1"]);
    assert!(!o.status.success());
    assert!(stderr(&o).contains("bogus_key"), "{}", stderr(&o));
    let o = ledbat(&["tcp", "load", "scavenger", "--param", "signal=owd"]);
    assert!(
        !o.status.success(),
        "the RTT-based presets refuse the one-way signal"
    );
}

#[test]
fn a_name_the_kernel_refuses_is_named_before_anything_is_loaded() {
    // `-` and `+` pass no kernel's bpf_obj_name_cpy; the check runs before the privilege and
    // kernel checks, so this fails the same way as root, as a user, or off Linux
    let o = ledbat(&["tcp", "load", "ledbat", "--as", "ledbat-md"]);
    assert!(!o.status.success());
    let e = stderr(&o);
    if cfg!(all(target_os = "linux", feature = "tcp")) {
        assert!(
            e.contains("`ledbat-md` cannot name a congestion control")
                && e.contains("only ASCII letters, digits, `_` and `.`"),
            "{e}"
        );
    } else {
        assert!(
            e.contains("need Linux") || e.contains("without kernel TCP"),
            "{e}"
        );
    }
    assert_eq!(e.lines().count(), 1, "one line: {e}");
}

/// A trace of `n` ACKs as the kernel would write it had it computed what the core does.
fn write_trace(path: &Path, n: u64, corrupt_window_at: Option<usize>) {
    let c = TcpController::parse("ledbat", ["target=25ms"]).unwrap();
    let mut core = c.config.build(1448).unwrap();
    let head = TraceHeader {
        instance: "t25".into(),
        controller: c.clone(),
    };
    let mut text = serde_json::to_string(&head).unwrap() + "\n";
    let init = Record {
        lport: 40000,
        rport: 5201,
        seq: 0,
        what: Traced::Init { now: 0, mss: 1448 },
        cwnd_q32: 0,
    };
    text += &(serde_json::to_string(&init).unwrap() + "\n");
    for i in 1..=n {
        let e = Event::Ack {
            now: i * 1_000_000,
            bytes: 1448,
            packets: 1,
            flight: 10 * 1448,
            newest_sent: i * 1_000_000 - 400_000,
            rtt: Some(20_000_000),
            delay: Some(10_000 + (i as u32 % 5) * 1000),
        };
        apply(&mut core, &e);
        let mut cwnd_q32 = (core_cwnd(&core).unwrap() * 4_294_967_296.0).round() as u64;
        if corrupt_window_at == Some(i as usize) {
            cwnd_q32 += 5 << 32;
        }
        let r = Record {
            lport: 40000,
            rport: 5201,
            seq: i,
            what: Traced::Event(e),
            cwnd_q32,
        };
        text += &(serde_json::to_string(&r).unwrap() + "\n");
    }
    std::fs::write(path, text).unwrap();
}

#[test]
fn check_passes_a_trace_that_agrees_and_fails_one_that_does_not() {
    let dir = tmpdir("tcp", "check");
    let good = dir.path().join("good.trace");
    write_trace(&good, 40, None);
    let o = ledbat(&["tcp", "check", good.to_str().unwrap()]);
    let out = String::from_utf8_lossy(&o.stdout);
    assert!(o.status.success(), "{}{}", out, stderr(&o));
    assert!(
        out.contains("40 events") && out.contains("0 mismatch"),
        "{out}"
    );

    let bad = dir.path().join("bad.trace");
    write_trace(&bad, 40, Some(17));
    let o = ledbat(&["tcp", "check", bad.to_str().unwrap()]);
    assert!(!o.status.success());
    assert!(String::from_utf8_lossy(&o.stdout).contains("first: event 17"));
    assert!(
        stderr(&o).contains("differ from ledbat-core"),
        "{}",
        stderr(&o)
    );
}

#[test]
fn a_malformed_trace_names_the_file_and_line() {
    let dir = tmpdir("tcp", "malformed");
    let f = dir.path().join("t.trace");
    write_trace(&f, 3, None);
    let text = std::fs::read_to_string(&f).unwrap();
    let mut lines: Vec<&str> = text.lines().collect();
    lines[3] = "{\"lport\": \"x\"}";
    std::fs::write(&f, lines.join("\n")).unwrap();
    let o = ledbat(&["tcp", "check", f.to_str().unwrap()]);
    assert!(!o.status.success());
    let e = stderr(&o);
    assert!(
        e.contains("t.trace") && e.contains("line 4 is not a traced event"),
        "{e}"
    );
    let o = ledbat(&["tcp", "check", dir.path().join("missing").to_str().unwrap()]);
    assert!(!o.status.success());
    assert!(stderr(&o).contains("missing"), "{}", stderr(&o));
}

#[test]
fn run_and_attach_name_a_bad_rledbat_parameter_before_touching_the_kernel() {
    let o = ledbat(&["tcp", "run", "--rledbat-param", "gain=2", "--", "true"]);
    assert!(!o.status.success());
    assert!(stderr(&o).contains("gain"), "{}", stderr(&o));
    let o = ledbat(&[
        "tcp",
        "attach",
        "--cgroup",
        "x.slice",
        "--rledbat-param",
        "signal=both",
    ]);
    assert!(!o.status.success());
    assert!(stderr(&o).contains("signal=both"), "{}", stderr(&o));
    // a command is required
    assert!(!ledbat(&["tcp", "run"]).status.success());
}

#[test]
fn the_child_of_run_names_a_cgroup_it_cannot_join_and_does_not_run_the_command() {
    let dir = std::env::temp_dir().join(format!("ledbat-no-cgroup-{}", std::process::id()));
    let marker = dir.join("ran");
    let o = ledbat(&[
        "tcp",
        "cgroup-exec",
        "--cgroup",
        dir.to_str().unwrap(),
        "--",
        "touch",
        marker.to_str().unwrap(),
    ]);
    assert!(!o.status.success());
    assert!(stderr(&o).contains("cgroup.procs"), "{}", stderr(&o));
    assert!(!marker.exists());
}

/// Unregisters a name when dropped, whatever the test did.
struct Unload(String);

impl Drop for Unload {
    fn drop(&mut self) {
        let _ = ledbat(&["tcp", "unload", &self.0]);
    }
}

/// `load --if-absent` on the running kernel: the first call registers, the second (a boot
/// unit restarted) succeeds without loading, one with other parameters or another
/// controller fails and leaves the registered one alone, and a name the kernel owns fails.
/// Needs root and a kernel with BPF congestion controls; skipped otherwise.
#[test]
fn load_if_absent_twice_succeeds_and_other_parameters_fail() {
    let root = Command::new("id")
        .arg("-u")
        .output()
        .map(|o| o.stdout == b"0\n");
    if !cfg!(all(target_os = "linux", feature = "tcp"))
        || !matches!(root, Ok(true))
        || !Path::new("/sys/kernel/btf/vmlinux").exists()
    {
        eprintln!("skipped: needs root, Linux with BTF and the tcp feature");
        return;
    }
    // a name of this process's own, so that parallel runs do not meet
    let name = format!("t_ifa{}", std::process::id() % 1_000_000);
    let guard = Unload(name.clone());
    let load = |extra: &[&str]| {
        let mut a = vec!["tcp", "load", "ledbat-md", "--as", &name, "--if-absent"];
        a.extend_from_slice(extra);
        ledbat(&a)
    };
    let first = load(&["--param", "target=25ms"]);
    if !first.status.success() && stderr(&first).contains("cannot register BPF") {
        eprintln!("skipped: {}", stderr(&first));
        return;
    }
    let out = |o: &Output| String::from_utf8_lossy(&o.stdout).into_owned();
    assert!(first.status.success(), "{}", stderr(&first));
    assert!(
        out(&first).contains(&format!("registered `{name}`")),
        "{}",
        out(&first)
    );
    let map_id = |json: &str| -> Vec<u64> {
        let v: serde_json::Value = serde_json::from_str(json).unwrap();
        v.as_array()
            .unwrap()
            .iter()
            .filter(|i| i["name"] == name.as_str())
            .map(|i| i["map_id"].as_u64().unwrap())
            .collect()
    };
    let before = map_id(&out(&ledbat(&["tcp", "list", "--json"])));
    assert_eq!(before.len(), 1, "{before:?}");

    let again = load(&["--param", "target=25ms"]);
    assert!(again.status.success(), "{}", stderr(&again));
    assert_eq!(out(&again).lines().count(), 1, "{}", out(&again));
    assert!(
        out(&again).contains("registered already"),
        "{}",
        out(&again)
    );

    let other = load(&["--param", "target=50ms"]);
    assert!(!other.status.success());
    assert!(
        stderr(&other).contains("target=25ms") && stderr(&other).contains("target=50ms"),
        "{}",
        stderr(&other)
    );
    // nothing was loaded or unloaded: the same single instance
    assert_eq!(map_id(&out(&ledbat(&["tcp", "list", "--json"]))), before);

    // the kernel's own reno is not ours whatever the parameters
    let reno = ledbat(&["tcp", "load", "ledbat", "--as", "reno", "--if-absent"]);
    assert!(!reno.status.success());
    assert!(stderr(&reno).contains("not ledbat's"), "{}", stderr(&reno));

    let un = ledbat(&["tcp", "unload", &name]);
    assert!(un.status.success(), "{}", stderr(&un));
    assert!(map_id(&out(&ledbat(&["tcp", "list", "--json"]))).is_empty());
    drop(guard);
}
