#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "symbolize/pt/ptpkt.h"
#include "symbolize/hist.h"
#include "symbolize/filter.h"
#include "symbolize/pt/intel_pt.h"
#include "symbolize/pt/pt_internal.h"

/*
 * intel_pt.c: the items `perf script` and `perf report` show for an Intel
 * PT recording, made from the session's records and the states of the
 * packet decoder (pt_decoder.c).  It is built from a few parts, each in a
 * section of its own below:
 *
 *   clock      TSC <-> perf time, from the AUXTRACE_INFO words;
 *   threads    which thread runs on each CPU (switch and trace-start
 *              records) and the pid of each tid those records named;
 *   code reads what perf learns of each DSO by trying to read its code,
 *              which decides when a decoded walk is reported as an error;
 *   streams    one per AUX buffer index (a CPU, or a thread): its trace
 *              buffers, a decoder and the latest decoded state;
 *   items      the samples and errors a decoded state or record gives,
 *              and with callchains wanted the thread stacks' part in them
 *              (pt_stack.c);
 *   the merge  the records in time order, every stream decoded up to each
 *              record's time before the record is looked at.
 */

static const char *const event_names[] = {
#define X(id, name) name,
	PT_EVENTS(X)
#undef X
};

const char *
pt_event_name(enum pt_event e)
{
	return (unsigned)e < PT_EV_COUNT ? event_names[e] : "?";
}

const char *
pt_item_comm(const struct session *s, const struct pt_item *it, char *buf, size_t n)
{
	const struct thread_table *tt = session_threads(s);
	uint32_t th = thread_table_find(tt, it->tid, it->time);
	const char *comm = th != THREAD_NONE ? thread_comm_at(tt, th, it->time) : NULL;

	if (comm != NULL)
		return comm;
	if (it->tid == 0)
		return "swapper";
	snprintf(buf, n, ":%d", (int)it->tid);
	return buf;
}

/* Addresses from the top half up are the kernel's. */
static bool
is_kernel_ip(uint64_t ip)
{
	return ip >= (UINT64_C(1) << 63);
}

static void *
grow(void *p, size_t *cap, size_t need, size_t size)
{
	size_t ncap;
	void *n;

	if (need <= *cap)
		return p;
	ncap = *cap ? *cap * 2 : 16;
	while (ncap < need)
		ncap *= 2;
	n = realloc(p, ncap * size);
	if (n == NULL)
		abort();
	*cap = ncap;
	return n;
}

/* ---- the recording's parameters ---- */

#define TRACE_KIND_INTEL_PT	1	/* AUXTRACE_INFO type */

/*
 * The 64-bit words an Intel PT AUXTRACE_INFO record carries after its
 * type, in the order the file format lays them out.  Words named *_BIT or
 * *_MASK are bits of the PT event's config.
 */
enum info_word {
	IW_PMU,			/* attr type of the intel_pt events */
	IW_CLOCK_SHIFT,
	IW_CLOCK_MULT,
	IW_CLOCK_ZERO,
	IW_CLOCK_ZERO_OK,	/* the zero word holds a value */
	IW_TSC_BIT,		/* TSC packets on */
	IW_NORETCOMP_BIT,	/* return compression off */
	IW_SWITCHES,		/* how thread switches were recorded (enum) */
	IW_SNAPSHOT,
	IW_PER_CPU,		/* one trace buffer per CPU, not per thread */
	IW_MTC_BIT,
	IW_MTC_PERIOD_MASK,
	IW_CTC_NUM,
	IW_CTC_DEN,
	IW_CYC_BIT,
	IW_NONTURBO_RATIO,
	IW_FILTER_LEN,
	IW_COUNT
};

/* IW_SWITCHES: switch records written for every CPU (record -a). */
#define SWITCHES_CPU_WIDE	3

/* ---- clock: TSC <-> perf time ---- */

struct clock {
	uint32_t	shift, mult;
	uint64_t	zero;
};

static uint64_t
clock_ns(const struct clock *c, uint64_t tsc)
{
	uint64_t whole = tsc >> c->shift;
	uint64_t part = tsc & ((UINT64_C(1) << c->shift) - 1);

	return c->zero + whole * c->mult + ((part * c->mult) >> c->shift);
}

/* TSC ticks in ns nanoseconds. */
static uint64_t
clock_ticks(const struct clock *c, uint64_t ns)
{
	return ((ns / c->mult) << c->shift) + ((ns % c->mult) << c->shift) / c->mult;
}

static uint64_t
clock_tsc(const struct clock *c, uint64_t ns)
{
	return clock_ticks(c, ns - c->zero);
}

/* ---- threads: who runs on each CPU ---- */

/*
 * The thread on each CPU as the switch and trace-start records have told
 * it so far, and the pid of every tid they named with one.  A tid they
 * never named with a pid takes the session's thread table instead.
 */
struct tid_pid {
	int32_t	tid, pid;
};

struct cpu_threads {
	const struct thread_table *table;
	int32_t		*on_cpu;	/* tid by CPU, -1 unknown */
	size_t		 ncpu;
	struct tid_pid	*named;		/* each tid once */
	size_t		 nnamed, capnamed;
};

#define MAX_CPU		65535

