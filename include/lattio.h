/*
 * lattio.h -- the one public header of lattio, parallel I/O for lattice data.
 *
 * Ordered like a manual: status codes first, then the MPI-free LIME layer
 * (serial reading, writing and checking of LIME files), then the MPI layer
 * (parallel files, records, lattices), then lattice fields.
 *
 * Conventions
 *   - every function returns an int status: LATTIO_OK (0) or a negative
 *     lattio_status value from the table below; outputs go through the last
 *     pointer arguments;
 *   - handles are opaque; every *_close / *_free accepts NULL;
 *   - the library never prints and never exits.  LATTIO_TRACE=1 in the
 *     environment writes a trace of every error (file:line, condition, name)
 *     to stderr, for debugging;
 *   - "local" calls involve only the calling process; "collective" calls must
 *     be made by every rank of the handle's communicator and return the same
 *     status on every rank.
 *   - thread safety: distinct handles may be used from distinct threads; one
 *     handle must not be used by two threads at once.
 *
 * What is stable.  Everything this header declares is lattio's supported
 * API, and exactly that is exported from liblattio (liblattio-serial: the
 * part before the MPI half).  Within a major version (the shared library's
 * soname) nothing declared here is removed or changes meaning; status
 * values and enum values are fixed forever, new ones are only added.  Until
 * version 1.0 a minor version may add members at the end of the option and
 * result structs (fill them with their *_default call and rebuild against
 * the new header).  Not part of the API: every header under src/ (also
 * src/core/support.h, the helpers the command, tests and benchmarks share),
 * the trace's wording and the library's internal symbols; the file formats
 * are specified in docs/format.md.
 *
 * Configuration (the environment; read in one place, src/core/config.c,
 * never on a transfer's path).  A file takes the first ten from rank 0's
 * environment when it is opened (lattio_open, lattio_attach), so every rank
 * makes the same choices; the process reads the last four once.  A value
 * that is not understood leaves the default (LATTIO_TRACE says so).
 *   variable                 default               meaning
 *   LATTIO_STRATEGY          auto                  strategy when lattio_options.strategy is
 *                                                  AUTO: independent|collective|aggregate|
 *                                                  serial|mapped|auto
 *   LATTIO_STAGING_BYTES     strategy's own        a field's staging buffer in bytes when
 *                                                  lattio_field_desc.staging_bytes is 0
 *   LATTIO_WRITE_PIECE       file system's         bytes per independent write call, 4096 to
 *                                                  2^30 (stripe/block on Lustre, GPFS, NFS;
 *                                                  else 256 KiB)
 *   LATTIO_STRIPING_UNIT     hint or file system   aggregate/serial file-domain alignment
 *   LATTIO_ONE_WRITER_BYTES  8 MiB                 whole-field writes up to this size on one
 *                                                  node: one writer (serial) under auto; 0 never
 *   LATTIO_CB_NODES          hint or one per node  aggregators of the aggregate strategy
 *   LATTIO_CB_BUFFER_SIZE    hint or 16 MiB        bytes per aggregator and round (<= 1 GiB)
 *   LATTIO_AGG_SHARED        a node's ranks        who shares aggregator windows: unset, a
 *                                                  node's ranks; 0, nobody; k, groups of k
 *   LATTIO_FIELD_THREADS     the rule              0 never, 1 always stage fields on a helper
 *                                                  thread; unset: where CPUs are spare
 *   LATTIO_WRITEBACK         1                     0: durable writes start no early writeback
 *   LATTIO_TRUST_COLLECTIVE  0                     1: OMPIO collective writes not verified
 *   LATTIO_TRACE             0                     non-0: a trace on stderr
 *   LATTIO_H5_GUARD          1                     0: HDF5 input not examined in a child first
 *   OMPI_MCA_io              Open MPI's            read when MPI_T cannot name the io component
 *   OMPI_MCA_sharedfp        Open MPI's            read when MPI_T cannot name it
 * The same table with more words: docs/configuration.md.
 */
#ifndef LATTIO_H
#define LATTIO_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* The library is built with hidden visibility: what this header declares is
 * its exported API. */
#if defined(__GNUC__)
#pragma GCC visibility push(default)
#endif

#define LATTIO_VERSION_MAJOR 0
#define LATTIO_VERSION_MINOR 1
#define LATTIO_VERSION_PATCH 0

/* ------------------------------------------------------------------------ */
/* Status codes                                                             */
/* ------------------------------------------------------------------------ */

/*
 * The one error table: X(NAME, value, message).  Values are fixed forever and
 * grouped by range:
 *      0          success
 *     -1 ..  -99  arguments, state and resources
 *   -100 .. -199  input/output on the operating system or file system
 *   -200 .. -299  format: the file's bytes are not what the format allows
 *   -300 .. -399  checksums and verification
 *   -400 .. -499  MPI
 *   -500 .. -599  disagreement between ranks
 *   -600 .. -699  task-local container
 *   -700 .. -799  HDF5 files
 */
#define LATTIO_STATUS_TABLE(X)                                                          \
    X(OK, 0, "success")                                                                 \
    /* arguments, state, resources */                                                   \
    X(ERR_ARG, -1, "invalid argument")                                                  \
    X(ERR_NOMEM, -2, "out of memory")                                                   \
    X(ERR_STATE, -3, "call not allowed in the handle's current state")                  \
    X(ERR_UNSUPPORTED, -4, "operation not supported")                                   \
    X(ERR_NOT_FOUND, -5, "no record of the requested type")                             \
    X(ERR_TYPE_TOO_LONG, -6, "record type longer than 128 characters")                  \
    X(ERR_OVERFLOW, -7, "size or offset does not fit the integer type")                 \
    X(ERR_LAYOUT, -8, "invalid lattice layout")                                         \
    X(ERR_PENDING, -9, "a non-blocking request is still pending")                      \
    X(ERR_OUTPUT_IS_INPUT, -10, "the output is one of the inputs: not replaced")         \
    /* input/output */                                                                  \
    X(ERR_OPEN, -100, "cannot open file")                                               \
    X(ERR_READ, -101, "read failed")                                                    \
    X(ERR_WRITE, -102, "write failed")                                                  \
    X(ERR_SEEK, -103, "seek failed")                                                    \
    X(ERR_CLOSE, -104, "close failed")                                                  \
    X(ERR_SYNC, -105, "fsync failed")                                                   \
    X(ERR_RENAME, -106, "renaming the temporary file into place failed")                \
    X(ERR_STAT, -107, "cannot query file size or file system")                    \
    X(ERR_SYNC_DIR, -108, "new file renamed into place, but syncing its directory failed") \
    X(ERR_NOT_REGULAR, -109, "output exists and is not a regular file: not replaced")    \
    X(ERR_EOF, -110, "end of file: no more records")                                    \
    X(ERR_END_OF_RECORD, -111, "end of record payload")                                 \
    /* format */                                                                        \
    X(ERR_BAD_MAGIC, -200, "not a LIME file: wrong magic number")                       \
    X(ERR_BAD_VERSION, -201, "unsupported LIME version (only 1 exists)")                \
    X(ERR_TRUNCATED_HEADER, -202, "file ends inside a record header")                   \
    X(ERR_TRUNCATED_PAYLOAD, -203, "file ends inside a record payload")                 \
    X(ERR_LENGTH_BEYOND_EOF, -204, "record length larger than the whole file")          \
    X(ERR_LENGTH_OVERFLOW, -205, "record length too large to address (near 2^64)")      \
    X(ERR_TYPE_UNTERMINATED, -206, "record type field has no terminating NUL (no longer an error)") \
    X(ERR_NONZERO_PADDING, -207, "record padding bytes are not zero")                   \
    X(ERR_TRAILING_BYTES, -208, "bytes after the last record are not a LIME record")    \
    X(ERR_MBME, -209, "message begin/end flags inconsistent")                           \
    X(ERR_BAD_FLAGS, -210, "reserved header bits are set")                              \
    X(ERR_TRUNCATED_PADDING, -211, "file ends inside a record's padding")               \
    X(ERR_RECORD_OVERRUN, -212, "access beyond the record's declared length")           \
    X(ERR_RECORD_SHORT, -213, "record closed before its declared length was written")   \
    X(ERR_BAD_TYPE, -214, "record type contains non-printable characters")             \
    X(ERR_BAD_XML, -220, "metadata XML cannot be interpreted")                          \
    X(ERR_BAD_METADATA, -221, "metadata inconsistent with the data")                    \
    X(ERR_BAD_HEADER, -222, "unreadable header of a foreign format")                    \
    X(ERR_UNKNOWN_FORMAT, -223, "file format not recognised")                           \
    X(ERR_FIELD_LENGTH, -224, "binary record length differs from the field's metadata") \
    X(ERR_FIELD_PRECISION, -225, "precision disagrees with the element size")         \
    X(ERR_FIELD_DIMS, -226, "lattice dimensions differ between metadata records")      \
    X(ERR_FIELD_TYPESIZE, -227, "typesize disagrees with the field's datatype")         \
    X(ERR_VOLUME_MISSING, -228, "a volume of a QIO volume set is missing or lacks a record") \
    X(ERR_VOLUME_SITES, -229, "the site lists of a QIO volume set do not hold every site once") \
    X(ERR_INTERRUPTED, -230, "a writer was stopped before it finished publishing; 'lattio clean' completes it") \
    /* checksums */                                                                     \
    X(ERR_CHECKSUM, -300, "checksum mismatch")                                          \
    X(ERR_NO_CHECKSUM, -301, "checksum record missing")                                 \
    X(ERR_VERIFY, -302, "data read back differs from data written")                     \
    X(ERR_PLAQUETTE, -303, "plaquette differs from the header's value")                 \
    X(ERR_UNITARITY, -304, "links are not unitary")                                     \
    /* MPI */                                                                           \
    X(ERR_MPI, -400, "MPI call failed")                                                 \
    X(ERR_MPI_IO, -401, "MPI-IO call failed")                                           \
    X(ERR_MPI_FILE, -402, "MPI-IO file error")                                          \
    X(ERR_MPI_COUNT, -403, "MPI transferred fewer bytes than asked")                    \
    X(ERR_MPI_SHAREDFP, -404, "MPI_File_open could hang: Open MPI's lockedfile shared-file-pointer component across nodes on NFS/FUSE; set OMPI_MCA_sharedfp=^lockedfile") \
    /* disagreement between ranks */                                                    \
    X(ERR_RANK_ARG, -500, "arguments differ between ranks")                             \
    X(ERR_OTHER_RANK, -501, "another rank failed")                                      \
    /* container */                                                                     \
    X(ERR_CONTAINER, -600, "container metadata corrupt")                                \
    X(ERR_CONTAINER_VERSION, -601, "unsupported container format version")              \
    X(ERR_CONTAINER_TASK, -602, "no such task in the container")                       \
    X(ERR_CONTAINER_MAGIC, -603, "not a lattio container: wrong magic")                 \
    X(ERR_CONTAINER_TRUNCATED, -604, "container incomplete: truncated or never closed")  \
    X(ERR_CONTAINER_CHUNK, -605, "chunk trailer missing or inconsistent")               \
    X(ERR_CONTAINER_FILES, -606, "physical files of the container inconsistent")      \
    X(ERR_CONTAINER_MEMBER, -607, "a physical file of a multi-file container is missing") \
    X(ERR_CONTAINER_CHECKSUM, -608, "container data fails its CRC-32 (chunk or stream)") \
    X(ERR_HDF5, -700, "the HDF5 library failed (its message in lattio_last_detail)")    \
    X(ERR_HDF5_UNAVAILABLE, -701, "this build of lattio has no HDF5 for this call (lattio --version, docs/install.md)") \
    X(ERR_HDF5_NOT_FOUND, -702, "no such object in the HDF5 file")                     \
    X(ERR_HDF5_LAYOUT, -703, "HDF5 object is not a lattice field lattio knows (type, shape)") \
    X(ERR_HDF5_ATTRIBUTE, -704, "HDF5 checksum or metadata attribute malformed")       \
    X(ERR_HDF5_DAMAGED, -705, "HDF5 object cannot be opened or read (damaged metadata)") \
    X(ERR_HDF5_LINK, -706, "HDF5 link lattio does not follow (external, user-defined, a loop)") \
    X(ERR_HDF5_STORAGE, -707, "HDF5 dataset storage refused (external, virtual, unwritten, short)") \
    X(ERR_HDF5_FILTER, -708, "HDF5 filter unavailable or its data damaged")            \
    X(ERR_HDF5_LIMIT, -709, "HDF5 file beyond lattio's limits (depth, objects, name length)")

typedef enum lattio_status {
#define LATTIO_X_ENUM(name, value, msg) LATTIO_##name = (value),
    LATTIO_STATUS_TABLE(LATTIO_X_ENUM)
#undef LATTIO_X_ENUM
} lattio_status;

/* Local.  A static English message for a status; "unknown status" otherwise. */
const char *lattio_strerror(int status);
/* Local.  The status's name without prefix ("ERR_BAD_MAGIC"); "UNKNOWN" otherwise. */
const char *lattio_error_name(int status);
/* Local.  "major.minor.patch". */
const char *lattio_version(void);
/* Local.  What this build holds, in one line: MPI and its version (or "no
 * MPI"), HDF5 (parallel, serial: reading without MPI, or none), the CRC-32
 * and SHA-256 implementations (docs/install.md). */
const char *lattio_build_info(void);
/* Local, MPI-free.  The file system holding `path` (its directory when the
 * file does not exist yet) as lattio's strategies and checks see it
 * (docs/cluster.md, "File systems"): its kind in kind[0 .. nkind) ("local", "tmpfs",
 * "nfs", "lustre", "gpfs", "beegfs", "cephfs", "fuse", "glusterfs" or
 * "unknown"), the mount's type in type[0 .. ntype) ("ext4",
 * "fuse.glusterfs"; "" when /proc/self/mountinfo does not say), statfs's
 * f_type in *magic and the block size in *block; any may be NULL.
 * Errors: ERR_ARG, ERR_STAT. */
int lattio_fs_describe(const char *path, char *kind, size_t nkind, char *type, size_t ntype,
                       uint64_t *magic, uint64_t *block);
/* Local.  The errno value (ENOSPC, EACCES, EIO, ...) of the latest failed
 * system call this thread's lattio calls reported as an error (an MPI-IO
 * error class is mapped to the matching errno), so a caller can print the
 * system's reason with strerror; 0 when none.  Reading it clears it. */
int lattio_last_errno(void);
/* Local.  Where this thread's latest error that has more to say than its
 * status lies, in words (a metadata error: the record, its offset and the
 * XML element, e.g. "ildg-format record 3 at byte 920: element <lx> is not
 * an integer"), copied into out[0 .. size) (NUL-terminated; may be NULL);
 * returns its length, 0 when there is none.  Reading it clears it.  The text
 * may hold bytes taken from a file: escape it before printing it to a
 * terminal. */
int lattio_last_detail(char *out, size_t size);

/* Local.  lattio's one rule for outputs, kept by every writer of the
 * library, the command and Python: `path` may be replaced when it does not
 * exist or is a regular file; a directory, symbolic link, device, FIFO or
 * socket is ERR_NOT_REGULAR (what it is in lattio_last_detail; for a
 * directory lattio_last_errno gives EISDIR). */
int lattio_output_check(const char *path);
/* Local.  lattio_output_check, and `path` is none of the n files of
 * `inputs` (the same file by device and inode, through any name or link):
 * ERR_OUTPUT_IS_INPUT, the detail naming the input.  NULL inputs and
 * inputs that do not exist are skipped. */
int lattio_output_allowed(const char *path, const char *const *inputs, int n);

/* ------------------------------------------------------------------------ */
/* LIME record layer (MPI-free, local calls)                                */
/* ------------------------------------------------------------------------ */

#define LATTIO_LIME_MAGIC 0x456789ABu
#define LATTIO_LIME_VERSION 1
#define LATTIO_LIME_HEADER_SIZE 144
/* Longest record type in characters: the whole 128-byte field, without a NUL
 * when it is full (C-LIME writes such types and every reader accepts them;
 * lattio's readers and writers all follow this one rule). */
#define LATTIO_LIME_TYPE_MAX 128
#define LATTIO_LIME_FLAG_MB 0x80
#define LATTIO_LIME_FLAG_ME 0x40

/* One record as found in a file. */
typedef struct lattio_record_info {
    uint64_t offset;      /* offset of the header from the start of the file */
    uint64_t data_offset; /* offset of the payload: offset + 144 */
    uint64_t length;      /* payload bytes, padding not included */
    uint32_t padding;     /* NUL bytes after the payload: (8 - length % 8) % 8 */
    int mb;               /* message-begin flag, 0 or 1 */
    int me;               /* message-end flag, 0 or 1 */
    int version;          /* header version field */
    char type[LATTIO_LIME_TYPE_MAX + 1]; /* NUL-terminated record type */
} lattio_record_info;

/* Padding bytes that follow a payload of `length` bytes. */
uint32_t lattio_lime_padding(uint64_t length);

/* Encode a header into 144 bytes.  Errors: ERR_ARG (NULL), ERR_TYPE_TOO_LONG,
 * ERR_LENGTH_OVERFLOW (length > LATTIO_LIME_MAX_LENGTH). */
int lattio_lime_header_encode(unsigned char out[LATTIO_LIME_HEADER_SIZE], const char *type,
                              uint64_t length, int mb, int me);

