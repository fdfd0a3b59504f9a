// The replay pages audited in headless Chromium, as a player would look at them, at desktop and
// phone size. For each page given, at 1400×1000 and 390×844:
//   - (at the first size: the turns are the same DOM at both) every turn in which a tile was placed shows a last-move frame (`g.last-tile`) on the board;
//   - at the setup, the middle and the last turn, no label (`text.label`: names, coordinates, title,
//     legend, panel lines) lies outside the drawing or over another label;
//   - at the same turns, no floated points over a label or over other points, and every follower
//     on the board stands on its own feature as drawn (the topmost part of its tile at its point
//     belongs to its segment: `data-seg` on the follower and on the tile's parts);
//   - the score graph's texts apart and inside it;
//   - every follower shown is drawn so that it stands out: its fill against its ring has contrast
//     ≥ 3, and against every tile, ground and chip colour on the board one of its fill, ring or halo
//     has contrast ≥ 3 (WCAG contrast ratio);
//   - on the phone, the board opens with squares of at least 24 px and the last move in view;
//   - the page does not scroll sideways;
//   - a screenshot at the last turn is saved next to the page (NAME-WIDTH.png).
// Usage: node tests/browser/audit.js CHROMIUM PAGE.html...   Exit 1 on any problem, listing them.
'use strict';
const path = require('path');
const { chromium } = require('playwright-core');

const SIZES = [
  { width: 1400, height: 1000 },
  { width: 390, height: 844 },
];

