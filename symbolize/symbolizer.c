#include "config.h"

#include <dirent.h>
#include <inttypes.h>
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/err.h"
#include "core/index.h"
#include "core/perf_file.h"
#include "core/record.h"
#include "core/session.h"
#include "symbolize/debuginfod.h"
#include "symbolize/dso.h"
#include "symbolize/chainwalk.h"
#include "symbolize/symbolizer.h"
#include "symbolize/symtab.h"
#include "symbolize/unwind.h"

static const char *const why_text[] = {
#define X(n, t) t,
	SYM_WHYS(X)
#undef X
};
static const char *const why_name[] = {
#define X(n, t) #n,
	SYM_WHYS(X)
#undef X
};

const char *
sym_why_text(enum sym_why w)
{
	return (unsigned)w < SYM_WHY_COUNT ? why_text[w] : "?";
}

const char *
sym_why_name(enum sym_why w)
{
	return (unsigned)w < SYM_WHY_COUNT ? why_name[w] : "?";
}

/* ---- maps and processes ---- */

/* One mapping, from one MMAP/MMAP2 record. */
struct zmap {
	uint64_t	start, end, pgoff;
	uint64_t	time;
	uint32_t	dso;
	uint32_t	ev;		/* its record in the session's thread table */
	bool		identity;	/* rel = ip (kernel, anon, JIT) */
};

/* A piece of a map in effect (after newer maps cut into it). */
struct ival {
	uint64_t	start, end;
	uint32_t	map;
};

struct proc {
	int32_t		 pid;
	int32_t		 ppid;		/* parent process whose maps it inherited, or -2 */
	uint64_t	 fork_time;
	uint32_t	*maps;		/* zmap ids in time order */
	size_t		 nmaps, capmaps;
	/* Snapshot of the address space at some time. */
	struct ival	*iv;
	size_t		 niv, capiv;
	bool		 snap;
	size_t		 applied;	/* own maps applied */
	uint64_t	 snap_from;	/* valid for times >= snap_from ... */
};

/* Memo of (dso, rel) -> symbol. */
struct memo {
	uint64_t	rel;
	uint32_t	dso;
	uint32_t	sym;
	uint64_t	symstart;
};

struct symbolizer {
	const struct session	*s;
	struct sym_opts		 o;
	char			*buildid_dir, *perfmap_dir;
	struct strtab		 strs;
	struct dso_table	 dsos;
	struct dso_ctx		 ctx;		/* what loading DSOs needs (points into z) */

	struct zmap		*maps;
	size_t			 nmaps;
	struct proc		*procs;
	size_t			 nprocs, capprocs;
	struct hmap		 proc_of;	/* pid -> proc index */
	uint32_t		 kproc;		/* kernel maps */

	struct memo		*memo;
	size_t			 mcap, mn;
	struct hmap		 memo_tab;	/* digest of (dso, rel) -> memo index */

	uint64_t		*whys;		/* per dso x SYM_WHY_COUNT */
	size_t			 capwhys;
	uint64_t		 nomap[SYM_WHY_COUNT];

	/* DWARF unwinding of --call-graph dwarf samples, made on first use;
	 * only for recordings of the architecture libunwind is built for. */
	struct unwinder		*unw;
	bool			 unwind_arch;
	uint64_t		*stops;		/* per dso x UNWIND_STOP_COUNT */
	size_t			 capstops;
	uint64_t		 nodso_stops[UNWIND_STOP_COUNT];

	/* The CALLCHAIN_DEFERRED records by thread then time, made on first
	 * use by a sample that waits for one. */
	struct defer_ent	*defer;
	size_t			 ndefer;
	bool			 defer_made;
};

static uint32_t
proc_find(const struct symbolizer *z, int32_t pid)
{
	return hmap_get(&z->proc_of, (uint32_t)pid);
}

static uint32_t
proc_get(struct symbolizer *z, int32_t pid)
{
	uint32_t id = proc_find(z, pid);
	struct proc *p;

	if (id != UINT32_MAX)
		return id;
	GROW(z->procs, z->capprocs, z->nprocs + 1);
	id = (uint32_t)z->nprocs++;
	p = &z->procs[id];
	memset(p, 0, sizeof *p);
	p->pid = pid;
	p->ppid = -2;
	hmap_set(&z->proc_of, (uint32_t)pid, id);
	return id;
}

static bool
is_anon(const char *f)
{
	return strcmp(f, "//anon") == 0 || strncmp(f, "/dev/zero", 9) == 0 ||
	    strncmp(f, "/anon_hugepage", 14) == 0;
}

static bool
is_no_dso(const char *f)
{
	return strncmp(f, "[stack", 6) == 0 || strncmp(f, "/SYSV", 5) == 0 ||
	    strcmp(f, "[heap]") == 0;
}

