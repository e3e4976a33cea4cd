#include "config.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <traceevent/event-parse.h>
#include <traceevent/trace-seq.h>

#include "core/bytes.h"
#include "symbolize/tpevent.h"

/*
 * TRACING_DATA as perf writes it (perf's trace-event-read.c reads it the
 * same way): magic, version string, file big-endian byte, sizeof(long),
 * page size; "header_page" and its text (tep_parse_header_page);
 * "header_event" and its text (unused); the ftrace formats; per system its
 * name and event formats (tep_parse_event); kallsyms; the printk formats
 * (tep_parse_printk_formats); from version 0.6 the saved cmdlines
 * (tep_parse_saved_cmdlines).  Each part is libtraceevent's to parse: here
 * only the framing is walked.
 *
 * A payload is read from a copy in a zeroed buffer large enough for any
 * offset a payload can name (a dynamic field's 16-bit offset and length
 * past a record of at most 64 KiB), so a damaged payload makes
 * libtraceevent read zeros, never past the buffer.
 */

#define TP_RAW_MAX	65536u
#define TP_PAD		(TP_RAW_MAX + 2 * 65536u + 64u)

struct tpevent {
	struct tep_handle	*tep;
	size_t			 nformats;
	struct trace_seq	 seq;
	uint8_t			*pad;		/* TP_PAD bytes, zero past dirty */
	size_t			 dirty;
	char			 fallback[192];
};

static bool
host_is_big(void)
{
	const uint16_t one = 1;

	return *(const uint8_t *)&one == 0;
}

/* A NUL-terminated copy of len bytes at p (libtraceevent's text parsers
 * want C strings); NULL on failure. */
static char *
text_copy(const uint8_t *p, size_t len)
{
	char *s = malloc(len + 1);

	if (s == NULL)
		return NULL;
	memcpy(s, p, len);
	s[len] = '\0';
	return s;
}

/* A "name" tag (with its NUL) and the 8-byte-sized text after it. */
static const uint8_t *
tagged_text(struct cursor *c, const char *tag, uint64_t *len)
{
	const uint8_t *t = cursor_take(c, strlen(tag) + 1);

	if (t == NULL || memcmp(t, tag, strlen(tag) + 1) != 0) {
		c->bad = true;
		return NULL;
	}
	*len = cursor_u64(c);
	return cursor_take(c, *len);
}

static int
parse_formats(struct tpevent *t, struct cursor *c, const char *sys)
{
	uint32_t n = cursor_u32(c);

	for (uint32_t i = 0; i < n && !c->bad; i++) {
		uint64_t len = cursor_u64(c);
		const uint8_t *f = cursor_take(c, len);

		if (f != NULL && tep_parse_event(t->tep, (const char *)f, len, sys) == 0)
			t->nformats++;
	}
	return c->bad ? -1 : 0;
}

/* A 4-byte-sized (8 with wide) text handed to parse, if not empty. */
static void
parse_sized(struct tpevent *t, struct cursor *c, bool wide,
    int (*parse)(struct tep_handle *, const char *))
{
	uint64_t len = wide ? cursor_u64(c) : cursor_u32(c);
	const uint8_t *p = cursor_take(c, len);
	char *s;

	if (p == NULL || len == 0 || (s = text_copy(p, len)) == NULL)
		return;
	(void)parse(t->tep, s);
	free(s);
}

