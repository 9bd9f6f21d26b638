#!/usr/bin/env bash
# Symbol hygiene of the collectd plugins: every build/*.so exports exactly
# one function, module_register (collectd dlopens plugins into one process,
# so a generic exported name such as log_msg or metric_init would bind to
# whichever plugin was loaded first), and every symbol it leaves undefined
# is provided by the daemon or by a library the .so lists as NEEDED.
set -uo pipefail
cd "$(dirname "$0")/../.."
source tests/lib/tap.sh
source tests/lib/require.sh
COLLECTD=${COLLECTD:-/usr/sbin/collectd}
BUILD=${BUILD:-build}
require_cmd "plugin symbols" nm readelf ldd
require_collectd "plugin symbols"

# Linker-made symbols a shared object may define besides ours.
allowed='^(_init|_fini|__bss_start|_edata|_end|_DYNAMIC|_GLOBAL_OFFSET_TABLE_)$'
# The libraries a plugin may need (sanitizer runtimes only in that build).
needed_ok='^(libc|libm|libpthread|libyajl|libdrm)\.so'
[[ ${SANITIZE:-} == 1 ]] && needed_ok='^(libc|libm|libpthread|libyajl|libdrm|libasan|libubsan|libstdc\+\+|libgcc_s|libdl|librt)\.so'

# Defined dynamic symbols of a file, one name per line, versions stripped.
defined() { nm -D --defined-only "$1" | awk 'NF == 3 { sub(/@.*/, "", $3); print $3 }'; }

sos=("$BUILD"/*.so)
if [[ ! -e ${sos[0]} ]]; then
  tap_fail "$BUILD/*.so exist (make all)"
  tap_done
  exit 1
fi
provided=$(mktemp)
trap 'rm -f "$provided"' EXIT
for so in "${sos[@]}"; do
  name=$(basename "$so")
  exports=$(defined "$so" | grep -vE "$allowed" | sort | paste -sd' ')
  tap_is "module_register" "$exports" "$name: exports only module_register"

  needed=$(readelf -d "$so" | sed -n 's/.*(NEEDED).*\[\(.*\)\]/\1/p')
  bad=$(grep -vE "$needed_ok" <<<"$needed" | paste -sd' ')
  tap_is "" "$bad" "$name: NEEDED only libc/libm/libpthread/libyajl/libdrm"

  defined "$COLLECTD" >"$provided"
  while read -r lib; do
    path=$(ldd "$so" | awk -v l="$lib" '$1 == l { print $3 }')
    [[ -n $path ]] && defined "$path" >>"$provided"
  done <<<"$needed"
  # Weak undefined symbols (w) may stay unresolved; strong ones (U) not.
  missing=$(nm -D --undefined-only "$so" | awk '$1 == "U" { sub(/@.*/, "", $2); print $2 }' |
    sort -u | grep -vxF -f "$provided" | paste -sd' ')
  tap_is "" "$missing" "$name: every undefined symbol comes from collectd or a NEEDED library"
done
tap_done
