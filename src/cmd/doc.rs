//! `carto doc`: a variant's documentation.

use super::Failure;
use carto::variant::load_variant;

#[derive(clap::Args)]
pub struct Args {
    variant: String,
    #[arg(long = "set", value_name = "NAME=VALUE")]
    sets: Vec<String>,
}

pub fn run(a: Args) -> Result<(), Failure> {
    let v = load_variant(&a.variant, &a.sets)?;
    emit!("{}", carto::doc::document(&v));
    Ok(())
}
