/*
 * hist_cache.c: a hist as a flat payload and back (hist_cache.h).
 *
 * Layout (8-aligned, the machine's byte order; the file around it is
 * core/session_cache.c's, which checks its key and checksum): struct
 * hc_head, the string table (padded to 8), the events (struct hist_event),
 * the function nodes (struct hc_node), the entries (struct hc_ent),
 * the failure counts (struct hist_why), the DSOs' states (struct hc_dso).
 * Strings are referred to by offset in the table (+ 1 where 0 is "none").
 */
#include "config.h"

#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "core/session.h"
#include "symbolize/chainsrc.h"
#include "symbolize/hist_cache.h"
#include "symbolize/hist_impl.h"

#define HC_MAGIC	"PNHIST2\n"
#define HC_KEYS	(HIST_KEEP(HIST_KEY_COMM) | HIST_KEEP(HIST_KEY_PID) | HIST_KEEP(HIST_KEY_TID) | \
	HIST_KEEP(HIST_KEY_DSO) | HIST_KEEP(HIST_KEY_SYM) | HIST_KEEP(HIST_KEY_CPU))

struct hc_head {
	char		magic[8];
	uint32_t	sz_ent, sz_ev, sz_why, sz_node, sz_dso;
	uint32_t	nkeys;
	uint32_t	keys[HIST_MAX_KEYS];
	int32_t		event;
	uint32_t	max_stack;
	uint32_t	flags;
	uint32_t	ndsos_all;	/* the symbolizer's DSOs (the recording's) */
	uint64_t	nstr, nev, nnode, nent, nwhy, ndso;
};

/* A function node: its frame, the symbol by identity (index NONE32: none). */
struct hc_node {
	uint64_t	ip, rel, symoff;
	uint32_t	dso, index, inl;	/* inl: string + 1 of an inlined symbol's name */
	uint32_t	label, fold, owner;
	uint8_t		cpumode, why, kernel, dso_mixed;
	uint32_t	pad;
};

/*
 * An entry: the fields the kept shapes' keys and counts use (the others
 * are 0 in such a hist: hist_cache_able's keys, no memory or branch mode).
 */
struct hc_ent {
	uint32_t	event, comm;
	int32_t		pid, tid;
	uint32_t	cpu, dso, node;
	uint32_t	label_comm;
	int32_t		label_tid;
	uint32_t	label_sym, label_phys, label_dcl;
	uint64_t	period, samples, acc_period, acc_samples, latency, acc_latency;
};

/* A file's identity. */
struct hc_file {
	uint64_t	size, mtime_s, mtime_ns, ino;
};

/* A DSO the rows name, as its symbols were loaded. */
struct hc_dso {
	uint32_t	dso;
	uint32_t	source, symfile, runfile;	/* string + 1, 0: none */
	uint32_t	why, pad;
	uint64_t	nsyms, digest;
	struct hc_file	sym, run;
};

_Static_assert(sizeof(struct hc_head) % 8 == 0 && sizeof(struct hc_node) % 8 == 0 &&
    sizeof(struct hc_ent) % 8 == 0 &&
    sizeof(struct hc_dso) % 8 == 0 && sizeof(struct hist_entry) % 8 == 0 &&
    sizeof(struct hist_event) % 8 == 0 && sizeof(struct hist_why) % 8 == 0,
    "the payload's arrays stay 8-aligned");

enum {
	HC_CHILDREN = 1,
	HC_ROOT_FIRST = 2,
	HC_CALLER = 4,
	HC_LATENCY = 8,
	HC_ROWS = 16,		/* record_self with paths: the browser's hist (struct hc_rows) */
	HC_BRANCH_SHIFT = 8,
};

/*
 * After the DSO states, with HC_ROWS: what the browser's hist keeps beyond
 * the entries (hist_impl.h struct hist_path_state, struct hist_recount):
 * the call-path tree (struct hc_cp, parents first), its rows (struct
 * cp_row), each row's credited entries (rowent_off[nrow + 1], rowent,
 * and with lab set their labels, rowlab),
 * then per index position the sample's row (sample_row) and its period
 * (32 or 64 bits); each array padded to 8.
 */
#define HC_ROWS_MAGIC	"PNROWS3\n"

struct hc_rows {
	char		magic[8];
	uint64_t	ncp, nrow, nrowent, npos, pos_lo, pos_hi;
	uint32_t	p64, lab;
};

struct hc_cp {
	uint32_t	parent, func;
};

_Static_assert(sizeof(struct hc_rows) % 8 == 0 && sizeof(struct hc_cp) == 8 &&
    sizeof(struct cp_row) % 8 == 0, "the rows' arrays stay 8-aligned");

static unsigned
opt_flags(const struct hist_opts *o)
{
	return (o->children ? HC_CHILDREN : 0) | (o->chain_root_first ? HC_ROOT_FIRST : 0) |
	    (o->caller_order ? HC_CALLER : 0) | (o->by_latency ? HC_LATENCY : 0) |
	    (o->record_self && o->paths ? HC_ROWS : 0) | (unsigned)o->branch << HC_BRANCH_SHIFT;
}

bool
hist_cache_able(const struct session *s, const struct hist_opts *o)
{
	unsigned mask = 0;

	if (s == NULL || o->filter != NULL || o->offcpu != NULL || o->parallel != NULL ||
	    o->callgraph || o->record_self != o->paths || o->paths_address || o->branch_history ||
	    o->mem_mode || o->branch == HIST_BRANCH_ON || o->nkeys > HIST_MAX_KEYS ||
	    (o->branch == HIST_BRANCH_AUTO && session_features(s)->sec[PF_FEAT_BRANCH_STACK].present) ||
	    chainsrc_present(s))
		return false;
	for (unsigned i = 0; i < o->nkeys; i++)
		mask |= HIST_KEEP(o->keys[i]);
	return (mask & ~(unsigned)HC_KEYS) == 0;
}

