/*
 * man.h: perfnav(1) and the bash completion, made from the tables the
 * program itself runs on: the subcommands and their specs (--help's
 * options), the browser's options, the panes, and the key bindings the
 * help screen lists (keys.c's action table and default bindings).  The
 * build writes them with `perfnav --man` and `perfnav --completion`, so
 * they cannot say other than the program does; `perfnav --keys` prints the
 * help screen's bindings for the test that checks the page against them.
 * perfnav-config(5) (`perfnav --man-config`) describes the keys file and the
 * theme files from the same tables: the maps, key names, actions and default
 * bindings (keys.c), the colours, attributes and elements (theme.c).
 */
#ifndef PERFNAV_TUI_MAN_H
#define PERFNAV_TUI_MAN_H

#include <stdio.h>

struct cmd_spec;

/* A subcommand: name, one line of help, its spec (usage and options). */
/* perfnav(1) in man(7) roff; cmds: the subcommands, NULL-terminated. */
void man_page(FILE *fp, const struct cmd_spec *const *cmds);
/* perfnav-config(5), the keys file and the theme files, in man(7) roff. */
void man_config(FILE *fp);
/* A bash completion script for perfnav. */
void man_completion(FILE *fp, const struct cmd_spec *const *cmds);
/* The default bindings as the help screen lists them: "MAP\tKEYS\tACTION" lines. */
void man_keys(FILE *fp);

#endif
