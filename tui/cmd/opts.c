/*
 * opts.c: what every text subcommand shares: the common options and their
 * parser, opening the recording, its diagnostics and the files the
 * symbolizer refused on stderr, --strict's exit status, and the run path
 * (cmd_begin .. cmd_end) built from them.
 */
#include "config.h"

#include <errno.h>
#include <inttypes.h>
#include <getopt.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "core/core.h"
#include "symbolize/bundle.h"
#include "symbolize/offcpu.h"
#include "symbolize/symbolizer.h"
#include "tui/cmd/cmd.h"
#include "tui/cmd/textout.h"

enum {
	OPT_BUILDID_DIR = 1000,
	OPT_KALLSYMS,
	OPT_PERFMAP_DIR,
	OPT_SYMFS,
	OPT_NO_DEBUGINFOD,
	OPT_THEME,
	OPT_STRICT,
	OPT_MAX_MEMORY,
	OPT_NO_CACHE,
	OPT_CACHE_SIZE,
	OPT_MERGE,
};

const struct cmd_opt cmd_common_opts[] = {
	{ "input", 1, 'i', "FILE: the recording (default ./perf.data; - for standard input)" },
	{ "buildid-dir", 1, OPT_BUILDID_DIR, "DIR: build-id cache (default ~/.debug; a tar of one, as perf archive writes, is unpacked)" },
	{ "kallsyms", 1, OPT_KALLSYMS, "FILE: kernel symbols (default /proc/kallsyms)" },
	{ "perfmap-dir", 1, OPT_PERFMAP_DIR, "DIR: where perf-PID.map JIT maps are (default /tmp)" },
	{ "symfs", 1, OPT_SYMFS, "DIR: look for binaries under DIR" },
	{ "no-debuginfod", 0, OPT_NO_DEBUGINFOD, "never ask the debuginfod servers of DEBUGINFOD_URLS for a binary the build-id cache, --symfs and /usr/lib/debug lack" },
	{ "theme", 1, OPT_THEME, "NAME|PATH: colour theme (TUI)" },
	{ "max-memory", 1, OPT_MAX_MEMORY, "SIZE: memory budget for the recording's decompressed data and index, e.g. 8G (default: 64 times the file size, at least 64M, at most a quarter of the machine's memory)" },
	{ "no-cache", 0, OPT_NO_CACHE, "neither read nor write the cache of loaded recordings ($XDG_CACHE_HOME/perfnav, default ~/.cache/perfnav; see perfnav cache)" },
	{ "cache-size", 1, OPT_CACHE_SIZE, "SIZE: how large the cache may grow, e.g. 4G (default 2G; the least recently used entries go first; an index larger than that is not kept, but is read from a file of the cache directory, never named, while the recording is open)" },
	{ "merge", 0, OPT_MERGE, "FILE FILE...: open several recordings as one (perfnav merge to a temporary file), each sample's input its sort key file" },
	{ "strict", 0, OPT_STRICT, "exit with status 3 if the recording is damaged (default: 0 once what could be read is shown)" },
	{ "help", 0, 'h', "show this help" },
	{ NULL, 0, 0, NULL },
};

static void
print_opts(FILE *fp, const struct cmd_opt *o)
{
	for (; o && o->name; o++) {
		char buf[64];

		if (o->val < 256)
			snprintf(buf, sizeof buf, "-%c, --%s", o->val, o->name);
		else
			snprintf(buf, sizeof buf, "    --%s", o->name);
		fprintf(fp, "  %-22s %s\n", buf, o->help);
	}
}

static void
usage(FILE *fp, const char *name, const char *text, const struct cmd_opt *extra)
{
	fprintf(fp, "usage: perfnav %s\n\n", text);
	if (extra && extra->name) {
		fprintf(fp, "Options of '%s':\n", name);
		print_opts(fp, extra);
		fputc('\n', fp);
	}
	fprintf(fp, "Common options:\n");
	print_opts(fp, cmd_common_opts);
}

static size_t
nopts(const struct cmd_opt *o)
{
	size_t n = 0;

	while (o && o[n].name)
		n++;
	return n;
}

static void
add_opts(struct option *lo, size_t *nl, char *sh, size_t *ns, const struct cmd_opt *o)
{
	for (; o && o->name; o++) {
		lo[*nl].name = o->name;
		lo[*nl].has_arg = o->has_arg ? required_argument : no_argument;
		lo[*nl].flag = NULL;
		lo[*nl].val = o->val;
		(*nl)++;
		if (o->val < 256) {
			sh[(*ns)++] = (char)o->val;
			if (o->has_arg)
				sh[(*ns)++] = ':';
		}
	}
}

