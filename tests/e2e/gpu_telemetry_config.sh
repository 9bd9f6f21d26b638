#!/usr/bin/env bash
# gpu-telemetry --config as collectd reads its configuration:
#  - Debian's stock collectd.conf (collectd-core's, Include of
#    collectd.conf.d with Filter "*.conf") with the package's snippets
#    linked into that directory, on the emulated devices: every GPU plugin it loads
#    runs (a found line and records each), the non-GPU LoadPlugins are
#    said once;
#  - --config repeatable (read in order), a directory, a glob the shell did
#    not expand, "-", /dev/fd/N and a process substitution;
#  - an instance label configured twice: exit 2 naming both file:line;
#  - Include with Filter, a loop refused;
#  - a named FIFO refused within 1 s, without waiting for a writer.
set -uo pipefail
cd "$(dirname "$0")/../.."
source tests/lib/tap.sh
source tests/lib/require.sh
source tests/lib/emulated.sh
source tests/lib/fakeproc.sh
source tests/lib/manifest.sh
B=${BUILD:-build}

require_root "gpu-telemetry --config" "needs root for mknod of DRM device nodes"
require_cmd "gpu-telemetry --config" python3 timeout

STOCK=/etc/collectd/collectd.conf
[[ -f $STOCK ]] || STOCK=/usr/share/doc/collectd-core/examples/collectd.conf
[[ -f $STOCK ]] || { echo "1..0 # SKIP no collectd.conf of collectd-core"; exit 0; }

T=$(mktemp -d "${TMPDIR:-/tmp}/gt-config.XXXXXX")
cleanup() {
  fp_fini
  rm -rf "$T"
}
trap cleanup EXIT

emu_setup "$T/emu" >/dev/null 2>&1
fp_init
fp_device 226 0 card0 0000:00:02.0 i915
fp_process 100 'blender'
fp_fd 100 3 card0 "$(fp_i915 7 1500000000)"

# gpu-telemetry on the emulated devices with every plugin's options as
# --PLUGIN.Key (added to each block of the configuration), no --plugin:
# the configuration chooses
envs=() opts=() drivers=()
for p in $(manifest_plugins); do
  while IFS= read -r l; do
    case $l in
    env:SHIM_DRIVERS=*) drivers+=("${l#env:SHIM_DRIVERS=}") ;;
    env:*) envs+=("${l#env:}") ;;
    opt:--*) opts+=("--$p.${l#opt:--}") ;;
    esac
  done < <(emu_args "$p")
done
opts+=(--drm_fdinfo.ProcRoot="$FP/proc" --drm_fdinfo.SysfsRoot="$FP/sys")
GT=(env "${envs[@]}" "SHIM_DRIVERS=$(IFS=,; echo "${drivers[*]}")" "$B/gpu-telemetry" "${opts[@]}")

# ---- Debian's collectd.conf, the package's snippets in its conf.d ----
# as the package installs them: the snippets in gpu-plugins, a symlink to
# each in collectd.conf.d (debian/collectd-gpu-plugins.postinst)
mkdir -p "$T/etc/collectd.conf.d" "$T/etc/gpu-plugins"
for p in $(manifest_plugins); do
  cp "$(manifest_key "$p" collectd_snippet)" "$T/etc/gpu-plugins/"
  ln -s "../gpu-plugins/$p.conf" "$T/etc/collectd.conf.d/$p.conf"
done
echo "not a configuration" >"$T/etc/collectd.conf.d/README"
sed "s|/etc/collectd/collectd.conf.d|$T/etc/collectd.conf.d|" "$STOCK" >"$T/etc/collectd.conf"
tap_check "the stock collectd.conf includes collectd.conf.d with Filter \"*.conf\"" \
  grep -q "<Include \"$T/etc/collectd.conf.d\">" "$T/etc/collectd.conf"
"${GT[@]}" --once --window=0.2 --format=json --config="$T/etc/collectd.conf" \
  >"$T/stock.json" 2>"$T/stock.err"
tap_is 0 $? "Debian's collectd.conf with the snippets: exit 0"
for p in $(manifest_plugins); do
  tap_is 1 "$(grep -c "^notice: $p: \([a-z0-9]*: \)\?found: [1-9][0-9]* device" "$T/stock.err")" \
    "  ... $p runs and says what it found"
  tap_check "  ... $p's records" python3 -c '
import json, sys
recs = json.load(open(sys.argv[1]))
assert any(r["name"].startswith(sys.argv[2][:8]) or r["name"] == sys.argv[3] for r in recs), sys.argv[2]
' "$T/stock.json" "$p" "$(case $p in drm_fdinfo) echo drm_clients ;; tegra410_uncore) echo tegra410 ;; *) echo "$p" ;; esac)"
done
skipped=$(grep -F -- '--config: ' "$T/stock.err" | grep -c 'collectd plugins not of gpu-telemetry, skipped: ')
tap_is 1 "$skipped" "  ... the non-GPU LoadPlugins said once"
tap_check "  ... naming them (cpu, df, rrdtool)" \
  grep -q 'skipped: .*cpu, df, .*rrdtool' "$T/stock.err"