/* Decode 144 bytes.  Fills every field of *info except offset/data_offset
 * (set to 0).  Errors, checked in this order: ERR_BAD_MAGIC, ERR_BAD_VERSION,
 * ERR_TYPE_UNTERMINATED, ERR_LENGTH_OVERFLOW, ERR_BAD_FLAGS (reserved bits of
 * the flag byte or the reserved byte set).  *info is filled as far as possible
 * even on error. */
int lattio_lime_header_decode(const unsigned char in[LATTIO_LIME_HEADER_SIZE],
                              lattio_record_info *info);

/* Largest payload length lattio accepts: offsets stay below 2^63. */
#define LATTIO_LIME_MAX_LENGTH (UINT64_C(0x7fffffffffffffff) - 1024)

/* --- Serial reader ------------------------------------------------------ */

typedef struct lattio_lime_reader lattio_lime_reader;

/* Open a LIME file for reading.  Errors: ERR_ARG, ERR_OPEN, ERR_STAT, ERR_NOMEM. */
int lattio_lime_reader_open(const char *path, lattio_lime_reader **out);
void lattio_lime_reader_close(lattio_lime_reader *r);

/* Advance to the next record and describe it in *info.  Returns ERR_EOF
 * after the last record; a format error (ERR_BAD_MAGIC, ERR_TRUNCATED_*, ...)
 * for a damaged record, after which the reader stays at that record. */
int lattio_lime_reader_next(lattio_lime_reader *r, lattio_record_info *info);

/* Go back before the first record (the next call to _next reads record 0). */
int lattio_lime_reader_rewind(lattio_lime_reader *r);

/* Describe the current record.  ERR_STATE when there is none. */
int lattio_lime_reader_current(const lattio_lime_reader *r, lattio_record_info *info);

/* Rewind and find the n-th (0-based) record whose type equals `type`.
 * ERR_NOT_FOUND if there is none. */
int lattio_lime_reader_find(lattio_lime_reader *r, const char *type, int n,
                            lattio_record_info *info);

/* Read up to n bytes of the current record's payload from the current
 * position; *got receives the bytes read (0 at the end of the payload). */
int lattio_lime_reader_read(lattio_lime_reader *r, void *buf, size_t n, size_t *got);

/* Read exactly n bytes at `offset` within the current record's payload.
 * ERR_RECORD_OVERRUN if offset + n exceeds the payload length. Does not move
 * the sequential position. */
int lattio_lime_reader_read_at(lattio_lime_reader *r, uint64_t offset, void *buf, size_t n);

/* Set the sequential position inside the current payload (0..length). */
int lattio_lime_reader_seek(lattio_lime_reader *r, uint64_t offset);

/* Size of the file in bytes. */
uint64_t lattio_lime_reader_file_size(const lattio_lime_reader *r);

/* --- Serial writer ------------------------------------------------------ */

typedef struct lattio_lime_writer lattio_lime_writer;

enum lattio_lime_writer_mode {
    LATTIO_LIME_CREATE = 0,     /* create or replace */
    LATTIO_LIME_APPEND = 1,     /* append after the existing records (created if absent) */
    LATTIO_LIME_IN_PLACE = 0x10, /* flag: CREATE writes under the final name directly */
    LATTIO_LIME_DURABLE = 0x20   /* flag: fsync the file (and directory) once at close */
};

/* Open for writing; mode is CREATE or APPEND, optionally or-ed with flags.
 * CREATE writes to a temporary file in the same directory ("PATH.lattio-tmp.*")
 * that a successful close renames to PATH: until then, and whenever the write
 * fails, the previous PATH is untouched and the temporary file is removed.
 * APPEND writes in place after checking that every existing record is intact
 * (its format error otherwise); a missing final padding is filled in.
 * Errors: ERR_ARG, ERR_OPEN, ERR_NOMEM, format errors in APPEND mode. */
int lattio_lime_writer_open(const char *path, int mode, lattio_lime_writer **out);

/* Begin a record of exactly `length` payload bytes.  mb/me are the message
 * flags.  ERR_STATE if the previous record is not complete. */
int lattio_lime_writer_begin(lattio_lime_writer *w, const char *type, uint64_t length, int mb,
                             int me);

/* Append n payload bytes.  ERR_RECORD_OVERRUN if that goes beyond the
 * declared length (nothing is written then). */
int lattio_lime_writer_write(lattio_lime_writer *w, const void *buf, size_t n);

/* Finish the record: writes the padding.  ERR_RECORD_SHORT if fewer than
 * `length` bytes were written. */
int lattio_lime_writer_end(lattio_lime_writer *w);

/* Convenience: begin + write + end of a whole record from memory. */
int lattio_lime_writer_record(lattio_lime_writer *w, const char *type, const void *data,
                              uint64_t length, int mb, int me);

/* Offset at which the next record header will be written. */
uint64_t lattio_lime_writer_offset(const lattio_lime_writer *w);

/* Close and, for CREATE, rename into place.  Any failed call since open
 * (a refused type or length, an overrun, a failed write) poisons the writer:
 * every later call returns ERR_STATE and close returns that first error;
 * ERR_RECORD_SHORT if a record is still open.  In both cases a CREATE file is
 * discarded (the previous file stays), an APPEND file keeps what was
 * written.  ERR_CLOSE, ERR_RENAME, ERR_SYNC from the system; ERR_SYNC_DIR
 * (durable CREATE): the new file is in place, its directory's sync failed
 * (lattio_close).  Accepts NULL. */
int lattio_lime_writer_close(lattio_lime_writer *w);

/* --- Structural check --------------------------------------------------- */

/* One problem found by lattio_lime_check. */
typedef struct lattio_problem {
    int status;       /* the specific lattio_status */
    int record;       /* 0-based record index, -1 if not tied to a record */
    uint64_t offset;  /* file offset the problem is at */
    char message[200];
} lattio_problem;

/* Check a LIME file's structure: magic, version, lengths within the file,
 * zero padding, NUL-terminated printable types, reserved bits, MB/ME
 * consistency, trailing bytes.  Up to `max` problems are stored in
 * problems[]; *count receives how many were found in total (may exceed max).
 * *nrecords (may be NULL) receives the number of complete records.
 * Returns LATTIO_OK when the file is clean, the status of the first problem
 * otherwise, or an I/O error (ERR_OPEN, ERR_READ) when the file cannot be read. */
int lattio_lime_check(const char *path, lattio_problem *problems, size_t max, size_t *count,
                      size_t *nrecords);

/* ------------------------------------------------------------------------ */
/* Layout arithmetic (MPI-free): boxes, decompositions, site ranks, offsets  */
/* ------------------------------------------------------------------------ */

/*
 * A distributed lattice, as one rank sees it.  Dimensions are named by their
 * "lattice" index d = 0..ndims-1 (the caller's order, e.g. the Cartesian
 * communicator's).  In the file the sites are stored lexicographically with
 * file dimension 0 slowest; file_order[i] names the lattice dimension stored
 * as file dimension i (Lemon's "mapping"; tmLQCD passes {0,3,2,1}).  The
 * caller's local buffer holds this rank's box plus ghost layers, with memory
 * dimension 0 slowest; mem_order[i] names the lattice dimension that is memory
 * dimension i (Lemon: the local buffer is already in file order, so
 * mem_order = file_order).  A site is site_bytes opaque bytes.
 * A site's file rank is its lexicographic index in file order (for ILDG/SciDAC
 * files with file order t,z,y,x this is SciDAC's r = x + Lx*(y + Ly*(z + Lz*t))).
 */
#define LATTIO_MAX_DIMS 8

typedef struct lattio_layout {
    int ndims;                         /* 1 .. LATTIO_MAX_DIMS */
    uint64_t global[LATTIO_MAX_DIMS];  /* global extent of each lattice dimension */
    uint64_t lo[LATTIO_MAX_DIMS];      /* first global coordinate this rank owns */
    uint64_t count[LATTIO_MAX_DIMS];   /* sites this rank owns (0 in any: owns nothing) */
    uint64_t halo_lo[LATTIO_MAX_DIMS]; /* ghost layers before the interior in the buffer */
    uint64_t halo_hi[LATTIO_MAX_DIMS]; /* ghost layers after the interior */
    int file_order[LATTIO_MAX_DIMS];   /* lattice dimension of file dimension i */
    int mem_order[LATTIO_MAX_DIMS];    /* lattice dimension of memory dimension i */
    size_t site_bytes;                 /* bytes per site, >= 1 */
} lattio_layout;

/* Local.  Fill *l for `ndims` dimensions with global extents `global`, this
 * rank's box (lo, count), no halos, identity file and memory orders.
 * Errors: ERR_ARG, ERR_LAYOUT (box outside the lattice, zero extent, ...),
 * ERR_OVERFLOW (sizes that do not fit 64 bits). */
int lattio_layout_init(lattio_layout *l, int ndims, const uint64_t *global, const uint64_t *lo,
                       const uint64_t *count, size_t site_bytes);

/* Local.  Validate every field (orders are permutations, box inside the
 * lattice, products fit in 64 bits).  ERR_LAYOUT / ERR_OVERFLOW. */
int lattio_layout_check(const lattio_layout *l);

/* Local.  Block decomposition of `extent` sites over `parts` parts, the
 * first extent % parts parts one site larger: part `index` gets [*lo, *lo+*count).
 * 10 sites over 3 parts: 4, 3, 3.  More parts than sites: some get 0. */
int lattio_split(uint64_t extent, uint64_t parts, uint64_t index, uint64_t *lo, uint64_t *count);

/* Local.  Slab `index` of `parts` (lattio_split) of the slowest dimension
 * of a field of nd dimensions (dims x fastest, t slowest; file order =
 * memory order), `elements` native doubles per site: the layout the
 * operations read and write whole files with (parts 1: the whole field).
 * Errors: ERR_ARG, ERR_LAYOUT. */
int lattio_layout_slab_of(int nd, const uint64_t *dims, uint64_t elements, uint64_t parts, uint64_t index,
                          lattio_layout *l);

/* Local.  Sites in the whole lattice / in this rank's box / in the local
 * buffer including ghosts. */
uint64_t lattio_layout_global_sites(const lattio_layout *l);
uint64_t lattio_layout_local_sites(const lattio_layout *l);
uint64_t lattio_layout_buffer_sites(const lattio_layout *l);

/* Local.  File rank of the site with global lattice coordinates coord[]. */
uint64_t lattio_layout_file_rank(const lattio_layout *l, const uint64_t *coord);

/* Local.  This rank's sites are numbered 0..local_sites-1 in increasing file
 * rank.  Copy sites [first, first+n) of that numbering from the caller's
 * buffer `local` (memory order, with ghosts) into `packed` (n * site_bytes,
 * file order), or back. */
int lattio_layout_pack(const lattio_layout *l, const void *local, uint64_t first, uint64_t n,
                       void *packed);
int lattio_layout_unpack(const lattio_layout *l, const void *packed, uint64_t first, uint64_t n,
                         void *local);

/* One contiguous piece of the file: `bytes` bytes at file byte offset
 * `file_offset` (relative to the start of the lattice's data), holding the
 * packed sites starting at packed byte offset `packed_offset` (relative to
 * site `first` of the call, as lattio_layout_pack(l, .., first, n, packed)
 * lays them out). */
typedef struct lattio_run {
    uint64_t file_offset;
    uint64_t packed_offset;
    uint64_t bytes;
} lattio_run;

/* Local.  The file pieces of this rank's sites [first, first+n) in the
 * numbering above, merged into maximal contiguous runs and written to
 * runs[0..max).  *nruns receives the total number of runs (which may exceed
 * max: call again with more room, or with a smaller n). */
int lattio_layout_runs(const lattio_layout *l, uint64_t first, uint64_t n, lattio_run *runs,
                       size_t max, size_t *nruns);

/* Task-local container (MPI-free part, src/container)                      */
/* ------------------------------------------------------------------------ */

/*
 * A container holds one byte stream per task in one file (docs/format.md,
 * section 8): each task owns one chunk per block, chunks are aligned to the
 * file-system block size, a stream grows by new blocks of chunks, and every
 * chunk ends with a trailer written as soon as the chunk is full, so a
 * container whose writer died is readable up to each task's last full chunk
 * (open it with LATTIO_CONTAINER_RECOVER).
 */
#define LATTIO_CONTAINER_VERSION 1

/* Flags of lattio_container_open_serial. */
enum lattio_container_flags {
    LATTIO_CONTAINER_RECOVER = 1,  /* accept a container without footer (writer
                                      killed, file cut): each stream ends before
                                      its first missing or damaged chunk */
    LATTIO_CONTAINER_NO_VERIFY = 2 /* do not verify chunk data CRCs and stream
                                      CRCs when reading */
};

/* Metadata of a container. */
typedef struct lattio_container_info {
    int version;
    uint32_t ntasks;
    uint32_t nfiles;
    uint64_t align;    /* alignment of chunks (file-system block size) */
    uint64_t chunk;    /* data bytes per chunk */
    uint64_t stride;   /* bytes per chunk including its 64-byte trailer */
    uint64_t nblocks;  /* blocks of chunks (largest over tasks and files; when
                          recovered, largest found) */
    int complete;      /* closed properly: every file's footer present, every
                          stream final */
    int stream_crcs;   /* final trailers carry a CRC-32 of the whole stream */
    uint64_t id;       /* container id (equal in every physical file) */
} lattio_container_info;

/* One physical file of a container (PATH, PATH.000001, ...). */
typedef struct lattio_container_file_info {
    uint32_t index;       /* 0 .. nfiles-1 */
    uint32_t first_task;  /* tasks first_task .. first_task + tasks - 1 */
    uint32_t tasks;
    uint64_t align, stride, data_start; /* this file's geometry (header fields) */
    uint64_t nblocks;     /* footer's blocks, or the largest found when recovered */
    uint64_t size;        /* bytes of the file */
    int closed;           /* a valid footer matching the header and the size */
} lattio_container_file_info;

/* One task's stream, as found by the open (strict or recovered). */
typedef struct lattio_container_task_info {
    uint64_t bytes;    /* stream size */
    uint64_t blocks;   /* chunks holding it (blocks used; 0 only when recovery
                          found not even chunk 0) */
    int complete;      /* the last chunk carries the FINAL flag */
    int has_crc;       /* complete and the container records stream CRCs */
    uint32_t crc;      /* CRC-32 (zlib) of the whole stream when has_crc */
    uint32_t file;     /* index of the physical file holding the task */
} lattio_container_task_info;

/* One chunk, as its trailer describes it. */
typedef struct lattio_container_chunk_info {
    uint64_t file_offset;   /* of the chunk's first data byte in its physical file */
    uint64_t used;          /* data bytes */
    uint64_t stream_offset; /* of its first byte in the stream */
    uint32_t data_crc;      /* trailer's CRC-32 of the used bytes */
    int final;              /* FINAL flag */
} lattio_container_chunk_info;

typedef struct lattio_container_reader lattio_container_reader;

/* Local.  Open a container for serial reading of any task's stream.  `path`
 * is the container's name (its file 0); the other physical files of a
 * multi-file container, PATH.000001 ..., are opened with it.  flags: RECOVER,
 * NO_VERIFY.  Errors: ERR_ARG, ERR_OPEN, ERR_STAT, ERR_NOMEM, ERR_READ,
 * ERR_CONTAINER_MAGIC, ERR_CONTAINER_VERSION, ERR_CONTAINER (header or footer
 * fields out of range or contradicting each other or the file size),
 * ERR_CONTAINER_TRUNCATED (no footer: cut or never closed; RECOVER opens
 * it), ERR_CONTAINER_CHUNK (a chunk trailer missing or inconsistent in a
 * closed container), ERR_CONTAINER_FILES (path is not file 0, or the files
 * disagree: id, task count, file count, index or task ranges),
 * ERR_CONTAINER_MEMBER (a physical file is missing). */
int lattio_container_open_serial(const char *path, int flags, lattio_container_reader **out);
/* Accepts NULL. */
void lattio_container_reader_close(lattio_container_reader *r);
int lattio_container_reader_info(const lattio_container_reader *r, lattio_container_info *info);
/* Bytes in task `task`'s stream; *complete (may be NULL) is 1 when the
 * stream ended with its final chunk.  ERR_CONTAINER_TASK. */
int lattio_container_reader_size(const lattio_container_reader *r, uint32_t task, uint64_t *size,
                                 int *complete);
/* Read exactly n bytes at `offset` of task's stream.  ERR_CONTAINER_TASK,
 * ERR_RECORD_OVERRUN (beyond the stream), ERR_READ, ERR_CONTAINER_CHECKSUM
 * (unless NO_VERIFY: a chunk touched by the read fails its data CRC -- each
 * chunk is checked once, as a whole, the first time it is read, before any
 * of its bytes is returned (a chunk of up to 64 MiB read in part is kept in
 * a buffer of the reader, so it is read once); or the read reaches the
 * stream's end after reading it sequentially from 0 and the stream CRC
 * differs). */
int lattio_container_reader_read(lattio_container_reader *r, uint32_t task, uint64_t offset,
                                 void *buf, size_t n);
/* Local.  Describe physical file `index` (0 .. nfiles-1).  ERR_ARG beyond. */
int lattio_container_reader_file(const lattio_container_reader *r, uint32_t index,
                                 lattio_container_file_info *info);
