/* lattice.c -- the public lattice calls: distributed lattices of opaque
 * sites in a record.  Each is one lattio_xfer_* call (xfer.c) with a
 * stager that packs the caller's sites into file order (lattio_layout_pack
 * and _unpack) or, when the buffer has no ghosts and is in file order,
 * hands the buffer itself over (zero copy: a t-slab decomposition gives one
 * large independent write per rank straight from it).  The strategy
 * (independent by default, the aggregate strategy for fine-grained writes;
 * xfer.c) is chosen once per call. */
#include "strategy.h"

#include <string.h>

typedef struct layout_stage {
    const lattio_layout *l;
    unsigned char *local;
} layout_stage;

static int pack_fill(void *ctx, int lane, uint64_t first, uint64_t n, unsigned char *dst)
{
    (void)lane;
    const layout_stage *x = ctx;
    return lattio_layout_pack(x->l, x->local, first, n, dst);
}

static int unpack_drain(void *ctx, int lane, uint64_t first, uint64_t n, const unsigned char *src)
{
    (void)lane;
    const layout_stage *x = ctx;
    return lattio_layout_unpack(x->l, src, first, n, x->local);
}

/* Local: the stager of the caller's buffer `local` described by l. */
static void layout_stager(lattio_stager *s, layout_stage *x, const lattio_layout *l, void *local)
{
    memset(s, 0, sizeof *s);
    x->l = l;
    x->local = local;
    s->ctx = x;
    s->fill = pack_fill;
    s->drain = unpack_drain;
    s->lanes = 1;
    const int valid = l && lattio_layout_check(l) == LATTIO_OK;
    if (valid && local && lattio_layout_is_packed(l)) s->direct = local;
    if (!local && valid && lattio_layout_local_sites(l) > 0) s->fill = NULL, s->drain = NULL;
}

static int lattice_move(lattio_file *f, const lattio_layout *l, uint64_t offset, void *local,
                        int partial, int writing)
{
    lattio_stager s;
    layout_stage x;
    layout_stager(&s, &x, l, local);
    return writing ? lattio_xfer_write(f, l, offset, partial, &s, NULL)
                   : lattio_xfer_read(f, l, offset, partial, &s, NULL);
}

/* The full and partial (boxes need not cover the lattice) variants, each
 * timed as one call. */
static uint64_t local_bytes(const lattio_layout *l, int rc)
{
    return rc == LATTIO_OK ? lattio_layout_local_sites(l) * l->site_bytes : 0;
}

static int reading_file(lattio_file *f)
{
    return f && f->mode == LATTIO_MODE_READ ? LATTIO_OK : LATTIO_FAIL(LATTIO_ERR_STATE, "not reading");
}

int lattio_lattice_write(lattio_file *f, const lattio_layout *l, uint64_t offset,
                         const void *local)
{
    lattio_prof_begin(f, LATTIO_PHASE_SETUP);
    int rc = lattio_file_outcome(f, lattice_move(f, l, offset, (void *)local, 0, 1));
    return lattio_prof_end(f, rc, local_bytes(l, rc));
}

int lattio_lattice_write_part(lattio_file *f, const lattio_layout *l, uint64_t offset,
                              const void *local)
{
    lattio_prof_begin(f, LATTIO_PHASE_SETUP);
    int rc = lattio_file_outcome(f, lattice_move(f, l, offset, (void *)local, 1, 1));
    return lattio_prof_end(f, rc, local_bytes(l, rc));
}

int lattio_lattice_read(lattio_file *f, const lattio_layout *l, uint64_t offset, void *local)
{
    lattio_prof_begin(f, LATTIO_PHASE_SETUP);
    int rc = f ? lattio_agree(f->comm, reading_file(f)) : LATTIO_ERR_ARG;
    if (rc == LATTIO_OK) rc = lattice_move(f, l, offset, local, 0, 0);
    return lattio_prof_end(f, rc, local_bytes(l, rc));
}

int lattio_lattice_read_part(lattio_file *f, const lattio_layout *l, uint64_t offset, void *local)
{
    lattio_prof_begin(f, LATTIO_PHASE_SETUP);
    int rc = f ? lattio_agree(f->comm, reading_file(f)) : LATTIO_ERR_ARG;
    if (rc == LATTIO_OK) rc = lattice_move(f, l, offset, local, 1, 0);
    return lattio_prof_end(f, rc, local_bytes(l, rc));
}
