#!/usr/bin/env bash
# Devices come and go under build/i915_oa --execd (auto-discovery) against
# the shim's i915 devices (LD_PRELOAD tests/shim.so): a node added is read
# at the next batch, one removed ends its series at the next batch, one
# added back starts from a fresh base, one whose minor changes is the old
# gone and the new appeared; each said once at INFO. A DevRoot or
# SysfsRoot holding nothing the plugin looks for is said once, naming it.
# Each batch is read with a deadline: 2 lines (i915_oa, i915_oa_stream)
# per device held.
set -uo pipefail
cd "$(dirname "$0")/../.."
source tests/lib/tap.sh
source tests/lib/lineproto.sh
source tests/lib/i915_tree.sh
B=${BUILD:-build}
BIN=$B/i915_oa
PRELOAD=$PWD/$B/tests/shim.so
if [[ ${SANITIZE:-} == 1 ]]; then
  PRELOAD="$(${CC:-cc} -print-file-name=libasan.so):$(${CC:-cc} -print-file-name=libubsan.so):$PRELOAD"
fi
T=$(mktemp -d "${TMPDIR:-/tmp}/i915-hotplug.XXXXXX")
PID=
trap '[[ -n $PID ]] && kill "$PID" 2>/dev/null; [[ -z ${KEEP:-} ]] && rm -rf "$T"' EXIT
A=0000:00:02.0 Bd=0000:03:00.0 C=0000:04:00.0
i915_tree "$T" $A $Bd $C
D=$T/dev/dri
rm "$D/renderD129" "$D/renderD130" # the shim knows all three paths
export SHIM_I915_SCENARIO=$(i915_scenario "$T")

coproc OA { LD_PRELOAD=$PRELOAD timeout 120 "$BIN" --DevRoot="$D" \
  --SysfsRoot="$T/sys" --MetricSet=1 --execd --format=influx \
  --log-level=info 2>"$T/hp.err"; }
PID=$OA_PID
batch() { # lines expected: a batch of that many lines, or "timeout"
  local n=$1 line out=
  printf '\n' >&"${OA[1]}"
  for ((k = 0; k < n; k++)); do
    IFS= read -r -t 20 line <&"${OA[0]}" || { echo timeout; return; }
    out+=$line$'\n'
  done
  printf '%s' "$out"
}
devices() { # the device tags of i915_oa records, sorted
  lp_get device --measurement i915_oa | sort | tr '\n' ' '
}
reports() { # device: its reports in this batch
  lp_get reports --measurement i915_oa_stream --where device=$1
}

out=$(batch 2)
tap_is "$A " "$(devices <<<"$out")" "one device at start"
: >"$D/renderD129"
out=$(batch 4)
tap_is "$A $Bd " "$(devices <<<"$out")" "a node added: read at the next batch"
tap_check "... said at INFO" grep -q "^I! i915_oa: $Bd: devices: $D/renderD129 appeared" "$T/hp.err"
new=$(reports $Bd <<<"$out") # a device's first batch: one drain
rm "$D/renderD128"
out=$(batch 2)
tap_is "$Bd " "$(devices <<<"$out")" "a node removed: its series end at the next batch"
tap_check "... said at INFO" grep -q "^I! i915_oa: $A: devices: $D/renderD128 is gone" "$T/hp.err"
: >"$D/renderD128"
out=$(batch 4)
tap_is "$A $Bd " "$(devices <<<"$out")" "added back: read again"
tap_is "$new" "$(reports $A <<<"$out")" "... from a fresh base (reports: one drain's, $new)"
# B's minor changes: renderD129 goes, renderD130 (C's path in the shim)
# now leads to B's PCI device
rm "$D/renderD129" "$T/sys/class/drm/renderD130"
mkdir -p "$T/sys/devices/pci0000:00/$Bd/drm/renderD130"
ln -s "../../../$Bd" "$T/sys/devices/pci0000:00/$Bd/drm/renderD130/device"
ln -s "../../devices/pci0000:00/$Bd/drm/renderD130" "$T/sys/class/drm/renderD130"
: >"$D/renderD130"
out=$(batch 4)
tap_is "$A $Bd " "$(devices <<<"$out")" "a minor renamed: the device read on"
tap_check "... the old node gone" grep -q "$Bd: devices: $D/renderD129 is gone" "$T/hp.err"
tap_check "... the new one appeared" grep -q "$Bd: devices: $D/renderD130 appeared" "$T/hp.err"
tap_is "$new" "$(reports $Bd <<<"$out")" "... from a fresh base"
exec {OA[1]}>&-
wait "$PID"
tap_is 0 $? "exit 0 at EOF"
PID=
tap_is 1 "$(grep -c "renderD128 is gone" "$T/hp.err")" "each change said once"

# Roots that hold nothing: said once, naming the path
mkdir -p "$T/empty"
LD_PRELOAD=$PRELOAD timeout 60 "$BIN" --DevRoot="$T/empty" --SysfsRoot="$T/sys" \
  --once --window=0 >"$T/out" 2>"$T/err"
tap_is 0 $? "an empty DevRoot: exit 0"
tap_check "an empty DevRoot: said, naming it" grep -q "warning: i915_oa: $T/empty: devices: no i915 or xe render node" "$T/err"
LD_PRELOAD=$PRELOAD timeout 60 "$BIN" --DevRoot="$D" --SysfsRoot="$T/empty" \
  --MetricSet=1 --once --window=0 >"$T/out" 2>"$T/err"
tap_check "an empty SysfsRoot: said, naming it" grep -q "warning: i915_oa: $T/empty: SysfsRoot: holds no class/drm" "$T/err"
tap_done
