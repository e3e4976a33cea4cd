/* Tests of symbolize/filter.c: perf's --time, --cpu, --pid, --tid, --comms. */

#include "config.h"

#include <criterion/criterion.h>
#include <stdint.h>

#include "symbolize/filter.h"

#define S(x) ((uint64_t)(x)*UINT64_C(1000000000))

static void
want_ranges(const struct hist_filter *f, size_t n, const uint64_t *se)
{
	cr_assert_eq(f->ntime, n);
	for (size_t i = 0; i < n; i++) {
		cr_expect_eq(f->time[i].start, se[2 * i], "range %zu start %llu, want %llu", i,
		    (unsigned long long)f->time[i].start, (unsigned long long)se[2 * i]);
		cr_expect_eq(f->time[i].end, se[2 * i + 1], "range %zu end %llu, want %llu", i,
		    (unsigned long long)f->time[i].end, (unsigned long long)se[2 * i + 1]);
	}
}

Test(filter, absolute_ranges)
{
	struct hist_filter f = { 0 };

	cr_assert_eq(filter_parse_time(&f, "12.5,13", 0, 0), 0);
	want_ranges(&f, 1, (uint64_t[]){ S(12) + 500000000, S(13) });
	cr_assert_eq(filter_parse_time(&f, "418.001992,418.021513", 0, 0), 0);
	want_ranges(&f, 1, (uint64_t[]){ S(418) + 1992000, S(418) + 21513000 });
	cr_assert_eq(filter_parse_time(&f, "1.123456789,", 0, 0), 0);
	want_ranges(&f, 1, (uint64_t[]){ S(1) + 123456789, 0 });
	cr_assert_eq(filter_parse_time(&f, ",7", 0, 0), 0);
	want_ranges(&f, 1, (uint64_t[]){ 0, S(7) });
	cr_assert_eq(filter_parse_time(&f, ",", 0, 0), 0);
	want_ranges(&f, 1, (uint64_t[]){ 0, 0 });
	/* several: perf's space-separated form, and pairs of a comma list */
	cr_assert_eq(filter_parse_time(&f, "1,2 3,4", 0, 0), 0);
	want_ranges(&f, 2, (uint64_t[]){ S(1), S(2), S(3), S(4) });
	cr_assert_eq(filter_parse_time(&f, "1,2,3,4,5,", 0, 0), 0);
	want_ranges(&f, 3, (uint64_t[]){ S(1), S(2), S(3), S(4), S(5), 0 });
	filter_free(&f);
	cr_expect_eq(f.ntime, 0);
}

Test(filter, bad_absolute)
{
	static const char *const bad[] = {
		"", "5", "x,1", "1,x", "2,1", "1.1234567891,2", "1,2,3", "1,2 3", "1,3 2,4",
		"1,2 2,3", "1,2,", "-1,2", "1.2.3,4", " ", "1,2 ,",
	};
	struct hist_filter f = { 0 };

	cr_assert_eq(filter_parse_time(&f, "1,2", 0, 0), 0);
	for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
		cr_expect_eq(filter_parse_time(&f, bad[i], 0, 0), -1, "'%s' accepted", bad[i]);
		/* a refused value leaves what was there */
		want_ranges(&f, 1, (uint64_t[]){ S(1), S(2) });
	}
	filter_free(&f);
}

/* Percents over [1000, 2000], as perf's set_percent_time rounds and trims them. */
Test(filter, percents)
{
	struct hist_filter f = { 0 };

	cr_assert_eq(filter_parse_time(&f, "10%/2", 1000, 2000), 0);
	want_ranges(&f, 1, (uint64_t[]){ 1100, 1199 });
	cr_assert_eq(filter_parse_time(&f, "10%/2,10%/3", 1000, 2000), 0);
	want_ranges(&f, 2, (uint64_t[]){ 1100, 1199, 1200, 1299 });
	cr_assert_eq(filter_parse_time(&f, "0%-10%,30%-40%", 1000, 2000), 0);
	want_ranges(&f, 2, (uint64_t[]){ 1000, 1099, 1300, 1399 });
	cr_assert_eq(filter_parse_time(&f, "25%", 1000, 2000), 0);
	want_ranges(&f, 1, (uint64_t[]){ 1000, 1249 });
	/* a range up to the last sample keeps it */
	cr_assert_eq(filter_parse_time(&f, "50%-100%", 1000, 2000), 0);
	want_ranges(&f, 1, (uint64_t[]){ 1500, 2000 });
	cr_assert_eq(filter_parse_time(&f, "50%/2", 1000, 2000), 0);
	want_ranges(&f, 1, (uint64_t[]){ 1500, 2000 });
	/* rounding: a third of 1000 */
	cr_assert_eq(filter_parse_time(&f, "33.3333%/2", 0, 1000), 0);
	want_ranges(&f, 1, (uint64_t[]){ 333, 666 });
	filter_free(&f);
}

Test(filter, bad_percents)
{
	static const char *const bad[] = {
		"150%", "0%", "10%/0", "10%/x", "10%/", "0%/1", "10%/2,0%-10%", "10%-20", "10-20%",
		"10%,20%", "%", "x%", "10%x", "50%-150%", "10%/11", "-10%/1", "10%-",
	};
	struct hist_filter f = { 0 };

	for (size_t i = 0; i < sizeof bad / sizeof *bad; i++)
		cr_expect_eq(filter_parse_time(&f, bad[i], 1000, 2000), -1, "'%s' accepted", bad[i]);
	cr_expect_eq(f.ntime, 0);
	filter_free(&f);
}

