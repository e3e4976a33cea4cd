/*
 * Names from a hostile recording never reach the terminal raw: a recording
 * built byte by byte (tests/helpers.c) whose comm, DSO path, event name,
 * hostname and cmdline hold terminal escape sequences, a newline, a tab,
 * DEL, a C1 control, an invalid byte and a valid "café", plus a perf-PID.map
 * whose symbol holds the same, go through every text subcommand of the
 * built perfnav.  Each output must be clean (no control byte but tab and
 * newline, no DEL, no C1, valid UTF-8), keep "café", and show the escapes
 * as "\x1b"; --tsv rows keep their column count.
 */
#include "config.h"

#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "tests/helpers.h"

/* What a hostile name holds, and how every output must show it. */
#define HOSTILE	"\x1b]0;title\x07\x1b[2J\x1b[31m\n\t\x7f\xc2\x9b\xff"
#define SHOWN	"\\x1b]0;title\\x07\\x1b[2J\\x1b[31m\\x0a\\x09\\x7f\\xc2\\x9b\\xff"
/* A perf-PID.map line cannot hold a newline. */
#define HOSTILE_MAP	"\x1b]0;title\x07\x1b[2J\x1b[31m\t\x7f\xc2\x9b\xff"
#define SHOWN_MAP	"\\x1b]0;title\\x07\\x1b[2J\\x1b[31m\\x09\\x7f\\xc2\\x9b\\xff"
#define CAFE	"caf\xc3\xa9"

static char *rec_path;
static char mapdir[64];
static char tmux_sock[64];	/* the TUI test's tmux server, killed in teardown */

static void
setup(void)
{
	static const struct synth_names nm = {
		.comm = "c" HOSTILE CAFE,
		.dso = "/nonexistent/d" HOSTILE CAFE ".so",
		.event = "ev" HOSTILE CAFE,
		.hostname = "h" HOSTILE CAFE,
		.cmdline_arg = "a" HOSTILE CAFE,
	};
	struct pdbuf b;
	char map[128];
	FILE *fp;

	synth_names_file(&b, &nm, 40);
	rec_path = tmp_write("escape", b.p, b.len);
	pd_free(&b);
	snprintf(mapdir, sizeof mapdir, "/tmp/perfnav-test-map-XXXXXX");
	cr_assert_not_null(mkdtemp(mapdir));
	snprintf(map, sizeof map, "%s/perf-42.map", mapdir);
	fp = fopen(map, "w");
	cr_assert_not_null(fp);
	fprintf(fp, "%llx 100 jit_" HOSTILE_MAP CAFE "\n", SYNTH_JIT_ADDR);
	fclose(fp);
}

static void
teardown(void)
{
	char map[128];

	if (tmux_sock[0] != '\0') {
		char cmd[128];

		snprintf(cmd, sizeof cmd, "tmux -L %s kill-server > /dev/null 2>&1", tmux_sock);
		if (system(cmd) != 0)
			tmux_sock[0] = '\0';	/* gone already */
	}

	snprintf(map, sizeof map, "%s/perf-42.map", mapdir);
	unlink(map);
	rmdir(mapdir);
	unlink(rec_path);
	free(rec_path);
}

/* perfnav ARGS on the recording, stdout and stderr together. */
static char *
run(const char *args, size_t *len)
{
	char cmd[1024], *out;
	int status;

	snprintf(cmd, sizeof cmd, "%s/perfnav %s --perfmap-dir %s --kallsyms /dev/null %s 2>&1",
	    TEST_BUILDDIR, args, mapdir, rec_path);
	out = cmd_output(cmd, len, &status);
	cr_assert_not_null(out);
	cr_assert_eq(status, 0, "perfnav %s failed:\n%s", args, out);
	return out;
}

/*
 * The first offending byte of out: a control byte but tab and newline,
 * DEL, a C1 control or invalid UTF-8 (decoded here on its own, not with
 * core/text.c); -1 when clean.
 */
