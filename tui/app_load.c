#include "config.h"

#ifndef NCURSES_WIDECHAR
#define NCURSES_WIDECHAR 1
#endif

#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <wchar.h>

#include <curses.h>

#include "core/core.h"
#include "tui/app_priv.h"
#include "tui/cmd/cmd.h"
#include "tui/widget.h"

/*
 * app_load.c: the browser's recording loaded on a thread of its own, and,
 * once the load has taken LOAD_QUIET seconds, a screen saying how far it
 * got (the title with the share of the data walked, a bar, the bytes and
 * the seconds so far, the keys), redrawn every LOAD_TICK seconds; the
 * load's end is seen within LOAD_LOOK_MS.  The first screen
 * of a recording of many gigabytes comes at once and answers its keys: the
 * key bound to quit (q) or quit-all stops the load and leaves, a resize
 * redraws; the panes come when the load is done.  A quicker load shows
 * nothing of this.
 */
#define LOAD_QUIET	0.25
#define LOAD_TICK	0.1
#define LOAD_LOOK_MS	10

struct loading {
	const struct common_opts *co;
	const char		*name;	/* as the title shows it */
	struct session		*s;
	_Atomic uint64_t	 done, total;
	atomic_bool		 stop, finished;
};

static int
on_progress(void *arg, uint64_t done, uint64_t total)
{
	struct loading *l = arg;

	atomic_store(&l->done, done);
	atomic_store(&l->total, total);
	return atomic_load(&l->stop) ? 1 : 0;
}

static void *
load_main(void *arg)
{
	struct loading *l = arg;

	l->s = cmd_open_browse(l->co, on_progress, l);
	atomic_store(&l->finished, true);
	return NULL;
}

/* n bytes as "812.4 MiB" or "10.27 GiB". */
static void
fmt_size(char *buf, size_t n, uint64_t v)
{
	if (v >= (UINT64_C(1) << 30))
		snprintf(buf, n, "%.2f GiB", (double)v / (double)(UINT64_C(1) << 30));
	else
		snprintf(buf, n, "%.1f MiB", (double)v / (double)(UINT64_C(1) << 20));
}

static void
put_line(int y, int x, int w, const char *s, bool middle)
{
	wchar_t buf[1024];

	if (w <= 0 || y < 0 || y >= LINES)
		return;
	text_decode(s, buf, sizeof buf / sizeof buf[0], w, middle);
	mvaddnwstr(y, x, buf, -1);
}

static void
draw_loading(struct app *a, const struct loading *l, double secs)
{
	uint64_t done = atomic_load(&l->done), total = atomic_load(&l->total);
	const char *name = strcmp(l->name, "-") == 0 ? "(stdin)" : l->name;
	const char *base = strrchr(name, '/');
	int pct = total ? (int)(100.0 * (double)(done < total ? done : total) / (double)total) : 0;
	int w = COLS - 4 < 60 ? COLS - 4 : 60, fill = w > 0 ? pct * w / 100 : 0;
	int y = LINES / 2 - 1 < 2 ? 2 : LINES / 2 - 1;	/* below the title, whatever the height */
	char line[1400], d[32], t[32], q[32], pc[16];

	erase();
	attrset((attr_t)a->ta.a[EL_TITLE]);
	mvhline(0, 0, ' ', COLS);
	fmt_size(d, sizeof d, done);
	fmt_size(t, sizeof t, total);
	snprintf(pc, sizeof pc, total ? " %d%%" : "", pct);	/* a pipe: no end known */
	/* where the line is narrow, the bytes go first, then the seconds: the share stays */
	for (int drop = 0; drop < 3; drop++) {
		int k = snprintf(line, sizeof line, " perfnav  %s | loading%s",
		    base && base[1] ? base + 1 : name, pc);

		if (drop < 1 && k > 0 && (size_t)k < sizeof line)
			k += snprintf(line + k, sizeof line - (size_t)k, total ? " | %s of %s" : " | %s", d, t);
		if (drop < 2 && k > 0 && (size_t)k < sizeof line)
			snprintf(line + k, sizeof line - (size_t)k, " | %.1f s", secs);
		if (text_width(line) <= COLS)
			break;
	}
	put_line(0, 0, COLS, line, true);
	attrset((attr_t)a->ta.a[EL_NORMAL]);
	/* the walk's end is told once: sorting the index and the thread table follow */
	snprintf(line, sizeof line, total && done >= total ?
	    "Sorting the index of %s and making its thread table" : "Indexing the records of %s",
	    name);
	put_line(y - 1, 2, COLS - 4, line, true);
	if (w > 2) {
		attrset((attr_t)a->ta.a[EL_PROGRESS]);
		mvhline(y, 2, ACS_BLOCK, fill);
		attrset((attr_t)a->ta.a[EL_DIM]);
		mvhline(y, 2 + fill, ACS_CKBOARD, w - fill);
	}
	attrset((attr_t)a->ta.a[EL_NORMAL]);
	keys_bound(&a->keys, "global", ACT_QUIT, q, sizeof q);
	snprintf(line, sizeof line, "The panes come once every record is indexed.  %s: stop and quit",
	    q[0] ? q : "q");
	if (y + 2 < LINES - 1)
		put_line(y + 2, 2, COLS - 4, line, false);
	attrset((attr_t)a->ta.a[EL_STATUS]);
	mvhline(LINES - 1, 0, ' ', COLS);
	put_line(LINES - 1, 0, COLS, " loading", false);
	refresh();
}

/* The screen until the load is done or a quit key stops it (then *quit). */
static void
loading_screen(struct app *a, struct loading *l, double t0, bool *quit)
{
	double drawn = 0;

	while (!atomic_load(&l->finished)) {
		wint_t wc;
		enum action act;
		int r;

		if (mono_seconds() - drawn >= LOAD_TICK) {
			draw_loading(a, l, mono_seconds() - t0);
			drawn = mono_seconds();
		}
		timeout(LOAD_LOOK_MS);	/* the load's end is seen within this */
		r = get_wch(&wc);
		if (r == KEY_CODE_YES && wc == KEY_RESIZE)
			drawn = 0;
		if (r == ERR || (r == KEY_CODE_YES && wc == KEY_RESIZE))
			continue;
		act = keys_lookup(&a->keys, NULL, r == KEY_CODE_YES ? KEYS_FN + (int)wc : (int)wc);
		if (act == ACT_QUIT || act == ACT_QUIT_ALL) {
			*quit = true;
			atomic_store(&l->stop, true);
		}
	}
}

struct session *
app_load(struct app *a, const struct common_opts *co, const char *name, double t0, bool *quit)
{
	struct loading l;
	pthread_t th;

	*quit = false;
	memset(&l, 0, sizeof l);
	l.co = co;
	l.name = name;
	atomic_init(&l.done, 0);
	atomic_init(&l.total, 0);
	atomic_init(&l.stop, false);
	atomic_init(&l.finished, false);
	if (pthread_create(&th, NULL, load_main, &l) != 0)
		return cmd_open_browse(co, NULL, NULL);
	while (!atomic_load(&l.finished) && mono_seconds() - t0 < LOAD_QUIET) {
		struct timespec ts = { 0, 5 * 1000 * 1000 };

		nanosleep(&ts, NULL);
	}
	if (!atomic_load(&l.finished) && app_term_start(a) == 0)
		loading_screen(a, &l, t0, quit);
	pthread_join(th, NULL);
	return l.s;
}
