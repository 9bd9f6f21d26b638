#!/usr/bin/env bash
# The top-level README's Install commands, run where this machine can
# (Debian 12, no GPU): each apt-get line through apt-get's simulation (it
# resolves, and pulls none of the collectd package's Recommends: the
# libraries of every collectd plugin); the build line names every
# Build-Depends of debian/control; dpkg-buildpackage and dpkg -i are the
# lines tests/e2e/debian_package.sh runs on the packages debian/control
# declares; the live view's executable runs; make demo and make test are
# targets. The lines that need a GPU or a running service are not run.
set -uo pipefail
cd "$(dirname "$0")/../.."
source tests/lib/tap.sh
source tests/lib/require.sh
require_cmd "README commands" apt-get apt-cache

# The first sh block after "## Install".
block=$(sed -n '/^## Install$/,/^## /p' README.md | sed -n '/^```sh$/,/^```$/p' | sed '1d;$d')
tap_check "README.md has an Install block" test -n "$block"
cmds=$(sed 's/[[:space:]]*#.*//' <<<"$block")

recommends=$(apt-cache show collectd 2>/dev/null | sed -n 's/^Recommends: //p' | head -n 1 |
  tr ',' '\n' | sed -E 's/^ *([^ ]+).*/\1/' | sort -u)
n=0
while read -r line; do
  [[ $line == "sudo apt-get install "* ]] || continue
  n=$((n + 1))
  args=${line#sudo apt-get install }
  # shellcheck disable=SC2086 # the README's words, as the shell splits them
  sim=$(apt-get install -s $args 2>&1)
  tap_is 0 $? "apt-get install -s $args: resolves"
  pulled=$(sed -n 's/^Inst \([^ ]*\) .*/\1/p' <<<"$sim" | sort -u)
  tap_is "" "$(comm -12 <(echo "$recommends") <(echo "$pulled") | head -5 | paste -sd' ')" \
    "apt-get install $args: none of collectd's Recommends ($(grep -c . <<<"$pulled") package(s) to install here)"
done <<<"$cmds"
tap_check "the Install block has apt-get lines ($n)" test "$n" -ge 2
collectd_line=$(grep -m1 'apt-get install .*collectd\b' <<<"$cmds")
tap_check "the daemon line installs the collectd package without Recommends" \
  grep -qE -- '--no-install-recommends .*collectd( |$)' <<<"$collectd_line"

# Every Build-Depends (without versions) is on the README's lines.
bdeps=$(sed -n '/^Build-Depends:/,/^[A-Z]/p' debian/control | sed '$d' | sed 's/^Build-Depends://' |
  tr ',' '\n' | sed -E 's/^ *([^ (]+).*/\1/' | grep . | sed 's/debhelper-compat/debhelper/')
missing=
for d in $bdeps; do
  grep -qE "apt-get install .*(^| )$d( |$)" <<<"$cmds" || missing="$missing $d"
done
tap_is "" "$missing" "the README's apt-get lines name every Build-Depends of debian/control"

tap_check "dpkg-buildpackage -us -uc -b: the line debian_package.sh runs" \
  bash -c "grep -qx 'dpkg-buildpackage -us -uc -b' <<<'$(grep -m1 dpkg-buildpackage <<<"$cmds" | sed 's/ *$//')' &&
    grep -q 'dpkg-buildpackage -us -uc -b' tests/e2e/debian_package.sh"
pkgs=$(sed -n 's/^Package: //p' debian/control | sort | paste -sd' ')
tap_is "$pkgs" "$(grep -m1 'dpkg -i' <<<"$cmds" | grep -oE '\.\./[a-z0-9-]+_\*\.deb' |
  sed -E 's|\.\./(.*)_\*\.deb|\1|' | sort | paste -sd' ')" "sudo dpkg -i installs every package of debian/control"

B=${BUILD:-build}
T_ERR=$(mktemp "${TMPDIR:-/tmp}/readme-commands.XXXXXX")
trap 'rm -f "$T_ERR"' EXIT
if [[ -x $B/drm_fdinfo ]]; then
  out=$(COLUMNS=100 timeout 30 "$B/drm_fdinfo" --format=top --once --rows=3 2>&1)
  tap_is 0 $? "drm_fdinfo --format=top (as --once, no terminal here) runs"
else
  tap_skip "drm_fdinfo --format=top runs" "$B/drm_fdinfo is not built"
fi
for t in demo demo-top test; do
  tap_check "make $t is a target" grep -q "^$t:" Makefile
  tap_check "  ... and in README.md's Try it block" \
    bash -c "sed -n '/^## Try it/,/^## /p' README.md | grep -q '^make $t '"
done
# "Which way to run": gpu-telemetry's lines, run where they can be here
if [[ -x $B/gpu-telemetry ]]; then
  out=$(COLUMNS=100 timeout 30 "$B/gpu-telemetry" --format=top --once --rows=3 2>"$T_ERR")
  tap_is 0 $? "gpu-telemetry --format=top (as --once, no terminal here) runs"
  tap_check "  ... and says what each plugin found" grep -q '^notice: [a-z0-9_]*: found: ' "$T_ERR"
  port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
  timeout 30 "$B/gpu-telemetry" --listen=127.0.0.1:$port --interval=1 --window=0.1 >/dev/null 2>"$T_ERR" &
  pid=$!
  ok=1
  for ((i = 0; i < 100; i++)); do
    curl -sf "http://127.0.0.1:$port/metrics" 2>/dev/null | grep -q '^gpu_telemetry_collector_devices{' && { ok=0; break; }
    sleep 0.1
  done
  kill -TERM $pid 2>/dev/null
  wait $pid
  tap_is "0|0" "$ok|$?" "gpu-telemetry --listen=127.0.0.1:PORT serves /metrics (with the device counts); SIGTERM: exit 0"
else
  tap_skip "gpu-telemetry runs" "$B/gpu-telemetry is not built"
fi
tap_done
