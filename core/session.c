#include "config.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>
#include <zstd.h>

#include "core/bytes.h"
#include "core/names.h"
#include "core/safefile.h"
#include "core/session.h"
#include "core/session_cache.h"
#include "core/session_int.h"

/* Cap on the bytes one COMPRESSED record may expand to. */
#define ZCHUNK_MAX	(UINT64_C(256) << 20)
/*
 * The default memory budget (session_default_budget): BUDGET_FILE_MULT
 * times the recording's size, at least BUDGET_FLOOR, at most
 * 1/BUDGET_RAM_SHARE of the machine's memory (peak memory may reach about
 * twice the budget: the index is sorted through a copy).
 */
#define BUDGET_FILE_MULT	64
#define BUDGET_FLOOR		(UINT64_C(64) << 20)
#define BUDGET_RAM_SHARE	4
/* A COMPRESSED record inflating more than this many times is suspicious:
 * perf's own records inflate 3 to 30 times. */
#define ZRATIO_ABSURD		1000
/* Bytes decompressed at a time, the records they complete walked at once. */
#define ZSTEP			(UINT64_C(1) << 20)

/* State of the load walk. */
struct loader {
	struct session	*s;
	uint32_t	 file;		/* current file index */
	uint64_t	 last_time;
	size_t		*rounds;	/* index positions closing a round */
	size_t		 nrounds, caprounds;
	uint64_t	 zpending;	/* zbuf offset of the next inner record */
	bool		 zbroken;	/* decompression failed in this file */
	uint64_t	 zskipped;
	bool		 index;
	/* progress */
	session_progress_fn progress;
	void		*progress_arg;
	uint64_t	 total, done_before;	/* bytes to walk; of finished files */
	uint64_t	 next_report;
	struct par_part	*part;		/* walking the second half at once (walk_split), or NULL */
	uint64_t	 told;		/* the most done said so far */
	bool		 stop;
	bool		 cut;		/* a walk_region of the file ended at damage */
	/* walk_split: the first half's end is a guess, no damage at it; where it ended */
	bool		 soft_end;
	uint64_t	 ended_at;
	/* memory budget (bytes of decompressed data, index and rounds) */
	uint64_t	 budget;
	uint64_t	 zabsurd;	/* COMPRESSED records of absurd ratio */
	uint64_t	 charged;	/* index bytes of the records read, indexed or not */
	int		 zdepth;	/* inside process_compressed */
	uint64_t	 znested;	/* COMPRESSED records found decompressed */
	/* damaged records by (type, reason), summed up after the walk */
	struct bad_kind {
		uint32_t	 type;
		const char	*why;		/* static string */
		uint64_t	 n;
		uint64_t	 off;		/* file offset of the first */
		uint32_t	 file;
	} bad[16];
	size_t		 nbad;
};

#define PROGRESS_STEP	(UINT64_C(16) << 20)

/* ---- records ---- */

void
session_count_into(struct type_counts *c, struct type_counts **ac, size_t *nac, size_t hint,
    uint32_t type, int attr)
{
	uint32_t t = type < SESSION_NTYPES ? type : SESSION_NTYPES - 1;

	c->total++;
	c->by_type[t]++;
	if (attr >= 0 && (type == PF_REC_SAMPLE || type == PF_REC_LOST_SAMPLES)) {
		if ((size_t)attr >= *nac) {
			size_t n = hint > (size_t)attr ? hint : (size_t)attr + 1;

			*ac = xreallocarray(*ac, n, sizeof **ac);
			memset(*ac + *nac, 0, (n - *nac) * sizeof **ac);
			*nac = n;
		}
		(*ac)[attr].total++;
		(*ac)[attr].by_type[t]++;
	}
}

static void
count_rec(struct session *s, uint32_t type, int attr)
{
	session_count_into(&s->counts, &s->attr_counts, &s->nattr_counts, s->attrs.n, type, attr);
}

static void walk_region(struct loader *ld, uint64_t vstart, const uint8_t *base, uint64_t len,
    uint64_t file_off0, bool inner);

/* Pipe-mode HEADER_ATTR: attr + ids. */
static void
process_header_attr(struct session *s, const struct rec *r)
{
	struct rec_header_attr h;
	struct perf_event_attr a;
	uint32_t idx;

	if (record_header_attr(r, &h) < 0)
		return;	/* record_check counts it */
	if (attr_decode(&a, h.attr, h.attr_size, h.swap) < 0)
		return;
	idx = attr_table_add(&s->attrs, &a, h.attr_size, h.attr_loc);
	for (uint64_t i = 0; i < h.nids; i++)
		attr_table_add_id(&s->attrs, idx, record_header_attr_id(&h, i));
	attr_table_finish(&s->attrs);
}

static void
process_event_update(struct session *s, const struct rec *r)
{
	struct rec_event_update u;
	int a;

	if (record_event_update(r, &u) < 0 || u.type != REC_EVENT_UPDATE_NAME)
		return;
	/*
	 * perf names pipe-mode events from their attrs (its stats say
	 * "cycles:uH" where the stream's EVENT_UPDATE says "cycles:u"); the
	 * header pane still shows the stream's EVENT_DESC names.
	 */
	if (s->mode == SESSION_PIPE)
		return;
	a = attr_table_find_id(&s->attrs, u.id);
	if (a < 0)
		return;
	free(s->attrs.v[a].name);
	s->attrs.v[a].name = xstrndup((const char *)u.data, u.data_len);
	s->attrs.v[a].name_given = true;
}