static void
threads_put(struct cpu_threads *t, int64_t cpu, int32_t pid, int32_t tid)
{
	size_t i;

	if (cpu < 0 || cpu > MAX_CPU)
		return;
	if ((size_t)cpu >= t->ncpu) {
		size_t n = (size_t)cpu + 1;
		int32_t *v = realloc(t->on_cpu, n * sizeof *v);

		if (v == NULL)
			abort();
		while (t->ncpu < n)
			v[t->ncpu++] = -1;
		t->on_cpu = v;
	}
	t->on_cpu[cpu] = tid;
	if (pid == -1)
		return;
	for (i = 0; i < t->nnamed && t->named[i].tid != tid; i++)
		continue;
	if (i == t->nnamed) {
		t->named = grow(t->named, &t->capnamed, t->nnamed + 1, sizeof *t->named);
		t->named[t->nnamed++].tid = tid;
	}
	t->named[i].pid = pid;
}

static int32_t
threads_on(const struct cpu_threads *t, int32_t cpu)
{
	return cpu >= 0 && (size_t)cpu < t->ncpu ? t->on_cpu[cpu] : -1;
}

/* The pid of tid (at time now), if anything knows it. */
static bool
threads_pid(const struct cpu_threads *t, int32_t tid, uint64_t now, int32_t *pid)
{
	uint32_t th;

	for (size_t i = 0; i < t->nnamed; i++)
		if (t->named[i].tid == tid) {
			*pid = t->named[i].pid;
			return true;
		}
	th = thread_table_find(t->table, tid, now);
	if (th == THREAD_NONE)
		return false;
	*pid = t->table->v[th].pid;
	return true;
}

static void
threads_free(struct cpu_threads *t)
{
	free(t->on_cpu);
	free(t->named);
}

/* ---- streams, items and the run ---- */

/*
 * One AUX buffer index's trace: a CPU's, or a thread's when the buffers
 * were per thread.  Its decoder runs in steps (see the merge below).
 */
struct stream {
	uint32_t		 idx;
	int32_t			 cpu;
	int32_t			 bound_tid;	/* a per-thread buffer's tid, else -1 */
	struct pt_buffer	*bufs;
	size_t			 nbufs, capbufs;
	struct pt_decoder	*dec;
	const struct pt_state	*state;		/* the latest decoded state */
	bool			 unreported;	/* its items not made yet */
	int32_t			 pid, tid;	/* the thread the trace is of now */
	unsigned		 cbr;		/* the last CBR reported, UINT_MAX none */
	uint64_t		 tsc;		/* the stream's time */
	uint64_t		 trace_nr;	/* perf's: its first buffer's number + 1 */
	bool			 waiting;	/* in the merge (decoder not at its end) */
	uint64_t		 resume_at;	/* the merge's key (TSC) */
};

/* An error item (index) of stream (index) outside the --time ranges. */
struct held_error {
	size_t	item, stream;
};

/* A map of the thread table, for lookups by pid. */
struct pid_map {
	int32_t		pid;
	uint32_t	map;
};

/* How often reading a DSO's code failed (see "code reads"). */
enum { READ_NOT_FAILED, READ_FAILED_ONCE, READ_GIVEN_UP };

struct run {
	const struct session	*s;
	struct symbolizer	*z;
	bool			 script;
	struct clock		 clock;
	int			 switches;	/* IW_SWITCHES */
	bool			 per_cpu;
	unsigned		 nonturbo;	/* max non-turbo ratio */
	uint32_t		 khz_per_cbr;
	uint32_t		 branch_mask;	/* branches reported: any of these flags */

	struct stream		*streams;	/* by idx */
	size_t			 nstreams, capstreams;
	struct stream		*walking;	/* the stream being decoded */
	bool			 started;
	uint64_t		 next_due;	/* least resume_at waiting, UINT64_MAX none */

	struct cpu_threads	 threads;
	uint64_t		 now;		/* time of the latest timed record */
	size_t			 pos;		/* index position being looked at */

	uint8_t			*reads;		/* READ_* by DSO */
	size_t			 ndso;
	struct pid_map		*maps;		/* the thread table's maps by pid */
	bool			 maps_sorted;

	struct pt_item		*items;
	size_t			 nitems, capitems;

	const struct hist_filter *time;		/* pt_opts.time */
	struct held_error	*held;		/* errors outside the ranges, kept or not */
	size_t			 nheld, capheld;	/* later: by what follows in their stream */
	struct pt_chains	*chains;	/* callchains wanted: they go there */
	struct pt_stacks	*stacks;	/* with chains: the threads' stacks */
};

static struct pt_item *
add_item(struct run *x, enum pt_item_kind kind, int32_t pid, int32_t tid, int32_t cpu)
{
	struct pt_item *it;

	x->items = grow(x->items, &x->capitems, x->nitems + 1, sizeof *x->items);
	it = &x->items[x->nitems++];
	memset(it, 0, sizeof *it);
	it->kind = kind;
	it->pid = pid;
	it->tid = tid;
	it->cpu = cpu;
	it->before = x->pos;
	return it;
}

/* ---- code reads ---- */

/*
 * perf follows the trace through the traced code, read from the object
 * files; perfnav reads none, but what perf sees depends on which reads
 * failed before.  Per DSO: a walk into code perf cannot read is reported
 * as "Failed to get instruction" the first two times (any other failed
 * read of the DSO counting as the first), and silently ends afterwards.
 * The other reads are perf script's look at the code bytes at each sample
 * it prints and, when a process maps [vdso], its look at the process's
 * object files to tell 32 from 64-bit code.  Only [vdso] itself, which
 * perf copies from its own process, reads fine.
 */

