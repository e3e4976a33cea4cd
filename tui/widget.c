#include "config.h"

#ifndef NCURSES_WIDECHAR
#define NCURSES_WIDECHAR 1
#endif

#include <ctype.h>
#include <langinfo.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <wchar.h>

#include <curses.h>

#include "core/err.h"
#include "core/text.h"
#include "tui/pane.h"
#include "tui/widget.h"
#include "tui/widget_impl.h"

/* ---- rows ---- */

void
row_reset(struct row *r)
{
	memset(r->col, 0, sizeof r->col);
	memset(r->el, 0, sizeof r->el);
	r->depth = 0;
	r->expanded = false;
	r->key = 0;
	r->have_key = false;
	r->used = 0;
	r->buf[0] = '\0';
}

void
row_set(struct row *r, int col, int el, const char *fmt, ...)
{
	va_list ap;
	size_t room;
	int k;

	if (col < 0 || col >= ROW_MAXCOLS)
		return;
	if (r->used >= sizeof r->buf - 1) {
		r->col[col] = "";
		return;
	}
	room = sizeof r->buf - r->used;
	va_start(ap, fmt);
	k = vsnprintf(r->buf + r->used, room, fmt, ap);
	va_end(ap);
	r->col[col] = r->buf + r->used;
	r->el[col] = (uint8_t)el;
	if (k < 0)
		k = 0;
	if ((size_t)k >= room) {
		/* cut: the text ends in an ellipsis (on a character's start), never looks whole */
		const char *mark = text_utf8() ? "\u2026" : "~";
		size_t e = strlen(mark), at = room - 1;

		if (at >= e) {
			at -= e;
			while (at > 0 && (r->buf[r->used + at] & 0xc0) == 0x80)
				at--;
			memcpy(r->buf + r->used + at, mark, e + 1);
			k = (int)(at + e);
		} else {
			k = (int)room - 1;
		}
	}
	r->used += (size_t)k + 1;
}

/* ---- text ---- */

bool
text_utf8(void)
{
	const char *cs = nl_langinfo(CODESET);

	return cs && (strcasecmp(cs, "UTF-8") == 0 || strcasecmp(cs, "utf8") == 0);
}

/*
 * What one unit of text draws as: a character, or for a byte that must not
 * reach the terminal (core/text.h) its escape "\xHH" as the text outputs
 * print it, 4 columns that are cut whole or not at all.
 */
struct glyph {
	wchar_t	wc[TEXT_ESC_LEN];
	int	n;		/* wide chars */
	int	width;		/* columns */
};

/* The next glyph of *s (not at its NUL); advances *s. */
static void
next_glyph(const char **s, struct glyph *g, bool utf8)
{
	const unsigned char *p = (const unsigned char *)*s;
	size_t u = text_unit(*s, strnlen(*s, 4), 0);
	uint32_t cp;
	int wd;

	g->n = 1;
	g->width = 1;
	if (u == 0) {
		char e[TEXT_ESC_LEN];

		text_esc_byte(e, p[0]);
		for (int i = 0; i < TEXT_ESC_LEN; i++)
			g->wc[i] = (wchar_t)e[i];
		g->n = g->width = TEXT_ESC_LEN;
		(*s)++;
		return;
	}
	*s += u;
	if (u == 1) {
		g->wc[0] = (wchar_t)p[0];
		return;
	}
	if (!utf8) {
		g->wc[0] = L'?';
		return;
	}
	/* valid UTF-8 (text_unit said so): decode it */
	cp = p[0] & (0x7f >> u);
	for (size_t i = 1; i < u; i++)
		cp = cp << 6 | (p[i] & 0x3f);
	wd = wcwidth((wchar_t)cp);
	if (wd < 0) {
		g->wc[0] = (wchar_t)0xfffd;	/* printable nowhere */
		return;
	}
	g->wc[0] = (wchar_t)cp;
	g->width = wd;
}

