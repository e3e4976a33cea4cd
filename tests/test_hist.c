/* Criterion tests of symbolize/hist.c: hot-function tables, children,
 * call graph, folded stacks, the process tree. */
#include "config.h"

#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/core.h"
#include "symbolize/hist.h"
#include "symbolize/resolve.h"
#include "symbolize/tasks.h"
#include "tests/helpers.h"

/* A resolved frame: symbol sym of DSO dso (labelled "[.] s<sym>" without a symbolizer). */
static struct frame
fr(uint32_t dso, uint32_t sym, uint64_t ip)
{
	struct frame f;

	memset(&f, 0, sizeof f);
	f.ip = ip;
	f.rel = ip - 0x1000;
	f.dso = dso;
	f.sym = sym;
	f.cpumode = PERF_RECORD_MISC_USER;
	f.why = sym == SYM_NONE ? SYM_WHY_NOT_IN_SYMBOL : SYM_WHY_OK;
	return f;
}

static void
add(struct hist *h, int attr, const char *comm, int32_t tid, uint64_t period,
    const struct frame *chain, size_t n)
{
	struct hist_sample s = {
		.attr = attr, .event_name = attr ? "task-clock" : "cpu-clock", .comm = comm,
		.pid = tid, .tid = tid, .cpu = (uint32_t)tid % 2, .period = period,
		.self = &chain[0], .chain = chain, .nchain = n,
	};

	hist_add(h, &s);
}

static struct hist *
mk(const char *keys, bool children, bool callgraph)
{
	struct hist_opts o;
	const char *bad;
	size_t badlen;
	int n;

	memset(&o, 0, sizeof o);
	n = hist_parse_keys(keys, o.keys, &bad, &badlen);
	cr_assert_gt(n, 0);
	o.nkeys = (unsigned)n;
	o.children = children;
	o.callgraph = callgraph;
	o.event = -1;
	return hist_new(NULL, NULL, &o);
}

/* The row of event ev whose key k reads text, or NULL. */
static const struct hist_entry *
row(struct hist *h, size_t ev, enum hist_key k, const char *text)
{
	const uint32_t *rows;
	size_t n = hist_rows(h, ev, 0, &rows);
	char buf[256];

	for (size_t i = 0; i < n; i++) {
		const struct hist_entry *e = hist_entry_get(h, rows[i]);

		if (strcmp(hist_key_text(h, e, k, buf, sizeof buf), text) == 0)
			return e;
	}
	return NULL;
}

Test(hist, parse_keys)
{
	enum hist_key k[HIST_MAX_KEYS];
	const char *bad;
	size_t badlen;

	cr_assert_eq(hist_parse_keys("comm,dso,sym", k, &bad, &badlen), 3);
	cr_assert_eq(k[0], HIST_KEY_COMM);
	cr_assert_eq(k[1], HIST_KEY_DSO);
	cr_assert_eq(k[2], HIST_KEY_SYM);
	cr_assert_eq(hist_parse_keys("pid,tid,cpu,srcline", k, &bad, &badlen), 4);
	cr_assert_eq(k[3], HIST_KEY_SRCLINE);
	cr_assert_eq(hist_parse_keys("comm,bogus,sym", k, &bad, &badlen), -1);
	cr_assert_eq(badlen, 5);
	cr_assert_eq(strncmp(bad, "bogus", 5), 0);
}

Test(hist, self_overhead_is_period_share)
{
	struct hist *h = mk("sym", false, false);
	struct frame a = fr(0, 1, 0x1100), b = fr(0, 2, 0x1200), c = fr(1, 3, 0x1300);
	const uint32_t *rows;
	const struct hist_entry *e;

	add(h, 0, "x", 1, 100, &a, 1);
	add(h, 0, "x", 1, 100, &a, 1);
	add(h, 0, "x", 1, 600, &b, 1);	/* one sample, most of the period */
	add(h, 0, "y", 2, 200, &c, 1);
	add(h, 1, "x", 1, 5, &a, 1);	/* another event */
	hist_finish(h);
	cr_assert_eq(hist_nevents(h), 2);
	cr_assert_str_eq(hist_str(h, hist_event(h, 0)->name), "cpu-clock");
	cr_assert_eq(hist_event(h, 0)->total_period, 1000);
	cr_assert_eq(hist_event(h, 0)->nsamples, 4);
	cr_assert_eq(hist_rows(h, 0, 0, &rows), 3);
	/* sorted by period: s2 (600) first although s1 has more samples */
	e = hist_entry_get(h, rows[0]);
	cr_assert_eq(e->period, 600);
	cr_assert_float_eq(hist_self_pct(h, e), 60.0, 1e-9);
	e = row(h, 0, HIST_KEY_SYM, "[.] s1");
	cr_assert_not_null(e);
	cr_assert_eq(e->samples, 2);
	cr_assert_float_eq(hist_self_pct(h, e), 20.0, 1e-9);
	/* the second event has its own rows and total */
	cr_assert_eq(hist_rows(h, 1, 0, &rows), 1);
	cr_assert_float_eq(hist_self_pct(h, hist_entry_get(h, rows[0])), 100.0, 1e-9);
	cr_assert_eq(hist_event_find(h, "task-clock"), 1);
	cr_assert_eq(hist_event_find(h, "nope"), -1);
	hist_free(h);
}

