#!/usr/bin/env bash
# The collectd host (common/collectd/host_collectd.c) in the real collectd 5.12
# daemon, around the fake plugin (build/tests/fake_plugin.so,
# tests/tools/fake_plugin_ops.h): two <Instance> blocks with their own
# Interval and tags dispatch under the mapping rule's identifiers (csv
# files, unixsock GETVAL), values converted to each type's data source
# (DERIVE raw counters, GAUGE from integers, a negative COUNTER clamped to
# 0); bad blocks are dropped with exact log lines, unusable types are
# reported once, a failing read makes collectd back off, and every
# instance is freed: dropped ones at config or init, running ones at
# shutdown (the fake plugin appends to a FreeMarker file when freed).
# Then: keys outside Instance blocks, LoadPlugin alone, three Instance
# blocks with tag-less records (one series each), and no valid block.
set -uo pipefail
cd "$(dirname "$0")/../.."
source tests/lib/tap.sh
source tests/lib/collectd.sh
source tests/lib/require.sh
SO=${BUILD:-build}/tests/fake_plugin.so

require_collectd "collectd end to end" ctl
if [[ ! -f $SO ]]; then
  tap_fail "$SO is built (make tests-build)"
  tap_done
  exit 1
fi
T=$(mktemp -d "${TMPDIR:-/tmp}/collectd-host.XXXXXX")
dirs=("$T")
cleanup() {
  collectd_stop
  [[ -z ${KEEP:-} ]] && rm -rf "${dirs[@]}"
}
trap cleanup EXIT
export CD_PLUGIN_DIR=$PWD/${BUILD:-build}/tests

wait_rows() { collectd_wait_rows "$@"; }
# The differences between consecutive csv rows in column $2, one line.
diffs() { awk -F, -v c="$2" 'NR > 2 { printf "%s%s", sep, $c - p; sep = " " } NR > 1 { p = $c }' $1; }
# The median of those differences for the epoch column.
median_step() {
  diffs "$1" 1 | tr ' ' '\n' | sort -g | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'
}
in_range() { awk -v v="$1" -v lo="$2" -v hi="$3" 'BEGIN { exit !(v >= lo && v <= hi) }'; }
log_has() { tap_check "log: $1" grep -qFx -- "$1" "$CD_LOG"; }
log_once() { tap_is 1 "$(grep -cFx -- "$1" "$CD_LOG")" "log, exactly once: $1"; }

M=$T/marker
collectd_start "LoadPlugin fake_plugin
<Plugin fake_plugin>
  <Instance \"fast\">
    FreeMarker \"$M\"
    Interval 1
    Tag \"alpha\"
    Step 10
    <Field \"extra\">
      Value 7
      Type \"count\"
    </Field>
  </Instance>
  <Instance \"slow\">
    FreeMarker \"$M\"
    Interval 2
    Tag \"beta\"
    Step 3
    BadTypes true
  </Instance>
  <Instance \"flaky\">
    FreeMarker \"$M\"
    FailRead true
  </Instance>
  <Instance \"bad\">
    FreeMarker \"$M\"
    Step \"abc\"
    Tag \"never\"
  </Instance>
  <Instance \"fast\">
    FreeMarker \"$M\"
  </Instance>
  <Instance 42>
    Step 1
  </Instance>
  <Instance \"zero\">
    FreeMarker \"$M\"
    Interval 0.0001
  </Instance>
  <Instance \"noinit\">
    FreeMarker \"$M\"
    FailInit true
  </Instance>
</Plugin>"
dirs+=("$CD_DIR")
# The fake plugin has no table of collectd rules (collectd_rule.h): its
# plugin_instance is the label of a named block, then every tag value (its
# first tag is its label again), its type_instance measurement-field.
FAST_ID=fake_plugin-fast-fast-alpha
SLOW_ID=fake_plugin-slow-slow-beta
FAST=$CD_CSV/e2e/$FAST_ID
SLOW=$CD_CSV/e2e/$SLOW_ID

tap_check "csv: 4 reads of the Interval 2 instance" \
  wait_rows "$SLOW/derive-fake-counter-*" 4 30
tap_check "unixsock: the socket is up" collectd_wait_for_file "$CD_SOCK" 10

# Identifiers: plugin_instance = <label> then each tag value, joined by
# '-'; type = ctype; type_instance = measurement-field.
tap_is "$FAST_ID $SLOW_ID" \
  "$(ls "$CD_CSV/e2e" | paste -sd' ')" \
  "csv: one directory per running instance that dispatches"
