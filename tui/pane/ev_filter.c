#include "config.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "core/core.h"
#include "tui/pane/ev_filter.h"

/*
 * The events pane's filter terms (ev_filter.h): the text into a struct
 * ev_filter; the pane (pane_events.c) compiles its names against the
 * session and the symbols and matches rows.
 */

/* "123.456789" seconds to ns. */
static int
parse_secs(const char *s, const char *end, uint64_t *ns)
{
	uint64_t sec = 0, frac = 0, scale = 1000000000u;
	const char *p = s;

	if (p == end || !(isdigit((unsigned char)*p) || *p == '.'))
		return -1;
	while (p < end && isdigit((unsigned char)*p))
		sec = sec * 10 + (uint64_t)(*p++ - '0');
	if (p < end && *p == '.') {
		p++;
		while (p < end && isdigit((unsigned char)*p)) {
			scale /= 10;
			frac += (uint64_t)(*p++ - '0') * scale;
			if (scale == 1)
				break;
		}
		while (p < end && isdigit((unsigned char)*p))
			p++;
	}
	if (p != end)
		return -1;
	*ns = sec * 1000000000u + frac;
	return 0;
}

static int
parse_types(struct ev_filter *f, const char *v)
{
	char buf[128], *save = NULL, *t;

	snprintf(buf, sizeof buf, "%s", v);
	f->by_type = true;
	for (t = strtok_r(buf, ",", &save); t; t = strtok_r(NULL, ",", &save)) {
		bool ok = false;
		char *end;
		unsigned long n;

		if (strncasecmp(t, "PERF_RECORD_", 12) == 0)
			t += 12;
		n = strtoul(t, &end, 10);
		if (*t && *end == '\0' && n < 256) {
			f->types[n] = true;
			continue;
		}
		for (unsigned i = 0; i < 256; i++) {
			const char *name = record_type_name(i);

			if (name && strcasecmp(name, t) == 0) {
				f->types[i] = true;
				ok = true;
			}
		}
		if (!ok)
			return -1;
	}
	return 0;
}

/* The filter's keys (EV_KEYS); a word KEY:VALUE of another KEY is unknown. */
static const char *const ev_keys[] = { "type", "pid", "tid", "cpu", "time", "comm", "event",
	"dso", "symoff", "frame", "sym" };

/* The length of w's KEY in KEY:VALUE (letters, digits, '_'; one ':'), 0 if none. */
static size_t
key_len(const char *w)
{
	size_t k = 0;

	while (isalnum((unsigned char)w[k]) || w[k] == '_')
		k++;
	return k > 0 && !isdigit((unsigned char)w[0]) && w[k] == ':' && w[k + 1] != ':' ? k : 0;
}

static bool
known_key(const char *w)
{
	size_t k = key_len(w);

	for (size_t i = 0; k && i < sizeof ev_keys / sizeof ev_keys[0]; i++)
		if (strlen(ev_keys[i]) == k && strncmp(w, ev_keys[i], k) == 0)
			return true;
	return false;
}

/*
 * The next term of the text at *at (NUL-terminated in place; NULL at the
 * end).  sym:'s value runs to the next known KEY: term, so a C++ name may
 * have spaces; every other term ends at a space.
 */
static char *
next_term(char **at)
{
	char *t = *at, *e;

	while (*t == ' ' || *t == '\t')
		t++;
	if (*t == '\0')
		return NULL;
	e = t + strcspn(t, " \t");
	if (strncmp(t, "sym:", 4) == 0) {
		for (char *q = e;;) {
			q += strspn(q, " \t");
			if (*q == '\0' || known_key(q))
				break;
			q += strcspn(q, " \t");
			e = q;
		}
	}
	*at = *e ? e + 1 : e;
	*e = '\0';
	return t;
}

/* Is w a word though it looks like KEY:VALUE: a tracepoint's "sched:sched_switch"? */
static bool
event_word(const struct session *s, const char *w, size_t k)
{
	for (size_t i = 0; s != NULL && i < session_attrs(s)->n; i++)
		if (strncmp(session_attr_name(s, (int)i), w, k + 1) == 0)
			return true;
	return false;
}

