#!/usr/bin/env bash
# i915_oa --Replay: igt i915-perf-recorder files (version 1) written with
# known contents by tests/tools/oa_recording (TGL A32u40_A4u32_B8_C8, SKL,
# BDW's A12_B8_C8-sized...) and replayed; every value checked against the
# true sums, also past 2^32 clocks and across 32- and 40-bit wraps, batch
# times from the correlation points, and malformed files: an error with
# the byte offset after everything before it was printed.
set -uo pipefail
cd "$(dirname "$0")/../.."
source tests/lib/tap.sh
source tests/lib/lineproto.sh
B=${BUILD:-build}
BIN=$B/i915_oa
REC=$B/tests/oa_recording
T=$(mktemp -d "${TMPDIR:-/tmp}/i915-replay.XXXXXX")
trap 'rm -rf "$T"' EXIT
replay() { # file, extra args...
  local f=$1
  shift
  timeout 120 "$BIN" --Replay="$f" "$@"
}
last() { # field measurement <<<influx: the value in the last such line
  lp_get "$1" --measurement "$2" | tail -n 1
}

# Five reports, a correlation point every two: four batches (report i to
# i + 1), each at the CPU time of its last report (1 ms apart from 1 s).
"$REC" "$T/a.rec" reports=5 corr_every=2
out=$(replay "$T/a.rec" --format=influx 2>"$T/err")
tap_is 0 $? "replay: exit 0"
tap_is "" "$(cat "$T/err")" "replay: nothing on stderr"
tap_is 4 "$(lp_count --measurement i915_oa <<<"$out")" "one batch per report interval"
tap_is "1001000000 1002000000 1003000000 1004000000" \
  "$(lp_json <<<"$out" | python3 -c 'import json,sys
print(" ".join(str(json.loads(l)["time"]) for l in sys.stdin if json.loads(l)["measurement"] == "i915_oa"))')" \
  "batch times: the CPU time of each batch's last report"
tap_is 4000000 "$(last gpu_core_clocks i915_oa <<<"$out")" "gpu_core_clocks"
tap_is 4000000 "$(last gpu_time_ns i915_oa <<<"$out")" "gpu_time_ns"
tap_is 50.0 "$(lp_get gpu_busy_percent --measurement i915_oa <<<"$out" | sed -n 1p)" \
  "the first batch has its floats (report 0 to 1)"
tap_is 5 "$(last reports i915_oa_stream <<<"$out")" "reports, the first included"
tap_is 8086:9a49 "$(lp_get device --measurement i915_oa <<<"$out" | sed -n 1p)" \
  "device tag: the recording's PCI id"

out=$(replay "$T/a.rec" --format=json 2>/dev/null)
tap_check "json: one array per batch" python3 -c 'import json,sys
dec = json.JSONDecoder(); s = sys.stdin.read().strip(); n = 0; i = 0
while i < len(s):
    obj, i = dec.raw_decode(s, i); n += 1
    while i < len(s) and s[i].isspace(): i += 1
    assert isinstance(obj, list) and len(obj) == 2
sys.exit(n != 4)' <<<"$out"

# Without correlation points: GPU time since the first report.
"$REC" "$T/b.rec" reports=3
out=$(replay "$T/b.rec" 2>/dev/null)
tap_is "1000000 2000000" "$(lp_json <<<"$out" | python3 -c 'import json,sys
print(" ".join(str(json.loads(l)["time"]) for l in sys.stdin if json.loads(l)["measurement"] == "i915_oa"))')" \
  "no correlation points: GPU time from the first report"

# Long: 6000 reports of 1e6 clocks (past 2^32), the 32-bit timestamp and
# clocks starting near their wrap, 40-bit A counters near theirs; one
# batch per second of recording.
"$REC" "$T/c.rec" reports=6000 corr_every=500 ts_start=0xffff0000 \
  clk_start=0xfff00000 a_start=0xfffffff000
out=$(replay "$T/c.rec" --ReplayInterval=1 --format=influx 2>"$T/err")
tap_is 0 $? "long replay: exit 0"
tap_is 5999000000 "$(last gpu_core_clocks i915_oa <<<"$out")" \
  "gpu_core_clocks: 5999 x 1e6, exact past 2^32 and across the wrap"
