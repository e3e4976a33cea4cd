/* Criterion tests of core/feature.c and core/names.c on hand-made sections. */
#include "config.h"

#include <criterion/criterion.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <linux/bpf.h>

#include "core/core.h"
#include "tests/helpers.h"

/* Decode b as section bit into a fresh *f. */
static enum feat_status
decode(struct features *f, unsigned bit, const struct pdbuf *b, size_t len, struct attr_table *t,
    struct diag_list *dl)
{
	memset(f, 0, sizeof *f);
	feature_decode(f, bit, b->p, len, b->swap, 0x1000, t, dl);
	return f->sec[bit].status;
}

/* Every prefix shorter than the whole must decode to a non-OK status
 * (unless ok_prefix says that length is a valid shorter encoding), never
 * crash, and record a reason. */
static void
truncations(unsigned bit, const struct pdbuf *b, bool (*ok_prefix)(size_t))
{
	for (size_t len = 0; len < b->len; len++) {
		struct features f;
		struct diag_list dl = { 0 };
		uint8_t *copy = malloc(len ? len : 1);
		enum feat_status st;

		/* A heap copy of exactly len bytes, so ASan sees any overread. */
		memcpy(copy, b->p, len);
		memset(&f, 0, sizeof f);
		feature_decode(&f, bit, copy, len, b->swap, 0x1000, NULL, &dl);
		st = f.sec[bit].status;
		if (ok_prefix == NULL || !ok_prefix(len)) {
			cr_expect_neq(st, FEAT_OK, "bit %u truncated to %zu of %zu decoded ok", bit, len,
			    b->len);
			cr_expect_not_null(f.sec[bit].why, "bit %u len %zu: no reason", bit, len);
			cr_expect_geq(dl.n, 1, "bit %u len %zu: no diagnostic", bit, len);
		}
		features_free(&f);
		diag_free(&dl);
		free(copy);
	}
}

/* ---- strings and scalars ---- */

static void
strings_in(bool swap)
{
	struct pdbuf b = { .swap = swap };
	struct features f;

	pd_feat_str(&b, "myhost");
	cr_assert_eq(decode(&f, PF_FEAT_HOSTNAME, &b, b.len, NULL, NULL), FEAT_OK);
	cr_assert_str_eq(f.hostname, "myhost");
	cr_assert_eq(f.sec[PF_FEAT_HOSTNAME].offset, 0x1000);
	cr_assert_eq(f.sec[PF_FEAT_HOSTNAME].size, b.len);
	features_free(&f);
	truncations(PF_FEAT_HOSTNAME, &b, NULL);
	/* Trailing garbage: decoded, but the size does not match. */
	pd_u64(&b, 0x1234);
	cr_assert_eq(decode(&f, PF_FEAT_HOSTNAME, &b, b.len, NULL, NULL), FEAT_SIZE_MISMATCH);
	cr_assert_str_eq(f.hostname, "myhost");
	features_free(&f);
	pd_free(&b);
}

Test(feature, string_native)
{
	strings_in(false);
}
Test(feature, string_swapped)
{
	strings_in(true);
}

Test(feature, string_absurd_length)
{
	struct pdbuf b = { 0 };
	struct features f;

	pd_u32(&b, 0xffffffffu);
	pd_bytes(&b, "abcd", 4);
	cr_assert_eq(decode(&f, PF_FEAT_OSRELEASE, &b, b.len, NULL, NULL), FEAT_UNDECODABLE);
	cr_assert_null(f.osrelease);
	features_free(&f);
	pd_free(&b);
}

Test(feature, string_without_nul)
{
	struct pdbuf b = { 0 };
	struct features f;

	pd_u32(&b, 4);
	pd_bytes(&b, "abcd", 4);
	cr_assert_eq(decode(&f, PF_FEAT_ARCH, &b, b.len, NULL, NULL), FEAT_OK);
	cr_assert_str_eq(f.arch, "abcd");
	features_free(&f);
	pd_free(&b);
}

static void
scalars_in(bool swap)
{
	struct pdbuf b = { .swap = swap };
	struct features f;

	pd_u32(&b, 8);	/* avail */
	pd_u32(&b, 6);	/* online */
	cr_assert_eq(decode(&f, PF_FEAT_NRCPUS, &b, b.len, NULL, NULL), FEAT_OK);
	cr_assert_eq(f.nr_cpus_avail, 8);
	cr_assert_eq(f.nr_cpus_online, 6);
	features_free(&f);
	truncations(PF_FEAT_NRCPUS, &b, NULL);
	pd_free(&b);

	pd_u64(&b, 24684096);
	cr_assert_eq(decode(&f, PF_FEAT_TOTAL_MEM, &b, b.len, NULL, NULL), FEAT_OK);
	cr_assert_eq(f.total_mem, 24684096);
	features_free(&f);
	truncations(PF_FEAT_TOTAL_MEM, &b, NULL);
	pd_free(&b);

	pd_u64(&b, 1000);
	pd_u64(&b, 3000000);
	cr_assert_eq(decode(&f, PF_FEAT_SAMPLE_TIME, &b, b.len, NULL, NULL), FEAT_OK);
	cr_assert_eq(f.sample_time_first, 1000);
	cr_assert_eq(f.sample_time_last, 3000000);
	features_free(&f);
	truncations(PF_FEAT_SAMPLE_TIME, &b, NULL);
	pd_free(&b);

	pd_u64(&b, 1);
	cr_assert_eq(decode(&f, PF_FEAT_CLOCKID, &b, b.len, NULL, NULL), FEAT_OK);
	cr_assert_eq(f.clockid_res_ns, 1);
	features_free(&f);
	cr_assert_eq(decode(&f, PF_FEAT_DIR_FORMAT, &b, b.len, NULL, NULL), FEAT_OK);
	cr_assert_eq(f.dir_format_version, 1);
	features_free(&f);
	pd_free(&b);

	pd_u32(&b, 0);	/* version */
	pd_u32(&b, 1);	/* zstd */
	pd_u32(&b, 3);
	pd_u32(&b, 10);
	pd_u32(&b, 528384);
	cr_assert_eq(decode(&f, PF_FEAT_COMPRESSED, &b, b.len, NULL, NULL), FEAT_OK);
	cr_assert_eq(f.comp.comp_type, 1);
	cr_assert_eq(f.comp.comp_level, 3);
	cr_assert_eq(f.comp.comp_ratio, 10);
	cr_assert_eq(f.comp.comp_mmap_len, 528384);
	features_free(&f);
	truncations(PF_FEAT_COMPRESSED, &b, NULL);
	pd_free(&b);

	pd_u32(&b, 1);
	pd_u32(&b, 1);
	pd_u64(&b, 1795303915022456000ull);
	pd_u64(&b, 2982513631526ull);
	cr_assert_eq(decode(&f, PF_FEAT_CLOCK_DATA, &b, b.len, NULL, NULL), FEAT_OK);
	cr_assert_eq(f.clock.clock_data_clockid, 1);
	cr_assert_eq(f.clock.clock_data_tod_ns, 1795303915022456000ull);
	cr_assert_eq(f.clock.clock_data_clockid_ns, 2982513631526ull);
	features_free(&f);
	truncations(PF_FEAT_CLOCK_DATA, &b, NULL);
	pd_put32(&b, 0, 7);
	cr_assert_eq(decode(&f, PF_FEAT_CLOCK_DATA, &b, b.len, NULL, NULL), FEAT_UNDECODABLE);
	features_free(&f);
	pd_free(&b);
}

