#include "config.h"

#include <inttypes.h>
#include <linux/perf_event.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "symbolize/brhist.h"

/*
 * perf report's --branch-history (symbolize/brhist.h), as perf 6.1's
 * thread__resolve_callchain_sample builds the chain and its callchain
 * code counts and prints what the frames carried.
 */

#define CTX_MAX	((uint64_t)-4095)	/* PERF_CONTEXT_MAX: markers are at or above */

/* Loop folding (perf's remove_loops): sources hashed into 127 slots, 7 bits. */
#define LOOP_SLOTS	127
#define LOOP_BITS	7
#define LOOP_NONE	0xff

static unsigned
loop_slot(uint64_t from)
{
	return (unsigned)((from * UINT64_C(0x61C8864680B583EB)) >> (64 - LOOP_BITS)) % LOOP_SLOTS;
}

struct loop_iter {
	uint32_t	n;
	uint64_t	cycles;
};

/*
 * Fold loops: where the sources from an earlier entry on repeat from entry
 * i, the repeat goes and the entry after it counts an iteration (and the
 * cycles of the repeat).  As perf: a slot holds the first entry of a source
 * (no second chance on a collision), and the entry moved to i is not looked
 * at again.  Returns the entries left.
 */
static size_t
fold_loops(struct branch_ent *l, struct loop_iter *it, size_t nr)
{
	unsigned char slot[LOOP_SLOTS];

	memset(slot, LOOP_NONE, sizeof slot);
	for (size_t i = 0; i < nr; i++) {
		unsigned h = loop_slot(l[i].from);
		size_t j, off = 0, rest;
		bool loop = true;

		if (slot[h] == LOOP_NONE) {
			slot[h] = (unsigned char)i;
			continue;
		}
		if (l[slot[h]].from != l[i].from)
			continue;
		for (j = slot[h]; j < i && i + off < nr; j++, off++)
			if (l[j].from != l[i + off].from) {
				loop = false;
				break;
			}
		if (!loop)
			continue;
		rest = nr - (i + off);
		if (rest > 0) {
			struct loop_iter *x = &it[i + off];

			x->n++;
			x->cycles = 0;
			for (size_t k = 0; k < off; k++)
				x->cycles += BRF_CYCLES(l[i + k].flags);
			memmove(it + i, it + i + off, rest * sizeof *it);
			memmove(l + i, l + i + off, rest * sizeof *l);
		}
		nr -= off;
	}
	return nr;
}

/* Does callee-order branch entry e overlap the callchain at *at (a return
 * address one call instruction, at most 8 bytes, after its source)? */
static void
overlap(const struct sample *smp, const struct branch_ent *e, size_t *at)
{
	uint64_t ip;

	if (smp->callchain == NULL || *at >= smp->callchain_nr)
		return;
	ip = sample_callchain_ip(smp, *at);
	if (ip >= CTX_MAX || (e->from < ip && e->from >= ip - 8))
		(*at)++;
}

size_t
brhist_frames(const struct sample *smp, bool caller, unsigned max_stack,
    struct brh_frame *out, size_t *chain_lo, size_t *chain_hi, size_t *mode_at)
{
	struct branch_ent be[BR_MAX_DEPTH];
	struct loop_iter it[BR_MAX_DEPTH];
	size_t nchain = smp->callchain != NULL ? (size_t)smp->callchain_nr : 0, first = 0, nr, k = 0;

