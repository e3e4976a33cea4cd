#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/bytes.h"
#include "core/feature.h"
#include "core/origin.h"
#include "core/session.h"

/* origin.c: the origins section of a merged recording (see origin.h). */

void
origins_free(struct origins *o)
{
	for (size_t i = 0; i < o->n; i++)
		free(o->v[i].name);
	free(o->v);
	o->v = NULL;
	o->n = 0;
}

static int
bad(struct origins *o, struct perf_err *err, uint64_t off, const char *why, uint64_t i)
{
	origins_free(o);
	return perf_err_set(err, PERF_E_BAD_HEADER, off, "origins section, offset 0x%llx: entry %llu: %s",
	    (unsigned long long)off, (unsigned long long)i, why);
}

int
origins_decode(const uint8_t *p, uint64_t n, bool swap, uint64_t base, struct origins *o,
    struct perf_err *err)
{
	uint64_t nr, at = 8, prev_end = 0;

	o->v = NULL;
	o->n = 0;
	if (n < 8)
		return bad(o, err, base, "shorter than its count", 0);
	nr = rd64(p, swap);
	if (nr == 0 || nr > ORIGINS_MAX || nr > (n - 8) / 32)
		return perf_err_set(err, PERF_E_BAD_HEADER, base,
		    "origins section, offset 0x%llx: %llu inputs in %llu bytes",
		    (unsigned long long)base, (unsigned long long)nr, (unsigned long long)n);
	o->v = xcalloc((size_t)nr, sizeof *o->v);
	for (uint64_t i = 0; i < nr; i++) {
		uint64_t start, end, len;

		if (n - at < 24)
			return bad(o, err, base + at, "cut short", i);
		start = rd64(p + at, swap);
		end = rd64(p + at + 8, swap);
		len = rd64(p + at + 16, swap);
		at += 24;
		if (start > end || start < prev_end)
			return bad(o, err, base + at - 24, "its range is out of order", i);
		if (len == 0 || len % 8 != 0 || len > n - at)
			return bad(o, err, base + at - 8, "its name's length is wrong", i);
		if (memchr(p + at, 0, (size_t)len) == NULL)
			return bad(o, err, base + at, "its name has no NUL", i);
		o->v[i].start = start;
		o->v[i].end = end;
		o->v[i].name = xstrdup((const char *)(p + at));
		o->n = (size_t)i + 1;
		prev_end = end;
		at += len;
	}
	if (at != n)
		return bad(o, err, base + at, "bytes after the last entry", nr);
	return 0;
}

int
origins_load(const struct session *s, struct origins *o, struct perf_err *err)
{
	const struct feat_sec *fs = &session_features(s)->sec[PF_FEAT_PERFNAV_ORIGINS];
	struct session_info si = session_info(s);
	const char *path = si.path != NULL ? si.path : "-";
	const uint8_t *p;
	int rc = 0;

	o->v = NULL;
	o->n = 0;
	if (fs->present && si.mode == SESSION_FILE) {
		p = fs->size > 0 ? session_bytes(s, fs->offset, fs->size) : NULL;
		if (p == NULL)
			rc = perf_err_set(err, PERF_E_TRUNCATED, fs->offset,
			    "origins section, offset 0x%llx: %llu bytes cannot be read",
			    (unsigned long long)fs->offset, (unsigned long long)fs->size);
		else if ((rc = origins_decode(p, fs->size, si.swap, fs->offset, o, err)) == 0)
			return 0;
	}
	o->v = xcalloc(1, sizeof *o->v);
	o->n = 1;
	o->v[0].end = UINT64_MAX;
	if (rc == 0) {
		o->v[0].name = xstrdup(path);
	} else {
		size_t len = strlen(path) + strlen(err->msg) + 32;

		o->v[0].name = xmalloc(len);
		snprintf(o->v[0].name, len, "%s (%s)", path, err->msg);
	}
	return rc;
}

uint32_t
origins_find(const struct origins *o, uint64_t loc)
{
	size_t lo = 0, hi = o->n;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (loc < o->v[mid].start)
			hi = mid;
		else if (loc >= o->v[mid].end)
			lo = mid + 1;
		else
			return (uint32_t)mid;
	}
	return (uint32_t)o->n;
}
