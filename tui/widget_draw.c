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

/* ---- C++ names cut inside their brackets ---- */

/* The length of an operator's name at s ("operator<<=", "operator()"), 0 if none. */
static size_t
operator_len(const char *s)
{
	static const char ops[] = "<>=!+-*/%&|^~";
	size_t k;

	if (strncmp(s, "operator", 8) != 0)
		return 0;
	k = 8;
	while (s[k] == ' ')
		k++;
	if ((s[k] == '(' && s[k + 1] == ')') || (s[k] == '[' && s[k + 1] == ']'))
		return k + 2;
	while (s[k] != '\0' && strchr(ops, s[k]) != NULL && k < 12)
		k++;
	return k;
}

/*
 * The longest innermost bracket group of s whose contents are not yet the
 * ellipsis el: its contents' start and length; false if none (or the
 * brackets do not pair up).  A last " (inlined)" is not one.
 */
static bool
cxx_group(const char *s, const char *el, size_t *at, size_t *len)
{
	size_t n = strlen(s) + 1, *open = xreallocarray(NULL, n, sizeof *open), best = 0;
	bool *inner = xmalloc(n), ok;
	size_t sp = 0, end = n - 1;

	/* perfnav's " (inlined)" after an inline function's name is no argument list */
	if (end >= 10 && strcmp(s + end - 10, " (inlined)") == 0)
		end -= 10;
	for (size_t i = 0; i < end; i++) {
		size_t op = operator_len(s + i);

		if (op > 0) {
			i += op - 1;
			continue;
		}
		if (s[i] == '-' && s[i + 1] == '>') {
			i++;
			continue;
		}
		if (s[i] == '<' || s[i] == '(') {
			open[sp] = i;
			inner[sp++] = true;
		} else if (s[i] == '>' || s[i] == ')') {
			size_t o, k;

			if (sp == 0 || (s[open[sp - 1]] == '<') != (s[i] == '>')) {
				sp = 1;	/* unpaired */
				break;
			}
			o = open[--sp] + 1;
			k = i - o;
			if (k > 0 && !(k == strlen(el) && strncmp(s + o, el, k) == 0)) {
				if (inner[sp] && k > best) {
					best = k;
					*at = o;
				}
				if (sp > 0)
					inner[sp - 1] = false;
			}
		}
	}
	*len = best;
	ok = sp == 0 && best > 0;
	free(open);
	free(inner);
	return ok;
}

void
text_elide_cxx(const char *s, char *out, size_t n, int maxcols)
{
	const char *el = text_utf8() ? "\u2026" : "~";
	size_t at = 0, len = 0, e = strlen(el), cap;
	char *buf;

	if (n == 0)
		return;
	if (s == NULL)
		s = "";
	/* the whole name, however long: a list of two bytes may grow by one */
	cap = strlen(s) * 2 + 8;
	buf = xmalloc(cap);
	snprintf(buf, cap, "%s", s);
	while (text_width(buf) > maxcols && cxx_group(buf, el, &at, &len) && len > 1) {
		size_t tail = strlen(buf + at + len) + 1;

		if (at + e + tail > cap)
			break;
		memmove(buf + at + e, buf + at + len, tail);
		memcpy(buf + at, el, e);
	}
	snprintf(out, n, "%s", buf);
	free(buf);
}

/* ---- drawing ---- */

static void
put_text(WINDOW *win, int y, int x, int width, const char *s, unsigned flags)
{
	bool right = (flags & COL_RIGHT) != 0, middle = (flags & COL_MIDDLE) != 0;
	wchar_t buf[512];
	char num[32];
	int cols;

	if (width <= 0)
		return;
	if ((flags & COL_NUM) && s != NULL && text_width(s) > width &&
	    text_num_fit(s, num, sizeof num, width))
		s = num;
	if (middle && s != NULL && text_width(s) > width) {
		size_t n = strlen(s) * 2 + 8;
		char *cut = xmalloc(n);

		text_elide_cxx(s, cut, n, width);
		cols = text_decode(cut, buf, sizeof buf / sizeof buf[0], width, true);
		free(cut);
	} else
		cols = text_decode(s, buf, sizeof buf / sizeof buf[0], width, middle);
	if (right && cols < width)
		x += width - cols;
	mvwaddnwstr(win, y, x, buf, -1);
}

