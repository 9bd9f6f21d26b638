#!/usr/bin/env bash
# gpu-telemetry says what each plugin found, at the default log level:
#  - on a machine without a GPU (empty trees): one notice line per plugin
#    instance, "found: no device: <where it looked>", and --once ends with
#    one line saying nothing was found, exit 0; a single plugin chosen
#    with --plugin says it too;
#  - on the emulated devices: the devices of each plugin (driver, device);
#  - the Prometheus page carries gpu_telemetry_collector_devices per
#    instance beside gpu_telemetry_collector_success (promtool-clean), 0
#    without a GPU, the found count with one; and the live server's
#    scrape says the same;
#  - a GPU that appears later is said again, once.
set -uo pipefail
cd "$(dirname "$0")/../.."
source tests/lib/tap.sh
source tests/lib/require.sh
source tests/lib/backends.sh
source tests/lib/emulated.sh
source tests/lib/fakeproc.sh
source tests/lib/manifest.sh
B=${BUILD:-build}
EXPO=tests/lib/prom_expo.py

require_root "gpu-telemetry found" "needs root for mknod of DRM device nodes"
require_cmd "gpu-telemetry found" python3 promtool curl

T=$(mktemp -d "${TMPDIR:-/tmp}/gt-found.XXXXXX")
PIDS=()
cleanup() {
  local p
  for p in "${PIDS[@]}"; do be_stop "$p"; done
  fp_fini
  rm -rf "$T"
}
trap cleanup EXIT
mapfile -t PLUGINS < <(manifest_plugins | tr ' ' '\n')

# ---- no GPU: every root points at an empty tree of the right shape (the
# uncore PMUs: this machine's, which has the CPU's PMUs and no Tegra410) ----
mkdir -p "$T/none/sys/class/drm" "$T/none/sys/class/accel" "$T/none/sys/dev/char" \
  "$T/none/sys/bus/event_source/devices" "$T/none/dev/dri"
NONE=(--drm_fdinfo.ProcRoot=/proc "--drm_fdinfo.SysfsRoot=$T/none/sys"
  "--drm_fdinfo.DevRoot=$T/none/dev" --tegra410_uncore.SysfsRoot=/sys
  "--panthor_perf.DevRoot=$T/none/dev" "--i915_oa.DevRoot=$T/none/dev/dri"
  "--drm_device.SysfsRoot=$T/none/sys")
"$B/gpu-telemetry" --once --window=0 "${NONE[@]}" >"$T/none.out" 2>"$T/none.err"
tap_is 0 $? "no GPU: --once exits 0"
for p in "${PLUGINS[@]}"; do
  tap_is 1 "$(grep -c "^notice: $p: found: no device: ." "$T/none.err")" \
    "no GPU: $p says once that it found nothing"
done
tap_check "  ... and where it looked (drm_device: its SysfsRoot)" \
  grep -q "^notice: drm_device: found: no device: no card<N> or accel<N> under $T/none/sys/class/drm or class/accel" "$T/none.err"
tap_check "  ... (i915_oa: its DevRoot)" \
  grep -q "^notice: i915_oa: found: no device: no i915 or xe render node (renderD\*) under $T/none/dev/dri" "$T/none.err"
tap_is "notice: gpu-telemetry: once: no plugin found a device (each said above where it looked)" \
  "$(tail -n 1 "$T/none.err")" "no GPU: --once ends saying nothing was found"
tap_is "" "$(grep -v '^notice: ' "$T/none.err" | grep -v "^warning: [a-z0-9_]*: $T/none/")" \
  "no GPU: nothing else said at the default level (but a warning for a configured root holding nothing)"
# This machine as it is, when it has no GPU: the default roots
if [[ ! -e /sys/class/drm && ! -e /sys/class/accel && ! -e /dev/dri ]]; then
  "$B/gpu-telemetry" --once --window=0 >"$T/bare.out" 2>"$T/bare.err"
  tap_is "0|6|6" "$?|$(wc -l <"$T/bare.err")|$(grep -c '^notice: ' "$T/bare.err")" \
    "this machine (no GPU): exit 0, five found lines and the summary, all notices"
  tap_is 1 "$(wc -l <"$T/bare.out")" "  ... stdout: drm_fdinfo's scan summary only"
else
  tap_skip "this machine as it is" "it has a DRM device (/sys/class/drm or /dev/dri)"
  tap_skip "  ... stdout" "it has a DRM device"
fi
for p in drm_device i915_oa; do
  mapfile -t own < <(printf '%s\n' "${NONE[@]}" | grep -- "^--$p\.")
  "$B/gpu-telemetry" --once --window=0 --plugin "$p" "${own[@]}" >/dev/null 2>"$T/one.err"
  rc=$?
  tap_is "0|2" "$rc|$(grep -c '^notice: ' "$T/one.err")" "--plugin $p alone: exit 0, two notices (found, nothing found)"
