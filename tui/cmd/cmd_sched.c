#include "config.h"

#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/core.h"
#include "symbolize/filter.h"
#include "symbolize/schedtime.h"
#include "tui/cmd/cmd.h"
#include "tui/cmd/textout.h"

/*
 * cmd_sched.c: perfnav sched timehist, the lines of perf sched timehist
 * (perf 6.1) from a recording of perf sched record, with their callchains,
 * and its summary (-s, -S).  The times, the frames and the summary's tasks
 * come from symbolize/schedtime.h; this file only lays them out as perf
 * does, its task-name column widening (never narrowing) when a longer name
 * comes.
 */

enum {
	OPT_STATE = 256,
	OPT_NO_CHAIN,
	OPT_MAX_STACK,
};

struct th_opts {
	bool		 wakeups;	/* -w */
	bool		 state;		/* --state */
	bool		 summary;	/* -s or -S: the summary after */
	bool		 lines;		/* not -s: the lines */
	bool		 no_chain;	/* -g off */
	long		 max_stack;	/* --max-stack, perf's 5 */
	struct hist_filter f;		/* -p, -t */
};

struct th_out {
	FILE		*fp;
	const struct th_opts *o;
	int		 width;		/* the task name column: 30, or the longest name yet */
	bool		 headed;	/* the header is out */
	bool		 chains;	/* callchains after the switch lines */
};

/* perf's graph_dotted_line: the rules under the headers */
static const char dots[] = "---------------------------------------------------------------------"
			   "---------------------------------------------------------------------";

/* perf's "comm[tid/pid]" of a task into buf (at most 31 bytes, as perf's), widening the column. */
static const char *
task_name(struct th_out *t, char *buf, size_t size, const char *comm, int32_t pid, int32_t tid)
{
	int n;

	if (pid == 0)
		n = snprintf(buf, size, "%s", comm);
	else if (tid != pid)
		n = snprintf(buf, size, "%s[%d/%d]", comm, tid, pid);
	else
		n = snprintf(buf, size, "%s[%d]", comm, tid);
	if (n >= (int)size)
		n = (int)size - 1;
	if (n > t->width)
		t->width = n;
	return buf;
}

/* A name in the column, left- or right-aligned: escaped, padded by its bytes as recorded. */
static void
put_name(struct th_out *t, const char *name, bool right)
{
	int pad = t->width - (int)strlen(name);

	if (right)
		fprintf(t->fp, "%*s%s", pad > 0 ? pad : 0, "", textout_esc(name));
	else
		fprintf(t->fp, "%s%*s", textout_esc(name), pad > 0 ? pad : 0, "");
}

/* A time in ns as msec.usec, right-aligned in width + 4, and a space (perf's print_sched_time). */
static void
put_ms(FILE *fp, uint64_t ns, int width)
{
	fprintf(fp, "%*" PRIu64 ".%03" PRIu64 " ", width, ns / 1000000, ns % 1000000 / 1000);
}

static void
put_time_cpu(FILE *fp, uint64_t t, uint32_t cpu)
{
	char ts[48];

	snprintf(ts, sizeof ts, "%" PRIu64 ".%06" PRIu64, t / 1000000000, t % 1000000000 / 1000);
	fprintf(fp, "%15s [%04u] ", ts, cpu);
}

static void
print_header(struct th_out *t)
{
	FILE *fp = t->fp;

	t->headed = true;

	fprintf(fp, "%15s %6s ", "time", "cpu");
	fprintf(fp, " %-*s", t->width, "task name");
	fprintf(fp, "  %9s  %9s  %9s", "wait time", "sch delay", "run time");
	if (t->o->state)
		fprintf(fp, "  %s", "state");
	fprintf(fp, "\n%15s %-6s ", "", "");
	fprintf(fp, " %-*s", t->width, "[tid/pid]");
	fprintf(fp, "  %9s  %9s  %9s", "(msec)", "(msec)", "(msec)");
	if (t->o->state)
		fprintf(fp, "  %5s", "");
	fprintf(fp, "\n%.15s %.6s ", dots, dots);
	fprintf(fp, " %.*s", t->width, dots);
	fprintf(fp, "  %.9s  %.9s  %.9s", dots, dots, dots);
	if (t->o->state)
		fprintf(fp, "  %.5s", dots);
	fprintf(fp, "\n");
}

