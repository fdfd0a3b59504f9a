#!/usr/bin/env bash
# The strength table: every agent against every other, two players, on each variant, each pair
# playing GAMES seeds in both seats (2 x GAMES games, the same seeds both ways round). Prints a
# Markdown table: the first agent's win share over both seats (a tie counts a half) with its 95%
# interval (normal approximation over the 2 x GAMES games), and the games per second of the pair
# on one core (`carto sim --threads 1`, per CPU second: a figure of this machine, unlike the
# shares, which are the same on every machine).
# Usage: scripts/strength.sh [-g GAMES] [-a AGENTS] [-j JOBS] [VARIANT...]
#   GAMES   seeds per pair and seat (default 200)
#   AGENTS  comma-separated agent specs (default random,greedy,mcts)
#   JOBS    variants played side by side, each one game at a time (default 1); the table is the
#           same whatever JOBS is (rows in the order of the variants; games/s per CPU second of
#           each run)
#   VARIANT bundled variants (default: base and every chip variant)
# CARTO=path picks the binary (default target/release/carto; build it with cargo build --release).
# Prefix `nice` on a shared machine.
set -euo pipefail
cd "$(dirname "$0")/.."
carto=${CARTO:-target/release/carto}
games=200
agents=random,greedy,mcts
jobs=1
while getopts "g:a:j:" o; do
  case $o in
    g) games=$OPTARG ;;
    a) agents=$OPTARG ;;
    j) jobs=$OPTARG ;;
    *) echo "usage: $0 [-g GAMES] [-a AGENTS] [-j JOBS] [VARIANT...]" >&2; exit 2 ;;
  esac
done
shift $((OPTIND - 1))
[[ $games =~ ^[1-9][0-9]*$ ]] || { echo "GAMES must be a positive number, not '$games'" >&2; exit 2; }
[[ $jobs =~ ^[1-9][0-9]*$ ]] || { echo "JOBS must be a positive number, not '$jobs'" >&2; exit 2; }
[ -x "$carto" ] || { echo "no $carto: run cargo build --release first (or set CARTO)" >&2; exit 2; }
variants=("$@")
if [ ${#variants[@]} -eq 0 ]; then
  mapfile -t variants < <("$carto" list | awk '$1 != "" { print $1 }')
fi
IFS=, read -r -a specs <<<"$agents"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# Plays GAMES seeds of VARIANT with the seats as given; the per-game CSV in FILE; prints the CPU
# seconds the run took (user + system: a busy machine slows the wall clock, not this).
run() { # variant agentA agentB file
  python3 -c '
import resource, subprocess, sys
subprocess.run(sys.argv[1:], check=True, stdout=subprocess.DEVNULL)
r = resource.getrusage(resource.RUSAGE_CHILDREN)
print(r.ru_utime + r.ru_stime)' \
    "$carto" sim "$1" --games "$games" --agents "$2,$3" --threads 1 --quiet --per-game "$4"
}

echo "Win share of the first agent over both seats, ${games} seeds each way ($((2 * games)) games"
echo "a pair), 95% interval; games per CPU second on one core. \`scripts/strength.sh -g $games\`."
echo
echo "| variant | agents | win share | 95% interval | games/s |"
echo "|---|---|---|---|---|"
# The rows of variant number K, in $tmp/rows-K (its games in $tmp/K-*.csv).
rows() { # k variant
  local k=$1 v=$2 i j a b t1 t2
  for ((i = 0; i < ${#specs[@]}; i++)); do
    for ((j = i + 1; j < ${#specs[@]}; j++)); do
      a=${specs[i]} b=${specs[j]}
      t1=$(run "$v" "$a" "$b" "$tmp/$k-ab.csv")
      t2=$(run "$v" "$b" "$a" "$tmp/$k-ba.csv")
      python3 - "$tmp/$k-ab.csv" "$tmp/$k-ba.csv" "$t1" "$t2" "$v" "$a" "$b" <<'EOF'
import csv, math, sys
ab, ba, t1, t2, v, a, b = sys.argv[1:]
shares = []
for path, seat in ((ab, 0), (ba, 1)):
    with open(path) as f:
        for row in csv.DictReader(f):
            scores = [int(row[k]) for k in row if k.startswith("score_")]
            mine = scores[seat]
            other = scores[1 - seat]
            shares.append(1.0 if mine > other else 0.5 if mine == other else 0.0)
n = len(shares)
mean = sum(shares) / n
sd = math.sqrt(sum((s - mean) ** 2 for s in shares) / (n - 1)) if n > 1 else 0.0
half = 1.96 * sd / math.sqrt(n)
rate = n / (float(t1) + float(t2))
print(f"| {v} | {a} vs {b} | {mean:.2f} | [{max(0, mean - half):.2f}, {min(1, mean + half):.2f}] | {rate:.1f} |")
EOF
    done
  done >"$tmp/rows-$k"
  touch "$tmp/done-$k"
}

for k in "${!variants[@]}"; do
  while [ "$(jobs -rp | wc -l)" -ge "$jobs" ]; do wait -n || true; done
  rows "$k" "${variants[k]}" &
done
wait
for k in "${!variants[@]}"; do
  [ -e "$tmp/done-$k" ] || { echo "the games of ${variants[k]} failed" >&2; exit 1; }
  cat "$tmp/rows-$k"
done
