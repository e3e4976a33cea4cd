/*
 * offcpu_synth.c: the recordings of offcpu_synth.h, written field by field
 * from perf's layouts (tools/perf/util/bpf_off_cpu.c and
 * bpf_skel/off_cpu.bpf.c for offcpu-time; the kernel's perf_event.h for the
 * rest), independently of core/.
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/core.h"
#include "tests/helpers.h"
#include "tests/offcpu_synth.h"

#define ATTR_SIZE		128
#define ATTR_SAMPLE_ID_ALL	(1ull << 18)
#define ATTR_CONTEXT_SWITCH	(1ull << 26)
#define SW_CPU_CLOCK		0
#define SW_BPF_OUTPUT		10
#define MISC_SWITCH_OUT		(1u << 13)
#define MISC_SWITCH_PREEMPT	(1u << 14)
#define END_TIME		(~0ull << 32)	/* perf's OFF_CPU_TIMESTAMP */

#define CTX_USER	((uint64_t)PERF_CONTEXT_USER)

static const uint64_t chain_a[] = { CTX_USER, OSYN_F_LOCK + 0x10, OSYN_F_MAIN + 0x10 };
static const uint64_t chain_b[] = { CTX_USER, OSYN_F_READ + 0x10, OSYN_F_MAIN + 0x10 };
static const uint64_t chain_c[] = { CTX_USER, OSYN_F_SLEEP + 0x10, OSYN_F_READ + 0x20,
	OSYN_F_MAIN + 0x10 };

struct osyn_attr {
	uint64_t	 config, sample_type, flags, id;
	const char	*name;
};

/* One sample's fields; those of the attr's sample_type are written. */
struct osyn_smp {
	uint64_t	 id, ip;
	uint32_t	 pid, tid;
	uint64_t	 time, period;
	const uint64_t	*chain;
	size_t		 nchain;
	const uint64_t	*raw;		/* u64 words */
	size_t		 nraw;
	uint32_t	 raw_size;	/* 0: the words' size and 4 bytes of padding */
	bool		 tid_word;	/* TID as one u64, tid << 32 | pid, as perf writes it */
};

static void
head(struct pdbuf *b, bool swap, const struct osyn_attr *a, size_t n)
{
	size_t ids, attrs;

	memset(b, 0, sizeof *b);
	b->swap = swap;
	pd_u64(b, 0x32454c4946524550ULL);	/* "PERFILE2" */
	pd_u64(b, 104);
	pd_u64(b, ATTR_SIZE + 16);
	pd_zero(b, 104 - 24);
	ids = b->len;
	for (size_t i = 0; i < n; i++)
		pd_u64(b, a[i].id);
	attrs = b->len;
	for (size_t i = 0; i < n; i++) {
		pd_attr(b, ATTR_SIZE, PERF_TYPE_SOFTWARE, a[i].config, 1, a[i].sample_type, 0,
		    a[i].flags);
		pd_u64(b, ids + 8 * i);
		pd_u64(b, 8);
	}
	pd_put64(b, 24, attrs);
	pd_put64(b, 32, n * (ATTR_SIZE + 16));
	pd_put64(b, 40, b->len);	/* the data section starts here */
}

/* The data section ends here; the EVENT_DESC feature names the attrs. */
static void
tail(struct pdbuf *b, const struct osyn_attr *a, size_t n)
{
	size_t data = 0, feat = b->len, h;

	memcpy(&data, b->p + 40, sizeof data);
	if (b->swap)
		data = __builtin_bswap64(data);
	pd_put64(b, 48, feat - data);
	pd_zero(b, 16);
	h = b->len;
	pd_u32(b, (uint32_t)n);
	pd_u32(b, ATTR_SIZE);
	for (size_t i = 0; i < n; i++) {
		pd_attr(b, ATTR_SIZE, PERF_TYPE_SOFTWARE, a[i].config, 1, a[i].sample_type, 0,
		    a[i].flags);
		pd_u32(b, 1);
		pd_feat_str(b, a[i].name);
		pd_u64(b, a[i].id);
	}
	pd_put64(b, feat, h);
	pd_put64(b, feat + 8, b->len - h);
	pd_put64(b, 72, 1ull << 12);
}

