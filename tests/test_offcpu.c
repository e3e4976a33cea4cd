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
#include <stdlib.h>
#include <string.h>

#include "core/core.h"
#include "symbolize/hist.h"
#include "symbolize/offcpu.h"
#include "symbolize/tpevent.h"
#include "tests/helpers.h"

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

static struct session *
open_data(const char *name)
{
	struct perf_err err;
	struct session *s;

	memset(&err, 0, sizeof err);
	s = session_open(test_data(name), NULL, &err);
	cr_assert_not_null(s, "%s: %s", name, err.msg);
	return s;
}

/* prev_pid, next_pid, prev_state of the first sched_switch payload of offcpu.data */
Test(offcpu, payload_fields_and_short_payloads)
{
	struct session *s = open_data("offcpu.data");
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
	struct session *s = open_data("offcpu.data");
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
	struct session *s = open_data("fp.data");
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
