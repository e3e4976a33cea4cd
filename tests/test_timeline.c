/* Criterion tests of symbolize/timeline.c: lanes of samples over time, their
 * bucket counts, lost records, off-CPU gaps and the flame scope's cells.
 * Counts of the perf-made fixtures are those of `perf script` (6.1) on them:
 * `perf script -F pid,tid,event` for samples, `--show-switch-events` for
 * the switch records. */
#include "config.h"

#include <criterion/criterion.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/core.h"
#include "symbolize/offcpu.h"
#include "symbolize/timeline.h"
#include "tests/helpers.h"

static uint32_t
find_lane(const struct timeline *tl, enum tl_kind kind, int32_t pid, int32_t tid)
{
	for (uint32_t i = 0; i < tl->nlanes; i++)
		if (tl->lanes[i].kind == kind && tl->lanes[i].pid == pid &&
		    (kind != TL_KIND_THREAD || tl->lanes[i].tid == tid))
			return i;
	return TL_NONE;
}

static struct session *
open_bytes(struct pdbuf *b)
{
	struct session_mem m = { b->p, b->len };
	struct perf_err err;
	struct session *s = session_open_mem("synth", &m, 1, NULL, &err);

	cr_assert_not_null(s, "%s", err.msg);
	return s;
}

/* The synthetic recording: 10 samples of pid 42 at 1000, 1010, ... 1090. */
Test(timeline, synth_lanes_span_and_buckets)
{
	struct pdbuf b = { 0 };
	struct session *s;
	struct timeline *tl;
	uint32_t out[10], max, sum = 0;
	char buf[64];

	synth_file(&b, false, 10);
	s = open_bytes(&b);
	tl = timeline_new(s, TL_TASKS, -1);
	cr_assert_eq(tl->npos, 10);
	cr_assert_eq(tl->first, 1000);
	cr_assert_eq(tl->last, 1090);
	/* all, then the one process (its one thread is its leader: no thread lane) */
	cr_assert_eq(tl->nlanes, 2);
	cr_assert_eq(tl->lanes[0].kind, TL_KIND_ALL);
	cr_assert_eq(tl->lanes[1].kind, TL_KIND_PROC);
	cr_assert_eq(tl->lanes[1].pid, 42);
	cr_assert_eq(tl->lanes[1].nkids, 0);
	cr_assert_str_eq(timeline_label(tl, 1, buf, sizeof buf), "42 synth");
	cr_assert_str_eq(timeline_label(tl, 0, buf, sizeof buf), "all");
	cr_assert_eq(timeline_count(tl, 1, 1000, 1091), 10);
	cr_assert_eq(timeline_count(tl, 1, 1000, 1090), 9);	/* the end is out */
	cr_assert_eq(timeline_count(tl, 1, 1015, 1045), 3);	/* 1020 1030 1040 */
	cr_assert_eq(timeline_count(tl, 0, 1045, 1015), 0);
	/* positions are in time order though the file's samples are not */
	for (uint32_t i = 1; i < tl->lanes[1].n; i++)
		cr_assert_lt(index_ent(tl->ix, tl->pos[tl->lanes[1].first + i - 1])->time,
		    index_ent(tl->ix, tl->pos[tl->lanes[1].first + i])->time);
	/* 10 columns of 10 ns: one sample each */
	max = timeline_buckets(tl, 1, 1000, 1100, 10, out);
	cr_assert_eq(max, 1);
	for (int k = 0; k < 10; k++)
		cr_assert_eq(out[k], 1, "column %d", k);
	/* 3 columns over [1000, 1100): 1000-1033, 1033-1066, 1066-1100 */
	max = timeline_buckets(tl, 0, 1000, 1100, 3, out);
	cr_assert_eq(out[0], 4);
	cr_assert_eq(out[1], 3);
	cr_assert_eq(out[2], 3);
	cr_assert_eq(max, 4);
	for (int k = 0; k < 3; k++)
		sum += out[k];
	cr_assert_eq(sum, 10);
	cr_assert_eq(timeline_col_start(1000, 1100, 3, 1), 1033);
	cr_assert_eq(timeline_col_start(1000, 1100, 3, 3), 1100);
	cr_assert_eq(tl->nlost, 0);
	cr_assert_not(tl->has_switch);
	timeline_free(tl);
	/* by CPU: samples alternate between CPU 0 and 1 */
	tl = timeline_new(s, TL_CPU, -1);
	cr_assert_eq(tl->nlanes, 3);
	cr_assert_eq(tl->lanes[1].cpu, 0);
	cr_assert_eq(tl->lanes[2].cpu, 1);
	cr_assert_eq(tl->lanes[1].n, 5);
	cr_assert_eq(tl->lanes[2].n, 5);
	cr_assert_str_eq(timeline_label(tl, 2, buf, sizeof buf), "cpu 1");
	timeline_free(tl);
	/* every sample alone */
	tl = timeline_new(s, TL_ALL, -1);
	cr_assert_eq(tl->nlanes, 1);
	cr_assert_eq(tl->lanes[0].n, 10);
	cr_assert_eq(tl->npos, 10);
	timeline_free(tl);
	session_close(s);
	pd_free(&b);
}

