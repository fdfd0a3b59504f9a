// The tuner (`carto tune`) in the Measure tab: which value of a parameter brings a figure nearest a
// target (the seats' balance, a player's win share, a game length, a score gap). carto.wasm runs
// the command line's race on paired seeds in the simulation's Web Worker, a part of a round at a
// time (a progress bar, and Stop between parts); the table is `carto tune`'s for the same budget.
// The players, agents and seed are the Measure form's.
import { esc } from "./measure-view.js";

export const DEFAULT_TUNE_GAMES = 2000;
export const DEFAULT_FIRST_ROUND = 50;

// The parameters that take numbers, each offered with its range.
const values = (p) => {
  const r = /^in (-?\d+)\.\.(-?\d+)$/.exec(p.range ?? "");
  if (r) return `${p.name}=${r[1]}..${r[2]}`;
  const v = Number(p.value);
  return `${p.name}=${Math.max(0, v - 5)}..${v + 5}`;
};

export function setupTune(app, el) {
  el.innerHTML = `
    <h3>Find the value that balances it</h3>
    <p class="doc">Races the values of a parameter on the same seeds: after each round (rounds double in length), a value whose figure is surely further from the target than the best one's leaves the race. The players, agents and seed are those above. (<code>carto tune</code>, docs/tune.md)</p>
    <form id="tune-form" class="sim-row" onsubmit="return false">
      <label>parameter <select id="tune-param"></select></label>
      <label>values <input id="tune-values" placeholder="NAME=A..B" title="NAME=A..B, NAME=A..B:STEP or NAME=V1,V2,…"></label>
      <label>target <select id="tune-target">
        <option value="balance">balance: every seat's win share fair</option>
        <option value="win">a player's win share</option>
        <option value="turns">a mean length in turns</option>
        <option value="gap">a mean score gap (the winner's lead)</option></select></label>
      <label id="tune-seat-row" hidden>player <input id="tune-seat" value="bob"></label>
      <label id="tune-goal-row" hidden>at <input id="tune-goal" type="number" step="any" value="0.5"></label>
      <label>games in all <input id="tune-games" type="number" min="1" value="${DEFAULT_TUNE_GAMES}"></label>
      <label>first round <input id="tune-first" type="number" min="1" value="${DEFAULT_FIRST_ROUND}" title="games per value in the first round"></label>
    </form>
    <button type="button" id="tune-run" class="primary">Find the value</button>
    <button type="button" id="tune-stop" disabled>Stop</button>
    <progress id="tune-progress" class="progress" value="0" max="1"></progress>
    <div id="tune-status" role="status"></div>
    <div id="tune-error" class="error"></div>
    <div id="tune-chart"></div>
    <details id="tune-text"><summary>As <code>carto tune</code> prints it</summary>
      <p><code id="tune-command"></code></p><pre id="tune-table"></pre></details>`;
  const $ = (id) => document.getElementById(id);

  let wanted = null; // a parameter a link named, kept until the rules have it
  function params() {
    const sel = $("tune-param");
    const ints = (app.doc?.params ?? []).filter((p) => p.type === "int");
    if ([...sel.options].map((o) => o.value).join() !== ints.map((p) => p.name).join()) {
      const keep = sel.value;
      sel.replaceChildren(...ints.map((p) => new Option(`${p.name} (now ${p.value})`, p.name)));
      if (ints.some((p) => p.name === keep)) sel.value = keep;
      if (!wanted) $("tune-values").value = ints.length ? values(ints.find((p) => p.name === sel.value) ?? ints[0]) : "";
    }
    if (wanted && ints.some((p) => p.name === wanted)) { sel.value = wanted; wanted = null; }
  }
  $("tune-param").addEventListener("change", () => {
    const p = app.doc.params.find((q) => q.name === $("tune-param").value);
    if (p) $("tune-values").value = values(p);
  });
  $("tune-values").addEventListener("input", () => {
    const name = $("tune-values").value.trim().split("=")[0];
    if ([...$("tune-param").options].some((o) => o.value === name)) $("tune-param").value = name;
  });
  const targetKind = () => $("tune-target").value;
  function showTarget() {
    $("tune-seat-row").hidden = targetKind() !== "win";
    $("tune-goal-row").hidden = targetKind() === "balance";
  }
  $("tune-target").addEventListener("change", () => {
    const k = targetKind();
    $("tune-goal").value = k === "win" ? "0.5" : k === "turns" ? "70" : "5";
    showTarget();
  });
  const target = () => {
    const k = targetKind();
    if (k === "balance") return "balance";
    if (k === "win") return `win:${$("tune-seat").value.trim()}=${$("tune-goal").value}`;
    return `${k}=${$("tune-goal").value}`;
  };
  app.listeners.push(params);

  app.tuneState = () => ({ param: $("tune-param").value, values: $("tune-values").value, target: targetKind(),
    seat: $("tune-seat").value, goal: $("tune-goal").value, games: $("tune-games").value, first: $("tune-first").value });
  app.applyTune = (t) => {
    wanted = t.param;
    $("tune-values").value = t.values;
    $("tune-target").value = t.target;
    $("tune-seat").value = t.seat;
    $("tune-goal").value = t.goal;
    $("tune-games").value = t.games;
    $("tune-first").value = t.first;
    showTarget();
    params();
  };

  let stopping = false;
  $("tune-run").addEventListener("click", () => {
    const w = app.simWorker();
    for (const id of ["tune-error", "tune-table", "tune-command", "tune-status"]) $(id).textContent = "";
    $("tune-chart").replaceChildren();
    app.measureBusy(true);
    $("tune-stop").disabled = false;
    app.tuneReport = null;
    stopping = false;
    const sim = app.simRequest();
    w.onmessage = (e) => {
      const m = e.data;
      if (m.error) { $("tune-error").textContent = m.error; done(); return; }
      if (m.progress !== undefined) {
        $("tune-progress").max = m.budget;
        $("tune-progress").value = m.progress;
        $("tune-status").textContent = `${m.progress} of at most ${m.budget} games, round ${m.rounds + 1}, ${m.alive} value${m.alive === 1 ? "" : "s"} still in the race`;
      }
      if (m.report) {
        if (m.report.error) $("tune-error").textContent = m.report.error;
        else show(m.report, m);
        done();
      }
    };
    w.postMessage({ tune: {
      name: sim.name, text: sim.text, sets: sim.sets, maps: sim.maps, agents: sim.agents, players: sim.players, seed: sim.seed,
      params: $("tune-values").value.trim().split(/\s+/).filter(Boolean),
      target: target(), games: Number($("tune-games").value), first_round: Number($("tune-first").value),
    } });
  });
  $("tune-stop").addEventListener("click", () => { stopping = true; app.simWorker().postMessage({ stop: true }); });

  function done() {
    app.measureBusy(false);
    $("tune-stop").disabled = true;
  }

  function show(r, m) {
    app.tuneReport = r;
    $("tune-table").textContent = r.table;
    $("tune-command").textContent = r.command;
    const used = r.result.candidates.reduce((a, c) => a + c.games, 0);
    $("tune-status").textContent = `${m.stopped || stopping ? "stopped: " : ""}${used} games in ${m.seconds.toFixed(1)} s, ${r.result.rounds} round${r.result.rounds === 1 ? "" : "s"}`;
    $("tune-chart").innerHTML = chart(r.result);
  }

  showTarget();
}

