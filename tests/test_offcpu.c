/*
 * Criterion tests of symbolize/offcpu.c: the pairing of switch-outs and
 * switch-ins fed switch by switch (a switch-out never switched back in, a
 * thread switched in twice, two switch-outs in a row, the idle task, time
 * going backwards), the payload fields read through tpevent's places
 * (short and damaged payloads), and the model of perf-made fixtures:
 * offcpu.data (sched_switch with callchains), fp.data (none).
 */
#include "config.h"

#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/core.h"
#include "symbolize/hist.h"
#include "symbolize/offcpu.h"
#include "symbolize/tpevent.h"
#include "tests/helpers.h"
#include "tests/offcpu_synth.h"

Test(offcpu, pairs_out_with_next_in)
{
	struct offcpu o;
	struct offcpu_pairing *p = offcpu_pairing_begin(&o);

	/* pos, time, prev, next, state: 7 out at 100 (S), in at 250; 8 out at 250, in at 400 */
	offcpu_pairing_add(p, 0, 100, 7, 9, 1);
	offcpu_pairing_add(p, 1, 250, 8, 7, 2);
	offcpu_pairing_add(p, 2, 400, 9, 8, 0);
	offcpu_pairing_end(p);
	cr_assert_eq(o.n, 2);
	cr_assert_eq(o.v[0].pos, 0);
	cr_assert_eq(o.v[0].tid, 7);
	cr_assert_eq(o.v[0].ns, 150);
	cr_assert_eq(o.v[0].state, 1);
	cr_assert_eq(o.v[1].pos, 1);
	cr_assert_eq(o.v[1].tid, 8);
	cr_assert_eq(o.v[1].ns, 150);
	cr_assert_eq(o.v[1].state, 2);
	/* 9 went out at 400 and never came back */
	cr_assert_eq(o.nopen, 1);
	cr_assert_eq(o.total_ns, 300);
	cr_assert_eq(offcpu_lower(&o, 1), 1);
	cr_assert_eq(offcpu_lower(&o, 2), 2);
	offcpu_free(&o);
}

Test(offcpu, never_switched_in_is_left_out)
{
	struct offcpu o;
	struct offcpu_pairing *p = offcpu_pairing_begin(&o);

	offcpu_pairing_add(p, 3, 1000, 42, 43, 1);
	offcpu_pairing_add(p, 4, 2000, 44, 45, 1);
	offcpu_pairing_end(p);
	cr_assert_eq(o.n, 0);
	cr_assert_eq(o.nopen, 2);
	cr_assert_eq(o.total_ns, 0);
	offcpu_free(&o);
}

Test(offcpu, switched_in_twice_pairs_once)
{
	struct offcpu o;
	struct offcpu_pairing *p = offcpu_pairing_begin(&o);

	offcpu_pairing_add(p, 0, 100, 5, 6, 1);
	offcpu_pairing_add(p, 1, 300, 6, 5, 0);	/* 5 in: 200 */
	offcpu_pairing_add(p, 2, 500, 7, 5, 0);	/* 5 in again, never out: nothing */
	offcpu_pairing_add(p, 3, 700, 5, 6, 1);	/* 5 out, 6 in: 400 */
	offcpu_pairing_add(p, 4, 900, 6, 5, 1);	/* 5 in: 200 */
	offcpu_pairing_end(p);
	cr_assert_eq(o.n, 3);
	cr_assert_eq(o.v[0].tid, 5);
	cr_assert_eq(o.v[0].ns, 200);
	cr_assert_eq(o.v[1].tid, 6);
	cr_assert_eq(o.v[1].ns, 400);
	cr_assert_eq(o.v[2].tid, 5);
	cr_assert_eq(o.v[2].pos, 3);
	cr_assert_eq(o.v[2].ns, 200);
	offcpu_free(&o);
}

