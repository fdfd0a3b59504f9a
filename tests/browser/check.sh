#!/usr/bin/env bash
# The HTML replay page (`carto view`) checked in a real browser: plays a game, writes its page, opens
# it in headless Chromium at several `#turn=N` and checks from the rendered DOM that the turn, the
# number of tiles shown and every player's score match the game log at that turn. Saves a
# screenshot. Then audits the page of a game of every bundled variant at desktop and phone size
# (tests/browser/audit.js: the last move framed on every turn, labels inside the drawing and apart,
# followers that stand out on every tile and chip, no sideways scroll) and saves their screenshots
# under target/browser/. Installs Chromium (and Node.js) from the distribution's packages when they
# are missing, and the audit's one npm package (playwright-core, pinned by package-lock.json).
# Usage: tests/browser/check.sh [CARTO-BINARY]   (default: target/debug/carto, built if missing)
set -euo pipefail
cd "$(dirname "$0")/../.."
carto=${1:-target/debug/carto}
[ -x "$carto" ] || cargo build --quiet
out=target/browser
rm -rf "$out" && mkdir -p "$out"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

browser=$(command -v chromium || command -v chromium-browser || command -v google-chrome || true)
if [ -z "$browser" ]; then
  echo "browser check: installing chromium from the distribution's packages"
  sudo_=""; [ "$(id -u)" = 0 ] || sudo_=sudo
  $sudo_ apt-get update -qq && $sudo_ apt-get install -y -qq chromium >/dev/null
  browser=$(command -v chromium)
fi

run_browser() { # URL, then extra flags
  local url=$1; shift
  timeout 60 "$browser" --headless --no-sandbox --disable-gpu --disable-quic --no-first-run \
    --disable-background-networking --disable-component-update --disable-sync \
    --user-data-dir="$(mktemp -d -p "$tmp")" "$@" "$url" 2>/dev/null
}

# One map game and one game on the endless table.
"$carto" play france --seed 3 --log "$tmp/france.log" --quiet >/dev/null
"$carto" play base --seed 2 --log "$tmp/base.log" --quiet >/dev/null
checked=0
for game in france base; do
  "$carto" view "$tmp/$game.log" -o "$out/$game.html"
  last=$(tail -n 1 "$tmp/$game.log" | python3 -c 'import json,sys; print(json.load(sys.stdin)["turn"])')
  for turn in 0 1 $((last / 2)) $((last - 1)) "$last"; do
    run_browser "file://$PWD/$out/$game.html#turn=$turn" --dump-dom >"$tmp/dom.html"
    python3 - "$tmp/$game.log" "$tmp/dom.html" "$turn" <<'PY'
import json, re, sys
log, dom, turn = sys.argv[1], open(sys.argv[2], encoding="utf-8").read(), int(sys.argv[3])
lines = [json.loads(l) for l in open(log, encoding="utf-8")]
players = lines[0]["players"]
want_tiles = sum(1 for l in lines if l["event"] == "tile_placed" and l["turn"] <= turn)
want = {p: 0 for p in players}
for l in lines:
    if l["event"] == "score" and l["turn"] <= turn:
        want[l["player"]] += l["points"]
def one(pattern):
    m = re.search(pattern, dom)
    if not m:
        sys.exit(f"browser check: {log} turn {turn}: `{pattern}` not in the rendered page")
    return m.group(1)
got_turn = int(one(r'id="turn-now">(\d+)<'))
got_tiles = int(one(r'id="tiles-shown">(\d+)<'))
drawn = len(re.findall(r'<g class="tile"[^>]*display="inline"', dom))
got = {p: int(one(r'data-player="%s">[^<]* (-?\d+)<' % re.escape(p))) for p in players}
problems = []
if got_turn != turn: problems.append(f"shows turn {got_turn}")
if got_tiles != want_tiles or drawn != want_tiles:
    problems.append(f"shows {got_tiles} tiles ({drawn} drawn), the log has {want_tiles}")
if got != want: problems.append(f"shows scores {got}, the log has {want}")
if problems:
    sys.exit(f"browser check: {log} turn {turn}: " + "; ".join(problems))
print(f"  turn {turn}: {want_tiles} tiles, scores {want}")
PY
    checked=$((checked + 1))
  done