void
text_put(void *win, int y, int x, int width, const char *s)
{
	put_text(win, y, x, width, s, 0);
}

void
text_line(void *win, int y, int x, int width, const char *s)
{
	mvwhline(win, y, x, ' ', width);
	put_text(win, y, x, width, s, 0);
}

/* What the visible rows need: per column, the widest text (with a tree's
 * indentation and glyph); the flex column's widest. */
struct col_need {
	int	need[ROW_MAXCOLS];
	int	tree_text;	/* the widest text of the tree column, without indentation */
	int	tree_depth;	/* the deepest row's depth */
};

static int
flex_col(const struct pane *p)
{
	for (int c = 0; c < p->ncols; c++)
		if (p->cols[c].flags & COL_FLEX)
			return c;
	return -1;
}

static void
measure_rows(struct widget *w, int h, struct row *r, struct col_need *cn)
{
	const struct pane *p = w->p;

	memset(cn, 0, sizeof *cn);
	for (int y = 0; y < h; y++) {
		size_t src = widget_source(w, w->top + (size_t)y);

		if (src == WIDGET_NONE)
			continue;
		widget_src_row(w, src, r);
		for (int k = 0; k < p->ncols && k < ROW_MAXCOLS; k++) {
			int need = text_width(r->col[k] ? r->col[k] : "");

			if ((p->cols[k].flags & COL_TREE) && w->tree) {
				if (need > cn->tree_text)
					cn->tree_text = need;
				if (w->depth[src] > cn->tree_depth)
					cn->tree_depth = w->depth[src];
				need += 2 * w->depth[src] + 2;
			}
			if (need > cn->need[k])
				cn->need[k] = need;
		}
	}
}

#define FLEX_WANT	40	/* the flex column's room before others give theirs */
#define SHRINK_MIN	8	/* a text column given up to the flex column keeps this */

/*
 * Widths of the columns for a total width: each its own, a tree column
 * (not the flex one) as wide as its deepest row needs (at most a third of
 * the line), a number column (COL_NUM, COL_RIGHT) as wide as its widest
 * value (where the line still cuts it, put_text writes it with a K, M, G
 * unit: text_num_fit); the flex column the rest, and when that is short of what its
 * texts need (up to FLEX_WANT), text columns (no numbers, no tree) give it
 * first the room past their widest text and title (nothing cut: a command
 * column of "cc1" before a DSO's "[kernel.kallsyms]"), then room down to
 * SHRINK_MIN, the widest first: the symbol before the command.
 */
/*
 * A line over by over columns: the number columns (COL_NUM, COL_RIGHT)
 * give the room past their widest value and title, the first first, so
 * that the last ones are not cut ("463.716 /sec" as "463.71…" beside a
 * CPU column 16 wide for "0").  Returns the columns given.
 */
static int
shrink_numbers(const struct pane *p, const struct col_need *cn, int flex, int *wd, int over)
{
	int given = 0;

	for (int c = 0; c < p->ncols && given < over; c++) {
		int title = p->cols[c].title ? text_width(p->cols[c].title) : 0;
		int keep = cn->need[c] > title ? cn->need[c] : title, s;

		if (c == flex || !(p->cols[c].flags & (COL_NUM | COL_RIGHT)) || (p->cols[c].flags & COL_TREE))
			continue;
		s = wd[c] - keep;
		if (s <= 0)
			continue;
		if (s > over - given)
			s = over - given;
		wd[c] -= s;
		given += s;
	}
	return given;
}

