#include "config.h"

#ifndef NCURSES_WIDECHAR
#define NCURSES_WIDECHAR 1
#endif

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <curses.h>

#include "core/core.h"
#include "symbolize/annotate.h"
#include "symbolize/hist.h"
#include "symbolize/resolve.h"
#include "tui/pane.h"
#include "tui/symbols.h"

/*
 * The annotate view (a on a symbol in the hot functions): the function's
 * instructions with the share of its samples at each, its source lines
 * between them, like perf annotate.  Opened on the hottest instruction.
 *
 * The view's target names the function node and event of the app's hist
 * (and optionally one process or thread): the samples are those whose own
 * entry (record_self) is that function, so finding them is a scan of a
 * 4-byte array, and only they are decoded and resolved again for their
 * exact address.  The disassembly comes from objdump over the DSO's file
 * (symbolize/annotate.h); without one, the rows are the sampled addresses.
 * While symbols are still being resolved, it counts the samples resolved
 * so far and says so.
 */

enum { A_PCT, A_SAMPLES, A_ADDR, A_TEXT, A_N };

static const struct column annot_cols[A_N] = {
	[A_PCT] = { "Percent", 8, COL_RIGHT | COL_NUM },
	[A_SAMPLES] = { "Samples", 9, COL_RIGHT | COL_NUM },
	[A_ADDR] = { "Address", 16, COL_RIGHT },	/* a kernel address whole */
	[A_TEXT] = { "Instruction / source line", 20, COL_FLEX },
};

struct annot_view {
	struct annotation	*an;
	uint64_t		 arg, arg2, arg3;	/* the target shown */
	bool			 partial;		/* symbols were not done */
	/* the want filter */
	const struct hist	*h;
	uint32_t		 node;
	int32_t			 pid, tid;
	bool			 by_pid, by_tid;
	int			 attr;			/* the event's */
	char			 title[600];
};

static bool
want_sample(void *arg, size_t pos)
{
	struct annot_view *av = arg;
	uint32_t id = hist_sample_entry(av->h, pos);
	const struct hist_entry *e;

	if (id == UINT32_MAX)
		return false;
	e = hist_entry_get(av->h, id);
	if (e == NULL || e->node != av->node)
		return false;
	if (av->by_tid && e->tid != av->tid)
		return false;
	if (av->by_pid && e->pid != av->pid)
		return false;
	return true;
}

static size_t
annot_nrows(struct pane *p)
{
	struct annot_view *av = p->priv;

	return av->an ? av->an->nrows : 0;
}

static int
hot_el(double pct)
{
	return pct >= 5 ? EL_HOT_HIGH : pct >= 0.5 ? EL_HOT_MID : pct > 0 ? EL_HOT_LOW : EL_DIM;
}

static void
annot_row(struct pane *p, size_t idx, struct row *r)
{
	struct annot_view *av = p->priv;
	const struct annotation *an = av->an;
	const struct annot_row *ar = &an->rows[idx];
	double pct = an->period ? 100.0 * (double)ar->period / (double)an->period : 0;

	r->key = idx;
	r->have_key = true;
	if (ar->kind == ANNOT_SRC) {
		row_set(r, A_TEXT, EL_FIELD_NAME, "%s", annotate_row_text(an, ar));
		return;
	}
	row_set(r, A_PCT, hot_el(pct), "%.2f%%", pct);
	row_set(r, A_SAMPLES, ar->samples ? 0 : EL_DIM, "%" PRIu64, ar->samples);
	row_set(r, A_ADDR, EL_HEX_OFFSET, "%" PRIx64, ar->vaddr);
	if (ar->kind == ANNOT_ADDR)
		row_set(r, A_TEXT, EL_DIM, "(no disassembly)");
	else
		row_set(r, A_TEXT, ar->samples ? 0 : EL_DIM, "%s", annotate_row_text(an, ar));
}

static int
annot_init(struct pane *p)
{
	p->priv = xcalloc(1, sizeof(struct annot_view));
	p->cols = annot_cols;
	p->ncols = A_N;
	p->is_list = true;
	widget_init(&p->w, p, false);
	return 0;
}