int
opts_parse(int argc, char **argv, const char *utext, const struct cmd_opt *extra, cmd_opt_fn fn,
    void *arg, struct common_opts *co, char ***pos, int *npos, int *exit_status)
{
	size_t ne = nopts(extra), nc = nopts(cmd_common_opts), nl = 0, ns = 0;
	struct option *lo = xcalloc(ne + nc + 1, sizeof *lo);
	char *sh = xcalloc(2 * (ne + nc) + 2, 1);
	const char *name = argv[0];
	/* "perfnav top: ..." for a subcommand, "perfnav: ..." for the TUI */
	const char *sep = name[0] ? " " : "";
	int c, rc = 0;

	memset(co, 0, sizeof *co);
	sh[ns++] = ':';	/* report missing arguments as ':' */
	add_opts(lo, &nl, sh, &ns, cmd_common_opts);
	add_opts(lo, &nl, sh, &ns, extra);
	optind = 1;
	opterr = 0;
	while ((c = getopt_long(argc, argv, sh, lo, NULL)) != -1) {
		switch (c) {
		case 'i':
			co->input = optarg;
			break;
		case OPT_BUILDID_DIR:
			co->buildid_dir = optarg;
			break;
		case OPT_KALLSYMS:
			co->kallsyms = optarg;
			break;
		case OPT_PERFMAP_DIR:
			co->perfmap_dir = optarg;
			break;
		case OPT_SYMFS:
			co->symfs = optarg;
			break;
		case OPT_NO_DEBUGINFOD:
			co->no_debuginfod = true;
			break;
		case OPT_THEME:
			co->theme = optarg;
			break;
		case OPT_STRICT:
			co->strict = true;
			break;
		case OPT_MAX_MEMORY:
			if (opts_size(optarg, &co->max_memory) < 0 ||
			    co->max_memory < (UINT64_C(1) << 20)) {
				fprintf(stderr, "perfnav%s%s: bad size '%s' for --max-memory (1M at least; e.g. 512M, 8G)\n",
				    sep, name, optarg);
				goto bad;
			}
			break;
		case OPT_NO_CACHE:
			co->no_cache = true;
			break;
		case OPT_MERGE:
			co->merge = true;
			break;
		case OPT_CACHE_SIZE:
			if (opts_size(optarg, &co->cache_size) < 0 ||
			    co->cache_size < (UINT64_C(1) << 20)) {
				fprintf(stderr, "perfnav%s%s: bad size '%s' for --cache-size (1M at least; e.g. 512M, 4G)\n",
				    sep, name, optarg);
				goto bad;
			}
			break;
		case 'h':
			usage(stdout, name, utext, extra);
			*exit_status = EXIT_OK;
			rc = 1;
			goto out;
		case ':':
			fprintf(stderr, "perfnav%s%s: option '%s' needs a value\n", sep, name,
			    argv[optind - 1]);
			goto bad;
		case '?':
			fprintf(stderr, "perfnav%s%s: unknown option '%s'\n", sep, name,
			    argv[optind - 1]);
			goto bad;
		default:
			if (fn == NULL || fn(arg, c, optarg) < 0) {
				fprintf(stderr, "perfnav%s%s: bad value for '%s'\n", sep, name,
				    argv[optind - 1]);
				goto bad;
			}
			break;
		}
	}
	*pos = argv + optind;
	*npos = argc - optind;
	if (co->input == NULL && *npos > 0) {
		co->input = (*pos)[0];
		(*pos)++;
		(*npos)--;
	}
	if (co->input == NULL)
		co->input = "perf.data";
	goto out;
bad:
	fprintf(stderr, "Try 'perfnav%s%s --help'.\n", sep, name);
	*exit_status = EXIT_USAGE;
	rc = 1;
out:
	free(lo);
	free(sh);
	return rc;
}

static const char *
diag_file(const struct session *s, uint32_t f)
{
	return f < session_nfiles(s) ? session_file(s, f)->path : session_info(s).path;
}

/*
 * Open co->input, for the browser when browse (which keeps who each record
 * is about: its panes ask it of every sample, again and again), with
 * progress told to fn (NULL: none).
 */
