# The four executables pointed at this machine's emulated devices
# (tests/shim), for tests that run each of them the same way. Source it
# with BUILD set; then:
#   emu_setup DIR     one i915 GPU (i915_tree), one Mali-G720 panthor node
#                     at DIR/panthor/dri/renderD128, the Tegra410 PMUs
#                     (t410_tree) and, as on an x86 machine, an msr PMU with
#                     tsc, and a drm_device fixture tree (an xe card,
#                     tests/lib/ddv_tree.h), all under DIR
#   emu_args PLUGIN   the environment ("env:K=V") and the options that point
#                     PLUGIN there ("opt:--DevRoot=..."), one per line;
#                     drm_fdinfo needs none: it reads the real /proc
#   emu_cmd PLUGIN    sets the array EMU_CMD to env K=V... BUILD/PLUGIN and
#                     the options; append the run's own arguments
source tests/lib/i915_tree.sh
source tests/lib/tegra410_tree.sh

EMU_SHIM=$PWD/${BUILD:-build}/tests/shim.so
EMU_PRELOAD=$EMU_SHIM
if [[ ${SANITIZE:-} == 1 ]]; then
  EMU_PRELOAD="$(${CC:-cc} -print-file-name=libasan.so):$(${CC:-cc} -print-file-name=libubsan.so):$EMU_SHIM"
fi

emu_setup() {
  EMU_DIR=$1
  i915_tree "$EMU_DIR/i915" 0000:00:02.0
  EMU_I915_ENV=(SHIM_DRIVERS=i915 "SHIM_I915_PATH=$SHIM_I915_PATH"
    "SHIM_I915_SCENARIO_0=$SHIM_I915_SCENARIO_0"
    "SHIM_I915_SCENARIO=$(i915_scenario "$EMU_DIR/i915")")
  unset SHIM_DRIVERS SHIM_I915_PATH SHIM_I915_SCENARIO_0
  mkdir -p "$EMU_DIR/panthor/dri"
  : >"$EMU_DIR/panthor/dri/renderD128"
  t410_tree "$EMU_DIR/t410"
  t410_pmu "$EMU_DIR/t410" msr 4100 event=config:0-63 -- tsc=0x0
  mkdir -p "$EMU_DIR/ddv"
  "${BUILD:-build}/tests/ddv_tree" "$EMU_DIR/ddv" xe_bmg
}

emu_args() {
  case $1 in
  drm_fdinfo) ;;
  i915_oa)
    printf 'env:%s\n' "${EMU_I915_ENV[@]}" "LD_PRELOAD=$EMU_PRELOAD"
    printf 'opt:%s\n' "--DevRoot=$EMU_DIR/i915/dev/dri" \
      "--SysfsRoot=$EMU_DIR/i915/sys"
    ;;
  panthor_perf)
    # The kernel with TEARDOWN as its review fixed it: the published
    # v6-era code keeps every session a client ends as documented, which
    # the plugin says on stderr (tested in panthor_perf_exec/_collectd).
    printf 'env:%s\n' SHIM_DRIVERS=panthor \
      "SHIM_PANTHOR_PATH=$EMU_DIR/panthor/dri/renderD128" \
      SHIM_PANTHOR_GPU=g720 SHIM_PANTHOR_SCENARIO=teardown_fixed \
      "LD_PRELOAD=$EMU_PRELOAD"
    printf 'opt:%s\n' "--DevRoot=$EMU_DIR/panthor"
    ;;
  tegra410_uncore)
    printf 'env:%s\n' SHIM_DRIVERS=perf "LD_PRELOAD=$EMU_PRELOAD"
    printf 'opt:%s\n' "--SysfsRoot=$EMU_DIR/t410/sys"
    ;;
  drm_device)
    printf 'opt:%s\n' "--SysfsRoot=$EMU_DIR/ddv/sys"
    ;;
  esac
}

emu_cmd() {
  local envs=() opts=() l
  while IFS= read -r l; do
    case $l in
    env:*) envs+=("${l#env:}") ;;
    opt:*) opts+=("${l#opt:}") ;;
    esac
  done < <(emu_args "$1")
  EMU_CMD=(env "${envs[@]}" "${BUILD:-build}/$1" "${opts[@]}")
}

# emu_cmd_all PLUGIN...: EMU_CMD for gpu-telemetry running those plugins
# (all five when none is named) on the emulated devices: every plugin's
# environment (SHIM_DRIVERS joined), its options as --PLUGIN.Key, and
# --plugin=PLUGIN for each.
emu_cmd_all() {
  local plugins=("$@") envs=() opts=() drivers=() l p seen=" "
  ((${#plugins[@]})) || plugins=(drm_fdinfo tegra410_uncore panthor_perf i915_oa drm_device)
  for p in "${plugins[@]}"; do
    opts+=("--plugin=$p")
    while IFS= read -r l; do
      case $l in
      env:SHIM_DRIVERS=*) drivers+=("${l#env:SHIM_DRIVERS=}") ;;
      env:*)
        [[ $seen == *" ${l%%=*} "* ]] && continue
        seen+="${l%%=*} "
        envs+=("${l#env:}")
        ;;
      opt:--*) opts+=("--$p.${l#opt:--}") ;;
      esac
    done < <(emu_args "$p")
  done
  local joined
  joined=$(IFS=,; echo "${drivers[*]}")
  [[ -n $joined ]] && envs+=("SHIM_DRIVERS=$joined")
  EMU_CMD=(env "${envs[@]}" "${BUILD:-build}/gpu-telemetry" "${opts[@]}")
}
