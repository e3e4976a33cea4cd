#include "config.h"

#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "core/bytes.h"
#include "core/names.h"
#include "core/session.h"
#include "core/session_int.h"

/*
 * session_read.c: reading a loaded session: the bytes at a location (in a
 * file or in decompressed data), the record there, which file and which
 * COMPRESSED record it came from, giving pages back behind a sequential
 * pass, session_walk() over the records in file order, and the accessors
 * of the session's tables and scalars.
 */

/* ---- helpers ---- */

const uint8_t *
session_bytes(const struct session *s, uint64_t loc, uint64_t len)
{
	if (loc >= SESSION_ZLOC) {
		uint64_t z = loc - SESSION_ZLOC;

		if (s->zbuf == NULL || z > s->zlen || len > s->zlen - z)
			return NULL;	/* nothing decompressed (an offset on NULL is undefined) */
		return s->zbuf + z;
	}
	for (size_t i = 0; i < s->nfiles; i++) {
		const struct sfile *f = &s->files[i];

		if (loc >= f->vbase && loc - f->vbase < f->size) {
			uint64_t off = loc - f->vbase;

			if (len > f->size - off)
				return NULL;
			return f->base + off;
		}
	}
	return NULL;
}

int
session_rec(const struct session *s, uint64_t loc, struct rec *out)
{
	const uint8_t *p = session_bytes(s, loc, 8);
	uint32_t size;

	if (p == NULL)
		return -1;
	size = rd16(p + 6, s->swap);
	if (size < 8 || session_bytes(s, loc, size) == NULL)
		return -1;
	out->p = p;
	out->size = size;
	out->type = rd32(p, s->swap);
	out->misc = rd16(p + 4, s->swap);
	out->swap = s->swap;
	out->loc = loc;
	return 0;
}

const struct zchunk *
session_zorigin(const struct session *s, uint64_t loc)
{
	size_t lo = 0, hi;
	uint64_t z;

	if (loc < SESSION_ZLOC || s->nzchunks == 0)
		return NULL;
	z = loc - SESSION_ZLOC;
	hi = s->nzchunks;
	while (lo + 1 < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (s->zchunks[mid].zoff <= z)
			lo = mid;
		else
			hi = mid;
	}
	return &s->zchunks[lo];
}

uint32_t
session_file_of(const struct session *s, uint64_t loc, uint64_t *file_off)
{
	const struct zchunk *z = session_zorigin(s, loc);

	if (z != NULL)
		loc = z->container;
	for (size_t i = s->nfiles; i-- > 0;) {
		if (loc >= s->files[i].vbase) {
			if (file_off)
				*file_off = loc - s->files[i].vbase;
			return (uint32_t)i;
		}
	}
	if (file_off)
		*file_off = loc;
	return 0;
}

void
session_drop_pages(const struct session *s, uint64_t from, uint64_t to)
{
	long pg = sysconf(_SC_PAGESIZE);
	uint64_t mask = pg > 0 ? (uint64_t)pg - 1 : 4095;

	for (size_t i = 0; i < s->nfiles; i++) {
		const struct sfile *f = &s->files[i];
		uint64_t lo, hi;

		if (!f->mapped || to <= f->vbase || from >= f->vbase + f->size)
			continue;
		lo = from > f->vbase ? from - f->vbase : 0;
		hi = to - f->vbase < f->size ? to - f->vbase : f->size;
		lo = (lo + mask) & ~mask;	/* whole pages inside the range */
		hi &= ~mask;
		if (hi > lo)
			madvise((void *)(f->base + lo), hi - lo, MADV_DONTNEED);
	}
}

const char *
session_attr_name(const struct session *s, int i)
{
	if (i < 0 || (size_t)i >= s->attrs.n || s->attrs.v[i].name == NULL)
		return "unknown";
	return s->attrs.v[i].name;
}

/* ---- the session's tables and scalars, for code outside core/ ---- */

const struct rec_index *
session_index(const struct session *s)
{
	return &s->index;
}

const struct thread_table *
session_threads(const struct session *s)
{
	return &s->threads;
}

const struct attr_table *
session_attrs(const struct session *s)
{
	return &s->attrs;
}

const struct type_counts *
session_counts(const struct session *s)
{
	return &s->counts;
}

