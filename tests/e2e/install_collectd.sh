#!/usr/bin/env bash
# The installed tree as a stock Debian collectd uses it: `make install`
# into a prefix, then the real daemon with Debian's own way of taking
# snippets (`<Include "/etc/collectd/collectd.conf.d"> Filter "*.conf"`,
# here the installed conf dir) and no TypesDB line of its own. The
# installed gpu-types.conf must make both collectd's default types and
# ours resolve: a field of every type of types.gpu.db (fake plugin) and
# drm_fdinfo's standard ones are written, every plugin of
# plugins/plugins.manifest is loaded by its installed snippet (which sets
# PluginDir to the prefix's plugin directory itself), and nothing is
# dropped for an unknown type.
set -uo pipefail
cd "$(dirname "$0")/../.."
source tests/lib/tap.sh
source tests/lib/require.sh
source tests/lib/types_fields.sh
B=${BUILD:-build}
COLLECTD=${COLLECTD:-/usr/sbin/collectd}
require_cmd "installed tree in collectd" "$COLLECTD"

T=$(mktemp -d "${TMPDIR:-/tmp}/install-collectd.XXXXXX")
PID=
cleanup() {
  [[ -n $PID ]] && kill "$PID" 2>/dev/null && wait "$PID" 2>/dev/null
  rm -rf "$T"
}
trap cleanup EXIT
make --no-print-directory -s install BUILD="$B" PREFIX="$T/usr" \
  CONF_DIR="$T/etc/collectd/collectd.conf.d" >"$T/install.log" 2>&1
tap_is 0 $? "make install into a prefix"
tap_is "TypesDB \"/usr/share/collectd/types.db\" \"$T/usr/share/collectd/types.gpu.db\"" \
  "$(grep -v '^#' "$T/etc/collectd/collectd.conf.d/gpu-types.conf")" \
  "gpu-types.conf lists collectd's default types and ours"

# collectd.conf as Debian's, cut to what a test may run: no TypesDB line,
# the snippets taken from the conf dir at the end.
cat >"$T/collectd.conf" <<CONF
Hostname "e2e"
FQDNLookup false
BaseDir "$T/var"
PIDFile "$T/collectd.pid"
Interval 1
LoadPlugin logfile
<Plugin logfile>
  LogLevel info
  File "$T/collectd.log"
  Timestamp false
  PrintSeverity true
</Plugin>
LoadPlugin csv
<Plugin csv>
  DataDir "$T/csv"
  StoreRates false
</Plugin>
PluginDir "$PWD/$B/tests"
LoadPlugin fake_plugin
<Plugin fake_plugin>
$(types_fields "$B/types.gpu.db")
</Plugin>
<Include "$T/etc/collectd/collectd.conf.d">
  Filter "*.conf"
</Include>
CONF
mkdir -p "$T/var"
preload=
if [[ ${SANITIZE:-} == 1 ]]; then
  # the installed plugins are the ASan/UBSan build: the daemon is not, so
  # the runtimes go first (as tests/lib/collectd.sh does)
  preload="$(${CC:-cc} -print-file-name=libasan.so):$(${CC:-cc} -print-file-name=libubsan.so)"
fi
LD_PRELOAD=$preload ASAN_OPTIONS=detect_leaks=0 \
  "$COLLECTD" -f -C "$T/collectd.conf" >"$T/stdout" 2>&1 &
PID=$!
found=0
for _ in $(seq 1 100); do
  if compgen -G "$T/csv/e2e/fake_plugin-*/uncore_latency_seconds-fake-uncore_latency_seconds-*" >/dev/null &&
    compgen -G "$T/csv/e2e/drm_fdinfo-*/objects-scan-clients-*" >/dev/null; then
    found=1
    break
  fi
  kill -0 "$PID" 2>/dev/null || break
  sleep 0.1
done
tap_is 1 "$found" "custom (uncore_*) and default (objects) types are written"
exists() { compgen -G "$1" >/dev/null; }
for t in $(types_names "$B/types.gpu.db"); do
  tap_check "type $t (ours) written" exists "$T/csv/e2e/fake_plugin-*/$t-fake-$t-*"
done
tap_check "the default gauge type still resolves" exists "$T/csv/e2e/fake_plugin-*/gauge-fake-half-*"
kill "$PID" && wait "$PID" 2>/dev/null
PID=
for p in $(make --no-print-directory -s --eval='print-plugins: ; @echo $(PLUGINS)' print-plugins); do
  tap_check "installed $p.so loaded by its snippet" \
    grep -q "plugin_load: plugin \"$p\" successfully loaded" "$T/collectd.log"
done
tap_is "" "$(grep -E 'Dataset not found|no such type|plugin_get_ds' "$T/collectd.log")" \
  "no value dropped for an unknown type"
tap_done
