/*
 * filter_opts.h: the scope options (perf's --time, --pid, --tid, --comms,
 * --cpu, --dsos, --symbols) shared by the text subcommands and the TUI's
 * start: the entries to put in a subcommand's option table, their values
 * parsed into a struct hist_filter (symbolize/filter.h), and their setup
 * against the open recording (--time's percents need the samples' span,
 * --cpu an event that records the cpu, --files the recording's inputs).
 *
 * Nothing here prints: a bad value or setup gives back a message (without
 * the "perfnav NAME: " prefix) for the caller to show where it shows
 * messages.
 */
#ifndef PERFNAV_TUI_CMD_FILTER_OPTS_H
#define PERFNAV_TUI_CMD_FILTER_OPTS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "symbolize/filter.h"

struct session;

/* The options' values (struct cmd_opt.val): above every subcommand's own. */
enum {
	FILTER_OPT_TIME = 0x4000,
	FILTER_OPT_PID,
	FILTER_OPT_TID,
	FILTER_OPT_COMMS,
	FILTER_OPT_CPU,
	FILTER_OPT_DSOS,
	FILTER_OPT_SYMBOLS,
	FILTER_OPT_FILES,
	FILTER_OPT_END
};

/* Is val one of the scope options? */
static inline bool
filter_opt_is(int val)
{
	return val >= FILTER_OPT_TIME && val < FILTER_OPT_END;
}

/*
 * The entries of a subcommand's option table (struct cmd_opt lines; put
 * one of these inside the table, before its NULL line).  FILTER_OPTS_ROWS
 * words them as perf report takes them (pids, tids, comms, DSOs and
 * symbols choose rows, the totals stay the recording's); FILTER_OPTS_SAMPLES
 * as perf script does (each leaves other samples out).
 */
/* clang-format off */
#define FILTER_OPT_TIME_HELP \
	"START,END: only samples in this time span, as perf --time: seconds as perf script prints " \
	"them, either side open (\"12.5,\"); several spans separated by spaces; or percents of the " \
	"recording: 10%/2 (the second tenth), 0%-10%,30%-40%, 25%"
#define FILTER_OPT_CPU_HELP \
	"CPUS: only samples on these cpus, e.g. 0-2,4 (samples of events that do not record the " \
	"cpu are left out)"
#define FILTER_OPT_FILES_HELP \
	"FILE,...: only samples of these inputs of a merged recording (perfnav merge), named as the " \
	"sort key file prints them or by their last path component; totals are of those, so an " \
	"input's are its own (a recording not merged is one input, its path)"
#define FILTER_OPTS_ROWS \
	{ "time", 1, FILTER_OPT_TIME, FILTER_OPT_TIME_HELP "; percentages are then of the samples inside" }, \
	{ "pid", 1, FILTER_OPT_PID, "PID,...: rows of these processes only (the totals stay the recording's, as perf report --pid)" }, \
	{ "pids", 1, FILTER_OPT_PID, "PID,...: the same as --pid" }, \
	{ "tid", 1, FILTER_OPT_TID, "TID,...: rows of these threads only (totals unchanged, as perf report --tid)" }, \
	{ "tids", 1, FILTER_OPT_TID, "TID,...: the same as --tid" }, \
	{ "comms", 1, FILTER_OPT_COMMS, "COMM,...: rows of these commands only (totals unchanged, as perf report --comms)" }, \
	{ "cpu", 1, FILTER_OPT_CPU, FILTER_OPT_CPU_HELP "; percentages are of those, as perf report --cpu" }, \
	{ "dsos", 1, FILTER_OPT_DSOS, "DSO,...: rows of samples in these DSOs only, by short name (as the dso column) or path (totals unchanged, as perf report --dsos)" }, \
	{ "symbols", 1, FILTER_OPT_SYMBOLS, "SYM,...: rows of samples in these functions (exact names) or at these addresses (0x55d5...) only (totals unchanged, as perf report --symbols)" }, \
	{ "files", 1, FILTER_OPT_FILES, FILTER_OPT_FILES_HELP }
#define FILTER_OPTS_SAMPLES \
	{ "time", 1, FILTER_OPT_TIME, FILTER_OPT_TIME_HELP }, \
	{ "pid", 1, FILTER_OPT_PID, "PID,...: only samples of these processes" }, \
	{ "pids", 1, FILTER_OPT_PID, "PID,...: the same as --pid" }, \
	{ "tid", 1, FILTER_OPT_TID, "TID,...: only samples of these threads" }, \
	{ "tids", 1, FILTER_OPT_TID, "TID,...: the same as --tid" }, \
	{ "comms", 1, FILTER_OPT_COMMS, "COMM,...: only samples of these commands" }, \
	{ "cpu", 1, FILTER_OPT_CPU, FILTER_OPT_CPU_HELP }, \
	{ "dsos", 1, FILTER_OPT_DSOS, "DSO,...: only samples in these DSOs, by short name (as the dso column) or path" }, \
	{ "symbols", 1, FILTER_OPT_SYMBOLS, "SYM,...: only samples in these functions (exact names) or at these addresses (0x55d5...)" }, \
	{ "files", 1, FILTER_OPT_FILES, FILTER_OPT_FILES_HELP }
/* clang-format on */

/* The options as given: --time is placed once the recording is open. */
struct filter_opts {
	const char		*time;		/* --time's value, or NULL */
	struct hist_filter	 f;		/* the rest parsed; the time ranges after setup */
};

/* A message from here: at most this long (longer ones are cut). */
#define FILTER_OPTS_MSG	512

/*
 * Take option val's value (filter_opt_is(val)) into fo.  Returns 0, or -1
 * with msg set ("bad value 'X' for --comms (comma-separated command
 * names)"); fo keeps the earlier values then.
 */
int filter_opts_take(struct filter_opts *fo, int val, const char *arg, char *msg, size_t n);

/*
 * Set fo up against the open recording s (file: its name, for messages):
 * --time's ranges (percents of the samples' span), a check that some
 * event records the cpu when cpus were given, and --files placed on the
 * recording's inputs (core/origin.h).  Returns 0, or -1 with msg set
 * ("FILE: no event records its cpu: --cpu cannot choose", "FILE: --files
 * X: no input of that name (its inputs: a, b)").
 */
int filter_opts_setup(struct filter_opts *fo, const struct session *s, const char *file,
    char *msg, size_t n);

/*
 * f's --files placed on the inputs of the open recording s (file: its
 * name, for messages): filter_place_files with s's origins.  Returns 0, or
 * -1 with msg naming the input not found and the recording's inputs.
 */
int filter_opts_place_files(struct hist_filter *f, const struct session *s, const char *file,
    char *msg, size_t n);

/*
 * Several recordings (perfnav diff, the browser's diff mode): file i's part
 * of a scope option's value.  --time takes one span list per file
 * separated by ':' ("1.5,2:3.5,4": the first file's, then the second's;
 * files past the last part have none: NULL); other values, and a --time
 * without ':', are every file's (v itself).  A part is copied into buf.
 */
const char *filter_opts_part(int val, const char *v, size_t i, char *buf, size_t n);

/* The filter to give an aggregation: NULL when no option restricts anything. */
const struct hist_filter *filter_opts_filter(const struct filter_opts *fo);

/*
 * The first and last sample's time, as perf takes them for --time's
 * percents: the SAMPLE_TIME header where the recording has one, else those
 * of the index.  False when no sample has a time.
 */
bool filter_sample_span(const struct session *s, uint64_t *first, uint64_t *last);

/* Free what fo holds and empty it. */
void filter_opts_free(struct filter_opts *fo);

#endif
