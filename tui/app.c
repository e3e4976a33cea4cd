#include "config.h"

#ifndef NCURSES_WIDECHAR
#define NCURSES_WIDECHAR 1
#endif

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <limits.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <wchar.h>

#include <curses.h>

#include "core/core.h"
#include "symbolize/resolve.h"
#include "tui/app.h"
#include "tui/cmd/cmd.h"
#include "tui/keys.h"
#include "tui/nav.h"
#include "tui/pane.h"
#include "tui/symbols.h"
#include "tui/theme.h"
#include "tui/widget.h"

#ifndef PKGDATADIR
#define PKGDATADIR "/usr/local/share/perfnav"
#endif

#define MIN_COLS	80
#define MIN_LINES	24
#define START_PANE	PANE_HOT
/* Symbolizing between keys: a slice's time, how often the table refreshes. */
#define SYM_SLICE_SECS	0.03
#define SYM_PEEK_FIRST	0.25
#define SYM_PEEK_SECS	1.0

enum input_mode { IN_NONE, IN_SEARCH, IN_FILTER };

struct app {
	struct session		*s;
	struct symbols		*sym;
	double			 t_start;	/* when perfnav started */
	double			 sym_wall;	/* start to symbols done, seconds */
	size_t			 refusals_seen;	/* files refused, said on the status line */
	const struct common_opts *co;
	struct keys		 keys;
	struct theme		 theme;
	struct theme_attrs	 ta;
	bool			 mono;
	struct pane		 panes[PANE_COUNT];
	struct nav		 nav;
	struct nav_view		 roots[PANE_COUNT];
	char			 msg[256];
	int			 msg_el;
	enum input_mode		 in;
	char			 in_buf[NAV_FILTER_MAX];
	size_t			 in_saved;	/* cursor before an incremental search */
	bool			 quit;
	double			 load_secs;
	char			 events[128];	/* event names for the title */
	uint64_t		 t_first, t_last;
	int			 tab_x[PANE_NTABS + 1];
	char			*startup_msgs;	/* key/theme file problems */
	size_t			 startup_len, startup_cap;
};

/* ---- terminal state, restored on every way out ---- */

static SCREEN *app_screen;
static FILE *tty_in, *tty_out;
static bool curses_on;
static int saved_stderr = -1;
static FILE *err_tmp;

static void
stderr_restore(void)
{
	if (saved_stderr < 0)
		return;
	fflush(stderr);
	dup2(saved_stderr, 2);
	close(saved_stderr);
	saved_stderr = -1;
}

/* What libraries wrote while curses was active. */
static void
stderr_replay(void)
{
	char buf[4096];
	size_t n;

	if (err_tmp == NULL)
		return;
	fflush(err_tmp);
	rewind(err_tmp);
	while ((n = fread(buf, 1, sizeof buf, err_tmp)) > 0)
		fwrite(buf, 1, n, stderr);
	fclose(err_tmp);
	err_tmp = NULL;
}

static void
terminal_restore(void)
{
	if (curses_on) {
		curses_on = false;
		endwin();
	}
	stderr_restore();
}

static void
fatal_hook(void)
{
	terminal_restore();
}

static void
on_signal(int sig)
{
	terminal_restore();
	signal(sig, SIG_DFL);
	raise(sig);
}

static void
stderr_capture(void)
{
	int fd;

	fflush(stderr);
	err_tmp = tmpfile();
	if (err_tmp == NULL)
		return;
	saved_stderr = dup(2);
	if (saved_stderr < 0) {
		fclose(err_tmp);
		err_tmp = NULL;
		return;
	}
	fd = fileno(err_tmp);
	dup2(fd, 2);
}

/* ---- theme ---- */

static attr_t
curses_attrs(unsigned a)
{
	attr_t r = A_NORMAL;

	if (a & TA_BOLD)
		r |= A_BOLD;
	if (a & TA_DIM)
		r |= A_DIM;
	if (a & TA_UNDERLINE)
		r |= A_UNDERLINE;
	if (a & TA_REVERSE)
		r |= A_REVERSE;
#ifdef A_ITALIC
	if (a & TA_ITALIC)
		r |= A_ITALIC;
#endif
	if (a & TA_BLINK)
		r |= A_BLINK;
	if (a & TA_STANDOUT)
		r |= A_STANDOUT;
	return r;
}

