/* Criterion tests of perf's entry tree: symbolize/perftree.c and its use
 * by hists (symbolize/hist_ptree.c). */
#include "config.h"

#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/core.h"
#include "symbolize/hist.h"
#include "symbolize/perftree.h"
#include "symbolize/symbolizer.h"
#include "tests/helpers.h"
#include "tests/hist_helpers.h"

/* ---- perf's entry tree (symbolize/perftree.c and its use in hist.c) ---- */

static int64_t
int_cmp(void *arg, uint32_t old)
{
	const int *vals = arg;

	return (int64_t)vals[vals[0]] - vals[old];	/* vals[0]: index of the value sought */
}

/* Preorder "VALUE" + r/b, as the replay's tree prints its shape. */
static void
preorder(const struct perftree *t, uint32_t p, const int *vals, char *out, size_t n)
{
	size_t l = strlen(out);

	if (p == PERFTREE_NONE)
		return;
	snprintf(out + l, n - l, "%s%d%c", l ? " " : "", vals[p], t->v[p].red ? 'r' : 'b');
	preorder(t, t->v[p].kid[0], vals, out, n);
	preorder(t, t->v[p].kid[1], vals, out, n);
}

/* Black height, or -1 where a red node has a red child or heights differ. */
static int
black_height(const struct perftree *t, uint32_t p)
{
	int l, r;

	if (p == PERFTREE_NONE)
		return 1;
	l = black_height(t, t->v[p].kid[0]);
	r = black_height(t, t->v[p].kid[1]);
	if (l < 0 || r < 0 || l != r)
		return -1;
	for (int d = 0; d < 2; d++)
		if (t->v[p].red && t->v[p].kid[d] != PERFTREE_NONE && t->v[t->v[p].kid[d]].red)
			return -1;
	return l + !t->v[p].red;
}

static void
collect_id(void *arg, uint32_t id)
{
	uint32_t *acc = arg;

	acc[++acc[0]] = id;
}

static void
tree_of(const int *seq, size_t n, int *vals, struct perftree *t, uint32_t *root)
{
	*root = PERFTREE_NONE;
	for (size_t i = 0; i < n; i++) {
		uint32_t parent, id = (uint32_t)i + 1;
		int side;

		vals[id] = seq[i];
		vals[0] = (int)id;
		cr_assert_eq(perftree_find(t, *root, int_cmp, vals, &parent, &side), PERFTREE_NONE);
		perftree_insert(t, root, id, parent, side);
	}
}

/*
 * The shapes perf's rbtree (and tests/perf-hist-replay.py's Tree, which
 * follows it) gives for two insertion orders, taken from the replay; and
 * the red-black rules and order over many random insertions.
 */
Test(perftree, shapes_and_invariants)
{
	static const int asc[] = { 1, 2, 3, 4, 5, 6, 7, 8, 9, 10 };
	static const int mixed[] = { 5, 3, 8, 1, 4, 7, 9, 2, 6, 10, 12, 11 };
	int vals[2001];
	uint32_t ids[2001];
	int seq[2000];
	char shape[512];
	struct perftree t = { 0 };
	uint32_t root;

	tree_of(asc, 10, vals, &t, &root);
	shape[0] = '\0';
	preorder(&t, root, vals, shape, sizeof shape);
	cr_assert_str_eq(shape, "4b 2b 1b 3b 6b 5b 8r 7b 9b 10r");
	perftree_free(&t);
	tree_of(mixed, 12, vals, &t, &root);
	shape[0] = '\0';
	preorder(&t, root, vals, shape, sizeof shape);
	cr_assert_str_eq(shape, "5b 3b 1b 2r 4b 8b 7b 6r 10r 9b 12b 11r");
	perftree_free(&t);

	srand(7);
	for (int i = 0; i < 2000; i++)
		seq[i] = i;
	for (int i = 1999; i > 0; i--) {
		int j = rand() % (i + 1), x = seq[i];

		seq[i] = seq[j];
		seq[j] = x;
	}
	tree_of(seq, 2000, vals, &t, &root);
	cr_assert_gt(black_height(&t, root), 0);
	cr_assert_not(t.v[root].red);
	ids[0] = 0;
	perftree_walk(&t, root, collect_id, ids);
	cr_assert_eq(ids[0], 2000);
	for (uint32_t i = 1; i <= 2000; i++)
		cr_assert_eq(vals[ids[i]], (int)i - 1);
	perftree_free(&t);
}

/*
 * Frames of the fixture binary "cpu" of dwarf.data (its symbols come from
 * tests/data/buildid): real functions by name, inlined symbols made up
 * inside them.
 */
