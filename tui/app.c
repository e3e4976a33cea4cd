#include "config.h"

#ifndef NCURSES_WIDECHAR
#define NCURSES_WIDECHAR 1
#endif

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <wchar.h>

#include <curses.h>

#include "core/core.h"
#include "symbolize/symbolizer.h"
#include "tui/app.h"
#include "tui/app_priv.h"
#include "symbolize/hist.h"
#include "tui/cmd/cmd.h"
#include "tui/keytab.h"
#include "tui/scope_edit.h"
#include "tui/symbols.h"

/*
 * app.c: the curses application's start-up and input loop: load the
 * recording, the keys and the symbols, set up the panes, read keys (and
 * resolve symbols between them), and report on the way out.
 */

#ifndef PKGDATADIR
#define PKGDATADIR "/usr/local/share/perfnav"
#endif

/* Symbolizing between keys: a slice's time, how often the table refreshes. */

void
app_msg(struct app *a, int el, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(a->msg, sizeof a->msg, fmt, ap);
	va_end(ap);
	a->msg_el = el;
}

/*
 * The index entry written after the load, on a thread of its own beside
 * the symbol workers: once written, the index is read from its pages, not
 * from anonymous memory (measured on fp-1G: the first open's "symbols in"
 * the same as without the cache within the noise, its peak anonymous
 * memory 772 -> 524 MB against saving once the symbols are in).  An entry
 * over --cache-size is said on the message line.
 */
static void
save_index(struct app *a, const struct common_opts *co)
{
	char why[200];

	if (co->cache_own && !cmd_cache_save_index(co, a->s, why, sizeof why))
		app_msg(a, EL_WARNING, "%s", why);
}

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
	pane_keys_defaults(&a->keys, NULL, NULL);
	if (xdg && xdg[0])
		snprintf(path, sizeof path, "%s/perfnav/keys", xdg);
	else
		snprintf(path, sizeof path, "%s/.config/perfnav/keys", home ? home : ".");
	bad = keys_load_file(&a->keys, path, startup_err, a);
	if (bad)
		app_msg(a, EL_ERROR, "%s: %d bad line%s ignored (shown on exit)", path, bad,
		    bad == 1 ? "" : "s");
}

static void
title_info(struct app *a)
{
	const struct session *s = a->s;
	const struct features *ft = session_features(s);
	const struct attr_table *at = session_attrs(s);
	const struct rec_index *ix = session_index(s);
	size_t o = 0;

	a->events[0] = '\0';
	for (size_t i = 0; i < at->n && o < sizeof a->events; i++)
		o += (size_t)snprintf(a->events + o, sizeof a->events - o, "%s%s", i ? "," : "",
		    session_attr_name(s, (int)i));
	if (at->n == 0)
		snprintf(a->events, sizeof a->events, "no events");
	if (ft->sec[PF_FEAT_SAMPLE_TIME].status == FEAT_OK && ft->sample_time_last) {
		a->t_first = ft->sample_time_first;
		a->t_last = ft->sample_time_last;
	} else {
		for (size_t i = 0; i < ix->n; i++)
			if (index_ent(ix, i)->time) {
				a->t_first = index_ent(ix, i)->time;
				break;
			}
		a->t_last = ix->n ? index_ent(ix, ix->n - 1)->time : 0;
	}
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
	app_msg(a, EL_WARNING, "%s %s: %s; see the header pane (4)", base,
	    r[n - 1].cut ? "cut short" : "refused", r[n - 1].why);
	a->refusals_seen = n;
	free(r);
	return true;
}

/* Diff mode: make NEW's panes (once NEW is resolved); 0, or -1. */
static int
diff_panes(struct app *a)
{
	struct app_other *o = &a->other;
	int set = !a->shown;

	for (int i = 0; i < PANE_COUNT; i++) {
		if (pane_create_sym(&a->pane_set[set][i], (enum pane_id)i, o->s, &a->keys,
		    o->sym) < 0) {
			app_msg(a, EL_ERROR, "cannot set up NEW's %s pane",
			    pane_ops_of((enum pane_id)i)->name);
			return -1;
		}
		nav_view_init(&a->root_set[set][i], i);
	}
	return 0;
}