static long
first_unclean(const char *out, size_t n)
{
	const unsigned char *p = (const unsigned char *)out;

	for (size_t i = 0; i < n;) {
		unsigned c = p[i];
		size_t k;
		uint32_t cp, min;

		if (c < 0x80) {
			if ((c < 0x20 && c != '\t' && c != '\n') || c == 0x7f)
				return (long)i;
			i++;
			continue;
		}
		if ((c & 0xe0) == 0xc0) {
			k = 2, cp = c & 0x1f, min = 0x80;
		} else if ((c & 0xf0) == 0xe0) {
			k = 3, cp = c & 0x0f, min = 0x800;
		} else if ((c & 0xf8) == 0xf0) {
			k = 4, cp = c & 0x07, min = 0x10000;
		} else {
			return (long)i;
		}
		if (i + k > n)
			return (long)i;
		for (size_t j = 1; j < k; j++) {
			if ((p[i + j] & 0xc0) != 0x80)
				return (long)i;
			cp = cp << 6 | (p[i + j] & 0x3f);
		}
		if (cp < min || cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff) || cp < 0xa0)
			return (long)i;
		i += k;
	}
	return -1;
}

/* Run a subcommand; its output must be clean, keep café and show each of
 * the wanted escaped names. */
static char *
check(const char *args, const char *const *want)
{
	size_t n;
	char *out = run(args, &n);
	long bad = first_unclean(out, n);

	cr_assert_eq(bad, -1, "perfnav %s: byte %#x at %ld:\n%s", args,
	    bad >= 0 ? (unsigned char)out[bad] : 0, bad, out);
	cr_assert_not_null(strstr(out, CAFE), "perfnav %s: no café:\n%s", args, out);
	cr_assert_not_null(strstr(out, "\\x1b"), "perfnav %s: no \\x1b:\n%s", args, out);
	for (; want && *want; want++)
		cr_assert_not_null(strstr(out, *want), "perfnav %s: no '%s' in:\n%s", args, *want,
		    out);
	return out;
}

#define WANT(...) ((const char *const[]){ __VA_ARGS__, NULL })

TestSuite(escape, .init = setup, .fini = teardown);

Test(escape, script)
{
	free(check("script", WANT("c" SHOWN CAFE, "(/nonexistent/d" SHOWN CAFE ".so)",
	    "ev" SHOWN CAFE ":", "jit_" SHOWN_MAP CAFE)));
	free(check("script -F comm,tid,event,ip,sym,dso,srcline", WANT("c" SHOWN CAFE,
	    "jit_" SHOWN_MAP CAFE)));
}

/* The same on two cores (its 40 samples cut into chunks each thread formats). */
Test(escape, script_two_cores)
{
	setenv("PERFNAV_PARALLEL_MIN", "0", 1);
	free(check("script", WANT("c" SHOWN CAFE, "(/nonexistent/d" SHOWN CAFE ".so)",
	    "ev" SHOWN CAFE ":", "jit_" SHOWN_MAP CAFE)));
	unsetenv("PERFNAV_PARALLEL_MIN");
}

Test(escape, script_why)
{
	free(check("script --why", WANT("/nonexistent/d" SHOWN CAFE ".so: ")));
}

Test(escape, top)
{
	free(check("top", WANT("c" SHOWN CAFE, "d" SHOWN CAFE ".so", "[.] jit_" SHOWN_MAP CAFE,
	    "of event 'ev" SHOWN CAFE "'")));
	free(check("top --why", WANT("/nonexistent/d" SHOWN CAFE ".so\n")));
	free(check("top --sort pid,dso,sym", WANT("42:c" SHOWN CAFE)));
}

/*
 * Every --tsv row starts with the event's name, though the rows escape more
 * names than textout_esc() has scratch slots: the JIT samples are spread
 * over ten symbols whose names need escaping (their IPs patched in the
 * bytes synth_names_file wrote), so each of ten rows escapes its comm and
 * its symbol after the event's name was escaped once.
 */
