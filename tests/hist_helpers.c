/* Helpers of the hist tests (test_hist.c, test_callgraph.c, test_perftree.c). */
#include "config.h"

#include <criterion/criterion.h>
#include <stdio.h>
#include <string.h>

#include "tests/hist_helpers.h"

/* A resolved frame: symbol sym of DSO dso (labelled "[.] s<sym>" without a symbolizer). */
struct frame
hh_frame(uint32_t dso, uint32_t sym, uint64_t ip)
{
	struct frame f;

	memset(&f, 0, sizeof f);
	f.ip = ip;
	f.rel = ip - 0x1000;
	f.dso = dso;
	f.sym = sym;
	f.cpumode = PERF_RECORD_MISC_USER;
	f.why = sym == SYM_NONE ? SYM_WHY_NOT_IN_SYMBOL : SYM_WHY_OK;
	return f;
}

void
hh_add(struct hist *h, int attr, const char *comm, int32_t tid, uint64_t period,
    const struct frame *chain, size_t n)
{
	struct hist_sample s = {
		.attr = attr, .event_name = attr ? "task-clock" : "cpu-clock", .comm = comm,
		.pid = tid, .tid = tid, .cpu = (uint32_t)tid % 2, .period = period,
		.self = &chain[0], .chain = chain, .nchain = n,
	};

	hist_add(h, &s);
}

struct hist *
hh_new(const char *keys, bool children, bool callgraph)
{
	struct hist_opts o;
	const char *bad;
	size_t badlen;
	int n;

	memset(&o, 0, sizeof o);
	n = hist_parse_keys(keys, o.keys, &bad, &badlen);
	cr_assert_gt(n, 0);
	o.nkeys = (unsigned)n;
	o.children = children;
	o.callgraph = callgraph;
	o.event = -1;
	return hist_new(NULL, NULL, &o);
}

/* The row of event ev whose key k reads text, or NULL. */
const struct hist_entry *
hh_row(struct hist *h, size_t ev, enum hist_key k, const char *text)
{
	const uint32_t *rows;
	size_t n = hist_rows(h, ev, 0, &rows);
	char buf[256];

	for (size_t i = 0; i < n; i++) {
		const struct hist_entry *e = hist_entry_get(h, rows[i]);

		if (strcmp(hist_key_text(h, e, k, buf, sizeof buf), text) == 0)
			return e;
	}
	return NULL;
}

void
hh_dump_event(FILE *fp, struct hist *h, size_t ev)
{
	const struct hist_opts *o = hist_opts(h);
	const struct hist_event *e = hist_event(h, ev);
	const uint32_t *rows;
	size_t n = hist_rows(h, ev, 0.0, &rows);
	char key[512];

	fprintf(fp, "event %d %s %llu %llu %zu rows\n", e->attr, hist_str(h, e->name),
	    (unsigned long long)e->total_period, (unsigned long long)e->nsamples, n);
	for (size_t i = 0; i < n; i++) {
		const struct hist_entry *r = hist_entry_get(h, rows[i]);

		fprintf(fp, "%llu %llu %llu %llu", (unsigned long long)r->period,
		    (unsigned long long)r->samples, (unsigned long long)r->acc_period,
		    (unsigned long long)r->acc_samples);
		for (unsigned k = 0; k < o->nkeys; k++)
			fprintf(fp, " | %s", hist_key_text(h, r, o->keys[k], key, sizeof key));
		fputc('\n', fp);
	}
}
