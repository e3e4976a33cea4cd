#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <gelf.h>
#include <libunwind.h>
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/safefile.h"
#include "symbolize/symtab.h"
#include "symbolize/unwind.h"

/* Not in libunwind's public header, but exported: the lookup in a
 * .eh_frame_hdr binary-search table through our accessors. */
extern int UNW_OBJ(dwarf_search_unwind_table)(unw_addr_space_t as, unw_word_t ip,
    unw_dyn_info_t *di, unw_proc_info_t *pi, int need_unwind_info, void *arg);

static const char *const stop_texts[] = {
#define X(n, t) t,
	UNWIND_STOPS(X)
#undef X
};

const char *
unwind_stop_text(enum unwind_stop w)
{
	return (unsigned)w < UNWIND_STOP_COUNT ? stop_texts[w] : "?";
}

/*
 * libunwind blocks every signal around each lock it takes (its rules
 * cache's, at every step; its memory pool's, for every FDE parsed): two
 * system calls a step, a fifth of top's time over a --call-graph dwarf
 * recording.  That keeps a signal handler that unwinds its own thread off
 * a lock its thread holds; perfnav unwinds in no signal handler, so while
 * a thread runs libunwind's code (stepping a cursor, except while it asks
 * the caller for a map), sigprocmask leaves the mask as it is.  Otherwise
 * it is the C library's.
 */
static _Thread_local bool unwinding;

int
sigprocmask(int how, const sigset_t *set, sigset_t *old)
{
	int rc;

	if (unwinding) {
		if (old != NULL)
			sigemptyset(old);
		return 0;
	}
	rc = pthread_sigmask(how, set, old);
	if (rc != 0) {
		errno = rc;
		return -1;
	}
	return 0;
}

/* ---- ELF images ---- */

#define UELF_MAX_LOADS 16

struct uelf {
	uint32_t	 key;
	bool		 ok;		/* mapped and parsed */
	const uint8_t	*map;
	size_t		 size;
	struct {
		uint64_t vaddr, offset, filesz;
	}		 loads[UELF_MAX_LOADS];
	unsigned	 nloads;
	bool		 loads_overlap;	/* (then reads are never served from the last segment) */
	uint64_t	 hdr_vaddr, hdr_offset, hdr_size;	/* PT_GNU_EH_FRAME */
	bool		 has_hdr;
	uint64_t	 table_vaddr;	/* binary search table inside the header */
	uint64_t	 fde_count;
};

/* An image placed at a runtime base, as seen in the current sample. */
struct placed {
	struct uelf	*e;
	uint64_t	 base;		/* runtime address = base + ELF vaddr */
	uint64_t	 lo, hi;	/* runtime range of its PT_LOADs */
};

#define PLACED_MAX 32

struct uctx {
	struct unwinder		*u;
	const struct sample	*smp;
	uint64_t		 regs_mask;
	uint64_t		 sp;
	unwind_find_map_fn	 find_map;
	void			*arg;
	struct placed		 placed[PLACED_MAX];
	unsigned		 nplaced;
	enum unwind_stop	 fail;		/* why the last access failed */
	/*
	 * The image segment read last: runtime [seg_lo, seg_hi) is at seg;
	 * read from there again while no placed images overlap (so place()
	 * could give no other).
	 */
	uint64_t		 seg_lo, seg_hi;
	const uint8_t		*seg;
	bool			 overlap;
};

/*
 * libunwind caches the unwind rules it parsed (from an FDE and its CIE) by
 * ip alone, so a cache may serve only the address space it was filled in.
 * An unwinder keeps a few libunwind address spaces, each holding one
 * caller's space (struct unwind_space) at a time: processes that take
 * turns keep their rules.  Giving a slot another space flushes its cache.
 *
 * What UNW_CACHE_PER_THREAD gives depends on how libunwind was built:
 * with --enable-per-thread-cache, one cache per thread shared by every
 * address space, emptied when the generation of the address space in use
 * differs from the one it was filled under; without it, each address
 * space's own cache, unlocked; and without __thread (Debian's 1.6.2), it
 * is UNW_CACHE_GLOBAL: the address space's own cache, locked (see
 * sigprocmask above).  All are served by giving every (slot, space)
 * pairing a generation no address space in this program had before (a
 * ticket; unw_flush_cache bumps a generation by one, and every address
 * space starts at the same one): a shared cache then empties whenever
 * another slot or space uses it, and a slot's own cache whenever its
 * space changes.
 */