static void
process_id_index(struct session *s, const struct rec *r)
{
	struct rec_id_index x;

	if (record_id_index(r, &x) < 0 || x.nr == 0)
		return;
	if (!x.fits) {
		diag_add(&s->diags, DIAG_WARN, 0, r->loc, "ID_INDEX: %llu entries do not fit in %u bytes",
		    (unsigned long long)x.nr, r->size);
		return;
	}
	/* Newer perf appends a second array after the entries: not read. */
	for (uint64_t i = 0; i < x.nr; i++) {
		uint64_t id, idx;

		record_id_index_entry(&x, i, &id, &idx);
		if (idx < s->attrs.n && attr_table_find_id(&s->attrs, id) < 0)
			attr_table_add_id(&s->attrs, (uint32_t)idx, id);
	}
}

static void
process_build_id(struct session *s, const struct rec *r)
{
	struct rec_build_id bi;

	if (record_build_id(r, &bi) == 0)
		features_add_build_id(&s->feat, bi.pid, r->misc, bi.id, bi.id_len, bi.filename,
		    bi.filename_max);
}

/* Pipe mode: a feature section in a FEATURE record. */
static void
process_feature(struct session *s, const struct rec *r)
{
	struct rec_feature f;
	struct feat_sec *fs;

	if (record_feature(r, &f) < 0 || f.bit >= PF_FEAT_BITS)
		return;
	fs = &s->feat.sec[f.bit];
	fs->present = true;
	fs->offset = f.data_loc;
	fs->size = f.len;
	s->feat_bits[f.bit / 64] |= UINT64_C(1) << (f.bit % 64);
	feature_decode(&s->feat, (unsigned)f.bit, f.data, f.len, r->swap, f.data_loc,
	    s->mode == SESSION_PIPE ? NULL : &s->attrs, &s->diags);
}

uint64_t
session_rec_trailing(const struct rec *r)
{
	if (r->type == PF_REC_TRACING_DATA && r->size >= 12)
		return ((uint64_t)rd32(r->p + 8, r->swap) + 7) & ~UINT64_C(7);
	if (r->type == PF_REC_AUXTRACE && r->size >= 16)
		return rd64(r->p + 8, r->swap);
	return 0;
}

/* The file offset of a loc for a diagnostic: a decompressed record's is
 * its container's. */
static uint64_t
diag_off(const struct loader *ld, uint64_t loc)
{
	const struct session *s = ld->s;

	if (loc >= SESSION_ZLOC && s->nzchunks > 0)
		loc = s->zchunks[s->nzchunks - 1].container;
	return loc - s->files[ld->file].vbase;
}

/* Bytes the load has taken so far against the memory budget. */
static uint64_t
loader_used(const struct loader *ld)
{
	const struct session *s = ld->s;

	return s->zlen + ld->charged;
}

/*
 * Would taking 'more' bytes go past the budget?  The first time, loading
 * stops there with a diagnostic at loc; true from then on.
 */
static bool
over_budget(struct loader *ld, uint64_t loc, uint64_t more)
{
	struct session *s = ld->s;

	if (!ld->stop && loader_used(ld) + more <= ld->budget)
		return false;
	if (s->stop_loc == UINT64_MAX) {
		s->stop_loc = loc;
		/* in decompressed bytes: the chunk being filled is the last one */
		s->stop_zchunk = loc >= SESSION_ZLOC ? s->nzchunks - 1 : SIZE_MAX;
		bool kib = ld->budget < (UINT64_C(1) << 20);

		diag_add(&s->diags, DIAG_ERROR, ld->file, diag_off(ld, loc),
		    "memory budget of %llu %s reached (%llu MiB decompressed, %llu records read): loading stopped here; --max-memory raises it",
		    (unsigned long long)(ld->budget >> (kib ? 10 : 20)), kib ? "KiB" : "MiB",
		    (unsigned long long)(s->zlen >> 20), (unsigned long long)s->counts.total);
		s->over_budget = true;
		s->damaged = true;
	}
	ld->stop = true;
	return true;
}

/* Walk the complete records decompressed and not walked yet. */
static void
walk_decompressed(struct loader *ld)
{
	struct session *s = ld->s;

	if (ld->zpending != UINT64_MAX && ld->zpending < s->zlen) {
		uint64_t from = ld->zpending;

		walk_region(ld, SESSION_ZLOC + from, s->zbuf + from, s->zlen - from, UINT64_MAX, true);
	}
}

/*
 * Decompress one COMPRESSED record ZSTEP bytes at a time, walking the
 * records each step completes, so that the memory budget stops a bomb
 * after what it allows, with the records before that point loaded.
 */
