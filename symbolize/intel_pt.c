#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/ptpkt.h"
#include "symbolize/hist.h"
#include "symbolize/intel_pt.h"

/*
 * intel_pt.c: Intel PT traces of a session decoded in step with its
 * records, as perf 6.1 interleaves them (the decoder is pt_decoder.c).
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
	uint32_t th = thread_table_find(&s->threads, it->tid, it->time);
	const char *comm = th != THREAD_NONE ? thread_comm_at(&s->threads, th, it->time) : NULL;

	if (comm != NULL)
		return comm;
	if (it->tid == 0)
		return "swapper";
	snprintf(buf, n, ":%d", (int)it->tid);
	return buf;
}

/* ---- the session: queues, threads and samples, in perf's order ---- */

#define KERNEL_START	(UINT64_C(1) << 63)

/* AUXTRACE_INFO private words of an Intel PT recording. */
enum {
	PRIV_PMU_TYPE, PRIV_TIME_SHIFT, PRIV_TIME_MULT, PRIV_TIME_ZERO, PRIV_CAP_TIME_ZERO,
	PRIV_TSC_BIT, PRIV_NORETCOMP_BIT, PRIV_HAVE_SCHED_SWITCH, PRIV_SNAPSHOT_MODE,
	PRIV_PER_CPU_MMAPS, PRIV_MTC_BIT, PRIV_MTC_FREQ_BITS, PRIV_TSC_CTC_N, PRIV_TSC_CTC_D,
	PRIV_CYC_BIT, PRIV_MAX_NONTURBO_RATIO, PRIV_FILTER_STR_LEN, PRIV_COUNT
};

#define AUXTRACE_TYPE_INTEL_PT	1

struct ptq {
	uint32_t		 idx;
	int32_t			 cpu, qtid;
	struct pt_buffer	*bufs;
	size_t			 nbufs, capbufs;
	struct pt_decoder	*d;
	const struct pt_state	*state;
	bool			 have_sample, on_heap;
	uint64_t		 timestamp;	/* TSC */
	uint64_t		 ordinal;	/* heap key */
	int32_t			 pid, tid;
	unsigned		 cbr_seen;
	uint32_t		 flags;
};

struct tidpid {
	int32_t	tid, pid;
};

struct ptx {
	const struct session	*s;
	struct symbolizer	*z;
	bool			 script;
	struct ptq		*q;
	size_t			 nq;
	struct ptq		*cur;
	/* TSC <-> perf time */
	uint32_t		 time_shift, time_mult;
	uint64_t		 time_zero;
	int			 have_sched_switch;
	bool			 per_cpu_mmaps;
	bool			 set_up;
	/* what the machine knows: the current tid per cpu, pids of tids */
	int32_t			*cur_tid;
	size_t			 ncpu;
	struct tidpid		*tp;
	size_t			 ntp, captp;
	/* perf's per-DSO data status: could not be read / seen by the trace */
	uint8_t			*dso_err, *dso_seen;
	size_t			 ndso;
	uint32_t		*maps_by_pid;	/* thread table maps, by pid then time */
	bool			 have_maps_by_pid;
	uint64_t		 now;		/* perf time of the last record delivered */
	uint64_t		 min_ordinal;	/* of the queues on the heap, UINT64_MAX none */
	unsigned		 max_nonturbo;
	uint32_t		 cbr2khz;	/* kHz per CBR step */
	size_t			 pos;		/* index position being delivered */
	uint32_t		 branches_filter;
	struct pt_item		*items;
	size_t			 nitems, capitems;
};

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

static uint64_t
tsc_to_perf(const struct ptx *x, uint64_t tsc)
{
	uint64_t quot = tsc >> x->time_shift;
	uint64_t rem = tsc & ((UINT64_C(1) << x->time_shift) - 1);

	return x->time_zero + quot * x->time_mult + ((rem * x->time_mult) >> x->time_shift);
}

static uint64_t
perf_to_tsc(const struct ptx *x, uint64_t ns)
{
	uint64_t t = ns - x->time_zero;
	uint64_t quot = t / x->time_mult, rem = t % x->time_mult;

	return (quot << x->time_shift) + (rem << x->time_shift) / x->time_mult;
}

