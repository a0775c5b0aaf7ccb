//! `ledbat controllers`: the catalog of built-in controllers.

use crate::support::outln;
use ledbat_core::ControllerConfig;
use ledbat_sim::export::{controller_catalog, ControllerRow};

/// Arguments of `ledbat controllers`.
#[derive(clap::Args, Debug)]
pub struct Args {
    /// Show only this controller (with `--param`, check a configuration of it).
    name: Option<String>,
    /// Override a parameter of NAME (`key=value`, dotted keys for nested fields; repeatable).
    #[arg(long = "param", value_name = "KEY=VALUE", requires = "name")]
    params: Vec<String>,
    /// Print JSON instead of a table.
    #[arg(long)]
    json: bool,
}

fn rows(a: &Args) -> anyhow::Result<Vec<ControllerRow>> {
    let params: Vec<&str> = a.params.iter().map(String::as_str).collect();
    controller_catalog(a.name.as_deref(), &params).map_err(|e| anyhow::anyhow!(e))
}

/// Prints the catalog.
pub fn run(a: Args) -> anyhow::Result<()> {
    let rows = rows(&a)?;
    if a.json {
        outln!("{}", serde_json::to_string_pretty(&rows)?);
        return Ok(());
    }
    let label = if a.params.is_empty() {
        "defaults"
    } else {
        "config"
    };
    for row in &rows {
        let cfg = ControllerConfig::with_params(row.name, a.params.iter().map(String::as_str))?;
        outln!("{:<22} {}", row.name, row.description);
        if row.recommended {
            outln!(
                "{:<22} recommended: the default of send, recv and torrent",
                ""
            );
        }
        outln!("{:<22} source: {}", "", row.source);
        let params: Vec<String> = cfg
            .params()
            .into_iter()
            .map(|(k, v)| format!("{k}={v}"))
            .collect();
        outln!("{:<22} {label}: {}", "", params.join(" "));
        for n in &row.non_compliant {
            outln!("{:<22} non-compliant: {n}", "");
        }
        outln!();
    }
    Ok(())
}
