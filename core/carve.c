#include "config.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <zstd.h>

#include "core/bytes.h"
#include "core/carve.h"
#include "core/carve_int.h"
#include "core/hmap.h"
#include "core/sample_read.h"
#include "core/session.h"

/*
 * carve.c: a file-mode perf.data of a session's records, the samples
 * chosen by a predicate.  Layout, as perf record lays a file out: the
 * header (written last), each attr's id list, the attrs section, old
 * perf's event_types section, the data section, the feature section
 * table and the sections.
 */

void
put16(uint8_t *p, uint16_t v, bool swap)
{
	v = swap ? __builtin_bswap16(v) : v;
	memcpy(p, &v, sizeof v);
}

void
put32(uint8_t *p, uint32_t v, bool swap)
{
	v = swap ? __builtin_bswap32(v) : v;
	memcpy(p, &v, sizeof v);
}

void
put64(uint8_t *p, uint64_t v, bool swap)
{
	v = swap ? __builtin_bswap64(v) : v;
	memcpy(p, &v, sizeof v);
}

void
pwrite_all(struct out *o, const uint8_t *p, size_t n, uint64_t off)
{
	size_t done = 0;

	while (done < n && o->err == 0) {
		ssize_t w = pwrite(o->fd, p + done, n - done, (off_t)(off + done));

		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0) {
			o->err = w < 0 ? errno : EIO;
			o->err_off = off + done;
			return;
		}
		done += (size_t)w;
	}
}

void
out_flush(struct out *o)
{
	pwrite_all(o, o->buf, o->n, o->off);
	o->off += o->n;
	o->n = 0;
}

void
out_put(struct out *o, const void *p, uint64_t n)
{
	const uint8_t *b = p;

	while (n > 0) {
		size_t k = OUT_BUF - o->n;

		if (k == 0) {
			out_flush(o);
			continue;
		}
		if (k > n)
			k = (size_t)n;
		memcpy(o->buf + o->n, b, k);
		o->n += k;
		b += k;
		n -= k;
	}
}

uint64_t
out_pos(const struct out *o)
{
	return o->off + o->n;
}

void
out_u64(struct out *o, uint64_t v)
{
	uint8_t b[8];

	put64(b, v, o->swap);
	out_put(o, b, 8);
}

void
out_pad8(struct out *o)
{
	static const uint8_t zero[8];

	out_put(o, zero, (8 - out_pos(o) % 8) % 8);
}

/* ---- attrs ---- */

/* The attr stride less its id section: the largest attr on disk, whole u64s. */
static uint32_t
attr_bytes(const struct attr_table *at)
{
	uint32_t a = PF_ATTR_SIZE_VER0;

	for (size_t i = 0; i < at->n; i++)
		if (at->v[i].disk_size > a)
			a = at->v[i].disk_size;
	a = (a + 7) & ~7u;
	return a > ATTR_MAX ? ATTR_MAX : a;
}

/* Each attr's id list, then the attrs section (its place into *sec). */
static int
write_attrs(struct carver *c, uint32_t abytes, struct pf_section *sec, struct perf_err *err)
{
	const struct attr_table *at = session_attrs(c->s);
	uint64_t pos = out_pos(&c->o);
	uint8_t *buf = xcalloc(1, abytes);

	for (size_t i = 0; i < at->n; i++)
		for (size_t k = 0; k < at->v[i].nids; k++)
			out_u64(&c->o, at->v[i].ids[k]);
	sec->offset = out_pos(&c->o);
	sec->size = (uint64_t)at->n * (abytes + 16);
	for (size_t i = 0; i < at->n; i++) {
		const struct pn_attr *a = &at->v[i];
		uint32_t n = a->disk_size < abytes ? a->disk_size : abytes;
		const uint8_t *raw = session_bytes(c->s, a->file_off, n);

		if (raw == NULL) {
			free(buf);
			return perf_err_set(err, PERF_E_BAD_HEADER, a->file_off,
			    "attr %zu: its %u bytes at 0x%llx cannot be read again", i, n,
			    (unsigned long long)a->file_off);
		}
		memset(buf, 0, abytes);
		memcpy(buf, raw, n);
		put32(buf + 4, abytes, c->si.swap);
		out_put(&c->o, buf, abytes);
		out_u64(&c->o, pos);
		out_u64(&c->o, 8 * (uint64_t)a->nids);
		pos += 8 * (uint64_t)a->nids;
	}
	free(buf);
	return 0;
}

/* ---- compression ---- */

