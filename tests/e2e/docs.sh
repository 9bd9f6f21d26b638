#!/usr/bin/env bash
# The documentation as a map: a short top-level README.md that links a
# README.md per plugin (every plugin of plugins/plugins.manifest has one,
# with its options and metrics) and docs/*.md; every relative link of every
# Markdown file resolves, anchors included (tests/lib/doc_links.py); each
# plugin's options table holds every key its configure code matches (read
# from its sources, as tests/e2e/exec_options.sh reads them for --help);
# the prose holds to the code: plugin counts, the default port and which
# program uses it; every flag --help lists is in the program's man page;
# every doc the README links exists; and every Telegraf JSON snippet's
# tag_keys holds every string tag its plugins write (their --once JSON on
# the emulated devices).
set -uo pipefail
cd "$(dirname "$0")/../.."
source tests/lib/tap.sh
source tests/lib/manifest.sh

docs=(README.md HACKING.md docs/*.md plugins/*/README.md tools/plugin_template/README.md)
out=$(python3 tests/lib/doc_links.py . "${docs[@]}" 2>&1)
tap_is "" "$out" "every relative link of ${#docs[@]} Markdown files resolves"

lines=$(wc -l <README.md)
tap_check "README.md is a map, not the reference ($lines lines, at most 300)" test "$lines" -le 300
for p in $(manifest_plugins); do
  tap_check "plugins/$p/README.md exists, with an options and a metrics table" \
    bash -c "grep -qE '^\| (option|key) \|' plugins/$p/README.md &&
      grep -qE '^\| measurement \|' plugins/$p/README.md"
  tap_check "README.md links plugins/$p/README.md" grep -qF "](plugins/$p/README.md)" README.md
  missing=
  # its own sources, and the shared Device/Driver module it hands items to
  files=("plugins/$p"/*.c)
  grep -q 'dev_filter_configure(' "${files[@]}" && files+=(common/sysfs/dev_filter.c)
  for k in $(grep -ohE 'cfg_key_is\([a-z_]+, "[A-Za-z]+"\)' "${files[@]}" | sed -E 's/.*"(.*)".*/\1/' | sort -u); do
    grep -qE "^\|.*\`<?$k[\` >\"]" "plugins/$p/README.md" || missing="$missing $k"
  done
  tap_is "" "$missing" "plugins/$p/README.md: a table row for every key its configure code matches"
done
for d in docs/*.md HACKING.md; do
  tap_check "README.md links $d" grep -qF "]($d)" README.md
done
tap_check "README.md has a \"Which way to run\" section" grep -qx '## Which way to run' README.md
# The version is the changelog's, set at build time (Makefile, man1_rule):
# a man page's source names none, so none can be left behind.
tap_is "" "$(grep -lE '^\.TH .*"collectd-gpu-plugins [0-9]' plugins/*/*.1 | paste -sd' ')" \
  "no man page source carries a version of its own"

# ---- the prose: how many plugins, which port ----
prose=(README.md HACKING.md docs/*.md plugins/*/README.md gpu_telemetry/gpu-telemetry.1 plugins/*/*.1 conf.d/*.conf)
n_plugins=$(manifest_plugins | wc -w)
words=(zero one two three four five six seven eight nine)
count=${words[$n_plugins]}
tap_is "" "$(grep -noiE "\b(all|the|both|these) (one|two|three|four|five|six|seven|eight|nine)( [a-z]+)? (plugins|exporters|executables)\b|\b(one|two|three|four|five|six|seven|eight|nine) (collectd )?(plugins|exporters|executables)\b" "${prose[@]}" |
  grep -viE "\b$count (collectd )?(plugins|exporters|executables)\b" | head -5)" \
  "no prose counts the plugins other than $count (plugins/plugins.manifest)"
port=$(sed -n 's/^#define PROM_HTTP_DEFAULT_PORT \([0-9]*\).*/\1/p' common/http/prom_http.h)
tap_check "the default port is read from common/http/prom_http.h ($port)" test -n "$port"
tap_is "" "$(sed 's/\\-/-/g; s/\*//g' "${prose[@]}" gpu_telemetry/gpu-telemetry.default |
  grep -oiE "(default port|port is|defaults to|port defaults to) [0-9]{2,5}" | grep -v " $port$" | sort -u)" \
  "every default port the docs state is $port"
tap_check "the service listens on the default port" \
  grep -qE -- "--listen=127\.0\.0\.1:$port( |$)" gpu_telemetry/gpu-telemetry.service
