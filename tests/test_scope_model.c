/*
 * A model test of the browser's one scope (tui/scope.h): random sequences
 * (a fixed seed) of zooms (process, thread, DSO, symbol, cpu, and the
 * input of a merged recording), time steps, call-path transforms, event switches, undos (Esc) and pane
 * switches, played on every multi-thread fixture.  After each step every
 * analysis pane (hot functions, top-down, bottom-up, processes, the events
 * list) must show
 * exactly what the same panes show over a fresh hist built with the
 * equivalent start options (--tid, --pid, --dsos, --symbols, --cpu,
 * --files, --time, the same transforms), and the event's totals must be the same.
 */
#include "config.h"

#include <criterion/criterion.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/core.h"
#include "symbolize/cpath.h"
#include "symbolize/filter.h"
#include "symbolize/hist.h"
#include "symbolize/symbolizer.h"
#include "tests/tui_helpers.h"
#include "tui/nav.h"
#include "tui/pane.h"
#include "tui/scope.h"
#include "tui/symbols.h"
#include "tui/widget.h"

enum { M_HOT, M_TOPDOWN, M_BOTTOMUP, M_PROCS, M_EVENTS, M_N };

static const enum pane_id model_panes[M_N] = { PANE_HOT, PANE_TOPDOWN, PANE_BOTTOMUP, PANE_PROCS,
	PANE_EVENTS };

#define CAND_MAX	64

struct model {
	struct session	*s;
	struct symbols	*sy;
	struct pane	 p[M_N];
	uint64_t	 t_lo, t_hi;		/* the samples' span */
	int32_t		 pids[CAND_MAX], tids[CAND_MAX], cpus[CAND_MAX];
	size_t		 npids, ntids, ncpus;
	uint32_t	 dsos[CAND_MAX], syms[CAND_MAX];
	size_t		 ndsos, nsyms;
	uint64_t	 rng;
	size_t		 checks;
};

static uint32_t
rnd(struct model *m, uint32_t n)
{
	m->rng = m->rng * 6364136223846793005ULL + 1442695040888963407ULL;
	return n ? (uint32_t)(m->rng >> 33) % n : 0;
}

static struct symbols *
model_symbols(struct session *s, const struct hist_filter *f)
{
	struct sym_opts so;

	memset(&so, 0, sizeof so);
	so.buildid_dir = TEST_DATA "/buildid";
	so.kallsyms = "/dev/null";
	return symbols_new(s, &so, f);
}

static bool
has32(const int32_t *v, size_t n, int32_t x)
{
	for (size_t i = 0; i < n; i++)
		if (v[i] == x)
			return true;
	return false;
}

/* Is a function's name that of no other node, and one --symbols reads as a name? */
static bool
sym_unique(const struct hist *h, uint32_t node)
{
	const char *name = symbolizer_label_name(hist_str(h, hist_node_get(h, node)->label));

	if (strncmp(name, "0x", 2) == 0 || hist_node_get(h, node)->owner)
		return false;
	for (uint32_t k = 0; k < hist_nnodes(h); k++)
		if (k != node && strcmp(symbolizer_label_name(hist_str(h, hist_node_get(h, k)->label)),
		    name) == 0)
			return false;
	return true;
}

/* Is a DSO's short name that of no other DSO with samples? */
static bool
dso_unique(const struct symbols *sy, uint32_t dso)
{
	if (dso == DSO_NONE)
		return false;
	for (uint32_t d = 0; d < symbolizer_ndsos(sy->z); d++)
		if (d != dso && strcmp(symbolizer_dso_short(sy->z, d),
		    symbolizer_dso_short(sy->z, dso)) == 0)
			return false;
	return true;
}

