#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/core.h"
#include "tui/cmd/cmd.h"
#include "tui/cmd/textout.h"

/*
 * perfnav merge: several recordings written as one perf.data
 * (core/merge.h), and --merge, which opens several as one through a
 * temporary merged file.
 */

struct merge_args {
	const char	*out;
};

static const struct cmd_opt merge_opts[] = {
	{ "output", 1, 'o', "OUT: the merged recording to write (required)" },
	{ NULL, 0, 0, NULL },
};

static int
merge_opt(void *arg, int val, const char *optarg)
{
	struct merge_args *a = arg;

	if (val != 'o')
		return -1;
	a->out = optarg;
	return 0;
}

const struct cmd_spec merge_spec = {
	.name = "merge",
	.summary = "several recordings (runs, hosts) written as one perf.data, each sample's input its sort key file",
	.run = cmd_merge,
	.usage = "merge [OPTIONS] -o OUT FILE FILE...\n\n"
	    "Write the recordings as one file-mode perf.data that perf report and perfnav\n"
	    "read: events paired by name (an event of some inputs only is kept), each\n"
	    "input's records after the one before, their timestamps as recorded, the\n"
	    "host's header sections (hostname, CPU...) of the first input that has them,\n"
	    "and a section naming each input, which the sort key file (perfnav top --sort\n"
	    "file,comm,dso,sym), the browser and export --format pprof's label file\n"
	    "read.  Inputs that disagree on an event's sample format, or whose sample\n"
	    "ids clash, are refused with a message naming the file.  'perfnav FILE\n"
	    "FILE... --merge' (and top, folded, export ... --merge) open several\n"
	    "recordings as one without writing OUT.",
	.opts = merge_opts,
	.fn = merge_opt,
	.maxpos = -1,
};

/* Is path one of the files of s? */
static bool
same_file(const struct stat *o, const struct session *s)
{
	struct stat in;

	for (size_t i = 0; i < session_nfiles(s); i++)
		if (stat(session_file(s, i)->path, &in) == 0 && in.st_dev == o->st_dev &&
		    in.st_ino == o->st_ino)
			return true;
	return false;
}

/*
 * Open the n files and merge them to fd (out: the output's name, for
 * messages and, when it exists, the check that it is no input).  The
 * inputs' problems are said on stderr.  Returns EXIT_OK, or the exit
 * status.
 */
static int
merge_files(const struct common_opts *co, char **files, size_t n, int fd, const char *out,
    const char *cmd, struct merge_result *res)
{
	struct session **s = xcalloc(n, sizeof *s);
	struct merge_input *in = xcalloc(n, sizeof *in);
	struct stat ost;
	struct perf_err err;
	bool have_ost = stat(out, &ost) == 0;
	int status = EXIT_OK, rc;

	memset(&err, 0, sizeof err);
	for (size_t i = 0; i < n && status == EXIT_OK; i++) {
		struct common_opts c = *co;

		c.input = files[i];
		if ((s[i] = cmd_open(&c, true)) == NULL) {
			status = EXIT_FAIL;
			break;
		}
		if (have_ost && same_file(&ost, s[i])) {
			fprintf(stderr, "perfnav %s: %s: that is an input\n", cmd, textout_esc(out));
			status = EXIT_USAGE;
		}
		rc = cmd_report_diags(s[i], co->strict);
		if (rc != EXIT_OK)
			status = rc;
		in[i].s = s[i];
		in[i].name = files[i];
	}
	if (status == EXIT_OK && merge_write(in, n, fd, res, &err) < 0) {
		fprintf(stderr, "perfnav %s: %s\n", cmd, textout_esc(err.msg));
		status = EXIT_FAIL;
	}
	for (size_t i = 0; i < n; i++) {
		cmd_cache_close(s[i]);	/* its cache entry's save waited for, a failure said */
		session_close(s[i]);
	}
	free(s);
	free(in);
	return status;
}

