#!/usr/bin/env bash
# tools/demo.sh (make demo) as a new user meets it: not root, it says so
# at once and still shows every plugin but drm_fdinfo's collectd part
# (panthor_perf, i915_oa on i915 and xe, tegra410_uncore, drm_device), with
# the emulated Mali's TEARDOWN warning said to be the emulation's; as root
# into a pipe, collectd's screen comes once (not one per refresh), its
# utilisation lines name the engine.
set -uo pipefail
cd "$(dirname "$0")/../.."
source tests/lib/tap.sh
source tests/lib/require.sh
B=${BUILD:-build}
require_not_sanitize "make demo" "the demo runs the release build"
for f in "$B/tests/demo_tree" "$B/tests/ddv_tree" "$B/tests/shim.so" "$B/drm_fdinfo.so"; do
  require_that "make demo" "$f is built (make all tests-build)" test -e "$f"
done
T=$(mktemp -d "${TMPDIR:-/tmp}/demo-test.XXXXXX")
chmod 1777 "$T" # the other user writes its temp dirs here
trap 'rm -rf "$T"' EXIT

sections() { # the plugin table headers the demo printed after collectd's part
  sed -n '/^panthor_perf against/,$p' "$1" | grep -xE 'panthor_perf|i915_oa|tegra410|drm_device' | paste -sd' '
}

if [[ $(id -u) == 0 ]] && command -v setpriv >/dev/null; then
  TMPDIR=$T DEMO_SECONDS=1 timeout 120 setpriv --reuid=65534 --regid=65534 --clear-groups \
    env HOME="$T" tools/demo.sh >"$T/user.out" 2>&1
  tap_is 0 $? "not root: the demo runs (exit 0)"
  tap_check "not root: its first line says so" grep -q '^demo: not root' <(head -n 1 "$T/user.out")
  tap_is "panthor_perf i915_oa i915_oa tegra410 drm_device" "$(sections "$T/user.out")" \
    "not root: panthor_perf, i915_oa (i915, xe), tegra410_uncore and drm_device are shown"
  tap_check "the TEARDOWN warning is said to be the emulated kernel's" \
    grep -q 'TEARDOWN warning below is about that emulated kernel, not this machine' "$T/user.out"
else
  tap_skip "not root: the demo runs" "needs root to become another user (setpriv)"
fi

require_root "make demo as root" "the simulated machine needs mknod"
DEMO_SECONDS=3 timeout 180 tools/demo.sh >"$T/root.out" 2>&1
tap_is 0 $? "as root: the demo runs (exit 0)"
tap_is 1 "$(grep -c '^collectd (the real daemon' "$T/root.out")" \
  "as root, into a pipe: collectd's screen comes once"
tap_check "its utilisation lines name the engine (render on 0000:00:02.0)" \
  grep -qE '^ +[0-9.]+ +render +0000:00:02\.0$' "$T/root.out"
tap_is "panthor_perf i915_oa i915_oa tegra410 drm_device" "$(sections "$T/root.out")" \
  "as root: every other plugin is shown too"
tap_done
