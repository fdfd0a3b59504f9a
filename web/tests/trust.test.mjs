// The bugs that broke trust (issue 36 A): the Read tab of a house rule is `carto doc`'s page, by
// link too; "Start from" never loses work; a rule failing in Play says so and offers the way on;
// a megabyte of pasted text is refused with a message; the tables' markup is drawn, not shown;
// the small ones (turn counters, scroll, phone width, big parameters, byte-order mark, status).
import { assert, native } from "./run.mjs";

const HOUSE = `# France with house rules
import "france"
variant "my-france" {
  title = "France, house rules"
}
remove action sell_town
change action sell_abroad limit group sale 2
change rule road when feature.kind == road and feature.tiles >= 3
rule bonus on placed { score(player, 0) }
`;

// Sets the editor's text and waits for the page of the variant `name`.
async function setRules(page, text, name) {
  await page.evaluate((t) => window.carto.setText(t), text);
  await page.waitForFunction((n) => window.carto.doc && window.carto.doc.name === n && window.carto.lastCheck.errors === 0, name, { timeout: 20000 });
}

// No sideways scrolling: the page is no wider than the window.
async function noSideways(page, what) {
  const w = await page.evaluate(() => ({ page: document.documentElement.scrollWidth, window: window.innerWidth }));
  assert(w.page <= w.window, `${what}: the page is ${w.page} px wide in a ${w.window} px window`);
}

