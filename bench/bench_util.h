/*
 * bench_util.h: what the bench programs share: a monotonic clock in
 * milliseconds and the median of a set of times.  Header-only (each bench
 * is one program of one file); never part of perfnav.
 */
#ifndef PERFNAV_BENCH_UTIL_H
#define PERFNAV_BENCH_UTIL_H

#include <stdlib.h>
#include <time.h>

static inline double
ms_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec / 1e6;
}

static inline int
cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

/* The median of v[0..n) (v is sorted). */
static inline double
median(double *v, int n)
{
	qsort(v, (size_t)n, sizeof *v, cmp_double);
	return v[n / 2];
}

#endif
