#!/usr/bin/env bash
# make demo: a simulated machine watched by the real collectd daemon.
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
#    writes are shown, refreshed every second.
# 4. The same machine through the Telegraf executable's table view.
# 5. panthor_perf and i915_oa through the kernel emulation (tests/shim):
#    an emulated Mali-G720, an emulated Intel TGL GPU (i915) and an
#    emulated Intel Battlemage GPU (xe), table views.
# 5. panthor_perf through the shim's emulated Mali-G720 (table view).
# Everything started here is stopped by PID and removed on exit.
# Needs root: the simulated device nodes are made with mknod.
set -uo pipefail
cd "$(dirname "$0")/.." || exit 1
BUILD=${BUILD:-build}
DEMO_SECONDS=${DEMO_SECONDS:-20}
SNIPPET=conf.d/drm_fdinfo.conf

die() {
  echo "demo: $*" >&2
  exit 1
}

if [[ $(id -u) -ne 0 ]]; then
  echo "demo: the simulated machine needs real DRM device nodes (mknod)," >&2
  echo "demo: which only root can make; run it as root: sudo make demo" >&2
  exit 1
fi
[[ $DEMO_SECONDS =~ ^[0-9]+$ ]] || die "DEMO_SECONDS: expected whole seconds, got \"$DEMO_SECONDS\""
for f in "$BUILD/tests/demo_tree" "$BUILD/drm_fdinfo.so" "$BUILD/drm_fdinfo"; do
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
  wrapper=$(mktemp "${TMPDIR:-/tmp}/demo-collectd.XXXXXX")
  printf '#!/bin/sh\nexec setpriv --pdeathsig TERM %s "$@"\n' "$COLLECTD" >"$wrapper"
  chmod 0755 "$wrapper"
  COLLECTD=$wrapper
fi

tree_pid='' FP=''
cleanup() {
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
coproc TREE { exec "$BUILD/tests/demo_tree"; }
tree_pid=$TREE_PID
read -r -t 20 FP <&"${TREE[0]}"
[[ -n $FP && -d $FP/proc ]] || die "demo_tree did not start"

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
echo "demo: starting $daemon with $SNIPPET (ProcRoot, SysfsRoot, DebugfsRoot -> $FP)"
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
        printf "30 - %d %s\n", last, inst
        return
      }
      # docs/collectd-naming.md: device, device-pid-comm,
      # device-client<id>-comm, else a cgroup
      scope = inst !~ /-/ ? "device" : inst ~ /^[^-]+-[0-9]+-/ ? "process" : \
        inst ~ /^[^-]+-client[0-9]+-/ ? "client" : "cgroup"
      order = scope == "device" ? 1 : scope == "process" ? 2 : 3
      if (series ~ /^percent-.*-utilization$/)
        printf "1%d %s %.1f %s\n", order, scope, last, inst
      else if (series ~ /^bytes-.*-resident_bytes$/ && order == 1)
        printf "2%d %s %.1f %s\n", order, scope, last / 1048576, inst
    }
    FNR == 1 { flush(); file = FILENAME; last = ""; next }
    { when = $1; last = $2 }
    END { flush() }' "${files[@]}" | sort -k1,1n -k4,4
}

show() {
  echo "collectd (the real daemon, pid $CD_PID) with $BUILD/drm_fdinfo.so from $SNIPPET"
  echo "$1, $2 s left; latest values from its csv files (plugin instance: device[-pid-name | -client<id>-name | -cgroup])"
  latest | awk '
    $1 != section {
      section = $1
      if (section ~ /^1/) print "\nengine utilisation % per " $2 " (percent-ENGINE-utilization):"
      if (section ~ /^2/) print "\nresident memory MiB per device (bytes-REGION-resident_bytes):"
      if (section == 30) print "\nclients per device (objects-clients):"
    }
    { printf "  %8s  %s\n", $3, $4 }'
}

end=$((SECONDS + DEMO_SECONDS))
while ((SECONDS < end)); do
  kill -0 "$CD_PID" 2>/dev/null || {
    echo "demo: collectd exited; its log:" >&2
    cat "$CD_LOG" >&2
    exit 1
  }
  if [[ -t 1 ]]; then
    clear
    show "$(date +%T)" $((end - SECONDS))
    sleep 1
  else # not a terminal: a snapshot every 5 s
    show "$(date +%T)" $((end - SECONDS))
    echo
    sleep 5
  fi
done

