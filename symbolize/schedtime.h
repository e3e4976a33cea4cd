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
 * and hands each line to a callback with the task's names (and, for a
 * recording with callchains, the frames perf prints after a switch);
 * schedtime_rows() lists the tasks for the summary (-s) in perf's order.
 * Nothing here prints.
 */
#ifndef PERFNAV_SYMBOLIZE_SCHEDTIME_H
#define PERFNAV_SYMBOLIZE_SCHEDTIME_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "core/session.h"

/* A task's totals (perf sched timehist -s). */
struct schedtime_task {
	int32_t		 tid;		/* -1 for a cpu's idle task, and perf's task of exiting threads */
	int32_t		 pid;		/* its process as its last line named it */
	uint32_t	 cpu;		/* the idle task's cpu */
	bool		 idle;		/* a cpu's idle task */
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
/* A switch on cpu at time t of a task left out (perf's --pid, --tid):
 * only the cpu's last switch time moves (and the span). */
void schedtime_skip(struct schedtime *st, uint64_t t, uint32_t cpu);
/* A wakeup of tid at time t (its ready time, unless it has one). */
void schedtime_wakeup(struct schedtime *st, uint64_t t, int64_t tid);
/* A migration of tid (perf counts them with -M only: the walk does not). */
void schedtime_migrate(struct schedtime *st, int64_t tid);

/* perf's letter for a prev_state value: R, S, D, T, t, Z, X, x, K, W, P or ?. */
char schedtime_state_char(int64_t prev_state);

/* The tasks in the order they were first seen (idle tasks included). */
size_t schedtime_ntasks(const struct schedtime *st);
const struct schedtime_task *schedtime_task_at(const struct schedtime *st, size_t i);
/* The idle task of cpu, NULL if none ran there. */
const struct schedtime_task *schedtime_idle(const struct schedtime *st, uint32_t cpu);
/* The number of cpus seen (highest cpu + 1); the first and last switch times. */
uint32_t schedtime_ncpus(const struct schedtime *st);
void schedtime_span(const struct schedtime *st, uint64_t *first, uint64_t *last);
/* Tasks left out by the walk's filters, counted as perf counts them (a
 * switch-out, and each task of a wakeup line it considered); the highest
 * cpu number of any sample the walk read (0 if none). */
uint64_t schedtime_skipped(const struct schedtime *st);
uint32_t schedtime_max_cpu(const struct schedtime *st);

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
	/* switch, with callchains shown: the frames perf prints, leaf first
	 * (names the symbolizer owns, "[unknown]"; not escaped) */
	const char *const	*chain;
	size_t			 nchain;
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

struct symbolizer;

/* What a walk gives. */
struct schedtime_opts {
	bool			 wakeups;	/* -w: a line per wakeup too */
	/* perf's --pid, --tid (none: every task); the idle task is pid 0, tid 0 */
	const int32_t		*pids;
	size_t			 npids;
	const int32_t		*tids;
	size_t			 ntids;
	/* callchains (perf's default, unless -g is turned off): the frames of
	 * each switch-out, resolved by z (kernel frames: perf 6.1's timehist
	 * reads no MMAP2 record, so user frames stay [unknown]), at most
	 * max_stack + 2 of the chain's entries (perf's count), schedule,
	 * __schedule and preempt_schedule then left out.  Shown only when
	 * every event of the recording has callchains (*chains says). */
	struct symbolizer	*z;		/* NULL: no callchains */
	unsigned		 max_stack;	/* perf's default: 5 */
};

/*
 * Walk the samples of s (loaded with its index) in time order through a new
 * state machine, *out (free it with schedtime_free), calling fn for each
 * sched_switch not left out and, with wakeups, each wakeup.  *chains (may
 * be NULL) says whether the switch lines carry callchains.  Returns why
 * there was nothing to walk (*out NULL then).
 */
enum schedtime_none schedtime_walk(const struct session *s, const struct schedtime_opts *o,
    schedtime_fn fn, void *arg, struct schedtime **out, bool *chains);

/* A task of the summary (perf sched timehist -s). */
struct schedtime_row {
	const struct schedtime_task *k;
	int32_t		 pid, tid, ppid;	/* ppid -1: not known */
	const char	*comm;		/* its last comm (not escaped) */
	bool		 dead;		/* it exited (perf's "Terminated tasks") */
	char		 noname[16];	/* ":TID", comm's text for a task without one */
};

/*
 * The tasks that ran (switched out at least once; idle tasks not), each
 * with its names at the end of s, in perf 6.1's order: those still
 * running, then those that exited; each part in the order of perf's
 * thread table (tid modulo 256, then tid).  *out is malloc'd (free it);
 * returns the count.
 */
size_t schedtime_rows(const struct schedtime *st, const struct session *s,
    struct schedtime_row **out);

#endif
