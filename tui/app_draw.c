#include "config.h"

#ifndef NCURSES_WIDECHAR
#define NCURSES_WIDECHAR 1
#endif

#include <inttypes.h>
#include <stdio.h>
#include <string.h>
#include <wchar.h>

#include <curses.h>

#include "core/core.h"
#include "tui/app_priv.h"
#include "tui/scope.h"
#include "tui/symbols.h"
#include "tui/widget.h"

/*
 * app_draw.c: drawing the screen: the title line (recording, events,
 * symbol progress), the tabs, the current pane in between, and the status
 * line (path of views, row count, message or the line editor).
 */

static const char *
pane_name_of(int id)
{
	const struct pane_ops *o = pane_ops_of((enum pane_id)id);

	return o ? o->name : "?";
}

static void
fill_line(struct app *a, int y, int el)
{
	attrset((attr_t)a->ta.a[el]);
	mvhline(y, 0, ' ', COLS);
}

static void
put_text(int y, int x, int w, const char *s)
{
	wchar_t buf[1024];

	if (w <= 0)
		return;
	text_decode(s, buf, sizeof buf / sizeof buf[0], w, false);
	mvaddnwstr(y, x, buf, -1);
}

/*
 * Shorten s to at most cols columns, keeping its start and its end around
 * an ellipsis (whole UTF-8 characters; at least 12 columns kept).  Returns
 * false when it cannot (fits already, or too short to cut).
 */
static bool
shorten_mid(char *s, int cols)
{
	size_t len = strlen(s), head, tail;
	char out[1400];

	if (cols < 12 || text_width(s) <= cols || len >= sizeof out)
		return false;
	head = (size_t)(cols - 1) / 2;
	tail = len;
	/* the head: whole characters up to about half the columns */
	while (head > 0 && (s[head] & 0xc0) == 0x80)
		head--;
	for (;;) {
		size_t t = tail;

		do
			t--;
		while (t > head && (s[t] & 0xc0) == 0x80);
		snprintf(out, sizeof out, "%.*s…%s", (int)head, s, s + t);
		if (t <= head || text_width(out) > cols)
			break;
		tail = t;
	}
	snprintf(out, sizeof out, "%.*s…%s", (int)head, s, s + tail);
	while (head > 0 && text_width(out) > cols) {
		do
			head--;
		while (head > 0 && (s[head] & 0xc0) == 0x80);
		snprintf(out, sizeof out, "%.*s…%s", (int)head, s, s + tail);
	}
	memcpy(s, out, strlen(out) + 1);
	return true;
}

static void
fmt_span(char *buf, size_t n, uint64_t ns)
{
	double s = (double)ns / 1e9;

	if (s < 10)
		snprintf(buf, n, "%.3f s", s);
	else if (s < 600)
		snprintf(buf, n, "%.1f s", s);
	else
		snprintf(buf, n, "%.0f min", s / 60);
}

/*
 * The title's fields after the recording's name, each labelled, in the
 * order shown; prio says which go first when the line is too narrow
 * (highest first): the load time, the record count, perf's version, the
 * symbols' time once done, the events (first shortened to their count),
 * the span; the samples, the symbol progress and a LOST warning stay longest.
 */
enum { TF_PERF, TF_EVENTS, TF_SAMPLES, TF_SYM, TF_SPAN, TF_RECORDS, TF_LOAD, TF_LOST, TF_N };

static const int title_prio[TF_N] = {
	[TF_LOAD] = 8, [TF_RECORDS] = 7, [TF_PERF] = 6, [TF_EVENTS] = 4, [TF_SPAN] = 3,
	[TF_SAMPLES] = 2, [TF_SYM] = 1, [TF_LOST] = 0,
};
#define TF_SYM_DONE_PRIO	5	/* "symbols in 0.42 s" matters less than the progress */

