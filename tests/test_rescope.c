/*
 * Criterion tests of hist_rescope (symbolize/hist_scope.c): a finished
 * hist recounted for a filter equals a fresh pass with that filter, on
 * the perf-made fixtures, for every kind of condition and for the tables,
 * the events' totals and the call paths alike.
 */
#include "config.h"

#include <criterion/criterion.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/core.h"
#include "symbolize/cpath.h"
#include "symbolize/filter.h"
#include "symbolize/hist.h"
#include "symbolize/symbolizer.h"
#include "tests/helpers.h"
#include "tui/scope.h"
#include "tui/symbols.h"

struct fixture {
	struct session		*s;
	struct symbolizer	*z;
	struct hist		*h;
};

static void
tui_opts(struct session *s, struct hist_opts *op, const struct hist_filter *f, bool srcline)
{
	struct hist_opts o;

	memset(&o, 0, sizeof o);
	o.keys[0] = HIST_KEY_COMM;
	o.keys[1] = HIST_KEY_TID;
	o.keys[2] = HIST_KEY_DSO;
	o.keys[3] = srcline ? HIST_KEY_SRCLINE : HIST_KEY_SYM;
	o.nkeys = 4;
	o.children = attr_table_has_callchains(session_attrs(s));
	o.paths = true;
	o.record_self = true;
	o.event = -1;
	o.max_stack = HIST_DEFAULT_MAX_STACK;
	o.filter = f;
	*op = o;
}

static struct hist *
tui_hist_opts(struct session *s, struct symbolizer *z, const struct hist_filter *f, bool srcline)
{
	struct hist_opts o;

	tui_opts(s, &o, f, srcline);
	return hist_new(s, z, &o);
}

static struct hist *
tui_hist_new(struct session *s, struct symbolizer *z)
{
	return tui_hist_opts(s, z, NULL, false);
}

static struct hist *
tui_hist(struct session *s, struct symbolizer *z, const struct hist_filter *f, bool srcline)
{
	struct hist *h = tui_hist_opts(s, z, f, srcline);

	hist_add_session(h, NULL);
	hist_finish(h);
	return h;
}

/* An entry's keys as text. */
static const char *
entry_text(struct hist *h, uint32_t id, char *buf, size_t n)
{
	const struct hist_entry *e = hist_entry_get(h, id);
	char k[4][128];

	snprintf(buf, n, "%s|%s|%s|%s", hist_key_text(h, e, HIST_KEY_COMM, k[0], 128),
	    hist_key_text(h, e, HIST_KEY_TID, k[1], 128), hist_key_text(h, e, HIST_KEY_DSO, k[2], 128),
	    hist_key_text(h, e, HIST_KEY_SYM, k[3], 128));
	return buf;
}

static int
cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Every event's totals, rows (keys, self, children) and call paths as sorted lines. */
static char **
hist_lines(struct hist *h, size_t *n)
{
	size_t cap = 64;
	char **v = malloc(cap * sizeof *v);
	char line[2048], name[512], k[4][256];
	uint32_t funcs[512];

	*n = 0;
	for (size_t ev = 0; ev < hist_nevents(h); ev++) {
		const struct hist_event *he = hist_event(h, ev);
		const struct hist_entry *const *rows;
		unsigned keep = HIST_KEEP(HIST_KEY_COMM) | HIST_KEEP(HIST_KEY_TID) |
		    HIST_KEEP(HIST_KEY_DSO) | HIST_KEEP(HIST_KEY_SYM);
		size_t nr = hist_rows_merged(h, ev, NULL, keep, 0, &rows);
		struct cpath_query q = { .ev = ev, .entry = CPATH_NONE };
		struct cpath *t;

		if (he->nsamples == 0)
			continue;	/* kept by hist_rescope, absent from a pass */
		snprintf(line, sizeof line, "event %s %" PRIu64 " %" PRIu64,
		    hist_str(h, he->name), he->nsamples, he->total_period);
		for (size_t i = 0; i < nr + 1; i++) {
			if (i > 0) {
				const struct hist_entry *e = rows[i - 1];

				snprintf(line, sizeof line, "row %s|%s|%s|%s %" PRIu64 " %" PRIu64
				    " %" PRIu64 " %" PRIu64, hist_key_text(h, e, HIST_KEY_COMM, k[0], 256),
				    hist_key_text(h, e, HIST_KEY_TID, k[1], 256),
				    hist_key_text(h, e, HIST_KEY_DSO, k[2], 256),
				    hist_key_text(h, e, HIST_KEY_SYM, k[3], 256), e->samples, e->period,
				    e->acc_samples, e->acc_period);
			}
			if (*n + 1 >= cap)
				v = realloc(v, (cap *= 2) * sizeof *v);
			v[(*n)++] = strdup(line);
		}
		t = cpath_build(h, &q);
		for (size_t i = 1; i < cpath_count(t); i++) {
			const struct cpath_node *x = cpath_node(t, (uint32_t)i);
			size_t d = cpath_path(t, (uint32_t)i, funcs, 512), len;

			len = (size_t)snprintf(line, sizeof line, "path %zu %" PRIu64 " %" PRIu64 " ", ev,
			    x->total_samples, x->self_period);
			for (size_t j = 0; j < d && j < 512 && len < sizeof line; j++)
				len += (size_t)snprintf(line + len, sizeof line - len, "%s;",
				    cpath_func_name(h, funcs[j], name, sizeof name));
			if (*n + 1 >= cap)
				v = realloc(v, (cap *= 2) * sizeof *v);
			v[(*n)++] = strdup(line);
		}
		cpath_free(t);
	}
	qsort(v, *n, sizeof *v, cmp_str);
	return v;
}

static void
free_lines(char **v, size_t n)
{
	for (size_t i = 0; i < n; i++)
		free(v[i]);
	free(v);
}

