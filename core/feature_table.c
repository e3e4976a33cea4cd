#include "config.h"

#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "core/feature_int.h"

/*
 * The feature table: one entry per feature section.  To add a section:
 * its bit and name in PF_FEATURES (core/perf_file.h), its fields in struct
 * features, a decoder (and a free if it allocates), a describer giving the
 * lines perf prints, and its entry here.
 */

#define STRING(field, text) \
	{ \
		.decode = feature_dec_string, .describe = feature_desc_string, \
		.str_off = offsetof(struct features, field), .label = text \
	}

const struct feat_entry feature_table[PF_FEAT_LAST_KNOWN + 1] = {
	[PF_FEAT_TRACING_DATA] = { .decode = feature_trace_dec, .free = feature_trace_free,
	    .notes = feature_notes_tracing, .notes_rank = 2, .flags = FEAT_F_RAW },
	[PF_FEAT_BUILD_ID] = { .decode = feature_dec_build_id, .free = feature_free_build_ids,
	    .notes = feature_notes_build_ids, .notes_rank = 1 },
	[PF_FEAT_HOSTNAME] = STRING(hostname, "hostname"),
	[PF_FEAT_OSRELEASE] = STRING(osrelease, "os release"),
	[PF_FEAT_VERSION] = STRING(version, "perf version"),
	[PF_FEAT_ARCH] = STRING(arch, "arch"),
	[PF_FEAT_NRCPUS] = { .decode = feature_dec_nrcpus, .describe = feature_desc_nrcpus },
	[PF_FEAT_CPUDESC] = STRING(cpudesc, "cpudesc"),
	[PF_FEAT_CPUID] = STRING(cpuid, "cpuid"),
	[PF_FEAT_TOTAL_MEM] = { .decode = feature_dec_total_mem,
	    .describe = feature_desc_total_mem },
	[PF_FEAT_CMDLINE] = { .decode = feature_dec_cmdline, .free = feature_free_cmdline,
	    .describe = feature_desc_cmdline },
	[PF_FEAT_EVENT_DESC] = { .decode = feature_dec_event_desc, .free = feature_free_events,
	    .describe = feature_desc_event_desc, .flags = FEAT_F_DESC_DAMAGED },
	[PF_FEAT_CPU_TOPOLOGY] = { .decode = feature_dec_cpu_topology,
	    .free = feature_free_topology, .describe = feature_desc_cpu_topology },
	[PF_FEAT_NUMA_TOPOLOGY] = { .decode = feature_dec_numa, .free = feature_free_numa,
	    .describe = feature_desc_numa },
	[PF_FEAT_BRANCH_STACK] = { .describe = feature_desc_branch_stack,
	    .flags = FEAT_F_EMPTY_OK },
	[PF_FEAT_PMU_MAPPINGS] = { .decode = feature_dec_pmu_mappings, .free = feature_free_pmus,
	    .describe = feature_desc_pmu_mappings },
	[PF_FEAT_GROUP_DESC] = { .decode = feature_dec_group_desc, .free = feature_free_groups,
	    .describe = feature_desc_group_desc },
	[PF_FEAT_AUXTRACE] = { .decode = feature_dec_auxtrace, .free = feature_free_auxtrace,
	    .describe = feature_desc_auxtrace, .notes = feature_notes_auxtrace,
	    .notes_rank = 5 },
	[PF_FEAT_STAT] = { .describe = feature_desc_stat, .flags = FEAT_F_EMPTY_OK },
	[PF_FEAT_CACHE] = { .decode = feature_dec_cache, .free = feature_free_caches,
	    .describe = feature_desc_cache },
	[PF_FEAT_SAMPLE_TIME] = { .decode = feature_dec_sample_time,
	    .describe = feature_desc_sample_time },
	[PF_FEAT_MEM_TOPOLOGY] = { .decode = feature_dec_mem_topology, .free = feature_free_mem,
	    .describe = feature_desc_mem_topology },
	[PF_FEAT_CLOCKID] = { .decode = feature_dec_clockid, .describe = feature_desc_clockid },
	[PF_FEAT_DIR_FORMAT] = { .decode = feature_dec_dir_format,
	    .describe = feature_desc_dir_format },
	[PF_FEAT_BPF_PROG_INFO] = { .decode = feature_bpf_dec_progs,
	    .free = feature_bpf_free_progs, .describe = feature_desc_bpf_progs,
	    .notes = feature_notes_bpf_progs, .notes_rank = 3 },
	[PF_FEAT_BPF_BTF] = { .decode = feature_bpf_dec_btf, .free = feature_bpf_free_btf,
	    .describe = feature_desc_btf, .notes = feature_notes_btf, .notes_rank = 4 },
	[PF_FEAT_COMPRESSED] = { .decode = feature_dec_compressed,
	    .describe = feature_desc_compressed },
	[PF_FEAT_CPU_PMU_CAPS] = { .decode = feature_dec_cpu_pmu_caps,
	    .free = feature_free_cpu_pmu_caps, .describe = feature_desc_cpu_pmu_caps },
	[PF_FEAT_CLOCK_DATA] = { .decode = feature_dec_clock_data,
	    .describe = feature_desc_clock_data },
	[PF_FEAT_HYBRID_TOPOLOGY] = { .decode = feature_dec_hybrid, .free = feature_free_hybrid,
	    .describe = feature_desc_hybrid },
	[PF_FEAT_PMU_CAPS] = { .decode = feature_dec_pmu_caps, .free = feature_free_pmu_caps,
	    .describe = feature_desc_pmu_caps },
	[PF_FEAT_CPU_DOMAIN_INFO] = { .decode = feature_dec_cpu_domain,
	    .free = feature_free_cpu_domain, .describe = feature_desc_cpu_domain },
	[PF_FEAT_E_MACHINE] = { .decode = feature_dec_e_machine,
	    .describe = feature_desc_e_machine },
	[PF_FEAT_CLN_SIZE] = { .decode = feature_dec_cln_size, .describe = feature_desc_cln_size },
};