/* Local.  Describe task `task`'s stream.  ERR_CONTAINER_TASK. */
int lattio_container_reader_task(const lattio_container_reader *r, uint32_t task,
                                 lattio_container_task_info *info);
/* Local.  Chunk `block` of task `task`: its trailer in *info (may be NULL)
 * and, when buf != NULL, its used data bytes into buf (cap bytes of room:
 * ERR_ARG when used > cap), verified against the trailer's CRC unless
 * NO_VERIFY (ERR_CONTAINER_CHECKSUM).  block must be below the task's
 * blocks: ERR_RECORD_OVERRUN otherwise.  ERR_CONTAINER_TASK. */
int lattio_container_reader_chunk(lattio_container_reader *r, uint32_t task, uint64_t block,
                                  lattio_container_chunk_info *info, void *buf, size_t cap);
/* Local.  CRC-32 of task's whole stream recorded at close: ERR_NOT_FOUND
 * when the container has none for it (older container, or an incomplete
 * stream).  ERR_CONTAINER_TASK. */
int lattio_container_reader_stream_crc(const lattio_container_reader *r, uint32_t task,
                                       uint32_t *crc);

/* A serial writer (post-processing tools, tests): one process writes every
 * task's stream, directly under `path` (no temporary).  chunk_hint: data
 * bytes per chunk wanted (rounded up so chunk + trailer fill whole aligned
 * blocks); align 0 detects the file system's block size. */
typedef struct lattio_container_writer lattio_container_writer;
int lattio_container_create_serial(const char *path, uint32_t ntasks, uint64_t chunk_hint,
                                   uint64_t align, lattio_container_writer **out);
/* Append n bytes to task's stream (any order between tasks). */
int lattio_container_writer_write(lattio_container_writer *w, uint32_t task, const void *buf,
                                  size_t n);
/* Write every stream's final trailer and the footer, close.  Accepts NULL. */
int lattio_container_writer_close(lattio_container_writer *w);

/* Options of lattio_container_create_serial_ex. */
typedef struct lattio_container_serial_options {
    uint64_t chunk_hint; /* data bytes per chunk (as create_serial); defrag: the
                            largest stream gives one chunk per task */
    uint64_t align;      /* 0: detected; else a power of two in [64, 2^26] */
    uint32_t nfiles;     /* physical files, 0 or 1: one; tasks are split into
                            contiguous ranges, file f holding tasks from
                            ceil(f * ntasks / nfiles) on */
    const uint32_t *first_tasks; /* NULL, or nfiles entries: the first task of
                            each file (strictly increasing from 0), overriding
                            the even split */
    uint64_t id;         /* container id; 0: a new random one */
} lattio_container_serial_options;
/* Local.  A serial writer creating PATH (and PATH.000001, ... for several
 * files) directly under their names.  opt NULL: as create_serial with
 * chunk_hint 0 and detected alignment.  ERR_ARG (nfiles > ntasks, bad
 * first_tasks or align), ERR_OPEN, ERR_OVERFLOW. */
int lattio_container_create_serial_ex(const char *path, uint32_t ntasks,
                                      const lattio_container_serial_options *opt,
                                      lattio_container_writer **out);

/* Per-task result of lattio_container_repair. */
typedef struct lattio_container_repair_report {
    uint32_t ntasks;
    uint32_t nfiles;
    int was_complete;   /* the container was whole: nothing was rewritten */
    uint64_t *sizes;    /* [ntasks] recovered stream bytes; free with
                           lattio_container_repair_report_free */
    int *complete;      /* [ntasks] 1 when the task's stream had ended (FINAL) */
} lattio_container_repair_report;

/* Local.  Make a container whose writer was killed (no footer, cut, chunks
 * after the last complete one missing or damaged) whole again: each task
 * keeps its stream as RECOVER reads it, further cut before the first chunk
 * whose data fails its CRC (unless flags has NO_VERIFY).  The repaired
 * container is written to "OUT.lattio-tmp.*" (and its member files) with
 * the same id and geometry, read back and compared, then renamed to `out`
 * (NULL: `path`, replacing it; every member file is renamed, file 0 last).
 * The input is never modified, so a repair that fails or is killed leaves
 * it as it was.  A container that opens strictly is left alone
 * (report->was_complete) when out is NULL, copied otherwise.  report may be
 * NULL.  Errors: as lattio_container_open_serial with RECOVER, ERR_WRITE,
 * ERR_RENAME. */
int lattio_container_repair(const char *path, const char *out, int flags,
                            lattio_container_repair_report *report);
/* Accepts NULL; frees the arrays and zeroes the report. */
void lattio_container_repair_report_free(lattio_container_repair_report *report);

/* ------------------------------------------------------------------------ */
/* ------------------------------------------------------------------------ */
/* Lattice fields (MPI-free): checksum values, real formats, ILDG/SciDAC    */
/* record sets, a serial reference reader, gauge observables                */
/* ------------------------------------------------------------------------ */

/* --- checksum values (computed by the field calls) ---------------------- */

/* A SciDAC checksum (docs/format.md): per site, CRC-32 of its bytes as
 * stored, rotated by its global rank mod 29 (suma) and mod 31 (sumb), XORed
 * over the sites. */
typedef struct lattio_scidac_sum {
    uint32_t suma;
    uint32_t sumb;
} lattio_scidac_sum;

/* Qlua's lattice checksum (its HDF5 ".sha256" attribute): for every site,
 * SHA-256 of le64(nd), le64(c_0) ... le64(c_{nd-1}) (the site's global
 * coordinates in the dataset's dimension order, slowest first: x, y, z, t
 * for Qlua's [Lx][Ly][Lz][Lt]) and the site's reals as little-endian IEEE
 * numbers; the 32-byte digests of all sites XORed together, so partial
 * sums combine by XOR in any order.  SHA-256 is OpenSSL's (libcrypto). */
typedef struct lattio_qlua_sum {
    unsigned char x[32];
} lattio_qlua_sum;

/* --- real formats ------------------------------------------------------- */

/* Representations of a real number.  Files store big-endian (BE). */
enum lattio_real_format {
    LATTIO_REAL_F32_NATIVE = 1,
    LATTIO_REAL_F64_NATIVE = 2,
    LATTIO_REAL_F32_BE = 3,
    LATTIO_REAL_F64_BE = 4,
    LATTIO_REAL_F32_LE = 5,
    LATTIO_REAL_F64_LE = 6
};

/* Bytes of one element of format `fmt`; 0 for an unknown format. */
size_t lattio_real_size(int fmt);

/* --- ILDG / SciDAC record sets (src/field/recordset.c; local) ----------- */

enum lattio_field_kind {
    LATTIO_FIELD_GENERIC = 0,    /* any SciDAC lattice field */
    LATTIO_FIELD_ILDG_GAUGE = 1, /* an ildg-format record says su3gauge */
    LATTIO_FIELD_SU3_GAUGE = 2   /* SciDAC only: an SU(N) gauge field: datatype *ColorMatrix or
                                    Grid's *ColourMatrix<N>, colors N (none: 3), datacount 4;
                                    lattio_field_gauge_colors gives N */
};

#define LATTIO_FIELD_TEXT_MAX 64

/*
 * One field of a file (a binary record with its metadata), as read by
 * lattio_field_info_read or filled by a writer for lattio_field_payload.
 * Dimensions are x fastest: dims[0] = lx, dims[1] = ly, ... (a site's rank is
 * x + lx*(y + ly*(z + lz*t))).
 */
/* A text record of another writer (tmLQCD's xlf-info, Grid's grid-format)
 * that lattio writes back: its LIME type and its text, written as given (no
 * NUL added).  Writers take at most LATTIO_OTHER_RECORDS_MAX of them, each
 * a message of its own at the start of the file, before the SciDAC file
 * records; a type of 1 to 127 printable characters that is none of the
 * types lattio writes itself (scidac-*, ildg-*, lattio-*) and a text of at
 * most 16 MiB (ERR_ARG otherwise). */
typedef struct lattio_text_record {
    const char *type;
    const char *text;
} lattio_text_record;
#define LATTIO_OTHER_RECORDS_MAX 16

typedef struct lattio_field_info {
    int index;                  /* 0-based among the file's binary records */
    int kind;                   /* enum lattio_field_kind */
    int nd;                     /* number of dimensions */
    uint64_t dims[LATTIO_MAX_DIMS];
    uint64_t volume;            /* product of dims */
    int precision;              /* bits of one real: 32 or 64; 0 for I/S data */
    char precision_code;        /* SciDAC 'F', 'D', 'I' or 'S'; 0 when absent */
    int recordtype;             /* 0 lattice field, 1 global data, 2 subset */
    char datatype[LATTIO_FIELD_TEXT_MAX];  /* "QDP_D3_ColorMatrix", ... */
    char date[LATTIO_FIELD_TEXT_MAX];      /* private record's date */
    char record_version[8];     /* "1.0" (globaldata) or "1.1" (recordtype) */
    int colors, spins;          /* 0 when absent */
    uint64_t typesize;          /* bytes of one datum */
    uint64_t datacount;         /* datums per site */
    lattio_record_info binary;  /* the binary record (offset, length, type) */
    int has_checksum;           /* a scidac-checksum record follows the binary record */
    lattio_scidac_sum stored;   /* its suma/sumb */
    int has_ildg_format, has_private_file, has_private_record;
    int ildg_colors;            /* N of ildg-format's <field>su<N>gauge</field> (0: none) */
    char *lfn;                  /* ildg-data-lfn text, trailing NULs removed; NULL if none */
    char *file_xml;             /* scidac-file-xml payload (user text); NULL if none */
    char *record_xml;           /* scidac-record-xml payload (user text); NULL if none */
    int volfmt;                 /* the private file XML's QIO volume format (enum lattio_volfmt) */
    /* subset records (recordtype 2): the hypercube's corners, inclusive,
     * x first; the record holds its sites in lexicographic order */
    int hyper_nd;
    uint64_t hyper_lower[LATTIO_MAX_DIMS], hyper_upper[LATTIO_MAX_DIMS];
    /* tmLQCD's fields: the etmc-propagator-format or etmc-source-format
     * record (its number from 1, as the tools count records; 0 when none) that gave the dims and
     * precision of a binary record without SciDAC private metadata, its
     * <flavours>, and the <lz> it wrote when that was not the lattice's
     * (tmLQCD writes lx there; the record's length gives lz) */
    int etmc_record;
    int etmc_flavours;
    uint64_t etmc_lz_written;
    /* writing: other writers' records put before the file's first set */
    const lattio_text_record *other;
    int n_other;
} lattio_field_info;

/* Sites a binary record of fi holds: the volume for a lattice field, 1
 * for global data, the hypercube's for a subset. */
uint64_t lattio_field_record_sites(const lattio_field_info *fi);

/* N of a gauge field (ILDG_GAUGE or SU3_GAUGE kind): its ildg-format's
 * su<N>gauge, else its colors, else 3; 0 for any other field. */
int lattio_field_gauge_colors(const lattio_field_info *fi);

/* Free the strings of *fi (not fi itself) and zero them.  Accepts NULL. */
void lattio_field_info_free(lattio_field_info *fi);

/* Number of fields (scidac-binary-data / ildg-binary-data records) in the file. */
int lattio_field_count(lattio_lime_reader *r, int *count);

/* Other writers' text records before the binary record of field `field`
 * (0-based among the binary records; -1: the whole file): every record of
 * a type lattio does not write itself (not scidac-*, ildg-*, lattio-*, a
 * binary record or tmLQCD's format records, which describe the field)
 * whose type a writer takes (lattio_text_record) and whose payload is text
 * (no NUL but trailing ones, which are dropped; at most 16 MiB), in file
 * order, the first LATTIO_OTHER_RECORDS_MAX into *out (type and text
 * copied; free with lattio_text_records_free), *n of them; *left counts
 * the others (after that binary record, beyond the maximum, a type no
 * writer takes, or not text).  Errors: ERR_NOMEM, I/O errors. */
int lattio_field_other_records(lattio_lime_reader *r, int field, lattio_text_record **out, int *n, int *left);
void lattio_text_records_free(lattio_text_record *recs, int n);

/*
 * Describe field `index` (0-based) of the file.  Records are found by type,
 * not position: the metadata of a field are the records of each type
 * between the previous binary record and its own (the last of a type written
 * twice, as Grid does, wins); its checksum is the first
 * scidac-checksum after it and before the next binary record; file metadata
 * come from the file's first scidac-private-file-xml and scidac-file-xml.
 * Accepts QIO (trailing NULs), MILC (through QIO), tmLQCD (pretty XML,
 * xlf-info, no LFN, no SciDAC private records) and Grid record sets.  Dims
 * come from ildg-format (lx..lt) or the private file XML (any nd); element
 * sizes from the private record XML, or for an ILDG gauge field without one
 * from its precision (typesize 18 * precision / 8, datacount 4).  A binary
 * record with neither (tmLQCD's propagators and sources) takes dims and
 * precision from the etmc-propagator-format or etmc-source-format record
 * before it that still has flavours to give (<flavours> binary records
 * follow one record): a Dirac fermion, datatype USQCD_<F|D>3_DiracFermion,
 * 4 spins and 3 colours; tmLQCD writes <lz> as lx in
 * etmc-propagator-format, so where that <lz> equals <lx> and the record's
 * length needs another lz, the length gives it (etmc_lz_written keeps the
 * written one).
 * Errors: ERR_NOT_FOUND (no such field), ERR_BAD_XML (metadata unreadable),
 * ERR_BAD_METADATA (dims or sizes missing or zero), ERR_FIELD_DIMS (dims
 * differ between records), ERR_FIELD_PRECISION (precision and element size
 * disagree), ERR_FIELD_LENGTH (binary length != volume * typesize *
 * datacount), ERR_FIELD_TYPESIZE (a USQCD/QDP datatype of the field-type
 * table whose colors and spins give another typesize: the detail names the
 * field, its record and both sizes), ERR_OVERFLOW, ERR_NOMEM, I/O and LIME
 * format errors.
 * On success free *fi with lattio_field_info_free; on error it is freed.
 */
int lattio_field_info_read(lattio_lime_reader *r, int index, lattio_field_info *fi);

/* --- field types (src/field/types.c; local) ----------------------------- */

/* The fields the community writes, by QIO's USQCD conventions (datatype
 * USQCD_<F|D><Nc>_<stem>, or USQCD_<F|D>_<stem> without colour; QDP_ is read
 * too) and QDP++'s site layouts (spin indices before colour ones, sink
 * before source): a datum's axes, slowest first, are `kinds` (S a spin
 * index of extent spins, default 4; C a colour index of extent colors,
 * default 3), complex or real; typesize = the product of the extents x (2
 * if complex) x precision / 8; datacount counts datums per site (a gauge
 * field: 4 colour matrices).  A staggered propagator is stored as a colour
 * matrix (sink, source). */
enum lattio_field_type_id {
    LATTIO_TYPE_COLOR_MATRIX = 1,
    LATTIO_TYPE_COLOR_VECTOR,
    LATTIO_TYPE_DIRAC_FERMION,
    LATTIO_TYPE_DIRAC_PROPAGATOR,
    LATTIO_TYPE_STAGGERED_PROPAGATOR,
    LATTIO_TYPE_COMPLEX,
    LATTIO_TYPE_REAL
};
#define LATTIO_TYPE_MAX_AXES 4
#define LATTIO_TYPE_MAX_EXTENT 64

typedef struct lattio_field_type {
    int id;            /* enum lattio_field_type_id */
    const char *name;  /* "propagator": the name the command and Python take */
    const char *stem;  /* "DiracPropagator" */
    const char *kinds; /* "SSCC" */
    int is_complex;    /* 1: complex numbers, 0: reals */
    const char *axes;  /* the datum's axis names, space-separated */
} lattio_field_type;

/* The type of a name, of a SciDAC datatype (USQCD_/QDP_ prefixes; NULL for
 * any other, e.g. Chroma's "Lattice"), or the i-th of the table (NULL past
 * its end). */
const lattio_field_type *lattio_field_type_by_name(const char *name);
const lattio_field_type *lattio_field_type_of(const char *datatype);
const lattio_field_type *lattio_field_type_at(int i);
/* A datum's shape (rank axes) and typesize for colors and spins (0: the
 * defaults 3 and 4).  ERR_ARG. */
int lattio_field_type_datum(const lattio_field_type *t, int colors, int spins, int precision,
                            int shape[LATTIO_TYPE_MAX_AXES], int *rank, uint64_t *typesize);
/* The datatype QIO writes: "USQCD_D3_DiracPropagator", "USQCD_F_Complex".
 * ERR_ARG, ERR_OVERFLOW. */
int lattio_field_type_datatype(const lattio_field_type *t, int colors, int precision, char *out, size_t size);

/* The site of a field, the axes after its lattice ones (t z y x for 4-D):
 * the shape `lattio info --fields`, Python's load and lattio.open give. */
typedef struct lattio_field_site {
    const char *type;    /* a name of the table, "gauge", or NULL (untyped) */
    int is_complex;      /* the values are complex numbers */
    int rank;            /* axes of a site */
    uint64_t shape[LATTIO_TYPE_MAX_AXES + 1];
    char axes[128];      /* their names, space-separated: "datum spin color";
                          * a gauge field "mu row col"; untyped "s0 s1" */
} lattio_field_site;
/* A gauge field: (4, 3, 3); a datatype of the table: its datum's axes,
 * after a `datum` axis when datacount > 1; any other: a datacount axis when
 * > 1, then its reals per datum (one axis; as complex numbers when even and
 * the datatype does not end in Real or _real; a ColorMatrix of N x N
 * complex numbers as two).  ERR_UNSUPPORTED for a field that is not 32/64-bit
 * reals (SciDAC 'I', 'S'), ERR_ARG. */
