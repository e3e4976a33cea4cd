/*
 * touch: how fast this machine gives a process memory it has not touched
 * yet: MB of anonymous memory (2 MiB-aligned, huge pages asked as the
 * index's are, core/err.c huge_advise) written a byte a page, three times:
 * first, again at once after unmapping it (pages the kernel has just
 * had back), and again after PAUSE seconds.  On a VM whose host takes
 * back a guest's free memory after a few seconds (free page reporting),
 * the first and the last are the host's faults: every perfnav run after
 * a long perf run pays them for its index and tables (docs/benchmarks.md).
 *
 *   make bench/touch && bench/touch [MB [PAUSE]]   (default 256, 5)
 *
 * Never part of `make check`.
 */
#include "config.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

static double
now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* Map mb MiB, write a byte a page, unmap: the seconds the writes took (-1: no memory). */
static double
touch_once(size_t mb)
{
	const size_t huge = (size_t)2 << 20, n = mb << 20;
	uint8_t *p = mmap(NULL, n + huge, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS |
	    MAP_NORESERVE, -1, 0), *a;
	long pg = sysconf(_SC_PAGESIZE);
	double t0, t;

	if (p == MAP_FAILED)
		return -1;
	a = (uint8_t *)(((uintptr_t)p + huge - 1) & ~(uintptr_t)(huge - 1));
#ifdef MADV_HUGEPAGE
	(void)madvise(a, n, MADV_HUGEPAGE);
#endif
	t0 = now();
	for (size_t i = 0; i < n; i += (size_t)(pg > 0 ? pg : 4096))
		a[i] = 1;
	t = now() - t0;
	munmap(p, n + huge);
	return t;
}

int
main(int argc, char **argv)
{
	long mb = argc > 1 ? atol(argv[1]) : 256, pause = argc > 2 ? atol(argv[2]) : 5;
	const char *what[3] = { "first", "again at once", "again after" };

	if (mb < 1 || mb > (1L << 20) || pause < 0 || pause > 3600) {
		fprintf(stderr, "usage: touch [MB [PAUSE]]\n");
		return 2;
	}
	for (int i = 0; i < 3; i++) {
		double t;

		if (i == 2)
			sleep((unsigned)pause);
		if ((t = touch_once((size_t)mb)) < 0) {
			fprintf(stderr, "touch: no %ld MB\n", mb);
			return 1;
		}
		if (i == 2)
			printf("%ld MB, %s %ld s: %.1f ms (%.2f GiB/s)\n", mb, what[i], pause, t * 1e3,
			    (double)mb / 1024 / t);
		else
			printf("%ld MB, %s: %.1f ms (%.2f GiB/s)\n", mb, what[i], t * 1e3,
			    (double)mb / 1024 / t);
	}
	return 0;
}
