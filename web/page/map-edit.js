// The map of one's own: a second editor (TOML) for `my.toml`, started blank or from a bundled map,
// with the problems `carto render --map my.toml` finds underlined as you type. The rules use it by
// `map = "my.toml"` in their header (starting a map puts that line there).
import { EditorView, basicSetup } from "codemirror";
import { EditorState } from "@codemirror/state";
import { StreamLanguage } from "@codemirror/language";
import { linter, lintGutter } from "@codemirror/lint";

export const MAP_NAME = "my.toml";
const DEBOUNCE_MS = 120;

export const BLANK_MAP = `# A map of your own. Every character of the grid is a square; the legend says what it is.
# Kinds: land, sea, wave, offmap, large_city, island; a table such as
# { kind = "land", town = true, attrs = { wine = "blue" } } marks a town and gives attributes the
# rules read as square.NAME. Coordinates are [x, y] from the top-left square, 0-based.
name = "My island"
doc = "A small island with one town and one large city."

grid = """
~~~~~~~~~~~~
~..........~
~..t.......~
~......#...~
~..........~
~~~~~~~~~~~~
"""

[legend]
"~" = "sea"
"." = "land"
"#" = "large_city"
"t" = { kind = "land", town = true }

[[start]]
name = "Harbour"                  # a start square: a town on land, with a name
at = [1, 1]

[[start]]
name = "Cape"
at = [10, 4]

[[town]]                          # names the town the legend's "t" draws
name = "Market"
at = [3, 2]
`;

// TOML, enough to read a map: comments, strings (also multi-line), tables, keys, numbers.
const toml = StreamLanguage.define({
  name: "toml",
  startState: () => ({ long: null }),
  token(stream, state) {
    if (state.long) {
      if (stream.skipTo(state.long)) { stream.pos += 3; state.long = null; } else stream.skipToEnd();
      return "string";
    }
    if (stream.eatSpace()) return null;
    if (stream.match("#")) { stream.skipToEnd(); return "comment"; }
    for (const q of ['"""', "'''"]) if (stream.match(q)) { state.long = q; return "string"; }
    if (stream.match(/^"(?:[^"\\]|\\.)*"?/) || stream.match(/^'[^']*'?/)) return "string";
    if (stream.sol() && stream.match(/^\[\[?[^\]]*\]\]?/)) return "heading";
    if (stream.match(/^-?\d+/)) return "number";
    if (stream.match(/^(true|false)\b/)) return "atom";
    if (stream.match(/^[A-Za-z_][\w-]*(?=\s*=)/)) return "propertyName";
    stream.next();
    return "operator";
  },
  languageData: { commentTokens: { line: "#" } },
});

// Points the rules' header at my.toml: replaces its `map = "…"`, or adds the line to the variant
// header. Returns the new text, or null when the rules declare no variant header.
export function useMapIn(rules) {
  const key = /^(\s*map\s*=\s*)("[^"\n]*"|unbounded)/m;
  if (key.test(rules)) return rules.replace(key, `$1"${MAP_NAME}"`);
  const header = /^variant\s+"[^"\n]*"\s*\{[^\n]*\n/m.exec(rules);
  if (!header) return null;
  const at = header.index + header[0].length;
  return rules.slice(0, at) + `  map = "${MAP_NAME}"\n` + rules.slice(at);
}

export function setupMapEditor(app, { parent, problems, start, onChecked }) {
  start.add(new Option("no map of my own", ""));
  start.add(new Option("a blank map (a small island)", "blank"));
  for (const name of Object.keys(app.bundled.maps).filter((n) => !n.startsWith("test"))) {
    start.add(new Option(`a copy of ${name}`, name));
  }

  const lint = linter((view) => {
    const text = view.state.doc.toString();
    if (!text.trim()) {
      problems.summary.textContent = "no map of your own: the rules use the map their header names";
      problems.summary.className = "";
      problems.text.textContent = "";
      app.lastMapCheck = null;
      onChecked(null);
      return [];
    }
    const r = app.call({ fn: "check_map", name: MAP_NAME, text });
    app.lastMapCheck = r;
    problems.summary.textContent = r.summary;
    problems.summary.className = r.errors ? "bad" : "good";
    problems.text.textContent = r.text;
    onChecked(r);
    return r.diagnostics.map((d) => ({
      from: d.from,
      to: Math.min(Math.max(d.to, d.from), text.length),
      severity: d.severity,
      message: d.message + (d.label ? ` (${d.label})` : "") + (d.hint ? `\n${d.hint}` : ""),
      source: `${d.file}:${d.line}:${d.column}`,
    }));
  }, { delay: DEBOUNCE_MS });

  const view = new EditorView({
    parent,
    state: EditorState.create({
      doc: app.initialMap ?? "",
      extensions: [
        basicSetup, toml, lint, lintGutter(), EditorView.lineWrapping,
        EditorView.updateListener.of((u) => { if (u.docChanged) app.mapEdited = performance.now(); }),
      ],
    }),
  });
  app.mapView = view;
  app.mapText = () => view.state.doc.toString();
  app.setMapText = (text) => view.dispatch({ changes: { from: 0, to: view.state.doc.length, insert: text } });
  // The maps every call passes: my.toml while it has text.
  app.maps = () => (app.mapText().trim() ? [{ name: MAP_NAME, text: app.mapText() }] : []);

  start.addEventListener("change", () => {
    const v = start.value;
    app.mapStart = v;
    app.setMapText(v === "" ? "" : v === "blank" ? BLANK_MAP : app.bundled.maps[v]);
    if (v !== "") {
      const rules = useMapIn(app.text());
      if (rules === null) app.status(`the rules declare no variant header: add map = "${MAP_NAME}" to one`);
      else if (rules !== app.text()) app.setText(rules);
    }
  });
  return view;
}
