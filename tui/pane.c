#include "config.h"

#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "core/core.h"
#include "tui/pane.h"

/* What every pane shares: the pane table, list-pane views, formatting. */

static const struct pane_ops *const pane_table[PANE_COUNT] = {
#define X(id, ops) [PANE_##id] = &ops,
	PANES(X)
#undef X
	[PANE_HELP] = &pane_help_ops,
	[PANE_ANNOTATE] = &pane_annotate_ops,
};

const struct pane_ops *
pane_ops_of(enum pane_id id)
{
	return (unsigned)id < PANE_COUNT ? pane_table[id] : NULL;
}

int
pane_by_name(const char *name)
{
	for (int i = 0; i < PANE_COUNT; i++)
		if (strcmp(pane_table[i]->name, name) == 0)
			return i;
	return -1;
}

int
pane_create(struct pane *p, enum pane_id id, struct session *s, const struct keys *keys)
{
	return pane_create_sym(p, id, s, keys, NULL);
}

int
pane_create_sym(struct pane *p, enum pane_id id, struct session *s, const struct keys *keys,
    struct symbols *sym)
{
	memset(p, 0, sizeof *p);
	p->ops = pane_ops_of(id);
	p->id = id;
	p->s = s;
	p->sym = sym;
	p->keys = keys;
	if (p->ops == NULL)
		return -1;
	if (p->ops->init && p->ops->init(p) < 0)
		return -1;
	return 0;
}

void
pane_destroy(struct pane *p)
{
	if (p->ops && p->ops->free)
		p->ops->free(p);
	if (p->is_list)
		widget_free(&p->w);
	p->priv = NULL;
}

void
pane_list_enter(struct pane *p, const struct nav_view *v)
{
	if (!p->is_list)
		return;
	if (strcmp(p->w.filter, v->filter) != 0)
		widget_set_filter(&p->w, v->filter, NULL, 0);
	if (v->cursor != NAV_NONE)
		widget_goto_key(&p->w, v->cursor);
}

void
pane_list_save(struct pane *p, struct nav_view *v)
{
	if (!p->is_list)
		return;
	snprintf(v->filter, sizeof v->filter, "%s", p->w.filter);
	v->cursor = widget_cursor_key(&p->w);
	if (v->cursor == UINT64_MAX)
		v->cursor = NAV_NONE;
}