int
text_width(const char *s)
{
	bool utf8 = text_utf8();
	struct glyph g;
	int cols = 0;

	while (s && *s) {
		next_glyph(&s, &g, utf8);
		cols += g.width;
	}
	return cols;
}

/* Append glyph g to out (o of n used) if it fits in maxcols; false if not. */
static bool
put_glyph(wchar_t *out, size_t n, size_t *o, int *cols, int maxcols, const struct glyph *g)
{
	if (*cols + g->width > maxcols || *o + (size_t)g->n >= n)
		return false;
	for (int i = 0; i < g->n; i++)
		out[(*o)++] = g->wc[i];
	*cols += g->width;
	return true;
}

int
text_decode(const char *s, wchar_t *out, size_t n, int maxcols, bool middle)
{
	bool utf8 = text_utf8();
	const char *p = s ? s : "";
	struct glyph g;
	size_t o = 0;
	int cols = 0;
	bool cut;

	if (n == 0)
		return 0;
	if (maxcols <= 0) {
		out[0] = 0;
		return 0;
	}
	if (middle && text_width(p) > maxcols && maxcols >= 5) {
		/* start ... end: the end is what tells C++ names apart */
		int head = (maxcols - 1) / 2, tail = maxcols - 1 - head, total = text_width(p), skip;
		const char *q;

		while (*p) {
			next_glyph(&p, &g, utf8);
			if (!put_glyph(out, n, &o, &cols, head, &g))
				break;
		}
		if (o + 1 < n) {
			out[o++] = utf8 ? (wchar_t)0x2026 : L'~';
			cols++;
		}
		/* skip to where the last tail columns start */
		skip = total - tail;
		q = s;
		for (int c = 0; *q && c < skip;) {
			next_glyph(&q, &g, utf8);
			c += g.width;
		}
		while (*q) {
			next_glyph(&q, &g, utf8);
			if (!put_glyph(out, n, &o, &cols, maxcols, &g))
				break;
		}
		out[o] = 0;
		return cols;
	}
	/* a cut text ends in an ellipsis: a cut name must not look whole */
	cut = text_width(p) > maxcols;
	while (*p) {
		next_glyph(&p, &g, utf8);
		if (!put_glyph(out, n, &o, &cols, cut ? maxcols - 1 : maxcols, &g))
			break;
	}
	if (cut && o + 1 < n) {
		out[o++] = utf8 ? (wchar_t)0x2026 : L'~';
		cols++;
	}
	out[o] = 0;
	return cols;
}

char *
text_clip(char *buf, size_t n, const char *src, int max_cols)
{
	bool utf8 = text_utf8();
	const char *ell = utf8 ? "\xe2\x80\xa6" : "~", *p = src ? src : "";
	size_t o = 0, el = strlen(ell);
	int cols = 0;
	struct glyph g;

	if (n == 0)
		return buf;
	if (text_width(p) <= max_cols && strlen(p) < n) {
		memcpy(buf, p, strlen(p) + 1);
		return buf;
	}
	/* cut: whole characters in max_cols - 1 columns and n - 1 - el bytes, then the ellipsis */
	while (*p) {
		const char *q = p;

		next_glyph(&p, &g, utf8);
		if (cols + g.width > max_cols - 1 || o + (size_t)(p - q) + el + 1 > n)
			break;
		memcpy(buf + o, q, (size_t)(p - q));
		o += (size_t)(p - q);
		cols += g.width;
	}
	if (max_cols >= 1 && o + el + 1 <= n) {
		memcpy(buf + o, ell, el);
		o += el;
	}
	buf[o] = '\0';
	return buf;
}