static int
parse_tracing(struct tpevent *t, const uint8_t *p, size_t len)
{
	static const uint8_t magic[] = { 0x17, 0x08, 0x44, 't', 'r', 'a', 'c', 'i', 'n', 'g' };
	struct cursor c;
	const uint8_t *b, *z;
	uint64_t hlen;
	char *hp, ver[16];
	int long_size;
	bool big;

	cursor_init(&c, p, len, false);
	b = cursor_take(&c, sizeof magic);
	if (b == NULL || memcmp(b, magic, sizeof magic) != 0)
		return -1;
	z = memchr(p + c.pos, '\0', len - c.pos);
	if (z == NULL)
		return -1;
	snprintf(ver, sizeof ver, "%.*s", (int)(z - (p + c.pos)), (const char *)(p + c.pos));
	c.pos += (size_t)(z - (p + c.pos)) + 1;
	if ((b = cursor_take(&c, 2)) == NULL)
		return -1;
	big = b[0] != 0;
	c.swap = big != host_is_big();
	tep_set_file_bigendian(t->tep, big ? TEP_BIG_ENDIAN : TEP_LITTLE_ENDIAN);
	tep_set_local_bigendian(t->tep, host_is_big() ? TEP_BIG_ENDIAN : TEP_LITTLE_ENDIAN);
	long_size = b[1];
	tep_set_long_size(t->tep, long_size);
	tep_set_page_size(t->tep, (int)cursor_u32(&c));
	b = tagged_text(&c, "header_page", &hlen);
	if (b != NULL && (hp = text_copy(b, hlen)) != NULL) {
		(void)tep_parse_header_page(t->tep, hp, hlen, long_size);
		free(hp);
	}
	(void)tagged_text(&c, "header_event", &hlen);
	if (c.bad || parse_formats(t, &c, "ftrace") < 0)
		return -1;
	for (uint32_t s = 0, nsys = cursor_u32(&c); s < nsys && !c.bad; s++) {
		const uint8_t *name = p + c.pos;

		z = memchr(name, '\0', len - c.pos);
		if (z == NULL)
			return -1;
		c.pos += (size_t)(z - name) + 1;
		if (parse_formats(t, &c, (const char *)name) < 0)
			return -1;
	}
	/* Optional tails: a recording cut here still has its formats. */
	if (cursor_has(&c, 4)) {
		uint32_t klen = rd32(p + c.pos, c.swap);

		c.pos += 4;
		(void)cursor_take(&c, klen);	/* kallsyms: perf resolves from its own */
	}
	if (cursor_has(&c, 4))
		parse_sized(t, &c, false, tep_parse_printk_formats);
	if (strcmp(ver, "0.6") >= 0 && cursor_has(&c, 8))
		parse_sized(t, &c, true, tep_parse_saved_cmdlines);
	return 0;
}

struct tpevent *
tpevent_from_data(const uint8_t *p, size_t len)
{
	struct tpevent *t;

	if (p == NULL || len == 0 || (t = calloc(1, sizeof *t)) == NULL)
		return NULL;
	tep_set_loglevel(TEP_LOG_NONE);
	t->tep = tep_alloc();
	t->pad = calloc(1, TP_PAD);
	if (t->tep == NULL || t->pad == NULL || parse_tracing(t, p, len) < 0 || t->nformats == 0) {
		tpevent_free(t);
		return NULL;
	}
	trace_seq_init(&t->seq);
	return t;
}

struct tpevent *
tpevent_new(const struct session *s)
{
	const struct feat_sec *fs = &session_features(s)->sec[PF_FEAT_TRACING_DATA];
	const uint8_t *p;

	if (!fs->present || fs->size == 0 || fs->size > SIZE_MAX)
		return NULL;
	p = session_bytes(s, fs->offset, fs->size);
	return p != NULL ? tpevent_from_data(p, (size_t)fs->size) : NULL;
}

void
tpevent_free(struct tpevent *t)
{
	if (t == NULL)
		return;
	if (t->seq.buffer != NULL)
		trace_seq_destroy(&t->seq);
	if (t->tep != NULL)
		tep_free(t->tep);
	free(t->pad);
	free(t);
}

size_t
tpevent_nformats(const struct tpevent *t)
{
	return t != NULL ? t->nformats : 0;
}

static struct tep_event *
find_event(struct tpevent *t, uint64_t config)
{
	if (t == NULL || config > INT32_MAX)
		return NULL;
	return tep_find_event(t->tep, (int)config);
}

bool
tpevent_known(struct tpevent *t, uint64_t config)
{
	return find_event(t, config) != NULL;
}

/* End of the furthest fixed field of ev's format (a dynamic field's own
 * 4-byte location counted, its data not). */
static uint32_t
format_end(const struct tep_event *ev)
{
	uint32_t end = 0;

	for (int pass = 0; pass < 2; pass++) {
		const struct tep_format_field *f =
		    pass == 0 ? ev->format.common_fields : ev->format.fields;

		for (; f != NULL; f = f->next) {
			uint32_t e = (uint32_t)f->offset + (uint32_t)f->size;

			if (f->offset >= 0 && f->size >= 0 && e > end)
				end = e;
		}
	}
	return end;
}

