#include "config.h"

#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "core/core.h"
#include "symbolize/schedtime.h"
#include "tui/cmd/cmd.h"
#include "tui/cmd/textout.h"

/*
 * cmd_sched.c: perfnav sched timehist, the lines of perf sched timehist
 * (perf 6.1) from a recording of perf sched record.  The times come from
 * symbolize/schedtime.h; this file only lays them out as perf does, its
 * task-name column widening (never narrowing) when a longer name comes.
 */

#define OPT_STATE	256

struct th_opts {
	bool		 wakeups;	/* -w */
	bool		 state;		/* --state */
};

struct th_out {
	FILE		*fp;
	const struct th_opts *o;
	int		 width;		/* the task name column: 30, or the longest name yet */
	bool		 headed;	/* the header is out */
};

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

/* A name left-aligned in the column: escaped, padded by its bytes as recorded. */
static void
put_name(struct th_out *t, const char *name)
{
	int pad = t->width - (int)strlen(name);

	fprintf(t->fp, "%s%*s", textout_esc(name), pad > 0 ? pad : 0, "");
}

/* A time in ns as msec.usec, right-aligned in width + 4, and a space. */
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
	static const char dots[] = "------------------------------------------------------------";
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
	put_name(t, name);
	fputc(' ', t->fp);
	put_ms(t->fp, l->d->wait, 6);
	put_ms(t->fp, l->d->delay, 6);
	put_ms(t->fp, l->d->run, 6);
	if (t->o->state)
		fprintf(t->fp, " %5c ", l->tid == 0 ? 'I' : l->d->state);
	if (t->o->wakeups)
		fprintf(t->fp, "  %-*s", t->width, "");
	fputc('\n', t->fp);
}

static void
print_wakeup(struct th_out *t, const struct schedtime_line *l)
{
	char name[32], woken[32];

	put_time_cpu(t->fp, l->time, l->cpu);
	task_name(t, name, sizeof name, l->comm, l->pid, l->tid);
	fputc(' ', t->fp);
	put_name(t, name);
	fprintf(t->fp, " ");
	fprintf(t->fp, "  %9s  %9s  %9s ", "", "", "");
	task_name(t, woken, sizeof woken, l->wcomm, l->wpid, l->wtid);
	fprintf(t->fp, "awakened: %s\n", textout_esc(woken));
}

static void
on_line(void *arg, const struct schedtime_line *l)
{
	struct th_out *t = arg;

	if (!t->headed)
		print_header(t);
	if (l->kind == SCHEDTIME_SWITCH)
		print_switch(t, l);
	else
		print_wakeup(t, l);
}

static const struct cmd_opt sched_opts[] = {
	{ "wakeups", 0, 'w', "also a line per wakeup: the task that woke another, and the task woken" },
	{ "state", 0, OPT_STATE, "also the state each task left the cpu in (R, S, D...; I for idle)" },
	{ NULL, 0, 0, NULL },
};

static int
sched_opt(void *arg, int val, const char *optarg)
{
	struct th_opts *o = arg;

	(void)optarg;
	if (val == 'w')
		o->wakeups = true;
	else if (val == OPT_STATE)
		o->state = true;
	return 0;
}

const struct cmd_spec sched_spec = {
	.name = "sched",
	.summary = "scheduling times of a perf sched record recording, as perf sched timehist",
	.run = cmd_sched,
	.usage = "sched timehist [OPTIONS] [FILE]\n\n"
	    "For each context switch of a recording made with 'perf sched record', the\n"
	    "task switched out and its times, as 'perf sched timehist' prints them:\n"
	    "wait time (off the cpu since its last switch-out), sch delay (from its\n"
	    "wakeup to running) and run time (since the cpu's previous switch).\n"
	    "timehist is the only sched command so far.",
	.opts = sched_opts,
	.fn = sched_opt,
	.maxpos = 0,
};

int
cmd_sched(int argc, char **argv)
{
	struct th_opts o = { false, false };
	struct th_out t = { stdout, &o, 30, false };
	struct schedtime *st;
	enum schedtime_none why;
	struct cmd_run r;

	if (argc >= 2 && strcmp(argv[1], "timehist") == 0) {
		argc--;
		argv++;
		argv[0] = "sched timehist";
	} else if (argc < 2 || argv[1][0] != '-') {
		fprintf(stderr, "perfnav sched: %s%s%s (only 'perfnav sched timehist' is there)\n",
		    argc < 2 ? "which command?" : "unknown command '", argc < 2 ? "" : textout_esc(argv[1]),
		    argc < 2 ? "" : "'");
		return EXIT_USAGE;
	}
	if (cmd_begin(&r, argc, argv, &sched_spec, &o) < 0 || cmd_load(&r, true) < 0)
		return r.status;
	if (strcmp(r.name, "sched timehist") != 0) {
		fprintf(stderr, "perfnav sched: which command? (only 'perfnav sched timehist' is there)\n");
		return cmd_quit(&r, EXIT_USAGE);
	}
	why = schedtime_walk(r.s, o.wakeups, on_line, &t, &st);
	if (why == SCHEDTIME_OK && !t.headed)
		print_header(&t);
	if (why != SCHEDTIME_OK) {
		fprintf(stderr, "perfnav sched timehist: %s: %s\n", textout_esc(r.co.input),
		    why == SCHEDTIME_NO_EVENT ? "no sched:sched_switch samples (record with perf sched record)" :
		    "no tracing data with sched_switch's format");
		r.status = EXIT_FAIL;
	}
	schedtime_free(st);
	return cmd_end(&r);
}