/* The DSO ip lies in for the thread, now, or DSO_NONE. */
static uint32_t
dso_of(struct run *x, int32_t pid, int32_t tid, uint64_t ip)
{
	struct frame f;

	symbolizer_resolve(x->z, pid, tid, x->now,
	    is_kernel_ip(ip) ? PERF_RECORD_MISC_KERNEL : PERF_RECORD_MISC_USER, ip, &f);
	return f.dso < x->ndso ? f.dso : DSO_NONE;
}

/* A read of the DSO at ip other than a walk. */
static void
read_code(struct run *x, int32_t pid, int32_t tid, uint64_t ip)
{
	uint32_t dso = dso_of(x, pid, tid, ip);

	if (dso == DSO_NONE || strcmp(symbolizer_dso_long(x->z, dso), "[vdso]") == 0)
		return;
	if (x->reads[dso] == READ_NOT_FAILED)
		x->reads[dso] = READ_FAILED_ONCE;
}

/* The decoder's question: how does a walk from ip end? */
static enum pt_walk
walk_ends(void *arg, uint64_t ip, bool nr)
{
	struct run *x = arg;
	const struct stream *st = x->walking;
	uint32_t dso;

	if (nr)
		return PT_WALK_FAIL;	/* guest code: there is no guest to look in */
	if (!is_kernel_ip(ip) && st->tid == -1)
		return PT_WALK_FAIL;
	dso = dso_of(x, st->pid, st->tid, ip);
	if (dso == DSO_NONE)
		return PT_WALK_FAIL;
	if (x->reads[dso] == READ_GIVEN_UP)
		return PT_WALK_SILENT;
	x->reads[dso]++;
	return PT_WALK_FAIL;
}

/* The code bytes perf script reads at each sample it prints. */
static void
read_sample_code(struct run *x, int32_t pid, int32_t tid, uint64_t ip)
{
	if (x->script && ip != 0)
		read_code(x, pid, tid, ip);
}

static int
cmp_pid_map(const void *a, const void *b)
{
	const struct pid_map *m = a, *n = b;

	if (m->pid != n->pid)
		return m->pid < n->pid ? -1 : 1;
	return m->map < n->map ? -1 : m->map > n->map;
}

static void
sort_maps(struct run *x)
{
	const struct thread_table *t = session_threads(x->s);

	x->maps_sorted = true;
	x->maps = calloc(t->nmaps + 1, sizeof *x->maps);
	if (x->maps == NULL)
		abort();
	for (size_t i = 0; i < t->nmaps; i++) {
		x->maps[i].pid = t->maps[i].pid;
		x->maps[i].map = (uint32_t)i;
	}
	qsort(x->maps, t->nmaps, sizeof *x->maps, cmp_pid_map);
}

/* Read the object files pid had mapped by time (but the map at loc). */
static void
read_objects_of(struct run *x, int32_t pid, int32_t tid, uint64_t time, uint64_t loc)
{
	const struct thread_table *t = session_threads(x->s);
	size_t lo = 0, hi = t->nmaps;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (x->maps[mid].pid < pid)
			lo = mid + 1;
		else
			hi = mid;
	}
	for (; lo < t->nmaps && x->maps[lo].pid == pid; lo++) {
		const struct map_ev *m = &t->maps[x->maps[lo].map];

		if (m->time <= time && m->loc != loc &&
		    strtab_get(&t->strs, m->filename)[0] == '/')
			read_code(x, pid, tid, m->start);
	}
}

/*
 * A user-space [vdso] map (record r): the process's object files are
 * read, its own and those it had from its ancestors when they forked it.
 */
static void
vdso_mapped(struct run *x, const struct rec *r, const struct rec_mmap *m)
{
	const struct thread_table *t = session_threads(x->s);
	int32_t pid = m->pid, tid = m->tid;
	uint64_t time = x->now;

	if (m->filename_max < 7 || memcmp(m->filename, "[vdso]", 7) != 0)
		return;
	if (!x->maps_sorted)
		sort_maps(x);
	for (int gen = 0; gen < 16 && pid > 0; gen++) {
		uint32_t th = thread_table_find(t, pid, time);

		read_objects_of(x, pid, gen == 0 ? tid : pid, time, r->loc);
		if (th == THREAD_NONE || t->v[th].ppid <= 0 || t->v[th].ppid == pid)
			break;
		time = t->v[th].start;
		pid = t->v[th].ppid;
	}
}

/* ---- items from a decoded state ---- */

/*
 * The branch flags a state's branches sample shows.  The decoder cannot
 * tell a branch's instruction (perfnav walks no code), so a synchronous
 * branch is untyped; asynchronous ones are interrupts, VM exits or the
 * end of tracing; a state without a source is where tracing begins.
 */
