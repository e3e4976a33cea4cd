#include "config.h"

#include <inttypes.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "symbolize/memsrc.h"

/*
 * The words are those of perf 6.1's memory columns (tools/perf/util/
 * mem-events.c): each part of the value lists the names of its set bits,
 * joined by " or ", with "N/A" for none and " hit" / " miss" after.
 */

/* A bounded string being written. */
struct out {
	char	*p;
	size_t	 n, l;
};

static void
put(struct out *o, const char *s)
{
	size_t k = strlen(s);

	if (o->n == 0)
		return;
	if (o->l + k >= o->n)
		k = o->n - 1 - o->l;
	memcpy(o->p + o->l, s, k);
	o->l += k;
	o->p[o->l] = '\0';
}

static struct out
out_start(char *buf, size_t n)
{
	struct out o = { buf, n, 0 };

	if (n > 0)
		buf[0] = '\0';
	return o;
}

/* The part of v under mask, shifted down. */
static uint64_t
part(uint64_t v, uint64_t mask)
{
	return (v & mask) >> __builtin_ctzll(mask);
}

/* Names of the set bits of m (bit i: names[i]), " or " between; returns how many. */
static int
bit_names(struct out *o, uint64_t m, const char *const *names, size_t nn, int printed)
{
	for (size_t i = 0; m != 0 && i < nn; i++, m >>= 1) {
		if (!(m & 1))
			continue;
		if (printed++)
			put(o, " or ");
		put(o, names[i]);
	}
	return printed;
}

/* The end of a level or TLB text as perf writes it: "N/A" when nothing
 * was named, then " hit" and " miss" for those bits. */
static void
hit_miss_tail(struct out *o, bool hit, bool miss)
{
	if (o->l == 0)
		put(o, "N/A");
	if (hit)
		put(o, " hit");
	if (miss)
		put(o, " miss");
}

const char *
memsrc_op(uint64_t v, char *buf, size_t n)
{
	uint64_t op = part(v, MEMSRC_OP);
	struct out o = out_start(buf, n);

	if (op & 1)
		put(&o, "N/A");
	else if (op & 2)
		put(&o, "LOAD");
	else if (op & 4)
		put(&o, "STORE");
	else if (op & 8)
		put(&o, "PFETCH");
	else if (op & 16)
		put(&o, "EXEC");
	else
		put(&o, "No");
	return buf;
}

const char *
memsrc_lvl(uint64_t v, char *buf, size_t n)
{
	static const char *const lvl[] = { "N/A", "HIT", "MISS", "L1", "LFB/MAB", "L2", "L3",
		"Local RAM", "Remote RAM (1 hop)", "Remote RAM (2 hops)", "Remote Cache (1 hop)",
		"Remote Cache (2 hops)", "I/O", "Uncached" };
	static const char *const lvlnum[16] = { [9] = "CXL", [10] = "I/O", [11] = "Any cache",
		[12] = "LFB/MAB", [13] = "RAM", [14] = "PMEM", [15] = "N/A" };
	static const char *const hops[] = { "N/A", "core, same node", "node, same socket",
		"socket, same board", "board", "N/A", "N/A", "N/A" };
	uint64_t m = part(v, MEMSRC_LVL), num = part(v, MEMSRC_LVLNUM), hop = part(v, MEMSRC_HOPS);
	bool hit = m & 2, miss = m & 4;
	struct out o = out_start(buf, n);
	int printed = 0;
	char tmp[16];

	m &= ~UINT64_C(6);
	if (v & MEMSRC_REMOTE)
		put(&o, "Remote ");
	if (hop != 0) {
		put(&o, hops[hop]);
		put(&o, " ");
	} else {
		printed = bit_names(&o, m, lvl, sizeof lvl / sizeof lvl[0], 0);
	}
	if (num != 0) {
		if (printed++)
			put(&o, " or ");
		if (lvlnum[num] != NULL)
			put(&o, lvlnum[num]);
		else {
			snprintf(tmp, sizeof tmp, "L%d", (int)num);
			put(&o, tmp);
		}
	}
	hit_miss_tail(&o, hit, miss);
	return buf;
}

const char *
memsrc_snoop(uint64_t v, char *buf, size_t n)
{
	static const char *const snoop[] = { "N/A", "None", "Hit", "Miss", "HitM" };
	struct out o = out_start(buf, n);
	int printed = bit_names(&o, part(v, MEMSRC_SNOOP), snoop, 5, 0);

	if (part(v, MEMSRC_SNOOPX) & 1) {
		if (printed)
			put(&o, " or ");
		put(&o, "Fwd");
	}
	if (o.l == 0)
		put(&o, "N/A");
	return buf;
}

const char *
memsrc_tlb(uint64_t v, char *buf, size_t n)
{
	static const char *const tlb[] = { "N/A", "HIT", "MISS", "L1", "L2", "Walker", "Fault" };
	uint64_t m = part(v, MEMSRC_DTLB);
	bool hit = m & 2, miss = m & 4;
	struct out o = out_start(buf, n);

	bit_names(&o, m & ~UINT64_C(6), tlb, 7, 0);
	hit_miss_tail(&o, hit, miss);
	return buf;
}

const char *
memsrc_lock(uint64_t v, char *buf, size_t n)
{
	uint64_t m = part(v, MEMSRC_LOCK);

	snprintf(buf, n, "%s", (m & 1) ? "N/A" : (m & 2) ? "Yes" : "No");
	return buf;
}

const char *
memsrc_blk(uint64_t v, char *buf, size_t n)
{
	uint64_t m = part(v, MEMSRC_BLK);
	struct out o = out_start(buf, n);

	if (m == 0 || (m & 1)) {
		put(&o, " N/A");
		return buf;
	}
	if (m & 2)
		put(&o, " Data");
	if (m & 4)
		put(&o, " Addr");
	return buf;
}

const char *
memsrc_text(uint64_t v, char *buf, size_t n)
{
	char op[32], lvl[128], snp[64], tlb[96], lck[8], blk[16];

	snprintf(buf, n, "|OP %s|LVL %s|SNP %s|TLB %s|LCK %s|BLK %s", memsrc_op(v, op, sizeof op),
	    memsrc_lvl(v, lvl, sizeof lvl), memsrc_snoop(v, snp, sizeof snp),
	    memsrc_tlb(v, tlb, sizeof tlb), memsrc_lock(v, lck, sizeof lck),
	    memsrc_blk(v, blk, sizeof blk));
	return buf;
}

const char *
memsrc_page_size(uint64_t size, char *buf, size_t n)
{
	static const char units[] = "BKMG";
	size_t u = 0;

	if (size == 0) {
		snprintf(buf, n, "N/A");
		return buf;
	}
	/* as perf: down a unit while a whole unit more than one is left */
	while (size / 1024 > 1 && u + 1 < sizeof units - 1) {
		size /= 1024;
		u++;
	}
	snprintf(buf, n, "%" PRIu64 "%c", size, units[u]);
	return buf;
}
