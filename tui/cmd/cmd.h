/*
 * cmd.h: the text subcommands (perfnav header|stats|dump|hex|...) and the
 * options they share.  Each cmd_* takes its argv (argv[0] its name) and
 * returns the process exit status; each runs the same path (struct
 * cmd_run): cmd_begin() parses, cmd_load() opens the recording, its own
 * work prints to standard output, cmd_end() reports and frees.  A new
 * subcommand is one file here plus its line in tui/main.c's table.
 */
#ifndef PERFNAV_TUI_CMD_CMD_H
#define PERFNAV_TUI_CMD_CMD_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "core/session.h"
#include "symbolize/hist_cache.h"

struct session;

/* Options every subcommand and the TUI accept. */
struct common_opts {
	const char	*input;		/* -i FILE or the positional FILE; default perf.data */
	const char	*buildid_dir;	/* --buildid-dir DIR */
	const char	*kallsyms;	/* --kallsyms FILE */
	const char	*perfmap_dir;	/* --perfmap-dir DIR */
	const char	*symfs;		/* --symfs DIR */
	bool		 no_debuginfod;	/* --no-debuginfod */
	const char	*bundle;	/* the bundle input names (cmd_bundle_input), or NULL */
	bool		 bundle_only;	/* symbols from the bundle's files alone */
	const char	*theme;		/* --theme NAME|PATH */
	bool		 strict;	/* --strict: damage gives EXIT_DAMAGED */
	uint64_t	 max_memory;	/* --max-memory SIZE, 0 for the default */
	bool		 no_cache;	/* --no-cache: no cache entry read or written */
	bool		 cache_own;	/* the index entry saved by cmd_cache_save_index, not
					 * by cmd_cache_opened (the browser: its own message) */
	uint64_t	 cache_size;	/* --cache-size SIZE, 0 for the default (2G) */
	bool		 merge;		/* --merge: FILE FILE... opened as one */
};

/* Exit statuses. */
enum {
	EXIT_OK = 0,
	EXIT_FAIL = 1,		/* cannot read the recording at all */
	EXIT_USAGE = 2,		/* bad command line */
	EXIT_DAMAGED = 3,	/* with --strict: read, but damaged (output is what was valid) */
};

/*
 * Extra options of one subcommand, handled by its callback: returns 0, or
 * -1 for a bad value.  ch is the short option char or the long option's val.
 */
struct cmd_opt {
	const char	*name;		/* long name, NULL ends the table */
	int		 has_arg;	/* 0 or 1 */
	int		 val;		/* short char or a value >= 256 */
	const char	*help;
};
typedef int (*cmd_opt_fn)(void *arg, int val, const char *optarg);

/*
 * Parse argv (argv[0] is the subcommand name): common options, the
 * subcommand's extra options, and positional arguments (the first is the
 * input file unless -i was given; others are returned in pos/npos).
 * Prints usage on --help (returns 1 with *exit_status EXIT_OK) or a bad
 * option (returns 1 with EXIT_USAGE).  Returns 0 to go on.
 */
int opts_parse(int argc, char **argv, const char *usage, const struct cmd_opt *extra,
    cmd_opt_fn fn, void *arg, struct common_opts *co, char ***pos, int *npos, int *exit_status);

/* A count option's value: a decimal in [0, max] into *out; 0, or -1 if
 * it is not one. */
int opts_count(const char *arg, long max, long *out);
/* A size option's value: digits with an optional K, M, G or T suffix
 * (powers of 1024; "KiB", "MB" also read) into *out; 0, or -1 if it is
 * not one. */
int opts_size(const char *arg, uint64_t *out);

/*
 * A subcommand's command line: the usage text after "perfnav ", its own
 * options and their callback (NULL, NULL for none), and how many
 * positional arguments it takes after FILE (-1: it checks them itself).
 */
/*
 * A subcommand, whole: its name, its one-line summary (perfnav --help),
 * its entry point, its usage (first line: the synopsis; then what it
 * does), its options and their handler, the positional arguments it takes
 * after FILE.  --help, perfnav(1) and the bash completion read it.
 */