Test(offcpu, out_twice_idle_and_backwards)
{
	struct offcpu o;
	struct offcpu_pairing *p = offcpu_pairing_begin(&o);

	offcpu_pairing_add(p, 0, 100, 5, 0, 1);
	offcpu_pairing_add(p, 1, 200, 5, 0, 1);	/* out again: the first dropped */
	offcpu_pairing_add(p, 2, 350, 0, 5, 0);	/* idle out: no span; 5 in: 150 */
	offcpu_pairing_add(p, 3, 400, 8, 0, 1);
	offcpu_pairing_add(p, 4, 300, 0, 8, 0);	/* in before out: damage */
	offcpu_pairing_end(p);
	cr_assert_eq(o.n, 1);
	cr_assert_eq(o.v[0].pos, 1);
	cr_assert_eq(o.v[0].ns, 150);
	cr_assert_eq(o.nagain, 1);
	cr_assert_eq(o.nidle, 2);
	cr_assert_eq(o.nbad, 1);
	cr_assert_eq(o.nopen, 0);
	offcpu_free(&o);
}

/* prev_pid, next_pid, prev_state of the first sched_switch payload of offcpu.data */
Test(offcpu, payload_fields_and_short_payloads)
{
	struct session *s = open_fixture("offcpu.data");
	const struct attr_table *at = session_attrs(s);
	struct tpevent *tp = tpevent_new(s);
	struct tp_loc prev, next, state, comm;
	uint8_t raw[128];
	int64_t v;

	cr_assert_not_null(tp);
	cr_assert_eq(at->v[0].attr.type, PERF_TYPE_TRACEPOINT);
	cr_assert(tpevent_field_loc(tp, at->v[0].attr.config, "prev_pid", &prev));
	cr_assert(tpevent_field_loc(tp, at->v[0].attr.config, "next_pid", &next));
	cr_assert(tpevent_field_loc(tp, at->v[0].attr.config, "prev_state", &state));
	cr_assert_eq(prev.size, 4);
	cr_assert(prev.is_signed);
	/* a char array is no number; nor is a field that is not there */
	cr_assert_not(tpevent_field_loc(tp, at->v[0].attr.config, "prev_comm", &comm));
	cr_assert_not(tpevent_field_loc(tp, at->v[0].attr.config, "no_such_field", &comm));
	cr_assert_not(tpevent_field_loc(tp, 999999, "prev_pid", &comm));
	memset(raw, 0xff, sizeof raw);
	cr_assert(tp_loc_read(&prev, raw, sizeof raw, &v));
	cr_assert_eq(v, -1);	/* signed: extended */
	cr_assert_not(tp_loc_read(&next, raw, next.offset + next.size - 1, &v));
	cr_assert_eq(v, 0);
	cr_assert_not(tp_loc_read(&next, NULL, 0, &v));
	cr_assert(tp_loc_read(&next, raw, next.offset + next.size, &v));
	tpevent_free(tp);
	session_close(s);
}

/* The fixture's model: every span a switch-out of its own thread, the
 * workload's six threads among them, and the hist of it in "off-cpu". */
Test(offcpu, fixture_model_and_hist)
{
	struct session *s = open_fixture("offcpu.data");
	struct offcpu o;
	struct hist_opts ho;
	struct hist *h;
	uint64_t sum = 0;

	cr_assert_eq(offcpu_build(s, &o), OFFCPU_OK);
	cr_assert_gt(o.n, 100);
	cr_assert_eq(o.nbad, 0);
	for (size_t i = 0; i < o.n; i++) {
		struct ent_who w = session_ent_who(s, (size_t)o.v[i].pos);

		cr_assert(i == 0 || o.v[i].pos > o.v[i - 1].pos);
		cr_assert_eq(w.tid, o.v[i].tid, "span %zu: sample tid %d, prev_pid %d", i,
		    (int)w.tid, (int)o.v[i].tid);
		sum += o.v[i].ns;
	}
	cr_assert_eq(sum, o.total_ns);
	memset(&ho, 0, sizeof ho);
	ho.event = -1;
	ho.offcpu = &o;
	h = hist_new(s, NULL, &ho);
	cr_assert_eq(hist_add_session(h, NULL), o.n);
	hist_finish(h);
	cr_assert_eq(hist_nevents(h), 1);
	cr_assert_str_eq(hist_str(h, hist_event(h, 0)->name), OFFCPU_EVENT_NAME);
	cr_assert_eq(hist_event(h, 0)->total_period, o.total_ns);
	cr_assert_eq(hist_event(h, 0)->nsamples, o.n);
	hist_free(h);
	offcpu_free(&o);
	session_close(s);
}