static void
layout_cols(const struct pane *p, int total, const struct col_need *cn, int *wd)
{
	int fixed = 0, flex = flex_col(p);

	for (int c = 0; c < p->ncols; c++) {
		wd[c] = p->cols[c].width;
		if ((p->cols[c].flags & COL_TREE) && c != flex && cn->need[c] > wd[c])
			wd[c] = cn->need[c] < total / 3 ? cn->need[c] : total / 3 > wd[c] ? total / 3 : wd[c];
		/* a number is never cut: its column grows to the widest shown */
		else if ((p->cols[c].flags & (COL_NUM | COL_RIGHT)) && c != flex && cn->need[c] > wd[c])
			wd[c] = cn->need[c];
		if (c != flex)
			fixed += wd[c] + 1;
	}
	if (flex < 0 && fixed - 1 > total)
		shrink_numbers(p, cn, flex, wd, fixed - 1 - total);
	if (flex >= 0) {
		int left = total - fixed, want = cn->need[flex] < FLEX_WANT ? cn->need[flex] : FLEX_WANT;

		/* first the room a text column has past its widest text and title: nothing cut */
		while (left < want) {
			int give = -1, spare = 0;

			for (int c = 0; c < p->ncols; c++) {
				int title = p->cols[c].title ? text_width(p->cols[c].title) : 0;
				int keep = cn->need[c] > title ? cn->need[c] : title, s;

				if (c == flex || (p->cols[c].flags & (COL_NUM | COL_RIGHT | COL_TREE)))
					continue;
				s = wd[c] - (keep > SHRINK_MIN ? keep : SHRINK_MIN);
				if (s > spare) {
					spare = s;
					give = c;
				}
			}
			if (give < 0)
				break;
			wd[give]--;
			left++;
		}
		while (left < want) {
			int give = -1;

			for (int c = 0; c < p->ncols; c++)
				if (c != flex && !(p->cols[c].flags & (COL_NUM | COL_RIGHT | COL_TREE)) &&
				    wd[c] > SHRINK_MIN && (give < 0 || wd[c] > wd[give]))
					give = c;
			if (give < 0)
				break;
			wd[give]--;
			left++;
		}
		/* the last resort before the line cuts its last columns: the numbers' spare room */
		if (left < p->cols[flex].width)
			left += shrink_numbers(p, cn, flex, wd, p->cols[flex].width - left);
		wd[flex] = left > p->cols[flex].width ? left : p->cols[flex].width;
	}
}

void
widget_hscroll(struct widget *w, int d)
{
	w->hscroll += d;
	if (w->hscroll > w->hscroll_max)
		w->hscroll = w->hscroll_max;
	if (w->hscroll < 0)
		w->hscroll = 0;
}

/* s past its first cols columns. */
static const char *
skip_cols(const char *s, int cols)
{
	char tmp[8];
	int w;

	/* a character (its UTF-8 continuation bytes with it) at a time */
	while (cols > 0 && *s) {
		size_t k = 1;

		while (k + 1 < sizeof tmp && (s[k] & 0xc0) == 0x80)
			k++;
		memcpy(tmp, s, k);
		tmp[k] = '\0';
		w = text_width(tmp);
		cols -= w > 0 ? w : 1;
		s += k;
	}
	return s;
}

static void
draw_headers(struct widget *w, const struct pane_canvas *c, const int *wd, int flex)
{
	const struct pane *p = w->p;
	bool utf8 = c->ta->utf8;
	int x = c->x;

	wattrset(c->win, (attr_t)c->ta->a[EL_COLUMN_HEADER]);
	mvwhline(c->win, c->y, c->x, ' ', c->w);
	for (int k = 0; k < p->ncols && x < c->x + c->w; k++) {
		char t[96], more[16] = "";
		int room = c->x + c->w - x, cw = wd[k] < room ? wd[k] : room;

		if (k == flex && w->hscroll > 0)
			snprintf(more, sizeof more, " +%d", w->hscroll);
		snprintf(t, sizeof t, "%s%s%s", p->cols[k].title, more,
		    w->sort_col == k ? (w->sort_desc ? (utf8 ? "\u25bc" : "v") : (utf8 ? "\u25b2" : "^")) : "");
		put_text(c->win, c->y, x, cw, t, p->cols[k].flags & COL_RIGHT);
		x += wd[k] + 1;
	}
}

#define TREE_NAME_MIN	16	/* a tree row's name keeps this much room after its indentation
				 * (or what the widest name shown needs, if less) */
#define TREE_LABEL_MAX	6	/* "[255] " */

/*
 * The indentation of a tree row of depth d in a column cw wide, of rows as
 * deep as deepest: 2 columns a level when the deepest row's glyph and name
 * (name_min columns) fit after its indentation, and then no depth shows as
 * a number.  Else 2 columns a level while the name keeps name_min columns
 * after room for a depth label; deeper rows sit at the deepest such
 * indentation and show their depth as a number ("[23] " in label), so a
 * child is always right of its parent and the name, not the indentation, is
 * what gets cut.
 */