static int32_t
pid_of(const struct ptx *x, int32_t tid)
{
	uint32_t th;

	for (size_t i = x->ntp; i-- > 0;)
		if (x->tp[i].tid == tid)
			return x->tp[i].pid;
	th = thread_table_find(&x->s->threads, tid, x->now);
	return th != THREAD_NONE ? x->s->threads.v[th].pid : -1;
}

static bool
knows_tid(const struct ptx *x, int32_t tid)
{
	for (size_t i = 0; i < x->ntp; i++)
		if (x->tp[i].tid == tid)
			return true;
	return thread_table_find(&x->s->threads, tid, x->now) != THREAD_NONE;
}

static void
set_current_tid(struct ptx *x, int64_t cpu, int32_t pid, int32_t tid)
{
	if (cpu < 0 || cpu > 65535)
		return;
	if ((size_t)cpu >= x->ncpu) {
		size_t n = (size_t)cpu + 1;
		int32_t *v = realloc(x->cur_tid, n * sizeof *v);

		if (v == NULL)
			abort();
		for (size_t i = x->ncpu; i < n; i++)
			v[i] = -1;
		x->cur_tid = v;
		x->ncpu = n;
	}
	x->cur_tid[cpu] = tid;
	if (pid != -1) {
		size_t i;

		for (i = 0; i < x->ntp; i++)
			if (x->tp[i].tid == tid)
				break;
		if (i == x->ntp) {
			x->tp = grow(x->tp, &x->captp, x->ntp + 1, sizeof *x->tp);
			x->ntp++;
		}
		x->tp[i].tid = tid;
		x->tp[i].pid = pid;
	}
}

static int32_t
current_tid(const struct ptx *x, int32_t cpu)
{
	return cpu >= 0 && (size_t)cpu < x->ncpu ? x->cur_tid[cpu] : -1;
}

/* The DSO ip lies in for the queue's thread, or DSO_NONE. */
static uint32_t
dso_at(struct ptx *x, int32_t pid, int32_t tid, uint64_t ip)
{
	struct frame f;
	uint8_t cm = ip >= KERNEL_START ? PERF_RECORD_MISC_KERNEL : PERF_RECORD_MISC_USER;

	symbolizer_resolve(x->z, pid, tid, x->now, cm, ip, &f);
	if (f.dso == DSO_NONE || f.dso >= x->ndso)
		return DSO_NONE;
	return f.dso;
}

/* perf reads the [vdso] of its own process: the one DSO it always can. */
static bool
dso_readable(const struct ptx *x, uint32_t dso)
{
	return strcmp(symbolizer_dso_long(x->z, dso), "[vdso]") == 0;
}

static enum pt_walk
walk_cb(void *arg, uint64_t ip, bool nr)
{
	struct ptx *x = arg;
	struct ptq *q = x->cur;
	uint32_t dso;

	if (nr)
		return PT_WALK_FAIL;	/* a guest's code: no guest machine */
	if (ip < KERNEL_START && q->tid == -1)
		return PT_WALK_FAIL;
	dso = dso_at(x, q->pid, q->tid, ip);
	if (dso == DSO_NONE)
		return PT_WALK_FAIL;
	if (x->dso_err[dso]) {
		if (x->dso_seen[dso])
			return PT_WALK_SILENT;
		x->dso_seen[dso] = 1;
		return PT_WALK_FAIL;
	}
	x->dso_err[dso] = 1;
	return PT_WALK_FAIL;
}

/* perf script reads the code bytes at each sample it prints. */
static void
probe_code(struct ptx *x, int32_t pid, int32_t tid, uint64_t ip)
{
	uint32_t dso;

	if (!x->script || ip == 0)
		return;
	dso = dso_at(x, pid, tid, ip);
	if (dso != DSO_NONE && !dso_readable(x, dso))
		x->dso_err[dso] = 1;
}

static int
cmp_map_pid(const void *a, const void *b, void *arg)
{
	const struct thread_table *t = arg;
	uint32_t i = *(const uint32_t *)a, j = *(const uint32_t *)b;
	int32_t p = t->maps[i].pid, q = t->maps[j].pid;

	if (p != q)
		return p < q ? -1 : 1;
	return i < j ? -1 : i > j;
}

