/* xfer.h -- the one door between a format's field pipeline (src/field)
 * and the MPI layer.  A pipeline hands the layer a stager: how this rank's
 * sites become file bytes (fill) and file bytes become its sites (drain).
 * lattio_xfer_write / _read then move one distributed lattice between the
 * stager and a record's payload in ONE planned call: the layout is checked
 * across ranks, the strategy chosen and the outcome agreed once per call;
 * the rounds in between make no collective call but the data movement of
 * the strategy itself (none for the independent strategy, point-to-point
 * messages for the aggregate and serial ones, the MPI-IO collective for
 * the collective one).  The pipeline never sees the file handle's members.
 *
 * The strategy decides the rounds: the independent and collective ones
 * take slabs of this rank's box (lattio_slab_plan, at most
 * stager->staging_sites sites), the aggregate and serial ones windows of
 * the file (lattio's two-phase I/O); fill and drain are called with ranges
 * [first, first + n) of this rank's sites in file-order numbering, each
 * site exactly once per call (sites cut by a window edge included). */
#ifndef LATTIO_XFER_H
#define LATTIO_XFER_H

#include "lattio.h"

#include <mpi.h>

typedef struct lattio_stager {
    /* Writing: sites [first, first + n) as file bytes into dst. */
    int (*fill)(void *ctx, int lane, uint64_t first, uint64_t n, unsigned char *dst);
    /* Reading: sites [first, first + n) arrived as file bytes at src. */
    int (*drain)(void *ctx, int lane, uint64_t first, uint64_t n, const unsigned char *src);
    void *ctx;
    /* Non-NULL: the sites are already file bytes here, packed in file
     * order (fill and drain unused; zero copy). */
    unsigned char *direct;
    /* Sites per staging buffer of a slab round (0: the layer's default). */
    uint64_t staging_sites;
    /* Sites per block a lane takes at a time (0: a whole round on lane 0). */
    uint64_t block_sites;
    /* 2: fill/drain may run on lanes 0 (the calling thread) and 1 (a helper
     * thread, which calls no MPI) at once, on disjoint sites; the layer
     * then overlaps staging with I/O where every rank has a free CPU. */
    int lanes;
} lattio_stager;

typedef struct lattio_xfer_info {
    uint64_t rounds; /* rounds of the call (the maximum over ranks) */
    int strategy;    /* LATTIO_STRATEGY_* used */
    int threaded;    /* 1 when a helper thread staged (every rank) */
} lattio_xfer_info;

/* Collective.  Write lattice l (site_bytes: file bytes per site) at payload
 * offset `offset` of the open record; `partial`: the boxes may cover a
 * part of the lattice.  Read: from the current record (READ mode) or the
 * open record (writing: verification after a write).  One status on every
 * rank; `out` may be NULL. */
int lattio_xfer_write(lattio_file *f, const lattio_layout *l, uint64_t offset, int partial,
                      const lattio_stager *s, lattio_xfer_info *out);
int lattio_xfer_read(lattio_file *f, const lattio_layout *l, uint64_t offset, int partial,
                     const lattio_stager *s, lattio_xfer_info *out);

/* Local.  The staging bytes f's configuration asks for (LATTIO_STAGING_BYTES
 * at open), 0 when none. */
uint64_t lattio_xfer_staging_bytes(const lattio_file *f);

/* A complete small record (metadata: XML, checksums): rank 0's payload. */
typedef struct lattio_xfer_record {
    const char *type;
    const void *data; /* read on rank 0 only */
    uint64_t length;
    int mb, me; /* LIME message begin / end flags */
} lattio_xfer_record;
#define LATTIO_XFER_RECORDS_MAX 8

/* Collective.  Records recs[0..n) (n <= LATTIO_XFER_RECORDS_MAX) after the
 * file's last record, written by rank 0: headers, padding and payloads up
 * to 64 KiB in one call, a longer payload from the caller's memory (no
 * copy); lattio_record_write is this with n = 1.  Every rank passes rank 0's types, lengths and flags
 * (ERR_RANK_ARG); no record may be open (ERR_STATE).  Four collective
 * calls whatever n, one agreed status; a failure poisons the file as a
 * failed record write does. */
int lattio_xfer_records(lattio_file *f, int n, const lattio_xfer_record *recs);

