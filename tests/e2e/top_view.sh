#!/usr/bin/env bash
# build/drm_fdinfo --format=top in a real terminal: tmux (a private server
# on a socket under a temp dir) runs the view over a synthetic /proc and
# /sys tree while a writer advances the clients' busy counters; the screen
# is read with capture-pane after each refresh (a bounded poll on its
# content): sort order and keys, units, the chart, the help screen, a
# live case-insensitive filter, C, c and g turning on per-client,
# per-container and per-cgroup rows the view was not started with, scrolling, the first
# screen after the window, a process that starts and one that exits, a
# resize, hostile names, q (exit 0, terminal restored) and SIGTERM,
# Ctrl-C, SIGHUP and a crash. Then --format=top --once: plain text, no
# escape codes, the columns that matter at 80 columns, "no GPU found".
set -uo pipefail
# the screen holds UTF-8 (braille charts, cut markers): grep reads it as text
export LC_ALL=C.UTF-8
cd "$(dirname "$0")/../.."
source tests/lib/tap.sh
source tests/lib/fakeproc.sh
source tests/lib/require.sh
BIN=$PWD/${BUILD:-build}/drm_fdinfo

require_cmd "top view in tmux" tmux
require_root "top view in tmux" "needs root for mknod of DRM device nodes"

fp_init
T=$(mktemp -d "${TMPDIR:-/tmp}/top-view.XXXXXX")
SOCK=$T/tmux.sock
writer=
tm() { tmux -S "$SOCK" -f /dev/null "$@"; }
cleanup() {
  [[ -n $writer ]] && kill "$writer" 2>/dev/null && wait "$writer" 2>/dev/null
  tm kill-server 2>/dev/null
  fp_fini
  rm -rf "$T"
}
trap cleanup EXIT

fp_device 226 0 card0 0000:00:02.0 i915
fp_process 100 glxgears
fp_fd 100 3 card0 "$(fp_i915 7 0)"
fp_process 200 blender /user.slice/user-1000.slice/user@1000.service/app.slice/app-org.blender.scope
fp_fd 200 3 card0 "$(fp_i915 8 0)"
ROOTS="--ProcRoot=$FP/proc --SysfsRoot=$FP/sys --DebugfsRoot=$FP/debug"

# busy ns advancing with the clock: glxgears 10 %, blender 45 %
t0=$(date +%s%N)
(
  while :; do
    d=$(($(date +%s%N) - t0))
    fp_fdinfo 100 3 "$(fp_i915 7 $((d / 10)))"
    fp_fdinfo 200 3 "$(fp_i915 8 $((d * 45 / 100)))"
    [[ -d $FP/proc/600 ]] && fp_fdinfo 600 3 "$(fp_i915 9 $((d / 4)))" 2>/dev/null
    sleep 0.05
  done
) &
writer=$!

# new_process PID COMM CLIENT_ID: a process with one DRM fd, built aside
# and moved into proc/ whole, so no read sees it without its fd (a process
# seen without DRM fds is walked again only at its next full scan)
new_process() {
  local real=$FP
  FP=$real/stage
  mkdir -p "$FP/proc" "$FP/dev"
  fp_process "$1" "$2"
  ln -sfn "$real/dev/card0" "$FP/proc/$1/fd/3"
  fp_fdinfo "$1" 3 "$(fp_i915 "$3" 0)"
  FP=$real
  mv "$FP/stage/proc/$1" "$FP/proc/$1"
}

screen() { tm capture-pane -p -t "$1"; }
# wait_screen SESSION CMD...: poll the screen (at most 10 s) until CMD,
# given the screen on stdin, succeeds
wait_screen() {
  local s=$1 i
  shift
  for ((i = 0; i < 100; i++)); do
    screen "$s" | "$@" >/dev/null 2>&1 && return 0
    sleep 0.1
  done
  echo "# screen of $s:" && screen "$s" | sed 's/^/#   /'
  return 1
}
# has PATTERN... / lacks PATTERN...: on the screen given on stdin
has() {
  local s p
  s=$(cat)
  for p; do grep -qE -- "$p" <<<"$s" || return 1; done
}
lacks() {
  local s p
  s=$(cat)
  for p; do grep -qE -- "$p" <<<"$s" && return 1; done
  return 0
}
line_of() { grep -n "$1" | head -1 | cut -d: -f1; }
before() { # PATTERN1 PATTERN2: the first is on a line above the second
  local s a b
  s=$(cat)
  a=$(line_of "$1" <<<"$s")
  b=$(line_of "$2" <<<"$s")
  [[ -n $a && -n $b && $a -lt $b ]]
}

