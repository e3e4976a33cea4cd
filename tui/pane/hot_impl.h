/*
 * hot_impl.h: the hot-functions pane's state, shared by its two files:
 * tui/pane/pane_hot.c (views, actions, drawing, life) and
 * tui/pane/hot_rows.c (columns, rows and their text).
 */
#ifndef PERFNAV_TUI_PANE_HOT_IMPL_H
#define PERFNAV_TUI_PANE_HOT_IMPL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "symbolize/hist.h"
#include "tui/pane.h"
#include "tui/pane/hot_branch.h"
#include "tui/symbols.h"

struct cpath;

/*
 * Logical columns: the counts (L_CHILDREN + m: member m's of an event
 * group, 0 the event's alone), the latency (not of a group), then a
 * column per sort key (L_KEY + i).
 */
#define HOT_GROUP_MAX	8
enum {
	L_CHILDREN = 0,
	L_SELF = HOT_GROUP_MAX,
	L_LAT = 2 * HOT_GROUP_MAX,
	L_SAMPLES = 2 * HOT_GROUP_MAX + 1,
	L_KEY = 3 * HOT_GROUP_MAX + 1,
	L_N = L_KEY + HIST_MAX_KEYS
};

/* A member's counts of a row of an event group's table. */
struct hot_gval {
	uint64_t	 period, acc, samples;
};

enum hrow_kind {
	HR_ENTRY,		/* a row of the table */
	HR_PATH,		/* a caller or callee: a node of its entry's call-path tree */
	HR_MORE,		/* placeholder under a collapsed row */
	HR_NONE,		/* "(no callers)" */
};

struct hrow {
	uint8_t		 kind;
	uint8_t		 depth;
	uint32_t	 ent;		/* HR_ENTRY: index into ents; else its entry's */
	uint32_t	 cp;		/* HR_PATH: node of the entry's tree */
	uint64_t	 key;
};

/* An expanded entry's call paths: the tree and the node of its function. */
struct hot_tree {
	struct cpath	*t;
	uint32_t	 top;		/* CPATH_NONE: no path through it */
};

#define HOT_MAX_DEPTH	250		/* the widget's levels */
#define HOT_MAX_ROWS	400000
#define HOT_MAX_EXPAND_ALL	200

/* A view's cursor that names a function (see above); row keys stay below 2^62. */
#define HOT_CURSOR_FUNC	(UINT64_C(1) << 62)

