#include "config.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <linux/bpf.h>

#include "core/attr.h"
#include "core/bytes.h"
#include "core/err.h"
#include "core/feature.h"
#include "core/perf_file.h"

static const char *const feat_names[PF_FEAT_BITS] = {
#define X(v, n) [v] = #n,
	PF_FEATURES(X)
#undef X
};

const char *
feat_name(unsigned bit)
{
	return bit < PF_FEAT_BITS ? feat_names[bit] : NULL;
}

const char *
feat_status_name(enum feat_status st)
{
	switch (st) {
	case FEAT_ABSENT:
		return "absent";
	case FEAT_OK:
		return "ok";
	case FEAT_MISSING:
		return "missing";
	case FEAT_SIZE_MISMATCH:
		return "size mismatch";
	case FEAT_UNDECODABLE:
		return "undecodable";
	case FEAT_RAW:
		return "raw";
	}
	return "?";
}

/* ---- small helpers ---- */

/* One decoding: the cursor over the section, and why it failed. */
struct dec {
	struct cursor	 c;
	struct features	*f;
	char		 why[160];
};

static int
fail(struct dec *d, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

static int
fail(struct dec *d, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(d->why, sizeof d->why, fmt, ap);
	va_end(ap);
	return -1;
}

/* A perf string: u32 len, then len bytes, NUL padded.  NULL if it does not
 * fit (the cursor is then bad). */
static char *
rd_str(struct cursor *c)
{
	uint32_t len = cursor_u32(c);
	const uint8_t *p = cursor_take(c, len);

	if (p == NULL)
		return NULL;
	return xstrndup((const char *)p, strnlen((const char *)p, len));
}

/* Whether nr entries of at least each bytes can still follow. */
static bool
fits(const struct cursor *c, uint64_t nr, size_t each)
{
	return nr <= cursor_left(c) / each;
}

static void
free_strv(char **v, uint32_t n)
{
	if (v == NULL)
		return;
	for (uint32_t i = 0; i < n; i++)
		free(v[i]);
	free(v);
}

/* Read a count followed by that many strings. */
static int
rd_strv(struct dec *d, char ***out, uint32_t *nout, const char *what)
{
	uint32_t nr = cursor_u32(&d->c);
	char **v;

	*out = NULL;
	*nout = 0;
	if (d->c.bad)
		return fail(d, "truncated before the number of %s", what);
	if (!fits(&d->c, nr, 4))
		return fail(d, "%" PRIu32 " %s cannot fit in %zu bytes", nr, what,
		    cursor_left(&d->c));
	v = xcalloc(nr ? nr : 1, sizeof *v);
	for (uint32_t i = 0; i < nr; i++) {
		v[i] = rd_str(&d->c);
		if (v[i] == NULL) {
			*out = v;
			*nout = i;
			return fail(d, "%s %" PRIu32 " of %" PRIu32 " is truncated", what, i, nr);
		}
	}
	*out = v;
	*nout = nr;
	return 0;
}

/* ---- one decoder per feature ---- */

static int
dec_string(struct dec *d, char **dst)
{
	free(*dst);
	*dst = rd_str(&d->c);
	if (*dst == NULL)
		return fail(d, "string does not fit in the section");
	return 0;
}

static int
dec_nrcpus(struct dec *d)
{
	uint32_t avail = cursor_u32(&d->c), online = cursor_u32(&d->c);

	if (d->c.bad)
		return fail(d, "truncated");
	d->f->nr_cpus_avail = avail;
	d->f->nr_cpus_online = online;
	return 0;
}

static int
dec_total_mem(struct dec *d)
{
	uint64_t v = cursor_u64(&d->c);

	if (d->c.bad)
		return fail(d, "truncated");
	d->f->total_mem = v;
	return 0;
}

static int
dec_cmdline(struct dec *d)
{
	free_strv(d->f->cmdline, d->f->cmdline_n);
	return rd_strv(d, &d->f->cmdline, &d->f->cmdline_n, "arguments");
}

static void
free_events(struct features *f)
{
	for (uint32_t i = 0; i < f->nevents; i++) {
		free(f->events[i].name);
		free(f->events[i].ids);
	}
	free(f->events);
	f->events = NULL;
	f->nevents = 0;
	f->events_ok = false;
}

static int
dec_event_desc(struct dec *d)
{
	struct features *f = d->f;
	uint32_t nre, sz;

	free_events(f);
	nre = cursor_u32(&d->c);
	sz = cursor_u32(&d->c);
	if (d->c.bad)
		return fail(d, "truncated before the event count");
	if (sz < PF_ATTR_SIZE_VER0_MIN)
		return fail(d, "attr size %" PRIu32 " is too small", sz);
	if (!fits(&d->c, nre, (size_t)sz + 8))
		return fail(d, "%" PRIu32 " events of %" PRIu32 " bytes cannot fit in %zu bytes",
		    nre, sz, cursor_left(&d->c));
	f->events = xcalloc(nre ? nre : 1, sizeof *f->events);
	for (uint32_t i = 0; i < nre; i++) {
		struct feat_event_desc *e = &f->events[i];
		const uint8_t *ap = cursor_take(&d->c, sz);
		uint32_t nids;

		if (ap == NULL)
			return fail(d, "event %" PRIu32 ": attr truncated", i);
		attr_decode(&e->attr, ap, sz, d->c.swap);
		e->attr_size = sz;
		f->nevents = i + 1;
		nids = cursor_u32(&d->c);
		e->name = rd_str(&d->c);
		if (e->name == NULL)
			return fail(d, "event %" PRIu32 ": name truncated", i);
		if (!fits(&d->c, nids, 8))
			return fail(d, "event %" PRIu32 ": %" PRIu32 " ids cannot fit in %zu bytes",
			    i, nids, cursor_left(&d->c));
		if (nids > 0) {
			e->ids = xcalloc(nids, sizeof *e->ids);
			for (uint32_t j = 0; j < nids; j++)
				e->ids[j] = cursor_u64(&d->c);
			e->nids = nids;
		}
	}
	f->events_ok = true;
	return 0;
}

static void
set_attr_name(struct pn_attr *pa, const char *name)
{
	if (pa->name != NULL)
		return;
	pa->name = xstrdup(name);
	pa->name_given = true;
}

void
features_apply_event_desc(struct features *f, struct attr_table *t, bool add_if_empty)
{
	if (t == NULL || f->events == NULL)
		return;
	if (t->n == 0) {
		if (!add_if_empty)
			return;
		for (uint32_t i = 0; i < f->nevents; i++) {
			const struct feat_event_desc *e = &f->events[i];
			uint32_t idx = attr_table_add(t, &e->attr, e->attr_size,
			    f->sec[PF_FEAT_EVENT_DESC].offset);

			for (uint32_t j = 0; j < e->nids; j++)
				attr_table_add_id(t, idx, e->ids[j]);
			if (e->name != NULL)
				set_attr_name(&t->v[idx], e->name);
		}
		return;
	}
	for (uint32_t i = 0; i < f->nevents; i++) {
		const struct feat_event_desc *e = &f->events[i];
		int idx = -1;

		if (e->name == NULL)
			continue;
		/* Like perf: by position (older perf: by the first id). */
		if (i < t->n)
			idx = (int)i;
		for (uint32_t j = 0; j < e->nids && idx < 0; j++)
			idx = attr_table_find_id(t, e->ids[j]);
		if (idx >= 0)
			set_attr_name(&t->v[idx], e->name);
	}
}

static void
free_topology(struct features *f)
{
	free_strv(f->sibling_cores, f->nr_sibling_cores);
	free_strv(f->sibling_dies, f->nr_sibling_dies);
	free_strv(f->sibling_threads, f->nr_sibling_threads);
	free(f->cpu_ids);
	f->sibling_cores = f->sibling_dies = f->sibling_threads = NULL;
	f->nr_sibling_cores = f->nr_sibling_dies = f->nr_sibling_threads = 0;
	f->cpu_ids = NULL;
	f->ncpu_ids = 0;
}

static int
dec_cpu_topology(struct dec *d)
{
	struct features *f = d->f;
	uint32_t ncpu = f->nr_cpus_avail;
	bool test_socket = true;

	free_topology(f);
	if (rd_strv(d, &f->sibling_cores, &f->nr_sibling_cores, "core siblings") < 0)
		return -1;
	if (rd_strv(d, &f->sibling_threads, &f->nr_sibling_threads, "thread siblings") < 0)
		return -1;
	/* perf before 4.x stops here: no core and socket ids. */
	if (cursor_left(&d->c) == 0)
		return 0;
	if (ncpu == 0 || !fits(&d->c, ncpu, 8))
		return fail(d, "core/socket ids of %" PRIu32 " cpus do not fit in %zu bytes", ncpu,
		    cursor_left(&d->c));
	f->cpu_ids = xcalloc(ncpu, sizeof *f->cpu_ids);
	f->ncpu_ids = ncpu;
	for (uint32_t i = 0; i < ncpu; i++) {
		f->cpu_ids[i].core_id = cursor_u32(&d->c);
		f->cpu_ids[i].socket_id = cursor_u32(&d->c);
	}
	/* perf drops the ids when a socket id exceeds the cpu count (except on
	 * s390 and aarch64, where socket ids are sparse). */
	if (f->arch != NULL && (strncmp(f->arch, "s390", 4) == 0 || strncmp(f->arch, "aarch64", 7) == 0))
		test_socket = false;
	for (uint32_t i = 0; test_socket && i < ncpu; i++) {
		uint32_t sock = f->cpu_ids[i].socket_id;

		if (sock != UINT32_MAX && sock > ncpu) {
			free(f->cpu_ids);
			f->cpu_ids = NULL;
			f->ncpu_ids = 0;
			/* perf stops reading the section here. */
			d->c.pos = d->c.len;
			return 0;
		}
	}
	if (cursor_left(&d->c) == 0)
		return 0;
	if (rd_strv(d, &f->sibling_dies, &f->nr_sibling_dies, "die siblings") < 0)
		return -1;
	if (!fits(&d->c, ncpu, 4))
		return fail(d, "die ids of %" PRIu32 " cpus do not fit in %zu bytes", ncpu,
		    cursor_left(&d->c));
	for (uint32_t i = 0; i < ncpu; i++)
		f->cpu_ids[i].die_id = cursor_u32(&d->c);
	return 0;
}

static void
free_numa(struct features *f)
{
	for (uint32_t i = 0; i < f->nnuma; i++)
		free(f->numa[i].cpus);
	free(f->numa);
	f->numa = NULL;
	f->nnuma = 0;
}

static int
dec_numa(struct dec *d)
{
	struct features *f = d->f;
	uint32_t nr;

	free_numa(f);
	nr = cursor_u32(&d->c);
	if (d->c.bad)
		return fail(d, "truncated");
	if (!fits(&d->c, nr, 24))
		return fail(d, "%" PRIu32 " nodes cannot fit in %zu bytes", nr, cursor_left(&d->c));
	f->numa = xcalloc(nr ? nr : 1, sizeof *f->numa);
	for (uint32_t i = 0; i < nr; i++) {
		struct feat_numa_node *n = &f->numa[i];

		n->node = cursor_u32(&d->c);
		n->mem_total = cursor_u64(&d->c);
		n->mem_free = cursor_u64(&d->c);
		n->cpus = rd_str(&d->c);
		if (n->cpus == NULL)
			return fail(d, "node %" PRIu32 " truncated", i);
		f->nnuma = i + 1;
	}
	return 0;
}

static void
free_pmus(struct features *f)
{
	for (uint32_t i = 0; i < f->npmus; i++)
		free(f->pmus[i].name);
	free(f->pmus);
	f->pmus = NULL;
	f->npmus = 0;
}

static int
dec_pmu_mappings(struct dec *d)
{
	struct features *f = d->f;
	uint32_t nr;

	free_pmus(f);
	nr = cursor_u32(&d->c);
	if (d->c.bad)
		return fail(d, "truncated");
	if (!fits(&d->c, nr, 8))
		return fail(d, "%" PRIu32 " PMUs cannot fit in %zu bytes", nr, cursor_left(&d->c));
	f->pmus = xcalloc(nr ? nr : 1, sizeof *f->pmus);
	for (uint32_t i = 0; i < nr; i++) {
		f->pmus[i].type = cursor_u32(&d->c);
		f->pmus[i].name = rd_str(&d->c);
		if (f->pmus[i].name == NULL)
			return fail(d, "PMU %" PRIu32 " truncated", i);
		f->npmus = i + 1;
	}
	return 0;
}

static void
free_groups(struct features *f)
{
	for (uint32_t i = 0; i < f->ngroups; i++)
		free(f->groups[i].name);
	free(f->groups);
	f->groups = NULL;
	f->ngroups = 0;
}

static int
dec_group_desc(struct dec *d)
{
	struct features *f = d->f;
	uint32_t nr;

	free_groups(f);
	nr = cursor_u32(&d->c);
	if (d->c.bad)
		return fail(d, "truncated");
	if (!fits(&d->c, nr, 12))
		return fail(d, "%" PRIu32 " groups cannot fit in %zu bytes", nr, cursor_left(&d->c));
	f->groups = xcalloc(nr ? nr : 1, sizeof *f->groups);
	for (uint32_t i = 0; i < nr; i++) {
		struct feat_group *g = &f->groups[i];

		g->name = rd_str(&d->c);
		g->leader_idx = cursor_u32(&d->c);
		g->nr_members = cursor_u32(&d->c);
		if (g->name == NULL || d->c.bad) {
			free(g->name);
			g->name = NULL;
			return fail(d, "group %" PRIu32 " truncated", i);
		}
		f->ngroups = i + 1;
	}
	return 0;
}

static void
free_caches(struct features *f)
{
	for (uint32_t i = 0; i < f->ncaches; i++) {
		free(f->caches[i].type);
		free(f->caches[i].size);
		free(f->caches[i].map);
	}
	free(f->caches);
	f->caches = NULL;
	f->ncaches = 0;
}

static int
dec_cache(struct dec *d)
{
	struct features *f = d->f;
	uint32_t ver, nr;

	free_caches(f);
	ver = cursor_u32(&d->c);
	nr = cursor_u32(&d->c);
	if (d->c.bad)
		return fail(d, "truncated");
	f->cache_version = ver;
	if (ver != 1)
		return fail(d, "unknown cache info version %" PRIu32, ver);
	if (!fits(&d->c, nr, 28))
		return fail(d, "%" PRIu32 " caches cannot fit in %zu bytes", nr, cursor_left(&d->c));
	f->caches = xcalloc(nr ? nr : 1, sizeof *f->caches);
	for (uint32_t i = 0; i < nr; i++) {
		struct feat_cache *c = &f->caches[i];

		c->level = cursor_u32(&d->c);
		c->line_size = cursor_u32(&d->c);
		c->sets = cursor_u32(&d->c);
		c->ways = cursor_u32(&d->c);
		c->type = rd_str(&d->c);
		c->size = c->type ? rd_str(&d->c) : NULL;
		c->map = c->size ? rd_str(&d->c) : NULL;
		f->ncaches = i + 1;
		if (c->map == NULL)
			return fail(d, "cache %" PRIu32 " truncated", i);
	}
	return 0;
}

static int
dec_sample_time(struct dec *d)
{
	uint64_t first = cursor_u64(&d->c), last = cursor_u64(&d->c);

	if (d->c.bad)
		return fail(d, "truncated");
	d->f->sample_time_first = first;
	d->f->sample_time_last = last;
	return 0;
}

static void
free_mem(struct features *f)
{
	for (uint64_t i = 0; i < f->nmem_nodes; i++)
		free(f->mem_nodes[i].bits);
	free(f->mem_nodes);
	f->mem_nodes = NULL;
	f->nmem_nodes = 0;
}

static int
dec_mem_topology(struct dec *d)
{
	struct features *f = d->f;
	uint64_t ver, bsize, nr;

	free_mem(f);
	ver = cursor_u64(&d->c);
	bsize = cursor_u64(&d->c);
	nr = cursor_u64(&d->c);
	if (d->c.bad)
		return fail(d, "truncated");
	f->mem_version = ver;
	if (ver != 1)
		return fail(d, "unknown memory topology version %" PRIu64, ver);
	f->mem_block_size = bsize;
	if (!fits(&d->c, nr, 24))
		return fail(d, "%" PRIu64 " memory nodes cannot fit in %zu bytes", nr,
		    cursor_left(&d->c));
	f->mem_nodes = xcalloc(nr ? nr : 1, sizeof *f->mem_nodes);
	for (uint64_t i = 0; i < nr; i++) {
		struct feat_mem_node *n = &f->mem_nodes[i];
		uint64_t words;

		n->node = cursor_u64(&d->c);
		n->size = cursor_u64(&d->c);
		n->nbits = cursor_u64(&d->c);
		if (d->c.bad)
			return fail(d, "memory node %" PRIu64 " truncated", i);
		words = n->nbits / 64 + (n->nbits % 64 != 0);
		if (!fits(&d->c, words, 8)) {
			n->nbits = 0;
			return fail(d, "memory node %" PRIu64 ": bitmap of %" PRIu64
			    " bits does not fit", i, n->nbits);
		}
		n->bits = xcalloc(words ? words : 1, sizeof *n->bits);
		for (uint64_t w = 0; w < words; w++)
			n->bits[w] = cursor_u64(&d->c);
		f->nmem_nodes = i + 1;
	}
	return 0;
}

static int
dec_u64(struct dec *d, uint64_t *dst)
{
	uint64_t v = cursor_u64(&d->c);

	if (d->c.bad)
		return fail(d, "truncated");
	*dst = v;
	return 0;
}

static int
dec_compressed(struct dec *d)
{
	struct features *f = d->f;
	uint32_t v[5];

	for (int i = 0; i < 5; i++)
		v[i] = cursor_u32(&d->c);
	if (d->c.bad)
		return fail(d, "truncated");
	f->comp_ver = v[0];
	f->comp_type = v[1];
	f->comp_level = v[2];
	f->comp_ratio = v[3];
	f->comp_mmap_len = v[4];
	return 0;
}

static void
free_caps(struct feat_pmu_caps *p)
{
	free(p->pmu_name);
	free_strv(p->caps, p->nr_caps);
	memset(p, 0, sizeof *p);
}

/* nr_caps, then name/value string pairs kept as "name=value". */
static int
rd_caps(struct dec *d, struct feat_pmu_caps *p)
{
	uint32_t nr = cursor_u32(&d->c);

	if (d->c.bad)
		return fail(d, "truncated");
	if (!fits(&d->c, nr, 8))
		return fail(d, "%" PRIu32 " capabilities cannot fit in %zu bytes", nr,
		    cursor_left(&d->c));
	p->caps = xcalloc(nr ? nr : 1, sizeof *p->caps);
	for (uint32_t i = 0; i < nr; i++) {
		char *name = rd_str(&d->c), *val = name ? rd_str(&d->c) : NULL;
		size_t len;

		if (val == NULL) {
			free(name);
			return fail(d, "capability %" PRIu32 " truncated", i);
		}
		len = strlen(name) + strlen(val) + 2;
		p->caps[i] = xmalloc(len);
		snprintf(p->caps[i], len, "%s=%s", name, val);
		free(name);
		free(val);
		p->nr_caps = i + 1;
	}
	return 0;
}

static int
dec_cpu_pmu_caps(struct dec *d)
{
	free_caps(&d->f->cpu_pmu_caps);
	return rd_caps(d, &d->f->cpu_pmu_caps);
}

static void
free_pmu_caps(struct features *f)
{
	for (uint32_t i = 0; i < f->npmu_caps; i++)
		free_caps(&f->pmu_caps[i]);
	free(f->pmu_caps);
	f->pmu_caps = NULL;
	f->npmu_caps = 0;
}

static int
dec_pmu_caps(struct dec *d)
{
	struct features *f = d->f;
	uint32_t nr;

	free_pmu_caps(f);
	nr = cursor_u32(&d->c);
	if (d->c.bad)
		return fail(d, "truncated");
	if (!fits(&d->c, nr, 8))
		return fail(d, "%" PRIu32 " PMUs cannot fit in %zu bytes", nr, cursor_left(&d->c));
	f->pmu_caps = xcalloc(nr ? nr : 1, sizeof *f->pmu_caps);
	for (uint32_t i = 0; i < nr; i++) {
		struct feat_pmu_caps *p = &f->pmu_caps[i];

		f->npmu_caps = i + 1;
		if (rd_caps(d, p) < 0)
			return -1;
		p->pmu_name = rd_str(&d->c);
		if (p->pmu_name == NULL)
			return fail(d, "PMU %" PRIu32 ": name truncated", i);
	}
	return 0;
}

static int
dec_clock_data(struct dec *d)
{
	struct features *f = d->f;
	uint32_t ver = cursor_u32(&d->c), clk = cursor_u32(&d->c);
	uint64_t tod = cursor_u64(&d->c), cns = cursor_u64(&d->c);

	if (d->c.bad)
		return fail(d, "truncated");
	f->clock_data_ver = ver;
	if (ver != 1)
		return fail(d, "unknown clock data version %" PRIu32, ver);
	f->clock_data_clockid = clk;
	f->clock_data_tod_ns = tod;
	f->clock_data_clockid_ns = cns;
	return 0;
}

static void
free_hybrid(struct features *f)
{
	for (uint32_t i = 0; i < f->nhybrid; i++) {
		free(f->hybrid[i].pmu_name);
		free(f->hybrid[i].cpus);
	}
	free(f->hybrid);
	f->hybrid = NULL;
	f->nhybrid = 0;
}

static int
dec_hybrid(struct dec *d)
{
	struct features *f = d->f;
	uint32_t nr;

	free_hybrid(f);
	nr = cursor_u32(&d->c);
	if (d->c.bad)
		return fail(d, "truncated");
	if (!fits(&d->c, nr, 8))
		return fail(d, "%" PRIu32 " nodes cannot fit in %zu bytes", nr, cursor_left(&d->c));
	f->hybrid = xcalloc(nr ? nr : 1, sizeof *f->hybrid);
	for (uint32_t i = 0; i < nr; i++) {
		struct feat_hybrid_node *n = &f->hybrid[i];

		f->nhybrid = i + 1;
		n->pmu_name = rd_str(&d->c);
		n->cpus = n->pmu_name ? rd_str(&d->c) : NULL;
		if (n->cpus == NULL)
			return fail(d, "node %" PRIu32 " truncated", i);
	}
	return 0;
}

static void
free_auxtrace(struct features *f)
{
	free(f->auxtrace_off);
	free(f->auxtrace_size);
	f->auxtrace_off = f->auxtrace_size = NULL;
	f->nauxtrace = 0;
}

static int
dec_auxtrace(struct dec *d)
{
	struct features *f = d->f;
	uint64_t nr;

	free_auxtrace(f);
	nr = cursor_u64(&d->c);
	if (d->c.bad)
		return fail(d, "truncated");
	if (!fits(&d->c, nr, 16))
		return fail(d, "%" PRIu64 " index entries cannot fit in %zu bytes", nr,
		    cursor_left(&d->c));
	f->auxtrace_off = xcalloc(nr ? nr : 1, sizeof *f->auxtrace_off);
	f->auxtrace_size = xcalloc(nr ? nr : 1, sizeof *f->auxtrace_size);
	for (uint64_t i = 0; i < nr; i++) {
		f->auxtrace_off[i] = cursor_u64(&d->c);
		f->auxtrace_size[i] = cursor_u64(&d->c);
	}
	f->nauxtrace = nr;
	return 0;
}

/* ---- BPF ---- */

static void
free_bpf(struct features *f)
{
	for (uint32_t i = 0; i < f->nbpf_progs; i++)
		free(f->bpf_progs[i].subs);
	free(f->bpf_progs);
	f->bpf_progs = NULL;
	f->nbpf_progs = 0;
	f->bpf_prog_count = 0;
}

static void
free_btf(struct features *f)
{
	for (uint32_t i = 0; i < f->nbtfs; i++)
		free(f->btfs[i].data);
	free(f->btfs);
	f->btfs = NULL;
	f->nbtfs = 0;
	f->btf_count = 0;
}

/* Whether the array of nr elements of size each at offset off lies in
 * data[0, len). */
static bool
arr_ok(uint64_t off, uint64_t nr, uint64_t each, uint64_t len)
{
	return off <= len && nr <= (len - off) / each;
}

/* One struct perf_bpil: u32 info_len, u32 data_len, u64 arrays, info, data. */
static int
rd_bpf_prog(struct dec *d, struct feat_bpf_prog *out)
{
	struct bpf_prog_info info;
	uint32_t info_len = cursor_u32(&d->c), data_len = cursor_u32(&d->c);
	const uint8_t *ip, *dp;
	uint32_t n;

	(void)cursor_u64(&d->c);	/* arrays */
	if (d->c.bad)
		return -1;
	ip = cursor_take(&d->c, info_len);
	dp = ip ? cursor_take(&d->c, data_len) : NULL;
	if (dp == NULL)
		return -1;
	memset(&info, 0, sizeof info);
	memcpy(&info, ip, info_len < sizeof info ? info_len : sizeof info);
	memset(out, 0, sizeof *out);
	out->id = info.id;
	out->btf_id = info.btf_id;
	memcpy(out->name, info.name, sizeof info.name);
	out->name[sizeof out->name - 1] = '\0';
	n = info.nr_jited_ksyms;
	if (n != info.nr_prog_tags || n != info.nr_jited_func_lens || n == 0)
		return 0;
	/* Array pointers were written as offsets into data. */
	if (!arr_ok(info.jited_ksyms, n, 8, data_len) ||
	    !arr_ok(info.jited_func_lens, n, 4, data_len) ||
	    !arr_ok(info.prog_tags, n, 8, data_len))
		return 0;
	out->subs = xcalloc(n, sizeof *out->subs);
	out->nsubs = n;
	for (uint32_t i = 0; i < n; i++) {
		struct feat_bpf_sub *s = &out->subs[i];

		memcpy(&s->addr, dp + info.jited_ksyms + 8 * i, 8);
		memcpy(&s->len, dp + info.jited_func_lens + 4 * i, 4);
		memcpy(s->tag, dp + info.prog_tags + 8 * i, 8);
	}
	if (info.func_info_rec_size >= 8 && info.nr_func_info >= n &&
	    arr_ok(info.func_info, n, info.func_info_rec_size, data_len)) {
		for (uint32_t i = 0; i < n; i++)
			memcpy(&out->subs[i].btf_type_id,
			    dp + info.func_info + (uint64_t)i * info.func_info_rec_size + 4, 4);
		out->has_func_info = true;
	}
	out->printable = true;
	return 0;
}

static int
cmp_prog(const void *a, const void *b)
{
	const struct feat_bpf_prog *x = a, *y = b;

	if (x->id != y->id)
		return x->id < y->id ? -1 : 1;
	return x->seq < y->seq ? -1 : x->seq > y->seq;
}

static int
cmp_btf(const void *a, const void *b)
{
	const struct feat_btf *x = a, *y = b;

	if (x->id != y->id)
		return x->id < y->id ? -1 : 1;
	return x->seq < y->seq ? -1 : x->seq > y->seq;
}

/* Sort by id and drop later duplicates, as perf's rb-tree insert does. */
static void
sort_progs(struct features *f)
{
	uint32_t k = 0;

	for (uint32_t i = 0; i < f->nbpf_progs; i++)
		f->bpf_progs[i].seq = i;
	if (f->nbpf_progs > 1)
		qsort(f->bpf_progs, f->nbpf_progs, sizeof *f->bpf_progs, cmp_prog);
	for (uint32_t i = 0; i < f->nbpf_progs; i++) {
		if (k > 0 && f->bpf_progs[k - 1].id == f->bpf_progs[i].id) {
			free(f->bpf_progs[i].subs);
			continue;
		}
		f->bpf_progs[k++] = f->bpf_progs[i];
	}
	f->nbpf_progs = k;
}

static void
sort_btfs(struct features *f)
{
	uint32_t k = 0;

	for (uint32_t i = 0; i < f->nbtfs; i++)
		f->btfs[i].seq = i;
	if (f->nbtfs > 1)
		qsort(f->btfs, f->nbtfs, sizeof *f->btfs, cmp_btf);
	for (uint32_t i = 0; i < f->nbtfs; i++) {
		if (k > 0 && f->btfs[k - 1].id == f->btfs[i].id) {
			free(f->btfs[i].data);
			continue;
		}
		f->btfs[k++] = f->btfs[i];
	}
	f->nbtfs = k;
}

static int
dec_bpf_prog_info(struct dec *d)
{
	struct features *f = d->f;
	uint32_t nr;
	uint32_t k = 0;

	free_bpf(f);
	nr = cursor_u32(&d->c);
	if (d->c.bad)
		return fail(d, "truncated");
	f->bpf_prog_count = nr;
	if (d->c.swap) {
		/* perf does not interpret BPF info of the other byte order. */
		d->c.pos = d->c.len;
		return 0;
	}
	if (!fits(&d->c, nr, 16))
		return fail(d, "%" PRIu32 " programs cannot fit in %zu bytes", nr, cursor_left(&d->c));
	f->bpf_progs = xcalloc(nr ? nr : 1, sizeof *f->bpf_progs);
	for (uint32_t i = 0; i < nr; i++) {
		if (rd_bpf_prog(d, &f->bpf_progs[k]) < 0) {
			f->nbpf_progs = k;
			return fail(d, "program %" PRIu32 " of %" PRIu32 " truncated", i, nr);
		}
		k++;
	}
	f->nbpf_progs = k;
	sort_progs(f);
	return 0;
}

static int
dec_bpf_btf(struct dec *d)
{
	struct features *f = d->f;
	uint32_t nr;

	free_btf(f);
	nr = cursor_u32(&d->c);
	if (d->c.bad)
		return fail(d, "truncated");
	f->btf_count = nr;
	if (d->c.swap) {
		d->c.pos = d->c.len;
		return 0;
	}
	if (!fits(&d->c, nr, 8))
		return fail(d, "%" PRIu32 " BTF entries cannot fit in %zu bytes", nr, cursor_left(&d->c));
	f->btfs = xcalloc(nr ? nr : 1, sizeof *f->btfs);
	for (uint32_t i = 0; i < nr; i++) {
		struct feat_btf *b = &f->btfs[i];
		uint32_t id = cursor_u32(&d->c), size = cursor_u32(&d->c);
		const uint8_t *p = cursor_take(&d->c, size);

		if (p == NULL) {
			sort_btfs(f);
			return fail(d, "BTF entry %" PRIu32 " of %" PRIu32 " truncated", i, nr);
		}
		b->id = id;
		b->size = size;
		b->data = xmalloc(size ? size : 1);
		memcpy(b->data, p, size);
		f->nbtfs = i + 1;
	}
	sort_btfs(f);
	return 0;
}

/* Extra bytes after a struct btf_type of a kind, or -1 if unknown. */
static int64_t
btf_extra(uint32_t info)
{
	uint32_t kind = (info >> 24) & 0x1f, vlen = info & 0xffff;

	switch (kind) {
	case 1:	/* INT */
	case 14:	/* VAR */
	case 17:	/* DECL_TAG */
		return 4;
	case 3:	/* ARRAY */
		return 12;
	case 4:	/* STRUCT */
	case 5:	/* UNION */
	case 15:	/* DATASEC */
	case 19:	/* ENUM64 */
		return 12 * (int64_t)vlen;
	case 6:	/* ENUM */
	case 13:	/* FUNC_PROTO */
		return 8 * (int64_t)vlen;
	case 2: case 7: case 8: case 9: case 10: case 11: case 12: case 16: case 18:
		return 0;
	default:
		return -1;
	}
}

/* Name of BTF type id in blob b, or NULL if the blob does not parse. */
static const char *
btf_type_name(const struct feat_btf *b, uint32_t type_id)
{
	const uint8_t *p = b->data;
	uint32_t hdr_len, type_off, type_len, str_off, str_len, name_off = 0;
	const uint8_t *types, *strs;
	uint64_t pos = 0;
	uint32_t id = 1;

	if (b->size < 24 || rd16(p, false) != 0xeb9f)
		return NULL;
	hdr_len = rd32(p + 4, false);
	type_off = rd32(p + 8, false);
	type_len = rd32(p + 12, false);
	str_off = rd32(p + 16, false);
	str_len = rd32(p + 20, false);
	if (hdr_len > b->size || (uint64_t)type_off + type_len > b->size - hdr_len ||
	    (uint64_t)str_off + str_len > b->size - hdr_len || str_len == 0)
		return NULL;
	types = p + hdr_len + type_off;
	strs = p + hdr_len + str_off;
	if (type_id == 0)
		return NULL;
	for (;;) {
		uint32_t info;
		int64_t extra;

		if (pos + 12 > type_len)
			return NULL;
		info = rd32(types + pos + 4, false);
		extra = btf_extra(info);
		if (extra < 0)
			return NULL;
		if (id == type_id) {
			name_off = rd32(types + pos, false);
			break;
		}
		pos += 12 + (uint64_t)extra;
		id++;
	}
	if (name_off >= str_len || memchr(strs + name_off, '\0', str_len - name_off) == NULL)
		return NULL;
	return (const char *)strs + name_off;
}

static const struct feat_btf *
find_btf(const struct features *f, uint32_t id)
{
	size_t lo = 0, hi = f->nbtfs;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (f->btfs[mid].id == id)
			return &f->btfs[mid];
		if (f->btfs[mid].id < id)
			lo = mid + 1;
		else
			hi = mid;
	}
	return NULL;
}

