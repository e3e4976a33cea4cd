/*
 * diff.c: perf diff's rows and columns over one hist per recording
 * (symbolize/diff.h says what is computed and how rows sort).
 */
#include "config.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "core/core.h"
#include "core/hmap.h"
#include "symbolize/diff.h"

struct diff {
	size_t			 nfiles;
	struct diff_opts	 o;
	struct hist_opts	 ho;
	struct diff_event	*ev;
	size_t			 nev;
};

/* Key texts are joined with this byte to pair rows (no name holds it). */
#define KEY_SEP	'\x1f'

/* The rows of one event being built. */
struct builder {
	struct diff		*d;
	struct diff_event	*de;
	size_t			 cap;
	struct strtab		 keys;
	struct hmap		 at;	/* joined key text id -> row */
	char			*line;	/* the joined text */
	size_t			 linecap;
};

/* Is the symbol of entry e an unresolved address? */
static bool
unresolved(const struct hist *h, const struct hist_entry *e)
{
	return hist_node_get(h, e->node)->f.sym == SYM_NONE;
}

/*
 * Row of entry e of file f (hist h), made if new.  Rows pair by the
 * joined text of their keys, an unresolved symbol's by none: perf diff
 * compares symbols by name, so the unresolved addresses of a DSO are one
 * row, named by its lowest address in the file that made the row.
 */
static struct diff_row *
row_of(struct builder *b, struct hist *h, size_t f, const struct hist_entry *e)
{
	const struct hist_opts *ho = &b->d->ho;
	char buf[4096];
	size_t l = 0;
	uint32_t id, r;
	struct diff_row *row;

	for (unsigned k = 0; k < ho->nkeys; k++) {
		size_t kl;

		if (ho->keys[k] == HIST_KEY_SYM && unresolved(h, e))
			buf[0] = '\0';
		else
			hist_key_text(h, e, ho->keys[k], buf, sizeof buf);
		kl = strlen(buf);
		GROW(b->line, b->linecap, l + kl + 2);
		memcpy(b->line + l, buf, kl);
		l += kl;
		b->line[l++] = KEY_SEP;
	}
	GROW(b->line, b->linecap, l + 1);
	b->line[l] = '\0';
	id = strtab_intern(&b->keys, b->line, l);
	r = hmap_get(&b->at, id);
	if (r != HMAP_NONE) {
		row = &b->de->rows[r];
		for (unsigned k = 0; k < ho->nkeys; k++) {
			if (ho->keys[k] != HIST_KEY_SYM || !row->sym_none || row->src != f ||
			    strcmp(hist_key_text(h, e, HIST_KEY_SYM, buf, sizeof buf), row->key[k]) >= 0)
				continue;
			free((char *)row->key[k]);
			row->key[k] = xstrdup(buf);
		}
		return row;
	}
	GROW(b->de->rows, b->cap, b->de->nrows + 1);
	r = (uint32_t)b->de->nrows++;
	hmap_set(&b->at, id, r);
	row = &b->de->rows[r];
	memset(row, 0, sizeof *row);
	row->src = (unsigned)f;
	row->cell = xcalloc(b->d->nfiles, sizeof *row->cell);
	for (unsigned k = 0; k < ho->nkeys; k++) {
		row->key[k] = xstrdup(hist_key_text(h, e, ho->keys[k], buf, sizeof buf));
		if (ho->keys[k] == HIST_KEY_DSO)
			row->dso_none = e->dso == DSO_NONE;
		if (ho->keys[k] == HIST_KEY_SYM)
			row->sym_none = unresolved(h, e);
	}
	return row;
}

/* Add file f's rows of its event ev. */
static void
add_file(struct builder *b, struct hist *h, size_t f, size_t ev)
{
	const uint32_t *rows;
	size_t n = hist_rows(h, ev, 0, &rows);
	uint64_t sum = 0;

	for (size_t i = 0; i < n; i++) {
		const struct hist_entry *e = hist_entry_get(h, rows[i]);
		struct diff_row *row = row_of(b, h, f, e);

		row->cell[f].present = true;
		row->cell[f].period += e->period;
		sum += e->period;
	}
	b->de->in[f] = true;
	b->de->total[f] = b->d->o.relative ? sum : hist_event(h, ev)->total_period;
}

/* Percents and the values against the baseline, as perf computes them. */
static void
compute(const struct diff *d, struct diff_event *de)
{
	for (size_t r = 0; r < de->nrows; r++) {
		struct diff_row *row = &de->rows[r];
		const struct diff_cell *base = &row->cell[0];

		row->dummy = !base->present;
		for (size_t f = 0; f < d->nfiles; f++) {
			struct diff_cell *c = &row->cell[f];

			if (!c->present)
				continue;
			c->pct = de->total[f] ? (double)c->period * 100.0 / (double)de->total[f] : 0;
			if (f == 0)
				continue;
			c->delta = c->pct - (row->dummy ? 0 : base->pct);
			c->ratio = (double)c->period / (double)(base->period ? base->period : 1);
			c->wdiff = (int64_t)c->period * d->o.w2 - (int64_t)base->period * d->o.w1;
		}
	}
}

