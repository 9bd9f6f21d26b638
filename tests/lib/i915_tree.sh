# A synthetic /dev/dri and sysfs of i915 devices for tests run under the
# kernel emulation (tests/shim, driver "i915"): the render nodes are plain
# files (listed by readdir, opened through the shim), sysfs links name the
# PCI device, the i915 driver and the card node whose metrics directory
# the shim fills (ADD/REMOVE_CONFIG, pre-registered sets).
#   i915_tree DIR PCI...   -> DIR/dev/dri/renderD<128+i>, DIR/sys/...;
#                             exports SHIM_DRIVERS=i915, SHIM_I915_PATH
#                             and SHIM_I915_SCENARIO_<i>=card=card<i>
#   I915_UUID               -> the uuid registered as metric set 1 when
#                             SHIM_I915_SCENARIO comes from i915_scenario
#   i915_scenario DIR [key=value...] -> prints a SHIM_I915_SCENARIO value
I915_UUID=db41edd4-d8e7-4730-ad11-b9a2d6833503

i915_tree() {
  local root=$1 i=0 pci paths=
  shift
  mkdir -p "$root/dev/dri" "$root/sys/class/drm" "$root/sys/bus/pci/drivers/i915"
  for pci in "$@"; do
    local render=renderD$((128 + i)) card=card$i
    local dev=$root/sys/devices/pci0000:00/$pci
    mkdir -p "$dev/drm/$render" "$dev/drm/$card/metrics"
    ln -s "../../../bus/pci/drivers/i915" "$dev/driver"
    ln -s "../../../bus/pci" "$dev/subsystem"
    for n in "$render" "$card"; do
      ln -s "../../../$pci" "$dev/drm/$n/device"
      ln -s "../../devices/pci0000:00/$pci/drm/$n" "$root/sys/class/drm/$n"
    done
    : >"$root/dev/dri/$render"
    paths=${paths:+$paths,}$root/dev/dri/$render
    export "SHIM_I915_SCENARIO_$i=card=$card" # its metrics directory
    i=$((i + 1))
  done
  # bus/pci for the subsystem links above
  mkdir -p "$root/sys/bus/pci"
  export SHIM_DRIVERS=i915 SHIM_I915_PATH=$paths
}

i915_scenario() { # dir key=value...
  local root=$1 s
  shift
  s="sysfs=$root/sys,metric=$I915_UUID:1"
  for kv in "$@"; do s="$s,$kv"; done
  printf '%s' "$s"
}