Test(feature, scalars_native)
{
	scalars_in(false);
}
Test(feature, scalars_swapped)
{
	scalars_in(true);
}

Test(feature, cmdline)
{
	struct pdbuf b = { .swap = true };
	struct features f;

	pd_u32(&b, 3);
	pd_feat_str(&b, "/usr/bin/perf");
	pd_feat_str(&b, "record");
	pd_feat_str(&b, "it's");
	cr_assert_eq(decode(&f, PF_FEAT_CMDLINE, &b, b.len, NULL, NULL), FEAT_OK);
	cr_assert_eq(f.cmdline_n, 3);
	cr_assert_str_eq(f.cmdline[0], "/usr/bin/perf");
	cr_assert_str_eq(f.cmdline[2], "it's");
	features_free(&f);
	truncations(PF_FEAT_CMDLINE, &b, NULL);
	/* An absurd count fails before allocating anything for it. */
	pd_put32(&b, 0, 0x7fffffff);
	cr_assert_eq(decode(&f, PF_FEAT_CMDLINE, &b, b.len, NULL, NULL), FEAT_UNDECODABLE);
	cr_assert_eq(f.cmdline_n, 0);
	features_free(&f);
	pd_free(&b);
}

/* ---- EVENT_DESC ---- */

#define BIT_EXCL_USER	(1ull << 4)
#define BIT_EXCL_KERNEL	(1ull << 5)
#define BIT_EXCL_HV	(1ull << 6)
#define BIT_PRECISE3	(3ull << 15)
#define BIT_EXCL_GUEST	(1ull << 20)

static void
event_desc_buf(struct pdbuf *b)
{
	pd_u32(b, 2);		/* events */
	pd_u32(b, 120);		/* attr size */
	pd_attr(b, 120, 0, 0, 4000, PERF_SAMPLE_IP | PERF_SAMPLE_TID, 0,
	    BIT_EXCL_KERNEL | BIT_EXCL_HV | BIT_EXCL_GUEST);
	pd_u32(b, 2);		/* ids */
	pd_feat_str(b, "cycles:u");
	pd_u64(b, 76);
	pd_u64(b, 77);
	pd_attr(b, 120, 1, 1, 1000, PERF_SAMPLE_IP, 0, BIT_PRECISE3);
	pd_u32(b, 1);
	pd_feat_str(b, "task-clock");
	pd_u64(b, 78);
}

static void
event_desc_in(bool swap)
{
	struct pdbuf b = { .swap = swap };
	struct features f;
	struct attr_table t = { 0 };
	struct perf_event_attr a;
	uint32_t i0, i1;

	event_desc_buf(&b);
	/* Attrs loaded before: names go to them by position. */
	memset(&a, 0, sizeof a);
	a.size = 120;
	i0 = attr_table_add(&t, &a, 120, 0);
	attr_table_add_id(&t, i0, 76);
	a.type = 1;
	a.config = 1;
	i1 = attr_table_add(&t, &a, 120, 0);
	attr_table_add_id(&t, i1, 78);
	cr_assert_eq(decode(&f, PF_FEAT_EVENT_DESC, &b, b.len, &t, NULL), FEAT_OK);
	cr_assert(f.events_ok);
	cr_assert_eq(f.nevents, 2);
	cr_assert_str_eq(f.events[0].name, "cycles:u");
	cr_assert_eq(f.events[0].nids, 2);
	cr_assert_eq(f.events[0].ids[1], 77);
	cr_assert_eq(f.events[0].attr.sample_period, 4000);
	cr_assert_eq(f.events[0].attr.exclude_kernel, 1);
	cr_assert_eq(f.events[0].attr.exclude_user, 0);
	cr_assert_eq(f.events[0].attr.exclude_guest, 1);
	cr_assert_eq(f.events[1].attr.precise_ip, 3);
	cr_assert_eq(f.events[1].attr.config, 1);
	cr_assert_eq(f.events[1].attr_size, 120);
	cr_assert_str_eq(t.v[0].name, "cycles:u");
	cr_assert(t.v[0].name_given);
	cr_assert_str_eq(t.v[1].name, "task-clock");
	features_free(&f);
	attr_table_free(&t);

	/* No attrs yet (pipe mode): nothing named; applying later adds them. */
	memset(&t, 0, sizeof t);
	cr_assert_eq(decode(&f, PF_FEAT_EVENT_DESC, &b, b.len, &t, NULL), FEAT_OK);
	cr_assert_eq(t.n, 0);
	features_apply_event_desc(&f, &t, true);
	cr_assert_eq(t.n, 2);
	cr_assert_str_eq(t.v[1].name, "task-clock");
	cr_assert_eq(attr_table_find_id(&t, 77), 0);
	cr_assert_eq(attr_table_find_id(&t, 78), 1);
	features_free(&f);
	attr_table_free(&t);

	truncations(PF_FEAT_EVENT_DESC, &b, NULL);
	pd_free(&b);
}

Test(feature, event_desc_native)
{
	event_desc_in(false);
}
Test(feature, event_desc_swapped)
{
	event_desc_in(true);
}

Test(feature, event_desc_absurd)
{
	struct pdbuf b = { 0 };
	struct features f;

	event_desc_buf(&b);
	pd_put32(&b, 0, 0xffffffffu);
	cr_assert_eq(decode(&f, PF_FEAT_EVENT_DESC, &b, b.len, NULL, NULL), FEAT_UNDECODABLE);
	cr_assert_eq(f.nevents, 0);
	features_free(&f);
	/* attr size bigger than the section */
	pd_put32(&b, 0, 2);
	pd_put32(&b, 4, 0x7fffffff);
	cr_assert_eq(decode(&f, PF_FEAT_EVENT_DESC, &b, b.len, NULL, NULL), FEAT_UNDECODABLE);
	features_free(&f);
	/* attr size too small to be an attr */
	pd_put32(&b, 4, 8);
	cr_assert_eq(decode(&f, PF_FEAT_EVENT_DESC, &b, b.len, NULL, NULL), FEAT_UNDECODABLE);
	features_free(&f);
	/* an absurd id count */
	pd_put32(&b, 4, 120);
	pd_put32(&b, 8 + 120, 0x10000000);
	cr_assert_eq(decode(&f, PF_FEAT_EVENT_DESC, &b, b.len, NULL, NULL), FEAT_UNDECODABLE);
	cr_assert_not(f.events_ok);
	features_free(&f);
	pd_free(&b);
}

