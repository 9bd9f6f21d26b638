#!/usr/bin/env bash
# gpu-telemetry --format=top in a real terminal (tmux on a private socket):
# drm_fdinfo and drm_device in one process on the same device (a synthetic
# /proc and /sys for drm_fdinfo, drm_device's xe fixture tree, both naming
# 0000:03:00.0): one header per device joining drm_fdinfo's memory and
# engine bar with drm_device's clock, temperature, power and fan; the
# history chart under it (braille in a UTF-8 locale, ASCII in C); the
# process row; q restores the terminal and exits 0. --once prints the
# same header as plain text. Every wait is a bounded poll of capture-pane.
set -uo pipefail
export LC_ALL=C.UTF-8
cd "$(dirname "$0")/../.."
source tests/lib/tap.sh
source tests/lib/fakeproc.sh
source tests/lib/require.sh
BIN=$PWD/${BUILD:-build}/gpu-telemetry

require_cmd "gpu-telemetry top in tmux" tmux
require_root "gpu-telemetry top in tmux" "needs root for mknod of DRM device nodes"

fp_init
T=$(mktemp -d "${TMPDIR:-/tmp}/gpu-top.XXXXXX")
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

"${BUILD:-build}/tests/ddv_tree" "$T/ddv" xe_bmg >/dev/null
fp_device 226 1 card1 0000:03:00.0 xe
fp_process 100 blender
xe_fdinfo() { # RENDER_NS
  printf 'pos:\t0\ndrm-driver:\txe\ndrm-pdev:\t0000:03:00.0\ndrm-client-id:\t7\ndrm-engine-render:\t%s ns\ndrm-total-vram0:\t64 MiB\n' "$1"
}
fp_fd 100 3 card1 "$(xe_fdinfo 0)"
# render busy 60 % of the time, advancing with the clock
t0=$(date +%s%N)
(
  while :; do
    fp_fdinfo 100 3 "$(xe_fdinfo $((($(date +%s%N) - t0) * 6 / 10)))"
    sleep 0.05
  done
) &
writer=$!
ARGS="--plugin=drm_fdinfo --plugin=drm_device --drm_fdinfo.ProcRoot=$FP/proc \
--drm_fdinfo.SysfsRoot=$FP/sys --drm_fdinfo.DebugfsRoot=$FP/debug \
--drm_device.SysfsRoot=$T/ddv/sys"

screen() { tm capture-pane -p -t "$1"; }
# wait_screen SESSION PATTERN...: poll (at most 15 s) until every
# extended regex matches the screen
wait_screen() {
  local s=$1 i p ok
  shift
  for ((i = 0; i < 150; i++)); do
    ok=1
    for p; do screen "$s" | grep -qE -- "$p" || ok=0; done
    ((ok)) && return 0
    sleep 0.1
  done
  echo "# screen of $s:" && screen "$s" | sed 's/^/#   /'
  return 1
}

# ---- --once: the joined header as plain text ----
out=$(COLUMNS=120 "$BIN" $ARGS --format=top --once --window=0.3 2>"$T/once.err")
tap_is 0 $? "--once: exit 0"
header=$(grep -E '^xe 0000:03:00\.0 ' <<<"$out")
tap_is 1 "$(grep -c . <<<"$header")" "--once: one header for the device of both plugins"
for part in 'mem 64\.0 MiB' 'gt0 [0-9.]+ GHz' '[0-9.]+ C' '/ 250 W' 'fan 1200 rpm'; do
  tap_check "--once: the header has '$part'" grep -qE -- "$part" <<<"$header"
done
tap_check "--once: the process row" grep -qE '^ +100 .*blender' <<<"$out"

# ---- the live view in UTF-8: header, chart, q ----
cat >"$T/run.sh" <<EOF
stty -g >"$T/stty.before"
"$BIN" $ARGS --format=top --interval=0.2 --window=0.2 2>"$T/live.err"
echo \$? >"$T/status"
stty -g >"$T/stty.after"
EOF
tm new-session -d -s live -x 120 -y 40 "env LANG=C.UTF-8 LC_ALL=C.UTF-8 TERM=xterm-256color bash $T/run.sh; sleep 30"
tap_check "live: the joined header (drm_fdinfo's memory, drm_device's clock, temperature, power, fan)" \
  wait_screen live '^xe 0000:03:00\.0 +mem 64\.0 MiB.* gt0 [0-9.]+ GHz.* C .*/ 250 W.*fan 1200 rpm'
