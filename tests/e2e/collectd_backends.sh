#!/usr/bin/env bash
# The real backends, each on loopback under a temp dir and stopped by PID,
# fed by one real collectd daemon that runs drm_fdinfo (a synthetic tree of
# two GPUs, every ReportBy, processes and cgroups with hostile names) and
# tegra410_uncore (the Tegra410 preset and a raw event on emulated PMUs,
# LD_PRELOAD tests/shim) with the configuration docs/backends.md shows:
#   network          -> InfluxDB 1.x [[collectd]] listener (our types.db
#                       and collectd's): every series collectd wrote (its csv
#                       plugin is the reference) is stored, values read back
#                       through /query, 0 parse failures in SHOW STATS;
#   write_graphite   -> carbon-cache + whisper: every series a whisper file
#                       with values, under its collectd name unchanged, valid
#                       Graphite paths, hostile names never merged;
#   write_prometheus -> scraped with curl: `promtool check metrics` clean,
#                       every series present with its labels.
# The same InfluxDB then takes both executables' Influx lines (the Telegraf
# schema) and every panel query of dashboards/grafana must return series.
set -uo pipefail
cd "$(dirname "$0")/../.."
source tests/lib/tap.sh
source tests/lib/collectd.sh
source tests/lib/fakeproc.sh
source tests/lib/tegra410_tree.sh
source tests/lib/i915_tree.sh
source tests/lib/backends.sh
source tests/lib/require.sh
source tests/lib/manifest.sh
NAME="collectd to InfluxDB, Graphite and Prometheus"
require_collectd "$NAME"
require_root "$NAME" "needs root for mknod of DRM device nodes"
require_cmd "$NAME" python3 curl "$INFLUXD" "$CARBON_CACHE" whisper-fetch promtool
require_that "$NAME" "write_prometheus.so cannot load (libmicrohttpd12, libprotobuf-c1)" \
  bash -c '! ldd /usr/lib/collectd/write_prometheus.so | grep -q "not found"'
B=${BUILD:-build}
CHECK=tests/lib/backend_check.py
SHIM=$PWD/$B/tests/shim.so
EXEC_PRELOAD=$SHIM
if [[ ${SANITIZE:-} == 1 ]]; then
  # the executable and the shim are ASan/UBSan builds: runtimes first
  EXEC_PRELOAD="$(${CC:-cc} -print-file-name=libasan.so):$(${CC:-cc} -print-file-name=libubsan.so):$SHIM"
fi

T=$(mktemp -d "${TMPDIR:-/tmp}/backends.XXXXXX")
INFLUX_PID= CARBON_PID=
cleanup() {
  collectd_stop
  be_stop "$CARBON_PID"
  be_stop "$INFLUX_PID"
  fp_fini
  [[ -n ${CD_DIR:-} ]] && rm -rf "$CD_DIR"
  rm -rf "$T"
}
trap cleanup EXIT

# Verdict lines of backend_check.py -> TAP.
verdicts() {
  local verdict name diag n=0
  while IFS=$'\t' read -r verdict name diag; do
    n=$((n + 1))
    if [[ $verdict == ok ]]; then tap_ok "$name"; else tap_fail "$name" && echo "# $diag"; fi
  done
  [[ $n -gt 0 ]] || tap_fail "checker printed no verdict"
}

# The synthetic machine: an i915 and an xe; one process per cgroup, whose
# names differ only in characters collectd or write_graphite would rewrite
# ('.', ':', '!', space, '/', '%').
fp_init
fp_device 226 0 card0 0000:00:02.0 i915
fp_device 226 1 card1 0000:03:00.0 xe
hostile=('/k/a.b' '/k/a_b' '/k/a:b' '/k/a!b' '/k/a b' '/k/a%2Eb')
for i in "${!hostile[@]}"; do
  pid=$((100 + i))
  fp_process "$pid" "p${hostile[i]#/k/}" "${hostile[i]}"
  fp_fd "$pid" 3 card0 "$(fp_i915 $((7 + i)) $((1000 * (i + 1))))"
