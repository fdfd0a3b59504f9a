// Measure: `carto sim` in a Web Worker, with a progress bar and a stop button; the same table as
// the command line, and a chart of the mean score per seat with its 95% interval. A second setting
// to compare with (`--vs`) is a second parameter form: the values changed there are its `--vs`.
import { inputFor, setValue, valueOf, describe } from "./params.js";

export function setupMeasure(app, el) {
  el.innerHTML = `
    <form id="sim-form" onsubmit="return false">
      <label>games <input id="sim-games" type="number" min="1" max="100000000" value="200" style="width:7em"></label>
      <label>seed <input id="sim-seed" type="number" min="0" value="1" style="width:6em"></label>
      <label>agents <input id="sim-agents" value="random" size="18" title="one for all seats, or one per seat, comma-separated: random, greedy, mcts, mcts:N"></label>
      <label>players <input id="sim-players" value="" size="14" placeholder="ann,bob" title="comma-separated; default: as many as the agents, at least two"></label>
      <fieldset id="sim-vs-box">
        <legend><label><input type="checkbox" id="sim-vs-on"> compare with a second setting (<code>--vs</code>)</label></legend>
        <div id="sim-vs-rules-row" hidden><label>its rules <select id="sim-vs-rules"></select></label>
          <span class="doc">(a house rule is measured against the variant it changes: pick that variant)</span></div>
        <div id="sim-vs-form" class="params" hidden></div>
        <div id="sim-vs-list"></div>
      </fieldset>
      <button type="button" id="sim-run" class="primary">Run</button>
      <button type="button" id="sim-stop" disabled>Stop</button>
    </form>
    <progress id="sim-progress" class="progress" value="0" max="1"></progress>
    <div id="sim-status" role="status"></div>
    <div id="sim-error" class="error"></div>
    <div id="sim-chart"></div>
    <pre id="sim-table"></pre>
    <p><code id="sim-command"></code></p>`;
  const $ = (id) => document.getElementById(id);
  let worker = null;
  const list = (s) => s.split(",").map((x) => x.trim()).filter(Boolean);

  // The second setting: every parameter starts at the first setting's value; the ones changed
  // here are its `--vs name=value` (kept while the rules keep the parameter).
  const vsSets = {}; // name -> value text chosen in the --vs form
  const aText = (p) => (typeof p.value === "string" ? p.value : JSON.stringify(p.value));
  const vsRules = $("sim-vs-rules");
  vsRules.add(new Option("these rules (my.rules)", ""));
  for (const v of app.bundled.variants) vsRules.add(new Option(`${v.name} — ${v.title}`, v.name));
  vsRules.addEventListener("change", showVs);
  app.vsRules = () => ($("sim-vs-on").checked ? vsRules.value : "");
  app.vsList = () => {
    if (!$("sim-vs-on").checked || !app.doc) return [];
    return app.doc.params.filter((p) => p.name in vsSets && vsSets[p.name] !== "" && vsSets[p.name] !== aText(p))
      .map((p) => `${p.name}=${vsSets[p.name]}`);
  };
  function showVs() {
    const vs = (app.vsRules() ? [`--vs-rules ${app.vsRules()}`] : []).concat(app.vsList().map((v) => `--vs ${v}`));
    $("sim-vs-list").textContent = !$("sim-vs-on").checked ? ""
      : vs.length ? "second setting: " + vs.join(" ") : "pick other rules or change a parameter above: the second setting is the first one until then";
  }
  function vsForm() {
    const form = $("sim-vs-form");
    form.hidden = !$("sim-vs-on").checked;
    $("sim-vs-rules-row").hidden = form.hidden;
    form.replaceChildren();
    if (form.hidden || !app.doc) { showVs(); return; }
    for (const p of app.doc.params) {
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
  $("sim-vs-on").addEventListener("change", vsForm);
  app.listeners.push(() => { if ($("sim-vs-on").checked) vsForm(); });

  $("sim-run").addEventListener("click", () => {
    worker ??= new Worker(new URL("worker.js", import.meta.url), { type: "module" });
    $("sim-error").textContent = "";
    $("sim-table").textContent = "";
    $("sim-chart").replaceChildren();
    $("sim-run").disabled = true;
    $("sim-stop").disabled = false;
    app.simReport = null;
    worker.onmessage = (e) => {
      const m = e.data;
      if (m.error) { $("sim-error").textContent = m.error; done(); return; }
      if (m.progress !== undefined) {
        $("sim-progress").max = m.games;
        $("sim-progress").value = m.progress;
        $("sim-status").textContent = `${m.progress} of ${m.games} games, ${(m.progress / m.seconds).toFixed(1)} games/s`;
      }
      if (m.report) {
        if (m.report.error) $("sim-error").textContent = m.report.error;
        else show(m.report, m);
        done();
      }
    };
    worker.postMessage({ start: {
      name: app.rulesName(), text: app.text(), sets: app.setsList(), maps: app.maps(),
      vs: app.vsList(), vs_rules: app.vsRules(), games: Number($("sim-games").value), seed: Number($("sim-seed").value),
      agents: list($("sim-agents").value), players: list($("sim-players").value),
    } });
  });
  $("sim-stop").addEventListener("click", () => worker && worker.postMessage({ stop: true }));

  function done() {
    $("sim-run").disabled = false;
    $("sim-stop").disabled = true;
  }

  function show(r, m) {
    app.simReport = r;
    $("sim-table").textContent = r.table;
    $("sim-command").textContent = r.command.replace(/--games \d+/, `--games ${r.games}`);
    $("sim-status").textContent = `${m.stopped ? "stopped: " : ""}${r.games} games in ${m.seconds.toFixed(1)} s (${(r.games / m.seconds).toFixed(1)} games/s)`;
    chart(r.json.figures.filter((f) => f.figure === "score" && f.who !== "game" && f.setting !== "b-a"));
  }

  // Mean score per seat (and setting), with the 95% interval of the mean.
  function chart(rows) {
    if (!rows.length) return;
    const W = 520, bar = 22, gap = 8, left = 110;
    const max = Math.max(...rows.map((r) => r.mean + 1.96 * r.sd / Math.sqrt(Math.max(r.n, 1)))) || 1;
    const x = (v) => left + (v / max) * (W - left - 60);
    let s = `<svg viewBox="0 0 ${W} ${rows.length * (bar + gap) + 24}" width="${W}" role="img" aria-label="mean score per seat"><text x="0" y="14" font-size="13" font-weight="bold">mean score (95% interval)</text>`;
    rows.forEach((r, i) => {
      const y = 22 + i * (bar + gap);
      const h = 1.96 * r.sd / Math.sqrt(Math.max(r.n, 1));
      const fill = r.setting === "b" ? "#c0703a" : "#3a7bc0";
      s += `<text x="${left - 6}" y="${y + bar * 0.7}" font-size="12" text-anchor="end">${esc(r.who)}${r.setting === "b" ? " (vs)" : ""}</text>`;
      s += `<rect x="${left}" y="${y}" width="${x(r.mean) - left}" height="${bar}" fill="${fill}"/>`;
      s += `<line x1="${x(r.mean - h)}" x2="${x(r.mean + h)}" y1="${y + bar / 2}" y2="${y + bar / 2}" stroke="#222" stroke-width="2"/>`;
      s += `<text x="${x(r.mean + h) + 4}" y="${y + bar * 0.7}" font-size="12">${r.mean.toFixed(2)}</text>`;
    });
    $("sim-chart").innerHTML = s + "</svg>";
  }
  const esc = (t) => String(t).replace(/[&<>"]/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;" })[c]);
}
