#!/usr/bin/env bash
# tools/demo.sh (make demo) as a new user meets it:
#  - not root, it says so at once and still shows gpu-telemetry on the
#    emulated devices (what each plugin found, a --format=top --once
#    screen, a few /metrics lines, the command for the live view);
#  - as root into a pipe, collectd's screen comes once (not one per
#    refresh), its utilisation lines name the engine, then gpu-telemetry
#    on the same simulated machine: every plugin finds its devices, the
#    screen shows the simulated processes, the page the device counts;
#  - every line fits 100 columns, and no warning or error is printed
#    without its explanation;
#  - make demo-top (tools/demo.sh --top) keeps the live view running in a
#    terminal (tmux, 100x30) until q, which exits 0.
set -uo pipefail
cd "$(dirname "$0")/../.."
source tests/lib/tap.sh
source tests/lib/require.sh
B=${BUILD:-build}
require_not_sanitize "make demo" "the demo runs the release build"
for f in "$B/tests/demo_tree" "$B/tests/ddv_tree" "$B/tests/shim.so" "$B/drm_fdinfo.so" "$B/gpu-telemetry"; do
  require_that "make demo" "$f is built (make all tests-build)" test -e "$f"
done
T=$(mktemp -d "${TMPDIR:-/tmp}/demo-test.XXXXXX")
chmod 1777 "$T" # the other user writes its temp dirs here
SOCK=$T/tmux.sock
tm() { tmux -S "$SOCK" -f /dev/null "$@"; }
cleanup() {
  tm kill-server 2>/dev/null
  rm -rf "$T"
}
trap cleanup EXIT

# common checks of one demo output
checks() { # file who
  local f=$1 who=$2
  tap_is "" "$(awk 'length($0) > 100 { print NR ": " length($0) }' "$f" | head -3)" \
    "$who: every line within 100 columns"
  for p in tegra410_uncore panthor_perf i915_oa drm_device; do
    tap_check "$who: gpu-telemetry says what $p found" \
      grep -qE "^  notice: $p: found: [1-9][0-9]* devices?: " "$f"
  done
  tap_check "$who: a --format=top --once screen (its process table header)" \
    grep -qE '^ +PID USER +NAME ' "$f"
  tap_check "$who: /metrics lines: each plugin's device count" \
    test "$(grep -c '^gpu_telemetry_collector_devices{' "$f")" -eq 5
  tap_check "$who: the command that keeps the live view running" \
    grep -qE '^  (sudo )?make demo-top$' "$f"
  # a warning or error line is followed (within 3 lines) by its explanation
  tap_is "" "$(awk '/(^|[ \[])(warning|error)[]:]/ { bad[NR] = $0 }
    /emulated kernel|simulated tree|not this machine/ { for (k in bad) if (NR - k <= 3) delete bad[k] }
    END { for (k in bad) print k ": " bad[k] }' "$f")" "$who: no warning or error left unexplained"
}

if [[ $(id -u) == 0 ]] && command -v setpriv >/dev/null; then
  TMPDIR=$T DEMO_SECONDS=1 timeout 120 setpriv --reuid=65534 --regid=65534 --clear-groups \
    env HOME="$T" tools/demo.sh >"$T/user.out" 2>&1
  tap_is 0 $? "not root: the demo runs (exit 0)"
  tap_check "not root: its first line says so" grep -q '^demo: not root' <(head -n 1 "$T/user.out")
  tap_check "not root: drm_fdinfo said to read this machine's own /proc" \
    grep -qF "(not root: drm_fdinfo reads this machine's own /proc)" "$T/user.out"
  checks "$T/user.out" "not root"
  tap_check "not root: the live view's command says sudo" grep -qx '  sudo make demo-top' "$T/user.out"
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
tap_check "gpu-telemetry comes after collectd" \
  test "$(grep -n '^gpu-telemetry: every plugin' "$T/root.out" | cut -d: -f1)" -gt \
  "$(grep -n '^collectd (the real daemon' "$T/root.out" | cut -d: -f1)"
tap_check "as root: drm_fdinfo finds the simulated machine's five devices" \
  grep -qE '^  notice: drm_fdinfo: found: 5 devices: ' "$T/root.out"
tap_check "as root: the screen shows the simulated processes (blender)" \
  grep -qE '^ +[0-9]+ root +blender ' "$T/root.out"
checks "$T/root.out" "as root"

# ---- make demo-top: the live view until q ----
if command -v tmux >/dev/null; then
  cat >"$T/top.sh" <<EOF
cd "$PWD"
BUILD=$B tools/demo.sh --top 2>"$T/top.err"
echo \$? >"$T/top.status"
EOF
  tm new-session -d -s demo -x 100 -y 30 "env LANG=C.UTF-8 LC_ALL=C.UTF-8 TERM=xterm-256color bash $T/top.sh; sleep 30"
  seen=0
  for ((i = 0; i < 200; i++)); do
    tm capture-pane -p -t demo | grep -qE '^i915 0000:00:02\.0 +mem [0-9.]+ MiB' && { seen=1; break; }
    sleep 0.1
  done
  tap_is 1 "$seen" "make demo-top: the live view shows the simulated machine (its i915 GPU's header)"
  tm send-keys -t demo q
  for ((i = 0; i < 100; i++)); do [[ -s $T/top.status ]] && break; sleep 0.1; done
  tap_is 0 "$(cat "$T/top.status" 2>/dev/null)" "make demo-top: q exits 0"
  tap_check "make demo-top is a Makefile target" grep -q '^demo-top:' Makefile
else
  tap_skip "make demo-top" "no tmux"
fi
tap_check "README.md names make demo-top" grep -qF 'make demo-top' README.md
tap_done