// Every value's figure with its 95% interval, the target and where each value stands.
function chart(res) {
  const t = res.run.target;
  const goal = t.kind === "balance" ? 1 / res.run.players.length : t.kind === "win" ? t.share : t.mean;
  const share = t.kind === "balance" || t.kind === "win";
  const what = t.kind === "balance" ? `${res.run.players[0]}'s win share` : t.kind === "win" ? `${res.run.players[t.seat]}'s win share` : t.kind === "turns" ? "turns" : "the winner's lead";
  const cs = res.candidates;
  const all = cs.flatMap((c) => [c.figure.lo, c.figure.hi]).concat([goal]).filter(Number.isFinite);
  let lo = Math.min(...all), hi = Math.max(...all);
  if (share) { lo = Math.max(0, lo); hi = Math.min(1, hi); }
  const span = hi - lo || 1;
  const x = (v) => Math.max(0, Math.min(100, ((v - lo) / span) * 100));
  const fmt = (v) => (share ? `${(v * 100).toFixed(1)}%` : v.toFixed(2));
  const best = (res.best ?? []).join(" ");
  let h = `<figure class="tune-chart" aria-label="each value's figure with its 95% interval and the target">`
    + `<figcaption>${esc(what)} under each value (the dot, with its 95% interval) against the target ${fmt(goal)} (the dashed line)${best ? `: the best is <b>${esc(best)}</b>` : ""}</figcaption>`;
  for (const c of cs) {
    const name = c.point.join(" ");
    const state = name === best ? "best" : c.out ? `out after round ${c.out.round}` : "still in the race";
    h += `<div class="tune-row ${name === best ? "best" : c.out ? "out" : ""}"><span class="tune-value">${esc(name)}</span>`
      + `<span class="share-track"><span class="share-ci" style="left:${x(c.figure.lo)}%;width:${x(c.figure.hi) - x(c.figure.lo)}%"></span>`
      + `<span class="tune-dot" style="left:${x(c.figure.mean)}%"></span><span class="share-fair" style="left:${x(goal)}%"></span></span>`
      + `<span class="tune-state">${fmt(c.figure.mean)} · ${c.games} games · ${state}</span></div>`;
  }
  h += `<div class="tune-row tune-axis-row"><span></span><span class="tune-axis"><span>${fmt(lo)}</span><span>${fmt(hi)}</span></span><span></span></div>`;
  const open = (res.not_ruled_out ?? []).map((p) => p.join(" "));
  h += `<p class="tune-open">The games cannot rule out: ${open.length ? open.map(esc).join(", ") : "none"} (the values whose 95% interval holds the target).</p>`;
  return h + "</figure>";
}
