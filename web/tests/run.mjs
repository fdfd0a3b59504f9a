// The playground's browser tests: web/dist/ served over HTTP on a free port, Debian's Chromium driven
// by playwright-core (no browser download). Each test saves a screenshot under target/browser/ (the
// repository's). The native binary (CARTO, default target/debug/carto) is the reference: the page's
// diagnostics, logs and sim numbers must be what it gives.
//
//   node web/tests/run.mjs [NAME-SUBSTRING ...]
import { chromium } from "playwright-core";
import http from "node:http";
import fs from "node:fs";
import path from "node:path";
import os from "node:os";
import { execFileSync, spawnSync } from "node:child_process";
import { fileURLToPath } from "node:url";

const WEB = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const ROOT = path.resolve(WEB, "..");
const DIST = path.join(WEB, "dist");
const SHOTS = path.join(ROOT, "target", "browser");
export const CARTO = process.env.CARTO || path.join(ROOT, "target", "debug", "carto");
const CHROMIUM = process.env.CHROMIUM || "/usr/bin/chromium";

const TYPES = { ".html": "text/html", ".js": "text/javascript", ".css": "text/css", ".wasm": "application/wasm" };

function serve() {
  const server = http.createServer((req, res) => {
    const p = decodeURIComponent(new URL(req.url, "http://x").pathname);
    const file = path.join(DIST, p === "/" ? "index.html" : p);
    if (!file.startsWith(DIST) || !fs.existsSync(file) || !fs.statSync(file).isFile()) {
      res.writeHead(404);
      res.end();
      return;
    }
    res.writeHead(200, { "content-type": TYPES[path.extname(file)] || "application/octet-stream" });
    fs.createReadStream(file).pipe(res);
  });
  return new Promise((ok) => server.listen(0, "127.0.0.1", () => ok(server)));
}

export function assert(cond, message) {
  if (!cond) throw new Error("assertion failed: " + message);
}

/// Runs the native binary in a fresh temporary folder holding `files`; returns {code, stdout, stderr, dir}.
export function native(args, files = {}) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "carto-web-"));
  for (const [n, t] of Object.entries(files)) fs.writeFileSync(path.join(dir, n), t);
  const r = spawnSync(CARTO, args, { cwd: dir, encoding: "utf8", maxBuffer: 1 << 26 });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr, dir };
}

async function main() {
  const only = process.argv.slice(2);
  assert(fs.existsSync(path.join(DIST, "carto.wasm")), "web/dist/carto.wasm: run web/build.sh first");
  assert(fs.existsSync(CARTO), `${CARTO}: build the binary first (cargo build)`);
  fs.mkdirSync(SHOTS, { recursive: true });
  const server = await serve();
  const base = `http://127.0.0.1:${server.address().port}/`;
  const browser = await chromium.launch({
    executablePath: CHROMIUM,
    args: ["--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--disable-background-networking",
      "--disable-component-update", "--no-first-run", "--disable-extensions"],
  });
  const tests = [];
  for (const f of fs.readdirSync(path.join(WEB, "tests")).filter((f) => f.endsWith(".test.mjs")).sort()) {
    const mod = await import(path.join(WEB, "tests", f));
    for (const [name, fn] of Object.entries(mod.tests)) tests.push({ name: `${f.replace(".test.mjs", "")}: ${name}`, fn });
  }
  let failed = 0;
  for (const t of tests.filter((t) => !only.length || only.some((o) => t.name.includes(o)))) {
    const context = await browser.newContext({ viewport: { width: 1400, height: 1000 }, acceptDownloads: true });
    const page = await context.newPage();
    const errors = [];
    page.on("pageerror", (e) => errors.push(String(e)));
    page.on("console", (m) => { if (m.type() === "error") errors.push(m.text()); });
    const shot = path.join(SHOTS, "web-" + t.name.replace(/[^a-z0-9]+/gi, "-").replace(/-+$/, "") + ".png");
    const t0 = Date.now();
    try {
      await t.fn({ page, base, open: (hash = "", mode) => open(page, base, hash, mode), shot: () => page.screenshot({ path: shot, fullPage: false }) });
      assert(errors.length === 0, "errors in the page: " + errors.join("; "));
      console.log(`ok   ${t.name} (${((Date.now() - t0) / 1000).toFixed(1)} s)`);
    } catch (e) {
      failed++;
      console.log(`FAIL ${t.name}: ${e.stack || e}`);
    } finally {
      await page.screenshot({ path: shot, fullPage: false }).catch(() => {});
      await context.close();
    }
  }
  await browser.close();
  server.close();
  console.log(failed ? `${failed} failed` : "all passed", `(screenshots in ${path.relative(process.cwd(), SHOTS) || "."})`);
  process.exit(failed ? 1 : 0);
}

// Opens the page (at `hash`), in the workshop (the rules file beside the tabs) unless `mode` says
// otherwise (`home`: the first screen as a visitor sees it).
async function open(page, base, hash, mode = "workshop") {
  await page.goto(base + hash);
  await page.waitForSelector("body[data-ready='1']", { timeout: 60000 });
  await page.waitForFunction(() => window.carto && window.carto.doc, null, { timeout: 60000 });
  if (mode !== "home") await page.evaluate((m) => window.carto.setMode(m), mode);
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  main().catch((e) => { console.error(e); process.exit(1); });
}
void execFileSync;
