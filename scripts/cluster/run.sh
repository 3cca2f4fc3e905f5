#!/bin/sh
# run.sh -- start one MPI job across the emulated cluster (cluster.sh run).
#
#   run.sh [--nodes N] [--ppn P] [--fs gluster|moosefs|moosefs-nfs|shared|DIR] [--mpiexec PATH]
#          [--timeout SECONDS] [--keep] -- PROGRAM ARGS...
#
# N nodes (default 2) with P ranks each (default 2), node1 first; mpirun
# itself runs on node1, as a batch system starts it on a job's first node.
# --fs sets the job's working directory: "gluster" (default) a new, empty
# directory on the GlusterFS volume, removed afterwards unless --keep;
# "moosefs" the same on MooseFS (mfsmount's default caches), "moosefs-nfs"
# on MooseFS mounted with NFS-like client caches (cluster.sh); "shared" the
# current directory (a node-shared directory of the machine's
# own disk: one page cache for all nodes); or an existing DIR.
# --mpiexec: Open MPI's mpirun (default) or MPICH's mpiexec (hydra), told
# apart by --version.  The job runs under a timeout (default 600 s): a job
# that outlives it is killed and run.sh exits 124, so a hang fails a test.
# The cluster must be up (cluster.sh up): otherwise exit 77 with the reason.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
state=${LATTIO_CLUSTER_STATE:-/run/lattio-cluster}
mnt=${LATTIO_CLUSTER_MNT:-/mnt/lattio-cluster}
nodes=2 ppn=2 fs=gluster mpiexec=mpirun timeout=600 keep=0
while [ $# -gt 0 ]; do
    case "$1" in
        --nodes) nodes=$2; shift 2 ;;
        --ppn) ppn=$2; shift 2 ;;
        --fs) fs=$2; shift 2 ;;
        --mpiexec) mpiexec=$2; shift 2 ;;
        --timeout) timeout=$2; shift 2 ;;
        --keep) keep=1; shift ;;
        --) shift; break ;;
        *) echo "run.sh: unknown option $1" >&2; exit 2 ;;
    esac
done
[ $# -gt 0 ] || { echo "run.sh: no program (run.sh [OPTIONS] -- PROGRAM ARGS...)" >&2; exit 2; }
if [ ! -s "$state/nodes" ]; then
    echo "run.sh: SKIP: the emulated cluster is not up (scripts/cluster/cluster.sh up)" >&2
    exit 77
fi
up=$(cat "$state/nodes")
[ "$nodes" -le "$up" ] || { echo "run.sh: $nodes nodes asked, $up up" >&2; exit 2; }
pid1=$(cat "$state/node1.pid")
on_node1() { nsenter -t "$pid1" -u -i -m -n -- "$@"; }

case "$fs" in
    gluster|moosefs|moosefs-nfs)
        case "$fs" in gluster) top=$mnt/gv ;; moosefs) top=$mnt/mfs ;; *) top=$mnt/mfsnfs ;; esac
        wdir=$(on_node1 mktemp -d "$top/job.XXXXXX")
        on_node1 chmod 755 "$wdir" ;;
    shared) wdir=$(pwd); keep=1 ;;
    *) wdir=$fs; keep=1 ;;
esac

hosts=""
for n in $(seq 1 "$nodes"); do hosts="${hosts:+$hosts,}node$n:$ppn"; done
np=$((nodes * ppn))
if "$mpiexec" --version 2>&1 | grep -q 'Open MPI\|OpenRTE'; then
    # what a job script on GlusterFS or NFS must do for programs that open
    # files themselves (Lemon's users): Open MPI's lockedfile component
    # hangs MPI_File_open across nodes there (docs/cluster.md)
    export OMPI_MCA_sharedfp="${OMPI_MCA_sharedfp:-^lockedfile}"
    # TCP between nodes and to the launcher, on the namespace's loopback only
    set -- "$mpiexec" --host "$hosts" -np "$np" --oversubscribe --wdir "$wdir" \
        --mca plm_rsh_agent "$here/rsh" --mca btl self,vader,tcp \
        --mca btl_tcp_if_include 10.99.0.1/32 --mca oob_tcp_if_include 10.99.0.1/32 "$@"
else
    # hydra: its proxies through rsh, control and data over lo (UCX kept
    # shared memory between emulated nodes unless told tcp)
    export UCX_TLS=self,tcp UCX_NET_DEVICES=lo FI_PROVIDER=tcp FI_TCP_IFACE=lo
    set -- "$mpiexec" -launcher ssh -launcher-exec "$here/rsh" -hosts "$hosts" -n "$np" \
        -iface lo -wdir "$wdir" "$@"
fi
rc=0
on_node1 timeout -k 15 "$timeout" "$@" || rc=$?
[ "$rc" -ne 124 ] || echo "run.sh: FAIL: the job did not finish within $timeout s (a hang)" >&2
if [ "$keep" = 0 ]; then on_node1 rm -rf "$wdir"; fi
exit "$rc"
