# Shell twin of tests/lib/fakeproc.c: synthetic proc/sys/debugfs trees for
# end-to-end tests of drm_fdinfo. Source it; needs root for mknod.
#   fp_init                 -> sets FP (tree root) with proc/ sys/ debug/ dev/
#   fp_device MAJ MIN MINOR_NAME DEVICE DRIVER
#   fp_process PID COMM [CGROUP]
#   fp_fd PID FD MINOR_NAME FDINFO_TEXT
#   fp_fdinfo PID FD FDINFO_TEXT   (atomic rewrite)
#   fp_fini

fp_init() {
  FP=$(mktemp -d "${TMPDIR:-/tmp}/fakeproc.XXXXXX")
  chmod 0755 "$FP"
  mkdir -p "$FP/proc" "$FP/sys" "$FP/debug" "$FP/dev"
}

fp_fini() { [[ -n ${FP:-} && -d $FP ]] && rm -rf "$FP"; }

fp_device() {
  local maj=$1 min=$2 name=$3 dev=$4 drv=$5 class=drm
  [[ $maj == 261 ]] && class=accel
  mknod "$FP/dev/$name" c "$maj" "$min"
  mkdir -p "$FP/sys/devices/$dev/drm/$name" "$FP/sys/bus/drivers/$drv" \
    "$FP/sys/dev/char" "$FP/sys/class/$class/$name"
  ln -sfn "../../../$dev" "$FP/sys/devices/$dev/drm/$name/device"
  ln -sfn "../../bus/drivers/$drv" "$FP/sys/devices/$dev/driver"
  ln -sfn "../../devices/$dev/drm/$name" "$FP/sys/dev/char/$maj:$min"
  echo "$maj:$min" >"$FP/sys/class/$class/$name/dev"
}

fp_process() {
  mkdir -p "$FP/proc/$1/fd" "$FP/proc/$1/fdinfo"
  printf '%s\n' "$2" >"$FP/proc/$1/comm"
  printf '0::%s\n' "${3:-/}" >"$FP/proc/$1/cgroup"
}

fp_fdinfo() {
  printf '%s' "$3" >"$FP/proc/$1/fdinfo/.$2.tmp"
  mv -f "$FP/proc/$1/fdinfo/.$2.tmp" "$FP/proc/$1/fdinfo/$2"
}

fp_fd() {
  ln -sfn "$FP/dev/$3" "$FP/proc/$1/fd/$2"
  fp_fdinfo "$1" "$2" "$4"
}

# fdinfo text of an i915 client: ID RENDER_NS
fp_i915() {
  printf 'pos:\t0\ndrm-driver:\ti915\ndrm-pdev:\t0000:00:02.0\ndrm-client-id:\t%s\ndrm-engine-render:\t%s ns\ndrm-total-system0:\t8 MiB\n' "$1" "$2"
}