/* ---- CPU_TOPOLOGY ---- */

static void
topology_buf(struct pdbuf *b, int version)
{
	pd_u32(b, 1);
	pd_feat_str(b, "0-1");
	pd_u32(b, 2);
	pd_feat_str(b, "0");
	pd_feat_str(b, "1");
	if (version < 1)
		return;
	pd_u32(b, 5);	/* cpu 0 core */
	pd_u32(b, 0);	/* cpu 0 socket */
	pd_u32(b, 6);
	pd_u32(b, 0);
	if (version < 2)
		return;
	pd_u32(b, 1);
	pd_feat_str(b, "0-1");
	pd_u32(b, 0);
	pd_u32(b, 0);
}

static size_t topo_old_len, topo_ids_len;

static bool
topo_prefix_ok(size_t len)
{
	return len == topo_old_len || len == topo_ids_len;
}

static void
topology_in(bool swap)
{
	struct pdbuf b = { .swap = swap }, n = { .swap = swap };
	struct features f;

	for (int v = 0; v <= 2; v++) {
		b.len = 0;
		topology_buf(&b, v);
		memset(&f, 0, sizeof f);
		f.nr_cpus_avail = 2;
		feature_decode(&f, PF_FEAT_CPU_TOPOLOGY, b.p, b.len, swap, 0, NULL, NULL);
		cr_assert_eq(f.sec[PF_FEAT_CPU_TOPOLOGY].status, FEAT_OK, "version %d", v);
		cr_assert_eq(f.topo.nr_sibling_cores, 1);
		cr_assert_str_eq(f.topo.sibling_cores[0], "0-1");
		cr_assert_eq(f.topo.nr_sibling_threads, 2);
		cr_assert_str_eq(f.topo.sibling_threads[1], "1");
		if (v == 0) {
			cr_assert_null(f.topo.cpu_ids);
			topo_old_len = b.len;
		} else {
			cr_assert_eq(f.topo.ncpu_ids, 2);
			cr_assert_eq(f.topo.cpu_ids[1].core_id, 6);
		}
		if (v == 1)
			topo_ids_len = b.len;
		if (v == 2) {
			cr_assert_eq(f.topo.nr_sibling_dies, 1);
			cr_assert_str_eq(f.topo.sibling_dies[0], "0-1");
		}
		features_free(&f);
	}
	/* Truncations of the newest layout, with the cpu count known. */
	for (size_t len = 0; len < b.len; len++) {
		memset(&f, 0, sizeof f);
		f.nr_cpus_avail = 2;
		feature_decode(&f, PF_FEAT_CPU_TOPOLOGY, b.p, len, swap, 0, NULL, NULL);
		if (!topo_prefix_ok(len))
			cr_expect_neq(f.sec[PF_FEAT_CPU_TOPOLOGY].status, FEAT_OK, "len %zu", len);
		features_free(&f);
	}
	/* A socket id beyond the cpu count: perf drops the ids. */
	topology_buf(&n, 1);
	pd_put32(&n, topo_old_len + 4, 99);
	memset(&f, 0, sizeof f);
	f.nr_cpus_avail = 2;
	feature_decode(&f, PF_FEAT_CPU_TOPOLOGY, n.p, n.len, swap, 0, NULL, NULL);
	cr_assert_eq(f.sec[PF_FEAT_CPU_TOPOLOGY].status, FEAT_OK);
	cr_assert_null(f.topo.cpu_ids);
	features_free(&f);
	/* ... except on aarch64. */
	memset(&f, 0, sizeof f);
	f.nr_cpus_avail = 2;
	f.arch = xstrdup("aarch64");
	feature_decode(&f, PF_FEAT_CPU_TOPOLOGY, n.p, n.len, swap, 0, NULL, NULL);
	cr_assert_not_null(f.topo.cpu_ids);
	cr_assert_eq(f.topo.cpu_ids[0].socket_id, 99);
	features_free(&f);
	/* Absurd sibling count. */
	pd_put32(&n, 0, 0xfffffff0u);
	memset(&f, 0, sizeof f);
	feature_decode(&f, PF_FEAT_CPU_TOPOLOGY, n.p, n.len, swap, 0, NULL, NULL);
	cr_assert_eq(f.sec[PF_FEAT_CPU_TOPOLOGY].status, FEAT_UNDECODABLE);
	features_free(&f);
	pd_free(&b);
	pd_free(&n);
}

Test(feature, topology_native)
{
	topology_in(false);
}
Test(feature, topology_swapped)
{
	topology_in(true);
}

/* ---- the other list sections ---- */