/* The synthetic recording with its EXIT record made a LOST record of 7 samples. */
Test(timeline, lost_records_per_lane)
{
	struct pdbuf b = { 0 };
	struct session *s;
	struct timeline *tl;
	size_t at;
	uint64_t lost[4];

	synth_file(&b, false, 8);
	at = synth_layout.feat_table - 64;
	cr_assert_eq(b.p[at], 4);	/* EXIT, 64 bytes: 24 of body, then the sample_id */
	cr_assert_eq(b.p[at + 6], 64);
	pd_put32(&b, at, 2 /* LOST */);
	pd_put64(&b, at + 8, 100);	/* id */
	pd_put64(&b, at + 16, 7);	/* lost */
	s = open_bytes(&b);
	tl = timeline_new(s, TL_TASKS, -1);
	cr_assert_eq(tl->nlost, 1);
	cr_assert_eq(tl->lost[0].lost, 7);
	cr_assert_eq(tl->lost[0].time, 1080);
	cr_assert_eq(tl->lost[0].pid, 42);
	cr_assert_eq(tl->lanes[0].lost, 7);
	cr_assert_eq(tl->lanes[1].lost, 7);
	timeline_lost_buckets(tl, 1, 1000, 1100, 4, lost);
	cr_assert_eq(lost[0] + lost[1] + lost[2], 0);
	cr_assert_eq(lost[3], 7);	/* [1075, 1100) */
	timeline_lost_buckets(tl, 1, 1000, 1080, 4, lost);
	cr_assert_eq(lost[3], 0);	/* the end is out */
	timeline_free(tl);
	session_close(s);
	pd_free(&b);
}

/* fork.data: three processes (perf script: 61, 59, 61 samples), the parent first. */
Test(timeline, fork_fixture_processes)
{
	struct session *s = open_fixture("fork.data");
	struct timeline *tl = timeline_new(s, TL_TASKS, -1);
	uint32_t a = find_lane(tl, TL_KIND_PROC, 26193, 0);
	uint32_t b = find_lane(tl, TL_KIND_PROC, 26195, 0);
	uint32_t c = find_lane(tl, TL_KIND_PROC, 26196, 0);

	cr_assert_eq(tl->npos, 181);
	cr_assert_eq(tl->nlanes, 4);
	cr_assert_eq(a, 1);	/* the process tree's order: the parent, then its children */
	cr_assert_neq(b, TL_NONE);
	cr_assert_neq(c, TL_NONE);
	cr_assert_eq(tl->lanes[a].n, 61);
	cr_assert_eq(tl->lanes[b].n, 59);
	cr_assert_eq(tl->lanes[c].n, 61);
	cr_assert_eq(timeline_count(tl, 0, tl->first, tl->last + 1), 181);
	timeline_free(tl);
	session_close(s);
}