static uint64_t
mix_str(uint64_t h, const char *str)
{
	return hash_mix64(h * 31 + (str != NULL ? hash_bytes(str, strlen(str)) + 1 : 0));
}

uint64_t
hist_cache_sub(const struct hist_opts *o, const struct sym_opts *so)
{
	static const enum hist_key dflt[] = { HIST_KEY_COMM, HIST_KEY_DSO, HIST_KEY_SYM };
	const enum hist_key *keys = o->nkeys ? o->keys : dflt;
	unsigned nkeys = o->nkeys ? o->nkeys : 3;	/* hist_new's default */
	uint64_t h = hash_bytes(HC_MAGIC, 8);
	const char *urls;

	h = hash_mix64(h ^ opt_flags(o));
	h = hash_mix64(h ^ ((uint64_t)(uint32_t)o->event << 32 | o->max_stack));
	h = hash_mix64(h ^ nkeys);
	for (unsigned i = 0; i < nkeys && i < HIST_MAX_KEYS; i++)
		h = hash_mix64(h * 31 + keys[i]);
	h = mix_str(h, so->buildid_dir);
	h = mix_str(h, so->kallsyms);
	h = mix_str(h, so->perfmap_dir);
	h = mix_str(h, so->symfs);
	h = hash_mix64(h ^ ((uint64_t)so->no_demangle | (uint64_t)so->no_srcline << 1 |
	    (uint64_t)so->no_unwind << 2 | (uint64_t)so->no_path_cache << 3 |
	    (uint64_t)so->no_debuginfod << 4));
	h = mix_str(h, getenv("HOME"));
	urls = so->no_debuginfod ? NULL : getenv("DEBUGINFOD_URLS");
	/* blank: no server, as unset (dbgd_new) */
	return mix_str(h, urls != NULL && strspn(urls, " \t\n") != strlen(urls) ? urls : NULL);
}

/* ---- packing ---- */

struct sbuf {
	char	*b;
	size_t	 n, cap;
};

/* Append str (NUL included): its offset + 1; 0 for NULL. */
static uint32_t
sb_add(struct sbuf *sb, const char *str)
{
	size_t k, at = sb->n;

	if (str == NULL)
		return 0;
	k = strlen(str) + 1;
	GROW(sb->b, sb->cap, sb->n + k);
	memcpy(sb->b + sb->n, str, k);
	sb->n += k;
	return (uint32_t)at + 1;
}

static void
file_id(const char *path, struct hc_file *f)
{
	struct stat st;

	memset(f, 0, sizeof *f);
	if (path == NULL || stat(path, &st) < 0)
		return;
	f->size = (uint64_t)st.st_size;
	f->mtime_s = (uint64_t)st.st_mtim.tv_sec;
	f->mtime_ns = (uint64_t)st.st_mtim.tv_nsec;
	f->ino = (uint64_t)st.st_ino;
}

static void
dso_record(struct symbolizer *z, uint32_t dso, struct sbuf *sb, struct hc_dso *d)
{
	struct sym_dso_state st;

	symbolizer_dso_state(z, dso, &st);
	memset(d, 0, sizeof *d);
	d->dso = dso;
	d->source = sb_add(sb, st.source);
	d->symfile = sb_add(sb, st.symfile);
	d->runfile = sb_add(sb, st.runfile);
	d->why = st.why;
	d->nsyms = st.nsyms;
	d->digest = st.digest;
	file_id(st.symfile, &d->sym);
	file_id(st.runfile, &d->run);
}

/* The DSOs the rows name (mark: one byte per DSO of the symbolizer). */
static void
mark_dsos(const struct hist *h, uint8_t *mark, size_t nd)
{
	for (size_t i = 0; i < h->nnode; i++)
		if (h->node[i].f.dso < nd)
			mark[h->node[i].f.dso] = 1;
	for (size_t i = 0; i < h->nent; i++)
		if (h->ent[i].dso < nd)
			mark[h->ent[i].dso] = 1;
	for (size_t i = 0; i < h->nwhy; i++)
		if (h->why[i].dso < nd)
			mark[h->why[i].dso] = 1;
}

static void
pack_node(struct hist *h, const struct hist_node *n, struct sbuf *sb, struct hc_node *o)
{
	uint32_t dso, index;
	const char *inl;

	memset(o, 0, sizeof *o);
	o->ip = n->f.ip;
	o->rel = n->f.rel;
	o->symoff = n->f.symoff;
	o->dso = n->f.dso;
	o->index = NONE32;
	if (n->f.sym != SYM_NONE && symbolizer_sym_ident(h->z, n->f.sym, &dso, &index, &inl) == 0 &&
	    dso == n->f.dso) {
		o->index = index;
		o->inl = sb_add(sb, inl);
	}
	o->label = n->label;
	o->fold = n->fold;
	o->owner = n->owner;
	o->cpumode = n->f.cpumode;
	o->why = n->f.why;
	o->kernel = n->f.kernel;
	o->dso_mixed = n->dso_mixed;
}

/* Does e hold nothing but what struct hc_ent keeps (stamp aside): no other key's value? */
static bool
ent_fits(const struct hist_entry *e)
{
	return e->xkey == 0;
}