/* Probe the file-backed DSOs pid had mapped (up to time) for their data. */
static void
probe_maps_of(struct ptx *x, int32_t pid, int32_t tid, uint64_t time, uint64_t skip_loc)
{
	const struct thread_table *t = &x->s->threads;
	size_t lo = 0, hi = t->nmaps;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (t->maps[x->maps_by_pid[mid]].pid < pid)
			lo = mid + 1;
		else
			hi = mid;
	}
	for (; lo < t->nmaps && t->maps[x->maps_by_pid[lo]].pid == pid; lo++) {
		const struct map_ev *m = &t->maps[x->maps_by_pid[lo]];
		uint32_t dso;

		if (m->time > time || m->loc == skip_loc)
			continue;
		if (strtab_get(&t->strs, m->filename)[0] != '/')
			continue;
		dso = dso_at(x, pid, tid, m->start);
		if (dso != DSO_NONE && !dso_readable(x, dso))
			x->dso_err[dso] = 1;
	}
}

/*
 * When a process maps [vdso], perf works out whether the process is 32 or
 * 64-bit from the DSOs it has mapped, reading each file-backed one (in
 * address order, until one can be read): those that cannot are marked as
 * such.  The process's maps include what it inherited from its parent.
 */
static void
probe_vdso_map(struct ptx *x, const struct rec *r)
{
	const struct thread_table *t = &x->s->threads;
	size_t off = r->type == PERF_RECORD_MMAP ? 40 : 72;
	int32_t pid, tid;
	uint64_t time = x->now;

	if (r->size < off + 7 || memcmp(r->p + off, "[vdso]", 7) != 0)
		return;
	if (!x->have_maps_by_pid) {
		x->have_maps_by_pid = true;
		x->maps_by_pid = calloc(t->nmaps + 1, sizeof *x->maps_by_pid);
		if (x->maps_by_pid == NULL)
			abort();
		for (size_t i = 0; i < t->nmaps; i++)
			x->maps_by_pid[i] = (uint32_t)i;
		qsort_r(x->maps_by_pid, t->nmaps, sizeof *x->maps_by_pid, cmp_map_pid,
		    (void *)t);
	}
	pid = (int32_t)rd32(r->p + 8, r->swap);
	tid = (int32_t)rd32(r->p + 12, r->swap);
	for (int depth = 0; depth < 16 && pid > 0; depth++) {
		uint32_t th = thread_table_find(t, pid, time);

		probe_maps_of(x, pid, depth ? pid : tid, time, r->loc);
		if (th == THREAD_NONE || t->v[th].ppid <= 0 || t->v[th].ppid == pid)
			break;
		/* what the parent had when it forked this process */
		time = t->v[th].start;
		pid = t->v[th].ppid;
	}
}

static struct pt_item *
new_item(struct ptx *x, enum pt_item_kind kind, const struct ptq *q)
{
	struct pt_item *it;

	x->items = grow(x->items, &x->capitems, x->nitems + 1, sizeof *x->items);
	it = &x->items[x->nitems++];
	memset(it, 0, sizeof *it);
	it->kind = kind;
	it->pid = q->pid;
	it->tid = q->tid;
	it->cpu = q->cpu;
	it->before = x->pos;
	return it;
}

static void
synth_sample(struct ptx *x, struct ptq *q, enum pt_event ev, uint64_t payload)
{
	const struct pt_state *st = q->state;
	struct pt_item *it = new_item(x, PT_ITEM_SAMPLE, q);
	uint64_t mode_ip = st->from_ip ? st->from_ip : st->to_ip;
	bool nr = st->from_ip ? st->from_nr : st->to_nr;

	it->event = ev;
	it->time = tsc_to_perf(x, q->timestamp);
	it->ip = st->from_ip;
	it->addr = st->to_ip;
	if (nr)
		it->cpumode = mode_ip >= KERNEL_START ? PERF_RECORD_MISC_GUEST_KERNEL :
		    PERF_RECORD_MISC_GUEST_USER;
	else
		it->cpumode = mode_ip >= KERNEL_START ? PERF_RECORD_MISC_KERNEL :
		    PERF_RECORD_MISC_USER;
	it->flags = ev == PT_EV_BRANCHES ? q->flags : 0;
	it->payload = payload;
	if (ev == PT_EV_CBR) {
		it->freq_khz = (uint32_t)payload * x->cbr2khz;
		it->max_nonturbo = x->max_nonturbo;
	}
	if (!nr)
		probe_code(x, it->pid, it->tid, it->ip);
}

