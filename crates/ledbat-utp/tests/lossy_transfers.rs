//! The acceptance check of the in-memory harness: 1000 seeded transfers of random sizes
//! over links with 5 % loss, 5 % reordering and 5 % duplication in both directions, every
//! one byte-exact; once with each datagram handled at its own instant, once with both
//! endpoints reading in batches as the tokio runtime does with recvmmsg and GRO (every
//! datagram due in a 2 ms tick handled before anything is sent).

use ledbat_core::Duration;
use ledbat_utp::harness::{transfer, LinkConfig, Net};
use ledbat_utp::EndpointConfig;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha12Rng;

#[test]
fn thousand_seeded_lossy_transfers_are_byte_exact() {
    thousand_transfers(Duration::ZERO);
}

#[test]
fn thousand_seeded_lossy_transfers_are_byte_exact_with_batched_receive() {
    thousand_transfers(Duration::from_millis(2));
}

fn thousand_transfers(wake: Duration) {
    let mut sizes = Vec::new();
    let mut retrans = 0u64;
    let (mut timeouts, mut total, mut worst) = (0u64, 0u64, Duration::ZERO);
    for seed in 0..1000u64 {
        let mut rng = ChaCha12Rng::seed_from_u64(seed ^ 0x5eed);
        // Mostly small, some multi-window: 0..=48 KiB, with every size class covered.
        let size = match seed % 4 {
            0 => rng.gen_range(0..=1500),
            1 => rng.gen_range(0..=8_000),
            _ => rng.gen_range(0..=48_000),
        };
        let data: Vec<u8> = (0..size).map(|_| rng.gen()).collect();
        let mut net = Net::new(
            EndpointConfig::default(),
            LinkConfig::lossy(0.05),
            LinkConfig::lossy(0.05),
            seed,
        );
        net.a_wake = wake;
        net.b_wake = wake;
        let out = transfer(&mut net, &data, Duration::from_secs(600));
        assert!(
            out.complete,
            "seed {seed}, size {size}: incomplete after {}; {:?}",
            out.duration, out.client
        );
        assert!(
            out.received == data,
            "seed {seed}, size {size}: bytes differ"
        );
        sizes.push(size);
        retrans += out.client.retransmissions;
        timeouts += out.client.timeouts;
        total += size as u64;
        worst = worst.max(out.duration);
    }
    eprintln!("wake {wake}: 1000 transfers, {total} bytes, {retrans} retransmissions, {timeouts} timeouts, slowest {worst}");
    assert!(
        retrans > 100,
        "the links did lose packets ({retrans} retransmissions)"
    );
}
