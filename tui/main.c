#include "config.h"

#include <locale.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "tui/app.h"
#include "tui/cmd/cmd.h"
#include "tui/cmd/textout.h"
#include "tui/man.h"

static const struct cmd_spec *const subcmds[] = {
	&header_spec,
	&stats_spec,
	&stat_spec,
	&dump_spec,
	&hex_spec,
	&script_spec,
	&top_spec,
	&tree_spec,
	&folded_spec,
	&export_spec,
	&annotate_spec,
	&bundle_spec,
	&merge_spec,
	&diff_spec,
	&sched_spec,
	&cache_spec,
	NULL,
};

/*
 * perfnav --man, --man-config, --completion, --keys: what the build installs,
 * from the program's tables.
 */
static bool
made_files(const char *arg)
{
	if (strcmp(arg, "--man") == 0)
		man_page(stdout, subcmds);
	else if (strcmp(arg, "--man-config") == 0)
		man_config(stdout);
	else if (strcmp(arg, "--completion") == 0)
		man_completion(stdout, subcmds);
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
	for (const struct cmd_spec *const *c = subcmds; *c != NULL; c++)
		fprintf(fp, "  %-8s %s\n", (*c)->name, (*c)->summary);
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
		for (const struct cmd_spec *const *c = subcmds; *c != NULL; c++)
			if (strcmp(argv[1], (*c)->name) == 0) {
				/* names are escaped where printed; this catches the rest */
				textout_filter(true);
				return (*c)->run(argc - 1, argv + 1);
			}
	}
	/* curses draws on stdout: only stderr is filtered */
	textout_filter(false);
	return tui_main(argc, argv);
}
