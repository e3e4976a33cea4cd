/*
 * statrep.h: the counts of a `perf stat record` file, as `perf stat report`
 * aggregates them (no curses, no printing: tui/cmd/cmd_stat.c prints).
 *
 * STAT records carry each counter's running totals (value, time enabled,
 * time running) per cpu and thread; a STAT_ROUND closes a round: an
 * interval (-I) or the final one.  Each round here holds, per event and per
 * column (one column, or one per cpu with -A, per thread, or per socket,
 * die, core or node as the recording's topology places its cpus), the sum
 * over the counters of that column; an interval round holds what the
 * counters grew since the round before, as perf prints intervals.
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
	/* Per aggregate (stat_report.per_aggr), as perf's print_aggr: val is the
	 * sum of its cpus' counts, each scaled before (scaled: not scaled
	 * again); ena and run their sums, both 0 when one of its cpus did not
	 * run (not counted); nr the cpus perf counts on the line (all of the
	 * aggregate's, or up to the first that did not run). */
	bool		 scaled;
	uint32_t	 nr;
};

/* An aggregate's id, as perf's aggr_cpu_id: -1 where the mode has none
 * (a socket's die and core; a node's socket, die and core).  A node is its
 * place in the NUMA_TOPOLOGY feature, as perf numbers it. */
struct stat_aggr_id {
	int32_t		node, socket, die, core;
	uint32_t	ncpus;		/* the recording's cpus in it */
};

struct stat_event {
	int		 attr;		/* session attr index */
	const char	*name;		/* the session's */
	bool		 clock;		/* task-clock or cpu-clock: nanoseconds, shown as msec */
	size_t		 supported_from;	/* the first round a STAT record of it came in
					 * (SIZE_MAX: none): before it perf says the event
					 * is <not supported>, after <not counted> */
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
	bool			 per_aggr;	/* columns are aggregates (aggr SOCKET, DIE, CORE,
						 * NODE); false for those when the recording has no
						 * CPU topology: then one column, summed */
	uint64_t		 interval_ms;	/* -I, 0 if none */
	bool			 have_config;
	size_t			 nev;
	struct stat_event	*ev;
	size_t			 ncols;
	int32_t			*cols;		/* per_cpu: each column's cpu, ascending;
						 * per_thread: its THREAD_MAP index, ascending */
	int32_t			*col_pid;	/* per_thread: each column's pid (-1: unknown) */
	char			(*col_comm)[17];	/* per_thread: its comm ("" if unknown) */
	struct stat_aggr_id	*aggr_ids;	/* per_aggr: each column's id, in perf's order */
	size_t			 ncpus;		/* per_aggr: the cpus counted, ascending, */
	int32_t			*cpus;
	uint32_t		*cpu_col;	/* and each one's column */
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

/* An aggregate's id as text ("S0", "S0-D1", "S0-D0-C3", "N1"; "" outside
 * per_aggr) into buf. */
void stat_aggr_text(const struct stat_report *r, size_t col, char *buf, size_t n);

#endif