static void
title_sym(struct app *a, char *buf, size_t n)
{
	const struct type_counts *cnt = session_counts(a->s);

	if (a->sym == NULL || cnt->by_type[PF_REC_SAMPLE] == 0)
		buf[0] = '\0';
	else if (a->diff && symbols_pair_waiting(a->sym)) {
		char w[96];

		snprintf(buf, n, "%s", symbols_pair_wait_text(a->sym, w, sizeof w));
	} else if (!a->sym->done)
		snprintf(buf, n, "symbols %.0f%%", 100 * symbols_progress(a->sym));
	else
		snprintf(buf, n, "symbols in %.2f s", a->sym_wall);
	if (a->sym != NULL && cnt->by_type[PF_REC_SAMPLE] > 0) {
		char d[64];
		size_t o = strlen(buf);

		/* downloads from debuginfod servers: the bytes so far, then how many files */
		if (symbols_dbgd_text(a->sym, d, sizeof d) != NULL && o < n)
			snprintf(buf + o, n - o, ", %s", d);
	}
}

/* The samples, and what the current pane's rows count when that is
 * something else (the branch table: branch entries). */
static void
title_samples(struct app *a, char *buf, size_t n)
{
	struct pane *p = app_view_pane(a);
	char what[64];
	int k;

	k = snprintf(buf, n, "%" PRIu64 " sample%s", session_counts(a->s)->by_type[PF_REC_SAMPLE],
	    plural(session_counts(a->s)->by_type[PF_REC_SAMPLE]));
	if (p != NULL && p->ops->counted != NULL && !symbols_scope_busy(a->sym) &&
	    p->ops->counted(p, what, sizeof what) && k > 0 && (size_t)k < n)
		snprintf(buf + k, n - (size_t)k, " (table: %s)", what);
}

static void
draw_title(struct app *a)
{
	const struct session *s = a->s;
	const struct type_counts *cnt = session_counts(s);
	const struct features *ft = session_features(s);
	struct session_info si = session_info(s);
	const char *base = strrchr(si.path, '/');
	size_t nev = session_attrs(s)->n;
	char buf[1400], span[32], xf[400], name[600];
	char f[TF_N][200];
	bool on[TF_N];
	int prio[TF_N], width;

	fill_line(a, 0, EL_TITLE);
	snprintf(name, sizeof name, "%s", si.from_stdin ? "(stdin)" : base && base[1] ? base + 1 :
	    si.path);
	if (a->diff) {
		const char *o = strrchr(a->names[0], '/'), *n = strrchr(a->names[1], '/');

		/* OLD vs NEW, and which one the per-recording panes show */
		snprintf(name, sizeof name, "%s vs %s [%s%s]", o ? o + 1 : a->names[0],
		    n ? n + 1 : a->names[1], a->shown ? "NEW" : "OLD",
		    a->sym->diff_abs ? ", periods" : ", % of totals");
	}
	fmt_span(span, sizeof span, a->t_last > a->t_first ? a->t_last - a->t_first : 0);
	/* the scope, whole: what every analysis pane shows */
	xf[0] = '\0';
	if (a->sym != NULL) {
		char t[sizeof xf - 4];

		scope_text(&a->sym->scope, a->sym->h, a->start_scope, t, sizeof t);
		if (t[0])
			snprintf(xf, sizeof xf, " [%s]", t);
	} else if (a->start_scope[0]) {
		snprintf(xf, sizeof xf, " [%s]", a->start_scope);
	}
	snprintf(f[TF_PERF], sizeof f[0], "perf %s", ft->version ? ft->version : "?");
	snprintf(f[TF_EVENTS], sizeof f[0], "%s", a->events);	/* their names say what they are */
	title_samples(a, f[TF_SAMPLES], sizeof f[0]);
	title_sym(a, f[TF_SYM], sizeof f[0]);
	snprintf(f[TF_SPAN], sizeof f[0], "span %s", span);
	snprintf(f[TF_RECORDS], sizeof f[0], "%zu record%s", session_index(s)->n,
	    plural(session_index(s)->n));
	snprintf(f[TF_LOAD], sizeof f[0], "loaded in %.2f s", a->load_secs);
	snprintf(f[TF_LOST], sizeof f[0], "%s", cnt->by_type[PF_REC_LOST] ? "LOST records!" : "");
	for (int i = 0; i < TF_N; i++) {
		on[i] = f[i][0] != '\0';
		prio[i] = title_prio[i];
	}
	if (a->sym != NULL && a->sym->done)
		prio[TF_SYM] = TF_SYM_DONE_PRIO;
	/* the event is the scope's: shortened to a count, never dropped */
	prio[TF_EVENTS] = 0;
	for (;;) {
		int o = snprintf(buf, sizeof buf, " perfnav  %s%s%s", name, si.damaged ? " [damaged]" : "",
		    xf);
		int drop = -1;

		for (int i = 0; i < TF_N && o > 0 && (size_t)o < sizeof buf; i++)
			if (on[i])
				o += snprintf(buf + o, sizeof buf - (size_t)o, " | %s", f[i]);
		width = text_width(buf);
		if (width <= COLS)
			break;
		/* the events listed become their count before anything else goes */
		if (on[TF_EVENTS] && nev > 1 && strstr(f[TF_EVENTS], " events") == NULL) {
			snprintf(f[TF_EVENTS], sizeof f[0], "%zu events", nev);
			continue;
		}
		for (int i = 0; i < TF_N; i++)
			if (on[i] && (drop < 0 || prio[i] > prio[drop]))
				drop = i;
		if (drop < 0 || prio[drop] == 0) {
			/* only the name, the scope and the warnings left: the scope shortened */
			if (shorten_mid(xf, text_width(xf) - (width - COLS)))
				continue;
			break;
		}
		on[drop] = false;
	}
	put_text(0, 0, COLS, buf);
}

