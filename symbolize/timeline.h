/*
 * timeline.h: the samples of a session laid out in lanes over time, for
 * the timeline and flame scope panes.  Built once from the session's
 * time-ordered index: per lane (a process, a thread, a CPU, or every
 * sample) the index positions of its samples in time order, grouped by
 * lane in one array (CSR), so a lane's count over any [t0, t1) is two
 * binary searches and W columns of a draw O(W log n).
 *
 * Lanes.  Lane 0 is always every sample (TL_ALL).  TL_TASKS: one lane per
 * process in the order of the process tree (symbolize/tasks.h: depth
 * first, forks below their parent), each followed by its threads' lanes
 * (parent = the process's lane) when it has more than one thread or its
 * thread is not its leader; TL_CPU: one lane per CPU, by number.  Only
 * lanes with samples are made.  A sample's attr can be kept to one event.
 *
 * Besides samples a lane has lost-sample records (LOST, LOST_SAMPLES, by
 * the pid/tid/cpu their sample_id names: records naming none count in
 * lane 0 only) and, for thread lanes and single-thread processes,
 * off-CPU gaps: the spans of an off-CPU model when one is given
 * (symbolize/offcpu.h: sched_switch samples, each with the state the
 * thread left in), else from context switch records (SWITCH,
 * SWITCH_CPU_WIDE: a thread's switch out to its next switch in).
 *
 * Curses-free; nothing fails except on out of memory (xcalloc's policy).
 */
#ifndef PERFNAV_SYMBOLIZE_TIMELINE_H
#define PERFNAV_SYMBOLIZE_TIMELINE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "core/core.h"

struct hist;

enum tl_mode {
	TL_TASKS,	/* processes, their threads below them */
	TL_CPU,		/* one lane per CPU */
	TL_ALL,		/* lane 0 alone (the flame scope's) */
};

enum tl_kind {
	TL_KIND_ALL,
	TL_KIND_PROC,
	TL_KIND_THREAD,
	TL_KIND_CPU,
};

#define TL_NONE	UINT32_MAX

struct tl_lane {
	enum tl_kind	 kind;
	int32_t		 pid, tid;	/* processes: pid (tid = pid); threads: both */
	int32_t		 cpu;		/* CPU lanes; -1 else */
	uint32_t	 parent;	/* threads: their process's lane; else TL_NONE */
	uint32_t	 nkids;		/* processes: thread lanes right after it */
	uint32_t	 thread;	/* thread table id for the comm, THREAD_NONE */
	uint32_t	 first, n;	/* its samples: pos[first .. first + n) */
	uint32_t	 gfirst, gn;	/* its off-CPU gaps: gaps[gfirst .. gfirst + gn) */
	uint64_t	 lost;		/* samples its lost records say were lost */
};

struct tl_lost {
	uint64_t	time, lost;
	int32_t		pid, tid, cpu;	/* -1: unknown */
};

/* What a thread off CPU was doing, from the state it was switched out in. */
enum tl_gap_kind {
	TL_GAP_SLEEP,		/* sleeping (S, I...), or the state unknown (switch records) */
	TL_GAP_BLOCKED,		/* uninterruptible (D): blocked on I/O, a page, a kernel lock */
	TL_GAP_PREEMPTED,	/* runnable (R, R+): preempted */
	TL_GAP_NKINDS,
};

struct tl_gap {
	uint64_t	start, end;	/* switch out, next switch in */
	uint8_t		kind;		/* enum tl_gap_kind */
	uint64_t	wake;		/* the time of the wakeup that ended it (an off-CPU
					 * span's waker, symbolize/offcpu.h), 0: none known */
	int32_t		waker_pid, waker_tid;	/* the thread that woke it (the wakeup
					 * sample's), -1: none known */
};

struct timeline {
	const struct session	*s;
	const struct rec_index	*ix;		/* the session's index */
	enum tl_mode		 mode;
	int			 attr;		/* -1: every event */
	const struct hist	*in;		/* only the samples in its rows (hist_scope_has), or NULL */
	struct tl_lane		*lanes;
	size_t			 nlanes;
	uint32_t		*pos;		/* index positions, grouped by lane, in time order */
	size_t			 npos;
	struct tl_lost		*lost;		/* in time order */
	size_t			 nlost;
	struct tl_gap		*gaps;		/* grouped by lane, by start */
	size_t			 ngaps;
	bool			 has_switch;	/* the recording has context switch records */
	uint64_t		 first, last;	/* sample span (0, 0 without samples) */
};

/*
 * The timeline of session s (kept: it must outlive the timeline) in mode,
 * of the samples of attr (attr index; -1: every sample).
 */
struct timeline *timeline_new(const struct session *s, enum tl_mode mode, int attr);
/*
 * The same over the samples in the rows of hist in (hist_scope_has: the
 * scope it was last counted for; NULL: every sample), which must outlive
 * the timeline.
 */
struct timeline *timeline_new_in(const struct session *s, enum tl_mode mode, int attr,
    const struct hist *in);
/*
 * The same with the off-CPU spans of oc as the gaps when they are of
 * sched_switch samples (else, or NULL, the switch records'); oc must
 * outlive it.
 */
struct offcpu;
struct timeline *timeline_new_oc(const struct session *s, enum tl_mode mode, int attr,
    const struct hist *in, const struct offcpu *oc);
/* The kind of gap a switch-out in prev_state state (struct offcpu_span.state) makes. */
enum tl_gap_kind timeline_gap_kind(uint32_t state);
void timeline_free(struct timeline *tl);
/*
 * The same build in steps, for a caller that must answer between them
 * (the browser's timeline): timeline_job_new() takes timeline_new_oc's
 * arguments, timeline_job_step() looks at up to npos index positions of
 * its passes (true once the lanes are whole); the share made (0..1);
 * timeline_job_take() ends it if need be and returns the timeline,
 * freeing the job.  in and oc must not change between the steps.
 */
