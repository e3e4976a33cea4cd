#include "config.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <fcntl.h>
#include <unistd.h>
#include <sys/stat.h>

#include "core/core.h"
#include "core/hmap.h"
#include "symbolize/cpath.h"
#include "symbolize/diff.h"
#include "symbolize/hist.h"
#include "symbolize/offcpu.h"
#include "symbolize/symbolizer.h"
#include "tui/cmd/cmd.h"
#include "tui/cmd/export_pprof.h"
#include "tui/cmd/export_svg.h"
#include "tui/cmd/filter_opts.h"
#include "tui/cmd/textout.h"

/*
 * perfnav export: the scope's samples in a format other tools read.
 *
 *   folded      as perfnav folded prints it (flamegraph.pl, speedscope,
 *               inferno): "comm;outer;...;inner COUNT", counts of samples, or
 *               with --period of the period;
 *   speedscope  speedscope's JSON file format
 *               (https://www.speedscope.app/file-format-schema.json): one
 *               sampled profile per thread and event (per event with
 *               --event), its stacks from the outermost frame in, each
 *               distinct stack once with its period as weight (in
 *               nanoseconds for cpu-clock, task-clock and off-CPU time);
 *               the frames shared, named as folded stacks name them,
 *               with their DSO as file.
 *
 * The scope options leave other samples out, as perfnav folded's do.
 */

enum {
	OPT_FORMAT = 300,
	OPT_EVENT,
	OPT_PERIOD,
	OPT_OFF_CPU,
	OPT_AGGREGATE,
	OPT_INVERTED,
};

struct export_args {
	const char	*format;
	const char	*out;		/* -o: the file, NULL or "-": standard output */
	const char	*event;
	bool		 period;
	bool		 off_cpu;
	bool		 aggregate;
	bool		 inverted;
	bool		 compress;
	struct filter_opts fo;
	struct filter_opts fo2;		/* the same options, for a second file (svg OLD NEW) */
};

static const struct cmd_opt export_opts[] = {
	{ "format", 1, OPT_FORMAT, "FORMAT: folded, speedscope, pprof, svg or perf (a smaller perf.data)" },
	{ "output", 1, 'o', "FILE: write there (default: standard output)" },
	{ "event", 1, OPT_EVENT, "NAME: only this event (speedscope: one profile of it, every thread's)" },
	{ "period", 0, OPT_PERIOD, "folded: count the sample period instead of samples" },
	{ "inverted", 0, OPT_INVERTED, "svg: an icicle graph, the root at the top" },
	{ "aggregate", 0, OPT_AGGREGATE, "pprof: a sample per distinct stack and thread (labels pid, tid, comm), not one per sample (labels cpu and time too)" },
	{ "compress", 0, 'z', "perf: the kernel's records zstd-compressed, as perf record -z writes them" },
	{ "off-cpu", 0, OPT_OFF_CPU, "off-CPU time instead of the samples, as perfnav top --off-cpu counts it (nanoseconds)" },
	FILTER_OPTS_SAMPLES,
	{ NULL, 0, 0, NULL },
};

static int
export_opt(void *arg, int val, const char *optarg)
{
	struct export_args *a = arg;
	char msg[FILTER_OPTS_MSG];

	switch (val) {
	case OPT_FORMAT:
		a->format = optarg;
		return 0;
	case 'o':
		a->out = optarg;
		return 0;
	case OPT_EVENT:
		/* the browser's off-CPU event, as its scope-command writes it: --off-cpu */
		if (strcmp(optarg, OFFCPU_EVENT_NAME) == 0)
			a->off_cpu = true;
		else
			a->event = optarg;
		return 0;
	case OPT_PERIOD:
		a->period = true;
		return 0;
	case OPT_OFF_CPU:
		a->off_cpu = true;
		return 0;
	case OPT_AGGREGATE:
		a->aggregate = true;
		return 0;
	case OPT_INVERTED:
		a->inverted = true;
		return 0;
	case 'z':
		a->compress = true;
		return 0;
	default:
		if (filter_opt_is(val)) {
			if (filter_opts_take(&a->fo, val, optarg, msg, sizeof msg) == 0 &&
			    filter_opts_take(&a->fo2, val, optarg, msg, sizeof msg) == 0)
				return 0;
			fprintf(stderr, "perfnav export: %s\n", msg);
		}
		return -1;
	}
}

