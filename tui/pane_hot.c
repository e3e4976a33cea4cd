#include "config.h"

#ifndef NCURSES_WIDECHAR
#define NCURSES_WIDECHAR 1
#endif

#include <curses.h>

#include "core/core.h"
#include "tui/pane.h"

/*
 * The hot-functions pane (tab 1), a placeholder until symbolization lands
 * (issue 3, symbolize/hist.h).  The real pane replaces this file: a list
 * pane whose rows come from the hist (self %, children %, samples, comm,
 * DSO, symbol), with Tab switching events and Enter expanding callers.
 */

static const char *const lines[] = {
	"Hot functions",
	"",
	"Symbolization arrives with issue 3: this pane will list the hottest",
	"functions (self %, children %, samples, comm, DSO, symbol), per event.",
	"",
	"Meanwhile: 2 processes, 3 events, 4 header, 5 hex of the selected record.",
	"Press ? for every key.",
};

static void
hot_draw(struct pane *p, const struct pane_canvas *c)
{
	WINDOW *win = c->win;
	char buf[160];

	(void)p;
	for (int y = 0; y < c->h; y++) {
		wattrset(win, (attr_t)c->ta->a[EL_NORMAL]);
		mvwhline(win, c->y + y, c->x, ' ', c->w);
	}
	for (int i = 0; i < (int)(sizeof lines / sizeof lines[0]) && i + 1 < c->h; i++) {
		wattrset(win, (attr_t)c->ta->a[i == 0 ? EL_COLUMN_HEADER : EL_NORMAL]);
		mvwaddnstr(win, c->y + 1 + i, c->x + 2, lines[i], c->w - 4);
	}
	if (c->h > 10) {
		snprintf(buf, sizeof buf, "%llu samples in this recording",
		    (unsigned long long)p->s->counts.by_type[PERF_RECORD_SAMPLE]);
		wattrset(win, (attr_t)c->ta->a[EL_DIM]);
		mvwaddnstr(win, c->y + 9, c->x + 2, buf, c->w - 4);
	}
}

static const char *
hot_help(struct pane *p)
{
	(void)p;
	return "2:processes 3:events 4:header 5:hex";
}

const struct pane_ops pane_hot_ops = {
	.name = "hot",
	.title = "Hot functions",
	.draw = hot_draw,
	.help = hot_help,
};