void
features_bpf_prog_name(const struct features *f, const struct feat_bpf_prog *p, uint32_t i,
    char *buf, size_t n)
{
	const struct feat_btf *b = p->btf_id ? find_btf(f, p->btf_id) : NULL;
	const char *shortname = NULL;
	size_t len;

	if (n == 0)
		return;
	if (i >= p->nsubs) {
		buf[0] = '\0';
		return;
	}
	len = (size_t)snprintf(buf, n, "bpf_prog_");
	for (int k = 0; k < 8 && len < n; k++)
		len += (size_t)snprintf(buf + len, n - len, "%02x", p->subs[i].tag[k]);
	if (b != NULL && btf_type_name(b, 1) != NULL) {
		/* perf names sub-programs from BTF when it can read the blob. */
		if (p->has_func_info)
			shortname = btf_type_name(b, p->subs[i].btf_type_id);
		if (shortname == NULL)
			shortname = "F";
	} else if (i == 0 && p->nsubs == 1) {
		if (p->name[0] != '\0')
			shortname = p->name;
	} else {
		shortname = "F";
	}
	if (shortname != NULL && len < n)
		snprintf(buf + len, n - len, "_%s", shortname);
}

/* ---- TRACING_DATA: kept raw, tracepoint names picked out ---- */