struct cmd_spec {
	const char		*name;
	const char		*summary;
	int			(*run)(int argc, char **argv);
	const char		*usage;
	const struct cmd_opt	*opts;
	cmd_opt_fn		 fn;
	int			 maxpos;
};

/*
 * One run of a text subcommand, from its command line to its exit status:
 * cmd_begin() parses the command line, cmd_load() opens the recording,
 * cmd_symbolizer() makes a symbolizer for it, cmd_end() reports the
 * recording's problems and frees, cmd_quit() frees after a late usage
 * error.  Each subcommand's own work goes between.
 */
struct cmd_run {
	const char		*name;		/* the subcommand: "top" */
	struct common_opts	 co;
	char			**pos;		/* positional arguments after FILE */
	int			 npos;
	struct session		*s;		/* from cmd_load(), else NULL */
	struct symbolizer	*z;		/* from cmd_symbolizer(), else NULL */
	bool			 check_write;	/* a write error on stdout: EXIT_FAIL */
	int			 status;	/* the exit status so far: EXIT_OK */
};

/*
 * Start run r of the subcommand argv[0]: parse argv as spec says (arg goes
 * to spec->fn) and check the positional arguments' count.  Returns 0 to go
 * on, or -1 to return r->status now: EXIT_OK after --help, EXIT_USAGE after
 * a bad command line (message printed).
 */
int cmd_begin(struct cmd_run *r, int argc, char **argv, const struct cmd_spec *spec, void *arg);

/* The options every subcommand takes, and each subcommand's spec (its usage
 * and options): what --help prints, and the man page and completion too. */
extern const struct cmd_opt cmd_common_opts[];
extern const struct cmd_spec annotate_spec, bundle_spec, cache_spec, diff_spec, dump_spec, export_spec, folded_spec, header_spec,
    hex_spec, merge_spec, sched_spec, script_spec, stat_spec, stats_spec, top_spec, tree_spec;
/* Open r's recording into r->s (index: build the time-ordered index and
 * the threads).  0, or -1 with the message printed and r->status EXIT_FAIL. */
int cmd_load(struct cmd_run *r, bool index);
/* A symbolizer for r's recording with the common options, r->z (freed by
 * cmd_end()).  Never fails. */
struct symbolizer *cmd_symbolizer(struct cmd_run *r);
/*
 * End run r: flush standard output, print the files r->z refused and the
 * recording's diagnostics on stderr, free r->z and r->s.  Returns the exit
 * status: EXIT_FAIL after a write error on stdout (with check_write, the
 * error said), else r->status if it is not EXIT_OK, else
 * cmd_report_diags()'s.
 */
int cmd_end(struct cmd_run *r);
/* End run r after an error found once the recording was open (a bad
 * --event, say): free without reporting.  Returns status. */
int cmd_quit(struct cmd_run *r, int status);

/* Open co->input, printing diagnostics to stderr as
 * "perfnav: FILE: offset 0x...: what".  NULL (message printed) on failure. */
struct session *cmd_open(const struct common_opts *co, bool index);
/*
 * The browser's open of co->input (indexed, who each record is about
 * kept), its progress told to fn (core/session.h: a nonzero return stops
 * the load); messages go to stderr as cmd_open's.
 */
struct session *cmd_open_browse(const struct common_opts *co, session_progress_fn fn, void *arg);
/* Print the session's diagnostics to stderr; returns EXIT_DAMAGED if the
 * recording is damaged and strict (--strict, co->strict) is set, else
 * EXIT_OK. */
int cmd_report_diags(const struct session *s, bool strict);

int cmd_header(int argc, char **argv);
int cmd_merge(int argc, char **argv);
/*
 * --merge: co->input and the n files of pos merged (perfnav merge) into a
 * temporary file (removed once opened, or at exit), which becomes
 * co->input (with no cache entry); *npos becomes 0.  0, or -1 with the
 * message printed (cmd names the command in it, "" for the browser).
 */
