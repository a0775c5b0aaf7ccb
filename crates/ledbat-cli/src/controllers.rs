//! `ledbat controllers`: the catalog of built-in controllers.

use ledbat_core::{ControllerConfig, CATALOG};
use serde::Serialize;

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

#[derive(Serialize)]
struct Row {
    name: &'static str,
    description: &'static str,
    source: &'static str,
    /// The configuration shown (defaults unless `--param` changed them).
    defaults: serde_json::Value,
    /// Departures of the defaults from the source's limits (empty when compliant).
    non_compliant: Vec<String>,
}

fn rows(a: &Args) -> anyhow::Result<Vec<Row>> {
    if let Some(name) = &a.name {
        ControllerConfig::from_name(name)?;
    }
    CATALOG
        .iter()
        .filter(|info| a.name.as_deref().is_none_or(|n| n == info.name))
        .map(|info| {
            let cfg =
                ControllerConfig::with_params(info.name, a.params.iter().map(String::as_str))?;
            let mut defaults = serde_json::to_value(&cfg)?;
            if let Some(m) = defaults.as_object_mut() {
                m.remove("name");
            }
            Ok(Row {
                name: info.name,
                description: info.description,
                source: info.source,
                defaults,
                non_compliant: cfg.compliance_notes(),
            })
        })
        .collect()
}

/// Prints the catalog.
pub fn run(a: Args) -> anyhow::Result<()> {
    let rows = rows(&a)?;
    if a.json {
        println!("{}", serde_json::to_string_pretty(&rows)?);
        return Ok(());
    }
    let label = if a.params.is_empty() {
        "defaults"
    } else {
        "config"
    };
    for row in &rows {
        let cfg = ControllerConfig::with_params(row.name, a.params.iter().map(String::as_str))?;
        println!("{:<22} {}", row.name, row.description);
        println!("{:<22} source: {}", "", row.source);
        let params: Vec<String> = cfg
            .params()
            .into_iter()
            .map(|(k, v)| format!("{k}={v}"))
            .collect();
        println!("{:<22} {label}: {}", "", params.join(" "));
        for n in &row.non_compliant {
            println!("{:<22} non-compliant: {n}", "");
        }
        println!();
    }
    Ok(())
}
