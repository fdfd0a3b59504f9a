#!/usr/bin/env bash
# Prints the instructions one random game of each VARIANT costs, counted with callgrind:
#   (Ir of `carto bench V --games 21` - Ir of `carto bench V --games 1`) / 20
# Counting instructions is repeatable on a busy machine, unlike timing. Needs valgrind and a release
# build (`cargo build --release`: the counts need no debug info; for callgrind_annotate by function
# and line, `cargo build --profile profiling` and CARTO=target/profiling/carto); CARTO=path
# overrides the binary.
# Usage: scripts/instructions.sh [VARIANT...]   (default: every bundled variant)
set -euo pipefail
cd "$(dirname "$0")/.."
carto=${CARTO:-target/release/carto}
[ -x "$carto" ] || { echo "no $carto: run cargo build --release first" >&2; exit 2; }
command -v valgrind >/dev/null || { echo "valgrind is needed" >&2; exit 2; }
variants=("$@")
if [ ${#variants[@]} -eq 0 ]; then
  variants=(base benelux france germany great-britain iberia taiwan ukraine usa usa-east usa-west)
fi
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
ir() { # variant games -> total instructions
  valgrind --tool=callgrind --callgrind-out-file="$tmp/out" "$carto" bench "$1" --games "$2" \
    >/dev/null 2>"$tmp/err" || { cat "$tmp/err" >&2; exit 1; }
  sed -n 's/^==[0-9]*== Collected : //p' "$tmp/err"
}
printf '%-14s %12s\n' variant instr/game
for v in "${variants[@]}"; do
  one=$(ir "$v" 1)
  many=$(ir "$v" 21)
  printf '%-14s %12d\n' "$v" $(( (many - one) / 20 ))
done
