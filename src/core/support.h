/* support.h -- lattio's internal support calls: MPI-free helpers that the
 * library, its command (tools/lattio), the tests, the fuzzers and the
 * benchmarks share.  Not installed and not part of the supported API: the
 * shared libraries do not export them; programs inside this tree reach them
 * through the static library (CMake target lattio_internal).  They may
 * change in any release. */
#ifndef LATTIO_SUPPORT_H
#define LATTIO_SUPPORT_H

#include "lattio.h"

#include <stddef.h>
#include <stdint.h>

/* --- temporary files ------------------------------------------------------
 * Every lattio writer writes PATH under a temporary name beside it,
 * "PATH.lattio-tmp.HOST.PID.TIME.SALT" (HOST: the short host name; PID: the
 * writing process; TIME: seconds since 1970), renamed to PATH on success and
 * removed on failure.  A writer killed before that leaves its temporary
 * behind; these calls find and remove them (docs/format.md, "Temporary
 * files", states the rule for shared file systems). */
enum lattio_temp_state {
    LATTIO_TEMP_GONE = 0,    /* made on this host by a process that no longer exists: removable */
    LATTIO_TEMP_RUNNING = 1, /* its process (or one with that pid) still runs on this host */
    LATTIO_TEMP_UNKNOWN = 2  /* another host, or a name of an older lattio: cannot tell */
};
typedef struct lattio_temp_info {
    char *name;     /* path of the temporary file */
    char host[64];  /* writer's host ("" when unknown) */
    long pid;       /* writer's process id (-1 when unknown) */
    int64_t time;   /* creation, seconds since 1970 (0 when unknown) */
    uint64_t size;  /* bytes */
    int state;      /* enum lattio_temp_state */
} lattio_temp_info;
/* Local.  The temporaries beside `path` (regular files named
 * PATH.lattio-tmp.*, and PATH.lattio-convert.* of older releases).  *list
 * is freed with lattio_temp_list_free.  ERR_ARG, ERR_OPEN (directory), ERR_NOMEM. */
int lattio_temp_list(const char *path, lattio_temp_info **list, size_t *count);
/* Local.  The temporaries a killed writer of QIO volume set `base` left:
 * beside its journal and beside every volume of either naming
 * (src/volumes/publish.c).  ERR_ARG (not a set's name), ERR_NOMEM. */
int lattio_volumes_temp_list(const char *base, lattio_temp_info **list, size_t *count);
/* Local.  1 when a publication of set `base` was interrupted: its journal
 * BASE.lattio-publish is there (src/volumes/volumes.c). */
int lattio_volumes_interrupted(const char *base);
/* The name of a gauge checksum kind (enum lattio_gauge_checksum): "none",
 * "nersc", "milc", "scidac" (src/ops/report.c; the report's JSON and the
 * command's text). */
const char *lattio_gauge_checksum_name(int kind);
void lattio_temp_list_free(lattio_temp_info *list, size_t count);
/* Local.  Create a fresh temporary file beside `path` under such a name
 * (exclusively, mode 0666 less the umask), open for writing in *fd; its name
 * goes to name[0 .. size).  ERR_NOT_REGULAR (lattio_output_check),
 * ERR_OVERFLOW (size too small), ERR_OPEN. */
int lattio_temp_open(const char *path, char *name, size_t size, int *fd);
/* Local.  Rename temporary file `tmp` to `path` after lattio_output_check
 * (checked again: the path may have changed since the temporary was made).
 * ERR_NOT_REGULAR, ERR_RENAME. */
int lattio_temp_publish(const char *tmp, const char *path);
/* Local.  Remove t's file if its writer is provably gone (state checked
 * again now): ERR_STATE otherwise; ERR_WRITE when unlink fails. */
int lattio_temp_remove(const lattio_temp_info *t);

/* --- checksums (src/core/checksum.c, qlua_sum.c; local, thread-safe) --- */

/* CRC-32 as zlib computes it (reflected 0xEDB88320, initial value 0):
 * lattio_crc32(0, "123456789", 9) == 0xcbf43926.  Continue a running CRC by
 * passing the previous value. */
uint32_t lattio_crc32(uint32_t crc, const void *buf, size_t n);

/* XOR into *sum the contributions of `nsites` consecutive sites of
 * `site_bytes` bytes each, exactly as stored in the file (big-endian), the
 * first of which has global lexicographic rank `first_rank` (x fastest).
 * Errors: ERR_ARG, ERR_OVERFLOW (ranks beyond 2^64). */
int lattio_scidac_sum_sites(lattio_scidac_sum *sum, const void *sites, size_t site_bytes,
                            uint64_t nsites, uint64_t first_rank);

/* The same for sites that are not consecutive: site i starts at byte
 * i * site_stride of `sites` (site_stride >= site_bytes) and has global rank
 * ranks[i].  Errors: ERR_ARG. */
int lattio_scidac_sum_ranked(lattio_scidac_sum *sum, const void *sites, size_t site_bytes,
                             size_t site_stride, uint64_t nsites, const uint64_t *ranks);