static uint32_t
branch_flags(const struct pt_state *st)
{
	uint32_t f;

	if (st->flags & PT_SF_ABORT_TX)
		f = PT_FLAG_BRANCH | PT_FLAG_TX_ABORT;
	else if ((st->flags & PT_SF_ASYNC) && st->to_ip == 0)
		f = PT_FLAG_BRANCH | PT_FLAG_TRACE_END;
	else if ((st->flags & PT_SF_ASYNC) && st->from_nr && !st->to_nr)
		f = PT_FLAG_BRANCH | PT_FLAG_CALL | PT_FLAG_VMEXIT;
	else if (st->flags & PT_SF_ASYNC)
		f = PT_FLAG_BRANCH | PT_FLAG_CALL | PT_FLAG_ASYNC | PT_FLAG_INTERRUPT;
	else
		f = (st->from_ip ? 0 : PT_FLAG_BRANCH | PT_FLAG_TRACE_BEGIN) |
		    (st->flags & PT_SF_IN_TX ? PT_FLAG_IN_TX : 0);
	if (st->type & PT_ST_TRACE_BEGIN)
		f |= PT_FLAG_TRACE_BEGIN;
	if (st->type & PT_ST_TRACE_END)
		f |= PT_FLAG_TRACE_END;
	return f;
}

/* What a sample's payload column holds. */
enum shown { SHOWN_NOTHING, SHOWN_PSB_OFFSET, SHOWN_RATIO, SHOWN_PAYLOAD };

/*
 * The samples of a state other than its branch, in the order perf prints
 * them.  The cbr sample comes with any state whose ratio differs from the
 * stream's last one reported (so also with the stream's first state).
 */
static const struct {
	unsigned	 when;		/* PT_ST_* bit; 0: the ratio changed */
	enum pt_event	 event;
	enum shown	 shown;
} state_samples[] = {
	{ PT_ST_PSB,		PT_EV_PSB,		SHOWN_PSB_OFFSET },
	{ 0,			PT_EV_CBR,		SHOWN_RATIO },
	{ PT_ST_MWAIT,		PT_EV_MWAIT,		SHOWN_PAYLOAD },
	{ PT_ST_PWR_ENTRY,	PT_EV_PWRE,		SHOWN_PAYLOAD },
	{ PT_ST_EX_STOP,	PT_EV_EXSTOP,		SHOWN_NOTHING },
	{ PT_ST_PWR_EXIT,	PT_EV_PWRX,		SHOWN_PAYLOAD },
	{ PT_ST_TRANSACTION,	PT_EV_TRANSACTIONS,	SHOWN_NOTHING },
	{ PT_ST_PTW,		PT_EV_PTWRITE,		SHOWN_PAYLOAD },
};

/*
 * A sample of the stream's state from ip to addr, at the stream's time.
 * Its cpumode is that of ip, or of addr when there is no ip; guest modes
 * for code in a guest.
 */
static void
add_sample(struct run *x, const struct stream *st, enum pt_event ev, uint64_t payload,
    uint64_t ip, uint64_t addr, uint32_t flags)
{
	const struct pt_state *d = st->state;
	struct pt_item *it = add_item(x, PT_ITEM_SAMPLE, st->pid, st->tid, st->cpu);
	bool guest = ip ? d->from_nr : d->to_nr;
	bool kernel = is_kernel_ip(ip ? ip : addr);

	it->event = ev;
	it->time = clock_ns(&x->clock, st->tsc);
	it->ip = ip;
	it->addr = addr;
	if (guest)
		it->cpumode = kernel ? PERF_RECORD_MISC_GUEST_KERNEL : PERF_RECORD_MISC_GUEST_USER;
	else
		it->cpumode = kernel ? PERF_RECORD_MISC_KERNEL : PERF_RECORD_MISC_USER;
	it->flags = flags;
	it->payload = payload;
	if (ev == PT_EV_CBR) {
		it->freq_khz = (uint32_t)payload * x->khz_per_cbr;
		it->max_nonturbo = x->nonturbo;
	}
	if (x->chains != NULL && ev != PT_EV_BRANCHES)
		pt_chains_put(x->chains, x->stacks, st->tid, st->cpu, ip, &it->chain, &it->nchain);
	if (!guest)
		read_sample_code(x, it->pid, it->tid, ip);
}

/*
 * The errors of stream st held outside the --time ranges: kept when it
 * enters a range, dropped at a PSB outside them (perf fast-forwards past
 * it) or at the end.
 */
static void
held_settle(struct run *x, const struct stream *st, bool keep)
{
	size_t k = 0;

	for (size_t i = 0; i < x->nheld; i++) {
		if (st != NULL && x->held[i].stream != (size_t)(st - x->streams))
			x->held[k++] = x->held[i];
		else if (!keep)
			x->items[x->held[i].item].kind = PT_ITEM_DROPPED;
	}
	x->nheld = k;
}

