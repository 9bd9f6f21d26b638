#!/usr/bin/env bash
# The documentation as a map: a short top-level README.md that links a
# README.md per plugin (every plugin of plugins/plugins.manifest has one,
# with its options and metrics) and docs/*.md; every relative link of every
# Markdown file resolves, anchors included (tests/lib/doc_links.py); each
# plugin's options table holds every key its configure code matches (read
# from its sources, as tests/e2e/exec_options.sh reads them for --help).
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
tap_done
