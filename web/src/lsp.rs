//! The language server in the playground (issue 35, C): the very server `carto lsp` runs
//! (`carto::lsp::protocol::Server`), one JSON-RPC message in, its answers out, called by the
//! page's web worker (`page/lsp-worker.js`). No threads and no disk: the bundled rules and maps are
//! files under the playground's root ([`ROOT`]), so going to a definition in an imported bundled
//! file, or to a map's attribute, finds its text.

use carto::lsp::protocol::Server;
use serde_json::{json, Value};
use std::cell::RefCell;

/// The folder the page's files are in: the page names its rules `file:///playground/my.rules` and
/// its map `file:///playground/my.toml`.
pub const ROOT: &str = "/playground";

thread_local! {
    static SERVER: RefCell<Option<Server>> = const { RefCell::new(None) };
}

/// A server whose workspace holds the bundled files under [`ROOT`].
fn fresh() -> Server {
    let mut s = Server::default();
    s.ws.root = Some(ROOT.to_string());
    for (n, t) in carto::bundled::RULES {
        s.ws.given
            .insert(format!("{ROOT}/rules/{n}.rules"), t.to_string());
    }
    for (n, t) in carto::bundled::MAPS {
        s.ws.given
            .insert(format!("{ROOT}/maps/{n}.toml"), t.to_string());
    }
    s
}

/// `{"fn": "lsp", "message": M}`: the messages the server answers `M` with (`{"messages": […]}`).
/// `initialize` starts a fresh server (the page's client connects once per instance).
pub fn step(req: &Value) -> Value {
    let Some(msg) = req.get("message") else {
        return crate::api::bad("`lsp` needs a `message` (one JSON-RPC message)").json();
    };
    SERVER.with(|s| {
        let mut s = s.borrow_mut();
        if s.is_none() || msg.get("method").and_then(Value::as_str) == Some("initialize") {
            *s = Some(fresh());
        }
        let server = s.as_mut().expect("a server");
        json!({"messages": server.handle(msg)})
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn send(msg: Value) -> Vec<Value> {
        let out = step(&json!({"fn": "lsp", "message": msg}));
        out["messages"].as_array().cloned().unwrap_or_default()
    }

    /// The page's session: initialize, open the rules (they import a bundled file), hover a name the
    /// import defines, go to its definition in the bundled file (its text given by the server).
    #[test]
    fn hover_and_definition_across_a_bundled_import() {
        let init = send(json!({"jsonrpc": "2.0", "id": 1, "method": "initialize",
            "params": {"rootUri": "file:///playground", "capabilities": {}}}));
        assert!(
            init[0]["result"]["capabilities"]["hoverProvider"] == true,
            "{init:?}"
        );
        let text = "import \"france\"\nvariant \"v\" {\n  title = \"V\"\n}\nchange action sell_abroad limit group sale 2\n";
        let uri = "file:///playground/my.rules";
        let diags = send(json!({"jsonrpc": "2.0", "method": "textDocument/didOpen",
            "params": {"textDocument": {"uri": uri, "languageId": "carto-rules", "version": 0, "text": text}}}));
        assert_eq!(
            diags[0]["method"], "textDocument/publishDiagnostics",
            "{diags:?}"
        );
        let at = json!({"textDocument": {"uri": uri}, "position": {"line": 4, "character": 16}});
        let hover =
            send(json!({"jsonrpc": "2.0", "id": 2, "method": "textDocument/hover", "params": at}));
        let md = hover[0]["result"]["contents"]["value"]
            .as_str()
            .unwrap_or("");
        assert!(md.contains("sell_abroad"), "{hover:?}");
        let def = send(
            json!({"jsonrpc": "2.0", "id": 3, "method": "textDocument/definition", "params": at}),
        );
        let loc = &def[0]["result"][0];
        assert_eq!(
            loc["uri"], "file:///playground/rules/france.rules",
            "{def:?}"
        );
        let line = loc["range"]["start"]["line"].as_u64().unwrap() as usize;
        let france = carto::bundled::RULES
            .iter()
            .find(|(n, _)| *n == "france")
            .unwrap()
            .1;
        assert!(
            france
                .lines()
                .nth(line)
                .unwrap()
                .contains("action sell_abroad"),
            "{def:?}"
        );
    }
}
