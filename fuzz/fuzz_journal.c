/* fuzz_journal.c -- libFuzzer target for the journal of a volume set's
 * publication (src/volumes/publish.c): the input is written as
 * fzj/set.lattio-publish (fzj: a directory of the working directory, so a
 * seed's relative names are the set's) beside a volume, a temporary of
 * another and a file outside the set, and lattio_volumes_recover carries it
 * out.  Invariants: a known status; a journal that is carried out is gone;
 * nothing outside the set is touched. */
#include <mpi.h> /* links the upper layer (the publication lives in the field layer) */

#include "fuzz_input.h"
#include "lattio.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <sys/stat.h>

#define JDIR "fzj"

static int put(const char *name, const void *data, size_t n)
{
    char path[128];
    snprintf(path, sizeof path, JDIR "/%s", name);
    const int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0600);
    if (fd < 0) return -1;
    const int ok = n == 0 || write(fd, data, n) == (ssize_t)n;
    close(fd);
    return ok ? 0 : -1;
}

/* Everything in JDIR but `keep` removed (volKKKK directories too). */
static void sweep(const char *keep)
{
    DIR *d = opendir(JDIR);
    for (struct dirent *e; d && (e = readdir(d));) {
        if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, "..") || !strcmp(e->d_name, keep)) continue;
        char p[600];
        snprintf(p, sizeof p, JDIR "/%s", e->d_name);
        if (unlink(p) == 0) continue;
        DIR *s = opendir(p);
        for (struct dirent *f; s && (f = readdir(s));) {
            char q[1200];
            snprintf(q, sizeof q, "%s/%s", p, f->d_name);
            unlink(q);
        }
        if (s) closedir(s);
        rmdir(p);
    }
    if (d) closedir(d);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (mkdir(JDIR, 0700) != 0 && errno != EEXIST) abort();
    sweep("victim");
    if (put("victim", "keep me", 7) || put("set.vol0000", "v0", 2) ||
        put("set.vol0001.lattio-tmp.host.1.1.salt", "v1", 2) || put("set.lattio-publish", data, size))
        return 0;
    int done = 0;
    const int rc = lattio_volumes_recover(JDIR "/set", &done);
    FUZZ_ASSERT(strcmp(lattio_error_name(rc), "UNKNOWN") != 0);
    struct stat st;
    FUZZ_ASSERT(rc != LATTIO_OK || (done == 1 && lstat(JDIR "/set.lattio-publish", &st) != 0));
    FUZZ_ASSERT(lstat(JDIR "/victim", &st) == 0 && st.st_size == 7);
    return 0;
}
