/*
 * Criterion tests of the flame graph without a terminal: the layout model
 * (symbolize/flame.h) over the fixtures' call-path trees at many widths
 * and zooms, the tree's paths against perf's own folded output
 * (tests/data/expected/fp.data.folded-*.txt), the search and its share,
 * the kinds of code; the pane (tui/pane/pane_flame.c) moved with keys and
 * clicks, zoomed, flipped, searched, and the views it opens.
 */
#include "config.h"

#include <criterion/criterion.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include <curses.h>

#include "core/core.h"
#include "symbolize/cpath.h"
#include "symbolize/flame.h"
#include "symbolize/hist.h"
#include "symbolize/symbolizer.h"
#include "tests/tui_helpers.h"
#include "tui/keys.h"
#include "tui/nav.h"
#include "tui/pane.h"
#include "tui/symbols.h"
#include "tui/widget.h"

/* ---- helpers ---- */

static struct cpath *
tree_of(struct symbols *sy, bool bottom_up)
{
	struct cpath_query q;

	memset(&q, 0, sizeof q);
	q.entry = CPATH_NONE;
	q.bottom_up = bottom_up;
	return cpath_build(sy->h, &q);
}

static const char *
name_of(struct symbols *sy, const struct cpath *t, uint32_t node, char *buf, size_t n)
{
	return cpath_func_name(sy->h, cpath_node(t, node)->func, buf, n);
}

/* The first node of t whose function is named name, or CPATH_NONE. */
static uint32_t
node_named(struct symbols *sy, const struct cpath *t, const char *name)
{
	char buf[512];

	for (uint32_t i = 1; i < cpath_count(t); i++)
		if (strcmp(name_of(sy, t, i, buf, sizeof buf), name) == 0)
			return i;
	return CPATH_NONE;
}

/*
 * Every property the layout promises, for fl laid out from t: the top at
 * full width; each frame at least a column wide, within a column of its
 * exact width, inside its parent, after its left neighbour; children never
 * wider together than their parent, never counting more; every node a
 * column wide whose parent is shown is shown.
 */
static void
check_layout(const struct flame *fl, const struct cpath *t, const char *what)
{
	const struct cpath_node *top = cpath_node(t, fl->top);
	double total = (double)top->total_period, wd = fl->width;
	size_t shown = 0;

	cr_assert_geq(fl->n, 1, "%s", what);
	cr_assert_eq(fl->f[0].node, fl->top, "%s", what);
	cr_assert_eq(fl->f[0].x, 0, "%s", what);
	cr_assert_eq(fl->f[0].w, fl->width, "%s: the top is full width", what);
	cr_assert_eq(fl->row[0], 0);
	cr_assert_eq(fl->row[fl->nrows], fl->n, "%s: rows cover the frames", what);
	for (uint32_t i = 0; i < fl->n; i++) {
		const struct flame_frame *f = &fl->f[i];
		const struct cpath_node *nd = cpath_node(t, f->node);
		uint64_t sumw = 0, sump = 0, want = 0;

		cr_assert_geq(f->w, 1, "%s: frame %u", what, i);
		cr_assert_leq(f->x + f->w, fl->width, "%s: frame %u", what, i);
		cr_assert(i >= fl->row[f->row] && i < fl->row[f->row + 1], "%s: frame %u row", what, i);
		if (total > 0)
			cr_assert_lt(fabs((double)f->w - (double)nd->total_period * wd / total), 1.0,
			    "%s: frame %u is %u columns for %" PRIu64 " of %.0f", what, i, f->w,
			    nd->total_period, total);
		if (i > fl->row[f->row])
			cr_assert_geq(f->x, fl->f[i - 1].x + fl->f[i - 1].w, "%s: %u overlaps", what, i);
		if (f->parent != FLAME_NONE) {
			const struct flame_frame *pf = &fl->f[f->parent];

			cr_assert_eq(nd->parent, pf->node, "%s: frame %u's parent", what, i);
			cr_assert_eq(f->row, pf->row + 1);
			cr_assert(f->x >= pf->x && f->x + f->w <= pf->x + pf->w,
			    "%s: frame %u [%u,+%u) outside its parent [%u,+%u)", what, i, f->x, f->w,
			    pf->x, pf->w);
			cr_assert_leq(nd->total_period, cpath_node(t, pf->node)->total_period);
			cr_assert_leq(nd->total_samples, cpath_node(t, pf->node)->total_samples);
		} else {
			cr_assert_eq(i, 0, "%s: only the top has no parent", what);
		}
		for (uint32_t c = 0; c < f->nchild; c++) {
			cr_assert_eq(fl->f[f->child + c].parent, i);
			sumw += fl->f[f->child + c].w;
			sump += cpath_node(t, fl->f[f->child + c].node)->total_period;
		}
		cr_assert_leq(sumw, f->w, "%s: frame %u's children are wider", what, i);
		cr_assert_leq(sump, nd->total_period, "%s: frame %u's children count more", what, i);
		/* the children a column wide, every one of them */
		for (uint32_t c = nd->first_child; c != CPATH_NONE; c = cpath_node(t, c)->next_sibling)
			if ((double)cpath_node(t, c)->total_period * wd >= total && total > 0)
				want++;
		cr_assert_eq(f->nchild, want, "%s: frame %u shows %u of %" PRIu64 " children", what,
		    i, f->nchild, want);
		shown++;
	}
	cr_assert_eq(shown, fl->n);
}