static void
annot_free(struct pane *p)
{
	struct annot_view *av = p->priv;

	if (av == NULL)
		return;
	annotate_free(av->an);
	free(av);
}

/* Build the annotation of the view's target. */
static void
build(struct pane *p, const struct nav_view *v)
{
	struct annot_view *av = p->priv;
	struct symbols *sy = p->sym;
	const struct hist_node *nd;
	const struct hist_event *he;
	const char *why = NULL;
	size_t ev = (size_t)(v->arg & 0xffffffff);
	unsigned flags = (unsigned)(v->arg >> 32);
	struct hist_filter f;

	annotate_free(av->an);
	av->an = NULL;
	av->title[0] = '\0';
	av->arg = v->arg;
	av->arg2 = v->arg2;
	av->arg3 = v->arg3;
	if (sy == NULL || ev >= hist_nevents(sy->h) ||
	    (nd = hist_node_get(sy->h, (uint32_t)v->arg2)) == NULL) {
		snprintf(av->title, sizeof av->title, "nothing to annotate");
		return;
	}
	he = hist_event(sy->h, ev);
	av->attr = he->attr;
	av->an = annotate_new(sy->z, nd->f.sym, &why);
	if (av->an == NULL) {
		snprintf(av->title, sizeof av->title, "%s", why);
		return;
	}
	av->h = sy->h;
	av->node = (uint32_t)v->arg2;
	av->by_pid = flags & NAV_HOT_PID;
	av->by_tid = flags & NAV_HOT_TID;
	av->pid = (int32_t)(v->arg3 >> 32);
	av->tid = (int32_t)(v->arg3 & 0xffffffff);
	av->partial = !sy->done;
	annotate_collect_filter(av->an, sy->s, he->attr, 0, sy->pos,
	    scope_filter(&sy->scope, sy->start, &f), want_sample, av);
	scope_filter_free(&f);
	annotate_build(av->an, NULL);
	snprintf(av->title, sizeof av->title, "%s in %s, %s: %" PRIu64 " samples%s%s%s%s",
	    symbolizer_sym_name(sy->z, av->an->sym), symbolizer_dso_short(sy->z, av->an->dso),
	    hist_str(sy->h, he->name), av->an->samples,
	    av->by_tid ? " of one thread" : av->by_pid ? " of one process" : "",
	    av->partial ? " (resolved so far)" : "", av->an->note[0] ? "; " : "", av->an->note);
}

static void
annot_enter(struct pane *p, const struct nav_view *v)
{
	struct annot_view *av = p->priv;
	bool rebuilt = false;

	if (av->an == NULL || v->arg != av->arg || v->arg2 != av->arg2 || v->arg3 != av->arg3 ||
	    av->partial) {
		build(p, v);
		widget_reload(&p->w);
		rebuilt = true;
	}
	/* the view's filter (none for a function just opened) and cursor */
	pane_list_enter(p, v);
	if (rebuilt && av->an != NULL && av->an->hottest != SIZE_MAX && v->cursor == NAV_NONE)
		widget_goto_key(&p->w, av->an->hottest);
}