static struct session *
open_input(const struct common_opts *co, bool index, bool browse, session_progress_fn fn,
    void *arg)
{
	struct perf_err err;
	struct session_opts so = { .no_index = !index, .keep_going = true,
		.mem_budget = co->max_memory, .keep_who = browse,
		.progress = fn, .progress_arg = arg, .stop_abandons = browse };
	struct session *s;
	char dir[4096];

	if (index && cmd_cache_setup(co, dir, sizeof dir) == 0) {
		so.cache_dir = dir;
		so.cache_version = PACKAGE_VERSION;
	}
	memset(&err, 0, sizeof err);
	s = session_open(co->input, &so, &err);
	cmd_merge_opened(co->input);
	if (s == NULL) {
		if (err.code != PERF_E_STOPPED)	/* the user's own stop: nothing to say */
			fprintf(stderr, "perfnav: %s\n", err.msg);
	} else if (so.cache_dir != NULL) {
		cmd_cache_opened(co, s, dir);
	}
	return s;
}

struct session *
cmd_open_browse(const struct common_opts *co, session_progress_fn fn, void *arg)
{
	return open_input(co, true, true, fn, arg);
}

struct session *
cmd_open(const struct common_opts *co, bool index)
{
	return open_input(co, index, false, NULL, NULL);
}

int
cmd_report_diags(const struct session *s, bool strict)
{
	const struct diag_list *dg = session_diags(s);
	struct session_info si = session_info(s);
	bool bad = false;

	for (size_t i = 0; i < dg->n; i++) {
		const struct diag *d = &dg->v[i];

		/* a message may quote the recording (a file name in a directory) */
		if (d->offset == PERF_ERR_OFF_NONE)
			fprintf(stderr, "perfnav: %s: %s\n", textout_esc(diag_file(s, d->file)),
			    textout_esc(d->msg));
		else
			fprintf(stderr, "perfnav: %s: offset 0x%llx: %s\n",
			    textout_esc(diag_file(s, d->file)), (unsigned long long)d->offset,
			    textout_esc(d->msg));
		if (d->severity >= DIAG_ERROR)
			bad = true;
	}
	if (dg->dropped)
		fprintf(stderr, "perfnav: %s: %zu more problems not shown\n", si.path,
		    dg->dropped);
	/*
	 * Like perf, a salvaged recording exits 0 (the problems are on
	 * stderr); --strict makes damage an exit status of its own.
	 */
	return strict && (bad || si.damaged) ? EXIT_DAMAGED : EXIT_OK;
}

void
cmd_sym_opts(const struct common_opts *co, struct sym_opts *so)
{
	memset(so, 0, sizeof *so);
	so->buildid_dir = co->buildid_dir;
	so->kallsyms = co->kallsyms;
	so->perfmap_dir = co->perfmap_dir;
	so->symfs = co->symfs;
	so->no_debuginfod = co->no_debuginfod;
	so->no_system = co->bundle_only;
}

/* The bundles opened, their temporary directories removed at exit. */
static struct bundle_in opened[8];
static size_t nopened;
static pthread_mutex_t opened_lock = PTHREAD_MUTEX_INITIALIZER;	/* diff loads on threads */

static void
close_bundles(void)
{
	for (size_t i = 0; i < nopened; i++)
		bundle_in_free(&opened[i]);
	nopened = 0;
}

/* Keep b until exit (its strings stay valid): its slot. */
static struct bundle_in *
keep_bundle(const struct bundle_in *b)
{
	struct bundle_in *k = NULL;

	pthread_mutex_lock(&opened_lock);
	if (nopened == 0)
		atexit(close_bundles);
	if (nopened == sizeof opened / sizeof opened[0])
		fprintf(stderr, "perfnav: too many bundles at once\n");
	else
		k = &opened[nopened++];
	if (k != NULL)
		*k = *b;
	pthread_mutex_unlock(&opened_lock);
	return k;
}

int
cmd_bundle_input(struct common_opts *co)
{
	struct bundle_in b, *k;
	struct perf_err err;
	int rc;

	memset(&b, 0, sizeof b);
	memset(&err, 0, sizeof err);
	if (co->buildid_dir != NULL) {
		rc = bundle_open_cache(co->buildid_dir, &b, &err);
		if (rc < 0)
			goto bad;
		if (rc > 0) {
			if ((k = keep_bundle(&b)) == NULL) {
				bundle_in_free(&b);
				return -1;
			}
			co->buildid_dir = k->root;
		}
	}
	if (co->input == NULL || strcmp(co->input, "-") == 0)
		return 0;
	memset(&b, 0, sizeof b);
	rc = bundle_open(co->input, &b, &err);
	if (rc < 0)
		goto bad;
	if (rc == 0)
		return 0;
	if ((k = keep_bundle(&b)) == NULL) {
		bundle_in_free(&b);
		return -1;
	}
	co->bundle = co->input;
	co->input = k->data;
	co->bundle_only = true;
	if (k->tmp != NULL)
		co->no_cache = true;	/* a tar's copy is gone at exit: no index kept of it */
	if (co->buildid_dir == NULL)
		co->buildid_dir = k->root;
	if (co->kallsyms == NULL)
		co->kallsyms = k->kallsyms;
	if (co->perfmap_dir == NULL)
		co->perfmap_dir = k->root;
	return 0;
bad:
	fprintf(stderr, "perfnav: %s\n", textout_esc(err.msg));
	return -1;
}