static void
print_switch(struct th_out *t, const struct schedtime_line *l)
{
	char name[32];

	put_time_cpu(t->fp, l->time, l->cpu);
	task_name(t, name, sizeof name, l->comm, l->pid, l->tid);
	fputc(' ', t->fp);
	put_name(t, name, false);
	fputc(' ', t->fp);
	put_ms(t->fp, l->d->wait, 6);
	put_ms(t->fp, l->d->delay, 6);
	put_ms(t->fp, l->d->run, 6);
	if (t->o->state)
		fprintf(t->fp, " %5c ", l->tid == 0 ? 'I' : l->d->state);
	if (t->o->wakeups)
		fprintf(t->fp, "  %-*s", t->width, "");
	/* the chain of a task's switch-out (not the idle task's), as one line */
	if (t->chains && l->tid != 0) {
		fputs("  ", t->fp);
		for (size_t i = 0; i < l->nchain; i++)
			fprintf(t->fp, "%s %s", i > 0 ? " <-" : "", textout_esc(l->chain[i]));
	}
	fputc('\n', t->fp);
}

static void
print_wakeup(struct th_out *t, const struct schedtime_line *l)
{
	char name[32], woken[32];

	put_time_cpu(t->fp, l->time, l->cpu);
	task_name(t, name, sizeof name, l->comm, l->pid, l->tid);
	fputc(' ', t->fp);
	put_name(t, name, false);
	fprintf(t->fp, " ");
	fprintf(t->fp, "  %9s  %9s  %9s ", "", "", "");
	task_name(t, woken, sizeof woken, l->wcomm, l->wpid, l->wtid);
	fprintf(t->fp, "awakened: %s\n", textout_esc(woken));
}

static void
on_line(void *arg, const struct schedtime_line *l)
{
	struct th_out *t = arg;

	if (!t->o->lines)
		return;
	if (!t->headed)
		print_header(t);
	if (l->kind == SCHEDTIME_SWITCH)
		print_switch(t, l);
	else
		print_wakeup(t, l);
}

/* The summary's totals. */
struct th_totals {
	uint64_t	 tasks, switches, run;
};

/* perf's relative standard deviation of a task's run times, in percent (a float, as perf's). */
static float
run_rel_stddev(const struct schedtime_task *k)
{
	double sd;

	if (k->n < 2 || k->run_mean == 0)
		return 0;
	sd = sqrt(k->run_m2 / (double)(k->n - 1) / (double)k->n);
	return (float)(100.0 * sd / k->run_mean);
}

/* One task of the summary: its run times (min, mean, max), or with --state its wait times. */
static void
print_task(struct th_out *t, const struct schedtime_row *r)
{
	const struct schedtime_task *k = r->k;
	FILE *fp = t->fp;
	char name[32];

	task_name(t, name, sizeof name, r->comm, r->pid, r->tid);
	put_name(t, name, true);
	fprintf(fp, "   %5d  %9" PRIu64 " ", r->ppid, k->n);
	put_ms(fp, k->run_total, 8);
	if (t->o->state) {
		put_ms(fp, k->sleep, 6);
		fputc(' ', fp);
		put_ms(fp, k->iowait, 6);
		fputc(' ', fp);
		put_ms(fp, k->preempt, 6);
		fputc(' ', fp);
		put_ms(fp, k->delay, 6);
		fputc('\n', fp);
		return;
	}
	put_ms(fp, k->run_min, 6);
	fputc(' ', fp);
	put_ms(fp, (uint64_t)k->run_mean, 6);
	fputc(' ', fp);
	put_ms(fp, k->run_max, 6);
	fprintf(fp, "  %5.2f   %5" PRIu64 "\n", (double)run_rel_stddev(k), k->migrations);
}

/* The tasks of the summary that exited (dead) or not; how many. */
static uint64_t
print_tasks(struct th_out *t, const struct schedtime_row *v, size_t n, bool dead,
    struct th_totals *tot)
{
	uint64_t count = 0;

	for (size_t i = 0; i < n; i++) {
		if (v[i].dead != dead)
			continue;
		print_task(t, &v[i]);
		count++;
		tot->switches += v[i].k->n;
		tot->run += v[i].k->run_total;
	}
	tot->tasks += count;
	return count;
}

/* perf's idle stats: a line per cpu it keeps an idle task for (those online, and the cpus
 * past them an idle task ran on), with the time it ran; the switches of those that ran. */