/* The files to merge: the first positional (co->input) and the others. */
static char **
input_list(const struct common_opts *co, char **pos, int npos, size_t *n)
{
	char **v = xcalloc((size_t)npos + 1, sizeof *v);

	v[0] = (char *)co->input;
	for (int i = 0; i < npos; i++)
		v[i + 1] = pos[i];
	*n = (size_t)npos + 1;
	return v;
}

int
cmd_merge(int argc, char **argv)
{
	struct merge_args a = { NULL };
	struct merge_result res;
	struct cmd_run r;
	char **files, tmp[PATH_MAX];
	size_t n;
	int fd, status;

	if (cmd_begin(&r, argc, argv, &merge_spec, &a) < 0)
		return r.status;
	if (a.out == NULL || r.npos < 1) {
		fprintf(stderr, "perfnav merge: %s (perfnav merge -o OUT FILE FILE...)\n",
		    a.out == NULL ? "no -o OUT" : "one file: nothing to merge it with");
		return cmd_quit(&r, EXIT_USAGE);
	}
	/* written beside OUT, renamed over it once whole: no half-written OUT, ever */
	snprintf(tmp, sizeof tmp, "%s.tmp-%ld", a.out, (long)getpid());
	if ((fd = open(tmp, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644)) < 0) {
		fprintf(stderr, "perfnav merge: %s: %s\n", textout_esc(tmp), strerror(errno));
		return cmd_quit(&r, EXIT_FAIL);
	}
	files = input_list(&r.co, r.pos, r.npos, &n);
	memset(&res, 0, sizeof res);
	status = merge_files(&r.co, files, n, fd, a.out, "merge", &res);
	if (close(fd) != 0 && status == EXIT_OK) {
		fprintf(stderr, "perfnav merge: %s: %s\n", textout_esc(tmp), strerror(errno));
		status = EXIT_FAIL;
	}
	if (status == EXIT_OK && rename(tmp, a.out) != 0) {
		fprintf(stderr, "perfnav merge: %s: %s\n", textout_esc(a.out), strerror(errno));
		status = EXIT_FAIL;
	}
	if (status != EXIT_OK)
		unlink(tmp);
	else
		fprintf(stderr, "perfnav merge: %s: %zu recordings, %zu events, %" PRIu64 " samples, %" PRIu64 " records, %" PRIu64 " bytes\n",
		    textout_esc(a.out), n, res.nattrs, res.samples, res.records, res.size);
	free(files);
	return cmd_quit(&r, status);
}

static char merged_tmp[PATH_MAX];

static void
merged_unlink(void)
{
	if (merged_tmp[0] != '\0')
		unlink(merged_tmp);
}

void
cmd_merge_opened(const char *path)
{
	if (merged_tmp[0] != '\0' && path == merged_tmp)
		unlink(merged_tmp);
}

int
cmd_merge_inputs(struct common_opts *co, char **pos, int *npos, const char *cmd)
{
	const char *tmpdir = getenv("TMPDIR");
	struct merge_result res;
	char **files;
	size_t n;
	int fd, status;

	if (merged_tmp[0] != '\0')
		return 0;	/* merged already */
	if (tmpdir == NULL || tmpdir[0] != '/')
		tmpdir = "/tmp";
	snprintf(merged_tmp, sizeof merged_tmp, "%s/perfnav-merge-XXXXXX", tmpdir);
	if ((fd = mkstemp(merged_tmp)) < 0) {
		fprintf(stderr, "perfnav%s%s: --merge: %s: %s\n", cmd[0] ? " " : "", cmd,
		    textout_esc(merged_tmp), strerror(errno));
		merged_tmp[0] = '\0';
		return -1;
	}
	atexit(merged_unlink);
	files = input_list(co, pos, *npos, &n);
	memset(&res, 0, sizeof res);
	status = merge_files(co, files, n, fd, merged_tmp, cmd[0] ? cmd : "--merge", &res);
	free(files);
	if (close(fd) != 0 || status != EXIT_OK)
		return -1;
	co->input = merged_tmp;
	co->no_cache = true;
	*npos = 0;
	return 0;
}
