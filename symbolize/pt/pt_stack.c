#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "core/err.h"
#include "core/hmap.h"
#include "symbolize/pt/pt_internal.h"

/*
 * pt_stack.c: the call stacks perf report keeps of each thread while it
 * decodes a trace (perf's thread stacks), from which the samples it
 * synthesizes, and the recorded samples that carry no callchain, get one.
 *
 * A stack holds return addresses.  A branch flagged as a call pushes the
 * address after the call (an asynchronous transfer has no length: its
 * source is pushed); a return pops down to the address it returns to, if
 * the stack holds it; where tracing begins, the stack pops down to the
 * address tracing resumes at and drops the calls made as tracing ended.
 * When the trace of a thread is discontinuous (another trace number), the
 * stack starts over empty.  The idle thread (tid 0) has a stack per CPU.
 */

struct ret_entry {
	uint64_t	ret;
	bool		trace_end;	/* pushed by a call as tracing ended */
};

struct tstack {
	uint64_t	  trace_nr;	/* 0: none seen yet */
	struct ret_entry *v;
	size_t		  n, cap;
};

struct pt_stacks {
	struct hmap	 map;		/* stack_key() -> index in v */
	struct tstack	*v;
	size_t		 n, cap;
};

/* A 64-bit address from the top half up is the kernel's. */
static bool
kernel_half(uint64_t ip)
{
	return ip >> 63 != 0;
}

uint8_t
pt_chain_cpumode(uint64_t ip)
{
	return kernel_half(ip) ? PERF_RECORD_MISC_KERNEL : PERF_RECORD_MISC_USER;
}

static uint64_t
stack_key(int32_t tid, int32_t cpu)
{
	uint32_t c = UINT32_MAX;

	if (tid == 0)
		c = cpu < 0 ? 0 : (uint32_t)cpu;
	return (uint64_t)(uint32_t)tid << 32 | c;
}

struct pt_stacks *
pt_stacks_new(void)
{
	return xcalloc(1, sizeof(struct pt_stacks));
}

void
pt_stacks_free(struct pt_stacks *k)
{
	if (k == NULL)
		return;
	for (size_t i = 0; i < k->n; i++)
		free(k->v[i].v);
	free(k->v);
	hmap_free(&k->map);
	free(k);
}

static struct tstack *
find(const struct pt_stacks *k, int32_t tid, int32_t cpu)
{
	uint32_t i = hmap_get(&k->map, stack_key(tid, cpu));

	return i == HMAP_NONE ? NULL : &k->v[i];
}

static struct tstack *
find_or_add(struct pt_stacks *k, int32_t tid, int32_t cpu)
{
	struct tstack *ts = find(k, tid, cpu);

	if (ts != NULL)
		return ts;
	GROW(k->v, k->cap, k->n + 1);
	ts = &k->v[k->n];
	memset(ts, 0, sizeof *ts);
	hmap_set(&k->map, stack_key(tid, cpu), (uint32_t)k->n++);
	return ts;
}

static void
push(struct tstack *ts, uint64_t ret, bool trace_end)
{
	GROW(ts->v, ts->cap, ts->n + 1);
	ts->v[ts->n].ret = ret;
	ts->v[ts->n++].trace_end = trace_end;
}

/*
 * Return to ret: pop down to the latest entry holding it.  A return whose
 * address the stack does not hold is taken for one of a call not seen,
 * and leaves the stack alone.
 */
static void
pop_to(struct tstack *ts, uint64_t ret)
{
	for (size_t i = ts->n; i-- > 0;)
		if (ts->v[i].ret == ret) {
			ts->n = i;
			return;
		}
}

/* Drop the calls made as tracing ended, from the top. */
static void
pop_trace_end(struct tstack *ts)
{
	while (ts->n > 0 && ts->v[ts->n - 1].trace_end)
		ts->n--;
}

void
pt_stacks_event(struct pt_stacks *k, int32_t tid, int32_t cpu, uint32_t flags, uint64_t from_ip,
    uint64_t to_ip, unsigned insn_len, uint64_t trace_nr)
{
	struct tstack *ts = find_or_add(k, tid, cpu);

	if (ts->trace_nr != trace_nr) {
		ts->n = 0;	/* a discontinuous trace: the stack may be anything */
		ts->trace_nr = trace_nr;
	}
	if (flags & PT_FLAG_CALL) {
		uint64_t ret = from_ip + insn_len;

		if (to_ip != 0 && ret != to_ip)	/* (a call to the next instruction is none) */
			push(ts, ret, (flags & PT_FLAG_TRACE_END) != 0);
	} else if (flags & PT_FLAG_TRACE_BEGIN) {
		/* tracing may resume after a return; a call as tracing ended will not return */
		pop_to(ts, to_ip);
		pop_trace_end(ts);
	} else if ((flags & PT_FLAG_RETURN) && from_ip != 0) {
		pop_to(ts, to_ip);
	}
}

