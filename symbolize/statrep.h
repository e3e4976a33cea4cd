/*
 * statrep.h: the counts of a `perf stat record` file, as `perf stat report`
 * aggregates them (no curses, no printing: tui/cmd/cmd_stat.c prints).
 *
 * STAT records carry each counter's running totals (value, time enabled,
 * time running) per cpu and thread; a STAT_ROUND closes a round: an
 * interval (-I) or the final one.  Each round here holds, per event and per
 * column (one column, or one per cpu with -A), the sum over the counters
 * of that column; an interval round holds what the counters grew since
 * the round before, as perf prints intervals.
 */
#ifndef PERFNAV_SYMBOLIZE_STATREP_H
#define PERFNAV_SYMBOLIZE_STATREP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "core/session.h"

/* perf's aggregation modes (STAT_CONFIG's aggr_mode). */
enum stat_aggr {
	STAT_AGGR_NONE = 0,	/* per cpu (-A) */
	STAT_AGGR_GLOBAL = 1,
	STAT_AGGR_SOCKET = 2,
	STAT_AGGR_DIE = 3,
	STAT_AGGR_CORE = 4,
	STAT_AGGR_THREAD = 5,
	STAT_AGGR_UNSET = 6,
	STAT_AGGR_NODE = 7,
};

struct stat_count {
	uint64_t	val, ena, run;
	bool		seen;	/* a STAT record fed it */
	/* perf's metric of the count (stat_report_build), unit NULL if none:
	 * "CPUs utilized" of a clock outside intervals, else a rate per second
	 * ("/sec", "K/sec"...) of the mean of the clock counts seen so far. */
	const char	*munit;
	double		 metric;
};

struct stat_event {
	int		 attr;		/* session attr index */
	const char	*name;		/* the session's */
	bool		 clock;		/* task-clock or cpu-clock: nanoseconds, shown as msec */
};

struct stat_round {
	uint64_t		 time;		/* ns since the start */
	bool			 final;
	struct stat_count	*c;		/* [event * ncols + col] */
};

struct stat_report {
	enum stat_aggr		 aggr;		/* as recorded */
	bool			 per_cpu;	/* columns are cpus (aggr NONE) */
	bool			 per_thread;	/* columns are threads (aggr THREAD, --per-thread) */
	uint64_t		 interval_ms;	/* -I, 0 if none */
	bool			 have_config;
	size_t			 nev;
	struct stat_event	*ev;
	size_t			 ncols;
	int32_t			*cols;		/* per_cpu: each column's cpu, ascending;
						 * per_thread: its THREAD_MAP index, ascending */
	int32_t			*col_pid;	/* per_thread: each column's pid (-1: unknown) */
	char			(*col_comm)[17];	/* per_thread: its comm ("" if unknown) */
	size_t			 nrounds;
	struct stat_round	*rounds;
	size_t			 nstat;		/* STAT records read */
	size_t			 nbad;		/* STAT records of no known event, or unreadable */
	uint64_t		 first_bad;	/* file offset of the first of those */
};

/* Read s's stat records.  false if it holds none (not a perf stat file). */
bool stat_report_build(const struct session *s, struct stat_report *out);
void stat_report_free(struct stat_report *r);

/*
 * perf's scaled count of c (the value times enabled over running when the
 * counter ran part of the time); false if it did not run (not counted).
 */
bool stat_count_scaled(const struct stat_count *c, double *out);

#endif