/* The items of the stream's latest state, once. */
static void
report_state(struct run *x, struct stream *st)
{
	const struct pt_state *d = st->state;
	uint32_t flags;
	bool inside;

	if (!st->unreported)
		return;
	st->unreported = false;
	/* outside perf's --time ranges: no sample, the ratio not reported */
	inside = x->time == NULL || filter_time_ok(x->time, clock_ns(&x->clock, st->tsc));
	if (x->nheld != 0 && (inside || (d->type & PT_ST_PSB)))
		held_settle(x, st, inside);
	for (size_t i = 0; inside && i < sizeof state_samples / sizeof state_samples[0]; i++) {
		uint64_t v = 0;

		if (state_samples[i].when == 0) {
			if (d->cbr == st->cbr)
				continue;
			st->cbr = d->cbr;
		} else if (!(d->type & state_samples[i].when)) {
			continue;
		}
		switch (state_samples[i].shown) {
		case SHOWN_NOTHING:
			break;
		case SHOWN_PSB_OFFSET:
			v = d->psb_offset;
			break;
		case SHOWN_RATIO:
			v = d->cbr;
			break;
		case SHOWN_PAYLOAD:
			v = d->payload;
			break;
		}
		add_sample(x, st, state_samples[i].event, v, d->from_ip, d->to_ip, 0);
	}
	if (!(d->type & PT_ST_BRANCH))
		return;
	flags = branch_flags(d);
	/* after the state's other samples; walking no code, no instruction is known long */
	if (x->stacks != NULL && st->tid != -1)
		pt_stacks_event(x->stacks, st->tid, st->cpu, flags, d->from_ip, d->to_ip, 0,
		    st->trace_nr);
	if (!(flags & x->branch_mask) || !inside)
		return;
	if (d->from_nr != d->to_nr && d->from_ip && d->to_ip) {
		/* between host and guest: a sample for each side */
		add_sample(x, st, PT_EV_BRANCHES, 0, d->from_ip, 0, flags);
		add_sample(x, st, PT_EV_BRANCHES, 0, 0, d->to_ip, flags);
		return;
	}
	add_sample(x, st, PT_EV_BRANCHES, 0, d->from_ip, d->to_ip, flags);
}

/* A decoder error: perf script's "instruction trace error" line. */
static void
report_error(struct run *x, const struct stream *st, const struct pt_state *d)
{
	struct pt_item *it;

	if (!x->script)
		return;
	it = add_item(x, PT_ITEM_ERROR, st->pid, st->tid, st->cpu);
	it->code = d->err;
	it->ip = d->from_ip;
	it->time = clock_ns(&x->clock, d->timestamp);
	if (x->time != NULL && !filter_time_ok(x->time, it->time)) {
		x->held = grow(x->held, &x->capheld, x->nheld + 1, sizeof *x->held);
		x->held[x->nheld].item = x->nitems - 1;
		x->held[x->nheld++].stream = (size_t)(st - x->streams);
	}
}

/* ---- streams ---- */

static struct stream *
stream_of(struct run *x, uint32_t idx, int32_t cpu, int32_t tid)
{
	size_t i;

	for (i = 0; i < x->nstreams; i++)
		if (x->streams[i].idx == idx)
			return &x->streams[i];
	x->streams = grow(x->streams, &x->capstreams, x->nstreams + 1, sizeof *x->streams);
	for (i = x->nstreams; i > 0 && x->streams[i - 1].idx > idx; i--)
		x->streams[i] = x->streams[i - 1];
	x->nstreams++;
	memset(&x->streams[i], 0, sizeof x->streams[i]);
	x->streams[i].idx = idx;
	x->streams[i].cpu = cpu;
	x->streams[i].bound_tid = tid;
	x->streams[i].tid = tid;
	x->streams[i].pid = -1;
	x->streams[i].cbr = UINT32_MAX;
	return &x->streams[i];
}

/*
 * Before each step, the stream takes the thread on its CPU, unless its
 * buffer is a thread's and the recording has no switch records; and the
 * pid of that thread where known.
 */
static void
stream_take_thread(struct run *x, struct stream *st)
{
	int32_t pid;

	if (st->bound_tid == -1 || x->switches != 0) {
		st->tid = threads_on(&x->threads, st->cpu);
		if (st->tid == -1)
			st->pid = -1;
	}
	if (st->tid != -1 && threads_pid(&x->threads, st->tid, x->now, &pid))
		st->pid = pid;
}

/*
 * A stream's time after state d: the state's time, except that it never
 * goes back but on a return to user space, where it takes the state's
 * time as it is.
 */
static uint64_t
stream_time(uint64_t now, const struct pt_state *d)
{
	bool to_user = d->to_ip != 0 && !is_kernel_ip(d->to_ip);

	if (to_user && (d->from_ip == 0 || is_kernel_ip(d->from_ip)))
		return d->timestamp;
	return d->timestamp > now ? d->timestamp : now;
}

/*
 * Decode the stream until its time reaches *until (then *until is that
 * time), reporting each state's items as the next state comes.  False
 * when the trace ends first.
 */
static bool
stream_step(struct run *x, struct stream *st, uint64_t *until)
{
	x->walking = st;
	for (;;) {
		const struct pt_state *d;

		report_state(x, st);
		d = pt_decode(st->dec);
		if (d->err == PT_ERR_NODATA)
			return false;
		if (d->err) {
			report_error(x, st, d);
			continue;
		}
		st->state = d;
		st->unreported = true;
		st->tsc = stream_time(st->tsc, d);
		if (st->tsc >= *until) {
			*until = st->tsc;
			return true;
		}
	}
}

/*
 * A stream starts at its first state with a time: what comes before,
 * errors included, shows nothing.
 */
static void
stream_start(struct run *x, struct stream *st)
{
	const struct pt_state *d;

	x->walking = st;
	do {
		d = pt_decode(st->dec);
		if (d->err == PT_ERR_NODATA)
			return;
	} while (d->err || d->timestamp == 0);
	st->state = d;
	st->unreported = true;
	st->tsc = d->timestamp;
	st->resume_at = d->timestamp;
	st->waiting = true;
}

/* ---- the merge ---- */

