#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "core/core.h"
#include "core/hmap.h"
#include "symbolize/annotate.h"
#include "symbolize/symbolizer.h"

/*
 * annotate_nav.c: what the annotate view navigates by, made from the rows
 * annotate_build() made: the branches in objdump's text and where they go,
 * the source lines' identities and summed samples, the rows of each view
 * mode, and the arrow of a selected jump.
 */

static bool
word_is(const char *p, size_t n, const char *w)
{
	return strlen(w) == n && memcmp(p, w, n) == 0;
}

/* The mnemonic of an instruction as a jump, a call or neither. */
static enum annot_branch
mnemonic_kind(const char *m, size_t n)
{
	static const char *const jumps[] = {
		"loop", "loope", "loopne", "loopz", "loopnz", "xbegin",
		/* arm64 */
		"b", "cbz", "cbnz", "tbz", "tbnz",
	};
	static const char *const calls[] = { "call", "callq", "calll", "callw", "bl" };

	for (size_t i = 0; i < sizeof calls / sizeof calls[0]; i++)
		if (word_is(m, n, calls[i]))
			return ANNOT_BR_CALL;
	/* x86's jumps all start with j (jmp, jmpq, jne, jrcxz...) */
	if (n >= 2 && m[0] == 'j')
		return ANNOT_BR_JUMP;
	/* arm64's conditional b.ne, b.eq... */
	if (n >= 3 && m[0] == 'b' && m[1] == '.')
		return ANNOT_BR_JUMP;
	for (size_t i = 0; i < sizeof jumps / sizeof jumps[0]; i++)
		if (word_is(m, n, jumps[i]))
			return ANNOT_BR_JUMP;
	return ANNOT_BR_NONE;
}

/* The hex number ending just before end (at or after start), or false. */
static bool
hex_before(const char *start, const char *end, uint64_t *v)
{
	const char *p = end;
	uint64_t x = 0;

	while (p > start && strchr("0123456789abcdef", p[-1]) != NULL && p[-1] != '\0')
		p--;
	if (p == end || end - p > 16 || (p > start && p[-1] != ' ' && p[-1] != ','))
		return false;
	for (; p < end; p++)
		x = x << 4 | (uint64_t)(*p <= '9' ? *p - '0' : *p - 'a' + 10);
	*v = x;
	return true;
}

enum annot_branch
annotate_parse_branch(const char *insn, uint64_t *vaddr, bool *direct)
{
	static const char *const prefixes[] = { "bnd", "notrack", "ds", "cs", "data16" };
	const char *p = insn, *m, *lt, *hash;
	enum annot_branch k;
	size_t n;
	bool again = true;

	*direct = false;
	while (*p == ' ')
		p++;
	while (again) {
		again = false;
		for (n = 0; p[n] != '\0' && p[n] != ' '; n++)
			;
		for (size_t i = 0; i < sizeof prefixes / sizeof prefixes[0]; i++)
			if (word_is(p, n, prefixes[i])) {
				p += n;
				while (*p == ' ')
					p++;
				again = true;
				break;
			}
	}
	m = p;
	for (n = 0; m[n] != '\0' && m[n] != ' '; n++)
		;
	k = mnemonic_kind(m, n);
	if (k == ANNOT_BR_NONE)
		return k;
	p = m + n;
	while (*p == ' ')
		p++;
	/* "*%rax", "*0x8(%rip)  # 3fd8 <x>": indirect, whatever the comment says */
	if (*p == '*')
		return k;
	lt = strstr(p, " <");
	hash = strchr(p, '#');
	if (lt != NULL && (hash == NULL || hash > lt) && hex_before(p, lt, vaddr))
		*direct = true;
	return k;
}

/* ---- source lines ---- */

struct line_want {
	const struct annotation	*a;
	const char		*path;
	int32_t			 lineno;
};

static bool
line_eq(const void *ctx, uint32_t val)
{
	const struct line_want *w = ctx;
	const struct annot_row *r = &w->a->rows[val];

	return r->lineno == w->lineno && strcmp(w->a->text + r->path, w->path) == 0;
}

/* The key of a source row: its file and line, else its "file.c:12" text. */
static const char *
line_key(const struct annotation *a, const struct annot_row *r, int32_t *lineno)
{
	if (r->path != ANNOT_ROW_NONE) {
		*lineno = r->lineno;
		return a->text + r->path;
	}
	*lineno = -1;
	return annotate_row_text(a, r);
}

static uint64_t
line_hash(const char *path, int32_t lineno)
{
	return hash_bytes(path, strlen(path)) ^ (uint64_t)(uint32_t)lineno * 0x9e3779b97f4a7c15u;
}

