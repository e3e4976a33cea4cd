#include "config.h"

#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "tui/app.h"
#include "tui/cmd/cmd.h"
#include "tui/keys.h"
#include "tui/man.h"
#include "tui/pane.h"
#include "tui/theme.h"

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
	{ "$XDG_CONFIG_HOME/perfnav/keys", "key bindings of your own, in the help screen's words: bind MAP KEY ACTION (perfnav-config(5))" },
	{ "$XDG_CONFIG_HOME/perfnav/themes/NAME.theme", "colour themes of your own (--theme NAME; perfnav-config(5))" },
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

/* The browser's maps (global, then every pane's) with the default bindings, as it starts. */
static void
default_keys(struct keys *k)
{
	const char *maps[PANE_COUNT + 1];

	for (int i = 0; i < PANE_COUNT; i++)
		maps[i] = pane_ops_of((enum pane_id)i)->name;
	maps[PANE_COUNT] = NULL;
	keys_init(k, maps);
	pane_keys_defaults(k, NULL, NULL);
}

static void
each_key(struct kctx *c)
{
	struct keys k;

	default_keys(&k);
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
page_commands(FILE *fp, const struct cmd_spec *const *cmds)
{
	fputs(".SH COMMANDS\n", fp);
	for (const struct cmd_spec *const *cp = cmds; *cp != NULL; cp++) {
		const struct cmd_spec *c = *cp;
		const char *nl = strchr(c->usage, '\n');

		fputs(".SS perfnav ", fp);
		roff(fp, c->usage, nl ? (size_t)(nl - c->usage) : strlen(c->usage));
		fputc('\n', fp);
		roff_line(fp, c->summary);
		roff_usage_text(fp, c->usage);
		roff_opts(fp, c->opts);
	}
}

static void
page_tail(FILE *fp)
{
	static const char *const tab_keys[PANE_NTABS] = {
#define X(id, ops, key) key,
		PANES(X)
#undef X
	};

	fputs(".SH PANES\nTab, a tab's key (in parentheses below) or a click on a tab switch panes; "
	    "Enter drills into the selected row (a process, a thread, a function, a sample, its "
	    "bytes) and Esc goes back, as a browser's history does. A zoom, a time range or a "
	    "call\\-path transform is a step of the one scope every analysis pane shows, named in "
	    "the title; Esc undoes it.\n", fp);
	for (int i = 0; i < PANE_COUNT; i++) {
		const struct pane_ops *o = pane_ops_of((enum pane_id)i);
		const char *t = o->description;

		fputs(".TP\n.B ", fp);
		roff(fp, o->title, strlen(o->title));
		if (i < PANE_NTABS)
			fprintf(fp, " (%s)", tab_keys[i]);
		fputc('\n', fp);
		roff_line(fp, t != NULL ? t : o->title);
	}
	fputs(".SH OFF\\-CPU TIME\nA thread switched out is off CPU until it is switched in "
	    "again; that time is charged to the stack it was switched out with, as the event "
	    "off\\-cpu beside the recorded ones (} reaches it): the hot functions, the trees and the "
	    "flame graph show where threads waited, the processes pane each thread's time on and off "
	    "CPU, the timeline its waits by the state it left in (sleeping, blocked, preempted). "
	    "Sources, in this order: sched:sched_switch samples with callchains (perf record \\-e "
	    "sched:sched_switch \\-g, perf sched record \\-g); else PERF_RECORD_SWITCH records "
	    "(\\-\\-switch\\-events; approximate: a switch\\-out is charged to the thread's last "
	    "sample); else perf record \\-\\-off\\-cpu's offcpu\\-time samples. A switch\\-out never "
	    "switched back in is left out. The commands top \\-\\-off\\-cpu, folded \\-\\-off\\-cpu, "
	    "script \\-\\-off\\-cpu and sched timehist print it.\n", fp);
	fputs(".SH KEYS\nThe browser's default bindings, as its help screen (?) lists them; "
	    "$XDG_CONFIG_HOME/perfnav/keys rebinds them (see perfnav\\-config(5)).\n", fp);
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
	fputs(".SH SEE ALSO\n.BR perfnav\\-config (5),\n.BR perf (1),\n.BR perf\\-report (1),\n"
	    ".BR perf\\-script (1),\n.BR perf\\-stat (1),\n.BR perf\\-diff (1)\n", fp);
}

void
man_page(FILE *fp, const struct cmd_spec *const *cmds)
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

/* ---- perfnav-config(5): the keys file and the theme files ---- */

/* What each colour element colours; an element missing here is listed as undescribed. */
static const struct {
	const char *name, *text;
} element_texts[] = {
	{ "normal", "text that has no element of its own" },
	{ "title", "the first line: the file, perf's version, the events, samples and symbols" },
	{ "tab", "the tabs of the panes, on the second line" },
	{ "tab-active", "the tab of the pane shown" },
	{ "status", "the last line: where you are, the row count and the key hints" },
	{ "message", "a message on the status line" },
	{ "error", "an error on the status line (a wrong word in a typed scope, bad lines of the keys file)" },
	{ "column-header", "the header line of a list's or tree's columns" },
	{ "cursor", "the selected row or field, and the time cursor of the timeline and the heat map" },
	{ "search-match", "taken by theme files; no view draws with it at present" },
	{ "tree", "tree glyphs, and the frames of a sample's stack in the events list" },
	{ "dim", "secondary text: zero counts, rows outside the scope, notes" },
	{ "hot-high", "a large share of samples (in the hot functions 5% and more)" },
	{ "hot-mid", "a middling share (in the hot functions 0.5% to 5%)" },
	{ "hot-low", "a small share (in the hot functions under 0.5%)" },
	{ "rec-sample", "a SAMPLE record in the events list" },
	{ "rec-meta", "a record of another type in the events list" },
	{ "rec-task", "a COMM, FORK or EXIT record in the events list" },
	{ "pid", "process and thread ids" },
	{ "comm", "command names" },
	{ "time", "timestamps and durations" },
	{ "hex-offset", "offsets: the hex view's, the header pane's, annotate's addresses" },
	{ "hex-bytes", "the bytes of the hex view" },
	{ "hex-ascii", "the ASCII column of the hex view" },
	{ "hex-field", "the bytes of the selected field in the hex view" },
	{ "field-name", "a decoded field's name (hex view, header pane, summary)" },
	{ "field-value", "a decoded field's value" },
	{ "damaged", "damaged bytes, records and diagnostics" },
	{ "warning", "lost samples and records, refused files, other warnings" },
	{ "key", "key names in the help screen" },
	{ "progress", "the progress bar while symbols are resolved" },
	{ "flame-user", "flame graph: the program's own code" },
	{ "flame-kernel", "flame graph: kernel frames" },
	{ "flame-system", "flame graph: libc, ld.so, the vdso, libraries under /lib and /usr/lib" },
	{ "flame-jit", "flame graph: JIT code (perf-PID.map, [JIT], jitted-*.so)" },
	{ "flame-unresolved", "flame graph: frames without a symbol" },
	{ "flame-selected", "flame graph: the selected frame" },
	{ "flame-match", "flame graph: frames the search matched" },
	{ "flame-offcpu", "flame graph of the off-cpu event: the program's frames" },
	{ "flame-offcpu-kernel", "flame graph of the off-cpu event: kernel frames" },
	{ "timeline-1", "timeline and heat map: the lowest density of samples (timeline by "
	    "parallelism, P: the fewest threads running, as its legend says)" },
	{ "timeline-2", "timeline and heat map: a low density (by parallelism: more threads)" },
	{ "timeline-3", "timeline and heat map: a high density (by parallelism: more still)" },
	{ "timeline-4", "timeline and heat map: the highest density (by parallelism: the most)" },
	{ "timeline-lost", "timeline: a column where LOST or LOST_SAMPLES records fall" },
	{ "timeline-offcpu", "timeline: a column a thread spent mostly switched out (sleeping, or the state unknown)" },
	{ "timeline-blocked", "timeline: a column a thread spent mostly blocked (uninterruptible, D)" },
	{ "timeline-preempted", "timeline: a column a thread spent mostly preempted (runnable, R+)" },
	{ "timeline-wakeup", "timeline: a column where a thread was woken (the wakeup that ended an off-CPU span)" },
	{ "timeline-highlight", "timeline: where the function selected in the hot functions was sampled" },
	{ "timeline-range", "timeline and heat map: the time range being marked" },
	{ "diff-grew", "diff mode: a Delta that grew" },
	{ "diff-shrank", "diff mode: a Delta that shrank" },
	{ "flame-grew-1", "differential flame graph: a share grown by 0.1 point or more" },
	{ "flame-grew-2", "differential flame graph: grown by 1 point or more" },
	{ "flame-grew-3", "differential flame graph: grown by 5 points or more" },
	{ "flame-shrank-1", "differential flame graph: a share shrunk by 0.1 point or more" },
	{ "flame-shrank-2", "differential flame graph: shrunk by 1 point or more" },
	{ "flame-shrank-3", "differential flame graph: shrunk by 5 points or more" },
	{ "flame-same", "differential flame graph: a share that stayed within 0.1 point" },
};

static const char *
element_text(const char *name)
{
	for (size_t i = 0; i < sizeof element_texts / sizeof element_texts[0]; i++)
		if (strcmp(element_texts[i].name, name) == 0)
			return element_texts[i].text;
	return NULL;
}

/* A colour as a theme file writes it. */
static void
color_word(FILE *fp, const struct tcolor *c)
{
	if (c->kind == TC_DEFAULT)
		fputs("default", fp);
	else if (c->kind == TC_RGB)
		fprintf(fp, "#%06x", (unsigned)c->v);
	else if (theme_color_name(c->v) != NULL)
		roff(fp, theme_color_name(c->v), strlen(theme_color_name(c->v)));
	else
		fprintf(fp, "%u", (unsigned)c->v);
}

static void
attr_words(FILE *fp, unsigned attrs)
{
	const char *n;
	unsigned bit;

	for (size_t i = 0; (n = theme_attr_name(i, &bit)) != NULL; i++)
		if (bit != 0 && (attrs & bit))
			fprintf(fp, " %s", n);
}

static void
config_syntax(FILE *fp)
{
	fputs(".SH SYNTAX\nBoth kinds of file are lines of words separated by blanks. A word that "
	    "starts with # starts a comment, to the end of the line. There is no quoting: quotes and "
	    "backslashes are ordinary characters. Blank lines and comments are skipped. A line perfnav "
	    "cannot take (an unknown word, too many or too few words, a line too long) is skipped and "
	    "reported with its number; the lines around it still apply.\n", fp);
}

/* The maps: global, then each pane's, with its title. */
static void
config_maps(FILE *fp)
{
	fputs(".SS Maps\n.TP\n.B global\nevery pane: tried after the focused pane's own map\n", fp);
	for (int i = 0; i < PANE_COUNT; i++) {
		const struct pane_ops *o = pane_ops_of((enum pane_id)i);

		fputs(".TP\n.B ", fp);
		roff_line(fp, o->name);
		roff_line(fp, o->title);
	}
}

/* The key names: those keys_key_name writes, then the aliases it only reads. */
static void
config_key_names(FILE *fp)
{
	const char *n;
	char buf[32];

	fputs(".SS Keys\nA key is one character as the terminal sends it (q, ?, G, \\('e; # "
	    "cannot be bound, as it starts a comment); C\\-x, a control key (C\\-a to C\\-z, "
	    "the letter's case ignored); F1 to F12; or one of these names (their case ignored):\n"
	    ".RS\n", fp);
	for (int alias = 0; alias < 2; alias++) {
		bool first = true;

		if (alias)
			fputs("\n.RE\nand, read as the names above:\n.RS\n", fp);
		for (size_t i = 0; (n = keys_name_nth(i)) != NULL; i++) {
			bool is_alias = strcmp(keys_key_name(keys_parse_key(n), buf, sizeof buf), n) != 0;

			if (is_alias != (alias != 0))
				continue;
			fputs(first ? "" : ",\n", fp);
			roff(fp, n, strlen(n));
			if (is_alias)
				fprintf(fp, " (%s)", buf);
			first = false;
		}
	}
	fputs("\n.RE\nSLeft and SRight are Shift with an arrow; KEnter is the keypad's Enter; BTab "
	    "is Shift\\-Tab; DEL is the byte 127 many terminals send for Backspace.\n", fp);
}

/* Every action: its name, its help, and where the defaults bind it. */
static void
config_actions(FILE *fp)
{
	struct keys k;

	default_keys(&k);
	fputs(".SS Actions\nEvery action a binding can name, with what it does and its default "
	    "keys, by map (the help screen, ?, lists the bindings in force):\n", fp);
	for (int a = 0; a < ACT_COUNT; a++) {
		bool any = false;

		fputs(".TP\n.B ", fp);
		roff_line(fp, keys_action_name((enum action)a));
		roff(fp, keys_action_help((enum action)a), strlen(keys_action_help((enum action)a)));
		for (size_t m = 0; m < k.nmaps; m++) {
			char keys[128];

			keys_bound(&k, k.maps[m], (enum action)a, keys, sizeof keys);
			if (keys[0] == '\0')
				continue;
			fputs(any ? "; " : ". Default: ", fp);
			roff(fp, keys, strlen(keys));
			fprintf(fp, " (%s)", k.maps[m]);
			any = true;
		}
		fputs(any ? "\n" : ". Not bound by default.\n", fp);
	}
	keys_free(&k);
}

static void
config_keys(FILE *fp)
{
	fputs(".SH KEY BINDINGS\nThe browser starts from its default bindings, then reads "
	    "$XDG_CONFIG_HOME/perfnav/keys ($HOME/.config/perfnav/keys when XDG_CONFIG_HOME is "
	    "unset or empty), when it is there. Each line is one of:\n.TP\n"
	    ".BI bind \" MAP KEY ACTION\"\npress KEY in MAP to do ACTION (it replaces what KEY did "
	    "in MAP)\n.TP\n.BI unbind \" MAP KEY\"\nKEY does nothing of its own in MAP any more (in "
	    "a pane's map: the global binding of KEY applies there again)\n.PP\n"
	    "A key pressed is looked up in the focused pane's map, then in global. Words are split "
	    "at spaces and tabs (a carriage return ending a line is dropped); a line may be 255 "
	    "bytes long; the first mebibyte of the file is read. Bad lines are counted on the status "
	    "line when the browser starts and printed on standard error when it exits "
	    "(perfnav: keys file line N: what is wrong).\n", fp);
	config_maps(fp);
	config_key_names(fp);
	config_actions(fp);
}

/* Every colour element: what it colours, its colours in the default theme, its mono attributes. */
static void
config_elements(FILE *fp)
{
	struct theme def, mono;

	theme_builtin(&def, "default");
	theme_builtin(&mono, "mono");
	fputs(".SS Elements\nEvery element a theme can set, with what it colours, its line in the "
	    "default theme and its attributes in mono:\n", fp);
	for (int e = 0; e < EL_COUNT; e++) {
		const char *name = theme_elem_name((enum theme_elem)e), *t = element_text(name);

		fputs(".TP\n.B ", fp);
		roff_line(fp, name);
		roff(fp, t != NULL ? t : "(undescribed)", strlen(t != NULL ? t : "(undescribed)"));
		fputs(". Default: ", fp);
		color_word(fp, &def.el[e].fg);
		fputc(' ', fp);
		color_word(fp, &def.el[e].bg);
		attr_words(fp, def.el[e].attrs);
		fputs("; mono:", fp);
		attr_words(fp, mono.el[e].attrs);
		fputs(mono.el[e].attrs ? "\n" : " none\n", fp);
	}
}

static void
config_colours(FILE *fp)
{
	const char *n;

	fputs(".SS Colours\nA colour is one of:\n.TP\n.B default\nthe terminal's own colour "
	    "(also \\-1)\n.TP\na name\n", fp);
	for (unsigned i = 0; (n = theme_color_name(i)) != NULL; i++) {
		roff(fp, n, strlen(n));
		fputs(i + 1 < 16 ? ", " : "", fp);
	}
	fputs(" (the palette's 0 to 15; brightred for bright\\-red too; grey and gray are "
	    "bright\\-black)\n.TP\na number\n0 to 255, the 256\\-colour palette (also written "
	    "colour208 or color208)\n.TP\n.BI # rrggbb\na colour by its red, green and blue, in "
	    "hex\n.PP\nColours are brought down to what the terminal shows: as they are on a "
	    "direct\\-colour terminal (truecolour terminfo); on a 256\\-colour one, an #rrggbb "
	    "becomes the nearest of the 6x6x6 cube and the grey ramp; on 16 or 8 colours, the "
	    "nearest of the palette (on 8, the bright names become their plain ones).\n"
	    ".SS Attributes\n", fp);
	for (size_t i = 0; (n = theme_attr_name(i, NULL)) != NULL; i++) {
		fputs(i ? ", " : "", fp);
		roff(fp, n, strlen(n));
	}
	fputs(" (none adds nothing). Italic shows where the curses library and the terminal "
	    "have it.\n", fp);
}

static void
config_themes(FILE *fp)
{
	fputs(".SH THEMES\nEvery colour the browser draws with is a named element. "
	    "\\-\\-theme SPEC chooses the theme; without it, the built\\-in default. SPEC is, "
	    "in this order: a built\\-in theme, default (colours for a dark background; the "
	    "name dark is the same theme) or mono (attributes only, no colour); a file, when SPEC holds a / or "
	    "ends in .theme; else SPEC.theme in $XDG_CONFIG_HOME/perfnav/themes/ "
	    "($HOME/.config/perfnav/themes/ when XDG_CONFIG_HOME is unset or empty), then in\n.I ",
	    fp);
	roff(fp, PKGDATADIR "/themes/", strlen(PKGDATADIR "/themes/"));
	fputs("\n(the themes perfnav comes with: dark, light, high\\-contrast; perfnav \\-\\-version "
	    "says where they are), then in themes/ beside the perfnav program (a build that is not "
	    "installed). A theme found nowhere is an error (exit status 2).\n.PP\n"
	    "A theme file has one line per element:\n.PP\n.RS\n"
	    ".I element fg bg\n[\\fIattribute\\fR...]\n.RE\n.PP\n"
	    "It is read over the default theme: an element the file leaves out keeps the default's "
	    "colours. Words are split at any white space; a word #rrggbb is a colour, not a comment; "
	    "a line may be 511 bytes long and hold up to 8 attributes; the first 64 KiB of the file "
	    "is read. perfnav says on standard error how many lines it skipped.\n.PP\n"
	    "NO_COLOR, set and not empty, chooses mono unless \\-\\-theme names a theme. A "
	    "terminal without colours gets mono's attributes whatever the theme.\n", fp);
	config_colours(fp);
	config_elements(fp);
}

static void
config_examples(FILE *fp)
{
	fputs(".SH EXAMPLES\nA keys file: F10 quits from any view, C\\-x in the events list opens "
	    "a record's bytes, q no longer quits (the help screen keeps its own q), and b no "
	    "longer flips the flame graph:\n"
	    ".PP\n.RS\n.nf\n"
	    "# perfnav key bindings\nbind global F10 quit\\-all\nbind events C\\-x hex\n"
	    "unbind global q\nunbind flame b\n.fi\n.RE\n.PP\n"
	    "A theme, saved as ~/.config/perfnav/themes/mine.theme and chosen with "
	    "perfnav \\-\\-theme mine:\n.PP\n.RS\n.nf\n"
	    "# element     fg            bg        attributes\ncursor        black         cyan\n"
	    "hot\\-high      #d70000       default   bold\n"
	    "title         bright\\-white  24        bold underline\n.fi\n.RE\n.PP\n"
	    "perfnav's default bindings are written in the keys file's syntax; the themes it "
	    "comes with (dark is the default theme as a file) are a starting point for one's "
	    "own.\n", fp);
}

void
man_config(FILE *fp)
{
	fprintf(fp, ".TH PERFNAV\\-CONFIG 5 \"\" \"perfnav %s\" \"File Formats\"\n", PACKAGE_VERSION);
	fputs(".SH NAME\nperfnav\\-config \\- key bindings and colour themes of perfnav\n"
	    ".SH SYNOPSIS\n$XDG_CONFIG_HOME/perfnav/keys\n.br\n"
	    "$XDG_CONFIG_HOME/perfnav/themes/\\fINAME\\fR.theme\n.br\n.I ", fp);
	roff(fp, PKGDATADIR "/themes/", strlen(PKGDATADIR "/themes/"));
	fputs("\\fINAME\\fR.theme\n.SH DESCRIPTION\nThe browser of\n.BR perfnav (1)\nreads two "
	    "kinds of file of your own: a keys file, which binds keys to actions, and theme files, "
	    "which give each element of the screen its colours. Both are written in the same "
	    "line syntax, which is also the syntax of perfnav's own default bindings and themes. "
	    "The lists of maps, keys, actions, colours, attributes and elements below are made "
	    "by perfnav from the tables it runs on.\n", fp);
	config_syntax(fp);
	config_keys(fp);
	config_themes(fp);
	config_examples(fp);
	fputs(".SH FILES\n.TP\n.I $XDG_CONFIG_HOME/perfnav/keys\nthe keys file (default "
	    "~/.config/perfnav/keys)\n.TP\n.I $XDG_CONFIG_HOME/perfnav/themes/\nthemes of your "
	    "own (default ~/.config/perfnav/themes/)\n.TP\n.I ", fp);
	roff(fp, PKGDATADIR "/themes/", strlen(PKGDATADIR "/themes/"));
	fputs("\nthe themes perfnav comes with\n.SH SEE ALSO\n.BR perfnav (1)\n", fp);
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
man_completion(FILE *fp, const struct cmd_spec *const *cmds)
{
	fputs("# bash completion for perfnav, made by perfnav --completion\n"
	    "_perfnav()\n{\n\tlocal cur=${COMP_WORDS[COMP_CWORD]} cmd= i w\n"
	    "\tfor ((i = 1; i < COMP_CWORD; i++)); do\n\t\tcase ${COMP_WORDS[i]} in\n\t\t", fp);
	for (const struct cmd_spec *const *c = cmds; *c != NULL; c++)
		fprintf(fp, "%s%s", c == cmds ? "" : "|", (*c)->name);
	fputs(") cmd=${COMP_WORDS[i]}; break ;;\n\t\tesac\n\tdone\n\tcase $cmd in\n", fp);
	for (const struct cmd_spec *const *c = cmds; *c != NULL; c++) {
		fprintf(fp, "\t%s) w=\"", (*c)->name);
		words(fp, (*c)->opts);
		words(fp, cmd_common_opts);
		fputs("\" ;;\n", fp);
	}
	fputs("\t*) w=\"", fp);
	for (const struct cmd_spec *const *c = cmds; *c != NULL; c++)
		fprintf(fp, "%s%s", c == cmds ? "" : " ", (*c)->name);
	words(fp, tui_options);
	words(fp, cmd_common_opts);
	fputs(" --version\" ;;\n\tesac\n"
	    "\tif [[ $cur == -* || ( -z $cmd && $COMP_CWORD -eq 1 && $cur != */* ) ]]; then\n"
	    "\t\tCOMPREPLY=($(compgen -W \"$w\" -- \"$cur\"))\n"
	    "\t\t[[ ${#COMPREPLY[@]} -gt 0 ]] && return\n\tfi\n"
	    "\tCOMPREPLY=($(compgen -f -- \"$cur\"))\n}\ncomplete -o filenames -F _perfnav perfnav\n",
	    fp);
}
