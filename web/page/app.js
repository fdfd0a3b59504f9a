// The playground page: the editor with diagnostics as you type, the rule page, map and parameters,
// play and measure. Everything runs here, in carto.wasm; nothing leaves the browser.
import { EditorView, basicSetup } from "codemirror";
import { EditorState, StateEffect } from "@codemirror/state";
import { linter, lintGutter, forceLinting } from "@codemirror/lint";
import { autocompletion } from "@codemirror/autocomplete";
import { marked } from "marked";
import { loadCarto } from "./carto.js";
import { rulesLanguage, hoverDocs, completionSource } from "./rules-lang.js";
import { setupPlay } from "./play.js";
import { setupMeasure } from "./measure.js";
import { readAddress, writeAddress } from "./address.js";
import { setupMapEditor } from "./map-edit.js";
import { inputFor, setValue, valueOf, describe } from "./params.js";

const $ = (id) => document.getElementById(id);
const CHECK_NAME = "my.rules";
const DEBOUNCE_MS = 120;
// Tells the rules' linter that the map of one's own changed (the rules may name it).
const mapChanged = StateEffect.define();

// Templates: a house rule of a bundled variant, and a new variant on a bundled map.
const TEMPLATES = {
  "template:house": `# France with three house rules; everything else is France's.
import "france"
variant "my-france" {
  title = "France, house rules"
}
remove action sell_town                      # no sales to towns
change action sell_abroad limit group sale 2 # two sales abroad a turn (was one sale a turn)
change rule road when feature.kind == road and feature.tiles >= 3  # short roads score nothing
`,
  "template:new": `# A new variant: base scoring, the map defaults and the standard chip scatter, on a bundled map.
import "scatter"
variant "my-variant" {
  title = "Carcassonne: Maps — my variant"
  doc = """What is special here, for a reader."""
  map = "germany"
  start_squares = 2
}
param sale: int in 0..20 = 5 "points for a sale"
action sell phase score limit per turn 1 when turn_tile().square.town
    choose pay: chips from chips(hand(player)) size 2..2 where distinct(c in pay: c.colour) == 1 {
  move(pay, box, up)
  score(player, sale)
}
`,
};

