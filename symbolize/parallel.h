/*
 * parallel.h: the parallelism of each moment of a recording and the latency
 * of each sample, as perf report 6.15 computes them for --latency, the sort
 * key parallelism and --parallelism (perf's cpu-and-latency-overheads.txt).
 *
 * perf 6.15 keeps one count for the whole machine (machine->parallelism):
 * it starts at 1 (the workload runs before its first switch is recorded),
 * each PERF_RECORD_SWITCH or SWITCH_CPU_WIDE adds 1 (a switch-in) or takes
 * 1 (MISC_SWITCH_OUT), and each PERF_RECORD_EXIT takes 1 (an exiting thread
 * is not switched out).  A sample's parallelism is that count when perf
 * reaches the sample, clamped to [1, nr_cpus_avail] ("out-of-order switch
 * events" can take it outside); its latency is period * 1000 / parallelism
 * (an integer: perf's scale, which only percentages show).  perf record
 * --latency records switch events of the workload only (it refuses -a), so
 * the count is the number of the workload's threads on a CPU, over all its
 * processes.  perf refuses all this for a recording without switch events
 * (no attr with context_switch); sched_switch samples play no part.
 *
 * The model is the count after each record that changes it, in index
 * order; a sample's parallelism is read at its index position (records
 * before it).  Nothing is trusted: the count is a 64-bit integer that a
 * hostile recording cannot overflow, and clamped where it is read; samples
 * that met a count outside [1, max] are counted as damage.  Allocation is
 * one array, one step per switch or exit record.  Nothing here prints.
 */
#ifndef PERFNAV_SYMBOLIZE_PARALLEL_H
#define PERFNAV_SYMBOLIZE_PARALLEL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "core/session.h"

/* The highest parallelism: perf's MAX_NR_CPUS, the most --parallelism accepts. */
#define PARALLEL_MAX	4096

/* The count after the record at index position pos (time its time). */
struct parallel_step {
	uint64_t	pos;
	uint64_t	time;
	int64_t		count;
};

struct parallel {
	struct parallel_step *v;	/* in index order */
	size_t		 n, cap;
	uint32_t	 max;		/* the clamp's top: nr_cpus_avail, else PARALLEL_MAX */
	uint64_t	 nin, nout;	/* switch records in, out */
	uint64_t	 nexit;		/* EXIT records */
	uint64_t	 nbad;		/* switch records too short to read */
	uint64_t	 nsamples;	/* samples seen */
	uint64_t	 nlow, nhigh;	/* samples that met a count under 1 / over max */
	uint64_t	 nserial;	/* samples of parallelism 1 (a count of 1 or under) */
};

/* Has s switch events (an attr with context_switch: perf's test)? */
bool parallel_recorded(const struct session *s);

/* The model of s into p (zeroed first).  Never fails; p->n may be 0. */
void parallel_build(const struct session *s, struct parallel *p);
void parallel_free(struct parallel *p);

/*
 * Did the recording run alone (99% of its samples or more of parallelism
 * 1, none: true)?  perf 6.15's report then leaves its Latency column out
 * unless asked for (--latency): it would repeat the Overhead.
 */
bool parallel_serial(const struct parallel *p);

/* A raw count clamped to p's [1, max]. */
uint32_t parallel_clamp(const struct parallel *p, int64_t count);

/*
 * The first step at index position pos or after it (p->n: none), for a
 * walk in index order: a sample at pos has the count of the step before.
 */
size_t parallel_lower(const struct parallel *p, uint64_t pos);

/* The parallelism of the sample at index position pos (1 before any step). */
uint32_t parallel_at(const struct parallel *p, uint64_t pos);

/* The parallelism after every record of time t or earlier. */
uint32_t parallel_at_time(const struct parallel *p, uint64_t t);

/*
 * A sample's latency: period * 1000 / level, rounded down as perf does,
 * without overflowing (saturated at UINT64_MAX).  level 0 counts as 1.
 */
uint64_t parallel_latency(uint64_t period, uint32_t level);

#endif