static void
sample_flags(struct ptq *q)
{
	const struct pt_state *st = q->state;

	if (st->flags & PT_SF_ABORT_TX) {
		q->flags = PT_FLAG_BRANCH | PT_FLAG_TX_ABORT;
	} else if (st->flags & PT_SF_ASYNC) {
		if (!st->to_ip)
			q->flags = PT_FLAG_BRANCH | PT_FLAG_TRACE_END;
		else if (st->from_nr && !st->to_nr)
			q->flags = PT_FLAG_BRANCH | PT_FLAG_CALL | PT_FLAG_VMEXIT;
		else
			q->flags = PT_FLAG_BRANCH | PT_FLAG_CALL | PT_FLAG_ASYNC |
			    PT_FLAG_INTERRUPT;
	} else {
		/* Without a walked instruction, a branch from somewhere has no type. */
		q->flags = st->from_ip ? 0 : PT_FLAG_BRANCH | PT_FLAG_TRACE_BEGIN;
		if (st->flags & PT_SF_IN_TX)
			q->flags |= PT_FLAG_IN_TX;
	}
	if (st->type & PT_ST_TRACE_BEGIN)
		q->flags |= PT_FLAG_TRACE_BEGIN;
	if (st->type & PT_ST_TRACE_END)
		q->flags |= PT_FLAG_TRACE_END;
}

/* The samples of the queue's last state. */
static void
queue_sample(struct ptx *x, struct ptq *q)
{
	const struct pt_state *st = q->state;

	if (!q->have_sample)
		return;
	q->have_sample = false;
	if (st->type & PT_ST_PSB)
		synth_sample(x, q, PT_EV_PSB, st->psb_offset);
	if (st->cbr != q->cbr_seen) {
		q->cbr_seen = st->cbr;
		synth_sample(x, q, PT_EV_CBR, st->cbr);
	}
	if (st->type & PT_ST_MWAIT)
		synth_sample(x, q, PT_EV_MWAIT, st->payload);
	if (st->type & PT_ST_PWR_ENTRY)
		synth_sample(x, q, PT_EV_PWRE, st->payload);
	if (st->type & PT_ST_EX_STOP)
		synth_sample(x, q, PT_EV_EXSTOP, 0);
	if (st->type & PT_ST_PWR_EXIT)
		synth_sample(x, q, PT_EV_PWRX, st->payload);
	if (st->type & PT_ST_TRANSACTION)
		synth_sample(x, q, PT_EV_TRANSACTIONS, 0);
	if (st->type & PT_ST_PTW)
		synth_sample(x, q, PT_EV_PTWRITE, st->payload);
	if (!(st->type & PT_ST_BRANCH))
		return;
	if (!x->branches_filter || !(q->flags & x->branches_filter))
		return;
	if (st->from_nr != st->to_nr && st->from_ip && st->to_ip) {
		/* host and guest addresses: perf makes two samples */
		struct pt_state *w = (struct pt_state *)st;
		uint64_t from = w->from_ip, to = w->to_ip;

		w->to_ip = 0;
		synth_sample(x, q, PT_EV_BRANCHES, 0);
		w->from_ip = 0;
		w->to_ip = to;
		synth_sample(x, q, PT_EV_BRANCHES, 0);
		w->from_ip = from;
		return;
	}
	synth_sample(x, q, PT_EV_BRANCHES, 0);
}