Test(hist, percent_limit_hides_rows)
{
	struct hist *h = mk("sym", false, false);
	struct frame a = fr(0, 1, 0x1100), b = fr(0, 2, 0x1200);
	const uint32_t *rows;

	for (int i = 0; i < 99; i++)
		add(h, 0, "x", 1, 1, &a, 1);
	add(h, 0, "x", 1, 1, &b, 1);
	hist_finish(h);
	cr_assert_eq(hist_rows(h, 0, 0, &rows), 2);
	cr_assert_eq(hist_rows(h, 0, 1.0, &rows), 2);	/* 1.00% is not under 1 */
	cr_assert_eq(hist_rows(h, 0, 1.5, &rows), 1);
	cr_assert_eq(hist_rows(h, 0, 100, &rows), 0 + 0);
	hist_free(h);
}

Test(hist, children_count_a_recursive_symbol_once)
{
	struct hist *h = mk("sym", true, false);
	/* leaf first: fib <- fib <- fib <- main <- start */
	struct frame c1[] = { fr(0, 1, 0x1110), fr(0, 1, 0x1120), fr(0, 1, 0x1130), fr(0, 2, 0x1200),
	    fr(0, 3, 0x1300) };
	/* leaf <- fib <- main <- start */
	struct frame c2[] = { fr(0, 4, 0x1400), fr(0, 1, 0x1120), fr(0, 2, 0x1200), fr(0, 3, 0x1300) };
	const struct hist_entry *e;

	add(h, 0, "x", 1, 10, c1, 5);
	add(h, 0, "x", 1, 10, c1, 5);
	add(h, 0, "x", 1, 20, c2, 4);
	hist_finish(h);
	e = row(h, 0, HIST_KEY_SYM, "[.] s1");
	cr_assert_not_null(e);
	cr_assert_eq(e->samples, 2);
	cr_assert_eq(e->period, 20);
	cr_assert_eq(e->acc_period, 40);	/* 10 + 10 + 20, not 3x for recursion */
	cr_assert_eq(e->acc_samples, 3);
	cr_assert_float_eq(hist_children_pct(h, e), 100.0, 1e-9);
	cr_assert_float_eq(hist_self_pct(h, e), 50.0, 1e-9);
	e = row(h, 0, HIST_KEY_SYM, "[.] s4");
	cr_assert_eq(e->acc_period, 20);
	cr_assert_eq(e->period, 20);
	e = row(h, 0, HIST_KEY_SYM, "[.] s3");
	cr_assert_eq(e->samples, 0);
	cr_assert_eq(e->acc_period, 40);
	hist_free(h);
}

Test(hist, children_without_callchain_equal_self)
{
	struct hist *h = mk("comm,dso,sym", true, false);
	struct frame a = fr(0, 1, 0x1100);
	const struct hist_entry *e;

	add(h, 0, "x", 1, 3, &a, 0);
	add(h, 0, "x", 1, 3, &a, 0);
	hist_finish(h);
	e = row(h, 0, HIST_KEY_SYM, "[.] s1");
	cr_assert_eq(e->acc_period, e->period);
	cr_assert_eq(e->acc_samples, 2);
	hist_free(h);
}

Test(hist, children_keyed_by_every_sort_key)
{
	/* --sort comm: a chain adds nothing new, children == self */
	struct hist *h = mk("comm", true, false);
	struct frame c[] = { fr(0, 1, 0x1100), fr(0, 2, 0x1200) };
	const struct hist_entry *e;

	add(h, 0, "x", 1, 7, c, 2);
	hist_finish(h);
	e = row(h, 0, HIST_KEY_COMM, "x");
	cr_assert_eq(e->acc_period, 7);
	cr_assert_eq(e->period, 7);
	hist_free(h);
}

Test(hist, unresolved_keys_as_perf)
{
	/*
	 * An unresolved sample ip is keyed (and printed) relative to its DSO;
	 * the same address as a callchain frame is keyed by the recorded
	 * address, so perf shows both rows.
	 */
	struct hist *h = mk("sym", true, false);
	struct frame c[] = { fr(0, SYM_NONE, 0x5100), fr(0, 2, 0x1200) };
	const struct hist_entry *e;

	add(h, 0, "x", 1, 1, c, 2);
	hist_finish(h);
	e = row(h, 0, HIST_KEY_SYM, "[.] 0x0000000000004100");
	cr_assert_not_null(e);
	cr_assert_eq(e->samples, 1);
	e = row(h, 0, HIST_KEY_SYM, "[.] 0x0000000000005100");
	cr_assert_not_null(e);
	cr_assert_eq(e->samples, 0);
	cr_assert_eq(e->acc_samples, 1);
	hist_free(h);
}

