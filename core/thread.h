/*
 * thread.h: threads and processes over time (COMM, FORK, EXIT), and each
 * process's address-space history (MMAP, MMAP2), built from records fed
 * in time order (the session feeds its index).  Owned by the session.
 *
 * A thread entry is one lifetime of a tid: a tid seen in a FORK again, or
 * named by a COMM after its EXIT, starts a new entry; a sample after the
 * EXIT stays with the exited thread and its comm (as perf keeps a dead
 * thread until the tid is reused).  Threads are addressed by 32-bit ids
 * (indexes), never by pointers.
 */
#ifndef PERFNAV_CORE_THREAD_H
#define PERFNAV_CORE_THREAD_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <linux/perf_event.h>

#include "core/perf_file.h"
#include "core/hmap.h"
#include "core/record.h"

struct comm_ev {
	uint64_t	time;
	uint32_t	thread;		/* thread id (index) */
	uint32_t	name;		/* strtab id */
	bool		exec;		/* PERF_RECORD_MISC_COMM_EXEC */
	uint32_t	next;		/* next comm of the same thread, UINT32_MAX */
};

#define THREAD_NONE UINT32_MAX

struct pn_thread {
	int32_t		pid, tid;
	int32_t		ppid, ptid;	/* from FORK, -1 if unknown */
	uint32_t	parent;		/* thread id of the parent, THREAD_NONE */
	uint64_t	start, end;	/* FORK/first seen, EXIT (0 if none) */
	bool		exited;
	uint32_t	first_comm;	/* index into comms of its first COMM, or UINT32_MAX */
	uint32_t	last_comm;
	uint32_t	ncomms;
	uint64_t	samples;
	uint32_t	prev;		/* earlier lifetime of the same tid, THREAD_NONE */
};

struct map_ev {
	uint64_t	time;
	uint64_t	loc;		/* the MMAP/MMAP2 record */
	uint64_t	start, len, pgoff;
	int32_t		pid, tid;	/* pid -1: kernel maps */
	uint32_t	filename;	/* strtab id */
	uint32_t	maj, min;
	uint64_t	ino, ino_generation;
	uint32_t	prot, flags;
	uint16_t	misc;
	uint8_t		build_id_len;	/* MMAP2 with MISC_MMAP_BUILD_ID */
	uint8_t		build_id[20];
	bool		mmap2;
};

struct thread_table {
	struct pn_thread	*v;
	size_t			 n, cap;
	struct comm_ev		*comms;
	size_t			 ncomms, capcomms;
	struct map_ev		*maps;		/* in time order */
	size_t			 nmaps, capmaps;
	struct strtab		 strs;
	struct hmap		 tids;		/* tid -> current thread id */
	/* The thread of the last sample, while no other record came (the
	 * feeder clears it for a record it wants but cannot read). */
	bool			 cached;
	int32_t			 last_tid;
	uint32_t		 last_th;
};

/* Whether thread_table_add() wants records of this type (COMM, FORK, EXIT, MMAP, MMAP2). */
static inline bool
thread_table_wants(unsigned type)
{
	return type == PF_REC_COMM || type == PF_REC_FORK || type == PF_REC_EXIT ||
	    type == PF_REC_MMAP || type == PF_REC_MMAP2;
}
/* Add a record thread_table_wants(), at its time; records come in time
 * order.  Records too short to decode are skipped.  Never fails (out of
 * memory is fatal, as everywhere in perfnav). */
void thread_table_add(struct thread_table *t, const struct rec *r, uint64_t time);
/* Count a sample of pid/tid at time for its thread, creating the thread
 * if it is new; pid and tid both negative: nothing. */
void thread_table_add_sample(struct thread_table *t, int32_t pid, int32_t tid, uint64_t time);
/* Current (latest at or before time) thread entry for tid, THREAD_NONE. */
uint32_t thread_table_find(const struct thread_table *t, int32_t tid, uint64_t time);
/* The comm of a thread at a time (NULL if it never had one). */
const char *thread_comm_at(const struct thread_table *t, uint32_t thread, uint64_t time);
void thread_table_free(struct thread_table *t);

#endif
