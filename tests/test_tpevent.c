/*
 * Criterion tests of symbolize/tpevent.c: tracepoint payloads decoded with
 * libtraceevent from the recording's TRACING_DATA (tests/data/tracepoint.data,
 * recorded by tests/record-fixtures.sh: sched:sched_switch + cpu-clock), and
 * damaged payloads and formats that must give a fallback, never a crash.
 */
#include "config.h"

#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/core.h"
#include "symbolize/tpevent.h"
#include "tests/helpers.h"

/* The first sched:sched_switch sample of tracepoint.data and its config. */
struct first_tp {
	struct session	*s;
	struct sample	 smp;
	uint64_t	 config;
};

static void
first_tracepoint(struct first_tp *ft)
{
	struct perf_err err;
	const struct rec_index *ix;
	const struct attr_table *at;

	memset(ft, 0, sizeof *ft);
	memset(&err, 0, sizeof err);
	ft->s = session_open(test_data("tracepoint.data"), NULL, &err);
	cr_assert_not_null(ft->s, "%s", err.msg);
	ix = session_index(ft->s);
	at = session_attrs(ft->s);
	for (size_t i = 0; i < ix->n; i++) {
		struct rec r;
		const char *why;

		if (ent_type(&ix->v[i]) != PERF_RECORD_SAMPLE ||
		    session_rec(ft->s, ent_loc(&ix->v[i]), &r) < 0 ||
		    record_decode_sample(ft->s, &r, &ft->smp, &why) < 0 || ft->smp.attr < 0)
			continue;
		if (at->v[ft->smp.attr].attr.type == PERF_TYPE_TRACEPOINT) {
			ft->config = at->v[ft->smp.attr].attr.config;
			return;
		}
	}
	cr_assert_fail("no tracepoint sample in tracepoint.data");
}

static const struct tp_field *
field_named(const struct tp_field *f, size_t n, const char *name)
{
	for (size_t i = 0; i < n; i++)
		if (strcmp(f[i].name, name) == 0)
			return &f[i];
	return NULL;
}

/* perf script -i tests/data/tracepoint.data prints for this sample:
 *   threads 28375 [000] 1002.958374: sched:sched_switch: prev_comm=threads prev_pid=28375
 *   prev_prio=120 prev_state=R ==> next_comm=rcu_preempt next_pid=15 next_prio=120 */
Test(tpevent, sched_switch_text_as_perf_script)
{
	struct first_tp ft;
	struct tpevent *t;
	bool ok = false;
	const char *text;

	first_tracepoint(&ft);
	t = tpevent_new(ft.s);
	cr_assert_not_null(t);
	cr_assert_geq(tpevent_nformats(t), 1);
	cr_assert(tpevent_known(t, ft.config));
	cr_assert_not(tpevent_known(t, 999999));
	text = tpevent_text(t, ft.config, ft.smp.raw, ft.smp.raw_size, ft.smp.cpu, &ok);
	cr_assert(ok);
	cr_assert_str_eq(text, "prev_comm=threads prev_pid=28375 prev_prio=120 prev_state=R ==> "
	    "next_comm=rcu_preempt next_pid=15 next_prio=120");
	tpevent_free(t);
	session_close(ft.s);
}

