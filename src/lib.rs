//! carto: plays, checks, documents and simulates Carcassonne: Maps games.
//!
//! Rust here knows tiles and geometry; every variant lives in `rules/` and `maps/`.

pub mod board;
pub mod compiled;
pub mod diag;
pub mod features;
pub mod game;
pub mod geometry;
pub mod lang;
pub mod map;
pub mod output;
pub mod rng;
pub mod script;
pub mod state;
pub mod tiles;
pub mod variant;
