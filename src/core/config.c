/* config.c -- the environment, read here and nowhere else.  One table
 * names every variable lattio reads, its default and its meaning; a file
 * reads the file entries when it is opened (lattio_open), the process the
 * process entries once.  Below the trace channel (status.c reads
 * LATTIO_TRACE here), so nothing here traces. */
#include "config.h"
#include "internal.h" /* lattio_parse_size; no call into status.c: it reads this file */

#include <limits.h>
#include <pthread.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum kind { SIZE, FLAG, TRISTATE, SHARING, STRATEGY, TEXT };
enum scope { FILE_SCOPE, PROCESS_SCOPE };

typedef struct entry {
    const char *name;
    enum scope scope;
    enum kind kind;
    size_t at;           /* offset in lattio_config or lattio_process_config */
    uint64_t min, max;   /* SIZE: the accepted range */
    const char *dflt, *meaning;
} entry;

#define F(m) offsetof(lattio_config, m)
#define P(m) offsetof(lattio_process_config, m)
#define GIB ((uint64_t)1 << 30)

static const entry table[] = {
    {"LATTIO_STRATEGY", FILE_SCOPE, STRATEGY, F(strategy), 0, 0, "auto",
     "strategy of lattice transfers when lattio_options.strategy is AUTO: independent, collective, "
     "aggregate, serial, mapped or auto (the measured rule)"},
    {"LATTIO_STAGING_BYTES", FILE_SCOPE, SIZE, F(staging_bytes), 1, UINT64_MAX, "strategy's own",
     "bytes of a field's staging buffer when the descriptor leaves staging_bytes 0"},
    {"LATTIO_WRITE_PIECE", FILE_SCOPE, SIZE, F(write_piece), 4096, GIB, "file system's",
     "bytes per independent write call (4096 to 2^30); default the stripe or block size on "
     "Lustre, GPFS and NFS, else 256 KiB"},
    {"LATTIO_STRIPING_UNIT", FILE_SCOPE, SIZE, F(striping_unit), 1, UINT64_MAX, "hint or file system",
     "file-domain alignment of the aggregate and serial strategies (over the striping_unit hint)"},
    {"LATTIO_ONE_WRITER_BYTES", FILE_SCOPE, SIZE, F(one_writer_bytes), 0, UINT64_MAX, "8 MiB",
     "under the measured rule, a whole-field write of at most this many bytes with every rank on "
     "one node goes through one writer (the serial strategy); 0: never"},
    {"LATTIO_CB_NODES", FILE_SCOPE, SIZE, F(cb_nodes), 1, UINT64_MAX, "hint or one per node",
     "aggregators of the aggregate strategy (over the cb_nodes hint)"},
    {"LATTIO_CB_BUFFER_SIZE", FILE_SCOPE, SIZE, F(cb_buffer_size), 1, UINT64_MAX, "hint or 16 MiB",
     "bytes per aggregator and round (over the cb_buffer_size hint; at most 1 GiB)"},
    {"LATTIO_AGG_SHARED", FILE_SCOPE, SHARING, F(agg_shared), 0, UINT64_MAX, "a node's ranks",
     "unset: the ranks of a node share the aggregators' windows; 0: nobody does; k: groups of k "
     "consecutive ranks of a node do"},
    {"LATTIO_FIELD_THREADS", FILE_SCOPE, TRISTATE, F(field_threads), 0, 0, "the rule",
     "0: fields never stage on a helper thread; 1: always (MPI_THREAD_FUNNELED needed); unset: "
     "where every rank of a node has a spare CPU"},
    {"LATTIO_WRITEBACK", FILE_SCOPE, FLAG, F(writeback), 0, 0, "1",
     "0: durable writes do not start the kernel's writeback of each piece early"},
    {"LATTIO_TRUST_COLLECTIVE", FILE_SCOPE, TRISTATE, F(trust_collective), 0, 0, "0",
     "1: collective writes under Open MPI's OMPIO are not read back and verified"},
    {"LATTIO_TRACE", PROCESS_SCOPE, FLAG, P(trace), 0, 0, "0",
     "any value but 0: trace lines on stderr (the only output lattio ever makes)"},
    {"LATTIO_H5_GUARD", PROCESS_SCOPE, FLAG, P(h5_guard), 0, 0, "1",
     "0: HDF5 input is opened without first examining it in a child process"},
    {"OMPI_MCA_io", PROCESS_SCOPE, TEXT, P(ompi_io), 0, 0, "Open MPI's",
     "Open MPI's io component selection, consulted when MPI_T cannot tell which is used"},
    {"OMPI_MCA_sharedfp", PROCESS_SCOPE, TEXT, P(ompi_sharedfp), 0, 0, "Open MPI's",
     "Open MPI's sharedfp component selection, consulted when MPI_T cannot tell"},
};
#define NTABLE (sizeof table / sizeof table[0])