static void
link_lines(struct annotation *a)
{
	struct hmap seen;

	memset(&seen, 0, sizeof seen);
	for (size_t i = 0; i < a->nrows; i++) {
		struct annot_row *r = &a->rows[i];
		struct line_want w = { a, NULL, 0 };
		uint64_t hash;
		uint32_t j;

		r->line_samples = 0;
		r->line_period = 0;
		if (r->kind != ANNOT_SRC)
			continue;
		if (r->path == ANNOT_ROW_NONE) {
			/* keyed by its text: point path at it for line_eq */
			r->path = r->text;
			r->lineno = -1;
		}
		w.path = line_key(a, r, &w.lineno);
		hash = line_hash(w.path, w.lineno);
		j = hmap_find(&seen, hash, line_eq, &w);
		if (j == HMAP_NONE) {
			hmap_add(&seen, hash, (uint32_t)i);
			j = (uint32_t)i;
		}
		r->line_first = j;
	}
	hmap_free(&seen);
	for (size_t i = 0; i < a->nrows; i++) {
		const struct annot_row *r = &a->rows[i];
		struct annot_row *l;

		if (r->kind != ANNOT_INSN || r->src_row == ANNOT_ROW_NONE)
			continue;
		l = &a->rows[a->rows[r->src_row].line_first];
		l->line_samples += r->samples;
		l->line_period += r->period;
	}
}

/* The instruction row at address rel, ANNOT_ROW_NONE (rows are in address order). */
static uint32_t
insn_at(const struct annotation *a, uint64_t rel)
{
	size_t lo = 0, hi = a->nrows;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (a->rows[mid].rel < rel)
			lo = mid + 1;
		else
			hi = mid;
	}
	for (; lo < a->nrows && a->rows[lo].rel == rel; lo++)
		if (a->rows[lo].kind == ANNOT_INSN)
			return (uint32_t)lo;
	return ANNOT_ROW_NONE;
}

void
annotate_link(struct annotation *a)
{
	for (size_t i = 0; i < a->nrows; i++) {
		struct annot_row *r = &a->rows[i];
		uint64_t v = 0;
		bool direct;

		r->branch = ANNOT_BR_NONE;
		r->has_target = false;
		r->target_row = ANNOT_ROW_NONE;
		if (r->kind != ANNOT_INSN)
			continue;
		r->branch = (uint8_t)annotate_parse_branch(annotate_row_text(a, r), &v, &direct);
		if (r->branch == ANNOT_BR_NONE || !direct)
			continue;
		r->has_target = true;
		r->target = v - a->bias;
		if (r->branch == ANNOT_BR_JUMP && r->target >= a->start && r->target < a->end)
			r->target_row = insn_at(a, r->target);
	}
	link_lines(a);
}

uint32_t
annotate_callee(struct annotation *a, size_t row)
{
	const struct annot_row *r;

	if (row >= a->nrows)
		return SYM_NONE;
	r = &a->rows[row];
	if (!r->has_target || r->target_row != ANNOT_ROW_NONE)
		return SYM_NONE;
	if (r->branch != ANNOT_BR_CALL && r->target >= a->start && r->target < a->end)
		return SYM_NONE;
	return symbolizer_sym_at(a->z, a->dso, r->target);
}

/* ---- views ---- */

static bool
shown(const struct annotation *a, enum annot_mode mode, size_t i)
{
	const struct annot_row *r = &a->rows[i];

	switch (mode) {
	case ANNOT_MODE_SOURCE:
		return r->kind == ANNOT_SRC && r->line_first == i;
	case ANNOT_MODE_ASM:
		return r->kind != ANNOT_SRC;
	default:
		return true;
	}
}

size_t
annotate_visible(const struct annotation *a, enum annot_mode mode, uint32_t *out)
{
	size_t n = 0;

	for (size_t i = 0; i < a->nrows; i++)
		if (shown(a, mode, i))
			out[n++] = (uint32_t)i;
	return n;
}

uint64_t
annotate_row_samples(const struct annotation *a, enum annot_mode mode, size_t row)
{
	const struct annot_row *r = &a->rows[row];

	if (r->kind == ANNOT_SRC)
		return mode == ANNOT_MODE_SOURCE ? r->line_samples : 0;
	return r->samples;
}

uint64_t
annotate_row_period(const struct annotation *a, enum annot_mode mode, size_t row)
{
	const struct annot_row *r = &a->rows[row];

	if (r->kind == ANNOT_SRC)
		return mode == ANNOT_MODE_SOURCE ? r->line_period : 0;
	return r->period;
}

size_t
annotate_hottest(const struct annotation *a, enum annot_mode mode)
{
	size_t best = SIZE_MAX;
	uint64_t bp = 0;

	for (size_t i = 0; i < a->nrows; i++) {
		uint64_t p = annotate_row_period(a, mode, i);

		if (shown(a, mode, i) && annotate_row_samples(a, mode, i) > 0 &&
		    (best == SIZE_MAX || p > bp)) {
			best = i;
			bp = p;
		}
	}
	return best;
}

bool
annotate_row_source(const struct annotation *a, size_t row, const char **path, int *line)
{
	const struct annot_row *r;

	if (row >= a->nrows)
		return false;
	r = &a->rows[row];
	if (r->kind != ANNOT_SRC) {
		if (r->src_row == ANNOT_ROW_NONE)
			return false;
		r = &a->rows[r->src_row];
	}
	if (r->path == ANNOT_ROW_NONE || r->lineno <= 0)
		return false;
	*path = a->text + r->path;
	*line = r->lineno;
	return true;
}

