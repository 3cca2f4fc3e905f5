/* volumes_internal.h -- the volume sets' room (src/volumes): shared by
 * its MPI-free files (volumes.c reads, join_split.c joins and splits,
 * publish.c publishes a set as one unit) and its parallel ones (mpi/). */
#ifndef LATTIO_VOLUMES_INTERNAL_H
#define LATTIO_VOLUMES_INTERNAL_H

#include "field/field_internal.h"

#define LATTIO_SITELIST_TYPE "scidac-sitelist"

/* Volume 0's description of the set: its binary records (nbinary), which
 * of them are lattice fields (is_lattice[k]; lattice_of[k] their index
 * among those, -1 for global data) and the file bytes of a site of each
 * lattice field (site_bytes[j]). */
typedef struct lattio_volume_meta {
    int volfmt, nd, nbinary, nlattice;
    uint64_t dims[LATTIO_MAX_DIMS];
    uint64_t volume;
    int *is_lattice, *lattice_of;
    uint64_t *site_bytes;
    int *whole; /* per lattice field: 1 for a field of every site, 0 for a subset (recordtype 2) */
} lattio_volume_meta;

/* Where a site of global rank `rank` sits in field fi's record: the rank
 * itself, or for a subset its place in the hypercube (lexicographic);
 * UINT64_MAX when a subset does not hold it. */
uint64_t lattio_field_site_pos(const lattio_field_info *fi, uint64_t rank);


/* Volume 0 of a set read and described (fields[k]: its k-th binary
 * record's description, the caller frees each and the array);
 * errors name the file. */
int lattio_volume_master_meta(const char *path, lattio_volume_meta *m, lattio_field_info **fields);
int lattio_volume_meta_read(lattio_lime_reader *r, lattio_volume_meta *m, lattio_field_info **fields);
void lattio_volume_meta_free(lattio_volume_meta *m);

/* One volume: its site list and its binary records of lattice fields. */
typedef struct lattio_volume {
    char *path;
    int number;
    uint64_t sites;
    lattio_record_info sitelist;
    int width;                 /* bytes per rank in the site list: 4 or 8 */
    int ndata;
    lattio_record_info *data;  /* the lattice fields' binary records */
} lattio_volume;

/* The set's volume numbers (sorted) and naming (in_dirs: volNNNN/NAME,
 * found from its volume 0); _as: those of the naming given. */
int lattio_volumes_list(const char *base, int *in_dirs, int **numbers, int *count);
int lattio_volumes_list_as(const char *base, int in_dirs, int **numbers, int *count);
/* The journal of a set's publication (publish.c): its name
 * (whether one is there: lattio_volumes_interrupted, support.h). */
#define LATTIO_VOLUMES_JOURNAL ".lattio-publish"
int lattio_volumes_journal_name(const char *base, char *out, size_t size);
/* A usable set name: a file name (not "", ".", "..", no trailing '/')
 * without tab or newline (the journal's separators).  ERR_ARG otherwise. */
int lattio_volumes_check_base(const char *base);
/* Publish n new volumes (numbers[i] complete under the temporary name
 * tmps[i]) as the set `base` in volfmt's naming, as one unit: the journal,
 * the renames, the removal of what the new set replaces (the older set's
 * other volumes, a set of the other naming, a single file at base), the
 * journal removed.  On failure before the journal, the temporaries are
 * removed and the previous set is untouched. */
int lattio_volumes_publish(const char *base, int volfmt, int n, const int *numbers, char *const *tmps);
/* The parent directory of path (partfile in directories), made when
 * missing (*made 1); ERR_NOT_REGULAR when something else has its name. */
int lattio_volume_make_parent(const char *path, int *made);
/* The set `base` may be written: a usable name (lattio_volumes_check_base),
 * no interrupted publication, and none of the files it would replace or
 * remove (a single file at base, the volumes of either naming) is one of
 * the n `inputs`: ERR_OUTPUT_IS_INPUT naming it. */
int lattio_volumes_output_allowed(const char *base, const char *const *inputs, int n);
/* vo->path and vo->number set: index the volume and check its records
 * against m (errors name the volume). */
int lattio_volume_scan(lattio_volume *vo, const lattio_volume_meta *m);
void lattio_volume_free(lattio_volume *vo);
/* The ranks of the volume's sites, each checked below `volume`. */
int lattio_volume_ranks(lattio_lime_reader *r, const lattio_volume *vo, uint64_t volume, uint64_t *ranks);
/* Lattice field j's part of the volume (field fi: for a subset the listed
 * sites inside its hypercube, the record's length checked) in bounded
 * chunks, each handed to sink with its sites' ranks. */
typedef int (*lattio_volume_sink)(void *ctx, const unsigned char *buf, const uint64_t *ranks, uint64_t n);
int lattio_volume_read_part(lattio_lime_reader *r, const lattio_volume *vo, int j, const uint64_t *ranks,
                            const lattio_field_info *fi, lattio_volume_sink sink, void *ctx);
/* Every volume's part of lattice field `index` (among volume 0's binary
 * records) handed to sink in bounded chunks with its sites' ranks. */
int lattio_volumes_visit(lattio_volumes *v, int index, lattio_volume_sink sink, void *ctx);
/* Path of the set's i-th volume (0: volume 0). */
const char *lattio_volumes_path(const lattio_volumes *v, int i);

/* join_split.c: pieces the parallel writer shares. */
/* The big-endian site list of n ranks, 4 bytes each when the largest fits
 * 32 bits (as QIO writes it), else 8: *out lattio_malloc'd, *len. */
int lattio_volume_sitelist(const uint64_t *ranks, uint64_t n, unsigned char **out, uint64_t *len);
/* The private file XML of a volume (volfmt) or single file (0). */
int lattio_volume_private_file(int nd, const uint64_t *dims, int volfmt, char **out, size_t *len);

#endif
