#include "config.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

#include "core/core.h"
#include "core/hmap.h"
#include "symbolize/cpath.h"
#include "symbolize/hist.h"
#include "symbolize/offcpu.h"
#include "symbolize/symbolizer.h"
#include "tui/cmd/cmd.h"
#include "tui/cmd/export_pprof.h"

/*
 * export_pprof.c: one event's samples as a pprof profile (profile.proto:
 * github.com/google/pprof/proto/profile.proto), gzipped.  The protobuf
 * wire format is written here (varints, tags, length-delimited messages:
 * the few message types pprof's profile has; libprotobuf-c would need the
 * .proto compiled by protoc-c at build time for the same bytes).
 *
 * Samples: one per sample of the recording (labels pid, tid, comm, cpu and
 * time in ns; file, its input, in a merged recording: perfnav merge), or
 * with aggregate one per distinct stack and thread (labels pid, tid,
 * comm; and file: one per input too).  Values: samples/count, then the event's period
 * (cpu/nanoseconds for cpu-clock and task-clock, off-cpu/nanoseconds for
 * off-CPU time, EVENT/count otherwise), the default.  Locations: one per
 * frame address (paths_address hists), with its function as one Line;
 * functions with their names as the call graphs give them; mappings one
 * per DSO with its path and build id.
 */

/* ---- protobuf ---- */

struct pb {
	uint8_t	*p;
	size_t	 n, cap;
};

static void
pb_put(struct pb *b, const void *p, size_t n)
{
	GROW(b->p, b->cap, b->n + n);
	memcpy(b->p + b->n, p, n);
	b->n += n;
}

static void
pb_varint(struct pb *b, uint64_t v)
{
	uint8_t buf[10];
	size_t n = 0;

	do {
		buf[n++] = (uint8_t)((v & 0x7f) | (v > 0x7f ? 0x80 : 0));
		v >>= 7;
	} while (v != 0);
	pb_put(b, buf, n);
}

/* A varint field (int64, uint64, bool); proto3 leaves zeros out. */
static void
pb_uint(struct pb *b, unsigned field, uint64_t v)
{
	if (v == 0)
		return;
	pb_varint(b, (uint64_t)field << 3);
	pb_varint(b, v);
}

/* A length-delimited field: bytes, a string, a message, a packed list. */
static void
pb_bytes(struct pb *b, unsigned field, const void *p, size_t n)
{
	pb_varint(b, (uint64_t)field << 3 | 2);
	pb_varint(b, n);
	pb_put(b, p, n);
}

static void
pb_msg(struct pb *b, unsigned field, struct pb *m)
{
	pb_bytes(b, field, m->p, m->n);
	m->n = 0;
}

static void
pb_packed(struct pb *b, unsigned field, const uint64_t *v, size_t n)
{
	struct pb m = { 0 };

	for (size_t i = 0; i < n; i++)
		pb_varint(&m, v[i]);
	pb_bytes(b, field, m.p, m.n);
	free(m.p);
}

/* ---- the profile's tables ---- */

struct prof {
	const struct hist	*h;
	const struct symbolizer	*z;
	struct pb		 out, m;	/* the Profile; a message being built */
	struct strtab		 st;
	struct hmap		 str_ix;	/* strtab id -> string_table index */
	uint32_t		*strs;		/* string_table index -> strtab id */
	size_t			 nstr, capstr;
	struct hmap		 loc_ix;	/* path element -> location id */
	uint32_t		*locs;		/* location id - 1 -> path element */
	size_t			 nloc, caploc;
	struct hmap		 fn_ix;		/* function node -> function id */
	uint32_t		*fns;
	size_t			 nfn, capfn;
	struct hmap		 map_ix;	/* DSO -> mapping id */
	uint32_t		*maps;
	size_t			 nmap, capmap;
	int64_t			 k_pid, k_tid, k_comm, k_cpu, k_time, k_ns, k_file;
};

/* The string_table index of s. */
static int64_t
str_of(struct prof *pf, const char *s)
{
	uint32_t id = strtab_intern(&pf->st, s, strlen(s)), ix = hmap_get(&pf->str_ix, id);

	if (ix != HMAP_NONE)
		return ix;
	GROW(pf->strs, pf->capstr, pf->nstr + 1);
	pf->strs[pf->nstr] = id;
	hmap_set(&pf->str_ix, id, (uint32_t)pf->nstr);
	return (int64_t)pf->nstr++;
}

