#!/usr/bin/env bash
# The Debian packages through their whole life with the real dpkg and the
# stock collectd (tests/lib/stock_collectd.sh: Debian's default
# collectd.conf, unchanged, on this machine without GPU or Tegra410):
# - dpkg-buildpackage in a temp copy of the tree; Debian's hardening flags
#   (fortify among them) on every compile and link line of the build log;
#   lintian --pedantic finds no error and no warning; every plugin of
#   PLUGINS is in the packages with its snippet, executable and man page.
# - install: the snippets are linked into collectd.conf.d; the daemon runs,
#   logs no error, and drm_fdinfo values arrive.
# - remove: the links go, the conffiles stay; the daemon starts again.
# - reinstall after remove: the links come back, values arrive.
# - upgrade: a link the admin removed stays removed, a local edit of a
#   snippet stays; values arrive.
# - purge: nothing of ours is left in /etc; the daemon starts.
# - upgrade from 0.1.0, whose snippets were conffiles in collectd.conf.d:
#   they move, a local edit with them, and are linked.
# The machine is left as found: packages this test installed are purged, a
# collectd.conf.d it made is removed. Needs root (dpkg -i).
set -uo pipefail
cd "$(dirname "$0")/../.."
# make's output is read: flags of a calling make (-s) must not reach it
unset MAKEFLAGS MFLAGS MAKELEVEL
source tests/lib/tap.sh
source tests/lib/require.sh
source tests/lib/stock_collectd.sh
NAME="Debian packages"
require_root "$NAME" "dpkg -i installs into this system: run as root (CI does)"
require_collectd "$NAME"
require_cmd "$NAME" dpkg-buildpackage dh lintian
require_not_sanitize "$NAME" "the packages are the release build"
require_that "$NAME" "the stock config's rrdtool writer needs librrd8" \
  bash -c "! ldd /usr/lib/collectd/rrdtool.so | grep -q 'not found'"
PKGS=(collectd-gpu-plugins gpu-telemetry-tools)
for p in "${PKGS[@]}"; do
  status=$(dpkg-query -W -f='${db:Status-Abbrev}' "$p" 2>/dev/null || true)
  [[ $status == [ir][ic]* ]] &&
    require_skip "$NAME" "$p is installed ($status) on this machine: this test would remove it"
done
ENABLED=/etc/collectd/collectd.conf.d
AVAILABLE=/etc/collectd/gpu-plugins
STATE=/var/lib/collectd-gpu-plugins
VALUES='*/drm_fdinfo-*/*.rrd'

T=$(mktemp -d "${TMPDIR:-/tmp}/debian-package.XXXXXX")
enabled_existed=0
[[ -d $ENABLED ]] && enabled_existed=1
cleanup() {
  # dpkg does not wait for its lock (another apt may be running)
  for _ in $(seq 1 30); do
    dpkg -P "${PKGS[@]}" >/dev/null 2>&1 && break
    sleep 1
  done
  [[ $enabled_existed == 0 ]] && rmdir "$ENABLED" 2>/dev/null
  rm -rf "$T"
}
trap cleanup EXIT

dpkg_do() { # dpkg arguments...; retries while another dpkg holds the lock
  local rc
  for _ in $(seq 1 60); do
    dpkg --force-confold "$@" >"$T/dpkg.log" 2>&1
    rc=$?
    [[ $rc -ne 0 ]] && grep -q 'lock' "$T/dpkg.log" || break
    sleep 1
  done
  [[ $rc -eq 0 ]] || sed 's/^/# /' "$T/dpkg.log" | tail -10
  return $rc
}

# A clean copy: the tracked and new files, no build output.
mkdir -p "$T/src"
git ls-files -z --cached --others --exclude-standard |
  xargs -0 -I{} sh -c 'test -e "{}" && printf "%s\0" "{}"' |
  tar --null -T - -cf - | tar -xf - -C "$T/src"
(cd "$T/src" && dpkg-buildpackage -us -uc -b) >"$T/build.log" 2>&1
tap_is 0 $? "dpkg-buildpackage -us -uc -b ($(grep -m1 -E 'error|Error' "$T/build.log"))"
ver=$(dpkg-parsechangelog -l debian/changelog -S Version)
arch=$(dpkg --print-architecture)
deb() { echo "$T/${1}_${ver}_$arch.deb"; }
for p in "${PKGS[@]}"; do
  tap_check "built ${p}_${ver}_$arch.deb" test -s "$(deb "$p")"