	*chain_lo = 0;
	*chain_hi = nchain;
	*mode_at = SIZE_MAX;
	if (smp->branch != NULL && smp->branch_nr <= BR_MAX_DEPTH) {
		nr = (size_t)smp->branch_nr;
		if (max_stack != 0 && nr > max_stack)
			nr = max_stack;
		for (size_t i = 0; i < nr; i++) {
			if (caller) {
				be[i] = sample_branch(smp, smp->branch_nr - i - 1);
			} else {
				be[i] = sample_branch(smp, i);
				overlap(smp, &be[i], &first);
			}
		}
		memset(it, 0, sizeof it);
		nr = fold_loops(be, it, nr);
		for (size_t i = 0; i < nr; i++) {
			/* perf: a target without a source counts as a source */
			out[k++] = (struct brh_frame){ .ip = be[i].to, .from = be[i].from,
				.flags = be[i].flags, .kind = be[i].from != 0 ? BRH_TO : BRH_FROM };
			out[k++] = (struct brh_frame){ .ip = be[i].from, .flags = be[i].flags,
				.iter = it[i].n, .iter_cycles = it[i].cycles, .kind = BRH_FROM };
		}
		if (nchain == 0)
			return k;
		/* as perf: as many frames fewer as there are branches */
		nchain = nr < nchain ? nchain - nr : 0;
	}
	if (caller) {
		/* perf walks root first from chain index (callchain_nr - nchain) */
		*chain_lo = (size_t)smp->callchain_nr - nchain;
		*chain_hi = (size_t)smp->callchain_nr;
		for (size_t j = *chain_lo; j-- > 0;)
			if (sample_callchain_ip(smp, j) >= CTX_MAX) {
				*mode_at = j;
				break;
			}
	} else {
		*chain_lo = first < nchain ? first : nchain;
		*chain_hi = nchain;
	}
	return k;
}

/* perf's branch_type_count: the types a branch target carried (as brhist_count's and
 * brstat_add's bits: its type or extended type, COND_FWD/BWD, CROSS_4K/2M). */
static uint32_t
type_bits(uint64_t flags, uint64_t from, uint64_t to)
{
	unsigned t = BRF_TYPE(flags);
	uint32_t b;

	if (t == 0 || from == 0)
		return 0;
	if (t == PERF_BR_EXTEND_ABI)
		b = BRF_NEW_TYPE(flags) < BR_NEW_TYPES ? 1u << (BR_TYPES + BRF_NEW_TYPE(flags)) : 0;
	else
		b = 1u << t;
	if (t == PERF_BR_COND)
		b |= to > from ? BRH_COND_FWD : BRH_COND_BWD;
	if ((from >> 21) != (to >> 21))
		b |= BRH_CROSS_2M;
	else if ((from >> 12) != (to >> 12))
		b |= BRH_CROSS_4K;
	return b;
}

void
brhist_count(struct brh_count *c, const struct brh_frame *f)
{
	c->passes++;
	if (f->kind == BRH_TO) {
		c->to++;
		c->predicted += BRF_PREDICTED(f->flags);
		c->aborted += BRF_ABORT(f->flags);
		c->types |= type_bits(f->flags, f->from, f->ip);
	} else if (f->kind == BRH_FROM) {
		c->from++;
		c->cycles += BRF_CYCLES(f->flags);
		c->iter += f->iter;
		c->iter_cycles += f->iter_cycles;
	}
}

void
brhist_sum(struct brh_count *a, const struct brh_count *b)
{
	a->passes += b->passes;
	a->to += b->to;
	a->from += b->from;
	a->predicted += b->predicted;
	a->aborted += b->aborted;
	a->iter += b->iter;
	a->types |= b->types;
	a->cycles += b->cycles;
	a->iter_cycles += b->iter_cycles;
}

const char *
br_type_name(unsigned t)
{
	static const char *const names[BR_TYPES] = { "N/A", "COND", "UNCOND", "IND", "CALL",
		"IND_CALL", "RET", "SYSCALL", "SYSRET", "COND_CALL", "COND_RET", "ERET", "IRQ",
		"SERROR", "NO_TX", "" };

	return t < BR_TYPES ? names[t] : "";
}

const char *
br_new_type_name(unsigned t)
{
	static const char *const names[BR_NEW_TYPES] = { "FAULT_ALGN", "FAULT_DATA",
		"FAULT_INST", "ARCH_1", "ARCH_2", "ARCH_3", "ARCH_4", "ARCH_5" };

	return t < BR_NEW_TYPES ? names[t] : "";
}

/* Appends " (" before the first word, " " before the others. */
static void
word(char *buf, size_t n, size_t *at, int *i, const char *fmt, ...)
    __attribute__((format(printf, 5, 6)));

static void
word(char *buf, size_t n, size_t *at, int *i, const char *fmt, ...)
{
	va_list ap;
	int w;

	if (*at >= n)
		return;
	w = snprintf(buf + *at, n - *at, "%s", (*i)++ ? " " : " (");
	if (w > 0)
		*at += (size_t)w;
	if (*at >= n)
		return;
	va_start(ap, fmt);
	w = vsnprintf(buf + *at, n - *at, fmt, ap);
	va_end(ap);
	if (w > 0)
		*at += (size_t)w;
}

