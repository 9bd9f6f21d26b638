#!/usr/bin/env bash
# The live view in real terminals of 80x24, 100x30 and 200x60 (tmux on a
# private socket, the screen read with capture-pane in bounded polls):
#  - six devices of six drivers with 18 processes (drm_fdinfo on a
#    synthetic /proc and /sys, a writer advancing their busy time): every
#    device named at every size, at least five process rows, nothing wider
#    or taller than the terminal; End keeps the device lines and the
#    column header; BUSY never above 100 %; after a filter to one driver
#    the engine columns are that driver's;
#  - records_feed (tests/tools/records_feed.c) standing in for plugin
#    sides that land elsewhere: drm_device's values_age_seconds (a held
#    value marked with its age only once older than the interval, the
#    clock, temperature and power in every frame) and drm_fdinfo's
#    ReportBy Container rows (c: namespace/pod/container, runtime:id,
#    the cgroup path); the chart's time label stays a few seconds.
set -uo pipefail
export LC_ALL=C.UTF-8
cd "$(dirname "$0")/../.."
source tests/lib/tap.sh
source tests/lib/fakeproc.sh
source tests/lib/require.sh
BIN=$PWD/${BUILD:-build}/drm_fdinfo
FEED=$PWD/${BUILD:-build}/tests/records_feed

require_cmd "top view sizes in tmux" tmux
require_root "top view sizes in tmux" "needs root for mknod of DRM device nodes"

fp_init
T=$(mktemp -d "${TMPDIR:-/tmp}/top-short.XXXXXX")
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

screen() { tm capture-pane -p -t "$1"; }
# wait_screen SESSION CMD...: poll the screen (at most 15 s) until CMD,
# given the screen on stdin, succeeds
wait_screen() {
  local s=$1 i
  shift
  for ((i = 0; i < 150; i++)); do
    screen "$s" | "$@" >/dev/null 2>&1 && return 0
    sleep 0.1
  done
  echo "# screen of $s:" && screen "$s" | sed 's/^/#   /'
  return 1
}

# ---- six devices, 18 processes ----
drivers=(i915 amdgpu xe nouveau msm v3d)
engines=(render gfx rcs gr gpu bin)
for k in 0 1 2 3 4 5; do
  fp_device 226 $k "card$k" "0000:0$((k + 1)):00.0" "${drivers[k]}"
done
fdinfo() { # K CLIENT_ID NS
  printf 'pos:\t0\ndrm-driver:\t%s\ndrm-pdev:\t0000:0%d:00.0\ndrm-client-id:\t%s\ndrm-engine-%s:\t%s ns\ndrm-total-system0:\t4 MiB\n' \
    "${drivers[$1]}" $(($1 + 1)) "$2" "${engines[$1]}" "$3"
}
for k in 0 1 2 3 4 5; do
  for p in 0 1 2; do
    pid=$((100 + 10 * k + p))
    fp_process $pid "${drivers[k]}-$p"
    fp_fd $pid 3 "card$k" "$(fdinfo $k $pid 0)"
  done
done
# busy: process p of device k at (3k + p + 1) % of its engine
t0=$(date +%s%N)
(
  while :; do
    d=$(($(date +%s%N) - t0))
    for k in 0 1 2 3 4 5; do
      for p in 0 1 2; do
        pid=$((100 + 10 * k + p))
        fp_fdinfo $pid 3 "$(fdinfo $k $pid $((d * (3 * k + p + 1) / 100)))"
      done
    done
    sleep 0.2
  done
) &
writer=$!
ROOTS="--ProcRoot=$FP/proc --SysfsRoot=$FP/sys --DebugfsRoot=$FP/debug"

# fits COLS ROWS: the screen (stdin) is no wider and no taller
fits() {
  local s
  s=$(cat)
  [[ $(LC_ALL=C.UTF-8 wc -L <<<"$s") -le $1 && $(grep -c '' <<<"$s") -le $2 ]]
}
# six_and_rows: every device named on its own line, five process rows or
# more, the help line at the bottom
six_and_rows() {
  local s k n
  s=$(cat)
  for k in 0 1 2 3 4 5; do
    grep -qE "^${drivers[k]} 0000:0$((k + 1)):00\.0" <<<"$s" || return 1
  done
  n=$(grep -cE '^ +1[0-6][0-9] root +[a-z0-9]+-[0-2] ' <<<"$s")
  ((n >= 5)) || return 1
  tail -n 1 <<<"$s" | grep -q '^q quit'
}
# busy_at_most_100: no percentage on a process row above 100
busy_at_most_100() {
  grep -E '^ +1[0-6][0-9] root ' | grep -oE '[0-9]+\.[0-9]%' | tr -d % |
    awk '$1 > 100 { bad = 1 } END { exit bad }'
}

