/* volumes_publish.c -- a QIO volume set is published as one unit.
 *
 * The kill harness: an older set of 4 volumes (lat.sample.l4444.ildg cut
 * along t) is replaced by a split of another configuration
 * (t_dprec_ildg.lime) into 2 volumes, and the writer is killed (SIGKILL,
 * test hook lattio_volume_test_kill_at) before each step of the
 * publication in turn: the journal's rename, each volume's rename, each
 * removal of an older volume, the journal's removal.  After every kill,
 * reading the set gives the old configuration or the new one, or says
 * ERR_INTERRUPTED, and lattio_volumes_recover then gives the new one;
 * nothing of the older set is left once it is the new one.
 *
 * Also: what is in the way of a split is replaced (a single file at BASE,
 * a set of the other naming); an output that is an input is refused
 * before anything is written (a split into the set whose BASE is the input,
 * a join into one of the set's volumes); a base that names no file is
 * refused with nothing made; a failed split in directories leaves no
 * directory behind; a journal naming files outside the set is refused. */
#include "fieldtest.h"

#include <dirent.h>
#include <errno.h>
#include <signal.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

void lattio_volume_test_kill_at(int k);

#define OLD "lat.sample.l4444.ildg"
#define NEW "t_dprec_ildg.lime"

/* The stored checksum of a file's first field. */
static lattio_scidac_sum sum_of(const char *path)
{
    lattio_verify_report rep;
    lattio_verify_report_init(&rep);
    lattio_scidac_sum s = {0, 0};
    if (lattio_verify_file(path, &rep, NULL) == LATTIO_OK && rep.nfields > 0) s = rep.fields[0].computed;
    lattio_verify_report_free(&rep);
    return s;
}

static int same(lattio_scidac_sum a, lattio_scidac_sum b) { return a.suma == b.suma && a.sumb == b.sumb; }

static void split(const char *in, const char *base, int volfmt, int parts)
{
    lattio_volumes_plan p = {volfmt, 4, {1, 1, 1, parts}, {0}};
    CHECK_OK(lattio_volumes_split(test_data(in), base, &p));
}

/* Files in the working directory (and its volNNNN directories) whose name
 * contains `what`. */
static int count(const char *what)
{
    int n = 0;
    DIR *d = opendir(".");
    for (struct dirent *e; d && (e = readdir(d));) {
        if (strstr(e->d_name, what)) n++;
        if (!strncmp(e->d_name, "vol", 3)) {
            DIR *s = opendir(e->d_name);
            for (struct dirent *f; s && (f = readdir(s));) n += strstr(f->d_name, what) != NULL;
            if (s) closedir(s);
        }
    }
    if (d) closedir(d);
    return n;
}

static void remove_dead_temporaries(const char *base)
{
    lattio_temp_info *list = NULL;
    size_t n = 0;
    CHECK_OK(lattio_volumes_temp_list(base, &list, &n));
    for (size_t i = 0; i < n; i++) CHECK_OK(lattio_temp_remove(&list[i]));
    lattio_temp_list_free(list, n);
}

/* Kill the split of NEW over the set of OLD before step k; 1 when the
 * writer was killed, 0 when it finished. */
static int kill_at(int k, lattio_scidac_sum old, lattio_scidac_sum new)
{
    split(OLD, "cfg", LATTIO_VOLFMT_PART, 4);
    CHECK(same(sum_of("cfg"), old));
    fflush(NULL);
    const pid_t pid = fork();
    if (pid == 0) {
        lattio_volume_test_kill_at(k);
        lattio_volumes_plan p = {LATTIO_VOLFMT_PART, 4, {1, 1, 1, 2}, {0}};
        _exit(lattio_volumes_split(test_data(NEW), "cfg", &p) == LATTIO_OK ? 0 : 3);
    }
    int st = 0;
    CHECK(waitpid(pid, &st, 0) == pid);
    const int killed = WIFSIGNALED(st) && WTERMSIG(st) == SIGKILL;
    CHECK(killed || (WIFEXITED(st) && WEXITSTATUS(st) == 0));
    lattio_verify_report rep;
    lattio_verify_report_init(&rep);
    const int rc = lattio_verify_file("cfg", &rep, NULL);
    const lattio_scidac_sum now = rep.nfields ? rep.fields[0].computed : (lattio_scidac_sum){0, 0};
    lattio_verify_report_free(&rep);
    if (rc == LATTIO_OK) {
        CHECK(same(now, old) || same(now, new));
        if (!killed) CHECK(same(now, new));
    } else {
        CHECK_INT(rc, LATTIO_ERR_INTERRUPTED);
        int done = 0;
        CHECK_OK(lattio_volumes_recover("cfg", &done));
        CHECK_INT(done, 1);
        CHECK(same(sum_of("cfg"), new));
    }
    remove_dead_temporaries("cfg");
    CHECK_INT(count(".lattio-"), 0);
    if (same(sum_of("cfg"), new)) CHECK_INT(count("cfg.vol"), 2); /* the older set's extra volumes are gone */
    return killed;
}

static void harness(void)
{
    split(NEW, "newref", LATTIO_VOLFMT_PART, 2);
    const lattio_scidac_sum new = sum_of("newref"), old = sum_of(test_data(OLD));
    CHECK(!same(new, old) && new.suma);
    int kills = 0, k = 0;
    while (k < 64 && kill_at(k, old, new)) kills++, k++;
    /* the journal, 2 renames, 2 removals, the journal's removal */
    CHECK(kills >= 6);
    printf("publication killed before each of its %d steps\n", kills);
}