/* Decode queue q until its time reaches *ts: 0, or 1 at its end. */
static int
run_decoder(struct ptx *x, struct ptq *q, uint64_t *ts)
{
	x->cur = q;
	for (;;) {
		const struct pt_state *st;

		queue_sample(x, q);
		st = pt_decode(q->d);
		if (st->err) {
			struct pt_item *it;

			if (st->err == PT_ERR_NODATA)
				return 1;
			if (!x->script)
				continue;
			it = new_item(x, PT_ITEM_ERROR, q);
			it->code = st->err;
			it->ip = st->from_ip;
			it->time = tsc_to_perf(x, st->timestamp);
			continue;
		}
		q->state = st;
		q->have_sample = true;
		sample_flags(q);
		/* perf's estimate on return to user space (no instructions counted) */
		if ((st->from_ip >= KERNEL_START || !st->from_ip) && st->to_ip &&
		    st->to_ip < KERNEL_START)
			q->timestamp = st->timestamp;
		else if (st->timestamp > q->timestamp)
			q->timestamp = st->timestamp;
		if (q->timestamp >= *ts) {
			*ts = q->timestamp;
			return 0;
		}
	}
}

static void
set_pid_tid_cpu(struct ptx *x, struct ptq *q)
{
	if (q->qtid == -1 || x->have_sched_switch) {
		q->tid = current_tid(x, q->cpu);
		if (q->tid == -1)
			q->pid = -1;
	}
	if (q->tid != -1 && knows_tid(x, q->tid))
		q->pid = pid_of(x, q->tid);
}

static void update_min(struct ptx *x);

static void
setup_queues(struct ptx *x)
{
	for (size_t i = 0; i < x->nq; i++) {
		struct ptq *q = &x->q[i];

		x->cur = q;
		for (;;) {
			const struct pt_state *st = pt_decode(q->d);

			if (st->err) {
				if (st->err == PT_ERR_NODATA)
					break;
				continue;
			}
			if (st->timestamp) {
				q->timestamp = st->timestamp;
				q->state = st;
				q->have_sample = true;
				sample_flags(q);
				q->ordinal = q->timestamp;
				q->on_heap = true;
				break;
			}
		}
	}
	update_min(x);
}

static struct ptq *
heap_top(struct ptx *x, const struct ptq *skip)
{
	struct ptq *best = NULL;

	for (size_t i = 0; i < x->nq; i++) {
		struct ptq *q = &x->q[i];

		if (q == skip || !q->on_heap)
			continue;
		if (best == NULL || q->ordinal < best->ordinal)
			best = q;
	}
	return best;
}

static void
update_min(struct ptx *x)
{
	const struct ptq *q = heap_top(x, NULL);

	x->min_ordinal = q != NULL ? q->ordinal : UINT64_MAX;
}

/* Decode every queue up to TSC ts (exclusive), earliest first. */
static void
process_queues(struct ptx *x, uint64_t ts)
{
	if (x->min_ordinal >= ts)
		return;		/* the common case: nothing due yet */
	for (;;) {
		struct ptq *q = heap_top(x, NULL), *next;
		uint64_t upto;

		if (q == NULL || q->ordinal >= ts) {
			update_min(x);
			return;
		}
		q->on_heap = false;
		next = heap_top(x, q);
		upto = ts;
		if (next != NULL && next->ordinal + 1 < ts)
			upto = next->ordinal + 1;
		set_pid_tid_cpu(x, q);
		if (run_decoder(x, q, &upto) == 0) {
			q->ordinal = upto;
			q->on_heap = true;
		}
	}
}

