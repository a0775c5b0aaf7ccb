//! Every controller of the core's catalog drives uTP correctly: seeded lossy transfers are
//! byte-exact whatever the window, pacing or pause rule.

use ledbat_core::{ControllerConfig, Duration, CATALOG};
use ledbat_utp::harness::{transfer, LinkConfig, Net};
use ledbat_utp::{ConnectionConfig, EndpointConfig};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha12Rng;

#[test]
fn every_catalog_controller_transfers_byte_exact_over_a_lossy_link() {
    for info in CATALOG {
        let cc = ControllerConfig::from_name(info.name).unwrap();
        let cfg = EndpointConfig::default().connection(ConnectionConfig::default().controller(cc));
        for seed in 0..12u64 {
            let mut rng = ChaCha12Rng::seed_from_u64(seed);
            let size = rng.gen_range(0..=60_000);
            let data: Vec<u8> = (0..size).map(|_| rng.gen()).collect();
            let mut net = Net::new(
                cfg.clone(),
                LinkConfig::lossy(0.05),
                LinkConfig::lossy(0.05),
                seed,
            );
            let out = transfer(&mut net, &data, Duration::from_secs(900));
            assert!(
                out.complete,
                "{} seed {seed} size {size}: incomplete; {:?}",
                info.name, out.client
            );
            assert!(
                out.received == data,
                "{} seed {seed}: bytes differ",
                info.name
            );
        }
    }
}