static void
ent_put(const struct hist_entry *e, uint8_t *p)
{
	struct hc_ent c = { e->event, e->comm, e->pid, e->tid, e->cpu, e->dso, e->node,
		e->label_comm, e->label_tid, e->label_sym, e->label_phys, e->label_dcl, e->period,
		e->samples, e->acc_period, e->acc_samples, e->latency, e->acc_latency };

	memcpy(p, &c, sizeof c);
}

static void
ent_get(const uint8_t *p, struct hist_entry *e)
{
	struct hc_ent c;

	memcpy(&c, p, sizeof c);
	memset(e, 0, sizeof *e);
	e->event = c.event;
	e->comm = c.comm;
	e->pid = c.pid;
	e->tid = c.tid;
	e->cpu = c.cpu;
	e->dso = c.dso;
	e->node = c.node;
	e->label_comm = c.label_comm;
	e->label_tid = c.label_tid;
	e->label_sym = c.label_sym;
	e->label_phys = c.label_phys;
	e->label_dcl = c.label_dcl;
	e->period = c.period;
	e->samples = c.samples;
	e->acc_period = c.acc_period;
	e->acc_samples = c.acc_samples;
	e->latency = c.latency;
	e->acc_latency = c.acc_latency;
}

static size_t
pad8(size_t n)
{
	return (n + 7) & ~(size_t)7;
}

/*
 * With HC_ROWS: the head of the rows part (false: h's rows cannot be kept,
 * a recount refused or rows made other than one per sample).
 */
static bool
rows_head(const struct hist *h, struct hc_rows *r)
{
	size_t npos = session_index(h->s)->n;

	memset(r, 0, sizeof *r);
	memcpy(r->magic, HC_ROWS_MAGIC, 8);
	if (h->rc.no_rescope || h->rc.pos_split || h->rc.pos_lent || h->rc.span_row != NULL ||
	    h->ps.nan > 0 || h->ps.ncp >= NONE32 || h->ps.ncprow >= ROW_TOTALS ||
	    (h->rc.sample_row == NULL && npos > 0 && h->ps.ncprow > 0))
		return false;
	if (h->ps.ncprow > 0 && (h->rc.rowent_off == NULL || h->rc.caprowoff < h->ps.ncprow + 1 ||
	    h->rc.rowent_off[0] != 0 || h->rc.rowent_off[h->ps.ncprow] != h->rc.nrowent))
		return false;
	r->ncp = h->ps.ncp;
	r->nrow = h->ps.ncprow;
	r->nrowent = h->ps.ncprow > 0 ? h->rc.nrowent : 0;
	r->npos = h->rc.sample_row != NULL ? npos : 0;
	r->pos_lo = h->rc.pos_lo <= h->rc.pos_hi ? h->rc.pos_lo : 0;
	r->pos_hi = h->rc.pos_lo <= h->rc.pos_hi ? h->rc.pos_hi : 0;
	r->p64 = h->rc.sample_p64 != NULL;
	r->lab = r->nrowent > 0 && h->rc.rowlab != NULL;
	return true;
}

static size_t
rows_size(const struct hc_rows *r)
{
	return sizeof *r + (size_t)r->ncp * sizeof(struct hc_cp) + (size_t)r->nrow * sizeof(struct cp_row) +
	    pad8(((size_t)r->nrow + 1) * 4) + pad8((size_t)r->nrowent * 4) * (r->lab ? 2 : 1) +
	    pad8((size_t)r->npos * 4) +
	    pad8((size_t)r->npos * (r->p64 ? 8 : 4));
}

/* The rows part at p (rows_size(r) bytes, zeroed). */
static void
rows_put(const struct hist *h, const struct hc_rows *r, uint8_t *p)
{
	size_t at = sizeof *r;

	memcpy(p, r, sizeof *r);
	for (size_t i = 0; i < r->ncp; i++, at += sizeof(struct hc_cp)) {
		struct hc_cp c = { h->ps.cp[i].parent, h->ps.cp[i].func };

		memcpy(p + at, &c, sizeof c);
	}
	if (r->nrow > 0)
		memcpy(p + at, h->ps.cprow, (size_t)r->nrow * sizeof(struct cp_row));
	at += (size_t)r->nrow * sizeof(struct cp_row);
	if (r->nrow > 0)
		memcpy(p + at, h->rc.rowent_off, ((size_t)r->nrow + 1) * 4);
	at += pad8(((size_t)r->nrow + 1) * 4);
	if (r->nrowent > 0)
		memcpy(p + at, h->rc.rowent, (size_t)r->nrowent * 4);
	at += pad8((size_t)r->nrowent * 4);
	if (r->lab) {
		memcpy(p + at, h->rc.rowlab, (size_t)r->nrowent * 4);
		at += pad8((size_t)r->nrowent * 4);
	}
	if (r->npos > 0)
		memcpy(p + at, h->rc.sample_row, (size_t)r->npos * 4);
	at += pad8((size_t)r->npos * 4);
	if (r->npos > 0 && r->p64)
		memcpy(p + at, h->rc.sample_p64, (size_t)r->npos * 8);
	else if (r->npos > 0 && h->rc.sample_p32 != NULL)
		memcpy(p + at, h->rc.sample_p32, (size_t)r->npos * 4);
}

/* What hist_cache_pack_start took of a hist and its symbolizer. */
struct hist_pack {
	struct hc_head	 hd;
	struct hc_rows	 rows;
	bool		 with_rows;
	struct sbuf	 sb;		/* the hist's strings, then the DSO states' and inline names */
	struct hc_node	*nodes;
	struct hc_dso	*dsos;
};

