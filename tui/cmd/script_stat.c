#include "config.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/core.h"
#include "tui/cmd/cmd.h"
#include "tui/cmd/textout.h"

/*
 * perf script on a 'perf stat record' file: the counter table, one line
 * per PERF_RECORD_STAT, printed when the STAT_ROUND that closes its round
 * arrives (its time is the round's).  CPU and THREAD are the values of the
 * recording's CPU_MAP and THREAD_MAP at the record's indexes.
 */

#define STAT_MAX_MAP 4096

struct stat_maps {
	int32_t		cpus[STAT_MAX_MAP];
	size_t		ncpus;
	int32_t		threads[STAT_MAX_MAP];
	size_t		nthreads;
};

static void
read_thread_map(struct stat_maps *m, const struct rec *r)
{
	uint64_t nr;

	if (r->size < 16)
		return;
	nr = rd64(r->p + 8, r->swap);
	m->nthreads = 0;
	for (uint64_t i = 0; i < nr && m->nthreads < STAT_MAX_MAP; i++) {
		uint64_t at = 16 + i * 24;

		if (at + 8 > r->size)
			break;
		m->threads[m->nthreads++] = (int32_t)rd64(r->p + at, r->swap);
	}
}

/* CPU_MAP type 0: a list of u16 cpus (0xffff = any); others: not needed
 * for stat files, kept as "unknown". */
static void
read_cpu_map(struct stat_maps *m, const struct rec *r)
{
	uint16_t type, nr;

	m->ncpus = 0;
	if (r->size < 12)
		return;
	type = rd16(r->p + 8, r->swap);
	if (type != 0)
		return;
	nr = rd16(r->p + 10, r->swap);
	for (uint16_t i = 0; i < nr && m->ncpus < STAT_MAX_MAP; i++) {
		uint16_t c;

		if (12u + 2u * i + 2 > r->size)
			break;
		c = rd16(r->p + 12 + 2 * i, r->swap);
		m->cpus[m->ncpus++] = c == 0xffff ? -1 : c;
	}
}

static int32_t
map_at(const int32_t *v, size_t n, uint32_t i)
{
	return i < n ? v[i] : (int32_t)i;
}

int
script_print_stat(const struct session *s, FILE *fp)
{
	struct stat_maps *m;
	size_t pending_from = 0, printed = 0;
	bool header = false;

	if (s->counts.by_type[PF_REC_STAT] == 0)
		return 0;
	m = xcalloc(1, sizeof *m);
	for (size_t i = 0; i < s->index.n; i++) {
		const struct rec_ent *e = &s->index.v[i];
		unsigned type = ent_type(e);
		struct rec r;

		if (type != PF_REC_THREAD_MAP && type != PF_REC_CPU_MAP && type != PF_REC_STAT_ROUND)
			continue;
		if (session_rec(s, ent_loc(e), &r) < 0)
			continue;
		if (type == PF_REC_THREAD_MAP) {
			read_thread_map(m, &r);
			continue;
		}
		if (type == PF_REC_CPU_MAP) {
			read_cpu_map(m, &r);
			continue;
		}
		/* STAT_ROUND: print the STAT records since the previous round. */
		if (!header) {
			fprintf(fp, "CPU   THREAD             VAL             ENA             RUN            TIME EVENT\n");
			header = true;
		}
		for (size_t k = pending_from; k < i; k++) {
			const struct rec_ent *se = &s->index.v[k];
			struct rec sr;
			uint64_t id, val, ena, run, time;
			uint32_t cpu, thr;

			if (ent_type(se) != PF_REC_STAT || session_rec(s, ent_loc(se), &sr) < 0 ||
			    sr.size < 48 || r.size < 24)
				continue;
			id = rd64(sr.p + 8, sr.swap);
			cpu = rd32(sr.p + 16, sr.swap);
			thr = rd32(sr.p + 20, sr.swap);
			val = rd64(sr.p + 24, sr.swap);
			ena = rd64(sr.p + 32, sr.swap);
			run = rd64(sr.p + 40, sr.swap);
			time = rd64(r.p + 16, r.swap);
			fprintf(fp, "%3d %8d %15" PRIu64 " %15" PRIu64 " %15" PRIu64 " %15" PRIu64 " %s\n",
			    map_at(m->cpus, m->ncpus, cpu), map_at(m->threads, m->nthreads, thr), val, ena,
			    run, time, textout_esc(session_attr_name(s, attr_table_find_id(&s->attrs, id))));
			printed++;
		}
		pending_from = i + 1;
	}
	free(m);
	return (int)printed;
}
