/* Criterion tests of symbolize/callgraph.c and folded.c: the call tree and
 * folded stacks. */
#include "config.h"

#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/core.h"
#include "symbolize/hist.h"
#include "symbolize/symbolizer.h"
#include "tests/helpers.h"
#include "tests/hist_helpers.h"

struct folded {
	char	text[8][128];
	uint64_t count[8];
	int	n;
};

static int
collect(void *arg, const char *line, uint64_t count)
{
	struct folded *f = arg;

	cr_assert_lt(f->n, 8);
	snprintf(f->text[f->n], sizeof f->text[0], "%s", line);
	f->count[f->n++] = count;
	return 0;
}

static uint64_t
folded_count(const struct folded *f, const char *line)
{
	for (int i = 0; i < f->n; i++)
		if (strcmp(f->text[i], line) == 0)
			return f->count[i];
	return 0;
}

Test(hist, folded_stacks_and_call_graph)
{
	struct hist *h = hh_new("sym", false, true);
	struct frame c1[] = { hh_frame(0, 1, 0x1110), hh_frame(0, 2, 0x1200), hh_frame(0, 3, 0x1300) };
	struct frame c2[] = { hh_frame(0, 1, 0x1114), hh_frame(0, 2, 0x1208), hh_frame(0, 3, 0x1300) };
	struct frame c3[] = { hh_frame(0, 4, 0x1400), hh_frame(0, 3, 0x1300) };
	struct frame c4[] = { hh_frame(0, SYM_NONE, 0x9999), hh_frame(0, 3, 0x1300) };
	struct folded f;

	hh_add(h, 0, "w", 1, 10, c1, 3);
	hh_add(h, 0, "w", 1, 30, c2, 3);
	hh_add(h, 0, "w", 1, 5, c3, 2);
	hh_add(h, 0, "v", 2, 5, c4, 2);
	hist_finish(h);
	memset(&f, 0, sizeof f);
	hist_folded(h, 0, false, collect, &f);
	cr_assert_eq(f.n, 3);
	cr_assert_eq(folded_count(&f, "w;s3;s2;s1"), 2);
	cr_assert_eq(folded_count(&f, "w;s3;s4"), 1);
	cr_assert_eq(folded_count(&f, "v;s3;[d0]"), 1);
	memset(&f, 0, sizeof f);
	hist_folded(h, 0, true, collect, &f);
	cr_assert_eq(folded_count(&f, "w;s3;s2;s1"), 40);

	/* the call tree: root -> comm -> s3 -> ... with inclusive counts */
	{
		const struct hist_tnode *root = hist_tnode_get(h, hist_event(h, 0)->tree_root);
		const struct hist_tnode *w = hist_tnode_get(h, root->first_child);
		const struct hist_tnode *s3 = hist_tnode_get(h, w->first_child);

		cr_assert_eq(root->inc_period, 50);
		cr_assert_str_eq(hist_str(h, w->name), "w");
		cr_assert_eq(w->inc_period, 45);
		cr_assert_eq(s3->inc_samples, 3);
		cr_assert_eq(hist_tnode_get(h, s3->first_child)->inc_period, 40);
	}
	hist_free(h);
}