done

# Debian's hardening flags: every compile line has fortify and the stack
# protector, every link line relro and now.
cc_lines=$(grep -E '^cc .* -c ' "$T/build.log")
ld_lines=$(grep -E '^cc .* -o build/deb/[a-z0-9_-]+(\.so)? ' "$T/build.log")
tap_check "the build log shows the compile lines" test -n "$cc_lines"
tap_is "" "$(grep -vE -- '-D_FORTIFY_SOURCE=2 .*-O2 .*-fstack-protector-strong' <<<"$cc_lines" | head -3)" \
  "every compile line has -D_FORTIFY_SOURCE=2, -O2 and -fstack-protector-strong"
n_plugins=$(make --no-print-directory -s --eval='print-plugins: ; @echo $(PLUGINS)' print-plugins | wc -w)
tap_is $((2 * n_plugins + 1)) "$(grep -c . <<<"$ld_lines")" \
  "the build log shows the $((2 * n_plugins + 1)) link lines (a .so and an executable per plugin, gpu-telemetry)"
tap_is "" "$(grep -vE -- '-Wl,-z,relro -Wl,-z,now' <<<"$ld_lines" | head -3)" \
  "every link line has -Wl,-z,relro -Wl,-z,now"

lintian --pedantic --fail-on error,warning "$T"/*.changes >"$T/lintian.log" 2>&1
tap_is 0 $? "lintian --pedantic: $(grep -c '^E:' "$T/lintian.log") E, $(grep -c '^W:' "$T/lintian.log") W"
grep -E '^[EW]:' "$T/lintian.log" | head -10 | sed 's/^/# /'

plugins=$(make --no-print-directory -s --eval='print-plugins: ; @echo $(PLUGINS)' print-plugins)
dpkg -c "$(deb collectd-gpu-plugins)" | awk '{ print $6 }' >"$T/plugins.list"
dpkg -c "$(deb gpu-telemetry-tools)" | awk '{ print $6 }' >"$T/tools.list"
dpkg-deb -f "$(deb collectd-gpu-plugins)" Description >"$T/description"
dpkg-deb -I "$(deb collectd-gpu-plugins)" conffiles >"$T/conffiles"
for p in $plugins; do
  tap_check "collectd-gpu-plugins has $p.so and its snippet as a conffile in $AVAILABLE" \
    bash -c "grep -qx './usr/lib/collectd/$p.so' '$T/plugins.list' &&
      grep -qx '$AVAILABLE/$p.conf' '$T/conffiles'"
  tap_check "gpu-telemetry-tools has /usr/bin/$p, its man page and its Telegraf examples" \
    bash -c "grep -qx './usr/bin/$p' '$T/tools.list' &&
      grep -qx './usr/share/man/man1/$p.1.gz' '$T/tools.list' &&
      grep -q './etc/telegraf/telegraf.d/telegraf-$p-exec-influx.conf.example' '$T/tools.list'"
  tap_check "the description names $p" grep -q "$p" "$T/description"
  tap_check "the changelog names $p" bash -c "dpkg-parsechangelog -l debian/changelog -S Changes | grep -q '$p'"
done
# Every dashboard and rules file is in one of the packages, under
# /usr/share/gpu-telemetry: the collectd schema's with the plugins, the
# executables' (Telegraf, Prometheus) with the tools.
want=$(for f in dashboards/grafana/*.json dashboards/prometheus/*.yml; do
  [[ $f == *.test.yml ]] || echo "./usr/share/gpu-telemetry/${f#dashboards/}"
done | sort)
tap_is "$want" "$(grep -h '^\./usr/share/gpu-telemetry/.*\.' "$T/plugins.list" "$T/tools.list" | sort)" \
  "the packages ship every dashboard and rules file in /usr/share/gpu-telemetry"
tap_is "" "$(grep -E '^\./usr/share/gpu-telemetry/.*((telegraf|prometheus)\.json|exporter)' "$T/plugins.list")" \
  "collectd-gpu-plugins ships only the collectd schema's dashboards and rules"
tap_check "collectd-gpu-plugins has collectd-gpu-plugins(5)" \
  grep -qx './usr/share/man/man5/collectd-gpu-plugins.5.gz' "$T/plugins.list"
tap_is "" "$(grep "^\./$ENABLED" "$T/plugins.list")" \
  "nothing is shipped in $ENABLED (the links are made by postinst)"
# The documentation as make install lays it out, in both packages
# (dh_compress gzips the files over 4 KiB).
docs=$(for f in README.md HACKING.md docs/*.md; do echo "$f"; done
  for p in $plugins; do echo "plugins/$p/README.md"; done)
for p in "${PKGS[@]}"; do
  list=$T/$([[ $p == collectd-* ]] && echo plugins || echo tools).list
  missing=
  for f in $docs; do
    grep -qxE "\./usr/share/doc/$p/$f(\.gz)?" "$list" || missing="$missing $f"
  done
  tap_is "" "$missing" "$p installs README.md, HACKING.md, docs/*.md and every plugin's README.md"
done
# Each man page's FILES names documentation the package has.
for p in $plugins; do
  for f in $(sed -n 's/^\.I \(\/usr\/share\/doc\/.*\)/\1/p' "plugins/$p/$p.1" | sed 's/\\//g'); do
    tap_check "$p.1 names $f, which gpu-telemetry-tools has" grep -qx ".$f" "$T/tools.list"
  done
done
tap_is "" "$(grep -E '^\./etc/telegraf/.*\.conf$' "$T/tools.list")" \
  "no Telegraf snippet is active by default (only *.conf.example)"

links_of() { # the snippets linked into collectd.conf.d, by name
  local l out=()
  for l in "$ENABLED"/*.conf; do
    [[ -L $l && $(readlink "$l") == "../gpu-plugins/${l##*/}" ]] && out+=("${l##*/}")
  done
  echo "${out[*]}"
}
all_links=$(for p in gpu-types $plugins; do echo "$p.conf"; done | sort | tr '\n' ' ' | sed 's/ $//')

