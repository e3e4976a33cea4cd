#include "config.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/core.h"
#include "symbolize/cpath.h"
#include "symbolize/hist.h"
#include "symbolize/offcpu.h"
#include "symbolize/symbolizer.h"
#include "tui/pane.h"
#include "tui/scope.h"
#include "tui/symbols.h"

/* What every pane shares: the pane table, list-pane views, formatting. */

static const struct pane_ops *const pane_table[PANE_COUNT] = {
#define X(id, ops, key) [PANE_##id] = &ops,
	PANES(X)
#undef X
	[PANE_HELP] = &pane_help_ops,
	[PANE_ANNOTATE] = &pane_annotate_ops,
	[PANE_COUNTERS] = &pane_counters_ops,
	[PANE_WAKERS] = &pane_wakers_ops,
};

int
pane_keys_defaults(struct keys *k, void (*err)(void *arg, int line, const char *msg), void *arg)
{
	int bad = keys_parse(k, keys_default_text, err, arg);

	for (int i = 0; i < PANE_COUNT; i++) {
		const struct pane_ops *o = pane_table[i];
		const char *p = o->keys;
		char line[128];

		while (p != NULL && *p) {
			size_t n = strcspn(p, "\n");

			snprintf(line, sizeof line, "bind %s %.*s\n", o->name, (int)(n < 100 ? n : 100), p);
			bad += keys_parse(k, line, err, arg);
			p += n + (p[n] == '\n');
		}
	}
	return bad;
}

const struct pane_ops *
pane_ops_of(enum pane_id id)
{
	return (unsigned)id < PANE_COUNT ? pane_table[id] : NULL;
}

const char *
pane_tab_key(enum pane_id id)
{
	static const char *const keys[PANE_NTABS] = {
#define X(id, ops, key) [PANE_##id] = key,
		PANES(X)
#undef X
	};

	return (unsigned)id < PANE_NTABS ? keys[id] : "";
}

int
pane_by_name(const char *name)
{
	for (int i = 0; i < PANE_COUNT; i++)
		if (strcmp(pane_table[i]->name, name) == 0)
			return i;
	return -1;
}

int
pane_create(struct pane *p, enum pane_id id, struct session *s, const struct keys *keys)
{
	return pane_create_sym(p, id, s, keys, NULL);
}

int
pane_create_sym(struct pane *p, enum pane_id id, struct session *s, const struct keys *keys,
    struct symbols *sym)
{
	memset(p, 0, sizeof *p);
	p->ops = pane_ops_of(id);
	p->id = id;
	p->s = s;
	p->sym = sym;
	p->keys = keys;
	if (p->ops == NULL)
		return -1;
	if (p->ops->init && p->ops->init(p) < 0)
		return -1;
	return 0;
}

void
pane_destroy(struct pane *p)
{
	if (p->ops && p->ops->free)
		p->ops->free(p);
	if (p->is_list)
		widget_free(&p->w);
	p->priv = NULL;
}

void
pane_list_enter(struct pane *p, const struct nav_view *v)
{
	if (!p->is_list)
		return;
	if (strcmp(p->w.filter, v->filter) != 0)
		widget_set_filter(&p->w, v->filter, NULL, 0);
	if (v->cursor != NAV_NONE)
		widget_goto_key(&p->w, v->cursor);
}

void
pane_list_save(struct pane *p, struct nav_view *v)
{
	if (!p->is_list)
		return;
	snprintf(v->filter, sizeof v->filter, "%s", p->w.filter);
	v->cursor = widget_cursor_key(&p->w);
	if (v->cursor == UINT64_MAX)
		v->cursor = NAV_NONE;
}

const char *
pane_rec_at(const struct session *s, uint64_t loc, char *buf, size_t n)
{
	uint32_t fi = UINT32_MAX;
	char off[32], name[64];
	const char *path, *base;

	text_fmt_offset(off, sizeof off, session_rec_offset(s, loc, &fi));
	if (session_info(s).mode != SESSION_DIR || fi >= session_nfiles(s)) {
		snprintf(buf, n, "%s", off);
		return buf;
	}
	path = session_file(s, fi)->path;
	base = strrchr(path, '/');
	base = base ? base + 1 : path;
	text_escape(name, sizeof name, base, strlen(base), 0);
	snprintf(buf, n, "%s at %s", name, off);
	return buf;
}