/* ---- JSON ---- */

/*
 * s as a JSON string: quotes and backslashes escaped, control characters
 * as \u00XX, bytes that are no valid UTF-8 (a recording's names are bytes)
 * as U+FFFD: always valid JSON, whatever s holds.
 */
static void
json_str(FILE *fp, const char *s)
{
	size_t n = strlen(s);

	fputc('"', fp);
	for (size_t i = 0; i < n;) {
		unsigned char c = (unsigned char)s[i];
		size_t k = text_unit(s + i, n - i, 0);

		if (c == '"' || c == '\\') {
			fprintf(fp, "\\%c", c);
			i++;
		} else if (k > 0) {
			fwrite(s + i, 1, k, fp);
			i += k;
		} else if (c < 0x80) {
			fprintf(fp, "\\u%04x", c);
			i++;
		} else {
			fputs("\\ufffd", fp);
			i++;
		}
	}
	fputc('"', fp);
}

/* ---- speedscope ---- */

/* The frames shared by every profile: function node -> index, in first-seen order. */
struct frames {
	struct hmap	 idx;
	uint32_t	*func;
	size_t		 n, cap;
};

static uint32_t
frame_index(struct frames *fr, uint32_t func)
{
	uint32_t i = hmap_get(&fr->idx, func);

	if (i != HMAP_NONE)
		return i;
	GROW(fr->func, fr->cap, fr->n + 1);
	fr->func[fr->n] = func;
	hmap_set(&fr->idx, func, (uint32_t)fr->n);
	return (uint32_t)fr->n++;
}

/*
 * One sampled profile: the stacks of tree t (each node where samples
 * ended is a stack, its self period the weight), named name.
 */
static void
profile(FILE *fp, const struct hist *h, const struct cpath *t, size_t ev, const char *name,
    struct frames *fr, bool first)
{
	size_t n = cpath_count(t), cap = 64;
	uint32_t *path = xreallocarray(NULL, cap, sizeof *path);
	bool any = false;

	fprintf(fp, "%s\n    {\"type\": \"sampled\", \"name\": ", first ? "" : ",");
	json_str(fp, name);
	fprintf(fp, ", \"unit\": \"%s\", \"startValue\": 0, \"endValue\": %" PRIu64 ",\n     \"samples\": [",
	    hist_event_in_ns(h, ev) ? "nanoseconds" : "none", cpath_node(t, 0)->total_period);
	for (uint32_t i = 1; i < n; i++) {
		const struct cpath_node *nd = cpath_node(t, i);
		size_t d;

		if (nd->self_period == 0 && nd->self_samples == 0)
			continue;
		if (nd->depth > cap) {
			cap = nd->depth;
			path = xreallocarray(path, cap, sizeof *path);
		}
		d = cpath_path(t, i, path, cap);
		fputs(any ? ", [" : "[", fp);
		for (size_t k = 0; k < d; k++)
			fprintf(fp, "%s%" PRIu32, k ? ", " : "", frame_index(fr, path[k]));
		fputc(']', fp);
		any = true;
	}
	fputs("],\n     \"weights\": [", fp);
	any = false;
	for (uint32_t i = 1; i < n; i++) {
		const struct cpath_node *nd = cpath_node(t, i);

		if (nd->self_period == 0 && nd->self_samples == 0)
			continue;
		fprintf(fp, "%s%" PRIu64, any ? ", " : "", nd->self_period);
		any = true;
	}
	fputs("]}", fp);
	free(path);
}

/*
 * The frames: each function's name as folded stacks (perf script's and
 * perfnav folded's) give it ("name", "[libc.so.6]" or "[unknown]"
 * unresolved), its DSO as file.
 */