/* The first half of lists_in(): topologies, PMUs, groups and caches. */
static void
lists_topology_in(bool swap)
{
	struct pdbuf b = { .swap = swap };
	struct features f;

	/* NUMA_TOPOLOGY */
	pd_u32(&b, 2);
	for (uint32_t i = 0; i < 2; i++) {
		pd_u32(&b, i);
		pd_u64(&b, 1000 + i);
		pd_u64(&b, 500 + i);
		pd_feat_str(&b, i ? "8-15" : "0-7");
	}
	cr_assert_eq(decode(&f, PF_FEAT_NUMA_TOPOLOGY, &b, b.len, NULL, NULL), FEAT_OK);
	cr_assert_eq(f.topo.nnuma, 2);
	cr_assert_eq(f.topo.numa[1].node, 1);
	cr_assert_eq(f.topo.numa[1].mem_total, 1001);
	cr_assert_eq(f.topo.numa[1].mem_free, 501);
	cr_assert_str_eq(f.topo.numa[1].cpus, "8-15");
	features_free(&f);
	truncations(PF_FEAT_NUMA_TOPOLOGY, &b, NULL);
	pd_free(&b);

	/* PMU_MAPPINGS */
	pd_u32(&b, 2);
	pd_u32(&b, 1);
	pd_feat_str(&b, "software");
	pd_u32(&b, 4);
	pd_feat_str(&b, "cpu");
	cr_assert_eq(decode(&f, PF_FEAT_PMU_MAPPINGS, &b, b.len, NULL, NULL), FEAT_OK);
	cr_assert_eq(f.npmus, 2);
	cr_assert_eq(f.pmus[1].type, 4);
	cr_assert_str_eq(f.pmus[1].name, "cpu");
	features_free(&f);
	truncations(PF_FEAT_PMU_MAPPINGS, &b, NULL);
	pd_free(&b);

	/* GROUP_DESC */
	pd_u32(&b, 1);
	pd_feat_str(&b, "{anon_group}");
	pd_u32(&b, 0);
	pd_u32(&b, 2);
	cr_assert_eq(decode(&f, PF_FEAT_GROUP_DESC, &b, b.len, NULL, NULL), FEAT_OK);
	cr_assert_eq(f.ngroups, 1);
	cr_assert_str_eq(f.groups[0].name, "{anon_group}");
	cr_assert_eq(f.groups[0].nr_members, 2);
	features_free(&f);
	truncations(PF_FEAT_GROUP_DESC, &b, NULL);
	pd_free(&b);

	/* CACHE */
	pd_u32(&b, 1);
	pd_u32(&b, 1);
	pd_u32(&b, 1);
	pd_u32(&b, 64);
	pd_u32(&b, 64);
	pd_u32(&b, 8);
	pd_feat_str(&b, "Data");
	pd_feat_str(&b, "32K");
	pd_feat_str(&b, "0-1");
	cr_assert_eq(decode(&f, PF_FEAT_CACHE, &b, b.len, NULL, NULL), FEAT_OK);
	cr_assert_eq(f.ncaches, 1);
	cr_assert_eq(f.caches[0].line_size, 64);
	cr_assert_str_eq(f.caches[0].size, "32K");
	cr_assert_str_eq(f.caches[0].map, "0-1");
	features_free(&f);
	truncations(PF_FEAT_CACHE, &b, NULL);
	pd_put32(&b, 0, 2);	/* unknown version */
	cr_assert_eq(decode(&f, PF_FEAT_CACHE, &b, b.len, NULL, NULL), FEAT_UNDECODABLE);
	features_free(&f);
	pd_free(&b);

	/* MEM_TOPOLOGY */
	pd_u64(&b, 1);
	pd_u64(&b, 0x8000000);
	pd_u64(&b, 1);
	pd_u64(&b, 0);
	pd_u64(&b, 0);
	pd_u64(&b, 70);		/* bits */
	pd_u64(&b, 0xffull);
	pd_u64(&b, 0x3ull);
	cr_assert_eq(decode(&f, PF_FEAT_MEM_TOPOLOGY, &b, b.len, NULL, NULL), FEAT_OK);
	cr_assert_eq(f.topo.mem_block_size, 0x8000000);
	cr_assert_eq(f.topo.nmem_nodes, 1);
	cr_assert_eq(f.topo.mem_nodes[0].nbits, 70);
	cr_assert_eq(f.topo.mem_nodes[0].bits[1], 3);
	features_free(&f);
	truncations(PF_FEAT_MEM_TOPOLOGY, &b, NULL);
	pd_put64(&b, 40, UINT64_MAX);	/* absurd bitmap */
	cr_assert_eq(decode(&f, PF_FEAT_MEM_TOPOLOGY, &b, b.len, NULL, NULL), FEAT_UNDECODABLE);
	features_free(&f);
	pd_put64(&b, 40, 70);
	pd_put64(&b, 16, UINT64_MAX / 2);	/* absurd node count */
	cr_assert_eq(decode(&f, PF_FEAT_MEM_TOPOLOGY, &b, b.len, NULL, NULL), FEAT_UNDECODABLE);
	features_free(&f);
	pd_free(&b);
}

/* The second half of lists_in(): capabilities and AUX trace offsets. */
static void
lists_caps_in(bool swap)
{
	struct pdbuf b = { .swap = swap };
	struct features f;

	/* CPU_PMU_CAPS */
	pd_u32(&b, 2);
	pd_feat_str(&b, "branches");
	pd_feat_str(&b, "32");
	pd_feat_str(&b, "pmu_name");
	pd_feat_str(&b, "skylake");
	cr_assert_eq(decode(&f, PF_FEAT_CPU_PMU_CAPS, &b, b.len, NULL, NULL), FEAT_OK);
	cr_assert_eq(f.cpu_pmu_caps.nr_caps, 2);
	cr_assert_str_eq(f.cpu_pmu_caps.caps[1], "pmu_name=skylake");
	features_free(&f);
	truncations(PF_FEAT_CPU_PMU_CAPS, &b, NULL);
	pd_free(&b);

	/* PMU_CAPS: caps first, then the PMU's name */
	pd_u32(&b, 1);
	pd_u32(&b, 1);
	pd_feat_str(&b, "psb_cyc");
	pd_feat_str(&b, "1");
	pd_feat_str(&b, "intel_pt");
	cr_assert_eq(decode(&f, PF_FEAT_PMU_CAPS, &b, b.len, NULL, NULL), FEAT_OK);
	cr_assert_eq(f.npmu_caps, 1);
	cr_assert_str_eq(f.pmu_caps[0].pmu_name, "intel_pt");
	cr_assert_str_eq(f.pmu_caps[0].caps[0], "psb_cyc=1");
	features_free(&f);
	truncations(PF_FEAT_PMU_CAPS, &b, NULL);
	pd_free(&b);

	/* HYBRID_TOPOLOGY */
	pd_u32(&b, 1);
	pd_feat_str(&b, "cpu_core");
	pd_feat_str(&b, "0-7");
	cr_assert_eq(decode(&f, PF_FEAT_HYBRID_TOPOLOGY, &b, b.len, NULL, NULL), FEAT_OK);
	cr_assert_str_eq(f.topo.hybrid[0].pmu_name, "cpu_core");
	cr_assert_str_eq(f.topo.hybrid[0].cpus, "0-7");
	features_free(&f);
	truncations(PF_FEAT_HYBRID_TOPOLOGY, &b, NULL);
	pd_free(&b);

	/* AUXTRACE */
	pd_u64(&b, 2);
	pd_u64(&b, 0x1000);
	pd_u64(&b, 0x40);
	pd_u64(&b, 0x2000);
	pd_u64(&b, 0x80);
	cr_assert_eq(decode(&f, PF_FEAT_AUXTRACE, &b, b.len, NULL, NULL), FEAT_OK);
	cr_assert_eq(f.nauxtrace, 2);
	cr_assert_eq(f.auxtrace_off[1], 0x2000);
	cr_assert_eq(f.auxtrace_size[1], 0x80);
	features_free(&f);
	truncations(PF_FEAT_AUXTRACE, &b, NULL);
	pd_put64(&b, 0, UINT64_MAX);
	cr_assert_eq(decode(&f, PF_FEAT_AUXTRACE, &b, b.len, NULL, NULL), FEAT_UNDECODABLE);
	features_free(&f);
	pd_free(&b);
}

/* Sections that are lists, decoded in both byte orders and cut short anywhere. */
static void
lists_in(bool swap)
{
	lists_topology_in(swap);
	lists_caps_in(swap);
}

Test(feature, lists_native)
{
	lists_in(false);
}
Test(feature, lists_swapped)
{
	lists_in(true);
}

/* ---- BUILD_ID ---- */

static size_t bid_first_len;

static bool
bid_prefix_ok(size_t len)
{
	return len == 0 || len == bid_first_len;
}