Test(hist, sort_keys_split_rows)
{
	struct hist *h = mk("comm,pid,tid,cpu,dso,sym", false, false);
	struct frame a = fr(7, 1, 0x1100);
	const uint32_t *rows;
	char buf[64];
	const struct hist_entry *e;

	add(h, 0, "one", 10, 1, &a, 1);
	add(h, 0, "one", 10, 1, &a, 1);
	add(h, 0, "one", 11, 1, &a, 1);	/* other tid and cpu */
	add(h, 0, "two", 10, 1, &a, 1);	/* same tid, other comm (exec) */
	hist_finish(h);
	cr_assert_eq(hist_rows(h, 0, 0, &rows), 3);
	e = hist_entry_get(h, rows[0]);
	cr_assert_eq(e->samples, 2);
	cr_assert_str_eq(hist_key_text(h, e, HIST_KEY_COMM, buf, sizeof buf), "one");
	cr_assert_str_eq(hist_key_text(h, e, HIST_KEY_PID, buf, sizeof buf), "     10:one");
	cr_assert_str_eq(hist_key_text(h, e, HIST_KEY_DSO, buf, sizeof buf), "d7");
	cr_assert_str_eq(hist_key_text(h, e, HIST_KEY_CPU, buf, sizeof buf), "0");
	hist_free(h);

	h = mk("dso", false, false);
	add(h, 0, "one", 10, 1, &a, 1);
	add(h, 0, "two", 11, 1, &a, 1);
	hist_finish(h);
	cr_assert_eq(hist_rows(h, 0, 0, &rows), 1);
	cr_assert_eq(hist_entry_get(h, rows[0])->samples, 2);
	hist_free(h);
}

struct folded {
	char	text[8][128];
	uint64_t count[8];
	int	n;
};

static int
collect(void *arg, const char *line, uint64_t count)
{
	struct folded *f = arg;

	cr_assert_lt(f->n, 8);
	snprintf(f->text[f->n], sizeof f->text[0], "%s", line);
	f->count[f->n++] = count;
	return 0;
}

static uint64_t
folded_count(const struct folded *f, const char *line)
{
	for (int i = 0; i < f->n; i++)
		if (strcmp(f->text[i], line) == 0)
			return f->count[i];
	return 0;
}

Test(hist, folded_stacks_and_call_graph)
{
	struct hist *h = mk("sym", false, true);
	struct frame c1[] = { fr(0, 1, 0x1110), fr(0, 2, 0x1200), fr(0, 3, 0x1300) };
	struct frame c2[] = { fr(0, 1, 0x1114), fr(0, 2, 0x1208), fr(0, 3, 0x1300) };
	struct frame c3[] = { fr(0, 4, 0x1400), fr(0, 3, 0x1300) };
	struct frame c4[] = { fr(0, SYM_NONE, 0x9999), fr(0, 3, 0x1300) };
	struct folded f;
	const struct hist_edge *ed;
	uint32_t n1 = UINT32_MAX, n3 = UINT32_MAX;

	add(h, 0, "w", 1, 10, c1, 3);
	add(h, 0, "w", 1, 30, c2, 3);
	add(h, 0, "w", 1, 5, c3, 2);
	add(h, 0, "v", 2, 5, c4, 2);
	hist_finish(h);
	memset(&f, 0, sizeof f);
	hist_folded(h, 0, false, collect, &f);
	cr_assert_eq(f.n, 3);
	cr_assert_eq(folded_count(&f, "w;s3;s2;s1"), 2);
	cr_assert_eq(folded_count(&f, "w;s3;s4"), 1);
	cr_assert_eq(folded_count(&f, "v;s3;[d0]"), 1);
	memset(&f, 0, sizeof f);
	hist_folded(h, 0, true, collect, &f);
	cr_assert_eq(folded_count(&f, "w;s3;s2;s1"), 40);

	for (uint32_t i = 0; i < hist_nnodes(h); i++) {
		const struct hist_node *nd = hist_node_get(h, i);

		if (nd->f.sym == 1)
			n1 = i;
		if (nd->f.sym == 3)
			n3 = i;
	}
	cr_assert_neq(n1, UINT32_MAX);
	/* s3 calls s2 (40), s4 (5) and the unresolved address (5) */
	cr_assert_eq(hist_callees(h, 0, n3, &ed), 3);
	cr_assert_eq(ed[0].period, 40);
	cr_assert_str_eq(hist_str(h, hist_node_get(h, ed[0].callee)->label), "[.] s2");
	cr_assert_eq(hist_callers(h, 0, n1, &ed), 1);
	cr_assert_eq(ed[0].samples, 2);
	cr_assert_eq(hist_callers(h, 0, n3, &ed), 0);

	/* the call tree: root -> comm -> s3 -> ... with inclusive counts */
	{
		const struct hist_tnode *root = hist_tnode_get(h, hist_event(h, 0)->tree_root);
		const struct hist_tnode *w = hist_tnode_get(h, root->first_child);
		const struct hist_tnode *s3 = hist_tnode_get(h, w->first_child);

		cr_assert_eq(root->inc_period, 50);
		cr_assert_str_eq(hist_str(h, w->name), "w");
		cr_assert_eq(w->inc_period, 45);
		cr_assert_eq(s3->inc_samples, 3);
		cr_assert_eq(hist_tnode_get(h, s3->first_child)->inc_period, 40);
	}
	hist_free(h);
}