static void
add_map(struct symbolizer *z, const struct map_ev *m)
{
	const char *fn = strtab_get(&session_threads(z->s)->strs, m->filename);
	unsigned cpumode = m->misc & PERF_RECORD_MISC_CPUMODE_MASK;
	struct zmap *zm = &z->maps[z->nmaps];
	bool kernel = cpumode == PERF_RECORD_MISC_KERNEL || cpumode == PERF_RECORD_MISC_GUEST_KERNEL;
	uint32_t pid;

	memset(zm, 0, sizeof *zm);
	zm->start = m->start;
	zm->end = m->start + m->len;
	zm->pgoff = m->pgoff;
	zm->time = m->time;
	zm->ev = (uint32_t)(m - session_threads(z->s)->maps);
	if (kernel) {
		zm->identity = true;
		zm->dso = dso_for_kernel_map(&z->dsos, &z->strs, fn);
		if (zm->end <= zm->start)
			zm->end = UINT64_MAX;
		pid = z->kproc;
	} else {
		bool exec = m->mmap2 ? (m->prot & PROT_EXEC) != 0 :
		    !(m->misc & PERF_RECORD_MISC_MMAP_DATA);
		bool anon = is_anon(fn) || (m->flags & MAP_HUGETLB) != 0;
		bool nodso = is_no_dso(fn);

		if ((anon || nodso) && exec) {
			zm->dso = dso_for_jit(&z->dsos, &z->strs, m->pid);
			zm->identity = true;
		} else {
			zm->dso = dso_get(&z->dsos, &z->strs, fn, strlen(fn));
			zm->identity = anon || nodso;
		}
		if (m->build_id_len > 0)
			dso_set_build_id(&z->dsos, zm->dso, m->build_id, m->build_id_len);
		if (zm->end < zm->start)
			zm->end = UINT64_MAX;
		pid = proc_get(z, m->pid);
	}
	GROW(z->procs[pid].maps, z->procs[pid].capmaps, z->procs[pid].nmaps + 1);
	z->procs[pid].maps[z->procs[pid].nmaps++] = (uint32_t)z->nmaps;
	z->nmaps++;
}

struct symbolizer *
symbolizer_new(const struct session *s, const struct sym_opts *o)
{
	const struct features *ft = session_features(s);
	struct symbolizer *z = xcalloc(1, sizeof *z);
	const struct thread_table *t = session_threads(s);
	const char *home;

	z->s = s;
	if (o != NULL)
		z->o = *o;
	if (z->o.buildid_dir != NULL)
		z->buildid_dir = xstrdup(z->o.buildid_dir);
	else if ((home = getenv("HOME")) != NULL) {
		size_t n = strlen(home) + 8;

		z->buildid_dir = xmalloc(n);
		snprintf(z->buildid_dir, n, "%s/.debug", home);
	}
	z->perfmap_dir = xstrdup(z->o.perfmap_dir ? z->o.perfmap_dir : "/tmp");
	z->ctx.s = s;
	z->ctx.o = &z->o;
	z->ctx.buildid_dir = z->buildid_dir;
	z->ctx.perfmap_dir = z->perfmap_dir;
	z->ctx.no_system = z->o.no_system;
	if (z->o.no_system)
		z->o.no_debuginfod = true;
	z->ctx.dbgd = dbgd_new(&z->o);
	z->unwind_arch = ft->arch == NULL || strcmp(ft->arch, "x86_64") == 0;
	dso_table_init(&z->dsos);
	z->kproc = proc_get(z, -1);

	/* Build ids from the header and HEADER_BUILD_ID records. */
	for (size_t i = 0; i < ft->n_build_ids; i++) {
		const struct feat_build_id *b = &ft->build_ids[i];
		unsigned cm = b->misc & PERF_RECORD_MISC_CPUMODE_MASK;
		uint32_t d;

		if (b->filename == NULL)
			continue;
		if (cm == PERF_RECORD_MISC_KERNEL || cm == PERF_RECORD_MISC_GUEST_KERNEL)
			d = dso_for_kernel_map(&z->dsos, &z->strs, b->filename);
		else
			d = dso_get(&z->dsos, &z->strs, b->filename, strlen(b->filename));
		dso_set_build_id(&z->dsos, d, b->id, b->id_len ? b->id_len : 20);
	}

	z->maps = xcalloc(t->nmaps ? t->nmaps : 1, sizeof *z->maps);
	for (size_t i = 0; i < t->nmaps; i++)
		add_map(z, &t->maps[i]);

	/* Processes inherit their parent's address space at fork. */
	for (size_t i = 0; i < t->n; i++) {
		const struct pn_thread *th = &t->v[i];
		uint32_t p;

		if (th->tid != th->pid || th->ppid < 0 || th->ppid == th->pid)
			continue;
		p = proc_get(z, th->pid);
		if (z->procs[p].ppid == -2) {
			z->procs[p].ppid = th->ppid;
			z->procs[p].fork_time = th->start;
		}
	}
	return z;
}

void
symbolizer_free(struct symbolizer *z)
{
	if (z == NULL)
		return;
	for (size_t i = 0; i < z->nprocs; i++) {
		free(z->procs[i].maps);
		free(z->procs[i].iv);
	}
	free(z->procs);
	hmap_free(&z->proc_of);
	free(z->maps);
	free(z->memo);
	hmap_free(&z->memo_tab);
	free(z->whys);
	free(z->stops);
	free(z->defer);
	unwinder_free(z->unw);
	dso_table_free(&z->dsos);
	dbgd_free(z->ctx.dbgd);
	strtab_free(&z->strs);
	free(z->buildid_dir);
	free(z->perfmap_dir);
	free(z);
}

/* ---- address space snapshots ---- */

