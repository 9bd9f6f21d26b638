# The Prometheus server (Debian prometheus) on loopback for end-to-end
# tests, under a directory the caller owns, stopped by its PID (be_stop of
# tests/lib/backends.sh, which must be sourced first).
#   prom_start DIR JOBS [RULES...]
#                           prometheus with its web API on a free 127.0.0.1
#                           port, scraping and evaluating RULES (files) every
#                           second; JOBS is lines of "job_name target"
#                           (host:port) -> PROM_URL, PROM_PID. promtool check
#                           config runs first.
#   prom_wait_up N [S]      wait until N targets report up == 1 (default
#                           30 s); status 1 at the deadline
PROMETHEUS=${PROMETHEUS:-/usr/bin/prometheus}

prom_start() { # dir jobs [rule files...]
  local dir=$1 jobs=$2 port job target rule
  shift 2
  port=$(be_free_port)
  mkdir -p "$dir/data"
  {
    printf 'global:\n  scrape_interval: 1s\n  scrape_timeout: 1s\n'
    printf '  evaluation_interval: 1s\n'
    if (($# > 0)); then
      printf 'rule_files:\n'
      for rule in "$@"; do printf '  - "%s"\n' "$(realpath "$rule")"; done
    fi
    printf 'scrape_configs:\n'
    while read -r job target; do
      [[ -n $job ]] || continue
      printf '  - job_name: %s\n    static_configs:\n' "$job"
      printf '      - targets: ["%s"]\n' "$target"
    done <<<"$jobs"
  } >"$dir/prometheus.yml"
  promtool check config "$dir/prometheus.yml" >"$dir/check.out" 2>&1 || return 1
  "$PROMETHEUS" --config.file="$dir/prometheus.yml" \
    --storage.tsdb.path="$dir/data" --web.listen-address="127.0.0.1:$port" \
    --web.enable-lifecycle >"$dir/prometheus.log" 2>&1 &
  PROM_PID=$!
  PROM_URL=http://127.0.0.1:$port
  be_wait_http "$PROM_URL/-/ready" "$PROM_PID" 60
}

prom_wait_up() { # n [timeout_s]
  local deadline=$((SECONDS + ${2:-30})) n
  while ((SECONDS < deadline)); do
    n=$(python3 tests/lib/prom_expo.py count "$PROM_URL" 'up == 1' 2>/dev/null)
    [[ ${n:-0} -ge $1 ]] && return 0
    sleep 0.5
  done
  return 1
}
