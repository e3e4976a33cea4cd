#include "config.h"

#ifndef NCURSES_WIDECHAR
#define NCURSES_WIDECHAR 1
#endif

#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <wchar.h>

#include <curses.h>

#include "tui/app_priv.h"

/*
 * app_lineedit.c: the line editor on the status line, for an incremental
 * search (the cursor follows as you type, Esc goes back) and a filter
 * (applied on Enter; a bad one keeps the editor open).
 */

void
app_lineedit_start(struct app *a, enum input_mode m)
{
	struct pane *p = app_view_pane(a);

	if (!p->is_list) {
		app_msg(a, EL_MESSAGE, "nothing to %s here", m == IN_SEARCH ? "search" : "filter");
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
	struct pane *p = app_view_pane(a);

	p->w.cursor = a->in_saved;
	if (a->in_buf[0] && !widget_search(&p->w, a->in_buf, +1, false))
		app_msg(a, EL_ERROR, "no match for '%s'", a->in_buf);
	else
		a->msg[0] = '\0';
}

void
app_lineedit_key(struct app *a, int key)
{
	struct pane *p = app_view_pane(a);
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
		if (a->in == IN_SCOPE || a->in == IN_EXPORT) {
			if (!(a->in == IN_SCOPE ? app_scope_edit_enter(a) : app_export_enter(a)))
				return;		/* stay in the editor */
		} else if (a->in == IN_FILTER) {
			err[0] = '\0';
			if (widget_set_filter(&p->w, a->in_buf, err, sizeof err) < 0) {
				app_msg(a, EL_ERROR, "%s", err[0] ? err : "bad filter");
				return;		/* stay in the editor */
			}
			app_view_refiltered(a, a->in_buf);
			if (a->in_buf[0] && err[0])	/* kept, with a warning first */
				app_msg(a, EL_ERROR, "%s; filter '%s': %zu rows (F clears)", err,
				    a->in_buf, widget_count(&p->w));
			else if (a->in_buf[0])
				app_msg(a, EL_MESSAGE, "filter '%s': %zu row%s (F clears)", a->in_buf,
				    widget_count(&p->w), plural(widget_count(&p->w)));
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