struct tcur {
	const uint8_t	*p;
	size_t		 len, pos;
	bool		 swap, bad;
};

static const uint8_t *
t_take(struct tcur *t, uint64_t n)
{
	const uint8_t *p;

	if (t->bad || n > t->len - t->pos) {
		t->bad = true;
		return NULL;
	}
	p = t->p + t->pos;
	t->pos += n;
	return p;
}

static uint64_t
t_u64(struct tcur *t)
{
	const uint8_t *p = t_take(t, 8);

	return p ? rd64(p, t->swap) : 0;
}

static uint32_t
t_u32(struct tcur *t)
{
	const uint8_t *p = t_take(t, 4);

	return p ? rd32(p, t->swap) : 0;
}

/* A NUL-terminated string; NULL if none. */
static const char *
t_cstr(struct tcur *t)
{
	const uint8_t *s;
	const uint8_t *z;

	if (t->bad)
		return NULL;
	s = t->p + t->pos;
	z = memchr(s, '\0', t->len - t->pos);
	if (z == NULL) {
		t->bad = true;
		return NULL;
	}
	t->pos += (size_t)(z - s) + 1;
	return (const char *)s;
}

/* Value of "key: value" at the start of a line in a format text. */
static bool
fmt_field(const uint8_t *p, size_t len, const char *key, char *out, size_t outsz)
{
	size_t kl = strlen(key);

	for (size_t i = 0; i + kl <= len; i++) {
		if ((i == 0 || p[i - 1] == '\n') && memcmp(p + i, key, kl) == 0) {
			size_t j = i + kl, k = 0;

			while (j < len && p[j] == ' ')
				j++;
			while (j < len && p[j] != '\n' && p[j] != '\0' && k + 1 < outsz)
				out[k++] = (char)p[j++];
			out[k] = '\0';
			return true;
		}
	}
	return false;
}