Test(hist, why_counts)
{
	struct hist *h = mk("sym", true, false);
	struct frame c[] = { fr(3, SYM_NONE, 0x5100), fr(3, SYM_NONE, 0x5200), fr(0, 2, 0x1200) };
	const struct hist_why *w;

	add(h, 0, "x", 1, 1, c, 3);
	hist_finish(h);
	cr_assert_eq(hist_whys(h, &w), 1);
	cr_assert_eq(w[0].dso, 3);
	cr_assert_eq(w[0].self[SYM_WHY_NOT_IN_SYMBOL], 1);
	cr_assert_eq(w[0].chain[SYM_WHY_NOT_IN_SYMBOL], 2);
	hist_free(h);
}

/* The project's fixtures, without a symbolizer: counts and periods. */
Test(hist, session_fp_fixture)
{
	struct perf_err err;
	struct session *s = session_open(test_data("fp.data"), NULL, &err);
	struct hist_opts o;
	struct hist *h;
	const uint32_t *rows;
	uint64_t skipped = 1, sum = 0, added, acc_max = 0;
	size_t n;

	cr_assert_not_null(s, "%s", err.msg);
	memset(&o, 0, sizeof o);
	o.event = -1;
	o.children = true;
	o.callgraph = true;
	o.max_stack = HIST_DEFAULT_MAX_STACK;
	h = hist_new(s, NULL, &o);
	added = hist_add_session(h, &skipped);
	hist_finish(h);
	cr_assert_eq(skipped, 0);
	cr_assert_eq(added, s->counts.by_type[PERF_RECORD_SAMPLE]);
	cr_assert_eq(hist_nevents(h), 1);
	cr_assert_eq(hist_event(h, 0)->nsamples, added);
	n = hist_rows(h, 0, 0, &rows);
	cr_assert_gt(n, 0);
	for (size_t i = 0; i < n; i++) {
		const struct hist_entry *e = hist_entry_get(h, rows[i]);

		sum += e->samples;
		cr_assert_geq(e->acc_period, e->period);
		if (e->acc_period > acc_max)
			acc_max = e->acc_period;
		if (i > 0)
			cr_assert_geq(hist_entry_get(h, rows[i - 1])->acc_period, e->acc_period);
	}
	cr_assert_eq(sum, added);
	cr_assert_leq(acc_max, hist_event(h, 0)->total_period);
	cr_assert_str_eq(hist_str(h, hist_entry_get(h, rows[0])->comm), "cpu");
	hist_free(h);
	session_close(s);
}

/*
 * Two events of one sample_type without PERIOD (periods 250 and 500, ids
 * 100 and 200) and a sample whose id names neither: it decodes with attr
 * 0's layout as event -1 ("unknown") and takes attr 0's period (found by
 * tests/fuzz/fuzz_symbolize: the children pass read the attr table at -1).
 */
Test(hist, sample_of_unknown_event)
{
	static const uint64_t ids[] = { 100, 200, 999 };
	struct pdbuf b;
	struct perf_err err;
	struct session_mem mem;
	struct session *s;
	struct hist_opts o;
	struct hist *h;
	size_t attrs_off, data_off, r;
	uint64_t st = PERF_SAMPLE_IP | PERF_SAMPLE_TID | PERF_SAMPLE_TIME | PERF_SAMPLE_ID;
	int ev;

	memset(&b, 0, sizeof b);
	pd_u64(&b, 0x32454c4946524550ULL);	/* PERFILE2 */
	pd_u64(&b, 104);
	pd_u64(&b, 128 + 16);
	pd_zero(&b, 104 - 24);
	attrs_off = b.len;
	for (int i = 0; i < 2; i++) {
		pd_attr(&b, 128, PERF_TYPE_SOFTWARE, i == 0 ? PERF_COUNT_SW_CPU_CLOCK :
		    PERF_COUNT_SW_TASK_CLOCK, 250 * (uint64_t)(i + 1), st, 0, 0);
		pd_u64(&b, attrs_off + 2 * (128 + 16) + 8 * (size_t)i);	/* its id */
		pd_u64(&b, 8);
	}
	pd_u64(&b, 100);
	pd_u64(&b, 200);
	data_off = b.len;
	for (int i = 0; i < 3; i++) {
		r = pd_rec_begin(&b, PERF_RECORD_SAMPLE, PERF_RECORD_MISC_USER);
		pd_u64(&b, 0x400100);
		pd_u32(&b, 42);
		pd_u32(&b, 42);
		pd_u64(&b, 1000 + (uint64_t)i);
		pd_u64(&b, ids[i]);
		pd_rec_end(&b, r);
	}
	pd_put64(&b, 24, attrs_off);
	pd_put64(&b, 32, 2 * (128 + 16));
	pd_put64(&b, 40, data_off);
	pd_put64(&b, 48, b.len - data_off);
	mem.base = b.p;
	mem.size = b.len;
	s = session_open_mem("unknown-event", &mem, 1, NULL, &err);
	cr_assert_not_null(s, "%s", err.msg);
	cr_assert_eq(s->attrs.n, 2);
	cr_assert_eq(s->counts.by_type[PERF_RECORD_SAMPLE], 3);

	memset(&o, 0, sizeof o);
	o.event = -1;
	o.children = true;	/* the full sample decode */
	o.max_stack = HIST_DEFAULT_MAX_STACK;
	h = hist_new(s, NULL, &o);
	cr_assert_eq(hist_add_session(h, NULL), 3);
	hist_finish(h);
	cr_assert_eq(hist_nevents(h), 3);
	ev = hist_event_find(h, "unknown");
	cr_assert_geq(ev, 0);
	cr_assert_eq(hist_event(h, (size_t)ev)->attr, -1);
	cr_assert_eq(hist_event(h, (size_t)ev)->nsamples, 1);
	cr_assert_eq(hist_event(h, (size_t)ev)->total_period, 250);
	for (size_t i = 0; i < 3; i++)
		if (hist_event(h, i)->attr >= 0)
			cr_assert_eq(hist_event(h, i)->total_period,
			    250 * (uint64_t)(hist_event(h, i)->attr + 1));
	hist_free(h);
	session_close(s);
	pd_free(&b);
}