singles=$(manifest_plugins | tr ' ' '|')
tap_is "" "$(sed 's/\\-/-/g' "${prose[@]}" | grep -E "(^|[ \`/])($singles) [^|]*--listen[= ][^ \`]*:$port\b" | head -3)" \
  "no plugin's own executable is shown on gpu-telemetry's default port $port"

# ---- every flag of --help is in the man page ----
B=${BUILD:-build}
flags_of() { # program: the --flags its --help lists (no plugin keys)
  "$B/$1" --help | python3 -c '
import re, sys
print("\n".join(sorted({m for m in re.findall(r"(?<![\w.-])(--[a-z][a-z-]*[a-z]|-h)(?![\w.<])", sys.stdin.read())})))'
}
for prog in gpu-telemetry $(manifest_plugins); do
  man=gpu_telemetry/gpu-telemetry.1
  [[ $prog != gpu-telemetry ]] && man=$(manifest_key "$prog" man_page)
  if [[ ! -x $B/$prog ]]; then
    tap_skip "$man: every flag of $prog --help" "$B/$prog is not built"
    continue
  fi
  missing=
  text=$(sed 's/\\-/-/g; s/\\f[BIRP]//g' "$man")
  for f in $(flags_of "$prog"); do
    grep -qE -- "(^|[^a-z-])$f([^a-z-]|$)" <<<"$text" || missing="$missing $f"
  done
  tap_is "" "$missing" "$man: every flag $prog --help lists ($(flags_of "$prog" | wc -l))"
done

# ---- every document the README links is there ----
missing=
for l in $(grep -oE '\]\([^)#:]+(#[^)]*)?\)' README.md | sed -E 's/^\]\(//; s/[#)].*//' | sort -u); do
  [[ -e $l ]] || missing="$missing $l"
done
tap_is "" "$missing" "every file README.md links exists"

# ---- Telegraf JSON snippets: tag_keys hold every string tag ----
if [[ $(id -u) != 0 || ! -e $B/tests/shim.so || ! -x $B/tests/ddv_tree ]]; then
  tap_skip "tag_keys of the JSON snippets" "needs root (mknod) and the test build (make tests-build)"
  tap_done
  exit
fi
source tests/lib/emulated.sh
source tests/lib/fakeproc.sh
T=$(mktemp -d "${TMPDIR:-/tmp}/docs-tags.XXXXXX")
trap 'fp_fini; rm -rf "$T"' EXIT
emu_setup "$T/emu" >/dev/null 2>&1
"$B/tests/ddv_tree" "$T/ddv" amdgpu_apu amdgpu_dgpu amdgpu_mi300 amdgpu_strix i915_dgpu \
  i915_igpu i915_mtl ivpu panfrost xe_bmg >/dev/null
fp_init
fp_device 226 0 card0 0000:00:02.0 i915
fp_process 100 'blender'
fp_fd 100 3 card0 "$(fp_i915 7 1500000000)"
tags_of() { # plugin: the string keys of its records, one per line
  local extra=()
  emu_cmd "$1"
  case $1 in
  drm_fdinfo) EMU_CMD=("$B/drm_fdinfo" "--ProcRoot=$FP/proc" "--SysfsRoot=$FP/sys")
    extra=(--ReportBy=Device --ReportBy=Process --ReportBy=Client --ReportBy=Cgroup) ;;
  i915_oa) extra=(--MetricSet=1 --EuMetrics=true) ;;
  tegra410_uncore) extra=(--Filter=rp0 --Filter.PMU=pcie --Filter.Terms=src_rp_mask=0x1) ;;
  drm_device) EMU_CMD=("$B/drm_device" "--SysfsRoot=$T/ddv/sys") ;;
  esac
  "${EMU_CMD[@]}" "${extra[@]}" --once --window=0.2 --format=json 2>/dev/null | python3 -c '
import json, sys
print("\n".join(sorted({k for r in json.load(sys.stdin) for k, v in r.items() if isinstance(v, str) and k != "name"})))'
}
keys_of() { # snippet: its tag_keys, one per line
  python3 -c 'import sys, tomllib
t = tomllib.load(open(sys.argv[1], "rb"))["inputs"]
print("\n".join((t.get("exec") or t.get("execd"))[0]["tag_keys"]))' "$1"
}
all=
for p in $(manifest_plugins); do
  tags=$(tags_of "$p")
  all=$(printf '%s\n%s\n' "$all" "$tags" | grep . | sort -u)
  tap_check "$p writes string tags on the emulated devices ($(echo $tags))" test -n "$tags"
  for sn in conf.d/telegraf-"$p"-*-json.conf; do
    tap_is "" "$(comm -23 <(echo "$tags") <(keys_of "$sn" | sort -u) | paste -sd' ')" \
      "$sn: tag_keys hold every string tag $p writes"
  done
done
for sn in conf.d/telegraf-gpu-telemetry-*-json.conf; do
  tap_is "" "$(comm -23 <(echo "$all") <(keys_of "$sn" | sort -u) | paste -sd' ')" \
    "$sn: tag_keys hold every plugin's string tags"
done
tap_done