static void
process_compressed(struct loader *ld, const struct rec *r)
{
	struct session *s = ld->s;
	const uint8_t *src = r->p + 8;
	size_t srclen = r->size - 8, zstart = s->zlen, zi;
	ZSTD_inBuffer in;
	struct zchunk *zc;

	if (r->type == PF_REC_COMPRESSED2) {
		uint64_t dsz;

		if (r->size < 16)
			return;
		dsz = rd64(r->p + 8, r->swap);
		src = r->p + 16;
		srclen = dsz <= r->size - 16 ? dsz : r->size - 16;
	}
	if (ld->zbroken) {
		ld->zskipped++;
		return;
	}
	if (ld->zdepth > 0) {
		/* perf never compresses a COMPRESSED record again */
		if (ld->znested++ == 0)
			diag_add(&s->diags, DIAG_ERROR, ld->file, diag_off(ld, r->loc),
			    "a COMPRESSED record inside decompressed data: not decompressed");
		s->damaged = true;
		return;
	}
	if (s->zctx == NULL) {
		s->zctx = ZSTD_createDCtx();
		if (s->zctx == NULL)
			fatal_oom(0);
	}
	GROW(s->zchunks, s->capzchunks, s->nzchunks + 1);
	zi = s->nzchunks++;
	zc = &s->zchunks[zi];
	zc->zoff = zc->zend = zstart;
	zc->container = r->loc;
	zc->first_rec = UINT64_MAX;	/* set by walk_region */
	ld->zdepth++;
	in.src = src;
	in.size = srclen;
	in.pos = 0;
	for (;;) {
		ZSTD_outBuffer out;
		size_t ret;

		if (over_budget(ld, ld->zpending != UINT64_MAX ? SESSION_ZLOC + ld->zpending : r->loc,
		    ZSTEP))
			break;
		if (s->zlen - zstart >= ZCHUNK_MAX) {
			diag_add(&s->diags, DIAG_ERROR, ld->file, diag_off(ld, r->loc),
			    "COMPRESSED record expands beyond %llu bytes: giving up on it",
			    (unsigned long long)ZCHUNK_MAX);
			ld->zbroken = true;
			s->damaged = true;
			break;
		}
		if (s->zcap - s->zlen < ZSTEP)
			GROW(s->zbuf, s->zcap, s->zlen + ZSTEP);
		out.dst = s->zbuf + s->zlen;
		out.size = ZSTEP;
		out.pos = 0;
		ret = ZSTD_decompressStream(s->zctx, &out, &in);
		s->zlen += out.pos;
		s->zchunks[zi].zend = s->zlen;
		if (ZSTD_isError(ret)) {
			diag_add(&s->diags, DIAG_ERROR, ld->file, diag_off(ld, r->loc),
			    "COMPRESSED record: zstd: %s", ZSTD_getErrorName(ret));
			ld->zbroken = true;
			s->damaged = true;
			break;
		}
		walk_decompressed(ld);
		if (ld->stop || ld->zbroken)
			break;
		/* All input taken and room left over: everything is out. */
		if (in.pos >= in.size && out.pos < out.size)
			break;
		if (out.pos == 0 && in.pos < in.size) {
			/* no progress: zstd should never do this */
			diag_add(&s->diags, DIAG_ERROR, ld->file, diag_off(ld, r->loc),
			    "COMPRESSED record: zstd made no progress: %zu of its bytes left undecompressed",
			    in.size - in.pos);
			ld->zbroken = true;
			s->damaged = true;
			break;
		}
	}
	ld->zdepth--;
	if (srclen > 0 && (s->zlen - zstart) / srclen > ZRATIO_ABSURD && ld->zabsurd++ == 0)
		diag_add(&s->diags, DIAG_WARN, ld->file, diag_off(ld, r->loc),
		    "COMPRESSED record inflates %zu bytes to %llu%s, %llu times: perf's records never compress that well (a decompression bomb?)",
		    srclen, (unsigned long long)(s->zlen - zstart), ld->stop ? " or more" : "",
		    (unsigned long long)((s->zlen - zstart) / srclen));
	zc = &s->zchunks[zi];
	if (zc->first_rec > zc->zend)
		zc->first_rec = zc->zend;
}

/* Count a damaged record under its type and reason. */
static void
tally_bad(struct loader *ld, const struct rec *r, const char *why)
{
	struct bad_kind *b;
	size_t i;

	for (i = 0; i < ld->nbad; i++)
		if (ld->bad[i].type == r->type && ld->bad[i].why == why)
			break;
	if (i == ld->nbad) {
		if (ld->nbad == sizeof ld->bad / sizeof ld->bad[0])
			i--;	/* a last catch-all row */
		else
			ld->nbad++;
		b = &ld->bad[i];
		if (b->n == 0) {
			b->type = r->type;
			b->why = why;
			b->off = diag_off(ld, r->loc);
			b->file = ld->file;
		} else if (b->type != r->type) {
			b->why = "and of other types and kinds";
		} else {
			b->why = "of several kinds";
		}
	}
	ld->bad[i].n++;
}

/* One diagnostic per kind of damaged record: count and first offset. */
static void
report_bad(struct loader *ld)
{
	struct session *s = ld->s;

	for (size_t i = 0; i < ld->nbad; i++) {
		const struct bad_kind *b = &ld->bad[i];
		const char *name = record_type_name(b->type);
		char tbuf[32];

		if (name == NULL) {
			snprintf(tbuf, sizeof tbuf, "type %u", b->type);
			name = tbuf;
		}
		diag_add(&s->diags, DIAG_ERROR, b->file, b->off,
		    "%llu damaged %s record%s (%s), the first here: ignored (dump and hex show it)",
		    (unsigned long long)b->n, name, b->n == 1 ? "" : "s", b->why);
		s->damaged = true;
	}
}

/* A record that changes the session's attrs or features (one a cache entry replays). */
static void
process_state_rec(struct session *s, const struct rec *r)
{
	switch (r->type) {
	case PF_REC_ATTR:
		process_header_attr(s, r);
		break;
	case PF_REC_EVENT_UPDATE:
		process_event_update(s, r);
		break;
	case PF_REC_ID_INDEX:
		process_id_index(s, r);
		break;
	case PF_REC_BUILD_ID:
		process_build_id(s, r);
		break;
	case PF_REC_FEATURE:
		process_feature(s, r);
		break;
	default:
		break;
	}
}