/*
 * A tab's label at a level of compactness: 0 " 1 Hot functions ", 1 the
 * same, 2 the title's first word (" 1 Hot "), 3 the key alone.
 */
static void
tab_label(int i, int level, char *buf, size_t n)
{
	const struct pane_ops *o = pane_ops_of((enum pane_id)i);
	const char *t = o->title;
	const char *k = pane_tab_key((enum pane_id)i);	/* the key that opens it */

	if (level < 2)
		snprintf(buf, n, " %s %s ", k, t);
	else if (level == 2 && o->short_title != NULL)
		snprintf(buf, n, " %s %s ", k, o->short_title);
	else if (level == 2)
		snprintf(buf, n, " %s %.*s ", k, (int)strcspn(t, " "), t);
	else
		snprintf(buf, n, " %s ", k);
}

/* The tabs, as compact as the width needs (the extra tab, e.g. " a Annotate ", included). */
static int
tabs_level(const char *extra)
{
	for (int level = 0; level < 3; level++) {
		int x = 0;
		char buf[64];

		for (int i = 0; i < PANE_NTABS; i++) {
			tab_label(i, level, buf, sizeof buf);
			x += (int)strlen(buf) + (level == 0);
		}
		if (x + (extra ? (int)strlen(extra) : 0) <= COLS)
			return level;
	}
	return 3;
}

/* The first key bound to act in global, or NULL. */
static const char *
first_key(const struct app *a, enum action act, char *buf, size_t n)
{
	char *comma;

	keys_bound(&a->keys, "global", act, buf, n);
	if ((comma = strchr(buf, ',')) != NULL)
		*comma = '\0';
	return buf[0] ? buf : NULL;
}

/* "?:help q:quit" with the keys as bound, q's as what it does here (back, or quit at the top). */
static void
quit_hint(const struct app *a, char *out, size_t n)
{
	char h[32], q[32], qa[32];
	const char *kh = first_key(a, ACT_HELP, h, sizeof h), *kq = first_key(a, ACT_QUIT, q, sizeof q);
	const char *kqa = first_key(a, ACT_QUIT_ALL, qa, sizeof qa);
	bool top = app_at_top(a);
	size_t o = 0;

	out[0] = '\0';
	if (kh != NULL)
		o += (size_t)snprintf(out + o, n - o, "%s:help", kh);
	if (kq != NULL && o < n)
		o += (size_t)snprintf(out + o, n - o, "%s%s:%s", o ? " " : "", kq, top ? "quit" : "back");
	if (kqa != NULL && (!top || kq == NULL) && o < n)
		snprintf(out + o, n - o, "%s%s:quit", o ? " " : "", kqa);
}

