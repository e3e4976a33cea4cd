/*
 * session_cache.h: a loaded recording's index kept in a file of a cache
 * directory, mapped back and used in place on the next open.
 *
 * What a clean load computed (the time-sorted index and who each record
 * is about, the record counts, the records that changed the session's
 * attrs and features, in walk order) is written to DIR/idx-HASH.pnc,
 * keyed by the recording's identity (device, inode, size, mtime and a
 * hash of its header and of blocks spread over it) and by a version
 * string the caller gives (session_opts.cache_version).  An entry for
 * another state of the file or another version is "stale": loaded
 * afresh.  An entry that is damaged (its size, a checksum, an offset or
 * count out of bounds) or not safely the user's (directory or file owned
 * by someone else, or writable by group or others) is "refused": never
 * trusted, loaded afresh, with the file, the offset and what is wrong in
 * session_cache_status().err.  docs/cache.md has the layout.
 *
 * Only what the cache can reproduce exactly is kept: a single file-mode
 * recording, mapped, uncompressed, loaded whole without a diagnostic and
 * without READ-value samples.  The session owns the mapping; nothing here
 * prints.  Paths, the size bound and when to save are the caller's.
 */
#ifndef PERFNAV_CORE_SESSION_CACHE_H
#define PERFNAV_CORE_SESSION_CACHE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "core/err.h"

struct session;

enum session_cache_state {
	SESSION_CACHE_OFF,	/* no cache asked for, or this recording cannot be kept */
	SESSION_CACHE_MISS,	/* no entry: loaded */
	SESSION_CACHE_STALE,	/* an entry of another file state, version or options: loaded */
	SESSION_CACHE_REFUSED,	/* an entry refused (err says why): loaded */
	SESSION_CACHE_HIT,	/* the index came from the entry */
};

struct session_cache_status {
	enum session_cache_state state;
	const char		*path;	/* the entry's file (the session's string), or NULL */
	struct perf_err		 err;	/* SESSION_CACHE_REFUSED: the file, offset, what */
	bool			 savable;	/* a load session_cache_save can keep */
	uint64_t		 bytes;		/* the entry's size when saved */
};

/* Where the session stands with its cache entry. */
struct session_cache_status session_cache_status(const struct session *s);
/* Short words for a state ("hit", "stale"...). */
const char *session_cache_state_name(enum session_cache_state st);

/*
 * Write the session's entry (when status().savable): to a temporary file
 * of the directory, then renamed over the entry, so a reader never sees a
 * part of one.  0, or -1 with err filled (the session is unchanged).
 */
int session_cache_save(struct session *s, struct perf_err *err);
/*
 * The same on a thread of its own (the session's index is only read);
 * session_cache_save_wait() or session_close() waits for it.  0 if
 * started (or nothing to save), -1 if no thread could be made.
 */
int session_cache_save_start(struct session *s);
/*
 * For an entry that will not be kept (over the caller's size bound): the
 * same write to a file of the directory that is never named (O_TMPFILE),
 * only so that the index is read from its pages rather than from
 * anonymous memory; the file goes with the session's index.  _start: on
 * a thread of its own, waited for as a save.
 */
int session_cache_spill(struct session *s, struct perf_err *err);
int session_cache_spill_start(struct session *s);
/* Wait for a save session_cache_save_start began: its result (0: none was begun). */
int session_cache_save_wait(struct session *s, struct perf_err *err);

/*
 * Check a cache image (len bytes) against s, the session it would be
 * used for (its attrs and files), as an open does before trusting one:
 * sizes, offsets and counts within bounds, entries within the recording's
 * data and in time order; the checksums too if sums.  The key is not
 * compared.  0, or -1 with err naming the offset and what is wrong.
 */
int session_cache_check(const struct session *s, const void *img, size_t len, bool sums,
    struct perf_err *err);
/* Recompute the checksums of an image whose header's bounds hold (fuzzing, tests). */
void session_cache_seal(void *img, size_t len);

/* What a cache file says of itself (perfnav cache list). */
struct session_cache_desc {
	char		 version[32];	/* NUL-terminated */
	char		 recording[512];	/* the recording's path when saved (not escaped) */
	uint64_t	 rec_size;	/* its size */
	uint64_t	 nrecords;	/* index entries */
	uint64_t	 file_size;	/* the cache file's */
	bool		 aux;		/* an aux file (session_cache_aux_write), no index */
};
/*
 * Read the header of a cache file (at dirfd/name) without trusting it:
 * 0, or -1 with err (not a cache file, truncated...).
 */
int session_cache_describe(int dirfd, const char *name, struct session_cache_desc *d,
    struct perf_err *err);
/*
 * Other files of the session's recording in its cache directory (a
 * finished aggregation, symbolize/hist_cache.h): DIR/agg-HASH.pnc, HASH
 * mixing the recording's device and inode with sub, the caller's digest of
 * what else the payload depends on.  The file holds a header (the
 * recording's key as the index entry's, the version, sub; a checksum of
 * itself and of the payload), the recording's path, then the payload.
 * Only for a session whose index came from its entry or could be saved
 * (else nothing is read or written: 0).  Written as the index entry is
 * (a temporary file renamed over it).
 *
 * session_cache_aux_read: 1 with the payload (*img, mapped read-only
 * until session_cache_aux_free, *len bytes, found at *base in the file), 0 when there is none or it is
 * stale (another key or sub), -1
 * when refused (not the user's alone, truncated, a checksum wrong, over
 * max bytes), err naming the offset and what is wrong.  *path (malloc'd,
 * NULL when the session keeps none) is the file's, for messages.
 */
int session_cache_aux_read(const struct session *s, uint64_t sub, size_t max, void **img,
    size_t *len, uint64_t *base, char **path, struct perf_err *err);
/* Unmap what session_cache_aux_read gave (img may be NULL). */
void session_cache_aux_free(void *img, size_t len, uint64_t base);
/* 0 (written, or nothing to write for this session), or -1 with err. */
int session_cache_aux_write(const struct session *s, uint64_t sub, const void *img, size_t len,
    struct perf_err *err);
/*
 * The same with the payload written by fill (len bytes at dst, zeroed)
 * straight into the file's pages, mapped shared: no copy of it in
 * anonymous memory.  The file's room is taken first (a full disk is -1).
 */
int session_cache_aux_fill(const struct session *s, uint64_t sub, size_t len,
    void (*fill)(void *dst, size_t len, void *arg), void *arg, struct perf_err *err);

/* Is name a cache entry's file name (idx-HASH.pnc, agg-HASH.pnc), or a temporary one being written? */
bool session_cache_file_name(const char *name, bool *tmp);

/*
 * Is the directory open at dirfd safe to keep entries in: owned by this
 * user, not writable by group or others?  0, or -1 with err saying why
 * (dir names it).
 */
int session_cache_dir_ok(int dirfd, const char *dir, struct perf_err *err);

#endif
