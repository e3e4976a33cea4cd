#include "config.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "core/bytes.h"
#include "core/carve_int.h"
#include "core/feature.h"
#include "core/merge.h"
#include "core/session.h"

/*
 * merge.c: several recordings as one perf.data (merge.h).  Layout, as
 * carve.c lays a file out: header (last), the id lists, the attrs, the
 * data (each input walked by carve.c's record copy), the feature table
 * and sections.
 */

#define ATTR_MAX	(4096u - 16)

/* A merged attr: its first input's attr, the union of the inputs' ids. */
struct mattr {
	size_t		 in, a;		/* first input and its attr index */
	const char	*name;
	unsigned	 occ;		/* k-th attr of this name in its input */
	uint64_t	*ids;
	size_t		 nids, cap;
};

struct merger {
	const struct merge_input *in;
	size_t			  n;
	struct mattr		 *m;
	size_t			  nm;
	struct hmap		  ids;	/* id -> merged attr */
	struct carver		  c;	/* the output (c.o) and the input being walked */
	uint32_t		  abytes;
	struct origins		  org;	/* each input's name and data bytes */
	uint64_t		  t_first, t_last;
	bool			  timed;
};

static const struct pn_attr *
src_attr(const struct merger *g, const struct mattr *m)
{
	return &session_attrs(g->in[m->in].s)->v[m->a];
}

/* Can attr b of input i be m's? */
static int
pair_check(const struct merger *g, const struct mattr *m, size_t i, const struct pn_attr *b,
    struct perf_err *err)
{
	const struct perf_event_attr *x = &src_attr(g, m)->attr, *y = &b->attr;
	const char *what = x->sample_type != y->sample_type ? "sample_type" :
	    x->read_format != y->read_format ? "read_format" :
	    x->sample_id_all != y->sample_id_all ? "sample_id_all" : NULL;

	if (what == NULL)
		return 0;
	return perf_err_set(err, PERF_E_UNSUPPORTED, PERF_ERR_OFF_NONE,
	    "%s: event %s has another %s than in %s: they cannot be merged", g->in[i].name,
	    m->name, what, g->in[m->in].name);
}

static int
add_ids(struct merger *g, uint32_t mi, size_t i, const struct pn_attr *b, struct perf_err *err)
{
	struct mattr *m = &g->m[mi];

	for (size_t k = 0; k < b->nids; k++) {
		uint32_t had = hmap_get(&g->ids, b->ids[k]);

		if (had == mi)
			continue;
		if (had != HMAP_NONE)
			return perf_err_set(err, PERF_E_UNSUPPORTED, PERF_ERR_OFF_NONE,
			    "%s: sample id %llu of event %s is event %s's in %s: merging them "
			    "would need the ids rewritten", g->in[i].name,
			    (unsigned long long)b->ids[k], m->name, g->m[had].name,
			    g->in[g->m[had].in].name);
		if (m->nids == m->cap) {
			m->cap = m->cap ? 2 * m->cap : 16;
			m->ids = xreallocarray(m->ids, m->cap, sizeof *m->ids);
		}
		m->ids[m->nids++] = b->ids[k];
		hmap_set(&g->ids, b->ids[k], mi);
	}
	return 0;
}

/* Pair input i's attrs with the merged ones by name (and occurrence). */
static int
pair_input(struct merger *g, size_t i, struct perf_err *err)
{
	const struct attr_table *at = session_attrs(g->in[i].s);

	for (size_t a = 0; a < at->n; a++) {
		const char *name = session_attr_name(g->in[i].s, (int)a);
		unsigned occ = 0;
		size_t mi;

		for (size_t b = 0; b < a; b++)
			occ += strcmp(session_attr_name(g->in[i].s, (int)b), name) == 0;
		for (mi = 0; mi < g->nm; mi++)
			if (g->m[mi].occ == occ && strcmp(g->m[mi].name, name) == 0)
				break;
		if (mi == g->nm) {
			g->m = xreallocarray(g->m, g->nm + 1, sizeof *g->m);
			memset(&g->m[mi], 0, sizeof g->m[mi]);
			g->m[mi].in = i;
			g->m[mi].a = a;
			g->m[mi].name = name;
			g->m[mi].occ = occ;
			g->nm++;
		} else if (pair_check(g, &g->m[mi], i, &at->v[a], err) < 0) {
			return -1;
		}
		if (add_ids(g, (uint32_t)mi, i, &at->v[a], err) < 0)
			return -1;
	}
	return 0;
}

