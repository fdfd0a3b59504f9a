#!/bin/sh
# Submits a carto simulation (or a tuning run) to Slurm as a job array of slices and a merge that
# waits for them.
#
#   examples/slurm/submit.sh [-m sim|tune] [-n SLICES] [-g GAMES_PER_SLICE] [-c CPUS] [-o OUT] VARIANT [OPTIONS...]
#
# e.g. examples/slurm/submit.sh -n 100 -g 10000 -c 8 -o runs/sale france --seed 1 --vs sale_town=7
#      examples/slurm/submit.sh -m tune -n 20 -g 1000 -o runs/k my.rules k=0..8 --target win:ann=0.5
#
# Task T of the array plays games T*G .. T*G+G-1 (`carto sim --first-game T*G --games G`; with
# `-m tune`, `carto tune --first-game T*G --games G`: those games under every value); the merge job
# (`carto sim merge` or `carto tune merge`, started only if every task succeeded) writes
# OUT/merged.json and OUT/merged.txt: exactly the results of one run of N*G games on one machine (for
# tune: every value ranked on all N*G games).
# The carto binary is `carto` on the nodes' path, or $CARTO. Other sbatch options (partition,
# account, time) come from the usual SBATCH_* variables, e.g. SBATCH_PARTITION=short.
# Prints the two job ids ("ARRAY MERGE") on standard output.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
mode=sim
slices=4
per=1000
cpus=1
out=carto-run
usage="usage: $0 [-m sim|tune] [-n SLICES] [-g GAMES_PER_SLICE] [-c CPUS] [-o OUT] VARIANT [OPTIONS...]"
while getopts m:n:g:c:o: opt; do
  case $opt in
    m) mode=$OPTARG ;;
    n) slices=$OPTARG ;;
    g) per=$OPTARG ;;
    c) cpus=$OPTARG ;;
    o) out=$OPTARG ;;
    *) echo "$usage" >&2; exit 2 ;;
  esac
done
shift $((OPTIND - 1))
if [ $# -lt 1 ]; then
  echo "$usage" >&2
  exit 2
fi
case $mode in
  sim | tune) ;;
  *) echo "$0: -m is sim or tune, not $mode" >&2; exit 2 ;;
esac
case "$slices$per$cpus" in
  *[!0-9]*) echo "$0: -n, -g and -c take whole numbers" >&2; exit 2 ;;
esac
if [ "$slices" -lt 1 ] || [ "$per" -lt 1 ] || [ "$cpus" -lt 1 ]; then
  echo "$0: -n, -g and -c must be at least 1" >&2
  exit 2
fi
mkdir -p "$out"
out=$(cd "$out" && pwd)
if ls "$out"/slice-*.json >/dev/null 2>&1; then
  echo "$0: $out already holds slices: give another -o, or remove them" >&2
  exit 2
fi
array=$(sbatch --parsable --array=0-$((slices - 1)) --cpus-per-task="$cpus" \
  --chdir="$out" "$here/slice.sbatch" "$out" "$per" "$mode" "$@")
array=${array%%;*}
merge=$(sbatch --parsable --dependency=afterok:"$array" --kill-on-invalid-dep=yes \
  --chdir="$out" "$here/merge.sbatch" "$out" "$slices" "$mode")
merge=${merge%%;*}
echo "$array $merge"