Test(offcpu, recording_without_sched_switch)
{
	struct session *s = open_fixture("fp.data");
	struct offcpu o;

	cr_assert_eq(offcpu_build(s, &o), OFFCPU_NO_EVENT);
	cr_assert_eq(o.n, 0);
	offcpu_free(&o);
	session_close(s);
}

/* The state key's text: the kernel's letters, R when none, + for a preemption. */
Test(offcpu, state_text)
{
	static const struct {
		uint32_t	 state;
		const char	*text;
	} v[] = {
		{ 0, "R" }, { 0x100, "R+" }, { 1, "S" }, { 2, "D" }, { 0x80, "I" }, { 0x10, "X" },
		{ 0x20, "Z" }, { 3, "S|D" }, { 0x101, "S+" },
	};
	char buf[32];

	for (size_t i = 0; i < sizeof v / sizeof v[0]; i++) {
		hist_state_text(v[i].state, buf, sizeof buf);
		cr_expect_str_eq(buf, v[i].text, "state %#x", v[i].state);
	}
	hist_state_text(0xff, buf, 4);
	cr_expect_eq(strlen(buf), 3, "cut to the buffer: %s", buf);
}

/* ---- the other sources: byte-built recordings (tests/offcpu_synth.c) ---- */

/* The recording of kind k in a temporary file; its path. */
static char *
osyn_file(enum osyn_kind k, bool swap, bool hostile)
{
	struct pdbuf b;
	char *path;

	osyn_build(&b, k, swap, hostile);
	path = tmp_write("offcpu", b.p, b.len);
	pd_free(&b);
	return path;
}

static struct session *
osyn_open(const char *path)
{
	struct perf_err err;
	struct session *s;

	memset(&err, 0, sizeof err);
	s = session_open(path, NULL, &err);
	cr_assert_not_null(s, "%s: %s", path, err.msg);
	return s;
}

static int
cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/*
 * perfnav top --off-cpu --tsv ARGS on the recording at path, with the
 * functions' names from a perf-10.map: its off-cpu rows without the event
 * (EVENT [CHILDREN] SELF SAMPLES KEY), sorted, one a line; its standard
 * error into *err (may be NULL).
 */
static char *
osyn_top(const char *args, const char *path, char **err)
{
	char dir[] = "/tmp/perfnav-test-offcpu-map-XXXXXX", cmd[9000], errpath[256], *out, *line;
	char *rows[64], *res;
	size_t n = 0, len = 0;
	int status;

	cr_assert_not_null(mkdtemp(dir));
	osyn_perfmap(dir);
	snprintf(errpath, sizeof errpath, "%s/stderr", dir);
	snprintf(cmd, sizeof cmd, "%s/perfnav top --off-cpu --tsv %s --perfmap-dir %s --kallsyms /dev/null %s 2>%s",
	    TEST_BUILDDIR, args, dir, path, errpath);
	out = cmd_output(cmd, NULL, &status);
	cr_assert_not_null(out);
	cr_assert_eq(status, 0, "%s:\n%s", cmd, out);
	for (line = strtok(out, "\n"); line != NULL; line = strtok(NULL, "\n"))
		if (strncmp(line, "off-cpu\t", 8) == 0 && n < 64)
			rows[n++] = line + 8;
	qsort(rows, n, sizeof *rows, cmp_str);
	for (size_t i = 0; i < n; i++)
		len += strlen(rows[i]) + 1;
	res = calloc(1, len + 1);
	cr_assert_not_null(res);
	for (size_t i = 0; i < n; i++) {
		strcat(res, rows[i]);
		strcat(res, "\n");
	}
	if (err != NULL)
		*err = slurp(errpath, NULL);
	free(out);
	unlink(errpath);
	snprintf(cmd, sizeof cmd, "%s/perf-%d.map", dir, OSYN_PID);
	unlink(cmd);
	rmdir(dir);
	return res;
}

