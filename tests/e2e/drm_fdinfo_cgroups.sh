#!/usr/bin/env bash
# ReportBy Container against the kernel's own /proc/<pid>/cgroup: real
# processes moved into real cgroups named as each runtime and each kubelet
# cgroup driver names them (common/container/cgroup_id.h), made under the
# cgroup v2 mount (/sys/fs/cgroup, or /sys/fs/cgroup/unified on a hybrid
# host) by writing their PIDs to cgroup.procs. The synthetic /proc that
# gives them DRM clients links each process's `cgroup` file to the real
# /proc/<pid>/cgroup, so the plugin reads what the kernel prints. On a
# hybrid host a process is also placed only in the v1 name=systemd
# hierarchy while its unified line stays where it was: the runtime's path
# is then on the v1 line.
set -uo pipefail
cd "$(dirname "$0")/../.."
source tests/lib/tap.sh
source tests/lib/fakeproc.sh
source tests/lib/lineproto.sh
source tests/lib/require.sh
BIN=${BUILD:-build}/drm_fdinfo

require_root "real cgroups" "needs root to make cgroups and move processes"
is_cgroup2() { [[ $(stat -f -c %T "$1" 2>/dev/null) == cgroup2fs ]]; }
if is_cgroup2 /sys/fs/cgroup; then
  V2=/sys/fs/cgroup
elif is_cgroup2 /sys/fs/cgroup/unified; then
  V2=/sys/fs/cgroup/unified
else
  require_skip "real cgroups" "no cgroup2 mount at /sys/fs/cgroup or /sys/fs/cgroup/unified"
fi
TOP=gpu-e2e-$$-$RANDOM
mkdir "$V2/$TOP" 2>/dev/null ||
  require_skip "real cgroups" "$V2 is not writable here (mkdir failed)"
V1=/sys/fs/cgroup/systemd # systemd's named v1 hierarchy on a hybrid host
HYBRID=0
[[ $V2 == /sys/fs/cgroup/unified && -d $V1 ]] && mkdir "$V1/$TOP" 2>/dev/null && HYBRID=1

PIDS=()
cleanup() {
  local p
  for p in "${PIDS[@]}"; do kill "$p" 2>/dev/null; done
  for p in "${PIDS[@]}"; do wait "$p" 2>/dev/null; done
  # deepest first: a cgroup goes once its processes and children have
  find "$V2/$TOP" -depth -type d -exec rmdir {} + 2>/dev/null
  [[ $HYBRID == 1 ]] && find "$V1/$TOP" -depth -type d -exec rmdir {} + 2>/dev/null
  fp_fini
}
trap cleanup EXIT
fp_init
mkdir -p "$FP/none" # the name sources left empty
fp_device 226 128 renderD128 0000:00:02.0 i915

hex64() { printf '%s' "$1" | sha256sum | cut -c1-64; }
U1=5f0e8a11-2b3c-4d5e-8f90-a1b2c3d4e5f1
U2=5f0e8a11-2b3c-4d5e-8f90-a1b2c3d4e5f2
U3=5f0e8a11-2b3c-4d5e-8f90-a1b2c3d4e5f3
U4=5f0e8a11-2b3c-4d5e-8f90-a1b2c3d4e5f4
# path under $TOP | container_runtime | container_id or "" | container | pod_uid
CASES=(
  "system.slice/docker-$(hex64 1).scope|docker|$(hex64 1)||"
  "docker/$(hex64 2)|docker|$(hex64 2)||"
  "machine.slice/libpod-$(hex64 3).scope|podman|$(hex64 3)||"
  "libpod_parent/libpod-$(hex64 4)|podman|$(hex64 4)||"
  "kubepods.slice/kubepods-burstable.slice/kubepods-burstable-pod${U1//-/_}.slice/cri-containerd-$(hex64 5).scope|containerd|$(hex64 5)||$U1"
  "kubepods.slice/kubepods-besteffort.slice/kubepods-besteffort-pod${U2//-/_}.slice/crio-$(hex64 6).scope|cri-o|$(hex64 6)||$U2"
  "kubepods/burstable/pod$U3/$(hex64 7)|cri|$(hex64 7)||$U3"
  "kubepods/pod$U4/$(hex64 8)|cri|$(hex64 8)||$U4"
  'machine.slice/machine-box\x2d1.scope|systemd-nspawn||box-1|'
  "lxc.payload.web1|lxc||web1|"
)

# place PID in cgroup DIR (absolute); false when the kernel refuses
place() { mkdir -p "$2" && echo "$1" >"$2/cgroup.procs"; }

n=0
for c in "${CASES[@]}"; do
  IFS='|' read -r path _ <<<"$c"
  sleep 600 &
  pid=$!
  PIDS+=("$pid")
  if ! place "$pid" "$V2/$TOP/$path"; then
    tap_fail "cgroup.procs of $path: the kernel refused the move"
    continue
  fi
  n=$((n + 1))
  fp_process "$pid" "sleep"
  ln -sfn "/proc/$pid/cgroup" "$FP/proc/$pid/cgroup"
  fp_fd "$pid" 3 renderD128 "$(fp_i915 $((1000 + n)) 5000)"
done
tap_is "${#CASES[@]}" "$n" "every runtime's cgroup made and a process moved in"

HY_ID=$(hex64 hybrid)
if [[ $HYBRID == 1 ]]; then
  sleep 600 &
  pid=$!
  PIDS+=("$pid")
  place "$pid" "$V1/$TOP/docker/$HY_ID"
  fp_process "$pid" "sleep"
  ln -sfn "/proc/$pid/cgroup" "$FP/proc/$pid/cgroup"
  fp_fd "$pid" 3 renderD128 "$(fp_i915 2000 5000)"
  tap_check "hybrid: the unified line does not name the container" \
    bash -c '! grep -q "^0::.*$1" "$2" && grep -q "name=systemd:.*$1" "$2"' _ "$HY_ID" "/proc/$pid/cgroup"
fi

out=$("$BIN" --once --window=0 --format=influx --ReportBy=Container \
  --ProcRoot="$FP/proc" --SysfsRoot="$FP/sys" --DebugfsRoot="$FP/debug" \
  --PodLogRoot="$FP/none" --ContainerLogRoot="$FP/none" \
  --DockerRoot="$FP/none" --PodmanRoot="$FP/none" 2>"$FP/err")
tap_is 0 $? "drm_fdinfo --once: exit 0"

for c in "${CASES[@]}"; do
  IFS='|' read -r path rt id name uid <<<"$c"
  if [[ -n $id ]]; then
    where=(--where "container_id=$id")
    want_name=${id:0:12}
  else
    where=(--where "container=$name")
    want_name=$name
  fi
  got=$(lp_get container_runtime --measurement drm_engine "${where[@]}" <<<"$out")
  tap_is "$rt" "$got" "real cgroup $path: container_runtime"
  tap_is "$want_name" "$(lp_get container --measurement drm_engine "${where[@]}" <<<"$out")" \
    "real cgroup $path: container (no names configured: the short id or its own name)"
  tap_is "$uid" "$(lp_get pod_uid --measurement drm_engine "${where[@]}" <<<"$out" 2>/dev/null)" \
    "real cgroup $path: pod_uid"
done
if [[ $HYBRID == 1 ]]; then
  tap_is docker "$(lp_get container_runtime --measurement drm_engine --where "container_id=$HY_ID" <<<"$out")" \
    "hybrid: read from the name=systemd line"
else
  tap_skip "hybrid: read from the name=systemd line" "not a hybrid host (no writable $V1)"
fi
tap_done
