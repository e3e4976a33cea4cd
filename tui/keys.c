#include "config.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <wchar.h>

#include <curses.h>

#include "core/err.h"
#include "tui/conf.h"
#include "tui/keys.h"

static const struct {
	const char	*name, *help;
} actions[ACT_COUNT] = {
#define X(id, n, h) [ACT_##id] = { n, h },
	ACTIONS(X)
#undef X
};

/*
 * The default bindings.  Keys users of perf report know keep their
 * meaning: ?/h help, / search, q quit, + e E c C expansion, d t zooms, i header,
 * a annotate.  Tab and BTab are the next and previous pane everywhere; perf
 * report's Tab (the next event) is } and { in the analysis panes.
 */
const char keys_default_text[] =
	"# perfnav's default key bindings, in the syntax of $XDG_CONFIG_HOME/perfnav/keys\n"
	"bind global q quit\n"
	"bind global Q quit-all\n"
	"bind global = row-text\n"
	"bind global ? help\n"
	"bind global h help\n"
	"bind global F1 help\n"
	"bind global Up up\n"
	"bind global k up\n"
	"bind global Down down\n"
	"bind global j down\n"
	"bind global PgUp page-up\n"
	"bind global C-b page-up\n"
	"bind global PgDn page-down\n"
	"bind global C-f page-down\n"
	"bind global Space page-down\n"
	"bind global Home top\n"
	"bind global g top\n"
	"bind global End bottom\n"
	"bind global G bottom\n"
	"bind global Enter enter\n"
	"bind global Right toggle\n"
	"bind global Esc back\n"
	"bind global Backspace back\n"
	"bind global DEL back\n"
	"bind global C-h back\n"
	"bind global Left back\n"
	"bind global / search\n"
	"bind global n search-next\n"
	"bind global N search-prev\n"
	"bind global f filter\n"
	"bind global F4 filter\n"
	"bind global F clear-filter\n"
	"bind global > sort-next\n"
	"bind global < sort-prev\n"
	"bind global r sort-reverse\n"
	"bind global ] scroll-right\n"
	"bind global [ scroll-left\n"
	"bind global SRight scroll-right\n"
	"bind global SLeft scroll-left\n"
	"bind global + toggle\n"
	"bind global e expand\n"
	"bind global E expand-all\n"
	"bind global c collapse\n"
	"bind global C collapse-all\n"
	"bind global Tab next-pane\n"
	"bind global BTab prev-pane\n"
	"bind global 1 pane-hot\n"
	"bind global 2 pane-procs\n"
	"bind global 3 pane-events\n"
	"bind global 4 pane-header\n"
	"bind global i pane-header\n"
	"bind global 5 pane-hex\n"
	"bind global x hex\n"
	"bind global d zoom-dso\n"
	"bind global t zoom-thread\n"
	"bind global : scope-edit\n"
	"bind global y scope-command\n"
	"bind global P export\n"
	"bind global X export\n"
	"bind global a annotate\n"
	"bind global v events\n"
	"bind global C-l redraw\n"
	"bind global 6 pane-topdown\n"
	"bind global 7 pane-bottomup\n"
	"bind global 8 pane-flame\n"
	"bind global T open-topdown\n"
	"bind global B open-bottomup\n"
	"bind global W wakers\n"
	"bind global o focus\n"
	"bind global m merge\n"
	"bind global D drop\n"
	"bind global R no-recursion\n"
	"bind global 9 pane-timeline\n"
	"bind global 0 pane-fscope\n"
	"bind global S pane-counters\n"
	"bind global I pane-summary\n"
	"bind global w diff-swap\n"
	"bind global A diff-norm\n";

static const struct {
	const char	*name;
	int		 key;
} keynames[] = {
	{ "Up", KEYS_FN + KEY_UP }, { "Down", KEYS_FN + KEY_DOWN },
	{ "Left", KEYS_FN + KEY_LEFT }, { "Right", KEYS_FN + KEY_RIGHT },
	{ "PgUp", KEYS_FN + KEY_PPAGE }, { "PgDn", KEYS_FN + KEY_NPAGE },
	{ "Home", KEYS_FN + KEY_HOME }, { "End", KEYS_FN + KEY_END },
	{ "Backspace", KEYS_FN + KEY_BACKSPACE }, { "Delete", KEYS_FN + KEY_DC },
	{ "Insert", KEYS_FN + KEY_IC }, { "BTab", KEYS_FN + KEY_BTAB },
	{ "SLeft", KEYS_FN + KEY_SLEFT }, { "SRight", KEYS_FN + KEY_SRIGHT },
	{ "KEnter", KEYS_FN + KEY_ENTER },
	{ "Enter", KEYS_ENTER }, { "Esc", KEYS_ESC }, { "Tab", KEYS_TAB },
	{ "Space", ' ' }, { "DEL", 127 },
	/* aliases accepted when parsing */
	{ "PageUp", KEYS_FN + KEY_PPAGE }, { "PageDown", KEYS_FN + KEY_NPAGE },
	{ "NPage", KEYS_FN + KEY_NPAGE }, { "PPage", KEYS_FN + KEY_PPAGE },
	{ "Return", KEYS_ENTER }, { "Escape", KEYS_ESC },
};

