/*
 * offcpu.h: off-CPU time, as hotspot and samply count it: a thread switched
 * out at t_out is off CPU until it is next switched in at t_in, and
 * t_in - t_out is charged to the stack it was switched out with.  Three
 * sources, in this order of preference (offcpu_build() takes the first the
 * recording has):
 *
 * - sched:sched_switch samples (perf record -e sched:sched_switch -g): a
 *   sample is the switch-out of its payload's prev_pid, its callchain that
 *   thread's stack (perf takes the sample in the outgoing task); the
 *   switch-in of a thread is the next sched_switch sample, in time order,
 *   whose next_pid is that thread.  Left out, and counted: switch-outs never
 *   followed by a switch-in before the recording ends (a thread that exits,
 *   or one whose switch-in was not recorded), a switch-out followed by
 *   another of the same thread before any switch-in (the earlier one), the
 *   idle task's (prev_pid 0: one pid for every cpu's idle task), and samples
 *   whose payload does not hold the fields.
 * - PERF_RECORD_SWITCH / SWITCH_CPU_WIDE records alone (perf record
 *   --switch-events): a record with PERF_RECORD_MISC_SWITCH_OUT is the
 *   switch-out of the thread its sample_id_all trailer names, the next
 *   switch-in record of that thread its switch-in.  No stack is recorded
 *   there: the span is charged to the thread's last sample (of any event)
 *   before the switch-out, and marked approximate; several spans may share
 *   one sample.  State: R+ when the record says preempted
 *   (MISC_SWITCH_OUT_PREEMPT), else S|D (asleep or blocked: the record does
 *   not say which).  Left out, and counted, as above, and a switch-out of a
 *   thread with no sample before it.
 * - perf record --off-cpu's "offcpu-time" event (a BPF-output event): each
 *   sample is a span already measured, its period the nanoseconds, charged
 *   where it lies (perf 6.14 and before: the sample's own tid, period and
 *   callchain, written at the end of the recording; perf 6.15 and later: the
 *   same fields embedded in the sample's raw data, in samples written at the
 *   end or, for long spans, when they end; offcpu_bpf_sample()).  State S|D (perf records only
 *   those).  Samples whose fields do not hold are left out and counted.
 *
 * Any span over OFFCPU_NS_MAX is damage: left out and counted (nbad).  The
 * model is an array of spans in index order; symbolize/hist.h charges them
 * (hist_opts.offcpu).  Nothing here prints.
 *
 * Who woke a thread: with sched:sched_waking samples in the recording (else
 * sched:sched_wakeup: that one may fire on the woken thread's cpu, in
 * another task than the waker), each sample is a wakeup of its payload's
 * pid by the sample's own thread, with that thread's stack as its callchain.
 * A span of the first two sources learns its waker: the last wakeup of its
 * thread at or after its switch-out and at or before its switch-in, in
 * index (time) order; the span keeps that sample's index position (waker).
 * offcpu-time spans have no switch times: no waker.  Wakeups whose payload
 * does not hold the pid are counted (nwakebad) and skipped.
 */
#ifndef PERFNAV_SYMBOLIZE_OFFCPU_H
#define PERFNAV_SYMBOLIZE_OFFCPU_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "core/record.h"
#include "core/session.h"

/* The name of the pseudo event whose period is off-CPU time, in ns. */
#define OFFCPU_EVENT_NAME	"off-cpu"

/* The name of perf record --off-cpu's event. */
#define OFFCPU_BPF_EVENT	"offcpu-time"
/* The time perf gives the samples it writes at the end (and its next ones). */
#define OFFCPU_BPF_END_TIME	(~0ull << 32)
/* The longest span believed (about 52 days). */
#define OFFCPU_NS_MAX		(1ull << 52)

/* The state of a span whose source says only "not preempted" (S|D). */
#define OFFCPU_STATE_ASLEEP	3u
/* The state of a preempted one (R+: the bit past the states). */
#define OFFCPU_STATE_PREEMPT	0x100u

/* offcpu_span.flags */
#define OFFCPU_APPROX		1u	/* the stack is the thread's last sample's */
#define OFFCPU_EMBEDDED		2u	/* the sample's fields are in its raw data */
#define OFFCPU_BPF		4u	/* an offcpu-time sample: its fields as perf
					 * writes them (offcpu_bpf_sample()) */

/* offcpu_span.waker of a span no wakeup ended (or not known). */
#define OFFCPU_NO_WAKER		UINT64_MAX

/* One stretch of time a thread spent off CPU. */
struct offcpu_span {
	uint64_t	pos;		/* index position of the sample charged */
	uint64_t	ns;		/* t_in - t_out */
	int32_t		tid;		/* the thread */
	uint16_t	state;		/* prev_state as recorded (low 16 bits), or as above */
	uint16_t	flags;		/* OFFCPU_* */
	uint64_t	waker;		/* index position of the wakeup that ended it
					 * (a sched_waking sample), or OFFCPU_NO_WAKER */
	uint64_t	on_ns;		/* the thread's time on CPU before it, from its
					 * last switch-in to this switch-out; 0 when that
					 * switch-in was not recorded (a per-task
					 * recording's from idle) or the source has none */
};

