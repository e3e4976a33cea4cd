#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/core.h"

#include "core/text.h"
#include "tui/scope.h"

/* scope.c: the scope's call-path query, and its transforms pushed, undone and named. */

void
scope_query(const struct scope *sc, bool bottom_up, struct cpath_query *q)
{
	memset(q, 0, sizeof *q);
	q->ev = sc->ev;
	q->sel = sc->zoomed ? &sc->sel : NULL;
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
	sc->xf[sc->nxf].op = op;
	sc->xf[sc->nxf].func = op == CPATH_NORECURSE ? CPATH_NONE : func;
	sc->nxf++;
	sc->gen++;
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

	/* outside the scope: the intersection would be empty */
	if (end < start || (scope_time_range(sc, &s, &e) && (start > e || end < s)))
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
	sc->tr[sc->ntr].start = start;
	sc->tr[sc->ntr].end = end;
	sc->ntr++;
	sc->time_pending = true;
	sc->gen++;
	return true;
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
	if (!scope_time_range(sc, &s, &e)) {
		if (start == NULL || !filter_active(start))
			return NULL;
		out->time = start->ntime ? xcalloc(start->ntime, sizeof *out->time) : NULL;
		memcpy(out->time, start->time, start->ntime * sizeof *out->time);
		out->ntime = start->ntime;
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
scope_filter_free(struct hist_filter *out)
{
	free(out->time);
	out->time = NULL;
	out->ntime = 0;
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
}

bool
scope_step_event(struct scope *sc, const struct hist *h, bool forward, char *msg, size_t n)
{
	size_t nev = hist_nevents(h);

	if (nev <= 1) {
		snprintf(msg, n, "%s", nev ? "one event only" : "no events with samples yet");
		return false;
	}
	sc->ev = (sc->ev + (forward ? 1 : nev - 1)) % nev;
	sc->gen++;
	snprintf(msg, n, "event %zu of %zu: %s", sc->ev + 1, nev,
	    hist_str(h, hist_event(h, sc->ev)->name));
	return true;
}
