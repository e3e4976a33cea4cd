/*
 * hist_cache.h: a finished hist kept as a flat payload and made again from
 * it (issue 28's cache: the next `perfnav top` of a recording reads its
 * rows instead of walking and resolving every sample).
 *
 * The payload (docs/cache.md has the layout) holds the hist's string
 * table, events, function nodes, entries and failure counts as they were
 * before hist_finish, each symbol by its identity (DSO, index in the DSO's
 * table, inline name) rather than by the symbolizer's id, and for every
 * DSO the rows name the state its symbols were loaded in (the source, the
 * files and their size, mtime and inode, the symbol count and a digest of
 * the table).  Making the hist again loads those DSOs in a fresh
 * symbolizer and compares: a file changed, appeared or gone gives "stale"
 * (the caller builds afresh); otherwise the payload is merged into a new
 * hist (hist_merge's path, so ids are its own), which the caller finishes.
 *
 * The payload is input: every count, offset and id is checked against the
 * payload, the session and the symbolizer before use.  Nothing here prints
 * or touches files but the DSOs' (stat); core/session_cache.h keeps the
 * payload in a checksummed file.
 */
#ifndef PERFNAV_SYMBOLIZE_HIST_CACHE_H
#define PERFNAV_SYMBOLIZE_HIST_CACHE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "core/err.h"
#include "symbolize/hist.h"
#include "symbolize/symbolizer.h"

/*
 * May a hist of options o over s be kept?  Its keys among comm, pid,
 * process, dso, sym and cpu; no filter, off-CPU, parallelism, paths, call
 * graph, record_self, branch or memory mode, perf's entry tree, trace
 * chains (Intel PT, chainsrc.h).  The caller leaves out what it adds after
 * the walk (pt_hist_add) and what it reads of the symbolizer besides names.
 */
bool hist_cache_able(const struct session *s, const struct hist_opts *o);

/*
 * A digest of what a kept hist depends on besides the recording and the
 * DSOs' files: the payload's format, the hist options o and the symbol
 * options so, and the environment the symbolizer reads (HOME, for the
 * build-id cache, DEBUGINFOD_URLS).
 */
uint64_t hist_cache_sub(const struct hist_opts *o, const struct sym_opts *so);

/* The payload of h (filled, finished or not): malloc'd, *len bytes; NULL if not able. */
void *hist_cache_pack(struct hist *h, size_t *len);
/*
 * The same in two steps: start takes what the payload needs of h's
 * symbolizer, its strings and function nodes (NULL if not able), so that
 * finish (which frees k; NULL for a NULL k) may run on another thread
 * while the symbolizer is in use, reading only h's arrays, which nothing
 * may change meanwhile (hist_rescope).  free: a start not finished.
 */
struct hist_pack;
struct hist_pack *hist_cache_pack_start(struct hist *h);
void *hist_cache_pack_finish(struct hist_pack *k, const struct hist *h, size_t *len);
/*
 * finish in two steps, for a payload written in place (a file's pages):
 * size gives its length (0: not able, k freed), fill writes it to dst
 * (that many bytes, zeroed) and frees k.
 */
size_t hist_cache_pack_size(struct hist_pack *k, const struct hist *h);
void hist_cache_pack_fill(struct hist_pack *k, const struct hist *h, void *dst);
void hist_cache_pack_free(struct hist_pack *k);

enum hist_cache_result {
	HIST_CACHE_OK,		/* *out: the hist, not finished */
	HIST_CACHE_STALE,	/* other options, or a DSO's files or symbols changed */
	HIST_CACHE_REFUSED,	/* err: the payload's offset and what is wrong */
};

/*
 * Make the hist a payload holds (len bytes at p) over session s,
 * symbolizer z (as hist_new: z must outlive it; the DSOs the rows name are
 * loaded in it) and options o.
 */
enum hist_cache_result hist_cache_unpack(const struct session *s, struct symbolizer *z,
    const struct hist_opts *o, const void *p, size_t len, struct hist **out,
    struct perf_err *err);

#endif
