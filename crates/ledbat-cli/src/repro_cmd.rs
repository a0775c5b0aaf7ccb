//! Placeholder until this subcommand lands.

/// Arguments (none yet).
#[derive(clap::Args, Debug)]
pub struct Args {}

/// Not built yet.
pub fn run(_a: Args) -> anyhow::Result<()> {
    anyhow::bail!("this subcommand is not built yet")
}