/* ---- the layout ---- */

Test(flame, layout_holds_at_every_width_and_zoom)
{
	const char *fx[] = { "fp.data", "dwarf.data", "fork.data", "pipe.data", "plain.data" };
	const unsigned widths[] = { 1, 2, 7, 80, 200, 1000, 65535 };

	for (size_t k = 0; k < sizeof fx / sizeof fx[0]; k++) {
		struct session *s = open_fixture(fx[k]);
		struct symbols *sy = fixture_symbols(s);

		symbols_run(sy);
		for (int bu = 0; bu < 2; bu++) {
			struct cpath *t = tree_of(sy, bu);
			struct flame fl;
			char what[128];

			memset(&fl, 0, sizeof fl);
			for (size_t w = 0; w < sizeof widths / sizeof widths[0]; w++) {
				snprintf(what, sizeof what, "%s %s width %u", fx[k], bu ? "bottom-up" :
				    "top-down", widths[w]);
				flame_layout(&fl, t, 0, widths[w], sy->h, sy->z);
				check_layout(&fl, t, what);
			}
			/* zoomed into every node: it takes the whole width */
			for (uint32_t top = 0; top < cpath_count(t); top++) {
				snprintf(what, sizeof what, "%s %s zoom %u", fx[k], bu ? "bottom-up" :
				    "top-down", top);
				flame_layout(&fl, t, top, 120, sy->h, sy->z);
				cr_assert_eq(fl.top, top);
				check_layout(&fl, t, what);
			}
			flame_free(&fl);
			cpath_free(t);
		}
		symbols_free(sy);
		session_close(s);
	}
}

Test(flame, narrow_frames_are_left_out)
{
	struct session *s = open_fixture("fp.data");
	struct symbols *sy = fixture_symbols(s);
	struct cpath *t;
	struct flame fl;
	uint32_t main_node, vf;

	symbols_run(sy);
	t = tree_of(sy, false);
	memset(&fl, 0, sizeof fl);
	/* 186 samples of one period: 1 sample is 0.54 columns of 100, 1.08 of 200 */
	cr_assert_eq(cpath_node(t, 0)->total_samples, 186);
	vf = node_named(sy, t, "__vfprintf_internal");
	if (vf == CPATH_NONE)	/* libc unresolved on this machine: its address */
		vf = cpath_node(t, 0)->first_child;
	while (vf != CPATH_NONE && cpath_node(t, vf)->total_samples != 1)
		vf = cpath_node(t, vf)->next_sibling;
	cr_assert_neq(vf, CPATH_NONE, "a root's child of one sample");
	flame_layout(&fl, t, 0, 100, sy->h, sy->z);
	cr_assert_eq(flame_of_node(&fl, vf), FLAME_NONE, "under a column: left out");
	flame_layout(&fl, t, 0, 200, sy->h, sy->z);
	cr_assert_neq(flame_of_node(&fl, vf), FLAME_NONE, "a column wide: shown");
	/* mix_one: 138 of 186 samples, 74 columns of 100 wherever it starts */
	flame_layout(&fl, t, 0, 100, sy->h, sy->z);
	main_node = node_named(sy, t, "main");
	cr_assert_neq(main_node, CPATH_NONE);
	cr_assert_eq(fl.f[flame_of_node(&fl, node_named(sy, t, "mix_one"))].w, 74);
	cr_assert_eq(fl.f[flame_of_node(&fl, main_node)].w, 78, "146 of 186 samples");
	/* zoomed into main: full width, mix_one 138 of its 146 samples */
	flame_layout(&fl, t, main_node, 100, sy->h, sy->z);
	cr_assert_eq(fl.f[0].node, main_node);
	cr_assert_eq(fl.f[0].w, 100);
	cr_assert_eq(fl.f[flame_of_node(&fl, node_named(sy, t, "mix_one"))].w, 94);
	cr_assert_eq(flame_of_node(&fl, cpath_node(t, main_node)->parent), FLAME_NONE,
	    "nothing above the zoom");
	flame_free(&fl);
	cpath_free(t);
	symbols_free(sy);
	session_close(s);
}

Test(flame, moving_through_the_layout)
{
	struct session *s = open_fixture("fp.data");
	struct symbols *sy = fixture_symbols(s);
	struct cpath *t;
	struct flame fl;
	uint32_t m, mix, fill, i;

	symbols_run(sy);
	t = tree_of(sy, false);
	memset(&fl, 0, sizeof fl);
	flame_layout(&fl, t, 0, 100, sy->h, sy->z);
	m = flame_of_node(&fl, node_named(sy, t, "main"));
	mix = flame_of_node(&fl, node_named(sy, t, "mix"));
	fill = flame_of_node(&fl, node_named(sy, t, "fill"));
	cr_assert_eq(fl.f[m].row, 2);
	cr_assert_eq(flame_at(&fl, 2, 0), m);
	cr_assert_eq(flame_at(&fl, 2, fl.f[fill].x + 1), fill);
	cr_assert_eq(flame_at(&fl, 2, 99), FLAME_NONE, "the self part of the row above");
	cr_assert_eq(flame_at(&fl, 9, 0), FLAME_NONE);
	cr_assert_eq(flame_beside(&fl, m, 1), fill, "main's sibling to the right");
	cr_assert_eq(flame_beside(&fl, m, -1), FLAME_NONE);
	cr_assert_eq(flame_child(&fl, m, fl.f[mix].x), mix, "the child under the column");
	i = flame_child(&fl, m, 99);
	cr_assert_eq(fl.f[i].node, node_named(sy, t, "mix_one"), "else the widest");
	cr_assert_eq(flame_child(&fl, fill, 0), FLAME_NONE);
	flame_free(&fl);
	cpath_free(t);
	symbols_free(sy);
	session_close(s);
}

