#!/usr/bin/env bash
# The long-running path under valgrind: build/drm_fdinfo --execd serving 60
# batches while clients come and go and counters move (full scans, known-fd
# re-reads, debugfs-triggered walks), then EOF. Must be free of memory
# errors and leaks.
set -uo pipefail
cd "$(dirname "$0")/../.."
source tests/lib/tap.sh
source tests/lib/fakeproc.sh
source tests/lib/require.sh
BIN=${BUILD:-build}/drm_fdinfo

require_not_sanitize "valgrind" "the ASan build cannot run under valgrind"
if ! command -v valgrind >/dev/null; then
  tap_fail "valgrind is not installed"
  tap_done
  exit
fi
require_root "valgrind on a synthetic tree" "needs root for mknod"

fp_init
trap fp_fini EXIT
fp_device 226 0 card0 0000:00:02.0 i915
fp_device 226 128 renderD128 0000:00:02.0 i915
# ReportBy Container: a host process, a kubelet pod's container named by
# the log layout, a Docker container named by its state (101 restarts into
# another pod below, its link renamed)
ID1=$(printf 'a%.0s' {1..64}) ID2=$(printf 'b%.0s' {1..64})
UID1=0a1b2c3d-4e5f-4a6b-8c7d-9e0f1a2b3c4d
CG=([100]=/app100.scope [101]=/kubepods/burstable/pod$UID1/$ID1
  [102]=/system.slice/docker-$ID2.scope)
mkdir -p "$FP/pods/ml_trainer-0_$UID1/cuda" "$FP/ctrs" "$FP/docker/containers/$ID2"
ln -s /dev/null "$FP/ctrs/trainer-0_ml_cuda-$ID1.log"
printf '{"Name":"/web"}' >"$FP/docker/containers/$ID2/config.v2.json"
for pid in 100 101 102; do
  fp_process $pid "app$pid" "${CG[$pid]}"
  fp_fd $pid 3 renderD128 "$(fp_i915 $pid 0)"
done
header='             command   pid dev master a   uid      magic'

coproc VG {
  valgrind --quiet --error-exitcode=99 --leak-check=full \
    --errors-for-leak-kinds=definite,indirect --log-file="$FP/valgrind.log" \
    "$BIN" --execd --format=json --ReportBy=Device --ReportBy=Process \
    --ReportBy=Client --ReportBy=Cgroup --ReportBy=Container --FullScanInterval=0.5 \
    --ProcRoot="$FP/proc" --SysfsRoot="$FP/sys" --DebugfsRoot="$FP/debug" \
    --PodLogRoot="$FP/pods" --ContainerLogRoot="$FP/ctrs" \
    --DockerRoot="$FP/docker" --PodmanRoot="$FP/pods" \
    2>"$FP/stderr"
}
batches=0
for i in $(seq 1 60); do
  # churn: clients advance, one process restarts with a new client id,
  # another opens and closes a second fd, the debugfs list changes
  fp_fdinfo 100 3 "$(fp_i915 100 $((i * 1000000)))"
  if ((i % 7 == 0)); then
    rm -rf "$FP/proc/101"
    fp_process 101 "app101-$i" "/kubepods/pod$UID1/$(printf '%064x' "$i")"
    fp_fd 101 3 renderD128 "$(fp_i915 $((1000 + i)) 0)"
    mv "$FP/ctrs/"*.log "$FP/ctrs/trainer-0_ml_cuda-$(printf '%064x' "$i").log"
  fi
  if ((i % 5 == 0)); then
    fp_fd 102 4 card0 "$(fp_i915 $((2000 + i)) 0)"
  else
    rm -f "$FP/proc/102/fd/4" "$FP/proc/102/fdinfo/4"
  fi
  mkdir -p "$FP/debug/dri/128"
  printf '%s\n%20s %5d %3d   n    y     0          0\n' "$header" app 10$((i % 3)) 128 \
    >"$FP/debug/dri/128/clients"
  echo >&"${VG[1]}"
  while IFS= read -r -t 60 line <&"${VG[0]}"; do
    [[ $line == *'"name":"drm_scan"'* ]] && batches=$((batches + 1)) && break
  done
done
exec {VG[1]}>&-
wait "$VG_PID"
rc=$?
tap_is 60 "$batches" "60 batches served under valgrind"
tap_is 0 "$rc" "valgrind: no memory errors, no leaks (exit status)"
if [[ $rc -ne 0 ]]; then
  sed 's/^/# /' "$FP/valgrind.log" | head -40
fi
tap_done
