#include "config.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

#include "core/core.h"
#include "tui/cmd/cmd.h"
#include "tui/cmd/textout.h"

/*
 * perfnav header: the lines of "perf report --header-only -I" (perf 6.1),
 * then what perf does not show: every feature section's place, size and
 * decode status.
 */

/* ---- perf_event_attr as perf prints it ---- */

struct bit_name {
	uint64_t	 bit;
	const char	*name;
};

static const struct bit_name branch_bits[] = {
	{ PERF_SAMPLE_BRANCH_USER, "USER" }, { PERF_SAMPLE_BRANCH_KERNEL, "KERNEL" },
	{ PERF_SAMPLE_BRANCH_HV, "HV" }, { PERF_SAMPLE_BRANCH_ANY, "ANY" },
	{ PERF_SAMPLE_BRANCH_ANY_CALL, "ANY_CALL" },
	{ PERF_SAMPLE_BRANCH_ANY_RETURN, "ANY_RETURN" },
	{ PERF_SAMPLE_BRANCH_IND_CALL, "IND_CALL" }, { PERF_SAMPLE_BRANCH_ABORT_TX, "ABORT_TX" },
	{ PERF_SAMPLE_BRANCH_IN_TX, "IN_TX" }, { PERF_SAMPLE_BRANCH_NO_TX, "NO_TX" },
	{ PERF_SAMPLE_BRANCH_COND, "COND" }, { PERF_SAMPLE_BRANCH_CALL_STACK, "CALL_STACK" },
	{ PERF_SAMPLE_BRANCH_IND_JUMP, "IND_JUMP" }, { PERF_SAMPLE_BRANCH_CALL, "CALL" },
	{ PERF_SAMPLE_BRANCH_NO_FLAGS, "NO_FLAGS" }, { PERF_SAMPLE_BRANCH_NO_CYCLES, "NO_CYCLES" },
	{ PERF_SAMPLE_BRANCH_TYPE_SAVE, "TYPE_SAVE" }, { PERF_SAMPLE_BRANCH_HW_INDEX, "HW_INDEX" },
	{ 1u << 18, "PRIV_SAVE" },
	{ 0, NULL },
};

static void
print_bits(FILE *fp, const char *name, uint64_t v, const struct bit_name *b)
{
	bool first = true;

	if (v == 0)
		return;
	fprintf(fp, ", %s = ", name);
	for (; b->name != NULL; b++) {
		if (v & b->bit) {
			fprintf(fp, "%s%s", first ? "" : "|", b->name);
			first = false;
		}
	}
}

static void
print_u(FILE *fp, const char *name, uint64_t v)
{
	if (v != 0)
		fprintf(fp, ", %s = %" PRIu64, name, v);
}

static void
print_x(FILE *fp, const char *name, uint64_t v)
{
	if (v != 0)
		fprintf(fp, ", %s = %#" PRIx64, name, v);
}

