/*
 * widget.h: the one list/tree widget that draws every list and tree pane.
 *
 * A pane produces rows as data (pane_ops.nrows/row, see pane.h); the
 * widget keeps the view of them: which rows are visible (filter, tree
 * expansion), in which order (sort by any column; in trees, siblings are
 * sorted), the cursor and the scroll position, and incremental search.
 * Everything but widget_draw() is curses-free and testable.
 *
 * Trees are given in preorder with a depth per row; a row has children
 * when the next row is deeper.  Views are index arrays of source row
 * numbers (none while the list is flat, unsorted and unfiltered, so a
 * list of ten million records costs nothing).  The widget owns its arrays.
 */
#ifndef PERFNAV_TUI_WIDGET_H
#define PERFNAV_TUI_WIDGET_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <wchar.h>

struct pane;
struct pane_canvas;

#define ROW_MAXCOLS	10
#define ROW_BUF		2048
#define WIDGET_NONE	SIZE_MAX

/* One row as a pane produces it: column texts (UTF-8, may be invalid)
 * and a theme element per column. */
struct row {
	const char	*col[ROW_MAXCOLS];
	uint8_t		 el[ROW_MAXCOLS];	/* enum theme_elem, 0 normal */
	uint8_t		 depth;			/* tree depth, 0 for roots */
	bool		 expanded;		/* tree: expanded when first seen */
	uint64_t	 key;			/* stable identity (kept across rebuilds) */
	bool		 have_key;		/* else the key is the row index */
	char		 buf[ROW_BUF];
	size_t		 used;
};

/* Start a row (clears texts). */
void row_reset(struct row *r);
/* Set column col's text (printf) and element; text lives in r->buf. */
void row_set(struct row *r, int col, int el, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));

enum {
	COL_RIGHT = 1 << 0,	/* right-aligned */
	COL_FLEX = 1 << 1,	/* takes the width left over */
	COL_TREE = 1 << 2,	/* indented by depth with expansion glyphs */
	COL_NUM = 1 << 3,	/* sorts as a number; first sort is descending */
	COL_NOSORT = 1 << 4,	/* not a sort key */
	COL_MIDDLE = 1 << 5,	/* too long: keep start and end (C++ names) */
};

struct column {
	const char	*title;
	int		 width;		/* columns (COL_FLEX: minimum) */
	unsigned	 flags;
};

struct widget {
	struct pane	*p;
	bool		 tree;
	size_t		 n;		/* source rows */
	/* Trees: per source row. */
	uint32_t	*parent;	/* UINT32_MAX for roots */
	uint8_t		*depth;
	uint8_t		*flags;		/* WF_* (widget.c) */
	/* Order of source rows (sorted), NULL: source order. */
	uint32_t	*order;
	/* Visible rows, NULL: identity. */
	uint32_t	*vis;
	size_t		 nvis;
	size_t		 cursor, top;
	int		 height;	/* data rows on screen */
	int		 sort_col;	/* -1: source order */
	bool		 sort_desc;
	bool		 filtered;
	bool		 force_filter;	/* filter with the pane's match even without text
					 * (the events list in a time scope) */
	char		 filter[128];
	char		 search[128];
	int		 hscroll;	/* columns the flex column's texts are scrolled by */
	int		 hscroll_max;	/* as far as the last drawing's texts go */
};

/* Attach to a pane (tree or list) and build the view. */
void widget_init(struct widget *w, struct pane *p, bool tree);
void widget_free(struct widget *w);
/* The pane's rows changed: rebuild (keeps the cursor on the same key). */
void widget_reload(struct widget *w);
/*
 * The pane's rows changed entirely: rebuild, a tree's expansion from the
 * rows' expanded flags again; keeps the sort and filter.  The cursor row
 * is the caller's to set (widget_goto_key with a key taken before).
 */
void widget_refresh(struct widget *w);
/* Rows on screen (for paging and scrolling). */
void widget_set_height(struct widget *w, int h);
/* Scroll the flex column's texts by d columns (negative: back), within
 * what the last drawing showed. */
void widget_hscroll(struct widget *w, int d);
/*
 * s cut to maxcols columns the C++ way into out (n bytes): the contents of
 * template and parameter lists elided first ("std::map<…>::find(…)"), the
 * innermost and longest first, the middle of what is left only after.
 */
void text_elide_cxx(const char *s, char *out, size_t n, int maxcols);

/* Visible rows and the source row at a visible position (WIDGET_NONE). */
size_t widget_count(const struct widget *w);
size_t widget_source(const struct widget *w, size_t pos);
/* Source row under the cursor, WIDGET_NONE if the view is empty. */
size_t widget_cursor_row(const struct widget *w);
/* Key of the cursor row (pane's row key), or UINT64_MAX. */
uint64_t widget_cursor_key(struct widget *w);
/* Put the cursor on the row with this key (or source row index); false if
 * not visible. */
