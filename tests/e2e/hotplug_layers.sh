#!/usr/bin/env bash
# The hot-plug parts of panthor_perf and tegra410_uncore are layers under
# their plugin (docs/architecture.md): ppf_hotplug.c and t410_hotplug.c
# include only their own header and common/, never the plugin's header,
# and name none of the plugin's types or functions; the plugin's main file
# calls them. So they cannot grow back into a second half of the plugin.
set -uo pipefail
cd "$(dirname "$0")/../.."
source tests/lib/tap.sh
check() { # plugin dir, layer base name, plugin header, plugin symbols regex
  local dir=plugins/$1 layer=$2 header=$3 symbols=$4 f
  for f in "$dir/$layer.c" "$dir/$layer.h"; do
    tap_is "" "$(grep -n '^#include "plugins/' "$f" | grep -v "\"$dir/$layer.h\"")" \
      "$f: includes no plugin header but its own"
    tap_is "" "$(grep -nE "$symbols" "$f")" \
      "$f: names none of $1's own types or functions"
  done
  tap_check "$dir/$header: includes the layer's header" \
    grep -q "^#include \"$dir/$layer.h\"" "$dir/$header"
}
check panthor_perf ppf_hotplug panthor_perf.h \
  'struct pp\b|struct ppf_device|ppf_device_|ppf_session|ppf_dev_root|ppf_config|PPF_PLUGIN'
check tegra410_uncore t410_hotplug t410.h \
  'struct t410\b|struct t410_group|t410_group_|t410_preset|t410_pmu_get|t410_config|T410_PLUGIN'
tap_done
