#!/usr/bin/env bash
# The host context and the drain hook (common/core/plugin.h,
# plugin_host.h) in both hosts, around the fake plugin
# (tests/tools/fake_plugin_ops.h): init() receives each instance's own read
# interval; a plugin asking to be drained more often than it is read gets
# drain() calls between reads, never at the same time as read(); without
# the hook nothing changes. JSON output is read with jq.
set -uo pipefail
cd "$(dirname "$0")/../.."
source tests/lib/tap.sh
source tests/lib/collectd.sh
BIN=${BUILD:-build}/tests/fake_plugin
SO=${BUILD:-build}/tests/fake_plugin.so
T=$(mktemp -d "${TMPDIR:-/tmp}/host-context.XXXXXX")
dirs=("$T")
cleanup() {
  collectd_stop
  [[ -z ${KEEP:-} ]] && rm -rf "${dirs[@]}"
}
trap cleanup EXIT

if ! command -v jq >/dev/null; then
  tap_fail "jq is not installed (tools/deps.sh test installs it)"
  tap_done
  exit 1
fi

# Field $2 of every JSON line of file $1, space-separated.
# --once and --interval print one array per batch, --execd one object a line
values() { jq -r "if type == \"array\" then .[] else . end | .$2" "$1" | paste -sd' '; }
# Exit 0 when the numbers of the list strictly increase.
increasing() { awk '{ for (i = 2; i <= NF; i++) if ($i <= $(i - 1)) exit 1 }' <<<"$1"; }

# --interval: 4 batches, drained every 0.05 s between reads 0.3 s apart.
"$BIN" --interval=0.3 --DrainInterval=0.05 --ReportHost=true \
  --format=json 2>"$T/interval.err" | head -n 4 >"$T/interval.json"
tap_is "300000000 300000000 300000000 300000000" \
  "$(values "$T/interval.json" interval_ns)" \
  "exec --interval: init() is given the 0.3 s interval"
drains=$(values "$T/interval.json" drains)
tap_check "exec --interval: drains grow between reads ($drains)" increasing "$drains"
tap_is "0 0 0 0" "$(values "$T/interval.json" overlaps)" \
  "exec --interval: read and drain never overlap"

# --once: the window is the interval; drains happen inside it.
"$BIN" --once --window=0.3 --DrainInterval=0.05 --ReportHost=true \
  --format=json >"$T/once.json" 2>"$T/once.err"
tap_is "300000000" "$(values "$T/once.json" interval_ns)" \
  "exec --once: init() is given the window as the interval"
tap_check "exec --once: drained during the window" \
  test "$(values "$T/once.json" drains)" -ge 1

# --execd: drains while waiting for Telegraf's next line on stdin.
{
  echo
  sleep 0.4
  echo
} | "$BIN" --execd --DrainInterval=0.05 --format=json >"$T/execd.json" \
  2>"$T/execd.err"
drains=$(values "$T/execd.json" drains)
tap_check "exec --execd: drained between two lines ($drains)" increasing "$drains"

# No DrainInterval: the hook is never called and adds no field.
"$BIN" --once --window=0 --format=json >"$T/plain.json" 2>&1
tap_is "null" "$(values "$T/plain.json" drains)" \
  "exec: no drain field without DrainInterval"

if [[ ! -x $COLLECTD || ! -f $SO ]]; then
  tap_skip "collectd host context" "collectd-core or $SO is missing"
  tap_done
  exit
fi
export CD_PLUGIN_DIR=$PWD/${BUILD:-build}/tests
collectd_start "LoadPlugin fake_plugin
<Plugin fake_plugin>
  <Instance \"alpha\">
    Interval 1
    ReportHost true
    DrainInterval 0.2
  </Instance>
  <Instance \"beta\">
    Interval 2
    ReportHost true
  </Instance>
</Plugin>"
dirs+=("$CD_DIR")

# The last value column of the csv file matching a glob, one per row.
column() { awk -F, 'NR > 1 { printf "%d\n", $2 }' $1 | paste -sd' '; }
rows() { collectd_wait_rows "$@"; }
ALPHA="$CD_CSV/e2e/fake_plugin-*alpha*"
BETA="$CD_CSV/e2e/fake_plugin-*beta*"
tap_check "collectd: 3 reads of alpha" rows "$ALPHA/count-fake-drains-*" 3 30
tap_check "collectd: 2 reads of beta" rows "$BETA/gauge-fake-interval_ns-*" 2 30
tap_is "" "$(column "$ALPHA/gauge-fake-interval_ns-*" | tr ' ' '\n' | grep -vx 1000000000)" \
  "collectd: alpha's init() is given its Interval 1"
tap_is "" "$(column "$BETA/gauge-fake-interval_ns-*" | tr ' ' '\n' | grep -vx 2000000000)" \
  "collectd: beta's init() is given its Interval 2"
drains=$(column "$ALPHA/count-fake-drains-*")
tap_check "collectd: alpha is drained between reads ($drains)" increasing "$drains"
tap_is "" "$(column "$ALPHA/count-fake-overlaps-*" | tr ' ' '\n' | grep -vx 0)" \
  "collectd: read and drain never overlap"
tap_is "" "$(ls -d $BETA/count-fake-drains-* 2>/dev/null)" \
  "collectd: beta has no drain hook"
tap_check "collectd: stops cleanly" collectd_stop
tap_is "" "$(grep -E '^\[(error|warning)\]' "$CD_LOG")" \
  "collectd: no error or warning in the log"
tap_done
