/*
 * sym_bench: the browser's symbol resolution without a terminal: the
 * session loaded, then symbols_start (the workers, as the TUI starts
 * them) until symbols_poll says every symbol is in.  Prints the load and
 * resolution wall times, the CPU time of the whole, and the peak
 * anonymous memory (VmHWM is file pages too; RssAnon is sampled after
 * each phase).
 *
 *   make bench/sym_bench && bench/sym_bench FILE
 *
 *   SYM_BENCH_CACHE=DIR bench/sym_bench FILE: with the cache of loaded
 *   recordings in DIR (docs/cache.md), its entry written on a thread as
 *   the browser writes it: run twice for the first and the second open.
 *
 * Never part of `make check`.
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>

#include "core/core.h"
#include "tui/cmd/cmd.h"
#include "tui/symbols.h"

#include "bench/bench_util.h"

/* The process's anonymous resident memory now, in MB (-1 if unknown). */
static long
rss_anon_mb(void)
{
	FILE *fp = fopen("/proc/self/status", "r");
	char line[256];
	long kb = -1;

	if (fp == NULL)
		return -1;
	while (fgets(line, sizeof line, fp) != NULL)
		if (strncmp(line, "RssAnon:", 8) == 0)
			kb = atol(line + 8);
	fclose(fp);
	return kb < 0 ? -1 : kb / 1024;
}

int
main(int argc, char **argv)
{
	struct timespec pause = { 0, 1000000 };
	struct perf_err err;
	struct session *s;
	struct symbols *sy;
	struct rusage ru;
	struct common_opts co = { .input = argv[1] };
	/* as the browser opens a recording (tui/cmd/opts.c) */
	struct session_opts so = { .keep_going = true, .keep_who = true };
	double t0, t1, t2, t3;
	long peak = 0, a;

	if (argc != 2) {
		fprintf(stderr, "usage: sym_bench FILE\n");
		return 2;
	}
	/* SYM_BENCH_CACHE=DIR: the browser's cache in DIR (docs/cache.md), saved as it saves */
	so.cache_dir = getenv("SYM_BENCH_CACHE");
	so.cache_version = PACKAGE_VERSION;
	t0 = ms_now();
	if ((s = session_open(argv[1], &so, &err)) == NULL) {
		fprintf(stderr, "sym_bench: %s\n", err.msg);
		return 1;
	}
	t1 = ms_now();
	if (so.cache_dir != NULL) {
		printf("cache: %s\n", session_cache_state_name(session_cache_status(s).state));
		(void)session_cache_save_start(s);
	}
	sy = symbols_new(s, NULL, NULL);
	if (so.cache_dir != NULL)
		sy->cache = &co;	/* the browser's finished hist too, written as it writes it */
	t3 = ms_now();
	symbols_start(sy);
	while (!symbols_poll(sy)) {
		if ((a = rss_anon_mb()) > peak)
			peak = a;
		nanosleep(&pause, NULL);
	}
	t2 = ms_now();
	if ((a = rss_anon_mb()) > peak)
		peak = a;
	if (so.cache_dir != NULL)
		printf("hist: %s\n", sy->cached ? "from the cache" : "made");
	getrusage(RUSAGE_SELF, &ru);
	printf("%s: load %.0f ms, set-up %.0f ms, symbols %.0f ms, cpu %.2f s, peak anon %ld MB\n",
	    argv[1], t1 - t0, t3 - t1, t2 - t1,
	    (double)ru.ru_utime.tv_sec + (double)ru.ru_utime.tv_usec / 1e6 +
	    (double)ru.ru_stime.tv_sec + (double)ru.ru_stime.tv_usec / 1e6, peak);
	symbols_free(sy);
	session_close(s);
	return 0;
}
