// carto.wasm behind one function: call({fn: NAME, ...}) -> the answer (JSON), see web/src/lib.rs.
export async function loadCarto(url) {
  const bytes = await (await fetch(url)).arrayBuffer();
  const { instance } = await WebAssembly.instantiate(bytes, {});
  const x = instance.exports;
  const enc = new TextEncoder();
  const dec = new TextDecoder();
  return function call(request) {
    const input = enc.encode(JSON.stringify(request));
    const ptr = x.carto_alloc(input.length);
    new Uint8Array(x.memory.buffer, ptr, input.length).set(input);
    const len = x.carto_call(ptr, input.length);
    x.carto_free(ptr, input.length);
    const out = x.carto_out_ptr();
    const answer = JSON.parse(dec.decode(new Uint8Array(x.memory.buffer, out, len)));
    return answer;
  };
}