# The view runs under a shell that records its exit status and the
# terminal settings before and after.
cat >"$T/run.sh" <<EOF
ulimit -c 0 # the crash cases below leave no core file
stty -g >"$T/stty.before"
"$BIN" --format=top --interval=0.3 $ROOTS
echo \$? >"$T/exit"
stty -g >"$T/stty.after"
exec sleep 600
EOF
tm new-session -d -s top -x 100 -y 30 \
  "env LANG=C.UTF-8 LC_ALL=C.UTF-8 TERM=xterm-256color bash $T/run.sh"

tap_check "the device header and both processes are drawn" \
  wait_screen top grep -q 'i915 0000:00:02.0  mem 16.0 MiB total'
tap_check "sorted by busy: blender (45 %) above glxgears (10 %)" \
  wait_screen top before ' 200 root     blender' ' 100 root     glxgears'
# (the busy values follow the writer, which a loaded machine slows: their
# form is checked here, their order by the sort checks)
tap_check "units: busy % and memory in MiB; the USER column" \
  wait_screen top grep -qE ' 200 root     blender +0000:00:02.0 +[0-9]+\.[0-9]% +[0-9]+\.[0-9]% +- +8\.00 MiB'
hdr0=$(screen top | line_of ' NAME  ')
tap_check "the help line at the bottom" \
  wait_screen top sh -c 'tail -n 1 | grep -q "^q quit  h help  s/S sort"'
tap_check "the device's utilisation chart, in braille (UTF-8)" \
  wait_screen top env LC_ALL=C.UTF-8 bash -c 's=$(cat); grep -qP "^  util +.* 100%$" <<<"$s" && grep -qP "^  -[0-9]+s +.*[\x{2801}-\x{28ff}]" <<<"$s"'

tm send-keys -t top h
tap_check "h: the help screen lists the keys" \
  wait_screen top has '^Keys' '^  h \? F1 +this help' '^  / +filter rows'
tm send-keys -t top x
tap_check "any key leaves the help screen" \
  wait_screen top has ' 200 root +blender' '^q quit'

new_process 600 newproc 9
tap_check "a process that starts appears at a refresh, sorted in" \
  wait_screen top before ' 600 root     newproc' ' 100 root     glxgears'
# moved away whole first: the writer, which checks for the directory, never
# writes into one half removed
mv "$FP/proc/600" "$FP/gone.600" && rm -rf "$FP/gone.600"
tap_check "a process that exits is gone at a refresh" \
  wait_screen top lacks newproc

tm send-keys -t top s s
tap_check "s s: sorted by pid, marked PID*" \
  wait_screen top grep -q 'PID\*' 
tap_check "s s: glxgears (100) above blender (200)" \
  wait_screen top before ' 100 root     glxgears' ' 200 root     blender'
tm send-keys -t top / B L E N D
tap_check "/BLEND, before Enter: only blender, any case; the header stays" \
  wait_screen top bash -c 's=$(cat); grep -qE " 200 root +blender" <<<"$s" && ! grep -q glxgears <<<"$s" && grep -q "^i915 0000:00:02.0" <<<"$s"'
tm send-keys -t top Enter /
tap_check "/ again: the filter is edited, not wiped" \
  wait_screen top grep -q '^filter: BLEND_'
tm send-keys -t top Escape
tap_check "Esc: the filter is cleared" \
  wait_screen top has ' 100 root +glxgears' ' 200 root +blender' '^q quit'