/*
 * Diff mode: whether both recordings are resolved (NEW's thread joined);
 * the first time, NEW's panes are made and the time scope applied.
 */
static bool
pair_poll(struct app *a)
{
	if (a->pair_ready)
		return true;
	if (symbols_pair_waiting(a->sym))
		return false;
	if (diff_panes(a) == 0)
		a->pair_ready = true;
	else
		a->diff = false;	/* w says: one recording */
	a->sym_wall = mono_seconds() - a->t_start;
	a->sym->gen++;		/* the diff panes fill in */
	app_scope_apply(a);
	return true;
}

#define PANE_WORK_SECS	0.02	/* a step of a pane's long work: a key waits at most this */
#define PANE_STEP_ROWS	8192	/* rows of a tree a step takes between looks at the clock */

/*
 * A step of a scope's recount (symbols_scope_step).  For tests of the
 * screen while it goes on, PERFNAV_TEST_RECOUNT_DELAY_MS (at most 1,000)
 * makes each step a pause and 16 positions.
 */
static void
recount_step(struct app *a)
{
	const char *env = getenv("PERFNAV_TEST_RECOUNT_DELAY_MS");
	long ms = env != NULL ? strtol(env, NULL, 10) : 0;

	if (ms > 0 && ms <= 1000) {
		struct timespec ts = { 0, ms * 1000000L };

		nanosleep(&ts, NULL);
		if (!symbols_scope_step_n(a->sym, 16))
			return;
	} else if (!symbols_scope_step(a->sym, PANE_WORK_SECS)) {
		return;
	}
	if (a->enter_pending)
		app_view_apply(a);	/* the view entered meanwhile (Esc) */
	if (a->sym->scope.time_pending)
		app_scope_apply(a);	/* changed meanwhile (nothing does: keys wait) */
	/* the keys typed meanwhile, read next in the order typed (curses gives back
	 * the last pushed first) */
	while (!symbols_scope_busy(a->sym) && a->nahead > 0) {
		a->nahead--;
		if (a->ahead[a->nahead].r == KEY_CODE_YES)
			ungetch((int)a->ahead[a->nahead].wc);
		else
			unget_wch((wchar_t)a->ahead[a->nahead].wc);
	}
}

/*
 * A key while a recount goes on: the panes wait for it; Q (quit-all)
 * leaves (not as text in a line being edited), any other is kept and
 * acted on once the recount is done (the mouse's are not).
 */
static void
recount_key(struct app *a, int r, wint_t wc)
{
	int key = r == KEY_CODE_YES ? KEYS_FN + (int)wc : (int)wc;
	MEVENT ev;

	if (key == KEYS_FN + KEY_MOUSE) {
		(void)getmouse(&ev);	/* taken off the queue, not acted on */
		return;
	}
	if (a->in == IN_NONE &&
	    keys_lookup(&a->keys, app_view_pane(a)->ops->name, key) == ACT_QUIT_ALL) {
		a->quit = true;
		return;
	}
	if (a->nahead < APP_AHEAD) {
		a->ahead[a->nahead].r = r;
		a->ahead[a->nahead++].wc = wc;
		app_msg(a, EL_MESSAGE, "recounting the scope: %zu key%s kept for after", a->nahead,
		    a->nahead == 1 ? "" : "s");
	} else {
		app_msg(a, EL_WARNING, "recounting the scope: %d keys kept, the rest dropped",
		    APP_AHEAD);
	}
}

/*
 * The input loop.  While symbols are being resolved on the workers
 * (symbols_start), keys are read with a short timeout and every turn
 * looks whether they are done (symbols_poll, an atomic load) and redraws
 * the progress every 0.1 s; the UI thread itself resolves nothing.  A
 * pane building a tree gets a step of PANE_WORK_SECS a turn and keys are
 * looked at between the steps.
 */
