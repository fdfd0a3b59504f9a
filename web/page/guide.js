// The guided example of a house rule, above the editor: what the template's lines do, one change
// to make (the page follows it: the step is ticked when the Read tab says what the change does),
// and where to go next. The language reference is one click away.
const $ = (id) => document.getElementById(id);

const STEPS = [
  {
    text: "This file starts from France (<code>import \"france\"</code>) and changes three things: line 6 removes the sale to towns, line 7 allows two sales abroad a turn, line 8 makes roads of fewer than 3 tiles worth nothing. The Read tab shows France's rule page with these changes, each saying where it was made.",
    done: () => true,
  },
  {
    text: "Your turn: on line 7, change <code>2</code> to <code>3</code>. When you stop typing, the Read tab says “up to 3 times per turn” and the problems panel below stays green.",
    done: (app) => app.doc && / \(phase 3, up to 3 times per turn\)/.test(app.doc.markdown),
  },
  {
    text: "Play your rules (the Play tab), or measure them against France (the Measure tab: compare with a second setting whose rules are France). A typo is underlined with what was expected; hover a name for its meaning.",
    done: () => false,
  },
];

export function setupGuide(app) {
  const box = $("guide");
  const draw = () => {
    const items = STEPS.map((s, k) => `<li class="${s.done(app) ? "done" : ""}">${s.text}</li>`).join("");
    box.innerHTML = `<div class="guide-head"><strong>A house rule, step by step</strong>
      <button type="button" class="link" id="guide-reference">language reference</button>
      <button type="button" id="guide-close" aria-label="close the guide">×</button></div><ol>${items}</ol>`;
    $("guide-close").addEventListener("click", () => { box.hidden = true; app.view.requestMeasure(); });
    $("guide-reference").addEventListener("click", () => app.showTab("reference"));
  };
  app.showGuide = () => { box.hidden = false; draw(); };
  app.listeners.push(() => { if (!box.hidden) draw(); });
}