/* perf_event_attr__fprintf() of perf 6.1: nonzero fields, in its order. */
static void
print_attr(FILE *fp, const struct perf_event_attr *a)
{
	char bits[512];

	print_u(fp, "type", a->type);
	print_u(fp, "size", a->size);
	print_x(fp, "config", a->config);
	print_u(fp, "{ sample_period, sample_freq }", a->sample_period);
	if (a->sample_type)
		fprintf(fp, ", sample_type = %s",
		    names_sample_type(a->sample_type, NAMES_BITS_PERF, bits, sizeof bits));
	if (a->read_format)
		fprintf(fp, ", read_format = %s",
		    names_read_format(a->read_format, NAMES_BITS_PERF, bits, sizeof bits));
#define F(n) print_u(fp, #n, a->n)
	F(disabled);
	F(inherit);
	F(pinned);
	F(exclusive);
	F(exclude_user);
	F(exclude_kernel);
	F(exclude_hv);
	F(exclude_idle);
	F(mmap);
	F(comm);
	F(freq);
	F(inherit_stat);
	F(enable_on_exec);
	F(task);
	F(watermark);
	F(precise_ip);
	F(mmap_data);
	F(sample_id_all);
	F(exclude_host);
	F(exclude_guest);
	F(exclude_callchain_kernel);
	F(exclude_callchain_user);
	F(mmap2);
	F(comm_exec);
	F(use_clockid);
	F(context_switch);
	F(write_backward);
	F(namespaces);
	F(ksymbol);
	F(bpf_event);
	F(aux_output);
	F(cgroup);
	F(text_poke);
	F(build_id);
	F(inherit_thread);
	F(remove_on_exec);
	F(sigtrap);
#undef F
	print_u(fp, "{ wakeup_events, wakeup_watermark }", a->wakeup_events);
	print_u(fp, "bp_type", a->bp_type);
	print_x(fp, "{ bp_addr, config1 }", a->bp_addr);
	print_x(fp, "{ bp_len, config2 }", a->bp_len);
	print_bits(fp, "branch_sample_type", a->branch_sample_type, branch_bits);
	print_x(fp, "sample_regs_user", a->sample_regs_user);
	print_u(fp, "sample_stack_user", a->sample_stack_user);
	if (a->clockid != 0)
		fprintf(fp, ", clockid = %" PRId32, a->clockid);
	print_x(fp, "sample_regs_intr", a->sample_regs_intr);
	print_u(fp, "aux_watermark", a->aux_watermark);
	print_u(fp, "sample_max_stack", a->sample_max_stack);
	print_u(fp, "aux_sample_size", a->aux_sample_size);
	print_u(fp, "sig_data", a->sig_data);
}

/* perf 6.1 refuses the whole EVENT_DESC when an attr has bits it does not
 * know (perf_attr_check()). */
static bool
attr_known(const struct perf_event_attr *a)
{
	if (a->__reserved_1 || a->__reserved_2 || a->__reserved_3)
		return false;
	if (a->sample_type & ~((UINT64_C(1) << 25) - 1))
		return false;
	if (a->read_format & ~((UINT64_C(1) << 5) - 1))
		return false;
	if ((a->sample_type & PERF_SAMPLE_BRANCH_STACK) &&
	    (a->branch_sample_type & ~((UINT64_C(1) << 19) - 1)))
		return false;
	return true;
}

static void
print_event_desc(FILE *fp, const struct features *f)
{
	bool ok = f->events_ok;

	for (uint32_t i = 0; ok && i < f->nevents; i++)
		ok = attr_known(&f->events[i].attr);
	if (!ok) {
		fprintf(fp, "# event desc: not available or unable to read\n");
		return;
	}
	for (uint32_t i = 0; i < f->nevents; i++) {
		const struct feat_event_desc *e = &f->events[i];

		/* perf's list ends at the first attr of size 0. */
		if (e->attr.size == 0)
			break;
		fprintf(fp, "# event : name = %s, ", textout_esc(e->name));
		if (e->nids > 0) {
			fprintf(fp, ", id = {");
			for (uint32_t j = 0; j < e->nids; j++)
				fprintf(fp, "%s %" PRIu64, j ? "," : "", e->ids[j]);
			fprintf(fp, " }");
		}
		print_attr(fp, &e->attr);
		fputc('\n', fp);
	}
}

/* ---- cpu lists and bitmaps as perf re-prints them ---- */

static int
cmp_int(const void *a, const void *b)
{
	int x = *(const int *)a, y = *(const int *)b;

	return (x > y) - (x < y);
}

