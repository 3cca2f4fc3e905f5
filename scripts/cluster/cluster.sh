#!/bin/sh
# cluster.sh -- an emulated cluster on one machine, for lattio's tests.
#
#   cluster.sh up [NODES]      bring up NODES (default 4) emulated nodes, a
#                              GlusterFS volume and a MooseFS file system
#                              mounted by each of them
#   cluster.sh run [OPTIONS] -- PROGRAM ARGS...
#                              start an MPI job across the nodes (see usage)
#   cluster.sh exec NODE -- COMMAND...   run a command on one node
#   cluster.sh status          what is up; exit 0 when the cluster is usable
#   cluster.sh check           exit 0 when this machine can host the cluster,
#                              else print why and exit 77 (a test's "skip")
#   cluster.sh down            stop everything, unmount everything, remove state
#   cluster.sh ensure [NODES]  up unless already up (CTest's fixture cluster.up;
#                              exit 77 with the reason where it cannot be)
#   cluster.sh release         down, if `ensure` brought it up (cluster.down)
#
# What a node is: a process holding its own UTS (hostname nodeI), IPC and
# mount namespaces, with its own /dev/shm (tmpfs; /tmp stays the machine's, where
# a clone may live) and its own FUSE
# clients: of the GlusterFS volume at $LATTIO_CLUSTER_MNT/gv, of MooseFS at
# $LATTIO_CLUSTER_MNT/mfs (mfsmount's default caches) and at
# $LATTIO_CLUSTER_MNT/mfsnfs (NFS-like client caches: attributes, entries,
# directory entries and negative entries kept 30 s, as an NFS client's
# actimeo/lookupcache do).  All of it, glusterd, MooseFS's master and
# chunk server and mpirun, live in one network namespace the fixture creates,
# whose interfaces are its own loopback carrying 10.99.0.1/32 and a veth
# pair (lattio0 with 10.99.0.2/32, its peer lattio1) that leads nowhere but
# itself: Open MPI 5's PRRTE daemons take no loopback interface for their
# out-of-band connections, so they talk over lattio0 (traffic to a local
# address stays inside the namespace whatever the interface).  No traffic
# of the fixture leaves it.  MPI starts ranks on the nodes through
# scripts/cluster/rsh, a stand-in for ssh that enters a node's namespaces
# (Open MPI's plm_rsh_agent, MPICH hydra's -launcher-exec).
#
# Environment: LATTIO_CLUSTER_STATE (default /run/lattio-cluster),
# LATTIO_CLUSTER_DATA (bricks, default /var/tmp/lattio-cluster),
# LATTIO_CLUSTER_MNT (default /mnt/lattio-cluster),
# LATTIO_CLUSTER_SHARD (GlusterFS shard size such as 4MB, default off: the shard
# translator lost bytes that several clients wrote to one file, docs/cluster.md).
set -eu
here=$(cd "$(dirname "$0")" && pwd)
state=${LATTIO_CLUSTER_STATE:-/run/lattio-cluster}
data=${LATTIO_CLUSTER_DATA:-/var/tmp/lattio-cluster}
mnt=${LATTIO_CLUSTER_MNT:-/mnt/lattio-cluster}
shard=${LATTIO_CLUSTER_SHARD:-off}
netns=lattio-cluster
addr=10.99.0.1
addr2=10.99.0.2
volume=lattio-gv
# mfsmount options of the NFS-like mount (seconds)
mfs_nfs_caches="mfsattrcacheto=30,mfsentrycacheto=30,mfsdirentrycacheto=30,mfsnegentrycacheto=30"

die() { echo "cluster.sh: $*" >&2; exit 1; }
in_ns() { ip netns exec "$netns" "$@"; }

# Exit 77 with the reason when this machine cannot host the cluster.
check() {
    [ "$(id -u)" -eq 0 ] || { echo "cluster: needs root (namespaces, mounts)"; return 77; }
    for t in ip nsenter unshare glusterd gluster mount.glusterfs mfsmaster mfschunkserver mfsmount; do
        command -v "$t" >/dev/null 2>&1 ||
            { echo "cluster: $t not found (sh scripts/install-deps.sh cluster)"; return 77; }
    done
    [ -c /dev/fuse ] || { echo "cluster: /dev/fuse missing (no FUSE)"; return 77; }
    unshare --uts --ipc --mount true 2>/dev/null ||
        { echo "cluster: cannot create UTS/IPC/mount namespaces here"; return 77; }
    if ! ip netns list >/dev/null 2>&1; then echo "cluster: ip netns unusable"; return 77; fi
    return 0
}

node_pid() { cat "$state/node$1.pid" 2>/dev/null || die "node$1 is not up (cluster.sh up)"; }

