#!/usr/bin/env bash
# The nested-block example of every executable's --help works for that
# executable: each plugin names its own in plugin_ops.help_example (or NULL:
# it has no nested block, and --help must show none that fails). Each
# example runs on the emulated devices (--once) and must exit 0; the
# tegra410_uncore one must give its filtered series.
set -uo pipefail
cd "$(dirname "$0")/../.."
source tests/lib/tap.sh
source tests/lib/emulated.sh
source tests/lib/manifest.sh
B=${BUILD:-build}
T=$(mktemp -d "${TMPDIR:-/tmp}/help-example.XXXXXX")
trap 'rm -rf "$T"' EXIT
emu_setup "$T/emu" >/dev/null 2>&1

# The nested-block examples in a --help text: "--Block=v --Block.Key=v...".
help_examples() {
  grep -oE -- '--([A-Za-z]+)=[^ ]+( --[A-Za-z]+\.[A-Za-z]+=[^ ]+)+' |
    awk '{ b = $1; sub(/^--/, "", b); sub(/=.*/, "", b); ok = 1
           for (i = 2; i <= NF; i++) if (index($i, "--" b ".") != 1) ok = 0
           if (ok) print }'
}
# The plugin's plugin_ops.help_example as written in its source (the C
# string literals joined), or nothing for NULL.
source_example() {
  python3 - "$1" <<'EOF'
import glob, re, sys
for f in sorted(glob.glob("plugins/%s/*.c" % sys.argv[1])):
    m = re.search(r'\.help_example\s*=\s*((?:"(?:[^"\\]|\\.)*"\s*)+|NULL)',
                  open(f).read())
    if m:
        print("".join(re.findall(r'"((?:[^"\\]|\\.)*)"', m.group(1))))
        break
EOF
}

for p in $(manifest_plugins); do
  want=$(source_example "$p")
  help=$("$B/$p" --help 2>&1)
  tap_is 0 $? "$p --help: exit 0"
  shown=$(help_examples <<<"$help")
  tap_is "$want" "$shown" "$p --help shows its own nested-block example (or none)"
  [[ -z $want ]] && continue
  emu_cmd "$p"
  read -ra ex <<<"$want"
  out=$("${EMU_CMD[@]}" "${ex[@]}" --once --window=0 --format=influx 2>"$T/err")
  tap_is "0:" "$?:$(cat "$T/err")" "$p ${ex[*]}: exit 0, nothing on stderr"
  if [[ $p == tegra410_uncore ]]; then
    tap_check "$p ${ex[*]}: the filtered series is there" \
      grep -q '^tegra410,.*filter=rp0' <<<"$out"
  fi
done
tap_done
