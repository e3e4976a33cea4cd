#include "config.h"

#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "core/core.h"
#include "tui/cmd/cmd.h"
#include "tui/cmd/textout.h"

/* The "Aggregated stats:" block of perf report --stats. */
static void
print_stats(FILE *fp, const struct session *s)
{
	const struct type_counts *c = session_counts(s);
	char label[32];

	fprintf(fp, "\nAggregated stats:%s\n",
	    c->by_type[PF_REC_AUXTRACE] || c->by_type[PF_REC_AUXTRACE_INFO] ?
	    " (excludes AUX area (e.g. instruction trace) decoded / synthesized events)" : "");
	fprintf(fp, "%16s events: %10" PRIu64 "\n", "TOTAL", c->total);
	for (uint32_t t = 1; t < SESSION_NTYPES; t++) {
		if (c->by_type[t] == 0)
			continue;
		fprintf(fp, "%16s events: %10" PRIu64 "  (%4.1f%%)\n",
		    text_record_type(label, sizeof label, t), c->by_type[t],
		    c->total ? 100.0 * (double)c->by_type[t] / (double)c->total : 0.0);
	}
	for (size_t a = 0; session_attr_counts(s, a) != NULL; a++) {
		const struct type_counts *ac = session_attr_counts(s, a);

		if (ac->total == 0)
			continue;
		fprintf(fp, "%s stats:\n", textout_esc(session_attr_name(s, (int)a)));
		for (uint32_t t = 1; t < SESSION_NTYPES; t++) {
			if (ac->by_type[t] == 0)
				continue;
			fprintf(fp, "%16s events: %10" PRIu64 "\n",
			    text_record_type(label, sizeof label, t), ac->by_type[t]);
		}
	}
}

/* What building the full index cost (stats --index). */
static void
print_index(FILE *fp, const struct session *s)
{
	const struct thread_table *tt = session_threads(s);
	struct session_info si = session_info(s);
	const struct rec_index *ix = session_index(s);

	size_t each = sizeof(struct rec_ent) + (index_has_who(ix) ? sizeof(uint64_t) : 0);

	fprintf(fp, "\n# index: %zu records, %zu bytes each (%.1f MiB; %zu while loading), "
	    "%zu without a timestamp\n", ix->n, each, (double)(ix->n * each) / (1024.0 * 1024.0),
	    sizeof(struct load_ent), ix->n_untimed);
	fprintf(fp, "# threads: %zu, comm changes: %zu, maps: %zu\n", tt->n,
	    tt->ncomms, tt->nmaps);
	fprintf(fp, "# seconds: open %.3f, walk+index %.3f, sort %.3f, threads %.3f\n", si.t_open,
	    si.t_walk, si.t_sort, si.t_threads);
}

static const struct cmd_opt stats_opts[] = {
	{ "index", 0, 'I', "also build the full time-ordered index and the thread table, and say what they cost" },
	{ NULL, 0, 0, NULL },
};

static int
stats_opt(void *arg, int val, const char *optarg)
{
	(void)optarg;
	if (val == 'I')
		*(bool *)arg = true;
	return 0;
}

const struct cmd_spec stats_spec = {
	.name = "stats",
	.summary = "record counts by type and samples per event, as perf report --stats",
	.run = cmd_stats,
	.usage = "stats [OPTIONS] [FILE]\n\n"
	    "Count the records of a recording by type, and samples per event,\n"
	    "as 'perf report --stats' prints them.",
	.opts = stats_opts,
	.fn = stats_opt,
	.maxpos = 0,
};

int
cmd_stats(int argc, char **argv)
{
	struct cmd_run r;
	bool index = false;

	if (cmd_begin(&r, argc, argv, &stats_spec, &index) < 0 || cmd_load(&r, index) < 0)
		return r.status;
	print_stats(stdout, r.s);
	if (index)
		print_index(stdout, r.s);
	return cmd_end(&r);
}
