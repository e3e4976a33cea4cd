#include "config.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/core.h"
#include "symbolize/annotate.h"
#include "symbolize/hist.h"
#include "symbolize/symbolizer.h"
#include "tui/cmd/cmd.h"
#include "tui/cmd/filter_opts.h"
#include "tui/cmd/textout.h"

/*
 * perfnav annotate [FILE] [SYMBOL]: a function's disassembly with the share
 * of its samples at each instruction and its source lines, like perf
 * annotate --stdio.  Without SYMBOL, the hottest function of the event.
 */

enum {
	OPT_EVENT = 300,
	OPT_OBJDUMP,
	OPT_NO_SOURCE,
	OPT_DSO,
};

struct annotate_args {
	const char	*event;
	const char	*objdump;
	const char	*dso;
	bool		 no_source;
	bool		 nr_samples;
	struct filter_opts fo;		/* --time, --pid, --tid, --comms, --cpu, --dsos, --symbols */
};

static const struct cmd_opt annotate_opts[] = {
	{ "event", 1, OPT_EVENT, "NAME: the event whose samples count (default: the first with samples)" },
	{ "dso", 1, OPT_DSO, "NAME: only a symbol of this DSO (short or long name)" },
	{ "objdump", 1, OPT_OBJDUMP, "PATH: the objdump to disassemble with (default: objdump)" },
	{ "no-source", 0, OPT_NO_SOURCE, "no source file:line rows" },
	{ "show-nr-samples", 0, 'n', "a column with the samples of each instruction" },
	FILTER_OPTS_SAMPLES,
	{ NULL, 0, 0, NULL },
};

static int
annotate_opt(void *arg, int val, const char *optarg)
{
	struct annotate_args *a = arg;

	switch (val) {
	case OPT_EVENT:
		a->event = optarg;
		break;
	case OPT_OBJDUMP:
		a->objdump = optarg;
		break;
	case OPT_DSO:
		a->dso = optarg;
		break;
	case OPT_NO_SOURCE:
		a->no_source = true;
		break;
	case 'n':
		a->nr_samples = true;
		break;
	default:
		if (filter_opt_is(val)) {
			char msg[FILTER_OPTS_MSG];

			if (filter_opts_take(&a->fo, val, optarg, msg, sizeof msg) == 0)
				return 0;
			fprintf(stderr, "perfnav annotate: %s\n", msg);
		}
		return -1;
	}
	return 0;
}

static void
print_annotation(const struct annotation *an, const struct annotate_args *a,
    const struct symbolizer *z, const char *event)
{
	/* a copy: it is printed again after other names were escaped */
	char *dso = xstrdup(textout_esc(symbolizer_dso_long(z, an->dso)));
	int w = a->nr_samples ? 10 : 0;

	printf(" Percent |%s      Source code & Disassembly of %s for %s (%" PRIu64 " samples, "
	    "percent: local period)\n", a->nr_samples ? "    Samples |" : "", dso, textout_esc(event),
	    an->samples);
	printf("--------------------------------------------------------------------------------"
	    "--------\n");
	printf("%9s:%s  %s() %s\n", "", a->nr_samples ? "            :" : "",
	    textout_esc(symbolizer_sym_name(z, an->sym)), dso);
	if (an->note[0])
		printf("%9s:%s  (%s)\n", "", a->nr_samples ? "            :" : "",
		    textout_esc(an->note));
	for (size_t i = 0; i < an->nrows; i++) {
		const struct annot_row *r = &an->rows[i];
		double pct = an->period ? 100.0 * (double)r->period / (double)an->period : 0;

		if (r->kind == ANNOT_SRC) {
			printf("%9s:%s  %s\n", "", a->nr_samples ? "            :" : "",
			    textout_esc(annotate_row_text(an, r)));
			continue;
		}
		printf("%8.2f :", pct);
		if (w)
			printf(" %*" PRIu64 " :", w, r->samples);
		if (r->kind == ANNOT_ADDR)
			printf("   %" PRIx64 ":\n", r->vaddr);
		else
			printf("   %" PRIx64 ":  %s\n", r->vaddr,
			    textout_esc(annotate_row_text(an, r)));
	}
	free(dso);
}

/*
 * The row of event ev to annotate: the hottest with a symbol, named want
 * unless want is NULL, in the DSO a->dso names unless it is NULL.  NULL
 * if none; *matches counts the rows that qualify (1 at most without want).
 */
static const struct hist_entry *
pick_row(struct hist *h, size_t ev, const struct symbolizer *z, const struct annotate_args *a,
    const char *want, size_t *matches)
{
	const struct hist_entry *best = NULL;
	const uint32_t *rows;
	size_t nrows = hist_rows(h, ev, 0, &rows);

	*matches = 0;
	/* rows come hottest first: the first match is the one */
	for (size_t i = 0; i < nrows; i++) {
		const struct hist_entry *e = hist_entry_get(h, rows[i]);
		const struct hist_node *nd = hist_node_get(h, e->node);

		if (nd == NULL || nd->f.sym == SYM_NONE)
			continue;
		if (want != NULL && strcmp(symbolizer_label_name(hist_str(h, nd->label)), want) != 0)
			continue;
		if (a->dso != NULL && strcmp(symbolizer_dso_short(z, e->dso), a->dso) != 0 &&
		    strcmp(symbolizer_dso_long(z, e->dso), a->dso) != 0)
			continue;
		if (best == NULL)
			best = e;
		(*matches)++;
		if (want == NULL)
			break;
	}
	return best;
}