/* multi.data: two events of 92 samples each; one event alone. */
Test(timeline, multi_fixture_one_event)
{
	struct session *s = open_fixture("multi.data");
	struct timeline *all = timeline_new(s, TL_TASKS, -1);
	struct timeline *one = timeline_new(s, TL_TASKS, 0);

	cr_assert_eq(all->npos, 184);
	cr_assert_eq(one->npos, 92);
	cr_assert_eq(one->lanes[1].pid, 26167);
	cr_assert_eq(one->lanes[1].n, 92);
	timeline_free(all);
	timeline_free(one);
	session_close(s);
}

/*
 * switch.data: pid 26216 with threads 26216 (1 sample), 26218 (61), 26219
 * (83), 26220 (83); its switch records make 2, 135, 100 and 149 off-CPU
 * gaps (a switch out, then that thread's next switch in).
 */
Test(timeline, switch_fixture_threads_and_gaps)
{
	static const int32_t tids[4] = { 26216, 26218, 26219, 26220 };
	static const uint32_t samples[4] = { 1, 61, 83, 83 }, gaps[4] = { 2, 135, 100, 149 };
	struct session *s = open_fixture("switch.data");
	struct timeline *tl = timeline_new(s, TL_TASKS, -1);
	uint32_t p = find_lane(tl, TL_KIND_PROC, 26216, 0);
	uint64_t *off;
	uint64_t sum = 0, want = 0;

	cr_assert(tl->has_switch);
	cr_assert_eq(p, 1);
	cr_assert_eq(tl->lanes[p].n, 228);
	cr_assert_eq(tl->lanes[p].nkids, 4);
	for (int i = 0; i < 4; i++) {
		uint32_t l = find_lane(tl, TL_KIND_THREAD, 26216, tids[i]);

		cr_assert_eq(l, p + 1 + (uint32_t)i, "tid %d", tids[i]);
		cr_assert_eq(tl->lanes[l].parent, p);
		cr_assert_eq(tl->lanes[l].n, samples[i], "tid %d", tids[i]);
		cr_assert_eq(tl->lanes[l].gn, gaps[i], "tid %d", tids[i]);
	}
	/* the gap buckets of a thread add up to its gaps' time */
	{
		uint32_t l = p + 2;
		unsigned w = 37;

		off = xcalloc(w, sizeof *off);
		for (uint32_t g = tl->lanes[l].gfirst; g < tl->lanes[l].gfirst + tl->lanes[l].gn; g++)
			want += tl->gaps[g].end - tl->gaps[g].start;
		timeline_gap_buckets(tl, l, tl->first - 1000000, tl->last + 1000000, w, off, NULL);
		for (unsigned k = 0; k < w; k++)
			sum += off[k];
		cr_assert_eq(sum, want);
		free(off);
	}
	timeline_free(tl);
	session_close(s);
}

/* fp.data: 186 samples of one thread; the flame scope's cells hold them all. */
Test(timeline, fp_fixture_heat)
{
	struct session *s = open_fixture("fp.data");
	struct timeline *tl = timeline_new(s, TL_TASKS, -1);
	struct tl_heat ht;
	uint64_t sum = 0, a, b;
	uint64_t unit = 10000000;	/* 10 ms */

	cr_assert_eq(tl->npos, 186);
	cr_assert(timeline_heat(tl, 0, unit, 20, &ht));
	cr_assert_eq(ht.origin, tl->first);
	cr_assert_eq(ht.ncols, (tl->last - tl->first) / unit + 1);
	for (size_t i = 0; i < ht.ncols * ht.nrows; i++)
		sum += ht.cells[i];
	cr_assert_eq(sum, 186);
	/* each cell's count is the samples of its time range */
	for (size_t c = 0; c < ht.ncols; c++)
		for (unsigned r = 0; r < ht.nrows; r++) {
			timeline_heat_range(&ht, c, r, c, r, &a, &b);
			cr_assert_eq(timeline_count(tl, 0, a, b + 1), ht.cells[c * ht.nrows + r]);
		}
	/* a rectangle from a later cell to an earlier one is in time order */
	timeline_heat_range(&ht, 2, 5, 0, 3, &a, &b);
	cr_assert_eq(a, tl->first + 3 * unit / 20);
	cr_assert_eq(b, tl->first + 2 * unit + 6 * unit / 20 - 1);
	timeline_heat_free(&ht);
	/* too many cells */
	cr_assert_not(timeline_heat(tl, 0, 1, 1000, &ht));
	timeline_free(tl);
	session_close(s);
}

