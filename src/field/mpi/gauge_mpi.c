/* gauge_mpi.c -- plaquette, link trace and unitarity of a distributed 4-D
 * SU(N) gauge field (8 N^2 doubles per site).  A plaquette at x needs U_nu(x + mu) and U_mu(x + nu):
 * one step up in a single direction, never diagonal.  So each rank needs,
 * beyond its box, the four upper faces (the slice just past the box in
 * each direction, periodic).  The ranks exchange their boxes
 * (MPI_Allgather); every rank then knows which part of every other rank's
 * faces it owns (the intersection of two boxes) and sends exactly that in
 * one MPI_Alltoallv, while each receiver computes the same intersections to
 * know where the sites go.  Works for any box decomposition that tiles the
 * lattice, with halos and any memory order. */
#include "field/field_internal.h"
#include "field_mpi.h" /* the MPI layer through its door, io/xfer.h */

#include <limits.h>
#include <string.h>

/* doubles per site: 4 links of N x N complex numbers (8 N^2) */
#define SITE_DOUBLES(l) ((l)->site_bytes / sizeof(double))

typedef struct box {
    uint64_t lo[4], n[4];
} box;

static uint64_t box_sites(const box *b)
{
    return b->n[0] * b->n[1] * b->n[2] * b->n[3];
}

/* a and b intersected; an empty box (all n 0) when they do not meet. */
static box intersect(const box *a, const box *b)
{
    box c;
    for (int d = 0; d < 4; d++) {
        const uint64_t lo = a->lo[d] > b->lo[d] ? a->lo[d] : b->lo[d];
        const uint64_t ea = a->lo[d] + a->n[d], eb = b->lo[d] + b->n[d];
        const uint64_t hi = ea < eb ? ea : eb;
        if (hi <= lo) {
            memset(&c, 0, sizeof c);
            return c;
        }
        c.lo[d] = lo;
        c.n[d] = hi - lo;
    }
    return c;
}

/* The slice just above b in lattice dim `dim` (periodic); empty for an
 * empty box. */
static box upper_face(const box *b, int dim, const uint64_t *global)
{
    box f = *b;
    if (box_sites(b) == 0) return f;
    f.lo[dim] = (b->lo[dim] + b->n[dim]) % global[dim];
    f.n[dim] = 1;
    return f;
}

/* Index of global coordinate c within box b (dim 0 fastest). */
static uint64_t index_in(const box *b, const uint64_t *c)
{
    uint64_t i = 0;
    for (int d = 3; d >= 0; d--) i = i * b->n[d] + (c[d] - b->lo[d]);
    return i;
}

/* Next coordinate of box b (dim 0 fastest); 0 after the last. */
static int next_coord(const box *b, uint64_t *c)
{
    for (int d = 0; d < 4; d++) {
        if (++c[d] < b->lo[d] + b->n[d]) return 1;
        c[d] = b->lo[d];
    }
    return 0;
}

/* The site with global coordinates c in the caller's buffer. */
static const double *site_at(const lattio_layout *l, const double *local, const uint64_t *c)
{
    uint64_t pos = 0;
    for (int m = 0; m < 4; m++) {
        const int d = l->mem_order[m];
        const uint64_t ext = l->count[d] + l->halo_lo[d] + l->halo_hi[d];
        pos = pos * ext + (c[d] - l->lo[d]) + l->halo_lo[d];
    }
    return local + pos * SITE_DOUBLES(l);
}

/* --- the exchange --------------------------------------------------------- */

typedef struct exchange {
    int size, rank;
    box *boxes;            /* every rank's box */
    int *scount, *sdispl;  /* in sites */
    int *rcount, *rdispl;
    double *sbuf, *rbuf;
    double *face[4];       /* my upper face in lattice dim d, index_in order */
    box fbox[4];
    size_t site;           /* doubles per site */
} exchange;

/* Sites I send to rank r (send) or receive from it, over the four faces. */
static uint64_t pair_sites(const exchange *x, const uint64_t *global, int r, int send)
{
    uint64_t n = 0;
    const box *needer = send ? &x->boxes[r] : &x->boxes[x->rank];
    const box *owner = send ? &x->boxes[x->rank] : &x->boxes[r];
    for (int d = 0; d < 4; d++) {
        const box f = upper_face(needer, d, global);
        const box c = intersect(&f, owner);
        n += box_sites(&c);
    }
    return n;
}

static int counts(exchange *x, const uint64_t *global)
{
    uint64_t soff = 0, roff = 0;
    for (int r = 0; r < x->size; r++) {
        const uint64_t s = pair_sites(x, global, r, 1), v = pair_sites(x, global, r, 0);
        RETURN_IF(soff + s > INT_MAX || roff + v > INT_MAX, LATTIO_ERR_OVERFLOW);
        x->scount[r] = (int)s;
        x->sdispl[r] = (int)soff;
        x->rcount[r] = (int)v;
        x->rdispl[r] = (int)roff;
        soff += s;
        roff += v;
    }
    x->sbuf = lattio_malloc((size_t)(soff ? soff : 1) * x->site * sizeof(double));
    x->rbuf = lattio_malloc((size_t)(roff ? roff : 1) * x->site * sizeof(double));
    RETURN_IF(!x->sbuf || !x->rbuf, LATTIO_ERR_NOMEM);
    return LATTIO_OK;
}

