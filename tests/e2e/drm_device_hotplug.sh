#!/usr/bin/env bash
# build/drm_device --execd (one read per line on stdin) while devices come
# and go under its SysfsRoot: a device unbound ends its series at the next
# read, said once at INFO; bound again under another minor it is found
# (within two reads: tests/unit/test_drm_device.c, with its clock), from a
# fresh base (no power_watts across the gap); and
# an empty SysfsRoot, or one that is no sysfs tree, is said once.
set -uo pipefail
cd "$(dirname "$0")/../.."
source tests/lib/tap.sh
B=${BUILD:-build}
BIN=$B/drm_device
TREE=$B/tests/ddv_tree
T=$(mktemp -d "${TMPDIR:-/tmp}/ddv-hotplug.XXXXXX")
trap 'rm -rf "$T"' EXIT

"$TREE" "$T" panfrost xe_bmg
coproc DD { "$BIN" --execd --log-level=info --format=influx --Report=freq \
  --Report=power --SysfsRoot="$T/sys" 2>"$T/err"; }
dd_pid=$DD_PID
# The batches are told apart by the panfrost record (card0, first in
# every batch: the drm_device record with the age of its devfreq cur_freq
# reading): a batch's lines are read up to the next one's first line.
FIRST='drm_device,driver=panfrost,'
echo >&"${DD[1]}"
read -r -t 10 l <&"${DD[0]}"
tap_check "batch 1 starts with panfrost" grep -q "^$FIRST" <<<"$l"
# the rest of the current batch, triggering the next one
next_batch() {
  local line out=
  echo >&"${DD[1]}"
  while read -r -t 10 line <&"${DD[0]}"; do
    [[ $line == "$FIRST"* ]] && break
    out+="$line"$'\n'
  done
  printf '%s' "$out"
}
b1=$(next_batch) # batch 2 runs after this
tap_check "batch 1: the xe device" grep -q 'driver=xe,device=0000:03:00.0' <<<"$b1"

"$TREE" "$T" --unbind card1
b2=$(next_batch) # batch 2 ran before the unbind: xe still there
b3=$(next_batch) # the first read after the unbind
tap_is 0 "$(grep -c 'driver=xe' <<<"$b3")" "unbound: the series ends at the next read"

"$TREE" "$T" --device drm card2 0000:03:00.0 xe
"$TREE" "$T" --write card2 device/hwmon/hwmon2/energy1_input $'9000000\n'
# The next look is on the back-off (1 s after the change) or at the second
# read 1 s after the last look: batches every 0.2 s until it, 10 s at most.
seen= deadline=$((SECONDS + 10))
while ((SECONDS < deadline)); do
  b=$(next_batch)
  if grep -q 'driver=xe' <<<"$b"; then seen=$b; break; fi
  sleep 0.2
done
tap_check "bound again as card2: found" \
  grep -q 'drm_device_power,driver=xe,device=0000:03:00.0,sensor=card energy_joules=9.0' <<<"$seen"
first=$(grep -m1 'drm_device_power,driver=xe,device=0000:03:00.0,sensor=card' <<<"$seen")
tap_check "bound again: a fresh base, no power_watts across the gap ($first)" \
  eval '! grep -q power_watts <<<"$first"'
exec {DD[1]}>&-
wait "$dd_pid"
tap_is 0 $? "execd: exit 0 on EOF"
tap_is 1 "$(grep -c '^I! drm_device: 0000:03:00.0: device: card1 is gone' "$T/err")" \
  "gone: said once"
tap_is 1 "$(grep -c '^I! drm_device: 0000:03:00.0: device: card2 (driver xe)' "$T/err")" \
  "found: said once"
tap_is "" "$(grep -v '^I!' "$T/err")" "nothing but INFO lines on stderr"

# An empty class/drm: one INFO line naming SysfsRoot, exit 0.
mkdir -p "$T/empty/sys/class/drm"
"$BIN" --once --window=0.2 --log-level=info --SysfsRoot="$T/empty/sys" \
  >"$T/out" 2>"$T/err"
tap_is 0 $? "no device: exit 0"
tap_is "" "$(cat "$T/out")" "no device: no records"
tap_is "info: drm_device: $T/empty/sys: SysfsRoot: no DRM device in class/drm (card<N>) or class/accel (accel<N>); looking again every 1 s doubling to 1 min" \
  "$(cat "$T/err")" "no device: said once, naming SysfsRoot"
# A SysfsRoot that is no sysfs tree: said on stderr, naming it.
mkdir -p "$T/notsys"
"$BIN" --once --window=0 --SysfsRoot="$T/notsys" >"$T/out" 2>"$T/err"
tap_is 0 $? "not a sysfs tree: exit 0"
tap_is 1 "$(grep -c "^warning: drm_device: $T/notsys: SysfsRoot: has neither class/drm nor class/accel" "$T/err")" \
  "not a sysfs tree: said once, naming the path"
tap_done