char *
text_clip_middle(char *buf, size_t n, const char *src, int max_cols)
{
	bool utf8 = text_utf8();
	const char *ell = utf8 ? "\xe2\x80\xa6" : "~", *p = src ? src : "", *q;
	size_t o = 0, el = strlen(ell);
	int cols = 0, head, skip;
	struct glyph g;

	if (n == 0)
		return buf;
	if (max_cols < 5 || (text_width(p) <= max_cols && strlen(p) < n))
		return text_clip(buf, n, p, max_cols);
	head = (max_cols - 1) / 2;
	skip = text_width(p) - (max_cols - 1 - head);
	for (q = p; *q;) {
		const char *c = q;

		next_glyph(&q, &g, utf8);
		if (cols + g.width > head || o + (size_t)(q - c) + el + 1 > n)
			break;
		memcpy(buf + o, c, (size_t)(q - c));
		o += (size_t)(q - c);
		cols += g.width;
	}
	if (o + el + 1 > n)
		return text_clip(buf, n, p, max_cols);
	memcpy(buf + o, ell, el);
	o += el;
	/* the last columns: from where the columns left to skip run out */
	for (cols = 0, q = p; *q && cols < skip;) {
		next_glyph(&q, &g, utf8);
		cols += g.width;
	}
	while (*q) {
		const char *c = q;

		next_glyph(&q, &g, utf8);
		if (o + (size_t)(q - c) + 1 > n)
			break;
		memcpy(buf + o, c, (size_t)(q - c));
		o += (size_t)(q - c);
	}
	buf[o] = '\0';
	return buf;
}

/* ---- numbers ---- */

bool
text_num_fit(const char *s, char *out, size_t n, int maxcols)
{
	static const char units[] = "KMGTPE";
	const char *d = s;
	char sign[2] = "";
	double v;

	if (*d == '+' || *d == '-')
		sign[0] = *d++;
	if (*d < '0' || *d > '9' || d[strspn(d, "0123456789")] != '\0')
		return false;	/* not a whole number: cut with an ellipsis as any text */
	v = strtod(d, NULL);
	for (int u = 0; units[u] != '\0'; u++) {
		v /= 1000;
		for (int dec = 2; dec >= 0; dec--) {
			int k = snprintf(out, n, "%s%.*f%c", sign, dec, v, units[u]);

			/* 999.96K rounds to "1000.0K": the next unit says it */
			if (v < 1000 && strtod(out + strlen(sign), NULL) >= 1000)
				continue;
			if (k > 0 && k <= maxcols && (size_t)k < n)
				return true;
		}
	}
	return false;
}

/* ---- the model ---- */

static size_t
src_nrows(struct widget *w)
{
	return w->p->ops->nrows ? w->p->ops->nrows(w->p) : 0;
}

void
widget_src_row(struct widget *w, size_t idx, struct row *r)
{
	row_reset(r);
	w->p->ops->row(w->p, idx, r);
	if (!r->have_key)
		r->key = idx;
}

size_t
widget_count(const struct widget *w)
{
	return w->nvis;
}

size_t
widget_source(const struct widget *w, size_t pos)
{
	if (pos >= w->nvis)
		return WIDGET_NONE;
	return w->vis ? w->vis[pos] : pos;
}

size_t
widget_cursor_row(const struct widget *w)
{
	return widget_source(w, w->cursor);
}

uint64_t
widget_cursor_key(struct widget *w)
{
	size_t src = widget_cursor_row(w);
	struct row *r;
	uint64_t k;

	if (src == WIDGET_NONE)
		return UINT64_MAX;
	r = xmalloc(sizeof *r);
	widget_src_row(w, src, r);
	k = r->key;
	free(r);
	return k;
}

static void
clamp(struct widget *w)
{
	int h = w->height > 0 ? w->height : 1;

	if (w->nvis == 0) {
		w->cursor = w->top = 0;
		return;
	}
	if (w->cursor >= w->nvis)
		w->cursor = w->nvis - 1;
	if (w->top > w->cursor)
		w->top = w->cursor;
	if (w->cursor >= w->top + (size_t)h)
		w->top = w->cursor - (size_t)h + 1;
	if (w->top + (size_t)h > w->nvis)
		w->top = w->nvis > (size_t)h ? w->nvis - (size_t)h : 0;
}