Test(filter, time_matching)
{
	struct hist_filter f = { 0 };

	cr_expect(filter_time_ok(&f, 5), "no ranges: everything");
	cr_expect(filter_time_ok(NULL, 5));
	cr_assert_eq(filter_parse_time(&f, "1,2", 0, 0), 0);
	cr_expect(!filter_time_ok(&f, S(1) - 1));
	cr_expect(filter_time_ok(&f, S(1)));
	cr_expect(filter_time_ok(&f, S(2)));
	cr_expect(!filter_time_ok(&f, S(2) + 1));
	cr_expect(filter_time_ok(&f, 0), "a sample without a time is in");
	cr_assert_eq(filter_parse_time(&f, "1,", 0, 0), 0);
	cr_expect(filter_time_ok(&f, S(1000)));
	cr_expect(!filter_time_ok(&f, S(1) - 1));
	cr_assert_eq(filter_parse_time(&f, "1,2 3,", 0, 0), 0);
	cr_expect(filter_time_ok(&f, S(1)));
	cr_expect(!filter_time_ok(&f, S(2) + 1));
	cr_expect(filter_time_ok(&f, S(3)));
	cr_expect(filter_time_ok(&f, S(99)));
	cr_expect(filter_sample_ok(&f, S(3), true, 7));
	cr_expect(!filter_sample_ok(&f, S(2) + 5, true, 7));
	filter_free(&f);
}

Test(filter, cpus)
{
	static const char *const bad[] = { "", "a", "1,", ",1", "2-1", "1-", "-1", "70000", "1 2", "1-x" };
	struct hist_filter f = { 0 };

	cr_assert_eq(filter_parse_cpus(&f, "0-2,4"), 0);
	cr_assert_eq(f.ncpus, 4);
	cr_expect(f.cpus[0] == 0 && f.cpus[1] == 1 && f.cpus[2] == 2 && f.cpus[3] == 4);
	for (size_t i = 0; i < sizeof bad / sizeof *bad; i++)
		cr_expect_eq(filter_parse_cpus(&f, bad[i]), -1, "'%s' accepted", bad[i]);
	cr_expect_eq(f.ncpus, 4);
	cr_expect(filter_sample_ok(&f, 0, true, 4));
	cr_expect(!filter_sample_ok(&f, 0, true, 3));
	cr_expect(!filter_sample_ok(&f, 0, false, 0), "a sample without a cpu is out");
	cr_expect(filter_entry_ok(&f, 1, 1, "x"), "cpus do not touch rows");
	filter_free(&f);
}

Test(filter, ids_and_comms)
{
	static const char *const bad_ids[] = { "", "x", "1,,2", "-3", "1,", "1-2", "99999999999" };
	static const char *const bad_comms[] = { "", "a,,b", ",a", "a," };
	struct hist_filter f = { 0 };

	cr_assert_eq(filter_parse_pids(&f, "10,20"), 0);
	cr_assert_eq(f.npids, 2);
	for (size_t i = 0; i < sizeof bad_ids / sizeof *bad_ids; i++) {
		cr_expect_eq(filter_parse_pids(&f, bad_ids[i]), -1, "pids '%s' accepted", bad_ids[i]);
		cr_expect_eq(filter_parse_tids(&f, bad_ids[i]), -1, "tids '%s' accepted", bad_ids[i]);
	}
	for (size_t i = 0; i < sizeof bad_comms / sizeof *bad_comms; i++)
		cr_expect_eq(filter_parse_comms(&f, bad_comms[i]), -1, "comms '%s' accepted",
		    bad_comms[i]);
	cr_expect(filter_entry_ok(&f, 10, 11, NULL));
	cr_expect(filter_entry_ok(&f, 20, 21, "a"));
	cr_expect(!filter_entry_ok(&f, 30, 10, "a"));
	cr_assert_eq(filter_parse_tids(&f, "11"), 0);
	cr_expect(filter_entry_ok(&f, 10, 11, NULL));
	cr_expect(!filter_entry_ok(&f, 10, 12, NULL));
	cr_assert_eq(filter_parse_comms(&f, "cpu,perf-exec"), 0);
	cr_assert_eq(f.ncomms, 2);
	cr_expect(filter_entry_ok(&f, 10, 11, "perf-exec"));
	cr_expect(!filter_entry_ok(&f, 10, 11, "perf"));
	cr_expect(!filter_entry_ok(&f, 10, 11, NULL));
	cr_expect(filter_sample_ok(&f, 5, true, 0), "ids and comms do not drop samples");
	filter_free(&f);
}

Test(filter, equal_and_active)
{
	struct hist_filter a = { 0 }, b = { 0 };

	cr_expect(!filter_active(&a));
	cr_expect(!filter_active(NULL));
	cr_expect(filter_equal(&a, NULL));
	cr_assert_eq(filter_parse_time(&a, "1,2", 0, 0), 0);
	cr_expect(filter_active(&a));
	cr_expect(!filter_equal(&a, NULL));
	cr_expect(!filter_equal(&a, &b));
	cr_assert_eq(filter_parse_time(&b, "1,2", 0, 0), 0);
	cr_expect(filter_equal(&a, &b));
	cr_assert_eq(filter_parse_comms(&a, "x"), 0);
	cr_assert_eq(filter_parse_comms(&b, "y"), 0);
	cr_expect(!filter_equal(&a, &b));
	cr_assert_eq(filter_parse_comms(&b, "x"), 0);
	cr_expect(filter_equal(&a, &b));
	filter_free(&a);
	filter_free(&b);
}