static void
free_tracing(struct features *f)
{
	for (uint32_t i = 0; i < f->ntracepoints; i++)
		free(f->tracepoints[i].name);
	free(f->tracepoints);
	free(f->tracing_version);
	f->tracepoints = NULL;
	f->ntracepoints = 0;
	f->tracing_version = NULL;
}

static void
add_tracepoint(struct features *f, size_t *cap, const char *sys, const uint8_t *fmt, size_t len)
{
	char name[128], id[32];
	char *end;
	unsigned long long v;
	size_t n;

	if (!fmt_field(fmt, len, "name:", name, sizeof name) || !fmt_field(fmt, len, "ID:", id, sizeof id))
		return;
	v = strtoull(id, &end, 10);
	if (end == id)
		return;
	GROW(f->tracepoints, *cap, f->ntracepoints + 1);
	n = strlen(sys) + strlen(name) + 2;
	f->tracepoints[f->ntracepoints].id = v;
	f->tracepoints[f->ntracepoints].name = xmalloc(n);
	snprintf(f->tracepoints[f->ntracepoints].name, n, "%s:%s", sys, name);
	f->ntracepoints++;
}

/* Returns 0 if the layout parsed up to the event formats. */
static int
parse_tracing(struct features *f, const uint8_t *p, size_t len)
{
	static const uint8_t magic[] = { 0x17, 0x08, 0x44, 't', 'r', 'a', 'c', 'i', 'n', 'g' };
	struct tcur t = { p, len, 0, false, false };
	const uint8_t *b;
	const char *ver;
	uint32_t n, nsys;
	size_t cap = 0;
	bool host_big = 0x0102 == rd16((const uint8_t[]){ 1, 2 }, false);

	b = t_take(&t, sizeof magic);
	if (b == NULL || memcmp(b, magic, sizeof magic) != 0)
		return -1;
	ver = t_cstr(&t);
	if (ver == NULL)
		return -1;
	f->tracing_version = xstrdup(ver);
	b = t_take(&t, 2);	/* big-endian flag, sizeof(long) */
	if (b == NULL)
		return -1;
	t.swap = (b[0] != 0) != host_big;
	(void)t_u32(&t);	/* page size */
	b = t_take(&t, 12);
	if (b == NULL || memcmp(b, "header_page", 12) != 0)
		return -1;
	(void)t_take(&t, t_u64(&t));
	b = t_take(&t, 13);
	if (b == NULL || memcmp(b, "header_event", 13) != 0)
		return -1;
	(void)t_take(&t, t_u64(&t));
	n = t_u32(&t);		/* ftrace formats */
	for (uint32_t i = 0; i < n && !t.bad; i++)
		(void)t_take(&t, t_u64(&t));
	nsys = t_u32(&t);
	for (uint32_t s = 0; s < nsys && !t.bad; s++) {
		const char *sys = t_cstr(&t);
		uint32_t nev = t_u32(&t);

		for (uint32_t i = 0; i < nev && !t.bad; i++) {
			uint64_t sz = t_u64(&t);
			const uint8_t *fmt = t_take(&t, sz);

			if (fmt != NULL && sys != NULL)
				add_tracepoint(f, &cap, sys, fmt, (size_t)sz);
		}
	}
	return t.bad ? -1 : 0;
}

