/*
 * Criterion tests of the panes over the fixtures, without a terminal:
 * events, processes, header, hex and help, every pane on every fixture,
 * and hostile names drawn escaped.
 */
#include "config.h"

#include <criterion/criterion.h>
#include <inttypes.h>
#include <locale.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <wchar.h>

#include <curses.h>

#include "core/core.h"
#include "symbolize/filter.h"
#include "symbolize/hist.h"
#include "symbolize/symbolizer.h"
#include "symbolize/tasks.h"
#include "tests/helpers.h"
#include "tests/tui_helpers.h"
#include "tui/cmd/cmd.h"
#include "tui/keys.h"
#include "tui/nav.h"
#include "tui/pane.h"
#include "tui/scope.h"
#include "tui/symbols.h"
#include "tui/theme.h"
#include "tui/widget.h"
static const char *const maps[] = { "hot", "procs", "events", "header", "hex", "topdown", "bottomup", "flame", "help", "annotate", NULL };

/* ---- panes over fixtures ---- */

Test(panes, events_rows_and_filters)
{
	struct session *s = open_fixture("plain.data");
	const struct type_counts *cnt = session_counts(s);
	const struct rec_index *ix = session_index(s);
	struct pane p;
	char err[200];

	cr_assert_eq(pane_create(&p, PANE_EVENTS, s, NULL), 0);
	cr_assert_eq(widget_count(&p.w), ix->n);
	cr_assert(row_has(&p, 0, "PERF_RECORD_ID_INDEX"));
	cr_assert_eq(widget_set_filter(&p.w, "type:SAMPLE", err, sizeof err), 0);
	cr_assert_eq(widget_count(&p.w), cnt->by_type[PF_REC_SAMPLE]);
	cr_assert(row_has(&p, widget_cursor_row(&p.w), "PERF_RECORD_SAMPLE"));
	cr_assert_eq(widget_set_filter(&p.w, "type:perf_record_comm,EXIT", err, sizeof err), 0);
	cr_assert_eq(widget_count(&p.w), cnt->by_type[PF_REC_COMM] +
	    cnt->by_type[PF_REC_EXIT]);
	cr_assert_lt(widget_set_filter(&p.w, "type:NOPE", err, sizeof err), 0);
	cr_assert_not_null(strstr(err, "type:NOPE"));
	cr_assert_lt(widget_set_filter(&p.w, "pid:x", err, sizeof err), 0);
	cr_assert_eq(widget_set_filter(&p.w, "exec", err, sizeof err), 0);
	cr_assert_geq(widget_count(&p.w), 1, "free words match the summary");
	widget_set_filter(&p.w, "", err, sizeof err);
	/* time range: from the first sample on */
	{
		char f[80], t[32];
		size_t n;

		widget_set_filter(&p.w, "type:SAMPLE", err, sizeof err);
		text_time_us(t, sizeof t, index_ent(session_index(p.s), widget_cursor_row(&p.w))->time);
		widget_set_filter(&p.w, "", err, sizeof err);
		snprintf(f, sizeof f, "time:%s-", t);
		cr_assert_eq(widget_set_filter(&p.w, f, err, sizeof err), 0, "%s", err);
		n = widget_count(&p.w);
		cr_assert_gt(n, 0);
		cr_assert_lt(n, ix->n);
	}
	/* x: the hex view of the selection */
	widget_set_filter(&p.w, "", err, sizeof err);
	widget_home(&p.w);
	cr_assert_eq(p.ops->key(&p, ACT_HEX), PANE_HANDLED | PANE_PUSH);
	cr_assert_eq(p.push.pane, PANE_HEX);
	cr_assert_eq(p.push.target, NAV_T_RECORD);
	cr_assert_eq(p.push.arg, 0x108, "plain.data's first record");
	pane_destroy(&p);
	session_close(s);
}

/*
 * A sample's row starts with where its ip is as perf script prints it: an
 * ip at a symbol's first byte is "+0x0" (dir.data's first sample is at
 * _dl_map_object+0x0), never "+0".
 */
Test(panes, events_sample_where_is_perf_scripts)
{
	struct session *s = open_fixture("dir.data");
	struct symbols *sy = fixture_symbols(s);
	struct row *r = malloc(sizeof *r);
	struct nav_view v;
	struct pane p;
	size_t seen = 0;

	symbols_run(sy);
	cr_assert_eq(pane_create_sym(&p, PANE_EVENTS, s, NULL, sy), 0);
	nav_view_init(&v, PANE_EVENTS);
	p.ops->enter(&p, &v);
	for (size_t i = 0; i < widget_count(&p.w); i++) {
		const char *rec;

		row_reset(r);
		p.ops->row(&p, widget_source(&p.w, i), r);
		rec = r->col[4] ? r->col[4] : "";
		if (strncmp(rec, "_dl_map_object+", 15) != 0)
			continue;
		cr_expect(strncmp(rec, "_dl_map_object+0x", 17) == 0, "an offset in hex: %s", rec);
		seen += strncmp(rec, "_dl_map_object+0x0 (", 20) == 0;
	}
	cr_expect_eq(seen, 1, "one sample at _dl_map_object+0x0, as perfnav script -G prints it");
	free(r);
	pane_destroy(&p);
	symbols_free(sy);
	session_close(s);
}

Test(panes, events_sort_by_cpu_keeps_count)
{
	struct session *s = open_fixture("tracepoint.data");
	const struct rec_index *ix = session_index(s);
	struct pane p;

	cr_assert_eq(pane_create(&p, PANE_EVENTS, s, NULL), 0);
	widget_sort(&p.w, 1, false);
	cr_assert_eq(widget_count(&p.w), ix->n);
	for (size_t i = 1; i < widget_count(&p.w); i++)
		cr_assert_leq((uint32_t)session_ent_who(s, widget_source(&p.w, i - 1)).cpu,
		    (uint32_t)session_ent_who(s, widget_source(&p.w, i)).cpu);
	pane_destroy(&p);
	session_close(s);
}

/* What perfnav script -F ip,sym,symoff,dso prints for each sample: its frame lines. */
struct script_stacks {
	char	*buf;
	char	**line;		/* frame lines without their tab, in order */
	size_t	 nline;
	size_t	*first, *count;	/* per sample */
	size_t	 n;
};

