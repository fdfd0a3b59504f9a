// The game's Web Worker: the game session lives in this worker's carto.wasm, so the agents' turns
// (the search agent thinks for seconds) never block the page. Requests are answered in order.
import { loadCarto } from "./carto.js";

const ready = loadCarto(new URL("carto.wasm", import.meta.url));

self.onmessage = async (e) => {
  const call = await ready;
  const { id, request } = e.data;
  self.postMessage({ id, answer: call(request) });
};
