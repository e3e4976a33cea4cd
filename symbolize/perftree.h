/*
 * perftree.h: an insertion-only red-black tree of 32-bit ids, searched with
 * a comparison the caller gives per search, for emulating how perf report
 * 6.1 files hist entries (symbolize/hist_ptree.c).  perf keeps entries in a Linux
 * rbtree ordered by its sort keys, and its symbol comparison is not a total
 * order when inlined symbols take part: what a search finds then depends on
 * the tree's exact shape.  So this tree takes the same path perf's does
 * (left when the comparison is negative) and rebalances after an insertion
 * the way a textbook red-black tree does, which is the shape Linux's
 * rb_insert_color() gives.
 *
 * One struct perftree holds the links of ids 0 .. n-1; several trees (one
 * per root variable) may share it, each id being in one of them.  The
 * caller owns the roots (PERFTREE_NONE: empty).  Nothing here fails except
 * on out of memory (xcalloc's policy).
 */
#ifndef PERFNAV_SYMBOLIZE_PERFTREE_H
#define PERFNAV_SYMBOLIZE_PERFTREE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define PERFTREE_NONE	UINT32_MAX

struct perftree_link {
	uint32_t	kid[2];		/* left, right; PERFTREE_NONE */
	uint32_t	up;		/* parent; PERFTREE_NONE at the root */
	bool		red;
};

struct perftree {
	struct perftree_link	*v;
	size_t			 cap;
};

/*
 * Compare the id in the tree (old) with what is sought: negative goes
 * left, positive right, 0 is found.  Only the sign counts.
 */
typedef int64_t (*perftree_cmp_fn)(void *arg, uint32_t old);

/*
 * Search the tree at root.  Returns the id found, or PERFTREE_NONE with
 * *parent and *side set for perftree_insert().
 */
uint32_t perftree_find(const struct perftree *t, uint32_t root, perftree_cmp_fn cmp, void *arg,
    uint32_t *parent, int *side);

/* Link id (not yet in any tree) below parent on side, then rebalance. */
void perftree_insert(struct perftree *t, uint32_t *root, uint32_t id, uint32_t parent, int side);

/* In-order walk from root: fn(arg, id) per id, smallest first. */
void perftree_walk(const struct perftree *t, uint32_t root, void (*fn)(void *arg, uint32_t id),
    void *arg);

void perftree_free(struct perftree *t);

#endif
