/*
 * Criterion tests of the Summary page: its model (symbolize/summary.h)
 * over the perf-made fixtures and synthetic LOST records, each number
 * checked against the same number found another way (perf report
 * --stats's counts, the header's sample times, the index's who, the
 * hist's rows and its nodes).
 */
#include "config.h"

#include <criterion/criterion.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/core.h"
#include "symbolize/hist.h"
#include "symbolize/resolve.h"
#include "symbolize/summary.h"
#include "tests/helpers.h"
#include "tests/tui_helpers.h"
#include "tui/symbols.h"

/* ---- counting another way ---- */

#define TALLY_MAX	256

/* Samples per id (a pid or a tid), counted by hand. */
struct tally {
	int32_t		id[TALLY_MAX];
	uint64_t	n[TALLY_MAX];
	size_t		len;
};

static void
tally_add(struct tally *t, int32_t id)
{
	size_t i;

	for (i = 0; i < t->len && t->id[i] != id; i++)
		;
	if (i == t->len) {
		cr_assert_lt(t->len, TALLY_MAX);
		t->id[t->len] = id;
		t->n[t->len++] = 0;
	}
	t->n[i]++;
}

static uint64_t
tally_get(const struct tally *t, int32_t id)
{
	for (size_t i = 0; i < t->len; i++)
		if (t->id[i] == id)
			return t->n[i];
	return 0;
}

/* Samples per pid and per tid, from who each SAMPLE record of the index is about. */
static uint64_t
count_who(const struct session *s, struct tally *pids, struct tally *tids)
{
	const struct rec_index *ix = session_index(s);
	uint64_t n = 0;

	memset(pids, 0, sizeof *pids);
	memset(tids, 0, sizeof *tids);
	for (size_t i = 0; i < ix->n; i++) {
		struct ent_who w;

		if (ent_type(&ix->v[i]) != PERF_RECORD_SAMPLE)
			continue;
		w = session_ent_who(s, i);
		tally_add(pids, w.pid);
		tally_add(tids, w.tid);
		n++;
	}
	return n;
}

/* perf report --stats's "SAMPLE events: N" for a fixture (tests/data/expected). */
static uint64_t
perf_stats_samples(const char *name)
{
	char path[4096], *text, *at;
	unsigned long long n = 0;

	snprintf(path, sizeof path, "%s/expected/%s.stats.txt", TEST_DATA, name);
	text = slurp(path, NULL);
	cr_assert_not_null(text, "%s", path);
	at = strstr(text, "SAMPLE events:");
	cr_assert_not_null(at, "%s has no SAMPLE line", path);
	cr_assert_eq(sscanf(at, "SAMPLE events: %llu", &n), 1);
	free(text);
	return n;
}

/* The processes and threads of a summary against the index's own counts. */
static void
check_tasks(const struct session *s, const struct summary *su)
{
	struct tally pids, tids;
	uint64_t n = count_who(s, &pids, &tids);

	cr_assert_eq(n, su->samples);
	cr_assert_eq(su->procs_with, pids.len, "processes with samples");
	cr_assert_eq(su->threads_with, tids.len, "threads with samples");
	cr_assert_eq(su->nprocs, pids.len < SUMMARY_TOP_TASKS ? pids.len : SUMMARY_TOP_TASKS);
	cr_assert_eq(su->nthreads, tids.len < SUMMARY_TOP_TASKS ? tids.len : SUMMARY_TOP_TASKS);
	for (size_t i = 0; i < su->nprocs; i++) {
		cr_assert_eq(su->procs[i].samples, tally_get(&pids, su->procs[i].pid), "pid %d",
		    su->procs[i].pid);
		cr_assert_eq(su->procs[i].tid, su->procs[i].pid);
		if (i > 0)
			cr_assert_geq(su->procs[i - 1].samples, su->procs[i].samples, "the most first");
	}
	for (size_t i = 0; i < su->nthreads; i++) {
		cr_assert_eq(su->threads[i].samples, tally_get(&tids, su->threads[i].tid), "tid %d",
		    su->threads[i].tid);
		if (i > 0)
			cr_assert_geq(su->threads[i - 1].samples, su->threads[i].samples);
	}
}