/* Has the row an entry in any file but the baseline? */
static bool
has_pairs(const struct diff *d, const struct diff_row *r)
{
	for (size_t f = 1; f < d->nfiles; f++)
		if (r->cell[f].present)
			return true;
	return false;
}

static void
free_row(const struct diff *d, struct diff_row *r)
{
	for (unsigned k = 0; k < d->ho.nkeys; k++)
		free((char *)r->key[k]);
	free(r->cell);
}

/*
 * perf's -b: rows without a baseline entry or without a pair go; perf
 * then sums the baseline's total anew from the entries left, and prints
 * the baseline's percents of it (the deltas were computed before).
 */
static void
baseline_only(const struct diff *d, struct diff_event *de)
{
	size_t n = 0;
	uint64_t sum = 0;

	for (size_t r = 0; r < de->nrows; r++) {
		if (de->rows[r].dummy || !has_pairs(d, &de->rows[r])) {
			free_row(d, &de->rows[r]);
			continue;
		}
		sum += de->rows[r].cell[0].period;
		de->rows[n++] = de->rows[r];
	}
	de->nrows = n;
	de->total[0] = sum;
	for (size_t r = 0; r < n; r++)
		de->rows[r].cell[0].pct = sum ? (double)de->rows[r].cell[0].period * 100.0 /
		    (double)sum : 0;
}

/* perf's cmp_doubles, descending: -1 when a sorts first. */
static int
desc(double a, double b)
{
	return a > b ? -1 : a < b ? 1 : 0;
}

/* The two rows' values of file f's column, compared (-1: a first). */
static int
cmp_value(const struct diff *d, const struct diff_row *a, const struct diff_row *b, size_t f)
{
	const struct diff_cell *x = &a->cell[f], *y = &b->cell[f];

	switch (d->o.compute) {
	case DIFF_DELTA:
		return desc(x->delta, y->delta);
	case DIFF_DELTA_ABS:
		return desc(fabs(x->delta), fabs(y->delta));
	case DIFF_RATIO:
		return desc(x->ratio, y->ratio);
	case DIFF_WDIFF:
		return x->wdiff > y->wdiff ? -1 : x->wdiff < y->wdiff;
	}
	return 0;
}

/* perf's hist_entry__cmp_compute_idx: the sort by -o's file. */
static int
cmp_order(const struct diff *d, const struct diff_row *a, const struct diff_row *b)
{
	size_t f = d->o.order;
	bool pa = a->cell[f].present, pb = b->cell[f].present;

	if (pa != pb)
		return pa ? -1 : 1;
	if (!pa)
		return 0;
	if (d->o.compute != DIFF_DELTA && d->o.compute != DIFF_DELTA_ABS && a->dummy != b->dummy)
		return a->dummy ? 1 : -1;
	return cmp_value(d, a, b, f);
}

/* perf's hist_entry__cmp_compute: file f's column. */
static int
cmp_column(const struct diff *d, const struct diff_row *a, const struct diff_row *b, size_t f)
{
	bool ha = has_pairs(d, a), hb = has_pairs(d, b);
	bool pa = a->cell[f].present, pb = b->cell[f].present;

	if (ha != hb)
		return ha ? -1 : 1;
	if (!ha)
		return 0;
	if (pa != pb)
		return pa ? -1 : 1;
	if (!pa)
		return 0;
	return cmp_value(d, a, b, f);
}

/* Null last (perf's cmp_null as its sort keys use it), else by text. */
static int
cmp_key(const char *a, bool anone, const char *b, bool bnone)
{
	if (anone || bnone)
		return anone == bnone ? 0 : anone ? 1 : -1;
	return strcmp(a, b);
}

/* The sort keys' order: perf's se_sort (or se_cmp) of each. */
static int
cmp_keys(const struct diff *d, const struct diff_row *a, const struct diff_row *b)
{
	for (unsigned k = 0; k < d->ho.nkeys; k++) {
		int c;

		switch (d->ho.keys[k]) {
		case HIST_KEY_DSO:
			c = cmp_key(a->key[k], a->dso_none, b->key[k], b->dso_none);
			break;
		case HIST_KEY_SYM:
			/* the names, after "[.] " */
			c = cmp_key(strlen(a->key[k]) > 4 ? a->key[k] + 4 : a->key[k], a->sym_none,
			    strlen(b->key[k]) > 4 ? b->key[k] + 4 : b->key[k], b->sym_none);
			break;
		default:
			c = strcmp(a->key[k], b->key[k]);
			break;
		}
		if (c != 0)
			return c;
	}
	for (unsigned k = 0; k < d->ho.nkeys; k++) {
		int c = strcmp(a->key[k], b->key[k]);

		if (c != 0)
			return c;
	}
	return 0;
}

