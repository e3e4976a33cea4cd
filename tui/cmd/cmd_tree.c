#include "config.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/core.h"
#include "symbolize/filter.h"
#include "symbolize/symbolizer.h"
#include "symbolize/tasks.h"
#include "tui/cmd/cmd.h"
#include "tui/cmd/filter_opts.h"
#include "tui/cmd/textout.h"

/*
 * perfnav tree: the process tree from FORK/COMM/EXIT, in the form of perf
 * report --tasks (pid, tid, ppid, indented comm), plus what perf does not
 * print: samples and their share per thread and per process, start and
 * exit times, and every comm a thread had (exec).  The scope options count
 * only the samples they take (each leaves other samples out, as perf
 * script's); every thread is still listed.
 */

struct tree_args {
	struct filter_opts	 fo;
};

static const struct cmd_opt tree_opts[] = {
	FILTER_OPTS_SAMPLES,
	{ NULL, 0, 0, NULL },
};

static int
tree_opt(void *arg, int val, const char *optarg)
{
	struct tree_args *a = arg;
	char msg[FILTER_OPTS_MSG];

	if (!filter_opt_is(val))
		return -1;
	if (filter_opts_take(&a->fo, val, optarg, msg, sizeof msg) == 0)
		return 0;
	fprintf(stderr, "perfnav tree: %s\n", msg);
	return -1;
}

/* Does f take the sample r (decoded as smp)?  z resolves its ip for --dsos/--symbols. */
static bool
tree_takes(const struct session *s, const struct hist_filter *f, struct symbolizer *z,
    const struct rec *r, const struct sample *smp, uint32_t th)
{
	const struct thread_table *t = session_threads(s);
	bool has_tid = (smp->sample_type & PERF_SAMPLE_TID) != 0;
	int32_t pid = has_tid ? (int32_t)smp->pid : -1, tid = has_tid ? (int32_t)smp->tid : -1;
	struct frame fr;

	if (!filter_sample_ok(f, smp->time, (smp->sample_type & PERF_SAMPLE_CPU) != 0, smp->cpu) ||
	    !filter_loc_ok(f, r->loc) || !filter_entry_ok(f, pid, tid, thread_comm_at(t, th, smp->time)))
		return false;
	if (!filter_has_frame(f))
		return true;
	symbolizer_resolve(z, pid, tid, smp->time, r->misc & PERF_RECORD_MISC_CPUMODE_MASK, smp->ip,
	    &fr);
	return filter_frame_ok(f, z, &fr);
}

/*
 * Per thread (id), the samples filter f takes; into *total the samples its
 * time and cpus take, the base of the shares (as perfnav top's totals: the
 * other options choose rows, not what they are a share of).
 */
static uint64_t *
tree_counts(const struct session *s, const struct hist_filter *f, struct symbolizer *z,
    uint64_t *total)
{
	const struct thread_table *t = session_threads(s);
	const struct rec_index *ix = session_index(s);
	uint64_t *cnt = xreallocarray(NULL, t->n ? t->n : 1, sizeof *cnt);

	memset(cnt, 0, (t->n ? t->n : 1) * sizeof *cnt);
	*total = 0;
	for (size_t i = 0; i < ix->n; i++) {
		struct sample smp;
		struct rec r;
		uint32_t th;

		if (ent_type(index_ent(ix, i)) != PF_REC_SAMPLE ||
		    session_rec(s, ent_loc(index_ent(ix, i)), &r) < 0 ||
		    record_sample_head(session_attrs(s), &r, record_attr(session_attrs(s), &r), &smp) < 0 ||
		    !(smp.sample_type & PERF_SAMPLE_TID))
			continue;
		if (filter_sample_ok(f, smp.time, (smp.sample_type & PERF_SAMPLE_CPU) != 0, smp.cpu) &&
		    filter_loc_ok(f, r.loc))
			(*total)++;
		th = thread_table_find(t, (int32_t)smp.tid, smp.time);
		if (th != THREAD_NONE && tree_takes(s, f, z, &r, &smp, th))
			cnt[th]++;
	}
	return cnt;
}

/* Each leader's process samples from per-thread counts (tasks.c's rule for a thread's leader). */
static void
tree_proc_counts(const struct thread_table *t, const uint64_t *cnt, uint64_t *proc)
{
	memset(proc, 0, (t->n ? t->n : 1) * sizeof *proc);
	for (size_t i = 0; i < t->n; i++) {
		const struct pn_thread *p = &t->v[i];
		uint32_t l = (uint32_t)i;

		if (p->pid != p->tid) {
			l = p->pid < 0 ? THREAD_NONE : thread_table_find(t, p->pid, p->start);
			if (l != THREAD_NONE && t->v[l].pid != t->v[l].tid)
				l = THREAD_NONE;
		}
		if (l != THREAD_NONE)
			proc[l] += cnt[i];
	}
}

static void
fmt_time(char *buf, size_t n, uint64_t t, bool known)
{
	if (!known)
		snprintf(buf, n, "-");
	else
		text_time_us(buf, n, t);
}

