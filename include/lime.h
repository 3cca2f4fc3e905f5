/*
 * lime.h -- lattio's drop-in replacement for the C-LIME API.
 *
 * Programs written for the serial reference LIME library (C-LIME 1.3.x and
 * later: 64-bit lengths as n_uint64_t) compile unchanged against this header
 * and link against liblattio instead of liblime.  Function signatures, the
 * public structures (field order and types), the status codes and the
 * reader/writer semantics are those of C-LIME, including the multi-writer
 * protocol (limeWriterSetState / limeWriterSeek / limeWriterCloseRecord).
 *
 * Differences, all in the direction of safety:
 *   - the library never prints and never exits: a header with a version
 *     other than 1 makes limeReaderNextRecord return LIME_ERR_READ where
 *     C-LIME aborts the process;
 *   - NULL handles and arguments return LIME_ERR_PARAM (or NULL / -1 from
 *     the accessors) instead of crashing;
 *   - a header cut short by the end of the file is LIME_ERR_READ (C-LIME
 *     reports LIME_EOF); a clean end of file is LIME_EOF as before;
 *   - payload lengths near 2^63 and beyond are rejected with LIME_ERR_READ;
 *   - record types longer than the 128-byte field are refused by the
 *     writer (LIME_ERR_PARAM); a 128-character type fills the field with no
 *     NUL and is written and read, as by C-LIME;
 *   - seeks outside the current record move to the nearest end of the
 *     record and return LIME_ERR_SEEK (C-LIME documents this but returns
 *     LIME_SUCCESS);
 *   - limeEOM, declared but never defined by C-LIME, is defined here.
 * Everything else in lattio (lattio.h) is independent of this header.
 */
#ifndef LIME_H
#define LIME_H

/* As C-LIME's lime.h: the package identification and DCAP/DCAPL come with it. */
#include "dcap-overload.h"
#include "lime_config.h"

/* Marks a parameter a function does not use (C-LIME 1.3.3). */
#ifndef _LIME_UNUSED_PARAM
#define _LIME_UNUSED_PARAM(p) (void)(p)
#endif

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <sys/types.h>