struct ptfix {
	struct session		*s;
	struct symbolizer	*z;
	uint32_t		 dso;
};

static void
ptfix_open(struct ptfix *x)
{
	char bdir[4096];
	struct sym_opts o;
	struct perf_err err;

	snprintf(bdir, sizeof bdir, "%s", test_data("buildid"));
	memset(&o, 0, sizeof o);
	o.buildid_dir = bdir;
	o.kallsyms = "/dev/null";
	x->s = session_open(test_data("dwarf.data"), NULL, &err);
	cr_assert_not_null(x->s, "%s", err.msg);
	x->z = symbolizer_new(x->s, &o);
	x->dso = DSO_NONE;
	for (size_t d = 0; d < symbolizer_ndsos(x->z); d++)
		if (strcmp(symbolizer_dso_short(x->z, (uint32_t)d), "cpu") == 0)
			x->dso = (uint32_t)d;
	cr_assert_neq(x->dso, DSO_NONE);
}

static void
ptfix_close(struct ptfix *x)
{
	symbolizer_free(x->z);
	session_close(x->s);
}

/* A frame in function fn, or in inlined symbol inl (non-NULL) inside fn. */
static struct frame
ptfr(struct ptfix *x, const char *fn, const char *inl)
{
	struct frame f;
	uint64_t start, end;
	uint32_t dso, sym = SYM_NONE;

	for (uint32_t i = 0; i < 64; i++) {
		uint32_t s = symbolizer_sym_by_ident(x->z, x->dso, i, NULL);

		if (s == SYM_NONE)
			break;
		if (strcmp(symbolizer_sym_name(x->z, s), fn) == 0) {
			sym = inl ? symbolizer_sym_by_ident(x->z, x->dso, i, inl) : s;
			break;
		}
	}
	cr_assert_neq(sym, SYM_NONE, "no %s in cpu", fn);
	cr_assert_eq(symbolizer_sym_inlined(x->z, sym), inl != NULL);
	cr_assert_eq(symbolizer_sym_range(x->z, sym, &dso, &start, &end), 0);
	f = hh_frame(x->dso, sym, 0);
	f.rel = start + 1;
	f.ip = 0x55550000 + f.rel;
	f.symoff = 1;
	return f;
}

/*
 * Three samples, each frame given as (function, inlined levels), caller
 * order (the chains below are leaf first, as hist_add() takes them):
 *   1: _start [k_inl]                                       self _start
 *   2: mix_one [k_inl], reduce [z_inl, k_inl], reduce [a_inl],
 *      mix_one [a_inl]                                      self mix_one
 *   3: mix_one                                              self mix_one
 * Expected rows from tests/perf-hist-replay.py's Tree and perf_sym_cmp fed
 * these samples by a small driver (self entry, then the frames in caller
 * order, skipping one equal to an entry the sample already counts in):
 * sample 2's inlined entries rise above mix_one's entry, and sample 3's
 * search for mix_one compares with them by name, goes the other way and
 * makes a second mix_one entry.  perf prints mix_one twice, 33.33% each.
 */
static void
stranding_samples(struct ptfix *x, struct hist *h, bool inl)
{
	struct frame st = ptfr(x, "_start", NULL), mo = ptfr(x, "mix_one", NULL);
	struct frame s1[] = { ptfr(x, "_start", "k_inl"), st };
	struct frame s2[] = {
		ptfr(x, "mix_one", "a_inl"), mo,
		ptfr(x, "reduce", "a_inl"), ptfr(x, "reduce", NULL),
		ptfr(x, "reduce", "k_inl"), ptfr(x, "reduce", "z_inl"), ptfr(x, "reduce", NULL),
		ptfr(x, "mix_one", "k_inl"), mo,
	};
	struct frame s2real[] = { mo, ptfr(x, "reduce", NULL), ptfr(x, "reduce", NULL), mo };
	struct hist_sample smp = {
		.attr = 0, .event_name = "cpu-clock", .comm = "cpu", .pid = 1, .tid = 1,
		.period = 100,
	};

	smp.self = &st;
	smp.chain = inl ? s1 : &st;
	smp.nchain = inl ? 2 : 1;
	hist_add(h, &smp);
	smp.self = &mo;
	smp.chain = inl ? s2 : s2real;
	smp.nchain = inl ? sizeof s2 / sizeof *s2 : sizeof s2real / sizeof *s2real;
	hist_add(h, &smp);
	smp.chain = &mo;
	smp.nchain = 1;
	hist_add(h, &smp);
	hist_finish(h);
}