/* Span i: its thread, ns, state and flags, and the thread of the sample it lies at. */
static void
expect_span(const struct session *s, const struct offcpu *o, size_t i, int tid, uint64_t ns,
    unsigned state, unsigned flags)
{
	cr_assert_lt(i, o->n);
	cr_expect_eq(o->v[i].tid, tid, "span %zu: tid %d", i, (int)o->v[i].tid);
	cr_expect_eq(o->v[i].ns, ns, "span %zu: %llu ns", i, (unsigned long long)o->v[i].ns);
	cr_expect_eq(o->v[i].state, state, "span %zu: state %#x", i, o->v[i].state);
	cr_expect_eq(o->v[i].flags, flags, "span %zu: flags %#x", i, o->v[i].flags);
	cr_expect_eq(session_ent_who(s, (size_t)o->v[i].pos).tid, tid, "span %zu's sample", i);
}

/* SWITCH records alone: the spans of offcpu_synth.c's timeline, two at one sample. */
Test(offcpu_switch, spans_at_the_last_sample)
{
	for (int swap = 0; swap < 2; swap++) {
		char *path = osyn_file(OSYN_SWITCH, swap, false);
		struct session *s = osyn_open(path);
		struct offcpu o;

		cr_assert_eq(offcpu_build(s, &o), OFFCPU_OK);
		cr_assert_eq(o.source, OFFCPU_SRC_SWITCH);
		cr_assert(o.approx);
		cr_assert_not(o.embedded);
		cr_assert_eq(o.n, 4, "swap %d: %zu spans", swap, o.n);
		/* thread 11's two spans from sample A, by ns: 200 asleep, 300 preempted */
		expect_span(s, &o, 0, 11, 200, OFFCPU_STATE_ASLEEP, OFFCPU_APPROX);
		expect_span(s, &o, 1, 11, 300, OFFCPU_STATE_PREEMPT, OFFCPU_APPROX);
		cr_expect_eq(o.v[0].pos, o.v[1].pos);
		expect_span(s, &o, 2, 12, 500, OFFCPU_STATE_ASLEEP, OFFCPU_APPROX);
		expect_span(s, &o, 3, 11, 500, OFFCPU_STATE_ASLEEP, OFFCPU_APPROX);
		cr_expect(o.v[1].pos < o.v[2].pos && o.v[2].pos < o.v[3].pos);
		cr_expect_eq(o.total_ns, 1500);
		cr_expect_eq(o.nswitch, 12);
		cr_expect_eq(o.nnosample, 1);	/* thread 13 */
		cr_expect_eq(o.nidle, 1);
		cr_expect_eq(o.nopen, 1);	/* thread 12 at 2700 */
		cr_expect_eq(o.nagain, 0);
		cr_expect_eq(o.nbad, 0);
		offcpu_free(&o);
		session_close(s);
		unlink(path);
		free(path);
	}
}

/* The hist charges every span at a position: sample A twice. */
Test(offcpu_switch, hist_charges_every_span_of_a_sample)
{
	char *path = osyn_file(OSYN_SWITCH, false, false);
	struct session *s = osyn_open(path);
	struct hist_opts ho;
	struct offcpu o;
	struct hist *h;

	cr_assert_eq(offcpu_build(s, &o), OFFCPU_OK);
	memset(&ho, 0, sizeof ho);
	ho.event = -1;
	ho.offcpu = &o;
	h = hist_new(s, NULL, &ho);
	cr_assert_eq(hist_add_session(h, NULL), 4);
	hist_finish(h);
	cr_assert_eq(hist_nevents(h), 1);
	cr_expect_eq(hist_event(h, 0)->total_period, 1500);
	cr_expect_eq(hist_event(h, 0)->nsamples, 4);
	hist_free(h);
	/* the same split in two at every position: one pass's totals */
	for (size_t cut = 0; cut <= session_index(s)->n; cut++) {
		struct hist *a = hist_new(s, NULL, &ho), *b = hist_new(s, NULL, &ho);

		hist_add_range(a, 0, cut, NULL);
		hist_add_range(b, cut, session_index(s)->n, NULL);
		hist_finish(a);
		hist_finish(b);
		cr_expect_eq((hist_nevents(a) ? hist_event(a, 0)->total_period : 0) +
		    (hist_nevents(b) ? hist_event(b, 0)->total_period : 0), 1500, "cut %zu", cut);
		hist_free(a);
		hist_free(b);
	}
	offcpu_free(&o);
	session_close(s);
	unlink(path);
	free(path);
}