static void
frames_json(FILE *fp, const struct hist *h, const struct symbolizer *z, const struct frames *fr)
{
	char name[1024];

	fputs("  \"shared\": {\"frames\": [", fp);
	for (size_t i = 0; i < fr->n; i++) {
		const struct hist_node *nd = hist_node_get(h, cpath_func_node(h, fr->func[i]));

		fputs(i ? ",\n    {\"name\": " : "\n    {\"name\": ", fp);
		json_str(fp, nd != NULL ? hist_str(h, nd->fold) : cpath_func_name(h, fr->func[i], name,
		    sizeof name));
		if (nd != NULL && nd->f.dso != DSO_NONE && !nd->dso_mixed) {
			fputs(", \"file\": ", fp);
			json_str(fp, symbolizer_dso_short(z, nd->f.dso));
		}
		fputc('}', fp);
	}
	fputs("\n  ]},\n", fp);
}

/* Per event (or the one asked for): a profile per thread, or of every thread with --event. */
static void
speedscope(FILE *fp, struct hist *h, const struct symbolizer *z, const char *file, bool one)
{
	struct frames fr = { 0 };
	bool first = true;
	char name[512];
	/* the profiles are written first (their frames are met there), the frames after, in a
	 * second buffer: speedscope reads the keys in any order */
	char *body = NULL;
	size_t len = 0;
	FILE *bp = open_memstream(&body, &len);

	if (bp == NULL) {
		fprintf(stderr, "perfnav export: %s\n", strerror(errno));
		return;
	}
	for (size_t ev = 0; ev < hist_nevents(h); ev++) {
		const char *evname = hist_str(h, hist_event(h, ev)->name);
		struct cpath_query q = { .ev = ev, .entry = CPATH_NONE };
		const struct hist_entry *const *rows;
		size_t nr = one ? 1 : hist_rows_merged(h, ev, NULL, HIST_KEEP(HIST_KEY_TID), 0, &rows);
		struct hist_entry *thr = xreallocarray(NULL, nr + 1, sizeof *thr);

		for (size_t i = 0; !one && i < nr; i++)
			thr[i] = *rows[i];
		for (size_t i = 0; i < nr; i++) {
			struct hist_select sel = { .by_tid = true, .tid = one ? 0 : thr[i].tid };
			struct cpath *t;

			q.sel = one ? NULL : &sel;
			t = cpath_build(h, &q);
			if (one)
				snprintf(name, sizeof name, "%s", evname);
			else
				snprintf(name, sizeof name, "%s %d: %s", hist_str(h, thr[i].label_comm),
				    (int)thr[i].tid, evname);
			profile(bp, h, t, ev, name, &fr, first);
			first = false;
			cpath_free(t);
		}
		free(thr);
	}
	fclose(bp);
	fputs("{\n  \"$schema\": \"https://www.speedscope.app/file-format-schema.json\",\n", fp);
	fprintf(fp, "  \"exporter\": \"perfnav %s\",\n  \"name\": ", PACKAGE_VERSION);
	json_str(fp, file);
	fputs(",\n  \"activeProfileIndex\": 0,\n", fp);
	frames_json(fp, h, z, &fr);
	fputs("  \"profiles\": [", fp);
	fwrite(body, 1, len, fp);
	fputs("\n  ]\n}\n", fp);
	free(body);
	free(fr.func);
	hmap_free(&fr.idx);
}

/* ---- folded ---- */

struct fold_out {
	FILE	*fp;
	char	**text;
	uint64_t *count;
	size_t	 n, cap;
};

static int
fold_line(void *arg, const char *text, uint64_t count)
{
	struct fold_out *o = arg;

	if (o->n == o->cap) {
		o->cap = o->cap ? 2 * o->cap : 64;
		o->text = xreallocarray(o->text, o->cap, sizeof *o->text);
		o->count = xreallocarray(o->count, o->cap, sizeof *o->count);
	}
	o->text[o->n] = xstrdup(text);
	o->count[o->n++] = count;
	return 0;
}

static int
cmp_str(const void *a, const void *b, void *arg)
{
	const struct fold_out *o = arg;
	size_t i = *(const size_t *)a, j = *(const size_t *)b;

	return strcmp(o->text[i], o->text[j]);
}