#define UNWIND_SLOTS 8

struct uslot {
	unw_addr_space_t	 as;
	struct unwind_space	 space;
	bool			 keyed;		/* space is set (else: a fresh one each use) */
	uint64_t		 bumps;		/* unw_flush_cache calls made on as */
	uint64_t		 used;		/* the unwinder's clock at the last use */
};

struct unwinder {
	struct uslot		 slots[UNWIND_SLOTS];
	uint64_t		 clock;
	struct uelf		*elfs;
	size_t			 nelfs, capelfs;
};

/* The last generation ticket handed out (see struct uslot). */
static _Atomic uint64_t gen_ticket;

static void
uelf_load(struct uelf *e, const char *path)
{
	struct stat st;
	int fd = safefile_open(path, &elfsym_rule, &st, NULL);
	Elf *elf;
	size_t nph;

	if (fd < 0)
		return;
	if (st.st_size <= 0) {
		close(fd);
		return;
	}
	e->size = (size_t)st.st_size;
	e->map = mmap(NULL, e->size, PROT_READ, MAP_PRIVATE, fd, 0);
	close(fd);
	if (e->map == MAP_FAILED) {
		e->map = NULL;
		return;
	}
	elf = elf_memory((char *)e->map, e->size);
	if (elf == NULL)
		return;
	if (elf_kind(elf) == ELF_K_ELF && elf_getphdrnum(elf, &nph) == 0) {
		for (size_t i = 0; i < nph; i++) {
			GElf_Phdr ph;

			if (gelf_getphdr(elf, (int)i, &ph) == NULL)
				continue;
			if (ph.p_type == PT_LOAD && e->nloads < UELF_MAX_LOADS) {
				e->loads[e->nloads].vaddr = ph.p_vaddr;
				e->loads[e->nloads].offset = ph.p_offset;
				e->loads[e->nloads].filesz = ph.p_filesz;
				e->nloads++;
			} else if (ph.p_type == PT_GNU_EH_FRAME) {
				e->has_hdr = true;
				e->hdr_vaddr = ph.p_vaddr;
				e->hdr_offset = ph.p_offset;
				e->hdr_size = ph.p_filesz;
			}
		}
		e->ok = e->nloads > 0;
		for (unsigned i = 0; i < e->nloads; i++)
			for (unsigned j = 0; j < i; j++)
				e->loads_overlap |= e->loads[i].vaddr < e->loads[j].vaddr + e->loads[j].filesz &&
				    e->loads[j].vaddr < e->loads[i].vaddr + e->loads[i].filesz;
	}
	elf_end(elf);
	/*
	 * .eh_frame_hdr: version 1, three encodings, eh_frame_ptr, fde_count,
	 * then the table.  Only the layout every linker writes is taken:
	 * udata4 count and a datarel|sdata4 table of (initial loc, fde) pairs.
	 */
	if (e->has_hdr) {
		const uint8_t *h = e->map + e->hdr_offset;
		size_t ptr_len;

		e->has_hdr = false;
		if (e->hdr_offset > e->size || e->hdr_size > e->size - e->hdr_offset ||
		    e->hdr_size < 12 || h[0] != 1)
			return;
		switch (h[1] & 0x0f) {	/* eh_frame_ptr format */
		case 0x03:
		case 0x0b:
			ptr_len = 4;
			break; /* udata4, sdata4 */
		case 0x04:
		case 0x0c:
		case 0x00:
			ptr_len = 8;
			break;
		default:
			return;
		}
		if (h[2] != 0x03 || h[3] != 0x3b || 4 + ptr_len + 4 > e->hdr_size)
			return;
		{
			uint32_t n;

			memcpy(&n, h + 4 + ptr_len, 4);
			e->fde_count = n;
		}
		e->table_vaddr = e->hdr_vaddr + 4 + ptr_len + 4;
		if (e->fde_count * 8 > e->hdr_size - (4 + ptr_len + 4))
			return;
		e->has_hdr = true;
	}
}

