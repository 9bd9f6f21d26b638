#!/usr/bin/env bash
# build/drm_device (the Telegraf exec/execd executable) on fixture trees:
# Influx and JSON with exact records, the table, execd with a counter that
# moves between batches, filters, exit statuses, the real /sys, and every
# fixture's Prometheus exposition through promtool check metrics.
set -uo pipefail
cd "$(dirname "$0")/../.."
source tests/lib/tap.sh
source tests/lib/lineproto.sh
B=${BUILD:-build}
BIN=$B/drm_device
T=$(mktemp -d "${TMPDIR:-/tmp}/ddv-exec.XXXXXX")
trap 'rm -rf "$T"' EXIT

# The real /sys: whatever it holds, exit 0 and nothing but records.
"$BIN" --once --window=0 --format=influx >"$T/real" 2>"$T/err"
tap_is 0 $? "real /sys: exit status"
tap_is "" "$(grep -v '^drm_device' "$T/real")" "real /sys: only drm_device records"

"$BIN" --once --window=0 --Report=planets >/dev/null 2>"$T/err"
tap_is 2 $? "unknown Report group: exit 2"
tap_check "unknown Report group: said" grep -q 'drm_device: config: Report: unknown group "planets"' "$T/err"
"$BIN" --once --window=0 --Bogus=1 >/dev/null 2>&1
tap_is 2 $? "unknown key: exit 2"

"$B/tests/ddv_tree" "$T" xe_bmg panfrost
R=(--SysfsRoot="$T/sys")
out=$("$BIN" --once --window=0 --format=influx "${R[@]}" 2>"$T/err")
tap_is 0 $? "influx: exit status"
tap_is "" "$(cat "$T/err")" "influx: nothing on stderr"
u=$(lp_untime <<<"$out")
tap_check "influx: xe gt1 frequencies" grep -qxF \
  'drm_device_freq,driver=xe,device=0000:03:00.0,domain=gt1 actual_hz=1200000000i,requested_hz=2000000000i,min_hz=400000000i,max_hz=2850000000i,rp0_hz=2850000000i,rpe_hz=1900000000i,rpn_hz=400000000i T' <<<"$u"
tap_check "influx: xe pkg temperature" grep -qxF \
  'drm_device_temperature,driver=xe,device=0000:03:00.0,sensor=pkg celsius=45.0 T' <<<"$u"
tap_check "influx: panfrost devfreq" grep -qxF \
  'drm_device_freq,driver=panfrost,device=fde60000.gpu,domain=devfreq actual_hz=400000000i,min_hz=200000000i,max_hz=800000000i T' <<<"$u"
tap_is 1 "$(lp_get runtime_suspended --measurement drm_device --where driver=xe <<<"$out" | wc -l)" \
  "influx: one runtime record for xe"

out=$("$BIN" --once --window=0 --format=json --Driver=panfrost "${R[@]}" 2>/dev/null)
line=$(sed 's/"time":[0-9]*/"time":T/; s/^\[//; s/[],]$//' <<<"$out" | grep drm_device_freq)
tap_is '{"name":"drm_device_freq","time":T,"driver":"panfrost","device":"fde60000.gpu","domain":"devfreq","actual_hz":400000000,"min_hz":200000000,"max_hz":800000000}' \
  "$line" "json: the panfrost devfreq record"
tap_is 0 "$(grep -c '"driver":"xe"' <<<"$out")" "json: Driver filter leaves xe out"

out=$("$BIN" --once --window=0 --format=table "${R[@]}" 2>/dev/null)
tap_check "table: names the xe device" grep -q '0000:03:00.0' <<<"$out"

# execd: the card's energy moves by 3 J between two batches
coproc DD { "$BIN" --execd --format=influx --Report=power "${R[@]}" 2>"$T/execd.err"; }
dd_pid=$DD_PID # bash unsets DD_PID once the coprocess has ended
# a batch: the xe device's values_age_seconds record, card and pkg
echo >&"${DD[1]}"
for _ in 1 2 3; do read -r -t 10 l <&"${DD[0]}"; done
"$B/tests/ddv_tree" "$T" --write card1 device/hwmon/hwmon2/energy1_input $'8000000\n'
echo >&"${DD[1]}"
batch=
for _ in 1 2 3; do
  read -r -t 10 l <&"${DD[0]}" && batch+="$l"$'\n'
done
exec {DD[1]}>&-
wait "$dd_pid"
tap_is 0 $? "execd: exit 0 on EOF"
tap_is 8.0 "$(lp_get energy_joules --measurement drm_device_power --where sensor=card <<<"$batch")" \
  "execd: energy_joules after the move"
