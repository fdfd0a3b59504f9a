// The simulation's Web Worker: its own carto.wasm plays the games a chunk at a time, tells the
// progress after each chunk, and stops between chunks when told.
import { loadCarto } from "./carto.js";

const CHUNK = 4;
let call = null;
let stopping = false;

self.onmessage = async (e) => {
  const m = e.data;
  if (m.stop) { stopping = true; return; }
  if (!m.start) return;
  stopping = false;
  call ??= await loadCarto(new URL("carto.wasm", import.meta.url));
  const t0 = performance.now();
  const s = call({ fn: "sim_start", ...m.start });
  if (s.error) { self.postMessage({ error: s.error }); return; }
  let done = 0;
  while (done < s.games && !stopping) {
    const r = call({ fn: "sim_step", games: CHUNK });
    if (r.error) { self.postMessage({ error: r.error }); return; }
    done = r.done;
    self.postMessage({ progress: done, games: s.games, seconds: (performance.now() - t0) / 1000 });
    await new Promise((ok) => setTimeout(ok, 0)); // lets a stop message in
  }
  const rep = call({ fn: "sim_report" });
  self.postMessage({ report: rep, stopped: stopping, seconds: (performance.now() - t0) / 1000 });
};
