//! `ledbat controllers`: the catalog of built-in controllers.

use ledbat_core::{ControllerConfig, CATALOG};
use serde::Serialize;

/// Arguments of `ledbat controllers`.
#[derive(clap::Args, Debug)]
pub struct Args {
    /// Print JSON instead of a table.
    #[arg(long)]
    json: bool,
}

#[derive(Serialize)]
struct Row {
    name: &'static str,
    description: &'static str,
    source: &'static str,
    defaults: serde_json::Value,
    /// Departures of the defaults from the source's limits (empty when compliant).
    non_compliant: Vec<String>,
}

fn rows() -> anyhow::Result<Vec<Row>> {
    CATALOG
        .iter()
        .map(|info| {
            let cfg = ControllerConfig::from_name(info.name)?;
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
    let rows = rows()?;
    if a.json {
        println!("{}", serde_json::to_string_pretty(&rows)?);
        return Ok(());
    }
    for info in CATALOG {
        let cfg = ControllerConfig::from_name(info.name)?;
        println!("{:<22} {}", info.name, info.description);
        println!("{:<22} source: {}", "", info.source);
        let params: Vec<String> = cfg.params().into_iter().map(|(k, v)| format!("{k}={v}")).collect();
        println!("{:<22} defaults: {}", "", params.join(" "));
        for n in cfg.compliance_notes() {
            println!("{:<22} non-compliant: {n}", "");
        }
        println!();
    }
    Ok(())
}
