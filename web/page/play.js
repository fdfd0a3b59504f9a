// Play: a game of the rules in the editor, for 2 to 6 seats, each a person at this device or an
// agent. A person clicks a legal square, turns the tile through its legal rotations, places it,
// picks a follower target on a close-up of the tile (the feature it joins lit), or none; actions
// are buttons in the rules' words with the points they give. Between two people's turns a
// hand-over screen hides the board. Undo; the move log in words with each score's rule; at the
// end the points by rule and the replay. The log is the one `carto play --log` writes.
// The game lives in a Web Worker of its own (play-worker.js): the agents' turns, the search
// agent's seconds of thought included, never block the page.
import { boardView } from "./board.js";
import { storyHtml, breakdownHtml, ruleHeading, placeWords } from "./story.js";

const NS = "http://www.w3.org/2000/svg";
const SEATS = [["person", "a person here"], ["greedy", "computer (greedy)"], ["random", "computer (random)"], ["mcts:50", "computer (search, quick)"], ["mcts", "computer (search)"]];
const NAMES = ["ann", "bob", "cyd", "dee", "eve", "fay"];
const MAX_SEATS = 6;

export function setupPlay(app, el) {
  el.innerHTML = `
    <details class="play-setup-box" open><summary id="play-setup-summary">Players and seed</summary>
    <div class="play-setup">
      <span class="seat"><input id="play-you" value="ann" size="6" aria-label="seat 1's name"> <select id="play-you-agent" aria-label="who plays seat 1">${seatOptions()}</select></span>
      <span id="play-others"></span>
      <button type="button" id="play-add">+ player</button>
      <button type="button" id="play-remove">− player</button>
      <label>seed <input id="play-seed" type="number" min="0" value="1" style="width:5em"></label>
      <button type="button" id="play-new" class="primary">New game</button>
    </div></details>
    <p id="play-status" role="status"></p>
    <div id="play-way-on" hidden>
      <button type="button" id="play-take-back">Take back your last move</button>
      <button type="button" id="play-again" class="primary">New game</button>
      <button type="button" id="play-edit">Look at the rules</button>
    </div>
    <div id="play-error" class="error"></div>
    <div class="play-main">
      <div class="board-wrap">
        <div id="board" aria-label="the board: drag to move, wheel or two fingers to zoom, keys + − 0 and arrows"></div>
        <div class="zoom-buttons"><button type="button" id="zoom-in" aria-label="zoom in">+</button><button type="button" id="zoom-out" aria-label="zoom out">−</button><button type="button" id="zoom-fit">fit</button></div>
        <div id="play-why-box" role="dialog" aria-label="why these points" hidden></div>
        <div id="play-cover" hidden><p id="play-cover-text"></p><button type="button" id="play-cover-go" class="primary"></button></div>
      </div>
      <div class="play-side">
        <div class="play-controls">
          <span id="play-hand"></span>
          <span class="place-buttons"><button type="button" id="play-rotate" hidden>Turn tile ↻</button>
          <button type="button" id="play-place" class="primary" hidden>Place here</button></span>
          <div id="play-closeup" hidden></div>
          <span id="play-options"></span>
          <span class="undo-log"><button type="button" id="play-undo" disabled>Undo</button>
          <button type="button" id="play-log" disabled>Download log</button></span>
        </div>
        <p id="play-scores"></p>
        <p id="play-points-say" hidden></p>
        <p id="play-log-note" hidden>The log and the replay come when the game is over: they show every chip's face, face-down ones too.</p>
        <p id="play-state" hidden></p>
        <details id="play-to-come-box"><summary id="play-to-come-head">Tiles still to come</summary><div id="play-to-come"></div></details>
        <h3 class="story-head">What happened</h3>
        <div id="play-story"></div>
      </div>
    </div>
    <div id="play-end" hidden></div>`;
  const $ = (id) => document.getElementById(id);
  const others = $("play-others");
  function seatOptions() { return SEATS.map(([v, t]) => `<option value="${v}">${t}</option>`).join(""); }
  const addSeat = (name, agent) => {
    const span = document.createElement("span");
    span.className = "opponent seat";
    span.innerHTML = `<input size="6" aria-label="a seat's name"> <select aria-label="who plays this seat">${seatOptions()}</select> `;
    span.querySelector("input").value = name;
    span.querySelector("select").value = agent;
    others.append(span);
  };
  const seats = (list) => {
    $("play-you").value = list[0][0];
    $("play-you-agent").value = list[0][1];
    others.replaceChildren();
    for (const [n, a] of list.slice(1)) addSeat(n, a);
  };
  seats([["ann", "person"], ["bob", "random"]]);
  $("play-add").addEventListener("click", () => { if (others.children.length + 1 < MAX_SEATS) addSeat(NAMES[others.children.length + 1] || "p", "greedy"); });
  $("play-remove").addEventListener("click", () => { if (others.children.length > 1) others.lastElementChild.remove(); });
  // The first screen's doors: against the computer, or people only.
  app.playWith = (kind) => {
    seats(kind === "friends" ? [["ann", "person"], ["bob", "person"]] : [["you", "person"], ["bob", "greedy"]]);
    start();
  };

  // Requests to the game's worker, answered in order.
  const worker = new Worker(new URL("play-worker.js", import.meta.url), { type: "module" });
  const waiting = new Map();
  let nextId = 0;
  worker.onmessage = (e) => { const w = waiting.get(e.data.id); waiting.delete(e.data.id); w(e.data.answer); };
  worker.onerror = (e) => { $("play-error").textContent = "the game's worker failed: " + (e.message || e); };
  const playCall = (request) => new Promise((ok) => { const id = nextId++; waiting.set(id, ok); worker.postMessage({ id, request }); });
  app.playCall = playCall;
  let busy = false;

  const board = boardView($("board"));
  // On a phone the controls are a bar fixed at the bottom of the screen: the tab keeps room for it.
  new ResizeObserver(() => {
    const bar = el.querySelector(".play-controls");
    el.style.paddingBottom = getComputedStyle(bar).position === "fixed" ? `${bar.offsetHeight + 8}px` : "";
  }).observe(el.querySelector(".play-controls"));
  let view = null;
  let rules = null; // the rules' page items by name (headings, sentences, lines)
  let picked = null; // the square picked: its place options by rotation
  let rotIndex = 0;
  let shownTo = null; // the person the board was last shown to (hand-over between people)

  // A new game's first view: where the squares to play are too small to tap at the whole
  // picture's size, the board shows the squares the tile may go on (and two squares round them).
  let fresh = false;
  const TAP_PX = 30;
  function closeIn(v) {
    fresh = false;
    if (!v.places.length) return;
    const side = v.places[0].side;
    if (side * board.scale() >= TAP_PX) return;
    const xs = v.places.map((p) => p.px);
    const ys = v.places.map((p) => p.py);
    const x0 = Math.min(...xs) - 2 * side;
    const y0 = Math.min(...ys) - 2 * side;
    board.frame(x0, y0, Math.max(...xs) + 3 * side - x0, Math.max(...ys) + 3 * side - y0);
  }

  function start() {
    const players = [$("play-you").value.trim() || "ann"];
    const agents = [$("play-you-agent").value];
    for (const s of others.children) {
      players.push(s.querySelector("input").value.trim());
      agents.push(s.querySelector("select").value);
    }
    rules = null;
    shownTo = null;
    fresh = true;
    $("play-setup-summary").textContent = `Players: ${players.map((p, k) => `${p} (${agents[k] === "person" ? "person" : agents[k]})`).join(", ")} · seed ${Number($("play-seed").value) || 0}`;
    // On a phone the setup folds away once the game starts (its summary says who plays).
    if (window.matchMedia("(max-width: 900px)").matches) el.querySelector(".play-setup-box").open = false;
    app.playPeople = agents.filter((a) => a === "person").length;
    act({
      fn: "play_new", name: app.rulesName(), text: app.text(), sets: app.setsList(), maps: app.maps(),
      seed: Number($("play-seed").value) || 0, players, agents,
    }, agents[0] !== "person" ? "starting; the computer players before you decide…" : "starting…");
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
      const v = await playCall(request);
      if (v.board_svg && !rules) rules = await playCall({ fn: "play_rules" });
      show(v);
    } finally {
      busy = false;
      app.playBusy = false;
      el.classList.remove("busy");
      if (view) {
        $("play-undo").disabled = !view.can_undo;
        logOffered(view);
        $("play-rotate").disabled = false;
        $("play-place").disabled = false;
      }
    }
  }

  function show(v) {
    $("play-error").textContent = v.error || v.move_failed || "";
    if (!v.board_svg) {
      // Nothing to show (the rules do not load, a refusal): say so, and the way on.
      $("play-status").textContent = view ? "That did not work: the game is as it was." : "The game could not start.";
      wayOn(true, view && view.can_undo);
      return;
    }
    view = v;
    app.playView = v;
    app.playShown = (app.playShown || 0) + 1; // counts the views shown (the tests wait on it)
    picked = null;
    board.set(v.board_svg);
    if (fresh) closeIn(v);
    liveTitle(v);
    $("play-undo").disabled = !v.can_undo;
    logOffered(v);
    $("play-scores").textContent = v.players.map((p) => `${p.name} (${p.agent}) ${p.score}`).join(" · ");
    $("play-status").textContent = v.over
      ? `Game over. ${v.players.map((p) => `${p.name} ${p.score}`).join(", ")}`
      : v.error ? `The game stopped on turn ${v.turn}: a rule failed when ${v.decider} moved (below). Take back your last move, or start a new game.`
        : v.move_failed ? `Turn ${v.turn}: your move made a rule fail (below), so it was taken back. Choose another move.`
          : v.yours ? `Turn ${v.turn}, ${v.tiles_left} tiles left — ${decision(v)}` : `${v.decider} decides`;
    wayOn(Boolean(v.error), v.can_undo);
    drawOptions();
    explainPoints();
    toCome(v);
    rulesState(v);
    $("play-story").innerHTML = storyHtml(v.events || [], rules);
    end(v);
    handOver(v);
  }

  // The log (and the replay) only once the page's seat sees everything: the game over, or no
  // person playing; until then the page says why.
  function logOffered(v) {
    $("play-log").disabled = !v.all_seen;
    $("play-log").title = v.all_seen ? "the game's log, for carto replay" : "given when the game is over";
    $("play-log-note").hidden = Boolean(v.all_seen);
  }

  // The points floated over the board (the last turn's, at what scored them): each says who got
  // how many and from which rule, on the board itself: its tooltip, and on a tap or Enter a box
  // over the board with the rule's heading, its file and line, and its sentence. Under the scores,
  // the same points in a line ("bob +4 for Road, ann +9 for City").
  function explainPoints() {
    const pills = [...(board.svg()?.querySelectorAll("g.points[data-rule]") || [])];
    const say = $("play-points-say");
    $("play-why-box").hidden = true;
    say.hidden = !pills.length;
    if (!pills.length) return;
    const words = pills.map((g) => {
      const [who, n, rule] = [g.dataset.player, Number(g.dataset.points), g.dataset.rule];
      const r = rules?.[rule];
      const heading = ruleHeading(rules, rule);
      const signed = `${n < 0 ? "−" : "+"}${Math.abs(n)}`;
      const where = r ? ` (${r.file}:${r.line})` : "";
      g.querySelector("title").textContent = `${who} ${signed} for ${heading}${where}${r ? `: ${r.sentence}` : ""}`;
      g.setAttribute("tabindex", "0");
      g.setAttribute("role", "button");
      g.setAttribute("aria-label", `${who} ${signed} for ${heading}: why?`);
      g.style.cursor = "pointer";
      g.parentNode.append(g); // above the legal squares' marks, so a tap reaches it
      const open = (e) => { e.stopPropagation(); e.preventDefault(); whyBox(g, { who, signed, heading, r }); };
      g.addEventListener("click", open);
      g.addEventListener("keydown", (e) => { if (e.key === "Enter" || e.key === " ") open(e); });
      return `${who} ${signed} for ${heading}`;
    });
    say.textContent = `On the board: ${words.join(", ")} (tap a score for its rule)`;
  }

  function whyBox(g, { who, signed, heading, r }) {
    const box = $("play-why-box");
    const esc = (t) => String(t).replace(/[&<>"]/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;" })[c]);
    box.innerHTML = `<button type="button" class="why-close" aria-label="close">×</button>
      <p><b>${esc(who)} ${esc(signed)}</b> for <b>${esc(heading)}</b>${r ? ` <span class="where">${esc(r.file)}:${r.line}</span>` : ""}</p>
      ${r ? `<p class="why-sentence">${esc(r.sentence)}</p>` : ""}`;
    box.dataset.rule = g.dataset.rule;
    box.hidden = false;
    // Beside the score, inside the board's box.
    const wrap = box.parentNode.getBoundingClientRect();
    const at = g.getBoundingClientRect();
    const w = Math.min(320, wrap.width - 16);
    box.style.width = `${w}px`;
    box.style.left = `${Math.max(8, Math.min(wrap.width - w - 8, at.left - wrap.left + at.width / 2 - w / 2))}px`;
    const below = at.bottom - wrap.top + 6;
    box.style.top = `${below + box.offsetHeight > wrap.height ? Math.max(8, at.top - wrap.top - box.offsetHeight - 6) : below}px`;
    const close = box.querySelector(".why-close");
    close.addEventListener("click", () => { box.hidden = true; g.focus(); });
    close.focus();
  }
  // Escape, or a tap elsewhere on the board, closes the box.
  $("play-why-box").addEventListener("keydown", (e) => { if (e.key === "Escape") $("play-why-box").hidden = true; });
  $("board").addEventListener("click", () => { $("play-why-box").hidden = true; });

  // The decision waiting, with whose it is ("ann: placing the tile"; the turn is said before it).
  const decision = (v) => (v.pending
    ? v.pending.replace(/^turn \d+, /, "").replace(/the actions of phase \w+$/, "you may take an action, or end your turn")
    : `${v.decider}: your decision`);

  // Between two people's turns the board is hidden until the next one says they are there.
  function handOver(v) {
    const cover = $("play-cover");
    const needed = app.playPeople > 1 && v.yours && !v.over && !v.error && shownTo !== v.decider;
    cover.hidden = !needed;
    el.classList.toggle("covered", needed);
    if (!needed) { if (v.yours) shownTo = v.decider; return; }
    $("play-cover-text").textContent = shownTo === null ? `${v.decider} begins. Pass the device to ${v.decider}.` : `${shownTo} is done. Pass the device to ${v.decider}.`;
    $("play-cover-go").textContent = `I am ${v.decider}: show my turn`;
  }
  $("play-cover-go").addEventListener("click", () => {
    shownTo = view.decider;
    $("play-cover").hidden = true;
    el.classList.remove("covered");
  });

  // After a failure that stops the game: take back the last move (when there is one), a new
  // game, or the rules.
  function wayOn(shown, canUndo) {
    $("play-way-on").hidden = !shown;
    $("play-take-back").hidden = !canUndo;
  }

  // The board's title says the turn being played, as the status line does (the picture's own
  // title counts the turns that have events, as a replay does).
  function liveTitle(v) {
    const t = $("board").querySelector("svg text[font-weight=bold]");
    if (!t || !t.textContent.includes(" · seed ")) return;
    const head = t.textContent.slice(0, t.textContent.lastIndexOf(" · "));
    t.textContent = `${head} · ${v.over ? "game over" : `turn ${v.turn}`}`;
  }

  function svgEl(tag, attrs) {
    const e = document.createElementNS(NS, tag);
    for (const [k, val] of Object.entries(attrs)) e.setAttribute(k, val);
    return e;
  }

  function drawOptions() {
    const svg = board.svg();
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
      title.textContent = `place the tile at ${k}${p.square ? `, on ${p.square}` : ""} (${opts.length} rotation${opts.length > 1 ? "s" : ""})`;
      r.append(title);
      r.addEventListener("click", () => pick(opts));
      layer.append(r);
    }
    closeUp();
    // Everything else as buttons in the rules' words, with the points they give.
    const box = $("play-options");
    box.replaceChildren();
    for (const o of view.others) {
      const b = document.createElement("button");
      b.type = "button";
      b.className = "opt";
      b.dataset.option = o.i;
      b.dataset.name = o.name; // the option's name as carto names it (the log's, a script's)
      const w = optionWords(o);
      b.textContent = w.text;
      if (w.title) b.title = w.title;
      b.addEventListener("click", () => act({ fn: "play_choose", i: o.i }));
      box.append(b);
    }
    $("play-hand").innerHTML = view.tile && view.yours && view.places.length
      ? `<svg viewBox="0 0 56 56" width="72" height="72" aria-label="tile in hand ${view.tile.id}">${view.tile.rotations[0]}</svg><span class="hand-say">Your tile: tap a yellow square</span>` : "";
    $("play-rotate").hidden = true;
    $("play-place").hidden = true;
  }

  // An option in the player's words, derived from the rules' page of its action (nothing here
  // knows a variant): the action's heading; where the sentence speaks of the square of the turn's
  // tile and the map names it, "in Lyon" (a last word of the heading that the sentence says the
  // square is, "Sell town" when "the square … is a town", gives way to the name); then what is
  // chosen, each under the name the rules give it ("wine: an orange chip worth 2"); then the points
  // it gives at once, when the player can know them: "Sell in Lyon — wine: an orange chip worth 2:
  // 9 points". The rule's sentence is its title.
  function optionWords(o) {
    if (o.name === "pass") return { text: view.followers.length ? "No follower" : view.places.length ? "Pass" : "Done: end my turn" };
    if (o.name === "draw") return { text: "Draw a tile" };
    const [name, ...args] = o.name.split(" ");
    const r = rules?.[name];
    const sentence = r?.sentence || "";
    let heading = r ? r.heading : ruleHeading(null, name);
    let where = "";
    if (view.square && /square of the tile placed this turn|turn's tile/.test(sentence)) {
      where = ` in ${view.square}`;
      const words = heading.split(" ");
      const last = words[words.length - 1].toLowerCase();
      if (words.length > 1 && new RegExp(`\\bis an? ${last}\\b`).test(sentence)) heading = words.slice(0, -1).join(" ");
    }
    const vars = chosenNames(sentence);
    const what = args.map((a, k) => {
      const v = vars[k] && vars[k].length > 1 ? `${vars[k].replace(/_/g, " ")}: ` : "";
      return v + argWords(a);
    });
    const points = typeof o.points === "number" && o.points !== 0 ? `: ${pointsWords(o.points)}` : "";
    return { text: `${heading}${where}${what.length ? ` — ${what.join("; ")}` : ""}${points}`, title: r ? r.sentence : o.name };
  }

  // "9 points", "1 point", "−2 points".
  const pointsWords = (n) => `${n < 0 ? "−" : ""}${Math.abs(n)} point${Math.abs(n) === 1 ? "" : "s"}`;

  // The names an action's sentence gives what is chosen, in order ("you may choose wine, 1 to 2
  // chips …; and at_square, a square …").
  function chosenNames(sentence) {
    const out = [];
    for (const m of sentence.matchAll(/(?:\bchoose|; and) ([A-Za-z_][A-Za-z0-9_]*), /g)) out.push(m[1]);
    return out;
  }

  // What an action is done with, in words: chips (`blue2+blue1.up@map:3,4`) by colour and value,
  // counted ("two blue chips worth 1"), with their face and place when the name says them; a
  // face-down chip named by its place alone (`down@supply`); squares by their coordinates; a
  // follower (`ann.9`) as its owner's; other values as named.
  function argWords(token) {
    if (/^-?\d+,-?\d+$/.test(token)) return squareWords(token);
    const follower = /^([^.@+]+)\.(\d+)$/.exec(token);
    if (follower) return `${follower[1]}'s follower ${follower[2]}`;
    const groups = [];
    for (const part of token.split("+")) {
      const m = /^([a-z_]+?)(\d+)(?:\.(up|down))?(?:@(.+))?$/.exec(part);
      const down = /^down@(.+)$/.exec(part);
      let key;
      let one;
      if (m) {
        key = part;
        one = [`${m[1].replace(/_/g, " ")} chip`, ` worth ${m[2]}${m[3] ? `, face ${m[3]}` : ""}${m[4] ? `, from ${placeWords(m[4])}` : ""}`];
      } else if (down) {
        key = part;
        one = ["face-down chip", ` from ${placeWords(down[1])}`];
      } else {
        // A thing at a square (`stack@1,11:TB-D`: a tile stack, its top tile named after the colon).
        const at = /^([a-z_]+)@(-?\d+,-?\d+)(?::(.+))?$/.exec(part);
        key = part;
        one = at ? [at[1].replace(/_/g, " "), ` on ${squareWords(at[2])}${at[3] ? ` (top tile ${at[3]})` : ""}`] : [part.replace(/_/g, " "), ""];
      }
      const g = groups.find((x) => x.key === key);
      if (g) g.n++;
      else groups.push({ key, n: 1, one });
    }
    const said = groups.map(({ n, one: [noun, rest] }) => `${countWords(n, noun)}${rest}`);
    return said.length > 1 ? `${said.slice(0, -1).join(", ")} and ${said[said.length - 1]}` : said[0];
  }

  // A square by the name the map gives it, else by its coordinates: "Lyon (14,12)", "the square 3,4".
  const squareWords = (xy) => (view.square_names?.[xy] ? `${view.square_names[xy]} (${xy})` : `the square ${xy}`);

  // "an orange chip", "two blue chips", "5 chips".
  function countWords(n, noun) {
    if (n === 1) return `${/^[aeiou]/.test(noun) ? "an" : "a"} ${noun}`;
    const word = ["", "", "two", "three", "four", "five", "six"][n] || String(n);
    return `${word} ${noun}s`;
  }

  // The placed tile drawn large, one big target per follower option (never overlapping); the
  // part of the tile each target joins is lit, on the close-up and on the board.
  function closeUp() {
    const box = $("play-closeup");
    box.replaceChildren();
    box.hidden = !view.followers.length || !view.placed;
    if (box.hidden) return;
    const p = view.placed;
    const spots = view.followers;
    let r = 10;
    for (const a of spots) for (const b of spots) if (a !== b) r = Math.min(r, Math.hypot(a.tx - b.tx, a.ty - b.ty) / 2 - 0.5);
    r = Math.max(5, r);
    const svg = svgEl("svg", { viewBox: "-4 -4 64 64", class: "closeup", role: "group", "aria-label": `the tile just placed at ${p.x},${p.y}: where a follower goes` });
    svg.innerHTML = `<g class="tile">${p.svg}</g>`;
    // A target lights its part of the close-up and, on the board, every part of the feature it
    // joins (the tiles' drawn segments); the other parts of those tiles are dimmed.
    const light = (f, on) => {
      svg.classList.toggle("lit-some", on);
      for (const e of svg.querySelectorAll(`[data-seg="${f.seg}"]`)) e.classList.toggle("lit", on);
      const pic = board.svg();
      for (const [x, y, seg] of f.joins || [[p.x, p.y, f.seg]]) {
        const tile = pic?.querySelector(`g[data-at="${x},${y}"]`);
        if (!tile) continue;
        tile.classList.toggle("lit-some", on);
        for (const e of tile.querySelectorAll(`[data-seg="${seg}"]`)) e.classList.toggle("lit", on);
      }
    };
    for (const f of spots) {
      const c = svgEl("circle", {
        cx: f.tx, cy: f.ty, r, fill: "#fff", "fill-opacity": 0.8, stroke: "#1b5fbf", "stroke-width": 2.2,
        class: "follower-spot", "data-option": f.i, tabindex: 0, role: "button",
        "aria-label": `a follower: ${f.name}`, style: "cursor:pointer",
      });
      const title = svgEl("title", {});
      title.textContent = f.name;
      c.append(title);
      c.addEventListener("pointerenter", () => light(f, true));
      c.addEventListener("pointerleave", () => light(f, false));
      c.addEventListener("focus", () => light(f, true));
      c.addEventListener("blur", () => light(f, false));
      c.addEventListener("click", () => act({ fn: "play_choose", i: f.i }));
      c.addEventListener("keydown", (e) => { if (e.key === "Enter" || e.key === " ") act({ fn: "play_choose", i: f.i }); });
      svg.append(c);
    }
    const say = document.createElement("p");
    say.className = "closeup-say";
    say.textContent = "A follower? Tap a circle (the part it joins lights up), or “No follower”.";
    box.append(say, svg);
    // The tile just placed stays in view.
    const place = view.followers[0];
    board.show(place.x, place.y, 60);
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
    $("play-hand").innerHTML = `<svg viewBox="0 0 56 56" width="72" height="72" aria-label="tile in hand ${view.tile.id}">${view.tile.rotations[p.rot]}</svg>`;
    $("play-rotate").hidden = picked.length < 2;
    $("play-place").hidden = false;
    $("play-place").title = p.name;
    board.show(p.px + p.side / 2, p.py + p.side / 2, p.side);
  }

  // The values the rules keep (`state` declarations), when the game's view has them: one
  // "name: value" each, a per-player value as "name: ann 1, bob 2".
  function rulesState(v) {
    const st = v.state ?? v.counters;
    const box = $("play-state");
    box.hidden = !st || typeof st !== "object" || !Object.keys(st).length;
    if (box.hidden) return;
    const said = (x) => (x && typeof x === "object" ? Object.entries(x).map(([k, y]) => `${k} ${said(y)}`).join(", ") : String(x));
    box.textContent = Object.entries(st).map(([k, x]) => `${k}: ${said(x)}`).join(" · ");
  }

  // The tiles still to come, by kind, most first.
  function toCome(v) {
    const list = v.to_come || [];
    const n = list.reduce((a, t) => a + t.n, 0);
    $("play-to-come-head").textContent = `Tiles still to come: ${n} of ${list.length} kind${list.length === 1 ? "" : "s"}`;
    $("play-to-come").innerHTML = list.map((t) => `<span class="kind" title="tile ${t.id}"><svg viewBox="0 0 56 56" width="34" height="34">${t.svg}</svg>×${t.n}</span>`).join("");
  }

  // At the end: the points by rule, and the replay of the whole game.
  function end(v) {
    const box = $("play-end");
    box.hidden = !v.over;
    if (!v.over) { box.replaceChildren(); return; }
    box.innerHTML = `<h3>Why these points</h3>${breakdownHtml(v.events || [], rules, v.players)}
      <p><button type="button" id="play-replay" class="primary">Watch the replay</button></p><div id="play-replay-box"></div>`;
    $("play-replay").addEventListener("click", async () => {
      const r = await playCall({ fn: "play_replay" });
      const frame = document.createElement("iframe");
      frame.id = "play-replay-frame";
      frame.title = "the replay of the game";
      frame.setAttribute("sandbox", "allow-scripts");
      frame.srcdoc = r.html;
      $("play-replay-box").replaceChildren(frame);
      frame.scrollIntoView({ block: "nearest" });
    });
  }

  $("zoom-in").addEventListener("click", () => board.zoomAt(1.5));
  $("zoom-out").addEventListener("click", () => board.zoomAt(1 / 1.5));
  $("zoom-fit").addEventListener("click", () => board.fit());
  $("play-rotate").addEventListener("click", () => { rotIndex = (rotIndex + 1) % picked.length; preview(); });
  $("play-place").addEventListener("click", () => { if (picked) act({ fn: "play_choose", i: picked[rotIndex].i }); });
  $("play-new").addEventListener("click", start);
  $("play-again").addEventListener("click", start);
  $("play-take-back").addEventListener("click", () => act({ fn: "play_undo" }, "taking back your last move…"));
  $("play-edit").addEventListener("click", () => app.showTab("read"));
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
