// The language server behind the editor (issue 35, C): `carto lsp`'s own server, compiled to
// WebAssembly in a web worker, answers hover, completion, go to definition, references and rename in the page,
// at 1400×1000 and at 390×844; and its hover for a builtin is the native `carto lsp`'s, word for
// word (the same server: the browser and the editors cannot disagree).
import { assert, CARTO } from "./run.mjs";
import { spawn } from "node:child_process";
import path from "node:path";
import { fileURLToPath } from "node:url";

const SHOTS = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..", "..", "target", "browser");

const TEXT = `import "france"
variant "mine" {
  title = "Mine"
}
param bonus: int in 0..9 = 2 "points for a bonus"
change action sell_abroad limit group sale 2
rule extra on placed when bonus > 0 {
  score(player, bonus)
}
`;

// The editor's text set to `text`, and the cursor `add` characters into the `nth` `needle`.
async function cursorAt(page, needle, add = 0, nth = 0) {
  return page.evaluate(([needle, add, nth]) => {
    const v = window.carto.view;
    let at = -1;
    for (let i = 0; i <= nth; i++) at = v.state.doc.toString().indexOf(needle, at + 1);
    v.dispatch({ selection: { anchor: at + add }, scrollIntoView: true });
    v.focus();
    return at + add;
  }, [needle, add, nth]);
}

// The screen point of the `nth` `needle` plus `add` characters.
async function pointAt(page, needle, add = 0) {
  return page.evaluate(([needle, add]) => {
    const v = window.carto.view;
    const at = v.state.doc.toString().indexOf(needle) + add;
    const r = v.coordsAtPos(at);
    return { x: r.left + 2, y: (r.top + r.bottom) / 2 };
  }, [needle, add]);
}

async function start(page, open) {
  await open();
  await page.evaluate((t) => window.carto.setText(t), TEXT);
  await page.waitForFunction(() => window.carto.lastCheck && window.carto.lastCheck.summary.includes("0 errors"), null, { timeout: 20000 });
}

async function hoverScore(page) {
  await page.mouse.move(0, 0);
  const p = await pointAt(page, "score(", 2);
  await page.mouse.move(p.x, p.y);
  await page.waitForSelector(".cm-lsp-hover-tooltip", { timeout: 15000 });
  return page.textContent(".cm-lsp-hover-tooltip");
}

