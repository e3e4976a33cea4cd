#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "core/core.h"
#include "symbolize/hist_impl.h"
#include "symbolize/offcpu.h"
#include "symbolize/parallel.h"

/*
 * hist_scope.c: recounting a finished hist for another filter
 * (hist_rescope), from what the walk kept of each sample: its period by
 * index position, its path row (cp_row: leaf node and own entry), and per
 * row the entries the row's first sample credited.  Every sample of a row
 * credits the same entries: a row is one own entry (comm, thread, cpu,
 * DSO, symbol) and one path of function nodes, and those are all that the
 * entries of its callchain frames are keyed by (hist_rescope refuses the
 * keys where that is not so, and a hist where a later sample of a row
 * credited other entries: a frame in no symbol is one node whatever its
 * DSO, hist_row_again).  With hist_opts.parallel, a sample's latency
 * is its period over the parallelism at its index position, both known:
 * recomputed as the walk computes it and summed per row (row_lat, made
 * only then), so no latency is kept per sample.
 */

void
hist_keep_row(struct hist *h, size_t pos, size_t span, uint32_t row, uint64_t period)
{
	if (h->rc.sample_row == NULL)
		return;
	if (span != SIZE_MAX && h->o.offcpu_beside) {
		if (h->rc.span_row != NULL)
			h->rc.span_row[span] = row;	/* its period is the span's */
		return;
	}
	h->rc.sample_row[pos] = row;
	hist_keep_period(h, pos, period);
}

void
hist_keep_period(struct hist *h, size_t pos, uint64_t period)
{
	size_t n = session_index(h->s)->n;

	if (h->rc.sample_p64 != NULL) {
		h->rc.sample_p64[pos] = period;
		return;
	}
	if (h->rc.pos_split && period > UINT32_MAX) {
		/* the 32-bit array is shared with the other part: no growing it now */
		GROW(h->rc.bigp, h->rc.capbigp, h->rc.nbigp + 1);
		h->rc.bigp[h->rc.nbigp].pos = pos;
		h->rc.bigp[h->rc.nbigp++].period = period;
		h->rc.sample_p32[pos] = 0;
		return;
	}
	if (period > UINT32_MAX) {
		h->rc.sample_p64 = xcalloc_table(n, sizeof *h->rc.sample_p64);
		for (size_t i = 0; h->rc.sample_p32 != NULL && i < n; i++)
			h->rc.sample_p64[i] = h->rc.sample_p32[i];
		free(h->rc.sample_p32);
		h->rc.sample_p32 = NULL;
		h->rc.sample_p64[pos] = period;
		return;
	}
	if (h->rc.sample_p32 == NULL)
		h->rc.sample_p32 = xcalloc_table(n, sizeof *h->rc.sample_p32);
	h->rc.sample_p32[pos] = (uint32_t)period;
}

void
hist_row_made(struct hist *h, uint32_t row)
{
	if (h->rc.sample_row == NULL)
		return;
	/* Rows are made in id order; a gap (rows made otherwise) is refused later. */
	GROW(h->rc.rowent_off, h->rc.caprowoff, (size_t)row + 2);
	if (row == 0)
		h->rc.rowent_off[0] = 0;
	else if (h->rc.nrowent != h->rc.rowent_off[row] || row + 1 != h->ps.ncprow) {
		h->rc.no_rescope = true;
		return;
	}
	if (h->rc.nrowent + h->rc.ncred > h->rc.caprowent) {
		size_t cap = h->rc.caprowent;

		GROW(h->rc.rowent, cap, h->rc.nrowent + h->rc.ncred);
		if (h->rc.rowlab != NULL)
			h->rc.rowlab = xreallocarray(h->rc.rowlab, cap, sizeof *h->rc.rowlab);
		h->rc.caprowent = cap;
	}
	memcpy(h->rc.rowent + h->rc.nrowent, h->rc.cred, h->rc.ncred * sizeof *h->rc.cred);
	/* labels kept from the first row with a frame in no map on (most have none) */
	for (size_t i = 0; h->rc.rowlab == NULL && i < h->rc.ncred; i++)
		if (h->rc.credlab[i] != 0)
			h->rc.rowlab = xcalloc(h->rc.caprowent, sizeof *h->rc.rowlab);
	if (h->rc.rowlab != NULL)
		memcpy(h->rc.rowlab + h->rc.nrowent, h->rc.credlab, h->rc.ncred * sizeof *h->rc.credlab);
	h->rc.nrowent += h->rc.ncred;
	h->rc.rowent_off[row + 1] = (uint32_t)h->rc.nrowent;
}