int
opts_size(const char *arg, uint64_t *out)
{
	unsigned long long v;
	char *end;
	int shift = 0;

	if (arg[0] < '0' || arg[0] > '9')
		return -1;
	errno = 0;
	v = strtoull(arg, &end, 10);
	if (end == arg || errno != 0)
		return -1;
	switch (*end) {
	case 'k':
	case 'K':
		shift = 10;
		end++;
		break;
	case 'm':
	case 'M':
		shift = 20;
		end++;
		break;
	case 'g':
	case 'G':
		shift = 30;
		end++;
		break;
	case 't':
	case 'T':
		shift = 40;
		end++;
		break;
	default:
		break;
	}
	if (*end == 'i' && shift)
		end++;
	if (*end == 'B' || *end == 'b')
		end++;
	if (*end != '\0' || v > (UINT64_MAX >> shift))
		return -1;
	*out = (uint64_t)v << shift;
	return 0;
}

int
opts_count(const char *arg, long max, long *out)
{
	char *end;
	long v;

	errno = 0;
	v = strtol(arg, &end, 10);
	if (end == arg || *end != '\0' || errno != 0 || v < 0 || v > max)
		return -1;
	*out = v;
	return 0;
}

size_t
cmd_report_refusals(FILE *fp, const struct symbolizer *z)
{
	size_t dropped, n = symbolizer_refusals(z, NULL, 0, &dropped), lines = 0;
	struct sym_refusal *r;

	if (n == 0 && dropped == 0)
		return 0;
	r = xcalloc(n ? n : 1, sizeof *r);
	n = symbolizer_refusals(z, r, n, NULL);
	for (size_t i = 0; i < n; i++) {
		bool seen = false;

		/* one line per file, whichever DSOs it was for */
		for (size_t k = 0; k < i && !seen; k++)
			seen = strcmp(r[k].path, r[i].path) == 0;
		if (seen)
			continue;
		fprintf(fp, "perfnav: %s: %s: %s\n", textout_esc(r[i].path),
		    r[i].cut ? "cut short" : "refused", textout_esc(r[i].why));
		lines++;
	}
	if (dropped > 0)
		fprintf(fp, "perfnav: %zu more files refused\n", dropped);
	free(r);
	return lines;
}

size_t
cmd_report_debuginfod(FILE *fp, const struct symbolizer *z, const char *pre)
{
	size_t n = symbolizer_ndsos(z), lines = 0;

	for (uint32_t d = 0; d < n; d++) {
		struct sym_dbgd_file f[2];
		size_t k = symbolizer_dso_debuginfod(z, d, f);

		if (k > 0 && lines == 0)	/* a "#" line first in a report of "# " lines */
			fprintf(fp, "%s%sFiles from debuginfod servers (DEBUGINFOD_URLS), per DSO:\n",
			    pre[0] == '#' ? "#\n" : "", pre);
		if (k > 0)
			fprintf(fp, "%s  %s\n", pre, textout_esc(symbolizer_dso_long(z, d)));
		for (size_t i = 0; i < k; i++) {
			fprintf(fp, "%s    %-10s  %s", pre, f[i].kind, textout_esc(f[i].path));
			if (f[i].url[0] != '\0')
				fprintf(fp, "  downloaded from %s\n", textout_esc(f[i].url));
			else
				fprintf(fp, "  (in the debuginfod cache already)\n");
			lines++;
		}
	}
	return lines;
}

