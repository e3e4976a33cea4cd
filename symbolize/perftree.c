#include "config.h"

#include <stdlib.h>

#include "core/core.h"
#include "symbolize/perftree.h"

#define NONE	PERFTREE_NONE

uint32_t
perftree_find(const struct perftree *t, uint32_t root, perftree_cmp_fn cmp, void *arg,
    uint32_t *parent, int *side)
{
	uint32_t p = root;

	*parent = NONE;
	*side = 0;
	while (p != NONE) {
		int64_t c = cmp(arg, p);

		if (c == 0)
			return p;
		*parent = p;
		*side = c < 0 ? 0 : 1;
		p = t->v[p].kid[*side];
	}
	return NONE;
}

/*
 * Turn the edge between x and its child on side 1-d: that child takes x's
 * place and x becomes its child on side d (d = 0: a left rotation).
 */
static void
rotate(struct perftree *t, uint32_t *root, uint32_t x, int d)
{
	struct perftree_link *v = t->v;
	uint32_t y = v[x].kid[1 - d], up = v[x].up;

	v[x].kid[1 - d] = v[y].kid[d];
	if (v[y].kid[d] != NONE)
		v[v[y].kid[d]].up = x;
	v[y].up = up;
	if (up == NONE)
		*root = y;
	else
		v[up].kid[v[up].kid[0] == x ? 0 : 1] = y;
	v[y].kid[d] = x;
	v[x].up = y;
}

void
perftree_insert(struct perftree *t, uint32_t *root, uint32_t id, uint32_t parent, int side)
{
	struct perftree_link *v;
	uint32_t z = id;

	if ((size_t)id >= t->cap) {
		size_t old = t->cap;

		GROW(t->v, t->cap, (size_t)id + 1);
		for (size_t i = old; i < t->cap; i++) {
			t->v[i].kid[0] = t->v[i].kid[1] = t->v[i].up = NONE;
			t->v[i].red = false;
		}
	}
	v = t->v;
	v[z].kid[0] = v[z].kid[1] = NONE;
	v[z].up = parent;
	v[z].red = true;
	if (parent == NONE)
		*root = z;
	else
		v[parent].kid[side] = z;

	/* A red node may not have a red parent: repair upwards. */
	while (v[z].up != NONE && v[v[z].up].red) {
		uint32_t p = v[z].up, g = v[p].up, u;
		int d = v[g].kid[0] == p ? 0 : 1;	/* the side p hangs on */

		u = v[g].kid[1 - d];
		if (u != NONE && v[u].red) {
			/* red uncle: push the blackness down from g, go on from g */
			v[p].red = v[u].red = false;
			v[g].red = true;
			z = g;
			continue;
		}
		if (v[p].kid[1 - d] == z) {
			/* z is the inner grandchild: make it the outer one */
			rotate(t, root, p, d);
			z = p;
			p = v[z].up;
		}
		v[p].red = false;
		v[g].red = true;
		rotate(t, root, g, 1 - d);
	}
	v[*root].red = false;
}

static uint32_t
leftmost(const struct perftree *t, uint32_t p)
{
	while (p != NONE && t->v[p].kid[0] != NONE)
		p = t->v[p].kid[0];
	return p;
}

void
perftree_walk(const struct perftree *t, uint32_t root, void (*fn)(void *arg, uint32_t id),
    void *arg)
{
	for (uint32_t p = leftmost(t, root); p != NONE;) {
		uint32_t up;

		fn(arg, p);
		if (t->v[p].kid[1] != NONE) {
			p = leftmost(t, t->v[p].kid[1]);
			continue;
		}
		/* climb while coming from a right subtree */
		while ((up = t->v[p].up) != NONE && t->v[up].kid[1] == p)
			p = up;
		p = up;
	}
}

void
perftree_free(struct perftree *t)
{
	free(t->v);
	t->v = NULL;
	t->cap = 0;
}
