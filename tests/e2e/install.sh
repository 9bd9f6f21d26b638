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
# The dashboards and the Prometheus rules (not the rules' unit tests).
for f in dashboards/grafana/*.json dashboards/prometheus/*.yml; do
  [[ $f == *.test.yml ]] && continue
  tap_check "installed share/gpu-telemetry/${f#dashboards/}" cmp -s "$f" "$dest/opt/gpu/share/gpu-telemetry/${f#dashboards/}"
done
# Every man page carries the package version (debian/changelog's, as
# --version prints it) and renders without a groff warning.
VERSION=$(sed -n '1s/.*(\(.*\)).*/\1/p' debian/changelog)
for m in "$dest"/opt/gpu/share/man/man1/*.1 "$dest/opt/gpu/share/man/man5/collectd-gpu-plugins.5"; do
  tap_is "collectd-gpu-plugins $VERSION" \
    "$(sed -nE '1s/^\.TH +[^ ]+ +[0-9] +"[^"]*" +"([^"]*)".*/\1/p' "$m" 2>&1 | sed 's/\\-/-/g')" \
    "${m#"$dest"}: .TH names collectd-gpu-plugins $VERSION"
  tap_is "" "$(groff -man -ww -z "$m" 2>&1)" "${m#"$dest"}: groff -ww finds nothing"
done
# collectd-gpu-plugins(5): each plugin's section holds every key its
# configure code matches (read from its sources, as exec_options.sh does).
man5=$dest/opt/gpu/share/man/man5/collectd-gpu-plugins.5
for p in $(make --no-print-directory -s --eval='print-plugins: ; @echo $(PLUGINS)' print-plugins); do
  missing=
  for k in $(grep -ohE 'cfg_key_is\([a-z_]+, "[A-Za-z]+"\)' "plugins/$p"/*.c | sed -E 's/.*"(.*)".*/\1/' | sort -u); do
    sed -n "/^\.SS $(sed 's/_/\\_/g; s/-/\\\\-/g' <<<"$p")\$/,/^\.SS /p" "$man5" |
      grep -qE "^\.BI \"(<[A-Za-z]+ \" name \"> )?$k \"" || missing="$missing $k"
  done
  tap_is "" "$missing" "collectd-gpu-plugins(5), $p: every key its configure code matches"
done
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
