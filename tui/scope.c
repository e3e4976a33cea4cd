#include "config.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/core.h"

#include "core/text.h"
#include "tui/scope.h"

/*
 * scope.c: the scope's steps (kept to be undone), its zoom, its call-path
 * query, and its transforms and time steps pushed and named.
 */

void
scope_save(struct scope *sc)
{
	struct scope *k;

	if (sc->nundo == SCOPE_UNDO_MAX) {
		memmove(&sc->undo[0], &sc->undo[1], (SCOPE_UNDO_MAX - 1) * sizeof *sc->undo);
		sc->nundo--;
	}
	GROW(sc->undo, sc->capundo, sc->nundo + 1);
	k = &sc->undo[sc->nundo++];
	*k = *sc;
	/* what is not the scope's value: the picked tree, the stack itself */
	k->pick = NULL;
	k->undo = NULL;
	k->nundo = k->capundo = 0;
}

size_t
scope_depth(const struct scope *sc)
{
	return sc->nundo;
}

/* Do a and b take the same samples into the counts (the zoom, cpus, time steps)? */
static bool
same_counts(const struct scope *a, const struct scope *b)
{
	return a->zoomed == b->zoomed && memcmp(&a->sel, &b->sel, sizeof a->sel) == 0 &&
	    a->ncpus == b->ncpus && memcmp(a->cpus, b->cpus, a->ncpus * sizeof *a->cpus) == 0 &&
	    a->by_file == b->by_file && (!a->by_file || a->file == b->file) &&
	    a->ntr == b->ntr && memcmp(a->tr, b->tr, a->ntr * sizeof *a->tr) == 0;
}

/* Make sc's value that of v (a snapshot or a changed copy): the rest of sc stays. */
static void
assign_value(struct scope *sc, const struct scope *v)
{
	struct scope now = *sc;

	*sc = *v;
	/* kept as they are: the pick, the highlight, the steps */
	sc->pick = now.pick;
	sc->pick_node = now.pick_node;
	sc->hl_func = now.hl_func;
	sc->undo = now.undo;
	sc->nundo = now.nundo;
	sc->capundo = now.capundo;
	sc->gen = now.gen + 1;
	sc->time_pending = now.time_pending || !same_counts(&now, sc);
	sc->recounted = now.recounted && same_counts(&now, sc);
}

bool
scope_undo(struct scope *sc)
{
	struct scope k;

	if (sc->nundo == 0)
		return false;
	k = sc->undo[--sc->nundo];
	assign_value(sc, &k);
	return true;
}

/* Do a and b have the same value? */
static bool
same_value(const struct scope *a, const struct scope *b)
{
	return same_counts(a, b) && a->ev == b->ev && a->nxf == b->nxf &&
	    memcmp(a->xf, b->xf, a->nxf * sizeof *a->xf) == 0 && a->hot_sort.n == b->hot_sort.n &&
	    memcmp(a->hot_sort.keys, b->hot_sort.keys, a->hot_sort.n * sizeof *a->hot_sort.keys) == 0 &&
	    a->hot_callers == b->hot_callers;
}

bool
scope_assign(struct scope *sc, const struct scope *t)
{
	struct scope v = *t;

	if (same_value(sc, t))
		return false;
	scope_save(sc);
	assign_value(sc, &v);
	return true;
}

bool
scope_zoomed(const struct scope *sc, enum scope_zoom_kind kind)
{
	const struct hist_select *z = &sc->sel;

	switch (kind) {
	case SZ_PID:
		return sc->zoomed && z->by_pid;
	case SZ_TID:
		return sc->zoomed && z->by_tid;
	case SZ_COMM:
		return sc->zoomed && z->by_comm;
	case SZ_DSO:
		return sc->zoomed && z->by_dso;
	case SZ_SYM:
		return sc->zoomed && z->by_node;
	case SZ_CPU:
		return sc->ncpus > 0;
	case SZ_FILE:
		return sc->by_file;
	default:
		return false;
	}
}

