// Measure: `carto sim --report` in a Web Worker, with a progress bar and a stop button. Alone, the
// report's figures; compared with the original (`--vs-rules`, or the same rules with other values:
// `--vs`), every figure as "yours minus the original" in a sentence carto.wasm writes (the command
// line's words), the win share drawn with its interval, and the text `carto sim` prints. The whole
// comparison (both rules, parameters, agents, games, seed) lives in the page's link. The tuner
// (`carto tune`) is below it (tune.js).
import { shareChart, figuresHtml } from "./measure-view.js";
import { setupOriginal } from "./original.js";
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
  const original = setupOriginal(app);

  // The comparison as the link carries it, and back.
  app.measureState = () => ({
    ...original.state(), games: $("sim-games").value, seed: $("sim-seed").value,
    agents: $("sim-agents").value, players: $("sim-players").value, tune: app.tuneState?.() ?? null,
    open: !el.hidden, // a link made on this tab opens on it
  });
  app.applyMeasure = (m) => {
    if (!m) return;
    $("sim-games").value = m.games;
    $("sim-seed").value = m.seed;
    $("sim-agents").value = m.agents;
    $("sim-players").value = m.players;
    if (m.tune) app.applyTune?.(m.tune);
    original.apply(m);
  };
  $("sim-share").addEventListener("click", async () => {
    await writeAddress(app);
    try { await navigator.clipboard.writeText(location.href); app.status("link to the comparison copied"); } catch { app.status("the link to the comparison is the address bar's"); }
  });

  app.simRequest = () => ({
    name: app.rulesName(), text: app.text(), sets: app.setsList(), maps: app.maps(),
    vs: app.vsList(), vs_rules: app.vsRules(), vs_text: app.vsRules() ? original.vsText(app.vsRules()) : "",
    games: Number($("sim-games").value), seed: Number($("sim-seed").value),
    agents: list($("sim-agents").value), players: list($("sim-players").value), report: true,
  });
  // One run at a time in the worker (a sim or a race): both Run buttons wait for it.
  app.measureBusy = (busy) => { $("sim-run").disabled = busy; $("tune-run").disabled = busy; };
  app.simWorker = () => (worker ??= new Worker(new URL("worker.js", import.meta.url), { type: "module" }));

  $("sim-run").addEventListener("click", () => {
    const w = app.simWorker();
    for (const id of ["sim-error", "sim-table", "sim-command", "sim-status"]) $(id).textContent = "";
    $("sim-chart").replaceChildren();
    $("sim-words").replaceChildren();
    app.measureBusy(true);
    $("sim-stop").disabled = false;
    app.simReport = null;
    const names = original.labels();
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
    app.measureBusy(false);
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
