#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "core/core.h"
#include "symbolize/filter.h"
#include "symbolize/symbolizer.h"
#include "tui/cmd/cmd.h"

/*
 * export_perf.c: perfnav export --format perf, a smaller perf.data of the
 * scope.  core/carve.c writes the file; the scope's choice of each sample
 * is made here, with the scope options' filter (symbolize/filter.h) as
 * perfnav script and tree apply it: every option leaves the samples it
 * does not take out, and --event those of other events.
 */

struct carve_scope {
	const struct session	 *s;
	struct symbolizer	 *z;
	const struct hist_filter *f;
	const bool		 *ev;		/* per attr: of the event asked for; NULL: all */
};

static bool
scope_keeps(void *arg, const struct rec *r)
{
	const struct carve_scope *cs = arg;
	const struct attr_table *at = session_attrs(cs->s);
	const struct thread_table *tt = session_threads(cs->s);
	const struct hist_filter *f = cs->f;
	int attr = record_attr(at, r);
	struct sample smp;
	struct frame fr;
	int32_t pid, tid;
	uint32_t th;

	if (cs->ev != NULL && (attr < 0 || !cs->ev[attr]))
		return false;
	if (f == NULL)
		return true;
	/* the fields the filter reads; a sample too short for them is out of a scope */
	memset(&smp, 0, sizeof smp);
	if (record_sample_head(at, r, attr, &smp) < 0)
		return false;
	pid = (smp.sample_type & PERF_SAMPLE_TID) ? (int32_t)smp.pid : -1;
	tid = (smp.sample_type & PERF_SAMPLE_TID) ? (int32_t)smp.tid : -1;
	th = thread_table_find(tt, tid, smp.time);
	if (!filter_sample_ok(f, smp.time, (smp.sample_type & PERF_SAMPLE_CPU) != 0, smp.cpu) ||
	    !filter_loc_ok(f, r->loc) || !filter_entry_ok(f, pid, tid, th != THREAD_NONE ? thread_comm_at(tt, th, smp.time) : NULL))
		return false;
	if (!filter_has_frame(f))
		return true;
	symbolizer_resolve(cs->z, pid, tid, smp.time, r->misc & PERF_RECORD_MISC_CPUMODE_MASK, smp.ip,
	    &fr);
	return filter_frame_ok(f, cs->z, &fr);
}

int
export_carve(const struct session *s, struct symbolizer *z, const struct export_spec_args *e, int fd,
    struct carve_result *res, struct perf_err *err)
{
	const struct attr_table *at = session_attrs(s);
	struct carve_scope cs = { s, z, e->filter, NULL };
	struct carve_opts o = { .compress = e->compress };
	bool *ev = NULL;
	int rc;

	if (e->event != NULL) {
		ev = xcalloc(at->n + 1, sizeof *ev);
		for (size_t i = 0; i < at->n; i++)
			ev[i] = strcmp(session_attr_name(s, (int)i), e->event) == 0;
		cs.ev = ev;
	}
	rc = carve_write(s, fd, &o, cs.ev != NULL || cs.f != NULL ? scope_keeps : NULL, &cs, res, err);
	free(ev);
	return rc;
}