int lattio_field_site_of(const lattio_field_info *fi, lattio_field_site *s);

/* Payloads of the strict QIO record set, in file order. */
enum lattio_field_record {
    LATTIO_REC_PRIVATE_FILE_XML = 0, /* scidac-private-file-xml */
    LATTIO_REC_FILE_XML,             /* scidac-file-xml (fi->file_xml verbatim) */
    LATTIO_REC_PRIVATE_RECORD_XML,   /* scidac-private-record-xml (version 1.1) */
    LATTIO_REC_RECORD_XML,           /* scidac-record-xml (fi->record_xml verbatim) */
    LATTIO_REC_ILDG_FORMAT,          /* ildg-format (ILDG gauge fields, 4-D) */
    LATTIO_REC_ILDG_LFN,             /* ildg-data-lfn (fi->lfn) */
    LATTIO_REC_CHECKSUM              /* scidac-checksum (fi->stored) */
};

/* The LIME type of a record of the set ("scidac-checksum"); NULL if unknown. */
const char *lattio_field_record_type(int record);

/* Build the payload of `record` for field *fi, exactly as QIO writes it
 * (XML declaration, no white space between elements, a trailing NUL counted
 * in the length).  Text values are escaped; the user XML is written as
 * given.  The payload goes to out (size bytes); *length receives its length
 * including the NUL (call with out = NULL, size = 0 to ask).  Errors:
 * ERR_ARG (unknown record, missing fields: e.g. ILDG_FORMAT for a field
 * that is not 4-D), ERR_OVERFLOW (out too small). */
int lattio_field_payload(const lattio_field_info *fi, int record, char *out, size_t size,
                         size_t *length);

/*
 * A field as the caller holds it and as it goes to the file.  The caller's
 * layout describes memory: site_bytes = elements * size of mem_format, any
 * decomposition, halos and memory order.  Its lattice dimensions map to the
 * file through layout.file_order; for ILDG/SciDAC files file dimension 0 is
 * the slowest (t for a 4-D field: file_order = {t, z, y, x} in the caller's
 * numbering), so a site's file rank is SciDAC's x + lx*(y + ly*(z + lz*t)).
 * A gauge field's site is 4 links (mu = x, y, z, t) of 3x3 complex row-major
 * reals: elements 72, datacount 4.
 */
typedef struct lattio_field_desc {
    int kind;             /* LATTIO_FIELD_ILDG_GAUGE: ILDG record set (ildg-format, ildg-data-lfn,
                             ildg-binary-data); otherwise SciDAC (scidac-binary-data) */
    int mem_format;       /* LATTIO_REAL_F32_NATIVE or LATTIO_REAL_F64_NATIVE */
    int disk_format;      /* writing: LATTIO_REAL_F32_BE or LATTIO_REAL_F64_BE */
    uint64_t elements;    /* reals per site */
    uint64_t datacount;   /* datums per site (typesize = elements / datacount reals) */
    const char *datatype; /* SciDAC datatype; NULL: USQCD_F3_ColorMatrix / _D3_ (gauge) or
                             lattio_F_real / lattio_D_real */
    int colors, spins;    /* private record XML (0: omitted); gauge fields: 3 colours */
    const char *lfn;      /* ildg-data-lfn; NULL: "lattio" */
    const char *file_xml, *record_xml; /* user XML written verbatim; NULL: a short default */
    const char *date;     /* private record date; NULL: now (UTC) */
    uint64_t staging_bytes; /* bound of each of the two conversion buffers per rank; 0: the environment's
                               LATTIO_STAGING_BYTES, else the strategy's own: 2 MiB slabs
                               (LATTIO_FIELD_STAGING_DEFAULT: the converted bytes are still in
                               the cache when written) for the independent strategy, 16 MiB
                               rounds for the collective one (at least one site) */
    int verify;           /* writing: re-read the binary record and compare its checksum */
    int verify_retries;   /* writing: rewrites allowed after a failed verification */
    int skip_checksum;    /* reading: do not compare with the stored checksum */
    int require_checksum; /* reading: a missing scidac-checksum is ERR_NO_CHECKSUM */
    const lattio_text_record *other; /* writing: other writers' records (lattio_text_record), */
    int n_other;                     /* written with the file's first field; not into volume sets */
} lattio_field_desc;

#define LATTIO_FIELD_STAGING_DEFAULT (UINT64_C(2) << 20)

/* A gauge field (kind ILDG_GAUGE, 72 elements, datacount 4, 3
 * colours) when kind is ILDG_GAUGE or SU3_GAUGE, else a generic field of
 * `elements` reals (datacount 1); memory and disk formats as given. */
void lattio_field_desc_default(lattio_field_desc *d, int kind, int mem_format, int disk_format,
                               uint64_t elements);

/* --- serial reference reader (src/field/serial.c; local) ---------------- */

/* Read field *fi (from lattio_field_info_read on the same reader) in
 * bounded chunks, compute its SciDAC checksum into *computed (may be NULL)
 * and, when out != NULL, convert it to native doubles: out receives
 * volume * typesize * datacount / (precision / 8) values in file order
 * (n_out must be at least that; ERR_ARG otherwise; precision must be 32 or
 * 64 then).  When the file stores a checksum and it differs: ERR_CHECKSUM
 * (the trace names the binary record and both sums; out is filled anyway). */
int lattio_field_read_double(lattio_lime_reader *r, const lattio_field_info *fi, double *out,
                             uint64_t n_out, lattio_scidac_sum *computed);

/* The same into native reals of mem_format (LATTIO_REAL_F32_NATIVE or
 * LATTIO_REAL_F64_NATIVE; values: n_out of them, or NULL to checksum only):
 * the serial whole-field read of the Python package. */
int lattio_field_read_values(lattio_lime_reader *r, const lattio_field_info *fi, int mem_format,
                             void *values, uint64_t n_out, lattio_scidac_sum *computed);

/* Write one whole field serially to `path`: the record set
 * lattio_field_write writes for *d (ILDG for kind LATTIO_FIELD_ILDG_GAUGE,
 * else SciDAC; d->verify: the binary record is read back before the rename
 * and its checksum compared, ERR_VERIFY; retries and staging unused) from
 * `values`, the whole lattice of layout l (lo 0, count = global, no halo,
 * file order = memory order) in mem_format.  Written under a temporary name
 * next to `path` and renamed when complete, so a failure leaves a previous
 * file untouched.  Errors: ERR_ARG, ERR_LAYOUT, ERR_OVERFLOW, ERR_NOMEM,
 * ERR_OPEN, ERR_WRITE, ERR_READ, ERR_VERIFY, ERR_RENAME. */
int lattio_field_write_serial(const char *path, const lattio_field_desc *d, const lattio_layout *l,
                              const void *values);
/* The same for n fields of one descriptor in one file (QIO's multi-record
 * file, e.g. an eigenvector set): the file's header records once, then each
 * field's record set with its own checksum, read back by
 * lattio_field_info_read / lattio_field_read with index 0..n-1.  The errors
 * of lattio_field_write_serial; ERR_ARG for n < 1. */
int lattio_fields_write_serial(const char *path, const lattio_field_desc *d, const lattio_layout *l, int n,
                               const void *const *values);

/* Open `path`, describe field `index` and verify its checksum.  *fi (may be
 * NULL) receives the description (free it with lattio_field_info_free).
 * Errors: those of lattio_field_info_read and _read_double, ERR_NO_CHECKSUM
 * when the file stores none (the computed sum is still in *computed). */
int lattio_field_verify(const char *path, int index, lattio_field_info *fi,
                        lattio_scidac_sum *computed);

/* --- QIO volume sets (src/volumes; local) ------------------------------- */

/*
 * QIO writes a field also as a set of volumes, one file per node (multifile)
 * or per I/O partition (partfile): BASE.vol0000, BASE.vol0001, ... (partfile
 * in directories: DIR/vol0000/NAME for BASE = DIR/NAME), named after the
 * node that wrote them.  Volume 0 holds the file's and every record's
 * metadata and checksums, each volume a scidac-sitelist (the lexicographic
 * ranks of its sites, big-endian, 32 bits or 64) and one binary record per
 * lattice field with its sites in that order (docs/format.md, "QIO
 * volumes").  lattio reads any such set whatever wrote it and whatever the
 * number of readers: the site lists must hold every site exactly once
 * (ERR_VOLUME_SITES), every volume its binary records (ERR_VOLUME_MISSING).
 */
enum lattio_volfmt {
    LATTIO_VOLFMT_SINGLE = 0,  /* one file */
    LATTIO_VOLFMT_MULTI = 1,   /* one volume per node, sites in the node's order */
    LATTIO_VOLFMT_PART = 2,    /* one volume per I/O partition, sites in lexicographic order */
    LATTIO_VOLFMT_PART_DIR = 3 /* partfile, volume k in directory volKKKK */
};
#define LATTIO_VOLUMES_MAX 65536 /* volumes lattio reads or writes in one set */

/* The name of volume `number` of set `base` in format volfmt (1 .. 3) into
 * out[size].  ERR_ARG, ERR_OVERFLOW. */
int lattio_volumes_name(const char *base, int volfmt, int number, char *out, size_t size);

typedef struct lattio_volumes lattio_volumes;

/* What lattio_volumes_open found. */
typedef struct lattio_volumes_info {
    int volfmt;      /* 1 .. 3 */
    int volumes;     /* files in the set */
    int fields;      /* binary records of volume 0 (lattice fields and global data) */
    int nd;
    uint64_t dims[LATTIO_MAX_DIMS]; /* x fastest */
    uint64_t volume;
    int max_number;  /* the largest volume number */
} lattio_volumes_info;

/* Open the set `base`: finds its volumes, reads every volume's records and
 * site list and checks that they cover every site once and that each holds
 * a binary record of the right length for every lattice field of volume 0
 * (a subset record's length is checked when it is read).  Errors: ERR_OPEN
 * (no volume 0; the detail names the names tried), ERR_VOLUME_MISSING,
 * ERR_VOLUME_SITES, ERR_FIELD_LENGTH, ERR_BAD_METADATA (volume 0 says
 * volfmt 0), ERR_UNSUPPORTED (more than LATTIO_VOLUMES_MAX volumes), the
 * LIME reader's and lattio_field_info_read's (each naming the volume). */
int lattio_volumes_open(const char *base, lattio_volumes **out);
void lattio_volumes_close(lattio_volumes *v);
int lattio_volumes_describe(const lattio_volumes *v, lattio_volumes_info *vi);
/* Volume i (0 .. volumes-1, by number) of the set: its number, sites and
 * file name (valid until lattio_volumes_close). */
int lattio_volumes_volume(const lattio_volumes *v, int i, int *number, uint64_t *sites, const char **path);
/* 1 when `base` names a volume set (its volume 0 exists) and is no file itself. */
int lattio_volumes_probe(const char *base);
/* "multifile", "partfile" or "partfile-dir" (LATTIO_VOLFMT_MULTI, _PART, _PART_DIR). */
const char *lattio_volfmt_name(int volfmt);

/* Local, MPI-free.  A set is published as one unit (docs/format.md 5.5):
 * its new volumes are complete under temporary names, then a journal
 * BASE.lattio-publish (written and renamed into place) lists the renames
 * and the removals (the older set's extra volumes, a set of the other
 * naming, a single file at BASE) before any is made, and is removed after
 * the last.  A writer killed after the journal leaves it: readers of BASE
 * get ERR_INTERRUPTED, and this call carries the journal out (every
 * rename and removal it lists, idempotent), so BASE holds the new set.
 * *done (may be NULL) is 1 when there was a journal, 0 otherwise.
 * Errors: ERR_BAD_METADATA (a journal that does not name this set's
 * volumes: nothing is done), ERR_RENAME, ERR_WRITE, ERR_OPEN, ERR_READ. */
int lattio_volumes_recover(const char *base, int *done);
/* Field `index` (0-based among volume 0's binary records) as
 * lattio_field_info_read describes a single file's: dims of the whole
 * lattice, volfmt of the set; fi->binary is volume 0's part. */
int lattio_volumes_field_info(lattio_volumes *v, int index, lattio_field_info *fi);
/* The field's sites in lexicographic (file) order: file bytes (out:
 * volume * site bytes, or NULL) or native reals of mem_format (values,
 * n_out of them), every volume's part read, checksummed with its sites'
 * ranks and placed; the sum over all volumes in *computed (may be NULL)
 * and compared with the stored one (ERR_CHECKSUM naming the record). */
int lattio_volumes_read_bytes(lattio_volumes *v, int index, void *out, lattio_scidac_sum *computed);
int lattio_volumes_read_values(lattio_volumes *v, int index, int mem_format, void *values, uint64_t n_out,
                               lattio_scidac_sum *computed);
/* Join the set into one file `out` (a new file, renamed into place when
 * complete): volume 0's records in order, its private file XML with volfmt
 * 0, each lattice field's sites from every volume in lexicographic order,
 * each checksum verified: the bytes QIO_part_to_single writes. */
int lattio_volumes_join(const char *base, const char *out);

/* How lattio_volumes_split cuts a lattice: `grid` nodes per dimension (x
 * first; each divides the dims), numbered x fastest, and for partfile
 * formats `io_grid` I/O partitions per dimension (each divides grid; all
 * 0: one partition per node), as QIO's mesh converters define them. */
typedef struct lattio_volumes_plan {
    int volfmt;                 /* LATTIO_VOLFMT_MULTI, _PART or _PART_DIR */
    int nd;
    int grid[LATTIO_MAX_DIMS];
    int io_grid[LATTIO_MAX_DIMS];
} lattio_volumes_plan;

/* Split the single file `in` into the volume set `base` (each volume a new
 * file, all renamed into place only when every one is complete): a
 * partition's sites in lexicographic order, every record set's metadata in
 * volume 0, each lattice field's checksum verified on the way: the bytes
 * QIO_single_to_part writes (multifile: a node's sites in lexicographic
 * order).  Errors: ERR_ARG (plan), ERR_CHECKSUM, the reader's and
 * writer's. */
int lattio_volumes_split(const char *in, const char *base, const lattio_volumes_plan *p);

/* --- gauge observables (src/field/gauge.c; local) ----------------------- */

typedef struct lattio_gauge_stats {
    double plaquette;  /* Re tr U_p / N averaged over sites and the six planes */
    double link_trace; /* Re tr U / N averaged over all links */
    double unitarity;  /* max over links of max |(U^dagger U - 1)_ij| */
} lattio_gauge_stats;

/* Observables of a 4-D SU(3) gauge field u in ILDG order (native doubles:
 * site rank x fastest, then mu = 0..3 for x,y,z,t, then a 3x3 complex
 * row-major matrix as re,im pairs: 72 doubles per site), dims = lx,ly,lz,lt,
 * periodic boundaries.  Errors: ERR_ARG, ERR_OVERFLOW. */
int lattio_gauge_stats_compute(const double *u, const uint64_t dims[4], lattio_gauge_stats *out);
/* The same for N = colors (1 .. LATTIO_GAUGE_MAX_COLORS): N x N links,
 * 8 N^2 doubles per site, Re tr / N (HiRep's and Grid's normalisation:
 * 1 for the unit field). */
#define LATTIO_GAUGE_MAX_COLORS 16
int lattio_gauge_stats_compute_nc(const double *u, const uint64_t dims[4], int colors, lattio_gauge_stats *out);
/* N (1 .. LATTIO_GAUGE_MAX_COLORS) of an N x N complex matrix of `reals`
 * reals (2 N^2); 0 for any other count. */
int lattio_gauge_colors_of(uint64_t reals);
/* The record XML lattio_gauge_write writes for an SU(N) field (colors 0: 3)
 * when the options give none: "<info>SU(3) gauge field</info>", or SU(N). */
const char *lattio_gauge_record_xml(int colors);

/* --- gauge configurations in every format (src/field/gauge_*.c, nersc.c,
 * milc.c, openqcd.c, detect.c; local, serial) -----------------------------
 * One in-memory representation: native doubles in ILDG order (site rank
 * x fastest, then mu = 0..3 for x,y,z,t, then a 3x3 complex row-major
 * matrix as re,im pairs: 72 doubles per site), dims = lx,ly,lz,lt. */

enum lattio_gauge_format {
    LATTIO_GAUGE_UNKNOWN = 0,
    LATTIO_GAUGE_ILDG = 1,    /* LIME: ildg-format + ildg-binary-data (QIO record set) */
    LATTIO_GAUGE_SCIDAC = 2,  /* LIME: SciDAC ColorMatrix field in scidac-binary-data */
    LATTIO_GAUGE_NERSC = 3,   /* NERSC archive, 4D_SU3_GAUGE or 4D_SU<N>_GAUGE_<N>x<N> */
    LATTIO_GAUGE_MILC = 4,    /* MILC version 5 binary (magic 20103) */
    LATTIO_GAUGE_OPENQCD = 5, /* openQCD export format */
    LATTIO_GAUGE_HDF5 = 6,    /* HDF5 (QDP++ or Qlua layout): detected here, read and
                                 written by lattio_h5_read / _write (MPI library) only */
    LATTIO_GAUGE_HIREP = 7    /* HiRep: big-endian NG, T, X, Y, Z, plaquette, SU(NG) links */
};

