// What a seat sees (issue 33 A): the Play tab shows the person's seat only. Two rules texts differ
// only in the order their chips are declared, so the same chip ids (on the same squares, in the
// supply, in bob's hand) have other colours and values; the page's DOM is the same in both games
// at every decision of the person's, until a chip of theirs is turned up.
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { assert } from "./run.mjs";

// The rules and the two chip orders of the command line's test (tests/seats.rs), read from it.
const SEATS_RS = fs.readFileSync(path.join(path.dirname(fileURLToPath(import.meta.url)), "..", "..", "tests", "seats.rs"), "utf8");
const RULES = SEATS_RS.split('const RULES: &str = r#"')[1].split('"#;')[0];
const chips = (name) => SEATS_RS.match(new RegExp(`const ${name}: &str =\\s*"([^"]*)"`))[1];

async function game(page, open, chipOrder, seed) {
  await open();
  await page.evaluate((t) => window.carto.setText(t), RULES.replace("CHIPS", chipOrder));
  await page.waitForFunction(() => window.carto.doc && window.carto.doc.name === "hidden", null, { timeout: 30000 });
  await page.click("nav button[data-tab=play]");
  await page.fill("#play-seed", String(seed));
  await page.click("#play-new");
  await page.waitForFunction(() => window.carto.playView && !window.carto.playBusy, null, { timeout: 60000 });
}

// What the person is shown: the board and the option buttons, and the scores line.
const shown = (page) => page.evaluate(() => ({
  board: document.getElementById("board").innerHTML,
  options: [...document.querySelectorAll("#play-options button")].map((b) => b.dataset.name),
  words: [...document.querySelectorAll("#play-options button")].map((b) => b.textContent),
  scores: document.getElementById("play-scores").textContent,
  status: document.getElementById("play-status").textContent,
}));

// The person's decision k, the same in both games: the first legal square, else the first button.
async function decide(page) {
  const before = await page.evaluate(() => window.carto.playShown);
  const v = await page.evaluate(() => window.carto.playView);
  if (v.places.length) {
    await page.click(".legal-square");
    await page.click("#play-place");
  } else {
    await page.click("#play-options button.opt");
  }
  await page.waitForFunction((n) => window.carto.playShown !== n && !window.carto.playBusy, before, { timeout: 60000 });
}

async function screens(page, open, chipOrder) {
  await game(page, open, chipOrder, 3);
  const out = [];
  for (let k = 0; k < 6; k++) {
    out.push(await shown(page));
    await decide(page);
  }
  out.push(await shown(page));
  return out;
}

export const tests = {
  async "the Play tab shows the same whatever the faces the person may not see"({ page, open, shot }) {
    const a = await screens(page, open, chips("CHIPS_A"));
    await shot();
    const b = await screens(page, open, chips("CHIPS_B"));
    // The games differ in what is hidden: a face-down chip on the map is drawn grey, without a value.
    assert(a[0].board.includes('fill="#999"'), "face-down chips are drawn face down");
    const trades = a.flatMap((s) => s.options).filter((o) => o.startsWith("harbour_trade"));
    assert(trades.length > 0 && trades.every((o) => o === "harbour_trade down@supply"), "the trade is named by its place: " + trades);
    for (let k = 0; k < a.length; k++) {
      assert(a[k].board === b[k].board, `the board at the person's decision ${k} is the same in both games`);
      assert(JSON.stringify(a[k].options) === JSON.stringify(b[k].options), `the options at decision ${k}: ${a[k].options} / ${b[k].options}`);
      assert(JSON.stringify(a[k].words) === JSON.stringify(b[k].words), `the options' words at decision ${k}: ${a[k].words} / ${b[k].words}`);
      assert(a[k].scores === b[k].scores && a[k].status === b[k].status, `the scores and status at decision ${k}`);
    }
  },
};
