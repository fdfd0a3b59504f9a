//! Pictures and accounts of games for people: the transcript, the ASCII board, SVG boards and maps,
//! and the HTML replay page.

pub(crate) mod ascii;
pub(crate) mod hand;
pub mod html;
pub(crate) mod last_move;
pub mod load;
pub(crate) mod story;
pub mod svg;
pub mod text;
pub mod tile_svg;
pub mod timeline;