/* XOR in one site's contribution from its CRC and rank. */
void lattio_scidac_sum_add_site(lattio_scidac_sum *sum, uint32_t crc, uint64_t rank);

/* Global (non-lattice) data: the whole payload counts as one site of rank 0. */
int lattio_scidac_sum_global(lattio_scidac_sum *sum, const void *data, size_t n);

/* into ^= part (both words).  NULL arguments are ignored. */
void lattio_scidac_sum_combine(lattio_scidac_sum *into, const lattio_scidac_sum *part);

/* XOR into *sum the digests of `nsites` sites of `site_bytes` bytes each
 * (already little-endian), consecutive along the fastest dimension: site i
 * has coordinates coord[0..nd-2] and coord[nd-1] + i (nd in 1..16).
 * Errors: ERR_ARG, ERR_NOMEM (no digest context). */
int lattio_qlua_sum_sites(lattio_qlua_sum *sum, const void *sites, size_t site_bytes,
                          uint64_t nsites, int nd, const uint64_t *coord);

/* into ^= part.  NULL arguments are ignored. */
void lattio_qlua_sum_combine(lattio_qlua_sum *into, const lattio_qlua_sum *part);

/* --- conversion kernels (src/core/convert.c; local, thread-safe) -------- */

/* Reverse the bytes of n 4-byte / 8-byte elements from src into dst (the
 * same buffer or non-overlapping ones; no alignment needed). */
void lattio_bswap32(void *dst, const void *src, size_t n);
void lattio_bswap64(void *dst, const void *src, size_t n);

/* Convert n reals from src (format src_fmt) to dst (format dst_fmt).
 * Element-wise, so a buffer may be converted chunk by chunk.  dst == src is
 * allowed (in place, also across precisions: dst then needs room for the
 * larger of the two); other overlaps are not.  Same precision: bit-exact (NaN
 * payloads, infinities and denormals pass through).  float64 -> float32
 * rounds to nearest (overflow gives infinity, NaN stays NaN); float32 ->
 * float64 is exact.  Errors: ERR_ARG (unknown format, NULL), ERR_OVERFLOW. */
int lattio_convert_reals(void *dst, int dst_fmt, const void *src, int src_fmt, size_t n);

/* --- tolerant XML scanning (src/core/xml.c; local, thread-safe) ---------
 * Metadata XML from the wild is pretty-printed or not, has namespace
 * prefixes or not, attributes, a trailing NUL (the text ends at the first
 * NUL or at len), comments, and is sometimes malformed elsewhere in the
 * document (an unterminated attribute quote).  These calls find the first
 * element whose name is `tag`: a `tag` without prefix matches any prefix
 * ("lx" matches <lx> and <ildg:lx>), one with a prefix matches exactly.
 * Hostile input never reads outside [xml, xml + len).
 * Errors: ERR_ARG; ERR_NOT_FOUND (no such element); ERR_BAD_XML (no end tag,
 * value not of the requested kind); ERR_OVERFLOW (value does not fit). */

/* Offset and length of the element's raw text (between its start and end
 * tags; empty for <tag/>). */
int lattio_xml_find(const char *xml, size_t len, const char *tag, size_t *text_offset,
                    size_t *text_len);
/* The text with leading/trailing white space removed and the five predefined
 * entities (&lt; &gt; &amp; &quot; &apos;) decoded, NUL-terminated in out. */
int lattio_xml_string(const char *xml, size_t len, const char *tag, char *out, size_t size);
/* A decimal integer (surrounding white space allowed). */
int lattio_xml_int(const char *xml, size_t len, const char *tag, int64_t *value);
/* A list of white-space separated decimal integers ("4 4 4 8 "): up to max
 * values; *n receives how many there are (ERR_OVERFLOW if more than max). */
int lattio_xml_ints(const char *xml, size_t len, const char *tag, int64_t *values, int max,
                    int *n);
/* A hexadecimal 32-bit number without 0x ("37affb9c"). */
int lattio_xml_hex32(const char *xml, size_t len, const char *tag, uint32_t *value);

/* Escape `text` for XML character data (& < > " ' become entities) into
 * out (size bytes, NUL-terminated); *needed (may be NULL) receives the
 * escaped length without the NUL.  ERR_OVERFLOW when it does not fit. */
int lattio_xml_escape(const char *text, char *out, size_t size, size_t *needed);

/* --- text from files (text.c) ---------------------------------------------
 * lattio_text_escape: src into dst (size bytes, NUL-terminated, cut when it
 * does not fit) with every byte outside printable ASCII, and the backslash,
 * as \xNN: safe on a terminal.  lattio_json_string: s as a JSON string
 * (quotes, backslashes and control bytes escaped, bytes >= 0x7f as \u00NN). */
#include <stdio.h>
void lattio_text_escape(char *dst, size_t size, const char *src);
void lattio_json_string(FILE *f, const char *s);

/* 1 for a status of the I/O (-1xx) or MPI (-4xx) ranges: a failure of the
 * system, not of the file's contents. */
static inline int lattio_status_is_io(int status)
{
    return (status <= -100 && status > -200) || (status <= -400 && status > -500);
}

#endif
