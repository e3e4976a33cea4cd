/*
 * Criterion tests of the config-line parser (tui/conf.c) that the key
 * bindings and the themes read their files with: comments, words (no
 * quoting), bad lines with their numbers, and the messages keys and
 * themes give for them.
 */
#include "config.h"

#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tui/conf.h"
#include "tui/keys.h"
#include "tui/theme.h"

/* What conf_parse gave: each line's words joined by '|', each error "N:msg". */
struct confacc {
	char	lines[2048];
	char	errs[2048];
	int	reject_at;	/* the line function rejects a line whose first word is this */
	int	maxw;		/* the syntax's words_max: w holds no more */
};

static void
acc_add(char *buf, size_t cap, const char *s)
{
	size_t len = strlen(buf);

	snprintf(buf + len, cap - len, "%s", s);
}

static int
conf_acc_line(void *arg, char **w, int nw, char *msg, size_t n)
{
	struct confacc *c = arg;
	char num[16];

	if (c->reject_at && atoi(w[0]) == c->reject_at) {
		snprintf(msg, n, "no %s here", w[0]);
		return -1;
	}
	snprintf(num, sizeof num, "%d:", nw);
	acc_add(c->lines, sizeof c->lines, num);
	for (int i = 0; i < nw && i < c->maxw; i++) {
		acc_add(c->lines, sizeof c->lines, w[i]);
		acc_add(c->lines, sizeof c->lines, "|");
	}
	acc_add(c->lines, sizeof c->lines, ";");
	return 0;
}

static void
conf_acc_err(void *arg, int line, const char *m)
{
	struct confacc *c = arg;
	char buf[700];

	snprintf(buf, sizeof buf, "%d:%s;", line, m);
	acc_add(c->errs, sizeof c->errs, buf);
}

static bool
conf_hash_ok(const char *p)
{
	return p[1] == '!';
}

Test(conf, comments_and_blank_lines)
{
	const struct conf_syntax syn = { .line_max = 100, .words_max = 3, .tab_space = true };
	struct confacc c = { .maxw = 3 };

	cr_assert_eq(conf_parse("# a comment\n"
	    "\n"
	    "   \t  \n"
	    "a b # trailing comment\n"
	    "a#b c#\n"
	    "  # indented comment\n"
	    "x #y z\n", &syn, conf_acc_line, &c, conf_acc_err, &c), 0);
	cr_assert_str_eq(c.lines, "2:a|b|;2:a#b|c#|;1:x|;",
	    "'#' starts a comment only at a word's start");
	cr_assert_str_eq(c.errs, "");

	/* a syntax may take some '#' words as words (themes: "#rrggbb") */
	const struct conf_syntax hs = { .line_max = 100, .words_max = 3, .hash_word = conf_hash_ok };
	struct confacc h = { .maxw = 3 };

	cr_assert_eq(conf_parse("a #!x #y\n#!b\n", &hs, conf_acc_line, &h, NULL, NULL), 0);
	cr_assert_str_eq(h.lines, "2:a|#!x|;1:#!b|;");
}

Test(conf, no_quoting_and_blanks)
{
	const struct conf_syntax tabs = { .line_max = 100, .words_max = 4, .tab_space = true };
	const struct conf_syntax any = { .line_max = 100, .words_max = 4 };
	struct confacc c = { .maxw = 4 }, d = { .maxw = 4 };
	const char *text = "\"a b\" 'c\\ d'\n"
	    "p\vq\r\n"
	    "last";

	cr_assert_eq(conf_parse(text, &tabs, conf_acc_line, &c, conf_acc_err, &c), 0);
	cr_assert_str_eq(c.lines, "4:\"a|b\"|'c\\|d'|;1:p\vq|;1:last|;",
	    "quotes and backslashes are plain characters; only space and tab split; "
	    "a final CR is dropped; the last line needs no newline: %s", c.lines);
	cr_assert_eq(conf_parse(text, &any, conf_acc_line, &d, conf_acc_err, &d), 0);
	cr_assert_str_eq(d.lines, "4:\"a|b\"|'c\\|d'|;2:p|q|;1:last|;",
	    "any white space splits: %s", d.lines);
}