/* The pending run of kernel records, compressed into COMPRESSED records. */
static void
zflush(struct carver *c)
{
	ZSTD_inBuffer in = { c->chunk, c->nchunk, 0 };

	if (c->nchunk == 0 || c->zerr != NULL)
		return;
	for (;;) {
		ZSTD_outBuffer ob = { c->zrec + 8, ZREC_MAX, 0 };
		size_t left = ZSTD_compressStream2(c->cc, &ob, &in, ZSTD_e_flush);

		if (ZSTD_isError(left)) {
			c->zerr = ZSTD_getErrorName(left);
			return;
		}
		if (ob.pos > 0) {
			put32(c->zrec, PF_REC_COMPRESSED, c->si.swap);
			put16(c->zrec + 4, 0, c->si.swap);
			put16(c->zrec + 6, (uint16_t)(8 + ob.pos), c->si.swap);
			out_put(&c->o, c->zrec, 8 + ob.pos);
			c->zout += 8 + ob.pos;
		}
		if (left == 0 && in.pos == in.size)
			break;
	}
	c->zin += c->nchunk;
	c->nchunk = 0;
}

/* One record (and the bytes that follow it) into the data section. */
static void
put_rec(struct carver *c, const uint8_t *p, uint32_t size, uint32_t type, const uint8_t *tail,
    uint64_t extra)
{
	if (c->z && type < PF_REC_USER_TYPE_START && extra == 0) {
		if (c->nchunk + size > ZCHUNK)
			zflush(c);
		memcpy(c->chunk + c->nchunk, p, size);
		c->nchunk += size;
		return;
	}
	zflush(c);
	out_put(&c->o, p, size);
	out_put(&c->o, tail, extra);
}

/* ---- READ values ---- */

/* The byte offsets (from smp->read) of smp's READ values and their ids; their number. */
static size_t
read_offsets(const struct sample *smp, size_t *off, uint64_t *id, size_t max)
{
	uint64_t rf = smp->read_format, nr = 1, k = 0, words = smp->read_len / 8;
	uint64_t each = 1 + !!(rf & PERF_FORMAT_ID) + !!(rf & PERF_FORMAT_LOST);
	uint64_t times = !!(rf & PERF_FORMAT_TOTAL_TIME_ENABLED) + !!(rf & PERF_FORMAT_TOTAL_TIME_RUNNING);
	size_t n = 0;

	if (!(rf & PERF_FORMAT_ID))
		return 0;	/* perf delivers nothing of them */
	if (rf & PERF_FORMAT_GROUP) {
		if (words < 1)
			return 0;
		nr = rd64(smp->read, smp->swap);
		k = 1 + times;
		for (; n < nr && n < max && k + each <= words; n++, k += each) {
			off[n] = 8 * k;
			id[n] = rd64(smp->read + 8 * (k + 1), smp->swap);
		}
		return n;
	}
	/* value, [enabled], [running], id, [lost] */
	if (words < 2 + times || max == 0)
		return 0;
	off[0] = 0;
	id[0] = rd64(smp->read + 8 * (1 + times), smp->swap);
	return 1;
}

/*
 * perf makes a READ sample's period the growth of each counter since the
 * sample of the same id before it (leader sampling).  Left-out samples'
 * growth is subtracted from the values of the kept ones after them, so
 * that each kept sample keeps its period.  Returns the record's bytes to
 * write (r->p, or c->rbuf changed).
 */
static const uint8_t *
read_adjust(struct carver *c, const struct rec *r, bool kept)
{
	struct sample smp;
	size_t off[64], n, at;
	uint64_t id[64];
	bool changed = false;

	if (!c->has_read || record_decode_sample(session_attrs(c->s), r, &smp, NULL) < 0 ||
	    !(smp.sample_type & PERF_SAMPLE_READ) || smp.read == NULL)
		return r->p;
	n = read_offsets(&smp, off, id, 64);
	at = (size_t)(smp.read - r->p);
	for (size_t i = 0; i < n; i++) {
		uint32_t slot = hmap_get(&c->ids, id[i]);
		uint64_t v = rd64(smp.read + off[i], smp.swap);

		if (slot == HMAP_NONE) {
			if (c->nids == c->capids) {
				c->capids = c->capids ? 2 * c->capids : 16;
				c->last = xreallocarray(c->last, c->capids, sizeof *c->last);
				c->gone = xreallocarray(c->gone, c->capids, sizeof *c->gone);
			}
			slot = (uint32_t)c->nids++;
			c->last[slot] = c->gone[slot] = 0;
			hmap_set(&c->ids, id[i], slot);
		}
		if (!kept) {
			c->gone[slot] += v - c->last[slot];	/* modulo 2^64, as perf subtracts */
		} else if (c->gone[slot] != 0) {
			if (!changed)
				memcpy(c->rbuf, r->p, r->size);
			put64(c->rbuf + at + off[i], v - c->gone[slot], r->swap);
			changed = true;
		}
		c->last[slot] = v;
	}
	return changed ? c->rbuf : r->p;
}

