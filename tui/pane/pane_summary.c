#include "config.h"

#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/core.h"
#include "symbolize/hist.h"
#include "symbolize/symbolizer.h"
#include "symbolize/summary.h"
#include "tui/pane.h"
#include "tui/scope.h"
#include "tui/symbols.h"

/*
 * The Summary pane (I), as hotspot's summary page: what a recording is
 * about at a glance (symbolize/summary.h), one tree of sections, each row
 * a jump:
 *   Recording: samples (Enter: the events list of them), lost samples (the
 *     LOST and LOST_SAMPLES records), the time from the first sample to
 *     the last (the timeline), and from the header (core/feature.h) the
 *     command line, host, perf version and cpus (the header pane);
 *   Events: each event with its samples and, once symbols are resolved,
 *     its period, both of the scope's time steps (Enter: the scope's
 *     event, as } steps to it);
 *   Hot functions per event: the five with the most samples of their own,
 *     their share of the event's samples (Enter: that function's row in
 *     the hot functions, in that event); filled in while symbols are
 *     resolved (sym->gen), a "resolving..." row until they are;
 *   Processes and Threads: the ten of each with the most samples of the
 *     scope, as the processes pane counts them (Enter: the hot functions
 *     zoomed into it, a zoom step; v: its events);
 *   Unresolved symbols: per DSO, its samples whose address did not resolve
 *     and the main reason (`perfnav top --why`'s model; Enter says every
 *     reason).
 * Rows follow the hot functions' zoom (scope_sel) as the hot pane does,
 * the events' the time steps, the processes' and threads' the scope as
 * the processes pane's; the rest is the whole recording's.
 */

enum { C_ITEM, C_COUNT, C_SHARE, C_DETAIL, C_N };

static const struct column sm_cols[C_N] = {
	[C_ITEM] = { "Item", 28, COL_TREE | COL_MIDDLE },	/* a C++ name elided as the hot pane elides it */
	[C_COUNT] = { "Count", 10, COL_RIGHT | COL_NUM },
	[C_SHARE] = { "Share", 7, COL_RIGHT | COL_NUM },
	[C_DETAIL] = { "Detail", 20, COL_FLEX },
};

enum srow_kind {
	SR_HEAD,		/* a section */
	SR_SAMPLES,
	SR_LOST,
	SR_SPAN,
	SR_FACT,		/* a header feature's line */
	SR_EVENT,		/* i: attr index */
	SR_HOT,			/* i: index into hot, ev: its hist event */
	SR_WAIT,		/* symbols still being resolved */
	SR_PROC,		/* i: index into sum.procs */
	SR_THREAD,		/* i: index into sum.threads */
	SR_UNRES,		/* i: index into unres */
	SR_NOTE,
};

/* A hot-functions view's cursor naming a function (pane_hot.c's HOT_CURSOR_FUNC). */
#define SM_HOT_FUNC	(UINT64_C(1) << 62)

struct srow {
	uint8_t		 kind, depth;
	uint32_t	 i;
	size_t		 ev;
	uint64_t	 key;
	char		*col[C_N];
	uint8_t		 el[C_N];
};

struct sm {
	struct symbols		*sy;
	bool			 own;		/* made by us (no app symbols) */
	struct summary		 sum;
	struct hist_entry	*hot;		/* SUMMARY_TOP_FUNCS per event */
	size_t			 nhot, caphot;
	struct summary_unres	*unres;
	size_t			 nunres;
	struct srow		*rows;
	size_t			 nrows, caprows;
	bool			 loaded;
	unsigned		 gen, scope_gen;
	bool			 done;
	uint64_t		*tsamples;	/* the scope's samples per thread id */
	uint64_t		 task_total;	/* the samples the tasks' shares are of */
};

static struct srow *
add(struct sm *sm, enum srow_kind kind, unsigned depth, uint32_t i, uint64_t key)
{
	struct srow *r;

	GROW(sm->rows, sm->caprows, sm->nrows + 1);
	r = &sm->rows[sm->nrows++];
	memset(r, 0, sizeof *r);
	r->kind = (uint8_t)kind;
	r->depth = (uint8_t)depth;
	r->i = i;
	r->key = (uint64_t)kind << 48 | key;
	return r;
}