void
app_theme_apply(const struct theme *t, struct theme_attrs *ta, bool mono)
{
	int ncol;

	memset(ta, 0, sizeof *ta);
	ta->utf8 = text_utf8();
	if (!mono && !has_colors())
		mono = true;
	if (mono) {
		for (int e = 0; e < EL_COUNT; e++)
			ta->a[e] = curses_attrs(theme_mono_attrs((enum theme_elem)e));
		return;
	}
	start_color();
	use_default_colors();
	ncol = COLORS;
	for (int e = 0; e < EL_COUNT; e++) {
		const struct theme_style *st = &t->el[e];
		int fg = theme_reduce(&st->fg, ncol), bg = theme_reduce(&st->bg, ncol);
		int pair = e + 1;

		if (pair >= COLOR_PAIRS) {
			ta->a[e] = curses_attrs(st->attrs | theme_mono_attrs((enum theme_elem)e));
			continue;
		}
		if (init_extended_pair(pair, fg, bg) == ERR)
			init_pair((short)pair, (short)(fg > 32767 ? -1 : fg), (short)(bg > 32767 ? -1 : bg));
		ta->pair[e] = (short)pair;
		ta->a[e] = curses_attrs(st->attrs) | (attr_t)COLOR_PAIR(pair);
	}
}

/* ---- panes and navigation ---- */

static const char *
pane_name_of(int id)
{
	const struct pane_ops *o = pane_ops_of((enum pane_id)id);

	return o ? o->name : "?";
}

static struct pane *
cur_pane(struct app *a)
{
	struct nav_view *v = nav_top(&a->nav);

	return &a->panes[v ? v->pane : START_PANE];
}