static void
script_stacks(struct session *s, struct script_stacks *st)
{
	struct sym_opts so;
	struct symbolizer *z;
	size_t len = 0, cap = 0, capl = 0;
	bool open = false;
	char *l;
	FILE *fp;

	memset(st, 0, sizeof *st);
	memset(&so, 0, sizeof so);
	so.buildid_dir = TEST_DATA "/buildid";
	so.kallsyms = "/dev/null";
	z = symbolizer_new(s, &so);
	fp = open_memstream(&st->buf, &len);
	cr_assert_not_null(fp);
	cr_assert_eq(script_print(s, z, "ip,sym,symoff,dso", true, 0, fp), 0);
	fclose(fp);
	symbolizer_free(z);
	/* a sample with a callchain: an empty line, its frames after a tab, an empty line;
	 * without: one line */
	for (char *p = st->buf; (l = strsep(&p, "\n")) != NULL && (p != NULL || *l);) {
		if (l[0] == '\t') {
			cr_assert(open, "a frame outside a sample: %s", l);
			l++;
		} else if (l[0] == '\0' && open) {
			open = false;
			continue;
		}
		if (l[0] == '\0' || !open) {
			if (st->n == cap) {
				cap = cap ? 2 * cap : 64;
				st->first = realloc(st->first, cap * sizeof *st->first);
				st->count = realloc(st->count, cap * sizeof *st->count);
			}
			st->first[st->n] = st->nline;
			st->count[st->n++] = 0;
			open = l[0] == '\0';
			if (open)
				continue;
		}
		if (st->nline == capl) {
			capl = capl ? 2 * capl : 256;
			st->line = realloc(st->line, capl * sizeof *st->line);
		}
		st->line[st->nline++] = l;
		st->count[st->n - 1]++;
	}
	cr_assert_not(open, "the last sample's frames end");
}

static void
script_stacks_free(struct script_stacks *st)
{
	free(st->buf);
	free(st->line);
	free(st->first);
	free(st->count);
}

static bool
is_sample(struct session *s, size_t pos)
{
	struct rec r;

	return session_rec(s, ent_loc(index_ent(session_index(s), pos)), &r) == 0 &&
	    r.type == PF_REC_SAMPLE;
}

/* The row at visible position i, its Time (the address) and Record columns, is line. */
static void
assert_record(struct pane *p, size_t i, const char *line, const char *what)
{
	struct row *r = malloc(sizeof *r);
	char buf[ROW_BUF];

	row_reset(r);
	p->ops->row(p, widget_source(&p->w, i), r);
	snprintf(buf, sizeof buf, "%s %s", r->col[0] ? r->col[0] : "", r->col[4] ? r->col[4] : "");
	/* the address's padding aside (perf pads a sample's own ip one column more) */
	cr_assert_str_eq(buf + strspn(buf, " "), line + strspn(line, " "), "%s row %zu", what, i);
	free(r);
}

/* The key of the row at visible position i. */
static uint64_t
key_of(struct pane *p, size_t i)
{
	struct row *r = malloc(sizeof *r);
	uint64_t k;

	row_reset(r);
	p->ops->row(p, widget_source(&p->w, i), r);
	k = r->have_key ? r->key : widget_source(&p->w, i);
	free(r);
	return k;
}

#define FRAME_KEY	(UINT64_C(1) << 62)

/*
 * + on each sample in turn: its frames, as perfnav script prints them
 * (address, symbol+offset, DSO, inline levels), after it; all of them open
 * at once, sorted, filtered; c and C close them.
 */

Test(panes, events_sample_stacks_are_perf_scripts, .timeout = 60)
{
	static const char *const fx[] = { "fp.data", "dwarf.data", "zstd.data", "fork.data",
		"pipe.data", "dir.data", "plain.data" };

	for (size_t f = 0; f < sizeof fx / sizeof *fx; f++) {
		struct session *s = open_fixture(fx[f]);
		const struct rec_index *ix = session_index(s);
		struct symbols *sy = fixture_symbols(s);
		struct script_stacks st;
		struct nav_view v;
		struct pane p;
		size_t k = 0, cur = SIZE_MAX, fr = 0, shown = 0;

		script_stacks(s, &st);
		cr_assert_gt(st.n, 0, "%s", fx[f]);
		cr_assert_eq(pane_create_sym(&p, PANE_EVENTS, s, NULL, sy), 0);
		nav_view_init(&v, PANE_EVENTS);
		p.ops->enter(&p, &v);
		for (size_t pos = 0; pos < ix->n && !sy->done; pos++) {
			if (!is_sample(s, pos))
				continue;
			cr_assert(widget_goto_key(&p.w, pos));
			cr_assert_eq(p.ops->key(&p, ACT_TOGGLE), PANE_HANDLED | PANE_MSG,
			    "not before symbols are resolved");
			cr_assert_not_null(strstr(p.msg, "when symbols are resolved"), "%s", p.msg);
			break;
		}
		symbols_run(sy);
		for (size_t pos = 0; pos < ix->n; pos++) {
			size_t i;

			if (!is_sample(s, pos))
				continue;
			cr_assert_lt(k, st.n, "%s: as many samples as perfnav script", fx[f]);
			cr_assert(widget_goto_key(&p.w, pos));
			cr_assert_eq(p.ops->key(&p, ACT_TOGGLE), PANE_HANDLED);
			i = p.w.cursor;
			cr_assert_eq(key_of(&p, i), pos, "%s: the cursor stays on the sample", fx[f]);
			for (size_t j = 0; j < st.count[k]; j++)
				assert_record(&p, i + 1 + j, st.line[st.first[k] + j], fx[f]);
			cr_assert(i + 1 + st.count[k] == widget_count(&p.w) ||
			    !(key_of(&p, i + 1 + st.count[k]) & FRAME_KEY), "%s: no more frames", fx[f]);
			shown += st.count[k];
			k++;
		}
		cr_assert_eq(k, st.n, "%s", fx[f]);
		cr_assert_eq(widget_count(&p.w), ix->n + shown);
		/* every stack open: each frame where it belongs */
		k = 0;
		for (size_t i = 0; i < widget_count(&p.w); i++) {
			uint64_t key = key_of(&p, i);

			if (key & FRAME_KEY) {
				cr_assert_lt(fr, st.count[cur], "%s row %zu", fx[f], i);
				assert_record(&p, i, st.line[st.first[cur] + fr++], fx[f]);
			} else if (is_sample(s, key)) {
				cr_assert(cur == SIZE_MAX || fr == st.count[cur]);
				cur = k++;
				fr = 0;
			}
		}
		/* sorted by CPU, descending: each sample keeps its frames after it, in order */
		widget_sort(&p.w, 1, true);
		for (size_t i = 1; i < widget_count(&p.w); i++) {
			uint64_t key = key_of(&p, i), prev = key_of(&p, i - 1);

			if (!(key & FRAME_KEY))
				continue;
			if ((key & 0xffff) == 0)
				cr_assert_eq(prev, (key & ~FRAME_KEY) >> 16, "%s row %zu", fx[f], i);
			else
				cr_assert_eq(prev, key - 1, "%s row %zu", fx[f], i);
		}
		widget_sort(&p.w, -1, false);
		/* a filter keeps a sample's frames with it */
		cr_assert_eq(widget_set_filter(&p.w, "type:SAMPLE", NULL, 0), 0);
		cr_assert_eq(widget_count(&p.w), st.n + shown, "%s", fx[f]);
		/* c on a frame closes its sample's stack, the cursor on the sample */
		widget_home(&p.w);
		widget_move(&p.w, 1);
		cr_assert(key_of(&p, 1) & FRAME_KEY);
		cr_assert_eq(p.ops->key(&p, ACT_COLLAPSE), PANE_HANDLED);
		cr_assert_eq(widget_count(&p.w), st.n + shown - st.count[0]);
		cr_assert_eq(p.w.cursor, 0);
		widget_set_filter(&p.w, "", NULL, 0);
		/* x on a frame: its sample's record */
		for (k = 0; k < widget_count(&p.w) && !(key_of(&p, k) & FRAME_KEY); k++)
			;
		cr_assert_lt(k, widget_count(&p.w));
		widget_home(&p.w);
		widget_move(&p.w, (long)k);
		cr_assert_eq(p.ops->key(&p, ACT_HEX), PANE_HANDLED | PANE_PUSH);
		cr_assert_eq(p.push.target, NAV_T_RECORD);
		cr_assert_eq(p.push.arg, ent_loc(index_ent(ix, (key_of(&p, k) & ~FRAME_KEY) >> 16)), "%s",
		    fx[f]);
		p.ops->key(&p, ACT_COLLAPSE_ALL);
		cr_assert_eq(widget_count(&p.w), ix->n, "C: every stack closed");
		pane_destroy(&p);
		script_stacks_free(&st);
		symbols_free(sy);
		session_close(s);
	}
}

