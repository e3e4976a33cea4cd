#include "config.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/core.h"
#include "symbolize/filter.h"
#include "symbolize/tasks.h"
#include "tui/pane.h"
#include "tui/scope.h"
#include "tui/symbols.h"

/*
 * The processes pane: the processes level of the session's process tree
 * (symbolize/tasks.h), each process with its threads below it, then the
 * processes it forked; the pane keeps its rows, scope and lost counts.  Columns: samples and their share, start and exit
 * times, lost samples (LOST / LOST_SAMPLES records of that pid), and the
 * comms a thread had over time ("perf-exec > forkexec").
 *
 * Enter on a process scopes the pane to it (its threads, expanded); Enter
 * on a thread, or on the process the pane is scoped to, opens the hot
 * functions of that thread or process (t does so from any row); v opens
 * their events.
 */

enum { C_ID, C_COMM, C_SAMPLES, C_PCT, C_ON, C_OFF, C_START, C_END, C_LOST, C_COMMS, C_N };

/* With off-CPU time in the recording (symbols_offcpu) every column; else all but C_ON, C_OFF. */
static const struct column pr_cols_off[C_N] = {
	[C_ID] = { "PID/TID", 18, COL_TREE | COL_NUM },
	[C_COMM] = { "Comm", 16, 0 },
	[C_SAMPLES] = { "Samples", 8, COL_RIGHT | COL_NUM },
	[C_PCT] = { "%", 6, COL_RIGHT | COL_NUM },
	[C_ON] = { "On-CPU", 10, COL_RIGHT | COL_NUM },
	[C_OFF] = { "Off-CPU", 10, COL_RIGHT | COL_NUM },
	[C_START] = { "Start", 15, COL_RIGHT | COL_NUM },
	[C_END] = { "Exit", 15, COL_RIGHT | COL_NUM },
	[C_LOST] = { "Lost", 5, COL_RIGHT | COL_NUM },
	[C_COMMS] = { "Comms over time", 10, COL_FLEX },
};
static const struct column pr_cols[C_N - 2] = {
	{ "PID/TID", 18, COL_TREE | COL_NUM },
	{ "Comm", 16, 0 },
	{ "Samples", 8, COL_RIGHT | COL_NUM },
	{ "%", 6, COL_RIGHT | COL_NUM },
	{ "Start", 15, COL_RIGHT | COL_NUM },
	{ "Exit", 15, COL_RIGHT | COL_NUM },
	{ "Lost", 5, COL_RIGHT | COL_NUM },
	{ "Comms over time", 10, COL_FLEX },
};

enum { K_PROC = 1, K_THREAD = 2 };

struct prow {
	uint8_t		kind;
	uint8_t		depth;
	int32_t		pid, tid;
	uint32_t	thread;		/* leader or the thread */
	uint32_t	proc;		/* index into the model's procs */
};

/* What the pane adds to a process of the model (count_lost). */
struct proc {
	uint64_t	 lost;
};

struct pr {
	struct tasks	*tk;		/* the process tree (symbolize/tasks.h) */
	struct proc	*procs;		/* per tk->procs */
	struct prow	*rows;
	size_t		 nrows, caprows;
	int64_t		 scope;		/* pid, or -1 */
	bool		 from_scope;	/* scope is the scope's zoom, not the view's */
	uint64_t	 total;		/* samples */
	/* the scope (tui/scope.h): its samples counted, for scope gen sc_gen */
	bool		 scoped;
	bool		 by_hist;	/* rows by the hist's (hist_scope_has) */
	unsigned	 sc_gen;
	uint64_t	*tsamples;	/* per thread id */
	uint64_t	*psamples;	/* per tk->procs */
	/* off-CPU time (symbols_offcpu) in the scope, for gens oc_gen and oc_sgen */
	const struct offcpu *oc;
	unsigned	 oc_gen, oc_sgen;
	uint64_t	*toff;		/* ns per thread id */
	uint64_t	*poff;		/* ns per tk->procs */
	/* on-CPU time: from each recorded switch-in to the next switch-out */
	uint64_t	*ton, *pon;	/* ns per thread id, per process */
};

