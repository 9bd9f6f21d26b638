#!/usr/bin/env bash
# ReportBy Container on a synthetic Kubernetes node: a synthetic /proc
# whose processes sit in kubepods cgroups (containerd and CRI-O under the
# systemd driver, a bare id under the cgroupfs driver) and hold clients of
# one xe GPU, and a synthetic kubelet log layout (PodLogRoot,
# ContainerLogRoot). Three pods time-slicing the GPU at 50/30/20 % read as
# 50/30/20 % (xe's cycle counters: no timing luck), with kube-state-metrics'
# names; a pod that ends ends its series at the next read; a renamed pod
# log directory and a removed container link leave no stale names; the
# container series are capped by MaxProcesses per device and counted.
set -uo pipefail
cd "$(dirname "$0")/../.."
source tests/lib/tap.sh
source tests/lib/fakeproc.sh
source tests/lib/lineproto.sh
source tests/lib/require.sh
BIN=${BUILD:-build}/drm_fdinfo

require_root "synthetic kubelet node" "needs root for mknod of DRM device nodes"

fp_init
trap fp_fini EXIT
fp_device 226 0 card0 0000:03:00.0 xe

hex64() { printf '%s' "$1" | sha256sum | cut -c1-64; }
I1=$(hex64 one) I2=$(hex64 two) I3=$(hex64 three)
U1=7c2a51e0-1f3b-4c6d-8e9f-0a1b2c3d4e51
U2=7c2a51e0-1f3b-4c6d-8e9f-0a1b2c3d4e52
U3=7c2a51e0-1f3b-4c6d-8e9f-0a1b2c3d4e53

# The cgroups as the runtimes name them (common/container/cgroup_id.h)
fp_process 201 python3 \
  "/kubepods.slice/kubepods-burstable.slice/kubepods-burstable-pod${U1//-/_}.slice/cri-containerd-$I1.scope"
fp_process 202 python3 \
  "/kubepods.slice/kubepods-besteffort.slice/kubepods-besteffort-pod${U2//-/_}.slice/crio-$I2.scope"
fp_process 203 ffmpeg "/kubepods/pod$U3/$I3"
fp_process 204 Xorg "/system.slice/display-manager.service"

# xe fdinfo: CLIENT-ID CYCLES TOTAL (utilisation = Δcycles / Δtotal)
xe() {
  printf 'pos:\t0\ndrm-driver:\txe\ndrm-pdev:\t0000:03:00.0\ndrm-client-id:\t%s\ndrm-cycles-rcs:\t%s\ndrm-total-cycles-rcs:\t%s\ndrm-total-system:\t%s KiB\n' \
    "$1" "$2" "$3" "$4"
}
fp_fd 201 5 card0 "$(xe 11 1000 100000 1024)"
fp_fd 202 5 card0 "$(xe 12 2000 100000 2048)"
fp_fd 203 5 card0 "$(xe 13 3000 100000 4096)"
fp_fd 204 5 card0 "$(xe 14 0 100000 512)"

# The kubelet's log layout (kuberuntime: BuildPodLogsDirectory, logSymlink)
PODS=$FP/var/log/pods CTRS=$FP/var/log/containers
mkdir -p "$PODS" "$CTRS" "$FP/no-docker" "$FP/no-podman"
pod() { # namespace pod uid container id
  mkdir -p "$PODS/$1_$2_$3/$4"
  : >"$PODS/$1_$2_$3/$4/0.log"
  ln -s "$PODS/$1_$2_$3/$4/0.log" "$CTRS/$2_$1_$4-$5.log"
}
pod ml trainer-0 "$U1" cuda "$I1"
pod ml trainer-1 "$U2" cuda "$I2"
pod media transcode-7f9c "$U3" ffmpeg "$I3"
# noise the parsers must refuse: not a layout name, an id cut short
mkdir -p "$PODS/not-a-pod" && ln -s /dev/null "$CTRS/x_y_z-abc.log"

ROOTS=(--ProcRoot="$FP/proc" --SysfsRoot="$FP/sys" --DebugfsRoot="$FP/debug"
  --PodLogRoot="$PODS" --ContainerLogRoot="$CTRS"
  --DockerRoot="$FP/no-docker" --PodmanRoot="$FP/no-podman")

coproc EXECD { "$BIN" --execd --format=influx --ReportBy=Container "${ROOTS[@]}" 2>"$FP/err"; }
execd_pid=$EXECD_PID
batch() { # one read: a line in, the lines out up to drm_scan
  echo >&"${EXECD[1]}"
  local l lines=""
  while IFS= read -r -t 30 l <&"${EXECD[0]}"; do
    lines+="$l"$'\n'
    [[ $l == drm_scan* ]] && break
  done
  printf '%s' "$lines"
}
util() { # batch pod
  lp_get utilization --measurement drm_engine --where scope=container \
    --where pod="$2" <<<"$1"
}
tag() { # batch pod tag
  python3 -c '
import json, sys
pod, tag = sys.argv[1], sys.argv[2]
for line in sys.stdin:
    r = json.loads(line)
    if r.get("measurement") == "drm_engine" and r["tags"].get("pod") == pod:
        print(r["tags"].get(tag, "")); break
' "$2" "$3" < <(lp_json <<<"$1")
}