Test(panes, procs_threads_and_drill)
{
	struct session *s = open_fixture("pipe.data");
	struct pane p;
	struct nav_view v;
	int threads = 0;

	cr_assert_eq(pane_create(&p, PANE_PROCS, s, NULL), 0);
	widget_expand_all(&p.w, true);
	for (size_t i = 0; i < widget_count(&p.w); i++)
		if (p.w.depth[widget_source(&p.w, i)] == 1)
			threads++;
	cr_assert_eq(threads, 4, "main + 3 worker threads");
	widget_home(&p.w);
	cr_assert(row_has(&p, widget_cursor_row(&p.w), "threads"));
	/* Enter on the process: its own view */
	cr_assert_eq(p.ops->key(&p, ACT_ENTER), PANE_HANDLED | PANE_PUSH);
	cr_assert_eq(p.push.pane, PANE_PROCS);
	cr_assert_eq(p.push.target, NAV_T_PID);
	v = p.push;
	p.ops->enter(&p, &v);
	cr_assert_eq(widget_count(&p.w), 5, "the process and its 4 threads, expanded");
	widget_move(&p.w, 2);
	cr_assert_eq(p.ops->key(&p, ACT_EVENTS), PANE_HANDLED | PANE_PUSH);
	cr_assert_eq(p.push.pane, PANE_EVENTS);
	cr_assert_eq(strncmp(p.push.filter, "tid:", 4), 0, "%s", p.push.filter);
	/* Enter on a thread: the scope zoomed into it, in the hot functions */
	cr_assert_eq(p.ops->key(&p, ACT_ENTER), PANE_HANDLED | PANE_PUSH);
	cr_assert_eq(p.push.pane, PANE_HOT);
	cr_assert_eq(p.push.target, NAV_T_ZOOM);
	cr_assert_eq(p.push.arg, SZ_TID);
	/* back to the whole tree */
	nav_view_init(&v, PANE_PROCS);
	p.ops->enter(&p, &v);
	cr_assert_geq(widget_count(&p.w), 1);
	pane_destroy(&p);
	session_close(s);
}

Test(panes, procs_fork_tree)
{
	struct session *s = open_fixture("fork.data");
	struct pane p;
	size_t roots = 0, kids = 0;

	cr_assert_eq(pane_create(&p, PANE_PROCS, s, NULL), 0);
	widget_expand_all(&p.w, true);
	for (size_t i = 0; i < widget_count(&p.w); i++) {
		size_t src = widget_source(&p.w, i);

		if (p.w.depth[src] == 0)
			roots++;
		else if (row_has(&p, src, "forkexec"))
			kids++;
	}
	cr_assert_eq(roots, 1, "one root process");
	cr_assert_geq(kids, 2, "the forked and the exec'd children under it");
	pane_destroy(&p);
	session_close(s);
}

/* The rows the processes pane should show for proc pi of the model, depth-first. */
static void
expect_proc_rows(const struct session *s, const struct tasks *tk, uint32_t pi, unsigned depth,
    char (*ids)[32], unsigned *depths, uint64_t *samples, size_t *n)
{
	const struct thread_table *tt = session_threads(s);
	const struct task_proc *pc = &tk->procs[pi];

	snprintf(ids[*n], 32, "%" PRId32, pc->pid);
	depths[*n] = depth;
	samples[(*n)++] = pc->samples;
	if (pc->nthreads > 1 || tt->v[pc->leader].tid != pc->pid) {
		for (size_t k = 0; k < pc->nthreads; k++) {
			const struct pn_thread *th = &tt->v[pc->threads[k]];

			snprintf(ids[*n], 32, "%" PRId32 "/%" PRId32, th->pid, th->tid);
			depths[*n] = depth + 1;
			samples[(*n)++] = th->samples;
		}
	}
	for (size_t k = 0; k < pc->nkids; k++)
		expect_proc_rows(s, tk, pc->kids[k], depth + 1, ids, depths, samples, n);
}