static void
set(struct srow *r, int col, int el, const char *fmt, ...) __attribute__((format(printf, 4, 5)));

static void
set(struct srow *r, int col, int el, const char *fmt, ...)
{
	char buf[4096];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(buf, sizeof buf, fmt, ap);
	va_end(ap);
	free(r->col[col]);
	r->col[col] = xstrdup(buf);
	r->el[col] = (uint8_t)el;
}

static void
share(struct srow *r, uint64_t part, uint64_t whole)
{
	double pct = whole ? 100.0 * (double)part / (double)whole : 0.0;

	set(r, C_SHARE, pct >= 20 ? EL_HOT_HIGH : pct >= 5 ? EL_HOT_MID : part ? EL_HOT_LOW : EL_DIM,
	    "%.2f%%", pct);
}

static struct srow *
head(struct sm *sm, uint32_t id, const char *title)
{
	struct srow *r = add(sm, SR_HEAD, 0, id, id);

	set(r, C_ITEM, EL_COMM, "%s", title);
	return r;
}

static void
rows_free(struct sm *sm)
{
	for (size_t i = 0; i < sm->nrows; i++)
		for (int c = 0; c < C_N; c++)
			free(sm->rows[i].col[c]);
	sm->nrows = 0;
}

/* ---- Recording ---- */

static void
fact(struct sm *sm, uint32_t id, const char *name, const char *value)
{
	struct srow *r = add(sm, SR_FACT, 1, id, id);

	set(r, C_ITEM, EL_FIELD_NAME, "%s", name);
	if (value != NULL && value[0] != '\0')
		set(r, C_DETAIL, EL_FIELD_VALUE, "%s", value);
	else
		set(r, C_DETAIL, EL_DIM, "not in the header");
}

/* The header's facts: command line, host, perf version, cpus. */
static void
add_facts(struct pane *p, struct sm *sm)
{
	const struct features *f = session_features(p->s);
	char buf[4096], cpus[256];
	size_t o = 0;

	buf[0] = '\0';
	for (uint32_t i = 0; i < f->cmdline_n && o + 1 < sizeof buf; i++) {
		int k = snprintf(buf + o, sizeof buf - o, "%s%s", i ? " " : "",
		    f->cmdline[i] ? f->cmdline[i] : "");

		o = k < 0 ? o : o + (size_t)k >= sizeof buf ? sizeof buf - 1 : o + (size_t)k;
	}
	fact(sm, 1, "Command line", buf);
	snprintf(buf, sizeof buf, "%s%s%s%s", f->hostname ? f->hostname : "",
	    f->osrelease ? " (" : "", f->osrelease ? f->osrelease : "", f->osrelease ? ")" : "");
	fact(sm, 2, "Host", f->hostname || f->osrelease ? buf : NULL);
	fact(sm, 3, "Perf version", f->version);
	cpus[0] = '\0';
	if (f->nr_cpus_avail)
		snprintf(cpus, sizeof cpus, "%" PRIu32 " online of %" PRIu32 "%s%s%s%s",
		    f->nr_cpus_online, f->nr_cpus_avail, f->arch ? ", " : "", f->arch ? f->arch : "",
		    f->cpudesc ? ", " : "", f->cpudesc ? f->cpudesc : "");
	fact(sm, 4, "CPUs", cpus);
}