// Markdown from rules files may come from a stranger's link: raw HTML is shown as text, and links
// go only to http(s) or anchors.
const escapeHtml = (s) => s.replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c]);
marked.use({
  renderer: {
    html(token) { return escapeHtml(token.text ?? token.raw ?? ""); },
    link(token) {
      const text = this.parser.parseInline(token.tokens);
      return /^(https?:|#)/.test(token.href) ? `<a href="${escapeHtml(token.href)}" rel="noreferrer">${text}</a>` : text;
    },
    image(token) { return escapeHtml(token.text ?? ""); },
  },
});

async function main() {
  const call = await loadCarto("carto.wasm");
  const bundled = call({ fn: "bundled" });
  const app = {
    call,
    bundled,
    base: "base", // the bundled variant the text started from
    sets: {}, // parameters changed in the form: name -> value text
    doc: null, // the last page answer
    listeners: [], // called with the variant's name and sets when the rules change
    maps: () => [], // the maps of one's own, as every call passes them (map-edit.js)
    status: (t) => { $("status").textContent = t; },
  };
  window.carto = app; // for the tests and the curious

  // The start picker.
  const start = $("start");
  for (const v of bundled.variants) start.add(new Option(`${v.name} — ${v.title}`, v.name));
  start.add(new Option("template: a house rule of France", "template:house"));
  start.add(new Option("template: a new variant on a bundled map", "template:new"));

  const fromAddress = await readAddress();
  const initial = fromAddress ?? { base: "base", text: bundled.rules.base, sets: {} };
  app.base = initial.base;
  app.sets = initial.sets || {};
  app.initialMap = initial.map ?? "";
  app.mapStart = initial.mapStart ?? "";
  start.value = initial.base in TEMPLATES || bundled.rules[initial.base] ? initial.base : "base";

  // The name the rules are loaded under: the bundled name while the text is the bundled file's
  // (so a log names `france`, which `carto replay` finds), else `my.rules`.
  app.rulesName = () => (bundled.rules[app.base] === app.text() ? app.base : CHECK_NAME);
  app.setsList = () => Object.entries(app.sets).map(([k, v]) => `${k}=${v}`);

  const importedWords = () => {
    const names = [...app.text().matchAll(/import\s+"([^"]+)"/g)].map((m) => m[1]);
    return names.map((n) => bundled.rules[n] || "").join("\n");
  };

  const lint = linter((view) => {
    const text = view.state.doc.toString();
    const t0 = performance.now();
    const r = call({ fn: "check", name: CHECK_NAME, text, maps: app.maps() });
    app.lastCheckMs = performance.now() - t0;
    showProblems(r);
    scheduleDoc();
    return r.diagnostics.map((d) => ({
      from: d.from ?? 0,
      to: d.from === undefined ? 0 : Math.min(Math.max(d.to, d.from), text.length),
      severity: d.severity,
      message: d.from === undefined ? `${d.file}:${d.line}:${d.column}: ${d.message}` : d.message + (d.label ? ` (${d.label})` : "") + (d.hint ? `\n${d.hint}` : ""),
      source: `${d.file}:${d.line}:${d.column}`,
    }));
  }, { delay: DEBOUNCE_MS, needsRefresh: (u) => u.transactions.some((t) => t.effects.some((e) => e.is(mapChanged))) });

  const view = new EditorView({
    parent: $("editor"),
    state: EditorState.create({
      doc: initial.text,
      extensions: [
        basicSetup,
        rulesLanguage(bundled.builtins.filter((b) => b.kind !== "field").map((b) => b.name)),
        lint,
        lintGutter(),
        EditorView.lineWrapping,
        hoverDocs(bundled.builtins),
        autocompletion({ override: [completionSource(bundled.builtins, importedWords)] }),
        EditorView.updateListener.of((u) => { if (u.docChanged) app.edited = performance.now(); }),
      ],
    }),
  });
  app.view = view;
  app.text = () => view.state.doc.toString();
  app.setText = (text) => view.dispatch({ changes: { from: 0, to: view.state.doc.length, insert: text } });

  // The map of one's own, in its own editor; a change checks the rules again (they may use it).
  const mapStart = $("map-start");
  setupMapEditor(app, {
    parent: $("map-editor"),
    problems: { summary: $("map-summary"), text: $("map-check-text") },
    start: mapStart,
    onChecked: (m) => {
      $("map-badge").textContent = m ? (m.errors ? `(${m.errors} error${m.errors > 1 ? "s" : ""})` : "✓") : "";
      $("map-badge").className = m && m.errors ? "bad" : "";
      view.dispatch({ effects: mapChanged.of(null) }); // the rules may use the map: checked again
      forceLinting(view);
    },
  });
  mapStart.value = app.mapStart;
  const showFile = (which) => {
    document.querySelectorAll(".files button").forEach((b) => b.setAttribute("aria-selected", String(b.dataset.file === which)));
    $("editor").hidden = which !== "rules";
    $("problems").hidden = which !== "rules";
    $("map-editor").hidden = which !== "map";
    $("map-problems").hidden = which !== "map";
    $("map-tools").hidden = which !== "map";
  };
  app.showFile = showFile;
  document.querySelectorAll(".files button").forEach((b) => b.addEventListener("click", () => showFile(b.dataset.file)));
  mapStart.addEventListener("change", () => showFile("map"));

  start.addEventListener("change", () => {
    app.base = start.value;
    app.sets = {};
    app.paramNames = null;
    app.setText(TEMPLATES[start.value] ?? bundled.rules[start.value]);
  });

  function showProblems(r) {
    const s = $("summary");
    s.textContent = r.summary;
    s.className = r.errors ? "bad" : "good";
    $("check-text").textContent = r.text;
    app.lastCheck = r;
  }

  let docTimer = null;
  function scheduleDoc() {
    clearTimeout(docTimer);
    docTimer = setTimeout(refreshDoc, 0);
  }

  function refreshDoc() {
    if (app.lastCheck && app.lastCheck.errors) {
      $("status").textContent = "the rules have errors: the page shows the last rules that loaded";
      return;
    }
    const d = call({ fn: "doc", name: app.rulesName(), text: app.text(), sets: app.setsList(), maps: app.maps() });
    if (d.error) {
      $("param-error").textContent = d.error;
      $("status").textContent = "not loaded";
      return;
    }
    $("param-error").textContent = "";
    app.doc = d;
    $("status").textContent = `${d.name}: ${d.title}`;
    $("page").innerHTML = marked.parse(d.markdown);
    $("map").innerHTML = d.map_svg ?? "";
    showParams(d.params);
    writeAddress(app);
    for (const f of app.listeners) f(d);
  }
  app.refreshDoc = refreshDoc;

  function showParams(params) {
    const names = params.map((p) => p.name + ":" + p.type + ":" + p.range).join(",");
    if (names === app.paramNames) {
      for (const p of params) {
        const el = $("param-" + p.name);
        if (el && document.activeElement !== el) setValue(el, p.value);
      }
      return;
    }
    app.paramNames = names;
    const form = $("params");
    form.replaceChildren();
    for (const p of params) {
      const label = document.createElement("label");
      label.textContent = p.name;
      label.htmlFor = "param-" + p.name;
      const el = inputFor(p);
      el.id = "param-" + p.name;
      el.name = p.name;
      setValue(el, p.value);
      el.addEventListener("change", () => {
        app.sets[p.name] = valueOf(el);
        refreshDoc();
      });
      const doc = document.createElement("span");
      doc.className = "doc";
      doc.textContent = describe(p);
      form.append(label, el, doc);
    }
  }


  document.querySelectorAll("nav button").forEach((b) => b.addEventListener("click", () => {
    document.querySelectorAll("nav button").forEach((o) => o.setAttribute("aria-selected", String(o === b)));
    document.querySelectorAll(".tab").forEach((t) => { t.hidden = t.id !== "tab-" + b.dataset.tab; });
  }));
  $("share").addEventListener("click", async () => {
    await writeAddress(app);
    try { await navigator.clipboard.writeText(location.href); $("status").textContent = "link copied"; } catch { $("status").textContent = "the link is the address bar's"; }
  });

  // The files as `carto` reads them: my.rules, and my.toml when there is a map of one's own.
  const download = (name, text) => {
    const a = document.createElement("a");
    a.href = URL.createObjectURL(new Blob([text], { type: "text/plain" }));
    a.download = name;
    document.body.append(a);
    a.click();
    a.remove();
    setTimeout(() => URL.revokeObjectURL(a.href), 1000);
  };
  app.download = download;
  $("save").addEventListener("click", () => {
    download(CHECK_NAME, app.text());
    for (const m of app.maps()) download(m.name, m.text);
  });

  setupPlay(app, $("tab-play"));
  setupMeasure(app, $("tab-measure"));
  document.body.dataset.ready = "1";
}

main().catch((e) => {
  $("status").textContent = "error: " + e;
  console.error(e);
});