/*
 * perfnav top --off-cpu --children --sort sym --tsv, worked out by hand:
 * of 1500 ns, f_main is on every stack; f_lock on A's two spans (500, self,
 * 2 samples); f_read on B (500, self) and C (500); f_sleep on C (self).
 * By state: S|D 1200, R+ 300; by thread: 11 1000, 12 500.  Both byte
 * orders alike; the header says approximate.
 */
Test(offcpu_switch, top_rows_by_hand)
{
	static const char *sym =
	    "100.00\t0.00\t0\t[.] f_main\n"
	    "33.33\t33.33\t1\t[.] f_sleep\n"
	    "33.33\t33.33\t2\t[.] f_lock\n"
	    "66.67\t33.33\t1\t[.] f_read\n";
	char *got[2], *err;

	for (int swap = 0; swap < 2; swap++) {
		char *path = osyn_file(OSYN_SWITCH, swap, false), *st, *tid;

		got[swap] = osyn_top("--children --sort sym", path, &err);
		cr_expect_str_eq(got[swap], sym, "swap %d:\n%s", swap, got[swap]);
		cr_expect_not_null(strstr(err, "approximate"), "%s", err);
		free(err);
		st = osyn_top("--sort state", path, NULL);
		cr_expect_str_eq(st, "20.00\t1\tR+\n80.00\t3\tS|D\n", "%s", st);
		tid = osyn_top("--sort tid", path, NULL);
		cr_expect_str_eq(tid, "33.33\t1\t     12:app\n66.67\t3\t     11:app\n", "%s", tid);
		free(st);
		free(tid);
		unlink(path);
		free(path);
	}
	cr_expect_str_eq(got[0], got[1]);
	free(got[0]);
	free(got[1]);
}

/* Damage: a record without its trailer is counted bad; a thread switched in
 * before its switch-out has nothing to pair, and its switch-out stays open. */
Test(offcpu_switch, hostile_records)
{
	for (int swap = 0; swap < 2; swap++) {
		char *path = osyn_file(OSYN_SWITCH, swap, true);
		struct session *s = osyn_open(path);
		struct offcpu o;

		cr_assert_eq(offcpu_build(s, &o), OFFCPU_OK);
		cr_expect_eq(o.n, 4);
		cr_expect_eq(o.total_ns, 1500);
		cr_expect_eq(o.nbad, 1);
		cr_expect_eq(o.nopen, 2);
		cr_expect_eq(o.nswitch, 15);
		offcpu_free(&o);
		session_close(s);
		unlink(path);
		free(path);
	}
}

/* The real thing: perf record --switch-events -e cpu-clock -g ./offcpu. */
Test(offcpu_switch, fixture_spans_lie_at_their_threads_samples)
{
	struct session *s = open_fixture("offcpu-sw.data");
	struct offcpu o;
	uint64_t sum = 0;

	cr_assert_eq(offcpu_build(s, &o), OFFCPU_OK);
	cr_assert_eq(o.source, OFFCPU_SRC_SWITCH);
	cr_assert_gt(o.n, 100);
	cr_expect_eq(o.nbad, 0);
	for (size_t i = 0; i < o.n; i++) {
		struct ent_who w = session_ent_who(s, (size_t)o.v[i].pos);

		cr_assert(i == 0 || o.v[i].pos >= o.v[i - 1].pos);
		cr_assert_eq(w.tid, o.v[i].tid, "span %zu", i);
		cr_assert(o.v[i].flags & OFFCPU_APPROX);
		cr_assert(o.v[i].state == OFFCPU_STATE_ASLEEP || o.v[i].state == OFFCPU_STATE_PREEMPT);
		sum += o.v[i].ns;
	}
	cr_expect_eq(sum, o.total_ns);
	offcpu_free(&o);
	session_close(s);
}

