#!/usr/bin/env bash
# A plugin is its folder plus its name on the line of
# plugins/plugins.manifest: in a throwaway copy of the source tree, the
# template (tools/plugin_template) becomes plugins/tmpl_probe, its name is
# added to that line, and nothing else is edited. Then its .so and its
# executable build, the executable prints its record as JSON and Influx
# lines and as the Prometheus exposition (its own field type), the real collectd daemon loads it and writes its value, and make
# install puts the .so, the executable, the man page, both snippets and its
# type into the installed types db (make uninstall removes them).
set -uo pipefail
cd "$(dirname "$0")/../.."
source tests/lib/tap.sh
source tests/lib/require.sh
source tests/lib/collectd.sh
require_cmd "plugin template" git
require_collectd "plugin template"
unset MAKEFLAGS MFLAGS MAKELEVEL
T=$(mktemp -d "${TMPDIR:-/tmp}/plugin_template.XXXXXX")
trap 'collectd_stop >/dev/null 2>&1; [[ -n ${KEEP:-} ]] || rm -rf "$T" "${CD_DIR:-}"' EXIT
S=$T/src P=tmpl_probe
# The source tree as git has it (tracked files and new ones not ignored).
mkdir "$S"
git ls-files -z -c -o --exclude-standard | xargs -0 cp --parents -t "$S" 2>"$T/cp.err"
tap_is "" "$(cat "$T/cp.err")" "the source tree is copied"

# The template's own instructions (tools/plugin_template/README).
cp -r tools/plugin_template "$S/plugins/$P"
(cd "$S/plugins/$P" && rm README && for f in *example*; do mv "$f" "${f//example/$P}"; done &&
  sed -i "s/example/$P/g; s/EXAMPLE/TMPL_PROBE/g" -- *)
sed -i "s/^plugins = .*/& $P/" "$S/plugins/plugins.manifest"
changed=$(diff -rq --exclude=.git "$PWD" "$S" | grep -v "^Only in $PWD" | sed "s|$S/||g; s|$PWD/||g")
tap_is "Files plugins/plugins.manifest and plugins/plugins.manifest differ
Only in plugins: $P" "$changed" "the copy differs by plugins/$P and the line of plugins/plugins.manifest"

# Only the new plugin's targets (and the common library) are built.
start=$SECONDS
make -C "$S" -j2 -s BUILD=build "build/$P.so" "build/$P" build/types.gpu.db >"$T/build.log" 2>&1
tap_is 0 $? "make builds build/$P.so, build/$P and build/types.gpu.db ($((SECONDS - start)) s)"
tap_is "$(sed -n 1p "$S/types.db")" "$(sed -n 1p "$S/build/types.gpu.db")" "types.gpu.db starts with types.db"
tap_is "${P}_value           value:GAUGE:U:U" "$(tail -n 1 "$S/build/types.gpu.db")" \
  "types.gpu.db ends with the plugin's types.db fragment"

out=$("$S/build/$P" --once --format=json --Value=42 2>"$T/err")
tap_is 0 $? "$P --once --format=json exits 0"
tap_is "$P 42.0" "$(python3 -c 'import json, sys
for m in json.load(sys.stdin):
    print(m["name"], m["value"])' <<<"$out" 2>&1)" "the JSON record: name $P, field value 42"
out=$("$S/build/$P" --once --format=influx --Value=42 2>"$T/err")
tap_is 0 $? "$P --once --format=influx exits 0"
tap_check "the Influx line: $P value=42.0 TIME ($out)" grep -Eqx "$P value=42\.0 [0-9]{19}" <<<"$out"
# Prometheus: the field's type is the plugin's own (plugin_ops.units), not
# in the shared table: exposed with its HELP, nothing refused
out=$("$S/build/$P" --once --format=prometheus --Value=42 2>"$T/err")
tap_is 0 $? "$P --once --format=prometheus exits 0"
tap_is "# HELP ${P}_value $P value: the configured value
# TYPE ${P}_value gauge
${P}_value 42.0" "$(grep -E "^(# (HELP|TYPE) )?${P}_value" <<<"$out")" \
  "the Prometheus exposition: ${P}_value 42.0, its own unit row"
tap_check "the page says how its read went (gpu_telemetry_collector_success 1)" \
  grep -qx "gpu_telemetry_collector_success{plugin=\"$P\",plugin_instance=\"$P\"} 1" <<<"$out"
tap_is "" "$(cat "$T/err")" "--format=prometheus: nothing refused on stderr"

# The real daemon loads the .so with the built types db.
CD_PLUGIN_DIR=$S/build CD_TYPES_DB=$S/build/types.gpu.db collectd_start "LoadPlugin $P
<Plugin $P>
  Value 42
</Plugin>"
tap_check "collectd writes the ${P}_value series" \
  collectd_wait_rows "$CD_CSV/e2e/$P*/${P}_value*" 1 20
tap_is "42.000000" "$(tail -n 1 $CD_CSV/e2e/$P*/${P}_value* 2>/dev/null | cut -d, -f2)" \
  "its csv value is 42"
tap_check "collectd stops" collectd_stop
tap_is "" "$(grep -E '\[(error|warning)\]' "$CD_LOG")" "collectd logs no error or warning"

# make install, with the one line: the plugin is among what it installs.
tap_check "make -n install names build/$P.so" grep -q "build/$P\.so" \
  < <(make -C "$S" -n install DESTDIR="$T/root" BUILD=build 2>&1)
make -C "$S" -s install PLUGINS=$P BUILD=build DESTDIR="$T/root" >"$T/install.log" 2>&1
tap_is 0 $? "make install exits 0"
for f in lib/collectd/$P.so bin/$P share/man/man1/$P.1 share/collectd/telegraf/telegraf-$P-exec-json.conf \
  share/doc/collectd-gpu-plugins/plugins/$P/README.md; do
  tap_check "installed /usr/$f" test -s "$T/root/usr/$f"
done
tap_check "installed /etc/collectd/collectd.conf.d/$P.conf" \
  grep -qx "LoadPlugin $P" "$T/root/etc/collectd/collectd.conf.d/$P.conf"
tap_check "its type is in the installed types db" \
  grep -qx "${P}_value *value:GAUGE:U:U" "$T/root/usr/share/collectd/types.gpu.db"
make -C "$S" -s uninstall PLUGINS=$P BUILD=build DESTDIR="$T/root" >"$T/install.log" 2>&1
tap_is "" "$(find "$T/root" -type f)" "make uninstall removes every installed file"
tap_done
