//! Placeholder until `sim` and `sweep` land.

/// Arguments of `ledbat sim` (none yet).
#[derive(clap::Args, Debug)]
pub struct SimArgs {}
/// Arguments of `ledbat sweep` (none yet).
#[derive(clap::Args, Debug)]
pub struct SweepArgs {}

/// Not built yet.
pub fn run_sim(_a: SimArgs) -> anyhow::Result<()> {
    anyhow::bail!("`sim` is not built yet")
}
/// Not built yet.
pub fn run_sweep(_a: SweepArgs) -> anyhow::Result<()> {
    anyhow::bail!("`sweep` is not built yet")
}