/* offcpu-time, both forms: thread 11 3000 ns in A and 4000 in C, thread 12 1000 in B. */
Test(offcpu_bpf, spans_of_both_forms)
{
	for (int k = OSYN_BPF_OLD; k <= OSYN_BPF_NEW; k++) {
		for (int swap = 0; swap < 2; swap++) {
			char *path = osyn_file((enum osyn_kind)k, swap, false);
			struct session *s = osyn_open(path);
			unsigned fl = OFFCPU_BPF | (k == OSYN_BPF_NEW ? OFFCPU_EMBEDDED : 0);
			struct offcpu o;

			cr_assert_eq(offcpu_build(s, &o), OFFCPU_OK);
			cr_assert_eq(o.source, OFFCPU_SRC_BPF);
			cr_expect_not(o.approx);
			cr_expect_eq(o.embedded, k == OSYN_BPF_NEW);
			cr_assert_eq(o.n, 3, "kind %d swap %d: %zu spans", k, swap, o.n);
			cr_expect_eq(o.v[0].tid, 11);
			cr_expect_eq(o.v[0].ns, 3000);
			cr_expect_eq(o.v[1].tid, 12);
			cr_expect_eq(o.v[1].ns, 1000);
			cr_expect_eq(o.v[2].tid, 11);
			cr_expect_eq(o.v[2].ns, 4000);
			for (size_t i = 0; i < 3; i++) {
				cr_expect_eq(o.v[i].state, OFFCPU_STATE_ASLEEP);
				cr_expect_eq(o.v[i].flags, fl);
			}
			cr_expect_eq(o.total_ns, 8000);
			cr_expect_eq(o.nswitch, 3);
			cr_expect_eq(o.nbad, 0);
			offcpu_free(&o);
			session_close(s);
			unlink(path);
			free(path);
		}
	}
}

/*
 * perfnav top --off-cpu --children --sort sym --tsv of both forms, both
 * byte orders, by hand: of 8000 ns, f_main everywhere; f_lock 3000 (self);
 * f_read 1000 (self) + 4000; f_sleep 4000 (self).  By thread: 11 7000, 12
 * 1000.  The same rows every time.
 */
Test(offcpu_bpf, top_rows_by_hand)
{
	static const char *sym =
	    "100.00\t0.00\t0\t[.] f_main\n"
	    "37.50\t37.50\t1\t[.] f_lock\n"
	    "50.00\t50.00\t1\t[.] f_sleep\n"
	    "62.50\t12.50\t1\t[.] f_read\n";

	for (int k = OSYN_BPF_OLD; k <= OSYN_BPF_NEW; k++) {
		for (int swap = 0; swap < 2; swap++) {
			char *path = osyn_file((enum osyn_kind)k, swap, false), *got, *tid, *err;

			got = osyn_top("--children --sort sym", path, &err);
			cr_expect_str_eq(got, sym, "kind %d swap %d:\n%s", k, swap, got);
			cr_expect_not_null(strstr(err, "offcpu-time"), "%s", err);
			cr_expect_null(strstr(err, "approximate"), "%s", err);
			tid = osyn_top("--sort tid", path, NULL);
			cr_expect_str_eq(tid, "12.50\t1\t     12:app\n87.50\t2\t     11:app\n", "kind %d swap %d:\n%s",
			    k, swap, tid);
			free(got);
			free(tid);
			free(err);
			unlink(path);
			free(path);
		}
	}
}

/* Damage counted and left out, the good spans as they were: the new form's
 * short raw data, lying chain, raw size past the record, period 2^64-1; the
 * old form's period 2^64-1. */
