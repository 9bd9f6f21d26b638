#!/usr/bin/env bash
# The real collectd daemon replays a recording of 150 reports
# (tests/tools/oa_recording) with the default ReplayInterval 0 and the
# default WriteThreads (5), the instance read every 150 ms (batches for
# half of it, each written before the next is queued): every batch the
# executable prints arrives in the csv (rows, last values and sums of
# every field equal), no series goes back in time, the log has no "Value
# too old" (REPLAY_INTERVAL=S: the same with ReplayInterval S), and the
# daemon's peak RSS (VmHWM) stays below 8 MB (3 MB; with the whole
# recording queued in one read: 15 MB). Then 3000 reports with
# WriteThreads 1 and Interval 2: at the writers' speed, not a batch a
# read (which took 3000 intervals).
set -uo pipefail
cd "$(dirname "$0")/../.."
source tests/lib/tap.sh
source tests/lib/collectd.sh
source tests/lib/require.sh
require_collectd "i915_oa replay in collectd"
B=${BUILD:-build}
N=${REPLAY_REPORTS:-150}
RI=${REPLAY_INTERVAL:-0} # ReplayInterval: the batches of both sides come from it
T=$(mktemp -d "${TMPDIR:-/tmp}/i915-replay-cd.XXXXXX")
trap 'collectd_stop; rm -rf "$T"; [[ -n ${CD_DIR:-} && -z ${KEEP:-} ]] && rm -rf "$CD_DIR"' EXIT
"$B/tests/oa_recording" "$T/rec" reports="$N" corr_every=100 >/dev/null

# What the executable prints: per field of i915_oa, the batch count, last
# value and sum (the first report primes: N - 1 batches).
"$B/i915_oa" --Replay="$T/rec" --ReplayInterval="$RI" --format=influx >"$T/exec.influx"
exec_stats() {
  python3 - "$T/exec.influx" <<'PY'
import sys
stats = {}
for line in open(sys.argv[1]):
    head, fields, _ = line.rsplit(" ", 2)
    if not head.startswith("i915_oa,"):
        continue
    for kv in fields.split(","):
        k, v = kv.split("=")
        v = int(v[:-1]) if v.endswith("i") else float(v)
        n, s, _ = stats.get(k, (0, 0, 0))
        stats[k] = (n + 1, s + v, v)
for k in sorted(stats):
    n, s, last = stats[k]
    print(f"{k} {n} {s:.6g} {last:.6g}")
PY
}
exec_stats >"$T/exec.stats"
NB=$(awk '$1 == "gpu_core_clocks" {print $2}' "$T/exec.stats")
if [[ $RI == 0 ]]; then
  tap_is $((N - 1)) "$NB" "the executable prints a batch per report interval"
else
  tap_check "the executable prints $NB batches" test "${NB:-0}" -gt 0
fi

collectd_start "LoadPlugin i915_oa
<Plugin i915_oa>
  <Instance \"rec\">
    Interval 0.15
    Replay \"$T/rec\"
    ReplayInterval $RI
  </Instance>
</Plugin>"
tap_check "the last batch of gpu_core_clocks arrives" \
  collectd_wait_rows "$CD_CSV/e2e/i915_oa-rec-*/gpu_cycles-gpu_core_clocks-*" \
  "$NB" 120
# every series has every batch: the values after gpu_core_clocks in the
# last batch may still be in the write queue (bounded poll)
all_rows() {
  local nfiles rows
  nfiles=$(find "$CD_CSV"/e2e/i915_oa-rec-*/ -type f | wc -l)
  rows=$(cat "$CD_CSV"/e2e/i915_oa-rec-*/* | grep -vc '^epoch')
  [[ $rows -eq $((nfiles * NB)) ]]
}
for _ in $(seq 300); do all_rows && break; sleep 0.1; done
hwm=$(awk '/^VmHWM:/ {print $2}' "/proc/$CD_PID/status")
tap_check "no further batch after the end" \
  collectd_wait_rows "$CD_CSV/e2e/i915_oa-rec-*/gpu_cycles-gpu_core_clocks-*" \
  "$NB" 1
csv_stats() {
  python3 - "$CD_CSV"/e2e/i915_oa-rec-*/ <<'PY'
import csv, glob, os, sys
stats = {}
back = 0
for d in sys.argv[1:]:
    for f in glob.glob(os.path.join(d, "*")):
        rows = [r for r in csv.reader(open(f)) if r][1:]
        times = [float(r[0]) for r in rows]
        back += sum(1 for a, b in zip(times, times[1:]) if b <= a)
        if os.path.basename(f).split("-")[1] == "stream":
            continue
        vals = [float(r[1]) for r in rows]
        # gpu_events-a0-YYYY-MM-DD: field a0
        field = os.path.basename(f).rsplit("-", 3)[0].split("-", 1)[1]
        stats[field] = (len(vals), sum(vals), vals[-1] if vals else 0)
print("back", back)
for k in sorted(stats):
    n, s, last = stats[k]
    print(f"{k} {n} {s:.6g} {last:.6g}")
PY
}
csv_stats >"$T/csv.stats"
tap_check "no series goes back in time in the csv" \
  grep -qx "back 0" "$T/csv.stats"
tap_check_not() { ! "$@"; }
tap_check "no \"Value too old\" in the log" \
  tap_check_not grep -q "Value too old" "$CD_LOG"
# every field of i915_oa: rows, sum and last value as printed
tap_check "every i915_oa field in the csv as printed" \
  diff "$T/exec.stats" <(grep -v '^back ' "$T/csv.stats")
nfiles=$(find "$CD_CSV"/e2e/i915_oa-rec-*/ -type f | wc -l)
rows=$(cat "$CD_CSV"/e2e/i915_oa-rec-*/* | grep -vc '^epoch')
tap_check "every series has every batch ($nfiles series, $rows rows)" \
  test "$rows" -eq $((nfiles * NB))
# The whole recording queued in one read: 15 MB here; a batch per read:
# 3 MB. The sanitizer runtimes inflate every size: not measured there.
if [[ ${SANITIZE:-} == 1 ]]; then
  tap_skip "peak RSS below 8000 KiB" "ASan's own memory under SANITIZE=1"
else
  tap_check "peak RSS ${hwm} KiB below 8000 KiB" test "${hwm:-999999}" -lt 8000
fi
tap_check "collectd stops" collectd_stop

# WriteThreads 1, Interval 2: 2999 batches at the writers' speed (a batch
# a read took 2999 x 2 s), all of them in the csv, in order
N2=3000
"$B/tests/oa_recording" "$T/rec2" reports=$N2 corr_every=100 >/dev/null
collectd_start "WriteThreads 1
LoadPlugin i915_oa
<Plugin i915_oa>
  <Instance \"rec\">
    Interval 2
    Replay \"$T/rec2\"
  </Instance>
</Plugin>"
tap_check "WriteThreads 1: $((N2 - 1)) batches within 60 s" \
  collectd_wait_rows "$CD_CSV/e2e/i915_oa-rec-*/gpu_cycles-gpu_core_clocks-*" \
  $((N2 - 1)) 60
NB=$((N2 - 1))
for _ in $(seq 300); do all_rows && break; sleep 0.1; done
tap_check "WriteThreads 1: every series has every batch" all_rows
csv_stats >"$T/csv2.stats"
tap_check "WriteThreads 1: no series goes back in time" grep -qx "back 0" "$T/csv2.stats"
tap_check "WriteThreads 1: collectd stops" collectd_stop
tap_done