/* The sample_id_all trailer of OSYN_SWITCH's attr (TID, TIME). */
static void
trailer(struct pdbuf *b, bool on, uint32_t pid, uint32_t tid, uint64_t t)
{
	if (!on)
		return;
	pd_u32(b, pid);
	pd_u32(b, tid);
	pd_u64(b, t);
}

/* COMM of pid 10's threads 10..13 ("app") and its //anon mapping. */
static void
process(struct pdbuf *b, bool tr)
{
	size_t r;

	for (uint32_t tid = OSYN_PID; tid <= OSYN_PID + 3; tid++) {
		r = pd_rec_begin(b, PF_REC_COMM, 0);
		pd_u32(b, OSYN_PID);
		pd_u32(b, tid);
		pd_str8(b, "app");
		trailer(b, tr, OSYN_PID, tid, 10 + tid);
		pd_rec_end(b, r);
	}
	r = pd_rec_begin(b, PF_REC_MMAP2, PERF_RECORD_MISC_USER);
	pd_u32(b, OSYN_PID);
	pd_u32(b, OSYN_PID);
	pd_u64(b, OSYN_BASE);
	pd_u64(b, 0x1000);
	pd_u64(b, 0);
	pd_u32(b, 0);
	pd_u32(b, 0);
	pd_u64(b, 0);
	pd_u64(b, 0);
	pd_u32(b, 7);	/* rwx: a JIT's */
	pd_u32(b, 2);	/* MAP_PRIVATE */
	pd_str8(b, "//anon");
	trailer(b, tr, OSYN_PID, OSYN_PID, 30);
	pd_rec_end(b, r);
}

static void
sample(struct pdbuf *b, uint64_t st, const struct osyn_smp *s)
{
	size_t r = pd_rec_begin(b, PF_REC_SAMPLE, PERF_RECORD_MISC_USER);

	if (st & PERF_SAMPLE_IDENTIFIER)
		pd_u64(b, s->id);
	if (st & PERF_SAMPLE_IP)
		pd_u64(b, s->ip);
	if ((st & PERF_SAMPLE_TID) && s->tid_word) {
		pd_u64(b, (uint64_t)s->tid << 32 | s->pid);	/* perf's off_cpu_write() */
	} else if (st & PERF_SAMPLE_TID) {
		pd_u32(b, s->pid);
		pd_u32(b, s->tid);
	}
	if (st & PERF_SAMPLE_TIME)
		pd_u64(b, s->time);
	if (st & PERF_SAMPLE_CPU)
		pd_zero(b, 8);
	if (st & PERF_SAMPLE_PERIOD)
		pd_u64(b, s->period);
	if (st & PERF_SAMPLE_CALLCHAIN) {
		pd_u64(b, s->nchain);
		for (size_t i = 0; i < s->nchain; i++)
			pd_u64(b, s->chain[i]);
	}
	if (st & PERF_SAMPLE_RAW) {
		/* perf's: u32 size, the words, 4 bytes to align the field */
		pd_u32(b, s->raw_size != 0 ? s->raw_size : (uint32_t)(8 * s->nraw + 4));
		for (size_t i = 0; i < s->nraw; i++)
			pd_u64(b, s->raw[i]);
		pd_u32(b, 0);
	}
	pd_rec_end(b, r);
}

/* A sample of thread tid at time t with stack c[0..n) (cpu-clock, period 250000). */
static void
cpu_sample(struct pdbuf *b, uint64_t st, uint32_t tid, uint64_t t, const uint64_t *c, size_t n)
{
	struct osyn_smp s = { .id = 100, .ip = c[1], .pid = OSYN_PID, .tid = tid, .time = t,
		.period = 250000, .chain = c, .nchain = n };

	sample(b, st, &s);
}

#define N(a)	(sizeof(a) / sizeof(a)[0])

/* A SWITCH (cpu_wide: SWITCH_CPU_WIDE, the other thread other) of tid at time t. */
static void
sw(struct pdbuf *b, uint32_t tid, uint64_t t, uint16_t misc, bool cpu_wide, uint32_t other)
{
	size_t r = pd_rec_begin(b, cpu_wide ? PF_REC_SWITCH_CPU_WIDE : PF_REC_SWITCH, misc);

	if (cpu_wide) {
		pd_u32(b, other == 0 ? 0 : OSYN_PID);
		pd_u32(b, other);
	}
	trailer(b, true, tid == 0 ? 0 : OSYN_PID, tid, t);
	pd_rec_end(b, r);
}