static void
draw_tabs(struct app *a)
{
	struct nav_view *top = nav_top(&a->nav);
	int root = a->nav.n ? a->nav.v[0].pane : a->start_pane, x = 0, level;
	const char *extra = NULL;

	if (top && top->pane >= PANE_NTABS)
		extra = top->pane == PANE_HELP ? " ? Help " : top->pane == PANE_COUNTERS ?
		    " S Counters " : top->pane == PANE_WAKERS ? " W Wakers " : " a Annotate ";
	level = tabs_level(extra);
	fill_line(a, 1, EL_TAB);
	for (int i = 0; i < PANE_NTABS; i++) {
		char buf[64];
		bool on = root == i;
		int w;

		tab_label(i, level, buf, sizeof buf);
		w = (int)strlen(buf);
		a->tab_x[i] = x;
		attrset((attr_t)a->ta.a[on ? EL_TAB_ACTIVE : EL_TAB]);
		put_text(1, x, COLS - x, buf);
		x += w + (level == 0);
	}
	a->tab_x[PANE_NTABS] = x;
	if (extra != NULL) {
		attrset((attr_t)a->ta.a[EL_TAB_ACTIVE]);
		put_text(1, x, COLS - x, extra);
	}
}

static void
draw_status(struct app *a)
{
	struct pane *p = app_view_pane(a);
	char path[512], buf[1024];
	int y = LINES - 1, pw;
	const char *hint = p->ops->help ? p->ops->help(p) : "";

	fill_line(a, y, EL_STATUS);
	if (a->in != IN_NONE) {
		snprintf(buf, sizeof buf, "%s%s", a->in == IN_SEARCH ? "/" : a->in == IN_SCOPE ?
		    "scope: " : a->in == IN_EXPORT ? "export to: " : "filter: ", a->in_buf);
		attrset((attr_t)a->ta.a[EL_STATUS]);
		put_text(y, 0, COLS - 1, buf);
		if (a->msg[0]) {
			int x = text_width(buf) + 3;

			attrset((attr_t)a->ta.a[a->msg_el ? a->msg_el : EL_MESSAGE]);
			if (x + text_width(a->msg) <= COLS) {
				put_text(y, x, COLS - x, a->msg);
			} else {	/* no room beside the line: the line above, whole */
				mvhline(y - 1, 0, ' ', COLS);
				put_text(y - 1, 0, COLS, a->msg);
			}
		}
		move(y, text_width(buf) < COLS ? text_width(buf) : COLS - 1);
		curs_set(1);
		return;
	}
	curs_set(0);
	nav_path(&a->nav, pane_name_of, path, sizeof path);
	snprintf(buf, sizeof buf, " %s", path);
	if (p->is_list) {
		size_t n = widget_count(&p->w);

		snprintf(buf + strlen(buf), sizeof buf - strlen(buf), " [%zu/%zu%s]",
		    n ? p->w.cursor + 1 : 0, n, p->w.filtered ? " filtered" : "");
	}
	attrset((attr_t)a->ta.a[EL_STATUS]);
	put_text(y, 0, COLS, buf);
	pw = text_width(buf) + 2;
	if (a->msg[0]) {
		attrset((attr_t)a->ta.a[a->msg_el ? a->msg_el : EL_MESSAGE]);
		put_text(y, pw, COLS - pw, a->msg);
	} else {
		char keys[96];

		quit_hint(a, keys, sizeof keys);
		snprintf(buf, sizeof buf, "%s  %s", hint, keys);
		if (text_width(buf) >= COLS - pw)
			snprintf(buf, sizeof buf, "%s", keys);
		if (text_width(buf) < COLS - pw) {
			attrset((attr_t)a->ta.a[EL_STATUS]);
			put_text(y, COLS - text_width(buf) - 1, text_width(buf), buf);
		}
	}
}

