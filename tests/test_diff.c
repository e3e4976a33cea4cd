/*
 * test_diff.c: perf diff's model (symbolize/diff.h) over byte-built hists:
 * pairing by key text, each formula, unmatched entries, event pairing,
 * perf's row orders, -b and -o.
 */
#include "config.h"

#include <criterion/criterion.h>
#include <stdio.h>
#include <string.h>

#include "symbolize/diff.h"
#include "tests/hist_helpers.h"

/* One sample of event name at symbol sym of DSO 1 (SYM_NONE: unresolved at ip). */
static void
add(struct hist *h, int attr, const char *event, uint32_t sym, uint64_t ip, uint64_t period)
{
	struct frame f = hh_frame(1, sym, ip);
	struct hist_sample s = {
		.attr = attr, .event_name = event, .comm = "w", .pid = 1, .tid = 1,
		.period = period, .self = &f, .chain = &f, .nchain = 1,
	};

	hist_add(h, &s);
}

/*
 * The baseline: s1 600, s2 300, s3 100 (total 1000); the other file:
 * s1 200, s2 600, s4 200 (total 1000).
 */
static void
two_files(struct hist **h)
{
	h[0] = hh_new("dso,sym", false, false);
	h[1] = hh_new("dso,sym", false, false);
	add(h[0], 0, "cpu-clock", 1, 0x1100, 600);
	add(h[0], 0, "cpu-clock", 2, 0x1200, 300);
	add(h[0], 0, "cpu-clock", 3, 0x1300, 100);
	add(h[1], 0, "cpu-clock", 1, 0x2100, 200);	/* other addresses: paired by name */
	add(h[1], 0, "cpu-clock", 2, 0x2200, 600);
	add(h[1], 0, "cpu-clock", 4, 0x2400, 200);
	hist_finish(h[0]);
	hist_finish(h[1]);
}

static struct diff *
make(struct hist **h, size_t n, enum diff_compute c, unsigned order)
{
	struct diff_opts o = { .compute = c, .w1 = 1, .w2 = 2, .order = order };
	struct diff *d = diff_new(h, n, &o);

	cr_assert_not_null(d);
	return d;
}

/* The symbol texts of event ev's rows, in order, joined by spaces. */
static void
order_of(const struct diff *d, size_t ev, char *buf, size_t n)
{
	const struct diff_event *de = diff_event(d, ev);
	size_t l = 0;

	buf[0] = '\0';
	for (size_t r = 0; r < de->nrows && l < n; r++)
		l += (size_t)snprintf(buf + l, n - l, "%s%s", r ? " " : "", de->rows[r].key[1] + 4);
}

static const struct diff_row *
row(const struct diff *d, size_t ev, const char *sym)
{
	const struct diff_event *de = diff_event(d, ev);

	for (size_t r = 0; r < de->nrows; r++)
		if (strcmp(de->rows[r].key[1] + 4, sym) == 0)
			return &de->rows[r];
	return NULL;
}

static void
free_all(struct diff *d, struct hist **h, size_t n)
{
	diff_free(d);
	for (size_t i = 0; i < n; i++)
		hist_free(h[i]);
}

Test(diff, pairs_by_name_and_computes_perfs_columns)
{
	struct hist *h[2];
	struct diff *d;
	const struct diff_row *r;

	two_files(h);
	d = make(h, 2, DIFF_DELTA_ABS, 1);
	cr_assert_eq(diff_nevents(d), 1);
	cr_assert_eq(diff_event(d, 0)->nrows, 4);
	r = row(d, 0, "s1");
	cr_assert(r->cell[0].present && r->cell[1].present && !r->dummy);
	cr_assert_float_eq(r->cell[0].pct, 60.0, 1e-9);
	cr_assert_float_eq(r->cell[1].delta, -40.0, 1e-9);
	cr_assert_float_eq(r->cell[1].ratio, 200.0 / 600.0, 1e-12);
	cr_assert_eq(r->cell[1].wdiff, 200 * 2 - 600 * 1);
	/* only in the baseline: no value */
	r = row(d, 0, "s3");
	cr_assert(r->cell[0].present && !r->cell[1].present);
	/* only in the other file: a dummy, its baseline period 0 (perf's ratio over 1) */
	r = row(d, 0, "s4");
	cr_assert(r->dummy && !r->cell[0].present);
	cr_assert_eq(r->cell[0].period, 0);
	cr_assert_float_eq(r->cell[1].delta, 20.0, 1e-9);
	cr_assert_float_eq(r->cell[1].ratio, 200.0, 1e-9);
	cr_assert_eq(r->cell[1].wdiff, 400);
	free_all(d, h, 2);
}

