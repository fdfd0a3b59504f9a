//! The language server's messages: one JSON-RPC message in, the messages it answers with out
//! (responses and `publishDiagnostics` notifications). No input or output here: `server.rs` reads
//! and writes them on standard input and output, the playground's worker passes them as strings.

use super::analysis::{DocKind, Workspace};
use super::text::{offset, path_uri, range, uri_path};
use super::{complete, fixes, hover, nav, outline};
use crate::diag::{Diagnostic, Severity};
use lsp_types as lt;
use serde_json::{json, Value};

/// The server's state: the open documents, and whether `shutdown` was asked.
#[derive(Default)]
pub struct Server {
    pub ws: Workspace,
    shut_down: bool,
    /// Whether `exit` was received (the stdio loop then stops).
    pub exited: bool,
}

/// What the server can do, for `initialize`.
fn capabilities() -> lt::ServerCapabilities {
    use lt::*;
    ServerCapabilities {
        text_document_sync: Some(TextDocumentSyncCapability::Kind(TextDocumentSyncKind::FULL)),
        hover_provider: Some(HoverProviderCapability::Simple(true)),
        completion_provider: Some(CompletionOptions {
            trigger_characters: Some(vec![".".into(), " ".into(), "\"".into()]),
            ..CompletionOptions::default()
        }),
        definition_provider: Some(OneOf::Left(true)),
        references_provider: Some(OneOf::Left(true)),
        document_highlight_provider: Some(OneOf::Left(true)),
        rename_provider: Some(OneOf::Right(RenameOptions {
            prepare_provider: Some(true),
            work_done_progress_options: WorkDoneProgressOptions::default(),
        })),
        document_symbol_provider: Some(OneOf::Left(true)),
        folding_range_provider: Some(FoldingRangeProviderCapability::Simple(true)),
        code_action_provider: Some(CodeActionProviderCapability::Simple(true)),
        document_formatting_provider: Some(OneOf::Left(true)),
        semantic_tokens_provider: Some(SemanticTokensServerCapabilities::SemanticTokensOptions(
            SemanticTokensOptions {
                legend: SemanticTokensLegend {
                    token_types: outline::TOKEN_TYPES.to_vec(),
                    token_modifiers: Vec::new(),
                },
                full: Some(SemanticTokensFullOptions::Bool(true)),
                range: None,
                work_done_progress_options: WorkDoneProgressOptions::default(),
            },
        )),
        ..ServerCapabilities::default()
    }
}

fn response(id: &Value, result: Value) -> Value {
    json!({"jsonrpc": "2.0", "id": id, "result": result})
}

fn error(id: &Value, code: i64, message: &str) -> Value {
    json!({"jsonrpc": "2.0", "id": id, "error": {"code": code, "message": message}})
}

/// A document and an offset in it, from `{textDocument: {uri}, position}`.
fn at(p: &Value) -> Option<(String, lt::Position)> {
    let uri = p.pointer("/textDocument/uri")?.as_str()?;
    let pos: lt::Position = serde_json::from_value(p.get("position")?.clone()).ok()?;
    Some((uri_path(uri)?, pos))
}

impl Server {
    /// Answers one message: the messages to send back, in order.
    pub fn handle(&mut self, msg: &Value) -> Vec<Value> {
        let method = msg.get("method").and_then(Value::as_str).unwrap_or("");
        let params = msg.get("params").cloned().unwrap_or(Value::Null);
        let Some(id) = msg.get("id") else {
            return self.notification(method, &params);
        };
        if self.shut_down && method != "exit" {
            return vec![error(id, -32600, "the server is shut down")];
        }
        match self.request(method, &params) {
            Ok(result) => vec![response(id, result)],
            Err((code, m)) => vec![error(id, code, &m)],
        }
    }

