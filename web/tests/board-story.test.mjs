// The board tells the story (issue 36 C and D): an action reads as a sentence with what it is done
// with, where, and what it gives ("Sell in Lyon — wine: a purple chip worth 2: 9 points"), derived
// from the action's page, its option and the map; each score floated over the board says who got how
// many from which rule, and a tap opens the rule's heading, file:line and sentence over the board.
// At 1400×1000 and 390×844, with screenshots.
import path from "node:path";
import { fileURLToPath } from "node:url";
import { assert } from "./run.mjs";

// The sale's screenshot beside the tests' own (target/browser/), by the page's width.
const SHOTS = path.join(path.dirname(fileURLToPath(import.meta.url)), "..", "..", "target", "browser");

// Chips in every hand from the start, France's map, and a sale on a town the tile covers.
const RULES = `import "base"
variant "wine" {
  title = "Wine in town"
  doc = "Each player starts with three chips; a tile placed on a town may sell one there."
  map = "france"
  tiles = ["base"]
  players = 2..4
  followers = 7
  start_squares = 2
}
chips { purple 2 x 6, blue 2 x 6 }
setup {
  shuffle(supply)
  for p in players() {
    draw(3, supply, hand(p), up)
  }
}
action sell_town phase score limit per turn 1 when turn_tile().square.town
    choose wine: chips from chips(hand(player)) size 1..1 {
  move(wine, box, up)
  score(player, 9)
}
`;

async function start(page, open) {
  await open();
  await page.evaluate((t) => window.carto.setText(t), RULES);
  await page.waitForFunction(() => window.carto.doc && window.carto.doc.name === "wine", null, { timeout: 30000 });
  await page.click("nav button[data-tab=play]");
  await page.fill("#play-seed", "2");
  await page.click("#play-new");
  await page.waitForFunction(() => window.carto.playView && !window.carto.playBusy, null, { timeout: 60000 });
}

const viewOf = (page) => page.evaluate(() => window.carto.playView);

async function choose(page, action) {
  const shown = await page.evaluate(() => window.carto.playShown);
  await action();
  await page.waitForFunction((n) => window.carto.playShown !== n && !window.carto.playBusy, shown, { timeout: 60000 });
}

// Plays by clicking until a sale is offered: the tile on a named square (a town) when one is
// legal, else on the first legal square; no follower; done. Returns the town.
async function toASale(page) {
  for (let turn = 0; turn < 60; turn++) {
    const v = await viewOf(page);
    assert(!v.error && !v.over, "the game goes on: " + v.error);
    const sale = v.others.find((o) => o.name.startsWith("sell_town"));
    if (sale) return v.square;
    if (v.places.length) {
      const town = v.places.find((p) => p.square) || v.places[0];
      await page.click("#zoom-fit");
      await page.click(`.legal-square[data-square="${town.x},${town.y}"]`);
      await choose(page, () => page.click("#play-place"));
    } else {
      await choose(page, () => page.click("#play-options button.opt:last-child"));
    }
  }
  throw new Error("no sale offered in 60 decisions");
}

async function saleWords(page, shot) {
  const town = await toASale(page);
  assert(town, "the tile lies on a named town");
  const buttons = await page.$$eval("#play-options button.opt", (els) => els.map((e) => [e.dataset.name, e.textContent, e.title]));
  const sales = buttons.filter(([n]) => n.startsWith("sell_town"));
  assert(sales.length > 0, JSON.stringify(buttons));
  for (const [name, text, title] of sales) {
    const [, colour, value] = /^sell_town ([a-z]+)(\d)$/.exec(name);
    const want = `Sell in ${town} — wine: a ${colour} chip worth ${value}: 9 points`;
    assert(text === want, `the sale in words: "${text}", not "${want}"`);
    assert(title.startsWith("When the square of the tile placed this turn is a town"), "its title is the rule's sentence: " + title);
  }
  await shot();
  const width = await page.evaluate(() => window.innerWidth);
  await page.locator("#play-options").scrollIntoViewIfNeeded();
  await page.screenshot({ path: path.join(SHOTS, `web-board-story-sale-${width}.png`) });
  return sales[0][0];
}

