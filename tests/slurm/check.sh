#!/usr/bin/env bash
# The Slurm example (examples/slurm) on a real scheduler: starts munged, slurmctld and slurmd on this
# machine (free ports, a temporary folder, no systemd), submits a job array of 4 slices and the
# dependent merge with examples/slurm/submit.sh, waits, and checks that the merged result equals one
# single-machine run of the same seeds, figure by figure; then the same for a tuning job
# (`submit.sh -m tune`: slices of `carto tune`, merged by `carto tune merge`). Installs Debian's slurm-wlm and munge when
# missing (needs root, as CI has). Cleans up in a trap. Every wait is bounded.
#
#   tests/slurm/check.sh [CARTO_BINARY]      (default: target/debug/carto, built if missing)
set -euo pipefail
cd "$(dirname "$0")/../.."
repo=$(pwd)

fail() {
  echo "slurm check: FAILED: $*" >&2
  exit 1
}

carto=${1:-$repo/target/debug/carto}
if [ ! -x "$carto" ]; then
  cargo build --quiet
fi
carto=$(cd "$(dirname "$carto")" && pwd)/$(basename "$carto")

if ! command -v slurmctld >/dev/null || ! command -v slurmd >/dev/null ||
  ! command -v sbatch >/dev/null || ! command -v munged >/dev/null; then
  if [ "$(id -u)" != 0 ]; then
    fail "slurm-wlm and munge are not installed, and installing them needs root (apt-get install slurm-wlm munge)"
  fi
  echo "slurm check: installing slurm-wlm and munge"
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq >/dev/null || true
  apt-get install -y -qq slurm-wlm munge >/dev/null || fail "apt-get install slurm-wlm munge failed"
  # The packages start their services where systemd or init scripts run them: stop those, ours are
  # started below with our own configuration.
  service slurmctld stop >/dev/null 2>&1 || true
  service slurmd stop >/dev/null 2>&1 || true
  service munge stop >/dev/null 2>&1 || true
fi
[ "$(id -u)" = 0 ] || fail "slurmd must run as root to start jobs (CI runs as root)"