static void
print_comms(FILE *fp, const struct thread_table *t, uint32_t th)
{
	uint32_t prev = UINT32_MAX;
	bool first = true;

	if (t->v[th].first_comm == UINT32_MAX) {
		if (t->v[th].tid == 0)
			fputs("swapper", fp);
		else
			fprintf(fp, ":%" PRId32, t->v[th].tid);
		return;
	}
	for (uint32_t ci = t->v[th].first_comm; ci != UINT32_MAX; ci = t->comms[ci].next) {
		uint32_t nx = t->comms[ci].next;

		/* A comm replaced at the same instant (fork inheritance followed
		 * by the synthesized COMM) was never visible. */
		if (nx != UINT32_MAX && t->comms[nx].time == t->comms[ci].time)
			continue;
		if (prev != UINT32_MAX && t->comms[ci].name == prev)
			continue;
		fprintf(fp, "%s%s", first ? "" : " -> ",
		    textout_esc(strtab_get(&t->strs, t->comms[ci].name)));
		prev = t->comms[ci].name;
		first = false;
	}
}

/* The tree; cnt: per thread the samples to show (NULL: every sample), shares of base. */
static void
print_tree(FILE *fp, const struct session *s, const uint64_t *cnt, uint64_t base)
{
	const struct thread_table *t = session_threads(s);
	struct tasks *tk = tasks_new(s);
	const struct task_row *rows = tk->rows;
	size_t n = tk->nrows;
	uint64_t total = 0, shown = 0, *proc = NULL;
	bool have_idle = false;

	if (cnt != NULL) {
		proc = xreallocarray(NULL, t->n ? t->n : 1, sizeof *proc);
		tree_proc_counts(t, cnt, proc);
	}
	for (size_t i = 0; i < t->n; i++) {
		shown += cnt ? cnt[i] : t->v[i].samples;
		have_idle |= t->v[i].tid == 0;
	}
	total = cnt ? base : shown;
	fprintf(fp, "# %8s %8s %8s %9s %8s %9s %8s %16s %16s  %s\n", "pid", "tid", "ppid", "samples",
	    "%", "process", "proc%", "start", "exit", "comm (-> after exec)");
	if (!have_idle)
		fprintf(fp, "%10d %8d %8d %9d %7.2f%% %9s %8s %16s %16s |swapper\n", 0, 0, -1, 0, 0.0,
		    "0", "0.00%", "-", "-");
	for (size_t i = 0; i < n; i++) {
		const struct pn_thread *p = &t->v[rows[i].thread];
		uint64_t ns = cnt ? cnt[rows[i].thread] : p->samples;
		uint64_t pns = proc ? proc[rows[i].thread] : rows[i].proc_samples;
		char st[32], en[32], ps[24], pp[16];

		fmt_time(st, sizeof st, p->start, p->start != 0);
		fmt_time(en, sizeof en, p->end, p->exited);
		ps[0] = pp[0] = '\0';
		if (rows[i].leader) {
			snprintf(ps, sizeof ps, "%" PRIu64, pns);
			snprintf(pp, sizeof pp, "%.2f%%", total ? 100.0 * (double)pns / (double)total : 0.0);
		}
		fprintf(fp, "%10" PRId32 " %8" PRId32 " %8" PRId32 " %9" PRIu64 " %7.2f%% %9s %8s "
		    "%16s %16s |%*s", p->pid, p->tid, rows[i].leader ? p->ppid : p->pid, ns,
		    total ? 100.0 * (double)ns / (double)total : 0.0, ps, pp, st, en,
		    (int)rows[i].depth, "");
		print_comms(fp, t, rows[i].thread);
		fputc('\n', fp);
	}
	if (cnt != NULL && shown != total)
		fprintf(fp, "# %zu threads, %" PRIu64 " samples of %" PRIu64 "\n", t->n, shown, total);
	else
		fprintf(fp, "# %zu threads, %" PRIu64 " samples\n", t->n, shown);
	free(proc);
	tasks_free(tk);
}

const struct cmd_spec tree_spec = {
	.name = "tree",
	.summary = "the process tree with samples per process and thread, as perf report --tasks",
	.run = cmd_tree,
	.usage = "tree [OPTIONS] [FILE]\n\n"
	    "The process tree (FORK, COMM, EXIT) as 'perf report --tasks' prints it, with\n"
	    "samples and their share per thread and process, start and exit times, and\n"
	    "the comms each thread had.  The scope options count only the samples they\n"
	    "take; the shares are of the samples --time and --cpu take (the others choose\n"
	    "threads, not the total), as perfnav top's.",
	.opts = tree_opts,
	.fn = tree_opt,
	.maxpos = 0,
};

int
cmd_tree(int argc, char **argv)
{
	struct tree_args a;
	struct cmd_run r;
	const struct hist_filter *f;
	uint64_t *cnt = NULL, base = 0;
	char msg[FILTER_OPTS_MSG];

	memset(&a, 0, sizeof a);
	if (cmd_begin(&r, argc, argv, &tree_spec, &a) < 0 || cmd_load(&r, true) < 0) {
		filter_opts_free(&a.fo);
		return r.status;
	}
	if (filter_opts_setup(&a.fo, r.s, r.co.input, msg, sizeof msg) < 0) {
		fprintf(stderr, "perfnav tree: %s\n", msg);
		filter_opts_free(&a.fo);
		return cmd_quit(&r, EXIT_USAGE);
	}
	f = filter_opts_filter(&a.fo);
	if (f != NULL)
		cnt = tree_counts(r.s, f, filter_has_frame(f) ? cmd_symbolizer(&r) : NULL, &base);
	print_tree(stdout, r.s, cnt, base);
	free(cnt);
	filter_opts_free(&a.fo);
	return cmd_end(&r);
}
