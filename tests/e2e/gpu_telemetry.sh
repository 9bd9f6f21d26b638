#!/usr/bin/env bash
# gpu-telemetry: every plugin in one process, on the emulated devices
# (tests/shim: i915, panthor, the Tegra410 PMUs; a drm_device sysfs tree; a
# synthetic /proc for drm_fdinfo):
#  - the same records (measurement, tags, field names) as each plugin's own
#    executable prints on the same devices, in one batch;
#  - --plugin, --NAME.Key, --config with the shipped collectd snippets;
#  - --format=prometheus: promtool check metrics prints nothing on the joint
#    page, each family once; --listen scraped by the real Prometheus, a
#    series of every plugin read back, every collector's success 1;
#  - --execd and the shipped Telegraf execd snippets' commands, run as
#    written (the binary's path aside), parsed as Telegraf parses them;
#  - no plugin's hardware: exit 0, nothing on stdout but the scan summary.
set -uo pipefail
cd "$(dirname "$0")/../.."
source tests/lib/tap.sh
source tests/lib/require.sh
source tests/lib/backends.sh
source tests/lib/prometheus.sh
source tests/lib/emulated.sh
source tests/lib/fakeproc.sh
B=${BUILD:-build}
EXPO=tests/lib/prom_expo.py

require_root "gpu-telemetry" "needs root for mknod of DRM device nodes"
require_cmd "gpu-telemetry" promtool prometheus curl python3

T=$(mktemp -d "${TMPDIR:-/tmp}/gpu-telemetry.XXXXXX")
PIDS=()
cleanup() {
  local p
  for p in "${PIDS[@]}"; do be_stop "$p"; done
  fp_fini
  rm -rf "$T"
}
trap cleanup EXIT

emu_setup "$T/emu" >/dev/null 2>&1
fp_init
fp_device 226 0 card0 0000:00:02.0 i915
fp_process 100 'blender'
fp_fd 100 3 card0 "$(fp_i915 7 1500000000)"
fp_process 200 'glxgears'
fp_fd 200 4 card0 "$(fp_i915 8 250)"

PLUGINS=(drm_fdinfo tegra410_uncore panthor_perf i915_oa drm_device)
# each plugin's own options beyond emu_args
declare -A EXTRA=(
  [drm_fdinfo]="--ProcRoot=$FP/proc --SysfsRoot=$FP/sys --DebugfsRoot=$FP/debug"
  [i915_oa]="--MetricSet=1 --EuMetrics=true"
)
own_cmd() {
  emu_cmd "$1"
  CMD=("${EMU_CMD[@]}")
  [[ $1 == drm_fdinfo ]] && CMD=("$B/drm_fdinfo")
  local o
  for o in ${EXTRA[$1]:-}; do CMD+=("$o"); done
}
all_cmd() {
  emu_cmd_all "$@"
  CMD=("${EMU_CMD[@]}")
  local p o
  for p in "${@:-${PLUGINS[@]}}"; do
    for o in ${EXTRA[$p]:-}; do CMD+=("--$p.${o#--}"); done
  done
}

# The identity of each record: name, tags, field names (values move).
ident() {
  python3 - "$1" <<'PY'
import json, sys
recs = json.load(open(sys.argv[1]))
for r in recs:
    tags = sorted((k, v) for k, v in r.items()
                  if isinstance(v, str) and k != "name")
    fields = sorted(k for k, v in r.items()
                    if not isinstance(v, str) and k not in ("time",))
    print(r["name"], tags, fields)
PY
}

# ---- the same records as each plugin's own executable ----
: >"$T/own.ident"
for p in "${PLUGINS[@]}"; do
  own_cmd "$p"
  "${CMD[@]}" --once --window=0.3 --format=json >"$T/$p.json" 2>"$T/$p.err"
  tap_is 0 $? "$p alone: exit 0"
  ident "$T/$p.json" >>"$T/own.ident"
done
all_cmd
"${CMD[@]}" --once --window=0.3 --format=json >"$T/all.json" 2>"$T/all.err"
tap_is 0 $? "gpu-telemetry, every plugin: exit 0"
tap_check "every plugin wrote records alone ($(wc -l <"$T/own.ident"))" \
  test "$(wc -l <"$T/own.ident")" -ge 20
tap_is "$(sort "$T/own.ident")" "$(ident "$T/all.json" | sort)" \
  "gpu-telemetry: one batch with the records of the five executables (names, tags, fields)"
for p in "${PLUGINS[@]}"; do
  n_own=$(ident "$T/$p.json" | wc -l)
  tap_check "  ... $p: $n_own records" test "$n_own" -ge 1
done

# --plugin and --NAME.Key
all_cmd drm_fdinfo
"${CMD[@]}" --once --window=0 --format=influx --drm_fdinfo.ReportBy=Client \
  >"$T/one.influx" 2>"$T/one.err"
tap_is 0 $? "--plugin=drm_fdinfo --drm_fdinfo.ReportBy=Client: exit 0"
tap_check "  ... client rows, and no other plugin's records" \
  sh -c "grep -q 'scope=client' '$T/one.influx' && ! grep -qvE '^drm_' '$T/one.influx'"

# ---- the Prometheus page ----
all_cmd
"${CMD[@]}" --once --window=0.3 --format=prometheus >"$T/all.prom" 2>"$T/all.prom.err"
tap_is 0 $? "--format=prometheus: exit 0"
out=$(promtool check metrics <"$T/all.prom" 2>&1)
tap_is "0:" "$?:$out" "--format=prometheus: promtool check metrics prints nothing on the joint page"
tap_is "" "$(python3 "$EXPO" check "$T/all.prom")" \
  "--format=prometheus: each family once, samples together, no series twice"
