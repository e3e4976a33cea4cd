/*
 * session_int.h: what core/session.c (loading and indexing) and
 * core/session_file.c (the recording's files and file header) share.
 * Private to core/.
 */
#ifndef PERFNAV_CORE_SESSION_INT_H
#define PERFNAV_CORE_SESSION_INT_H

#include <stdbool.h>
#include <stdint.h>

#include "core/session.h"

/* Pages of the mapped file behind the walk are given back every so often:
 * the walk reads each once, and the resident set stays small. */
#define DROP_STEP	(UINT64_C(128) << 20)

struct perf_err;
struct session;

/*
 * Open one file of the recording into s->files (mapped, or read when it
 * cannot be mapped).  in_dir: a data.N file of a directory, opened only if
 * it is a regular file.  0, or an error in *err.
 */
int session_file_open(struct session *s, const char *path, bool in_dir, struct perf_err *err);
/* Directory mode: open data, then data.N in numeric order.  0, or an error in *err. */
int session_file_open_dir(struct session *s, const char *path, struct perf_err *err);
/* Check the first file's magic and set s->swap from it.  0, or an error in *err. */
int session_file_check_magic(struct session *s, struct perf_err *err);
/* Read and check the file header of s->files[0].  0, or an error in *err. */
int session_file_read_header(struct session *s, struct perf_err *err);
/* The attrs section and each attr's ids (damage goes to s->diags). */
void session_file_read_attrs(struct session *s);
/* Old perf's event_types section: tracepoint ids and names. */
void session_file_read_event_types(struct session *s);
/* The feature sections named by the header's bitmap (damage goes to s->diags). */
void session_file_read_features(struct session *s);
/* A sequential pass at base + pos: give back the pages DROP_STEP or more
 * behind *dropped (inline: it is asked once per record). */
static inline void
session_drop_behind(const struct session *s, uint64_t base, uint64_t *dropped, uint64_t pos)
{
	if (pos - *dropped >= DROP_STEP) {
		session_drop_pages(s, base + *dropped, base + pos);
		*dropped = pos;
	}
}

#endif
