//! Runs a scenario file (with optional `key=value` overrides) with seed 1 and prints the
//! result as JSON without the time series: `cargo run -p ledbat-sim --example quick -- FILE`.
fn main() {
    let args: Vec<String> = std::env::args().collect();
    let text = std::fs::read_to_string(&args[1]).unwrap();
    let sc = ledbat_sim::Scenario::from_toml_with(&text, &args[2..]).unwrap();
    let t = std::time::Instant::now();
    let r = ledbat_sim::run(&sc, 1).unwrap();
    let mut v = serde_json::to_value(&r).unwrap();
    v.as_object_mut().unwrap().remove("series");
    for l in v["links"].as_array_mut().unwrap() {
        l.as_object_mut().unwrap().remove("queue_hist");
    }
    println!("{}", serde_json::to_string_pretty(&v).unwrap());
    eprintln!("wall {:?}", t.elapsed());
}