/* Pack, for every rank and face, my part of it (index_in order of the
 * intersection box). */
static void pack(exchange *x, const lattio_layout *l, const double *local)
{
    double *p = x->sbuf;
    for (int r = 0; r < x->size; r++)
        for (int d = 0; d < 4; d++) {
            const box f = upper_face(&x->boxes[r], d, l->global);
            const box c = intersect(&f, &x->boxes[x->rank]);
            if (box_sites(&c) == 0) continue;
            uint64_t co[4];
            memcpy(co, c.lo, sizeof co);
            do {
                memcpy(p, site_at(l, local, co), x->site * sizeof(double));
                p += x->site;
            } while (next_coord(&c, co));
        }
}

/* Place what every rank sent into my four faces. */
static void unpack(exchange *x)
{
    const double *p = x->rbuf;
    for (int r = 0; r < x->size; r++)
        for (int d = 0; d < 4; d++) {
            const box c = intersect(&x->fbox[d], &x->boxes[r]);
            if (box_sites(&c) == 0) continue;
            uint64_t co[4];
            memcpy(co, c.lo, sizeof co);
            do {
                memcpy(x->face[d] + index_in(&x->fbox[d], co) * x->site, p,
                       x->site * sizeof(double));
                p += x->site;
            } while (next_coord(&c, co));
        }
}

static void exchange_free(exchange *x)
{
    lattio_free(x->boxes);
    lattio_free(x->scount);
    lattio_free(x->sdispl);
    lattio_free(x->rcount);
    lattio_free(x->rdispl);
    lattio_free(x->sbuf);
    lattio_free(x->rbuf);
    for (int d = 0; d < 4; d++) lattio_free(x->face[d]);
}

static int alloc_exchange(exchange *x, const lattio_layout *l)
{
    const size_t n = (size_t)x->size;
    x->boxes = lattio_malloc(n * sizeof *x->boxes);
    x->scount = lattio_malloc(n * sizeof(int));
    x->sdispl = lattio_malloc(n * sizeof(int));
    x->rcount = lattio_malloc(n * sizeof(int));
    x->rdispl = lattio_malloc(n * sizeof(int));
    RETURN_IF(!x->boxes || !x->scount || !x->sdispl || !x->rcount || !x->rdispl, LATTIO_ERR_NOMEM);
    box mine;
    memcpy(mine.lo, l->lo, sizeof mine.lo);
    memcpy(mine.n, l->count, sizeof mine.n);
    if (box_sites(&mine) == 0) memset(&mine, 0, sizeof mine);
    for (int d = 0; d < 4; d++) {
        x->fbox[d] = upper_face(&mine, d, l->global);
        const uint64_t s = box_sites(&x->fbox[d]);
        x->face[d] = lattio_malloc((size_t)(s ? s : 1) * SITE_DOUBLES(l) * sizeof(double));
        RETURN_IF(!x->face[d], LATTIO_ERR_NOMEM);
    }
    x->boxes[x->rank] = mine;
    return LATTIO_OK;
}

/* Collective: the boxes, a tiling check and the faces' contents. */
static int fetch_faces(MPI_Comm comm, exchange *x, const lattio_layout *l, const double *local)
{
    RETURN_IF_ERROR(lattio_agree(comm, alloc_exchange(x, l)));
    RETURN_IF_ERROR(lattio_xfer_mpi(MPI_Allgather(MPI_IN_PLACE, 0, MPI_DATATYPE_NULL, x->boxes,
                                            (int)sizeof(box), MPI_BYTE, comm), "MPI_Allgather"));
    uint64_t total = 0;
    for (int r = 0; r < x->size; r++) total += box_sites(&x->boxes[r]);
    RETURN_IF(total != lattio_layout_global_sites(l), LATTIO_ERR_LAYOUT);
    /* the sites add up; disjoint boxes then tile the lattice (a box is the
     * core's lo[4] then count[4]) */
    _Static_assert(sizeof(box) == 8 * sizeof(uint64_t), "box is lo[4], n[4]");
    const int overlap = lattio_box_overlaps((const uint64_t *)x->boxes, (size_t)x->size, 4,
                                            (size_t)x->rank);
    RETURN_IF_ERROR(lattio_agree(comm, overlap ? LATTIO_FAIL(LATTIO_ERR_LAYOUT, "boxes overlap")
                                               : LATTIO_OK));
    RETURN_IF_ERROR(lattio_agree(comm, counts(x, l->global)));
    pack(x, l, local);
    MPI_Datatype site;
    RETURN_IF_ERROR(lattio_xfer_mpi(MPI_Type_contiguous(x->site, MPI_DOUBLE, &site), "MPI_Type_contiguous"));
    MPI_Type_commit(&site);
    const int rc = lattio_xfer_mpi(MPI_Alltoallv(x->sbuf, x->scount, x->sdispl, site, x->rbuf, x->rcount,
                                           x->rdispl, site, comm), "MPI_Alltoallv");
    MPI_Type_free(&site);
    RETURN_IF_ERROR(rc);
    unpack(x);
    return LATTIO_OK;
}

