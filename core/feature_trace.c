#include "config.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/err.h"
#include "core/feature_int.h"

/*
 * TRACING_DATA: kept raw; the version and the tracepoint names (id ->
 * "sys:name") are picked out of its event formats.
 */

struct tcur {
	const uint8_t	*p;
	size_t		 len, pos;
	bool		 swap, bad;
};

static const uint8_t *
t_take(struct tcur *t, uint64_t n)
{
	const uint8_t *p;

	if (t->bad || n > t->len - t->pos) {
		t->bad = true;
		return NULL;
	}
	p = t->p + t->pos;
	t->pos += n;
	return p;
}

static uint64_t
t_u64(struct tcur *t)
{
	const uint8_t *p = t_take(t, 8);

	return p ? rd64(p, t->swap) : 0;
}

static uint32_t
t_u32(struct tcur *t)
{
	const uint8_t *p = t_take(t, 4);

	return p ? rd32(p, t->swap) : 0;
}

/* A NUL-terminated string; NULL if none. */
static const char *
t_cstr(struct tcur *t)
{
	const uint8_t *s;
	const uint8_t *z;

	if (t->bad)
		return NULL;
	s = t->p + t->pos;
	z = memchr(s, '\0', t->len - t->pos);
	if (z == NULL) {
		t->bad = true;
		return NULL;
	}
	t->pos += (size_t)(z - s) + 1;
	return (const char *)s;
}

/* Value of "key: value" at the start of a line in a format text. */
static bool
fmt_field(const uint8_t *p, size_t len, const char *key, char *out, size_t outsz)
{
	size_t kl = strlen(key);

	for (size_t i = 0; i + kl <= len; i++) {
		if ((i == 0 || p[i - 1] == '\n') && memcmp(p + i, key, kl) == 0) {
			size_t j = i + kl, k = 0;

			while (j < len && p[j] == ' ')
				j++;
			while (j < len && p[j] != '\n' && p[j] != '\0' && k + 1 < outsz)
				out[k++] = (char)p[j++];
			out[k] = '\0';
			return true;
		}
	}
	return false;
}

void
feature_trace_free(struct features *f)
{
	for (uint32_t i = 0; i < f->ntracepoints; i++)
		free(f->tracepoints[i].name);
	free(f->tracepoints);
	free(f->tracing_version);
	f->tracepoints = NULL;
	f->ntracepoints = 0;
	f->tracing_version = NULL;
}

static void
add_tracepoint(struct features *f, size_t *cap, const char *sys, const uint8_t *fmt, size_t len)
{
	char name[128], id[32];
	char *end;
	unsigned long long v;
	size_t n;

	if (!fmt_field(fmt, len, "name:", name, sizeof name) || !fmt_field(fmt, len, "ID:", id, sizeof id))
		return;
	v = strtoull(id, &end, 10);
	if (end == id)
		return;
	GROW(f->tracepoints, *cap, f->ntracepoints + 1);
	n = strlen(sys) + strlen(name) + 2;
	f->tracepoints[f->ntracepoints].id = v;
	f->tracepoints[f->ntracepoints].name = xmalloc(n);
	snprintf(f->tracepoints[f->ntracepoints].name, n, "%s:%s", sys, name);
	f->ntracepoints++;
}

/* Returns 0 if the layout parsed up to the event formats. */
static int
parse_tracing(struct features *f, const uint8_t *p, size_t len)
{
	static const uint8_t magic[] = { 0x17, 0x08, 0x44, 't', 'r', 'a', 'c', 'i', 'n', 'g' };
	struct tcur t = { p, len, 0, false, false };
	const uint8_t *b;
	const char *ver;
	uint32_t n, nsys;
	size_t cap = 0;
	bool host_big = 0x0102 == rd16((const uint8_t[]){ 1, 2 }, false);

	b = t_take(&t, sizeof magic);
	if (b == NULL || memcmp(b, magic, sizeof magic) != 0)
		return -1;
	ver = t_cstr(&t);
	if (ver == NULL)
		return -1;
	f->tracing_version = xstrdup(ver);
	b = t_take(&t, 2);	/* big-endian flag, sizeof(long) */
	if (b == NULL)
		return -1;
	t.swap = (b[0] != 0) != host_big;
	(void)t_u32(&t);	/* page size */
	b = t_take(&t, 12);
	if (b == NULL || memcmp(b, "header_page", 12) != 0)
		return -1;
	(void)t_take(&t, t_u64(&t));
	b = t_take(&t, 13);
	if (b == NULL || memcmp(b, "header_event", 13) != 0)
		return -1;
	(void)t_take(&t, t_u64(&t));
	n = t_u32(&t);		/* ftrace formats */
	for (uint32_t i = 0; i < n && !t.bad; i++)
		(void)t_take(&t, t_u64(&t));
	nsys = t_u32(&t);
	for (uint32_t s = 0; s < nsys && !t.bad; s++) {
		const char *sys = t_cstr(&t);
		uint32_t nev = t_u32(&t);

		for (uint32_t i = 0; i < nev && !t.bad; i++) {
			uint64_t sz = t_u64(&t);
			const uint8_t *fmt = t_take(&t, sz);

			if (fmt != NULL && sys != NULL)
				add_tracepoint(f, &cap, sys, fmt, (size_t)sz);
		}
	}
	return t.bad ? -1 : 0;
}

const char *
features_tracepoint_name(const struct features *f, uint64_t config)
{
	for (uint32_t i = 0; i < f->ntracepoints; i++)
		if (f->tracepoints[i].id == config)
			return f->tracepoints[i].name;
	return NULL;
}
int
feature_trace_dec(struct feat_dec *d)
{
	feature_trace_free(d->f);
	if (parse_tracing(d->f, d->c.base, d->c.len) < 0)
		return feat_fail(d, "tracing data kept raw (its layout did not parse)");
	d->c.pos = d->c.len;
	return 0;
}