bool
widget_goto_row(struct widget *w, size_t src)
{
	if (src == WIDGET_NONE)
		return false;
	if (w->vis == NULL) {
		if (src >= w->nvis)
			return false;
		w->cursor = src;
	} else {
		size_t i;

		for (i = 0; i < w->nvis; i++)
			if (w->vis[i] == src)
				break;
		if (i == w->nvis)
			return false;
		w->cursor = i;
	}
	/* centre the row if it was off screen */
	if (w->cursor < w->top || w->cursor >= w->top + (size_t)(w->height > 0 ? w->height : 1))
		w->top = w->cursor > (size_t)(w->height / 2) ? w->cursor - (size_t)(w->height / 2) : 0;
	clamp(w);
	return true;
}

bool
widget_goto_key(struct widget *w, uint64_t key)
{
	struct row *r;
	bool ok = false;

	if (key == UINT64_MAX)
		return false;
	if (w->p->ops->find) {
		size_t src = w->p->ops->find(w->p, key);

		if (src == WIDGET_NONE || src >= w->n)
			return false;
		if (w->tree)
			widget_reveal(w, src);
		return widget_goto_row(w, src);
	}
	r = xmalloc(sizeof *r);
	/* rows whose key is their index: one look */
	if (key < w->n) {
		widget_src_row(w, (size_t)key, r);
		if (r->key == key) {
			if (w->tree)
				widget_reveal(w, (size_t)key);
			ok = widget_goto_row(w, (size_t)key);
			free(r);
			return ok;
		}
	}
	for (size_t i = 0; i < w->n; i++) {
		widget_src_row(w, i, r);
		if (r->key == key) {
			if (w->tree)
				widget_reveal(w, i);
			ok = widget_goto_row(w, i);
			break;
		}
	}
	free(r);
	return ok;
}

/* Tree structure from the rows' depths. */
static void
build_tree(struct widget *w, bool keep_flags)
{
	struct row *r = xmalloc(sizeof *r);
	uint32_t *stack = xcalloc(257, sizeof *stack);
	int sp = 0;

	w->parent = xreallocarray(w->parent, w->n ? w->n : 1, sizeof *w->parent);
	w->depth = xreallocarray(w->depth, w->n ? w->n : 1, sizeof *w->depth);
	if (!keep_flags) {
		free(w->flags);
		w->flags = xcalloc(w->n ? w->n : 1, 1);
	}
	for (size_t i = 0; i < w->n; i++) {
		int d;

		widget_src_row(w, i, r);
		d = r->depth;
		if (d > sp)		/* no skipping levels */
			d = sp;
		w->depth[i] = (uint8_t)d;
		sp = d;
		w->parent[i] = d ? stack[d - 1] : UINT32_MAX;
		stack[sp] = (uint32_t)i;
		if (sp < 255)
			sp++;
		w->flags[i] &= (uint8_t)~WF_KIDS;
		if (d && !(w->flags[w->parent[i]] & WF_KIDS))
			w->flags[w->parent[i]] |= WF_KIDS;
		if (!keep_flags && r->expanded)
			w->flags[i] |= WF_EXPANDED;
	}
	free(stack);
	free(r);
}

/* ---- sorting ---- */

struct sortctx {
	struct widget	*w;
	int		 col;
	bool		 desc, num;
	char		**text;
	double		*val;
};

static double
num_of(const char *s)
{
	while (*s == ' ' || *s == '+')
		s++;
	return strtod(s, NULL);
}

static int
cmp_rows(const void *a, const void *b, void *arg)
{
	uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
	struct sortctx *c = arg;
	int r;

	if (c->w->p->ops->cmp)
		r = c->w->p->ops->cmp(c->w->p, c->col, x, y);
	else if (c->num)
		r = c->val[x] < c->val[y] ? -1 : c->val[x] > c->val[y];
	else
		r = strcasecmp(c->text[x] ? c->text[x] : "", c->text[y] ? c->text[y] : "");
	if (c->desc)
		r = -r;
	if (r == 0)
		r = x < y ? -1 : x > y;
	return r;
}