    fn notification(&mut self, method: &str, p: &Value) -> Vec<Value> {
        let uri = p.pointer("/textDocument/uri").and_then(Value::as_str);
        let path = uri.and_then(uri_path);
        match (method, uri, path) {
            ("exit", ..) => self.exited = true,
            ("textDocument/didOpen", Some(uri), Some(path)) => {
                let text = p
                    .pointer("/textDocument/text")
                    .and_then(Value::as_str)
                    .unwrap_or("");
                let version = p
                    .pointer("/textDocument/version")
                    .and_then(Value::as_i64)
                    .unwrap_or(0);
                self.ws.set(uri, &path, text.to_string(), version as i32);
                return self.publish_all();
            }
            ("textDocument/didChange", Some(uri), Some(path)) => {
                let changes = p.get("contentChanges").and_then(Value::as_array);
                let Some(text) = changes
                    .and_then(|c| c.last())
                    .and_then(|c| c.get("text"))
                    .and_then(Value::as_str)
                else {
                    return Vec::new();
                };
                let version = p
                    .pointer("/textDocument/version")
                    .and_then(Value::as_i64)
                    .unwrap_or(0);
                self.ws.set(uri, &path, text.to_string(), version as i32);
                return self.publish_all();
            }
            ("textDocument/didClose", Some(uri), Some(path)) => {
                self.ws.close(&path);
                let mut out = self.publish_all();
                out.push(publish(uri, Vec::new()));
                return out;
            }
            _ => {}
        }
        Vec::new()
    }

    /// The diagnostics of every open document.
    fn publish_all(&self) -> Vec<Value> {
        self.ws
            .docs
            .iter()
            .map(|(path, d)| publish(&d.uri, self.diagnostics(path)))
            .collect()
    }

    fn request(&mut self, method: &str, p: &Value) -> Result<Value, (i64, String)> {
        let v = |x: Result<Value, serde_json::Error>| x.map_err(|e| (-32603, e.to_string()));
        match method {
            "initialize" => {
                if let Some(root) = p.get("rootUri").and_then(Value::as_str).and_then(uri_path) {
                    self.ws.root = Some(root);
                }
                Ok(json!({
                    "capabilities": capabilities(),
                    "serverInfo": {"name": "carto", "version": env!("CARGO_PKG_VERSION")},
                }))
            }
            "shutdown" => {
                self.shut_down = true;
                Ok(Value::Null)
            }
            "textDocument/hover" => Ok(self.hover(p).unwrap_or(Value::Null)),
            "textDocument/completion" => v(serde_json::to_value(self.complete(p))),
            "textDocument/definition" => Ok(self.locations(p, nav::definition)),
            "textDocument/references" => {
                let decl = p
                    .pointer("/context/includeDeclaration")
                    .and_then(Value::as_bool)
                    .unwrap_or(true);
                Ok(self.locations(p, |ws, path, at| nav::references(ws, path, at, decl)))
            }
            "textDocument/documentHighlight" => Ok(self.highlights(p)),
            "textDocument/prepareRename" => self.prepare_rename(p),
            "textDocument/rename" => self.rename(p),
            "textDocument/documentSymbol" => Ok(self.outline(p, |f| json!(outline::symbols(f)))),
            "textDocument/semanticTokens/full" => {
                Ok(self.outline(p, |f| json!({"data": outline::tokens(f)})))
            }
            "textDocument/foldingRange" => Ok(self.outline(p, |f| json!(outline::folding(f)))),
            "textDocument/codeAction" => Ok(self.code_actions(p)),
            "textDocument/formatting" => self.formatting(p),
            _ => Err((-32601, format!("no method `{method}`"))),
        }
    }

    /// The diagnostics of the document at `path`, as the protocol has them. A problem in an
    /// imported file that is not open is shown at the document's first `import`.
    pub fn diagnostics(&self, path: &str) -> Vec<lt::Diagnostic> {
        let Some(doc) = self.ws.doc(path) else {
            return Vec::new();
        };
        if doc.kind != DocKind::Rules {
            return super::others::diagnostics(doc, path);
        }
        let a = &doc.analysis;
        let import_at = a
            .files
            .first()
            .and_then(|f| f.symbols.imports.first())
            .map(|(_, s)| s.clone());
        let mut out = Vec::new();
        for (file, d) in &a.diagnostics {
            if file == path {
                out.push(to_lsp(&self.ws, &doc.text, d, None));
            } else if self.ws.doc(file).is_none() {
                if let Some(s) = &import_at {
                    let mut d = d.clone();
                    d.span = s.clone();
                    out.push(to_lsp(&self.ws, &doc.text, &d, Some(file)));
                }
            }
        }
        out
    }

    fn hover(&self, p: &Value) -> Option<Value> {
        let (path, pos) = at(p)?;
        let doc = self.ws.doc(&path)?;
        let o = offset(&doc.text, pos);
        let (md, span) = match doc.kind {
            DocKind::Script => super::script::hover(&doc.text, o)?,
            _ => hover::hover(&doc.analysis, &path, &doc.text, o)?,
        };
        Some(json!({
            "contents": {"kind": "markdown", "value": md},
            "range": range(&doc.text, &span),
        }))
    }

