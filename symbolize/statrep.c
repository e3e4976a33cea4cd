#include "config.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/attr.h"
#include "core/bytes.h"
#include "core/err.h"
#include "core/hmap.h"
#include "core/perf_file.h"
#include "core/record.h"
#include "symbolize/filter.h"
#include "symbolize/statrep.h"

/* Bounds against a hostile file: columns, and rounds' cells in all. */
#define STAT_MAX_COLS	4096
#define STAT_MAX_CELLS	(UINT64_C(4) << 20)
/* and the cpus of NUMA_TOPOLOGY's lists read, in all */
#define STAT_MAX_NUMA_CPUS	(UINT64_C(16) << 20)

/* STAT_CONFIG's terms (perf's PERF_STAT_CONFIG_TERM__*). */
enum { TERM_AGGR_MODE = 0, TERM_INTERVAL = 1, TERM_SCALE = 2 };

/* One counter: an event on one cpu for one thread. */
struct counter {
	uint32_t		ev, col;
	struct stat_count	cur, last;	/* now, and at the last round */
};

struct build {
	const struct session	*s;
	struct stat_report	*r;
	int			 pass;
	int			*ev_of_attr;	/* attr index -> event, or -1 */
	struct hmap		 cpu_col;	/* cpu (or thread) -> column (pass 2) */
	struct rec_thread_map	 tmap;		/* the first THREAD_MAP (per thread) */
	struct hmap		 keys;		/* (ev, cpu, thread) -> counter */
	struct counter		*c;
	size_t			 nc, capc, caprounds;
	uint64_t		 cells;
	bool			 full;
};

static void
read_config(struct stat_report *r, const struct rec *rec)
{
	struct rec_stat_config c;

	if (record_stat_config(rec, &c) < 0)
		return;
	r->have_config = true;
	for (uint64_t i = 0; i < c.nr; i++) {
		uint64_t tag, val;

		record_stat_config_term(&c, i, &tag, &val);
		if (tag == TERM_AGGR_MODE)
			r->aggr = val <= STAT_AGGR_NODE ? (enum stat_aggr)val : STAT_AGGR_UNSET;
		else if (tag == TERM_INTERVAL)
			r->interval_ms = val;
	}
}

static int
cmp_i32(const void *a, const void *b)
{
	int32_t x = *(const int32_t *)a, y = *(const int32_t *)b;

	return (x > y) - (x < y);
}

/* The column key of a count: its cpu (per cpu) or its thread (per thread). */
static int32_t
col_key(const struct stat_report *r, const struct rec_stat *st)
{
	return r->per_thread ? (int32_t)st->thread : (int32_t)st->cpu;
}

/* Pass 1: the cpus or threads seen (the columns); false past the bound. */
static bool
note_col(struct build *b, int32_t key)
{
	struct stat_report *r = b->r;

	if ((!r->per_cpu && !r->per_thread && !r->per_aggr) ||
	    hmap_get(&b->cpu_col, (uint64_t)(uint32_t)key) != HMAP_NONE)
		return true;
	if (r->ncols >= STAT_MAX_COLS)
		return false;
	r->cols = xreallocarray(r->cols, r->ncols + 1, sizeof *r->cols);
	r->cols[r->ncols++] = key;
	hmap_set(&b->cpu_col, (uint64_t)(uint32_t)key, 0);
	return true;
}

/* A record left out: counted, the first one's offset kept. */
static void
bad(struct stat_report *r, uint64_t loc)
{
	if (r->nbad++ == 0)
		r->first_bad = loc;
}

static uint64_t
counter_key(uint32_t ev, uint32_t cpu, uint32_t thread)
{
	return (uint64_t)ev << 48 ^ (uint64_t)cpu << 24 ^ thread ^ (uint64_t)thread << 40;
}

static struct counter *
counter_of(struct build *b, uint32_t ev, const struct rec_stat *st)
{
	struct stat_report *r = b->r;
	uint32_t col = 0, i;
	uint64_t key;

	if ((r->per_cpu || r->per_thread || r->per_aggr) &&
	    (col = hmap_get(&b->cpu_col, (uint64_t)(uint32_t)col_key(r, st))) == HMAP_NONE)
		return NULL;
	key = counter_key(ev, st->cpu, st->thread);
	i = hmap_get(&b->keys, key);
	if (i == HMAP_NONE) {
		GROW(b->c, b->capc, b->nc + 1);
		i = (uint32_t)b->nc++;
		memset(&b->c[i], 0, sizeof b->c[i]);
		b->c[i].ev = ev;
		b->c[i].col = col;
		hmap_set(&b->keys, key, i);
	}
	return &b->c[i];
}