static int
cmp_rows(const void *x, const void *y, void *arg)
{
	const struct diff *d = arg;
	const struct diff_row *a = x, *b = y;
	int c;

	if (d->o.order > 0 && (c = cmp_order(d, a, b)) != 0)
		return c;
	if (a->cell[0].period != b->cell[0].period)
		return a->cell[0].period > b->cell[0].period ? -1 : 1;
	for (size_t f = 1; f < d->nfiles; f++)
		if ((c = cmp_column(d, a, b, f)) != 0)
			return c;
	return cmp_keys(d, a, b);
}

/* perf's event modifiers (":ppp", ":u"...): letters of these only. */
static bool
modifiers(const char *m)
{
	if (*m == '\0')
		return false;
	for (; *m; m++)
		if (strchr("ukhIGHpPSDWeb", *m) == NULL)
			return false;
	return true;
}

/* The length of name without its modifiers: what perf's evsel pairing sees. */
static size_t
base_len(const char *name)
{
	const char *colon = strrchr(name, ':');

	return colon != NULL && modifiers(colon + 1) ? (size_t)(colon - name) : strlen(name);
}

/* Are the names of one event (equal, or equal but for their modifiers)? */
static bool
same_event(const char *a, const char *b, bool exact)
{
	size_t la = base_len(a), lb = base_len(b);

	if (exact)
		return strcmp(a, b) == 0;
	return la == lb && strncmp(a, b, la) == 0;
}

/* Events of each file already in the comparison. */
struct taken {
	bool	*v[DIFF_MAX_FILES];
};

long
diff_event_for(const struct hist *h, const bool *taken, const char *name)
{
	for (int exact = 1; exact >= 0; exact--)
		for (size_t i = 0; i < hist_nevents(h); i++)
			if ((taken == NULL || !taken[i]) &&
			    same_event(hist_str(h, hist_event(h, i)->name), name, exact))
				return (long)i;
	return -1;
}

/* An event of the comparison: name's rows over every file that has it. */
static void
build_event(struct diff *d, struct hist *const *h, struct taken *t, const char *name)
{
	struct builder b;
	struct diff_event *de;

	d->ev = xreallocarray(d->ev, d->nev + 1, sizeof *d->ev);
	de = &d->ev[d->nev++];
	memset(de, 0, sizeof *de);
	de->name = xstrdup(name);
	memset(&b, 0, sizeof b);
	b.d = d;
	b.de = de;
	for (size_t f = 0; f < d->nfiles; f++) {
		long ev = diff_event_for(h[f], t->v[f], name);

		if (ev < 0)
			continue;
		t->v[f][ev] = true;
		add_file(&b, h[f], f, (size_t)ev);
	}
	compute(d, de);
	if (d->o.baseline_only)
		baseline_only(d, de);
	if (de->nrows > 1)
		qsort_r(de->rows, de->nrows, sizeof *de->rows, cmp_rows, d);
	free(b.line);
	hmap_free(&b.at);
	strtab_free(&b.keys);
}

struct diff *
diff_new(struct hist *const *h, size_t n, const struct diff_opts *o)
{
	const struct hist_opts *h0;
	struct taken t;
	struct diff *d;

	if (n < 2 || n > DIFF_MAX_FILES || o->order >= n)
		return NULL;
	h0 = hist_opts(h[0]);
	for (size_t f = 1; f < n; f++) {
		const struct hist_opts *hf = hist_opts(h[f]);

		if (hf->nkeys != h0->nkeys || memcmp(hf->keys, h0->keys, h0->nkeys * sizeof *h0->keys))
			return NULL;
	}
	d = xcalloc(1, sizeof *d);
	d->nfiles = n;
	d->o = *o;
	d->ho = *h0;
	for (size_t f = 0; f < n; f++)
		t.v[f] = xcalloc(hist_nevents(h[f]) + 1, sizeof *t.v[f]);
	for (size_t f = 0; f < n; f++) {
		for (size_t i = 0; i < hist_nevents(h[f]); i++)
			if (!t.v[f][i])
				build_event(d, h, &t, hist_str(h[f], hist_event(h[f], i)->name));
	}
	for (size_t f = 0; f < n; f++)
		free(t.v[f]);
	return d;
}

void
diff_free(struct diff *d)
{
	if (d == NULL)
		return;
	for (size_t i = 0; i < d->nev; i++) {
		struct diff_event *de = &d->ev[i];

		for (size_t r = 0; r < de->nrows; r++)
			free_row(d, &de->rows[r]);
		free(de->rows);
		free((char *)de->name);
	}
	free(d->ev);
	free(d);
}

size_t
diff_nfiles(const struct diff *d)
{
	return d->nfiles;
}

const struct hist_opts *
diff_hist_opts(const struct diff *d)
{
	return &d->ho;
}

size_t
diff_nevents(const struct diff *d)
{
	return d->nev;
}

const struct diff_event *
diff_event(const struct diff *d, size_t i)
{
	return &d->ev[i];
}
