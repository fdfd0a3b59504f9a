#!/bin/sh
# Submits a carto simulation to Slurm as a job array of slices and a merge that waits for them.
#
#   examples/slurm/submit.sh [-n SLICES] [-g GAMES_PER_SLICE] [-c CPUS] [-o OUT] VARIANT [SIM OPTIONS...]
#
# e.g. examples/slurm/submit.sh -n 100 -g 10000 -c 8 -o runs/sale france --seed 1 --vs sale_town=7
#
# Task T of the array plays games T*G .. T*G+G-1 (`carto sim --first-game T*G --games G`); the merge
# job (`carto sim merge`, started only if every task succeeded) writes OUT/merged.json and
# OUT/merged.txt: exactly the results of one `carto sim --games N*G` run on one machine.
# The carto binary is `carto` on the nodes' path, or $CARTO. Other sbatch options (partition,
# account, time) come from the usual SBATCH_* variables, e.g. SBATCH_PARTITION=short.
# Prints the two job ids ("ARRAY MERGE") on standard output.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
slices=4
per=1000
cpus=1
out=carto-run
while getopts n:g:c:o: opt; do
  case $opt in
    n) slices=$OPTARG ;;
    g) per=$OPTARG ;;
    c) cpus=$OPTARG ;;
    o) out=$OPTARG ;;
    *) echo "usage: $0 [-n SLICES] [-g GAMES_PER_SLICE] [-c CPUS] [-o OUT] VARIANT [SIM OPTIONS...]" >&2; exit 2 ;;
  esac
done
shift $((OPTIND - 1))
if [ $# -lt 1 ]; then
  echo "usage: $0 [-n SLICES] [-g GAMES_PER_SLICE] [-c CPUS] [-o OUT] VARIANT [SIM OPTIONS...]" >&2
  exit 2
fi
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
  --chdir="$out" "$here/slice.sbatch" "$out" "$per" "$@")
array=${array%%;*}
merge=$(sbatch --parsable --dependency=afterok:"$array" --kill-on-invalid-dep=yes \
  --chdir="$out" "$here/merge.sbatch" "$out" "$slices")
merge=${merge%%;*}
echo "$array $merge"
