// The game's story from its log's events: the moves in words, turn by turn (newest first), each
// score with the rule that gave it (its name, its sentence, its line in the rules); at the end,
// the points by rule for each player. Nothing here knows a variant: the words come from the
// events and from the rules' page (heading, sentence, file and line of each rule).
const esc = (s) => String(s ?? "").replace(/[&<>"]/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;" })[c]);

// A place of the log in words (see the log's contract: map:X,Y, hand:NAME, supply, box, …).
export function placeWords(p) {
  if (typeof p !== "string") return "somewhere";
  const [kind, rest] = [p.split(":")[0], p.slice(p.indexOf(":") + 1)];
  switch (kind) {
    case "map": return `the map at ${rest}`;
    case "hand": return `${rest}'s hand`;
    case "player": return `${rest}'s supply`;
    case "slot": return `a slot at ${rest.split(":")[0]}`;
    case "under": return "under a follower";
    case "supply": return "the supply";
    case "box": return "the box";
    case "aside": return "the chips set aside";
    case "isle": return "the isle";
    default: return p.replace(/_/g, " ");
  }
}

// A rule's name as its page heads it, else its name with spaces.
export const ruleHeading = (rules, name) => rules?.[name]?.heading || String(name ?? "").replace(/_/g, " ");

// One score in words, with what gave it: "+4 for City" and, folded, the rule's sentence and line.
function scoreLine(rules, e) {
  const r = rules?.[e.rule];
  const sign = e.points >= 0 ? "+" : "−";
  const head = `<b class="points">${sign}${Math.abs(e.points)}</b> for <b>${esc(ruleHeading(rules, e.rule))}</b>`;
  if (!r) return head;
  return `<details class="why"><summary>${head} <span class="where">${esc(r.file)}:${r.line}</span></summary>${esc(r.sentence)}</details>`;
}

// One event in words (null when it is not worth a line of its own).
function eventWords(rules, e) {
  switch (e.event) {
    case "tile_placed": return `places tile <b>${esc(e.tile)}</b> ${e.square ? `on ${esc(e.square)} (${e.at.join(",")})` : `at ${e.at.join(",")}`}${e.rotation ? `, turned ${e.rotation}°` : ""}`;
    case "tile_discarded": return `draws tile <b>${esc(e.tile)}</b>, which fits nowhere: discarded`;
    case "follower_placed": return `puts a follower on the ${esc(e.feature)} at ${e.at.join(",")}`;
    case "follower_returned": return `a follower goes back to ${esc(placeWords(e.to))}`;
    case "follower_moved": return `a follower moves from ${esc(placeWords(e.from))} to ${esc(placeWords(e.to))}`;
    case "follower_strength": return `a follower now counts as ${e.strength}`;
    case "chip_moved": {
      const c = e.chip || {};
      const what = e.face === "up" ? `a ${esc(c.colour)} chip worth ${c.value}` : "a chip, face down,";
      return `${what} goes from ${esc(placeWords(e.from))} to ${esc(placeWords(e.to))}`;
    }
    case "score": return scoreLine(rules, e);
    default: return null;
  }
}

// The move log: one block per turn, the newest first.
export function storyHtml(events, rules) {
  const turns = new Map();
  for (const e of events) {
    if (!turns.has(e.turn)) turns.set(e.turn, []);
    turns.get(e.turn).push(e);
  }
  const blocks = [];
  for (const [turn, list] of turns) {
    const mover = list.find((e) => e.event === "tile_placed" || e.event === "tile_discarded")?.player;
    const end = list.some((e) => e.event === "game_end");
    const lines = [];
    for (const e of list) {
      const w = eventWords(rules, e);
      if (!w) continue;
      const who = e.event === "score" ? `${esc(e.player)} ` : e.player && e.player !== mover ? `${esc(e.player)}: ` : "";
      lines.push(`<li class="ev-${esc(e.event)}">${who}${w}</li>`);
    }
    const head = end || !mover ? (end ? "The end: the final scoring" : `Turn ${turn}`) : `Turn ${turn} · <b>${esc(mover)}</b>`;
    blocks.push(`<section class="turn" data-turn="${turn}"><h4>${head}</h4><ul>${lines.join("")}</ul></section>`);
  }
  return blocks.reverse().join("");
}

// The points of each player by the rule that gave them, with the rule's line; totals at the foot.
export function breakdownHtml(events, rules, players) {
  const by = new Map(); // rule -> player -> points
  for (const e of events) {
    if (e.event !== "score") continue;
    if (!by.has(e.rule)) by.set(e.rule, new Map());
    const m = by.get(e.rule);
    m.set(e.player, (m.get(e.player) || 0) + e.points);
  }
  const names = players.map((p) => p.name);
  const rows = [...by].sort((a, b) => sum(b[1]) - sum(a[1])).map(([rule, m]) => {
    const r = rules?.[rule];
    const where = r ? ` <span class="where">${esc(r.file)}:${r.line}</span>` : "";
    const title = r ? ` title="${esc(r.sentence)}"` : "";
    return `<tr><th scope="row"${title}>${esc(ruleHeading(rules, rule))}${where}</th>${names.map((n) => `<td>${m.get(n) || 0}</td>`).join("")}</tr>`;
  });
  const totals = names.map((n) => [...by.values()].reduce((t, m) => t + (m.get(n) || 0), 0));
  return `<table class="breakdown"><thead><tr><th>points by rule</th>${names.map((n) => `<th>${esc(n)}</th>`).join("")}</tr></thead>
    <tbody>${rows.join("")}</tbody><tfoot><tr><th>total</th>${totals.map((t) => `<td>${t}</td>`).join("")}</tr></tfoot></table>`;
}

const sum = (m) => [...m.values()].reduce((a, b) => a + b, 0);
