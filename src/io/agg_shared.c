/* agg_shared.c -- the aggregators' window buffers (agg_shared.h). */
#include "agg_shared.h"

#include <stdlib.h>

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

/* Local.  grank[q] for every rank q of f: its rank in sh->group, else
 * MPI_UNDEFINED (this rank: 0 when it has no group). */
static int find_ranks(lattio_file *f, agg_shared *sh)
{
    int n = f->size, rc = LATTIO_OK;
    sh->grank = lattio_malloc((size_t)n * sizeof *sh->grank);
    int *all_ranks = lattio_malloc((size_t)n * sizeof(int));
    if (!sh->grank || !all_ranks) rc = LATTIO_FAIL(LATTIO_ERR_NOMEM, "ranks");
    for (int q = 0; rc == LATTIO_OK && q < n; q++) sh->grank[q] = q == f->rank ? 0 : MPI_UNDEFINED;
    if (rc == LATTIO_OK && sh->group != MPI_COMM_NULL) {
        MPI_Group all, mine;
        for (int q = 0; q < n; q++) all_ranks[q] = q;
        rc = MPI_CHECK(MPI_Comm_group(f->comm, &all), LATTIO_ERR_MPI);
        if (rc == LATTIO_OK) {
            rc = MPI_CHECK(MPI_Comm_group(sh->group, &mine), LATTIO_ERR_MPI);
            if (rc == LATTIO_OK) {
                rc = MPI_CHECK(MPI_Group_translate_ranks(all, n, all_ranks, mine, sh->grank), LATTIO_ERR_MPI);
                MPI_Group_free(&mine);
            }
            MPI_Group_free(&all);
        }
    }
    lattio_free(all_ranks);
    return rc;
}

/* Collective over the group.  The shared window: 2 buffers of this rank's
 * longest window when it is an aggregator, nothing otherwise. */
static int allocate(const agg_plan *p, int me, agg_shared *sh)
{
    MPI_Info info = MPI_INFO_NULL;
    void *base = NULL;
    MPI_Aint bytes = me >= 0 ? (MPI_Aint)(2 * lattio_agg_window_need(p, me)) : 0;
    if (MPI_Info_create(&info) == MPI_SUCCESS) MPI_Info_set(info, "alloc_shared_noncontig", "true");
    int rc = MPI_CHECK(MPI_Win_allocate_shared(bytes, 1, info, sh->group, &base, &sh->win), LATTIO_ERR_MPI);
    if (info != MPI_INFO_NULL) MPI_Info_free(&info);
    RETURN_IF_ERROR(rc);
    return MPI_CHECK(MPI_Win_lock_all(MPI_MODE_NOCHECK, sh->win), LATTIO_ERR_MPI);
}

/* Local.  Where every aggregator's buffers are, when this rank reaches them. */
static int locate(const agg_plan *p, int me, agg_shared *sh)
{
    sh->at = lattio_calloc((size_t)p->naggs, sizeof *sh->at);
    sh->half = lattio_calloc((size_t)p->naggs, sizeof *sh->half);
    RETURN_IF(!sh->at || !sh->half, LATTIO_ERR_NOMEM);
    for (int a = 0; a < p->naggs; a++) {
        int g = sh->grank[lattio_agg_rank(p, a)];
        sh->half[a] = lattio_agg_window_need(p, a);
        if (a == me && sh->win == MPI_WIN_NULL) sh->at[a] = sh->own;
        if (g == MPI_UNDEFINED || sh->win == MPI_WIN_NULL) continue;
        MPI_Aint size = 0;
        int unit = 0;
        void *ptr = NULL;
        RETURN_IF_ERROR(MPI_CHECK(MPI_Win_shared_query(sh->win, g, &size, &unit, &ptr), LATTIO_ERR_MPI));
        RETURN_IF((uint64_t)size < 2 * sh->half[a], LATTIO_ERR_MPI); /* shared window too small */
        sh->at[a] = ptr;
    }
    return LATTIO_OK;
}

int lattio_agg_shared_open(lattio_file *f, const agg_plan *p, uint64_t group, int me, agg_shared *sh)
{
    *sh = (agg_shared){.group = MPI_COMM_NULL, .win = MPI_WIN_NULL, .nbuf = 1};
    int rc = make_group(f, group, &sh->group);
    RETURN_IF_ERROR(lattio_agree(f->comm, rc)); /* the group is used collectively next */
    int peers = 1;
    if (sh->group != MPI_COMM_NULL) MPI_Comm_size(sh->group, &peers);
    if (peers > 1) {
        sh->nbuf = 2;
        rc = allocate(p, me, sh);
    } else if (me >= 0) {
        uint64_t need = lattio_agg_window_need(p, me);
        sh->own = need ? lattio_malloc((size_t)need) : NULL;
        rc = need && !sh->own ? LATTIO_FAIL(LATTIO_ERR_NOMEM, "window") : LATTIO_OK;
    }
    /* groups may differ in size (some ranks alone): every rank agrees here */
    RETURN_IF_ERROR(lattio_agree(f->comm, rc));
    RETURN_IF_ERROR(find_ranks(f, sh));
    return locate(p, me, sh);
}

void lattio_agg_shared_close(agg_shared *sh)
{
    if (sh->win != MPI_WIN_NULL) {
        MPI_Win_unlock_all(sh->win);
        MPI_Win_free(&sh->win);
    }
    if (sh->group != MPI_COMM_NULL) MPI_Comm_free(&sh->group);
    lattio_free(sh->own);
    lattio_free(sh->at);
    lattio_free(sh->half);
    lattio_free(sh->grank);
    *sh = (agg_shared){.group = MPI_COMM_NULL, .win = MPI_WIN_NULL, .nbuf = 1};
}

unsigned char *lattio_agg_shared_buf(const agg_shared *sh, int a, uint64_t r)
{
    return sh->at[a] ? sh->at[a] + (r % (uint64_t)sh->nbuf) * sh->half[a] : NULL;
}

void lattio_agg_shared_sync(const agg_shared *sh)
{
    if (sh->win != MPI_WIN_NULL) MPI_Win_sync(sh->win);
}
