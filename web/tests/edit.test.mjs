// Write and read: diagnostics as you type (carto check's text, at the right line), the page and the
// map as `carto doc` and `carto render --map` make them, parameters as a form.
import { assert, native } from "./run.mjs";

// The editor's underlined error ranges, with their line numbers.
async function underlined(page) {
  return page.evaluate(() => {
    const v = window.carto.view;
    return [...document.querySelectorAll(".cm-lintRange-error")].map((el) => v.state.doc.lineAt(v.posAtDOM(el)).number);
  });
}

// Puts the cursor after the first `needle` on line `line` (1-based), and focuses the editor.
async function cursorAfter(page, line, needle) {
  await page.evaluate(([line, needle]) => {
    const v = window.carto.view;
    const l = v.state.doc.line(line);
    const at = l.from + l.text.indexOf(needle) + needle.length;
    v.dispatch({ selection: { anchor: at } });
    v.focus();
  }, [line, needle]);
}

export const tests = {
  async "a typo is underlined at its line with carto check's text, and goes when fixed"({ page, open, shot }) {
    await open();
    assert((await underlined(page)).length === 0, "base has no error");
    // Line 27 of rules/base.rules: `score(feature.winners, feature.tiles * road_tile)`.
    await cursorAfter(page, 27, "road_tile");
    await page.keyboard.type("s");
    await page.waitForSelector(".cm-lintRange-error", { timeout: 10000 });
    const lines = await underlined(page);
    assert(lines.length === 1 && lines[0] === 27, "one error, underlined on line 27: " + lines);
    const shown = await page.textContent("#check-text");
    const text = await page.evaluate(() => window.carto.text());
    const cli = native(["check", "my.rules"], { "my.rules": text });
    assert(cli.code === 1, "carto check refuses it too");
    assert(shown === cli.stderr, `the page shows exactly carto check's text:\n${shown}\n---\n${cli.stderr}`);
    assert(shown.includes("my.rules:27:"), "the message names line 27");
    assert((await page.textContent("#summary")) === cli.stdout.trim(), "the summary line is check's");
    await shot();
    await page.keyboard.press("Backspace");
    await page.waitForFunction(() => !document.querySelector(".cm-lintRange-error") && window.carto.lastCheck.errors === 0, null, { timeout: 10000 });
    assert((await page.textContent("#summary")) === "my.rules: 0 errors, 0 warnings", "clean again");
  },

  async "a parameter changed in the form changes the page as carto doc --set does"({ page, open, shot }) {
    await open();
    const before = await page.evaluate(() => window.carto.doc.markdown);
    assert(before === native(["doc", "base"]).stdout, "the page is carto doc's");
    await page.fill("#param-road_tile", "4");
    await page.press("#param-road_tile", "Enter");
    await page.waitForFunction((b) => window.carto.doc.markdown !== b, before, { timeout: 10000 });
    const after = await page.evaluate(() => window.carto.doc.markdown);
    assert(after === native(["doc", "base", "--set", "road_tile=4"]).stdout, "the page is carto doc --set road_tile=4's");
    assert((await page.textContent("#page")).length > 500, "the page is drawn");
    // A value outside the range is refused with carto's message, and the page stays.
    await page.fill("#param-followers", "99");
    await page.press("#param-followers", "Enter");
    await page.waitForFunction(() => document.getElementById("param-error").textContent.includes("followers"), null, { timeout: 10000 });
    await shot();
  },

  async "a bundled variant shows its map as carto render --map draws it"({ page, open, shot }) {
    await open();
    await page.selectOption("#start", "france");
    await page.waitForFunction(() => window.carto.doc && window.carto.doc.name === "france", null, { timeout: 20000 });
    const svg = await page.evaluate(() => window.carto.doc.map_svg);
    const cli = native(["render", "--map", "france"]).stdout;
    assert(svg.trim() === cli.trim(), "the map is carto render --map france's");
    assert(await page.isVisible("#map svg"), "the map is drawn");
    await shot();
  },

  async "hovering a builtin shows its doc; completion offers the names in scope"({ page, open, shot }) {
    await open();
    // Line 27: `  score(feature.winners, …)`: hover the builtin `score`.
    const box = await page.evaluate(() => {
      const v = window.carto.view;
      const at = v.state.doc.line(27).from + 3;
      const r = v.coordsAtPos(at);
      return { x: r.left + 2, y: (r.top + r.bottom) / 2 };
    });
    await page.mouse.move(box.x, box.y);
    await page.waitForSelector(".cm-lsp-hover-tooltip", { timeout: 10000 });
    const hover = await page.textContent(".cm-lsp-hover-tooltip");
    const entry = await page.evaluate(() => window.carto.bundled.builtins.find((b) => b.name === "score"));
    assert(hover.includes(entry.signature) && hover.includes(entry.doc), `the builtin table's line: ${hover}`);
    await shot();
    // Completion at the end of line 27's `road_t`: the parameter road_tile is offered.
    await page.mouse.move(0, 0);
    await page.evaluate(() => {
      const v = window.carto.view;
      const l = v.state.doc.line(28);
      v.dispatch({ changes: { from: l.from, insert: "  let x = road_t\n" }, selection: { anchor: l.from + 16 } });
      v.focus();
    });
    await page.keyboard.press("Control+Space");
    await page.waitForSelector(".cm-tooltip-autocomplete", { timeout: 10000 });
    const options = await page.$$eval(".cm-tooltip-autocomplete li", (els) => els.map((e) => e.textContent));
    assert(options.some((o) => o.startsWith("road_tile")), "road_tile is offered: " + options.join(", "));
  },
};
