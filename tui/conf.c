#include "config.h"

#include <ctype.h>
#include <stdio.h>
#include <string.h>

#include "tui/conf.h"

/* conf.c: the line and word syntax of the key and theme files. */

static bool
is_blank(const struct conf_syntax *syn, char c)
{
	if (syn->tab_space)
		return c == ' ' || c == '\t';
	return isspace((unsigned char)c) != 0;
}

/*
 * Split line into at most max words, in place; a '#' that starts a word
 * ends the line unless hash_word accepts the word.  Returns the number
 * of words, max + 1 if there are more.
 */
static int
split(const struct conf_syntax *syn, char *line, char **w, int max)
{
	int n = 0;
	char *p = line;

	while (*p) {
		while (*p && is_blank(syn, *p))
			p++;
		if (*p == '\0' || (*p == '#' && (syn->hash_word == NULL || !syn->hash_word(p))))
			break;
		if (n == max)
			return max + 1;
		w[n++] = p;
		while (*p && !is_blank(syn, *p))
			p++;
		if (*p)
			*p++ = '\0';
	}
	return n;
}

int
conf_parse(const char *text, const struct conf_syntax *syn, conf_line_fn fn, void *fn_arg,
    conf_err_fn err, void *err_arg)
{
	const char *p = text;
	int lineno = 0, bad = 0, max = syn->words_max;
	char line[CONF_LINE_MAX + 1], msg[CONF_MSG_MAX], *w[CONF_LINE_MAX / 2 + 2];

	if (max > CONF_LINE_MAX / 2 + 1)
		max = CONF_LINE_MAX / 2 + 1;
	while (*p) {
		const char *nl = strchr(p, '\n');
		size_t len = nl ? (size_t)(nl - p) : strlen(p);
		int nw;

		lineno++;
		if (len > syn->line_max || len > CONF_LINE_MAX) {
			snprintf(msg, sizeof msg, "line too long");
			goto fail;
		}
		memcpy(line, p, len);
		line[len] = '\0';
		if (syn->tab_space && len && line[len - 1] == '\r')
			line[len - 1] = '\0';
		nw = split(syn, line, w, max);
		if (nw == 0)
			goto next;
		msg[0] = '\0';
		if (fn(fn_arg, w, nw, msg, sizeof msg) == 0)
			goto next;
fail:
		bad++;
		if (err)
			err(err_arg, lineno, msg);
next:
		if (nl == NULL)
			break;
		p = nl + 1;
	}
	return bad;
}
