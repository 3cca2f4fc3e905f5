/* agg_shared.c -- the aggregators' window buffers (agg_shared.h). */
#include "agg_shared.h"

#include <stdlib.h>

/* What a file keeps between aggregate calls (f->strategy_cache). */
struct lattio_agg_cache {
    uint64_t key;        /* the group size it was made for */
    MPI_Comm group;      /* this rank's sharing group, MPI_COMM_NULL: alone */
    int peers;           /* ranks in the group, 1 when alone */
    int *grank;          /* per rank of f: its rank in the group, else MPI_UNDEFINED */
    MPI_Win win;         /* MPI_WIN_NULL: none made yet */
    unsigned char **seg; /* per group rank: its segment of win */
    uint64_t *cap;       /* per group rank: that segment's bytes (0 without win) */
    unsigned char *own;  /* the private buffer of an aggregator alone */
    uint64_t own_cap;
};

/* Collective over the group. */
static void free_window(struct lattio_agg_cache *c)
{
    if (c->win != MPI_WIN_NULL) {
        MPI_Win_unlock_all(c->win);
        MPI_Win_free(&c->win);
    }
    c->win = MPI_WIN_NULL;
    for (int g = 0; g < c->peers; g++) c->seg[g] = NULL, c->cap[g] = 0;
}

void lattio_agg_cache_free(lattio_file *f)
{
    struct lattio_agg_cache *c = f->strategy_cache;
    if (!c) return;
    if (c->seg && c->cap) free_window(c);
    if (c->group != MPI_COMM_NULL) MPI_Comm_free(&c->group);
    lattio_free(c->grank);
    lattio_free(c->seg);
    lattio_free(c->cap);
    lattio_free(c->own);
    lattio_free(c);
    f->strategy_cache = NULL;
    f->strategy_release = NULL;
}

/* Collective.  This rank's sharing group: the ranks of its node, cut into
 * groups of `group` consecutive node ranks; MPI_COMM_NULL when alone. */
static int make_group(lattio_file *f, uint64_t group, MPI_Comm *out)
{
    MPI_Comm node = MPI_COMM_NULL;
    int me = 0;
    *out = MPI_COMM_NULL;
    if (group == 0 || f->size == 1) return LATTIO_OK; /* equal on every rank */
    RETURN_IF_ERROR(MPI_CHECK(MPI_Comm_split_type(f->comm, MPI_COMM_TYPE_SHARED, f->rank, MPI_INFO_NULL, &node),
                              LATTIO_ERR_MPI));
    MPI_Comm_rank(node, &me);
    if (group == UINT64_MAX) {
        *out = node;
        return LATTIO_OK;
    }
    int rc = MPI_CHECK(MPI_Comm_split(node, (int)((uint64_t)me / group), me, out), LATTIO_ERR_MPI);
    MPI_Comm_free(&node);
    return rc;
}

/* Local.  c->grank[q] for every rank q of f: its rank in c->group, else
 * MPI_UNDEFINED (this rank: 0 when it has no group). */
static int find_ranks(lattio_file *f, struct lattio_agg_cache *c)
{
    int n = f->size, rc = LATTIO_OK;
    c->grank = lattio_malloc((size_t)n * sizeof *c->grank);
    int *all_ranks = lattio_malloc((size_t)n * sizeof(int));
    if (!c->grank || !all_ranks) rc = LATTIO_FAIL(LATTIO_ERR_NOMEM, "ranks");
    for (int q = 0; rc == LATTIO_OK && q < n; q++) c->grank[q] = q == f->rank ? 0 : MPI_UNDEFINED;
    if (rc == LATTIO_OK && c->group != MPI_COMM_NULL) {
        MPI_Group all, mine;
        for (int q = 0; q < n; q++) all_ranks[q] = q;
        rc = MPI_CHECK(MPI_Comm_group(f->comm, &all), LATTIO_ERR_MPI);
        if (rc == LATTIO_OK) {
            rc = MPI_CHECK(MPI_Comm_group(c->group, &mine), LATTIO_ERR_MPI);
            if (rc == LATTIO_OK) {
                rc = MPI_CHECK(MPI_Group_translate_ranks(all, n, all_ranks, mine, c->grank), LATTIO_ERR_MPI);
                MPI_Group_free(&mine);
            }
            MPI_Group_free(&all);
        }
    }
    lattio_free(all_ranks);
    return rc;
}

/* Collective.  The file's cache for groups of `group` ranks (agreed). */
static int new_cache(lattio_file *f, uint64_t group, struct lattio_agg_cache **out)
{
    struct lattio_agg_cache *c = lattio_calloc(1, sizeof *c);
    int rc = c ? LATTIO_OK : LATTIO_FAIL(LATTIO_ERR_NOMEM, "aggregate cache");
    RETURN_IF_ERROR(lattio_agree(f->comm, rc));
    *c = (struct lattio_agg_cache){.key = group, .group = MPI_COMM_NULL, .peers = 1, .win = MPI_WIN_NULL};
    f->strategy_cache = c;
    f->strategy_release = lattio_agg_cache_free;
    rc = make_group(f, group, &c->group);
    if (rc == LATTIO_OK && c->group != MPI_COMM_NULL) MPI_Comm_size(c->group, &c->peers);
    if (rc == LATTIO_OK) {
        c->seg = lattio_calloc((size_t)c->peers, sizeof *c->seg);
        c->cap = lattio_calloc((size_t)c->peers, sizeof *c->cap);
        if (!c->seg || !c->cap) rc = LATTIO_FAIL(LATTIO_ERR_NOMEM, "aggregate cache");
    }
    if (rc == LATTIO_OK) rc = find_ranks(f, c);
    rc = lattio_agree(f->comm, rc);
    if (rc == LATTIO_OK) *out = c;
    else lattio_agg_cache_free(f);
    return rc;
}