/*
 * The records are looked at in time order; before a timed record, every
 * stream is decoded up to its time.  The streams take turns: the one
 * waiting with the earliest resume_at (the lowest idx of equals) steps
 * until its time reaches the next one's resume_at + 1, or the record's
 * time, whichever is first; it then waits again at the time it reached.
 * So items of several CPUs interleave in time order, each before the
 * record that follows it, and each stream's thread is as the records
 * before that point left it.
 */

static struct stream *
earliest(const struct run *x)
{
	struct stream *best = NULL;

	for (size_t i = 0; i < x->nstreams; i++)
		if (x->streams[i].waiting &&
		    (best == NULL || x->streams[i].resume_at < best->resume_at))
			best = &x->streams[i];
	return best;
}

static void
note_next_due(struct run *x)
{
	const struct stream *st = earliest(x);

	x->next_due = st != NULL ? st->resume_at : UINT64_MAX;
}

/* The streams start when the first timed record comes (or at the end). */
static void
merge_start(struct run *x)
{
	x->started = true;
	for (size_t i = 0; i < x->nstreams; i++)
		stream_start(x, &x->streams[i]);
	note_next_due(x);
}

/* Decode every stream up to TSC limit (exclusive). */
static void
merge_until(struct run *x, uint64_t limit)
{
	if (x->next_due >= limit)
		return;
	for (;;) {
		struct stream *st = earliest(x), *next;
		uint64_t until = limit;

		if (st == NULL || st->resume_at >= limit)
			break;
		st->waiting = false;
		next = earliest(x);
		if (next != NULL && next->resume_at + 1 < limit)
			until = next->resume_at + 1;
		stream_take_thread(x, st);
		if (stream_step(x, st, &until)) {
			st->resume_at = until;
			st->waiting = true;
		}
	}
	note_next_due(x);
}

/* ---- records ---- */

/*
 * Switch records: a switch-in puts its thread on the CPU.  With switch
 * records for every CPU, a switch-out already names the thread coming
 * next, and a switch-in only corrects a CPU whose thread differs.
 */
static void
on_switch(struct run *x, const struct rec *r)
{
	struct sample_id sid;
	struct rec_switch sw;

	if (record_switch(r, &sw) < 0 ||
	    record_decode_sample_id(session_attrs(x->s), r, &sid) < 0 || !(sid.have & PERF_SAMPLE_CPU))
		return;
	if (x->switches != SWITCHES_CPU_WIDE) {
		if (!sw.out)
			threads_put(&x->threads, sid.cpu, (int32_t)sid.pid, (int32_t)sid.tid);
	} else if (!sw.out) {
		if (threads_on(&x->threads, (int32_t)sid.cpu) != (int32_t)sid.tid)
			threads_put(&x->threads, sid.cpu, (int32_t)sid.pid, (int32_t)sid.tid);
	} else if (sw.cpu_wide) {
		threads_put(&x->threads, sid.cpu, sw.other_pid, sw.other_tid);
	}
}

/* A trace-start record puts its thread on a per-CPU buffer's CPU. */
static void
on_trace_start(struct run *x, const struct rec *r)
{
	struct sample_id sid;
	struct rec_itrace_start it;

	if (!x->per_cpu || record_itrace_start(r, &it) < 0)
		return;
	if (record_decode_sample_id(session_attrs(x->s), r, &sid) < 0 || !(sid.have & PERF_SAMPLE_CPU))
		return;
	threads_put(&x->threads, sid.cpu, it.pid, it.tid);
}

/* An AUX record of a truncated area: perf script reports lost trace data. */
static void
on_aux(struct run *x, const struct rec *r)
{
	struct sample_id sid;
	struct pt_item *it;
	struct rec_aux aux;
	bool tid;

	if (!x->script || record_aux(r, &aux) < 0 || !(aux.flags & 1))
		return;
	if (record_decode_sample_id(session_attrs(x->s), r, &sid) < 0)
		return;
	tid = sid.have & PERF_SAMPLE_TID;
	it = add_item(x, PT_ITEM_ERROR, tid ? (int32_t)sid.pid : -1, tid ? (int32_t)sid.tid : -1,
	    (sid.have & PERF_SAMPLE_CPU) ? (int32_t)sid.cpu : -1);
	it->code = PT_ERR_LOST;
	it->time = (sid.have & PERF_SAMPLE_TIME) ? sid.time : 0;
}

/* A process's user-space map, for [vdso]. */
static void
on_map(struct run *x, const struct rec *r)
{
	uint16_t mode = r->misc & PERF_RECORD_MISC_CPUMODE_MASK;
	struct rec_mmap m;

	if (record_mmap(r, &m) < 0 || mode == PERF_RECORD_MISC_KERNEL ||
	    mode == PERF_RECORD_MISC_GUEST_KERNEL || m.pid == -1)
		return;
	vdso_mapped(x, r, &m);
}

/*
 * A sample: perf script prints it (and reads the code at its ip); perf
 * report gives it a chain from its thread's stack if it has none.
 */
