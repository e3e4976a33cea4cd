#include "config.h"

#include <inttypes.h>
#include <limits.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/core.h"
#include "symbolize/brhist.h"
#include "symbolize/cpath.h"
#include "symbolize/filter.h"
#include "symbolize/hist.h"
#include "symbolize/offcpu.h"
#include "symbolize/parallel.h"
#include "symbolize/pt/intel_pt.h"
#include "symbolize/symbolizer.h"
#include "symbolize/unwind.h"
#include "tui/cmd/cmd.h"
#include "tui/cmd/filter_opts.h"
#include "tui/cmd/textout.h"
#include "tui/cmd/top_graph.h"
#include "tui/cmd/top_table.h"

enum {
	OPT_SORT = 300,
	OPT_CHILDREN,
	OPT_NO_CHILDREN,
	OPT_EVENT,
	OPT_TSV,
	OPT_PCT,
	OPT_MAX_STACK,
	OPT_WHY,
	OPT_STDIO,
	OPT_PATH_STATS,
	OPT_BRANCH,
	OPT_NO_BRANCH,
	OPT_MEM,
	OPT_BRANCH_HISTORY,
	OPT_OFF_CPU,
	OPT_LATENCY,
	OPT_PARALLELISM,
};

struct top_args {
	const char	*sort;
	int		 children;	/* -1: as the recording (callchains -> on) */
	const char	*event;
	bool		 tsv, why;
	double		 pct;
	long		 max_stack;
	bool		 graph;		/* -g or -G given */
	bool		 path_stats;	/* --path-stats */
	bool		 inverted;	/* -G */
	enum hist_branch branch;	/* --branch-stack, --no-branch-stack */
	bool		 mem_mode;	/* --mem-mode */
	bool		 branch_history;	/* --branch-history */
	bool		 off_cpu;	/* --off-cpu */
	bool		 latency;	/* --latency */
	bool		 par_filter;	/* --parallelism given */
	struct cg_opts	 cg;
	struct filter_opts fo;		/* --time, --pid, --tid, --comms, --cpu, --dsos, --symbols */
};