/*
 * A cpu's count in a round as perf leaves it before it sums an aggregate:
 * what the counter grew (in intervals), scaled by enabled over running time
 * when it ran part of it, 0 when it never ran (perf_counts_values__scale);
 * all 0 for a cpu without a count.
 */
static struct stat_count
cpu_count(const struct counter *c, bool delta)
{
	struct stat_count o = { 0 };
	const struct stat_count *base = &o;

	if (c == NULL || !c->cur.seen)
		return o;
	if (delta)
		base = &c->last;
	o.val = c->cur.val >= base->val ? c->cur.val - base->val : 0;
	o.ena = c->cur.ena >= base->ena ? c->cur.ena - base->ena : 0;
	o.run = c->cur.run >= base->run ? c->cur.run - base->run : 0;
	if (o.run == 0)
		o.val = 0;
	else if (o.run < o.ena)
		o.val = (uint64_t)((double)o.val * (double)o.ena / (double)o.run);
	return o;
}

/*
 * A round per aggregate, as perf's aggr_cb: each event's cpus in ascending
 * order summed into their aggregate (thread 0's counts, the only ones perf
 * reads there); the first cpu that did not run leaves the aggregate not
 * counted and its cpus counted up to it.  val sums every cpu, as perf's
 * metrics take it (aggr_update_shadow).
 */
static void
aggr_round(struct build *b, struct stat_round *rd, bool delta)
{
	struct stat_report *r = b->r;

	for (size_t ev = 0; ev < r->nev; ev++)
		for (size_t i = 0; i < r->ncpus; i++) {
			uint32_t k = hmap_get(&b->keys, counter_key((uint32_t)ev, (uint32_t)r->cpus[i], 0));
			struct stat_count v = cpu_count(k == HMAP_NONE ? NULL : &b->c[k], delta);
			struct stat_count *o = &rd->c[ev * r->ncols + r->cpu_col[i]];

			o->seen = o->scaled = true;
			o->val += v.val;
			if (o->nr > 0 && o->run == 0)
				continue;
			o->nr++;
			if (v.ena == 0 || v.run == 0) {
				o->ena = o->run = 0;
				continue;
			}
			o->ena += v.ena;
			o->run += v.run;
		}
	for (size_t i = 0; i < b->nc; i++)
		b->c[i].last = b->c[i].cur;
}

static void
close_round(struct build *b, const struct rec_stat_round *sr, uint64_t loc)
{
	struct stat_report *r = b->r;
	size_t cells = r->nev * r->ncols;
	struct stat_round *rd;
	bool delta = r->interval_ms != 0 && sr->type == 0;

	/* per aggregate, a round's work is per cpu: the bound counts those */
	if (b->full || b->cells + (r->per_aggr ? r->nev * r->ncpus : cells) > STAT_MAX_CELLS) {
		if (!b->full)
			bad(r, loc);
		b->full = true;
		return;
	}
	b->cells += r->per_aggr ? r->nev * r->ncpus : cells;
	GROW(r->rounds, b->caprounds, r->nrounds + 1);
	rd = &r->rounds[r->nrounds++];
	rd->time = sr->time;
	rd->final = sr->type == 1;
	rd->c = xcalloc(cells ? cells : 1, sizeof *rd->c);
	if (r->per_aggr) {
		aggr_round(b, rd, delta);
		return;
	}
	for (size_t i = 0; i < b->nc; i++) {
		struct counter *c = &b->c[i];
		struct stat_count *o = &rd->c[(size_t)c->ev * r->ncols + c->col];
		const struct stat_count *base = delta ? &c->last : &(struct stat_count){ 0 };

		if (!c->cur.seen)
			continue;
		o->seen = true;
		o->val += c->cur.val >= base->val ? c->cur.val - base->val : 0;
		o->ena += c->cur.ena >= base->ena ? c->cur.ena - base->ena : 0;
		o->run += c->cur.run >= base->run ? c->cur.run - base->run : 0;
		c->last = c->cur;
	}
}

static void metrics(struct stat_report *r);

