#include "config.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

#include "core/core.h"
#include "tui/cmd/cmd.h"
#include "tui/cmd/textout.h"

/*
 * perfnav header: the lines of "perf report --header-only -I" (perf 6.1),
 * then what perf does not show: every feature section's place, size and
 * decode status.
 */

/* ---- feature sections: their rows (core/feature.h) as lines ---- */

static void
print_rows(FILE *fp, const struct feat_rows *r)
{
	for (size_t i = 0; i < r->n; i++) {
		const struct feat_row *w = &r->v[i];

		fprintf(fp, "# %s%s%s%s%s", w->lead, w->label, w->value != NULL ? w->sep : "",
		    w->value != NULL ? w->value : "", w->open ? "" : "\n");
	}
}

/* What perf prints for one feature section. */
static void
print_feature(FILE *fp, const struct session *s, unsigned bit)
{
	struct feat_rows r = { NULL, 0, 0 };

	feature_describe(session_features(s), session_attrs(s), bit, &r);
	print_rows(fp, &r);
	feature_rows_free(&r);
}

/* ---- the header block ---- */

static void
print_captured_on(FILE *fp, const struct session *s)
{
	struct session_info si = session_info(s);
	struct stat st;
	int rc;

	if (si.from_stdin)
		rc = fstat(0, &st);
	else
		rc = stat(session_nfiles(s) > 0 ? session_file(s, 0)->path : si.path, &st);
	if (rc == 0) {
		time_t t = st.st_mtime;
		char buf[64];

		if (ctime_r(&t, buf) != NULL) {
			fprintf(fp, "# captured on    : %s", buf);
			return;
		}
	}
	fprintf(fp, "# captured on    : (unknown)\n");
}

static void
print_perf_header(FILE *fp, const struct session *s)
{
	const struct features *ft = session_features(s);
	struct session_info si = session_info(s);
	bool pipe = si.mode == SESSION_PIPE;
	uint64_t doff = pipe ? 0 : si.data_sec.offset, dsize = pipe ? 0 : si.data_sec.size;

	fprintf(fp, "# ========\n");
	print_captured_on(fp, s);
	fprintf(fp, "# header version : 1\n");
	fprintf(fp, "# data offset    : %" PRIu64 "\n", doff);
	fprintf(fp, "# data size      : %" PRIu64 "\n", dsize);
	fprintf(fp, "# feat offset    : %" PRIu64 "\n", pipe ? 0 : doff + dsize);
	if (pipe) {
		/* perf prints the HEADER_FEATURE records as it meets them. */
		fprintf(fp, "# ========\n#\n");
		for (uint32_t i = 0; i < ft->norder; i++)
			print_feature(fp, s, ft->order[i]);
		return;
	}
	for (unsigned bit = 1; bit <= PF_FEAT_LAST_KNOWN; bit++)
		if (ft->sec[bit].present)
			print_feature(fp, s, bit);
	/* perf 6.1's list: the features it knows (the newer ones print when present) */
	fprintf(fp, "# missing features: ");
	for (unsigned bit = 1; bit <= PF_FEAT_PMU_CAPS; bit++)
		if (!ft->sec[bit].present)
			fprintf(fp, "%s ", feat_name(bit));
	fprintf(fp, "\n# ========\n#\n");
}

/* The first bytes of a section perfnav cannot interpret, in hex. */
static void
print_raw(FILE *fp, const struct session *s, const struct feat_sec *fs)
{
	uint64_t n = fs->size < 32 ? fs->size : 32;
	const uint8_t *p = session_bytes(s, fs->offset, n);

	if (p == NULL)
		return;
	fprintf(fp, "#          raw:");
	for (uint64_t i = 0; i < n; i++)
		fprintf(fp, " %02x", p[i]);
	fprintf(fp, "%s\n", n < fs->size ? " ..." : "");
}

/* What perf does not show: where each section is and how it decoded. */
static void
print_sections(FILE *fp, const struct session *s)
{
	struct session_info si = session_info(s);
	const struct features *f = session_features(s);
	struct feat_rows notes = { NULL, 0, 0 };
	bool any = false;

	fprintf(fp, "# perfnav: feature sections (%s mode%s)\n",
	    si.mode == SESSION_PIPE ? "pipe" : si.mode == SESSION_DIR ? "directory" : "file",
	    si.swap ? ", other byte order" : "");
	fprintf(fp, "#   bit  feature          offset              size  status\n");
	for (unsigned bit = 0; bit < PF_FEAT_BITS; bit++) {
		const struct feat_sec *fs = &f->sec[bit];
		const char *name = feat_name(bit);
		char unk[32];

		if (!fs->present)
			continue;
		any = true;
		if (feature_end_marker(bit, fs->size)) {
			name = "(end marker)";
		} else if (name == NULL) {
			snprintf(unk, sizeof unk, "unknown-%u", bit);
			name = unk;
		}
		fprintf(fp, "#   %3u  %-15s  0x%-16" PRIx64 "  %-5" PRIu64 " %s%s%s\n", bit, name,
		    fs->offset, fs->size, feat_status_name(fs->status), fs->why ? ": " : "",
		    textout_esc(fs->why));
		if (feat_name(bit) == NULL && fs->size > 0)
			print_raw(fp, s, fs);
	}
	if (!any)
		fprintf(fp, "#   (none)\n");
	feature_notes(f, &notes);
	print_rows(fp, &notes);
	feature_rows_free(&notes);
}

const struct cmd_spec header_spec = {
	.name = "header",
	.summary = "the header and every feature section, as perf report --header-only -I",
	.run = cmd_header,
	.usage = "header [OPTIONS] [FILE]\n\n"
	    "Print the recording's header and feature sections with the lines of\n"
	    "'perf report --header-only -I', then each section's offset, size and\n"
	    "decode status.",
	.opts = NULL,
	.fn = NULL,
	.maxpos = 0,
};

int
cmd_header(int argc, char **argv)
{
	struct cmd_run r;

	if (cmd_begin(&r, argc, argv, &header_spec, NULL) < 0 || cmd_load(&r, false) < 0)
		return r.status;
	print_perf_header(stdout, r.s);
	print_sections(stdout, r.s);
	return cmd_end(&r);
}