Test(tpevent, sched_switch_fields)
{
	struct first_tp ft;
	struct tpevent *t;
	struct tp_field f[32];
	const struct tp_field *x;
	size_t n;

	first_tracepoint(&ft);
	t = tpevent_new(ft.s);
	cr_assert_not_null(t);
	n = tpevent_fields(t, ft.config, ft.smp.raw, ft.smp.raw_size, f, 32);
	/* common_type, _flags, _preempt_count, _pid + the 7 of sched_switch */
	cr_assert_eq(n, 11);
	cr_assert_str_eq(f[0].name, "common_type");
	cr_assert(f[0].common);
	cr_assert_eq(f[0].offset, 0);
	cr_assert_eq(f[0].size, 2);
	cr_assert_eq(strtoull(f[0].value, NULL, 10), ft.config);
	x = field_named(f, n, "prev_comm");
	cr_assert_not_null(x);
	cr_assert_not(x->common);
	cr_assert_eq(x->offset, 8);
	cr_assert_eq(x->size, 16);
	cr_assert_str_eq(x->value, "threads");
	x = field_named(f, n, "prev_pid");
	cr_assert_not_null(x);
	cr_assert_eq(x->offset, 24);
	cr_assert_eq(x->size, 4);
	cr_assert_str_eq(x->value, "28375");
	x = field_named(f, n, "next_comm");
	cr_assert_not_null(x);
	cr_assert_str_eq(x->value, "rcu_preempt");
	x = field_named(f, n, "next_pid");
	cr_assert_not_null(x);
	cr_assert_str_eq(x->value, "15");
	cr_assert_eq(tpevent_fields(t, 999999, ft.smp.raw, ft.smp.raw_size, f, 32), 0);
	tpevent_free(t);
	session_close(ft.s);
}

/* A payload shorter than its format, or of another type: a fallback text,
 * and its fields past the end listed as outside. */
Test(tpevent, damaged_payload_gives_fallback)
{
	struct first_tp ft;
	struct tpevent *t;
	struct tp_field f[32];
	uint8_t copy[512];
	bool ok = true;
	const char *text;
	size_t n;

	first_tracepoint(&ft);
	t = tpevent_new(ft.s);
	cr_assert_not_null(t);
	text = tpevent_text(t, ft.config, ft.smp.raw, 20, ft.smp.cpu, &ok);
	cr_assert_not(ok);
	cr_assert(strstr(text, "damaged payload: 20 bytes, sched:sched_switch needs") != NULL, "%s",
	    text);
	n = tpevent_fields(t, ft.config, ft.smp.raw, 20, f, 32);
	cr_assert_eq(n, 11);
	cr_assert_not(field_named(f, n, "common_pid")->outside);	/* 4 + 4 <= 20 */
	cr_assert(field_named(f, n, "prev_pid")->outside);		/* 24 + 4 > 20 */
	cr_assert_leq(ft.smp.raw_size, sizeof copy);
	memcpy(copy, ft.smp.raw, ft.smp.raw_size);
	copy[0] ^= 0x55;	/* common_type no longer sched_switch's */
	text = tpevent_text(t, ft.config, copy, ft.smp.raw_size, ft.smp.cpu, &ok);
	cr_assert_not(ok);
	cr_assert(strstr(text, "damaged payload: type") != NULL, "%s", text);
	text = tpevent_text(t, 123456, ft.smp.raw, ft.smp.raw_size, 0, &ok);
	cr_assert_not(ok);
	cr_assert(strstr(text, "no format for tracepoint 123456") != NULL, "%s", text);
	text = tpevent_text(t, ft.config, NULL, 0, 0, &ok);
	cr_assert_not(ok);
	tpevent_free(t);
	session_close(ft.s);
}

/* The TRACING_DATA section, damaged: cut anywhere, or its event format's
 * text made unparsable.  Never a crash; a payload then gives a fallback or
 * libtraceevent's own text. */