int
cmd_begin(struct cmd_run *r, int argc, char **argv, const struct cmd_spec *spec, void *arg)
{
	memset(r, 0, sizeof *r);
	r->name = argv[0];
	r->status = EXIT_OK;
	if (opts_parse(argc, argv, spec->usage, spec->opts, spec->fn, arg, &r->co, &r->pos,
	    &r->npos, &r->status))
		return -1;
	if (r->co.merge && (spec == &diff_spec || spec == &merge_spec)) {
		fprintf(stderr, "perfnav %s: --merge is not an option of %s\n", r->name, r->name);
		r->status = EXIT_USAGE;
		return -1;
	}
	if (r->co.merge && cmd_merge_inputs(&r->co, r->pos, &r->npos, r->name) < 0) {
		r->status = EXIT_FAIL;
		return -1;
	}
	if (spec->maxpos >= 0 && r->npos > spec->maxpos) {
		fprintf(stderr, "perfnav %s: unexpected argument '%s'\n", r->name,
		    r->pos[spec->maxpos]);
		r->status = EXIT_USAGE;
		return -1;
	}
	/* diff opens each of its files so itself */
	if (spec != &diff_spec && cmd_bundle_input(&r->co) < 0) {
		r->status = EXIT_FAIL;
		return -1;
	}
	return 0;
}

int
cmd_load(struct cmd_run *r, bool index)
{
	r->s = cmd_open(&r->co, index);
	if (r->s != NULL)
		return 0;
	r->status = EXIT_FAIL;
	return -1;
}

struct symbolizer *
cmd_symbolizer(struct cmd_run *r)
{
	struct sym_opts so;

	cmd_sym_opts(&r->co, &so);
	r->z = symbolizer_new(r->s, &so);
	return r->z;
}

int
cmd_end(struct cmd_run *r)
{
	int rc;

	fflush(stdout);
	if (r->z != NULL)
		cmd_report_refusals(stderr, r->z);
	/* the recording's problems are told whatever became of the output */
	rc = cmd_report_diags(r->s, r->co.strict);
	if (r->status == EXIT_OK)
		r->status = rc;
	if (r->check_write && ferror(stdout)) {
		fprintf(stderr, "perfnav: %s: write error\n", session_info(r->s).path);
		r->status = EXIT_FAIL;
	}
	return cmd_quit(r, r->status);
}

int
cmd_quit(struct cmd_run *r, int status)
{
	symbolizer_free(r->z);
	cmd_cache_close(r->s);
	session_close(r->s);
	r->z = NULL;
	r->s = NULL;
	return status;
}

int
cmd_offcpu(const char *cmd, const struct cmd_run *r, struct offcpu *oc)
{
	const char *in = textout_esc(r->co.input);

	switch (offcpu_build(r->s, oc)) {
	case OFFCPU_OK:
		break;
	case OFFCPU_NO_EVENT:
		fprintf(stderr, "perfnav %s: --off-cpu: %s has no sched:sched_switch samples, no PERF_RECORD_SWITCH records with samples and no offcpu-time event (record with perf record -e sched:sched_switch -g, --switch-events or --off-cpu)\n",
		    cmd, in);
		return -1;
	default:
		fprintf(stderr, "perfnav %s: --off-cpu: %s: no sched_switch format with prev_pid, next_pid and prev_state in its tracing data\n",
		    cmd, in);
		return -1;
	}
	if (oc->source == OFFCPU_SRC_SWITCH)
		fprintf(stderr, "perfnav %s: --off-cpu: from %s, approximate: each span charged to its thread's last sample before it; switch-outs of threads with no sample before, left out: %" PRIu64 "\n",
		    cmd, offcpu_source_name(oc->source), oc->nnosample);
	else if (oc->source == OFFCPU_SRC_BPF)
		fprintf(stderr, "perfnav %s: --off-cpu: from %s\n", cmd, offcpu_source_name(oc->source));
	/* a per-task recording has no switch-ins from idle: many switch-outs stay unpaired */
	if (offcpu_many_unpaired(oc))
		fprintf(stderr, "perfnav %s: --off-cpu: left out: %" PRIu64 " switch-outs never switched back in "
		    "(a recording without -a misses switch-ins from idle; a filter, those it drops)\n",
		    cmd, oc->nopen + oc->nagain);
	if (oc->nbad > 0)
		fprintf(stderr, "perfnav %s: --off-cpu: left out: %" PRIu64 " of %" PRIu64 " %s (damaged%s, or a span over 52 days)\n",
		    cmd, oc->nbad, oc->nswitch, offcpu_source_name(oc->source),
		    oc->source == OFFCPU_SRC_BPF ? "" : ", a switch-in timed before its switch-out");
	if (oc->nwakebad > 0)
		fprintf(stderr, "perfnav %s: --off-cpu: left out: %" PRIu64 " of %" PRIu64 " wakeups (no time, or a payload without its pid)\n",
		    cmd, oc->nwakebad, oc->nwake);
	return 0;
}