/* Add cpu to the sorted cpu zoom; false if it is in or the list is full. */
static bool
cpu_add(struct scope *sc, uint32_t cpu)
{
	size_t i = 0;

	while (i < sc->ncpus && sc->cpus[i] < cpu)
		i++;
	if ((i < sc->ncpus && sc->cpus[i] == cpu) || sc->ncpus == SCOPE_CPU_MAX)
		return false;
	memmove(&sc->cpus[i + 1], &sc->cpus[i], (sc->ncpus - i) * sizeof *sc->cpus);
	sc->cpus[i] = cpu;
	sc->ncpus++;
	return true;
}

/* The input of a merged recording as a zoom: as the cpus, it takes samples out of the totals. */
static bool
zoom_file(struct scope *sc, uint32_t file, const char *label)
{
	if (sc->org == NULL || file >= sc->org->n)
		return false;
	/* another origin of the same name takes the same samples */
	if (sc->by_file && strcmp(sc->org->v[sc->file].name, sc->org->v[file].name) == 0)
		return false;
	sc->by_file = true;
	sc->file = file;
	snprintf(sc->zlabel[SZ_FILE], sizeof sc->zlabel[SZ_FILE], "%s", label);
	snprintf(sc->what, sizeof sc->what, "%s", label);
	sc->zseq[SZ_FILE] = ++sc->seq;
	sc->time_pending = true;
	sc->gen++;
	return true;
}

bool
scope_zoom_set(struct scope *sc, enum scope_zoom_kind kind, int32_t pid, int32_t tid, uint32_t id,
    const char *label)
{
	struct hist_select z = sc->zoomed ? sc->sel : (struct hist_select){ 0 };

	if (kind == SZ_CPU) {
		char list[40];

		if (!cpu_add(sc, id))
			return false;
		snprintf(sc->zlabel[SZ_CPU], sizeof sc->zlabel[SZ_CPU], "cpu %s",
		    scope_cpu_list(sc, list, sizeof list));
		if (sc->ncpus == 1)
			sc->zseq[SZ_CPU] = ++sc->seq;
		snprintf(sc->what, sizeof sc->what, "cpu %" PRIu32, id);
		sc->time_pending = true;
		sc->gen++;
		return true;
	}
	if (kind == SZ_FILE)
		return zoom_file(sc, id, label);
	switch (kind) {
	case SZ_TID:
		z.by_tid = z.by_pid = true;
		z.tid = tid;
		z.pid = pid;
		break;
	case SZ_PID:
		z.by_pid = true;
		z.pid = pid;
		if (z.by_tid && sc->sel.pid != pid)
			z.by_tid = false;	/* another process: its thread goes */
		break;
	case SZ_COMM:
		z.by_comm = true;
		z.comm = id;
		break;
	case SZ_DSO:
		z.by_dso = true;
		z.dso = id;
		break;
	case SZ_SYM:
		z.by_node = true;
		z.node = id;
		break;
	default:
		return false;
	}
	if (sc->zoomed && memcmp(&z, &sc->sel, sizeof z) == 0)
		return false;
	if (kind == SZ_TID || (kind == SZ_PID && !z.by_tid))
		sc->zlabel[SZ_TID][0] = sc->zlabel[SZ_PID][0] = '\0';
	snprintf(sc->zlabel[kind], sizeof sc->zlabel[kind], "%s", label);
	snprintf(sc->what, sizeof sc->what, "%s", label);
	sc->zseq[kind] = ++sc->seq;
	sc->sel = z;
	sc->zoomed = true;
	sc->recounted = false;
	sc->time_pending = true;
	sc->gen++;
	return true;
}

bool
scope_zoom(struct scope *sc, enum scope_zoom_kind kind, int32_t pid, int32_t tid, uint32_t id,
    const char *label)
{
	scope_save(sc);
	if (scope_zoom_set(sc, kind, pid, tid, id, label))
		return true;
	sc->nundo--;	/* nothing changed: no step */
	return false;
}

const struct hist_select *
scope_sel(const struct scope *sc)
{
	return sc->zoomed && !sc->recounted ? &sc->sel : NULL;
}

bool
scope_cpu_in(const struct scope *sc, int32_t cpu)
{
	if (sc->ncpus == 0)
		return true;
	for (size_t i = 0; cpu >= 0 && i < sc->ncpus; i++)
		if (sc->cpus[i] == (uint32_t)cpu)
			return true;
	return false;
}