/* Put map m over the snapshot: it cuts into whatever it overlaps. */
static void
iv_apply(struct proc *p, const struct zmap *maps, uint32_t m)
{
	uint64_t s = maps[m].start, e = maps[m].end;
	size_t lo = 0, hi = p->niv, first, last;
	struct ival left = { 0, 0, 0 }, right = { 0, 0, 0 };
	bool hl = false, hr = false;
	size_t nnew;

	if (e <= s)
		return;
	/* First interval with end > s. */
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (p->iv[mid].end <= s)
			lo = mid + 1;
		else
			hi = mid;
	}
	first = last = lo;
	while (last < p->niv && p->iv[last].start < e)
		last++;
	if (first < last) {
		if (p->iv[first].start < s) {
			left = p->iv[first];
			left.end = s;
			hl = true;
		}
		if (p->iv[last - 1].end > e) {
			right = p->iv[last - 1];
			right.start = e;
			hr = true;
		}
	}
	nnew = (size_t)hl + 1 + (size_t)hr;
	GROW(p->iv, p->capiv, p->niv - (last - first) + nnew);
	memmove(&p->iv[first + nnew], &p->iv[last], (p->niv - last) * sizeof *p->iv);
	p->niv = p->niv - (last - first) + nnew;
	if (hl)
		p->iv[first++] = left;
	p->iv[first].start = s;
	p->iv[first].end = e;
	p->iv[first].map = m;
	first++;
	if (hr)
		p->iv[first] = right;
}

/* Apply to target the maps that src inherited (its ancestors' at fork). */
static void
apply_inherited(struct symbolizer *z, uint32_t target, uint32_t src, int depth)
{
	uint32_t pp;
	uint64_t t;

	if (z->procs[src].ppid == -2 || depth > 32)
		return;
	pp = proc_find(z, z->procs[src].ppid);
	if (pp == UINT32_MAX || pp == src)
		return;
	t = z->procs[src].fork_time;
	apply_inherited(z, target, pp, depth + 1);
	for (size_t i = 0; i < z->procs[pp].nmaps && z->maps[z->procs[pp].maps[i]].time <= t; i++)
		iv_apply(&z->procs[target], z->maps, z->procs[pp].maps[i]);
}

/* Make p's snapshot describe time t. */
static void
proc_snapshot(struct symbolizer *z, uint32_t pid, uint64_t t)
{
	struct proc *p = &z->procs[pid];

	if (!p->snap || t < p->snap_from) {
		p->niv = 0;
		p->applied = 0;
		p->snap = true;
		p->snap_from = 0;
		apply_inherited(z, pid, pid, 0);
	}
	while (p->applied < p->nmaps && z->maps[p->maps[p->applied]].time <= t) {
		iv_apply(p, z->maps, p->maps[p->applied]);
		p->snap_from = z->maps[p->maps[p->applied]].time;
		p->applied++;
	}
}

static uint32_t
proc_lookup(struct symbolizer *z, int32_t pid, uint64_t t, uint64_t ip)
{
	uint32_t id = pid == -1 ? z->kproc : proc_find(z, pid);
	const struct proc *p;
	size_t lo = 0, hi;

	if (id == UINT32_MAX)
		return UINT32_MAX;
	proc_snapshot(z, id, t);
	p = &z->procs[id];
	hi = p->niv;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (p->iv[mid].end <= ip)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (lo < p->niv && p->iv[lo].start <= ip && ip < p->iv[lo].end)
		return p->iv[lo].map;
	return UINT32_MAX;
}

/* ---- symbols ---- */

static void
count_why(struct symbolizer *z, uint32_t dso, unsigned why)
{
	if (why == SYM_WHY_OK)
		return;
	if (dso == DSO_NONE) {
		z->nomap[why]++;
		return;
	}
	if ((size_t)(dso + 1) * SYM_WHY_COUNT > z->capwhys) {
		size_t old = z->capwhys, n = (size_t)(dso + 64) * SYM_WHY_COUNT;

		z->whys = xreallocarray(z->whys, n, sizeof *z->whys);
		memset(z->whys + old, 0, (n - old) * sizeof *z->whys);
		z->capwhys = n;
	}
	z->whys[(size_t)dso * SYM_WHY_COUNT + why]++;
}

/* What dso_lookup() seeks in the memo (memo_eq's ctx). */
struct memo_want {
	const struct memo	*v;
	uint64_t		 rel;
	uint32_t		 dso;
};

/* hmap_eq_fn: is memo entry id the one w seeks? */
static inline bool
memo_eq(const void *ctx, uint32_t id)
{
	const struct memo_want *w = ctx;

	return w->v[id].dso == w->dso && w->v[id].rel == w->rel;
}

static void
dso_lookup(struct symbolizer *z, uint32_t dso, uint64_t rel, struct frame *f)
{
	uint64_t hash = rel ^ (uint64_t)dso << 40;
	struct memo_want w = { z->memo, rel, dso };
	uint32_t i = hmap_find(&z->memo_tab, hash, memo_eq, &w);
	struct memo *m;

	if (i == HMAP_NONE) {
		uint64_t start = 0;
		uint32_t sym = dso_find_sym(&z->dsos, &z->strs, &z->ctx, dso, rel, &start);

		GROW(z->memo, z->mcap, z->mn + 1);
		i = (uint32_t)z->mn++;
		m = &z->memo[i];
		m->dso = dso;
		m->rel = rel;
		m->sym = sym;
		m->symstart = start;
		hmap_add(&z->memo_tab, hash, i);
	}
	m = &z->memo[i];
	f->sym = m->sym;
	if (m->sym != SYM_NONE) {
		f->symoff = rel - m->symstart;
		f->why = SYM_WHY_OK;
	} else {
		f->why = (uint8_t)dso_why(&z->dsos, dso);
	}
}

