//! Property tests: for random small scenarios, packets are conserved, nothing panics, and
//! the metrics stay within their physical bounds.

use ledbat_sim::{run, Scenario};
use proptest::prelude::*;

fn scenario(
    queue: &str,
    loss: f64,
    jitter_us: u64,
    delayed: bool,
    n: u32,
    access: &str,
    traffic: &str,
) -> String {
    format!(
        r#"
duration = "4s"
warmup = "1s"
sample_interval = "50ms"
[topology]
kind = "dumbbell"
rate = "5Mbps"
delay = "10ms"
queue = {queue}
loss = {loss}
reverse_loss = {loss}
jitter = "{jitter_us}us"
access_rate = "{access}"
access_queue = {{ kind = "droptail", packets = 30 }}
[transport]
delayed_ack = {delayed}
[[flow]]
cc = {{ name = "ledbat", target = "25ms" }}
count = {n}
start_spacing = "300ms"
traffic = {traffic}
[[flow]]
cc = {{ name = "ledbat", target = "10ms", gain = 4.0 }}
direction = "reverse"
"#
    )
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 24, ..ProptestConfig::default() })]

    #[test]
    fn random_scenarios_conserve_packets_and_respect_bounds(
        seed in 0u64..1000,
        qkind in 0usize..4,
        qlen in 2u32..80,
        loss in prop_oneof![Just(0.0), 0.0f64..0.1],
        jitter_us in prop_oneof![Just(0u64), 0u64..3000],
        delayed in any::<bool>(),
        n in 1u32..5,
        access in prop_oneof![Just("inf"), Just("20Mbps"), Just("4Mbps")],
        tkind in 0usize..4,
    ) {
        let queue = match qkind {
            0 => format!("{{ kind = \"droptail\", packets = {qlen} }}"),
            1 => format!("{{ kind = \"droptail\", bytes = {} }}", qlen as u64 * 1500),
            2 => format!("{{ kind = \"red\", packets = {}, min_th = 2, max_th = {} }}", qlen + 10, qlen.max(3)),
            _ => format!("{{ kind = \"codel\", packets = {qlen} }}"),
        };
        let traffic = match tkind {
            0 => "{ kind = \"backlogged\" }",
            1 => "{ kind = \"chunks\", size = 50000, persistence = 0.5 }",
            2 => "{ kind = \"sessions\", think = [\"10ms\", \"300ms\"] }",
            _ => "{ kind = \"bursty\" }",
        };
        let text = scenario(&queue, loss, jitter_us, delayed, n, access, traffic);
        let sc = Scenario::from_toml(&text).unwrap();
        let r = run(&sc, seed).unwrap();
        let c = r.conservation;
        prop_assert!(c.holds, "{:?}", c);
        prop_assert!(r.aggregate.efficiency <= 1.0 + 1e-2, "efficiency {}", r.aggregate.efficiency);
        for l in &r.links {
            prop_assert!(l.utilisation <= 1.0 + 1e-2, "{} utilisation {}", l.name, l.utilisation);
            if let Some(b) = l.buffer_pkts {
                prop_assert!(l.queue_max_pkts <= b as u64, "{} max {} > {}", l.name, l.queue_max_pkts, b);
            }
            prop_assert!(l.loss_rate <= 1.0);
        }
        for f in &r.flows {
            prop_assert!(f.loss_rate <= 1.0 + 1e-9);
            prop_assert!(f.cwnd_mean_pkts >= 0.0);
        }
        if let Some(j) = r.aggregate.jain_long {
            prop_assert!(j > 0.0 && j <= 1.0 + 1e-9);
        }
    }
}
