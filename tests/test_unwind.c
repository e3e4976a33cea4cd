/*
 * Criterion tests of symbolize/unwind.c on the project's --call-graph dwarf
 * fixture (tests/data/dwarf.data): every sample's unwound user chain must
 * equal the one real perf unwound (tests/data/expected/dwarf.data.unwind.txt,
 * from perf script -F tid,time,ip,dso).
 */
#include "config.h"

#include <criterion/criterion.h>
#include <gelf.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/core.h"
#include "symbolize/unwind.h"
#include "tests/helpers.h"

/* What the test knows of the sampled process: its maps at sample time. */
struct maps_ctx {
	const struct session	*s;
	int32_t			 pid;
	uint64_t		 time;
	char			 path[4096];
};

/*
 * Build ids of the system libraries the fixture's chains run through, as
 * they were when it was recorded (perf records build ids only of DSOs
 * with samples): tests/data/expected/dwarf.data.local-buildids.
 */
static bool
recorded_local_build_id(const char *filename, char *hex)
{
	char path[4096], *text, *line, *save = NULL;
	bool found = false;

	snprintf(path, sizeof path, "%s/expected/dwarf.data.local-buildids", TEST_DATA);
	text = slurp(path, NULL);
	for (line = text ? strtok_r(text, "\n", &save) : NULL; line; line = strtok_r(NULL, "\n", &save)) {
		char id[64], fn[4000];

		if (sscanf(line, "%63s %3999s", id, fn) == 2 && strcmp(fn, filename) == 0 &&
		    strlen(id) <= 40) {
			strcpy(hex, id);
			found = true;
		}
	}
	free(text);
	return found;
}

static bool
build_id_of(const struct session *s, const char *filename, char *hex)
{
	const struct features *ft = session_features(s);

	if (recorded_local_build_id(filename, hex))
		return true;
	for (size_t i = 0; i < ft->n_build_ids; i++) {
		const struct feat_build_id *b = &ft->build_ids[i];

		if (b->filename && strcmp(b->filename, filename) == 0) {
			for (unsigned k = 0; k < b->id_len; k++)
				sprintf(hex + 2 * k, "%02x", b->id[k]);
			return true;
		}
	}
	return false;
}

static int
find_map(void *arg, uint64_t addr, struct unwind_map *out)
{
	struct maps_ctx *c = arg;
	const struct thread_table *t = session_threads(c->s);
	const struct map_ev *best = NULL;

	for (size_t i = 0; i < t->nmaps; i++) {
		const struct map_ev *m = &t->maps[i];

		if (m->time > c->time)
			break;
		if (m->pid == c->pid && addr >= m->start && addr < m->start + m->len)
			best = m;
	}
	if (best == NULL)
		return -1;
	out->start = best->start;
	out->end = best->start + best->len;
	out->pgoff = best->pgoff;
	out->key = (uint32_t)best->filename;
	{
		const char *fn = strtab_get(&t->strs, best->filename);
		char hex[41] = "";

		out->path = NULL;
		if (build_id_of(c->s, fn, hex)) {
			snprintf(c->path, sizeof c->path, "%s/buildid%s/%s/elf", TEST_DATA, fn, hex);
			if (file_exists(c->path))
				out->path = c->path;
		}
		if (out->path == NULL && file_exists(fn)) {
			snprintf(c->path, sizeof c->path, "%s", fn);
			out->path = c->path;
		}
	}
	return 0;
}

static uint64_t
rel_of(struct maps_ctx *c, uint64_t ip, char *dso, size_t n)
{
	const struct thread_table *tt = session_threads(c->s);
	struct unwind_map m;

	if (find_map(c, ip, &m) < 0) {
		snprintf(dso, n, "?");
		return ip;
	}
	for (size_t i = 0; i < tt->nmaps; i++)
		if (tt->maps[i].start == m.start && tt->maps[i].pid == c->pid)
			snprintf(dso, n, "%s",
			    strtab_get(&tt->strs, tt->maps[i].filename));
	return ip - m.start + m.pgoff;
}

/* perf's chain for one sample: user frames' rel addresses. */
struct chain {
	uint64_t	rel[64];
	char		dso[64][128];
	size_t		n;
};

