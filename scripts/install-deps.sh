#!/bin/sh
# install-deps.sh [base|fuzz|mpich|bench|cluster|test|all] -- make sure the Debian packages lattio
# needs are installed.  As root, missing packages are installed with apt-get;
# otherwise the exact command to run is printed and the script fails.
set -eu
group=${1:-base}
base="build-essential cmake ninja-build pkg-config libopenmpi-dev openmpi-bin libdeflate-dev python3 python3-venv python3-dev libssl-dev libhdf5-openmpi-dev hdf5-tools"
fuzz="clang libclang-rt-14-dev"
mpich="mpich libmpich-dev libhdf5-mpich-dev"
bench="strace" # bench/container.sh counts metadata operations with strace -f
# the emulated cluster (scripts/cluster): namespaces, GlusterFS server and FUSE client
cluster="iproute2 util-linux glusterfs-server glusterfs-client"
case "$group" in
  base) want="$base" ;;
  fuzz) want="$base $fuzz" ;;
  mpich) want="$base $mpich" ;;
  bench) want="$base $bench" ;;
  cluster) want="$base $cluster" ;;
  test) want="$base $cluster" ;;  # make test: the cluster tests too
  all) want="$base $fuzz $mpich $bench $cluster" ;;
  *) echo "install-deps.sh: unknown group '$group' (base, fuzz, mpich, bench, cluster, test, all)" >&2; exit 2 ;;
esac
missing=""
for p in $want; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing="$missing $p"
done
[ -z "$missing" ] && exit 0
if [ "$(id -u)" -ne 0 ]; then
  echo "lattio needs these Debian packages:$missing" >&2
  echo "install them with: sudo apt-get update && sudo apt-get install -y$missing" >&2
  exit 1
fi
echo "installing:$missing" >&2
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq
# shellcheck disable=SC2086
apt-get install -y -qq --no-install-recommends $missing >/dev/null