// Runs in the page: every check at once, returns a list of problems.
function auditPage({ everyTurn, phone }) {
  const problems = [];
  const svg = document.querySelector('#board svg');
  const canvas = document.createElement('canvas').getContext('2d');
  const rgb = (c) => {
    canvas.fillStyle = '#000000';
    canvas.fillStyle = c;
    const h = canvas.fillStyle;
    if (!h.startsWith('#')) return null; // rgba(): transparent or see-through, not a ground
    return [1, 3, 5].map((i) => parseInt(h.slice(i, i + 2), 16) / 255);
  };
  const lum = (c) => {
    const [r, g, b] = c.map((v) => (v <= 0.03928 ? v / 12.92 : Math.pow((v + 0.055) / 1.055, 2.4)));
    return 0.2126 * r + 0.7152 * g + 0.0722 * b;
  };
  const contrast = (a, b) => {
    const [x, y] = [lum(a), lum(b)].sort((p, q) => q - p);
    return (x + 0.05) / (y + 0.05);
  };
  const visible = (el) => {
    for (let e = el; e && e !== svg; e = e.parentNode) {
      if (e.getAttribute && e.getAttribute('display') === 'none') return false;
    }
    return true;
  };
  // 1. A frame on every turn that placed a tile.
  const frames = [];
  for (let t = 1; everyTurn && t <= LAST; t++) {
    show(t);
    if (TILES[t] > TILES[t - 1]) {
      const f = Array.from(document.querySelectorAll('#board g.last-tile')).filter(visible);
      if (f.length !== 1) frames.push(t);
      else {
        const r = f[0].getBoundingClientRect();
        if (r.width < 4 || r.height < 4) frames.push(t);
      }
    }
  }
  if (frames.length) problems.push(`no last-move frame at turns ${frames.join(', ')}`);
  // 2. Labels, 3. followers, at three turns.
  const grounds = new Set();
  for (const el of svg.querySelectorAll('g.tile [fill], g.chip circle, rect[fill]')) {
    const f = el.getAttribute('fill');
    if (f && f !== 'none') grounds.add(f);
  }
  const groundRgb = Array.from(grounds).map((g) => [g, rgb(g)]).filter(([, c]) => c);
  for (const t of [0, Math.floor(LAST / 2), LAST]) {
    show(t);
    const box = svg.getBoundingClientRect();
    const labels = Array.from(svg.querySelectorAll('text.label'))
      .filter(visible)
      .map((el) => [el, el.getBoundingClientRect()])
      .filter(([, r]) => r.width > 0);
    for (const [el, r] of labels) {
      if (r.left < box.left - 0.5 || r.right > box.right + 0.5 || r.top < box.top - 0.5 || r.bottom > box.bottom + 0.5) {
        problems.push(`turn ${t}: label "${el.textContent}" lies outside the drawing`);
      }
    }
    for (let i = 0; i < labels.length; i++) {
      for (let j = i + 1; j < labels.length; j++) {
        const [a, ra] = labels[i];
        const [b, rb] = labels[j];
        const ox = Math.min(ra.right, rb.right) - Math.max(ra.left, rb.left);
        const oy = Math.min(ra.bottom, rb.bottom) - Math.max(ra.top, rb.top);
        if (ox > 1 && oy > 1) {
          problems.push(`turn ${t}: labels "${a.textContent}" and "${b.textContent}" overlap`);
        }
      }
    }
    // The points floated over the board: not over a label, nor over each other.
    const pills = Array.from(svg.querySelectorAll('g.points rect'))
      .filter(visible)
      .map((el) => [el, el.getBoundingClientRect()]);
    const overlap = (ra, rb) =>
      Math.min(ra.right, rb.right) - Math.max(ra.left, rb.left) > 1 &&
      Math.min(ra.bottom, rb.bottom) - Math.max(ra.top, rb.top) > 1;
    for (let i = 0; i < pills.length; i++) {
      const what = pills[i][0].parentNode.textContent;
      for (const [el, r] of labels) {
        if (overlap(pills[i][1], r)) problems.push(`turn ${t}: points "${what}" over the label "${el.textContent}"`);
      }
      for (let j = i + 1; j < pills.length; j++) {
        if (overlap(pills[i][1], pills[j][1])) {
          problems.push(`turn ${t}: points "${what}" and "${pills[j][0].parentNode.textContent}" overlap`);
        }
      }
    }
    // Every follower on the board stands on its own feature as drawn: at its feet's point, the
    // topmost part of its tile is a part of its segment (a farmer on its field, a knight in its
    // city, a thief on its road, a monk on the monastery).
    for (const fo of Array.from(svg.querySelectorAll('g[data-seg][data-x]')).filter(visible)) {
      const at = fo.getAttribute('data-at');
      const tile = Array.from(svg.querySelectorAll(`g[data-tile][data-at="${at}"]`)).find(visible);
      const who = fo.querySelector('title').textContent;
      if (!tile) {
        problems.push(`turn ${t}: ${who}: no tile drawn at ${at}`);
        continue;
      }
      const p = svg.createSVGPoint();
      p.x = parseFloat(fo.getAttribute('data-x'));
      p.y = parseFloat(fo.getAttribute('data-y'));
      const screen = p.matrixTransform(fo.getScreenCTM());
      let top = null;
      for (const el of tile.querySelectorAll('path, rect')) {
        const local = screen.matrixTransform(el.getScreenCTM().inverse());
        const stroke = el.getAttribute('stroke') && el.getAttribute('stroke') !== 'none' && parseFloat(el.getAttribute('stroke-width') || '1') > 0;
        const filled = el.getAttribute('fill') !== 'none';
        if ((filled && el.isPointInFill(local)) || (stroke && el.isPointInStroke(local))) {
          const owner = el.closest('[data-seg]');
          top = owner && tile.contains(owner) ? owner.getAttribute('data-seg') : 'none';
        }
      }
      if (top !== fo.getAttribute('data-seg')) {
        problems.push(`turn ${t}: ${who} stands on segment ${top} as drawn, not on its own (${fo.getAttribute('data-seg')})`);
      }
    }
    for (const m of Array.from(svg.querySelectorAll('g.meeple')).filter(visible)) {
      const [outer, body] = m.querySelectorAll('path');
      const fill = rgb(body.getAttribute('fill'));
      const width = (el) => parseFloat(el.getAttribute('stroke-width') || '0');
      // A ring or halo drawn with no width is no ring or halo.
      const ring = width(body) > 0 ? rgb(body.getAttribute('stroke')) : null;
      const halo = width(outer) > 0 ? rgb(outer.getAttribute('stroke')) : null;
      if (!fill || !ring || !halo) {
        problems.push(`turn ${t}: a follower without a ring and a halo`);
        continue;
      }
      if (contrast(fill, ring) < 3) {
        problems.push(`turn ${t}: follower ${body.getAttribute('fill')} against its ring ${body.getAttribute('stroke')}: ${contrast(fill, ring).toFixed(2)}`);
      }
      for (const [name, g] of groundRgb) {
        const best = Math.max(contrast(fill, g), contrast(ring, g), contrast(halo, g));
        if (best < 3) problems.push(`turn ${t}: follower ${body.getAttribute('fill')} on ${name}: contrast ${best.toFixed(2)}`);
      }
    }
  }
  // The score graph's names: apart from each other and inside the graph.
  const graph = document.getElementById('graph');
  if (graph) {
    const gb = graph.getBoundingClientRect();
    const names = Array.from(graph.querySelectorAll('text')).map((el) => [el, el.getBoundingClientRect()]);
    for (let i = 0; i < names.length; i++) {
      const [a, ra] = names[i];
      if (ra.left < gb.left - 0.5 || ra.right > gb.right + 0.5 || ra.top < gb.top - 0.5 || ra.bottom > gb.bottom + 0.5) {
        problems.push(`score graph: "${a.textContent}" lies outside the graph`);
      }
      for (let j = i + 1; j < names.length; j++) {
        const [b, rb] = names[j];
        if (Math.min(ra.right, rb.right) - Math.max(ra.left, rb.left) > 1 && Math.min(ra.bottom, rb.bottom) - Math.max(ra.top, rb.top) > 1) {
          problems.push(`score graph: "${a.textContent}" and "${b.textContent}" overlap`);
        }
      }
    }
  }
  // 4. Squares big enough to read: on a phone the board opens zoomed in (a square at least 24 px),
  // with the last move in view.
  if (phone) {
    const px = (svg.getBoundingClientRect().width / svg.viewBox.baseVal.width) * SQUARE;
    if (px < 24) problems.push(`the board opens at ${px.toFixed(1)} px a square`);
    const v = document.getElementById('view').getBoundingClientRect();
    const f = Array.from(document.querySelectorAll('#board g.last-tile')).map((e) => e.getBoundingClientRect()).find((r) => r.width > 0);
    if (f && (f.left < v.left - 1 || f.right > v.right + 1 || f.top < v.top - 1 || f.bottom > v.bottom + 1)) {
      problems.push('the last move is not in view when the page opens');
    }
  }
  // 5. No sideways scroll.
  const sideways = document.documentElement.scrollWidth - window.innerWidth;
  if (sideways > 0) problems.push(`the page scrolls ${sideways} px sideways`);
  show(LAST);
  return [...new Set(problems)];
}