    fn complete(&self, p: &Value) -> Vec<lt::CompletionItem> {
        let Some((path, pos)) = at(p) else {
            return Vec::new();
        };
        let Some(doc) = self.ws.doc(&path) else {
            return Vec::new();
        };
        let typed = p
            .pointer("/context/triggerCharacter")
            .and_then(Value::as_str);
        match doc.kind {
            DocKind::Script => super::script::complete(&doc.text, offset(&doc.text, pos)),
            _ => complete::complete(&doc.analysis, &doc.text, offset(&doc.text, pos), typed),
        }
    }

    fn locations(
        &self,
        p: &Value,
        f: impl Fn(&Workspace, &str, usize) -> Vec<nav::Place>,
    ) -> Value {
        let Some((path, pos)) = at(p) else {
            return Value::Null;
        };
        let Some(doc) = self.ws.doc(&path) else {
            return Value::Null;
        };
        let places = f(&self.ws, &path, offset(&doc.text, pos));
        let locs: Vec<Value> = places
            .iter()
            .filter_map(|(file, span)| {
                let (uri, text) = self.file_uri_text(file)?;
                Some(json!({"uri": uri, "range": range(&text, span)}))
            })
            .collect();
        json!(locs)
    }

    /// The URI and text of a file the checker names: an open document, a file on disk, or a
    /// bundled file whose source is in the workspace (carto's own `rules/`, `maps/`).
    fn file_uri_text(&self, file: &str) -> Option<(String, String)> {
        if let Some(d) = self.ws.doc(file) {
            return Some((d.uri.clone(), d.text.clone()));
        }
        let bundled = file.starts_with("rules/") || file.starts_with("maps/");
        let path = match (&self.ws.root, bundled) {
            (Some(root), true) => format!("{root}/{file}"),
            (None, true) => return None,
            _ => file.to_string(),
        };
        let text = self.ws.text_of(&path)?;
        Some((path_uri(&path), text))
    }

    fn highlights(&self, p: &Value) -> Value {
        let Some((path, pos)) = at(p) else {
            return Value::Null;
        };
        let Some(doc) = self.ws.doc(&path) else {
            return Value::Null;
        };
        let places = nav::highlights(&self.ws, &path, offset(&doc.text, pos));
        let hs: Vec<Value> = places
            .iter()
            .map(|(_, s)| json!({"range": range(&doc.text, s)}))
            .collect();
        json!(hs)
    }

    fn prepare_rename(&self, p: &Value) -> Result<Value, (i64, String)> {
        let (path, pos) = at(p).ok_or((-32602, "no position".to_string()))?;
        let doc = self
            .ws
            .doc(&path)
            .ok_or((-32602, "the document is not open".to_string()))?;
        match nav::prepare_rename(&self.ws, &path, offset(&doc.text, pos)) {
            Ok(span) => Ok(json!(range(&doc.text, &span))),
            Err(e) => Err((-32803, e)),
        }
    }

    fn rename(&self, p: &Value) -> Result<Value, (i64, String)> {
        let (path, pos) = at(p).ok_or((-32602, "no position".to_string()))?;
        let new = p.get("newName").and_then(Value::as_str).unwrap_or("");
        let doc = self
            .ws
            .doc(&path)
            .ok_or((-32602, "the document is not open".to_string()))?;
        let places =
            nav::rename(&self.ws, &path, offset(&doc.text, pos), new).map_err(|e| (-32803, e))?;
        let mut changes = serde_json::Map::new();
        for (file, span) in places {
            let Some((uri, text)) = self.file_uri_text(&file) else {
                continue;
            };
            let edits = changes.entry(uri).or_insert_with(|| json!([]));
            if let Some(list) = edits.as_array_mut() {
                list.push(json!({"range": range(&text, &span), "newText": new}));
            }
        }
        Ok(json!({"changes": changes}))
    }

    fn outline(&self, p: &Value, f: impl Fn(&super::analysis::FileInfo) -> Value) -> Value {
        let Some(path) = p
            .pointer("/textDocument/uri")
            .and_then(Value::as_str)
            .and_then(uri_path)
        else {
            return Value::Null;
        };
        match self.ws.doc(&path).and_then(|d| d.analysis.files.first()) {
            Some(file) => f(file),
            None => Value::Null,
        }
    }