int
symbolizer_resolve_self(struct symbolizer *z, const struct rec *r, struct sample *smp,
    struct frame *out)
{
	bool has_tid;

	if (r->type != PF_REC_SAMPLE ||
	    record_sample_head(session_attrs(z->s), r, record_attr(session_attrs(z->s), r), smp) < 0)
		return -1;
	has_tid = (smp->sample_type & PERF_SAMPLE_TID) != 0;
	symbolizer_resolve(z, has_tid ? (int32_t)smp->pid : -1, has_tid ? (int32_t)smp->tid : -1,
	    smp->time, r->misc & PERF_RECORD_MISC_CPUMODE_MASK, smp->ip, out);
	return 0;
}

void
symbolizer_resolve(struct symbolizer *z, int32_t pid, int32_t tid, uint64_t time,
    uint8_t cpumode, uint64_t ip, struct frame *out)
{
	uint32_t m = UINT32_MAX;

	(void)tid;
	memset(out, 0, sizeof *out);
	out->ip = ip;
	out->rel = ip;
	out->dso = DSO_NONE;
	out->sym = SYM_NONE;
	out->cpumode = cpumode;
	out->why = SYM_WHY_NO_MAP;
	out->kernel = cpumode == PERF_RECORD_MISC_KERNEL || cpumode == PERF_RECORD_MISC_GUEST_KERNEL;
	if (out->kernel)
		m = proc_lookup(z, -1, time, ip);
	else if (cpumode == PERF_RECORD_MISC_USER || cpumode == PERF_RECORD_MISC_GUEST_USER)
		m = pid == -1 ? UINT32_MAX : proc_lookup(z, pid, time, ip);
	if (m != UINT32_MAX) {
		const struct zmap *zm = &z->maps[m];

		out->dso = zm->dso;
		out->rel = zm->identity ? ip : ip - zm->start + zm->pgoff;
		dso_lookup(z, zm->dso, out->rel, out);
		/*
		 * A module's symbols (kallsyms) are at kernel addresses, but
		 * perf's map of a module is not the identity: an address it
		 * has no symbol for is keyed and printed module-relative.
		 */
		if (out->sym == SYM_NONE && out->kernel && zm->dso != DSO_NONE &&
		    z->dsos.v[zm->dso].kind == DSO_MODULE && ip >= zm->start)
			out->rel = ip - zm->start + zm->pgoff;
	}
	count_why(z, out->dso, out->why);
}

int
symbolizer_map_id(struct symbolizer *z, int32_t pid, uint64_t time, uint8_t cpumode,
    uint64_t addr, struct sym_map_id *out)
{
	uint32_t m = UINT32_MAX;
	const struct map_ev *e;

	memset(out, 0, sizeof *out);
	if (cpumode == PERF_RECORD_MISC_KERNEL || cpumode == PERF_RECORD_MISC_GUEST_KERNEL)
		m = proc_lookup(z, -1, time, addr);
	else if ((cpumode == PERF_RECORD_MISC_USER || cpumode == PERF_RECORD_MISC_GUEST_USER) &&
	    pid != -1)
		m = proc_lookup(z, pid, time, addr);
	if (m == UINT32_MAX)
		return -1;
	e = &session_threads(z->s)->maps[z->maps[m].ev];
	out->maj = e->maj;
	out->min = e->min;
	out->ino = e->ino;
	out->ino_generation = e->ino_generation;
	out->prot = e->prot;
	out->flags = e->flags;
	return 0;
}

/* ---- DWARF unwinding ---- */

struct unw_arg {
	struct symbolizer	*z;
	int32_t			 pid;
	uint64_t		 time;
};

/* The unwinder's view of a map: its range and the DSO's runtime image. */
static int
unw_find_map(void *arg, uint64_t addr, struct unwind_map *out)
{
	struct unw_arg *a = arg;
	struct symbolizer *z = a->z;
	uint32_t m = proc_lookup(z, a->pid, a->time, addr);
	const struct zmap *zm;
	const struct dso_ent *d;

	if (m == UINT32_MAX)
		return -1;
	zm = &z->maps[m];
	out->start = zm->start;
	out->end = zm->end;
	out->pgoff = zm->pgoff;
	out->key = zm->dso;
	out->path = NULL;
	if (zm->identity || zm->dso == DSO_NONE)
		return 0;
	if (!z->dsos.v[zm->dso].loaded) {
		uint64_t start;

		dso_find_sym(&z->dsos, &z->strs, &z->ctx, zm->dso, 0, &start);
	}
	d = &z->dsos.v[zm->dso];
	out->path = d->runfile ? d->runfile : d->symfile;
	return 0;
}

/*
 * The address space unw_find_map describes for pid at time t: the process
 * and how many of its own maps are in effect then (what it inherited at
 * fork is fixed), so that the unwinder's cache is never used across a map
 * change (symbolize/unwind.h).
 */
