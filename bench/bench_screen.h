/*
 * bench_screen.h: the curses screen the pane benches draw into: a
 * terminal of w x (h + 3) whose output goes to /dev/null, the default
 * theme, and the canvas a pane gets there (as the app gives it: below the
 * title and tab lines).  Header-only; never part of perfnav.
 */
#ifndef PERFNAV_BENCH_SCREEN_H
#define PERFNAV_BENCH_SCREEN_H

#include <stdio.h>

#include <curses.h>

#include "tui/app.h"
#include "tui/pane.h"
#include "tui/theme.h"

/* Set the screen up (prog names the bench in a message); 0, or -1 said on stderr. */
static inline int
bench_screen(const char *prog, int w, int h, struct theme *th, struct theme_attrs *ta,
    struct pane_canvas *c)
{
	FILE *out = fopen("/dev/null", "w");

	if (out == NULL || newterm("xterm-256color", out, stdin) == NULL) {
		fprintf(stderr, "%s: no curses screen\n", prog);
		return -1;
	}
	resizeterm(h + 3, w);
	theme_builtin(th, "default");
	app_theme_apply(th, ta, false);
	c->win = stdscr;
	c->y = 2;
	c->x = 0;
	c->h = h;
	c->w = w;
	c->ta = ta;
	return 0;
}

#endif
