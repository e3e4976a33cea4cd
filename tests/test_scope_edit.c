/*
 * Criterion tests of the typed scope (tui/scope_edit.h): the start
 * options' words made one step of the scope, each error said with nothing
 * applied, and the command line that prints what the scope shows.
 */
#include "config.h"

#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/core.h"
#include "symbolize/filter.h"
#include "symbolize/hist.h"
#include "tests/tui_helpers.h"
#include "tui/scope.h"
#include "tui/scope_edit.h"
#include "tui/symbols.h"

/* fork.data's thread 26196 and its process, as the recording names them. */
#define TID	26196

static struct symbols *
resolved(struct session *s)
{
	struct symbols *sy = fixture_symbols(s);

	symbols_run(sy);
	return sy;
}

/* Each bad line is refused with its reason, and the scope stays what it was. */
Test(scope_edit, errors_apply_nothing)
{
	static const struct {
		const char *line, *says;
	} bad[] = {
		{ "--frobnicate 1", "'--frobnicate': not an option" },
		{ "--tid", "--tid: a value is missing" },
		{ "--tid nope", "bad value 'nope' for --tid" },
		{ "--tid 26195,26196", "one at a time" },
		{ "--tid 99999", "no such thread" },
		{ "--time 0%-10%,50%-60%", "one range a step" },
		{ "--time 50%-10%", "ends before it starts" },
		{ "--dsos libnothere.so", "no shared object of that name" },
		{ "--symbols no_such_function", "no function of that name" },
		{ "--comms nobody", "no command of that name" },
		{ "-e no-such-event", "no event of that name" },
		{ "--sort cpu,nokey", "unknown key 'nokey'" },
		{ "--sort dso_from", "branch stacks" },
		{ "--tid 26196 --cpu x", "--cpu" },
		/* fork.data records no cpu: perfnav top --cpu refuses it, the line too */
		{ "--cpu 1", "no event of this recording records its cpu" },
		{ "", "nothing typed" },
	};
	struct session *s = open_fixture("fork.data");
	struct symbols *sy = resolved(s);
	struct scope_edit_ctx cx = { s, sy->h, sy->z, false };
	char msg[300];

	for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
		unsigned gen = sy->scope.gen;

		cr_expect_eq(scope_edit(&sy->scope, &cx, bad[i].line, msg, sizeof msg), -1, "%s",
		    bad[i].line);
		cr_expect_not_null(strstr(msg, bad[i].says), "'%s': said '%s'", bad[i].line, msg);
		cr_expect_eq(scope_depth(&sy->scope), 0, "'%s': no step", bad[i].line);
		cr_expect_eq(sy->scope.gen, gen, "'%s': nothing changed", bad[i].line);
		cr_expect_not(sy->scope.zoomed || sy->scope.ntr || sy->scope.ncpus);
	}
	symbols_free(sy);
	session_close(s);
}

/* Several words are one step; Esc (scope_undo) takes them back together. */
Test(scope_edit, words_are_one_step)
{
	struct session *s = open_fixture("fork.data");
	struct symbols *sy = resolved(s);
	struct scope_edit_ctx cx = { s, sy->h, sy->z, false };
	struct scope *sc = &sy->scope;
	char msg[300], z[200];
	uint64_t a, b;

	cr_assert_eq(scope_edit(sc, &cx, "--tid 26196 --time 10%-60% --dsos=forkexec", msg,
	    sizeof msg), 0, "%s", msg);
	cr_expect_eq(scope_depth(sc), 1, "one step");
	cr_expect(scope_zoomed(sc, SZ_TID) && sc->sel.tid == TID);
	cr_expect(scope_zoomed(sc, SZ_DSO));
	cr_expect(scope_time_range(sc, &a, &b) && a < b);
	cr_expect_str_eq(scope_zoom_text(sc, z, sizeof z), "thread 26196 forkexec > dso forkexec");
	cr_expect_eq(scope_edit(sc, &cx, "--tid 26196", msg, sizeof msg), 1, "the same: no step");
	cr_expect_eq(scope_depth(sc), 1);
	cr_assert_eq(symbols_apply_scope(sy), 0);
	cr_expect(sc->recounted);
	cr_assert(scope_undo(sc));
	cr_expect_not(sc->zoomed || sc->ntr, "undone together");
	cr_expect(sc->time_pending, "the counts to be made again");
	cr_expect_eq(scope_depth(sc), 0);
	symbols_free(sy);
	session_close(s);
}

