# Skip preambles for shell test layers, shared by tests/e2e/*.sh. Source
# tests/lib/tap.sh first. Each require_* checks one precondition and, when
# it does not hold, prints one "ok 1 - NAME # SKIP REASON" line, the plan,
# and exits 0 (the whole script is skipped: nothing else can run).
#   require_root NAME REASON          (effective uid 0)
#   require_cmd NAME CMD...           (each command is on PATH or an
#                                      executable path)
#   require_collectd NAME [ctl]       (the daemon, and collectdctl with ctl)
#   require_not_sanitize NAME REASON  (skip under SANITIZE=1)
#   require_perf_events NAME          (root or perf_event_paranoid <= 0)
#   require_that NAME REASON CMD...   (CMD succeeds)

require_skip() { # name, reason
  tap_skip "$1" "$2"
  tap_done
  exit 0
}

require_root() {
  [[ $(id -u) -eq 0 ]] || require_skip "$1" "$2"
}

require_cmd() {
  local name=$1 c
  shift
  for c in "$@"; do
    if [[ $c == */* ]]; then
      [[ -x $c ]] || require_skip "$name" "$c is not installed"
    else
      command -v "$c" >/dev/null || require_skip "$name" "$c is not installed"
    fi
  done
}

require_collectd() {
  local name=$1
  [[ -x ${COLLECTD:-/usr/sbin/collectd} ]] ||
    require_skip "$name" "collectd-core is not installed"
  if [[ ${2:-} == ctl && ! -x ${COLLECTDCTL:-/usr/bin/collectdctl} ]]; then
    require_skip "$name" "collectd-utils is not installed"
  fi
}

require_not_sanitize() {
  [[ ${SANITIZE:-} != 1 ]] || require_skip "$1" "$2"
}

require_perf_events() {
  local paranoid
  paranoid=$(cat /proc/sys/kernel/perf_event_paranoid 2>/dev/null || echo 2)
  if [[ $(id -u) -ne 0 && $paranoid -gt 0 ]]; then
    require_skip "$1" "perf_event_paranoid is $paranoid and not root"
  fi
}

require_that() {
  local name=$1 reason=$2
  shift 2
  "$@" >/dev/null 2>&1 || require_skip "$name" "$reason"
}
