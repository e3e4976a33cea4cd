#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "core/core.h"
#include "symbolize/cpath_diff.h"

/* cpath_diff.c: two call-path trees paired by the names along their paths. */

struct cpath_diff {
	struct cpath_dnode	*n;
	size_t			 count;
	uint64_t		 b_only;
};

/* Function names as ids of one table, per function node of a hist (lazily). */
struct names {
	const struct hist	*h;
	uint32_t		*id;		/* per function node + 1; 0: not yet */
	size_t			 n;
	struct strtab		*tab;
};

static uint32_t
name_of(struct names *nm, uint32_t func)
{
	char buf[1024];

	if (func >= nm->n)
		return UINT32_MAX;
	if (nm->id[func] == 0) {
		const char *s = cpath_func_name(nm->h, func, buf, sizeof buf);

		nm->id[func] = strtab_intern(nm->tab, s, strlen(s)) + 1;
	}
	return nm->id[func] - 1;
}

static uint64_t
child_key(uint32_t parent, uint32_t name)
{
	return (uint64_t)parent << 32 | name;
}

struct cpath_diff *
cpath_diff_new(const struct hist *ha, const struct cpath *a, const struct hist *hb,
    const struct cpath *b)
{
	struct cpath_diff *d = xcalloc(1, sizeof *d);
	struct strtab tab;
	struct names na = { ha, NULL, hist_nnodes(ha), &tab }, nb = { hb, NULL, hist_nnodes(hb), &tab };
	struct hmap kids;	/* (b parent, name) -> b child */
	size_t nbn = cpath_count(b);
	uint8_t *hit = xcalloc(nbn + 1, 1);

	memset(&tab, 0, sizeof tab);
	memset(&kids, 0, sizeof kids);
	na.id = xcalloc(na.n + 1, sizeof *na.id);
	nb.id = xcalloc(nb.n + 1, sizeof *nb.id);
	for (uint32_t i = 1; i < nbn; i++) {
		const struct cpath_node *x = cpath_node(b, i);

		uint64_t k = child_key(x->parent, name_of(&nb, x->func));

		if (hmap_get(&kids, k) == HMAP_NONE)	/* two of one name: the first */
			hmap_set(&kids, k, i);
	}
	d->count = cpath_count(a);
	d->n = xcalloc(d->count + 1, sizeof *d->n);
	for (uint32_t i = 0; i < d->count; i++) {
		const struct cpath_node *x = cpath_node(a, i);
		struct cpath_dnode *o = &d->n[i];
		uint32_t pp = i == 0 ? CPATH_NONE : d->n[x->parent].pair;

		o->total[0] = x->total_period;
		o->self[0] = x->self_period;
		o->total_samples[0] = x->total_samples;
		o->self_samples[0] = x->self_samples;
		if (i == 0)
			o->pair = nbn ? 0 : CPATH_NONE;
		else if (pp == CPATH_NONE)
			o->pair = CPATH_NONE;
		else
			o->pair = hmap_get(&kids, child_key(pp, name_of(&na, x->func)));
		if (o->pair != CPATH_NONE) {
			const struct cpath_node *y = cpath_node(b, o->pair);

			o->total[1] = y->total_period;
			o->self[1] = y->self_period;
			o->total_samples[1] = y->total_samples;
			o->self_samples[1] = y->self_samples;
			hit[o->pair] = 1;
		}
	}
	/* b's nodes without a pair whose parent has one: where b's own paths start */
	for (uint32_t i = 1; i < nbn; i++) {
		const struct cpath_node *y = cpath_node(b, i);

		if (!hit[i] && hit[y->parent])
			d->b_only += y->total_period;
	}
	free(hit);
	free(na.id);
	free(nb.id);
	hmap_free(&kids);
	strtab_free(&tab);
	return d;
}

void
cpath_diff_free(struct cpath_diff *d)
{
	if (d == NULL)
		return;
	free(d->n);
	free(d);
}

int
cpath_diff_node(const struct cpath_diff *d, uint32_t id, struct cpath_dnode *out)
{
	if (id >= d->count)
		return -1;
	*out = d->n[id];
	return 0;
}

uint64_t
cpath_diff_b_only(const struct cpath_diff *d)
{
	return d->b_only;
}