Test(diff, rows_sort_as_perf_in_each_mode)
{
	static const struct {
		enum diff_compute c;
		unsigned order;
		const char *want;
	} t[] = {
		{ DIFF_DELTA_ABS, 1, "s1 s2 s4 s3" },	/* |delta| down, unpaired last */
		{ DIFF_DELTA, 1, "s2 s4 s1 s3" },	/* delta down, the dummy among them */
		{ DIFF_RATIO, 1, "s2 s1 s4 s3" },	/* ratio down, dummies after */
		{ DIFF_WDIFF, 1, "s2 s1 s4 s3" },
		{ DIFF_DELTA_ABS, 0, "s1 s2 s3 s4" },	/* -o 0: the baseline's period */
	};

	for (size_t i = 0; i < sizeof t / sizeof t[0]; i++) {
		struct hist *h[2];
		struct diff *d;
		char buf[64];

		two_files(h);
		d = make(h, 2, t[i].c, t[i].order);
		order_of(d, 0, buf, sizeof buf);
		cr_expect_str_eq(buf, t[i].want, "mode %d -o %u", t[i].c, t[i].order);
		free_all(d, h, 2);
	}
}

Test(diff, percents_are_of_each_files_total)
{
	struct hist *h[2];
	struct diff *d;
	const struct diff_row *r;

	h[0] = hh_new("dso,sym", false, false);
	h[1] = hh_new("dso,sym", false, false);
	add(h[0], 0, "cpu-clock", 1, 0x1100, 250);
	add(h[0], 0, "cpu-clock", 2, 0x1200, 750);
	add(h[1], 0, "cpu-clock", 1, 0x1100, 500);	/* twice the samples, same shares */
	add(h[1], 0, "cpu-clock", 2, 0x1200, 1500);
	hist_finish(h[0]);
	hist_finish(h[1]);
	d = make(h, 2, DIFF_DELTA, 1);
	r = row(d, 0, "s1");
	cr_assert_eq(diff_event(d, 0)->total[1], 2000);
	cr_assert_float_eq(r->cell[1].pct, 25.0, 1e-9);
	cr_assert_float_eq(r->cell[1].delta, 0.0, 1e-9);
	cr_assert_float_eq(r->cell[1].ratio, 2.0, 1e-9);
	free_all(d, h, 2);
}

Test(diff, events_pair_by_name_or_without_modifiers)
{
	struct hist *h[2];
	struct diff *d;
	const struct diff_event *de;

	h[0] = hh_new("dso,sym", false, false);
	h[1] = hh_new("dso,sym", false, false);
	add(h[0], 0, "cpu-clock", 1, 0x1100, 100);
	add(h[0], 1, "sched:sched_switch", 1, 0x1100, 1);
	add(h[1], 0, "cpu-clock:u", 1, 0x1100, 100);	/* perf pairs it: same type, config */
	add(h[1], 1, "sched:sched_wakeup", 1, 0x1100, 1);	/* not a modifier: another event */
	hist_finish(h[0]);
	hist_finish(h[1]);
	d = make(h, 2, DIFF_DELTA_ABS, 1);
	cr_assert_eq(diff_nevents(d), 3);
	de = diff_event(d, 0);
	cr_assert_str_eq(de->name, "cpu-clock");	/* the baseline's name */
	cr_assert(de->in[0] && de->in[1]);
	cr_assert(de->rows[0].cell[1].present);
	de = diff_event(d, 1);
	cr_assert_str_eq(de->name, "sched:sched_switch");
	cr_assert(de->in[0] && !de->in[1]);
	cr_assert(!de->rows[0].cell[1].present);
	de = diff_event(d, 2);
	cr_assert_str_eq(de->name, "sched:sched_wakeup");
	cr_assert(!de->in[0] && de->in[1]);
	cr_assert(de->rows[0].dummy);
	free_all(d, h, 2);
}

