/*
 * fuzz_carve.c: perfnav export --format perf (export_carve(), core/carve.c)
 * over a recording loaded from memory, with a scope the input's bytes
 * choose (a time span from the index, a thread, cpu 0, a comm, symbols, an
 * event, -z), written to a memory file and loaded again.  It aborts when
 * carving fails, when the carved file does not load, when it holds another
 * number of samples than were kept, or when carving it again whole does
 * not give back the same bytes (uncompressed).  Then perfnav merge
 * (core/merge.c) of the recording with itself: when it merges, the merged
 * file must load with the samples written and its origins section must
 * name the two inputs; the input's own origins section (a bit-255 section
 * the input may hold) is read too (core/origin.c).
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "core/core.h"
#include "symbolize/filter.h"
#include "symbolize/symbolizer.h"
#include "tests/fuzz/fuzz.h"
#include "tui/cmd/cmd.h"

/* Carve s as e says into a memory file; its bytes (malloc'd, *len), NULL if carving failed. */
static uint8_t *
carve(const struct session *s, struct symbolizer *z, const struct export_spec_args *e,
    struct carve_result *res, size_t *len)
{
	int fd = memfd_create("fuzz-carve", 0);
	struct perf_err err;
	uint8_t *p = NULL;

	if (fd < 0)
		abort();
	if (export_carve(s, z, e, fd, res, &err) == 0) {
		*len = (size_t)res->size;
		p = xmalloc(*len + 1);
		if (pread(fd, p, *len, 0) != (ssize_t)*len)
			abort();
	}
	close(fd);
	return p;
}

/* The scope the input picks: bits of h. */
static void
pick_scope(const struct session *s, uint64_t h, struct hist_filter *f, struct filter_range *tr,
    struct export_spec_args *e)
{
	const struct rec_index *ix = session_index(s);
	char buf[64];

	if (ix->n > 0 && (h & 1)) {
		tr->start = index_ent(ix, (h >> 16) % ix->n)->time;
		tr->end = tr->start + (h >> 40) % 100000000;
		f->time = tr;
		f->ntime = 1;
	}
	if (ix->n > 0 && (h & 2)) {
		struct ent_who w = session_ent_who(s, (h >> 20) % ix->n);

		snprintf(buf, sizeof buf, "%d,%d", w.tid >= 0 ? w.tid : 0, w.pid >= 0 ? w.pid : 0);
		filter_parse_tids(f, buf);
	}
	if (h & 4)
		filter_parse_cpus(f, "0");
	if (h & 8)
		filter_parse_comms(f, "cpu,threads,forkexec");
	if (h & 16)
		filter_parse_symbols(f, "main,mix_one,0x401000");
	if ((h & 32) && session_attrs(s)->n > 0)
		e->event = session_attr_name(s, (int)((h >> 8) % session_attrs(s)->n));
	e->compress = (h & 64) != 0;
	e->filter = filter_active(f) ? f : NULL;
}

/* The recording merged with itself, loaded again; its origins and the input's. */
static void
merge_self(const struct session *s)
{
	struct merge_input in[2] = { { s, "a.data" }, { s, "b/c.data" } };
	struct session_opts so = { .keep_going = true };
	struct merge_result res;
	struct perf_err err;
	struct session_mem m;
	struct session *t;
	struct origins o;
	int fd = memfd_create("fuzz-merge", 0);
	uint8_t *p;

	if (fd < 0)
		abort();
	origins_load(s, &o, &err);
	for (size_t i = 0; i < o.n; i++)
		if (o.v[i].name == NULL || o.v[i].start > o.v[i].end)
			abort();
	origins_free(&o);
	if (merge_write(in, 2, fd, &res, &err) < 0) {
		close(fd);
		return;	/* refused: said in err */
	}
	p = xmalloc(res.size + 1);
	if (pread(fd, p, res.size, 0) != (ssize_t)res.size)
		abort();
	close(fd);
	m = (struct session_mem){ p, res.size };
	if ((t = session_open_mem("merged", &m, 1, &so, &err)) == NULL)
		abort();	/* what was written does not load */
	if (!session_info(t).over_budget && !session_info(s).over_budget &&
	    session_counts(t)->by_type[PF_REC_SAMPLE] != res.samples)
		abort();	/* another number of samples than were written */
	if (origins_load(t, &o, &err) != 0 || o.n != 2 || strcmp(o.v[1].name, "b/c.data") != 0 ||
	    o.v[0].end != o.v[1].start)
		abort();	/* its own origins section does not read back */
	origins_free(&o);
	session_close(t);
	free(p);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct session *s = fuzz_open(data, size, NULL), *t;
	struct export_spec_args e = { .format = EXPORT_PERF, .name = "fuzz.data" };
	struct hist_filter f = { 0 };
	struct filter_range tr;
	struct carve_result res, again;
	struct session_mem m;
	struct session_opts so = { .keep_going = true };
	struct sym_opts sy;
	struct symbolizer *z;
	struct perf_err err;
	uint64_t h = 1469598103934665603ULL;
	uint8_t *out, *out2;
	size_t len, len2;

	if (s == NULL)
		return 0;
	for (size_t i = 0; i < size && i < 64; i++)
		h = (h ^ data[i]) * 1099511628211ULL;
	h ^= size;
	fuzz_sym_opts(&sy);
	z = symbolizer_new(s, &sy);
	pick_scope(s, h, &f, &tr, &e);
	if ((out = carve(s, z, &e, &res, &len)) == NULL || res.kept > res.samples)
		abort();
	m = (struct session_mem){ out, len };
	if ((t = session_open_mem("carved", &m, 1, &so, &err)) == NULL)
		abort();	/* what was written does not load */
	if (!session_info(t).over_budget && session_counts(t)->by_type[PF_REC_SAMPLE] != res.kept)
		abort();	/* another number of samples than were kept */
	if (!e.compress && !session_info(t).over_budget && !session_info(s).over_budget) {
		struct export_spec_args whole = { .format = EXPORT_PERF, .name = "carved" };

		if ((out2 = carve(t, NULL, &whole, &again, &len2)) == NULL)
			abort();
		if (len2 != len || memcmp(out, out2, len) != 0)
			abort();	/* carving the carved file again changed it */
		free(out2);
	}
	session_close(t);
	free(out);
	f.time = NULL;
	f.ntime = 0;
	filter_free(&f);
	symbolizer_free(z);
	merge_self(s);
	session_close(s);
	return 0;
}
