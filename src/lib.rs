//! carto: plays, checks, documents and simulates Carcassonne: Maps games.
//!
//! Rust here knows tiles and geometry; every variant lives in `rules/` and `maps/`.

pub mod agent;
pub mod output;
pub mod render;
pub mod script;
pub mod sim;
pub mod sources;
pub mod variant;

// The layers below, under the names the rest of carto has always used for them: the rules language
// (`crates/lang`) and the engine's modules (`crates/engine`).
pub use carto_lang as lang;
pub use carto_lang::header;

pub use carto_engine::{
    board, compiled, counters, diag, facts, features, files, game, geometry, map, paths, rng,
    sight, state, tally, tiles,
};

/// The bundled rules (the language's), maps and tile sets (the engine's).
pub mod bundled {
    pub use carto_engine::bundled::{MAPS, TILE_SETS};
    pub use carto_lang::bundled::RULES;
}
pub mod doc;
pub mod lsp;
pub mod replay;
