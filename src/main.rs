fn main() {
    println!("carto");
}
