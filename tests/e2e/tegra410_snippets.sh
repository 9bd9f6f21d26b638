#!/usr/bin/env bash
# The shipped Telegraf snippets of tegra410_uncore, run as shipped (their
# command, with the installed path replaced by the build's): on this
# machine, which has no Tegra410 PMU, the default (the Tegra410 preset)
# exits 0 with parseable and empty output and says nothing at warning or
# above; under the kernel emulation (tests/shim) with a synthetic sysfs
# of Tegra410 PMUs, the same commands report the preset's metrics.
set -uo pipefail
cd "$(dirname "$0")/../.."
source tests/lib/tap.sh
source tests/lib/lineproto.sh
source tests/lib/tegra410_tree.sh
source tests/lib/require.sh
require_cmd "shipped snippets" python3
require_not_sanitize "shipped snippets" "the shim is preloaded without the sanitizer runtimes here"
B=${BUILD:-build}
T=$(mktemp -d "${TMPDIR:-/tmp}/t410-snippets.XXXXXX")
trap 'rm -rf "$T"' EXIT
t410_tree "$T"

# The snippet's argv, one per line, the program replaced by the build's.
snippet_argv() { # snippet
  python3 -c 'import sys, tomllib, shlex
t = tomllib.load(open(sys.argv[1], "rb"))["inputs"]
argv = shlex.split(t["exec"][0]["commands"][0]) if "exec" in t else t["execd"][0]["command"]
assert argv[0] == "/usr/bin/tegra410_uncore", argv[0]
print("\n".join([sys.argv[2]] + argv[1:]))' "$1" "$B/tegra410_uncore"
}

# Run snippet $1 with environment words and extra args after "--";
# stdout in $T/out, stderr in $T/err, the status returned.
run_snippet() { # snippet env... -- args...
  local conf=$1 pre=() argv
  shift
  while [[ $1 != -- ]]; do pre+=("$1"); shift; done
  shift
  mapfile -t argv < <(snippet_argv "$conf")
  if [[ $conf == *execd* ]]; then
    printf '\n\n' | env "${pre[@]}" timeout 60 "${argv[@]}" "$@" >"$T/out" 2>"$T/err"
  else
    env "${pre[@]}" timeout 60 "${argv[@]}" "$@" >"$T/out" 2>"$T/err"
  fi
}

# Metrics Telegraf would read from $T/out under snippet $1.
n_metrics() { # snippet
  if [[ $1 == *json* ]]; then
    python3 tests/lib/telegraf_json.py "$1" <"$T/out" | wc -l
  else
    lp_count <"$T/out"
  fi
}

for conf in conf.d/telegraf-tegra410_uncore-*.conf; do
  name=$(basename "$conf" .conf)
  tap_is "" "$(snippet_argv "$conf" | grep -E -- '^--(Event|Preset)')" \
    "$name: no Event in the command: the Tegra410 preset by default"
  run_snippet "$conf" --
  tap_is 0 $? "$name: as shipped on this machine: exit 0"
  tap_is 0 "$(n_metrics "$conf")" "$name: as shipped on this machine: parseable, no series"
  tap_is "" "$(grep -E '^(warning|error)' "$T/err")" \
    "$name: as shipped on this machine: no warning or error"
  run_snippet "$conf" LD_PRELOAD="$PWD/$B/tests/shim.so" -- --SysfsRoot="$T/sys"
  tap_is 0 $? "$name: on emulated Tegra410 PMUs: exit 0"
  n=$(n_metrics "$conf")
  tap_check "$name: on emulated Tegra410 PMUs: the preset's records ($n)" test "$n" -ge 10
done
run_snippet conf.d/telegraf-tegra410_uncore-exec-influx.conf \
  LD_PRELOAD="$PWD/$B/tests/shim.so" -- --SysfsRoot="$T/sys"
tap_is 4 "$(lp_count --measurement tegra410 <"$T/out")" \
  "exec influx on emulated PMUs: PCIE, CMEM, C2C in and out (a GPU peer)"
tap_done
