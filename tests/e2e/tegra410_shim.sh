#!/usr/bin/env bash
# The Tegra410 preset under the kernel emulation (LD_PRELOAD tests/shim):
# the executable and the real collectd daemon read a synthetic sysfs of
# Tegra410 PMUs whose counters the shim runs at known rates, so every
# metric is checked against the kernel documentation's formula applied to
# those rates (within 1e-4: counts are whole numbers).
set -uo pipefail
cd "$(dirname "$0")/../.."
source tests/lib/tap.sh
source tests/lib/collectd.sh
source tests/lib/tegra410_tree.sh
source tests/lib/lineproto.sh
source tests/lib/require.sh
source tests/lib/hotplug.sh
B=${BUILD:-build}
SHIM=$PWD/$B/tests/shim.so
PRELOAD=$SHIM
if [[ ${SANITIZE:-} == 1 ]]; then
  # The executable and the shim are built with ASan/UBSan: their runtimes
  # must come first in the library list, then the shim's interposers
  # (ASan's own interceptors reach the shim's through dlsym(RTLD_NEXT)).
  PRELOAD="$(${CC:-cc} -print-file-name=libasan.so):$(${CC:-cc} -print-file-name=libubsan.so):$SHIM"
fi
T=$(mktemp -d "${TMPDIR:-/tmp}/t410-shim.XXXXXX")
trap 'collectd_stop; rm -rf "$T"; [[ -n ${CD_DIR:-} ]] && rm -rf "$CD_DIR"' EXIT
t410_tree "$T"

# Rates (per second) of the events used below, from the shim's formula.
# PCIE: cycles 2e6, rd_bytes 1e6, wr_bytes 2e6, rd_req 3e6, wr_req 4e6,
# rd_cum_outs 5e6. CMEM: cycles 1e6, rd_req 2e6, rd_cum_outs 3e6.
# C2C: cycles 1e6, in_rd_cum_outs 2e6, in_rd_req 3e6, in_wr_cum_outs 4e6,
# in_wr_req 5e6.
out=$(LD_PRELOAD=$PRELOAD timeout 60 "$B/tegra410_uncore" \
  --once --window=0.3 --SysfsRoot="$T/sys")
tap_is 0 $? "exec: preset on emulated PMUs exits 0"
pcie="pmu=nvidia_pcie_pmu_0_rc_1 socket=0 rc=1"
check() { # "K=V ..." field expected what
  local v
  # shellcheck disable=SC2086 # the tags are words
  v=$(t410_field "$out" "$2" $1)
  tap_check "$4: $2 = $v (expected $3)" t410_close "$v" "$3"
}
check "$pcie" read_bandwidth 1e6 "PCIE"
check "$pcie" write_bandwidth 2e6 "PCIE"
check "$pcie" read_request_rate 1.5 "PCIE"
check "$pcie" write_request_rate 2 "PCIE"
check "$pcie" frequency 2e6 "PCIE"
check "$pcie" read_latency_cycles 1.6666667 "PCIE"
check "$pcie" read_latency_seconds 8.3333333e-7 "PCIE"
cmem="pmu=nvidia_cmem_latency_pmu_0 socket=0"
check "$cmem" read_bandwidth 6.4e7 "CMEM (32-byte requests)"
check "$cmem" read_latency_cycles 1.5 "CMEM"
check "$cmem" read_latency_seconds 1.5e-6 "CMEM"
c2c="pmu=nvidia_nvlink_c2c_pmu_0 socket=0 direction=in"
check "$c2c" read_latency_cycles 0.6666667 "C2C in"
check "$c2c" write_latency_seconds 8e-7 "C2C in"
tap_is 2 "$(lp_count --measurement tegra410 --where pmu=nvidia_nvlink_c2c_pmu_0 <<<"$out")" \
  "C2C with a GPU peer: in and out"

# The PMUs given counters as arm_cspmu has them (general ones plus one
# dedicated cycle counter, SHIM_PERF_COUNTERS): the preset's groups fit at
# once, so every group runs the whole window.
out=$(SHIM_PERF_COUNTERS=4028:5:0x100000000,4040:2:0,4033:8:0 LD_PRELOAD=$PRELOAD \
  timeout 60 "$B/tegra410_uncore" --once --window=0.2 --SysfsRoot="$T/sys")