static int
tree_indent(int d, int deepest, int cw, int name_min, char *label, size_t n)
{
	int maxd = (cw - TREE_LABEL_MAX - 2 - name_min) / 2;

	label[0] = '\0';
	if (2 * deepest + 2 + name_min <= cw)
		return 2 * d;	/* the whole tree fits indented */
	if (maxd < 0)
		maxd = 0;
	if (d <= maxd)
		return 2 * d;
	snprintf(label, n, "[%d] ", d);
	return 2 * maxd;
}

/* A tree column's indentation, depth label and glyph; the columns they took. */
static int
draw_tree(struct widget *w, const struct pane_canvas *c, size_t src, int y, int x, int cw,
    const struct col_need *cn, bool cur)
{
	bool utf8 = c->ta->utf8;
	char label[16];
	int name_min = cn->tree_text < TREE_NAME_MIN ? cn->tree_text : TREE_NAME_MIN;
	int ind = tree_indent(w->depth[src], cn->tree_depth, cw, name_min, label, sizeof label);
	int lw = (int)strlen(label);
	const char *g = "  ";

	if (w->flags[src] & WF_KIDS)
		g = (w->flags[src] & WF_EXPANDED) ? (utf8 ? "\u25be " : "- ") : (utf8 ? "\u25b8 " : "+ ");
	if (!cur)
		wattrset(c->win, (attr_t)c->ta->a[EL_TREE]);
	put_text(c->win, y, x + ind, cw - ind, label, 0);
	put_text(c->win, y, x + ind + lw, cw - ind - lw, g, 0);
	return ind + lw + 2 < cw ? ind + lw + 2 : cw;
}

void
widget_draw(struct widget *w, const struct pane_canvas *c)
{
	const struct pane *p = w->p;
	const struct theme_attrs *ta = c->ta;
	struct row *r = xmalloc(sizeof *r);
	struct col_need cn;
	int wd[ROW_MAXCOLS], x, flex = flex_col(p);

	widget_set_height(w, c->h - 1);
	measure_rows(w, c->h - 1, r, &cn);
	layout_cols(p, c->w, &cn, wd);
	w->hscroll_max = flex >= 0 && cn.need[flex] > wd[flex] ? cn.need[flex] - wd[flex] : 0;
	widget_hscroll(w, 0);
	draw_headers(w, c, wd, flex);
	for (int y = 0; y < c->h - 1; y++) {
		size_t pos = w->top + (size_t)y;
		size_t src = widget_source(w, pos);
		bool cur = pos == w->cursor;
		attr_t base = (attr_t)(cur ? ta->a[EL_CURSOR] : ta->a[EL_NORMAL]);

		wattrset(c->win, base);
		mvwhline(c->win, c->y + 1 + y, c->x, ' ', c->w);
		if (src == WIDGET_NONE)
			continue;
		widget_src_row(w, src, r);
		x = c->x;
		for (int k = 0; k < p->ncols && x < c->x + c->w; k++) {
			int room = c->x + c->w - x, cw = wd[k] < room ? wd[k] : room, xx = x;
			const char *t = r->col[k] ? r->col[k] : "";
			bool middle = (p->cols[k].flags & COL_MIDDLE) != 0;

			if (k == flex && w->hscroll > 0) {
				t = skip_cols(t, w->hscroll);
				middle = false;
			}
			wattrset(c->win, !cur && r->el[k] ? (attr_t)ta->a[r->el[k]] : base);
			if ((p->cols[k].flags & COL_TREE) && w->tree) {
				int used = draw_tree(w, c, src, c->y + 1 + y, xx, cw, &cn, cur);

				if (!cur)
					wattrset(c->win, (attr_t)(r->el[k] ? ta->a[r->el[k]] : ta->a[EL_NORMAL]));
				xx += used;
				cw -= used;
			}
			put_text(c->win, c->y + 1 + y, xx, cw, t, middle ? p->cols[k].flags : p->cols[k].flags & ~COL_MIDDLE);
			x += wd[k] + 1;
		}
	}
	wattrset(c->win, (attr_t)ta->a[EL_NORMAL]);
	free(r);
}