/* Parse "0-3,8,10-11" into a sorted set; -1 if it is not a cpu list. */
static int
parse_cpus(const char *s, int **out, size_t *nout)
{
	int *v = NULL;
	size_t n = 0, cap = 0;

	while (*s != '\0') {
		char *end;
		long a, b;

		a = strtol(s, &end, 10);
		if (end == s || a < 0)
			goto bad;
		b = a;
		s = end;
		if (*s == '-') {
			s++;
			b = strtol(s, &end, 10);
			if (end == s || b < a)
				goto bad;
			s = end;
		}
		if (b - a > 65536 || n + (size_t)(b - a) > 1u << 20)
			goto bad;
		for (long c = a; c <= b; c++) {
			GROW(v, cap, n + 1);
			v[n++] = (int)c;
		}
		if (*s == ',')
			s++;
		else if (*s != '\0' && *s != '\n')
			goto bad;
		else if (*s == '\n')
			break;
	}
	if (n > 0)
		qsort(v, n, sizeof *v, cmp_int);
	{
		size_t k = 0;

		for (size_t i = 0; i < n; i++)
			if (k == 0 || v[k - 1] != v[i])
				v[k++] = v[i];
		n = k;
	}
	*out = v;
	*nout = n;
	return 0;
bad:
	free(v);
	return -1;
}

/* cpu_map__snprint(): runs as "a-b", joined by commas. */
static void
snprint_cpus(char *buf, size_t size, const int *v, size_t n)
{
	size_t len = 0;
	size_t start = 0;

	buf[0] = '\0';
	for (size_t i = 1; i <= n; i++) {
		if (i < n && v[i] == v[i - 1] + 1)
			continue;
		if (len < size) {
			if (i - 1 == start)
				len += (size_t)snprintf(buf + len, size - len, "%s%d",
				    start ? "," : "", v[start]);
			else
				len += (size_t)snprintf(buf + len, size - len, "%s%d-%d",
				    start ? "," : "", v[start], v[i - 1]);
		}
		start = i;
	}
}

static void
print_cpu_list(FILE *fp, const char *s)
{
	char buf[1024];
	int *v;
	size_t n;

	if (parse_cpus(s, &v, &n) < 0) {
		fprintf(fp, "%s\n", textout_esc(s));
		return;
	}
	snprint_cpus(buf, sizeof buf, v, n);
	free(v);
	fprintf(fp, "%s\n", buf);
}

static bool
bit_set(const uint64_t *w, uint64_t i)
{
	return (w[i / 64] >> (i % 64)) & 1;
}

/* bitmap_scnprintf() into a buffer of size bytes. */
static void
snprint_bitmap(char *buf, size_t size, const uint64_t *w, uint64_t nbits)
{
	size_t len = 0;
	bool first = true;
	uint64_t i = 0;

	buf[0] = '\0';
	while (i < nbits) {
		uint64_t lo, hi;

		if (!bit_set(w, i)) {
			i++;
			continue;
		}
		lo = hi = i;
		while (hi + 1 < nbits && bit_set(w, hi + 1))
			hi++;
		if (len + 1 < size) {
			int r;

			if (lo == hi)
				r = snprintf(buf + len, size - len, "%s%" PRIu64, first ? "" : ",", lo);
			else
				r = snprintf(buf + len, size - len, "%s%" PRIu64 "-%" PRIu64,
				    first ? "" : ",", lo, hi);
			len += (size_t)r;
			if (len >= size)
				len = size - 1;
		}
		first = false;
		i = hi + 1;
	}
}

/* unit_number__scnprintf() */
static void
unit_number(char *buf, size_t n, uint64_t v)
{
	static const char unit[] = "BKMG";
	int i = 0;

	while (v / 1024 > 1 && i < 3) {
		v /= 1024;
		i++;
	}
	snprintf(buf, n, "%" PRIu64 "%c", v, unit[i]);
}

/* ---- one printer per feature ---- */

static void
print_cmdline(FILE *fp, const struct features *f)
{
	fprintf(fp, "# cmdline : ");
	for (uint32_t i = 0; i < f->cmdline_n; i++) {
		for (const char *c = textout_esc(f->cmdline[i]); *c != '\0'; c++) {
			if (*c == '\'')
				fputs("\\'", fp);
			else
				fputc(*c, fp);
		}
		fputc(' ', fp);
	}
	fputc('\n', fp);
}