static const struct cmd_opt top_opts[] = {
	{ "sort", 1, OPT_SORT, "KEYS: comma-separated sort keys: comm,pid (per thread, as perf; also tid),process,dso,sym,cpu,srcline,trace,local_weight,weight,local_ins_lat,ins_lat,parallelism; with --off-cpu also state,waker (default comm,dso,sym); in branch mode also dso_from,dso_to,symbol_from,symbol_to,cycles (default comm,dso_from,symbol_from,symbol_to,cycles); with --mem-mode also symbol_daddr,dso_daddr,mem,tlb,snoop,locked,blocked,data_page_size,phys_daddr,dcacheline" },
	{ "branch-stack", 0, OPT_BRANCH, "branch mode (the default when the recording has branch stacks): a row of period 1 per branch entry, from -> to" },
	{ "branch-history", 0, OPT_BRANCH_HISTORY, "perf's branch history: each sample's branch stack (LBR) goes into its call graph, its targets and sources as frames keyed by address, with the branches' types, prediction, cycles and loop iterations; rows per sample (default keys srcline,sym,dso), call graphs printed" },
	{ "no-branch-stack", 0, OPT_NO_BRANCH, "a row per sample even when the recording has branch stacks" },
	{ "mem-mode", 0, OPT_MEM, "memory mode: a sample's period is its weight; the memory sort keys (default local_weight,mem,sym,dso,symbol_daddr,dso_daddr,snoop,tlb,locked,blocked,local_ins_lat)" },
	{ "off-cpu", 0, OPT_OFF_CPU, "off-CPU time: each time a thread is switched out until it is next switched in, charged to the stack it was switched out with, in the event off-cpu (period in ns); switch-outs never switched back in are left out. From sched:sched_switch samples (perf record -e sched:sched_switch -g), else PERF_RECORD_SWITCH records (--switch-events; approximate: the stack is the thread's last sample before the switch-out), else perf record --off-cpu's offcpu-time samples (their period)" },
	{ "latency", 0, OPT_LATENCY, "perf 6.15's latency profile (needs switch events): a Latency column before each Overhead one, each sample's period over its parallelism (threads on a CPU then, from switch and exit records); rows sorted by it" },
	{ "parallelism", 1, OPT_PARALLELISM, "LEVELS: rows of samples of these parallelisms only, e.g. 1-2 (serial phases), 1,64-128 (totals unchanged, as perf 6.15's)" },
	{ "children", 0, OPT_CHILDREN, "add the periods of callees to callers (default with callchains, except for --tsv)" },
	{ "no-children", 0, OPT_NO_CHILDREN, "self overhead only (default without callchains)" },
	{ "event", 1, OPT_EVENT, "NAME: only this event (off-cpu: the off-CPU time, as --off-cpu)" },
	{ "tsv", 0, OPT_TSV, "tab-separated rows: EVENT [CHILDREN_PCT] SELF_PCT SAMPLES KEY...; with --latency a LAT_ before each _PCT" },
	{ "percent-limit", 1, OPT_PCT, "P: hide rows under P percent (and, as perf, call-graph nodes, unless a later -g gives a minimum)" },
	{ "max-stack", 1, OPT_MAX_STACK, "N: use at most N callchain frames (default 127, as perf)" },
	{ "call-graph", 1, 'g', "TYPE,MIN,ORDER,KEY,VALUE: print each row's call graph as perf report does: graph|fractal|flat|folded|none, the minimum percent (0.5), caller|callee, function|address, percent|period|count; any subset, in any order" },
	{ "inverted", 0, 'G', "call graphs in caller order (perf's -G); implies -g graph" },
	{ "show-nr-samples", 0, 'n', "the Samples column (perfnav always shows it; accepted for perf's -n)" },
	{ "stdio", 0, OPT_STDIO, "text output (what 'top' always writes; accepted for perf's --stdio)" },
	{ "path-stats", 0, OPT_PATH_STATS, "keep every sample's call path (as -g and the TUI do) and say how many tree nodes and bytes they take" },
	FILTER_OPTS_ROWS,
	{ "why", 0, OPT_WHY, "say, per DSO, how many addresses did not resolve and how many DWARF unwinds ended early, and why" },
	{ NULL, 0, 0, NULL },
};

static int
top_opt(void *arg, int val, const char *optarg)
{
	struct top_args *a = arg;
	char *end;

	switch (val) {
	case OPT_SORT:
		a->sort = optarg;
		break;
	case OPT_CHILDREN:
		a->children = 1;
		break;
	case OPT_NO_CHILDREN:
		a->children = 0;
		break;
	case OPT_EVENT:
		a->event = optarg;
		/* the browser's off-CPU event, as its scope-command writes it: --off-cpu */
		a->off_cpu |= strcmp(optarg, OFFCPU_EVENT_NAME) == 0;
		break;
	case OPT_TSV:
		a->tsv = true;
		break;
	case OPT_PCT:
		a->pct = strtod(optarg, &end);
		if (*end == '%')
			end++;
		if (end == optarg || *end || a->pct < 0)
			return -1;
		a->cg.min_pct = a->pct;	/* as perf: graph nodes too, unless a later -g says */
		break;
	case OPT_MAX_STACK:
		return opts_count(optarg, INT32_MAX, &a->max_stack);
	case OPT_WHY:
		a->why = true;
		break;
	case 'g': {
		const char *bad = optarg;

		a->graph = true;
		if (cg_parse(optarg, &a->cg, &bad) < 0) {
			fprintf(stderr, "perfnav top: bad call-graph option at '%s' in '%s' (TYPE graph|fractal|flat|folded|none, MIN percent, ORDER caller|callee, KEY function|address, VALUE percent|period|count)\n",
			    textout_esc(bad), textout_esc(optarg));
			return -1;
		}
		break;
	}
	case 'G':
		a->graph = a->inverted = true;
		break;
	case OPT_PATH_STATS:
		a->path_stats = true;
		break;
	case OPT_BRANCH:
		a->branch = HIST_BRANCH_ON;
		break;
	case OPT_NO_BRANCH:
		a->branch = HIST_BRANCH_OFF;
		break;
	case OPT_MEM:
		a->mem_mode = true;
		break;
	case OPT_BRANCH_HISTORY:
		a->branch_history = true;
		break;
	case OPT_OFF_CPU:
		a->off_cpu = true;
		break;
	case OPT_LATENCY:
		a->latency = true;
		break;
	case OPT_PARALLELISM:
		if (filter_parse_parallelism(&a->fo.f, optarg) < 0) {
			fprintf(stderr, "perfnav top: bad --parallelism list '%s' (levels 1-%d, e.g. 1-2 or 1,64-128)\n",
			    textout_esc(optarg), FILTER_MAX_PAR);
			return -1;
		}
		a->par_filter = true;
		break;
	case 'n':
	case OPT_STDIO:
		break;
	default:
		if (filter_opt_is(val)) {
			char msg[FILTER_OPTS_MSG];

			if (filter_opts_take(&a->fo, val, optarg, msg, sizeof msg) == 0)
				return 0;
			fprintf(stderr, "perfnav top: %s\n", msg);
		}
		return -1;
	}
	return 0;
}