Test(offcpu_bpf, hostile_samples)
{
	for (int k = OSYN_BPF_OLD; k <= OSYN_BPF_NEW; k++) {
		for (int swap = 0; swap < 2; swap++) {
			char *path = osyn_file((enum osyn_kind)k, swap, true);
			struct session *s = osyn_open(path);
			struct offcpu o;
			struct hist_opts ho;
			struct hist *h;

			cr_assert_eq(offcpu_build(s, &o), OFFCPU_OK);
			cr_expect_eq(o.n, 3, "kind %d swap %d", k, swap);
			cr_expect_eq(o.total_ns, 8000);
			cr_expect_eq(o.nbad, k == OSYN_BPF_NEW ? 4 : 1, "kind %d swap %d: %llu bad", k, swap,
			    (unsigned long long)o.nbad);
			memset(&ho, 0, sizeof ho);
			ho.event = -1;
			ho.offcpu = &o;
			ho.children = true;
			h = hist_new(s, NULL, &ho);
			cr_expect_eq(hist_add_session(h, NULL), 3);
			hist_finish(h);
			cr_expect_eq(hist_event(h, 0)->total_period, 8000);
			hist_free(h);
			offcpu_free(&o);
			session_close(s);
			unlink(path);
			free(path);
		}
	}
}

/* The embedded fields, read by hand from bytes; too short, and a lying nr. */
Test(offcpu_bpf, embedded_fields)
{
	uint64_t w[8] = { 11ull << 32 | 10, 5000, 3, (uint64_t)PERF_CONTEXT_USER, 0x1234, 0x5678, 0 };
	struct sample smp;

	memset(&smp, 0, sizeof smp);
	smp.sample_type = PERF_SAMPLE_RAW | PERF_SAMPLE_TIME;
	smp.raw = (const uint8_t *)w;
	smp.raw_size = 7 * 8 + 4;
	smp.time = OFFCPU_BPF_END_TIME;
	cr_assert(offcpu_embedded(&smp));
	cr_expect_eq(smp.pid, 10);
	cr_expect_eq(smp.tid, 11);
	cr_expect_eq(smp.period, 5000);
	cr_expect_eq(smp.callchain_nr, 3);
	cr_expect_eq(smp.ip, 0x1234);
	cr_expect_eq(sample_callchain_ip(&smp, 2), 0x5678);
	cr_expect(smp.sample_type & PERF_SAMPLE_CALLCHAIN);
	/* written by the BPF program when the span ended: tgid in the high half */
	smp.time = 100;
	w[0] = 10ull << 32 | 11;
	cr_assert(offcpu_embedded(&smp));
	cr_expect_eq(smp.pid, 10);
	cr_expect_eq(smp.tid, 11);
	smp.raw_size = 31;
	cr_expect_not(offcpu_embedded(&smp));
	smp.raw_size = 7 * 8 + 4;
	w[2] = UINT64_MAX / 8;
	cr_expect_not(offcpu_embedded(&smp));
	smp.raw = NULL;
	cr_expect_not(offcpu_embedded(&smp));
}

/* The sched_switch samples decoded on two cores give the spans (and wakers) of one pass. */
Test(offcpu, two_core_decode_is_one_pass)
{
	const char *fx[] = { "offcpu.data", "wakers.data", "sched-g.data" };

	for (size_t f = 0; f < sizeof fx / sizeof fx[0]; f++) {
		struct session *s = open_fixture(fx[f]);
		struct offcpu a, b;
		size_t saved = offcpu_par_min;

		offcpu_par_min = SIZE_MAX;
		cr_assert_eq(offcpu_build(s, &a), OFFCPU_OK, "%s", fx[f]);
		offcpu_par_min = 2;
		cr_assert_eq(offcpu_build(s, &b), OFFCPU_OK, "%s", fx[f]);
		offcpu_par_min = saved;
		cr_assert_gt(a.n, 10, "%s: spans", fx[f]);
		cr_assert_eq(a.n, b.n, "%s: %zu spans, %zu on two cores", fx[f], a.n, b.n);
		cr_assert_eq(memcmp(a.v, b.v, a.n * sizeof *a.v), 0, "%s: the same spans", fx[f]);
		cr_assert(a.nswitch == b.nswitch && a.nbad == b.nbad && a.nopen == b.nopen && a.nwake == b.nwake &&
		    a.total_ns == b.total_ns, "%s: the same counts", fx[f]);
		offcpu_free(&a);
		offcpu_free(&b);
		session_close(s);
	}
}