const char *
keys_name_nth(size_t i)
{
	return i < sizeof keynames / sizeof keynames[0] ? keynames[i].name : NULL;
}

const char *
keys_action_name(enum action a)
{
	return (unsigned)a < ACT_COUNT ? actions[a].name : "?";
}

const char *
keys_action_help(enum action a)
{
	return (unsigned)a < ACT_COUNT ? actions[a].help : "";
}

int
keys_action_by_name(const char *name)
{
	for (int i = 0; i < ACT_COUNT; i++)
		if (strcmp(actions[i].name, name) == 0)
			return i;
	return -1;
}

int
keys_parse_key(const char *name)
{
	size_t len = strlen(name);
	wchar_t wc;
	mbstate_t st;
	size_t k;

	if (len == 0)
		return -1;
	for (size_t i = 0; i < sizeof keynames / sizeof keynames[0]; i++)
		if (strcasecmp(keynames[i].name, name) == 0)
			return keynames[i].key;
	if (len == 3 && (name[0] == 'C' || name[0] == 'c') && name[1] == '-') {
		int c = tolower((unsigned char)name[2]);

		if (c >= 'a' && c <= 'z')
			return c - 'a' + 1;
		if (c == '@' || c == ' ')
			return 0;
		return -1;
	}
	if ((name[0] == 'F' || name[0] == 'f') && len >= 2 && len <= 3 &&
	    isdigit((unsigned char)name[1]) && (len == 2 || isdigit((unsigned char)name[2]))) {
		int n = atoi(name + 1);

		if (n >= 1 && n <= 12)
			return KEYS_FN + KEY_F(n);
		return -1;
	}
	if (len == 1)
		return (unsigned char)name[0];
	/* one multibyte character */
	memset(&st, 0, sizeof st);
	k = mbrtowc(&wc, name, len, &st);
	if (k == len && wc > 127)
		return (int)wc;
	return -1;
}

const char *
keys_key_name(int key, char *buf, size_t n)
{
	for (size_t i = 0; i < sizeof keynames / sizeof keynames[0]; i++)
		if (keynames[i].key == key) {
			snprintf(buf, n, "%s", keynames[i].name);
			return buf;
		}
	if (key >= KEYS_FN + KEY_F(1) && key <= KEYS_FN + KEY_F(12))
		snprintf(buf, n, "F%d", key - KEYS_FN - KEY_F0);
	else if (key >= 1 && key <= 26)
		snprintf(buf, n, "C-%c", 'a' + key - 1);
	else if (key >= KEYS_FN)
		snprintf(buf, n, "key%d", key - KEYS_FN);
	else if (key < 128)
		snprintf(buf, n, "%c", key);
	else {
		char mb[8];
		mbstate_t st;
		size_t k;

		memset(&st, 0, sizeof st);
		k = wcrtomb(mb, (wchar_t)key, &st);
		if (k == (size_t)-1)
			snprintf(buf, n, "U+%04X", (unsigned)key);
		else
			snprintf(buf, n, "%.*s", (int)k, mb);
	}
	return buf;
}

void
keys_init(struct keys *k, const char *const *pane_maps)
{
	memset(k, 0, sizeof *k);
	k->maps[k->nmaps++] = "global";
	for (; pane_maps && *pane_maps && k->nmaps < KEYS_MAPS_MAX; pane_maps++)
		k->maps[k->nmaps++] = *pane_maps;
}

void
keys_free(struct keys *k)
{
	free(k->v);
	k->v = NULL;
	k->n = k->cap = 0;
}

static int
map_index(const struct keys *k, const char *name)
{
	for (size_t i = 0; i < k->nmaps; i++)
		if (strcmp(k->maps[i], name) == 0)
			return (int)i;
	return -1;
}