done
"$B/gpu-telemetry" --once --window=0 --format=prometheus "${NONE[@]}" >"$T/none.prom" 2>/dev/null
tap_is "" "$(promtool check metrics <"$T/none.prom" 2>&1)" "no GPU: promtool check metrics prints nothing"
for p in "${PLUGINS[@]}"; do
  tap_is "1|0" "$(python3 $EXPO get "$T/none.prom" gpu_telemetry_collector_success plugin=$p)|$(python3 $EXPO get "$T/none.prom" gpu_telemetry_collector_devices plugin=$p)" \
    "no GPU: $p works (success 1) and found nothing (devices 0)"
done
tap_is 0 "$(python3 $EXPO check "$T/none.prom" | wc -l)" "no GPU: the page is well formed"
"$B/gpu-telemetry" --once --window=0 --log-level=warning "${NONE[@]}" >/dev/null 2>"$T/quiet.err"
tap_is "" "$(grep -c '^notice' "$T/quiet.err" | grep -v '^0$')" \
  "--log-level=warning: the found lines are notices, not shown"

# ---- the emulated devices ----
emu_setup "$T/emu" >/dev/null 2>&1
fp_init
fp_device 226 0 card0 0000:00:02.0 i915
fp_process 100 'blender'
fp_fd 100 3 card0 "$(fp_i915 7 1500000000)"
emu_cmd_all
CMD=("${EMU_CMD[@]}" "--drm_fdinfo.ProcRoot=$FP/proc" "--drm_fdinfo.SysfsRoot=$FP/sys")
"${CMD[@]}" --once --window=0.2 --format=prometheus >"$T/emu.prom" 2>"$T/emu.err"
tap_is 0 $? "emulated: --once exits 0"
declare -A WANT=(
  [drm_fdinfo]="1 device: i915 0000:00:02.0"
  [i915_oa]="1 device: i915 0000:00:02.0"
  [panthor_perf]="1 device: panthor renderD128"
  [drm_device]="1 device: xe "
  [tegra410_uncore]=" devices: pmu nvidia_"
)
for p in "${PLUGINS[@]}"; do
  line=$(grep "^notice: $p: found: " "$T/emu.err")
  tap_check "emulated: $p names what it found ($line)" grep -qF -- "${WANT[$p]}" <<<"$line"
  n=$(sed -n "s/^notice: $p: found: \([0-9]*\) device.*/\1/p" "$T/emu.err")
  tap_is "1|${n:-none}" "$(python3 $EXPO get "$T/emu.prom" gpu_telemetry_collector_success plugin=$p)|$(python3 $EXPO get "$T/emu.prom" gpu_telemetry_collector_devices plugin=$p)" \
    "emulated: $p's device gauge is its found count"
done
tap_check "emulated: no 'nothing found' line" bash -c "! grep -q 'no plugin found a device' '$T/emu.err'"
tap_is "" "$(promtool check metrics <"$T/emu.prom" 2>&1)" "emulated: promtool check metrics prints nothing"

# ---- the live server: the same gauges on every scrape ----
port=$(be_free_port)
"${CMD[@]}" --listen "$port" --interval=1 --window=0.2 >/dev/null 2>"$T/listen.err" &
pid=$!
PIDS+=($pid)
tap_check "--listen PORT: /metrics answers on 127.0.0.1" be_wait_http "http://127.0.0.1:$port/metrics" $pid 30
curl -s "http://127.0.0.1:$port/metrics" >"$T/live.prom"
tap_is 5 "$(grep -c '^gpu_telemetry_collector_devices{' "$T/live.prom")" \
  "--listen: a device count for each of the five instances"
tap_is "1" "$(python3 $EXPO get "$T/live.prom" gpu_telemetry_collector_devices plugin=i915_oa)" \
  "--listen: i915_oa's one device"
tap_check "--listen PORT: said to serve every address" \
  grep -q "^notice: gpu-telemetry: listen: serving http://\\[::\\]:$port/metrics on every address, IPv4 and IPv6" "$T/listen.err"
tap_check "--listen: SIGTERM ends it" be_stop $pid
# ---- a device that comes: said again, and counted ----
mkdir -p "$T/hp"
"$B/tests/ddv_tree" "$T/hp" xe_bmg >/dev/null
"$B/gpu-telemetry" --plugin=drm_device "--drm_device.SysfsRoot=$T/hp/sys" --interval=0.3 \
  --window=0 >/dev/null 2>"$T/hp.err" &
pid=$!
PIDS+=($pid)
for ((i = 0; i < 100; i++)); do grep -q 'found: 1 device' "$T/hp.err" && break; sleep 0.1; done
"$B/tests/ddv_tree" "$T/hp" amdgpu_apu >/dev/null # card0 appears beside card1
for ((i = 0; i < 200; i++)); do grep -q 'found: 2 devices' "$T/hp.err" && break; sleep 0.1; done
tap_check "a GPU that appears: drm_device says what it found again" \
  grep -qE '^notice: drm_device: found: 2 devices: amdgpu [^,]+, xe 0000:03:00\.0$' "$T/hp.err"
tap_is 1 "$(grep -c 'found: 1 device' "$T/hp.err")" "  ... the first line said once, not at every read"
tap_check "  ... SIGTERM ends it" be_stop $pid

tap_check "docs/exporter.md says what _success and _devices mean" \
  grep -q 'gpu_telemetry_collector_devices' docs/exporter.md
tap_done
