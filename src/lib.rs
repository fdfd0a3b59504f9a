//! carto: plays, checks, documents and simulates Carcassonne: Maps games.
//!
//! Rust here knows tiles and geometry; every variant lives in `rules/` and `maps/`.

pub mod diag;
pub mod geometry;
pub mod lang;
pub mod map;
pub mod rng;
pub mod tiles;
