#include "config.h"

#include <stdio.h>
#include <string.h>

#include "core/core.h"
#include "tui/cmd/filter_opts.h"
#include "tui/cmd/textout.h"

/*
 * filter_opts.c: the scope options' values into a struct hist_filter, and
 * their setup against the open recording.  Messages go back to the caller.
 */

/* What each option takes, for its "bad value" message. */
static const char *
opt_what(int val)
{
	switch (val) {
	case FILTER_OPT_TIME:
		return "--time (START,END in seconds, either side empty; spans separated by spaces; "
		    "or percents: 10%/2, 0%-10%,30%-40%, 25%)";
	case FILTER_OPT_PID:
		return "--pid (comma-separated process ids)";
	case FILTER_OPT_TID:
		return "--tid (comma-separated thread ids)";
	case FILTER_OPT_COMMS:
		return "--comms (comma-separated command names)";
	case FILTER_OPT_CPU:
		return "--cpu (cpu numbers and ranges such as 0-2,4)";
	case FILTER_OPT_DSOS:
		return "--dsos (comma-separated DSO names)";
	case FILTER_OPT_FILES:
		return "--files (comma-separated input names)";
	default:
		return "--symbols (comma-separated symbol names)";
	}
}

int
filter_opts_take(struct filter_opts *fo, int val, const char *arg, char *msg, size_t n)
{
	struct hist_filter probe = { 0 };
	int rc;

	switch (val) {
	case FILTER_OPT_TIME:
		/* percents need the recording's span: checked here, placed later */
		rc = filter_parse_time(&probe, arg, 1, UINT64_C(1) << 40);
		filter_free(&probe);
		if (rc == 0)
			fo->time = arg;
		break;
	case FILTER_OPT_PID:
		rc = filter_parse_pids(&fo->f, arg);
		break;
	case FILTER_OPT_TID:
		rc = filter_parse_tids(&fo->f, arg);
		break;
	case FILTER_OPT_COMMS:
		rc = filter_parse_comms(&fo->f, arg);
		break;
	case FILTER_OPT_CPU:
		rc = filter_parse_cpus(&fo->f, arg);
		break;
	case FILTER_OPT_DSOS:
		rc = filter_parse_dsos(&fo->f, arg);
		break;
	case FILTER_OPT_SYMBOLS:
		rc = filter_parse_symbols(&fo->f, arg);
		break;
	case FILTER_OPT_FILES:
		rc = filter_parse_files(&fo->f, arg);
		break;
	default:
		rc = -1;
		break;
	}
	if (rc < 0)
		snprintf(msg, n, "bad value '%s' for %s", textout_esc(arg), opt_what(val));
	return rc;
}

bool
filter_sample_span(const struct session *s, uint64_t *first, uint64_t *last)
{
	const struct features *ft = session_features(s);
	const struct rec_index *ix = session_index(s);
	size_t i, j;

	if (ft->sec[PF_FEAT_SAMPLE_TIME].present && ft->sample_time_last != 0) {
		*first = ft->sample_time_first;
		*last = ft->sample_time_last;
		return true;
	}
	for (i = 0; i < ix->n && (ent_type(index_ent(ix, i)) != PF_REC_SAMPLE || !index_ent(ix, i)->time); i++)
		;
	for (j = ix->n; j > i && (ent_type(index_ent(ix, j - 1)) != PF_REC_SAMPLE || !index_ent(ix, j - 1)->time);
	    j--)
		;
	if (i == ix->n)
		return false;
	*first = index_ent(ix, i)->time;
	*last = index_ent(ix, j - 1)->time;
	return true;
}

int
filter_opts_place_files(struct hist_filter *f, const struct session *s, const char *file,
    char *msg, size_t n)
{
	struct origins o;
	struct perf_err err;
	const char *bad = NULL;
	size_t used;

	if (f->nfiles == 0)
		return 0;
	origins_load(s, &o, &err);	/* a damaged section: one origin, said by the key file */
	if (filter_place_files(f, &o, &bad) == 0) {
		origins_free(&o);
		return 0;
	}
	snprintf(msg, n, "%s: --files %s: no input of that name (its inputs: ", textout_esc(file),
	    textout_esc(bad));
	for (size_t i = 0; i < o.n && (used = strlen(msg)) + 1 < n; i++)
		snprintf(msg + used, n - used, "%s%s", i ? ", " : "", textout_esc(o.v[i].name));
	used = strlen(msg);
	if (used + 1 < n)
		snprintf(msg + used, n - used, ")");
	origins_free(&o);
	return -1;
}

int
filter_opts_setup(struct filter_opts *fo, const struct session *s, const char *file, char *msg,
    size_t n)
{
	const struct attr_table *at = session_attrs(s);
	uint64_t first = 0, last = 0;
	bool cpu = false;

	if (fo->time != NULL) {
		if (strchr(fo->time, '%') != NULL && !filter_sample_span(s, &first, &last)) {
			snprintf(msg, n, "%s: no sample has a time: --time %s cannot be placed",
			    textout_esc(file), textout_esc(fo->time));
			return -1;
		}
		if (filter_parse_time(&fo->f, fo->time, first, last) < 0) {
			snprintf(msg, n, "bad value '%s' for %s", textout_esc(fo->time),
			    opt_what(FILTER_OPT_TIME));
			return -1;
		}
		for (size_t i = 0; i < fo->f.ntime; i++)
			if (fo->f.time[i].end != 0 && fo->f.time[i].end < fo->f.time[i].start) {
				snprintf(msg, n, "--time %s: a range ends before it starts", textout_esc(fo->time));
				return -1;
			}
	}
	if (filter_opts_place_files(&fo->f, s, file, msg, n) < 0)
		return -1;
	for (size_t i = 0; i < at->n; i++)
		cpu |= (at->v[i].attr.sample_type & PERF_SAMPLE_CPU) != 0;
	if (fo->f.ncpus != 0 && !cpu) {
		snprintf(msg, n, "%s: no event records its cpu: --cpu cannot choose",
		    textout_esc(file));
		return -1;
	}
	return 0;
}

const char *
filter_opts_part(int val, const char *v, size_t i, char *buf, size_t n)
{
	if (val != FILTER_OPT_TIME || strchr(v, ':') == NULL)
		return v;
	for (; i > 0 && v != NULL; i--) {
		v = strchr(v, ':');
		v = v != NULL ? v + 1 : NULL;
	}
	if (v == NULL || *v == '\0')
		return NULL;
	snprintf(buf, n, "%.*s", (int)strcspn(v, ":"), v);
	return buf;
}

const struct hist_filter *
filter_opts_filter(const struct filter_opts *fo)
{
	return filter_active(&fo->f) ? &fo->f : NULL;
}

void
filter_opts_free(struct filter_opts *fo)
{
	filter_free(&fo->f);
	fo->time = NULL;
}
