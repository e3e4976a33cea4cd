#include "config.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/err.h"
#include "tui/conf.h"
#include "tui/theme.h"

/* Curses-free: parsing, the built-in themes, colour reduction. */

static const char *const elem_names[EL_COUNT] = {
#define X(id, name) [EL_##id] = name,
	THEME_ELEMENTS(X)
#undef X
};

static const char *const color_names[16] = {
	"black", "red", "green", "yellow", "blue", "magenta", "cyan", "white",
	"bright-black", "bright-red", "bright-green", "bright-yellow", "bright-blue",
	"bright-magenta", "bright-cyan", "bright-white",
};

static const struct {
	const char	*name;
	unsigned	 bit;
} attr_names[] = {
	{ "bold", TA_BOLD }, { "dim", TA_DIM }, { "underline", TA_UNDERLINE },
	{ "reverse", TA_REVERSE }, { "italic", TA_ITALIC }, { "blink", TA_BLINK },
	{ "standout", TA_STANDOUT }, { "none", 0 },
};

/* The built-in dark theme, in the file syntax (themes/dark.theme is the same). */
static const char default_text[] =
	"normal         default        default\n"
	"title          bright-white   blue     bold\n"
	"tab            white          default\n"
	"tab-active     black          yellow   bold\n"
	"status         black          white\n"
	"message        black          yellow   bold\n"
	"error          bright-white   red      bold\n"
	"column-header  bright-white   default  bold underline\n"
	"cursor         black          cyan\n"
	"search-match   black          yellow\n"
	"tree           bright-black   default\n"
	"dim            bright-black   default\n"
	"hot-high       bright-red     default  bold\n"
	"hot-mid        yellow         default\n"
	"hot-low        green          default\n"
	"rec-sample     default        default\n"
	"rec-meta       cyan           default\n"
	"rec-task       magenta        default\n"
	"pid            bright-blue    default\n"
	"comm           default        default  bold\n"
	"time           green          default\n"
	"hex-offset     bright-black   default\n"
	"hex-bytes      default        default\n"
	"hex-ascii      cyan           default\n"
	"hex-field      black          yellow   bold\n"
	"field-name     bright-blue    default\n"
	"field-value    default        default\n"
	"damaged        bright-white   red      bold\n"
	"warning        yellow         default  bold\n"
	"key            bright-cyan    default  bold\n"
	"progress       black          green\n"
	"flame-user     black          yellow\n"
	"flame-kernel   bright-white   red\n"
	"flame-system   black          cyan\n"
	"flame-jit      black          green\n"
	"flame-unresolved white        bright-black\n"
	"flame-selected bright-white   blue     bold\n"
	"flame-match    black          bright-magenta bold\n"
	"flame-offcpu   black          #87afff\n"
	"flame-offcpu-kernel bright-white blue\n"
	"timeline-1     blue           default\n"
	"timeline-2     cyan           default\n"
	"timeline-3     yellow         default\n"
	"timeline-4     bright-red     default  bold\n"
	"timeline-lost  bright-magenta default  bold\n"
	"timeline-offcpu bright-black  default\n"
	"timeline-blocked bright-red   default\n"
	"timeline-preempted yellow     default\n"
	"timeline-wakeup bright-green  default bold\n"
	"timeline-highlight bright-green default bold\n"
	"timeline-range default        blue\n"
	"diff-grew      bright-red     default  bold\n"
	"diff-shrank    bright-blue    default  bold\n"
	"flame-grew-1   black          #ffd7d7\n"
	"flame-grew-2   black          #ff8787\n"
	"flame-grew-3   bright-white   red      bold\n"
	"flame-shrank-1 black          #d7d7ff\n"
	"flame-shrank-2 black          #8787ff\n"
	"flame-shrank-3 bright-white   blue     bold\n"
	"flame-same     black          white\n";