static void
build_id_in(bool swap)
{
	struct pdbuf b = { .swap = swap };
	struct features f;
	size_t r;
	uint8_t id[24];

	for (int i = 0; i < 24; i++)
		id[i] = (uint8_t)(0xa0 + i);
	r = pd_rec_begin(&b, PF_REC_BUILD_ID, 2);
	pd_u32(&b, (uint32_t)-1);
	pd_bytes(&b, id, 24);
	pd_str8(&b, "/usr/bin/true");
	pd_rec_end(&b, r);
	bid_first_len = b.len;
	/* perf >= 5.13: misc says byte 20 holds the size. */
	id[20] = 16;
	r = pd_rec_begin(&b, PF_REC_BUILD_ID, 2 | PF_MISC_BUILD_ID_SIZE);
	pd_u32(&b, 1234);
	pd_bytes(&b, id, 24);
	pd_str8(&b, "/lib/libc.so.6");
	pd_rec_end(&b, r);
	cr_assert_eq(decode(&f, PF_FEAT_BUILD_ID, &b, b.len, NULL, NULL), FEAT_OK);
	cr_assert_eq(f.n_build_ids, 2);
	cr_assert_eq(f.build_ids[0].pid, -1);
	cr_assert_eq(f.build_ids[0].id_len, 20);
	cr_assert_eq(f.build_ids[0].id[19], 0xa0 + 19);
	cr_assert_str_eq(f.build_ids[0].filename, "/usr/bin/true");
	cr_assert_eq(f.build_ids[1].pid, 1234);
	cr_assert_eq(f.build_ids[1].id_len, 16);
	cr_assert_str_eq(f.build_ids[1].filename, "/lib/libc.so.6");
	features_free(&f);
	truncations(PF_FEAT_BUILD_ID, &b, bid_prefix_ok);
	/* A record size pointing past the section. */
	pd_put16(&b, 6, 0xfff0);
	cr_assert_eq(decode(&f, PF_FEAT_BUILD_ID, &b, b.len, NULL, NULL), FEAT_UNDECODABLE);
	features_free(&f);
	/* A record size smaller than a build-id record. */
	pd_put16(&b, 6, 8);
	cr_assert_eq(decode(&f, PF_FEAT_BUILD_ID, &b, b.len, NULL, NULL), FEAT_UNDECODABLE);
	features_free(&f);
	pd_free(&b);
}

Test(feature, build_id_native)
{
	build_id_in(false);
}
Test(feature, build_id_swapped)
{
	build_id_in(true);
}

/* ---- BPF ---- */

Test(feature, bpf_counts)
{
	struct pdbuf b = { 0 };
	struct features f;

	/* BPF_BTF: two blobs out of order, one duplicate id. */
	pd_u32(&b, 3);
	pd_u32(&b, 12);
	pd_u32(&b, 4);
	pd_bytes(&b, "abcd", 4);
	pd_u32(&b, 10);
	pd_u32(&b, 0);
	pd_u32(&b, 12);
	pd_u32(&b, 2);
	pd_bytes(&b, "zz", 2);
	cr_assert_eq(decode(&f, PF_FEAT_BPF_BTF, &b, b.len, NULL, NULL), FEAT_OK);
	cr_assert_eq(f.bpf.btf_count, 3);
	cr_assert_eq(f.bpf.nbtfs, 2);
	cr_assert_eq(f.bpf.btfs[0].id, 10);
	cr_assert_eq(f.bpf.btfs[1].id, 12);
	cr_assert_eq(f.bpf.btfs[1].size, 4);
	features_free(&f);
	truncations(PF_FEAT_BPF_BTF, &b, NULL);
	pd_put32(&b, 0, 0xffffffffu);
	cr_assert_eq(decode(&f, PF_FEAT_BPF_BTF, &b, b.len, NULL, NULL), FEAT_UNDECODABLE);
	features_free(&f);
	pd_free(&b);

	/* BPF_PROG_INFO: one program with one sub-program. */
	{
		struct bpf_prog_info info;
		uint8_t data[20];
		uint64_t addr = 0xffffffffc0248588ull;
		uint32_t flen = 72;
		uint8_t tag[8] = { 0x53, 0x0f, 0x69, 0x19, 0x0e, 0x63, 0xcf, 0xa0 };
		char name[128];

		memset(&info, 0, sizeof info);
		info.id = 5;
		memcpy(info.name, "fentry_x", 8);
		info.nr_jited_ksyms = info.nr_prog_tags = info.nr_jited_func_lens = 1;
		info.jited_ksyms = 0;
		info.jited_func_lens = 8;
		info.prog_tags = 12;
		memcpy(data, &addr, 8);
		memcpy(data + 8, &flen, 4);
		memcpy(data + 12, tag, 8);
		pd_u32(&b, 1);
		pd_u32(&b, sizeof info);
		pd_u32(&b, sizeof data);
		pd_u64(&b, 0);
		pd_bytes(&b, &info, sizeof info);
		pd_bytes(&b, data, sizeof data);
		cr_assert_eq(decode(&f, PF_FEAT_BPF_PROG_INFO, &b, b.len, NULL, NULL), FEAT_OK);
		cr_assert_eq(f.bpf.nbpf_progs, 1);
		cr_assert(f.bpf.bpf_progs[0].printable);
		cr_assert_eq(f.bpf.bpf_progs[0].subs[0].addr, addr);
		cr_assert_eq(f.bpf.bpf_progs[0].subs[0].len, 72);
		features_bpf_prog_name(&f, &f.bpf.bpf_progs[0], 0, name, sizeof name);
		cr_assert_str_eq(name, "bpf_prog_530f69190e63cfa0_fentry_x");
		features_free(&f);
		truncations(PF_FEAT_BPF_PROG_INFO, &b, NULL);
		/* Arrays pointing outside the data: decoded, not printable. */
		pd_put64(&b, 16 + offsetof(struct bpf_prog_info, prog_tags), 0xffffffff);
		cr_assert_eq(decode(&f, PF_FEAT_BPF_PROG_INFO, &b, b.len, NULL, NULL), FEAT_OK);
		cr_assert_not(f.bpf.bpf_progs[0].printable);
		features_free(&f);
		pd_free(&b);
	}
}

/* ---- raw, unknown, missing ---- */

Test(feature, raw_unknown_missing)
{
	static const uint8_t junk[16] = { 1, 2, 3 };
	struct features f;
	struct diag_list dl = { 0 };

	memset(&f, 0, sizeof f);
	feature_decode(&f, PF_FEAT_TRACING_DATA, junk, sizeof junk, false, 0x40, NULL, &dl);
	cr_assert_eq(f.sec[PF_FEAT_TRACING_DATA].status, FEAT_RAW);
	cr_assert_eq(f.sec[PF_FEAT_TRACING_DATA].size, 16);
	feature_decode(&f, 200, junk, sizeof junk, false, 0x80, NULL, &dl);
	cr_assert(f.sec[200].present);
	cr_assert_eq(f.sec[200].status, FEAT_RAW);
	cr_assert_eq(f.sec[200].offset, 0x80);
	feature_decode(&f, PF_FEAT_HOSTNAME, NULL, 64, false, 0x1000000, NULL, &dl);
	cr_assert_eq(f.sec[PF_FEAT_HOSTNAME].status, FEAT_MISSING);
	feature_decode(&f, PF_FEAT_CPUID, junk, 0, false, 0x100, NULL, &dl);
	cr_assert_eq(f.sec[PF_FEAT_CPUID].status, FEAT_MISSING);
	feature_decode(&f, PF_FEAT_BRANCH_STACK, junk, 0, false, 0x100, NULL, &dl);
	cr_assert_eq(f.sec[PF_FEAT_BRANCH_STACK].status, FEAT_OK);
	cr_assert_eq(dl.n, 2);
	cr_assert_eq(dl.v[0].offset, 0x1000000);
	/* Decode order is kept (pipe mode prints in record order). */
	cr_assert_eq(f.norder, 5);
	cr_assert_eq(f.order[0], PF_FEAT_TRACING_DATA);
	cr_assert_eq(f.order[1], 200);
	features_free(&f);
	diag_free(&dl);
	cr_assert_str_eq(feat_name(PF_FEAT_PMU_CAPS), "PMU_CAPS");
	cr_assert_null(feat_name(40));
	cr_assert_str_eq(feat_status_name(FEAT_SIZE_MISMATCH), "size mismatch");
}