tap_is 5999000000 "$(last gpu_time_ns i915_oa <<<"$out")" "gpu_time_ns exact"
tap_is "$((5999 * 8000))" "$(last a7 i915_oa <<<"$out")" "a7 across its 40-bit wrap"
tap_is "$((5999 * 33000))" "$(last a32 i915_oa <<<"$out")" "a32 (u32)"
tap_is 6000 "$(last reports i915_oa_stream <<<"$out")" "every report counted"
n=$(lp_count --measurement i915_oa <<<"$out")
tap_check "ReplayInterval=1: a batch per second of recording ($n for 6 s)" \
  test "$n" -ge 5 -a "$n" -le 6

# Status records and context switches, counted in their batch.
"$REC" "$T/d.rec" reports=6 lost_at=3 buffer_lost_at=4 ctx_every=2
out=$(replay "$T/d.rec" 2>/dev/null)
tap_is "0 0 1 2 2" "$(
  lp_json <<<"$out" | python3 -c 'import json,sys
r=[json.loads(l) for l in sys.stdin]
print(" ".join(str(x["fields"]["report_lost"] + x["fields"]["buffer_lost"]) for x in r if x["measurement"] == "i915_oa_stream"))')" \
  "lost records counted in the batch they fall in"
tap_is 3 "$(last reason_ctx_switch i915_oa_stream <<<"$out")" "context switches (reports 0, 2, 4)"

# Malformed files: the error and its offset, what came before printed.
# Header records: VERSION 16 + DEVICE_INFO 344 + DEVICE_TOPOLOGY 40 = 400.
"$REC" "$T/e.rec" reports=5 truncate=5
out=$(replay "$T/e.rec" 2>"$T/err")
tap_is 3 "$(lp_count --measurement i915_oa <<<"$out")" "truncated: the 3 whole batches printed"
tap_check "truncated: said with the offset (400 + 4 x 264)" \
  grep -q 'e.rec: Replay: byte 1456: truncated record (259 of its bytes before the end)' "$T/err"
"$REC" "$T/f.rec" reports=5 bad_type_at=2
out=$(replay "$T/f.rec" 2>"$T/err")
tap_is 1 "$(lp_count --measurement i915_oa <<<"$out")" "unknown type: the batch before it printed"
tap_check "unknown type: said with the offset (400 + 2 x 264)" \
  grep -q 'f.rec: Replay: byte 928: unknown record type 0x77' "$T/err"
"$REC" "$T/g.rec" version=2
replay "$T/g.rec" >/dev/null 2>"$T/err"
tap_is 1 $? "version 2: exit 1 (nothing to print)"
tap_check "version 2: said" grep -q 'byte 0: recorder file version 2 (only version 1 is read)' "$T/err"
replay "$T/none.rec" >/dev/null 2>"$T/err"
tap_is 1 $? "a missing file: exit 1"
tap_check "a missing file: named with the errno text" grep -q 'none.rec: Replay: No such file or directory' "$T/err"
replay "$T/a.rec" --ReplayInterval=-1 >/dev/null 2>"$T/err"
tap_is 2 $? "a negative ReplayInterval: exit 2"
times() { # the batch times of the i915_oa records, space-separated
  lp_json | python3 -c 'import json,sys
print(" ".join(str(json.loads(l)["time"]) for l in sys.stdin if json.loads(l)["measurement"] == "i915_oa"))'
}

# A second DEVICE_INFO may not change how reports decode: refused at its
# byte (400 + 2 x 264), what came before printed.
"$REC" "$T/h.rec" reports=5 info2_at=2 info2_format=8
out=$(replay "$T/h.rec" 2>"$T/err")
tap_is 1 "$(lp_count --measurement i915_oa <<<"$out")" "format change: the batch before it printed"
tap_check "format change: refused with the offset" \
  grep -q 'h.rec: Replay: byte 928: DEVICE_INFO: OA format 8 after 10 earlier in the file' "$T/err"
"$REC" "$T/h2.rec" reports=5 info2_at=3 info2_freq=38400000
out=$(replay "$T/h2.rec" 2>"$T/err")
tap_is 2 "$(lp_count --measurement i915_oa <<<"$out")" "frequency change: the batches before it printed"
tap_check "frequency change: refused with the offset" \
  grep -q 'h2.rec: Replay: byte 1192: DEVICE_INFO: timestamp frequency 38400000 Hz after 19200000 Hz' "$T/err"