/* A target's words: its types, then how often it was predicted and aborted. */
static void
to_text(const struct brh_count *c, char *buf, size_t n, size_t *at, int *i)
{
	static const struct {
		uint32_t	 bit;
		const char	*name;
	} first[] = { { BRH_COND_FWD, "COND_FWD" }, { BRH_COND_BWD, "COND_BWD" } },
	  last[] = { { BRH_CROSS_4K, "CROSS_4K" }, { BRH_CROSS_2M, "CROSS_2M" } };

	for (size_t k = 0; k < 2; k++)
		if (c->types & first[k].bit)
			word(buf, n, at, i, "%s", first[k].name);
	for (unsigned t = 0; t < BR_TYPES; t++)
		if (t != PERF_BR_COND && (c->types & (1u << t)))
			word(buf, n, at, i, "%s", br_type_name(t));
	for (unsigned t = 0; t < BR_NEW_TYPES; t++)
		if (c->types & (1u << (BR_TYPES + t)))
			word(buf, n, at, i, "%s", br_new_type_name(t));
	for (size_t k = 0; k < 2; k++)
		if (c->types & last[k].bit)
			word(buf, n, at, i, "%s", last[k].name);
	uint32_t br = c->to + c->from;

	if (c->predicted < br)
		word(buf, n, at, i, "predicted:%.1f%%", c->predicted * 100.0 / br);
	if (c->aborted && c->aborted * 100.0 / br >= 0.1)
		word(buf, n, at, i, "abort:%.1f%%", c->aborted * 100.0 / br);
}

/*
 * A source's words: average cycles, and the loop iterations folded into it
 * per pass after the first (perf counts a node's sources from its second
 * pass on: the first made the node).
 */
static void
from_text(const struct brh_count *c, char *buf, size_t n, size_t *at, int *i)
{
	uint64_t cycles = c->cycles / (c->to + c->from), later = c->from > 0 ? c->from - 1 : 0;

	if (cycles)
		word(buf, n, at, i, "cycles:%" PRIu64, cycles);
	if (c->iter && later && c->iter / later) {
		word(buf, n, at, i, "iter:%" PRIu64, (uint64_t)(c->iter / later));
		word(buf, n, at, i, "avg_cycles:%" PRIu64, c->iter_cycles / c->iter);
	}
}

const char *
brhist_text(const struct brh_count *c, char *buf, size_t n)
{
	size_t at = 0;
	int i = 0;

	if (n == 0)
		return buf;
	buf[0] = '\0';
	if (c->to + c->from == 0) {
		snprintf(buf, n, " (calltrace)");
		return buf;
	}
	/* perf: a node is a target's if its last pass was; passes agree in practice */
	if (c->to >= c->from)
		to_text(c, buf, n, &at, &i);
	else
		from_text(c, buf, n, &at, &i);
	if (i && at < n)
		snprintf(buf + at, n - at, ")");
	return buf;
}

void
brstat_add(struct brstat *st, uint64_t flags, uint64_t from, uint64_t to)
{
	uint32_t b = type_bits(flags, from, to);

	for (unsigned t = 0; t < BR_TYPES; t++)
		st->counts[t] += (b >> t) & 1;
	for (unsigned t = 0; t < BR_NEW_TYPES; t++)
		st->new_counts[t] += (b >> (BR_TYPES + t)) & 1;
	st->cond_fwd += (b & BRH_COND_FWD) != 0;
	st->cond_bwd += (b & BRH_COND_BWD) != 0;
	st->cross_4k += (b & BRH_CROSS_4K) != 0;
	st->cross_2m += (b & BRH_CROSS_2M) != 0;
}

void
brstat_sum(struct brstat *a, const struct brstat *b)
{
	for (size_t i = 0; i < BR_TYPES; i++)
		a->counts[i] += b->counts[i];
	for (size_t i = 0; i < BR_NEW_TYPES; i++)
		a->new_counts[i] += b->new_counts[i];
	a->cond_fwd += b->cond_fwd;
	a->cond_bwd += b->cond_bwd;
	a->cross_4k += b->cross_4k;
	a->cross_2m += b->cross_2m;
}
