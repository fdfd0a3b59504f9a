// What a Measure run shows, from the report's JSON (`carto sim --report --format json`'s figures,
// written by carto.wasm, so every sentence is the command line's): the headline, the win share
// per player drawn with its 95% interval against a fair share, the balance, and one sentence per
// figure (in a comparison: what the rule changes and how sure that is). Bars are HTML, so the
// text keeps its size on a phone.

export const esc = (t) => String(t).replace(/[&<>"]/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;" })[c]);
// A sentence of the report with its `names` set as code.
const words = (t) => esc(t).replace(/`([^`]+)`/g, "<code>$1</code>");
const pct = (v, d = 1) => (Number.isFinite(v) ? `${(v * 100).toFixed(d)}%` : "–");
const clamp = (v) => Math.max(0, Math.min(100, v * 100));

// One bar: its label, the share, its interval and the fair share (all 0..1).
function bar(label, cls, est, fair) {
  const [lo, hi] = est.ci95 ?? [est.mean, est.mean];
  return `<div class="share-bar ${cls}"><span class="share-label">${esc(label)}</span>`
    + `<span class="share-track"><span class="share-fill" style="width:${clamp(est.mean)}%"></span>`
    + `<span class="share-ci" style="left:${clamp(lo)}%;width:${clamp(hi) - clamp(lo)}%"></span>`
    + `<span class="share-fair" style="left:${clamp(fair)}%"></span></span>`
    + `<span class="share-value">${pct(est.mean)} <small>[${pct(lo, 0)}–${pct(hi, 0)}]</small></span></div>`;
}

// The win share of every player: one bar per setting (the original, then yours).
export function shareChart(report, labels) {
  const rows = report.figures.filter((f) => f.figure === "win");
  if (!rows.length) return "";
  const fair = 1 / report.players.length;
  let h = "headline" in report ? names(labels) : "";
  h += `<figure class="share-chart" aria-label="win share per player with 95% intervals">`
    + `<figcaption>Who wins: each player's win share (the bar), its 95% interval (the dark band) and a fair share, ${pct(fair)} (the dashed line)</figcaption>`;
  for (const row of rows) {
    h += `<div class="share-seat"><div class="share-who">${esc(row.who)}</div>`;
    if (row.value) h += bar(labels.one, "one", row.value, fair);
    else h += bar(labels.original, "original", row.original, fair) + bar(labels.yours, "yours", row.yours, fair);
    h += "</div>";
  }
  return h + "</figure>";
}

// Which setting is which, in the rules' names.
const names = (labels) => `<p class="sim-names"><span class="key original"></span> the original: <b>${esc(labels.original)}</b>; <span class="key yours"></span> yours: <b>${esc(labels.yours)}</b>. The same seeds under both; every difference is yours minus the original.</p>`;

// The balance: the largest gap between two seats' win shares.
function balanceLine(b, label) {
  if (!b) return "";
  const ci = b.ci95 ? ` [${pct(b.ci95[0])}, ${pct(b.ci95[1])}]` : "";
  return `${label ? esc(label) + ": " : ""}${pct(b.gap)}${ci} (between ${esc(b.most)} and ${esc(b.least)})`;
}

// A figure alone (no comparison): what, its mean and 95% interval.
function plain(f) {
  const v = f.value;
  const show = (x) => (f.percent ? pct(x) : Number.isFinite(x) ? x.toFixed(2) : "–");
  return `${words(f.what)}: <b>${show(v.mean)}</b>${v.ci95 ? ` <small>[${show(v.ci95[0])}, ${show(v.ci95[1])}]</small>` : ""}`;
}

// The report in words: headline, balance and every figure's sentence, by section.
export function figuresHtml(report, labels) {
  const paired = "headline" in report;
  let h = `<p class="sim-played">${report.games} games, played by ${report.players.map((p, i) => `${esc(p)} (${esc(report.agents[i])})`).join(", ")}.</p>`;
  if (paired) {
    h += `<ul class="sim-headline">${report.headline.map((s) => `<li>${words(s)}</li>`).join("")}</ul>`;
    h += `<p class="sim-balance">Balance (the largest gap between seats' win shares): ${balanceLine(report.balance.original, labels.original)}; ${balanceLine(report.balance.yours, labels.yours)}.</p>`;
  } else if (report.balance) {
    h += `<p class="sim-balance">Balance (the largest gap between seats' win shares): ${balanceLine(report.balance)}.</p>`;
  }
  let section = "";
  for (const f of report.figures) {
    if (f.section !== section) {
      if (section) h += "</ul>";
      section = f.section;
      h += `<h4>${esc(section)}</h4><ul class="sim-figures">`;
    }
    if (paired) h += `<li class="${f.significant ? "sure" : "unsure"}" data-figure="${esc(f.figure)}">${words(f.sentence)}</li>`;
    else h += `<li data-figure="${esc(f.figure)}">${plain(f)}</li>`;
  }
  if (section) h += "</ul>";
  return h;
}

// A variant's title without the game's name before a dash ("Carcassonne: Maps — France": France).
export const shortTitle = (title) => String(title).split(" — ").pop();