static void
print_idle(struct th_out *t, const struct session *s, const struct schedtime *st,
    uint64_t span, struct th_totals *tot)
{
	uint32_t online = session_features(s)->nr_cpus_online, slots;

	if (online == 0)
		online = 4;
	slots = online;
	for (uint32_t c = online; c < schedtime_ncpus(st); c++)
		if (schedtime_idle(st, c) != NULL)
			while (slots <= c)
				slots *= 2;
	fprintf(t->fp, "\nIdle stats:\n");
	for (uint32_t c = 0; c < slots; c++) {
		const struct schedtime_task *k = schedtime_idle(st, c);

		if (k == NULL && c >= online)
			continue;
		if (k == NULL || k->n == 0) {
			fprintf(t->fp, "    CPU %2u idle entire time window\n", c);
			continue;
		}
		tot->switches += k->n;
		fprintf(t->fp, "    CPU %2u idle for ", c);
		put_ms(t->fp, k->run_total, 6);
		fprintf(t->fp, " msec  (%6.2f%%)\n", 100.0 * (double)k->run_total / (double)span);
	}
}

/* perf sched timehist -s: the tasks that ran, the idle time per cpu, the totals. */
static void
print_summary(struct th_out *t, const struct session *s, const struct schedtime *st)
{
	uint32_t online = session_features(s)->nr_cpus_online, xcpu = schedtime_max_cpu(st);
	struct th_totals tot = { 0, 0, 0 };
	struct schedtime_row *v;
	uint64_t first, last, running;
	size_t n = schedtime_rows(st, s, &v);
	FILE *fp = t->fp;

	schedtime_span(st, &first, &last);
	fprintf(fp, "\n%s summary\n", t->o->state ? "Wait-time" : "Runtime");
	fprintf(fp, "%*s  parent   sched-in  ", t->width, "comm");
	if (t->o->state)
		fprintf(fp, "   run-time      sleep      iowait     preempt       delay\n");
	else
		fprintf(fp, "   run-time    min-run     avg-run     max-run  stddev  migrations\n");
	fprintf(fp, "%*s            (count)  ", t->width, "");
	fprintf(fp, "     (msec)     (msec)      (msec)      (msec)       %s\n",
	    t->o->state ? "(msec)" : "%");
	fprintf(fp, "%.117s\n", dots);
	running = print_tasks(t, v, n, false, &tot);
	if (running == 0)
		fprintf(fp, "<no still running tasks>\n");
	fprintf(fp, "\nTerminated tasks:\n");
	if (print_tasks(t, v, n, true, &tot) == 0)
		fprintf(fp, "<no terminated tasks>\n");
	free(v);
	/* perf keeps no idle times once a filter left a task out */
	if (schedtime_skipped(st) > 0)
		return;
	print_idle(t, s, st, last - first, &tot);
	fprintf(fp, "\n    Total number of unique tasks: %" PRIu64 "\n", tot.tasks);
	fprintf(fp, "Total number of context switches: %" PRIu64 "\n", tot.switches);
	fprintf(fp, "           Total run time (msec): ");
	put_ms(fp, tot.run, 2);
	fprintf(fp, "\n    Total scheduling time (msec): ");
	put_ms(fp, last - first, 2);
	fprintf(fp, " (x %u)\n", xcpu > (online ? online : 4) ? xcpu : (online ? online : 4));
}

static const struct cmd_opt sched_opts[] = {
	{ "summary", 0, 's', "only the summary: each task's run times (with --state its wait times), each cpu's idle time, the totals" },
	{ "with-summary", 0, 'S', "the lines, then the summary" },
	{ "wakeups", 0, 'w', "also a line per wakeup: the task that woke another, and the task woken" },
	{ "state", 0, OPT_STATE, "also the state each task left the cpu in (R, S, D...; I for idle); with -s, the wait times by state" },
	{ "call-graph", 0, 'g', "the callchain of each switch-out after its line, if the recording has them (the default)" },
	{ "no-call-graph", 0, OPT_NO_CHAIN, "no callchains" },
	{ "no-callchain", 0, OPT_NO_CHAIN, "the same as --no-call-graph" },
	{ "max-stack", 1, OPT_MAX_STACK, "N: read each callchain to N + 2 frames and show them but schedule, __schedule and preempt_schedule, as perf (default 5)" },
	{ "pid", 1, 'p', "PID,...: only tasks of these processes (the idle task is pid 0)" },
	{ "tid", 1, 't', "TID,...: only these threads" },
	{ NULL, 0, 0, NULL },
};