static void
print_topology(FILE *fp, const struct features *f)
{
	for (uint32_t i = 0; i < f->nr_sibling_cores; i++)
		fprintf(fp, "# sibling sockets : %s\n", textout_esc(f->sibling_cores[i]));
	for (uint32_t i = 0; i < f->nr_sibling_dies; i++)
		fprintf(fp, "# sibling dies    : %s\n", textout_esc(f->sibling_dies[i]));
	for (uint32_t i = 0; i < f->nr_sibling_threads; i++)
		fprintf(fp, "# sibling threads : %s\n", textout_esc(f->sibling_threads[i]));
	if (f->nr_sibling_dies) {
		if (f->cpu_ids != NULL) {
			for (uint32_t i = 0; i < f->ncpu_ids; i++)
				fprintf(fp, "# CPU %" PRIu32 ": Core ID %d, Die ID %d, Socket ID %d\n", i,
				    (int)f->cpu_ids[i].core_id, (int)f->cpu_ids[i].die_id,
				    (int)f->cpu_ids[i].socket_id);
		} else {
			fprintf(fp, "# Core ID, Die ID and Socket ID information is not available\n");
		}
	} else {
		if (f->cpu_ids != NULL) {
			for (uint32_t i = 0; i < f->ncpu_ids; i++)
				fprintf(fp, "# CPU %" PRIu32 ": Core ID %d, Socket ID %d\n", i,
				    (int)f->cpu_ids[i].core_id, (int)f->cpu_ids[i].socket_id);
		} else {
			fprintf(fp, "# Core ID and Socket ID information is not available\n");
		}
	}
}

static void
print_numa(FILE *fp, const struct features *f)
{
	for (uint32_t i = 0; i < f->nnuma; i++) {
		const struct feat_numa_node *n = &f->numa[i];

		fprintf(fp, "# node%" PRIu32 " meminfo  : total = %" PRIu64 " kB, free = %" PRIu64
		    " kB\n", n->node, n->mem_total, n->mem_free);
		fprintf(fp, "# node%" PRIu32 " cpu list : ", n->node);
		print_cpu_list(fp, n->cpus);
	}
}

static void
print_pmu_mappings(FILE *fp, const struct features *f)
{
	if (f->npmus == 0) {
		fprintf(fp, "# pmu mappings: not available\n");
		return;
	}
	for (uint32_t i = 0; i < f->npmus; i++)
		fprintf(fp, "%s%s = %" PRIu32, i ? ", " : "# pmu mappings: ",
		    textout_esc(f->pmus[i].name), f->pmus[i].type);
	fputc('\n', fp);
}

/* Name of event idx as perf's group line shows it. */
static const char *
event_name(const struct session *s, uint32_t idx)
{
	const struct features *f = &s->feat;

	if (idx < f->nevents && f->events[idx].name != NULL)
		return f->events[idx].name;
	if (idx < s->attrs.n)
		return session_attr_name(s, (int)idx);
	return NULL;
}

static void
print_groups(FILE *fp, const struct session *s)
{
	const struct features *f = &s->feat;
	uint32_t nev = s->attrs.n > f->nevents ? (uint32_t)s->attrs.n : f->nevents;

	for (uint32_t g = 0; g < f->ngroups; g++) {
		const struct feat_group *gr = &f->groups[g];
		const char *name;

		if (gr->nr_members <= 1 || gr->leader_idx >= nev)
			continue;
		name = event_name(s, gr->leader_idx);
		fprintf(fp, "# group: %s{%s",
		    strcmp(gr->name, "{anon_group}") ? textout_esc(gr->name) : "", textout_esc(name));
		for (uint32_t m = 1; m < gr->nr_members; m++) {
			if (gr->leader_idx + m >= nev)
				break;
			name = event_name(s, gr->leader_idx + m);
			fprintf(fp, ",%s", textout_esc(name));
			if (m + 1 == gr->nr_members)
				fprintf(fp, "}\n");
		}
	}
}

