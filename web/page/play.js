// Play: a game of the rules in the editor. The person clicks a legal square, turns the tile through
// its legal rotations, places it, picks a follower spot (or none); actions and asked decisions are
// buttons. The other seats are agents. Undo, and the log as `carto play --log` writes it.
// The game lives in a Web Worker of its own (play-worker.js): the agents' turns, the search agent's
// seconds of thought included, never block the page.
const NS = "http://www.w3.org/2000/svg";
const AGENTS = ["random", "greedy", "mcts:50", "mcts"];

export function setupPlay(app, el) {
  el.innerHTML = `
    <div class="play-setup">
      <label>You <input id="play-you" value="ann" size="8"></label>
      <span id="play-others"></span>
      <button type="button" id="play-add">+ player</button>
      <label>seed <input id="play-seed" type="number" min="0" value="1" style="width:6em"></label>
      <button type="button" id="play-new" class="primary">New game</button>
    </div>
    <p id="play-status" role="status"></p>
    <div class="play-controls">
      <span id="play-hand"></span>
      <button type="button" id="play-rotate" hidden>Turn tile ↻</button>
      <button type="button" id="play-place" class="primary" hidden>Place here</button>
      <span id="play-options"></span>
      <button type="button" id="play-undo" disabled>Undo</button>
      <button type="button" id="play-log" disabled>Download log</button>
      <label class="zoom">zoom <select id="play-zoom"><option value="1">fit</option><option value="2">2×</option><option value="3">3×</option></select></label>
    </div>
    <div id="play-error" class="error"></div>
    <div id="board"></div>
    <p id="play-scores"></p>`;
  const $ = (id) => document.getElementById(id);
  const others = $("play-others");
  const addOpponent = (name, agent) => {
    const span = document.createElement("span");
    span.className = "opponent";
    span.innerHTML = `<input size="6"> <select>${AGENTS.map((a) => `<option>${a}</option>`).join("")}</select> `;
    span.querySelector("input").value = name;
    span.querySelector("select").value = agent;
    others.append(span);
  };
  addOpponent("bob", "random");
  $("play-add").addEventListener("click", () => addOpponent(["cyd", "dee", "eve", "fay"][others.children.length - 1] || "p", "random"));

  // Requests to the game's worker, answered in order.
  const worker = new Worker(new URL("play-worker.js", import.meta.url), { type: "module" });
  const waiting = new Map();
  let nextId = 0;
  worker.onmessage = (e) => { const w = waiting.get(e.data.id); waiting.delete(e.data.id); w(e.data.answer); };
  worker.onerror = (e) => { $("play-error").textContent = "the game's worker failed: " + (e.message || e); };
  const playCall = (request) => new Promise((ok) => { const id = nextId++; waiting.set(id, ok); worker.postMessage({ id, request }); });
  app.playCall = playCall;
  let busy = false;

  let view = null;
  let picked = null; // the square picked: {x, y, options: [place options by rotation]}
  let rotIndex = 0;

  function start() {
    const players = [$("play-you").value.trim() || "ann"];
    const agents = ["person"];
    for (const s of others.children) {
      players.push(s.querySelector("input").value.trim());
      agents.push(s.querySelector("select").value);
    }
    act({
      fn: "play_new", name: app.rulesName(), text: app.text(), sets: app.setsList(), maps: app.maps(),
      seed: Number($("play-seed").value) || 0, players, agents,
    }, agents.length > 1 ? "starting; the agents before you decide…" : "starting…");
  }

  // A request to the game; while the worker works (the agents' turns), the controls wait and the
  // page says who is deciding.
  async function act(request, saying) {
    if (busy) return;
    busy = true;
    app.playBusy = true;
    el.classList.add("busy");
    for (const b of el.querySelectorAll(".play-controls button")) b.disabled = true;
    $("play-status").textContent = saying ?? (view && !view.over ? "the other players decide…" : "…");
    try {
      show(await playCall(request));
    } finally {
      busy = false;
      app.playBusy = false;
      el.classList.remove("busy");
      if (view) {
        $("play-undo").disabled = !view.can_undo;
        $("play-log").disabled = false;
        $("play-rotate").disabled = false;
        $("play-place").disabled = false;
      }
    }
  }

  function show(v) {
    $("play-error").textContent = v.error && !v.board_svg ? v.error : v.error || "";
    if (!v.board_svg) return;
    view = v;
    app.playView = v;
    app.playShown = (app.playShown || 0) + 1; // counts the views shown (the tests wait on it)
    picked = null;
    $("board").innerHTML = v.board_svg;
    zoom();
    $("play-undo").disabled = !v.can_undo;
    $("play-log").disabled = false;
    $("play-scores").textContent = v.players.map((p) => `${p.name} (${p.agent}) ${p.score}`).join(" · ");
    $("play-status").textContent = v.over
      ? `Game over. ${v.players.map((p) => `${p.name} ${p.score}`).join(", ")}`
      : v.error ? "The game stopped." : v.yours ? `Turn ${v.turn}, ${v.tiles_left} tiles left — ${v.pending || "your decision"}` : `${v.decider} decides`;
    drawOptions();
  }

  function svgEl(tag, attrs) {
    const e = document.createElementNS(NS, tag);
    for (const [k, val] of Object.entries(attrs)) e.setAttribute(k, val);
    return e;
  }

  function drawOptions() {
    const svg = $("board").querySelector("svg");
    const layer = svgEl("g", { id: "play-layer" });
    svg.append(layer);
    // Legal squares, one mark per square (its rotations are chosen with "Turn tile").
    const bySquare = new Map();
    for (const p of view.places) {
      const k = `${p.x},${p.y}`;
      if (!bySquare.has(k)) bySquare.set(k, []);
      bySquare.get(k).push(p);
    }
    for (const [k, opts] of bySquare) {
      const p = opts[0];
      const r = svgEl("rect", {
        x: p.px + 2, y: p.py + 2, width: p.side - 4, height: p.side - 4, rx: 4,
        fill: "#ffd84d", "fill-opacity": 0.35, stroke: "#c08a00", "stroke-width": 2.5,
        class: "legal-square", "data-square": k, style: "cursor:pointer",
      });
      const title = svgEl("title", {});
      title.textContent = `place the tile at ${k} (${opts.length} rotation${opts.length > 1 ? "s" : ""})`;
      r.append(title);
      r.addEventListener("click", () => pick(opts));
      layer.append(r);
    }
    // Follower spots on the tile just placed.
    for (const f of view.followers) {
      const c = svgEl("circle", {
        cx: f.x, cy: f.y, r: 8, fill: "#fff", "fill-opacity": 0.85, stroke: "#1b5fbf", "stroke-width": 3,
        class: "follower-spot", "data-option": f.i, style: "cursor:pointer",
      });
      const title = svgEl("title", {});
      title.textContent = f.name;
      c.append(title);
      c.addEventListener("click", () => act({ fn: "play_choose", i: f.i }));
      layer.append(c);
    }
    // Everything else as named buttons (draw, pass = no follower or no action, actions, asks).
    const box = $("play-options");
    box.replaceChildren();
    for (const o of view.others) {
      const b = document.createElement("button");
      b.type = "button";
      b.className = "opt";
      b.dataset.option = o.i;
      b.textContent = o.name === "pass" && view.followers.length ? "no follower" : o.name;
      b.addEventListener("click", () => act({ fn: "play_choose", i: o.i }));
      box.append(b);
    }
    $("play-hand").innerHTML = view.tile && view.yours && view.places.length
      ? `<svg viewBox="0 0 56 56" width="56" height="56" aria-label="tile in hand ${view.tile.id}">${view.tile.rotations[0]}</svg>` : "";
    $("play-rotate").hidden = true;
    $("play-place").hidden = true;
  }

  function pick(opts) {
    picked = opts;
    rotIndex = 0;
    preview();
  }

  function preview() {
    const layer = document.getElementById("play-layer");
    document.getElementById("play-preview")?.remove();
    const p = picked[rotIndex];
    const g = svgEl("g", { id: "play-preview", transform: `translate(${p.px} ${p.py})`, opacity: 0.9, "pointer-events": "none" });
    g.innerHTML = view.tile.rotations[p.rot];
    g.append(svgEl("rect", { x: 0, y: 0, width: p.side, height: p.side, fill: "none", stroke: "#c08a00", "stroke-width": 4 }));
    layer.append(g);
    $("play-hand").innerHTML = `<svg viewBox="0 0 56 56" width="56" height="56">${view.tile.rotations[p.rot]}</svg>`;
    $("play-rotate").hidden = picked.length < 2;
    $("play-place").hidden = false;
    $("play-place").title = p.name;
  }

  // The board fits the column; on a small screen, zoom in (the board scrolls) to click a square.
  function zoom() {
    const svg = $("board").querySelector("svg");
    const z = Number($("play-zoom").value);
    if (svg) { svg.style.width = z > 1 ? `${z * 100}%` : ""; svg.style.maxWidth = z > 1 ? "none" : ""; }
  }
  $("play-zoom").addEventListener("change", zoom);
  $("play-rotate").addEventListener("click", () => { rotIndex = (rotIndex + 1) % picked.length; preview(); });
  $("play-place").addEventListener("click", () => { if (picked) act({ fn: "play_choose", i: picked[rotIndex].i }); });
  $("play-new").addEventListener("click", start);
  $("play-undo").addEventListener("click", () => act({ fn: "play_undo" }, "taking back your last move…"));
  $("play-log").addEventListener("click", async () => {
    const r = await playCall({ fn: "play_log" });
    if (r.error) { $("play-error").textContent = r.error; return; }
    const a = document.createElement("a");
    a.href = URL.createObjectURL(new Blob([r.log], { type: "application/jsonl" }));
    a.download = r.file;
    document.body.append(a);
    a.click();
    a.remove();
    setTimeout(() => URL.revokeObjectURL(a.href), 1000);
  });
}