/* ---- the tree against perf's folded output ---- */

struct folded {
	char	**v;
	size_t	  n;
};

static int
cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

static void
folded_add(struct folded *f, const char *line)
{
	f->v = realloc(f->v, (f->n + 1) * sizeof *f->v);
	cr_assert_not_null(f->v);
	f->v[f->n++] = strdup(line);
}

static void
folded_free(struct folded *f)
{
	for (size_t i = 0; i < f->n; i++)
		free(f->v[i]);
	free(f->v);
}

/* Is name a function of the fixture binary (named the same in our tree)? */
static bool
own(char *const *names, size_t n, const char *name)
{
	for (size_t i = 0; i < n; i++)
		if (strcmp(names[i], name) == 0)
			return true;
	return false;
}

/*
 * perf's "COUNT a;b;c" lines of file, each name not in names[] written
 * "?" (libc and kernel names depend on the machine's symbols).
 */
static void
perf_folded(const char *file, char *const *names, size_t nnames, struct folded *out)
{
	char path[4096], line[8192];
	FILE *fp;

	snprintf(path, sizeof path, "%s/expected/%s", TEST_DATA, file);
	fp = fopen(path, "r");
	cr_assert_not_null(fp, "%s", path);
	while (fgets(line, sizeof line, fp)) {
		char buf[8192], *save = NULL, *tok, *sp = strchr(line, ' ');
		int k;

		line[strcspn(line, "\n")] = '\0';
		if (line[0] < '0' || line[0] > '9' || sp == NULL)
			continue;
		*sp = '\0';
		k = snprintf(buf, sizeof buf, "%s ", line);
		for (tok = strtok_r(sp + 1, ";", &save); tok; tok = strtok_r(NULL, ";", &save))
			k += snprintf(buf + k, sizeof buf - (size_t)k, "%s%s",
			    buf[k - 1] == ' ' ? "" : ";", own(names, nnames, tok) ? tok : "?");
		folded_add(out, buf);
	}
	fclose(fp);
	qsort(out->v, out->n, sizeof *out->v, cmp_str);
}

/* Is node's function in the fixture binary ./cpu? */
static bool
in_cpu(struct symbols *sy, const struct cpath *t, uint32_t node)
{
	const struct hist_node *nd = hist_node_get(sy->h, cpath_node(t, node)->func);

	return nd && nd->f.sym != SYM_NONE && nd->f.dso != DSO_NONE &&
	    strcmp(symbolizer_dso_short(sy->z, nd->f.dso), "cpu") == 0;
}

/*
 * The paths of the flame graph of fp.data laid out wide enough for every
 * node, as "SELF a;b;c" for each frame where samples' paths end, names
 * outside ./cpu written "?"; the names of ./cpu into names.
 */
static void
flame_folded(struct symbols *sy, const struct cpath *t, struct folded *out, struct folded *names)
{
	struct flame fl;
	char buf[8192], name[512];

	memset(&fl, 0, sizeof fl);
	flame_layout(&fl, t, 0, 60000, sy->h, sy->z);
	cr_assert_eq(fl.n, cpath_count(t), "60000 columns show every node of fp.data");
	for (uint32_t i = 1; i < fl.n; i++) {
		const struct cpath_node *nd = cpath_node(t, fl.f[i].node);
		uint32_t chain[256];
		size_t d = 0;
		int k;

		if (in_cpu(sy, t, fl.f[i].node) &&
		    !own(names->v, names->n, name_of(sy, t, fl.f[i].node, name, sizeof name)))
			folded_add(names, name);
		if (nd->self_samples == 0)
			continue;
		for (uint32_t f = i; f != 0 && d < 256; f = fl.f[f].parent)
			chain[d++] = fl.f[f].node;
		k = snprintf(buf, sizeof buf, "%" PRIu64 " ", nd->self_samples);
		while (d-- > 0)
			k += snprintf(buf + k, sizeof buf - (size_t)k, "%s%s",
			    buf[k - 1] == ' ' ? "" : ";", in_cpu(sy, t, chain[d]) ?
			    name_of(sy, t, chain[d], name, sizeof name) : "?");
		folded_add(out, buf);
	}
	qsort(out->v, out->n, sizeof *out->v, cmp_str);
	flame_free(&fl);
}

/*
 * perf report --no-children --sort sym -g folded,0,ORDER,count: every
 * sample's path once, from the outermost caller (caller) or from where it
 * was taken (callee).  The flame graph's top-down tree has the same paths
 * with the same counts, the bottom-up tree the callee ones.
 */