/* The payload into t's zeroed buffer; the record libtraceevent reads. */
static void
load_payload(struct tpevent *t, const uint8_t *raw, uint32_t raw_size, uint32_t cpu,
    struct tep_record *rec)
{
	if (t->dirty > 0)
		memset(t->pad, 0, t->dirty);
	memcpy(t->pad, raw, raw_size);
	t->dirty = raw_size;
	memset(rec, 0, sizeof *rec);
	rec->cpu = (int)cpu;
	rec->size = (int)raw_size;
	rec->record_size = (int)raw_size;
	rec->data = t->pad;
}

const char *
tpevent_text(struct tpevent *t, uint64_t config, const uint8_t *raw, uint32_t raw_size,
    uint32_t cpu, bool *decoded)
{
	struct tep_event *ev = find_event(t, config);
	struct tep_record rec;
	uint32_t need;

	if (decoded != NULL)
		*decoded = false;
	if (ev == NULL) {
		snprintf(t->fallback, sizeof t->fallback,
		    "[no format for tracepoint %" PRIu64 ": %" PRIu32 " bytes of payload]", config,
		    raw_size);
		return t->fallback;
	}
	need = format_end(ev);
	if (raw == NULL || raw_size < need || raw_size > TP_RAW_MAX) {
		snprintf(t->fallback, sizeof t->fallback,
		    "[damaged payload: %" PRIu32 " bytes, %s:%s needs %" PRIu32 "]",
		    raw != NULL ? raw_size : 0, ev->system, ev->name, need);
		return t->fallback;
	}
	load_payload(t, raw, raw_size, cpu, &rec);
	if (tep_data_type(t->tep, &rec) != ev->id) {
		snprintf(t->fallback, sizeof t->fallback,
		    "[damaged payload: type %d, not %s:%s's %d]", tep_data_type(t->tep, &rec),
		    ev->system, ev->name, ev->id);
		return t->fallback;
	}
	trace_seq_reset(&t->seq);
	tep_print_event(t->tep, &t->seq, &rec, "%s", TEP_PRINT_INFO);
	trace_seq_terminate(&t->seq);
	if (t->seq.buffer == NULL || t->seq.state != TRACE_SEQ__GOOD) {
		snprintf(t->fallback, sizeof t->fallback, "[no text: out of memory]");
		return t->fallback;
	}
	if (decoded != NULL)
		*decoded = true;
	return t->seq.buffer;
}

static void
field_value(struct tpevent *t, struct tep_format_field *f, struct tep_record *rec,
    struct tp_field *o)
{
	trace_seq_reset(&t->seq);
	tep_print_field_content(&t->seq, rec->data, rec->size, f);
	trace_seq_terminate(&t->seq);
	snprintf(o->value, sizeof o->value, "%s", t->seq.buffer != NULL ? t->seq.buffer : "");
}

size_t
tpevent_fields(struct tpevent *t, uint64_t config, const uint8_t *raw, uint32_t raw_size,
    struct tp_field *out, size_t max)
{
	struct tep_event *ev = find_event(t, config);
	struct tep_record rec;
	size_t k = 0;

	if (ev == NULL)
		return 0;
	if (raw_size > TP_RAW_MAX)
		raw_size = TP_RAW_MAX;
	load_payload(t, raw != NULL ? raw : t->pad, raw != NULL ? raw_size : 0, 0, &rec);
	for (int pass = 0; pass < 2; pass++) {
		struct tep_format_field *f = pass == 0 ? ev->format.common_fields : ev->format.fields;

		for (; f != NULL && k < max; f = f->next) {
			struct tp_field *o = &out[k++];

			memset(o, 0, sizeof *o);
			o->name = f->name;
			o->type = f->type;
			o->offset = f->offset > 0 ? (uint32_t)f->offset : 0;
			o->size = f->size > 0 ? (uint32_t)f->size : 0;
			o->common = pass == 0;
			o->outside = (uint64_t)o->offset + o->size > (uint64_t)rec.size;
			if (!o->outside)
				field_value(t, f, &rec, o);
		}
	}
	return k;
}