static void
build_order(struct widget *w)
{
	struct sortctx c;
	struct row *r;
	const struct column *col;

	free(w->order);
	w->order = NULL;
	if (w->sort_col < 0 || w->sort_col >= w->p->ncols || w->n == 0)
		return;
	col = &w->p->cols[w->sort_col];
	memset(&c, 0, sizeof c);
	c.w = w;
	c.col = w->sort_col;
	c.desc = w->sort_desc;
	c.num = (col->flags & COL_NUM) != 0;
	if (w->p->ops->cmp == NULL) {
		r = xmalloc(sizeof *r);
		if (c.num)
			c.val = xcalloc(w->n, sizeof *c.val);
		else
			c.text = xcalloc(w->n, sizeof *c.text);
		for (size_t i = 0; i < w->n; i++) {
			const char *t;

			widget_src_row(w, i, r);
			t = r->col[w->sort_col] ? r->col[w->sort_col] : "";
			if (c.num)
				c.val[i] = num_of(t);
			else
				c.text[i] = xstrdup(t);
		}
		free(r);
	}
	w->order = xcalloc(w->n, sizeof *w->order);
	if (!w->tree) {
		for (size_t i = 0; i < w->n; i++)
			w->order[i] = (uint32_t)i;
		qsort_r(w->order, w->n, sizeof *w->order, cmp_rows, &c);
	} else {
		/* sort each group of siblings, then walk depth first */
		uint32_t *kids = xcalloc(w->n + 1, sizeof *kids);	/* children, grouped */
		uint32_t *first = xcalloc(w->n + 1, sizeof *first);	/* [parent+1] start */
		uint32_t *cnt = xcalloc(w->n + 1, sizeof *cnt);
		uint32_t *stack = xcalloc(w->n + 1, sizeof *stack);
		size_t o = 0, sp = 0;

		for (size_t i = 0; i < w->n; i++)
			cnt[w->parent[i] == UINT32_MAX ? 0 : w->parent[i] + 1]++;
		for (size_t i = 0, acc = 0; i <= w->n; i++) {
			first[i] = (uint32_t)acc;
			acc += cnt[i];
			cnt[i] = 0;
		}
		for (size_t i = 0; i < w->n; i++) {
			size_t g = w->parent[i] == UINT32_MAX ? 0 : w->parent[i] + 1;

			kids[first[g] + cnt[g]++] = (uint32_t)i;
		}
		for (size_t g = 0; g <= w->n; g++)
			if (cnt[g] > 1)
				qsort_r(kids + first[g], cnt[g], sizeof *kids, cmp_rows, &c);
		/* depth-first: push roots in reverse */
		for (size_t k = cnt[0]; k-- > 0;)
			stack[sp++] = kids[first[0] + k];
		while (sp) {
			uint32_t i = stack[--sp];
			size_t g = (size_t)i + 1;

			w->order[o++] = i;
			for (size_t k = cnt[g]; k-- > 0;)
				stack[sp++] = kids[first[g] + k];
		}
		free(kids);
		free(first);
		free(cnt);
		free(stack);
	}
	if (c.text)
		for (size_t i = 0; i < w->n; i++)
			free(c.text[i]);
	free(c.text);
	free(c.val);
}

/* ---- filtering and visibility ---- */

static bool
contains_ci(const char *hay, const char *needle)
{
	size_t n = strlen(needle);

	if (n == 0)
		return true;
	for (; *hay; hay++)
		if (strncasecmp(hay, needle, n) == 0)
			return true;
	return false;
}

bool
widget_row_contains(struct widget *w, size_t idx, const char *text)
{
	struct row *r = xmalloc(sizeof *r);
	bool hit = false;

	widget_src_row(w, idx, r);
	for (int c = 0; c < ROW_MAXCOLS && !hit; c++)
		if (r->col[c] && contains_ci(r->col[c], text))
			hit = true;
	free(r);
	return hit;
}