struct hist_pack *
hist_cache_pack_start(struct hist *h)
{
	struct hist_pack *k;
	struct hc_head *hd;
	size_t nd, ndso = 0;
	uint8_t *mark;
	bool with_rows = h->o.record_self && h->o.paths;
	struct hc_rows rows;

	if (h->z == NULL || !hist_cache_able(h->s, &h->o) || h->ptr.ptree || h->ks.ipc_node ||
	    h->strs.len == 0 || h->nnode >= NONE32 || h->nent >= NONE32 ||
	    (with_rows && !rows_head(h, &rows)))
		return NULL;
	k = xcalloc(1, sizeof *k);
	k->with_rows = with_rows;
	if (with_rows)
		k->rows = rows;
	nd = symbolizer_ndsos(h->z);
	GROW(k->sb.b, k->sb.cap, h->strs.len);
	memcpy(k->sb.b, h->strs.buf, h->strs.len);
	k->sb.n = h->strs.len;
	k->nodes = xcalloc(h->nnode + 1, sizeof *k->nodes);
	for (size_t i = 0; i < h->nnode; i++)
		pack_node(h, &h->node[i], &k->sb, &k->nodes[i]);
	mark = xcalloc(nd + 1, 1);
	mark_dsos(h, mark, nd);
	k->dsos = xcalloc(nd + 1, sizeof *k->dsos);
	for (size_t d = 0; d < nd; d++)
		if (mark[d])
			dso_record(h->z, (uint32_t)d, &k->sb, &k->dsos[ndso++]);
	free(mark);
	hd = &k->hd;
	memcpy(hd->magic, HC_MAGIC, 8);
	hd->sz_ent = sizeof(struct hc_ent);
	hd->sz_ev = sizeof(struct hist_event);
	hd->sz_why = sizeof(struct hist_why);
	hd->sz_node = sizeof(struct hc_node);
	hd->sz_dso = sizeof(struct hc_dso);
	hd->nkeys = h->o.nkeys;
	for (unsigned i = 0; i < h->o.nkeys; i++)
		hd->keys[i] = h->o.keys[i];
	hd->event = h->o.event;
	hd->max_stack = h->o.max_stack;
	hd->flags = opt_flags(&h->o);
	hd->ndsos_all = (uint32_t)nd;
	hd->nstr = k->sb.n;
	hd->nnode = h->nnode;
	hd->ndso = ndso;
	return k;
}

void
hist_cache_pack_free(struct hist_pack *k)
{
	if (k == NULL)
		return;
	free(k->sb.b);
	free(k->nodes);
	free(k->dsos);
	free(k);
}

size_t
hist_cache_pack_size(struct hist_pack *k, const struct hist *h)
{
	struct hc_head *hd;

	if (k == NULL)
		return 0;
	hd = &k->hd;
	hd->nev = h->nev;
	hd->nent = h->nent;
	hd->nwhy = h->nwhy;
	for (size_t i = 0; i < h->nent; i++)
		if (!ent_fits(&h->ent[i])) {
			hist_cache_pack_free(k);
			return 0;
		}
	return sizeof *hd + pad8(k->sb.n) + h->nev * sizeof *h->ev + hd->nnode * sizeof *k->nodes +
	    h->nent * sizeof(struct hc_ent) + h->nwhy * sizeof *h->why + hd->ndso * sizeof *k->dsos +
	    (k->with_rows ? rows_size(&k->rows) : 0);
}

void
hist_cache_pack_fill(struct hist_pack *k, const struct hist *h, void *dst)
{
	const struct hc_head *hd = &k->hd;
	uint8_t *p = dst;
	size_t at;

	memcpy(p, hd, sizeof *hd);
	at = sizeof *hd;
	memcpy(p + at, k->sb.b, k->sb.n);
	at += pad8(k->sb.n);
#define PUT(src, n, sz) \
	do { \
		if ((n) > 0) \
			memcpy(p + at, (src), (n) * (sz)); \
		at += (n) * (sz); \
	} while (0)
	PUT(h->ev, h->nev, sizeof *h->ev);
	PUT(k->nodes, hd->nnode, sizeof *k->nodes);
	for (size_t i = 0; i < h->nent; i++, at += sizeof(struct hc_ent))
		ent_put(&h->ent[i], p + at);
	PUT(h->why, h->nwhy, sizeof *h->why);
	PUT(k->dsos, hd->ndso, sizeof *k->dsos);
#undef PUT
	if (k->with_rows)
		rows_put(h, &k->rows, p + at);
	hist_cache_pack_free(k);
}

void *
hist_cache_pack_finish(struct hist_pack *k, const struct hist *h, size_t *len)
{
	void *p;

	if ((*len = hist_cache_pack_size(k, h)) == 0)
		return NULL;
	p = xcalloc(*len, 1);
	hist_cache_pack_fill(k, h, p);
	return p;
}

void *
hist_cache_pack(struct hist *h, size_t *len)
{
	return hist_cache_pack_finish(hist_cache_pack_start(h), h, len);
}

/* ---- unpacking ---- */

/* The payload, its parts located and checked. */
struct hc_view {
	struct hc_head		 hd;
	const uint8_t		*p;
	const char		*str;
	size_t			 off_ev, off_node, off_ent, off_why, off_dso;
	struct hc_rows		 rows;		/* with HC_ROWS */
	size_t			 off_rows, off_cp, off_row, off_roff, off_rent, off_rlab, off_srow, off_per;
	size_t			 nd;		/* the symbolizer's DSOs */
	uint8_t			*known;		/* per DSO: its state was recorded */
	struct perf_err		*err;
};

static enum hist_cache_result
refused(struct hc_view *v, size_t off, const char *what)
{
	perf_err_set(v->err, PERF_E_BAD_HEADER, off, "%s", what);
	return HIST_CACHE_REFUSED;
}

