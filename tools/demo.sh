#!/usr/bin/env bash
# make demo: a simulated machine (synthetic /proc and /sys with clients of
# five drivers whose counters advance), watched by the real collectd daemon
# loading build/drm_fdinfo.so from the shipped conf.d snippet, then the
# exec host's table view of the same machine.
set -uo pipefail
cd "$(dirname "$0")/.."
source tests/lib/fakeproc.sh
source tests/lib/collectd.sh
BUILD=${BUILD:-build}
SECONDS_TO_RUN=${DEMO_SECONDS:-20}

if [[ $(id -u) -ne 0 ]]; then
  echo "demo: the simulated machine needs real DRM device nodes (mknod)," >&2
  echo "demo: which only root can make: sudo make demo" >&2
  exit 1
fi

gen_pid=
cleanup() {
  [[ -n $gen_pid ]] && kill "$gen_pid" 2>/dev/null && wait "$gen_pid" 2>/dev/null
  collectd_stop || true
  fp_fini
  [[ -n ${CD_DIR:-} ]] && rm -rf "$CD_DIR"
}
trap cleanup EXIT INT TERM

fp_init
fp_device 226 0 card0 0000:00:02.0 i915
fp_device 226 128 renderD128 0000:00:02.0 i915
fp_device 226 129 renderD129 0000:03:00.0 xe
fp_device 226 130 renderD130 0000:08:00.0 amdgpu
fp_device 226 131 renderD131 fde60000.gpu panfrost
fp_device 261 0 accel0 0000:c5:00.1 amdxdna
fp_process 1001 gnome-shell /user.slice/user-1000.slice/session-2.scope
fp_process 1002 blender /user.slice/user-1000.slice/app-blender.scope
fp_process 1003 firefox /user.slice/user-1000.slice/app-firefox.scope
fp_process 1004 glmark2 /system.slice/glmark.service
fp_process 1005 llama-server /kubepods/pod42/ctr-llama
fp_process 1006 gnome-terminal /user.slice/user-1000.slice/session-2.scope

# Every client's counters, advanced each 0.5 s tick by a load that drifts
# (a triangle wave), so utilisation moves; counters only ever grow, as the
# kernel's do. Each fdinfo file is rewritten atomically.
render=0 copy=0 video=0 rcs=0 ccs=0 xe_ts=0 gfx=0 dec=0 frag=0 vt=0 npu=0
write_tick() {
  local t=$1 half=500000000
  local wave=$(((t % 20) < 10 ? (t % 20) : 20 - (t % 20))) # 0..10
  render=$((render + half * (20 + wave * 7) / 100))
  copy=$((copy + half / 50))
  video=$((video + half * 2 * (30 + wave * 3) / 100)) # capacity 2
  xe_ts=$((xe_ts + 9600000))                         # 19.2 MHz timestamp
  rcs=$((rcs + 9600000 * (90 - wave * 4) / 100))
  ccs=$((ccs + 4 * 9600000 * (10 + wave * 6) / 100)) # capacity 4
  ((t > 8)) && gfx=$((gfx + half * (30 + wave * 5) / 100))
  ((t > 14)) && dec=$((dec + half / 8))
  frag=$((frag + 400000000 * (20 + wave * 6) / 100)) # 800 MHz max
  vt=$((vt + 400000000 / 10))
  npu=$((npu + half * 85 / 100))
  fp_fdinfo 1001 5 "$(printf 'drm-driver:\ti915\ndrm-pdev:\t0000:00:02.0\ndrm-client-id:\t11\ndrm-engine-render:\t%d ns\ndrm-engine-copy:\t%d ns\ndrm-engine-video:\t%d ns\ndrm-engine-capacity-video:\t2\ndrm-total-system0:\t96 MiB\ndrm-resident-system0:\t81920 KiB\n' \
    $render $copy $video)"
  fp_fdinfo 1002 7 "$(printf 'drm-driver:\txe\ndrm-client-id:\t12\ndrm-pdev:\t0000:03:00.0\ndrm-cycles-rcs:\t%d\ndrm-total-cycles-rcs:\t%d\ndrm-cycles-ccs:\t%d\ndrm-total-cycles-ccs:\t%d\ndrm-engine-capacity-ccs:\t4\ndrm-total-vram0:\t2 GiB\ndrm-resident-vram0:\t1536 MiB\ndrm-total-gtt:\t64 MiB\n' \
    $rcs $xe_ts $ccs $xe_ts)"
  local lazy=""
  ((gfx > 0)) && lazy+=$(printf 'drm-engine-gfx:\t%d ns\n' $gfx)
  ((dec > 0)) && lazy+=$(printf '\ndrm-engine-dec:\t%d ns' $dec)
  fp_fdinfo 1003 9 "$(printf 'pasid:\t32784\ndrm-driver:\tamdgpu\ndrm-pdev:\t0000:08:00.0\ndrm-client-id:\t13\ndrm-memory-vram: \t%d KiB\ndrm-memory-gtt: \t8192 KiB\n%s\n' $((2068 + t * 64)) "$lazy")"
  fp_fdinfo 1004 4 "$(printf 'drm-driver:\tpanfrost\ndrm-client-id:\t14\ndrm-cycles-fragment:\t%d\ndrm-maxfreq-fragment:\t800 MHz\ndrm-cycles-vertex-tiler:\t%d\ndrm-maxfreq-vertex-tiler:\t800 MHz\ndrm-total-memory:\t290 MiB\ndrm-resident-memory:\t36496 KiB\n' \
    $frag $vt)"
  fp_fdinfo 1005 3 "$(printf 'drm-driver:\tamdxdna_accel_driver\ndrm-client-id:\t15\ndrm-engine-npu-amdxdna:\t%d ns\ndrm-total-memory:\t512 MiB\n' $npu)"
  # the terminal inherited gnome-shell's fd: the same client, counted once
  cp "$FP/proc/1001/fdinfo/5" "$FP/proc/1006/fdinfo/.5.tmp"
  mv -f "$FP/proc/1006/fdinfo/.5.tmp" "$FP/proc/1006/fdinfo/5"
}
write_tick 0
ln -sfn "$FP/dev/renderD128" "$FP/proc/1001/fd/5"
ln -sfn "$FP/dev/renderD128" "$FP/proc/1006/fd/5"
ln -sfn "$FP/dev/renderD129" "$FP/proc/1002/fd/7"
ln -sfn "$FP/dev/renderD130" "$FP/proc/1003/fd/9"
ln -sfn "$FP/dev/renderD131" "$FP/proc/1004/fd/4"
ln -sfn "$FP/dev/accel0" "$FP/proc/1005/fd/3"
(
  t=1
  while true; do
    sleep 0.5
    write_tick $t
    t=$((t + 1))
  done
) &
gen_pid=$!