/* fx->h as it is equals a fresh pass with f. */
static void
same_as_pass(struct fixture *fx, const char *name, const char *what, const struct hist_filter *f)
{
	struct hist *fresh = tui_hist(fx->s, fx->z, f, false);
	size_t na, nb;
	char **a, **b;

	a = hist_lines(fx->h, &na);
	b = hist_lines(fresh, &nb);
	for (size_t i = 0; i < na && i < nb; i++)
		cr_assert_str_eq(a[i], b[i], "%s %s: line %zu: %s vs %s", name, what, i, a[i], b[i]);
	cr_assert_eq(na, nb, "%s %s: lines %zu vs %zu: %s / %s", name, what, na, nb, na > nb ? a[nb] : "", nb > na ? b[na] : "");
	free_lines(a, na);
	free_lines(b, nb);
	hist_free(fresh);
}

/* hist_rescope(h, f) in steps of npos positions (the browser's way); its steps' count. */
static size_t
recount_in_steps(struct hist *h, const struct hist_filter *f, size_t npos, const char *name)
{
	struct hist_rescope_job *j = hist_rescope_begin(h, f, NULL);
	size_t steps = 0, done = 0, total = 0, last = 0;

	cr_assert_not_null(j, "%s: recounted", name);
	hist_rescope_progress(j, &done, &total);
	cr_assert_eq(done, 0, "%s", name);
	while (!hist_rescope_step(j, npos)) {
		hist_rescope_progress(j, &done, &total);
		cr_assert_eq(done, last + npos, "%s: step %zu", name, steps);
		cr_assert_lt(done, total, "%s", name);
		last = done;
		steps++;
	}
	hist_rescope_progress(j, &done, &total);
	cr_assert_eq(done, total, "%s", name);
	hist_rescope_end(j, true);
	return steps + 1;
}

/*
 * h recounted for f equals a fresh pass with f: in one piece, or in steps
 * of 1 or 5 positions, in turn.
 */
static void
expect_same(struct fixture *fx, const char *name, const char *what, const struct hist_filter *f)
{
	static unsigned turn;
	size_t npos = turn % 3 == 0 ? 0 : turn % 3 == 1 ? 1 : 5;

	turn++;
	if (npos == 0)
		cr_assert_eq(hist_rescope(fx->h, f), 0, "%s %s: recounted", name, what);
	else
		cr_assert_gt(recount_in_steps(fx->h, f, npos, name), 1, "%s %s: in steps", name, what);
	same_as_pass(fx, name, what, f);
}

/* The first sample's values, for conditions that keep part of the recording. */
static void
first_sample(const struct session *s, int32_t *tid, uint32_t *cpu, uint64_t *t0, uint64_t *t1)
{
	const struct rec_index *ix = session_index(s);

	*tid = -1;
	*cpu = 0;
	*t0 = UINT64_MAX;
	*t1 = 0;
	for (size_t i = 0; i < ix->n; i++) {
		const struct rec_ent *e = index_ent(ix, i);

		if (ent_type(e) != PF_REC_SAMPLE)
			continue;
		if (*tid < 0) {
			*tid = session_ent_who(s, i).tid;
			/* none (these fixtures): a cpu no sample has */
			*cpu = session_ent_who(s, i).cpu < 0 ? 65535 : (uint32_t)session_ent_who(s, i).cpu;
		}
		if (e->time < *t0)
			*t0 = e->time;
		if (e->time > *t1)
			*t1 = e->time;
	}
}

Test(rescope, equals_a_pass_with_the_filter)
{
	const char *names[] = { "fp.data", "fork.data", "dwarf.data", "multi.data", "zstd.data" };
	char bdir[4096];

	snprintf(bdir, sizeof bdir, "%s", test_data("buildid"));
	for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) {
		struct perf_err err;
		struct sym_opts so = { .buildid_dir = bdir, .kallsyms = "/dev/null" };
		struct fixture fx;
		struct hist_filter f = { 0 };
		uint64_t t0, t1, third, full;
		int32_t tid;
		uint32_t cpu;
		char buf[128];

		fx.s = session_open(test_data(names[i]), NULL, &err);
		cr_assert_not_null(fx.s, "%s: %s", names[i], err.msg);
		fx.z = symbolizer_new(fx.s, &so);
		fx.h = tui_hist(fx.s, fx.z, NULL, false);
		first_sample(fx.s, &tid, &cpu, &t0, &t1);
		cr_assert_lt(t0, t1, "%s: samples over time", names[i]);
		third = (t1 - t0) / 3;
		full = hist_event(fx.h, 0)->nsamples;

		f.time = calloc(2, sizeof *f.time);
		f.time[0].start = t0 + third;
		f.time[0].end = t0 + 2 * third;
		f.ntime = 1;
		expect_same(&fx, names[i], "middle third", &f);
		cr_assert(hist_event(fx.h, 0)->nsamples > 0 && hist_event(fx.h, 0)->nsamples < full,
		    "%s: the middle third is part of the samples", names[i]);
		f.time[0].end = t0 + third / 2;
		f.time[1].start = t1 - third / 2;
		f.ntime = 2;
		expect_same(&fx, names[i], "two ranges", &f);
		filter_free(&f);

		snprintf(buf, sizeof buf, "%" PRIu32, cpu);
		cr_assert_eq(filter_parse_cpus(&f, buf), 0);
		expect_same(&fx, names[i], "cpu", &f);
		filter_free(&f);

		snprintf(buf, sizeof buf, "%" PRId32, tid);
		cr_assert_eq(filter_parse_tids(&f, buf), 0);
		f.time = calloc(1, sizeof *f.time);
		f.time[0].start = t0 + third;
		f.ntime = 1;
		expect_same(&fx, names[i], "tid and time", &f);
		filter_free(&f);

		cr_assert_eq(filter_parse_comms(&f, "perf-exec,nonesuch"), 0);
		expect_same(&fx, names[i], "comms", &f);
		filter_free(&f);

		expect_same(&fx, names[i], "everything again", NULL);
		hist_free(fx.h);
		symbolizer_free(fx.z);
		session_close(fx.s);
	}
}

/* Every event's rows in their order: keys only (ties are the point), as hist_rows and
 * hist_rows_merged (comm, dso, sym: the browser's default) give them. */