static void
loop(struct app *a)
{
	double last_draw = 0;
	bool dirty = true, busy = false;

	while (!a->quit) {
		bool working = (a->sym != NULL && (!a->sym->done || (a->diff && !a->pair_ready) ||
		    symbols_tables_busy(a->sym))) || a->export_pid > 0;
		struct pane *vp = app_view_pane(a);
		bool was_busy = busy;
		wint_t wc;
		int r, key, w;

		/* a scope's recount: a step, then keys again; the panes wait for it */
		if (symbols_scope_busy(a->sym)) {
			recount_step(a);
			dirty = true;
		}
		/* the shown pane's long work (a tree being built): a step, then keys again */
		w = vp->ops->work != NULL && !symbols_scope_busy(a->sym) ?
		    vp->ops->work(vp, PANE_WORK_SECS) : PANE_WORK_NONE;
		busy = w == PANE_WORK_MORE || symbols_scope_busy(a->sym);
		if (w == PANE_WORK_DONE || (was_busy && !busy))
			dirty = true;	/* built: shown at once */
		working = working || busy;

		if (working && a->sym != NULL && !a->sym->done && symbols_poll(a->sym)) {
			if (!a->diff)
				a->sym_wall = mono_seconds() - a->t_start;
			app_scope_apply(a);
			dirty = true;
		}
		if (working && a->diff && a->sym->done && pair_poll(a))
			dirty = true;
		if (note_refusals(a) || app_export_poll(a))
			dirty = true;
		if (dirty || !working || mono_seconds() - last_draw >= 0.1) {
			unsigned tables = a->sym != NULL ? symbols_tables_changes(a->sym) : 0;

			app_draw(a);
			last_draw = mono_seconds();
			/* a table started or made ready during the draw (the hot pane asks for its
			 * keys' table when it draws, and takes it up when a later part of the draw
			 * looks at its rows): draw again, or its rows show at the next key */
			dirty = a->sym != NULL && symbols_tables_changes(a->sym) != tables;
			/* a build the draw started (a pane shown first, a new scope): its first
			 * step now, drawn again at once if that was all */
			if (!busy && vp->ops->work != NULL && !symbols_scope_busy(a->sym)) {
				w = vp->ops->work(vp, PANE_WORK_SECS);
				busy = w == PANE_WORK_MORE;
				dirty = dirty || w == PANE_WORK_DONE;
			}
		}
		working = working || dirty || (a->sym != NULL && symbols_tables_busy(a->sym));
		timeout(busy || dirty ? 0 : !working ? -1 : 50);
		r = get_wch(&wc);
		if (r == ERR)
			continue;
		dirty = true;
		if (r == KEY_CODE_YES && wc == KEY_RESIZE) {
			clear();
			continue;
		}
		if (symbols_scope_busy(a->sym)) {
			recount_key(a, r, wc);
			continue;
		}
		if (r == KEY_CODE_YES && wc == KEY_MOUSE) {
			a->msg[0] = '\0';
			app_mouse(a);
			continue;
		}
		key = r == KEY_CODE_YES ? KEYS_FN + (int)wc : (int)wc;
		if (key == 13)
			key = KEYS_ENTER;
		if (a->in != IN_NONE) {
			app_lineedit_key(a, key);
			continue;
		}
		a->msg[0] = '\0';
		if (a->row_text[0] != '\0') {
			a->row_text[0] = '\0';	/* any key closes the row's text */
			continue;
		}
		if (COLS < MIN_COLS || LINES < MIN_LINES) {
			if (key == 'q' || key == KEYS_ESC)
				a->quit = true;
			continue;
		}
		app_actions_do(a, keys_lookup(&a->keys, app_view_pane(a)->ops->name, key), key);
	}
}

/* Diff mode: swap the recording shown with the other one. */
static void
swap_rec(struct app *a)
{
	struct app_other t = a->other;

	a->other.s = a->s;
	a->other.sym = a->sym;
	memcpy(a->other.events, a->events, sizeof a->events);
	a->other.t_first = a->t_first;
	a->other.t_last = a->t_last;
	a->other.load_secs = a->load_secs;
	a->other.refusals_seen = a->refusals_seen;
	a->s = t.s;
	a->sym = t.sym;
	memcpy(a->events, t.events, sizeof a->events);
	a->t_first = t.t_first;
	a->t_last = t.t_last;
	a->load_secs = t.load_secs;
	a->refusals_seen = t.refusals_seen;
	a->shown ^= 1;
	a->panes = a->pane_set[a->shown];
	a->roots = a->root_set[a->shown];
}