/* What the steps pick from: threads, processes, cpus with samples; DSOs and functions of rows. */
static void
candidates(struct model *m)
{
	const struct rec_index *ix = session_index(m->s);
	struct hist *h = m->sy->h;

	m->t_lo = UINT64_MAX;
	m->t_hi = 0;
	for (size_t i = 0; i < ix->n; i++) {
		struct ent_who w;

		if (ent_type(index_ent(ix, i)) != PF_REC_SAMPLE)
			continue;
		w = session_ent_who(m->s, i);
		if (index_ent(ix, i)->time < m->t_lo)
			m->t_lo = index_ent(ix, i)->time;
		if (index_ent(ix, i)->time > m->t_hi)
			m->t_hi = index_ent(ix, i)->time;
		if (w.tid >= 0 && m->ntids < CAND_MAX && !has32(m->tids, m->ntids, w.tid))
			m->tids[m->ntids++] = w.tid;
		if (w.pid >= 0 && m->npids < CAND_MAX && !has32(m->pids, m->npids, w.pid))
			m->pids[m->npids++] = w.pid;
		if (w.cpu >= 0 && m->ncpus < CAND_MAX && !has32(m->cpus, m->ncpus, w.cpu))
			m->cpus[m->ncpus++] = w.cpu;
	}
	for (size_t ev = 0; ev < hist_nevents(h); ev++) {
		const struct hist_entry *const *r;
		size_t n = hist_rows_merged(h, ev, NULL, 0, 0, &r);

		for (size_t i = 0; i < n; i++) {
			bool have = false;

			if (r[i]->samples == 0)
				continue;
			for (size_t k = 0; k < m->nsyms; k++)
				have = have || m->syms[k] == r[i]->node;
			if (!have && m->nsyms < CAND_MAX && sym_unique(h, r[i]->node))
				m->syms[m->nsyms++] = r[i]->node;
			have = false;
			for (size_t k = 0; k < m->ndsos; k++)
				have = have || m->dsos[k] == r[i]->dso;
			if (!have && m->ndsos < CAND_MAX && dso_unique(m->sy, r[i]->dso))
				m->dsos[m->ndsos++] = r[i]->dso;
		}
	}
}

static int
cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* The text of every row of a pane (depth 0 only for the hot functions: their rows), sorted. */
static char **
pane_rows(struct pane *p, size_t *n)
{
	size_t k = 0, nr;
	char **out;

	if (p->ops->func)
		p->ops->func(p);	/* follow the scope */
	if (p->ops->resize)
		p->ops->resize(p, 40, 200);
	/* the events list: the rows its filter (the scope) shows; the others: the model's rows */
	nr = p->id == PANE_EVENTS ? widget_count(&p->w) : p->ops->nrows(p);
	out = calloc(nr + 1, sizeof *out);
	for (size_t i = 0; i < nr; i++) {
		struct row *r = malloc(sizeof *r);
		char line[2048];
		size_t o = 0;

		row_reset(r);
		p->ops->row(p, p->id == PANE_EVENTS ? widget_source(&p->w, i) : i, r);
		/* the hot functions: their rows, not call paths; the processes: those with
		 * samples (a process zoom shows its own tree, a start --pid every process) */
		if ((p->id == PANE_HOT && r->depth > 0) || (p->id == PANE_PROCS &&
		    (r->col[2] == NULL || strcmp(r->col[2], "0") == 0))) {
			free(r);
			continue;
		}
		if (p->id == PANE_PROCS) {
			/* a task and its samples, however the tree is laid out (a process with
			 * its one thread under it, or alone) */
			const char *id = strchr(r->col[0], '/');

			snprintf(line, sizeof line, "%s|%s|%s", id ? id + 1 : r->col[0], r->col[2],
			    r->col[3] ? r->col[3] : "");
			for (char *c = line; *c == ' ' || (*c & 0x80);) /* the tree's marks */
				memmove(c, c + 1, strlen(c));
			if (k > 0 && strcmp(out[k - 1], line) == 0) {
				free(r);
				continue;
			}
			out[k++] = strdup(line);
			free(r);
			continue;
		}
		o += (size_t)snprintf(line, sizeof line, "%u", r->depth);
		for (int c = 0; c < p->ncols && c < ROW_MAXCOLS && o < sizeof line; c++)
			o += (size_t)snprintf(line + o, sizeof line - o, "|%s", r->col[c] ? r->col[c] : "");
		out[k++] = strdup(line);
		free(r);
	}
	qsort(out, k, sizeof *out, cmp_str);
	/* equal rows once (a task seen as a process and as its thread) */
	for (size_t i = 1; p->id == PANE_PROCS && i < k;)
		if (strcmp(out[i], out[i - 1]) == 0) {
			free(out[i]);
			memmove(&out[i], &out[i + 1], (k - i - 1) * sizeof *out);
			k--;
		} else {
			i++;
		}
	*n = k;
	return out;
}

