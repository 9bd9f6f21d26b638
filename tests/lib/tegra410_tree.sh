# A synthetic sysfs with Tegra410 PMUs for tests run under the kernel
# emulation (tests/shim): PMU types from 4000 up are emulated, each event
# counting at 1e6 * (1 + (config & 0xffffffff) % 97 + (config >> 32)) per
# second.
#   t410_tree DIR   -> creates DIR/sys/bus/event_source/devices/...
t410_pmu() { # root name type format... -- name=config...
  local dir=$1/sys/bus/event_source/devices/$2
  mkdir -p "$dir/format" "$dir/events"
  echo "$3" >"$dir/type"
  echo 0 >"$dir/cpumask"
  shift 3
  while [[ $# -gt 0 && $1 != -- ]]; do
    echo "${1#*=}" >"$dir/format/${1%%=*}"
    shift
  done
  shift
  while [[ $# -gt 0 ]]; do
    echo "event=${1#*=}" >"$dir/events/${1%%=*}"
    shift
  done
}

t410_tree() {
  t410_pmu "$1" nvidia_pcie_pmu_0_rc_1 4028 event=config:0-32 \
    src_rp_mask=config1:0-7 src_bdf=config1:8-23 src_bdf_en=config1:24 -- \
    cycles=0x100000000 rd_bytes=0x0 wr_bytes=0x1 rd_req=0x2 wr_req=0x3 \
    rd_cum_outs=0x4
  t410_pmu "$1" nvidia_cmem_latency_pmu_0 4040 event=config:0-1 -- \
    cycles=0x0 rd_req=0x1 rd_cum_outs=0x2
  t410_pmu "$1" nvidia_nvlink_c2c_pmu_0 4033 event=config:0-3 \
    gpu_mask=config1:0-1 -- cycles=0x0 in_rd_cum_outs=0x1 in_rd_req=0x2 \
    in_wr_cum_outs=0x3 in_wr_req=0x4 out_rd_cum_outs=0x5 out_rd_req=0x6 \
    out_wr_cum_outs=0x7 out_wr_req=0x8
  echo nr_gpu=1 >"$1/sys/bus/event_source/devices/nvidia_nvlink_c2c_pmu_0/peer"
}

# The value of FIELD in the first tegra410 record of TEXT (Influx lines)
# whose tags include every K=V.
t410_field() { # text field K=V...
  local text=$1 field=$2 kv args=()
  shift 2
  for kv in "$@"; do args+=(--where "$kv"); done
  python3 tests/lib/lineproto.py get "$field" --measurement tegra410 \
    "${args[@]}" <<<"$text" | head -1
}

# is A within a relative 1e-4 of B
t410_close() {
  awk -v a="$1" -v b="$2" 'BEGIN { d = (a - b) / b; if (d < 0) d = -d;
    exit !(a != "" && d < 1e-4) }'
}
