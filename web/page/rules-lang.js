// The rules language for the editor: highlighting, hover docs from the builtin table, completion.
import { StreamLanguage } from "@codemirror/language";
import { hoverTooltip } from "@codemirror/view";

export const KEYWORDS = [
  "import", "variant", "param", "rule", "action", "forced", "setup", "on", "when", "phase", "limit",
  "per", "turn", "round", "group", "choose", "ask", "let", "if", "else", "for", "in", "where", "and",
  "or", "not", "true", "false", "remove", "change", "replace", "override", "chips", "from", "size",
  "one", "of", "none", "no_follower", "not_extra", "pass", "colour", "chip", "holding", "table",
];

export function rulesLanguage(builtinNames) {
  const kw = new Set(KEYWORDS);
  const builtins = new Set(builtinNames);
  return StreamLanguage.define({
    name: "carto-rules",
    startState: () => ({ inLong: false }),
    token(stream, state) {
      if (state.inLong) {
        if (stream.skipTo('"""')) { stream.pos += 3; state.inLong = false; } else stream.skipToEnd();
        return "string";
      }
      if (stream.eatSpace()) return null;
      if (stream.match("#")) { stream.skipToEnd(); return "comment"; }
      if (stream.match('"""')) { state.inLong = true; return "string"; }
      if (stream.match(/^"(?:[^"\\]|\\.)*"?/)) return "string";
      if (stream.match(/^\d+/)) return "number";
      if (stream.match(/^[A-Za-z_][A-Za-z0-9_]*/)) {
        const w = stream.current();
        if (kw.has(w)) return "keyword";
        if (builtins.has(w)) return "variableName.special";
        return "variableName";
      }
      stream.next();
      return "operator";
    },
    languageData: { commentTokens: { line: "#" } },
  });
}

function wordAt(doc, pos) {
  const line = doc.lineAt(pos);
  const text = line.text;
  let a = pos - line.from, b = a;
  while (a > 0 && /\w/.test(text[a - 1])) a--;
  while (b < text.length && /\w/.test(text[b])) b++;
  if (a === b) return null;
  return { from: line.from + a, to: line.from + b, word: text.slice(a, b) };
}

// Hovering a builtin, trigger or field shows its signature and one line of doc.
export function hoverDocs(table) {
  const byName = new Map();
  for (const e of table) {
    if (!byName.has(e.name)) byName.set(e.name, []);
    byName.get(e.name).push(e);
  }
  return hoverTooltip((view, pos) => {
    const w = wordAt(view.state.doc, pos);
    if (!w || !byName.has(w.word)) return null;
    return {
      pos: w.from, end: w.to, above: true,
      create() {
        const dom = document.createElement("div");
        dom.className = "doc-hover";
        for (const e of byName.get(w.word).slice(0, 4)) {
          const sig = document.createElement("div");
          sig.className = "doc-sig";
          sig.textContent = e.signature;
          const doc = document.createElement("div");
          doc.textContent = e.doc;
          dom.append(sig, doc);
        }
        return { dom };
      },
    };
  });
}

// Completion: keywords, builtins (with their signature), and the names of the file and of what it
// imports (parameters, rules, actions, attributes).
export function completionSource(table, extraWords) {
  const base = [
    ...KEYWORDS.map((k) => ({ label: k, type: "keyword" })),
    ...table.map((e) => ({ label: e.name, type: e.kind === "field" ? "property" : e.kind === "trigger" ? "event" : "function", detail: e.signature, info: e.doc })),
  ];
  return (context) => {
    const w = context.matchBefore(/\w+/);
    if (!w && !context.explicit) return null;
    const seen = new Set(base.map((o) => o.label));
    if (w) seen.add(w.text); // not the word being typed itself
    const names = [];
    for (const m of (context.state.doc.toString() + "\n" + extraWords()).matchAll(/[A-Za-z_]\w{2,}/g)) {
      if (!seen.has(m[0])) { seen.add(m[0]); names.push({ label: m[0], type: "variable" }); }
    }
    return { from: w ? w.from : context.pos, options: [...base, ...names], validFor: /^\w*$/ };
  };
}
