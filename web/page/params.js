// A parameter as a form field: a select for `one of [...]`, a number with its range for an int, a
// checkbox for a bool, else text. Used by the Read tab's form and the Measure tab's --vs form.
export function inputFor(p) {
  const oneOf = /^one of \[(.*)\]$/.exec(p.range);
  if (oneOf) {
    const sel = document.createElement("select");
    for (const o of oneOf[1].split(",")) sel.add(new Option(o.trim().replace(/^"|"$/g, "")));
    return sel;
  }
  const el = document.createElement("input");
  if (p.type === "bool") el.type = "checkbox";
  else if (p.type === "int") {
    el.type = "number";
    el.step = "1";
    const r = /^in (-?\d+)\.\.(-?\d+)$/.exec(p.range);
    if (r) { el.min = r[1]; el.max = r[2]; }
  } else el.type = "text";
  return el;
}

export const setValue = (el, v) => {
  if (el.type === "checkbox") el.checked = v === true;
  else el.value = typeof v === "string" ? v : JSON.stringify(v);
};

export const valueOf = (el) => (el.type === "checkbox" ? String(el.checked) : el.value);

// The parameter's line of doc: what it is, its type and range, its default.
export const describe = (p) => `${p.doc} (${p.type}${p.range ? " " + p.range : ""}, default ${JSON.stringify(p.default)})`;
