#!/usr/bin/env bash
# ReportBy Container with real containers run by Debian's podman: two
# containers (a root filesystem of /bin/sleep and its libraries, no image
# from a registry) whose real /proc/<pid>/cgroup the plugin reads (the
# synthetic /proc that gives them DRM clients links each `cgroup` file to
# the kernel's), reported by container with podman's ids, and with the
# names podman's own store (PodmanRoot, containers.json) holds. Where
# podman cannot run a container here, the test says why and skips.
set -uo pipefail
cd "$(dirname "$0")/../.."
source tests/lib/tap.sh
source tests/lib/fakeproc.sh
source tests/lib/lineproto.sh
source tests/lib/require.sh
BIN=${BUILD:-build}/drm_fdinfo

require_root "podman containers" "rootful podman and mknod need root"
require_cmd "podman containers" podman
PODMAN_ROOT=$(podman info --format '{{.Store.GraphRoot}}' 2>/dev/null)
[[ -n $PODMAN_ROOT ]] || require_skip "podman containers" "podman info fails here"

NAMES=(gpu-e2e-$$-a gpu-e2e-$$-b)
RFS=$(mktemp -d "${TMPDIR:-/tmp}/podman-rootfs.XXXXXX")
cleanup() {
  podman rm -f -t 0 "${NAMES[@]}" >/dev/null 2>&1
  rm -rf "$RFS"
  fp_fini
}
trap cleanup EXIT
fp_init
mkdir -p "$FP/none" # the name sources left empty

# The root filesystem: sleep and the libraries ld.so loads for it.
mkdir -p "$RFS/bin" "$RFS/proc" "$RFS/dev" "$RFS/sys" "$RFS/etc"
cp /bin/sleep "$RFS/bin/"
for lib in $(ldd /bin/sleep | grep -o '/[^ ]*'); do cp --parents "$lib" "$RFS/"; done

# Options tried in turn: podman's defaults; rlimits no higher than ours (a
# sandbox without CAP_SYS_RESOURCE cannot raise them); runc (crun refuses
# hybrid cgroup hosts).
H=$(ulimit -Hn)
LIMITS=(--ulimit "nofile=$H:$H" --ulimit nproc=1024:1024)
TRIES=("" "${LIMITS[*]}" "--runtime runc ${LIMITS[*]}")
opts=""
why=""
for t in "${TRIES[@]}"; do
  # shellcheck disable=SC2086 # the options are words
  if err=$(timeout 60 podman run -d --name "${NAMES[0]}" $t --rootfs "$RFS" /bin/sleep 600 2>&1 >/dev/null); then
    opts=$t
    why=""
    break
  fi
  why=$(tail -n 1 <<<"$err")
  podman rm -f -t 0 "${NAMES[0]}" >/dev/null 2>&1
done
[[ -z $why ]] || require_skip "podman containers" "podman cannot run a container here: $why"
# shellcheck disable=SC2086
timeout 60 podman run -d --name "${NAMES[1]}" $opts --rootfs "$RFS" /bin/sleep 600 >/dev/null
tap_is 0 $? "podman run: a second container"

fp_device 226 128 renderD128 0000:00:02.0 i915
IDS=()
n=0
for name in "${NAMES[@]}"; do
  id=$(podman inspect --format '{{.Id}}' "$name")
  pid=$(podman inspect --format '{{.State.Pid}}' "$name")
  IDS+=("$id")
  n=$((n + 1))
  fp_process "$pid" sleep
  ln -sfn "/proc/$pid/cgroup" "$FP/proc/$pid/cgroup"
  fp_fd "$pid" 3 renderD128 "$(fp_i915 $((300 + n)) 5000)"
  tap_check "$name: the kernel's cgroup file names libpod-<id>" \
    grep -q "libpod-$id" "/proc/$pid/cgroup"
done

out=$("$BIN" --once --window=0 --format=influx --ReportBy=Container \
  --ProcRoot="$FP/proc" --SysfsRoot="$FP/sys" --DebugfsRoot="$FP/debug" \
  --PodLogRoot="$FP/none" --ContainerLogRoot="$FP/none" \
  --DockerRoot="$FP/none" --PodmanRoot="$PODMAN_ROOT" 2>"$FP/err")
tap_is 0 $? "drm_fdinfo --once: exit 0"
for i in 0 1; do
  w=(--measurement drm_engine --where "container_id=${IDS[$i]}")
  tap_is podman "$(lp_get container_runtime "${w[@]}" <<<"$out")" \
    "${NAMES[$i]}: container_runtime podman, by its id"
  tap_is "${NAMES[$i]}" "$(lp_get container "${w[@]}" <<<"$out")" \
    "${NAMES[$i]}: its name from podman's containers.json"
done
tap_is 2 "$(lp_count --measurement drm_engine --where container_runtime=podman <<<"$out")" \
  "two podman series, one per container"
tap_done