Test(diff, unresolved_addresses_of_a_dso_are_one_row)
{
	struct hist *h[2];
	struct diff *d;
	const struct diff_event *de;
	const struct diff_row *r = NULL;

	h[0] = hh_new("dso,sym", false, false);
	h[1] = hh_new("dso,sym", false, false);
	add(h[0], 0, "cpu-clock", SYM_NONE, 0x1380, 300);
	add(h[0], 0, "cpu-clock", SYM_NONE, 0x1340, 100);
	add(h[0], 0, "cpu-clock", 1, 0x1100, 600);
	add(h[1], 0, "cpu-clock", SYM_NONE, 0x5550, 500);	/* ASLR: elsewhere */
	add(h[1], 0, "cpu-clock", 1, 0x1100, 500);
	hist_finish(h[0]);
	hist_finish(h[1]);
	d = make(h, 2, DIFF_DELTA_ABS, 1);
	de = diff_event(d, 0);
	cr_assert_eq(de->nrows, 2);
	for (size_t i = 0; i < de->nrows; i++)
		if (de->rows[i].sym_none)
			r = &de->rows[i];
	cr_assert_not_null(r);
	cr_assert_str_eq(r->key[1], "[.] 0x0000000000000340");	/* the baseline's lowest */
	cr_assert_eq(r->cell[0].period, 400);
	cr_assert(r->cell[1].present);
	cr_assert_float_eq(r->cell[1].delta, 50.0 - 40.0, 1e-9);
	free_all(d, h, 2);
}

Test(diff, baseline_only_sums_the_baseline_anew)
{
	struct hist *h[2];
	struct diff_opts o = { .compute = DIFF_DELTA_ABS, .order = 1, .baseline_only = true };
	struct diff *d;
	const struct diff_event *de;
	const struct diff_row *r;

	two_files(h);
	d = diff_new(h, 2, &o);
	cr_assert_not_null(d);
	de = diff_event(d, 0);
	cr_assert_eq(de->nrows, 2);	/* s1, s2: s3 has no pair, s4 no baseline */
	cr_assert_eq(de->total[0], 900);
	r = row(d, 0, "s1");
	cr_assert_float_eq(r->cell[0].pct, 600.0 * 100 / 900, 1e-9);
	cr_assert_float_eq(r->cell[1].delta, -40.0, 1e-9);	/* of the whole, as perf */
	free_all(d, h, 2);
}

Test(diff, three_files_and_order)
{
	struct hist *h[3];
	struct diff *d;
	const struct diff_row *r;
	char buf[64];

	two_files(h);
	h[2] = hh_new("dso,sym", false, false);
	add(h[2], 0, "cpu-clock", 3, 0x3300, 900);
	add(h[2], 0, "cpu-clock", 1, 0x3100, 100);
	hist_finish(h[2]);
	d = make(h, 3, DIFF_RATIO, 2);
	r = row(d, 0, "s3");
	cr_assert(!r->cell[1].present && r->cell[2].present);
	cr_assert_float_eq(r->cell[2].ratio, 9.0, 1e-9);
	/* file 2's column first (rows it has, by ratio), then the baseline's period */
	order_of(d, 0, buf, sizeof buf);
	cr_assert_str_eq(buf, "s3 s1 s2 s4");
	free_all(d, h, 3);
}

Test(diff, refuses_bad_arguments)
{
	struct hist *h[2];
	struct diff_opts o = { .compute = DIFF_DELTA, .order = 2 };

	two_files(h);
	cr_assert_null(diff_new(h, 2, &o));	/* -o past the files */
	o.order = 1;
	cr_assert_null(diff_new(h, 1, &o));
	hist_free(h[1]);
	h[1] = hh_new("sym", false, false);	/* other keys */
	hist_finish(h[1]);
	cr_assert_null(diff_new(h, 2, &o));
	hist_free(h[0]);
	hist_free(h[1]);
}
