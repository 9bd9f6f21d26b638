#!/usr/bin/env bash
# make demo: a simulated machine watched by the real collectd daemon, then
# by gpu-telemetry (every plugin in one process). make demo-top
# (tools/demo.sh --top): gpu-telemetry's live view on the same machine,
# until q.
#
# 1. $BUILD/tests/demo_tree (tests/tools/demo_tree.c) builds a synthetic
#    /proc, /sys and debugfs with DRM clients of i915, xe, amdgpu, panfrost
#    and an amdxdna NPU, and advances their counters every 0.5 s.
# 2. /usr/sbin/collectd -f runs from a generated config under a temp dir
#    (tests/lib/collectd.sh: logfile first, both types.db, csv, unixsock)
#    with the shipped snippet conf.d/drm_fdinfo.conf, its ProcRoot,
#    SysfsRoot and DebugfsRoot pointed at the simulated machine, Interval 1
#    and ReportBy Cgroup switched on. It loads $BUILD/drm_fdinfo.so.
# 3. For DEMO_SECONDS (20) the latest values of the csv files collectd
#    writes are shown, redrawn in place every second on a terminal (once,
#    at the end, otherwise), then the start of collectd's log.
# 4. gpu-telemetry on the same machine plus the kernel emulation
#    (tests/lib/emulated.sh, tests/shim: an Intel TGL GPU on i915, a
#    Mali-G720 on panthor, the Tegra410 PMUs, an xe card's sysfs for
#    drm_device): what each plugin found, one --format=top --once screen,
#    a few lines of its Prometheus page, and the command that keeps the
#    live view running (make demo-top).
# Everything started here is stopped by PID and removed on exit. Every
# line is at most 100 columns. Steps 1 to 3 need root (the simulated device
# nodes are made with mknod); without it only step 4 runs, without the
# simulated /proc, and the Makefile says so before building.
set -uo pipefail
cd "$(dirname "$0")/.." || exit 1
BUILD=${BUILD:-build}
DEMO_SECONDS=${DEMO_SECONDS:-20}
MODE=demo
case ${1:-} in
--top) MODE=top ;;
"") ;;
*)
  echo "demo: usage: tools/demo.sh [--top]" >&2
  exit 2
  ;;
esac
WIDTH=100
SNIPPET=conf.d/drm_fdinfo.conf

die() {
  echo "demo: $*" >&2
  exit 1
}

root=1
if [[ $(id -u) -ne 0 ]]; then
  root=0
  echo "demo: not root: the simulated machine that collectd watches needs DRM device"
  echo "demo: nodes (mknod), which only root can make; showing the emulated devices"
  echo "demo: through the executables only (sudo make demo shows collectd too)"
fi
[[ $DEMO_SECONDS =~ ^[0-9]+$ ]] || die "DEMO_SECONDS: expected whole seconds, got \"$DEMO_SECONDS\""
for f in "$BUILD/tests/demo_tree" "$BUILD/tests/ddv_tree" "$BUILD/tests/shim.so" "$BUILD/drm_fdinfo.so" "$BUILD/gpu-telemetry"; do
  [[ -x $f || -f $f ]] || die "$f: missing; build it first: make all tests-build"
done
[[ -f $SNIPPET ]] || die "$SNIPPET: missing"
source tests/lib/collectd.sh
[[ -x $COLLECTD ]] || die "$COLLECTD: missing; install collectd-core (tools/deps.sh test)"

# If this script is killed outright (SIGKILL: no trap runs), the kernel
# still stops collectd and demo_tree: a parent-death signal (demo_tree sets
# its own).
wrapper='' daemon=$COLLECTD
if setpriv --pdeathsig TERM true 2>/dev/null; then
  wrapper=$(mktemp "${TMPDIR:-/tmp}/demo-collectd.XXXXXX") || die "cannot make a temp file in ${TMPDIR:-/tmp}"
  printf '#!/bin/sh\nexec setpriv --pdeathsig TERM %s "$@"\n' "$COLLECTD" >"$wrapper"
  chmod 0755 "$wrapper"
  COLLECTD=$wrapper
fi

tree_pid='' FP='' EMU=''
cleanup() {
  [[ -n $EMU && -d $EMU ]] && rm -rf "$EMU"
  collectd_stop >/dev/null 2>&1 || true
  [[ -n $wrapper ]] && rm -f "$wrapper"
  if [[ -n $tree_pid ]]; then
    kill -TERM "$tree_pid" 2>/dev/null
    wait "$tree_pid" 2>/dev/null
  fi
  # demo_tree removes its tree on SIGTERM; if it died some other way:
  [[ -n $FP && $FP == */fakeproc.* && -d $FP ]] && rm -rf "$FP"
  [[ -n ${CD_DIR:-} && -d $CD_DIR ]] && rm -rf "$CD_DIR"
}
trap cleanup EXIT
trap 'exit 130' INT TERM HUP

