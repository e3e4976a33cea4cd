#include "config.h"

#include <ctype.h>
#include <inttypes.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/core.h"
#include "symbolize/filter.h"
#include "symbolize/hist.h"
#include "symbolize/symbolizer.h"
#include "symbolize/tpevent.h"
#include "tui/pane.h"
#include "tui/pane/ev_filter.h"
#include "tui/symbols.h"

/*
 * The events pane: every record in time order, straight from the
 * session's index (one row per index entry, nothing copied): time, cpu,
 * pid/tid, comm at that time, and the record's one-line summary.
 *
 * Filter terms (all must hold; parsed in ev_filter.c): type:NAME[,NAME]
 * (SAMPLE, PERF_RECORD_MMAP2, or a number), pid:N, tid:N, cpu:N, time:A-B
 * (seconds as shown; either end may be left out), comm:NAME (the thread's
 * comm at that time), and plain words found in the comm or summary.  With
 * symbols resolved (the app's symbols, tui/symbols.h): dso:NAME (the short
 * name, as the hot functions show it) and sym:NAME (the symbol as shown
 * without its "[.] ", an unresolved address as 0x..., or #ID for a
 * function node), samples whose own ip is there; sym:'s name runs to the
 * next term of a known key, so a C++ name may have spaces.  This is how
 * the hot functions list the samples of a symbol.  symoff:N (any time):
 * samples whose own ip lies N bytes into its symbol (how annotate lists an
 * instruction's samples).  event:NAME (the name, or the name up to perf's
 * modifiers or terms: cpu-clock for cpu-clock:ppp or cpu-clock/freq=2000/)
 * or event:#N (the N-th attr, from 1 as the header pane counts): the
 * records of one event (how annotate keeps to the event it counts).  A
 * KEY:VALUE term of no known key is left out, and said so (unless an
 * event's name starts with KEY:, as sched:sched_switch).  A sample's
 * summary starts with its symbol, resolved for that row; a tracepoint
 * sample's with its event and payload as perf script prints them
 * (libtraceevent: tpevent.h), so plain words find its fields' values too.
 * The list is in index (time) order; r reverses it (a sort by time,
 * descending, equal times in reverse index order).
 *
 * A sample expands (+, Right, e) into its call stack, one row per frame
 * leaf first, as perf script prints it (the address in the time column,
 * then symbol+offset, DSO, inline levels marked "(inlined)"), resolved
 * when it is expanded
 * (symbolizer_callchain, once symbols are resolved).  The rows of the
 * expanded stacks are inserted after their samples: source rows are index
 * positions shifted by the frames of the stacks before them, a frame's row
 * key is EV_FRAME_KEY | position << 16 | frame (a record's stays its
 * position), and a frame row sorts and filters with its sample.  On a
 * frame, Enter opens its function's row in the hot functions, a its
 * annotate view.
 */

enum { C_TIME, C_CPU, C_PID, C_COMM, C_REC, C_N };

static const struct column ev_cols[C_N] = {
	[C_TIME] = { "Time", 16, COL_RIGHT | COL_NUM },
	[C_CPU] = { "CPU", 3, COL_RIGHT | COL_NUM },
	[C_PID] = { "PID/TID", 13, COL_RIGHT | COL_NUM },
	[C_COMM] = { "Comm", 15, 0 },
	[C_REC] = { "Record", 20, COL_FLEX },
};

#define EV_MAX_FRAMES	1024		/* as perfnav script */
#define EV_FRAME_KEY	(UINT64_C(1) << 62)
/* A hot-functions view's cursor naming a function (pane_hot.c's HOT_CURSOR_FUNC). */
#define EV_HOT_FUNC	(UINT64_C(1) << 62)

/* An expanded sample: its frames, leaf first. */
struct ev_stack {
	size_t		 pos;		/* index position of the sample */
	size_t		 before;	/* frame rows of the stacks before it */
	struct frame	*f;
	uint32_t	 n;
	bool		 chain;		/* from a callchain (not the sample's ip alone) */
};

struct ev {
	struct ev_filter	 f;
	struct ev_stack		*st;		/* by pos */
	size_t			 nst, capst;
	/* sym: and dso: compiled against the hist */
	uint8_t			*nodes;		/* per function node: matches sym: */
	size_t			 nnodes;
	uint32_t		 dso_last;	/* one-entry cache of the dso: test */
	bool			 dso_last_ok;
	/* event: compiled against the session's attrs */
	uint8_t			*attrs;		/* per attr: matches event: */
	size_t			 nattrs;
	/*
	 * The scope (tui/scope.h), unless toggled off (all: every record):
	 * only records in [sc_t0, sc_t1], of the zoom's threads and cpus, and
	 * samples in the scope's rows once the hist is counted for it.
	 */
	bool			 scoped;
	bool			 all;
	bool			 by_hist;
	int			 attr;		/* the scope's event when several, else -1 */
	unsigned		 sc_gen;
	uint64_t		 sc_t0, sc_t1;
	/* tracepoint payloads, made at the first tracepoint sample shown */
	struct tpevent		*tp;
	bool			 tp_tried;
};

