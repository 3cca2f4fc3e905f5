/* h5_walk.c -- an HDF5 file's objects walked without trusting the file:
 * iteratively (an explicit stack; HDF5 1.10's recursive H5Ovisit2 recurses
 * without bound on a damaged link heap), in name order, within lattio's
 * limits of depth, links and path length, each link checked before its
 * object is opened; and a target path resolved to the hard path of its
 * object, following soft links inside the file only. */
#include "h5_internal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Addresses of the objects met, so a hard link back to one (an alias or a
 * loop) is not followed twice: open addressing, grown at half full. */
typedef struct seen_set {
    haddr_t *slot;
    size_t cap, used;
} seen_set;

static size_t slot_of(haddr_t a, size_t cap) { return (size_t)((a * UINT64_C(0x9E3779B97F4A7C15)) >> 17) & (cap - 1); }

/* 1 when `a` was met before, else remembered: 0, or ERR_NOMEM. */
static int seen(seen_set *s, haddr_t a)
{
    if (2 * (s->used + 1) > s->cap) {
        seen_set g = {NULL, s->cap ? 2 * s->cap : 256, 0};
        g.slot = lattio_malloc(g.cap * sizeof *g.slot);
        if (!g.slot) return LATTIO_ERR_NOMEM;
        for (size_t i = 0; i < g.cap; i++) g.slot[i] = HADDR_UNDEF;
        for (size_t i = 0; i < s->cap; i++)
            if (s->slot[i] != HADDR_UNDEF) (void)seen(&g, s->slot[i]);
        lattio_free(s->slot);
        *s = g;
    }
    size_t i = slot_of(a, s->cap);
    while (s->slot[i] != HADDR_UNDEF) {
        if (s->slot[i] == a) return 1;
        i = (i + 1) & (s->cap - 1);
    }
    s->slot[i] = a;
    s->used++;
    return 0;
}

/* One open group on the stack: its links are visited by index. */
typedef struct frame {
    hid_t gid;
    hsize_t next, n;
    size_t len; /* length of the group's path (0 for the root) */
} frame;

typedef struct walk {
    hid_t fid;
    lattio_h5_visit_fn fn;
    void *data;
    frame stack[LATTIO_H5_MAX_DEPTH + 1];
    int depth;
    uint64_t links;
    seen_set seen;
    char path[LATTIO_H5_PATH_MAX];
} walk;

static int beyond(const char *what, const char *path)
{
    lattio_detail_set("%s: %s", path[0] ? path : "/", what);
    return LATTIO_FAIL(LATTIO_ERR_HDF5_LIMIT, what);
}

/* Open group `name` of the top frame (NULL: the root) onto the stack. */
static int push(walk *w, const char *name, size_t len)
{
    if (w->depth >= LATTIO_H5_MAX_DEPTH) {
        lattio_detail_set("%s: groups nested deeper than %d", w->path, LATTIO_H5_MAX_DEPTH);
        return LATTIO_FAIL(LATTIO_ERR_HDF5_LIMIT, "depth");
    }
    hid_t g = name ? H5Gopen2(w->stack[w->depth - 1].gid, name, H5P_DEFAULT) : H5Gopen2(w->fid, "/", H5P_DEFAULT);
    if (g < 0) return lattio_h5_damaged(w->path, "group cannot be opened");
    H5G_info_t gi;
    if (H5Gget_info(g, &gi) < 0) {
        const int rc = lattio_h5_damaged(w->path, "group's links cannot be read"); /* before the close clears HDF5's stack */
        H5Gclose(g);
        return rc;
    }
    if (gi.nlinks > LATTIO_H5_MAX_LINKS) {
        H5Gclose(g);
        lattio_detail_set("%s: %llu links, more than %d", w->path[0] ? w->path : "/", (unsigned long long)gi.nlinks,
                          LATTIO_H5_MAX_LINKS);
        return LATTIO_FAIL(LATTIO_ERR_HDF5_LIMIT, "links");
    }
    w->stack[w->depth++] = (frame){g, 0, gi.nlinks, len};
    return LATTIO_OK;
}

/* The name of the top frame's next link, checked: not empty, no '/', no
 * NUL inside, the whole path under LATTIO_H5_PATH_MAX. */
