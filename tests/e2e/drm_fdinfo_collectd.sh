#!/usr/bin/env bash
# The real collectd daemon loads build/drm_fdinfo.so with the shipped
# conf.d snippet (roots pointed at a synthetic tree), dispatches values
# under the documented identifiers, drops a bad block with a clear error,
# and frees instances at shutdown (the profiling switch is restored).
set -uo pipefail
cd "$(dirname "$0")/../.."
source tests/lib/tap.sh
source tests/lib/collectd.sh
source tests/lib/fakeproc.sh
source tests/lib/require.sh

require_collectd "collectd end to end"
require_root "collectd end to end" "needs root for mknod of DRM device nodes"

fp_init
cleanup() {
  collectd_stop
  fp_fini
  [[ -n ${CD_DIR:-} && -z ${KEEP:-} ]] && rm -rf "$CD_DIR"
}
trap cleanup EXIT
fp_device 226 0 card0 0000:00:02.0 i915
# in a kubelet pod's container, named by a synthetic log layout
CID=$(printf 'c%.0s' {1..64}) PUID=0a1b2c3d-4e5f-4a6b-8c7d-9e0f1a2b3c4d
fp_process 100 'blender/x y' \
  "/kubepods.slice/kubepods-pod${PUID//-/_}.slice/cri-containerd-$CID.scope"
fp_fd 100 3 card0 "$(fp_i915 7 1000)"
mkdir -p "$FP/pods/ml_trainer-0_$PUID/cuda" "$FP/ctrs"
ln -s /dev/null "$FP/ctrs/trainer-0_ml_cuda-$CID.log"
mkdir -p "$FP/sys/bus/platform/drivers/panthor/fb000000.gpu"
echo 0 >"$FP/sys/bus/platform/drivers/panthor/fb000000.gpu/profiling"

# The shipped snippet, with the container roots pointed at the tree.
snippet=$(sed -e "s|#ProcRoot \"/host/proc\"|ProcRoot \"$FP/proc\"|" \
  -e "s|#SysfsRoot \"/host/sys\"|SysfsRoot \"$FP/sys\"|" \
  -e "s|#DebugfsRoot \"/host/sys/kernel/debug\"|DebugfsRoot \"$FP/debug\"|" \
  -e "s|#EnableProfiling false|EnableProfiling true|" \
  -e "s|#ReportBy Container|ReportBy Container|" \
  -e "s|#PodLogRoot \"/var/log/pods\"|PodLogRoot \"$FP/pods\"|" \
  -e "s|#ContainerLogRoot \"/var/log/containers\"|ContainerLogRoot \"$FP/ctrs\"|" \
  -e "s|Interval 10|Interval 1|" conf.d/drm_fdinfo.conf)
tap_check "snippet: roots substituted" grep -q "ProcRoot \"$FP/proc\"" <<<"$snippet"
# A second, broken block must be dropped on its own.
snippet=${snippet/<\/Plugin>/  <Instance \"bad\">
    ReportBy Planet
  </Instance>
</Plugin>}

collectd_start "$snippet"
dev="$CD_CSV/e2e/drm_fdinfo-gpu-0000:00:02.0"
tap_check "csv: device engine series appears" \
  collectd_wait_for "$dev/gpu_time-render-busy_ns-*" 30
tap_check "log: bad block rejected, naming key and value" grep -q \
  'drm_fdinfo: config: ReportBy: expected Device, Process, Client, Cgroup or Container, got "Planet"' "$CD_LOG"
tap_check "log: bad block dropped by name" \
  grep -q 'drm_fdinfo: config: Instance: "bad": dropped' "$CD_LOG"
tap_is 3 "$(cat "$FP/sys/bus/platform/drivers/panthor/fb000000.gpu/profiling")" \
  "profiling switch set while running"

# 1000 s of busy time in one interval: utilisation clamps at 100 exactly.
fp_fdinfo 100 3 "$(fp_i915 7 1000000001000)"
ok=1
for _ in $(seq 1 100); do
  v=$(collectd_getval "e2e/drm_fdinfo-gpu-0000:00:02.0/percent-render-utilization" 2>/dev/null)
  [[ $v == value=1.000000e+02 ]] && ok=0 && break
  sleep 0.1
done
tap_is 0 "$ok" "unixsock: device utilisation clamped to 100"

v=$(collectd_getval "e2e/drm_fdinfo-gpu-0000:00:02.0/bytes-system0-total_bytes")
tap_is "value=8.388608e+06" "$v" "unixsock: device memory total bytes"
v=$(collectd_getval "e2e/drm_fdinfo-gpu-0000:00:02.0/objects-clients")
tap_is "value=1.000000e+00" "$v" "unixsock: device client count"
proc="$CD_CSV/e2e/drm_fdinfo-gpu-0000:00:02.0-100-blender+x%20y"
tap_check "csv: process series, '/' in the name as '+', ' ' escaped" \
  collectd_wait_for "$proc/percent-render-utilization-*" 10

ctr="$CD_CSV/e2e/drm_fdinfo-gpu-0000:00:02.0-ml-trainer%2D0-cuda"
tap_check "csv: container series named namespace-pod-container" \
  collectd_wait_for "$ctr/gpu_time-render-busy_ns-*" 10

tap_check "collectd stops on SIGTERM" collectd_stop
tap_is 0 "$(cat "$FP/sys/bus/platform/drivers/panthor/fb000000.gpu/profiling")" \
  "profiling switch restored at shutdown"
tap_check "log: no read failures" bash -c "! grep -q 'read-function of plugin .drm_fdinfo' '$CD_LOG'"
tap_done