tap_is "count-fake-extra count-fake-reads counter-fake-debt derive-fake-counter gauge-fake-half" \
  "$(ls "$FAST" | sed -E 's/-[0-9]{4}-[0-9]{2}-[0-9]{2}$//' | sort -u | paste -sd' ')" \
  "csv: fast: type-type_instance of every field"
tap_is "count-fake-reads counter-fake-debt derive-fake-counter gauge-fake-half" \
  "$(ls "$SLOW" | sed -E 's/-[0-9]{4}-[0-9]{2}-[0-9]{2}$//' | sort -u | paste -sd' ')" \
  "csv: slow: no file for an unknown type or a two-source type"

# Intervals from the record times (vl.time), raw values (StoreRates false).
step=$(median_step "$FAST/derive-fake-counter-*")
tap_check "csv: fast is read every 1 s (median step $step)" in_range "$step" 0.9 1.1
step=$(median_step "$SLOW/derive-fake-counter-*")
tap_check "csv: slow is read every 2 s (median step $step)" in_range "$step" 1.9 2.1
tap_is "" "$(diffs "$FAST/derive-fake-counter-*" 2 | tr ' ' '\n' | grep -vx 10)" \
  "csv: fast DERIVE raw counter advances by Step 10 at every read"
tap_is "" "$(diffs "$SLOW/derive-fake-counter-*" 2 | tr ' ' '\n' | grep -vx 3)" \
  "csv: slow DERIVE raw counter advances by Step 3 at every read"
tap_is "" "$(awk -F, 'NR > 1 && $2 != 0' "$FAST"/counter-fake-debt-*)" \
  "csv: a negative value of a COUNTER type is dispatched as 0"
tap_is "" "$(awk -F, 'NR > 1 && $2 != 7' "$FAST"/count-fake-extra-*)" \
  "csv: an integer field of a GAUGE type (<Field> block) is 7"
tap_is "" "$(paste -d, "$FAST"/derive-fake-counter-* "$FAST"/gauge-fake-half-* |
  awk -F, 'NR > 1 && ($1 != $3 || $2 / 2 != $4)')" \
  "csv: the float field is half the counter, same time"

v=$(collectd_getval "e2e/$FAST_ID/derive-fake-counter" | sed -n 's/^value=//p')
tap_check "unixsock: fast DERIVE rate is Step/Interval = 10 ($v)" in_range "$v" 9.5 10.5
v=$(collectd_getval "e2e/$SLOW_ID/derive-fake-counter" | sed -n 's/^value=//p')
tap_check "unixsock: slow DERIVE rate is 3/2 = 1.5 ($v)" in_range "$v" 1.4 1.6
tap_is "value=7.000000e+00" \
  "$(collectd_getval "e2e/$FAST_ID/count-fake-extra")" \
  "unixsock: fast extra gauge"
tap_is "value=0.000000e+00" \
  "$(collectd_getval "e2e/$FAST_ID/counter-fake-debt")" \
  "unixsock: clamped COUNTER has rate 0"

log_has '[error] fake_plugin: config: Step: expected a non-negative integer (decimal or 0x hex), got "abc"'
log_has '[error] fake_plugin: config: Instance: "bad": dropped'
log_has '[error] fake_plugin: config: Instance: "fast": label already used'
log_has '[error] fake_plugin: config: Instance: "fast": dropped'
log_has '[error] fake_plugin: config: Instance: expected one non-empty string label; block dropped'
log_has '[error] fake_plugin: config: Interval: expected a number between 0.001 and 31622400, got 0.0001'
log_has '[error] fake_plugin: config: Instance: "zero": dropped'
log_has '[error] fake_plugin: noinit: init: FailInit is set'
log_has '[error] fake_plugin: init: Instance: "noinit": dropped'
log_has '[info] fake_plugin: fast: init: step 10'
log_has '[info] fake_plugin: init: 3 instance(s) started, 5 dropped'
log_once "[error] fake_plugin: fake_no_such_type: plugin_get_ds: no such type (list the plugin's types.db after the default one in TypesDB); its fields are not dispatched"
log_once '[error] fake_plugin: io_octets: plugin_get_ds: 2 data sources, expected 1; its fields are not dispatched'
log_once "[error] fake_plugin: fake_unitless: metric_unit_find: no such field type (one unit per type: add a row to metric_unit.c or the plugin's units); its fields are not written"
log_has '[error] fake_plugin: flaky: read: Input/output error'
log_has "[notice] read-function of plugin \`fake_plugin/flaky' failed. Will suspend it for 2.000 seconds."
tap_is $'freed bad reads=0\nfreed fast reads=0\nfreed zero reads=0\nfreed noinit reads=0' \
  "$(cat "$M")" "free: dropped blocks were freed at config and init, in order"