/* "ildg", "scidac", "nersc", "milc", "openqcd", "hdf5", "hirep"; "unknown" otherwise. */
const char *lattio_gauge_format_name(int format);
/* The format of a name above; LATTIO_GAUGE_UNKNOWN for any other string. */
int lattio_gauge_format_from_name(const char *name);

/* The format of the file at `path` from its content: LIME magic (reported
 * as ILDG; lattio_gauge_read tells ILDG from SciDAC), NERSC "BEGIN_HEADER",
 * MILC magic 20103 in either byte order, openQCD by a plausible header whose
 * lattice size gives exactly the file size.  Errors: ERR_OPEN, ERR_STAT,
 * ERR_READ, ERR_UNKNOWN_FORMAT. */
int lattio_gauge_detect(const char *path, int *format);

/* 1 when the file at path is HDF5: the signature at 0, or at 512,
 * 1024, ... after a user block with the superblock's base address at its
 * own position; 0 when not (a file starting with LIME's magic never is)
 * or unreadable. */
int lattio_h5_is_hdf5(const char *path);
/* 1 when `target` names an HDF5 file: "FILE" or "FILE:/PATH" (the last
 * ":/" separates PATH unless the whole target is a file) whose FILE
 * lattio_h5_is_hdf5; 0 otherwise. */
int lattio_h5_is_target(const char *target);

/* How a read's checksum was treated. */
enum lattio_checksum_state {
    LATTIO_CHECKSUM_VERIFIED = 1, /* computed == stored */
    LATTIO_CHECKSUM_SKIPPED = 2,  /* d->skip_checksum */
    LATTIO_CHECKSUM_MISSING = 3,  /* the file stores none (tolerated unless require_checksum) */
    LATTIO_CHECKSUM_PARTIAL = 4   /* the ranks read a part of the lattice: cannot be compared */
};

typedef struct lattio_field_read_info {
    lattio_field_info field;     /* metadata; free with lattio_field_info_free */
    lattio_scidac_sum computed;  /* of the sites read, XOR over ranks */
    int checksum;                /* enum lattio_checksum_state */
    uint64_t rounds;             /* staging rounds (the maximum over ranks) */
    int threaded;                /* 1 when a helper thread converted (every rank) */
} lattio_field_read_info;

/* One field found in an HDF5 file (lattio_h5_list, lattio_h5_list_serial). */
typedef struct lattio_h5_entry {
    char path[256];          /* object path in the file */
    int layout;              /* LATTIO_H5_QDP / _QLUA */
    int gauge;               /* 1: an SU(N) gauge field (4-D, 8 N^2 reals per site: 72 for SU(3)) */
    int colors;              /* its N (0 for other fields) */
    int nd;                  /* lattice dimensions */
    uint64_t dims[LATTIO_MAX_DIMS]; /* x fastest, as lattio_field_info */
    uint64_t elements;       /* reals per site */
    int precision;           /* 32 or 64 */
    int big_endian;          /* file byte order */
    int checksum;            /* 1 SciDAC suma/sumb, 2 Qlua .sha256, 0 none */
    /* the field-type table's name its element type's structure spells
     * (QDP++'s .Propagator<P>3: "propagator"; a [4] of [N] complex array:
     * "fermion", ...; "" for reals, other structures and gauge fields) and
     * that structure's colour count */
    char type[24];
    int type_colors;
} lattio_h5_entry;

/* --- HDF5 without MPI (src/hdf5) ------------------------------------------
 * The listing and the whole-field read of HDF5 fields in either layout on
 * HDF5's serial driver, their checksums compared: the calls of a process
 * that never starts MPI (the command's serial operations, the Python
 * package's serial module).  In liblattio always when it has HDF5; in
 * liblattio-serial when the build found a serial libhdf5 (a build without
 * MPI, or MPI without parallel HDF5: docs/install.md).  Where the library
 * has none, each returns ERR_HDF5_UNAVAILABLE. */

/* 1 when this library reads HDF5 without MPI (the calls below). */
int lattio_h5_serial_available(void);
/* lattio_h5_list, lattio_h5_find and lattio_h5_fields on one process. */
int lattio_h5_list_serial(const char *path, int nd, lattio_h5_entry *out, int max, int *count);
int lattio_h5_find_serial(const char *target, int nd, lattio_h5_entry *e);
int lattio_h5_fields_serial(const char *target, int nd, char *file, size_t file_size,
                            lattio_h5_entry **list, int *count);
/* Read the whole field at `target` ("FILE:/PATH", as lattio_h5_read) into
 * `values` as layout l describes (the whole lattice: lo 0, count = global,
 * no halo; file_order as lattio_h5_read takes it: QDP++'s t,z,y,x and
 * Qlua's x,y,z,t datasets both read into the same memory order), the
 * dataset read one outermost slice at a time through the field stage and
 * its stored checksum (SciDAC suma/sumb, Qlua .sha256) compared: the
 * status and *info as lattio_h5_read's for a whole read.  `info` may be
 * NULL.  Errors: those of lattio_h5_read but the MPI ones. */
int lattio_h5_read_serial(const char *target, const lattio_field_desc *d, const lattio_layout *l,
                          void *values, lattio_field_read_info *info);

/* Checksums a gauge file can carry. */
enum lattio_gauge_checksum {
    LATTIO_GSUM_NONE = 0,   /* openQCD: none (the plaquette is the check) */
    LATTIO_GSUM_NERSC = 1,  /* stored[0]: sum mod 2^32 of the stored 32-bit words */
    LATTIO_GSUM_MILC = 2,   /* stored[0..1]: sum29, sum31 */
    LATTIO_GSUM_SCIDAC = 3  /* stored[0..1]: suma, sumb */
};

/* What lattio_gauge_read found in a file. */
typedef struct lattio_gauge_info {
    int format;             /* enum lattio_gauge_format */
    uint64_t dims[4];       /* lx, ly, lz, lt */
    uint64_t volume;
    int precision;          /* bits of a stored real: 32 or 64 */
    int little_endian;      /* 1 when the stored reals are little-endian */
    int rows;               /* rows stored per link: 2 (NERSC 4D_SU3_GAUGE) or N */
    int colors;             /* N of SU(N): 3, or as the file says (ILDG su<N>gauge, SciDAC
                               colors, NERSC 4D_SU<N>_GAUGE_<N>x<N>, HiRep NG); u then holds
                               8 N^2 doubles per site */
    uint64_t data_offset;   /* first byte of the link data in the file */
    uint64_t data_length;   /* bytes of link data */
    int checksum_kind;      /* enum lattio_gauge_checksum */
    int has_checksum;       /* the file stores a checksum (stored[] valid) */
    uint32_t stored[2];     /* as the file says */
    uint32_t computed[2];   /* recomputed from the data */
    int has_plaquette;      /* the header states a plaquette (NERSC, openQCD) */
    double plaquette;       /* the header's, normalised to Re tr / N (1 for the unit field) */
    int has_link_trace;     /* NERSC */
    double link_trace;      /* the header's, Re tr / N */
    lattio_record_info binary; /* ILDG/SciDAC: the binary record read */
    char problem[160];      /* when a read fails on the header: what was wrong, in words */
} lattio_gauge_info;

/*
 * Read the gauge configuration at `path` (format detected from content).
 * *u receives volume * 72 native doubles (free with lattio_gauge_free).
 * Every header field is checked: dims positive and the data size they imply
 * equal to what the file holds (ERR_TRUNCATED_PAYLOAD when shorter,
 * ERR_FIELD_LENGTH when longer), known DATATYPE / FLOATING_POINT / MILC
 * order (ERR_BAD_HEADER, ERR_UNSUPPORTED); a LIME file without a 4-D SU(3)
 * field gives ERR_UNSUPPORTED; a file of no known format ERR_UNKNOWN_FORMAT
 * (also a truncated openQCD file: its size is what identifies it).
 * info->problem then says in words what was wrong.  The whole field is held
 * in memory (576 bytes per site).  When the stored checksum differs
 * from the recomputed one the call returns ERR_CHECKSUM but *info and *u are
 * filled (so a checker can report the rest).  On any other error *u = NULL.
 * Header plaquette / link trace are not compared here: see
 * lattio_gauge_check_header.
 */
int lattio_gauge_read(const char *path, lattio_gauge_info *info, double **u);

/* A NERSC file's header lines as lattio_gauge_write_options.nersc_header
 * takes them back: every KEY = VALUE line between BEGIN_HEADER and
 * END_HEADER that the writer takes (a key of letters, digits and _, a line
 * under 128 bytes), in order, newline-separated, into *text (malloc'd;
 * NULL when none); *left counts the lines it cannot take.  Errors:
 * ERR_BAD_HEADER (not a NERSC header), ERR_OPEN, ERR_NOMEM. */
int lattio_gauge_nersc_header(const char *path, char **text, int *left);
/* Room for volume * 72 doubles (NULL when out of memory or too large);
 * release with lattio_gauge_free. */
double *lattio_gauge_alloc(uint64_t volume);
/* Room for volume * 8 colors^2 doubles (an SU(N) field), the same way. */
double *lattio_gauge_alloc_nc(uint64_t volume, int colors);
void lattio_gauge_free(double *u);

/* Tolerances of the checks below: header values are printed with about 10
 * digits from single-precision data; links of 32-bit files are unitary to
 * about 1e-7. */
#define LATTIO_GAUGE_HEADER_TOL 1e-6
#define LATTIO_GAUGE_UNITARITY_TOL 1e-5

/* Compare the header's plaquette and link trace (when present) with the
 * computed ones: |difference| <= LATTIO_GAUGE_HEADER_TOL.  ERR_PLAQUETTE
 * otherwise (the trace says which). */
int lattio_gauge_check_header(const lattio_gauge_info *info, const lattio_gauge_stats *stats);

typedef struct lattio_gauge_write_options {
    int precision;     /* 32 or 64 (openQCD: always 64; MILC version 5: always 32) */
    int nersc_rows;    /* NERSC: 2 (4D_SU3_GAUGE) or 3 (4D_SU<N>_GAUGE_<N>x<N>) */
    int colors;        /* N of the SU(N) field u (0: 3); u holds 8 N^2 doubles per site.
                          ILDG, SciDAC, NERSC, HiRep take any N up to
                          LATTIO_GAUGE_MAX_COLORS; MILC and openQCD only 3 (ERR_UNSUPPORTED) */
    int little_endian; /* NERSC and MILC: store little-endian (default: NERSC big, MILC little) */
    const char *lfn;   /* ILDG: the ildg-data-lfn text (default "lattio") */
    const char *label; /* NERSC ENSEMBLE_LABEL, MILC time stamp, SciDAC file XML annotation */
    /* ILDG/SciDAC: the user file XML and record XML written verbatim and the
     * private record's date (NULL: lattio's, from label; and now), so a
     * conversion keeps the metadata of the file it came from */
    const char *file_xml, *record_xml, *date;
    /* NERSC: header lines "KEY = VALUE" (newline-separated; a key of
     * letters, digits and _, a line under 128 bytes: ERR_ARG otherwise) of
     * the file a conversion or a Python save comes from: ENSEMBLE_ID,
     * ENSEMBLE_LABEL, SEQUENCE_NUMBER, CREATOR, CREATOR_HARDWARE,
     * CREATION_DATE, ARCHIVE_DATE and BOUNDARY_1..4 replace lattio's values
     * (label: ENSEMBLE_LABEL's default), other keys are written after them;
     * the keys lattio computes (HDR_VERSION, DATATYPE, STORAGE_FORMAT,
     * DIMENSION_*, LINK_TRACE, PLAQUETTE, CHECKSUM, FLOATING_POINT) are
     * always lattio's (NULL: none) */
    const char *nersc_header;
    /* ILDG/SciDAC: other writers' records (lattio_text_record) written
     * before lattio's; ERR_ARG for other formats */
    const lattio_text_record *other;
    int n_other;
} lattio_gauge_write_options;

/* precision 64, nersc_rows 3, NERSC big-endian / MILC little-endian. */
void lattio_gauge_write_options_default(lattio_gauge_write_options *opt, int format);

/* Write u (ILDG order, native doubles, dims lx..lt) to `path` in `format`
 * (ILDG: the strict QIO record set with ildg-format, ildg-data-lfn,
 * ildg-binary-data big-endian and scidac-checksum; SciDAC: the same without
 * the ILDG records, data in scidac-binary-data).  The file is written under
 * a temporary name next to `path` and renamed at the end, so a failure
 * leaves the previous file untouched.  NERSC and openQCD headers get the
 * computed plaquette (and link trace).  openQCD needs even extents
 * (ERR_ARG otherwise).  Errors: ERR_ARG, ERR_NOMEM, ERR_OPEN, ERR_WRITE,
 * ERR_RENAME, ERR_OVERFLOW. */
int lattio_gauge_write(const char *path, int format, const lattio_gauge_write_options *opt,
                       const uint64_t dims[4], const double *u);

/* ------------------------------------------------------------------------ */
/* Operations: verify (src/ops; the collective call in the MPI half)         */
/* ------------------------------------------------------------------------ */

/*
 * One verification, one verdict: `lattio verify`, `lattio convert`'s checks
 * and Python's lattio.verify all take theirs from these calls.  A report
 * holds every field's checksum, a gauge field's observables and header
 * checks, and the problems and warnings in words; the call returns
 * LATTIO_OK when everything holds, otherwise the status of the first
 * problem (also in rep->status).  LIME files: the record structure (MB/ME
 * problems are warnings), every binary record's metadata and its SciDAC
 * checksum (a record without a scidac-checksum fails: ERR_NO_CHECKSUM),
 * metadata announcing a field with no binary record after it
 * (ERR_BAD_METADATA); NERSC, MILC, openQCD, HiRep: the header's checksum;
 * gauge fields: plaquette and link trace against the header's
 * (LATTIO_GAUGE_HEADER_TOL) and unitarity (LATTIO_GAUGE_UNITARITY_TOL); QIO
 * volume sets: every field over all volumes; HDF5 (lattio_verify only):
 * every lattice field's checksum.  Text taken from a file is escaped
 * (bytes outside printable ASCII as \xNN).
 */
enum lattio_h5_layout { LATTIO_H5_AUTO = 0, LATTIO_H5_QDP = 1, LATTIO_H5_QLUA = 2 };
#define LATTIO_VERIFY_MAX_NOTES 32 /* problems (and warnings) kept; more are counted */
#define LATTIO_VERIFY_TEXT 640     /* one problem or warning, escaped */

/* One binary record of a LIME file, field of a volume set or HDF5 dataset. */
typedef struct lattio_verify_field {
    int record; /* 1-based record number (a set's field, an HDF5 file's field) */
    char type[LATTIO_LIME_TYPE_MAX + 1]; /* record type or HDF5 path, escaped */
    uint64_t offset, length, site_bytes;
    int has_stored;                     /* a checksum is stored for it */
    lattio_scidac_sum stored, computed;
    int ok;        /* read, stored checksum present and equal */
    int io_failed; /* the data could not be read (I/O or MPI status): no checksum */
} lattio_verify_field;

typedef struct lattio_verify_report {
    char *path;                 /* the path verified (owned) */
    int status;                 /* LATTIO_OK or the first problem's status */
    int format;                 /* enum lattio_gauge_format of a gauge field; 0 when none */
    int lime;                   /* 0 not LIME, 1 LIME, 2 ILDG, 3 SciDAC (by its records) */
    int is_hdf5, h5_layout;     /* an HDF5 file and its layout (LATTIO_H5_QDP, _QLUA) */
    int is_volumes;             /* a QIO volume set: nrecords counts its volumes */
    size_t nrecords;
    int nfields, fields_cap;
    lattio_verify_field *fields; /* every field verified (malloc'd) */
    int has_gauge;               /* info and stats describe a gauge field */
    lattio_gauge_info info;
    lattio_gauge_stats stats;
    int nproblems, nwarnings, dropped; /* dropped: notes beyond LATTIO_VERIFY_MAX_NOTES */
    int problem_status[LATTIO_VERIFY_MAX_NOTES];
    char problems[LATTIO_VERIFY_MAX_NOTES][LATTIO_VERIFY_TEXT];
    char warnings[LATTIO_VERIFY_MAX_NOTES][LATTIO_VERIFY_TEXT];
    /* the gauge field's metadata (owned; NULL when the format has none) */
    char *meta_file_xml, *meta_record_xml, *meta_lfn;
    char meta_date[LATTIO_FIELD_TEXT_MAX];
    /* LIME: other writers' text records before the gauge field (owned), as
     * lattio_field_other_records gives them; meta_other_left: those it
     * could not keep.  NERSC: the header's lines a NERSC writer takes back
     * (lattio_gauge_nersc_header; owned, NULL when none), meta_nersc_left:
     * the lines it cannot take.  A conversion writes them back where OUT's
     * format holds them and says which it could not. */
    lattio_text_record *meta_other;
    int meta_n_other, meta_other_left;
    char *meta_nersc_header;
    int meta_nersc_left;
} lattio_verify_report;

/* An empty report (call once before the first use). */
void lattio_verify_report_init(lattio_verify_report *rep);
/* Free what a report owns; it is empty again. */
void lattio_verify_report_free(lattio_verify_report *rep);
/* The format's name as `lattio verify` reports it: "ildg", "scidac",
 * "nersc", "milc", "openqcd", "hirep", "hdf5", "lime" (LIME without a
 * lattice field's records), "unknown". */