static const struct unwind_space *
unw_space(struct symbolizer *z, int32_t pid, uint64_t t, struct unwind_space *out)
{
	uint32_t id = pid == -1 ? z->kproc : proc_find(z, pid);

	out->proc = id;
	out->epoch = 0;
	if (id != UINT32_MAX) {
		proc_snapshot(z, id, t);
		out->epoch = z->procs[id].applied;
	}
	return out;
}

static void
count_stop(struct symbolizer *z, uint32_t dso, enum unwind_stop st)
{
	if (dso == DSO_NONE) {
		z->nodso_stops[st]++;
		return;
	}
	if ((size_t)dso >= z->capstops) {
		size_t ncap = z->capstops ? z->capstops : 64;

		while (ncap <= dso)
			ncap *= 2;
		z->stops = xreallocarray(z->stops, ncap, UNWIND_STOP_COUNT * sizeof *z->stops);
		memset(z->stops + z->capstops * UNWIND_STOP_COUNT, 0,
		    (ncap - z->capstops) * UNWIND_STOP_COUNT * sizeof *z->stops);
		z->capstops = ncap;
	}
	z->stops[(size_t)dso * UNWIND_STOP_COUNT + st]++;
}

/* Did the sample's event record a user stack to unwind? */
static bool
has_user_stack(const struct sample *smp)
{
	return (smp->sample_type & PERF_SAMPLE_REGS_USER) &&
	    (smp->sample_type & PERF_SAMPLE_STACK_USER) && smp->uregs != NULL &&
	    smp->stack != NULL && smp->stack_dyn_size > 0;
}

/* Append the unwound user stack of smp to out[k..n) as (ip, cpumode). */
static size_t
unwind_user(struct symbolizer *z, const struct sample *smp, struct chain_ip *out, size_t k,
    size_t n, unsigned max_stack)
{
	const struct attr_table *at = session_attrs(z->s);
	struct unw_arg a = { z, (int32_t)smp->pid, smp->time };
	struct unwind_space space;
	uint64_t ips[256];
	size_t want = n - k, got;
	enum unwind_stop st;

	if (max_stack != 0)
		want = k >= max_stack ? 0 : (max_stack - k < want ? max_stack - k : want);
	if (want > 256)
		want = 256;
	if (want == 0 || smp->attr < 0 || (size_t)smp->attr >= at->n)
		return k;
	if (z->unw == NULL)
		z->unw = unwinder_new();
	got = unwinder_unwind(z->unw, smp, at->v[smp->attr].attr.sample_regs_user,
	    unw_space(z, a.pid, a.time, &space), unw_find_map, &a, ips, want, &st);
	for (size_t i = 0; i < got && k < n; i++) {
		out[k].ip = ips[i];
		out[k].unwound = true;
		out[k++].cpumode = PERF_RECORD_MISC_USER;
	}
	if (st != UNWIND_STOP_END && st != UNWIND_STOP_MAX) {
		uint32_t m = got ? proc_lookup(z, a.pid, a.time, ips[got - 1]) : UINT32_MAX;

		count_stop(z, m == UINT32_MAX ? DSO_NONE : z->maps[m].dso, st);
	}
	return k;
}

size_t
symbolizer_unwind_counts(const struct symbolizer *z, struct sym_unwind_count *out, size_t n)
{
	size_t k = 0;

	for (size_t d = 0; d <= z->capstops; d++) {
		const uint64_t *c = d < z->capstops ? z->stops + d * UNWIND_STOP_COUNT : z->nodso_stops;
		bool any = false;

		for (unsigned w = 0; w < UNWIND_STOP_COUNT; w++)
			any |= c[w] != 0;
		if (!any)
			continue;
		if (k < n) {
			out[k].dso = d < z->capstops ? (uint32_t)d : DSO_NONE;
			memcpy(out[k].count, c, sizeof out[k].count);
		}
		k++;
	}
	return k;
}

/* ---- deferred user callchains ---- */

struct defer_ent {
	int32_t		tid;
	uint64_t	time;
	size_t		pos;	/* in the index: keeps time order among equals */
	uint64_t	loc;
};

static int
defer_cmp(const void *a, const void *b)
{
	const struct defer_ent *x = a, *y = b;

	if (x->tid != y->tid)
		return x->tid < y->tid ? -1 : 1;
	return x->pos < y->pos ? -1 : x->pos > y->pos;
}

/* The deferred records of the recording, sorted by thread then time. */
static void
defer_make(struct symbolizer *z)
{
	const struct rec_index *ix = session_index(z->s);
	size_t cap = 0;

	z->defer_made = true;
	if (session_counts(z->s)->by_type[PF_REC_CALLCHAIN_DEFERRED] == 0)
		return;
	for (size_t i = 0; i < ix->n; i++) {
		const struct rec_ent *e = index_ent(ix, i);
		int32_t tid;

		if (ent_type(e) != PF_REC_CALLCHAIN_DEFERRED)
			continue;
		/* the record's body or trailer says (kept by the index or read again) */
		if ((tid = session_ent_who(z->s, i).tid) < 0)
			continue;
		GROW(z->defer, cap, z->ndefer + 1);
		z->defer[z->ndefer++] = (struct defer_ent){ tid, e->time, i, ent_loc(e) };
	}
	qsort(z->defer, z->ndefer, sizeof *z->defer, defer_cmp);
}

