#include "config.h"

#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "tui/app.h"
#include "tui/cmd/cmd.h"
#include "tui/keys.h"
#include "tui/man.h"
#include "tui/pane.h"

/* ---- roff ---- */

/* Text into roff: backslashes doubled, hyphens as \-, a leading dot or quote guarded. */
static void
roff(FILE *fp, const char *s, size_t n)
{
	for (size_t i = 0; i < n && s[i]; i++) {
		char c = s[i];

		if ((i == 0 || s[i - 1] == '\n') && (c == '.' || c == '\''))
			fputs("\\&", fp);
		if (c == '\\')
			fputs("\\e", fp);
		else if (c == '-')
			fputs("\\-", fp);
		else
			fputc(c, fp);
	}
}

static void
roff_line(FILE *fp, const char *s)
{
	roff(fp, s, strlen(s));
	fputc('\n', fp);
}

/*
 * An option as a tagged paragraph: "--name ARG" (the argument is the help's
 * words before its colon, as --help shows it), then the help.
 */
static void
roff_opt(FILE *fp, const struct cmd_opt *o)
{
	const char *colon = o->has_arg ? strstr(o->help, ": ") : NULL;

	fputs(".TP\n", fp);
	if (o->val > 0 && o->val < 128 && o->val != 'h')
		fprintf(fp, "\\fB\\-%c\\fR, ", o->val);
	fputs("\\fB\\-\\-", fp);
	roff(fp, o->name, strlen(o->name));
	fputs("\\fR", fp);
	if (o->has_arg) {
		fputs(" \\fI", fp);
		if (colon != NULL)
			roff(fp, o->help, (size_t)(colon - o->help));
		else
			fputs("ARG", fp);
		fputs("\\fR", fp);
	}
	fputc('\n', fp);
	roff_line(fp, colon != NULL ? colon + 2 : o->help);
}

static void
roff_opts(FILE *fp, const struct cmd_opt *o)
{
	for (; o != NULL && o->name != NULL; o++)
		if (strcmp(o->name, "help") != 0)
			roff_opt(fp, o);
}

/* A usage text's description: what follows its first line, as paragraphs. */
static void
roff_usage_text(FILE *fp, const char *usage)
{
	const char *p = strchr(usage, '\n');

	if (p == NULL)
		return;
	while (*p == '\n')
		p++;
	fputs(".PP\n", fp);
	roff_line(fp, p);
}

/* ---- what the page says besides the tables ---- */

/* One line per pane, by its key-map name; a pane missing here shows its title only. */
static const struct {
	const char *name, *text;
} pane_texts[] = {
	{ "hot", "the hot functions: perf report's table per event, call paths under each row" },
	{ "procs", "processes and their threads, samples, start and exit, lost samples, comms" },
	{ "events", "every record in time order (r: the latest first) of the scope (z: every record), "
	    "samples with their stacks; "
	    "the filter (f) takes type:NAME pid:N tid:N cpu:N time:A-B comm:NAME event:NAME "
	    "(also the name less perf's modifiers: cpu-clock for cpu-clock:ppp) event:#N (from 1, "
	    "as the header counts) dso:NAME sym:NAME (up to the next KEY: term) symoff:N frame:N "
	    "and words; a term of another KEY: is said and left out" },
	{ "header", "the header and every feature section, with offsets and decode status" },
	{ "hex", "the bytes of a record or section, annotated field by field" },
	{ "topdown", "the call tree from the outermost frames down" },
	{ "bottomup", "the call tree from where samples were taken up" },
	{ "flame", "the flame graph (top-down or bottom-up)" },
	{ "timeline", "samples over time per process, thread or cpu, the lanes outside the scope's "
	    "zoom dimmed; time ranges to scope by, t: zoom into a lane" },
	{ "fscope", "the flame scope: sample density over time, ranges to scope by" },
	{ "summary", "the recording at a glance: samples, lost samples, duration, command line, "
	    "host, perf version, cpus, events, each event's hottest functions, the busiest "
	    "processes and threads, where symbols did not resolve; Enter jumps from a row" },
	{ "help", "every key binding (?)" },
	{ "annotate", "a function's instructions with their samples and source lines" },
	{ "counters", "the counts of a perf stat record file (S)" },
};

static const char *
pane_text(const char *name)
{
	for (size_t i = 0; i < sizeof pane_texts / sizeof pane_texts[0]; i++)
		if (strcmp(pane_texts[i].name, name) == 0)
			return pane_texts[i].text;
	return NULL;
}