/* The node of fresh's hist that is app node `node` (same label and DSO), or CPATH_NONE. */
static uint32_t
same_node(const struct symbols *app, const struct symbols *fresh, uint32_t node)
{
	const struct hist_node *a = hist_node_get(app->h, node);
	const char *la = hist_str(app->h, a->label);

	for (uint32_t k = 0; k < hist_nnodes(fresh->h); k++) {
		const struct hist_node *b = hist_node_get(fresh->h, k);

		if (strcmp(hist_str(fresh->h, b->label), la) == 0 && (a->f.dso == DSO_NONE ?
		    b->f.dso == DSO_NONE : b->f.dso != DSO_NONE && strcmp(symbolizer_dso_long(app->z,
		    a->f.dso), symbolizer_dso_long(fresh->z, b->f.dso)) == 0))
			return k;
	}
	return CPATH_NONE;
}

/* The start options that choose what the scope's zoom, cpus and time choose. */
static void
equivalent_filter(const struct model *m, struct hist_filter *f, struct filter_range *tr,
    uint32_t *cpus, char **names)
{
	const struct scope *sc = &m->sy->scope;
	const struct hist_select *z = &sc->sel;
	const char *bad;

	memset(f, 0, sizeof *f);
	if (sc->by_file) {	/* f->flocs its own (free it) */
		names[2] = (char *)scope_file_name(sc);
		f->files = &names[2];
		f->nfiles = 1;
		cr_assert_eq(filter_place_files(f, sc->org, &bad), 0);
	}
	if (scope_time_range(sc, &tr->start, &tr->end)) {
		f->time = tr;
		f->ntime = 1;
	}
	if (sc->ncpus) {
		for (size_t i = 0; i < sc->ncpus; i++)
			cpus[i] = sc->cpus[i];
		f->cpus = cpus;
		f->ncpus = sc->ncpus;
	}
	if (!sc->zoomed)
		return;
	if (z->by_pid) {
		f->pids = (int32_t *)&z->pid;
		f->npids = 1;
	}
	if (z->by_tid) {
		f->tids = (int32_t *)&z->tid;
		f->ntids = 1;
	}
	if (z->by_dso) {
		names[0] = (char *)symbolizer_dso_short(m->sy->z, z->dso);
		f->dsos = &names[0];
		f->ndsos = 1;
	}
	if (z->by_node) {
		names[1] = (char *)symbolizer_label_name(hist_str(m->sy->h,
		    hist_node_get(m->sy->h, z->node)->label));
		f->syms = &names[1];
		f->nsyms = 1;
	}
}