Test(feature, tracing_data_names)
{
	struct pdbuf b = { 0 };
	static const char fmt[] = "name: sched_switch\nID: 316\nformat:\n\tfield:x;\n";
	struct features f;

	pd_bytes(&b, "\x17\x08\x44tracing", 10);
	pd_bytes(&b, "0.6", 4);
	pd_u8(&b, 0);	/* little endian */
	pd_u8(&b, 8);
	pd_u32(&b, 4096);
	pd_bytes(&b, "header_page", 12);
	pd_u64(&b, 3);
	pd_bytes(&b, "abc", 3);
	pd_bytes(&b, "header_event", 13);
	pd_u64(&b, 0);
	pd_u32(&b, 0);	/* ftrace formats */
	pd_u32(&b, 1);	/* systems */
	pd_bytes(&b, "sched", 6);
	pd_u32(&b, 1);
	pd_u64(&b, sizeof fmt - 1);
	pd_bytes(&b, fmt, sizeof fmt - 1);
	cr_assert_eq(decode(&f, PF_FEAT_TRACING_DATA, &b, b.len, NULL, NULL), FEAT_RAW);
	cr_assert_str_eq(f.tracing_version, "0.6");
	cr_assert_str_eq(features_tracepoint_name(&f, 316), "sched:sched_switch");
	cr_assert_null(features_tracepoint_name(&f, 317));
	features_free(&f);
	for (size_t len = 0; len < b.len; len++) {
		uint8_t *copy = malloc(len ? len : 1);

		memcpy(copy, b.p, len);
		memset(&f, 0, sizeof f);
		feature_decode(&f, PF_FEAT_TRACING_DATA, copy, len, false, 0, NULL, NULL);
		cr_expect_eq(f.sec[PF_FEAT_TRACING_DATA].status, FEAT_RAW);
		features_free(&f);
		free(copy);
	}
	pd_free(&b);
}

/* Random bytes into every decoder: no crash, status always set. */
/* Whatever the bytes: every section gets a status, damage says why and OK
 * does not, the same bytes decode the same way again (into a fresh struct
 * and, as a repeated pipe-mode record, into the same one), and the rows
 * describing the result are safe to print.  The noise reaches both ends:
 * some sections decode, some do not. */
static void
noise_rows_clean(const struct features *f, unsigned bit)
{
	struct feat_rows r = { NULL, 0, 0 };

	feature_describe(f, NULL, bit, &r);
	feature_describe_notes(f, bit, &r);
	for (size_t i = 0; i < r.n; i++) {
		cr_assert_not_null(r.v[i].label);
		cr_assert_not_null(r.v[i].lead);
		cr_assert_not_null(r.v[i].sep);
		cr_assert(!text_needs_escape(r.v[i].label, 0), "bit %u: label %s", bit,
		    r.v[i].label);
		cr_assert(r.v[i].value == NULL || !text_needs_escape(r.v[i].value, 0),
		    "bit %u: value %s", bit, r.v[i].value);
	}
	feature_rows_free(&r);
}

Test(feature, noise)
{
	uint8_t buf[512];
	uint32_t x = 12345;
	size_t ok = 0, damaged = 0;

	for (int round = 0; round < 400; round++) {
		size_t len = (size_t)(round * 7) % sizeof buf;

		for (size_t i = 0; i < len; i++) {
			x = x * 1103515245u + 12345u;
			/* Mostly small numbers, so counts look plausible. */
			buf[i] = (uint8_t)((x >> 16) % (round % 3 ? 4 : 256));
		}
		for (unsigned bit = 1; bit <= PF_FEAT_LAST_KNOWN; bit++) {
			struct features f, g;
			const struct feat_sec *fs = &f.sec[bit];
			uint8_t *copy = malloc(len ? len : 1);
			enum feat_status st;

			memcpy(copy, buf, len);
			memset(&f, 0, sizeof f);
			memset(&g, 0, sizeof g);
			f.nr_cpus_avail = g.nr_cpus_avail = (uint32_t)round % 5;
			feature_decode(&f, bit, copy, len, round % 2, 0x40, NULL, NULL);
			st = fs->status;
			cr_assert(fs->present && fs->offset == 0x40 && fs->size == len);
			cr_assert(st == FEAT_OK || st == FEAT_SIZE_MISMATCH || st == FEAT_UNDECODABLE ||
			    st == FEAT_MISSING || st == FEAT_RAW, "bit %u: status %d", bit, st);
			if (st == FEAT_OK)
				cr_assert_null(fs->why, "bit %u: OK with a reason", bit);
			else if (st != FEAT_RAW)
				cr_assert_not_null(fs->why, "bit %u: %s without a reason", bit,
				    feat_status_name(st));
			ok += st == FEAT_OK;
			damaged += st == FEAT_SIZE_MISMATCH || st == FEAT_UNDECODABLE;
			noise_rows_clean(&f, bit);

			feature_decode(&g, bit, copy, len, round % 2, 0x40, NULL, NULL);
			cr_assert_eq(g.sec[bit].status, st, "bit %u decodes the same again", bit);
			cr_assert_str_eq(g.sec[bit].why ? g.sec[bit].why : "", fs->why ? fs->why : "");
			features_free(&g);

			if (bit != PF_FEAT_BUILD_ID) {
				/* BUILD_ID's records add up; every other section is replaced. */
				feature_decode(&f, bit, copy, len, round % 2, 0x40, NULL, NULL);
				cr_assert_eq(fs->status, st, "bit %u: a repeat decodes the same", bit);
			}
			features_free(&f);
			free(copy);
		}
	}
	cr_assert_gt(ok, 100, "some noise decodes (%zu)", ok);
	cr_assert_gt(damaged, 100, "some noise does not (%zu)", damaged);
}

/* ---- names ---- */

static const char *
name_of(uint32_t type, uint64_t config, uint64_t flags)
{
	static char buf[128];
	struct perf_event_attr a;

	memset(&a, 0, sizeof a);
	a.type = type;
	a.config = config;
	memcpy((uint8_t *)&a + 40, &flags, 8);
	names_event_name(&a, buf, sizeof buf);
	return buf;
}