/* The processes pane draws the process tree of symbolize/tasks.c, row for row. */
Test(panes, procs_rows_are_the_tasks_model)
{
	static const char *const names[] = { "fork.data", "pipe.data", "multi.data", "dir.data" };

	for (size_t f = 0; f < sizeof names / sizeof *names; f++) {
		struct session *s = open_fixture(names[f]);
		struct tasks *tk = tasks_new(s);
		size_t cap = 2 * session_threads(s)->n + 1, n = 0;
		char(*ids)[32] = calloc(cap, sizeof *ids);
		unsigned *depths = calloc(cap, sizeof *depths);
		uint64_t *samples = calloc(cap, sizeof *samples);
		struct pane p;

		for (size_t i = 0; i < tk->nroots; i++)
			expect_proc_rows(s, tk, tk->roots[i], 0, ids, depths, samples, &n);
		cr_assert_eq(pane_create(&p, PANE_PROCS, s, NULL), 0);
		cr_assert_eq(p.ops->nrows(&p), n, "%s", names[f]);
		for (size_t i = 0; i < n; i++) {
			struct row r;
			char num[32];

			row_reset(&r);
			p.ops->row(&p, i, &r);
			snprintf(num, sizeof num, "%" PRIu64, samples[i]);
			cr_assert_str_eq(r.col[0], ids[i], "%s row %zu", names[f], i);
			cr_assert_eq(r.depth, depths[i]);
			cr_assert_str_eq(r.col[2], num, "%s row %zu samples", names[f], i);
		}
		pane_destroy(&p);
		tasks_free(tk);
		free(ids);
		free(depths);
		free(samples);
		session_close(s);
	}
}

Test(panes, header_tree)
{
	struct session *s = open_fixture("plain.data");
	struct pane p;
	bool host = false, attr = false;

	cr_assert_eq(pane_create(&p, PANE_HEADER, s, NULL), 0);
	for (size_t i = 0; i < widget_count(&p.w); i++) {
		size_t src = widget_source(&p.w, i);

		if (row_has(&p, src, "HOSTNAME") && row_has(&p, src, "vm"))
			host = true;
	}
	cr_assert(host, "HOSTNAME vm on the first level");
	widget_expand_all(&p.w, true);
	for (size_t i = 0; i < widget_count(&p.w); i++)
		if (row_has(&p, widget_source(&p.w, i), "IP|TID|TIME|PERIOD"))
			attr = true;
	cr_assert(attr, "sample_type bits spelled out");
	/* below each section, the rows perfnav header prints for it */
	{
		struct row r;
		size_t src, nrows = p.ops->nrows(&p);
		bool online = false, cache = false, bids = false;

		for (src = 0; src < nrows; src++) {
			row_reset(&r);
			p.ops->row(&p, src, &r);
			if (r.depth == 1 && strcmp(r.col[0], "NRCPUS") == 0)
				cr_assert_str_eq(r.col[4], "2 lines", "two lines beside NRCPUS");
			if (r.depth == 2 && strcmp(r.col[0], "nrcpus online") == 0)
				online |= r.col[4] != NULL && strcmp(r.col[4], "2") == 0;
			/* "#  L1 Data ...": indented under "CPU cache info:" */
			if (r.depth == 3 && strncmp(r.col[0], "L1 Data ", 8) == 0)
				cache |= r.col[4] != NULL && strcmp(r.col[4], "     48K [0]") == 0;
			if (r.depth == 2 && strcmp(r.col[0], "build ids") == 0)
				bids |= r.col[4] != NULL && strcmp(r.col[4], "3") == 0;
		}
		cr_assert(online, "nrcpus online 2, under NRCPUS");
		cr_assert(cache, "the L1 data cache under CPU cache info:");
		cr_assert(bids, "perfnav's count of build ids under BUILD_ID");
	}
	/* x on HOSTNAME: its bytes */
	cr_assert(widget_search(&p.w, "HOSTNAME", 1, false));
	cr_assert_eq(p.ops->key(&p, ACT_HEX), PANE_HANDLED | PANE_PUSH);
	cr_assert_eq(p.push.target, NAV_T_BYTES);
	cr_assert_eq(p.push.arg, session_features(s)->sec[PF_FEAT_HOSTNAME].offset);
	pane_destroy(&p);
	session_close(s);
}

/* ---- the header pane shows the rows perfnav header prints ---- */

/* What `perfnav header TEST_DATA/name` writes, its standard output caught. */
static char *
header_output(const char *name)
{
	char path[4096], *out;
	char *argv[] = { "header", path, NULL };
	FILE *tmp = tmpfile();
	long n;
	int fd, rc;

	cr_assert_not_null(tmp);
	snprintf(path, sizeof path, "%s/%s", TEST_DATA, name);
	fflush(stdout);
	fd = dup(1);
	cr_assert_geq(fd, 0);
	dup2(fileno(tmp), 1);
	rc = cmd_header(2, argv);
	fflush(stdout);
	dup2(fd, 1);
	close(fd);
	cr_assert_eq(rc, 0, "perfnav header %s", name);
	n = ftell(tmp);
	cr_assert_gt(n, 0);
	out = calloc(1, (size_t)n + 1);
	rewind(tmp);
	cr_assert_eq(fread(out, 1, (size_t)n, tmp), (size_t)n);
	fclose(tmp);
	return out;
}

/* Whether line is what perfnav header prints for a row shown as name and
 * value: "# ", perf's indent, name, its separator, value. */
static bool
line_shows(const char *line, const char *name, const char *value)
{
	static const char *const leads[] = { "", " ", "  ", "    ", "\t" };
	static const char *const seps[] = { " : ", ": ", "  : ", "    : ", " " };

	if (strncmp(line, "# ", 2) != 0)
		return false;
	for (size_t l = 0; l < sizeof leads / sizeof leads[0]; l++) {
		const char *t = line + 2;

		if (strncmp(t, leads[l], strlen(leads[l])) != 0)
			continue;
		t += strlen(leads[l]);
		if (strncmp(t, name, strlen(name)) != 0)
			continue;
		t += strlen(name);
		if (value == NULL && *t == '\0')
			return true;
		for (size_t k = 0; value != NULL && k < sizeof seps / sizeof seps[0]; k++)
			if (strncmp(t, seps[k], strlen(seps[k])) == 0 &&
			    strcmp(t + strlen(seps[k]), value) == 0)
				return true;
	}
	return false;
}

struct shown {
	char	*name, *value;
	bool	 used;
};

/* The rows under the feature sections (not their "problem" rows), from the
 * pane's model, every row whether expanded or not. */
static size_t
pane_feature_rows(struct pane *p, struct shown *v, size_t max)
{
	size_t n = 0, total = p->ops->nrows(p);
	bool in = false;

	for (size_t i = 0; i < total; i++) {
		struct row r;

		row_reset(&r);
		p->ops->row(p, i, &r);
		if (r.depth == 0)
			in = r.col[0] != NULL && strcmp(r.col[0], "Feature sections") == 0;
		if (!in || r.depth < 2 || strcmp(r.col[0], "problem") == 0)
			continue;
		cr_assert_lt(n, max);
		v[n].name = strdup(r.col[0]);
		v[n].value = r.col[4] != NULL ? strdup(r.col[4]) : NULL;
		v[n].used = false;
		n++;
	}
	return n;
}