static void
add_recording(struct pane *p, struct sm *sm)
{
	const struct summary *su = &sm->sum;
	struct srow *r;
	char a[32], b[32];

	head(sm, 1, "Recording");
	r = add(sm, SR_SAMPLES, 1, 0, 0);
	set(r, C_ITEM, EL_FIELD_NAME, "Samples");
	set(r, C_COUNT, 0, "%" PRIu64, su->samples);
	set(r, C_DETAIL, EL_DIM, "Enter: the events list of them");
	r = add(sm, SR_LOST, 1, 0, 0);
	set(r, C_ITEM, EL_FIELD_NAME, "Lost samples");
	set(r, C_COUNT, su->lost ? EL_WARNING : 0, "%" PRIu64, su->lost);
	share(r, su->lost, su->samples + su->lost);
	if (su->lost_records)
		set(r, C_DETAIL, EL_WARNING, "in %" PRIu64 " LOST / LOST_SAMPLES record%s",
		    su->lost_records, plural(su->lost_records));
	else
		set(r, C_DETAIL, EL_DIM, "no LOST or LOST_SAMPLES records: none lost");
	r = add(sm, SR_SPAN, 1, 0, 0);
	set(r, C_ITEM, EL_FIELD_NAME, "Duration");
	if (su->has_time) {
		set(r, C_COUNT, EL_TIME, "%.3f s", (double)(su->last - su->first) / 1e9);
		set(r, C_DETAIL, EL_TIME, "first sample %s, last %s", text_time_us(a, sizeof a,
		    su->first), text_time_us(b, sizeof b, su->last));
	} else {
		set(r, C_DETAIL, EL_DIM, "%s", su->samples ? "the samples have no time" :
		    "no samples");
	}
	add_facts(p, sm);
}

/* ---- Events ---- */

/* The hist event of attr a, or SIZE_MAX (none yet). */
static size_t
hist_ev_of(const struct hist *h, size_t a)
{
	for (size_t e = 0; e < hist_nevents(h); e++)
		if (hist_event(h, e)->attr == (int)a)
			return e;
	return SIZE_MAX;
}

/*
 * Attr a's samples in the scope: once resolved, its hist event's (a time
 * step's samples, as perfnav top --time counts them, beside the period
 * of the same samples); before, or without one, the recording's.
 */
static uint64_t
event_samples(const struct pane *p, const struct sm *sm, size_t a, size_t ev)
{
	if (ev != SIZE_MAX && sm->done)
		return hist_event(sm->sy->h, ev)->nsamples;
	return session_attr_counts(p->s, a)->by_type[PF_REC_SAMPLE];
}

static void
add_events(struct pane *p, struct sm *sm)
{
	const struct hist *h = sm->sy->h;
	struct srow *r = head(sm, 2, "Events");
	uint64_t all = 0;
	size_t n = 0;

	for (size_t a = 0; session_attr_counts(p->s, a) != NULL; a++)
		if (session_attr_counts(p->s, a)->by_type[PF_REC_SAMPLE] != 0)
			all += event_samples(p, sm, a, hist_ev_of(h, a));
	for (size_t a = 0; session_attr_counts(p->s, a) != NULL; a++) {
		size_t ev = hist_ev_of(h, a);
		uint64_t ns;

		if (session_attr_counts(p->s, a)->by_type[PF_REC_SAMPLE] == 0)
			continue;
		ns = event_samples(p, sm, a, ev);
		n++;
		r = add(sm, SR_EVENT, 1, (uint32_t)a, a);
		r->ev = ev;
		set(r, C_ITEM, EL_COMM, "%s", session_attr_name(p->s, (int)a));
		set(r, C_COUNT, 0, "%" PRIu64, ns);
		share(r, ns, all);
		if (ev != SIZE_MAX)
			set(r, C_DETAIL, 0, "period %" PRIu64 "%s", hist_event(h, ev)->total_period,
			    ev == sm->sy->scope.ev ? "  (the scope's event)" : "");
		else
			set(r, C_DETAIL, EL_DIM, "%s", sm->done ? "no samples resolved" :
			    "period: resolving…");
	}
	if (n == 0) {
		r = add(sm, SR_NOTE, 1, 0, UINT64_C(1) << 40 | 2);
		set(r, C_ITEM, EL_DIM, "no samples");
	}
}

/* ---- Hot functions ---- */

static void
wait_row(struct sm *sm, uint64_t key)
{
	struct srow *r = add(sm, SR_WAIT, 1, 0, key);

	set(r, C_ITEM, EL_DIM, "resolving…");
}