bool
scope_loc_in(const struct scope *sc, uint64_t loc)
{
	uint32_t i;

	if (!sc->by_file || sc->org == NULL)
		return true;
	i = origins_find(sc->org, loc);
	return i < sc->org->n && strcmp(sc->org->v[i].name, sc->org->v[sc->file].name) == 0;
}

const char *
scope_file_name(const struct scope *sc)
{
	return sc->by_file && sc->org != NULL && sc->file < sc->org->n ? sc->org->v[sc->file].name : "";
}

uint32_t
scope_file_find(const struct scope *sc, const char *name)
{
	for (uint32_t i = 0; sc->org != NULL && i < sc->org->n; i++)
		if (filter_file_named(sc->org->v[i].name, name))	/* as --files takes it */
			return i;
	return UINT32_MAX;
}

bool
scope_task_in(const struct scope *sc, int32_t pid, int32_t tid)
{
	return !sc->zoomed || ((!sc->sel.by_pid || pid == sc->sel.pid) &&
	    (!sc->sel.by_tid || tid == sc->sel.tid));
}

const char *
scope_zoom_text(const struct scope *sc, char *buf, size_t n)
{
	static const enum scope_zoom_kind order[] = { SZ_FILE, SZ_PID, SZ_TID, SZ_COMM, SZ_CPU, SZ_DSO,
		SZ_SYM };
	size_t o = 0;

	if (n == 0)
		return buf;
	buf[0] = '\0';
	for (size_t i = 0; i < sizeof order / sizeof order[0] && o + 1 < n; i++) {
		enum scope_zoom_kind k = order[i];
		int w;

		if (!scope_zoomed(sc, k) || sc->zlabel[k][0] == '\0')
			continue;
		if (k == SZ_PID && scope_zoomed(sc, SZ_TID) && sc->zlabel[SZ_TID][0])
			continue;	/* the thread names its process */
		w = snprintf(buf + o, n - o, "%s%s", o ? " > " : "", sc->zlabel[k]);
		if (w < 0)
			break;
		o += (size_t)w;
	}
	if (o >= n)
		o = n - 1;
	buf[o] = '\0';
	return buf;
}

const char *
scope_cpu_list(const struct scope *sc, char *buf, size_t n)
{
	size_t o = 0;

	if (n == 0)
		return buf;
	buf[0] = '\0';
	for (size_t i = 0; i < sc->ncpus && o + 1 < n;) {
		size_t j = i;
		int w;

		while (j + 1 < sc->ncpus && sc->cpus[j + 1] == sc->cpus[j] + 1)
			j++;
		if (j > i)
			w = snprintf(buf + o, n - o, "%s%u-%u", o ? "," : "", sc->cpus[i], sc->cpus[j]);
		else
			w = snprintf(buf + o, n - o, "%s%u", o ? "," : "", sc->cpus[i]);
		if (w < 0)
			break;
		o += (size_t)w;
		i = j + 1;
	}
	if (o >= n)
		o = n - 1;
	buf[o] = '\0';
	return buf;
}

void
scope_query(const struct scope *sc, bool bottom_up, struct cpath_query *q)
{
	memset(q, 0, sizeof *q);
	q->ev = sc->ev;
	q->sel = scope_sel(sc);
	q->entry = CPATH_NONE;
	q->xf = sc->xf;
	q->nxf = sc->nxf;
	q->bottom_up = bottom_up;
}

bool
scope_xf_push(struct scope *sc, enum cpath_op op, uint32_t func)
{
	if (sc->nxf >= SCOPE_XF_MAX)
		return false;
	scope_save(sc);
	sc->xf[sc->nxf].op = op;
	sc->xf[sc->nxf].func = op == CPATH_NORECURSE ? CPATH_NONE : func;
	sc->xseq[sc->nxf] = ++sc->seq;
	sc->nxf++;
	sc->gen++;
	snprintf(sc->what, sizeof sc->what, "a transform");
	return true;
}

void
scope_xf_truncate(struct scope *sc, size_t n)
{
	if (n >= sc->nxf)
		return;
	sc->nxf = n;
	sc->gen++;
}

