/*
 * fields.h: a record as a list of named fields, for `perfnav dump`,
 * `perfnav hex` and the TUI's hex pane.
 *
 * fields_describe() calls back once per field, in increasing offset order;
 * together the fields cover every byte of the record exactly once (header,
 * body, padding, the sample_id_all trailer, and whatever could not be
 * decoded).  Name and value strings belong to the describer and are valid
 * only during the callback: copy what you keep.  Nothing is allocated.
 */
#ifndef PERFNAV_CORE_FIELDS_H
#define PERFNAV_CORE_FIELDS_H

#include <stddef.h>
#include <stdint.h>

struct session;
struct rec;

#define FIELD_KINDS(X) \
	X(HEADER, "header")	/* one of the 8 header bytes' fields */ \
	X(INT, "int")		/* integer shown in decimal */ \
	X(HEX, "hex")		/* integer, address or mask shown in hex */ \
	X(FLOAT, "float")	/* a double */ \
	X(STR, "str")		/* NUL-padded string */ \
	X(BYTES, "bytes")	/* opaque bytes: raw data, stacks, ids, payloads */ \
	X(PAD, "pad")		/* padding and reserved bytes */ \
	X(BAD, "bad")		/* bytes that could not be decoded (damage) */

enum field_kind {
#define X(n, s) FIELD_##n,
	FIELD_KINDS(X)
#undef X
};

/* Longest name and formatted value handed to a callback (values are
 * truncated with "..."). */
#define FIELD_NAME_MAX	64
#define FIELD_VALUE_MAX	512

struct field {
	uint32_t	 off;		/* byte offset within the record */
	uint32_t	 len;		/* bytes (> 0) */
	enum field_kind	 kind;
	const char	*name;		/* "header.type", "callchain[3]", "sample_id.time" */
	const char	*value;		/* formatted value, never NULL */
	uint64_t	 num;		/* the integer (HEADER, INT, HEX), else 0 */
};

typedef void (*field_fn)(void *arg, const struct field *f);

/*
 * Describe record r of session s (s may be NULL: samples and trailers then
 * stay undecoded).  Returns 0, or -1 if the record is damaged (its fields
 * still cover it, the undecodable part as FIELD_BAD).
 */
int fields_describe(const struct session *s, const struct rec *r, field_fn fn, void *arg);

/*
 * One line in the style of perf report -D's decoded line, starting with the
 * record's name: "PERF_RECORD_COMM exec: d_matmul:1234/1234".  Unknown types
 * read "PERF_RECORD_UNKNOWN<type>".  Writes at most n bytes (NUL included)
 * and returns the length written.
 */
size_t fields_summary(const struct session *s, const struct rec *r, char *buf, size_t n);

/* "int", "hex", ... */
const char *field_kind_name(enum field_kind k);

#endif
