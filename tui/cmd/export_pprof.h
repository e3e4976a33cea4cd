/*
 * export_pprof.h: perfnav export's pprof writer (tui/cmd/export_pprof.c).
 */
#ifndef PERFNAV_TUI_CMD_EXPORT_PPROF_H
#define PERFNAV_TUI_CMD_EXPORT_PPROF_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

struct hist;
struct session;
struct symbolizer;

/*
 * Event ev of h (keyed comm,tid,sym, built with paths, paths_address and
 * record_self over session s) as a gzipped pprof profile on fp: a sample
 * per sample of the recording, or with aggregate one per distinct stack
 * and thread.  0, or -1 (ev out of range, a write error).
 */
int export_pprof(const struct session *s, const struct hist *h, const struct symbolizer *z, size_t ev,
    bool aggregate, FILE *fp);

#endif