tap_is "" "$(grep -v '^\(notice\|info\): ' "$T/stock.err")" "  ... nothing else above the notice level"

# ---- repeatable, in order; directories; globs; pipes ----
printf 'LoadPlugin drm_device\n' >"$T/load.conf"
printf '<Plugin drm_device>\n  <Instance "a">\n  </Instance>\n</Plugin>\n' >"$T/a.conf"
printf '<Plugin drm_device>\n  <Instance "b">\n  </Instance>\n</Plugin>\n' >"$T/b.conf"
# drm_device alone on its emulated tree
DD=("$B/gpu-telemetry" "--drm_device.SysfsRoot=$EMU_DIR/ddv/sys")
run_instances() { "${DD[@]}" --once --window=0 "$@" >/dev/null 2>"$T/run.err"; }
# the instances that ran: their found lines
found_of() { grep -o "^notice: drm_device: [a-z]*: found" "$T/run.err" | awk '{print $3}' | tr -d : | sort | paste -sd' '; }
run_instances --config="$T/load.conf" --config="$T/a.conf" --config "$T/b.conf"
tap_is "a b" "$(found_of)" "--config twice more (--config FILE too): the blocks of every file"
mkdir -p "$T/dir"
cp "$T/load.conf" "$T/dir/0-load.conf"
cp "$T/a.conf" "$T/dir/1-a.conf"
cp "$T/b.conf" "$T/dir/2-b.conf"
run_instances --config="$T/dir"
tap_is "a b" "$(found_of)" "--config=DIR: its files"
run_instances --config="$T/dir/*-[ab].conf" --config="$T/load.conf"
tap_is "a b" "$(found_of)" "--config='GLOB' (unexpanded by the shell)"
cat "$T/load.conf" "$T/a.conf" | run_instances --config=-
tap_is "a" "$(found_of)" "--config=- reads stdin (a pipe)"
run_instances --config=/dev/fd/3 3< <(cat "$T/load.conf" "$T/b.conf")
tap_is "b" "$(found_of)" "--config=/dev/fd/3 reads the descriptor (a process substitution)"

# ---- a label given twice: both places named ----
"${DD[@]}" --once --window=0 --config="$T/load.conf" --config="$T/a.conf" \
  --config="$T/dir/1-a.conf" >/dev/null 2>"$T/twice.err"
tap_is "2|error: drm_device: $T/dir/1-a.conf:2: Instance: \"a\" is configured again (first at $T/a.conf:2): one block per instance label" \
  "$?|$(cat "$T/twice.err")" "an instance configured twice: exit 2, both file:line"
printf 'LoadPlugin drm_device\n<Plugin drm_device>\n  Report "freq"\n</Plugin>\n' >"$T/top1.conf"
printf '\n<Plugin drm_device>\n  Report "power"\n</Plugin>\n' >"$T/top2.conf"
"${DD[@]}" --once --window=0 --config="$T/top1.conf" --config="$T/top2.conf" >/dev/null 2>"$T/twice.err"
tap_is "2|error: drm_device: $T/top2.conf:2: Instance: \"drm_device\" is configured again (first at $T/top1.conf:2): one block per instance label" \
  "$?|$(cat "$T/twice.err")" "two <Plugin> blocks with keys outside <Instance>: the same"

# ---- Include, Filter, a loop ----
printf 'Include "%s/dir"\n' "$T" >"$T/inc-all.conf"
run_instances --config="$T/inc-all.conf"
tap_is "a b" "$(found_of)" "Include DIR: its files"
printf 'Include "%s/load.conf"\n<Include "%s/dir">\n  Filter "*-b.conf"\n</Include>\n' "$T" "$T" >"$T/inc-b.conf"
run_instances --config="$T/inc-b.conf"
tap_is "b" "$(found_of)" "<Include DIR> Filter GLOB: the matching files only"
printf 'Include "%s/loop2.conf"\n' "$T" >"$T/loop1.conf"
printf 'Include "%s/loop1.conf"\n' "$T" >"$T/loop2.conf"
"${GT[@]}" --once --config="$T/loop1.conf" >/dev/null 2>"$T/loop.err"
tap_is "2|error: gpu-telemetry: $T/loop1.conf: Include: includes itself: $T/loop1.conf -> $T/loop2.conf -> $T/loop1.conf" \
  "$?|$(cat "$T/loop.err")" "an Include loop: refused, naming the chain"

# ---- a FIFO: refused at once ----
mkfifo "$T/fifo"
start=$(date +%s%N)
timeout 10 "$B/gpu-telemetry" --once --config="$T/fifo" >/dev/null 2>"$T/fifo.err"
rc=$?
ms=$((($(date +%s%N) - start) / 1000000))
tap_is "2|error: gpu-telemetry: $T/fifo: --config: not a file or a directory (a FIFO): only -, /dev/fd/N and /proc/self/fd/N are read as pipes" \
  "$rc|$(cat "$T/fifo.err")" "a FIFO as --config: exit 2, said"
tap_check "  ... within 1 s (took $ms ms)" test "$ms" -lt 1000
tap_done