/*
 * offcpu.data: with the off-CPU model, each thread's gaps are its spans
 * (from the switch-out's time, the span's length, the kind its state
 * says); the buckets add up to them, kind by kind.
 */
Test(timeline, offcpu_spans_are_the_gaps)
{
	struct session *s = open_fixture("offcpu.data");
	struct offcpu o;
	struct timeline *tl;
	uint64_t want[TL_GAP_NKINDS] = { 0 }, total = 0, sum = 0, per[TL_GAP_NKINDS] = { 0 };
	size_t ngaps = 0;
	unsigned w = 2000;
	uint64_t *off = xcalloc(w, sizeof *off);
	uint8_t *kind = xcalloc(w, 1);

	cr_assert_eq(offcpu_build(s, &o), OFFCPU_OK);
	tl = timeline_new_oc(s, TL_TASKS, -1, NULL, &o);
	cr_assert(tl->has_switch);
	for (size_t l = 0; l < tl->nlanes; l++)
		ngaps += tl->lanes[l].gn;
	cr_assert_eq(ngaps, tl->ngaps, "every gap in a lane");
	cr_assert_gt(ngaps, o.n / 2, "%zu gaps of %zu spans", ngaps, o.n);
	for (size_t l = 0; l < tl->nlanes; l++) {
		for (uint32_t g = tl->lanes[l].gfirst; g < tl->lanes[l].gfirst + tl->lanes[l].gn; g++) {
			want[tl->gaps[g].kind] += tl->gaps[g].end - tl->gaps[g].start;
			total += tl->gaps[g].end - tl->gaps[g].start;
		}
		if (tl->lanes[l].gn == 0)
			continue;
		timeline_gap_buckets(tl, (uint32_t)l, tl->first, tl->last + 1, w, off, kind);
		for (unsigned k = 0; k < w; k++) {
			sum += off[k];
			per[kind[k]] += off[k];
		}
	}
	cr_assert_leq(sum, total, "the buckets hold the gaps within the samples' span");
	cr_assert_gt(sum * 10, total * 9, "most of the gaps: %" PRIu64 " of %" PRIu64, sum, total);
	/* offcpu.data sleeps (S), waits on a pipe, a futex (S) and is preempted (R+) */
	cr_assert_gt(want[TL_GAP_SLEEP], 0);
	cr_assert_gt(want[TL_GAP_PREEMPTED], 0, "preempted spans");
	cr_assert_gt(per[TL_GAP_SLEEP], 0, "sleeping columns");
	/* spans of each lane are its threads': the span's tid */
	for (size_t k = 0; k < o.n; k++) {
		uint64_t t = index_ent(session_index(s), (size_t)o.v[k].pos)->time;
		bool found = false;

		for (size_t l = 0; l < tl->nlanes && !found; l++) {
			if (tl->lanes[l].tid != o.v[k].tid)
				continue;
			for (uint32_t g = tl->lanes[l].gfirst; g < tl->lanes[l].gfirst + tl->lanes[l].gn; g++)
				found |= tl->gaps[g].start == t && tl->gaps[g].end == t + o.v[k].ns &&
				    tl->gaps[g].kind == timeline_gap_kind(o.v[k].state);
		}
		if (o.v[k].ns > 0)
			cr_assert(found || o.v[k].tid <= 0, "span %zu of tid %d drawn in its lane", k, (int)o.v[k].tid);
	}
	cr_assert_eq(timeline_gap_kind(2), TL_GAP_BLOCKED, "D");
	cr_assert_eq(timeline_gap_kind(1), TL_GAP_SLEEP, "S");
	cr_assert_eq(timeline_gap_kind(0), TL_GAP_PREEMPTED, "R");
	cr_assert_eq(timeline_gap_kind(0x101), TL_GAP_PREEMPTED, "S+ is a preemption");
	free(off);
	free(kind);
	timeline_free(tl);
	offcpu_free(&o);
	session_close(s);
}

