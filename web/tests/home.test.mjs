// A way in (issue 36 B): the first screen says what carto is and opens three doors (play now,
// read a variant's rules, change a rule with a guided example, the reference one click away);
// the editor comes when asked for. At 1400×1000 and at 390×844.
import { assert } from "./run.mjs";

async function noSideways(page, what) {
  const w = await page.evaluate(() => ({ page: document.documentElement.scrollWidth, window: window.innerWidth }));
  assert(w.page <= w.window, `${what}: the page is ${w.page} px wide in a ${w.window} px window`);
}

async function firstScreen(page, open, shot) {
  await open("", "home");
  assert(await page.isVisible("#home"), "the first screen shows");
  assert(!(await page.isVisible("#editor")), "no editor on the first screen");
  const title = await page.textContent("#home-title");
  assert(/Play, read and change the rules of Carcassonne: Maps/.test(title), "one sentence says what this is: " + title);
  for (const id of ["#door-play-computer", "#door-play-friends", "#door-read-button", "#door-change-button", "#door-reference"]) {
    assert(await page.isVisible(id), `the door ${id} is there`);
  }
  await noSideways(page, "the first screen");
  await shot();
}

export const tests = {
  async "the first screen: one sentence, three doors; Read opens the variant's page without the editor"({ page, open, shot }) {
    await firstScreen(page, open, shot);
    await page.selectOption("#home-variant", "france");
    await page.click("#door-read-button");
    await page.waitForFunction(() => window.carto.doc.name === "france", null, { timeout: 20000 });
    assert(await page.isVisible("#tab-read") && await page.isVisible("#page"), "the Read tab shows France's page");
    assert(!(await page.isVisible("#editor")), "the editor waits until asked for");
    await page.click("#edit-toggle");
    assert(await page.isVisible("#editor"), "Edit the rules shows it");
    await page.click("#home-link");
    assert(await page.isVisible("#home"), "the name in the header goes back to the first screen");
  },

  async "the Play door starts a game against the computer at once"({ page, open, shot }) {
    await open("", "home");
    await page.selectOption("#home-variant", "france");
    await page.click("#door-play-computer");
    await page.waitForFunction(() => window.carto.playView && !window.carto.playBusy, null, { timeout: 60000 });
    const v = await page.evaluate(() => window.carto.playView);
    assert(v.yours && v.places.length > 0, "the person places the first tile");
    assert(v.players.length === 2 && v.players[1].agent === "greedy", "against the greedy computer player");
    assert(await page.isVisible("#board svg"), "the board shows");
    await shot();
  },

  async "the Change door: the house-rule example, step by step, with the reference one click away"({ page, open, shot }) {
    await open("", "home");
    await page.click("#door-change-button");
    await page.waitForFunction(() => window.carto.doc.name === "my-france", null, { timeout: 20000 });
    assert(await page.isVisible("#editor") && await page.isVisible("#guide"), "the editor and the guide show");
    assert((await page.$$("#guide li.done")).length === 1, "the first step is read");
    // The step asked: change 2 to 3 on line 7; the page ticks it once the Read tab says so.
    await page.evaluate(() => {
      const v = window.carto.view;
      const l = v.state.doc.line(7);
      const at = l.from + l.text.indexOf("group sale 2") + "group sale ".length;
      v.dispatch({ selection: { anchor: at, head: at + 1 } });
      v.focus();
    });
    await page.keyboard.type("3");
    await page.waitForFunction(() => document.querySelectorAll("#guide li.done").length === 2, null, { timeout: 20000 });
    assert((await page.textContent("#page")).includes("up to 3 times per turn"), "the Read tab says it");
    await shot();
    await page.click("#guide-reference");
    assert(await page.isVisible("#tab-reference"), "the reference is one click away");
    const ref = await page.textContent("#tab-reference");
    assert(ref.includes("score(") && ref.includes("change rule NAME"), "it lists the builtins and the forms");
    await page.fill("#ref-filter", "chips");
    assert(!(await page.textContent("#ref-list")).includes("score("), "the filter narrows the list");
  },

  async "on a phone: the Change door's guide and the editor fit; Play opens a game"({ page, open, shot }) {
    await page.setViewportSize({ width: 390, height: 844 });
    await open("", "home");
    await page.click("#door-change-button");
    await page.waitForFunction(() => window.carto.doc.name === "my-france", null, { timeout: 20000 });
    assert(await page.isVisible("#guide") && await page.isVisible("#editor"), "the guide and the editor");
    await noSideways(page, "the guide");
    await shot();
    await page.click("#home-link");
    await page.click("#door-play-computer");
    await page.waitForFunction(() => window.carto.playView && !window.carto.playBusy, null, { timeout: 60000 });
    assert(await page.isVisible("#board svg"), "the board");
    await noSideways(page, "the game");
  },

  async "on a phone: the first screen and its doors fit; the reference too"({ page, open, shot }) {
    await page.setViewportSize({ width: 390, height: 844 });
    await firstScreen(page, open, shot);
    await page.click("#door-reference");
    assert(await page.isVisible("#tab-reference"), "the reference opens");
    await noSideways(page, "the reference");
  },
};
