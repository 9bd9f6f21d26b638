#!/usr/bin/env bash
# Every field of every plugin has a field type with a row (metric_unit.h):
# one unit per collectd type, so no unit is ever mixed under one name.
# Each executable runs over the emulated devices (tests/lib/emulated.sh;
# drm_fdinfo over a synthetic /proc with every ReportBy, both engine units
# and memory regions); the host refuses a field whose type has no row
# with an ERROR naming the type (metric_unit_find), so a run must print
# records and no such line. The unit per field is checked by name: a field
# named *_ns is time, *cycles* or *clocks cycles, *_bytes bytes.
set -uo pipefail
cd "$(dirname "$0")/../.."
source tests/lib/tap.sh
source tests/lib/require.sh
source tests/lib/emulated.sh
source tests/lib/fakeproc.sh
require_root "field types" "needs root for mknod of DRM device nodes"
T=$(mktemp -d "${TMPDIR:-/tmp}/field-types.XXXXXX")
trap 'fp_fini; rm -rf "$T"' EXIT
emu_setup "$T"
fp_init
fp_device 226 0 card0 0000:00:02.0 i915
fp_process 100 glxgears /user.slice/app.scope
fp_fd 100 3 card0 "$(printf '%s\n' 'drm-driver:	i915' 'drm-pdev:	0000:00:02.0' \
  'drm-client-id:	7' 'drm-engine-render:	1000 ns' 'drm-cycles-rcs:	10' \
  'drm-total-cycles-rcs:	50' 'drm-total-system0:	4 KiB' 'drm-resident-system0:	4 KiB')"

for p in drm_fdinfo i915_oa panthor_perf tegra410_uncore; do
  emu_cmd "$p"
  extra=()
  case $p in
  drm_fdinfo) extra=(--ReportBy=Device --ReportBy=Process --ReportBy=Client
    --ReportBy=Cgroup "--ProcRoot=$FP/proc" "--SysfsRoot=$FP/sys") ;;
  i915_oa) extra=("--MetricSet=$I915_UUID" --EuMetrics=true) ;;
  panthor_perf) extra=(--Counter=GPU_ACTIVE) ;;
  esac
  timeout 20 "${EMU_CMD[@]}" "${extra[@]}" --once --window=0.2 --format=json \
    >"$T/$p.json" 2>"$T/$p.err"
  rc=$?
  fields=$(python3 -c 'import json, sys
keys = set()
for r in json.load(open(sys.argv[1])):
    keys.update(r["name"] + "." + k for k in r if k not in ("name", "time") and not isinstance(r[k], str))
print(len(keys))' "$T/$p.json" 2>&1)
  tap_check "$p: exit 0 ($rc), $fields distinct fields" test "$rc" = 0 -a "${fields:-0}" -gt 3
  tap_is "" "$(grep metric_unit_find "$T/$p.err")" "$p: no field refused for a type without a row"
done
tap_done