void
app_diff_swap(struct app *a)
{
	struct nav_view root, top;
	int tab = nav_depth(&a->nav) > 0 ? a->nav.v[0].pane : a->start_pane, ev;
	bool carry;

	if (!a->diff) {
		app_msg(a, EL_MESSAGE, "one recording: perfnav OLD NEW compares two");
		return;
	}
	if (!a->pair_ready) {
		char w[96];

		app_msg(a, EL_MESSAGE, "w shows NEW once both are resolved (%s)",
		    symbols_pair_wait_text(a->sym, w, sizeof w));
		return;
	}
	app_view_save(a);
	if (nav_depth(&a->nav) > 0)
		a->roots[tab] = a->nav.v[0];
	/* a filtered events list (a row's samples) shows the other's samples of it */
	top = *nav_top(&a->nav);
	carry = nav_depth(&a->nav) > 1 && top.pane == PANE_EVENTS && top.target == NAV_T_NONE &&
	    top.filter[0] != '\0';
	/* the event shown follows by name, where the other recording has it */
	ev = symbols_pair_event(a->sym, a->sym->scope.ev);
	swap_rec(a);
	if (ev >= 0 && (size_t)ev != a->sym->scope.ev) {
		a->sym->scope.ev = (size_t)ev;
		a->sym->scope.gen++;
	}
	if (tab == PANE_HEX || tab >= PANE_NTABS)
		tab = PANE_EVENTS;
	root = a->roots[tab];
	nav_reset(&a->nav, &root);
	if (carry) {
		if (strncmp(top.label, "OLD ", 4) == 0 || strncmp(top.label, "NEW ", 4) == 0)
			memcpy(top.label, a->shown ? "NEW" : "OLD", 3);
		top.cursor = NAV_NONE;
		nav_push(&a->nav, &top);
	}
	app_view_apply(a);
	app_msg(a, EL_MESSAGE, "showing %s: %s (w: %s)", a->shown ? "NEW" : "OLD",
	    a->names[a->shown], a->shown ? "OLD" : "NEW");
}

/* --sort against the recording (branch keys need branch stacks; the diff pairs by sym): 0 or -1. */
static int
sort_setup(const struct app *a, const struct tui_opts *o, char *msg, size_t n)
{
	struct keytab_spec sp;

	if (scope_sort_merged(&o->hot_sort))
		return 0;
	if (a->diff) {
		snprintf(msg, n, "--sort: the diff pairs rows by sym with comm or dso");
		return -1;
	}
	return keytab_spec_of(a->s, o->hot_sort.keys, o->hot_sort.n, false, &sp, msg, n);
}

/* The start options set up against the recording: 0, or -1 with err filled. */
static int
start_setup(struct app *a, struct tui_opts *o, char *err, size_t n)
{
	if (filter_opts_setup(&o->fo, a->s, a->co->input, err, n) < 0)
		return -1;
	return sort_setup(a, o, err, n);
}

/* A recording's symbols with the start options (scope f, --children, --sort, -g). */
static struct symbols *
make_symbols(const struct session *s, const struct sym_opts *so, const struct hist_filter *f,
    const struct tui_opts *o)
{
	struct symbols *sy = symbols_new(s, so, f);

	if (o->children >= 0)
		symbols_set_children(sy, o->children > 0);
	sy->scope.hot_sort = o->hot_sort;
	sy->scope.hot_callers = o->hot_callers;
	sy->steps = PANE_STEP_ROWS;	/* the loop steps the panes' trees between keys */
	return sy;
}

/*
 * Diff mode: open NEW (o->input2), set up the start options against it
 * (o->fo2), make its symbols (the options as OLD's) and start resolving
 * it in a thread (NEW's panes come once both are in: pair_poll).  0, or
 * -1 (cannot open) or -2 (a bad scope option) with a message on stderr,
 * or -3 (quit while it loaded).
 */