#ifdef __cplusplus
extern "C" {
#endif

/* The library is built with hidden visibility: what this header declares is
 * its exported API. */
#if defined(__GNUC__)
#pragma GCC visibility push(default)
#endif

/* --- lime_fixed_types.h -------------------------------------------------- */

typedef uint16_t n_uint16_t;
typedef uint32_t n_uint32_t;
typedef uint64_t n_uint64_t;

/* --- lime_defs.h --------------------------------------------------------- */

#define LIME_MAGIC_NO 1164413355 /* 0x456789AB */
#define LIME_VERSION ((unsigned int)0x01)
#define LIME_MAX_BUFSIZE ((unsigned int)2147483647)

/* Bytes of the header's type field: a type of up to 128 characters, NUL-
 * terminated when shorter. */
#ifndef MAX_LIME_HDR_REC_TYPE
#define MAX_LIME_HDR_REC_TYPE 128
#endif

#define LIME_SUCCESS ((int)0)
#define LIME_ERR_LAST_NOT_WRITTEN ((int)-1)
#define LIME_ERR_PARAM ((int)-2)        /* invalid argument or state */
#define LIME_ERR_HEADER_NEXT ((int)-3)  /* a record is still open */
#define LIME_LAST_REC_WRITTEN ((int)-4)
#define LIME_ERR_WRITE ((int)-5)        /* write failed */
#define LIME_EOR ((int)-6)              /* end of record: no payload left */
#define LIME_EOF ((int)-7)              /* end of file: no further record */
#define LIME_ERR_READ ((int)-8)         /* read failed or header invalid */
#define LIME_ERR_SEEK ((int)-9)         /* seek failed or out of the record */
#define LIME_ERR_MBME ((int)-10)        /* message begin/end flags inconsistent */
#define LIME_ERR_CLOSE ((int)-11)
/* Name of -7 in C-LIME releases before LIME_EOF existed. */
#define LIME_EOM ((int)-7)

/* --- lime_header.h ------------------------------------------------------- */

/* One record header.  limeCreateHeader copies `type`. */
typedef struct {
    unsigned int lime_version; /* always written as 1 */
    int MB_flag;               /* message begin */
    int ME_flag;               /* message end */
    char *type;                /* NUL-terminated record type */
    n_uint64_t data_length;    /* payload bytes, padding excluded */
} LimeRecordHeader;

/* NULL when out of memory or type is NULL. */
LimeRecordHeader *limeCreateHeader(int MB_flag, int ME_flag, char *type, n_uint64_t reclen);
void limeDestroyHeader(LimeRecordHeader *h);

/* --- lime_writer.h ------------------------------------------------------- */

/* Writer state.  The fields are public because the multi-writer protocol
 * copies the whole structure between processes (limeWriterSetState). */
typedef struct {
    int first_record;      /* 1 until a record without MB has been begun */
    int last_written;      /* a record with ME has been completed */
    FILE *fp;              /* the stream written to (not copied by SetState) */
    int header_nextP;      /* 1: a header comes next; 0: a record is open */
    n_uint64_t bytes_total; /* payload length of the current record */
    n_uint64_t bytes_left;  /* payload bytes not yet written by this writer */
    n_uint64_t rec_ptr;     /* position inside the payload, 0..bytes_total */
    n_uint64_t rec_start;   /* file offset of the payload */
    size_t bytes_pad;       /* padding after the payload */
    int isLastP;            /* the current record ends a message */
} LimeWriter;

LimeWriter *limeCreateWriter(FILE *fp);
int limeDestroyWriter(LimeWriter *s);
/* Begin a record.  LIME_ERR_HEADER_NEXT while a record is open;
 * LIME_ERR_MBME when MB does not follow the previous record's ME. */
int limeWriteRecordHeader(LimeRecordHeader *props, LimeWriter *d);
/* Write *nbytes bytes at the current payload position, truncated to the
 * room left; *nbytes receives the count written.  The padding is written
 * and the record closed once the payload is complete. */
int limeWriteRecordData(void *source, n_uint64_t *nbytes, LimeWriter *d);
/* Finish the current record (writes the padding). */
int limeWriterCloseRecord(LimeWriter *w);
/* Move within the current payload: SEEK_SET from its start or SEEK_CUR. */
int limeWriterSeek(LimeWriter *r, off_t offset, int whence);
/* Copy wsrc's state (not its FILE) into wdest and position wdest's FILE. */
int limeWriterSetState(LimeWriter *wdest, LimeWriter *wsrc);

/* --- lime_reader.h ------------------------------------------------------- */

typedef struct {
    int first_read;                /* a header has been read */
    int is_last;                   /* the current record has ME set */
    int header_nextP;              /* kept for layout compatibility */
    FILE *fp;                      /* the stream read from */
    LimeRecordHeader *curr_header; /* the current header, owned by the reader */
    n_uint64_t bytes_left;          /* payload bytes not yet read */
    n_uint64_t bytes_total;         /* payload length of the current record */
    n_uint64_t rec_ptr;             /* position inside the payload */
    n_uint64_t rec_start;           /* file offset of the payload */
    size_t bytes_pad;               /* padding after the payload */
} LimeReader;

LimeReader *limeCreateReader(FILE *fp);
/* Position the reader at `offset`, which must be the start of a record. */
int limeSetReaderPointer(LimeReader *r, off_t offset);
/* Offset of the next record's header (the FILE position before the first
 * record); -1 for a NULL reader. */
off_t limeGetReaderPointer(LimeReader *r);
void limeDestroyReader(LimeReader *r);
/* Skip the rest of the current record and read the next header.
 * LIME_EOF at the end of the file, LIME_ERR_READ for an invalid header. */
int limeReaderNextRecord(LimeReader *r);
int limeReaderMBFlag(LimeReader *r);  /* -1 without a current header */
int limeReaderMEFlag(LimeReader *r);  /* -1 without a current header */
char *limeReaderType(LimeReader *r);  /* NULL without a current header */
n_uint64_t limeReaderBytes(LimeReader *r);  /* 0 without a current header */
size_t limeReaderPadBytes(LimeReader *r);   /* 0 without a current header */
/* Read up to *nbytes payload bytes; *nbytes receives the count read.
 * LIME_EOR (and *nbytes = 0) when the payload is exhausted. */
int limeReaderReadData(void *dest, n_uint64_t *nbytes, LimeReader *r);
/* Skip to the end of the current record (after its padding). */
int limeReaderCloseRecord(LimeReader *r);
/* Move within the current payload: SEEK_SET from its start or SEEK_CUR. */
int limeReaderSeek(LimeReader *r, off_t offset, int whence);
/* Copy rsrc's position (not its FILE or header) into rdest. */
int limeReaderSetState(LimeReader *rdest, LimeReader *rsrc);
/* 1 when the current record ends a message (ME set), 0 otherwise;
 * LIME_ERR_PARAM for a NULL reader. */
int limeEOM(LimeReader *r);

#if defined(__GNUC__)
#pragma GCC visibility pop
#endif

#ifdef __cplusplus
}
#endif

#endif