Test(escape_rows, top_tsv_event_on_every_row)
{
	static const struct synth_names nm = {
		.comm = "c" HOSTILE, .dso = "/nonexistent/d.so", .event = "ev" HOSTILE CAFE,
		.hostname = "h", .cmdline_arg = "a",
	};
	const uint64_t jit_ip = SYNTH_JIT_ADDR + 0x10;
	char dir[] = "/tmp/perfnav-test-rows-XXXXXX", map[96], cmd[512], *path, *out;
	struct pdbuf b;
	int k = 0, rows = 0;
	size_t n;
	FILE *fp;

	synth_names_file(&b, &nm, 40);
	for (size_t i = 0; i + 8 <= b.len; i += 8) {
		uint64_t v;

		memcpy(&v, b.p + i, 8);
		if (v == jit_ip) {
			v = SYNTH_JIT_ADDR + 0x100 * (uint64_t)(k++ % 10);
			memcpy(b.p + i, &v, 8);
		}
	}
	cr_assert_eq(k, 20, "the 20 JIT samples");
	path = tmp_write("rows", b.p, b.len);
	pd_free(&b);
	cr_assert_not_null(mkdtemp(dir));
	snprintf(map, sizeof map, "%s/perf-42.map", dir);
	fp = fopen(map, "w");
	cr_assert_not_null(fp);
	for (int i = 0; i < 10; i++)
		fprintf(fp, "%llx 100 jit%d_%s\n", SYNTH_JIT_ADDR + 0x100 * (unsigned long long)i, i,
		    "\x1b[31m\x7f_a_longer_name_than_the_last_one_to_make_it_grow");
	fclose(fp);
	snprintf(cmd, sizeof cmd, "%s/perfnav top --tsv --sort comm,dso,sym --perfmap-dir %s "
	    "--kallsyms /dev/null %s 2>/dev/null", TEST_BUILDDIR, dir, path);
	fp = popen(cmd, "r");
	cr_assert_not_null(fp);
	out = malloc(1 << 20);
	cr_assert_not_null(out);
	n = fread(out, 1, (1 << 20) - 1, fp);
	out[n] = '\0';
	cr_assert_eq(pclose(fp), 0);
	for (char *save = NULL, *line = strtok_r(out, "\n", &save); line;
	    line = strtok_r(NULL, "\n", &save)) {
		if (line[0] == '#')
			continue;
		cr_expect(strncmp(line, "ev" SHOWN CAFE "\t", strlen("ev" SHOWN CAFE "\t")) == 0,
		    "row %d starts '%.60s'", rows, line);
		rows++;
	}
	cr_expect_eq(rows, 11, "ten JIT symbols and the DSO's address");
	free(out);
	unlink(map);
	rmdir(dir);
	unlink(path);
	free(path);
}

