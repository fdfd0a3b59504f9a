// A board to play on (issue 36 C): the board fills its space and zooms and pans (wheel, keys,
// buttons, drag, pinch) with the preview and "Place here" in view; follower targets are large,
// apart, and light the part they join; actions read in the rules' words with their points; the
// tiles to come by kind; people at one device get a hand-over screen; a phone plays one-handed.
import { assert } from "./run.mjs";

async function newGame(page, seats) {
  if (!(await page.isVisible("#tab-play"))) await page.click("nav button[data-tab=play]");
  if (seats) await page.evaluate((s) => window.carto.playWith(s), seats);
  else await page.click("#play-new");
  await page.waitForFunction(() => window.carto.playView && !window.carto.playBusy, null, { timeout: 60000 });
}

const viewOf = (page) => page.evaluate(() => window.carto.playView);

async function choose(page, action) {
  const shown = await page.evaluate(() => window.carto.playShown);
  await action();
  await page.waitForFunction((n) => window.carto.playShown !== n && !window.carto.playBusy, shown, { timeout: 60000 });
}

// Places the tile on the first legal square.
async function place(page) {
  await page.click(".legal-square");
  await choose(page, () => page.click("#play-place"));
}

const box = (page, sel) => page.evaluate((s) => { const r = document.querySelector(s).getBoundingClientRect(); return { x: r.x, y: r.y, w: r.width, h: r.height }; }, sel);
const inside = (a, b) => a.x >= b.x - 1 && a.y >= b.y - 1 && a.x + a.w <= b.x + b.w + 1 && a.y + a.h <= b.y + b.h + 1;
const zoomOf = (page) => page.evaluate(() => {
  const s = document.querySelector("#board svg");
  return s.viewBox.baseVal.width;
});

async function noSideways(page, what) {
  const w = await page.evaluate(() => ({ page: document.documentElement.scrollWidth, window: window.innerWidth }));
  assert(w.page <= w.window, `${what}: the page is ${w.page} px wide in a ${w.window} px window`);
}