#undef STRING

/* ---- rows ---- */

static void
desc_init(struct feat_desc *d, const struct features *f, const struct attr_table *attrs,
    unsigned bit, struct feat_rows *out)
{
	memset(d, 0, sizeof *d);
	d->f = f;
	d->attrs = attrs;
	d->e = &feature_table[bit];
	d->bit = bit;
	d->out = out;
}

static void
desc_done(struct feat_desc *d)
{
	for (unsigned i = 0; i < sizeof d->esc / sizeof d->esc[0]; i++)
		text_buf_free(&d->esc[i]);
}

void
feature_describe(const struct features *f, const struct attr_table *attrs, unsigned bit,
    struct feat_rows *out)
{
	enum feat_status st;
	struct feat_desc d;

	if (bit > PF_FEAT_LAST_KNOWN || feature_table[bit].describe == NULL)
		return;
	st = f->sec[bit].status;
	if (st != FEAT_OK && st != FEAT_SIZE_MISMATCH &&
	    !(st == FEAT_UNDECODABLE && (feature_table[bit].flags & FEAT_F_DESC_DAMAGED)))
		return;
	desc_init(&d, f, attrs, bit, out);
	feature_table[bit].describe(&d);
	desc_done(&d);
}

void
feature_describe_notes(const struct features *f, unsigned bit, struct feat_rows *out)
{
	struct feat_desc d;

	if (bit > PF_FEAT_LAST_KNOWN || feature_table[bit].notes == NULL)
		return;
	desc_init(&d, f, NULL, bit, out);
	feature_table[bit].notes(&d);
	desc_done(&d);
}

void
feature_notes(const struct features *f, struct feat_rows *out)
{
	for (unsigned rank = 1; rank <= PF_FEAT_LAST_KNOWN + 1; rank++)
		for (unsigned bit = 0; bit <= PF_FEAT_LAST_KNOWN; bit++)
			if (feature_table[bit].notes_rank == rank)
				feature_describe_notes(f, bit, out);
}

void
feature_rows_free(struct feat_rows *r)
{
	for (size_t i = 0; i < r->n; i++) {
		free(r->v[i].label);
		free(r->v[i].value);
	}
	free(r->v);
	memset(r, 0, sizeof *r);
}
