#!/usr/bin/env bash
# Build gpu-telemetry's container image from the Debian packages, pulling
# no base image from any registry:
#   1. the .deb files: given with --debs, else built from this tree
#      (dpkg-buildpackage -us -uc -b in a copy);
#   2. a minimal Debian root filesystem with gpu-telemetry-tools installed,
#      made by mmdebstrap (variant apt) from the apt mirror this machine
#      uses (its /etc/apt/sources.list.d/debian.sources or sources.list,
#      or --mirror), as rootfs.tar;
#   3. deploy/image/Containerfile (FROM scratch, ADD rootfs.tar) built by
#      buildah into local storage as TAG, and with --output saved as an OCI
#      archive (for `ctr -n k8s.io images import`, `podman load`).
#
# Usage: deploy/image/build.sh [--debs DIR] [--tag TAG] [--suite SUITE]
#          [--mirror MIRROR] [--output FILE.tar] [--workdir DIR]
# Needs root (mmdebstrap's root mode, buildah's storage), mmdebstrap and
# buildah (tools/deps.sh image). Exit 0 and the tag on stdout on success.
set -euo pipefail

die() {
  echo "build.sh: $*" >&2
  exit 1
}

SRC=$(cd "$(dirname "$0")/../.." && pwd)
VERSION=$(sed -n '1s/^[^(]*(\([^)]*\)).*/\1/p' "$SRC/debian/changelog")
TAG=localhost/gpu-telemetry:$VERSION
SUITE=bookworm
DEBS='' MIRROR='' OUTPUT='' WORK=''
while (($#)); do
  case $1 in
  -h | --help)
    sed -n '2,/^set -euo/p' "$0" | sed '$d; s/^# \{0,1\}//'
    exit 0
    ;;
  --debs | --tag | --suite | --mirror | --output | --workdir) ;;
  *) die "unknown option $1 (see --help)" ;;
  esac
  (($# >= 2)) || die "$1 needs a value"
  case $1 in
  --debs) DEBS=$2 ;;
  --tag) TAG=$2 ;;
  --suite) SUITE=$2 ;;
  --mirror) MIRROR=$2 ;;
  --output) OUTPUT=$2 ;;
  --workdir) WORK=$2 ;;
  esac
  shift 2
done

[[ $(id -u) -eq 0 ]] || die "needs root (mmdebstrap's root mode and buildah's storage)"
for c in mmdebstrap buildah; do
  command -v "$c" >/dev/null || die "$c is not installed (tools/deps.sh image)"
done
if [[ -z $MIRROR ]]; then
  for f in /etc/apt/sources.list.d/debian.sources /etc/apt/sources.list; do
    [[ -s $f ]] && MIRROR=$f && break
  done
  [[ -n $MIRROR ]] || die "no apt sources on this machine: give --mirror"
fi

made_work=0 # read by the EXIT trap
if [[ -z $WORK ]]; then
  WORK=$(mktemp -d "${TMPDIR:-/tmp}/gpu-telemetry-image.XXXXXX")
  made_work=1
fi
trap '((made_work)) && rm -rf "$WORK"' EXIT

# 1. the packages
if [[ -z $DEBS ]]; then
  echo "build.sh: building the Debian packages from $SRC" >&2
  mkdir -p "$WORK/src/tree"
  tar -C "$SRC" --exclude=./build --exclude=./.git -cf - . | tar -C "$WORK/src/tree" -xf -
  (cd "$WORK/src/tree" && dpkg-buildpackage -us -uc -b >"$WORK/dpkg-buildpackage.log" 2>&1) ||
    die "dpkg-buildpackage failed: see $WORK/dpkg-buildpackage.log"
  DEBS=$WORK/src
fi
[[ -d $DEBS ]] || die "--debs $DEBS: not a directory"
DEBS=$(cd "$DEBS" && pwd)
deb=$(find "$DEBS" -maxdepth 1 -name "gpu-telemetry-tools_*.deb" | sort | tail -1)
[[ -n $deb ]] || die "no gpu-telemetry-tools_*.deb in $DEBS"

# 2. the root filesystem: apt resolves the package's dependencies from the
# mirror; documentation other than copyright is left out
echo "build.sh: mmdebstrap $SUITE with $(basename "$deb")" >&2
mkdir -p "$WORK/context"
# file-mirror-automount (mmdebstrap's own hook) bind-mounts the .deb's
# directory into the chroot for the chrooted dpkg, and out again
mmdebstrap --mode=root --variant=apt --quiet \
  --hook-dir=/usr/share/mmdebstrap/hooks/file-mirror-automount \
  --dpkgopt='path-exclude=/usr/share/man/*' \
  --dpkgopt='path-exclude=/usr/share/info/*' \
  --dpkgopt='path-exclude=/usr/share/locale/*' \
  --dpkgopt='path-exclude=/usr/share/doc/*' \
  --dpkgopt='path-include=/usr/share/doc/*/copyright' \
  --include="$deb" \
  --customize-hook='chroot "$1" /usr/bin/gpu-telemetry --version' \
  "$SUITE" "$WORK/context/rootfs.tar" "$MIRROR" >"$WORK/mmdebstrap.log" 2>&1 ||
  die "mmdebstrap failed: $(tail -5 "$WORK/mmdebstrap.log")"

# 3. the image
cp "$SRC/deploy/image/Containerfile" "$WORK/context/Containerfile"
buildah build --quiet --layers=false --pull=never --build-arg "VERSION=$VERSION" \
  -f "$WORK/context/Containerfile" -t "$TAG" "$WORK/context" >"$WORK/buildah.log" 2>&1 ||
  die "buildah build failed: $(tail -5 "$WORK/buildah.log")"
if [[ -n $OUTPUT ]]; then
  buildah push --quiet "$TAG" "oci-archive:$OUTPUT:$TAG" >/dev/null ||
    die "buildah push to $OUTPUT failed"
fi
echo "$TAG"