void
hist_row_again(struct hist *h, uint32_t row)
{
	const uint32_t *cred = h->rc.cred, *credlab = h->rc.credlab;
	size_t ncred = h->rc.ncred;
	uint32_t a, b;

	if (h->rc.sample_row == NULL || h->rc.no_rescope)
		return;
	if (row >= h->ps.ncprow || (size_t)row + 1 >= h->rc.caprowoff) {
		h->rc.no_rescope = true;
		return;
	}
	a = h->rc.rowent_off[row];
	b = h->rc.rowent_off[row + 1];
	/* a frame in no symbol is one node in several DSOs (dso_mixed): the row's
	 * first sample may have credited another DSO's entry there */
	if (b - a != ncred || memcmp(h->rc.rowent + a, cred, ncred * sizeof *cred) != 0) {
		h->rc.no_rescope = true;
		return;
	}
	for (size_t i = 0; i < ncred; i++)
		if ((h->rc.rowlab != NULL ? h->rc.rowlab[a + i] : 0) != credlab[i])
			h->rc.no_rescope = true;
}

void
hist_scope_free(struct hist *h)
{
	if (!h->rc.pos_lent) {
		free(h->rc.sample_p32);
		free(h->rc.span_row);
	}
	free(h->rc.sample_p64);
	free(h->rc.bigp);
	free(h->rc.rowent_off);
	free(h->rc.rowent);
	free(h->rc.cred);
	free(h->rc.credlab);
	free(h->rc.rowlab);
	free(h->rc.scope_in);
	free(h->rc.row_lat);
	free(h->rc.rank);
	free(h->rc.rowrank);
	free(h->rc.roword);
}

/* Can h be recounted for f? */
static bool
rescope_ok(const struct hist *h, const struct hist_filter *f)
{
	if (!h->finished || h->s == NULL || h->rc.sample_row == NULL || h->rc.no_rescope)
		return false;
	if (h->ks.want_src || h->ptr.ptree || h->o.paths_address || h->ps.ncprow >= ROW_TOTALS)
		return false;
	if (h->ps.ncprow > 0 && (h->rc.rowent_off == NULL || h->rc.caprowoff < h->ps.ncprow + 1 ||
	    h->rc.rowent_off[h->ps.ncprow] != h->rc.nrowent))
		return false;
	/* pids, tids and comms are read off the entries */
	if (f != NULL && (f->npids || f->ntids) && !(h->ks.keymask & HIST_KEEP(HIST_KEY_TID)) &&
	    !(h->ks.keymask & HIST_KEEP(HIST_KEY_PID)))
		return false;
	if (f != NULL && f->ntids && !(h->ks.keymask & HIST_KEEP(HIST_KEY_TID)))
		return false;
	if (f != NULL && f->ncomms && !(h->ks.keymask & HIST_KEEP(HIST_KEY_COMM)))
		return false;
	/* --dsos and --symbols test a sample's own address, which is not kept */
	if (f != NULL && (f->ndsos || f->nsyms))
		return false;
	return true;
}

static void
zero_counts(struct hist *h)
{
	for (size_t i = 0; i < h->nev; i++) {
		h->ev[i].total_period = h->ev[i].total_latency = 0;
		h->ev[i].nsamples = 0;
	}
	for (size_t i = 0; i < h->nent; i++) {
		struct hist_entry *e = &h->ent[i];

		e->period = e->samples = e->acc_period = e->acc_samples = 0;
		e->latency = e->acc_latency = 0;
	}
	for (size_t i = 0; i < h->ps.ncprow; i++)
		h->ps.cprow[i].period = h->ps.cprow[i].samples = 0;
	if (h->o.parallel != NULL && h->ps.ncprow > 0) {
		GROW(h->rc.row_lat, h->rc.caprowlat, h->ps.ncprow);
		memset(h->rc.row_lat, 0, h->ps.ncprow * sizeof *h->rc.row_lat);
	}
}

