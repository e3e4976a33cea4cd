#include "config.h"

#ifndef NCURSES_WIDECHAR
#define NCURSES_WIDECHAR 1
#endif

#include <curses.h>

#include "tui/app_priv.h"

/*
 * app_mouse.c: the mouse: the wheel scrolls (or moves in panes that are
 * not lists), a click on a tab switches to it, a click selects a row (or
 * what a pane with a click op drew there) and a double click enters it;
 * the release after a press goes to a pane's drag op (the timeline's
 * ranges).
 */

/* A release in a pane with a drag op (after its click saw the press). */
static void
drag(struct app *a, struct pane *p, int y, int x)
{
	int r = p->ops->drag(p, y, x);

	if (r & PANE_MSG)
		app_msg(a, EL_MESSAGE, "%s", p->msg);
	if (r & PANE_PUSH)
		app_view_follow(a, p);
}

void
app_mouse(struct app *a)
{
	MEVENT ev;
	struct pane *p = app_view_pane(a);

	if (getmouse(&ev) != OK)
		return;
#ifdef BUTTON5_PRESSED
	if (ev.bstate & BUTTON5_PRESSED) {
		if (p->is_list && !p->ops->click)
			widget_scroll(&p->w, 3);
		else
			app_actions_do(a, ACT_DOWN, 0);
		return;
	}
#endif
	if (ev.bstate & BUTTON4_PRESSED) {
		if (p->is_list && !p->ops->click)
			widget_scroll(&p->w, -3);
		else
			app_actions_do(a, ACT_UP, 0);
		return;
	}
	if ((ev.bstate & BUTTON1_RELEASED) && p->ops->drag) {
		drag(a, p, ev.y, ev.x);
		return;
	}
	if (!(ev.bstate & (BUTTON1_CLICKED | BUTTON1_PRESSED | BUTTON1_DOUBLE_CLICKED)))
		return;
	if (ev.y == 1) {
		for (int i = 0; i < PANE_NTABS; i++)
			if (ev.x >= a->tab_x[i] && ev.x < a->tab_x[i + 1])
				app_view_switch(a, i);
		return;
	}
	if (p->ops->click && ev.y >= 2 && ev.y < LINES - 1) {
		/* the pane maps the cell to what it drew there */
		if (p->ops->click(p, ev.y, ev.x) && (ev.bstate & BUTTON1_DOUBLE_CLICKED))
			app_actions_do(a, ACT_ENTER, 0);
		return;
	}
	if (p->is_list && ev.y >= 3 && ev.y < LINES - 1) {
		if (widget_click(&p->w, ev.y - 3) && (ev.bstate & BUTTON1_DOUBLE_CLICKED))
			app_actions_do(a, ACT_ENTER, 0);
	}
}