int cmd_merge_inputs(struct common_opts *co, char **pos, int *npos, const char *cmd);
/* After path was opened: if it is --merge's temporary file, remove it now
 * (the session maps it; nothing opens it again), so that no end of the
 * process, a signal's included, leaves it behind. */
void cmd_merge_opened(const char *path);
int cmd_cache(int argc, char **argv);

/*
 * The cache's policy (cmd_cache.c; core/session_cache.h keeps the
 * entries).  cmd_cache_dir: $XDG_CACHE_HOME/perfnav or ~/.cache/perfnav
 * into buf (NULL: neither is an absolute path).  cmd_cache_setup: the
 * directory for co's open (made 0700 if need be) into dir, or -1 for
 * none (--no-cache, standard input, a directory not safely the user's:
 * said on stderr).  cmd_cache_opened: after the open, tell an entry that
 * was refused, make room under the bound (least recently used first) and
 * save the session's entry on a thread of its own (with co->cache_own,
 * only the first: cmd_cache_save_index then does the rest, false with why
 * set when the entry is larger than the bound, which cmd_cache_opened says
 * on stderr itself; the browser calls it after its load, and shows why).
 * Once saved, the session's index is read from the entry's pages
 * (core/session_cache.h).  cmd_cache_close:
 * before session_close, wait for that save and tell if it failed.
 */
const char *cmd_cache_dir(char *buf, size_t n);
uint64_t cmd_cache_bound(const struct common_opts *co);
int cmd_cache_setup(const struct common_opts *co, char *dir, size_t n);
void cmd_cache_opened(const struct common_opts *co, struct session *s, const char *dir);
bool cmd_cache_save_index(const struct common_opts *co, struct session *s, char *why, size_t n);
void cmd_cache_close(struct session *s);
/*
 * Finished hists kept beside the index (symbolize/hist_cache.h), for
 * r->s and r->z, options ho and symbol options so.  get: HIST_CACHE_OK
 * with *out (not finished), else build it (a refusal is said on stderr);
 * put: keep h after use (said on stderr when it fails).
 */
enum hist_cache_result cmd_cache_hist_get(struct cmd_run *r, const struct sym_opts *so,
    const struct hist_opts *ho, struct hist **out);
void cmd_cache_hist_put(struct cmd_run *r, const struct sym_opts *so, struct hist *h);
/*
 * The same for the browser (tui/symbols.c), from a worker thread: the hist
 * of options ho kept for s read back into z (refusals said on stderr) ...
 */
enum hist_cache_result cmd_cache_hist_read(const struct common_opts *co, const struct session *s,
    struct symbolizer *z, const struct sym_opts *so, const struct hist_opts *ho,
    struct hist **out);
/* ... whether a hist of options ho would be kept ... */
bool cmd_cache_hist_wanted(const struct common_opts *co, const struct session *s,
    const struct hist_opts *ho);
/*
 * ... and one written from its pack k (hist_cache_pack_start of h; freed
 * here, NULL: nothing), sub its hist_cache_sub, the bound kept: straight
 * into the file's pages (session_cache_aux_fill).
 */
void cmd_cache_hist_write(const struct common_opts *co, const struct session *s, uint64_t sub,
    struct hist_pack *k, const struct hist *h);
int cmd_stats(int argc, char **argv);
int cmd_sched(int argc, char **argv);
int cmd_stat(int argc, char **argv);
int cmd_dump(int argc, char **argv);
int cmd_hex(int argc, char **argv);
int cmd_script(int argc, char **argv);
/* script's counter table for 'perf stat record' files (STAT records);
 * returns the lines printed. */
int script_print_stat(const struct session *s, FILE *fp);
struct symbolizer;
/*
 * What `perfnav script` prints to standard output for a loaded (indexed)
 * session, written to fp with symbols from z: fields NULL for script's
 * default fields, else a -F list; callchain as -g (true) or -G (false).
 * Returns 0, or -1 (message on stderr, nothing written) for an unknown
 * field.
 */