done
fp_process 200 'blender/x y' /user.slice
# a Kubernetes container: a cgroup path far longer than 63 bytes, of which
# the plugin_instance keeps the end (the container's scope)
K8S=/kubepods.slice/kubepods-burstable.slice/kubepods-burstable-pod0f3c2a1b_9d8e_4f7a_b6c5_d4e3f2a1b0c9.slice/cri-containerd-3f2a9b7c1d0e4f5a6b7c8d9e0f1a2b3c4d5e6f7a8b9c0d1e2f3a4b5c6d7e8f9a0b.scope
fp_process 300 'kube-ctr:main' "$K8S"
fp_fd 300 3 card0 "$(fp_i915 40 700)"
# a newline inside a process name becomes '?' (common/core/text.h)
fp_process 201 $'evil\nname' /user.slice
fp_fd 201 3 card0 "$(fp_i915 30 500)"
fp_fd 200 4 card1 "$(printf '%s\n' 'drm-driver:	xe' 'drm-pdev:	0000:03:00.0' \
  'drm-client-id:	21' 'drm-client-name:	scene render' 'drm-cycles-rcs:	1000' \
  'drm-total-cycles-rcs:	5000' 'drm-engine-capacity-rcs:	2' 'drm-total-vram0:	16 MiB' \
  'drm-shared-vram0:	1 MiB' 'drm-resident-vram0:	8 MiB' 'drm-purgeable-vram0:	0' \
  'drm-active-vram0:	4 MiB')"
t410_tree "$T"
# a scaled event with a unit: uncore_event's `value`
echo 0.5 >"$T/sys/bus/event_source/devices/nvidia_pcie_pmu_0_rc_1/events/rd_bytes.scale"
echo bytes >"$T/sys/bus/event_source/devices/nvidia_pcie_pmu_0_rc_1/events/rd_bytes.unit"

# drm_device: an xe card (two GTs, hwmon) and an amdgpu APU
mkdir -p "$T/ddv"
"$B/tests/ddv_tree" "$T/ddv" xe_bmg amdgpu_apu

# i915_oa and panthor_perf through the shim's i915 and panthor devices
i915_tree "$T/i915" 0000:00:02.0
export SHIM_I915_SCENARIO=$(i915_scenario "$T/i915")
mkdir -p "$T/pp"
export SHIM_PANTHOR_PATH=$T/pp/renderD128 SHIM_PANTHOR_LAYOUT=v6 SHIM_PANTHOR_GPU=g720
# The shim drivers every plugin's manifest asks for (perf, panthor, i915).
export SHIM_DRIVERS=$(manifest_shim_drivers)

mkdir -p "$T/types"
cp /usr/share/collectd/types.db "$T/types/types.db"
cp "$B/types.gpu.db" "$T/types/types.gpu.db"
cport=$(be_free_port udp)
tap_check "influxd starts with a [[collectd]] listener" influx_start "$T/influx" "$cport" "$T/types"
tap_check "carbon-cache starts" carbon_start "$T/carbon"
pport=$(be_free_port)

# Exactly docs/backends.md (ports are the tests' free ones).
backends="PluginDir \"/usr/lib/collectd\"
LoadPlugin network
<Plugin network>
  Server \"127.0.0.1\" \"$cport\"
</Plugin>
LoadPlugin write_graphite
<Plugin write_graphite>
  <Node \"carbon\">
    Host \"127.0.0.1\"
    Port \"$CARBON_PORT\"
    Protocol \"tcp\"
    EscapeCharacter \"=\"
  </Node>
</Plugin>
LoadPlugin write_prometheus
<Plugin write_prometheus>
  Host \"127.0.0.1\"
  Port \"$pport\"
</Plugin>"
plugins="PluginDir \"$PWD/$B\"
LoadPlugin drm_fdinfo
<Plugin drm_fdinfo>
  <Instance \"gpu\">
    Interval 1
    ReportBy Device
    ReportBy Process
    ReportBy Client
    ReportBy Cgroup
    ProcRoot \"$FP/proc\"
    SysfsRoot \"$FP/sys\"
  </Instance>
</Plugin>
LoadPlugin tegra410_uncore
<Plugin tegra410_uncore>
  <Instance \"vera\">
    Interval 1
    SysfsRoot \"$T/sys\"
  </Instance>
  <Instance \"raw\">
    Interval 1
    Event \"nvidia_pcie_pmu_0_rc_1/rd_bytes/\"
    SysfsRoot \"$T/sys\"
  </Instance>
</Plugin>
LoadPlugin i915_oa
<Plugin i915_oa>
  <Instance \"gpu\">
    Interval 1
    DevRoot \"$T/i915/dev/dri\"
    SysfsRoot \"$T/i915/sys\"
    MetricSet \"$I915_UUID\"
    EuMetrics true
  </Instance>
</Plugin>
LoadPlugin panthor_perf
<Plugin panthor_perf>
  <Instance \"mali\">
    Interval 1
    Device \"$T/pp/renderD128\"
    Counter \"shader:27\"
    Counter \"L2_EXT_READ_BEATS\"
    PerCore true
  </Instance>
</Plugin>
LoadPlugin drm_device
<Plugin drm_device>
  Interval 1
  SysfsRoot \"$T/ddv/sys\"