static void
print_caches(FILE *fp, const struct features *f)
{
	fprintf(fp, "# CPU cache info:\n");
	for (uint32_t i = 0; i < f->ncaches; i++) {
		const struct feat_cache *c = &f->caches[i];

		fprintf(fp, "#  L%d %-15s %8s [%s]\n", (int)c->level, textout_esc(c->type),
		    textout_esc(c->size), textout_esc(c->map));
	}
}

static void
timestamp_usec(char *buf, size_t n, uint64_t t)
{
	text_time_us(buf, n, t);
}

static void
print_sample_time(FILE *fp, const struct features *f)
{
	char b[32];

	timestamp_usec(b, sizeof b, f->sample_time_first);
	fprintf(fp, "# time of first sample : %s\n", b);
	timestamp_usec(b, sizeof b, f->sample_time_last);
	fprintf(fp, "# time of last sample : %s\n", b);
	fprintf(fp, "# sample duration : %10.3f ms\n",
	    (double)(f->sample_time_last - f->sample_time_first) / 1e6);
}

static void
print_mem_topology(FILE *fp, const struct features *f)
{
	fprintf(fp, "# memory nodes (nr %d, block size 0x%" PRIx64 "):\n", (int)f->nmem_nodes,
	    f->mem_block_size);
	for (uint64_t i = 0; i < f->nmem_nodes; i++) {
		const struct feat_mem_node *n = &f->mem_nodes[i];
		uint64_t weight = 0;
		char size[50], map[100];

		for (uint64_t b = 0; b < n->nbits; b++)
			weight += bit_set(n->bits, b);
		unit_number(size, sizeof size, f->mem_block_size * weight);
		snprint_bitmap(map, sizeof map, n->bits, n->nbits);
		fprintf(fp, "#  %3" PRIu64 " [%s]: %s\n", n->node, size, map);
	}
}

static void
print_bpf_progs(FILE *fp, const struct features *f)
{
	char name[512];

	for (uint32_t i = 0; i < f->nbpf_progs; i++) {
		const struct feat_bpf_prog *p = &f->bpf_progs[i];

		if (!p->printable)
			continue;
		if (p->nsubs == 1) {
			features_bpf_prog_name(f, p, 0, name, sizeof name);
			fprintf(fp, "# bpf_prog_info %" PRIu32 ": %s addr 0x%" PRIx64 " size %" PRIu32
			    "\n", p->id, textout_esc(name), p->subs[0].addr, p->subs[0].len);
			continue;
		}
		fprintf(fp, "# bpf_prog_info %" PRIu32 ":\n", p->id);
		for (uint32_t k = 0; k < p->nsubs; k++) {
			features_bpf_prog_name(f, p, k, name, sizeof name);
			fprintf(fp, "# \tsub_prog %" PRIu32 ": %s addr 0x%" PRIx64 " size %" PRIu32 "\n",
			    k, textout_esc(name), p->subs[k].addr, p->subs[k].len);
		}
	}
}

static void
print_caps(FILE *fp, const struct feat_pmu_caps *p, const char *pmu)
{
	if (p->nr_caps == 0) {
		fprintf(fp, "# %s pmu capabilities: not available\n", textout_esc(pmu));
		return;
	}
	fprintf(fp, "# %s pmu capabilities: ", textout_esc(pmu));
	for (uint32_t i = 0; i < p->nr_caps; i++)
		fprintf(fp, "%s%s", i ? ", " : "", textout_esc(p->caps[i]));
	fputc('\n', fp);
}