/* A logical column's place among those shown (no C_ON, C_OFF without off-CPU time): -1, none. */
static int
col(const struct pr *pr, int c)
{
	if (pr->oc != NULL || c < C_ON)
		return c;
	return c <= C_OFF ? -1 : c - 2;
}

static const struct pn_thread *
thr(struct pane *p, uint32_t id)
{
	return &session_threads(p->s)->v[id];
}

static uint32_t
find_proc(const struct pr *pr, int32_t pid)
{
	return tasks_proc_find(pr->tk, pid);
}

/* Lost samples per pid, from LOST and LOST_SAMPLES records. */
static void
count_lost(struct pane *p, struct pr *pr)
{
	const struct session *s = p->s;
	const struct type_counts *cnt = session_counts(s);
	const struct rec_index *ix = session_index(s);

	if (cnt->by_type[PF_REC_LOST] == 0 && cnt->by_type[PF_REC_LOST_SAMPLES] == 0)
		return;
	for (size_t i = 0; i < ix->n; i++) {
		const struct rec_ent *e = index_ent(ix, i);
		unsigned t = ent_type(e);
		struct rec r;
		struct rec_lost l;
		uint32_t pi;

		if (t != PF_REC_LOST && t != PF_REC_LOST_SAMPLES)
			continue;
		if (session_rec(s, ent_loc(e), &r) < 0 || record_lost(&r, &l) < 0)
			continue;
		int32_t pid = session_ent_who(s, i).pid;

		if (pid >= 0 && (pi = find_proc(pr, pid)) != UINT32_MAX)
			pr->procs[pi].lost += l.lost;
	}
}

static void
build_procs(struct pane *p, struct pr *pr)
{
	pr->tk = tasks_new(p->s);
	pr->procs = xcalloc(pr->tk->nprocs + 1, sizeof *pr->procs);
	count_lost(p, pr);
}

static void
add_row(struct pr *pr, uint8_t kind, int depth, const struct pn_thread *th, uint32_t thread,
    uint32_t proc)
{
	struct prow *r;

	GROW(pr->rows, pr->caprows, pr->nrows + 1);
	r = &pr->rows[pr->nrows++];
	r->kind = kind;
	r->depth = (uint8_t)(depth > 250 ? 250 : depth);
	r->pid = th->pid;
	r->tid = th->tid;
	r->thread = thread;
	r->proc = proc;
}

static void
emit(struct pane *p, struct pr *pr, uint32_t pi, int depth)
{
	/* iterative depth-first walk, children in start order */
	struct frame {
		uint32_t	proc;
		int		depth;
	} *stack = xcalloc(pr->tk->nprocs + 1, sizeof *stack);
	size_t sp = 0;

	stack[sp++] = (struct frame){ pi, depth };
	while (sp) {
		struct frame f = stack[--sp];
		const struct task_proc *pc = &pr->tk->procs[f.proc];

		add_row(pr, K_PROC, f.depth, thr(p, pc->leader), pc->leader, f.proc);
		if (pc->nthreads > 1 || thr(p, pc->leader)->tid != pc->pid || pr->scope >= 0)
			for (size_t k = 0; k < pc->nthreads; k++)
				add_row(pr, K_THREAD, f.depth + 1, thr(p, pc->threads[k]),
				    pc->threads[k], f.proc);
		for (size_t k = pc->nkids; k-- > 0;)
			stack[sp++] = (struct frame){ pc->kids[k], f.depth + 1 };
	}
	free(stack);
}

static void
build_rows(struct pane *p, struct pr *pr)
{
	pr->nrows = 0;
	if (pr->scope >= 0) {
		uint32_t pi = find_proc(pr, (int32_t)pr->scope);

		if (pi != UINT32_MAX)
			emit(p, pr, pi, 0);
		return;
	}
	for (size_t i = 0; i < pr->tk->nroots; i++)
		emit(p, pr, pr->tk->roots[i], 0);
}

