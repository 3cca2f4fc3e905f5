/* write.c -- a QIO volume set written in parallel, each volume through
 * the MPI layer's door like every other field: its ranks open it together
 * (lattio_open under a temporary name), rank 0 of them writes its records
 * (lattio_record_write, lattio_field_put_records) and every rank moves its
 * sites into the binary records with the field pipe (lattio_xfer_write:
 * the strategy chosen for those ranks and that file).
 *
 * multifile gives every rank its volume (its box, sites in lexicographic
 * order); partfile every node whose ranks' boxes make one box (that box in
 * lexicographic order: increasing site rank, as QIO orders a partition's
 * sites, each rank's box a part of it), and every rank of a node whose
 * boxes do not its own.  A volume is named after the world rank of its
 * first rank, as QIO names a partition's after its I/O node; world rank
 * 0's volume (volume 0) carries the metadata and each field's checksum,
 * XORed over the ranks.  The volumes stay under their temporary names
 * until every one is complete and verified, then rank 0 publishes the set
 * as one unit (lattio_volumes_publish, publish.c). */
#include "volumes_mpi.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* One writing: what travels together. */
typedef struct vjob {
    MPI_Comm comm;  /* every rank */
    MPI_Comm group; /* the ranks of this rank's volume */
    int rank, grank, number, master; /* number: the volume's; master: volume 0's ranks */
    const char *base;
    int volfmt;
    const lattio_field_desc *d;
    const lattio_layout *l; /* the caller's */
    lattio_vbox vol;        /* the volume's box (its lattice's extents in global) */
    uint64_t vsites;
    lattio_field_info fi;   /* the field being written (the descriptor's strings, not owned) */
    lattio_file *f;         /* the volume, open under its temporary name */
    char *tmp;
    char made[4096];        /* a directory the writing made (partfile in directories) */
    uint64_t rounds;
} vjob;

/* --- the volumes ---------------------------------------------------------- */

/* Local: the box holding every non-empty box of boxes[0..n) (lo, n in
 * file order each, LATTIO_VBOX_VALUES values); *whole: they fill it. */
static void bounding_box(const uint64_t *boxes, int n, lattio_vbox *vol, int *whole)
{
    uint64_t lo[LATTIO_MAX_DIMS], hi[LATTIO_MAX_DIMS], sites = 0;
    int any = 0;
    for (int q = 0; q < n; q++) {
        const uint64_t *b = boxes + (size_t)q * LATTIO_VBOX_VALUES, *e = b + LATTIO_MAX_DIMS;
        uint64_t s = 1;
        for (int k = 0; k < vol->nd; k++) s *= e[k];
        if (s == 0) continue;
        for (int k = 0; k < vol->nd; k++) {
            lo[k] = any && lo[k] < b[k] ? lo[k] : b[k];
            hi[k] = any && hi[k] > b[k] + e[k] ? hi[k] : b[k] + e[k];
        }
        any = 1;
        sites += s;
    }
    for (int k = 0; k < vol->nd; k++) {
        vol->lo[k] = any ? lo[k] : 0;
        vol->n[k] = any ? hi[k] - lo[k] : 0;
    }
    *whole = sites == lattio_vbox_sites(vol);
}

/* Collective over the group: the volume's box from its ranks' boxes. */
static int group_box(vjob *j, const lattio_vbox *mine, int *whole)
{
    int gsize = 0;
    RETURN_IF_ERROR(lattio_xfer_mpi(MPI_Comm_size(j->group, &gsize), "MPI_Comm_size"));
    uint64_t *boxes = NULL;
    int tile = 0;
    RETURN_IF_ERROR(lattio_vbox_share(j->group, mine, &boxes, &tile));
    j->vol = *mine;
    bounding_box(boxes, gsize, &j->vol, whole);
    lattio_free(boxes);
    return LATTIO_OK;
}