/*
 * wakers.data: a gap's wake is the time of its span's waker, within the
 * gap; the wake buckets of a lane count each wake in the gap's lane once,
 * in the column that holds it.
 */
Test(timeline, wakeups_end_their_gaps)
{
	struct session *s = open_fixture("wakers.data");
	const struct rec_index *ix = session_index(s);
	struct offcpu o;
	struct timeline *tl;
	unsigned w = 500;
	uint32_t *out = xcalloc(w, sizeof *out);
	uint64_t wakes = 0, marks = 0, spans_woken = 0;

	cr_assert_eq(offcpu_build(s, &o), OFFCPU_OK);
	tl = timeline_new_oc(s, TL_TASKS, -1, NULL, &o);
	for (size_t g = 0; g < tl->ngaps; g++) {
		if (tl->gaps[g].wake == 0)
			continue;
		wakes++;
		cr_assert(tl->gaps[g].wake >= tl->gaps[g].start && tl->gaps[g].wake <= tl->gaps[g].end,
		    "gap %zu: woken in it", g);
	}
	for (size_t k = 0; k < o.n; k++)
		spans_woken += o.v[k].waker < ix->n;
	cr_assert_gt(wakes, 200);
	cr_assert_leq(wakes, spans_woken);
	for (size_t l = 0; l < tl->nlanes; l++) {
		uint64_t sum = timeline_wake_buckets(tl, (uint32_t)l, tl->first, tl->last + 1, w, out);
		uint64_t cols = 0;

		for (unsigned k = 0; k < w; k++)
			cols += out[k];
		cr_assert_eq(cols, sum);
		marks += sum;
		/* one column, the one holding the wake: the first gap of the lane woken */
		for (uint32_t g = tl->lanes[l].gfirst; g < tl->lanes[l].gfirst + tl->lanes[l].gn; g++) {
			uint64_t t = tl->gaps[g].wake;
			unsigned k = 0;

			if (t == 0 || t > tl->last)
				continue;
			while (k + 1 < w && timeline_col_start(tl->first, tl->last + 1, w, k + 1) <= t)
				k++;
			cr_assert_gt(out[k], 0, "lane %zu: the wake at %" PRIu64 " marked", l, t);
			break;
		}
	}
	cr_assert_leq(marks, wakes);
	cr_assert_gt(marks * 10, wakes * 9, "%" PRIu64 " of %" PRIu64 " wakes within the samples", marks,
	    wakes);
	timeline_free(tl);
	offcpu_free(&o);
	free(out);
	session_close(s);
}