Test(names, perf_names)
{
	cr_assert_str_eq(name_of(0, 0, BIT_EXCL_GUEST), "cycles");
	cr_assert_str_eq(name_of(0, 1, BIT_EXCL_GUEST), "instructions");
	cr_assert_str_eq(name_of(0, 0, 0), "cycles:HG");
	cr_assert_str_eq(name_of(0, 0, BIT_EXCL_KERNEL | BIT_EXCL_HV | BIT_EXCL_GUEST), "cycles:uH");
	cr_assert_str_eq(name_of(0, 0, BIT_EXCL_KERNEL | BIT_EXCL_HV), "cycles:u");
	cr_assert_str_eq(name_of(0, 0, BIT_EXCL_USER | BIT_EXCL_GUEST), "cycles:khH");
	cr_assert_str_eq(name_of(1, 0, BIT_PRECISE3), "cpu-clock:ppp");
	cr_assert_str_eq(name_of(1, 0, (2ull << 15)), "cpu-clock:pp");
	cr_assert_str_eq(name_of(1, 1, BIT_EXCL_GUEST), "task-clock");
	cr_assert_str_eq(name_of(1, 2, BIT_EXCL_GUEST), "page-faults");
	cr_assert_str_eq(name_of(1, 9, BIT_EXCL_KERNEL | BIT_EXCL_HV), "dummy:u");
	cr_assert_str_eq(name_of(1, 99, BIT_EXCL_GUEST), "unknown-software");
	cr_assert_str_eq(name_of(0, 99, BIT_EXCL_GUEST), "unknown-hardware");
	cr_assert_str_eq(name_of(3, 0x10000, BIT_EXCL_GUEST), "L1-dcache-load-misses");
	cr_assert_str_eq(name_of(3, 0, BIT_EXCL_GUEST), "L1-dcache-loads");
	cr_assert_str_eq(name_of(3, 0x0103, BIT_EXCL_GUEST), "dTLB-stores");
	cr_assert_str_eq(name_of(3, 0x10004, BIT_EXCL_GUEST), "iTLB-load-misses");
	cr_assert_str_eq(name_of(3, 0x0101, BIT_EXCL_GUEST), "invalid-cache");
	cr_assert_str_eq(name_of(3, 0x0009, BIT_EXCL_GUEST), "unknown-ext-hardware-cache-type");
	cr_assert_str_eq(name_of(4, 0x1c4, BIT_EXCL_GUEST), "raw 0x1c4");
	cr_assert_str_eq(name_of(2, 316, BIT_EXCL_GUEST), "unknown tracepoint");
	cr_assert_str_eq(name_of(42, 0, 0), "unknown attr type: 42");
}

Test(names, breakpoint)
{
	struct perf_event_attr a;
	char buf[64];

	memset(&a, 0, sizeof a);
	a.type = PERF_TYPE_BREAKPOINT;
	a.bp_type = 2;	/* HW_BREAKPOINT_W */
	a.bp_addr = 0x404030;
	a.exclude_guest = 1;
	names_event_name(&a, buf, sizeof buf);
	cr_assert_str_eq(buf, "mem:0x404030:w");
	a.bp_type = 3 | 4;
	names_event_name(&a, buf, sizeof buf);
	cr_assert_str_eq(buf, "mem:0x404030:rwx");
	/* A tiny buffer is never overrun. */
	names_event_name(&a, buf, 5);
	cr_assert_str_eq(buf, "mem:");
	cr_assert_str_eq(names_clockid(1), "monotonic");
	cr_assert_str_eq(names_clockid(99), "(not found)");
}

Test(names, sample_type_and_read_format_bits)
{
	char b[256];
	uint64_t st = PERF_SAMPLE_IP | PERF_SAMPLE_TID | PERF_SAMPLE_WEIGHT | PERF_SAMPLE_DATA_SRC |
	    PERF_SAMPLE_IDENTIFIER | PERF_SAMPLE_TRANSACTION | (UINT64_C(1) << 40);

	/* perf's order: IDENTIFIER before DATA_SRC before WEIGHT; it skips TRANSACTION */
	cr_assert_str_eq(names_sample_type(st, NAMES_BITS_PERF, b, sizeof b),
	    "IP|TID|IDENTIFIER|DATA_SRC|WEIGHT");
	cr_assert_str_eq(names_sample_type(st, NAMES_BITS_ALL, b, sizeof b),
	    "IP|TID|IDENTIFIER|DATA_SRC|WEIGHT|TRANSACTION|bit40");
	cr_assert_str_eq(names_sample_type(0, NAMES_BITS_ALL, b, sizeof b), "");
	cr_assert_str_eq(names_read_format(PERF_FORMAT_ID | PERF_FORMAT_GROUP | (1u << 4),
	    NAMES_BITS_PERF, b, sizeof b), "ID|GROUP|LOST");
	/* a short buffer is cut, never overrun */
	cr_assert_eq(strlen(names_sample_type(st, NAMES_BITS_ALL, b, 8)) < 8, true);
}

/* ---- the newest features: CPU_DOMAIN_INFO, E_MACHINE, CLN_SIZE ---- */

/* The rows of section bit as "perfnav header" prints them, one string. */
static char *
rows_text(const struct features *f, unsigned bit)
{
	struct feat_rows r = { NULL, 0, 0 };
	char *out = NULL;
	size_t n = 0;
	FILE *fp = open_memstream(&out, &n);

	feature_describe(f, NULL, bit, &r);
	for (size_t i = 0; i < r.n; i++)
		fprintf(fp, "# %s%s%s%s\n", r.v[i].lead, r.v[i].label, r.v[i].value ? r.v[i].sep : "",
		    r.v[i].value ? r.v[i].value : "");
	fclose(fp);
	feature_rows_free(&r);
	return out;
}

/* Where each cpu's entry of the section below ends: shorter whole sections. */
static size_t domain_ends[3];

static bool
domain_prefix_ok(size_t len)
{
	/* empty: a pipe's end marker, bit 32 of perf 6.1 */
	return len == 0 || len == domain_ends[0] || len == domain_ends[1] || len == domain_ends[2];
}

/* An empty section of bits 32 and up is the end marker, not damage. */
static bool
empty_ok(size_t len)
{
	return len == 0;
}

/* CPU_DOMAIN_INFO of schedstat version ver: cpus 1 and 2, cpu 1 with two
 * domains, cpu 2 with one (names from version 17). */
static void
cpu_domain_section(struct pdbuf *b, uint32_t ver)
{
	static const char *const names[] = { "SMT", "MC", "SMT" };
	static const char *const masks[] = { "00000003", "000000ff", "0000000c" };
	static const char *const lists[] = { "0-1", "0-7", "2-3" };
	uint32_t dom[] = { 0, 1, 0 };

	pd_u32(b, ver);
	pd_u32(b, 2);		/* max domains */
	domain_ends[0] = b->len;
	for (uint32_t cpu = 1, k = 0; cpu <= 2; cpu++) {
		uint32_t nr = cpu == 1 ? 2 : 1;

		pd_u32(b, cpu);
		pd_u32(b, nr);
		for (uint32_t j = 0; j < nr; j++, k++) {
			pd_u32(b, dom[k]);
			if (ver >= 17)
				pd_feat_str(b, names[k]);
			pd_feat_str(b, masks[k]);
			pd_feat_str(b, lists[k]);
		}
		domain_ends[cpu] = b->len;
	}
}