/* Index of the attr named name, or -1. */
static int
find_event(const struct session *s, const char *name)
{
	for (size_t i = 0; i < session_attrs(s)->n; i++)
		if (strcmp(session_attr_name(s, (int)i), name) == 0)
			return (int)i;
	return -1;
}

/*
 * The hist pass on two cores: the index is cut in two at a sample, the
 * second part goes to a thread with a symbolizer and a hist of its own
 * (symbolizers are not thread-safe; the session is read-only), and its
 * hist is merged into the first (hist_merge: the same rows as one pass),
 * when it pays (hist_parallel_split).
 */

struct top_part {
	struct hist	*h;
	size_t		 from, to;
};

static void *
top_part_run(void *arg)
{
	struct top_part *p = arg;

	hist_add_range(p->h, p->from, p->to, NULL);
	return NULL;
}

/*
 * Fill a fresh hist h (over session s and symbolizer z, options ho) with
 * every sample of s: on two cores when worth it, else in one pass.
 */
static void
top_fill(const struct session *s, const struct sym_opts *so, const struct hist_opts *ho,
    struct symbolizer *z, struct hist **hp)
{
	struct top_part part;
	struct symbolizer *z2;
	pthread_t th;
	size_t mid;
	int rc;

	if (!hist_parallel_split(s, ho, &mid)) {
		hist_add_session(*hp, NULL);
		return;
	}
	z2 = symbolizer_new(s, so);
	part.h = hist_new(s, z2, ho);
	part.from = mid;
	part.to = session_index(s)->n;
	if (pthread_create(&th, NULL, top_part_run, &part) != 0) {
		hist_free(part.h);
		symbolizer_free(z2);
		hist_add_session(*hp, NULL);
		return;
	}
	hist_add_range(*hp, 0, mid, NULL);
	pthread_join(th, NULL);
	symbolizer_adopt_refusals(z, z2);	/* the files it refused are said too */
	symbolizer_adopt_debuginfod(z, z2);	/* and what debuginfod servers sent it */
	rc = hist_merge(*hp, part.h);
	hist_free(part.h);
	symbolizer_free(z2);
	if (rc != 0) {
		/* refused: one pass after all, over a fresh hist */
		hist_free(*hp);
		*hp = hist_new(s, z, ho);
		hist_add_session(*hp, NULL);
	}
}

/*
 * The rows of a run: those a run with the same options kept
 * (cmd_cache_hist_get), else h filled by top_fill.  *keep: worth keeping
 * after use (made here, and nothing in them the cache leaves out: Intel PT
 * samples, --why's counts, --path-stats).
 */