bool
scope_xf_has(const struct scope *sc, enum cpath_op op, uint32_t func)
{
	for (size_t i = 0; i < sc->nxf; i++)
		if (sc->xf[i].op == op && (op == CPATH_NORECURSE || sc->xf[i].func == func))
			return true;
	return false;
}

const char *
scope_xf_step_text(const struct hist *h, const struct cpath_xform *x, char *buf, size_t n)
{
	static const char *const verb[] = {
		[CPATH_FOCUS] = "focus",
		[CPATH_MERGE] = "merge",
		[CPATH_DROP] = "drop",
		[CPATH_NORECURSE] = "no recursion",
		[CPATH_CALLERS] = "callers of",
	};
	char name[256];

	if (x->op == CPATH_NORECURSE || (unsigned)x->op >= sizeof verb / sizeof verb[0]) {
		snprintf(buf, n, "%s", x->op == CPATH_NORECURSE ? verb[x->op] : "?");
		return buf;
	}
	snprintf(buf, n, "%s %s", verb[x->op], cpath_func_name(h, x->func, name, sizeof name));
	return buf;
}

const char *
scope_xf_text(const struct scope *sc, const struct hist *h, char *buf, size_t n)
{
	size_t o = 0;

	if (n == 0)
		return buf;
	buf[0] = '\0';
	for (size_t i = 0; i < sc->nxf && o + 1 < n; i++) {
		char step[300];
		int k = snprintf(buf + o, n - o, "%s%s", i ? " > " : "",
		    scope_xf_step_text(h, &sc->xf[i], step, sizeof step));

		if (k < 0)
			break;
		o += (size_t)k;
	}
	return buf;
}

#define SCOPE_STR_(x)	#x
#define SCOPE_STR(x)	SCOPE_STR_(x)

const char *
scope_time_refusal(const struct scope *sc, uint64_t start, uint64_t end)
{
	uint64_t s, e;

	if (end < start)
		return "that range ends before it starts";
	/* outside the scope: the intersection would be empty */
	if (scope_time_range(sc, &s, &e) && (start > e || end < s))
		return "that range is outside the current time scope";
	if (sc->ntr >= SCOPE_TIME_MAX)
		return SCOPE_STR(SCOPE_TIME_MAX) " time steps at most: Esc removes one";
	return NULL;
}

bool
scope_time_push(struct scope *sc, uint64_t start, uint64_t end)
{
	if (scope_time_refusal(sc, start, end) != NULL)
		return false;
	scope_save(sc);
	if (sc->ntr == 0)
		sc->tseq = ++sc->seq;
	sc->tr[sc->ntr].start = start;
	sc->tr[sc->ntr].end = end;
	sc->ntr++;
	snprintf(sc->what, sizeof sc->what, "a time step");
	sc->time_pending = true;
	sc->gen++;
	return true;
}

void
scope_time_set(struct scope *sc, uint64_t start, uint64_t end)
{
	if (sc->ntr >= SCOPE_TIME_MAX)
		return;
	if (sc->ntr == 0)
		sc->tseq = ++sc->seq;
	sc->tr[sc->ntr].start = start;
	sc->tr[sc->ntr].end = end;
	sc->ntr++;
	sc->time_pending = true;
	sc->gen++;
}

void
scope_time_truncate(struct scope *sc, size_t n)
{
	if (n >= sc->ntr)
		return;
	sc->ntr = n;
	sc->time_pending = true;
	sc->gen++;
}

bool
scope_time_range(const struct scope *sc, uint64_t *start, uint64_t *end)
{
	uint64_t s = 0, e = UINT64_MAX;

	for (size_t i = 0; i < sc->ntr; i++) {
		if (sc->tr[i].start > s)
			s = sc->tr[i].start;
		if (sc->tr[i].end < e)
			e = sc->tr[i].end;
	}
	*start = s;
	*end = e;
	return sc->ntr > 0;
}

const char *
scope_time_text(const struct scope *sc, char *buf, size_t n)
{
	uint64_t s, e;
	char a[32], b[32];

	if (n == 0)
		return buf;
	buf[0] = '\0';
	if (scope_time_range(sc, &s, &e))
		snprintf(buf, n, "time %s-%s", text_time_us(a, sizeof a, s),
		    text_time_us(b, sizeof b, e));
	return buf;
}