Test(flame, paths_are_perfs_folded_paths)
{
	struct session *s = open_fixture("fp.data");
	struct symbols *sy = fixture_symbols(s);

	symbols_run(sy);
	for (int bu = 0; bu < 2; bu++) {
		struct cpath *t = tree_of(sy, bu);
		struct folded ours = { NULL, 0 }, names = { NULL, 0 }, perfs = { NULL, 0 };
		uint64_t sum = 0;

		flame_folded(sy, t, &ours, &names);
		cr_assert_geq(names.n, 4, "main, mix_one, mix, fill, reduce resolve from ./cpu");
		perf_folded(bu ? "fp.data.folded-callee.txt" : "fp.data.folded-caller.txt", names.v,
		    names.n, &perfs);
		cr_assert_eq(ours.n, perfs.n, "%s: %zu paths, perf %zu", bu ? "callee" : "caller",
		    ours.n, perfs.n);
		for (size_t i = 0; i < ours.n; i++) {
			cr_assert_str_eq(ours.v[i], perfs.v[i]);
			sum += strtoull(ours.v[i], NULL, 10);
		}
		cr_assert_eq(sum, 186, "every sample once");
		cr_assert(own(ours.v, ours.n, bu ? "138 mix_one;main;?" : "138 ?;main;mix_one"));
		folded_free(&ours);
		folded_free(&names);
		folded_free(&perfs);
		cpath_free(t);
	}
	symbols_free(sy);
	session_close(s);
}

/* ---- search ---- */

/* The share of nodes matching pat without a matching ancestor, walked from the root. */
static uint64_t
share_walk(struct symbols *sy, const struct cpath *t, uint32_t node, const char *pat,
    size_t *hits)
{
	uint64_t sum = 0;
	char name[512];

	for (uint32_t c = cpath_node(t, node)->first_child; c != CPATH_NONE;
	    c = cpath_node(t, c)->next_sibling) {
		if (strcasestr(name_of(sy, t, c, name, sizeof name), pat)) {
			size_t below = 0;

			(*hits)++;
			sum += cpath_node(t, c)->total_period;
			share_walk(sy, t, c, pat, &below);	/* counted, not added */
			*hits += below;
		} else {
			sum += share_walk(sy, t, c, pat, hits);
		}
	}
	return sum;
}

Test(flame, search_marks_and_shares)
{
	const char *pats[] = { "mix", "MIX_ONE", "main", "i", "_", "0x", "nosuchname", "" };
	struct session *s = open_fixture("fp.data");
	struct symbols *sy = fixture_symbols(s);

	symbols_run(sy);
	for (int bu = 0; bu < 2; bu++) {
		struct cpath *t = tree_of(sy, bu);
		struct flame_search fs;
		uint64_t root = cpath_node(t, 0)->total_period;

		memset(&fs, 0, sizeof fs);
		for (size_t k = 0; k < sizeof pats / sizeof pats[0]; k++) {
			size_t hits = 0, n = flame_search(&fs, t, sy->h, pats[k]);
			uint64_t want = pats[k][0] ? share_walk(sy, t, 0, pats[k], &hits) : 0;

			cr_assert_eq(n, hits, "'%s': %zu nodes, walked %zu", pats[k], n, hits);
			cr_assert_eq(fs.nodes, n);
			cr_assert_eq(fs.period, want, "'%s'", pats[k]);
			cr_assert_leq(fs.period, root);
			for (uint32_t i = 0; i < cpath_count(t); i++) {
				char name[512];
				bool m = i > 0 && pats[k][0] &&
				    strcasestr(name_of(sy, t, i, name, sizeof name), pats[k]);

				cr_assert_eq(fs.on[i] != 0, m, "'%s' node %u", pats[k], i);
			}
		}
		/* mix_one (138) and mix (8) of 186, both below main */
		flame_search(&fs, t, sy->h, "mix");
		cr_assert_eq(fs.nodes, 2);
		cr_assert_eq(fs.samples, 146);
		cr_assert_eq(fs.period * 186, root * 146);
		flame_search(&fs, t, sy->h, "MIX_ONE");
		cr_assert_eq(fs.samples, 138, "case ignored");
		if (!bu) {
			/* main lies under __libc_start_call_main (when libc resolves): once */
			uint32_t lsc = node_named(sy, t, "__libc_start_call_main");
			uint32_t mn = node_named(sy, t, "main");

			flame_search(&fs, t, sy->h, "main");
			cr_assert(fs.on[mn]);
			if (lsc != CPATH_NONE) {
				cr_assert(fs.on[lsc]);
				cr_assert_geq(fs.samples, cpath_node(t, lsc)->total_samples);
				cr_assert_lt(fs.samples, cpath_node(t, lsc)->total_samples +
				    cpath_node(t, mn)->total_samples, "a match below a match counts once");
			}
		}
		flame_search_free(&fs);
		cpath_free(t);
	}
	symbols_free(sy);
	session_close(s);
}

/* ---- kinds of code ---- */