const char *lattio_verify_format_name(const lattio_verify_report *rep);
/* Local, MPI-free.  Verify `path` (a LIME, NERSC, MILC, openQCD or HiRep
 * file or a QIO volume set's base name) into *rep (its previous content
 * freed).  When gauge != NULL and the file holds a gauge field, *gauge
 * receives its links (native doubles in ILDG order; free with
 * lattio_gauge_free), else NULL.  An HDF5 file is ERR_UNSUPPORTED here
 * (lattio_verify reads it).  Returns rep->status. */
int lattio_verify_file(const char *path, lattio_verify_report *rep, double **gauge);
/* The report as one JSON object (`lattio verify --json`'s), malloc'd into
 * *json (free()).  Errors: ERR_NOMEM. */
int lattio_verify_report_json(const lattio_verify_report *rep, char **json);

/*
 * Describe (src/ops/info.c): what a LIME file holds, the one listing
 * `lattio info` prints and Python's lattio.info and lattio.open number
 * records by.  Records are numbered from 1 in the file; a message begins
 * at a record with MB set or at the first record (C-LIME's lime_contents
 * numbering).  A damaged file lists the records before the damage and
 * says where the walk stopped (rep->status, error_record, error_offset).
 */
#define LATTIO_INFO_TEXT_LIMIT 64000 /* payloads shown as text are shorter */
enum lattio_info_flags {
    LATTIO_INFO_TEXT = 1,  /* keep each record's text (lime_contents' Data:) */
    LATTIO_INFO_FIELDS = 2 /* describe every lattice field (`lattio info --fields`) */
};

typedef struct lattio_info_record {
    int number, message, record; /* in the file, its message, in the message (from 1) */
    lattio_record_info rec;      /* offset, data_offset, length, padding, mb, me, type (raw) */
    char *text; /* LATTIO_INFO_TEXT: the payload up to its first NUL when it is
                   shorter than LATTIO_INFO_TEXT_LIMIT and has no byte >= 0x80,
                   else NULL (owned) */
} lattio_info_record;

typedef struct lattio_info_field {
    int index;       /* from 0 among the file's fields */
    int record;      /* 1-based number of its binary record */
    lattio_record_info binary;
    char datatype[LATTIO_FIELD_TEXT_MAX];
    int precision, colors, spins, nd;
    uint64_t typesize, datacount, dims[LATTIO_MAX_DIMS];
    lattio_field_site site; /* the site's shape and axis names */
    /* the array a reader gives it: the lattice slowest first, then the site */
    int rank;
    uint64_t shape[LATTIO_MAX_DIMS + LATTIO_TYPE_MAX_AXES + 1];
    char axes[192]; /* their names, space-separated: "t z y x spin color" (not
                       4-D: "d2 d1 d0 ...") */
    int has_checksum;
    lattio_scidac_sum stored;
    /* tmLQCD's fields: lattio_field_info's etmc_record, etmc_flavours and
     * etmc_lz_written (0 for others) */
    int etmc_record, etmc_flavours;
    uint64_t etmc_lz_written;
} lattio_info_field;

typedef struct lattio_info_volume {
    int number;
    uint64_t sites;
    char *path; /* owned */
} lattio_info_volume;

typedef struct lattio_info_report {
    char *path;   /* owned */
    int volfmt;   /* a QIO volume set (path its base name): 1 .. 3, else 0 */
    int nvolumes;
    lattio_info_volume *volumes; /* by number */
    int status;   /* LATTIO_OK, or why the listing stopped */
    int error_record;       /* the record (1-based) the walk failed at */
    uint64_t error_offset;  /* where its header was expected */
    int error_field;        /* the field (from 0) whose metadata disagree, or -1 */
    char problem[LATTIO_VERIFY_TEXT]; /* the failure in words, escaped */
    size_t nrecords, records_cap;
    lattio_info_record *records;
    int nfields, fields_cap;
    lattio_info_field *fields;
} lattio_info_report;

void lattio_info_report_init(lattio_info_report *rep);
void lattio_info_report_free(lattio_info_report *rep);
/* Local, MPI-free.  List the records of the LIME file `path` (flags: enum
 * lattio_info_flags) into *rep (its previous content freed); of a QIO
 * volume set (path its base name): its volumes and every field (its
 * records are not listed).  Returns
 * rep->status: the open's, the reader's at a damaged record
 * (ERR_TRUNCATED_*, ERR_TRAILING_BYTES, ...) or, with LATTIO_INFO_FIELDS,
 * the field layer's for a field whose metadata and bytes disagree. */
int lattio_info_file(const char *path, int flags, lattio_info_report *rep);
/* Field fi (its binary record numbered `record`, 0: none) as the report
 * describes it.  Errors: lattio_field_site_of's. */
int lattio_info_field_of(const lattio_field_info *fi, int record, lattio_info_field *f);
/* The report as one JSON object (`lattio info --json`'s): "file",
 * "records" [{number, message, record, offset, data_offset, type, length,
 * padding, mb, me, data}], "fields" (with LATTIO_INFO_FIELDS), "error"
 * {status, code, message, record, offset, field, detail} when it stopped;
 * a volume set: "set", "volfmt", "format" (multifile, partfile,
 * partfile-dir), "volumes" [{number, sites, path}], "fields". */
int lattio_info_report_json(const lattio_info_report *rep, char **json);

/*
 * Convert (src/ops/convert.c; the collective call in the MPI half): one
 * call for every conversion `lattio convert` and Python's lattio.convert
 * make.  A gauge configuration between any two formats (IN verified
 * first, OUT written under a temporary name, verified, every link and the
 * plaquette compared with IN's within OUT's precision, then renamed to
 * OUT); every field of a file of other fields (LIME, HDF5) to SciDAC or
 * HDF5 (every value compared); a QIO volume set joined into one file or a
 * single file split into a set (published as a unit).  OUT goes through
 * lattio_output_allowed first.  The report holds both verifications, the
 * comparison and the problems, each naming the path at fault.
 */
enum lattio_convert_kind {
    LATTIO_CONVERT_NONE = 0,
    LATTIO_CONVERT_GAUGE = 1,  /* one gauge configuration */
    LATTIO_CONVERT_FIELDS = 2, /* every field of a file of other fields */
    LATTIO_CONVERT_JOIN = 3,   /* a QIO volume set into one file */
    LATTIO_CONVERT_SPLIT = 4   /* one file into a QIO volume set */
};

typedef struct lattio_convert_options {
    int format;          /* OUT's enum lattio_gauge_format; 0: ILDG (a set IN: joined) */
    int precision;       /* OUT's bits per real, 32 or 64; 0: IN's */
    int nersc_rows;      /* NERSC OUT: 2 or 3 (default) */
    int h5_layout;       /* HDF5 OUT: LATTIO_H5_QDP (0: QDP) or LATTIO_H5_QLUA */
    const char *h5_path; /* HDF5 OUT: the object ("/..."; NULL: "/lattice") */
    lattio_volumes_plan split; /* split.volfmt != 0: split IN into the set OUT */
} lattio_convert_options;

void lattio_convert_options_default(lattio_convert_options *o);

#define LATTIO_CONVERT_MAP_MAX 64 /* HDF5 objects of the fields kept in the report */

typedef struct lattio_convert_report {
    int status;           /* LATTIO_OK: OUT written, verified and in place */
    int kind;             /* enum lattio_convert_kind (NONE when IN was refused) */
    char *in, *out;       /* the paths (owned) */
    int in_format;        /* IN's enum lattio_gauge_format (gauge) */
    int out_format;       /* OUT's enum lattio_gauge_format */
    int precision;        /* OUT's bits per real (gauge, or fields at a given precision) */
    int h5_layout;        /* HDF5 OUT's layout */
    double max_diff;      /* largest difference of OUT from IN: a link component
                             (gauge, absolute) or a value (fields, relative) */
    int nfields;          /* fields converted */
    int nmap;             /* HDF5 OUT: field i's object in IN (LIME: "") and OUT */
    char map_in[LATTIO_CONVERT_MAP_MAX][256], map_out[LATTIO_CONVERT_MAP_MAX][256];
    lattio_verify_report in_check;  /* IN's verification (gauge) */
    lattio_verify_report out_check; /* OUT's, read back (gauge, join, split) */
    int nproblems, dropped;
    int problem_status[LATTIO_VERIFY_MAX_NOTES];
    int problem_out[LATTIO_VERIFY_MAX_NOTES]; /* 1: the problem is OUT's, 0: IN's */
    char problems[LATTIO_VERIFY_MAX_NOTES][LATTIO_VERIFY_TEXT];
} lattio_convert_report;

void lattio_convert_report_init(lattio_convert_report *rep);
void lattio_convert_report_free(lattio_convert_report *rep);
/* The report as one JSON object (`lattio convert --json`'s).  ERR_NOMEM. */
int lattio_convert_report_json(const lattio_convert_report *rep, char **json);
/* Whether converting `in` with `o` needs the MPI library's lattio_convert
 * (an HDF5 IN or OUT, or a file of fields other than one gauge field):
 * 1 yes, 0 no (lattio_convert_file does it). */
int lattio_convert_needs_mpi(const char *in, const lattio_convert_options *o);
/* Local, MPI-free.  Convert `in` to `out` (see above) into *rep (its
 * previous content freed); what needs MPI is ERR_UNSUPPORTED here.
 * Returns rep->status. */
int lattio_convert_file(const char *in, const char *out, const lattio_convert_options *o,
                        lattio_convert_report *rep);

#ifndef LATTIO_NO_MPI
#include <mpi.h>

/* ------------------------------------------------------------------------ */
/* Parallel files and records (MPI, src/io)                                 */
/* ------------------------------------------------------------------------ */

/*
 * A parallel LIME file, opened collectively on a communicator (duplicated
 * inside).  Every collective call returns the same status on every rank:
 * a failed transfer (an I/O or MPI status, -1xx or -4xx) before any other,
 * since what other ranks then made of their data follows from it; else the
 * most negative status any rank met (ERR_OTHER_RANK last; ties: the lowest
 * rank's).  So one rank's bad argument or I/O error surfaces everywhere and
 * no rank is left waiting in a later collective.
 */
typedef struct lattio_file lattio_file;

enum lattio_mode {
    LATTIO_MODE_READ = 1,   /* existing file; the record index is read by rank 0 */
    LATTIO_MODE_CREATE = 2, /* new file, or replace the file at a successful close */
    LATTIO_MODE_APPEND = 3  /* records after the existing ones (created if absent) */
};

/* How lattice data moves between ranks' memory and the file.  Every
 * strategy produces the same bytes. */
enum lattio_strategy {
    LATTIO_STRATEGY_AUTO = 0,        /* LATTIO_STRATEGY (environment) when set, else a rule
                                        measured on this project's machines picks one per call:
                                        mapped where it applies (below: writes on 2+ ranks,
                                        reads on any number), else from
                                        the layout: independent when every rank's
                                        contiguous file runs are >= 1 MiB (t-slabs) or at one
                                        rank, else aggregate with one aggregator per node
                                        (on one node: serial) unless cb_nodes says otherwise;
                                        reads are independent (src/strategy/xfer.c) */
    LATTIO_STRATEGY_INDEPENDENT = 1, /* each rank writes/reads its own runs, non-collective MPI-IO */
    LATTIO_STRATEGY_COLLECTIVE = 2,  /* file view + MPI-IO collective calls (two-phase inside
                                        MPI); writes are read back and repaired where the MPI
                                        library is known to corrupt collective writes */
    LATTIO_STRATEGY_AGGREGATE = 3,   /* lattio's own two-phase I/O: sites are sent to
                                        aggregator ranks owning block-aligned file domains,
                                        which make large contiguous independent MPI-IO calls;
                                        see lattio_open for its hints */
    LATTIO_STRATEGY_SERIAL = 4,      /* gather to rank 0, which makes large contiguous writes
                                        (scatter from rank 0 for reads), in rounds of at most
                                        cb_buffer_size bytes (seed 001's master I/O): the
                                        aggregate strategy with one aggregator */
    LATTIO_STRATEGY_MAPPED = 5       /* every rank maps the file range of its sites (mmap)
                                        and converts them straight into (out of) the page
                                        cache, no write call and no exchange; only where the
                                        page cache is the file: every rank on one node, the
                                        file on a local disk or tmpfs, opened by name;
                                        elsewhere the rule of AUTO decides.  A rank reads
                                        through the mapping only when the page cache holds
                                        its whole range, else independently; with a helper
                                        thread (LATTIO_FIELD_THREADS) both threads convert */
};

typedef struct lattio_options {
    int in_place; /* CREATE: write under the final name (the old file is removed at open) */
    int durable;  /* writes: MPI_File_sync once before close; on Linux each
                     independent write piece of >= 1 MiB also starts the
                     kernel's writeback at once (LATTIO_WRITEBACK=0: not) */
    int strategy; /* enum lattio_strategy; with AUTO the environment's LATTIO_STRATEGY
                     (independent|collective|aggregate|serial|mapped|auto) decides, else the
                     measured default */
    /* Hints for MPI_File_open and the aggregate/serial strategies (0: not set,
     * the caller's MPI_Info or the defaults decide).  Set under the ROMIO and
     * the OMPIO spellings; see lattio_open. */
    int stripe_count;        /* Lustre stripe count of a new file (striping_factor) */
    uint64_t stripe_size;    /* Lustre stripe size in bytes of a new file (striping_unit);
                                also the aggregate strategy's file-domain alignment */
    int aggregators;         /* collective-buffering aggregators (cb_nodes) */
    uint64_t cb_buffer_size; /* bytes per aggregator and round (cb_buffer_size) */
} lattio_options;

/* Local.  Defaults: temporary name + rename, no sync, AUTO, no hints. */
void lattio_options_default(lattio_options *opt);

/* Time breakdown (OPAL-style profiling).  Every lattice and record call on a
 * file accumulates, on each rank, its wall time and the time spent in each
 * phase below; the phases partition the call (their sum is the call's time
 * up to timer overhead).  Always collected (a few MPI_Wtime calls per call);
 * LATTIO_PROFILE=1 makes the `lattio` tools print it. */
enum lattio_phase {
    LATTIO_PHASE_SETUP = 0,    /* layout checks, datatype/plan construction, strategy choice */
    LATTIO_PHASE_PACK = 1,     /* packing/unpacking and conversion in memory */
    LATTIO_PHASE_CHECKSUM = 2, /* checksums */
    LATTIO_PHASE_EXCHANGE = 3, /* data exchange between ranks (point-to-point, gathers) */
    LATTIO_PHASE_IO = 4,       /* MPI-IO reads and writes (including collective ones) */
    LATTIO_PHASE_SYNC = 5,     /* agreement, barriers, waiting, MPI_File_sync */
    LATTIO_PHASE_META = 6,     /* headers, record index, open/close metadata */
    LATTIO_NPHASES = 7
};

typedef struct lattio_profile {
    uint64_t calls;                   /* calls accumulated (rank 0's count) */
    uint64_t bytes;                   /* payload bytes moved, summed over ranks */
    double total[3];                  /* call wall time in seconds: min, mean, max over ranks */
    double phase[LATTIO_NPHASES][3];  /* per phase: min, mean, max over ranks */
    int strategy;       /* enum lattio_strategy of the latest transfer (0: none yet) */
    uint64_t fallbacks; /* transfers whose strategy, asked for explicitly, could not
                           run here and the measured default ran instead (the mapped
                           strategy across nodes or off a local disk) */
    char fallback[160]; /* the latest fallback in words ("" when none) */
} lattio_profile;

/* Local.  Name of a phase ("setup", "pack", "checksum", "exchange", "io",
 * "sync", "meta"), or "?" when out of range. */
const char *lattio_phase_name(int phase);


/* Collective.  Open `path` (same on every rank).  `info` (may be
 * MPI_INFO_NULL) is passed to MPI_File_open; `opt` may be NULL (defaults).
 * CREATE writes to "PATH.lattio-tmp.*" next to PATH and renames it at a
 * successful close, so a failed or killed write never leaves a partial file
 * under PATH nor destroys the previous one.  New files are not truncated.
 * Hints: the non-zero hint fields of `opt` are added to (and replace) the
 * keys of `info` under every spelling the MPI libraries read: ROMIO's and
 * Open MPI 4.1 OMPIO's "striping_factor", "striping_unit", "cb_nodes",
 * "cb_buffer_size", and older OMPIO releases' "stripe_width" (count) and
 * "stripe_size" (bytes).  Striping applies to files the call creates on
 * Lustre only.  lattio itself reads from these hints (aggregate and serial
 * strategies; environment variables of the same names in upper case with a
 * LATTIO_ prefix override them for lattio, not for MPI, e.g.
 * LATTIO_CB_BUFFER_SIZE): "striping_unit" (file-domain alignment in bytes;
 * default from the file system rank 0 detects: Lustre 1 MiB, GPFS its block
 * size, others the block size rounded up to a multiple of at least 1 MiB),
 * "cb_nodes" (number of aggregators; default: one per rank, at most one per
 * domain), "cb_buffer_size" (bytes per aggregator and round; default
 * 16 MiB, at most 1 GiB).  Only rank 0's values count.  LATTIO_TRACE=1
 * prints the detected file system and the hints MPI reports after open.
 * Errors: ERR_ARG, ERR_RANK_ARG (path or mode differ), ERR_OPEN, ERR_MPI,
 * format errors of an APPEND file. */
