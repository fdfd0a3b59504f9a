//! Pictures and accounts of games for people: the transcript, the ASCII board, SVG boards and maps,
//! and the HTML replay page.

pub mod ascii;
pub mod hand;
pub mod html;
pub mod last_move;
pub mod load;
pub mod story;
pub mod svg;
pub mod text;
pub mod tile_svg;
pub mod timeline;
