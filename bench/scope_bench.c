/*
 * scope_bench: how long applying a time scope takes once symbols are
 * resolved, as the TUI applies one (issue 12's figure): recounting the
 * hist for the range (symbols_apply_scope, i.e. hist_rescope), then the
 * hot functions' rows (hist_rows_begin/step/end, as the hot pane merges
 * them, in steps: the longest step is printed too) and
 * the flame graph (cpath_build and flame_layout at WIDTH columns), and
 * apart, the scope's samples per thread (symbols_thread_samples: the
 * processes pane's and the Summary's count).  For a
 * few ranges (percent of the recording's sample span), then the whole
 * recording again.  Median of RUNS each.
 *
 *   make bench/scope_bench && bench/scope_bench FILE [WIDTH [RUNS]]
 *
 * Symbols are resolved first with the default options (that time is
 * printed too).  Never part of `make check`.
 */
#include "config.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "core/core.h"
#include "symbolize/cpath.h"
#include "symbolize/flame.h"
#include "symbolize/hist.h"
#include "tui/scope.h"
#include "tui/symbols.h"

#include "bench/bench_util.h"

/* The hot pane's step in the app: 2 x PANE_STEP_ROWS entries (tui/pane/hot_rows.c). */
#define HOT_STEP	16384

/* One application of [a, b] (a > b: the whole recording): the times of its three parts,
 * and in t[3] the longest step of the hot rows' merge. */
static void
apply_once(struct symbols *sy, uint64_t a, uint64_t b, int w, double *t)
{
	const struct hist_entry *const *rows;
	unsigned keep = HIST_KEEP(HIST_KEY_COMM) | HIST_KEEP(HIST_KEY_DSO) | HIST_KEEP(HIST_KEY_SYM);
	struct cpath_query q;
	struct flame fl;
	struct cpath *tr;
	double t0 = ms_now(), t1, t2;
	uint64_t *tsm;
	unsigned tk;

	scope_time_truncate(&sy->scope, 0);
	sy->scope.time_pending = true;
	if (a <= b)
		scope_time_push(&sy->scope, a, b);
	symbols_apply_scope(sy);
	t1 = ms_now();
	/* as the hot pane merges them in the app: steps of HOT_STEP entries */
	tk = hist_rows_begin(sy->h, 0, NULL, keep);
	for (bool done = false; !done;) {
		double a0 = ms_now();

		done = hist_rows_step(sy->h, tk, HOT_STEP);
		if (ms_now() - a0 > t[3])
			t[3] = ms_now() - a0;
	}
	t2 = ms_now();
	hist_rows_end(sy->h, tk, 0, &rows);	/* the rows sorted: a step too */
	if (ms_now() - t2 > t[3])
		t[3] = ms_now() - t2;
	t2 = ms_now();
	memset(&q, 0, sizeof q);
	q.entry = CPATH_NONE;
	memset(&fl, 0, sizeof fl);
	tr = cpath_build(sy->h, &q);
	flame_layout(&fl, tr, 0, (unsigned)w, sy->h, sy->z);
	flame_free(&fl);
	cpath_free(tr);
	t[0] = t1 - t0;
	t[1] = t2 - t1;
	/* t[3]: set above */
	t[2] = ms_now() - t2;
	/* the processes pane's and the Summary's count of the scope's samples per thread */
	t2 = ms_now();
	tsm = calloc(session_threads(sy->s)->n + 1, sizeof *tsm);
	(void)symbols_thread_samples(sy, sy->s, tsm);
	free(tsm);
	t[4] = ms_now() - t2;
}

static void
measure(struct symbols *sy, const char *what, uint64_t a, uint64_t b, int w, int runs)
{
	double *v = calloc((size_t)runs * 6, sizeof *v), t[5], med[6];

	for (int i = 0; i < runs; i++) {
		t[3] = 0;
		apply_once(sy, a, b, w, t);
		v[i] = t[0];
		v[runs + i] = t[1];
		v[2 * runs + i] = t[2];
		v[3 * runs + i] = t[0] + t[1] + t[2];
		v[4 * runs + i] = t[3];
		v[5 * runs + i] = t[4];
	}
	for (int k = 0; k < 6; k++) {
		qsort(v + k * runs, (size_t)runs, sizeof *v, cmp_double);
		med[k] = v[k * runs + runs / 2];
	}
	printf("%-22s %10" PRIu64 " samples: recount %7.1f ms, hot rows %6.1f ms (longest step "
	    "%4.1f ms), flame graph %6.1f ms, all %7.1f ms; samples per thread %6.1f ms\n", what,
	    hist_nevents(sy->h) ? hist_event(sy->h, 0)->nsamples : 0, med[0], med[1], med[4], med[2],
	    med[3], med[5]);
	free(v);
}

int
main(int argc, char **argv)
{
	int w = argc > 2 ? atoi(argv[2]) : 200, runs = argc > 3 ? atoi(argv[3]) : 5;
	static const struct {
		const char	*name;
		int		 from, to;	/* percent of the span */
	} ranges[] = {
		{ "10%-11%", 10, 11 }, { "40%-60%", 40, 60 }, { "0%-90%", 0, 90 },
	};
	struct perf_err err;
	struct session *s;
	struct symbols *sy;
	uint64_t first, last;
	double t0;

	if (argc < 2 || w < 10 || runs < 1) {
		fprintf(stderr, "usage: scope_bench FILE [WIDTH [RUNS]]\n");
		return 2;
	}
	if ((s = session_open(argv[1], NULL, &err)) == NULL) {
		fprintf(stderr, "scope_bench: %s\n", err.msg);
		return 1;
	}
	t0 = ms_now();
	sy = symbols_new(s, NULL, NULL);
	symbols_run(sy);
	printf("%s: symbols in %.0f ms (before any scope)\n", argv[1], ms_now() - t0);
	first = session_features(s)->sample_time_first;
	last = session_features(s)->sample_time_last;
	if (last <= first) {
		fprintf(stderr, "scope_bench: no sample time span in the header\n");
		return 1;
	}
	for (size_t i = 0; i < sizeof ranges / sizeof ranges[0]; i++)
		measure(sy, ranges[i].name, first + (last - first) / 100 * (uint64_t)ranges[i].from,
		    first + (last - first) / 100 * (uint64_t)ranges[i].to, w, runs);
	measure(sy, "whole recording", 1, 0, w, runs);
	symbols_free(sy);
	session_close(s);
	return 0;
}