const char *
features_tracepoint_name(const struct features *f, uint64_t config)
{
	for (uint32_t i = 0; i < f->ntracepoints; i++)
		if (f->tracepoints[i].id == config)
			return f->tracepoints[i].name;
	return NULL;
}

/* ---- BUILD_ID ---- */

void
features_add_build_id(struct features *f, int32_t pid, uint16_t misc, const uint8_t *id,
    size_t id_len, const char *filename, size_t filename_max)
{
	struct feat_build_id *b;

	GROW(f->build_ids, f->cap_build_ids, f->n_build_ids + 1);
	b = &f->build_ids[f->n_build_ids++];
	memset(b, 0, sizeof *b);
	b->pid = pid;
	b->misc = misc;
	if (id_len > sizeof b->id)
		id_len = sizeof b->id;
	memcpy(b->id, id, id_len);
	b->id_len = (uint8_t)id_len;
	b->filename = xstrndup(filename, strnlen(filename, filename_max));
}

static int
dec_build_id(struct dec *d)
{
	uint32_t n = 0;

	while (cursor_left(&d->c) > 0) {
		size_t start = d->c.pos;
		const uint8_t *h = cursor_take(&d->c, 8);
		uint16_t misc, size;
		const uint8_t *b;
		size_t id_len = 20;

		if (h == NULL)
			return fail(d, "record %" PRIu32 ": truncated header", n);
		misc = rd16(h + 4, d->c.swap);
		size = rd16(h + 6, d->c.swap);
		if (size < 8 + 4 + 24)
			return fail(d, "record %" PRIu32 " at +0x%zx: size %u is too small", n, start,
			    size);
		b = cursor_take(&d->c, size - 8u);
		if (b == NULL)
			return fail(d, "record %" PRIu32 " at +0x%zx: size %u runs past the section",
			    n, start, size);
		if ((misc & PF_MISC_BUILD_ID_SIZE) && b[4 + 20] <= 20)
			id_len = b[4 + 20];
		features_add_build_id(d->f, (int32_t)rd32(b, d->c.swap), misc, b + 4, id_len,
		    (const char *)b + 28, size - 8u - 28u);
		n++;
	}
	return 0;
}