void
pt_stacks_forget(struct pt_stacks *k, int32_t tid)
{
	struct tstack *ts = tid == 0 ? NULL : find(k, tid, -1);

	/* (the idle thread is never made again) */
	if (ts != NULL) {
		ts->n = 0;
		ts->trace_nr = 0;
	}
}

/*
 * perf's chains hold a context marker (user or kernel) before the first
 * address and wherever the context changes; they count against the
 * chain's room, though the addresses written here leave them out.
 */

size_t
pt_stacks_sample(const struct pt_stacks *k, int32_t tid, int32_t cpu, uint64_t ip, size_t room,
    uint64_t *out)
{
	const struct tstack *ts = tid == -1 ? NULL : find(k, tid, cpu);
	bool kern = kernel_half(ip);
	size_t used = 2, nout = 1;

	if (room < 2)
		return 0;
	out[0] = ip;
	for (size_t j = 1; ts != NULL && used < room && j <= ts->n; j++, used++) {
		uint64_t a = ts->v[ts->n - j].ret;

		if (kernel_half(a) != kern) {
			if (used >= room - 1)
				break;
			used++;
			kern = !kern;
		}
		out[nout++] = a;
	}
	return nout;
}

size_t
pt_stacks_sample_late(const struct pt_stacks *k, int32_t tid, int32_t cpu, uint64_t ip,
    size_t room, uint64_t *out)
{
	const struct tstack *ts = tid == -1 ? NULL : find(k, tid, cpu);
	size_t used = 0, nout = 0, j = 1;
	int last = -1;	/* the context of the last address: none yet */

	if (room < 2)
		return 0;
	/*
	 * The sample was taken before its record was written: kernel
	 * addresses pushed after it (on the way to writing it) are skipped,
	 * down to a user address or the sample's own.
	 */
	for (; ts != NULL && j <= ts->n; j++) {
		uint64_t a = ts->v[ts->n - j].ret;

		if (!kernel_half(a) || a == ip)
			break;
	}
	for (; ts != NULL && used < room && j <= ts->n; used++, j++) {
		uint64_t a = ts->v[ts->n - j].ret;

		if ((int)kernel_half(a) != last) {
			if (used >= room - 1)
				break;
			used++;
			last = kernel_half(a);
		}
		out[nout++] = a;
	}
	if (used == 0) {
		out[0] = ip;
		nout = 1;
	}
	return nout;
}

/* ---- chains made of them (struct pt_chains) ---- */

/* Room for one more chain at the end of c's addresses. */
static uint64_t *
chain_room(struct pt_chains *c)
{
	GROW(c->ips, c->capips, c->nips + PT_CHAIN_ROOM);
	return c->ips + c->nips;
}

void
pt_chains_put(struct pt_chains *c, const struct pt_stacks *k, int32_t tid, int32_t cpu,
    uint64_t ip, uint32_t *at, uint32_t *n)
{
	*at = (uint32_t)c->nips;
	*n = (uint32_t)pt_stacks_sample(k, tid, cpu, ip, PT_CHAIN_ROOM, chain_room(c));
	c->nips += *n;
}

void
pt_chains_put_late(struct pt_chains *c, const struct pt_stacks *k, size_t pos, int32_t tid,
    int32_t cpu, uint64_t ip)
{
	struct pt_late_chain *l;

	GROW(c->late, c->caplate, c->nlate + 1);
	l = &c->late[c->nlate++];
	l->pos = pos;
	l->at = (uint32_t)c->nips;
	l->n = (uint32_t)pt_stacks_sample_late(k, tid, cpu, ip, PT_CHAIN_ROOM, chain_room(c));
	c->nips += l->n;
}

static int
cmp_pos(const void *key, const void *elem)
{
	size_t pos = *(const size_t *)key, at = ((const struct pt_late_chain *)elem)->pos;

	return pos < at ? -1 : pos > at;
}

size_t
pt_chains_of_sample(const struct pt_chains *c, size_t pos, const uint64_t **ips)
{
	const struct pt_late_chain *l =
	    c->nlate ? bsearch(&pos, c->late, c->nlate, sizeof *c->late, cmp_pos) : NULL;

	if (l == NULL)
		return 0;
	*ips = c->ips + l->at;
	return l->n;
}

void
pt_chains_free(struct pt_chains *c)
{
	if (c == NULL)
		return;
	free(c->ips);
	free(c->late);
	memset(c, 0, sizeof *c);
}