bool widget_goto_key(struct widget *w, uint64_t key);
bool widget_goto_row(struct widget *w, size_t src);

/* Cursor movement (clamped), paging, ends. */
void widget_move(struct widget *w, long delta);
void widget_page(struct widget *w, int dir);
void widget_home(struct widget *w);
void widget_end(struct widget *w);
/* Scroll the view by delta rows (mouse wheel), the cursor follows. */
void widget_scroll(struct widget *w, long delta);
/* Click on screen row y of the data area: moves the cursor; false if none. */
bool widget_click(struct widget *w, int y);

/* Sort by column col (-1: source order); desc for descending. */
void widget_sort(struct widget *w, int col, bool desc);
/* Next/previous sortable column (NUM columns start descending). */
void widget_sort_step(struct widget *w, int dir);

/*
 * Filter: the pane's filter op compiles the text (err filled on -1), else
 * rows whose text contains every word (case-insensitive).  "" clears.
 * Trees keep the ancestors of matching rows.  Returns 0 or -1.
 */
int widget_set_filter(struct widget *w, const char *text, char *err, size_t n);
/* Search visible rows for text (case-insensitive) from the cursor in dir
 * (+1/-1); skip: start at the next row.  Moves the cursor; false if none. */
bool widget_search(struct widget *w, const char *text, int dir, bool skip);
/* Does source row idx contain text in some column (case-insensitive)? */
bool widget_row_contains(struct widget *w, size_t idx, const char *text);

/* Trees: has the row children / is it expanded. */
bool widget_has_children(const struct widget *w, size_t src);
bool widget_is_expanded(const struct widget *w, size_t src);
/* Toggle, expand (with its subtree when deep), collapse the cursor row. */
void widget_toggle(struct widget *w);
void widget_expand(struct widget *w, bool deep);
void widget_collapse(struct widget *w);
void widget_expand_all(struct widget *w, bool expand);
/* Expand a source row and its ancestors (so it is visible). */
void widget_reveal(struct widget *w, size_t src);

/* Draw into the canvas (curses). */
void widget_draw(struct widget *w, const struct pane_canvas *c);

/*
 * Text helpers (curses-free).  UTF-8 in; what core/text.h escapes in the
 * text outputs (control bytes, tab and newline too, DEL, C1, invalid
 * UTF-8) shows as the same "\xHH", 4 columns never cut; other non-ASCII
 * shows as '?' when the locale is not UTF-8.
 * text_decode fills out (n wide chars, NUL-terminated) with at most
 * maxcols columns; with middle, a longer text keeps its start and end
 * around an ellipsis.  Returns the columns used.
 */
int text_decode(const char *s, wchar_t *out, size_t n, int maxcols, bool middle);
/*
 * A whole number s ("1731700000", "-17263", "+5") in at most maxcols
 * columns with a K, M, G, T, P or E unit (thousands: "1.73G") into out;
 * false if s is no such number or does not fit even so.  A number column
 * too narrow for its value shows this rather than cut digits.
 */
bool text_num_fit(const char *s, char *out, size_t n, int maxcols);
/*
 * src in at most max_cols columns into buf (n bytes, NUL-terminated),
 * whole UTF-8 characters only: a text cut ends in an ellipsis ("…", '~'
 * where the locale is not UTF-8), so that a cut name does not look whole.
 * Returns buf.  TEXT_CLIP(src, max_cols) does it in a buffer of the
 * enclosing block (for a label's snprintf).
 */
char *text_clip(char *buf, size_t n, const char *src, int max_cols);
/* src in max_cols columns as text_clip, but its middle cut (start…end: the
 * end is what tells C++ names apart). */
char *text_clip_middle(char *buf, size_t n, const char *src, int max_cols);
#define TEXT_CLIP_MAX	256
#define TEXT_CLIP(src, max_cols) \
	text_clip((char[TEXT_CLIP_MAX]){ 0 }, TEXT_CLIP_MAX, (src), (max_cols))
/* The plural ending of a count of n things: "" for 1, else "s" ("1 problem",
 * "2 problems"): every count the browser prints goes through it. */
static inline const char *
plural(unsigned long long n)
{
	return n == 1 ? "" : "s";
}
/* Display width of a UTF-8 string. */
int text_width(const char *s);
/* Is the locale's charset UTF-8? */
bool text_utf8(void);
/*
 * Draw s at (y, x) of win (a WINDOW *) in at most width columns, through
 * text_decode: every text from a recording that is not in a widget row
 * is drawn with this, never with waddstr and friends.
 */
void text_put(void *win, int y, int x, int width, const char *s);
/* The same over a whole line of width cells, cleared first (a pane's bars). */
void text_line(void *win, int y, int x, int width, const char *s);

#endif
