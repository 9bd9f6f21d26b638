#!/usr/bin/env bash
# gpu-telemetry's flags as node_exporter and GNU users type them:
#  - --flag value as well as --flag=value (--listen 127.0.0.1:PORT,
#    --plugin drm_device, --drm_device.SysfsRoot DIR);
#  - --plugin=a,b and --no-plugin=NAME (comma lists too);
#  - --listen=PORT and --listen=:PORT: every address, IPv4 and IPv6 (as
#    node_exporter's :9100), said at start;
#  - an unknown flag named as unknown, with the closest known flag;
#  - one error prefix, "error: gpu-telemetry: ", for every usage error (exit
#    2, one line on stderr, nothing on stdout), a bad --listen address too.
set -uo pipefail
cd "$(dirname "$0")/../.."
source tests/lib/tap.sh
source tests/lib/require.sh
source tests/lib/backends.sh
B=${BUILD:-build}
require_cmd "gpu-telemetry flags" curl python3
require_that "gpu-telemetry flags" "$B/tests/ddv_tree is built (make tests-build)" test -x "$B/tests/ddv_tree"

T=$(mktemp -d "${TMPDIR:-/tmp}/gt-flags.XXXXXX")
PIDS=()
cleanup() {
  local p
  for p in "${PIDS[@]}"; do be_stop "$p"; done
  rm -rf "$T"
}
trap cleanup EXIT
"$B/tests/ddv_tree" "$T/ddv" xe_bmg >/dev/null
GT=$B/gpu-telemetry

# the plugins of a --once JSON run, by the measurements they wrote
plugins_of() {
  python3 -c 'import json, sys
names = {r["name"] for r in json.load(sys.stdin)}
out = set()
for n in names:
    for p in ("drm_device", "drm_scan", "drm_clients", "i915_oa", "panthor_perf", "tegra410", "uncore_event"):
        if n.startswith(p):
            out.add({"drm_scan": "drm_fdinfo", "drm_clients": "drm_fdinfo", "tegra410": "tegra410_uncore", "uncore_event": "tegra410_uncore"}.get(p, p))
print(" ".join(sorted(out)))'
}

# ---- --flag value ----
out=$("$GT" --once --window 0 --format json --plugin drm_device --drm_device.SysfsRoot "$T/ddv/sys" 2>"$T/err")
tap_is 0 $? "--window 0 --format json --plugin drm_device --drm_device.SysfsRoot DIR: exit 0"
tap_is "drm_device" "$(plugins_of <<<"$out")" "  ... the one plugin ran, on the tree given as the next argument"
tap_check "  ... found its xe card there" grep -q '^notice: drm_device: found: 1 device: xe 0000:03:00.0' "$T/err"

# ---- --plugin=a,b and --no-plugin ----
"$GT" --once --window=0 --format=json --plugin=drm_device,drm_fdinfo "--drm_device.SysfsRoot=$T/ddv/sys" >"$T/ab.json" 2>"$T/err"
tap_is "0|drm_device drm_fdinfo" "$?|$(plugins_of <"$T/ab.json")" "--plugin=drm_device,drm_fdinfo: those two"
"$GT" --once --window=0 --format=json --no-plugin=i915_oa,panthor_perf --no-plugin tegra410_uncore \
  "--drm_device.SysfsRoot=$T/ddv/sys" >"$T/no.json" 2>"$T/err"
tap_is "0|drm_device drm_fdinfo" "$?|$(plugins_of <"$T/no.json")" \
  "--no-plugin=i915_oa,panthor_perf --no-plugin tegra410_uncore: the other two"
tap_is 2 "$(grep -c ': found: ' "$T/err")" "  ... and only they say what they found"

# ---- --listen PORT, --listen=PORT, --listen=:PORT ----
for form in "--listen 127.0.0.1:%s" "--listen=%s" "--listen=:%s" "--listen %s"; do
  port=$(be_free_port)
  # shellcheck disable=SC2046 # the form's words, split as typed
  "$GT" $(printf -- "$form" "$port") --interval=1 --window=0.1 --plugin=drm_device \
    "--drm_device.SysfsRoot=$T/ddv/sys" >/dev/null 2>"$T/listen.err" &
  pid=$!
  PIDS+=($pid)
  label=$(printf -- "$form" PORT)
  tap_check "$label: /metrics answers on 127.0.0.1" be_wait_http "http://127.0.0.1:$port/metrics" $pid 30
  if [[ $form == "--listen 127.0.0.1:%s" ]]; then
    tap_check "  ... said, at one address" grep -qx "notice: gpu-telemetry: listen: serving http://127.0.0.1:$port/metrics" "$T/listen.err"
  else
    tap_check "  ... every address, IPv4 and IPv6, said at the start" \
      grep -q "^notice: gpu-telemetry: listen: serving http://\\[::\\]:$port/metrics on every address, IPv4 and IPv6" "$T/listen.err"
    if [[ -e /proc/net/if_inet6 ]] && grep -q '^0\{31\}1 ' /proc/net/if_inet6; then
      tap_check "  ... /metrics answers on [::1] too" curl -sf -o /dev/null "http://[::1]:$port/metrics"
    else
      tap_skip "  ... /metrics answers on [::1] too" "no IPv6 loopback here"
    fi
  fi
  tap_check "  ... SIGTERM ends it" be_stop $pid
done

# ---- usage errors: one prefix, exit 2, one line, nothing on stdout ----
usage() { # expected message after the prefix, args...
  local want="error: gpu-telemetry: $1"
  shift
  local o rc
  o=$("$GT" "$@" 2>"$T/err")
  rc=$?
  tap_is "2|$want|" "$rc|$(cat "$T/err")|$o" "usage error: $*"
}
usage 'usage: unknown flag "--lisen"; did you mean --listen? (see gpu-telemetry --help)' --lisen :9470
usage 'usage: unknown flag "--plugins"; did you mean --plugin? (see gpu-telemetry --help)' --plugins=drm_fdinfo
usage 'usage: unknown flag "--no-plugins"; did you mean --no-plugin? (see gpu-telemetry --help)' --no-plugins drm_fdinfo
usage 'usage: unknown flag "--ReportBy"; did you mean --drm_fdinfo.ReportBy? a plugin'"'"'s option is --<plugin>.<Key>=<value>, <plugin> one of drm_fdinfo, tegra410_uncore, panthor_perf, i915_oa or drm_device (see gpu-telemetry --help)' --ReportBy=Client
usage 'usage: --plugin: expected drm_fdinfo, tegra410_uncore, panthor_perf, i915_oa or drm_device, got "nvidia" (see gpu-telemetry --help)' --plugin=drm_fdinfo,nvidia
usage 'usage: drm_device: both in --plugin and --no-plugin (see gpu-telemetry --help)' --plugin=drm_device --no-plugin=drm_device
usage 'usage: --listen needs a value: --listen=<value> or --listen <value> (see gpu-telemetry --help)' --listen --once
usage 'listen: --listen=nonsense:80: not a numeric IPv4 address (no name lookup; IPv6 goes in brackets)' --listen nonsense:80
usage 'usage: drm_device: options were given for drm_device, which is not run (it is in --no-plugin)' --no-plugin=drm_device --drm_device.SysfsRoot=/sys
tap_done
