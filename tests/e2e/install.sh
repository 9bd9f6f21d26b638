#!/usr/bin/env bash
# make install honours PREFIX and DESTDIR and puts every file where the
# README says; make uninstall removes them all.
set -uo pipefail
cd "$(dirname "$0")/../.."
source tests/lib/tap.sh
dest=$(mktemp -d "${TMPDIR:-/tmp}/install.XXXXXX")
trap 'rm -rf "$dest"' EXIT
make --no-print-directory -s install BUILD="${BUILD:-build}" PREFIX=/opt/gpu \
  DESTDIR="$dest" CONF_DIR=/opt/gpu/etc/collectd.conf.d >"$dest.log" 2>&1
tap_is 0 $? "make install exits 0"
for f in lib/collectd/drm_fdinfo.so bin/drm_fdinfo share/collectd/types.gpu.db \
  etc/collectd.conf.d/drm_fdinfo.conf \
  share/collectd/telegraf/telegraf-drm_fdinfo-execd-influx.conf; do
  tap_check "installed /opt/gpu/$f" test -s "$dest/opt/gpu/$f"
done
tap_check "the executable is executable" test -x "$dest/opt/gpu/bin/drm_fdinfo"
tap_check "its man page" test -s "$dest/opt/gpu/share/man/man1/drm_fdinfo.1"
# The documentation keeps its tree, so its links work where it is installed.
doc=$dest/opt/gpu/share/doc/collectd-gpu-plugins
for f in README.md HACKING.md docs/*.md plugins/*/README.md; do
  tap_check "installed share/doc/collectd-gpu-plugins/$f" cmp -s "$f" "$doc/$f"
done
out=$(cd "$doc" && python3 "$OLDPWD/tests/lib/doc_links.py" . $(find . -name '*.md' | sort) 2>&1)
tap_is "" "$out" "every link of the installed documentation resolves in its installed tree"
make --no-print-directory -s uninstall BUILD="${BUILD:-build}" PREFIX=/opt/gpu \
  DESTDIR="$dest" CONF_DIR=/opt/gpu/etc/collectd.conf.d >"$dest.log" 2>&1
tap_is 0 $? "make uninstall exits 0"
tap_is "" "$(find "$dest" -type f)" "make uninstall removes every installed file"
rm -f "$dest.log"
tap_done
