/*
 * test_statrep: perf stat record files as symbolize/statrep.c reads them,
 * from byte-built recordings (both byte orders): per-cpu columns, interval
 * deltas, scaling, and what a hostile file cannot make it do.  The text
 * against perf stat report is tests/cli.sh's (real perf's fixtures), and
 * here for counts per socket, die, core and node on a topology this
 * machine lacks (2 sockets x 2 cores x 2 threads): what perf stat report
 * 6.1 printed of the same byte-built files, run through perfnav stat.
 */
#include "config.h"

#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

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

/* Open a whole recording (its sections placed). */
static struct session *
open_whole(const struct pdbuf *b)
{
	struct perf_err err;
	char *path = tmp_write("statrep", b->p, b->len);
	struct session *s = session_open(path, NULL, &err);

	cr_assert_not_null(s, "%s", err.msg);
	unlink(path);
	free(path);
	return s;
}

/* Finish a recording begun with synth_head_with: the data section's place. */
static struct session *
open_built(struct pdbuf *b, size_t data_off)
{
	pd_put64(b, 40, data_off);
	pd_put64(b, 48, b->len - data_off);
	return open_whole(b);
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
	struct stat_count c = { .val = 10, .ena = 100, .seen = true }, none = { .val = 0 };
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

/*
 * A perf stat record -a file of 8 cpus on 2 sockets x 2 cores x 2 threads,
 * numbered as some machines do, socket by socket in turn: cpu c is on socket
 * c % 2, core (c / 2) % 2, all die 0; NUMA_TOPOLOGY lists node 1 (cpus 4-7)
 * before node 0 (cpus 0-3).  Events cpu-clock (ids 100, 101) and page-faults
 * (id 200), counted for 0.2 s (one final round); cpu 5's cpu-clock ran half
 * the time it was enabled, cpu 2's page-faults never ran.
 */
#define TOPO_NCPU	8
#define TOPO_WALL	200000000u
#define ST_IDENTIFIER	(1u << 16)	/* perf stat record's sample_type */
#define TOPO_ATTR_FLAGS	(3u | 1u << 20)	/* disabled, inherit, exclude_guest */

static size_t
topo_head(struct pdbuf *b, bool swap)
{
	const uint32_t attr_size = 128;
	size_t ids, attrs;

	memset(b, 0, sizeof *b);
	b->swap = swap;
	pd_u64(b, 0x32454c4946524550ULL);	/* "PERFILE2" */
	pd_u64(b, 104);
	pd_u64(b, attr_size + 16);
	pd_zero(b, 104 - 24);
	ids = b->len;
	pd_u64(b, 100);
	pd_u64(b, 101);
	pd_u64(b, 200);
	attrs = b->len;
	pd_attr(b, attr_size, 1 /* SOFTWARE */, 0 /* cpu-clock */, 0, ST_IDENTIFIER, 3, TOPO_ATTR_FLAGS);
	pd_u64(b, ids);
	pd_u64(b, 16);
	pd_attr(b, attr_size, 1, 2 /* page-faults */, 0, ST_IDENTIFIER, 3, TOPO_ATTR_FLAGS);
	pd_u64(b, ids + 16);
	pd_u64(b, 8);
	pd_put64(b, 24, attrs);
	pd_put64(b, 32, 2 * (attr_size + 16));
	return b->len;
}

/* A string as perf writes it in a feature section, padded to 64 bytes: perf
 * reads CPU_TOPOLOGY's core and socket ids only past strings of that size. */
static void
topo_str(struct pdbuf *b, const char *s)
{
	size_t n = strlen(s) + 1, padded = (n + 63) & ~(size_t)63;

	pd_u32(b, (uint32_t)padded);
	pd_bytes(b, s, n - 1);
	pd_zero(b, padded - (n - 1));
}

/* The feature sections HOSTNAME (perf reads the features of a file of the
 * other byte order only with it), NRCPUS, CMDLINE, CPU_TOPOLOGY (unless
 * !topology), NUMA_TOPOLOGY, after the data section begun at data_off. */
static void
topo_features(struct pdbuf *b, size_t data_off, bool topology)
{
	static const unsigned bits[] = { 3, 7, 11, 13, 14 };
	static const char *const argv[] = { "perf", "stat", "record", "-a" };
	size_t tab = b->len, j = 0;
	uint64_t mask = 0;

	pd_zero(b, 16 * (topology ? 5 : 4));
	for (size_t k = 0; k < 5; k++) {
		size_t h = b->len;

		if (bits[k] == 13 && !topology)
			continue;
		if (bits[k] == 3) {
			topo_str(b, "topo");
		} else if (bits[k] == 7) {
			pd_u32(b, TOPO_NCPU);	/* online */
			pd_u32(b, TOPO_NCPU);	/* available */
		} else if (bits[k] == 11) {
			pd_u32(b, 4);
			for (size_t i = 0; i < 4; i++)
				topo_str(b, argv[i]);
		} else if (bits[k] == 13) {
			pd_u32(b, 2);
			topo_str(b, "0,2,4,6");
			topo_str(b, "1,3,5,7");
			pd_u32(b, 4);
			topo_str(b, "0,4");
			topo_str(b, "2,6");
			topo_str(b, "1,5");
			topo_str(b, "3,7");
			for (uint32_t c = 0; c < TOPO_NCPU; c++) {
				pd_u32(b, (c / 2) % 2);	/* core */
				pd_u32(b, c % 2);	/* socket */
			}
			pd_u32(b, 2);
			topo_str(b, "0,2,4,6");
			topo_str(b, "1,3,5,7");
			for (uint32_t c = 0; c < TOPO_NCPU; c++)
				pd_u32(b, 0);	/* die */
		} else {
			pd_u32(b, 2);
			pd_u32(b, 1);
			pd_u64(b, 1000);
			pd_u64(b, 500);
			topo_str(b, "4-7");
			pd_u32(b, 0);
			pd_u64(b, 1000);
			pd_u64(b, 500);
			topo_str(b, "0-3");
		}
		pd_put64(b, tab + 16 * j, h);
		pd_put64(b, tab + 16 * j++ + 8, b->len - h);
		mask |= 1ull << bits[k];
	}
	pd_put64(b, 40, data_off);
	pd_put64(b, 48, tab - data_off);
	pd_put64(b, 72, mask);
}

/*
 * The same counted every 100 ms (-I 100), two intervals: in the second
 * every count grows by as much again, and cpu 5's cpu-clock and cpu 2's
 * page-faults run all of it (perf scales what a cpu grew, not its total).
 */
static void
topo_intervals(struct pdbuf *b)
{
	for (uint32_t k = 1; k <= 2; k++) {
		for (uint32_t c = 0; c < TOPO_NCPU; c++) {
			stat_rec(b, c % 2 ? 101 : 100, c, 0, k * (100000000 + 1000000 * (uint64_t)c),
			    k * TOPO_WALL, c == 5 ? (2 * k - 1) * (uint64_t)TOPO_WALL / 2 : k * TOPO_WALL);
			stat_rec(b, 200, c, 0, k * 10 * (uint64_t)(c + 1), k * TOPO_WALL,
			    c == 2 ? (k - 1) * TOPO_WALL : k * TOPO_WALL);
		}
		stat_round(b, 0, k * TOPO_WALL / 2);
	}
}

static void
topo_file(struct pdbuf *b, bool swap, uint64_t aggr, bool topology, bool intervals)
{
	static const int32_t pid[] = { -1 };
	static const char *const comm[] = { "" };
	size_t data = topo_head(b, swap), r;

	thread_map(b, pid, comm, 1, false);
	r = pd_rec_begin(b, 74 /* CPU_MAP */, 0);
	pd_u16(b, 0 /* a list of cpus */);
	pd_u16(b, TOPO_NCPU);
	for (uint16_t c = 0; c < TOPO_NCPU; c++)
		pd_u16(b, c);
	pd_zero(b, 4);
	pd_rec_end(b, r);
	stat_config(b, aggr, intervals ? 100 : 0);
	if (intervals) {
		topo_intervals(b);
		topo_features(b, data, topology);
		return;
	}
	for (uint32_t c = 0; c < TOPO_NCPU; c++) {
		stat_rec(b, c % 2 ? 101 : 100, c, 0, 100000000 + 1000000 * (uint64_t)c, TOPO_WALL,
		    c == 5 ? TOPO_WALL / 2 : TOPO_WALL);
		stat_rec(b, 200, c, 0, 10 * (uint64_t)(c + 1), TOPO_WALL, c == 2 ? 0 : TOPO_WALL);
	}
	stat_round(b, 1, TOPO_WALL);
	topo_features(b, data, topology);
}

/* What perf stat report 6.1 prints of topo_file() per socket, die, core and
 * node (the same in both byte orders): the ids in perf's order, each with
 * the cpus it sums (for page-faults up to cpu 2, which never ran). */
static const char *const topo_perf[8] = {
	[2] = "\n"
	    " Performance counter stats for 'perf stat record -a':\n"
	    "\n"
	    "S0        4             412.00 msec cpu-clock                        #    2.060 CPUs utilized          \n"
	    "S0        2      <not counted>      page-faults                                                 \n"
	    "S1        4             521.00 msec cpu-clock                        #    2.605 CPUs utilized            (87.50%)\n"
	    "S1        4                200      page-faults                      #  383.877 /sec                   \n"
	    "\n"
	    "       0.200000000 seconds time elapsed\n"
	    "\n",
	[3] = "\n"
	    " Performance counter stats for 'perf stat record -a':\n"
	    "\n"
	    "S0-D0           4             412.00 msec cpu-clock                        #    2.060 CPUs utilized          \n"
	    "S0-D0           2      <not counted>      page-faults                                                 \n"
	    "S1-D0           4             521.00 msec cpu-clock                        #    2.605 CPUs utilized            (87.50%)\n"
	    "S1-D0           4                200      page-faults                      #  383.877 /sec                   \n"
	    "\n"
	    "       0.200000000 seconds time elapsed\n"
	    "\n",
	[4] = "\n"
	    " Performance counter stats for 'perf stat record -a':\n"
	    "\n"
	    "S0-D0-C0           2             204.00 msec cpu-clock                        #    1.020 CPUs utilized          \n"
	    "S0-D0-C0           2                 60      page-faults                      #  294.118 /sec                   \n"
	    "S0-D0-C1           2             208.00 msec cpu-clock                        #    1.040 CPUs utilized          \n"
	    "S0-D0-C1           1      <not counted>      page-faults                                                 \n"
	    "S1-D0-C0           2             311.00 msec cpu-clock                        #    1.555 CPUs utilized            (75.00%)\n"
	    "S1-D0-C0           2                 80      page-faults                      #  257.235 /sec                   \n"
	    "S1-D0-C1           2             210.00 msec cpu-clock                        #    1.050 CPUs utilized          \n"
	    "S1-D0-C1           2                120      page-faults                      #  571.429 /sec                   \n"
	    "\n"
	    "       0.200000000 seconds time elapsed\n"
	    "\n",
	[7] = "\n"
	    " Performance counter stats for 'perf stat record -a':\n"
	    "\n"
	    "N0        4             527.00 msec cpu-clock                        #    2.635 CPUs utilized            (87.50%)\n"
	    "N0        4                260      page-faults                      #  493.359 /sec                   \n"
	    "N1        4             406.00 msec cpu-clock                        #    2.030 CPUs utilized          \n"
	    "N1        3      <not counted>      page-faults                                                 \n"
	    "\n"
	    "       0.200000000 seconds time elapsed\n"
	    "\n",
};

/* perfnav stat's standard output for the recording in b (standard error after it). */
static char *
stat_text(const struct pdbuf *b)
{
	char *path = tmp_write("statrep", b->p, b->len), cmd[512], *out;
	int status;

	snprintf(cmd, sizeof cmd, "%s/perfnav stat %s 2>&1", TEST_BUILDDIR, path);
	out = cmd_output(cmd, NULL, &status);
	cr_assert_not_null(out);
	cr_assert_eq(status, 0, "perfnav stat failed:\n%s", out);
	unlink(path);
	free(path);
	return out;
}

/* Per socket: two ids, socket 0's cpus 0, 2, 4, 6 and socket 1's the odd
 * ones, each summed (a cpu that ran half its time scaled first); a cpu that
 * never ran leaves its socket's count not counted, its cpus counted up to
 * it; metrics per socket; the text perf prints. */
static void
per_socket(bool swap)
{
	struct pdbuf b;
	struct session *s;
	struct stat_report r;
	char id[32];
	char *out;
	double v;

	topo_file(&b, swap, 2 /* per socket */, true, false);
	s = open_whole(&b);
	cr_assert(stat_report_build(s, &r));
	cr_assert(r.per_aggr);
	cr_assert_not(r.per_cpu);
	cr_assert_eq(r.ncpus, TOPO_NCPU);
	cr_assert_eq(r.ncols, 2);
	for (int i = 0; i < 2; i++) {
		cr_assert_eq(r.aggr_ids[i].socket, i);
		cr_assert_eq(r.aggr_ids[i].die, -1);
		cr_assert_eq(r.aggr_ids[i].core, -1);
		cr_assert_eq(r.aggr_ids[i].node, -1);
		cr_assert_eq(r.aggr_ids[i].ncpus, 4);
	}
	for (uint32_t c = 0; c < TOPO_NCPU; c++)
		cr_assert_eq(r.cpu_col[c], c % 2);
	stat_aggr_text(&r, 1, id, sizeof id);
	cr_assert_str_eq(id, "S1");
	cr_assert_eq(cell(&r, 0, 0, 0)->val, 412000000);
	cr_assert_eq(cell(&r, 0, 0, 0)->nr, 4);
	cr_assert_eq(cell(&r, 0, 0, 1)->val, 521000000, "cpu 5's count scaled before the sum");
	cr_assert(stat_count_scaled(cell(&r, 0, 0, 1), &v) && v == 521000000, "and not again");
	cr_assert_eq(cell(&r, 0, 0, 1)->run, 7 * (uint64_t)TOPO_WALL / 2);
	cr_assert_str_eq(cell(&r, 0, 0, 1)->munit, "CPUs utilized");
	cr_assert_float_eq(cell(&r, 0, 0, 1)->metric, 2.605, 1e-9);
	cr_assert_not(stat_count_scaled(cell(&r, 0, 1, 0), &v), "cpu 2 never ran: not counted");
	cr_assert_eq(cell(&r, 0, 1, 0)->nr, 2, "cpus 0 and 2, as perf counts them");
	cr_assert_eq(cell(&r, 0, 1, 1)->val, 200);
	cr_assert_str_eq(cell(&r, 0, 1, 1)->munit, "/sec");
	cr_assert_float_eq(cell(&r, 0, 1, 1)->metric, 200 / 0.521, 1e-9);
	stat_report_free(&r);
	session_close(s);
	out = stat_text(&b);
	cr_assert_str_eq(out, topo_perf[2]);
	free(out);
	pd_free(&b);
}

Test(statrep, per_socket)
{
	per_socket(false);
}

Test(statrep, per_socket_swapped)
{
	per_socket(true);
}

/* Per core: four ids in perf's order (socket, then core), not the order
 * their first cpus come in (S0-C0, S1-C0, S0-C1...); per die and per node
 * the same recording's other ids, a node numbered by its place in
 * NUMA_TOPOLOGY (node 1, listed first, is N0).  Each prints as perf. */
static void
per_core_die_node(bool swap)
{
	static const char *const core_ids[] = { "S0-D0-C0", "S0-D0-C1", "S1-D0-C0", "S1-D0-C1" };
	static const uint64_t modes[] = { 3, 4, 7 };

	for (size_t m = 0; m < 3; m++) {
		struct pdbuf b;
		struct session *s;
		struct stat_report r;
		char id[32];
		char *out;

		topo_file(&b, swap, modes[m], true, false);
		s = open_whole(&b);
		cr_assert(stat_report_build(s, &r));
		cr_assert(r.per_aggr);
		if (modes[m] == 4) {
			cr_assert_eq(r.ncols, 4);
			for (size_t i = 0; i < 4; i++) {
				stat_aggr_text(&r, i, id, sizeof id);
				cr_assert_str_eq(id, core_ids[i]);
				cr_assert_eq(r.aggr_ids[i].ncpus, 2);
			}
			cr_assert_eq(r.cpu_col[1], 2, "cpu 1: S1-D0-C0");
			cr_assert_eq(cell(&r, 0, 1, 1)->nr, 1, "cpu 2 first of its core: not counted");
			cr_assert_eq(cell(&r, 0, 0, 2)->val, 311000000);
		} else if (modes[m] == 3) {
			cr_assert_eq(r.ncols, 2);
			stat_aggr_text(&r, 1, id, sizeof id);
			cr_assert_str_eq(id, "S1-D0");
		} else {
			cr_assert_eq(r.ncols, 2);
			stat_aggr_text(&r, 0, id, sizeof id);
			cr_assert_str_eq(id, "N0");
			cr_assert_eq(r.cpu_col[4], 0, "cpus 4-7: the first node listed");
			cr_assert_eq(r.cpu_col[0], 1);
			cr_assert_eq(cell(&r, 0, 0, 0)->val, 527000000);
			cr_assert_eq(cell(&r, 0, 1, 1)->nr, 3, "cpus 0, 1, 2");
		}
		stat_report_free(&r);
		session_close(s);
		out = stat_text(&b);
		cr_assert_str_eq(out, topo_perf[modes[m]]);
		free(out);
		pd_free(&b);
	}
}

Test(statrep, per_core_die_node)
{
	per_core_die_node(false);
}

Test(statrep, per_core_die_node_swapped)
{
	per_core_die_node(true);
}

/* No CPU_TOPOLOGY (perf 6.1 crashes on such a file per socket): one column,
 * summed, and said; per node the NUMA_TOPOLOGY is enough. */
Test(statrep, aggregates_without_topology)
{
	struct pdbuf b;
	struct session *s;
	struct stat_report r;
	char *out;

	topo_file(&b, false, 4 /* per core */, false, false);
	s = open_whole(&b);
	cr_assert(stat_report_build(s, &r));
	cr_assert_eq(r.aggr, STAT_AGGR_CORE);
	cr_assert_not(r.per_aggr);
	cr_assert_eq(r.ncols, 1);
	cr_assert_eq(cell(&r, 0, 1, 0)->val, 360, "as perf's global sum: every cpu's count");
	cr_assert_eq(cell(&r, 0, 1, 0)->run, 7 * (uint64_t)TOPO_WALL, "cpu 2's never ran");
	stat_report_free(&r);
	session_close(s);
	out = stat_text(&b);
	cr_assert(strstr(out, "counts recorded per core are shown summed") != NULL, "%s", out);
	free(out);
	pd_free(&b);
	topo_file(&b, true, 7 /* per node */, false, false);
	out = stat_text(&b);
	cr_assert_str_eq(out, topo_perf[7]);
	free(out);
	pd_free(&b);
}

/* What perf stat report 6.1 prints of topo_file()'s intervals per socket and
 * per core: the header of the mode, per interval what each cpu grew, scaled
 * alone (cpu 5 ran all of the second interval: no share shown), the rates
 * from the mean of every interval's clocks so far. */
static const char *const topo_perf_intervals[8] = {
	[2] = "#           time socket cpus             counts unit events\n"
	    "     0.100000000 S0        4             412.00 msec cpu-clock                                                          \n"
	    "     0.100000000 S0        2      <not counted>      page-faults                                                 \n"
	    "     0.100000000 S1        4             521.00 msec cpu-clock                                                            (87.50%)\n"
	    "     0.100000000 S1        4                200      page-faults                      #  383.877 /sec                   \n"
	    "     0.200000000 S0        4             412.00 msec cpu-clock                                                          \n"
	    "     0.200000000 S0        4                160      page-faults                      #  388.350 /sec                   \n"
	    "     0.200000000 S1        4             416.00 msec cpu-clock                                                          \n"
	    "     0.200000000 S1        4                200      page-faults                      #  426.894 /sec                   \n",
	[4] = "#           time core            cpus             counts unit events\n"
	    "     0.100000000 S0-D0-C0           2             204.00 msec cpu-clock                                                          \n"
	    "     0.100000000 S0-D0-C0           2                 60      page-faults                      #  294.118 /sec                   \n"
	    "     0.100000000 S0-D0-C1           2             208.00 msec cpu-clock                                                          \n"
	    "     0.100000000 S0-D0-C1           1      <not counted>      page-faults                                                 \n"
	    "     0.100000000 S1-D0-C0           2             311.00 msec cpu-clock                                                            (75.00%)\n"
	    "     0.100000000 S1-D0-C0           2                 80      page-faults                      #  257.235 /sec                   \n"
	    "     0.100000000 S1-D0-C1           2             210.00 msec cpu-clock                                                          \n"
	    "     0.100000000 S1-D0-C1           2                120      page-faults                      #  571.429 /sec                   \n"
	    "     0.200000000 S0-D0-C0           2             204.00 msec cpu-clock                                                          \n"
	    "     0.200000000 S0-D0-C0           2                 60      page-faults                      #  294.118 /sec                   \n"
	    "     0.200000000 S0-D0-C1           2             208.00 msec cpu-clock                                                          \n"
	    "     0.200000000 S0-D0-C1           2                100      page-faults                      #  480.769 /sec                   \n"
	    "     0.200000000 S1-D0-C0           2             206.00 msec cpu-clock                                                          \n"
	    "     0.200000000 S1-D0-C0           2                 80      page-faults                      #  309.478 /sec                   \n"
	    "     0.200000000 S1-D0-C1           2             210.00 msec cpu-clock                                                          \n"
	    "     0.200000000 S1-D0-C1           2                120      page-faults                      #  571.429 /sec                   \n",
};

static void
aggregate_intervals(bool swap)
{
	static const uint64_t modes[] = { 2, 4 };

	for (size_t m = 0; m < 2; m++) {
		struct pdbuf b;
		struct session *s;
		struct stat_report r;
		char *out;

		topo_file(&b, swap, modes[m], true, true);
		s = open_whole(&b);
		cr_assert(stat_report_build(s, &r));
		cr_assert(r.per_aggr);
		cr_assert_eq(r.nrounds, 2);
		if (modes[m] == 2) {
			cr_assert_eq(cell(&r, 1, 0, 1)->val, 416000000, "cpu 5 grew 105 ms, ran all of it");
			cr_assert_eq(cell(&r, 1, 1, 0)->val, 160, "cpu 2 ran in the second interval");
			cr_assert_eq(cell(&r, 1, 1, 0)->nr, 4);
			cr_assert_float_eq(cell(&r, 1, 1, 0)->metric, 160 / 0.412, 1e-9);
		}
		stat_report_free(&r);
		session_close(s);
		out = stat_text(&b);
		cr_assert_str_eq(out, topo_perf_intervals[modes[m]]);
		free(out);
		pd_free(&b);
	}
}

Test(statrep, aggregate_intervals)
{
	aggregate_intervals(false);
}

Test(statrep, aggregate_intervals_swapped)
{
	aggregate_intervals(true);
}

/* Hostile: a cpu past the topology's (perf reads past its table) has an id
 * of -1 parts, sorted first. */
Test(statrep, cpus_the_topology_lacks)
{
	struct pdbuf b;
	size_t data = topo_head(&b, false);
	struct session *s;
	struct stat_report r;
	char id[32];

	stat_config(&b, 4 /* per core */, 0);
	stat_rec(&b, 100, 1, 0, 10, 10, 10);
	stat_rec(&b, 100, 4000, 0, 20, 10, 10);
	stat_rec(&b, 100, UINT32_MAX, 0, 30, 10, 10);
	stat_round(&b, 1, 1000);
	topo_features(&b, data, true);
	s = open_whole(&b);
	cr_assert(stat_report_build(s, &r));
	cr_assert(r.per_aggr);
	cr_assert_eq(r.ncols, 2);
	stat_aggr_text(&r, 0, id, sizeof id);
	cr_assert_str_eq(id, "S-1-D-1-C-1");
	cr_assert_eq(r.aggr_ids[0].ncpus, 2);
	cr_assert_eq(cell(&r, 0, 0, 0)->val, 50);
	stat_aggr_text(&r, 1, id, sizeof id);
	cr_assert_str_eq(id, "S1-D0-C0");
	stat_report_free(&r);
	session_close(s);
	pd_free(&b);
}