static const struct {
	const char *name, *text;
} env_texts[] = {
	{ "NO_COLOR", "when set: the mono theme, unless --theme names another" },
	{ "XDG_CONFIG_HOME", "where perfnav/keys and perfnav/themes/ are looked for (default ~/.config)" },
	{ "DEBUGINFOD_URLS", "debuginfod servers (space-separated URLs) asked, through libdebuginfod, for a binary or its debuginfo by build id when the build-id cache, --symfs, /usr/lib/debug and the recorded path lack it, as perf and gdb ask them; unset or empty: nothing is asked (--no-debuginfod: never)" },
	{ "DEBUGINFOD_CACHE_PATH", "where libdebuginfod keeps the files it downloads (default ~/.cache/debuginfod_client); DEBUGINFOD_TIMEOUT and libdebuginfod's other variables apply too" },
	{ "PERFNAV_OBJDUMP", "the objdump annotate runs (default objdump on the PATH)" },
	{ "PERFNAV_PARALLEL_MIN", "samples from which top, script and the browser resolve on two cores (default 200000; 0: always)" },
	{ "PERFNAV_LOAD_SPLIT_MIN", "bytes of a data section from which loading indexes its second half on a second core (default 64 MiB; 0: always)" },
	{ "PERFNAV_TEST_SYMBOLS_DELAY_MS", "for tests: the browser's symbol workers pause this long before each slice" },
};

static const struct {
	const char *name, *text;
} file_texts[] = {
	{ "./perf.data", "the recording read when none is named" },
	{ "~/.debug/", "perf's build-id cache, where binaries are looked up by build id (--buildid-dir)" },
	{ "/proc/kallsyms", "kernel symbols (--kallsyms)" },
	{ "~/.cache/debuginfod_client/", "files downloaded from debuginfod servers (DEBUGINFOD_CACHE_PATH)" },
	{ "/tmp/perf-PID.map", "JIT symbols of process PID (--perfmap-dir)" },
	{ "$XDG_CONFIG_HOME/perfnav/keys", "key bindings of your own, in the help screen's words: bind MAP KEY ACTION" },
	{ "$XDG_CONFIG_HOME/perfnav/themes/NAME.theme", "colour themes of your own (--theme NAME)" },
	{ PKGDATADIR "/themes/", "the themes perfnav comes with" },
};

/* ---- keys ---- */

struct kctx {
	FILE		*fp;
	bool		 tsv;
	const char	*map;
};

static void
key_line(void *arg, int kind, const char *keys, const char *action, const char *help)
{
	struct kctx *c = arg;

	if (kind == 0) {
		c->map = action;	/* a heading: the map's name */
		if (!c->tsv) {
			fputs(".SS ", c->fp);
			roff(c->fp, action, strlen(action));
			fputs(" keys\n", c->fp);
		}
		return;
	}
	if (c->tsv) {
		fprintf(c->fp, "%s\t%s\t%s\n", c->map, keys, action);
		return;
	}
	fputs(".TP\n.B ", c->fp);
	roff_line(c->fp, keys);
	roff(c->fp, action, strlen(action));
	fputs(": ", c->fp);
	roff_line(c->fp, help);
}

static void
each_key(struct kctx *c)
{
	const char *maps[PANE_COUNT + 1];
	struct keys k;

	for (int i = 0; i < PANE_COUNT; i++)
		maps[i] = pane_ops_of((enum pane_id)i)->name;
	maps[PANE_COUNT] = NULL;
	keys_init(&k, maps);
	keys_parse(&k, keys_default_text, NULL, NULL);
	keys_help(&k, key_line, c);
	keys_free(&k);
}

void
man_keys(FILE *fp)
{
	struct kctx c = { fp, true, "" };

	each_key(&c);
}

/* ---- the page ---- */

static void
page_commands(FILE *fp, const struct man_cmd *cmds)
{
	fputs(".SH COMMANDS\n", fp);
	for (const struct man_cmd *c = cmds; c->name != NULL; c++) {
		const char *nl = strchr(c->spec->usage, '\n');

		fputs(".SS perfnav ", fp);
		roff(fp, c->spec->usage, nl ? (size_t)(nl - c->spec->usage) : strlen(c->spec->usage));
		fputc('\n', fp);
		roff_line(fp, c->help);
		roff_usage_text(fp, c->spec->usage);
		roff_opts(fp, c->spec->opts);
	}
}