w=$(lp_get power_watts --measurement drm_device_power --where sensor=card <<<"$batch")
tap_check "execd: power_watts is positive ($w)" python3 -c "import sys; sys.exit(not float('$w') > 0)"
# Prometheus: every fixture device, over an interval (so the rate fields
# too), is an exposition promtool takes without a lint, with each name's
# HELP and TYPE once and no series twice.
if command -v promtool >/dev/null; then
  for fx in i915_igpu i915_mtl i915_dgpu xe_bmg amdgpu_dgpu amdgpu_apu amdgpu_mi300 \
    amdgpu_strix amdgpu_mi355 panfrost ivpu; do
    mkdir -p "$T/prom-$fx"
    "$B/tests/ddv_tree" "$T/prom-$fx" "$fx"
    "$BIN" --once --window=0.2 --format=prometheus --SysfsRoot="$T/prom-$fx/sys" \
      >"$T/$fx.prom" 2>"$T/$fx.err"
    tap_is 0 $? "$fx prometheus: exit status"
    tap_is "" "$(cat "$T/$fx.err")" "$fx prometheus: nothing on stderr"
    tap_check "$fx prometheus: samples" grep -q '^drm_device' "$T/$fx.prom"
    out=$(promtool check metrics <"$T/$fx.prom" 2>&1)
    tap_is "0:" "$?:$out" "$fx prometheus: promtool check metrics: clean, no lint"
    tap_is "" "$(python3 tests/lib/prom_expo.py check "$T/$fx.prom")" \
      "$fx prometheus: HELP and TYPE once per name, no series twice"
  done
  # the info series (node_drm_card_info's shape) and gpu_metrics by name
  tap_check "amdgpu_dgpu prometheus: drm_device_info with its ids" grep -qxF \
    'drm_device_info{driver="amdgpu",device="0000:0b:00.0",pci_vendor="0x1002",pci_device="0x73bf",pci_subsystem_vendor="0x1002",pci_subsystem_device="0x0e3a",vram_vendor="samsung",unique_id="5c2d4e1f0a3b6978"} 1' \
    "$T/amdgpu_dgpu.prom"
  tap_check "amdgpu_mi300 prometheus: gpu_metrics energy counter" grep -qxF \
    'drm_device_gpu_metrics_energy_joules_total{driver="amdgpu",device="0000:05:00.0",sensor="socket"} 1000.0' \
    "$T/amdgpu_mi300.prom"
  tap_check "amdgpu_strix prometheus: gpu_metrics busy ratio" grep -qxF \
    'drm_device_gpu_metrics_busy_ratio{driver="amdgpu",device="0000:c5:00.0",sensor="gfx"} 0.42' \
    "$T/amdgpu_strix.prom"
  tap_check "amdgpu_mi355 prometheus: gpu_metrics v1.9 socket power" grep -qxF \
    'drm_device_gpu_metrics_current_power_watts{driver="amdgpu",device="0000:75:00.0",sensor="socket"} 550.0' \
    "$T/amdgpu_mi355.prom"
  tap_check "ivpu prometheus: the NPU's busy time" grep -qxF \
    'drm_device_busy_time_seconds_total{driver="intel_vpu",device="0000:00:0b.0",unit="npu"} 1.5' \
    "$T/ivpu.prom"
else
  tap_skip "prometheus: promtool check metrics of every fixture" "promtool not installed"
fi
# gpu_metrics and the info record in Influx and JSON
mkdir -p "$T/gm"
"$B/tests/ddv_tree" "$T/gm" amdgpu_dgpu
u=$("$BIN" --once --window=0 --format=influx --SysfsRoot="$T/gm/sys" 2>"$T/gm.err" | lp_untime)
tap_is "" "$(cat "$T/gm.err")" "gpu_metrics influx: nothing on stderr"
tap_check "gpu_metrics influx: the gfxclk record" grep -qxF \
  'drm_device_gpu_metrics,driver=amdgpu,device=0000:0b:00.0,sensor=gfxclk average_hz=1800000000i,actual_hz=1900000000i T' <<<"$u"
tap_check "gpu_metrics influx: the info record" grep -qxF \
  'drm_device,driver=amdgpu,device=0000:0b:00.0,pci_vendor=0x1002,pci_device=0x73bf,pci_subsystem_vendor=0x1002,pci_subsystem_device=0x0e3a,vram_vendor=samsung,unique_id=5c2d4e1f0a3b6978 info=1i T' <<<"$u"
out=$("$BIN" --once --window=0 --format=json --SysfsRoot="$T/gm/sys" 2>/dev/null)
line=$(sed 's/"time":[0-9]*/"time":T/; s/^\[//; s/[],]$//' <<<"$out" | grep '"sensor":"hotspot"')
tap_is '{"name":"drm_device_gpu_metrics","time":T,"driver":"amdgpu","device":"0000:0b:00.0","sensor":"hotspot","celsius":60.0}' \
  "$line" "gpu_metrics json: the hotspot record"
tap_done