static void
add_hot_event(struct sm *sm, size_t ev)
{
	struct hist *h = sm->sy->h;
	const struct hist_event *he = hist_event(h, ev);
	size_t at = sm->nhot, n;
	struct srow *r;
	char t[64];

	GROW(sm->hot, sm->caphot, at + SUMMARY_TOP_FUNCS);
	n = summary_hot(h, ev, scope_sel(&sm->sy->scope), sm->hot + at, SUMMARY_TOP_FUNCS);
	sm->nhot += n;
	r = head(sm, (uint32_t)(16 + ev), "Hot functions");
	set(r, C_DETAIL, EL_COMM, "%s", hist_str(h, he->name));
	for (size_t k = 0; k < n; k++) {
		const struct hist_entry *e = &sm->hot[at + k];
		const struct hist_node *nd = hist_node_get(h, e->node);

		r = add(sm, SR_HOT, 1, (uint32_t)(at + k), (uint64_t)ev << 32 | e->node);
		r->ev = ev;
		set(r, C_ITEM, 0, "%s", nd ? symbolizer_label_name(hist_str(h, nd->label)) : "?");
		set(r, C_COUNT, 0, "%" PRIu64, e->samples);
		share(r, e->samples, he->nsamples);
		set(r, C_DETAIL, EL_DIM, "%s", hist_key_text(h, e, HIST_KEY_DSO, t, sizeof t));
	}
	if (!sm->done)
		wait_row(sm, (uint64_t)ev << 32 | 1);
	else if (n == 0) {
		r = add(sm, SR_NOTE, 1, 0, (uint64_t)ev << 32 | 2);
		set(r, C_ITEM, EL_DIM, "no samples here");
	}
}

static void
add_hot(struct sm *sm)
{
	size_t nev = hist_nevents(sm->sy->h);

	sm->nhot = 0;
	for (size_t ev = 0; ev < nev; ev++)
		add_hot_event(sm, ev);
	if (nev == 0) {
		head(sm, 16, "Hot functions");
		if (!sm->done)
			wait_row(sm, UINT64_C(2) << 40 | 1);
		else
			set(add(sm, SR_NOTE, 1, 0, UINT64_C(2) << 40 | 2), C_ITEM, EL_DIM, "no samples");
	}
}

/* ---- Processes and threads ---- */

static const char *
comm_of(const struct pane *p, uint32_t thread)
{
	const struct thread_table *tt = session_threads(p->s);
	const struct pn_thread *th = thread < tt->n ? &tt->v[thread] : NULL;

	if (th == NULL || th->last_comm == UINT32_MAX)
		return "?";
	return strtab_get(&tt->strs, tt->comms[th->last_comm].name);
}

/*
 * The processes and threads of the scope's samples, as the processes pane
 * counts them (symbols_thread_samples); without a scope, every sample.
 */
static void
count_tasks(struct pane *p, struct sm *sm)
{
	if (!symbols_scope_on(sm->sy)) {
		summary_tasks(p->s, NULL, &sm->sum);
		sm->task_total = sm->sum.samples;
		return;
	}
	if (sm->tsamples == NULL)
		sm->tsamples = xcalloc(session_threads(p->s)->n + 1, sizeof *sm->tsamples);
	sm->task_total = symbols_thread_samples(sm->sy, p->s, sm->tsamples);
	summary_tasks(p->s, sm->tsamples, &sm->sum);
}

static void
add_tasks(struct pane *p, struct sm *sm, bool threads)
{
	const struct summary *su = &sm->sum;
	const struct summary_task *v = threads ? su->threads : su->procs;
	size_t n = threads ? su->nthreads : su->nprocs;
	size_t all = threads ? su->threads_with : su->procs_with;
	struct srow *r = head(sm, threads ? 4 : 3, threads ? "Threads" : "Processes");

	set(r, C_COUNT, 0, "%zu", all);
	set(r, C_DETAIL, EL_DIM, "%s with samples%s", threads ? "threads" : "processes",
	    all > n ? ", the most first" : "");
	for (size_t i = 0; i < n; i++) {
		r = add(sm, threads ? SR_THREAD : SR_PROC, 1, (uint32_t)i,
		    (uint64_t)(uint32_t)v[i].tid << 8 | i);
		set(r, C_ITEM, EL_COMM, "%" PRId32 " %s", threads ? v[i].tid : v[i].pid,
		    comm_of(p, v[i].thread));
		set(r, C_COUNT, 0, "%" PRIu64, v[i].samples);
		share(r, v[i].samples, sm->task_total);
		if (threads)
			set(r, C_DETAIL, EL_DIM, "pid %" PRId32, v[i].pid);
	}
	if (n == 0)
		set(add(sm, SR_NOTE, 1, 0, threads ? 4 : 3), C_ITEM, EL_DIM, "no samples");
}

