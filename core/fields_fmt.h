/*
 * fields_fmt.h: the primitives of the record table's describers and
 * summaries (core/fields.c, fields_sample.c, rec_kernel.c, rec_tool.c),
 * private to core/.
 *
 * A describer walks a record with a struct fctx and hands each field to
 * the caller's field_fn (fields.h); a summary formats one line into a
 * struct sbuf, reading the body through a bounds-checked struct body.
 */
#ifndef PERFNAV_CORE_FIELDS_FMT_H
#define PERFNAV_CORE_FIELDS_FMT_H

#include <inttypes.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "core/bytes.h"
#include "core/fields.h"
#include "core/perf_file.h"
#include "core/record.h"
#include "core/text.h"

struct session;
struct pn_attr;

/* ---- small formatting helpers ---- */

struct sbuf {
	char	*p;
	size_t	 n;	/* capacity, NUL included */
	size_t	 len;
};

static inline void sb_printf(struct sbuf *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

static inline void
sb_printf(struct sbuf *b, const char *fmt, ...)
{
	va_list ap;
	int k;

	if (b->n == 0 || b->len >= b->n - 1)
		return;
	va_start(ap, fmt);
	k = vsnprintf(b->p + b->len, b->n - b->len, fmt, ap);
	va_end(ap);
	if (k < 0)
		return;
	if ((size_t)k >= b->n - b->len) {
		b->len = b->n - 1;
		if (b->n >= 4)
			memcpy(b->p + b->n - 4, "...", 4);
	} else {
		b->len += (size_t)k;
	}
}

/* Append s[0..k) as sb_printf("%.*s") would: a cut copy ends in "...". */
static inline void
sb_mem(struct sbuf *b, const char *s, size_t k)
{
	size_t room;

	if (b->n == 0 || b->len >= b->n - 1)
		return;
	room = b->n - b->len;
	if (k < room) {
		memcpy(b->p + b->len, s, k);
		b->len += k;
		b->p[b->len] = '\0';
		return;
	}
	memcpy(b->p + b->len, s, room - 1);
	b->len = b->n - 1;
	b->p[b->len] = '\0';
	if (b->n >= 4)
		memcpy(b->p + b->n - 4, "...", 4);
}

/* A string literal (its length known at compile time). */
#define sb_lit(b, s)	sb_mem((b), (s), sizeof(s) - 1)

static inline void
sb_cstr(struct sbuf *b, const char *s)
{
	sb_mem(b, s, strlen(s));
}

/*
 * Number writers into a char buffer (room enough: 20 bytes a number),
 * returning the end: what "%" PRIu64, "%" PRId64 and "%" PRIx64 write ("%#"
 * PRIx64 with alt: "0x" before any value but 0).  A piece of a line built
 * with them goes in with one sb_mem, cut as one sb_printf of it would be.
 */
static inline char *
put_u64(char *d, uint64_t v)
{
	size_t n = 1;
	char *e;

	for (uint64_t x = v; x >= 10; x /= 10)
		n++;
	e = d + n;
	do {
		*--e = (char)('0' + v % 10);
		v /= 10;
	} while (e > d);
	return d + n;
}

static inline char *
put_i64(char *d, int64_t v)
{
	if (v >= 0)
		return put_u64(d, (uint64_t)v);
	*d = '-';
	return put_u64(d + 1, 0 - (uint64_t)v);
}

static inline char *
put_x64(char *d, uint64_t v, bool alt)
{
	size_t n = v ? (size_t)(64 - __builtin_clzll(v) + 3) / 4 : 1;
	char *e;

	if (alt && v != 0) {
		d[0] = '0';
		d[1] = 'x';
		d += 2;
	}
	e = d + n;
	do {
		*--e = "0123456789abcdef"[v & 15];
		v >>= 4;
	} while (e > d);
	return d + n;
}

/* A string literal into a char buffer. */
#define put_lit(d, s)	((char *)memcpy((d), (s), sizeof(s) - 1) + sizeof(s) - 1)

/* sb_printf(b, "%" PRIu64, v) and the others, without a format. */
static inline void
sb_u64(struct sbuf *b, uint64_t v)
{
	char t[24];

	sb_mem(b, t, (size_t)(put_u64(t, v) - t));
}

static inline void
sb_i64(struct sbuf *b, int64_t v)
{
	char t[24];

	sb_mem(b, t, (size_t)(put_i64(t, v) - t));
}

static inline void
sb_x64(struct sbuf *b, uint64_t v, bool alt)
{
	char t[24];

	sb_mem(b, t, (size_t)(put_x64(t, v, alt) - t));
}

/*
 * A piece of a line of at most max bytes, built with the put_ writers:
 * straight in the buffer when it fits whole, else in t (max bytes or more)
 * and appended cut, as one sb_printf of it would be.  piece_end(sb, t, at,
 * end) ends the piece that piece_at(sb, t, max) began at at.
 */
static inline char *
piece_at(struct sbuf *sb, char *t, size_t max)
{
	return sb->len < sb->n && sb->n - sb->len > max ? sb->p + sb->len : t;
}

static inline void
piece_end(struct sbuf *sb, char *t, char *at, char *end)
{
	if (at == t) {
		sb_mem(sb, t, (size_t)(end - t));
		return;
	}
	*end = '\0';
	sb->len = (size_t)(end - sb->p);
}

static inline void
sb_init(struct sbuf *b, char *p, size_t n)
{
	b->p = p;
	b->n = n;
	b->len = 0;
	if (n)
		p[0] = '\0';
}

/* Append s[0..n) escaped with flags (core/text.h); a cut copy ends in "...". */
static inline void
sb_esc(struct sbuf *b, const char *s, size_t n, unsigned flags)
{
	size_t room, k;

	if (b->n == 0 || b->len >= b->n - 1)
		return;
	room = b->n - b->len;
	k = text_escape(b->p + b->len, room, s, n, flags);
	if (k < room) {
		b->len += k;
		return;
	}
	/* cut: whole units only, then "..." */
	if (room > 4) {
		text_escape(b->p + b->len, room - 3, s, n, flags);
		b->len += strlen(b->p + b->len);
	}
	sb_printf(b, "...");
}

/* A NUL-padded string of at most len bytes, quoted and escaped ('"' and
 * '\\' too). */
static inline void
sb_str(struct sbuf *b, const uint8_t *p, size_t len, bool quote)
{
	size_t n = strnlen((const char *)p, len);

	if (quote)
		sb_printf(b, "\"");
	sb_esc(b, (const char *)p, n, TEXT_QUOTE);
	if (quote && b->len + 1 < b->n)
		sb_printf(b, "\"");
}

/* A name (an event's) escaped as every name shown. */
static inline void
sb_name(struct sbuf *b, const char *s)
{
	sb_esc(b, s, strlen(s), 0);
}

static inline void
sb_hex(struct sbuf *b, const uint8_t *p, size_t len, size_t max)
{
	for (size_t i = 0; i < len && i < max; i++)
		sb_printf(b, "%02x", p[i]);
	if (len > max)
		sb_printf(b, "...");
}

/* ---- the describer ---- */

struct fctx {
	const struct session	*s;
	const struct rec	*r;
	field_fn		 fn;
	void			*arg;
	const uint8_t		*p;
	bool			 swap;
	uint32_t		 pos;		/* next byte to describe */
	uint32_t		 end;		/* end of the body: the trailer starts here */
	bool			 damaged;
	const char		*why;
	char			 name[FIELD_NAME_MAX];
	char			 val[FIELD_VALUE_MAX];
};

static inline const char *nm(struct fctx *d, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

static inline const char *
nm(struct fctx *d, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(d->name, sizeof d->name, fmt, ap);
	va_end(ap);
	return d->name;
}

static inline void
emit(struct fctx *d, uint32_t len, enum field_kind kind, uint64_t num, const char *name,
    const char *val)
{
	struct field f;

	if (len == 0)
		return;
	f.off = d->pos;
	f.len = len;
	f.kind = kind;
	f.name = name;
	f.value = val ? val : "";
	f.num = num;
	d->fn(d->arg, &f);
	d->pos += len;
}

static inline uint32_t
left(const struct fctx *d)
{
	return d->pos < d->end ? d->end - d->pos : 0;
}

static inline bool
room(struct fctx *d, uint64_t n, const char *what)
{
	if (d->damaged)
		return false;
	if (n <= left(d))
		return true;
	if (!d->damaged) {
		d->damaged = true;
		d->why = what;
	}
	return false;
}

/* Room for nr items of each bytes (no overflow for any nr). */
static inline bool
room_n(struct fctx *d, uint64_t nr, uint64_t each, const char *what)
{
	if (!d->damaged && nr > left(d) / each) {
		d->damaged = true;
		d->why = what;
	}
	return !d->damaged;
}

static inline void
bad(struct fctx *d, const char *why)
{
	if (!d->damaged) {
		d->damaged = true;
		d->why = why;
	}
}

enum ifmt { I_DEC, I_SDEC, I_HEX };

static inline uint64_t
peek(const struct fctx *d, unsigned width)
{
	const uint8_t *q = d->p + d->pos;

	switch (width) {
	case 1:
		return q[0];
	case 2:
		return rd16(q, d->swap);
	case 4:
		return rd32(q, d->swap);
	default:
		return rd64(q, d->swap);
	}
}

/* An integer field with an optional note after the value. */
static inline bool
fint_note(struct fctx *d, unsigned width, enum ifmt f, const char *name, uint64_t *out,
    const char *note)
{
	struct sbuf b;
	uint64_t v;

	if (!room(d, width, name))
		return false;
	v = peek(d, width);
	sb_init(&b, d->val, sizeof d->val);
	if (f == I_HEX) {
		sb_printf(&b, "%#" PRIx64, v);
	} else if (f == I_SDEC) {
		int64_t sv = width == 8 ? (int64_t)v : width == 4 ? (int32_t)v :
		    width == 2 ? (int16_t)v : (int8_t)v;

		sb_printf(&b, "%" PRId64, sv);
	} else {
		sb_printf(&b, "%" PRIu64, v);
	}
	if (note && *note)
		sb_printf(&b, " (%s)", note);
	emit(d, width, f == I_HEX ? FIELD_HEX : FIELD_INT, v, name, d->val);
	if (out)
		*out = v;
	return true;
}

static inline bool
fint(struct fctx *d, unsigned width, enum ifmt f, const char *name, uint64_t *out)
{
	return fint_note(d, width, f, name, out, NULL);
}

#define U64(d, name, out)	fint(d, 8, I_DEC, name, out)
#define X64(d, name, out)	fint(d, 8, I_HEX, name, out)
#define U32(d, name, out)	fint(d, 4, I_DEC, name, out)
#define S32(d, name, out)	fint(d, 4, I_SDEC, name, out)
#define U16(d, name, out)	fint(d, 2, I_DEC, name, out)
#define U8(d, name, out)	fint(d, 1, I_DEC, name, out)

/* A string field of len bytes (len 0 or beyond the body: the rest). */
static inline void
fstr(struct fctx *d, const char *name, uint32_t len)
{
	struct sbuf b;

	if (d->damaged)
		return;
	if (len == 0 || len > left(d))
		len = left(d);
	if (len == 0)
		return;
	sb_init(&b, d->val, sizeof d->val);
	sb_str(&b, d->p + d->pos, len, true);
	emit(d, len, FIELD_STR, 0, name, d->val);
}

/* A bytes field: value is a hex preview and the length. */
static inline void
fbytes(struct fctx *d, const char *name, uint64_t len, enum field_kind kind, const char *note)
{
	struct sbuf b;

	if (d->damaged && kind != FIELD_BAD)
		return;
	if (len > left(d))
		len = left(d);
	if (len == 0)
		return;
	sb_init(&b, d->val, sizeof d->val);
	if (kind == FIELD_PAD) {
		bool zero = true;

		for (uint64_t i = 0; i < len; i++)
			zero = zero && d->p[d->pos + i] == 0;
		sb_printf(&b, "%" PRIu64 " byte%s%s", len, len == 1 ? "" : "s", zero ? "" : ", not zero");
	} else {
		sb_hex(&b, d->p + d->pos, (size_t)len, 16);
		sb_printf(&b, " (%" PRIu64 " bytes%s%s)", len, note ? ", " : "", note ? note : "");
	}
	emit(d, (uint32_t)len, kind, 0, name, d->val);
}

/* ---- one-line summaries ---- */

/* Bounds-checked readers of the body for summaries. */
struct body {
	const uint8_t	*p;
	uint32_t	 n;	/* record size */
	bool		 swap;
	bool		 bad;
};

static inline uint64_t
b64(struct body *b, uint32_t off)
{
	if (off > b->n || b->n - off < 8) {
		b->bad = true;
		return 0;
	}
	return rd64(b->p + off, b->swap);
}

static inline uint32_t
b32(struct body *b, uint32_t off)
{
	if (off > b->n || b->n - off < 4) {
		b->bad = true;
		return 0;
	}
	return rd32(b->p + off, b->swap);
}

static inline uint16_t
b16(struct body *b, uint32_t off)
{
	if (off > b->n || b->n - off < 2) {
		b->bad = true;
		return 0;
	}
	return rd16(b->p + off, b->swap);
}

static inline void
bstr(struct sbuf *sb, struct body *b, uint32_t off)
{
	if (off >= b->n) {
		b->bad = true;
		return;
	}
	sb_str(sb, b->p + off, b->n - off, false);
}

/* ---- the record table's halves ---- */

/* For a typed decoder: the body of a record of type want if it holds min
 * bytes, else NULL. */
static inline const uint8_t *
rec_body(const struct rec *r, uint32_t want, uint32_t min)
{
	if (r->type != want || r->size < 8 || r->size - 8 < min)
		return NULL;
	return r->p + 8;
}

/* Entry of the record table (struct rec_type, record.h) for type T. */
#define REC_TYPE(T, min, fields, summary) \
	[PF_REC_##T] = { #T, min, -1, -1, -1, 0, fields, summary }
/* ... for a type whose body starts with who fields: pid, tid, time at
 * these body offsets (-1: none), read when the body holds who_min bytes. */
#define REC_TYPE_WHO(T, min, pid, tid, time, who_min, fields, summary) \
	[PF_REC_##T] = { #T, min, pid, tid, time, who_min, fields, summary }

/* The kernel's record types (index: type) and the perf tool's (index:
 * type - PF_REC_USER_TYPE_START). */
extern const struct rec_type rec_kernel_types[PF_REC_USER_TYPE_START];
extern const struct rec_type rec_tool_types[PF_REC_MAX_KNOWN - PF_REC_USER_TYPE_START];

/* The SAMPLE entry's describer and summary (fields_sample.c). */
void fields_sample_describe(struct fctx *d);
void fields_sample_summary(const struct session *s, const struct rec *r, struct body *b,
    struct sbuf *sb);
/* The values of a read_format block (SAMPLE_READ, PERF_RECORD_READ). */
void fields_read_describe(struct fctx *d, uint64_t rf, const char *pfx);
/* The attr a record's sample or trailer layout comes from, or NULL. */
const struct pn_attr *fields_layout(const struct session *s, const struct rec *r);

#endif
