/* args.c -- the arguments of a collective call that every rank must pass
 * alike, compared before the call does anything: each argument hashed
 * (FNV-1a 64), rank 0's hashes broadcast, and the first argument that
 * differs on any rank named on every rank (ERR_RANK_ARG).  One broadcast
 * and one reduction per call. */
#include "io_internal.h"
#include "xfer.h"

#include <string.h>

static uint64_t fnv(uint64_t h, const void *p, size_t n)
{
    const unsigned char *c = p;
    for (size_t i = 0; i < n; i++) h = (h ^ c[i]) * UINT64_C(1099511628211);
    return h;
}

static void add(lattio_args *a, const char *name, uint64_t h)
{
    if (a->n >= LATTIO_ARGS_MAX) return;
    a->name[a->n] = name;
    a->hash[a->n++] = h;
}

void lattio_args_str(lattio_args *a, const char *name, const char *s)
{
    const uint64_t h = UINT64_C(1469598103934665603);
    add(a, name, s ? fnv(fnv(h, "s", 1), s, strlen(s)) : fnv(h, "n", 1)); /* NULL differs from "" */
}

void lattio_args_int(lattio_args *a, const char *name, int64_t v)
{
    add(a, name, fnv(UINT64_C(1469598103934665603), &v, sizeof v));
}

/* Every other writer's record, type and text, in one hash (none: the count alone). */
static uint64_t other_hash(const lattio_field_desc *d)
{
    const int n = d->n_other;
    uint64_t h = fnv(UINT64_C(1469598103934665603), &n, sizeof n);
    for (int i = 0; d->other && i < n && i < LATTIO_OTHER_RECORDS_MAX; i++) {
        const char *t = d->other[i].type, *x = d->other[i].text;
        h = t ? fnv(fnv(h, "t", 1), t, strlen(t) + 1) : fnv(h, "n", 1);
        h = x ? fnv(fnv(h, "x", 1), x, strlen(x) + 1) : fnv(h, "n", 1);
    }
    return h;
}

void lattio_args_desc(lattio_args *a, const lattio_field_desc *d, int writing)
{
    lattio_args_int(a, "field descriptor given", d != NULL);
    if (!d) return;
    lattio_args_int(a, "field kind", d->kind);
    lattio_args_int(a, "memory format (dtype)", d->mem_format);
    lattio_args_int(a, "reals per site", (int64_t)d->elements);
    if (!writing) {
        lattio_args_int(a, "skip_checksum", d->skip_checksum);
        lattio_args_int(a, "require_checksum", d->require_checksum);
        return;
    }
    lattio_args_int(a, "disk format (precision)", d->disk_format);
    lattio_args_int(a, "datacount", (int64_t)d->datacount);
    lattio_args_str(a, "datatype", d->datatype);
    lattio_args_int(a, "colors", d->colors);
    lattio_args_int(a, "spins", d->spins);
    lattio_args_str(a, "lfn", d->lfn);
    lattio_args_str(a, "file_xml", d->file_xml);
    lattio_args_str(a, "record_xml", d->record_xml);
    lattio_args_str(a, "date", d->date);
    lattio_args_int(a, "verify", d->verify);
    lattio_args_int(a, "verify_retries", d->verify_retries);
    add(a, "other writers' records", other_hash(d));
}

int lattio_args_agree(MPI_Comm comm, const lattio_args *a)
{
    uint64_t root[LATTIO_ARGS_MAX + 1];
    memcpy(root, a->hash, sizeof a->hash);
    root[LATTIO_ARGS_MAX] = (uint64_t)a->n;
    RETURN_IF_ERROR(lattio_mpi_status(MPI_Bcast(root, LATTIO_ARGS_MAX + 1, MPI_UINT64_T, 0, comm), LATTIO_ERR_MPI,
                                      "arguments"));
    int first = LATTIO_ARGS_MAX; /* the first argument differing from rank 0's here */
    for (int i = 0; i < a->n && first == LATTIO_ARGS_MAX; i++)
        if (i >= (int)root[LATTIO_ARGS_MAX] || root[i] != a->hash[i]) first = i;
    if (first == LATTIO_ARGS_MAX && (uint64_t)a->n < root[LATTIO_ARGS_MAX]) first = a->n;
    int any = first;
    RETURN_IF_ERROR(lattio_mpi_status(MPI_Allreduce(&first, &any, 1, MPI_INT, MPI_MIN, comm), LATTIO_ERR_MPI,
                                      "arguments"));
    if (any >= LATTIO_ARGS_MAX) return LATTIO_OK;
    lattio_detail_set("argument '%s' differs between ranks", any < a->n ? a->name[any] : "(one rank passes fewer)");
    return LATTIO_FAIL(LATTIO_ERR_RANK_ARG, "arguments differ");
}