# Before: the stock daemon as this machine has it (reported, not asserted:
# a collectd.conf.d missing before the package is the machine's state).
stock_collectd_run "$T/before" "" 0
echo "# before install: the stock collectd $([[ $STOCK_UP == 1 ]] && echo runs || echo "does not start: $(grep -m1 -iE 'error|failed' <<<"$STOCK_LOG")")"

# Install.
dpkg_do -i "$(deb collectd-gpu-plugins)" "$(deb gpu-telemetry-tools)"
tap_is 0 $? "dpkg -i installs both"
tap_is "$all_links" "$(links_of | tr ' ' '\n' | sort | tr '\n' ' ' | sed 's/ $//')" \
  "install links every snippet into $ENABLED"
tap_is "TypesDB \"/usr/share/collectd/types.db\" \"/usr/share/collectd/types.gpu.db\"" \
  "$(grep -v '^#' "$ENABLED/gpu-types.conf")" "gpu-types.conf: collectd's types and ours"
for p in $plugins; do
  tap_check "/usr/bin/$p --help runs" bash -c "/usr/bin/$p --help >/dev/null 2>&1"
  tap_check "man $p renders" bash -c "man -l /usr/share/man/man1/$p.1.gz 2>&1 >/dev/null | grep -q . && exit 1; man -l /usr/share/man/man1/$p.1.gz | grep -q '$p'"
done
if command -v man >/dev/null; then
  tap_is /usr/share/man/man5/collectd-gpu-plugins.5.gz "$(MANPATH= man -w collectd-gpu-plugins 2>&1)" \
    "man collectd-gpu-plugins finds the collectd side's page"
  tap_check "man collectd-gpu-plugins renders, every plugin's section in it" bash -c \
    "man collectd-gpu-plugins 2>/dev/null | grep -c '^   [a-z0-9_]*\$' | grep -qx $(wc -w <<<"$plugins")"