(async () => {
  const [exe, ...pages] = process.argv.slice(2);
  const browser = await chromium.launch({ executablePath: exe, args: ['--no-sandbox', '--disable-gpu'] });
  let bad = 0;
  for (const page of pages) {
    const name = path.basename(page, '.html');
    for (const [k, size] of SIZES.entries()) {
      const ctx = await browser.newContext({ viewport: size, deviceScaleFactor: 1 });
      const p = await ctx.newPage();
      await p.goto('file://' + path.resolve(page));
      const problems = await p.evaluate(auditPage, { everyTurn: k === 0, phone: size.width < 600 });
      await p.screenshot({ path: path.join(path.dirname(page), `${name}-${size.width}.png`) });
      const where = `${name} at ${size.width}×${size.height}`;
      if (problems.length) {
        bad += problems.length;
        console.log(`${where}: ${problems.length} problem(s)`);
        for (const pr of problems.slice(0, 15)) console.log(`  ${pr}`);
        if (problems.length > 15) console.log(`  … and ${problems.length - 15} more`);
      } else {
        console.log(`${where}: ok`);
      }
      await ctx.close();
    }
  }
  await browser.close();
  process.exit(bad ? 1 : 0);
})().catch((e) => {
  console.error(e);
  process.exit(2);
});
