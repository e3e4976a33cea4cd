/*
 * schedtime.h: the scheduling times of perf sched timehist, from a
 * recording made with perf sched record (sched:sched_switch samples, and
 * sched:sched_waking or sched:sched_wakeup, sched:sched_wakeup_new).
 *
 * Each sched_switch sample ends a stretch a task ran on its cpu: the task
 * switched out (prev_pid; pid 0 is the cpu's own idle task) ran from the
 * previous sched_switch on that cpu (tprev) to this one (t).  For it:
 *
 *   run time   t - tprev
 *   wait time  tprev - the time it was last switched out (off the cpu)
 *   sch delay  tprev - the time it became ready to run: its first wakeup
 *              since it left the cpu
 *
 * as perf 6.1 computes them: a task that left runnable (preempted) is not
 * ready from then on (its sch delay is 0 unless a wakeup came); its wait
 * time is split by the state it left in: R preempt, D iowait, any other
 * sleep (the totals of perf sched timehist -s --state).
 *
 * all 0 on a cpu's first switch (no tprev), as perf prints them.  A time
 * that would be negative (a wakeup or switch-out after tprev) counts 0.
 *
 * The state machine (schedtime_switch, schedtime_wakeup) is fed one event
 * at a time in time order; schedtime_walk() feeds it a session's samples
 * and hands each line to a callback with the task's names.  Nothing here
 * prints.
 */
#ifndef PERFNAV_SYMBOLIZE_SCHEDTIME_H
#define PERFNAV_SYMBOLIZE_SCHEDTIME_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "core/session.h"

/* A task's totals (perf sched timehist -s). */
struct schedtime_task {
	int32_t		 tid;		/* -1 for a cpu's idle task */
	uint32_t	 cpu;		/* the idle task's cpu */
	int		 last_state;	/* prev_state at its last switch-out, -1 none */
	uint64_t	 last_out;	/* time of its last switch-out, 0 none */
	uint64_t	 ready;		/* time it became ready to run, 0 none */
	/* the run times' statistics */
	uint64_t	 n;		/* switch-outs counted */
	uint64_t	 run_total, run_min, run_max;
	double		 run_mean, run_m2;
	uint64_t	 sleep, iowait, preempt, delay;
	uint64_t	 migrations;
};

/* One sched_switch's times, for the task switched out. */
struct schedtime_delta {
	uint64_t	 run, wait, delay;
	uint64_t	 sleep, iowait, preempt;	/* wait, by the earlier state */
	char		 state;		/* the state it leaves in, as perf's letter */
};

struct schedtime;

struct schedtime *schedtime_new(void);
void schedtime_free(struct schedtime *st);

/*
 * One sched_switch at time t on cpu: prev_pid leaves in prev_state.  Its
 * task is the cpu's idle task if prev_pid is 0, else task tid: perf's, the
 * sample's tid, which is prev_pid but for a task exiting (-1 then, one
 * task for all of them, as perf counts it).  Fills *d with the times of
 * the stretch it ran and returns its task.
 */
const struct schedtime_task *schedtime_switch(struct schedtime *st, uint64_t t, uint32_t cpu,
    int64_t prev_pid, int32_t tid, int64_t prev_state, struct schedtime_delta *d);
/* The highest cpu number taken: a switch on a higher one (a damaged
 * sample) is left out (schedtime_switch returns NULL, *d zeroed). */
#define SCHEDTIME_MAX_CPU	65535
/* A wakeup of tid at time t (its ready time, unless it has one). */
void schedtime_wakeup(struct schedtime *st, uint64_t t, int64_t tid);
/* A migration of tid (counted for -s). */
void schedtime_migrate(struct schedtime *st, int64_t tid);

/* perf's letter for a prev_state value: R, S, D, T, t, Z, X, x, K, W, P or ?. */
char schedtime_state_char(int64_t prev_state);

/* The tasks in the order they were first seen (idle tasks included). */
size_t schedtime_ntasks(const struct schedtime *st);
const struct schedtime_task *schedtime_task_at(const struct schedtime *st, size_t i);
/* The number of cpus seen (highest cpu + 1); the first and last switch times. */
uint32_t schedtime_ncpus(const struct schedtime *st);
void schedtime_span(const struct schedtime *st, uint64_t *first, uint64_t *last);

/* A line of perf sched timehist. */
enum schedtime_kind { SCHEDTIME_SWITCH, SCHEDTIME_WAKEUP };

struct schedtime_line {
	enum schedtime_kind	 kind;
	uint64_t		 time;
	uint32_t		 cpu;
	/* switch: the task switched out; wakeup: the task that woke another */
	int32_t			 pid, tid;	/* pid 0: print the comm alone */
	const char		*comm;		/* the recording's: not escaped */
	const struct schedtime_delta *d;	/* switch */
	/* wakeup: the task woken */
	int32_t			 wpid, wtid;
	const char		*wcomm;
};

typedef void (*schedtime_fn)(void *arg, const struct schedtime_line *l);

enum schedtime_none {
	SCHEDTIME_OK,
	SCHEDTIME_NO_EVENT,	/* no sched:sched_switch samples */
	SCHEDTIME_NO_FORMAT,	/* no tracing data, or a format without the fields */
};

/*
 * Walk the samples of s (loaded with its index) in time order through a new
 * state machine, *out (free it with schedtime_free), calling fn for each
 * sched_switch and, with wakeups, each wakeup.  Returns why there was
 * nothing to walk (*out NULL then).
 */
enum schedtime_none schedtime_walk(const struct session *s, bool wakeups, schedtime_fn fn,
    void *arg, struct schedtime **out);

#endif
