//! Placeholder until `send` and `recv` land.

/// Arguments of `ledbat send` (none yet).
#[derive(clap::Args, Debug)]
pub struct SendArgs {}
/// Arguments of `ledbat recv` (none yet).
#[derive(clap::Args, Debug)]
pub struct RecvArgs {}

/// Not built yet.
pub fn run_send(_a: SendArgs) -> anyhow::Result<()> {
    anyhow::bail!("`send` is not built yet")
}
/// Not built yet.
pub fn run_recv(_a: RecvArgs) -> anyhow::Result<()> {
    anyhow::bail!("`recv` is not built yet")
}