int script_print(const struct session *s, struct symbolizer *z, const char *fields, bool callchain,
    unsigned max_stack, FILE *fp);
int cmd_top(int argc, char **argv);
int cmd_tree(int argc, char **argv);
int cmd_folded(int argc, char **argv);
int cmd_export(int argc, char **argv);
/* What perfnav export writes (tui/cmd/cmd_export.c), for the fuzz harness too. */
enum export_format { EXPORT_FOLDED, EXPORT_SPEEDSCOPE, EXPORT_PPROF, EXPORT_SVG, EXPORT_PERF };
struct hist_filter;
struct offcpu;
struct export_spec_args {
	enum export_format	 format;
	const char		*event;		/* NULL: every event */
	const struct hist_filter *filter;	/* the scope options, or NULL */
	const struct offcpu	*offcpu;	/* off-CPU spans in place of the samples, or NULL */
	bool			 period;	/* folded: periods, not samples */
	const char		*name;		/* the recording's name (speedscope's) */
	bool			 aggregate;	/* pprof: a sample per stack and thread */
	bool			 inverted;	/* svg: an icicle, the root at the top */
	bool			 compress;	/* perf: -z, zstd COMPRESSED records */
};
/* Write s's samples in format e->format to fp with symbols from z.  0, or -1 for another format. */
int export_print(const struct session *s, struct symbolizer *z, const struct export_spec_args *e, FILE *fp);
struct carve_result;
struct perf_err;
/*
 * --format perf (tui/cmd/export_perf.c): a perf.data of s with the samples
 * of e's scope (e->event, e->filter; z resolves them for --dsos and
 * --symbols), written to fd from offset 0 (core/carve.h: fd must seek).
 * 0, or -1 with err filled.
 */
int export_carve(const struct session *s, struct symbolizer *z, const struct export_spec_args *e, int fd,
    struct carve_result *res, struct perf_err *err);
int cmd_annotate(int argc, char **argv);
int cmd_bundle(int argc, char **argv);
/*
 * If co->input is a bundle (symbolize/bundle.h: a directory or tar written
 * by perfnav bundle), check it and point co at it: input its perf.data,
 * and unless given, buildid_dir, kallsyms and perfmap_dir its own, with
 * bundle_only set.  A --buildid-dir that is a tar (perf archive's
 * tarball) is unpacked.  Unpacked tars are removed at exit.  0, or -1
 * with the message on stderr (a damaged or hostile bundle).
 */
int cmd_bundle_input(struct common_opts *co);
int cmd_diff(int argc, char **argv);

struct symbolizer;
/*
 * One line on fp per file z refused ("perfnav: PATH: refused: REASON") or
 * read only in part ("perfnav: PATH: cut short: REASON"), each path once:
 * what the text subcommands and the TUI (after it ends) print on stderr.
 * Returns the number of lines.
 */
size_t cmd_report_refusals(FILE *fp, const struct symbolizer *z);
/*
 * For --why: the DSOs whose files came from debuginfod servers, each file
 * with its path in the client's cache and the URL it was downloaded from,
 * after "#\n" and a heading; lines start with pre.  Nothing when none did.
 * Returns the number of files.
 */
size_t cmd_report_debuginfod(FILE *fp, const struct symbolizer *z, const char *pre);

struct sym_opts;
/* Map the common symbolization options onto the symbolizer's options. */
void cmd_sym_opts(const struct common_opts *co, struct sym_opts *so);

struct offcpu;
/*
 * --off-cpu of subcommand cmd: the off-CPU spans of r's recording into oc
 * (symbolize/offcpu.h), and on stderr what was left out and, for a source
 * other than sched_switch samples, which one it was (approximate for
 * SWITCH records).  Returns 0, or -1 (message on stderr) when the recording
 * has no source.
 */
int cmd_offcpu(const char *cmd, const struct cmd_run *r, struct offcpu *oc);

#endif