Test(flame, kinds_of_code)
{
	struct sym_opts so;
	struct session *s = open_fixture("fp.data");
	struct symbols *sy = fixture_symbols(s), *bare;
	struct cpath *t;
	bool kernel = false, cpu_seen;

	cr_assert_eq(flame_kind_of(true, true, "[kernel.kallsyms]", "kallsyms"), FLAME_KERNEL);
	cr_assert_eq(flame_kind_of(true, false, NULL, NULL), FLAME_KERNEL, "kernel wins");
	cr_assert_eq(flame_kind_of(false, false, "/usr/bin/x", "elf"), FLAME_UNRESOLVED);
	cr_assert_eq(flame_kind_of(false, true, "/tmp/perfnav-fixtures/cpu", "elf"), FLAME_USER);
	cr_assert_eq(flame_kind_of(false, true, NULL, NULL), FLAME_USER);
	cr_assert_eq(flame_kind_of(false, true, "/home/me/lib/libfoo.so", "elf"), FLAME_USER);
	cr_assert_eq(flame_kind_of(false, true, "/usr/lib/x86_64-linux-gnu/libc.so.6", "elf"),
	    FLAME_SYSTEM);
	cr_assert_eq(flame_kind_of(false, true, "/lib64/ld-linux-x86-64.so.2", "elf"),
	    FLAME_SYSTEM);
	cr_assert_eq(flame_kind_of(false, true, "/opt/musl/libc.musl-x86_64.so.1", "elf"),
	    FLAME_SYSTEM);
	cr_assert_eq(flame_kind_of(false, true, "[vdso]", "vdso"), FLAME_SYSTEM);
	cr_assert_eq(flame_kind_of(false, true, "[JIT] tid 42", "perf-map"), FLAME_JIT);
	cr_assert_eq(flame_kind_of(false, true, "/tmp/perf-42.map", NULL), FLAME_JIT);
	cr_assert_eq(flame_kind_of(false, true, "/home/me/.debug/jit/jitted-42-7.so", "elf"),
	    FLAME_JIT);
	cr_assert_eq(flame_kind_of(false, true, "//anon", "perf-map"), FLAME_JIT);
	cr_assert_str_eq(flame_kind_name(FLAME_UNRESOLVED), "unresolved");
	cr_assert_str_eq(flame_kind_name(FLAME_JIT), "JIT");

	/* fp.data: ./cpu is user code, its kernel frames kernel, libc system if resolved */
	symbols_run(sy);
	t = tree_of(sy, false);
	cr_assert_eq(flame_kind(sy->h, sy->z, CPATH_NONE), FLAME_ROOT);
	for (uint32_t i = 1; i < cpath_count(t); i++) {
		uint32_t func = cpath_node(t, i)->func;
		const struct hist_node *nd = hist_node_get(sy->h, func);
		enum flame_kind k = flame_kind(sy->h, sy->z, func);

		if (in_cpu(sy, t, i))
			cr_assert_eq(k, FLAME_USER, "node %u", i);
		else if (nd->f.kernel)
			cr_assert_eq(k, FLAME_KERNEL);
		else if (nd->f.sym == SYM_NONE)
			cr_assert_eq(k, FLAME_UNRESOLVED);
		else
			cr_assert_eq(k, FLAME_SYSTEM, "libc and ld.so: %s",
			    symbolizer_dso_long(sy->z, nd->f.dso));
		kernel |= k == FLAME_KERNEL;
	}
	cr_assert(kernel, "fp.data has a kernel path");
	cpath_free(t);

	/* ./cpu not found: its frames are unresolved */
	memset(&so, 0, sizeof so);
	so.buildid_dir = "/nonexistent";
	so.symfs = "/nonexistent";
	so.kallsyms = "/dev/null";
	bare = symbols_new(s, &so, NULL);
	symbols_run(bare);
	t = tree_of(bare, false);
	cpu_seen = false;
	for (uint32_t i = 1; i < cpath_count(t); i++) {
		uint32_t func = cpath_node(t, i)->func;
		const struct hist_node *nd = hist_node_get(bare->h, func);

		if (nd->f.dso == DSO_NONE ||
		    strcmp(symbolizer_dso_short(bare->z, nd->f.dso), "cpu") != 0)
			continue;
		cr_assert_eq(flame_kind(bare->h, bare->z, func), FLAME_UNRESOLVED);
		cpu_seen = true;
	}
	cr_assert(cpu_seen, "frames of ./cpu");
	cpath_free(t);
	symbols_free(bare);
	symbols_free(sy);
	session_close(s);
}

/* ---- the pane ---- */

static void
flame_pane(struct pane *p, struct session *s, struct symbols *sy)
{
	struct nav_view v;

	cr_assert_eq(pane_create_sym(p, PANE_FLAME, s, NULL, sy), 0);
	cr_assert(p->is_list, "the widget holds the frames");
	p->ops->resize(p, 27, 100);
	nav_view_init(&v, PANE_FLAME);
	p->ops->enter(p, &v);
}

/* Is the selected frame's name exactly name? */
static bool
sel_is(struct pane *p, const char *name)
{
	static struct row r;
	size_t src = widget_cursor_row(&p->w);

	if (src == WIDGET_NONE)
		return false;
	row_reset(&r);
	p->ops->row(p, src, &r);
	return r.col[0] && strcmp(r.col[0], name) == 0;
}

static int
key(struct pane *p, enum action a)
{
	p->msg[0] = '\0';
	return p->ops->key(p, a);
}

