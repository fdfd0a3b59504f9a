// The language reference, one click from anywhere: the forms of a rules file, then every builtin,
// trigger and field of carto's table (the same lines as hovering a name in the editor), with a filter.
const $ = (id) => document.getElementById(id);

const FORMS = [
  ["import \"NAME\"", "start from a bundled variant: everything it has, then your changes"],
  ["variant \"NAME\" { title = \"…\" }", "the header: the variant's name, title, map, players, tiles…"],
  ["param NAME: int in 0..20 = 5 \"what it is\"", "a number the rules read by name (a form field on the Read tab)"],
  ["override NAME = VALUE", "an imported parameter's value changed"],
  ["rule NAME on TRIGGER when CONDITION { … }", "what happens when something happens (a tile placed, a feature scored, the game's end)"],
  ["action NAME phase PHASE limit per turn 1 when CONDITION { … }", "something a player may choose to do in a phase of the turn"],
  ["change rule NAME when CONDITION", "an imported rule with another condition (also: change action … limit …)"],
  ["replace rule NAME { … }", "an imported rule's body replaced"],
  ["remove rule NAME / remove action NAME", "an imported rule or action taken out"],
  ["choose NAME: chips from … size 1..2 where …", "a choice the player makes when taking an action"],
];

export function setupReference(app, el) {
  const kinds = [["trigger", "Triggers (rule NAME on …)"], ["query", "Queries (read the game)"], ["effect", "Effects (change the game)"], ["field", "Fields (x.name)"]];
  const esc = (s) => String(s).replace(/[&<>]/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;" })[c]);
  el.innerHTML = `<h2>The rules language</h2>
    <p>A rules file is a few kinds of statement; names below come from carto's own table (hover a name in the editor for the same line).</p>
    <table class="forms">${FORMS.map(([f, d]) => `<tr><td><code>${esc(f)}</code></td><td>${esc(d)}</td></tr>`).join("")}</table>
    <p><label>Find <input id="ref-filter" type="search" placeholder="score, chips, feature…"></label></p>
    <div id="ref-list"></div>`;
  const draw = () => {
    const q = $("ref-filter").value.trim().toLowerCase();
    const hit = (b) => !q || b.name.toLowerCase().includes(q) || b.doc.toLowerCase().includes(q);
    $("ref-list").innerHTML = kinds.map(([k, title]) => {
      const rows = app.bundled.builtins.filter((b) => b.kind === k && hit(b));
      return rows.length ? `<h3>${title}</h3><dl>${rows.map((b) => `<dt><code>${esc(b.signature)}</code></dt><dd>${esc(b.doc)}</dd>`).join("")}</dl>` : "";
    }).join("") || "<p>No name matches.</p>";
  };
  $("ref-filter").addEventListener("input", draw);
  draw();
}
