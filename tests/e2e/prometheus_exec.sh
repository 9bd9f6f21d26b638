#!/usr/bin/env bash
# The executables' Prometheus exposition, on the emulated devices
# (tests/shim: i915_oa, panthor_perf, tegra410_uncore), a synthetic /proc
# with a hostile process name (drm_fdinfo) and a sysfs tree of an xe card
# (drm_device, whose exposition of every fixture drm_device_exec checks):
#  - --format=prometheus: promtool check metrics clean (no lint), the
#    structure read strictly (tests/lib/prom_expo.py), names in base units
#    and values scaled;
#  - --listen: /metrics with the format's Content-Type, 404 elsewhere, 405
#    for POST, concurrent scrapes, IPv6, clear errors for a bad address and
#    a port in use, exit 0 on SIGTERM and SIGINT;
#  - the real Prometheus server scrapes all five exporters: every target
#    up, series and values read back through its HTTP API, the exporter
#    rules (dashboards/prometheus/gpu-exporter-rules.yml: promtool check
#    rules, promtool test rules, and recorded live), and every query of the
#    Prometheus Grafana dashboards (as generate.py writes them) returns
#    series, with the template variables at All and at a value.
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

require_root "prometheus exposition" "needs root for mknod of DRM device nodes"
require_cmd "prometheus exposition" promtool prometheus curl python3

T=$(mktemp -d "${TMPDIR:-/tmp}/prometheus-exec.XXXXXX")
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
# quotes, a backslash, braces and a byte that is not UTF-8 (kernel comm is
# 15 bytes; the plugin keeps what the file says)
# i915 client ID, render busy ns: fp_i915 with resident memory too
fdinfo() { printf '%s\ndrm-resident-system0:\t4 MiB\n' "$(fp_i915 "$1" "$2")"; }
fp_process 100 $'ev"il\\} x{\xff'
fp_fd 100 3 card0 "$(fdinfo 7 1500000000)"
fp_process 200 'glxgears'
fp_fd 200 4 card0 "$(fdinfo 8 250)"
mkdir -p "$T/ddv"
"$B/tests/ddv_tree" "$T/ddv" xe_bmg

# The command of plugin $1, in CMD.
cmd_of() {
  case $1 in
  drm_fdinfo)
    CMD=("$B/drm_fdinfo" --ProcRoot="$FP/proc" --SysfsRoot="$FP/sys"
      --DebugfsRoot="$FP/debug")
    ;;
  drm_device)
    CMD=("$B/drm_device" --SysfsRoot="$T/ddv/sys")
    ;;
  i915_oa)
    emu_cmd i915_oa
    CMD=("${EMU_CMD[@]}" --MetricSet=1 --EuMetrics=true)
    ;;
  *)
    emu_cmd "$1"
    CMD=("${EMU_CMD[@]}")
    ;;
  esac
}

PLUGINS=(drm_fdinfo i915_oa panthor_perf tegra410_uncore drm_device)
# a name each plugin must expose, in base units
declare -A EXPECT=(
  [drm_fdinfo]=drm_engine_busy_seconds_total
  [i915_oa]=i915_oa_gpu_time_seconds_total
  [panthor_perf]=panthor_perf_gpu_active_cycles_total
  [tegra410_uncore]=tegra410_read_bandwidth_bytes_per_second
  [drm_device]=drm_device_freq_actual_hertz
)

# Options that give each plugin's other families too (every family must
# pass promtool's lint: a name carrying its type, as the former
# panthor_perf_counter_value_total did, is a lint problem). drm_device's
# exposition is checked over every fixture in drm_device_exec.
declare -A ALL_FAMILIES=(
  [panthor_perf]="--Counter=shader:27 --Counter=L2_EXT_READ_BEATS --PerCore=true"
  [tegra410_uncore]="--Preset=Tegra410 --Event=msr/tsc/ --Filter=rp0 --Filter.PMU=pcie --Filter.Terms=src_rp_mask=0x1"
)
declare -A EXPECT_MORE=(
  [panthor_perf]=panthor_perf_raw_value_total
  [tegra410_uncore]=uncore_event_count_total
)