static void
process_rec(struct loader *ld, const struct rec *r, uint64_t *extra)
{
	struct session *s = ld->s;
	struct sample smp;
	const char *why;
	bool whole;
	int attr = -1;

	*extra = session_rec_trailing(r);
	if (session_cache_replays(r->type)) {
		process_state_rec(s, r);
		if (s->cache != NULL) {
			GROW(s->replay, s->capreplay, s->nreplay + 1);
			s->replay[s->nreplay++] = r->loc;
		}
	}
	if (r->type == PF_REC_SAMPLE || r->type < PF_REC_USER_TYPE_START)
		attr = record_attr(session_attrs(s), r);
	count_rec(s, r->type, attr);
	whole = record_check(session_attrs(s), r, ld->index ? &smp : NULL, &why) == 0;
	if (!whole)
		tally_bad(ld, r, why);
	if (ld->index) {
		if (r->type == PF_REC_FINISHED_ROUND) {
			GROW(ld->rounds, ld->caprounds, ld->nrounds + 1);
			ld->rounds[ld->nrounds++] = s->index.n;
		}
		session_index_rec(s, &s->index, &ld->last_time, r, attr,
		    whole && r->type == PF_REC_SAMPLE ? &smp : NULL);
	}
	if (r->type == PF_REC_COMPRESSED || r->type == PF_REC_COMPRESSED2)
		process_compressed(ld, r);
}

/*
 * Report progress when due (pos bytes into the current file, at location
 * loc and file offset off); true when the callback asks to stop, which
 * stops loading there with a note.
 */
static bool
progress_stops(struct loader *ld, uint64_t loc, uint64_t off, uint64_t pos)
{
	struct session *s = ld->s;
	uint64_t done;

	if (ld->progress == NULL || ld->done_before + pos < ld->next_report)
		return false;
	ld->next_report = ld->done_before + pos + PROGRESS_STEP;
	/* the second half's part walks at once: its bytes count too (and never
	 * count back when a part that failed leaves its half to the walk) */
	done = ld->done_before + pos + (ld->part != NULL ?
	    atomic_load_explicit(&ld->part->walked, memory_order_relaxed) : 0);
	ld->told = done > ld->told ? done : ld->told;
	if (ld->progress(ld->progress_arg, ld->told, ld->total) == 0)
		return false;
	ld->stop = true;
	s->cancelled = true;
	s->stop_loc = loc;
	diag_add(&s->diags, DIAG_NOTE, ld->file, off, "loading stopped here on request");
	return true;
}

/* A record found decompressed: counted, and where its chunk's first record is. */
static void
note_inner(struct loader *ld, const struct rec *r)
{
	struct session *s = ld->s;
	struct zchunk *zc = &s->zchunks[s->nzchunks - 1];
	uint64_t z = r->loc - SESSION_ZLOC;

	s->nr_containers_records++;
	if (zc->first_rec == UINT64_MAX && z >= zc->zoff)
		zc->first_rec = z;
	ld->zpending = z + r->size;
}

/*
 * Walk the records of [base, base + len) at location vstart.  For inner
 * (decompressed) regions a partial record at the end is left pending.
 */