/* Generic filter: every word somewhere in the row. */
static bool
generic_match(struct widget *w, size_t idx, struct row *r)
{
	char buf[sizeof w->filter], *save = NULL, *word;
	bool ok = true;

	widget_src_row(w, idx, r);
	snprintf(buf, sizeof buf, "%s", w->filter);
	for (word = strtok_r(buf, " \t", &save); word && ok; word = strtok_r(NULL, " \t", &save)) {
		bool hit = false;

		for (int c = 0; c < ROW_MAXCOLS && !hit; c++)
			if (r->col[c] && contains_ci(r->col[c], word))
				hit = true;
		ok = hit;
	}
	return ok;
}

static bool
row_matches(struct widget *w, size_t idx, struct row *r)
{
	if (w->p->ops->filter && w->p->ops->match)
		return w->p->ops->match(w->p, idx);
	return generic_match(w, idx, r);
}

static void
compute_visible(struct widget *w)
{
	size_t nv = 0;

	free(w->vis);
	w->vis = NULL;
	if (!w->tree && w->order == NULL && !w->filtered) {
		w->nvis = w->n;
		return;
	}
	w->vis = xcalloc(w->n ? w->n : 1, sizeof *w->vis);
	for (size_t k = 0; k < w->n; k++) {
		uint32_t i = w->order ? w->order[k] : (uint32_t)k;
		bool show;

		if (!w->tree) {
			show = !w->filtered || (w->flags && (w->flags[i] & WF_MATCH));
		} else {
			uint32_t par = w->parent[i];
			bool popen = par == UINT32_MAX || (w->flags[par] & WF_OPEN);
			bool self = !w->filtered || (w->flags[i] & (WF_MATCH | WF_KEEP));

			show = popen && self;
			w->flags[i] &= (uint8_t)~WF_OPEN;
			if (show && ((w->flags[i] & WF_EXPANDED) ||
			    (w->filtered && (w->flags[i] & WF_KEEP))))
				w->flags[i] |= WF_OPEN;
		}
		if (show)
			w->vis[nv++] = i;
	}
	w->nvis = nv;
}

static void
compute_matches(struct widget *w)
{
	struct row *r;

	if (!w->filtered)
		return;
	if (!w->tree) {
		free(w->flags);
		w->flags = xcalloc(w->n ? w->n : 1, 1);
	}
	r = xmalloc(sizeof *r);
	for (size_t i = 0; i < w->n; i++) {
		w->flags[i] &= (uint8_t)~(WF_MATCH | WF_KEEP);
		if (row_matches(w, i, r))
			w->flags[i] |= WF_MATCH;
	}
	free(r);
	if (w->tree)
		for (size_t i = 0; i < w->n; i++)
			if (w->flags[i] & WF_MATCH)
				for (uint32_t p = w->parent[i]; p != UINT32_MAX && !(w->flags[p] & WF_KEEP);
				    p = w->parent[p])
					w->flags[p] |= WF_KEEP;
}

static void
rebuild(struct widget *w, bool keep_tree_flags)
{
	size_t cur = widget_cursor_row(w);
	uint64_t key = cur != WIDGET_NONE && cur < src_nrows(w) ? widget_cursor_key(w) : UINT64_MAX;

	w->n = src_nrows(w);
	if (w->n > UINT32_MAX - 1)
		w->n = UINT32_MAX - 1;
	if (w->tree)
		build_tree(w, keep_tree_flags);
	else if (!w->filtered) {
		free(w->flags);
		w->flags = NULL;
	}
	compute_matches(w);
	build_order(w);
	compute_visible(w);
	if (key == UINT64_MAX || !widget_goto_key(w, key)) {
		w->cursor = 0;
		w->top = 0;
	}
	clamp(w);
}

void
widget_init(struct widget *w, struct pane *p, bool tree)
{
	memset(w, 0, sizeof *w);
	w->p = p;
	w->tree = tree;
	w->sort_col = -1;
	w->height = 20;
	rebuild(w, false);
}

void
widget_free(struct widget *w)
{
	free(w->parent);
	free(w->depth);
	free(w->flags);
	free(w->order);
	free(w->vis);
	memset(w, 0, sizeof *w);
	w->sort_col = -1;
}

