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
# --mpiexec: Open MPI's mpirun (default; 4.x or 5.x) or MPICH's / Intel
# MPI's mpiexec (hydra), told apart by --version: each stack's launcher
# quirks across the emulated nodes live here.  The job runs under a timeout (default 600 s): a job
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
version=$("$mpiexec" --version 2>&1 || true)
if echo "$version" | grep -q 'Open MPI) [5-9]'; then
    # Open MPI 5: PRRTE's daemons through rsh, their out-of-band TCP on the
    # fixture's veth (PRRTE takes no loopback interface between hosts), the
    # ranks' TCP too; the shared-memory transport is sm.  No --oversubscribe:
    # with it PRRTE maps every rank onto the first host (the slots of
    # --host already allow ppn ranks per node)
    if ! ip -n lattio-cluster link show lattio0 >/dev/null 2>&1; then
        echo "run.sh: the cluster's namespace has no veth lattio0 (this kernel made none): Open MPI 5's" \
             "daemons need a non-loopback interface, skipped" >&2
        [ "$keep" = 1 ] || on_node1 rm -rf "$wdir"
        exit 77
    fi
    export OMPI_MCA_sharedfp="${OMPI_MCA_sharedfp:-^lockedfile}"
    set -- "$mpiexec" --host "$hosts" -np "$np" --wdir "$wdir" \
        --prtemca plm_ssh_agent "$here/rsh" --prtemca oob_tcp_if_include lattio0 \
        --mca btl self,sm,tcp --mca btl_tcp_if_include lattio0 "$@"
elif echo "$version" | grep -q 'Open MPI\|OpenRTE'; then
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
    # an MPICH built with ch4:ofi too (PyPI's mpich 5): libfabric's tcp
    # provider, which reaches the other nodes where UCX's says "Destination
    # is unreachable"; Debian's MPICH 4 has ch4:ucx alone
    if "$mpiexec" -info 2>/dev/null | grep -q 'with-device=ch4:[a-z,]*ofi'; then
        export MPIR_CVAR_CH4_NETMOD="${MPIR_CVAR_CH4_NETMOD:-ofi}"
    fi
    set -- "$mpiexec" -launcher ssh -launcher-exec "$here/rsh" -hosts "$hosts" -n "$np" \
        -iface lo -wdir "$wdir" "$@"
fi
rc=0
on_node1 timeout -k 15 "$timeout" "$@" || rc=$?
[ "$rc" -ne 124 ] || echo "run.sh: FAIL: the job did not finish within $timeout s (a hang)" >&2
if [ "$keep" = 0 ]; then on_node1 rm -rf "$wdir"; fi
exit "$rc"