/* ---- Unresolved symbols ---- */

static void
add_unres(struct sm *sm)
{
	struct srow *r = head(sm, 5, "Unresolved symbols (of the whole recording)");
	struct symbolizer *z = sm->sy->z;
	/* the whys are counted once over every sample (perfnav top --why's): a share of all of
	 * them, not of a time step's (the trial's 120%) */
	uint64_t total = sm->sy->samples_total;

	free(sm->unres);
	sm->nunres = summary_unresolved(sm->sy->h, &sm->unres);
	for (size_t i = 0; i < sm->nunres; i++) {
		const struct summary_unres *u = &sm->unres[i];

		r = add(sm, SR_UNRES, 1, (uint32_t)i, u->dso == DSO_NONE ? 0xffffffff : u->dso);
		set(r, C_ITEM, 0, "%s", u->dso == DSO_NONE ? "[unknown] (no DSO)" :
		    symbolizer_dso_short(z, u->dso));
		set(r, C_COUNT, u->samples ? EL_WARNING : 0, "%" PRIu64, u->samples);
		share(r, u->samples, total);
		set(r, C_DETAIL, EL_DIM, "%s: %s (%" PRIu64 " callchain frame%s)",
		    sym_why_name((enum sym_why)u->why), sym_why_text((enum sym_why)u->why),
		    u->frames, plural(u->frames));
	}
	if (!sm->done)
		wait_row(sm, 5);
	else if (sm->nunres == 0) {
		r = add(sm, SR_NOTE, 1, 0, 5);
		set(r, C_ITEM, EL_DIM, "every address resolved");
	}
}

/* ---- the rows ---- */

static void
build(struct pane *p, struct sm *sm)
{
	rows_free(sm);
	sm->done = sm->sy->done;
	add_recording(p, sm);
	add_events(p, sm);
	add_hot(sm);
	count_tasks(p, sm);
	add_tasks(p, sm, false);
	add_tasks(p, sm, true);
	add_unres(sm);
}

/* Rows follow the symbols as they come in, and the scope's event and zoom. */
static void
sync(struct pane *p)
{
	struct sm *sm = p->priv;
	uint64_t key;

	if (sm->loaded && sm->gen == sm->sy->gen && sm->scope_gen == sm->sy->scope.gen &&
	    sm->done == sm->sy->done)
		return;
	key = sm->loaded && p->w.cursor > 0 ? widget_cursor_key(&p->w) : UINT64_MAX;
	sm->loaded = true;
	sm->gen = sm->sy->gen;
	sm->scope_gen = sm->sy->scope.gen;
	build(p, sm);
	widget_refresh(&p->w);
	if (key == UINT64_MAX || !widget_goto_key(&p->w, key))
		widget_home(&p->w);
}

static size_t
sm_nrows(struct pane *p)
{
	return ((struct sm *)p->priv)->nrows;
}

static void
sm_row(struct pane *p, size_t idx, struct row *r)
{
	struct sm *sm = p->priv;
	const struct srow *w = &sm->rows[idx];

	r->depth = w->depth;
	r->expanded = true;
	r->have_key = true;
	r->key = w->key;
	for (int c = 0; c < C_N; c++)
		if (w->col[c] != NULL)
			row_set(r, c, w->el[c], "%s", w->col[c]);
	if (w->kind == SR_WAIT && !sm->sy->done)	/* how far, as of this drawing */
		row_set(r, C_DETAIL, EL_PROGRESS, "%.0f%% of the samples in",
		    100.0 * symbols_progress(sm->sy));
}

/* ---- jumps ---- */

static int
jump_hot(struct pane *p, const struct srow *w)
{
	struct sm *sm = p->priv;
	const struct hist_entry *e = &sm->hot[w->i];
	const struct hist_node *nd = hist_node_get(sm->sy->h, e->node);

	if (w->ev != sm->sy->scope.ev)
		scope_set_event(&sm->sy->scope, w->ev);
	nav_view_init(&p->push, PANE_HOT);
	p->push.target = NAV_T_HOT;
	p->push.cursor = SM_HOT_FUNC | e->node;
	snprintf(p->push.label, sizeof p->push.label, "hot %.40s",
	    nd ? symbolizer_label_name(hist_str(sm->sy->h, nd->label)) : "?");
	return PANE_HANDLED | PANE_PUSH;
}

