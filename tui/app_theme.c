#include "config.h"

#ifndef NCURSES_WIDECHAR
#define NCURSES_WIDECHAR 1
#endif

#include <string.h>

#include <curses.h>

#include "tui/app.h"
#include "tui/theme.h"
#include "tui/widget.h"

/*
 * app_theme.c: a theme (tui/theme.h, curses-free) turned into curses
 * colour pairs and attributes for the terminal at hand.
 */

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