/* Per event: does its attr record time / cpu (the walk's test of a sample)? */
static void
event_fields(const struct hist *h, uint8_t *has)
{
	const struct attr_table *at = session_attrs(h->s);

	for (size_t i = 0; i < h->nev; i++) {
		int a = h->ev[i].attr >= 0 ? h->ev[i].attr : 0;
		/* past the session's attrs: the off-CPU event, of timed sched_switch samples */
		uint64_t st = (size_t)a < at->n ? at->v[a].attr.sample_type :
		    PERF_SAMPLE_TIME | PERF_SAMPLE_CPU;

		has[i] = (uint8_t)(((st & PERF_SAMPLE_TIME) ? 1 : 0) | ((st & PERF_SAMPLE_CPU) ? 2 : 0));
	}
}

/*
 * The index positions [*from, *to) that can hold samples f takes: with
 * time ranges and every event timed, those from the first range's start to
 * the last one's end.
 */
static void
span_of(const struct hist *h, const struct hist_filter *f, const uint8_t *has, size_t *from,
    size_t *to)
{
	const struct rec_index *ix = session_index(h->s);
	uint64_t lo = UINT64_MAX, hi = 0;

	*from = 0;
	*to = ix->n;
	if (f == NULL || f->ntime == 0)
		return;
	for (size_t i = 0; i < h->nev; i++)
		if (!(has[i] & 1))
			return;	/* untimed samples are in whatever the range */
	for (size_t i = 0; i < f->ntime; i++) {
		uint64_t end = f->time[i].end ? f->time[i].end : UINT64_MAX;	/* 0: open */

		lo = f->time[i].start < lo ? f->time[i].start : lo;
		hi = end > hi ? end : hi;
	}
	*from = index_first_at(ix, lo);
	*to = hi == UINT64_MAX ? ix->n : index_first_at(ix, hi + 1);
}

/* What one recount asks. */
struct count_ctx {
	const struct hist_filter *f;
	const struct hist_select *sel;
	const uint8_t		 *has;
	bool			  by_entry;
	size_t			  pstep;	/* hist_opts.parallel: the first step at or after pos */
};

/* The parallelism of the sample at index position pos (increasing), as the walk's par_at. */
static uint32_t
par_of(const struct hist *h, struct count_ctx *c, size_t pos)
{
	const struct parallel *p = h->o.parallel;

	if (p == NULL)
		return 1;
	while (c->pstep < p->n && p->v[c->pstep].pos < pos)
		c->pstep++;
	return parallel_clamp(p, c->pstep > 0 ? p->v[c->pstep - 1].count : 1);
}

/*
 * Count one sample at index position pos of row r (ROW_TOTALS | event:
 * the totals only) and period, if c's filter takes it; set its scope bit
 * if its row is in the scope too.
 */
static void
count_one(struct hist *h, struct count_ctx *c, size_t pos, uint32_t r, uint64_t period)
{
	const struct hist_filter *f = c->f;
	const struct hist_entry *e = NULL;
	uint32_t ev, par;
	uint64_t lat;
	int32_t cpu = -1;

	if (r == NONE32)
		return;
	if (r >= ROW_TOTALS)
		ev = r & 0xffff;
	else {
		e = &h->ent[h->ps.cprow[r].entry & ~CP_NOCHAIN];
		ev = e->event;
	}
	if (f != NULL && f->ncpus && (c->has[ev] & 2))
		cpu = session_ent_who(h->s, pos).cpu;
	if (f != NULL && !filter_sample_ok(f, (c->has[ev] & 1) ? index_ent(session_index(h->s), pos)->time : 0,
	    cpu >= 0, cpu >= 0 ? (uint32_t)cpu : 0))
		return;
	if (f != NULL && f->nflocs && !filter_loc_ok(f, ent_loc(index_ent(session_index(h->s), pos))))
		return;
	par = par_of(h, c, pos);
	lat = h->o.parallel != NULL ? parallel_latency(period, par) : 0;
	h->ev[ev].total_period += period;
	h->ev[ev].total_latency += lat;
	h->ev[ev].nsamples++;
	if (e == NULL)
		return;
	if (c->by_entry && !filter_entry_ok(f, e->pid, e->tid, hist_str(h, e->comm)))
		return;
	/* --parallelism: as --comms, out of the rows, in the totals */
	if (f != NULL && f->npars && !filter_par_ok(f, par))
		return;
	if (!hist_sel_entry(h, e, c->sel))
		return;
	h->rc.scope_in[pos / 64] |= UINT64_C(1) << (pos % 64);
	if (h->ps.cprow[r].samples == 0)
		h->rc.roword[h->rc.nroword++] = r;
	h->ps.cprow[r].period += period;
	h->ps.cprow[r].samples++;
	if (h->rc.row_lat != NULL && h->o.parallel != NULL)
		h->rc.row_lat[r] += lat;
}

