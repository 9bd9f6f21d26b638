#!/usr/bin/env bash
# tegra410_uncore's engine on this machine's real PMUs: msr/tsc (per-CPU,
# no cpumask) and a software group, compared with perf stat (Debian
# linux-perf) over the same window, every exec mode, and its config errors.
set -uo pipefail
cd "$(dirname "$0")/../.."
source tests/lib/tap.sh
source tests/lib/lineproto.sh
source tests/lib/require.sh
BIN=${BUILD:-build}/tegra410_uncore
T_ERR=$(mktemp)
trap 'rm -f "$T_ERR"' EXIT

# config errors need no counters
out=$("$BIN" --once --Event='msr/tsc,bogus=1/' 2>&1 >/dev/null)
tap_is 2 $? "unknown term: configuration error, exit 2"
tap_check "unknown term: message names the string and the term" grep -q \
  'tegra410_uncore: config: Event: "msr/tsc,bogus=1/": unknown term "bogus" for PMU msr' <<<"$out"
out=$("$BIN" --once --Event='msr/tsc' 2>&1 >/dev/null)
tap_is 2 $? "malformed string: config error"
tap_check "malformed string: message names the offset" grep -q \
  "tegra410_uncore: config: Event: \"msr/tsc\": expected ',' or '/' after a term at offset 7" <<<"$out"
out=$("$BIN" --once --Event='nvidia_ucf_pmu_0/cycles/' 2>&1 >/dev/null)
tap_is 1 $? "absent PMU: nothing can start, exit 1"
tap_check "absent PMU: message names the PMU and errno text" grep -q \
  'tegra410_uncore: nvidia_ucf_pmu_0: PMU: No such file or directory' <<<"$out"
# One rule (docs/telegraf.md, "Exit status"): one bad Event next to good ones is still
# a configuration error: exit 2, nothing collected.
out=$("$BIN" --once --window=0 --Event='msr/tsc/' --Event='msr/tsc,bogus=1/' 2>"$T_ERR")
tap_is "2|" "$?|$out" "bad Event next to a good one: exit 2, nothing on stdout"
tap_is 'error: tegra410_uncore: init: 1 Event group(s) name what the PMU does not have: configuration error, nothing is collected' \
  "$(tail -1 "$T_ERR")" "bad Event next to a good one: says so"
out=$("$BIN" --once --window=0 --Event='msr/tsc/' --Bogus=1 2>/dev/null)
tap_is "2|" "$?|$out" "unknown key next to a good Event: exit 2"

require_perf_events "live counters"
require_that "live msr/tsc" "this kernel has no msr PMU" \
  test -d /sys/bus/event_source/devices/msr
ncpu=$(getconf _NPROCESSORS_ONLN)

# Our TSC rate (summed over CPUs, as perf stat -a sums) and perf's, over
# overlapping one-second windows: the TSC ticks at a constant rate.
ours=$("$BIN" --once --window=1 --format=json --Event='msr/tsc/')
theirs=$(perf stat -a -x, -e msr/tsc/ -- sleep 1 2>&1 >/dev/null | grep 'msr/tsc/')
our_rate=$(sed -E 's/.*"rate":([0-9.e+]+).*/\1/' <<<"$ours")
perf_count=${theirs%%,*}
perf_enabled=$(cut -d, -f4 <<<"$theirs") # ns, summed over CPUs
tap_check "perf stat counted msr/tsc" test -n "$perf_count"
agree=$(awk -v a="$our_rate" -v c="$perf_count" -v e="$perf_enabled" -v n="$ncpu" \
  'BEGIN { r = c / (e / n / 1e9); d = (a - r) / r; if (d < 0) d = -d; print (d < 0.02) ? "yes" : "no: " a " vs " r }')
tap_is yes "$agree" "msr/tsc rate agrees with perf stat within 2%"

# A software group: cpu-clock (config 0) and task-clock (config 1) tick at
# 1e9 ns per second per CPU.
ours=$("$BIN" --once --window=0.5 --Event='{software/config=0x0/,software/config=0x1/}')
tap_is 2 "$(lp_count --measurement uncore_event --where pmu=software <<<"$ours")" \
  "software group: two records"
rate=$(lp_get rate --measurement uncore_event --where event=config=0x0 <<<"$ours")
ok=$(awk -v r="$rate" -v n="$ncpu" 'BEGIN { d = r / (n * 1e9); print (d > 0.95 && d < 1.05) ? "yes" : "no: " r }')
tap_is yes "$ok" "software cpu-clock rate is 1e9 ns/s per CPU"
times=$(lp_get enabled_ns <<<"$ours" | head -1) times+=" $(lp_get running_ns <<<"$ours" | head -1)"
tap_check "enabled and running times reported ($times)" test "${times% *}" -gt 0 -a "${times#* }" -gt 0

# execd: three batches, counts growing
out=$(printf '\n\n\n' | "$BIN" --execd --Event='msr/tsc/')
tap_is 3 "$(lp_count --measurement uncore_event <<<"$out")" "execd: one record per batch"
counts=$(lp_get count --measurement uncore_event <<<"$out" | paste -sd' ')
tap_check "execd: counts grow ($counts)" awk -v s="$counts" \
  'BEGIN { n = split(s, a, " "); for (i = 2; i <= n; i++) if (a[i] + 0 <= a[i-1] + 0) exit 1 }'
# --interval: batches keep coming until SIGTERM, which ends it cleanly
out=$(timeout -s TERM 1.5 "$BIN" --interval=0.2 --Event='msr/tsc/')
rc=$?
tap_is 124 "$rc" "interval: runs until stopped by SIGTERM"
n=$(lp_count --measurement uncore_event <<<"$out")
tap_check "interval: several batches in 1.5 s ($n)" test "$n" -ge 2
out=$("$BIN" --once --window=0.1 --format=table --Event='msr/tsc/')
tap_check "table: a uncore_event table with the tsc row" grep -qE '^msr +tsc ' <<<"$out"
tap_done
