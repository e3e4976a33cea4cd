#include "config.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/core.h"
#include "symbolize/hist.h"
#include "symbolize/offcpu.h"
#include "symbolize/symbolizer.h"
#include "tui/cmd/filter_opts.h"
#include "tui/cmd/top_graph.h"
#include "tui/keytab.h"
#include "tui/scope.h"
#include "tui/scope_edit.h"
#include "tui/widget.h"

/*
 * scope_edit.c: the typed scope (the scope-edit action): the words of the
 * start options, read as perfnav's and perf report's command line reads
 * them, made into one step of the scope.  Each word is checked against the
 * recording before anything changes: an error names the word and leaves
 * the scope as it was.
 */

#define SE_WORDS_MAX	32

/* The options the line takes: their names, short names, and what they set. */
enum se_opt {
	SE_TIME,
	SE_PID,
	SE_TID,
	SE_COMMS,
	SE_CPU,
	SE_DSOS,
	SE_SYMBOLS,
	SE_FILES,
	SE_EVENT,
	SE_SORT,
	SE_CALLGRAPH,
	SE_N
};

static const struct {
	const char	*name;		/* --name */
	char		 short_name;	/* -c, or 0 */
	int		 filter_val;	/* FILTER_OPT_*, or 0 */
} se_opts[SE_N] = {
	[SE_TIME] = { "time", 0, FILTER_OPT_TIME },
	[SE_PID] = { "pid", 'p', FILTER_OPT_PID },
	[SE_TID] = { "tid", 't', FILTER_OPT_TID },
	[SE_COMMS] = { "comms", 'c', FILTER_OPT_COMMS },
	[SE_CPU] = { "cpu", 'C', FILTER_OPT_CPU },
	[SE_DSOS] = { "dsos", 'd', FILTER_OPT_DSOS },
	[SE_SYMBOLS] = { "symbols", 'S', FILTER_OPT_SYMBOLS },
	[SE_FILES] = { "files", 0, FILTER_OPT_FILES },
	[SE_EVENT] = { "event", 'e', 0 },
	[SE_SORT] = { "sort", 's', 0 },
	[SE_CALLGRAPH] = { "call-graph", 'g', 0 },
};

/* The option a word names ("--pid", "-p", "--pids", "--tids"), or -1. */
static int
opt_of(const char *w, size_t len)
{
	if (len == 2 && w[0] == '-' && w[1] != '-') {
		for (int i = 0; i < SE_N; i++)
			if (se_opts[i].short_name == w[1])
				return i;
		return -1;
	}
	if (len < 3 || w[0] != '-' || w[1] != '-')
		return -1;
	w += 2;
	len -= 2;
	if ((len == 4 && memcmp(w, "pids", 4) == 0) || (len == 4 && memcmp(w, "tids", 4) == 0))
		len = 3;	/* the plural, as the start options take it */
	for (int i = 0; i < SE_N; i++)
		if (strlen(se_opts[i].name) == len && memcmp(se_opts[i].name, w, len) == 0)
			return i;
	return -1;
}

/* Split line into words at blanks; "double quotes" keep blanks.  Returns the count, -1: too many. */
static int
split(char *line, char **words)
{
	int n = 0;
	char *p = line;

	for (;;) {
		char *out;

		while (*p == ' ' || *p == '\t')
			p++;
		if (*p == '\0')
			return n;
		if (n == SE_WORDS_MAX)
			return -1;
		words[n++] = out = p;
		while (*p != '\0' && *p != ' ' && *p != '\t') {
			if (*p == '"') {
				for (p++; *p != '\0' && *p != '"'; p++)
					*out++ = *p;
				if (*p == '"')
					p++;
				continue;
			}
			*out++ = *p++;
		}
		if (*p != '\0')
			p++;
		*out = '\0';
	}
}

/* The comm of thread tid as the recording last names it, or "". */
static const char *
comm_of(const struct session *s, int32_t tid, int32_t *pid)
{
	const struct thread_table *t = session_threads(s);
	uint32_t th = thread_table_find(t, tid, UINT64_MAX);

	if (th == THREAD_NONE)
		return NULL;
	*pid = t->v[th].pid;
	if (t->v[th].last_comm == UINT32_MAX)
		return "";
	return strtab_get(&t->strs, t->comms[t->v[th].last_comm].name);
}