static void
msg(struct app *a, int el, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

static void
msg(struct app *a, int el, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(a->msg, sizeof a->msg, fmt, ap);
	va_end(ap);
	a->msg_el = el;
}

static void
view_save(struct app *a)
{
	struct nav_view *v = nav_top(&a->nav);
	struct pane *p;

	if (v == NULL)
		return;
	p = &a->panes[v->pane];
	if (p->ops->save)
		p->ops->save(p, v);
}

static void
view_apply(struct app *a)
{
	struct nav_view *v = nav_top(&a->nav);
	struct pane *p;

	if (v == NULL)
		return;
	p = &a->panes[v->pane];
	if (p->ops->enter)
		p->ops->enter(p, v);
}

static void
app_push(struct app *a, const struct nav_view *v)
{
	view_save(a);
	nav_push(&a->nav, v);
	view_apply(a);
}

static void
app_back(struct app *a)
{
	if (nav_depth(&a->nav) <= 1) {
		msg(a, EL_MESSAGE, "at the start of the history (q quits)");
		return;
	}
	nav_pop(&a->nav);
	view_apply(a);
}

/* The hex view of the events pane's selection. */
static bool
hex_of_selection(struct app *a, struct nav_view *v)
{
	struct pane *ev = &a->panes[PANE_EVENTS];

	return ev->ops->select && ev->ops->select(ev, v);
}

static void
app_switch(struct app *a, int pane)
{
	struct nav_view root;

	view_save(a);
	if (nav_depth(&a->nav) > 0)
		a->roots[a->nav.v[0].pane] = a->nav.v[0];
	if (nav_depth(&a->nav) == 1 && a->nav.v[0].pane == pane && pane != PANE_HEX)
		return;
	root = a->roots[pane];
	if (pane == PANE_HEX) {
		if (!hex_of_selection(a, &root))
			nav_view_init(&root, PANE_HEX);
		root.label[0] = '\0';
	}
	nav_reset(&a->nav, &root);
	view_apply(a);
}

/* ---- the line editor (search and filter) ---- */

static void
input_start(struct app *a, enum input_mode m)
{
	struct pane *p = cur_pane(a);

	if (!p->is_list) {
		msg(a, EL_MESSAGE, "nothing to %s here", m == IN_SEARCH ? "search" : "filter");
		return;
	}
	a->in = m;
	a->in_saved = p->w.cursor;
	if (m == IN_FILTER)
		snprintf(a->in_buf, sizeof a->in_buf, "%s", p->w.filter);
	else
		a->in_buf[0] = '\0';
}

static void
input_char(struct app *a, wint_t wc)
{
	char mb[MB_LEN_MAX + 1];
	mbstate_t st;
	size_t k, len = strlen(a->in_buf);

	memset(&st, 0, sizeof st);
	k = wcrtomb(mb, (wchar_t)wc, &st);
	if (k == (size_t)-1 || len + k + 1 > sizeof a->in_buf)
		return;
	memcpy(a->in_buf + len, mb, k);
	a->in_buf[len + k] = '\0';
}

static void
input_backspace(struct app *a)
{
	size_t len = strlen(a->in_buf);

	/* drop a whole UTF-8 character */
	while (len > 0) {
		len--;
		if (((unsigned char)a->in_buf[len] & 0xc0) != 0x80)
			break;
	}
	a->in_buf[len] = '\0';
}

static void
search_live(struct app *a)
{
	struct pane *p = cur_pane(a);

	p->w.cursor = a->in_saved;
	if (a->in_buf[0] && !widget_search(&p->w, a->in_buf, +1, false))
		msg(a, EL_ERROR, "no match for '%s'", a->in_buf);
	else
		a->msg[0] = '\0';
}

static void
input_key(struct app *a, int key)
{
	struct pane *p = cur_pane(a);
	char err[200];

	switch (key) {
	case KEYS_ESC:
		if (a->in == IN_SEARCH) {
			p->w.cursor = a->in_saved;
			widget_move(&p->w, 0);
		}
		a->in = IN_NONE;
		a->msg[0] = '\0';
		return;
	case KEYS_ENTER:
	case 13:
	case KEYS_FN + KEY_ENTER:
		if (a->in == IN_FILTER) {
			err[0] = '\0';
			if (widget_set_filter(&p->w, a->in_buf, err, sizeof err) < 0) {
				msg(a, EL_ERROR, "%s", err[0] ? err : "bad filter");
				return;		/* stay in the editor */
			}
			if (a->in_buf[0])
				msg(a, EL_MESSAGE, "filter '%s': %zu rows (F clears)", a->in_buf,
				    widget_count(&p->w));
			else
				a->msg[0] = '\0';
		} else {
			snprintf(p->w.search, sizeof p->w.search, "%s", a->in_buf);
		}
		a->in = IN_NONE;
		return;
	case KEYS_FN + KEY_BACKSPACE:
	case 127:
	case 8:
		input_backspace(a);
		break;
	case 21:	/* C-u */
		a->in_buf[0] = '\0';
		break;
	default:
		if (key >= 32 && key < KEYS_FN)
			input_char(a, (wint_t)key);
		else
			return;
		break;
	}
	if (a->in == IN_SEARCH)
		search_live(a);
}

/* ---- actions ---- */

static bool
list_action(struct app *a, struct pane *p, enum action act)
{
	struct widget *w = &p->w;

	switch (act) {
	case ACT_UP:
		widget_move(w, -1);
		return true;
	case ACT_DOWN:
		widget_move(w, 1);
		return true;
	case ACT_PAGE_UP:
		widget_page(w, -1);
		return true;
	case ACT_PAGE_DOWN:
		widget_page(w, 1);
		return true;
	case ACT_TOP:
		widget_home(w);
		return true;
	case ACT_BOTTOM:
		widget_end(w);
		return true;
	case ACT_TOGGLE:
	case ACT_ENTER:
		if (!w->tree || !widget_has_children(w, widget_cursor_row(w)))
			return false;
		widget_toggle(w);
		return true;
	case ACT_EXPAND:
		widget_expand(w, true);
		return true;
	case ACT_EXPAND_ALL:
		widget_expand_all(w, true);
		return true;
	case ACT_COLLAPSE:
		widget_collapse(w);
		return true;
	case ACT_COLLAPSE_ALL:
		widget_expand_all(w, false);
		return true;
	case ACT_SORT_NEXT:
	case ACT_SORT_PREV:
		widget_sort_step(w, act == ACT_SORT_NEXT ? 1 : -1);
		if (w->sort_col >= 0)
			msg(a, EL_MESSAGE, "sorted by %s%s", p->cols[w->sort_col].title,
			    w->sort_desc ? ", descending" : "");
		else
			msg(a, EL_MESSAGE, "in the pane's own order");
		return true;
	case ACT_SORT_REVERSE:
		if (w->sort_col >= 0)
			widget_sort(w, w->sort_col, !w->sort_desc);
		return true;
	case ACT_SEARCH:
		input_start(a, IN_SEARCH);
		return true;
	case ACT_SEARCH_NEXT:
	case ACT_SEARCH_PREV:
		if (w->search[0] == '\0')
			msg(a, EL_MESSAGE, "no search yet: / searches");
		else if (!widget_search(w, w->search, act == ACT_SEARCH_NEXT ? 1 : -1, true))
			msg(a, EL_ERROR, "no other match for '%s'", w->search);
		return true;
	case ACT_FILTER:
		input_start(a, IN_FILTER);
		return true;
	case ACT_CLEAR_FILTER:
		widget_set_filter(w, "", NULL, 0);
		msg(a, EL_MESSAGE, "filter cleared");
		return true;
	default:
		return false;
	}
}

static void
do_action(struct app *a, enum action act, int key)
{
	struct pane *p = cur_pane(a);
	int r = p->ops->key ? p->ops->key(p, act) : PANE_IGNORED;
	struct nav_view v;
	char kn[32];

	if (r & PANE_MSG)
		msg(a, EL_MESSAGE, "%s", p->msg);
	if (r & PANE_QUIT)
		a->quit = true;
	if (r & PANE_BACK)
		app_back(a);
	if (r & PANE_PUSH) {
		struct nav_view push = p->push;

		/* hex -> its record: go back if we came from the events list */
		if (p->id == PANE_HEX && push.pane == PANE_EVENTS && nav_depth(&a->nav) >= 2 &&
		    a->nav.v[a->nav.n - 2].pane == PANE_EVENTS) {
			nav_pop(&a->nav);
			view_apply(a);
			if (!widget_goto_key(&a->panes[PANE_EVENTS].w, push.cursor))
				msg(a, EL_MESSAGE, "the record is hidden by the filter");
		} else if (push.pane == PANE_EVENTS && push.target == NAV_T_NONE &&
		    push.filter[0] == '\0') {
			/* a record without a filter: the events root, on that record */
			app_switch(a, PANE_EVENTS);
			view_save(a);
			if (a->panes[PANE_EVENTS].w.filtered)
				widget_set_filter(&a->panes[PANE_EVENTS].w, "", NULL, 0);
			widget_goto_key(&a->panes[PANE_EVENTS].w, push.cursor);
		} else {
			app_push(a, &push);
		}
	}
	if (r & PANE_HANDLED)
		return;
	if (p->is_list && list_action(a, p, act))
		return;
	switch (act) {
	case ACT_NONE:
		msg(a, EL_MESSAGE, "%s: no action here (? for help)", keys_key_name(key, kn, sizeof kn));
		break;
	case ACT_QUIT:
		a->quit = true;
		break;
	case ACT_HELP:
		if (p->id == PANE_HELP) {
			app_back(a);
			break;
		}
		nav_view_init(&v, PANE_HELP);
		snprintf(v.label, sizeof v.label, "help");
		app_push(a, &v);
		break;
	case ACT_BACK:
		app_back(a);
		break;
	case ACT_NEXT_PANE:
	case ACT_PREV_PANE: {
		int n = p->id >= PANE_NTABS ? a->nav.v[0].pane : (int)p->id;

		n = (n + (act == ACT_NEXT_PANE ? 1 : PANE_NTABS - 1)) % PANE_NTABS;
		app_switch(a, n);
		break;
	}
	case ACT_PANE_HOT:
		app_switch(a, PANE_HOT);
		break;
	case ACT_PANE_PROCS:
		app_switch(a, PANE_PROCS);
		break;
	case ACT_PANE_EVENTS:
		app_switch(a, PANE_EVENTS);
		break;
	case ACT_PANE_HEADER:
		app_switch(a, PANE_HEADER);
		break;
	case ACT_PANE_HEX:
		app_switch(a, PANE_HEX);
		break;
	case ACT_HEX:
		msg(a, EL_MESSAGE, "x shows the bytes of a record or section: select one in "
		    "events (3) or header (4)");
		break;
	case ACT_RECORD:
		msg(a, EL_MESSAGE, "not a hex view");
		break;
	case ACT_ZOOM_DSO:
	case ACT_ZOOM_THREAD:
		msg(a, EL_MESSAGE, "d and t zoom in the hot functions (1)%s",
		    act == ACT_ZOOM_THREAD ? "; in processes (2), t shows a thread's" : "");
		break;
	case ACT_EVENTS:
		msg(a, EL_MESSAGE, "v lists the events of a process or thread (2) or a symbol (1)");
		break;
	case ACT_ANNOTATE:
		msg(a, EL_MESSAGE, "a annotates a symbol of the hot functions (1)");
		break;
	case ACT_REDRAW:
		clearok(curscr, TRUE);
		break;
	default:
		msg(a, EL_MESSAGE, "%s does nothing in this pane", keys_action_name(act));
		break;
	}
}

/* ---- drawing ---- */

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

static void
draw_title(struct app *a)
{
	const struct session *s = a->s;
	const char *base = strrchr(s->path, '/');
	char buf[1024], span[32];

	char sym[64];

	fill_line(a, 0, EL_TITLE);
	fmt_span(span, sizeof span, a->t_last > a->t_first ? a->t_last - a->t_first : 0);
	if (a->sym == NULL || s->counts.by_type[PERF_RECORD_SAMPLE] == 0)
		sym[0] = '\0';
	else if (!a->sym->done)
		snprintf(sym, sizeof sym, " | symbols %.0f%%", 100 * symbols_progress(a->sym));
	else
		snprintf(sym, sizeof sym, " | symbols in %.2f s", a->sym_wall);
	snprintf(buf, sizeof buf, " perfnav  %s%s | perf %s | %s | %" PRIu64 " samples%s | %s | "
	    "%zu records, %.2f s to load%s",
	    s->from_stdin ? "(stdin)" : base && base[1] ? base + 1 : s->path,
	    s->damaged ? " [damaged]" : "", s->feat.version ? s->feat.version : "?", a->events,
	    s->counts.by_type[PERF_RECORD_SAMPLE], sym, span, s->index.n, a->load_secs,
	    s->counts.by_type[PERF_RECORD_LOST] ? " | LOST records!" : "");
	put_text(0, 0, COLS, buf);
}

static void
draw_tabs(struct app *a)
{
	struct nav_view *top = nav_top(&a->nav);
	int root = a->nav.n ? a->nav.v[0].pane : START_PANE, x = 0;

	fill_line(a, 1, EL_TAB);
	for (int i = 0; i < PANE_NTABS; i++) {
		char buf[64];
		bool on = root == i;
		int w;

		snprintf(buf, sizeof buf, " %d %s ", i + 1, pane_ops_of((enum pane_id)i)->title);
		w = (int)strlen(buf);
		a->tab_x[i] = x;
		attrset((attr_t)a->ta.a[on ? EL_TAB_ACTIVE : EL_TAB]);
		put_text(1, x, COLS - x, buf);
		x += w + 1;
	}
	a->tab_x[PANE_NTABS] = x;
	if (top && top->pane >= PANE_NTABS) {
		attrset((attr_t)a->ta.a[EL_TAB_ACTIVE]);
		put_text(1, x, COLS - x, top->pane == PANE_HELP ? " ? Help " : " a Annotate ");
	}
}

static void
draw_status(struct app *a)
{
	struct pane *p = cur_pane(a);
	char path[512], buf[1024];
	int y = LINES - 1, pw;
	const char *hint = p->ops->help ? p->ops->help(p) : "";

	fill_line(a, y, EL_STATUS);
	if (a->in != IN_NONE) {
		snprintf(buf, sizeof buf, "%s%s", a->in == IN_SEARCH ? "/" : "filter: ", a->in_buf);
		attrset((attr_t)a->ta.a[EL_STATUS]);
		put_text(y, 0, COLS - 1, buf);
		if (a->msg[0]) {
			int x = text_width(buf) + 3;

			attrset((attr_t)a->ta.a[a->msg_el ? a->msg_el : EL_MESSAGE]);
			if (x < COLS)
				put_text(y, x, COLS - x, a->msg);
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
		snprintf(buf, sizeof buf, "%s  ?:help q:quit", hint);
		if (text_width(buf) >= COLS - pw)
			snprintf(buf, sizeof buf, "?:help q:quit");
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

static void
draw(struct app *a)
{
	struct pane *p = cur_pane(a);
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
	draw_title(a);
	draw_tabs(a);
	if (p->ops->resize)
		p->ops->resize(p, c.h, c.w);
	if (p->ops->draw)
		p->ops->draw(p, &c);
	else if (p->is_list)
		widget_draw(&p->w, &c);
	draw_status(a);
	refresh();
}

/* ---- mouse ---- */

static void
mouse(struct app *a)
{
	MEVENT ev;
	struct pane *p = cur_pane(a);

	if (getmouse(&ev) != OK)
		return;
#ifdef BUTTON5_PRESSED
	if (ev.bstate & BUTTON5_PRESSED) {
		if (p->is_list)
			widget_scroll(&p->w, 3);
		else
			do_action(a, ACT_DOWN, 0);
		return;
	}
#endif
	if (ev.bstate & BUTTON4_PRESSED) {
		if (p->is_list)
			widget_scroll(&p->w, -3);
		else
			do_action(a, ACT_UP, 0);
		return;
	}
	if (!(ev.bstate & (BUTTON1_CLICKED | BUTTON1_PRESSED | BUTTON1_DOUBLE_CLICKED)))
		return;
	if (ev.y == 1) {
		for (int i = 0; i < PANE_NTABS; i++)
			if (ev.x >= a->tab_x[i] && ev.x < a->tab_x[i + 1])
				app_switch(a, i);
		return;
	}
	if (p->is_list && ev.y >= 3 && ev.y < LINES - 1) {
		if (widget_click(&p->w, ev.y - 3) && (ev.bstate & BUTTON1_DOUBLE_CLICKED))
			do_action(a, ACT_ENTER, 0);
	}
}

/* ---- start-up ---- */

static void
startup_err(void *arg, int line, const char *m)
{
	struct app *a = arg;
	char buf[512];
	int k = snprintf(buf, sizeof buf, "perfnav: keys file line %d: %s\n", line, m);

	if (k < 0)
		return;
	GROW(a->startup_msgs, a->startup_cap, a->startup_len + (size_t)k + 1);
	memcpy(a->startup_msgs + a->startup_len, buf, (size_t)k + 1);
	a->startup_len += (size_t)k;
}

static void
load_keys(struct app *a)
{
	const char *maps[PANE_COUNT + 1];
	const char *xdg = getenv("XDG_CONFIG_HOME"), *home = getenv("HOME");
	char path[4096];
	int bad;

	for (int i = 0; i < PANE_COUNT; i++)
		maps[i] = pane_ops_of((enum pane_id)i)->name;
	maps[PANE_COUNT] = NULL;
	keys_init(&a->keys, maps);
	keys_parse(&a->keys, keys_default_text, NULL, NULL);
	if (xdg && xdg[0])
		snprintf(path, sizeof path, "%s/perfnav/keys", xdg);
	else
		snprintf(path, sizeof path, "%s/.config/perfnav/keys", home ? home : ".");
	bad = keys_load_file(&a->keys, path, startup_err, a);
	if (bad)
		msg(a, EL_ERROR, "%s: %d bad line%s ignored (shown on exit)", path, bad,
		    bad == 1 ? "" : "s");
}

static void
title_info(struct app *a)
{
	const struct session *s = a->s;
	size_t o = 0;

	a->events[0] = '\0';
	for (size_t i = 0; i < s->attrs.n && o < sizeof a->events; i++)
		o += (size_t)snprintf(a->events + o, sizeof a->events - o, "%s%s", i ? "," : "",
		    session_attr_name(s, (int)i));
	if (s->attrs.n == 0)
		snprintf(a->events, sizeof a->events, "no events");
	if (s->feat.sec[PF_FEAT_SAMPLE_TIME].status == FEAT_OK && s->feat.sample_time_last) {
		a->t_first = s->feat.sample_time_first;
		a->t_last = s->feat.sample_time_last;
	} else {
		for (size_t i = 0; i < s->index.n; i++)
			if (s->index.v[i].time) {
				a->t_first = s->index.v[i].time;
				break;
			}
		a->t_last = s->index.n ? s->index.v[s->index.n - 1].time : 0;
	}
}

static double
now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static int
curses_start(struct app *a)
{
	FILE *in = stdin, *out = stdout;

	/* the recording may be on stdin, and stdout may be a pipe: use the tty */
	if (a->s->from_stdin || !isatty(STDIN_FILENO) || !isatty(STDOUT_FILENO)) {
		tty_in = fopen("/dev/tty", "r");
		tty_out = fopen("/dev/tty", "w");
		if (tty_in == NULL || tty_out == NULL) {
			fprintf(stderr, "perfnav: no terminal (/dev/tty: %s); the text subcommands "
			    "(perfnav header|stats|dump) work without one\n", strerror(errno));
			if (tty_in)
				fclose(tty_in);
			if (tty_out)
				fclose(tty_out);
			tty_in = tty_out = NULL;
			return -1;
		}
		in = tty_in;
		out = tty_out;
	}
	app_screen = newterm(NULL, out, in);
	if (app_screen == NULL) {
		fprintf(stderr, "perfnav: cannot use the terminal (TERM=%s)\n",
		    getenv("TERM") ? getenv("TERM") : "");
		return -1;
	}
	set_term(app_screen);
	curses_on = true;
	fatal_set_hook(fatal_hook);
	signal(SIGINT, on_signal);
	signal(SIGTERM, on_signal);
	signal(SIGHUP, on_signal);
	signal(SIGQUIT, on_signal);
	stderr_capture();
	cbreak();
	noecho();
	nonl();
	keypad(stdscr, TRUE);
	set_escdelay(25);
	curs_set(0);
	mousemask(ALL_MOUSE_EVENTS, NULL);
	mouseinterval(0);
	app_theme_apply(&a->theme, &a->ta, a->mono);
	return 0;
}

static void
curses_stop(void)
{
	terminal_restore();
	if (app_screen) {
		delscreen(app_screen);
		app_screen = NULL;
	}
	if (tty_in)
		fclose(tty_in);
	if (tty_out)
		fclose(tty_out);
	tty_in = tty_out = NULL;
	signal(SIGINT, SIG_DFL);
	signal(SIGTERM, SIG_DFL);
	signal(SIGHUP, SIG_DFL);
	signal(SIGQUIT, SIG_DFL);
	fatal_set_hook(NULL);
	stderr_replay();
}

/*
 * A file the symbolizer refused (a perf-PID.map that is a FIFO, a DSO path
 * that is a device...) since the last look: said on the status line, the
 * header pane lists them all.  Returns true if there was one.
 */
static bool
note_refusals(struct app *a)
{
	size_t n = symbolizer_refusals(a->sym->z, NULL, 0, NULL);
	struct sym_refusal *r;
	const char *base;

	if (n <= a->refusals_seen)
		return false;
	r = xcalloc(n, sizeof *r);
	symbolizer_refusals(a->sym->z, r, n, NULL);
	/* the file's name (its path is in the header pane), its reason */
	base = strrchr(r[n - 1].path, '/');
	base = base != NULL && base[1] ? base + 1 : r[n - 1].path;
	msg(a, EL_WARNING, "%s %s: %s; see the header pane (4)", base,
	    r[n - 1].cut ? "cut short" : "refused", r[n - 1].why);
	a->refusals_seen = n;
	free(r);
	return true;
}

/*
 * The input loop.  While symbols are being resolved, keys are read without
 * waiting and every pause between them resolves a slice of about
 * SYM_SLICE_SECS, so the screen stays responsive; the hot functions take
 * the rows so far every SYM_PEEK_SECS.
 */
static void
loop(struct app *a)
{
	double last_draw = 0, last_peek = now(), peek_every = SYM_PEEK_FIRST;
	bool dirty = true;

	while (!a->quit) {
		bool working = a->sym != NULL && !a->sym->done;
		wint_t wc;
		int r, key;

		if (note_refusals(a))
			dirty = true;
		if (dirty || !working || now() - last_draw >= 0.1) {
			draw(a);
			last_draw = now();
			dirty = false;
		}
		timeout(working ? 0 : -1);
		r = get_wch(&wc);
		if (r == ERR) {
			if (!working)
				continue;
			if (symbols_step(a->sym, SYM_SLICE_SECS, 0)) {
				a->sym_wall = now() - a->t_start;
				dirty = true;
			} else if (now() - last_peek >= peek_every) {
				symbols_peek(a->sym);
				last_peek = now();
				peek_every = SYM_PEEK_SECS;
			}
			continue;
		}
		dirty = true;
		if (r == KEY_CODE_YES && wc == KEY_RESIZE) {
			clear();
			continue;
		}
		if (r == KEY_CODE_YES && wc == KEY_MOUSE) {
			a->msg[0] = '\0';
			mouse(a);
			continue;
		}
		key = r == KEY_CODE_YES ? KEYS_FN + (int)wc : (int)wc;
		if (key == 13)
			key = KEYS_ENTER;
		if (a->in != IN_NONE) {
			input_key(a, key);
			continue;
		}
		a->msg[0] = '\0';
		if (COLS < MIN_COLS || LINES < MIN_LINES) {
			if (key == 'q' || key == KEYS_ESC)
				a->quit = true;
			continue;
		}
		do_action(a, keys_lookup(&a->keys, cur_pane(a)->ops->name, key), key);
	}
}

int
tui_run(const struct common_opts *co)
{
	struct app *a = xcalloc(1, sizeof *a);
	const char *nc = getenv("NO_COLOR");
	char err[512];
	double t0 = now();
	int status = EXIT_OK, tr;
	struct sym_opts so;

	a->co = co;
	a->t_start = t0;
	tr = theme_load(&a->theme, co->theme, PKGDATADIR, err, sizeof err);
	if (tr < 0) {
		fprintf(stderr, "perfnav: %s\n", err);
		free(a);
		return EXIT_USAGE;
	}
	if (tr > 0)
		fprintf(stderr, "perfnav: %s\n", err);
	a->mono = (nc && nc[0]) || strcmp(a->theme.name, "mono") == 0;
	a->s = cmd_open_progress(co, true);
	if (a->s == NULL) {
		free(a);
		return EXIT_FAIL;
	}
	a->load_secs = now() - t0;
	load_keys(a);
	title_info(a);
	cmd_sym_opts(co, &so);
	a->sym = symbols_new(a->s, &so);
	if (a->sym->done)
		a->sym_wall = now() - t0;
	for (int i = 0; i < PANE_COUNT; i++) {
		if (pane_create_sym(&a->panes[i], (enum pane_id)i, a->s, &a->keys, a->sym) < 0) {
			fprintf(stderr, "perfnav: cannot set up the %s pane\n",
			    pane_ops_of((enum pane_id)i)->name);
			status = EXIT_FAIL;
			goto out;
		}
		nav_view_init(&a->roots[i], i);
	}
	if (curses_start(a) < 0) {
		status = EXIT_FAIL;
		goto out;
	}
	nav_reset(&a->nav, &a->roots[START_PANE]);
	view_apply(a);
	if (a->s->over_budget && a->msg[0] == '\0')
		msg(a, EL_DAMAGED, "loading stopped at the memory budget (%llu MiB): this is part of the recording; see the header pane (4), --max-memory raises it",
		    (unsigned long long)(a->s->mem_budget >> 20));
	else if (a->s->damaged && a->msg[0] == '\0')
		msg(a, EL_DAMAGED, "damaged recording: %zu problems, see the header pane (4)",
		    a->s->diags.n);
	loop(a);
	curses_stop();
	cmd_report_refusals(stderr, a->sym->z);
	status = cmd_report_diags(a->s, co->strict);
out:
	if (a->startup_msgs)
		fputs(a->startup_msgs, stderr);
	free(a->startup_msgs);
	for (int i = 0; i < PANE_COUNT; i++)
		if (a->panes[i].ops)
			pane_destroy(&a->panes[i]);
	symbols_free(a->sym);
	keys_free(&a->keys);
	session_close(a->s);
	free(a);
	return status;
}

int
tui_main(int argc, char **argv)
{
	struct common_opts co;
	char **pos;
	int npos, status = EXIT_OK;

	argv[0] = (char *)"";
	if (opts_parse(argc, argv, "[OPTIONS] [FILE]\n\n"
	    "Browse a recording in the terminal: hot functions, processes, every event,\n"
	    "the header and the bytes of every record.  Press ? inside for the keys.\n"
	    "Themes: --theme default|mono|light|dark|high-contrast|PATH; NO_COLOR=1 for none.\n"
	    "Keys and themes of your own: $XDG_CONFIG_HOME/perfnav/keys, .../perfnav/themes/.",
	    NULL, NULL, NULL, &co, &pos, &npos, &status))
		return status;
	if (npos > 0) {
		fprintf(stderr, "perfnav: unexpected argument '%s' (see perfnav --help for the "
		    "commands)\n", pos[0]);
		return EXIT_USAGE;
	}
	return tui_run(&co);
}
