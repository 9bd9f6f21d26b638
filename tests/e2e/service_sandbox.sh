#!/usr/bin/env bash
# gpu-telemetry.service: its sandbox scored and run.
#  - systemd-analyze security --offline=yes on the unit file: the exposure
#    level is below 3.0 and is the one docs/one-process.md states;
#  - no SupplementaryGroups in the unit (a group the host lacks stops it):
#    gpu-telemetry-generator writes a drop-in with the render and video
#    groups the host's group file has, and none without them; DeviceAllow
#    for char-drm and char-accel, a SystemCallFilter allow-list with
#    perf_event_open, RestrictAddressFamilies;
#  - gpu-telemetry runs under the unit's flags on the emulated devices
#    (tests/shim, a drm_device sysfs tree, the real /proc) and gives the
#    same records as without them, and its --listen page is served with
#    every collector's success 1. Where systemd is PID 1 the flags come
#    from `systemd-run -p` with the unit's own [Service] lines. Elsewhere
#    (a container, this test's usual home) each flag is applied the way
#    systemd applies it, one by one: DynamicUser, the capabilities and
#    NoNewPrivileges with setpriv (an unused uid, the generator's groups
#    for this host, the ambient set); SystemCallFilter, SystemCallErrorNumber,
#    RestrictAddressFamilies and MemoryDenyWriteExecute as a seccomp filter
#    built from the unit (tests/lib/unit_sandbox.py, Debian's
#    python3-seccomp); ProtectSystem=strict as a read-only / in a mount
#    namespace. DeviceAllow (a cgroup device program systemd attaches) has
#    no stand-in there: said as a SKIP.
set -uo pipefail
cd "$(dirname "$0")/../.."
source tests/lib/tap.sh
source tests/lib/require.sh
source tests/lib/backends.sh
source tests/lib/emulated.sh
B=${BUILD:-build}
UNIT=gpu_telemetry/gpu-telemetry.service
NAME="gpu-telemetry.service sandbox"
tap_is_diag() { # expected, actual, name, text shown (as comments) on a mismatch
  tap_is "$1" "$2" "$3"
  [[ $1 == "$2" ]] || sed 's/^/# /' <<<"$4" | head -20
}

require_root "$NAME" "needs root for the emulated device nodes and setpriv"
require_cmd "$NAME" systemd-analyze setpriv unshare curl promtool /usr/bin/python3
[[ -x $B/gpu-telemetry ]] || require_skip "$NAME" "$B/gpu-telemetry is not built"