tm send-keys -t top C
tap_check "C (not started with --ReportBy=Client): one row per DRM client" \
  wait_screen top grep -qE '^ +200 root +8 blender'
tm send-keys -t top c
tap_check "c: rows per container, asked of drm_fdinfo (--ReportBy=Container)" \
  wait_screen top grep -qE '^ CONTAINER +'
tm send-keys -t top g
tap_check "g: one row per cgroup, the path cut in the middle" \
  wait_screen top grep -qE '^ /user\.slice/.*…/app-org\.blender\.scope 0000:00:02\.0 +[0-9.]+%'
tm send-keys -t top p
tap_check "p: rows per process again" \
  wait_screen top grep -qE '^ +200 root +blender'

tm resize-window -t top -x 60 -y 16
tap_check "resize: the help line moves to the new bottom row" \
  wait_screen top bash -c 's=$(cat); [ "$(grep -c "" <<<"$s")" -le 16 ] && tail -n 1 <<<"$s" | grep -q "^q quit"' 
tap_check "resize: no line is wider than 60 columns" \
  wait_screen top sh -c '[ "$(LC_ALL=C.UTF-8 wc -L)" -le 60 ]'

# More rows than the screen holds: the headers stay, the rows scroll, a
# line says how many are off the screen.
for pid in 401 402 403 404 405 406 407 408 409 410; do
  new_process $pid "extra$pid" $pid
done
tm resize-window -t top -x 100 -y 16
tap_check "rows past the screen: a line counts those below" \
  wait_screen top grep -qE '^  \([0-9]+ more below, 0 above: up/down, PgUp/PgDn\)'
tm send-keys -t top End
tap_check "End: the last rows, the column header still on screen" \
  wait_screen top has '^  \(0 more below, [1-9][0-9]* above' ' +PID\*? USER +NAME'
tm send-keys -t top Home
tap_check "Home: back at the top" \
  wait_screen top grep -qE '^  \([0-9]+ more below, 0 above'
for pid in 401 402 403 404 405 406 407 408 409 410; do rm -rf "$FP/proc/$pid"; done
tm resize-window -t top -x 100 -y 30
tap_check "back to 100x30: every row fits, no line counts" \
  wait_screen top bash -c 's=$(cat); ! grep -q "more below" <<<"$s" && ! grep -q extra401 <<<"$s"'

# Hostile names: escape sequences (a title change, a screen clear), wide
# UTF-8 and 200 characters.
new_process 300 $'\e]0;pwned\a\e[2Jx' 10
new_process 301 $'\xe6\xb8\xb2\xe6\x9f\x93\xe5\x99\xa8\xe6\xb8\xb2\xe6\x9f\x93\xe5\x99\xa8\xe6\xb8\xb2\xe6\x9f\x93' 11
new_process 302 "$(printf 'L%.0s' {1..200})" 12
chown 65534 "$FP/proc/302" # USER: the owner of /proc/<pid>
tap_check "hostile names: escapes shown as '?', in their column" \
  wait_screen top grep -qE '^ +300 root     \?\]0;pwned\?\?\[2Jx +0000:00:02\.0'
tap_check "hostile names: wide characters in their column" \
  wait_screen top grep -qE '^ +301 root     渲染器渲染器渲染 +0000:00:02\.0'
tap_check "hostile names: 200 characters cut with a marker; USER from the owner" \
  wait_screen top grep -qE '^ +302 nobody   L{29}… 0000:00:02\.0'
# A message from the plugin (a malformed fdinfo value) goes on the line
# above the help line, not into the middle of the screen.
new_process 303 malformed 13
fp_fdinfo 303 3 $'drm-driver:\ti915\ndrm-pdev:\t0000:00:02.0\ndrm-client-id:\t13\ndrm-engine-render:\t5 us\n'
tap_check "a plugin warning is shown above the help line" \
  wait_screen top bash -c 's=$(cat); tail -n 2 <<<"$s" | head -n 1 | grep -q "^warning: drm_fdinfo: .*303.*malformed"'
s=$(screen top)
tap_is "" "$(tm display-message -p -t top '#{pane_title}' | grep pwned)" \
  "hostile names: the pane title is untouched"