# Run COMMAND... on node $1 (its namespaces, cwd /).
node_exec() {
    n=$1; shift
    pid=$(node_pid "$n")
    nsenter -t "$pid" -u -i -m -n -- "$@"
}

start_glusterd() {
    mkdir -p "$state/glusterd" "$state/log" "$data"
    sed -e "s|/var/lib/glusterd|$state/glusterd|" /etc/glusterfs/glusterd.vol > "$state/glusterd.vol"
    # no inherited descriptors: a caller reading our output (CTest) would
    # wait for the daemons (glusterd, its bricks) to close them
    in_ns glusterd -f "$state/glusterd.vol" -p "$state/glusterd.pid" \
        --log-file="$state/log/glusterd.log" </dev/null >/dev/null 2>&1
    i=0
    until in_ns gluster --mode=script --remote-host=$addr volume list >/dev/null 2>&1; do
        i=$((i + 1)); [ $i -lt 100 ] || die "glusterd did not answer (see $state/log/glusterd.log)"
        sleep 0.2
    done
}

create_volume() {
    g="in_ns gluster --mode=script"
    rm -rf "$data/brick1" "$data/brick2"
    mkdir -p "$data/brick1" "$data/brick2"
    $g volume create $volume transport tcp $addr:"$data/brick1" $addr:"$data/brick2" force >/dev/null
    if [ "$shard" != off ]; then
        $g volume set $volume features.shard on >/dev/null
        $g volume set $volume features.shard-block-size "$shard" >/dev/null
    fi
    # quick-read serves a small file's content cached at lookup, even after
    # fsync and a forced stat: a container another node wrote read short;
    # stat-prefetch (md-cache) serves stale attributes the same way: an HDF5
    # append at 4 nodes x 1 rank left a file without its new dataset in 2-5
    # of 10 runs, 0 of 10 with it off (docs/cluster.md); the other client
    # caches stay on (defaults)
    $g volume set $volume performance.quick-read off >/dev/null
    $g volume set $volume performance.stat-prefetch off >/dev/null
    $g volume start $volume >/dev/null
}

# MooseFS's master and one chunk server in the namespace, their state in
# $state/mfs, the chunks in $data/mfs-chunks.
start_moosefs() {
    d="$state/mfs"
    mkdir -p "$d/master" "$d/cs" "$data/mfs-chunks"
    cp /var/lib/mfs/metadata.mfs.empty "$d/master/metadata.mfs"
    printf '%s\n' "WORKING_USER = root" "WORKING_GROUP = root" "DATA_PATH = $d/master" \
        "EXPORTS_FILENAME = $d/mfsexports.cfg" "TOPOLOGY_FILENAME = $d/mfstopology.cfg" \
        "MATOML_LISTEN_HOST = $addr" "MATOCS_LISTEN_HOST = $addr" "MATOCL_LISTEN_HOST = $addr" \
        > "$d/mfsmaster.cfg"
    echo "* / rw,alldirs,maproot=0" > "$d/mfsexports.cfg"
    : > "$d/mfstopology.cfg"
    printf '%s\n' "WORKING_USER = root" "WORKING_GROUP = root" "DATA_PATH = $d/cs" \
        "HDD_CONF_FILENAME = $d/mfshdd.cfg" "MASTER_HOST = $addr" "CSSERV_LISTEN_HOST = $addr" \
        "HDD_LEAVE_SPACE_DEFAULT = 256MiB" > "$d/mfschunkserver.cfg"
    echo "$data/mfs-chunks" > "$d/mfshdd.cfg"
    in_ns mfsmaster -c "$d/mfsmaster.cfg" start </dev/null >"$state/log/mfsmaster.log" 2>&1 ||
        { cat "$state/log/mfsmaster.log" >&2; die "mfsmaster did not start"; }
    in_ns mfschunkserver -c "$d/mfschunkserver.cfg" start </dev/null >"$state/log/mfschunkserver.log" 2>&1 ||
        { cat "$state/log/mfschunkserver.log" >&2; die "mfschunkserver did not start"; }
}

# Start node $1: namespaces, hostname, a private /dev/shm, the volumes.
start_node() {
    n=$1
    mkdir -p "$mnt/gv" "$mnt/mfs" "$mnt/mfsnfs"
    in_ns unshare --uts --ipc --mount --propagation private sh -c '
        set -e
        hostname "node$1"
        mount -t tmpfs -o size=4g,mode=1777 shm /dev/shm
        mount -t glusterfs -o log-file="$2/log/node$1-fuse.log" "$3:/$4" "$5/gv"
        mfsmount "$5/mfs" -H "$3" </dev/null >/dev/null 2>&1
        mfsmount "$5/mfsnfs" -H "$3" -o "$6" </dev/null >/dev/null 2>&1
        echo $$ > "$2/node$1.pid"
        exec sleep infinity' node "$n" "$state" "$addr" "$volume" "$mnt" "$mfs_nfs_caches" \
        </dev/null > "$state/log/node$n.log" 2>&1 &
    i=0
    until [ -s "$state/node$n.pid" ]; do
        i=$((i + 1))
        if [ $i -ge 150 ] || ! kill -0 $! 2>/dev/null; then
            cat "$state/log/node$n.log" >&2; die "node$n did not come up"
        fi
        sleep 0.2
    done
    for m in gv mfs mfsnfs; do
        node_exec "$n" sh -c "mountpoint -q '$mnt/$m'" || die "node$n: $mnt/$m not mounted"
    done
}