tap_check "collectd stops on SIGTERM" collectd_stop
tap_is "fast flaky slow" \
  "$(tail -n +5 "$M" | awk '$3 != "reads=0" { print $2 }' | sort | paste -sd' ')" \
  "free: every running instance was freed at shutdown, after reading"
tap_is 7 "$(wc -l <"$M")" "free: each instance freed exactly once"

# Keys directly inside <Plugin>: one instance labelled with the plugin name.
# Its records carry 134 fields: the 128 that fit are dispatched and the
# overflow is logged (metric.h), rate-limited.
M2=$T/marker2
collectd_start "LoadPlugin fake_plugin
<Plugin fake_plugin>
  Tag \"top\"
  Step 2
  FreeMarker \"$M2\"
  Interval 1
  ExtraFields 130
</Plugin>"
dirs+=("$CD_DIR")
TOP=$CD_CSV/e2e/fake_plugin-fake_plugin-top
tap_check "top-level keys: csv under fake_plugin-fake_plugin-top" \
  wait_rows "$TOP/derive-fake-counter-*" 3 20
log_has '[info] fake_plugin: init: 1 instance(s) started, 0 dropped'
overflow='fake_plugin: fake: metric_add: 0 tags and 6 fields dropped (first "x124"; a record holds at most 16 tags and 128 fields);'
log_has "[error] $overflow 1 record so far"
log_has "[error] $overflow 2 records so far"
tap_is 0 "$(grep -c "$overflow 3 records so far" "$CD_LOG")" \
  "overflow: the third record is counted, not logged"
tap_is "1 0" "$(compgen -G "$TOP/count-fake-x123-*" | wc -l) $(compgen -G "$TOP/count-fake-x124-*" | wc -l)" \
  "overflow: the last field that fit (x123) is dispatched, x124 is not"
tap_check "top-level keys: collectd stops" collectd_stop
tap_check "top-level keys: instance freed at shutdown" \
  grep -qE '^freed fake_plugin reads=[1-9][0-9]*$' "$M2"

# LoadPlugin without a <Plugin> block: one instance with the defaults.
collectd_start "LoadPlugin fake_plugin"
dirs+=("$CD_DIR")
tap_check "LoadPlugin alone: csv under fake_plugin-fake_plugin" \
  wait_rows "$CD_CSV/e2e/fake_plugin-fake_plugin/derive-fake-counter-*" 1 20
log_has '[info] fake_plugin: init: 1 instance(s) started, 0 dropped'
tap_check "LoadPlugin alone: collectd stops" collectd_stop

# Three <Instance> blocks whose records have no tags (like drm_scan): the
# instance part keeps them apart, three series, each with its own Step.
collectd_start "LoadPlugin fake_plugin
<Plugin fake_plugin>
  <Instance \"a\">
    NoTags true
    Step 1
  </Instance>
  <Instance \"b\">
    NoTags true
    Step 2
  </Instance>
  <Instance \"c\">
    NoTags true
    Step 3
  </Instance>
</Plugin>"
dirs+=("$CD_DIR")
for l in a b c; do
  tap_check "tag-less instances: csv under fake_plugin-$l" \
    wait_rows "$CD_CSV/e2e/fake_plugin-$l/derive-fake-counter-*" 3 20
done
tap_is "fake_plugin-a fake_plugin-b fake_plugin-c" \
  "$(ls "$CD_CSV/e2e" | paste -sd' ')" "tag-less instances: three series, nothing else"
tap_check "tag-less instances: collectd stops" collectd_stop
step=1
for l in a b c; do
  tap_is "$step" "$(diffs "$CD_CSV/e2e/fake_plugin-$l/derive-fake-counter-*" 2 |
    tr ' ' '\n' | sort -u | paste -sd' ')" \
    "tag-less instances: $l advances by its own Step $step at every read"
  step=$((step + 1))
done
tap_check "tag-less instances: no 'Value too old' in the log" \
  bash -c "! grep -q 'Value too old' '$CD_LOG'"

# No valid block: init fails and collectd unloads the plugin.
collectd_start "LoadPlugin fake_plugin
<Plugin fake_plugin>
  <Instance \"a\">
    Step \"x\"
  </Instance>
  <Instance \"b\">
    FailInit true
  </Instance>
</Plugin>"
dirs+=("$CD_DIR")
tap_check "no valid block: collectd reports the failed init" \
  collectd_wait_log "Initialization of plugin .fake_plugin' failed" 20
log_has '[error] fake_plugin: init: no instance left (2 dropped)'
tap_check "no valid block: collectd stops" collectd_stop
tap_is "" "$(ls "$CD_CSV" 2>/dev/null)" "no valid block: nothing dispatched"

tap_done
