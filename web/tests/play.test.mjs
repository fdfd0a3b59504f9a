// Play: a whole game by clicking, undo, and the downloaded log accepted by `carto replay`.
import fs from "node:fs";
import path from "node:path";
import { spawnSync } from "node:child_process";
import { assert, native, CARTO } from "./run.mjs";

async function newGame(page, variant, seed) {
  if (variant !== "base") {
    await page.selectOption("#start", variant);
    await page.waitForFunction((v) => window.carto.doc && window.carto.doc.name === v, variant, { timeout: 20000 });
  }
  await page.click("nav button[data-tab=play]");
  await page.fill("#play-seed", String(seed));
  await page.click("#play-new");
  await page.waitForFunction(() => window.carto.playView, null, { timeout: 20000 });
}

// One decision of the person, by clicking: a legal square (turning the tile once when it can turn)
// then "Place here"; a follower spot every third time, else "no follower"; else the first button.
async function clickOnce(page, k) {
  const v = await page.evaluate(() => window.carto.playView);
  const before = v;
  if (v.places.length) {
    const squares = await page.$$(".legal-square");
    await squares[k % squares.length].click();
    if (await page.isVisible("#play-rotate")) await page.click("#play-rotate");
    await page.click("#play-place");
  } else if (v.followers.length && k % 3 === 0) {
    await page.click(".follower-spot");
  } else {
    await page.click("#play-options button.opt");
  }
  await page.waitForFunction((b) => window.carto.playView !== b, before);
}

async function download(page, dir) {
  const [d] = await Promise.all([page.waitForEvent("download"), page.click("#play-log")]);
  const file = path.join(dir, d.suggestedFilename());
  await d.saveAs(file);
  return file;
}

export const tests = {
  async "a whole game played by clicking replays identically with carto replay"({ page, open, shot }) {
    await open();
    await newGame(page, "base", 5);
    let k = 0;
    for (; k < 400; k++) {
      const v = await page.evaluate(() => window.carto.playView);
      assert(!v.error, "no error: " + v.error);
      if (v.over) break;
      assert(v.yours, "the person decides whenever the game waits");
      if (k === 6) await shot();
      await clickOnce(page, k);
    }
    const end = await page.evaluate(() => window.carto.playView);
    assert(end.over, `the game ended after ${k} clicks`);
    assert((await page.textContent("#play-status")).startsWith("Game over"), "the page says so");
    const dir = native(["--version"]).dir;
    const log = await download(page, dir);
    const text = fs.readFileSync(log, "utf8");
    assert(text.split("\n").filter(Boolean).length > 50, "the log has the game's lines");
    const rep = spawnSync(CARTO, ["replay", path.basename(log)], { cwd: dir, encoding: "utf8" });
    assert(rep.status === 0, "carto replay accepts it: " + rep.stderr);
    assert(rep.stdout.includes("the replay is identical"), rep.stdout);
    const last = JSON.parse(text.trim().split("\n").pop());
    assert(last.event === "game_end", "the log ends with game_end");
    await shot();
  },

  async "undo takes back the person's last move"({ page, open }) {
    await open();
    await newGame(page, "france", 3);
    const first = await page.evaluate(() => window.carto.playView);
    assert(first.places.length > 0, "the person places first");
    await clickOnce(page, 1);
    const after = await page.evaluate(() => window.carto.playView);
    assert(after.board_svg !== first.board_svg, "the board changed");
    await page.click("#play-undo");
    await page.waitForFunction((a) => window.carto.playView !== a, after);
    const back = await page.evaluate(() => window.carto.playView);
    assert(back.board_svg === first.board_svg, "the board is as before the move");
    assert(JSON.stringify(back.places) === JSON.stringify(first.places), "the same legal squares");
  },
};
