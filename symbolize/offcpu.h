/*
 * offcpu.h: off-CPU time from sched:sched_switch tracepoint samples (perf
 * record -e sched:sched_switch -g), as hotspot and samply count it: a thread
 * switched out at t_out is off CPU until it is next switched in at t_in, and
 * t_in - t_out is charged to the stack it was switched out with.
 *
 * A sched_switch sample is the switch-out of its payload's prev_pid, its
 * callchain that thread's stack (perf takes the sample in the outgoing
 * task); the switch-in of a thread is the next sched_switch sample, in time
 * order, whose next_pid is that thread.  Left out, and counted: switch-outs
 * never followed by a switch-in before the recording ends (a thread that
 * exits, or one whose switch-in was not recorded), a switch-out followed by
 * another of the same thread before any switch-in (the earlier one), the
 * idle task's (prev_pid 0: one pid for every cpu's idle task), and samples
 * whose payload does not hold the fields.
 *
 * The model is an array of spans in index order, one per paired switch-out;
 * symbolize/hist.h charges them (hist_opts.offcpu).  Nothing here prints.
 */
#ifndef PERFNAV_SYMBOLIZE_OFFCPU_H
#define PERFNAV_SYMBOLIZE_OFFCPU_H

#include <stddef.h>
#include <stdint.h>

#include "core/session.h"

/* The name of the pseudo event whose period is off-CPU time, in ns. */
#define OFFCPU_EVENT_NAME	"off-cpu"

/* One stretch of time a thread spent off CPU. */
struct offcpu_span {
	uint64_t	pos;		/* index position of the switch-out sample */
	uint64_t	ns;		/* t_in - t_out */
	int32_t		tid;		/* prev_pid of the switch-out */
	uint32_t	state;		/* its prev_state as recorded (low 32 bits) */
};

struct offcpu {
	struct offcpu_span *v;		/* sorted by pos */
	size_t		 n, cap;
	uint64_t	 nswitch;	/* sched_switch samples read */
	uint64_t	 nopen;		/* switch-outs never switched in: left out */
	uint64_t	 nagain;	/* switch-outs followed by another of the thread */
	uint64_t	 nidle;		/* switch-outs of pid 0 */
	uint64_t	 nbad;		/* samples without time, payload or its fields */
	uint64_t	 total_ns;	/* the spans' sum */
};

/* Why offcpu_build() found nothing to pair. */
enum offcpu_none {
	OFFCPU_OK,
	OFFCPU_NO_EVENT,	/* no sched:sched_switch samples */
	OFFCPU_NO_FORMAT,	/* no tracing data, or a format without the fields */
};

/*
 * Pair the switches of session s into o (which it zeroes first).  Returns
 * OFFCPU_OK (o->n may still be 0: no pair found) or why it could not; o
 * is then empty.  Allocation is one array of spans and one slot per
 * thread, at most one of each per sample.
 */
enum offcpu_none offcpu_build(const struct session *s, struct offcpu *o);
void offcpu_free(struct offcpu *o);

/*
 * The pairing alone, fed switches one at a time in time order (what
 * offcpu_build() does with each sched_switch sample; tests feed it too):
 * begin zeroes o, each add is one sched_switch at index position pos and
 * time t, end drops what was not paired and frees the pairing's state.
 */
struct offcpu_pairing;
struct offcpu_pairing *offcpu_pairing_begin(struct offcpu *o);
void offcpu_pairing_add(struct offcpu_pairing *p, uint64_t pos, uint64_t t, int64_t prev_pid,
    int64_t next_pid, int64_t prev_state);
void offcpu_pairing_end(struct offcpu_pairing *p);

/* The first span at index position pos or after it (o->n: none). */
size_t offcpu_lower(const struct offcpu *o, uint64_t pos);

#endif
