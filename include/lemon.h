/*
 * lemon.h -- lattio's drop-in replacement for the Lemon API (MPI-parallel
 * LIME, as used by tmLQCD and others).
 *
 * Programs written for Lemon compile unchanged against this header (and the
 * shims lemon_defines.h, lemon_header.h, lemon_reader.h, lemon_writer.h,
 * lemon_binheader.h) and link against liblattio instead of liblemon.  The
 * function signatures, the public structures (field names and types), the
 * status codes (the C-LIME values) and the contract are Lemon's:
 *   - the caller opens and closes the MPI_File; a writer starts at the
 *     caller's individual file pointer (MPI_File_get_position), so appending
 *     works; after each record (and at lemonDestroyWriter) every rank's
 *     individual file pointer is left after what was written, so a later
 *     writer appends; a reader starts at the beginning of the file;
 *   - metadata (lemonWriteRecordData) is written by rank 0 and read
 *     (lemonReaderReadData) by every rank;
 *   - lattices: latticeDims in the communicator's dimension order;
 *     mapping[i] names the lattice dimension stored as file dimension i
 *     (slowest first; tmLQCD passes {0,3,2,1}); the local buffer holds this
 *     rank's sites already in file order; sites are opaque bytes; a lattice
 *     is written or read at the current position in the record, which then
 *     advances past it (several lattices may share one record);
 *   - a non-blocking call is completed by lemonFinishWriting /
 *     lemonFinishReading, or by the next call on the same writer or reader.
 *
 * Differences from Lemon, all in the direction of safety:
 *   - the library never prints; every collective call returns the same
 *     status on every rank (one rank's bad argument or I/O error surfaces
 *     everywhere, no rank is left waiting in a later collective);
 *   - NULL handles and arguments return LEMON_ERR_PARAM (NULL / negative
 *     values from the accessors) instead of crashing;
 *   - the record length declared in the header is enforced: writing beyond
 *     it returns LEMON_ERR_WRITE and writes nothing; reading beyond it reads
 *     what is left, sets *nbytes to that and returns LEMON_EOR (the
 *     non-blocking reads and lattices that do not fit return LEMON_EOR /
 *     LEMON_ERR_WRITE and transfer nothing);
 *   - a lattice whose extents are not divisible by the process grid returns
 *     LEMON_ERR_PARAM on every rank and transfers nothing (Lemon silently
 *     wrote part of it: the caller's local buffer size would be ambiguous);
 *   - Cartesian communicators of 1 to 8 dimensions work in every lattice call
 *     (a non-Cartesian communicator is LEMON_ERR_PARAM there; metadata
 *     records work on any communicator);
 *   - sizes and site counts are 64-bit throughout (records and lattices
 *     beyond 2 GiB and 2^31 sites);
 *   - the non-blocking calls never issue a collective file call while a
 *     request is pending (Lemon deadlocked), keep the record offsets right
 *     and write the padding;
 *   - lemonWriterSeek / lemonReaderSeek accept positions 0..length
 *     inclusive; MPI_SEEK_END counts |offset| bytes back from the end of the
 *     record (Lemon subtracted offset, POSIX adds a negative one: both work);
 *     a refused seek leaves the position unchanged;
 *   - lemonWriterCloseRecord on a record written short pads it with zero
 *     bytes up to its declared length; lemonDestroyWriter closes a record
 *     still open the same way instead of abandoning it;
 *   - lemonWriterSetState needs the source writer between records
 *     (LEMON_ERR_PARAM otherwise); both SetState calls are collective;
 *   - no fsync or barrier after every call: data reach the file system at
 *     MPI_File_close (call MPI_File_sync for durability);
 *   - lemon_binheader.h has no static header buffer (not thread-safe in Lemon).
 */
#ifndef LATTIO_LEMON_H
#define LATTIO_LEMON_H

#include <mpi.h>
#include <stdint.h>
#include <stdlib.h>