/* Place n records of sz bytes at *at within len: false if they do not fit. */
static bool
place(size_t *at, size_t len, uint64_t n, size_t sz, size_t *off)
{
	if (*at > len || n > (len - *at) / sz)
		return false;
	*off = *at;
	*at += (size_t)n * sz;
	return true;
}

/* The rows part from at to len: its head and arrays placed (HC_ROWS). */
static enum hist_cache_result
check_rows(struct hc_view *v, size_t at, size_t len)
{
	struct hc_rows *r = &v->rows;
	size_t max;

	v->off_rows = at;
	if (len - at < sizeof *r)
		return refused(v, at, "a payload without its rows");
	memcpy(r, v->p + at, sizeof *r);
	max = (len - at) / 4;
	if (memcmp(r->magic, HC_ROWS_MAGIC, 8) != 0 || r->p64 > 1 || r->lab > 1)
		return refused(v, at, "rows of another layout");
	if (r->ncp > max || r->ncp >= NONE32 || r->nrow > max || r->nrow >= ROW_TOTALS ||
	    r->nrowent > max || r->nrowent >= NONE32 || r->npos > max || rows_size(r) != len - at)
		return refused(v, at + offsetof(struct hc_rows, ncp), "row counts that do not match the payload's size");
	at += sizeof *r;
	v->off_cp = at;
	at += (size_t)r->ncp * sizeof(struct hc_cp);
	v->off_row = at;
	at += (size_t)r->nrow * sizeof(struct cp_row);
	v->off_roff = at;
	at += pad8(((size_t)r->nrow + 1) * 4);
	v->off_rent = at;
	at += pad8((size_t)r->nrowent * 4);
	v->off_rlab = at;
	at += r->lab ? pad8((size_t)r->nrowent * 4) : 0;
	v->off_srow = at;
	v->off_per = at + pad8((size_t)r->npos * 4);
	return HIST_CACHE_OK;
}

static enum hist_cache_result
check_head(struct hc_view *v, const struct hist *h, size_t len)
{
	const struct hc_head *hd = &v->hd;
	size_t at = sizeof *hd, soff;

	if (len < sizeof *hd)
		return refused(v, len, "a payload shorter than its head");
	memcpy(&v->hd, v->p, sizeof *hd);
	if (memcmp(hd->magic, HC_MAGIC, 8) != 0 || hd->sz_ent != sizeof(struct hc_ent) ||
	    hd->sz_ev != sizeof(struct hist_event) || hd->sz_why != sizeof(struct hist_why) ||
	    hd->sz_node != sizeof(struct hc_node) || hd->sz_dso != sizeof(struct hc_dso))
		return refused(v, 0, "a payload of another layout");
	if (hd->nkeys != h->o.nkeys || hd->event != h->o.event || hd->max_stack != h->o.max_stack ||
	    hd->flags != opt_flags(&h->o))
		return HIST_CACHE_STALE;
	for (unsigned i = 0; i < hd->nkeys; i++)
		if (hd->keys[i] != (uint32_t)h->o.keys[i])
			return HIST_CACHE_STALE;
	if (hd->ndsos_all != v->nd)
		return refused(v, offsetof(struct hc_head, ndsos_all), "a count of DSOs the recording does not give");
	if (hd->nstr == 0 || hd->nstr >= NONE32 - 1 || pad8((size_t)hd->nstr) > len - at ||
	    v->p[at + hd->nstr - 1] != '\0')
		return refused(v, offsetof(struct hc_head, nstr), "a string table out of bounds or not ended");
	soff = at;
	at += pad8((size_t)hd->nstr);
	v->str = (const char *)v->p + soff;
	if (!place(&at, len, hd->nev, sizeof(struct hist_event), &v->off_ev) ||
	    !place(&at, len, hd->nnode, sizeof(struct hc_node), &v->off_node) ||
	    !place(&at, len, hd->nent, sizeof(struct hc_ent), &v->off_ent) ||
	    !place(&at, len, hd->nwhy, sizeof(struct hist_why), &v->off_why) ||
	    !place(&at, len, hd->ndso, sizeof(struct hc_dso), &v->off_dso) ||
	    (at != len && !(hd->flags & HC_ROWS)) ||
	    hd->nnode >= NONE32 || hd->nent >= NONE32 || hd->nev >= 0xffff)
		return refused(v, offsetof(struct hc_head, nev), "counts that do not match the payload's size");
	return hd->flags & HC_ROWS ? check_rows(v, at, len) : HIST_CACHE_OK;
}

static bool
str_ok(const struct hc_view *v, uint64_t id)
{
	return id < v->hd.nstr;
}

/* A string + 1 (0: none) of the table, or NULL. */
static const char *
str_opt(const struct hc_view *v, uint32_t id1)
{
	return id1 == 0 ? NULL : v->str + id1 - 1;
}

static bool
same_str(const char *a, const char *b)
{
	return (a == NULL) == (b == NULL) && (a == NULL || strcmp(a, b) == 0);
}

static bool
same_file(const char *path, const struct hc_file *f)
{
	struct hc_file now;

	file_id(path, &now);
	return memcmp(&now, f, sizeof now) == 0;
}