// Sells, then plays on until the board floats a score; taps it: who, how many, the rule's heading,
// its file and line and its sentence, in a box over the board; the line under the scores says them.
async function whyOnTheBoard(page, sold) {
  await choose(page, () => page.click(`#play-options button.opt[data-name="${sold}"]`));
  const rules = await page.evaluate(() => window.carto.playCall({ fn: "play_rules" }));
  for (let k = 0; k < 80; k++) {
    if (await page.$("#board g.points[data-rule]")) break;
    const v = await viewOf(page);
    assert(!v.over, "a score before the end");
    if (v.places.length) {
      await page.click("#zoom-fit");
      await page.click(".legal-square");
      await choose(page, () => page.click("#play-place"));
    } else {
      await choose(page, () => page.click("#play-options button.opt:last-child"));
    }
  }
  // The person's own points stay on the board through the others' turns (since their last move).
  const pill = await page.$("#board g.points[data-rule]");
  assert(pill, "a score is floated on the board");
  const [who, points, rule] = await pill.evaluate((g) => [g.dataset.player, Number(g.dataset.points), g.dataset.rule]);
  const r = rules[rule];
  assert(r, `the rule ${rule} is on the rules' page`);
  const title = await pill.evaluate((g) => g.querySelector("title").textContent);
  assert(title.startsWith(`${who} +${points} for ${r.heading} (${r.file}:${r.line}): ${r.sentence}`), "its tooltip: " + title);
  const say = await page.textContent("#play-points-say");
  assert(say.includes(`${who} +${points} for ${r.heading}`), "the line under the scores: " + say);
  assert(await page.isHidden("#play-why-box"), "no box before a tap");
  // The whole board in view (a new game opens zoomed in on the squares to play), then the score.
  await page.click("#zoom-fit");
  await pill.click();
  assert(await page.isVisible("#play-why-box"), "a tap opens the box");
  const box = await page.textContent("#play-why-box");
  for (const part of [`${who} +${points}`, r.heading, `${r.file}:${r.line}`, r.sentence]) {
    assert(box.includes(part), `the box says ${part}: ${box}`);
  }
  // Escape closes it, and Enter on the score (it takes the focus back) opens it again.
  await page.keyboard.press("Escape");
  assert(await page.isHidden("#play-why-box"), "Escape closes the box");
  await pill.focus();
  await page.keyboard.press("Enter");
  assert(await page.isVisible("#play-why-box"), "Enter on the score opens it");
  // Inside the board's box, on screen.
  const [b, w, width] = await page.evaluate(() => [document.getElementById("play-why-box").getBoundingClientRect().toJSON(), document.querySelector(".board-wrap").getBoundingClientRect().toJSON(), window.innerWidth]);
  assert(b.left >= w.left - 1 && b.right <= w.right + 1 && b.top >= w.top - 1 && b.right <= width, `the box lies over the board: ${JSON.stringify(b)} in ${JSON.stringify(w)}`);
}

export const tests = {
  async "an action reads as a sentence: what it is done with, the town's name, the points; a score on the board says its rule"({ page, open, shot }) {
    await start(page, open);
    const sold = await saleWords(page, shot);
    await whyOnTheBoard(page, sold);
    await shot();
  },

  async "on a phone: the sale in words and a score's rule over the board"({ page, open, shot }) {
    await page.setViewportSize({ width: 390, height: 844 });
    await start(page, open);
    const sold = await saleWords(page, async () => {});
    await whyOnTheBoard(page, sold);
    const sideways = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    assert(sideways <= 0, `the page scrolls ${sideways} px sideways`);
    await shot();
  },
};