static char *
rows_in_order(struct hist *h)
{
	size_t cap = 4096, len = 0;
	char *v = malloc(cap), k[3][256];

	v[0] = '\0';
	for (size_t ev = 0; ev < hist_nevents(h); ev++) {
		const struct hist_entry *const *rows;
		const uint32_t *ids;
		unsigned keep = HIST_KEEP(HIST_KEY_COMM) | HIST_KEEP(HIST_KEY_DSO) | HIST_KEEP(HIST_KEY_SYM);
		size_t nr = hist_rows_merged(h, ev, NULL, keep, 0, &rows), ni;

		for (size_t i = 0; i < nr; i++) {
			if (len + 1024 > cap)
				v = realloc(v, cap *= 2);
			len += (size_t)snprintf(v + len, cap - len, "merged %zu %s|%s|%s\n", ev,
			    hist_key_text(h, rows[i], HIST_KEY_COMM, k[0], 256),
			    hist_key_text(h, rows[i], HIST_KEY_DSO, k[1], 256),
			    hist_key_text(h, rows[i], HIST_KEY_SYM, k[2], 256));
		}
		ni = hist_rows(h, ev, 0, &ids);
		for (size_t i = 0; i < ni; i++) {
			char t[600];

			if (len + 1024 > cap)
				v = realloc(v, cap *= 2);
			len += (size_t)snprintf(v + len, cap - len, "row %zu %s\n", ev,
			    entry_text(h, ids[i], t, sizeof t));
		}
	}
	return v;
}

/* Rows of equal share come in the order a fresh pass with the filter gives (perfnav top's). */
Test(rescope, ties_in_the_order_of_a_pass)
{
	const char *names[] = { "fp.data", "fork.data", "multi.data", "offcpu-sw.data", "zstd.data" };
	char bdir[4096];
	size_t differ = 0;

	snprintf(bdir, sizeof bdir, "%s", test_data("buildid"));
	for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) {
		struct perf_err err;
		struct sym_opts so = { .buildid_dir = bdir, .kallsyms = "/dev/null" };
		struct fixture fx;
		struct hist_filter f = { 0 };
		uint64_t t0, t1;
		int32_t tid;
		uint32_t cpu;

		fx.s = session_open(test_data(names[i]), NULL, &err);
		cr_assert_not_null(fx.s, "%s: %s", names[i], err.msg);
		fx.z = symbolizer_new(fx.s, &so);
		fx.h = tui_hist(fx.s, fx.z, NULL, false);
		first_sample(fx.s, &tid, &cpu, &t0, &t1);
		f.time = calloc(1, sizeof *f.time);
		f.ntime = 1;
		for (unsigned part = 0; part < 10; part++) {
			struct hist *fresh;
			char *a, *b;

			/* the parts of a tenth's steps from the start to the end: each a scope */
			f.time[0].start = t0 + (t1 - t0) / 10 * part;
			f.time[0].end = part == 9 ? t1 : t0 + (t1 - t0) / 10 * (part + 3);
			cr_assert_eq(hist_rescope(fx.h, &f), 0, "%s: recounted", names[i]);
			fresh = tui_hist(fx.s, fx.z, &f, false);
			a = rows_in_order(fx.h);
			b = rows_in_order(fresh);
			differ += strcmp(a, b) != 0;
			cr_expect_str_eq(a, b, "%s: part %u: the rows' order", names[i], part);
			free(a);
			free(b);
			hist_free(fresh);
		}
		filter_free(&f);
		hist_free(fx.h);
		symbolizer_free(fx.z);
		session_close(fx.s);
	}
	cr_assert_eq(differ, 0);
}

/* The TUI's hist made in two parts on their own symbolizers, as its workers make it. */
static struct hist *
split_hist(struct session *s, struct symbolizer *z, struct symbolizer *z2, size_t mid)
{
	struct hist *h = tui_hist_new(s, z), *b = tui_hist_new(s, z2);

	hist_share_positions(h, b);
	hist_add_range(b, mid, session_index(s)->n, NULL);
	hist_add_range(h, 0, mid, NULL);
	cr_assert_eq(hist_merge(h, b), 0, "the parts merge");
	hist_free(b);
	hist_finish(h);
	return h;
}

/* Each position's own entry, as text, in a and b. */
static void
same_sample_entries(struct hist *a, struct hist *b, size_t n, const char *name)
{
	char x[512], y[512];

	for (size_t p = 0; p < n; p++) {
		uint32_t ea = hist_sample_entry(a, p), eb = hist_sample_entry(b, p);

		cr_assert_eq(ea == UINT32_MAX, eb == UINT32_MAX, "%s: position %zu has an entry", name, p);
		if (ea == UINT32_MAX)
			continue;
		cr_assert_str_eq(entry_text(a, ea, x, sizeof x), entry_text(b, eb, y, sizeof y),
		    "%s: position %zu", name, p);
	}
}

Test(rescope, two_parts_merged_equal_one_pass)
{
	const char *names[] = { "fp.data", "fork.data", "multi.data", "zstd.data" };
	char bdir[4096];

	snprintf(bdir, sizeof bdir, "%s", test_data("buildid"));
	for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) {
		struct perf_err err;
		struct sym_opts so = { .buildid_dir = bdir, .kallsyms = "/dev/null" };
		struct fixture fx;
		struct symbolizer *z2, *z3;
		struct hist_opts o;
		struct hist *one;
		struct hist_filter f = { 0 };
		uint64_t t0, t1;
		int32_t tid;
		uint32_t cpu;
		size_t mid;

		fx.s = session_open(test_data(names[i]), NULL, &err);
		cr_assert_not_null(fx.s, "%s: %s", names[i], err.msg);
		fx.z = symbolizer_new(fx.s, &so);
		z2 = symbolizer_new(fx.s, &so);
		z3 = symbolizer_new(fx.s, &so);
		one = tui_hist(fx.s, z3, NULL, false);
		tui_opts(fx.s, &o, NULL, false);
		cr_assert(hist_split_point(fx.s, &o, &mid), "%s: splits", names[i]);
		fx.h = split_hist(fx.s, fx.z, z2, mid);
		same_as_pass(&fx, names[i], "merged", NULL);
		same_sample_entries(fx.h, one, session_index(fx.s)->n, names[i]);
		first_sample(fx.s, &tid, &cpu, &t0, &t1);
		f.time = calloc(1, sizeof *f.time);
		f.time[0].start = t0 + (t1 - t0) / 3;
		f.time[0].end = t1 - (t1 - t0) / 3;
		f.ntime = 1;
		expect_same(&fx, names[i], "merged, then the middle third", &f);
		filter_free(&f);
		expect_same(&fx, names[i], "merged, then everything", NULL);
		hist_free(one);
		symbolizer_free(z3);
		hist_free(fx.h);
		symbolizer_free(z2);
		symbolizer_free(fx.z);
		session_close(fx.s);
	}
}