static struct uelf *
uelf_get(struct unwinder *u, uint32_t key, const char *path)
{
	struct uelf *e;

	for (size_t i = 0; i < u->nelfs; i++)
		if (u->elfs[i].key == key)
			return u->elfs[i].ok ? &u->elfs[i] : NULL;
	GROW(u->elfs, u->capelfs, u->nelfs + 1);
	e = &u->elfs[u->nelfs++];
	memset(e, 0, sizeof *e);
	e->key = key;
	if (path != NULL)
		uelf_load(e, path);
	return e->ok ? e : NULL;
}

/* Runtime base of an image mapped at [m->start, m->end) from file offset m->pgoff. */
static uint64_t
image_base(const struct uelf *e, const struct unwind_map *m)
{
	for (unsigned i = 0; i < e->nloads; i++)
		if (m->pgoff >= e->loads[i].offset &&
		    m->pgoff < e->loads[i].offset + e->loads[i].filesz)
			return m->start - m->pgoff + e->loads[i].offset - e->loads[i].vaddr;
	return m->start - m->pgoff;
}

/* The caller's find_map, with sigprocmask its usual self. */
static int
find_map_of(struct uctx *c, uint64_t addr, struct unwind_map *m)
{
	bool was = unwinding;
	int rc;

	unwinding = false;
	rc = c->find_map(c->arg, addr, m);
	unwinding = was;
	return rc;
}

/* Place the image backing the map covering addr; NULL with ctx->fail set. */
static struct placed *
place(struct uctx *c, uint64_t addr)
{
	struct unwind_map m;
	struct uelf *e;
	struct placed *p;
	bool was = unwinding;

	for (unsigned i = 0; i < c->nplaced; i++)
		if (addr >= c->placed[i].lo && addr < c->placed[i].hi)
			return &c->placed[i];
	if (find_map_of(c, addr, &m) < 0) {
		if (c->fail == UNWIND_STOP_ERROR)
			c->fail = UNWIND_STOP_NO_MAP;
		return NULL;
	}
	unwinding = false;	/* opening a file is not libunwind's code */
	e = uelf_get(c->u, m.key, m.path);
	unwinding = was;
	if (e == NULL) {
		if (c->fail == UNWIND_STOP_ERROR)
			c->fail = UNWIND_STOP_NO_FILE;
		return NULL;
	}
	p = &c->placed[c->nplaced < PLACED_MAX ? c->nplaced++ : PLACED_MAX - 1];
	p->e = e;
	p->base = image_base(e, &m);
	p->lo = UINT64_MAX;
	p->hi = 0;
	for (unsigned i = 0; i < e->nloads; i++) {
		uint64_t lo = p->base + e->loads[i].vaddr, hi = lo + e->loads[i].filesz;

		if (lo < p->lo)
			p->lo = lo;
		if (hi > p->hi)
			p->hi = hi;
	}
	/* The recorded map itself always counts as covered. */
	if (m.start < p->lo)
		p->lo = m.start;
	if (m.end > p->hi)
		p->hi = m.end;
	c->seg_hi = 0;	/* the segment may have been in the entry replaced */
	for (struct placed *q = c->placed; q < c->placed + c->nplaced; q++)
		c->overlap |= q != p && q->lo < p->hi && p->lo < q->hi;
	return p;
}

/*
 * Read 8 bytes of an image at runtime address addr; the segment read is
 * kept in c for the next read (parsing an FDE reads it a byte at a time).
 */