static struct hist *
top_hist(struct cmd_run *r, const struct top_args *a, const struct sym_opts *so,
    const struct hist_opts *ho, struct hist *h, bool *keep)
{
	struct hist *hc;

	*keep = !pt_present(r->s) && !a->why && !a->path_stats;
	if (*keep && cmd_cache_hist_get(r, so, ho, &hc) == HIST_CACHE_OK) {
		hist_free(h);
		*keep = false;	/* kept already */
		return hc;
	}
	top_fill(r->s, so, ho, r->z, &h);
	return h;
}

/* perf's Branch Statistics after branch mode's table (nothing when no entry had a type). */
static void
print_branch_stat(FILE *fp, const struct brstat *st)
{
	const struct {
		const uint64_t	*v;
		const char	*name;
	} first[] = { { &st->cond_fwd, "COND_FWD" }, { &st->cond_bwd, "COND_BWD" },
		{ &st->cross_4k, "CROSS_4K" }, { &st->cross_2m, "CROSS_2M" } };
	uint64_t total = 0;

	for (size_t i = 0; i < BR_TYPES; i++)
		total += st->counts[i];
	if (total == 0)
		return;
	fprintf(fp, "\n#\n# Branch Statistics:\n#\n");
	for (size_t i = 0; i < 4; i++)
		if (*first[i].v > 0)
			fprintf(fp, "%8s: %5.1f%%\n", first[i].name, 100.0 * (double)*first[i].v / (double)total);
	for (unsigned i = 0; i < BR_TYPES; i++)
		if (st->counts[i] > 0)
			fprintf(fp, "%8s: %5.1f%%\n", br_type_name(i), 100.0 * (double)st->counts[i] / (double)total);
	for (unsigned i = 0; i < BR_NEW_TYPES; i++)
		if (st->new_counts[i] > 0)
			fprintf(fp, "%8s: %5.1f%%\n", br_new_type_name(i),
			    100.0 * (double)st->new_counts[i] / (double)total);
}

static void
print_why(FILE *fp, const struct hist *h, struct symbolizer *z, const char *pre)
{
	const struct hist_why *w;
	size_t n = hist_whys(h, &w);
	char text[PATH_MAX + 256];

	fprintf(fp, "#\n%sUnresolved addresses per DSO (sample ips, callchain frames) and why:\n",
	    pre);
	if (n == 0)
		fprintf(fp, "%s  every address resolved\n", pre);
	for (size_t i = 0; i < n; i++) {
		fprintf(fp, "%s  %s\n", pre,
		    w[i].dso == DSO_NONE ? "[unknown] (no DSO)" :
		    textout_esc(symbolizer_dso_long(z, w[i].dso)));
		for (int r = 0; r < SYM_WHY_COUNT; r++) {
			if (w[i].self[r] == 0 && w[i].chain[r] == 0)
				continue;
			fprintf(fp, "%s    %-18s %10" PRIu64 " %10" PRIu64 "  %s\n", pre,
			    sym_why_name((enum sym_why)r), w[i].self[r], w[i].chain[r],
			    textout_esc(symbolizer_why_text(z, w[i].dso, (unsigned)r, text, sizeof text)));
		}
	}
}

/* Per DSO, the DWARF unwinds (--call-graph dwarf) that ended early and why. */
static void
print_unwind_stops(FILE *fp, struct symbolizer *z, const char *pre)
{
	static const char *const stop_name[] = {
#define X(n, t) #n,
		UNWIND_STOPS(X)
#undef X
	};
	size_t n = symbolizer_unwind_counts(z, NULL, 0);
	struct sym_unwind_count *c;

	fprintf(fp, "#\n%sDWARF unwinds that ended early, per DSO of the last frame reached, and why:\n",
	    pre);
	if (n == 0) {
		fprintf(fp, "%s  none\n", pre);
		return;
	}
	c = calloc(n, sizeof *c);
	if (c == NULL)
		return;
	n = symbolizer_unwind_counts(z, c, n);
	for (size_t i = 0; i < n; i++) {
		fprintf(fp, "%s  %s\n", pre,
		    c[i].dso == DSO_NONE ? "[unknown] (no frame)" :
		    textout_esc(symbolizer_dso_long(z, c[i].dso)));
		for (unsigned w = 0; w < UNWIND_STOP_COUNT; w++)
			if (c[i].count[w] != 0)
				fprintf(fp, "%s    %-18s %10" PRIu64 "  %s\n", pre, stop_name[w],
				    c[i].count[w], unwind_stop_text((enum unwind_stop)w));
	}
	free(c);
}