# The simulated machine; its first stdout line is the tree root.
start_tree() {
  coproc TREE { exec "$BUILD/tests/demo_tree"; }
  tree_pid=$TREE_PID
  read -r -t 20 FP <&"${TREE[0]}"
  [[ -n $FP && -d $FP/proc ]] || die "demo_tree did not start"
}

collectd_part() {

# The shipped snippet, pointed at the simulated machine.
conf=$(sed -E \
  -e "s|^([[:space:]]*)#?[[:space:]]*ProcRoot[[:space:]].*|\\1ProcRoot \"$FP/proc\"|" \
  -e "s|^([[:space:]]*)#?[[:space:]]*SysfsRoot[[:space:]].*|\\1SysfsRoot \"$FP/sys\"|" \
  -e "s|^([[:space:]]*)#?[[:space:]]*DebugfsRoot[[:space:]].*|\\1DebugfsRoot \"$FP/debug\"|" \
  -e "s|^([[:space:]]*)#?[[:space:]]*ReportBy[[:space:]]+Cgroup[[:space:]]*$|\\1ReportBy Cgroup|" \
  -e "s|^([[:space:]]*)Interval[[:space:]].*|\\1Interval 1|" \
  "$SNIPPET")
for key in ProcRoot SysfsRoot DebugfsRoot; do
  grep -q "^[[:space:]]*$key \"$FP/" <<<"$conf" ||
    die "$SNIPPET: no $key line to point at the simulated machine"
done
grep -q '^[[:space:]]*<\?LoadPlugin[[:space:]]\+"\?drm_fdinfo' <<<"$conf" ||
  die "$SNIPPET: no LoadPlugin drm_fdinfo"

echo "demo: simulated machine under $FP"
echo "demo: starting $daemon with $SNIPPET"
echo "demo: (its ProcRoot, SysfsRoot and DebugfsRoot point at the simulated machine)"
collectd_start "$conf"
collectd_wait_for "$CD_CSV/*/drm_fdinfo-*/percent-*" 20 || {
  echo "demo: collectd produced no drm_fdinfo values; its log:" >&2
  cat "$CD_LOG" "$CD_DIR/stdout" >&2
  exit 1
}
sleep 2 # utilisation needs two reads of each client

# Latest value of every drm_fdinfo series in collectd's csv files, one line
# per series: "<section> <value> <plugin instance>", sorted. A series whose
# last value is older than 3 s belongs to a client that is gone.
latest() {
  local files=("$CD_CSV"/*/drm_fdinfo-*/*-"$(date +%F)")
  [[ -e ${files[0]} ]] || return 0
  awk -F, -v now="$(date +%s)" '
    function flush(   n, p, inst, series, scope) {
      if (file == "" || last == "" || when < now - 3) return
      n = split(file, p, "/"); inst = p[n - 1]; sub(/^drm_fdinfo-/, "", inst)
      sub(/^[^-]*-/, "", inst) # the <Instance> label (the snippet has one)
      series = p[n]; sub(/-[0-9]+-[0-9]+-[0-9]+$/, "", series)
      if (series == "objects-clients") { # a device
        printf "30 - %d - %s\n", last, inst
        return
      }
      # docs/collectd-naming.md: device, device-pid-comm,
      # device-client<id>-comm, else a cgroup
      scope = inst !~ /-/ ? "device" : inst ~ /^[^-]+-[0-9]+-/ ? "process" : \
        inst ~ /^[^-]+-client[0-9]+-/ ? "client" : "cgroup"
      order = scope == "device" ? 1 : scope == "process" ? 2 : 3
      what = series; sub(/^[a-z_]+-/, "", what) # the engine or region
      sub(/-[a-z_]+$/, "", what)
      if (series ~ /^percent-.*-utilization$/)
        printf "1%d %s %.1f %s %s\n", order, scope, last, what, inst
      else if (series ~ /^bytes-.*-resident_bytes$/ && order == 1)
        printf "2%d %s %.1f %s %s\n", order, scope, last / 1048576, what, inst
    }
    FNR == 1 { flush(); file = FILENAME; last = ""; next }
    { when = $1; last = $2 }
    END { flush() }' "${files[@]}" | sort -k1,1n -k5,5 -k4,4
}

show() {
  echo "collectd (the real daemon, pid $CD_PID) with $BUILD/drm_fdinfo.so from $SNIPPET"
  echo "$1, $2 s left; the latest values of its csv files"
  echo "(plugin instance: device[-pid-name | -client<id>-name | -cgroup])"
  latest | awk '
    $1 != section {
      section = $1
      if (section ~ /^1/) print "\nengine utilisation % per " $2 " (percent-ENGINE-utilization):"
      if (section ~ /^2/) print "\nresident memory MiB per device (bytes-REGION-resident_bytes):"
      if (section == 30) print "\nclients per device (objects-clients):"
    }
    { printf "  %8s  %-14s %s\n", $3, ($4 == "-" ? "" : $4), $5 }'
}

end=$((SECONDS + DEMO_SECONDS))
while ((SECONDS < end)); do
  kill -0 "$CD_PID" 2>/dev/null || {
    echo "demo: collectd exited; its log:" >&2
    cat "$CD_LOG" >&2
    exit 1
  }
  if [[ -t 1 ]]; then # redrawn in place: cursor home, clear to the end
    printf '\033[H\033[2J'
    show "$(date +%T)" $((end - SECONDS))
    sleep 1
  else # not a terminal: one screen, at the end
    sleep 1
  fi
done
[[ -t 1 ]] || show "$(date +%T)" 0

echo
echo "collectd's log, its first lines (all at level info: what each plugin set up):"
head -n 8 "$CD_LOG" | cut -c1-$((WIDTH - 2)) | sed 's/^/  /'
collectd_stop >/dev/null 2>&1
}