static int
on_rec(void *arg, const struct rec *rec, int depth)
{
	struct build *b = arg;
	struct stat_report *r = b->r;
	struct rec_stat st;
	struct rec_stat_round sr;
	struct counter *c;
	int attr;

	(void)depth;
	if (rec->type == PF_REC_STAT_CONFIG && b->pass == 1) {
		read_config(r, rec);
		r->per_cpu = r->aggr == STAT_AGGR_NONE;
		r->per_thread = r->aggr == STAT_AGGR_THREAD;
		r->per_aggr = r->aggr == STAT_AGGR_SOCKET || r->aggr == STAT_AGGR_DIE ||
		    r->aggr == STAT_AGGR_CORE || r->aggr == STAT_AGGR_NODE;
	} else if (rec->type == PF_REC_THREAD_MAP && b->pass == 1 && b->tmap.entries == NULL) {
		if (record_thread_map(rec, &b->tmap) < 0)
			memset(&b->tmap, 0, sizeof b->tmap);
	} else if (rec->type == PF_REC_STAT) {
		if (record_stat(rec, &st) < 0 ||
		    (attr = attr_table_find_id(session_attrs(b->s), st.id)) < 0 ||
		    (size_t)attr >= session_attrs(b->s)->n) {
			if (b->pass == 1)
				bad(r, rec->loc);
			return 0;
		}
		if (b->pass == 1) {
			r->nstat++;
			if (!note_col(b, col_key(r, &st)))
				bad(r, rec->loc);
			return 0;
		}
		if ((c = counter_of(b, (uint32_t)b->ev_of_attr[attr], &st)) == NULL)
			return 0;
		c->cur = (struct stat_count){ .val = st.val, .ena = st.ena, .run = st.run, .seen = true };
	} else if (rec->type == PF_REC_STAT_ROUND && b->pass == 2) {
		if (record_stat_round(rec, &sr) == 0)
			close_round(b, &sr, rec->loc);
	}
	return 0;
}

/* Per thread: each column's pid and comm from the THREAD_MAP (unknown
 * past what it holds). */
static void
thread_names(struct stat_report *r, const struct rec_thread_map *m)
{
	r->col_pid = xcalloc(r->ncols ? r->ncols : 1, sizeof *r->col_pid);
	r->col_comm = xcalloc(r->ncols ? r->ncols : 1, sizeof *r->col_comm);
	for (size_t i = 0; i < r->ncols; i++) {
		uint64_t t = (uint64_t)(uint32_t)r->cols[i];

		r->col_pid[i] = -1;
		if (m->entries == NULL || t >= m->have)
			continue;
		r->col_pid[i] = record_thread_map_pid(m, t);
		if (t < m->whole) {
			memcpy(r->col_comm[i], m->entries + 24 * t + 8, 16);
			r->col_comm[i][16] = '\0';
		}
	}
}

/*
 * perf's NUMA map (perf_env__numa_node) for the cpus counted: each one's
 * node, the place in NUMA_TOPOLOGY of the last node that lists it, -1 for
 * none.  Bounded: the lists past STAT_MAX_NUMA_CPUS cpus in all are not read.
 */
static int32_t *
numa_of_cpus(const struct stat_report *r, const struct features *f)
{
	int32_t *m = xcalloc(r->ncpus ? r->ncpus : 1, sizeof *m);
	size_t work = 0;

	for (size_t c = 0; c < r->ncpus; c++)
		m[c] = -1;
	for (uint32_t i = 0; i < f->topo.nnuma && work < STAT_MAX_NUMA_CPUS; i++) {
		struct hist_filter l;

		memset(&l, 0, sizeof l);
		if (filter_parse_cpus(&l, f->topo.numa[i].cpus) < 0)
			continue;
		work += l.ncpus;
		for (size_t k = 0; k < l.ncpus; k++) {
			int32_t cpu = (int32_t)l.cpus[k];
			const int32_t *at = bsearch(&cpu, r->cpus, r->ncpus, sizeof *r->cpus, cmp_i32);

			if (at != NULL)
				m[at - r->cpus] = (int32_t)i;
		}
		filter_free(&l);
	}
	return m;
}

/* The aggregate of a cpu, from the recording's CPU_TOPOLOGY (or NUMA map),
 * as perf's perf_env__get_*_aggr_by_cpu; -1 parts for a cpu it lacks. */
static struct stat_aggr_id
aggr_id_of(const struct stat_report *r, const struct features *f, const int32_t *node_of,
    size_t i)
{
	struct stat_aggr_id id = { -1, -1, -1, -1, 0 };
	const struct feat_cpu_ids *c;
	int32_t cpu = r->cpus[i];

	if (r->aggr == STAT_AGGR_NODE) {
		id.node = node_of[i];
		return id;
	}
	if (cpu < 0 || (uint32_t)cpu >= f->topo.ncpu_ids)
		return id;
	c = &f->topo.cpu_ids[cpu];
	id.socket = (int32_t)c->socket_id;
	if (r->aggr != STAT_AGGR_SOCKET)
		id.die = (int32_t)c->die_id;
	if (r->aggr == STAT_AGGR_CORE)
		id.core = (int32_t)c->core_id;
	return id;
}