static void
print_clock_data(FILE *fp, const struct features *f)
{
	uint64_t tod = f->clock_data_tod_ns, cns = f->clock_data_clockid_ns;
	time_t sec = (time_t)(tod / 1000000000);
	long usec = (long)(tod % 1000000000 / 1000);
	const char *cname = names_clockid(f->clock_data_clockid);
	char date[64], tstr[96];
	struct tm tm;

	if (localtime_r(&sec, &tm) == NULL) {
		snprintf(tstr, sizeof tstr, "<error>");
	} else {
		strftime(date, sizeof date, "%F %T", &tm);
		snprintf(tstr, sizeof tstr, "%s.%06ld", date, usec);
	}
	fprintf(fp, "# clockid: %s (%" PRIu32 ")\n", cname, f->clock_data_clockid);
	fprintf(fp, "# reference time: %s = %ld.%06ld (TOD) = %ld.%09ld (%s)\n", tstr, (long)sec,
	    usec, (long)(cns / 1000000000), (long)(cns % 1000000000), cname);
}

/* What perf prints for one feature section. */
static void
print_feature(FILE *fp, const struct session *s, unsigned bit)
{
	const struct features *f = &s->feat;
	enum feat_status st = f->sec[bit].status;

	/* perf reads EVENT_DESC again to print it, and says when it cannot. */
	if (bit == PF_FEAT_EVENT_DESC && st == FEAT_UNDECODABLE) {
		print_event_desc(fp, f);
		return;
	}
	if (st != FEAT_OK && st != FEAT_SIZE_MISMATCH)
		return;
	switch (bit) {
	case PF_FEAT_HOSTNAME:
		fprintf(fp, "# hostname : %s\n", textout_esc(f->hostname));
		break;
	case PF_FEAT_OSRELEASE:
		fprintf(fp, "# os release : %s\n", textout_esc(f->osrelease));
		break;
	case PF_FEAT_VERSION:
		fprintf(fp, "# perf version : %s\n", textout_esc(f->version));
		break;
	case PF_FEAT_ARCH:
		fprintf(fp, "# arch : %s\n", textout_esc(f->arch));
		break;
	case PF_FEAT_NRCPUS:
		fprintf(fp, "# nrcpus online : %" PRIu32 "\n", f->nr_cpus_online);
		fprintf(fp, "# nrcpus avail : %" PRIu32 "\n", f->nr_cpus_avail);
		break;
	case PF_FEAT_CPUDESC:
		fprintf(fp, "# cpudesc : %s\n", textout_esc(f->cpudesc));
		break;
	case PF_FEAT_CPUID:
		fprintf(fp, "# cpuid : %s\n", textout_esc(f->cpuid));
		break;
	case PF_FEAT_TOTAL_MEM:
		fprintf(fp, "# total memory : %" PRIu64 " kB\n", f->total_mem);
		break;
	case PF_FEAT_CMDLINE:
		print_cmdline(fp, f);
		break;
	case PF_FEAT_EVENT_DESC:
		print_event_desc(fp, f);
		break;
	case PF_FEAT_CPU_TOPOLOGY:
		print_topology(fp, f);
		break;
	case PF_FEAT_NUMA_TOPOLOGY:
		print_numa(fp, f);
		break;
	case PF_FEAT_BRANCH_STACK:
		fprintf(fp, "# contains samples with branch stack\n");
		break;
	case PF_FEAT_PMU_MAPPINGS:
		print_pmu_mappings(fp, f);
		break;
	case PF_FEAT_GROUP_DESC:
		print_groups(fp, s);
		break;
	case PF_FEAT_AUXTRACE:
		fprintf(fp, "# contains AUX area data (e.g. instruction trace)\n");
		break;
	case PF_FEAT_STAT:
		fprintf(fp, "# contains stat data\n");
		break;
	case PF_FEAT_CACHE:
		print_caches(fp, f);
		break;
	case PF_FEAT_SAMPLE_TIME:
		print_sample_time(fp, f);
		break;
	case PF_FEAT_MEM_TOPOLOGY:
		print_mem_topology(fp, f);
		break;
	case PF_FEAT_CLOCKID:
		fprintf(fp, "# clockid frequency: %" PRIu64 " MHz\n", f->clockid_res_ns * 1000);
		break;
	case PF_FEAT_DIR_FORMAT:
		fprintf(fp, "# directory data version : %" PRIu64 "\n", f->dir_format_version);
		break;
	case PF_FEAT_BPF_PROG_INFO:
		print_bpf_progs(fp, f);
		break;
	case PF_FEAT_BPF_BTF:
		for (uint32_t i = 0; i < f->nbtfs; i++)
			fprintf(fp, "# btf info of id %" PRIu32 "\n", f->btfs[i].id);
		break;
	case PF_FEAT_COMPRESSED:
		fprintf(fp, "# compressed : %s, level = %d, ratio = %d\n",
		    f->comp_type == 1 ? "Zstd" : "Unknown", (int)f->comp_level, (int)f->comp_ratio);
		break;
	case PF_FEAT_CPU_PMU_CAPS:
		print_caps(fp, &f->cpu_pmu_caps, "cpu");
		break;
	case PF_FEAT_CLOCK_DATA:
		print_clock_data(fp, f);
		break;
	case PF_FEAT_HYBRID_TOPOLOGY:
		fprintf(fp, "# hybrid cpu system:\n");
		for (uint32_t i = 0; i < f->nhybrid; i++)
			fprintf(fp, "# %s cpu list : %s\n", textout_esc(f->hybrid[i].pmu_name),
			    textout_esc(f->hybrid[i].cpus));
		break;
	case PF_FEAT_PMU_CAPS:
		for (uint32_t i = 0; i < f->npmu_caps; i++)
			print_caps(fp, &f->pmu_caps[i], f->pmu_caps[i].pmu_name);
		break;
	default:
		/* TRACING_DATA, BUILD_ID: perf prints nothing. */
		break;
	}
}

