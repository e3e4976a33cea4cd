/*
 * Criterion tests of the events pane's filter terms and order, over the
 * fixtures, without a terminal: event:#N counted from 1, event:NAME up to
 * perf's modifiers, unknown KEY: terms said and left out, sym:NAME ended
 * by the next known term; r on the pane's own order; directory-mode
 * records named by their data.N file.
 */
#include "config.h"

#include <criterion/criterion.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/core.h"
#include "tests/helpers.h"
#include "tests/tui_helpers.h"
#include "tui/keys.h"
#include "tui/nav.h"
#include "tui/pane.h"
#include "tui/symbols.h"
#include "tui/widget.h"

static size_t
samples_of(struct session *s, size_t attr)
{
	return session_attr_counts(s, attr)->by_type[PF_REC_SAMPLE];
}

/* tracepoint.data's events: sched:sched_switch (202 samples), cpu-clock/freq=2000/ (117). */
Test(evfilter, event_number_counts_from_one)
{
	struct session *s = open_fixture("tracepoint.data");
	struct pane p;
	char err[200];

	cr_assert_eq(session_attrs(s)->n, 2);
	cr_assert_str_eq(session_attr_name(s, 0), "sched:sched_switch");
	cr_assert_eq(samples_of(s, 0), 202);
	cr_assert_eq(samples_of(s, 1), 117);
	cr_assert_eq(pane_create(&p, PANE_EVENTS, s, NULL), 0);
	cr_assert_eq(widget_set_filter(&p.w, "type:SAMPLE event:#1", err, sizeof err), 0, "%s", err);
	cr_expect_eq(widget_count(&p.w), 202, "#1 is the first event, as the header counts");
	cr_assert_eq(widget_set_filter(&p.w, "type:SAMPLE event:#2", err, sizeof err), 0, "%s", err);
	cr_expect_eq(widget_count(&p.w), 117, "#2 is the second");
	cr_expect_lt(widget_set_filter(&p.w, "event:#0", err, sizeof err), 0);
	cr_expect_not_null(strstr(err, "from #1 to #2"), "%s", err);
	cr_expect_lt(widget_set_filter(&p.w, "event:#3", err, sizeof err), 0);
	cr_expect_lt(widget_set_filter(&p.w, "event:#", err, sizeof err), 0);
	/* names: exact, and up to perf's terms */
	cr_assert_eq(widget_set_filter(&p.w, "type:SAMPLE event:sched:sched_switch", err,
	    sizeof err), 0, "%s", err);
	cr_expect_eq(widget_count(&p.w), 202);
	cr_assert_eq(widget_set_filter(&p.w, "type:SAMPLE event:cpu-clock", err, sizeof err), 0,
	    "%s", err);
	cr_expect_eq(widget_count(&p.w), 117, "cpu-clock is cpu-clock/freq=2000/");
	cr_expect_lt(widget_set_filter(&p.w, "event:sched", err, sizeof err), 0);
	pane_destroy(&p);
	session_close(s);
}

/* diff-b.data's event is cpu-clock:u (perf record -e cpu-clock:u). */
Test(evfilter, event_name_matches_up_to_the_modifiers)
{
	struct session *s = open_fixture("diff-b.data");
	struct pane p;
	char err[200];

	cr_assert_str_eq(session_attr_name(s, 0), "cpu-clock:u");
	cr_assert_gt(samples_of(s, 0), 0);
	cr_assert_eq(pane_create(&p, PANE_EVENTS, s, NULL), 0);
	cr_assert_eq(widget_set_filter(&p.w, "type:SAMPLE event:cpu-clock", err, sizeof err), 0,
	    "%s", err);
	cr_expect_eq(widget_count(&p.w), samples_of(s, 0));
	cr_assert_eq(widget_set_filter(&p.w, "type:SAMPLE event:cpu-clock:u", err, sizeof err), 0,
	    "the exact name still matches: %s", err);
	cr_expect_eq(widget_count(&p.w), samples_of(s, 0));
	/* a prefix that is not the name, or other modifiers: no */
	cr_expect_lt(widget_set_filter(&p.w, "event:cpu", err, sizeof err), 0);
	cr_expect_lt(widget_set_filter(&p.w, "event:cpu-clock:k", err, sizeof err), 0);
	cr_expect_lt(widget_set_filter(&p.w, "event:cpu-clock:", err, sizeof err), 0);
	pane_destroy(&p);
	session_close(s);
}

