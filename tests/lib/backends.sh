# Real storage backends on loopback for end-to-end tests (Debian packages
# from tools/deps.sh test), each under a directory the caller owns and
# stopped by its PID. Source it (after tests/lib/tap.sh); run from the
# repository root.
#   be_free_port [udp]      a free 127.0.0.1 port (TCP, or UDP)
#   influx_start DIR [COLLECTD_PORT TYPESDB_DIR]
#                           influxd 1.x with its HTTP API on a free port ->
#                           INFLUX_URL, INFLUX_PID; with COLLECTD_PORT, a
#                           [[collectd]] listener on that UDP port writing to
#                           database "collectd", types from TYPESDB_DIR,
#                           multi-DS types split ("<plugin>_<ds>")
#   influx_query DB QUERY   the /query JSON answer on stdout
#   carbon_start DIR        carbon-cache (whisper, 1 s retention) with its
#                           line receiver on a free port -> CARBON_PORT,
#                           CARBON_PID, CARBON_DATA (the whisper tree)
#   be_stop PID             SIGTERM, wait up to 20 s, then SIGKILL; status 1
#                           if it had to be killed
INFLUXD=${INFLUXD:-/usr/bin/influxd}
CARBON_CACHE=${CARBON_CACHE:-/usr/bin/carbon-cache}

be_free_port() {
  python3 - "${1:-tcp}" <<'EOF'
import socket, sys
kind = socket.SOCK_DGRAM if sys.argv[1] == "udp" else socket.SOCK_STREAM
s = socket.socket(socket.AF_INET, kind)
s.bind(("127.0.0.1", 0))
print(s.getsockname()[1])
EOF
}

# Wait until URL answers (curl -f) or PID is gone; status 1 at the deadline.
be_wait_http() { # url pid timeout_s
  local deadline=$((SECONDS + ${3:-30}))
  while ((SECONDS < deadline)); do
    curl -sf -o /dev/null "$1" && return 0
    kill -0 "$2" 2>/dev/null || return 1
    sleep 0.1
  done
  return 1
}

influx_start() { # dir [collectd_port typesdb_dir]
  local dir=$1 port rpc
  port=$(be_free_port)
  rpc=$(be_free_port)
  mkdir -p "$dir"
  cat >"$dir/influxdb.conf" <<EOF
reporting-disabled = true
bind-address = "127.0.0.1:$rpc"
[meta]
  dir = "$dir/meta"
[data]
  dir = "$dir/data"
  wal-dir = "$dir/wal"
[monitor]
  store-enabled = false
[http]
  enabled = true
  bind-address = "127.0.0.1:$port"
  log-enabled = false
[continuous_queries]
  enabled = false
EOF
  if [[ -n ${2:-} ]]; then
    cat >>"$dir/influxdb.conf" <<EOF
[[collectd]]
  enabled = true
  bind-address = "127.0.0.1:$2"
  database = "collectd"
  typesdb = "$3"
  batch-size = 100
  batch-timeout = "200ms"
  parse-multivalue-plugin = "split"
EOF
  fi
  "$INFLUXD" run -config "$dir/influxdb.conf" >"$dir/influxd.log" 2>&1 &
  INFLUX_PID=$!
  INFLUX_URL=http://127.0.0.1:$port
  be_wait_http "$INFLUX_URL/ping" "$INFLUX_PID" 30
}

influx_query() { # db query
  curl -sf -G "$INFLUX_URL/query" --data-urlencode "db=$1" --data-urlencode "q=$2"
}

carbon_start() { # dir
  local dir=$1 port pickle query
  port=$(be_free_port)
  pickle=$(be_free_port)
  query=$(be_free_port)
  CARBON_DATA=$dir/whisper
  CARBON_PORT=$port
  mkdir -p "$dir/conf" "$dir/log" "$CARBON_DATA" "$dir/lists"
  cat >"$dir/conf/carbon.conf" <<EOF
[cache]
STORAGE_DIR = $dir/
LOCAL_DATA_DIR = $CARBON_DATA/
WHITELISTS_DIR = $dir/lists/
CONF_DIR = $dir/conf/
LOG_DIR = $dir/log/
PID_DIR = $dir/
ENABLE_LOGROTATION = False
ENABLE_TAGS = False
DATABASE = whisper
MAX_CACHE_SIZE = inf
MAX_UPDATES_PER_SECOND = 500
MAX_CREATES_PER_MINUTE = inf
LINE_RECEIVER_INTERFACE = 127.0.0.1
LINE_RECEIVER_PORT = $port
ENABLE_UDP_LISTENER = False
PICKLE_RECEIVER_INTERFACE = 127.0.0.1
PICKLE_RECEIVER_PORT = $pickle
CACHE_QUERY_INTERFACE = 127.0.0.1
CACHE_QUERY_PORT = $query
WHISPER_AUTOFLUSH = True
LOG_CREATES = True
LOG_UPDATES = False
LOG_LISTENER_CONN_SUCCESS = False
EOF
  cat >"$dir/conf/storage-schemas.conf" <<EOF
[all]
pattern = .*
retentions = 1s:1h,10s:1d
EOF
  "$CARBON_CACHE" --config="$dir/conf/carbon.conf" --nodaemon \
    --pidfile="$dir/carbon.pid" start >"$dir/carbon.out" 2>&1 &
  CARBON_PID=$!
  local deadline=$((SECONDS + 30))
  while ((SECONDS < deadline)); do
    (exec 3<>"/dev/tcp/127.0.0.1/$port") 2>/dev/null && return 0
    kill -0 "$CARBON_PID" 2>/dev/null || return 1
    sleep 0.2
  done
  return 1
}

be_stop() { # pid
  [[ -n ${1:-} ]] || return 0
  kill -TERM "$1" 2>/dev/null || return 0
  local deadline=$((SECONDS + 20))
  while kill -0 "$1" 2>/dev/null && ((SECONDS < deadline)); do
    sleep 0.1
  done
  if kill -0 "$1" 2>/dev/null; then
    kill -KILL "$1" 2>/dev/null
    wait "$1" 2>/dev/null
    return 1
  fi
  wait "$1" 2>/dev/null
  return 0
}
