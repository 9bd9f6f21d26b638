#!/usr/bin/env bash
# Every event form of the Tegra410 documentation, on a synthetic sysfs
# holding Tegra410 PMUs (and a non-contiguous format), must encode to the
# same type/config/config1/config2 that perf itself encodes. perf is pointed
# at the synthetic PMUs by bind-mounting them over
# /sys/bus/event_source/devices inside a private mount namespace, and
# prints its perf_event_attr with -vv before the open fails (the PMUs are
# not real).
set -uo pipefail
cd "$(dirname "$0")/../.."
source tests/lib/tap.sh
source tests/lib/tegra410_tree.sh
source tests/lib/require.sh
BIN=${BUILD:-build}/tegra410_uncore
require_root "perf encoding" "needs root for a private mount namespace"
if ! perf version >/dev/null 2>&1; then
  tap_fail "perf (Debian linux-perf) is not usable"
  tap_done
  exit
fi
T=$(mktemp -d "${TMPDIR:-/tmp}/t410-perf.XXXXXX")
trap 'rm -rf "$T"' EXIT
D=$T/sys/bus/event_source/devices
pmu() { t410_pmu "$T" "$@"; } # tests/lib/tegra410_tree.sh
# Types far above any real PMU of this machine, so every open fails.
pmu nvidia_ucf_pmu_0 4031 event=config:0-32 src_loc_cpu=config1:1 \
  dst_loc_cmem=config1:8 dst_rem=config1:11 -- cycles=0x100000000 \
  slc_bytes_rd=0x113
pmu nvidia_pcie_pmu_1_rc_2 4028 event=config:0-32 src_rp_mask=config1:0-7 \
  src_bdf=config1:8-23 src_bdf_en=config1:24 dst_loc_cmem=config2:0 \
  dst_rem=config2:4 -- rd_bytes=0x0 cycles=0x100000000
pmu nvidia_pcie_tgt_pmu_0_rc_0 4029 event=config:0-2 dst_rp_mask=config:3-10 \
  dst_addr_en=config:11 dst_addr_base=config1:0-63 \
  dst_addr_mask=config2:0-63 -- wr_bytes=0x1
pmu nvidia_nvlink_c2c_pmu_0 4033 event=config:0-3 gpu_mask=config1:0-1 -- \
  in_rd_cum_outs=0x1
pmu scattered_pmu 4099 event=config:0-7,32-35 mode=config2:1,6-10,44 -- \
  odd=0x123

events=(
  'nvidia_ucf_pmu_0/event=0x113,src_loc_cpu=1,dst_loc_cmem=1/'
  'nvidia_ucf_pmu_0/cycles/'
  'nvidia_ucf_pmu_0/slc_bytes_rd,dst_rem=1/'
  'nvidia_pcie_pmu_1_rc_2/rd_bytes,src_bdf=0x0108,src_bdf_en=1/'
  'nvidia_pcie_pmu_1_rc_2/rd_bytes,src_rp_mask=0x3,dst_loc_cmem=1,dst_rem=1/'
  'nvidia_pcie_tgt_pmu_0_rc_0/event=0x1,dst_rp_mask=0x3/'
  'nvidia_pcie_tgt_pmu_0_rc_0/wr_bytes,dst_addr_base=0x10000,dst_addr_mask=0xFFF00,dst_addr_en=1/'
  'nvidia_nvlink_c2c_pmu_0/in_rd_cum_outs,gpu_mask=0x1/'
  'scattered_pmu/odd,mode=0x5b/'
)
for ev in "${events[@]}"; do
  # perf's view: type and the non-zero config words
  theirs=$(unshare -m sh -c "mount --bind '$D' /sys/bus/event_source/devices &&
    perf stat -vv -a -e '$ev' true" 2>&1 | awk '
      /^  type /               { type = $2 }
      /^  config /             { c0 = $2 }
      /config1 }/              { c1 = $NF }
      /config2 }/              { c2 = $NF }
      END { printf "type %s config %s config1 %s config2 %s", type,
            c0 ? c0 : "0x0", c1 ? c1 : "0x0", c2 ? c2 : "0x0" }')
  ours=$("$BIN" --once --window=0 --log-level=debug --SysfsRoot="$T/sys" \
    --Event="$ev" 2>&1 >/dev/null | sed -nE 's/.*: attr: [^:]*: (type .*)/\1/p' |
    head -1)
  tap_is "$theirs" "$ours" "perf and we agree on $ev: $ours"
done
tap_done
