#!/usr/bin/env bash
# Coverage-guided fuzzing of carto's loaders with libFuzzer (cargo-fuzz).
#
# Usage: scripts/fuzz.sh [TARGET|all] [SECONDS]     (default: all targets, 60 seconds each)
#   TARGET: rules, map, tiles, script or play (fuzz/fuzz_targets/).
#   On a shared machine: `nice -n 19 scripts/fuzz.sh rules 1800`.
#
# - Installs cargo-fuzz when it is missing (`cargo install cargo-fuzz --locked`, from crates.io).
# - Uses the nightly toolchain when rustup has one; else stable with RUSTC_BOOTSTRAP=1.
# - Seeds each target's corpus (fuzz/corpus/TARGET, never committed) from the repository's own
#   rules files, maps, tile sets and scripts (and tests/regressions/TARGET/), and keeps what the
#   runs add to it, so the next run starts where this one stopped.
# - Builds with debug assertions and overflow checks (`--debug-assertions`; never `-O`, which
#   turns them off) and without a sanitizer: safe Rust needs none to catch a panic, an overflow, a
#   hang or a runaway allocation, and the targets run about 5 times as fast without one.
#   FUZZ_SANITIZER=address adds the address sanitizer.
# - Keeps cargo-fuzz's tracing of comparisons (libFuzzer learns the values the code compares the
#   input with); it is about two thirds of the instructions of a `rules` input. FUZZ_TRACE_COMPARES=0
#   builds without it (`--no-trace-compares`): `rules` runs about twice as many inputs a second, and
#   libFuzzer still learns the words it compares from `memcmp`.
# - Memory: 2,048 MB a run without the sanitizer, 3,072 MB with it (its bookkeeping takes about
#   1 GB of a `play` run: a lower limit reports false out-of-memory errors).
# - Prints each target's inputs run, by the clock and per CPU second, and its coverage (edges) at
#   the end.
#
# A crash, a timeout (20 s) or an out-of-memory leaves its input in fuzz/artifacts/TARGET/ (and this
# script exits 1); replay it with `cargo +nightly fuzz run TARGET FILE`; once fixed, keep it under
# tests/regressions/TARGET/ (tests/hostile.rs runs every file there through the target's loader).
set -euo pipefail
cd "$(dirname "$0")/.."

target=${1:-all}
seconds=${2:-60}
all=(rules map tiles script play)
case "$target" in
  all) targets=("${all[@]}") ;;
  rules|map|tiles|script|play) targets=("$target") ;;
  *) echo "fuzz.sh: unknown target \`$target\` (one of: ${all[*]}, all)" >&2; exit 2 ;;
esac
case "$seconds" in
  ''|*[!0-9]*) echo "fuzz.sh: SECONDS must be a whole number, not \`$seconds\`" >&2; exit 2 ;;
esac

if ! cargo fuzz --version >/dev/null 2>&1; then
  echo "fuzz.sh: installing cargo-fuzz" >&2
  cargo install cargo-fuzz --locked
fi
toolchain=()
if rustup toolchain list 2>/dev/null | grep -q '^nightly'; then
  toolchain=(+nightly)
else
  export RUSTC_BOOTSTRAP=1
fi
sanitizer=${FUZZ_SANITIZER:-none}
flags=(--debug-assertions --sanitizer "$sanitizer")
[ "${FUZZ_TRACE_COMPARES:-1}" != 0 ] || flags+=(--no-trace-compares)
rss=2048
[ "$sanitizer" = none ] || rss=3072

