#!/usr/bin/env bash
# --listen as a scraper and an unwelcome visitor see it, through curl on
# loopback, on drm_fdinfo over a synthetic /proc:
#  - HTTP/1.1 keep-alive (two scrapes, one connection) and gzip (curl
#    --compressed, the same text as uncompressed);
#  - --web-config (node_exporter's layout): TLS with a self-signed
#    certificate (openssl), basic auth with a SHA-512 crypt hash: 200 with
#    the password, 401 without or with a wrong one, plain HTTP refused;
#    a bad file and --web-config without --listen are usage errors named
#    on stderr;
#  - the real Prometheus server scrapes the TLS + basic-auth exporter.
set -uo pipefail
cd "$(dirname "$0")/../.."
source tests/lib/tap.sh
source tests/lib/require.sh
source tests/lib/backends.sh
source tests/lib/prometheus.sh
source tests/lib/fakeproc.sh
B=${BUILD:-build}

require_root "prometheus web" "needs root for mknod of DRM device nodes"
require_cmd "prometheus web" curl openssl prometheus promtool python3

T=$(mktemp -d "${TMPDIR:-/tmp}/prometheus-web.XXXXXX")
PIDS=()
cleanup() {
  local p
  for p in "${PIDS[@]}"; do be_stop "$p"; done
  fp_fini
  rm -rf "$T"
}
trap cleanup EXIT

fp_init
fp_device 226 0 card0 0000:00:02.0 i915
fp_process 100 'glxgears'
fp_fd 100 3 card0 "$(fp_i915 7 1500000000)"
CMD=("$B/drm_fdinfo" --ProcRoot="$FP/proc" --SysfsRoot="$FP/sys"
  --DebugfsRoot="$FP/debug")

# ---- plain HTTP: keep-alive, gzip ----
port=$(be_free_port)
"${CMD[@]}" --listen=127.0.0.1:$port --interval=1 --window=0 >/dev/null 2>"$T/plain.err" &
pid=$!
PIDS+=($pid)
U=http://127.0.0.1:$port/metrics
tap_check "plain: /metrics answers" be_wait_http "$U" "$pid" 30
out=$(curl -s -o /dev/null -o /dev/null -w '%{http_code} %{num_connects}\n' "$U" "$U")
tap_is "200 1
200 0" "$out" "keep-alive: the second scrape reuses the first connection"
tap_is "" "$(curl -sI "$U" | grep -i '^connection: close')" \
  "keep-alive: no Connection: close"
enc=$(curl -s --compressed -o "$T/gz" -w '%{http_code}' -D "$T/gz.head" "$U")
tap_is 200 "$enc" "gzip: 200"
tap_check "gzip: Content-Encoding: gzip" grep -qi '^content-encoding: gzip' "$T/gz.head"
curl -s -o "$T/plain" "$U"
# the two scrapes may straddle a read: compare the names and labels
tap_is "$(sed 's/ [^ ]*$//' "$T/plain")" "$(sed 's/ [^ ]*$//' "$T/gz")" \
  "gzip: the same exposition as uncompressed"
be_stop "$pid"
tap_is "" "$(cat "$T/plain.err")" "plain: nothing on stderr"

# ---- --web-config: TLS and basic auth ----
openssl req -x509 -newkey rsa:2048 -nodes -days 2 -subj /CN=localhost \
  -addext subjectAltName=IP:127.0.0.1 -keyout "$T/key.pem" -out "$T/cert.pem" \
  >/dev/null 2>&1
hash=$(openssl passwd -6 -salt e2esalt 's3cret pass')
cat >"$T/web.yml" <<YAML
# as node_exporter's
tls_server_config:
  cert_file: cert.pem
  key_file: key.pem
basic_auth_users:
  prom: '$hash'
YAML
port=$(be_free_port)
"${CMD[@]}" --listen=127.0.0.1:$port --interval=1 --window=0 \
  --web-config="$T/web.yml" >/dev/null 2>"$T/tls.err" &