/* Enter on an instruction: its samples as an event list. */
static int
samples_at(struct pane *p, const struct annot_row *r)
{
	struct annot_view *av = p->priv;
	int k;

	if (r->samples == 0) {
		snprintf(p->msg, sizeof p->msg, "no samples at %" PRIx64 " (n/N: the next / previous "
		    "instruction with samples)", r->vaddr);
		return PANE_HANDLED | PANE_MSG;
	}
	/* the events list takes sym: once symbols are resolved (pane_events.c) */
	if (p->sym == NULL || !p->sym->done) {
		snprintf(p->msg, sizeof p->msg, "the samples at an instruction: when symbols are "
		    "resolved (%.0f%% now)", p->sym ? 100 * symbols_progress(p->sym) : 0.0);
		return PANE_HANDLED | PANE_MSG;
	}
	nav_view_init(&p->push, PANE_EVENTS);
	/* the event counted (its attr: names may repeat) */
	k = snprintf(p->push.filter, sizeof p->push.filter, "type:SAMPLE");
	if (av->attr >= 0)
		k += snprintf(p->push.filter + k, sizeof p->push.filter - (size_t)k, " event:#%d",
		    av->attr + 1);
	if (av->by_tid)
		k += snprintf(p->push.filter + k, sizeof p->push.filter - (size_t)k, " tid:%" PRId32,
		    av->tid);
	else if (av->by_pid)
		k += snprintf(p->push.filter + k, sizeof p->push.filter - (size_t)k, " pid:%" PRId32,
		    av->pid);
	snprintf(p->push.filter + k, sizeof p->push.filter - (size_t)k,
	    " symoff:%#" PRIx64 " sym:#%" PRIu32, r->rel - av->an->start, av->node);
	snprintf(p->push.label, sizeof p->push.label, "samples at %" PRIx64, r->vaddr);
	return PANE_HANDLED | PANE_PUSH;
}

static int
annot_key(struct pane *p, enum action a)
{
	struct annot_view *av = p->priv;
	size_t cur, n;

	if (av->an == NULL)
		return PANE_IGNORED;
	switch (a) {
	case ACT_ENTER:
		cur = widget_cursor_row(&p->w);
		if (cur != WIDGET_NONE && cur < av->an->nrows &&
		    av->an->rows[cur].kind != ANNOT_SRC)
			return samples_at(p, &av->an->rows[cur]);
		/* a source row: the next instruction with samples */
		/* FALLTHROUGH */
	case ACT_NEXT_HOT:
	case ACT_PREV_HOT:
		/* with a search: its next / previous match, as n and N elsewhere */
		if (a != ACT_ENTER && p->w.search[0] != '\0') {
			if (widget_search(&p->w, p->w.search, a == ACT_PREV_HOT ? -1 : 1, true))
				return PANE_HANDLED;
			snprintf(p->msg, sizeof p->msg, "no other match for '%s'", p->w.search);
			return PANE_HANDLED | PANE_MSG;
		}
		cur = widget_cursor_row(&p->w);
		n = av->an->nrows;
		if (cur == WIDGET_NONE || n == 0)
			return PANE_HANDLED;
		for (size_t k = 1; k < n; k++) {
			size_t i = a == ACT_PREV_HOT ? (cur + n - k) % n : (cur + k) % n;

			if (av->an->rows[i].samples > 0) {
				widget_goto_key(&p->w, i);
				break;
			}
		}
		return PANE_HANDLED;
	case ACT_ANNOTATE:
		return PANE_HANDLED | PANE_BACK;
	default:
		return PANE_IGNORED;
	}
}

static void
annot_draw(struct pane *p, const struct pane_canvas *c)
{
	struct annot_view *av = p->priv;
	WINDOW *win = c->win;
	struct pane_canvas lc = *c;

	lc.h = c->h - 1;
	widget_draw(&p->w, &lc);
	if ((av->an == NULL || av->an->nrows == 0) && c->h > 4) {
		wattrset(win, (attr_t)c->ta->a[EL_DIM]);
		text_put(win, c->y + 2, c->x + 2, c->w - 4, av->an == NULL ? av->title :
		    "no samples of this function yet");
	}
	wattrset(win, (attr_t)c->ta->a[EL_COLUMN_HEADER]);
	mvwhline(win, c->y + c->h - 1, c->x, ' ', c->w);
	text_put(win, c->y + c->h - 1, c->x + 1, c->w - 1, av->title);
}

static const char *
annot_hint(struct pane *p)
{
	(void)p;
	return "Enter:samples here  n/N:next/prev hot instruction  /:search  Esc:back";
}

const struct pane_ops pane_annotate_ops = {
	.name = "annotate",
	.title = "Annotate",
	.init = annot_init,
	.free = annot_free,
	.draw = annot_draw,
	.key = annot_key,
	.nrows = annot_nrows,
	.row = annot_row,
	.enter = annot_enter,
	.save = pane_list_save,
	.help = annot_hint,
};