/* What perf does with a record once the trace is decoded up to it. */
static void
deliver(struct ptx *x, const struct rec *r)
{
	struct sample_id sid;
	uint16_t cm = r->misc & PERF_RECORD_MISC_CPUMODE_MASK;

	switch (r->type) {
	case PERF_RECORD_SWITCH:
	case PERF_RECORD_SWITCH_CPU_WIDE: {
		bool out = r->misc & PERF_RECORD_MISC_SWITCH_OUT;

		if (record_decode_sample_id(x->s, r, &sid) < 0 || !(sid.have & PERF_SAMPLE_CPU))
			return;
		if (x->have_sched_switch == 3) {
			if (!out) {
				if (current_tid(x, (int32_t)sid.cpu) != (int32_t)sid.tid)
					set_current_tid(x, sid.cpu, (int32_t)sid.pid, (int32_t)sid.tid);
				return;
			}
			if (r->type != PERF_RECORD_SWITCH_CPU_WIDE || r->size < 16)
				return;
			set_current_tid(x, sid.cpu, (int32_t)rd32(r->p + 8, r->swap),
			    (int32_t)rd32(r->p + 12, r->swap));
		} else if (!out) {
			set_current_tid(x, sid.cpu, (int32_t)sid.pid, (int32_t)sid.tid);
		}
		return;
	}
	case PERF_RECORD_AUX:
		/* A truncated AUX area: perf reports lost trace data. */
		if (!x->script || r->size < 32 || !(rd64(r->p + 24, r->swap) & 1))
			return;
		if (record_decode_sample_id(x->s, r, &sid) < 0)
			return;
		{
			struct ptq none = {
				.pid = (sid.have & PERF_SAMPLE_TID) ? (int32_t)sid.pid : -1,
				.tid = (sid.have & PERF_SAMPLE_TID) ? (int32_t)sid.tid : -1,
				.cpu = (sid.have & PERF_SAMPLE_CPU) ? (int32_t)sid.cpu : -1,
			};
			struct pt_item *it = new_item(x, PT_ITEM_ERROR, &none);

			it->code = PT_ERR_LOST;
			it->time = (sid.have & PERF_SAMPLE_TIME) ? sid.time : 0;
		}
		return;
	case PERF_RECORD_ITRACE_START:
		if (!x->per_cpu_mmaps || r->size < 16)
			return;
		if (record_decode_sample_id(x->s, r, &sid) < 0 || !(sid.have & PERF_SAMPLE_CPU))
			return;
		set_current_tid(x, sid.cpu, (int32_t)rd32(r->p + 8, r->swap),
		    (int32_t)rd32(r->p + 12, r->swap));
		return;
	case PERF_RECORD_MMAP:
	case PERF_RECORD_MMAP2:
		if (r->size < 24 || cm == PERF_RECORD_MISC_KERNEL ||
		    cm == PERF_RECORD_MISC_GUEST_KERNEL)
			return;
		if ((int32_t)rd32(r->p + 8, r->swap) == -1)
			return;
		probe_vdso_map(x, r);
		return;
	case PERF_RECORD_SAMPLE: {
		struct sample smp;
		int a = record_attr(x->s, r);

		if (!x->script || a < 0 || record_sample_head(x->s, r, a, &smp) < 0)
			return;
		if (!(smp.sample_type & PERF_SAMPLE_IP))
			return;
		probe_code(x, (int32_t)smp.pid, (int32_t)smp.tid, smp.ip);
		return;
	}
	default:
		return;
	}
}

static const struct rec_ent *
find_type(const struct session *s, unsigned type)
{
	for (size_t i = 0; i < s->index.n; i++)
		if (ent_type(&s->index.v[i]) == type)
			return &s->index.v[i];
	return NULL;
}

bool
pt_present(const struct session *s)
{
	const struct rec_ent *e = find_type(s, PF_REC_AUXTRACE_INFO);
	struct rec r;

	return e != NULL && session_rec(s, ent_loc(e), &r) == 0 && r.size >= 16 &&
	    rd32(r.p + 8, r.swap) == AUXTRACE_TYPE_INTEL_PT;
}

static struct ptq *
queue_of(struct ptx *x, uint32_t idx, int32_t cpu, int32_t tid)
{
	size_t i;

	for (i = 0; i < x->nq; i++)
		if (x->q[i].idx == idx)
			return &x->q[i];
	x->q = realloc(x->q, (x->nq + 1) * sizeof *x->q);
	if (x->q == NULL)
		abort();
	/* queues stay in idx order, as perf's queue array */
	for (i = x->nq; i > 0 && x->q[i - 1].idx > idx; i--)
		x->q[i] = x->q[i - 1];
	memset(&x->q[i], 0, sizeof x->q[i]);
	x->q[i].idx = idx;
	x->q[i].cpu = cpu;
	x->q[i].qtid = tid;
	x->q[i].tid = tid;
	x->q[i].pid = -1;
	x->q[i].cbr_seen = UINT32_MAX;
	x->nq++;
	return &x->q[i];
}

static int
cmp_loc(const void *a, const void *b)
{
	uint64_t x = ent_loc(*(const struct rec_ent *const *)a);
	uint64_t y = ent_loc(*(const struct rec_ent *const *)b);

	return x < y ? -1 : x > y;
}