/* t and u are the same lanes, positions, lost records and gaps. */
static void
same_timeline(const struct timeline *t, const struct timeline *u, const char *what)
{
	cr_assert(t->nlanes == u->nlanes && t->npos == u->npos && t->nlost == u->nlost &&
	    t->ngaps == u->ngaps && t->first == u->first && t->last == u->last &&
	    t->has_switch == u->has_switch, "%s: the counts", what);
	cr_assert(t->nlanes == 0 || memcmp(t->lanes, u->lanes, t->nlanes * sizeof *t->lanes) == 0,
	    "%s: the lanes", what);
	for (size_t i = 0; i < t->nlanes; i++)
		cr_assert(t->lanes[i].n == 0 || memcmp(t->pos + t->lanes[i].first,
		    u->pos + u->lanes[i].first, t->lanes[i].n * sizeof *t->pos) == 0,
		    "%s: lane %zu's positions", what, i);
	for (size_t i = 0; i < t->nlost; i++)
		cr_assert(t->lost[i].time == u->lost[i].time && t->lost[i].lost == u->lost[i].lost &&
		    t->lost[i].pid == u->lost[i].pid && t->lost[i].tid == u->lost[i].tid,
		    "%s: lost record %zu", what, i);
	for (size_t i = 0; i < t->ngaps; i++)
		cr_assert(t->gaps[i].start == u->gaps[i].start && t->gaps[i].end == u->gaps[i].end &&
		    t->gaps[i].kind == u->gaps[i].kind && t->gaps[i].wake == u->gaps[i].wake &&
		    t->gaps[i].waker_tid == u->gaps[i].waker_tid, "%s: gap %zu", what, i);
}

/* Made a position a step (the browser makes lanes between keys): the share grows to 1. */
static struct timeline *
stepped(const struct session *s, enum tl_mode mode, const struct offcpu *oc, const char *what)
{
	struct timeline_job *j = timeline_job_new(s, mode, -1, NULL, oc);
	double last = 0;
	size_t steps = 0;

	while (!timeline_job_step(j, 1)) {
		cr_assert_geq(timeline_job_share(j), last, "%s: the share grows", what);
		last = timeline_job_share(j);
		cr_assert_lt(last, 1.0, "%s", what);
		steps++;
	}
	cr_assert_eq(timeline_job_share(j), 1.0);
	cr_assert_geq(steps, session_index(s)->n, "%s: a position a step", what);
	return timeline_job_take(j);
}

/*
 * Lanes made in steps are those made at once, in every mode, with every
 * pass: lost records (the synthetic file), switch records (switch.data)
 * and an off-CPU model's spans (offcpu.data).
 */
Test(timeline, made_in_steps_as_at_once)
{
	const char *fx[] = { "fork.data", "switch.data", "offcpu.data", NULL };
	struct pdbuf b = { 0 };
	size_t at;

	for (size_t f = 0; f < 4; f++) {
		struct session *s;
		struct offcpu o = { 0 };
		bool oc = false;

		if (fx[f] != NULL) {
			s = open_fixture(fx[f]);
			oc = strcmp(fx[f], "offcpu.data") == 0;
			if (oc)
				cr_assert_eq(offcpu_build(s, &o), OFFCPU_OK);
		} else {
			synth_file(&b, false, 8);
			at = synth_layout.feat_table - 64;
			pd_put32(&b, at, 2 /* LOST */);
			pd_put64(&b, at + 8, 100);
			pd_put64(&b, at + 16, 7);
			s = open_bytes(&b);
		}
		for (int m = TL_TASKS; m <= TL_ALL; m++) {
			char what[64];
			struct timeline *one = timeline_new_oc(s, (enum tl_mode)m, -1, NULL, oc ? &o : NULL);
			struct timeline *st;

			snprintf(what, sizeof what, "%s mode %d", fx[f] ? fx[f] : "lost", m);
			st = stepped(s, (enum tl_mode)m, oc ? &o : NULL, what);
			same_timeline(one, st, what);
			if (fx[f] == NULL && m == TL_TASKS)
				cr_assert_eq(st->nlost, 1, "the lost records' pass");
			if (fx[f] != NULL && m == TL_TASKS && strcmp(fx[f], "fork.data") != 0)
				cr_assert_gt(st->ngaps, 0, "%s: the gaps' pass", what);
			timeline_free(one);
			timeline_free(st);
		}
		if (oc)
			offcpu_free(&o);
		session_close(s);
	}
	pd_free(&b);
}
