//! How long the language server takes to check a document after an edit (issue 35: within 20 ms for
//! the largest bundled rules file), measured in process, without the stdio framing: each of 200
//! edits changes one digit of the file (so its diagnostics change back and forth), and is answered
//! with the diagnostics of every open document, as `textDocument/didChange` is.
//!
//!     cargo run --release --example lsp_edit [RULES-NAME [EDITS]]
//!
//! Prints the mean and the slowest edit. Not a test: figures go in docs/editors.md with this command.
//! EDITS (default 200) lets callgrind count the instructions of an edit, which a busy machine does
//! not change: (the count with 21 edits - the count with 1) / 20 (docs/editors.md).

use serde_json::json;
use std::time::Instant;

fn main() {
    let rules = carto::bundled::RULES;
    let name = std::env::args().nth(1).unwrap_or_else(|| {
        // The largest bundled rules file.
        let (n, _) = rules.iter().max_by_key(|(_, t)| t.len()).unwrap();
        n.to_string()
    });
    let text = rules
        .iter()
        .find(|(n, _)| *n == name)
        .expect("a bundled rules name")
        .1;
    let root = env!("CARGO_MANIFEST_DIR");
    let uri = format!("file://{root}/rules/{name}.rules");
    let mut s = carto::lsp::protocol::Server::default();
    let open = json!({"jsonrpc": "2.0", "method": "textDocument/didOpen",
        "params": {"textDocument": {"uri": uri, "languageId": "carto", "version": 0, "text": text}}});
    s.handle(&open);
    let edits: usize = std::env::args()
        .nth(2)
        .map_or(200, |n| n.parse().expect("EDITS is a number"));
    let mut times = Vec::with_capacity(edits);
    for i in 0..edits {
        // `players = 2..6` becomes `2..5` and back: a real edit, checked in full each time.
        let edited = if i % 2 == 0 {
            text.replacen("2..6", "2..5", 1)
        } else {
            text.to_string()
        };
        let change = json!({"jsonrpc": "2.0", "method": "textDocument/didChange",
            "params": {"textDocument": {"uri": uri, "version": i + 1}, "contentChanges": [{"text": edited}]}});
        let t = Instant::now();
        let out = s.handle(&change);
        times.push(t.elapsed().as_secs_f64() * 1000.0);
        assert_eq!(out.len(), 1);
    }
    let mean = times.iter().sum::<f64>() / times.len() as f64;
    let max = times.iter().cloned().fold(0.0, f64::max);
    println!(
        "{name}.rules ({} bytes): {edits} edits, mean {mean:.2} ms, slowest {max:.2} ms per edit (check and diagnostics)",
        text.len()
    );
}
