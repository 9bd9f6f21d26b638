#!/usr/bin/env bash
# build/drm_device on kernel-shaped trees whose devices autosuspend
# (power/control "auto", each driver's own autosuspend_delay_ms): --once
# prints every value the device has, as with control "on" (the rates too
# where the second read comes before the delay runs out, which it does
# with amdgpu's 5 s and i915's 10 s, and with xe's 1 s at --window=0.5),
# with values_age_seconds; and a run of reads at an interval shorter than
# the hold carries the same series in every batch, held between readings.
set -uo pipefail
cd "$(dirname "$0")/../.."
source tests/lib/tap.sh
B=${BUILD:-build}
BIN=$B/drm_device
TREE=$B/tests/ddv_tree
T=$(mktemp -d "${TMPDIR:-/tmp}/ddv-hold.XXXXXX")
pid=
trap '[[ -n $pid ]] && kill "$pid" 2>/dev/null; rm -rf "$T"' EXIT

# The fields of a --once JSON output, one "record tags field=value" per line
# (values_age_seconds apart), parsed by python3's json.
fields() {
  python3 -c '
import json, sys
for r in json.load(open(sys.argv[1])):
    tags = ",".join(f"{k}={v}" for k, v in r.items()
                    if isinstance(v, str) and k != "name")
    name = r["name"]
    for k, v in r.items():
        if k not in ("name", "time") and not isinstance(v, str):
            print(f"{name} {tags} {k}={v}")
' "$1" | sort
}
# Without the rates: idle_percent, power_watts of an energy counter's record,
# the NPU busy percent beside time_ns.
no_rates() { grep -v -e ' idle_percent=' -e 'sensor=card power_watts=' \
  -e 'sensor=pkg power_watts=' -e 'sensor=gt0 power_watts=' -e ' values_age_seconds='; }

# fixture node delay_ms (xe_pm.c xe_pm_runtime_init: 1 s; amdgpu 5 s;
# i915 intel_runtime_pm_enable: 10 s)
while read -r fx node delay full; do
  mkdir -p "$T/$fx-on" "$T/$fx-auto"
  "$TREE" "$T/$fx-on" "$fx"
  "$TREE" "$T/$fx-auto" "$fx"
  "$TREE" "$T/$fx-auto" --autosuspend "$node" auto "$delay"
  "$BIN" --once --format=json --SysfsRoot="$T/$fx-on/sys" >"$T/$fx-on.json" 2>"$T/$fx.err"
  tap_is 0 $? "$fx on: exit status"
  "$BIN" --once --format=json --SysfsRoot="$T/$fx-auto/sys" >"$T/$fx-auto.json" 2>>"$T/$fx.err"
  tap_is 0 $? "$fx auto ($delay ms): exit status"
  tap_is "" "$(cat "$T/$fx.err")" "$fx: nothing on stderr"
  fields "$T/$fx-on.json" >"$T/$fx-on.f"
  fields "$T/$fx-auto.json" >"$T/$fx-auto.f"
  tap_check "$fx: records" grep -q '^drm_device_' "$T/$fx-auto.f"
  if [[ $full == full ]]; then
    tap_is "$(grep -v values_age_seconds "$T/$fx-on.f")" \
      "$(grep -v values_age_seconds "$T/$fx-auto.f")" \
      "$fx auto: --once prints every value of control on, rates too"
  else
    tap_is "$(no_rates <"$T/$fx-on.f")" "$(no_rates <"$T/$fx-auto.f")" \
      "$fx auto: --once prints every value of control on (held)"
  fi
done <<'EOF'
i915_igpu card0 10000 full
i915_dgpu card1 10000 full
xe_bmg card1 1000 held
amdgpu_dgpu card1 5000 full
amdgpu_apu card0 5000 full
amdgpu_mi300 card2 5000 full
panfrost card0 5000 full
EOF
tap_check "xe auto: the age of the held values" grep -qx \
  'drm_device driver=xe,device=0000:03:00.0 values_age_seconds=1\.[0-9]*' "$T/xe_bmg-auto.f"