struct hot {
	struct symbols		*sy;
	size_t			 reloads;	/* rows made (hot_reload), for tests */
	bool			 own;		/* made by us (no app symbols) */
	size_t			 ev;
	bool			 dsos;		/* list DSOs */
	bool			 branches;	/* the branch table (from the DSOs: s) */
	struct hot_branch	*br;		/* made when first shown */
	double			 pct;
	bool			 callers;	/* call paths towards the callers, else callees */
	/*
	 * The columns shown: children (with callchains), --sort's keys in its
	 * order (scope.hot_sort).  Rows are the hist's merged by them, or
	 * with keys it does not merge to, a table of their own (symbols_keyed:
	 * keyed, kh its hist while the rows are of it; flat, no call paths).
	 */
	unsigned		 keep;		/* HIST_KEEP of the keys */
	enum hist_key		 keys[HIST_MAX_KEYS];
	unsigned		 nkeys;
	bool			 keyed;
	struct hist		*kh;
	bool			 kbusy;		/* keyed: the table is being built */
	bool			 kchildren;	/* children sums (keyed: its table's) */
	/*
	 * A Latency column (children latency with children sums): the rows'
	 * hist tracks latency (a recording with switch events), not of the
	 * off-CPU event, an event group or call-path transforms; rows sorted
	 * by it when the scope's hot_by_latency says so.
	 */
	bool			 lat;
	size_t			 kev;		/* keyed: its event (SIZE_MAX: none) */
	/*
	 * The scope's event in a group (perf record -e '{a,b}'): a column of
	 * each count per member, as perf report --group, the leader first
	 * (gev: their events, SIZE_MAX: no samples; ngev 0: not a group);
	 * gval: per entry, ngev members' counts.
	 */
	size_t			 gev[HOT_GROUP_MAX];
	size_t			 ngev;
	struct hot_gval		*gval;
	size_t			 capgval;
	const struct hist_entry	**kents;	/* keyed: its rows */
	size_t			 capkents;
	struct column		 cols[L_N];
	int			 map[L_N];	/* logical column -> shown, -1: not shown */
	int			 col_dso, col_sym;	/* the dso and sym keys' columns, -1: none */
	bool			 pct_entry;	/* call-path % of the symbol's total, else the event's */
	unsigned		 gen;		/* sy->gen of the rows */
	unsigned		 scope_gen;	/* sy->scope.gen of the rows */
	struct scope_sort	 seen_sort;	/* the scope's hot_sort and hot_callers applied */
	int			 seen_callers;
	bool			 loaded;
	struct hist_entry	*ents;
	size_t			 nents, capents;
	struct hot_tree		*trees;		/* per entry, built when expanded */
	size_t			 captrees;
	struct hrow		*rows;
	size_t			 nrows, caprows;
	bool			 truncated;
	struct hmap		 exp;		/* expansion set */
	char			 info[256];
	/*
	 * The rows merged in steps (hot_work; a large hist with the app's
	 * steps on, symbols all in): the merge's ticket (hist_rows_begin),
	 * the hist it is of (sy->h_serial), the cursor key to restore, and a
	 * view entered meanwhile, applied once the rows are in.
	 */
	bool			 rbusy;
	unsigned		 rticket, rserial;
	uint64_t		 rkey;
	struct nav_view		 pend;
	bool			 has_pend;
};

/* hot_rows.c: the expansion set (row key -> expanded), row keys (below 2^62). */
bool hot_exp_has(const struct hot *ht, uint64_t key);
void hot_exp_set(struct hot *ht, uint64_t key, bool on);
uint64_t hot_key2(uint64_t a, uint64_t b);
uint64_t hot_entry_key(const struct hot *ht, const struct hist_entry *e);
uint64_t hot_paths_key(const struct hot *ht, uint64_t ekey);
/* The app's hist; the rows' entries' (the keyed table's, else the app's). */
struct hist *hot_h(const struct hot *ht);
struct hist *hot_eh(const struct hot *ht);
/* Do rows expand into call paths?  An entry's tree (built when first asked). */
bool hot_has_graph(const struct hot *ht);
void hot_free_trees(struct hot *ht);
const struct hot_tree *hot_entry_tree(struct hot *ht, uint32_t i);
/* Rows again (cursor to key), the table again from the hist, the columns, the scope followed. */
void hot_rebuild(struct pane *p, uint64_t key);
void hot_reload(struct pane *p, bool keep_cursor);
/* The rows merged in steps (hot_reload started them): a step of about
 * budget seconds; pane_ops.work's answer. */
int hot_rows_work(struct pane *p, double budget);
void hot_set_columns(struct pane *p, struct hot *ht);
/* Can the rows have a Latency column; is it shown (ht->lat as hot_set_columns sets it)? */
bool hot_lat_possible(const struct hot *ht);
bool hot_lat_wanted(const struct hot *ht);
/* Are the rows those a reload would make now (symbols, scope, awaited tables)? */
bool hot_rows_current(const struct hot *ht);
void hot_sync(struct pane *p);
/* A DSO's short name; the pane_ops of the rows; a logical column's place (-1: not shown). */
const char *hot_dso_short(const struct hot *ht, uint32_t dso);
size_t hot_find(struct pane *p, uint64_t key);
void hot_row(struct pane *p, size_t idx, struct row *r);
size_t hot_nrows(struct pane *p);
int hot_phys(const struct hot *ht, int l);
/* perf's line of a group's table: " Samples: N of events 'anon group { a, b }'"; its length. */
int hot_group_info(const struct hot *ht, char *buf, size_t n);

#endif
