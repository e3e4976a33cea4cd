#include "config.h"

#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "core/core.h"
#include "tui/cmd.h"

static void
type_label(uint32_t t, char *buf, size_t n)
{
	const char *name = record_type_name(t);

	if (name != NULL)
		snprintf(buf, n, "%s", name);
	else
		snprintf(buf, n, "UNKNOWN%u", t);
}

/* The "Aggregated stats:" block of perf report --stats. */
static void
print_stats(FILE *fp, const struct session *s)
{
	const struct type_counts *c = &s->counts;
	char label[32];

	fprintf(fp, "\nAggregated stats:%s\n",
	    c->by_type[PF_REC_AUXTRACE] || c->by_type[PF_REC_AUXTRACE_INFO] ?
	    " (excludes AUX area (e.g. instruction trace) decoded / synthesized events)" : "");
	fprintf(fp, "%16s events: %10" PRIu64 "\n", "TOTAL", c->total);
	for (uint32_t t = 1; t < SESSION_NTYPES; t++) {
		if (c->by_type[t] == 0)
			continue;
		type_label(t, label, sizeof label);
		fprintf(fp, "%16s events: %10" PRIu64 "  (%4.1f%%)\n", label, c->by_type[t],
		    c->total ? 100.0 * (double)c->by_type[t] / (double)c->total : 0.0);
	}
	for (size_t a = 0; a < s->nattr_counts; a++) {
		const struct type_counts *ac = &s->attr_counts[a];

		if (ac->total == 0)
			continue;
		fprintf(fp, "%s stats:\n", session_attr_name(s, (int)a));
		for (uint32_t t = 1; t < SESSION_NTYPES; t++) {
			if (ac->by_type[t] == 0)
				continue;
			type_label(t, label, sizeof label);
			fprintf(fp, "%16s events: %10" PRIu64 "\n", label, ac->by_type[t]);
		}
	}
}

int
cmd_stats(int argc, char **argv)
{
	struct common_opts co;
	struct session *s;
	char **pos;
	int npos, status = EXIT_OK;

	if (opts_parse(argc, argv, "stats [OPTIONS] [FILE]\n\n"
	    "Count the records of a recording by type, and samples per event,\n"
	    "as 'perf report --stats' prints them.", NULL, NULL, NULL, &co, &pos, &npos,
	    &status))
		return status;
	if (npos > 0) {
		fprintf(stderr, "perfnav stats: unexpected argument '%s'\n", pos[0]);
		return EXIT_USAGE;
	}
	s = cmd_open(&co, false);
	if (s == NULL)
		return EXIT_FAIL;
	print_stats(stdout, s);
	status = cmd_report_diags(s);
	session_close(s);
	return status;
}