/* out's cpus: the zoom's among start's (either's when the other has none); its own copy. */
static void
filter_cpus(const struct scope *sc, const struct hist_filter *start, struct hist_filter *out)
{
	size_t ns = start != NULL ? start->ncpus : 0;

	out->cpus = NULL;
	out->ncpus = 0;
	if (sc->ncpus == 0 && ns == 0)
		return;
	out->cpus = xcalloc(sc->ncpus + ns + 1, sizeof *out->cpus);
	if (sc->ncpus == 0) {
		memcpy(out->cpus, start->cpus, ns * sizeof *out->cpus);
		out->ncpus = ns;
		return;
	}
	for (size_t i = 0; i < sc->ncpus; i++) {
		bool in = ns == 0;

		for (size_t j = 0; j < ns && !in; j++)
			in = start->cpus[j] == sc->cpus[i];
		if (in)
			out->cpus[out->ncpus++] = sc->cpus[i];
	}
	if (out->ncpus == 0)	/* no cpu left: one no sample is on */
		out->cpus[out->ncpus++] = UINT32_MAX;
}

/*
 * out's input ranges: those of the file zoom's name (every origin of it)
 * that start takes too, else start's; its own copy.
 */
static void
filter_files(const struct scope *sc, const struct hist_filter *start, struct hist_filter *out)
{
	size_t ns = start != NULL ? start->nflocs : 0;

	out->flocs = NULL;
	out->nflocs = 0;
	if (!sc->by_file || sc->org == NULL) {
		if (ns == 0)
			return;
		out->flocs = xcalloc(ns, sizeof *out->flocs);
		memcpy(out->flocs, start->flocs, ns * sizeof *out->flocs);
		out->nflocs = ns;
		return;
	}
	out->flocs = xcalloc(sc->org->n + 1, sizeof *out->flocs);
	for (size_t i = 0; i < sc->org->n; i++) {
		const struct origin *g = &sc->org->v[i];
		bool in = ns == 0;

		if (strcmp(g->name, sc->org->v[sc->file].name) != 0)
			continue;
		for (size_t j = 0; j < ns && !in; j++)
			in = start->flocs[j].start == g->start && start->flocs[j].end == g->end;
		if (in) {
			out->flocs[out->nflocs].start = g->start;
			out->flocs[out->nflocs++].end = g->end;
		}
	}
	if (out->nflocs == 0) {	/* no input left: bytes no record is at */
		out->flocs[0].start = out->flocs[0].end = UINT64_MAX;
		out->nflocs = 1;
	}
}

/* A copy of n ids, or of the one id when by (the zoom's in place of start's list). */
static int32_t *
ids_copy(const int32_t *v, size_t *n, bool by, int32_t id)
{
	int32_t *c;

	if (by)
		*n = 1;
	if (*n == 0)
		return NULL;
	c = xcalloc(*n, sizeof *c);
	if (by)
		c[0] = id;
	else
		memcpy(c, v, *n * sizeof *c);
	return c;
}

const struct hist_filter *
scope_filter(const struct scope *sc, const struct hist_filter *start, struct hist_filter *out)
{
	uint64_t s, e;
	size_t n = 0;

	memset(out, 0, sizeof *out);
	if (start != NULL)
		*out = *start;
	out->time = NULL;
	out->ntime = 0;
	filter_cpus(sc, start, out);
	filter_files(sc, start, out);
	/* the zoom's process and thread in place of start's lists; every list out's own */
	out->pids = ids_copy(out->pids, &out->npids, scope_zoomed(sc, SZ_PID), sc->sel.pid);
	out->tids = ids_copy(out->tids, &out->ntids, scope_zoomed(sc, SZ_TID), sc->sel.tid);
	if (!scope_time_range(sc, &s, &e)) {
		if ((start == NULL || !filter_active(start)) && !filter_active(out)) {
			scope_filter_free(out);
			return NULL;
		}
		out->time = start && start->ntime ? xcalloc(start->ntime, sizeof *out->time) : NULL;
		if (out->time != NULL)
			memcpy(out->time, start->time, start->ntime * sizeof *out->time);
		out->ntime = start ? start->ntime : 0;
		return out;
	}
	out->time = xcalloc(start && start->ntime ? start->ntime : 1, sizeof *out->time);
	if (start == NULL || start->ntime == 0) {
		out->time[n].start = s;
		out->time[n++].end = e;
	}
	for (size_t i = 0; start != NULL && i < start->ntime; i++) {
		uint64_t a = start->time[i].start > s ? start->time[i].start : s;
		uint64_t b = start->time[i].end && start->time[i].end < e ? start->time[i].end : e;

		if (a <= b) {
			out->time[n].start = a;
			out->time[n++].end = b;
		}
	}
	if (n == 0) {	/* no time left: a range no sample is in */
		out->time[0].start = UINT64_MAX;
		out->time[0].end = UINT64_MAX - 1;
		n = 1;
	}
	out->ntime = n;
	return out;
}