void
widget_reload(struct widget *w)
{
	size_t n = src_nrows(w);

	/* a tree with other rows starts over with its default expansion */
	rebuild(w, w->tree && n == w->n);
}

void
widget_refresh(struct widget *w)
{
	rebuild(w, false);
}

void
widget_set_height(struct widget *w, int h)
{
	w->height = h > 0 ? h : 1;
	clamp(w);
}

void
widget_move(struct widget *w, long delta)
{
	if (w->nvis == 0)
		return;
	if (delta < 0 && (size_t)-delta > w->cursor)
		w->cursor = 0;
	else if (delta > 0 && w->cursor + (size_t)delta >= w->nvis)
		w->cursor = w->nvis - 1;
	else
		w->cursor = (size_t)((long)w->cursor + delta);
	clamp(w);
}

void
widget_page(struct widget *w, int dir)
{
	long h = w->height > 1 ? w->height - 1 : 1;

	if (dir < 0 && w->top >= (size_t)h)
		w->top -= (size_t)h;
	else if (dir < 0)
		w->top = 0;
	else if (w->top + (size_t)(2 * h) < w->nvis)
		w->top += (size_t)h;
	widget_move(w, dir * h);
}

void
widget_home(struct widget *w)
{
	w->cursor = 0;
	w->top = 0;
	clamp(w);
}

void
widget_end(struct widget *w)
{
	w->cursor = w->nvis ? w->nvis - 1 : 0;
	clamp(w);
}

void
widget_scroll(struct widget *w, long delta)
{
	size_t h = (size_t)(w->height > 0 ? w->height : 1);

	if (w->nvis <= h) {
		widget_move(w, delta);
		return;
	}
	if (delta < 0)
		w->top = (size_t)-delta > w->top ? 0 : w->top - (size_t)-delta;
	else
		w->top = w->top + (size_t)delta + h > w->nvis ? w->nvis - h : w->top + (size_t)delta;
	if (w->cursor < w->top)
		w->cursor = w->top;
	if (w->cursor >= w->top + h)
		w->cursor = w->top + h - 1;
}

bool
widget_click(struct widget *w, int y)
{
	if (y < 0 || w->top + (size_t)y >= w->nvis)
		return false;
	w->cursor = w->top + (size_t)y;
	return true;
}

void
widget_sort(struct widget *w, int col, bool desc)
{
	if (col >= w->p->ncols || (col >= 0 && (w->p->cols[col].flags & COL_NOSORT)))
		return;
	w->sort_col = col;
	w->sort_desc = desc;
	rebuild(w, true);
}

/* The visible rows' source numbers (n of them), to tell whether a sort moved any. */
static uint32_t *
visible_order(const struct widget *w)
{
	uint32_t *v = xcalloc(w->nvis ? w->nvis : 1, sizeof *v);

	for (size_t i = 0; i < w->nvis; i++)
		v[i] = (uint32_t)widget_source(w, i);
	return v;
}

/*
 * The next sortable column in dir.  A column whose sort would show the rows
 * in the order already on screen (the hot functions come sorted as perf
 * sorts them: their first > sorted by Children and moved nothing) is passed
 * over, so that every press visibly does something.
 */
void
widget_sort_step(struct widget *w, int dir)
{
	int n = w->p->ncols, c = w->sort_col;
	uint32_t *before = visible_order(w);
	size_t nbefore = w->nvis;

	for (int moves = 0; moves <= n; moves++) {
		for (int tries = 0; tries <= n; tries++) {
			c += dir;
			if (c >= n)
				c = -1;
			if (c < -1)
				c = n - 1;
			if (c == -1 || !(w->p->cols[c].flags & COL_NOSORT))
				break;
		}
		uint32_t *now;
		bool same;

		widget_sort(w, c, c >= 0 && (w->p->cols[c].flags & COL_NUM));
		if (w->nvis != nbefore || w->nvis < 2)
			break;
		now = visible_order(w);
		same = memcmp(now, before, nbefore * sizeof *now) == 0;
		free(now);
		if (!same)
			break;
	}
	free(before);
}