/* perfnav folded's lines of event 0, sorted as it sorts them. */
static void
folded(FILE *fp, struct hist *h, bool period)
{
	struct fold_out o = { fp, NULL, NULL, 0, 0 };
	size_t *ord;

	hist_folded(h, 0, period, fold_line, &o);
	ord = xreallocarray(NULL, o.n + 1, sizeof *ord);
	for (size_t i = 0; i < o.n; i++)
		ord[i] = i;
	qsort_r(ord, o.n, sizeof *ord, cmp_str, &o);
	for (size_t i = 0; i < o.n; i++)
		fprintf(fp, "%s %" PRIu64 "\n", textout_esc(o.text[ord[i]]), o.count[ord[i]]);
	for (size_t i = 0; i < o.n; i++)
		free(o.text[i]);
	free(o.text);
	free(o.count);
	free(ord);
}

/* ---- the command ---- */

const struct cmd_spec export_spec = {
	.name = "export",
	.summary = "the scope's samples for other tools (folded, speedscope, pprof, svg), or a smaller perf.data",
	.run = cmd_export,
	.usage = "export --format FORMAT [-o FILE] [OPTIONS] [FILE [NEW]]\n\n"
	    "The samples, or with --off-cpu the time off CPU, in a format other tools\n"
	    "read: folded (flamegraph.pl, inferno), speedscope (its JSON file format:\n"
	    "a sampled profile per thread and event, or per event with --event), pprof\n"
	    "(gzipped profile.proto: pprof, Perfetto, Pyroscope, Parca, Grafana), svg\n"
	    "(a standalone flame graph).  The scope options leave other samples out,\n"
	    "as perfnav folded's do.  With a second file NEW, --format svg draws a\n"
	    "differential flame graph: NEW's shape, each frame red where its share of\n"
	    "the event grew from FILE's, blue where it shrank.\n\n"
	    "perf carves the recording: a perf.data that perf and perfnav read, with\n"
	    "the samples of the scope (--event, --time, --pid, --tid, --comms, --cpu,\n"
	    "--dsos, --symbols) and every other record; always in file mode (a pipe or\n"
	    "a directory recording too) and in the input's byte order, uncompressed\n"
	    "unless -z; to -o FILE, or to standard output when it is a file.",
	.opts = export_opts,
	.fn = export_opt,
	.maxpos = 1,
};

/* The hist of what is exported: paths (speedscope: by thread) of the event chosen. */
static struct hist *
export_hist(const struct session *s, struct symbolizer *z, const struct export_spec_args *e, bool ss)
{
	struct hist_opts ho;
	struct hist *h;

	memset(&ho, 0, sizeof ho);
	ho.filter = e->filter;
	ho.event = -1;
	for (size_t i = 0; e->event != NULL && i < session_attrs(s)->n; i++)
		if (strcmp(session_attr_name(s, (int)i), e->event) == 0)
			ho.event = (int)i;
	ho.offcpu = e->offcpu;
	ho.max_stack = HIST_DEFAULT_MAX_STACK;
	/* pprof: frames by address (its locations), each sample's row kept */
	ho.paths_address = ho.record_self = e->format == EXPORT_PPROF;
	if (ss) {
		ho.keys[0] = HIST_KEY_COMM;
		ho.keys[1] = HIST_KEY_TID;
		ho.keys[2] = HIST_KEY_SYM;
		ho.nkeys = 3;
		ho.paths = true;
		if (e->format == EXPORT_PPROF) {	/* --aggregate: stacks per thread and input */
			ho.keys[2] = HIST_KEY_FILE;
			ho.keys[3] = HIST_KEY_SYM;
			ho.nkeys = 4;
		}
	} else {
		ho.keys[0] = HIST_KEY_SYM;
		ho.nkeys = 1;
		ho.callgraph = true;
	}
	h = hist_new(s, z, &ho);
	hist_add_session(h, NULL);
	hist_finish(h);
	return h;
}

