#!/usr/bin/env bash
# The four executables' options (common/exec/host_exec.c with each plugin's
# option table, plugin_ops.options): --help lists exactly the keys the
# plugin's configure function matches (read from its source, so the table
# cannot drift from the parser) plus Interval, each with a default; every
# listed key reaches configure() under its name in any case (never "unknown
# option"); -h is --help; --version prints the package version; the
# collectd key Interval runs like --interval; the nested-block spelling
# that --help shows works on emulated Tegra410 PMUs (tests/shim); a
# FlexEvent name longer than the exec host's old 127-byte copy is refused
# by name. The host's flags and formats that --help lists are in every man
# page and in the user documentation (README.md, docs/*.md).
set -uo pipefail
cd "$(dirname "$0")/../.."
source tests/lib/tap.sh
source tests/lib/require.sh
source tests/lib/tegra410_tree.sh
source tests/lib/lineproto.sh
B=${BUILD:-build}
SHIM=$PWD/$B/tests/shim.so
PRELOAD=$SHIM
if [[ ${SANITIZE:-} == 1 ]]; then
  PRELOAD="$(${CC:-cc} -print-file-name=libasan.so):$(${CC:-cc} -print-file-name=libubsan.so):$SHIM"
fi
T=$(mktemp -d "${TMPDIR:-/tmp}/exec-options.XXXXXX")
pid=
trap '[[ -n $pid ]] && kill -KILL "$pid" 2>/dev/null; rm -rf "$T"' EXIT
VERSION=$(sed -n '1s/.*(\(.*\)).*/\1/p' debian/changelog)

