/*
 * Criterion tests of tui/cmd/fmt.c: every writer against snprintf with the
 * printf format it stands for, on edge values (0, 1, the limits, widths
 * narrower and wider than the number), and the buffer growing across many
 * writes and flushing to a stream.
 */
#include "config.h"

#include <criterion/criterion.h>
#include <inttypes.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "core/text.h"
#include "tests/helpers.h"
#include "tui/cmd/fmt.h"
#include "tui/cmd/textout.h"

static const uint64_t u64s[] = {
	0, 1, 9, 10, 99, 100, 999, 1000, 4095, 65535, 999999, 1000000, 123456789,
	999999999, 1000000000, 1000000001, 4294967295u, 4294967296u, 0xffffffff81000000u,
	UINT64_C(9999999999999999999), UINT64_C(10000000000000000000), INT64_MAX, UINT64_MAX,
};
static const int ints[] = { 0, 1, -1, 9, -9, 99999, -99999, 100000, -100000, INT_MAX, INT_MIN };
static const unsigned widths[] = { 0, 1, 3, 5, 10, 12, 16, 25 };

#define NUM(a) (sizeof(a) / sizeof((a)[0]))

/* b's text so far as a C string, then emptied. */
static char *
take(struct fmt *b)
{
	char *s = malloc(b->len + 1);

	cr_assert_not_null(s);
	cr_assert(!b->failed);
	memcpy(s, b->p, b->len);
	s[b->len] = '\0';
	b->len = 0;
	return s;
}

static void
same(struct fmt *b, const char *want, const char *what)
{
	char *got = take(b);

	cr_expect_str_eq(got, want, "%s", what);
	free(got);
}

Test(fmt, unsigned_writers_match_printf)
{
	struct fmt b = { 0 };
	char want[64];

	for (size_t i = 0; i < NUM(u64s); i++)
		for (size_t w = 0; w < NUM(widths); w++) {
			int wd = (int)widths[w];
			uint64_t v = u64s[i];

			snprintf(want, sizeof want, "%*" PRIu64, wd, v);
			fmt_u64(&b, v, widths[w]);
			same(&b, want, "%*" PRIu64);
			snprintf(want, sizeof want, "%0*" PRIu64, wd, v);
			fmt_u64_zero(&b, v, widths[w]);
			same(&b, want, "%0*" PRIu64);
			snprintf(want, sizeof want, "%-*" PRIu64, wd, v);
			fmt_u64_left(&b, v, widths[w]);
			same(&b, want, "%-*" PRIu64);
			snprintf(want, sizeof want, "%*" PRIx64, wd, v);
			fmt_hex(&b, v, widths[w]);
			same(&b, want, "%*" PRIx64);
		}
	fmt_free(&b);
}

Test(fmt, signed_writers_match_printf)
{
	struct fmt b = { 0 };
	char want[64];

	for (size_t i = 0; i < NUM(ints); i++)
		for (size_t w = 0; w < NUM(widths); w++) {
			int wd = (int)widths[w];

			snprintf(want, sizeof want, "%*d", wd, ints[i]);
			fmt_int(&b, ints[i], widths[w]);
			same(&b, want, "%*d");
			snprintf(want, sizeof want, "%-*d", wd, ints[i]);
			fmt_int_left(&b, ints[i], widths[w]);
			same(&b, want, "%-*d");
		}
	fmt_free(&b);
}

Test(fmt, time_matches_text_time_us_printf)
{
	struct fmt b = { 0 };
	char t[64], want[64];

	for (size_t i = 0; i < NUM(u64s); i++)
		for (size_t w = 0; w < NUM(widths); w++) {
			uint64_t ns = u64s[i];

			snprintf(t, sizeof t, "%" PRIu64 ".%06" PRIu64, ns / 1000000000u,
			    ns % 1000000000u / 1000u);
			snprintf(want, sizeof want, "%*s", (int)widths[w], t);
			fmt_time_us(&b, ns, widths[w]);
			same(&b, want, "time");
		}
	fmt_free(&b);
}

Test(fmt, strings_pad_as_printf)
{
	static const char *const strs[] = { "", "a", ":-1", "fifteen-chars..", "sixteen-chars...",
		"seventeen-chars..", "caf\xc3\xa9" };
	struct fmt b = { 0 };
	char want[64];

	for (size_t i = 0; i < NUM(strs); i++)
		for (size_t w = 0; w < NUM(widths); w++) {
			snprintf(want, sizeof want, "%*s", (int)widths[w], strs[i]);
			fmt_str_right(&b, strs[i], widths[w]);
			same(&b, want, "%*s");
			snprintf(want, sizeof want, "%-*s", (int)widths[w], strs[i]);
			fmt_str_left(&b, strs[i], widths[w]);
			same(&b, want, "%-*s");
		}
	fmt_str(&b, "ab");
	fmt_char(&b, '\t');
	fmt_mem(&b, "cdef", 2);
	fmt_printf(&b, "[%03d]%s", -1, "x");
	same(&b, "ab\tcd[-01]x", "mixed");
	fmt_free(&b);
}

Test(fmt, grows_and_flushes_in_order)
{
	struct fmt b = { 0 };
	char *text = NULL;
	size_t size = 0;
	FILE *fp = open_memstream(&text, &size);

	cr_assert_not_null(fp);
	for (uint64_t i = 0; i < 100000; i++) {
		fmt_u64(&b, i, 7);
		fmt_char(&b, '\n');
		if (i % 30011 == 0)
			cr_assert_eq(fmt_flush(&b, fp), 0);
	}
	cr_assert_eq(fmt_flush(&b, fp), 0);
	cr_assert_eq(b.len, 0);
	fclose(fp);
	cr_assert_eq(size, 100000u * 8);
	for (uint64_t i = 0; i < 100000; i += 997) {
		char want[16];

		snprintf(want, sizeof want, "%7" PRIu64 "\n", i);
		cr_expect(memcmp(text + i * 8, want, 8) == 0, "line %" PRIu64, i);
	}
	free(text);
	fmt_free(&b);
}