int lattio_open(MPI_Comm comm, const char *path, int mode, MPI_Info info,
                const lattio_options *opt, lattio_file **out);

/* Collective.  Close; for CREATE rename into place when every call since
 * open succeeded on every rank and no record is open, otherwise remove the
 * temporary file and return the error on every rank (ERR_RECORD_SHORT for an
 * open record; after a failed write call, that call's status).  Any failed
 * collective write call (record, lattice, field, request start or wait, on
 * any rank) poisons the handle: every later write call returns ERR_STATE.
 * One exception keeps Lemon's contract: on a handle from lattio_attach a
 * call refused before writing anything (ERR_ARG, ERR_RANK_ARG,
 * ERR_RECORD_OVERRUN, ERR_TYPE_TOO_LONG, ERR_LENGTH_OVERFLOW) leaves the
 * handle usable.  ERR_SYNC_DIR (durable
 * writes only) is the one failure after the rename: PATH holds the new
 * file, whole and synced, but the sync of its directory failed, so a crash
 * may still bring the previous version back.  Accepts NULL (returns OK). */
int lattio_close(lattio_file *f);

/* Local.  The handle's communicator (the duplicate made at open). */
MPI_Comm lattio_file_comm(const lattio_file *f);

/* Collective.  The time breakdown accumulated on `f` since open or the last
 * lattio_profile_reset, reduced over the file's ranks (min/mean/max).
 * Errors: ERR_ARG, ERR_MPI. */
int lattio_profile_get(lattio_file *f, lattio_profile *p);

/* Local.  Zero this rank's accumulated breakdown (call on every rank). */
void lattio_profile_reset(lattio_file *f);

/* Collective.  Use a file the caller opened (Lemon's contract: the caller
 * owns `fh`, lattio never closes, renames or truncates it).  `comm` must be
 * the communicator `fh` was opened on (duplicated inside).  `mode` is
 * LATTIO_MODE_READ (the record index is read from byte `offset`; when no
 * LIME header starts there lattio_record_next reports ERR_BAD_MAGIC) or
 * LATTIO_MODE_CREATE (records are written from byte `offset` on, e.g. the
 * caller's current position, so appending works); APPEND is ERR_ARG, and so
 * is a mode fh's access mode does not allow.  `offset` must be equal on
 * every rank (ERR_RANK_ARG).  While attached, fh's error handler is
 * MPI_ERRORS_RETURN; lattio_close restores the caller's, completes lattio's
 * work (pending requests, a sync if opt->durable) and leaves `fh` open.
 * Errors as lattio_open. */
int lattio_attach(MPI_Comm comm, MPI_File fh, int mode, uint64_t offset,
                  const lattio_options *opt, lattio_file **out);

/* Local.  Writing: the byte offset where the next record's header goes (the
 * end of what was written so far; while a record is open, the end of its
 * padding).  Reading: the end of the current record's padding (before the
 * first record: where the records start, 0 for lattio_open; after the
 * last: the end of the last).  Equal on every rank. */
uint64_t lattio_file_position(const lattio_file *f);

/* --- writing records (collective) ----------------------------------------
 * Rank 0 writes headers and padding at explicit offsets; payload bytes are
 * written collectively by all ranks.  Arguments must be equal on every rank
 * (ERR_RANK_ARG otherwise). */

/* Begin a record of exactly `length` payload bytes. */
int lattio_record_begin(lattio_file *f, const char *type, uint64_t length, int mb, int me);

/* Each rank writes its `count` bytes at `offset` within the open record's
 * payload (pieces may differ per rank; count may be 0 and beyond 2 GiB).
 * ERR_RECORD_OVERRUN if any rank's piece leaves the record (nothing written). */
int lattio_record_write_at(lattio_file *f, uint64_t offset, const void *buf, uint64_t count);

/* End the record, writing its padding.  ERR_RECORD_SHORT if the ranks wrote
 * fewer bytes in total than the declared length, unless allow_short (the
 * unwritten bytes then read as zeros). */
int lattio_record_end(lattio_file *f, int allow_short);

/* A whole record whose payload is rank 0's `data` (ignored elsewhere). */
int lattio_record_write(lattio_file *f, const char *type, const void *data, uint64_t length,
                        int mb, int me);

/* --- reading records --------------------------------------------------- */

/* Local (the index is the same on every rank).  Advance to the next record:
 * ERR_EOF after the last, or the format error that ended the index. */
int lattio_record_next(lattio_file *f, lattio_record_info *info);

/* Local.  Make the n-th record (0-based) of type `type` current: ERR_NOT_FOUND. */
int lattio_record_find(lattio_file *f, const char *type, int n, lattio_record_info *info);

/* Local.  Number of intact records in the index. */
int lattio_record_count(const lattio_file *f);

/* Collective.  Each rank reads its `count` bytes at `offset` within the
 * current record's payload.  ERR_RECORD_OVERRUN beyond the record. */
int lattio_record_read_at(lattio_file *f, uint64_t offset, void *buf, uint64_t count);

/* ------------------------------------------------------------------------ */
/* Distributed lattices (MPI, src/strategy/lattice.c)                       */
/* ------------------------------------------------------------------------ */

/*
 * Collective.  Write this rank's sites of a distributed lattice (described by
 * its layout, which must agree between ranks in ndims, global, file_order and
 * site_bytes) into the open record, the lattice's first byte at payload
 * offset `offset`; the lattice occupies global_sites * site_bytes bytes there.
 * Only the interior of `local` goes to the file (ghosts are never read).
 * Several lattices, or parts of one, may go into the same record at
 * different offsets.  The boxes of all ranks must tile the lattice: ranks
 * whose sites do not add up to the global count give ERR_LAYOUT everywhere
 * (nothing is written).  Sites are opaque bytes; no conversion.
 * Errors: ERR_ARG, ERR_LAYOUT, ERR_RANK_ARG, ERR_RECORD_OVERRUN, ERR_STATE,
 * ERR_NOMEM, ERR_WRITE.
 */
int lattio_lattice_write(lattio_file *f, const lattio_layout *l, uint64_t offset,
                         const void *local);

/* Collective.  Read this rank's sites of the lattice stored in the current
 * record at payload offset `offset` into `local` (ghosts untouched).  Any
 * number of ranks and any decomposition can read a file written by any
 * other. */
int lattio_lattice_read(lattio_file *f, const lattio_layout *l, uint64_t offset, void *local);

/* Collective.  As lattio_lattice_write / _read, but the ranks' boxes need
 * not cover the lattice: their sites must add up to at most the global
 * count (ERR_LAYOUT otherwise); a rank may pass an empty box (a count of 0).
 * Used to move a lattice in rounds (each round a slab of every rank's box)
 * and to read a sub-box of a stored lattice. */
int lattio_lattice_write_part(lattio_file *f, const lattio_layout *l, uint64_t offset,
                              const void *local);
int lattio_lattice_read_part(lattio_file *f, const lattio_layout *l, uint64_t offset, void *local);

/* Local.  The layout of this rank's box when the lattice of extents
 * `global` (in the communicator's dimension order) is block-split over the
 * Cartesian communicator `cart` (uneven extents allowed: 10 sites over 3
 * ranks gives 4, 3, 3), no halos, identity orders.  Errors: ERR_ARG (not a
 * Cartesian communicator, MPI_COMM_NULL, NULL pointers), ERR_LAYOUT (more
 * than LATTIO_MAX_DIMS dimensions, bad extents), ERR_MPI. */
int lattio_layout_from_cart(MPI_Comm cart, const uint64_t *global, size_t site_bytes,
                            lattio_layout *l);

/* --- non-blocking transfers ---------------------------------------------
 * A request is started collectively and completed collectively by
 * lattio_wait.  Offsets are fixed when the request starts, so further
 * lattices, lattio_record_end and new records may follow before the wait and
 * land where they belong.  While a request is pending lattio makes no
 * collective MPI-IO call on the file (the MPI standard forbids it; Lemon's
 * non-blocking calls deadlock on it).  Write requests copy the caller's sites
 * into a request-owned buffer (local_sites * site_bytes), so `local` may be
 * reused at once; read requests fill `local` at the wait (a read reaching
 * past the end of the file fails at the start: ERR_TRUNCATED_PAYLOAD).
 * Start errors (the blocking calls' argument checks and agreement) return no
 * request (*req = NULL) and leave nothing pending.  Requests must be waited
 * in the same order on every rank.  lattio_close completes any pending
 * request first (its handle is freed: do not wait on it afterwards) and
 * returns its error if it failed. */
typedef struct lattio_request lattio_request;

int lattio_lattice_iwrite(lattio_file *f, const lattio_layout *l, uint64_t offset,
                          const void *local, lattio_request **req);
int lattio_lattice_iread(lattio_file *f, const lattio_layout *l, uint64_t offset, void *local,
                         lattio_request **req);
/* Record payload pieces, as lattio_record_write_at / _read_at. */
int lattio_record_iwrite_at(lattio_file *f, uint64_t offset, const void *buf, uint64_t count,
                            lattio_request **req);
int lattio_record_iread_at(lattio_file *f, uint64_t offset, void *buf, uint64_t count,
                           lattio_request **req);

/* Collective.  Complete *req, free it and set *req = NULL.  Returns the
 * agreed status of the whole transfer; a failed write makes a CREATE file
 * fail at close (ERR_STATE, not renamed).  req == NULL or *req == NULL is a
 * local no-op returning OK (a start that failed returned NULL everywhere). */
int lattio_wait(lattio_request **req);

/* ------------------------------------------------------------------------ */
/* Task-local container (MPI, src/container/mpi/container.c)               */
/* ------------------------------------------------------------------------ */

/*
 * Each task of a communicator writes its own byte stream into one shared
 * container file (docs/format.md, section 8) with calls that involve no
 * other task; open and close are collective.  Writing: task = rank.
 * Reading: any number of ranks; each rank reads one task's stream at a time
 * (initially its own rank's, if the container has that task; any other
 * with lattio_container_select).
 */
typedef struct lattio_container lattio_container;

typedef struct lattio_container_options {
    uint64_t align; /* chunk alignment, a power of two in [64, 2^26]; 0: the file
                       system's block size (st_blksize) as rank 0 sees it */
    int in_place;   /* write under the final name (old file removed at open); needed
                       for a killed writer's file to be found under PATH */
    int durable;    /* fsync (every rank, its chunks; then the footer) before the
                       close renames */
    int recover;    /* read a container without footer (LATTIO_CONTAINER_RECOVER) */
    int no_verify;  /* reading: skip chunk data and stream CRC checks (see
                       lattio_container_read for when they happen) */
    uint32_t nfiles; /* writing: physical files (0, 1: one); rank r goes to file
                        r * nfiles / size (contiguous, balanced ranges) */
    MPI_Comm file_comm; /* writing, instead of nfiles (MPI_COMM_NULL: unused): a
                        split of the communicator, one file per colour; each
                        colour's ranks must be consecutive ranks of the
                        communicator, in order (ERR_ARG otherwise) */
    int coalesce;   /* writing, 0 or 1: off; k > 1: streams that fit their first
                       chunk stay in memory until close, where the first task
                       of each k consecutive tasks (of a file) writes them with
                       its own in one contiguous write; same bytes on disk.
                       Off when k * (chunk + 64) exceeds 1 GiB.  Buffered
                       streams reach the file only at close (a killed
                       writer loses them) */
} lattio_container_options;

/* Local.  Defaults: detected alignment, temporary name + rename, no sync,
 * verification on, one file (file_comm = MPI_COMM_NULL), no coalescing.
 * (A zero-initialised struct is accepted too: an all-zero file_comm counts
 * as MPI_COMM_NULL.) */
void lattio_container_options_default(lattio_container_options *opt);

/* Collective.  mode LATTIO_MODE_CREATE or LATTIO_MODE_READ (APPEND:
 * ERR_UNSUPPORTED).  CREATE writes "PATH.lattio-tmp.*" and renames it at a
 * successful close, as lattio_open.  chunk_hint: data bytes per chunk this
 * rank expects (the largest over ranks is used, rounded up so a chunk and
 * its trailer fill whole aligned blocks; ignored when reading).  Data moves
 * by pwrite/pread on each rank's own POSIX descriptor of the file (no
 * MPI-IO; `info` is not used); MPI carries only the collective metadata
 * (docs/format.md 8.8).  `opt` may be NULL.  Reading checks the container
 * as lattio_container_open_serial does; each rank reads the trailers of
 * tasks rank, rank + size, ... and the stream sizes are shared.  Several
 * physical files (opt->nfiles, opt->file_comm; docs/format.md 8.5): each is
 * written by its own group of ranks, and all are renamed at close only when
 * every group succeeded; reading opens every file of the set from `path`
 * on every rank.  Errors as lattio_open and lattio_container_open_serial,
 * agreed; ERR_ARG also for nfiles > ranks or a file_comm whose colours are
 * not runs of consecutive ranks. */
int lattio_container_open(MPI_Comm comm, const char *path, int mode, uint64_t chunk_hint,
                          MPI_Info info, const lattio_container_options *opt,
                          lattio_container **out);

/* Local (write mode).  Append n bytes to this rank's stream; n may exceed a
 * chunk.  A failure makes the close fail (ERR_STATE, nothing renamed). */
int lattio_container_write(lattio_container *c, const void *buf, uint64_t n);

/* Local (read mode).  Read up to n bytes of the selected stream from its
 * position; *got receives the count (less than n only at the end).
 * Verification (docs/format.md 8.6): a read continuing the in-order
 * reading of a chunk returns its bytes as read and the chunk is checked
 * by the read reaching its end, or by the call leaving it part-read (a
 * read elsewhere, seek, select, close), which then returns
 * ERR_CONTAINER_CHECKSUM; any other read returns only checked bytes. */
int lattio_container_read(lattio_container *c, void *buf, uint64_t n, uint64_t *got);
/* Local (read mode).  Set the position in the selected stream (0..size).
 * ERR_CONTAINER_CHECKSUM: a chunk left part-read is damaged (the position
 * is set all the same). */
int lattio_container_seek(lattio_container *c, uint64_t pos);
/* Local.  Position in this rank's stream (bytes written, or the read position). */
uint64_t lattio_container_tell(const lattio_container *c);
/* Local (read mode).  1 at the end of the selected stream (or none selected). */
int lattio_container_eof(const lattio_container *c);
/* Local (read mode).  Read task `task`'s stream from position 0 on.
 * ERR_CONTAINER_TASK; ERR_CONTAINER_CHECKSUM as lattio_container_seek. */
int lattio_container_select(lattio_container *c, uint32_t task);
/* Local.  Tasks in the container. */
uint32_t lattio_container_ntasks(const lattio_container *c);
/* Local (read mode).  Size of any task's stream.  ERR_CONTAINER_TASK. */
int lattio_container_stream_size(const lattio_container *c, uint32_t task, uint64_t *size);
/* Local.  Reading: the CRC-32 of task's whole stream recorded at close
 * (ERR_NOT_FOUND when there is none).  Writing: task must be this rank's;
 * the CRC-32 of what it wrote so far.  ERR_CONTAINER_TASK.
 * Reading errors: lattio_container_read also returns ERR_CONTAINER_CHECKSUM
 * (unless opt->no_verify; in-order reads are checked as they go, see
 * lattio_container_read). */
int lattio_container_stream_crc(const lattio_container *c, uint32_t task, uint32_t *crc);

/* Collective.  Writing: every rank's final trailer, the footer (rank 0),
 * then the rename when every rank succeeded.  Reading: a chunk left
 * part-read is checked (ERR_CONTAINER_CHECKSUM, agreed).  Accepts NULL. */
int lattio_container_close(lattio_container *c);

/* ------------------------------------------------------------------------ */
/* Lattice fields (MPI): ILDG / SciDAC record sets, src/field/mpi/           */
/* ------------------------------------------------------------------------ */

/* What a write did. */
typedef struct lattio_field_write_info {
    lattio_scidac_sum sum; /* the checksum written (XOR over ranks) */
    uint64_t rounds;       /* staging rounds (the maximum over ranks) */
    int retries;           /* rewrites after a failed verification */
    int threaded;          /* 1 when a helper thread converted (every rank) */
} lattio_field_write_info;

/* Collective.  Write a field as a complete record set into f (CREATE or
 * APPEND): scidac-private-file-xml + scidac-file-xml when the file has none
 * yet (none at open, none written since: a field after other records gets
 * them too, or no reader would know its dims), then scidac-private-record-xml, scidac-record-xml,
 * [ildg-format, ildg-data-lfn], the binary record and scidac-checksum, as
 * QIO writes them.  The binary record is one planned transfer: the layout
 * is checked across ranks, the strategy chosen (as for lattio_lattice_write:
 * independent slabs of each rank's box for coarse decompositions, lattio's
 * aggregation for short file runs) and the outcome agreed once, whatever the
 * number of rounds.  Each rank's sites are packed, converted to the disk
 * format and checksummed with their global site ranks block by block into
 * staging buffers of at most d->staging_bytes (two with a helper thread).
 * When MPI was initialised with MPI_THREAD_FUNNELED or more, the rank may
 * run on 2 or more CPUs and its node has at least 2 CPUs per rank, a helper
 * thread (which makes no MPI call) stages slab k+1 while slab k is written,
 * and the calling thread joins the staging once its write is done;
 * LATTIO_FIELD_THREADS=0 or 1 in the environment decides instead.  The boxes
 * must cover the lattice exactly (ERR_LAYOUT).  With d->verify the binary
 * record is re-read (a split of the record over the ranks that differs from
 * the writing one; on 2 or more ranks after MPI_File_sync on every rank,
 * which MPI-IO needs for a rank to read bytes another wrote, while a single
 * rank re-reads its own writes without it) before it is closed; a mismatch
 * rewrites it, up to d->verify_retries times, then ERR_VERIFY (the file is
 * not renamed at close).  `out` may be
 * NULL.  Errors: ERR_ARG (descriptor, layout site_bytes != elements * size),
 * ERR_LAYOUT, ERR_RANK_ARG, ERR_VERIFY, ERR_PENDING (verify with requests
 * pending), the record layer's. */