tap_check "live: the process row under it" wait_screen live '^ +100 .*blender'
tap_check "live: the utilisation chart in braille cells (⣿: a full cell at 60 % busy)" \
  wait_screen live '⣿'
tap_is 1 "$(screen live | grep -cE '^xe 0000:03:00\.0 ')" "live: one header for the device"
tm send-keys -t live q
for ((i = 0; i < 100; i++)); do [[ -s $T/stty.after ]] && break; sleep 0.1; done
tap_is 0 "$(cat "$T/status" 2>/dev/null)" "live: q exits 0"
tap_is "$(cat "$T/stty.before")" "$(cat "$T/stty.after" 2>/dev/null)" "live: q restores the terminal"

rm -f "$T/stty.after"
# ---- the chart in ASCII where the locale is not UTF-8 ----
rm -f "$T/status"
tm new-session -d -s ascii -x 120 -y 40 "env LANG=C LC_ALL=C TERM=xterm-256color bash $T/run.sh; sleep 30"
tap_check "C locale: the header" wait_screen ascii '^xe 0000:03:00\.0 '
tap_check "C locale: the chart drawn in ASCII ('#', '|', ':', '.')" wait_screen ascii '^ +-[0-9]+s +[#|:.]+'
tap_is "" "$(screen ascii | LC_ALL=C grep -P '[\x80-\xff]' | head -2)" "C locale: no byte outside ASCII on the screen"
tm send-keys -t ascii q
for ((i = 0; i < 100; i++)); do [[ -s $T/status ]] && break; sleep 0.1; done
tap_is 0 "$(cat "$T/status" 2>/dev/null)" "C locale: q exits 0"

# ---- an amdgpu with clients whose runtime PM may suspend it ----
# (power/control auto, a 5 s autosuspend delay: drm_device reads the
# attributes that take a runtime-PM reference only when its rule allows,
# and holds the last reading in between with values_age_seconds): the
# header has the clock, temperature and power in every frame, and says
# the age of held values. Where drm_device does not hold them yet (no
# values_age_seconds in its records), this part is skipped.
"${BUILD:-build}/tests/ddv_tree" "$T/amd" amdgpu_dgpu >/dev/null
"${BUILD:-build}/tests/ddv_tree" "$T/amd" --autosuspend card1 auto 5000
fp_device 226 2 card2 0000:0b:00.0 amdgpu
fp_process 300 game
fp_fd 300 3 card2 "$(printf 'pos:\t0\ndrm-driver:\tamdgpu\ndrm-pdev:\t0000:0b:00.0\ndrm-client-id:\t9\ndrm-engine-gfx:\t1000 ns\ndrm-memory-vram:\t64 MiB\n')"
AMD="--plugin=drm_fdinfo --plugin=drm_device --drm_fdinfo.ProcRoot=$FP/proc \
--drm_fdinfo.SysfsRoot=$FP/sys --drm_fdinfo.DebugfsRoot=$FP/debug \
--drm_device.SysfsRoot=$T/amd/sys"
if ! "$BIN" --plugin=drm_device --drm_device.SysfsRoot="$T/amd/sys" --once 2>/dev/null |
  grep -q 'values_age_seconds='; then
  tap_skip "amdgpu held values" "drm_device reports no values_age_seconds here"
else
  tm new-session -d -s amd -x 80 -y 24 \
    "env LANG=C.UTF-8 LC_ALL=C.UTF-8 TERM=xterm-256color $BIN $AMD --format=top --interval=0.5 --window=0.2"
  # the header may wrap: its parts anywhere above the table
  parts=('^amdgpu 0000:0b:00\.0 ' 'sclk [0-9.]+ GHz' ' [0-9.]+ C( |$)' ' [0-9.]+ W / 272 W')
  tap_check "amdgpu: the header with clients" wait_screen amd "${parts[@]}" '^ +300 .*game'
  frames=0 aged=0
  for ((i = 0; i < 16; i++)); do
    s=$(screen amd)
    ok=1
    for p in "${parts[@]}"; do grep -qE -- "$p" <<<"$s" || ok=0; done
    frames=$((frames + ok))
    grep -qE '\([0-9.]+[sm] old\)' <<<"$s" && aged=$((aged + 1))
    sleep 0.4
  done
  tap_is 16 "$frames" "amdgpu: clock, temperature and power in every frame (16 over 6 s)"
  tap_check "amdgpu: held values say their age in some frame ($aged of 16)" test "$aged" -gt 0
  tm send-keys -t amd q
fi

tap_done
