#!/usr/bin/env bash
# The Debian packages: `dpkg-buildpackage -us -uc -b` in a temp copy of the
# tree builds collectd-gpu-plugins and gpu-telemetry-tools, lintian finds
# no error, every plugin of the Makefile's PLUGINS is in them (debian/ takes
# them by glob), `dpkg -i` installs them into this system, and the stock
# collectd daemon, with the Include block of Debian's own collectd.conf and
# no TypesDB line, loads every plugin and resolves every type of the
# installed types.gpu.db. Packages this test installed are purged at the end.
set -uo pipefail
cd "$(dirname "$0")/../.."
source tests/lib/tap.sh
source tests/lib/require.sh
source tests/lib/types_fields.sh
NAME="Debian packages"
require_root "$NAME" "dpkg -i installs into this system: run as root (CI does)"
require_collectd "$NAME"
require_cmd "$NAME" dpkg-buildpackage dh lintian
require_not_sanitize "$NAME" "the packages are the release build"
B=${BUILD:-build}
COLLECTD=${COLLECTD:-/usr/sbin/collectd}
PKGS=(collectd-gpu-plugins gpu-telemetry-tools)

T=$(mktemp -d "${TMPDIR:-/tmp}/debian-package.XXXXXX")
PID=
installed_here=()
cleanup() {
  [[ -n $PID ]] && kill "$PID" 2>/dev/null && wait "$PID" 2>/dev/null
  if [[ ${#installed_here[@]} -gt 0 ]]; then
    for _ in $(seq 1 30); do
      dpkg -P "${installed_here[@]}" >/dev/null 2>&1 && break
      sleep 1
    done
  fi
  rm -rf "$T"
}
trap cleanup EXIT
for p in "${PKGS[@]}"; do
  status=$(dpkg-query -W -f='${db:Status-Abbrev}' "$p" 2>/dev/null || true)
  [[ $status == ii* ]] || installed_here+=("$p")
done

# A clean copy: the tracked and new files, no build output.
mkdir -p "$T/src"
if git rev-parse --git-dir >/dev/null 2>&1; then
  git ls-files -z --cached --others --exclude-standard |
    xargs -0 -I{} sh -c 'test -e "{}" && printf "%s\0" "{}"' |
    tar --null -T - -cf - | tar -xf - -C "$T/src"
else
  tar --exclude=./build -cf - . | tar -xf - -C "$T/src"
fi
(cd "$T/src" && dpkg-buildpackage -us -uc -b) >"$T/build.log" 2>&1
tap_is 0 $? "dpkg-buildpackage -us -uc -b ($(grep -m1 -E 'error|Error' "$T/build.log"))"
ver=$(dpkg-parsechangelog -l debian/changelog -S Version)
arch=$(dpkg --print-architecture)
for p in "${PKGS[@]}"; do
  tap_check "built ${p}_${ver}_$arch.deb" test -s "$T/${p}_${ver}_$arch.deb"
done
lintian --fail-on error "$T"/*.changes >"$T/lintian.log" 2>&1
tap_is 0 $? "lintian: no error ($(grep -c '^E:' "$T/lintian.log") E: lines)"
grep '^E:' "$T/lintian.log" | head -5 | sed 's/^/# /'

plugins=$(make --no-print-directory -s --eval='print-plugins: ; @echo $(PLUGINS)' print-plugins)
dpkg -c "$T/collectd-gpu-plugins_${ver}_$arch.deb" | awk '{ print $6 }' >"$T/plugins.list"
dpkg -c "$T/gpu-telemetry-tools_${ver}_$arch.deb" | awk '{ print $6 }' >"$T/tools.list"
for p in $plugins; do
  tap_check "collectd-gpu-plugins has $p.so and its snippet" \
    bash -c "grep -qx './usr/lib/collectd/$p.so' '$T/plugins.list' &&
      grep -qx './etc/collectd/collectd.conf.d/$p.conf' '$T/plugins.list'"
  tap_check "gpu-telemetry-tools has /usr/bin/$p and its Telegraf examples" \
    bash -c "grep -qx './usr/bin/$p' '$T/tools.list' &&
      grep -q './etc/telegraf/telegraf.d/telegraf-$p-exec-influx.conf.example' '$T/tools.list'"
done
tap_is "" "$(grep -E '^\./etc/telegraf/.*\.conf$' "$T/tools.list")" \
  "no Telegraf snippet is active by default (only *.conf.example)"

# dpkg does not wait for its lock (another apt may be running): retry 60 s.
for _ in $(seq 1 60); do
  dpkg -i "$T/collectd-gpu-plugins_${ver}_$arch.deb" "$T/gpu-telemetry-tools_${ver}_$arch.deb" \
    >"$T/dpkg.log" 2>&1
  rc=$?
  [[ $rc -ne 0 ]] && grep -q 'lock' "$T/dpkg.log" || break
  sleep 1
done
tap_is 0 $rc "dpkg -i installs both ($(tail -1 "$T/dpkg.log"))"
tap_is "TypesDB \"/usr/share/collectd/types.db\" \"/usr/share/collectd/types.gpu.db\"" \
  "$(grep -v '^#' /etc/collectd/collectd.conf.d/gpu-types.conf)" \
  "installed gpu-types.conf: collectd's types and ours"
for p in $plugins; do
  tap_check "/usr/bin/$p --help runs" bash -c "/usr/bin/$p --help >/dev/null 2>&1"
done

# Debian's collectd.conf, cut to what a test may run: no TypesDB line, our
# csv and log, then its own Include of /etc/collectd/collectd.conf.d.
stock=/usr/share/doc/collectd-core/examples/collectd.conf
include=$(sed -n '/^<Include "\/etc\/collectd\/collectd.conf.d">/,/^<\/Include>/p' "$stock" 2>/dev/null)
[[ -n $include ]] || include='<Include "/etc/collectd/collectd.conf.d">
	Filter "*.conf"
</Include>'
mkdir -p "$T/var"
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
$(types_fields /usr/share/collectd/types.gpu.db)
</Plugin>
PluginDir "/usr/lib/collectd"
$include
CONF
"$COLLECTD" -f -C "$T/collectd.conf" >"$T/stdout" 2>&1 &
PID=$!
t=$(types_names /usr/share/collectd/types.gpu.db | tail -1)
for _ in $(seq 1 100); do
  compgen -G "$T/csv/e2e/fake_plugin-*/$t-fake_$t-*" >/dev/null &&
    compgen -G "$T/csv/e2e/drm_fdinfo-*/objects-drm_scan_clients-*" >/dev/null && break
  kill -0 "$PID" 2>/dev/null || break
  sleep 0.1
done
exists() { compgen -G "$1" >/dev/null; }
for t in $(types_names /usr/share/collectd/types.gpu.db); do
  tap_check "installed type $t resolves" exists "$T/csv/e2e/fake_plugin-*/$t-fake_$t-*"
done
tap_check "drm_fdinfo from the package writes its scan statistics" \
  exists "$T/csv/e2e/drm_fdinfo-*/objects-drm_scan_clients-*"
kill "$PID" && wait "$PID" 2>/dev/null
PID=
for p in $plugins; do
  tap_check "the stock daemon loads $p from the package" \
    grep -q "plugin_load: plugin \"$p\" successfully loaded" "$T/collectd.log"
done
tap_is "" "$(grep -E 'Dataset not found|no such type|plugin_get_ds|Load plugin .* failed' "$T/collectd.log")" \
  "no value dropped for an unknown type, no load failure"
tap_done