/*
 * perf holds a sample whose callchain waits for its user part until the
 * next CALLCHAIN_DEFERRED of its thread, and stitches that record's chain
 * in when the cookies agree (else delivers the sample as it is).  That
 * record for a sample of tid at time, if its cookie is cookie.
 */
static bool
defer_find(struct symbolizer *z, int32_t tid, uint64_t time, uint64_t cookie,
    struct rec_deferred *out)
{
	size_t lo = 0, hi;
	struct rec r;

	if (!z->defer_made)
		defer_make(z);
	hi = z->ndefer;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		const struct defer_ent *e = &z->defer[mid];

		if (e->tid < tid || (e->tid == tid && e->time < time))
			lo = mid + 1;
		else
			hi = mid;
	}
	/*
	 * The first one after the sample is perf's; one of the sample's own
	 * time may lie before or after it in perf's order: any of those with
	 * the sample's cookie, else the first one later than the sample.
	 */
	for (; lo < z->ndefer && z->defer[lo].tid == tid; lo++) {
		if (session_rec(z->s, z->defer[lo].loc, &r) == 0 &&
		    record_callchain_deferred(&r, out) == 0 && out->cookie == cookie)
			return true;
		if (z->defer[lo].time > time)
			break;
	}
	return false;
}

/* The deferred user part of a chain after its kernel part: what perf
 * stitches in, else nothing (the cookie after the marker is no frame). */
static enum step
chain_deferred(struct symbolizer *z, const struct sample *smp, uint64_t i,
    struct chain_walk *w, struct chain_ip *out, size_t n, size_t *k)
{
	struct rec_deferred d;
	enum step st = STEP_END;

	if (i + 1 >= smp->callchain_nr ||
	    !defer_find(z, (int32_t)smp->tid, smp->time, sample_callchain_ip(smp, i + 1), &d))
		return STEP_END;
	for (uint64_t j = 0; j < d.nr && *k < n; j++)
		if ((st = chain_step(w, record_deferred_ip(&d, j), out, k)) != STEP_NEXT)
			break;
	return st == STEP_NEXT ? STEP_END : st;
}

bool
symbolizer_lbr_stack(const struct symbolizer *z, const struct sample *smp, unsigned max_stack)
{
	return chain_lbr_user(session_attrs(z->s), smp, max_stack) != UINT64_MAX;
}

size_t
symbolizer_chain_ips(struct symbolizer *z, const struct sample *smp, uint16_t misc,
    struct chain_ip *out, size_t n, unsigned max_stack)
{
	bool dwarf = has_user_stack(smp) && !z->o.no_unwind && z->unwind_arch;
	struct chain_walk w = { PERF_RECORD_MISC_USER, dwarf, max_stack };
	enum step st = STEP_NEXT;
	size_t k = chain_lbr(session_attrs(z->s), smp, out, n, max_stack);

	if (k != SIZE_MAX)
		return k;
	k = 0;

	for (uint64_t i = 0; smp->callchain != NULL && i < smp->callchain_nr && k < n; i++) {
		uint64_t ip = sample_callchain_ip(smp, i);

		if (ip == PF_CONTEXT_USER_DEFERRED)
			st = chain_deferred(z, smp, i, &w, out, n, &k);
		else
			st = chain_step(&w, ip, out, &k);
		if (st != STEP_NEXT)
			break;
	}
	if (st == STEP_VOID)
		return 0;
	if (st == STEP_FULL)
		return k;
	if (!dwarf || k >= n)
		return k;
	if (k == 0 && (misc & PERF_RECORD_MISC_CPUMODE_MASK) == PERF_RECORD_MISC_KERNEL) {
		out[k].ip = smp->ip;
		out[k].unwound = false;
		out[k++].cpumode = PERF_RECORD_MISC_KERNEL;
	}
	return unwind_user(z, smp, out, k, n, max_stack);
}

bool
symbolizer_has_chain(const struct sample *smp)
{
	return (smp->callchain != NULL && smp->callchain_nr > 0) || has_user_stack(smp);
}

size_t
symbolizer_inlines(struct symbolizer *z, const struct frame *f, struct frame *out, size_t n)
{
	const struct dso_inl *l;
	size_t k;

	if (f->dso == DSO_NONE || f->sym == SYM_NONE || f->kernel)
		return 0;
	k = dso_inlines(&z->dsos, &z->strs, &z->ctx, f->dso, f->rel, f->sym, &l);
	for (size_t i = 0; i < k && i < n; i++) {
		out[i] = *f;
		out[i].sym = l[i].sym;
		out[i].src = l[i].src + 1;
	}
	return k;
}

bool
symbolizer_sym_inlined(const struct symbolizer *z, uint32_t sym)
{
	return dso_sym_inlined(&z->dsos, sym);
}

bool
symbolizer_unwinds(const struct symbolizer *z)
{
	return !z->o.no_unwind && z->unwind_arch;
}

size_t
symbolizer_callchain(struct symbolizer *z, const struct sample *smp, uint16_t misc,
    struct frame *out, size_t n, unsigned max_stack)
{
	struct chain_ip ips[512];
	struct frame f, lv[64];
	size_t k, m = 0;