/* A build id under perfnav's "build ids: N": "#     build id HEX FILE". */
static bool
is_build_id_line(const char *line)
{
	return strncmp(line, "#     build id ", 15) == 0;
}

/* Every line perfnav header prints for a feature section, perf's in order
 * and perfnav's own counts, is a row of the header pane, and the pane has
 * no other. */
static void
header_rows_match(const char *fixture)
{
	struct session *s = open_fixture(fixture);
	char *out = header_output(fixture), *save = NULL;
	struct shown v[512];
	struct pane p;
	size_t n, next = 0, perf = 0, notes = 0;
	enum { BEFORE, PERF, TABLE, DONE } at = BEFORE;

	cr_assert_eq(pane_create(&p, PANE_HEADER, s, NULL), 0);
	n = pane_feature_rows(&p, v, sizeof v / sizeof v[0]);
	cr_assert_gt(n, 3, "%s: the pane shows feature rows", fixture);
	for (char *line = strtok_r(out, "\n", &save); line != NULL;
	    line = strtok_r(NULL, "\n", &save)) {
		if (at == BEFORE && strncmp(line, "# feat offset", 13) == 0) {
			at = PERF;
		} else if (at == PERF && strncmp(line, "# missing features:", 19) == 0) {
			at = DONE;
		} else if (at == PERF) {
			/* perf's lines: the pane's rows in the same order (perfnav's
			 * own come after a section's, skipped here) */
			while (next < n && !line_shows(line, v[next].name, v[next].value))
				next++;
			cr_assert_lt(next, n, "%s: line \"%s\" is not in the pane (in order)", fixture,
			    line);
			v[next++].used = true;
			perf++;
		} else if (strncmp(line, "#   bit  feature", 16) == 0) {
			at = TABLE;
		} else if (at == TABLE && strncmp(line, "#   ", 4) == 0 &&
		    ((line[4] >= 'a' && line[4] <= 'z') || is_build_id_line(line))) {
			bool found = false;

			for (size_t i = 0; i < n && !found; i++)
				if (!v[i].used && line_shows(line, v[i].name, v[i].value))
					found = v[i].used = true;
			cr_assert(found, "%s: perfnav's line \"%s\" is not in the pane", fixture, line);
			notes++;
		}
	}
	cr_assert_eq(at, TABLE, "%s: the output had its parts", fixture);
	cr_assert_gt(perf, 3, "%s: perf's lines compared", fixture);
	cr_assert_eq(perf + notes, n, "%s: the pane shows %zu rows, perfnav header %zu lines",
	    fixture, n, perf + notes);
	for (size_t i = 0; i < n; i++) {
		free(v[i].name);
		free(v[i].value);
	}
	free(out);
	pane_destroy(&p);
	session_close(s);
}

Test(panes, header_rows_are_perfnav_header_lines)
{
	static const char *const fixtures[] = {
		"plain.data", "group.data", "tracepoint.data", "multi.data", "stat.data",
		"zstd.data",
	};

	for (size_t i = 0; i < sizeof fixtures / sizeof fixtures[0]; i++)
		header_rows_match(fixtures[i]);
}

Test(panes, hex_record_and_back)
{
	struct session *s = open_fixture("plain.data");
	struct pane p;
	struct nav_view v;

	cr_assert_eq(pane_create(&p, PANE_HEX, s, NULL), 0);
	nav_view_init(&v, PANE_HEX);
	v.target = NAV_T_RECORD;
	v.arg = 0x108;
	p.ops->enter(&p, &v);
	cr_assert_eq(p.ops->key(&p, ACT_DOWN), PANE_HANDLED | PANE_REDRAW);
	p.ops->save(&p, &v);
	cr_assert_eq(v.cursor, 1, "the next field");
	cr_assert_eq(p.ops->key(&p, ACT_RECORD), PANE_HANDLED | PANE_PUSH);
	cr_assert_eq(p.push.pane, PANE_EVENTS);
	cr_assert_eq(p.push.cursor, 0, "the first record of the index");
	pane_destroy(&p);
	session_close(s);
}

static void
count_field(void *arg, const struct field *f)
{
	(void)f;
	(*(size_t *)arg)++;
}

/* A tracepoint sample: the events pane shows its payload as perf script
 * prints it; the hex view names the payload's fields (raw.data becomes
 * the 11 fields of sched_switch's format and raw.rest). */
Test(panes, tracepoint_payload_in_events_and_hex)
{
	struct session *s = open_fixture("tracepoint.data");
	const struct rec_index *ix = session_index(s);
	struct pane p;
	struct nav_view v;
	struct rec rc;
	size_t i, nf = 0;
	char err[200];

	cr_assert_eq(pane_create(&p, PANE_EVENTS, s, NULL), 0);
	cr_assert_eq(widget_set_filter(&p.w, "prev_pid=28375 next_comm=rcu_preempt", err,
	    sizeof err), 0, "%s", err);
	cr_assert_geq(widget_count(&p.w), 1, "plain words find the payload's fields");
	cr_assert(row_has(&p, widget_source(&p.w, 0), "sched:sched_switch: prev_comm=threads "
	    "prev_pid=28375 prev_prio=120 prev_state=R ==> next_comm=rcu_preempt next_pid=15 "
	    "next_prio=120"));
	i = widget_source(&p.w, 0);
	pane_destroy(&p);
	cr_assert_eq(session_rec(s, ent_loc(index_ent(ix, i)), &rc), 0);
	fields_describe(s, &rc, count_field, &nf);
	cr_assert_eq(pane_create(&p, PANE_HEX, s, NULL), 0);
	nav_view_init(&v, PANE_HEX);
	v.target = NAV_T_RECORD;
	v.arg = ent_loc(index_ent(ix, i));
	p.ops->enter(&p, &v);
	cr_assert_eq(p.ops->key(&p, ACT_BOTTOM), PANE_HANDLED | PANE_REDRAW);
	p.ops->save(&p, &v);
	cr_assert_eq(v.cursor + 1, nf - 1 + 11 + 1, "raw.data -> 11 fields + raw.rest");
	pane_destroy(&p);
	session_close(s);
}

