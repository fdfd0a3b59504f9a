// The board: the game's picture fills its box, and zooms and pans by its viewBox: the mouse
// (drag), the wheel, two fingers (pinch, drag) and the keys (+ − arrows, 0 to fit). The part shown
// is kept from one view of the game to the next, so the board never jumps between phases.
const MAX_ZOOM = 8;

export function boardView(box, onChange = () => {}) {
  let full = null; // the whole picture: [x, y, w, h]
  let vb = null; // the part shown
  const svg = () => box.querySelector("svg");

  function set(svgText) {
    box.innerHTML = svgText;
    const s = svg();
    if (!s) return;
    const next = (s.getAttribute("viewBox") || "0 0 100 100").split(/\s+/).map(Number);
    if (!full || next[2] !== full[2] || next[3] !== full[3]) vb = null; // another picture: fit it
    full = next;
    vb ??= [...full];
    s.removeAttribute("width");
    s.removeAttribute("height");
    s.setAttribute("preserveAspectRatio", "xMidYMid meet");
    apply();
  }

  function apply() {
    const s = svg();
    if (!s || !vb) return;
    // Never smaller than 1/MAX_ZOOM of the picture, never larger than it; kept over it.
    const w = Math.min(full[2], Math.max(full[2] / MAX_ZOOM, vb[2]));
    const h = w * (vb[3] / vb[2] || full[3] / full[2]);
    const x = Math.min(full[0] + full[2] - w / 2, Math.max(full[0] - w / 2, vb[0]));
    const y = Math.min(full[1] + full[3] - h / 2, Math.max(full[1] - h / 2, vb[1]));
    vb = w >= full[2] ? [...full] : [x, y, w, h];
    s.setAttribute("viewBox", vb.map((n) => n.toFixed(1)).join(" "));
    onChange(zoom());
  }

  const zoom = () => (full && vb ? full[2] / vb[2] : 1);

  // A point of the window in the picture's units.
  function toPicture(cx, cy) {
    const s = svg();
    const m = s.getScreenCTM();
    if (!m) return [vb[0] + vb[2] / 2, vb[1] + vb[3] / 2];
    const p = new DOMPoint(cx, cy).matrixTransform(m.inverse());
    return [p.x, p.y];
  }

  // Zooms by `k` keeping the picture's point under (cx, cy) where it is.
  function zoomAt(k, cx, cy) {
    if (!vb) return;
    const target = Math.min(MAX_ZOOM, Math.max(1, zoom() * k));
    const [px, py] = cx === undefined ? [vb[0] + vb[2] / 2, vb[1] + vb[3] / 2] : toPicture(cx, cy);
    const w = full[2] / target;
    const h = full[3] / target;
    vb = [px - ((px - vb[0]) * w) / vb[2], py - ((py - vb[1]) * h) / vb[3], w, h];
    apply();
  }

  function panBy(dx, dy) {
    if (!vb) return;
    vb = [vb[0] + dx, vb[1] + dy, vb[2], vb[3]];
    apply();
  }

  // Brings a point of the picture into view (centred) without changing the zoom.
  function show(x, y, margin) {
    if (!vb) return;
    if (x - margin >= vb[0] && x + margin <= vb[0] + vb[2] && y - margin >= vb[1] && y + margin <= vb[1] + vb[3]) return;
    vb = [x - vb[2] / 2, y - vb[3] / 2, vb[2], vb[3]];
    apply();
  }

  box.addEventListener("wheel", (e) => {
    e.preventDefault();
    zoomAt(e.deltaY < 0 ? 1.25 : 0.8, e.clientX, e.clientY);
  }, { passive: false });

  // Pointers: one drags (after a few pixels, so that a click stays a click), two pinch.
  const pointers = new Map();
  let dragged = false;
  let pinch = null;
  box.addEventListener("pointerdown", (e) => {
    pointers.set(e.pointerId, [e.clientX, e.clientY]);
    dragged = false;
    if (pointers.size === 2) {
      const [a, b] = [...pointers.values()];
      pinch = { d: Math.hypot(a[0] - b[0], a[1] - b[1]), z: zoom() };
    }
  });
  box.addEventListener("pointermove", (e) => {
    const last = pointers.get(e.pointerId);
    if (!last) return;
    const now = [e.clientX, e.clientY];
    pointers.set(e.pointerId, now);
    if (pointers.size === 2 && pinch) {
      const [a, b] = [...pointers.values()];
      const d = Math.hypot(a[0] - b[0], a[1] - b[1]);
      zoomAt((pinch.z * d) / pinch.d / zoom(), (a[0] + b[0]) / 2, (a[1] + b[1]) / 2);
      dragged = true;
      return;
    }
    const dx = now[0] - last[0];
    const dy = now[1] - last[1];
    if (!dragged && Math.hypot(dx, dy) < 4) { pointers.set(e.pointerId, last); return; }
    if (!dragged) box.setPointerCapture?.(e.pointerId);
    dragged = true;
    const s = svg();
    if (!s || !vb) return;
    const r = s.getBoundingClientRect();
    const k = Math.max(vb[2] / r.width, vb[3] / r.height);
    panBy(-dx * k, -dy * k);
  });
  const up = (e) => { pointers.delete(e.pointerId); if (pointers.size < 2) pinch = null; };
  box.addEventListener("pointerup", up);
  box.addEventListener("pointercancel", up);
  // A drag is not a click on the square under the pointer at its end.
  box.addEventListener("click", (e) => { if (dragged) { e.stopPropagation(); e.preventDefault(); dragged = false; } }, true);

  box.tabIndex = 0;
  box.addEventListener("keydown", (e) => {
    const step = vb ? vb[2] / 8 : 0;
    const keys = {
      "+": () => zoomAt(1.25), "=": () => zoomAt(1.25), "-": () => zoomAt(0.8), "0": () => fit(),
      ArrowLeft: () => panBy(-step, 0), ArrowRight: () => panBy(step, 0), ArrowUp: () => panBy(0, -step), ArrowDown: () => panBy(0, step),
    };
    if (keys[e.key]) { e.preventDefault(); keys[e.key](); }
  });

  // Shows the rectangle (x, y, w, h) of the picture, as large as the box allows.
  function frame(x, y, w, h) {
    if (!full) return;
    const r = box.getBoundingClientRect();
    const aspect = r.height / r.width || full[3] / full[2];
    const W = Math.max(w, h / aspect);
    vb = [x + w / 2 - W / 2, y + h / 2 - (W * aspect) / 2, W, W * aspect];
    apply();
  }

  // How many pixels of the screen a unit of the picture takes now.
  function scale() {
    const r = box.getBoundingClientRect();
    return vb ? Math.min(r.width / vb[2], r.height / vb[3]) : 1;
  }

  function fit() {
    if (!full) return;
    vb = [...full];
    apply();
  }

  return { set, zoomAt, panBy, fit, frame, scale, show, zoom, svg };
}
