//! `carto lsp`: the server on standard input and output (rust-analyzer's `lsp-server` frames the
//! messages; `protocol::Server` answers them).

use super::protocol::Server;
use lsp_server::{Connection, Message};

/// Serves one editor until it sends `exit` or closes the connection. An error is a message for
/// people (the connection broke).
pub fn serve() -> Result<(), String> {
    let (connection, threads) = Connection::stdio();
    let mut server = Server::default();
    for msg in &connection.receiver {
        let value = serde_json::to_value(&msg).map_err(|e| e.to_string())?;
        for out in server.handle(&value) {
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
