#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "symbolize/symtab.h"

/*
 * libstdc++'s demangler (linked with -lstdc++).  It prints the full
 * signature; perf 6.1 (libiberty's cplus_demangle without DMGL_PARAMS)
 * prints only the qualified name, so the parameters, the return type of
 * template functions, member cv/ref qualifiers and clone suffixes are cut
 * off here.
 */
char *__cxa_demangle(const char *mangled, char *out, size_t *len, int *status);

static bool
word_at(const char *s, size_t i, const char *w)
{
	size_t n = strlen(w);

	if (strncmp(s + i, w, n) != 0)
		return false;
	if (i > 0 && (s[i - 1] == '_' || (s[i - 1] >= 'a' && s[i - 1] <= 'z') ||
	    (s[i - 1] >= 'A' && s[i - 1] <= 'Z') || (s[i - 1] >= '0' && s[i - 1] <= '9')))
		return false;
	return true;
}

/* Length of the operator symbol after "operator" at i (0 if a word follows). */
static size_t
op_len(const char *s, size_t i)
{
	size_t j = i;

	if (s[j] == '(' && s[j + 1] == ')')
		return 2;
	if (s[j] == '[' && s[j + 1] == ']')
		return 2;
	while (s[j] != '\0' && strchr("<>=!+-*/%^&|~,", s[j]) != NULL && j - i < 3)
		j++;
	return j - i;
}

static void
strip_suffixes(char *s)
{
	size_t n = strlen(s);
	bool again = true;

	while (again) {
		again = false;
		while (n > 0 && s[n - 1] == ' ')
			s[--n] = '\0';
		/* " [clone .cold]" */
		if (n > 0 && s[n - 1] == ']') {
			char *c = strstr(s, " [clone ");

			if (c != NULL) {
				char *last = c;

				while ((c = strstr(last + 1, " [clone ")) != NULL)
					last = c;
				*last = '\0';
				n = strlen(s);
				again = true;
				continue;
			}
		}
		static const char *const quals[] = { " const", " volatile", " &&", " &", " noexcept",
			" restrict" };
		for (size_t k = 0; k < sizeof quals / sizeof quals[0]; k++) {
			size_t q = strlen(quals[k]);

			if (n > q && strcmp(s + n - q, quals[k]) == 0 && s[n - q - 1] == ')') {
				n -= q;
				s[n] = '\0';
				again = true;
			}
		}
	}
}

/* Remove the final parameter list "(...)". */
static bool
strip_params(char *s)
{
	size_t n = strlen(s);
	int depth = 0;

	if (n == 0 || s[n - 1] != ')')
		return false;
	for (size_t i = n; i > 0; i--) {
		char c = s[i - 1];

		if (c == ')')
			depth++;
		else if (c == '(') {
			if (--depth == 0) {
				if (i - 1 == 0)
					return false;
				s[i - 1] = '\0';
				return true;
			}
		}
	}
	return false;
}

/* Remove "RET " before a template function's name. */
static void
strip_return_type(char *s)
{
	size_t n = strlen(s), split = 0, opat = n;
	int depth = 0;
	bool found = false;

	if (n == 0 || s[n - 1] != '>')
		return;
	for (size_t i = 0; i < n; i++) {
		char c = s[i];

		if (word_at(s, i, "operator")) {
			size_t l;

			if (opat == n)
				opat = i;
			i += 8;
			l = op_len(s, i);
			i += l;
			i--;
			continue;
		}
		if (c == '<' || c == '(' || c == '[' || c == '{')
			depth++;
		else if ((c == '>' || c == ')' || c == ']' || c == '}') && depth > 0)
			depth--;
		else if (c == ' ' && depth == 0 && i < opat) {
			/* Not a space inside the operator's own name. */
			split = i + 1;
			found = true;
		}
	}
	if (found && depth == 0) {
		/* The name must start at or before the operator keyword. */
		memmove(s, s + split, n - split + 1);
	}
}

char *
demangle_cxx(const char *name)
{
	char *d;
	int st = 0;

	if (name[0] != '_' || name[1] != 'Z')
		return NULL;
	d = __cxa_demangle(name, NULL, NULL, &st);
	if (d == NULL || st != 0) {
		free(d);
		return NULL;
	}
	strip_suffixes(d);
	if (strip_params(d)) {
		strip_suffixes(d);
		strip_return_type(d);
	}
	return d;
}