/* Where the spans came from. */
enum offcpu_source {
	OFFCPU_SRC_NONE,
	OFFCPU_SRC_SCHED,	/* sched:sched_switch samples */
	OFFCPU_SRC_SWITCH,	/* SWITCH records and the threads' last samples: approximate */
	OFFCPU_SRC_BPF,		/* perf record --off-cpu's offcpu-time samples */
};

struct offcpu {
	struct offcpu_span *v;		/* sorted by pos (several may share one) */
	size_t		 n, cap;
	enum offcpu_source source;
	bool		 approx;	/* some span is OFFCPU_APPROX */
	bool		 embedded;	/* some span is OFFCPU_EMBEDDED */
	uint64_t	 nswitch;	/* sched_switch samples, SWITCH records or
					 * offcpu-time samples read */
	uint64_t	 nopen;		/* switch-outs never switched in: left out */
	uint64_t	 nagain;	/* switch-outs followed by another of the thread */
	uint64_t	 nidle;		/* switch-outs of pid 0 */
	uint64_t	 nnosample;	/* SWITCH: switch-outs of a thread not sampled before */
	uint64_t	 nbad;		/* samples or records whose fields do not hold,
					 * switch-ins timed before their switch-out,
					 * spans over OFFCPU_NS_MAX */
	uint64_t	 total_ns;	/* the spans' sum */
	bool		 has_wakeups;	/* a sched_waking (or sched_wakeup) event with its pid */
	uint64_t	 nwake;		/* its samples read */
	uint64_t	 nwakebad;	/* of those, payloads without the pid (or time): skipped */
	uint64_t	 nwoken;	/* spans that have a waker */
	uint64_t	 woken_ns;	/* their sum */
};

/* Why offcpu_build() found nothing to pair. */
enum offcpu_none {
	OFFCPU_OK,
	OFFCPU_NO_EVENT,	/* no source: no sched:sched_switch event, no SWITCH
				 * records with samples, no offcpu-time event */
	OFFCPU_NO_FORMAT,	/* sched_switch without its format (tracing data, or
				 * a format without the fields), and no other source */
};

/*
 * The spans of session s into o (which it zeroes first), from the best
 * source it has (o->source).  Returns OFFCPU_OK (o->n may still be 0: no
 * span found) or why it could not; o is then empty.  Allocation is one
 * array of spans and one slot per thread, at most one of each per sample
 * or record.
 */
enum offcpu_none offcpu_build(const struct session *s, struct offcpu *o);
void offcpu_free(struct offcpu *o);
/*
 * Did more than a tenth of o's sched_switch switch-outs go unpaired
 * (never switched in, or out again first)?  Then the recording missed
 * switches (a per-task one, or lost samples), which the views say.
 */
bool offcpu_many_unpaired(const struct offcpu *o);

/*
 * The pairing alone, fed switches one at a time in time order (what
 * offcpu_build() does with each sched_switch sample; tests feed it too):
 * begin zeroes o, each add is one sched_switch at index position pos and
 * time t, end drops what was not paired, sorts the spans by position and
 * frees the pairing's state.
 */
struct offcpu_pairing;
struct offcpu_pairing *offcpu_pairing_begin(struct offcpu *o);
void offcpu_pairing_add(struct offcpu_pairing *p, uint64_t pos, uint64_t t, int64_t prev_pid,
    int64_t next_pid, int64_t prev_state);
void offcpu_pairing_end(struct offcpu_pairing *p);
/* A wakeup of thread pid at index position pos and time t, in the same order. */
void offcpu_pairing_wake(struct offcpu_pairing *p, uint64_t pos, uint64_t t, int64_t pid);

/*
 * Index positions from which offcpu_build() decodes sched_switch samples on
 * two cores (the second half on a thread of its own, paired after the
 * first); tests lower it to check that both give the same spans.
 */
extern size_t offcpu_par_min;

/* The first span at index position pos or after it (o->n: none). */
size_t offcpu_lower(const struct offcpu *o, uint64_t pos);

/* A name for a source ("sched:sched_switch samples", ...). */
const char *offcpu_source_name(enum offcpu_source src);

/*
 * A perf 6.15+ offcpu-time sample (its raw data: u64 pid/tid word, u64
 * period, u64 nr, nr callchain entries, u64 cgroup, in the file's byte
 * order): its fields in place of the sample's own (pid, tid, period, ip,
 * callchain; the callchain then points into the raw data).  The pid/tid
 * word is read as a number: the thread in its high half in the samples
 * written at the end (time from OFFCPU_BPF_END_TIME on), in its low half in
 * those the BPF program wrote when a span ended.  False, smp unchanged,
 * when the raw data does not hold them.
 */
bool offcpu_embedded(struct sample *smp);

/*
 * An offcpu-time sample's fields as perf writes them: offcpu_embedded()'s
 * when it has raw data; else its own, but for its TID field, which perf
 * writes as one u64 (tid << 32 | pid) rather than as the kernel's two u32:
 * in a big-endian file the two halves are swapped back.  False when the
 * fields do not hold (smp then as it was).
 */
bool offcpu_bpf_sample(struct sample *smp);

#endif
