#include "config.h"

#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/core.h"
#include "symbolize/bundle.h"
#include "symbolize/symbolizer.h"
#include "symbolize/symsrc.h"
#include "tui/cmd/cmd.h"
#include "tui/cmd/textout.h"

/*
 * perfnav bundle: the recording and what symbolizing it needs from this
 * machine, as a directory or a tar (symbolize/bundle.h), which perfnav and
 * every subcommand open on another machine.
 */

enum {
	OPT_WHOLE = 300,
};

struct bundle_args {
	const char	*out;
	bool		 whole;
};

static const struct cmd_opt bundle_opts[] = {
	{ "output", 1, 'o', "OUT: the bundle to write: a directory, or a tar file when OUT ends in .tar, .tar.gz, .tgz, .tar.bz2, .tar.xz or .tar.zst (default FILE.bundle)" },
	{ "whole", 0, OPT_WHOLE, "copy the DSOs' files whole, not trimmed to their symbols, DWARF and unwind tables (annotate then has their code)" },
	{ NULL, 0, 0, NULL },
};

static int
bundle_opt(void *arg, int val, const char *optarg)
{
	struct bundle_args *a = arg;

	switch (val) {
	case 'o':
		a->out = optarg;
		return 0;
	case OPT_WHOLE:
		a->whole = true;
		return 0;
	default:
		return -1;
	}
}

const struct cmd_spec bundle_spec = {
	.name = "bundle",
	.summary = "the recording with the symbols, DWARF and kernel and JIT symbol lines it needs, to open elsewhere",
	.run = cmd_bundle,
	.usage = "bundle [OPTIONS] [-o OUT] [FILE]\n\n"
	    "Write a self-contained recording: the perf.data and, for every DSO a sample\n"
	    "hits, the files its symbols came from (build-id cache, path, debug file),\n"
	    "trimmed to the symbol tables, DWARF and unwind tables (the code left out);\n"
	    "the kallsyms lines of the kernel functions hit; the perf-PID.map lines of\n"
	    "the JIT functions hit.  Laid out as perf's build-id cache, in a directory\n"
	    "or a tar.  'perfnav OUT' and every subcommand open it on another machine\n"
	    "and take symbols from it alone, giving the rows they give here.",
	.opts = bundle_opts,
	.fn = bundle_opt,
	.maxpos = 0,
};

/* Write the bundle's directory at dir.  0, or -1 (message printed). */
static int
write_dir(struct cmd_run *r, const char *dir, bool whole, struct bundle_stats *st)
{
	struct perf_err err;

	memset(&err, 0, sizeof err);
	if (mkdir(dir, 0755) < 0) {
		fprintf(stderr, "perfnav bundle: %s: cannot make the directory: %s\n",
		    textout_esc(dir), strerror(errno));
		return -1;
	}
	if (bundle_write(r->s, r->z, r->co.input, dir, whole, st, &err) < 0) {
		fprintf(stderr, "perfnav bundle: %s\n", textout_esc(err.msg));
		bundle_rmtree(dir);
		return -1;
	}
	return 0;
}

/* Write the tar out through a directory beside it. */
static int
write_tar(struct cmd_run *r, const char *out, bool whole, struct bundle_stats *st)
{
	char tmp[PATH_MAX];
	struct perf_err err;
	int rc;

	memset(&err, 0, sizeof err);
	dso_path(tmp, sizeof tmp, "%s.tmp-%ld", out, (long)getpid());
	if (write_dir(r, tmp, whole, st) < 0)
		return -1;
	rc = bundle_pack(tmp, out, &err);
	if (rc < 0)
		fprintf(stderr, "perfnav bundle: %s\n", textout_esc(err.msg));
	bundle_rmtree(tmp);
	return rc;
}

int
cmd_bundle(int argc, char **argv)
{
	struct bundle_args a = { NULL, false };
	struct bundle_stats st;
	struct cmd_run r;
	struct stat sb;
	char def[PATH_MAX];
	const char *out;
	int rc;

	if (cmd_begin(&r, argc, argv, &bundle_spec, &a) < 0)
		return r.status;
	if (stat(r.co.input, &sb) < 0 || !S_ISREG(sb.st_mode)) {
		fprintf(stderr, "perfnav bundle: %s: not a perf.data file (a pipe or a directory recording cannot be bundled)\n",
		    textout_esc(r.co.input));
		return cmd_quit(&r, EXIT_FAIL);
	}
	dso_path(def, sizeof def, "%s.bundle", r.co.bundle ? r.co.bundle : r.co.input);
	out = a.out ? a.out : def;
	if (lstat(out, &sb) == 0) {
		fprintf(stderr, "perfnav bundle: %s: exists already\n", textout_esc(out));
		return cmd_quit(&r, EXIT_FAIL);
	}
	if (cmd_load(&r, true) < 0)
		return r.status;
	cmd_symbolizer(&r);
	rc = bundle_tar_name(out) ? write_tar(&r, out, a.whole, &st) :
	    write_dir(&r, out, a.whole, &st);
	if (rc < 0)
		return cmd_quit(&r, EXIT_FAIL);
	printf("perfnav bundle: wrote %s: the files of %" PRIu64 " DSO%s with samples (%" PRIu64 " of their %" PRIu64 " bytes kept, %" PRIu64 " ELF file%s trimmed), %" PRIu64 " kallsyms line%s, %" PRIu64 " JIT map line%s\n",
	    textout_esc(out), st.dsos, st.dsos == 1 ? "" : "s", st.kept_bytes, st.src_bytes,
	    st.trimmed, st.trimmed == 1 ? "" : "s", st.ksym_lines, st.ksym_lines == 1 ? "" : "s",
	    st.jit_lines, st.jit_lines == 1 ? "" : "s");
	for (uint64_t i = 0; i < st.missing && i < 8; i++)
		fprintf(stderr, "perfnav bundle: %s: no file (or no build id) to bundle: its frames stay unresolved in the bundle\n",
		    textout_esc(st.missing_names[i]));
	if (st.missing > 8)
		fprintf(stderr, "perfnav bundle: %" PRIu64 " more DSOs with no file to bundle\n",
		    st.missing - 8);
	return cmd_end(&r);
}