/* Every model pane against the same pane over a fresh hist with the equivalent options. */
static void
check(struct model *m, const char *what)
{
	const struct scope *sc = &m->sy->scope;
	struct hist_filter f;
	struct filter_range tr;
	uint32_t cpus[SCOPE_CPU_MAX];
	char *names[3];
	struct symbols *fresh;
	const char *evname;
	int fev;

	cr_assert_eq(symbols_apply_scope(m->sy), 0, "%s: the scope applies", what);
	equivalent_filter(m, &f, &tr, cpus, names);
	fresh = model_symbols(m->s, filter_active(&f) ? &f : NULL);
	symbols_run(fresh);
	evname = sc->ev < hist_nevents(m->sy->h) ?
	    hist_str(m->sy->h, hist_event(m->sy->h, sc->ev)->name) : NULL;
	fev = evname ? hist_event_find(fresh->h, evname) : -1;
	if (evname != NULL && fev >= 0) {
		const struct hist_event *a = hist_event(m->sy->h, sc->ev), *b = hist_event(fresh->h,
		    (size_t)fev);

		cr_assert_eq(a->nsamples, b->nsamples, "%s: the event's samples %" PRIu64 " vs %" PRIu64,
		    what, a->nsamples, b->nsamples);
		cr_assert_eq(a->total_period, b->total_period, "%s: the event's period", what);
		fresh->scope.ev = (size_t)fev;
	} else if (evname != NULL) {
		cr_assert_eq(hist_event(m->sy->h, sc->ev)->nsamples, 0,
		    "%s: a fresh pass has no sample of %s: nor the scope", what, evname);
	}
	for (size_t i = 0; i < sc->nxf; i++) {
		uint32_t fn = sc->xf[i].op == CPATH_NORECURSE ?
		    CPATH_NONE :
		    same_node(m->sy, fresh, sc->xf[i].func);

		if (sc->xf[i].op != CPATH_NORECURSE && fn == CPATH_NONE)
			fn = UINT32_MAX - 1;	/* a function with no sample left: matches nothing */
		scope_xf_push(&fresh->scope, (enum cpath_op)sc->xf[i].op, fn);
	}
	for (int k = 0; k < M_N; k++) {
		struct pane q;
		struct nav_view v;
		size_t na, nb;
		char **ra, **rb;

		if (evname != NULL && fev < 0)
			continue;	/* no sample of the event in the scope: nothing to compare */
		cr_assert_eq(pane_create_sym(&q, model_panes[k], m->s, NULL, fresh), 0);
		nav_view_init(&v, model_panes[k]);
		q.ops->enter(&q, &v);
		ra = pane_rows(&m->p[k], &na);
		rb = pane_rows(&q, &nb);
		if (getenv("MODEL_DEBUG"))
			for (size_t i = 0; i < na || i < nb; i++)
				fprintf(stderr, "%s %-60s | %s\n", m->p[k].ops->name, i < na ? ra[i] : "",
				    i < nb ? rb[i] : "");
		for (size_t i = 0; i < na || i < nb; i++) {
			cr_assert(i < na && i < nb, "%s: pane %s: %zu rows, fresh %zu (first extra: %s)",
			    what, m->p[k].ops->name, na, nb, i < na ? ra[i] : rb[i]);
			cr_assert_str_eq(ra[i], rb[i], "%s: pane %s row %zu:\n %s\n %s", what,
			    m->p[k].ops->name, i, ra[i], rb[i]);
		}
		for (size_t i = 0; i < na; i++)
			free(ra[i]);
		for (size_t i = 0; i < nb; i++)
			free(rb[i]);
		free(ra);
		free(rb);
		pane_destroy(&q);
	}
	symbols_free(fresh);
	free(f.flocs);
	m->checks++;
}

/* One random step; its name into what. */
static void
step(struct model *m, char *what, size_t n)
{
	struct scope *sc = &m->sy->scope;
	uint64_t a, b;
	/* a merged recording: an eleventh kind of step, the file zoom */
	uint32_t r = rnd(m, m->sy->org.n > 1 ? 11 : 10);
	char label[48];

	switch (r) {
	case 0:
	case 1: {
		int32_t tid = m->tids[rnd(m, (uint32_t)m->ntids)];
		uint32_t th = thread_table_find(session_threads(m->s), tid, UINT64_MAX);
		int32_t pid = th != THREAD_NONE ? session_threads(m->s)->v[th].pid : tid;

		snprintf(label, sizeof label, "thread %d", tid);
		if (r == 0)
			scope_zoom(sc, SZ_TID, pid, tid, 0, label);
		else
			scope_zoom(sc, SZ_PID, pid, pid, 0, label);
		snprintf(what, n, "zoom %s %d", r == 0 ? "tid" : "pid", r == 0 ? tid : pid);
		break;
	}
	case 2:
		if (m->ndsos == 0)
			break;
		scope_zoom(sc, SZ_DSO, 0, 0, m->dsos[rnd(m, (uint32_t)m->ndsos)], "dso");
		snprintf(what, n, "zoom dso %s", symbolizer_dso_short(m->sy->z, sc->sel.dso));
		break;
	case 3:
		if (m->nsyms == 0)
			break;
		scope_zoom(sc, SZ_SYM, 0, 0, m->syms[rnd(m, (uint32_t)m->nsyms)], "sym");
		snprintf(what, n, "zoom sym %u", sc->sel.node);
		break;
	case 4:
		if (m->ncpus == 0)
			break;
		a = (uint64_t)m->cpus[rnd(m, (uint32_t)m->ncpus)];
		scope_zoom(sc, SZ_CPU, 0, 0, (uint32_t)a, "cpu");
		snprintf(what, n, "zoom cpu %" PRIu64, a);
		break;
	case 5: {
		uint64_t s0, e0, span;

		if (!scope_time_range(sc, &s0, &e0)) {
			s0 = m->t_lo;
			e0 = m->t_hi;
		}
		span = e0 - s0 + 1;
		a = s0 + rnd(m, 1000) * (span / 1000);
		b = a + 1 + rnd(m, 1000) * ((e0 - a) / 1000);
		scope_time_push(sc, a, b);
		snprintf(what, n, "time %" PRIu64 "-%" PRIu64, a, b);
		break;
	}
	case 6:
		if (m->nsyms == 0)
			break;
		scope_xf_push(sc, (enum cpath_op)rnd(m, 4), m->syms[rnd(m, (uint32_t)m->nsyms)]);
		snprintf(what, n, "transform %d", sc->nxf ? (int)sc->xf[sc->nxf - 1].op : -1);
		break;
	case 7:
		scope_step_event(sc, m->sy->h, rnd(m, 2), label, sizeof label);
		snprintf(what, n, "event %zu", sc->ev);
		break;
	case 8:
		snprintf(what, n, "undo (%s)", scope_undo(sc) ? "a step" : "none");
		break;
	case 10:
		a = rnd(m, (uint32_t)m->sy->org.n);
		scope_zoom(sc, SZ_FILE, 0, 0, (uint32_t)a, "file");
		snprintf(what, n, "zoom file %s", m->sy->org.v[a].name);
		break;
	default: {
		int k = (int)rnd(m, M_N);
		struct nav_view v;

		nav_view_init(&v, model_panes[k]);
		m->p[k].ops->enter(&m->p[k], &v);
		snprintf(what, n, "pane %s", m->p[k].ops->name);
		break;
	}
	}
}