Test(panes, hex_compressed_record)
{
	struct session *s = open_fixture("zstd.data");
	const struct rec_index *ix = session_index(s);
	struct pane p;
	struct nav_view v;
	size_t i;

	for (i = 0; i < ix->n; i++)
		if (ent_loc(index_ent(ix, i)) >= SESSION_ZLOC)
			break;
	cr_assert_lt(i, ix->n, "zstd.data has decompressed records");
	cr_assert_eq(pane_create(&p, PANE_HEX, s, NULL), 0);
	nav_view_init(&v, PANE_HEX);
	v.target = NAV_T_RECORD;
	v.arg = ent_loc(index_ent(ix, i));
	p.ops->enter(&p, &v);
	p.ops->save(&p, &v);
	cr_assert_eq(v.target, NAV_T_RECORD);
	pane_destroy(&p);
	session_close(s);
}

/* The flame scope's tab does not read as "the scope" of the analysis panes. */
Test(panes, fscope_tab_is_the_heat_map)
{
	const struct pane_ops *o = pane_ops_of(PANE_FSCOPE);

	cr_assert_str_eq(o->title, "Heat map");
	cr_assert(o->short_title == NULL || strstr(o->short_title, "Scope") == NULL);
}

Test(panes, help_generated)
{
	struct keys k;
	struct pane p;
	bool quit = false;

	keys_init(&k, maps);
	pane_keys_defaults(&k, NULL, NULL);
	cr_assert_eq(pane_create(&p, PANE_HELP, NULL, &k), 0);
	cr_assert_gt(widget_count(&p.w), 20);
	for (size_t i = 0; i < widget_count(&p.w); i++)
		if (row_has(&p, widget_source(&p.w, i), "quit perfnav"))
			quit = true;
	cr_assert(quit);
	cr_assert_neq(find_text(&p, "next-hot"), WIDGET_NONE, "annotate's n is in the help");
	cr_assert_neq(find_text(&p, "prev-hot"), WIDGET_NONE, "and its N");
	pane_destroy(&p);
	keys_free(&k);
}

/* ---- every pane on every fixture ---- */

static const char *const pane_titles[PANE_NTABS] = {
	[PANE_HOT] = "Hot functions",
	[PANE_PROCS] = "Processes",
	[PANE_EVENTS] = "Events",
	[PANE_HEADER] = "Header",
	[PANE_HEX] = "Hex",
	[PANE_TOPDOWN] = "Top-down",
	[PANE_BOTTOMUP] = "Bottom-up",
	[PANE_FLAME] = "Flame graph",
	[PANE_TIMELINE] = "Timeline",
	[PANE_FSCOPE] = "Heat map",
	[PANE_SUMMARY] = "Summary",
};

static void every_time_pane(struct pane *p, struct session *s, const char *fx);

/* Column of list pane p titled title (asserted to exist). */
static int
col_titled(const struct pane *p, const char *title)
{
	for (int c = 0; c < p->ncols; c++)
		if (strcmp(p->cols[c].title, title) == 0)
			return c;
	cr_assert_fail("%s: no column \"%s\"", p->ops->name, title);
	return -1;
}

/* Texts of source row src of list pane p, in r. */
static void
row_of(struct pane *p, size_t src, struct row *r)
{
	row_reset(r);
	p->ops->row(p, src, r);
}

/* Events: one row per record of the index, each with its type and ids. */
static void
every_events(struct pane *p, struct session *s, const char *fx, struct row *r)
{
	const struct rec_index *ix = session_index(s);
	int rec = col_titled(p, "Record"), ids = col_titled(p, "PID/TID");
	size_t n = ix->n, pick[3] = { 0, n / 2, n - 1 };

	cr_assert_gt(n, 0, "%s: records", fx);
	cr_assert_eq(widget_count(&p->w), n, "%s: one row per record", fx);
	for (int k = 0; k < 3; k++) {
		const struct rec_ent *e = index_ent(ix, pick[k]);
		struct rec rc;
		char want[64], tn[48];

		cr_assert_eq(session_rec(s, ent_loc(e), &rc), 0);
		text_record_type(tn, sizeof tn, rc.type);
		snprintf(want, sizeof want, "PERF_RECORD_%s", tn);
		row_of(p, pick[k], r);
		cr_assert_not_null(strstr(r->col[rec], want), "%s: row %zu: \"%s\", want %s", fx,
		    pick[k], r->col[rec], want);
		struct ent_who w = session_ent_who(s, pick[k]);

		if (w.pid >= 0 && w.tid >= 0) {
			snprintf(want, sizeof want, "%d/%d", (int)w.pid, (int)w.tid);
			cr_assert_str_eq(r->col[ids], want, "%s: row %zu", fx, pick[k]);
		}
	}
}

/* Header: the file, its attrs and its feature sections on the first level. */
static void
every_header(struct pane *p, struct session *s, const char *fx, struct row *r)
{
	int item = col_titled(p, "Item"), value = col_titled(p, "Value");
	bool file = false, attrs = false, feats = false;
	char nattrs[32];

	snprintf(nattrs, sizeof nattrs, "%zu", session_attrs(s)->n);
	cr_assert_gt(widget_count(&p->w), 3, "%s: header rows", fx);
	for (size_t i = 0; i < widget_count(&p->w); i++) {
		size_t src = widget_source(&p->w, i);

		if (p->w.depth[src] != 0)
			continue;
		row_of(p, src, r);
		if (strcmp(r->col[item], "File") == 0)
			file = strstr(r->col[value], fx) != NULL;
		else if (strcmp(r->col[item], "Events (attrs)") == 0)
			attrs = strcmp(r->col[value], nattrs) == 0;
		else if (strcmp(r->col[item], "Feature sections") == 0)
			feats = strstr(r->col[value], " present") != NULL;
	}
	cr_assert(file, "%s: File row with the path", fx);
	cr_assert(attrs, "%s: Events (attrs) row with %s", fx, nattrs);
	cr_assert(feats, "%s: Feature sections row", fx);
}

/* Call trees: rows when there are samples, no share over 100 %. */
static void
every_ctree(struct pane *p, struct session *s, const char *fx, struct row *r)
{
	int ch = col_titled(p, "Children");

	cr_assert_eq(widget_count(&p->w) > 0, session_counts(s)->by_type[PF_REC_SAMPLE] > 0,
	    "%s: %s rows when there are samples", fx, p->ops->name);
	for (size_t i = 0; i < widget_count(&p->w); i++) {
		row_of(p, widget_source(&p->w, i), r);
		cr_assert_leq(strtod(r->col[ch], NULL), 100.0, "%s: %s row %zu", fx, p->ops->name, i);
	}
}