const struct type_counts *
session_attr_counts(const struct session *s, size_t i)
{
	return i < s->nattr_counts ? &s->attr_counts[i] : NULL;
}

const struct features *
session_features(const struct session *s)
{
	return &s->feat;
}

const struct diag_list *
session_diags(const struct session *s)
{
	return &s->diags;
}

size_t
session_nfiles(const struct session *s)
{
	return s->nfiles;
}

const struct sfile *
session_file(const struct session *s, size_t i)
{
	return &s->files[i];
}

struct session_info
session_info(const struct session *s)
{
	struct session_info si = {
		.path = s->path,
		.mode = s->mode,
		.swap = s->swap,
		.from_stdin = s->from_stdin,
		.header_size = s->header_size,
		.attr_size = s->attr_size,
		.attrs_sec = s->attrs_sec,
		.data_sec = s->data_sec,
		.event_types_sec = s->event_types_sec,
		.feat_off = s->feat_off,
		.zlen = s->zlen,
		.nzchunks = s->nzchunks,
		.nr_containers_records = s->nr_containers_records,
		.t_open = s->t_open,
		.t_walk = s->t_walk,
		.load_split = s->load_split,
		.t_sort = s->t_sort,
		.t_threads = s->t_threads,
		.damaged = s->damaged,
		.cancelled = s->cancelled,
		.mem_budget = s->mem_budget,
		.over_budget = s->over_budget,
		.stop_loc = s->stop_loc,
		.input_cut = s->input_cut,
		.kcore_dir = s->kcore_dir,
	};

	return si;
}

uint64_t
session_rec_offset(const struct session *s, uint64_t loc, uint32_t *file)
{
	uint64_t off;
	uint32_t fi = session_file_of(s, loc, &off);

	if (file != NULL)
		*file = fi;
	if (s->mode == SESSION_PIPE && off >= sizeof(struct pf_pipe_header))
		off -= sizeof(struct pf_pipe_header);
	return off;
}

/* ---- file-order walk of loaded data ---- */

static int
walk_inner(const struct session *s, const struct zchunk *zc, session_walk_fn fn, void *arg,
    bool *stopped)
{
	uint64_t pos = zc->first_rec, stop = UINT64_MAX;

	/* Loading stopped in this chunk (before a record, or at its end). */
	if (s->stop_loc != UINT64_MAX && s->stop_loc >= SESSION_ZLOC &&
	    s->stop_zchunk == (size_t)(zc - s->zchunks)) {
		stop = s->stop_loc - SESSION_ZLOC;
		*stopped = true;
	}
	while (pos < zc->zend && pos < stop) {
		struct rec r;
		int rc;

		if (session_rec(s, SESSION_ZLOC + pos, &r) < 0)
			return 0;
		rc = fn(arg, &r, 1);
		if (rc)
			return rc;
		pos += r.size + session_rec_trailing(&r);
	}
	return 0;
}

int
session_walk(const struct session *s, session_walk_fn fn, void *arg)
{
	size_t zi = 0;

	for (size_t i = 0; i < s->nfiles; i++) {
		const struct sfile *f = &s->files[i];
		uint64_t pos = f->data_off, dropped = f->data_off;

		while (pos < f->data_end) {
			struct rec r;
			int rc;

			session_drop_behind(s, f->vbase, &dropped, pos);

			if (f->data_end - pos < 8 || session_rec(s, f->vbase + pos, &r) < 0 ||
			    pos + r.size > f->data_end)
				break;
			if (r.loc == s->stop_loc)
				return 0;	/* loading stopped here */
			rc = fn(arg, &r, 0);
			if (rc)
				return rc;
			if (r.type == PF_REC_COMPRESSED || r.type == PF_REC_COMPRESSED2) {
				while (zi < s->nzchunks && s->zchunks[zi].container < r.loc)
					zi++;
				if (zi < s->nzchunks && s->zchunks[zi].container == r.loc) {
					bool stopped = false;

					rc = walk_inner(s, &s->zchunks[zi], fn, arg, &stopped);
					if (rc || stopped)
						return rc;
				}
			}
			pos += r.size + session_rec_trailing(&r);
		}
	}
	return 0;
}
