#!/usr/bin/env bash
# Each executable started with fd 0, 1 or 2 closed (bash <&-, >&-, 2>&-),
# on the emulated devices (tests/lib/emulated.sh). A closed fd is the number
# the next open() returns, so without care a device fd or an eventfd
# becomes "stdin" or "stdout". The host (host_exec.h) reopens a closed
# stdin or stderr on /dev/null and refuses a closed stdout:
#   stdin closed, --execd: EOF at once, exit 0, no batch, nothing on stderr
#   stdin closed, --once: the usual batch, exit 0
#   stdout closed: exit 1 and one line on stderr saying so
#   stderr closed: the usual batch, exit 0 (messages go to /dev/null)
# Every run is bounded by `timeout` (a stdin polled forever is exit 124).
set -uo pipefail
cd "$(dirname "$0")/../.."
source tests/lib/tap.sh
source tests/lib/lineproto.sh
source tests/lib/emulated.sh
T=$(mktemp -d "${TMPDIR:-/tmp}/exec-stdio.XXXXXX")
trap 'rm -rf "$T"' EXIT
emu_setup "$T"

records() { lp_count <"$1" 2>/dev/null || echo "unparsable"; }

for p in drm_fdinfo i915_oa panthor_perf tegra410_uncore drm_device; do
  emu_cmd "$p"
  extra=()
  [[ $p == i915_oa ]] && extra=("--FlexEvent=eu_active 4")

  timeout 20 "${EMU_CMD[@]}" "${extra[@]}" --execd >"$T/out" 2>"$T/err" <&-
  tap_is "0|0|" "$?|$(records "$T/out")|$(head -c 300 "$T/err")" \
    "$p --execd, stdin closed: exit 0 at once (EOF), no batch, no message"

  timeout 20 "${EMU_CMD[@]}" "${extra[@]}" --once --window=0 >"$T/out" 2>"$T/err" <&-
  rc=$?
  n=$(records "$T/out")
  tap_check "$p --once, stdin closed: exit 0 ($rc), records ($n), no message" \
    test "$rc|$(head -c 300 "$T/err")" = "0|" -a "$n" != unparsable -a "$n" != 0

  timeout 20 "${EMU_CMD[@]}" "${extra[@]}" --once --window=0 2>"$T/err" >&-
  tap_is "1|$p: stdout: closed: the metrics would go nowhere (open it on a pipe or a file)" \
    "$?|$(head -c 300 "$T/err")" "$p --once, stdout closed: refused, exit 1, says why"

  printf '\n' | timeout 20 "${EMU_CMD[@]}" "${extra[@]}" --execd >"$T/out" 2>&-
  rc=$?
  n=$(records "$T/out")
  tap_check "$p --execd, stderr closed: exit 0 ($rc), one batch ($n records)" \
    test "$rc" = 0 -a "$n" != unparsable -a "$n" != 0

  timeout 20 "${EMU_CMD[@]}" "${extra[@]}" --once --window=0 --log-level=debug \
    >"$T/out" 2>&-
  rc=$?
  n=$(records "$T/out")
  tap_check "$p --once --log-level=debug, stderr closed: exit 0 ($rc), records ($n)" \
    test "$rc" = 0 -a "$n" != unparsable -a "$n" != 0
done
tap_done