/* Processes: the process of the first sample is a first-level row. */
static void
every_procs(struct pane *p, struct session *s, const char *fx, struct row *r)
{
	const struct rec_index *ix = session_index(s);
	int id = col_titled(p, "PID/TID"), comm = col_titled(p, "Comm");
	int32_t pid = -1;
	char want[16];
	bool found = false;

	for (size_t i = 0; i < ix->n && pid < 0; i++)
		if (ent_type(index_ent(ix, i)) == PF_REC_SAMPLE)
			pid = session_ent_who(s, i).pid;
	if (pid < 0) {
		cr_assert_eq(session_counts(s)->by_type[PF_REC_SAMPLE], 0, "%s: samples without pid", fx);
		return;
	}
	cr_assert_gt(widget_count(&p->w), 0, "%s: process rows", fx);
	snprintf(want, sizeof want, "%d", (int)pid);
	for (size_t i = 0; i < widget_count(&p->w) && !found; i++) {
		size_t src = widget_source(&p->w, i);

		if (p->w.depth[src] != 0)
			continue;
		row_of(p, src, r);
		found = strcmp(r->col[id], want) == 0;
	}
	cr_assert(found, "%s: no row for pid %s", fx, want);
	cr_assert_neq(r->col[comm][0], '\0', "%s: pid %s has a comm", fx, want);
}

/*
 * Hot functions: the top row has a share in % and a symbol; the first-level
 * rows' samples (self samples) add up to some and at most all samples.
 */
static void
every_hot(struct pane *p, struct session *s, const char *fx, struct row *r)
{
	const struct type_counts *cnt = session_counts(s);
	int share = strcmp(p->cols[0].title, "Children") == 0 ? 0 : col_titled(p, "Overhead");
	int samples = col_titled(p, "Samples"), sym = col_titled(p, "Symbol");
	uint64_t sum = 0;
	const char *pct;

	if (cnt->by_type[PF_REC_SAMPLE] == 0 || strcmp(fx, "stat.data") == 0)
		return;
	cr_assert_gt(widget_count(&p->w), 0, "%s: hot rows", fx);
	row_of(p, widget_source(&p->w, 0), r);
	pct = r->col[share];
	cr_assert(strlen(pct) > 1 && pct[strlen(pct) - 1] == '%', "%s: share \"%s\"", fx, pct);
	cr_assert_gt(strtod(pct, NULL), 0, "%s: top share \"%s\"", fx, pct);
	cr_assert_neq(r->col[sym][0], '\0', "%s: top row's symbol", fx);
	for (size_t i = 0; i < widget_count(&p->w); i++) {
		size_t src = widget_source(&p->w, i);

		if (p->w.depth[src] != 0)
			continue;
		row_of(p, src, r);
		sum += strtoull(r->col[samples], NULL, 10);
	}
	cr_assert_gt(sum, 0, "%s: samples on the first level", fx);
	cr_assert_leq(sum, cnt->by_type[PF_REC_SAMPLE], "%s", fx);
}

/* Hex: nothing shown at first; then the first and last records, field by field. */
static void
every_hex(struct pane *p, struct session *s, const char *fx)
{
	const struct rec_index *ix = session_index(s);
	size_t n = ix->n, pick[2] = { 0, n - 1 };
	struct nav_view v;

	cr_assert(!p->is_list);
	nav_view_init(&v, PANE_HEX);
	p->ops->enter(p, &v);
	p->ops->save(p, &v);
	cr_assert_eq(v.target, NAV_T_NONE, "%s: no record selected", fx);
	cr_assert_eq(p->ops->key(p, ACT_RECORD), PANE_HANDLED | PANE_BACK);
	for (int k = 0; k < 2; k++) {
		uint64_t loc = ent_loc(index_ent(ix, pick[k]));
		struct rec rc;

		cr_assert_eq(session_rec(s, loc, &rc), 0);
		nav_view_init(&v, PANE_HEX);
		v.target = NAV_T_RECORD;
		v.arg = loc;
		p->ops->enter(p, &v);
		cr_assert_eq(p->ops->key(p, ACT_BOTTOM), PANE_HANDLED | PANE_REDRAW);
		p->ops->save(p, &v);
		cr_assert_eq(v.target, NAV_T_RECORD, "%s: record %zu", fx, pick[k]);
		cr_assert_eq(v.arg, loc);
		cr_assert_eq(v.arg3, rc.size, "%s: record %zu's bytes", fx, pick[k]);
		cr_assert_geq(v.cursor, 2, "%s: record %zu: type, misc, size at least", fx, pick[k]);
		cr_assert_eq(p->ops->key(p, ACT_RECORD), PANE_HANDLED | PANE_PUSH);
		cr_assert_eq(p->push.pane, PANE_EVENTS);
		cr_assert_eq(p->push.cursor, pick[k], "%s: back to its events row", fx);
	}
}

Test(panes, every_fixture_opens_in_every_pane)
{
	const char *fx[] = { "plain.data", "fp.data", "dwarf.data", "pipe.data", "dir.data",
		"zstd.data", "multi.data", "group.data", "fork.data", "tracepoint.data",
		"switch.data", "stat.data" };
	struct row *r = malloc(sizeof *r);

	for (size_t f = 0; f < sizeof fx / sizeof fx[0]; f++) {
		struct session *s = open_fixture(fx[f]);

		for (int id = 0; id < PANE_NTABS; id++) {
			struct pane p;
			struct nav_view v;

			cr_assert_eq(pane_create(&p, (enum pane_id)id, s, NULL), 0);
			cr_assert_eq(p.ops, pane_ops_of((enum pane_id)id));
			cr_assert_str_eq(p.ops->title, pane_titles[id]);
			cr_assert_eq(pane_by_name(p.ops->name), id, "%s", p.ops->name);
			if (id == PANE_HOT || id == PANE_TOPDOWN || id == PANE_BOTTOMUP) {
				/* the pane made symbols of its own: resolve them, load the rows */
				cr_assert_not_null(p.sym);
				symbols_run(p.sym);
				nav_view_init(&v, id);
				p.ops->enter(&p, &v);
			}
			if (p.is_list) {
				cr_assert_gt(p.ncols, 0);
				for (int c = 0; c < p.ncols; c++)
					cr_assert_neq(p.cols[c].title[0], '\0');
				/* every row has a text */
				for (size_t i = 0; i < widget_count(&p.w); i++) {
					row_of(&p, widget_source(&p.w, i), r);
					cr_assert(r->col[0] && r->col[0][0], "%s: %s row %zu",
					    fx[f], p.ops->name, i);
				}
			}
			if (id == PANE_HOT)
				every_hot(&p, s, fx[f], r);
			else if (id == PANE_PROCS)
				every_procs(&p, s, fx[f], r);
			else if (id == PANE_EVENTS)
				every_events(&p, s, fx[f], r);
			else if (id == PANE_HEADER)
				every_header(&p, s, fx[f], r);
			else if (id == PANE_HEX)
				every_hex(&p, s, fx[f]);
			else if (id == PANE_TOPDOWN || id == PANE_BOTTOMUP)
				every_ctree(&p, s, fx[f], r);
			else if (id == PANE_FLAME)
				cr_assert_geq(widget_count(&p.w), 1, "%s: the flame graph's top frame",
				    fx[f]);
			else if (id == PANE_TIMELINE || id == PANE_FSCOPE)
				every_time_pane(&p, s, fx[f]);
			else if (id == PANE_SUMMARY)	/* tests/test_summary.c checks its rows */
				cr_assert_geq(widget_count(&p.w), 6, "%s: the summary's sections", fx[f]);
			else
				cr_assert_fail("pane %d: no check", id);
			if (p.ops->enter && id != PANE_HEX) {
				nav_view_init(&v, id);
				p.ops->enter(&p, &v);
			}
			pane_destroy(&p);
		}
		session_close(s);
	}
	free(r);
}