/* perf reads a file of several events only if their ids sit at one place. */
static int
ids_placed(const struct merger *g, struct perf_err *err)
{
	const struct pn_attr *f;

	if (g->nm < 2)
		return 0;
	f = src_attr(g, &g->m[0]);
	for (size_t mi = 1; mi < g->nm; mi++) {
		const struct pn_attr *b = src_attr(g, &g->m[mi]);

		if (f->id_pos < 0 || b->id_pos < 0 || b->id_pos != f->id_pos ||
		    (f->attr.sample_id_all && b->is_pos != f->is_pos))
			return perf_err_set(err, PERF_E_UNSUPPORTED, PERF_ERR_OFF_NONE,
			    "%s: event %s: perf could not tell its samples from those of event %s "
			    "(%s) in one file: %s", g->in[g->m[mi].in].name, g->m[mi].name,
			    g->m[0].name, g->in[g->m[0].in].name,
			    b->id_pos < 0 && f->id_pos < 0 ? "neither has sample ids" :
			    b->id_pos < 0 || f->id_pos < 0 ? "one of them has no sample ids" :
			    "their sample ids sit at other places");
	}
	return 0;
}

/* The id lists, then the attrs section. */
static int
write_attrs(struct merger *g, struct pf_section *sec, struct perf_err *err)
{
	struct out *o = &g->c.o;
	uint64_t pos = out_pos(o);
	uint8_t *buf = xcalloc(1, g->abytes);

	for (size_t mi = 0; mi < g->nm; mi++)
		for (size_t k = 0; k < g->m[mi].nids; k++)
			out_u64(o, g->m[mi].ids[k]);
	sec->offset = out_pos(o);
	sec->size = (uint64_t)g->nm * (g->abytes + 16);
	for (size_t mi = 0; mi < g->nm; mi++) {
		const struct pn_attr *a = src_attr(g, &g->m[mi]);
		uint32_t n = a->disk_size < g->abytes ? a->disk_size : g->abytes;
		const uint8_t *raw = session_bytes(g->in[g->m[mi].in].s, a->file_off, n);

		if (raw == NULL) {
			free(buf);
			return perf_err_set(err, PERF_E_BAD_HEADER, a->file_off,
			    "%s: event %s: its %u bytes at 0x%llx cannot be read again",
			    g->in[g->m[mi].in].name, g->m[mi].name, n,
			    (unsigned long long)a->file_off);
		}
		memset(buf, 0, g->abytes);
		memcpy(buf, raw, n);
		put32(buf + 4, g->abytes, o->swap);
		out_put(o, buf, g->abytes);
		out_u64(o, pos);
		out_u64(o, 8 * (uint64_t)g->m[mi].nids);
		pos += 8 * (uint64_t)g->m[mi].nids;
	}
	free(buf);
	return 0;
}

/* Input i's records into the data section, a FINISHED_ROUND after them. */
static void
write_input(struct merger *g, size_t i)
{
	struct carver *c = &g->c;
	uint8_t fr[8];

	c->s = g->in[i].s;
	c->si = session_info(c->s);
	c->timed = false;
	c->since_round = 0;
	g->org.v[i].start = out_pos(&c->o);
	if (c->si.mode == SESSION_DIR)
		walk_index(c);
	else
		session_walk(c->s, walk_fn, c);
	put32(fr, PF_REC_FINISHED_ROUND, c->o.swap);
	put16(fr + 4, 0, c->o.swap);
	put16(fr + 6, 8, c->o.swap);
	out_put(&c->o, fr, 8);
	g->org.v[i].end = out_pos(&c->o);
	if (c->timed) {
		if (!g->timed || c->t_first < g->t_first)
			g->t_first = c->t_first;
		if (!g->timed || c->t_last > g->t_last)
			g->t_last = c->t_last;
		g->timed = true;
	}
}

/* ---- features ---- */

/* Section bit of session s, if present and readable (*size its bytes). */
static const uint8_t *
feat_of(const struct session *s, unsigned bit, uint64_t *size)
{
	static const uint8_t empty[8];
	const struct feat_sec *fs = &session_features(s)->sec[bit];

	*size = 0;
	if (!fs->present || (bit >= PF_FEAT_FIRST_END_MARKER && fs->size == 0))
		return NULL;	/* absent, or a pipe's end marker */
	*size = fs->size;
	return fs->size == 0 ? empty : session_bytes(s, fs->offset, fs->size);
}

static uint64_t
str_bytes(const char *s, uint64_t align)
{
	return (strlen(s) + 1 + align - 1) / align * align;
}