int lattio_field_write(lattio_file *f, const lattio_field_desc *d, const lattio_layout *l,
                       const void *local, lattio_field_write_info *out);


/* Collective.  Read field `index` (0-based among the binary records; < 0:
 * the first field of d->kind's family: a gauge field for ILDG_GAUGE /
 * SU3_GAUGE, any for GENERIC) of a file opened with lattio_open in READ
 * mode.  Rank 0 parses the record set (lattio_field_info_read) and
 * broadcasts it; the layout must match it (global extents in file order
 * equal the dims: ERR_FIELD_DIMS; lattice records of 32/64-bit reals:
 * ERR_UNSUPPORTED / ERR_FIELD_PRECISION; d->elements reals per site:
 * ERR_FIELD_LENGTH; site_bytes = elements * size of d->mem_format: ERR_ARG).
 * Any number of ranks and any decomposition; the boxes may cover a part of
 * the lattice (then the checksum is not compared: info->checksum PARTIAL;
 * it is compared when the ranks' sites add up to the volume, so boxes that
 * overlap must then not: they would give ERR_CHECKSUM).
 * Sites are read in bounded rounds, checksummed and converted to
 * d->mem_format (by a helper thread while the next round is read, under
 * the rule of lattio_field_write).  A stored checksum that differs gives ERR_CHECKSUM on every
 * rank (the trace names the record; `local` is filled).  `info` may be NULL.
 * ERR_UNSUPPORTED for attached files (no path). */
int lattio_field_read(lattio_file *f, int index, const lattio_field_desc *d,
                      const lattio_layout *l, void *local, lattio_field_read_info *info);


/* QIO volume sets in parallel (src/volumes/mpi; see "QIO volume sets"
 * above for the format). */

/* Collective.  Read field `index` (0-based among volume 0's binary
 * records; < 0: the first lattice field) of the volume set `base` into each
 * rank's box of layout l (descriptor and layout as lattio_field_read): the
 * ranks share the volumes (volume i to rank i mod size), each checks its
 * volumes' records and site lists and reads its volumes whole, and every
 * site goes to the rank whose box holds it.  Any number of ranks, whatever
 * wrote the set; boxes may cover a part of the lattice (must not overlap).
 * The checksum covers every site of the set and is compared with volume
 * 0's (info->checksum VERIFIED, or SKIPPED, MISSING).  Errors, the same on
 * every rank: those of lattio_volumes_open and lattio_field_read,
 * ERR_VOLUME_SITES (a site listed twice, the volumes short of the
 * lattice), ERR_UNSUPPORTED (global data, a subset), ERR_RANK_ARG (base,
 * index, dimensions or the descriptor's reading fields differ between
 * ranks; the detail names the first). */
int lattio_volumes_read(MPI_Comm comm, const char *base, int index, const lattio_field_desc *d,
                        const lattio_layout *l, void *local, lattio_field_read_info *info);

/* Collective.  Write n fields of descriptor d (as lattio_field_write) as
 * the volume set `base` in format volfmt: LATTIO_VOLFMT_MULTI, a volume per
 * rank (its box's sites in lexicographic order); _PART (_PART_DIR: in
 * directories), a volume per node whose ranks' boxes make one box (the
 * ranks that share memory write that box's sites in lexicographic order
 * together, and the volume bears the lowest's rank), a volume per rank of
 * a node whose boxes do not.  Each volume is written like a field of
 * lattio_field_write (lattio_open over its ranks, the strategy chosen for
 * them, d->verify and d->verify_retries).  Rank 0's volume 0 holds the
 * metadata and each field's checksum (XOR over the ranks; out->sum: the
 * last field's).  Every volume is written under a temporary name and the
 * set published as one unit when all are complete (lattio_volumes_publish:
 * the journal of docs/format.md 5.6); volumes of an earlier set of the
 * same base that this one lacks are then removed.  The boxes must tile
 * the lattice (ERR_LAYOUT).  Errors, the same on every rank: ERR_ARG,
 * ERR_RANK_ARG (base, volfmt, n, dimensions or the descriptor's writing
 * fields differ; the detail names the first), ERR_LAYOUT, the writer's. */
int lattio_volumes_write(MPI_Comm comm, const char *base, int volfmt, const lattio_field_desc *d,
                         const lattio_layout *l, int n, const void *const *locals, lattio_field_write_info *out);

/* ------------------------------------------------------------------------ */
/* HDF5 lattice fields (MPI; parallel HDF5), src/hdf5                      */
/* ------------------------------------------------------------------------ */

/*
 * A field of lattio_field_desc as an HDF5 dataset, through the same field
 * pipeline as LIME records (packing, conversion, checksums, the MPI layer's
 * strategies).  Two layouts (docs/format.md):
 *  - LATTIO_H5_QDP (QDP++/Chroma): dims in file order, slowest first ([Lt][Lz]
 *    [Ly][Lx] for file_order {t,z,y,x}), native little-endian reals; a gauge
 *    field is [..][4] of the committed .ColorMatrix{Float,Double}3, 288 reals
 *    per site (a propagator) [..] of .Propagator{Float,Double}3, other fields
 *    [..][elements] of reals.  Metadata as attributes: file_xml, record_xml,
 *    ildg_data_lfn, scidac_datatype, scidac_date (strings), scidac_colors,
 *    scidac_spins, scidac_datacount (integers) and the SciDAC checksum of
 *    the big-endian bytes, suma and sumb (so a field converted from LIME
 *    keeps its records and checksum).
 *  - LATTIO_H5_QLUA (Qlua): dims reversed ([Lx][Ly][Lz][Lt]), big-endian
 *    types; a gauge field is a group of datasets "0".."3" (one direction
 *    each, .ColorMatrixDouble3 / Float3); other fields of 1, 2, 6, 18, 24 or
 *    288 reals per site are LatticeReal, LatticeComplex, LatticeColorVector,
 *    LatticeColorMatrix, LatticeDiracFermion, LatticeDiracPropagator.  Each
 *    dataset carries .kind, .sha256 (lattio_qlua_sum) and .time.
 * Targets are "FILE:/PATH/IN/FILE" (a bare FILE: the path "/lattice").
 */
/* enum lattio_h5_layout (LATTIO_H5_AUTO, _QDP, _QLUA) is declared with the
 * verification report, in the MPI-free half. */
enum lattio_h5_transport {
    LATTIO_H5_TRANSPORT_AUTO = 0,   /* lattio's pipeline at the dataset's offset when the
                                       dataset is contiguous, else HDF5's */
    LATTIO_H5_TRANSPORT_LATTIO = 1, /* the MPI layer's strategies write and read the raw
                                       bytes of a contiguous dataset (HDF5 lays it out) */
    LATTIO_H5_TRANSPORT_HDF5 = 2    /* collective H5Dwrite / H5Dread of each rank's
                                       slabs, in the file's type (no HDF5 conversion) */
};

typedef struct lattio_h5_options {
    int layout;         /* writing: QDP (AUTO) or QLUA; reading: AUTO detects, else required */
    int transport;      /* enum lattio_h5_transport */
    int append;         /* writing: add the field to the file at FILE (copied to a temporary
                           name, written, renamed) instead of replacing it; the object must
                           not exist (ERR_HDF5), a FILE that is not HDF5 is ERR_UNKNOWN_FORMAT
                           and kept; no FILE: a new one */
    int chunked;        /* writing: chunks equal to rank 0's box (then the HDF5 transport) */
    uint64_t alignment; /* writing: H5Pset_alignment of objects >= 64 KiB (0: the stripe
                           size hint, else the file system's block rule of lattio_open) */
    const lattio_options *file; /* hints, durable, strategy (NULL: defaults) */
} lattio_h5_options;

/* Local.  Defaults: QDP, AUTO transport, replace, contiguous. */
void lattio_h5_options_default(lattio_h5_options *o);

/* What an HDF5 call did, beyond lattio_field_{write,read}_info. */
typedef struct lattio_h5_info {
    int layout;                   /* LATTIO_H5_QDP or _QLUA */
    int transport;                /* LATTIO_H5_TRANSPORT_LATTIO or _HDF5 */
    uint32_t no_collective_cause; /* HDF5 transport: H5Pget_mpio_no_collective_cause's global
                                     value of the last transfer (0: collective) */
    int ndatasets;                /* datasets moved (4 for a Qlua gauge field) */
    lattio_qlua_sum sha256[4];    /* Qlua: each dataset's sum (computed) */
} lattio_h5_info;

/* Collective.  Write the field (descriptor and layout as lattio_field_write:
 * d->disk_format gives the precision, the layout the byte order) to
 * `target`.  A new file is written under a temporary name and renamed when
 * every rank succeeded; with o->append the existing file is copied first,
 * so a failed or killed writer leaves FILE as it was (the object must not
 * exist yet).  d->verify re-reads the data (a split differing from the
 * writer's) and compares checksums; d->verify_retries rewrites.  Errors:
 * those of lattio_field_write, ERR_HDF5 (the library's message in
 * lattio_last_detail), ERR_HDF5_UNAVAILABLE.  `out`, `h5` may be NULL. */
int lattio_h5_write(MPI_Comm comm, const char *target, const lattio_field_desc *d,
                    const lattio_layout *l, const void *local, const lattio_h5_options *o,
                    lattio_field_write_info *out, lattio_h5_info *h5);

/* Collective.  Several fields in one HDF5 file, added one at a time (an
 * eigenvector set, the fields of a multi-record SciDAC file, fields of
 * different types): open creates FILE under a temporary name (with
 * o->append a copy of the existing FILE, judged as a reader would; nd: the
 * lattice dimensions of the fields), each add writes one field as the
 * object OBJECT (an absolute path, intermediate groups created; the
 * descriptor and layout its own) exactly as lattio_h5_write does, and close
 * renames when every add succeeded on every rank, else discards the file
 * (an add after a failed one is refused) and returns the failure.  Only
 * the field being added is in memory.  Arguments that differ between ranks
 * are ERR_RANK_ARG on every rank.  Errors: those of lattio_h5_write. */
typedef struct lattio_h5_writer lattio_h5_writer;
int lattio_h5_writer_open(MPI_Comm comm, const char *file, int nd, const lattio_h5_options *o,
                          lattio_h5_writer **w);
int lattio_h5_writer_add(lattio_h5_writer *w, const char *object, const lattio_field_desc *d,
                         const lattio_layout *l, const void *local, lattio_field_write_info *out,
                         lattio_h5_info *h5);
int lattio_h5_writer_close(lattio_h5_writer *w);

/* Collective.  n fields of one descriptor through a writer: the object of
 * field i is `OBJECT/field<i>` (i from 0; n = 1: OBJECT, lattio_h5_write).
 * n must agree (ERR_RANK_ARG). */
int lattio_h5_write_fields(MPI_Comm comm, const char *target, const lattio_field_desc *d,
                           const lattio_layout *l, int n, const void *const *locals,
                           const lattio_h5_options *o, lattio_field_write_info *out, lattio_h5_info *h5);

/* Collective.  Read the field at `target` (layout detected unless
 * o->layout says; any float/double compound of r,i or re,im, either byte
 * order, contiguous or chunked) into `local` (d->mem_format, d->elements
 * reals per site, any decomposition, halos, part of the lattice).  The
 * stored checksum (suma/sumb, .sha256) is compared when the ranks read the
 * whole lattice: ERR_CHECKSUM on every rank when it differs.  info->field
 * receives the metadata (free with lattio_field_info_free).  Errors:
 * ERR_HDF5_NOT_FOUND, ERR_HDF5_LAYOUT (not a field; shape or type),
 * ERR_FIELD_DIMS, ERR_FIELD_LENGTH, ERR_HDF5_ATTRIBUTE, ERR_CHECKSUM,
 * ERR_NO_CHECKSUM (d->require_checksum), ERR_HDF5, ERR_HDF5_UNAVAILABLE.
 * `info`, `h5` may be NULL. */
int lattio_h5_read(MPI_Comm comm, const char *target, const lattio_field_desc *d,
                   const lattio_layout *l, void *local, const lattio_h5_options *o,
                   lattio_field_read_info *info, lattio_h5_info *h5);


/* Collective.  The lattice fields in HDF5 file `path` (datasets whose type
 * is reals or r,i compounds, with 4 lattice dimensions unless nd > 0 says
 * otherwise, and Qlua gauge groups), in name order: up to max entries into
 * out, their number in *count.  Errors: ERR_OPEN (not an HDF5 file), ERR_HDF5. */
int lattio_h5_list(MPI_Comm comm, const char *path, int nd, lattio_h5_entry *out, int max,
                   int *count);

/* Collective.  The field at `target` ("FILE:/PATH"; soft links inside the
 * file followed, as a read follows them) into *e.  Errors: those of
 * lattio_h5_list, ERR_HDF5_NOT_FOUND, ERR_HDF5_LAYOUT (the object is not a
 * lattice field), ERR_HDF5_LINK (an external or user-defined link). */
int lattio_h5_find(MPI_Comm comm, const char *target, int nd, lattio_h5_entry *e);

/* Collective.  The lattice fields `target` names: every field of an HDF5
 * file ("FILE"), or the one at PATH ("FILE:/PATH", as lattio_h5_find), in
 * *list (malloc'd, free(); NULL when none) and *count; the file's name in
 * file (file_size bytes).  Rank 0's view decides which of the two target
 * is.  Errors: those of lattio_h5_list and lattio_h5_find, ERR_NOMEM. */
int lattio_h5_fields(MPI_Comm comm, const char *target, int nd, char *file, size_t file_size,
                     lattio_h5_entry **list, int *count);

/* Collective on `comm`.  Plaquette, link trace and unitarity of a 4-D SU(3)
 * gauge field distributed as layout l describes (native doubles, 72 per
 * site in ILDG order; directions mu = x, y, z, t are the lattice dimensions
 * file_order[3], [2], [1], [0]; any box decomposition, halos ignored):
 * the same numbers as lattio_gauge_stats_compute on the whole field, up to
 * the order of summation.  The links at x + mu beyond the box's upper faces
 * come from their owners: ranks exchange their boxes (MPI_Allgather) and
 * each sends the intersections of its box with the others' shifted faces
 * (one MPI_Alltoallv of 4 faces).  Errors: ERR_ARG, ERR_LAYOUT (not 4-D,
 * site_bytes != 576, boxes that do not tile), ERR_NOMEM, ERR_MPI. */
int lattio_gauge_stats_mpi(MPI_Comm comm, const lattio_layout *l, const double *local,
                           lattio_gauge_stats *out);

/* Collective on `comm`.  lattio_verify_file's checks with every binary
 * record of a LIME file read over the ranks (slabs of the slowest
 * dimension; checksums and gauge observables computed in parallel), HDF5
 * files too (every lattice field, or the one "FILE:/PATH" names); other
 * formats and records the parallel reader cannot take are read by rank 0.
 * The report is complete on rank 0; every rank returns rank 0's status.
 * When glocal != NULL, the gauge field read in parallel (a LIME or HDF5
 * gauge field; this rank's slab of t, native doubles in ILDG order, layout
 * *gl) is handed over in *glocal (free()), NULL on every rank when there is
 * none.  The path must be the same on every rank (ERR_RANK_ARG). */
int lattio_verify(MPI_Comm comm, const char *path, lattio_verify_report *rep, lattio_layout *gl,
                  double **glocal);

/* Local.  This rank's slab of the slowest dimension (lattio_layout_slab_of
 * with the communicator's size and rank).  Errors: ERR_ARG, ERR_LAYOUT,
 * ERR_MPI. */
int lattio_layout_slab(MPI_Comm comm, int nd, const uint64_t *dims, uint64_t elements, lattio_layout *l);

/* Collective on `comm`.  lattio_convert_file's conversions, and those that
 * need MPI: a LIME gauge field read, written (verify-after-write, one
 * rewrite) and verified over the ranks when IN is ILDG/SciDAC and OUT
 * ILDG, SciDAC or HDF5; every field of a file of other fields (read in
 * slabs of its slowest dimension, written by the parallel writers,
 * compared value by value); HDF5 IN and OUT.  Conversions of other formats,
 * joins and splits run on rank 0.  The report is complete on rank 0;
 * every rank returns its status.  `in`, `out` and `o` must agree on every
 * rank (ERR_RANK_ARG). */
int lattio_convert(MPI_Comm comm, const char *in, const char *out, const lattio_convert_options *o,
                   lattio_convert_report *rep);

#endif /* LATTIO_NO_MPI */

#if defined(__GNUC__)
#pragma GCC visibility pop
#endif

#ifdef __cplusplus
}
#endif

#endif /* LATTIO_H */