</Plugin>"
COLLECTD_PRELOAD=$SHIM collectd_start "$backends
$plugins"
# Every series once its third row is in (rates exist from the second).
tap_check "csv: drm_fdinfo and tegra410_uncore series appear" \
  collectd_wait_rows "$CD_CSV/e2e/tegra410_uncore-raw-*/uncore_value-*" 3 40
sleep 2.5
tap_check "collectd: write_prometheus listens" \
  curl -sf -o "$T/metrics.txt" "http://127.0.0.1:$pport/metrics"
python3 "$CHECK" series "$CD_CSV" e2e $(manifest_plugins) >"$T/series"
# The measurements of the collectd listener: <series_prefix>_value
ours=$(for p in $(manifest_plugins); do manifest_key "$p" series_prefix; done | paste -sd'|')
# Until both stores hold as many series as collectd wrote (the listener's
# 200 ms batches, carbon's writer), at most 30 s.
nseries=$(wc -l <"$T/series")
influx_series() {
  influx_query collectd "SHOW SERIES FROM /^($ours)_value\$/" |
    python3 -c 'import json,sys; r=json.load(sys.stdin)["results"][0]; print(sum(len(s["values"]) for s in r.get("series", [])))'
}
deadline=$((SECONDS + 30))
while ((SECONDS < deadline)); do
  [[ $(influx_series) -ge $nseries &&
    $(find "$CARBON_DATA" -name '*.wsp' | wc -l) -ge $nseries ]] && break
  sleep 0.3
done
sleep 1 # the last points of the files just created
# Every identifier the daemon lists reads back through collectdctl (its
# libcollectdclient cuts each part at 63 bytes: a longer one would be
# listed cut and then not found).
"$COLLECTDCTL" -s "$CD_SOCK" listval >"$T/listval" 2>&1
tap_check "collectdctl listval lists every series ($(wc -l <"$T/listval") of $nseries)" \
  test "$(grep -c '^e2e/' "$T/listval")" -ge "$nseries"
: >"$T/getval.fail"
while IFS= read -r id; do
  "$COLLECTDCTL" -s "$CD_SOCK" getval "$id" >"$T/getval.out" 2>&1 &&
    grep -q '^value=' "$T/getval.out" || echo "$id: $(head -c 200 "$T/getval.out")" >>"$T/getval.fail"
done <"$T/listval"
tap_is "" "$(head -n 5 "$T/getval.fail")" "collectdctl getval answers for every listed identifier"
tap_is "" "$(awk -F'\t' 'length($2) > 63 || length($4) > 63' "$T/series" | head -n 3)" \
  "every plugin_instance and type_instance collectd wrote is at most 63 bytes"
tap_check "the Kubernetes container keeps its id in the cgroup series" \
  grep -qE '^e2e/drm_fdinfo-gpu-0000:00:02\.0-cri-containerd-3f2a9b7c[0-9a-f]+~[0-9a-f]{8}/' "$T/listval"
[[ -n ${KEEP:-} ]] && cp "$T/series" "$T/listval" "$T/metrics.txt" "$KEEP/"
tap_check "collectd stops on SIGTERM" collectd_stop
tap_is "" "$(grep -E 'Dataset not found|no such type|plugin_get_ds|read-function' "$CD_LOG")" \
  "log: every type resolved, no read failure"
cut -f4 "$T/series" | sort -u >"$T/tinst"
want="clients processes unreadable render-busy_ns render-capacity rcs-cycles
rcs-total_cycles render-utilization vram0-active_bytes vram0-purgeable_bytes
vram0-resident_bytes vram0-shared_bytes vram0-total_bytes system0-total_bytes scan-clamped
scan-clients scan-clients_untracked scan-fdinfo_reads scan-fds scan-full_scans scan-malformed
scan-oversized scan-processes scan-processes_unreported scan-unknown_keys scan-unreadable
frequency read_bandwidth read_latency_cycles read_latency_seconds read_request_rate
write_bandwidth write_latency_cycles write_latency_seconds write_request_rate running_percent
cycles-count cycles-enabled_ns cycles-rate cycles-running_percent cycles-not_counted
cycles-running_ns rd_bytes-value gpu_core_clocks gpu_time_ns a0 c7 gpu_busy_percent
avg_gpu_core_frequency_hz eu_active_percent stream-reports stream-reason_timer
gpu_active_cycles ext_read_bytes ext_read_bandwidth tiler_utilization_percent stream-samples
memsys-L2_EXT_READ_BEATS-value shader-shader%3A27-value
runtime_suspended runtime_active_ns gt0-actual_hz gt0-requested_hz gt0-rpe_hz
gt0-residency_ns gt0-idle_percent gt0-throttled gt0-reason_pl1 vram-total_bytes
vram-used_bytes gpu-percent card-energy_joules card-power_watts card-power_cap_watts
pkg-celsius fan1-rpm pkg-volts"
tap_is "" "$(comm -23 <(tr ' ' '\n' <<<"$want" | grep . | sort) "$T/tinst" | tr '\n' ' ')" \
  "csv: every field of every plugin was dispatched ($(wc -l <"$T/series") series)"
