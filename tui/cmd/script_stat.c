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
	struct rec_thread_map tm;

	if (record_thread_map(r, &tm) < 0)
		return;
	m->nthreads = 0;
	for (uint64_t i = 0; i < tm.nr && i < tm.have && m->nthreads < STAT_MAX_MAP; i++)
		m->threads[m->nthreads++] = record_thread_map_pid(&tm, i);
}

/* CPU_MAP type 0: a list of u16 cpus (0xffff = any); others: not needed
 * for stat files, kept as "unknown". */
static void
read_cpu_map(struct stat_maps *m, const struct rec *r)
{
	struct rec_cpu_map cm;

	m->ncpus = 0;
	if (record_cpu_map(r, &cm) < 0 || cm.type != 0)
		return;
	for (uint16_t i = 0; i < cm.have && m->ncpus < STAT_MAX_MAP; i++)
		m->cpus[m->ncpus++] = record_cpu_map_cpu(&cm, i);
}

static int32_t
map_at(const int32_t *v, size_t n, uint32_t i)
{
	return i < n ? v[i] : (int32_t)i;
}

int
script_print_stat(const struct session *s, FILE *fp)
{
	const struct rec_index *ix = session_index(s);
	struct stat_maps *m;
	size_t pending_from = 0, printed = 0;
	bool header = false;

	if (session_counts(s)->by_type[PF_REC_STAT] == 0)
		return 0;
	m = xcalloc(1, sizeof *m);
	for (size_t i = 0; i < ix->n; i++) {
		const struct rec_ent *e = index_ent(ix, i);
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
			const struct rec_ent *se = index_ent(ix, k);
			struct rec sr;
			struct rec_stat st;
			struct rec_stat_round round;

			if (ent_type(se) != PF_REC_STAT || session_rec(s, ent_loc(se), &sr) < 0 ||
			    record_stat(&sr, &st) < 0 || record_stat_round(&r, &round) < 0)
				continue;
			fprintf(fp, "%3d %8d %15" PRIu64 " %15" PRIu64 " %15" PRIu64 " %15" PRIu64 " %s\n",
			    map_at(m->cpus, m->ncpus, st.cpu), map_at(m->threads, m->nthreads, st.thread),
			    st.val, st.ena, st.run, round.time,
			    textout_esc(session_attr_name(s, attr_table_find_id(session_attrs(s), st.id))));
			printed++;
		}
		pending_from = i + 1;
	}
	free(m);
	return (int)printed;
}