int
pane_apply_time(struct pane *p, uint64_t start, uint64_t end)
{
	const char *why = p->sym != NULL ? scope_time_refusal(&p->sym->scope, start, end) :
	    "no samples to scope";
	char a[32], b[32];

	if (why != NULL) {
		snprintf(p->msg, sizeof p->msg, "%s", why);
		return PANE_HANDLED | PANE_MSG;
	}
	/* to the microsecond, as the label and perf script print times: the range
	 * is then the one perf's --time START,END takes with those numbers */
	start -= start % 1000;
	end -= end % 1000;
	if (end < start)
		end = start;
	nav_view_init(&p->push, (int)p->id);
	p->push.target = NAV_T_TIME;
	p->push.arg = start;
	p->push.arg2 = end;
	text_time_us(a, sizeof a, start);
	text_time_us(b, sizeof b, end);
	snprintf(p->push.label, sizeof p->push.label, "time %s-%s", TEXT_CLIP(a, 20), TEXT_CLIP(b, 20));
	return PANE_HANDLED | PANE_PUSH;
}

int
pane_push_annotate(struct pane *p, uint32_t func, size_t ev, unsigned zoom, int32_t pid,
    int32_t tid)
{
	const struct hist *h = p->sym ? p->sym->h : NULL;
	const struct hist_node *nd = h && func != CPATH_NONE ? hist_node_get(h, func) : NULL;

	if (nd == NULL) {
		snprintf(p->msg, sizeof p->msg, "a annotates a function: select one");
		return PANE_HANDLED | PANE_MSG;
	}
	if (nd->f.sym == SYM_NONE) {
		snprintf(p->msg, sizeof p->msg, "%s is no symbol: nothing to disassemble",
		    hist_str(h, nd->label));
		return PANE_HANDLED | PANE_MSG;
	}
	if (symbolizer_sym_inlined(p->sym->z, nd->f.sym)) {
		snprintf(p->msg, sizeof p->msg, "an inlined function: annotate the function it is "
		    "inlined into");
		return PANE_HANDLED | PANE_MSG;
	}
	nav_view_init(&p->push, PANE_ANNOTATE);
	p->push.arg = (uint64_t)zoom << 32 | ev;
	p->push.arg2 = func;
	p->push.arg3 = (uint64_t)(uint32_t)pid << 32 | (uint32_t)tid;
	snprintf(p->push.label, sizeof p->push.label, "annotate %s",
	    TEXT_CLIP(symbolizer_label_name(hist_str(h, nd->label)), 36));
	return PANE_HANDLED | PANE_PUSH;
}

int
pane_push_zoom(struct pane *p, int pane, int kind, int32_t pid, int32_t tid, uint32_t id,
    const char *label)
{
	nav_view_init(&p->push, pane);
	p->push.target = NAV_T_ZOOM;
	p->push.arg = (uint64_t)kind;
	p->push.arg2 = (uint64_t)(uint32_t)pid << 32 | (uint32_t)tid;
	p->push.arg3 = id;
	snprintf(p->push.label, sizeof p->push.label, "%s", label);
	return PANE_HANDLED | PANE_PUSH;
}

int
pane_push_annotate_scope(struct pane *p, uint32_t func)
{
	const struct scope *sc;
	unsigned zoom = 0;

	if (p->sym == NULL)
		return pane_push_annotate(p, CPATH_NONE, 0, 0, 0, 0);
	sc = &p->sym->scope;
	if (sc->zoomed && sc->sel.by_tid)
		zoom = NAV_HOT_TID;
	else if (sc->zoomed && sc->sel.by_pid)
		zoom = NAV_HOT_PID;
	return pane_push_annotate(p, func, sc->ev, zoom, sc->sel.pid, sc->sel.tid);
}