static int link_name(walk *w, frame *top, char *name, size_t size)
{
    const hsize_t idx = top->next++;
    w->path[top->len] = '\0';
    const ssize_t n = H5Lget_name_by_idx(top->gid, ".", H5_INDEX_NAME, H5_ITER_INC, idx, NULL, 0, H5P_DEFAULT);
    if (n < 0) return lattio_h5_damaged(w->path, "a link's name cannot be read");
    if (n == 0) return lattio_h5_damaged(w->path, "a link with an empty name");
    if ((size_t)n >= size || top->len + 1 + (size_t)n >= sizeof w->path) {
        lattio_detail_set("%s: a link name of %zd bytes makes a path longer than %d bytes", top->len ? w->path : "/",
                          n, LATTIO_H5_PATH_MAX - 1);
        return LATTIO_FAIL(LATTIO_ERR_HDF5_LIMIT, "path length");
    }
    if (H5Lget_name_by_idx(top->gid, ".", H5_INDEX_NAME, H5_ITER_INC, idx, name, (size_t)n + 1, H5P_DEFAULT) != n)
        return lattio_h5_damaged(w->path, "a link's name cannot be read");
    if (strlen(name) != (size_t)n || strchr(name, '/') || strcmp(name, ".") == 0)
        return lattio_h5_damaged(w->path, "a link name with a NUL byte, a '/' or '.'");
    snprintf(w->path + top->len, sizeof w->path - top->len, "/%s", name);
    return LATTIO_OK;
}

/* HDF5 takes an object with a datatype but no dataspace for a named
 * datatype, so a dataset whose dataspace message was damaged would pass
 * as one and vanish from the listing: a named datatype carrying a
 * dataset's messages (layout, external files, filters, fill value) is
 * damage. Message type numbers from the HDF5 file format specification. */
static int named_datatype(hid_t gid, const char *name, const char *path)
{
    enum { FILL_OLD = 4, FILL = 5, EXTERNAL_FILES = 7, LAYOUT = 8, FILTERS = 11 };
    const uint64_t dataset_only =
        1u << FILL_OLD | 1u << FILL | 1u << EXTERNAL_FILES | 1u << LAYOUT | 1u << FILTERS;
    H5O_info_t oi;
    if (H5Oget_info_by_name2(gid, name, &oi, H5O_INFO_HDR, H5P_DEFAULT) < 0)
        return lattio_h5_damaged(path, "object header cannot be read");
    if (oi.hdr.mesg.present & dataset_only)
        return lattio_h5_damaged(path, "a dataset without a dataspace (taken by HDF5 for a named datatype)");
    return LATTIO_OK;
}

/* The next link of the top frame: its object visited, a group pushed. */
static int step(walk *w)
{
    frame *top = &w->stack[w->depth - 1];
    char name[LATTIO_H5_PATH_MAX];
    RETURN_IF_ERROR(link_name(w, top, name, sizeof name));
    if (++w->links > LATTIO_H5_MAX_LINKS) return beyond("more links than lattio walks", w->path);
    H5L_info_t li;
    if (H5Lget_info(top->gid, name, &li, H5P_DEFAULT) < 0) return lattio_h5_damaged(w->path, "link cannot be read");
    if (li.type != H5L_TYPE_HARD) return LATTIO_OK; /* soft, external, user-defined: not followed */
    H5O_info_t oi;
    if (H5Oget_info_by_name2(top->gid, name, &oi, H5O_INFO_BASIC, H5P_DEFAULT) < 0)
        return lattio_h5_damaged(w->path, "object cannot be opened");
    const int again = seen(&w->seen, oi.addr);
    if (again != 0) return again < 0 ? again : LATTIO_OK; /* met under another name */
    if (oi.type == H5O_TYPE_NAMED_DATATYPE) return named_datatype(top->gid, name, w->path);
    if (oi.type != H5O_TYPE_GROUP && oi.type != H5O_TYPE_DATASET) return lattio_h5_damaged(w->path, "object of unknown type");
    const int rc = w->fn(w->fid, w->path, oi.type, w->data);
    if (rc < 0 || rc == LATTIO_H5_SKIP || oi.type != H5O_TYPE_GROUP) return rc < 0 ? rc : LATTIO_OK;
    return push(w, name, strlen(w->path));
}

int lattio_h5_walk(hid_t fid, lattio_h5_visit_fn fn, void *data)
{
    walk *w = lattio_malloc(sizeof *w);
    RETURN_IF(!w, LATTIO_ERR_NOMEM);
    memset(w, 0, sizeof *w);
    w->fid = fid;
    w->fn = fn;
    w->data = data;
    int rc = push(w, NULL, 0);
    while (rc == LATTIO_OK && w->depth > 0) {
        frame *top = &w->stack[w->depth - 1];
        if (top->next < top->n) {
            rc = step(w);
            continue;
        }
        H5Gclose(top->gid);
        w->depth--;
    }
    while (w->depth > 0) H5Gclose(w->stack[--w->depth].gid);
    lattio_free(w->seen.slot);
    lattio_free(w);
    H5Eclear2(H5E_DEFAULT);
    return rc;
}