tap_check "amdgpu_dgpu auto: the second read was a reading" grep -qx \
  'drm_device driver=amdgpu,device=0000:0b:00.0 values_age_seconds=0.0' "$T/amdgpu_dgpu-auto.f"
# xe at --window=0.5: the second read comes 0.5 s after the first ended,
# before the 1 s delay runs out: a reading, with the rates
"$BIN" --once --window=0.5 --format=json --SysfsRoot="$T/xe_bmg-auto/sys" >"$T/xe-half.json" 2>/dev/null
fields "$T/xe-half.json" >"$T/xe-half.f"
tap_is "$(grep -v values_age_seconds "$T/xe_bmg-on.f")" "$(grep -v values_age_seconds "$T/xe-half.f")" \
  "xe auto, --window=0.5: every value and rate"

# Runs at 0.1 s with a 300 ms delay: readings every 0.5 s or so (1.25 x
# 300 ms + 100 ms + the read), held between; from the second reading on,
# every batch has the same series, and the live view's header values
# (temperature, power, clock: docs/live-view.md) are in every batch from
# the first.
# run_check FIXTURE NODE "record sensor field"...
run_check() {
  local fx=$1 node=$2 out
  shift 2
  "$TREE" "$T/$fx-auto" --autosuspend "$node" auto 300
  "$BIN" --interval=0.1 --format=json --SysfsRoot="$T/$fx-auto/sys" \
    >"$T/run-$fx.json" 2>"$T/run-$fx.err" &
  pid=$!
  out=$(python3 - "$T/run-$fx.json" "$@" <<'PY'
import json, sys, time
path, needs = sys.argv[1], sys.argv[2:]
deadline = time.monotonic() + 60
def batches():
    out, cur = [], []
    for line in open(path).read().splitlines():
        cur.append(line)
        if line.endswith("]"):
            out.append(json.loads("\n".join(cur)))
            cur = []
    return out
while True:
    b = batches()
    readings = [i for i, batch in enumerate(b) for r in batch
                if r.get("values_age_seconds") == 0.0]
    if len(readings) >= 4 and len(b) >= readings[1] + 12:
        break
    if time.monotonic() > deadline:
        print(f"only {len(b)} batches, {len(readings)} readings in 60 s")
        sys.exit(0)
    time.sleep(0.1)
def keys(batch):
    return sorted(f"{r['name']} {r.get('domain', r.get('sensor', ''))} {k}"
                  for r in batch for k, v in r.items()
                  if k not in ("name", "time") and not isinstance(v, str))
for i, batch in enumerate(b):
    for need in needs:
        if need not in keys(batch):
            print(f"batch {i}: no {need}")
base = keys(b[readings[1]])
for i in range(readings[1], len(b)):
    if keys(b[i]) != base:
        print(f"batch {i}: {sorted(set(base) ^ set(keys(b[i])))}")
held = sum(1 for batch in b[readings[1]:] for r in batch
           if r.get("values_age_seconds", 0) > 0)
if held == 0:
    print("no batch held a reading")
print(f"ok {len(b) - readings[1]} batches")
PY
)
  kill "$pid"
  wait "$pid" 2>/dev/null
  pid=
  tap_check "$fx at 0.1 s, 300 ms delay: the same series in every batch ($out)" \
    grep -qx 'ok [0-9]* batches' <<<"$out"
  tap_is "" "$(cat "$T/run-$fx.err")" "$fx at 0.1 s: nothing on stderr"
}
run_check xe_bmg card1 "drm_device_temperature pkg celsius" \
  "drm_device_power card energy_joules" "drm_device_freq gt0 actual_hz"
run_check amdgpu_dgpu card1 "drm_device_temperature edge celsius" \
  "drm_device_power PPT power_watts" "drm_device_freq sclk actual_hz"
tap_done
