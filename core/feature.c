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
#include "core/feature_int.h"
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

int
feat_fail(struct feat_dec *d, const char *fmt, ...)
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

bool
feat_fits(const struct cursor *c, uint64_t nr, size_t each)
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
rd_strv(struct feat_dec *d, char ***out, uint32_t *nout, const char *what)
{
	uint32_t nr = cursor_u32(&d->c);
	char **v;

	*out = NULL;
	*nout = 0;
	if (d->c.bad)
		return feat_fail(d, "truncated before the number of %s", what);
	if (!feat_fits(&d->c, nr, 4))
		return feat_fail(d, "%" PRIu32 " %s cannot fit in %zu bytes", nr, what,
		    cursor_left(&d->c));
	v = xcalloc(nr ? nr : 1, sizeof *v);
	for (uint32_t i = 0; i < nr; i++) {
		v[i] = rd_str(&d->c);
		if (v[i] == NULL) {
			*out = v;
			*nout = i;
			return feat_fail(d, "%s %" PRIu32 " of %" PRIu32 " is truncated", what, i, nr);
		}
	}
	*out = v;
	*nout = nr;
	return 0;
}

/* ---- one decoder per feature ---- */

int
feature_dec_string(struct feat_dec *d)
{
	char **dst = (char **)(void *)((char *)d->f + d->e->str_off);

	free(*dst);
	*dst = rd_str(&d->c);
	if (*dst == NULL)
		return feat_fail(d, "string does not fit in the section");
	return 0;
}

int
feature_dec_nrcpus(struct feat_dec *d)
{
	uint32_t avail = cursor_u32(&d->c), online = cursor_u32(&d->c);

	if (d->c.bad)
		return feat_fail(d, "truncated");
	d->f->nr_cpus_avail = avail;
	d->f->nr_cpus_online = online;
	return 0;
}

int
feature_dec_total_mem(struct feat_dec *d)
{
	uint64_t v = cursor_u64(&d->c);

	if (d->c.bad)
		return feat_fail(d, "truncated");
	d->f->total_mem = v;
	return 0;
}

void
feature_free_cmdline(struct features *f)
{
	free_strv(f->cmdline, f->cmdline_n);
	f->cmdline = NULL;
	f->cmdline_n = 0;
}

int
feature_dec_cmdline(struct feat_dec *d)
{
	free_strv(d->f->cmdline, d->f->cmdline_n);
	return rd_strv(d, &d->f->cmdline, &d->f->cmdline_n, "arguments");
}

void
feature_free_events(struct features *f)
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

