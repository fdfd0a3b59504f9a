// carto.wasm behind one function: call({fn: NAME, ...}) -> the answer (JSON), see web/src/lib.rs.
// Integers beyond 2^53 (a parameter's value, say) come back as their digits (text), not rounded.
// Should carto.wasm stop (a trap: out of memory, say), the call answers with an error that says so
// and the next call runs in a fresh instance: the page never shows an earlier answer as this one's.
export async function loadCarto(url) {
  const bytes = await (await fetch(url)).arrayBuffer();
  const module = await WebAssembly.compile(bytes);
  let x = (await WebAssembly.instantiate(module, {})).exports;
  let fresh = null; // a new instance on its way after a trap
  const enc = new TextEncoder();
  const dec = new TextDecoder();
  const exact = (_key, value, context) =>
    typeof value === "number" && Number.isInteger(value) && !Number.isSafeInteger(value) && context?.source ? context.source : value;
  return function call(request) {
    if (!x) return { error: "carto.wasm is starting again after it stopped: try again in a moment", code: "E1003" };
    try {
      const input = enc.encode(JSON.stringify(request));
      const ptr = x.carto_alloc(input.length);
      new Uint8Array(x.memory.buffer, ptr, input.length).set(input);
      const len = x.carto_call(ptr, input.length);
      x.carto_free(ptr, input.length);
      const out = x.carto_out_ptr();
      return JSON.parse(dec.decode(new Uint8Array(x.memory.buffer, out, len)), exact);
    } catch (e) {
      console.warn("carto.wasm stopped:", e);
      x = null;
      fresh ??= WebAssembly.instantiate(module, {}).then((i) => { x = i.exports; fresh = null; });
      return { error: `carto.wasm stopped while answering \`${request.fn}\` (${e.message || e}); it starts again`, code: "E1003" };
    }
  };
}