static void
unbind(struct keys *k, int map, int key)
{
	size_t o = 0;

	for (size_t i = 0; i < k->n; i++)
		if (!(k->v[i].map == map && k->v[i].key == key))
			k->v[o++] = k->v[i];
	k->n = o;
}

static void
bind(struct keys *k, int map, int key, enum action a)
{
	unbind(k, map, key);
	GROW(k->v, k->cap, k->n + 1);
	k->v[k->n].map = (uint8_t)map;
	k->v[k->n].key = key;
	k->v[k->n].act = a;
	k->n++;
}

/* One line of a key file: bind MAP KEY ACTION, or unbind MAP KEY. */
static int
keys_line(void *arg, char **w, int nw, char *msg, size_t n)
{
	struct keys *k = arg;
	int map, key, act;

	if (!(strcmp(w[0], "bind") == 0 && nw == 4) && !(strcmp(w[0], "unbind") == 0 && nw == 3)) {
		snprintf(msg, n, "expected 'bind MAP KEY ACTION' or 'unbind MAP KEY'");
		return -1;
	}
	if ((map = map_index(k, w[1])) < 0) {
		snprintf(msg, n, "unknown map '%s'", w[1]);
		return -1;
	}
	if ((key = keys_parse_key(w[2])) < 0) {
		snprintf(msg, n, "unknown key '%s'", w[2]);
		return -1;
	}
	if (nw == 3) {
		unbind(k, map, key);
		return 0;
	}
	if ((act = keys_action_by_name(w[3])) < 0) {
		snprintf(msg, n, "unknown action '%s'", w[3]);
		return -1;
	}
	bind(k, map, key, (enum action)act);
	return 0;
}

/* Words split at blanks and tabs; a '#' at a word's start begins a
 * comment (so '#' itself cannot be bound). */
static const struct conf_syntax keys_syntax = {
	.line_max = 255,
	.words_max = 4,
	.tab_space = true,
};

int
keys_parse(struct keys *k, const char *text, void (*err)(void *, int, const char *), void *arg)
{
	return conf_parse(text, &keys_syntax, keys_line, k, err, arg);
}

int
keys_load_file(struct keys *k, const char *path, void (*err)(void *, int, const char *),
    void *arg)
{
	FILE *fp = fopen(path, "r");
	char *buf = NULL;
	size_t len = 0, cap = 0, r;
	int bad;

	if (fp == NULL)
		return 0;
	do {
		GROW(buf, cap, len + 4096 + 1);
		r = fread(buf + len, 1, 4096, fp);
		len += r;
	} while (r > 0 && len < (1u << 20));
	fclose(fp);
	buf[len] = '\0';
	bad = keys_parse(k, buf, err, arg);
	free(buf);
	return bad;
}

enum action
keys_lookup(const struct keys *k, const char *map, int key)
{
	int m = map ? map_index(k, map) : -1;

	if (m > 0)
		for (size_t i = 0; i < k->n; i++)
			if (k->v[i].map == m && k->v[i].key == key)
				return k->v[i].act;
	for (size_t i = 0; i < k->n; i++)
		if (k->v[i].map == 0 && k->v[i].key == key)
			return k->v[i].act;
	return ACT_NONE;
}

char *
keys_bound(const struct keys *k, const char *map, enum action a, char *buf, size_t n)
{
	int m = map_index(k, map ? map : "global");
	size_t o = 0;

	if (n == 0)
		return buf;
	buf[0] = '\0';
	for (size_t i = 0; i < k->n && m >= 0; i++) {
		char name[32];
		int w;

		if (k->v[i].map != m || k->v[i].act != a)
			continue;
		w = snprintf(buf + o, n - o, "%s%s", o ? ", " : "",
		    keys_key_name(k->v[i].key, name, sizeof name));
		if (w < 0 || (size_t)w >= n - o) {
			buf[o] = '\0';
			break;
		}
		o += (size_t)w;
	}
	return buf;
}

void
keys_help(const struct keys *k, keys_help_fn fn, void *arg)
{
	for (size_t m = 0; m < k->nmaps; m++) {
		bool any = false;

		for (int a = 1; a < ACT_COUNT; a++) {
			char keys[128];

			keys_bound(k, k->maps[m], (enum action)a, keys, sizeof keys);
			if (keys[0] == '\0')
				continue;
			if (!any)
				fn(arg, 0, NULL, k->maps[m], NULL);
			any = true;
			fn(arg, 1, keys, actions[a].name, actions[a].help);
		}
	}
}