/* An id (1 on) in table ix/v for key, made on first use. */
static uint64_t
id_of(struct hmap *ix, uint32_t **v, size_t *n, size_t *cap, uint32_t key)
{
	uint32_t i = hmap_get(ix, key);

	if (i != HMAP_NONE)
		return (uint64_t)i + 1;
	GROW(*v, *cap, *n + 1);
	(*v)[*n] = key;
	hmap_set(ix, key, (uint32_t)*n);
	return (uint64_t)++ * n;
}

static void
label(struct prof *pf, struct pb *s, int64_t key, int64_t str, int64_t num, int64_t unit)
{
	pb_uint(&pf->m, 1, (uint64_t)key);
	pb_uint(&pf->m, 2, (uint64_t)str);
	pb_uint(&pf->m, 3, (uint64_t)num);
	pb_uint(&pf->m, 4, (uint64_t)unit);
	pb_msg(s, 3, &pf->m);
}

/*
 * One Sample: the locations of path (root first, n elements; written leaf
 * first, as pprof wants), its two values and its labels (cpu and time
 * when cpu >= 0 / time > 0).
 */
static void
sample(struct prof *pf, const uint32_t *path, size_t n, uint64_t count, uint64_t period,
    const struct hist_entry *e, int32_t cpu, uint64_t time, int64_t file)
{
	struct pb s = { 0 };
	uint64_t *loc = xreallocarray(NULL, n + 1, sizeof *loc), v[2] = { count, period };

	for (size_t i = 0; i < n; i++)
		loc[i] = id_of(&pf->loc_ix, &pf->locs, &pf->nloc, &pf->caploc, path[n - 1 - i]);
	if (n > 0)
		pb_packed(&s, 1, loc, n);
	pb_packed(&s, 2, v, 2);
	label(pf, &s, pf->k_pid, 0, e->pid, 0);
	label(pf, &s, pf->k_tid, 0, e->tid, 0);
	label(pf, &s, pf->k_comm, str_of(pf, hist_str(pf->h, e->label_comm)), 0, 0);
	if (cpu >= 0)
		label(pf, &s, pf->k_cpu, 0, cpu, 0);
	if (time > 0)
		label(pf, &s, pf->k_time, 0, (int64_t)time, pf->k_ns);
	if (file > 0)
		label(pf, &s, pf->k_file, file, 0, 0);
	pb_msg(&pf->out, 2, &s);
	free(s.p);
	free(loc);
}

/* Locations, then the functions and mappings they name. */
static void
locations(struct prof *pf)
{
	const struct hist *h = pf->h;

	for (size_t i = 0; i < pf->nloc; i++) {
		uint32_t el = pf->locs[i], fn = cpath_func_node(h, el);
		const struct hist_node *nd = hist_node_get(h, fn);
		struct pb line = { 0 };

		pb_uint(&pf->m, 1, i + 1);
		if (nd != NULL && nd->f.dso != DSO_NONE)
			pb_uint(&pf->m, 2, id_of(&pf->map_ix, &pf->maps, &pf->nmap, &pf->capmap, nd->f.dso));
		pb_uint(&pf->m, 3, cpath_addr_ip(h, el));
		pb_uint(&line, 1, id_of(&pf->fn_ix, &pf->fns, &pf->nfn, &pf->capfn, fn));
		pb_msg(&pf->m, 4, &line);
		free(line.p);
		pb_msg(&pf->out, 4, &pf->m);
	}
}

/* A function node's name as perf's call graphs give it: the symbol, else its address. */
static const char *
func_name(const struct hist *h, const struct hist_node *nd, char *buf, size_t n)
{
	if (nd == NULL)
		snprintf(buf, n, "[unknown]");
	else if (nd->f.sym != SYM_NONE)
		snprintf(buf, n, "%s", symbolizer_label_name(hist_str(h, nd->label)));
	else
		snprintf(buf, n, "%#" PRIx64, nd->f.rel);
	return buf;
}

static void
functions(struct prof *pf)
{
	char name[1024];

	for (size_t i = 0; i < pf->nfn; i++) {
		const struct hist_node *nd = hist_node_get(pf->h, pf->fns[i]);
		int64_t nm = str_of(pf, func_name(pf->h, nd, name, sizeof name));

		pb_uint(&pf->m, 1, i + 1);
		pb_uint(&pf->m, 2, (uint64_t)nm);
		pb_uint(&pf->m, 3, (uint64_t)nm);
		if (nd != NULL && nd->f.dso != DSO_NONE)
			pb_uint(&pf->m, 4, (uint64_t)str_of(pf, symbolizer_dso_long(pf->z, nd->f.dso)));
		pb_msg(&pf->out, 5, &pf->m);
	}
}

