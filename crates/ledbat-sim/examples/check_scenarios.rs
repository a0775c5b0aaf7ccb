//! Parses every scenario file given on the command line and reports the errors.
fn main() {
    let mut bad = 0;
    for p in std::env::args().skip(1) {
        let text = std::fs::read_to_string(&p).unwrap();
        match ledbat_sim::Scenario::from_toml(&text) {
            Ok(_) => println!("ok   {p}"),
            Err(e) => {
                bad += 1;
                println!("FAIL {p}: {e}")
            }
        }
    }
    std::process::exit(if bad > 0 { 1 } else { 0 });
}