static void shadows(void)
{
    /* a single file at BASE is replaced by the set */
    CHECK(ft_copy(OLD, "single"));
    split(NEW, "single", LATTIO_VOLFMT_MULTI, 2);
    struct stat st;
    CHECK(lstat("single", &st) != 0);
    CHECK(lattio_volumes_probe("single"));
    CHECK(same(sum_of("single"), sum_of(test_data(NEW))));
    /* a set of the other naming is replaced, its directories removed */
    split(OLD, "other", LATTIO_VOLFMT_PART_DIR, 2);
    CHECK(lstat("vol0001/other", &st) == 0);
    split(NEW, "other", LATTIO_VOLFMT_PART, 2);
    CHECK(lstat("vol0001/other", &st) != 0 && lstat("vol0001", &st) != 0);
    CHECK(same(sum_of("other"), sum_of(test_data(NEW))));
    split(NEW, "other", LATTIO_VOLFMT_PART_DIR, 4); /* and back */
    CHECK(lstat("other.vol0000", &st) != 0 && lstat("vol0003/other", &st) == 0);
    CHECK(same(sum_of("other"), sum_of(test_data(NEW))));
}

static void inputs(void)
{
    /* a split whose BASE is its input */
    CHECK(ft_copy(OLD, "in"));
    lattio_volumes_plan p = {LATTIO_VOLFMT_PART, 4, {1, 1, 1, 2}, {0}};
    CHECK_STATUS(lattio_volumes_split("in", "in", &p), LATTIO_ERR_OUTPUT_IS_INPUT);
    CHECK(same(sum_of("in"), sum_of(test_data(OLD))) && !lattio_volumes_probe("in"));
    /* a split over a set one of whose volumes is the input */
    split(NEW, "set", LATTIO_VOLFMT_PART, 2);
    CHECK(ft_copy(OLD, "set.vol0007"));
    CHECK_STATUS(lattio_volumes_split("set.vol0007", "set", &p), LATTIO_ERR_OUTPUT_IS_INPUT);
    unlink("set.vol0007");
    CHECK(same(sum_of("set"), sum_of(test_data(NEW))));
    /* a join into one of its own volumes */
    CHECK_STATUS(lattio_volumes_join("set", "set.vol0001"), LATTIO_ERR_OUTPUT_IS_INPUT);
    CHECK(same(sum_of("set"), sum_of(test_data(NEW))));
    CHECK_OK(lattio_volumes_join("set", "joined"));
    CHECK(same(sum_of("joined"), sum_of(test_data(NEW))));
}

static void debris(void)
{
    lattio_volumes_plan p = {LATTIO_VOLFMT_PART_DIR, 4, {1, 1, 1, 2}, {0}};
    CHECK(mkdir("sub", 0777) == 0 || errno == EEXIST); /* the working directory may hold an earlier run's */
    CHECK_STATUS(lattio_volumes_split(test_data(NEW), "sub/.", &p), LATTIO_ERR_ARG);
    CHECK_STATUS(lattio_volumes_split(test_data(NEW), "sub/", &p), LATTIO_ERR_ARG);
    CHECK_STATUS(lattio_volumes_split(test_data(NEW), "sub/..", &p), LATTIO_ERR_ARG);
    struct stat st;
    CHECK(lstat("sub/vol0000", &st) != 0);
    /* a split that fails after making its directories removes them */
    size_t n;
    unsigned char *raw = test_slurp(test_data(NEW), &n);
    CHECK(raw && n > 3000);
    raw[n - 400] ^= 0x20; /* inside the binary record: the checksum fails */
    FILE *f = fopen("sub/damaged", "wb");
    CHECK(f && fwrite(raw, 1, n, f) == n);
    fclose(f);
    free(raw);
    CHECK_STATUS(lattio_volumes_split("sub/damaged", "sub/cfg", &p), LATTIO_ERR_CHECKSUM);
    CHECK(lstat("sub/vol0000", &st) != 0 && lstat("sub/vol0001", &st) != 0);
}

static void hostile_journal(void)
{
    split(NEW, "j", LATTIO_VOLFMT_PART, 2);
    FILE *f = fopen("victim", "w");
    CHECK(f && fputs("precious\n", f) >= 0);
    fclose(f);
    f = fopen("j.lattio-publish", "w");
    CHECK(f && fputs("lattio-publish 1\nU\tvictim\nend\n", f) >= 0);
    fclose(f);
    int done = 0;
    CHECK_STATUS(lattio_volumes_recover("j", &done), LATTIO_ERR_BAD_METADATA);
    struct stat st;
    CHECK(lstat("victim", &st) == 0 && done == 0);
    CHECK_STATUS(lattio_volumes_join("j", "jj"), LATTIO_ERR_INTERRUPTED);
    f = fopen("j.lattio-publish", "w"); /* cut: no end line */
    CHECK(f && fputs("lattio-publish 1\nU\tj.vol0001\n", f) >= 0);
    fclose(f);
    CHECK_STATUS(lattio_volumes_recover("j", &done), LATTIO_ERR_BAD_METADATA);
    CHECK(lstat("j.vol0001", &st) == 0);
    unlink("j.lattio-publish");
    CHECK(same(sum_of("j"), sum_of(test_data(NEW))));
}

int main(void)
{
    harness();
    shadows();
    inputs();
    debris();
    hostile_journal();
    return test_finish();
}
