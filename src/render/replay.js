
let turn = LAST;
const dyn = Array.from(document.querySelectorAll('svg [data-a]'));
function showTurn(t) {
  turn = Math.max(0, Math.min(LAST, t));
  for (const el of dyn) {
    const a = +el.dataset.a, b = +el.dataset.b;
    el.setAttribute('display', (a <= turn && turn < b) ? 'inline' : 'none');
  }
  document.getElementById('title').textContent = TITLES[turn];
  document.getElementById('label').textContent = turn === 0 ? 'setup' : 'turn ' + turn + ' / ' + LAST;
  document.getElementById('slider').value = turn;
  document.getElementById('turn-now').textContent = turn;
  const shown = document.querySelectorAll('#board g.tile[display="inline"]').length;
  document.getElementById('tiles-shown').textContent = shown;
  document.getElementById('scores').innerHTML = NAMES.map((n, i) =>
    '<span class="score" data-player="' + n.replace(/[&<>"]/g, '') + '">' + n.replace(/[&<>]/g, '') + ' ' + SCORES[turn][i] + '</span>').join(', ');
  document.getElementById('events').innerHTML = TURNS[turn] || '<div>nothing happened</div>';
  const m = document.getElementById('marker');
  const x = +m.dataset.l + turn / Math.max(1, +m.dataset.turns) * +m.dataset.w;
  m.setAttribute('x1', x); m.setAttribute('x2', x);
  if (location.hash !== '#turn=' + turn) { try { history.replaceState(null, '', '#turn=' + turn); } catch (e) {} }
}
function fromHash() {
  const m = /turn=(\d+)/.exec(location.hash);
  show(m ? parseInt(m[1], 10) : LAST);
}
document.getElementById('first').onclick = () => show(0);
document.getElementById('prev').onclick = () => show(turn - 1);
document.getElementById('next').onclick = () => show(turn + 1);
document.getElementById('last').onclick = () => show(LAST);
document.getElementById('slider').oninput = e => show(+e.target.value);
document.addEventListener('keydown', e => {
  if (e.key === 'ArrowLeft') show(turn - 1);
  else if (e.key === 'ArrowRight') show(turn + 1);
  else if (e.key === 'Home') show(0);
  else if (e.key === 'End') show(LAST);
  else return;
  e.preventDefault();
});
window.addEventListener('hashchange', fromHash);
// Zoom and pan: "fit" shows the whole board in the window; + and - zoom from there; a zoomed board
// is moved by dragging (or by scrolling, or with a finger).
const view = document.getElementById('view');
const bsvg = view.querySelector('svg');
const vb = bsvg.viewBox.baseVal;
if (vb.width > 1.25 * vb.height) document.body.classList.add('wide');
let zoom = 0;
function fitScale() {
  const head = document.querySelector('header').offsetHeight;
  const tools = document.getElementById('zoom').offsetHeight;
  const avail = Math.max(240, window.innerHeight - head - tools - 24);
  return Math.min(view.clientWidth / vb.width, avail / vb.height);
}
function layout() {
  const k = zoom || fitScale();
  bsvg.setAttribute('width', Math.round(vb.width * k));
  bsvg.setAttribute('height', Math.round(vb.height * k));
  view.style.maxHeight = zoom ? Math.max(240, window.innerHeight - document.querySelector('header').offsetHeight - 60) + 'px' : '';
}
function zoomBy(f) {
  const k = zoom || fitScale();
  const cx = (view.scrollLeft + view.clientWidth / 2) / k, cy = (view.scrollTop + view.clientHeight / 2) / k;
  zoom = Math.min(8, Math.max(fitScale(), k * f));
  if (zoom === fitScale()) zoom = 0;
  layout();
  const z = zoom || fitScale();
  view.scrollLeft = cx * z - view.clientWidth / 2; view.scrollTop = cy * z - view.clientHeight / 2;
}
document.getElementById('zoom-in').onclick = () => zoomBy(1.4);
document.getElementById('zoom-out').onclick = () => zoomBy(1 / 1.4);
document.getElementById('zoom-fit').onclick = () => { zoom = 0; layout(); };
document.addEventListener('keydown', e => {
  if (e.key === '+' || e.key === '=') zoomBy(1.4);
  else if (e.key === '-') zoomBy(1 / 1.4);
  else if (e.key === '0') { zoom = 0; layout(); }
});
let drag = null;
view.addEventListener('pointerdown', e => { if (e.pointerType === 'mouse') { drag = [e.clientX, e.clientY, view.scrollLeft, view.scrollTop]; } });
window.addEventListener('pointermove', e => { if (drag) { view.scrollLeft = drag[2] - (e.clientX - drag[0]); view.scrollTop = drag[3] - (e.clientY - drag[1]); } });
window.addEventListener('pointerup', () => { drag = null; });
window.addEventListener('resize', layout);
// On a narrow window (a phone) the whole board fitted would be too small to read: the page opens
// zoomed to READABLE px a square and centred on the last move, and follows the last move from turn
// to turn while it is zoomed ("fit" shows the whole board).
const READABLE = 34;
function follow(always) {
  if (!zoom) return;
  const v = view.getBoundingClientRect();
  let box = null;
  for (const el of document.querySelectorAll('#board g.last-tile, #board g.tile')) {
    const r = el.getBoundingClientRect();
    if (r.width <= 0) continue;
    if (el.classList.contains('last-tile')) { box = r; break; }
    box = box ? { left: Math.min(box.left, r.left), top: Math.min(box.top, r.top), right: Math.max(box.right, r.right), bottom: Math.max(box.bottom, r.bottom) } : r;
  }
  if (!box) return;
  const inside = box.left >= v.left && box.right <= v.right && box.top >= v.top && box.bottom <= v.bottom;
  if (inside && !always) return;
  view.scrollLeft += (box.left + box.right) / 2 - (v.left + v.right) / 2;
  view.scrollTop += (box.top + box.bottom) / 2 - (v.top + v.bottom) / 2;
}
function show(t) { showTurn(t); follow(false); }
layout();
if (fitScale() * SQUARE < READABLE * 0.75) { zoom = READABLE / SQUARE; layout(); }
fromHash();
follow(true);