/* Collective: the groups of ranks that write one volume, their volume's
 * box and number. */
static int make_group(vjob *j)
{
    const int rc = j->volfmt == LATTIO_VOLFMT_MULTI
                       ? MPI_Comm_split(j->comm, j->rank, 0, &j->group)
                       : MPI_Comm_split_type(j->comm, MPI_COMM_TYPE_SHARED, j->rank, MPI_INFO_NULL, &j->group);
    RETURN_IF_ERROR(lattio_agree(j->comm, lattio_xfer_mpi(rc, "MPI_Comm_split")));
    lattio_vbox mine;
    lattio_vbox_of(j->l, &mine);
    int whole = 0;
    RETURN_IF_ERROR(lattio_agree(j->comm, group_box(j, &mine, &whole)));
    int src = LATTIO_OK;
    if (!whole) { /* a node whose boxes make no box: a volume per rank */
        MPI_Comm one = MPI_COMM_NULL;
        src = lattio_xfer_mpi(MPI_Comm_split(j->group, j->rank, 0, &one), "MPI_Comm_split");
        MPI_Comm_free(&j->group);
        j->group = one;
        j->vol = mine;
    }
    RETURN_IF_ERROR(lattio_agree(j->comm, src)); /* every rank, split or not */
    j->vsites = lattio_vbox_sites(&j->vol);
    RETURN_IF_ERROR(lattio_xfer_mpi(MPI_Comm_rank(j->group, &j->grank), "MPI_Comm_rank"));
    j->number = j->rank;
    RETURN_IF_ERROR(lattio_agree(j->comm, lattio_xfer_mpi(MPI_Bcast(&j->number, 1, MPI_INT, 0, j->group), "MPI_Bcast")));
    j->master = j->number == 0;
    return LATTIO_OK;
}

/* Local: this rank's box inside its volume's lattice, file bytes a site. */
static void volume_layout(const vjob *j, lattio_layout *vl)
{
    const uint64_t empty = lattio_layout_local_sites(j->l) == 0;
    for (int k = 0; k < j->l->ndims; k++) {
        const int f = j->l->file_order[k];
        vl->global[f] = j->vol.n[k];
        vl->lo[f] = empty ? 0 : j->l->lo[f] - j->vol.lo[k];
    }
}

/* Group rank 0: the volume's directory (partfile in directories) and a
 * temporary name beside it. */
static int name_volume(vjob *j)
{
    char path[4096];
    RETURN_IF_ERROR(lattio_volumes_name(j->base, j->volfmt, j->number, path, sizeof path));
    int new_dir = 0;
    if (j->volfmt == LATTIO_VOLFMT_PART_DIR) RETURN_IF_ERROR(lattio_volume_make_parent(path, &new_dir));
    if (new_dir) snprintf(j->made, sizeof j->made, "%.*s", (int)(strrchr(path, '/') - path), path);
    j->tmp = lattio_temp_name(path);
    return j->tmp ? LATTIO_OK : LATTIO_FAIL(LATTIO_ERR_NOMEM, "temporary name");
}

/* Collective over the group: the site list of the volume (its box's
 * ranks, increasing) as a record; the data on group rank 0 only. */
static int put_sitelist(vjob *j, int mb, int me)
{
    const uint64_t last = j->vsites ? lattio_vbox_rank(&j->vol, j->vsites - 1) : 0;
    const uint64_t len = j->vsites * (last <= UINT32_MAX ? 4 : 8);
    unsigned char *list = NULL;
    uint64_t got = len;
    uint64_t *ranks = j->grank == 0 ? lattio_malloc((size_t)(j->vsites ? j->vsites : 1) * 8) : NULL;
    int rc = j->grank == 0 && !ranks ? LATTIO_FAIL(LATTIO_ERR_NOMEM, "site list") : LATTIO_OK;
    for (uint64_t i = 0; ranks && i < j->vsites; i++) ranks[i] = lattio_vbox_rank(&j->vol, i);
    if (rc == LATTIO_OK && ranks) rc = lattio_volume_sitelist(ranks, j->vsites, &list, &got);
    lattio_free(ranks);
    rc = lattio_xfer_agree(j->f, rc == LATTIO_OK && got != len ? LATTIO_ERR_OVERFLOW : rc);
    if (rc == LATTIO_OK) rc = lattio_record_write(j->f, LATTIO_SITELIST_TYPE, list, len, mb, me);
    lattio_free(list);
    return rc;
}