/* ---- diff mode ---- */

bool
annotate_same_build(const struct annotation *a, const struct annotation *b)
{
	uint8_t ia[20], ib[20];
	size_t na = symbolizer_dso_build_id(a->z, a->dso, ia);
	size_t nb = symbolizer_dso_build_id(b->z, b->dso, ib);

	return na > 0 && na == nb && memcmp(ia, ib, na) == 0;
}

/* Credit other's instructions to a's at the same offset in the function. */
static void
pair_offsets(struct annotation *a, const struct annotation *o)
{
	for (size_t i = 0; i < o->nrows; i++) {
		const struct annot_row *r = &o->rows[i];
		uint32_t j;

		if (r->kind == ANNOT_SRC || r->samples == 0)
			continue;
		j = insn_at(a, r->rel - o->start + a->start);
		if (j == ANNOT_ROW_NONE)
			continue;
		a->rows[j].pair_samples += r->samples;
		a->rows[j].pair_period += r->period;
		if (a->rows[j].src_row != ANNOT_ROW_NONE) {
			struct annot_row *l = &a->rows[a->rows[a->rows[j].src_row].line_first];

			l->pair_samples += r->samples;
			l->pair_period += r->period;
		}
	}
}

/* Credit other's source lines to a's same file and line. */
static void
pair_lines(struct annotation *a, const struct annotation *o)
{
	struct hmap lines;

	memset(&lines, 0, sizeof lines);
	for (size_t i = 0; i < a->nrows; i++)
		if (a->rows[i].kind == ANNOT_SRC && a->rows[i].line_first == i) {
			int32_t ln;
			const char *key = line_key(a, &a->rows[i], &ln);

			hmap_add(&lines, line_hash(key, ln), (uint32_t)i);
		}
	for (size_t i = 0; i < o->nrows; i++) {
		const struct annot_row *r = &o->rows[i];
		struct line_want w = { a, NULL, 0 };
		uint32_t j;

		if (r->kind != ANNOT_SRC || r->line_first != i || r->line_samples == 0)
			continue;
		w.path = line_key(o, r, &w.lineno);
		j = hmap_find(&lines, line_hash(w.path, w.lineno), line_eq, &w);
		if (j == HMAP_NONE)
			continue;
		a->rows[j].pair_samples += r->line_samples;
		a->rows[j].pair_period += r->line_period;
	}
	hmap_free(&lines);
}

void
annotate_pair(struct annotation *a, const struct annotation *other, bool by_offset)
{
	for (size_t i = 0; i < a->nrows; i++) {
		a->rows[i].pair_samples = 0;
		a->rows[i].pair_period = 0;
	}
	a->paired = true;
	a->pair_by_offset = by_offset;
	a->pair_samples = other->samples;
	a->pair_period = other->period;
	if (by_offset)
		pair_offsets(a, other);
	else
		pair_lines(a, other);
}

/* Does the row carry paired numbers in mode? */
static bool
pair_shown(const struct annotation *a, enum annot_mode mode, size_t row)
{
	const struct annot_row *r = &a->rows[row];

	if (!a->paired)
		return false;
	if (r->kind == ANNOT_SRC)
		return mode == ANNOT_MODE_SOURCE || !a->pair_by_offset;
	return a->pair_by_offset;
}

bool
annotate_row_paired(const struct annotation *a, enum annot_mode mode, size_t row)
{
	return row < a->nrows && pair_shown(a, mode, row);
}

/* A source row's numbers are its line's (on the line's first row). */
static const struct annot_row *
pair_row(const struct annotation *a, size_t row)
{
	const struct annot_row *r = &a->rows[row];

	return r->kind == ANNOT_SRC && r->line_first != ANNOT_ROW_NONE ? &a->rows[r->line_first] : r;
}

uint64_t
annotate_row_pair_period(const struct annotation *a, enum annot_mode mode, size_t row)
{
	return pair_shown(a, mode, row) ? pair_row(a, row)->pair_period : 0;
}

uint64_t
annotate_row_pair_samples(const struct annotation *a, enum annot_mode mode, size_t row)
{
	return pair_shown(a, mode, row) ? pair_row(a, row)->pair_samples : 0;
}

enum annot_arrow
annotate_arrow(const struct annotation *a, size_t sel, size_t row)
{
	size_t to;

	if (sel >= a->nrows || a->rows[sel].target_row == ANNOT_ROW_NONE)
		return ANNOT_AR_NONE;
	to = a->rows[sel].target_row;
	if (row == sel)
		return to > sel ? ANNOT_AR_FROM_DOWN : ANNOT_AR_FROM_UP;
	if (row == to)
		return to > sel ? ANNOT_AR_TO_DOWN : ANNOT_AR_TO_UP;
	if ((row > sel && row < to) || (row > to && row < sel))
		return ANNOT_AR_PASS;
	return ANNOT_AR_NONE;
}