done
shot="$out/france-turn-40.png"
run_browser "file://$PWD/$out/france.html#turn=40" --window-size=1200,1400 --screenshot="$PWD/$shot" >/dev/null
[ -s "$shot" ] || { echo "browser check: no screenshot written" >&2; exit 1; }
echo "browser check: ok, $checked turns of 2 games match their logs in $("$browser" --version 2>/dev/null | head -n1); screenshot $shot"

# Every bundled variant, audited at 1400×1000 and 390×844 (the phone opens zoomed in).
if ! command -v node >/dev/null; then
  echo "browser check: installing Node.js from the distribution's packages"
  sudo_=""; [ "$(id -u)" = 0 ] || sudo_=sudo
  $sudo_ apt-get install -y -qq nodejs npm >/dev/null
fi
[ -d tests/browser/node_modules/playwright-core ] ||
  (cd tests/browser && npm ci --no-audit --no-fund --loglevel=error >/dev/null)
# Games of 3, 5, 2 and 6 players in turn, so that every player colour is audited.
pages=()
seats=(ann bob cy dee eve fay)
counts=(3 5 2 6)
i=0
# In the listed order: taiwan and usa-east are among the 6-player games (the renderer keeps floated
# points clear of every label, chip and the board's edge; tests/render_labels.rs checks the final
# board of every variant at 2 to 6 players).
for v in $("$carto" list | awk '{print $1}'); do
  n=${counts[$((i % ${#counts[@]}))]}; i=$((i + 1))
  players=$(IFS=,; echo "${seats[*]:0:$n}")
  "$carto" play "$v" --seed 3 --players "$players" --log "$tmp/$v.log" --quiet >/dev/null
  "$carto" view "$tmp/$v.log" -o "$out/$v.html"
  pages+=("$out/$v.html")
done
PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD=1 node tests/browser/audit.js "$browser" "${pages[@]}"
# The tile stacks the rules deal onto squares (Benelux's islands): at the setup, the middle and the
# end, each stack drawn on its square shows the tiles left in it, as the log tells (the setup's
# notes deal them, each `buy stack@X,Y` of a turn takes its top tile).
if [ -f "$tmp/benelux.log" ]; then
  last=$(tail -n 1 "$tmp/benelux.log" | python3 -c 'import json,sys; print(json.load(sys.stdin)["turn"])')
  for turn in 0 $((last / 2)) "$last"; do
    run_browser "file://$PWD/$out/benelux.html#turn=$turn" --dump-dom >"$tmp/dom.html"
    python3 - "$tmp/benelux.log" "$tmp/dom.html" "$turn" <<'PY'
import json, re, sys
log, dom, turn = sys.argv[1], open(sys.argv[2], encoding="utf-8").read(), int(sys.argv[3])
want = {}
for line in open(log, encoding="utf-8"):
    e = json.loads(line)
    for n in e.get("notes", []):
        m = re.match(r"a stack of (\d+) tiles at (-?\d+),(-?\d+)", n)
        if m:
            want[(m.group(2), m.group(3))] = int(m.group(1))
    if e["event"] == "turn_end" and e["turn"] <= turn:
        for c in e.get("choices", []):
            m = re.match(r"buy stack@(-?\d+),(-?\d+):", c)
            if m:
                want[m.groups()] -= 1
if not want:
    sys.exit(f"browser check: {log}: no tile stacks in the log")
got = {}
for g in re.findall(r'<g class="stacked"[^>]*display="inline"[^>]*>(.*?)</title>', dom):
    m = re.search(r"a stack of (\d+) tiles? at (-?\d+),(-?\d+)", g)
    if m:
        got[(m.group(2), m.group(3))] = int(m.group(1))
want = {k: v for k, v in want.items() if v > 0}
if got != want:
    sys.exit(f"browser check: {log} turn {turn}: stacks drawn {got}, the log has {want}")
print(f"  benelux turn {turn}: tile stacks {sorted(want.values())} as in the log")
PY
  done
fi
echo "browser audit: ok, ${#pages[@]} variants (games of 2, 3, 5 and 6 players) at desktop and phone size; screenshots in $out/"
