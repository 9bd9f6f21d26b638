# Run the real collectd daemon (Debian collectd-core) in the foreground
# under a temp dir, for end-to-end tests. Source it, then:
#   collectd_start "<config snippet>"   -> CD_DIR, CD_PID, CD_CSV, CD_LOG,
#                                          CD_SOCK
#   collectd_wait_for_file PATH_OR_GLOB TIMEOUT_S  (polls, hard deadline;
#                                          collectd_wait_for is the old name)
#   collectd_wait_log REGEX TIMEOUT_S     (a line of the log matches)
#   collectd_wait_rows GLOB ROWS TIMEOUT_S (a csv file has ROWS data rows)
#   collectd_getval IDENTIFIER            (GETVAL via unixsock, printed
#                                          like collectdctl getval)
#   collectd_stop                         (SIGTERM by PID, waits for exit,
#                                          fails if it does not exit)
# The generated collectd.conf: BaseDir, PIDFile, csv DataDir, unixsock
# SocketFile and the log all under CD_DIR; TypesDB is collectd's default
# plus ours as the build writes it (BUILD/types.gpu.db: types.db and the
# plugins' fragments; or CD_TYPES_DB); Interval 1; logfile is loaded first
# so every later message lands in CD_LOG. The snippet is appended after
# `PluginDir $CD_PLUGIN_DIR` (default $BUILD, where build/<plugin>.so is);
# a snippet may switch PluginDir again before its own LoadPlugin.
COLLECTD=${COLLECTD:-/usr/sbin/collectd}
COLLECTDCTL=${COLLECTDCTL:-/usr/bin/collectdctl}

collectd_start() {
  CD_DIR=$(mktemp -d "${TMPDIR:-/tmp}/collectd-e2e.XXXXXX")
  CD_CSV=$CD_DIR/csv
  CD_LOG=$CD_DIR/collectd.log
  CD_SOCK=$CD_DIR/collectd.sock
  cat >"$CD_DIR/collectd.conf" <<CONF
Hostname "e2e"
FQDNLookup false
BaseDir "$CD_DIR"
PIDFile "$CD_DIR/collectd.pid"
Interval 1
TypesDB "/usr/share/collectd/types.db" "${CD_TYPES_DB:-$PWD/${BUILD:-build}/types.gpu.db}"
LoadPlugin logfile
<Plugin logfile>
  LogLevel info
  File "$CD_LOG"
  Timestamp false
  PrintSeverity true
</Plugin>
LoadPlugin csv
<Plugin csv>
  DataDir "$CD_CSV"
  StoreRates false
</Plugin>
LoadPlugin unixsock
<Plugin unixsock>
  SocketFile "$CD_SOCK"
  SocketGroup "$(id -gn)"
  SocketPerms "0660"
</Plugin>
PluginDir "${CD_PLUGIN_DIR:-$PWD/${BUILD:-build}}"
$1
CONF
  local preload=${COLLECTD_PRELOAD:-}
  if [[ ${SANITIZE:-} == 1 ]]; then
    # The plugin is built with ASan/UBSan; the daemon is not, so the
    # runtimes must be loaded first. collectd's own exit-time allocations
    # are not ours to report.
    preload="$(${CC:-cc} -print-file-name=libasan.so):$(${CC:-cc} -print-file-name=libubsan.so)${preload:+:$preload}"
  fi
  LD_PRELOAD=$preload ASAN_OPTIONS=detect_leaks=0 \
    "$COLLECTD" -f -C "$CD_DIR/collectd.conf" >"$CD_DIR/stdout" 2>&1 &
  CD_PID=$!
}

# Wait until a file matching the glob exists and is not empty; fails at
# the deadline or as soon as the daemon is gone.
collectd_wait_for_file() {
  local glob=$1 deadline=$((SECONDS + ${2:-20})) f IFS=$'\n'
  while ((SECONDS < deadline)); do
    for f in $glob; do
      [[ -s $f || -S $f ]] && return 0
    done
    kill -0 "$CD_PID" 2>/dev/null || return 1
    sleep 0.1
  done
  return 1
}

# Wait until the log contains a line matching the regex.
collectd_wait_log() {
  local re=$1 deadline=$((SECONDS + ${2:-20}))
  while ((SECONDS < deadline)); do
    grep -qE "$re" "$CD_LOG" 2>/dev/null && return 0
    kill -0 "$CD_PID" 2>/dev/null || return 1
    sleep 0.1
  done
  return 1
}

collectd_wait_for() { collectd_wait_for_file "$@"; }

# Wait until a csv file matching the glob has at least N data rows.
collectd_wait_rows() { # glob, rows, timeout
  local f deadline=$((SECONDS + $3))
  while ((SECONDS < deadline)); do
    for f in $1; do
      [[ -f $f && $(($(wc -l <"$f") - 1)) -ge $2 ]] && return 0
    done
    kill -0 "$CD_PID" 2>/dev/null || return 1
    sleep 0.1
  done
  return 1
}

# GETVAL spoken to the socket directly, printed as collectdctl prints it:
# collectdctl (libcollectdclient) cuts every identifier part to 63 bytes,
# the daemon keeps 127.
collectd_getval() {
  perl -MIO::Socket::UNIX -e '
    my $s = IO::Socket::UNIX->new(Peer => $ARGV[0]) or die "connect: $!\n";
    (my $id = $ARGV[1]) =~ s/(["\\])/\\$1/g;
    print $s "GETVAL \"$id\"\n";
    my ($n, $msg) = (<$s> // "-1 no answer") =~ /^(-?\d+) (.*)/;
    $n //= -1;
    if ($n < 0) { print STDERR "ERROR: Server error: " . ($msg // "no answer") . "\n"; exit 1 }
    print scalar <$s> for 1 .. $n;' "$CD_SOCK" "$1"
}

collectd_stop() {
  [[ -n ${CD_PID:-} ]] || return 0
  kill -TERM "$CD_PID" 2>/dev/null
  local deadline=$((SECONDS + 20))
  while kill -0 "$CD_PID" 2>/dev/null && ((SECONDS < deadline)); do
    sleep 0.1
  done
  if kill -0 "$CD_PID" 2>/dev/null; then
    kill -KILL "$CD_PID"
    wait "$CD_PID" 2>/dev/null
    CD_PID=
    return 1
  fi
  wait "$CD_PID" 2>/dev/null
  CD_PID=
  return 0
}
