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
  await page.waitForFunction(() => window.carto.playView && !window.carto.playBusy, null, { timeout: 60000 });
}

// One decision of the person, by clicking: a legal square (turning the tile once when it can turn)
// then "Place here"; a follower spot every third time, else "no follower"; else the first button.
async function clickOnce(page, k) {
  const v = await page.evaluate(() => window.carto.playView);
  const shown = await page.evaluate(() => window.carto.playShown);
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
  await nextView(page, shown);
}

// Waits for the game's worker to answer: a new view shown, and the page no longer busy.
async function nextView(page, shown) {
  await page.waitForFunction((n) => window.carto.playShown !== n && !window.carto.playBusy, shown, { timeout: 120000 });
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
      if (k === 6) {
        await shot();
        // The log and the replay wait for the end (they show every chip's face): the button is
        // off, the page says why, and the game's worker refuses them if asked.
        assert(await page.isDisabled("#play-log"), "no log during the game");
        assert((await page.textContent("#play-log-note")).includes("when the game is over") && (await page.isVisible("#play-log-note")), "the page says when the log comes");
        for (const fn of ["play_log", "play_replay"]) {
          const r = await page.evaluate((f) => window.carto.playCall({ fn: f }), fn);
          assert(r.code === "E0705" && !r.log && !r.html, `${fn} refused during the game: ${JSON.stringify(r).slice(0, 200)}`);
        }
      }
      await clickOnce(page, k);
    }
    const end = await page.evaluate(() => window.carto.playView);
    assert(end.over, `the game ended after ${k} clicks`);
    assert((await page.textContent("#play-status")).startsWith("Game over"), "the page says so");
    assert(!(await page.isDisabled("#play-log")) && !(await page.isVisible("#play-log-note")), "the log is offered at the end");
    const dir = native(["--version"]).dir;
    const log = await download(page, dir);
    const text = fs.readFileSync(log, "utf8");
    assert(text.split("\n").filter(Boolean).length > 50, "the log has the game's lines");
    const rep = spawnSync(CARTO, ["replay", path.basename(log)], { cwd: dir, encoding: "utf8" });
    assert(rep.status === 0, "carto replay accepts it: " + rep.stderr);
    assert(rep.stdout.includes("the replay is identical"), rep.stdout);
    const last = JSON.parse(text.trim().split("\n").pop());
    assert(last.event === "game_end", "the log ends with game_end");
    // The story: every score with the rule that gave it (heading, line, sentence).
    const why = await page.$$eval("#play-story details.why", (els) => els.map((e) => e.textContent));
    assert(why.length > 3, "the scores are in the move log");
    assert(why.some((w) => /for City rules\/base\.rules:\d+When a city/.test(w)), "a city's points name the rule, its line and its sentence: " + why[0]);
    // The points by rule, adding up to each player's score (checked against the log's scores).
    const table = await page.$$eval("#play-end table.breakdown tfoot td", (els) => els.map((e) => Number(e.textContent)));
    assert(JSON.stringify(table) === JSON.stringify(end.players.map((p) => p.score)), `the totals are the scores: ${table}`);
    const byRule = {};
    for (const e of text.trim().split("\n").map((l) => JSON.parse(l))) if (e.event === "score") byRule[e.rule] = (byRule[e.rule] || 0) + e.points;
    const rows = await page.$$eval("#play-end table.breakdown tbody tr", (els) => els.map((r) => [...r.querySelectorAll("td")].reduce((a, td) => a + Number(td.textContent), 0)));
    assert(rows.length === Object.keys(byRule).length, "one row per rule that scored");
    assert(JSON.stringify(rows) === JSON.stringify(Object.values(byRule).sort((a, b) => b - a)), `each row is the log's sum for its rule: ${rows}`);
    // The replay of the finished game: steps, slider, score graph.
    await page.click("#play-replay");
    const frame = await (await page.waitForSelector("#play-replay-frame")).contentFrame();
    await frame.waitForSelector("input[type=range]", { timeout: 20000 });
    assert(await frame.$("svg"), "the replay draws the board");
    await shot();
  },

  async "on a phone: a whole game by tapping, its story, the points by rule and the replay fit the screen"({ page, open, shot }) {
    await page.setViewportSize({ width: 390, height: 844 });
    await open();
    await page.evaluate(() => window.carto.setMode("read"));
    await newGame(page, "base", 6);
    // A tap: the thing tapped is brought to the middle of the screen first (the control bar
    // fixed at the bottom covers what lies under it, as for a person, who scrolls).
    const tap = async (sel) => {
      await page.$eval(sel, (e) => e.scrollIntoView({ block: "center" }));
      await page.click(sel);
    };
    for (let k = 0; k < 400; k++) {
      const v = await page.evaluate(() => window.carto.playView);
      if (v.over) break;
      const shown = await page.evaluate(() => window.carto.playShown);
      if (v.places.length) {
        await tap(".legal-square");
        await tap("#play-place");
      } else if (v.followers.length && k % 3 === 0) await tap(".follower-spot");
      else await tap("#play-options button.opt");
      await nextView(page, shown);
      if (k === 20) {
        const story = await page.textContent("#play-story");
        assert(/Turn \d+ · ann/.test(story) && /Turn \d+ · bob/.test(story), "the story tells both players' turns");
      }
    }
    assert((await page.evaluate(() => window.carto.playView)).over, "the game ended");
    await page.click("#play-replay");
    const frame = await (await page.waitForSelector("#play-replay-frame")).contentFrame();
    await frame.waitForSelector("input[type=range]", { timeout: 20000 });
    const w = await page.evaluate(() => ({ page: document.documentElement.scrollWidth, window: window.innerWidth }));
    assert(w.page <= w.window, `no sideways scrolling: ${w.page} px in ${w.window}`);
    await page.evaluate(() => document.querySelector("#play-end").scrollIntoView());
    await shot();
  },

  async "undo takes back the person's whole last move, the agents' answers replayed as before"({ page, open, shot }) {
    await open();
    await newGame(page, "france", 3);
    const first = await page.evaluate(() => window.carto.playView);
    assert(first.places.length > 0, "the person places first");
    // The whole first move (place, follower or not, actions) until the agent has moved and it is
    // the person's turn again; then the first decision of the second move.
    let k = 0;
    while ((await page.evaluate(() => window.carto.playView.turn)) === first.turn) await clickOnce(page, k++);
    const second = await page.evaluate(() => window.carto.playView);
    assert(k >= 2 && second.turn > first.turn + 1, `a move of ${k} decisions, then the agent's turn`);
    await clickOnce(page, 1);
    const undo = async () => {
      const shown = await page.evaluate(() => window.carto.playShown);
      await page.click("#play-undo");
      await nextView(page, shown);
      return page.evaluate(() => window.carto.playView);
    };
    let back = await undo();
    assert(back.board_svg === second.board_svg, "one undo: the board as at the start of the second move");
    assert(JSON.stringify(back.places) === JSON.stringify(second.places) && back.turn === second.turn, "the same legal squares");
    back = await undo();
    assert(back.board_svg === first.board_svg && back.turn === first.turn, "a second undo: the whole first move is taken back");
    assert(JSON.stringify(back.places) === JSON.stringify(first.places), "the same legal squares as at the start");
    assert(!back.can_undo, "nothing more of the person's to undo");
    // Played again the same way, the agent answers as it did (its generator was given back).
    k = 0;
    while ((await page.evaluate(() => window.carto.playView.turn)) === first.turn) await clickOnce(page, k++);
    const again = await page.evaluate(() => window.carto.playView);
    assert(again.board_svg === second.board_svg, "the same game again");
    await shot();
  },

  async "the search agent thinks in the game's worker: the page stays free"({ page, open, shot }) {
    await open();
    await page.click("nav button[data-tab=play]");
    await page.selectOption("#play-others select", "mcts");
    await newGame(page, "base", 2);
    const first = await page.evaluate(() => window.carto.playView);
    assert(first.yours && first.players[1].agent.startsWith("mcts"), "against the search agent");
    // The game is the worker's: the page's own carto.wasm holds none.
    const here = await page.evaluate(() => window.carto.call({ fn: "play_view" }));
    assert(here.error === "no game: start one", "no game on the page's thread: " + JSON.stringify(here).slice(0, 80));
    // While the agent thinks the page answers, says who decides, and counts animation frames.
    await page.evaluate(() => {
      window.frames = 0;
      window.sawBusy = false;
      const tick = () => { window.frames++; if (window.carto.playBusy) window.sawBusy = true; requestAnimationFrame(tick); };
      requestAnimationFrame(tick);
    });
    let k = 0;
    while ((await page.evaluate(() => window.carto.playView.turn)) === first.turn) await clickOnce(page, k++);
    const after = await page.evaluate(() => ({ v: window.carto.playView, busy: window.sawBusy, frames: window.frames }));
    assert(after.busy, "the page drew frames while the agent was deciding");
    assert(after.v.yours && !after.v.error, "the person's turn again");
    assert(after.v.turn > first.turn + 1, "the search agent moved");
    await shot();
  },
};