/* perf's string: u32 length (NUL and padding to align included), the bytes. */
static void
out_str(struct out *o, const char *s, uint64_t len)
{
	static const uint8_t zero[64];
	size_t n = strlen(s);
	uint8_t b[4];

	put32(b, (uint32_t)len, o->swap);
	out_put(o, b, 4);
	out_put(o, s, n);
	for (uint64_t k = n; k < len; k += sizeof zero)
		out_put(o, zero, len - k < sizeof zero ? len - k : sizeof zero);
}

static uint64_t
feat_size(const struct merger *g, unsigned bit)
{
	uint64_t size = 0, k;

	switch (bit) {
	case PF_FEAT_SAMPLE_TIME:
		return 16;
	case PF_FEAT_EVENT_DESC:
		size = 8;
		for (size_t mi = 0; mi < g->nm; mi++)
			size += g->abytes + 8 + str_bytes(g->m[mi].name, 64) + 8 * g->m[mi].nids;
		return size;
	case PF_FEAT_BUILD_ID:
		for (size_t i = 0; i < g->n; i++)
			if (feat_of(g->in[i].s, bit, &k) != NULL)
				size += k;
		return size;
	case PF_FEAT_PERFNAV_ORIGINS:
		return origins_sec_size(&g->org);
	default:
		for (size_t i = 0; i < g->n; i++)
			if (feat_of(g->in[i].s, bit, &k) != NULL)
				return k;
		return 0;
	}
}

/* Do all inputs have section bit, byte for byte the same? */
static bool
same_everywhere(const struct merger *g, unsigned bit)
{
	const uint8_t *p0, *p;
	uint64_t k0, k;

	if ((p0 = feat_of(g->in[0].s, bit, &k0)) == NULL)
		return false;
	for (size_t i = 1; i < g->n; i++)
		if ((p = feat_of(g->in[i].s, bit, &k)) == NULL || k != k0 || memcmp(p, p0, k) != 0)
			return false;
	return true;
}

/* Is bit written (sections that are written anew, or some input's)? */
static bool
feat_kept(const struct merger *g, unsigned bit)
{
	uint64_t k;

	switch (bit) {
	case 0:
	case PF_FEAT_COMPRESSED:
	case PF_FEAT_DIR_FORMAT:
	case PF_FEAT_AUXTRACE:
		return false;
	case PF_FEAT_SAMPLE_TIME:
		return g->timed;
	case PF_FEAT_EVENT_DESC:
	case PF_FEAT_PERFNAV_ORIGINS:
		return true;
	case PF_FEAT_GROUP_DESC:
		return same_everywhere(g, bit);
	default:
		for (size_t i = 0; i < g->n; i++)
			if (feat_of(g->in[i].s, bit, &k) != NULL)
				return true;
		return false;
	}
}

static void
event_desc_write(struct merger *g)
{
	struct out *o = &g->c.o;
	uint8_t b[8];

	put32(b, (uint32_t)g->nm, o->swap);
	put32(b + 4, g->abytes, o->swap);
	out_put(o, b, 8);
	for (size_t mi = 0; mi < g->nm; mi++) {
		const struct pn_attr *a = src_attr(g, &g->m[mi]);
		uint32_t n = a->disk_size < g->abytes ? a->disk_size : g->abytes;
		const uint8_t *raw = session_bytes(g->in[g->m[mi].in].s, a->file_off, n);
		uint8_t *buf = xcalloc(1, g->abytes);

		if (raw != NULL)	/* read already by write_attrs */
			memcpy(buf, raw, n);
		put32(buf + 4, g->abytes, o->swap);
		out_put(o, buf, g->abytes);
		free(buf);
		put32(b, (uint32_t)g->m[mi].nids, o->swap);
		out_put(o, b, 4);
		out_str(o, g->m[mi].name, str_bytes(g->m[mi].name, 64));
		for (size_t k = 0; k < g->m[mi].nids; k++)
			out_u64(o, g->m[mi].ids[k]);
	}
}

static void
feat_write(struct merger *g, unsigned bit)
{
	struct out *o = &g->c.o;
	const uint8_t *p;
	uint64_t k;

	switch (bit) {
	case PF_FEAT_SAMPLE_TIME:
		out_u64(o, g->t_first);
		out_u64(o, g->t_last);
		break;
	case PF_FEAT_EVENT_DESC:
		event_desc_write(g);
		break;
	case PF_FEAT_BUILD_ID:
		for (size_t i = 0; i < g->n; i++)
			if ((p = feat_of(g->in[i].s, bit, &k)) != NULL)
				out_put(o, p, k);
		break;
	case PF_FEAT_PERFNAV_ORIGINS:
		origins_sec_write(o, &g->org);
		break;
	default:
		for (size_t i = 0; i < g->n; i++)
			if ((p = feat_of(g->in[i].s, bit, &k)) != NULL) {
				out_put(o, p, k);
				break;
			}
		break;
	}
}

