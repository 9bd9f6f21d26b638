#!/usr/bin/env bash
# i915_oa's live device path (common/i915: discovery, identity, metric
# sets, flex configs, PERF_OPEN, the stream reader, reopen with backoff)
# in a real process with the kernel emulation preloaded (tests/shim,
# driver i915), through tests/tools/i915_probe with injected time; then
# the same path under valgrind: no leaks, RSS flat over 300 drains.
set -uo pipefail
cd "$(dirname "$0")/../.."
source tests/lib/tap.sh
source tests/lib/i915_tree.sh
source tests/lib/require.sh
B=${BUILD:-build}
SHIM=$PWD/$B/tests/shim.so
PRELOAD=$SHIM
if [[ ${SANITIZE:-} == 1 ]]; then
  PRELOAD="$(${CC:-cc} -print-file-name=libasan.so):$(${CC:-cc} -print-file-name=libubsan.so):$SHIM"
fi
T=$(mktemp -d "${TMPDIR:-/tmp}/i915-live.XXXXXX")
trap 'rm -rf "$T"' EXIT
i915_tree "$T" 0000:00:02.0 0000:03:00.0
probe() { # scenario-extra, args...
  local extra=$1
  shift
  SHIM_I915_SCENARIO=$(i915_scenario "$T" "reports=3${extra:+,$extra}") \
    LD_PRELOAD=$PRELOAD timeout 60 "$B/tests/i915_probe" \
    --dev-root="$T/dev/dri" --sysfs-root="$T/sys" "$@" 2>"$T/err"
}

# Both devices found by PCI address; the second one's OA unit is busy.
out=$(SHIM_I915_SCENARIO_1="card=card1,busy=1" probe "" \
  --metric-set=$I915_UUID --drains=3)
tap_is 1 $? "one device refused: exit 1"
tap_is "total 0000:00:02.0 samples=9 opens=1 reopens=0" \
  "$(grep '^total 0000:00:02.0' <<<"$out")" "the other device drains 3 x 3"
tap_is 1 "$(grep -c 'EBUSY\|busy' "$T/err")" "the refusal is said once"
tap_check "EBUSY names the other users" \
  grep -q '0000:03:00.0: DRM_IOCTL_I915_PERF_OPEN: Device or resource busy; hint: another OA stream owns this OA unit.*gputop.*Mesa' "$T/err"
tap_is "device 0000:00:02.0 path=$T/dev/dri/renderD128 devid=0x9a49 rev=7 oa_hz=19200000 eus=96 card=card0" \
  "$(grep '^device 0000:00:02.0' <<<"$out")" "identity of the first device"

# Device by path, numeric metric set; EIO at the 2nd batch: reopened after
# 1 s of injected time (drains every 0.5 s).
out=$(probe "eio_at=2" --device="$T/dev/dri/renderD128" --metric-set=1 \
  --drains=5 --step-ms=500)
tap_is 0 $? "EIO then recovery: exit 0"
tap_is "drain 0 0000:00:02.0 rc=792
drain 1 0000:00:02.0 rc=-5
drain 2 0000:00:02.0 rc=0
drain 3 0000:00:02.0 rc=792
drain 4 0000:00:02.0 rc=792" "$(grep '^drain' <<<"$out" | cut -d' ' -f1-4)" \
  "EIO, a backoff second, reopened"
tap_check "reopen counted" grep -q 'opens=2 reopens=1' <<<"$out"
tap_check "EIO said once" test "$(grep -c 'read: Input/output error' "$T/err")" = 1
tap_check "recovery said" grep -q 'stream: open again' "$T/err"

# Status records and a corrupt record size.
out=$(probe "lost_every=2,buffer_lost_at=3,corrupt_at=1" \
  --device=0000:00:02.0 --metric-set=1 --drains=3)
tap_is "drain 0 0000:00:02.0 rc=800 samples=1 lost=0 buffer_lost=0 bad=1
drain 1 0000:00:02.0 rc=800 samples=3 lost=1 buffer_lost=0 bad=0
drain 2 0000:00:02.0 rc=800 samples=3 lost=0 buffer_lost=1 bad=0" \
  "$(grep '^drain' <<<"$out")" "REPORT_LOST, BUFFER_LOST counted; size 0 skips the rest"

# Flex events: ADD_CONFIG with the uuid of the registers, REMOVE at exit.
out=$(probe "" --device=0000:00:02.0 --flex=0x4,0x5 --drains=1)
tap_is 0 $? "flex config: exit 0"
tap_is 1 "$(grep -c '^drain 0 0000:00:02.0 rc=792' <<<"$out")" "flex stream drains"
tap_is "" "$(ls "$T/sys/class/drm/card0/metrics" | grep -v $I915_UUID)" \
  "the added config is removed at exit"

# The kernel's refusals in words.
probe "privileged=0" --device=0000:00:02.0 --metric-set=1 --drains=1 >/dev/null
tap_check "EACCES names the sysctl and the capability" \
  grep -q 'Permission denied; hint: .*CAP_PERFMON.*dev.i915.perf_stream_paranoid' "$T/err"
probe "perf=0" --device=0000:00:02.0 --metric-set=1 --drains=1 >/dev/null
tap_check "ENOTSUPP: perf not initialised" \
  grep -q 'Operation not supported (ENOTSUPP); hint: i915 perf is not initialised' "$T/err"
probe "" --device=0000:00:02.0 --metric-set=1 --format=5 --drains=1 >/dev/null
tap_check "EINVAL: format refused" \
  grep -q 'Invalid argument; hint: the kernel refused the OA format' "$T/err"
probe "" --device=0000:09:00.0 --metric-set=1 --drains=1 >/dev/null
tap_is 1 $? "an unknown PCI address: exit 1"
tap_check "an unknown PCI address is said" grep -q '0000:09:00.0' "$T/err"

# valgrind: 300 drains of 64 reports with an EIO and a reopen on the way.
if [[ ${SANITIZE:-} == 1 ]]; then
  tap_skip "valgrind" "the ASan build cannot run under valgrind"
elif ! command -v valgrind >/dev/null; then
  tap_fail "valgrind is not installed"
else
  SHIM_I915_SCENARIO=$(i915_scenario "$T" "reports=64,eio_at=100,lost_every=7") \
    LD_PRELOAD=$SHIM valgrind --quiet --error-exitcode=99 --leak-check=full \
    --errors-for-leak-kinds=definite,indirect --log-file="$T/vg.log" \
    "$B/tests/i915_probe" --dev-root="$T/dev/dri" --sysfs-root="$T/sys" \
    --device=0000:00:02.0 --flex=0x4,0x5,0x8 --drains=300 --step-ms=1000 \
    --rss >"$T/vg.out" 2>"$T/vg.err"
  tap_is 0 $? "valgrind: no memory errors, no leaks"
  [[ -s $T/vg.log ]] && sed 's/^/# /' "$T/vg.log" | head -30
  tap_check "valgrind run reopened once" grep -q 'opens=2 reopens=1' "$T/vg.out"
  read -r _ first last < <(grep '^rss_kb' "$T/vg.out")
  tap_check "RSS flat over 300 drains ($first kB -> $last kB)" \
    test $((last - first)) -le 256
fi
tap_done