Test(flame_pane, moves_zooms_and_clicks)
{
	struct session *s = open_fixture("fp.data");
	struct symbols *sy = fixture_symbols(s);
	struct pane p;

	symbols_run(sy);
	flame_pane(&p, s, sy);
	/* all; __libc_start_call_main; main fill reduce; mix_one mix at 100 columns */
	cr_assert_eq(widget_count(&p.w), 7);
	cr_assert(sel_is(&p, "all"));
	cr_assert_eq(key(&p, ACT_DOWN), PANE_HANDLED);
	cr_assert_not(sel_is(&p, "all"));
	key(&p, ACT_DOWN);
	cr_assert(sel_is(&p, "main"), "the child under the column");
	key(&p, ACT_DOWN);
	cr_assert(sel_is(&p, "mix_one"));
	key(&p, ACT_DOWN);
	cr_assert(sel_is(&p, "mix_one"), "a leaf: stays");
	key(&p, ACT_FLAME_RIGHT);
	cr_assert(sel_is(&p, "mix"));
	key(&p, ACT_UP);
	cr_assert(sel_is(&p, "main"));
	key(&p, ACT_FLAME_RIGHT);
	cr_assert(sel_is(&p, "fill"));
	key(&p, ACT_FLAME_RIGHT);
	cr_assert(sel_is(&p, "reduce"));
	key(&p, ACT_FLAME_RIGHT);
	cr_assert(sel_is(&p, "reduce"), "the row's end");
	key(&p, ACT_FLAME_LEFT);
	cr_assert(sel_is(&p, "fill"));
	/* Enter zooms, Esc steps back out, Esc at no zoom is the app's */
	cr_assert_eq(key(&p, ACT_ENTER), PANE_HANDLED);
	cr_assert_eq(widget_count(&p.w), 1, "fill alone at full width");
	cr_assert(sel_is(&p, "fill"));
	cr_assert_eq(key(&p, ACT_UP), PANE_HANDLED | PANE_MSG);
	cr_assert_not_null(strstr(p.msg, "Esc zooms out"));
	cr_assert_eq(key(&p, ACT_BACK), PANE_HANDLED);
	cr_assert_eq(widget_count(&p.w), 7);
	cr_assert(sel_is(&p, "fill"), "the frame zoomed into stays selected");
	cr_assert_eq(key(&p, ACT_BACK), PANE_IGNORED);
	key(&p, ACT_FLAME_LEFT);
	key(&p, ACT_ENTER);
	cr_assert_eq(widget_count(&p.w), 3, "main, mix_one, mix");
	key(&p, ACT_DOWN);
	key(&p, ACT_ENTER);
	cr_assert_eq(widget_count(&p.w), 1);
	key(&p, ACT_BACK);
	cr_assert_eq(widget_count(&p.w), 3);
	cr_assert(sel_is(&p, "mix_one"));
	key(&p, ACT_BACK);
	cr_assert_eq(widget_count(&p.w), 7);
	key(&p, ACT_TOP);
	cr_assert(sel_is(&p, "all"));
	cr_assert_eq(key(&p, ACT_ENTER), PANE_HANDLED | PANE_MSG, "the top is full width");
	key(&p, ACT_BOTTOM);
	cr_assert(sel_is(&p, "mix_one"), "down as far as it goes");
	/* clicks: row 2 of the frames is screen line 3 + 2 (title, tabs, the pane's head) */
	cr_assert(p.ops->click(&p, 5, 80));
	cr_assert(sel_is(&p, "fill"));
	cr_assert_not(p.ops->click(&p, 5, 99), "the self part of a row: nothing there");
	cr_assert_not(p.ops->click(&p, 2, 10), "the head line");
	cr_assert(sel_is(&p, "fill"));
	/* what the pane does not do */
	cr_assert_eq(key(&p, ACT_FILTER), PANE_HANDLED | PANE_MSG);
	cr_assert_eq(key(&p, ACT_SORT_NEXT), PANE_HANDLED | PANE_MSG);
	cr_assert_eq(key(&p, ACT_NEXT_EVENT), PANE_HANDLED | PANE_MSG);
	cr_assert_not_null(strstr(p.msg, "one event only"));
	/* a narrower pane: frames under a column go, the selection stays */
	p.ops->resize(&p, 20, 40);
	cr_assert_eq(key(&p, ACT_NONE), PANE_IGNORED);
	cr_assert(sel_is(&p, "fill"));
	pane_destroy(&p);
	symbols_free(sy);
	session_close(s);
}

Test(flame_pane, search_flip_and_scope)
{
	struct session *s = open_fixture("fp.data");
	struct symbols *sy = fixture_symbols(s);
	struct pane p;
	uint32_t fill;

	symbols_run(sy);
	flame_pane(&p, s, sy);
	/* / moves to the first matching frame, n to the next; the widget holds the text */
	cr_assert(widget_search(&p.w, "MIX", 1, false));
	key(&p, ACT_NONE);
	cr_assert(sel_is(&p, "mix_one"));
	cr_assert(widget_search(&p.w, p.w.search, 1, true));
	key(&p, ACT_NONE);
	cr_assert(sel_is(&p, "mix"));
	cr_assert_not(widget_search(&p.w, "nosuchname", 1, false));
	widget_search(&p.w, "mix", 1, false);
	/* b: the bottom-up tree, where samples were taken on top */
	cr_assert_eq(key(&p, ACT_FLAME_FLIP), PANE_HANDLED | PANE_MSG);
	cr_assert_not_null(strstr(p.msg, "bottom-up"));
	cr_assert(sel_is(&p, "all"));
	key(&p, ACT_DOWN);
	cr_assert(sel_is(&p, "mix_one"));
	key(&p, ACT_DOWN);
	cr_assert(sel_is(&p, "main"), "its caller");
	key(&p, ACT_FLAME_FLIP);
	cr_assert(sel_is(&p, "all"));
	cr_assert_eq(widget_count(&p.w), 7);
	/* the scope's transforms and zoom */
	fill = UINT32_MAX;
	for (uint32_t i = 0; i < hist_nnodes(sy->h) && fill == UINT32_MAX; i++)
		if (strcmp(hist_str(sy->h, hist_node_get(sy->h, i)->label), "[.] fill") == 0)
			fill = i;
	cr_assert_neq(fill, UINT32_MAX);
	sy->scope.xf[0].op = CPATH_FOCUS;
	sy->scope.xf[0].func = fill;
	sy->scope.nxf = 1;
	sy->scope.gen++;
	key(&p, ACT_NONE);
	cr_assert_eq(widget_count(&p.w), 2, "focus on fill: all and fill");
	sy->scope.nxf = 0;
	sy->scope.zoomed = true;
	sy->scope.sel.by_pid = true;
	sy->scope.sel.pid = 999999;
	sy->scope.gen++;
	key(&p, ACT_NONE);
	cr_assert_eq(widget_count(&p.w), 1, "a process without samples");
	sy->scope.zoomed = false;
	sy->scope.gen++;
	key(&p, ACT_NONE);
	cr_assert_eq(widget_count(&p.w), 7);
	pane_destroy(&p);
	symbols_free(sy);
	session_close(s);
}

