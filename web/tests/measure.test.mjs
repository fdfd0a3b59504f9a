// Measure: `carto sim --report` in the Web Worker gives the command line's report (text and JSON,
// sentences included); a house rule is compared with the variant it changes, yours minus the
// original, in the rules' names, with the win share drawn; the second setting's form shows the
// original's values; a link carries the whole comparison; the tuner gives `carto tune`'s table;
// Stop stops both; a game that fails says where, as the command line does; nothing scrolls sideways
// on a phone.
import { assert, native } from "./run.mjs";
import { fileURLToPath } from "node:url";
import zlib from "node:zlib";
import fs from "node:fs";

const SHOT = (name) => fileURLToPath(new URL(`../../target/browser/web-measure-${name}.png`, import.meta.url));

const PHONE = { width: 390, height: 844 };
// A house rule of France that changes a parameter's default (France's is 9).
const HOUSE = `import "france"
variant "my-france" {
  title = "France, house rules"
}
override sale_town = 12
remove action sell_abroad
`;

// A rule that fails when it runs: every placement divides by a parameter that is 0.
const SHARE = `import "base"
variant "share" {
  title = "Share"
}

param parts: int = 0

rule share on placed {
  score(player, 1 + 10 / parts)
}
`;

async function measureTab(page, open, text) {
  await open();
  if (text) {
    await page.evaluate((t) => window.carto.setText(t), text);
    await page.waitForFunction(() => window.carto.doc && window.carto.doc.name === "my-france", null, { timeout: 20000 });
  }
  await page.click("nav button[data-tab=measure]");
}

async function run(page, games, seed) {
  await page.fill("#sim-games", String(games));
  await page.fill("#sim-seed", String(seed));
  await page.evaluate(() => { window.carto.simReport = null; });
  await page.click("#sim-run");
  await page.waitForFunction(() => window.carto.simReport, null, { timeout: 600000 });
  return page.evaluate(() => window.carto.simReport);
}

// Two JSON texts are equal, else where they first differ.
function sameJson(a, b, what) {
  const [x, y] = [JSON.stringify(a), JSON.stringify(b)];
  let i = 0;
  while (i < x.length && x[i] === y[i]) i++;
  assert(x === y, `${what}: they differ at ${i}: page …${x.slice(i - 80, i + 80)}… command line …${y.slice(i - 80, i + 80)}…`);
}

// Runs SHARE in the Measure tab: its error is carto sim's, with the place, the caret line and the
// command that replays the game.
async function failingRun(page, open) {
  await open();
  await page.evaluate((t) => window.carto.setText(t), SHARE);
  await page.waitForFunction(() => window.carto.doc && window.carto.doc.name === "share", null, { timeout: 20000 });
  await page.click("nav button[data-tab=measure]");
  await page.fill("#sim-games", "2");
  await page.fill("#sim-seed", "1");
  await page.click("#sim-run");
  await page.waitForFunction(() => document.getElementById("sim-error").textContent.length > 0, null, { timeout: 120000 });
  const shown = await page.textContent("#sim-error");
  const cli = native(["sim", "my.rules", "--games", "2", "--seed", "1", "--agents", "greedy", "--report", "--quiet"], { "my.rules": SHARE });
  assert(cli.code === 1, `carto sim fails too: ${cli.stderr}`);
  assert(shown.trim() === cli.stderr.trim(), `the page's error is carto sim's:\n${shown}\n---\n${cli.stderr}`);
  assert(shown.includes("my.rules:9:21") && shown.includes("failed here"), `the place and the caret line: ${shown}`);
  assert(shown.includes("replay it alone: carto play my.rules --seed 1"), `how to replay it: ${shown}`);
  await page.$eval("#sim-error", (e) => e.scrollIntoView());
}

// The page's widest point is the screen's: nothing scrolls sideways.
async function noSideways(page, what) {
  const w = await page.evaluate(() => [document.documentElement.scrollWidth, window.innerWidth]);
  assert(w[0] <= w[1], `${what}: the page is ${w[0]} px wide on a ${w[1]} px screen`);
}