/*
 * Call graphs asked for: the hist keeps call paths; perf's default order
 * is callee, caller with --children (and with -G).
 */
static void
top_graph_setup(struct top_args *a, struct hist_opts *ho, const struct session *s)
{
	if (a->inverted)
		a->cg.caller = true;
	else if (!a->cg.order_set)	/* perf: caller unless --no-children, kept without callchains */
		a->cg.caller = a->branch_history ? a->children != 0 : ho->children;
	if (a->cg.mode == CG_NONE) {
		a->graph = false;
		return;
	}
	ho->paths = true;
	ho->caller_order = a->cg.caller;
	ho->paths_address = a->cg.address;
	if (a->branch_history)
		return;
	if (!attr_table_has_callchains(session_attrs(s)) && !pt_present(s))
		fprintf(stderr, "perfnav top: the recording has no callchains (record with -g or --call-graph): rows only\n");
}

/* --sort KEYS into ho's keys: 0, or -1 (message printed) for a bad list. */
static int
parse_sort(const char *sort, struct hist_opts *ho)
{
	enum hist_key one[HIST_MAX_KEYS];
	const char *bad, *b2;
	size_t badlen, l2;
	char word[32];
	int nk = hist_parse_keys(sort, ho->keys, &bad, &badlen);

	if (nk > 0) {
		ho->nkeys = (unsigned)nk;
		return 0;
	}
	snprintf(word, sizeof word, "%.*s", (int)badlen, bad);
	if (nk < 0 && hist_parse_keys(word, one, &b2, &l2) == 1)
		fprintf(stderr, "perfnav top: at most %d sort keys\n", HIST_MAX_KEYS);
	else if (nk < 0)
		fprintf(stderr, "perfnav top: unknown sort key '%.*s' (keys: comm, "
		    "pid, tid, process, dso, sym, cpu, srcline, trace, local_weight, weight, "
		    "local_ins_lat, ins_lat, state; dso_from, dso_to, symbol_from, symbol_to, cycles; "
		    "symbol_daddr, dso_daddr, mem, tlb, snoop, locked, blocked, data_page_size, "
		    "phys_daddr, dcacheline)\n", (int)badlen, bad);
	else
		fprintf(stderr, "perfnav top: no sort keys\n");
	return -1;
}

/*
 * --branch-history, as perf report: rows per sample (not branch mode) by
 * srcline,sym,dso unless --sort says, call graphs printed and keyed by
 * address, with what the branches carried when the recording has branch
 * stacks (perf: not with user stacks); without branch stacks and
 * callchains there is nothing to show.  0, or -1 (message printed).
 */
static int
branch_history_setup(const struct session *s, struct top_args *a, struct hist_opts *ho)
{
	const struct attr_table *at = session_attrs(s);
	bool has = session_features(s)->sec[PF_FEAT_BRANCH_STACK].present;

	for (size_t i = 0; i < at->n; i++)
		if (at->v[i].attr.sample_type & PERF_SAMPLE_STACK_USER)
			has = false;
	if (!has && !attr_table_has_callchains(at)) {
		fprintf(stderr, "perfnav top: --branch-history: the recording has neither branch stacks nor callchains (record with -b or -g)\n");
		return -1;
	}
	a->branch = HIST_BRANCH_OFF;
	a->graph = true;
	a->cg.address = true;
	a->cg.branch_counts = has;
	ho->branch_history = true;
	if (ho->nkeys == 0) {
		ho->keys[0] = HIST_KEY_SRCLINE;
		ho->keys[1] = HIST_KEY_SYM;
		ho->keys[2] = HIST_KEY_DSO;
		ho->nkeys = 3;
	}
	return 0;
}

