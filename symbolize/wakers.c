#include "config.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/core.h"
#include "core/hmap.h"
#include "core/index.h"
#include "core/thread.h"
#include "symbolize/wakers.h"

/*
 * wakers.c: the spans taken are listed as (waker thread, span) pairs and
 * sorted by thread; each thread's wakeups are then resolved one by one and
 * their stacks told apart by a hash of their functions (DSO and symbol, or
 * the address where there is none), in a map emptied for each thread.
 */

struct pick {
	int32_t		 tid;
	uint32_t	 span;
};

/* The build's state beside w. */
struct wk_build {
	struct wakers		*w;
	const struct session	*s;
	struct symbolizer	*z;
	const struct offcpu	*oc;
	unsigned		 max_stack;
	size_t			 caprows, capst, capfr;
	struct frame		*buf;		/* WAKERS_MAX_FRAMES */
	struct hmap		 seen;		/* stack hash -> stack, of one waker */
};

static int
cmp_pick(const void *a, const void *b)
{
	const struct pick *x = a, *y = b;

	if (x->tid != y->tid)
		return x->tid < y->tid ? -1 : 1;
	return (x->span > y->span) - (x->span < y->span);
}

/* The thread's comm at time t, as perf names it. */
static void
comm_at(const struct session *s, int32_t tid, uint64_t t, char *buf, size_t n)
{
	const struct thread_table *tt = session_threads(s);
	uint32_t th = thread_table_find(tt, tid, t);
	const char *c = th != THREAD_NONE ? thread_comm_at(tt, th, t) : NULL;

	if (c != NULL && *c != '\0')
		snprintf(buf, n, "%s", c);
	else if (tid == 0)
		snprintf(buf, n, "swapper");
	else
		snprintf(buf, n, ":%" PRId32, tid);
}

/* A hash of the functions of f[0..n). */
static uint64_t
stack_hash(const struct frame *f, size_t n)
{
	uint64_t h = 1469598103934665603ull;

	for (size_t i = 0; i < n; i++) {
		uint64_t v = f[i].sym != SYM_NONE ? (uint64_t)f[i].dso << 32 | f[i].sym : f[i].ip;

		h = (h ^ v) * 1099511628211ull;
		h = (h ^ (v >> 29)) * 1099511628211ull;
	}
	return h;
}

/* The frames of the wakeup at index position pos into buf; their number. */
static size_t
wakeup_stack(const struct session *s, struct symbolizer *z, uint64_t pos, struct frame *buf,
    unsigned max_stack)
{
	const struct rec_index *ix = session_index(s);
	struct sample smp;
	struct rec r;

	if (z == NULL || pos >= ix->n || session_rec(s, ent_loc(index_ent(ix, (size_t)pos)), &r) < 0 ||
	    record_decode_sample(session_attrs(s), &r, &smp, NULL) < 0)
		return 0;
	return symbolizer_callchain(z, &smp, r.misc, buf, WAKERS_MAX_FRAMES, max_stack);
}

/* One waker's picks p[0..n) (all of thread p->tid): its row and stacks. */
static void
add_waker(struct wk_build *b, const struct pick *p, size_t n)
{
	struct wakers *w = b->w;
	const struct session *s = b->s;
	const struct offcpu *oc = b->oc;
	struct frame *buf = b->buf;
	struct wakers_row *row;
	uint64_t first = oc->v[p[0].span].waker;

	GROW(w->rows, b->caprows, w->nrows + 1);
	row = &w->rows[w->nrows++];
	memset(row, 0, sizeof *row);
	row->tid = p[0].tid;
	row->pid = session_ent_who(s, (size_t)first).pid;
	comm_at(s, row->tid, index_ent(session_index(s), (size_t)first)->time, row->comm,
	    sizeof row->comm);
	row->stack = w->nstacks;
	hmap_free(&b->seen);
	for (size_t i = 0; i < n; i++) {
		const struct offcpu_span *sp = &oc->v[p[i].span];
		size_t nf = wakeup_stack(s, b->z, sp->waker, buf, b->max_stack);
		uint64_t key = stack_hash(buf, nf);
		uint32_t k = hmap_get(&b->seen, key);

		row->ns += sp->ns;
		row->spans++;
		if (k == HMAP_NONE) {
			k = (uint32_t)w->nstacks;
			hmap_set(&b->seen, key, k);
			GROW(w->stacks, b->capst, w->nstacks + 1);
			GROW(w->frames, b->capfr, w->nframes + nf + 1);
			memcpy(&w->frames[w->nframes], buf, nf * sizeof *buf);
			w->stacks[w->nstacks++] = (struct wakers_stack){ 0, 0, sp->waker, w->nframes, nf };
			w->nframes += nf;
		}
		w->stacks[k].ns += sp->ns;
		w->stacks[k].spans++;
	}
	row->nstacks = w->nstacks - row->stack;
}

static int
cmp_row(const void *a, const void *b)
{
	const struct wakers_row *x = a, *y = b;

	if (x->ns != y->ns)
		return x->ns > y->ns ? -1 : 1;
	return (x->tid > y->tid) - (x->tid < y->tid);
}

static int
cmp_stack(const void *a, const void *b)
{
	const struct wakers_stack *x = a, *y = b;

	if (x->ns != y->ns)
		return x->ns > y->ns ? -1 : 1;
	return (x->pos > y->pos) - (x->pos < y->pos);
}

void
wakers_build(struct wakers *w, const struct session *s, struct symbolizer *z,
    const struct offcpu *oc, wakers_take_fn take, void *arg, unsigned max_stack)
{
	const struct rec_index *ix = session_index(s);
	struct wk_build b = { .w = w, .s = s, .z = z, .oc = oc, .max_stack = max_stack };
	struct pick *p = NULL;
	size_t np = 0, cap = 0;

	memset(w, 0, sizeof *w);
	for (size_t k = 0; k < oc->n; k++) {
		const struct offcpu_span *sp = &oc->v[k];

		if (take != NULL && !take(arg, k))
			continue;
		w->total_ns += sp->ns;
		w->spans++;
		if (sp->waker >= ix->n)
			continue;	/* none (OFFCPU_NO_WAKER) */
		w->woken_ns += sp->ns;
		w->woken++;
		GROW(p, cap, np + 1);
		p[np++] = (struct pick){ session_ent_who(s, (size_t)sp->waker).tid, (uint32_t)k };
	}
	if (np > 1)
		qsort(p, np, sizeof *p, cmp_pick);
	b.buf = xcalloc(WAKERS_MAX_FRAMES, sizeof *b.buf);
	for (size_t i = 0, j; i < np; i = j) {
		for (j = i + 1; j < np && p[j].tid == p[i].tid;)
			j++;
		add_waker(&b, &p[i], j - i);
	}
	hmap_free(&b.seen);
	free(b.buf);
	free(p);
	for (size_t i = 0; i < w->nrows; i++)
		if (w->rows[i].nstacks > 1)
			qsort(&w->stacks[w->rows[i].stack], w->rows[i].nstacks, sizeof *w->stacks,
			    cmp_stack);
	if (w->nrows > 1)
		qsort(w->rows, w->nrows, sizeof *w->rows, cmp_row);
}

void
wakers_free(struct wakers *w)
{
	free(w->rows);
	free(w->stacks);
	free(w->frames);
	memset(w, 0, sizeof *w);
}
