#!/usr/bin/env bash
# Install the Debian packages a make target needs, only those missing.
# Usage: tools/deps.sh [--list] build|demo|test|image  (--list: print the set)
#   build: compiler and headers (make, make bench, make install)
#   demo:  build + the collectd daemon (make demo)
#   test:  demo + the whole test toolchain (make test, make fuzz): clang,
#          cmocka, valgrind, perf, InfluxDB, carbon, Prometheus, the Debian
#          packaging tools, librrd8 (the stock collectd.conf's rrdtool writer),
#          python3-seccomp (the service's sandbox), python3-yaml and
#          python3-kubernetes (the Kubernetes manifests), and Debian's kubectl
#          (kubernetes-client) unless a kubectl is installed already (another
#          package's /usr/bin/kubectl makes it uninstallable), podman and runc
#          (real containers for drm_fdinfo's ReportBy Container)
#   image: the container image (deploy/image/build.sh): mmdebstrap, buildah
set -euo pipefail

build_pkgs=(gcc make pkg-config libc6-dev libyajl-dev libdrm-dev libmicrohttpd-dev collectd-dev libncurses-dev zlib1g-dev libcrypt-dev)
demo_pkgs=("${build_pkgs[@]}" collectd-core util-linux)
test_pkgs=("${demo_pkgs[@]}" clang libclang-rt-14-dev libcmocka-dev tmux
  collectd-utils librrd8 valgrind linux-perf procps util-linux locales
  python3 jq influxdb curl intel-gpu-tools graphite-carbon python3-whisper prometheus
  libmicrohttpd12 libprotobuf-c1 dpkg-dev debhelper fakeroot lintian python3-seccomp
  python3-yaml python3-kubernetes podman runc)
command -v kubectl >/dev/null || test_pkgs+=(kubernetes-client)
image_pkgs=("${build_pkgs[@]}" dpkg-dev debhelper mmdebstrap buildah)

list=0
if [[ ${1:-} == --list ]]; then
  list=1
  shift
fi
case "${1:-}" in
build) want=("${build_pkgs[@]}") ;;
demo) want=("${demo_pkgs[@]}") ;;
test) want=("${test_pkgs[@]}") ;;
image) want=("${image_pkgs[@]}") ;;
*)
  echo "usage: $0 build|demo|test|image" >&2
  exit 2
  ;;
esac

if [[ $list -eq 1 ]]; then
  printf '%s\n' "${want[@]}"
  exit 0
fi

missing=()
for p in "${want[@]}"; do
  status=$(dpkg-query -W -f='${db:Status-Abbrev}' "$p" 2>/dev/null || true)
  [[ "$status" == ii* ]] || missing+=("$p")
done
[[ ${#missing[@]} -eq 0 ]] && exit 0

if [[ $(id -u) -ne 0 ]]; then
  echo "deps: missing Debian packages; run:" >&2
  echo "  sudo apt-get update && sudo apt-get install -y --no-install-recommends ${missing[*]}" >&2
  exit 1
fi
echo "deps: installing ${missing[*]}" >&2
# Keep package scripts from starting a system-wide collectd on install.
policy=/usr/sbin/policy-rc.d
created_policy=0
if [[ ! -e $policy ]]; then
  printf '#!/bin/sh\nexit 101\n' >"$policy"
  chmod 0755 "$policy"
  created_policy=1
fi
trap '[[ $created_policy -eq 1 ]] && rm -f "$policy"' EXIT
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq >&2
apt-get install -y -qq --no-install-recommends "${missing[@]}" >&2
