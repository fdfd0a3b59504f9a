// The rules language for the editor: highlighting here; hover, completion, go to definition,
// references, rename and formatting from the language server `carto lsp` runs, compiled to
// WebAssembly and run in a web worker (lsp-worker.js): the browser and the editors answer alike.
import { StreamLanguage } from "@codemirror/language";
import { EditorView, keymap, lineNumbers } from "@codemirror/view";
import { EditorState, Text, ChangeSet } from "@codemirror/state";
import {
  LSPClient, LSPPlugin, Workspace, hoverTooltips, serverCompletion, renameKeymap, jumpToDefinition,
  jumpToDefinitionKeymap, findReferencesKeymap, formatKeymap,
} from "@codemirror/lsp-client";

export const KEYWORDS = [
  "import", "variant", "param", "rule", "action", "forced", "setup", "on", "when", "phase", "limit",
  "per", "turn", "round", "group", "choose", "ask", "let", "if", "else", "for", "in", "where", "and",
  "or", "not", "true", "false", "remove", "change", "replace", "override", "chips", "from", "size",
  "one", "of", "none", "no_follower", "not_extra", "pass", "colour", "chip", "holding", "table",
];

export function rulesLanguage(builtinNames) {
  const kw = new Set(KEYWORDS);
  const builtins = new Set(builtinNames);
  return StreamLanguage.define({
    name: "carto-rules",
    startState: () => ({ inLong: false }),
    token(stream, state) {
      if (state.inLong) {
        if (stream.skipTo('"""')) { stream.pos += 3; state.inLong = false; } else stream.skipToEnd();
        return "string";
      }
      if (stream.eatSpace()) return null;
      if (stream.match("#")) { stream.skipToEnd(); return "comment"; }
      if (stream.match('"""')) { state.inLong = true; return "string"; }
      if (stream.match(/^"(?:[^"\\]|\\.)*"?/)) return "string";
      if (stream.match(/^\d+/)) return "number";
      if (stream.match(/^[A-Za-z_][A-Za-z0-9_]*/)) {
        const w = stream.current();
        if (kw.has(w)) return "keyword";
        if (builtins.has(w)) return "variableName.special";
        return "variableName";
      }
      stream.next();
      return "operator";
    },
    languageData: { commentTokens: { line: "#" } },
  });
}


// Where the page's files are for the server (web/src/lsp.rs): the rules being edited, the map of
// one's own, and the bundled rules and maps under rules/ and maps/.
export const ROOT_URI = "file:///playground";
export const RULES_URI = `${ROOT_URI}/my.rules`;

// The worker's messages as the client's transport (JSON text both ways).
function workerTransport(worker) {
  let handlers = [];
  worker.onmessage = (e) => { for (const h of handlers) h(e.data); };
  return {
    send: (message) => worker.postMessage(message),
    subscribe: (h) => { handlers.push(h); },
    unsubscribe: (h) => { handlers = handlers.filter((x) => x !== h); },
  };
}

// Hover and completion text comes from rules files, which may come from a stranger's link: only
// plain formatting survives (no scripts, no attributes but a code span's class and an http(s) link).
const SAFE = new Set(["P", "CODE", "PRE", "EM", "STRONG", "B", "I", "UL", "OL", "LI", "BR", "HR", "SPAN", "A", "H1", "H2", "H3", "H4", "BLOCKQUOTE", "TABLE", "THEAD", "TBODY", "TR", "TH", "TD", "DIV"]);
export function sanitize(html) {
  const t = document.createElement("template");
  t.innerHTML = html;
  const walk = (node) => {
    for (const el of [...node.children]) {
      if (!SAFE.has(el.tagName)) { el.replaceWith(document.createTextNode(el.textContent)); continue; }
      for (const a of [...el.attributes]) {
        const keep = (a.name === "class" && el.tagName === "SPAN") || (a.name === "href" && el.tagName === "A" && /^https?:/i.test(a.value));
        if (!keep) el.removeAttribute(a.name);
      }
      walk(el);
    }
  };
  walk(t.content);
  return t.innerHTML;
}

// The files the server sees: editors with the LSP plugin (the rules), files with no editor of
// their own whose text the page gives (`extraFiles()`: the map of one's own), and a read-only
// look at a bundled file when a definition is there (`show`).
class PageWorkspace extends Workspace {
  constructor(client, opts) {
    super(client);
    this.files = [];
    this.versions = {};
    this.opts = opts;
  }

  nextVersion(uri) {
    this.versions[uri] = (this.versions[uri] ?? -1) + 1;
    return this.versions[uri];
  }

  syncFiles() {
    const out = [];
    for (const file of this.files) {
      if (!file.view) continue;
      const plugin = LSPPlugin.get(file.view);
      if (!plugin || plugin.unsyncedChanges.empty) continue;
      out.push({ changes: plugin.unsyncedChanges, file, prevDoc: file.doc });
      file.doc = file.view.state.doc;
      file.version = this.nextVersion(file.uri);
      plugin.clear();
    }
    const extra = this.opts.extraFiles();
    for (const file of this.files.filter((f) => !f.view && !extra.some((x) => x.uri === f.uri))) this.closeFile(file.uri);
    for (const x of extra) {
      const file = this.getFile(x.uri);
      const doc = Text.of(x.text.split("\n"));
      if (!file) {
        const f = { uri: x.uri, languageId: x.languageId, version: this.nextVersion(x.uri), doc, view: null, getView: () => null };
        this.files.push(f);
        this.client.didOpen(f);
      } else if (file.doc.toString() !== x.text) {
        const changes = ChangeSet.of({ from: 0, to: file.doc.length, insert: doc }, file.doc.length);
        out.push({ changes, file, prevDoc: file.doc });
        file.doc = doc;
        file.version = this.nextVersion(file.uri);
      }
    }
    return out;
  }