Test(rescope, refused_where_a_row_is_not_its_entries)
{
	struct perf_err err;
	struct session *s = session_open(test_data("fp.data"), NULL, &err);
	struct hist_filter f = { 0 };
	struct hist *h;
	struct hist_opts o;

	cr_assert_not_null(s, "%s", err.msg);
	h = tui_hist(s, NULL, NULL, true);
	cr_expect_eq(hist_rescope(h, &f), -1, "srcline keys: refused");
	hist_free(h);
	memset(&o, 0, sizeof o);
	o.event = -1;
	o.paths = true;
	o.record_self = true;
	h = hist_new(s, NULL, &o);
	hist_add_session(h, NULL);
	cr_expect_eq(hist_rescope(h, &f), -1, "not finished: refused");
	hist_finish(h);
	cr_expect_eq(hist_rescope(h, &f), 0);
	hist_free(h);
	o.record_self = false;
	h = hist_new(s, NULL, &o);
	hist_add_session(h, NULL);
	hist_finish(h);
	cr_expect_eq(hist_rescope(h, &f), -1, "nothing kept per sample: refused");
	hist_free(h);
	session_close(s);
}

/* The TUI's time steps (tui/scope.h, tui/symbols.h): waiting for symbols, then recounted. */
Test(rescope, time_steps_of_the_tui_scope)
{
	struct perf_err err;
	struct session *s = session_open(test_data("fork.data"), NULL, &err);
	char bdir[4096];
	struct sym_opts so = { .kallsyms = "/dev/null" };
	struct symbols *sy;
	struct hist_filter f = { 0 };
	struct fixture fx;
	uint64_t t0, t1, full, a, b;
	unsigned gen;
	int32_t tid;
	uint32_t cpu;
	char buf[96];

	cr_assert_not_null(s, "%s", err.msg);
	snprintf(bdir, sizeof bdir, "%s", test_data("buildid"));
	so.buildid_dir = bdir;
	sy = symbols_new(s, &so, NULL);
	first_sample(s, &tid, &cpu, &t0, &t1);
	a = t0 + (t1 - t0) / 4;
	b = t1 - (t1 - t0) / 4;
	cr_assert(scope_time_push(&sy->scope, a, b));
	cr_expect_not(scope_time_push(&sy->scope, b + 1, b + 2), "outside the scope: refused");
	cr_expect_eq(symbols_apply_scope(sy), 0);
	cr_expect(sy->scope.time_pending, "waits for the symbols");
	symbols_run(sy);
	full = hist_event(sy->h, 0)->nsamples;
	gen = sy->gen;
	cr_assert_eq(symbols_apply_scope(sy), 0);
	cr_expect_not(sy->scope.time_pending);
	cr_expect_neq(sy->gen, gen, "the panes rebuild");
	cr_expect_lt(hist_event(sy->h, 0)->nsamples, full);
	cr_expect_str_eq(scope_time_text(&sy->scope, buf, sizeof buf) + 0, buf);
	cr_expect(strncmp(buf, "time ", 5) == 0, "%s", buf);

	/* the hist is that of a pass over the range */
	f.time = calloc(1, sizeof *f.time);
	f.time[0].start = a;
	f.time[0].end = b;
	f.ntime = 1;
	fx.s = s;
	fx.z = symbolizer_new(s, &so);
	fx.h = sy->h;
	same_as_pass(&fx, "fork.data", "time step", &f);
	filter_free(&f);

	/* a narrower step, then both removed */
	cr_assert(scope_time_push(&sy->scope, a, a + (b - a) / 2));
	cr_assert_eq(symbols_apply_scope(sy), 0);
	cr_expect_lt(hist_event(sy->h, 0)->nsamples, full);
	scope_time_truncate(&sy->scope, 0);
	cr_assert_eq(symbols_apply_scope(sy), 0);
	cr_expect_eq(hist_event(sy->h, 0)->nsamples, full, "the whole recording again");
	cr_expect_str_eq(scope_time_text(&sy->scope, buf, sizeof buf), "");
	symbolizer_free(fx.z);
	symbols_free(sy);
	session_close(s);
}

/* Rows (nr of them, merged by keep), keys and counts as text. */
static char *
rows_text(struct hist *h, const struct hist_entry *const *rows, size_t nr, unsigned keep)
{
	static const enum hist_key kk[] = { HIST_KEY_COMM, HIST_KEY_PID, HIST_KEY_TID, HIST_KEY_DSO,
		HIST_KEY_SYM };
	size_t cap = 4096, len = 0;
	char *v = malloc(cap), k[256];

	v[0] = '\0';
	for (size_t i = 0; i < nr; i++) {
		if (len + 2048 > cap)
			v = realloc(v, cap *= 2);
		for (size_t j = 0; j < sizeof kk / sizeof kk[0]; j++)
			if (keep & HIST_KEEP(kk[j]))
				len += (size_t)snprintf(v + len, cap - len, "%s|",
				    hist_key_text(h, rows[i], kk[j], k, sizeof k));
		len += (size_t)snprintf(v + len, cap - len, " %" PRIu64 " %" PRIu64 " %" PRIu64 " %" PRIu64
		    "\n", rows[i]->samples, rows[i]->period, rows[i]->acc_samples, rows[i]->acc_period);
	}
	return v;
}