up() {
    nodes=${1:-4}
    check >&2 || exit $?
    [ -e "$state/nodes" ] && die "already up ($state); cluster.sh down first"
    mkdir -p "$state/log"
    ip netns add $netns
    ip -n $netns link set lo up
    ip -n $netns addr add $addr/32 dev lo
    # a non-loopback interface for Open MPI 5's daemons (without veth, those runs say why they fail)
    if ip -n $netns link add lattio0 type veth peer name lattio1 2>/dev/null; then
        ip -n $netns addr add $addr2/32 dev lattio0
        ip -n $netns link set lattio1 up
        ip -n $netns link set lattio0 up
    fi
    start_glusterd
    create_volume
    start_moosefs
    for n in $(seq 1 "$nodes"); do start_node "$n"; done
    echo "$nodes" > "$state/nodes"
    # one copy of each chunk (one chunk server), as the volume has one brick per file
    node_exec 1 sh -c "chmod 1777 '$mnt/gv' '$mnt/mfs'; mfssetgoal -r 1 '$mnt/mfs' >/dev/null"
    echo "cluster: $nodes nodes up, GlusterFS volume $volume at $mnt/gv (shard $shard), MooseFS at $mnt/mfs" \
         "and with NFS-like caches at $mnt/mfsnfs on each"
}

down() {
    for f in "$state"/node*.pid; do
        [ -e "$f" ] || continue
        pid=$(cat "$f")
        nsenter -t "$pid" -m -- sh -c "umount -l '$mnt/gv' '$mnt/mfs' '$mnt/mfsnfs' 2>/dev/null; true" || true
        kill "$pid" 2>/dev/null || true
        rm -f "$f"
    done
    if ip netns list 2>/dev/null | grep -q "^$netns\b"; then
        in_ns gluster --mode=script volume stop $volume force >/dev/null 2>&1 || true
        in_ns gluster --mode=script volume delete $volume >/dev/null 2>&1 || true
        # every process left in the namespace: glusterd, bricks, FUSE clients
        for pid in $(ip netns pids $netns 2>/dev/null); do kill "$pid" 2>/dev/null || true; done
        sleep 0.5
        for pid in $(ip netns pids $netns 2>/dev/null); do kill -9 "$pid" 2>/dev/null || true; done
        ip netns del $netns
    fi
    rm -rf "$state" "$data"
    echo "cluster: down"
}

status() {
    [ -s "$state/nodes" ] || { echo "cluster: not up"; return 1; }
    nodes=$(cat "$state/nodes")
    for n in $(seq 1 "$nodes"); do
        pid=$(node_pid "$n")
        kill -0 "$pid" 2>/dev/null || { echo "node$n: gone"; return 1; }
        printf 'node%s: pid %s, ' "$n" "$pid"
        node_exec "$n" sh -c "hostname; for m in gv mfs mfsnfs; do mountpoint -q '$mnt/'\$m || echo '  '\$m' NOT mounted'; done"
    done
}

# Up unless a usable cluster is there; a broken one is taken down first.
ensure() {
    if status >/dev/null 2>&1; then echo "cluster: already up"; return 0; fi
    check || exit $?
    [ -e "$state" ] || ! ip netns list 2>/dev/null | grep -q "^$netns\b" || down >/dev/null
    [ ! -e "$state" ] || down >/dev/null
    up "$@"
    echo ctest > "$state/owner"
}

release() {
    if [ "$(cat "$state/owner" 2>/dev/null)" = ctest ]; then down; else echo "cluster: not ours, left up"; fi
}

case "${1:-}" in
    up) shift; up "$@" ;;
    ensure) shift; ensure "$@" ;;
    release) release ;;
    down) down ;;
    status) status ;;
    check) check ;;
    exec) shift; n=${1#node}; shift; [ "${1:-}" = -- ] && shift; node_exec "$n" "$@" ;;
    run) shift; exec "$here/run.sh" "$@" ;;
    *) sed -n '2,28p' "$0" | sed 's/^# \{0,1\}//'; exit 2 ;;
esac