/* ---- the recording ---- */

Test(summary, fork_data_samples_span_and_processes)
{
	struct session *s = open_fixture("fork.data");
	const struct features *f = session_features(s);
	struct summary su;

	summary_new(s, &su);
	cr_assert_eq(su.samples, perf_stats_samples("fork.data"));
	cr_assert_eq(su.lost, 0);
	cr_assert_eq(su.lost_records, 0);
	/* the span is the header's SAMPLE_TIME section, which perf wrote from the samples */
	cr_assert(f->sec[PF_FEAT_SAMPLE_TIME].present, "fork.data has SAMPLE_TIME");
	cr_assert(su.has_time);
	cr_assert_eq(su.first, f->sample_time_first);
	cr_assert_eq(su.last, f->sample_time_last);
	cr_assert_eq(su.procs_with, 3, "the parent, a forked and an exec'd child");
	check_tasks(s, &su);
	session_close(s);
}

Test(summary, threads_and_events_of_other_fixtures)
{
	const char *fx[] = { "pipe.data", "dir.data", "multi.data", "tracepoint.data",
		"nest.data", "stat.data" };

	for (size_t i = 0; i < sizeof fx / sizeof fx[0]; i++) {
		struct session *s = open_fixture(fx[i]);
		struct summary su;

		summary_new(s, &su);
		check_tasks(s, &su);
		if (strcmp(fx[i], "pipe.data") == 0)
			cr_assert_eq(su.threads_with, 4, "main and its three workers");
		if (strcmp(fx[i], "stat.data") == 0)
			cr_assert(su.samples == 0 && !su.has_time && su.nprocs == 0);
		session_close(s);
	}
}

/* synth_file's EXIT record made a LOST (2) or LOST_SAMPLES (13) record of lost samples. */
static void
lost_case(uint32_t type, uint64_t lost)
{
	struct pdbuf b = { 0 };
	struct session_mem m;
	struct perf_err err;
	struct session *s;
	struct summary su;
	size_t at;

	synth_file(&b, false, 8);
	at = synth_layout.feat_table - 64;
	cr_assert_eq(b.p[at], 4);	/* EXIT, 64 bytes */
	pd_put32(&b, at, type);
	if (type == PERF_RECORD_LOST) {
		pd_put64(&b, at + 8, 100);	/* id */
		pd_put64(&b, at + 16, lost);
	} else {
		pd_put64(&b, at + 8, lost);
	}
	m = (struct session_mem){ b.p, b.len };
	s = session_open_mem("synth", &m, 1, NULL, &err);
	cr_assert_not_null(s, "%s", err.msg);
	summary_new(s, &su);
	cr_assert_eq(su.samples, 8);
	cr_assert_eq(su.lost_records, 1);
	cr_assert_eq(su.lost, lost);
	cr_assert_eq(su.first, 1000);
	cr_assert_eq(su.last, 1070);
	session_close(s);
	pd_free(&b);
}

Test(summary, lost_records_and_what_they_lost)
{
	lost_case(PERF_RECORD_LOST, 7);
	lost_case(PERF_RECORD_LOST_SAMPLES, 5);
}

/* ---- over the hist ---- */

static struct symbols *
resolved(struct session *s)
{
	struct symbols *sy = fixture_symbols(s);

	symbols_run(sy);
	return sy;
}

/* A function's own samples and period, summed by hand over the hist's comm,tid,dso,sym rows. */
static void
func_sum(struct hist *h, size_t ev, uint32_t dso, uint32_t node, uint64_t *samples,
    uint64_t *period)
{
	const uint32_t *rows;
	size_t n = hist_rows(h, ev, 0.0, &rows);

	*samples = *period = 0;
	for (size_t i = 0; i < n; i++) {
		const struct hist_entry *e = hist_entry_get(h, rows[i]);

		if (e->dso == dso && e->node == node) {
			*samples += e->samples;
			*period += e->period;
		}
	}
}

