//! `carto lsp`: the server on standard input and output (rust-analyzer's `lsp-server` frames the
//! messages; `protocol::Server` answers them).

use super::protocol::Server;
use lsp_server::{Connection, Message};
use serde_json::{json, Value};

/// Serves one editor until it sends `exit` or closes the connection. An error is a message for
/// people (the connection broke).
pub fn serve() -> Result<(), String> {
    let (connection, threads) = Connection::stdio();
    let mut server = Server::default();
    for msg in &connection.receiver {
        let value = serde_json::to_value(&msg).map_err(|e| e.to_string())?;
        // A bug in one answer fails that request, not the editor's session.
        let outs = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| server.handle(&value)))
            .unwrap_or_else(|_| failed(&value));
        for out in outs {
            let out: Message = serde_json::from_value(out).map_err(|e| e.to_string())?;
            connection
                .sender
                .send(out)
                .map_err(|e| format!("cannot answer the editor: {e}"))?;
        }
        if server.exited {
            break;
        }
    }
    drop(connection);
    threads
        .join()
        .map_err(|e| format!("the connection to the editor failed: {e}"))
}

/// The answer to a request whose handling failed (a notification gets none).
fn failed(msg: &Value) -> Vec<Value> {
    match msg.get("id") {
        Some(id) => vec![json!({"jsonrpc": "2.0", "id": id, "error": {"code": -32603,
            "message": "carto lsp failed on this request: a bug, please report it with the file"}})],
        None => Vec::new(),
    }
}