/*
 * Branch and memory modes against the open recording, as perf report:
 * branch mode when asked or when the recording has branch stacks (unless
 * --no-branch-stack), its keys only there, memory keys only with
 * --mem-mode; their default keys; self rows unless --children.  0, or -1
 * (message printed).
 */
static int
top_mode_setup(const struct session *s, struct top_args *a, struct hist_opts *ho)
{
	static const enum hist_key bdef[] = { HIST_KEY_COMM, HIST_KEY_DSO_FROM, HIST_KEY_SYM_FROM,
		HIST_KEY_SYM_TO, HIST_KEY_CYCLES };
	/* perf 6.1's, less local_p_stage_cyc (POWER only: no column on x86) */
	static const enum hist_key mdef[] = { HIST_KEY_LOCAL_WEIGHT, HIST_KEY_MEM, HIST_KEY_SYM,
		HIST_KEY_DSO, HIST_KEY_SYM_DADDR, HIST_KEY_DSO_DADDR, HIST_KEY_SNOOP, HIST_KEY_TLB,
		HIST_KEY_LOCKED, HIST_KEY_BLOCKED, HIST_KEY_LOCAL_INS_LAT };
	bool has = session_features(s)->sec[PF_FEAT_BRANCH_STACK].present, branch;

	if (a->branch_history && branch_history_setup(s, a, ho) < 0)
		return -1;
	if (a->branch == HIST_BRANCH_ON && !has) {
		fprintf(stderr, "perfnav top: --branch-stack: the recording has no branch stacks (record with -b or -j)\n");
		return -1;
	}
	branch = a->branch == HIST_BRANCH_ON || (a->branch == HIST_BRANCH_AUTO && has);
	if (branch && a->mem_mode)
		a->mem_mode = false;	/* as perf: branch mode first */
	ho->branch = branch ? HIST_BRANCH_ON : HIST_BRANCH_OFF;
	ho->mem_mode = a->mem_mode;
	for (unsigned i = 0; i < ho->nkeys; i++) {
		if (hist_key_branch(ho->keys[i]) && !branch) {
			fprintf(stderr, "perfnav top: sort key '%s' needs branch mode (a recording with branch stacks; not --no-branch-stack)\n",
			    hist_key_name(ho->keys[i]));
			return -1;
		}
		if (hist_key_mem(ho->keys[i]) && !a->mem_mode) {
			fprintf(stderr, "perfnav top: sort key '%s' needs --mem-mode\n", hist_key_name(ho->keys[i]));
			return -1;
		}
	}
	if (ho->nkeys == 0 && (branch || a->mem_mode)) {
		const enum hist_key *d = branch ? bdef : mdef;

		ho->nkeys = branch ? 5 : sizeof mdef / sizeof *mdef;
		memcpy(ho->keys, d, ho->nkeys * sizeof *d);
	}
	if ((branch || a->mem_mode) && a->children < 0)
		a->children = 0;
	return 0;
}

/* The filter options against the open recording: 0, or -1 (message printed). */
static int
top_filter_setup(const struct cmd_run *r, struct top_args *a, struct hist_opts *ho)
{
	char msg[FILTER_OPTS_MSG];

	if (filter_opts_setup(&a->fo, r->s, r->co.input, msg, sizeof msg) < 0) {
		fprintf(stderr, "perfnav top: %s\n", msg);
		return -1;
	}
	ho->filter = filter_opts_filter(&a->fo);
	return 0;
}

/*
 * --off-cpu: the off-CPU model of the open recording into oc, and the hist
 * charging its spans (no branch or memory mode, no other event).  0, or -1
 * (message printed) when the recording cannot give one.
 */