static const struct rec_ent *
ent(struct pane *p, size_t idx)
{
	return index_ent(session_index(p->s), idx);
}

/* Who the record of entry e (one of the index's) is about. */
static struct ent_who
who_of(struct pane *p, const struct rec_ent *e)
{
	return session_ent_who(p->s, index_ent_pos(session_index(p->s), e));
}

/* ---- expanded stacks: source rows and index positions ---- */

/*
 * How many stacks lie before x: whose sample's index position is below x,
 * or (by_row) whose sample's source row is.
 */
static size_t
stacks_below(const struct ev *ev, size_t x, bool by_row)
{
	size_t lo = 0, hi = ev->nst;

	while (lo < hi) {
		size_t mid = (lo + hi) / 2;

		if (ev->st[mid].pos + (by_row ? ev->st[mid].before : 0) < x)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

/* Stacks whose sample lies before index position pos. */
static size_t
stacks_before(const struct ev *ev, size_t pos)
{
	return stacks_below(ev, pos, false);
}

/* Frame rows before index position pos's row. */
static size_t
frames_before(const struct ev *ev, size_t k)
{
	return k ? ev->st[k - 1].before + ev->st[k - 1].n : 0;
}

/* The expanded stack of the sample at pos, or NULL. */
static struct ev_stack *
stack_at(const struct ev *ev, size_t pos)
{
	size_t k = stacks_before(ev, pos);

	return k < ev->nst && ev->st[k].pos == pos ? &ev->st[k] : NULL;
}

/* The source row of the record at index position pos. */
static size_t
pos_row(const struct pane *p, size_t pos)
{
	const struct ev *ev = p->priv;

	return ev->nst ? pos + frames_before(ev, stacks_before(ev, pos)) : pos;
}

/* The index position of source row src, and which frame of its stack it is (-1: the record). */
static size_t
row_pos(const struct pane *p, size_t src, int *frame)
{
	const struct ev *ev = p->priv;
	const struct ev_stack *st;
	size_t k, s0;

	*frame = -1;
	if (ev->nst == 0)
		return src;
	/* the last stack whose sample's row is at or before src */
	k = stacks_below(ev, src + 1, true);
	if (k == 0)
		return src;
	st = &ev->st[k - 1];
	s0 = st->pos + st->before;
	if (src - s0 <= st->n) {
		if (src > s0)
			*frame = (int)(src - s0 - 1);
		return st->pos;
	}
	return src - st->before - st->n;
}

/* The index position of a source row (a frame's: its sample's). */
static size_t
owner(const struct pane *p, size_t src)
{
	int fr;

	return row_pos(p, src, &fr);
}

static void
restack(struct ev *ev)
{
	for (size_t k = 0; k < ev->nst; k++)
		ev->st[k].before = frames_before(ev, k);
}

static void
stack_drop(struct ev *ev, struct ev_stack *st)
{
	size_t k = (size_t)(st - ev->st);

	free(st->f);
	memmove(st, st + 1, (ev->nst - k - 1) * sizeof *st);
	ev->nst--;
	restack(ev);
}

static const char *
comm_of(struct pane *p, const struct rec_ent *e)
{
	const struct thread_table *tt = session_threads(p->s);
	int32_t tid = who_of(p, e).tid;
	uint32_t t;
	const char *c;

	if (tid < 0)
		return NULL;
	t = thread_table_find(tt, tid, e->time);
	if (t == THREAD_NONE)
		return NULL;
	c = thread_comm_at(tt, t, e->time);
	return c;
}

static int
type_elem(uint32_t type)
{
	switch (type) {
	case PF_REC_SAMPLE:
		return EL_REC_SAMPLE;
	case PF_REC_COMM:
	case PF_REC_FORK:
	case PF_REC_EXIT:
		return EL_REC_TASK;
	case PF_REC_LOST:
	case PF_REC_LOST_SAMPLES:
		return EL_WARNING;
	default:
		return EL_REC_META;
	}
}

static size_t
ev_nrows(struct pane *p)
{
	const struct ev *ev = p->priv;

	return session_index(p->s)->n + frames_before(ev, ev->nst);
}

/* A frame of an expanded stack, as perf script prints it. */
static void
frame_row(struct pane *p, size_t pos, int fr, struct row *r)
{
	const struct ev_stack *st = stack_at(p->priv, pos);
	const struct frame *f;
	struct symbolizer *z = p->sym->z;
	bool inl;
	char off[32] = "";

	r->key = EV_FRAME_KEY | (uint64_t)pos << 16 | (uint64_t)fr;
	r->have_key = true;
	if (st == NULL || (uint32_t)fr >= st->n)
		return;
	f = &st->f[fr];
	inl = f->sym != SYM_NONE && symbolizer_sym_inlined(z, f->sym);
	if (f->sym != SYM_NONE)
		snprintf(off, sizeof off, "+0x%" PRIx64, f->symoff);
	/* the address where the time is: the symbol has the width a narrow terminal leaves */
	/* as perf script: a callchain's user frames at their address in the DSO */
	row_set(r, C_TIME, EL_DIM, "%16" PRIx64, st->chain ? frame_chain_addr(f) : f->ip);
	if (inl)
		row_set(r, C_REC, EL_TREE, "%s%s (inlined)", symbolizer_sym_name(z, f->sym), off);
	else
		row_set(r, C_REC, EL_TREE, "%s%s (%s)", symbolizer_sym_name(z, f->sym), off,
		    symbolizer_dso_long(z, f->dso));
}

/* A tracepoint sample's event and payload ("sched:sched_switch: prev_comm=..."),
 * as perf script prints them, into buf; false for other records. */
static bool
trace_text(struct pane *p, const struct rec *rec, char *buf, size_t n)
{
	struct ev *ev = p->priv;
	const struct attr_table *at = session_attrs(p->s);
	struct sample smp;
	const char *why;

	if (rec->type != PF_REC_SAMPLE || record_decode_sample(session_attrs(p->s), rec, &smp, &why) < 0 ||
	    smp.attr < 0 || (size_t)smp.attr >= at->n ||
	    at->v[smp.attr].attr.type != PERF_TYPE_TRACEPOINT ||
	    (smp.sample_type & PERF_SAMPLE_RAW) == 0)
		return false;
	if (!ev->tp_tried) {
		ev->tp = tpevent_new(p->s);
		ev->tp_tried = true;
	}
	snprintf(buf, n, "%s: %s", session_attr_name(p->s, smp.attr),
	    ev->tp != NULL ? tpevent_text(ev->tp, at->v[smp.attr].attr.config, smp.raw,
	    smp.raw_size, smp.cpu, NULL) : "[no tracing data]");
	return true;
}

static void
ev_row(struct pane *p, size_t src, struct row *r)
{
	int fr;
	size_t idx = row_pos(p, src, &fr);
	const struct rec_ent *e = ent(p, idx);
	struct rec rec;
	char t[32], sum[512], tt[ROW_BUF / 2];
	const char *comm;
	struct ent_who w = who_of(p, e);

	if (fr >= 0) {
		frame_row(p, idx, fr, r);
		return;
	}
	r->key = idx;
	r->have_key = true;
	if (e->time) {
		text_time_us(t, sizeof t, e->time);
		row_set(r, C_TIME, EL_TIME, "%s", t);
	} else {
		row_set(r, C_TIME, EL_DIM, "-");
	}
	if (w.cpu < 0)
		row_set(r, C_CPU, EL_DIM, "-");
	else
		row_set(r, C_CPU, 0, "%" PRId32, w.cpu);
	if (w.pid < 0 && w.tid < 0)
		row_set(r, C_PID, EL_DIM, "-");
	else
		row_set(r, C_PID, EL_PID, "%" PRId32 "/%" PRId32, w.pid, w.tid);
	comm = comm_of(p, e);
	row_set(r, C_COMM, EL_COMM, "%s", comm ? comm : "");
	if (session_rec(p->s, ent_loc(e), &rec) < 0) {
		row_set(r, C_REC, EL_DAMAGED, "(unreadable record at loc 0x%" PRIx64 ")", ent_loc(e));
		return;
	}
	fields_summary(p->s, &rec, sum, sizeof sum);
	if (trace_text(p, &rec, tt, sizeof tt)) {
		row_set(r, C_REC, type_elem(rec.type), "%s  %s", tt, sum);
		return;
	}
	/*
	 * A sample starts with where its ip is, as perf script prints it
	 * ("mix_one+0x14 (cpu)"), so it shows in a narrow terminal too;
	 * resolved for the rows shown, ahead of the symbols pass (memoized: a
	 * lookup once an address is known).
	 */
	if (rec.type == PF_REC_SAMPLE && p->sym != NULL) {
		char sym[ROW_BUF / 4];
		uint64_t ip;

		if (symbols_sample_where(p->sym, &rec, sym, sizeof sym, &ip) != NULL) {
			row_set(r, C_REC, type_elem(rec.type), "%s  %s", sym, sum);
			return;
		}
	}
	row_set(r, C_REC, type_elem(rec.type), "%s", sum);
}

static int
cmp_u64(uint64_t a, uint64_t b)
{
	return a < b ? -1 : a > b;
}

/* Rows of one sample compare equal: the widget keeps them in source order, together. */
static int
ev_cmp(struct pane *p, int col, size_t a, size_t b)
{
	const struct rec_ent *x, *y;

	a = owner(p, a);
	b = owner(p, b);
	if (a == b)
		return 0;
	x = ent(p, a);
	y = ent(p, b);
	switch (col) {
	case C_TIME:
		/* equal times in index order: descending is the index reversed */
		return x->time != y->time ? cmp_u64(x->time, y->time) : cmp_u64(a, b);
	case C_CPU:
		/* none (-1) sorts last */
		return cmp_u64((uint32_t)who_of(p, x).cpu, (uint32_t)who_of(p, y).cpu);
	case C_PID: {
		struct ent_who wx = who_of(p, x), wy = who_of(p, y);
		int r = cmp_u64((uint64_t)(int64_t)wx.pid, (uint64_t)(int64_t)wy.pid);

		return r ? r : cmp_u64((uint64_t)(int64_t)wx.tid, (uint64_t)(int64_t)wy.tid);
	}
	case C_COMM: {
		const char *c = comm_of(p, x), *d = comm_of(p, y);

		return strcmp(c ? c : "", d ? d : "");
	}
	case C_REC: {
		struct rec r1, r2;
		uint32_t t1 = ent_type(x), t2 = ent_type(y);

		if (t1 == ENT_TYPE_BIG && session_rec(p->s, ent_loc(x), &r1) == 0)
			t1 = r1.type;
		if (t2 == ENT_TYPE_BIG && session_rec(p->s, ent_loc(y), &r2) == 0)
			t2 = r2.type;
		return cmp_u64(t1, t2);
	}
	}
	return 0;
}

/* Which function nodes sym: names: "#ID", or the label without "[.] ". */
static int
compile_sym(struct pane *p, struct ev *ev, const struct ev_filter *f, char *err, size_t n)
{
	const struct hist *h = p->sym->h;
	size_t nn = hist_nnodes(h), hits = 0;
	uint8_t *nodes = xcalloc(nn + 1, 1);

	if (f->sym[0] == '#') {
		char *end;
		unsigned long id = strtoul(f->sym + 1, &end, 10);

		if (*end == '\0' && id < nn) {
			nodes[id] = 1;
			hits++;
		}
	} else {
		for (size_t i = 0; i < nn; i++) {
			const char *l = hist_str(h, hist_node_get(h, (uint32_t)i)->label);

			if (strcmp(symbolizer_label_name(l), f->sym) == 0) {
				nodes[i] = 1;
				hits++;
			}
		}
	}
	if (hits == 0) {
		free(nodes);
		if (err && n)
			snprintf(err, n, "no symbol '%s'", f->sym);
		return -1;
	}
	free(ev->nodes);
	ev->nodes = nodes;
	ev->nnodes = nn;
	return 0;
}

/* Which attrs event: names: "#N" (the N-th attr, from 1 as the header
 * counts), or an event name. */
static int
compile_event(struct pane *p, struct ev *ev, const struct ev_filter *f, char *err, size_t n)
{
	size_t na = session_attrs(p->s)->n, hits = 0;
	uint8_t *attrs = xcalloc(na + 1, 1);

	if (f->event[0] == '#') {
		char *end;
		unsigned long id = strtoul(f->event + 1, &end, 10);

		if (isdigit((unsigned char)f->event[1]) && *end == '\0' && id >= 1 && id <= na) {
			attrs[id - 1] = 1;
			hits++;
		}
	} else {
		for (size_t i = 0; i < na; i++)
			if (ev_event_named(session_attr_name(p->s, (int)i), f->event)) {
				attrs[i] = 1;
				hits++;
			}
	}
	if (hits == 0) {
		free(attrs);
		if (err && n && f->event[0] == '#')
			snprintf(err, n, "no event '%s' (events count from #1 to #%zu)", f->event, na);
		else if (err && n)
			snprintf(err, n, "no event '%s'", f->event);
		return -1;
	}
	free(ev->attrs);
	ev->attrs = attrs;
	ev->nattrs = na;
	return 0;
}

static int
ev_filter(struct pane *p, const char *text, char *err, size_t n)
{
	struct ev *ev = p->priv;
	struct ev_filter f;

	if (ev_filter_parse(&f, p->s, text, err, n) < 0)
		return -1;
	if (f.by_symoff && p->sym == NULL) {
		if (err && n)
			snprintf(err, n, "symoff: needs symbols");
		return -1;
	}
	if (f.by_event && compile_event(p, ev, &f, err, n) < 0)
		return -1;
	if (f.by_frame && (p->sym == NULL || p->sym->scope.pick == NULL ||
	    cpath_node(p->sym->scope.pick, f.frame) == NULL)) {
		if (err && n)
			snprintf(err, n, "frame:N is a frame picked with v in the flame graph");
		return -1;
	}
	if (f.by_sym || f.by_dso) {
		if (p->sym == NULL) {
			if (err && n)
				snprintf(err, n, "dso: and sym: need symbols");
			return -1;
		}
		if (!p->sym->done) {
			if (err && n)
				snprintf(err, n, "dso: and sym: once symbols are resolved (%.0f%% now)",
				    100 * symbols_progress(p->sym));
			return -1;
		}
		if (f.by_sym && compile_sym(p, ev, &f, err, n) < 0)
			return -1;
	}
	ev->dso_last = UINT32_MAX - 1;
	ev->f = f;
	return 0;
}

/* dso: and sym: of a sample, from its own entry in the hist. */
static bool
sym_match(struct pane *p, struct ev *ev, size_t idx)
{
	const struct ev_filter *f = &ev->f;
	const struct hist *h = p->sym->h;
	uint32_t id = hist_sample_entry(h, idx);
	const struct hist_entry *e;

	if (id == UINT32_MAX || (e = hist_entry_get(h, id)) == NULL)
		return false;
	if (f->by_sym && (e->node >= ev->nnodes || !ev->nodes[e->node]))
		return false;
	if (f->by_dso) {
		if (e->dso != ev->dso_last) {
			const char *d = e->dso == DSO_NONE ? "[unknown]" :
			    symbolizer_dso_short(p->sym->z, e->dso);

			ev->dso_last = e->dso;
			ev->dso_last_ok = strcmp(d, f->dso) == 0;
		}
		if (!ev->dso_last_ok)
			return false;
	}
	return true;
}

/* frame:N: does the sample's call path go through node N of the picked tree? */
static bool
frame_match(struct pane *p, size_t idx)
{
	const struct scope *sc = p->sym ? &p->sym->scope : NULL;
	uint32_t leaf;

	if (sc == NULL || sc->pick == NULL)
		return false;
	leaf = cpath_sample_node(sc->pick, p->sym->h, idx);
	return leaf != CPATH_NONE && cpath_within(sc->pick, leaf, ((struct ev *)p->priv)->f.frame);
}

/*
 * Is record e (at index position idx) in the scope: the time steps, the
 * start options, the zoom's threads and cpus (tui/scope.h), and for a
 * sample, once the hist is counted for the scope, its rows'?
 */
static bool
in_scope(struct pane *p, const struct ev *ev, const struct rec_ent *e, size_t idx)
{
	const struct hist_filter *sf = p->sym->start;
	const struct scope *sc = &p->sym->scope;
	struct ent_who w;

	/* as perf's --time: a record without a time is in whatever the range */
	if (e->time != 0 && (e->time < ev->sc_t0 || e->time > ev->sc_t1))
		return false;
	/* another event's sample: not the scope's */
	if (ev->attr >= 0 && ent_type(e) == PF_REC_SAMPLE && ent_attr(e) != (unsigned)ev->attr)
		return false;
	if (ev->by_hist && ent_type(e) == PF_REC_SAMPLE)
		return symbols_scope_has(p->sym, idx);
	w = who_of(p, e);
	/* as the start options: with cpus, a record about none is out; one about no thread in */
	if ((sc->ncpus && (w.cpu < 0 || !scope_cpu_in(sc, w.cpu))) || !scope_loc_in(sc, ent_loc(e)))
		return false;
	if (w.pid >= 0 && (!scope_task_in(sc, w.pid, w.tid) || (scope_zoomed(sc, SZ_COMM) &&
	    (comm_of(p, e) == NULL || strcmp(comm_of(p, e), hist_str(p->sym->h, sc->sel.comm)) != 0))))
		return false;
	if (sf == NULL)
		return true;
	if (!filter_sample_ok(sf, e->time, w.cpu >= 0, (uint32_t)w.cpu) || !filter_loc_ok(sf, ent_loc(e)))
		return false;
	return w.pid < 0 || filter_entry_ok(sf, w.pid, w.tid, comm_of(p, e));
}

/* A frame row shows when its sample does. */
static bool
ev_match(struct pane *p, size_t src)
{
	struct ev *ev = p->priv;
	const struct ev_filter *f = &ev->f;
	size_t idx = owner(p, src);
	const struct rec_ent *e = ent(p, idx);

	if (ev->scoped && !in_scope(p, ev, e, idx))
		return false;
	if (f->pid != -2 || f->tid != -2 || f->cpu != -2) {
		struct ent_who w = who_of(p, e);

		if ((f->pid != -2 && w.pid != f->pid) || (f->tid != -2 && w.tid != f->tid) ||
		    (f->cpu != -2 && w.cpu != f->cpu))
			return false;
	}
	if (f->by_time && (e->time < f->t0 || e->time > f->t1))
		return false;
	if (f->by_comm) {
		const char *c = comm_of(p, e);

		if (c == NULL || strcmp(c, f->comm) != 0)
			return false;
	}
	if ((f->by_sym || f->by_dso) && (p->sym == NULL || !sym_match(p, ev, idx)))
		return false;
	if (f->by_frame && !frame_match(p, idx))
		return false;
	if (f->by_event) {
		unsigned a = ent_attr(e);
		struct rec r;

		if (a == ENT_ATTR_NONE) {
			int ra = session_rec(p->s, ent_loc(e), &r) == 0 ? record_attr(session_attrs(p->s), &r) : -1;

			a = ra < 0 ? UINT_MAX : (unsigned)ra;
		}
		if (a >= ev->nattrs || !ev->attrs[a])
			return false;
	}
	if (f->by_symoff) {
		struct frame fr;
		struct rec r;
		uint64_t ip;

		if (p->sym == NULL || session_rec(p->s, ent_loc(e), &r) < 0 ||
		    symbols_sample_frame(p->sym, &r, &fr, &ip) < 0 || fr.sym == SYM_NONE ||
		    fr.symoff != f->symoff)
			return false;
	}
	if (f->by_type) {
		unsigned t = ent_type(e);
		struct rec r;

		if (t == ENT_TYPE_BIG)
			t = session_rec(p->s, ent_loc(e), &r) == 0 && r.type < 256 ? r.type : 255;
		if (!f->types[t])
			return false;
	}
	for (int i = 0; i < f->nwords; i++)
		if (!widget_row_contains(&p->w, pos_row(p, idx), f->words[i]))
			return false;
	return true;
}

static bool
ev_select(struct pane *p, struct nav_view *v)
{
	size_t src = widget_cursor_row(&p->w);
	const struct rec_ent *e;
	char off[96];

	if (src == WIDGET_NONE)
		return false;
	e = ent(p, owner(p, src));
	nav_view_init(v, PANE_HEX);
	v->target = NAV_T_RECORD;
	v->arg = ent_loc(e);
	if (v->arg >= SESSION_ZLOC) {
		const struct zchunk *z = session_zorigin(p->s, v->arg);

		char cat[80];

		if (z)
			snprintf(off, sizeof off, "@%s+%#" PRIx64, pane_rec_at(p->s, z->container, cat,
			    sizeof cat), v->arg - SESSION_ZLOC - z->zoff);
		else
			snprintf(off, sizeof off, "z+%#" PRIx64, v->arg - SESSION_ZLOC);
	} else {
		pane_rec_at(p->s, v->arg, off, sizeof off);
	}
	snprintf(v->label, sizeof v->label, "hex %s", TEXT_CLIP(off, 40));
	return true;
}

/* ---- a sample's stack ---- */

/* The rows changed: rebuild the view, the cursor on the record at pos. */
static void
restack_view(struct pane *p, size_t pos)
{
	restack(p->priv);
	widget_reload(&p->w);
	widget_goto_key(&p->w, pos);
}

/* Expand the sample at pos into its frames. */
static int
stack_open(struct pane *p, size_t pos)
{
	struct ev *ev = p->priv;
	struct ev_stack *st;
	struct sample smp;
	struct rec rec;
	const char *why;
	size_t k;

	if (stack_at(ev, pos) != NULL)
		return PANE_HANDLED;
	if (p->sym == NULL || !p->sym->done) {
		snprintf(p->msg, sizeof p->msg, "a sample's stack: when symbols are resolved "
		    "(%.0f%% now)", p->sym ? 100 * symbols_progress(p->sym) : 0.0);
		return PANE_HANDLED | PANE_MSG;
	}
	if (session_rec(p->s, ent_loc(ent(p, pos)), &rec) < 0 || rec.type != PF_REC_SAMPLE ||
	    record_decode_sample(session_attrs(p->s), &rec, &smp, &why) < 0) {
		snprintf(p->msg, sizeof p->msg, "+ expands a sample into its call stack: select one");
		return PANE_HANDLED | PANE_MSG;
	}
	k = stacks_before(ev, pos);
	GROW(ev->st, ev->capst, ev->nst + 1);
	memmove(&ev->st[k + 1], &ev->st[k], (ev->nst - k) * sizeof *ev->st);
	ev->nst++;
	st = &ev->st[k];
	memset(st, 0, sizeof *st);
	st->pos = pos;
	st->f = xcalloc(EV_MAX_FRAMES, sizeof *st->f);
	st->n = (uint32_t)symbolizer_callchain(p->sym->z, &smp, rec.misc, st->f, EV_MAX_FRAMES, 0);
	st->chain = symbolizer_has_chain(&smp);
	st->f = xreallocarray(st->f, st->n ? st->n : 1, sizeof *st->f);
	restack_view(p, pos);
	return PANE_HANDLED;
}

/* The hist node of a frame's function (UINT32_MAX: none), its event's index into *evi. */
static uint32_t
frame_node(struct pane *p, size_t pos, const struct frame *f, size_t *evi)
{
	const struct hist *h = p->sym->h;
	struct rec rec;
	int attr;

	*evi = 0;
	if (session_rec(p->s, ent_loc(ent(p, pos)), &rec) == 0 &&
	    (attr = record_attr(session_attrs(p->s), &rec)) >= 0)
		for (size_t i = 0; i < hist_nevents(h); i++)
			if (hist_event(h, i)->attr == attr)
				*evi = i;
	if (f->sym == SYM_NONE)
		return UINT32_MAX;
	for (size_t i = 0; i < hist_nnodes(h); i++) {
		const struct hist_node *nd = hist_node_get(h, (uint32_t)i);

		if (nd->f.sym == f->sym && nd->f.dso == f->dso)
			return (uint32_t)i;
	}
	return UINT32_MAX;
}

/* On a frame: Enter its function's row in the hot functions, a its annotate view. */
static int
frame_open(struct pane *p, size_t pos, int fr, enum action a)
{
	const struct ev_stack *st = stack_at(p->priv, pos);
	const struct hist_entry *e;
	const struct frame *f;
	const char *name;
	uint32_t node;
	size_t evi;

	if (st == NULL || (uint32_t)fr >= st->n)
		return PANE_HANDLED;
	f = &st->f[fr];
	node = frame_node(p, pos, f, &evi);
	if (node == UINT32_MAX) {
		snprintf(p->msg, sizeof p->msg, "%s: no function here", f->sym == SYM_NONE ?
		    "an unresolved address" : symbolizer_sym_name(p->sym->z, f->sym));
		return PANE_HANDLED | PANE_MSG;
	}
	name = symbolizer_sym_name(p->sym->z, f->sym);
	if (a == ACT_ANNOTATE)
		return pane_push_annotate(p, node, evi, 0, 0, 0);
	e = hist_entry_get(p->sym->h, hist_sample_entry(p->sym->h, pos));
	nav_view_init(&p->push, PANE_HOT);
	p->push.target = NAV_T_HOT;
	p->push.cursor = EV_HOT_FUNC | (uint64_t)(e ? e->comm & 0x3fffffff : 0) << 32 | node;
	snprintf(p->push.label, sizeof p->push.label, "hot %s", TEXT_CLIP(name, 40));
	return PANE_HANDLED | PANE_PUSH;
}

static void
stacks_free(struct ev *ev)
{
	for (size_t k = 0; k < ev->nst; k++)
		free(ev->st[k].f);
	ev->nst = 0;
}

/* +, e, c, C on a sample or a frame of its stack. */
static int
stack_key(struct pane *p, enum action a, size_t pos, int fr)
{
	struct ev *ev = p->priv;
	struct ev_stack *st = stack_at(ev, pos);

	switch (a) {
	case ACT_TOGGLE:
	case ACT_EXPAND:
		if (st == NULL)
			return stack_open(p, pos);
		if (a == ACT_TOGGLE || fr >= 0)
			break;
		return PANE_HANDLED;
	case ACT_COLLAPSE:
		if (st == NULL)
			return PANE_HANDLED;
		break;
	case ACT_COLLAPSE_ALL:
		if (ev->nst == 0)
			return PANE_HANDLED;
		stacks_free(ev);
		restack_view(p, pos);
		return PANE_HANDLED;
	default:
		snprintf(p->msg, sizeof p->msg, "+ expands one sample's call stack at a time");
		return PANE_HANDLED | PANE_MSG;
	}
	stack_drop(ev, st);
	restack_view(p, pos);
	return PANE_HANDLED;
}

static void ev_resize(struct pane *p, int h, int w);

static int
ev_key(struct pane *p, enum action a)
{
	size_t src = widget_cursor_row(&p->w), pos;
	int fr = -1;

	pos = src == WIDGET_NONE ? SIZE_MAX : row_pos(p, src, &fr);
	switch (a) {
	case ACT_ENTER:
		if (fr >= 0)
			return frame_open(p, pos, fr, a);
		/* FALLTHROUGH */
	case ACT_HEX:
		if (ev_select(p, &p->push))
			return PANE_HANDLED | PANE_PUSH;
		return PANE_HANDLED;
	case ACT_ANNOTATE:
		if (fr >= 0)
			return frame_open(p, pos, fr, a);
		snprintf(p->msg, sizeof p->msg, "a annotates a frame's function: + shows a sample's "
		    "stack");
		return PANE_HANDLED | PANE_MSG;
	case ACT_TOGGLE:
	case ACT_EXPAND:
	case ACT_COLLAPSE:
	case ACT_COLLAPSE_ALL:
	case ACT_EXPAND_ALL:
		return src == WIDGET_NONE ? PANE_HANDLED : stack_key(p, a, pos, fr);
	case ACT_EVENTS_SCOPE:
		((struct ev *)p->priv)->all = !((struct ev *)p->priv)->all;
		ev_resize(p, 0, 0);
		snprintf(p->msg, sizeof p->msg, "%s: %zu record%s", ((struct ev *)p->priv)->all ?
		    "every record, the scope not applied (z: the scope's)" :
		    "the scope's records (z: every record)", widget_count(&p->w), plural(widget_count(&p->w)));
		return PANE_HANDLED | PANE_MSG;
	case ACT_SORT_REVERSE:
		/* the pane's own order is the index's, by time: r reverses it too */
		if (p->w.sort_col >= 0)
			return PANE_IGNORED;
		widget_sort(&p->w, C_TIME, true);
		snprintf(p->msg, sizeof p->msg, "sorted by Time, descending (the latest first)");
		return PANE_HANDLED | PANE_MSG;
	default:
		return PANE_IGNORED;
	}
}

/* A record's key is its index position; a frame's names its sample and place. */
static size_t
ev_find(struct pane *p, uint64_t key)
{
	struct ev *ev = p->priv;
	const struct ev_stack *st;
	size_t pos, fr;

	if (key & EV_FRAME_KEY) {
		pos = (size_t)((key & ~EV_FRAME_KEY) >> 16);
		fr = (size_t)(key & 0xffff);
		st = stack_at(ev, pos);
		return st != NULL && fr < st->n ? pos_row(p, pos) + 1 + fr : WIDGET_NONE;
	}
	return key < session_index(p->s)->n ? pos_row(p, (size_t)key) : WIDGET_NONE;
}

static int
ev_init(struct pane *p)
{
	struct ev *ev = xcalloc(1, sizeof *ev);

	ev->f.pid = ev->f.tid = ev->f.cpu = -2;
	p->priv = ev;
	p->cols = ev_cols;
	p->ncols = C_N;
	p->is_list = true;
	widget_init(&p->w, p, false);
	return 0;
}

static void
ev_free(struct pane *p)
{
	struct ev *ev = p->priv;

	if (ev) {
		free(ev->nodes);
		free(ev->attrs);
		tpevent_free(ev->tp);
		stacks_free(ev);
		free(ev->st);
	}
	free(ev);
}

static const char *
ev_help(struct pane *p)
{
	(void)p;
	return "Enter/x:hex  +:stack  f:filter (" EV_KEYS ")";
}

/* Before each draw: follow the scope (the list filters by it unless toggled off). */
static void
ev_resize(struct pane *p, int h, int w)
{
	struct ev *ev = p->priv;
	const struct scope *sc = p->sym != NULL ? &p->sym->scope : NULL;
	uint64_t t0 = 0, t1 = UINT64_MAX;
	int attr = symbols_scope_attr(p->sym);
	bool on = sc != NULL && !ev->all && (scope_time_range(sc, &t0, &t1) || sc->zoomed ||
	    sc->ncpus || sc->by_file || sc->nxf || p->sym->start != NULL || attr >= 0);
	bool by_hist = on && symbols_scope_hist(p->sym) != NULL;
	char text[sizeof p->w.filter];

	(void)h;
	(void)w;
	if (on == ev->scoped && (!on || (sc->gen == ev->sc_gen && by_hist == ev->by_hist)))
		return;
	ev->scoped = on;
	ev->attr = attr;
	ev->by_hist = by_hist;
	ev->sc_gen = sc != NULL ? sc->gen : 0;
	ev->sc_t0 = t0;
	ev->sc_t1 = t1;
	p->w.force_filter = on;
	snprintf(text, sizeof text, "%s", p->w.filter);
	if (widget_set_filter(&p->w, text, NULL, 0) < 0)
		widget_set_filter(&p->w, "", NULL, 0);
}

const struct pane_ops pane_events_ops = {
	.name = "events",
	.description = "every record in time order (r: the latest first) of the scope (z: every record), "
	    "samples with their stacks; "
	    "the filter (f) takes type:NAME pid:N tid:N cpu:N time:A-B comm:NAME event:NAME "
	    "(also the name less perf's modifiers: cpu-clock for cpu-clock:ppp) event:#N (from 1, "
	    "as the header counts) dso:NAME sym:NAME (up to the next KEY: term) symoff:N frame:N "
	    "and words; a term of another KEY: is said and left out",
	.keys = "z events-scope\n",
	.title = "Events",
	.init = ev_init,
	.free = ev_free,
	.resize = ev_resize,
	.key = ev_key,
	.nrows = ev_nrows,
	.row = ev_row,
	.cmp = ev_cmp,
	.filter = ev_filter,
	.match = ev_match,
	.select = ev_select,
	.enter = pane_list_enter,
	.save = pane_list_save,
	.help = ev_help,
	.find = ev_find,
};