/* perf's order of aggregates (aggr_cpu_id__cmp): node, socket, die, core. */
static int
cmp_aggr(const void *a, const void *b)
{
	const struct stat_aggr_id *x = a, *y = b;

	if (x->node != y->node)
		return x->node < y->node ? -1 : 1;
	if (x->socket != y->socket)
		return x->socket < y->socket ? -1 : 1;
	if (x->die != y->die)
		return x->die < y->die ? -1 : 1;
	return (x->core > y->core) - (x->core < y->core);
}

/*
 * Per socket, die, core or node: the cpus counted (pass 1's columns,
 * ascending) become r->cpus, and the columns the aggregates they make, in
 * perf's order.  false (nothing changed) when the recording has no CPU
 * topology to place them (perf 6.1 cannot report those).
 */
static bool
aggr_columns(struct stat_report *r, const struct features *f)
{
	int32_t *node_of = NULL;
	size_t nids = 0;
	struct stat_aggr_id *cid, *ids;

	if (r->aggr != STAT_AGGR_NODE && f->topo.cpu_ids == NULL)
		return false;
	r->ncpus = r->ncols;
	r->cpus = r->cols;
	r->cols = NULL;
	if (r->aggr == STAT_AGGR_NODE)
		node_of = numa_of_cpus(r, f);
	r->cpu_col = xcalloc(r->ncpus ? r->ncpus : 1, sizeof *r->cpu_col);
	cid = xcalloc(r->ncpus ? r->ncpus : 1, sizeof *cid);
	ids = xcalloc(r->ncpus ? r->ncpus : 1, sizeof *ids);
	for (size_t i = 0; i < r->ncpus; i++) {
		size_t j = 0;

		cid[i] = aggr_id_of(r, f, node_of, i);
		while (j < nids && cmp_aggr(&ids[j], &cid[i]) != 0)
			j++;
		if (j == nids)
			ids[nids++] = cid[i];
	}
	qsort(ids, nids, sizeof *ids, cmp_aggr);
	for (size_t i = 0; i < r->ncpus; i++) {
		struct stat_aggr_id *at = bsearch(&cid[i], ids, nids, sizeof *ids, cmp_aggr);

		r->cpu_col[i] = (uint32_t)(at - ids);
		at->ncpus++;
	}
	r->aggr_ids = ids;
	r->ncols = nids;
	free(cid);
	free(node_of);
	return true;
}

bool
stat_report_build(const struct session *s, struct stat_report *out)
{
	const struct attr_table *at = session_attrs(s);
	struct build b;

	memset(out, 0, sizeof *out);
	memset(&b, 0, sizeof b);
	out->aggr = STAT_AGGR_GLOBAL;
	b.s = s;
	b.r = out;
	b.pass = 1;
	session_walk(s, on_rec, &b);
	if (out->nstat == 0) {
		hmap_free(&b.cpu_col);
		return false;
	}
	/* every event of the recording, in its order, counted or not */
	b.ev_of_attr = xcalloc(at->n ? at->n : 1, sizeof *b.ev_of_attr);
	out->ev = xcalloc(at->n ? at->n : 1, sizeof *out->ev);
	for (size_t i = 0; i < at->n; i++) {
		const struct perf_event_attr *a = &at->v[i].attr;

		b.ev_of_attr[i] = (int)out->nev;
		out->ev[out->nev].attr = (int)i;
		out->ev[out->nev].name = session_attr_name(s, (int)i);
		out->ev[out->nev].clock = a->type == PERF_TYPE_SOFTWARE &&
		    (a->config == PERF_COUNT_SW_TASK_CLOCK || a->config == PERF_COUNT_SW_CPU_CLOCK);
		out->nev++;
	}
	if (out->per_cpu || out->per_thread || out->per_aggr)
		qsort(out->cols, out->ncols, sizeof *out->cols, cmp_i32);
	if (out->per_aggr && !aggr_columns(out, session_features(s))) {
		out->per_aggr = false;
		free(out->cols);
		out->cols = NULL;
		out->ncols = 0;
	}
	if (!out->per_cpu && !out->per_thread && !out->per_aggr) {
		free(out->cols);
		out->cols = xcalloc(1, sizeof *out->cols);
		out->cols[0] = -1;
		out->ncols = 1;
	} else {
		/* a cpu's (thread's) place: its column, or per aggregate in r->cpus */
		const int32_t *keys = out->per_aggr ? out->cpus : out->cols;
		size_t n = out->per_aggr ? out->ncpus : out->ncols;

		for (size_t i = 0; i < n; i++)
			hmap_set(&b.cpu_col, (uint64_t)(uint32_t)keys[i], (uint32_t)i);
	}
	if (out->per_thread)
		thread_names(out, &b.tmap);
	b.pass = 2;
	session_walk(s, on_rec, &b);
	for (size_t ev = 0; ev < out->nev; ev++) {
		out->ev[ev].supported_from = SIZE_MAX;
		for (size_t i = 0; i < out->nrounds && out->ev[ev].supported_from == SIZE_MAX; i++)
			for (size_t col = 0; col < out->ncols; col++)
				if (out->rounds[i].c[ev * out->ncols + col].seen) {
					out->ev[ev].supported_from = i;
					break;
				}
	}
	metrics(out);
	free(b.ev_of_attr);
	free(b.c);
	hmap_free(&b.keys);
	hmap_free(&b.cpu_col);
	return true;
}