async function everything(page, open, name) {
  await start(page, open);
  // Hover: the builtin's signature and doc, from the server.
  const hover = await hoverScore(page);
  const entry = await page.evaluate(() => window.carto.bundled.builtins.find((b) => b.name === "score"));
  assert(hover.includes(entry.doc), `the builtin's doc in the hover: ${hover}`);
  await page.screenshot({ path: path.join(SHOTS, `web-lsp-${name}-hover.png`) });
  // Hover a name the import defines: the action's sentence from france.
  await page.mouse.move(0, 0);
  const q = await pointAt(page, "sell_abroad", 3);
  await page.mouse.move(q.x, q.y);
  await page.waitForFunction(() => document.querySelector(".cm-lsp-hover-tooltip")?.textContent.includes("sell_abroad"), null, { timeout: 15000 });
  await page.mouse.move(0, 0);

  // Completion at `bon` in a new line: the parameter is offered (the server's names in scope).
  const line = await page.evaluate(() => {
    const v = window.carto.view;
    const l = v.state.doc.line(8);
    v.dispatch({ changes: { from: l.to, insert: "\n  let x = bon" }, selection: { anchor: l.to + 13 } });
    v.focus();
    return l.number;
  });
  await page.keyboard.press("Control+Space");
  await page.waitForSelector(".cm-tooltip-autocomplete", { timeout: 15000 });
  const options = await page.$$eval(".cm-tooltip-autocomplete li", (els) => els.map((e) => e.textContent));
  assert(options.some((o) => o.startsWith("bonus")), `bonus is offered after line ${line}: ${options.join(", ")}`);
  await page.screenshot({ path: path.join(SHOTS, `web-lsp-${name}-completion.png`) });
  await page.keyboard.press("Escape");
  await page.evaluate((t) => window.carto.setText(t), TEXT);

  // Go to definition in the file: from a use of `bonus` to its parameter.
  await cursorAt(page, "bonus)", 2);
  await page.keyboard.press("F12");
  await page.waitForFunction(() => {
    const v = window.carto.view;
    return v.state.doc.lineAt(v.state.selection.main.head).number === 5;
  }, null, { timeout: 15000 });
  // References (Shift+F12): the declaration and the two uses, listed in a panel.
  await cursorAt(page, "bonus >", 1);
  await page.keyboard.press("Shift+F12");
  await page.waitForSelector(".cm-lsp-reference-panel .cm-lsp-reference", { timeout: 15000 });
  const refs = await page.$$eval(".cm-lsp-reference-panel .cm-lsp-reference", (els) => els.map((e) => e.textContent));
  assert(refs.length === 3 && refs.every((r) => r.includes("bonus")), `three references: ${refs.join(" | ")}`);
  await page.screenshot({ path: path.join(SHOTS, `web-lsp-${name}-references.png`) });
  await page.keyboard.press("Escape");
  // ... and into the imported bundled file: france.rules shown read-only at the action.
  await cursorAt(page, "sell_abroad", 4);
  await page.keyboard.press("F12");
  await page.waitForSelector(".peek:not([hidden])", { timeout: 15000 });
  const peek = await page.evaluate(() => {
    const box = document.querySelector(".peek");
    const view = box.peekView;
    return { file: box.querySelector(".peek-file").textContent, line: view.state.doc.lineAt(view.state.selection.main.head).text };
  });
  assert(peek.file === "rules/france.rules", `the bundled file is shown: ${peek.file}`);
  assert(peek.line.includes("action sell_abroad"), `at the action: ${peek.line}`);
  const visible = await page.evaluate(() => {
    const line = [...document.querySelectorAll(".peek .cm-line")].find((l) => l.textContent.includes("action sell_abroad"));
    if (!line) return false;
    const r = line.getBoundingClientRect();
    const box = document.querySelector(".peek").getBoundingClientRect();
    return r.top >= box.top && r.bottom <= box.bottom + 1;
  });
  assert(visible, "the action's line is in view in the read-only look");
  await page.screenshot({ path: path.join(SHOTS, `web-lsp-${name}-definition.png`) });
  // The map's tab hides it with the rules; Close closes it.
  await page.evaluate(() => window.carto.showFile("map"));
  assert(await page.evaluate(() => document.querySelector(".peek").hidden), "the look goes with the rules' tab");
  await page.evaluate(() => window.carto.showFile("rules"));
  await cursorAt(page, "sell_abroad", 4);
  await page.keyboard.press("F12");
  await page.waitForSelector(".peek:not([hidden])", { timeout: 15000 });
  await page.click(".peek-close");
  assert(await page.evaluate(() => document.querySelector(".peek").hidden), "Close closes it");

  // Rename the parameter (F2): every use changes, nothing else.
  await cursorAt(page, "bonus >", 1);
  await page.keyboard.press("F2");
  await page.waitForSelector(".cm-lsp-rename-panel input[name=name]", { timeout: 15000 });
  await page.fill(".cm-lsp-rename-panel input[name=name]", "reward");
  await page.screenshot({ path: path.join(SHOTS, `web-lsp-${name}-rename.png`) });
  await page.keyboard.press("Enter");
  await page.waitForFunction(() => !window.carto.text().includes("bonus:"), null, { timeout: 15000 });
  const text = await page.evaluate(() => window.carto.text());
  assert(text === TEXT.replaceAll("bonus:", "reward:").replaceAll("bonus >", "reward >").replaceAll("bonus)", "reward)"), `renamed: ${text}`);
  assert(text.includes("points for a bonus"), "the doc string is not renamed");
  // A name the bundled file defines cannot be renamed: the editor says why.
  await cursorAt(page, "sell_abroad", 2);
  await page.keyboard.press("F2");
  await page.waitForSelector(".cm-lsp-rename-panel input[name=name]", { timeout: 15000 });
  await page.fill(".cm-lsp-rename-panel input[name=name]", "sell_far");
  await page.keyboard.press("Enter");
  await page.waitForFunction(() => document.body.textContent.includes("cannot be edited"), null, { timeout: 15000 });
  assert((await page.evaluate(() => window.carto.text())).includes("sell_abroad"), "nothing renamed");
}

// A session with the native `carto lsp` on the page's own file name: the hover answer for `at`.
function nativeHover(text, at) {
  return new Promise((ok, fail) => {
    const child = spawn(CARTO, ["lsp"], { stdio: ["pipe", "pipe", "inherit"] });
    let buf = Buffer.alloc(0);
    const send = (m) => {
      const body = Buffer.from(JSON.stringify(m));
      child.stdin.write(`Content-Length: ${body.length}\r\n\r\n`);
      child.stdin.write(body);
    };
    child.stdout.on("data", (d) => {
      buf = Buffer.concat([buf, d]);
      for (;;) {
        const head = buf.indexOf("\r\n\r\n");
        if (head < 0) return;
        const len = Number(/Content-Length: (\d+)/i.exec(buf.subarray(0, head).toString())[1]);
        if (buf.length < head + 4 + len) return;
        const msg = JSON.parse(buf.subarray(head + 4, head + 4 + len).toString());
        buf = buf.subarray(head + 4 + len);
        if (msg.id === 1) {
          send({ jsonrpc: "2.0", method: "initialized", params: {} });
          send({ jsonrpc: "2.0", method: "textDocument/didOpen", params: { textDocument: { uri: "file:///playground/my.rules", languageId: "carto", version: 0, text } } });
          send({ jsonrpc: "2.0", id: 2, method: "textDocument/hover", params: { textDocument: { uri: "file:///playground/my.rules" }, position: at } });
        } else if (msg.id === 2) {
          send({ jsonrpc: "2.0", id: 3, method: "shutdown" });
          send({ jsonrpc: "2.0", method: "exit" });
          ok(msg.result);
        }
      }
    });
    child.on("error", fail);
    send({ jsonrpc: "2.0", id: 1, method: "initialize", params: { processId: null, rootUri: "file:///playground", capabilities: {} } });
  });
}

