// The rules, the variant they started from, the parameters, the map of one's own (if any) and the
// Measure tab's comparison, in the page's address (#s=…): a link reopens the same state. Compressed (deflate) and base64url; nothing is sent anywhere.
const unb64 = (s) => Uint8Array.from(atob(s.replace(/-/g, "+").replace(/_/g, "/")), (c) => c.charCodeAt(0));

async function pipe(bytes, stream) {
  const out = new Response(new Blob([bytes]).stream().pipeThrough(stream));
  return new Uint8Array(await out.arrayBuffer());
}

export async function encodeState(state) {
  const json = new TextEncoder().encode(JSON.stringify(state));
  const packed = await pipe(json, new CompressionStream("deflate-raw"));
  let s = "";
  for (let i = 0; i < packed.length; i += 0x8000) s += String.fromCharCode(...packed.subarray(i, i + 0x8000));
  return btoa(s).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
}

export async function decodeState(code) {
  const json = await pipe(unb64(code), new DecompressionStream("deflate-raw"));
  const s = JSON.parse(new TextDecoder().decode(json));
  if (typeof s.text !== "string" || typeof s.base !== "string") throw new Error("not a playground link");
  const sets = {};
  for (const [k, v] of Object.entries(s.sets || {})) if (typeof v === "string") sets[k] = v;
  const map = typeof s.map === "string" ? s.map : "";
  const mapStart = typeof s.mapStart === "string" ? s.mapStart : "";
  return { base: s.base, text: s.text, sets, map, mapStart, measure: measureOf(s.measure) };
}

// The Measure tab's comparison and tuning as a link carries them (anything not of its kind is
// dropped, field by field: a stranger's link sets nothing else).
export function measureOf(m) {
  if (!m || typeof m !== "object") return null;
  const str = (v) => (typeof v === "string" ? v : "");
  const strs = (o) => Object.fromEntries(Object.entries(o && typeof o === "object" ? o : {}).filter(([, v]) => typeof v === "string"));
  const t = m.tune && typeof m.tune === "object" ? m.tune : null;
  return {
    open: m.open === true, compare: m.compare === true, vs_rules: str(m.vs_rules), vs_text: str(m.vs_text), vs: strs(m.vs),
    games: str(m.games), seed: str(m.seed), agents: str(m.agents), players: str(m.players),
    tune: t && { param: str(t.param), values: str(t.values), target: str(t.target), seat: str(t.seat), goal: str(t.goal), games: str(t.games), first: str(t.first) },
  };
}

// The state the address holds, or null (none, or not readable: the page then starts afresh).
export async function readAddress() {
  const m = /^#s=([A-Za-z0-9_-]+)$/.exec(location.hash);
  if (!m) return null;
  try { return await decodeState(m[1]); } catch (e) { console.warn("the link's state cannot be read:", e); return null; }
}

// What the address (and the local storage) holds of the page's work.
export function stateOf(app) {
  const state = { base: app.base, text: app.text(), sets: app.sets };
  if (app.measureState) state.measure = app.measureState();
  if (app.mapText && app.mapText().trim()) Object.assign(state, { map: app.mapText(), mapStart: app.mapStart });
  return state;
}

let pending = 0;
export async function writeAddress(app) {
  const mine = ++pending;
  const code = await encodeState(stateOf(app));
  if (mine === pending) history.replaceState(null, "", "#s=" + code);
}
