/*
 * theme.h: colour themes as semantic elements.
 *
 * Every colour the TUI draws with is an element of THEME_ELEMENTS.  A theme
 * file has one line per element, `element fg bg [attr...]`, with `#`
 * comments; a colour is `default` (the terminal's own), a name (black red
 * green yellow blue magenta cyan white, bright- variants), a number 0-255
 * or #rrggbb; attrs are bold dim underline reverse italic blink standout.
 * Elements a file leaves out keep the built-in default theme's value.
 * Lines and words are read by tui/conf.h's parser.
 *
 * Parsing and colour reduction (RGB -> 256 -> 16 -> 8) are curses-free;
 * app_theme_apply() (app.h, curses) turns a theme into attributes.
 */
#ifndef PERFNAV_TUI_THEME_H
#define PERFNAV_TUI_THEME_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define THEME_ELEMENTS(X) \
	X(NORMAL, "normal") \
	X(TITLE, "title") \
	X(TAB, "tab") \
	X(TAB_ACTIVE, "tab-active") \
	X(STATUS, "status") \
	X(MESSAGE, "message") \
	X(ERROR, "error") \
	X(COLUMN_HEADER, "column-header") \
	X(CURSOR, "cursor") \
	X(SEARCH_MATCH, "search-match") \
	X(TREE, "tree") \
	X(DIM, "dim") \
	X(HOT_HIGH, "hot-high") \
	X(HOT_MID, "hot-mid") \
	X(HOT_LOW, "hot-low") \
	X(REC_SAMPLE, "rec-sample") \
	X(REC_META, "rec-meta") \
	X(REC_TASK, "rec-task") \
	X(PID, "pid") \
	X(COMM, "comm") \
	X(TIME, "time") \
	X(HEX_OFFSET, "hex-offset") \
	X(HEX_BYTES, "hex-bytes") \
	X(HEX_ASCII, "hex-ascii") \
	X(HEX_FIELD, "hex-field") \
	X(FIELD_NAME, "field-name") \
	X(FIELD_VALUE, "field-value") \
	X(DAMAGED, "damaged") \
	X(WARNING, "warning") \
	X(KEY, "key") \
	X(PROGRESS, "progress") \
	X(FLAME_USER, "flame-user") \
	X(FLAME_KERNEL, "flame-kernel") \
	X(FLAME_SYSTEM, "flame-system") \
	X(FLAME_JIT, "flame-jit") \
	X(FLAME_UNRESOLVED, "flame-unresolved") \
	X(FLAME_SELECTED, "flame-selected") \
	X(FLAME_MATCH, "flame-match") \
	X(FLAME_OFFCPU, "flame-offcpu") \
	X(FLAME_OFFCPU_KERNEL, "flame-offcpu-kernel") \
	X(TL_LEVEL1, "timeline-1") \
	X(TL_LEVEL2, "timeline-2") \
	X(TL_LEVEL3, "timeline-3") \
	X(TL_LEVEL4, "timeline-4") \
	X(TL_LOST, "timeline-lost") \
	X(TL_OFFCPU, "timeline-offcpu") \
	X(TL_BLOCKED, "timeline-blocked") \
	X(TL_PREEMPTED, "timeline-preempted") \
	X(TL_WAKEUP, "timeline-wakeup") \
	X(TL_HIGHLIGHT, "timeline-highlight") \
	X(TL_RANGE, "timeline-range") \
	X(DIFF_GREW, "diff-grew") \
	X(DIFF_SHRANK, "diff-shrank") \
	X(FLAME_GREW1, "flame-grew-1") \
	X(FLAME_GREW2, "flame-grew-2") \
	X(FLAME_GREW3, "flame-grew-3") \
	X(FLAME_SHRANK1, "flame-shrank-1") \
	X(FLAME_SHRANK2, "flame-shrank-2") \
	X(FLAME_SHRANK3, "flame-shrank-3") \
	X(FLAME_SAME, "flame-same")

enum theme_elem {
#define X(id, name) EL_##id,
	THEME_ELEMENTS(X)
#undef X
	EL_COUNT
};

enum tcolor_kind {
	TC_DEFAULT = 0,	/* the terminal's own colour */
	TC_INDEX,	/* 0-255 */
	TC_RGB,		/* 0xrrggbb */
};

struct tcolor {
	enum tcolor_kind	kind;
	uint32_t		v;
};

enum {
	TA_BOLD = 1 << 0,
	TA_DIM = 1 << 1,
	TA_UNDERLINE = 1 << 2,
	TA_REVERSE = 1 << 3,
	TA_ITALIC = 1 << 4,
	TA_BLINK = 1 << 5,
	TA_STANDOUT = 1 << 6,
};

struct theme_style {
	struct tcolor	fg, bg;
	unsigned	attrs;		/* TA_* */
};

struct theme {
	char			name[64];
	struct theme_style	el[EL_COUNT];
};

/* What drawing code uses: a curses attr_t per element (app_theme_apply). */
struct theme_attrs {
	unsigned long	a[EL_COUNT];	/* attr_t | COLOR_PAIR */
	short		pair[EL_COUNT];
	bool		utf8;		/* the locale draws UTF-8 (tree glyphs) */
};

/* Element by name, -1 if unknown; name of an element. */
int theme_elem_by_name(const char *name);
const char *theme_elem_name(enum theme_elem e);
/* The name of colour i of the 16 ("black" .. "bright-white"), NULL past them. */
const char *theme_color_name(unsigned i);
/* The i-th attribute name a theme line takes and its TA_* bit, NULL past the last. */
const char *theme_attr_name(size_t i, unsigned *bit);

/* The built-in themes: "default" (dark) and "mono".  false if unknown. */
bool theme_builtin(struct theme *t, const char *name);
/*
 * Parse theme text over t (start from a built-in theme).  Bad lines are
 * skipped and reported to err(arg, line, msg).  Returns the bad lines.
 */
int theme_parse(struct theme *t, const char *text,
    void (*err)(void *arg, int line, const char *msg), void *arg);
/* Parse one colour ("red", "bright-blue", "208", "#ff8700", "default"). */
int theme_parse_color(const char *s, struct tcolor *c);
/*
 * Find and load a theme: a built-in name, a path (contains '/' or ends in
 * .theme), or NAME.theme in $XDG_CONFIG_HOME/perfnav/themes, then in
 * datadir.  Returns 0, or -1 with a message in err.
 */
int theme_load(struct theme *t, const char *spec, const char *datadir, char *err, size_t n);

/* The RGB value of a 256-colour index (xterm palette). */
uint32_t theme_index_rgb(unsigned idx);
/*
 * A colour reduced to what a terminal of ncolors colours shows: the curses
 * colour number (-1 for default).  ncolors >= 0x1000000 means direct
 * colour (the number is the RGB value); 256, 88, 16 and 8 use palettes.
 */
int theme_reduce(const struct tcolor *c, int ncolors);

/* What the theme's attrs are on a terminal without colour: the mono theme's
 * attrs for elements that rely on colour alone. */
unsigned theme_mono_attrs(enum theme_elem e);

#endif