for p in "${PLUGINS[@]}"; do
  cmd_of "$p"
  read -ra more <<<"${ALL_FAMILIES[$p]:-}"
  "${CMD[@]}" "${more[@]}" --once --window=0.2 --format=prometheus >"$T/$p.prom" 2>"$T/$p.err"
  tap_is 0 $? "$p --format=prometheus: exit status"
  tap_is "" "$(cat "$T/$p.err")" "$p --format=prometheus: nothing on stderr"
  tap_check "$p --format=prometheus: samples" test -s "$T/$p.prom"
  out=$(promtool check metrics <"$T/$p.prom" 2>&1)
  tap_is "0:" "$?:$out" "$p: promtool check metrics: clean, no lint"
  tap_is "" "$(python3 "$EXPO" check "$T/$p.prom")" \
    "$p: HELP and TYPE once per name, samples together, no series twice"
  tap_check "$p: exposes ${EXPECT[$p]}" \
    grep -q "^# TYPE ${EXPECT[$p]} " "$T/$p.prom"
  if [[ -n ${EXPECT_MORE[$p]:-} ]]; then
    tap_check "$p: exposes ${EXPECT_MORE[$p]}" \
      grep -q "^# TYPE ${EXPECT_MORE[$p]} " "$T/$p.prom"
  fi
  tap_is "" "$(grep -E '^[^#].*_(ns|hz|percent|us|ms)(_total)?[{ ]' "$T/$p.prom" | head -3)" \
    "$p: no unit abbreviation or percent in a name"
done

# Exact values and escaping on the synthetic /proc (--once reports
# counters over its window, so the gauges here; the counters below, where
# the exporter runs long enough to see them move): the hostile name
# round-trips, escaped as the format says.
hostile=$'ev"il\\} x{?'
tap_is 8388608 "$(python3 "$EXPO" get "$T/drm_fdinfo.prom" drm_memory_total_bytes \
  scope=process pid=100 region=system0)" "drm_fdinfo: 8 MiB in bytes"
tap_is 8388608 "$(python3 "$EXPO" get "$T/drm_fdinfo.prom" drm_memory_total_bytes \
  scope=process "comm=$hostile")" "drm_fdinfo: the hostile comm reads back as the record's text"
tap_check "drm_fdinfo: the hostile comm is escaped as the format says" \
  grep -qF 'comm="ev\"il\\} x{?"' "$T/drm_fdinfo.prom"
tap_is 1 "$(python3 "$EXPO" get "$T/drm_fdinfo.prom" drm_engine_capacity \
  scope=process pid=200)" "drm_fdinfo: an integer gauge prints as an integer"

# ---- --listen ----
BIN_ERR=$T/listen.err
cmd_of drm_fdinfo
"${CMD[@]}" --listen=nonsense:80 >/dev/null 2>"$BIN_ERR"
tap_is 2 $? "listen: a bad address is a usage error"
tap_is "error: drm_fdinfo: listen: --listen=nonsense:80: not a numeric IPv4 address (no name lookup; IPv6 goes in brackets)" \
  "$(cat "$BIN_ERR")" "listen: the bad address is named"
"${CMD[@]}" --listen=127.0.0.1:99999 >/dev/null 2>"$BIN_ERR"
tap_is 2 $? "listen: port out of range: usage error"
"${CMD[@]}" --listen=:1 --once >/dev/null 2>"$BIN_ERR"
tap_is 2 $? "listen: not with --once"

# Start each exporter on its own free port.
declare -A PORT
for p in "${PLUGINS[@]}"; do
  cmd_of "$p"
  PORT[$p]=$(be_free_port)
  "${CMD[@]}" --listen=127.0.0.1:${PORT[$p]} --interval=1 --window=0.2 \
    >"$T/$p.listen.out" 2>"$T/$p.listen.err" &
  PIDS+=($!)
  eval "PID_$p=$!"
done
for p in "${PLUGINS[@]}"; do
  pid_var=PID_$p
  tap_check "$p --listen: /metrics answers" \
    be_wait_http "http://127.0.0.1:${PORT[$p]}/metrics" "${!pid_var}" 30
done