/* Event ev's rows merged by keep over sel, keys and counts as text. */
static char *
merged_text(struct hist *h, size_t ev, const struct hist_select *sel, unsigned keep)
{
	const struct hist_entry *const *rows;
	size_t nr = hist_rows_merged(h, ev, sel, keep, 0, &rows);

	return rows_text(h, rows, nr, keep);
}

/*
 * hist_rows_merged keeps each entry's merged key for the last keys and
 * event asked: whatever was asked before (other keys, another event, a
 * zoom, a recount), its rows are those of a hist asked nothing yet.
 */
Test(rescope, merged_rows_whatever_was_asked_before)
{
	const char *names[] = { "fp.data", "fork.data", "multi.data" };
	const unsigned keeps[] = {
		HIST_KEEP(HIST_KEY_COMM) | HIST_KEEP(HIST_KEY_DSO) | HIST_KEEP(HIST_KEY_SYM),
		HIST_KEEP(HIST_KEY_SYM),
		HIST_KEEP(HIST_KEY_COMM) | HIST_KEEP(HIST_KEY_TID) | HIST_KEEP(HIST_KEY_DSO) |
		    HIST_KEEP(HIST_KEY_SYM),
		HIST_KEEP(HIST_KEY_PID) | HIST_KEEP(HIST_KEY_DSO),
	};
	char bdir[4096];

	snprintf(bdir, sizeof bdir, "%s", test_data("buildid"));
	for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) {
		struct perf_err err;
		struct sym_opts so = { .buildid_dir = bdir, .kallsyms = "/dev/null" };
		struct session *s = session_open(test_data(names[i]), NULL, &err);
		struct symbolizer *z, *z2;
		struct hist *h, *fresh;
		struct hist_select sel = { .by_tid = true };
		struct hist_filter f = { 0 };
		uint64_t t0, t1;
		uint32_t cpu;
		size_t asked = 0, nev;

		cr_assert_not_null(s, "%s: %s", names[i], err.msg);
		z = symbolizer_new(s, &so);
		z2 = symbolizer_new(s, &so);
		h = tui_hist(s, z, NULL, false);
		first_sample(s, &sel.tid, &cpu, &t0, &t1);
		nev = hist_nevents(h);
		f.time = calloc(1, sizeof *f.time);
		f.time[0].start = t0 + (t1 - t0) / 3;
		f.time[0].end = t1 - (t1 - t0) / 3;
		f.ntime = 1;
		/* each (keys, event, zoom), then again after a recount of the middle third */
		for (size_t round = 0; round < 2; round++) {
			if (round == 1)
				cr_assert_eq(hist_rescope(h, &f), 0, "%s: recounted", names[i]);
			for (size_t a = 0; a < 2 * nev * 4; a++) {
				unsigned keep = keeps[(round ? 3 - a % 4 : a % 4)];
				size_t ev = a / 4 % nev;
				const struct hist_select *sl = a / (4 * nev) ? &sel : NULL;
				char *got = merged_text(h, ev, sl, keep), *want;

				fresh = tui_hist(s, z2, round ? &f : NULL, false);
				want = merged_text(fresh, ev, sl, keep);
				cr_assert_str_eq(got, want, "%s: keys %#x, event %zu, %s, after %zu asked",
				    names[i], keep, ev, sl ? "a thread" : "everything", asked);
				cr_assert(round > 0 || strlen(want) > 0 || sl != NULL,
				    "%s: rows to compare", names[i]);
				asked++;
				free(got);
				free(want);
				hist_free(fresh);
			}
		}
		filter_free(&f);
		hist_free(h);
		symbolizer_free(z2);
		symbolizer_free(z);
		session_close(s);
	}
}

/* h's entries (hist_entry_get answers up to their count). */
static size_t
nentries(const struct hist *h)
{
	size_t n = 0;

	while (hist_entry_get(h, (uint32_t)n) != NULL)
		n++;
	return n;
}

/*
 * Rows asked of a hist still being added to (hist_peek, as the browser
 * reads one between its steps when no worker thread could start): the
 * entries made since are merged too, the rows at the end are a whole
 * pass's.
 */
Test(rescope, merged_rows_of_a_hist_that_grows)
{
	const char *names[] = { "fp.data", "fork.data", "multi.data" };
	const unsigned keep = HIST_KEEP(HIST_KEY_COMM) | HIST_KEEP(HIST_KEY_DSO) |
	    HIST_KEEP(HIST_KEY_SYM);
	char bdir[4096];
	size_t grew = 0;

	snprintf(bdir, sizeof bdir, "%s", test_data("buildid"));
	for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) {
		struct perf_err err;
		struct sym_opts so = { .buildid_dir = bdir, .kallsyms = "/dev/null" };
		struct session *s = session_open(test_data(names[i]), NULL, &err);
		struct symbolizer *z, *z2;
		struct hist *h, *fresh;
		size_t n, nent0;
		char *got, *want;

		cr_assert_not_null(s, "%s: %s", names[i], err.msg);
		n = session_index(s)->n;
		z = symbolizer_new(s, &so);
		z2 = symbolizer_new(s, &so);
		h = tui_hist_new(s, z);
		hist_add_range(h, 0, n / 3, NULL);
		hist_peek(h);
		free(merged_text(h, 0, NULL, keep));
		nent0 = nentries(h);
		hist_add_range(h, n / 3, n, NULL);
		grew += nentries(h) > nent0;
		hist_finish(h);
		fresh = tui_hist(s, z2, NULL, false);
		for (size_t ev = 0; ev < hist_nevents(h); ev++) {
			got = merged_text(h, ev, NULL, keep);
			want = merged_text(fresh, ev, NULL, keep);
			cr_assert_str_eq(got, want, "%s: event %zu", names[i], ev);
			free(got);
			free(want);
		}
		hist_free(fresh);
		hist_free(h);
		symbolizer_free(z2);
		symbolizer_free(z);
		session_close(s);
	}
	cr_assert_gt(grew, 0, "entries made after the first rows, in some recording");
}