/* The DSOs' states: recorded ones known (refused), then compared with z's now (stale). */
static enum hist_cache_result
check_dsos(struct hc_view *v, struct symbolizer *z)
{
	for (uint64_t i = 0; i < v->hd.ndso; i++) {
		size_t off = v->off_dso + (size_t)i * sizeof(struct hc_dso);
		struct sym_dso_state st;
		struct hc_dso d;

		memcpy(&d, v->p + off, sizeof d);
		if (d.dso >= v->nd || d.source > v->hd.nstr || d.symfile > v->hd.nstr ||
		    d.runfile > v->hd.nstr)
			return refused(v, off, "a DSO state naming a DSO or string out of bounds");
		if (v->known[d.dso])	/* each once: a DSO's table is digested once */
			return refused(v, off, "a second state of one DSO");
		v->known[d.dso] = 1;
		symbolizer_dso_state(z, d.dso, &st);
		if (!same_str(st.source, str_opt(v, d.source)) ||
		    !same_str(st.symfile, str_opt(v, d.symfile)) ||
		    !same_str(st.runfile, str_opt(v, d.runfile)) || st.why != d.why ||
		    st.nsyms != d.nsyms || st.digest != d.digest || !same_file(st.symfile, &d.sym) ||
		    !same_file(st.runfile, &d.run))
			return HIST_CACHE_STALE;
	}
	return HIST_CACHE_OK;
}

static bool
dso_ok(const struct hc_view *v, uint32_t dso)
{
	return dso == DSO_NONE || (dso < v->nd && v->known[dso]);
}

/* Read the function nodes into from, each symbol found by identity in z. */
static enum hist_cache_result
take_nodes(struct hc_view *v, struct hist *from, struct symbolizer *z)
{
	from->node = xcalloc_table(v->hd.nnode + 1, sizeof *from->node);
	from->capnode = v->hd.nnode + 1;
	for (uint64_t i = 0; i < v->hd.nnode; i++) {
		size_t off = v->off_node + (size_t)i * sizeof(struct hc_node);
		struct hist_node *n = &from->node[i];
		struct hc_node c;

		memcpy(&c, v->p + off, sizeof c);
		if (!dso_ok(v, c.dso) || !str_ok(v, c.label) || !str_ok(v, c.fold) || c.owner != 0 ||
		    c.inl > v->hd.nstr || c.why >= SYM_WHY_COUNT || c.kernel > 1 || c.dso_mixed > 1)
			return refused(v, off, "a function node with a DSO, string or value out of bounds");
		n->f.ip = c.ip;
		n->f.rel = c.rel;
		n->f.symoff = c.symoff;
		n->f.dso = c.dso;
		n->f.sym = SYM_NONE;
		n->f.cpumode = c.cpumode;
		n->f.why = c.why;
		n->f.kernel = c.kernel != 0;
		n->label = c.label;
		n->fold = c.fold;
		n->dso_mixed = c.dso_mixed != 0;
		if (c.index != NONE32) {
			if (c.dso == DSO_NONE)
				return refused(v, off, "a symbol of no DSO");
			n->f.sym = symbolizer_sym_by_ident(z, c.dso, c.index, str_opt(v, c.inl));
			if (n->f.sym == SYM_NONE)
				return refused(v, off, "a symbol its DSO does not have");
		}
		from->nnode++;
	}
	return HIST_CACHE_OK;
}

/* Read the entries and events into from. */
static enum hist_cache_result
take_entries(struct hc_view *v, struct hist *from, const struct session *s)
{
	unsigned km = from->ks.keymask;

	from->ev = xcalloc(v->hd.nev + 1, sizeof *from->ev);
	from->capev = v->hd.nev + 1;
	for (uint64_t i = 0; i < v->hd.nev; i++) {
		size_t off = v->off_ev + (size_t)i * sizeof(struct hist_event);
		struct hist_event *e = &from->ev[i];

		memcpy(e, v->p + off, sizeof *e);
		if (e->attr < 0 || (size_t)e->attr >= session_attrs(s)->n || !str_ok(v, e->name))
			return refused(v, off, "an event the recording does not have");
		from->nev++;
	}
	from->ent = xcalloc_table(v->hd.nent + 1, sizeof *from->ent);
	from->capent = v->hd.nent + 1;
	for (uint64_t i = 0; i < v->hd.nent; i++) {
		size_t off = v->off_ent + (size_t)i * sizeof(struct hc_ent);
		struct hist_entry *e = &from->ent[i];

		ent_get(v->p + off, e);
		if (e->event >= v->hd.nev || !str_ok(v, e->comm) || !dso_ok(v, e->dso) ||
		    ((km & HIST_KEEP(HIST_KEY_SYM)) && e->node >= v->hd.nnode) ||
		    !str_ok(v, e->label_comm) || e->label_sym > v->hd.nstr || e->label_phys > v->hd.nstr ||
		    e->label_dcl > v->hd.nstr)
			return refused(v, off, "an entry with an event, string, DSO or node out of bounds");
		from->nent++;
	}
	return HIST_CACHE_OK;
}

static enum hist_cache_result
take_whys(struct hc_view *v, struct hist *from)
{
	from->why = xcalloc(v->hd.nwhy + 1, sizeof *from->why);
	from->capwhy = v->hd.nwhy + 1;
	for (uint64_t i = 0; i < v->hd.nwhy; i++) {
		size_t off = v->off_why + (size_t)i * sizeof(struct hist_why);

		memcpy(&from->why[i], v->p + off, sizeof from->why[i]);
		if (!dso_ok(v, from->why[i].dso))
			return refused(v, off, "failure counts of a DSO out of bounds");
		from->nwhy++;
	}
	return HIST_CACHE_OK;
}

static uint32_t
u32_at(const struct hc_view *v, size_t off)
{
	uint32_t x;

	memcpy(&x, v->p + off, sizeof x);
	return x;
}

