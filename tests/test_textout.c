/*
 * Criterion tests of tui/cmd/textout.c's filter on standard output and error:
 * in a child process whose stdout and stderr are files, text written in
 * pieces (UTF-8 sequences cut between writes, a sequence cut at exit,
 * large clean runs) comes out with every control byte but tab and newline,
 * C1 and invalid UTF-8 escaped, and everything else byte for byte; the
 * unfiltered stderr keeps deliberate terminal controls.
 */
#include "config.h"

#include <criterion/criterion.h>
#include <fcntl.h>
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "tests/helpers.h"
#include "tui/cmd/textout.h"

/* Write each piece with its own write to the filter (unbuffered). */
static void
pieces(FILE *fp, const char *const *v)
{
	for (; *v; v++)
		fwrite(*v, 1, strlen(*v), fp);
}

#define PIECES(...) ((const char *const[]){ __VA_ARGS__, NULL })

/*
 * The child below is forked from Criterion's threaded runner: under ASan,
 * LeakSanitizer's check at its exit would report on the parent's threads
 * into the stderr under test.  LeakSanitizer asks this hook first.
 */
static int in_forked_child;

int __lsan_is_turned_off(void);

int
__lsan_is_turned_off(void)
{
	return in_forked_child;
}

/* Run fn in a child whose stdout and stderr go to files; their texts. */
static void
in_child(void (*fn)(void), char **out, char **err)
{
	char op[] = "/tmp/perfnav-test-out-XXXXXX", ep[] = "/tmp/perfnav-test-err-XXXXXX";
	int fo = mkstemp(op), fe = mkstemp(ep), st;
	pid_t pid;

	cr_assert(fo >= 0 && fe >= 0);
	fflush(NULL);
	pid = fork();
	cr_assert_geq(pid, 0);
	if (pid == 0) {
		in_forked_child = 1;
		dup2(fo, STDOUT_FILENO);
		dup2(fe, STDERR_FILENO);
		if (textout_filter(true) < 0)
			_exit(3);
		fn();
		exit(0);	/* the exit handler writes what is pending */
	}
	cr_assert_eq(waitpid(pid, &st, 0), pid);
	cr_assert(WIFEXITED(st) && WEXITSTATUS(st) == 0, "child status %#x", st);
	*out = slurp(op, NULL);
	*err = slurp(ep, NULL);
	cr_assert(*out != NULL && *err != NULL);
	close(fo);
	close(fe);
	unlink(op);
	unlink(ep);
}

static void
write_pieces(void)
{
	setvbuf(stdout, NULL, _IONBF, 0);
	pieces(stdout, PIECES("caf", "\xc3", "\xa9", "\n"));		/* cut in two */
	pieces(stdout, PIECES("\xe6", "\x97", "\xa5", "|"));		/* in three */
	pieces(stdout, PIECES("\xf0\x9f", "\x94\xa5", "|"));		/* 4 bytes in two */
	pieces(stdout, PIECES("\xe6\x97", "x|"));			/* cut, then not continued */
	pieces(stdout, PIECES("\xc2", "\x9b", "|"));			/* C1 across writes */
	pieces(stdout, PIECES("\x1b[31m", "a\tb\n"));
	pieces(stdout, PIECES("\x7f\r\x01|\xff\x80|\xed\xa0\x80|\xc0\xaf\n"));
	pieces(stdout, PIECES("end\xf0\x9f"));				/* cut at exit */
	fputs("e\x1b[2J\n", stderr);
	fputs("\r\x1b[K", textout_tty_err());
}

Test(textout, pieces_and_classes)
{
	char *out, *err;

	in_child(write_pieces, &out, &err);
	cr_assert_str_eq(out, "caf\xc3\xa9\n"
	    "\xe6\x97\xa5|"
	    "\xf0\x9f\x94\xa5|"
	    "\\xe6\\x97x|"
	    "\\xc2\\x9b|"
	    "\\x1b[31ma\tb\n"
	    "\\x7f\\x0d\\x01|\\xff\\x80|\\xed\\xa0\\x80|\\xc0\\xaf\n"
	    "end\\xf0\\x9f");
	cr_assert_str_eq(err, "e\\x1b[2J\n\r\x1b[K", "stderr filtered, the raw stream not");
	free(out);
	free(err);
}

/* Big writes through the stream's buffer: clean text byte for byte,
 * escapes wherever the buffer's edges fall. */
static void
write_big(void)
{
	static char buf[300000];

	for (size_t i = 0; i < sizeof buf - 1; i++)
		buf[i] = "abc\t\xc3\xa9\n\x1b"[i % 8];
	buf[sizeof buf - 1] = '\0';
	fputs(buf, stdout);
	printf("%s\n", "tail");
}

Test(textout, large_output)
{
	char *out, *err;
	size_t n, blocks = (300000 - 1) / 8;

	in_child(write_big, &out, &err);
	n = strlen(out);
	/* each 8-byte block "abc\té\n<ESC>" is 11 bytes out; then the rest */
	for (size_t i = 0; i < blocks; i++)
		cr_assert_eq(memcmp(out + 11 * i, "abc\t\xc3\xa9\n\\x1b", 11), 0, "block %zu", i);
	cr_assert_str_eq(out + 11 * blocks, "abc\t\xc3\xa9\ntail\n");
	cr_assert_eq(n, 11 * blocks + 12);
	cr_assert_str_eq(err, "");
	free(out);
	free(err);
}

Test(textout, names)
{
	const char *clean = "caf\xc3\xa9";

	cr_assert_eq(textout_esc(clean), clean, "clean names are not copied");
	cr_assert_str_eq(textout_esc(NULL), "");
	cr_assert_str_eq(textout_esc("a\tb\nc"), "a\\x09b\\x0ac");
	/* eight results can be used at once */
	{
		const char *v[8];
		char s[8][4];

		for (int i = 0; i < 8; i++) {
			snprintf(s[i], sizeof s[i], "%c\x1b", 'a' + i);
			v[i] = textout_esc(s[i]);
		}
		for (int i = 0; i < 8; i++) {
			char want[8];

			snprintf(want, sizeof want, "%c\\x1b", 'a' + i);
			cr_assert_str_eq(v[i], want);
		}
	}
}

struct esc_run {
	const char	*in, *want;
	int		 bad;
};

/* Escape one name over and over, holding each result across the other thread's calls. */
static void *
esc_loop(void *arg)
{
	struct esc_run *r = arg;

	for (int i = 0; i < 20000; i++) {
		const char *a = textout_esc(r->in);

		sched_yield();
		r->bad += strcmp(a, r->want) != 0;
	}
	return NULL;
}

/* Two threads escaping at once: each thread's results are its own (no shared scratch). */
Test(textout, escapes_per_thread)
{
	struct esc_run a = { "one\tname", "one\\x09name", 0 }, b = { "two\x01name", "two\\x01name", 0 };
	pthread_t th;

	cr_assert_str_eq(textout_esc(b.in), b.want, "the escape of a control byte");
	cr_assert_eq(pthread_create(&th, NULL, esc_loop, &a), 0);
	esc_loop(&b);
	pthread_join(th, NULL);
	cr_expect_eq(a.bad, 0, "thread one's results overwritten %d times", a.bad);
	cr_expect_eq(b.bad, 0, "thread two's results overwritten %d times", b.bad);
}