/* --- a target's hard path --------------------------------------------------- */

/* Append component `c` (length n) to out, or replace out by the soft
 * link's value and start again: returns 1 when a soft link was taken. */
static int component(hid_t fid, char *out, size_t size, const char *c, size_t n, char *rest, size_t nrest, int *hops)
{
    const size_t len = strlen(out);
    if (n == 0 || (n == 1 && c[0] == '.')) return 0;
    if (len + 1 + n >= size) {
        lattio_detail_set("path longer than %d bytes", LATTIO_H5_PATH_MAX - 1);
        return LATTIO_FAIL(LATTIO_ERR_HDF5_LIMIT, "path length");
    }
    snprintf(out + len, size - len, "/%.*s", (int)n, c);
    H5L_info_t li;
    const htri_t there = H5Lexists(fid, out, H5P_DEFAULT);
    if (there < 0) RETURN_IF_ERROR(lattio_h5_io_failed(out, "link cannot be looked up")); /* else: below a dataset */
    if (there <= 0 || H5Lget_info(fid, out, &li, H5P_DEFAULT) < 0) {
        lattio_detail_set("no object %s", out);
        return LATTIO_FAIL(LATTIO_ERR_HDF5_NOT_FOUND, "component");
    }
    if (li.type == H5L_TYPE_HARD) return 0;
    if (li.type != H5L_TYPE_SOFT) {
        lattio_detail_set("%s is %s link; lattio follows soft links inside the file only", out,
                          li.type == H5L_TYPE_EXTERNAL ? "an external" : "a user-defined");
        return LATTIO_FAIL(LATTIO_ERR_HDF5_LINK, "link type");
    }
    if (++*hops > LATTIO_H5_MAX_SOFT) {
        lattio_detail_set("%s: more than %d soft links in a row (a loop?)", out, LATTIO_H5_MAX_SOFT);
        return LATTIO_FAIL(LATTIO_ERR_HDF5_LINK, "soft link loop");
    }
    char value[LATTIO_H5_PATH_MAX];
    if (li.u.val_size == 0 || li.u.val_size > sizeof value ||
        H5Lget_val(fid, out, value, sizeof value, H5P_DEFAULT) < 0 || memchr(value, '\0', li.u.val_size) == NULL) {
        lattio_detail_set("%s: soft link value unreadable or longer than %d bytes", out, LATTIO_H5_PATH_MAX - 1);
        return LATTIO_FAIL(LATTIO_ERR_HDF5_LINK, "soft link value");
    }
    /* the link's value (absolute, or relative to the group holding it) then what is left */
    char joined[2 * LATTIO_H5_PATH_MAX + 2];
    out[len] = '\0';
    const int k = value[0] == '/' ? snprintf(joined, sizeof joined, "%s/%s", value, rest)
                                  : snprintf(joined, sizeof joined, "%s/%s/%s", out, value, rest);
    if (k < 0 || (size_t)k >= nrest) {
        lattio_detail_set("path longer than %d bytes after soft links", LATTIO_H5_PATH_MAX - 1);
        return LATTIO_FAIL(LATTIO_ERR_HDF5_LIMIT, "path length");
    }
    memcpy(rest, joined, (size_t)k + 1);
    out[0] = '\0';
    return 1;
}

int lattio_h5_resolve(hid_t fid, const char *path, char *out, size_t size)
{
    char rest[2 * LATTIO_H5_PATH_MAX + 2], tail[2 * LATTIO_H5_PATH_MAX + 2];
    if (snprintf(rest, sizeof rest, "%s", path) >= (int)sizeof rest) {
        lattio_detail_set("path longer than %d bytes", LATTIO_H5_PATH_MAX - 1);
        return LATTIO_FAIL(LATTIO_ERR_HDF5_LIMIT, "path length");
    }
    int hops = 0;
    out[0] = '\0';
    for (const char *p = rest; *p;) {
        while (*p == '/') p++;
        const size_t n = strcspn(p, "/");
        if (n == 0) break;
        snprintf(tail, sizeof tail, "%s", p + n);
        const int rc = component(fid, out, size, p, n, tail, sizeof tail, &hops);
        if (rc < 0) {
            H5Eclear2(H5E_DEFAULT);
            return rc;
        }
        memcpy(rest, tail, sizeof rest); /* after a soft link: its target's path, then the rest */
        p = rest;
    }
    if (!out[0]) snprintf(out, size, "/");
    H5Eclear2(H5E_DEFAULT);
    return LATTIO_OK;
}
