/*
 * filter.h: which samples an aggregation looks at, as perf report's
 * --time, --cpu, --comms, --pid and --tid choose them, and the parsing of
 * those options' values in perf's syntax, and --dsos and --symbols.
 *
 * Two kinds of conditions, as in perf report 6.1:
 *  - time ranges and cpus leave a sample out altogether (perf skips it
 *    before counting: totals and percentages are of what is inside), and
 *    so do the inputs of a merged recording (perfnav's --files: a sample
 *    of another input is out, so an input's totals are its own);
 *  - pids, tids, comms, DSOs, symbols and parallelism levels (perf
 *    6.15's --parallelism, symbolize/parallel.h) leave a sample out of the rows
 *    only ("only consider symbols in these ..."): it still counts in its
 *    event's total, so percentages stay those of the whole recording.
 *    DSOs and symbols are those of the sample's own address (perf's
 *    machine__resolve); its callchain does not matter.
 * An empty list (count 0) lets everything through.  Nothing here prints.
 */
#ifndef PERFNAV_SYMBOLIZE_FILTER_H
#define PERFNAV_SYMBOLIZE_FILTER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* A time range in perf time (ns); 0 on either side: open. */
struct filter_range {
	uint64_t	start, end;
};

struct hist_filter {
	struct filter_range	*time;
	size_t			 ntime;
	int32_t			*pids;
	size_t			 npids;
	int32_t			*tids;
	size_t			 ntids;
	char			**comms;
	size_t			 ncomms;
	uint32_t		*cpus;
	size_t			 ncpus;
	char			**dsos;		/* short or long names */
	size_t			 ndsos;
	char			**syms;		/* names */
	size_t			 nsyms;
	uint64_t		*sym_ips;	/* sample addresses ("0x55d5...") */
	size_t			 nsym_ips;
	uint64_t		*pars;		/* parallelism levels kept: a bitmap, */
	size_t			 npars;		/* npars words (FILTER_PAR_WORDS); 0: all */
	char			**files;	/* inputs of a merged recording (--files) */
	size_t			 nfiles;
	struct filter_range	*flocs;		/* their data bytes [start, end): */
	size_t			 nflocs;	/* filter_place_files; 0: all */
};

struct frame;
struct origins;
struct symbolizer;

/* Maximum cpu number filter_parse_cpus() accepts. */
#define FILTER_MAX_CPU	65535
/* Highest parallelism level filter_parse_parallelism() accepts (perf's MAX_NR_CPUS). */
#define FILTER_MAX_PAR	4096
#define FILTER_PAR_WORDS	(FILTER_MAX_PAR / 64 + 1)

/*
 * Parse perf's --time value into f's time ranges (replacing any): absolute
 * "START,END" in seconds as perf script prints them ("12.5,", ",13"), several
 * separated by spaces as perf takes them ("1,2 3,4"; "1,2,3,4" is read as
 * the same pairs), each after the one before; or percents of the span from
 * first to last (the first and last sample's time): slices "10%/2" (the
 * second tenth), ranges "0%-10%,30%-40%", a single "25%" (the first quarter),
 * as perf's perf_time__percent_parse_str computes them.  Returns 0, or -1
 * (f unchanged) for a malformed value.
 */
int filter_parse_time(struct hist_filter *f, const char *s, uint64_t first, uint64_t last);

/* Parse comma-separated pids / tids (>= 0) into f.  Returns 0, or -1 (f unchanged). */
int filter_parse_pids(struct hist_filter *f, const char *s);
int filter_parse_tids(struct hist_filter *f, const char *s);

/* Parse comma-separated comm names into f.  Returns 0, or -1 for an empty name. */
int filter_parse_comms(struct hist_filter *f, const char *s);

/*
 * Parse comma-separated DSO names (perf's --dsos: a DSO's short name, as
 * the dso column shows it, or its long name, its path) or symbols (perf's
 * --symbols: exact names; an entry that reads whole as a hex number,
 * "0x55d518bcb1cb", is instead a sample address, as perf takes it) into
 * f.  Returns 0, or -1 (f unchanged) for an empty name.
 */