/* Collective over the group: the volume's header records (volume 0: the
 * private file XML, the site list, the file XML; others the site list). */
static int put_header(vjob *j)
{
    if (!j->master) return put_sitelist(j, 1, 1);
    const lattio_set_record pfx = {LATTIO_REC_PRIVATE_FILE_XML, 1, 0}, fx = {LATTIO_REC_FILE_XML, 0, 1};
    RETURN_IF_ERROR(lattio_field_put_records(j->f, &j->fi, &pfx, 1));
    RETURN_IF_ERROR(put_sitelist(j, 0, 0));
    return lattio_field_put_records(j->f, &j->fi, &fx, 1);
}

/* Collective: every group's volume open under its temporary name, its
 * header written. */
static int open_volume(vjob *j)
{
    int rc = lattio_agree(j->comm, j->grank == 0 ? name_volume(j) : LATTIO_OK);
    if (rc == LATTIO_OK) rc = lattio_agree(j->comm, lattio_field_bcast_string(j->group, j->grank, &j->tmp));
    lattio_options opt;
    lattio_options_default(&opt);
    opt.in_place = 1; /* the name is a temporary one: the set's publication renames it */
    if (rc == LATTIO_OK) rc = lattio_agree(j->comm, lattio_open(j->group, j->tmp, LATTIO_MODE_CREATE, MPI_INFO_NULL,
                                                                &opt, &j->f));
    if (rc == LATTIO_OK) rc = put_header(j);
    return lattio_agree(j->comm, rc);
}

/* --- a field's binary records ----------------------------------------------- */

/* Collective over the group: the open binary record read back through the
 * same layout sums, on every rank, as it was written (`want`, this
 * rank's sites with their global ranks). */
static int reread(vjob *j, const lattio_layout *vl, lattio_scidac_sum want)
{
    RETURN_IF_ERROR(lattio_xfer_sync(j->f));
    lattio_field_pipe p;
    int rc = lattio_xfer_agree(j->f, lattio_field_pipe_init(&p, j->f, j->d, j->l, j->d->disk_format, NULL));
    if (rc != LATTIO_OK) return rc;
    p.st.sum_only = 1;
    p.fl = *vl;
    rc = lattio_xfer_read(j->f, vl, 0, 0, &p.s, NULL);
    const lattio_scidac_sum got = lattio_field_stage_sum(&p.st);
    lattio_field_pipe_free(&p);
    if (rc == LATTIO_OK && (got.suma != want.suma || got.sumb != want.sumb)) {
        lattio_detail_set("volume %s: its binary record reads back as %08x %08x, written %08x %08x", j->tmp,
                          (unsigned)got.suma, (unsigned)got.sumb, (unsigned)want.suma, (unsigned)want.sumb);
        rc = LATTIO_FAIL(LATTIO_ERR_VERIFY, "volume read back");
    }
    return lattio_xfer_agree(j->f, rc);
}

/* Collective over the group: this rank's sites into the open binary
 * record through the field pipe, in one planned call; with d->verify read
 * back and rewritten up to d->verify_retries times.  *sum: this rank's. */