export const tests = {
  async "greedy games in the worker give exactly carto sim --report's text and JSON"({ page, open, shot }) {
    await measureTab(page, open);
    assert((await page.inputValue("#sim-agents")) === "greedy", "the default players play well (greedy)");
    const r = await run(page, 24, 7);
    const cli = native(["sim", "base", "--games", "24", "--seed", "7", "--agents", "greedy", "--report", "--quiet"]);
    assert(cli.code === 0, cli.stderr);
    assert(r.table === cli.stdout, `the page's report is carto sim --report's:\n${r.table}\n---\n${cli.stdout}`);
    assert((await page.textContent("#sim-table")) === cli.stdout, "shown as it is");
    const json = native(["sim", "base", "--games", "24", "--seed", "7", "--agents", "greedy", "--report", "--quiet", "--format", "json"]);
    sameJson(r.report, JSON.parse(json.stdout).report, "the report's JSON is the command line's");
    assert((await page.textContent("#sim-command")).endsWith("--report"), "the command says --report");
    const bars = await page.$$eval(".share-chart .share-bar", (b) => b.length);
    assert(bars === 2, `the win share of both players is drawn (${bars} bars)`);
    assert((await page.textContent(".sim-played")) === "24 games, played by ann (greedy), bob (greedy).", "who played is said");
    const lines = await page.$$eval("#sim-words li", (l) => l.map((x) => x.textContent));
    assert(lines.some((l) => l.startsWith("lead changes per game: ")), `the report's figures are listed: ${lines.join(" | ")}`);
    await shot();
  },

  async "the second setting is a second parameter form: its numbers are carto sim --vs's"({ page, open, shot }) {
    await measureTab(page, open);
    await page.check("#sim-vs-on");
    await page.waitForSelector("#vs-road_tile", { timeout: 10000 });
    assert((await page.inputValue("#vs-road_tile")) === "1", "the form starts at the first setting's values");
    assert((await page.getAttribute("#vs-followers", "max")) !== null, "with the parameters' ranges");
    await page.fill("#vs-road_tile", "3");
    await page.press("#vs-road_tile", "Enter");
    await page.waitForFunction(() => document.getElementById("sim-vs-list").textContent.includes("--vs road_tile=3"), null, { timeout: 10000 });
    const r = await run(page, 16, 7);
    const cli = native(["sim", "base", "--games", "16", "--seed", "7", "--agents", "greedy", "--vs", "road_tile=3", "--report", "--quiet"]);
    assert(cli.code === 0, cli.stderr);
    assert(r.table === cli.stdout, `the page's table is carto sim --vs's:\n${r.table}\n---\n${cli.stdout}`);
    assert((await page.textContent("#sim-command")).includes("--vs road_tile=3"), "the command line says --vs");
    const labels = await page.$$eval(".share-label", (l) => [...new Set(l.map((x) => x.textContent))]);
    assert(labels.join("|") === "Carcassonne|your values (road_tile=3)", `the bars name the settings: ${labels}`);
    await shot();
  },

  async "the original's form shows the original's values, and the run uses them (36 A.3)"({ page, open, shot }) {
    await measureTab(page, open, HOUSE);
    assert(await page.isChecked("#sim-vs-on"), "a house rule is compared with the variant it imports");
    assert((await page.inputValue("#sim-vs-rules")) === "france", "France is the original");
    await page.click("#sim-vs-values summary");
    await page.waitForSelector("#vs-sale_town", { timeout: 10000 });
    const v = await page.inputValue("#vs-sale_town");
    assert(v === "9", `the original's sale_town is France's 9, not the house rule's 12 (the form says ${v})`);
    assert(!(await page.textContent("#sim-vs-list")).includes("--vs "), "nothing is changed until the form is");
    await page.fill("#vs-sale_town", "10");
    await page.press("#vs-sale_town", "Enter");
    await page.waitForFunction(() => document.getElementById("sim-vs-list").textContent.includes("--vs sale_town=10"), null, { timeout: 10000 });
    const r = await run(page, 12, 5);
    const cli = native(["sim", "my.rules", "--vs-rules", "france", "--vs", "sale_town=10", "--games", "12", "--seed", "5", "--agents", "greedy", "--report", "--quiet"], { "my.rules": HOUSE });
    assert(cli.code === 0, cli.stderr);
    assert(r.table === cli.stdout, `carto sim --vs-rules france --vs sale_town=10's numbers:\n${r.table}\n---\n${cli.stdout}`);
    await shot();
  },

  async "a house rule against France: yours minus the original, in the rules' names, drawn and in sentences"({ page, open, shot }) {
    await measureTab(page, open, HOUSE);
    const r = await run(page, 16, 7);
    const args = ["sim", "my.rules", "--vs-rules", "france", "--games", "16", "--seed", "7", "--agents", "greedy", "--report", "--quiet"];
    const cli = native(args, { "my.rules": HOUSE });
    assert(r.table === cli.stdout, `carto sim --vs-rules's report:\n${r.table}\n---\n${cli.stdout}`);
    assert(cli.stdout.includes("the original: france; yours: my.rules"), "the command line's original is France");
    const json = JSON.parse(native([...args, "--format", "json"], { "my.rules": HOUSE }).stdout).report;
    sameJson(r.report, json, "the report's JSON (its sentences) is the command line's");
    // The page's words are the command line's: the headline and one sentence per figure.
    const words = await page.$$eval("#sim-words .sim-headline li, #sim-words .sim-figures li", (l) => l.map((x) => x.textContent));
    const want = json.headline.concat(json.figures.map((f) => f.sentence)).map((w) => w.replace(/`/g, "")); // names are set as code
    assert(words.join("\n") === want.join("\n"), `the page says the command line's sentences:\n${words.join("\n")}`);
    // Yours minus the original: the house rule removes sell_abroad, so its count falls to 0.
    const sell = json.figures.find((f) => f.figure === "action: sell_abroad");
    assert(sell && sell.yours.mean === 0 && sell.original.mean > 0 && sell.difference.mean < 0, `sell_abroad: yours minus the original is negative: ${JSON.stringify(sell)}`);
    // The names: France and the house rule's title; no a, b or (vs).
    const labels = await page.$$eval(".share-label", (l) => [...new Set(l.map((x) => x.textContent))]);
    assert(labels.join("|") === "France|France, house rules", `the bars name the rules: ${labels}`);
    const shown = await page.textContent("#tab-measure");
    assert(!/\(vs\)|\bb-a\b/.test(shown.replace(/<pre[\s\S]*<\/pre>/, "")), "no (vs) or b-a in the page's words");
    const names = (await page.textContent(".sim-names")).replace(/\s+/g, " ");
    assert(names.includes("the original: France; yours: France, house rules"), `the names are said: ${names}`);
    // Drawn: per player two bars whose widths are the shares, each with its interval.
    const drawn = await page.$$eval(".share-bar", (bs) => bs.map((b) => [b.querySelector(".share-fill").style.width, b.querySelector(".share-ci").style.width]));
    const wins = json.figures.filter((f) => f.figure === "win");
    const expect = wins.flatMap((f) => [f.original, f.yours]).map((e) => `${e.mean * 100}%`);
    assert(drawn.map((d) => d[0]).join() === expect.join(), `the bars are the win shares: ${drawn} vs ${expect}`);
    assert(drawn.every((d) => parseFloat(d[1]) > 0), "every bar has its interval");
    await shot();
  },

  async "a link carries the whole comparison: the friend sees the same setup and the same numbers"({ page, open, shot }) {
    await measureTab(page, open, HOUSE);
    await page.click("#sim-vs-values summary");
    await page.waitForSelector("#vs-sale_town", { timeout: 10000 });
    await page.fill("#vs-sale_town", "10");
    await page.press("#vs-sale_town", "Enter");
    await page.fill("#sim-agents", "greedy,random");
    await page.fill("#sim-players", "ann,bob");
    await page.selectOption("#tune-param", "sale_town");
    await page.fill("#tune-values", "sale_town=8..10");
    const mine = await run(page, 10, 11);
    await page.click("#sim-share");
    await page.waitForTimeout(300);
    const url = page.url();
    const friend = await page.context().browser().newContext({ viewport: { width: 1400, height: 1000 } });
    const other = await friend.newPage();
    await other.goto(url);
    await other.waitForFunction(() => window.carto && window.carto.doc && window.carto.doc.name === "my-france", null, { timeout: 60000 });
    assert(await other.isVisible("#sim-run"), "the link opens the Measure tab");
    const setup = await other.evaluate(() => ({
      text: window.carto.text(), vs: document.getElementById("sim-vs-rules").value, on: document.getElementById("sim-vs-on").checked,
      sale: document.getElementById("vs-sale_town")?.value, games: document.getElementById("sim-games").value,
      seed: document.getElementById("sim-seed").value, agents: document.getElementById("sim-agents").value,
      players: document.getElementById("sim-players").value,
      tune: [document.getElementById("tune-param").value, document.getElementById("tune-values").value],
    }));
    assert(JSON.stringify(setup) === JSON.stringify({ text: HOUSE, vs: "france", on: true, sale: "10", games: "10", seed: "11", agents: "greedy,random", players: "ann,bob", tune: ["sale_town", "sale_town=8..10"] }), `the same setup: ${JSON.stringify(setup)}`);
    const theirs = await run(other, 10, 11);
    assert(theirs.table === mine.table, "the same numbers");
    const cli = native(["sim", "my.rules", "--vs-rules", "france", "--vs", "sale_town=10", "--games", "10", "--seed", "11", "--agents", "greedy,random", "--players", "ann,bob", "--report", "--quiet"], { "my.rules": HOUSE });
    assert(theirs.table === cli.stdout, "the command line's numbers");
    await other.screenshot({ path: SHOT("link-friend") }).catch(() => {});
    await friend.close();
    await shot();
  },

  async "the tuner gives carto tune's table, with progress, and Stop stops it"({ page, open, shot }) {
    await measureTab(page, open);
    await page.waitForSelector("#tune-param option", { state: "attached", timeout: 10000 });
    await page.selectOption("#tune-param", "road_tile");
    await page.fill("#tune-values", "road_tile=0..3");
    await page.fill("#sim-seed", "3");
    await page.fill("#tune-games", "96");
    await page.fill("#tune-first", "8");
    await page.click("#tune-run");
    await page.waitForFunction(() => window.carto.tuneReport, null, { timeout: 600000 });
    const r = await page.evaluate(() => window.carto.tuneReport);
    const cli = native(["tune", "base", "road_tile=0..3", "--target", "balance", "--games", "96", "--first-round", "8", "--seed", "3", "--agents", "greedy", "--quiet"]);
    assert(cli.code === 0, cli.stderr);
    assert(r.table === cli.stdout, `the page's table is carto tune's:\n${r.table}\n---\n${cli.stdout}`);
    assert((await page.textContent("#tune-command")).startsWith("carto tune base road_tile=0..3 --target balance --games 96"), "the command is shown");
    const rows = await page.$$eval(".tune-row:not(.tune-axis-row)", (rs) => rs.map((x) => x.textContent));
    assert(rows.length === 4 && rows.some((x) => x.includes("best")), `every value is drawn, the best said: ${rows}`);
    const notOut = r.result.not_ruled_out.map((p) => p.join(" ")).join(", ") || "none";
    assert((await page.textContent(".tune-open")).includes(`cannot rule out: ${notOut} (`) && cli.stdout.includes(`the games cannot rule out: ${notOut} (`), "the values not ruled out, as carto tune says them");
    await shot();
    // A long race, stopped: the evidence so far.
    await page.fill("#tune-games", "100000");
    await page.evaluate(() => { window.carto.tuneReport = null; });
    await page.click("#tune-run");
    await page.waitForFunction(() => document.getElementById("tune-progress").value > 0, null, { timeout: 60000 });
    assert(await page.isDisabled("#sim-run"), "one run at a time: the sim waits for the race");
    await page.click("#tune-stop");
    await page.waitForFunction(() => window.carto.tuneReport, null, { timeout: 60000 });
    assert((await page.textContent("#tune-status")).startsWith("stopped: "), "the status says it stopped");
    assert(!(await page.isDisabled("#tune-run")), "and it can run again");
  },

  async "a sim stopped early gives carto sim's report of the games played"({ page, open }) {
    await measureTab(page, open);
    await page.fill("#sim-games", "100000");
    await page.evaluate(() => { window.carto.simReport = null; });
    await page.click("#sim-run");
    await page.waitForFunction(() => document.getElementById("sim-progress").value >= 4, null, { timeout: 60000 });
    await page.click("#sim-stop");
    await page.waitForFunction(() => window.carto.simReport, null, { timeout: 60000 });
    const r = await page.evaluate(() => window.carto.simReport);
    assert((await page.textContent("#sim-status")).startsWith("stopped: "), "the status says it stopped");
    const cli = native(["sim", "base", "--games", String(r.games), "--seed", "1", "--agents", "greedy", "--report", "--quiet"]);
    assert(r.table === cli.stdout, `the games played are carto sim's ${r.games}`);
  },

  async "a game that fails says where in the rules and how to replay it, as carto sim does"({ page, open, shot }) {
    await failingRun(page, open);
    await shot();
  },

  async "on a phone: a game that fails says where, and the caret line fits the screen"({ page, open, shot }) {
    await page.setViewportSize(PHONE);
    await failingRun(page, open);
    await noSideways(page, "the failed game's error");
    await shot();
  },

  async "on a phone: the comparison and the tuner fit the screen"({ page, open, shot }) {
    await page.setViewportSize(PHONE);
    await measureTab(page, open, HOUSE);
    await noSideways(page, "the Measure tab");
    await run(page, 8, 7);
    await noSideways(page, "the comparison's results");
    await page.click("#sim-text summary");
    await noSideways(page, "the command line's text");
    const bar = await page.$eval(".share-bar .share-track", (t) => t.getBoundingClientRect().width);
    assert(bar >= 150, `the bars are wide enough to read on a phone (${bar} px)`);
    await page.$eval("#sim-chart", (c) => c.scrollIntoView());
    await shot();
    await page.fill("#tune-games", "40");
    await page.fill("#tune-first", "4");
    await page.fill("#tune-values", "sale_town=8..10");
    await page.evaluate(() => { window.carto.tuneReport = null; });
    await page.click("#tune-run");
    await page.waitForFunction(() => window.carto.tuneReport, null, { timeout: 600000 });
    await noSideways(page, "the tuner's results");
    await page.$eval("#tune-chart", (c) => c.scrollIntoView());
    await page.screenshot({ path: SHOT("phone-tune") });
  },
  async "on a phone: the original's values, and a comparison's link opened on a phone"({ page, open, shot }) {
    await page.setViewportSize(PHONE);
    await measureTab(page, open, HOUSE);
    await page.click("#sim-vs-values summary");
    await page.waitForSelector("#vs-sale_town", { timeout: 10000 });
    assert((await page.inputValue("#vs-sale_town")) === "9", "the original's value, France's 9");
    await noSideways(page, "the original's values");
    await page.$eval("#vs-sale_town", (e) => e.scrollIntoView({ block: "center" }));
    await shot();
    await page.fill("#sim-games", "6");
    await page.click("#sim-share");
    await page.waitForTimeout(300);
    const friend = await page.context().browser().newContext({ viewport: PHONE });
    const other = await friend.newPage();
    await other.goto(page.url());
    await other.waitForFunction(() => window.carto && window.carto.doc && window.carto.doc.name === "my-france", null, { timeout: 60000 });
    assert(await other.isVisible("#sim-run"), "the link opens the Measure tab");
    assert((await other.inputValue("#sim-vs-rules")) === "france" && (await other.inputValue("#sim-games")) === "6", "with the comparison");
    await noSideways(other, "the friend's Measure tab");
    await other.screenshot({ path: SHOT("phone-link-friend") });
    await friend.close();
  },

  async "a link's original that is not this playground's France is measured as the link carried it"({ page, base }) {
    // A link from another carto whose France pays 7 for a town sale: the link's text is measured.
    const france = fs.readFileSync(new URL("../../rules/france.rules", import.meta.url), "utf8");
    const theirs = france.replace("param sale_town: int = 9", "param sale_town: int = 7");
    assert(theirs !== france, "the link's France differs");
    const state = { base: "template:house", text: HOUSE, sets: {}, measure: { open: true, compare: true, vs_rules: "france", vs_text: theirs, vs: {}, games: "8", seed: "4", agents: "greedy", players: "", tune: null } };
    const code = zlib.deflateRawSync(Buffer.from(JSON.stringify(state))).toString("base64").replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
    await page.goto(base + "#s=" + code);
    await page.waitForFunction(() => window.carto && window.carto.doc && window.carto.doc.name === "my-france", null, { timeout: 60000 });
    await page.waitForFunction(() => document.getElementById("sim-vs-note").textContent.includes("not this playground's bundled france"), null, { timeout: 10000 });
    assert((await page.inputValue("#vs-sale_town")) === "7", "the original's form shows the link's France");
    const r = await run(page, 8, 4);
    assert(r.command.includes("--vs-rules original.rules"), `the command names the link's text as a file: ${r.command}`);
    const cli = native(["sim", "my.rules", "--vs-rules", "original.rules", "--games", "8", "--seed", "4", "--agents", "greedy", "--report", "--quiet"], { "my.rules": HOUSE, "original.rules": theirs });
    assert(cli.code === 0, cli.stderr);
    assert(r.table === cli.stdout, `the link's France is what was measured:\n${r.table}\n---\n${cli.stdout}`);
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