/* ---- the header block ---- */

static void
print_captured_on(FILE *fp, const struct session *s)
{
	struct stat st;
	int rc;

	if (s->from_stdin)
		rc = fstat(0, &st);
	else
		rc = stat(s->nfiles > 0 ? s->files[0].path : s->path, &st);
	if (rc == 0) {
		time_t t = st.st_mtime;
		char buf[64];

		if (ctime_r(&t, buf) != NULL) {
			fprintf(fp, "# captured on    : %s", buf);
			return;
		}
	}
	fprintf(fp, "# captured on    : (unknown)\n");
}

static void
print_perf_header(FILE *fp, const struct session *s)
{
	bool pipe = s->mode == SESSION_PIPE;
	uint64_t doff = pipe ? 0 : s->data_sec.offset, dsize = pipe ? 0 : s->data_sec.size;

	fprintf(fp, "# ========\n");
	print_captured_on(fp, s);
	fprintf(fp, "# header version : 1\n");
	fprintf(fp, "# data offset    : %" PRIu64 "\n", doff);
	fprintf(fp, "# data size      : %" PRIu64 "\n", dsize);
	fprintf(fp, "# feat offset    : %" PRIu64 "\n", pipe ? 0 : doff + dsize);
	if (pipe) {
		/* perf prints the HEADER_FEATURE records as it meets them. */
		fprintf(fp, "# ========\n#\n");
		for (uint32_t i = 0; i < s->feat.norder; i++)
			print_feature(fp, s, s->feat.order[i]);
		return;
	}
	for (unsigned bit = 1; bit <= PF_FEAT_LAST_KNOWN; bit++)
		if (s->feat.sec[bit].present)
			print_feature(fp, s, bit);
	fprintf(fp, "# missing features: ");
	for (unsigned bit = 1; bit <= PF_FEAT_LAST_KNOWN; bit++)
		if (!s->feat.sec[bit].present)
			fprintf(fp, "%s ", feat_name(bit));
	fprintf(fp, "\n# ========\n#\n");
}