/* The browser's hist's options without paths or rows: each frame's entry looked up, always. */
static struct hist *
plain_hist(struct session *s, struct symbolizer *z)
{
	struct hist_opts o;
	struct hist *h;

	tui_opts(s, &o, NULL, false);
	o.paths = false;
	o.record_self = false;
	h = hist_new(s, z, &o);
	hist_add_session(h, NULL);
	hist_finish(h);
	return h;
}

/* h and plain have the same entries in the same order: keys, counts, labels.  Their count. */
static size_t
same_entries(struct hist *h, struct hist *plain, const char *name)
{
	size_t n = nentries(h);
	char x[600], y[600];

	cr_assert_eq(n, nentries(plain), "%s: entries %zu vs %zu", name, n, nentries(plain));
	for (uint32_t e = 0; e < n; e++) {
		const struct hist_entry *a = hist_entry_get(h, e), *b = hist_entry_get(plain, e);

		cr_assert_str_eq(entry_text(h, e, x, sizeof x), entry_text(plain, e, y, sizeof y),
		    "%s: entry %u", name, e);
		cr_assert(a->samples == b->samples && a->period == b->period &&
		    a->acc_samples == b->acc_samples && a->acc_period == b->acc_period &&
		    a->latency == b->latency && a->acc_latency == b->acc_latency,
		    "%s: entry %u (%s): %" PRIu64 "/%" PRIu64 " vs %" PRIu64 "/%" PRIu64, name, e, x,
		    a->acc_samples, a->acc_period, b->acc_samples, b->acc_period);
		cr_assert_eq(a->label_sym, b->label_sym, "%s: entry %u's label", name, e);
	}
	return n;
}

/*
 * The browser's hist credits a sample of a known row by the row's entries
 * (credit_known_row), not frame by frame: its entries, made in the same
 * order, have the counts and labels of a hist with the same keys that
 * keeps no paths (each frame's entry looked up for every sample).
 */
Test(rescope, a_rows_entries_are_its_samples_frames)
{
	const char *names[] = { "fp.data", "fork.data", "multi.data", "zstd.data", "chainlv.data" };
	char bdir[4096];
	size_t credited = 0;

	snprintf(bdir, sizeof bdir, "%s", test_data("buildid"));
	for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) {
		struct perf_err err;
		struct sym_opts so = { .buildid_dir = bdir, .kallsyms = "/dev/null" };
		struct session *s = session_open(test_data(names[i]), NULL, &err);
		struct symbolizer *z, *z2;
		struct hist *h, *plain;
		size_t n;

		cr_assert_not_null(s, "%s: %s", names[i], err.msg);
		z = symbolizer_new(s, &so);
		z2 = symbolizer_new(s, &so);
		h = tui_hist(s, z, NULL, false);
		plain = plain_hist(s, z2);
		n = same_entries(h, plain, names[i]);
		for (uint32_t e = 0; e < n; e++)
			credited += hist_entry_get(h, e)->acc_samples > hist_entry_get(h, e)->samples;
		hist_free(plain);
		hist_free(h);
		symbolizer_free(z2);
		symbolizer_free(z);
		session_close(s);
	}
	cr_assert_gt(credited, 0, "entries credited by frames");
}

/* A hist of names[i] keyed by keys[0..nk), with children when it has chains, finished. */
static struct hist *
keyed_hist(struct session *s, struct symbolizer *z, const enum hist_key *keys, unsigned nk)
{
	struct hist_opts o;
	struct hist *h;

	memset(&o, 0, sizeof o);
	for (unsigned i = 0; i < nk; i++)
		o.keys[i] = keys[i];
	o.nkeys = nk;
	o.children = attr_table_has_callchains(session_attrs(s));
	o.event = -1;
	o.max_stack = HIST_DEFAULT_MAX_STACK;
	h = hist_new(s, z, &o);
	hist_add_session(h, NULL);
	hist_finish(h);
	return h;
}

/*
 * With keys among comm, pid, tid, dso and sym a sample's own entry is
 * found through a memo of those values (hist.c own_entry_memo); with cpu
 * as well it is not.  The cpu-keyed hist's rows merged over cpu are the
 * memo'd hist's rows, self and children.
 */
Test(rescope, own_entry_memo_gives_the_entry_of_its_keys)
{
	const char *names[] = { "fp.data", "fork.data", "multi.data", "zstd.data", "plain.data",
		"offcpu-sw.data", "sched.data" };
	const enum hist_key sets[2][4] = {
		{ HIST_KEY_COMM, HIST_KEY_DSO, HIST_KEY_SYM, HIST_KEY_CPU },
		{ HIST_KEY_COMM, HIST_KEY_TID, HIST_KEY_DSO, HIST_KEY_SYM },
	};
	char bdir[4096];

	snprintf(bdir, sizeof bdir, "%s", test_data("buildid"));
	for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) {
		struct perf_err err;
		struct sym_opts so = { .buildid_dir = bdir, .kallsyms = "/dev/null" };
		struct session *s = session_open(test_data(names[i]), NULL, &err);
		struct symbolizer *z;

		cr_assert_not_null(s, "%s: %s", names[i], err.msg);
		z = symbolizer_new(s, &so);
		for (int k = 0; k < 2; k++) {
			enum hist_key withcpu[5];
			unsigned keep = 0, nk = k == 0 ? 3 : 4;
			struct hist *memo, *plain;

			for (unsigned j = 0; j < nk; j++) {
				withcpu[j] = sets[k][j];
				keep |= HIST_KEEP(sets[k][j]);
			}
			withcpu[nk] = HIST_KEY_CPU;
			memo = keyed_hist(s, z, sets[k], nk);
			plain = keyed_hist(s, z, withcpu, nk + 1);
			cr_assert_eq(hist_nevents(memo), hist_nevents(plain), "%s", names[i]);
			for (size_t ev = 0; ev < hist_nevents(memo); ev++) {
				char *a = merged_text(memo, ev, NULL, keep), *b = merged_text(plain, ev, NULL, keep);

				cr_assert_str_eq(a, b, "%s: keys %#x, event %zu", names[i], keep, ev);
				cr_assert(strlen(a) > 0, "%s: rows", names[i]);
				free(a);
				free(b);
			}
			hist_free(plain);
			hist_free(memo);
		}
		symbolizer_free(z);
		session_close(s);
	}
}