Test(flame_pane, views_and_filling_in)
{
	struct session *s = open_fixture("fp.data");
	struct symbols *sy = fixture_symbols(s);
	struct pane p, ev, an;
	const struct hist_node *nd;

	/* before symbols: the top frame alone; the graph fills in with them */
	flame_pane(&p, s, sy);
	cr_assert_eq(widget_count(&p.w), 1);
	cr_assert_eq(key(&p, ACT_EVENTS), PANE_HANDLED | PANE_MSG, "a frame of a function first");
	symbols_run(sy);
	key(&p, ACT_NONE);
	cr_assert_eq(widget_count(&p.w), 7);
	widget_search(&p.w, "mix_one", 1, false);
	key(&p, ACT_NONE);
	cr_assert(sel_is(&p, "mix_one"));
	/* a: annotate the frame's function */
	cr_assert_eq(key(&p, ACT_ANNOTATE), PANE_HANDLED | PANE_PUSH);
	cr_assert_eq(p.push.pane, PANE_ANNOTATE);
	nd = hist_node_get(sy->h, (uint32_t)p.push.arg2);
	cr_assert_str_eq(hist_str(sy->h, nd->label), "[.] mix_one");
	cr_assert_eq(pane_create_sym(&an, PANE_ANNOTATE, s, NULL, sy), 0);
	go(&an, &p.push);
	cr_assert_gt(widget_count(&an.w), 0, "mix_one's instructions");
	pane_destroy(&an);
	/* v: its samples in the events list, 138 */
	cr_assert_eq(key(&p, ACT_EVENTS), PANE_HANDLED | PANE_PUSH);
	cr_assert_eq(p.push.pane, PANE_EVENTS);
	cr_assert_not_null(strstr(p.push.filter, "type:SAMPLE"));
	cr_assert_eq(pane_create_sym(&ev, PANE_EVENTS, s, NULL, sy), 0);
	go(&ev, &p.push);
	cr_assert_eq(widget_count(&ev.w), 138);
	/* main has callees: the samples through the frame (frame:N), 146, none taken in it */
	key(&p, ACT_UP);
	cr_assert(sel_is(&p, "main"));
	cr_assert_eq(key(&p, ACT_EVENTS), PANE_HANDLED | PANE_PUSH);
	cr_assert_not_null(strstr(p.push.filter, "frame:"));
	go(&ev, &p.push);
	cr_assert_eq(widget_count(&ev.w), 146, "every sample through main");
	/* the term names a frame of the picked tree only */
	cr_assert_eq(ev.ops->filter(&ev, "frame:999999", NULL, 0), -1);
	pane_destroy(&ev);
	key(&p, ACT_TOP);
	cr_assert_eq(key(&p, ACT_ANNOTATE), PANE_HANDLED | PANE_MSG, "all is no function");
	pane_destroy(&p);
	symbols_free(sy);
	session_close(s);
}

Test(flame_pane, tab_steps_through_events)
{
	struct session *s = open_fixture("multi.data");
	struct symbols *sy = fixture_symbols(s);
	struct pane p;
	unsigned gen;

	symbols_run(sy);
	flame_pane(&p, s, sy);
	cr_assert_eq(hist_nevents(sy->h), 2);
	gen = sy->scope.gen;
	cr_assert_eq(key(&p, ACT_NEXT_EVENT), PANE_HANDLED | PANE_MSG);
	cr_assert_eq(sy->scope.ev, 1);
	cr_assert_neq(sy->scope.gen, gen, "the other panes follow");
	cr_assert_not_null(strstr(p.msg, "event 2 of 2: task-clock"), "%s", p.msg);
	cr_assert_geq(widget_count(&p.w), 2);
	key(&p, ACT_PREV_EVENT);
	cr_assert_eq(sy->scope.ev, 0);
	pane_destroy(&p);
	symbols_free(sy);
	session_close(s);
}

/*
 * With the app's steps on, the flame graph's tree is built a row at a
 * time between keys: meanwhile no frame, the progress drawn, keys leave
 * it be; once built, the frames of one build.  A new scope builds again
 * and keeps the selection; flipping back takes the other direction's
 * tree at once.
 */