static int
jump_task(struct pane *p, const struct srow *w, enum action a)
{
	struct sm *sm = p->priv;
	bool thread = w->kind == SR_THREAD;
	const struct summary_task *t = thread ? &sm->sum.threads[w->i] : &sm->sum.procs[w->i];
	char label[NAV_LABEL_MAX];

	if (a == ACT_EVENTS) {
		nav_view_init(&p->push, PANE_EVENTS);
		snprintf(p->push.filter, sizeof p->push.filter, "%s:%" PRId32, thread ? "tid" : "pid",
		    thread ? t->tid : t->pid);
		snprintf(p->push.label, sizeof p->push.label, "events %s %" PRId32,
		    thread ? "tid" : "pid", thread ? t->tid : t->pid);
		return PANE_HANDLED | PANE_PUSH;
	}
	snprintf(label, sizeof label, "%s %" PRId32 " %.24s", thread ? "thread" : "pid",
	    thread ? t->tid : t->pid, comm_of(p, t->thread));
	return pane_push_zoom(p, PANE_HOT, thread ? SZ_TID : SZ_PID, t->pid, t->tid, 0, label);
}

static int
jump_event(struct pane *p, const struct srow *w)
{
	struct sm *sm = p->priv;

	if (w->ev == SIZE_MAX) {
		snprintf(p->msg, sizeof p->msg, "%s", sm->done ? "no samples of this event resolved" :
		    "the event can be chosen once symbols are resolved");
		return PANE_HANDLED | PANE_MSG;
	}
	if (!scope_set_event(&sm->sy->scope, w->ev))
		snprintf(p->msg, sizeof p->msg, "%s is the scope's event already",
		    hist_str(sm->sy->h, hist_event(sm->sy->h, w->ev)->name));
	else
		snprintf(p->msg, sizeof p->msg, "event %zu: %s: every pane shows it, Esc takes it "
		    "back", w->ev + 1, hist_str(sm->sy->h, hist_event(sm->sy->h, w->ev)->name));
	sync(p);
	return PANE_HANDLED | PANE_REDRAW | PANE_MSG;
}

/* Every reason a DSO's addresses did not resolve, on the status line. */
static int
jump_unres(struct pane *p, const struct srow *w)
{
	struct sm *sm = p->priv;
	const struct summary_unres *u = &sm->unres[w->i];
	const struct hist_why *wy;
	size_t n = hist_whys(sm->sy->h, &wy), o;
	char text[512];

	o = (size_t)snprintf(p->msg, sizeof p->msg, "%s:", u->dso == DSO_NONE ? "[unknown]" :
	    symbolizer_dso_short(sm->sy->z, u->dso));
	for (size_t i = 0; i < n; i++) {
		if (wy[i].dso != u->dso)
			continue;
		for (unsigned r = 0; r < SYM_WHY_COUNT && o + 1 < sizeof p->msg; r++) {
			int k;

			if (r == SYM_WHY_OK || (wy[i].self[r] == 0 && wy[i].chain[r] == 0))
				continue;
			k = snprintf(p->msg + o, sizeof p->msg - o, " %" PRIu64 " sample%s, %" PRIu64
			    " frame%s: %s;", wy[i].self[r], plural(wy[i].self[r]), wy[i].chain[r],
			    plural(wy[i].chain[r]), symbolizer_why_text(sm->sy->z, u->dso, r, text,
			    sizeof text));
			o = k < 0 ? o : o + (size_t)k >= sizeof p->msg ? sizeof p->msg - 1 : o + (size_t)k;
		}
	}
	return PANE_HANDLED | PANE_MSG;
}

