// A map of one's own: the map editor (my.toml) started from a bundled map, its problems underlined
// at their line with `carto render --map`'s text, and the rules that name it read, play and measure
// on it as `carto` does with the two files side by side.
import fs from "node:fs";
import path from "node:path";
import { spawnSync } from "node:child_process";
import { assert, native, CARTO } from "./run.mjs";

// The map editor's underlined error ranges, with their line numbers.
async function underlined(page) {
  return page.evaluate(() => {
    const v = window.carto.mapView;
    return [...document.querySelectorAll("#map-editor .cm-lintRange-error")].map((el) => v.state.doc.lineAt(v.posAtDOM(el)).number);
  });
}

export const tests = {
  async "a map of one's own: an error underlined at its line as carto render --map says; the rules play and measure on it"({ page, open, shot }) {
    await open();
    await page.selectOption("#start", "france");
    await page.waitForFunction(() => window.carto.doc && window.carto.doc.name === "france", null, { timeout: 20000 });
    await page.click(".files button[data-file=map]");
    assert(await page.isVisible("#map-editor"), "the map editor shows");
    await page.selectOption("#map-start", "france");
    // The rules now name my.toml; rename the map so the page shows it is this one.
    await page.waitForFunction(() => window.carto.text().includes('map = "my.toml"'), null, { timeout: 10000 });
    await page.evaluate(() => window.carto.setMapText(window.carto.mapText().replace('name = "France"', 'name = "My France"')));
    await page.waitForFunction(() => window.carto.doc.map_svg && window.carto.doc.map_svg.includes("My France")
      && window.carto.lastCheck.errors === 0, null, { timeout: 20000 });
    const files = () => page.evaluate(() => ({ "my.rules": window.carto.text(), "my.toml": window.carto.mapText() }));
    let f = await files();
    const drawn = native(["render", "--map", "my.toml"], f);
    assert(drawn.code === 0, drawn.stderr);
    assert((await page.evaluate(() => window.carto.doc.map_svg)).trim() === drawn.stdout.trim(), "the map drawn is carto render --map my.toml's");
    assert((await page.textContent("#map-summary")) === "my.toml: 0 errors", "the map is clean");

    // A typo in the legend: underlined at its line, with carto render's text; the rules say so too.
    const line = await page.evaluate(() => {
      const v = window.carto.mapView;
      for (let n = 1; n <= v.state.doc.lines; n++) {
        const l = v.state.doc.line(n);
        const at = l.text.indexOf('= "sea"');
        if (at >= 0) { v.dispatch({ selection: { anchor: l.from + at + 6 } }); v.focus(); return n; }
      }
      return 0;
    });
    assert(line > 0, "the legend names the sea");
    await page.keyboard.type("x");
    await page.waitForSelector("#map-editor .cm-lintRange-error", { timeout: 10000 });
    const lines = await underlined(page);
    assert(lines.length === 1 && lines[0] === line, `one error, underlined on line ${line}: ${lines}`);
    f = await files();
    const cli = native(["render", "--map", "my.toml"], f);
    assert(cli.code === 1, "carto render refuses it too");
    const shown = await page.textContent("#map-check-text");
    assert(shown.trim() === cli.stderr.trim(), `the page shows carto render's text:\n${shown}\n---\n${cli.stderr}`);
    assert(shown.includes(`my.toml:${line}:`), "the message names the line");
    await page.waitForFunction(() => window.carto.lastCheck.errors > 0, null, { timeout: 10000 });
    const check = native(["check", "my.rules"], f);
    assert((await page.textContent("#check-text")) === check.stderr, "the rules' problems are carto check's");
    assert((await page.textContent("#map-badge")).includes("1 error"), "the map's tab says so");
    await shot();
    await page.keyboard.press("Backspace");
    await page.waitForFunction(() => !document.querySelector("#map-editor .cm-lintRange-error") && window.carto.lastCheck.errors === 0, null, { timeout: 10000 });

    // Play on it: the board is the map of one's own.
    await page.click("nav button[data-tab=play]");
    await page.click("#play-new");
    await page.waitForFunction(() => window.carto.playView && window.carto.playView.places.length, null, { timeout: 30000 });
    assert(!(await page.evaluate(() => window.carto.playView.error)), "the game runs");
    // Its log (given once the game is over: here the computer plays seat 1 too), with the files
    // downloaded beside it, replays identically.
    await page.selectOption("#play-you-agent", "greedy");
    await page.click("#play-new");
    await page.waitForFunction(() => window.carto.playView?.over && !window.carto.playBusy, null, { timeout: 120000 });
    const dir = native(["--version"]).dir;
    const save = async (click) => {
      const [d] = await Promise.all([page.waitForEvent("download"), page.click(click)]);
      await d.saveAs(path.join(dir, d.suggestedFilename()));
      return d.suggestedFilename();
    };
    const log = await save("#play-log");
    const saved = [];
    page.on("download", (d) => saved.push(d.saveAs(path.join(dir, d.suggestedFilename())).then(() => d.suggestedFilename())));
    await page.click("#save");
    for (let i = 0; i < 50 && saved.length < 2; i++) await page.waitForTimeout(100);
    const names = await Promise.all(saved);
    assert(names.sort().join() === "my.rules,my.toml", "Download files gives my.rules and my.toml: " + names);
    assert(fs.readFileSync(path.join(dir, "my.toml"), "utf8") === (await files())["my.toml"], "the map as edited");
    const rep = spawnSync(CARTO, ["replay", log], { cwd: dir, encoding: "utf8" });
    assert(rep.status === 0 && rep.stdout.includes("the replay is identical"), `carto replay accepts it beside the files: ${rep.stdout}${rep.stderr}`);

    // Measure on it: the page's numbers are carto sim's with my.rules and my.toml side by side.
    await page.click("nav button[data-tab=measure]");
    await page.fill("#sim-games", "20");
    await page.fill("#sim-seed", "7");
    await page.click("#sim-run");
    await page.waitForFunction(() => window.carto.simReport, null, { timeout: 300000 });
    f = await files();
    const sim = native(["sim", "my.rules", "--games", "20", "--seed", "7", "--agents", "greedy", "--report", "--quiet"], f);
    assert(sim.code === 0, sim.stderr);
    assert((await page.textContent("#sim-table")) === sim.stdout, `the page's table is carto sim's:\n${await page.textContent("#sim-table")}\n---\n${sim.stdout}`);

    // The link holds the map too.
    await page.waitForTimeout(300);
    const other = await page.context().newPage();
    await other.goto(page.url());
    await other.waitForFunction(() => window.carto && window.carto.doc && window.carto.doc.map_svg, null, { timeout: 60000 });
    const again = await other.evaluate(() => ({ map: window.carto.mapText(), svg: window.carto.doc.map_svg, start: document.getElementById("map-start").value }));
    assert(again.map === f["my.toml"], "the link reopens the map's text");
    assert(again.svg.includes("My France"), "and the rules use it");
    assert(again.start === "france", "and says what it started from");
  },
};
