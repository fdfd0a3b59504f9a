// The first screen: what carto is in one sentence and three doors (play a variant now, read its
// rules, change a rule with a guided example), and the page's modes: `home`, `read` (the tabs
// alone) and `workshop` (the rules file beside the tabs). The editor comes when asked for.
const $ = (id) => document.getElementById(id);

export function setupHome(app, { work, beforeLink }) {
  const setMode = (mode) => {
    document.body.dataset.mode = mode;
    $("edit-toggle").setAttribute("aria-pressed", String(mode === "workshop"));
    $("edit-toggle").textContent = mode === "workshop" ? "Hide the rules file" : "Edit the rules";
    if (mode === "workshop") app.view.requestMeasure();
    window.scrollTo(0, 0);
  };
  app.setMode = setMode;
  app.mode = () => document.body.dataset.mode;

  const pick = $("home-variant");
  for (const v of app.bundled.variants) pick.add(new Option(v.title, v.name));
  pick.value = app.bundled.rules[app.base] && app.base !== "base" ? app.base : app.bundled.variants.find((v) => v.name !== "base")?.name ?? "base";

  // A door opens the variant picked (asking first when the rules being edited would be replaced).
  const door = (id, go) => $(id).addEventListener("click", go);
  const open = async (base) => app.startFrom(base);
  door("door-play-computer", async () => {
    if (!(await open(pick.value))) return false;
    setMode("read");
    app.showTab("play");
    app.playWith("computer");
    return true;
  });
  door("door-play-friends", async () => {
    if (!(await open(pick.value))) return false;
    setMode("read");
    app.showTab("play");
    app.playWith("friends");
    return true;
  });
  door("door-read-button", async () => {
    if (!(await open(pick.value))) return false;
    setMode("read");
    app.showTab("read");
    return true;
  });
  door("door-change-button", async () => {
    if (!(await open("template:house"))) return false;
    setMode("workshop");
    app.showTab("read");
    app.showGuide();
    return true;
  });
  $("door-reference").addEventListener("click", () => { setMode("read"); app.showTab("reference"); });
  $("door-continue").addEventListener("click", () => { setMode("workshop"); app.showTab("read"); });
  $("door-before-link").addEventListener("click", () => {
    app.useState(beforeLink);
    $("home-before-link").hidden = true;
    setMode("workshop");
    app.showTab("read");
  });
  $("home-continue").hidden = !work || !app.unsaved();
  $("home-before-link").hidden = !beforeLink;

  $("home-link").addEventListener("click", (e) => { e.preventDefault(); setMode("home"); });
  $("edit-toggle").addEventListener("click", () => setMode(app.mode() === "workshop" ? "read" : "workshop"));
}
