#!/usr/bin/env bash
# Each unit test, tool and benchmark links what its #include lines name
# (tests/tests.mk, link_deps_of), not every plugin: read from the link
# commands make would run (make -n, the source marked new).
set -uo pipefail
cd "$(dirname "$0")/../.."
# make's output is read: flags of a calling make (-s) must not reach it
unset MAKEFLAGS MFLAGS MAKELEVEL
source tests/lib/tap.sh
B=${BUILD:-build}
# every unit test's and bench_scan's link command, from one make -n
srcs=(tests/unit/test_*.c bench/bench_scan.c)
progs=()
ws=()
for src in "${srcs[@]}"; do
  case $src in
  bench/*) progs+=("$B/bench/$(basename "$src" .c)") ;;
  *) progs+=("$B/tests/$(basename "$src" .c)") ;;
  esac
  ws+=(-W "$src")
done
make --no-print-directory -n V=1 BUILD="$B" "${ws[@]}" "${progs[@]}" >"${TMPDIR:-/tmp}/link_deps.$$" 2>/dev/null
lines=$(grep -E -- ' -o ' "${TMPDIR:-/tmp}/link_deps.$$")
rm -f "${TMPDIR:-/tmp}/link_deps.$$"
link_line() { # program path, its source
  grep -E -- "-o $1( |$)" <<<"$lines"
}
plugins_in() { grep -oE 'obj/plugins/[a-z0-9_]+/' <<<"$1" | sort -u | cut -d/ -f3 | tr '\n' ' ' | sed 's/ $//'; }

l=$(link_line "$B/tests/test_metric" tests/unit/test_metric.c)
tap_check "test_metric's link command is found" test -n "$l"
tap_is "" "$(plugins_in "$l")" "test_metric links no plugin object"
tap_is "" "$(grep -o 'libshim.a\|tests/lib/[a-z_]*\.o' <<<"$l")" "test_metric links neither the shim nor test fixtures"

l=$(link_line "$B/tests/test_ppf_session" tests/unit/test_ppf_session.c)
tap_is "panthor_perf" "$(plugins_in "$l")" "test_ppf_session links panthor_perf's objects only"
tap_check "test_ppf_session links the shim (it includes tests/shim/shim.h)" grep -q 'libshim.a' <<<"$l"

l=$(link_line "$B/tests/test_dfi_procscan" tests/unit/test_dfi_procscan.c)
tap_is "drm_fdinfo" "$(plugins_in "$l")" "test_dfi_procscan links drm_fdinfo's objects only"
tap_check "test_dfi_procscan links fakeproc.o, which dfi_fixture.h includes" grep -q 'tests/lib/fakeproc.o' <<<"$l"

l=$(link_line "$B/bench/bench_scan" bench/bench_scan.c)
tap_is "drm_fdinfo" "$(plugins_in "$l")" "bench_scan links drm_fdinfo's objects only"

all=0
for src in tests/unit/test_*.c; do
  t=$(basename "$src" .c)
  n=$(plugins_in "$(link_line "$B/tests/$t" "$src")" | wc -w)
  [[ $n -ge 4 ]] && all=$((all + 1))
done
tap_is 0 "$all" "no unit test links the objects of four plugins"
tap_done
