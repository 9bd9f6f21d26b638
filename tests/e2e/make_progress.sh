#!/usr/bin/env bash
# What make demo and make test install and print before and while they
# work: the demo's Debian packages are the build set plus the daemon (no
# test toolchain); make demo builds no test program; a build prints one
# short line per step ("CC file"), V=1 the commands, -s nothing;
# tests/run.sh prints a progress line while a program runs and its time.
set -uo pipefail
cd "$(dirname "$0")/../.."
# make's output is read: flags of a calling make (-s) must not reach it
unset MAKEFLAGS MFLAGS MAKELEVEL
source tests/lib/tap.sh
T=$(mktemp -d "${TMPDIR:-/tmp}/make-progress.XXXXXX")
trap 'rm -rf "$T"' EXIT

demo=$(tools/deps.sh --list demo | sort | tr '\n' ' ')
build=$(tools/deps.sh --list build | sort | tr '\n' ' ')
tap_is "collectd-core collectd-dev gcc libc6-dev libcrypt-dev libdrm-dev libmicrohttpd-dev libncurses-dev libyajl-dev make pkg-config util-linux zlib1g-dev " \
  "$demo" "make demo installs the build set, collectd-core and util-linux only"
for p in clang valgrind influxdb lintian debhelper linux-perf prometheus graphite-carbon libcmocka-dev; do
  tap_check "make demo does not install $p" bash -c "! grep -qw -- '$p' <<<'$demo'"
  tap_check "make test installs $p" bash -c "tools/deps.sh --list test | grep -qx -- '$p'"
done
for p in $build; do
  tap_check "make demo installs build package $p" grep -qw -- "$p" <<<"$demo"
done
tap_is "" "$(make --no-print-directory -n BUILD="$T/b" demo 2>/dev/null | grep -E -- '-lcmocka|tests/test_')" \
  "make demo builds no test program"

make --no-print-directory BUILD="$T/b" "$T/b/obj/common/core/text.o" >"$T/quiet.log" 2>&1
tap_is "  CC     common/core/text.c" "$(cat "$T/quiet.log")" "a build step prints one short line"
rm -f "$T/b/obj/common/core/text.o"
make --no-print-directory V=1 BUILD="$T/b" "$T/b/obj/common/core/text.o" >"$T/v.log" 2>&1
tap_check "V=1 prints the compiler command" grep -qE '^cc .* -c common/core/text.c -o ' "$T/v.log"
rm -f "$T/b/obj/common/core/text.o"
make --no-print-directory -s BUILD="$T/b" "$T/b/obj/common/core/text.o" >"$T/s.log" 2>&1
tap_is "" "$(cat "$T/s.log")" "make -s prints nothing"

# tests/run.sh with one slow program: progress lines while it runs.
mkdir -p "$T/run/tests"
printf '#!/bin/sh\nsleep 3\necho "ok 1 - slow"\necho "1..1"\n' >"$T/run/tests/test_slow"
chmod +x "$T/run/tests/test_slow"
BUILD=$T/run TEST_FILTER=unit/test_slow TEST_PROGRESS_SECONDS=1 tests/run.sh >"$T/run.log" 2>&1
tap_check "run.sh prints a progress line while a program runs" \
  grep -qE '^    \.\.\. unit/test_slow: [12] s, 0 results so far$' "$T/run.log"
tap_check "run.sh gives the program's time" \
  grep -qE '^unit/test_slow +1 passed, 0 skipped \([3-9] s\)$' "$T/run.log"
sed 's/^/# /' "$T/run.log" | head -8
tap_done