Test(conf, errors_with_line_numbers)
{
	const struct conf_syntax syn = { .line_max = 10, .words_max = 2, .tab_space = true };
	struct confacc c = { .reject_at = 3, .maxw = 2 };
	char text[256];

	snprintf(text, sizeof text, "1 ok\n"
	    "2 %s\n"		/* 11 bytes: too long */
	    "3 rejected\n"
	    "\n"
	    "5 b c\n"		/* too many words: 3 reach the line function */
	    "6 %s", "123456789", "abcdefg");	/* exactly 10 bytes: fine */
	cr_assert_eq(conf_parse(text, &syn, conf_acc_line, &c, conf_acc_err, &c), 2);
	cr_assert_str_eq(c.errs, "2:line too long;3:no 3 here;", "%s", c.errs);
	cr_assert_str_eq(c.lines, "2:1|ok|;3:5|b|;2:6|abcdefg|;", "%s", c.lines);
	cr_assert_eq(conf_parse(text, &syn, conf_acc_line, &c, NULL, NULL), 2, "err may be NULL");
}

/* The messages keys and themes give, with their line numbers. */
static void
str_err(void *arg, int line, const char *m)
{
	char buf[700];

	snprintf(buf, sizeof buf, "%d:%s;", line, m);
	acc_add(arg, 2048, buf);
}

Test(conf, keys_and_theme_messages)
{
	static const char *const maps1[] = { "hot", NULL };
	char errs[2048] = "", long_line[300];
	struct keys k;
	struct theme t;

	memset(long_line, 'x', sizeof long_line - 1);
	long_line[sizeof long_line - 1] = '\0';
	keys_init(&k, maps1);
	cr_assert_eq(keys_parse(&k, "bind global q quit\r\n"
	    "bind nomap q quit\n"
	    "# ok\n"
	    "bind global q quit extra\n"
	    "unbind global Nokey\n"
	    "bind hot q nope\n"
	    "bind global # quit\n", str_err, errs), 5);
	cr_assert_str_eq(errs, "2:unknown map 'nomap';"
	    "4:expected 'bind MAP KEY ACTION' or 'unbind MAP KEY';"
	    "5:unknown key 'Nokey';"
	    "6:unknown action 'nope';"
	    "7:expected 'bind MAP KEY ACTION' or 'unbind MAP KEY';", "%s", errs);
	cr_assert_eq(keys_lookup(&k, "hot", 'q'), ACT_QUIT, "CRLF lines read");
	errs[0] = '\0';
	cr_assert_eq(keys_parse(&k, long_line, str_err, errs), 1);
	cr_assert_str_eq(errs, "1:line too long;");
	keys_free(&k);

	errs[0] = '\0';
	theme_builtin(&t, "default");
	cr_assert_eq(theme_parse(&t, "cursor #00ff00 default\n"
	    "cursor red\n"
	    "cursor #zzzzzz red\n"
	    "nope red blue\n"
	    "cursor red blue sparkly\n"
	    "cursor red #12\n"
	    "cursor 1 2 bold bold bold bold bold bold bold bold bold\n", str_err, errs), 6);
	cr_assert_str_eq(errs, "2:expected 'element fg bg [attrs]';"
	    "3:expected 'element fg bg [attrs]';"
	    "4:unknown element 'nope';"
	    "5:unknown attribute 'sparkly';"
	    "6:expected 'element fg bg [attrs]';"
	    "7:expected 'element fg bg [attrs]';", "%s", errs);
	cr_assert_eq(t.el[EL_CURSOR].fg.kind, TC_RGB, "#rrggbb is a colour, not a comment");
}