/* fork.data: a parent that forks two children, one of which execs. */
Test(hist, task_tree_fork_fixture)
{
	struct perf_err err;
	struct session *s = session_open(test_data("fork.data"), NULL, &err);
	struct tasks *tk;
	const struct task_row *rows;
	const struct thread_table *t;
	size_t n;
	uint64_t total = 0;

	cr_assert_not_null(s, "%s", err.msg);
	t = &s->threads;
	tk = tasks_new(s);
	rows = tk->rows;
	n = tk->nrows;
	cr_assert_eq(n, t->n);
	cr_assert_eq(n, 3);
	cr_assert_eq(rows[0].depth, 0);
	cr_assert_eq(rows[0].parent, UINT32_MAX);
	cr_assert(rows[0].leader);
	cr_assert_eq(t->v[rows[0].thread].pid, 26193);
	for (size_t i = 1; i < n; i++) {
		cr_assert_eq(rows[i].depth, 1);
		cr_assert_eq(rows[i].parent, 0);
		cr_assert_eq(t->v[rows[i].thread].ppid, 26193);
		cr_assert_lt(t->v[rows[i - 1].thread].start, t->v[rows[i].thread].start + (i == 1));
	}
	for (size_t i = 0; i < t->n; i++)
		total += t->v[i].samples;
	cr_assert_eq(total, s->counts.by_type[PERF_RECORD_SAMPLE]);
	cr_assert_eq(rows[0].proc_samples, t->v[rows[0].thread].samples);
	/* the parent was perf-exec, then exec'd forkexec */
	cr_assert_str_eq(thread_comm_at(t, rows[0].thread, 0), "perf-exec");
	cr_assert_str_eq(thread_comm_at(t, rows[0].thread, UINT64_MAX), "forkexec");
	tasks_free(tk);
	session_close(s);
}

/* ---- adding a session in slices (the TUI's incremental symbolization) ---- */

struct fold_text {
	char	*s;
	size_t	 len, cap;
};

static int
fold_cat(void *arg, const char *line, uint64_t count)
{
	struct fold_text *t = arg;
	char buf[64];
	size_t l = strlen(line), k = (size_t)snprintf(buf, sizeof buf, " %llu\n",
	    (unsigned long long)count);

	if (t->len + l + k + 1 > t->cap) {
		t->cap = (t->len + l + k + 1) * 2;
		t->s = realloc(t->s, t->cap);
		cr_assert_not_null(t->s);
	}
	memcpy(t->s + t->len, line, l);
	memcpy(t->s + t->len + l, buf, k + 1);
	t->len += l + k;
	return 0;
}