/* The command line names what the scope takes, the thread without its process, quoted. */
Test(scope_edit, command_line)
{
	struct session *s = open_fixture("fork.data");
	struct symbols *sy = resolved(s);
	struct scope_edit_ctx cx = { s, sy->h, sy->z, false };
	struct scope_cmd c = { .sub = "top", .common = "--buildid-dir D", .file = "my file.data" };
	struct scope *sc = &sy->scope;
	char msg[300], cmd[1024];

	scope_command(sc, &cx, &c, cmd, sizeof cmd);
	cr_expect_str_eq(cmd, "perfnav top --buildid-dir D 'my file.data'");
	cr_assert_eq(scope_edit(sc, &cx, "--tid 26196 --time 980.813603406,980.836609817",
	    msg, sizeof msg), 0, "%s", msg);
	scope_command(sc, &cx, &c, cmd, sizeof cmd);
	cr_expect_str_eq(cmd, "perfnav top --buildid-dir D --time 980.813603406,980.836609817 "
	    "--tid 26196 'my file.data'");
	c.latency = true;	/* the hot functions by latency */
	c.sort = "sym";
	scope_command(sc, &cx, &c, cmd, sizeof cmd);
	cr_expect_str_eq(cmd, "perfnav top --buildid-dir D --sort sym --latency --time "
	    "980.813603406,980.836609817 --tid 26196 'my file.data'");
	c.latency = false;
	c.sub = "folded";
	c.sort = NULL;
	scope_command(sc, &cx, &c, cmd, sizeof cmd);
	cr_expect_not_null(strstr(cmd, "perfnav folded "), "%s", cmd);
	symbols_free(sy);
	session_close(s);
}

/*
 * The off-CPU event's command line says --off-cpu (top, folded and export
 * take --event off-cpu as that too), and running it gives the pane's total.
 */
Test(scope_edit, command_line_of_the_off_cpu_event)
{
	struct session *s = open_fixture("offcpu.data");
	struct symbols *sy = resolved(s);
	struct scope_edit_ctx cx = { s, sy->h, sy->z, false };
	struct scope_cmd c = { .sub = "top", .common = "--kallsyms /dev/null", .file = "x.data" };
	struct scope *sc = &sy->scope;
	char msg[300], cmd[1024];
	size_t ev = SIZE_MAX;

	for (size_t i = 0; i < hist_nevents(sy->h); i++)
		if (symbols_event_offcpu(sy, i))
			ev = i;
	cr_assert_neq(ev, SIZE_MAX, "the browser has the off-cpu event");
	cr_assert_eq(scope_edit(sc, &cx, "-e off-cpu", msg, sizeof msg), 0, "%s", msg);
	cr_assert_eq(sc->ev, ev);
	scope_command(sc, &cx, &c, cmd, sizeof cmd);
	cr_expect_str_eq(cmd, "perfnav top --kallsyms /dev/null --off-cpu x.data");
	c.sub = "folded";
	scope_command(sc, &cx, &c, cmd, sizeof cmd);
	cr_expect_str_eq(cmd, "perfnav folded --kallsyms /dev/null --off-cpu x.data");
	c.addresses = true;	/* the call trees' and flame graph's: frames named as they name them */
	scope_command(sc, &cx, &c, cmd, sizeof cmd);
	cr_expect_str_eq(cmd, "perfnav folded --kallsyms /dev/null --off-cpu --addresses x.data");
	symbols_free(sy);
	session_close(s);
}

/* A recording that records cpus takes --cpu, and its command line says it (tpfork.data). */
Test(scope_edit, cpu_where_recorded)
{
	struct session *s = open_fixture("tpfork.data");
	struct symbols *sy = resolved(s);
	struct scope_edit_ctx cx = { s, sy->h, sy->z, false };
	struct scope_cmd c = { .sub = "top", .common = "--kallsyms /dev/null", .file = "x.data" };
	char msg[300], cmd[1024];

	cr_assert_eq(scope_edit(&sy->scope, &cx, "--cpu 0", msg, sizeof msg), 0, "%s", msg);
	cr_expect_eq(sy->scope.ncpus, 1);
	scope_command(&sy->scope, &cx, &c, cmd, sizeof cmd);
	cr_expect_not_null(strstr(cmd, " --cpu 0 x.data"), "%s", cmd);
	symbols_free(sy);
	session_close(s);
}