static int move_field(vjob *j, const void *local, lattio_scidac_sum *sum)
{
    for (int attempt = 0;; attempt++) {
        lattio_field_pipe p;
        int rc = lattio_xfer_agree(j->f, lattio_field_pipe_init(&p, j->f, j->d, j->l, j->d->disk_format,
                                                                (void *)local));
        if (rc != LATTIO_OK) return rc;
        volume_layout(j, &p.fl);
        lattio_xfer_info xi = {0, 0, 0};
        rc = lattio_xfer_write(j->f, &p.fl, 0, 0, &p.s, &xi);
        *sum = lattio_field_stage_sum(&p.st);
        const lattio_layout vl = p.fl;
        lattio_field_pipe_free(&p);
        j->rounds = xi.rounds > j->rounds ? xi.rounds : j->rounds;
        if (rc != LATTIO_OK || !j->d->verify) return rc;
        rc = reread(j, &vl, *sum);
        if (rc != LATTIO_ERR_VERIFY || attempt >= j->d->verify_retries) return rc;
    }
}

/* Collective: field `local` into every volume (volume 0 with the record
 * set's head), then its checksum, XORed over every rank, into volume 0. */
static int write_field(vjob *j, const void *local, lattio_scidac_sum *total)
{
    const int ildg = j->fi.kind == LATTIO_FIELD_ILDG_GAUGE;
    lattio_set_record head[LATTIO_SET_HEAD_MAX];
    const int nh = j->master ? lattio_field_set_head(ildg, 0, head) : 0;
    int rc = nh ? lattio_field_put_records(j->f, &j->fi, head, nh) : LATTIO_OK;
    const uint64_t site = j->d->elements * lattio_real_size(j->d->disk_format);
    if (rc == LATTIO_OK)
        rc = lattio_record_begin(j->f, ildg ? "ildg-binary-data" : "scidac-binary-data", j->vsites * site, !j->master,
                                 !j->master);
    lattio_scidac_sum sum = {0, 0};
    if (rc == LATTIO_OK && j->vsites) rc = move_field(j, local, &sum);
    if (rc == LATTIO_OK) rc = lattio_record_end(j->f, 0);
    rc = lattio_agree(j->comm, rc);
    if (rc == LATTIO_OK) rc = lattio_agree(j->comm, lattio_field_xor_sum(j->comm, &sum));
    j->fi.stored = sum;
    const lattio_set_record checksum = {LATTIO_REC_CHECKSUM, 0, 1};
    if (rc == LATTIO_OK && j->master) rc = lattio_field_put_records(j->f, &j->fi, &checksum, 1);
    *total = sum;
    return lattio_agree(j->comm, rc);
}

/* --- the set's publication ---------------------------------------------------- */

/* Local: the argument checks of a write. */
static int check_write(const char *base, int volfmt, const lattio_field_desc *d, const lattio_layout *l, int n,
                       const void *const *locals)
{
    RETURN_IF(!base || !d || !l || n < 1 || !locals, LATTIO_ERR_ARG);
    RETURN_IF(volfmt < LATTIO_VOLFMT_MULTI || volfmt > LATTIO_VOLFMT_PART_DIR, LATTIO_ERR_ARG);
    RETURN_IF(d->disk_format != LATTIO_REAL_F32_BE && d->disk_format != LATTIO_REAL_F64_BE, LATTIO_ERR_ARG);
    RETURN_IF(d->datacount == 0 || d->elements % d->datacount, LATTIO_ERR_ARG);
    for (int k = 0; k < n; k++) RETURN_IF_ERROR(lattio_field_check_memory(d, l, locals[k]));
    RETURN_IF_ERROR(lattio_field_check_metadata(d));
    if (d->n_other) {
        lattio_detail_set("other writers' records go into single files, not QIO volume sets");
        return LATTIO_FAIL(LATTIO_ERR_ARG, "other records");
    }
    return lattio_field_desc_type_check(d, l);
}

/* Rank 0: the gathered volumes (all[2r] the number of rank r's volume or
 * -1, its temporary's name at names + displs[r]) published. */