static void
walk_region(struct loader *ld, uint64_t vstart, const uint8_t *base, uint64_t len,
    uint64_t file_off0, bool inner)
{
	struct session *s = ld->s;
	uint64_t pos = 0, dropped = 0;

	while (pos < len) {
		struct rec r;
		uint64_t extra = 0;
		uint32_t size;

		if (ld->stop)
			return;
		if (!inner)
			session_drop_behind(s, vstart, &dropped, pos);
		if (!inner && progress_stops(ld, vstart + pos, file_off0 + pos, pos))
			return;

		if (ld->soft_end && !inner &&
		    (len - pos < 8 || rd16(base + pos + 6, s->swap) > len - pos))
			break;	/* at the guess: the caller walks on from here */
		if (len - pos < 8) {
			if (!inner) {
				diag_add(&s->diags, DIAG_ERROR, ld->file, file_off0 + pos,
				    "truncated record header (%llu bytes left)",
				    (unsigned long long)(len - pos));
				s->damaged = ld->cut = true;
				s->files[ld->file].damaged = true;
			}
			break;
		}
		size = rd16(base + pos + 6, s->swap);
		if (size < 8) {
			diag_add(&s->diags, DIAG_ERROR, ld->file,
			    inner ? vstart + pos : file_off0 + pos,
			    "%srecord size %u is smaller than its header: cannot go on%s",
			    inner ? "decompressed " : "", size,
			    inner ? "" : " (records after it are lost)");
			s->damaged = true;
			if (inner) {
				ld->zbroken = true;
				ld->zpending = UINT64_MAX;
			} else {
				s->files[ld->file].damaged = ld->cut = true;
			}
			return;
		}
		if (size > len - pos) {
			if (!inner) {
				diag_add(&s->diags, DIAG_ERROR, ld->file, file_off0 + pos,
				    "record of type %u and size %u runs past the end of the data (%llu bytes left)",
				    rd32(base + pos, s->swap), size,
				    (unsigned long long)(len - pos));
				s->damaged = ld->cut = true;
				s->files[ld->file].damaged = true;
			}
			break;
		}
		/*
		 * Every record is charged what indexing it costs, indexed or
		 * not: every subcommand then stops at the same record.
		 */
		if (loader_used(ld) + SESSION_REC_CHARGE > ld->budget &&
		    over_budget(ld, vstart + pos, SESSION_REC_CHARGE))
			return;
		ld->charged += SESSION_REC_CHARGE;
		r.p = base + pos;
		r.size = size;
		r.type = rd32(base + pos, s->swap);
		r.misc = rd16(base + pos + 4, s->swap);
		r.swap = s->swap;
		r.loc = vstart + pos;
		/* Decompressed: a record whose trailing data is still to come
		 * waits for the next step, as a partial record does. */
		if ((inner || ld->soft_end) && session_rec_trailing(&r) > len - pos - size) {
			ld->charged -= inner ? 0 : SESSION_REC_CHARGE;	/* walked again */
			break;
		}
		if (!inner)
			s->files[ld->file].nrecords++;
		else
			note_inner(ld, &r);
		process_rec(ld, &r, &extra);
		if (inner) {
			/* process_rec may not grow zbuf for inner records, but be safe. */
			base = s->zbuf + (vstart - SESSION_ZLOC);
		}
		pos += size;
		if (extra > 0) {
			if (extra > len - pos) {
				diag_add(&s->diags, DIAG_ERROR, ld->file, file_off0 + pos,
				    "%llu bytes of data after the record run past the end",
				    (unsigned long long)extra);
				s->damaged = ld->cut = true;
				break;
			}
			if (r.type == PF_REC_TRACING_DATA && !s->feat.sec[PF_FEAT_TRACING_DATA].present) {
				/* Pipe mode: the tracing data follows the record. */
				struct feat_sec *fs = &s->feat.sec[PF_FEAT_TRACING_DATA];

				fs->present = true;
				fs->offset = inner ? r.loc + size : file_off0 + pos;
				fs->size = extra;
				feature_decode(&s->feat, PF_FEAT_TRACING_DATA, base + pos, extra,
				    s->swap, fs->offset, NULL, &s->diags);
			}
			pos += extra;
			if (inner)
				ld->zpending += extra;
		}
	}
	ld->ended_at = pos;
}

/* Take the part's index, rounds and counts after the walk's own (it ended where the part starts). */
static void
par_merge(struct loader *ld, struct par_part *p)
{
	struct session *s = ld->s;
	struct rec_index *ix = &s->index;
	size_t n0 = ix->n;

	for (size_t i = 0; i < p->lead_untimed && i < p->ix.n; i++)
		p->ix.lv[i].e.time = ld->last_time;
	if (p->timed_seen)
		ld->last_time = p->last_time;
	for (size_t i = 0; i < p->nrounds; i++) {
		GROW(ld->rounds, ld->caprounds, ld->nrounds + 1);
		ld->rounds[ld->nrounds++] = n0 + p->rounds[i];
	}
	/* the part's entries are where they belong already: right after the walk's */
	ix->n += p->ix.n;
	ix->n_untimed += p->ix.n_untimed;
	s->counts.total += p->counts.total;
	for (size_t t = 0; t < SESSION_NTYPES; t++)
		s->counts.by_type[t] += p->counts.by_type[t];
	if (p->nattr > s->nattr_counts) {
		/* grown as count_rec grows it: to every attr at once */
		size_t n = s->attrs.n > p->nattr ? s->attrs.n : p->nattr;

		s->attr_counts = xreallocarray(s->attr_counts, n, sizeof *s->attr_counts);
		memset(s->attr_counts + s->nattr_counts, 0,
		    (n - s->nattr_counts) * sizeof *s->attr_counts);
		s->nattr_counts = n;
	}
	for (size_t a = 0; a < p->nattr; a++) {
		s->attr_counts[a].total += p->attr_counts[a].total;
		for (size_t t = 0; t < SESSION_NTYPES; t++)
			s->attr_counts[a].by_type[t] += p->attr_counts[a].by_type[t];
	}
	s->files[ld->file].nrecords += p->nrecords;
	ld->charged += p->charged;
}

/* Data sections at least this long are indexed in two parts (PERFNAV_LOAD_SPLIT_MIN: bytes, tests). */
#define SPLIT_MIN	(UINT64_C(64) << 20)

/* The index is about to move: the part writing into it stops, its work thrown away. */
static void
par_fence(void *arg)
{
	struct par_part *p = arg;

	session_par_join(p, true);
	p->failed = true;
}

/*
 * A large data section of a file: its second half indexed (a load without
 * an index: counted) by a thread of its own (session_par.c) while this
 * walk does the first; true if the section was walked here (whole, either
 * way), false to walk it as one.
 * The part writes its entries into the session's index right where the
 * walk's end: it first counts the headers before its start (which also
 * checks that they lead to it), in room made beforehand for the most
 * records both halves could hold; nothing is copied, and should the walk
 * need to grow the index (records decompressed) the part is stopped first.
 */
