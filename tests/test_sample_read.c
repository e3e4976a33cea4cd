/*
 * test_sample_read: samples with READ values delivered per value, as perf
 * delivers them (core/sample_read.h), on leader.data (perf record -e
 * '{task-clock,cpu-clock}:S': task-clock's samples carry both counts).
 * That perf counts them so is tests/cli.sh's (expected/leader.data.stats.txt).
 */
#include "config.h"

#include <criterion/criterion.h>
#include <linux/perf_event.h>
#include <string.h>

#include "core/core.h"
#include "core/sample_read.h"
#include "tests/helpers.h"

struct walk {
	struct session		*s;
	struct read_state	 st;
	uint64_t		 sum[2], last[2], delivered[2], records;
};

static int
on_rec(void *arg, const struct rec *r, int depth)
{
	struct walk *w = arg;
	struct read_delivery d[8];
	struct read_value v[8];
	struct sample smp;
	const char *why;
	size_t n, nv;

	(void)depth;
	if (r->type != PF_REC_SAMPLE || record_decode_sample(session_attrs(w->s), r, &smp, &why) < 0)
		return 0;
	w->records++;
	cr_assert_eq(smp.attr, 0, "only the leader samples");
	nv = sample_read_values(&smp, v, 8);
	cr_assert_eq(nv, 2, "both counts in each sample");
	n = read_deliver(w->s, &w->st, &smp, d, 8);
	for (size_t i = 0; i < n; i++) {
		cr_assert(d[i].attr == 0 || d[i].attr == 1);
		cr_assert_gt(d[i].period, 0, "nothing delivered for a count that did not grow");
		w->sum[d[i].attr] += d[i].period;
		w->delivered[d[i].attr]++;
	}
	for (size_t i = 0; i < nv; i++)
		w->last[attr_table_find_id(session_attrs(w->s), v[i].id)] = v[i].value;
	return 0;
}

Test(sample_read, leader_sampling_delivers_each_member)
{
	struct perf_err err;
	struct walk w;

	memset(&w, 0, sizeof w);
	w.s = session_open(test_data("leader.data"), NULL, &err);
	cr_assert_not_null(w.s, "%s", err.msg);
	cr_assert(session_has_read_samples(w.s));
	session_walk(w.s, on_rec, &w);
	cr_assert_gt(w.records, 10);
	for (int a = 0; a < 2; a++) {
		/* the periods add up to the last count: each grew by what it delivered */
		cr_assert_eq(w.sum[a], w.last[a], "attr %d: %lu vs %lu", a, (unsigned long)w.sum[a],
		    (unsigned long)w.last[a]);
		cr_assert_eq(session_attr_counts(w.s, (size_t)a)->by_type[PF_REC_SAMPLE],
		    w.delivered[a], "attr %d counted as delivered", a);
	}
	read_state_free(&w.st);
	session_close(w.s);
}

/* A recording without READ values delivers nothing of this kind. */
Test(sample_read, plain_samples_have_no_values)
{
	struct perf_err err;
	struct session *s = session_open(test_data("fp.data"), NULL, &err);

	cr_assert_not_null(s, "%s", err.msg);
	cr_assert_not(session_has_read_samples(s));
	session_close(s);
}
