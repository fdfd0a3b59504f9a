// The playground page: the editor with diagnostics as you type, the rule page, map and parameters,
// play and measure. Everything runs here, in carto.wasm; nothing leaves the browser.
import { EditorView, basicSetup } from "codemirror";
import { EditorState, StateEffect } from "@codemirror/state";
import { linter, lintGutter, forceLinting } from "@codemirror/lint";
import { marked } from "marked";
import { loadCarto } from "./carto.js";
import { rulesLanguage, rulesServer, ROOT_URI } from "./rules-lang.js";
import { setupPlay } from "./play.js";
import { setupMeasure } from "./measure.js";
import { readAddress, writeAddress, stateOf, measureOf } from "./address.js";
import { loadWork, saveWork, keepBeforeLink, loadBeforeLink } from "./work.js";
import { setupHome } from "./home.js";
import { setupGuide } from "./guide.js";
import { setupReference } from "./reference.js";
import { undo, isolateHistory } from "@codemirror/commands";
import { setupMapEditor } from "./map-edit.js";
import { inputFor, setValue, valueOf, describe } from "./params.js";

const $ = (id) => document.getElementById(id);
const CHECK_NAME = "my.rules";
const DEBOUNCE_MS = 120;
const SAVE_MS = 300;
// The largest rules text the page checks (the bundled files are under 5 KB; a pasted megabyte of
// anything else would take the checker's memory): above it the page says so and checks nothing.
export const MAX_RULES_BYTES = 256 * 1024;
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

// A byte-order mark at the start of pasted or typed text (a file saved by some editors) is no
// character of the rules: it is dropped as it comes in.
const withoutByteOrderMarks = EditorState.transactionFilter.of((tr) => {
  if (!tr.docChanged) return tr;
  const marks = [];
  tr.changes.iterChanges((_fromA, _toA, fromB, _toB, inserted) => {
    if (inserted.sliceString(0, 1) === "\uFEFF") marks.push(fromB);
  });
  if (!marks.length) return tr;
  // Positions in the document after `tr` (a spec's changes all refer to the same document).
  return [tr, { changes: marks.map((at) => ({ from: at, to: at + 1 })), sequential: true }];
});