static void
newest_features_in(bool swap)
{
	struct pdbuf b = { .swap = swap };
	struct features f;
	char *txt;

	cpu_domain_section(&b, 17);
	cr_assert_eq(decode(&f, PF_FEAT_CPU_DOMAIN_INFO, &b, b.len, NULL, NULL), FEAT_OK);
	cr_assert_eq(f.topo.ndomains, 3);
	cr_assert_eq(f.topo.ndomain_cpus, 2);
	txt = rows_text(&f, PF_FEAT_CPU_DOMAIN_INFO);
	cr_expect_str_eq(txt,
	    "# schedstat version\t: 17\n"
	    "# Maximum sched domains\t: 2\n"
	    "# cpu\t\t: 1\n"
	    "# nr_domains\t: 2\n"
	    "# Domain\t\t: 0\n"
	    "# Domain name      : SMT\n"
	    "# Domain cpu map   : 00000003\n"
	    "# Domain cpu list  : 0-1\n"
	    "# Domain\t\t: 1\n"
	    "# Domain name      : MC\n"
	    "# Domain cpu map   : 000000ff\n"
	    "# Domain cpu list  : 0-7\n"
	    "# cpu\t\t: 2\n"
	    "# nr_domains\t: 1\n"
	    "# Domain\t\t: 0\n"
	    "# Domain name      : SMT\n"
	    "# Domain cpu map   : 0000000c\n"
	    "# Domain cpu list  : 2-3\n");
	free(txt);
	features_free(&f);
	truncations(PF_FEAT_CPU_DOMAIN_INFO, &b, domain_prefix_ok);
	pd_free(&b);

	/* before version 17: no domain names */
	cpu_domain_section(&b, 16);
	cr_assert_eq(decode(&f, PF_FEAT_CPU_DOMAIN_INFO, &b, b.len, NULL, NULL), FEAT_OK);
	cr_assert_null(f.topo.domains[0].dname);
	txt = rows_text(&f, PF_FEAT_CPU_DOMAIN_INFO);
	cr_expect_null(strstr(txt, "Domain name"), "%s", txt);
	cr_expect_not_null(strstr(txt, "# Domain cpu list  : 2-3\n"), "%s", txt);
	free(txt);
	features_free(&f);
	pd_free(&b);

	/* a domain count beyond the section */
	pd_u32(&b, 17);
	pd_u32(&b, 1);
	pd_u32(&b, 0);
	pd_u32(&b, 100000);
	cr_assert_eq(decode(&f, PF_FEAT_CPU_DOMAIN_INFO, &b, b.len, NULL, NULL), FEAT_UNDECODABLE);
	cr_expect_not_null(strstr(f.sec[PF_FEAT_CPU_DOMAIN_INFO].why, "100000 domains"));
	features_free(&f);
	pd_free(&b);

	/* E_MACHINE: machine and flags */
	pd_u32(&b, 62);
	pd_u32(&b, 5);
	cr_assert_eq(decode(&f, PF_FEAT_E_MACHINE, &b, b.len, NULL, NULL), FEAT_OK);
	txt = rows_text(&f, PF_FEAT_E_MACHINE);
	cr_expect_str_eq(txt, "# e_machine : 62 (x86_64)\n# e_flags : 0x5\n");
	free(txt);
	features_free(&f);
	truncations(PF_FEAT_E_MACHINE, &b, empty_ok);
	pd_free(&b);

	/* CLN_SIZE */
	pd_u32(&b, 64);
	cr_assert_eq(decode(&f, PF_FEAT_CLN_SIZE, &b, b.len, NULL, NULL), FEAT_OK);
	cr_expect_eq(f.cln_size, 64);
	txt = rows_text(&f, PF_FEAT_CLN_SIZE);
	cr_expect_str_eq(txt, "# cache line size : 64\n");
	free(txt);
	features_free(&f);
	truncations(PF_FEAT_CLN_SIZE, &b, empty_ok);
	pd_free(&b);
}

Test(feature, newest_native)
{
	newest_features_in(false);
}

Test(feature, newest_swapped)
{
	newest_features_in(true);
}

/* A pipe's HEADER_LAST_FEATURE: perf 6.1 to 6.18 end with bit 32, later
 * perf one past its last; empty, it is the end marker, not a damaged
 * section.  An unknown bit stays raw. */
Test(feature, end_markers_and_future_bits)
{
	static const uint8_t junk[8] = { 1, 2, 3 };
	struct features f;
	struct diag_list dl = { 0 };

	memset(&f, 0, sizeof f);
	for (unsigned bit = 32; bit <= PF_FEAT_LAST_KNOWN + 1; bit++) {
		feature_decode(&f, bit, junk, 0, false, 0x40, NULL, &dl);
		cr_expect_eq(f.sec[bit].status, FEAT_RAW, "bit %u", bit);
		cr_expect(feature_end_marker(bit, 0));
	}
	cr_expect_eq(dl.n, 0);
	cr_expect(!feature_end_marker(31, 0));
	cr_expect(!feature_end_marker(32, 8));
	feature_decode(&f, PF_FEAT_LAST_KNOWN + 2, junk, sizeof junk, false, 0x80, NULL, &dl);
	cr_expect_eq(f.sec[PF_FEAT_LAST_KNOWN + 2].status, FEAT_RAW);
	cr_expect_str_eq(feat_name(PF_FEAT_CPU_DOMAIN_INFO), "CPU_DOMAIN_INFO");
	cr_expect_str_eq(feat_name(33), "E_MACHINE");
	features_free(&f);
	diag_free(&dl);
}

/* An attr asking for deferred user callchains: perf's flags after sigtrap. */
Test(feature, attr_defer_flags)
{
	for (int swap = 0; swap < 2; swap++) {
		struct pdbuf b = { .swap = swap };
		struct features f;
		char *txt;

		pd_u32(&b, 1);
		pd_u32(&b, 120);
		pd_attr(&b, 120, 0, 0, 4000, PERF_SAMPLE_IP | PERF_SAMPLE_CALLCHAIN, 0,
		    1ull << 38 | 1ull << 39);
		pd_u32(&b, 0);
		pd_feat_str(&b, "cycles");
		cr_assert_eq(decode(&f, PF_FEAT_EVENT_DESC, &b, b.len, NULL, NULL), FEAT_OK);
		txt = rows_text(&f, PF_FEAT_EVENT_DESC);
		cr_expect_not_null(strstr(txt, ", defer_callchain = 1, defer_output = 1"), "%s", txt);
		free(txt);
		features_free(&f);
		pd_free(&b);
	}
}