tap_is "100.0 100.0 100.0 100.0" \
  "$(lp_get running_percent --measurement tegra410 <<<"$out" | paste -sd' ')" \
  "one cycle counter per PMU: every preset group runs the whole window"

# One PMU refused (EACCES): the others keep counting, the message says why.
out=$(SHIM_PERF_EACCES_TYPE=4028 LD_PRELOAD=$PRELOAD timeout 60 \
  "$B/tegra410_uncore" --once --window=0.2 --SysfsRoot="$T/sys" 2>"$T/err")
tap_is 1 "$(lp_count --measurement tegra410 --where pmu=nvidia_cmem_latency_pmu_0 <<<"$out")" \
  "EACCES on PCIE: CMEM still reported"
tap_is 0 "$(lp_count --measurement tegra410 --where pmu=nvidia_pcie_pmu_0_rc_1 <<<"$out")" \
  "EACCES on PCIE: no PCIE record"
tap_check "EACCES on PCIE: message names PMU, event, errno and the knob" grep -q \
  'tegra410_uncore: nvidia_pcie_pmu_0_rc_1/cycles/: perf_event_open: Permission denied; hint: system-wide counting needs kernel.perf_event_paranoid <= 0' "$T/err"

# Hostile kernel files: a cpumask that is not a CPU list puts its PMU out
# (said once, naming the file), the others count; a .unit that is not
# UTF-8 reaches the output sanitised.
mkdir -p "$T/bad" && cp -R "$T/sys" "$T/bad/"
devs=$T/bad/sys/bus/event_source/devices
echo abc >"$devs/nvidia_cmem_latency_pmu_0/cpumask"
printf 'M B\xff\xfe\n' >"$devs/nvidia_pcie_pmu_0_rc_1/events/rd_bytes.unit"
out=$(LD_PRELOAD=$PRELOAD timeout 60 "$B/tegra410_uncore" --once --window=0.2 \
  --SysfsRoot="$T/bad/sys" 2>"$T/err")
tap_is 0 $? "garbage cpumask: exits 0"
tap_is 0 "$(lp_count --where pmu=nvidia_cmem_latency_pmu_0 <<<"$out")" \
  "garbage cpumask: the PMU is not counted"
tap_is 1 "$(lp_count --measurement tegra410 --where pmu=nvidia_pcie_pmu_0_rc_1 <<<"$out")" \
  "garbage cpumask: the other PMUs count"
tap_is 1 "$(grep -c 'nvidia_cmem_latency_pmu_0: cpumask' "$T/err")" \
  "garbage cpumask: said once"
tap_check "garbage cpumask: the message names plugin, PMU, file and why" grep -qF \
  'tegra410_uncore: nvidia_cmem_latency_pmu_0: cpumask: "abc" not a CPU list ("0-3,8"); PMU not counted' "$T/err"
tap_check "hostile .unit: sanitised in the output" grep -qF 'unit=M\ B??' <<<"$out"
tap_check "hostile .unit: the output is valid UTF-8" iconv -f UTF-8 -t UTF-8 -o /dev/null <<<"$out"

# Hot-plug while --interval=1 reads: the CMEM PMU unregistered, registered
# again under another type (a driver reload), renumbered (socket 0 -> 1):
# one INFO line each way, the series of a gone PMU end at once, one that
# comes back counts from a fresh base.
mkdir -p "$T/hp" && cp -R "$T/sys" "$T/hp/"
HPD=$T/hp/sys/bus/event_source/devices
LD_PRELOAD=$PRELOAD timeout 120 "$B/tegra410_uncore" --interval=1 --window=0 \
  --SysfsRoot="$T/hp/sys" --log-level=info >"$T/hp.out" 2>"$T/hp.err" &