static int
jump_record(struct pane *p, const struct srow *w)
{
	nav_view_init(&p->push, PANE_EVENTS);
	if (w->kind == SR_LOST) {
		if (((struct sm *)p->priv)->sum.lost_records == 0) {
			snprintf(p->msg, sizeof p->msg, "perf lost no samples in this recording");
			return PANE_HANDLED | PANE_MSG;
		}
		snprintf(p->push.filter, sizeof p->push.filter, "type:LOST,LOST_SAMPLES");
		snprintf(p->push.label, sizeof p->push.label, "events lost");
	} else {
		snprintf(p->push.filter, sizeof p->push.filter, "type:SAMPLE");
		snprintf(p->push.label, sizeof p->push.label, "events samples");
	}
	return PANE_HANDLED | PANE_PUSH;
}

static int
sm_key(struct pane *p, enum action a)
{
	struct sm *sm = p->priv;
	size_t src;
	const struct srow *w;

	sync(p);
	src = widget_cursor_row(&p->w);
	if ((a != ACT_ENTER && a != ACT_EVENTS) || src == WIDGET_NONE || src >= sm->nrows)
		return PANE_IGNORED;
	w = &sm->rows[src];
	if (a == ACT_EVENTS && w->kind != SR_PROC && w->kind != SR_THREAD)
		return PANE_IGNORED;
	switch ((enum srow_kind)w->kind) {
	case SR_HEAD:
		widget_toggle(&p->w);
		return PANE_HANDLED | PANE_REDRAW;
	case SR_SAMPLES:
	case SR_LOST:
		return jump_record(p, w);
	case SR_SPAN:
		nav_view_init(&p->push, PANE_TIMELINE);
		return PANE_HANDLED | PANE_PUSH;
	case SR_FACT:
		nav_view_init(&p->push, PANE_HEADER);
		return PANE_HANDLED | PANE_PUSH;
	case SR_EVENT:
		return jump_event(p, w);
	case SR_HOT:
		return jump_hot(p, w);
	case SR_PROC:
	case SR_THREAD:
		return jump_task(p, w, a);
	case SR_UNRES:
		return jump_unres(p, w);
	case SR_WAIT:
		snprintf(p->msg, sizeof p->msg, "symbols are being resolved: these rows fill in");
		return PANE_HANDLED | PANE_MSG;
	case SR_NOTE:
		break;
	}
	return PANE_HANDLED;
}

/* ---- the pane ---- */

static int
sm_init(struct pane *p)
{
	struct sm *sm = xcalloc(1, sizeof *sm);

	p->priv = sm;
	sm->sy = p->sym;
	if (sm->sy == NULL) {
		sm->sy = symbols_new(p->s, NULL, NULL);
		sm->own = true;
		p->sym = sm->sy;
	}
	summary_new(p->s, &sm->sum);
	p->cols = sm_cols;
	p->ncols = C_N;
	p->is_list = true;
	widget_init(&p->w, p, true);
	sync(p);
	return 0;
}

static void
sm_free(struct pane *p)
{
	struct sm *sm = p->priv;

	if (sm == NULL)
		return;
	if (sm->own) {
		symbols_free(sm->sy);
		p->sym = NULL;
	}
	rows_free(sm);
	free(sm->rows);
	free(sm->hot);
	free(sm->unres);
	free(sm->tsamples);
	free(sm);
}

static void
sm_draw(struct pane *p, const struct pane_canvas *c)
{
	sync(p);
	widget_draw(&p->w, c);
}

static void
sm_enter(struct pane *p, const struct nav_view *v)
{
	sync(p);
	pane_list_enter(p, v);
}

static const char *
sm_help(struct pane *p)
{
	(void)p;
	return "Enter:open the row (a function, process, event, lost samples)  v:events  "
	    "/:search";
}

const struct pane_ops pane_summary_ops = {
	.name = "summary",
	.description = "the recording at a glance: samples, lost samples, duration, command line, "
	    "host, perf version, cpus, events, each event's hottest functions, the busiest "
	    "processes and threads, where symbols did not resolve; Enter jumps from a row",
	.title = "Summary",
	.init = sm_init,
	.free = sm_free,
	.draw = sm_draw,
	.key = sm_key,
	.nrows = sm_nrows,
	.row = sm_row,
	.enter = sm_enter,
	.save = pane_list_save,
	.help = sm_help,
};
