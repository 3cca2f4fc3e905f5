/* fault.h -- fault injection for the fault tests: the test executable
 * defines the MPI-IO calls lattio makes (MPI_File_write_at ... close, passed
 * on to their PMPI_ versions) and the POSIX calls lattio makes outside MPI
 * (pwrite, pread, fallocate, fsync, fdatasync, ftruncate, rename, passed on with
 * dlsym(RTLD_NEXT)), counts them on every rank while armed, and makes the
 * n-th call of one rank fail.  Nothing of this is in the library: it is the
 * standard profiling interface and symbol interposition.
 *
 * A failed collective MPI call still takes part in the collective (the real
 * call is made, then its result replaced), as a real failure of one rank's
 * part does; a failed independent call or POSIX call does nothing. */
#ifndef LATTIO_FAULT_H
#define LATTIO_FAULT_H

enum fault_mode {
    FAULT_ERROR = 1, /* the call returns an I/O error (MPI_ERR_IO / EIO) */
    FAULT_SHORT = 2, /* reads only: the call succeeds but delivers half the bytes */
    FAULT_NOSPACE = 3, /* writes only: MPI_ERR_NO_SPACE / ENOSPC */
    FAULT_MPI_READ = 4 /* MPI-IO reads only (not POSIX ones): MPI_ERR_IO */
};

/* From now on count the calls of rank `rank`; its n-th (1-based) counted
 * call fails as `mode` says.  Calls of other ranks are not counted. */
void fault_arm(int rank, long n, int mode);
/* Stop counting; returns 1 when this rank's armed call failed. */
int fault_disarm(void);
/* The name of the call that failed on this rank ("" when none). */
const char *fault_what(void);

/* Built with FAULT_PRELOAD (libfault_preload.so, for LD_PRELOAD into a
 * program such as `lattio` under mpirun), the fault is armed from the
 * environment at the first intercepted call: FAULT_RANK (the rank, read
 * from the launcher's OMPI_COMM_WORLD_RANK or PMI_RANK), FAULT_CALL (n) and
 * FAULT_MODE (error, nospace, short or mpiread). */

#endif