Test(tpevent, damaged_tracing_data)
{
	struct first_tp ft;
	const struct feat_sec *fs;
	const uint8_t *p;
	uint8_t *copy;
	char *fmt;
	struct tpevent *t;

	first_tracepoint(&ft);
	fs = &session_features(ft.s)->sec[PF_FEAT_TRACING_DATA];
	cr_assert(fs->present);
	p = session_bytes(ft.s, fs->offset, fs->size);
	cr_assert_not_null(p);
	copy = malloc(fs->size);
	cr_assert_not_null(copy);
	cr_assert_null(tpevent_from_data(p, 9));
	cr_assert_null(tpevent_from_data((const uint8_t *)"not tracing data", 16));
	for (size_t cut = 0; cut < fs->size; cut += 97) {
		memcpy(copy, p, cut);
		t = tpevent_from_data(copy, cut);
		if (t != NULL) {
			bool ok;
			const char *text = tpevent_text(t, ft.config, ft.smp.raw, ft.smp.raw_size, 0, &ok);

			cr_assert_not_null(text);
			tpevent_free(t);
		}
	}
	/* sched_switch's format with its field list garbled */
	memcpy(copy, p, fs->size);
	fmt = memmem(copy, fs->size, "field:char prev_comm[16]", 24);
	cr_assert_not_null(fmt);
	memcpy(fmt, "field:char prev_comm(16(", 24);
	t = tpevent_from_data(copy, fs->size);
	if (t != NULL) {
		bool ok;
		const char *text = tpevent_text(t, ft.config, ft.smp.raw, ft.smp.raw_size, 0, &ok);

		cr_assert_not_null(text);
		cr_assert_gt(strlen(text), 0);
		tpevent_free(t);
	}
	free(copy);
	session_close(ft.s);
}

/* Payloads of tpfork.data's five tracepoints (dynamic strings among them:
 * sched_process_exec's filename) with random bytes changed, cut or
 * lengthened: a text and fields every time, nothing read outside (the
 * sanitizer build checks). */
Test(tpevent, mutated_payloads)
{
	struct perf_err err;
	struct session *s;
	const struct rec_index *ix;
	const struct attr_table *at;
	struct tpevent *t;
	unsigned seed = 12345, done = 0, decoded = 0;
	bool seen[16] = { false };

	memset(&err, 0, sizeof err);
	s = session_open(test_data("tpfork.data"), NULL, &err);
	cr_assert_not_null(s, "%s", err.msg);
	t = tpevent_new(s);
	cr_assert_not_null(t);
	cr_assert_eq(tpevent_nformats(t) >= 5, true);
	ix = session_index(s);
	at = session_attrs(s);
	for (size_t i = 0; i < ix->n; i++) {
		struct sample smp;
		struct rec r;
		const char *why;
		uint8_t copy[1024] = { 0 };
		struct tp_field f[64];

		if (ent_type(&ix->v[i]) != PERF_RECORD_SAMPLE || session_rec(s, ent_loc(&ix->v[i]), &r) < 0 ||
		    record_decode_sample(s, &r, &smp, &why) < 0 || smp.attr < 0 || smp.attr >= 16 ||
		    seen[smp.attr] || smp.raw_size > sizeof copy / 2)
			continue;
		seen[smp.attr] = true;
		done++;
		for (int k = 0; k < 2000; k++) {
			uint32_t n = smp.raw_size;
			const char *text;
			bool ok;

			memcpy(copy, smp.raw, n);
			for (int j = 0; j < 1 + k % 4; j++) {
				seed = seed * 1103515245u + 12345u;
				copy[(seed >> 8) % n] = (uint8_t)(seed >> 20);
			}
			if (k % 7 == 0)
				n = (seed >> 4) % (smp.raw_size + 1);
			else if (k % 11 == 0)
				n = smp.raw_size + (seed >> 4) % (sizeof copy - smp.raw_size);
			if (k % 3 != 0) {	/* common_type kept: most reach the format */
				copy[0] = smp.raw[0];
				copy[1] = smp.raw[1];
			}
			text = tpevent_text(t, at->v[smp.attr].attr.config, copy, n, smp.cpu, &ok);
			cr_assert_not_null(text);
			decoded += ok;
			(void)tpevent_fields(t, at->v[smp.attr].attr.config, copy, n, f, 64);
		}
	}
	cr_assert_geq(done, 5, "a sample of each tracepoint");
	cr_assert_gt(decoded, done * 500, "%u of the mutated payloads reached libtraceevent", decoded);
	tpevent_free(t);
	session_close(s);
}