/* ---- names from a hostile recording ---- */

#define HOSTILE	"\x1b]0;title\x07\x1b[2J\x1b[31m\n\t\x7f\xc2\x9b\xff"
#define HOSTILE_SHOWN	L"\\x1b]0;title\\x07\\x1b[2J\\x1b[31m\\x0a\\x09\\x7f\\xc2\\x9b\\xff"

/* Does some column of some visible row of p draw as text containing want? */
static bool
draws(struct pane *p, const wchar_t *want)
{
	struct row *r = malloc(sizeof *r);
	wchar_t buf[512];
	bool found = false;

	cr_assert_not_null(r);
	for (size_t i = 0; i < widget_count(&p->w) && !found; i++) {
		row_reset(r);
		p->ops->row(p, widget_source(&p->w, i), r);
		for (int c = 0; c < p->ncols && !found; c++) {
			text_decode(r->col[c], buf, sizeof buf / sizeof buf[0], 500, false);
			found = wcsstr(buf, want) != NULL;
			/* what is drawn holds no control character at all */
			for (wchar_t *w = buf; *w; w++)
				cr_assert(*w >= 0x20 && *w != 0x7f && !(*w >= 0x80 && *w < 0xa0),
				    "row %zu col %d draws %#x", i, c, (unsigned)*w);
		}
	}
	free(r);
	return found;
}

/* The processes and hot functions panes draw a comm, a DSO and a JIT
 * symbol holding escape sequences as the text outputs print them. */
Test(panes, hostile_names_drawn_escaped)
{
	static const struct synth_names nm = {
		.comm = "c" HOSTILE "caf\xc3\xa9",
		.dso = "/nonexistent/d" HOSTILE ".so",
		.event = "ev" HOSTILE,
		.hostname = "h" HOSTILE,
		.cmdline_arg = "a" HOSTILE,
	};
	char dir[] = "/tmp/perfnav-test-map-XXXXXX", map[64];
	struct perf_err err;
	struct sym_opts so;
	struct pdbuf b;
	struct session *s;
	struct symbols *sy;
	struct pane p;
	char *path;
	FILE *fp;

	if (setlocale(LC_ALL, "C.UTF-8") == NULL)
		cr_skip_test("no C.UTF-8 locale");
	synth_names_file(&b, &nm, 20);
	path = tmp_write("tui-escape", b.p, b.len);
	pd_free(&b);
	cr_assert_not_null(mkdtemp(dir));
	snprintf(map, sizeof map, "%s/perf-42.map", dir);
	fp = fopen(map, "w");
	cr_assert_not_null(fp);
	fprintf(fp, "%llx 100 jit_\x1b[2J\x1b[31mx\n", SYNTH_JIT_ADDR);
	fclose(fp);
	s = session_open(path, NULL, &err);
	cr_assert_not_null(s, "%s", err.msg);

	cr_assert_eq(pane_create(&p, PANE_PROCS, s, NULL), 0);
	widget_expand_all(&p.w, true);
	cr_assert(draws(&p, L"c" HOSTILE_SHOWN L"caf\x00e9"), "the comm in processes");
	pane_destroy(&p);

	memset(&so, 0, sizeof so);
	so.kallsyms = "/dev/null";
	so.perfmap_dir = dir;
	sy = symbols_new(s, &so, NULL);
	symbols_run(sy);
	hot_pane(&p, s, sy);
	cr_assert(draws(&p, L"c" HOSTILE_SHOWN L"caf\x00e9"), "the comm in hot functions");
	cr_assert(draws(&p, L"d" HOSTILE_SHOWN L".so"), "the DSO in hot functions");
	cr_assert(draws(&p, L"jit_\\x1b[2J\\x1b[31mx"), "the JIT symbol in hot functions");
	pane_destroy(&p);

	cr_assert_eq(pane_create(&p, PANE_HEADER, s, NULL), 0);
	widget_expand_all(&p.w, true);
	cr_assert(draws(&p, L"h" HOSTILE_SHOWN), "the hostname in the header pane");
	pane_destroy(&p);

	symbols_free(sy);
	session_close(s);
	unlink(map);
	rmdir(dir);
	unlink(path);
	free(path);
	setlocale(LC_ALL, "C");
}

/* ---- the timeline and the flame scope ---- */

/* The timeline's rows are its lanes: every sample's, then each process's. */
static void
every_time_pane(struct pane *p, struct session *s, const char *fx)
{
	uint64_t samples = session_counts(s)->by_type[PF_REC_SAMPLE];
	struct row *r;

	if (p->id == PANE_FSCOPE) {
		/* keys act only where there are samples */
		cr_assert_eq(p->ops->key(p, ACT_TIME_RIGHT) != PANE_IGNORED, samples > 0, "%s", fx);
		return;
	}
	r = malloc(sizeof *r);
	cr_assert_geq(p->ops->nrows(p), 1, "%s", fx);
	row_reset(r);
	p->ops->row(p, 0, r);
	cr_assert(strstr(r->col[0], "all"), "%s: %s", fx, r->col[0]);
	cr_assert_eq(strtoull(r->col[1], NULL, 10), samples, "%s: every sample in the first row", fx);
	free(r);
}