static void
play_session(struct session *s, const char *fixture, unsigned seqs, unsigned len)
{
	struct model m;
	char what[128], trail[2048];

	memset(&m, 0, sizeof m);
	m.s = s;
	m.sy = model_symbols(m.s, NULL);
	symbols_run(m.sy);
	candidates(&m);
	cr_assert_gt(m.ntids, 0, "%s: samples of a thread", fixture);
	for (int k = 0; k < M_N; k++) {
		struct nav_view v;

		cr_assert_eq(pane_create_sym(&m.p[k], model_panes[k], m.s, NULL, m.sy), 0);
		nav_view_init(&v, model_panes[k]);
		m.p[k].ops->enter(&m.p[k], &v);
	}
	m.rng = 0x5eed0001u;
	for (unsigned q = 0; q < seqs; q++) {
		size_t o = 0;

		while (scope_undo(&m.sy->scope))
			;
		trail[0] = '\0';
		for (unsigned i = 0; i < len; i++) {
			what[0] = '\0';
			step(&m, what, sizeof what);
			if (what[0] == '\0')
				continue;
			o += (size_t)snprintf(trail + o, sizeof trail - o, "%s%s", o ? ", " : "", what);
			if (o >= sizeof trail)
				o = sizeof trail - 1;
			check(&m, trail);
		}
	}
	cr_log_info("%s: %zu checks", fixture, m.checks);
	for (int k = 0; k < M_N; k++)
		pane_destroy(&m.p[k]);
	symbols_free(m.sy);
	session_close(m.s);
}

/* Every multi-thread fixture, and one of two events (its switches). */
static void
play(const char *fixture, unsigned seqs, unsigned len)
{
	play_session(open_fixture(fixture), fixture, seqs, len);
}

Test(scope_model, fork, .timeout = 600)
{
	play("fork.data", 100, 10);
}

Test(scope_model, pipe, .timeout = 600)
{
	play("pipe.data", 100, 10);
}

Test(scope_model, tpfork, .timeout = 600)
{
	play("tpfork.data", 100, 10);
}

Test(scope_model, switch, .timeout = 600)
{
	play("switch.data", 100, 10);
}

Test(scope_model, nest, .timeout = 600)
{
	play("nest.data", 100, 10);
}

/* sched_switch samples with callchains: the off-CPU event beside them */
Test(scope_model, offcpu, .timeout = 600)
{
	play("offcpu.data", 100, 10);
}

Test(scope_model, two_events, .timeout = 600)
{
	play("multi.data", 100, 10);
}

/* a merged recording (perfnav merge): the file zoom among the steps */
Test(scope_model, merged, .timeout = 600)
{
	const char *const in[] = { "fork.data", "fp.data", "diff-a.data" };
	void *bytes;

	play_session(merged_fixtures(in, 3, &bytes), "fork.data+fp.data+diff-a.data", 100, 10);
	free(bytes);
}