Test(flame_pane, built_in_steps_between_keys)
{
	struct session *s = open_fixture("fp.data");
	struct symbols *sy = fixture_symbols(s);
	struct pane p;
	bool shown = false;
	uint32_t mix = UINT32_MAX;

	symbols_run(sy);
	sy->steps = 1;
	flame_pane(&p, s, sy);
	cr_assert_eq(widget_count(&p.w), 0, "no frame before the tree is built");
	screen_draw(&p, 27, 100);
	for (int y = 0; y < 27; y++)
		shown |= strstr(screen_line(y), "Flame graph: building the tree, 0%") != NULL;
	cr_assert(shown, "the build's progress drawn");
	cr_assert_eq(p.ops->func(&p), CPATH_NONE);
	cr_assert_eq(key(&p, ACT_DOWN), PANE_IGNORED);
	cr_assert_gt(pane_work_out(&p), 2, "built in steps");
	cr_assert_eq(p.ops->work(&p, 0), PANE_WORK_NONE);
	cr_assert_eq(widget_count(&p.w), 7, "the frames of one build");
	key(&p, ACT_DOWN);
	key(&p, ACT_DOWN);
	key(&p, ACT_FLAME_RIGHT);
	cr_assert(sel_is(&p, "fill"));
	/* a transform (mix merged away): built again, the selection kept */
	for (uint32_t i = 0; i < hist_nnodes(sy->h) && mix == UINT32_MAX; i++)
		if (strcmp(hist_str(sy->h, hist_node_get(sy->h, i)->label), "[.] mix") == 0)
			mix = i;
	cr_assert_neq(mix, UINT32_MAX);
	scope_xf_push(&sy->scope, CPATH_DROP, mix);
	cr_assert_eq(p.ops->work(&p, 0), PANE_WORK_MORE);
	cr_assert_eq(widget_count(&p.w), 0);
	pane_work_out(&p);
	cr_assert(sel_is(&p, "fill"), "the selection's path found again");
	cr_assert_eq(widget_count(&p.w), 6, "mix dropped");
	/* b builds bottom-up in steps; b again has top-down at once */
	cr_assert_eq(key(&p, ACT_FLAME_FLIP), PANE_HANDLED | PANE_MSG);
	cr_assert_eq(widget_count(&p.w), 0);
	pane_work_out(&p);
	cr_assert_gt(widget_count(&p.w), 1);
	key(&p, ACT_FLAME_FLIP);
	cr_assert_eq(p.ops->work(&p, 0), PANE_WORK_NONE, "the other direction's tree kept");
	cr_assert_eq(widget_count(&p.w), 6);
	scope_xf_truncate(&sy->scope, 0);
	pane_destroy(&p);
	symbols_free(sy);
	session_close(s);
}

/* In steps, new symbols for the same view keep the frames shown (and the selection) until built. */
Test(flame_pane, new_symbols_keep_the_frames_while_built)
{
	struct session *s = open_fixture("fp.data");
	struct symbols *sy = fixture_symbols(s);
	struct pane p;

	symbols_run(sy);
	sy->steps = 1;
	flame_pane(&p, s, sy);
	pane_work_out(&p);
	cr_assert_eq(widget_count(&p.w), 7);
	key(&p, ACT_DOWN);
	key(&p, ACT_DOWN);
	key(&p, ACT_FLAME_RIGHT);
	cr_assert(sel_is(&p, "fill"));
	sy->gen++;	/* new symbols, the same view */
	cr_assert_eq(p.ops->work(&p, 0), PANE_WORK_MORE);
	cr_assert_eq(widget_count(&p.w), 7, "the frames shown stay while it is built");
	cr_assert(sel_is(&p, "fill"));
	cr_assert_eq(key(&p, ACT_FLAME_LEFT), PANE_HANDLED, "keys act on them");
	cr_assert(sel_is(&p, "main"));
	pane_work_out(&p);
	cr_assert_eq(widget_count(&p.w), 7);
	cr_assert(sel_is(&p, "main"), "the selection found in the new tree");
	pane_destroy(&p);
	symbols_free(sy);
	session_close(s);
}

/*
 * b while new symbols are being built in: the tree shown then (of the
 * symbols before) is not kept as the other direction's, so b back builds
 * again rather than show it.
 */
Test(flame_pane, flip_while_updating_keeps_no_stale_tree)
{
	struct session *s = open_fixture("fp.data");
	struct symbols *sy = fixture_symbols(s);
	struct pane p;

	symbols_run(sy);
	sy->steps = 1;
	flame_pane(&p, s, sy);
	pane_work_out(&p);
	sy->gen++;	/* new symbols: the frames stay while it is built */
	cr_assert_eq(p.ops->work(&p, 0), PANE_WORK_MORE);
	cr_assert_eq(key(&p, ACT_FLAME_FLIP), PANE_HANDLED | PANE_MSG);
	pane_work_out(&p);
	key(&p, ACT_FLAME_FLIP);
	cr_assert_eq(p.ops->work(&p, 0), PANE_WORK_MORE, "top-down built again");
	pane_work_out(&p);
	cr_assert_eq(widget_count(&p.w), 7);
	/* a hist replaced (another one's function ids): no frame of the old kept */
	sy->h_serial++;
	sy->gen++;
	cr_assert_eq(p.ops->work(&p, 0), PANE_WORK_MORE);
	cr_assert_eq(widget_count(&p.w), 0);
	pane_work_out(&p);
	cr_assert_eq(widget_count(&p.w), 7);
	pane_destroy(&p);
	symbols_free(sy);
	session_close(s);
}