/* The call-path tree and its rows into from: parents first, ids within the payload. */
static enum hist_cache_result
take_tree(struct hc_view *v, struct hist *from)
{
	const struct hc_rows *r = &v->rows;

	from->ps.cp = xcalloc_table(r->ncp + 1, sizeof *from->ps.cp);
	from->ps.capcp = r->ncp + 1;
	for (uint64_t i = 0; i < r->ncp; i++) {
		size_t off = v->off_cp + (size_t)i * sizeof(struct hc_cp);
		struct hc_cp c;

		memcpy(&c, v->p + off, sizeof c);
		if (c.parent == NONE32 ? c.func >= v->hd.nev : c.parent >= i || c.func >= v->hd.nnode)
			return refused(v, off, "a call-path node with a parent, event or function out of bounds");
		from->ps.cp[i].parent = c.parent;
		from->ps.cp[i].func = c.func;
		from->ps.cp[i].hint = NONE32;
		from->ps.ncp++;
	}
	from->ps.cprow = xcalloc_table(r->nrow + 1, sizeof *from->ps.cprow);
	from->ps.capcprow = r->nrow + 1;
	for (uint64_t i = 0; i < r->nrow; i++) {
		size_t off = v->off_row + (size_t)i * sizeof(struct cp_row);
		struct cp_row *w = &from->ps.cprow[i];

		memcpy(w, v->p + off, sizeof *w);
		if (w->node >= r->ncp || (w->entry & ~CP_NOCHAIN) >= v->hd.nent)
			return refused(v, off, "a path row with a node or entry out of bounds");
		from->ps.ncprow++;
	}
	from->rc.rowent_off = xcalloc_table(r->nrow + 1, sizeof *from->rc.rowent_off);
	from->rc.caprowoff = r->nrow + 1;
	for (uint64_t i = 0; i <= r->nrow && r->nrow > 0; i++) {
		uint32_t o = u32_at(v, v->off_roff + (size_t)i * 4);

		if ((i == 0 && o != 0) || (i > 0 && o < from->rc.rowent_off[i - 1]) ||
		    (i == r->nrow && o != r->nrowent))
			return refused(v, v->off_roff + (size_t)i * 4, "a row's credited entries out of order or bounds");
		from->rc.rowent_off[i] = o;
	}
	from->rc.rowent = xcalloc_table(r->nrowent + 1, sizeof *from->rc.rowent);
	from->rc.caprowent = r->nrowent + 1;
	for (uint64_t i = 0; i < r->nrowent; i++) {
		from->rc.rowent[i] = u32_at(v, v->off_rent + (size_t)i * 4);
		if (from->rc.rowent[i] >= v->hd.nent)
			return refused(v, v->off_rent + (size_t)i * 4, "a credited entry out of bounds");
	}
	from->rc.nrowent = r->nrowent;
	if (r->lab)
		from->rc.rowlab = xcalloc_table(r->nrowent + 1, sizeof *from->rc.rowlab);
	for (uint64_t i = 0; r->lab && i < r->nrowent; i++) {
		from->rc.rowlab[i] = u32_at(v, v->off_rlab + (size_t)i * 4);
		if (from->rc.rowlab[i] > v->hd.nstr)
			return refused(v, v->off_rlab + (size_t)i * 4, "a credited label out of bounds");
	}
	return HIST_CACHE_OK;
}

/*
 * Each index position's row and period into into's arrays, lent to from
 * as a parallel pass's second part borrows them (hist_share_positions):
 * hist_merge translates from's row ids at from's positions.
 */
static enum hist_cache_result
take_positions(struct hc_view *v, struct hist *into, struct hist *from, const struct session *s)
{
	const struct hc_rows *r = &v->rows;
	size_t n = session_index(s)->n;

	if (r->npos != n || r->pos_lo > r->pos_hi || r->pos_hi > n)
		return refused(v, v->off_rows + offsetof(struct hc_rows, npos), "positions the recording's index does not have");
	if (n > 0) {
		into->rc.sample_row = xmalloc_table(n, sizeof *into->rc.sample_row);
		memcpy(into->rc.sample_row, v->p + v->off_srow, n * sizeof *into->rc.sample_row);
	}
	for (size_t i = 0; i < n; i++) {
		uint32_t w = into->rc.sample_row[i];

		if (w == NONE32)
			continue;
		if ((i < r->pos_lo || i >= r->pos_hi) ||
		    ((w & ROW_TOTALS) == ROW_TOTALS ? (w & 0xffff) >= v->hd.nev : w >= r->nrow))
			return refused(v, v->off_srow + i * 4, "a sample's row out of bounds");
	}
	if (n > 0 && r->p64) {
		into->rc.sample_p64 = xmalloc_table(n, sizeof *into->rc.sample_p64);
		memcpy(into->rc.sample_p64, v->p + v->off_per, n * sizeof *into->rc.sample_p64);
	} else if (n > 0) {
		into->rc.sample_p32 = xmalloc_table(n, sizeof *into->rc.sample_p32);
		memcpy(into->rc.sample_p32, v->p + v->off_per, n * sizeof *into->rc.sample_p32);
	}
	into->rc.pos_split = true;
	from->rc.pos_lent = true;
	from->rc.sample_row = into->rc.sample_row;
	from->rc.sample_p32 = into->rc.sample_p32;
	from->rc.pos_lo = r->pos_lo < r->pos_hi ? r->pos_lo : SIZE_MAX;
	from->rc.pos_hi = r->pos_lo < r->pos_hi ? r->pos_hi : 0;
	return HIST_CACHE_OK;
}

/* from, the payload's hist over s and z, checked. */
static enum hist_cache_result
take_all(struct hc_view *v, struct hist *into, struct hist *from, const struct session *s,
    struct symbolizer *z)
{
	enum hist_cache_result r = check_dsos(v, z);