int
export_print(const struct session *s, struct symbolizer *z, const struct export_spec_args *e, FILE *fp)
{
	struct hist *h;

	int rc = 0;

	char title[1024];

	if (e->format != EXPORT_FOLDED && e->format != EXPORT_SPEEDSCOPE && e->format != EXPORT_PPROF &&
	    e->format != EXPORT_SVG)
		return -1;
	h = export_hist(s, z, e, e->format != EXPORT_FOLDED);
	if (e->format == EXPORT_SPEEDSCOPE)
		speedscope(fp, h, z, e->name, e->event != NULL);
	else if (e->format == EXPORT_SVG && hist_nevents(h) > 0) {
		snprintf(title, sizeof title, "%s of %s in %s (%" PRIu64 " samples)", e->inverted ? "Icicle graph" :
		    "Flame graph", hist_str(h, hist_event(h, 0)->name), e->name, hist_event(h, 0)->nsamples);
		rc = export_svg(h, z, 0, e->inverted, e->offcpu != NULL, title, fp);
	} else if (e->format == EXPORT_PPROF)	/* off-CPU spans: several may share a sample */
		rc = hist_nevents(h) == 0 ? 0 : export_pprof(s, h, z, 0, e->aggregate || e->offcpu != NULL, fp);
	else
		folded(fp, h, e->period || e->offcpu != NULL);
	hist_free(h);
	return rc;
}

/* Open the second file of export --format svg OLD NEW and set up its options: 0, or -1 (said). */
static int
open_new(struct cmd_run *r, struct export_args *a, struct session **s2, struct symbolizer **z2)
{
	struct common_opts co = r->co;
	struct sym_opts so;
	char msg[FILTER_OPTS_MSG];

	co.input = r->pos[0];
	if ((*s2 = cmd_open(&co, true)) == NULL)
		return -1;
	if (filter_opts_setup(&a->fo2, *s2, co.input, msg, sizeof msg) < 0) {
		fprintf(stderr, "perfnav export: %s\n", msg);
		return -1;
	}
	cmd_sym_opts(&co, &so);
	so.no_path_cache = true;	/* the two builds may share a path */
	*z2 = symbolizer_new(*s2, &so);
	return 0;
}

/*
 * perfnav export --format svg OLD NEW: the differential flame graph, NEW's
 * shape coloured by each frame's change from OLD; the scope options apply
 * to both, the event pairs by name.  The exit status.
 */
static int
export_diff(struct cmd_run *r, struct export_args *a, FILE *fp)
{
	struct export_spec_args e = { .format = EXPORT_SVG, .event = a->event, .name = r->co.input };
	struct session *s2 = NULL;
	struct symbolizer *z1, *z2 = NULL;
	struct sym_opts so;
	struct hist *ho, *hn = NULL;
	char title[1024];
	const char *ev;
	int evn = -1, status = EXIT_FAIL;

	cmd_sym_opts(&r->co, &so);
	so.no_path_cache = true;
	z1 = symbolizer_new(r->s, &so);
	e.filter = filter_opts_filter(&a->fo);
	ho = export_hist(r->s, z1, &e, true);
	if (hist_nevents(ho) == 0)
		fprintf(stderr, "perfnav export: %s: no samples in the scope\n", textout_esc(r->co.input));
	else if (open_new(r, a, &s2, &z2) == 0) {
		e.filter = filter_opts_filter(&a->fo2);
		hn = export_hist(s2, z2, &e, true);
		ev = hist_str(ho, hist_event(ho, 0)->name);
		if ((evn = (int)diff_event_for(hn, NULL, ev)) < 0)	/* as perf diff pairs them */
			fprintf(stderr, "perfnav export: %s: no samples of event '%s' in the scope\n",
			    textout_esc(r->pos[0]), textout_esc(ev));
	}
	if (evn >= 0) {
		snprintf(title, sizeof title,
		    "Differential flame graph of %s: %s against %s (red grew, blue "
		    "shrank)",
		    ev, r->pos[0], r->co.input);
		status = export_svg_diff(ho, 0, hn, z2, (size_t)evn, a->inverted, title, fp) < 0 ?
		    EXIT_FAIL :
		    EXIT_OK;
	}
	if (hn != NULL)
		hist_free(hn);
	hist_free(ho);
	if (z2 != NULL)
		symbolizer_free(z2);
	symbolizer_free(z1);
	if (s2 != NULL)
		session_close(s2);
	return status;
}