/* Everything a hist answers, the same in a and b. */
static void
assert_same_hists(struct hist *a, struct hist *b, const struct hist_opts *o, const char *what)
{
	const struct hist_why *wa, *wb;
	size_t nwa, nwb;

	cr_assert_eq(hist_nevents(a), hist_nevents(b), "%s: events", what);
	cr_assert_eq(hist_nnodes(a), hist_nnodes(b), "%s: function nodes", what);
	for (size_t ev = 0; ev < hist_nevents(a); ev++) {
		const uint32_t *ra, *rb;
		uint32_t *copy;
		size_t na = hist_rows(a, ev, 0, &ra), nb;
		struct fold_text fa = { 0 }, fb = { 0 };

		cr_assert_eq(hist_event(a, ev)->total_period, hist_event(b, ev)->total_period);
		cr_assert_eq(hist_event(a, ev)->nsamples, hist_event(b, ev)->nsamples);
		copy = calloc(na + 1, sizeof *copy);
		if (na > 0)
			memcpy(copy, ra, na * sizeof *ra);
		nb = hist_rows(b, ev, 0, &rb);
		cr_assert_eq(na, nb, "%s: event %zu: %zu rows, sliced %zu", what, ev, na, nb);
		for (size_t i = 0; i < na; i++) {
			const struct hist_entry *x = hist_entry_get(a, copy[i]), *y = hist_entry_get(b, rb[i]);
			char bx[1024], by[1024];

			cr_assert_eq(x->period, y->period, "%s: row %zu", what, i);
			cr_assert_eq(x->samples, y->samples, "%s: row %zu", what, i);
			cr_assert_eq(x->acc_period, y->acc_period, "%s: row %zu", what, i);
			cr_assert_eq(x->acc_samples, y->acc_samples, "%s: row %zu", what, i);
			for (unsigned k = 0; k < o->nkeys; k++)
				cr_assert_str_eq(hist_key_text(a, x, o->keys[k], bx, sizeof bx),
				    hist_key_text(b, y, o->keys[k], by, sizeof by), "%s: row %zu", what, i);
			if (o->callgraph) {
				size_t ca, cb;
				const struct hist_edge *ea, *eb;
				uint64_t pa = 0, pb = 0;

				ca = hist_callers(a, ev, x->node, &ea);
				for (size_t j = 0; j < ca; j++)
					pa += ea[j].period * (j + 1) + ea[j].caller;
				cb = hist_callers(b, ev, y->node, &eb);
				for (size_t j = 0; j < cb; j++)
					pb += eb[j].period * (j + 1) + eb[j].caller;
				cr_assert_eq(ca, cb, "%s: callers of row %zu", what, i);
				cr_assert_eq(pa, pb, "%s: callers of row %zu", what, i);
			}
		}
		free(copy);
		if (o->callgraph) {
			hist_folded(a, ev, false, fold_cat, &fa);
			hist_folded(b, ev, false, fold_cat, &fb);
			cr_assert_eq(fa.len, fb.len, "%s: folded stacks", what);
			if (fa.len)
				cr_assert_str_eq(fa.s, fb.s, "%s: folded stacks", what);
			free(fa.s);
			free(fb.s);
		}
	}
	nwa = hist_whys(a, &wa);
	nwb = hist_whys(b, &wb);
	cr_assert_eq(nwa, nwb, "%s: why counts", what);
	if (nwa > 0)
		cr_assert_eq(memcmp(wa, wb, nwa * sizeof *wa), 0, "%s: why counts", what);
}

static struct hist *
session_hist(struct session *s, struct symbolizer *z, const struct hist_opts *o, size_t slice,
    uint64_t *nadded)
{
	struct hist *h = hist_new(s, z, o);
	uint64_t added = 0, skipped, bad = 0;

	if (slice == 0) {
		added = hist_add_session(h, &bad);
	} else {
		for (size_t i = 0; i < s->index.n; i += slice) {
			added += hist_add_range(h, i, i + slice, &skipped);
			bad += skipped;
			if (i == s->index.n / 2)
				hist_peek(h);	/* reading midway changes nothing */
		}
	}
	*nadded = added * 1000003 + bad;
	hist_finish(h);
	return h;
}

Test(hist, add_range_in_slices_equals_add_session)
{
	const char *fx[] = { "fp.data", "dwarf.data", "multi.data", "pipe.data", "zstd.data",
		"switch.data", "fork.data" };
	const size_t slices[] = { 1, 7, 4096 };
	char bdir[4096];

	snprintf(bdir, sizeof bdir, "%s", test_data("buildid"));
	for (size_t f = 0; f < sizeof fx / sizeof fx[0]; f++) {
		struct perf_err err;
		struct session *s = session_open(test_data(fx[f]), NULL, &err);
		struct sym_opts so = { .buildid_dir = bdir, .kallsyms = "/dev/null" };
		struct hist_opts o;

		cr_assert_not_null(s, "%s: %s", fx[f], err.msg);
		memset(&o, 0, sizeof o);
		o.event = -1;
		o.children = true;
		o.callgraph = true;
		o.max_stack = HIST_DEFAULT_MAX_STACK;
		o.keys[0] = HIST_KEY_COMM;
		o.keys[1] = HIST_KEY_DSO;
		o.keys[2] = HIST_KEY_SYM;
		o.nkeys = 3;
		for (size_t k = 0; k < sizeof slices / sizeof slices[0]; k++) {
			struct symbolizer *za = symbolizer_new(s, &so), *zb = symbolizer_new(s, &so);
			uint64_t na, nb;
			struct hist *a = session_hist(s, za, &o, 0, &na);
			struct hist *b = session_hist(s, zb, &o, slices[k], &nb);
			char what[128];

			snprintf(what, sizeof what, "%s in slices of %zu", fx[f], slices[k]);
			cr_assert_eq(na, nb, "%s: samples added and skipped", what);
			assert_same_hists(a, b, &o, what);
			hist_free(a);
			hist_free(b);
			symbolizer_free(za);
			symbolizer_free(zb);
		}
		session_close(s);
	}
}