/* The rate per second of v over nsecs, in perf's units. */
static const char *
rate_unit(double *v)
{
	static const char *const units[] = { "/sec", "K/sec", "M/sec", "G/sec" };
	int u = 0;

	while (u < 3 && *v > 1000.0) {
		*v /= 1000.0;
		u++;
	}
	return units[u];
}

/*
 * perf's metrics: a clock's share of the elapsed time (not in intervals),
 * else the count per second of the column's clocks, their mean over every
 * round so far (perf does not reset it between intervals).
 */
static void
metrics(struct stat_report *r)
{
	double *sum = xcalloc(r->ncols ? r->ncols : 1, sizeof *sum);
	unsigned *n = xcalloc(r->ncols ? r->ncols : 1, sizeof *n);
	double v;

	for (size_t i = 0; i < r->nrounds; i++) {
		struct stat_round *rd = &r->rounds[i];
		double wall = rd->final && r->interval_ms == 0 ? (double)rd->time : 0;

		/* per aggregate, every clock's sum counts, counted or not */
		for (size_t ev = 0; ev < r->nev; ev++)
			for (size_t col = 0; col < r->ncols; col++)
				if (r->ev[ev].clock && r->per_aggr) {
					sum[col] += (double)rd->c[ev * r->ncols + col].val;
					n[col]++;
				} else if (r->ev[ev].clock &&
				    stat_count_scaled(&rd->c[ev * r->ncols + col], &v)) {
					sum[col] += v;
					n[col]++;
				}
		for (size_t ev = 0; ev < r->nev; ev++)
			for (size_t col = 0; col < r->ncols; col++) {
				struct stat_count *c = &rd->c[ev * r->ncols + col];

				c->munit = NULL;
				if (!stat_count_scaled(c, &v))
					continue;
				if (r->ev[ev].clock) {
					if (wall > 0) {
						c->metric = v / wall;
						c->munit = "CPUs utilized";
					}
				} else if (n[col] > 0 && (sum[col] > 0 || r->per_aggr)) {
					c->metric = sum[col] > 0 ? 1e9 * v / (sum[col] / n[col]) : 0;
					c->munit = rate_unit(&c->metric);
				}
			}
	}
	free(sum);
	free(n);
}

void
stat_report_free(struct stat_report *r)
{
	for (size_t i = 0; i < r->nrounds; i++)
		free(r->rounds[i].c);
	free(r->rounds);
	free(r->ev);
	free(r->cols);
	free(r->col_pid);
	free(r->col_comm);
	free(r->aggr_ids);
	free(r->cpus);
	free(r->cpu_col);
	memset(r, 0, sizeof *r);
}

bool
stat_count_scaled(const struct stat_count *c, double *out)
{
	if (!c->seen || c->run == 0 || c->ena == 0)
		return false;
	*out = (double)c->val;
	if (c->run < c->ena && !c->scaled)
		*out = (double)c->val * (double)c->ena / (double)c->run;
	return true;
}

void
stat_aggr_text(const struct stat_report *r, size_t col, char *buf, size_t n)
{
	const struct stat_aggr_id *id;

	if (n == 0)
		return;
	buf[0] = '\0';
	if (!r->per_aggr || col >= r->ncols)
		return;
	id = &r->aggr_ids[col];
	if (r->aggr == STAT_AGGR_NODE)
		snprintf(buf, n, "N%" PRId32, id->node);
	else if (r->aggr == STAT_AGGR_SOCKET)
		snprintf(buf, n, "S%" PRId32, id->socket);
	else if (r->aggr == STAT_AGGR_DIE)
		snprintf(buf, n, "S%" PRId32 "-D%" PRId32, id->socket, id->die);
	else
		snprintf(buf, n, "S%" PRId32 "-D%" PRId32 "-C%" PRId32, id->socket, id->die, id->core);
}