# The kernel emulation for the other plugins, and gpu-telemetry over all
# of it: GT, the command (as an array).
gt_setup() {
  source tests/lib/emulated.sh
  EMU=$(mktemp -d "${TMPDIR:-/tmp}/demo-emu.XXXXXX") || die "cannot make a temp dir in ${TMPDIR:-/tmp}"
  emu_setup "$EMU" >/dev/null 2>&1 || die "the emulated devices could not be set up under $EMU"
  emu_cmd_all
  # per 1 ms sample (the shim's virtual time): the Mali at 800 MHz, busy
  # in proportion, ~1 GB/s read and ~0.5 GB/s written
  local rates=cshw:4=800000,cshw:32=600000,cshw:24=200000,tiler:4=300000
  rates+=,shader:4=60000,shader:22=20000,shader:26=65000,shader:53=70000
  rates+=,memsys:32=20000,memsys:47=10000
  GT=(env "SHIM_PANTHOR_RATES=$rates" "${EMU_CMD[@]:1}")
  if [[ -n $FP ]]; then
    GT+=("--drm_fdinfo.ProcRoot=$FP/proc" "--drm_fdinfo.SysfsRoot=$FP/sys"
      "--drm_fdinfo.DebugfsRoot=$FP/debug")
  fi
}

gt_part() {
  echo
  echo "gpu-telemetry: every plugin in one process, on the same machine"
  echo "(drm_fdinfo on the simulated /proc; i915_oa, panthor_perf and tegra410_uncore"
  echo "on the kernel emulation, tests/shim; drm_device on an xe card's sysfs tree)"
  [[ -n $FP ]] || echo "(not root: drm_fdinfo reads this machine's own /proc)"
  echo
  echo "What each plugin found, said at the start (stderr):"
  COLUMNS=$WIDTH "${GT[@]}" --format=top --once --rows=8 --window=1 \
    >"$EMU/top.out" 2>"$EMU/top.err" || echo "demo: gpu-telemetry --format=top --once failed" >&2
  # paths under the temp dir are long: shown as <tmp>
  sed -e "s|$EMU|<tmp>|g" ${FP:+-e "s|$FP|<tmp>|g"} "$EMU/top.err" | fold -s -w $((WIDTH - 2)) |
    sed 's/^/  /'
  if grep -q '^\(warning\|error\): ' "$EMU/top.err"; then
    echo "  (a warning or error above is the emulated kernel's or the simulated tree's, not"
    echo "  this machine's: the demo points every plugin at them)"
  fi
  echo
  echo "One screen of the live view: gpu-telemetry --format=top --once --rows=8"
  cat "$EMU/top.out"
  echo
  echo "A few lines of its Prometheus page: gpu-telemetry --format=prometheus --once"
  # at most 3 samples of each of these names, and the device counts
  "${GT[@]}" --format=prometheus --once --window=1 2>/dev/null |
    awk -v w="$WIDTH" -F'{' '
      length($0) > w || /^#/ || /scope="(process|client|cgroup)"/ { next }
      $1 ~ /^(drm_engine_utilization_ratio|drm_memory_resident_bytes|drm_device_power_cap_watts|panthor_perf_ext_read_bandwidth_bytes_per_second|gpu_telemetry_collector_devices)$/ &&
        (n[$1]++ < 3 || $1 == "gpu_telemetry_collector_devices")'
  echo
  echo "Keep the live view running on this simulated machine (q quits):"
  echo "  ${SUDO_HINT}make demo-top"
}

if [[ $MODE == top ]]; then
  [[ -t 0 && -t 1 ]] || die "--top: the live view needs a terminal"
  [[ $root == 1 ]] && start_tree
  gt_setup
  "${GT[@]}" --format=top --interval=1
  exit $?
fi
SUDO_HINT=''
[[ $root == 1 ]] || SUDO_HINT='sudo '
if [[ $root == 1 ]]; then
  start_tree
  collectd_part
fi
gt_setup
gt_part