static int
top_offcpu_setup(const struct cmd_run *r, struct top_args *a, struct hist_opts *ho,
    struct offcpu *oc)
{
	if (a->mem_mode || a->branch_history || a->branch == HIST_BRANCH_ON) {
		fprintf(stderr, "perfnav top: --off-cpu does not go with --mem-mode, --branch-stack or --branch-history\n");
		return -1;
	}
	if (a->event != NULL && strcmp(a->event, OFFCPU_EVENT_NAME) != 0) {
		fprintf(stderr, "perfnav top: --off-cpu: the only event is '%s', not '%s'\n",
		    OFFCPU_EVENT_NAME, textout_esc(a->event));
		return -1;
	}
	a->event = NULL;
	a->branch = HIST_BRANCH_OFF;
	if (cmd_offcpu("top", r, oc) < 0)
		return -1;
	ho->offcpu = oc;
	return 0;
}

/*
 * --latency, --parallelism and the sort key parallelism: the parallelism
 * model of the open recording into p (perf 6.15's count of running threads,
 * symbolize/parallel.h), given to the hist.  0 (nothing asked: p stays
 * empty), or -1 (message printed) when the recording has no switch events
 * or the mode has no latency.
 */
static int
top_parallel_setup(const struct cmd_run *r, const struct top_args *a, struct hist_opts *ho,
    struct parallel *p)
{
	bool key = false;

	for (unsigned i = 0; i < ho->nkeys; i++)
		key |= ho->keys[i] == HIST_KEY_PARALLELISM;
	if (!a->latency && !a->par_filter && !key)
		return 0;
	if (a->off_cpu || ho->mem_mode || ho->branch == HIST_BRANCH_ON) {
		fprintf(stderr, "perfnav top: --latency, --parallelism and the sort key parallelism do not go with --off-cpu, --mem-mode or branch mode\n");
		return -1;
	}
	if (!parallel_recorded(r->s)) {
		fprintf(stderr, "perfnav top: %s has no switch events: latency and parallelism need them (record with perf record --latency or --switch-events)\n",
		    textout_esc(r->co.input));
		return -1;
	}
	parallel_build(r->s, p);
	if (p->nlow + p->nhigh > 0)
		fprintf(stderr, "perfnav top: %" PRIu64 " of %" PRIu64 " samples met a count of running threads outside 1-%" PRIu32 " (switch records missing or out of order): clamped, as perf does\n",
		    p->nlow + p->nhigh, p->nsamples, p->max);
	if (p->nbad > 0)
		fprintf(stderr, "perfnav top: %" PRIu64 " switch records too short to read left out\n",
		    p->nbad);
	ho->parallel = p;
	ho->by_latency = a->latency;
	return 0;
}

const struct cmd_spec top_spec = {
	.name = "top",
	.summary = "hot functions (self and children), as perf report --stdio",
	.run = cmd_top,
	.usage = "top [OPTIONS] [FILE]\n\n"
	    "The hot functions of a recording, as 'perf report --stdio' lists them:\n"
	    "overhead (share of the sample period) and samples per row, per event.",
	.opts = top_opts,
	.fn = top_opt,
	.maxpos = 0,
};