static int
diff_open(struct app *a, struct tui_opts *o, const struct sym_opts *so)
{
	struct common_opts co2 = o->co2;	/* input2 and, for a bundle, its own files */
	struct sym_opts so2;
	double t0 = mono_seconds();
	char err[512];
	bool quit;

	cmd_sym_opts(&co2, &so2);
	so2.no_path_cache = so->no_path_cache;
	swap_rec(a);
	a->s = app_load(a, &co2, a->names[1], t0, &quit);
	if (a->s == NULL || quit) {	/* q may come as the load ends: it still quits */
		session_close(a->s);
		a->s = NULL;
		swap_rec(a);
		return quit ? -3 : -1;
	}
	a->load_secs = mono_seconds() - t0;
	title_info(a);
	/* the start options, set up against NEW's own recording (--time's percents: its span) */
	if (filter_opts_setup(&o->fo2, a->s, o->input2, err, sizeof err) < 0) {
		fprintf(stderr, "perfnav: %s\n", err);
		swap_rec(a);
		return -2;
	}
	a->sym = make_symbols(a->s, &so2, filter_opts_filter(&o->fo2), o);
	swap_rec(a);
	/* both on workers: NEW's panes once both are in (pair_poll) */
	symbols_pair_start(a->sym, a->other.sym);
	return 0;
}

/* The app of a run, its files and panes' sets in place, started at t0. */
static struct app *
app_new(const struct tui_opts *o, double t0)
{
	struct app *a = xcalloc(1, sizeof *a);

	a->co = &o->co;
	a->t_start = t0;
	a->panes = a->pane_set[0];
	a->roots = a->root_set[0];
	a->diff = o->input2 != NULL;
	a->names[0] = o->co.bundle ? o->co.bundle : o->co.input;
	a->names[1] = o->co2.bundle ? o->co2.bundle : o->input2;
	a->export_fd = -1;
	return a;
}

int
tui_run(struct tui_opts *o)
{
	const struct common_opts *co = &o->co;
	double t0 = mono_seconds();
	struct app *a = app_new(o, t0);
	const char *nc = getenv("NO_COLOR");
	char err[512];
	int status = EXIT_OK, tr;
	struct sym_opts so;
	bool quit;

	tr = theme_load(&a->theme, co->theme, PKGDATADIR, err, sizeof err);
	if (tr < 0) {
		fprintf(stderr, "perfnav: %s\n", err);
		free(a);
		return EXIT_USAGE;
	}
	if (tr > 0)
		fprintf(stderr, "perfnav: %s\n", err);
	/* NO_COLOR asks for no colour unless a theme is named (then that one) */
	a->mono = (nc && nc[0] && (co->theme == NULL || co->theme[0] == '\0')) ||
	    strcmp(a->theme.name, "mono") == 0;
	/* the index entry saved after the load, what stops it said here (not on stderr) */
	o->co.cache_own = !a->diff;
	load_keys(a);
	/* a long load shows how far it got (the terminal is up then: what is said on
	 * stderr until the end is kept and shown at exit, app_term.c) */
	a->s = app_load(a, co, a->names[0], t0, &quit);
	if (a->s != NULL && !quit && start_setup(a, o, err, sizeof err) < 0) {
		fprintf(stderr, "perfnav: %s\n", err);
		status = EXIT_USAGE;
	}
	if (a->s == NULL || quit || status != EXIT_OK) {
		/* cannot open, a bad start option, or q while loading */
		if (a->s == NULL && !quit)
			status = EXIT_FAIL;
		goto out;
	}
	a->load_secs = mono_seconds() - t0;
	save_index(a, &o->co);
	snprintf(a->start_scope, sizeof a->start_scope, "%s", o->scope_text);
	title_info(a);
	cmd_sym_opts(co, &so);
	so.no_path_cache = a->diff;	/* a path's cache entry may be the other file's build */
	a->sym = make_symbols(a->s, &so, filter_opts_filter(&o->fo), o);
	if (a->sym->done)
		a->sym_wall = mono_seconds() - t0;
	if (!a->diff) {
		a->sym->cache = co;	/* its finished hist kept (docs/cache.md) */
		symbols_start(a->sym);	/* diff mode: both at diff_open */
	}
	if (a->diff && (tr = diff_open(a, o, &so)) < 0) {
		status = tr == -3 ? EXIT_OK : tr == -2 ? EXIT_USAGE : EXIT_FAIL;	/* -3: q */
		goto out;
	}
	for (int i = 0; i < PANE_COUNT; i++) {
		if (pane_create_sym(&a->panes[i], (enum pane_id)i, a->s, &a->keys, a->sym) < 0) {
			fprintf(stderr, "perfnav: cannot set up the %s pane\n",
			    pane_ops_of((enum pane_id)i)->name);
			status = EXIT_FAIL;
			goto out;
		}
		nav_view_init(&a->roots[i], i);
	}
	if (app_term_start(a) < 0) {
		status = EXIT_FAIL;
		goto out;
	}
	a->start_pane = PANE_HOT;
	if (session_counts(a->s)->by_type[PF_REC_SAMPLE] == 0 &&
	    session_counts(a->s)->by_type[PF_REC_STAT] > 0)
		a->start_pane = PANE_COUNTERS;	/* a perf stat record file */
	nav_reset(&a->nav, &a->roots[a->start_pane]);
	app_view_apply(a);
	if (session_info(a->s).over_budget && a->msg[0] == '\0')
		app_msg(a, EL_DAMAGED, "loading stopped at the memory budget (%llu MiB): this is part of the recording; see the header pane (4), --max-memory raises it",
		    (unsigned long long)(session_info(a->s).mem_budget >> 20));
	else if (session_info(a->s).damaged && a->msg[0] == '\0')
		app_msg(a, EL_DAMAGED, "damaged recording: %zu problem%s, see the header pane (4)",
		    session_diags(a->s)->n, plural(session_diags(a->s)->n));
	loop(a);
	app_term_stop();
	app_export_finish(a);
	if (a->diff)
		symbols_pair_stop(a->sym);	/* q before NEW was in: leave off */
	if (a->shown)
		swap_rec(a);
	cmd_report_refusals(stderr, a->sym->z);
	status = cmd_report_diags(a->s, co->strict);
	if (a->diff) {
		cmd_report_refusals(stderr, a->other.sym->z);
		if (cmd_report_diags(a->other.s, co->strict) != EXIT_OK)
			status = EXIT_DAMAGED;
	}
out:
	app_term_stop();	/* up since a long load (app_load) when a step after it failed */
	if (a->startup_msgs)
		fputs(a->startup_msgs, stderr);
	free(a->startup_msgs);
	for (int k = 0; k < 2; k++)
		for (int i = 0; i < PANE_COUNT; i++)
			if (a->pane_set[k][i].ops)
				pane_destroy(&a->pane_set[k][i]);
	if (a->shown)
		swap_rec(a);
	symbols_free(a->sym);
	symbols_free(a->other.sym);
	keys_free(&a->keys);
	cmd_cache_close(a->s);
	session_close(a->s);
	if (a->other.s) {
		cmd_cache_close(a->other.s);
		session_close(a->other.s);
	}
	free(a);
	return status;
}