static void
draw_small(struct app *a)
{
	char buf[128];

	attrset((attr_t)a->ta.a[EL_NORMAL]);
	erase();
	snprintf(buf, sizeof buf, "perfnav needs at least %dx%d (now %dx%d)",
	    MIN_COLS, MIN_LINES, COLS, LINES);
	attrset((attr_t)a->ta.a[EL_ERROR]);
	mvaddnstr(LINES / 2 > 0 ? LINES / 2 - 1 : 0, 0, buf, COLS);
	attrset((attr_t)a->ta.a[EL_NORMAL]);
	if (LINES > 1)
		mvaddnstr(LINES / 2, 0, "make it larger, or press q to quit", COLS);
}

/* In the pane's place while a scope's recount goes on: how far it is. */
static void
draw_recount(struct app *a, const struct pane_canvas *c)
{
	char buf[160];

	attrset((attr_t)a->ta.a[EL_NORMAL]);
	for (int y = c->y; y < c->y + c->h; y++)
		mvhline(y, 0, ' ', c->w);
	snprintf(buf, sizeof buf, "recounting the scope's samples: %.0f%% (Q quits)",
	    100 * symbols_scope_progress(a->sym));
	mvaddnstr(c->y + c->h / 2, 2, buf, c->w > 4 ? c->w - 4 : 0);
}

/* The selected row's full text (=), in a box over the pane, each line wrapped. */
static void
draw_row_text(struct app *a, const struct pane_canvas *c)
{
	static wchar_t wbuf[2048];
	int w = c->w - 4, y = c->y + 1, last = c->y + c->h - 2;
	const char *p = a->row_text;

	if (w < 10)
		return;
	attrset((attr_t)a->ta.a[EL_STATUS]);
	mvhline(c->y, 0, ' ', c->w);
	mvaddnstr(c->y, 1, a->row_title ? a->row_title : "the row's full text (any key closes it)",
	    c->w - 2);
	while (*p != '\0' && y <= last) {
		const char *nl = strchr(p, '\n');
		size_t len = nl ? (size_t)(nl - p) : strlen(p);
		char line[2048];
		size_t k = 0, nw;

		snprintf(line, sizeof line, "%.*s", (int)len, p);
		text_decode(line, wbuf, sizeof wbuf / sizeof wbuf[0], (int)(sizeof wbuf / sizeof wbuf[0]) - 1, false);
		nw = wcslen(wbuf);
		do {	/* wrapped at w columns (one a character) */
			attrset((attr_t)a->ta.a[EL_NORMAL]);
			mvhline(y, 0, ' ', c->w);
			mvaddnwstr(y, 2, wbuf + k, w);
			k += (size_t)w;
			y++;
		} while (k < nw && y <= last);
		p += len + (nl != NULL);
	}
	if (y <= last) {
		attrset((attr_t)a->ta.a[EL_STATUS]);
		mvhline(y, 0, ' ', c->w);
	}
}

void
app_draw(struct app *a)
{
	struct pane *p = app_view_pane(a);
	struct pane_canvas c;

	if (COLS < MIN_COLS || LINES < MIN_LINES) {
		draw_small(a);
		refresh();
		return;
	}
	c.win = stdscr;
	c.y = 2;
	c.x = 0;
	c.h = LINES - 3;
	c.w = COLS;
	c.ta = &a->ta;
	/* the function selected in an analysis pane: the timeline can highlight it */
	if (a->sym != NULL && p->ops->func != NULL && !symbols_scope_busy(a->sym))
		a->sym->scope.hl_func = p->ops->func(p);
	draw_title(a);
	draw_tabs(a);
	if (symbols_scope_busy(a->sym)) {
		draw_recount(a, &c);	/* the panes read the hist: they wait */
	} else {
		if (p->ops->resize)
			p->ops->resize(p, c.h, c.w);
		if (p->ops->draw)
			p->ops->draw(p, &c);
		else if (p->is_list)
			widget_draw(&p->w, &c);
	}
	if (a->row_text[0] != '\0')
		draw_row_text(a, &c);
	draw_status(a);
	refresh();
}