/*
 * OSYN_SWITCH.  Thread 11 is sampled in A at 1000, out at 1100, in at
 * 1300, out preempted at 1400 (no sample between: A again), in at 1700,
 * sampled in C at 1800, out at 2100, in at 2600; thread 12 sampled in B at
 * 1200, out at 1500, in at 2000, out at 2700 and never in.  Thread 13 goes
 * out at 2150 with no sample before, the idle task at 2200.  Spans: A 200
 * S|D, A 300 R+, B 500 S|D, C 500 S|D.  Hostile: a record without its
 * trailer, and thread 13 switched in before it is sampled and out after,
 * never in again.
 */
static void
build_switch(struct pdbuf *b, bool swap, bool hostile)
{
	const uint64_t st = PERF_SAMPLE_IP | PERF_SAMPLE_TID | PERF_SAMPLE_TIME | PERF_SAMPLE_PERIOD |
	    PERF_SAMPLE_CALLCHAIN;
	const struct osyn_attr a = { SW_CPU_CLOCK, st, ATTR_SAMPLE_ID_ALL | ATTR_CONTEXT_SWITCH, 100,
		"cpu-clock" };
	const uint16_t out = MISC_SWITCH_OUT;

	head(b, swap, &a, 1);
	process(b, true);
	cpu_sample(b, st, 11, 1000, chain_a, N(chain_a));
	sw(b, 11, 1100, out, false, 0);
	cpu_sample(b, st, 12, 1200, chain_b, N(chain_b));
	sw(b, 11, 1300, 0, false, 0);
	sw(b, 11, 1400, out | MISC_SWITCH_PREEMPT, true, 12);
	sw(b, 12, 1500, out, false, 0);
	sw(b, 11, 1700, 0, true, 12);
	cpu_sample(b, st, 11, 1800, chain_c, N(chain_c));
	sw(b, 12, 2000, 0, false, 0);
	sw(b, 11, 2100, out, false, 0);
	sw(b, 13, 2150, out, false, 0);
	sw(b, 0, 2200, out, true, 11);
	sw(b, 11, 2600, 0, true, 0);
	sw(b, 12, 2700, out, false, 0);
	sw(b, 13, 2800, 0, false, 0);
	if (hostile) {
		size_t r = pd_rec_begin(b, PF_REC_SWITCH, out);	/* no trailer */

		pd_rec_end(b, r);
		sw(b, 13, 2900, 0, false, 0);
		cpu_sample(b, st, 13, 2950, chain_b, N(chain_b));
		sw(b, 13, 3000, out, false, 0);
	}
	tail(b, &a, 1);
}

/* The embedded words of a perf 6.15 offcpu-time sample: the pid/tid word, the
 * period, the chain, the cgroup; their number. */
static size_t
embed(uint64_t *w, uint64_t who, uint64_t period, const uint64_t *c, size_t n)
{
	size_t k = 0;

	w[k++] = who;
	w[k++] = period;
	w[k++] = n;
	for (size_t i = 0; i < n; i++)
		w[k++] = c[i];
	w[k++] = 0;	/* cgroup */
	return k;
}

/*
 * OSYN_BPF_NEW.  Thread 11: 3000 ns in A (written by the BPF program when
 * the span ended, at 5000; the outer sample's own tid is the task it ran
 * in, 99) and 4000 in C (at the end); thread 12: 1000 in B (at the end).
 * Hostile, left out and counted: raw data too short for the words, a chain
 * longer than the raw data, a raw size past the record, a period of
 * 2^64-1.
 */