U=http://127.0.0.1:${PORT[drm_fdinfo]}
# Counters move: 1.5 s more render time for pid 100, 250 ns for pid 200,
# after the exporter's first read; every later read exposes them.
fp_fdinfo 100 3 "$(fdinfo 7 3000000000)"
fp_fdinfo 200 4 "$(fdinfo 8 500)"
busy_of() { # pid -> the value once it is the expected one, or the last seen
  local deadline=$((SECONDS + 10)) v=
  while ((SECONDS < deadline)); do
    curl -s -o "$T/busy" "$U/metrics"
    v=$(python3 "$EXPO" get "$T/busy" drm_engine_busy_seconds_total scope=process "pid=$1" 2>/dev/null)
    [[ $v == "$2" ]] && break
    sleep 0.2
  done
  echo "$v"
}
tap_is 1.5 "$(busy_of 100 1.5)" "listen: 1.5e9 ns of busy time is 1.5 s"
tap_is 2.5e-07 "$(busy_of 200 2.5e-07)" "listen: 250 ns is 2.5e-07 s"
tap_is "200 text/plain; version=0.0.4; charset=utf-8" \
  "$(curl -s -o "$T/scrape" -w '%{http_code} %{content_type}' "$U/metrics")" \
  "listen: 200 with the text format's Content-Type"
out=$(promtool check metrics <"$T/scrape" 2>&1)
tap_is "0:" "$?:$out" "listen: promtool check metrics of the scrape"
tap_is 404 "$(curl -s -o /dev/null -w '%{http_code}' "$U/")" "listen: 404 for /"
tap_is 404 "$(curl -s -o /dev/null -w '%{http_code}' "$U/metrics/x")" "listen: 404 for /metrics/x"
tap_is 405 "$(curl -s -o /dev/null -w '%{http_code}' -X POST -d x "$U/metrics")" \
  "listen: 405 for POST"
tap_is "200 0" "$(curl -s -I -o /dev/null -w '%{http_code} %{size_download}' "$U/metrics")" \
  "listen: HEAD answers without a body"
# 16 scrapes at once, each a complete, valid exposition
for i in $(seq 16); do
  curl -s -o "$T/c$i" -w '%{http_code}\n' "$U/metrics" >"$T/c$i.code" &
done
wait_ok=0
for i in $(seq 16); do
  while [[ ! -s $T/c$i.code ]]; do sleep 0.05; done
  [[ $(cat "$T/c$i.code") == 200 ]] && [[ -z $(python3 "$EXPO" check "$T/c$i") ]] &&
    grep -q '^drm_engine_busy_seconds_total' "$T/c$i" && wait_ok=$((wait_ok + 1))
done
tap_is 16 "$wait_ok" "listen: 16 concurrent scrapes all complete and valid"

# a port in use: named with the errno text
cmd_of drm_fdinfo
"${CMD[@]}" --listen=127.0.0.1:${PORT[drm_fdinfo]} >/dev/null 2>"$BIN_ERR"
tap_is 1 $? "listen: a port in use: exit 1"
tap_is "error: drm_fdinfo: listen: 127.0.0.1:${PORT[drm_fdinfo]}: bind: Address already in use" \
  "$(cat "$BIN_ERR")" "listen: a port in use names the address and the errno text"

# IPv6 loopback, [::1]:PORT
if [[ -e /proc/net/if_inet6 ]] && grep -q '^0\{31\}1 ' /proc/net/if_inet6; then
  p6=$(be_free_port)
  "${CMD[@]}" --listen="[::1]:$p6" --interval=1 --window=0 >/dev/null 2>"$T/v6.err" &
  pid6=$!
  PIDS+=($pid6)
  tap_check "listen: [::1]:$p6 answers" be_wait_http "http://[::1]:$p6/metrics" "$pid6" 30
  kill -INT "$pid6"
  be_stop "$pid6"
  wait "$pid6" 2>/dev/null
  tap_is "" "$(cat "$T/v6.err")" "listen [::1]: nothing on stderr"
else
  tap_skip "listen: [::1]" "no IPv6 loopback on this machine"
fi

# ---- the Prometheus server ----
jobs=""
for p in "${PLUGINS[@]}"; do jobs+="$p 127.0.0.1:${PORT[$p]}"$'\n'; done
RULES=dashboards/prometheus/gpu-exporter-rules.yml
out=$(promtool check rules "$RULES" 2>&1)
tap_is "0" "$?" "promtool check rules $RULES"
out=$(cd dashboards/prometheus && promtool test rules gpu-exporter-rules.test.yml 2>&1)
tap_is "0" "$?" "promtool test rules: every case of gpu-exporter-rules.test.yml" ||
  sed 's/^/# /' <<<"$out"
