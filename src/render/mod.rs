//! Pictures and accounts of games for people: the transcript, the ASCII board, SVG boards and maps,
//! and the HTML replay page.

pub mod ascii;
pub mod text;
