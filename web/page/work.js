// The work in progress, kept in the browser's local storage after every edit (the rules, the
// variant they started from, the parameters, the map of one's own): reopening the page without a
// link restores it. Opening a link keeps the work it would replace under a second key, offered
// back on the first screen. Nothing leaves the browser.
const KEY = "carto.work";
const BEFORE_LINK = "carto.work.before-link";

function read(key) {
  try {
    const w = JSON.parse(localStorage.getItem(key));
    return w && typeof w.text === "string" && typeof w.base === "string" ? w : null;
  } catch {
    return null;
  }
}

function write(key, state) {
  try {
    localStorage.setItem(key, JSON.stringify(state));
    return true;
  } catch {
    return false; // storage full or refused: the page says so where it saves
  }
}

export const loadWork = () => read(KEY);
export const saveWork = (state) => write(KEY, state);
export const loadBeforeLink = () => read(BEFORE_LINK);

// A link is about to replace the stored work: keep the work aside when it differs.
export function keepBeforeLink(linkState) {
  const w = read(KEY);
  if (w && (w.text !== linkState.text || (w.map || "") !== (linkState.map || ""))) write(BEFORE_LINK, w);
}

export function forgetBeforeLink() {
  try { localStorage.removeItem(BEFORE_LINK); } catch { /* nothing kept */ }
}
