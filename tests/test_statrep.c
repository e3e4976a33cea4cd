/*
 * test_statrep: perf stat record files as symbolize/statrep.c reads them,
 * from byte-built recordings (both byte orders): per-cpu columns, interval
 * deltas, scaling, and what a hostile file cannot make it do.  The text
 * against perf stat report is tests/cli.sh's (real perf's fixtures).
 */
#include "config.h"

#include <criterion/criterion.h>
#include <stdlib.h>
#include <string.h>

#include "core/core.h"
#include "symbolize/statrep.h"
#include "tests/helpers.h"

static void
stat_config(struct pdbuf *b, uint64_t aggr, uint64_t interval)
{
	size_t r = pd_rec_begin(b, 75 /* STAT_CONFIG */, 0);

	pd_u64(b, 2);
	pd_u64(b, 0 /* AGGR_MODE */);
	pd_u64(b, aggr);
	pd_u64(b, 1 /* INTERVAL */);
	pd_u64(b, interval);
	pd_rec_end(b, r);
}

static void
stat_rec(struct pdbuf *b, uint64_t id, uint32_t cpu, uint32_t thread, uint64_t val, uint64_t ena,
    uint64_t run)
{
	size_t r = pd_rec_begin(b, 76 /* STAT */, 0);

	pd_u64(b, id);
	pd_u32(b, cpu);
	pd_u32(b, thread);
	pd_u64(b, val);
	pd_u64(b, ena);
	pd_u64(b, run);
	pd_rec_end(b, r);
}

static void
stat_round(struct pdbuf *b, uint64_t type, uint64_t time)
{
	size_t r = pd_rec_begin(b, 77 /* STAT_ROUND */, 0);

	pd_u64(b, type);
	pd_u64(b, time);
	pd_rec_end(b, r);
}

/* Finish a recording begun with synth_head_with: the data section's place. */
static struct session *
open_built(struct pdbuf *b, size_t data_off)
{
	struct perf_err err;
	char *path;
	struct session *s;

	pd_put64(b, 40, data_off);
	pd_put64(b, 48, b->len - data_off);
	path = tmp_write("statrep", b->p, b->len);
	s = session_open(path, NULL, &err);
	cr_assert_not_null(s, "%s", err.msg);
	free(path);
	return s;
}

static const struct stat_count *
cell(const struct stat_report *r, size_t round, size_t ev, size_t col)
{
	return &r->rounds[round].c[ev * r->ncols + col];
}

/* Per cpu, every 10 ms: columns by cpu, each interval what the counters grew. */
static void
per_cpu_intervals(bool swap)
{
	struct pdbuf b;
	size_t data = synth_head_with(&b, swap, 0, 0);
	struct session *s;
	struct stat_report r;
	double v;

	stat_config(&b, 0 /* per cpu */, 10);
	stat_rec(&b, 101, 1, 0, 500, 1000, 1000);	/* ids 100 and 101 are the one event's */
	stat_rec(&b, 100, 0, 0, 300, 1000, 1000);
	stat_rec(&b, 999, 0, 0, 7, 7, 7);		/* of no event: left out, counted */
	stat_round(&b, 0, 10000000);
	stat_rec(&b, 100, 0, 0, 700, 2000, 2000);
	stat_rec(&b, 101, 1, 0, 400, 1500, 1500);	/* went back: grew by nothing */
	stat_round(&b, 0, 20000000);
	s = open_built(&b, data);
	cr_assert(stat_report_build(s, &r));
	cr_assert(r.per_cpu);
	cr_assert_eq(r.interval_ms, 10);
	cr_assert_eq(r.nev, 1);
	cr_assert(r.ev[0].clock, "cpu-clock is a clock: shown in msec");
	cr_assert_eq(r.ncols, 2);
	cr_assert(r.cols[0] == 0 && r.cols[1] == 1);
	cr_assert_eq(r.nrounds, 2);
	cr_assert_eq(r.nbad, 1);
	cr_assert_eq(cell(&r, 0, 0, 0)->val, 300);
	cr_assert_eq(cell(&r, 0, 0, 1)->val, 500);
	cr_assert_eq(r.rounds[0].time, 10000000);
	cr_assert_not(r.rounds[0].final);
	cr_assert_eq(cell(&r, 1, 0, 0)->val, 400);
	cr_assert_eq(cell(&r, 1, 0, 0)->ena, 1000);
	cr_assert_eq(cell(&r, 1, 0, 1)->val, 0);
	cr_assert(stat_count_scaled(cell(&r, 1, 0, 0), &v) && v == 400);
	stat_report_free(&r);
	session_close(s);
	pd_free(&b);
}

Test(statrep, per_cpu_intervals)
{
	per_cpu_intervals(false);
}

Test(statrep, per_cpu_intervals_swapped)
{
	per_cpu_intervals(true);
}

/* One total: every cpu and thread summed; a counter that ran part of the time scaled. */
Test(statrep, global_sums_and_scales)
{
	struct pdbuf b;
	size_t data = synth_head_with(&b, false, 0, 0);
	struct session *s;
	struct stat_report r;
	double v;

	stat_config(&b, 1 /* global */, 0);
	stat_rec(&b, 100, 0, 0, 100, 400, 200);
	stat_rec(&b, 101, 1, 0, 100, 400, 200);
	stat_rec(&b, 100, 0, 1, 50, 200, 100);
	stat_round(&b, 1 /* final */, 123456789);
	s = open_built(&b, data);
	cr_assert(stat_report_build(s, &r));
	cr_assert_not(r.per_cpu);
	cr_assert_eq(r.ncols, 1);
	cr_assert_eq(r.nrounds, 1);
	cr_assert(r.rounds[0].final);
	cr_assert_eq(cell(&r, 0, 0, 0)->val, 250);
	cr_assert(stat_count_scaled(cell(&r, 0, 0, 0), &v));
	cr_assert_float_eq(v, 500.0, 1e-9, "ran half the time enabled: counted twice over");
	cr_assert_str_eq(cell(&r, 0, 0, 0)->munit, "CPUs utilized");
	cr_assert_float_eq(cell(&r, 0, 0, 0)->metric, 500.0 / 123456789, 1e-15);
	stat_report_free(&r);
	session_close(s);
	pd_free(&b);
}