struct timeline_job;
struct timeline_job *timeline_job_new(const struct session *s, enum tl_mode mode, int attr,
    const struct hist *in, const struct offcpu *oc);
bool timeline_job_step(struct timeline_job *j, size_t npos);
double timeline_job_share(const struct timeline_job *j);
struct timeline *timeline_job_take(struct timeline_job *j);
void timeline_job_free(struct timeline_job *j);

/* A lane's label: "1234 comm", "1234/1240 comm", "cpu 3", "all"; escaped.  Returns buf. */
const char *timeline_label(const struct timeline *tl, uint32_t lane, char *buf, size_t n);

/* The samples of lane in [t0, t1). */
uint64_t timeline_count(const struct timeline *tl, uint32_t lane, uint64_t t0, uint64_t t1);
/* The first position in lane's pos[] range of a sample at or after t (first + n if none). */
size_t timeline_lower(const struct timeline *tl, uint32_t lane, uint64_t t);

/*
 * Column k of w covers [t0 + (t1 - t0) * k / w, t0 + (t1 - t0) * (k + 1) / w);
 * timeline_col_start() tells where column k starts (k = w: t1).
 */
uint64_t timeline_col_start(uint64_t t0, uint64_t t1, unsigned w, unsigned k);
/* out[k]: the samples of lane in column k of [t0, t1) split in w; returns the largest. */
uint32_t timeline_buckets(const struct timeline *tl, uint32_t lane, uint64_t t0, uint64_t t1,
    unsigned w, uint32_t *out);
/*
 * out[k]: the samples of lane in column k whose own entry of h
 * (hist_sample_entry; h made with record_self) is a function node func.
 */
void timeline_buckets_func(const struct timeline *tl, const struct hist *h, uint32_t lane,
    uint32_t func, uint64_t t0, uint64_t t1, unsigned w, uint32_t *out);
/*
 * The same in two steps, for drawing many lanes and columns of one
 * function: timeline_func_samples() picks the samples of func once (the
 * index positions, in time order, of the samples of lane 0 whose own
 * entry is func; *n of them, malloc'd), timeline_buckets_picked() counts
 * those of a lane in columns (what a sample's pid, tid or CPU says).
 */
uint32_t *timeline_func_samples(const struct timeline *tl, const struct hist *h, uint32_t func,
    size_t *n);
void timeline_buckets_picked(const struct timeline *tl, const uint32_t *picked, size_t n,
    uint32_t lane, uint64_t t0, uint64_t t1, unsigned w, uint32_t *out);
/* out[k]: the samples the lane's lost records in column k say were lost. */
void timeline_lost_buckets(const struct timeline *tl, uint32_t lane, uint64_t t0, uint64_t t1,
    unsigned w, uint64_t *out);
/*
 * out[k]: the nanoseconds of column k the lane was switched out (off CPU);
 * kind (NULL: not wanted) the kind of gap that took most of them.
 */
void timeline_gap_buckets(const struct timeline *tl, uint32_t lane, uint64_t t0, uint64_t t1,
    unsigned w, uint64_t *out, uint8_t *kind);
/* out[k]: the wakeups (tl_gap.wake) of the lane's gaps in column k; returns their sum. */
uint64_t timeline_wake_buckets(const struct timeline *tl, uint32_t lane, uint64_t t0, uint64_t t1,
    unsigned w, uint32_t *out);

/*
 * out[k]: the parallelism of column k of [t0, t1) split in w (perf 6.15's
 * count of running threads, symbolize/parallel.h): its average over the
 * column weighted by time, rounded to the nearest level (at least 1), a
 * change at time t counting from t on.  O(w log n + the changes in view).
 */
struct parallel;
void timeline_par_buckets(const struct parallel *p, uint64_t t0, uint64_t t1, unsigned w,
    uint32_t *out);
/*
 * Which of 4 colours (0 to 3) level of a model whose clamp is max takes:
 * the level itself up to 4 cpus (1 to 4), else max split in quarters
 * (1..max/4, ...).  timeline_par_range says which levels a colour has
 * (false: none).
 */
unsigned timeline_par_bin(uint32_t level, uint32_t max);
bool timeline_par_range(unsigned bin, uint32_t max, uint32_t *lo, uint32_t *hi);

/*
 * The flame scope of a lane: columns of unit ns from origin (the first
 * sample), rows of unit / nrows within a unit, cell = samples.  Cell
 * (col, row) is cells[col * nrows + row] and covers [heat_cell_start,
 * heat_cell_start of the next cell).
 */
struct tl_heat {
	uint64_t	 origin, unit;
	unsigned	 nrows;
	size_t		 ncols;
	uint32_t	*cells;
	uint32_t	 max;
};

#define TL_HEAT_MAX_CELLS	(1u << 22)

/*
 * Lay out lane's samples (false if there are none, or the cells would be
 * over TL_HEAT_MAX_CELLS: then unit was too small); free with
 * timeline_heat_free().
 */
bool timeline_heat(const struct timeline *tl, uint32_t lane, uint64_t unit, unsigned nrows,
    struct tl_heat *ht);
void timeline_heat_free(struct tl_heat *ht);
uint64_t timeline_heat_cell_start(const struct tl_heat *ht, size_t col, unsigned row);
/*
 * The time range [*start, *end] (both in) of the cells from (c0, r0) to
 * (c1, r1) in time order, whichever comes first.
 */
void timeline_heat_range(const struct tl_heat *ht, size_t c0, unsigned r0, size_t c1, unsigned r1,
    uint64_t *start, uint64_t *end);

#endif