export const tests = {
  async "the board fills its space; wheel, keys, buttons, drag and pinch zoom and pan; the preview and Place here stay in view"({ page, open, shot }) {
    await open();
    await page.evaluate(() => window.carto.setMode("read"));
    await newGame(page);
    const b = await box(page, "#board");
    assert(b.h >= 600 && b.w >= 900, `the board fills its space: ${b.w}×${b.h}`);
    const full = await zoomOf(page);
    // The wheel zooms in around the pointer, several steps.
    await page.click(".legal-square");
    const sq = await box(page, "#play-preview");
    await page.mouse.move(sq.x + sq.w / 2, sq.y + sq.h / 2);
    for (let k = 0; k < 6; k++) await page.mouse.wheel(0, -200);
    await page.waitForFunction((f) => document.querySelector("#board svg").viewBox.baseVal.width < f / 3, full, { timeout: 30000 });
    assert(inside(await box(page, "#play-preview"), await box(page, "#board")), "the preview stays in view at 3× and more");
    assert(await page.isVisible("#play-place") && inside(await box(page, "#play-place"), { x: 0, y: 0, w: 1400, h: 1000 }), "Place here is in the window");
    await shot();
    // Keys: 0 fits, + zooms, arrows pan.
    await page.focus("#board");
    await page.keyboard.press("0");
    assert(Math.abs((await zoomOf(page)) - full) < 1, "0 fits the picture");
    await page.keyboard.press("+");
    const z1 = await zoomOf(page);
    assert(z1 < full, "+ zooms in");
    const vx = await page.evaluate(() => document.querySelector("#board svg").viewBox.baseVal.x);
    await page.keyboard.press("ArrowRight");
    assert((await page.evaluate(() => document.querySelector("#board svg").viewBox.baseVal.x)) > vx, "→ pans");
    // Drag pans; a drag is not a click.
    const x0 = await page.evaluate(() => document.querySelector("#board svg").viewBox.baseVal.x);
    await page.mouse.move(b.x + 300, b.y + 300);
    await page.mouse.down();
    await page.mouse.move(b.x + 200, b.y + 300, { steps: 5 });
    await page.mouse.up();
    assert((await page.evaluate(() => document.querySelector("#board svg").viewBox.baseVal.x)) > x0, "dragging left shows what is right");
    // Buttons, and pinch (two pointers moving apart).
    await page.click("#zoom-fit");
    assert(Math.abs((await zoomOf(page)) - full) < 1, "fit");
    await page.evaluate(({ x, y }) => {
      const el = document.getElementById("board");
      const ev = (type, id, px) => el.dispatchEvent(new PointerEvent(type, { pointerId: id, clientX: px, clientY: y, bubbles: true, pointerType: "touch" }));
      ev("pointerdown", 1, x - 20);
      ev("pointerdown", 2, x + 20);
      for (let k = 1; k <= 5; k++) { ev("pointermove", 1, x - 20 - k * 20); ev("pointermove", 2, x + 20 + k * 20); }
      ev("pointerup", 1, x - 120);
      ev("pointerup", 2, x + 120);
    }, { x: b.x + b.w / 2, y: b.y + b.h / 2 });
    assert((await zoomOf(page)) < full / 2, "two fingers apart zoom in");
    // Placing keeps the board where it is (no jump between phases).
    await page.click("#zoom-fit");
    await page.click(".legal-square");
    const before = await box(page, "#board");
    await choose(page, () => page.click("#play-place"));
    const after = await box(page, "#board");
    assert(before.y === after.y && before.h === after.h && before.w === after.w, "the board does not move between phases");
  },

  async "follower targets are large and apart on a close-up of the tile, and light the part they join"({ page, open, shot }) {
    await open();
    await page.evaluate(() => window.carto.setMode("read"));
    await newGame(page);
    for (let k = 0; k < 30; k++) {
      const v = await viewOf(page);
      if (v.followers.length >= 2) break;
      if (v.places.length) await place(page);
      else await choose(page, () => page.click("#play-options button.opt"));
    }
    const v = await viewOf(page);
    assert(v.followers.length >= 2, "a tile with two follower options or more");
    const spots = await page.$$eval(".follower-spot", (els) => els.map((e) => { const r = e.getBoundingClientRect(); return { x: r.x + r.width / 2, y: r.y + r.height / 2, d: r.width }; }));
    assert(spots.length === v.followers.length, "one target per option");
    for (const s of spots) assert(s.d >= 28, `a target is ${s.d.toFixed(0)} px across`);
    for (const a of spots) for (const b of spots) if (a !== b) assert(Math.hypot(a.x - b.x, a.y - b.y) >= (a.d + b.d) / 2 - 1, "targets do not overlap");
    await page.hover(".follower-spot");
    const lit = await page.evaluate(() => ({ close: document.querySelectorAll("#play-closeup .lit").length, board: document.querySelectorAll("#board .lit").length }));
    assert(lit.close > 0 && lit.board > 0, `the part is lit on the close-up and on the board: ${JSON.stringify(lit)}`);
    // On the board, every tile of the feature the target joins has its part lit.
    const first = await page.getAttribute(".follower-spot", "data-option");
    const joins = v.followers.find((f) => String(f.i) === first).joins;
    assert(joins.length >= 1, "the feature's parts are known");
    for (const [x, y, seg] of joins) {
      assert(await page.$(`#board g[data-at="${x},${y}"] [data-seg="${seg}"].lit`), `the part at ${x},${y} (segment ${seg}) is lit`);
    }
    await shot();
    await choose(page, () => page.click(".follower-spot"));
    assert(!(await page.isVisible("#play-closeup")), "the close-up goes once the follower is placed");
  },

  async "actions read in the rules' words with the points they give; the tiles to come by kind"({ page, open, shot }) {
    await open();
    const text = `import "france"
variant "bonus" {
  title = "France with a bonus"
}
# A reward for placing.
action take_bonus phase score limit per turn 1 {
  score(player, 3)
}
action mark phase score limit per turn 1 choose s: neighbours(turn_tile().square) where not s.covered {
  score(player, 1)
}
`;
    await page.evaluate((t) => window.carto.setText(t), text);
    await page.waitForFunction(() => window.carto.doc && window.carto.doc.name === "bonus", null, { timeout: 20000 });
    await page.evaluate(() => window.carto.setMode("read"));
    await newGame(page);
    const v0 = await viewOf(page);
    const kinds = v0.to_come.reduce((a, t) => a + t.n, 0);
    assert(kinds === v0.tiles_left, `the kinds count every tile to come: ${kinds} = ${v0.tiles_left}`);
    assert((await page.textContent("#play-to-come-head")).startsWith(`Tiles still to come: ${v0.tiles_left} of ${v0.to_come.length} kinds`), "and say so");
    await place(page);
    for (let k = 0; k < 3 && !(await viewOf(page)).others.some((o) => o.name.startsWith("take_bonus")); k++) {
      await choose(page, () => page.click("#play-options button.opt"));
    }
    const labels = await page.$$eval("#play-options button.opt", (els) => els.map((e) => [e.textContent, e.title]));
    const bonus = labels.find(([t]) => t.startsWith("Take bonus"));
    assert(bonus, "the action is offered in words: " + JSON.stringify(labels));
    // France's chips lie face down, yet the bonus gives 3 whatever they are: its points are found
    // in copies of the game where what the player may not see is dealt afresh, and said.
    assert(bonus[0] === "Take bonus: 3 points", "with the points every copy agrees on: " + bonus[0]);
    assert(bonus[1].includes("you score 3"), "its sentence as the title: " + bonus[1]);
    assert(labels.some(([t]) => t === "Done: end my turn"), "passing is said in words: " + JSON.stringify(labels));
    assert(labels.some(([t]) => /^Mark — (the square |.+ \()-?\d+,-?\d+\)?: 1 point$/.test(t)), "a square chosen is said as a square: " + JSON.stringify(labels));
    // By the map's name where it has one, else by its coordinates.
    const names = (await viewOf(page)).square_names;
    for (const [name, t] of await page.$$eval("#play-options button.opt", (els) => els.map((e) => [e.dataset.name, e.textContent]))) {
      const xy = /^mark (-?\d+,-?\d+)$/.exec(name)?.[1];
      if (!xy) continue;
      const want = `Mark — ${names[xy] ? `${names[xy]} (${xy})` : `the square ${xy}`}: 1 point`;
      assert(t === want, `"${t}", not "${want}"`);
    }
    // A tile on a named square of the map is told by the square's name.
    const named = (await viewOf(page)).events.filter((e) => e.event === "tile_placed" && e.square);
    const story = await page.textContent("#play-story");
    for (const e of named) assert(story.includes(`on ${e.square} (${e.at.join(",")})`), `the story names ${e.square}`);
    await page.click("#play-to-come-head");
    await shot();
    // On the endless table (no chips) the points it gives are said.
    await page.evaluate((t) => window.carto.setText(t), text.replace('import "france"', 'import "base"').replace(/action mark[^]*?\n}\n/, ""));
    await page.waitForFunction(() => window.carto.doc && window.carto.doc.name === "bonus" && window.carto.doc.markdown.includes("endless"), null, { timeout: 20000 });
    await newGame(page);
    await place(page);
    for (let k = 0; k < 3 && !(await viewOf(page)).others.some((o) => o.name === "take_bonus"); k++) {
      await choose(page, () => page.click("#play-options button.opt"));
    }
    const words = await page.$$eval("#play-options button.opt", (els) => els.map((e) => e.textContent));
    assert(words.includes("Take bonus: 3 points"), "with the points it gives: " + JSON.stringify(words));
  },

  async "friends at one device: a hand-over screen between two people's turns"({ page, open, shot }) {
    await open();
    await page.evaluate(() => window.carto.setMode("read"));
    await newGame(page, "friends");
    assert(await page.isVisible("#play-cover"), "the first player is asked for");
    assert((await page.textContent("#play-cover-text")).includes("Pass the device to ann"), await page.textContent("#play-cover-text"));
    await page.click("#play-cover-go");
    assert(!(await page.isVisible("#play-cover")), "ann sees the board");
    const v = await viewOf(page);
    assert(v.players.every((p) => p.agent === "person"), "two people");
    await place(page);
    for (let k = 0; k < 6 && (await viewOf(page)).decider === "ann"; k++) await choose(page, () => page.click("#play-options button.opt"));
    assert((await viewOf(page)).decider === "bob", "bob's turn");
    assert(await page.isVisible("#play-cover"), "the board is hidden between them");
    assert((await page.textContent("#play-cover-text")) === "ann is done. Pass the device to bob.", await page.textContent("#play-cover-text"));
    assert(!(await page.isVisible("#play-options")), "and the controls too");
    await shot();
    await page.click("#play-cover-go");
    assert((await page.textContent("#play-status")).includes("bob:"), "the status names bob");
  },

  async "on a phone: follower targets in the bottom bar; friends get the hand-over screen"({ page, open, shot }) {
    await page.setViewportSize({ width: 390, height: 844 });
    await open();
    await page.evaluate(() => window.carto.setMode("read"));
    await newGame(page, "friends");
    await page.click("#play-cover-go");
    await place(page);
    const v = await viewOf(page);
    if (v.followers.length) {
      const spots = await page.$$eval(".follower-spot", (els) => els.map((e) => { const r = e.getBoundingClientRect(); return { y: r.y, h: r.height, d: r.width }; }));
      for (const s of spots) assert(s.d >= 28 && s.y >= 0 && s.y + s.h <= 844, `a target on the screen, ${s.d.toFixed(0)} px across`);
      await shot();
    }
    for (let k = 0; k < 6 && (await viewOf(page)).decider === "ann"; k++) await choose(page, () => page.click("#play-options button.opt"));
    assert(await page.isVisible("#play-cover"), "the board is hidden between ann and bob");
    const c = await box(page, "#play-cover-go");
    assert(c.y >= 0 && c.y + c.h <= 844, "the hand-over button is on the screen");
    await noSideways(page, "the hand-over screen");
  },

  async "on a phone: the board and the controls fit, Place here within one thumb's reach"({ page, open, shot }) {
    await page.setViewportSize({ width: 390, height: 844 });
    await open();
    await page.evaluate(() => window.carto.setMode("read"));
    await newGame(page);
    await noSideways(page, "the Play tab");
    await page.click(".legal-square");
    const p = await box(page, "#play-place");
    assert(p.y + p.h <= 844 && p.y >= 0, `Place here is on the screen: ${JSON.stringify(p)}`);
    assert(p.h >= 30, "and big enough for a thumb");
    await shot();
    await choose(page, () => page.click("#play-place"));
    await noSideways(page, "after a move");
  },
};
