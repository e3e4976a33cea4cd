/*
 * attr.h: the recording's events (perf's "evsel"s): each attr as a native
 * struct perf_event_attr, its sample ids, its name, and the id -> attr map
 * used to find which event a record belongs to.
 *
 * The attr table is owned by the session; ids and names live as long as it.
 */
#ifndef PERFNAV_CORE_ATTR_H
#define PERFNAV_CORE_ATTR_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <linux/perf_event.h>

#include "core/hmap.h"

struct pn_attr {
	struct perf_event_attr	 attr;		/* native byte order, zero past size */
	uint32_t		 disk_size;	/* bytes of attr present on disk */
	uint64_t		 file_off;	/* where it was read (file or pipe) */
	uint64_t		*ids;
	size_t			 nids, cap_ids;
	char			*name;		/* from EVENT_DESC/EVENT_UPDATE/EVENT_TYPE, or made */
	bool			 name_given;	/* name came from the file */
	/* Derived once: byte layout of samples and sample_id trailers. */
	int			 id_pos;	/* u64 index of ID in a sample, -1 */
	int			 is_pos;	/* u64 index from the end of a trailer, -1 */
	uint32_t		 trailer_size;	/* bytes of the sample_id_all trailer */
};

struct attr_table {
	struct pn_attr	*v;
	size_t		 n, cap;
	struct hmap	 ids;		/* id -> attr index */
	/* All attrs agree on these (else -1: ids cannot be located). */
	int		 id_pos, is_pos;
	bool		 same_sample_type;
	bool		 sample_id_all;	/* of attr 0 (perf requires all agree) */
};

/*
 * Decode an on-disk attr of disk_size bytes (either byte order) into out,
 * including the bitfield word of a foreign-endian file.  Returns 0, or -1
 * if disk_size is too small to hold even the version-0 attr.
 */
int attr_decode(struct perf_event_attr *out, const uint8_t *p, size_t disk_size, bool swap);

/* Add an attr; returns its index. */
uint32_t attr_table_add(struct attr_table *t, const struct perf_event_attr *a, uint32_t disk_size,
    uint64_t file_off);
/* Map a sample id to attr idx. */
void attr_table_add_id(struct attr_table *t, uint32_t idx, uint64_t id);
/* Attr index for an id, or -1. */
int attr_table_find_id(const struct attr_table *t, uint64_t id);
/* Compute id_pos/is_pos/trailer sizes once all attrs are known. */
void attr_table_finish(struct attr_table *t);
void attr_table_free(struct attr_table *t);

/* Whether any attr samples callchains (PERF_SAMPLE_CALLCHAIN). */
bool attr_table_has_callchains(const struct attr_table *t);

/* Bytes of the sample_id_all trailer for a sample_type. */
uint32_t attr_trailer_size(uint64_t sample_type);

#endif