/* ---- records ---- */

static void
note_time(struct carver *c, const struct rec *r)
{
	const struct attr_table *at = session_attrs(c->s);
	struct sample smp;

	if (record_sample_head(at, r, record_attr(at, r), &smp) < 0 ||
	    !(smp.sample_type & PERF_SAMPLE_TIME))
		return;
	if (!c->timed || smp.time < c->t_first)
		c->t_first = smp.time;
	if (!c->timed || smp.time > c->t_last)
		c->t_last = smp.time;
	c->timed = true;
}

/* A record of size bytes about to go at the output's end: its origin's bytes grow. */
static void
note_origin(struct carver *c, const struct rec *r, uint64_t size)
{
	uint32_t k = origins_find(&c->org, r->loc);
	uint64_t pos = out_pos(&c->o);

	if (k >= c->org.n)
		return;
	if (!c->oseen[k])
		c->ostart[k] = pos;
	c->oseen[k] = true;
	c->oend[k] = pos + size;
}

/* Record r into the output, or left out.  Non-zero stops the walk (a write error). */
int
carve_rec(struct carver *c, const struct rec *r)
{
	uint64_t extra = session_rec_trailing(r);
	const uint8_t *tail = NULL, *p = r->p;
	bool kept;

	switch (r->type) {
	case PF_REC_COMPRESSED:
	case PF_REC_COMPRESSED2:	/* its records follow it in the walk */
	case PF_REC_ATTR:		/* the attrs section */
	case PF_REC_FEATURE:		/* feature sections */
	case PF_REC_TRACING_DATA:	/* the TRACING_DATA section */
		return 0;
	case PF_REC_FINISHED_ROUND:
		if (c->si.mode == SESSION_DIR)
			return 0;	/* written anew: the records are in time order */
		break;
	case PF_REC_SAMPLE:
		c->res.samples++;
		kept = c->keep == NULL || c->keep(c->arg, r);
		p = read_adjust(c, r, kept);
		if (!kept)
			return 0;
		c->res.kept++;
		note_time(c, r);
		break;
	default:
		break;
	}
	if (extra > 0 && (tail = session_bytes(c->s, r->loc + r->size, extra)) == NULL)
		return 0;	/* its data cut short: loading said so */
	if (c->org.n > 0)
		note_origin(c, r, r->size + extra);
	put_rec(c, p, r->size, r->type, tail, extra);
	c->res.records++;
	if (c->si.mode == SESSION_DIR && ++c->since_round == DIR_ROUND) {
		uint8_t fr[8];

		put32(fr, PF_REC_FINISHED_ROUND, c->si.swap);
		put16(fr + 4, 0, c->si.swap);
		put16(fr + 6, 8, c->si.swap);
		put_rec(c, fr, 8, PF_REC_FINISHED_ROUND, NULL, 0);
		c->since_round = 0;
	}
	return c->o.err != 0 || c->zerr != NULL;
}

int
walk_fn(void *arg, const struct rec *r, int depth)
{
	(void)depth;
	return carve_rec(arg, r);
}

/* Directory mode: the records of every file in time order (the index's). */
void
walk_index(struct carver *c)
{
	const struct rec_index *ix = session_index(c->s);

	for (size_t i = 0; i < ix->n; i++) {
		struct rec r;

		if (session_rec(c->s, ent_loc(index_ent(ix, i)), &r) == 0 && carve_rec(c, &r) != 0)
			return;
	}
}

/* ---- features ---- */

/* Is feature bit carried over (else *silent: dropped without a word)? */
static bool
feat_kept(const struct carver *c, unsigned bit, bool *silent)
{
	const struct feat_sec *fs = &session_features(c->s)->sec[bit];

	*silent = false;
	if (bit == PF_FEAT_COMPRESSED)
		return c->z;
	if (bit == PF_FEAT_PERFNAV_ORIGINS)
		return c->org.n > 0;	/* written anew (a merged input, not compressed) */
	if (!fs->present)
		return false;
	if (bit >= PF_FEAT_FIRST_END_MARKER && fs->size == 0) {
		*silent = true;	/* a pipe's end marker */
		return false;
	}
	if (bit == 0 || bit == PF_FEAT_DIR_FORMAT || bit == PF_FEAT_AUXTRACE)
		return false;
	return bit == PF_FEAT_SAMPLE_TIME || fs->size == 0 ||
	    session_bytes(c->s, fs->offset, fs->size) != NULL;
}