fi
# gpu-telemetry: its executable, man page, service (installed, disabled,
# not started; systemd-analyze verify clean) and /etc/default file
tap_check "/usr/bin/gpu-telemetry --help runs" bash -c "/usr/bin/gpu-telemetry --help >/dev/null 2>&1"
tap_check "man gpu-telemetry renders" bash -c "man -l /usr/share/man/man1/gpu-telemetry.1.gz 2>&1 >/dev/null | grep -q . && exit 1; man -l /usr/share/man/man1/gpu-telemetry.1.gz | grep -q 'gpu-telemetry'"
tap_check "gpu-telemetry-tools installs /lib/systemd/system/gpu-telemetry.service" \
  test -f /lib/systemd/system/gpu-telemetry.service
tap_check "/etc/default/gpu-telemetry is a conffile" \
  grep -qx /etc/default/gpu-telemetry /var/lib/dpkg/info/gpu-telemetry-tools.conffiles
tap_check "gpu-telemetry.service is not enabled by the install" \
  test ! -e /etc/systemd/system/multi-user.target.wants/gpu-telemetry.service
# the generator that gives the unit the GPU groups the host has (the unit
# names none: a missing group would stop it)
GEN=/lib/systemd/system-generators/gpu-telemetry-generator
tap_check "gpu-telemetry-tools installs the executable $GEN" test -x "$GEN"
tap_is "" "$(grep '^SupplementaryGroups=' /lib/systemd/system/gpu-telemetry.service)" \
  "gpu-telemetry.service names no group"
rm -rf "$T/gen"
"$GEN" "$T/gen" "$T/gen.early" "$T/gen.late"
want=$(for g in render video; do getent group "$g" >/dev/null && echo "$g"; done | paste -sd' ')
if [[ -n $want ]]; then
  tap_is "SupplementaryGroups=$want" \
    "$(grep '^Supp' "$T/gen/gpu-telemetry.service.d/50-gpu-groups.conf" 2>/dev/null)" \
    "the generator gives this host's GPU groups ($want)"
else
  tap_check "the generator writes nothing on a host without render and video groups" \
    test ! -e "$T/gen/gpu-telemetry.service.d"
fi
if command -v systemd-analyze >/dev/null; then
  out=$(systemd-analyze verify --man="$(command -v man >/dev/null && echo yes || echo no)" \
    gpu-telemetry.service 2>&1 | grep 'gpu-telemetry')
  tap_is "" "$out" "systemd-analyze verify gpu-telemetry.service: nothing said"
else
  tap_skip "systemd-analyze verify gpu-telemetry.service" "no systemd-analyze"
fi
stock_collectd_check "after install" "$T/install" "$VALUES"
for p in $plugins; do
  tap_check "after install: the stock daemon loads $p" \
    grep -q "plugin_load: plugin \"$p\" successfully loaded" <<<"$STOCK_LOG"
done
tap_is "" "$(grep -E 'Dataset not found|no such type|plugin_get_ds' <<<"$STOCK_LOG")" \
  "after install: no value dropped for an unknown type"

# Remove.
dpkg_do -r collectd-gpu-plugins
tap_is 0 $? "dpkg -r collectd-gpu-plugins"
tap_is "" "$(links_of)" "remove unlinks every snippet"
tap_check "remove keeps the conffiles" test -f "$AVAILABLE/drm_fdinfo.conf"
tap_check "remove takes the plugins" test ! -e /usr/lib/collectd/drm_fdinfo.so
stock_collectd_check "after remove" "$T/remove" ""

# Reinstall after remove.
dpkg_do -i "$(deb collectd-gpu-plugins)"
tap_is 0 $? "dpkg -i after remove"
tap_is "$all_links" "$(links_of | tr ' ' '\n' | sort | tr '\n' ' ' | sed 's/ $//')" \
  "reinstall links every snippet again"
stock_collectd_check "after reinstall" "$T/reinstall" "$VALUES"

