/*
 * offcpu_synth.h: byte-built recordings for the off-CPU sources other than
 * sched_switch samples (tests/test_offcpu.c), in either byte order, with
 * the values each test works out by hand:
 *
 * - OSYN_SWITCH: cpu-clock samples with callchains and PERF_RECORD_SWITCH /
 *   SWITCH_CPU_WIDE records, no sched_switch (perf record --switch-events);
 * - OSYN_BPF_OLD: perf 6.14's perf record --off-cpu: offcpu-time samples
 *   written at the end, their tid, period and callchain their own;
 * - OSYN_BPF_NEW: perf 6.15's: offcpu-time samples whose raw data embeds
 *   tid, period and callchain, one written when its span ended (the BPF
 *   program's), two at the end.
 *
 * Process 10 (comm "app", threads 11, 12, 13) maps //anon at OSYN_BASE,
 * whose functions the perf-10.map osyn_perfmap() writes names.  The stacks
 * (callee first, after PERF_CONTEXT_USER):
 *   A: f_lock, f_main     B: f_read, f_main     C: f_sleep, f_read, f_main
 */
#ifndef PERFNAV_TESTS_OFFCPU_SYNTH_H
#define PERFNAV_TESTS_OFFCPU_SYNTH_H

#include <stdbool.h>
#include <stdint.h>

struct pdbuf;

#define OSYN_PID	10
#define OSYN_BASE	0x7f0000000000ull
#define OSYN_F_MAIN	(OSYN_BASE + 0x100)
#define OSYN_F_LOCK	(OSYN_BASE + 0x200)
#define OSYN_F_READ	(OSYN_BASE + 0x300)
#define OSYN_F_SLEEP	(OSYN_BASE + 0x400)

enum osyn_kind {
	OSYN_SWITCH,
	OSYN_BPF_OLD,
	OSYN_BPF_NEW,
};

/*
 * The recording of kind k into b.  hostile adds damage the reader must
 * count and leave out (what each kind gets is said in offcpu_synth.c),
 * the good spans staying as they were.
 */
void osyn_build(struct pdbuf *b, enum osyn_kind k, bool swap, bool hostile);

/* Write perf-10.map (the functions' names) into directory dir. */
void osyn_perfmap(const char *dir);

#endif