T=$(mktemp -d "${TMPDIR:-/tmp}/service-sandbox.XXXXXX")
PIDS=()
UNITS=()
cleanup() {
  local p
  for p in "${PIDS[@]}"; do be_stop "$p"; done
  for p in "${UNITS[@]}"; do systemctl stop "$p" >/dev/null 2>&1; done
  rm -rf "$T"
}
# the sandbox command for one run: a unit name of its own under systemd-run
boxed() {
  if [[ $MODE == systemd-run ]]; then
    local u=gpu-telemetry-sandbox-$$-${#UNITS[@]}.service
    UNITS+=("$u")
    BOXED=("${SANDBOX[@]}" --unit="$u" --)
  else
    BOXED=("${SANDBOX[@]}")
  fi
}
trap cleanup EXIT

# ---- the score ----
out=$(cd gpu_telemetry && systemd-analyze security --offline=yes --no-pager gpu-telemetry.service 2>&1)
score=$(sed -n 's/.*Overall exposure level for gpu-telemetry.service: \([0-9.]*\).*/\1/p' <<<"$out")
tap_check "systemd-analyze security --offline: a score ($score)" test -n "$score"
tap_check "exposure level $score is below 3.0" \
  /usr/bin/python3 -c "import sys; sys.exit(not float('$score') < 3.0)"
(cd gpu_telemetry && systemd-analyze security --offline=yes --threshold=29 \
  gpu-telemetry.service >/dev/null 2>&1)
tap_is 0 $? "systemd-analyze security --threshold=29 (2.9): exit 0"
tap_check "docs/one-process.md states the score $score" \
  grep -qF "exposure level $score" docs/one-process.md
json=$(cd gpu_telemetry && systemd-analyze security --offline=yes --json=short gpu-telemetry.service 2>&1)
passes() { # the analyzer's check $1 is met
  /usr/bin/python3 -c '
import json, sys
d = {c["name"]: c for c in json.loads(sys.argv[1])}
sys.exit(not d[sys.argv[2]]["set"])' "$json" "$1"
}
for check in SystemCallFilter=~@privileged SystemCallFilter=~@mount SystemCallFilter=~@module \
  RestrictAddressFamilies=~AF_UNIX RestrictAddressFamilies=~AF_NETLINK \
  RestrictAddressFamilies=~AF_PACKET UMask= NoNewPrivileges= MemoryDenyWriteExecute=; do
  tap_check "systemd-analyze security: $check is met" passes "$check"
done
tap_check "systemd-analyze security: the device ACL holds char-drm and char-accel" \
  grep -qE 'DeviceAllow=.*char-accel:rw char-drm:rw' <<<"$out"

# ---- the lines ----
svc() { # the [Service] values of key $1, one a line
  awk -v k="$1" '/^\[/{s=$0} s=="[Service]" && index($0, k "=")==1 {print substr($0, length(k)+2)}' "$UNIT"
}
tap_is "" "$(svc SupplementaryGroups)" "no SupplementaryGroups (no hard dependency on a render group)"
tap_is $'char-drm rw\nchar-accel rw' "$(svc DeviceAllow)" "DeviceAllow: char-drm and char-accel"
tap_is closed "$(svc DevicePolicy)" "DevicePolicy=closed"
tap_check "SystemCallFilter: @system-service and perf_event_open" \
  grep -qx '@system-service perf_event_open' <<<"$(svc SystemCallFilter)"
tap_is "AF_INET AF_INET6" "$(svc RestrictAddressFamilies)" "RestrictAddressFamilies: IPv4 and IPv6"
# the generator: the groups the host has, each only if there
GEN=gpu_telemetry/gpu-telemetry-generator
gen() { # group file lines -> the drop-in the generator writes, or "none"
  rm -rf "$T/gen"
  printf '%s\n' "$@" >"$T/groups"
  GPU_TELEMETRY_GROUP_FILE=$T/groups "$GEN" "$T/gen" "$T/gen.early" "$T/gen.late" || echo "exit $?"
  if [[ -e $T/gen/gpu-telemetry.service.d/50-gpu-groups.conf ]]; then
    grep -v '^#' "$T/gen/gpu-telemetry.service.d/50-gpu-groups.conf"
  else
    echo none
  fi
}
tap_is $'[Service]\nSupplementaryGroups=render video' "$(gen root:x:0: render:x:105: video:x:44:)" \
  "generator: render and video where the host has both"
tap_is $'[Service]\nSupplementaryGroups=video' "$(gen root:x:0: video:x:44: renderer:x:9:)" \
  "generator: video alone where there is no render group (renderer is not render)"
tap_is none "$(gen root:x:0: users:x:100:)" "generator: no drop-in where neither group exists"
"$GEN" >/dev/null 2>&1
tap_is 2 $? "generator: no output directory is a usage error"

allowed=$(tests/lib/unit_sandbox.py "$UNIT" --list)
for c in ioctl perf_event_open openat read pread64 inotify_init1 eventfd2 epoll_wait ppoll \
  socket bind listen accept4 clock_nanosleep; do
  tap_check "the allow-list has $c" grep -qx "$c" <<<"$allowed"
done
for c in mount setuid ptrace init_module setrlimit reboot; do
  tap_check "the allow-list has no $c" test -z "$(grep -x "$c" <<<"$allowed")"
done

# ---- the run ----
emu_setup "$T/emu" >/dev/null 2>&1
# mktemp's 0700 as the real /sys and /dev are not: the plugins' access(2)
# checks take the real uid without capabilities (fs/open.c: do_faccessat
# clears them for a non-root uid)
chmod 0755 "$T"
# render nodes as upstream systemd's udev rules make them (0666); Debian's
# (0660 root:render) need the generator's group, which this machine may
# not have
find "$EMU_DIR" -path '*/dri/renderD*' -exec chmod 0666 {} +

ident() { # records' identity (name, tags, field names) of a JSON batch
  /usr/bin/python3 - "$1" <<'PY'
import json, sys
for r in json.load(open(sys.argv[1])):
    tags = sorted((k, v) for k, v in r.items() if isinstance(v, str) and k != "name")
    fields = sorted(k for k, v in r.items() if not isinstance(v, str) and k != "time")
    print(r["name"], tags, fields)
PY
}

caps=$(svc AmbientCapabilities)
capset=$(tr 'A-Z ' 'a-z\n' <<<"$caps" | sed -n 's/^cap_//p' | sed 's/^/+/' | paste -sd,)
tap_is "+sys_ptrace,+dac_read_search,+perfmon" "$capset" "the unit's ambient capabilities"
# the groups the generator gives on this host, as gids
rm -rf "$T/gen"
"$GEN" "$T/gen"
groups=$(sed -n 's/^SupplementaryGroups=//p' "$T/gen/gpu-telemetry.service.d/50-gpu-groups.conf" 2>/dev/null)
gids=$(for g in $groups; do getent group "$g" | cut -d: -f3; done | paste -sd,)
group_opt=--clear-groups
[[ -n $gids ]] && group_opt=--groups=$gids
# an unused uid in systemd's DynamicUser range (61184-65519)
uid=61184
while getent passwd "$uid" >/dev/null || [[ -n $(ps -o pid= -u "$uid" 2>/dev/null) ]]; do
  uid=$((uid + 1))
done

SANDBOX=()
if [[ -d /run/systemd/system ]] && command -v systemd-run >/dev/null; then
  MODE=systemd-run
  props=()
  while IFS= read -r l; do props+=(-p "$l"); done < <(
    awk '/^\[/{s=$0} s=="[Service]" && /^[A-Z][A-Za-z]*=/ &&
      !/^(Type|EnvironmentFile|ExecStart|Restart|RestartSec)=/' "$UNIT")
  # the emulated trees must be visible: not under a private /tmp; each run
  # a unit of its own, stopped by name at the end
  SANDBOX=(systemd-run --quiet --wait --pipe --collect --working-directory="$PWD" "${props[@]}")
else
  MODE="flags one by one (systemd is not PID 1 here)"
  SANDBOX=(unshare --mount -- sh -c 'mount --make-rprivate / && mount -o remount,bind,ro / && exec "$@"' sandbox
    setpriv --reuid="$uid" --regid="$uid" "$group_opt" --no-new-privs
    --inh-caps=-all,"$capset" --ambient-caps=-all,"$capset" --bounding-set=-all,"$capset"
    tests/lib/unit_sandbox.py "$UNIT" --)
fi
tap_ok "sandbox: $MODE (groups: ${groups:-none})"
if [[ $MODE == systemd-run && $T == /tmp/* ]]; then
  tap_skip "the run under systemd-run" "the emulated trees are in $T, hidden by PrivateTmp: set TMPDIR"
  tap_done
  exit 0
fi

emu_cmd_all
# the shim's environment is passed by env(1) inside the sandbox
"${EMU_CMD[@]}" --once --window=0.3 --format=json >"$T/free.json" 2>"$T/free.err"
tap_is 0 $? "without the sandbox: exit 0"
# LeakSanitizer's check at exit stops the threads with ptrace, which the
# unit's system call filter forbids, as it should: under SANITIZE=1 the
# runs in the sandbox are checked for memory errors only (every other test,
# the run above included, checks leaks too).
if [[ ${SANITIZE:-} == 1 ]]; then
  export ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0"
fi
boxed
"${BOXED[@]}" "${EMU_CMD[@]}" --once --window=0.3 --format=json >"$T/boxed.json" 2>"$T/boxed.err"
tap_is 0 $? "under the sandbox: exit 0"
tap_is_diag "" "$(grep -iE 'error|denied|not permitted' "$T/boxed.err")" \
  "under the sandbox: no error, no EPERM, no EACCES on stderr" "$(cat "$T/boxed.err")"
n=$(ident "$T/free.json" | wc -l)
tap_check "without the sandbox: records ($n)" test "$n" -ge 20
tap_is "$(ident "$T/free.json" | sort)" "$(ident "$T/boxed.json" | sort)" \
  "under the sandbox: the same records (names, tags, fields) as without"
for m in drm_scan drm_device_freq i915_oa panthor_perf tegra410; do
  tap_check "under the sandbox: $m records" grep -q "\"name\":\"$m" "$T/boxed.json"
done

port=$(be_free_port)
boxed
"${BOXED[@]}" "${EMU_CMD[@]}" --listen=127.0.0.1:"$port" --interval=1 --window=0.2 \
  >"$T/listen.out" 2>"$T/listen.err" &
PIDS+=($!)
tap_check "under the sandbox: --listen answers" be_wait_http "http://127.0.0.1:$port/metrics" "$!" 30
ok_all() { # every collector's success is 1 (polled: 0 before a first read)
  local deadline=$((SECONDS + 30)) s
  while ((SECONDS < deadline)); do
    curl -s -o "$T/page" "http://127.0.0.1:$port/metrics"
    s=$(grep '^gpu_telemetry_collector_success' "$T/page" | awk '{print $2}' | sort -u | paste -sd,)
    [[ $s == 1 ]] && [[ $(grep -c '^gpu_telemetry_collector_success' "$T/page") -eq 5 ]] && return 0
    sleep 0.3
  done
  grep '^gpu_telemetry_collector_success' "$T/page" | sed 's/^/# /'
  return 1
}
tap_check "under the sandbox: the five collectors' success is 1" ok_all
out=$(promtool check metrics <"$T/page" 2>&1)
tap_is "0:" "$?:$out" "under the sandbox: promtool check metrics of the page"

# the filter bites: what the unit leaves out fails with its errno
if [[ $MODE != systemd-run ]]; then
  boxed
  out=$("${BOXED[@]}" /usr/bin/python3 -c '
import os, socket
for fam in (socket.AF_UNIX, socket.AF_NETLINK):
    try:
        socket.socket(fam, socket.SOCK_DGRAM)
        print("allowed")
    except OSError as e:
        print(e.errno)
try:
    os.setuid(0)
    print("allowed")
except OSError as e:
    print(e.errno)
open("/sandbox-probe", "w")' 2>&1)
  tap_is $'1\n1\n1' "$(head -3 <<<"$out")" \
    "under the sandbox: AF_UNIX, AF_NETLINK and setuid fail with EPERM"
  tap_check "under the sandbox: / is read-only" grep -q 'Read-only file system' <<<"$out"
  tap_skip "DeviceAllow=char-drm, char-accel" \
    "a cgroup device program only systemd attaches; systemd is not PID 1 here"
fi
tap_done
