#!/usr/bin/env bash
# The <Instance> blocks of an executable's --config (common/exec/
# exec_setup.c: exec_check_labels), with tests/tools/fake_multi:
#  - at most 1,024 instances (each is a thread): 1,024 run, 1,025 are
#    refused, and 100,000 are refused within 2 s (the labels are checked
#    in O(n log n)), each with exit 2 naming the count, the cap and the
#    place of the first block past it;
#  - a label used twice by one plugin is refused, naming it and both places;
#  - two labels the Prometheus page would show alike ("a\x01" and "a\x02"
#    both print as "a?") are refused, naming both as they are written;
#  - two 300-character labels with the same start are two series of the
#    collector gauges (the cut keeps a hash of the whole label): the page
#    passes promtool check metrics and holds no series twice.
set -uo pipefail
cd "$(dirname "$0")/../.."
source tests/lib/tap.sh
source tests/lib/require.sh
B=${BUILD:-build}
M=$B/tests/fake_multi
EXPO=tests/lib/prom_expo.py
require_cmd "exec instances" python3 promtool

T=$(mktemp -d "${TMPDIR:-/tmp}/exec-instances.XXXXXX")
trap 'rm -rf "$T"' EXIT

# instances N FILE: a config of N <Instance> blocks of fake_other
instances() {
  python3 - "$1" >"$2" <<'PY'
import sys
n = int(sys.argv[1])
out = ["LoadPlugin fake_other", "<Plugin fake_other>"]
for i in range(n):
    out += ['  <Instance "i%d">' % i, "  </Instance>"]
out.append("</Plugin>")
print("\n".join(out))
PY
}

# ---- the cap ----
instances 100000 "$T/100k.conf"
t0=$(date +%s%N)
timeout 60 "$M" --once --window=0 --config="$T/100k.conf" >"$T/out" 2>"$T/err"
rc=$?
ms=$((($(date +%s%N) - t0) / 1000000))
tap_is 2 "$rc" "100,000 instances: exit 2"
tap_check "  ... refused within 2 s (took $ms ms)" test "$ms" -lt 2000
tap_is "error: fake_multi: $T/100k.conf:2051: Instance: 100000 instances, more than the 1024 one process runs (a thread each)" \
  "$(cat "$T/err")" "  ... naming the count and the cap"
tap_is 0 "$(wc -c <"$T/out")" "  ... and nothing written"

instances 1025 "$T/1025.conf"
"$M" --once --window=0 --config="$T/1025.conf" >/dev/null 2>"$T/err"
tap_is 2 $? "1,025 instances: exit 2"
tap_check "  ... naming the count" grep -q ': 1025 instances, more than the 1024' "$T/err"

instances 1024 "$T/1024.conf"
"$M" --once --window=0 --config="$T/1024.conf" >"$T/out" 2>"$T/err"
tap_is "0|1024" "$?|$(grep -c '^fake,instance=i[0-9]* ' "$T/out")" \
  "1,024 instances: all run, one record each"

# ---- labels used twice, or shown alike ----
cat >"$T/twice.conf" <<'CONF'
LoadPlugin fake_other
<Plugin fake_other>
  <Instance "b">
  </Instance>
  <Instance "c">
  </Instance>
  <Instance "b">
  </Instance>
</Plugin>
CONF
"$M" --once --config="$T/twice.conf" >/dev/null 2>"$T/err"
tap_is "2|error: fake_other: $T/twice.conf:7: Instance: \"b\" is configured again (first at $T/twice.conf:3): one block per instance label" \
  "$?|$(cat "$T/err")" "a label used twice: exit 2, named with both places"

printf 'LoadPlugin fake_other\n<Plugin fake_other>\n  <Instance "a\001">\n  </Instance>\n  <Instance "a\002">\n  </Instance>\n</Plugin>\n' >"$T/alike.conf"
"$M" --once --config="$T/alike.conf" >/dev/null 2>"$T/err"
tap_is '2|error: fake_other: config: Instance: "a\x01" and "a\x02": shown alike ("a?") on the Prometheus page: rename one' \
  "$?|$(cat "$T/err")" "labels a\\x01 and a\\x02 (both \"a?\"): exit 2, both named"

# a label of 126 characters and a control character fits the page's 127
# uncut: shown alike; past the cut, the hash of the whole tells them apart
long=$(printf 'x%.0s' {1..126})
printf 'LoadPlugin fake_other\n<Plugin fake_other>\n  <Instance "%s\001">\n  </Instance>\n  <Instance "%s\002">\n  </Instance>\n</Plugin>\n' "$long" "$long" >"$T/alike-long.conf"
"$M" --once --config="$T/alike-long.conf" >/dev/null 2>"$T/err"
tap_is "2|1" "$?|$(grep -c "\"$long\\\\x01\" and \"$long\\\\x02\": shown alike" "$T/err")" \
  "127-character labels differing in a control character: exit 2, both named"
long=$(printf 'x%.0s' {1..200})
printf 'LoadPlugin fake_other\n<Plugin fake_other>\n  <Instance "%s\001">\n  </Instance>\n  <Instance "%s\002">\n  </Instance>\n</Plugin>\n' "$long" "$long" >"$T/hashed.conf"
"$M" --once --window=0 --format=prometheus --config="$T/hashed.conf" >"$T/page.prom" 2>"$T/err"
tap_is "0|2" "$?|$(grep '^gpu_telemetry_collector_success{' "$T/page.prom" | sed 's/}.*//' | sort -u | wc -l)" \
  "201-character labels differing in a control character: cut with their hashes, two series"

# the same labels in two plugins are two series (the plugin label differs)
printf 'LoadPlugin fake_other\nLoadPlugin fake_plugin\n<Plugin fake_other>\n  <Instance "z">\n  </Instance>\n</Plugin>\n<Plugin fake_plugin>\n  <Instance "z">\n  </Instance>\n</Plugin>\n' >"$T/two.conf"
"$M" --once --window=0 --config="$T/two.conf" >"$T/out" 2>"$T/err"
tap_is "0|2" "$?|$(grep -c '^fake,instance=z ' "$T/out")" "one label in two plugins: both run"

# ---- long labels with the same start: two series ----
a="$(printf 'p%.0s' {1..299})A"
b="$(printf 'p%.0s' {1..299})B"
printf 'LoadPlugin fake_other\n<Plugin fake_other>\n  <Instance "%s">\n  </Instance>\n  <Instance "%s">\n  </Instance>\n</Plugin>\n' "$a" "$b" >"$T/long.conf"
"$M" --once --window=0 --format=prometheus --config="$T/long.conf" >"$T/page.prom" 2>"$T/err"
tap_is 0 $? "two 300-character labels with the same start: exit 0"
# (the fake plugin's own field "counter" draws a naming lint: not ours)
tap_is "" "$(promtool check metrics <"$T/page.prom" 2>&1 | grep -v "^fake_counter_total metric name should not include type 'counter'$")" \
  "  ... promtool check metrics: no problem"
tap_is "" "$(python3 "$EXPO" check "$T/page.prom")" "  ... no series twice (prom_expo.py check)"
success=$(grep '^gpu_telemetry_collector_success{' "$T/page.prom")
tap_is "2|2" "$(wc -l <<<"$success")|$(sed 's/}.*//' <<<"$success" | sort -u | wc -l)" \
  "  ... two distinct success series"
tap_check "  ... each cut label ends in ~ and 16 hex digits" \
  test "$(grep -cE 'plugin_instance="p{110}p*~[0-9a-f]{16}"} 1$' <<<"$success")" = 2

tap_done
