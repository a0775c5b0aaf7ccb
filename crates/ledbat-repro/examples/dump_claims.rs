fn main() {
    for c in ledbat_repro::catalog::all() {
        println!(
            "{}\t{}\t{}\t{}\t{}\t{}\t{}",
            c.id,
            c.unit,
            c.tolerance.describe(),
            c.direction.describe(),
            c.scenarios.len(),
            c.metric,
            c.statement
        );
    }
}