/* The PT event's config and whether all events have time (else timeless). */
static bool
pt_config(const struct session *s, uint64_t pmu_type, uint64_t *config)
{
	bool found = false;

	for (size_t i = 0; i < s->attrs.n; i++) {
		const struct perf_event_attr *a = &s->attrs.v[i].attr;

		if (!(a->sample_type & PERF_SAMPLE_TIME))
			return false;
		if (a->type == pmu_type && !found) {
			*config = a->config;
			found = true;
		}
	}
	return found;
}

size_t
pt_synth(const struct session *s, struct symbolizer *z, const struct pt_opts *o,
    struct pt_item **out)
{
	const struct rec_ent *e = find_type(s, PF_REC_AUXTRACE_INFO);
	const struct rec_ent **aux = NULL;
	struct ptx x;
	struct pt_params p;
	uint64_t priv[PRIV_COUNT], config = 0;
	size_t npriv, naux = 0, capaux = 0;
	struct rec r;

	*out = NULL;
	if (e == NULL || session_rec(s, ent_loc(e), &r) < 0 || r.size < 16 ||
	    rd32(r.p + 8, r.swap) != AUXTRACE_TYPE_INTEL_PT)
		return 0;
	memset(priv, 0, sizeof priv);
	npriv = (r.size - 16) / 8;
	for (size_t i = 0; i < npriv && i < PRIV_COUNT; i++)
		priv[i] = rd64(r.p + 16 + 8 * i, r.swap);
	if (npriv <= PRIV_PER_CPU_MMAPS || priv[PRIV_TIME_MULT] == 0 ||
	    priv[PRIV_TIME_SHIFT] > 63 || !priv[PRIV_CAP_TIME_ZERO] || !priv[PRIV_TSC_BIT])
		return 0;	/* no timestamps: perf decodes such traces timeless */
	if (!pt_config(s, priv[PRIV_PMU_TYPE], &config) || !(config & priv[PRIV_TSC_BIT]))
		return 0;

	memset(&x, 0, sizeof x);
	x.s = s;
	x.z = z;
	x.script = o->script;
	x.time_shift = (uint32_t)priv[PRIV_TIME_SHIFT];
	x.time_mult = (uint32_t)priv[PRIV_TIME_MULT];
	x.time_zero = priv[PRIV_TIME_ZERO];
	x.have_sched_switch = (int)priv[PRIV_HAVE_SCHED_SWITCH];
	x.max_nonturbo = (unsigned)priv[PRIV_MAX_NONTURBO_RATIO];
	if (x.max_nonturbo) {
		/* TSC ticks per second over the ratio: kHz per CBR step */
		uint64_t sec = UINT64_C(1000000000);
		uint64_t ticks = ((sec / x.time_mult) << x.time_shift) +
		    ((sec % x.time_mult) << x.time_shift) / x.time_mult;

		x.cbr2khz = (uint32_t)(ticks / x.max_nonturbo / 1000);
	}
	x.per_cpu_mmaps = priv[PRIV_PER_CPU_MMAPS] != 0;
	x.ndso = symbolizer_ndsos(z);
	x.dso_err = calloc(x.ndso + 1, 1);
	x.dso_seen = calloc(x.ndso + 1, 1);
	if (x.dso_err == NULL || x.dso_seen == NULL)
		abort();
	if (o->script)
		x.branches_filter = PT_FLAG_CALL | PT_FLAG_ASYNC | PT_FLAG_TRACE_END;

	memset(&p, 0, sizeof p);
	if (priv[PRIV_MTC_FREQ_BITS]) {
		uint64_t bits = priv[PRIV_MTC_FREQ_BITS];
		int shift = 0;

		while (!(bits & 1)) {
			bits >>= 1;
			shift++;
		}
		p.mtc_shift = (int)((config & priv[PRIV_MTC_FREQ_BITS]) >> shift);
	}
	p.tsc_ctc_n = (uint32_t)priv[PRIV_TSC_CTC_N];
	p.tsc_ctc_d = (uint32_t)priv[PRIV_TSC_CTC_D];
	p.max_non_turbo_ratio = (unsigned)priv[PRIV_MAX_NONTURBO_RATIO];
	p.branch_enable = !((config & 1) && !(config & 0x2000));
	p.return_compression = !priv[PRIV_NORETCOMP_BIT] || !(config & priv[PRIV_NORETCOMP_BIT]);

