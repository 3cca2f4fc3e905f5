/* aggregate_shared_no_messages.c -- on one node the aggregate strategy
 * moves no lattice bytes in messages: the ranks convert their sites
 * straight into the aggregator's window, shared in memory, and tell it with
 * notes of one 8-byte integer.  The test intercepts the point-to-point
 * calls (PMPI) and counts the MPI_BYTE payloads during an aggregate write
 * and read of a fine split with many rounds (small windows, so the two
 * buffers are reused many times): none with sharing (the default), some
 * with LATTIO_AGG_SHARED=0, where every piece of another rank is a message.
 * Either way the file equals a serial image and the read gives the sites
 * back, ghosts untouched. */
#include "io/io_internal.h"
#include "bytecases.h"

#include <stdlib.h>

static int counting;
static long byte_msgs, notes;

static void seen(MPI_Datatype t)
{
    if (!counting) return;
    if (t == MPI_BYTE) byte_msgs++;
    else notes++;
}

int MPI_Isend(const void *b, int n, MPI_Datatype t, int to, int tag, MPI_Comm c, MPI_Request *r)
{
    seen(t);
    return PMPI_Isend(b, n, t, to, tag, c, r);
}
int MPI_Irecv(void *b, int n, MPI_Datatype t, int from, int tag, MPI_Comm c, MPI_Request *r)
{
    seen(t);
    return PMPI_Irecv(b, n, t, from, tag, c, r);
}
int MPI_Send(const void *b, int n, MPI_Datatype t, int to, int tag, MPI_Comm c)
{
    seen(t);
    return PMPI_Send(b, n, t, to, tag, c);
}
int MPI_Recv(void *b, int n, MPI_Datatype t, int from, int tag, MPI_Comm c, MPI_Status *st)
{
    seen(t);
    return PMPI_Recv(b, n, t, from, tag, c, st);
}

/* Write and read back the 8x8x8x16 lattice of 72-byte sites (ILDG order,
 * halos, split over several dimensions); the MPI_BYTE messages and notes
 * summed over ranks. */
static void run(long *bytes_total, long *notes_total)
{
    sim_case s;
    static const uint64_t g[4] = {8, 8, 8, 16};
    bc_make_case(4, g, BC_SPREAD, 4, 72, &s);
    lattio_layout l;
    bc_layout_of(&s, mpitest_rank, 0, &l);
    unsigned char *buf = sim_buffer(&l, 0xA5), *got = sim_buffer(&l, 0xA5);
    const uint64_t n = sim_buffer_sites(&l) * l.site_bytes, bytes = 8 * 8 * 8 * 16 * 72;
    memset(got, 0xA5, n);
    lattio_options opt;
    lattio_options_default(&opt);
    opt.strategy = LATTIO_STRATEGY_AGGREGATE;
    byte_msgs = notes = 0;
    bc_write_single("shared.lime", &opt, &l, buf, bytes, &counting);
    lattio_file *f = NULL;
    lattio_record_info info;
    CHECK_OK(lattio_open(MPI_COMM_WORLD, "shared.lime", LATTIO_MODE_READ, MPI_INFO_NULL, &opt, &f));
    CHECK_OK(lattio_record_find(f, "lattice", 0, &info));
    counting = 1;
    CHECK_OK(lattio_lattice_read(f, &l, 0, got));
    counting = 0;
    CHECK_OK(lattio_close(f));
    CHECK(memcmp(got, buf, n) == 0); /* interior sites back, ghosts untouched (0xA5 both) */
    MPI_Allreduce(&byte_msgs, bytes_total, 1, MPI_LONG, MPI_SUM, MPI_COMM_WORLD);
    MPI_Allreduce(&notes, notes_total, 1, MPI_LONG, MPI_SUM, MPI_COMM_WORLD);
    free(buf);
    free(got);
}

int main(int argc, char **argv)
{
    mpitest_init(&argc, &argv);
    setenv("LATTIO_STRIPING_UNIT", "1024", 1);
    setenv("LATTIO_CB_BUFFER_SIZE", "4096", 1); /* 144 rounds */
    long shared_bytes, shared_notes, msg_bytes, msg_notes;
    unsetenv("LATTIO_AGG_SHARED");
    run(&shared_bytes, &shared_notes);
    setenv("LATTIO_AGG_SHARED", "0", 1);
    run(&msg_bytes, &msg_notes);
    if (mpitest_rank == 0)
        printf("np %d: shared %ld data messages, %ld notes; messages only: %ld data messages, %ld notes\n",
               mpitest_size, shared_bytes, shared_notes, msg_bytes, msg_notes);
    CHECK_INT(shared_bytes, 0);
    CHECK_INT(msg_notes, 0);
    if (mpitest_size > 1) {
        CHECK(shared_notes > 0);
        CHECK(msg_bytes > 0);
    }
    CHECK_INT(lattio_alloc_outstanding(), 0);
    return mpitest_finish();
}