static size_t
read_expected(struct chain *out, size_t max)
{
	char path[4096], *text, *line, *save = NULL;
	size_t n = 0;

	snprintf(path, sizeof path, "%s/expected/dwarf.data.unwind.txt", TEST_DATA);
	text = slurp(path, NULL);
	cr_assert_not_null(text, "%s missing", path);
	for (line = strtok_r(text, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		unsigned long long rel;
		char dso[128];

		if (line[0] != '\t' && line[0] != ' ') {
			if (n < max)
				out[n++].n = 0;
			continue;
		}
		if (n == 0 || sscanf(line, " %llx (%127[^)])", &rel, dso) != 2)
			continue;
		if (strcmp(dso, "[kernel.kallsyms]") == 0)
			continue;	/* the kernel part is not unwound */
		if (out[n - 1].n < 64) {
			out[n - 1].rel[out[n - 1].n] = rel;
			snprintf(out[n - 1].dso[out[n - 1].n], 128, "%s", dso);
			out[n - 1].n++;
		}
	}
	free(text);
	return n;
}

/* Is the local file the one the recording saw (same build id)? */
static bool
local_matches(const struct session *s, const char *fn)
{
	char hex[41] = "", got[41] = "";
	int fd;
	Elf *e;
	bool ok = false;

	if (!build_id_of(s, fn, hex) || (fd = open(fn, O_RDONLY)) < 0)
		return false;
	elf_version(EV_CURRENT);
	e = elf_begin(fd, ELF_C_READ, NULL);
	for (Elf_Scn *scn = NULL; e && (scn = elf_nextscn(e, scn)) != NULL;) {
		GElf_Shdr sh;
		Elf_Data *d;

		if (gelf_getshdr(scn, &sh) == NULL || sh.sh_type != SHT_NOTE)
			continue;
		d = elf_getdata(scn, NULL);
		for (size_t off = 0, name, desc; d != NULL;) {
			GElf_Nhdr nh;
			size_t next = gelf_getnote(d, off, &nh, &name, &desc);

			if (next == 0)
				break;
			if (nh.n_type == NT_GNU_BUILD_ID && nh.n_descsz <= 20) {
				for (unsigned k = 0; k < nh.n_descsz; k++)
					sprintf(got + 2 * k, "%02x", ((uint8_t *)d->d_buf)[desc + k]);
				ok = strcmp(got, hex) == 0;
			}
			off = next;
		}
	}
	if (e)
		elf_end(e);
	close(fd);
	return ok;
}

Test(unwind, chains_equal_perf)
{
	static struct chain want[512];
	size_t nwant = read_expected(want, 512), k = 0, compared = 0, full = 0;
	struct perf_err err;
	struct session *s = session_open(test_data("dwarf.data"), NULL, &err);
	const struct rec_index *ix = session_index(s);
	struct unwinder *u;
	bool libc_ok;

	cr_assert_not_null(s, "%s", err.msg);
	cr_assert_gt(nwant, 50);
	libc_ok = local_matches(s, "/usr/lib/x86_64-linux-gnu/libc.so.6");
	u = unwinder_new();
	for (size_t i = 0; i < ix->n; i++) {
		struct rec r;
		struct sample smp;
		const char *why;
		struct maps_ctx c;
		uint64_t ips[128];
		enum unwind_stop stop;
		size_t n;

		if (ent_type(index_ent(ix, i)) != PF_REC_SAMPLE)
			continue;
		cr_assert_eq(session_rec(s, ent_loc(index_ent(ix, i)), &r), 0);
		cr_assert_eq(record_decode_sample(session_attrs(s), &r, &smp, &why), 0, "%s", why);
		cr_assert_lt(k, nwant);
		c.s = s;
		c.pid = (int32_t)smp.pid;
		c.time = smp.time;
		n = unwinder_unwind(u, &smp, session_attrs(s)->v[smp.attr].attr.sample_regs_user, NULL, find_map, &c,
		    ips, 128, &stop);
		/* Frames in the fixture binary, and beyond when libc is the one recorded. */
		for (size_t f = 0; f < want[k].n; f++) {
			char dso[128];
			uint64_t rel;

			if (strcmp(want[k].dso[f], "/tmp/perfnav-fixtures/cpu") != 0 && !libc_ok)
				break;
			cr_assert_lt(f, n, "sample %zu: perf unwound %zu frames, we %zu (stopped: %s)",
			    k, want[k].n, n, unwind_stop_text(stop));
			rel = rel_of(&c, ips[f], dso, sizeof dso);
			cr_assert_eq(rel, want[k].rel[f], "sample %zu frame %zu: perf %#llx, ours %#llx",
			    k, f, (unsigned long long)want[k].rel[f], (unsigned long long)rel);
			compared++;
			if (f + 1 == want[k].n) {
				full++;
				cr_assert_eq(n, want[k].n, "sample %zu: perf %zu frames, we %zu", k,
				    want[k].n, n);
			}
		}
		k++;
	}
	cr_assert_eq(k, nwant, "%zu samples, perf printed %zu", k, nwant);
	cr_assert_geq(compared, 2 * nwant, "compared %zu frames of %zu samples (libc %d)", compared,
	    nwant, libc_ok);
	if (libc_ok)
		cr_assert_eq(full, nwant);
	unwinder_free(u);
	session_close(s);
}

Test(unwind, no_regs_no_stack)
{
	struct unwinder *u = unwinder_new();
	struct sample smp;
	uint64_t ips[4];
	enum unwind_stop stop;

	memset(&smp, 0, sizeof smp);
	cr_assert_eq(unwinder_unwind(u, &smp, 0, NULL, find_map, NULL, ips, 4, &stop), 0);
	cr_assert_eq(stop, UNWIND_STOP_NO_REGS);
	/* registers but no stack copy: only the leaf */
	{
		uint64_t regs[3] = { 0x1111, 0x7fff0000, 0x401000 };	/* BP, SP, IP */

		smp.uregs = (const uint8_t *)regs;
		smp.uregs_abi = 2;
		cr_assert_eq(unwinder_unwind(u, &smp, (1u << 6) | (1u << 7) | (1u << 8), NULL, find_map,
		    NULL, ips, 4, &stop), 1);
		cr_assert_eq(ips[0], 0x401000);
		cr_assert_eq(stop, UNWIND_STOP_NO_STACK);
	}
	unwinder_free(u);
}

/*
 * A second process whose maps put another program (the threads fixture)
 * where the first has the cpu fixture: the same addresses, other unwind
 * rules.  Its file gets another cache key.
 */
static int
find_map_other(void *arg, uint64_t addr, struct unwind_map *out)
{
	struct maps_ctx *c = arg;

	if (find_map(arg, addr, out) < 0)
		return -1;
	if (out->path != NULL && strstr(out->path, "/perfnav-fixtures/cpu/") != NULL) {
		snprintf(c->path, sizeof c->path, "%s/buildid/tmp/perfnav-fixtures/threads/"
		    "ada905698714a0173091ff61e8cfc62c87d64619/elf", TEST_DATA);
		out->path = c->path;
		out->key += 1000000;
	}
	return 0;
}

struct two_procs {
	struct session	*s;
	struct sample	 smp[512];
	size_t		 n;
	/* Each sample's chain in each process, unwound without a cache. */
	uint64_t	 want[2][512][32];
	size_t		 nwant[2][512];
};

static void
unwind_in(struct unwinder *u, struct two_procs *t, size_t i, int proc,
    const struct unwind_space *space, uint64_t *ips, size_t *n)
{
	struct maps_ctx c = { .s = t->s, .pid = (int32_t)t->smp[i].pid, .time = t->smp[i].time };
	enum unwind_stop stop;

	*n = unwinder_unwind(u, &t->smp[i], session_attrs(t->s)->v[t->smp[i].attr].attr.sample_regs_user,
	    space, proc ? find_map_other : find_map, &c, ips, 32, &stop);
}

static struct two_procs *
two_procs_load(void)
{
	struct two_procs *t = calloc(1, sizeof *t);
	struct perf_err err;
	const struct rec_index *ix;
	struct unwinder *u = unwinder_new();

	t->s = session_open(test_data("dwarf.data"), NULL, &err);
	cr_assert_not_null(t->s, "%s", err.msg);
	ix = session_index(t->s);
	for (size_t i = 0; i < ix->n && t->n < 512; i++) {
		struct rec r;
		const char *why;

		if (ent_type(index_ent(ix, i)) != PF_REC_SAMPLE)
			continue;
		cr_assert_eq(session_rec(t->s, ent_loc(index_ent(ix, i)), &r), 0);
		cr_assert_eq(record_decode_sample(session_attrs(t->s), &r, &t->smp[t->n], &why), 0, "%s", why);
		t->n++;
	}
	/* NULL space: nothing cached from one unwind to the next. */
	for (size_t i = 0; i < t->n; i++)
		for (int p = 0; p < 2; p++)
			unwind_in(u, t, i, p, NULL, t->want[p][i], &t->nwant[p][i]);
	unwinder_free(u);
	return t;
}

static void
assert_chain(struct two_procs *t, size_t i, int p, const uint64_t *ips, size_t n)
{
	cr_assert_eq(n, t->nwant[p][i], "sample %zu, process %d: %zu frames, uncached %zu", i, p, n,
	    t->nwant[p][i]);
	for (size_t f = 0; f < n; f++)
		cr_assert_eq(ips[f], t->want[p][i][f], "sample %zu, process %d, frame %zu", i, p, f);
}

/* The two processes' chains differ (else the tests below prove nothing). */
static void
assert_processes_differ(struct two_procs *t)
{
	size_t differ = 0;

	for (size_t i = 0; i < t->n; i++)
		differ += t->nwant[0][i] != t->nwant[1][i] ||
		    memcmp(t->want[0][i], t->want[1][i], t->nwant[0][i] * sizeof(uint64_t)) != 0;
	cr_assert_gt(differ, t->n / 2, "%zu of %zu samples unwind differently", differ, t->n);
}

static void
two_procs_free(struct two_procs *t)
{
	session_close(t->s);
	free(t);
}

Test(unwind, cache_keeps_processes_apart)
{
	struct two_procs *t = two_procs_load();
	struct unwinder *u = unwinder_new();
	/* the same process before and after a map change, and another one */
	const struct unwind_space sp[3] = { { 1, 4 }, { 1, 5 }, { 2, 4 } };

	assert_processes_differ(t);
	for (int round = 0; round < 2; round++)
		for (size_t i = 0; i < t->n; i++)
			for (int k = 0; k < 3; k++) {
				uint64_t ips[32];
				size_t n;
				int p = k == 1;

				unwind_in(u, t, i, p, &sp[k], ips, &n);
				assert_chain(t, i, p, ips, n);
			}
	/* More spaces than the unwinder keeps at once, in turn. */
	for (size_t i = 0; i < t->n; i++)
		for (uint64_t k = 0; k < 20; k++) {
			struct unwind_space s = { 100 + k, 0 };
			uint64_t ips[32];
			size_t n;

			unwind_in(u, t, i, (int)(k & 1), &s, ips, &n);
			assert_chain(t, i, (int)(k & 1), ips, n);
		}
	unwinder_free(u);
	two_procs_free(t);
}

/* Two unwinders on one thread: the same space value names another process in each. */
Test(unwind, cache_keeps_unwinders_apart)
{
	struct two_procs *t = two_procs_load();
	struct unwinder *u[2] = { unwinder_new(), unwinder_new() };
	const struct unwind_space sp = { 1, 1 };

	for (int round = 0; round < 2; round++)
		for (size_t i = 0; i < t->n; i++)
			for (int p = 0; p < 2; p++) {
				uint64_t ips[32];
				size_t n;

				unwind_in(u[p], t, i, p, &sp, ips, &n);
				assert_chain(t, i, p, ips, n);
			}
	unwinder_free(u[0]);
	unwinder_free(u[1]);
	two_procs_free(t);
}

/*
 * A return address of 0 ends the chain, as in perf's: its frame is ~0 and
 * nothing is stepped to from it (the user trial saw libunwind go on into a
 * data symbol, _IO_stdin_used).  A dwarf.data sample with three frames or
 * more has its second frame's return address zeroed in a copy of its stack.
 */
Test(unwind, zero_return_address_ends_the_chain)
{
	struct perf_err err;
	struct session *s = session_open(test_data("dwarf.data"), NULL, &err);
	const struct rec_index *ix = session_index(s);
	struct unwinder *u = unwinder_new();
	bool tried = false;

	cr_assert_not_null(s, "%s", err.msg);
	for (size_t i = 0; i < ix->n && !tried; i++) {
		struct rec r;
		struct sample smp;
		const char *why;
		struct maps_ctx c;
		uint64_t ips[128], ips2[128], ra;
		enum unwind_stop stop;
		uint8_t *stack;
		size_t n, n2, at;

		if (ent_type(index_ent(ix, i)) != PF_REC_SAMPLE ||
		    session_rec(s, ent_loc(index_ent(ix, i)), &r) < 0 ||
		    record_decode_sample(session_attrs(s), &r, &smp, &why) < 0 || smp.stack == NULL)
			continue;
		c.s = s;
		c.pid = (int32_t)smp.pid;
		c.time = smp.time;
		n = unwinder_unwind(u, &smp, session_attrs(s)->v[smp.attr].attr.sample_regs_user,
		    NULL, find_map, &c, ips, 128, &stop);
		if (n < 4)
			continue;
		/* the slot holding frame 1's return address (frame 2's ip + 1) */
		ra = ips[2] + 1;
		for (at = 0; at + 8 <= smp.stack_size; at += 8)
			if (memcmp(smp.stack + at, &ra, 8) == 0)
				break;
		if (at + 8 > smp.stack_size)
			continue;
		tried = true;
		stack = malloc(smp.stack_size);
		memcpy(stack, smp.stack, smp.stack_size);
		memset(stack + at, 0, 8);
		smp.stack = stack;
		n2 = unwinder_unwind(u, &smp, session_attrs(s)->v[smp.attr].attr.sample_regs_user,
		    NULL, find_map, &c, ips2, 128, &stop);
		cr_assert_eq(n2, 3, "the chain ends at the zero return address: %zu frames", n2);
		cr_assert_eq(ips2[0], ips[0]);
		cr_assert_eq(ips2[1], ips[1]);
		cr_assert_eq(ips2[2], UINT64_MAX, "its frame is ~0, as perf shows it");
		cr_assert_eq(stop, UNWIND_STOP_END);
		free(stack);
	}
	cr_assert(tried, "a sample with a return address to zero was found");
	unwinder_free(u);
	session_close(s);
}
