/*
 * tpevent.h: tracepoint payloads (PERF_SAMPLE_RAW of PERF_TYPE_TRACEPOINT
 * samples) decoded with libtraceevent, the library perf uses, from the event
 * formats of the recording's TRACING_DATA (feature section, or the
 * TRACING_DATA record of a pipe).
 *
 * A handle is not thread-safe (libtraceevent caches lookups in it): one per
 * thread.  Texts and values are the recording's data, not escaped: callers
 * escape them as every name from a recording.
 */
#ifndef PERFNAV_SYMBOLIZE_TPEVENT_H
#define PERFNAV_SYMBOLIZE_TPEVENT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "core/session.h"

struct tpevent;

/* A handle for s's tracing data, or NULL when s has none (or none that
 * parses up to the event formats). */
struct tpevent *tpevent_new(const struct session *s);
/* The same from the bytes of a TRACING_DATA section (tests). */
struct tpevent *tpevent_from_data(const uint8_t *p, size_t len);
void tpevent_free(struct tpevent *t);

/* Number of event formats libtraceevent parsed. */
size_t tpevent_nformats(const struct tpevent *t);
/* Number of parts of the tracing data (an event format, the printk
 * formats...) skipped because libtraceevent crashed or hung on them in a
 * trial parse in a child process: their tracepoints print as having no
 * format. */
size_t tpevent_skipped(const struct tpevent *t);

/* Is there a parsed format for the tracepoint id config (attr.config)? */
bool tpevent_known(struct tpevent *t, uint64_t config);

/*
 * perf script's trace text of a payload of tracepoint config (tep_print_event's
 * info, as perf's event_format__fprintf), NUL-terminated, valid until the
 * next call on t.  A payload the format cannot be read from (no format,
 * shorter than its fields, another event's type) gives a bracketed
 * fallback instead, and *decoded (if not NULL) says which.
 */
const char *tpevent_text(struct tpevent *t, uint64_t config, const uint8_t *raw,
    uint32_t raw_size, uint32_t cpu, bool *decoded);

#define TP_VALUE_MAX	96

/* One field of a payload, as the format describes it. */
struct tp_field {
	const char	*name;		/* the handle's: valid while it lives */
	const char	*type;		/* "pid_t", "char[16]"... */
	uint32_t	 offset, size;	/* in the payload */
	bool		 common;	/* common_* fields */
	bool		 outside;	/* offset + size past the payload */
	char		 value[TP_VALUE_MAX];	/* the value as libtraceevent prints it */
};

/*
 * The fields of a payload of tracepoint config, common ones first, at most
 * max into out; returns their number (0: no format).  Fields past the
 * payload are listed with outside set and no value.
 */
size_t tpevent_fields(struct tpevent *t, uint64_t config, const uint8_t *raw, uint32_t raw_size,
    struct tp_field *out, size_t max);

/* Where a numeric field lies in the payloads of one tracepoint. */
struct tp_loc {
	uint32_t	 offset, size;	/* size 1, 2, 4 or 8 */
	bool		 is_signed;
	bool		 swap;		/* the recording's byte order is not the host's */
};

/*
 * The place of the field called name (not a common one) in payloads of
 * tracepoint config, looked up once to read many payloads with
 * tp_loc_read().  False when there is no format, no such field, or it is
 * not an integer of 1, 2, 4 or 8 bytes (an array, a dynamic field).
 */
bool tpevent_field_loc(struct tpevent *t, uint64_t config, const char *name, struct tp_loc *loc);

/*
 * The integer at loc in a payload of raw_size bytes, sign-extended if the
 * field is signed, into *v.  False (and *v 0) when the payload is too short
 * for it.  Needs no handle: safe from any thread.
 */
bool tp_loc_read(const struct tp_loc *loc, const uint8_t *raw, uint32_t raw_size, int64_t *v);

#endif
