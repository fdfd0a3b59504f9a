// The playground's budgets, measured (docs/playground.md, "Budgets"): carto.wasm's size gzipped; the time
// from a keystroke to the diagnostics on the largest bundled rules file; random games per second in
// the page's worker against the native binary on one core (`carto bench`, CARTO_RELEASE).
//
//   CARTO_RELEASE=target/release/carto node web/tests/budgets.mjs [GAMES]
import { chromium } from "playwright-core";
import fs from "node:fs";
import path from "node:path";
import zlib from "node:zlib";
import { spawnSync } from "node:child_process";
import { fileURLToPath } from "node:url";
import http from "node:http";

const WEB = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const DIST = path.join(WEB, "dist");
const NATIVE = process.env.CARTO_RELEASE || path.join(WEB, "..", "target", "release", "carto");
const GAMES = Number(process.argv[2] || 300);

const wasm = fs.readFileSync(path.join(DIST, "carto.wasm"));
const gz = zlib.gzipSync(wasm, { level: 9 }).length;
console.log(`carto.wasm: ${(wasm.length / 1e6).toFixed(2)} MB, ${(gz / 1e6).toFixed(2)} MB gzipped`);

const largest = fs.readdirSync(path.join(WEB, "..", "rules"))
  .map((f) => [f, fs.statSync(path.join(WEB, "..", "rules", f)).size]).sort((a, b) => b[1] - a[1])[0];
const variant = largest[0].replace(/\.rules$/, "");

const TYPES = { ".html": "text/html", ".js": "text/javascript", ".css": "text/css", ".wasm": "application/wasm" };
const server = http.createServer((req, res) => {
  const p = new URL(req.url, "http://x").pathname;
  const file = path.join(DIST, p === "/" ? "index.html" : p);
  if (!file.startsWith(DIST) || !fs.existsSync(file)) { res.writeHead(404); res.end(); return; }
  res.writeHead(200, { "content-type": TYPES[path.extname(file)] || "application/octet-stream" });
  fs.createReadStream(file).pipe(res);
});
await new Promise((ok) => server.listen(0, "127.0.0.1", ok));
const browser = await chromium.launch({ executablePath: process.env.CHROMIUM || "/usr/bin/chromium", args: ["--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage"] });
const page = await browser.newPage();
await page.goto(`http://127.0.0.1:${server.address().port}/`);
await page.waitForFunction(() => window.carto && window.carto.doc, null, { timeout: 60000 });
await page.selectOption("#start", variant);
await page.waitForFunction((v) => window.carto.doc.name === v, variant);

// Keystroke to diagnostics: a key typed at the end of the file (alternately an error and its fix),
// timed from the key event to the summary line's change.
const times = [];
const checks = [];
for (let k = 0; k < 12; k++) {
  await page.evaluate(() => { const v = window.carto.view; v.dispatch({ selection: { anchor: v.state.doc.length } }); v.focus(); });
  const before = await page.textContent("#summary");
  const t0 = await page.evaluate(() => performance.now());
  await page.keyboard.press(k % 2 ? "Backspace" : "x");
  await page.waitForFunction((b) => document.getElementById("summary").textContent !== b, before);
  const t1 = await page.evaluate(() => performance.now());
  times.push(t1 - t0);
  checks.push(await page.evaluate(() => window.carto.lastCheckMs));
}
const median = (a) => [...a].sort((x, y) => x - y)[Math.floor(a.length / 2)];
console.log(`keystroke to diagnostics on ${largest[0]} (${largest[1]} bytes): median ${median(times).toFixed(0)} ms (debounce 120 ms; the check itself ${median(checks).toFixed(1)} ms)`);

// Random games per second: the page's worker (one core) against `carto bench` (one core).
for (const v of ["base", variant]) {
  await page.selectOption("#start", v);
  await page.waitForFunction((n) => window.carto.doc.name === n, v);
  await page.click("nav button[data-tab=measure]");
  await page.fill("#sim-games", String(GAMES));
  await page.fill("#sim-agents", "random"); // the page's default is greedy
  await page.evaluate(() => { window.carto.simReport = null; });
  await page.click("#sim-run");
  await page.waitForFunction(() => window.carto.simReport, null, { timeout: 600000 });
  const status = await page.textContent("#sim-status");
  const inPage = Number(/\(([\d.]+) games\/s\)/.exec(status)[1]);
  const b = spawnSync(NATIVE, ["bench", v, "--games", String(GAMES), "--format", "json", "--quiet"], { encoding: "utf8" });
  const native = JSON.parse(b.stdout)[0].games_per_second;
  console.log(`${v}: ${inPage.toFixed(1)} random games/s in the page, ${native.toFixed(1)} native (${NATIVE}): ${(100 * inPage / native).toFixed(0)}%`);
}
await browser.close();
server.close();