/* What the pipeline may know of a file. */
MPI_Comm lattio_xfer_comm(const lattio_file *f);
/* Local: 1 when f was opened for reading. */
int lattio_xfer_reading(const lattio_file *f);
/* Local: the path a serial parser may open (NULL for attached files or
 * files whose records do not start at byte 0). */
const char *lattio_xfer_path(const lattio_file *f);
/* Local: make the indexed record whose header is at `offset` with payload
 * `length` current (ERR_STATE when there is none). */
int lattio_xfer_select(lattio_file *f, uint64_t offset, uint64_t length);
/* Local.  Raw bytes another format's library laid out (an HDF5 dataset's
 * storage): make the payload region [offset, offset + length) of the file
 * what lattio_xfer_write / _read address, as a record without a LIME
 * header (writing: no record may be open; end it with
 * lattio_xfer_region_end before closing or the next region). */
int lattio_xfer_region(lattio_file *f, uint64_t offset, uint64_t length);
void lattio_xfer_region_end(lattio_file *f);
/* Local: the name the file has on disk while open (the temporary name of a
 * CREATE file before its rename, else the path; NULL for attached files). */
const char *lattio_xfer_disk_name(const lattio_file *f);
/* Local: the MPI_Info hints f was opened with (MPI_INFO_NULL: none), for
 * another library opening the same file. */
MPI_Info lattio_xfer_hints(const lattio_file *f);
/* Local: the file-domain alignment of f (lattio_open's striping rule). */
uint64_t lattio_xfer_alignment(const lattio_file *f);
/* Local: f holds a record of `type` (present at open or begun since). */
int lattio_file_has_type(const lattio_file *f, const char *type);
/* Collective: every rank's writes visible to every rank's reads
 * (ERR_PENDING while non-blocking requests are pending): MPI-IO's
 * sync-barrier-sync, nothing on a single rank. */
int lattio_xfer_sync(lattio_file *f);

/* Collective.  Sites (or any items of `elem` bytes) that a rank holds but
 * other ranks own delivered (strategy/route.c): out[q] the n_out[q] items
 * this rank has for rank q (NULL when none); *in (lattio_malloc'd) the
 * items every rank had for this one, in rank order, *nin of them.  For
 * sites that come from files the ranks read whole (a QIO volume set),
 * where no box of the file is a rank's.  One agreed status. */
int lattio_xfer_route(MPI_Comm comm, size_t elem, unsigned char *const *out, const uint64_t *n_out,
                      unsigned char **in, uint64_t *nin);

/* Collective: one status on every rank (a failed transfer first, else the
 * most negative; lattio_agree). */
int lattio_xfer_agree(lattio_file *f, int rc);
/* Collective on comm (no file yet): the same agreement (agree.c). */
int lattio_agree(MPI_Comm comm, int status);

/* The arguments of a collective call that must match on every rank
 * (args.c): add each (a name, then a string or an integer; a field
 * descriptor's for writing or reading), then lattio_args_agree compares
 * them with rank 0's before the call does anything: ERR_RANK_ARG on every
 * rank, the detail naming the first that differs.  Start from {0}. */
#define LATTIO_ARGS_MAX 32
typedef struct lattio_args {
    int n;
    const char *name[LATTIO_ARGS_MAX];
    uint64_t hash[LATTIO_ARGS_MAX];
} lattio_args;
void lattio_args_str(lattio_args *a, const char *name, const char *s);
void lattio_args_int(lattio_args *a, const char *name, int64_t v);
void lattio_args_desc(lattio_args *a, const lattio_field_desc *d, int writing);
/* Collective. */
int lattio_args_agree(MPI_Comm comm, const lattio_args *a);
/* Local: an MPI return code as a status (ERR_MPI on failure). */
int lattio_xfer_mpi(int mpi_rc, const char *what);

/* A public call of the pipeline, timed as one (lattio_profile_get):
 * begin in `phase`; end records a write call's outcome (poisoning f on
 * failure, as every collective write call does) and returns rc. */
void lattio_xfer_call_begin(lattio_file *f, int phase);
int lattio_xfer_call_end(lattio_file *f, int rc, int writing);
/* The phase the time from now on is charged to (calling thread only). */
void lattio_xfer_phase(lattio_file *f, int phase);

#endif