static int publish_gathered(const char *base, int volfmt, int size, const int *all, char *names, const int *displs)
{
    int n = 0;
    int *numbers = lattio_malloc((size_t)size * sizeof *numbers);
    char **tmps = lattio_malloc((size_t)size * sizeof *tmps);
    int rc = numbers && tmps ? LATTIO_OK : LATTIO_FAIL(LATTIO_ERR_NOMEM, "publish");
    for (int r = 0; rc == LATTIO_OK && r < size; r++)
        if (all[2 * r] >= 0) numbers[n] = all[2 * r], tmps[n++] = names + displs[r];
    if (rc == LATTIO_OK) rc = lattio_volumes_publish(base, volfmt, n, numbers, tmps);
    lattio_free(numbers);
    lattio_free(tmps);
    return rc;
}

/* What rank 0 gathers for the publication: each rank's volume number (or
 * -1) and temporary name's length (all[2r], all[2r + 1]), the names. */
typedef struct gathered {
    int *all, *displs, *lens;
    char *names;
} gathered;

static void gathered_free(gathered *g)
{
    lattio_free(g->all);
    lattio_free(g->displs);
    lattio_free(g->lens);
    lattio_free(g->names);
}

/* Rank 0: the room for every rank's number and name length. */
static int gather_room(gathered *g, int size)
{
    g->all = lattio_malloc((size_t)size * 2 * sizeof *g->all);
    g->displs = lattio_malloc((size_t)size * sizeof *g->displs);
    g->lens = lattio_malloc((size_t)size * sizeof *g->lens);
    return g->all && g->displs && g->lens ? LATTIO_OK : LATTIO_FAIL(LATTIO_ERR_NOMEM, "names");
}

/* Collective: every group rank 0's volume number and temporary name to
 * rank 0 (each step agreed: a failure anywhere is every rank's). */
static int gather_names(const vjob *j, int size, const char *tmp, gathered *g)
{
    memset(g, 0, sizeof *g);
    const int root = j->rank == 0;
    const int mine[2] = {tmp ? j->number : -1, tmp ? (int)strlen(tmp) + 1 : 0};
    RETURN_IF_ERROR(lattio_agree(j->comm, root ? gather_room(g, size) : LATTIO_OK));
    int rc = lattio_xfer_mpi(MPI_Gather(mine, 2, MPI_INT, g->all, 2, MPI_INT, 0, j->comm), "MPI_Gather");
    uint64_t total = 0;
    for (int r = 0; root && rc == LATTIO_OK && r < size; r++) {
        g->displs[r] = (int)total, g->lens[r] = g->all[2 * r + 1];
        total += (uint64_t)g->lens[r];
    }
    if (root && rc == LATTIO_OK) g->names = total <= INT32_MAX ? lattio_malloc(total ? total : 1) : NULL;
    RETURN_IF_ERROR(lattio_agree(j->comm, rc == LATTIO_OK && root && !g->names ? LATTIO_ERR_NOMEM : rc));
    rc = lattio_xfer_mpi(MPI_Gatherv(tmp ? tmp : "", mine[1], MPI_CHAR, g->names, g->lens, g->displs, MPI_CHAR, 0,
                                     j->comm),
                         "MPI_Gatherv");
    return lattio_agree(j->comm, rc);
}

/* Collective: close every volume; when every one is complete (`rc`, the
 * writing's agreed status) rank 0 publishes the set as one unit from each
 * volume's number and temporary name (lattio_volumes_publish; on its
 * failure it removes every temporary); otherwise each group's rank 0
 * removes its volume. */