static void
page_tail(FILE *fp)
{
	fputs(".SH PANES\n", fp);
	for (int i = 0; i < PANE_COUNT; i++) {
		const struct pane_ops *o = pane_ops_of((enum pane_id)i);
		const char *t = pane_text(o->name);

		fputs(".TP\n.B ", fp);
		roff_line(fp, o->title);
		roff_line(fp, t != NULL ? t : o->title);
	}
	fputs(".SH KEYS\nThe browser's default bindings, as its help screen (?) lists them; "
	    "$XDG_CONFIG_HOME/perfnav/keys rebinds them.\n", fp);
	each_key(&(struct kctx){ fp, false, "" });
	fputs(".SH ENVIRONMENT\n", fp);
	for (size_t i = 0; i < sizeof env_texts / sizeof env_texts[0]; i++) {
		fputs(".TP\n.B ", fp);
		roff_line(fp, env_texts[i].name);
		roff_line(fp, env_texts[i].text);
	}
	fputs(".SH FILES\n", fp);
	for (size_t i = 0; i < sizeof file_texts / sizeof file_texts[0]; i++) {
		fputs(".TP\n.I ", fp);
		roff_line(fp, file_texts[i].name);
		roff_line(fp, file_texts[i].text);
	}
	fputs(".SH EXIT STATUS\n.TP\n0\nsuccess\n.TP\n1\nthe recording could not be read at all\n"
	    ".TP\n2\na bad command line\n.TP\n3\nwith \\-\\-strict: the recording is damaged "
	    "(what was valid is shown)\n", fp);
	fputs(".SH SEE ALSO\n.BR perf (1),\n.BR perf\\-report (1),\n.BR perf\\-script (1),\n"
	    ".BR perf\\-stat (1),\n.BR perf\\-diff (1)\n", fp);
}

void
man_page(FILE *fp, const struct man_cmd *cmds)
{
	fprintf(fp, ".TH PERFNAV 1 \"\" \"perfnav %s\" \"User Commands\"\n", PACKAGE_VERSION);
	fputs(".SH NAME\nperfnav \\- browse Linux perf.data recordings in the terminal\n"
	    ".SH SYNOPSIS\n.B perfnav\n[\\fIOPTIONS\\fR] [\\fIFILE\\fR | \\fIOLD NEW\\fR]\n.br\n"
	    ".B perfnav\n\\fICOMMAND\\fR [\\fIOPTIONS\\fR] [\\fIFILE\\fR]\n.br\n"
	    ".B perfnav \\-\\-version\n.SH DESCRIPTION\n", fp);
	roff_usage_text(fp, tui_usage);
	fputs(".PP\nThe commands print what perf's own commands print, from the same "
	    "recording, for scripts and for comparing with perf.\n", fp);
	fputs(".SH OPTIONS\nThe browser's options; the common options below are taken by every "
	    "command too.\n", fp);
	roff_opts(fp, tui_options);
	fputs(".SS Common options\n", fp);
	roff_opts(fp, cmd_common_opts);
	page_commands(fp, cmds);
	page_tail(fp);
}

/* ---- bash completion ---- */

static void
words(FILE *fp, const struct cmd_opt *o)
{
	for (; o != NULL && o->name != NULL; o++) {
		fprintf(fp, " --%s", o->name);
		if (o->val > 0 && o->val < 128)
			fprintf(fp, " -%c", o->val);
	}
}

void
man_completion(FILE *fp, const struct man_cmd *cmds)
{
	fputs("# bash completion for perfnav, made by perfnav --completion\n"
	    "_perfnav()\n{\n\tlocal cur=${COMP_WORDS[COMP_CWORD]} cmd= i w\n"
	    "\tfor ((i = 1; i < COMP_CWORD; i++)); do\n\t\tcase ${COMP_WORDS[i]} in\n\t\t", fp);
	for (const struct man_cmd *c = cmds; c->name != NULL; c++)
		fprintf(fp, "%s%s", c == cmds ? "" : "|", c->name);
	fputs(") cmd=${COMP_WORDS[i]}; break ;;\n\t\tesac\n\tdone\n\tcase $cmd in\n", fp);
	for (const struct man_cmd *c = cmds; c->name != NULL; c++) {
		fprintf(fp, "\t%s) w=\"", c->name);
		words(fp, c->spec->opts);
		words(fp, cmd_common_opts);
		fputs("\" ;;\n", fp);
	}
	fputs("\t*) w=\"", fp);
	for (const struct man_cmd *c = cmds; c->name != NULL; c++)
		fprintf(fp, "%s%s", c == cmds ? "" : " ", c->name);
	words(fp, tui_options);
	words(fp, cmd_common_opts);
	fputs(" --version\" ;;\n\tesac\n"
	    "\tif [[ $cur == -* || ( -z $cmd && $COMP_CWORD -eq 1 && $cur != */* ) ]]; then\n"
	    "\t\tCOMPREPLY=($(compgen -W \"$w\" -- \"$cur\"))\n"
	    "\t\t[[ ${#COMPREPLY[@]} -gt 0 ]] && return\n\tfi\n"
	    "\tCOMPREPLY=($(compgen -f -- \"$cur\"))\n}\ncomplete -o filenames -F _perfnav perfnav\n",
	    fp);
}
