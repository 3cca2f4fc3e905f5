/* mpi_env.c -- what lattio must know about the MPI library under it.
 *
 * Open MPI's OMPIO opens every file a second time for shared file pointers
 * (which lattio never uses).  Its default component for that, lockedfile,
 * creates and removes <file>-<jobid>-<pid>.lock at each open; on a file
 * system whose clients cache directory entries (GlusterFS, NFS) a second
 * node then gets ESTALE, some ranks leave MPI_File_open early and the rest
 * wait forever inside it.  Excluding the component (OMPI_MCA_sharedfp=
 * ^lockedfile before MPI_Init) avoids it; excluding every component makes
 * Open MPI 4.1 crash at open.  The selection is read through the MPI tool
 * interface (MPI_T), which sees the environment, mpirun --mca and parameter
 * files alike; the environment alone where MPI_T cannot say.  The same
 * reading tells whether OMPIO is the io component (collective.c distrusts
 * its collective writes). */
#include "io_internal.h"

#include <stdlib.h>
#include <string.h>

int lattio_mpi_is_open_mpi(void)
{
    char v[MPI_MAX_LIBRARY_VERSION_STRING + 1] = "";
    int len = 0;
    if (MPI_Get_library_version(v, &len) != MPI_SUCCESS) return 0;
    v[len >= 0 && len <= MPI_MAX_LIBRARY_VERSION_STRING ? len : 0] = '\0';
    return strstr(v, "Open MPI") != NULL;
}

/* A control variable through MPI_T, read into `out` (`size` bytes) when its
 * type is `type`: 0 when read, -1 when absent. */
static int cvar_read(const char *name, MPI_Datatype type, void *out, size_t size)
{
    int idx = 0, count = 0, nl = 0, verb, bind, scope, dl = 0;
    char nm[1], desc[1];
    MPI_Datatype dt;
    MPI_T_enum en;
    MPI_T_cvar_handle h;
    if (MPI_T_cvar_get_index(name, &idx) != MPI_SUCCESS) return -1;
    if (MPI_T_cvar_get_info(idx, nm, &nl, &verb, &dt, &en, desc, &dl, &bind, &scope) != MPI_SUCCESS ||
        dt != type || bind != MPI_T_BIND_NO_OBJECT)
        return -1;
    if (MPI_T_cvar_handle_alloc(idx, NULL, &h, &count) != MPI_SUCCESS) return -1;
    int rc = MPI_ERR_OTHER;
    if (type == MPI_INT && count == 1 && size >= sizeof(int)) rc = MPI_T_cvar_read(h, out);
    if (type == MPI_CHAR && count > 0) {
        char *tmp = lattio_calloc((size_t)count + 1, 1); /* the variable's full size */
        if (tmp) rc = MPI_T_cvar_read(h, tmp);
        if (rc == MPI_SUCCESS) {
            strncpy(out, tmp, size - 1);
            ((char *)out)[size - 1] = '\0';
        }
        lattio_free(tmp);
    }
    MPI_T_cvar_handle_free(&h);
    return rc == MPI_SUCCESS ? 0 : -1;
}

/* Whether `name` is one of the comma-separated words of `list`. */
static int listed(const char *list, const char *name)
{
    size_t n = strlen(name);
    for (const char *p = list; p && *p;) {
        const char *end = strchr(p, ',');
        size_t len = end ? (size_t)(end - p) : strlen(p);
        if (len == n && strncmp(p, name, n) == 0) return 1;
        p = end ? end + 1 : NULL;
    }
    return 0;
}

/* Whether a component selection ("", "a,b" or "^a,b": the MCA "io" or
 * "sharedfp" variable, from the environment, mpirun --mca or a parameter
 * file) lets `name` in. */
static int selected(const char *sel, const char *name)
{
    if (!sel || !*sel) return 1;
    if (sel[0] == '^') return !listed(sel + 1, name);
    return listed(sel, name);
}

/* Without MPI_T: OMPIO unless OMPI_MCA_io rules it out. */
static int ompio_from_environment(void)
{
    return selected(lattio_process_config_get()->ompi_io, "ompio");
}

/* Open MPI selects the allowed io component of highest priority.  The
 * selection list is read from the "io" variable; the priorities of
 * components ruled out vanish once a file has been opened. */
int lattio_mpi_ompio_selected(void)
{
    int provided = 0, ompio = -1, romio = -1, r = 0;
    char list[256] = "";
    if (MPI_T_init_thread(MPI_THREAD_SINGLE, &provided) != MPI_SUCCESS) return ompio_from_environment();
    int have_list = cvar_read("io", MPI_CHAR, list, sizeof list) == 0;
    if (cvar_read("io_ompio_priority", MPI_INT, &r, sizeof r) == 0 && selected(list, "ompio")) ompio = r;
    if (cvar_read("io_romio321_priority", MPI_INT, &r, sizeof r) == 0 && selected(list, "romio321") &&
        r > romio)
        romio = r;
    if (cvar_read("io_romio341_priority", MPI_INT, &r, sizeof r) == 0 && selected(list, "romio341") &&
        r > romio)
        romio = r;
    MPI_T_finalize();
    if (!have_list && ompio < 0 && romio < 0) return ompio_from_environment(); /* MPI_T says nothing */
    return ompio >= 0 && ompio >= romio;
}

int lattio_mpi_sharedfp_hazard(void)
{
    char sfp[256] = "";
    int provided = 0;
    if (!lattio_mpi_is_open_mpi() || !lattio_mpi_ompio_selected()) return 0;
    if (MPI_T_init_thread(MPI_THREAD_SINGLE, &provided) == MPI_SUCCESS) {
        int known = cvar_read("sharedfp", MPI_CHAR, sfp, sizeof sfp) == 0;
        MPI_T_finalize();
        if (known) return selected(sfp, "lockedfile");
    }
    return selected(lattio_process_config_get()->ompi_sharedfp, "lockedfile");
}