static int
image_read(struct uctx *c, const struct placed *p, uint64_t addr, uint64_t *val)
{
	uint64_t va = addr - p->base;
	const struct uelf *e = p->e;

	for (unsigned i = 0; i < e->nloads; i++) {
		uint64_t v0 = e->loads[i].vaddr, off = e->loads[i].offset, len = e->loads[i].filesz;

		if (va < v0 || va - v0 + 8 > len)
			continue;
		if (off > e->size || va - v0 + 8 > e->size - off)
			return -1;
		if (len > e->size - off)
			len = e->size - off;
		memcpy(val, e->map + off + (va - v0), 8);
		if (!e->loads_overlap) {
			c->seg_lo = p->base + v0;
			c->seg_hi = c->seg_lo + len;
			c->seg = e->map + off;
		}
		return 0;
	}
	return -1;
}

/* ---- libunwind accessors ---- */

static int
perf_reg_of(unw_regnum_t r)
{
	/* libunwind x86_64 numbering -> perf's PERF_REG_X86_* */
	static const int map[17] = {
		0 /* RAX */, 3 /* RDX */, 2 /* RCX */, 1 /* RBX */, 4 /* RSI */, 5 /* RDI */,
		6 /* RBP */, 7 /* RSP */, 16, 17, 18, 19, 20, 21, 22, 23 /* R8-R15 */,
		8 /* RIP */,
	};

	return r >= 0 && r < 17 ? map[r] : -1;
}

static int
reg_value(const struct sample *smp, uint64_t mask, int preg, uint64_t *val)
{
	unsigned idx;

	if (preg < 0 || preg >= 64 || !(mask >> preg & 1) || smp->uregs == NULL)
		return -1;
	idx = (unsigned)__builtin_popcountll(mask & ((UINT64_C(1) << preg) - 1));
	memcpy(val, smp->uregs + 8 * idx, 8);
	if (smp->swap)
		*val = __builtin_bswap64(*val);
	return 0;
}

static int
acc_find_proc_info(unw_addr_space_t as, unw_word_t ip, unw_proc_info_t *pi, int need, void *arg)
{
	struct uctx *c = arg;
	struct unwind_map m;
	struct placed *p = place(c, ip);
	unw_dyn_info_t di;

	/*
	 * As perf's: an address in no mapped ELF, or in one without
	 * .eh_frame_hdr, is an error, which ends the unwind (libunwind
	 * guesses a frame-pointer step only after -UNW_ENOINFO, which perf
	 * gives for an address its table does not cover).
	 */
	if (p == NULL)
		return -UNW_EINVAL;
	if (!p->e->has_hdr) {
		c->fail = UNWIND_STOP_NO_CFI;
		return -UNW_EINVAL;
	}
	if (find_map_of(c, ip, &m) < 0) {
		m.start = p->lo;
		m.end = p->hi;
	}
	memset(&di, 0, sizeof di);
	di.format = UNW_INFO_FORMAT_REMOTE_TABLE;
	di.start_ip = m.start;
	di.end_ip = m.end;
	di.u.rti.segbase = p->base + p->e->hdr_vaddr;
	di.u.rti.table_data = p->base + p->e->table_vaddr;
	di.u.rti.table_len = p->e->fde_count * 8 / sizeof(unw_word_t);
	if (UNW_OBJ(dwarf_search_unwind_table)(as, ip, &di, pi, need, arg) < 0) {
		c->fail = UNWIND_STOP_NO_CFI;
		return -UNW_ENOINFO;
	}
	return 0;
}

static void
acc_put_unwind_info(unw_addr_space_t as, unw_proc_info_t *pi, void *arg)
{
	(void)as;
	(void)pi;
	(void)arg;
}

static int
acc_get_dyn_info_list_addr(unw_addr_space_t as, unw_word_t *dil, void *arg)
{
	(void)as;
	(void)dil;
	(void)arg;
	return -UNW_ENOINFO;
}

/*
 * Memory of the sampled process: the stack copy, else the DSO images.
 * Like perf, a read that cannot be served yields 0 rather than an error
 * (so a chain that runs off the copy ends in a frame of ip ~0, as in
 * perf's), and the reason is kept to be counted.
 */
