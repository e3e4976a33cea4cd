/*
 * widget_impl.h: what widget.c (the model: rows, trees, order, filter,
 * cursor) and widget_draw.c (drawing a list) share; not for panes.
 */
#ifndef PERFNAV_TUI_WIDGET_IMPL_H
#define PERFNAV_TUI_WIDGET_IMPL_H

#include "tui/widget.h"

/* Per source row of a tree (struct widget's flags). */
enum {
	WF_EXPANDED = 1 << 0,
	WF_KIDS = 1 << 1,
	WF_MATCH = 1 << 2,
	WF_KEEP = 1 << 3,	/* a descendant matches */
	WF_OPEN = 1 << 4,	/* scratch: children may show */
};

/* Source row idx of the pane into r (its key the index if it has none). */
void widget_src_row(struct widget *w, size_t idx, struct row *r);

#endif
