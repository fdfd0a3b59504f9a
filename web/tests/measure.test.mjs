// Measure and share: a 200-game sim in the Web Worker gives carto sim's table; a link reopens the state.
import { assert, native } from "./run.mjs";

export const tests = {
  async "200 games in the worker give exactly carto sim's table"({ page, open, shot }) {
    await open();
    await page.click("nav button[data-tab=measure]");
    await page.fill("#sim-games", "200");
    await page.fill("#sim-seed", "7");
    await page.click("#sim-run");
    await page.waitForFunction(() => window.carto.simReport, null, { timeout: 300000 });
    const table = await page.textContent("#sim-table");
    const cli = native(["sim", "base", "--games", "200", "--seed", "7", "--quiet"]);
    assert(cli.code === 0, cli.stderr);
    assert(table === cli.stdout, `the page's table is carto sim's:\n${table}\n---\n${cli.stdout}`);
    assert(await page.isVisible("#sim-chart svg"), "the chart is drawn");
    await shot();
  },

  async "the second setting is a second parameter form: its numbers are carto sim --vs's"({ page, open, shot }) {
    await open();
    await page.click("nav button[data-tab=measure]");
    await page.check("#sim-vs-on");
    await page.waitForSelector("#vs-road_tile", { timeout: 10000 });
    assert((await page.inputValue("#vs-road_tile")) === "1", "the form starts at the first setting's values");
    assert((await page.getAttribute("#vs-followers", "max")) !== null, "with the parameters' ranges");
    await page.fill("#vs-road_tile", "3");
    await page.press("#vs-road_tile", "Enter");
    await page.waitForFunction(() => document.getElementById("sim-vs-list").textContent.includes("--vs road_tile=3"), null, { timeout: 10000 });
    await page.fill("#sim-games", "50");
    await page.fill("#sim-seed", "7");
    await page.click("#sim-run");
    await page.waitForFunction(() => window.carto.simReport, null, { timeout: 300000 });
    const table = await page.textContent("#sim-table");
    const cli = native(["sim", "base", "--games", "50", "--seed", "7", "--vs", "road_tile=3", "--quiet"]);
    assert(cli.code === 0, cli.stderr);
    assert(table === cli.stdout, `the page's table is carto sim --vs's:\n${table}\n---\n${cli.stdout}`);
    assert((await page.textContent("#sim-command")).includes("--vs road_tile=3"), "the command line says --vs");
    await shot();
  },

  async "a house rule measured against the variant it changes: carto sim --vs-rules's numbers"({ page, open, shot }) {
    await open();
    await page.selectOption("#start", "template:house");
    await page.waitForFunction(() => window.carto.doc && window.carto.doc.name === "my-france", null, { timeout: 20000 });
    await page.click("nav button[data-tab=measure]");
    await page.check("#sim-vs-on");
    await page.selectOption("#sim-vs-rules", "france");
    await page.waitForFunction(() => document.getElementById("sim-vs-list").textContent.includes("--vs-rules france"), null, { timeout: 10000 });
    await page.fill("#sim-games", "30");
    await page.fill("#sim-seed", "7");
    await page.click("#sim-run");
    await page.waitForFunction(() => window.carto.simReport, null, { timeout: 300000 });
    const table = await page.textContent("#sim-table");
    const text = await page.evaluate(() => window.carto.text());
    const cli = native(["sim", "my.rules", "--vs-rules", "france", "--games", "30", "--seed", "7", "--quiet"], { "my.rules": text });
    assert(cli.code === 0, cli.stderr);
    assert(table === cli.stdout, `the page's table is carto sim --vs-rules's:\n${table}\n---\n${cli.stdout}`);
    assert(table.includes("b: rules france"), "the table says what b is");
    await shot();
  },

  async "a link reopens the same rules and parameters"({ page, open, shot }) {
    await open();
    await page.evaluate(() => window.carto.setText(window.carto.text().replace("param road_tile: int = 1", "param road_tile: int = 3")));
    await page.waitForFunction(() => window.carto.doc.markdown.includes("3 points") || window.carto.text().includes("road_tile: int = 3"));
    await page.fill("#param-city_tile", "5");
    await page.press("#param-city_tile", "Enter");
    await page.waitForFunction(() => location.hash.length > 10 && window.carto.sets.city_tile === "5");
    await page.waitForTimeout(300);
    const url = page.url();
    const before = await page.evaluate(() => ({ text: window.carto.text(), md: window.carto.doc.markdown }));
    const other = await page.context().newPage();
    await other.goto(url);
    await other.waitForFunction(() => window.carto && window.carto.doc, null, { timeout: 60000 });
    const after = await other.evaluate(() => ({ text: window.carto.text(), md: window.carto.doc.markdown, v: document.getElementById("param-city_tile").value }));
    assert(after.text === before.text, "the same rules text");
    assert(after.v === "5", "the same parameter");
    assert(after.md === before.md, "the same page");
    await other.screenshot({ path: "/dev/null" }).catch(() => {});
    await shot();
  },
};
