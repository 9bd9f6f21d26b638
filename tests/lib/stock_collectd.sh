# The stock Debian collectd as a new user runs it, for tests/e2e. Source
# tests/lib/tap.sh first.
#
# The configuration is Debian's default /etc/collectd/collectd.conf (the
# collectd package installs it; with collectd-core alone, its copy in
# collectd-core's examples), unchanged: a wrapper includes it and adds only
# a logfile (first, so every message of the parse is kept) and, so that a
# test writes nothing outside its temp dir, BaseDir, PIDFile and the
# DataDir of the stock rrdtool writer.
#
#   stock_collectd_conf                 the default collectd.conf's path
#   stock_collectd_run DIR GLOB SECS    runs the daemon in DIR (created),
#       waits for "entering read-loop", then up to SECS for a file matching
#       DIR/rrd/GLOB (none: GLOB empty), stops it. Sets STOCK_LOG (the log
#       and stdout/stderr), STOCK_UP (1: reached the read loop and was still
#       running at the end), STOCK_VALUES (1: GLOB matched).
#   stock_collectd_check NAME DIR GLOB  runs it (10 s for values) and
#       reports: it runs, logs no error and no failed init, and, with GLOB,
#       writes values.

COLLECTD=${COLLECTD:-/usr/sbin/collectd}

stock_collectd_conf() {
  if [[ -f /etc/collectd/collectd.conf ]]; then
    echo /etc/collectd/collectd.conf
  else
    echo /usr/share/doc/collectd-core/examples/collectd.conf
  fi
}

stock_collectd_run() { # dir, glob, seconds
  local d=$1 glob=$2 secs=$3 pid i
  mkdir -p "$d/var" "$d/rrd"
  cat >"$d/collectd.conf" <<CONF
LoadPlugin logfile
<Plugin logfile>
  LogLevel info
  File "$d/collectd.log"
  Timestamp false
  PrintSeverity true
</Plugin>
BaseDir "$d/var"
PIDFile "$d/collectd.pid"
Include "$(stock_collectd_conf)"
<Plugin rrdtool>
  DataDir "$d/rrd"
</Plugin>
CONF
  : >"$d/collectd.log"
  "$COLLECTD" -f -C "$d/collectd.conf" >"$d/stdout" 2>&1 &
  pid=$!
  STOCK_UP=0 STOCK_VALUES=0
  for i in $(seq 1 100); do
    grep -q 'entering read-loop' "$d/collectd.log" && break
    kill -0 "$pid" 2>/dev/null || break
    sleep 0.1
  done
  if [[ -n $glob ]] && grep -q 'entering read-loop' "$d/collectd.log"; then
    for i in $(seq 1 $((secs * 10))); do
      compgen -G "$d/rrd/$glob" >/dev/null && break
      kill -0 "$pid" 2>/dev/null || break
      sleep 0.1
    done
  fi
  [[ -n $glob ]] && compgen -G "$d/rrd/$glob" >/dev/null && STOCK_VALUES=1
  if kill -0 "$pid" 2>/dev/null; then
    grep -q 'entering read-loop' "$d/collectd.log" && STOCK_UP=1
    kill "$pid"
  fi
  wait "$pid" 2>/dev/null
  STOCK_LOG=$(cat "$d/collectd.log" "$d/stdout")
}

stock_collectd_check() { # name, dir, glob
  local name=$1 d=$2 glob=$3 bad
  stock_collectd_run "$d" "$glob" 10
  tap_is 1 "$STOCK_UP" "$name: the stock collectd starts and runs"
  [[ $STOCK_UP == 1 ]] || tail -5 <<<"$STOCK_LOG" | sed 's/^/# /'
  bad=$(grep -iE '\[error\]|^error|init callbacks failed|Parsing the config file failed' <<<"$STOCK_LOG")
  tap_is "" "$bad" "$name: no error and no failed init in its log"
  if [[ -n $glob ]]; then
    tap_is 1 "$STOCK_VALUES" "$name: values arrive through the stock rrdtool writer ($glob)"
  fi
}