static uint64_t
feat_size(const struct carver *c, unsigned bit)
{
	if (bit == PF_FEAT_SAMPLE_TIME)
		return 16;
	if (bit == PF_FEAT_COMPRESSED)
		return 20;
	if (bit == PF_FEAT_PERFNAV_ORIGINS)
		return origins_sec_size(&c->org);
	return session_features(c->s)->sec[bit].size;
}

static void
feat_write(struct carver *c, unsigned bit)
{
	const struct feat_sec *fs = &session_features(c->s)->sec[bit];
	uint8_t b[20];

	if (bit == PF_FEAT_SAMPLE_TIME) {
		out_u64(&c->o, c->timed ? c->t_first : 0);
		out_u64(&c->o, c->timed ? c->t_last : 0);
	} else if (bit == PF_FEAT_COMPRESSED) {
		put32(b, 0, c->si.swap);		/* version */
		put32(b + 4, 1, c->si.swap);		/* zstd */
		put32(b + 8, (uint32_t)c->level, c->si.swap);
		put32(b + 12, c->zout ? (uint32_t)((c->zin + c->zout / 2) / c->zout) : 1, c->si.swap);
		put32(b + 16, ZCHUNK, c->si.swap);	/* mmap_len: the most a record decompresses to */
		out_put(&c->o, b, 20);
	} else if (bit == PF_FEAT_PERFNAV_ORIGINS) {
		origins_sec_write(&c->o, &c->org);
	} else if (fs->size > 0) {
		out_put(&c->o, session_bytes(c->s, fs->offset, fs->size), fs->size);
	}
}

/* The feature section table and the sections; the bits written into bits. */
static void
write_features(struct carver *c, uint64_t bits[4])
{
	unsigned list[PF_FEAT_BITS];
	size_t n = 0;
	uint64_t at;

	for (unsigned bit = 0; bit < PF_FEAT_BITS; bit++) {
		bool silent;

		if (feat_kept(c, bit, &silent)) {
			list[n++] = bit;
			bits[bit / 64] |= UINT64_C(1) << (bit % 64);
		} else if (!silent && session_features(c->s)->sec[bit].present) {
			c->res.dropped_feats[bit / 64] |= UINT64_C(1) << (bit % 64);
		}
	}
	at = (out_pos(&c->o) + 16 * (uint64_t)n + 7) & ~UINT64_C(7);
	for (size_t i = 0; i < n; i++) {
		uint64_t size = feat_size(c, list[i]);

		out_u64(&c->o, at);
		out_u64(&c->o, size);
		at += (size + 7) & ~UINT64_C(7);
	}
	out_pad8(&c->o);
	for (size_t i = 0; i < n; i++) {
		feat_write(c, list[i]);
		out_pad8(&c->o);
	}
}

/* ---- the file ---- */

void
write_header(struct carver *c, uint32_t abytes, const struct pf_section *attrs,
    const struct pf_section *data, const struct pf_section *types, const uint64_t bits[4])
{
	uint8_t h[sizeof(struct pf_header)];
	bool sw = c->si.swap;

	put64(h, PERF_MAGIC2, sw);
	put64(h + 8, sizeof h, sw);
	put64(h + 16, abytes + 16, sw);
	put64(h + 24, attrs->offset, sw);
	put64(h + 32, attrs->size, sw);
	put64(h + 40, data->offset, sw);
	put64(h + 48, data->size, sw);
	put64(h + 56, types->offset, sw);
	put64(h + 64, types->size, sw);
	for (int i = 0; i < 4; i++)
		put64(h + PF_HEADER_FEATURES_OFF + 8 * i, bits[i], sw);
	pwrite_all(&c->o, h, sizeof h, 0);
}

/* Old perf's event_types section, copied when it can be read. */
static void
write_event_types(struct carver *c, struct pf_section *types)
{
	const uint8_t *p = session_bytes(c->s, c->si.event_types_sec.offset, c->si.event_types_sec.size);

	types->offset = types->size = 0;
	if (c->si.event_types_sec.size == 0 || p == NULL)
		return;
	types->offset = out_pos(&c->o);
	types->size = c->si.event_types_sec.size;
	out_put(&c->o, p, types->size);
	out_pad8(&c->o);
}

