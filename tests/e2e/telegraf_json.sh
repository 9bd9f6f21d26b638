#!/usr/bin/env bash
# Our JSON output as Telegraf's JSON parser reads it (tests/lib/telegraf_json.py
# applies its documented rules with the shipped conf.d snippets' settings):
# inputs.exec parses the whole --once output as one document (one array per
# batch), inputs.execd one document per line; every metric gets its name,
# time and tags, and no string is dropped. drm_fdinfo runs on a synthetic
# tree (root), tegra410_uncore on emulated PMUs (tests/shim).
set -uo pipefail
cd "$(dirname "$0")/../.."
source tests/lib/tap.sh
source tests/lib/fakeproc.sh
source tests/lib/tegra410_tree.sh
source tests/lib/require.sh
source tests/lib/manifest.sh
require_cmd "Telegraf JSON parser rules" python3
require_not_sanitize "Telegraf JSON parser rules" "the shim is preloaded without the sanitizer runtimes here"
B=${BUILD:-build}
CHECK=tests/lib/telegraf_json.py

# The snippet's command, without the program and the --Event examples.
snippet_args() { # snippet
  python3 -c 'import sys, tomllib, shlex
t = tomllib.load(open(sys.argv[1], "rb"))["inputs"]
if "exec" in t:
    argv = shlex.split(t["exec"][0]["commands"][0])
else:
    argv = t["execd"][0]["command"]
print("\n".join(a for a in argv[1:] if not a.startswith("--Event=")))' "$1"
}

# The plugin's KIND JSON snippet, from its manifest's telegraf_snippets.
json_snippet() { # plugin kind
  manifest_key "$1" telegraf_snippets | tr ' ' '\n' | grep -e "-$2-json\.conf\$"
}

run_case() { # plugin kind(exec|execd) min_metrics env-and-command-prefix... -- extra args
  local plugin=$1 kind=$2 min=$3 conf
  conf=$(json_snippet "$1" "$2")
  shift 3
  local pre=()
  while [[ $1 != -- ]]; do pre+=("$1"); shift; done
  shift
  mapfile -t args < <(snippet_args "$conf")
  local out
  if [[ $kind == execd ]]; then
    out=$(printf '\n\n' | env "${pre[@]}" timeout 60 "$B/$plugin" "${args[@]}" "$@" 2>"$T/err")
  else
    out=$(env "${pre[@]}" timeout 60 "$B/$plugin" "${args[@]}" --window=0.2 "$@" 2>"$T/err")
  fi
  tap_is 0 $? "$plugin $kind json: exit status ($(head -c 200 "$T/err"))"
  printf '%s\n' "$out" >"$T/out"
  if python3 "$CHECK" "$conf" <"$T/out" >"$T/metrics" 2>"$T/check"; then
    local n
    n=$(wc -l <"$T/metrics")
    if [[ $n -ge $min ]]; then
      tap_ok "$plugin $kind json: Telegraf reads $n metrics"
    else
      tap_fail "$plugin $kind json: Telegraf reads $n metrics, expected >= $min"
    fi
  else
    tap_fail "$plugin $kind json: $(cat "$T/check")"
  fi
}

T=$(mktemp -d "${TMPDIR:-/tmp}/telegraf-json.XXXXXX")
trap 'fp_fini 2>/dev/null; rm -rf "$T"' EXIT

# The checker itself: the old one-object-per-line output fails under exec.
printf '{"name":"m","time":1,"v":1}\n{"name":"m","time":2,"v":2}\n' >"$T/lines"
python3 "$CHECK" "$(json_snippet drm_fdinfo exec)" <"$T/lines" >/dev/null 2>"$T/check"
tap_is "1|telegraf_json.py: stdout: not one JSON document: Extra data: line 2 column 1 (char 28)" \
  "$?|$(cat "$T/check")" "exec: objects on separate lines are not one document"
printf '[{"name":"m","time":1,"v":1},\n{"name":"m","time":2,"v":2}]\n' |
  python3 "$CHECK" "$(json_snippet drm_fdinfo exec)" >"$T/m" 2>&1
tap_is $'m||v=1.0|1\nm||v=2.0|2' "$(cat "$T/m")" "exec: one array, one metric per element"
printf '{"name":"m","time":1,"v":1,"comm":"x","other":"y"}\n' |
  python3 "$CHECK" "$(json_snippet drm_fdinfo execd)" >/dev/null 2>"$T/check"
tap_is "telegraf_json.py: string 'other' is neither in tag_keys nor json_string_fields" \
  "$(cat "$T/check")" "execd: a string outside tag_keys would be dropped"

# tegra410_uncore: the preset on emulated PMUs.
t410_tree "$T"
run_case tegra410_uncore exec 5 LD_PRELOAD="$PWD/$B/tests/shim.so" -- --SysfsRoot="$T/sys"
run_case tegra410_uncore execd 5 LD_PRELOAD="$PWD/$B/tests/shim.so" -- --SysfsRoot="$T/sys"

require_root "drm_fdinfo synthetic tree" "needs root for mknod of DRM device nodes"
fp_init
fp_device 226 0 card0 0000:00:02.0 i915
fp_process 100 'glx gears,"x"\'
fp_fd 100 3 card0 "$(fp_i915 7 1000)"
ROOTS=(--ProcRoot="$FP/proc" --SysfsRoot="$FP/sys" --DebugfsRoot="$FP/debug")
run_case drm_fdinfo exec 3 X=1 -- "${ROOTS[@]}"
run_case drm_fdinfo execd 3 X=1 -- "${ROOTS[@]}"
tap_done