static int
acc_access_mem(unw_addr_space_t as, unw_word_t addr, unw_word_t *valp, int write, void *arg)
{
	struct uctx *c = arg;
	const struct sample *smp = c->smp;
	struct placed *p;
	uint64_t v;

	(void)as;
	if (write)
		return -UNW_EINVAL;
	*valp = 0;
	if (addr + 8 < addr)
		return -UNW_EINVAL;
	/* The stack copy starts at the sample's user sp. */
	if (addr >= c->sp && addr - c->sp + 8 <= smp->stack_size) {
		if (addr - c->sp + 8 > smp->stack_dyn_size && c->fail == UNWIND_STOP_ERROR)
			c->fail = UNWIND_STOP_STACK_END;
		memcpy(&v, smp->stack + (addr - c->sp), 8);
		*valp = smp->swap ? __builtin_bswap64(v) : v;
		return 0;
	}
	if (addr >= c->seg_lo && addr < c->seg_hi && c->seg_hi - addr >= 8 && !c->overlap) {
		memcpy(valp, c->seg + (addr - c->seg_lo), 8);
		return 0;
	}
	p = place(c, addr);
	if (p == NULL)
		return 0;
	if (image_read(c, p, addr, &v) < 0) {
		if (c->fail == UNWIND_STOP_ERROR)
			c->fail = UNWIND_STOP_NO_MAP;
		return 0;
	}
	*valp = v;
	return 0;
}

static int
acc_access_reg(unw_addr_space_t as, unw_regnum_t regnum, unw_word_t *valp, int write, void *arg)
{
	struct uctx *c = arg;
	uint64_t v;

	(void)as;
	if (write)
		return -UNW_EREADONLYREG;
	if (reg_value(c->smp, c->regs_mask, perf_reg_of(regnum), &v) < 0)
		return -UNW_EBADREG;
	*valp = v;
	return 0;
}

static int
acc_access_fpreg(unw_addr_space_t as, unw_regnum_t num, unw_fpreg_t *val, int write, void *arg)
{
	(void)as;
	(void)num;
	(void)val;
	(void)write;
	(void)arg;
	return -UNW_EINVAL;
}

static int
acc_resume(unw_addr_space_t as, unw_cursor_t *cu, void *arg)
{
	(void)as;
	(void)cu;
	(void)arg;
	return -UNW_EINVAL;
}

static int
acc_get_proc_name(unw_addr_space_t as, unw_word_t addr, char *buf, size_t len, unw_word_t *offp,
    void *arg)
{
	(void)as;
	(void)addr;
	(void)buf;
	(void)len;
	(void)offp;
	(void)arg;
	return -UNW_EINVAL;
}

static unw_accessors_t accessors = {
	.find_proc_info = acc_find_proc_info,
	.put_unwind_info = acc_put_unwind_info,
	.get_dyn_info_list_addr = acc_get_dyn_info_list_addr,
	.access_mem = acc_access_mem,
	.access_reg = acc_access_reg,
	.access_fpreg = acc_access_fpreg,
	.resume = acc_resume,
	.get_proc_name = acc_get_proc_name,
};

/* ---- the unwinder ---- */

struct unwinder *
unwinder_new(void)
{
	struct unwinder *u = xcalloc(1, sizeof *u);

	elf_version(EV_CURRENT);
	return u;
}

/* The libunwind address space to unwind space in (NULL: a fresh one). */
static unw_addr_space_t
slot_for(struct unwinder *u, const struct unwind_space *space)
{
	struct uslot *sl = NULL;
	uint64_t t;

	for (unsigned i = 0; space != NULL && i < UNWIND_SLOTS; i++)
		if (u->slots[i].keyed && u->slots[i].space.proc == space->proc &&
		    u->slots[i].space.epoch == space->epoch) {
			sl = &u->slots[i];
			sl->used = ++u->clock;
			return sl->as;
		}
	for (unsigned i = 0; i < UNWIND_SLOTS; i++)
		if (sl == NULL || u->slots[i].used < sl->used)
			sl = &u->slots[i];
	if (sl->as == NULL) {
		sl->as = unw_create_addr_space(&accessors, 0);
		if (sl->as == NULL)
			fatal_oom(0);
		/* Unlocked where libunwind can (see struct uslot). */
		unw_set_caching_policy(sl->as, UNW_CACHE_PER_THREAD);
		sl->bumps = 0;
	}
	/*
	 * Tickets only grow, so t is above every generation sl->as had (the
	 * bumps are the tickets handed out since sl's last one).
	 */
	t = atomic_fetch_add(&gen_ticket, 1) + 1;
	while (sl->bumps < t) {
		unw_flush_cache(sl->as, 0, 0);
		sl->bumps++;
	}
	sl->keyed = space != NULL;
	if (space != NULL)
		sl->space = *space;
	sl->used = ++u->clock;
	return sl->as;
}