int
cmd_top(int argc, char **argv)
{
	struct top_args a = { .children = -1, .max_stack = HIST_DEFAULT_MAX_STACK };

	cg_defaults(&a.cg);
	struct cmd_run r;
	struct hist_opts ho;
	struct sym_opts so;
	struct session *s;
	struct symbolizer *z;
	struct hist *h;
	bool cacheable;
	struct offcpu oc = { 0 };
	struct parallel par = { 0 };

	if (cmd_begin(&r, argc, argv, &top_spec, &a) < 0) {
		filter_opts_free(&a.fo);
		return r.status;
	}
	memset(&ho, 0, sizeof ho);
	if (a.sort != NULL && parse_sort(a.sort, &ho) < 0) {
		filter_opts_free(&a.fo);
		return EXIT_USAGE;
	}
	if (cmd_load(&r, true) < 0) {
		filter_opts_free(&a.fo);
		return r.status;
	}
	s = r.s;
	if (top_filter_setup(&r, &a, &ho) < 0) {
		filter_opts_free(&a.fo);
		return cmd_quit(&r, EXIT_USAGE);
	}
	if ((a.off_cpu && top_offcpu_setup(&r, &a, &ho, &oc) < 0) || top_mode_setup(s, &a, &ho) < 0 ||
	    top_parallel_setup(&r, &a, &ho, &par) < 0) {
		filter_opts_free(&a.fo);
		offcpu_free(&oc);
		return cmd_quit(&r, EXIT_USAGE);
	}
	ho.event = -1;
	if (a.event != NULL) {
		ho.event = find_event(s, a.event);
		if (ho.event < 0) {
			fprintf(stderr, "perfnav top: %s: no event '%s'; events:", r.co.input, a.event);
			for (size_t i = 0; i < session_attrs(s)->n; i++)
				fprintf(stderr, " %s", textout_esc(session_attr_name(s, (int)i)));
			fputc('\n', stderr);
			filter_opts_free(&a.fo);
			return cmd_quit(&r, EXIT_USAGE);
		}
	}
	/*
	 * As perf: children by default when the recording has callchains.
	 * The TSV layout is fixed by the flag, though: without an explicit
	 * --children it is EVENT SELF_PCT SAMPLES KEY... (self rows).
	 */
	if (a.branch_history && !attr_table_has_callchains(session_attrs(s)))
		ho.children = false;	/* as perf: silently, with nothing to add up */
	else if (a.children < 0)
		ho.children = !a.tsv && attr_table_has_callchains(session_attrs(s));
	else
		ho.children = a.children == 1;
	ho.max_stack = (unsigned)a.max_stack;
	if (a.graph && !a.tsv)
		top_graph_setup(&a, &ho, s);	/* its order: a.cg.caller */
	else if (!a.cg.order_set)
		a.cg.caller = ho.children;	/* perf's, printed or not */
	ho.chain_root_first = a.cg.caller;
	ho.paths |= a.path_stats;
	cmd_sym_opts(&r.co, &so);	/* for top_fill's second symbolizer */
	z = cmd_symbolizer(&r);
	h = hist_new(s, z, &ho);
	if (ho.nkeys == 0) {
		ho.keys[0] = HIST_KEY_COMM;
		ho.keys[1] = HIST_KEY_DSO;
		ho.keys[2] = HIST_KEY_SYM;
		ho.nkeys = 3;
	}
	h = top_hist(&r, &a, &so, &ho, h, &cacheable);
	if (pt_present(s) && !a.off_cpu)
		pt_hist_add(h, s, z);
	hist_finish(h);
	if (a.tsv)
		top_print_tsv(stdout, h, &ho, a.pct);
	else {
		struct top_table tt = { s, a.pct, a.graph ? &a.cg : NULL,
			a.sort != NULL && strncmp(a.sort, "sym", 3) == 0, a.sort == NULL };

		if (a.off_cpu && oc.source != OFFCPU_SRC_SCHED)
			printf("# Off-CPU time from %s%s\n#\n", offcpu_source_name(oc.source),
			    oc.approx ? " (approximate: each span charged to its thread's last sample before it)" : "");
		top_print_table(stdout, h, &ho, &tt);
		if (ho.branch == HIST_BRANCH_ON)
			print_branch_stat(stdout, hist_branch_stat(h));
	}
	if (a.path_stats) {
		struct cpath_stats st;

		cpath_stats(h, &st);
		printf("#\n# Call paths: %zu tree nodes, %zu (path, entry) rows, %zu bytes (%.1f per node)\n",
		    st.nodes, st.rows, st.bytes, st.nodes ? (double)st.bytes / (double)st.nodes : 0.0);
	}
	if (a.why) {
		print_why(stdout, h, z, "# ");
		cmd_report_debuginfod(stdout, z, "# ");
		print_unwind_stops(stdout, z, "# ");
	}
	if (cacheable) {
		fflush(stdout);	/* the rows first: keeping them is after */
		cmd_cache_hist_put(&r, &so, h);
	}
	hist_free(h);
	offcpu_free(&oc);
	parallel_free(&par);
	filter_opts_free(&a.fo);
	return cmd_end(&r);
}
