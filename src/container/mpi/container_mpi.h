/* container_mpi.h -- the MPI task-local container handle (container.c:
 * open, close, writing; container_read.c: opening for reading;
 * container_rw.c: local calls; container_coalesce.c: coalesced close).
 * The on-disk logic is the MPI-free core's.  Data moves through each rank's
 * own POSIX descriptor (pwrite/pread, as SIONlib does): task-local streams
 * need no MPI-IO semantics; MPI carries only the collective metadata. */
#ifndef LATTIO_CONTAINER_MPI_H
#define LATTIO_CONTAINER_MPI_H

#include "container/container_internal.h"
#include "io/io_internal.h"

struct lattio_container {
    MPI_Comm comm; /* duplicate of the caller's */
    int rank, size;
    int mode;                      /* LATTIO_MODE_CREATE or _READ */
    lattio_container_options opt;  /* opt.file_comm is not used after open */
    char *path, *tmp;              /* final and temporary base names (tmp NULL in place) */
    lattio_cont_header h;          /* writing: this rank's file; reading: file 0's */
    /* writing */
    MPI_Comm fcomm;                /* the ranks writing this rank's file (comm
                                      itself when there is one file) */
    int frank, fsize;
    uint32_t findex, nfiles;
    int fd;                        /* this rank's file (-1: none) */
    lattio_cont_stream s;
    lattio_cont_sink sink;
    int failed;                    /* the first failed write's status (0: none): close
                                      returns it on every rank and publishes nothing */
    /* coalescing (writing with opt.coalesce > 1) */
    MPI_Comm gcomm;                /* the k consecutive ranks of a group, in fcomm */
    int coalescing, spilled;       /* active; this rank's stream outgrew the buffer */
    unsigned char *cbuf;           /* buffered stream while not spilled */
    size_t cbuf_len, cbuf_cap;
    /* reading */
    uint32_t nread;                /* physical files open for reading */
    int *fds;                      /* [nread] */
    lattio_cont_member *m;         /* [nread]; task tables shared between ranks */
    lattio_cont_cache cache;       /* verified chunk being read in pieces */
    int has_task;
    uint32_t task;                 /* selected stream */
    uint64_t pos;
};

/* Positional write (pwrite on c->fd), local: the stream sink. */
int lattio_container_sink_write(void *ctx, uint64_t off, const void *buf, size_t n);
/* Collective (reading).  Open the file set, read and share the metadata:
 * two collective calls whatever the number of ranks and files. */
int lattio_container_start_reading(lattio_container *c);
/* Collective over c->gcomm (writing, coalescing on): buffered streams of the
 * group written by its first rank; ranks that spilled write their final
 * trailer themselves.  Returns this rank's status (not agreed). */
int lattio_container_coalesce_close(lattio_container *c);
/* Reading: when the next read of the selected stream will not continue a
 * chunk left part-read in order (task, pos: where it will be), check the
 * chunk's rest now (docs/format.md 8.6): ERR_CONTAINER_CHECKSUM. */
int lattio_container_leave_chunk(lattio_container *c, uint32_t task, uint64_t pos);
/* This rank's stream bytes (written and buffered). */
static inline uint64_t lattio_container_written(const lattio_container *c)
{
    return c->s.total + c->cbuf_len;
}


#endif