export const tests = {
  async "a house rule's Read tab is carto doc's page, opened by link too"({ page, open, shot }) {
    await open();
    await setRules(page, HOUSE, "my-france");
    const cli = native(["doc", "my.rules"], { "my.rules": HOUSE });
    assert(cli.code === 0, cli.stderr);
    assert((await page.evaluate(() => window.carto.doc.markdown)) === cli.stdout, "the page's Markdown is carto doc my.rules's");
    const read = await page.textContent("#page");
    assert(read.includes("Bonus: When you place a tile"), "the new rule is on the page");
    assert(read.includes("Sell abroad (phase 3, up to 2 times per turn)"), "the changed action reads as changed");
    assert(read.includes("Changed by the house rule at my.rules:7"), "and says where it was changed");
    assert(!read.includes("<br>") && !read.includes("<code>") && !read.includes("</code>"), "no markup shown as text");
    assert(await page.$("#page td code"), "the source lines are code");
    // The link: a fresh page opened at it reads the same page.
    await page.evaluate(() => window.carto.keep());
    await page.waitForFunction(() => location.hash.startsWith("#s="), null, { timeout: 10000 });
    const link = await page.evaluate(() => location.hash);
    const other = await page.context().newPage();
    await other.goto(page.url().split("#")[0] + link);
    await other.waitForFunction(() => window.carto && window.carto.doc && window.carto.doc.name === "my-france", null, { timeout: 60000 });
    assert((await other.evaluate(() => window.carto.doc.markdown)) === cli.stdout, "the link's Read tab is carto doc's too");
    assert((await other.textContent("#page")).includes("Bonus: When you place a tile"), "and shows the new rule");
    await other.close();
    await shot();
  },

  async "Start from asks before replacing edited rules; Ctrl+Z and Back bring them back; reopening restores them"({ page, open, base, shot }) {
    await open();
    await page.evaluate(() => {
      const v = window.carto.view;
      v.dispatch({ changes: { from: 0, insert: "# my own words\n" } });
    });
    const mine = await page.evaluate(() => window.carto.text());
    await page.selectOption("#start", "france");
    await page.waitForSelector("#ask[open]", { timeout: 30000 });
    assert((await page.textContent("#ask-question")).includes("france"), "the question names what would replace the text");
    await shot();
    await page.click("#ask-no");
    assert((await page.evaluate(() => window.carto.text())) === mine, "kept: the text is unchanged");
    assert((await page.inputValue("#start")) === "base", "and the picker says what the text started from");
    await page.selectOption("#start", "france");
    await page.waitForSelector("#ask[open]");
    await page.click("#ask-yes");
    await page.waitForFunction(() => window.carto.doc.name === "france", null, { timeout: 20000 });
    assert((await page.textContent("#status")).includes("Ctrl+Z"), "the status says how to get the text back");
    // Ctrl+Z (focus where the page put it) brings the text back, with its variant.
    await page.keyboard.press("Control+z");
    await page.waitForFunction((t) => window.carto.text() === t, mine, { timeout: 30000 });
    await page.waitForFunction(() => window.carto.doc.name === "base", null, { timeout: 20000 });
    assert((await page.inputValue("#start")) === "base", "the picker follows");
    // Replaced again, then the browser's Back.
    await page.selectOption("#start", "france");
    await page.click("#ask-yes");
    await page.waitForFunction(() => window.carto.doc.name === "france", null, { timeout: 20000 });
    await page.goBack();
    await page.waitForFunction((t) => window.carto.text() === t, mine, { timeout: 10000 });
    // Reopened without a link: the work is there.
    await page.evaluate(() => window.carto.keep());
    await page.goto(base);
    await page.waitForFunction(() => window.carto && window.carto.doc, null, { timeout: 60000 });
    assert((await page.evaluate(() => window.carto.text())) === mine, "reopening the page restores the work");
  },

  async "a rule that fails in Play says what failed and offers the way on"({ page, open, shot }) {
    await open();
    // The person (ann) places on turns 1, 3, 5…; the rule fails on the person's turn 3 and on
    // the agent's turn 6.
    const text = HOUSE.replace("rule bonus on placed { score(player, 0) }",
      "rule boom on placed when turn_number() == 3 or turn_number() == 6 {\n  score(player, abs(0 - 9223372036854775807 - 1))\n}");
    await setRules(page, text, "my-france");
    await page.click("nav button[data-tab=play]");
    await page.click("#play-new");
    await page.waitForFunction(() => window.carto.playView && !window.carto.playBusy, null, { timeout: 60000 });
    const turn = () => page.evaluate(() => window.carto.playView.turn);
    const step = async () => {
      const v = await page.evaluate(() => window.carto.playView);
      const shown = await page.evaluate(() => window.carto.playShown);
      if (v.places.length) {
        await page.click(".legal-square");
        await page.click("#play-place");
      } else await page.click("#play-options button.opt");
      await page.waitForFunction((n) => window.carto.playShown !== n && !window.carto.playBusy, shown, { timeout: 60000 });
    };
    while ((await turn()) < 3) await step();
    const before = await page.evaluate(() => window.carto.playView);
    await step();
    const failed = await page.evaluate(() => window.carto.playView);
    assert(failed.move_failed && failed.move_failed.includes("boom"), "the failure names the rule: " + failed.move_failed);
    assert(failed.yours && failed.turn === 3 && failed.board_svg === before.board_svg, "the move is taken back; the person decides again");
    assert((await page.textContent("#play-status")).includes("taken back"), "the status says so");
    assert((await page.textContent("#play-error")).includes("boom"), "and what failed");
    await shot();
    // The agent's failure stops the game: the status says so, and offers the way on.
    await page.evaluate(() => window.carto.setText(window.carto.text().replace("turn_number() == 3 or ", "")));
    await page.waitForFunction(() => window.carto.lastCheck.errors === 0 && window.carto.doc, null, { timeout: 20000 });
    await page.click("#play-new");
    await page.waitForFunction(() => window.carto.playView && window.carto.playView.turn === 1 && !window.carto.playBusy, null, { timeout: 60000 });
    for (let k = 0; k < 40; k++) {
      const v = await page.evaluate(() => window.carto.playView);
      if (v.error || v.over) break;
      await step();
    }
    const stopped = await page.evaluate(() => window.carto.playView);
    assert(stopped.error && stopped.error.includes("boom"), "the game stopped on the rule: " + stopped.error);
    const status = await page.textContent("#play-status");
    assert(status.includes("stopped") && status.includes("rule failed"), "the status says the game stopped: " + status);
    assert(await page.isVisible("#play-take-back") && await page.isVisible("#play-again"), "the way on is offered");
    await shot();
    const shown = await page.evaluate(() => window.carto.playShown);
    await page.click("#play-take-back");
    await page.waitForFunction((n) => window.carto.playShown !== n && !window.carto.playBusy, shown, { timeout: 60000 });
    const back = await page.evaluate(() => window.carto.playView);
    assert(!back.error && back.yours && back.turn === 5, "taken back to the person's turn 5: " + back.turn);
    assert(!(await page.isVisible("#play-way-on")), "the way on goes once the game goes on");
  },

  async "a megabyte of broken rules is refused with a message; the problems are never the earlier text's"({ page, open, shot }) {
    await open();
    const huge = "rule broken on placed { score(player, ) }\n".repeat(25000);
    await page.evaluate((t) => window.carto.setText(t), huge);
    await page.waitForFunction(() => window.carto.lastCheck && window.carto.lastCheck.summary.includes("not checked"), null, { timeout: 30000 });
    const text = await page.textContent("#check-text");
    assert(/the text is \d+ KB: the playground checks rules files up to 256 KB/.test(text), "the cap is said: " + text);
    assert((await page.getAttribute("#summary", "class")) === "bad", "in red");
    // Just under the cap, broken: checked, with the errors of this text.
    const under = "rule broken on placed { score(player, ) }\n".repeat(5000);
    await page.evaluate((t) => window.carto.setText(t), under);
    await page.waitForFunction(() => window.carto.lastCheck && !window.carto.lastCheck.summary.includes("not checked"), null, { timeout: 60000 });
    const summary = await page.textContent("#summary");
    assert(/my\.rules: \d+ errors?/.test(summary), "checked: " + summary);
    await shot();
    // And fixed: clean again.
    await page.evaluate(() => window.carto.setText(window.carto.bundled.rules.base));
    await page.waitForFunction(() => window.carto.lastCheck.errors === 0, null, { timeout: 30000 });
  },

  async "the turn counters agree; a parameter above 2^53 keeps its digits through a link; a byte-order mark is dropped"({ page, open, shot }) {
    await open();
    await page.click("nav button[data-tab=play]");
    await page.click("#play-new");
    await page.waitForFunction(() => window.carto.playView && !window.carto.playBusy, null, { timeout: 60000 });
    const title = async () => page.evaluate(() => document.querySelector("#board svg text[font-weight=bold]").textContent);
    let v = await page.evaluate(() => window.carto.playView);
    assert((await title()).endsWith(`· turn ${v.turn}`) && (await page.textContent("#play-status")).startsWith(`Turn ${v.turn},`), "turn 1 on the board and in the status: " + await title());
    await page.click(".legal-square");
    const placed = await page.evaluate(() => window.carto.playShown);
    await page.click("#play-place");
    await page.waitForFunction((n) => window.carto.playShown !== n && !window.carto.playBusy, placed, { timeout: 60000 });
    while ((await page.evaluate(() => window.carto.playView.turn)) < 3) {
      const shown = await page.evaluate(() => window.carto.playShown);
      await page.click("#play-options button.opt");
      await page.waitForFunction((n) => window.carto.playShown !== n && !window.carto.playBusy, shown, { timeout: 60000 });
    }
    v = await page.evaluate(() => window.carto.playView);
    assert((await title()).endsWith(`· turn ${v.turn}`), `the board says turn ${v.turn}: ${await title()}`);
    assert((await page.textContent("#play-status")).startsWith(`Turn ${v.turn}, ${v.tiles_left} tiles left`), "as the status does");
    await shot();

    // A big parameter, through a link.
    const big = "9007199254740993";
    await page.click("nav button[data-tab=read]");
    await setRules(page, "import \"base\"\nvariant \"big\" {\n  title = \"Big\"\n}\nparam huge: int = 1 \"a big number\"\n", "big");
    await page.fill("#param-huge", big);
    await page.press("#param-huge", "Enter");
    await page.waitForFunction((b) => String(window.carto.doc.params.find((p) => p.name === "huge").value) === b, big, { timeout: 10000 });
    const link = await page.evaluate(() => location.href);
    await page.goto("about:blank");
    await page.goto(link);
    await page.waitForFunction(() => window.carto && window.carto.doc && window.carto.doc.name === "big", null, { timeout: 60000 });
    assert((await page.inputValue("#param-huge")) === big, "the form shows every digit: " + await page.inputValue("#param-huge"));

    // A byte-order mark at the start of pasted text.
    await page.evaluate(() => {
      const v = window.carto.view;
      v.dispatch({ changes: { from: 0, to: v.state.doc.length, insert: "\uFEFF" + window.carto.bundled.rules.base }, userEvent: "input.paste" });
    });
    await page.waitForFunction(() => window.carto.doc.name === "base" && window.carto.lastCheck.errors === 0, null, { timeout: 20000 });
    assert(!(await page.evaluate(() => window.carto.text().includes("\uFEFF"))), "no mark in the text");
  },

  async "the Read pane starts at the top of each variant; the status forgets a copied link"({ page, open }) {
    await open();
    await page.selectOption("#start", "france");
    await page.waitForFunction(() => window.carto.doc.name === "france", null, { timeout: 20000 });
    await page.evaluate(() => { document.getElementById("right").scrollTop = 3000; });
    assert((await page.evaluate(() => document.getElementById("right").scrollTop)) > 1000, "scrolled down");
    await page.selectOption("#start", "germany");
    await page.waitForFunction(() => window.carto.doc.name === "germany", null, { timeout: 20000 });
    assert((await page.evaluate(() => document.getElementById("right").scrollTop)) === 0, "germany's page starts at its top");
    await page.context().grantPermissions(["clipboard-read", "clipboard-write"]);
    await page.click("#share");
    await page.waitForFunction(() => document.getElementById("status").textContent === "link copied", null, { timeout: 30000 });
    const [d] = await Promise.all([page.waitForEvent("download"), page.click("#save")]);
    void d;
    assert((await page.textContent("#status")).startsWith("downloaded my.rules"), "the status says what was downloaded");
  },

  async "on a phone: a house rule's link opens its Read tab; a failing rule's way on is on the screen"({ page, open, base, shot }) {
    await page.setViewportSize({ width: 390, height: 844 });
    await open();
    await setRules(page, HOUSE.replace("rule bonus on placed { score(player, 0) }",
      "rule boom on placed when turn_number() == 2 {\n  score(player, abs(0 - 9223372036854775807 - 1))\n}"), "my-france");
    await page.evaluate(() => window.carto.keep());
    await page.waitForFunction(() => location.hash.startsWith("#s="), null, { timeout: 10000 });
    const link = await page.evaluate(() => location.hash);
    await page.goto("about:blank");
    await page.goto(base + link);
    await page.waitForFunction(() => window.carto && window.carto.doc && window.carto.doc.name === "my-france", null, { timeout: 60000 });
    assert(await page.isVisible("#tab-read") && !(await page.isVisible("#editor")), "the link opens the Read tab");
    assert((await page.textContent("#page")).includes("Changed by the house rule at my.rules:7"), "with the house rule's changes");
    await noSideways(page, "the Read tab of the link");
    // The agent's move on turn 2 fails: the way on is on the screen.
    await page.click("nav button[data-tab=play]");
    await page.click("#play-new");
    await page.waitForFunction(() => window.carto.playView && !window.carto.playBusy, null, { timeout: 60000 });
    for (let k = 0; k < 10 && !(await page.evaluate(() => window.carto.playView.error)); k++) {
      const v = await page.evaluate(() => window.carto.playView);
      const shown = await page.evaluate(() => window.carto.playShown);
      const sel = v.places.length ? ".legal-square" : "#play-options button.opt";
      await page.$eval(sel, (e) => e.scrollIntoView({ block: "center" }));
      await page.click(sel);
      if (v.places.length) await page.click("#play-place");
      await page.waitForFunction((n) => window.carto.playShown !== n && !window.carto.playBusy, shown, { timeout: 60000 });
    }
    assert((await page.evaluate(() => window.carto.playView.error)).includes("boom"), "the game stopped on the rule");
    await page.evaluate(() => window.scrollTo(0, 0));
    for (const id of ["#play-status", "#play-again", "#play-error"]) {
      const r = await page.evaluate((s) => { const b = document.querySelector(s).getBoundingClientRect(); return { top: b.top, bottom: b.bottom, right: b.right }; }, id);
      assert(r.top >= 0 && r.bottom <= 844 && r.right <= 390, `${id} is on the screen: ${JSON.stringify(r)}`);
    }
    await noSideways(page, "the stopped game");
    await shot();
  },

  async "on a phone nothing scrolls sideways: the Read tab's tables, Play, Measure"({ page, open, shot }) {
    await page.setViewportSize({ width: 390, height: 844 });
    await open();
    await page.selectOption("#start", "france");
    await page.waitForFunction(() => window.carto.doc.name === "france", null, { timeout: 20000 });
    await noSideways(page, "the Read tab");
    await page.evaluate(() => document.querySelector("#page table").scrollIntoView());
    await shot();
    await page.click("nav button[data-tab=measure]");
    await page.fill("#sim-games", "20");
    await page.click("#sim-run");
    await page.waitForFunction(() => document.getElementById("sim-table").textContent.length > 0, null, { timeout: 60000 });
    await noSideways(page, "the Measure tab");
    await page.click("nav button[data-tab=play]");
    await page.click("#play-new");
    await page.waitForFunction(() => window.carto.playView && !window.carto.playBusy, null, { timeout: 60000 });
    await noSideways(page, "the Play tab");
  },
};
