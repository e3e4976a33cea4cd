#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/err.h"
#include "tui/pane.h"

/*
 * The help screen, a list pane generated from the action table and the
 * key bindings (keys_help): one heading per key map, then one row per
 * bound action with its keys and help text.  Searchable like any list.
 */

enum { C_KEYS, C_ACTION, C_HELP, C_N };

static const struct column help_cols[C_N] = {
	[C_KEYS] = { "Keys", 22, COL_TREE },
	[C_ACTION] = { "Action", 14, 0 },
	[C_HELP] = { "What it does", 20, COL_FLEX },
};

struct hline {
	int	 kind;
	char	*keys, *action, *help;
};

struct help {
	struct hline	*v;
	size_t		 n, cap;
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

static size_t
help_nrows(struct pane *p)
{
	return ((struct help *)p->priv)->n;
}

static void
help_row(struct pane *p, size_t idx, struct row *r)
{
	const struct hline *l = &((struct help *)p->priv)->v[idx];

	r->expanded = true;
	if (l->kind == 0) {
		r->depth = 0;
		row_set(r, C_KEYS, EL_COLUMN_HEADER, "%s keys",
		    strcmp(l->action, "global") == 0 ? "Global" : l->action);
		return;
	}
	r->depth = 1;
	row_set(r, C_KEYS, EL_KEY, "%s", l->keys);
	row_set(r, C_ACTION, 0, "%s", l->action);
	row_set(r, C_HELP, EL_DIM, "%s", l->help);
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
	.title = "Help",
	.init = help_init,
	.free = help_free,
	.key = help_key,
	.nrows = help_nrows,
	.row = help_row,
	.enter = pane_list_enter,
	.save = pane_list_save,
	.help = help_hint,
};
