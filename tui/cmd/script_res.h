/*
 * script_res.h: `perfnav script`'s kept answers of a symbolizer, and the
 * file's pages given back behind the records read.
 *
 * Resolved addresses are kept as the hist walk keeps them (symbolize/
 * hist_walk.c): an address resolves alike until a record that changes the
 * maps of its address space (the kernel's, or a pid's) bumps that space's
 * epoch, so (ip, cpumode, space, epoch) keys the answer, in a direct-mapped
 * table.  The one who keeps them reads the index in order and shows each
 * entry to script_res_track() (or, for entries whose samples it does not
 * print, script_res_skip()), so that its epochs are one pass's.  Beside
 * each answer, room for the caller's text of it (a frame's text depends
 * only on the frame: names are fixed for a symbolizer's life).
 *
 * Not thread-safe: one per symbolizer, each on its own thread.
 */
#ifndef PERFNAV_TUI_CMD_SCRIPT_RES_H
#define PERFNAV_TUI_CMD_SCRIPT_RES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "core/core.h"
#include "symbolize/symbolizer.h"

#define SCRIPT_RES_TEXT	107	/* the text kept beside an answer, at most */

/* 128 bytes, two cache lines: a hit reads nothing else (the frame is
 * beside, in an array of its own). */
struct res_slot {
	uint64_t	ip;
	int32_t		pid;		/* -1: the kernel's space */
	uint32_t	epoch;
	uint8_t		cpumode;
	bool		used;
	bool		inl;		/* the frame is an inline level */
	uint8_t		len;		/* of text; 0: none kept (the caller's) */
	bool		rel;		/* text made for a callchain line (its ip map-relative) */
	char		text[SCRIPT_RES_TEXT];
};
_Static_assert(sizeof(struct res_slot) == 128, "a slot is two cache lines");

struct script_res {
	struct symbolizer	*z;
	struct res_slot		*slot;
	struct frame		*frame;		/* the frame of each slot */
	struct hmap		 epochs;	/* pid -> its epoch (none: 0) */
	uint32_t		 kepoch;
	int32_t			 last_pid;	/* the last pid's epoch, at hand */
	uint32_t		 last_epoch;
};

/* Keep z's answers; -1 (nothing kept, r freed) when out of memory. */
int script_res_init(struct script_res *r, struct symbolizer *z);
void script_res_free(struct script_res *r);

/* Index entry i of s, read in order (start: the first of a row of entries
 * read in order): the epochs it moves. */
void script_res_track(struct script_res *r, const struct session *s, size_t i, bool start);
/* Entries [from, to) of s, none of whose addresses is asked for: the
 * epochs their records move. */
void script_res_skip(struct script_res *r, const struct session *s, size_t from, size_t to);

/*
 * symbolizer_resolve(z, pid, tid, time, cpumode, ip) through the kept
 * answers: the answer's slot, and its frame in *f, valid until the next
 * lookup.  A new answer's slot has len 0 and inl set.
 */
struct res_slot *script_res_get(struct script_res *r, int32_t pid, int32_t tid, uint64_t time,
    uint8_t cpumode, uint64_t ip, const struct frame **f);

/* The file's pages well behind the records read, given back as a run goes
 * (as the hist walk does; read again from the page cache if needed). */
struct script_drop {
	uint64_t	lo, hi;
};
/* The records read reach loc (a session location). */
void script_drop_behind(const struct session *s, struct script_drop *d, uint64_t loc);

#endif
