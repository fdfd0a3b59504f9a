// The original a Measure run compares with (measure.js): its rules (a bundled variant, or these
// rules with other values) and its parameters as a form that starts at the original's own values;
// a value changed there is the original's `--vs name=value`. A house rule is compared with the
// variant it imports until the person chooses otherwise.
import { inputFor, setValue, valueOf, describe } from "./params.js";
import { shortTitle } from "./measure-view.js";

export function setupOriginal(app) {
  const $ = (id) => document.getElementById(id);
  const vsRules = $("sim-vs-rules");
  vsRules.add(new Option("these rules, other values", ""));
  for (const v of app.bundled.variants) vsRules.add(new Option(`${shortTitle(v.title)} (${v.name})`, v.name));

  // The second setting: its rules' parameters (the original's, or these rules' own), every one at
  // its value there; the ones changed in the form are its `--vs name=value`.
  const vsSets = {}; // name -> value text chosen in the --vs form
  let linked = null; // {name, text}: an original's text a link carried that is not the bundled one
  let touched = false; // the person chose whether and with what to compare
  const aText = (p) => (typeof p.value === "string" ? p.value : JSON.stringify(p.value));
  const vsText = (name) => (linked && linked.name === name ? linked.text : app.bundled.rules[name]);
  const on = () => $("sim-vs-on").checked;
  app.vsRules = () => (on() ? vsRules.value : "");
  let vsParams = [];
  function loadVsParams() {
    $("sim-vs-note").textContent = "";
    if (!app.doc) return [];
    const r = app.vsRules();
    if (!r) return app.doc.params;
    const d = app.call({ fn: "doc", name: r, text: vsText(r), sets: app.setsList(), maps: app.maps() });
    if (d.error) { $("sim-vs-note").textContent = d.error; return []; }
    if (linked && linked.name === r) $("sim-vs-note").textContent = `The link's rules for ${r} are not this playground's bundled ${r}: the link's are measured (as original.rules).`;
    return d.params;
  }
  app.vsList = () => (on() ? vsParams.filter((p) => p.name in vsSets && vsSets[p.name] !== "" && vsSets[p.name] !== aText(p))
    .map((p) => `${p.name}=${vsSets[p.name]}`) : []);
  function showVs() {
    const vs = (app.vsRules() ? [`--vs-rules ${app.vsRules()}`] : []).concat(app.vsList().map((v) => `--vs ${v}`));
    $("sim-vs-list").textContent = !on() ? ""
      : vs.length ? "the original: " + vs.join(" ") : "pick the original's rules or change a value above: until then both settings are the same";
  }
  function vsForm() {
    const form = $("sim-vs-form");
    $("sim-vs-values").hidden = !on();
    $("sim-vs-rules-row").hidden = !on();
    // Folded while the original is other rules at their own values; open to compare values.
    if (on() && (!vsRules.value || app.vsList().length)) $("sim-vs-values").open = true;
    form.replaceChildren();
    vsParams = on() ? loadVsParams() : [];
    for (const p of vsParams) {
      const label = document.createElement("label");
      label.textContent = p.name;
      label.htmlFor = "vs-" + p.name;
      const input = inputFor(p);
      input.id = "vs-" + p.name;
      setValue(input, p.name in vsSets ? (p.type === "bool" ? vsSets[p.name] === "true" : vsSets[p.name]) : p.value);
      const mark = () => label.classList.toggle("changed", valueOf(input) !== aText(p));
      input.addEventListener("change", () => { vsSets[p.name] = valueOf(input); mark(); showVs(); });
      mark();
      const doc = document.createElement("span");
      doc.className = "doc";
      doc.textContent = describe(p);
      form.append(label, input, doc);
    }
    showVs();
  }
  $("sim-vs-on").addEventListener("change", () => { touched = true; vsForm(); });
  vsRules.addEventListener("change", () => { touched = true; vsForm(); });
  // A house rule (rules of one's own that import a bundled variant) is compared with that variant
  // unless the person chose otherwise.
  function guessOriginal() {
    if (touched || !app.doc || app.rulesName() === app.base) return;
    const imported = [...app.text().matchAll(/^\s*import\s+"([^"]+)"/gm)].map((m) => m[1]).find((n) => app.bundled.rules[n]);
    if (!imported || !app.bundled.variants.some((v) => v.name === imported)) return;
    $("sim-vs-on").checked = true;
    vsRules.value = imported;
  }
  app.listeners.push(() => { guessOriginal(); if (on()) vsForm(); });

  // The names of the two settings, in the rules' words: the original's title, and yours (the
  // house rule's title when it has its own, else "your rule"; "your values" for --vs alone).
  function labels() {
    const title = app.doc ? shortTitle(app.doc.title) : "these rules";
    const r = app.vsRules();
    if (!r) return { one: title, original: title, yours: `your values (${app.vsList().join(" ")})` };
    const original = shortTitle(app.bundled.variants.find((v) => v.name === r)?.title ?? r);
    return { one: title, original, yours: title !== original ? title : "your rule" };
  }

  return {
    labels,
    vsText,
    // What a link carries of the original, and back.
    state: () => ({ compare: on(), vs_rules: vsRules.value, vs_text: on() && vsRules.value ? vsText(vsRules.value) : "", vs: { ...vsSets } }),
    apply(m) {
      touched = true;
      $("sim-vs-on").checked = m.compare;
      linked = m.vs_rules && m.vs_text && m.vs_text !== app.bundled.rules[m.vs_rules] ? { name: m.vs_rules, text: m.vs_text } : null;
      if (m.vs_rules && !app.bundled.rules[m.vs_rules] && linked) vsRules.add(new Option(`${m.vs_rules} (from the link)`, m.vs_rules));
      vsRules.value = m.vs_rules;
      for (const k of Object.keys(vsSets)) delete vsSets[k];
      Object.assign(vsSets, m.vs);
      vsForm();
    },
  };
}
