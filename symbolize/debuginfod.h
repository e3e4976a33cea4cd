/*
 * debuginfod.h: a DSO's files by build id from the servers of
 * DEBUGINFOD_URLS (libdebuginfod, as perf and gdb ask them), the last place
 * src_elf.c looks (inside symbolize/).
 *
 * One struct dbgd per symbolizer (libdebuginfod's clients are not shared
 * between threads).  It exists only when DEBUGINFOD_URLS names a server
 * and sym_opts.no_debuginfod is off; its client is made on the first
 * question.  With the variable unset nothing is asked, no client made and
 * libdebuginfod not even loaded (it is opened with dlopen when needed; a
 * system without libdebuginfod.so.1 is as one without servers).
 * Files land in libdebuginfod's own cache (DEBUGINFOD_CACHE_PATH, else
 * ~/.cache/debuginfod_client), which answers later questions without the
 * network.  A question blocks its thread for the download: the browser
 * asks only from its workers and shows struct sym_dbgd_progress (symbolizer.h)
 * in its title.  Nothing here prints.
 */
#ifndef PERFNAV_SYMBOLIZE_DEBUGINFOD_H
#define PERFNAV_SYMBOLIZE_DEBUGINFOD_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "symbolize/symbolizer.h"

struct dbgd;

enum dbgd_kind {
	DBGD_EXECUTABLE,
	DBGD_DEBUGINFO,
};

/* The servers' client of a symbolizer, or NULL when nothing is to be asked
 * (o->no_debuginfod, or DEBUGINFOD_URLS unset or empty). */
struct dbgd *dbgd_new(const struct sym_opts *o);
void dbgd_free(struct dbgd *g);

/*
 * The file of kind k for build id bid (len bytes): its path in the cache
 * into out (n bytes).  True if a server (or the cache) has it.  g may be
 * NULL (false).  Each (build id, kind) is asked once per dbgd; its answer
 * is kept.
 */
bool dbgd_find(struct dbgd *g, const uint8_t *bid, size_t len, enum dbgd_kind k, char *out,
    size_t n);

/*
 * Ask no server from now on: dbgd_find answers only what was asked before
 * (of g, or of another taken over with dbgd_adopt).  g may be NULL.
 */
void dbgd_stop_asking(struct dbgd *g);
/* Take over from's answers (a second symbolizer's on another thread, done). */
void dbgd_adopt(struct dbgd *g, const struct dbgd *from);

/*
 * Did path come from dbgd_find?  Then the URL it was downloaded from (""
 * when it was already in the cache) and its kind into *kind; else NULL.
 */
const char *dbgd_origin(const struct dbgd *g, const char *path, enum dbgd_kind *kind);

/* The name of a kind ("executable", "debuginfo"). */
const char *dbgd_kind_name(enum dbgd_kind k);

#endif