export const tests = {
  async "a map attribute goes to its line in the map of one's own (my.toml, a file the server sees)"({ page, open, shot }) {
    await open();
    await page.evaluate(() => window.carto.setMapText(window.carto.bundled.maps.france));
    await page.evaluate(() => window.carto.setText(`import "france"
variant "mine" {
  title = "Mine"
  map = "my.toml"
}
rule taste on placed when turn_tile().square.wine == turn_tile().square.wine {
  score(player, 1)
}
`));
    await page.waitForFunction(() => window.carto.lastCheck && window.carto.lastCheck.errors === 0, null, { timeout: 20000 });
    await cursorAt(page, "wine ==", 1);
    await page.keyboard.press("F12");
    await page.waitForFunction(() => !document.getElementById("map-editor").hidden, null, { timeout: 15000 });
    const at = await page.evaluate(() => {
      const v = window.carto.mapView;
      const l = v.state.doc.lineAt(v.state.selection.main.head);
      return { line: l.number, text: l.text, head: v.state.selection.main.head - l.from };
    });
    // maps/france.toml's line 45 is the first to give a square `wine`: `attrs = { wine = "purple" }`.
    assert(at.line === 45 && at.text.slice(at.head).startsWith("wine ="), `at the attribute: ${JSON.stringify(at)}`);
    await shot();
  },


  async "hover, completion, definition and rename in the editor at 1400×1000"({ page, open }) {
    await everything(page, open, "wide");
  },

  async "hover, completion, definition and rename in the editor at 390×844"({ page, open }) {
    await page.setViewportSize({ width: 390, height: 844 });
    await everything(page, open, "phone");
  },

  async "a hover shows a stranger's comment as text: no element of its HTML runs"({ page, open, shot }) {
    await open();
    await page.evaluate(() => window.carto.setText(`import "base"
variant "mine" {
  title = "Mine"
}
# Scores one. <img src="x" onerror="window.pwned = 1"> <b onclick="window.pwned = 2">bold</b> <a href="javascript:window.pwned = 3">link</a>
rule taste on placed {
  score(player, 1)
}
`));
    await page.waitForFunction(() => window.carto.lastCheck && window.carto.lastCheck.errors === 0, null, { timeout: 20000 });
    const p = await pointAt(page, "taste", 2);
    await page.mouse.move(p.x, p.y);
    await page.waitForFunction(() => document.querySelector(".cm-lsp-hover-tooltip")?.textContent.includes("Scores one"), null, { timeout: 15000 });
    const tip = await page.evaluate(() => {
      const t = document.querySelector(".cm-lsp-hover-tooltip");
      const attrs = [...t.querySelectorAll("*")].flatMap((e) => [...e.attributes].map((a) => `${e.tagName}.${a.name}`));
      return { imgs: t.querySelectorAll("img, script, iframe").length, attrs, text: t.textContent };
    });
    assert(tip.imgs === 0, `no image or script element: ${JSON.stringify(tip)}`);
    assert(!tip.attrs.some((a) => /\.(on\w+|src|href)$/i.test(a)), `no handler, source or script link: ${tip.attrs}`);
    assert(tip.text.includes("bold") && tip.text.includes("link"), `the words stay: ${tip.text}`);
    await page.click(".cm-lsp-hover-tooltip", { force: true }).catch(() => {});
    assert(await page.evaluate(() => window.pwned === undefined), "nothing ran");
    await shot();
  },

  async "the browser's hover for a builtin is carto lsp's, word for word"({ page, open, shot }) {
    await start(page, open);
    const at = await page.evaluate(() => {
      const v = window.carto.view;
      const i = v.state.doc.toString().indexOf("score(") + 2;
      const l = v.state.doc.lineAt(i);
      return { line: l.number - 1, character: i - l.from };
    });
    const browser = await page.evaluate((at) => window.carto.lsp.sync() ?? window.carto.lsp.request("textDocument/hover", { textDocument: { uri: "file:///playground/my.rules" }, position: at }), at);
    const cli = await nativeHover(TEXT, at);
    assert(cli && cli.contents.value.length > 20, `the native server answers: ${JSON.stringify(cli)}`);
    assert(JSON.stringify(browser) === JSON.stringify(cli), `the same answer:\nbrowser ${JSON.stringify(browser)}\nnative  ${JSON.stringify(cli)}`);
    // And the tooltip shows that answer: each line of its text, Markdown's marks aside.
    const shown = (await hoverScore(page)).replace(/\s+/g, " ");
    const lines = cli.contents.value.split("\n").filter((s) => !s.startsWith("```"));
    for (const l of lines.map((s) => s.replace(/[`*_]/g, "").trim()).filter((s) => s && !/^[-|:]+$/.test(s))) {
      assert(shown.replace(/[`*_]/g, "").includes(l.replace(/\s+/g, " ")), `the tooltip shows “${l}”: ${shown}`);
    }
    await shot();
  },
};