# Upgrade to a later version (the same files, repacked): the admin's
# choices stay.
up=$T/up
dpkg-deb -R "$(deb collectd-gpu-plugins)" "$up"
sed -i "s/^Version: .*/Version: ${ver}+up1/" "$up/DEBIAN/control"
dpkg-deb --root-owner-group -b "$up" "$T/upgrade.deb" >/dev/null
rm -f "$ENABLED/tegra410_uncore.conf"
echo "# local edit" >>"$AVAILABLE/drm_fdinfo.conf"
dpkg_do -i "$T/upgrade.deb"
tap_is 0 $? "dpkg -i upgrades to ${ver}+up1"
tap_is "${ver}+up1" "$(dpkg-query -W -f='${Version}' collectd-gpu-plugins)" "the upgrade is installed"
tap_check "upgrade: a snippet the admin unlinked stays unlinked" test ! -e "$ENABLED/tegra410_uncore.conf"
tap_check "upgrade: the other snippets stay linked" test -L "$ENABLED/drm_fdinfo.conf"
tap_is "# local edit" "$(tail -1 "$AVAILABLE/drm_fdinfo.conf")" "upgrade: a local edit of a snippet stays"
stock_collectd_check "after upgrade" "$T/upgrade" "$VALUES"

# Purge.
dpkg_do -P collectd-gpu-plugins
tap_is 0 $? "dpkg -P collectd-gpu-plugins"
tap_is "" "$(links_of)" "purge: no link left"
tap_check "purge: the conffiles and the link state are gone" \
  bash -c "test ! -e '$AVAILABLE' && test ! -e '$STATE'"
stock_collectd_check "after purge" "$T/purge" ""

# Install after purge: every snippet linked again, the one unlinked before
# too (its state went with the purge).
dpkg_do -i "$(deb collectd-gpu-plugins)"
tap_is 0 $? "dpkg -i after purge"
tap_is "$all_links" "$(links_of | tr ' ' '\n' | sort | tr '\n' ' ' | sed 's/ $//')" \
  "install after purge links every snippet"
stock_collectd_check "after install again" "$T/install2" "$VALUES"
dpkg_do -P collectd-gpu-plugins

# From 0.1.0: the same files with the snippets as conffiles in
# collectd.conf.d and no maintainer scripts (the package as it was).
old=$T/old
dpkg-deb -R "$(deb collectd-gpu-plugins)" "$old"
# Only the snippets the maintscript moves existed then (a plugin added
# later, such as drm_device, is new in the upgrade).
mkdir -p "$old$ENABLED"
for conf in "$old$AVAILABLE"/*.conf; do
  c=$(basename "$conf")
  if grep -q "^mv_conffile $ENABLED/$c " debian/collectd-gpu-plugins.maintscript; then
    mv "$conf" "$old$ENABLED/"
  else
    rm "$conf"
    sed -i "\|^$AVAILABLE/$c\$|d" "$old/DEBIAN/conffiles"
  fi
done
rmdir "$old$AVAILABLE"
rm -f "$old"/DEBIAN/{preinst,postinst,prerm,postrm}
sed -i "s|^$AVAILABLE/|$ENABLED/|" "$old/DEBIAN/conffiles"
sed -i "s/^Version: .*/Version: 0.1.0/" "$old/DEBIAN/control"
dpkg-deb --root-owner-group -b "$old" "$T/old.deb" >/dev/null
dpkg_do -i "$T/old.deb"
tap_is 0 $? "dpkg -i the 0.1.0 layout"
echo "# local edit" >>"$ENABLED/drm_fdinfo.conf"
dpkg_do -i "$(deb collectd-gpu-plugins)"
tap_is 0 $? "dpkg -i upgrades 0.1.0 to $ver"
tap_is "$all_links" "$(links_of | tr ' ' '\n' | sort | tr '\n' ' ' | sed 's/ $//')" \
  "upgrade from 0.1.0: every snippet moved and linked"
tap_is "# local edit" "$(tail -1 "$AVAILABLE/drm_fdinfo.conf")" \
  "upgrade from 0.1.0: a local edit moves with its snippet"
tap_is "" "$(for p in gpu-types $plugins; do
  [[ -f $ENABLED/$p.conf && ! -L $ENABLED/$p.conf ]] && echo "$ENABLED/$p.conf"
done)" "upgrade from 0.1.0: no snippet is left as a file in $ENABLED"
stock_collectd_check "after upgrade from 0.1.0" "$T/upgrade-old" "$VALUES"

tap_is "" "$(pgrep -x collectd | while read -r pid; do
  [[ $(readlink "/proc/$pid/cwd") == "$T"* ]] && echo "$pid"
done)" "no collectd of this test is left running"
tap_done