int filter_parse_dsos(struct hist_filter *f, const char *s);
int filter_parse_symbols(struct hist_filter *f, const char *s);

/*
 * Parse comma-separated input names (perfnav's --files: the inputs of a
 * merged recording, core/origin.h) into f.  Returns 0, or -1 (f unchanged)
 * for an empty name.  They choose nothing until placed (filter_place_files).
 */
int filter_parse_files(struct hist_filter *f, const char *s);

/*
 * Place f's input names on the recording's origins o: the data bytes of
 * every origin whose name (as the sort key file prints it) or its last
 * path component is one of them go into f->flocs.  Returns 0, or -1 with
 * *bad the first name that no origin has (f->flocs then empty).
 */
int filter_place_files(struct hist_filter *f, const struct origins *o, const char **bad);
/* Does input name (as the key file prints it) answer to want: whole, or its last component? */
bool filter_file_named(const char *name, const char *want);

/*
 * Is the record at location loc (a file-mode offset) in f's inputs?  As
 * --time and --cpu, a sample outside is out of the counts altogether.
 */
bool filter_loc_ok(const struct hist_filter *f, uint64_t loc);

/*
 * Parse perf's --cpu list ("0-2,4") into f.  Returns 0, or -1 (f unchanged)
 * for a malformed list, a reversed range or a cpu over FILTER_MAX_CPU.
 */
int filter_parse_cpus(struct hist_filter *f, const char *s);

/*
 * Parse perf 6.15's --parallelism list ("1", "7,8", "1,64-128": levels as
 * perf's cpu lists) into f.  Returns 0, or -1 (f unchanged) for a malformed
 * list, a reversed range, a level 0 or over FILTER_MAX_PAR.
 */
int filter_parse_parallelism(struct hist_filter *f, const char *s);

/* Does a counted sample of this parallelism go into rows (level 0: unknown, in)? */
bool filter_par_ok(const struct hist_filter *f, uint32_t level);

/* Does f restrict anything? */
bool filter_active(const struct hist_filter *f);

/*
 * Is a sample of this time (ns, 0: none) within f's time ranges?  As perf's
 * perf_time__ranges_skip_sample: a sample without a time is always in; one
 * range includes both ends; open ends are unbounded.
 */
bool filter_time_ok(const struct hist_filter *f, uint64_t time);

/*
 * Is a sample counted at all (time and cpu)?  With cpus listed, a sample
 * that has no cpu (has_cpu false) is out.
 */
bool filter_sample_ok(const struct hist_filter *f, uint64_t time, bool has_cpu, uint32_t cpu);

/* Does a counted sample go into rows (pid, tid, comm; comm may be NULL: no comm)? */
bool filter_entry_ok(const struct hist_filter *f, int32_t pid, int32_t tid, const char *comm);

/* Does f name DSOs, symbols or sample addresses (filter_frame_ok() matters)? */
bool filter_has_frame(const struct hist_filter *f);

/*
 * Does a counted sample whose own address resolved to fr (z: the
 * symbolizer that resolved it, NULL: nothing resolved) go into rows, by
 * f's DSOs and symbols?  As perf: a sample in no DSO is out when DSOs are
 * listed; with symbols listed, a sample is in when its symbol's name is
 * listed or its address (fr->ip) is.
 */
bool filter_frame_ok(const struct hist_filter *f, const struct symbolizer *z,
    const struct frame *fr);

/* Do a and b (either may be NULL: no filter) choose the same samples? */
bool filter_equal(const struct hist_filter *a, const struct hist_filter *b);

/* dst a copy of src (NULL: an empty filter) that owns all it holds (filter_free). */
void filter_copy(struct hist_filter *dst, const struct hist_filter *src);

/* A list of names (comms, dsos, syms; owned) replaced by the one name. */
void filter_set_name(char ***list, size_t *n, const char *name);

/* Free what f holds and empty it. */
void filter_free(struct hist_filter *f);

#endif
