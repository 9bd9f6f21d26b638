#!/usr/bin/env bash
# Every shipped conf.d/telegraf-*.conf run as Telegraf would run it: the
# command comes from the snippet's TOML (inputs.exec's `commands` string
# split with shell quoting, inputs.execd's `command` array), /usr/bin/ is
# replaced by the build directory and nothing else of it changes; each
# plugin only gets pointed at the emulated devices of this machine
# (tests/shim): i915_oa and tegra410_uncore at a synthetic /dev/dri and
# /sys (--DevRoot, --SysfsRoot), panthor_perf at a synthetic /dev
# (--DevRoot); drm_fdinfo reads the real /proc with no option at all.
# inputs.exec must exit 0 within the snippet's timeout, inputs.execd must
# answer newlines on stdin and exit 0 at EOF; the output must parse with
# the snippet's data_format (tests/lib/telegraf_snippet.py), nothing may
# reach stderr (Telegraf logs it), and after the snippet's field filters
# no exec snippet may keep a count that restarts every run (docs/telegraf.md: such fields are cumulative only in execd mode), while the
# execd snippets' counts keep growing from batch to batch.
set -uo pipefail
cd "$(dirname "$0")/../.."
source tests/lib/tap.sh
source tests/lib/require.sh
source tests/lib/emulated.sh
source tests/lib/manifest.sh
require_cmd "Telegraf snippets" python3
B=${BUILD:-build}
SNIP=tests/lib/telegraf_snippet.py
T=$(mktemp -d "${TMPDIR:-/tmp}/telegraf-snippets.XXXXXX")
trap 'rm -rf "$T"' EXIT

emu_setup "$T"

# Fields that count from the run's first read (docs/telegraf.md), by plugin.
restarting() {
  case $1 in
  drm_fdinfo) echo '^(busy_ns|cycles|total_cycles|clamped|full_scans)$' ;;
  i915_oa) echo '^(gpu_core_clocks|gpu_time_ns|[abc][0-9]+|mpec[0-9]+|eu_active|eu_stall|reports|report_lost|buffer_lost|reopens|malformed|reason_.*)$' ;;
  panthor_perf) echo '^(.*_cycles|.*_bytes|l2_.*_lookups|fma_instructions|value|samples|overflows|errors|dropped|busy_skips|reopens)$' ;;
  tegra410_uncore) echo '^(count|value|enabled_ns|running_ns)$' ;;
  drm_device) echo '^$' ;; # its counters are the kernel's: they never restart
  esac
}

# A counter that must grow from batch to batch in execd mode.
growing() {
  case $1 in
  i915_oa) echo 'i915_oa_stream reports' ;;
  panthor_perf) echo 'panthor_perf_stream samples' ;;
  esac
}

n_snippets=0
for conf in conf.d/telegraf-*.conf; do
  # gpu-telemetry's (every plugin in one process) run on the emulated
  # machine in tests/e2e/gpu_telemetry.sh
  [[ $conf == *-gpu-telemetry-* ]] && continue
  n_snippets=$((n_snippets + 1))
  name=$(basename "$conf" .conf)
  if ! python3 "$SNIP" argv "$conf" >"$T/argv" 2>"$T/err"; then
    tap_fail "$name: the TOML gives a command ($(cat "$T/err"))"
    continue
  fi
  mapfile -t argv < <(grep -v '^#' "$T/argv")
  kind=$(sed -n 's/^#kind //p' "$T/argv")
  limit=$(sed -n 's/^#timeout //p' "$T/argv")
  prog=${argv[0]}
  plugin=${prog##*/}
  if [[ $prog != /usr/bin/* || ! -x $B/$plugin ]]; then
    tap_fail "$name: $prog is one of the executables in /usr/bin"
    continue
  fi
  envs=() opts=()
  while IFS= read -r l; do
    case $l in
    env:*) envs+=("${l#env:}") ;;
    opt:*) opts+=("${l#opt:}") ;;
    esac
  done < <(emu_args "$plugin")
  cmd=(env "${envs[@]}" "$B/$plugin" "${argv[@]:1}" "${opts[@]}")
  if [[ $kind == exec ]]; then
    timeout "$limit" "${cmd[@]}" >"$T/out" 2>"$T/err" </dev/null
    tap_is 0 $? "$name: exits 0 within its timeout of $limit s"
  else
    printf '\n\n\n' | timeout 60 "${cmd[@]}" >"$T/out" 2>"$T/err"
    tap_is 0 $? "$name: answers three newlines and exits 0 at EOF"
  fi
  tap_is "" "$(head -c 400 "$T/err")" "$name: nothing on stderr"
  if ! python3 "$SNIP" metrics "$conf" <"$T/out" >"$T/metrics" 2>"$T/err"; then
    tap_fail "$name: output parses as its data_format ($(cat "$T/err"))"
    continue
  fi
  n=$(wc -l <"$T/metrics")
  tap_check "$name: Telegraf keeps $n metrics (at least 1)" test "$n" -ge 1
  if [[ $kind == exec ]]; then
    kept=$(cut -d' ' -f2 "$T/metrics" | tr ',' '\n' | cut -d= -f1 | sort -u |
      grep -E "$(restarting "$plugin")" | paste -sd' ')
    tap_is "" "$kept" "$name: keeps no count that restarts every run"
  elif [[ -n $(growing "$plugin") ]]; then
    read -r m f <<<"$(growing "$plugin")"
    values=$(grep "^$m " "$T/metrics" | grep -o "[ ,]$f=[0-9.]*" | sed 's/.*=//' |
      paste -sd' ')
    tap_check "$name: $m $f grows over the three batches ($values)" \
      python3 -c 'import sys; v=[float(x) for x in sys.argv[1:]]; sys.exit(not (len(v) == 3 and v[0] < v[1] < v[2]))' $values
  fi
done
tap_is "$((4 * $(manifest_plugins | wc -w)))" "$n_snippets" "every plugin has its four snippets"
tap_done