	if (r != HIST_CACHE_OK)
		return r;
	strtab_free(&from->strs);
	from->strs.buf = xreallocarray(NULL, v->hd.nstr, 1);
	memcpy(from->strs.buf, v->str, v->hd.nstr);
	from->strs.len = from->strs.cap = v->hd.nstr;
	free(from->ev);
	free(from->node);
	free(from->ent);
	free(from->why);
	from->ev = NULL;
	from->node = NULL;
	from->ent = NULL;
	from->why = NULL;
	from->nev = from->nnode = from->nent = from->nwhy = 0;
	if ((r = take_nodes(v, from, z)) != HIST_CACHE_OK ||
	    (r = take_entries(v, from, s)) != HIST_CACHE_OK ||
	    (r = take_whys(v, from)) != HIST_CACHE_OK || !(v->hd.flags & HC_ROWS))
		return r;
	if ((r = take_tree(v, from)) != HIST_CACHE_OK)
		return r;
	return take_positions(v, into, from, s);
}

#define TAKE(a, b) \
	do { \
		void *t_ = (void *)(a); \
		(a) = (b); \
		(b) = t_; \
	} while (0)
#define TAKE_N(a, b) \
	do { \
		size_t t_ = (a); \
		(a) = (b); \
		(b) = t_; \
	} while (0)

/*
 * With HC_ROWS: into (empty but for the positions take_positions gave it)
 * takes from's arrays as they are, ids unchanged (the ids a merge into an
 * empty hist would give, without looking each up), and makes its tables
 * of them: strings, events, nodes, entries, failure counts, the call-path
 * tree, its rows and their credited entries.
 */
static enum hist_cache_result
adopt(struct hc_view *v, struct hist *into, struct hist *from)
{
	strtab_free(&into->strs);
	strtab_adopt(&into->strs, v->str, (size_t)v->hd.nstr);
	for (size_t i = 0; i < from->nev; i++) {
		const struct hist_event *fe = &from->ev[i];

		if (hist_event_of(into, fe->attr, hist_str(from, fe->name)) != i)
			return refused(v, v->off_ev + i * sizeof *fe, "one event twice");
		into->ev[i].total_period = fe->total_period;
		into->ev[i].total_latency = fe->total_latency;
		into->ev[i].nsamples = fe->nsamples;
	}
	TAKE(into->node, from->node);
	TAKE_N(into->nnode, from->nnode);
	TAKE_N(into->capnode, from->capnode);
	TAKE(into->ent, from->ent);
	TAKE_N(into->nent, from->nent);
	TAKE_N(into->capent, from->capent);
	for (size_t i = 0; i < from->nwhy; i++)
		for (unsigned r = 0; r < SYM_WHY_COUNT; r++) {
			struct fkey fk = { .dso = from->why[i].dso, .why = (uint8_t)r };

			if (from->why[i].self[r])
				hist_count_why(into, &fk, false, from->why[i].self[r]);
			if (from->why[i].chain[r])
				hist_count_why(into, &fk, true, from->why[i].chain[r]);
		}
	TAKE(into->ps.cp, from->ps.cp);
	TAKE_N(into->ps.ncp, from->ps.ncp);
	TAKE_N(into->ps.capcp, from->ps.capcp);
	TAKE(into->ps.cprow, from->ps.cprow);
	TAKE_N(into->ps.ncprow, from->ps.ncprow);
	TAKE_N(into->ps.capcprow, from->ps.capcprow);
	TAKE(into->rc.rowent_off, from->rc.rowent_off);
	TAKE_N(into->rc.caprowoff, from->rc.caprowoff);
	TAKE(into->rc.rowent, from->rc.rowent);
	TAKE(into->rc.rowlab, from->rc.rowlab);
	TAKE_N(into->rc.nrowent, from->rc.nrowent);
	TAKE_N(into->rc.caprowent, from->rc.caprowent);
	into->rc.pos_split = false;
	into->rc.pos_lo = from->rc.pos_lo;
	into->rc.pos_hi = from->rc.pos_hi;
	into->tabs_lazy = true;	/* the tables of ids on first use: a finished hist needs none */
	return HIST_CACHE_OK;
}

#undef TAKE
#undef TAKE_N

enum hist_cache_result
hist_cache_unpack(const struct session *s, struct symbolizer *z, const struct hist_opts *o,
    const void *p, size_t len, struct hist **out, struct perf_err *err)
{
	struct hc_view v;
	struct hist *into, *from;
	enum hist_cache_result r;

	*out = NULL;
	if (s == NULL || z == NULL || !hist_cache_able(s, o))
		return HIST_CACHE_STALE;
	memset(&v, 0, sizeof v);
	v.p = p;
	v.err = err;
	v.nd = symbolizer_ndsos(z);
	into = hist_new(s, z, o);
	if (into->ptr.ptree || into->ks.ipc_node) {
		hist_free(into);
		return HIST_CACHE_STALE;
	}
	if ((r = check_head(&v, into, len)) != HIST_CACHE_OK) {
		hist_free(into);
		return r;
	}
	v.known = xcalloc(v.nd + 1, 1);
	from = hist_new(s, z, o);
	r = take_all(&v, into, from, s, z);
	if (r == HIST_CACHE_OK && (v.hd.flags & HC_ROWS))
		r = adopt(&v, into, from);
	else if (r == HIST_CACHE_OK && hist_merge(into, from) != 0)
		r = refused(&v, 0, "a payload that does not make a hist");
	hist_free(from);
	free(v.known);
	if (r != HIST_CACHE_OK) {
		hist_free(into);
		return r;
	}
	*out = into;
	return HIST_CACHE_OK;
}