/* Names from a recording as the tests of textout_fmt give them. */
static const char *const names[] = { "", "main", "[kernel.kallsyms]",
	"a name longer than sixty-four bytes, so that the copy takes two rounds...",
	"exactly sixty-four bytes of printable ascii text, no more no less",
	"tab\there", "nl\n", "esc\x1b[31m", "caf\xc3\xa9", "bad\xff utf-8",
	"c1 \xc2\x9b, cut \xe2\x82", "del\x7f",
	"a name longer than sixty-four bytes, with a control byte at its end\x01" };

Test(fmt, textout_fmt_writes_what_textout_esc_gives)
{
	struct fmt b = { 0 };

	for (size_t i = 0; i < NUM(names); i++) {
		fmt_str(&b, "<");
		textout_fmt(&b, names[i]);
		fmt_str(&b, ">");
		char *got = take(&b), want[256];

		snprintf(want, sizeof want, "<%s>", textout_esc(names[i]));
		cr_expect_str_eq(got, want, "name %zu", i);
		free(got);
	}
	textout_fmt(&b, NULL);
	cr_expect_eq(b.len, 0);
	fmt_free(&b);
}

Test(fmt, textout_fmt_right_is_printf_of_the_escaped_name)
{
	static const unsigned w[] = { 0, 1, 4, 16, 40 };
	struct fmt b = { 0 };

	for (size_t i = 0; i < NUM(names); i++)
		for (size_t k = 0; k < NUM(w); k++) {
			char want[512];

			fmt_str(&b, "<");
			textout_fmt_right(&b, names[i], w[k]);
			fmt_str(&b, ">");
			char *got = take(&b);

			snprintf(want, sizeof want, "<%*s>", (int)w[k], textout_esc(names[i]));
			cr_expect_str_eq(got, want, "name %zu width %u", i, w[k]);
			free(got);
		}
	fmt_free(&b);
}

/*
 * textout_write_clean skips the stdout filter on the promise that the text
 * is clean already: whatever a name holds, what textout_fmt makes of it (and
 * of lines of names, tabs and newlines) is text the filter passes unchanged.
 */
Test(fmt, textout_fmt_text_passes_the_filter_unchanged)
{
	struct fmt b = { 0 };

	for (size_t i = 0; i < NUM(names); i++) {
		fmt_char(&b, '\t');
		textout_fmt(&b, names[i]);
		textout_fmt_right(&b, names[i], 20);
		fmt_char(&b, '\n');
	}
	/* every byte value alone, and after each lead byte of UTF-8 */
	for (unsigned c = 1; c < 256; c++) {
		char one[2] = { (char)c, 0 }, two[3] = { (char)0xe2, (char)c, 0 };

		textout_fmt(&b, one);
		textout_fmt(&b, two);
	}
	cr_assert(!b.failed);
	cr_expect_eq(text_clean_prefix(b.p, b.len, TEXT_KEEP_TAB | TEXT_KEEP_NL), b.len);
	fmt_free(&b);
}

/* Off standard output, textout_write_clean is a plain write to its stream. */
Test(fmt, textout_write_clean_writes_to_other_streams)
{
	FILE *fp = tmpfile();
	char got[64] = { 0 };

	cr_assert_not_null(fp);
	cr_expect_eq(textout_write_clean(fp, "one\ttwo\n", 8), 0);
	cr_expect_eq(textout_write_clean(fp, "", 0), 0);
	rewind(fp);
	cr_expect_eq(fread(got, 1, sizeof got - 1, fp), 8);
	cr_expect_str_eq(got, "one\ttwo\n");
	fclose(fp);
}

/* The forked child below: no LeakSanitizer report from it (see test_textout.c). */
static int in_forked_child;

int __lsan_is_turned_off(void);

int
__lsan_is_turned_off(void)
{
	return in_forked_child;
}

/*
 * On the filtered standard output, textout_write_clean's text comes after
 * what the stream held and before what follows, byte for byte; a UTF-8
 * sequence the filter holds cut short is completed by it as a stream write
 * would complete it.
 */
Test(fmt, textout_write_clean_keeps_the_order_of_stdout)
{
	char path[] = "/tmp/perfnav-test-fmt-XXXXXX";
	int fd = mkstemp(path), st;
	char *out;
	pid_t pid;

	cr_assert(fd >= 0);
	fflush(NULL);
	pid = fork();
	cr_assert_geq(pid, 0);
	if (pid == 0) {
		in_forked_child = 1;
		dup2(fd, STDOUT_FILENO);
		if (textout_filter(true) < 0)
			_exit(3);
		fputs("held \x1b|", stdout);		/* in the stream's buffer */
		textout_write_clean(stdout, "clean\t1\n", 8);
		fputs("after|caf\xc3", stdout);		/* cut short: waits in the filter */
		fflush(stdout);
		textout_write_clean(stdout, "\xa9|2\n", 4);
		fputs("end\n", stdout);
		exit(0);
	}
	cr_assert_eq(waitpid(pid, &st, 0), pid);
	cr_assert(WIFEXITED(st) && WEXITSTATUS(st) == 0, "child status %#x", st);
	out = slurp(path, NULL);
	cr_assert_not_null(out);
	cr_expect_str_eq(out, "held \\x1b|clean\t1\nafter|caf\xc3\xa9|2\nend\n");
	free(out);
	close(fd);
	unlink(path);
}