tap_is "$hdr0" "$(line_of ' NAME  ' <<<"$s")" \
  "hostile names: the column header stays on its row"
tap_check "hostile names: no line is wider than the terminal" \
  test "$(LC_ALL=C.UTF-8 wc -L <<<"$s")" -le 100
rm -rf "$FP/proc/303"

# space pauses: the screen stays as it is over several intervals (0.3 s)
tm send-keys -t top Space
tap_check "space: paused, said on the help line" \
  wait_screen top grep -q 'space resume \[paused\]'
screen top >"$T/paused"
sleep 1 # three intervals: a running view would have redrawn new values
tap_is "$(cat "$T/paused")" "$(screen top)" "space: nothing changes while paused"
tm send-keys -t top Space
changed() { # the screen (stdin) runs again and differs from the paused one
  local s
  s=$(cat)
  grep -q 'space pause ' <<<"$s" && [[ $s != "$(cat "$T/paused")" ]]
}
tap_check "space again: running, the values move" wait_screen top changed
tm send-keys -t top q
for ((i = 0; i < 100; i++)); do [[ -s $T/stty.after ]] && break; sleep 0.1; done
tap_is 0 "$(cat "$T/exit" 2>/dev/null)" "q: exit status 0"
tap_is "$(cat "$T/stty.before")" "$(cat "$T/stty.after" 2>/dev/null)" \
  "q: the terminal settings are restored"
tap_is 0 "$(tm display-message -p -t top '#{alternate_on}')" \
  "q: the alternate screen is left"

# Stop signals (Telegraf's SIGTERM, Ctrl-C, a hangup): exit 0; a crash
# (SIGSEGV, SIGABRT) or a quit (Ctrl-\, SIGQUIT): killed by it. The
# terminal is restored either way: the same `stty -g` before and after.
n=1
stop_case() { # NAME SIGNAL|KEY EXPECTED_EXIT
  local name=$1 how=$2 want=$3 shell view
  n=$((n + 1))
  sed "s|$T/exit|$T/exit$n|; s|$T/stty.after|$T/stty.after$n|" "$T/run.sh" >"$T/run$n.sh"
  tm new-session -d -s "s$n" -x 80 -y 24 \
    "env LANG=C.UTF-8 TERM=xterm-256color bash $T/run$n.sh"
  tap_check "$name: the view is up" wait_screen "s$n" grep -q 'q quit'
  if [[ $how == C-* ]]; then
    tm send-keys -t "s$n" "$how"
  else
    shell=$(tm display-message -p -t "s$n" '#{pane_pid}')
    view=$(pgrep -P "$shell" -x drm_fdinfo)
    kill "-$how" "$view"
  fi
  for ((i = 0; i < 100; i++)); do [[ -s $T/stty.after$n ]] && break; sleep 0.1; done
  tap_is "$want" "$(cat "$T/exit$n" 2>/dev/null)" "$name: exit status $want"
  tap_is "$(cat "$T/stty.before")" "$(cat "$T/stty.after$n" 2>/dev/null)" \
    "$name: the terminal settings are restored"
  tap_is 0 "$(tm display-message -p -t "s$n" '#{alternate_on}')" \
    "$name: the alternate screen is left"
}
stop_case SIGTERM TERM 0
stop_case "Ctrl-C" C-c 0
stop_case SIGHUP HUP 0
stop_case "SIGSEGV (a crash)" SEGV 139
# Ctrl-\ and SIGQUIT: the default action (exit 128 + 3), the terminal
# restored by the handler (tcsetattr and write: async-signal-safe)
stop_case "Ctrl-\\ (SIGQUIT)" 'C-\' 131
stop_case SIGQUIT QUIT 131
stop_case "SIGABRT (a crash)" ABRT 134