static int
sched_opt(void *arg, int val, const char *optarg)
{
	struct th_opts *o = arg;

	switch (val) {
	case 's':
		o->summary = true;
		o->lines = false;
		return 0;
	case 'S':
		o->summary = true;
		return 0;
	case 'w':
		o->wakeups = true;
		return 0;
	case OPT_STATE:
		o->state = true;
		return 0;
	case 'g':
		o->no_chain = false;
		return 0;
	case OPT_NO_CHAIN:
		o->no_chain = true;
		return 0;
	case OPT_MAX_STACK:
		return opts_count(optarg, 1 << 20, &o->max_stack);
	case 'p':
		return filter_parse_pids(&o->f, optarg);
	case 't':
		return filter_parse_tids(&o->f, optarg);
	default:
		return 0;
	}
}

const struct cmd_spec sched_spec = {
	.name = "sched",
	.summary = "scheduling times of a perf sched record recording, as perf sched timehist",
	.run = cmd_sched,
	.usage = "sched timehist [-s|-S] [-w] [--state] [-g|--no-call-graph] [--max-stack N]\n"
	    "    [-p PID,...] [-t TID,...] [FILE]\n\n"
	    "For each context switch of a recording made with 'perf sched record', the\n"
	    "task switched out and its times, as 'perf sched timehist' (perf 6.1) prints\n"
	    "them: wait time (off the cpu since its last switch-out), sch delay (from its\n"
	    "wakeup to running) and run time (since the cpu's previous switch), then the\n"
	    "callchain of the switch-out if the recording has them (perf sched record -g):\n"
	    "kernel frames by their symbols, user frames [unknown], as perf 6.1's timehist\n"
	    "reads no MMAP2 record.  -s: the summary alone (each task's switches and run\n"
	    "times, each cpu's idle time, the totals; with -p or -t no idle times and no\n"
	    "totals, as perf).  timehist is the only sched command so far.",
	.opts = sched_opts,
	.fn = sched_opt,
	.maxpos = 0,
};

/* Strip the "timehist" word: 0, or -1 with the usage error said. */
static int
take_timehist(int *argc, char ***argv)
{
	if (*argc >= 2 && strcmp((*argv)[1], "timehist") == 0) {
		(*argc)--;
		(*argv)++;
		(*argv)[0] = "sched timehist";
		return 0;
	}
	if (*argc >= 2 && (*argv)[1][0] == '-')
		return 0;
	fprintf(stderr, "perfnav sched: %s%s%s (only 'perfnav sched timehist' is there)\n",
	    *argc < 2 ? "which command?" : "unknown command '",
	    *argc < 2 ? "" : textout_esc((*argv)[1]), *argc < 2 ? "" : "'");
	return -1;
}

int
cmd_sched(int argc, char **argv)
{
	struct th_opts o = { .lines = true, .max_stack = 5 };
	struct th_out t = { stdout, &o, 30, false, false };
	struct schedtime_opts so = { 0 };
	struct schedtime *st;
	enum schedtime_none why;
	struct cmd_run r;

	if (take_timehist(&argc, &argv) < 0)
		return EXIT_USAGE;
	if (cmd_begin(&r, argc, argv, &sched_spec, &o) < 0 || cmd_load(&r, true) < 0) {
		filter_free(&o.f);
		return r.status;
	}
	if (strcmp(r.name, "sched timehist") != 0) {
		fprintf(stderr, "perfnav sched: which command? (only 'perfnav sched timehist' is there)\n");
		filter_free(&o.f);
		return cmd_quit(&r, EXIT_USAGE);
	}
	if (!o.lines && o.wakeups) {
		fprintf(stderr, "perfnav sched timehist: -s and -w do not go together (as in perf)\n");
		filter_free(&o.f);
		return cmd_quit(&r, EXIT_USAGE);
	}
	so.wakeups = o.wakeups;
	so.pids = o.f.pids;
	so.npids = o.f.npids;
	so.tids = o.f.tids;
	so.ntids = o.f.ntids;
	so.z = o.no_chain || !o.lines ? NULL : cmd_symbolizer(&r);
	so.max_stack = (unsigned)o.max_stack;
	why = schedtime_walk(r.s, &so, on_line, &t, &st, &t.chains);
	if (why == SCHEDTIME_OK && o.lines && !t.headed)
		print_header(&t);
	if (why == SCHEDTIME_OK && o.summary)
		print_summary(&t, r.s, st);
	if (why != SCHEDTIME_OK) {
		fprintf(stderr, "perfnav sched timehist: %s: %s\n", textout_esc(r.co.input),
		    why == SCHEDTIME_NO_EVENT ? "no sched:sched_switch samples (record with perf sched record)" :
		    "no tracing data with sched_switch's format");
		r.status = EXIT_FAIL;
	}
	schedtime_free(st);
	filter_free(&o.f);
	return cmd_end(&r);
}
