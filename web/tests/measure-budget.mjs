// The Measure tab's budget (docs/playground.md, "Budgets"): its default run (greedy players, the
// default number of games) and its tuner's default budget, timed in the page as its status line
// tells them, for base alone and for a house rule of France against France (twice each: the first
// run includes the worker's start).
//
//   web/build.sh && node web/tests/measure-budget.mjs
import { chromium } from "playwright-core";
import http from "node:http"; import fs from "node:fs"; import path from "node:path";
const DIST = path.join(path.dirname(new URL(import.meta.url).pathname), "..", "dist");
const server = http.createServer((req, res) => { const p = decodeURIComponent(new URL(req.url, "http://x").pathname); const f = path.join(DIST, p === "/" ? "index.html" : p); if (!fs.existsSync(f)) { res.writeHead(404); res.end(); return; } res.writeHead(200, { "content-type": { ".html": "text/html", ".js": "text/javascript", ".css": "text/css", ".wasm": "application/wasm" }[path.extname(f)] || "x" }); fs.createReadStream(f).pipe(res); });
await new Promise((ok) => server.listen(0, "127.0.0.1", ok));
const base = `http://127.0.0.1:${server.address().port}/`;
const browser = await chromium.launch({ executablePath: "/usr/bin/chromium", args: ["--no-sandbox", "--disable-gpu"] });
const HOUSE = `import "france"\nvariant "my-france" {\n  title = "France, house rules"\n}\noverride sale_town = 12\nremove action sell_abroad\n`;
const page = await (await browser.newContext({ viewport: { width: 1400, height: 1000 } })).newPage();
await page.goto(base);
await page.waitForSelector("body[data-ready='1']");
await page.waitForFunction(() => window.carto && window.carto.doc);
await page.evaluate(() => window.carto.setMode("read"));
for (const [what, text] of [["base alone", null], ["house rule vs France", HOUSE]]) {
  if (text) { await page.evaluate((t) => window.carto.setText(t), text); await page.waitForFunction(() => window.carto.doc.name === "my-france"); }
  await page.evaluate(() => window.carto.showTab("measure"));
  for (let i = 0; i < 2; i++) {
    await page.evaluate(() => { window.carto.simReport = null; });
    await page.click("#sim-run");
    await page.waitForFunction(() => window.carto.simReport, null, { timeout: 600000 });
    console.log(what, await page.textContent("#sim-status"));
  }
  await page.evaluate(() => { window.carto.tuneReport = null; });
  await page.fill("#tune-values", text ? "sale_town=6..12" : "road_tile=0..3");
  await page.click("#tune-run");
  await page.waitForFunction(() => window.carto.tuneReport, null, { timeout: 600000 });
  console.log(what, "tune (defaults)", await page.textContent("#tune-status"));
}
await browser.close(); server.close();