# The keys a plugin's sources match with cfg_key_is(item, "Key"), and
# those of the shared option modules it hands items to (Device and Driver:
# common/sysfs/dev_filter.c); a key matched inside a block's children
# appears under its own name.
source_keys() {
  local files=("plugins/$1"/*.c)
  grep -q 'dev_filter_configure(' "${files[@]}" && files+=(common/sysfs/dev_filter.c)
  grep -ohE 'cfg_key_is\([a-z_]+, "[A-Za-z]+"\)' "${files[@]}" |
    sed -E 's/.*"(.*)".*/\1/' | sort -u | paste -sd' '
}
# The keys --help lists after "Options of", Block.Key as Key.
help_keys() {
  sed -n '/^Options of /,/^$/p' | sed -nE 's/^  --([A-Za-z.]+) .*/\1/p'
}

# The host's own flags, read from the parser's table in exec_args.c: each
# is documented in --help (the same text for every plugin); the flags of
# gpu-telemetry only (multi_only true) in its --help.
flag_rows=$(sed -n '/static const struct exec_flag exec_flags\[\] = {/,/};/p' \
  common/exec/exec_args.c | grep -E '^ *\{"')
host_flags=$(grep -E 'false\},$' <<<"$flag_rows" | grep -o '^ *{"[a-z-]*"' | tr -d ' {"')
multi_flags=$(grep -o '^ *{"[a-z-]*"' <<<"$flag_rows" | tr -d ' {"')
tap_check "the flag table was read ($(wc -w <<<"$host_flags") flags, $(wc -w <<<"$multi_flags") in gpu-telemetry)" \
  test "$(wc -w <<<"$host_flags")" -ge 10 -a "$(wc -w <<<"$multi_flags")" -gt "$(wc -w <<<"$host_flags")"
mhelp=$("$B/gpu-telemetry" --help 2>/dev/null)
undocumented=
for f in $multi_flags; do
  grep -qE -- "--$f([=, ]|$)" <<<"$mhelp" || undocumented="$undocumented $f"
done
tap_is "" "$undocumented" "gpu-telemetry --help documents every flag of the parser"
help=$("$B/drm_fdinfo" --help 2>/dev/null)
undocumented=
for f in $host_flags; do
  grep -qE -- "--$f([=, ]|$)" <<<"$help" || undocumented="$undocumented $f"
done
tap_is "" "$undocumented" "--help documents every flag of the host's parser ($(wc -w <<<"$host_flags"))"
tap_check "--help: --format lists top" grep -qF -- '--format=json|influx|table|prometheus|top' <<<"$help"

for p in drm_fdinfo i915_oa panthor_perf tegra410_uncore drm_device; do
  help=$("$B/$p" --help 2>"$T/err")
  tap_is "0|" "$?|$(cat "$T/err")" "$p --help: exit 0, nothing on stderr"
  tap_is "$help" "$("$B/$p" -h 2>&1)" "$p -h: the same text"
  out=$("$B/$p" --version 2>&1)
  tap_is "0|$p $VERSION" "$?|$out" \
    "$p --version: the name and debian/changelog's version"
  listed=$(help_keys <<<"$help")
  tap_is "$(source_keys "$p") Interval" \
    "$(sed 's/.*\.//' <<<"$listed" | grep -vx Interval | sort -u | paste -sd' ') Interval" \
    "$p --help: lists every key its configure function matches, and Interval"
  tap_check "$p --help: lists Interval" grep -qx Interval <<<"$listed"
  no_default=$(sed -n '/^Options of /,/^$/p' <<<"$help" | grep '^  --' |
    grep -v '; default: [^ ]' | paste -sd' ')
  tap_is "" "$no_default" "$p --help: every key has a default"
  # every listed key reaches configure() by name, as written and in lower
  # case: a wrong value may fail (exit 1 or 2), an unknown key may not
  unknown=
  for k in $listed; do
    [[ $k == Interval ]] && continue
    for spelling in "$k" "${k,,}"; do
      args=("--$spelling=zz_not_a_value")
      [[ $spelling == *.* ]] && args=("--${spelling%%.*}=f" "${args[@]}")
      timeout 30 "$B/$p" --once --window=0 "${args[@]}" >/dev/null 2>"$T/err"
      grep -q 'unknown option' "$T/err" && unknown="$unknown $spelling"
    done
  done
  tap_is "" "$unknown" "$p: every listed key is known to configure, any case"
  # the host's own flags and --format's values: in the man page and the
  # documentation too (a flag added to --help and forgotten there fails here)
  flags=$(sed '/^Options of /,$d' <<<"$help" | grep -oE -- '--[a-z][a-z-]*' | sort -u)
  formats=$(grep -oE -- '--format=[a-z|]+' <<<"$help" | head -1 | sed 's/--format=//; s/|/ /g')
  missing=
  for f in $flags $formats; do
    grep -qF -- "$(sed 's/-/\\-/g' <<<"$f")" "plugins/$p/$p.1" || missing="$missing man:$f"
    grep -qF -- "$f" README.md docs/*.md || missing="$missing docs:$f"
  done
  tap_is "" "$missing" "$p: every host flag and format of --help is in the man page and the docs"
done

# Interval, the collectd key: stays running, a batch per interval, exit 0
# on SIGTERM (drm_fdinfo on the real /proc needs nothing emulated).
"$B/drm_fdinfo" --Interval=0.2 >"$T/interval.out" 2>"$T/interval.err" &
pid=$!
for _ in $(seq 100); do
  [[ $(lp_count --measurement drm_scan <"$T/interval.out" 2>/dev/null) -ge 2 ]] && break
  sleep 0.1
done
kill -TERM "$pid"
timeout 10 tail --pid="$pid" -f /dev/null
wait "$pid"
tap_is "0|2|" "$?|$(head -n 2 "$T/interval.out" | lp_count --measurement drm_scan)|$(cat "$T/interval.err")" \
  "drm_fdinfo --Interval=0.2: a batch every 0.2 s until SIGTERM, exit 0"
pid=

# The nested-block example of --help, on emulated PMUs.
t410_tree "$T"
out=$(LD_PRELOAD=$PRELOAD "$B/tegra410_uncore" --window=0 --Filter=f \
  --Filter.PMU=pcie --Filter.Terms=src_rp_mask=0x3 --SysfsRoot="$T/sys" 2>"$T/err")
tap_is "0|" "$?|$(cat "$T/err")" "tegra410_uncore --Filter=f --Filter.PMU=pcie ...: exit 0"
tap_check "tegra410_uncore: the filter's records carry filter=f" \
  test "$(lp_count --where filter=f <<<"$out")" -ge 1

# A FlexEvent NAME of 130 characters in one --FlexEvent value: the error
# names the NAME rule, whatever the value's length.
name=$(printf 'a%.0s' $(seq 130))
"$B/i915_oa" --once "--FlexEvent=$name 4" >/dev/null 2>"$T/err"
tap_is "2|error: i915_oa: config: FlexEvent: NAME \"$name\": 1 to 31 of a-z, 0-9 and _ (it becomes a field name)" \
  "$?|$(cat "$T/err")" "i915_oa: a 130-character FlexEvent NAME is refused by name"
"$B/i915_oa" --once "--FlexEvent=x $(printf "9%.0s" $(seq 200))" >/dev/null 2>"$T/err"
tap_is "2|error: i915_oa: config: FlexEvent: expected \"NAME\" EVENT [SHADER [ROW]] (each 0..15) or \"NAME\" \"raw:VALUE\"" \
  "$?|$(cat "$T/err")" "i915_oa: a 200-digit EVENT is refused by the EVENT rule"
tap_done