void
unwinder_free(struct unwinder *u)
{
	if (u == NULL)
		return;
	for (size_t i = 0; i < u->nelfs; i++)
		if (u->elfs[i].map != NULL)
			munmap((void *)u->elfs[i].map, u->elfs[i].size);
	free(u->elfs);
	for (unsigned i = 0; i < UNWIND_SLOTS; i++)
		if (u->slots[i].as != NULL)
			unw_destroy_addr_space(u->slots[i].as);
	free(u);
}

/* Step a cursor over c from the sample's registers: ips[n..max). */
static size_t
step_all(struct uctx *c, unw_addr_space_t as, uint64_t *ips, size_t n, size_t max,
    enum unwind_stop *stop)
{
	unw_cursor_t cur;
	int rc;

	if (unw_init_remote(&cur, as, c) < 0) {
		*stop = c->fail;
		return n;
	}
	while (n < max) {
		unw_word_t w;

		rc = unw_step(&cur);
		if (rc <= 0) {
			/* c->fail is ERROR unless something could not be read. */
			*stop = rc == 0 && c->fail == UNWIND_STOP_ERROR ? UNWIND_STOP_END : c->fail;
			return n;
		}
		if (unw_get_reg(&cur, UNW_REG_IP, &w) < 0)
			return n;
		/*
		 * A caller's frame: its return address minus one, except after
		 * a signal frame, where the ip is the interrupted instruction.
		 * A return address of 0 (a frame libunwind could step into but
		 * not recover) becomes ~0, as it does in perf's chains, and ends
		 * them there: what libunwind would step to from it is no frame
		 * (perf's chain stops; stepping on lands in data symbols).
		 */
		if (unw_is_signal_frame(&cur) <= 0)
			w--;
		ips[n++] = w;
		if (w == ~(unw_word_t)0) {
			*stop = UNWIND_STOP_END;
			return n;
		}
	}
	*stop = UNWIND_STOP_MAX;
	return n;
}

size_t
unwinder_unwind(struct unwinder *u, const struct sample *smp, uint64_t regs_mask,
    const struct unwind_space *space, unwind_find_map_fn find_map, void *arg, uint64_t *ips,
    size_t max, enum unwind_stop *stop)
{
	struct uctx c;
	uint64_t ip;
	size_t n = 0;

	*stop = UNWIND_STOP_END;
	if (max == 0)
		return 0;
	/* x86_64 registers (PERF_SAMPLE_REGS_ABI_64) are all this unwinder reads. */
	if (smp->uregs == NULL || smp->uregs_abi != PERF_SAMPLE_REGS_ABI_64 ||
	    reg_value(smp, regs_mask, 8 /* IP */, &ip) < 0) {
		*stop = UNWIND_STOP_NO_REGS;
		return 0;
	}
	ips[n++] = ip;
	memset(&c, 0, sizeof c);
	c.u = u;
	c.smp = smp;
	c.regs_mask = regs_mask;
	c.find_map = find_map;
	c.arg = arg;
	c.fail = UNWIND_STOP_ERROR;
	if (smp->stack == NULL || smp->stack_dyn_size == 0 ||
	    reg_value(smp, regs_mask, 7 /* SP */, &c.sp) < 0) {
		*stop = UNWIND_STOP_NO_STACK;
		return n;
	}
	unwinding = true;
	n = step_all(&c, slot_for(u, space), ips, n, max, stop);
	unwinding = false;
	return n;
}
