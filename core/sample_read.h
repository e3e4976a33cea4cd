/*
 * sample_read.h: the counter values a sample carries (PERF_SAMPLE_READ),
 * and the samples perf makes of them.
 *
 * A sample with READ values is not one sample to perf but one per value:
 * leader sampling (`-e '{a,b}:S'`) writes only the leader's samples, each
 * with every member's count (PERF_FORMAT_GROUP); perf delivers one sample
 * per value, of the event the value's id names, with the period that
 * counter grew since the last sample of that id, and none for a value
 * that did not grow or whose id is unknown (so a READ without
 * PERF_FORMAT_ID gives none).  struct read_state keeps the last value per
 * id; samples must be fed in time order (per id, file order is that).
 */
#ifndef PERFNAV_CORE_SAMPLE_READ_H
#define PERFNAV_CORE_SAMPLE_READ_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "core/hmap.h"

struct session;
struct sample;

/* One counter value of a READ: its id (0 without PERF_FORMAT_ID). */
struct read_value {
	uint64_t	value, id;
};

/* The values of smp's READ (one, or a group's nr), at most max into out;
 * their number (0 without READ values). */
size_t sample_read_values(const struct sample *smp, struct read_value *out, size_t max);

/* Does any event of s sample with READ values (then its samples are delivered per value)? */
bool session_has_read_samples(const struct session *s);

/* A sample perf delivers for one value: of attr, with period. */
struct read_delivery {
	int		attr;
	uint64_t	period, id;
};

struct read_state {
	struct hmap	 ids;		/* id -> slot of last */
	uint64_t	*last;
	size_t		 n, cap;
};

/*
 * The samples perf delivers for smp (a sample with READ values), into out
 * (at most max); their number.  Updates st (the last value per id).
 */
size_t read_deliver(const struct session *s, struct read_state *st, const struct sample *smp,
    struct read_delivery *out, size_t max);
/*
 * Take in the values of a sample that is not counted: perf's --time and
 * --cpu leave a sample out after its values were taken in, so the next
 * sample's periods are what the counters grew since these.  Returns 0.
 */
int read_skip(const struct session *s, struct read_state *st, const struct sample *smp);
void read_state_free(struct read_state *st);

#endif
