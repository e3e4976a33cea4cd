#include "config.h"

#include <stdio.h>
#include <string.h>

#include "tui/nav.h"

void
nav_view_init(struct nav_view *v, int pane)
{
	memset(v, 0, sizeof *v);
	v->pane = pane;
	v->cursor = NAV_NONE;
	v->target = NAV_T_NONE;
}

void
nav_reset(struct nav *n, const struct nav_view *root)
{
	n->n = 0;
	if (root != NULL)
		n->v[n->n++] = *root;
}

void
nav_push(struct nav *n, const struct nav_view *v)
{
	if (n->n == NAV_DEPTH_MAX) {
		/* keep the root, forget the oldest drill-down step */
		memmove(&n->v[1], &n->v[2], (NAV_DEPTH_MAX - 2) * sizeof n->v[0]);
		n->n--;
	}
	n->v[n->n++] = *v;
}

bool
nav_pop(struct nav *n)
{
	if (n->n <= 1)
		return false;
	n->n--;
	return true;
}

struct nav_view *
nav_top(struct nav *n)
{
	return n->n ? &n->v[n->n - 1] : NULL;
}

size_t
nav_depth(const struct nav *n)
{
	return n->n;
}

char *
nav_path(const struct nav *n, const char *(*name)(int pane), char *buf, size_t len)
{
	size_t o = 0;

	if (len == 0)
		return buf;
	buf[0] = '\0';
	for (size_t i = 0; i < n->n && o + 1 < len; i++) {
		const struct nav_view *v = &n->v[i];
		int k;

		if (v->label[0])
			k = snprintf(buf + o, len - o, "%s%s", i ? " > " : "", v->label);
		else
			k = snprintf(buf + o, len - o, "%s%s", i ? " > " : "", name(v->pane));
		if (k < 0)
			break;
		o += (size_t)k;
	}
	if (o >= len)
		buf[len - 1] = '\0';
	return buf;
}