static int publish_set(vjob *j, int rc)
{
    int size = 0;
    const int closed = lattio_close(j->f); /* group-collective: the volume's last writes agreed */
    j->f = NULL;
    rc = lattio_agree(j->comm, rc < 0 ? rc : closed);
    RETURN_IF_ERROR(lattio_xfer_mpi(MPI_Comm_size(j->comm, &size), "MPI_Comm_size"));
    const char *tmp = j->grank == 0 && rc == LATTIO_OK ? j->tmp : NULL;
    gathered g;
    int handed = 0; /* rank 0 publishes: the temporaries are its to remove or keep */
    if (rc == LATTIO_OK) {
        rc = gather_names(j, size, tmp, &g);
        handed = rc == LATTIO_OK;
        if (rc == LATTIO_OK && j->rank == 0) rc = publish_gathered(j->base, j->volfmt, size, g.all, g.names, g.displs);
        if (lattio_xfer_mpi(MPI_Bcast(&handed, 1, MPI_INT, 0, j->comm), "MPI_Bcast") != LATTIO_OK) handed = 0;
        gathered_free(&g);
    }
    if (!handed && j->grank == 0 && j->tmp) unlink(j->tmp);
    return lattio_agree(j->comm, rc);
}

static void job_free(vjob *j)
{
    if (j->f) (void)lattio_close(j->f);
    if (j->group != MPI_COMM_NULL) MPI_Comm_free(&j->group);
    lattio_free(j->tmp); /* j->fi borrows the descriptor's strings (lattio_field_describe) */
}

static int write_set(vjob *j, int n, const void *const *locals, lattio_field_write_info *out)
{
    lattio_vbox mine;
    lattio_vbox_of(j->l, &mine);
    uint64_t *boxes = NULL;
    int tile = 0;
    int rc = lattio_vbox_share(j->comm, &mine, &boxes, &tile);
    lattio_free(boxes);
    if (rc == LATTIO_OK && !tile) rc = LATTIO_FAIL(LATTIO_ERR_LAYOUT, "boxes do not cover the lattice");
    rc = lattio_agree(j->comm, rc);
    if (rc == LATTIO_OK) rc = make_group(j);
    lattio_field_describe(&j->fi, j->d, j->l);
    j->fi.volfmt = j->volfmt;
    if (rc == LATTIO_OK) rc = open_volume(j);
    lattio_scidac_sum sum = {0, 0};
    for (int k = 0; rc == LATTIO_OK && k < n; k++) {
        j->fi.index = k;
        rc = write_field(j, locals[k], &sum);
    }
    rc = publish_set(j, rc); /* every rank: a volume open or not */
    if (rc != LATTIO_OK && j->made[0]) (void)rmdir(j->made); /* kept when something else is in it */
    if (rc == LATTIO_OK && out) {
        out->sum = sum;
        out->rounds = j->rounds;
    }
    return rc;
}

int lattio_volumes_write(MPI_Comm comm, const char *base, int volfmt, const lattio_field_desc *d,
                         const lattio_layout *l, int n, const void *const *locals, lattio_field_write_info *out)
{
    if (out) memset(out, 0, sizeof *out);
    lattio_detail_clear();
    RETURN_IF_ERROR(lattio_agree(comm, check_write(base, volfmt, d, l, n, locals)));
    vjob j;
    memset(&j, 0, sizeof j);
    j.comm = comm, j.group = MPI_COMM_NULL, j.base = base, j.volfmt = volfmt, j.d = d, j.l = l;
    RETURN_IF_ERROR(lattio_xfer_mpi(MPI_Comm_rank(comm, &j.rank), "rank"));
    lattio_args a = {0};
    lattio_args_str(&a, "base", base);
    lattio_args_int(&a, "volfmt", volfmt);
    lattio_args_int(&a, "fields", n);
    lattio_args_int(&a, "dimensions", l->ndims);
    lattio_args_desc(&a, d, 1);
    RETURN_IF_ERROR(lattio_args_agree(comm, &a));
    RETURN_IF_ERROR(lattio_agree(comm, j.rank == 0 ? lattio_volumes_output_allowed(base, NULL, 0) : LATTIO_OK));
    const int rc = write_set(&j, n, locals, out);
    job_free(&j);
    return rc;
}