static struct hist *
sym_children(struct ptfix *x, bool with_session)
{
	struct hist_opts o;

	memset(&o, 0, sizeof o);
	o.keys[0] = HIST_KEY_SYM;
	o.nkeys = 1;
	o.children = true;
	o.event = -1;
	return hist_new(with_session ? x->s : NULL, x->z, &o);
}

/* Rows labelled text: their count, and children/self samples of up to 4. */
static size_t
rows_named(struct hist *h, const char *text, uint64_t *acc, uint64_t *self)
{
	const uint32_t *rows;
	size_t n = hist_rows(h, 0, 0, &rows), k = 0;
	char buf[256];

	for (size_t i = 0; i < n; i++) {
		const struct hist_entry *e = hist_entry_get(h, rows[i]);

		if (strcmp(hist_key_text(h, e, HIST_KEY_SYM, buf, sizeof buf), text) != 0)
			continue;
		if (k < 4) {
			acc[k] = e->acc_samples;
			self[k] = e->samples;
		}
		k++;
	}
	return k;
}

Test(hist, perf_tree_strands_an_entry_as_perf)
{
	struct ptfix x;
	struct hist *h;
	uint64_t acc[4], self[4];
	const uint32_t *rows;

	ptfix_open(&x);
	h = sym_children(&x, true);	/* a session with user stacks: perf's tree */
	stranding_samples(&x, h, true);
	cr_assert_eq(hist_event(h, 0)->nsamples, 3);
	/* replay: 10 entries, mix_one twice (one per sample 2 and 3) */
	cr_assert_eq(hist_rows(h, 0, 0, &rows), 10);
	cr_assert_eq(rows_named(h, "[.] mix_one", acc, self), 2);
	cr_assert_eq(acc[0], 1);
	cr_assert_eq(self[0], 1);
	cr_assert_eq(acc[1], 1);
	cr_assert_eq(self[1], 1);
	cr_assert_float_eq(hist_children_pct(h, hist_entry_get(h, rows[0])), 100.0 / 3, 1e-9);
	cr_assert_eq(rows_named(h, "[.] _start", acc, self), 1);
	cr_assert_eq(acc[0], 1);
	cr_assert_eq(rows_named(h, "[.] reduce", acc, self), 1);
	cr_assert_eq(acc[0], 1);	/* recursion counts once */
	cr_assert_eq(self[0], 0);
	/* the same name in three functions: three symbols, as in perf */
	cr_assert_eq(rows_named(h, "[.] k_inl (inlined)", acc, self), 3);
	cr_assert_eq(rows_named(h, "[.] a_inl (inlined)", acc, self), 2);
	cr_assert_eq(rows_named(h, "[.] z_inl (inlined)", acc, self), 1);
	hist_free(h);

	/* Keyed by (DSO, symbol) (no session here): one mix_one, 2 samples. */
	h = sym_children(&x, false);
	stranding_samples(&x, h, true);
	cr_assert_eq(hist_rows(h, 0, 0, &rows), 9);
	cr_assert_eq(rows_named(h, "[.] mix_one", acc, self), 1);
	cr_assert_eq(acc[0], 2);
	cr_assert_eq(self[0], 2);
	hist_free(h);
	ptfix_close(&x);
}

/*
 * Without inlined symbols perf's comparison is a total order that agrees
 * with the keys: the tree and the keyed tables give the same rows.
 */
Test(hist, perf_tree_without_inlines_equals_keyed)
{
	struct ptfix x;
	struct hist *t, *k;
	const uint32_t *rows;
	size_t n;

	ptfix_open(&x);
	t = sym_children(&x, true);
	k = sym_children(&x, false);
	stranding_samples(&x, t, false);
	stranding_samples(&x, k, false);
	n = hist_rows(k, 0, 0, &rows);
	cr_assert_eq(n, 3);
	cr_assert_eq(hist_rows(t, 0, 0, &rows), n);
	for (size_t i = 0; i < n; i++) {
		char buf[256];
		const struct hist_entry *e;
		uint64_t acc[4], self[4];

		hist_rows(k, 0, 0, &rows);
		e = hist_entry_get(k, rows[i]);
		hist_key_text(k, e, HIST_KEY_SYM, buf, sizeof buf);
		cr_assert_eq(rows_named(t, buf, acc, self), 1, "%s", buf);
		cr_assert_eq(acc[0], e->acc_samples, "%s", buf);
		cr_assert_eq(self[0], e->samples, "%s", buf);
	}
	cr_assert_eq(rows_named(k, "[.] mix_one", (uint64_t[4]){ 0 }, (uint64_t[4]){ 0 }), 1);
	hist_free(t);
	hist_free(k);
	ptfix_close(&x);
}