static bool
walk_split(struct loader *ld, const struct sfile *f)
{
	struct session *s = ld->s;
	uint64_t len = f->data_end - f->data_off, min = SPLIT_MIN, at;
	const uint8_t *base = f->base + f->data_off;
	uint64_t vbase = f->vbase + f->data_off;
	const char *env = getenv("PERFNAV_LOAD_SPLIT_MIN");
	struct par_part p;
	bool merged = false;

	if (env != NULL && *env != '\0')
		min = strtoull(env, NULL, 10);
	if (s->mode == SESSION_PIPE || len < min || len < 64 ||
	    !session_par_split(s, base, len, ld->index, &at))
		return false;
	memset(&p, 0, sizeof p);
	p.s = s;
	p.whole = base;
	p.at = at;
	p.base = base + at;
	p.vstart = vbase + at;
	p.len = len - at;
	p.n0 = s->index.n;
	p.no_index = !ld->index;
	if (ld->index) {
		/* a record is 8 bytes at least: room for both halves, wherever the first ends */
		if (!index_reserve(&s->index, p.n0 + (size_t)(len / 8) + 2))
			return false;
		s->index.before_grow = par_fence;
		s->index.grow_arg = &p;
	}
	if (session_par_start(&p) < 0) {
		s->index.before_grow = NULL;
		session_par_free(&p);
		return false;
	}
	ld->cut = false;
	ld->soft_end = true;
	ld->part = &p;
	walk_region(ld, vbase, base, at, f->data_off, false);
	ld->part = NULL;
	ld->soft_end = false;
	s->index.before_grow = NULL;
	session_par_join(&p, ld->stop);
	if (!ld->stop && !ld->cut && ld->ended_at == at && !p.failed &&
	    (p.no_index || s->index.n == p.n0 + p.na) && loader_used(ld) + p.charged <= ld->budget) {
		par_merge(ld, &p);
		merged = true;
		s->load_split++;
	}
	session_par_free(&p);
	/* the part could not take its half: on from where it starts, over what it wrote
	 * (unless the walk ended before, at damage it could not go past) */
	if (!merged && !ld->stop && !ld->cut)
		walk_region(ld, vbase + ld->ended_at, base + ld->ended_at, len - ld->ended_at,
		    f->data_off + ld->ended_at, false);
	return true;
}

static void
walk_file(struct loader *ld, uint32_t fi)
{
	struct session *s = ld->s;
	struct sfile *f = &s->files[fi];

	ld->file = fi;
	ld->zbroken = false;
	ld->zpending = s->zlen;
	if (s->zctx != NULL)
		ZSTD_DCtx_reset(s->zctx, ZSTD_reset_session_only);
	if (f->data_end > f->data_off && !walk_split(ld, f)) {
		/* room for every record the section can hold, taken as written: no growing */
		if (ld->index && s->mode != SESSION_PIPE)
			(void)index_reserve(&s->index,
			    s->index.n + (f->data_end - f->data_off) / 8 + 2);
		walk_region(ld, f->vbase + f->data_off, f->base + f->data_off,
		    f->data_end - f->data_off, f->data_off, false);
	}

	if (ld->zabsurd > 1)
		diag_add(&s->diags, DIAG_WARN, fi, PERF_ERR_OFF_NONE,
		    "%s: %llu COMPRESSED records inflate more than %d times", f->path,
		    (unsigned long long)ld->zabsurd, ZRATIO_ABSURD);
	ld->zabsurd = 0;
	if (!ld->stop && ld->zpending != UINT64_MAX && ld->zpending < s->zlen) {
		diag_add(&s->diags, DIAG_ERROR, fi, PERF_ERR_OFF_NONE,
		    "%s: %llu decompressed bytes at the end do not form a whole record", f->path,
		    (unsigned long long)(s->zlen - ld->zpending));
		s->damaged = true;
	}
	if (ld->zskipped > 0) {
		diag_add(&s->diags, DIAG_ERROR, fi, PERF_ERR_OFF_NONE,
		    "%s: %llu COMPRESSED records skipped after a decompression error", f->path,
		    (unsigned long long)ld->zskipped);
		ld->zskipped = 0;
	}
}

/* Every file's data section in turn (a round closed between files). */
static void
walk_files(struct loader *ld)
{
	struct session *s = ld->s;

	for (uint32_t i = 0; i < s->nfiles && !ld->stop; i++) {
		if (i > 0 && ld->index) {
			GROW(ld->rounds, ld->caprounds, ld->nrounds + 1);
			ld->rounds[ld->nrounds++] = s->index.n;
		}
		walk_file(ld, i);
		ld->done_before += s->files[i].data_end - s->files[i].data_off;
	}
}

static void
name_attrs(struct session *s)
{
	char buf[256];

	for (size_t i = 0; i < s->attrs.n; i++) {
		struct pn_attr *pa = &s->attrs.v[i];

		if (pa->name != NULL)
			continue;
		if (pa->attr.type == PERF_TYPE_TRACEPOINT) {
			const char *tp = features_tracepoint_name(&s->feat, pa->attr.config);

			if (tp != NULL) {
				pa->name = xstrdup(tp);
				continue;
			}
		}
		names_event_name(&pa->attr, buf, sizeof buf);
		pa->name = xstrdup(buf);
	}
}

uint64_t
session_default_budget(uint64_t size)
{
	long pages = sysconf(_SC_PHYS_PAGES), pg = sysconf(_SC_PAGESIZE);
	uint64_t ram = pages > 0 && pg > 0 ? (uint64_t)pages * (uint64_t)pg : UINT64_C(8) << 30;
	uint64_t cap = ram / BUDGET_RAM_SHARE, b;

	if (size == 0)
		return cap;
	b = size > UINT64_MAX / BUDGET_FILE_MULT ? UINT64_MAX : size * BUDGET_FILE_MULT;
	if (b < BUDGET_FLOOR)
		b = BUDGET_FLOOR;
	return b < cap ? b : cap;
}