int
ev_filter_parse(struct ev_filter *f, const struct session *s, const char *text, char *err, size_t n)
{
	char buf[NAV_FILTER_MAX], *at = buf, *w;

	memset(f, 0, sizeof *f);
	f->pid = f->tid = f->cpu = -2;
	if (err && n)
		err[0] = '\0';
	snprintf(buf, sizeof buf, "%s", text);
	while ((w = next_term(&at)) != NULL) {
		char *colon = strchr(w, ':'), *end;
		const char *v = colon ? colon + 1 : NULL;

		if (colon && strncmp(w, "sym:", 4) == 0) {
			if (*v == '\0') {
				if (err && n)
					snprintf(err, n, "sym: wants a name");
				return -1;
			}
			f->by_sym = true;
			snprintf(f->sym, sizeof f->sym, "%s", v);
		} else if (colon && strncmp(w, "comm:", 5) == 0) {
			f->by_comm = true;
			snprintf(f->comm, sizeof f->comm, "%s", v);
		} else if (colon && strncmp(w, "dso:", 4) == 0) {
			f->by_dso = true;
			snprintf(f->dso, sizeof f->dso, "%s", v);
		} else if (colon && strncmp(w, "symoff:", 7) == 0) {
			f->symoff = strtoull(v, &end, 0);
			if (*v == '\0' || *v == '-' || *v == '+' || *end != '\0')
				goto bad;
			f->by_symoff = true;
		} else if (colon && strncmp(w, "event:", 6) == 0) {
			if (*v == '\0')
				goto bad;
			f->by_event = true;
			snprintf(f->event, sizeof f->event, "%s", v);
		} else if (colon && strncmp(w, "frame:", 6) == 0) {
			unsigned long x = strtoul(v, &end, 10);

			if (*v == '\0' || *v == '-' || *end != '\0' || x >= UINT32_MAX)
				goto bad;
			f->by_frame = true;
			f->frame = (uint32_t)x;
		} else if (colon && strncmp(w, "type:", 5) == 0) {
			if (parse_types(f, v) < 0)
				goto bad;
		} else if (colon && (strncmp(w, "pid:", 4) == 0 || strncmp(w, "tid:", 4) == 0 ||
		    strncmp(w, "cpu:", 4) == 0)) {
			long long x = strtoll(v, &end, 10);

			if (*v == '\0' || *end != '\0')
				goto bad;
			if (w[0] == 'p')
				f->pid = x;
			else if (w[0] == 't')
				f->tid = x;
			else
				f->cpu = x;
		} else if (colon && strncmp(w, "time:", 5) == 0) {
			const char *dash = strchr(v, '-');

			f->by_time = true;
			f->t0 = 0;
			f->t1 = UINT64_MAX;
			if (dash == NULL) {
				goto bad;
			}
			if (dash > v && parse_secs(v, dash, &f->t0) < 0)
				goto bad;
			if (dash[1] && parse_secs(dash + 1, dash + strlen(dash), &f->t1) < 0)
				goto bad;
		} else if (key_len(w) && w[key_len(w) + 1] && !event_word(s, w, key_len(w))) {
			/* not a word: said, and left out */
			if (err && n && err[0] == '\0')
				snprintf(err, n, "unknown filter key '%.*s:', not used (keys: %s)",
				    (int)key_len(w), w, EV_KEYS);
		} else if (f->nwords < EV_WORDS) {
			snprintf(f->words[f->nwords++], sizeof f->words[0], "%.*s",
			    (int)sizeof f->words[0] - 1, w);
		}
		continue;
bad:
		if (err && n)
			snprintf(err, n, "bad filter term '%s' (type:NAME pid:N tid:N cpu:N time:A-B "
			    "comm:NAME event:NAME dso:NAME symoff:N frame:N sym:NAME)", w);
		return -1;
	}
	return 0;
}

bool
ev_event_named(const char *name, const char *want)
{
	static const char mod[] = "ukhIGHpPSDWeb";
	size_t l = strlen(want);
	const char *rest = name + l, *q;

	if (strcmp(name, want) == 0)
		return true;
	if (l == 0 || strncmp(name, want, l) != 0)
		return false;
	if (rest[0] == ':')
		return rest[1] && strspn(rest + 1, mod) == strlen(rest + 1);
	if (rest[0] != '/' || (q = strrchr(rest + 1, '/')) == NULL)
		return false;
	q += q[1] == ':';
	return strspn(q + 1, mod) == strlen(q + 1);
}