# one series of each scope of drm_fdinfo: device, process (pid-comm),
# client (clientID-comm), cgroup ('/' read as '+')
for shape in 'gpu-0000:00:02\.0	' 'gpu-0000:00:02\.0-100-pa\.b	' \
  'gpu-0000:03:00\.0-client21-blender\+x%20y	' 'gpu-0000:00:02\.0-\+user\.slice	'; do
  tap_check "csv: a drm_fdinfo series $shape" grep -qP "^drm_fdinfo\t$shape" "$T/series"
done

# InfluxDB: every series, a value each, the listener's counters.
influx_query collectd "SELECT last(\"value\") FROM /^($ours)_value\$/ GROUP BY *" \
  >"$T/influx.json"
influx_query '' "SHOW STATS FOR 'collectd'" >"$T/stats.json"
python3 "$CHECK" influx "$T/series" "$T/influx.json" "$T/stats.json" | verdicts
v=$(influx_query collectd "SELECT last(\"value\") FROM \"drm_fdinfo_value\" WHERE \"type_instance\" = 'vram0-total_bytes' AND \"instance\" = 'gpu-0000:03:00.0'" |
  python3 -c 'import json,sys; print(json.load(sys.stdin)["results"][0]["series"][0]["values"][0][1])' 2>&1)
tap_is 16777216 "$v" "InfluxDB /query: xe device vram0 total bytes"
v=$(influx_query collectd "SELECT last(\"value\") FROM \"tegra410_uncore_value\" WHERE \"type_instance\" = 'read_bandwidth' AND \"instance\" = 'vera-nvidia_pcie_pmu_0_rc_1'" |
  python3 -c 'import json,sys; print(json.load(sys.stdin)["results"][0]["series"][0]["values"][0][1])' 2>&1)
tap_check "InfluxDB /query: PCIE read bandwidth $v (expected 1e6)" t410_close "$v" 1e6

# Graphite: whisper files under the collectd names, nothing merged.
python3 "$CHECK" graphite "$T/series" "$CARBON_DATA" e2e | verdicts
n=$(find "$CARBON_DATA/e2e" -maxdepth 1 -name 'drm_fdinfo-gpu-0000=00=02=0-+k+*' | wc -l)
tap_is "${#hostile[@]}" "$n" "Graphite: ${#hostile[@]} cgroups differing only in . _ : ! space %, ${#hostile[@]} paths"

# Prometheus: lint-clean exposition, every series.
tap_is "" "$(promtool check metrics <"$T/metrics.txt" 2>&1)" "promtool check metrics: no problem"
python3 "$CHECK" prometheus "$T/series" "$T/metrics.txt" e2e | verdicts
# The example rules over these samples: the identifier regexes take the
# tags out of the plugin_instance label.
RULES=dashboards/prometheus/gpu-rules.yml
tap_is "" "$(promtool check rules "$RULES" 2>&1 | grep -v -e '^Checking' -e SUCCESS -e '^$')" \
  "promtool check rules $RULES"
cat >"$T/checks.json" <<'EOF'
[["count(gpu:drm_engine_utilization:percent{host=\"e2e\",label=\"gpu\",device=\"0000:00:02.0\",engine=\"render\"})", "{}", 1],
 ["count(gpu:drm_engine_utilization:max_by_device{host=\"e2e\"})", "{}", 1],
 ["sum(gpu:drm_memory_resident_bytes:process{host=\"e2e\",pid=\"200\",comm=\"blender+x%20y\",device=\"0000:03:00.0\",region=\"vram0\"})", "{}", 8388608],
 ["count(tegra410:bandwidth:bytes_per_second{host=\"e2e\",pmu=\"nvidia_pcie_pmu_0_rc_1\"})", "{}", 2],
 ["count(tegra410:latency:seconds{pmu=\"nvidia_cmem_latency_pmu_0\",type=\"read_latency_seconds\"})", "{}", 1],
 ["sum(gpu:i915_oa_busy:percent{host=\"e2e\",device=\"0000:00:02.0\",engine=\"render0\"})", "{}", 50],
 ["count(gpu:panthor_ext_read:bytes_per_second{host=\"e2e\",device=\"renderD128\",gpu=\"Mali-G720\"})", "{}", 1]]