/* The strategy's name as its enum lattio_strategy value (the enum lives in
 * lattio.h's MPI half; this file is MPI-free): AUTO 0 .. MAPPED 5. */
static int strategy_named(const char *s, int *out)
{
    static const char *const names[] = {"auto", "independent", "collective", "aggregate", "serial", "mapped"};
    for (int i = 0; i < (int)(sizeof names / sizeof names[0]); i++)
        if (strcmp(s, names[i]) == 0) return *out = i, 1;
    return 0;
}

/* Store e's value `s` (set, non-empty) into base; 0 when not understood
 * (the default stays). */
static int parse(const entry *e, const char *s, char *base)
{
    void *at = base + e->at;
    uint64_t v = lattio_parse_size(s);
    switch (e->kind) {
    case SIZE:
        if (v < e->min || v > e->max) return 0;
        return *(uint64_t *)at = v, 1;
    case SHARING:
        if (strcmp(s, "0") == 0) return *(uint64_t *)at = 0, 1;
        if (!v) return 0;
        return *(uint64_t *)at = v, 1;
    case FLAG:
        *(int *)at = strcmp(s, "0") != 0;
        return 1;
    case TRISTATE:
        if (strcmp(s, "0") != 0 && strcmp(s, "1") != 0) return 0;
        return *(int *)at = s[0] == '1', 1;
    case STRATEGY:
        return strategy_named(s, (int *)at);
    case TEXT:
        snprintf((char *)at, sizeof((lattio_process_config *)0)->ompi_io, "%s", s);
        return 1;
    }
    return 0;
}

static uint32_t read_scope(enum scope scope, char *base)
{
    uint32_t ignored = 0;
    for (unsigned i = 0; i < NTABLE; i++) {
        const char *s = table[i].scope == scope ? getenv(table[i].name) : NULL;
        if (s && *s && !parse(&table[i], s, base)) ignored |= 1u << i;
    }
    return ignored;
}

void lattio_config_read(lattio_config *c)
{
    memset(c, 0, sizeof *c);
    c->agg_shared = UINT64_MAX;
    c->field_threads = -1;
    c->writeback = 1;
    c->one_writer_bytes = (uint64_t)8 << 20;
    c->ignored = read_scope(FILE_SCOPE, (char *)c);
}

int lattio_config_setting(const lattio_config *c, unsigned i, char *out, size_t size)
{
    const char *v = i < NTABLE && table[i].scope == FILE_SCOPE ? getenv(table[i].name) : NULL;
    if (!v || !*v) return 0;
    snprintf(out, size, "%s=%s%s", table[i].name, v, c->ignored & (1u << i) ? " ignored (see lattio.h)" : "");
    return 1;
}

uint64_t lattio_parse_size(const char *s)
{
    if (!s || *s < '0' || *s > '9') return 0;
    char *end = NULL;
    const unsigned long long v = strtoull(s, &end, 10);
    return end && *end == '\0' && v != ULLONG_MAX ? (uint64_t)v : 0;
}

static lattio_process_config process;
static pthread_once_t process_once = PTHREAD_ONCE_INIT;

static void read_process(void)
{
    process.h5_guard = 1;
    (void)read_scope(PROCESS_SCOPE, (char *)&process);
}

const lattio_process_config *lattio_process_config_get(void)
{
    pthread_once(&process_once, read_process);
    return &process;
}

const char *lattio_config_name(unsigned i, const char **dflt, const char **meaning)
{
    if (i >= NTABLE) return NULL;
    if (dflt) *dflt = table[i].dflt;
    if (meaning) *meaning = table[i].meaning;
    return table[i].name;
}
