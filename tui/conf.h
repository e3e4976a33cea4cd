/*
 * conf.h: the line syntax of perfnav's configuration files, shared by the
 * key bindings (tui/keys.c) and the themes (tui/theme.c).
 *
 * A file is lines of blank-separated words.  A '#' that starts a word
 * starts a comment to the end of the line (a syntax may accept some words
 * that start with '#', as themes accept "#rrggbb").  There is no quoting:
 * quotes and backslashes are ordinary characters.  Blank and comment-only
 * lines are skipped.  Each other line goes to the caller's line function;
 * a line that is too long, or that the line function rejects, is a bad
 * line, reported with its number (from 1) and skipped.  Curses-free.
 */
#ifndef PERFNAV_TUI_CONF_H
#define PERFNAV_TUI_CONF_H

#include <stdbool.h>
#include <stddef.h>

/* The longest line any syntax may allow (bytes, without the newline). */
#define CONF_LINE_MAX	511
/* Room for a line function's message. */
#define CONF_MSG_MAX	640

struct conf_syntax {
	size_t	  line_max;	/* longer lines are bad ("line too long"), <= CONF_LINE_MAX */
	int	  words_max;	/* more words reach the line function as words_max + 1 */
	bool	  tab_space;	/* words split at space and tab only, a final '\r' dropped;
				 * else at any isspace() character */
	bool	(*hash_word)(const char *p);	/* a word at p starting with '#' that is no
						 * comment (NULL: every one is) */
};

/*
 * One line's words w[0..nw-1] (nw >= 1; nw == words_max + 1 means too
 * many, and only words_max are in w).  Returns 0, or -1 with a message
 * in msg (n bytes) for a bad line.
 */
typedef int (*conf_line_fn)(void *arg, char **w, int nw, char *msg, size_t n);
/* Told about a bad line: its number (from 1) and the message. */
typedef void (*conf_err_fn)(void *arg, int line, const char *msg);

/*
 * Split text (NUL-terminated; lines end in '\n') into lines and words by
 * syn, calling fn(fn_arg, ...) for each line with words and err(err_arg,
 * ...) for each bad line when err is not NULL.  Returns the number of bad
 * lines.  Never fails otherwise.
 */
int conf_parse(const char *text, const struct conf_syntax *syn, conf_line_fn fn, void *fn_arg,
    conf_err_fn err, void *err_arg);

#endif