/* One sample_id_all trailer of mixed_recording's attr (TID, TIME, CPU), of process pid. */
static void
mixed_trailer(struct pdbuf *b, uint32_t pid, uint64_t time)
{
	pd_u32(b, pid);
	pd_u32(b, pid);
	pd_u64(b, time);
	pd_u32(b, 0);
	pd_u32(b, 0);
}

/* An MMAP of [start, start + 0x1000) to path for process pid at time. */
static void
mixed_mmap(struct pdbuf *b, uint32_t pid, uint64_t start, const char *path, uint64_t time)
{
	size_t r = pd_rec_begin(b, PF_REC_MMAP, PERF_RECORD_MISC_USER);

	pd_u32(b, pid);
	pd_u32(b, pid);
	pd_u64(b, start);
	pd_u64(b, 0x1000);
	pd_u64(b, 0);
	pd_str8(b, path);
	mixed_trailer(b, pid, time);
	pd_rec_end(b, r);
}

/* A COMM naming process pid "mixed" at time. */
static void
mixed_comm(struct pdbuf *b, uint32_t pid, uint64_t time)
{
	size_t r = pd_rec_begin(b, PF_REC_COMM, 0);

	pd_u32(b, pid);
	pd_u32(b, pid);
	pd_str8(b, "mixed");
	mixed_trailer(b, pid, time);
	pd_rec_end(b, r);
}

/*
 * Samples that all end in the same function of one library (0x10010, in
 * no symbol), called from 0x5010: with moved, one process whose first two
 * samples have that address in a.so, and, mapped again, the next two in
 * b.so; else two processes, 42 with a.so there (its two samples) and 43
 * with b.so (its two).  In no symbol, the frame is one function node (by
 * address) in two DSOs either way.
 */
static char *
mixed_recording(bool moved)
{
	struct pdbuf b;
	size_t data = synth_head_with(&b, false, PERF_SAMPLE_IP | PERF_SAMPLE_TID |
	    PERF_SAMPLE_TIME | PERF_SAMPLE_CPU | PERF_SAMPLE_PERIOD | PERF_SAMPLE_CALLCHAIN,
	    1ull << 18 /* sample_id_all */), r;
	char *path;

	for (uint32_t pid = 42; pid < (moved ? 43u : 44u); pid++) {
		mixed_comm(&b, pid, 1000);
		mixed_mmap(&b, pid, 0x10000, "/nonexistent/leaf.so", 1001);
		mixed_mmap(&b, pid, 0x5000, pid == 42 ? "/nonexistent/a.so" : "/nonexistent/b.so",
		    1002);
	}
	for (int i = 0; i < 4; i++) {
		uint32_t pid = moved || i < 2 ? 42 : 43;

		if (i == 2 && moved)
			mixed_mmap(&b, 42, 0x5000, "/nonexistent/b.so", 2000);
		r = pd_rec_begin(&b, PF_REC_SAMPLE, PERF_RECORD_MISC_USER);
		pd_u64(&b, 0x10010);
		pd_u32(&b, pid);
		pd_u32(&b, pid);
		pd_u64(&b, (i < 2 ? 1500 : 2500) + 100 * (uint64_t)(i % 2));
		pd_u32(&b, 0);
		pd_u32(&b, 0);
		pd_u64(&b, 4000);
		pd_u64(&b, 3);
		pd_u64(&b, (uint64_t)PERF_CONTEXT_USER);
		pd_u64(&b, 0x10010);
		pd_u64(&b, 0x5010);
		pd_rec_end(&b, r);
	}
	pd_put64(&b, 40, data);
	pd_put64(&b, 48, b.len - data);
	path = tmp_write("mixed", b.p, b.len);
	pd_free(&b);
	return path;
}

/*
 * A path row is not always its frames' entries: a frame in no symbol is
 * one node in several DSOs, and with the DSO a key the browser's hist
 * credits each sample's own DSO (frame by frame), as a hist without paths
 * does: a.so's and b.so's rows of the caller, two samples each.
 */
Test(rescope, a_frame_in_no_symbol_in_two_dsos)
{
	char *path = mixed_recording(true);
	struct session *s = session_of_path(path);
	struct sym_opts so = { .kallsyms = "/dev/null" };
	struct symbolizer *z, *z2;
	struct hist *h, *plain;
	size_t n, found = 0;
	char x[600];

	cr_assert_not_null(s);
	z = symbolizer_new(s, &so);
	z2 = symbolizer_new(s, &so);
	h = tui_hist(s, z, NULL, false);
	plain = plain_hist(s, z2);
	n = same_entries(h, plain, "mixed");
	for (uint32_t e = 0; e < n; e++) {
		entry_text(h, e, x, sizeof x);
		if (strstr(x, "a.so|") != NULL || strstr(x, "b.so|") != NULL) {
			cr_assert_eq(hist_entry_get(h, e)->acc_samples, 2, "%s: two samples", x);
			found++;
		}
	}
	cr_assert_eq(found, 2, "the caller in a.so and in b.so");
	hist_free(plain);
	hist_free(h);
	symbolizer_free(z2);
	symbolizer_free(z);
	session_close(s);
	unlink(path);
	free(path);
}

/*
 * The recount credits a sample of a row the entries the row keeps, which
 * is wrong where a sample of the same row (its frame in no symbol now in
 * b.so) credited others: such a hist is refused.  The window keeps one
 * sample in a.so (1600) and one in b.so (2500); the same made in two
 * parts, where each part's row has the entries of its own.  Where each
 * process keeps its DSO there (a frame in no symbol in two DSOs all the
 * same), each row's samples credit its entries, and the hist is
 * recounted, as a fresh pass with the window counts it.
 */