/* The title names the steps in the order they were taken, whatever their kind. */
Test(scope_edit, title_in_step_order)
{
	struct session *s = open_fixture("fork.data");
	struct symbols *sy = resolved(s);
	struct scope_edit_ctx cx = { s, sy->h, sy->z, false };
	char msg[300], t[600];
	const char *th, *tm, *dso;

	cr_assert_eq(scope_edit(&sy->scope, &cx, "--time 10%-60%", msg, sizeof msg), 0, "%s", msg);
	cr_assert_eq(scope_edit(&sy->scope, &cx, "--tid 26196", msg, sizeof msg), 0, "%s", msg);
	cr_assert_eq(scope_edit(&sy->scope, &cx, "--dsos forkexec", msg, sizeof msg), 0, "%s", msg);
	scope_text(&sy->scope, sy->h, NULL, t, sizeof t);
	tm = strstr(t, "time ");
	th = strstr(t, "thread 26196");
	dso = strstr(t, "dso forkexec");
	cr_assert(tm && th && dso, "every step named: %s", t);
	cr_expect(tm < th && th < dso, "time, then the thread, then the DSO: %s", t);
	scope_undo(&sy->scope);
	scope_undo(&sy->scope);
	cr_assert_eq(scope_edit(&sy->scope, &cx, "--dsos forkexec --tid 26196", msg, sizeof msg), 0);
	scope_text(&sy->scope, sy->h, NULL, t, sizeof t);
	tm = strstr(t, "time ");
	th = strstr(t, "thread 26196");
	dso = strstr(t, "dso forkexec");
	cr_assert(tm && th && dso, "every step named: %s", t);
	cr_expect(tm < dso && dso < th, "one step's words in the order typed: %s", t);
	symbols_free(sy);
	session_close(s);
}

/*
 * A merged recording (perfnav merge): --files takes one of its inputs as a
 * zoom, its samples alone; an unknown name is refused, the inputs named;
 * the command line says --files, as the start option when the zoom has
 * none.
 */
Test(scope_edit, files_of_a_merged_recording)
{
	const char *const in[] = { "fork.data", "fp.data" };
	void *bytes;
	struct session *m = merged_fixtures(in, 2, &bytes), *alone;
	struct symbols *sy = resolved(m);
	struct scope_edit_ctx cx = { m, sy->h, sy->z, false };
	struct scope_cmd c = { .sub = "top", .file = "m.data" };
	struct scope *sc = &sy->scope;
	struct hist_filter f = { 0 };
	char msg[300], cmd[1024], want[1024], z[200];
	uint64_t whole = hist_event(sy->h, 0)->nsamples;
	struct symbols *sa;

	cr_expect_eq(scope_edit(sc, &cx, "--files nosuch.data", msg, sizeof msg), -1);
	cr_expect_not_null(strstr(msg, "--files nosuch.data: no input of that name (its inputs: "),
	    "said: %s", msg);
	/* each by its path, a long one cut in its middle: its name kept */
	cr_expect_not_null(strstr(msg, "fp.data)"), "the inputs named: %s", msg);
	cr_expect_not_null(strstr(msg, "fork.data,"), "the inputs named: %s", msg);
	cr_expect_eq(scope_edit(sc, &cx, "--files fork.data,fp.data", msg, sizeof msg), -1);
	cr_expect_not_null(strstr(msg, "one input at a time"), "said: %s", msg);
	cr_expect_eq(scope_depth(sc), 0, "nothing applied");

	cr_assert_eq(scope_edit(sc, &cx, "--files fp.data", msg, sizeof msg), 0, "%s", msg);
	cr_assert(scope_zoomed(sc, SZ_FILE));
	cr_expect_str_eq(scope_file_name(sc), test_data("fp.data"));
	cr_expect_not_null(strstr(scope_zoom_text(sc, z, sizeof z), "file "), "%s", z);
	cr_assert_eq(symbols_apply_scope(sy), 0);
	alone = session_of_path(test_data("fp.data"));
	sa = resolved(alone);
	cr_expect_eq(hist_event(sy->h, 0)->nsamples, hist_event(sa->h, 0)->nsamples,
	    "fp.data's samples alone");
	cr_expect_lt(hist_event(sy->h, 0)->nsamples, whole);
	symbols_free(sa);
	session_close(alone);
	scope_command(sc, &cx, &c, cmd, sizeof cmd);
	snprintf(want, sizeof want, "perfnav top --files %s m.data", test_data("fp.data"));
	cr_expect_str_eq(cmd, want);
	cr_expect_eq(scope_edit(sc, &cx, "--files fp.data", msg, sizeof msg), 1, "the same: no step");

	/* the start options' --files, said as given when the zoom has none */
	cr_assert(scope_undo(sc));
	cr_assert_eq(filter_parse_files(&f, "fork.data,fp.data"), 0);
	c.start = &f;
	scope_command(sc, &cx, &c, cmd, sizeof cmd);
	cr_expect_str_eq(cmd, "perfnav top --files fork.data,fp.data m.data");
	filter_free(&f);
	symbols_free(sy);
	session_close(m);
	free(bytes);
}