echo
echo "collectd's log ($CD_LOG):"
sed 's/^/  /' "$CD_LOG"
echo
echo "The same machine through the Telegraf executable:"
echo "  $BUILD/drm_fdinfo --format=table --window=1 --ReportBy=Device --ReportBy=Process \\"
echo "    --ProcRoot=$FP/proc --SysfsRoot=$FP/sys --DebugfsRoot=$FP/debug"
echo
"$BUILD/drm_fdinfo" --format=table --window=1 --ReportBy=Device \
  --ReportBy=Process --ProcRoot="$FP/proc" --SysfsRoot="$FP/sys" \
  --DebugfsRoot="$FP/debug" || die "$BUILD/drm_fdinfo failed"

# panthor_perf: a Mali-G720 through the shim's panthor node (the perf uAPI
# is not in mainline, so no machine here has one).
echo
echo "panthor_perf against an emulated Mali-G720 (LD_PRELOAD $BUILD/tests/shim.so, SHIM_DRIVERS=panthor):"
echo "  $BUILD/panthor_perf --format=table --window=1 --Device=<tmp>/renderD128"
echo
pp_dir=$(mktemp -d "${TMPDIR:-/tmp}/demo-panthor.XXXXXX")
# per 1 ms sample (the shim's virtual time): GPU 800 MHz active, queues,
# tiler and cores busy in proportion, ~1 GB/s read and ~0.5 GB/s written
pp_rates=cshw:4=800000,cshw:32=600000,cshw:24=200000,tiler:4=300000
pp_rates+=,shader:4=60000,shader:22=20000,shader:26=65000,shader:53=70000
pp_rates+=,memsys:32=20000,memsys:47=10000
SHIM_DRIVERS=panthor SHIM_PANTHOR_PATH="$pp_dir/renderD128" \
  SHIM_PANTHOR_GPU=g720 SHIM_PANTHOR_RATES=$pp_rates LD_PRELOAD="$PWD/$BUILD/tests/shim.so" \
  "$BUILD/panthor_perf" --format=table --window=1 \
  --Device="$pp_dir/renderD128" || echo "demo: $BUILD/panthor_perf failed" >&2
rm -rf "$pp_dir"

# i915_oa: an Intel TGL GPU's OA stream through the shim's i915 device,
# with the flex events of the shipped snippet (EU active, EU stall).
echo
echo "i915_oa against an emulated Intel TGL GPU (LD_PRELOAD $BUILD/tests/shim.so, SHIM_DRIVERS=i915):"
echo "  $BUILD/i915_oa --format=table --window=1 --FlexEvent='eu_active 4' --FlexEvent='eu_stall 5'"
echo
oa_dir=$(mktemp -d "${TMPDIR:-/tmp}/demo-i915.XXXXXX")
(
  source tests/lib/i915_tree.sh
  i915_tree "$oa_dir" 0000:00:02.0
  SHIM_I915_SCENARIO=$(i915_scenario "$oa_dir" reports=50,ctx_every=7) \
    LD_PRELOAD="$PWD/$BUILD/tests/shim.so" "$BUILD/i915_oa" --format=table \
    --window=1 --DevRoot="$oa_dir/dev/dri" --SysfsRoot="$oa_dir/sys" \
    --FlexEvent="eu_active 4" --FlexEvent="eu_stall 5"
) || echo "demo: $BUILD/i915_oa failed" >&2
rm -rf "$oa_dir"

# i915_oa on xe: an Intel Battlemage (Xe2) GPU's OA stream through the
# shim's xe device: PEC64u64 reports, the same records as on i915.
echo
echo "i915_oa against an emulated Intel Battlemage GPU on xe (LD_PRELOAD $BUILD/tests/shim.so, SHIM_DRIVERS=xe):"
echo "  $BUILD/i915_oa --format=table --window=1 --MetricSet=1"
echo
xe_dir=$(mktemp -d "${TMPDIR:-/tmp}/demo-xe.XXXXXX")
(
  mkdir -p "$xe_dir/dev/dri" "$xe_dir/sys"
  : >"$xe_dir/dev/dri/renderD128"
  SHIM_DRIVERS=xe SHIM_XE_PATH="$xe_dir/dev/dri/renderD128" \
    SHIM_XE_SCENARIO=platform=bmg,batch=50 \
    LD_PRELOAD="$PWD/$BUILD/tests/shim.so" "$BUILD/i915_oa" --format=table \
    --window=1 --DevRoot="$xe_dir/dev/dri" --SysfsRoot="$xe_dir/sys" \
    --MetricSet=1
) || echo "demo: $BUILD/i915_oa (xe) failed" >&2
rm -rf "$xe_dir"
