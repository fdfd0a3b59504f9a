// Measure: `carto sim --report` in a Web Worker, with a progress bar and a stop button. Alone, the
// report's figures; compared with the original (`--vs-rules`, or the same rules with other values:
// `--vs`), every figure as "yours minus the original" in a sentence carto.wasm writes (the command
// line's words), the win share drawn with its interval, and the text `carto sim` prints. The whole
// comparison (both rules, parameters, agents, games, seed) lives in the page's link. The tuner
// (`carto tune`) is below it (tune.js).
import { inputFor, setValue, valueOf, describe } from "./params.js";
import { shareChart, figuresHtml, shortTitle } from "./measure-view.js";
import { setupTune } from "./tune.js";
import { writeAddress } from "./address.js";

// The default: greedy players (random ones make every figure meaningless), and as many games as
// greedy plays in a few seconds in a browser.
export const DEFAULT_AGENTS = "greedy";
export const DEFAULT_GAMES = 500;

export function setupMeasure(app, el) {
  el.innerHTML = `
    <p class="doc measure-intro">Is your rule any good? Play many games of it against the original with the same seeds, and read what it changes and how sure that is.</p>
    <form id="sim-form" onsubmit="return false">
      <fieldset id="sim-vs-box">
        <legend><label><input type="checkbox" id="sim-vs-on"> compare with the original</label></legend>
        <div id="sim-vs-rules-row" hidden><label>the original <select id="sim-vs-rules"></select></label>
          <span class="doc">(a house rule is measured against the variant it changes)</span></div>
        <div id="sim-vs-note" class="doc"></div>
        <details id="sim-vs-values" hidden><summary>The original's values (change one to compare with another value)</summary>
          <div id="sim-vs-form" class="params"></div></details>
        <div id="sim-vs-list"></div>
      </fieldset>
      <div class="sim-row">
        <label>games <input id="sim-games" type="number" min="1" max="100000000" value="${DEFAULT_GAMES}"></label>
        <label>seed <input id="sim-seed" type="number" min="0" value="1"></label>
        <label>agents <input id="sim-agents" value="${DEFAULT_AGENTS}" title="one for all seats, or one per seat, comma-separated: greedy, mcts, mcts:N, random"></label>
        <label>players <input id="sim-players" value="" placeholder="ann,bob" title="comma-separated; default: as many as the agents, at least two"></label>
      </div>
      <button type="button" id="sim-run" class="primary">Run</button>
      <button type="button" id="sim-stop" disabled>Stop</button>
      <button type="button" id="sim-share" title="a link to this comparison: whoever opens it sees the same setup and, run, the same numbers">Share this comparison</button>
    </form>
    <progress id="sim-progress" class="progress" value="0" max="1"></progress>
    <div id="sim-status" role="status"></div>
    <div id="sim-error" class="error"></div>
    <div id="sim-chart"></div>
    <div id="sim-words"></div>
    <details id="sim-text"><summary>As <code>carto sim</code> prints it</summary>
      <p><code id="sim-command"></code></p><pre id="sim-table"></pre></details>
    <section id="tune"></section>`;
  const $ = (id) => document.getElementById(id);
  let worker = null;
  const list = (s) => s.split(",").map((x) => x.trim()).filter(Boolean);
  const vsRules = $("sim-vs-rules");
  vsRules.add(new Option("these rules, other values", ""));
  for (const v of app.bundled.variants) vsRules.add(new Option(`${shortTitle(v.title)} (${v.name})`, v.name));

  // The second setting: its rules' parameters (the original's, or these rules' own), every one at
  // its value there; the ones changed in the form are its `--vs name=value`.
  const vsSets = {}; // name -> value text chosen in the --vs form
  let linked = null; // {name, text}: an original's text a link carried that is not the bundled one
  let touched = false; // the person chose whether and with what to compare
  const aText = (p) => (typeof p.value === "string" ? p.value : JSON.stringify(p.value));
  const vsText = (name) => (linked && linked.name === name ? linked.text : app.bundled.rules[name]);
  const on = () => $("sim-vs-on").checked;
  app.vsRules = () => (on() ? vsRules.value : "");
  let vsParams = [];
  function loadVsParams() {
    $("sim-vs-note").textContent = "";
    if (!app.doc) return [];
    const r = app.vsRules();
    if (!r) return app.doc.params;
    const d = app.call({ fn: "doc", name: r, text: vsText(r), sets: app.setsList(), maps: app.maps() });
    if (d.error) { $("sim-vs-note").textContent = d.error; return []; }
    if (linked && linked.name === r) $("sim-vs-note").textContent = `The link's rules for ${r} are not this playground's bundled ${r}: the link's are measured (as original.rules).`;
    return d.params;
  }
  app.vsList = () => (on() ? vsParams.filter((p) => p.name in vsSets && vsSets[p.name] !== "" && vsSets[p.name] !== aText(p))
    .map((p) => `${p.name}=${vsSets[p.name]}`) : []);
  function showVs() {
    const vs = (app.vsRules() ? [`--vs-rules ${app.vsRules()}`] : []).concat(app.vsList().map((v) => `--vs ${v}`));
    $("sim-vs-list").textContent = !on() ? ""
      : vs.length ? "the original: " + vs.join(" ") : "pick the original's rules or change a value above: until then both settings are the same";
  }
  function vsForm() {
    const form = $("sim-vs-form");
    $("sim-vs-values").hidden = !on();
    $("sim-vs-rules-row").hidden = !on();
    // Folded while the original is other rules at their own values; open to compare values.
    if (on() && (!vsRules.value || app.vsList().length)) $("sim-vs-values").open = true;
    form.replaceChildren();
    vsParams = on() ? loadVsParams() : [];
    for (const p of vsParams) {
      const label = document.createElement("label");
      label.textContent = p.name;
      label.htmlFor = "vs-" + p.name;
      const input = inputFor(p);
      input.id = "vs-" + p.name;
      setValue(input, p.name in vsSets ? (p.type === "bool" ? vsSets[p.name] === "true" : vsSets[p.name]) : p.value);
      const mark = () => label.classList.toggle("changed", valueOf(input) !== aText(p));
      input.addEventListener("change", () => { vsSets[p.name] = valueOf(input); mark(); showVs(); });
      mark();
      const doc = document.createElement("span");
      doc.className = "doc";
      doc.textContent = describe(p);
      form.append(label, input, doc);
    }
    showVs();
  }
  $("sim-vs-on").addEventListener("change", () => { touched = true; vsForm(); });
  vsRules.addEventListener("change", () => { touched = true; vsForm(); });
  // A house rule (rules of one's own that import a bundled variant) is compared with that variant
  // unless the person chose otherwise.
  function guessOriginal() {
    if (touched || !app.doc || app.rulesName() === app.base) return;
    const imported = [...app.text().matchAll(/^\s*import\s+"([^"]+)"/gm)].map((m) => m[1]).find((n) => app.bundled.rules[n]);
    if (!imported || !app.bundled.variants.some((v) => v.name === imported)) return;
    $("sim-vs-on").checked = true;
    vsRules.value = imported;
  }
  app.listeners.push(() => { guessOriginal(); if (on()) vsForm(); });

  // The names of the two settings, in the rules' words: the original's title, and yours (the
  // house rule's title when it has its own, else "your rule"; "your values" for --vs alone).
  function labels() {
    const title = app.doc ? shortTitle(app.doc.title) : "these rules";
    const r = app.vsRules();
    if (!r) return { one: title, original: title, yours: `your values (${app.vsList().join(" ")})` };
    const original = shortTitle(app.bundled.variants.find((v) => v.name === r)?.title ?? r);
    return { one: title, original, yours: title !== original ? title : "your rule" };
  }

  // The comparison as the link carries it, and back.
  app.measureState = () => ({
    compare: on(), vs_rules: vsRules.value, vs_text: on() && vsRules.value ? vsText(vsRules.value) : "",
    vs: { ...vsSets }, games: $("sim-games").value, seed: $("sim-seed").value,
    agents: $("sim-agents").value, players: $("sim-players").value, tune: app.tuneState?.() ?? null,
    open: !el.hidden, // a link made on this tab opens on it
  });
  app.applyMeasure = (m) => {
    if (!m) return;
    touched = true;
    $("sim-vs-on").checked = m.compare;
    linked = m.vs_rules && m.vs_text && m.vs_text !== app.bundled.rules[m.vs_rules] ? { name: m.vs_rules, text: m.vs_text } : null;
    if (m.vs_rules && !app.bundled.rules[m.vs_rules] && linked) vsRules.add(new Option(`${m.vs_rules} (from the link)`, m.vs_rules));
    vsRules.value = m.vs_rules;
    for (const k of Object.keys(vsSets)) delete vsSets[k];
    Object.assign(vsSets, m.vs);
    $("sim-games").value = m.games;
    $("sim-seed").value = m.seed;
    $("sim-agents").value = m.agents;
    $("sim-players").value = m.players;
    if (m.tune) app.applyTune?.(m.tune);
    vsForm();
  };
  $("sim-share").addEventListener("click", async () => {
    await writeAddress(app);
    try { await navigator.clipboard.writeText(location.href); app.status("link to the comparison copied"); } catch { app.status("the link to the comparison is the address bar's"); }
  });

  app.simRequest = () => ({
    name: app.rulesName(), text: app.text(), sets: app.setsList(), maps: app.maps(),
    vs: app.vsList(), vs_rules: app.vsRules(), vs_text: app.vsRules() ? vsText(app.vsRules()) : "",
    games: Number($("sim-games").value), seed: Number($("sim-seed").value),
    agents: list($("sim-agents").value), players: list($("sim-players").value), report: true,
  });
  app.simWorker = () => (worker ??= new Worker(new URL("worker.js", import.meta.url), { type: "module" }));

  $("sim-run").addEventListener("click", () => {
    const w = app.simWorker();
    for (const id of ["sim-error", "sim-table", "sim-command", "sim-status"]) $(id).textContent = "";
    $("sim-chart").replaceChildren();
    $("sim-words").replaceChildren();
    $("sim-run").disabled = true;
    $("sim-stop").disabled = false;
    app.simReport = null;
    const names = labels();
    writeAddress(app);
    w.onmessage = (e) => {
      const m = e.data;
      if (m.error) { $("sim-error").textContent = m.error; done(); return; }
      if (m.progress !== undefined) {
        $("sim-progress").max = m.games;
        $("sim-progress").value = m.progress;
        $("sim-status").textContent = `${m.progress} of ${m.games} games, ${(m.progress / m.seconds).toFixed(1)} games/s`;
      }
      if (m.report) {
        if (m.report.error) $("sim-error").textContent = m.report.error;
        else show(m.report, m, names);
        done();
      }
    };
    w.postMessage({ start: app.simRequest() });
  });
  $("sim-stop").addEventListener("click", () => worker && worker.postMessage({ stop: true }));

  function done() {
    $("sim-run").disabled = false;
    $("sim-stop").disabled = true;
  }

  function show(r, m, names) {
    app.simReport = r;
    $("sim-table").textContent = r.table;
    $("sim-command").textContent = r.command.replace(/--games \d+/, `--games ${r.games}`);
    $("sim-status").textContent = `${m.stopped ? "stopped: " : ""}${r.games} games in ${m.seconds.toFixed(1)} s (${(r.games / m.seconds).toFixed(1)} games/s)`;
    if (!r.report) return;
    $("sim-chart").innerHTML = shareChart(r.report, names);
    $("sim-words").innerHTML = figuresHtml(r.report, names);
  }

  setupTune(app, $("tune"));
  if (app.initialMeasure) app.applyMeasure(app.initialMeasure);
}