Test(summary, hot_functions_per_event_are_the_hist_s)
{
	struct session *s = open_fixture("multi.data");
	struct symbols *sy = resolved(s);
	struct hist *h = sy->h;
	struct hist_entry top[SUMMARY_TOP_FUNCS];

	cr_assert_eq(hist_nevents(h), 2);
	for (size_t ev = 0; ev < 2; ev++) {
		size_t n = summary_hot(h, ev, NULL, top, SUMMARY_TOP_FUNCS);
		const uint32_t *hr;
		size_t nr = hist_rows(h, ev, 0.0, &hr);
		uint32_t *rows = malloc((nr + 1) * sizeof *rows);

		size_t distinct = 0;

		cr_assert_not_null(rows);
		memcpy(rows, hr, nr * sizeof *rows);
		/* as many as the event has functions with samples, five at most */
		for (size_t i = 0; i < nr; i++) {
			const struct hist_entry *e = hist_entry_get(h, rows[i]);
			bool seen = e->samples == 0;

			for (size_t j = 0; j < i && !seen; j++) {
				const struct hist_entry *o = hist_entry_get(h, rows[j]);

				seen = o->samples > 0 && o->dso == e->dso && o->node == e->node;
			}
			distinct += !seen;
		}
		cr_assert_gt(distinct, 1);
		cr_assert_eq(n, distinct < SUMMARY_TOP_FUNCS ? distinct : SUMMARY_TOP_FUNCS,
		    "event %zu: %zu of %zu", ev, n, distinct);
		for (size_t k = 0; k < n; k++) {
			uint64_t smp, per;

			func_sum(h, ev, top[k].dso, top[k].node, &smp, &per);
			cr_assert_eq(top[k].samples, smp, "event %zu #%zu", ev, k);
			cr_assert_eq(top[k].period, per);
			if (k > 0)
				cr_assert_geq(top[k - 1].samples, top[k].samples);
		}
		/* no function outside the five has more samples than the fifth */
		for (size_t i = 0; i < nr; i++) {
			const struct hist_entry *e = hist_entry_get(h, rows[i]);
			uint64_t smp, per;
			bool in = false;

			for (size_t k = 0; k < n; k++)
				in = in || (top[k].node == e->node && top[k].dso == e->dso);
			func_sum(h, ev, e->dso, e->node, &smp, &per);
			cr_assert(in || smp <= top[n - 1].samples, "event %zu: a hotter function left out",
			    ev);
		}
		free(rows);
	}
	cr_assert_eq(summary_hot(h, 2, NULL, top, SUMMARY_TOP_FUNCS), 0, "no third event");
	symbols_free(sy);
	session_close(s);
}

/* What did not resolve, per DSO: the samples of the hist's rows whose function is no symbol. */
Test(summary, unresolved_samples_are_the_unresolved_rows)
{
	struct session *s = open_fixture("fp.data");
	struct symbols *sy = resolved(s);
	struct hist *h = sy->h;
	struct summary_unres *u;
	size_t n = summary_unresolved(h, &u);
	uint64_t by_rows = 0, by_model = 0, kernel = 0;
	const uint32_t *rows;
	size_t nr = hist_rows(h, 0, 0.0, &rows);

	cr_assert_gt(n, 0, "kernel addresses do not resolve without kallsyms");
	for (size_t i = 0; i < nr; i++) {
		const struct hist_entry *e = hist_entry_get(h, rows[i]);

		if (hist_node_get(h, e->node)->f.sym == SYM_NONE)
			by_rows += e->samples;
	}
	for (size_t i = 0; i < n; i++) {
		by_model += u[i].samples;
		cr_assert_neq(u[i].why, SYM_WHY_OK);
		if (i > 0)
			cr_assert_geq(u[i - 1].samples, u[i].samples, "the most first");
		if (u[i].dso != DSO_NONE &&
		    strcmp(symbolizer_dso_short(sy->z, u[i].dso), "[kernel.kallsyms]") == 0) {
			kernel = u[i].samples;
			cr_assert_eq(u[i].why, SYM_WHY_NO_KALLSYMS);
		}
	}
	cr_assert_eq(by_model, by_rows);
	cr_assert_gt(kernel, 0);
	free(u);
	symbols_free(sy);
	session_close(s);
}
