#include "config.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/core.h"
#include "symbolize/hist.h"
#include "symbolize/offcpu.h"
#include "symbolize/symbolizer.h"
#include "tui/cmd/cmd.h"
#include "tui/cmd/filter_opts.h"
#include "tui/cmd/textout.h"

/*
 * perfnav folded: one line per distinct stack, "comm;outer;...;inner COUNT",
 * the input of flamegraph.pl and speedscope.  Counts are samples (or the
 * sample period with --period) of one event.
 */

enum {
	OPT_EVENT = 300,
	OPT_PERIOD,
	OPT_MAX_STACK,
	OPT_OFF_CPU,
	OPT_ADDRESSES,
};

struct folded_args {
	const char	*event;
	bool		 period;
	long		 max_stack;
	bool		 off_cpu;	/* --off-cpu */
	bool		 addresses;	/* --addresses */
	struct filter_opts fo;		/* --time, --pid, --tid, --comms, --cpu, --dsos, --symbols */
};

static const struct cmd_opt folded_opts[] = {
	{ "event", 1, OPT_EVENT, "NAME: the event to fold (default: the first with samples; off-cpu: the off-CPU time, as --off-cpu)" },
	{ "period", 0, OPT_PERIOD, "count the sample period instead of samples" },
	{ "max-stack", 1, OPT_MAX_STACK, "N: use at most N callchain frames (default 127, as perf)" },
	{ "off-cpu", 0, OPT_OFF_CPU, "fold off-CPU time instead, as perfnav top --off-cpu counts it (from sched:sched_switch samples, else PERF_RECORD_SWITCH records, approximate, else offcpu-time samples): each stack's count is its off-CPU nanoseconds" },
	{ "addresses", 0, OPT_ADDRESSES, "a frame without a symbol by its address, as the browser's call trees and flame graph name it (0x1a2b, the null frame 0), not [unknown] or [DSO]" },
	FILTER_OPTS_SAMPLES,
	{ NULL, 0, 0, NULL },
};

static int
folded_opt(void *arg, int val, const char *optarg)
{
	struct folded_args *a = arg;

	switch (val) {
	case OPT_EVENT:
		/* the browser's off-CPU event, as its scope-command writes it: --off-cpu */
		if (strcmp(optarg, OFFCPU_EVENT_NAME) == 0) {
			a->off_cpu = a->period = true;
			break;
		}
		a->event = optarg;
		break;
	case OPT_PERIOD:
		a->period = true;
		break;
	case OPT_ADDRESSES:
		a->addresses = true;
		break;
	case OPT_MAX_STACK:
		return opts_count(optarg, INT32_MAX, &a->max_stack);
	case OPT_OFF_CPU:
		a->off_cpu = true;
		a->period = true;	/* the counts are nanoseconds */
		break;
	default:
		if (filter_opt_is(val)) {
			char msg[FILTER_OPTS_MSG];

			if (filter_opts_take(&a->fo, val, optarg, msg, sizeof msg) == 0)
				return 0;
			fprintf(stderr, "perfnav folded: %s\n", msg);
		}
		return -1;
	}
	return 0;
}

struct line {
	char		*text;
	uint64_t	 count;
};

struct lines {
	struct line	*v;
	size_t		 n, cap;
};

static int
collect(void *arg, const char *text, uint64_t count)
{
	struct lines *l = arg;

	GROW(l->v, l->cap, l->n + 1);
	l->v[l->n].text = xstrdup(text);
	l->v[l->n++].count = count;
	return 0;
}

static int
cmp_line(const void *a, const void *b)
{
	return strcmp(((const struct line *)a)->text, ((const struct line *)b)->text);
}

const struct cmd_spec folded_spec = {
	.name = "folded",
	.summary = "folded stacks for flamegraph.pl and speedscope",
	.run = cmd_folded,
	.usage = "folded [OPTIONS] [FILE]\n\n"
	    "Folded stacks, one line per distinct stack: 'comm;outer;...;inner COUNT',\n"
	    "for flamegraph.pl and speedscope; the scope options leave other samples\n"
	    "out, as perf script's do.",
	.opts = folded_opts,
	.fn = folded_opt,
	.maxpos = 0,
};

int
cmd_folded(int argc, char **argv)
{
	struct folded_args a = { .max_stack = HIST_DEFAULT_MAX_STACK };
	struct cmd_run r;
	struct hist_opts ho;
	struct lines l = { NULL, 0, 0 };
	struct session *s;
	struct symbolizer *z;
	struct hist *h;
	struct offcpu oc = { 0 };
	char msg[FILTER_OPTS_MSG];

	if (cmd_begin(&r, argc, argv, &folded_spec, &a) < 0 || cmd_load(&r, true) < 0) {
		filter_opts_free(&a.fo);
		return r.status;
	}
	s = r.s;
	memset(&ho, 0, sizeof ho);
	if (filter_opts_setup(&a.fo, s, r.co.input, msg, sizeof msg) < 0) {
		fprintf(stderr, "perfnav folded: %s\n", msg);
		filter_opts_free(&a.fo);
		return cmd_quit(&r, EXIT_USAGE);
	}
	ho.filter = filter_opts_filter(&a.fo);
	ho.event = -1;
	if (a.event != NULL) {
		for (size_t i = 0; i < session_attrs(s)->n; i++)
			if (strcmp(session_attr_name(s, (int)i), a.event) == 0)
				ho.event = (int)i;
		if (ho.event < 0) {
			fprintf(stderr, "perfnav folded: %s: no event '%s'\n", r.co.input, a.event);
			filter_opts_free(&a.fo);
			return cmd_quit(&r, EXIT_USAGE);
		}
	}
	if (a.off_cpu && cmd_offcpu("folded", &r, &oc) < 0) {
		filter_opts_free(&a.fo);
		return cmd_quit(&r, EXIT_USAGE);
	}
	ho.offcpu = a.off_cpu ? &oc : NULL;
	ho.keys[0] = HIST_KEY_SYM;
	ho.nkeys = 1;
	ho.callgraph = true;
	ho.fold_addresses = a.addresses;
	ho.max_stack = (unsigned)a.max_stack;
	z = cmd_symbolizer(&r);
	h = hist_new(s, z, &ho);
	hist_add_session(h, NULL);
	hist_finish(h);
	if (hist_nevents(h) > 1)
		fprintf(stderr, "perfnav folded: %s: %zu events have samples; folding '%s' "
		    "(choose with --event)\n", r.co.input, hist_nevents(h),
		    textout_esc(hist_str(h, hist_event(h, 0)->name)));
	hist_folded(h, 0, a.period, collect, &l);
	if (l.n > 1)
		qsort(l.v, l.n, sizeof *l.v, cmp_line);
	for (size_t i = 0; i < l.n; i++) {
		printf("%s %" PRIu64 "\n", textout_esc(l.v[i].text), l.v[i].count);
		free(l.v[i].text);
	}
	free(l.v);
	hist_free(h);
	offcpu_free(&oc);
	filter_opts_free(&a.fo);
	return cmd_end(&r);
}