/*
 * Samples per thread and process in the scope (its time steps, cpus and
 * zoom, over the start options), when it changes: once the hist is
 * counted for the scope, the samples in its rows (hist_scope_has); before,
 * those of the zoom's threads.
 */
static void
count_scope(struct pane *p, struct pr *pr)
{
	const struct thread_table *tt = session_threads(p->s);
	const struct scope *sc = p->sym != NULL ? &p->sym->scope : NULL;
	bool on = symbols_scope_on(p->sym);
	bool by_hist = symbols_scope_hist(p->sym) != NULL;

	if (on == pr->scoped && (!on || (pr->sc_gen == sc->gen && pr->by_hist == by_hist)))
		return;
	pr->scoped = on;
	pr->sc_gen = sc != NULL ? sc->gen : 0;
	pr->by_hist = by_hist;
	pr->total = session_counts(p->s)->by_type[PF_REC_SAMPLE];
	if (!on)
		return;
	if (pr->tsamples == NULL) {
		pr->tsamples = xcalloc(tt->n + 1, sizeof *pr->tsamples);
		pr->psamples = xcalloc(pr->tk->nprocs + 1, sizeof *pr->psamples);
	}
	pr->total = symbols_thread_samples(p->sym, p->s, pr->tsamples);
	for (size_t i = 0; i < pr->tk->nprocs; i++) {
		const struct task_proc *pc = &pr->tk->procs[i];

		pr->psamples[i] = 0;
		for (size_t k = 0; k < pc->nthreads; k++)
			pr->psamples[i] += pr->tsamples[pc->threads[k]];
	}
}

/*
 * Off-CPU time per thread and process in the scope: the spans whose
 * switch-out sample the scope takes (as the off-cpu event counts them),
 * each to the thread it switched out.  Its column comes with it.
 */
static void
count_offcpu(struct pane *p, struct pr *pr)
{
	const struct thread_table *tt = session_threads(p->s);
	const struct rec_index *ix = session_index(p->s);
	const struct offcpu *oc = symbols_offcpu(p->sym);
	const struct scope *sc = &p->sym->scope;
	const struct hist_filter *sf = p->sym->start;
	bool by_hist = symbols_scope_hist(p->sym) != NULL;
	uint64_t t0 = 0, t1 = UINT64_MAX;

	if (oc == NULL || (pr->oc == oc && pr->oc_gen == p->sym->gen && pr->oc_sgen == sc->gen))
		return;
	if (pr->oc == NULL) {
		p->cols = pr_cols_off;
		p->ncols = C_N;
		pr->toff = xcalloc(tt->n + 1, sizeof *pr->toff);
		pr->poff = xcalloc(pr->tk->nprocs + 1, sizeof *pr->poff);
		pr->ton = xcalloc(tt->n + 1, sizeof *pr->ton);
		pr->pon = xcalloc(pr->tk->nprocs + 1, sizeof *pr->pon);
	}
	pr->oc = oc;
	pr->oc_gen = p->sym->gen;
	pr->oc_sgen = sc->gen;
	memset(pr->toff, 0, (tt->n + 1) * sizeof *pr->toff);
	memset(pr->ton, 0, (tt->n + 1) * sizeof *pr->ton);
	scope_time_range(sc, &t0, &t1);
	for (size_t k = 0; k < oc->n; k++) {
		size_t pos = (size_t)oc->v[k].pos;
		const struct rec_ent *e = pos < ix->n ? index_ent(ix, pos) : NULL;
		struct ent_who w;
		uint32_t th = e != NULL ? thread_table_find(tt, oc->v[k].tid, e->time) : THREAD_NONE;
		bool in;

		if (th == THREAD_NONE)
			continue;
		w = session_ent_who(p->s, pos);
		in = e->time >= t0 && e->time <= t1 && (by_hist ? symbols_scope_has(p->sym, pos) :
		    !((sc->ncpus && !scope_cpu_in(sc, w.cpu)) || !scope_task_in(sc, w.pid, oc->v[k].tid) ||
		    !scope_loc_in(sc, ent_loc(e)) || !filter_loc_ok(sf, ent_loc(e)) ||
		    (sf != NULL && !filter_sample_ok(sf, e->time, w.cpu >= 0, (uint32_t)w.cpu))));
		/* on CPU from its last recorded switch-in to this switch-out; off CPU after */
		if (in) {
			pr->ton[th] += oc->v[k].on_ns;
			pr->toff[th] += oc->v[k].ns;
		}
	}
	for (size_t i = 0; i < pr->tk->nprocs; i++) {
		const struct task_proc *pc = &pr->tk->procs[i];

		pr->poff[i] = pr->pon[i] = 0;
		for (size_t k = 0; k < pc->nthreads; k++) {
			pr->poff[i] += pr->toff[pc->threads[k]];
			pr->pon[i] += pr->ton[pc->threads[k]];
		}
	}
}