/* Local.  The window holds two buffers of every aggregator of this rank's
 * group (the same answer on every rank of the group). */
static int window_fits(const struct lattio_agg_cache *c, const agg_plan *p)
{
    for (int a = 0; a < p->naggs; a++) {
        const int g = c->grank[lattio_agg_rank(p, a)];
        if (g != MPI_UNDEFINED && 2 * lattio_agg_window_need(p, a) > c->cap[g]) return 0;
    }
    return 1;
}

/* Collective over the group.  A new shared window: 2 buffers of this
 * rank's longest window when it is an aggregator, nothing otherwise; every
 * group rank's segment located. */
static int make_window(struct lattio_agg_cache *c, const agg_plan *p, int me)
{
    MPI_Info info = MPI_INFO_NULL;
    void *base = NULL;
    free_window(c);
    MPI_Aint bytes = me >= 0 ? (MPI_Aint)(2 * lattio_agg_window_need(p, me)) : 0;
    if (MPI_Info_create(&info) == MPI_SUCCESS) MPI_Info_set(info, "alloc_shared_noncontig", "true");
    int rc = MPI_CHECK(MPI_Win_allocate_shared(bytes, 1, info, c->group, &base, &c->win), LATTIO_ERR_MPI);
    if (info != MPI_INFO_NULL) MPI_Info_free(&info);
    if (rc != LATTIO_OK) c->win = MPI_WIN_NULL;
    RETURN_IF_ERROR(rc);
    RETURN_IF_ERROR(MPI_CHECK(MPI_Win_lock_all(MPI_MODE_NOCHECK, c->win), LATTIO_ERR_MPI));
    for (int g = 0; g < c->peers; g++) {
        MPI_Aint size = 0;
        int unit = 0;
        void *ptr = NULL;
        RETURN_IF_ERROR(MPI_CHECK(MPI_Win_shared_query(c->win, g, &size, &unit, &ptr), LATTIO_ERR_MPI));
        c->seg[g] = ptr;
        c->cap[g] = (uint64_t)size;
    }
    return LATTIO_OK;
}

/* Local.  The private buffer of an aggregator without peers. */
static int own_buffer(struct lattio_agg_cache *c, uint64_t need)
{
    if (need <= c->own_cap) return LATTIO_OK;
    lattio_free(c->own);
    c->own_cap = 0;
    c->own = lattio_malloc((size_t)need);
    RETURN_IF(!c->own, LATTIO_ERR_NOMEM);
    c->own_cap = need;
    return LATTIO_OK;
}

/* Local.  Where every aggregator's buffers are, when this rank reaches them. */
static int locate(const struct lattio_agg_cache *c, const agg_plan *p, int me, agg_shared *sh)
{
    sh->at = lattio_calloc((size_t)p->naggs, sizeof *sh->at);
    sh->half = lattio_calloc((size_t)p->naggs, sizeof *sh->half);
    RETURN_IF(!sh->at || !sh->half, LATTIO_ERR_NOMEM);
    for (int a = 0; a < p->naggs; a++) {
        const int g = c->grank[lattio_agg_rank(p, a)];
        sh->half[a] = lattio_agg_window_need(p, a);
        if (a == me && c->peers == 1) sh->at[a] = c->own;
        if (g == MPI_UNDEFINED || c->peers == 1) continue;
        RETURN_IF(c->cap[g] < 2 * sh->half[a], LATTIO_ERR_MPI); /* shared window too small */
        sh->at[a] = c->seg[g];
    }
    return LATTIO_OK;
}

int lattio_agg_shared_open(lattio_file *f, const agg_plan *p, uint64_t group, int me, agg_shared *sh)
{
    *sh = (agg_shared){.win = MPI_WIN_NULL, .nbuf = 1};
    struct lattio_agg_cache *c = f->strategy_cache;
    if (c && c->key != group) lattio_agg_cache_free(f), c = NULL; /* equal on every rank */
    if (!c) RETURN_IF_ERROR(new_cache(f, group, &c));
    int rc = LATTIO_OK;
    if (c->peers > 1 && !window_fits(c, p)) rc = make_window(c, p, me); /* alike in the group */
    else if (c->peers == 1 && me >= 0) rc = own_buffer(c, lattio_agg_window_need(p, me));
    /* groups may differ in size (some ranks alone): every rank agrees here */
    rc = lattio_agree(f->comm, rc);
    if (rc == LATTIO_OK) rc = lattio_agree(f->comm, locate(c, p, me, sh));
    if (rc != LATTIO_OK) {
        lattio_agg_shared_close(sh);
        lattio_agg_cache_free(f);
        return rc;
    }
    sh->win = c->win;
    sh->grank = c->grank;
    sh->nbuf = c->peers > 1 ? 2 : 1;
    return LATTIO_OK;
}

void lattio_agg_shared_close(agg_shared *sh)
{
    lattio_free(sh->at);
    lattio_free(sh->half);
    *sh = (agg_shared){.win = MPI_WIN_NULL, .nbuf = 1};
}

unsigned char *lattio_agg_shared_buf(const agg_shared *sh, int a, uint64_t r)
{
    return sh->at[a] ? sh->at[a] + (r % (uint64_t)sh->nbuf) * sh->half[a] : NULL;
}

void lattio_agg_shared_sync(const agg_shared *sh)
{
    if (sh->win != MPI_WIN_NULL) MPI_Win_sync(sh->win);
}