/* A DSO by its short name or path, or DSO_NONE. */
static uint32_t
dso_id(const struct symbolizer *z, const char *name)
{
	for (uint32_t d = 0; d < symbolizer_ndsos(z); d++)
		if (strcmp(symbolizer_dso_short(z, d), name) == 0 ||
		    strcmp(symbolizer_dso_long(z, d), name) == 0)
			return d;
	return DSO_NONE;
}

/* The function node named name (the first of several), *more: how many others. */
static uint32_t
sym_id(const struct hist *h, const char *name, size_t *more)
{
	uint32_t found = UINT32_MAX;

	*more = 0;
	for (uint32_t k = 0; k < hist_nnodes(h); k++) {
		const struct hist_node *nd = hist_node_get(h, k);

		if (nd->owner || strcmp(symbolizer_label_name(hist_str(h, nd->label)), name) != 0)
			continue;
		if (found == UINT32_MAX)
			found = k;
		else
			(*more)++;
	}
	return found;
}

/* --time: one range, a time step of t. */
static int
take_time(struct scope *t, const struct scope_edit_ctx *cx, struct filter_opts *fo, const char *v,
    char *msg, size_t n)
{
	char fmsg[FILTER_OPTS_MSG];
	uint64_t a, b;

	if (filter_opts_setup(fo, cx->s, "the recording", fmsg, sizeof fmsg) < 0) {
		snprintf(msg, n, "%s", fmsg);
		return -1;
	}
	if (fo->f.ntime != 1) {
		snprintf(msg, n, "--time: one range a step (%zu given): each step narrows the one "
		    "before", fo->f.ntime);
		return -1;
	}
	a = fo->f.time[0].start;
	b = fo->f.time[0].end ? fo->f.time[0].end : UINT64_MAX;
	if (scope_time_refusal(t, a, b) != NULL) {
		snprintf(msg, n, "--time %s: %s", v, scope_time_refusal(t, a, b));
		return -1;
	}
	scope_time_set(t, a, b);
	return 0;
}

/* --pid, --tid: one process or thread of the recording, a zoom of t. */
static int
take_task(struct scope *t, const struct scope_edit_ctx *cx, int o, const struct hist_filter *f,
    const char *v, char *msg, size_t n)
{
	int32_t id = o == SE_PID ? (f->npids ? f->pids[0] : -1) : (f->ntids ? f->tids[0] : -1);
	int32_t pid = id;
	const char *c = comm_of(cx->s, id, &pid);
	char label[64];

	if (f->npids + f->ntids != 1) {
		snprintf(msg, n, "--%s: one at a time in the browser (perfnav top takes a list)",
		    se_opts[o].name);
		return -1;
	}
	if (c == NULL) {
		snprintf(msg, n, "--%s %s: no such %s in the recording", se_opts[o].name, v,
		    o == SE_PID ? "process" : "thread");
		return -1;
	}
	snprintf(label, sizeof label, "%s %" PRId32 " %s", o == SE_PID ? "pid" : "thread", id, TEXT_CLIP(c, 24));
	scope_zoom_set(t, o == SE_PID ? SZ_PID : SZ_TID, o == SE_PID ? id : pid, id, 0, label);
	return 0;
}

/* --comms, --dsos, --symbols: one name with samples, a zoom of t. */
static int
take_name(struct scope *t, const struct scope_edit_ctx *cx, int o, const struct hist_filter *f,
    char *msg, size_t n)
{
	char **names = o == SE_COMMS ? f->comms : o == SE_DSOS ? f->dsos : f->syms;
	size_t nn = o == SE_COMMS ? f->ncomms : o == SE_DSOS ? f->ndsos : f->nsyms, more = 0;
	uint32_t id;
	char label[64];

	if (nn != 1 || f->nsym_ips) {
		snprintf(msg, n, "--%s: one name at a time in the browser (perfnav top takes a list)",
		    se_opts[o].name);
		return -1;
	}
	id = o == SE_COMMS ? hist_comm_find(cx->h, names[0]) : o == SE_DSOS ? dso_id(cx->z, names[0]) :
	    sym_id(cx->h, names[0], &more);
	if (id == UINT32_MAX || (o == SE_DSOS && id == DSO_NONE)) {
		snprintf(msg, n, "--%s %s: no %s of that name with samples", se_opts[o].name, names[0],
		    o == SE_COMMS ? "command" : o == SE_DSOS ? "shared object" : "function");
		return -1;
	}
	snprintf(label, sizeof label, "%s %s", o == SE_COMMS ? "comm" : o == SE_DSOS ? "dso" :
	    "sym", TEXT_CLIP(names[0], 50));
	scope_zoom_set(t, o == SE_COMMS ? SZ_COMM : o == SE_DSOS ? SZ_DSO : SZ_SYM, 0, 0, id, label);
	if (more)
		snprintf(msg, n, "%zu other function%s named %s: the first is taken", more,
		    more == 1 ? " is" : "s are", names[0]);
	return 0;
}

