#!/usr/bin/env bash
# The read loop under valgrind: build/drm_device --interval=0.2 over i915
# (two GTs), xe and an NPU for 8 s while counters move, a device suspends
# and resumes and one file turns to garbage and back, then SIGTERM. Must be
# free of memory errors and leaks.
set -uo pipefail
cd "$(dirname "$0")/../.."
source tests/lib/tap.sh
source tests/lib/require.sh
B=${BUILD:-build}

require_not_sanitize "valgrind" "the ASan build cannot run under valgrind"
if ! command -v valgrind >/dev/null; then
  tap_fail "valgrind is not installed"
  tap_done
  exit
fi
T=$(mktemp -d "${TMPDIR:-/tmp}/ddv-vg.XXXXXX")
trap 'rm -rf "$T"' EXIT
"$B/tests/ddv_tree" "$T" i915_mtl xe_bmg ivpu

valgrind --quiet --error-exitcode=99 --leak-check=full \
  --errors-for-leak-kinds=definite,indirect --log-file="$T/valgrind.log" \
  "$B/drm_device" --interval=0.2 --format=influx --SysfsRoot="$T/sys" \
  >"$T/out" 2>"$T/stderr" &
vg=$!
for i in $(seq 1 40); do
  "$B/tests/ddv_tree" "$T" --write card1 device/hwmon/hwmon2/energy1_input "$((5000000 + i * 1000))"$'\n'
  "$B/tests/ddv_tree" "$T" --write card0 gt/gt0/rc6_residency_ms "$((5000 + i * 7))"$'\n'
  ((i == 10)) && "$B/tests/ddv_tree" "$T" --runtime card1 suspended 1000 2000
  ((i == 20)) && "$B/tests/ddv_tree" "$T" --runtime card1 active 1500 2000
  ((i == 15)) && "$B/tests/ddv_tree" "$T" --write card0 gt/gt1/rps_act_freq_mhz $'N/A\n'
  ((i == 25)) && "$B/tests/ddv_tree" "$T" --write card0 gt/gt1/rps_act_freq_mhz $'900\n'
  sleep 0.2
done
kill -TERM "$vg"
wait "$vg"
rc=$?
batches=$(grep -c '^drm_device,driver=intel_vpu' "$T/out")
tap_is 0 "$rc" "valgrind: exit 0 (99 would be a memory error or leak)"
tap_check "at least 10 batches served ($batches)" test "$batches" -ge 10
# Lines "--PID--" are valgrind's own notes, never a memory error ("==PID=="):
# Debian 12's valgrind 3.19 does not know openat2 (syscall 437), says so
# once, and answers ENOSYS, which sysfs_link.c takes as a kernel without
# it (its component walk). Every "==PID==" line still fails the test.
tap_is "" "$(grep -v '^--[0-9]*-- ' "$T/valgrind.log")" "valgrind: nothing to say"
tap_check "the garbage file said once" \
  bash -c "[[ \$(grep -c 'rps_act_freq_mhz: read: not a value' '$T/stderr') == 1 ]]"
tap_done
