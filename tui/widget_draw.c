#include "config.h"

#ifndef NCURSES_WIDECHAR
#define NCURSES_WIDECHAR 1
#endif

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <wchar.h>

#include <curses.h>

#include "core/err.h"
#include "tui/pane.h"
#include "tui/widget.h"
#include "tui/widget_impl.h"

/*
 * widget_draw.c: a list pane on screen: the columns laid out for the
 * width, the headers with the sort mark, the rows with tree glyphs.
 */

/* ---- drawing ---- */

static void
put_text(WINDOW *win, int y, int x, int width, const char *s, bool right, bool middle)
{
	wchar_t buf[512];
	int cols;

	if (width <= 0)
		return;
	cols = text_decode(s, buf, sizeof buf / sizeof buf[0], width, middle);
	if (right && cols < width)
		x += width - cols;
	mvwaddnwstr(win, y, x, buf, -1);
}

void
text_put(void *win, int y, int x, int width, const char *s)
{
	put_text(win, y, x, width, s, false, false);
}

void
text_line(void *win, int y, int x, int width, const char *s)
{
	mvwhline(win, y, x, ' ', width);
	put_text(win, y, x, width, s, false, false);
}

/* Widths of the columns for a total width. */
static void
layout_cols(const struct pane *p, int total, int *wd)
{
	int fixed = 0, flex = -1;

	for (int c = 0; c < p->ncols; c++) {
		wd[c] = p->cols[c].width;
		if ((p->cols[c].flags & COL_FLEX) && flex < 0)
			flex = c;
		else
			fixed += wd[c] + 1;
	}
	if (flex >= 0) {
		int left = total - fixed;

		wd[flex] = left > p->cols[flex].width ? left : p->cols[flex].width;
	}
}

void
widget_draw(struct widget *w, const struct pane_canvas *c)
{
	WINDOW *win = c->win;
	const struct pane *p = w->p;
	const struct theme_attrs *ta = c->ta;
	struct row *r = xmalloc(sizeof *r);
	int wd[ROW_MAXCOLS], x;
	bool utf8 = ta->utf8;

	widget_set_height(w, c->h - 1);
	layout_cols(p, c->w, wd);
	/* column headers, with the sort mark */
	wattrset(win, (attr_t)ta->a[EL_COLUMN_HEADER]);
	mvwhline(win, c->y, c->x, ' ', c->w);
	x = c->x;
	for (int k = 0; k < p->ncols && x < c->x + c->w; k++) {
		char t[96];
		int room = c->x + c->w - x, cw = wd[k] < room ? wd[k] : room;

		snprintf(t, sizeof t, "%s%s", p->cols[k].title,
		    w->sort_col == k ? (w->sort_desc ? (utf8 ? "\u25bc" : "v") : (utf8 ? "\u25b2" : "^")) : "");
		put_text(win, c->y, x, cw, t, (p->cols[k].flags & COL_RIGHT) != 0, false);
		x += wd[k] + 1;
	}
	for (int y = 0; y < c->h - 1; y++) {
		size_t pos = w->top + (size_t)y;
		size_t src = widget_source(w, pos);
		bool cur = pos == w->cursor;
		attr_t base = (attr_t)(cur ? ta->a[EL_CURSOR] : ta->a[EL_NORMAL]);

		wattrset(win, base);
		mvwhline(win, c->y + 1 + y, c->x, ' ', c->w);
		if (src == WIDGET_NONE)
			continue;
		widget_src_row(w, src, r);
		x = c->x;
		for (int k = 0; k < p->ncols && x < c->x + c->w; k++) {
			int room = c->x + c->w - x, cw = wd[k] < room ? wd[k] : room, xx = x;
			const char *t = r->col[k] ? r->col[k] : "";

			if (!cur && r->el[k])
				wattrset(win, (attr_t)ta->a[r->el[k]]);
			else
				wattrset(win, base);
			if ((p->cols[k].flags & COL_TREE) && w->tree) {
				int ind = 2 * w->depth[src];
				const char *g = "  ";

				if (w->flags[src] & WF_KIDS)
					g = (w->flags[src] & WF_EXPANDED) ? (utf8 ? "\u25be " : "- ") :
					    (utf8 ? "\u25b8 " : "+ ");
				if (ind + 2 > cw)
					ind = cw > 2 ? cw - 2 : 0;
				if (!cur)
					wattrset(win, (attr_t)ta->a[EL_TREE]);
				put_text(win, c->y + 1 + y, xx + ind, cw - ind, g, false, false);
				if (!cur)
					wattrset(win, (attr_t)(r->el[k] ? ta->a[r->el[k]] : ta->a[EL_NORMAL]));
				xx += ind + 2;
				cw -= ind + 2;
			}
			put_text(win, c->y + 1 + y, xx, cw, t, (p->cols[k].flags & COL_RIGHT) != 0,
			    (p->cols[k].flags & COL_MIDDLE) != 0);
			x += wd[k] + 1;
		}
	}
	wattrset(win, (attr_t)ta->a[EL_NORMAL]);
	free(r);
}