	if (n == 0)
		return 0;
	if (!symbolizer_has_chain(smp)) {
		symbolizer_resolve(z, (int32_t)smp->pid, (int32_t)smp->tid, smp->time,
		    misc & PERF_RECORD_MISC_CPUMODE_MASK, smp->ip, &out[0]);
		return 1;
	}
	k = symbolizer_chain_ips(z, smp, misc, ips, n < 512 ? n : 512, max_stack);
	for (size_t i = 0; i < k && m < n; i++) {
		size_t nl;

		symbolizer_resolve(z, (int32_t)smp->pid, (int32_t)smp->tid, smp->time,
		    ips[i].cpumode, ips[i].ip, &f);
		nl = ips[i].unwound ? symbolizer_inlines(z, &f, lv, sizeof lv / sizeof *lv) : 0;
		if (nl == 0)
			out[m++] = f;
		for (size_t j = 0; j < nl && j < sizeof lv / sizeof *lv && m < n; j++)
			out[m++] = lv[j];
	}
	return m;
}

const char *
symbolizer_dso_long(const struct symbolizer *z, uint32_t dso)
{
	return dso == DSO_NONE ? "[unknown]" : dso_long_name(&z->dsos, &z->strs, dso);
}

const char *
symbolizer_dso_short(const struct symbolizer *z, uint32_t dso)
{
	return dso == DSO_NONE ? "[unknown]" : dso_short_name(&z->dsos, &z->strs, dso);
}

const char *
symbolizer_dso_source(const struct symbolizer *z, uint32_t dso)
{
	return dso_source_name(&z->dsos, dso);
}

void
symbolizer_dso_files(struct symbolizer *z, uint32_t dso, struct sym_dso_files *out)
{
	const struct dso_ent *d;
	struct srcline_h *h;

	memset(out, 0, sizeof *out);
	if (dso >= z->dsos.n)
		return;
	(void)dso_image(&z->dsos, &z->strs, &z->ctx, dso);	/* loads it */
	h = dso_lines(&z->dsos, &z->strs, &z->ctx, dso);
	d = &z->dsos.v[dso];
	out->symfile = d->linefile != NULL ? d->linefile : d->symfile;
	out->runfile = d->runfile;
	out->altfile = h != NULL ? srcline_alt_path(h) : NULL;
	out->kernel = d->kind == DSO_KERNEL || d->kind == DSO_MODULE;
	out->jit = d->kind == DSO_JIT;
	out->vdso = d->kind == DSO_VDSO;
}

size_t
symbolizer_dso_debuginfod(const struct symbolizer *z, uint32_t dso, struct sym_dbgd_file out[2])
{
	const struct dso_ent *d;
	const char *files[2];
	size_t k = 0;

	if (dso >= z->dsos.n || z->ctx.dbgd == NULL)
		return 0;
	d = &z->dsos.v[dso];
	files[0] = d->symfile;
	files[1] = d->runfile;
	if (d->runfile != NULL && d->symfile != NULL && strcmp(d->runfile, d->symfile) == 0)
		files[1] = NULL;
	for (int i = 0; i < 2; i++) {
		enum dbgd_kind kind;
		const char *url = dbgd_origin(z->ctx.dbgd, files[i], &kind);

		if (url == NULL)
			continue;
		out[k].kind = dbgd_kind_name(kind);
		out[k].path = files[i];
		out[k].url = url;
		k++;
	}
	return k;
}

void
symbolizer_no_debuginfod(struct symbolizer *z)
{
	dbgd_stop_asking(z->ctx.dbgd);
}

void
symbolizer_adopt_debuginfod(struct symbolizer *z, const struct symbolizer *from)
{
	dbgd_adopt(z->ctx.dbgd, from->ctx.dbgd);
}

size_t
symbolizer_ndsos(const struct symbolizer *z)
{
	return z->dsos.n;
}

int
symbolizer_sym_ident(const struct symbolizer *z, uint32_t sym, uint32_t *dso, uint32_t *index,
    const char **inl_name)
{
	return dso_sym_ident(&z->dsos, &z->strs, sym, dso, index, inl_name);
}

uint32_t
symbolizer_sym_by_ident(struct symbolizer *z, uint32_t dso, uint32_t index, const char *inl_name)
{
	return dso_sym_by_ident(&z->dsos, &z->strs, &z->ctx, dso, index, inl_name);
}

int
symbolizer_sym_range(const struct symbolizer *z, uint32_t sym, uint32_t *dso, uint64_t *start,
    uint64_t *end)
{
	if (sym == SYM_NONE)
		return -1;
	return dso_sym_range(&z->dsos, sym, dso, start, end);
}

size_t
symbolizer_dso_build_id(const struct symbolizer *z, uint32_t dso, uint8_t out[20])
{
	if (dso >= z->dsos.n)
		return 0;
	memcpy(out, z->dsos.v[dso].bid, z->dsos.v[dso].bid_len);
	return z->dsos.v[dso].bid_len;
}

uint32_t
symbolizer_sym_at(struct symbolizer *z, uint32_t dso, uint64_t rel)
{
	struct frame f;

	if (dso == DSO_NONE || dso >= symbolizer_ndsos(z))
		return SYM_NONE;
	memset(&f, 0, sizeof f);
	dso_lookup(z, dso, rel, &f);
	return f.sym;
}