enum { OPT_SORT = 300, OPT_CHILDREN, OPT_NO_CHILDREN };

const char tui_usage[] = "[OPTIONS] [FILE | OLD NEW]\n\n"
    "Browse a recording in the terminal: hot functions, processes, every event,\n"
    "the header and the bytes of every record.  Press ? inside for the keys.\n"
    "Two recordings: a diff of NEW against OLD (w shows the other one).\n"
    "Themes: --theme default|mono|light|dark|high-contrast|PATH; NO_COLOR=1 for none.\n"
    "Keys and themes of your own: $XDG_CONFIG_HOME/perfnav/keys, .../perfnav/themes/.";

const struct cmd_opt tui_options[] = {
	{ "sort", 1, OPT_SORT, "KEYS: the hot functions' keys and columns, any of perfnav top's (default comm,dso,sym; perf's --sort): with sym and any of comm, pid, process, dso the rows expand into call paths; other keys make a table of their own, built in the background" },
	{ "children", 0, OPT_CHILDREN, "add callees' periods to their callers (default with callchains)" },
	{ "no-children", 0, OPT_NO_CHILDREN, "self overhead only" },
	{ "call-graph", 1, 'g', "...,ORDER,...: perf's -g; its order word sets the hot functions' call paths: caller (callees of each function, the default) or callee (its callers)" },
	FILTER_OPTS_ROWS,
	{ NULL, 0, 0, NULL },
};

/* A scope option's name as the title shows it: its first name in the table ("pid", not "pids"). */
static const char *
scope_opt_name(int val)
{
	for (const struct cmd_opt *t = tui_options; t->name != NULL; t++)
		if (t->val == val)
			return t->name;
	return "?";
}

