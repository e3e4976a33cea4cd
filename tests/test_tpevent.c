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

		if (ent_type(index_ent(ix, i)) != PF_REC_SAMPLE ||
		    session_rec(ft->s, ent_loc(index_ent(ix, i)), &r) < 0 ||
		    record_decode_sample(session_attrs(ft->s), &r, &ft->smp, &why) < 0 || ft->smp.attr < 0)
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

		if (ent_type(index_ent(ix, i)) != PF_REC_SAMPLE || session_rec(s, ent_loc(index_ent(ix, i)), &r) < 0 ||
		    record_decode_sample(session_attrs(s), &r, &smp, &why) < 0 || smp.attr < 0 || smp.attr >= 16 ||
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

/* A TRACING_DATA of our own (version 0.6, little-endian, 8-byte longs):
 * one ftrace format, no systems, no kallsyms, the printk formats given,
 * no saved cmdlines.  Returns its length. */
static const char good_format[] = "name: function\nID: 1\nformat:\n"
				  "\tfield:unsigned short common_type;\toffset:0;\tsize:2;\tsigned:0;\n"
				  "\tfield:unsigned long ip;\toffset:8;\tsize:8;\tsigned:0;\n\n"
				  "print fmt: \"%lx\", REC->ip\n";

static size_t
tracing_blob_of(uint8_t *b, size_t cap, const char *printk, const char *const *fmts, uint32_t nfmts)
{
	static const uint8_t head[] = { 0x17, 0x08, 0x44, 't', 'r', 'a', 'c', 'i', 'n', 'g', '0', '.', '6', 0, 0, 8 };
	size_t n = 0;
	uint32_t u32;
	uint64_t u64;

#define PUT(p, len)                                                                                                    \
	do {                                                                                                           \
		cr_assert_leq(n + (len), cap);                                                                         \
		memcpy(b + n, (p), (len));                                                                             \
		n += (len);                                                                                            \
	} while (0)
	PUT(head, sizeof head);
	u32 = 4096;
	PUT(&u32, 4);
	PUT("header_page", 12);
	u64 = 0;
	PUT(&u64, 8);
	PUT("header_event", 13);
	PUT(&u64, 8);
	PUT(&nfmts, 4);
	for (uint32_t i = 0; i < nfmts; i++) {
		u64 = strlen(fmts[i]);
		PUT(&u64, 8);
		PUT(fmts[i], strlen(fmts[i]));
	}
	u32 = 0;
	PUT(&u32, 4);	/* systems */
	PUT(&u32, 4);	/* kallsyms */
	u32 = (uint32_t)strlen(printk);
	PUT(&u32, 4);
	PUT(printk, strlen(printk));
#undef PUT
	return n;
}

static size_t
tracing_blob(uint8_t *b, size_t cap, const char *printk)
{
	const char *fmts[] = { good_format };

	return tracing_blob_of(b, cap, printk, fmts, 1);
}

/* Printk formats libtraceevent 1.7 would read outside its own copies of
 * (a line without a colon, an empty or short format, a lone quote, a colon
 * first): dropped before it sees them, the good lines and the formats kept.
 * The sanitizer build is what checks; found by the script fuzz harness. */
Test(tpevent, malformed_printk_formats)
{
	static const char *const texts[] = {
		"ffff",
		"ffff:",
		"ffff: ",
		"ffff: \"",
		"ffff: \"a",
		"ffff: ab",
		":abc: \"defg\"",
		"\n\n:\n",
		"ffffffff81000000 : \"ok %d\\n\"\nffff\nffffffff81000010 : \"x\"\n12: \"\"",
		"ffffffff81000000 : \"fine\\n\"",
	};
	uint8_t blob[1024];

	for (size_t i = 0; i < sizeof texts / sizeof texts[0]; i++) {
		size_t n = tracing_blob(blob, sizeof blob, texts[i]);
		struct tpevent *t = tpevent_from_data(blob, n);

		cr_assert_not_null(t, "%s", texts[i]);
		cr_assert_eq(tpevent_nformats(t), 1);
		cr_assert(tpevent_known(t, 1));
		tpevent_free(t);
	}
}

/* An event format libtraceevent 1.7 parses into a NULL dereference (a
 * __print_flags of a field the format lacks), between two good ones: the
 * trial parse in a child finds it, it alone is skipped and counted, and
 * the good formats print.  Without the child this test would crash. */
Test(tpevent, crashing_format_skipped)
{
	static const char bad[] = "name: bad\nID: 2\nformat:\n"
				  "\tfield:unsigned short common_type;\toffset:0;\tsize:2;\tsigned:0;\n\n"
				  "\tfield:long x;\toffset:8;\tsize:8;\tsigned:1;\n\n"
				  "print fmt: \"%s\", __print_flags(REC->nope, \"|\")\n";
	static const char good2[] = "name: other\nID: 3\nformat:\n"
				    "\tfield:unsigned short common_type;\toffset:0;\tsize:2;\tsigned:0;\n\n"
				    "\tfield:int v;\toffset:4;\tsize:4;\tsigned:1;\n\n"
				    "print fmt: \"v=%d\", REC->v\n";
	const char *fmts[] = { good_format, bad, good2 };
	uint8_t blob[2048], raw[8] = { 3, 0, 0, 0, 42, 0, 0, 0 };
	size_t n = tracing_blob_of(blob, sizeof blob, "", fmts, 3);
	struct tpevent *t = tpevent_from_data(blob, n);
	bool ok;

	cr_assert_not_null(t);
	cr_assert_eq(tpevent_skipped(t), 1);
	cr_assert_eq(tpevent_nformats(t), 2);
	cr_assert(tpevent_known(t, 1));
	cr_assert_not(tpevent_known(t, 2));
	cr_assert(tpevent_known(t, 3));
	cr_assert_str_eq(tpevent_text(t, 3, raw, sizeof raw, 0, &ok), "v=42");
	cr_assert(ok);
	tpevent_free(t);
	/* asked again (a handle per thread): the same verdict, no second child */
	t = tpevent_from_data(blob, n);
	cr_assert_not_null(t);
	cr_assert_eq(tpevent_skipped(t), 1);
	tpevent_free(t);
}