/*
 * The scope's pick: node of t (a pane's tree) found again in a tree of the
 * same query, which the scope keeps (scope_pick).  False (the message in
 * p->msg, what names the caller) when it is not there.
 */
static bool
pick_frame(struct pane *p, const struct cpath *t, uint32_t node, const char *what)
{
	struct symbols *sy = p->sym;
	struct cpath_query q;
	struct cpath *pick;
	uint32_t *path, at;
	size_t d;

	/* The same query gives the same tree; the scope keeps this copy for frame:N. */
	scope_query(&sy->scope, cpath_bottom_up(t), &q);
	pick = cpath_build(sy->h, &q);
	d = cpath_node(t, node)->depth;
	path = xreallocarray(NULL, d + 1, sizeof *path);
	cpath_path(t, node, path, d);
	at = cpath_find(pick, path, d);
	free(path);
	if (at == CPATH_NONE) {
		cpath_free(pick);
		snprintf(p->msg, sizeof p->msg, "%s: not found (the tree changed)", what);
		return false;
	}
	scope_pick(&sy->scope, pick, at);
	return true;
}

int
pane_push_samples_through(struct pane *p, const struct cpath *t, uint32_t node, const char *name)
{
	struct symbols *sy = p->sym;
	const struct hist_event *he;
	uint32_t at;

	if (sy == NULL || t == NULL || node == 0 || node >= cpath_count(t)) {
		snprintf(p->msg, sizeof p->msg, "v lists the samples through a frame: select one");
		return PANE_HANDLED | PANE_MSG;
	}
	he = hist_event(sy->h, sy->scope.ev);
	if (!sy->done || he == NULL) {
		snprintf(p->msg, sizeof p->msg, "the samples through a frame: when symbols are "
		    "resolved (%.0f%% now)", 100 * symbols_progress(sy));
		return PANE_HANDLED | PANE_MSG;
	}
	if (!pick_frame(p, t, node, "the frame's samples"))
		return PANE_HANDLED | PANE_MSG;
	at = sy->scope.pick_node;
	nav_view_init(&p->push, PANE_EVENTS);
	snprintf(p->push.filter, sizeof p->push.filter, "type:SAMPLE event:#%d frame:%" PRIu32,
	    he->attr + 1, at);
	snprintf(p->push.label, sizeof p->push.label, "samples through %s", TEXT_CLIP(name, 28));
	return PANE_HANDLED | PANE_PUSH;
}

const char *
pane_wakers_why(const struct symbols *sy)
{
	const struct offcpu *oc = sy != NULL ? symbols_offcpu(sy) : NULL;

	if (oc == NULL)
		return "W lists who woke an off-CPU function: this recording has no off-CPU time "
		       "(or symbols are not resolved yet)";
	if (!symbols_event_offcpu(sy, sy->scope.ev))
		return "W lists who woke a function of the off-cpu event: } or { to it";
	if (!oc->has_wakeups)
		return "no wakeups in this recording: record sched:sched_waking with the switches "
		       "(perf record -e sched:sched_switch -e sched:sched_waking -g -a)";
	return NULL;
}

int
pane_push_wakers_through(struct pane *p, const struct cpath *t, uint32_t node, const char *name)
{
	struct symbols *sy = p->sym;
	const char *why = pane_wakers_why(sy);

	if (why != NULL || t == NULL || node == 0 || node >= cpath_count(t)) {
		snprintf(p->msg, sizeof p->msg, "%s", why != NULL ? why :
		    "W lists who woke a frame: select one");
		return PANE_HANDLED | PANE_MSG;
	}
	if (!pick_frame(p, t, node, "the frame's wakers"))
		return PANE_HANDLED | PANE_MSG;
	nav_view_init(&p->push, PANE_WAKERS);
	p->push.arg = sy->scope.ev;
	p->push.arg2 = cpath_func_node(sy->h, cpath_node(t, node)->func);
	p->push.arg3 = 1;	/* a frame: the scope's pick */
	snprintf(p->push.label, sizeof p->push.label, "wakers of %s (frame)", TEXT_CLIP(name, 28));
	return PANE_HANDLED | PANE_PUSH;
}
