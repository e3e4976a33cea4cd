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
#include "symbolize/symbolizer.h"
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
 *
 * Navigating as perf annotate's TUI: Enter on a direct call opens the
 * callee's annotate view (a new view: Esc comes back to the call), on a
 * jump inside the function moves to its target line, as a history step
 * of its own (a view of this function with the cursor there), so Esc or
 * Backspace returns to the jump; a jump out of the function (a tail call)
 * opens the function it lands in.  The selected jump's arrow is drawn in
 * the narrow column left of the instructions (ASCII without a UTF-8
 * locale), and every other jump inside the function says there which way
 * its target lies (perf annotate's up and down arrows).  v lists the samples of the line, H goes to the hottest line,
 * s cycles the rows shown: source and instructions, source lines only
 * (each once, with the samples of all its instructions), instructions
 * only.  e asks the app (PANE_EDIT, p->edit_path and p->edit_line) to
 * open the selected line's source file in $EDITOR: the pane never touches
 * the terminal.  Row keys are the annotation's row numbers in every mode.
 */

enum { A_PCT, A_SAMPLES, A_ADDR, A_ARROW, A_TEXT, A_N };

static const struct column annot_cols[A_N] = {
	[A_PCT] = { "Percent", 8, COL_RIGHT | COL_NUM },
	[A_SAMPLES] = { "Samples", 9, COL_RIGHT | COL_NUM },
	[A_ADDR] = { "Address", 16, COL_RIGHT },	/* a kernel address whole */
	[A_ARROW] = { "", 2, COL_NOSORT },		/* the selected jump's arrow; other jumps' way */
	[A_TEXT] = { "Instruction / source line", 20, COL_FLEX },
};

/*
 * Diff mode (perfnav OLD NEW): when the function is in both recordings,
 * Baseline (OLD), New and Delta per row, as percents of the function's
 * samples in each recording (A: periods): instructions paired by offset
 * when both come from one build, else source lines by file and line
 * (annotate_pair), the instructions then with the shown recording's only.
 */
enum { AD_BASE, AD_NEW, AD_DELTA, AD_ADDR, AD_ARROW, AD_TEXT, AD_N };

static const struct column annot_diff_cols[AD_N] = {
	[AD_BASE] = { "Baseline", 9, COL_RIGHT | COL_NUM },
	[AD_NEW] = { "New", 9, COL_RIGHT | COL_NUM },
	[AD_DELTA] = { "Delta", 9, COL_RIGHT | COL_NUM },
	[AD_ADDR] = { "Address", 16, COL_RIGHT },
	[AD_ARROW] = { "", 2, COL_NOSORT },
	[AD_TEXT] = { "Instruction / source line", 20, COL_FLEX },
};

static const char *const mode_names[ANNOT_MODE_N] = {
	[ANNOT_MODE_BOTH] = "source and instructions",
	[ANNOT_MODE_SOURCE] = "source lines only",
	[ANNOT_MODE_ASM] = "instructions only",
};

struct annot_view {
	struct annotation	*an;
	enum annot_mode		 mode;
	uint32_t		*vis;			/* the rows the mode shows */
	size_t			 nvis;
	uint64_t		 arg, arg2, arg3;	/* the target shown */
	bool			 partial;		/* symbols were not done */
	/* the want filter */
	const struct hist	*h;
	uint32_t		 node;
	int32_t			 pid, tid;
	bool			 by_pid, by_tid;
	int			 attr;			/* the event's */
	bool			 pair_pending;		/* diff: the other not resolved yet */
	char			*name;			/* the function's, whole */
	char			 title[600];		/* after the name: " in DSO, event: ..." */
	char			 more[400];		/* after that: notes, cut first */
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

	return av->an ? av->nvis : 0;
}

/* The rows of the view's mode, again. */
static void
relist(struct annot_view *av)
{
	free(av->vis);
	av->vis = NULL;
	av->nvis = 0;
	if (av->an == NULL)
		return;
	av->vis = xreallocarray(NULL, av->an->nrows + 1, sizeof *av->vis);
	av->nvis = annotate_visible(av->an, av->mode, av->vis);
}

/* The annotation's row under the cursor, SIZE_MAX if none. */
static size_t
cursor_row(struct pane *p)
{
	struct annot_view *av = p->priv;
	size_t cur = widget_cursor_row(&p->w);

	return av->an != NULL && cur != WIDGET_NONE && cur < av->nvis ? av->vis[cur] : SIZE_MAX;
}

/* pane_ops.find: the position of annotation row key among the rows shown. */
static size_t
annot_find(struct pane *p, uint64_t key)
{
	struct annot_view *av = p->priv;
	size_t lo = 0, hi = av->nvis;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (av->vis[mid] < key)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < av->nvis && av->vis[lo] == key ? lo : WIDGET_NONE;
}

static const char *
arrow_text(enum annot_arrow ar)
{
	static const char *const utf8[] = {
		[ANNOT_AR_FROM_DOWN] = "\u250c\u2500", [ANNOT_AR_FROM_UP] = "\u2514\u2500",
		[ANNOT_AR_TO_DOWN] = "\u2514>", [ANNOT_AR_TO_UP] = "\u250c>",
		[ANNOT_AR_PASS] = "\u2502",
	};
	static const char *const ascii[] = {
		[ANNOT_AR_FROM_DOWN] = "+-", [ANNOT_AR_FROM_UP] = "+-",
		[ANNOT_AR_TO_DOWN] = "+>", [ANNOT_AR_TO_UP] = "+>", [ANNOT_AR_PASS] = "|",
	};

	if (ar == ANNOT_AR_NONE)
		return NULL;
	return text_utf8() ? utf8[ar] : ascii[ar];
}

/* A jump inside the function that is not the selected one: which way its target lies. */
static const char *
jump_mark(const struct annot_row *ar, size_t i)
{
	if (ar->branch != ANNOT_BR_JUMP || !ar->has_target || ar->target_row == ANNOT_ROW_NONE ||
	    ar->target_row == i)
		return NULL;
	if (ar->target_row > i)
		return text_utf8() ? "\u2193" : "v";	/* down */
	return text_utf8() ? "\u2191" : "^";		/* up */
}

static int
hot_el(double pct)
{
	return pct >= 5 ? EL_HOT_HIGH : pct >= 0.5 ? EL_HOT_MID : pct > 0 ? EL_HOT_LOW : EL_DIM;
}

/* One side's number of a diff row: a percent of its function's period, or the period. */
static double
side_value(bool abs, uint64_t period, uint64_t total)
{
	if (abs)
		return (double)period;
	return total ? 100.0 * (double)period / (double)total : 0;
}

static void
set_num(struct row *r, int col, int el, bool abs, bool sign, double v)
{
	if (abs)
		row_set(r, col, el, sign ? "%+.0f" : "%.0f", v);
	else
		row_set(r, col, el, sign ? "%+.2f%%" : "%.2f%%", v);
}

static void
diff_row(struct pane *p, size_t i, const char *arrow, struct row *r)
{
	struct annot_view *av = p->priv;
	const struct annotation *an = av->an;
	const struct annot_row *ar = &an->rows[i];
	bool abs = p->sym->diff_abs, old_shown = p->sym->role == 0;
	bool pair = annotate_row_paired(an, av->mode, i);
	uint64_t own = ar->kind == ANNOT_SRC && pair ? an->rows[ar->line_first].line_period :
	    annotate_row_period(an, av->mode, i);
	double mine = side_value(abs, own, an->period);
	double theirs = side_value(abs, annotate_row_pair_period(an, av->mode, i), an->pair_period);
	double base = old_shown ? mine : theirs, new = old_shown ? theirs : mine;

	if (arrow != NULL)
		row_set(r, AD_ARROW, EL_HOT_HIGH, "%s", arrow);
	if (ar->kind != ANNOT_SRC || pair) {
		if (pair || old_shown)
			set_num(r, AD_BASE, abs ? 0 : hot_el(base), abs, false, base);
		if (pair || !old_shown)
			set_num(r, AD_NEW, abs ? 0 : hot_el(new), abs, false, new);
		if (pair)
			set_num(r, AD_DELTA, new > base ? EL_DIFF_GREW : new < base ? EL_DIFF_SHRANK :
			    EL_DIM, abs, true, new - base);
	}
	if (ar->kind == ANNOT_SRC) {
		row_set(r, AD_TEXT, EL_FIELD_NAME, "%s", annotate_row_text(an, ar));
		return;
	}
	row_set(r, AD_ADDR, EL_HEX_OFFSET, "%" PRIx64, ar->vaddr);
	row_set(r, AD_TEXT, ar->samples ? 0 : EL_DIM, "%s", annotate_row_text(an, ar));
}

static void
annot_row(struct pane *p, size_t idx, struct row *r)
{
	struct annot_view *av = p->priv;
	const struct annotation *an = av->an;
	size_t i = av->vis[idx];
	const struct annot_row *ar = &an->rows[i];
	uint64_t samples = annotate_row_samples(an, av->mode, i);
	uint64_t period = annotate_row_period(an, av->mode, i);
	double pct = an->period ? 100.0 * (double)period / (double)an->period : 0;
	const char *arrow = arrow_text(annotate_arrow(an, cursor_row(p), i));

	r->key = i;
	r->have_key = true;
	if (an->paired) {
		diff_row(p, i, arrow, r);
		return;
	}
	if (arrow != NULL)
		row_set(r, A_ARROW, EL_HOT_HIGH, "%s", arrow);
	else if (jump_mark(ar, i) != NULL)	/* every other jump inside: its direction, as perf's */
		row_set(r, A_ARROW, EL_DIM, "%s", jump_mark(ar, i));
	if (ar->kind == ANNOT_SRC) {
		if (av->mode == ANNOT_MODE_SOURCE) {
			row_set(r, A_PCT, hot_el(pct), "%.2f%%", pct);
			row_set(r, A_SAMPLES, samples ? 0 : EL_DIM, "%" PRIu64, samples);
		}
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
	free(av->vis);
	free(av->name);
	free(av);
}

/*
 * Diff mode: the same function in the other recording (paired by name, its
 * event by name, no zoom: processes do not pair), credited to av->an's rows.
 * Returns what the title says about it.
 */
static const char *
build_pair(struct annot_view *av, struct symbols *sy, size_t ev)
{
	struct symbols *o = sy->pair;
	const struct hist_node *nd;
	struct annotation *other;
	struct annot_view tmp;
	struct hist_filter f;
	uint32_t onode;
	int oev;

	av->pair_pending = false;
	if (o == NULL)
		return "";
	if (symbols_pair_waiting(sy)) {
		av->pair_pending = true;
		return "; the other recording once its symbols are in";
	}
	onode = av->node != UINT32_MAX ? symbols_pair_func(sy, av->node) : CPATH_NONE;
	oev = symbols_pair_event(sy, ev);
	if (onode == CPATH_NONE || oev < 0 || (nd = hist_node_get(o->h, onode)) == NULL ||
	    (other = annotate_new(o->z, nd->f.sym, NULL)) == NULL)
		return sy->role == 0 ? "; not in NEW" : "; not in OLD";
	memset(&tmp, 0, sizeof tmp);
	tmp.h = o->h;
	tmp.node = onode;
	annotate_collect_filter(other, o->s, hist_event(o->h, (size_t)oev)->attr, 0, o->pos,
	    scope_filter(&o->scope, o->start, &f), want_sample, &tmp);
	scope_filter_free(&f);
	annotate_build(other, NULL);
	annotate_pair(av->an, other, annotate_same_build(av->an, other));
	annotate_free(other);
	return av->an->pair_by_offset ? "; OLD and NEW paired by offset (one build)" :
	    "; OLD and NEW paired by source line (two builds)";
}

/* Build the annotation of the view's target. */
static void
build(struct pane *p, const struct nav_view *v)
{
	struct annot_view *av = p->priv;
	struct symbols *sy = p->sym;
	const struct hist_node *nd;
	const struct hist_event *he;
	const char *why = NULL, *pair;
	size_t ev = (size_t)(v->arg & 0xffffffff);
	unsigned flags = (unsigned)(v->arg >> 32);
	struct hist_filter f;

	annotate_free(av->an);
	av->an = NULL;
	free(av->name);
	av->name = NULL;
	av->title[0] = av->more[0] = '\0';
	av->arg = v->arg;
	av->arg2 = v->arg2;
	av->arg3 = v->arg3;
	nd = sy != NULL && !(flags & NAV_ANNOT_SYM) ? hist_node_get(sy->h, (uint32_t)v->arg2) : NULL;
	if (sy == NULL || ev >= hist_nevents(sy->h) || (nd == NULL && !(flags & NAV_ANNOT_SYM))) {
		snprintf(av->title, sizeof av->title, "nothing to annotate");
		return;
	}
	he = hist_event(sy->h, ev);
	av->attr = he->attr;
	av->an = annotate_new(sy->z, nd != NULL ? nd->f.sym : (uint32_t)v->arg2, &why);
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
	/* a function with no node has no samples of its own: nothing to collect */
	if (nd != NULL) {
		annotate_collect_filter(av->an, sy->s, he->attr, 0, sy->pos,
		    scope_filter(&sy->scope, sy->start, &f), want_sample, av);
		scope_filter_free(&f);
	} else {
		av->node = UINT32_MAX;
	}
	annotate_build(av->an, NULL);
	pair = build_pair(av, sy, ev);
	av->name = xstrdup(symbolizer_sym_name(sy->z, av->an->sym));
	snprintf(av->title, sizeof av->title, " in %s, %s: %" PRIu64 " sample%s%s%s",
	    symbolizer_dso_short(sy->z, av->an->dso),
	    hist_str(sy->h, he->name), av->an->samples, plural(av->an->samples),
	    av->by_tid ? " of one thread" : av->by_pid ? " of one process" : "",
	    av->partial ? " (resolved so far)" : "");
	snprintf(av->more, sizeof av->more, "%s%s%s", av->an->note[0] ? "; " : "", av->an->note, pair);
}

static void
annot_enter(struct pane *p, const struct nav_view *v)
{
	struct annot_view *av = p->priv;
	bool rebuilt = false;

	if (av->an == NULL || v->arg != av->arg || v->arg2 != av->arg2 || v->arg3 != av->arg3 ||
	    av->partial || av->pair_pending) {
		build(p, v);
		relist(av);
		p->cols = av->an != NULL && av->an->paired ? annot_diff_cols : annot_cols;
		p->ncols = av->an != NULL && av->an->paired ? AD_N : A_N;
		widget_reload(&p->w);
		rebuilt = true;
	}
	/* the view's filter (none for a function just opened) and cursor */
	pane_list_enter(p, v);
	if (rebuilt && av->an != NULL && v->cursor == NAV_NONE &&
	    annotate_hottest(av->an, av->mode) != SIZE_MAX)
		widget_goto_key(&p->w, annotate_hottest(av->an, av->mode));
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

/* The next (dir 1) or previous (-1) row shown with samples, from the cursor round. */
static int
next_hot(struct pane *p, int dir)
{
	struct annot_view *av = p->priv;
	size_t cur = widget_cursor_row(&p->w), n = av->nvis;

	if (cur == WIDGET_NONE || n == 0)
		return PANE_HANDLED;
	for (size_t k = 1; k < n; k++) {
		size_t i = dir < 0 ? (cur + n - k) % n : (cur + k) % n;

		if (annotate_row_samples(av->an, av->mode, av->vis[i]) > 0) {
			widget_goto_key(&p->w, av->vis[i]);
			break;
		}
	}
	return PANE_HANDLED;
}

/* Enter on a call or a jump out of the function: the annotate view of the function it lands in. */
static int
open_callee(struct pane *p, size_t row)
{
	struct annot_view *av = p->priv;
	const struct annot_row *r = &av->an->rows[row];
	uint32_t sym = annotate_callee(av->an, row), node = UINT32_MAX;
	const struct hist *h = p->sym->h;

	if (sym == SYM_NONE) {
		snprintf(p->msg, sizeof p->msg, "%" PRIx64 " is in no function perfnav knows (a PLT "
		    "slot, or no symbol there)", r->target + av->an->bias);
		return PANE_HANDLED | PANE_MSG;
	}
	for (size_t i = 0; i < hist_nnodes(h) && node == UINT32_MAX; i++) {
		const struct hist_node *nd = hist_node_get(h, (uint32_t)i);

		if (nd != NULL && nd->f.sym == sym && nd->f.dso == av->an->dso)
			node = (uint32_t)i;
	}
	nav_view_init(&p->push, PANE_ANNOTATE);
	p->push.arg = av->arg & ~((uint64_t)NAV_ANNOT_SYM << 32);
	if (node == UINT32_MAX)
		p->push.arg |= (uint64_t)NAV_ANNOT_SYM << 32;
	p->push.arg2 = node != UINT32_MAX ? node : sym;
	p->push.arg3 = av->arg3;
	snprintf(p->push.label, sizeof p->push.label, "annotate %.36s",
	    symbolizer_sym_name(p->sym->z, sym));
	return PANE_HANDLED | PANE_PUSH;
}

/*
 * Enter on a branch: a jump inside the function moves to its target as a
 * view of its own (Esc: back on the jump); a call or a jump out opens the
 * function it goes to.  PANE_IGNORED for anything else.
 */
static int
follow_branch(struct pane *p, size_t row)
{
	struct annot_view *av = p->priv;
	const struct annot_row *r = &av->an->rows[row];

	if (r->kind != ANNOT_INSN || r->branch == ANNOT_BR_NONE)
		return PANE_IGNORED;
	if (!r->has_target) {
		snprintf(p->msg, sizeof p->msg, "an indirect %s: its target is not in the code (v: "
		    "the samples here)", r->branch == ANNOT_BR_CALL ? "call" : "jump");
		return PANE_HANDLED | PANE_MSG;
	}
	if (r->target_row == ANNOT_ROW_NONE)
		return open_callee(p, row);
	if (annot_find(p, r->target_row) == WIDGET_NONE) {
		snprintf(p->msg, sizeof p->msg, "the jump's target is hidden by the filter");
		return PANE_HANDLED | PANE_MSG;
	}
	nav_view_init(&p->push, PANE_ANNOTATE);
	p->push.arg = av->arg;
	p->push.arg2 = av->arg2;
	p->push.arg3 = av->arg3;
	p->push.cursor = r->target_row;
	snprintf(p->push.filter, sizeof p->push.filter, "%s", p->w.filter);
	snprintf(p->push.label, sizeof p->push.label, "jump to %" PRIx64, r->target + av->an->bias);
	return PANE_HANDLED | PANE_PUSH;
}

static int
cycle_mode(struct pane *p)
{
	struct annot_view *av = p->priv;
	size_t cur = cursor_row(p);
	const struct annot_row *r = cur != SIZE_MAX ? &av->an->rows[cur] : NULL;

	av->mode = (av->mode + 1) % ANNOT_MODE_N;
	relist(av);
	widget_reload(&p->w);
	/* the same line: an instruction's source line, a source line's first instruction */
	if (r != NULL) {
		size_t want = cur;

		if (av->mode == ANNOT_MODE_SOURCE)
			want = r->kind == ANNOT_SRC ? r->line_first : r->src_row != ANNOT_ROW_NONE ?
			    av->an->rows[r->src_row].line_first : SIZE_MAX;
		else if (av->mode == ANNOT_MODE_ASM && r->kind == ANNOT_SRC)
			want = cur + 1;
		if (want == SIZE_MAX || !widget_goto_key(&p->w, want))
			widget_home(&p->w);
	}
	if (av->mode == ANNOT_MODE_SOURCE && av->nvis == 0)
		snprintf(p->msg, sizeof p->msg, "%s: no source lines (no debug info): s again", mode_names[av->mode]);
	else
		snprintf(p->msg, sizeof p->msg, "%s (s: %s)", mode_names[av->mode],
		    mode_names[(av->mode + 1) % ANNOT_MODE_N]);
	return PANE_HANDLED | PANE_MSG;
}

/* The selected line's source file and line, for the app to open in $EDITOR. */
static int
edit_source(struct pane *p)
{
	struct annot_view *av = p->priv;
	const char *path;
	int line;

	if (!annotate_row_source(av->an, cursor_row(p), &path, &line)) {
		snprintf(p->msg, sizeof p->msg, "no source line for this row (no debug info)");
		return PANE_HANDLED | PANE_MSG;
	}
	snprintf(p->edit_path, sizeof p->edit_path, "%s", path);
	p->edit_line = line;
	return PANE_HANDLED | PANE_EDIT;
}

static int
annot_key(struct pane *p, enum action a)
{
	struct annot_view *av = p->priv;
	size_t cur;
	int r;

	if (av->an == NULL)
		return PANE_IGNORED;
	switch (a) {
	case ACT_ENTER:
		cur = cursor_row(p);
		if (cur != SIZE_MAX && (r = follow_branch(p, cur)) != PANE_IGNORED)
			return r;
		if (cur != SIZE_MAX && av->an->rows[cur].kind != ANNOT_SRC)
			return samples_at(p, &av->an->rows[cur]);
		/* a source row: the next instruction with samples */
		return next_hot(p, 1);
	case ACT_EVENTS:
		cur = cursor_row(p);
		if (cur != SIZE_MAX && av->an->rows[cur].kind != ANNOT_SRC)
			return samples_at(p, &av->an->rows[cur]);
		snprintf(p->msg, sizeof p->msg, "v lists the samples of an instruction: select one");
		return PANE_HANDLED | PANE_MSG;
	case ACT_NEXT_HOT:
	case ACT_PREV_HOT:
		/* with a search: its next / previous match, as n and N elsewhere */
		if (p->w.search[0] != '\0') {
			if (widget_search(&p->w, p->w.search, a == ACT_PREV_HOT ? -1 : 1, true))
				return PANE_HANDLED;
			snprintf(p->msg, sizeof p->msg, "no other match for '%s'", p->w.search);
			return PANE_HANDLED | PANE_MSG;
		}
		return next_hot(p, a == ACT_PREV_HOT ? -1 : 1);
	case ACT_HOTTEST:
		cur = annotate_hottest(av->an, av->mode);
		if (cur == SIZE_MAX) {
			snprintf(p->msg, sizeof p->msg, "no line has samples");
			return PANE_HANDLED | PANE_MSG;
		}
		widget_goto_key(&p->w, cur);
		return PANE_HANDLED;
	case ACT_ANNOT_MODE:
		return cycle_mode(p);
	case ACT_EDIT_SOURCE:
		return edit_source(p);
	case ACT_ANNOTATE:
		return PANE_HANDLED | PANE_BACK;
	default:
		return PANE_IGNORED;
	}
}

/*
 * The info line in w columns: the function's name shortened (C++ lists
 * elided, then its middle cut with an ellipsis) so that what follows it
 * (DSO, event, samples) stays whole; the notes after that are cut first.
 */
static void
put_info(const struct annot_view *av, WINDOW *win, int y, int x, int w)
{
	size_t n;
	int room;
	char *cut, *line;

	if (av->name == NULL) {
		text_put(win, y, x, w, av->title);
		return;
	}
	/* a column at least for the notes' ellipsis */
	room = w - text_width(av->title) - (av->more[0] != '\0');
	if (room < 16)
		room = 16;	/* too narrow for both: some of the name, the rest cut */
	n = strlen(av->name) * 2 + 8;
	cut = xmalloc(n);
	line = xmalloc(n + sizeof av->title + sizeof av->more);
	text_elide_cxx(av->name, cut, n, room);
	text_clip_middle(line, n, cut, room);
	strcat(line, av->title);
	room = w - text_width(line);
	if (room > 0) {
		size_t l = strlen(line);

		text_clip(line + l, n + sizeof av->title + sizeof av->more - l, av->more, room);
	}
	text_put(win, y, x, w, line);
	free(line);
	free(cut);
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
	put_info(av, win, c->y + c->h - 1, c->x + 1, c->w - 1);
}

static const char *
annot_hint(struct pane *p)
{
	(void)p;
	return "Enter:jump/call  v:samples here  n/N:next/prev hot  H:hottest  s:source/asm  e:edit  Esc:back";
}

const struct pane_ops pane_annotate_ops = {
	.name = "annotate",
	.description = "a function's instructions with their samples and source lines",
	.keys = "n next-hot\n" "N prev-hot\n" "H hottest\n" "s annotate-mode\n" "e edit-source\n",
	.title = "Annotate",
	.init = annot_init,
	.free = annot_free,
	.draw = annot_draw,
	.key = annot_key,
	.nrows = annot_nrows,
	.row = annot_row,
	.find = annot_find,
	.enter = annot_enter,
	.save = pane_list_save,
	.help = annot_hint,
};