Test(evfilter, unknown_key_is_said_and_left_out)
{
	struct session *s = open_fixture("plain.data");
	const struct rec_index *ix = session_index(s);
	struct pane p;
	char err[200];

	cr_assert_eq(pane_create(&p, PANE_EVENTS, s, NULL), 0);
	cr_assert_eq(widget_set_filter(&p.w, "foo:bar", err, sizeof err), 0, "%s", err);
	cr_expect_not_null(strstr(err, "unknown filter key 'foo:'"), "%s", err);
	cr_expect_not_null(strstr(err, "event:"), "the keys are listed: %s", err);
	cr_expect_eq(widget_count(&p.w), ix->n, "foo:bar filters nothing");
	cr_assert_eq(widget_set_filter(&p.w, "type:SAMPLE foo:bar", err, sizeof err), 0);
	cr_expect_eq(widget_count(&p.w), session_counts(s)->by_type[PF_REC_SAMPLE],
	    "the other terms still hold");
	cr_expect_not_null(strstr(err, "'foo:'"), "%s", err);
	/* known terms and plain words warn of nothing */
	cr_assert_eq(widget_set_filter(&p.w, "type:SAMPLE exec", err, sizeof err), 0);
	cr_expect_str_eq(err, "");
	/* C++ scopes and addresses are words */
	cr_assert_eq(widget_set_filter(&p.w, "std::vector", err, sizeof err), 0);
	cr_expect_str_eq(err, "");
	cr_expect_eq(widget_count(&p.w), 0);
	pane_destroy(&p);
	session_close(s);
}

/* A tracepoint's name looks like KEY:VALUE: it stays a word. */
Test(evfilter, tracepoint_name_is_a_word)
{
	struct session *s = open_fixture("tracepoint.data");
	struct pane p;
	char err[200];

	cr_assert_eq(pane_create(&p, PANE_EVENTS, s, NULL), 0);
	cr_assert_eq(widget_set_filter(&p.w, "sched:sched_switch", err, sizeof err), 0, "%s", err);
	cr_expect_str_eq(err, "");
	cr_expect_gt(widget_count(&p.w), 0);
	cr_expect_lt(widget_count(&p.w), session_index(s)->n);
	pane_destroy(&p);
	session_close(s);
}