EOF
# Both scrape configs: honor_labels (the host in instance) and the default
# (the host in exported_instance): the rules' host label is the collectd
# host either way.
for scrape in honor_labels default; do
  python3 "$CHECK" promrules "$T/metrics.txt" "$RULES" "$T/checks.json" "$scrape" >"$T/rules-test.yml"
  promtool test rules "$T/rules-test.yml" >"$T/rules-test.out" 2>&1
  tap_is 0 $? "promtool test rules ($scrape scrape): the recording rules label the scraped series"
  [[ -n ${KEEP:-} ]] && cp "$T/rules-test.out" "$KEEP/rules-test-$scrape.out"
  grep -E -A3 'FAILED|exp:' "$T/rules-test.out" | head -12 | sed 's/^/# /'
done

# The Telegraf schema: both executables' Influx lines through /write.
curl -sf -o /dev/null -XPOST "$INFLUX_URL/query" --data-urlencode 'q=CREATE DATABASE telegraf'
{
  "$B/drm_fdinfo" --format=influx --once --window=0.3 --ReportBy=Device --ReportBy=Process \
    --ReportBy=Client --ReportBy=Cgroup --ProcRoot="$FP/proc" --SysfsRoot="$FP/sys"
  LD_PRELOAD=$EXEC_PRELOAD "$B/tegra410_uncore" --format=influx --once --window=0.3 \
    --SysfsRoot="$T/sys"
  LD_PRELOAD=$EXEC_PRELOAD "$B/i915_oa" --format=influx --once --window=0 \
    --DevRoot="$T/i915/dev/dri" --SysfsRoot="$T/i915/sys" --MetricSet="$I915_UUID" \
    --EuMetrics=true
  LD_PRELOAD=$EXEC_PRELOAD "$B/panthor_perf" --format=influx --once --window=0 \
    --Device="$T/pp/renderD128"
  "$B/drm_device" --format=influx --once --window=0.3 --SysfsRoot="$T/ddv/sys"
} 2>"$T/exec.err" | sed 's/^\([^ ,]*\)\([, ]\)/\1,host=gpu-host\2/' >"$T/telegraf.lp" # the tag Telegraf adds
code=$(curl -s -o "$T/write.out" -w '%{http_code}' -XPOST \
  "$INFLUX_URL/write?db=telegraf&precision=ns" --data-binary @"$T/telegraf.lp")
tap_is 204 "$code" "InfluxDB /write takes every executable's lines ($(cat "$T/write.out"))"
v=$(influx_query telegraf 'SHOW TAG VALUES FROM "drm_engine" WITH KEY = "comm" WHERE "pid" = '"'201'" |
  python3 -c 'import json,sys; print(json.load(sys.stdin)["results"][0]["series"][0]["values"][0][1])' 2>&1)
tap_is 'evil?name' "$v" "a newline inside a process name reads back as '?', the name whole"
tap_check "collectd: the same name, escaped" grep -q 'gpu-0000:00:02.0-201-evil%3Fname' "$T/series"

# Dashboards: as generate.py writes them, every panel query against the
# live data.
mkdir -p "$T/dash"
python3 dashboards/grafana/generate.py "$T/dash"
for f in "$T"/dash/*.json; do
  tap_check "dashboards/grafana/${f##*/} is what generate.py writes" \
    cmp -s "$f" "dashboards/grafana/${f##*/}"
done
# Every dashboard can be narrowed to a host and a device (tegra410_uncore:
# a PMU in the collectd schema, a socket in the others; the host is
# Prometheus' instance label there). The per-pod board narrows to a
# namespace and a pod first (tests/e2e/kubernetes_deploy.sh checks it).
for f in dashboards/grafana/*.json; do
  [[ $f == *-kubernetes.json ]] && continue
  tap_is "$([[ $f == *-prometheus.json ]] && echo instance || echo host) $([[ $f == *tegra410* && $f != *-collectd.json ]] && echo socket || echo device)" \
    "$(python3 -c 'import json, sys
print(" ".join(v["name"] for v in json.load(open(sys.argv[1]))["templating"]["list"][:2]))' "$f" 2>&1)" \
    "${f##*/}: template variables host and device"
done
if compgen -G "dashboards/grafana/*.json" >/dev/null; then
  python3 tests/lib/grafana_queries.py "$INFLUX_URL" dashboards/grafana/*.json | verdicts
else
  tap_fail "dashboards/grafana has dashboards"
fi
tap_done