static void set_scope(struct pane *p, int64_t pid);
static int64_t scope_pid(const struct pane *p);

/* Before each draw: follow the scope. */
static void
pr_resize(struct pane *p, int h, int w)
{
	(void)h;
	(void)w;
	if (((struct pr *)p->priv)->from_scope)
		set_scope(p, scope_pid(p));	/* the scope's process, as it changes */
	count_scope(p, p->priv);
	if (p->sym != NULL)
		count_offcpu(p, p->priv);
}

static size_t
pr_nrows(struct pane *p)
{
	return ((struct pr *)p->priv)->nrows;
}

static void
fmt_time(char *buf, size_t n, uint64_t t)
{
	if (t == 0 || t == UINT64_MAX)
		snprintf(buf, n, "-");
	else
		text_time_us(buf, n, t);
}

static void
comms_history(struct pane *p, uint32_t thread, struct row *r)
{
	const struct thread_table *t = session_threads(p->s);
	char buf[512];
	size_t o = 0;

	buf[0] = '\0';
	for (uint32_t c = thr(p, thread)->first_comm; c != UINT32_MAX && o + 1 < sizeof buf;
	    c = t->comms[c].next) {
		int k = snprintf(buf + o, sizeof buf - o, "%s%s%s", o ? " > " : "",
		    strtab_get(&t->strs, t->comms[c].name), t->comms[c].exec ? " (exec)" : "");

		if (k < 0)
			break;
		o += (size_t)k;
	}
	row_set(r, col(p->priv, C_COMMS), EL_DIM, "%s", buf);
}