/* A counter that never ran is not counted (perf's <not counted>). */
Test(statrep, never_ran_is_not_counted)
{
	struct stat_count c = { 10, 100, 0, true, NULL, 0 }, none = { 0, 0, 0, false, NULL, 0 };
	double v;

	cr_assert_not(stat_count_scaled(&c, &v));
	cr_assert_not(stat_count_scaled(&none, &v));
}

/* Hostile: more cpus than the bound and more rounds than the cells allow stay bounded, said. */
Test(statrep, bounded_on_a_hostile_file)
{
	struct pdbuf b;
	size_t data = synth_head_with(&b, false, 0, 0);
	struct session *s;
	struct stat_report r;

	stat_config(&b, 0, 1);
	for (uint32_t cpu = 0; cpu < 5000; cpu++)
		stat_rec(&b, 100, cpu, 0, cpu, 1, 1);
	for (int i = 0; i < 1200; i++)
		stat_round(&b, 0, (uint64_t)i * 1000);
	s = open_built(&b, data);
	cr_assert(stat_report_build(s, &r));
	cr_assert_eq(r.ncols, 4096);
	cr_assert_lt(r.nrounds, 1200, "rounds stop at the cells' bound");
	cr_assert_gt(r.nrounds, 100);
	cr_assert_eq(r.nbad, 5000 - 4096 + 1, "the cpus past the bound, and the first round past it");
	stat_report_free(&r);
	session_close(s);
	pd_free(&b);
}

/* A recording of samples has no counts. */
Test(statrep, samples_are_not_counts)
{
	struct perf_err err;
	struct session *s = session_open(test_data("fp.data"), NULL, &err);
	struct stat_report r;

	cr_assert_not_null(s, "%s", err.msg);
	cr_assert_not(stat_report_build(s, &r));
	session_close(s);
}

static void
thread_map(struct pdbuf *b, const int32_t *pid, const char *const *comm, size_t n, bool cut_last)
{
	size_t r = pd_rec_begin(b, 73 /* THREAD_MAP */, 0);

	pd_u64(b, n);
	for (size_t i = 0; i < n; i++) {
		char c[16] = { 0 };

		pd_u64(b, (uint64_t)(int64_t)pid[i]);
		if (cut_last && i + 1 == n)
			break;	/* the last entry's comm past the record */
		memcpy(c, comm[i], strlen(comm[i]) < sizeof c ? strlen(comm[i]) : sizeof c);
		pd_bytes(b, c, sizeof c);
	}
	pd_rec_end(b, r);
}

/* Per thread (--per-thread): a column per THREAD_MAP index, named by its pid and
 * comm; an entry the record holds only in part keeps its pid, its comm unknown;
 * an index past the map neither. */
static void
per_thread(bool swap)
{
	static const int32_t pid[] = { 4833, 4835, 4836 };
	static const char *const comm[] = { "threads", "worker-a", "0123456789abcdefXYZ" };
	struct pdbuf b;
	size_t data = synth_head_with(&b, swap, 0, 0);
	struct session *s;
	struct stat_report r;

	thread_map(&b, pid, comm, 3, true);
	stat_config(&b, 5 /* per thread */, 0);
	stat_rec(&b, 100, 0, 1, 700, 10, 10);
	stat_rec(&b, 100, 0, 0, 300, 10, 10);
	stat_rec(&b, 100, 0, 2, 100, 10, 10);
	stat_rec(&b, 100, 0, 9, 50, 10, 10);	/* no such thread in the map */
	stat_rec(&b, 101, 1, 1, 5, 10, 10);	/* the same thread on another cpu: summed */
	stat_round(&b, 1, 1000000);
	s = open_built(&b, data);
	cr_assert(stat_report_build(s, &r));
	cr_assert(r.per_thread);
	cr_assert_not(r.per_cpu);
	cr_assert_eq(r.ncols, 4);
	cr_assert(r.cols[0] == 0 && r.cols[1] == 1 && r.cols[2] == 2 && r.cols[3] == 9);
	cr_assert_eq(r.col_pid[0], 4833);
	cr_assert_str_eq(r.col_comm[0], "threads");
	cr_assert_eq(r.col_pid[1], 4835);
	cr_assert_str_eq(r.col_comm[1], "worker-a");
	cr_assert_eq(r.col_pid[2], 4836, "the pid of an entry cut short");
	cr_assert_str_eq(r.col_comm[2], "", "its comm past the record: unknown");
	cr_assert_eq(r.col_pid[3], -1);
	cr_assert_eq(cell(&r, 0, 0, 1)->val, 705);
	cr_assert_eq(cell(&r, 0, 0, 0)->val, 300);
	cr_assert_eq(cell(&r, 0, 0, 3)->val, 50);
	stat_report_free(&r);
	session_close(s);
	pd_free(&b);
}

Test(statrep, per_thread)
{
	per_thread(false);
}

Test(statrep, per_thread_swapped)
{
	per_thread(true);
}