hp_pid=$!
C0='^uncore_event,pmu=nvidia_cmem_latency_pmu_0,event=rd_req '
C1='^uncore_event,pmu=nvidia_cmem_latency_pmu_1,event=rd_req '
count_of() { grep -E "$1" "$T/hp.out" | sed -n "$2p" | grep -o 'count=[0-9]*' | cut -d= -f2; }
tap_check "hot-plug: CMEM counted" hp_wait "$T/hp.out" "$C0" 30 3
rm -r "$HPD/nvidia_cmem_latency_pmu_0"
tap_check "hot-plug: CMEM unregistered, said gone" \
  hp_wait "$T/hp.err" 'nvidia_cmem_latency_pmu_0: gone: unregistered; its 1 group\(s\) closed' 20
n1=$(hp_count "$T/hp.out" "$C0")
before=$(count_of "$C0" "$n1")
t410_pmu "$T/hp" nvidia_cmem_latency_pmu_0 4041 event=config:0-1 -- \
  cycles=0x0 rd_req=0x1 rd_cum_outs=0x2
tap_check "hot-plug: CMEM registered again (type 4041), said appeared" \
  hp_wait "$T/hp.err" 'nvidia_cmem_latency_pmu_0: appeared: type 4041' 20
tap_check "hot-plug: CMEM counted again" hp_wait "$T/hp.out" "$C0" 20 $((n1 + 1))
after=$(count_of "$C0" $((n1 + 1)))
tap_check "hot-plug: from a fresh base ($after after the gap, $before before)" \
  test "${after:-x}" -lt "${before:-0}"
mv "$HPD/nvidia_cmem_latency_pmu_0" "$HPD/nvidia_cmem_latency_pmu_1"
tap_check "hot-plug: renumbered: pmu_1 appeared" \
  hp_wait "$T/hp.err" 'nvidia_cmem_latency_pmu_1: appeared: type 4041' 20
tap_check "hot-plug: renumbered: pmu_1 counted, socket 1" \
  hp_wait "$T/hp.out" '^tegra410,pmu=nvidia_cmem_latency_pmu_1,socket=1 ' 20
n2=$(hp_count "$T/hp.out" "$C0")
tap_check "hot-plug: pmu_1 counted once more" hp_wait "$T/hp.out" "$C1" 20 \
  $(($(hp_count "$T/hp.out" "$C1") + 1))
tap_is "$n2" "$(hp_count "$T/hp.out" "$C0")" "hot-plug: no record of pmu_0 once gone"
tap_is 2 "$(hp_count "$T/hp.err" 'nvidia_cmem_latency_pmu_0: gone: ')" \
  "hot-plug: pmu_0 said gone twice"
kill -TERM "$hp_pid"
wait "$hp_pid"
tap_is 0 $? "hot-plug: exit 0 on SIGTERM"
tap_is "" "$(grep -vE '^info: ' "$T/hp.err")" "hot-plug: nothing but info lines"

# The real collectd daemon with the shim preloaded.
if [[ -x $COLLECTD ]]; then
  snippet=$(sed -e 's|Interval 10|Interval 1|' conf.d/tegra410_uncore.conf)
  snippet=${snippet/<Instance \"vera\">/<Instance \"vera\">
    SysfsRoot \"$T/sys\"}
  COLLECTD_PRELOAD=$PWD/$B/tests/shim.so collectd_start "$snippet"
  id="e2e/tegra410_uncore-vera-nvidia_pcie_pmu_0_rc_1"
  tap_check "collectd: PCIE metrics series appears" \
    collectd_wait_for "$CD_CSV/$id/uncore_bytes_per_second-read_bandwidth-*" 30
  # the first interval runs from the open to collectd's first read, which
  # may be microseconds: whole counts over so short a window are off by
  # more than 1e-4, so compare a later interval
  collectd_wait_rows "$CD_CSV/$id/uncore_bytes_per_second-read_bandwidth-*" 2 30
  v=$(collectd_getval "$id/uncore_bytes_per_second-read_bandwidth" | sed -n 's/^value=//p')
  tap_check "collectd: PCIE read bandwidth = $v (expected 1e6)" t410_close "$v" 1e6
  v=$(collectd_getval "$id/uncore_latency_seconds-read_latency_seconds" | sed -n 's/^value=//p')
  tap_check "collectd: PCIE read latency = $v s (expected 8.3333e-7)" t410_close "$v" 8.3333333e-7
  tap_check "collectd stops" collectd_stop
else
  tap_skip "collectd with the shim" "collectd-core is not installed"
fi
tap_done