static void
pr_row(struct pane *p, size_t idx, struct row *r)
{
	const struct thread_table *tt = session_threads(p->s);
	struct pr *pr = p->priv;
	const struct prow *w = &pr->rows[idx];
	const struct pn_thread *th = thr(p, w->thread);
	const struct task_proc *pc = &pr->tk->procs[w->proc];
	const char *comm = th->last_comm != UINT32_MAX ?
	    strtab_get(&tt->strs, tt->comms[th->last_comm].name) : "";
	uint64_t samples = w->kind == K_PROC ? pc->samples : th->samples;
	char t[32];

	if (pr->scoped)
		samples = w->kind == K_PROC ? pr->psamples[w->proc] : pr->tsamples[w->thread];
	double pct = pr->total ? 100.0 * (double)samples / (double)pr->total : 0.0;

	r->depth = w->depth;
	r->expanded = pr->scope >= 0 || pr->nrows <= 200;
	r->have_key = true;
	r->key = w->kind == K_PROC ? (UINT64_C(1) << 40) | (uint32_t)w->pid :
	    (UINT64_C(2) << 40) | w->thread;
	if (w->kind == K_PROC)
		row_set(r, col(pr, C_ID), EL_PID, "%" PRId32, w->pid);
	else
		row_set(r, col(pr, C_ID), EL_DIM, "%" PRId32 "/%" PRId32, w->pid, w->tid);
	row_set(r, col(pr, C_COMM), EL_COMM, "%s", comm);
	row_set(r, col(pr, C_SAMPLES), 0, "%" PRIu64, samples);
	row_set(r, col(pr, C_PCT), pct >= 20 ? EL_HOT_HIGH : pct >= 5 ? EL_HOT_MID : samples ? EL_HOT_LOW : EL_DIM,
	    "%.2f", pct);
	fmt_time(t, sizeof t, w->kind == K_PROC ? pc->start : th->start);
	row_set(r, col(pr, C_START), EL_TIME, "%s", t);
	fmt_time(t, sizeof t, w->kind == K_PROC ? (pc->exited ? pc->end : 0) :
	    (th->exited ? th->end : 0));
	row_set(r, col(pr, C_END), EL_TIME, "%s", t);
	if (w->kind == K_PROC && pr->procs[w->proc].lost)
		row_set(r, col(pr, C_LOST), EL_WARNING, "%" PRIu64, pr->procs[w->proc].lost);
	else
		row_set(r, col(pr, C_LOST), EL_DIM, "%s", w->kind == K_PROC ? "0" : "");
	if (pr->oc != NULL) {
		uint64_t off = w->kind == K_PROC ? pr->poff[w->proc] : pr->toff[w->thread];
		uint64_t on = w->kind == K_PROC ? pr->pon[w->proc] : pr->ton[w->thread];

		row_set(r, col(pr, C_OFF), off ? EL_TIME : EL_DIM, "%s", off ? text_duration(t, sizeof t, off) : "0");
		if (pr->oc->source == OFFCPU_SRC_BPF)	/* no switch-in times: not known */
			row_set(r, col(pr, C_ON), EL_DIM, "-");
		else
			row_set(r, col(pr, C_ON), on ? EL_TIME : EL_DIM, "%s", on ? text_duration(t, sizeof t, on) : "0");
	}
	comms_history(p, w->thread, r);
}

static void
set_scope(struct pane *p, int64_t pid)
{
	struct pr *pr = p->priv;

	if (pr->scope == pid)
		return;
	pr->scope = pid;
	build_rows(p, pr);
	widget_free(&p->w);
	widget_init(&p->w, p, true);
}

static int
pr_key(struct pane *p, enum action a)
{
	const struct thread_table *tt = session_threads(p->s);
	struct pr *pr = p->priv;
	size_t src = widget_cursor_row(&p->w);
	const struct prow *w;
	const char *comm;
	const struct pn_thread *th;

	if ((a != ACT_ENTER && a != ACT_EVENTS && a != ACT_ZOOM_THREAD) || src == WIDGET_NONE)
		return PANE_IGNORED;
	w = &pr->rows[src];
	th = thr(p, w->thread);
	comm = th->last_comm != UINT32_MAX ?
	    strtab_get(&tt->strs, tt->comms[th->last_comm].name) : "?";
	if (a == ACT_ENTER && w->kind == K_PROC && (int64_t)w->pid == pr->scope &&
	    p->sym != NULL && pr->from_scope) {
		/* the zoomed process again: its hot functions */
		nav_view_init(&p->push, PANE_HOT);
		snprintf(p->push.label, sizeof p->push.label, "hot");
		return PANE_HANDLED | PANE_PUSH;
	}
	if (a == ACT_ZOOM_THREAD || (a == ACT_ENTER && (w->kind == K_THREAD ||
	    (int64_t)w->pid == pr->scope))) {
		/* the scope zoomed into the thread or process, shown in the hot functions */
		char label[NAV_LABEL_MAX];

		if (w->kind == K_PROC) {
			snprintf(label, sizeof label, "pid %" PRId32 " %s", w->pid, TEXT_CLIP(comm, 24));
			return pane_push_zoom(p, PANE_HOT, SZ_PID, w->pid, w->pid, 0, label);
		}
		snprintf(label, sizeof label, "thread %" PRId32 " %s", w->tid, TEXT_CLIP(comm, 24));
		return pane_push_zoom(p, PANE_HOT, SZ_TID, w->pid, w->tid, 0, label);
	}
	if (a == ACT_ENTER && w->kind == K_PROC && (int64_t)w->pid != pr->scope) {
		char label[NAV_LABEL_MAX];

		snprintf(label, sizeof label, "pid %" PRId32 " %s", w->pid, TEXT_CLIP(comm, 24));
		if (p->sym != NULL)	/* a zoom of the scope, shown here: its threads */
			return pane_push_zoom(p, PANE_PROCS, SZ_PID, w->pid, w->pid, 0, label);
		nav_view_init(&p->push, PANE_PROCS);
		p->push.target = NAV_T_PID;
		p->push.arg = (uint64_t)(int64_t)w->pid;
		snprintf(p->push.label, sizeof p->push.label, "%s", label);
		return PANE_HANDLED | PANE_PUSH;
	}
	nav_view_init(&p->push, PANE_EVENTS);
	if (w->kind == K_PROC) {
		snprintf(p->push.filter, sizeof p->push.filter, "pid:%" PRId32, w->pid);
		snprintf(p->push.label, sizeof p->push.label, "events pid %" PRId32, w->pid);
	} else {
		snprintf(p->push.filter, sizeof p->push.filter, "tid:%" PRId32, w->tid);
		snprintf(p->push.label, sizeof p->push.label, "events tid %" PRId32 " %s", w->tid,
		    TEXT_CLIP(comm, 20));
	}
	return PANE_HANDLED | PANE_PUSH;
}