Test(rescope, a_row_whose_samples_credit_other_entries)
{
	struct sym_opts so = { .kallsyms = "/dev/null" };
	struct filter_range win = { 1550, 2550 };
	struct hist_filter f = { .time = &win, .ntime = 1 };

	for (int moved = 1; moved >= 0; moved--) {
		char *path = mixed_recording(moved);
		struct fixture fx = { .s = session_of_path(path) };
		const struct rec_index *ix;
		struct symbolizer *z2;
		size_t mid = 0;
		int want = moved ? -1 : 0;

		cr_assert_not_null(fx.s);
		ix = session_index(fx.s);
		fx.z = symbolizer_new(fx.s, &so);
		z2 = symbolizer_new(fx.s, &so);
		fx.h = tui_hist(fx.s, fx.z, NULL, false);
		cr_assert_eq(hist_rescope(fx.h, &f), want, "moved %d: %s", moved,
		    moved ? "refused" : "recounted");
		if (!moved)
			same_as_pass(&fx, "mixed", "time window", &f);
		hist_free(fx.h);
		/* in two parts, one with the first two samples, the other the last two */
		while (mid < ix->n && index_ent(ix, mid)->time < 2000)
			mid++;
		cr_assert_lt(mid, ix->n);
		fx.h = split_hist(fx.s, fx.z, z2, mid);
		cr_assert_eq(hist_rescope(fx.h, &f), want, "moved %d, two parts: %s", moved,
		    moved ? "refused" : "recounted");
		if (!moved)
			same_as_pass(&fx, "mixed", "two parts, time window", &f);
		hist_free(fx.h);
		symbolizer_free(z2);
		symbolizer_free(fx.z);
		session_close(fx.s);
		unlink(path);
		free(path);
	}
}

/* Event ev's rows merged by keep over sel in steps of n entries, as merged_text gives them. */
static char *
stepped_text(struct hist *h, size_t ev, const struct hist_select *sel, unsigned keep, size_t n)
{
	const struct hist_entry *const *rows;
	unsigned t = hist_rows_begin(h, ev, sel, keep);
	size_t done = 0, total = 0, last = 0, nr;

	while (!hist_rows_step(h, t, n)) {
		hist_rows_progress(h, t, &done, &total);
		cr_assert_eq(done, last + n, "a step of %zu entries", n);
		cr_assert_lt(done, total);
		last = done;
	}
	nr = hist_rows_end(h, t, 0, &rows);
	cr_assert_neq(nr, SIZE_MAX, "the merge ended whole");
	return rows_text(h, rows, nr, keep);
}

/*
 * The merge of rows in steps (the hot pane's on a large hist) gives
 * hist_rows_merged's rows whatever the step; a merge begun, or rows asked
 * otherwise, meanwhile ends it (its ticket fails) and leaves no mark on
 * the rows asked after.
 */
Test(rescope, merged_rows_in_steps)
{
	const char *names[] = { "fp.data", "fork.data", "multi.data" };
	const unsigned keep = HIST_KEEP(HIST_KEY_COMM) | HIST_KEEP(HIST_KEY_DSO) |
	    HIST_KEEP(HIST_KEY_SYM);
	char bdir[4096];

	snprintf(bdir, sizeof bdir, "%s", test_data("buildid"));
	for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) {
		struct perf_err err;
		struct sym_opts so = { .buildid_dir = bdir, .kallsyms = "/dev/null" };
		struct session *s = session_open(test_data(names[i]), NULL, &err);
		struct hist_select sel = { .by_tid = true };
		const struct hist_entry *const *rows;
		struct symbolizer *z;
		struct cpath_query q = { .ev = 0, .entry = CPATH_NONE };
		struct cpath *t;
		struct hist *h;
		uint32_t cpu;
		uint64_t t0, t1;
		unsigned a, b;
		char *want, *got;

		cr_assert_not_null(s, "%s: %s", names[i], err.msg);
		z = symbolizer_new(s, &so);
		h = tui_hist(s, z, NULL, false);
		first_sample(s, &sel.tid, &cpu, &t0, &t1);
		want = merged_text(h, 0, NULL, keep);
		cr_assert_gt(strlen(want), 0, "%s: rows", names[i]);
		for (size_t n = 1; n < 12; n += 5) {
			got = stepped_text(h, 0, NULL, keep, n);
			cr_assert_str_eq(got, want, "%s: steps of %zu", names[i], n);
			free(got);
		}
		/* a merge under way ended by another begin, by rows asked, by a tree's rows */
		a = hist_rows_begin(h, 0, NULL, keep);
		cr_assert(!hist_rows_step(h, a, 1), "%s: more than one entry", names[i]);
		b = hist_rows_begin(h, 0, &sel, HIST_KEEP(HIST_KEY_SYM));
		cr_assert(hist_rows_step(h, a, 1), "%s: the first ended", names[i]);
		cr_assert_eq(hist_rows_end(h, a, 0, &rows), SIZE_MAX, "%s", names[i]);
		cr_assert_null(rows);
		cr_assert(!hist_rows_step(h, b, 1), "%s: the second goes on", names[i]);
		got = merged_text(h, 0, NULL, keep);
		cr_assert_str_eq(got, want, "%s: rows asked after a merge ended half-way", names[i]);
		free(got);
		cr_assert_eq(hist_rows_end(h, b, 0, &rows), SIZE_MAX, "%s: ended by the rows asked",
		    names[i]);
		a = hist_rows_begin(h, 0, NULL, keep);
		cr_assert(!hist_rows_step(h, a, 1), "%s", names[i]);
		t = cpath_build(h, &q);
		(void)cpath_rows_merged(h, t, 0, keep, 0, &rows);
		cpath_free(t);
		cr_assert_eq(hist_rows_end(h, a, 0, &rows), SIZE_MAX, "%s: ended by a tree's rows",
		    names[i]);
		got = merged_text(h, 0, NULL, keep);
		cr_assert_str_eq(got, want, "%s: rows asked after a tree's", names[i]);
		free(got);
		free(want);
		hist_free(h);
		symbolizer_free(z);
		session_close(s);
	}
}