	/* The trace buffers, per queue in file order. */
	for (size_t i = 0; i < s->index.n; i++)
		if (ent_type(&s->index.v[i]) == PF_REC_AUXTRACE) {
			aux = grow(aux, &capaux, naux + 1, sizeof *aux);
			aux[naux++] = &s->index.v[i];
		}
	if (naux > 1)
		qsort(aux, naux, sizeof *aux, cmp_loc);
	for (size_t i = 0; i < naux; i++) {
		struct ptq *q;
		uint64_t size;
		const uint8_t *data;

		if (session_rec(s, ent_loc(aux[i]), &r) < 0 || r.size < 48)
			continue;
		size = rd64(r.p + 8, r.swap);
		data = session_bytes(s, r.loc + r.size, size);
		if (data == NULL || size == 0)
			continue;
		q = queue_of(&x, rd32(r.p + 32, r.swap), (int32_t)rd32(r.p + 40, r.swap),
		    (int32_t)rd32(r.p + 36, r.swap));
		q->bufs = grow(q->bufs, &q->capbufs, q->nbufs + 1, sizeof *q->bufs);
		q->bufs[q->nbufs].data = data;
		q->bufs[q->nbufs].len = (size_t)size;
		q->bufs[q->nbufs].ref_tsc = rd64(r.p + 24, r.swap);
		q->nbufs++;
	}
	free(aux);
	for (size_t i = 0; i < x.nq; i++) {
		x.q[i].d = pt_decoder_new(&p, x.q[i].bufs, x.q[i].nbufs, walk_cb, &x);
		if (x.q[i].d == NULL)
			abort();
	}

	/* The records in time order; the trace decoded up to each. */
	for (size_t i = 0; i < s->index.n; i++) {
		const struct rec_ent *en = &s->index.v[i];
		unsigned type = ent_type(en);

		x.pos = i;
		if (type >= PF_REC_ATTR && type != ENT_TYPE_BIG)
			continue;	/* perf's own records carry no time */
		if (session_rec(s, ent_loc(en), &r) < 0 || r.type >= 64)
			continue;
		if (en->time != 0 && en->time != UINT64_MAX) {
			if (!x.set_up) {
				x.set_up = true;
				setup_queues(&x);
			}
			process_queues(&x, perf_to_tsc(&x, en->time));
			x.now = en->time;
		}
		deliver(&x, &r);
	}
	x.pos = s->index.n;
	if (!x.set_up)
		setup_queues(&x);
	process_queues(&x, UINT64_MAX);

	for (size_t i = 0; i < x.nq; i++) {
		pt_decoder_free(x.q[i].d);
		free(x.q[i].bufs);
	}
	free(x.q);
	free(x.cur_tid);
	free(x.tp);
	free(x.dso_err);
	free(x.dso_seen);
	free(x.maps_by_pid);
	*out = x.items;
	return x.nitems;
}

size_t
pt_hist_add(struct hist *h, const struct session *s, struct symbolizer *z)
{
	struct pt_opts po = { .script = false };
	struct pt_item *items;
	size_t n = pt_synth(s, z, &po, &items), added = 0;

	for (size_t i = 0; i < n; i++) {
		const struct pt_item *it = &items[i];
		struct hist_sample hs;
		struct frame f;
		char buf[32];

		if (it->kind != PT_ITEM_SAMPLE)
			continue;
		symbolizer_resolve(z, it->pid, it->tid, it->time, it->cpumode, it->ip, &f);
		memset(&hs, 0, sizeof hs);
		hs.attr = (int)s->attrs.n + (int)it->event;
		hs.event_name = pt_event_name(it->event);
		hs.comm = pt_item_comm(s, it, buf, sizeof buf);
		hs.pid = it->pid;
		hs.tid = it->tid;
		hs.cpu = (uint32_t)it->cpu;
		hs.period = 1;
		hs.self = &f;
		hs.own_nodes = true;
		hist_add(h, &hs);
		added++;
	}
	free(items);
	return added;
}