/* The process the scope's zoom names (its thread's), or -1. */
static int64_t
scope_pid(const struct pane *p)
{
	const struct scope *sc = p->sym != NULL ? &p->sym->scope : NULL;

	return sc != NULL && (scope_zoomed(sc, SZ_PID) || scope_zoomed(sc, SZ_TID)) ?
	    (int64_t)sc->sel.pid : -1;
}

/* A view names a process (NAV_T_PID, without symbols), else the pane shows the scope's. */
static void
pr_enter(struct pane *p, const struct nav_view *v)
{
	struct pr *pr = p->priv;

	pr->from_scope = v->target != NAV_T_PID;
	set_scope(p, pr->from_scope ? scope_pid(p) : (int64_t)v->arg);
	pane_list_enter(p, v);
}

static void
pr_save(struct pane *p, struct nav_view *v)
{
	struct pr *pr = p->priv;

	pane_list_save(p, v);
	if (pr->scope >= 0 && !pr->from_scope) {
		v->target = NAV_T_PID;
		v->arg = (uint64_t)pr->scope;
	} else {
		v->target = NAV_T_NONE;
	}
}

static int
pr_init(struct pane *p)
{
	struct pr *pr = xcalloc(1, sizeof *pr);

	p->priv = pr;
	pr->scope = -1;
	pr->total = session_counts(p->s)->by_type[PF_REC_SAMPLE];
	build_procs(p, pr);
	build_rows(p, pr);
	p->cols = pr_cols;
	p->ncols = C_N - 2;
	p->is_list = true;
	widget_init(&p->w, p, true);
	return 0;
}

static void
pr_free(struct pane *p)
{
	struct pr *pr = p->priv;

	if (pr == NULL)
		return;
	tasks_free(pr->tk);
	free(pr->tsamples);
	free(pr->psamples);
	free(pr->toff);
	free(pr->poff);
	free(pr->ton);
	free(pr->pon);
	free(pr->procs);
	free(pr->rows);
	free(pr);
}

static const char *
pr_help(struct pane *p)
{
	(void)p;
	return "Enter:threads/hot functions  v:events  +/Right:expand  f:filter";
}

const struct pane_ops pane_procs_ops = {
	.name = "procs",
	.description = "processes and their threads, samples, start and exit, lost samples, comms",
	.title = "Processes",
	.init = pr_init,
	.free = pr_free,
	.key = pr_key,
	.resize = pr_resize,
	.nrows = pr_nrows,
	.row = pr_row,
	.enter = pr_enter,
	.save = pr_save,
	.help = pr_help,
};