void
symbolizer_dso_state(struct symbolizer *z, uint32_t dso, struct sym_dso_state *out)
{
	memset(out, 0, sizeof *out);
	if (dso == DSO_NONE || dso >= z->dsos.n)
		return;
	(void)symbolizer_sym_at(z, dso, 0);	/* loads it */
	dso_state(&z->dsos, dso, out);
}

bool
symbolizer_sym_object(const struct symbolizer *z, uint32_t sym)
{
	return dso_sym_object(&z->dsos, sym);
}

const char *
symbolizer_dso_image(struct symbolizer *z, uint32_t dso)
{
	return dso_image(&z->dsos, &z->strs, &z->ctx, dso);
}

const char *
symbolizer_sym_name(const struct symbolizer *z, uint32_t sym)
{
	return sym == SYM_NONE ? "[unknown]" : dso_sym_name(&z->dsos, &z->strs, sym);
}

static char
level_char(uint8_t cpumode)
{
	switch (cpumode) {
	case PERF_RECORD_MISC_KERNEL:
		return 'k';
	case PERF_RECORD_MISC_USER:
		return '.';
	case PERF_RECORD_MISC_GUEST_KERNEL:
		return 'g';
	case PERF_RECORD_MISC_GUEST_USER:
		return 'u';
	default:
		return 'H';
	}
}

const char *
symbolizer_label_name(const char *label)
{
	return strlen(label) > 4 && label[0] == '[' && label[2] == ']' && label[3] == ' ' ?
	    label + 4 : label;
}

const char *
symbolizer_sym_label(const struct symbolizer *z, const struct frame *f, char *buf, size_t n)
{
	char lv = level_char(f->cpumode);

	if (f->sym != SYM_NONE)
		snprintf(buf, n, "[%c] %s%s", lv, symbolizer_sym_name(z, f->sym),
		    dso_sym_inlined(&z->dsos, f->sym) ? " (inlined)" : "");
	else
		snprintf(buf, n, "[%c] %#.16" PRIx64, lv, f->rel);
	return buf;
}

const char *
symbolizer_srcline(struct symbolizer *z, const struct frame *f)
{
	if (f->dso == DSO_NONE || z->o.no_srcline)
		return NULL;
	if (f->src != 0)
		return strtab_get(&z->strs, f->src - 1);
	return dso_srcline(&z->dsos, &z->strs, &z->ctx, f->dso, f->rel);
}

int
symbolizer_source(struct symbolizer *z, const struct frame *f, const char **path, int *line)
{
	if (f->dso == DSO_NONE || z->o.no_srcline)
		return -1;
	return dso_source(&z->dsos, &z->strs, &z->ctx, f->dso, f->rel, path, line);
}

size_t
symbolizer_refusals(const struct symbolizer *z, struct sym_refusal *out, size_t n,
    size_t *dropped)
{
	const struct dso_table *t = &z->dsos;

	for (size_t i = 0; i < n && i < t->nrefusals; i++) {
		out[i].path = t->refusals[i].path;
		out[i].why = t->refusals[i].why;
		out[i].dso = t->refusals[i].dso;
		out[i].cut = t->refusals[i].cut;
	}
	if (dropped != NULL)
		*dropped = t->refusals_dropped;
	return t->nrefusals;
}

const char *
symbolizer_dso_refusal(const struct symbolizer *z, uint32_t dso, const char **path)
{
	const struct dso_refusal *r = dso_refusal(&z->dsos, dso);

	if (r == NULL)
		return NULL;
	if (path != NULL)
		*path = r->path;
	return r->why;
}

void
symbolizer_adopt_refusals(struct symbolizer *z, const struct symbolizer *from)
{
	const struct dso_table *f = &from->dsos;

	for (size_t i = 0; i < f->nrefusals; i++)
		dso_add_refusal(&z->dsos, f->refusals[i].dso, f->refusals[i].path,
		    f->refusals[i].why, f->refusals[i].cut);
	z->dsos.refusals_dropped += f->refusals_dropped;
}

size_t
symbolizer_why_counts(const struct symbolizer *z, struct sym_why_count *out, size_t n)
{
	size_t k = 0, ndso = z->capwhys / SYM_WHY_COUNT;
	bool any = false;

	for (unsigned w = 1; w < SYM_WHY_COUNT; w++)
		any |= z->nomap[w] != 0;
	if (any) {
		if (k < n) {
			out[k].dso = DSO_NONE;
			memcpy(out[k].count, z->nomap, sizeof z->nomap);
		}
		k++;
	}
	for (size_t d = 0; d < ndso; d++) {
		const uint64_t *c = z->whys + d * SYM_WHY_COUNT;
		bool fail = false;

		for (unsigned w = 1; w < SYM_WHY_COUNT; w++)
			fail |= c[w] != 0;
		if (!fail)
			continue;
		if (k < n) {
			out[k].dso = (uint32_t)d;
			memcpy(out[k].count, c, SYM_WHY_COUNT * sizeof *c);
		}
		k++;
	}
	return k;
}

const char *
symbolizer_why_text(const struct symbolizer *z, uint32_t dso, unsigned w, char *buf, size_t n)
{
	const char *why, *path = NULL;

	if (w == SYM_WHY_REFUSED && (why = symbolizer_dso_refusal(z, dso, &path)) != NULL)
		snprintf(buf, n, "refused: %s: %s", path, why);
	else
		snprintf(buf, n, "%s", sym_why_text((enum sym_why)w));
	return buf;
}
