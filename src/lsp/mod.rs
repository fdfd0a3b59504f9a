//! The language server (issue 35, A): rules files, scripts and maps in any editor. The requests are
//! answered by functions over the open documents (`analysis`, and one file per capability); the
//! protocol's messages are read and answered in `protocol` as JSON values; only `server` (native)
//! touches standard input and output, so the same server runs in the playground's web worker.

pub mod analysis;
mod complete;
mod fixes;
mod hover;
mod nav;
mod others;
mod outline;
pub mod protocol;
mod script;
#[cfg(not(target_arch = "wasm32"))]
pub mod server;
pub mod text;
mod words;
