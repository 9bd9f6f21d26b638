#!/usr/bin/env bash
# make install PREFIX=/usr/local, DESTDIR-free, into this machine, then the
# stock collectd with Debian's default collectd.conf, unchanged
# (tests/lib/stock_collectd.sh): the snippets in /etc/collectd/collectd.conf.d
# must find the plugins under /usr/local/lib/collectd (their PluginDir
# lines), the daemon runs, logs no error, drm_fdinfo values arrive. Then
# make uninstall: nothing installed is left and the daemon starts again.
# The machine is left as found (directories this test made are removed).
# Needs root; skipped when an installed copy (ours or the package's) would
# be overwritten.
set -uo pipefail
cd "$(dirname "$0")/../.."
source tests/lib/tap.sh
source tests/lib/require.sh
source tests/lib/stock_collectd.sh
NAME="make install PREFIX=/usr/local"
B=${BUILD:-build}
PREFIX=/usr/local
CONF=/etc/collectd/collectd.conf.d
require_root "$NAME" "installs into /usr/local and /etc: run as root (CI does)"
require_collectd "$NAME"
require_not_sanitize "$NAME" "the stock daemon loads the release build"
require_that "$NAME" "the stock config's rrdtool writer needs librrd8" \
  bash -c "! ldd /usr/lib/collectd/rrdtool.so | grep -q 'not found'"
plugins=$(make --no-print-directory -s --eval='print-plugins: ; @echo $(PLUGINS)' print-plugins)
for p in $plugins gpu-types; do
  for f in "$PREFIX/lib/collectd/$p.so" "$CONF/$p.conf" "/usr/lib/collectd/$p.so"; do
    [[ -e $f || -L $f ]] && require_skip "$NAME" "$f exists: this test would overwrite or shadow it"
  done
done

T=$(mktemp -d "${TMPDIR:-/tmp}/install-prefix.XXXXXX")
# the directories make install may create, deepest first
dirs=("$PREFIX/lib/collectd" "$PREFIX/share/collectd/telegraf" "$PREFIX/share/collectd"
  "$PREFIX/share/doc/collectd-gpu-plugins" "$PREFIX/share/man/man1" "$PREFIX/share/man"
  "$CONF")
made=()
for d in "${dirs[@]}"; do [[ -d $d ]] || made+=("$d"); done
cleanup() {
  make --no-print-directory -s uninstall BUILD="$B" PREFIX=$PREFIX >/dev/null 2>&1
  for d in "${made[@]}"; do rmdir "$d" 2>/dev/null; done
  rm -rf "$T"
}
trap cleanup EXIT

make --no-print-directory -s install BUILD="$B" PREFIX=$PREFIX >"$T/install.log" 2>&1
tap_is 0 $? "make install PREFIX=$PREFIX"
for p in $plugins; do
  tap_check "$p.so in $PREFIX/lib/collectd, $p in $PREFIX/bin, its man page" \
    test -f "$PREFIX/lib/collectd/$p.so" -a -x "$PREFIX/bin/$p" -a -f "$PREFIX/share/man/man1/$p.1"
  tap_is "PluginDir \"$PREFIX/lib/collectd\"|LoadPlugin $p|PluginDir \"/usr/lib/collectd\"" \
    "$(grep -E '^(PluginDir|LoadPlugin)' "$CONF/$p.conf" | tr '\n' '|' | sed 's/|$//')" \
    "$CONF/$p.conf loads $p from $PREFIX/lib/collectd and sets collectd's PluginDir back"
done
tap_check "README.md installed" test -f "$PREFIX/share/doc/collectd-gpu-plugins/README.md"
# man finds the pages where make install put them (man-db searches
# PREFIX/share/man for PREFIX/bin on PATH).
if command -v man >/dev/null; then
  man_w() { realpath -e "$(PATH=$PREFIX/bin:$PATH MANPATH= man -w "$1" 2>&1)" 2>&1; }
  tap_is "$PREFIX/share/man/man5/collectd-gpu-plugins.5" "$(man_w collectd-gpu-plugins)" \
    "man collectd-gpu-plugins finds its page"
  tap_is "$PREFIX/share/man/man1/drm_fdinfo.1" "$(man_w drm_fdinfo)" "man drm_fdinfo finds its page"
else
  tap_skip "man collectd-gpu-plugins finds its page" "no man (man-db) here"
fi
stock_collectd_check "after make install" "$T/install" '*/drm_fdinfo-*/*.rrd'
for p in $plugins; do
  tap_check "after make install: the stock daemon loads $p" \
    grep -q "plugin_load: plugin \"$p\" successfully loaded" <<<"$STOCK_LOG"
done

make --no-print-directory -s uninstall BUILD="$B" PREFIX=$PREFIX >"$T/uninstall.log" 2>&1
tap_is 0 $? "make uninstall PREFIX=$PREFIX"
left=()
for p in $plugins gpu-types; do
  for f in "$PREFIX/lib/collectd/$p.so" "$PREFIX/bin/$p" "$PREFIX/share/man/man1/$p.1" "$CONF/$p.conf"; do
    [[ -e $f ]] && left+=("$f")
  done
done
for f in "$PREFIX/share/collectd/types.gpu.db" "$PREFIX/share/doc/collectd-gpu-plugins" \
  "$PREFIX/share/collectd/telegraf"; do
  [[ -e $f ]] && left+=("$f")
done
tap_is "" "${left[*]}" "make uninstall leaves none of the installed files"
stock_collectd_check "after make uninstall" "$T/uninstall" ""
tap_done