/* No colours at all: attributes carry the meaning. */
static const char mono_text[] =
	"title          default default reverse bold\n"
	"tab-active     default default reverse bold\n"
	"status         default default reverse\n"
	"message        default default reverse bold\n"
	"error          default default reverse bold\n"
	"column-header  default default bold underline\n"
	"cursor         default default reverse\n"
	"search-match   default default bold underline\n"
	"hot-high       default default bold\n"
	"comm           default default bold\n"
	"hex-field      default default reverse\n"
	"field-name     default default bold\n"
	"damaged        default default bold underline\n"
	"warning        default default bold\n"
	"key            default default bold\n"
	"progress       default default reverse\n"
	"flame-user     default default reverse\n"
	"flame-kernel   default default reverse bold\n"
	"flame-system   default default reverse\n"
	"flame-jit      default default reverse italic\n"
	"flame-unresolved default default reverse dim\n"
	"flame-selected default default bold underline\n"
	"flame-match    default default reverse bold underline\n"
	"flame-offcpu   default default reverse dim\n"
	"flame-offcpu-kernel default default reverse dim bold\n"
	"timeline-1     default default dim\n"
	"timeline-3     default default bold\n"
	"timeline-4     default default bold\n"
	"timeline-lost  default default bold underline\n"
	"timeline-offcpu default default dim\n"
	"timeline-blocked default default bold\n"
	"timeline-preempted default default underline\n"
	"timeline-wakeup default default bold\n"
	"timeline-highlight default default reverse\n"
	"timeline-range default default underline\n"
	"flame-grew-1   default default reverse\n"
	"flame-grew-2   default default reverse bold\n"
	"flame-grew-3   default default reverse bold underline\n"
	"flame-shrank-1 default default reverse\n"
	"flame-shrank-2 default default reverse dim\n"
	"flame-shrank-3 default default reverse dim underline\n"
	"flame-same     default default reverse\n"
	"diff-grew      default default bold\n"
	"diff-shrank    default default underline\n";

int
theme_elem_by_name(const char *name)
{
	for (int i = 0; i < EL_COUNT; i++)
		if (strcmp(elem_names[i], name) == 0)
			return i;
	return -1;
}

const char *
theme_elem_name(enum theme_elem e)
{
	return (unsigned)e < EL_COUNT ? elem_names[e] : "?";
}

const char *
theme_color_name(unsigned i)
{
	return i < 16 ? color_names[i] : NULL;
}

const char *
theme_attr_name(size_t i, unsigned *bit)
{
	if (i >= sizeof attr_names / sizeof attr_names[0])
		return NULL;
	if (bit != NULL)
		*bit = attr_names[i].bit;
	return attr_names[i].name;
}

int
theme_parse_color(const char *s, struct tcolor *c)
{
	char *end;

	if (strcmp(s, "default") == 0 || strcmp(s, "-1") == 0) {
		c->kind = TC_DEFAULT;
		c->v = 0;
		return 0;
	}
	for (unsigned i = 0; i < 16; i++) {
		/* "brightred" and "bright-red" both */
		const char *n = color_names[i];

		if (strcmp(s, n) == 0 || (i >= 8 && strncmp(s, "bright", 6) == 0 &&
		    strcmp(s + 6, n + 7) == 0)) {
			c->kind = TC_INDEX;
			c->v = i;
			return 0;
		}
	}
	if (strcmp(s, "grey") == 0 || strcmp(s, "gray") == 0) {
		c->kind = TC_INDEX;
		c->v = 8;
		return 0;
	}
	if (s[0] == '#') {
		if (strlen(s) != 7)
			return -1;
		for (int i = 1; i < 7; i++)
			if (!isxdigit((unsigned char)s[i]))
				return -1;
		c->kind = TC_RGB;
		c->v = (uint32_t)strtoul(s + 1, NULL, 16);
		return 0;
	}
	if (strncmp(s, "colour", 6) == 0 || strncmp(s, "color", 5) == 0)
		s += s[5] == 'r' ? 6 : 5;
	if (isdigit((unsigned char)s[0])) {
		unsigned long v = strtoul(s, &end, 10);

		if (*end != '\0' || v > 255)
			return -1;
		c->kind = TC_INDEX;
		c->v = (uint32_t)v;
		return 0;
	}
	return -1;
}

/* "#rrggbb" followed by a blank or the end: a colour, not a comment. */
static bool
is_rgb_word(const char *p)
{
	for (int i = 1; i < 7; i++)
		if (!isxdigit((unsigned char)p[i]))
			return false;
	return p[7] == '\0' || isspace((unsigned char)p[7]);
}