static bool
has_event(const struct session *s, const char *name)
{
	for (size_t i = 0; i < session_attrs(s)->n; i++)
		if (strcmp(session_attr_name(s, (int)i), name) == 0)
			return true;
	return false;
}

/* The format asked for (enum export_format); -1 (message said) another. */
static int
format_of(const char *f)
{
	if (f == NULL) {
		fprintf(stderr, "perfnav export: --format is needed: folded, speedscope, pprof, svg or perf\n");
		return -1;
	}
	if (strcmp(f, "folded") == 0)
		return EXPORT_FOLDED;
	if (strcmp(f, "speedscope") == 0)
		return EXPORT_SPEEDSCOPE;
	if (strcmp(f, "pprof") == 0)
		return EXPORT_PPROF;
	if (strcmp(f, "svg") == 0)
		return EXPORT_SVG;
	if (strcmp(f, "perf") == 0)
		return EXPORT_PERF;
	fprintf(stderr, "perfnav export: --format %s: unknown (folded, speedscope, pprof, svg or perf)\n", textout_esc(f));
	return -1;
}

/* Where the output goes, for messages. */
static const char *
fp_name(const struct export_args *a)
{
	return a->out != NULL && strcmp(a->out, "-") != 0 ? textout_esc(a->out) : "stdout";
}

/* Is the file at path one of the recording's (writing it would truncate what is read)? */
static bool
is_input(const struct session *s, const char *path)
{
	struct stat o, in;

	if (stat(path, &o) < 0)
		return false;
	for (size_t i = 0; i < session_nfiles(s); i++)
		if (stat(session_file(s, i)->path, &in) == 0 && in.st_dev == o.st_dev && in.st_ino == o.st_ino)
			return true;
	return false;
}

/* --format perf: the carved recording to -o FILE, or to standard output when it is a file. */
static int
export_perf_out(struct cmd_run *r, const struct export_args *a, const struct export_spec_args *e)
{
	bool std = a->out == NULL || strcmp(a->out, "-") == 0;
	const char *name = std ? "standard output" : textout_esc(a->out);
	struct carve_result res;
	struct perf_err err;
	int fd = STDOUT_FILENO, status = EXIT_OK;

	/* the header is written last, at offset 0: a file, and not one appended to */
	if (std && (isatty(fd) || lseek(fd, 0, SEEK_CUR) < 0 || (fcntl(fd, F_GETFL) & O_APPEND))) {
		fprintf(stderr, "perfnav export: --format perf writes a file: -o FILE, or standard output "
		    "redirected to one (not >>)\n");
		return EXIT_USAGE;
	}
	if (!std && is_input(r->s, a->out)) {
		fprintf(stderr, "perfnav export: %s: that is the recording being read\n", name);
		return EXIT_USAGE;
	}
	if (!std && (fd = open(a->out, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600)) < 0) {
		fprintf(stderr, "perfnav export: %s: %s\n", name, strerror(errno));
		return EXIT_FAIL;
	}
	if (export_carve(r->s, filter_has_frame(&a->fo.f) ? cmd_symbolizer(r) : NULL, e, fd, &res,
	    &err) < 0) {
		fprintf(stderr, "perfnav export: %s: %s\n", name, textout_esc(err.msg));
		status = EXIT_FAIL;
	} else {
		/* standard output opened without O_TRUNC: nothing of the file before stays */
		if (ftruncate(fd, (off_t)res.size) < 0 && errno != EINVAL)
			fprintf(stderr, "perfnav export: %s: %s\n", name, strerror(errno));
		fprintf(stderr, "perfnav export: %s: %" PRIu64 " of %" PRIu64 " samples, %" PRIu64
		    " records, %" PRIu64 " bytes\n", name, res.kept, res.samples, res.records, res.size);
	}
	if (!std && close(fd) != 0 && status == EXIT_OK) {
		fprintf(stderr, "perfnav export: %s: %s\n", name, strerror(errno));
		status = EXIT_FAIL;
	}
	return status;
}