int
widget_set_filter(struct widget *w, const char *text, char *err, size_t n)
{
	const char *t = text ? text : "";

	while (*t == ' ')
		t++;
	if (w->p->ops->filter && w->p->ops->filter(w->p, t, err, n) < 0)
		return -1;
	snprintf(w->filter, sizeof w->filter, "%s", t);
	w->filtered = w->filter[0] != '\0' || w->force_filter;
	rebuild(w, true);
	return 0;
}

bool
widget_search(struct widget *w, const char *text, int dir, bool skip)
{
	size_t n = w->nvis;

	if (text != w->search)
		snprintf(w->search, sizeof w->search, "%s", text);
	if (n == 0 || w->search[0] == '\0')
		return false;
	for (size_t k = skip ? 1 : 0; k <= n; k++) {
		size_t pos = dir >= 0 ? (w->cursor + k) % n : (w->cursor + n - k % n) % n;

		if (k == n && skip)
			break;
		if (widget_row_contains(w, widget_source(w, pos), w->search)) {
			w->cursor = pos;
			if (w->cursor < w->top || w->cursor >= w->top + (size_t)w->height)
				w->top = w->cursor > (size_t)(w->height / 2) ?
				    w->cursor - (size_t)(w->height / 2) : 0;
			clamp(w);
			return true;
		}
	}
	return false;
}

bool
widget_has_children(const struct widget *w, size_t src)
{
	return w->tree && src < w->n && (w->flags[src] & WF_KIDS);
}

bool
widget_is_expanded(const struct widget *w, size_t src)
{
	return w->tree && src < w->n && (w->flags[src] & WF_EXPANDED);
}

static void
relayout(struct widget *w, size_t keep_src)
{
	compute_visible(w);
	if (!widget_goto_row(w, keep_src))
		clamp(w);
}

void
widget_toggle(struct widget *w)
{
	size_t src = widget_cursor_row(w);

	if (!widget_has_children(w, src))
		return;
	w->flags[src] ^= WF_EXPANDED;
	relayout(w, src);
}

void
widget_expand(struct widget *w, bool deep)
{
	size_t src = widget_cursor_row(w);

	if (!w->tree || src == WIDGET_NONE)
		return;
	w->flags[src] |= WF_EXPANDED;
	if (deep)
		for (size_t i = src + 1; i < w->n && w->depth[i] > w->depth[src]; i++)
			w->flags[i] |= WF_EXPANDED;
	relayout(w, src);
}

void
widget_collapse(struct widget *w)
{
	size_t src = widget_cursor_row(w);

	if (!w->tree || src == WIDGET_NONE)
		return;
	if (!(w->flags[src] & WF_KIDS) || !(w->flags[src] & WF_EXPANDED)) {
		/* a leaf or closed row: close its parent and go there */
		if (w->parent[src] == UINT32_MAX)
			return;
		src = w->parent[src];
	}
	w->flags[src] &= (uint8_t)~WF_EXPANDED;
	relayout(w, src);
}

void
widget_expand_all(struct widget *w, bool expand)
{
	size_t src = widget_cursor_row(w);

	if (!w->tree)
		return;
	for (size_t i = 0; i < w->n; i++) {
		if (expand)
			w->flags[i] |= WF_EXPANDED;
		else
			w->flags[i] &= (uint8_t)~WF_EXPANDED;
	}
	/* collapsing everything: the cursor goes to its root */
	while (!expand && src != WIDGET_NONE && w->parent[src] != UINT32_MAX)
		src = w->parent[src];
	relayout(w, src);
}

void
widget_reveal(struct widget *w, size_t src)
{
	if (!w->tree || src >= w->n)
		return;
	for (uint32_t p = w->parent[src]; p != UINT32_MAX; p = w->parent[p])
		w->flags[p] |= WF_EXPANDED;
	compute_visible(w);
}