/* One line of a theme file: element fg bg [attrs]. */
static int
theme_line(void *arg, char **w, int nw, char *msg, size_t n)
{
	struct theme *t = arg;
	struct theme_style st;
	int e;

	if (nw < 3 || nw > 11) {
		snprintf(msg, n, "expected 'element fg bg [attrs]'");
		return -1;
	}
	if ((e = theme_elem_by_name(w[0])) < 0) {
		snprintf(msg, n, "unknown element '%s'", w[0]);
		return -1;
	}
	memset(&st, 0, sizeof st);
	if (theme_parse_color(w[1], &st.fg) < 0) {
		snprintf(msg, n, "bad colour '%s'", w[1]);
		return -1;
	}
	if (theme_parse_color(w[2], &st.bg) < 0) {
		snprintf(msg, n, "bad colour '%s'", w[2]);
		return -1;
	}
	for (int i = 3; i < nw; i++) {
		size_t k;

		for (k = 0; k < sizeof attr_names / sizeof attr_names[0]; k++)
			if (strcmp(attr_names[k].name, w[i]) == 0)
				break;
		if (k == sizeof attr_names / sizeof attr_names[0]) {
			snprintf(msg, n, "unknown attribute '%s'", w[i]);
			return -1;
		}
		st.attrs |= attr_names[k].bit;
	}
	t->el[e] = st;
	return 0;
}

/* Words split at any white space; "#rrggbb" is a colour, not a comment. */
static const struct conf_syntax theme_syntax = {
	.line_max = 511,
	.words_max = 11,
	.tab_space = false,
	.hash_word = is_rgb_word,
};

int
theme_parse(struct theme *t, const char *text, void (*err)(void *, int, const char *), void *arg)
{
	return conf_parse(text, &theme_syntax, theme_line, t, err, arg);
}

bool
theme_builtin(struct theme *t, const char *name)
{
	memset(t, 0, sizeof *t);
	if (strcmp(name, "default") == 0 || strcmp(name, "dark") == 0) {
		theme_parse(t, default_text, NULL, NULL);
	} else if (strcmp(name, "mono") == 0) {
		theme_parse(t, mono_text, NULL, NULL);
	} else {
		return false;
	}
	snprintf(t->name, sizeof t->name, "%s", name);
	return true;
}

unsigned
theme_mono_attrs(enum theme_elem e)
{
	static struct theme mono;
	static bool have;

	if (!have) {
		theme_builtin(&mono, "mono");
		have = true;
	}
	return (unsigned)e < EL_COUNT ? mono.el[e].attrs : 0;
}

static char *
read_small(const char *path)
{
	FILE *fp = fopen(path, "r");
	char *buf;
	size_t len;

	if (fp == NULL)
		return NULL;
	buf = xmalloc(65537);
	len = fread(buf, 1, 65536, fp);
	fclose(fp);
	buf[len] = '\0';
	return buf;
}

static bool
ends_with(const char *s, const char *suf)
{
	size_t a = strlen(s), b = strlen(suf);

	return a >= b && strcmp(s + a - b, suf) == 0;
}

int
theme_load(struct theme *t, const char *spec, const char *datadir, char *err, size_t n)
{
	char path[4096], *text = NULL;
	const char *xdg = getenv("XDG_CONFIG_HOME"), *home = getenv("HOME");
	int bad;

	if (spec == NULL || spec[0] == '\0')
		spec = "default";
	if (theme_builtin(t, spec))
		return 0;
	theme_builtin(t, "default");
	if (strchr(spec, '/') || ends_with(spec, ".theme")) {
		snprintf(path, sizeof path, "%s", spec);
		text = read_small(path);
	} else {
		char exe[4096];
		ssize_t k;

		if (xdg && xdg[0])
			snprintf(path, sizeof path, "%s/perfnav/themes/%s.theme", xdg, spec);
		else
			snprintf(path, sizeof path, "%s/.config/perfnav/themes/%s.theme",
			    home ? home : ".", spec);
		text = read_small(path);
		if (text == NULL && datadir) {
			snprintf(path, sizeof path, "%s/themes/%s.theme", datadir, spec);
			text = read_small(path);
		}
		/* uninstalled: themes/ next to the program */
		if (text == NULL && (k = readlink("/proc/self/exe", exe, sizeof exe - 1)) > 0) {
			char *slash;

			exe[k] = '\0';
			if ((slash = strrchr(exe, '/')) != NULL) {
				*slash = '\0';
				snprintf(path, sizeof path, "%.3000s/themes/%.200s.theme", exe, spec);
				text = read_small(path);
			}
		}
	}
	if (text == NULL) {
		snprintf(err, n, "theme '%s' not found (built in: default, mono; or a file)", spec);
		return -1;
	}
	bad = theme_parse(t, text, NULL, NULL);
	free(text);
	snprintf(t->name, sizeof t->name, "%s", spec);
	if (bad) {
		snprintf(err, n, "%s: %d bad line%s ignored", path, bad, bad == 1 ? "" : "s");
		return 1;
	}
	return 0;
}