static void
bpf_new(struct pdbuf *b, uint64_t st, bool hostile)
{
	uint64_t w[16];
	struct osyn_smp s = { .id = 200, .pid = 99, .tid = 99, .time = 5000, .period = 1, .raw = w };

	s.nraw = embed(w, (uint64_t)OSYN_PID << 32 | 11, 3000, chain_a, N(chain_a));
	sample(b, st, &s);
	s.pid = s.tid = 0;
	s.period = 0;
	s.time = END_TIME;
	s.nraw = embed(w, 12ull << 32 | OSYN_PID, 1000, chain_b, N(chain_b));
	sample(b, st, &s);
	s.time++;
	s.nraw = embed(w, 11ull << 32 | OSYN_PID, 4000, chain_c, N(chain_c));
	sample(b, st, &s);
	if (!hostile)
		return;
	s.time++;
	s.nraw = 2;	/* two words: no chain */
	sample(b, st, &s);
	s.time++;
	s.nraw = embed(w, 11ull << 32 | OSYN_PID, 100, chain_a, N(chain_a));
	w[2] = 1000;	/* nr */
	sample(b, st, &s);
	s.time++;
	s.nraw = embed(w, 11ull << 32 | OSYN_PID, 100, chain_a, N(chain_a));
	s.raw_size = 4096;
	sample(b, st, &s);
	s.raw_size = 0;
	s.time++;
	s.nraw = embed(w, 11ull << 32 | OSYN_PID, UINT64_MAX, chain_a, N(chain_a));
	sample(b, st, &s);
}

/* OSYN_BPF_OLD: the spans of bpf_new as perf 6.14 writes them, at the end
 * (the TID field one u64).  Hostile: a period of 2^64-1. */
static void
bpf_old(struct pdbuf *b, uint64_t st, bool hostile)
{
	struct osyn_smp s = { .id = 200, .pid = OSYN_PID, .tid = 11, .time = END_TIME, .period = 3000,
		.chain = chain_a, .nchain = N(chain_a), .ip = chain_a[1], .tid_word = true };

	sample(b, st, &s);
	s = (struct osyn_smp){ .id = 200, .pid = OSYN_PID, .tid = 12, .time = END_TIME + 1,
		.period = 1000, .chain = chain_b, .nchain = N(chain_b), .ip = chain_b[1],
		.tid_word = true };
	sample(b, st, &s);
	s = (struct osyn_smp){ .id = 200, .pid = OSYN_PID, .tid = 11, .time = END_TIME + 2,
		.period = 4000, .chain = chain_c, .nchain = N(chain_c), .ip = chain_c[1],
		.tid_word = true };
	sample(b, st, &s);
	if (!hostile)
		return;
	s.time++;
	s.period = UINT64_MAX;
	sample(b, st, &s);
}

static void
build_bpf(struct pdbuf *b, bool swap, bool hostile, bool new_form)
{
	const uint64_t common = PERF_SAMPLE_IDENTIFIER | PERF_SAMPLE_IP | PERF_SAMPLE_TID |
	    PERF_SAMPLE_TIME | PERF_SAMPLE_PERIOD;
	const uint64_t cst = common | PERF_SAMPLE_CALLCHAIN | (new_form ? PERF_SAMPLE_CPU : 0);
	const uint64_t ost = common | (new_form ? PERF_SAMPLE_CPU | PERF_SAMPLE_RAW :
	    PERF_SAMPLE_CALLCHAIN);
	const struct osyn_attr a[2] = {
		{ SW_CPU_CLOCK, cst, 0, 100, "cpu-clock" },
		{ SW_BPF_OUTPUT, ost, 0, 200, "offcpu-time" },
	};

	head(b, swap, a, 2);
	process(b, false);
	cpu_sample(b, cst, 11, 4000, chain_a, N(chain_a));
	cpu_sample(b, cst, 12, 4500, chain_b, N(chain_b));
	if (new_form)
		bpf_new(b, ost, hostile);
	else
		bpf_old(b, ost, hostile);
	tail(b, a, 2);
}

void
osyn_build(struct pdbuf *b, enum osyn_kind k, bool swap, bool hostile)
{
	if (k == OSYN_SWITCH)
		build_switch(b, swap, hostile);
	else
		build_bpf(b, swap, hostile, k == OSYN_BPF_NEW);
}

void
osyn_perfmap(const char *dir)
{
	char path[4096];
	FILE *fp;

	snprintf(path, sizeof path, "%s/perf-%d.map", dir, OSYN_PID);
	fp = fopen(path, "w");
	if (fp == NULL)
		abort();
	fprintf(fp, "%llx 100 f_main\n%llx 100 f_lock\n%llx 100 f_read\n%llx 100 f_sleep\n",
	    (unsigned long long)OSYN_F_MAIN, (unsigned long long)OSYN_F_LOCK,
	    (unsigned long long)OSYN_F_READ, (unsigned long long)OSYN_F_SLEEP);
	fclose(fp);
}