pid=$!
PIDS+=($pid)
S=https://127.0.0.1:$port/metrics
C=(curl -s --cacert "$T/cert.pem" -o /dev/null -w '%{http_code}')
deadline=$((SECONDS + 30)) code=
while ((SECONDS < deadline)); do
  code=$("${C[@]}" -u 'prom:s3cret pass' "$S")
  [[ $code == 200 ]] && break
  kill -0 "$pid" 2>/dev/null || break
  sleep 0.1
done
tap_is 200 "$code" "tls + auth: 200 with the password, the certificate verified"
tap_is 401 "$("${C[@]}" "$S")" "auth: 401 without credentials"
tap_is 401 "$("${C[@]}" -u 'prom:wrong' "$S")" "auth: 401 with a wrong password"
tap_is 401 "$("${C[@]}" -u 'other:s3cret pass' "$S")" "auth: 401 for an unknown user"
# an address that keeps guessing is held off: 10 failures free, then each
# sets a wait (0.5 s, doubling), answered 429 with Retry-After before any
# user is looked at; the scraper's address is not held. A loaded machine
# may let a wait pass between two curls: up to 16 guesses (bounded).
codes= ra=
for i in $(seq 16); do
  out=$(curl -s --cacert "$T/cert.pem" --interface 127.0.0.9 -u "prom:guess$i" \
    -D - -o /dev/null -w '%{http_code}' "$S" | tr -d '\r')
  codes+="${out: -3} "
  if [[ ${out: -3} == 429 ]]; then
    ra=$(grep -i '^retry-after:' <<<"$out")
    break
  fi
done
tap_is "$(printf '401 %.0s' $(seq 11))" "${codes:0:44}" \
  "auth: wrong passwords are checked (401) ..."
tap_check "auth: ... then the address is answered 429 ($codes)" grep -q 429 <<<"$codes"
tap_check "auth: ... with Retry-After (${ra:-none})" grep -Eq '^Retry-After: [1-9][0-9]*$' <<<"$ra"
tap_is 200 "$("${C[@]}" -u 'prom:s3cret pass' "$S")" "auth: the scraper's address is not held"
hdr=$(curl -s --cacert "$T/cert.pem" -D - -o /dev/null "$S" | tr -d '\r' | grep -i '^www-authenticate:')
tap_is 'WWW-Authenticate: Basic realm="drm_fdinfo"' "$hdr" "auth: the 401 names the realm"
tap_check "tls: plain HTTP gets no answer" \
  bash -c "! curl -sf --max-time 5 -o /dev/null http://127.0.0.1:$port/metrics"

# Clients that send one byte of a TLS handshake (0x16) and wait, from 4
# addresses (each comes back when cut at the request deadline): the
# server's CPU over 5 s, from /proc/PID/stat (utime + stime, in ticks),
# stays far from the core it spun on before; a scrape meanwhile is served
cpu_ticks() { awk '{print $14 + $15}' "/proc/$1/stat"; }
python3 - "$port" >"$T/hold.out" 2>&1 <<'PY' &
import socket, sys, time
port = int(sys.argv[1])
def hold(i):
    s = socket.socket()
    s.bind(("127.0.0.%d" % (2 + i % 4), 0))
    s.connect(("127.0.0.1", port))
    s.send(b"\x16")
    s.setblocking(False)
    return s
socks = [hold(i) for i in range(8)]
end = time.monotonic() + 6
while time.monotonic() < end:
    for i, s in enumerate(socks):
        try:
            if s.recv(1) == b"":
                raise ConnectionError
        except BlockingIOError:
            pass
        except OSError:
            s.close()
            socks[i] = hold(i)
    time.sleep(0.1)
print("held")
PY
holder=$!
sleep 0.5 # the holders connect (the measure below is what is bounded)
t0=$(cpu_ticks "$pid")
sleep 5
t1=$(cpu_ticks "$pid")
hz=$(getconf CLK_TCK)
tap_is 200 "$("${C[@]}" -u 'prom:s3cret pass' "$S")" "tls holders: a scrape meanwhile is served"
wait "$holder"
tap_is held "$(cat "$T/hold.out")" "tls holders: held for 6 s"
cs=$(((t1 - t0) * 1000 / hz))
tap_check "tls holders: the server's CPU over 5 s below 0.5 s (${cs} ms)" test "$cs" -lt 500

