/*
 * wakers.h: who woke a set of off-CPU spans (symbolize/offcpu.h: each
 * span's waker is the sched_waking sample that ended its wait), for the
 * browser's wakers view: the spans a caller takes (the scope's, through a
 * function) grouped by the thread that woke them, each with the off-CPU
 * time its wakeups ended and their number, and under it the distinct
 * stacks of those wakeups (the waking samples' callchains resolved, one
 * stack per sequence of functions), each with its time.  Spans taken
 * without a waker are counted apart.  Rows by time, greatest first.
 *
 * Everything is owned by struct wakers (wakers_free); comm texts are the
 * recording's (escape them to show).  Nothing here prints.
 */
#ifndef PERFNAV_SYMBOLIZE_WAKERS_H
#define PERFNAV_SYMBOLIZE_WAKERS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "core/session.h"
#include "symbolize/offcpu.h"
#include "symbolize/symbolizer.h"

/* The frames kept of a wakeup's stack. */
#define WAKERS_MAX_FRAMES	128

/* A stack of one waker's wakeups. */
struct wakers_stack {
	uint64_t	 ns, spans;	/* the time its wakeups ended, their number */
	uint64_t	 pos;		/* index position of its first wakeup */
	size_t		 frame, nframes;	/* its frames in frames[], leaf first */
};

/* A waker: a thread whose wakeups ended some of the spans. */
struct wakers_row {
	int32_t		 pid, tid;
	char		 comm[32];	/* as of its first wakeup taken */
	uint64_t	 ns, spans;
	size_t		 stack, nstacks;	/* in stacks[], by time */
};

struct wakers {
	struct wakers_row	*rows;
	size_t			 nrows;
	struct wakers_stack	*stacks;
	size_t			 nstacks;
	struct frame		*frames;
	size_t			 nframes;
	uint64_t		 total_ns, spans;	/* the spans taken */
	uint64_t		 woken_ns, woken;	/* of those, the ones with a waker */
};

/* Does the caller take span k of the model? */
typedef bool (*wakers_take_fn)(void *arg, size_t k);

/*
 * The wakers of the spans of oc that take() takes (all: take NULL), into w
 * (zeroed first).  z resolves the wakeups' stacks (max_stack frames at
 * most, 0: WAKERS_MAX_FRAMES); NULL: no stacks.  s is oc's session.
 */
void wakers_build(struct wakers *w, const struct session *s, struct symbolizer *z,
    const struct offcpu *oc, wakers_take_fn take, void *arg, unsigned max_stack);
void wakers_free(struct wakers *w);

#endif
