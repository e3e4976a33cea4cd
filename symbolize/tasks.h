/*
 * tasks.h: the process and thread tree of a session, from its thread
 * table (FORK, COMM, EXIT): one model for `perfnav tree` and the
 * processes pane, which keep only their printing and drawing state.
 *
 * It has two levels, built together by tasks_new():
 *  - threads: one row per thread lifetime, depth-first, as perf report
 *    --tasks prints them (a thread below its process leader, a leader
 *    below the leader of the process that forked it, siblings by start);
 *  - processes: one per pid (lifetimes of a reused pid together), with
 *    its threads, their sums, and the fork tree between processes (a
 *    process below the one its leader's ppid names, children by start).
 * Nothing here fails except on out of memory (xcalloc's policy).
 */
#ifndef PERFNAV_SYMBOLIZE_TASKS_H
#define PERFNAV_SYMBOLIZE_TASKS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "core/core.h"

#define TASKS_NONE	UINT32_MAX

/* A thread lifetime's row (perf report --tasks). */
struct task_row {
	uint32_t	thread;		/* id in *session_threads(s) */
	uint32_t	parent;		/* row index of the tree parent, TASKS_NONE */
	uint32_t	depth;
	bool		leader;		/* tid == pid */
	uint64_t	proc_samples;	/* leaders: samples of the whole process */
};

/* A process: every thread of one pid. */
struct task_proc {
	int32_t		 pid;
	uint32_t	 leader;	/* thread id: the leader, else the pid's first thread */
	const uint32_t	*threads;	/* thread ids: the leader first, then by start, tid */
	size_t		 nthreads;
	uint64_t	 samples;	/* of all its threads */
	uint64_t	 start, end;	/* first start, last end of its threads */
	bool		 exited;	/* every thread exited */
	uint32_t	 parent;	/* proc index its leader's ppid names, TASKS_NONE */
	const uint32_t	*kids;		/* proc indexes of the processes it forked, by start, pid */
	size_t		 nkids;
};

struct tasks {
	struct task_row		*rows;		/* threads level, depth-first */
	size_t			 nrows;
	struct task_proc	*procs;		/* processes level, by pid */
	size_t			 nprocs;
	uint32_t		*roots;		/* procs without a parent, by start, pid */
	size_t			 nroots;
	/* storage */
	uint32_t		*thread_order;	/* threads grouped by pid (procs' threads) */
	uint32_t		*kidv;		/* procs' kids */
};

/* The tree of session s (borrowed while building only); free with tasks_free(). */
struct tasks *tasks_new(const struct session *s);
void tasks_free(struct tasks *t);

/* Index of pid's process, or TASKS_NONE. */
uint32_t tasks_proc_find(const struct tasks *t, int32_t pid);

#endif