void
scope_filter_named(const struct scope *sc, const struct hist_filter *start, struct hist *h,
    const struct symbolizer *z, struct hist_filter *out)
{
	struct hist_filter tmp;
	const struct hist_filter *f = scope_filter(sc, start, &tmp);

	filter_copy(out, f);
	if (f != NULL)
		scope_filter_free(&tmp);
	if (scope_zoomed(sc, SZ_COMM))
		filter_set_name(&out->comms, &out->ncomms, hist_str(h, sc->sel.comm));
	if (scope_zoomed(sc, SZ_FILE))
		filter_set_name(&out->files, &out->nfiles, scope_file_name(sc));
	if (scope_zoomed(sc, SZ_DSO))
		filter_set_name(&out->dsos, &out->ndsos, sc->sel.dso == DSO_NONE ? "[unknown]" :
		    symbolizer_dso_short(z, sc->sel.dso));
	if (scope_zoomed(sc, SZ_SYM)) {
		const struct hist_node *nd = hist_node_get(h, sc->sel.node);

		filter_set_name(&out->syms, &out->nsyms, nd ? symbolizer_label_name(hist_str(h,
		    nd->label)) : "?");
		free(out->sym_ips);
		out->sym_ips = NULL;
		out->nsym_ips = 0;
	}
}

void
scope_filter_free(struct hist_filter *out)
{
	free(out->time);
	free(out->cpus);
	free(out->flocs);
	free(out->pids);
	free(out->tids);
	memset(out, 0, sizeof *out);
}

void
scope_pick(struct scope *sc, struct cpath *t, uint32_t node)
{
	cpath_free(sc->pick);
	sc->pick = t;
	sc->pick_node = node;
}

void
scope_free(struct scope *sc)
{
	cpath_free(sc->pick);
	sc->pick = NULL;
	free(sc->undo);
	sc->undo = NULL;
	sc->nundo = sc->capundo = 0;
}

bool
scope_step_event(struct scope *sc, const struct hist *h, bool forward, char *msg, size_t n)
{
	size_t nev = hist_nevents(h);

	if (nev <= 1) {
		snprintf(msg, n, "%s", nev ? "one event only" : "no events with samples yet");
		return false;
	}
	scope_set_event(sc, (sc->ev + (forward ? 1 : nev - 1)) % nev);
	snprintf(msg, n, "event %zu of %zu: %s", sc->ev + 1, nev,
	    hist_str(h, hist_event(h, sc->ev)->name));
	return true;
}

bool
scope_set_event(struct scope *sc, size_t ev)
{
	if (ev == sc->ev)
		return false;
	scope_save(sc);
	sc->ev = ev;
	snprintf(sc->what, sizeof sc->what, "event %zu", ev + 1);
	sc->gen++;
	return true;
}

bool
scope_sort_merged(const struct scope_sort *sort)
{
	const unsigned mergeable = HIST_KEEP(HIST_KEY_COMM) | HIST_KEEP(HIST_KEY_PID) |
	    HIST_KEEP(HIST_KEY_TID) | HIST_KEEP(HIST_KEY_DSO) | HIST_KEEP(HIST_KEY_SYM);

	return sort->n == 0 || ((sort->keep & HIST_KEEP(HIST_KEY_SYM)) && !(sort->keep & ~mergeable));
}