snippet=$(sed -e "s|#ProcRoot \"/host/proc\"|ProcRoot \"$FP/proc\"|" \
  -e "s|#SysfsRoot \"/host/sys\"|SysfsRoot \"$FP/sys\"|" \
  -e "s|#DebugfsRoot \"/host/sys/kernel/debug\"|DebugfsRoot \"$FP/debug\"|" \
  -e "s|#ReportBy Cgroup|ReportBy Cgroup|" \
  -e "s|Interval 10|Interval 1|" conf.d/drm_fdinfo.conf)
echo "demo: simulated machine under $FP; starting collectd with conf.d/drm_fdinfo.conf"
collectd_start "$snippet"
collectd_wait_for "$CD_CSV/e2e/drm_fdinfo-*/percent-*" 20 || {
  echo "demo: collectd produced no values; its log:" >&2
  cat "$CD_LOG" >&2
  exit 1
}

show() { # identifier label
  local v
  v=$(collectd_getval "$1" 2>/dev/null | sed -n 's/^value=//p') || true
  [[ -n $v ]] && printf '  %-52s %8.2f\n' "$2" "$v"
  return 0
}
end=$((SECONDS + SECONDS_TO_RUN))
while ((SECONDS < end)); do
  clear 2>/dev/null || true
  echo "collectd (real daemon) reading build/drm_fdinfo.so - $(date +%T)"
  echo "utilisation %, from collectd's value cache (unixsock GETVAL):"
  base=e2e/drm_fdinfo
  show "$base-device-i915-0000:00:02.0-render/percent-drm_engine_utilization" "i915 0000:00:02.0 render"
  show "$base-device-i915-0000:00:02.0-video/percent-drm_engine_utilization" "i915 0000:00:02.0 video (capacity 2)"
  show "$base-device-xe-0000:03:00.0-rcs/percent-drm_engine_utilization" "xe 0000:03:00.0 rcs (cycles)"
  show "$base-device-xe-0000:03:00.0-ccs/percent-drm_engine_utilization" "xe 0000:03:00.0 ccs (capacity 4)"
  show "$base-device-amdgpu-0000:08:00.0-gfx/percent-drm_engine_utilization" "amdgpu 0000:08:00.0 gfx (appears later)"
  show "$base-device-panfrost-fde60000.gpu-fragment/percent-drm_engine_utilization" "panfrost fde60000.gpu fragment (cycles/maxfreq)"
  show "$base-device-amdxdna_accel_driver-0000:c5:00.1-npu-amdxdna/percent-drm_engine_utilization" "amdxdna NPU (accel)"
  show "$base-process-i915-0000:00:02.0-1001-gnome-shell-render/percent-drm_engine_utilization" "  process gnome-shell (fd shared with its child)"
  echo "memory, bytes:"
  show "$base-device-xe-0000:03:00.0-vram0/bytes-drm_memory_resident_bytes" "xe vram0 resident"
  show "$base-device-amdgpu-0000:08:00.0-vram/bytes-drm_memory_resident_bytes" "amdgpu vram resident (legacy key)"
  echo "clients per device:"
  show "$base-i915-0000:00:02.0/count-drm_device_clients" "i915 clients (2 processes, 1 client)"
  echo "($((end - SECONDS)) s left; collectd log: $CD_LOG)"
  sleep 1
done

echo
echo "The same machine through the Telegraf executable:"
echo "  $BUILD/drm_fdinfo --format=table --window=1 --ReportBy=Device --ReportBy=Process --ProcRoot=... --SysfsRoot=..."
echo
"$BUILD/drm_fdinfo" --format=table --window=1 --ReportBy=Device \
  --ReportBy=Process --ProcRoot="$FP/proc" --SysfsRoot="$FP/sys" \
  --DebugfsRoot="$FP/debug"