/* ---- colour reduction ---- */

static const uint32_t base16[16] = {
	0x000000, 0xcd0000, 0x00cd00, 0xcdcd00, 0x0000ee, 0xcd00cd, 0x00cdcd, 0xe5e5e5,
	0x7f7f7f, 0xff0000, 0x00ff00, 0xffff00, 0x5c5cff, 0xff00ff, 0x00ffff, 0xffffff,
};

static const uint8_t cube[6] = { 0, 95, 135, 175, 215, 255 };

uint32_t
theme_index_rgb(unsigned idx)
{
	if (idx < 16)
		return base16[idx];
	if (idx < 232) {
		unsigned i = idx - 16;

		return (uint32_t)cube[i / 36] << 16 | (uint32_t)cube[(i / 6) % 6] << 8 | cube[i % 6];
	}
	if (idx < 256) {
		uint32_t g = 8 + 10 * (idx - 232);

		return g << 16 | g << 8 | g;
	}
	return 0;
}

static unsigned
dist2(uint32_t a, uint32_t b)
{
	int dr = (int)(a >> 16 & 0xff) - (int)(b >> 16 & 0xff);
	int dg = (int)(a >> 8 & 0xff) - (int)(b >> 8 & 0xff);
	int db = (int)(a & 0xff) - (int)(b & 0xff);

	/* weighted a little towards green, as the eye is */
	return (unsigned)(2 * dr * dr + 4 * dg * dg + 3 * db * db);
}

static unsigned
cube_level(unsigned v)
{
	unsigned best = 0;

	for (unsigned i = 1; i < 6; i++)
		if ((v > cube[i] ? v - cube[i] : cube[i] - v) < (v > cube[best] ? v - cube[best] :
		    cube[best] - v))
			best = i;
	return best;
}

static int
rgb_to_256(uint32_t rgb)
{
	unsigned r = rgb >> 16 & 0xff, g = rgb >> 8 & 0xff, b = rgb & 0xff;
	unsigned ci = 16 + 36 * cube_level(r) + 6 * cube_level(g) + cube_level(b);
	unsigned avg = (r + g + b) / 3, gi;

	gi = avg < 8 ? 0 : (avg - 8 + 5) / 10;
	if (gi > 23)
		gi = 23;
	gi += 232;
	return dist2(rgb, theme_index_rgb(gi)) < dist2(rgb, theme_index_rgb(ci)) ? (int)gi : (int)ci;
}

static int
rgb_to_n(uint32_t rgb, unsigned n)
{
	unsigned best = 0;

	for (unsigned i = 1; i < n; i++)
		if (dist2(rgb, base16[i]) < dist2(rgb, base16[best]))
			best = i;
	return (int)best;
}

int
theme_reduce(const struct tcolor *c, int ncolors)
{
	uint32_t rgb;

	if (c->kind == TC_DEFAULT || ncolors < 8)
		return -1;
	if (ncolors >= 0x1000000) {
		/* direct colour: small numbers are the ANSI palette */
		if (c->kind == TC_INDEX && c->v < 8)
			return (int)c->v;
		rgb = c->kind == TC_RGB ? c->v : theme_index_rgb(c->v);
		return rgb < 8 ? 8 : (int)rgb;	/* near-black, but not a palette index */
	}
	if (c->kind == TC_INDEX) {
		if ((int)c->v < ncolors && (ncolors >= 256 || c->v < 16))
			return (int)c->v;
		if (c->v < 16)		/* 8 colours: bright -> normal */
			return (int)(c->v & 7);
		rgb = theme_index_rgb(c->v);
	} else {
		rgb = c->v;
	}
	if (ncolors >= 256)
		return rgb_to_256(rgb);
	if (ncolors >= 16)
		return rgb_to_n(rgb, 16);
	return rgb_to_n(rgb, 8);
}