dir=$(mktemp -d /tmp/carto-slurm.XXXXXX)
chmod 700 "$dir"
pids=()
cleanup() {
  local code=$?
  if [ -n "${SLURM_CONF:-}" ]; then
    scancel --quiet --user=root --partition=carto >/dev/null 2>&1 || true
  fi
  for p in "${pids[@]}"; do
    kill "$p" 2>/dev/null || true
  done
  for p in "${pids[@]}"; do
    for _ in $(seq 50); do
      kill -0 "$p" 2>/dev/null || break
      sleep 0.1
    done
    kill -9 "$p" 2>/dev/null || true
  done
  if [ "$code" != 0 ]; then
    for f in munged.log slurmctld.log slurmd.log; do
      if [ -f "$dir/$f" ]; then
        echo "--- last lines of $f" >&2
        tail -n 15 "$dir/$f" >&2
      fi
    done
  fi
  rm -rf "$dir"
  exit "$code"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

# Waits up to $1 seconds for the command after it to succeed.
wait_for() {
  local secs=$1
  shift
  local end=$((SECONDS + secs))
  until "$@" >/dev/null 2>&1; do
    [ "$SECONDS" -lt "$end" ] || return 1
    sleep 0.5
  done
}

free_port() {
  python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'
}

# munge: its own key, socket and files in the temporary folder (--force: we run as root).
mkdir -p "$dir/munge"
chmod 700 "$dir/munge"
dd if=/dev/urandom of="$dir/munge/munge.key" bs=1024 count=1 status=none
chmod 400 "$dir/munge/munge.key"
munged --force --key-file="$dir/munge/munge.key" --socket="$dir/munge/munge.socket" \
  --pid-file="$dir/munge/munged.pid" --log-file="$dir/munged.log" --seed-file="$dir/munge/seed" ||
  fail "munged did not start (see the log above)"
wait_for 10 test -s "$dir/munge/munged.pid" || fail "munged wrote no pid file within 10 s"
pids+=("$(cat "$dir/munge/munged.pid")")
wait_for 10 munge --socket="$dir/munge/munge.socket" -n || fail "munge credentials do not work within 10 s"

node=$(hostname -s)
cpus=$(nproc)
ctl_port=$(free_port)
d_port=$(free_port)
[ "$ctl_port" != "$d_port" ] || d_port=$(free_port)
mkdir -p "$dir/state" "$dir/spool" "$dir/run"
cat > "$dir/slurm.conf" <<CONF
ClusterName=carto-check
SlurmctldHost=$node
SlurmctldPort=$ctl_port
SlurmdPort=$d_port
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
CredType=cred/munge
AuthInfo=socket=$dir/munge/munge.socket
StateSaveLocation=$dir/state
SlurmdSpoolDir=$dir/spool/%n
SlurmctldPidFile=$dir/run/slurmctld.pid
SlurmdPidFile=$dir/run/slurmd.pid
SlurmctldLogFile=$dir/slurmctld.log
SlurmdLogFile=$dir/slurmd.log
SlurmctldDebug=info
SlurmdDebug=info
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
JobCompType=jobcomp/none
MpiDefault=none
SwitchType=switch/none
SchedulerType=sched/backfill
SelectType=select/cons_tres
SelectTypeParameters=CR_CPU
ReturnToService=2
SlurmdTimeout=60
InactiveLimit=0
MinJobAge=300
NodeName=$node NodeAddr=127.0.0.1 CPUs=$cpus State=UNKNOWN
PartitionName=carto Nodes=$node Default=YES MaxTime=INFINITE State=UP
CONF
export SLURM_CONF=$dir/slurm.conf

slurmctld -D -i -f "$SLURM_CONF" >"$dir/slurmctld.stdout" 2>&1 &
pids+=("$!")
slurmd -D -N "$node" -f "$SLURM_CONF" >"$dir/slurmd.stdout" 2>&1 &
pids+=("$!")
node_up() {
  local s
  s=$(sinfo --noheader --nodes="$node" --format=%t 2>/dev/null) || return 1
  [ "$s" = idle ] || [ "$s" = mix ] || [ "$s" = alloc ]
}
if ! wait_for 60 node_up; then
  tail -n 5 "$dir/slurmd.stdout" >&2 || true
  sinfo >&2 || true
  fail "the Slurm scheduler did not come up within 60 s (controller on port $ctl_port, node $node)"
fi
echo "slurm check: scheduler up (node $node, $cpus CPUs, ports $ctl_port/$d_port)"

# The run: 4 slices of 40 France games with a paired house rule, so differences and intervals merge too.
slices=4
per=40
out=$dir/run-out
ids=$(CARTO=$carto examples/slurm/submit.sh -n "$slices" -g "$per" -o "$out" \
  france --seed 11 --vs sale_town=7) || fail "submit.sh failed"
read -r array merge <<<"$ids"
echo "slurm check: submitted array $array ($slices slices of $per games) and merge $merge"

merge_done() {
  local s
  s=$(squeue --noheader --jobs="$array,$merge" --format=%i 2>/dev/null | wc -l)
  [ "$s" = 0 ]
}
wait_for 600 merge_done || fail "the jobs did not finish within 600 s: $(squeue 2>&1)"
[ -s "$out/merged.json" ] || {
  cat "$out"/*.out >&2 2>/dev/null || true
  fail "the merge job wrote no merged.json"
}

# One run of the same 160 seeds on this machine.
"$carto" sim france --seed 11 --vs sale_town=7 \
  --games $((slices * per)) --format json --quiet > "$dir/single.json"

python3 - "$out/merged.json" "$dir/single.json" <<'PY'
import json, sys
merged, single = (json.load(open(p)) for p in sys.argv[1:3])
def figures(doc):
    return {(f["setting"], f["figure"], f["who"]): f for f in doc["figures"]}
m, s = figures(merged), figures(single)
if m.keys() != s.keys():
    sys.exit(f"different figures: only merged {sorted(m.keys() - s.keys())[:5]}, only single {sorted(s.keys() - m.keys())[:5]}")
for key in ("run", "games", "played", "interrupted", "replay"):
    if merged[key] != single[key]:
        sys.exit(f"{key}: merged {merged[key]!r}, single {single[key]!r}")
n = 0
for k in s:
    for field in s[k]:
        if m[k].get(field) != s[k][field]:
            sys.exit(f"{k} {field}: merged {m[k].get(field)!r}, single {s[k][field]!r}")
        n += 1
if merged["games"] != 160:
    sys.exit(f"merged {merged['games']} games, not 160")
print(f"slurm check: merged = single run: {len(s)} figures, {n} fields equal, {merged['games']} games")
PY
for t in $(seq 0 $((slices - 1))); do
  [ -s "$out/slice-$t.json" ] || fail "slice $t is missing"
done
grep -q "^france: 160 games" "$out/merged.txt" || fail "merged.txt does not describe 160 games"

# The tuning job: 3 slices of 30 games under every value of k (examples/compensation.rules), merged
# by `carto tune merge`; every value's histograms must equal one slice of the same 90 games.
tslices=3
tper=30
tout=$dir/tune-out
rules=$repo/examples/compensation.rules
ids=$(CARTO=$carto examples/slurm/submit.sh -m tune -n "$tslices" -g "$tper" -o "$tout" \
  "$rules" k=0..3 --target win:ann=0.5 --seed 11) || fail "submit.sh -m tune failed"
read -r array merge <<<"$ids"
echo "slurm check: submitted tuning array $array ($tslices slices of $tper games) and merge $merge"
wait_for 600 merge_done || fail "the tuning jobs did not finish within 600 s: $(squeue 2>&1)"
[ -s "$tout/merged.json" ] || {
  cat "$tout"/*.out >&2 2>/dev/null || true
  fail "the tuning merge job wrote no merged.json"
}
"$carto" tune "$rules" k=0..3 --target win:ann=0.5 --seed 11 --first-game 0 \
  --games $((tslices * tper)) --format json --quiet > "$dir/tune-single.json"
python3 - "$tout/merged.json" "$dir/tune-single.json" <<'PY'
import json, sys
merged, single = (json.load(open(p)) for p in sys.argv[1:3])
m, s = merged["candidates"], single["candidates"]
if [c["point"] for c in m] != [c["point"] for c in s]:
    sys.exit(f"different values: merged {m}, single {s}")
for a, b in zip(m, s):
    if a["hists"] != b["hists"] or a["games"] != b["games"]:
        sys.exit(f"value {a['point']}: merged differs from the single run")
if m[0]["games"] != 90:
    sys.exit(f"merged {m[0]['games']} games a value, not 90")
print(f"slurm check: tuning merged = single run: {len(m)} values, {m[0]['games']} games each")
PY
grep -q "^best: k=" "$tout/merged.txt" || fail "the tuning merge's table names no best value"
echo "slurm check: ok"