b1=$(batch)
tap_is 4 "$(lp_count --measurement drm_engine --where scope=container <<<"$b1")" \
  "read 1: one engine series per container and one for the host"

fp_fdinfo 201 5 "$(xe 11 51000 200000 1024)"
fp_fdinfo 202 5 "$(xe 12 32000 200000 2048)"
fp_fdinfo 203 5 "$(xe 13 23000 200000 4096)"
fp_fdinfo 204 5 "$(xe 14 0 200000 512)"
b2=$(batch)
tap_is 50.0 "$(util "$b2" trainer-0)" "three pods time-slicing: trainer-0 at 50 %"
tap_is 30.0 "$(util "$b2" trainer-1)" "three pods time-slicing: trainer-1 at 30 %"
tap_is 20.0 "$(util "$b2" transcode-7f9c)" "three pods time-slicing: transcode-7f9c at 20 %"
tap_is 0.0 "$(lp_get utilization --measurement drm_engine --where container_runtime=host <<<"$b2")" \
  "the host's processes: one series, 0 %"
tap_is ml "$(tag "$b2" trainer-0 namespace)" "namespace from the pod log directory"
tap_is cuda "$(tag "$b2" trainer-0 container)" "container name from the container log link"
tap_is "$U1" "$(tag "$b2" trainer-0 pod_uid)" "pod_uid from the slice, '_' read as '-'"
tap_is "$I1" "$(tag "$b2" trainer-0 container_id)" "container_id: all 64 hex digits"
tap_is containerd "$(tag "$b2" trainer-0 container_runtime)" "runtime: containerd (cri-containerd scope)"
tap_is cri-o "$(tag "$b2" trainer-1 container_runtime)" "runtime: cri-o (crio scope)"
tap_is cri "$(tag "$b2" transcode-7f9c container_runtime)" "runtime: cri (cgroupfs driver, bare id)"
tap_is media "$(tag "$b2" transcode-7f9c namespace)" "cgroupfs pod: namespace"
tap_is 4096 "$(lp_get total_bytes --measurement drm_memory --where pod=transcode-7f9c <<<"$b2" | head -n1 | awk '{print $1/1024}')" \
  "memory per pod (KiB)"

# The pod ends: its process, log directory and link go.
rm -r "$FP/proc/203" "$PODS/media_transcode-7f9c_$U3"
rm "$CTRS/transcode-7f9c_media_ffmpeg-$I3.log"
fp_fdinfo 201 5 "$(xe 11 101000 300000 1024)"
fp_fdinfo 202 5 "$(xe 12 62000 300000 2048)"
b3=$(batch)
tap_is 0 "$(lp_count --where pod=transcode-7f9c <<<"$b3")" "a pod that ends: its series end at the next read"
tap_is 0 "$(lp_count --where pod_uid="$U3" <<<"$b3")" "a pod that ends: nothing under its uid either"
tap_is 50.0 "$(util "$b3" trainer-0)" "the others go on: trainer-0 at 50 %"

# A renamed pod log directory, a removed container link: no stale names.
mv "$PODS/ml_trainer-0_$U1" "$PODS/ml_trainer-0-b_$U1"
rm "$CTRS/trainer-1_ml_cuda-$I2.log"
fp_fdinfo 201 5 "$(xe 11 151000 400000 1024)"
fp_fdinfo 202 5 "$(xe 12 92000 400000 2048)"
b4=$(batch)
tap_is 0 "$(lp_count --where pod=trainer-0 <<<"$b4")" "renamed pod directory: the old name is gone"
tap_is 50.0 "$(util "$b4" trainer-0-b)" "renamed pod directory: the new name, same share"
tap_is "${I2:0:12}" "$(tag "$b4" trainer-1 container)" \
  "removed link: the short id stands for the container name"

exec {EXECD[1]}>&-
wait "$execd_pid"
tap_is 0 $? "execd: exit 0 on EOF"
tap_is "" "$(grep -v '^I! ' "$FP/err")" "execd: nothing on stderr but info lines"

# MaxProcesses caps the container series per device, busiest first; the
# rest are counted (drm_scan.containers_unreported).
out=$("$BIN" --once --window=0 --format=influx --ReportBy=Container --MaxProcesses=2 "${ROOTS[@]}" 2>/dev/null)
tap_is 2 "$(lp_count --measurement drm_engine --where scope=container <<<"$out")" \
  "MaxProcesses 2: two container series"
tap_is 1 "$(lp_get containers_unreported --measurement drm_scan <<<"$out")" \
  "MaxProcesses 2: the third counted"
tap_done
