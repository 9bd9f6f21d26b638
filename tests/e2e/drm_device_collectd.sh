#!/usr/bin/env bash
# The real collectd daemon loads build/drm_device.so with the shipped
# conf.d snippet (SysfsRoot pointed at a fixture tree of an xe card, an
# amdgpu APU and an MI300 with gpu_metrics): values under the documented identifiers with exact values,
# energy stored as a DERIVE in microjoules (gpu_energy), a suspended
# device reporting only its runtime PM and memory, a bad block dropped on
# its own. Identities: drm_device-DEVICE/TYPE-[TAG-]FIELD (ddv_collectd_rules).
set -uo pipefail
cd "$(dirname "$0")/../.."
source tests/lib/tap.sh
source tests/lib/collectd.sh
source tests/lib/require.sh
require_collectd "drm_device collectd end to end"
B=${BUILD:-build}
T=$(mktemp -d "${TMPDIR:-/tmp}/ddv-collectd.XXXXXX")
cleanup() {
  collectd_stop
  rm -rf "$T"
  [[ -n ${CD_DIR:-} && -z ${KEEP:-} ]] && rm -rf "$CD_DIR"
}
trap cleanup EXIT
"$B/tests/ddv_tree" "$T" xe_bmg amdgpu_apu amdgpu_mi300
# 1234.567891 J: the float survives as integer microjoules
"$B/tests/ddv_tree" "$T" --write card1 device/hwmon/hwmon2/energy1_input $'1234567891\n'
"$B/tests/ddv_tree" "$T" --runtime card0 suspended 1000 7000

snippet=$(sed -e "s|^#  SysfsRoot \"/sys\"|  SysfsRoot \"$T/sys\"|" \
  conf.d/drm_device.conf)
tap_check "snippet: SysfsRoot substituted" grep -q "SysfsRoot \"$T/sys\"" <<<"$snippet"
snippet=${snippet/<\/Plugin>/  <Instance \"bad\">
    Report \"planets\"
  </Instance>
</Plugin>}
collectd_start "$snippet"

X="$CD_CSV/e2e/drm_device-0000:03:00.0"
A="$CD_CSV/e2e/drm_device-0000:c1:00.0"
M="$CD_CSV/e2e/drm_device-0000:05:00.0"
first() { # glob: the value of the first data row
  local f
  for f in $1; do
    sed -n '2{s/^[^,]*,//;p}' "$f"
    return
  done
}
tap_check "energy: three rows" \
  collectd_wait_rows "$X/gpu_energy-card-energy_joules-*" 3 30
tap_check "amdgpu memory of the suspended APU: a row" \
  collectd_wait_rows "$A/bytes-gtt-used_bytes-*" 1 30
tap_check "gpu_metrics energy: a row" \
  collectd_wait_rows "$M/gpu_energy-gpu_metrics-socket-energy_joules-*" 1 30
collectd_stop

tap_is 1234567891 \
  "$(first "$X/gpu_energy-card-energy_joules-*")" \
  "energy_joules 1234.567891 J stored as 1234567891 µJ"
tap_is 2400000000.000000 \
  "$(first "$X/gpu_hertz-gt0-actual_hz-*")" \
  "gt0 actual frequency in Hz"
tap_is 52.500000 \
  "$(first "$X/gpu_celsius-vram-celsius-*")" \
  "vram temperature in °C"
tap_is 250.000000 \
  "$(first "$X/gpu_watts-card-power_cap_watts-*")" \
  "card power cap in W"
tap_is 1.000000 "$(first "$X/gpu_flag-gt1-reason_thermal-*")" \
  "gt1 thermal throttling flag"
tap_is 1.000000 "$(first "$A/gpu_flag-runtime_suspended-*")" \
  "the APU is suspended"
tap_is 104857600.000000 "$(first "$A/bytes-gtt-used_bytes-*")" \
  "GTT used while suspended (a memory manager count)"
tap_is 1.000000 \
  "$(first "$A/gpu_flag-0x1002-0x1636-0x17aa-0x3801-info-*")" \
  "the APU's info series, its PCI ids in the type_instance"
tap_is 1000000000 "$(first "$M/gpu_energy-gpu_metrics-socket-energy_joules-*")" \
  "gpu_metrics energy: 1000 J (2^-16 J units) stored as µJ"
tap_is 70.000000 "$(first "$M/gpu_celsius-gpu_metrics-hotspot-celsius-*")" \
  "gpu_metrics hotspot temperature in °C"
n=$(find "$A" \( -name '*_hz-*' -o -name 'percent-*' -o -name '*-gfx-*' \) | wc -l)
tap_is 0 "$n" "nothing that would wake the suspended APU is reported"
tap_check "the bad block is dropped with its error" \
  grep -q 'drm_device: config: Report: unknown group "planets"' "$CD_LOG"
tap_check "no read failure logged" \
  bash -c "! grep -q 'read-function of plugin' '$CD_LOG'"
tap_done
