// The simulation's Web Worker: its own carto.wasm plays the games a chunk at a time (a `sim` run,
// or a part of a `tune` race's round), tells the progress after each chunk, and stops between
// chunks when told.
import { loadCarto } from "./carto.js";

// Games per step: doubled while a step takes under 60 ms (a chunk costs a setup of its own), so
// the progress moves about ten times a second whatever the variant's speed.
const FIRST_CHUNK = 4;
const MAX_CHUNK = 4096;
let call = null;
let stopping = false;

const pause = () => new Promise((ok) => setTimeout(ok, 0)); // lets a stop message in

async function sim(start) {
  const t0 = performance.now();
  const s = call({ fn: "sim_start", ...start });
  if (s.error) { self.postMessage({ error: s.error }); return; }
  let done = 0;
  let chunk = FIRST_CHUNK;
  while (done < s.games && !stopping) {
    const t = performance.now();
    const r = call({ fn: "sim_step", games: chunk });
    if (performance.now() - t < 60 && chunk < MAX_CHUNK) chunk *= 2;
    if (r.error) { self.postMessage({ error: r.error }); return; }
    done = r.done;
    self.postMessage({ progress: done, games: s.games, seconds: (performance.now() - t0) / 1000 });
    await pause();
  }
  const rep = call({ fn: "sim_report" });
  self.postMessage({ report: rep, stopped: stopping, seconds: (performance.now() - t0) / 1000 });
}

async function tune(start) {
  const t0 = performance.now();
  const s = call({ fn: "tune_start", ...start });
  if (s.error) { self.postMessage({ error: s.error }); return; }
  let chunk = 1;
  for (;;) {
    if (stopping) break;
    const t = performance.now();
    const r = call({ fn: "tune_step", games: chunk });
    if (r.error) { self.postMessage({ error: r.error }); return; }
    if (performance.now() - t < 60 && chunk < MAX_CHUNK) chunk *= 2;
    if (r.over) break;
    self.postMessage({ progress: r.used, budget: r.budget, rounds: r.rounds, alive: r.alive, seconds: (performance.now() - t0) / 1000 });
    await pause();
  }
  const rep = call({ fn: "tune_report" });
  self.postMessage({ report: rep, stopped: stopping, seconds: (performance.now() - t0) / 1000 });
}

self.onmessage = async (e) => {
  const m = e.data;
  if (m.stop) { stopping = true; return; }
  if (!m.start && !m.tune) return;
  stopping = false;
  call ??= await loadCarto(new URL("carto.wasm", import.meta.url));
  if (m.start) await sim(m.start);
  else await tune(m.tune);
};
