/*
 * ev_filter.h: the events pane's filter terms (tui/pane/pane_events.c),
 * parsed from the text the user types: type:NAME[,NAME] pid:N tid:N cpu:N
 * time:A-B comm:NAME event:NAME|#N dso:NAME sym:NAME symoff:N frame:N and
 * plain words.  Every term ends at a space but sym:, whose name runs to the
 * next term of a known key (C++ names have spaces).  A KEY:VALUE term of
 * another key is no word: it is left out and said so (unless an event's
 * name starts with KEY:, as a tracepoint's sched:sched_switch).
 */
#ifndef PERFNAV_TUI_PANE_EV_FILTER_H
#define PERFNAV_TUI_PANE_EV_FILTER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "tui/nav.h"

struct session;

#define EV_WORDS 8
/* The keys, as the pane's hint and the unknown-key message list them. */
#define EV_KEYS "type: pid: tid: cpu: time: comm: event: dso: sym: symoff: frame:"

struct ev_filter {
	bool		 by_type;
	bool		 types[256];
	int64_t		 pid, tid, cpu;		/* -2: any */
	bool		 by_time;
	uint64_t	 t0, t1;
	int		 nwords;
	char		 words[EV_WORDS][64];
	bool		 by_comm, by_dso, by_sym, by_symoff, by_event, by_frame;
	uint32_t	 frame;		/* frame:N: node N of the scope's picked tree */
	uint64_t	 symoff;
	char		 comm[64], dso[NAV_FILTER_MAX], sym[NAV_FILTER_MAX];
	char		 event[NAV_FILTER_MAX];	/* a name, or "#N" (from 1) */
};

/*
 * Parse text into f.  0, with err (n bytes) empty or saying which term was
 * left out (an unknown key); -1 with err saying why.  s (may be NULL) has
 * the event names that keep KEY:VALUE words.
 */
int ev_filter_parse(struct ev_filter *f, const struct session *s, const char *text, char *err,
    size_t n);

/*
 * Does an event's name answer to event:want?  The name itself, or the name
 * up to what perf appends: its modifiers ("cpu-clock" for "cpu-clock:ppp")
 * or its terms ("cpu-clock" for "cpu-clock/freq=2000/", "cpu-clock/.../u").
 */
bool ev_event_named(const char *name, const char *want);

#endif