int
feature_dec_event_desc(struct feat_dec *d)
{
	struct features *f = d->f;
	uint32_t nre, sz;

	feature_free_events(f);
	nre = cursor_u32(&d->c);
	sz = cursor_u32(&d->c);
	if (d->c.bad)
		return feat_fail(d, "truncated before the event count");
	if (sz < PF_ATTR_SIZE_VER0_MIN)
		return feat_fail(d, "attr size %" PRIu32 " is too small", sz);
	if (!feat_fits(&d->c, nre, (size_t)sz + 8))
		return feat_fail(d, "%" PRIu32 " events of %" PRIu32 " bytes cannot fit in %zu bytes",
		    nre, sz, cursor_left(&d->c));
	f->events = xcalloc(nre ? nre : 1, sizeof *f->events);
	for (uint32_t i = 0; i < nre; i++) {
		struct feat_event_desc *e = &f->events[i];
		const uint8_t *ap = cursor_take(&d->c, sz);
		uint32_t nids;

		if (ap == NULL)
			return feat_fail(d, "event %" PRIu32 ": attr truncated", i);
		attr_decode(&e->attr, ap, sz, d->c.swap);
		e->attr_size = sz;
		f->nevents = i + 1;
		nids = cursor_u32(&d->c);
		e->name = rd_str(&d->c);
		if (e->name == NULL)
			return feat_fail(d, "event %" PRIu32 ": name truncated", i);
		if (!feat_fits(&d->c, nids, 8))
			return feat_fail(d, "event %" PRIu32 ": %" PRIu32 " ids cannot fit in %zu bytes",
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

void
feature_free_topology(struct features *f)
{
	free_strv(f->topo.sibling_cores, f->topo.nr_sibling_cores);
	free_strv(f->topo.sibling_dies, f->topo.nr_sibling_dies);
	free_strv(f->topo.sibling_threads, f->topo.nr_sibling_threads);
	free(f->topo.cpu_ids);
	f->topo.sibling_cores = f->topo.sibling_dies = f->topo.sibling_threads = NULL;
	f->topo.nr_sibling_cores = f->topo.nr_sibling_dies = f->topo.nr_sibling_threads = 0;
	f->topo.cpu_ids = NULL;
	f->topo.ncpu_ids = 0;
}

int
feature_dec_cpu_topology(struct feat_dec *d)
{
	struct features *f = d->f;
	uint32_t ncpu = f->nr_cpus_avail;
	bool test_socket = true;

	feature_free_topology(f);
	if (rd_strv(d, &f->topo.sibling_cores, &f->topo.nr_sibling_cores, "core siblings") < 0)
		return -1;
	if (rd_strv(d, &f->topo.sibling_threads, &f->topo.nr_sibling_threads, "thread siblings") < 0)
		return -1;
	/* perf before 4.x stops here: no core and socket ids. */
	if (cursor_left(&d->c) == 0)
		return 0;
	if (ncpu == 0 || !feat_fits(&d->c, ncpu, 8))
		return feat_fail(d, "core/socket ids of %" PRIu32 " cpus do not fit in %zu bytes", ncpu,
		    cursor_left(&d->c));
	f->topo.cpu_ids = xcalloc(ncpu, sizeof *f->topo.cpu_ids);
	f->topo.ncpu_ids = ncpu;
	for (uint32_t i = 0; i < ncpu; i++) {
		f->topo.cpu_ids[i].core_id = cursor_u32(&d->c);
		f->topo.cpu_ids[i].socket_id = cursor_u32(&d->c);
	}
	/* perf drops the ids when a socket id exceeds the cpu count (except on
	 * s390 and aarch64, where socket ids are sparse). */
	if (f->arch != NULL && (strncmp(f->arch, "s390", 4) == 0 || strncmp(f->arch, "aarch64", 7) == 0))
		test_socket = false;
	for (uint32_t i = 0; test_socket && i < ncpu; i++) {
		uint32_t sock = f->topo.cpu_ids[i].socket_id;

		if (sock != UINT32_MAX && sock > ncpu) {
			free(f->topo.cpu_ids);
			f->topo.cpu_ids = NULL;
			f->topo.ncpu_ids = 0;
			/* perf stops reading the section here. */
			d->c.pos = d->c.len;
			return 0;
		}
	}
	if (cursor_left(&d->c) == 0)
		return 0;
	if (rd_strv(d, &f->topo.sibling_dies, &f->topo.nr_sibling_dies, "die siblings") < 0)
		return -1;
	if (!feat_fits(&d->c, ncpu, 4))
		return feat_fail(d, "die ids of %" PRIu32 " cpus do not fit in %zu bytes", ncpu,
		    cursor_left(&d->c));
	for (uint32_t i = 0; i < ncpu; i++)
		f->topo.cpu_ids[i].die_id = cursor_u32(&d->c);
	return 0;
}

void
feature_free_numa(struct features *f)
{
	for (uint32_t i = 0; i < f->topo.nnuma; i++)
		free(f->topo.numa[i].cpus);
	free(f->topo.numa);
	f->topo.numa = NULL;
	f->topo.nnuma = 0;
}

int
feature_dec_numa(struct feat_dec *d)
{
	struct features *f = d->f;
	uint32_t nr;

	feature_free_numa(f);
	nr = cursor_u32(&d->c);
	if (d->c.bad)
		return feat_fail(d, "truncated");
	if (!feat_fits(&d->c, nr, 24))
		return feat_fail(d, "%" PRIu32 " nodes cannot fit in %zu bytes", nr, cursor_left(&d->c));
	f->topo.numa = xcalloc(nr ? nr : 1, sizeof *f->topo.numa);
	for (uint32_t i = 0; i < nr; i++) {
		struct feat_numa_node *n = &f->topo.numa[i];

		n->node = cursor_u32(&d->c);
		n->mem_total = cursor_u64(&d->c);
		n->mem_free = cursor_u64(&d->c);
		n->cpus = rd_str(&d->c);
		if (n->cpus == NULL)
			return feat_fail(d, "node %" PRIu32 " truncated", i);
		f->topo.nnuma = i + 1;
	}
	return 0;
}

void
feature_free_pmus(struct features *f)
{
	for (uint32_t i = 0; i < f->npmus; i++)
		free(f->pmus[i].name);
	free(f->pmus);
	f->pmus = NULL;
	f->npmus = 0;
}

int
feature_dec_pmu_mappings(struct feat_dec *d)
{
	struct features *f = d->f;
	uint32_t nr;

	feature_free_pmus(f);
	nr = cursor_u32(&d->c);
	if (d->c.bad)
		return feat_fail(d, "truncated");
	if (!feat_fits(&d->c, nr, 8))
		return feat_fail(d, "%" PRIu32 " PMUs cannot fit in %zu bytes", nr, cursor_left(&d->c));
	f->pmus = xcalloc(nr ? nr : 1, sizeof *f->pmus);
	for (uint32_t i = 0; i < nr; i++) {
		f->pmus[i].type = cursor_u32(&d->c);
		f->pmus[i].name = rd_str(&d->c);
		if (f->pmus[i].name == NULL)
			return feat_fail(d, "PMU %" PRIu32 " truncated", i);
		f->npmus = i + 1;
	}
	return 0;
}

void
feature_free_groups(struct features *f)
{
	for (uint32_t i = 0; i < f->ngroups; i++)
		free(f->groups[i].name);
	free(f->groups);
	f->groups = NULL;
	f->ngroups = 0;
}

int
feature_dec_group_desc(struct feat_dec *d)
{
	struct features *f = d->f;
	uint32_t nr;

	feature_free_groups(f);
	nr = cursor_u32(&d->c);
	if (d->c.bad)
		return feat_fail(d, "truncated");
	if (!feat_fits(&d->c, nr, 12))
		return feat_fail(d, "%" PRIu32 " groups cannot fit in %zu bytes", nr, cursor_left(&d->c));
	f->groups = xcalloc(nr ? nr : 1, sizeof *f->groups);
	for (uint32_t i = 0; i < nr; i++) {
		struct feat_group *g = &f->groups[i];

		g->name = rd_str(&d->c);
		g->leader_idx = cursor_u32(&d->c);
		g->nr_members = cursor_u32(&d->c);
		if (g->name == NULL || d->c.bad) {
			free(g->name);
			g->name = NULL;
			return feat_fail(d, "group %" PRIu32 " truncated", i);
		}
		f->ngroups = i + 1;
	}
	return 0;
}

void
feature_free_caches(struct features *f)
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

int
feature_dec_cache(struct feat_dec *d)
{
	struct features *f = d->f;
	uint32_t ver, nr;

	feature_free_caches(f);
	ver = cursor_u32(&d->c);
	nr = cursor_u32(&d->c);
	if (d->c.bad)
		return feat_fail(d, "truncated");
	f->cache_version = ver;
	if (ver != 1)
		return feat_fail(d, "unknown cache info version %" PRIu32, ver);
	if (!feat_fits(&d->c, nr, 28))
		return feat_fail(d, "%" PRIu32 " caches cannot fit in %zu bytes", nr, cursor_left(&d->c));
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
			return feat_fail(d, "cache %" PRIu32 " truncated", i);
	}
	return 0;
}

int
feature_dec_sample_time(struct feat_dec *d)
{
	uint64_t first = cursor_u64(&d->c), last = cursor_u64(&d->c);

	if (d->c.bad)
		return feat_fail(d, "truncated");
	d->f->sample_time_first = first;
	d->f->sample_time_last = last;
	return 0;
}

void
feature_free_mem(struct features *f)
{
	for (uint64_t i = 0; i < f->topo.nmem_nodes; i++)
		free(f->topo.mem_nodes[i].bits);
	free(f->topo.mem_nodes);
	f->topo.mem_nodes = NULL;
	f->topo.nmem_nodes = 0;
}

int
feature_dec_mem_topology(struct feat_dec *d)
{
	struct features *f = d->f;
	uint64_t ver, bsize, nr;

	feature_free_mem(f);
	ver = cursor_u64(&d->c);
	bsize = cursor_u64(&d->c);
	nr = cursor_u64(&d->c);
	if (d->c.bad)
		return feat_fail(d, "truncated");
	f->topo.mem_version = ver;
	if (ver != 1)
		return feat_fail(d, "unknown memory topology version %" PRIu64, ver);
	f->topo.mem_block_size = bsize;
	if (!feat_fits(&d->c, nr, 24))
		return feat_fail(d, "%" PRIu64 " memory nodes cannot fit in %zu bytes", nr,
		    cursor_left(&d->c));
	f->topo.mem_nodes = xcalloc(nr ? nr : 1, sizeof *f->topo.mem_nodes);
	for (uint64_t i = 0; i < nr; i++) {
		struct feat_mem_node *n = &f->topo.mem_nodes[i];
		uint64_t words;

		n->node = cursor_u64(&d->c);
		n->size = cursor_u64(&d->c);
		n->nbits = cursor_u64(&d->c);
		if (d->c.bad)
			return feat_fail(d, "memory node %" PRIu64 " truncated", i);
		words = n->nbits / 64 + (n->nbits % 64 != 0);
		if (!feat_fits(&d->c, words, 8)) {
			n->nbits = 0;
			return feat_fail(d, "memory node %" PRIu64 ": bitmap of %" PRIu64
			    " bits does not fit", i, n->nbits);
		}
		n->bits = xcalloc(words ? words : 1, sizeof *n->bits);
		for (uint64_t w = 0; w < words; w++)
			n->bits[w] = cursor_u64(&d->c);
		f->topo.nmem_nodes = i + 1;
	}
	return 0;
}

static int
dec_u64(struct feat_dec *d, uint64_t *dst)
{
	uint64_t v = cursor_u64(&d->c);

	if (d->c.bad)
		return feat_fail(d, "truncated");
	*dst = v;
	return 0;
}

int
feature_dec_clockid(struct feat_dec *d)
{
	return dec_u64(d, &d->f->clockid_res_ns);
}

int
feature_dec_dir_format(struct feat_dec *d)
{
	return dec_u64(d, &d->f->dir_format_version);
}

int
feature_dec_compressed(struct feat_dec *d)
{
	struct features *f = d->f;
	uint32_t v[5];

	for (int i = 0; i < 5; i++)
		v[i] = cursor_u32(&d->c);
	if (d->c.bad)
		return feat_fail(d, "truncated");
	f->comp.comp_ver = v[0];
	f->comp.comp_type = v[1];
	f->comp.comp_level = v[2];
	f->comp.comp_ratio = v[3];
	f->comp.comp_mmap_len = v[4];
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
rd_caps(struct feat_dec *d, struct feat_pmu_caps *p)
{
	uint32_t nr = cursor_u32(&d->c);

	if (d->c.bad)
		return feat_fail(d, "truncated");
	if (!feat_fits(&d->c, nr, 8))
		return feat_fail(d, "%" PRIu32 " capabilities cannot fit in %zu bytes", nr,
		    cursor_left(&d->c));
	p->caps = xcalloc(nr ? nr : 1, sizeof *p->caps);
	for (uint32_t i = 0; i < nr; i++) {
		char *name = rd_str(&d->c), *val = name ? rd_str(&d->c) : NULL;
		size_t len;

		if (val == NULL) {
			free(name);
			return feat_fail(d, "capability %" PRIu32 " truncated", i);
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

int
feature_dec_cpu_pmu_caps(struct feat_dec *d)
{
	free_caps(&d->f->cpu_pmu_caps);
	return rd_caps(d, &d->f->cpu_pmu_caps);
}

void
feature_free_pmu_caps(struct features *f)
{
	for (uint32_t i = 0; i < f->npmu_caps; i++)
		free_caps(&f->pmu_caps[i]);
	free(f->pmu_caps);
	f->pmu_caps = NULL;
	f->npmu_caps = 0;
}

int
feature_dec_pmu_caps(struct feat_dec *d)
{
	struct features *f = d->f;
	uint32_t nr;

	feature_free_pmu_caps(f);
	nr = cursor_u32(&d->c);
	if (d->c.bad)
		return feat_fail(d, "truncated");
	if (!feat_fits(&d->c, nr, 8))
		return feat_fail(d, "%" PRIu32 " PMUs cannot fit in %zu bytes", nr, cursor_left(&d->c));
	f->pmu_caps = xcalloc(nr ? nr : 1, sizeof *f->pmu_caps);
	for (uint32_t i = 0; i < nr; i++) {
		struct feat_pmu_caps *p = &f->pmu_caps[i];

		f->npmu_caps = i + 1;
		if (rd_caps(d, p) < 0)
			return -1;
		p->pmu_name = rd_str(&d->c);
		if (p->pmu_name == NULL)
			return feat_fail(d, "PMU %" PRIu32 ": name truncated", i);
	}
	return 0;
}

void
feature_free_cpu_pmu_caps(struct features *f)
{
	free_caps(&f->cpu_pmu_caps);
}

int
feature_dec_clock_data(struct feat_dec *d)
{
	struct features *f = d->f;
	uint32_t ver = cursor_u32(&d->c), clk = cursor_u32(&d->c);
	uint64_t tod = cursor_u64(&d->c), cns = cursor_u64(&d->c);

	if (d->c.bad)
		return feat_fail(d, "truncated");
	f->clock.clock_data_ver = ver;
	if (ver != 1)
		return feat_fail(d, "unknown clock data version %" PRIu32, ver);
	f->clock.clock_data_clockid = clk;
	f->clock.clock_data_tod_ns = tod;
	f->clock.clock_data_clockid_ns = cns;
	return 0;
}

void
feature_free_hybrid(struct features *f)
{
	for (uint32_t i = 0; i < f->topo.nhybrid; i++) {
		free(f->topo.hybrid[i].pmu_name);
		free(f->topo.hybrid[i].cpus);
	}
	free(f->topo.hybrid);
	f->topo.hybrid = NULL;
	f->topo.nhybrid = 0;
}

int
feature_dec_hybrid(struct feat_dec *d)
{
	struct features *f = d->f;
	uint32_t nr;

	feature_free_hybrid(f);
	nr = cursor_u32(&d->c);
	if (d->c.bad)
		return feat_fail(d, "truncated");
	if (!feat_fits(&d->c, nr, 8))
		return feat_fail(d, "%" PRIu32 " nodes cannot fit in %zu bytes", nr, cursor_left(&d->c));
	f->topo.hybrid = xcalloc(nr ? nr : 1, sizeof *f->topo.hybrid);
	for (uint32_t i = 0; i < nr; i++) {
		struct feat_hybrid_node *n = &f->topo.hybrid[i];

		f->topo.nhybrid = i + 1;
		n->pmu_name = rd_str(&d->c);
		n->cpus = n->pmu_name ? rd_str(&d->c) : NULL;
		if (n->cpus == NULL)
			return feat_fail(d, "node %" PRIu32 " truncated", i);
	}
	return 0;
}

void
feature_free_cpu_domain(struct features *f)
{
	for (uint32_t i = 0; i < f->topo.ndomains; i++) {
		free(f->topo.domains[i].dname);
		free(f->topo.domains[i].cpumask);
		free(f->topo.domains[i].cpulist);
	}
	free(f->topo.domains);
	f->topo.domains = NULL;
	f->topo.ndomains = f->topo.ndomain_cpus = 0;
}

/* One cpu's domains of CPU_DOMAIN_INFO; 0, or -1 with why. */
static int
dec_domain_cpu(struct feat_dec *d, size_t *cap)
{
	struct features *f = d->f;
	uint32_t cpu = cursor_u32(&d->c), nr = cursor_u32(&d->c);

	if (d->c.bad)
		return feat_fail(d, "cpu entry %" PRIu32 " truncated", f->topo.ndomain_cpus);
	/* each domain: its number and at least two string lengths */
	if (!feat_fits(&d->c, nr, 12))
		return feat_fail(d, "cpu %" PRIu32 ": %" PRIu32 " domains cannot fit in %zu bytes",
		    cpu, nr, cursor_left(&d->c));
	f->topo.ndomain_cpus++;
	for (uint32_t j = 0; j < nr; j++) {
		struct feat_domain *dm;

		GROW(f->topo.domains, *cap, f->topo.ndomains + 1);
		dm = &f->topo.domains[f->topo.ndomains++];
		memset(dm, 0, sizeof *dm);
		dm->cpu = cpu;
		dm->domain = cursor_u32(&d->c);
		if (f->topo.schedstat_version >= 17 && (dm->dname = rd_str(&d->c)) == NULL)
			return feat_fail(d, "cpu %" PRIu32 " domain %" PRIu32 " truncated", cpu, j);
		if (d->c.bad || (dm->cpumask = rd_str(&d->c)) == NULL ||
		    (dm->cpulist = rd_str(&d->c)) == NULL)
			return feat_fail(d, "cpu %" PRIu32 " domain %" PRIu32 " truncated", cpu, j);
	}
	return 0;
}

/*
 * CPU_DOMAIN_INFO: schedstat version, max domains, then per cpu its number,
 * domain count and domains (number, name from version 17, cpu mask and
 * cpu list as strings).  perf reads as many cpus as are online; the
 * section's end says it here (a cut inside a cpu's entry is damage).
 */
int
feature_dec_cpu_domain(struct feat_dec *d)
{
	struct features *f = d->f;
	size_t cap = 0;

	feature_free_cpu_domain(f);
	f->topo.schedstat_version = cursor_u32(&d->c);
	f->topo.max_sched_domains = cursor_u32(&d->c);
	if (d->c.bad)
		return feat_fail(d, "truncated");
	while (cursor_left(&d->c) > 0) {
		const uint8_t *pad = d->c.base + d->c.pos;

		/* a pipe's record rounds the section (4-byte units) up to 8 */
		if (cursor_left(&d->c) == 4 && (pad[0] | pad[1] | pad[2] | pad[3]) == 0)
			return cursor_take(&d->c, 4) != NULL ? 0 : -1;
		if (dec_domain_cpu(d, &cap) < 0)
			return -1;
	}
	return 0;
}

/* E_MACHINE: the ELF machine (widened to 32 bits) and the ELF flags. */
int
feature_dec_e_machine(struct feat_dec *d)
{
	uint32_t m = cursor_u32(&d->c), fl = cursor_u32(&d->c);

	if (d->c.bad)
		return feat_fail(d, "truncated");
	d->f->e_machine = m;
	d->f->e_flags = fl;
	return 0;
}

/*
 * CLN_SIZE: the cache line size: a u32, or a u32 a pipe's record pads to 8
 * bytes, or a u64 (which of them perf writes is not settled here); in 8
 * bytes, the half that is not zero is the value when the other is.
 */
int
feature_dec_cln_size(struct feat_dec *d)
{
	size_t n = cursor_left(&d->c);
	uint32_t lo, hi;

	if (n != 4 && n != 8)
		return feat_fail(d, "%zu bytes: neither a u32 nor a u64", n);
	lo = cursor_u32(&d->c);
	hi = n == 8 ? cursor_u32(&d->c) : 0;
	if (hi == 0 || lo == 0)
		d->f->cln_size = hi == 0 ? lo : hi;
	else
		d->f->cln_size = d->c.swap ? (uint64_t)lo << 32 | hi : (uint64_t)hi << 32 | lo;
	return 0;
}

bool
feature_end_marker(unsigned bit, uint64_t size)
{
	return size == 0 && bit >= PF_FEAT_FIRST_END_MARKER && bit <= PF_FEAT_LAST_KNOWN + 1;
}

void
feature_free_auxtrace(struct features *f)
{
	free(f->auxtrace_off);
	free(f->auxtrace_size);
	f->auxtrace_off = f->auxtrace_size = NULL;
	f->nauxtrace = 0;
}

int
feature_dec_auxtrace(struct feat_dec *d)
{
	struct features *f = d->f;
	uint64_t nr;

	feature_free_auxtrace(f);
	nr = cursor_u64(&d->c);
	if (d->c.bad)
		return feat_fail(d, "truncated");
	if (!feat_fits(&d->c, nr, 16))
		return feat_fail(d, "%" PRIu64 " index entries cannot fit in %zu bytes", nr,
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

int
feature_dec_build_id(struct feat_dec *d)
{
	uint32_t n = 0;

	while (cursor_left(&d->c) > 0) {
		size_t start = d->c.pos;
		const uint8_t *h = cursor_take(&d->c, 8);
		uint16_t misc, size;
		const uint8_t *b;
		size_t id_len = 20;

		if (h == NULL)
			return feat_fail(d, "record %" PRIu32 ": truncated header", n);
		misc = rd16(h + 4, d->c.swap);
		size = rd16(h + 6, d->c.swap);
		if (size < 8 + 4 + 24)
			return feat_fail(d, "record %" PRIu32 " at +0x%zx: size %u is too small", n, start,
			    size);
		b = cursor_take(&d->c, size - 8u);
		if (b == NULL)
			return feat_fail(d, "record %" PRIu32 " at +0x%zx: size %u runs past the section",
			    n, start, size);
		if ((misc & PF_MISC_BUILD_ID_SIZE) && b[4 + 20] <= 20)
			id_len = b[4 + 20];
		features_add_build_id(d->f, (int32_t)rd32(b, d->c.swap), misc, b + 4, id_len,
		    (const char *)b + 28, size - 8u - 28u);
		n++;
	}
	return 0;
}

void
feature_free_build_ids(struct features *f)
{
	for (size_t i = 0; i < f->n_build_ids; i++)
		free(f->build_ids[i].filename);
	free(f->build_ids);
	f->build_ids = NULL;
	f->n_build_ids = f->cap_build_ids = 0;
}

/* ---- decoding one section ---- */

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
	const struct feat_entry *e;
	struct feat_sec *fs;
	struct feat_dec d;
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
	if (feature_end_marker(bit, len)) {
		/* Pipe mode: perf ends its HEADER_FEATURE records with this bit. */
		set_status(fs, FEAT_RAW, "end of the feature records (HEADER_LAST_FEATURE)");
		return;
	}
	if (bit == 0 || bit > PF_FEAT_LAST_KNOWN) {
		set_status(fs, FEAT_RAW, "feature bit unknown to perfnav");
		return;
	}
	e = &feature_table[bit];
	memset(&d, 0, sizeof d);
	cursor_init(&d.c, p, len, swap);
	d.f = f;
	d.e = e;
	if (e->flags & FEAT_F_RAW) {
		set_status(fs, FEAT_RAW, e->decode(&d) < 0 ? d.why : NULL);
		return;
	}
	if (len == 0 && !(e->flags & FEAT_F_EMPTY_OK)) {
		set_status(fs, FEAT_MISSING, "section is empty");
		goto diag;
	}
	rc = e->decode != NULL ? e->decode(&d) : 0;
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

const struct feat_group *
features_group_of(const struct features *f, int attr, uint32_t max)
{
	for (uint32_t g = 0; f != NULL && g < f->ngroups; g++) {
		const struct feat_group *gr = &f->groups[g];

		if (gr->nr_members > 1 && gr->nr_members <= max && attr >= 0 &&
		    (uint32_t)attr >= gr->leader_idx && (uint64_t)attr < (uint64_t)gr->leader_idx +
		    gr->nr_members)
			return gr;
	}
	return NULL;
}

void
features_free(struct features *f)
{
	for (unsigned i = 0; i < PF_FEAT_BITS; i++)
		free(f->sec[i].why);
	for (unsigned bit = 0; bit <= PF_FEAT_LAST_KNOWN; bit++) {
		const struct feat_entry *e = &feature_table[bit];

		if (e->str_off != 0)
			free(*(char **)(void *)((char *)f + e->str_off));
		if (e->free != NULL)
			e->free(f);
	}
	free(f->priv);
	memset(f, 0, sizeof *f);
}