# --once: one sorted screen of plain text, the top N rows.
# (a 1 s window: the writer, slowed by a loaded machine, runs in it)
out=$(COLUMNS=100 "$BIN" --format=top --once --window=1 --rows=2 $ROOTS 2>"$T/err")
tap_is "0|" "$?|$(cat "$T/err")" "--once: exit 0, nothing on stderr"
tap_is "" "$(grep -c $'\e' <<<"$out" | grep -v '^0$')" "--once: no escape codes"
tap_check "--once: the busiest first (blender)" before ' 200 root     blender' ' 100 root     glxgears' <<<"$out"
tap_is "  (3 more)" "$(tail -n 1 <<<"$out")" \
  "--once --rows=2: two of the five processes, the rest counted"
tap_check "--once: no line wider than COLUMNS" test "$(LC_ALL=C.UTF-8 wc -L <<<"$out")" -le 100
out=$(COLUMNS=80 "$BIN" --format=top --once --window=0.3 $ROOTS 2>/dev/null)
tap_check "--once at 80 columns: BUSY, RESIDENT and MEMORY, sorted by BUSY" \
  grep -qE '^ +PID USER +NAME .* BUSY\* +RESIDENT +MEMORY$' <<<"$out"
tap_check "--once at 80 columns: no line wider" test "$(LC_ALL=C.UTF-8 wc -L <<<"$out")" -le 80

# No GPU: said, with where the plugin looked.
mkdir -p "$T/empty/proc" "$T/empty/sys"
out=$(COLUMNS=100 "$BIN" --format=top --once --window=0 \
  --ProcRoot="$T/empty/proc" --SysfsRoot="$T/empty/sys" 2>/dev/null)
tap_is "no GPU found
drm_fdinfo: no device under $T/empty/sys (--log-level=info says what it looked at)" \
  "$out" "no GPU: --once says so and where it looked"

# The first screen comes after the window, not after a whole interval.
tm new-session -d -s first -x 100 -y 30 \
  "env LANG=C.UTF-8 TERM=xterm-256color $BIN --format=top --interval=60 $ROOTS"
tap_check "--interval=60: the first values after the 1 s window" \
  wait_screen first grep -qE ' 200 root +blender'
tm send-keys -t first q

# Not root: one line says what cannot be seen and why, with the count,
# only when something could not be read.
chmod 0755 "$T"
as_nobody() {
  setpriv --reuid=65534 --regid=65534 --clear-groups env COLUMNS=200 \
    "$BIN" --format=top --once --window=0 $ROOTS 2>&1
}
out=$(as_nobody)
tap_check "not root, every process readable: no notice" \
  bash -c '! grep -q "not root" <<<"$1" && grep -q " 200 .*blender" <<<"$1"' _ "$out"
chmod 0700 "$FP/proc/200/fd"
out=$(as_nobody)
chmod 0755 "$FP/proc/200/fd"
tap_check "not root, a process unreadable: the notice once, with the count" grep -qx \
  "not root: other users' processes are not shown (reading their /proc/<pid>/fdinfo needs ptrace access: run as root or with CAP_SYS_PTRACE); 1 process could not be read" <<<"$out"
tap_is 1 "$(grep -c 'not root' <<<"$out")" "not root: said once, not per device"

# The panels of another plugin (panthor_perf on the emulated Mali-G720):
# derived metrics with units; raw counters behind r.
source tests/lib/emulated.sh
emu_setup "$T/emu"
emu_cmd panthor_perf
printf '%q ' "${EMU_CMD[@]}" >"$T/pp.sh"
echo '--format=top --interval=0.3' >>"$T/pp.sh"
tm new-session -d -s pp -x 100 -y 40 "env LANG=C.UTF-8 TERM=xterm-256color bash $T/pp.sh"
tap_check "panthor_perf: a panel of derived metrics with units" \
  wait_screen pp has '^panthor_perf device=renderD128 gpu=Mali-G720  \(\+14 raw counters: r\)' \
  'tiler_utilization_percent +[0-9.]+%' 'ext_read_bandwidth +[0-9.]+ [KM]iB/s'
tap_check "panthor_perf: raw counters are hidden" wait_screen pp lacks gpu_active_cycles
tm send-keys -t pp r
tap_check "panthor_perf: r shows the raw counters and the stream's" \
  wait_screen pp has 'gpu_active_cycles +[0-9]+' '^panthor_perf_stream device=renderD128'