/* --files: one input of a merged recording, a zoom of t. */
static int
take_file(struct scope *t, const struct hist_filter *f, char *msg, size_t n)
{
	uint32_t id;
	char label[64];
	size_t k;

	if (f->nfiles != 1) {
		snprintf(msg, n, "--files: one input at a time in the browser (perfnav top takes a list)");
		return -1;
	}
	id = scope_file_find(t, f->files[0]);
	if (id == UINT32_MAX) {
		k = (size_t)snprintf(msg, n, "--files %s: no input of that name (its inputs:",
		    TEXT_CLIP(f->files[0], 40));
		for (size_t i = 0; t->org != NULL && i < t->org->n && k + 1 < n; i++)
			k += (size_t)snprintf(msg + k, n - k, "%s %s", i ? "," : "",	/* its end kept */
			    text_clip_middle((char[TEXT_CLIP_MAX]){ 0 }, TEXT_CLIP_MAX, t->org->v[i].name, 60));
		if (k + 1 < n)
			snprintf(msg + k, n - k, ")");
		return -1;
	}
	snprintf(label, sizeof label, "file %s", text_clip_middle((char[TEXT_CLIP_MAX]){ 0 },
	    TEXT_CLIP_MAX, t->org->v[id].name, 40));
	scope_zoom_set(t, SZ_FILE, 0, 0, id, label);
	return 0;
}

int
scope_parse_sort(const char *v, struct scope_sort *out, char *msg, size_t n)
{
	struct scope_sort s = { 0 };
	const char *bad;
	size_t badlen;
	int nk = hist_parse_keys(v, s.keys, &bad, &badlen);

	if (nk <= 0) {
		if (nk == 0)
			snprintf(msg, n, "--sort: no keys");
		else
			snprintf(msg, n, "--sort: unknown key '%.*s' (or more than %d keys; the keys: "
			    "perfnav top --help)", (int)(badlen < 40 ? badlen : 40), bad, HIST_MAX_KEYS);
		return -1;
	}
	s.n = (unsigned)nk;
	for (unsigned i = 0; i < s.n; i++)
		s.keep |= HIST_KEEP(s.keys[i]);
	*out = s;
	return 0;
}

int
scope_parse_order(const char *v, int *callers, const char **bad)
{
	struct cg_opts cg;

	cg_defaults(&cg);
	if (cg_parse(v, &cg, bad) < 0)
		return -1;
	if (cg.order_set)
		*callers = cg.caller ? 0 : 1;
	return 0;
}

/* --sort (of comm, dso, sym) and -g ORDER: the hot functions' keys and call paths. */
static int
take_hot(struct scope *t, const struct scope_edit_ctx *cx, int o, const char *v, char *msg, size_t n)
{
	const char *bad;

	if (o == SE_CALLGRAPH) {
		if (scope_parse_order(v, &t->hot_callers, &bad) < 0) {
			snprintf(msg, n, "-g %s: bad word '%s'", v, bad);
			return -1;
		}
		return 0;
	}
	struct scope_sort sort;
	struct keytab_spec sp;

	if (scope_parse_sort(v, &sort, msg, n) < 0)
		return -1;
	if (!scope_sort_merged(&sort) && keytab_spec_of(cx->s, sort.keys, sort.n, false, &sp, msg,
	    n) < 0)
		return -1;
	if (!scope_sort_merged(&sort) && cx->diff) {
		snprintf(msg, n, "--sort %s: the diff pairs rows by sym with comm or dso", v);
		return -1;
	}
	t->hot_sort = sort;
	return 0;
}

/* Does an event of s record its samples' cpu (what --cpu chooses by)? */
static bool
records_cpu(const struct session *s)
{
	const struct attr_table *at = session_attrs(s);

	for (size_t i = 0; i < at->n; i++)
		if (at->v[i].attr.sample_type & PERF_SAMPLE_CPU)
			return true;
	return false;
}