/*
 * A recount under way: the samples f takes into the events' counts, and
 * those sel takes too into the rows'; with offcpu_beside, the off-CPU
 * spans at their switch-outs' positions as well.
 */
struct hist_rescope_job {
	struct hist		*h;
	struct count_ctx	 c;
	uint8_t			*has;
	const struct offcpu	*oc;
	size_t			 from, pos, to, k;
	bool			 scoped;
};

/* Count the positions [j->pos, j->pos + npos) (at most to the span's end); true when all are. */
bool
hist_rescope_step(struct hist_rescope_job *j, size_t npos)
{
	struct hist *h = j->h;
	size_t end = j->to - j->pos > npos ? j->pos + npos : j->to;

	for (size_t pos = j->pos; pos < end; pos++) {
		count_one(h, &j->c, pos, h->rc.sample_row[pos],
		    h->rc.sample_p64 ? h->rc.sample_p64[pos] : h->rc.sample_p32[pos]);
		for (; j->oc != NULL && j->k < j->oc->n && j->oc->v[j->k].pos == pos; j->k++)
			count_one(h, &j->c, pos, h->rc.span_row[j->k], j->oc->v[j->k].ns);
	}
	j->pos = end;
	return j->pos == j->to;
}

void
hist_rescope_progress(const struct hist_rescope_job *j, size_t *done, size_t *total)
{
	*done = j->pos - j->from;
	*total = j->to - j->from;
}

/*
 * Each entry's place in the order a fresh walk of the counted samples
 * makes entries: by the rows' first samples, each row's entries as its
 * first sample credited them (own entry first); and its label_sym, the
 * one that row's first sample gave it (a fresh walk's is its first
 * sample's in the scope: the same unless a row's samples label a frame
 * in no map differently).  Without a filter or a selection every sample
 * counts and creation is that order: no rank kept.
 */
static void
rank_entries(struct hist *h, bool scoped)
{
	uint32_t next = 0;
	uint32_t *rank = xreallocarray(NULL, h->nent + 1, sizeof *rank);

	free(h->rc.rank);
	h->rc.rank = NULL;
	h->rc.nrank = 0;
	free(h->rc.rowrank);
	h->rc.rowrank = NULL;
	h->rc.nrowrank = 0;
	memset(rank, 0xff, (h->nent + 1) * sizeof *rank);
	for (size_t k = 0; k < h->rc.nroword; k++) {
		uint32_t r = h->rc.roword[k];

		for (uint32_t i = h->rc.rowent_off[r]; i < h->rc.rowent_off[r + 1]; i++) {
			uint32_t e = h->rc.rowent[i];

			if (rank[e] != NONE32)
				continue;
			rank[e] = next++;
			if (h->rc.rowlab != NULL)
				h->ent[e].label_sym = h->rc.rowlab[i];
		}
	}
	if (!scoped) {
		free(rank);
		return;
	}
	/* entries of no counted sample: after, as made */
	for (size_t i = 0; i < h->nent; i++)
		if (rank[i] == NONE32)
			rank[i] = next++;
	h->rc.rank = rank;
	h->rc.nrank = h->nent;
	h->rc.rowrank = xreallocarray(NULL, h->ps.ncprow + 1, sizeof *h->rc.rowrank);
	memset(h->rc.rowrank, 0xff, (h->ps.ncprow + 1) * sizeof *h->rc.rowrank);
	for (size_t k = 0; k < h->rc.nroword; k++)
		h->rc.rowrank[h->rc.roword[k]] = (uint32_t)k;
	for (size_t r = 0, k = h->rc.nroword; r < h->ps.ncprow; r++)
		if (h->rc.rowrank[r] == NONE32)
			h->rc.rowrank[r] = (uint32_t)k++;
	h->rc.nrowrank = h->ps.ncprow;
}

uint32_t
hist_ent_order(const struct hist *h, uint32_t i)
{
	if (h->rc.rank == NULL)
		return i;
	return i < h->rc.nrank ? h->rc.rank[i] : i;
}

uint32_t
hist_row_order(const struct hist *h, uint32_t r)
{
	if (h->rc.rowrank == NULL)
		return r;
	return r < h->rc.nrowrank ? h->rc.rowrank[r] : r;
}