static void
mappings(struct prof *pf)
{
	uint8_t id[20];
	char hex[41];

	for (size_t i = 0; i < pf->nmap; i++) {
		size_t n = symbolizer_dso_build_id(pf->z, pf->maps[i], id);

		for (size_t k = 0; k < n && k < 20; k++)
			snprintf(hex + 2 * k, 3, "%02x", id[k]);
		hex[2 * (n < 20 ? n : 20)] = '\0';
		pb_uint(&pf->m, 1, i + 1);
		pb_uint(&pf->m, 3, UINT64_MAX);	/* the DSO anywhere: locations hold the addresses */
		pb_uint(&pf->m, 5, (uint64_t)str_of(pf, symbolizer_dso_long(pf->z, pf->maps[i])));
		pb_uint(&pf->m, 6, (uint64_t)str_of(pf, hex));
		pb_uint(&pf->m, 7, 1);	/* has_functions: pprof need not symbolize */
		pb_msg(&pf->out, 3, &pf->m);
	}
}

/* Every sample of event ev, each with its labels. */
static void
each_sample(struct prof *pf, const struct session *s, size_t ev)
{
	const struct rec_index *ix = session_index(s);
	struct cpath_query q = { .ev = ev, .entry = CPATH_NONE };
	struct cpath *t = cpath_build((struct hist *)pf->h, &q);
	size_t cap = 64;
	uint32_t *path = xreallocarray(NULL, cap, sizeof *path);

	for (size_t pos = 0; pos < ix->n; pos++) {
		uint32_t node, ent;
		const struct hist_entry *e;
		size_t d;

		if (ent_type(index_ent(ix, pos)) != PF_REC_SAMPLE ||
		    (node = cpath_sample_node(t, pf->h, pos)) == CPATH_NONE || node == 0 ||
		    (ent = hist_sample_entry(pf->h, pos)) == UINT32_MAX || (e = hist_entry_get(pf->h, ent)) == NULL)
			continue;
		if (cpath_node(t, node)->depth > cap) {
			cap = cpath_node(t, node)->depth;
			path = xreallocarray(path, cap, sizeof *path);
		}
		d = cpath_path(t, node, path, cap);
		sample(pf, path, d, 1, hist_sample_period(pf->h, pos), e, session_ent_who(s, pos).cpu,
		    index_ent(ix, pos)->time, pf->k_file ? str_of(pf, hist_file_name(pf->h,
		    hist_file_of(pf->h, ent_loc(index_ent(ix, pos))))) : 0);
	}
	free(path);
	cpath_free(t);
}

/*
 * Per thread (and input of a merged recording: the hist has the key file),
 * each distinct stack once with its samples and period summed.
 */
static void
each_stack(struct prof *pf, size_t ev)
{
	const struct hist_entry *const *rows;
	size_t nr = hist_rows_merged((struct hist *)pf->h, ev, NULL, HIST_KEEP(HIST_KEY_TID) |
	    (pf->k_file ? HIST_KEEP(HIST_KEY_FILE) : 0), 0, &rows);
	struct hist_entry *thr = xreallocarray(NULL, nr + 1, sizeof *thr);
	size_t cap = 64;
	uint32_t *path = xreallocarray(NULL, cap, sizeof *path);

	for (size_t i = 0; i < nr; i++)
		thr[i] = *rows[i];
	for (size_t i = 0; i < nr; i++) {
		uint32_t in = hist_entry_xkey(pf->h, &thr[i])->file;
		struct hist_select sel = { .by_tid = true, .tid = thr[i].tid, .by_file = pf->k_file != 0,
			.file = in };
		int64_t file = pf->k_file ? str_of(pf, hist_file_name(pf->h, in)) : 0;
		struct cpath_query q = { .ev = ev, .entry = CPATH_NONE, .sel = &sel };
		struct cpath *t = cpath_build((struct hist *)pf->h, &q);

		for (uint32_t k = 1; k < cpath_count(t); k++) {
			const struct cpath_node *nd = cpath_node(t, k);

			if (nd->self_samples == 0)
				continue;
			if (nd->depth > cap) {
				cap = nd->depth;
				path = xreallocarray(path, cap, sizeof *path);
			}
			sample(pf, path, cpath_path(t, k, path, cap), nd->self_samples, nd->self_period,
			    &thr[i], -1, 0, file);
		}
		cpath_free(t);
	}
	free(path);
	free(thr);
}