static void
write_features(struct merger *g, uint64_t bits[4])
{
	unsigned list[PF_FEAT_BITS];
	size_t n = 0;
	uint64_t at;

	for (unsigned bit = 0; bit < PF_FEAT_BITS; bit++)
		if (feat_kept(g, bit)) {
			list[n++] = bit;
			bits[bit / 64] |= UINT64_C(1) << (bit % 64);
		}
	at = (out_pos(&g->c.o) + 16 * (uint64_t)n + 7) & ~UINT64_C(7);
	for (size_t i = 0; i < n; i++) {
		uint64_t size = feat_size(g, list[i]);

		out_u64(&g->c.o, at);
		out_u64(&g->c.o, size);
		at += (size + 7) & ~UINT64_C(7);
	}
	out_pad8(&g->c.o);
	for (size_t i = 0; i < n; i++) {
		feat_write(g, list[i]);
		out_pad8(&g->c.o);
	}
}

/* ---- the file ---- */

static int
check_inputs(struct merger *g, struct perf_err *err)
{
	bool swap = session_info(g->in[0].s).swap;

	for (size_t i = 0; i < g->n; i++) {
		const struct attr_table *at = session_attrs(g->in[i].s);

		if (session_info(g->in[i].s).swap != swap)
			return perf_err_set(err, PERF_E_UNSUPPORTED, PERF_ERR_OFF_NONE,
			    "%s: of another byte order than %s", g->in[i].name, g->in[0].name);
		if (at->n == 0)
			return perf_err_set(err, PERF_E_BAD_HEADER, PERF_ERR_OFF_NONE,
			    "%s: no events", g->in[i].name);
		if (pair_input(g, i, err) < 0)
			return -1;
		for (size_t a = 0; a < at->n; a++)
			if (at->v[a].disk_size > g->abytes)
				g->abytes = at->v[a].disk_size;
	}
	g->abytes = (g->abytes + 7) & ~7u;
	if (g->abytes > ATTR_MAX)
		g->abytes = ATTR_MAX;
	return ids_placed(g, err);
}

static int
merge_body(struct merger *g, struct perf_err *err)
{
	struct pf_section attrs, data, types = { 0, 0 };
	uint64_t bits[4] = { 0 };

	if (check_inputs(g, err) < 0)
		return -1;
	g->c.o.off = sizeof(struct pf_header);
	if (write_attrs(g, &attrs, err) < 0)
		return -1;
	out_pad8(&g->c.o);
	data.offset = out_pos(&g->c.o);
	for (size_t i = 0; i < g->n && g->c.o.err == 0; i++)
		write_input(g, i);
	data.size = out_pos(&g->c.o) - data.offset;
	write_features(g, bits);
	g->c.res.size = out_pos(&g->c.o);
	out_flush(&g->c.o);
	write_header(&g->c, g->abytes, &attrs, &data, &types, bits);
	return 0;
}

int
merge_write(const struct merge_input *in, size_t n, int fd, struct merge_result *res,
    struct perf_err *err)
{
	struct merger g;
	int rc;

	if (n == 0)
		return perf_err_set(err, PERF_E_UNSUPPORTED, PERF_ERR_OFF_NONE, "nothing to merge");
	memset(&g, 0, sizeof g);
	g.in = in;
	g.n = n;
	g.abytes = PF_ATTR_SIZE_VER0;
	g.c.si = session_info(in[0].s);
	g.c.o.fd = fd;
	g.c.o.swap = g.c.si.swap;
	g.c.o.buf = xmalloc(OUT_BUF);
	g.org.v = xcalloc(n, sizeof *g.org.v);
	g.org.n = n;
	for (size_t i = 0; i < n; i++)
		g.org.v[i].name = (char *)in[i].name;	/* not freed: the caller's */
	rc = merge_body(&g, err);
	if (rc == 0 && g.c.o.err != 0)
		rc = perf_err_set(err, PERF_E_IO, g.c.o.err_off, "offset 0x%llx: %s",
		    (unsigned long long)g.c.o.err_off, strerror(g.c.o.err));
	if (res != NULL) {
		res->samples = g.c.res.kept;
		res->records = g.c.res.records;
		res->size = g.c.res.size;
		res->nattrs = g.nm;
	}
	for (size_t mi = 0; mi < g.nm; mi++)
		free(g.m[mi].ids);
	free(g.m);
	free(g.org.v);
	free(g.c.o.buf);
	hmap_free(&g.ids);
	return rc;
}