/* A hist keyed comm,tid,dso,sym merged to comm,dso,sym is perf's table. */
Test(hist, merged_rows_equal_coarser_keys)
{
	struct perf_err err;
	struct session *s = session_open(test_data("fp.data"), NULL, &err);
	char bdir[4096];
	struct sym_opts so = { .kallsyms = "/dev/null" };
	struct symbolizer *z;
	struct hist_opts o, ot;
	struct hist *h, *ht;
	const uint32_t *rows;
	const struct hist_entry *const *m;
	size_t n, nm;
	uint64_t by_pos = 0;
	struct hist_select sel;

	cr_assert_not_null(s, "%s", err.msg);
	snprintf(bdir, sizeof bdir, "%s", test_data("buildid"));
	so.buildid_dir = bdir;
	z = symbolizer_new(s, &so);
	memset(&o, 0, sizeof o);
	o.event = -1;
	o.children = true;
	o.max_stack = HIST_DEFAULT_MAX_STACK;
	ot = o;
	ot.keys[0] = HIST_KEY_COMM;
	ot.keys[1] = HIST_KEY_TID;
	ot.keys[2] = HIST_KEY_DSO;
	ot.keys[3] = HIST_KEY_SYM;
	ot.nkeys = 4;
	ot.record_self = true;
	h = hist_new(s, z, &o);
	ht = hist_new(s, z, &ot);
	hist_add_session(h, NULL);
	hist_finish(h);
	hist_add_session(ht, NULL);
	hist_finish(ht);
	n = hist_rows(h, 0, 0, &rows);
	nm = hist_rows_merged(ht, 0, NULL, HIST_KEEP(HIST_KEY_COMM) | HIST_KEEP(HIST_KEY_DSO) |
	    HIST_KEEP(HIST_KEY_SYM), 0, &m);
	cr_assert_eq(n, nm);
	cr_assert_eq(n, 19, "perf report's 19 rows");
	for (size_t i = 0; i < n; i++) {
		const struct hist_entry *e = hist_entry_get(h, rows[i]);
		char b1[512], b2[512];

		cr_assert_eq(e->period, m[i]->period, "row %zu", i);
		cr_assert_eq(e->acc_period, m[i]->acc_period, "row %zu", i);
		cr_assert_eq(e->samples, m[i]->samples, "row %zu", i);
		cr_assert_str_eq(hist_key_text(h, e, HIST_KEY_SYM, b1, sizeof b1),
		    hist_key_text(ht, m[i], HIST_KEY_SYM, b2, sizeof b2), "row %zu", i);
		cr_assert_str_eq(hist_key_text(h, e, HIST_KEY_DSO, b1, sizeof b1),
		    hist_key_text(ht, m[i], HIST_KEY_DSO, b2, sizeof b2), "row %zu", i);
	}
	/* one thread: its samples; a thread that does not exist: nothing */
	memset(&sel, 0, sizeof sel);
	sel.by_tid = true;
	sel.tid = m[0]->tid;
	nm = hist_rows_merged(ht, 0, &sel, HIST_KEEP(HIST_KEY_SYM), 0, &m);
	cr_assert_gt(nm, 0);
	sel.tid = 999999;
	cr_assert_eq(hist_rows_merged(ht, 0, &sel, HIST_KEEP(HIST_KEY_SYM), 0, &m), 0);
	/* DSOs: self sums */
	nm = hist_rows_merged(ht, 0, NULL, HIST_KEEP(HIST_KEY_DSO), 0, &m);
	cr_assert_geq(nm, 3);
	{
		uint64_t sum = 0;

		for (size_t i = 0; i < nm; i++)
			sum += m[i]->samples;
		cr_assert_eq(sum, hist_event(ht, 0)->nsamples);
	}
	/* each sample's own entry */
	for (size_t i = 0; i < s->index.n; i++) {
		uint32_t id = hist_sample_entry(ht, i);

		if (ent_type(&s->index.v[i]) != PERF_RECORD_SAMPLE) {
			cr_assert_eq(id, UINT32_MAX);
			continue;
		}
		cr_assert_neq(id, UINT32_MAX);
		cr_assert_gt(hist_entry_get(ht, id)->samples, 0);
		by_pos++;
	}
	cr_assert_eq(by_pos, hist_event(ht, 0)->nsamples);
	cr_assert_eq(hist_sample_entry(h, 0), UINT32_MAX, "record_self off");
	hist_free(h);
	hist_free(ht);
	symbolizer_free(z);
	session_close(s);
}

/* ---- two hists over two parts of a session, merged (perfnav top's parallel pass) ---- */

/* One pass over s, or two hists over [0, mid) and [mid, n) merged. */
static struct hist *
split_hist(struct session *s, const struct sym_opts *so, const struct hist_opts *o, size_t mid,
    struct symbolizer **zp)
{
	struct symbolizer *z2;
	struct hist *h, *h2;

	*zp = symbolizer_new(s, so);
	h = hist_new(s, *zp, o);
	if (mid == SIZE_MAX) {
		hist_add_session(h, NULL);
		hist_finish(h);
		return h;
	}
	z2 = symbolizer_new(s, so);
	h2 = hist_new(s, z2, o);
	hist_add_range(h2, mid, s->index.n, NULL);
	hist_add_range(h, 0, mid, NULL);
	cr_assert_eq(hist_merge(h, h2), 0, "hist_merge refused");
	hist_free(h2);
	symbolizer_free(z2);
	hist_finish(h);
	return h;
}