/* ---- dispatch ---- */

static int
decode(struct dec *d, unsigned bit)
{
	struct features *f = d->f;

	switch (bit) {
	case PF_FEAT_BUILD_ID:
		return dec_build_id(d);
	case PF_FEAT_HOSTNAME:
		return dec_string(d, &f->hostname);
	case PF_FEAT_OSRELEASE:
		return dec_string(d, &f->osrelease);
	case PF_FEAT_VERSION:
		return dec_string(d, &f->version);
	case PF_FEAT_ARCH:
		return dec_string(d, &f->arch);
	case PF_FEAT_NRCPUS:
		return dec_nrcpus(d);
	case PF_FEAT_CPUDESC:
		return dec_string(d, &f->cpudesc);
	case PF_FEAT_CPUID:
		return dec_string(d, &f->cpuid);
	case PF_FEAT_TOTAL_MEM:
		return dec_total_mem(d);
	case PF_FEAT_CMDLINE:
		return dec_cmdline(d);
	case PF_FEAT_EVENT_DESC:
		return dec_event_desc(d);
	case PF_FEAT_CPU_TOPOLOGY:
		return dec_cpu_topology(d);
	case PF_FEAT_NUMA_TOPOLOGY:
		return dec_numa(d);
	case PF_FEAT_BRANCH_STACK:
	case PF_FEAT_STAT:
		return 0;
	case PF_FEAT_PMU_MAPPINGS:
		return dec_pmu_mappings(d);
	case PF_FEAT_GROUP_DESC:
		return dec_group_desc(d);
	case PF_FEAT_AUXTRACE:
		return dec_auxtrace(d);
	case PF_FEAT_CACHE:
		return dec_cache(d);
	case PF_FEAT_SAMPLE_TIME:
		return dec_sample_time(d);
	case PF_FEAT_MEM_TOPOLOGY:
		return dec_mem_topology(d);
	case PF_FEAT_CLOCKID:
		return dec_u64(d, &f->clockid_res_ns);
	case PF_FEAT_DIR_FORMAT:
		return dec_u64(d, &f->dir_format_version);
	case PF_FEAT_BPF_PROG_INFO:
		return dec_bpf_prog_info(d);
	case PF_FEAT_BPF_BTF:
		return dec_bpf_btf(d);
	case PF_FEAT_COMPRESSED:
		return dec_compressed(d);
	case PF_FEAT_CPU_PMU_CAPS:
		return dec_cpu_pmu_caps(d);
	case PF_FEAT_CLOCK_DATA:
		return dec_clock_data(d);
	case PF_FEAT_HYBRID_TOPOLOGY:
		return dec_hybrid(d);
	case PF_FEAT_PMU_CAPS:
		return dec_pmu_caps(d);
	default:
		return 0;
	}
}

