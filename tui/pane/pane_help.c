#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/err.h"
#include "tui/pane.h"

/*
 * The help screen, a list pane generated from the action table and the
 * key bindings (keys_help): one heading per key map, then one row per
 * bound action with its keys and help text, wrapped at the pane's width
 * (the lines after a binding's first are rows of their own, with no keys).
 * Searchable like any list; kept in the table's order (not sortable).
 */

enum { C_KEYS, C_ACTION, C_HELP, C_N };

static const struct column help_cols[C_N] = {
	[C_KEYS] = { "Keys", 22, COL_TREE | COL_NOSORT },
	[C_ACTION] = { "Action", 14, COL_NOSORT },
	[C_HELP] = { "What it does", 20, COL_FLEX | COL_NOSORT },
};

struct hline {
	int	 kind;
	char	*keys, *action, *help;
};

/* A row on screen: line's help text from off, len bytes (0: its first row). */
struct hrow {
	size_t		 line, off, len;
};

struct help {
	struct hline	*v;
	size_t		 n, cap;
	struct hrow	*rows;
	size_t		 nrows, caprows;
	int		 wrap;		/* the help column's width the rows are wrapped at (0: none) */
	struct column	 cols[C_N];	/* help_cols, Keys and Action as wide as their longest */
};

static void
add_line(void *arg, int kind, const char *keys, const char *action, const char *help)
{
	struct help *h = arg;
	struct hline *l;

	GROW(h->v, h->cap, h->n + 1);
	l = &h->v[h->n++];
	l->kind = kind;
	l->keys = xstrdup(keys ? keys : "");
	l->action = xstrdup(action ? action : "");
	l->help = xstrdup(help ? help : "");
}

/* Where the help text s breaks for a line of at most w columns (ASCII): at
 * the last blank within, else at w. */
static size_t
wrap_len(const char *s, int w)
{
	size_t n = strlen(s), cut;

	if (w <= 0 || n <= (size_t)w)
		return n;
	for (cut = (size_t)w; cut > 0 && s[cut] != ' '; cut--)
		;
	return cut > 0 ? cut : (size_t)w;
}

/* The rows: each line's help text wrapped at h->wrap columns. */
static void
wrap_rows(struct help *h)
{
	h->nrows = 0;
	for (size_t i = 0; i < h->n; i++) {
		const char *t = h->v[i].help;
		size_t off = 0;

		do {
			size_t len = h->v[i].kind ? wrap_len(t + off, h->wrap) : 0;

			GROW(h->rows, h->caprows, h->nrows + 1);
			h->rows[h->nrows++] = (struct hrow){ i, off, len };
			off += len;
			while (t[off] == ' ')
				off++;
		} while (h->v[i].kind && t[off] != '\0');
	}
}

static size_t
help_nrows(struct pane *p)
{
	return ((struct help *)p->priv)->nrows;
}

static void
help_row(struct pane *p, size_t idx, struct row *r)
{
	const struct help *h = p->priv;
	const struct hrow *hr = &h->rows[idx];
	const struct hline *l = &h->v[hr->line];

	r->expanded = true;
	if (l->kind == 0) {
		r->depth = 0;
		row_set(r, C_KEYS, EL_COLUMN_HEADER, "%s keys",
		    strcmp(l->action, "global") == 0 ? "Global" : l->action);
		return;
	}
	r->depth = 1;
	if (hr->off == 0) {
		row_set(r, C_KEYS, EL_KEY, "%s", l->keys);
		row_set(r, C_ACTION, 0, "%s", l->action);
	}
	row_set(r, C_HELP, EL_DIM, "%.*s", (int)hr->len, l->help + hr->off);
}

/* The pane's width: the help texts wrapped at what their column gets. */
static void
help_resize(struct pane *p, int h, int w)
{
	struct help *hp = p->priv;
	int wrap = w - hp->cols[C_KEYS].width - hp->cols[C_ACTION].width - 2;

	(void)h;
	if (wrap < hp->cols[C_HELP].width)
		wrap = hp->cols[C_HELP].width;
	if (wrap == hp->wrap)
		return;
	hp->wrap = wrap;
	wrap_rows(hp);
	widget_reload(&p->w);
}

static int
help_init(struct pane *p)
{
	struct help *h = xcalloc(1, sizeof *h);

	p->priv = h;
	if (p->keys)
		keys_help(p->keys, add_line, h);
	memcpy(h->cols, help_cols, sizeof h->cols);
	for (size_t i = 0; i < h->n; i++) {
		/* a binding's keys whole ("Esc, Backspace, DEL, C-h, Left"), after the tree's indent */
		int wk = h->v[i].kind ? (int)strlen(h->v[i].keys) + 4 : 0;
		int wa = h->v[i].kind ? (int)strlen(h->v[i].action) + 1 : 0;

		if (wk > h->cols[C_KEYS].width && wk <= 48)
			h->cols[C_KEYS].width = wk;
		if (wa > h->cols[C_ACTION].width && wa <= 32)
			h->cols[C_ACTION].width = wa;
	}
	wrap_rows(h);
	p->cols = h->cols;
	p->ncols = C_N;
	p->is_list = true;
	widget_init(&p->w, p, true);
	return 0;
}

static void
help_free(struct pane *p)
{
	struct help *h = p->priv;

	if (h == NULL)
		return;
	for (size_t i = 0; i < h->n; i++) {
		free(h->v[i].keys);
		free(h->v[i].action);
		free(h->v[i].help);
	}
	free(h->v);
	free(h->rows);
	free(h);
}

static int
help_key(struct pane *p, enum action a)
{
	(void)p;
	if (a == ACT_ENTER)
		return PANE_HANDLED;
	return PANE_IGNORED;
}

static const char *
help_hint(struct pane *p)
{
	(void)p;
	return "q/Esc:close help  /:search";
}

const struct pane_ops pane_help_ops = {
	.name = "help",
	.description = "every key binding (?)",
	.keys = "q back\n" "h back\n" "? back\n",
	.title = "Help",
	.init = help_init,
	.free = help_free,
	.resize = help_resize,
	.key = help_key,
	.nrows = help_nrows,
	.row = help_row,
	.enter = pane_list_enter,
	.save = pane_list_save,
	.help = help_hint,
};
