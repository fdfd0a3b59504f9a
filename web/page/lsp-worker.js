// The language server's Web Worker: its own carto.wasm runs the very server `carto lsp` runs
// (carto::lsp::protocol::Server, web/src/lsp.rs), one JSON-RPC message at a time, in order. The
// page's CodeMirror LSP client posts each message as text and gets the server's answers back as
// text. Should carto.wasm stop (a trap), a request gets an error answer, and the next message
// first brings the fresh instance back to where the editor is (initialize and the open documents).
import { loadCarto } from "./carto.js";

let call = null;
const queue = [];
let init = null; // the `initialize` request, as sent
const open = new Map(); // uri -> the didOpen params with the text as last sent
let restarted = false;

function remember(msg) {
  const p = msg.params;
  if (msg.method === "initialize") init = msg;
  else if (msg.method === "textDocument/didOpen") open.set(p.textDocument.uri, structuredClone(p));
  else if (msg.method === "textDocument/didClose") open.delete(p.textDocument.uri);
  else if (msg.method === "textDocument/didChange") {
    const doc = open.get(p.textDocument.uri);
    const full = p.contentChanges.at(-1);
    if (doc && full && !full.range) { doc.textDocument.text = full.text; doc.textDocument.version = p.textDocument.version; }
  }
}

function answer(msg) {
  if (restarted && init && msg.method !== "initialize") {
    restarted = false;
    call({ fn: "lsp", message: init });
    for (const p of open.values()) call({ fn: "lsp", message: { jsonrpc: "2.0", method: "textDocument/didOpen", params: p } });
  }
  remember(msg);
  const r = call({ fn: "lsp", message: msg });
  if (r.error) {
    restarted = true;
    if (msg.id !== undefined) self.postMessage(JSON.stringify({ jsonrpc: "2.0", id: msg.id, error: { code: -32603, message: r.error } }));
    return;
  }
  for (const m of r.messages) self.postMessage(JSON.stringify(m));
}

self.onmessage = async (e) => {
  queue.push(e.data);
  if (queue.length > 1) return; // the loop below is answering
  call ??= await loadCarto(new URL("carto.wasm", import.meta.url));
  while (queue.length) {
    let msg = null;
    try { msg = JSON.parse(queue[0]); } catch { /* not JSON: no answer can name it */ }
    if (msg) answer(msg);
    queue.shift();
  }
};