Test(hist, split_and_merged_equals_one_pass)
{
	const char *fx[] = { "fp.data", "plain.data", "multi.data", "fork.data", "dwarf.data",
		"pipe.data", "dir.data", "zstd.data", "group.data", "switch.data",
		"tracepoint.data" };
	const struct {
		const char	*keys;
		bool		 children;
	} cfg[] = {
		{ "comm,dso,sym", false }, { "comm,dso,sym", true }, { "sym", false },
		{ "sym", true }, { "pid,cpu,srcline", false }, { "process,dso", true },
	};
	char bdir[4096];

	snprintf(bdir, sizeof bdir, "%s", test_data("buildid"));
	for (size_t f = 0; f < sizeof fx / sizeof fx[0]; f++) {
		struct perf_err err;
		struct session *s = session_open(test_data(fx[f]), NULL, &err);
		struct sym_opts so = { .buildid_dir = bdir, .kallsyms = "/dev/null" };
		size_t n;

		cr_assert_not_null(s, "%s: %s", fx[f], err.msg);
		n = s->index.n;
		for (size_t c = 0; c < sizeof cfg / sizeof cfg[0]; c++) {
			const size_t mids[] = { 0, 1, n / 3, n / 2, n - n / 4, n > 0 ? n - 1 : 0, n };
			struct hist_opts o;
			const char *bad;
			size_t badlen;
			int nk;

			memset(&o, 0, sizeof o);
			nk = hist_parse_keys(cfg[c].keys, o.keys, &bad, &badlen);
			cr_assert_gt(nk, 0);
			o.nkeys = (unsigned)nk;
			o.event = -1;
			o.children = cfg[c].children;
			o.max_stack = HIST_DEFAULT_MAX_STACK;
			if (strcmp(fx[f], "dwarf.data") == 0 && strcmp(cfg[c].keys, "sym") == 0 &&
			    cfg[c].children) {
				/* perf's entry tree (user stacks, inlined frames): its
				 * entries depend on the order of every sample, so hists
				 * of two parts do not merge. */
				struct symbolizer *za = symbolizer_new(s, &so), *zb = symbolizer_new(s, &so);
				struct hist *a = hist_new(s, za, &o), *b = hist_new(s, zb, &o);

				hist_add_range(a, 0, n / 2, NULL);
				hist_add_range(b, n / 2, n, NULL);
				cr_assert_eq(hist_merge(a, b), -1, "dwarf.data: sym children merged");
				hist_free(a);
				hist_free(b);
				symbolizer_free(za);
				symbolizer_free(zb);
				continue;
			}
			for (size_t m = 0; m < sizeof mids / sizeof mids[0]; m++) {
				struct symbolizer *za, *zb;
				struct hist *a = split_hist(s, &so, &o, SIZE_MAX, &za);
				struct hist *b = split_hist(s, &so, &o, mids[m], &zb);
				char what[160];

				snprintf(what, sizeof what, "%s, %s%s, split at %zu of %zu", fx[f],
				    cfg[c].keys, cfg[c].children ? " (children)" : "", mids[m], n);
				assert_same_hists(a, b, &o, what);
				for (size_t ev = 0; ev < hist_nevents(a); ev++) {
					const uint32_t *ra, *rb;
					uint32_t *copy;
					size_t na = hist_rows(a, ev, 0, &ra);

					cr_assert_eq(hist_event(a, ev)->comm_width,
					    hist_event(b, ev)->comm_width, "%s: comm width", what);
					cr_assert_str_eq(hist_str(a, hist_event(a, ev)->name),
					    hist_str(b, hist_event(b, ev)->name), "%s: event name", what);
					copy = calloc(na + 1, sizeof *copy);
					if (na > 0)
						memcpy(copy, ra, na * sizeof *ra);
					cr_assert_eq(hist_rows(b, ev, 0, &rb), na);
					for (size_t i = 0; i < na; i++) {
						const struct hist_entry *x = hist_entry_get(a, copy[i]);
						const struct hist_entry *y = hist_entry_get(b, rb[i]);

						cr_assert_str_eq(hist_str(a, x->label_comm),
						    hist_str(b, y->label_comm), "%s: row %zu", what, i);
						cr_assert_eq(x->label_tid, y->label_tid, "%s: row %zu", what, i);
					}
					free(copy);
				}
				hist_free(a);
				hist_free(b);
				symbolizer_free(za);
				symbolizer_free(zb);
			}
		}
		session_close(s);
	}
}

/* What does not merge is refused, and leaves the hist as it was. */
Test(hist, merge_refuses_what_does_not_merge)
{
	struct hist *a = mk("comm,dso,sym", true, true), *b = mk("comm,dso,sym", true, true);
	struct hist *c = mk("comm,sym", true, false), *d = mk("comm,dso,sym", true, false);
	struct frame f[2] = { fr(1, 2, 0x1100), fr(1, 3, 0x1200) };

	add(b, 0, "x", 1, 10, f, 2);
	cr_assert_eq(hist_merge(a, b), -1, "call graphs do not merge");
	cr_assert_eq(hist_merge(c, d), -1, "other keys");
	add(d, 0, "x", 1, 10, f, 2);
	cr_assert_eq(hist_merge(d, d), -1, "itself");
	hist_finish(c);
	hist_free(a);
	hist_free(b);
	hist_free(c);
	hist_free(d);
}

/* ---- perf's entry tree (symbolize/perftree.c and its use in hist.c) ---- */

#include "symbolize/perftree.h"

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
	f = fr(x->dso, sym, 0);
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