tap_check "prometheus: starts on loopback" prom_start "$T/prom" "$jobs" "$RULES"
PIDS+=("${PROM_PID:-}")
tap_check "prometheus: all five exporters up" prom_wait_up 5 60
# Stored series: polled (a target is up from its first scrape, which may
# have come before the exporter's first read: a 503)
poll_count() { # promql -> its series count once >= 1, or 0 after 30 s
  local deadline=$((SECONDS + 30)) n=0
  while ((SECONDS < deadline)); do
    n=$(python3 "$EXPO" count "$PROM_URL" "$1")
    [[ ${n:-0} -ge 1 ]] && break
    sleep 0.5
  done
  echo "${n:-0}"
}
for p in "${PLUGINS[@]}"; do
  n=$(poll_count "{job=\"$p\",__name__=\"${EXPECT[$p]}\"}")
  tap_check "prometheus: $p: ${EXPECT[$p]} stored ($n series)" test "${n:-0}" -ge 1
  n=$(python3 "$EXPO" count "$PROM_URL" "scrape_samples_scraped{job=\"$p\"} > 0")
  tap_is 1 "$n" "prometheus: $p: the scrape has samples"
done
tap_is 1.5 "$(python3 "$EXPO" query "$PROM_URL" \
  'drm_engine_busy_seconds_total{scope="process",pid="100"}')" \
  "prometheus: drm_fdinfo busy seconds of pid 100"
tap_is 1.5 "$(python3 "$EXPO" query "$PROM_URL" \
  "drm_engine_busy_seconds_total{scope=\"process\",comm=\"ev\\\"il\\\\} x{?\"}")" \
  "prometheus: the hostile comm label matches exactly"
tap_is 0 "$(python3 "$EXPO" count "$PROM_URL" '{__name__=~".+_(ns|hz|percent)(_total)?"}')" \
  "prometheus: no series with a unit abbreviation in its name"

# the rules record from the live exporters
for r in device_engine:drm_engine_busy:ratio_rate1m process_engine:drm_engine_busy:ratio_rate1m \
  process:drm_memory_resident:bytes device:i915_oa_gpu_busy:ratio \
  device:panthor_perf_ext_read_bandwidth:bytes_per_second \
  device:panthor_perf_gpu_active:hertz_rate1m socket:tegra410_read_bandwidth:bytes_per_second \
  device:drm_device_temperature:max_celsius device:drm_device_throttled:max; do
  n=$(poll_count "$r")
  tap_check "prometheus: rule $r records live ($n series)" test "${n:-0}" -ge 1
done
tap_is 4194304 "$(python3 "$EXPO" query "$PROM_URL" \
  'process:drm_memory_resident:bytes{pid="200"}')" "prometheus: resident bytes of pid 200 recorded"
# the xe card (tests/lib/ddv_tree.h): pkg 45, vram 52.5 °C; its GTs are
# throttled
tap_is 52.5 "$(python3 "$EXPO" query "$PROM_URL" \
  'device:drm_device_temperature:max_celsius{device="0000:03:00.0"}')" \
  "prometheus: the xe card's hottest sensor recorded (vram, 52.5 °C)"
tap_is 1 "$(python3 "$EXPO" query "$PROM_URL" \
  'device:drm_device_throttled:max{device="0000:03:00.0"}')" "prometheus: the xe card's throttling recorded"

# The Prometheus dashboards: as generate.py writes them; every variable
# finds values, every panel returns series.
mkdir -p "$T/dash"
python3 dashboards/grafana/generate.py "$T/dash"
for f in "$T"/dash/*-prometheus.json; do
  tap_check "dashboards/grafana/${f##*/} is what generate.py writes" \
    cmp -s "$f" "dashboards/grafana/${f##*/}"
done
while IFS=$'\t' read -r verdict what diag; do
  if [[ $verdict == ok ]]; then tap_ok "$what"; else tap_fail "$what" && echo "# $diag"; fi
done < <(python3 tests/lib/grafana_prom_queries.py "$PROM_URL" dashboards/grafana/*-prometheus.json)

# ---- clean shutdown ----
for sig in TERM INT; do
  p=$([[ $sig == TERM ]] && echo panthor_perf || echo tegra410_uncore)
  pid_var=PID_$p
  start=$SECONDS
  kill -"$sig" "${!pid_var}"
  wait "${!pid_var}"
  tap_is 0 $? "$p --listen: SIG$sig: exit 0"
  tap_check "$p --listen: SIG$sig: stops within 3 s" test $((SECONDS - start)) -le 3
  tap_is "" "$(cat "$T/$p.listen.err")" "$p --listen: nothing on stderr"
done
tap_done