    fn code_actions(&self, p: &Value) -> Value {
        let Some(path) = p
            .pointer("/textDocument/uri")
            .and_then(Value::as_str)
            .and_then(uri_path)
        else {
            return Value::Null;
        };
        let Some(doc) = self.ws.doc(&path) else {
            return Value::Null;
        };
        let r: Option<lt::Range> = p
            .get("range")
            .and_then(|r| serde_json::from_value(r.clone()).ok());
        let span = r.map_or(0..doc.text.len(), |r| {
            offset(&doc.text, r.start)..offset(&doc.text, r.end)
        });
        let actions: Vec<Value> = fixes::fixes(&doc.analysis, &path, &span)
            .into_iter()
            .map(|f| {
                let edits: Vec<Value> = f
                    .edits
                    .iter()
                    .map(|(s, t)| json!({"range": range(&doc.text, s), "newText": t}))
                    .collect();
                json!({
                    "title": f.title,
                    "kind": "quickfix",
                    "diagnostics": [to_lsp(&self.ws, &doc.text, &f.diagnostic, None)],
                    "edit": {"changes": {doc.uri.clone(): edits}},
                })
            })
            .collect();
        json!(actions)
    }

    fn formatting(&self, p: &Value) -> Result<Value, (i64, String)> {
        let path = p
            .pointer("/textDocument/uri")
            .and_then(Value::as_str)
            .and_then(uri_path)
            .ok_or((-32602, "no document".to_string()))?;
        let doc = self
            .ws
            .doc(&path)
            .ok_or((-32602, "the document is not open".to_string()))?;
        let formatted = match doc.kind {
            DocKind::Rules => match crate::lang::fmt::format_rules(&doc.text) {
                Ok(t) => t,
                // A file with a syntax error is left as it is (its diagnostics say why).
                Err(_) => return Ok(Value::Null),
            },
            DocKind::Script => crate::lang::fmt::format_script(&doc.text),
            DocKind::Map => return Ok(Value::Null),
        };
        if formatted == doc.text {
            return Ok(json!([]));
        }
        Ok(json!([{"range": range(&doc.text, &(0..doc.text.len())), "newText": formatted}]))
    }
}

fn publish(uri: &str, diagnostics: Vec<lt::Diagnostic>) -> Value {
    json!({
        "jsonrpc": "2.0",
        "method": "textDocument/publishDiagnostics",
        "params": {"uri": uri, "diagnostics": diagnostics},
    })
}

/// A carto diagnostic as the protocol has it: its code, its message with the label and notes (the
/// hints), and the places its notes name (`… at FILE:LINE:COL`) as related information.
pub fn to_lsp(ws: &Workspace, text: &str, d: &Diagnostic, from: Option<&str>) -> lt::Diagnostic {
    let mut message = match from {
        Some(f) => format!("in the imported file `{f}`: {}", d.message),
        None => d.message.clone(),
    };
    if !d.label.is_empty() && from.is_none() {
        message.push_str(&format!(" ({})", d.label));
    }
    for n in &d.notes {
        message.push_str(&format!("\n{n}"));
    }
    let related: Vec<lt::DiagnosticRelatedInformation> =
        d.notes.iter().filter_map(|n| related(ws, n)).collect();
    lt::Diagnostic {
        range: range(text, &d.span),
        severity: Some(match d.severity {
            Severity::Error => lt::DiagnosticSeverity::ERROR,
            Severity::Warning => lt::DiagnosticSeverity::WARNING,
        }),
        code: Some(lt::NumberOrString::String(d.code.as_str().to_string())),
        source: Some("carto".into()),
        message,
        related_information: (!related.is_empty()).then_some(related),
        ..lt::Diagnostic::default()
    }
}

/// The place a note names (`the imported rule is at rules/base.rules:27:6`), when the file can be
/// shown.
fn related(ws: &Workspace, note: &str) -> Option<lt::DiagnosticRelatedInformation> {
    let place = note.rsplit(" at ").next()?.trim_end_matches(['.', ')']);
    let mut parts = place.rsplitn(3, ':');
    let col: u32 = parts.next()?.parse().ok()?;
    let line: u32 = parts.next()?.parse().ok()?;
    let file = parts.next()?;
    let path = match (&ws.root, file.starts_with("rules/")) {
        (Some(root), true) => format!("{root}/{file}"),
        (None, true) => return None,
        _ => file.to_string(),
    };
    let uri: lt::Uri = path_uri(&path).parse().ok()?;
    let pos = lt::Position::new(line.saturating_sub(1), col.saturating_sub(1));
    Some(lt::DiagnosticRelatedInformation {
        location: lt::Location::new(uri, lt::Range::new(pos, pos)),
        message: note.to_string(),
    })
}