int
hist_rescope(struct hist *h, const struct hist_filter *f)
{
	return hist_rescope_sel(h, f, NULL);
}

bool
hist_scope_known(const struct hist *h)
{
	/* rows per sample that are its path's: what a recount reads (not branch mode, PT...) */
	return h->rc.scope_in != NULL || rescope_ok(h, NULL);
}

bool
hist_scope_has(const struct hist *h, size_t pos)
{
	if (h->s == NULL || pos >= session_index(h->s)->n)
		return false;
	if (h->rc.scope_in != NULL)
		return (h->rc.scope_in[pos / 64] >> (pos % 64)) & 1;
	if (!hist_scope_known(h))
		return true;	/* not known: every sample */
	return h->rc.sample_row[pos] < ROW_TOTALS;
}

struct hist_rescope_job *
hist_rescope_begin(struct hist *h, const struct hist_filter *f, const struct hist_select *sel)
{
	const struct rec_index *ix;
	struct hist_rescope_job *j;

	if (!rescope_ok(h, f))
		return NULL;
	/* an own entry's comm, thread, DSO and symbol are its keys, or not known */
	if (sel != NULL && (((sel->by_pid || sel->by_tid) && !(h->ks.keymask & HIST_KEEP(HIST_KEY_TID))) ||
	    (sel->by_comm && !(h->ks.keymask & HIST_KEEP(HIST_KEY_COMM))) ||
	    (sel->by_dso && !(h->ks.keymask & HIST_KEEP(HIST_KEY_DSO))) ||
	    (sel->by_node && !(h->ks.keymask & HIST_KEEP(HIST_KEY_SYM))) ||
	    (sel->by_file && !(h->ks.keymask & HIST_KEEP(HIST_KEY_FILE)))))
		return NULL;
	ix = session_index(h->s);
	j = xcalloc(1, sizeof *j);
	j->h = h;
	j->scoped = f != NULL || sel != NULL;
	zero_counts(h);
	j->has = xcalloc(h->nev + 1, 1);
	event_fields(h, j->has);
	if (h->rc.scope_in == NULL)
		h->rc.scope_in = xcalloc((ix->n + 63) / 64 + 1, sizeof *h->rc.scope_in);
	h->rc.roword = xreallocarray(h->rc.roword, h->ps.ncprow + 1, sizeof *h->rc.roword);
	h->rc.nroword = 0;
	j->c = (struct count_ctx){ f, sel, j->has, f != NULL && (f->npids || f->ntids || f->ncomms),
		0 };
	j->oc = h->rc.span_row != NULL ? h->o.offcpu : NULL;
	span_of(h, f, j->has, &j->from, &j->to);
	j->pos = j->from;
	if (h->o.parallel != NULL)
		j->c.pstep = parallel_lower(h->o.parallel, j->from);
	memset(h->rc.scope_in, 0, (ix->n + 63) / 64 * sizeof *h->rc.scope_in);
	j->k = j->oc != NULL ? offcpu_lower(j->oc, j->from) : 0;
	return j;
}

void
hist_rescope_end(struct hist_rescope_job *j, bool finish)
{
	struct hist *h;

	if (j == NULL)
		return;
	h = j->h;
	if (finish) {
		(void)hist_rescope_step(j, SIZE_MAX);
		rank_entries(h, j->scoped);
		for (size_t r = 0; r < h->ps.ncprow; r++) {
			const struct cp_row *cr = &h->ps.cprow[r];
			struct hist_entry *own = &h->ent[cr->entry & ~CP_NOCHAIN];
			uint64_t lat = h->o.parallel != NULL ? h->rc.row_lat[r] : 0;

			if (cr->samples == 0)
				continue;
			own->period += cr->period;
			own->latency += lat;
			own->samples += cr->samples;
			for (uint32_t i = h->rc.rowent_off[r]; i < h->rc.rowent_off[r + 1]; i++) {
				struct hist_entry *e = &h->ent[h->rc.rowent[i]];

				e->acc_period += cr->period;
				e->acc_latency += lat;
				e->acc_samples += cr->samples;
			}
		}
		hist_comm_widths(h);
	}
	free(j->has);
	free(j);
}

int
hist_rescope_sel(struct hist *h, const struct hist_filter *f, const struct hist_select *sel)
{
	struct hist_rescope_job *j = hist_rescope_begin(h, f, sel);

	if (j == NULL)
		return -1;
	hist_rescope_end(j, true);
	return 0;
}
