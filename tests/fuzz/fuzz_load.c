/*
 * fuzz_load.c: loading and indexing a recording from memory, in file,
 * pipe and directory mode (session_open_mem), then reading back what the
 * session holds: every record in file order, every index entry, the
 * threads and the diagnostics.  An odd-sized input is loaded without an
 * index (stats' walk), an even-sized one with it.
 */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "tests/fuzz/fuzz.h"

static int
progress(void *arg, uint64_t done, uint64_t total)
{
	if (done > total)
		abort();	/* the walk reports past its own total */
	(*(uint64_t *)arg)++;
	return 0;
}

static int
walk_rec(void *arg, const struct rec *r, int depth)
{
	const struct session *s = arg;
	uint64_t off;

	/* A record walked lies in one file or in the decompressed bytes. */
	if (session_bytes(s, r->loc, r->size) != r->p)
		abort();
	if (depth > 0 && session_zorigin(s, r->loc) == NULL)
		abort();
	fuzz_use(session_file_of(s, r->loc, &off) + off + session_rec_trailing(r));
	fuzz_use(record_attr(session_attrs(s), r) + (record_type_name(r->type) != NULL));
	return 0;
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	uint64_t reports = 0;
	struct session_opts o = { .no_index = size % 2 == 1, .keep_going = true,
	    .progress = progress, .progress_arg = &reports, .keep_who = size % 4 >= 2 };
	struct session *s = fuzz_open(data, size, &o);

	if (s == NULL)
		return 0;
	session_walk(s, walk_rec, s);
	for (size_t i = 0; i < session_index(s)->n; i++) {
		const struct rec_ent *e = index_ent(session_index(s), i);
		struct sample smp;
		struct rec r;
		uint32_t th;

		/* Every index entry is a record the session can give back. */
		if (session_rec(s, ent_loc(e), &r) < 0 ||
		    (r.type < ENT_TYPE_BIG ? r.type : ENT_TYPE_BIG) != ent_type(e))
			abort();
		if (r.type == PF_REC_SAMPLE &&
		    record_sample_head(session_attrs(s), &r, record_attr(session_attrs(s), &r), &smp) == 0)
			fuzz_use(smp.ip + smp.period);
		th = thread_table_find(session_threads(s), session_ent_who(s, i).tid, e->time);
		if (th != THREAD_NONE) {
			const char *comm = thread_comm_at(session_threads(s), th, e->time);

			fuzz_use(comm != NULL ? strlen(comm) : 0);
		}
	}
	for (size_t i = 0; i < session_attrs(s)->n; i++)
		fuzz_use(strlen(session_attr_name(s, (int)i)));
	for (size_t i = 0; i < session_diags(s)->n; i++)
		fuzz_use(strlen(session_diags(s)->v[i].msg));
	session_close(s);
	return 0;
}