static void
on_sample(struct run *x, const struct rec *r)
{
	struct sample smp;
	uint64_t t;
	int a;

	if (!x->script && x->chains == NULL)
		return;
	a = record_attr(session_attrs(x->s), r);
	if (a < 0 || record_sample_head(session_attrs(x->s), r, a, &smp) < 0)
		return;
	t = smp.sample_type;
	if (x->chains != NULL && !(t & PERF_SAMPLE_CALLCHAIN))
		pt_chains_put_late(x->chains, x->stacks, x->pos,
		    t & PERF_SAMPLE_TID ? (int32_t)smp.tid : -1,
		    t & PERF_SAMPLE_CPU ? (int32_t)smp.cpu : -1, t & PERF_SAMPLE_IP ? smp.ip : 0);
	if (t & PERF_SAMPLE_IP)
		read_sample_code(x, (int32_t)smp.pid, (int32_t)smp.tid, smp.ip);
}

/* A fork makes its thread anew, with a stack of its own (empty). */
static void
on_fork(struct run *x, const struct rec *r)
{
	struct rec_who w = { -1, -1, 0, false };

	if (x->stacks != NULL && record_who(r, &w) == 0)
		pt_stacks_forget(x->stacks, (int32_t)w.tid);
}

static void
on_record(struct run *x, const struct rec *r)
{
	switch (r->type) {
	case PF_REC_SWITCH:
	case PF_REC_SWITCH_CPU_WIDE:
		on_switch(x, r);
		break;
	case PF_REC_AUX:
		on_aux(x, r);
		break;
	case PF_REC_ITRACE_START:
		on_trace_start(x, r);
		break;
	case PF_REC_MMAP:
	case PF_REC_MMAP2:
		on_map(x, r);
		break;
	case PF_REC_SAMPLE:
		on_sample(x, r);
		break;
	case PF_REC_FORK:
		on_fork(x, r);
		break;
	default:
		break;
	}
}

/* ---- set-up ---- */

static const struct rec_ent *
first_of_type(const struct session *s, unsigned type)
{
	const struct rec_index *ix = session_index(s);

	for (size_t i = 0; i < ix->n; i++)
		if (ent_type(index_ent(ix, i)) == type)
			return index_ent(ix, i);
	return NULL;
}

/* The AUXTRACE_INFO record of an Intel PT recording. */
static bool
pt_info_rec(const struct session *s, struct rec *r)
{
	const struct rec_ent *e;

	/* asked often (every pass asks): no scan of the index when there is none */
	if (session_counts(s)->by_type[PF_REC_AUXTRACE_INFO] == 0)
		return false;
	e = first_of_type(s, PF_REC_AUXTRACE_INFO);

	return e != NULL && session_rec(s, ent_loc(e), r) == 0 && r->size >= 16 &&
	    rd32(r->p + 8, r->swap) == TRACE_KIND_INTEL_PT;
}

bool
pt_present(const struct session *s)
{
	struct rec r;

	return pt_info_rec(s, &r);
}

/*
 * The config of the first PT event.  False when there is none, or when an
 * event has no time in its samples: perf then decodes without timestamps,
 * which this does not do.
 */
static bool
pt_event_config(const struct session *s, uint64_t pmu, uint64_t *config)
{
	const struct attr_table *at = session_attrs(s);
	bool found = false;

	for (size_t i = 0; i < at->n; i++) {
		const struct perf_event_attr *a = &at->v[i].attr;

		if (!(a->sample_type & PERF_SAMPLE_TIME))
			return false;
		if (!found && a->type == pmu) {
			*config = a->config;
			found = true;
		}
	}
	return found;
}

static int
cmp_u64(const void *a, const void *b)
{
	uint64_t m = *(const uint64_t *)a, n = *(const uint64_t *)b;

	return m < n ? -1 : m > n;
}

/* Each AUXTRACE record's data, to its stream, in file order. */
static void
collect_buffers(struct run *x)
{
	const struct session *s = x->s;
	const struct rec_index *ix = session_index(s);
	uint64_t *locs = NULL;
	size_t n = 0, cap = 0;

	for (size_t i = 0; i < ix->n; i++)
		if (ent_type(index_ent(ix, i)) == PF_REC_AUXTRACE) {
			locs = grow(locs, &cap, n + 1, sizeof *locs);
			locs[n++] = ent_loc(index_ent(ix, i));
		}
	if (n > 1)
		qsort(locs, n, sizeof *locs, cmp_u64);
	for (size_t i = 0; i < n; i++) {
		struct stream *st;
		struct rec r;
		uint64_t len;
		const uint8_t *data;

		if (session_rec(s, locs[i], &r) < 0 || r.size < 48)
			continue;
		len = rd64(r.p + 8, r.swap);
		data = session_bytes(s, r.loc + r.size, len);
		if (data == NULL || len == 0)
			continue;
		st = stream_of(x, rd32(r.p + 32, r.swap), (int32_t)rd32(r.p + 40, r.swap),
		    (int32_t)rd32(r.p + 36, r.swap));
		if (st->nbufs == 0)	/* perf numbers the buffers in file order */
			st->trace_nr = i + 1;
		st->bufs = grow(st->bufs, &st->capbufs, st->nbufs + 1, sizeof *st->bufs);
		st->bufs[st->nbufs++] = (struct pt_buffer){
			.data = data,
			.len = (size_t)len,
			.ref_tsc = rd64(r.p + 24, r.swap),
		};
	}
	free(locs);
}