/* What one option and its value do to the scope t; 0, or -1 with msg. */
static int
take(struct scope *t, const struct scope_edit_ctx *cx, int o, const char *v, char *msg, size_t n)
{
	struct filter_opts fo = { 0 };
	char fmsg[FILTER_OPTS_MSG];
	int rc = 0, ev;

	if (se_opts[o].filter_val && filter_opts_take(&fo, se_opts[o].filter_val, v, fmsg,
	    sizeof fmsg) < 0) {
		snprintf(msg, n, "%s", fmsg);
		return -1;
	}
	switch (o) {
	case SE_TIME:
		rc = take_time(t, cx, &fo, v, msg, n);
		break;
	case SE_PID:
	case SE_TID:
		rc = take_task(t, cx, o, &fo.f, v, msg, n);
		break;
	case SE_COMMS:
	case SE_DSOS:
	case SE_SYMBOLS:
		rc = take_name(t, cx, o, &fo.f, msg, n);
		break;
	case SE_FILES:
		rc = take_file(t, &fo.f, msg, n);
		break;
	case SE_CPU:
		/* as perfnav top (and perf report -C): no cpu recorded, nothing to choose */
		if (cx->s != NULL && !records_cpu(cx->s)) {
			snprintf(msg, n, "--cpu: no event of this recording records its cpu: --cpu cannot choose");
			rc = -1;
			break;
		}
		t->ncpus = 0;
		for (size_t i = 0; i < fo.f.ncpus && rc == 0; i++)
			if (i >= SCOPE_CPU_MAX) {
				snprintf(msg, n, "--cpu: %d cpus at most", SCOPE_CPU_MAX);
				rc = -1;
			} else {
				scope_zoom_set(t, SZ_CPU, 0, 0, fo.f.cpus[i], "");
			}
		break;
	case SE_EVENT:
		ev = hist_event_find(cx->h, v);
		if (ev < 0) {
			snprintf(msg, n, "--event %s: no event of that name with samples", v);
			rc = -1;
		} else {
			t->ev = (size_t)ev;
		}
		break;
	default:
		rc = take_hot(t, cx, o, v, msg, n);
		break;
	}
	filter_opts_free(&fo);
	return rc;
}

int
scope_edit(struct scope *sc, const struct scope_edit_ctx *cx, const char *line, char *msg,
    size_t n)
{
	char buf[512], *words[SE_WORDS_MAX];
	struct scope t = *sc;
	int nw;

	msg[0] = '\0';
	if (strlen(line) >= sizeof buf) {
		snprintf(msg, n, "the line is too long (%zu bytes at most)", sizeof buf - 1);
		return -1;
	}
	snprintf(buf, sizeof buf, "%s", line);
	nw = split(buf, words);
	if (nw < 0) {
		snprintf(msg, n, "%d words at most", SE_WORDS_MAX);
		return -1;
	}
	if (nw == 0) {
		snprintf(msg, n, "nothing typed: the start options' words, as --tid 123 --time 10%%-20%%");
		return -1;
	}
	for (int i = 0; i < nw; i++) {
		const char *eq = strchr(words[i], '=');
		size_t len = eq && words[i][1] == '-' ? (size_t)(eq - words[i]) : strlen(words[i]);
		int o = opt_of(words[i], len);
		const char *v;

		if (o < 0) {
			snprintf(msg, n, "'%s': not an option the scope takes (--time --pid --tid "
			    "--comms --cpu --dsos --symbols --files -e --sort -g)", words[i]);
			return -1;
		}
		if (eq && words[i][1] == '-')
			v = eq + 1;
		else if (i + 1 < nw)
			v = words[++i];
		else {
			snprintf(msg, n, "%s: a value is missing", words[i]);
			return -1;
		}
		if (take(&t, cx, o, v, msg, n) < 0)
			return -1;
	}
	if (!scope_assign(sc, &t)) {
		snprintf(msg, n, "the scope has that already");
		return 1;
	}
	snprintf(sc->what, sizeof sc->what, "%s", TEXT_CLIP(line, 50));
	return 0;
}

/* ---- the scope as a command line (the scope-command action) ---- */