// Markdown from rules files may come from a stranger's link: raw HTML is shown as text, and links
// go only to http(s) or anchors.
const escapeHtml = (s) => s.replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c]);
const SAFE_TAGS = /^<(br|code|\/code)>$/;
marked.use({
  renderer: {
    // The only tags `carto doc` writes (in table cells: line breaks and source lines) pass as
    // themselves; any other HTML is text.
    html(token) {
      const t = token.text ?? token.raw ?? "";
      return SAFE_TAGS.test(t) ? t : escapeHtml(t);
    },
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
    // A message in the header, kept until the next edit or message (the variant's title otherwise).
    note: "",
    status: (t) => { app.note = t; $("status").textContent = t; },
  };
  window.carto = app; // for the tests and the curious

  // The start picker.
  const start = $("start");
  for (const v of bundled.variants) start.add(new Option(`${v.name} — ${v.title}`, v.name));
  start.add(new Option("template: a house rule of France", "template:house"));
  start.add(new Option("template: a new variant on a bundled map", "template:new"));

  const fromAddress = await readAddress();
  if (fromAddress) keepBeforeLink(fromAddress);
  const work = fromAddress ? null : loadWork();
  const initial = fromAddress ?? work ?? { base: "base", text: bundled.rules.base, sets: {} };
  app.base = initial.base;
  app.sets = initial.sets || {};
  app.initialMap = initial.map ?? "";
  app.mapStart = initial.mapStart ?? "";
  app.initialMeasure = measureOf(initial.measure); // the Measure tab's comparison (measure.js)
  start.value = initial.base in TEMPLATES || bundled.rules[initial.base] ? initial.base : "base";

  // The name the rules are loaded under: the bundled name while the text is the bundled file's
  // (so a log names `france`, which `carto replay` finds), else `my.rules`.
  app.rulesName = () => (bundled.rules[app.base] === app.text() ? app.base : CHECK_NAME);
  app.setsList = () => Object.entries(app.sets).map(([k, v]) => `${k}=${v}`);

  const lint = linter((view) => {
    const text = view.state.doc.toString();
    const t0 = performance.now();
    const r = checkRules(text);
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

  // Hover, completion, definitions, rename: the language server in its worker (rules-lang.js).
  const language = rulesLanguage(bundled.builtins.filter((b) => b.kind !== "field").map((b) => b.name));
  const server = rulesServer({
    bundled,
    language,
    after: $("editor"),
    extraFiles: () => app.maps().map((m) => ({ uri: `${ROOT_URI}/${m.name}`, languageId: "toml", text: m.text })),
    showMap: () => { app.showFile("map"); return app.mapView; },
  });
  app.lsp = server.client;
  const view = new EditorView({
    parent: $("editor"),
    state: EditorState.create({
      doc: initial.text,
      extensions: [
        basicSetup,
        language,
        lint,
        lintGutter(),
        EditorView.lineWrapping,
        server.extension,
        EditorView.updateListener.of((u) => {
          if (!u.docChanged) return;
          app.edited = performance.now();
          afterEdit();
        }),
        withoutByteOrderMarks,
      ],
    }),
  });
  app.view = view;
  app.text = () => view.state.doc.toString();
  // A whole text put in is one step of the editor's history of its own (never merged with the
  // typing just before it), so one Ctrl+Z takes back exactly it.
  app.setText = (text) => view.dispatch({ changes: { from: 0, to: view.state.doc.length, insert: text }, annotations: isolateHistory.of("full") });

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

  // "Start from" replaces the text as one change the editor's history holds (Ctrl+Z brings the
  // text back), after asking when the text is edited; the address gets an entry of its own, so
  // the browser's Back returns to the text before.
  const startText = (base) => TEMPLATES[base] ?? bundled.rules[base];
  const startLabel = (base) => [...start.options].find((o) => o.value === base)?.text ?? base;
  app.unsaved = () => app.text() !== startText(app.base);
  const replaced = []; // what each replacement replaced: {base, sets, text}
  // Resolves false when the person keeps their text.
  async function startFrom(next) {
    if (next === app.base && app.text() === startText(next)) return true;
    const edited = app.unsaved();
    if (edited && !(await ask(`Replace the rules you are editing with “${startLabel(next)}”?`,
      "Your text is kept until then; after replacing, Ctrl+Z or the browser's Back brings it back.", "Replace", "Keep my text"))) return false;
    replaced.push({ base: app.base, sets: app.sets, text: app.text() });
    history.pushState(null, "", location.href);
    useState({ base: next, sets: {}, text: startText(next) });
    app.status(`started from ${startLabel(next)}${edited ? ": Ctrl+Z brings your text back" : ""}`);
    return true;
  }
  app.startFrom = startFrom;
  start.addEventListener("change", async () => {
    const next = start.value;
    start.value = app.base;
    if (await startFrom(next)) view.focus();
  });
  // Ctrl+Z outside the editor (say right after "Start from") undoes in the editor.
  document.addEventListener("keydown", (e) => {
    if (!(e.ctrlKey || e.metaKey) || e.key.toLowerCase() !== "z" || e.shiftKey) return;
    if (view.hasFocus || e.target.closest?.("input, textarea, .cm-editor")) return;
    e.preventDefault();
    undo(view);
    view.focus();
  });
  // Back and Forward: the address's state comes back.
  window.addEventListener("popstate", async () => {
    const s = await readAddress();
    if (s && (s.text !== app.text() || s.base !== app.base)) useState(s);
  });
  app.useState = (s) => useState(s);
  function useState(s) {
    app.base = s.base;
    app.sets = s.sets || {};
    app.paramNames = null;
    start.value = s.base in TEMPLATES || bundled.rules[s.base] ? s.base : "base";
    if (s.text !== app.text()) app.setText(s.text);
    else refreshDoc();
    if (s.measure) app.applyMeasure(measureOf(s.measure));
  }
  // An undone replacement gives the text its variant and parameters back.
  function afterEdit() {
    const last = replaced[replaced.length - 1];
    if (last && last.text === app.text()) {
      replaced.pop();
      app.base = last.base;
      app.sets = last.sets;
      app.paramNames = null;
      start.value = last.base in TEMPLATES || bundled.rules[last.base] ? last.base : "base";
    }
    app.note = "";
    clearTimeout(saveTimer);
    saveTimer = setTimeout(keep, SAVE_MS);
  }
  let saveTimer = null;
  // Every edit is kept in the browser (reopening the page restores it).
  function keep() {
    clearTimeout(saveTimer);
    if (!saveWork(stateOf(app))) app.status("the browser refused to keep your work: download it (Download files)");
  }
  app.keep = keep;
  window.addEventListener("pagehide", keep);

  // A question in the page: resolves true for `yes`.
  function ask(question, detail, yes, no) {
    const d = $("ask");
    $("ask-question").textContent = question;
    $("ask-detail").textContent = detail;
    $("ask-yes").textContent = yes;
    $("ask-no").textContent = no;
    d.returnValue = ""; // Escape closes it with no answer: no
    d.showModal();
    return new Promise((ok) => {
      d.onclose = () => ok(d.returnValue === "yes");
    });
  }
  app.ask = ask;

  // The checker's answer for the text, or the reason it was not asked (too large, or carto.wasm
  // failed): the problems panel never keeps an earlier text's answer.
  function checkRules(text) {
    const bytes = new TextEncoder().encode(text).length;
    if (bytes > MAX_RULES_BYTES) {
      const message = `the text is ${Math.round(bytes / 1024)} KB: the playground checks rules files up to ${MAX_RULES_BYTES / 1024} KB (\`carto check\` reads larger ones)`;
      return { diagnostics: [{ file: CHECK_NAME, line: 1, column: 1, severity: "error", message }], text: `error: ${message}\n`, summary: `${CHECK_NAME}: not checked`, errors: 1, warnings: 0 };
    }
    const r = call({ fn: "check", name: CHECK_NAME, text, maps: app.maps() });
    if (r.error) return { diagnostics: [], text: r.error, summary: `${CHECK_NAME}: not checked`, errors: 1, warnings: 0 };
    return r;
  }

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
    let d = call({ fn: "doc", name: app.rulesName(), text: app.text(), sets: app.setsList(), maps: app.maps() });
    // A parameter set in the form that the rules no longer have (deleted, renamed) is forgotten.
    for (let gone; d.error && (gone = /unknown parameter `([^`]+)`/.exec(d.error)) && gone[1] in app.sets;) {
      delete app.sets[gone[1]];
      d = call({ fn: "doc", name: app.rulesName(), text: app.text(), sets: app.setsList(), maps: app.maps() });
    }
    if (d.error) {
      $("param-error").textContent = d.error;
      $("status").textContent = "not loaded";
      return;
    }
    $("param-error").textContent = "";
    // Another variant's page starts at its top.
    if (app.doc && app.doc.name !== d.name) $("right").scrollTop = 0;
    app.doc = d;
    $("status").textContent = app.note || `${d.name}: ${d.title}`;
    $("page").innerHTML = marked.parse(d.markdown);
    $("map").innerHTML = d.map_svg ?? "";
    showParams(d.params);
    writeAddress(app);
    keep();
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


  const showTab = (tab) => {
    document.querySelectorAll("nav button").forEach((o) => o.setAttribute("aria-selected", String(o.dataset.tab === tab)));
    document.querySelectorAll(".tab").forEach((t) => { t.hidden = t.id !== "tab-" + tab; });
  };
  app.showTab = showTab;
  document.querySelectorAll("nav button").forEach((b) => b.addEventListener("click", () => showTab(b.dataset.tab)));
  $("share").addEventListener("click", async () => {
    await writeAddress(app);
    try { await navigator.clipboard.writeText(location.href); app.status("link copied"); } catch { app.status("the link is the address bar's"); }
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
    app.status(`downloaded ${[CHECK_NAME, ...app.maps().map((m) => m.name)].join(" and ")}`);
  });

  setupPlay(app, $("tab-play"));
  setupMeasure(app, $("tab-measure"));
  setupReference(app, $("tab-reference"));
  setupGuide(app);
  setupHome(app, { work, beforeLink: fromAddress ? null : loadBeforeLink() });
  app.setMode(fromAddress ? "read" : "home");
  if (fromAddress?.measure?.open) app.showTab("measure"); // a link made on the Measure tab opens it
  document.body.dataset.ready = "1";
}

main().catch((e) => {
  $("status").textContent = "error: " + e;
  console.error(e);
});
