#!/usr/bin/env bash
# Prints the instructions one game of each VARIANT costs, counted with callgrind:
#   random (default):   (Ir of `carto bench V --games 21` - Ir of `carto bench V --games 1`) / 20
#   -a AGENT (greedy):  (Ir of `carto sim V --agents AGENT --games 21 --threads 1 --quiet` - the same
#                        with --games 1) / 20, and that game's cost in random games of V
# Games 0..20 of seed 0 (so -a greedy plays the same 21 games each time); the first game is taken off,
# so the figure leaves out what a run costs once (loading the rules, the agents' first questions).
# Counting instructions is repeatable on a busy machine, unlike timing. Needs valgrind and a release
# build (`cargo build --release`: the counts need no debug info; for callgrind_annotate by function
# and line, `cargo build --profile profiling` and CARTO=target/profiling/carto); CARTO=path
# overrides the binary. GAMES=N changes the 21 (greedy's cost with fewer games includes more of the
# first questions an agent asks of the rules and remembers).
# Usage: scripts/instructions.sh [-a AGENT] [VARIANT...]   (default: every bundled variant)
# Example: CARTO=target/profiling/carto scripts/instructions.sh -a greedy base france
set -euo pipefail
cd "$(dirname "$0")/.."
carto=${CARTO:-target/release/carto}
agent=
if [ "${1:-}" = -a ]; then
  [ $# -ge 2 ] || { echo "instructions.sh: -a needs an agent" >&2; exit 2; }
  agent=$2
  shift 2
fi
games=${GAMES:-21}
[ "$games" -ge 2 ] 2>/dev/null || { echo "instructions.sh: GAMES must be 2 or more" >&2; exit 2; }
[ -x "$carto" ] || { echo "no $carto: run cargo build --release first" >&2; exit 2; }
command -v valgrind >/dev/null || { echo "valgrind is needed" >&2; exit 2; }
variants=("$@")
if [ ${#variants[@]} -eq 0 ]; then
  variants=(base benelux france germany great-britain iberia taiwan ukraine usa usa-east usa-west)
fi
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
ir() { # command... -> total instructions
  valgrind --tool=callgrind --callgrind-out-file="$tmp/out" "$carto" "$@" \
    >/dev/null 2>"$tmp/err" || { cat "$tmp/err" >&2; exit 1; }
  sed -n 's/^==[0-9]*== Collected : //p' "$tmp/err"
}
per_game() { # variant -> instructions per random game
  local one many
  one=$(ir bench "$1" --games 1)
  many=$(ir bench "$1" --games "$games")
  echo $(( (many - one) / (games - 1) ))
}
if [ -z "$agent" ]; then
  printf '%-14s %12s\n' variant instr/game
  for v in "${variants[@]}"; do
    printf '%-14s %12d\n' "$v" "$(per_game "$v")"
  done
  exit 0
fi
printf '%-14s %12s %12s %8s\n' variant random "$agent" "x random"
for v in "${variants[@]}"; do
  random=$(per_game "$v")
  one=$(ir sim "$v" --agents "$agent" --games 1 --threads 1 --quiet)
  many=$(ir sim "$v" --agents "$agent" --games "$games" --threads 1 --quiet)
  cost=$(( (many - one) / (games - 1) ))
  # One decimal, rounded half up, in integers.
  tenths=$(( (cost * 100 / random + 5) / 10 ))
  printf '%-14s %12d %12d %5d.%d\n' "$v" "$random" "$cost" $((tenths / 10)) $((tenths % 10))
done