"$REC" "$T/h3.rec" reports=5 info2_at=2
replay "$T/h3.rec" >"$T/out" 2>"$T/err"
tap_is "0 4" "$? $(lp_count --measurement i915_oa <"$T/out")" "the same DEVICE_INFO again: accepted"

# Pipes and FIFOs: refused at once with the reason, never blocking.
mkfifo "$T/fifo"
timeout 10 "$BIN" --Replay="$T/fifo" >/dev/null 2>"$T/err"
tap_is 1 $? "a FIFO without a writer: exit 1 at once (no blocking open)"
tap_check "a FIFO: said" grep -q 'fifo: Replay: not a regular file' "$T/err"
cat "$T/a.rec" | timeout 10 "$BIN" --Replay=/dev/stdin >/dev/null 2>"$T/err"
tap_is 1 $? "a pipe on stdin: exit 1"
tap_check "a pipe: said" grep -q '/dev/stdin: Replay: not a regular file' "$T/err"
out=$(timeout 10 "$BIN" --Replay=/dev/stdin --format=influx <"$T/a.rec" 2>/dev/null)
tap_is 4 "$(lp_count --measurement i915_oa <<<"$out")" "a regular file on stdin: replayed"

# A read error is said once (not once per pass).
replay /proc/self/mem >/dev/null 2>"$T/err"
tap_is 1 "$(grep -c 'read: Input/output error' "$T/err")" "a read error: said once"

# ReplayInterval windows start at the first report: reports at 0..4 ms.
tap_is "1002000000 1004000000" \
  "$(replay "$T/a.rec" --ReplayInterval=0.002 2>/dev/null | times)" \
  "ReplayInterval=0.002: batches at 2 and 4 ms"
tap_is "1001000000 1002000000 1003000000 1004000000" \
  "$(replay "$T/a.rec" --ReplayInterval=0.001 2>/dev/null | times)" \
  "ReplayInterval=0.001: as many batches as 0"

# Correlation points only at the start and the end (as the recorder
# writes a short recording), or both inside: interpolated, extrapolated.
"$REC" "$T/i.rec" reports=5 corr_a=0 corr_b=5
tap_is "1001000000 1002000000 1003000000 1004000000" \
  "$(replay "$T/i.rec" 2>/dev/null | times)" "points at the start and the end: interpolated"
"$REC" "$T/i2.rec" reports=5 corr_a=1 corr_b=2
tap_is "1001000000 1002000000 1003000000 1004000000" \
  "$(replay "$T/i2.rec" 2>/dev/null | times)" "points inside: extrapolated both ways"

# DG2: correlation timestamps in CS ticks, OA ticks twice as fast.
"$REC" "$T/j.rec" devid=0x56a0 format=12 reports=5 corr_every=2 cs_shift=1
tap_is "1001000000 1002000000 1003000000 1004000000" \
  "$(replay "$T/j.rec" 2>/dev/null | times)" "DG2: CS-tick correlations on the OA timeline"

# As igt's recorder writes: a correlation point before the stream opens
# (before the first report), RENDER_RING_TIMESTAMP's 36 bits in each
# (upper bits not the reports'), and the 32-bit report timestamps
# wrapping between points (6e9 ticks): every batch on the line through
# its two points (report 1, the point at report 500, the last report).
w_times() {
  replay "$1" 2>"$T/err" | times | tr ' ' '\n' | sed -n '1p;500p;$p' | tr '\n' ' '
}
"$REC" "$T/w.rec" reports=3000 ts_step=2000000 corr_every=500 corr_lead=1000 \
  cs_high=5 ts_start=0xfff00000
tap_is "1104166666 53083333333 313395833333 " "$(w_times "$T/w.rec")" \
  "a point before the first report, 36-bit points, reports wrapping: on the line"
tap_is "" "$(cat "$T/err")" "... and nothing clamped or said"
# DG2 with CTC_SHIFT 1 and 3 (OA ticks 4 and 1 per CS tick): the shift
# measured from the points (i915_perf_oa_timestamp_frequency: << 3 - CTC_SHIFT)
for cs in 2 0; do
  "$REC" "$T/w$cs.rec" devid=0x56a0 format=12 reports=3000 ts_step=2000000 \
    corr_every=500 corr_lead=1000 cs_high=5 cs_shift=$cs
  tap_is "1104166666 53083333333 313395833333 " "$(w_times "$T/w$cs.rec")" \
    "DG2, CS ticks at OA / $((1 << cs)): the shift measured from the points"