const char *
scope_sort_text(const struct scope_sort *sort, char *buf, size_t n)
{
	size_t k = 0;

	if (n == 0)
		return buf;
	buf[0] = '\0';
	for (unsigned i = 0; i < sort->n && k + 1 < n; i++)
		k += (size_t)snprintf(buf + k, n - k, "%s%s", i ? "," : "", hist_key_name(sort->keys[i]));
	return buf;
}

/* Append part to buf (o bytes used of n) after " > " when something is before. */
static size_t
add_part(char *buf, size_t n, size_t o, const char *part)
{
	int w;

	if (part[0] == '\0' || o + 1 >= n)
		return o;
	w = snprintf(buf + o, n - o, "%s%s", o ? " > " : "", part);
	return w < 0 ? o : o + (size_t)w >= n ? n - 1 : o + (size_t)w;
}

/* A part of the title: when it came, and which (a zoom kind, SZ_N: time, SZ_N + 1 + i: xf i). */
struct step_part {
	uint32_t	 seq;
	int		 kind;
};

/* The zoom's, time's and transforms' parts in the order they came (their seq). */
static size_t
steps_text(const struct scope *sc, const struct hist *h, char *buf, size_t n, size_t o)
{
	struct step_part p[SZ_N + 1 + SCOPE_XF_MAX], t;
	size_t np = 0;
	char part[400];

	for (int k = 0; k < SZ_N; k++)
		if (scope_zoomed(sc, (enum scope_zoom_kind)k) && sc->zlabel[k][0] &&
		    !(k == SZ_PID && scope_zoomed(sc, SZ_TID) && sc->zlabel[SZ_TID][0]))
			p[np++] = (struct step_part){ sc->zseq[k], k };	/* a thread names its process */
	if (sc->ntr)
		p[np++] = (struct step_part){ sc->tseq, SZ_N };
	for (size_t i = 0; h != NULL && i < sc->nxf; i++)
		p[np++] = (struct step_part){ sc->xseq[i], SZ_N + 1 + (int)i };
	for (size_t i = 1; i < np; i++)	/* by seq, stable */
		for (size_t j = i; j > 0 && p[j - 1].seq > p[j].seq; j--) {
			t = p[j];
			p[j] = p[j - 1];
			p[j - 1] = t;
		}
	for (size_t i = 0; i < np; i++) {
		if (p[i].kind < SZ_N)
			snprintf(part, sizeof part, "%s", sc->zlabel[p[i].kind]);
		else if (p[i].kind == SZ_N)
			scope_time_text(sc, part, sizeof part);
		else
			scope_xf_step_text(h, &sc->xf[p[i].kind - SZ_N - 1], part, sizeof part);
		o = add_part(buf, n, o, part);
	}
	return o;
}

const char *
scope_text(const struct scope *sc, const struct hist *h, const char *start, char *buf, size_t n)
{
	char part[400];
	size_t o = 0;

	if (n == 0)
		return buf;
	buf[0] = '\0';
	if (h != NULL && hist_nevents(h) > 1 && sc->ev < hist_nevents(h)) {
		snprintf(part, sizeof part, "%s", hist_str(h, hist_event(h, sc->ev)->name));
		o = add_part(buf, n, o, part);
	}
	o = steps_text(sc, h, buf, n, o);
	part[0] = '\0';
	if (sc->hot_sort.n) {
		size_t k = (size_t)snprintf(part, sizeof part, "sort ");

		scope_sort_text(&sc->hot_sort, part + k, sizeof part - k);
	}
	if (sc->hot_callers >= 0) {
		size_t k = strlen(part);

		snprintf(part + k, sizeof part - k, "%s-g %s", k ? ", " : "",
		    sc->hot_callers ? "callee" : "caller");
	}
	if (((start != NULL && start[0]) || part[0]) && o + 1 < n) {
		int w = snprintf(buf + o, n - o, "%s%s%s%s", o ? " | " : "", start ? start : "",
		    start && start[0] && part[0] ? ", " : "", part);

		o = w < 0 ? o : o + (size_t)w >= n ? n - 1 : o + (size_t)w;
	}
	if (o && sc->time_pending && o + 1 < n)
		snprintf(buf + o, n - o, " (pending)");
	return buf;
}
