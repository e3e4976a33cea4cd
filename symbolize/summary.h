/*
 * summary.h: what a recording is about at a glance, the model of the
 * browser's Summary page (as hotspot's summary): its samples, the samples
 * perf says it lost, the time they span, who took them (the processes and
 * threads with the most samples), and, over a hist, each event's hottest
 * functions and where symbols did not resolve.
 *
 * summary_new() reads the session's tables only (the index, the counts, the
 * thread table and the process tree: symbolize/tasks.h); no record is
 * decoded but LOST and LOST_SAMPLES ones.  summary_hot() and
 * summary_unresolved() read a hist (symbolize/hist.h), so a caller whose
 * hist is still filling (the browser resolves on worker threads) asks
 * again when it has more.  Nothing here prints; names stay ids (thread
 * ids, hist nodes, DSO ids) for the caller to draw escaped.
 */
#ifndef PERFNAV_SYMBOLIZE_SUMMARY_H
#define PERFNAV_SYMBOLIZE_SUMMARY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "core/core.h"
#include "symbolize/hist.h"
#include "symbolize/symbolizer.h"

#define SUMMARY_TOP_TASKS	10	/* processes and threads kept */
#define SUMMARY_TOP_FUNCS	5	/* hot functions per event */

/* A process (tid == pid) or a thread with samples. */
struct summary_task {
	int32_t		pid, tid;
	uint32_t	thread;		/* id in *session_threads(s): the leader's for a process */
	uint64_t	samples;
};

struct summary {
	uint64_t		samples;	/* SAMPLE records */
	uint64_t		lost_records;	/* LOST and LOST_SAMPLES records */
	uint64_t		lost;		/* the samples they say were lost */
	bool			has_time;	/* the samples have times */
	uint64_t		first, last;	/* the first and the last sample's time */
	/* The processes and threads with the most samples, the most first
	 * (ties: by pid, tid); how many had samples in all. */
	struct summary_task	procs[SUMMARY_TOP_TASKS];
	struct summary_task	threads[SUMMARY_TOP_TASKS];
	size_t			nprocs, nthreads;
	size_t			procs_with, threads_with;
};

/* The summary of session s into *out (never fails). */
void summary_new(const struct session *s, struct summary *out);

/*
 * The processes and threads of *out counted again: with tsamples (per
 * thread of s's thread table, as a scope counts them), else the thread
 * table's samples (what summary_new counts).
 */
void summary_tasks(const struct session *s, const uint64_t *tsamples, struct summary *out);

/*
 * The n functions of event ev (a hist_event index) with the most samples
 * of their own (self), over the entries sel takes (NULL: all), the most
 * first (ties: the larger period, then as hist_rows_self orders them);
 * each is a row of h merged by DSO and symbol (hist_rows_merged), copied
 * into out.  Returns how many (at most n).  Uses h's merged rows: a
 * pointer hist_rows_merged gave before is stale afterwards.
 */
size_t summary_hot(struct hist *h, size_t ev, const struct hist_select *sel,
    struct hist_entry *out, size_t n);

/* A DSO's samples whose own address did not resolve. */
struct summary_unres {
	uint32_t	dso;		/* DSO id or DSO_NONE */
	uint64_t	samples;	/* sample ips not resolved */
	uint64_t	frames;		/* callchain frames not resolved */
	unsigned	why;		/* enum sym_why of most of its samples (else frames) */
};

/*
 * Per DSO, what did not resolve in h (hist_whys, the model of `perfnav top
 * --why`), the DSO with the most unresolved samples first (ties: frames,
 * then as hist_whys lists them).  Returns the count; *out (malloc'd, the
 * caller frees it) gets the rows, NULL when there are none.
 */
size_t summary_unresolved(const struct hist *h, struct summary_unres **out);

#endif