done

# Out-of-range times: CPU times past 2^63 left out (said), a time before
# 0 clamped (said), never a float conversion out of range.
"$REC" "$T/k.rec" reports=5 corr_every=2 cpu_start=18446744073000000000
out=$(replay "$T/k.rec" 2>"$T/err")
tap_is "1000000 2000000 3000000 4000000" "$(times <<<"$out")" \
  "CPU times past 2^63: left out, GPU time from the first report"
tap_check "CPU times past 2^63: said with the offset" \
  grep -q 'k.rec: Replay: byte 400: TIMESTAMP_CORRELATION: CPU time 18446744073000000000 ns is past 2^63' "$T/err"
"$REC" "$T/k2.rec" reports=5 corr_a=4 corr_b=4 cpu_start=18446744073707551616
out=$(replay "$T/k2.rec" 2>"$T/err")
tap_is "0 0 1000000 2000000" "$(times <<<"$out")" "one point, a time before 0: clamped to 0"
tap_check "a time before 0: said" grep -q 'k2.rec: Replay: a batch time falls before 0 ns' "$T/err"

# A topology whose masks lie past its record: said with its offset.
"$REC" "$T/l.rec" reports=3 topo_lie=1
replay "$T/l.rec" >/dev/null 2>"$T/err"
tap_check "a lying topology: said with the offset" \
  grep -q 'l.rec: Replay: byte 360: DEVICE_TOPOLOGY: its masks do not fit' "$T/err"

# Gen8 A12_B8_C8: A7..A18 from byte 12, no clock field (igt's gen8 table).
"$REC" "$T/n.rec" devid=0x1616 format=9 reports=5
out=$(replay "$T/n.rec" 2>/dev/null)
tap_is "32000 76000" "$(last a7 i915_oa <<<"$out") $(last a18 i915_oa <<<"$out")" \
  "A12: a7 at byte 12, a18 at byte 56"
tap_is "" "$(lp_get a0 --measurement i915_oa <<<"$out")$(lp_get gpu_core_clocks --measurement i915_oa <<<"$out")" \
  "A12: no a0, no gpu_core_clocks"

# A million correlation points (24 MB) in bounded memory.
"$REC" "$T/m.rec" reports=101 corr_between=10000
/usr/bin/time -f %M -o "$T/rss" "$BIN" --Replay="$T/m.rec" >/dev/null 2>"$T/err"
tap_is 0 $? "a million correlation points: exit 0"
rss=$(cat "$T/rss")
# The sanitizer runtimes inflate every size (shadow memory): not measured
# there.
if [[ ${SANITIZE:-} == 1 ]]; then
  tap_skip "a million correlation points: peak RSS < 12 MiB" "ASan's own memory under SANITIZE=1 (${rss} KiB)"
else
  tap_check "a million correlation points: peak RSS ${rss} KiB < 12 MiB" test "$rss" -lt 12288
fi
rm -f "$T/m.rec"

# The oracle: igt's i915-perf-reader (Debian intel-gpu-tools) prints the
# RenderBasic counters per report; our batches must agree value by value
# for TGL, SKL and BDW recordings with context switches, lost records, and
# counters wrapping (32-bit timestamp and clocks, 40-bit A).
if command -v i915-perf-reader >/dev/null; then
  for dev in 0x9a49 0x1916 0x1616; do
    "$REC" "$T/o.rec" devid=$dev reports=300 corr_every=25 ctx_every=3 lost_at=7 \
      buffer_lost_at=20 ts_start=0xfff00000 clk_start=0xf0000000 a_start=0xffff000000
    i915-perf-reader -r -c GpuCoreClocks,GpuTime,GpuBusy,AvgGpuCoreFrequency,EuActive,EuStall \
      "$T/o.rec" >"$T/reader.txt" 2>&1
    replay "$T/o.rec" --EuMetrics=true --format=json >"$T/ours.json" 2>/dev/null
    tap_check "i915-perf-reader agrees report by report ($dev: $(
      python3 tests/lib/oa_reader_compare.py "$T/ours.json" "$T/reader.txt" | tail -n 1))" \
      python3 tests/lib/oa_reader_compare.py "$T/ours.json" "$T/reader.txt"
  done
else
  tap_skip "i915-perf-reader comparison" "intel-gpu-tools is not installed"
fi
tap_done