for p in "${PLUGINS[@]}"; do
  tap_is 1 "$(python3 "$EXPO" get "$T/all.prom" gpu_telemetry_collector_success plugin=$p)" \
    "--format=prometheus: $p's collector success is 1"
done
tap_check "--format=prometheus: gpu_telemetry_build_info" \
  grep -q '^gpu_telemetry_build_info{version="' "$T/all.prom"

port=$(be_free_port)
"${CMD[@]}" --listen=127.0.0.1:$port --interval=1 --window=0.2 >/dev/null 2>"$T/listen.err" &
pid=$!
PIDS+=($pid)
tap_check "--listen: /metrics answers" be_wait_http "http://127.0.0.1:$port/metrics" $pid 30
prom_start "$T/prom" "gpu 127.0.0.1:$port"
PIDS+=("$PROM_PID")
tap_check "Prometheus scrapes gpu-telemetry: up" prom_wait_up 1 60
q() { curl -sG "$PROM_URL/api/v1/query" --data-urlencode "query=$1" |
  python3 -c 'import json,sys; r=json.load(sys.stdin)["data"]["result"]; print(len(r))'; }
declare -A SERIES=(
  [drm_fdinfo]=drm_engine_busy_seconds_total
  [i915_oa]=i915_oa_gpu_time_seconds_total
  [panthor_perf]=panthor_perf_gpu_active_cycles_total
  [tegra410_uncore]=tegra410_read_bandwidth_bytes_per_second
  [drm_device]=drm_device_runtime_suspended_seconds_total
)
for p in "${PLUGINS[@]}"; do
  n=0
  for _ in $(seq 1 100); do
    n=$(q "${SERIES[$p]}")
    [[ $n -ge 1 ]] && break
    sleep 0.2
  done
  tap_check "Prometheus: a series of $p from the one port (${SERIES[$p]}: $n)" test "$n" -ge 1
done
tap_is 5 "$(q 'gpu_telemetry_collector_success == 1')" \
  "Prometheus: every collector's success is 1"
be_stop "$PROM_PID"
tap_check "--listen: SIGTERM ends it" be_stop $pid

# ---- --execd and the shipped Telegraf snippets ----
for fmt in influx json; do
  snippet=conf.d/telegraf-gpu-telemetry-execd-$fmt.conf
  mapfile -t cmd < <(python3 -c 'import sys, tomllib
c = tomllib.load(open(sys.argv[1], "rb"))["inputs"]["execd"][0]["command"]
print("\n".join(c))' "$snippet")
  tap_is "/usr/bin/gpu-telemetry" "${cmd[0]}" "$snippet: runs /usr/bin/gpu-telemetry"
  all_cmd # the emulated machine's options, then the snippet's arguments
  printf '\n\n' | "${CMD[@]}" "${cmd[@]:1}" >"$T/execd.$fmt" 2>"$T/execd.err"
  tap_is 0 $? "$snippet: the command as shipped, two lines on stdin: exit 0"
  if [[ $fmt == influx ]]; then
    tap_check "  ... the line protocol parses" \
      sh -c "python3 tests/lib/lineproto.py count <'$T/execd.$fmt' >/dev/null"
  else
    tap_check "  ... Telegraf's json parser takes every line (tag_keys of the snippet)" \
      sh -c "python3 tests/lib/telegraf_json.py '$snippet' <'$T/execd.$fmt' >/dev/null"
  fi
  tap_check "  ... two batches of every plugin (i915_oa_stream twice)" \
    test "$(grep -c 'i915_oa_stream' "$T/execd.$fmt")" -ge 2
done

# ---- --config: the shipped collectd snippets as they are ----
cat conf.d/drm_fdinfo.conf conf.d/tegra410_uncore.conf conf.d/panthor_perf.conf \
  conf.d/i915_oa.conf conf.d/drm_device.conf >"$T/all.conf"
"$B/gpu-telemetry" --once --window=0 --config="$T/all.conf" >"$T/conf.out" 2>"$T/conf.err"
tap_is 0 $? "--config with the five shipped snippets: exit 0 on this machine"
tap_is "" "$(grep -v '^\(info\|notice\): ' "$T/conf.err")" "  ... nothing said above the notice level"
tap_is 5 "$(grep -c '^notice: [a-z0-9_]*: \([a-z]*: \)\?found: ' "$T/conf.err")" \
  "  ... a found line for each of the five instances"
emu_cmd_all i915_oa
"${EMU_CMD[@]}" --once --window=0.2 --config=conf.d/i915_oa.conf >"$T/conf.oa" 2>"$T/conf.oa.err"
tap_is 0 $? "--config=conf.d/i915_oa.conf on the emulated i915: exit 0"
tap_check "  ... its instance \"gpu\" with the snippet's FlexEvents" \
  grep -q 'eu_active' "$T/conf.oa"

# ---- no hardware at all ----
mkdir -p "$T/none"
"$B/gpu-telemetry" --once --window=0 --drm_fdinfo.ProcRoot="$T/none" \
  --drm_device.SysfsRoot="$T/none" >"$T/none.out" 2>"$T/none.err"
tap_is 0 $? "nothing to read (empty roots): exit 0"
"$B/gpu-telemetry" --once --window=0 --drm_fdinfo.ProcRoot="$T/no-such" >/dev/null 2>"$T/none.err"
tap_is "1|error: drm_fdinfo: $T/no-such: open: No such file or directory" "$?|$(cat "$T/none.err")" \
  "a plugin given options that cannot start: exit 1, said by the plugin"

tap_done