/* sym:NAME ends at the next known term, before or after it; unknown words stay in the name. */
Test(evfilter, sym_ends_at_the_next_known_term)
{
	struct session *s = open_fixture("fp.data");
	struct symbols *sy = fixture_symbols(s);
	struct pane ev;
	char err[200];
	size_t all, at;

	symbols_run(sy);
	cr_assert_eq(pane_create_sym(&ev, PANE_EVENTS, s, NULL, sy), 0);
	cr_assert_eq(widget_set_filter(&ev.w, "type:SAMPLE sym:mix_one", err, sizeof err), 0, "%s",
	    err);
	all = widget_count(&ev.w);
	cr_assert_eq(all, 138, "mix_one's 138 samples");
	cr_assert_eq(widget_set_filter(&ev.w, "type:SAMPLE symoff:0x14 sym:mix_one", err,
	    sizeof err), 0, "%s", err);
	at = widget_count(&ev.w);
	cr_assert_gt(at, 0);
	cr_assert_lt(at, all);
	cr_assert_eq(widget_set_filter(&ev.w, "type:SAMPLE sym:mix_one symoff:0x14", err,
	    sizeof err), 0, "sym: then symoff:: %s", err);
	cr_expect_eq(widget_count(&ev.w), at);
	cr_assert_eq(widget_set_filter(&ev.w, "sym:mix_one  type:SAMPLE", err, sizeof err), 0,
	    "%s", err);
	cr_expect_eq(widget_count(&ev.w), all);
	/* no known key after it: the words are the name's */
	cr_expect_lt(widget_set_filter(&ev.w, "sym:mix_one foo:bar", err, sizeof err), 0);
	cr_expect_str_eq(err, "no symbol 'mix_one foo:bar'");
	cr_expect_lt(widget_set_filter(&ev.w, "sym:operator new(unsigned long) type:SAMPLE", err,
	    sizeof err), 0);
	cr_expect_str_eq(err, "no symbol 'operator new(unsigned long)'");
	cr_expect_lt(widget_set_filter(&ev.w, "sym: type:SAMPLE", err, sizeof err), 0);
	cr_expect_str_eq(err, "sym: wants a name");
	pane_destroy(&ev);
	symbols_free(sy);
	session_close(s);
}

/* r on the pane's own order (time, the index's): the latest record first, then back. */
Test(evfilter, reverse_the_time_order)
{
	struct session *s = open_fixture("plain.data");
	size_t n = session_index(s)->n;
	struct pane p;

	cr_assert_eq(pane_create(&p, PANE_EVENTS, s, NULL), 0);
	cr_assert_eq(p.w.sort_col, -1, "the index's order");
	cr_assert_eq(p.ops->key(&p, ACT_SORT_REVERSE), PANE_HANDLED | PANE_MSG);
	cr_expect_not_null(strstr(p.msg, "descending"), "%s", p.msg);
	cr_assert_eq(widget_count(&p.w), n);
	for (size_t i = 0; i < n; i++)
		cr_assert_eq(widget_source(&p.w, i), n - 1 - i, "row %zu: the index reversed", i);
	/* a sort chosen: r is the app's (it flips the sort) */
	cr_expect_eq(p.ops->key(&p, ACT_SORT_REVERSE), PANE_IGNORED);
	pane_destroy(&p);
	session_close(s);
}

/* dir.data (perf record --threads): a record in data.1 is named by its file. */
Test(evfilter, directory_record_names_its_file)
{
	struct session *s = open_fixture("dir.data");
	const struct rec_index *ix = session_index(s);
	struct pane p;
	char at[96], want[96], off[32];
	size_t i;
	uint32_t fi = 0;

	for (i = 0; i < ix->n; i++) {
		session_rec_offset(s, ent_loc(index_ent(ix, i)), &fi);
		if (fi == 2)
			break;
	}
	cr_assert_lt(i, ix->n, "dir.data has records in data.1 (its file 2)");
	cr_assert_eq(pane_create(&p, PANE_EVENTS, s, NULL), 0);
	widget_goto_key(&p.w, i);
	cr_assert_eq(widget_cursor_row(&p.w), i);
	cr_assert_eq(p.ops->key(&p, ACT_HEX), PANE_HANDLED | PANE_PUSH);
	text_fmt_offset(off, sizeof off, session_rec_offset(s, ent_loc(index_ent(ix, i)), NULL));
	snprintf(want, sizeof want, "data.1 at %s", off);
	cr_expect_str_eq(pane_rec_at(s, ent_loc(index_ent(ix, i)), at, sizeof at), want);
	cr_expect_str_eq(p.push.label + 4, want, "the breadcrumb: %s", p.push.label);
	pane_destroy(&p);
	session_close(s);
	/* a file of one data section: the offset alone */
	s = open_fixture("plain.data");
	cr_expect_str_eq(pane_rec_at(s, 0x108, at, sizeof at), "0x108");
	session_close(s);
}
