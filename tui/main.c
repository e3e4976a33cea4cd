#include "config.h"

#include <locale.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "tui/app.h"
#include "tui/cmd/cmd.h"
#include "tui/cmd/textout.h"
#include "tui/man.h"

static const struct subcmd {
	const char		*name;
	int			(*fn)(int, char **);
	const char		*help;
	const struct cmd_spec	*spec;
} subcmds[] = {
	{ "header", cmd_header, "the header and every feature section, as perf report --header-only -I", &header_spec },
	{ "stats", cmd_stats, "record counts by type and samples per event, as perf report --stats", &stats_spec },
	{ "stat", cmd_stat, "the counts of a perf stat record file, as perf stat report", &stat_spec },
	{ "dump", cmd_dump, "one line per record in file order (-x: with hex)", &dump_spec },
	{ "hex", cmd_hex, "the record at an offset as annotated hex", &hex_spec },
	{ "script", cmd_script, "one line per sample, as perf script (-F fields, -G: no callchains)", &script_spec },
	{ "top", cmd_top, "hot functions (self and children), as perf report --stdio", &top_spec },
	{ "tree", cmd_tree, "the process tree with samples per process and thread, as perf report --tasks", &tree_spec },
	{ "folded", cmd_folded, "folded stacks for flamegraph.pl and speedscope", &folded_spec },
	{ "annotate", cmd_annotate, "a function's instructions with their samples, as perf annotate --stdio", &annotate_spec },
	{ "diff", cmd_diff, "compare recordings: the baseline's percents and each other's delta, ratio or weighted diff, as perf diff", &diff_spec },
	{ NULL, NULL, NULL, NULL },
};

/* The subcommands as the man page and the completion take them. */
static void
man_cmds(struct man_cmd *out)
{
	size_t n = 0;

	for (const struct subcmd *c = subcmds; c->name; c++)
		out[n++] = (struct man_cmd){ c->name, c->help, c->spec };
	out[n] = (struct man_cmd){ NULL, NULL, NULL };
}

/*
 * perfnav --man, --man-config, --completion, --keys: what the build installs,
 * from the program's tables.
 */
static bool
made_files(const char *arg)
{
	struct man_cmd cmds[sizeof subcmds / sizeof subcmds[0]];

	man_cmds(cmds);
	if (strcmp(arg, "--man") == 0)
		man_page(stdout, cmds);
	else if (strcmp(arg, "--man-config") == 0)
		man_config(stdout);
	else if (strcmp(arg, "--completion") == 0)
		man_completion(stdout, cmds);
	else if (strcmp(arg, "--keys") == 0)
		man_keys(stdout);
	else
		return false;
	return true;
}

static void
usage(FILE *fp)
{
	fprintf(fp, "usage: perfnav [OPTIONS] [FILE]        browse a recording (default ./perf.data)\n"
	    "       perfnav COMMAND [OPTIONS] [FILE]\n\nCommands:\n");
	for (const struct subcmd *c = subcmds; c->name; c++)
		fprintf(fp, "  %-8s %s\n", c->name, c->help);
	fprintf(fp, "\nFILE may be a perf.data file, a perf.data/ directory, or - for standard input.\n"
	    "'perfnav COMMAND --help' lists the options of a command.\n");
}

int
main(int argc, char **argv)
{
	setlocale(LC_ALL, "");
	if (argc >= 2) {
		if (strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0 ||
		    strcmp(argv[1], "help") == 0) {
			usage(stdout);
			return EXIT_OK;
		}
		if (strcmp(argv[1], "--version") == 0) {
			/* and where its themes are: what an installed program must find */
			printf("perfnav %s\nthemes: %s/themes\n", PACKAGE_VERSION, PKGDATADIR);
			return EXIT_OK;
		}
		if (made_files(argv[1]))
			return fflush(stdout) == 0 && !ferror(stdout) ? EXIT_OK : EXIT_FAIL;
		for (const struct subcmd *c = subcmds; c->name; c++)
			if (strcmp(argv[1], c->name) == 0) {
				/* names are escaped where printed; this catches the rest */
				textout_filter(true);
				return c->fn(argc - 1, argv + 1);
			}
	}
	/* curses draws on stdout: only stderr is filtered */
	textout_filter(false);
	return tui_main(argc, argv);
}