# the Prometheus server scrapes it with the same credentials
pport=$(be_free_port)
mkdir -p "$T/prom/data"
cat >"$T/prom/prometheus.yml" <<YAML
global:
  scrape_interval: 1s
  scrape_timeout: 1s
scrape_configs:
  - job_name: gpu
    scheme: https
    tls_config:
      ca_file: $T/cert.pem
    basic_auth:
      username: prom
      password: 's3cret pass'
    static_configs:
      - targets: ["127.0.0.1:$port"]
YAML
promtool check config "$T/prom/prometheus.yml" >/dev/null 2>&1
tap_is 0 $? "prometheus: the https + basic_auth scrape config checks"
prometheus --config.file="$T/prom/prometheus.yml" --storage.tsdb.path="$T/prom/data" \
  --web.listen-address="127.0.0.1:$pport" >"$T/prom/log" 2>&1 &
PROM_PID=$!
PIDS+=($PROM_PID)
PROM_URL=http://127.0.0.1:$pport
be_wait_http "$PROM_URL/-/ready" "$PROM_PID" 60
tap_check "prometheus: the TLS + basic-auth exporter is up" prom_wait_up 1 60
be_stop "$PROM_PID"
be_stop "$pid"
tap_is "" "$(cat "$T/tls.err")" "tls: nothing on stderr"

# ---- errors ----
printf 'tls_server_config:\n  cert_file: cert.pem\n' >"$T/half.yml"
"${CMD[@]}" --listen=127.0.0.1:$port --web-config="$T/half.yml" >/dev/null 2>"$T/err"
tap_is 2 $? "web-config: a certificate without its key: exit 2"
tap_is "error: drm_fdinfo: listen: --web-config=$T/half.yml: tls_server_config needs both cert_file and key_file" \
  "$(cat "$T/err")" "web-config: the error names the file and what is missing"
"${CMD[@]}" --listen=127.0.0.1:$port --web-config="$T/none.yml" >/dev/null 2>"$T/err"
tap_is 2 $? "web-config: a missing file: exit 2, a configuration error"
tap_is "error: drm_fdinfo: listen: --web-config=$T/none.yml: No such file or directory" \
  "$(cat "$T/err")" "web-config: a missing file is named with the errno text"
printf 'tls_server_config:\n  cert_file: gone.pem\n  key_file: key.pem\n' >"$T/gone.yml"
"${CMD[@]}" --listen=127.0.0.1:$port --web-config="$T/gone.yml" >/dev/null 2>"$T/err"
tap_is 2 $? "web-config: a missing certificate: exit 2 as well"
tap_is "error: drm_fdinfo: listen: TLS certificate $T/gone.pem: No such file or directory" \
  "$(cat "$T/err")" "web-config: a missing certificate is named with the errno text"
# a FIFO nobody writes, as the file and as the certificate: refused at
# once (opened O_NONBLOCK, only regular files read), not a start blocked
# for ever; timeout(1) bounds the run should it block
mkfifo "$T/fifo.yml" "$T/fifo.pem"
printf 'tls_server_config:\n  cert_file: fifo.pem\n  key_file: key.pem\n' >"$T/fifocert.yml"
for f in fifo.yml fifocert.yml; do
  t0=$(date +%s%N)
  timeout 10 "${CMD[@]}" --listen=127.0.0.1:$port --web-config="$T/$f" >/dev/null 2>"$T/err"
  rc=$? ms=$((($(date +%s%N) - t0) / 1000000))
  tap_is 2 "$rc" "web-config: $f, a FIFO: exit 2"
  tap_check "web-config: $f, a FIFO: refused within 1 s (${ms} ms)" test "$ms" -lt 1000
  tap_check "web-config: $f, a FIFO: said" grep -q 'not a regular file' "$T/err"
done
"${CMD[@]}" --once --web-config="$T/web.yml" >/dev/null 2>"$T/err"
tap_is 2 $? "web-config: without --listen: a usage error"
tap_check "web-config: without --listen: said" grep -q -- '--web-config: only with --listen' "$T/err"
tap_done
