//! `ledbat`: less-than-best-effort transport toolkit.
//!
//! Subcommands live in modules of their own; each exposes an `Args` (clap) and a `run`.

mod cache_cmd;
mod controllers;
mod repro_cmd;
mod sim;
mod support;
mod tcp_cmd;
mod torrent;
mod transfer;
mod utp_opts;

/// A fresh scratch directory for a unit test, named for `tag`, removed when dropped whether
/// the test passes or fails.
#[cfg(test)]
pub(crate) fn tmpdir(tag: &str) -> tempfile::TempDir {
    tempfile::Builder::new()
        .prefix(&format!("ledbat-cli-{tag}-"))
        .tempdir()
        .unwrap()
}

use clap::{Parser, Subcommand};
use std::process::ExitCode;

/// Less-than-best-effort ("scavenger") transport: LEDBAT controllers, a packet-level
/// simulator and uTP file transfer.
#[derive(Parser, Debug)]
#[command(
    name = "ledbat",
    version = concat!(env!("CARGO_PKG_VERSION"), " (", env!("LEDBAT_BUILD_COMMIT"), ")"),
    about,
    propagate_version = true
)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand, Debug)]
enum Command {
    /// List every built-in congestion controller with its source and default parameters.
    Controllers(controllers::Args),
    /// Run one simulation scenario (flows, or a BitTorrent swarm; also `ledbat swarm`).
    #[command(visible_alias = "swarm")]
    Sim(sim::SimArgs),
    /// Run a parameter grid of simulations in parallel.
    Sweep(sim::SweepArgs),
    /// Re-check the papers' quantitative claims and write the report.
    Repro(repro_cmd::Args),
    /// The run cache of `ledbat repro`: stats, clear.
    Cache(cache_cmd::Args),
    /// Send a file over uTP.
    Send(transfer::SendArgs),
    /// Receive one file over uTP.
    Recv(transfer::RecvArgs),
    /// BitTorrent over our uTP: create, seed, get.
    Torrent(torrent::Args),
    /// The controllers as Linux TCP congestion controls (BPF): load, list, unload, stats.
    Tcp(tcp_cmd::Args),
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    let result = match cli.command {
        Command::Controllers(a) => controllers::run(a),
        Command::Sim(a) => sim::run_sim(a),
        Command::Sweep(a) => sim::run_sweep(a),
        Command::Repro(a) => repro_cmd::run(a),
        Command::Cache(a) => cache_cmd::run(a),
        Command::Send(a) => transfer::run_send(a),
        Command::Recv(a) => transfer::run_recv(a),
        Command::Torrent(a) => torrent::run(a),
        Command::Tcp(a) => tcp_cmd::run(a),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("error: {e:#}");
            ExitCode::FAILURE
        }
    }
}