# The seeds of a target: the repository's files of its kind, and the target's past finds.
seed() {
  local dir=fuzz/corpus/$1
  mkdir -p "$dir"
  {
    case "$1" in
      rules) find rules tests -name '*.rules' -size -64k ;;
      map) find maps tests -maxdepth 3 -name '*.toml' -not -path 'maps/tiles/*' -size -64k \
             -exec grep -l '^grid\|^\[\[part' {} + ;;
      tiles) find maps/tiles tests -name '*.toml' -size -64k -exec grep -l '^\[\[tile\]\]' {} + ;;
      script) find tests/scripts -name '*.script' -size -4k ;;
      play) ;;  # bytes steering a generator: the finds below, else libFuzzer starts from nothing
    esac
    # (an `if`, not `[ -d ] && find`: under `set -e -o pipefail` a missing folder ended the script)
    if [ -d "tests/regressions/$1" ]; then find "tests/regressions/$1" -type f -not -name '*.md'; fi
  } | while read -r f; do
    cp "$f" "$dir/$(echo "$f" | tr '/' '_')"
  done
}

# Only the target asked for is built (all five take about three times as long).
build=()
[ "$target" = all ] || build=("$target")
echo "fuzz.sh: building ${build[*]:-the targets}" >&2
cargo "${toolchain[@]}" fuzz build "${flags[@]}" "${build[@]}" >&2 \
  || { echo "fuzz.sh: the build failed" >&2; exit 1; }

# The CPU seconds (user and system) of the shell's finished children, from the output of the builtin
# `times` (its second line). `times` itself must run in the shell, written to a file: in a pipe or in
# `$(…)` it runs in a subshell, which has no children yet.
cpu_of() {
  awk 'NR == 2 { t = 0; for (i = 1; i <= 2; i++) { split($i, a, "m"); sub("s", "", a[2]); t += a[1] * 60 + a[2] }
                 printf "%.1f\n", t }' "$1"
}

summary=()
for t in "${targets[@]}"; do
  seed "$t"
  log=$(mktemp)
  echo "fuzz.sh: $t for ${seconds}s (sanitizer: $sanitizer)" >&2
  times > "$log.cpu0"
  cargo "${toolchain[@]}" fuzz run "${flags[@]}" "$t" "fuzz/corpus/$t" -- \
    -max_total_time="$seconds" -timeout=20 -rss_limit_mb="$rss" -max_len=8192 -print_final_stats=1 \
    2>&1 | tee "$log" | grep -E '^#[0-9]+.*(pulse|DONE)|ERROR|panicked|SUMMARY' | tail -n 5 >&2 || true
  times > "$log.cpu1"
  cpu0=$(cpu_of "$log.cpu0") cpu1=$(cpu_of "$log.cpu1")
  rm -f "$log.cpu0" "$log.cpu1"
  execs=$(grep -oE 'stat::average_exec_per_sec: *[0-9]+' "$log" | grep -oE '[0-9]+$' | tail -1)
  runs=$(grep -oE 'stat::number_of_executed_units: *[0-9]+' "$log" | grep -oE '[0-9]+$' | tail -1)
  cov=$(grep -oE 'cov: [0-9]+' "$log" | tail -1 | grep -oE '[0-9]+$')
  # libFuzzer's inputs/s is by the clock; on a shared machine the run gets only part of a core, so
  # the inputs per CPU second are given too (what the target costs, whatever the load).
  cpu=$(awk -v a="$cpu0" -v b="$cpu1" 'BEGIN { printf "%.1f", b - a }')
  per_cpu=$(awk -v r="${runs:-0}" -v c="$cpu" 'BEGIN { if (c > 0) printf "%d", r / c; else print "?" }')
  summary+=("$t: ${runs:-?} inputs in ${seconds}s (${execs:-?}/s), ${cpu} CPU seconds (${per_cpu} inputs per CPU second), coverage ${cov:-?} edges")
  if grep -qE 'ERROR: libFuzzer|panicked|SUMMARY: .*Sanitizer|^artifact_prefix.*Test unit written' "$log"; then
    summary+=("$t: FOUND a problem: see fuzz/artifacts/$t/ and $log")
    failed=1
  else
    rm -f "$log"
  fi
done
printf '%s\n' "${summary[@]}"
exit "${failed:-0}"