static void
set_status(struct feat_sec *fs, enum feat_status st, const char *why)
{
	free(fs->why);
	fs->why = why ? xstrdup(why) : NULL;
	fs->status = st;
}

void
feature_decode(struct features *f, unsigned bit, const uint8_t *p, size_t len, bool swap,
    uint64_t off, struct attr_table *attrs, struct diag_list *diags)
{
	struct feat_sec *fs;
	struct dec d;
	int rc;

	if (bit >= PF_FEAT_BITS)
		return;
	fs = &f->sec[bit];
	fs->present = true;
	fs->offset = off;
	fs->size = len;
	if (f->norder < PF_FEAT_BITS) {
		bool seen = false;

		for (uint32_t i = 0; i < f->norder; i++)
			seen |= f->order[i] == bit;
		if (!seen)
			f->order[f->norder++] = (uint16_t)bit;
	}
	if (p == NULL && len > 0) {
		set_status(fs, FEAT_MISSING, "section lies beyond the end of the file");
		goto diag;
	}
	if (bit == PF_FEAT_LAST_KNOWN + 1 && len == 0) {
		/* Pipe mode: perf ends its HEADER_FEATURE records with this bit. */
		set_status(fs, FEAT_RAW, "end of the feature records (HEADER_LAST_FEATURE)");
		return;
	}
	if (bit == 0 || bit > PF_FEAT_LAST_KNOWN) {
		set_status(fs, FEAT_RAW, "feature bit unknown to perfnav");
		return;
	}
	if (bit == PF_FEAT_TRACING_DATA) {
		free_tracing(f);
		set_status(fs, FEAT_RAW, parse_tracing(f, p, len) < 0 ?
		    "tracing data kept raw (its layout did not parse)" : NULL);
		return;
	}
	if (len == 0 && bit != PF_FEAT_BRANCH_STACK && bit != PF_FEAT_STAT) {
		set_status(fs, FEAT_MISSING, "section is empty");
		goto diag;
	}

	memset(&d, 0, sizeof d);
	cursor_init(&d.c, p, len, swap);
	d.f = f;
	rc = decode(&d, bit);
	if (rc < 0) {
		if (d.why[0] == '\0')
			snprintf(d.why, sizeof d.why, "truncated");
		set_status(fs, FEAT_UNDECODABLE, d.why);
		goto diag;
	}
	if (cursor_left(&d.c) > 0) {
		size_t left = cursor_left(&d.c);
		bool zero = true;

		for (size_t i = d.c.pos; i < d.c.len && zero; i++)
			zero = p[i] == 0;
		/* Pipe-mode records round up to 8 bytes with zeros. */
		if (zero && left < 8) {
			set_status(fs, FEAT_OK, NULL);
		} else {
			snprintf(d.why, sizeof d.why, "%zu bytes after the decoded content", left);
			set_status(fs, FEAT_SIZE_MISMATCH, d.why);
			goto diag;
		}
	} else {
		set_status(fs, FEAT_OK, NULL);
	}
	if (bit == PF_FEAT_EVENT_DESC && attrs != NULL)
		features_apply_event_desc(f, attrs, false);
	return;
diag:
	if (diags != NULL)
		diag_add(diags, DIAG_WARN, 0, off, "feature %s: %s", feat_names[bit], fs->why);
	/* Even a damaged EVENT_DESC names what it could read. */
	if (bit == PF_FEAT_EVENT_DESC && attrs != NULL)
		features_apply_event_desc(f, attrs, false);
}

void
features_free(struct features *f)
{
	for (unsigned i = 0; i < PF_FEAT_BITS; i++)
		free(f->sec[i].why);
	free(f->hostname);
	free(f->osrelease);
	free(f->version);
	free(f->arch);
	free(f->cpudesc);
	free(f->cpuid);
	free_strv(f->cmdline, f->cmdline_n);
	for (size_t i = 0; i < f->n_build_ids; i++)
		free(f->build_ids[i].filename);
	free(f->build_ids);
	free_events(f);
	free_topology(f);
	free_numa(f);
	free_pmus(f);
	free_groups(f);
	free_caches(f);
	free_mem(f);
	free_caps(&f->cpu_pmu_caps);
	free_pmu_caps(f);
	free_hybrid(f);
	free_auxtrace(f);
	free_bpf(f);
	free_btf(f);
	free_tracing(f);
	free(f->priv);
	memset(f, 0, sizeof *f);
}