/* The TUI's own options; 0, or -1 for a bad value (said on stderr). */
static int
tui_opt(void *arg, int val, const char *optarg)
{
	struct tui_opts *o = arg;
	const char *bad;
	char msg[200];

	if (filter_opt_is(val)) {
		size_t o2 = strlen(o->scope_text);

		if (o->nscope == sizeof o->scope / sizeof o->scope[0]) {
			fprintf(stderr, "perfnav: at most %zu scope options\n", o->nscope);
			return -1;
		}
		o->scope[o->nscope].val = val;	/* taken once the files are known (take_scope) */
		o->scope[o->nscope++].arg = optarg;
		snprintf(o->scope_text + o2, sizeof o->scope_text - o2, "%s%s %s", o2 ? ", " : "",
		    scope_opt_name(val), optarg);
		return 0;
	}
	switch (val) {
	case OPT_SORT:
		if (scope_parse_sort(optarg, &o->hot_sort, msg, sizeof msg) < 0) {
			fprintf(stderr, "perfnav: %s\n", msg);
			return -1;
		}
		return 0;
	case OPT_CHILDREN:
		o->children = 1;
		return 0;
	case OPT_NO_CHILDREN:
		o->children = 0;
		return 0;
	case 'g':
		if (scope_parse_order(optarg, &o->hot_callers, &bad) < 0) {
			fprintf(stderr, "perfnav: bad -g word '%s'\n", bad);
			return -1;
		}
		return 0;
	}
	return -1;
}

/*
 * The scope options given, into o->fo (one file: each value whole, as
 * perf report takes it) or, in diff mode, into OLD's o->fo and NEW's
 * o->fo2, each its part of a --time A,B:C,D (as perfnav diff).  0, or -1
 * for a bad value (said on stderr).
 */
static int
take_scope(struct tui_opts *o)
{
	char msg[FILTER_OPTS_MSG], buf[512];

	for (int k = 0; k < (o->input2 ? 2 : 1); k++)
		for (size_t i = 0; i < o->nscope; i++) {
			int val = o->scope[i].val;
			bool t = val == FILTER_OPT_TIME;
			const char *v = o->scope[i].arg;

			if (o->input2 != NULL)
				v = filter_opts_part(val, v, (size_t)k, t ? o->time_part[k] : buf,
				    t ? sizeof o->time_part[k] : sizeof buf);
			if (v == NULL)
				continue;	/* --time A,B: for OLD only */
			if (v[0] == '\0' || filter_opts_take(k ? &o->fo2 : &o->fo, val, v, msg,
			    sizeof msg) < 0) {
				if (v[0] == '\0')
					snprintf(msg, sizeof msg, "an empty part in '%s' for --time",
					    o->scope[i].arg);
				fprintf(stderr, "perfnav: %s\n", msg);
				return -1;
			}
		}
	return 0;
}

int
tui_main(int argc, char **argv)
{
	struct tui_opts o;
	char **pos;
	int npos, status = EXIT_OK;

	memset(&o, 0, sizeof o);
	o.children = -1;
	o.hot_callers = -1;
	argv[0] = (char *)"";
	if (opts_parse(argc, argv, tui_usage, tui_options, tui_opt, &o, &o.co, &pos, &npos,
	    &status))
		return status;
	if (o.co.merge && cmd_merge_inputs(&o.co, pos, &npos, "") < 0)
		return EXIT_FAIL;
	if (npos == 1)
		o.input2 = pos[0];	/* perfnav OLD NEW: diff mode */
	else if (npos > 0) {
		fprintf(stderr, "perfnav: unexpected argument '%s' (see perfnav --help for the "
		    "commands; two files open a diff)\n", pos[npos - 1]);
		return EXIT_USAGE;
	}
	/* a bundle (perfnav bundle) opens with its own symbols, each of a diff's its own */
	if (o.input2 != NULL) {
		o.co2 = o.co;
		o.co2.input = o.input2;
		if (cmd_bundle_input(&o.co2) < 0)
			return EXIT_FAIL;
		o.input2 = o.co2.input;
	}
	if (cmd_bundle_input(&o.co) < 0)
		return EXIT_FAIL;
	if (take_scope(&o) == 0)
		status = tui_run(&o);
	else
		status = EXIT_USAGE;
	filter_opts_free(&o.fo);
	filter_opts_free(&o.fo2);
	return status;
}