#ifdef __cplusplus
extern "C" {
#endif

/* The library is built with hidden visibility: what this header declares is
 * its exported API. */
#if defined(__GNUC__)
#pragma GCC visibility push(default)
#endif

/* --- lemon_defines.h ------------------------------------------------------ */

#ifndef LEMON_MAGIC_NO
#define LEMON_MAGIC_NO 0x456789ab
#endif
#ifndef LEMON_VERSION
#define LEMON_VERSION 1
#endif
#ifndef LEMON_MAX_BUFSIZE
#define LEMON_MAX_BUFSIZE 2147483647
#endif
#ifndef HDR_SIZE_BYTES
#define HDR_SIZE_BYTES 144
#endif
#ifndef MB_MASK
#define MB_MASK ((int)0x80)
#endif
#ifndef ME_MASK
#define ME_MASK ((int)0x40)
#endif
/* Bytes of the header's type field: a type of up to 128 characters, NUL-
 * terminated when shorter (a full field has no NUL; written and read). */
#ifndef MAX_LEMON_HDR_REC_TYPE
#define MAX_LEMON_HDR_REC_TYPE 128
#endif

enum LEMON_Error_codes {
    LEMON_SUCCESS = 0,
    LEMON_ERR_LAST_NOT_WRITTEN = -1,
    LEMON_ERR_PARAM = -2,       /* invalid argument or state */
    LEMON_ERR_HEADER_NEXT = -3, /* a record is still open */
    LEMON_LAST_REC_WRITTEN = -4,
    LEMON_ERR_WRITE = -5,       /* write failed or beyond the record */
    LEMON_EOR = -6,             /* end of record */
    LEMON_EOF = -7,             /* end of file: no further record */
    LEMON_ERR_READ = -8,        /* read failed or invalid header */
    LEMON_ERR_SEEK = -9,        /* seek outside the record */
    LEMON_ERR_MBME = -10,       /* message begin/end flags inconsistent */
    LEMON_ERR_CLOSE = -11       /* closing failed */
};

/* --- lemon_header.h ------------------------------------------------------- */

typedef struct {
    unsigned int lemon_version; /* always 1 */
    int MB_flag;                /* message begin */
    int ME_flag;                /* message end */
    char *type;                 /* NUL-terminated record type */
    uint64_t data_length;       /* payload bytes, padding excluded */
} LemonRecordHeader;

/* Local.  NULL when out of memory, type is NULL or reclen < 0.  Copies type. */
LemonRecordHeader *lemonCreateHeader(int MB_flag, int ME_flag, char const *type,
                                     MPI_Offset reclen);
void lemonDestroyHeader(LemonRecordHeader *h);

/* --- lemon_reader.h ------------------------------------------------------- */

/* Reader state.  The fields mirror Lemon's and are kept up to date for
 * programs that look at them; lattio's own state lives behind the struct. */
typedef struct {
    MPI_File *fp;                  /* the caller's file */
    LemonRecordHeader *curr_header; /* the current header (owned by the reader) */
    MPI_Comm cartesian;            /* lattio's duplicate of the communicator */
    int my_rank;
    MPI_Offset off;                /* file offset of the current payload */
    MPI_Offset pos;                /* position inside the payload */
    int is_last;                   /* the current record has ME set */
    int is_awaiting_header;        /* no record is current */
    int is_busy;                   /* a non-blocking read is pending */
    int is_striped;                /* unused, 0 */
    void *buffer;                  /* destination of the pending read */
    size_t bytes_wanted;           /* bytes of the pending read on this rank */
} LemonReader;

/* Collective.  NULL (on every rank) when fp is NULL, the communicator is
 * unusable or the file cannot be read. */
LemonReader *lemonCreateReader(MPI_File *fp, MPI_Comm cartesian);
/* Collective.  Completes a pending read; leaves the MPI_File open. */
void lemonDestroyReader(LemonReader *reader);
/* Local.  lemonReaderSeek(reader, offset, MPI_SEEK_SET). */
int lemonSetReaderPointer(LemonReader *reader, MPI_Offset offset);
/* Local.  Position inside the current payload; LEMON_ERR_PARAM for NULL. */
MPI_Offset lemonGetReaderPointer(LemonReader *reader);

/* Advance to the next record.  LEMON_EOF after the last one,
 * LEMON_ERR_READ for a damaged header. */
int lemonReaderNextRecord(LemonReader *reader);
int lemonReaderMBFlag(LemonReader *reader); /* LEMON_ERR_PARAM without a record */
int lemonReaderMEFlag(LemonReader *reader); /* LEMON_ERR_PARAM without a record */
char const *lemonReaderType(LemonReader *reader); /* NULL without a record */
MPI_Offset lemonReaderBytes(LemonReader *reader);    /* 0 without a record */
MPI_Offset lemonReaderPadBytes(LemonReader *reader); /* 0 without a record */

/* Collective.  Every rank reads up to *nbytes bytes at the current position
 * into dest; *nbytes receives the count read; LEMON_EOR when fewer than asked
 * were left in the record. */
int lemonReaderReadData(void *dest, MPI_Offset *nbytes, LemonReader *reader);
int lemonReaderCloseRecord(LemonReader *reader);
/* whence: MPI_SEEK_SET, MPI_SEEK_CUR, MPI_SEEK_END within the current
 * payload; LEMON_ERR_SEEK outside 0..length (position unchanged). */
int lemonReaderSeek(LemonReader *reader, MPI_Offset offset, int whence);
/* Collective.  Make rdest's current record and position those of rsrc
 * (both on the same file and communicator). */
int lemonReaderSetState(LemonReader *rdest, LemonReader const *rsrc);
/* 1 when the current record ends a message, 0 otherwise. */
int lemonEOM(LemonReader *reader);

int lemonReadLatticeParallel(LemonReader *reader, void *data, MPI_Offset siteSize,
                             int const *latticeDims);
int lemonReadLatticeParallelMapped(LemonReader *reader, void *data, MPI_Offset siteSize,
                                   int const *latticeDims, int const *mapping);
int lemonReadLatticeParallelNonBlocking(LemonReader *reader, void *data, MPI_Offset siteSize,
                                        int const *latticeDims);
int lemonReadLatticeParallelNonBlockingMapped(LemonReader *reader, void *data,
                                              MPI_Offset siteSize, int const *latticeDims,
                                              int const *mapping);
int lemonReaderReadDataNonBlocking(void *dest, MPI_Offset const *nbytes, LemonReader *reader);
/* Collective.  Complete a pending non-blocking read (LEMON_SUCCESS if none). */
int lemonFinishReading(LemonReader *reader);

/* --- lemon_writer.h ------------------------------------------------------- */

typedef struct {
    MPI_File *fp;           /* the caller's file */
    MPI_Comm cartesian;     /* lattio's duplicate of the communicator */
    int my_rank;
    MPI_Offset off;         /* payload of the open record, or the next header */
    MPI_Offset pos;         /* position inside the payload */
    int is_awaiting_header; /* no record is open */
    int is_busy;            /* a non-blocking write is pending */
    int is_collective;      /* unused, 0 */
    int is_first_record;    /* no header written yet */
    int is_last;            /* the open record has ME set */
    int is_last_written;    /* the last record closed had ME set */
    void *buffer;           /* source of the pending write */
    MPI_Request request;    /* unused, MPI_REQUEST_NULL */
    int bytes_wanted;       /* unused, 0 */
    MPI_Offset data_length; /* declared payload length of the open record */
} LemonWriter;

/* Collective.  NULL (on every rank) when fp is NULL, the ranks' file
 * positions differ or the communicator is unusable. */
LemonWriter *lemonCreateWriter(MPI_File *fp, MPI_Comm cartesian);
/* Collective.  Completes pending writes, closes an open record, leaves the
 * file pointer after the last record; the MPI_File stays open. */
int lemonDestroyWriter(LemonWriter *writer);
/* Collective.  LEMON_ERR_HEADER_NEXT while a record is open,
 * LEMON_ERR_MBME when MB does not follow the previous record's ME. */
int lemonWriteRecordHeader(LemonRecordHeader const *props, LemonWriter *writer);
/* Collective.  Rank 0 writes its *nbytes bytes at the current position;
 * *nbytes receives the count written on every rank. */
int lemonWriteRecordData(void *source, MPI_Offset *nbytes, LemonWriter *writer);
/* Collective.  Writes the padding; LEMON_ERR_CLOSE when no record is open. */
int lemonWriterCloseRecord(LemonWriter *writer);
/* Collective.  As lemonReaderSeek, in the open record. */
int lemonWriterSeek(LemonWriter *writer, MPI_Offset offset, int whence);
/* Collective.  wdest continues where wsrc (between records) stands. */
int lemonWriterSetState(LemonWriter *wdest, LemonWriter const *wsrc);

int lemonWriteLatticeParallel(LemonWriter *writer, void *data, MPI_Offset siteSize,
                              int const *latticeDims);
int lemonWriteLatticeParallelNonBlocking(LemonWriter *writer, void *data, MPI_Offset siteSize,
                                         int const *latticeDims);
int lemonWriteLatticeParallelMapped(LemonWriter *writer, void *data, MPI_Offset siteSize,
                                    int const *latticeDims, int const *mapping);
int lemonWriteLatticeParallelNonBlockingMapped(LemonWriter *writer, void *data,
                                               MPI_Offset siteSize, int const *latticeDims,
                                               int const *mapping);
int lemonWriteRecordDataNonBlocking(void *source, MPI_Offset const *nbytes, LemonWriter *writer);
/* Collective.  Complete a pending non-blocking write (LEMON_SUCCESS if none). */
int lemonFinishWriting(LemonWriter *writer);

#if defined(__GNUC__)
#pragma GCC visibility pop
#endif

#ifdef __cplusplus
}
#endif

#endif
