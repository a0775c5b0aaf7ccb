//! A time line of LEDBAT++'s competitor detection along a kernel trace (`ledbat tcp trace`):
//! each connection replayed through ledbat-core as `ledbat tcp check` does, printing every
//! change of the controller's phase (a slowdown joined from another flow's marked
//! `(joined)`) or the detection's stage, tests, detections and every
//! `STEP` ms the queuing delay (RTT minus the smallest RTT so far), the bytes delivered over
//! the step (Mbit/s), the detection's path rate C and the window, and each push test's
//! figures. The replay runs the core this tool was built with: each connection's header
//! says whether its windows matched the kernel's (`ledbat tcp check`'s rule), and from the
//! first mismatch on the time line is that core's, not what the kernel did (a trace of
//! another build: build this tool at that build's commit).
//!
//! ```sh
//! cargo run --release -p ledbat-tcp --example comp_timeline -- FILE.trace [STEP_MS]
//! ```

use ledbat_core::{AnyController, Controller};
use ledbat_tcp::trace::{apply, check, connections, parse, Event, Traced};

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let args: Vec<String> = std::env::args().collect();
    let file = args.get(1).ok_or("usage: comp_timeline FILE [STEP_MS]")?;
    let step_ns: u64 = args.get(2).map_or(Ok(500), |s| s.parse())? * 1_000_000;
    let (head, records) = parse(&std::fs::read_to_string(file)?)?;
    let checks = check(&head.controller, &records, 1e-3);
    for (ports, recs) in connections(&records) {
        let Traced::Init { now: t0, mss } = recs[0].what else {
            unreachable!()
        };
        let mut core = head.controller.config.build(mss as u32)?;
        println!(
            "# {}:{} -> {} ({} events)",
            head.instance,
            ports.0,
            ports.1,
            recs.len()
        );
        match checks.iter().find(|c| c.ports == ports) {
            Some(c) if c.mismatches == 0 => {
                println!("# the replay matches the kernel ({} events)", c.events)
            }
            Some(c) => println!(
                "# WARNING: the replay departs from the kernel ({} of {} events; first: {}): \
                 this tool's core is not the traced one from there on",
                c.mismatches,
                c.events,
                c.first_mismatch.as_deref().unwrap_or("?")
            ),
            None => println!("# not compared with the kernel"),
        }
        let (mut last_state, mut last_tests, mut last_det) = (String::new(), 0, 0);
        let mut last_test = None;
        let mut min_rtt = u64::MAX;
        let (mut next_print, mut bytes, mut qd_max, mut qd_min) =
            (t0 + step_ns, 0u64, 0u64, u64::MAX);
        for r in &recs[1..] {
            let Traced::Event(e) = &r.what else { continue };
            apply(&mut core, e);
            let now = match *e {
                Event::Ack {
                    now, bytes: b, rtt, ..
                } => {
                    bytes += b;
                    if let Some(rtt) = rtt {
                        min_rtt = min_rtt.min(rtt);
                        let q = rtt - min_rtt;
                        qd_max = qd_max.max(q);
                        qd_min = qd_min.min(q);
                    }
                    now
                }
                Event::Loss { now, .. } => {
                    println!("{:8.3} loss", (now - t0) as f64 / 1e9);
                    now
                }
                Event::Timeout { now, .. }
                | Event::Tick { now }
                | Event::Sent { now, .. }
                | Event::DelaySource { now, .. } => now,
            };
            let (AnyController::Scavenger(pp) | AnyController::LedbatPp(pp)) = &core else {
                return Err("not a LEDBAT++ trace".into());
            };
            let m = pp.metrics();
            let comp = pp.competitor();
            let t = (now - t0) as f64 / 1e9;
            if m.state != last_state || comp.tests() != last_tests || comp.detections() != last_det
            {
                println!(
                    "{t:8.3}   {}{} tests {} det {} C {:.2} cwnd {} hold_min {:?} (qd {:.1} ms)",
                    m.state,
                    if pp.slowdown_joined() {
                        " (joined)"
                    } else {
                        ""
                    },
                    comp.tests(),
                    comp.detections(),
                    comp.path_rate() * 8e-6,
                    m.cwnd,
                    comp.hold_min().map(|d| d.as_nanos() as f64 / 1e6),
                    qd_max as f64 / 1e6,
                );
                last_state = m.state.to_string();
                last_tests = comp.tests();
                last_det = comp.detections();
            }
            if let Some(o) = comp.last_test().filter(|o| Some(o.at) != last_test) {
                println!("{t:8.3}   {o}");
                last_test = Some(o.at);
            }
            if now >= next_print {
                println!(
                    "{t:8.3} qd {:5.1}..{:5.1} ms  rate {:5.2} Mbit/s  C {:5.2}  cwnd {:7}  {}",
                    if qd_min == u64::MAX {
                        0.0
                    } else {
                        qd_min as f64 / 1e6
                    },
                    qd_max as f64 / 1e6,
                    bytes as f64 * 8.0 / (step_ns as f64 / 1e9) / 1e6,
                    comp.path_rate() * 8e-6,
                    m.cwnd,
                    m.state
                );
                next_print += step_ns;
                bytes = 0;
                qd_max = 0;
                qd_min = u64::MAX;
            }
        }
    }
    Ok(())
}