/*
 * Memory buffers as the session's files: unmapped and borrowed (never
 * freed); several are a directory's data, data.0, data.1, ...
 */
static int
open_mem(struct session *s, const struct session_mem *mem, size_t nmem, struct perf_err *err)
{
	s->files = xcalloc(nmem, sizeof *s->files);
	for (size_t i = 0; i < nmem; i++) {
		struct sfile *f = &s->files[i];

		if (nmem == 1)
			f->path = xstrdup(s->path);
		else if (i == 0 && asprintf(&f->path, "%s/data", s->path) < 0)
			fatal_oom(0);
		else if (i > 0 && asprintf(&f->path, "%s/data.%zu", s->path, i - 1) < 0)
			fatal_oom(0);
		f->base = mem[i].size > 0 ? mem[i].base : NULL;
		f->size = mem[i].size;
		f->borrowed = true;
		s->nfiles++;
		if (i > 0)
			f->vbase = (f[-1].vbase + f[-1].size + 8 + 7) & ~UINT64_C(7);
		if (f->vbase + f->size >= SESSION_ZLOC)
			return perf_err_set(err, PERF_E_UNSUPPORTED, PERF_ERR_OFF_NONE,
			    "%s: recording larger than %llu bytes", f->path,
			    (unsigned long long)SESSION_ZLOC);
	}
	if (nmem > 1)
		s->mode = SESSION_DIR;
	return 0;
}

/* Pages around the scattered records the thread table reads, given back in batches. */
struct drop_batch {
	bool		 on;
	uint64_t	 lo, hi;
	unsigned	 pending;
};

static void
drop_batch_add(const struct session *s, struct drop_batch *b, uint64_t loc)
{
	/* in batches: one madvise for a run of nearby records */
	uint64_t l = loc & ~(uint64_t)0xffff;

	if (!b->on)
		return;
	l = l >= 0x10000 ? l - 0x10000 : 0;
	b->lo = l < b->lo ? l : b->lo;
	b->hi = l + 0x30000 > b->hi ? l + 0x30000 : b->hi;
	if (++b->pending >= 256 || b->hi - b->lo > (UINT64_C(64) << 20)) {
		session_drop_pages(s, b->lo, b->hi);
		b->lo = UINT64_MAX;
		b->hi = 0;
		b->pending = 0;
	}
}

/* Feed the thread table entry e (who: its packed who). */
static inline void
thread_entry(struct session *s, const struct rec_ent *e, uint64_t who, struct drop_batch *b)
{
	unsigned type = ent_type(e);
	struct rec r;

	if (type == PF_REC_SAMPLE) {
		struct ent_who w;

		/* a pid or tid too large to pack: read the record (so too the slow path) */
		if (!who_unpack(who, &w))
			w = session_load_who(s, e);
		thread_table_add_sample(&s->threads, w.pid, w.tid, e->time);
		return;
	}
	if (!thread_table_wants(type))
		return;
	s->threads.cached = false;	/* even if the record cannot be read */
	if (session_rec(s, ent_loc(e), &r) < 0)
		return;
	thread_table_add(&s->threads, &r, e->time);
	drop_batch_add(s, b, ent_loc(e));
}

/* Feed the thread table the index's samples and its COMM, FORK, EXIT and MMAP records. */
static void
build_threads(struct session *s, bool keep_who)
{
	/*
	 * The records read here are scattered over the file, and each read
	 * maps the pages around it too: on a large recording, give them back
	 * as we go, or the resident set grows by ~64 KiB per record.
	 */
	struct drop_batch b = { s->nfiles > 0 && s->files[0].size > (UINT64_C(256) << 20),
		UINT64_MAX, 0, 0 };

	if (s->index.borrowed) {
		/* a cache entry's finished index (session_cache.c) */
		for (size_t i = 0; i < s->index.n; i++)
			thread_entry(s, &s->index.v[i], s->index.who[i], &b);
	} else {
		/* the index is packed to 16-byte entries in the same pass (index_finish) */
		index_finish_begin(&s->index, keep_who);
		for (size_t i = 0; i < s->index.n; i++) {
			const struct load_ent lec = s->index.lv[i];

			index_finish_step(&s->index, i, &lec);
			thread_entry(s, &lec.e, lec.who, &b);
		}
	}
	if (b.pending)
		session_drop_pages(s, b.lo, b.hi);
	if (!s->index.borrowed)
		index_finish_end(&s->index);
}

/* A cache entry was adopted: the records that changed attrs and features, again. */
static void
replay_cached(struct session *s)
{
	for (size_t i = 0; i < s->nreplay; i++) {
		struct rec r;

		if (session_rec(s, s->replay[i], &r) == 0 && session_cache_replays(r.type))
			process_state_rec(s, &r);
	}
}