const struct cmd_spec annotate_spec = {
	.name = "annotate",
	.summary = "a function's instructions with their samples, as perf annotate --stdio",
	.run = cmd_annotate,
	.usage = "annotate [OPTIONS] [FILE] [SYMBOL]\n\n"
	    "A function's instructions with the share of its samples at each, and its\n"
	    "source lines (perf annotate --stdio).  Without SYMBOL: the hottest function.\n"
	    "The scope options leave other samples out, as perf annotate's --cpu and --dsos do.",
	.opts = annotate_opts,
	.fn = annotate_opt,
	.maxpos = 1,
};

int
cmd_annotate(int argc, char **argv)
{
	struct annotate_args a;
	struct cmd_run r;
	struct hist_opts ho;
	struct annot_opts ao;
	struct session *s;
	struct symbolizer *z;
	struct hist *h;
	struct annotation *an;
	const struct hist_entry *best;
	const char *want = NULL, *why = NULL;
	char msg[FILTER_OPTS_MSG];
	int attr = -1;
	size_t ev = 0, matches;

	memset(&a, 0, sizeof a);
	if (cmd_begin(&r, argc, argv, &annotate_spec, &a) < 0 || cmd_load(&r, true) < 0) {
		filter_opts_free(&a.fo);
		return r.status;
	}
	if (r.npos == 1)
		want = r.pos[0];
	s = r.s;
	if (filter_opts_setup(&a.fo, s, r.co.input, msg, sizeof msg) < 0) {
		fprintf(stderr, "perfnav annotate: %s\n", msg);
		filter_opts_free(&a.fo);
		return cmd_quit(&r, EXIT_USAGE);
	}
	if (a.event != NULL) {
		for (size_t i = 0; i < session_attrs(s)->n; i++)
			if (strcmp(session_attr_name(s, (int)i), a.event) == 0)
				attr = (int)i;
		if (attr < 0) {
			fprintf(stderr, "perfnav annotate: %s: no event '%s'\n", r.co.input, a.event);
			filter_opts_free(&a.fo);
			return cmd_quit(&r, EXIT_USAGE);
		}
	}
	memset(&ho, 0, sizeof ho);
	ho.event = attr;
	ho.keys[0] = HIST_KEY_DSO;
	ho.keys[1] = HIST_KEY_SYM;
	ho.nkeys = 2;
	ho.filter = filter_opts_filter(&a.fo);
	z = cmd_symbolizer(&r);
	h = hist_new(s, z, &ho);
	hist_add_session(h, NULL);
	hist_finish(h);
	if (hist_nevents(h) == 0) {
		fprintf(stderr, "perfnav annotate: %s: no samples\n", r.co.input);
		r.status = EXIT_FAIL;
		goto out;
	}
	if (attr < 0 && hist_nevents(h) > 1)
		fprintf(stderr, "perfnav annotate: %s: %zu events have samples; counting '%s' "
		    "(choose with --event)\n", r.co.input, hist_nevents(h),
		    textout_esc(hist_str(h, hist_event(h, 0)->name)));
	best = pick_row(h, ev, z, &a, want, &matches);
	if (best == NULL) {
		if (want != NULL)
			fprintf(stderr, "perfnav annotate: %s: no samples in a symbol named '%s'%s%s\n",
			    r.co.input, want, a.dso ? " in " : "", a.dso ? a.dso : "");
		else
			fprintf(stderr, "perfnav annotate: %s: no sample resolved to a symbol\n",
			    r.co.input);
		r.status = EXIT_FAIL;
		goto out;
	}
	if (matches > 1)
		fprintf(stderr, "perfnav annotate: %s: %zu symbols match; annotating the one in %s "
		    "(choose with --dso)\n", r.co.input, matches,
		    textout_esc(symbolizer_dso_short(z, best->dso)));
	an = annotate_new(z, hist_node_get(h, best->node)->f.sym, &why);
	if (an == NULL) {
		fprintf(stderr, "perfnav annotate: %s\n", textout_esc(why));
		r.status = EXIT_FAIL;
		goto out;
	}
	annotate_collect_filter(an, s, hist_event(h, ev)->attr, 0, session_index(s)->n, ho.filter,
	    NULL, NULL);
	memset(&ao, 0, sizeof ao);
	ao.objdump = a.objdump;
	ao.no_source = a.no_source;
	annotate_build(an, &ao);
	print_annotation(an, &a, z, hist_str(h, hist_event(h, ev)->name));
	annotate_free(an);
out:
	hist_free(h);
	filter_opts_free(&a.fo);
	return cmd_end(&r);
}
