//! `carto doc`: a variant's documentation page in Markdown, generated from its rules: the header's prose,
//! a picture of the map, the parameters (type, range, default, value in force), and every setup block,
//! rule and action as an English sentence made from its syntax tree, beside its source. Also the index
//! of the bundled variants, what a house rule changes from the variant it imports, and the page as JSON.

mod against;
pub(crate) mod english;
pub mod language;
mod mapfacts;
mod markdown;
mod moment;
pub mod page;
mod states;
mod turn;

pub use against::against;
pub use markdown::{index, map_picture, markdown, text};
pub use page::{page, Page};

use crate::variant::Variant;

/// How a page links to rules files and pictures.
pub enum Links {
    /// No links (a page printed to the terminal).
    None,
    /// Relative links from a page in a folder one below the repository root (`docs/`); the map is the
    /// SVG picture `NAME-map.svg` written beside the page.
    FromDocs,
}

/// The rules' holding areas that have a title (`holding NAME "Title"`), as (name, title), for
/// the map picture's legend.
pub fn holding_titles(v: &Variant) -> Vec<(&str, &str)> {
    let p = &v.program;
    p.holdings
        .iter()
        .zip(&p.holding_titles)
        .filter_map(|(n, t)| Some((n.as_str(), t.as_deref()?)))
        .collect()
}
