#include "config.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/core.h"
#include "symbolize/tasks.h"
#include "tui/cmd/cmd.h"
#include "tui/cmd/textout.h"

/*
 * perfnav tree: the process tree from FORK/COMM/EXIT, in the form of perf
 * report --tasks (pid, tid, ppid, indented comm), plus what perf does not
 * print: samples and their share per thread and per process, start and
 * exit times, and every comm a thread had (exec).
 */

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

static void
print_tree(FILE *fp, const struct session *s)
{
	const struct thread_table *t = session_threads(s);
	struct tasks *tk = tasks_new(s);
	const struct task_row *rows = tk->rows;
	size_t n = tk->nrows;
	uint64_t total = 0;
	bool have_idle = false;

	for (size_t i = 0; i < t->n; i++) {
		total += t->v[i].samples;
		have_idle |= t->v[i].tid == 0;
	}
	fprintf(fp, "# %8s %8s %8s %9s %8s %9s %8s %16s %16s  %s\n", "pid", "tid", "ppid", "samples",
	    "%", "process", "proc%", "start", "exit", "comm (-> after exec)");
	if (!have_idle)
		fprintf(fp, "%10d %8d %8d %9d %7.2f%% %9s %8s %16s %16s |swapper\n", 0, 0, -1, 0, 0.0,
		    "0", "0.00%", "-", "-");
	for (size_t i = 0; i < n; i++) {
		const struct pn_thread *p = &t->v[rows[i].thread];
		char st[32], en[32], ps[24], pp[16];

		fmt_time(st, sizeof st, p->start, p->start != 0);
		fmt_time(en, sizeof en, p->end, p->exited);
		ps[0] = pp[0] = '\0';
		if (rows[i].leader) {
			snprintf(ps, sizeof ps, "%" PRIu64, rows[i].proc_samples);
			snprintf(pp, sizeof pp, "%.2f%%",
			    total ? 100.0 * (double)rows[i].proc_samples / (double)total : 0.0);
		}
		fprintf(fp, "%10" PRId32 " %8" PRId32 " %8" PRId32 " %9" PRIu64 " %7.2f%% %9s %8s "
		    "%16s %16s |%*s", p->pid, p->tid, rows[i].leader ? p->ppid : p->pid, p->samples,
		    total ? 100.0 * (double)p->samples / (double)total : 0.0, ps, pp, st, en,
		    (int)rows[i].depth, "");
		print_comms(fp, t, rows[i].thread);
		fputc('\n', fp);
	}
	fprintf(fp, "# %zu threads, %" PRIu64 " samples\n", t->n, total);
	tasks_free(tk);
}

static const struct cmd_spec tree_spec = {
	"tree [OPTIONS] [FILE]\n\n"
	"The process tree (FORK, COMM, EXIT) as 'perf report --tasks' prints it, with\n"
	"samples and their share per thread and process, start and exit times, and\n"
	"the comms each thread had.", NULL, NULL, 0
};

int
cmd_tree(int argc, char **argv)
{
	struct cmd_run r;

	if (cmd_begin(&r, argc, argv, &tree_spec, NULL) < 0 || cmd_load(&r, true) < 0)
		return r.status;
	print_tree(stdout, r.s);
	return cmd_end(&r);
}