cat >"$T/run.sh" <<EOF
stty -g >"$T/stty.before"
"$BIN" --format=top --interval=0.5 $ROOTS 2>"$T/err"
echo \$? >"$T/exit"
stty -g >"$T/stty.after"
exec sleep 600
EOF
tm new-session -d -s six -x 80 -y 24 \
  "env LANG=C.UTF-8 LC_ALL=C.UTF-8 TERM=xterm-256color bash $T/run.sh"
for size in 80x24 100x30 200x60; do
  cols=${size%x*} rows=${size#*x}
  tm resize-window -t six -x "$cols" -y "$rows"
  tap_check "$size: six devices named, five process rows or more" \
    wait_screen six six_and_rows
  tap_check "$size: no line wider than $cols, no more than $rows lines" \
    wait_screen six fits "$cols" "$rows"
  tap_check "$size: BUSY and every engine at most 100 %" \
    wait_screen six busy_at_most_100
done
# on the chart's bottom row, drawn for any busy device (its top row only
# above two thirds of the scale, which these loads of 6 to 51 % never reach)
tap_check "200x60: the charts are drawn (braille cells)" \
  wait_screen six env LC_ALL=C.UTF-8 grep -qP '^  -[0-9]{1,2}s +.*[\x{2801}-\x{28ff}]'
tap_check "200x60: the chart's time label is seconds, not the epoch" \
  wait_screen six grep -qE '^  -[0-9]{1,2}s +'

tm resize-window -t six -x 80 -y 24
tap_check "80x24: the rows scroll, a line counts those off the screen" \
  wait_screen six grep -qE '^  \([0-9]+ more below, 0 above'
tm send-keys -t six End
end_kept() { # the device lines and the column header after End
  local s
  s=$(cat)
  grep -qE '^  \(0 more below, [1-9][0-9]* above' <<<"$s" &&
    grep -qE '^i915 0000:01:00\.0' <<<"$s" &&
    grep -qE '^v3d 0000:06:00\.0' <<<"$s" &&
    grep -qE '^ +PID USER +NAME ' <<<"$s"
}
tap_check "End: the last rows, the device lines and the column header stay" \
  wait_screen six end_kept
tm send-keys -t six PageUp
tap_check "PgUp: still the device lines above the rows" \
  wait_screen six bash -c 's=$(cat); grep -q "^amdgpu 0000:02:00.0" <<<"$s" && grep -qE " above: up/down" <<<"$s"'
tm send-keys -t six Home / a m d g p u Enter
engines_of_amdgpu() {
  local s
  s=$(cat)
  grep -qE '^ +PID USER +NAME .* gfx +BUSY' <<<"$s" &&
    ! grep -qE '^ +PID USER +NAME .*(render|rcs|bin)' <<<"$s" &&
    grep -qE '^ +11[0-2] root +amdgpu-[0-2] ' <<<"$s"
}
tap_check "/amdgpu: the engine columns are amdgpu's (gfx), not i915's" \
  wait_screen six engines_of_amdgpu
tm send-keys -t six / Escape
tap_check "Esc: every driver's rows again" \
  wait_screen six six_and_rows
tm send-keys -t six h
tap_check "h: the help says what BUSY is" \
  wait_screen six grep -q '^BUSY: a row.s busiest engine'
tm send-keys -t six x q
for ((i = 0; i < 100; i++)); do [[ -s $T/stty.after ]] && break; sleep 0.1; done
tap_is 0 "$(cat "$T/exit" 2>/dev/null)" "six devices: q exits 0"
tap_is "$(cat "$T/stty.before")" "$(cat "$T/stty.after" 2>/dev/null)" \
  "six devices: the terminal settings are restored"
kill "$writer" 2>/dev/null && wait "$writer" 2>/dev/null
writer=

# ---- held values and containers: records_feed ----
ID1=4f7a8b9c0d1e2f3a4b5c6d7e8f9a0b1c2d3e4f5a6b7c8d9e0f1a2b3c4d5e6f7a
ID2=0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef
DEV=0000:0b:00.0
# records AGE: amdgpu with clients (drm_fdinfo's summary, engine, a
# process) and drm_device's clock, temperature, power and values' age;
# three container rows as drm_fdinfo's ReportBy Container writes them
records() {
  local c="drm_engine	scope=container	driver=amdgpu	device=$DEV	engine=gfx"
  cat <<EOF
drm_clients	driver=amdgpu	device=$DEV	clients:objects=3i	processes:objects=3i
drm_scan	processes:objects=3i	unreadable:objects=0i
drm_engine	scope=device	driver=amdgpu	device=$DEV	engine=gfx	utilization:percent=60
drm_engine	scope=process	driver=amdgpu	device=$DEV	engine=gfx	pid=4242	comm=trainer	utilization:percent=60
drm_device_freq	driver=amdgpu	device=$DEV	domain=sclk	actual_hz:gpu_hertz=1850000000
drm_device_temperature	driver=amdgpu	device=$DEV	sensor=edge	celsius:gpu_celsius=70
drm_device_power	driver=amdgpu	device=$DEV	sensor=PPT	power_watts:gpu_watts=110	power_cap_watts:gpu_watts=272
drm_device	driver=amdgpu	device=$DEV	values_age_seconds:gpu_seconds=$1
$c	cgroup=/kubepods.slice/kubepods-pod1a2b.slice/cri-containerd-$ID1.scope	container_runtime=containerd	namespace=ml	pod=trainer-7d9f	container=worker	pod_uid=1a2b3c4d-0000-1111-2222-333344445555	container_id=$ID1	utilization:percent=30
$c	cgroup=/system.slice/docker-$ID2.scope	container_runtime=docker	pod=	container=${ID2:0:12}	container_id=$ID2	utilization:percent=20
$c	cgroup=/user.slice/user-1000.slice/session-2.scope	container_runtime=host	utilization:percent=10
EOF
}
feed() { records "$1" >"$T/records.tmp" && mv -f "$T/records.tmp" "$T/records"; }
feed 0
cat >"$T/feed.sh" <<EOF
stty -g >"$T/stty.before"
"$FEED" --File=$T/records --format=top --interval=0.3 --window=0.1 2>"$T/feed.err"
echo \$? >"$T/exit.feed"
stty -g >"$T/stty.feed"
exec sleep 600
EOF
tm new-session -d -s feed -x 80 -y 24 \
  "env LANG=C.UTF-8 LC_ALL=C.UTF-8 TERM=xterm-256color bash $T/feed.sh"
hdr='^amdgpu 0000:0b:00\.0 .*sclk 1\.85 GHz.*70\.0 C.*110 W'
tap_check "held values: the header has the clock, temperature and power" \
  wait_screen feed grep -qE "$hdr"
tap_check "fresh values (age 0): no age said" \
  wait_screen feed bash -c "s=\$(cat); grep -qE '$hdr' <<<\"\$s\" && ! grep -q ' old)' <<<\"\$s\""
feed 0.2
sleep 1 # three intervals (0.3 s): a held value younger than one is not marked
tap_is "" "$(screen feed | grep ' old)')" "held 0.2 s at a 0.3 s interval: not marked"
feed 4.5
tap_check "held 4.5 s at a 0.3 s interval: marked with its age" \
  wait_screen feed grep -qE "$hdr.*\(4\.5s old\)"
# every frame: ten screens over three seconds each have all three values
frames=0
for ((i = 0; i < 10; i++)); do
  screen feed | grep -qE "$hdr" && frames=$((frames + 1))
  sleep 0.3
done
tap_is 10 "$frames" "the clock, temperature and power in every frame"

tm send-keys -t feed c
containers() {
  local s
  s=$(cat)
  grep -qE '^ CONTAINER +gfx +BUSY' <<<"$s" &&
    grep -qE '^ ml/trainer-7d9f/worker +30\.0%' <<<"$s" &&
    grep -qE '^ docker:0123456789ab +20\.0%' <<<"$s" &&
    grep -qE '^ /user\.slice/.*session-2\.scope +10\.0%' <<<"$s"
}
tap_check "c: containers by namespace/pod/container, runtime:id, cgroup path" \
  wait_screen feed containers
tm send-keys -t feed / w o r k e r Enter
tap_check "/worker: the container found by its name" \
  wait_screen feed bash -c 's=$(cat); grep -q "^ ml/trainer-7d9f/worker" <<<"$s" && ! grep -q "^ docker:" <<<"$s"'
tm send-keys -t feed / Escape p
tap_check "p: the process rows again" \
  wait_screen feed grep -qE '^ +4242 .*trainer'

# Ctrl-\ (SIGQUIT): killed by it, the terminal as it was
tm send-keys -t feed 'C-\'
for ((i = 0; i < 100; i++)); do [[ -s $T/stty.feed ]] && break; sleep 0.1; done
tap_is 131 "$(cat "$T/exit.feed" 2>/dev/null)" "Ctrl-\\: exit status 131 (SIGQUIT)"
tap_is "$(cat "$T/stty.before")" "$(cat "$T/stty.feed" 2>/dev/null)" \
  "Ctrl-\\: stty -g the same before and after"
tap_is 0 "$(tm display-message -p -t feed '#{alternate_on}')" \
  "Ctrl-\\: the alternate screen is left"

tap_done
