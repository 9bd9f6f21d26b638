#!/usr/bin/env bash
# tools/man5.sh VERSION DATE EXECUTABLE...: collectd-gpu-plugins(5), the
# collectd side of every plugin, on stdout. Each plugin's keys come from
# its option table (struct cfg_option in its plugin_ops, the table the
# collectd host and the executable both parse with), as its executable's
# --help prints it ("Options of P"), so the page cannot drift from the code.
# The text around them is docs/collectd-gpu-plugins.5.in (@VERSION@, @DATE@,
# @PLUGINS@ replaced).
set -euo pipefail
version=$1 date=$2
shift 2
cd "$(dirname "$0")/.."

roff() { # text on stdin to roff: backslashes, hyphens, leading dots
  sed -e 's/\\/\\e/g' -e 's/-/\\-/g' -e "s/^\\([.']\\)/\\\\\\&\\1/"
}

plugins() {
  local exe p help line key rest def what block
  for exe in "$@"; do
    p=$(basename "$exe")
    help=$("$exe" --help)
    grep -q "^Options of $p," <<<"$help" || {
      echo "tools/man5.sh: $exe --help: no \"Options of $p\" block" >&2
      exit 1
    }
    echo ".SS $(roff <<<"$p")"
    echo ".nf"
    echo "LoadPlugin $p" | roff
    echo "<Plugin $p>" | roff
    echo "  <Instance \"name\">" | roff
    echo "    Interval 10"
    echo "  </Instance>"
    echo "</Plugin>" | roff
    echo ".fi"
    echo ".PP"
    echo "Its keys (case-insensitive), with their defaults:"
    block=
    sed -n '/^Options of /,/^$/p' <<<"$help" | sed -nE 's/^  --([A-Za-z.]+) +(.*)$/\1\t\2/p' |
      while IFS=$'\t' read -r key rest; do
        def=${rest##*; default: }
        what=${rest%; default: *}
        if [[ $key == Interval ]]; then
          what="seconds between two reads of this instance"
          def="collectd's global Interval"
        fi
        if [[ $key == *.* ]]; then
          if [[ ${key%%.*} != "$block" ]]; then
            block=${key%%.*}
          fi
          echo ".TP"
          printf '.BI "<%s " name "> %s " value\n' "$block" "${key#*.}"
          printf '%s (inside the block); default: %s\n' "$what" "$def" | roff
        else
          echo ".TP"
          printf '.BI "%s " value\n' "$key"
          printf '%s; default: %s\n' "$what" "$def" | roff
        fi
      done
    echo ".PP"
    printf 'Options, metrics and limits in full:\n.I plugins/%s/README.md\n' "$(roff <<<"$p")"
    echo "in the documentation directory (see FILES)."
  done
}

while IFS= read -r line; do
  case $line in
  @PLUGINS@) plugins "$@" ;;
  *) line=${line//@VERSION@/$version}; echo "${line//@DATE@/$date}" ;;
  esac
done <docs/collectd-gpu-plugins.5.in