/* --- the sums --------------------------------------------------------------- */

typedef struct field_view {
    const lattio_layout *l;
    const double *local;
    const exchange *x;
    int dim[4]; /* lattice dim of direction mu */
    int colors; /* N */
} field_view;

/* The site one step up in lattice dim d from c (in the box or its face). */
static const double *up(const field_view *v, const uint64_t *c, int d)
{
    const lattio_layout *l = v->l;
    if (c[d] + 1 < l->lo[d] + l->count[d]) {
        uint64_t n[4];
        memcpy(n, c, sizeof n);
        n[d]++;
        return site_at(l, v->local, n);
    }
    uint64_t f[4];
    memcpy(f, c, sizeof f);
    f[d] = v->x->fbox[d].lo[d];
    return v->x->face[d] + index_in(&v->x->fbox[d], f) * v->x->site;
}

static double site_plaquettes(const field_view *v, const uint64_t *c)
{
    const double *here = site_at(v->l, v->local, c);
    const int n = v->colors, m = 2 * n * n;
    double sum = 0;
    for (int mu = 0; mu < 4; mu++)
        for (int nu = mu + 1; nu < 4; nu++)
            sum += lattio_sun_plaquette(here + mu * m, up(v, c, v->dim[mu]) + nu * m,
                                        up(v, c, v->dim[nu]) + mu * m, here + nu * m, n);
    return sum;
}

/* Local sums: plaquettes, traces, worst deviation. */
static void local_sums(const field_view *v, double sums[2], double *worst)
{
    const lattio_layout *l = v->l;
    box mine;
    memcpy(mine.lo, l->lo, sizeof mine.lo);
    memcpy(mine.n, l->count, sizeof mine.n);
    sums[0] = sums[1] = 0;
    *worst = 0;
    if (box_sites(&mine) == 0) return;
    uint64_t c[4];
    memcpy(c, mine.lo, sizeof c);
    do {
        sums[0] += site_plaquettes(v, c);
        const double *here = site_at(l, v->local, c);
        for (int mu = 0; mu < 4; mu++) {
            double t, dev;
            lattio_sun_link(here + mu * 2 * v->colors * v->colors, v->colors, &t, &dev);
            sums[1] += t;
            if (dev > *worst) *worst = dev;
        }
    } while (next_coord(&mine, c));
}

/* N of a layout of 8 N^2 doubles per site (four N x N links); 0 for any other size. */
static int colors_of(const lattio_layout *l)
{
    const size_t link = 4 * sizeof(double);
    return l->site_bytes % link ? 0 : lattio_gauge_colors_of(l->site_bytes / link);
}

static int check_args(const lattio_layout *l, const double *local, const lattio_gauge_stats *out)
{
    RETURN_IF(!l || !out, LATTIO_ERR_ARG);
    RETURN_IF_ERROR(lattio_layout_check(l));
    RETURN_IF(l->ndims != 4 || colors_of(l) == 0, LATTIO_ERR_LAYOUT);
    RETURN_IF(!local && lattio_layout_local_sites(l) > 0, LATTIO_ERR_ARG);
    return LATTIO_OK;
}

int lattio_gauge_stats_mpi(MPI_Comm comm, const lattio_layout *l, const double *local,
                           lattio_gauge_stats *out)
{
    RETURN_IF(comm == MPI_COMM_NULL, LATTIO_ERR_ARG);
    exchange x;
    memset(&x, 0, sizeof x);
    MPI_Comm_size(comm, &x.size);
    MPI_Comm_rank(comm, &x.rank);
    RETURN_IF_ERROR(lattio_agree(comm, check_args(l, local, out)));
    x.site = SITE_DOUBLES(l);
    int rc = fetch_faces(comm, &x, l, local);
    double sums[3] = {0, 0, 0}, worst = 0;
    if (rc == LATTIO_OK) {
        field_view v = {l, local, &x, {l->file_order[3], l->file_order[2], l->file_order[1],
                                       l->file_order[0]}, colors_of(l)};
        local_sums(&v, sums, &worst);
        rc = lattio_xfer_mpi(MPI_Allreduce(MPI_IN_PLACE, sums, 2, MPI_DOUBLE, MPI_SUM, comm), "MPI_Allreduce");
    }
    if (rc == LATTIO_OK)
        rc = lattio_xfer_mpi(MPI_Allreduce(MPI_IN_PLACE, &worst, 1, MPI_DOUBLE, MPI_MAX, comm), "MPI_Allreduce");
    exchange_free(&x);
    RETURN_IF_ERROR(lattio_agree(comm, rc));
    const double vol = (double)lattio_layout_global_sites(l);
    const double n = colors_of(l);
    out->plaquette = sums[0] / (n * 6.0 * vol);
    out->link_trace = sums[1] / (n * 4.0 * vol);
    out->unitarity = worst;
    return LATTIO_OK;
}