  openFile(uri, languageId, view) {
    const file = { uri, languageId, version: this.nextVersion(uri), doc: view.state.doc, view, getView: () => view };
    this.files.push(file);
    this.client.didOpen(file);
  }

  closeFile(uri) {
    if (!this.getFile(uri)) return;
    this.files = this.files.filter((f) => f.uri !== uri);
    this.client.didClose(uri);
  }

  async displayFile(uri) {
    const open = this.getFile(uri);
    if (open?.view) return open.view;
    return this.opts.show(uri);
  }
}

// A bundled file shown read-only under the editor, at the place a definition is (closed with its
// button or Escape).
function peekPanel(parent, after, language) {
  const box = document.createElement("div");
  box.className = "peek";
  box.style.cssText = "border-top: 2px solid #2f4a3a; flex-direction: column; height: 40vh; min-height: 12em; flex: none;";
  const shown = (on) => { box.hidden = !on; box.style.display = on ? "flex" : "none"; };
  shown(false);
  const bar = document.createElement("div");
  bar.style.cssText = "display: flex; gap: .6em; align-items: center; padding: .15em .6em; background: #eee9df; font-size: .9em;";
  const title = document.createElement("code");
  title.className = "peek-file";
  const note = document.createElement("span");
  note.textContent = "bundled, read-only";
  note.style.cssText = "color: #555; flex: 1;";
  const close = document.createElement("button");
  close.type = "button";
  close.textContent = "Close";
  close.className = "peek-close";
  bar.append(title, note, close);
  const holder = document.createElement("div");
  holder.style.cssText = "flex: 1; min-height: 0; overflow: auto;";
  box.append(bar, holder);
  after.after(box);
  const hide = () => shown(false);
  close.addEventListener("click", hide);
  // Another file's tab (the map) hides the rules editor: the look goes with it.
  new MutationObserver(() => { if (after.hidden) hide(); }).observe(after, { attributes: true, attributeFilter: ["hidden"] });
  let view = null;
  return (name, text) => {
    const extensions = [
      lineNumbers(), EditorState.readOnly.of(true), EditorView.editable.of(false), EditorView.lineWrapping,
      // The definition at the top of the look, what follows it under it.
      EditorState.transactionExtender.of((tr) => (tr.isUserEvent("select.definition")
        ? { effects: EditorView.scrollIntoView(tr.newSelection.main.head, { y: "start", yMargin: 8 }) } : null)),
      // ... and the whole look (its file's name too) in the window.
      EditorView.updateListener.of((u) => {
        if (u.transactions.some((t) => t.isUserEvent("select.definition"))) {
          requestAnimationFrame(() => requestAnimationFrame(() => box.scrollIntoView({ block: "nearest" })));
        }
      }),
      name.endsWith(".rules") ? language : [], keymap.of([{ key: "Escape", run: () => { hide(); return true; } }]),
      EditorView.theme({ "&": { height: "100%" }, ".cm-scroller": { overflow: "auto" } }),
    ];
    shown(true);
    if (view) view.setState(EditorState.create({ doc: text, extensions }));
    else view = new EditorView({ parent: holder, state: EditorState.create({ doc: text, extensions }) });
    box.peekView = view; // for the tests
    title.textContent = name;
    return view;
  };
}

// The language server for the rules editor: starts the worker and the client, and returns the
// editor extensions (hover, completion, F12 / Ctrl+click to a definition, Shift+F12 references, F2
// rename, Shift+Alt+F format). `opts`: `bundled` (the page's bundled texts), `extraFiles()` (the
// map of one's own as {uri, languageId, text}), `showMap()` (the map's editor, shown), `after`
// (the element the read-only look at a bundled file goes under), `language`.
export function rulesServer(opts) {
  const worker = new Worker(new URL("lsp-worker.js", import.meta.url), { type: "module" });
  const peek = peekPanel(opts.after.parentElement, opts.after, opts.language);
  const show = (uri) => {
    if (uri === `${ROOT_URI}/my.toml`) return opts.showMap();
    const m = /^file:\/\/\/playground\/(rules|maps)\/([\w-]+)\.(rules|toml)$/.exec(uri);
    const text = m && (m[1] === "rules" ? opts.bundled.rules[m[2]] : opts.bundled.maps[m[2]]);
    return text === undefined || text === null ? null : peek(`${m[1]}/${m[2]}.${m[3]}`, text);
  };
  const client = new LSPClient({
    rootUri: ROOT_URI,
    timeout: 10000,
    sanitizeHTML: sanitize,
    highlightLanguage: (name) => (name === "carto" ? opts.language : null),
    workspace: (c) => new PageWorkspace(c, { extraFiles: opts.extraFiles, show }),
  }).connect(workerTransport(worker));
  // Ctrl+click (Cmd+click) a name: to its definition.
  const clickToDefinition = EditorView.domEventHandlers({
    mousedown(e, view) {
      if (!(e.ctrlKey || e.metaKey) || e.button !== 0) return false;
      const pos = view.posAtCoords({ x: e.clientX, y: e.clientY });
      if (pos === null) return false;
      view.dispatch({ selection: { anchor: pos } });
      jumpToDefinition(view);
      e.preventDefault();
      return true;
    },
  });
  const extension = [
    client.plugin(RULES_URI, "carto"),
    hoverTooltips(),
    serverCompletion({ override: true }),
    keymap.of([...formatKeymap, ...renameKeymap, ...jumpToDefinitionKeymap, ...findReferencesKeymap]),
    clickToDefinition,
  ];
  return { client, extension };
}