/* The Profile's header fields: value types, string keys. */
static void
value_types(struct prof *pf, size_t ev)
{
	const char *name = hist_str(pf->h, hist_event(pf->h, ev)->name);
	bool clock = hist_event_clock(pf->h, ev);
	int64_t type = str_of(pf, clock ? "cpu" : name);
	int64_t unit = str_of(pf, hist_event_in_ns(pf->h, ev) ? "nanoseconds" : "count");

	pb_uint(&pf->m, 1, (uint64_t)str_of(pf, "samples"));
	pb_uint(&pf->m, 2, (uint64_t)str_of(pf, "count"));
	pb_msg(&pf->out, 1, &pf->m);
	pb_uint(&pf->m, 1, (uint64_t)type);
	pb_uint(&pf->m, 2, (uint64_t)unit);
	pb_msg(&pf->out, 1, &pf->m);
	pb_uint(&pf->m, 1, (uint64_t)type);
	pb_uint(&pf->m, 2, (uint64_t)unit);
	pb_msg(&pf->out, 11, &pf->m);
	pb_uint(&pf->out, 14, (uint64_t)type);
	pf->k_pid = str_of(pf, "pid");
	pf->k_tid = str_of(pf, "tid");
	pf->k_comm = str_of(pf, "comm");
	pf->k_cpu = str_of(pf, "cpu");
	pf->k_time = str_of(pf, "time");
	pf->k_file = hist_nfiles(pf->h) > 1 ? str_of(pf, "file") : 0;
	pf->k_ns = str_of(pf, "nanoseconds");
}

/* n bytes at p gzipped onto fp (zlib's deflate with a gzip header).  0, or -1. */
static int
gzip_out(const uint8_t *p, size_t n, FILE *fp)
{
	z_stream zs;
	uint8_t buf[65536];
	int rc, zrc = Z_OK;

	memset(&zs, 0, sizeof zs);
	if (deflateInit2(&zs, 6, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY) != Z_OK)
		return -1;
	zs.next_in = (Bytef *)(uintptr_t)p;
	rc = 0;
	while (zrc != Z_STREAM_END && rc == 0) {
		size_t chunk = n > (1u << 30) ? (1u << 30) : n;

		zs.avail_in = (uInt)chunk;
		zs.next_out = buf;
		zs.avail_out = sizeof buf;
		zrc = deflate(&zs, chunk == n ? Z_FINISH : Z_NO_FLUSH);
		n -= chunk - zs.avail_in;
		if (zrc == Z_STREAM_ERROR || fwrite(buf, 1, sizeof buf - zs.avail_out, fp) != sizeof buf - zs.avail_out)
			rc = -1;
	}
	deflateEnd(&zs);
	return rc;
}

int
export_pprof(const struct session *s, const struct hist *h, const struct symbolizer *z, size_t ev,
    bool aggregate, FILE *fp)
{
	struct prof pf = { .h = h, .z = z };
	struct pb tail = { 0 };
	int rc;

	if (ev >= hist_nevents(h))
		return -1;
	str_of(&pf, "");	/* string_table[0] */
	value_types(&pf, ev);
	if (aggregate)
		each_stack(&pf, ev);
	else
		each_sample(&pf, s, ev);
	locations(&pf);
	functions(&pf);
	mappings(&pf);
	for (size_t i = 0; i < pf.nstr; i++) {
		const char *str = strtab_get(&pf.st, pf.strs[i]);

		pb_bytes(&tail, 6, str, strlen(str));
	}
	pb_put(&pf.out, tail.p, tail.n);
	rc = gzip_out(pf.out.p, pf.out.n, fp);
	free(tail.p);
	free(pf.out.p);
	free(pf.m.p);
	free(pf.strs);
	free(pf.locs);
	free(pf.fns);
	free(pf.maps);
	hmap_free(&pf.str_ix);
	hmap_free(&pf.loc_ix);
	hmap_free(&pf.fn_ix);
	hmap_free(&pf.map_ix);
	strtab_free(&pf.st);
	return rc;
}