/* Origins with no record kept: empty, where the one before ended. */
static void
origins_close(struct carver *c, uint64_t data_off)
{
	uint64_t at = data_off;

	for (size_t k = 0; k < c->org.n; k++) {
		c->org.v[k].start = c->oseen[k] ? c->ostart[k] : at;
		c->org.v[k].end = c->oseen[k] ? c->oend[k] : at;
		at = c->org.v[k].end;
	}
}

uint64_t
origins_sec_size(const struct origins *o)
{
	uint64_t size = 8;

	for (size_t i = 0; i < o->n; i++)
		size += 24 + (strlen(o->v[i].name) + 8) / 8 * 8;
	return size;
}

void
origins_sec_write(struct out *out, const struct origins *o)
{
	static const uint8_t zero[8];

	out_u64(out, o->n);
	for (size_t i = 0; i < o->n; i++) {
		size_t n = strlen(o->v[i].name), len = (n + 8) / 8 * 8;

		out_u64(out, o->v[i].start);
		out_u64(out, o->v[i].end);
		out_u64(out, len);
		out_put(out, o->v[i].name, n);
		out_put(out, zero, len - n);
	}
}

static int
carve_body(struct carver *c, struct perf_err *err)
{
	struct pf_section attrs, data, types;
	uint32_t abytes = attr_bytes(session_attrs(c->s));
	uint64_t bits[4] = { 0 };

	c->o.off = sizeof(struct pf_header);
	if (write_attrs(c, abytes, &attrs, err) < 0)
		return -1;
	write_event_types(c, &types);
	out_pad8(&c->o);
	data.offset = out_pos(&c->o);
	if (c->si.mode == SESSION_DIR)
		walk_index(c);
	else
		session_walk(c->s, walk_fn, c);
	zflush(c);
	if (c->zerr != NULL)
		return perf_err_set(err, PERF_E_ZSTD, PERF_ERR_OFF_NONE, "compressing: %s", c->zerr);
	data.size = out_pos(&c->o) - data.offset;
	origins_close(c, data.offset);
	/* the table right after the data (readers find it there), unaligned after COMPRESSED records */
	write_features(c, bits);
	c->res.size = out_pos(&c->o);
	out_flush(&c->o);
	write_header(c, abytes, &attrs, &data, &types, bits);
	return 0;
}

int
carve_write(const struct session *s, int fd, const struct carve_opts *o, carve_keep_fn keep,
    void *arg, struct carve_result *res, struct perf_err *err)
{
	struct carver c;
	int rc;

	memset(&c, 0, sizeof c);
	c.s = s;
	c.si = session_info(s);
	c.o.fd = fd;
	c.o.swap = c.si.swap;
	c.o.buf = xmalloc(OUT_BUF);
	c.keep = keep;
	c.arg = arg;
	if ((c.has_read = session_has_read_samples(s)))
		c.rbuf = xmalloc(65536);
	if (o != NULL && o->compress) {
		c.z = true;
		c.level = o->level > 0 ? o->level : 1;
		if ((c.cc = ZSTD_createCCtx()) == NULL)
			fatal_oom(0);
		ZSTD_CCtx_setParameter(c.cc, ZSTD_c_compressionLevel, c.level);
		c.chunk = xmalloc(ZCHUNK);
		c.zrec = xmalloc(8 + ZREC_MAX);
	}
	/* a merged input keeps its origins, uncompressed (a loc is then a file offset) */
	if (!c.z && c.si.mode == SESSION_FILE &&
	    session_features(s)->sec[PF_FEAT_PERFNAV_ORIGINS].present) {
		struct perf_err oerr;

		if (origins_load(s, &c.org, &oerr) < 0 || c.org.n < 2)
			origins_free(&c.org);	/* damaged: dropped (the key file says so) */
		c.ostart = xcalloc(c.org.n + 1, sizeof *c.ostart);
		c.oend = xcalloc(c.org.n + 1, sizeof *c.oend);
		c.oseen = xcalloc(c.org.n + 1, sizeof *c.oseen);
	}
	rc = carve_body(&c, err);
	if (rc == 0 && c.o.err != 0)
		rc = perf_err_set(err, PERF_E_IO, c.o.err_off, "offset 0x%llx: %s",
		    (unsigned long long)c.o.err_off, strerror(c.o.err));
	if (res != NULL)
		*res = c.res;
	ZSTD_freeCCtx(c.cc);
	free(c.chunk);
	free(c.zrec);
	free(c.o.buf);
	free(c.rbuf);
	free(c.last);
	free(c.gone);
	origins_free(&c.org);
	free(c.ostart);
	free(c.oend);
	free(c.oseen);
	hmap_free(&c.ids);
	return rc;
}