int
cmd_export(int argc, char **argv)
{
	struct export_args a = { 0 };
	struct cmd_run r;
	struct offcpu oc = { 0 };
	char msg[FILTER_OPTS_MSG];
	struct export_spec_args e;
	FILE *fp = stdout;
	int fmt;

	if (cmd_begin(&r, argc, argv, &export_spec, &a) < 0) {
		filter_opts_free(&a.fo);
		filter_opts_free(&a.fo2);
		return r.status;
	}
	if ((fmt = format_of(a.format)) >= 0 && r.npos > 0 && (fmt != EXPORT_SVG || a.off_cpu)) {
		fprintf(stderr, "perfnav export: two files: --format svg (a differential flame graph), "
		    "without --off-cpu\n");
		fmt = -1;
	} else if (fmt == EXPORT_PERF && a.off_cpu) {
		fprintf(stderr, "perfnav export: --off-cpu: not with --format perf (it keeps samples, not spans)\n");
		fmt = -1;
	}
	if (fmt < 0 || cmd_load(&r, true) < 0) {
		filter_opts_free(&a.fo);
		filter_opts_free(&a.fo2);
		return fmt < 0 ? cmd_quit(&r, EXIT_USAGE) : r.status;
	}
	if (filter_opts_setup(&a.fo, r.s, r.co.input, msg, sizeof msg) < 0)
		fprintf(stderr, "perfnav export: %s\n", msg);
	else if (a.event != NULL && !has_event(r.s, a.event))
		fprintf(stderr, "perfnav export: %s: no event '%s'\n", textout_esc(r.co.input),
		    textout_esc(a.event));
	else if (fmt == EXPORT_PPROF && (a.out == NULL || strcmp(a.out, "-") == 0) && isatty(1))
		fprintf(stderr, "perfnav export: pprof is gzipped protobuf: -o FILE, or a pipe\n");
	else if (!a.off_cpu || cmd_offcpu("export", &r, &oc) == 0)
		fmt += 8;	/* set up */
	if (fmt < 8) {
		filter_opts_free(&a.fo);
		filter_opts_free(&a.fo2);
		offcpu_free(&oc);
		return cmd_quit(&r, EXIT_USAGE);
	}
	fmt -= 8;
	e = (struct export_spec_args){ (enum export_format)fmt, a.event, filter_opts_filter(&a.fo),
		a.off_cpu ? &oc : NULL, a.period, r.co.input, a.aggregate, a.inverted, a.compress };
	if (fmt == EXPORT_PERF) {
		r.status = export_perf_out(&r, &a, &e);
		filter_opts_free(&a.fo);
		filter_opts_free(&a.fo2);
		return r.status == EXIT_USAGE ? cmd_quit(&r, EXIT_USAGE) : cmd_end(&r);
	}
	if (a.out != NULL && strcmp(a.out, "-") != 0)
		fp = fopen(a.out, "w");
	else if (fmt == EXPORT_PPROF && fflush(stdout) == 0)
		fp = fdopen(dup(STDOUT_FILENO), "w");	/* gzip: around the escaping filter */
	if (fp == NULL) {
		fprintf(stderr, "perfnav export: %s: %s\n", fp_name(&a), strerror(errno));
		filter_opts_free(&a.fo);
		filter_opts_free(&a.fo2);
		offcpu_free(&oc);
		return cmd_quit(&r, EXIT_FAIL);
	}
	if (r.npos > 0)
		r.status = export_diff(&r, &a, fp);
	else if (export_print(r.s, cmd_symbolizer(&r), &e, fp) < 0) {
		fprintf(stderr, "perfnav export: %s: a write error\n", fp_name(&a));
		r.status = EXIT_FAIL;
	}
	if (fp != stdout && fclose(fp) != 0) {
		fprintf(stderr, "perfnav export: %s: %s\n", fp_name(&a), strerror(errno));
		r.status = EXIT_FAIL;
	}
	offcpu_free(&oc);
	filter_opts_free(&a.fo);
	filter_opts_free(&a.fo2);
	return cmd_end(&r);
}