/* --tsv: a tab or newline in a name does not add a column or a row. */
Test(escape, top_tsv_columns)
{
	size_t rows = 0, hdr;
	char *out = check("top --tsv --sort comm,dso,sym", WANT("ev" SHOWN CAFE "\t",
	    "\tc" SHOWN CAFE "\t"));
	char *save = NULL;

	hdr = 0;
	for (char *line = strtok_r(out, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		size_t tabs = 0;

		for (char *p = line; *p; p++)
			tabs += *p == '\t';
		if (line[0] == '#') {
			hdr = tabs;
			continue;
		}
		if (strncmp(line, "perfnav:", 8) == 0)
			continue;
		rows++;
		cr_assert_eq(tabs, hdr, "row with %zu tabs, header %zu: %s", tabs, hdr, line);
	}
	cr_assert_eq(hdr, 5, "# event self samples comm dso sym");
	cr_assert_eq(rows, 2, "the DSO's row and the JIT symbol's");
	free(out);
}

Test(escape, tree)
{
	free(check("tree", WANT("|c" SHOWN CAFE "\n")));
}

Test(escape, folded)
{
	/* folded turns a ';' in a frame into ':' (a ';' would split it) */
	free(check("folded", WANT("c" SHOWN CAFE ";jit_\\x1b]0:title\\x07",
	    "c" SHOWN CAFE ";[d\\x1b]0:title\\x07")));
}

Test(escape, header)
{
	free(check("header", WANT("# hostname : h" SHOWN CAFE "\n",
	    "# cmdline : perf a" SHOWN CAFE " \n", "# event : name = ev" SHOWN CAFE ", ")));
}

Test(escape, stats)
{
	free(check("stats", WANT("ev" SHOWN CAFE " stats:")));
}

Test(escape, dump)
{
	free(check("dump", WANT("PERF_RECORD_COMM: c" SHOWN CAFE ":42/42",
	    "rwxp /nonexistent/d" SHOWN CAFE ".so")));
}

Test(escape, annotate)
{
	/* the JIT symbol is the only one resolved: annotate picks it */
	free(check("annotate", WANT("jit_" SHOWN_MAP CAFE "()", " for ev" SHOWN CAFE " (")));
}

/* ---- the TUI, on a real terminal (tmux) ---- */

static char *
tmux_out(const char *args)
{
	char cmd[512];
	size_t n;
	char *out;
	FILE *fp;

	snprintf(cmd, sizeof cmd, "tmux -L %s %s 2>/dev/null", tmux_sock, args);
	fp = popen(cmd, "r");
	cr_assert_not_null(fp);
	out = calloc(1, 65536);
	cr_assert_not_null(out);
	n = fread(out, 1, 65535, fp);
	out[n] = '\0';
	pclose(fp);
	return out;
}

/* Poll the screen (up to 15 s) until it shows want; returns the screen. */
static char *
screen_with(const char *want)
{
	char *scr = NULL;

	for (int i = 0; i < 150; i++) {
		free(scr);
		scr = tmux_out("capture-pane -t esc -p");
		if (strstr(scr, want) != NULL)
			return scr;
		usleep(100000);
	}
	cr_assert_fail("'%s' never showed; the screen:\n%s", want, scr);
	return scr;
}

/*
 * The hot functions and processes panes show the names escaped, and the
 * escape sequences never reached the terminal: the pane's title (OSC 0)
 * is not the recording's, and the screen is not cleared.
 */
Test(escape, tui_on_a_terminal)
{
	char cmd[2048], *scr, *title;

	if (system("command -v tmux > /dev/null 2>&1") != 0)
		cr_skip_test("no tmux");
	snprintf(tmux_sock, sizeof tmux_sock, "perfnav-escape-%d", (int)getpid());
	snprintf(cmd, sizeof cmd, "tmux -L %s -f /dev/null new-session -d -s esc -x 160 -y 30 "
	    "\"env LANG=C.UTF-8 LC_ALL=C.UTF-8 %s/perfnav --perfmap-dir %s --kallsyms /dev/null "
	    "%s; sleep 600\"", tmux_sock, TEST_BUILDDIR, mapdir, rec_path);
	cr_assert_eq(system(cmd), 0);
	snprintf(cmd, sizeof cmd, "tmux -L %s set-option -t esc status off > /dev/null", tmux_sock);
	cr_assert_eq(system(cmd), 0);
	scr = screen_with("jit_\\x1b]0;title\\x07\\x1b[2J\\x1b[31m\\x09\\x7f\\xc2\\x9b\\xffcaf\xc3\xa9");
	cr_assert_not_null(strstr(scr, " c\\x1b]0;title\u2026 "), "the comm, escaped, cut with an ellipsis:\n%s",
	    scr);
	cr_assert_not_null(strstr(scr, "perfnav  "), "the title line is still there:\n%s", scr);
	free(scr);
	title = tmux_out("display-message -p -t esc '#{pane_title}'");
	cr_assert_null(strstr(title, "title"), "the recording set the terminal's title: %s", title);
	free(title);
	snprintf(cmd, sizeof cmd, "tmux -L %s send-keys -t esc 2", tmux_sock);
	cr_assert_eq(system(cmd), 0);
	scr = screen_with(" c\\x1b]0;title\\x07\\x1b[2J\\x1b[31m\\x0a\\x09\\x7f\\xc2\\x9b\\xffcaf\xc3\xa9");
	free(scr);
}

/*
 * A long name goes out whole, as perf prints it: a 6,000-byte C++ name of a
 * JIT symbol (perf-42.map), in top's table, its --tsv and its folded
 * stacks (fixed buffers of 1 KiB and 4 KiB once cut it with no mark).
 */
Test(long_names, top_prints_a_name_whole)
{
	static const char *const args[] = { "top", "top --tsv", "top --sort sym", "folded" };
	char dir[] = "/tmp/perfnav-test-long-XXXXXX", cmd[512];
	char *name = synth_long_name(6000), *path = synth_jit_file(name, dir, 20);

	for (size_t i = 0; i < sizeof args / sizeof args[0]; i++) {
		char *out;
		int status;

		snprintf(cmd, sizeof cmd, "%s/perfnav %s --perfmap-dir %s --kallsyms /dev/null %s "
		    "2>&1", TEST_BUILDDIR, args[i], dir, path);
		out = cmd_output(cmd, NULL, &status);
		cr_assert_not_null(out);
		cr_assert_eq(status, 0, "%s:\n%.300s", args[i], out);
		cr_expect_not_null(strstr(out, name), "perfnav %s: the %zu-byte name not whole",
		    args[i], strlen(name));
		free(out);
	}
	synth_jit_remove(path, dir);
	free(name);
}
