#!/usr/bin/env bash
# Behaviour unchanged? Writes the game logs of many games of every bundled variant, or checks that a
# build still writes them byte for byte.
#
#   scripts/compare-logs.sh write DIR    plays the games with the current build, logs into DIR
#   scripts/compare-logs.sh check DIR    plays them again and compares with DIR (exit 1 on a difference)
#
# The games: seeds 1..SEEDS (default 50) of every bundled variant with 2, 3 and 5 players, random agents,
# and seeds 1..GREEDY (default 3) with greedy against random. A refactoring that must not change what
# carto does: `write` on the old commit, `check` on the new one. CARTO=path chooses the binary (default
# target/release/carto, built when missing).
# Example:
#   git stash; cargo build --release; scripts/compare-logs.sh write /tmp/before
#   git stash pop; cargo build --release; scripts/compare-logs.sh check /tmp/before
set -euo pipefail
cd "$(dirname "$0")/.."
usage() { sed -n '2,14p' "$0" | sed 's/^# \{0,1\}//' >&2; exit 2; }
[ $# -eq 2 ] || usage
mode=$1 dir=$2
case "$mode" in write | check) ;; *) usage ;; esac
carto=${CARTO:-target/release/carto}
if [ ! -x "$carto" ]; then
  [ -z "${CARTO:-}" ] || { echo "compare-logs: no binary at $carto" >&2; exit 2; }
  cargo build --release --quiet
fi
seeds=${SEEDS:-50} greedy=${GREEDY:-3}
variants=$("$carto" list | awk '{print $1}')
[ -n "$variants" ] || { echo "compare-logs: \`carto list\` named no variant" >&2; exit 1; }

if [ "$mode" = write ]; then
  [ ! -e "$dir" ] || [ -z "$(ls -A "$dir")" ] || { echo "compare-logs: $dir is not empty" >&2; exit 2; }
  out=$dir
else
  [ -d "$dir" ] || { echo "compare-logs: no folder $dir (make it with \`write\`)" >&2; exit 2; }
  out=$(mktemp -d)
  trap 'rm -rf "$out"' EXIT
fi
mkdir -p "$out"

games=0
play() { # variant players seed agents name
  "$carto" play "$1" --players "$2" --seed "$3" --agents "$4" --quiet --log "$out/$5.log" >/dev/null
  games=$((games + 1))
}
for v in $variants; do
  for players in ann,bob ann,bob,cyd ann,bob,cyd,dan,eve; do
    n=$(tr ',' '\n' <<<"$players" | wc -l)
    for seed in $(seq 1 "$seeds"); do play "$v" "$players" "$seed" random "$v-p$n-s$seed"; done
  done
  for seed in $(seq 1 "$greedy"); do play "$v" ann,bob "$seed" greedy,random "$v-greedy-s$seed"; done
done

if [ "$mode" = write ]; then
  echo "compare-logs: wrote the logs of $games games to $dir"
  exit 0
fi
different=0
for f in "$dir"/*.log; do
  name=$(basename "$f")
  if [ ! -f "$out/$name" ]; then
    echo "compare-logs: $name is in $dir but this build did not play it" >&2
    different=$((different + 1))
  elif ! cmp -s "$f" "$out/$name"; then
    [ "$different" -ge 5 ] || {
      echo "compare-logs: $name differs; first difference:" >&2
      diff "$f" "$out/$name" | head -4 >&2 || true
    }
    different=$((different + 1))
  fi
done
if [ "$different" -gt 0 ]; then
  echo "compare-logs: $different of $games logs differ from $dir" >&2
  exit 1
fi
echo "compare-logs: all $games logs are byte-identical to $dir"