/* session_open() and session_open_mem(): from path, or from mem if not NULL. */
static struct session *
open_session(const char *path, const struct session_mem *mem, size_t nmem,
    const struct session_opts *opts, struct perf_err *err)
{
	struct session *s = xcalloc(1, sizeof *s);
	struct loader ld;
	struct stat st;
	double t0 = mono_seconds(), t;
	size_t ndiag;
	int rc;

	s->path = xstrdup(path);
	s->from_stdin = mem == NULL && strcmp(path, "-") == 0;
	s->mem_budget = opts ? opts->mem_budget : 0;
	s->stop_loc = UINT64_MAX;
	s->stop_zchunk = SIZE_MAX;
	if (mem != NULL) {
		rc = open_mem(s, mem, nmem, err);
	} else if (!s->from_stdin && stat(path, &st) == 0 && S_ISDIR(st.st_mode)) {
		rc = session_file_open_dir(s, path, err);
		s->mode = SESSION_DIR;
	} else {
		rc = session_file_open(s, path, false, err);
	}
	if (rc < 0)
		goto fail;
	if (session_file_check_magic(s, err) < 0)
		goto fail;
	if (session_file_read_header(s, err) < 0)
		goto fail;
	if (s->mode != SESSION_PIPE) {
		if (s->mode != SESSION_DIR)
			s->mode = SESSION_FILE;
		session_file_read_attrs(s);
		attr_table_finish(&s->attrs);
		session_file_read_features(s);
		attr_table_finish(&s->attrs);
		session_file_read_event_types(s);
	}
	session_file_data_ranges(s);

	t = mono_seconds();
	s->t_open = t - t0;
	memset(&ld, 0, sizeof ld);
	ld.s = s;
	ld.index = !(opts && opts->no_index);
	ld.progress = opts ? opts->progress : NULL;
	ld.progress_arg = opts ? opts->progress_arg : NULL;
	for (uint32_t i = 0; i < s->nfiles; i++)
		ld.total += s->files[i].data_end - s->files[i].data_off;
	if (s->mem_budget == 0) {
		uint64_t size = 0;

		for (uint32_t i = 0; i < s->nfiles; i++)
			size += s->files[i].size;
		s->mem_budget = session_default_budget(size);
	}
	ld.budget = s->mem_budget;
	/* What was read from a pipe is held in memory: it counts too. */
	for (uint32_t i = 0; i < s->nfiles; i++)
		if (!s->files[i].mapped && !s->files[i].borrowed)
			ld.charged += s->files[i].size;
	session_cache_begin(s, opts);
	ndiag = s->diags.n + s->diags.dropped;
	if (ld.index && session_cache_try(s)) {
		replay_cached(s);
		name_attrs(s);
		s->t_walk = mono_seconds() - t;
		t = mono_seconds();
		build_threads(s, true);
		s->t_threads = mono_seconds() - t;
		if (opts == NULL || !opts->keep_who)
			s->index.who = NULL;	/* as a load without keep_who (still mapped) */
		goto loaded;
	}
	walk_files(&ld);
	if (s->cancelled && opts != NULL && opts->stop_abandons) {
		perf_err_set(err, PERF_E_STOPPED, PERF_ERR_OFF_NONE, "%s: loading stopped on request",
		    path);
		free(ld.rounds);
		goto fail;
	}
	report_bad(&ld);
	session_read_recount(s);
	if (ld.progress != NULL && !ld.stop)
		ld.progress(ld.progress_arg, ld.total, ld.total);
	name_attrs(s);
	s->t_walk = mono_seconds() - t;
	if (ld.index) {
		t = mono_seconds();
		index_sort(&s->index, ld.rounds, ld.nrounds);
		s->t_sort = mono_seconds() - t;
		t = mono_seconds();
		/* a cache entry keeps who: the next open reads it from there */
		build_threads(s, opts != NULL && (opts->keep_who || opts->cache_dir != NULL));
		s->t_threads = mono_seconds() - t;
	}
	session_cache_done(s, ndiag);
loaded:
	/*
	 * Nothing read while loading needs to stay resident; the thread table's
	 * scattered reads of COMM/MMAP records alone map ~64 KiB around each.
	 */
	for (size_t i = 0; i < s->nfiles; i++)
		session_drop_pages(s, s->files[i].vbase, s->files[i].vbase + s->files[i].size);
	free(ld.rounds);
	if (s->zctx != NULL) {
		ZSTD_freeDCtx(s->zctx);
		s->zctx = NULL;
	}
	return s;
fail:
	session_close(s);
	return NULL;
}

struct session *
session_open(const char *path, const struct session_opts *opts, struct perf_err *err)
{
	return open_session(path, NULL, 0, opts, err);
}

struct session *
session_open_mem(const char *name, const struct session_mem *mem, size_t nmem,
    const struct session_opts *opts, struct perf_err *err)
{
	if (mem == NULL || nmem == 0) {
		perf_err_set(err, PERF_E_EMPTY, 0, "%s: no buffer", name);
		return NULL;
	}
	return open_session(name, mem, nmem, opts, err);
}

void
session_close(struct session *s)
{
	if (s == NULL)
		return;
	/* a save of the cache entry on its thread reads the files and the index: done first */
	(void)session_cache_save_wait(s, NULL);
	for (size_t i = 0; i < s->nfiles; i++) {
		struct sfile *f = &s->files[i];

		if (f->mapped)
			munmap((void *)f->base, f->size);
		else if (!f->borrowed)
			free((void *)f->base);
		free(f->path);
	}
	free(s->files);
	attr_table_free(&s->attrs);
	features_free(&s->feat);
	free(s->zbuf);
	free(s->zchunks);
	if (s->zctx != NULL)
		ZSTD_freeDCtx(s->zctx);
	index_free(&s->index);
	session_cache_free(s);
	free(s->replay);
	free(s->attr_counts);
	thread_table_free(&s->threads);
	diag_free(&s->diags);
	free(s->kcore_dir);
	free(s->path);
	free(s);
}