/* Append s to buf (o of n used), single-quoted for the shell when it needs it. */
static size_t
put_word(char *buf, size_t n, size_t o, const char *s)
{
	bool plain = s[0] != '\0';

	for (const char *p = s; *p && plain; p++)
		plain = strchr("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789"
		    "-_./,:%+=@", *p) != NULL;
	if (o + 1 >= n)
		return o;
	o += (size_t)snprintf(buf + o, n - o, " %s", plain ? s : "'");
	for (const char *p = s; !plain && *p && o + 5 < n; p++)
		o += (size_t)snprintf(buf + o, n - o, *p == '\'' ? "'\\''" : "%c", *p);
	if (!plain && o + 1 < n)
		o += (size_t)snprintf(buf + o, n - o, "'");
	return o < n ? o : n - 1;
}

static size_t
put_opt(char *buf, size_t n, size_t o, const char *opt, const char *v)
{
	return put_word(buf, n, put_word(buf, n, o, opt), v);
}

/* A time in seconds as --time takes it: microseconds, or nanoseconds when it needs them. */
static void
fmt_time(char *buf, size_t n, uint64_t ns)
{
	if (ns % 1000 == 0)
		snprintf(buf, n, "%" PRIu64 ".%06" PRIu64, ns / 1000000000, ns / 1000 % 1000000);
	else
		snprintf(buf, n, "%" PRIu64 ".%09" PRIu64, ns / 1000000000, ns % 1000000000);
}

/* --time of the scope's time steps cut to the start's ranges. */
static size_t
put_time(char *buf, size_t n, size_t o, const struct scope *sc, const struct hist_filter *start)
{
	struct hist_filter f;
	char v[512], a[32], b[32];
	size_t k = 0;

	if (scope_filter(sc, start, &f) == NULL || f.ntime == 0) {
		scope_filter_free(&f);
		return o;
	}
	v[0] = '\0';
	for (size_t i = 0; i < f.ntime && k + 1 < sizeof v; i++) {
		fmt_time(a, sizeof a, f.time[i].start);
		fmt_time(b, sizeof b, f.time[i].end);
		k += (size_t)snprintf(v + k, sizeof v - k, "%s%s,%s", i ? " " : "",
		    f.time[i].start ? a : "", f.time[i].end && f.time[i].end != UINT64_MAX ? b : "");
	}
	scope_filter_free(&f);
	return put_opt(buf, n, o, "--time", v);
}

/* The start option lists the zoom does not narrow (--pid, --tid, ... as given at start). */
static size_t
put_start(char *buf, size_t n, size_t o, const struct scope *sc, const struct hist_filter *f)
{
	char v[512];
	size_t k;

	if (f == NULL)
		return o;
#define LIST(cnt, fmt, expr) \
	do { \
		k = 0; \
		v[0] = '\0'; \
		for (size_t i = 0; i < (cnt) && k + 1 < sizeof v; i++) \
			k += (size_t)snprintf(v + k, sizeof v - k, "%s" fmt, i ? "," : "", expr); \
	} while (0)
	if (f->npids && !scope_zoomed(sc, SZ_PID)) {
		LIST(f->npids, "%" PRId32, f->pids[i]);
		o = put_opt(buf, n, o, "--pid", v);
	}
	if (f->ntids && !scope_zoomed(sc, SZ_TID)) {
		LIST(f->ntids, "%" PRId32, f->tids[i]);
		o = put_opt(buf, n, o, "--tid", v);
	}
	if (f->ncomms && !scope_zoomed(sc, SZ_COMM)) {
		LIST(f->ncomms, "%s", f->comms[i]);
		o = put_opt(buf, n, o, "--comms", v);
	}
	if (f->ncpus && !scope_zoomed(sc, SZ_CPU)) {
		LIST(f->ncpus, "%" PRIu32, f->cpus[i]);
		o = put_opt(buf, n, o, "--cpu", v);
	}
	if (f->ndsos && !scope_zoomed(sc, SZ_DSO)) {
		LIST(f->ndsos, "%s", f->dsos[i]);
		o = put_opt(buf, n, o, "--dsos", v);
	}
	if ((f->nsyms || f->nsym_ips) && !scope_zoomed(sc, SZ_SYM)) {
		LIST(f->nsyms, "%s", f->syms[i]);
		for (size_t i = 0; i < f->nsym_ips && k + 1 < sizeof v; i++)
			k += (size_t)snprintf(v + k, sizeof v - k, "%s0x%" PRIx64, k ? "," : "",
			    f->sym_ips[i]);
		o = put_opt(buf, n, o, "--symbols", v);
	}
	if (f->nfiles && !scope_zoomed(sc, SZ_FILE)) {
		LIST(f->nfiles, "%s", f->files[i]);
		o = put_opt(buf, n, o, "--files", v);
	}
#undef LIST
	return o;
}

