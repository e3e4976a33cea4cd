#include "config.h"

#include <elf.h>
#include <stdlib.h>
#include <string.h>

#include "core/err.h"
#include "symbolize/symtab.h"

void
symtab_add(struct symtab *t, uint64_t start, uint64_t size, uint8_t bind, uint8_t type,
    uint32_t name)
{
	struct sym *s;

	GROW(t->v, t->cap, t->n + 1);
	s = &t->v[t->n];
	s->start = start;
	s->end = start + size;
	s->name = name;
	s->seq = (uint32_t)t->n;
	s->bind = bind;
	s->type = type;
	t->n++;
}

static int
sym_cmp(const void *a, const void *b)
{
	const struct sym *x = a, *y = b;

	if (x->start != y->start)
		return x->start < y->start ? -1 : 1;
	return x->seq < y->seq ? -1 : x->seq > y->seq;
}

/* Whether t is in sym_cmp's order already (kallsyms is, by address). */
static bool
sorted(const struct symtab *t)
{
	for (size_t i = 1; i < t->n; i++)
		if (sym_cmp(&t->v[i - 1], &t->v[i]) > 0)
			return false;
	return true;
}

void
symtab_sort(struct symtab *t)
{
	if (t->n > 1 && !sorted(t))
		qsort(t->v, t->n, sizeof *t->v, sym_cmp);
	for (size_t i = 0; i < t->n; i++)
		t->v[i].seq = (uint32_t)i;
}

static size_t
underscores(const char *s)
{
	size_t n = 0;

	while (s[n] == '_')
		n++;
	return n;
}

/*
 * perf 6.1's preference among two symbols at one address (its
 * choose_best_symbol), a before b in the table: true keeps a.  In order:
 * a size over none (sizes as symtab_fixup's end fix-up left them, so of
 * kallsyms aliases, which have none of their own, the last listed has the
 * size), not weak over weak, global over not global, fewer leading
 * underscores, the longer name; then a, unless its name starts with
 * "SyS" or "compat_SyS" (old kernels' syscall aliases).
 */
static bool
keep_first(const struct sym *a, const struct sym *b, const struct strtab *strs)
{
	uint64_t la = a->end - a->start, lb = b->end - b->start;
	const char *na, *nb;
	size_t ua, ub, sa, sb;

	if (lb == 0 && la > 0)
		return true;
	if (la == 0 && lb > 0)
		return false;
	if ((b->bind == STB_WEAK) != (a->bind == STB_WEAK))
		return b->bind == STB_WEAK;
	if ((a->bind == STB_GLOBAL) != (b->bind == STB_GLOBAL))
		return a->bind == STB_GLOBAL;
	na = strtab_get(strs, a->name);
	nb = strtab_get(strs, b->name);
	ua = underscores(na);
	ub = underscores(nb);
	if (ua != ub)
		return ua < ub;
	sa = strlen(na);
	sb = strlen(nb);
	if (sa != sb)
		return sa > sb;
	return strncmp(na, "SyS", 3) != 0 && strncmp(na, "compat_SyS", 10) != 0;
}

static void
fixup_duplicates(struct symtab *t, const struct strtab *strs)
{
	size_t w = 0;

	for (size_t i = 0; i < t->n; i++) {
		if (w > 0 && t->v[w - 1].start == t->v[i].start) {
			if (!keep_first(&t->v[w - 1], &t->v[i], strs))
				t->v[w - 1] = t->v[i];
			continue;
		}
		t->v[w++] = t->v[i];
	}
	t->n = w;
}

/*
 * Sizes of symbols without one: up to the next symbol (an alias, at the
 * same address, keeps none); the last one's to the page after its own.
 * (perf's kallsyms rule for the step from the kernel's symbols to a
 * module's never applies: a table holds the kernel's or one module's.)
 */
static void
fixup_end(struct symtab *t)
{
	for (size_t i = 0; i + 1 < t->n; i++) {
		struct sym *p = &t->v[i], *c = &t->v[i + 1];

		if (p->end == p->start)
			p->end = c->start;
	}
	if (t->n > 0) {
		struct sym *l = &t->v[t->n - 1];

		if (l->end == l->start)
			l->end = ((l->start + 4095) & ~UINT64_C(4095)) + 4096;
	}
}

void
symtab_fixup(struct symtab *t, const struct strtab *strs)
{
	symtab_sort(t);
	fixup_end(t);
	fixup_duplicates(t, strs);
	for (size_t i = 0; i < t->n; i++)
		t->v[i].seq = (uint32_t)i;
}

size_t
symtab_find(const struct symtab *t, uint64_t addr)
{
	size_t lo = 0, hi = t->n;

	/* Last symbol with start <= addr. */
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (t->v[mid].start <= addr)
			lo = mid + 1;
		else
			hi = mid;
	}
	/* Overlapping symbols: the nearest earlier one that contains addr. */
	for (size_t i = lo, k = 0; i > 0 && k < 8; i--, k++)
		if (addr < t->v[i - 1].end)
			return i - 1;
	return SIZE_MAX;
}

void
symtab_free(struct symtab *t)
{
	free(t->v);
	memset(t, 0, sizeof *t);
}