/* The decoder's parameters, from the info words and the event's config. */
static void
decoder_params(const uint64_t *w, uint64_t config, struct pt_params *p)
{
	memset(p, 0, sizeof *p);
	if (w[IW_MTC_PERIOD_MASK]) {
		uint64_t mask = w[IW_MTC_PERIOD_MASK];
		int low = 0;

		while (!(mask >> low & 1))
			low++;
		p->mtc_shift = (int)((config & mask) >> low);
	}
	p->tsc_ctc_n = (uint32_t)w[IW_CTC_NUM];
	p->tsc_ctc_d = (uint32_t)w[IW_CTC_DEN];
	p->max_non_turbo_ratio = (unsigned)w[IW_NONTURBO_RATIO];
	/* config bit 0 (pt) without bit 13 (branch_en): no branch packets */
	p->branch_enable = !((config & 1) && !(config & 0x2000));
	p->return_compression = !w[IW_NORETCOMP_BIT] || !(config & w[IW_NORETCOMP_BIT]);
}

static void
run_free(struct run *x)
{
	for (size_t i = 0; i < x->nstreams; i++) {
		pt_decoder_free(x->streams[i].dec);
		free(x->streams[i].bufs);
	}
	free(x->streams);
	threads_free(&x->threads);
	free(x->reads);
	free(x->maps);
	pt_stacks_free(x->stacks);
}

size_t
pt_synth(const struct session *s, struct symbolizer *z, const struct pt_opts *o,
    struct pt_item **out)
{
	return pt_synth_chains(s, z, o, out, NULL);
}

size_t
pt_synth_chains(const struct session *s, struct symbolizer *z, const struct pt_opts *o,
    struct pt_item **out, struct pt_chains *c)
{
	const struct rec_index *ix = session_index(s);
	struct run x;
	struct pt_params p;
	uint64_t w[IW_COUNT], config = 0;
	size_t nw;
	struct rec r;

	*out = NULL;
	if (!pt_info_rec(s, &r))
		return 0;
	memset(w, 0, sizeof w);
	nw = (r.size - 16) / 8;
	for (size_t i = 0; i < nw && i < IW_COUNT; i++)
		w[i] = rd64(r.p + 16 + 8 * i, r.swap);
	/* Only traces with timestamps are decoded here; others give nothing. */
	if (nw <= IW_PER_CPU || w[IW_CLOCK_MULT] == 0 || w[IW_CLOCK_SHIFT] > 63 ||
	    !w[IW_CLOCK_ZERO_OK] || !w[IW_TSC_BIT])
		return 0;
	if (!pt_event_config(s, w[IW_PMU], &config) || !(config & w[IW_TSC_BIT]))
		return 0;

	memset(&x, 0, sizeof x);
	x.s = s;
	x.z = z;
	x.script = o->script;
	x.time = o->time;
	x.clock.shift = (uint32_t)w[IW_CLOCK_SHIFT];
	x.clock.mult = (uint32_t)w[IW_CLOCK_MULT];
	x.clock.zero = w[IW_CLOCK_ZERO];
	x.switches = (int)w[IW_SWITCHES];
	x.per_cpu = w[IW_PER_CPU] != 0;
	x.nonturbo = (unsigned)w[IW_NONTURBO_RATIO];
	if (x.nonturbo)	/* TSC ticks per second over the ratio */
		x.khz_per_cbr =
		    (uint32_t)(clock_ticks(&x.clock, UINT64_C(1000000000)) / x.nonturbo / 1000);
	/* perf script: branches at calls, asynchronous transfers and trace ends */
	if (o->script)
		x.branch_mask = PT_FLAG_CALL | PT_FLAG_ASYNC | PT_FLAG_TRACE_END;
	x.threads.table = session_threads(s);
	x.ndso = symbolizer_ndsos(z);
	x.reads = calloc(x.ndso + 1, 1);
	if (x.reads == NULL)
		abort();
	x.chains = c;
	x.stacks = c != NULL ? pt_stacks_new() : NULL;

	decoder_params(w, config, &p);
	collect_buffers(&x);
	for (size_t i = 0; i < x.nstreams; i++) {
		x.streams[i].dec = pt_decoder_new(&p, x.streams[i].bufs, x.streams[i].nbufs,
		    walk_ends, &x);
		if (x.streams[i].dec == NULL)
			abort();
	}

	for (size_t i = 0; i < ix->n; i++) {
		const struct rec_ent *en = index_ent(ix, i);
		unsigned type = ent_type(en);

		x.pos = i;
		if (type >= PF_REC_ATTR && type != ENT_TYPE_BIG)
			continue;	/* perf's own records: no time, nothing to do */
		if (session_rec(s, ent_loc(en), &r) < 0 || r.type >= 64)
			continue;
		if (en->time != 0 && en->time != UINT64_MAX) {
			if (!x.started)
				merge_start(&x);
			merge_until(&x, clock_tsc(&x.clock, en->time));
			x.now = en->time;
		}
		on_record(&x, &r);
	}
	x.pos = ix->n;
	if (!x.started)
		merge_start(&x);
	merge_until(&x, UINT64_MAX);

	run_free(&x);
	if (x.time != NULL) {	/* what is still held lies past where perf decodes */
		size_t k = 0;

		held_settle(&x, NULL, false);
		for (size_t i = 0; i < x.nitems; i++)
			if (x.items[i].kind != PT_ITEM_DROPPED)
				x.items[k++] = x.items[i];
		x.nitems = k;
	}
	free(x.held);
	*out = x.items;
	return x.nitems;
}