tm send-keys -t pp q
for ((i = 0; i < 100; i++)); do tm has-session -t pp 2>/dev/null || break; sleep 0.1; done
gone() { ! tm has-session -t "$1" 2>/dev/null; }
tap_check "panthor_perf: q ends the view" gone pp

# i915_oa on the emulated GPU, one screen: its derived metrics with units.
emu_cmd i915_oa
out=$(COLUMNS=100 "${EMU_CMD[@]}" --format=top --once --window=0.3 \
  --MetricSet=db41edd4-d8e7-4730-ad11-b9a2d6833503 2>"$T/err")
tap_is "0|" "$?|$(cat "$T/err")" "i915_oa --format=top --once: exit 0, nothing on stderr"
tap_check "i915_oa: GPU busy in % and the core frequency in GHz" has \
  '^i915_oa device=0000:00:02.0 metric_set=db41edd4-d8e7-4730-ad11-b9a2d6833503 engine=render0' \
  '^  gpu_busy_percent +50\.0%  avg_gpu_core_frequency_hz +1\.00 GHz$' <<<"$out"

# Slow reads (each 1 s, at --interval=0.2, the fake plugin): q is read
# between any two reads, and the view ends after the read under way.
cat >"$T/slow.sh" <<EOF
"$PWD/${BUILD:-build}/tests/fake_plugin" --format=top --interval=0.2 --ReadDelay=1
echo \$? >"$T/exit.slow"
stty -g >"$T/stty.slow"
exec sleep 600
EOF
tm new-session -d -s slow -x 80 -y 24 "env LANG=C.UTF-8 TERM=xterm-256color bash $T/slow.sh"
tap_check "slow reads: the view is up" wait_screen slow grep -q '^fake instance='
t0=$(date +%s%N)
tm send-keys -t slow q
for ((i = 0; i < 100; i++)); do [[ -s $T/stty.slow ]] && break; sleep 0.1; done
ms=$((($(date +%s%N) - t0) / 1000000))
tap_is 0 "$(cat "$T/exit.slow" 2>/dev/null)" "slow reads: q exits 0"
tap_check "slow reads: q ends the view within 3 s (${ms} ms; a read is 1 s)" test "$ms" -lt 3000
tap_is "$(cat "$T/stty.before")" "$(cat "$T/stty.slow" 2>/dev/null)" \
  "slow reads: the terminal settings are restored"

# The default on a terminal with neither a format nor a mode is the view;
# on a pipe it stays Influx line protocol.
sed "s|--format=top --interval=0.3|--interval=0.3|; s|$T/exit|$T/exit.default|" \
  "$T/run.sh" >"$T/run-default.sh"
sed -i "s|--interval=0.3 |--window=0.3 |" "$T/run-default.sh"
tm new-session -d -s dflt -x 100 -y 30 \
  "env LANG=C.UTF-8 TERM=xterm-256color bash $T/run-default.sh"
tap_check "no --format, no mode, on a terminal: the live view" \
  wait_screen dflt has '^q quit' ' 200 root     blender'
tm send-keys -t dflt q
for ((i = 0; i < 100; i++)); do [[ -s $T/exit.default ]] && break; sleep 0.1; done
tap_is 0 "$(cat "$T/exit.default" 2>/dev/null)" "the default view: q exits 0"
out=$("$BIN" --window=0 $ROOTS 2>/dev/null | head -n 1)
tap_check "no --format on a pipe: Influx line protocol" \
  grep -qE '^drm_(engine|memory|clients|scan)[, ]' <<<"$out"

# The live view needs a terminal: on a pipe it says so and exits 1.
out=$("$BIN" --format=top $ROOTS 2>"$T/err" </dev/null)
tap_is "1||top: stdout: not a terminal: the live view needs one (use --format=top --once for one plain-text screen)" \
  "$?|$out|$(cat "$T/err")" "live view on a pipe: exit 1, nothing on stdout, why on stderr"

tap_done