/* The first bytes of a section perfnav cannot interpret, in hex. */
static void
print_raw(FILE *fp, const struct session *s, const struct feat_sec *fs)
{
	uint64_t n = fs->size < 32 ? fs->size : 32;
	const uint8_t *p = session_bytes(s, fs->offset, n);

	if (p == NULL)
		return;
	fprintf(fp, "#          raw:");
	for (uint64_t i = 0; i < n; i++)
		fprintf(fp, " %02x", p[i]);
	fprintf(fp, "%s\n", n < fs->size ? " ..." : "");
}

/* What perf does not show: where each section is and how it decoded. */
static void
print_sections(FILE *fp, const struct session *s)
{
	const struct features *f = &s->feat;
	bool any = false;

	fprintf(fp, "# perfnav: feature sections (%s mode%s)\n",
	    s->mode == SESSION_PIPE ? "pipe" : s->mode == SESSION_DIR ? "directory" : "file",
	    s->swap ? ", other byte order" : "");
	fprintf(fp, "#   bit  feature          offset              size  status\n");
	for (unsigned bit = 0; bit < PF_FEAT_BITS; bit++) {
		const struct feat_sec *fs = &f->sec[bit];
		const char *name = feat_name(bit);
		char unk[32];

		if (!fs->present)
			continue;
		any = true;
		if (name == NULL && bit == PF_FEAT_LAST_KNOWN + 1 && fs->size == 0) {
			name = "(end marker)";
		} else if (name == NULL) {
			snprintf(unk, sizeof unk, "unknown-%u", bit);
			name = unk;
		}
		fprintf(fp, "#   %3u  %-15s  0x%-16" PRIx64 "  %-5" PRIu64 " %s%s%s\n", bit, name,
		    fs->offset, fs->size, feat_status_name(fs->status), fs->why ? ": " : "",
		    textout_esc(fs->why));
		if (feat_name(bit) == NULL && fs->size > 0)
			print_raw(fp, s, fs);
	}
	if (!any)
		fprintf(fp, "#   (none)\n");
	if (f->sec[PF_FEAT_BUILD_ID].present || f->n_build_ids > 0)
		fprintf(fp, "#   build ids: %zu\n", f->n_build_ids);
	if (f->sec[PF_FEAT_TRACING_DATA].present)
		fprintf(fp, "#   tracing data: version %s, %" PRIu32 " tracepoint formats\n",
		    f->tracing_version ? textout_esc(f->tracing_version) : "?", f->ntracepoints);
	if (f->sec[PF_FEAT_BPF_PROG_INFO].present)
		fprintf(fp, "#   bpf programs: %" PRIu32 " announced, %" PRIu32 " decoded\n",
		    f->bpf_prog_count, f->nbpf_progs);
	if (f->sec[PF_FEAT_BPF_BTF].present)
		fprintf(fp, "#   btf blobs: %" PRIu32 " announced, %" PRIu32 " decoded\n", f->btf_count,
		    f->nbtfs);
	if (f->sec[PF_FEAT_AUXTRACE].present)
		fprintf(fp, "#   auxtrace index: %" PRIu64 " entries\n", f->nauxtrace);
}

static const struct cmd_spec header_spec = {
	"header [OPTIONS] [FILE]\n\n"
	"Print the recording's header and feature sections with the lines of\n"
	"'perf report --header-only -I', then each section's offset, size and\n"
	"decode status.", NULL, NULL, 0
};

int
cmd_header(int argc, char **argv)
{
	struct cmd_run r;

	if (cmd_begin(&r, argc, argv, &header_spec, NULL) < 0 || cmd_load(&r, false) < 0)
		return r.status;
	print_perf_header(stdout, r.s);
	print_sections(stdout, r.s);
	return cmd_end(&r);
}