/*
 * The zoom's options: --files, --pid, --tid, --comms, --cpu (cut to the
 * start's), --dsos, --symbols.
 */
static size_t
put_zoom(char *buf, size_t n, size_t o, const struct scope *sc, const struct scope_edit_ctx *cx,
    const struct hist_filter *start)
{
	const struct hist_select *z = &sc->sel;
	char v[512];

	if (scope_zoomed(sc, SZ_FILE))
		o = put_opt(buf, n, o, "--files", scope_file_name(sc));
	if (scope_zoomed(sc, SZ_PID) && !scope_zoomed(sc, SZ_TID)) {	/* a thread names its process */
		snprintf(v, sizeof v, "%" PRId32, z->pid);
		o = put_opt(buf, n, o, "--pid", v);
	}
	if (scope_zoomed(sc, SZ_TID)) {
		snprintf(v, sizeof v, "%" PRId32, z->tid);
		o = put_opt(buf, n, o, "--tid", v);
	}
	if (scope_zoomed(sc, SZ_COMM))
		o = put_opt(buf, n, o, "--comms", hist_str(cx->h, z->comm));
	if (scope_zoomed(sc, SZ_CPU)) {
		struct hist_filter f;	/* the zoom's cpus among the start's, as scope_filter cuts them */
		size_t k = 0;

		scope_filter(sc, start, &f);
		v[0] = '\0';
		for (size_t i = 0; i < f.ncpus && f.cpus[i] != UINT32_MAX && k + 1 < sizeof v; i++)
			k += (size_t)snprintf(v + k, sizeof v - k, "%s%" PRIu32, k ? "," : "", f.cpus[i]);
		scope_filter_free(&f);
		o = put_opt(buf, n, o, "--cpu", v[0] ? v : "none");
	}
	if (scope_zoomed(sc, SZ_DSO))
		o = put_opt(buf, n, o, "--dsos", z->dso == DSO_NONE ? "[unknown]" :
		    symbolizer_dso_short(cx->z, z->dso));
	if (scope_zoomed(sc, SZ_SYM)) {
		const struct hist_node *nd = hist_node_get(cx->h, z->node);

		o = put_opt(buf, n, o, "--symbols", nd ? symbolizer_label_name(hist_str(cx->h,
		    nd->label)) : "?");
	}
	return o;
}

const char *
scope_command(const struct scope *sc, const struct scope_edit_ctx *cx, const struct scope_cmd *c,
    char *buf, size_t n)
{
	size_t o;

	if (n == 0)
		return buf;
	o = (size_t)snprintf(buf, n, "perfnav %s", c->sub);
	if (o >= n)
		return buf;
	if (c->common != NULL && c->common[0] && o + 1 < n)
		o += (size_t)snprintf(buf + o, n - o, " %s", c->common);
	o = o < n ? o : n - 1;
	if (hist_nevents(cx->h) > 1 && sc->ev < hist_nevents(cx->h) && strcmp(c->sub, "tree") != 0 &&
	    !c->no_event) {
		const char *ev = hist_str(cx->h, hist_event(cx->h, sc->ev)->name);

		if (strcmp(ev, OFFCPU_EVENT_NAME) == 0)	/* the browser's off-CPU event */
			o = put_word(buf, n, o, "--off-cpu");
		else
			o = put_opt(buf, n, o, "--event", ev);
	}
	if (c->sort != NULL)
		o = put_opt(buf, n, o, "--sort", c->sort);
	if (c->no_children)
		o = put_word(buf, n, o, "--no-children");
	if (c->addresses)
		o = put_word(buf, n, o, "--addresses");
	if (c->mem_mode)
		o = put_word(buf, n, o, "--mem-mode");
	if (c->latency)
		o = put_word(buf, n, o, "--latency");
	o = put_time(buf, n, o, sc, c->start);
	o = put_start(buf, n, o, sc, c->start);
	o = put_zoom(buf, n, o, sc, cx, c->start);
	o = put_word(buf, n, o, c->file);
	if (c->file2 != NULL)
		o = put_word(buf, n, o, c->file2);
	(void)o;
	return buf;
}
