#include "config.h"

#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "core/attr.h"
#include "core/err.h"
#include "core/feature_int.h"
#include "core/names.h"
#include "core/text.h"

/*
 * The rows of each feature section: the lines of "perf report
 * --header-only -I" (perf 6.1), and perfnav's own summary lines.
 */

/* ---- building rows ---- */

void
feat_str_addf(struct feat_str *s, const char *fmt, ...)
{
	va_list ap;
	int k;

	va_start(ap, fmt);
	k = vsnprintf(NULL, 0, fmt, ap);
	va_end(ap);
	if (k < 0)
		return;
	GROW(s->p, s->cap, s->len + (size_t)k + 1);
	va_start(ap, fmt);
	vsnprintf(s->p + s->len, s->cap - s->len, fmt, ap);
	va_end(ap);
	s->len += (size_t)k;
}

char *
feat_str_take(struct feat_str *s)
{
	char *p = s->p != NULL ? s->p : xstrdup("");

	memset(s, 0, sizeof *s);
	return p;
}

const char *
feat_esc(struct feat_desc *d, const char *s)
{
	if (s == NULL)
		return "";
	if (!text_needs_escape(s, 0))
		return s;
	return text_esc(&d->esc[d->next++ % 4], s, 0);
}

struct feat_row *
feat_row_take(struct feat_desc *d, const char *lead, char *label, const char *sep, char *value)
{
	struct feat_rows *o = d->out;
	struct feat_row *r;

	GROW(o->v, o->cap, o->n + 1);
	r = &o->v[o->n++];
	r->lead = lead;
	r->label = label;
	r->sep = sep;
	r->value = value;
	r->open = false;
	return r;
}

struct feat_row *
feat_rowf(struct feat_desc *d, const char *lead, const char *label, const char *sep,
    const char *fmt, ...)
{
	struct feat_str s = { NULL, 0, 0 };
	va_list ap;
	int k;

	if (fmt != NULL) {
		va_start(ap, fmt);
		k = vsnprintf(NULL, 0, fmt, ap);
		va_end(ap);
		if (k >= 0) {
			GROW(s.p, s.cap, (size_t)k + 1);
			va_start(ap, fmt);
			vsnprintf(s.p, s.cap, fmt, ap);
			va_end(ap);
		}
	}
	return feat_row_take(d, lead, xstrdup(label), sep,
	    fmt != NULL ? feat_str_take(&s) : NULL);
}

/* ---- cpu lists and bitmaps as perf re-prints them ---- */

static int
cmp_int(const void *a, const void *b)
{
	int x = *(const int *)a, y = *(const int *)b;

	return (x > y) - (x < y);
}

/* Sort v[0..*n) and drop repeats. */
static void
sort_unique(int *v, size_t *n)
{
	size_t k = 0;

	if (*n > 0)
		qsort(v, *n, sizeof *v, cmp_int);
	for (size_t i = 0; i < *n; i++)
		if (k == 0 || v[k - 1] != v[i])
			v[k++] = v[i];
	*n = k;
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
	sort_unique(v, &n);
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

/* A cpu list as perf re-prints it (escaped as written when it does not parse). */
static char *
cpu_list(struct feat_desc *d, const char *s)
{
	char buf[1024];
	int *v;
	size_t n;

	if (parse_cpus(s, &v, &n) < 0)
		return xstrdup(feat_esc(d, s));
	snprint_cpus(buf, sizeof buf, v, n);
	free(v);
	return xstrdup(buf);
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

/* ---- one describer per feature ---- */

void
feature_desc_string(struct feat_desc *d)
{
	const char *s = *(char *const *)(const void *)((const char *)d->f + d->e->str_off);

	feat_rowf(d, "", d->e->label, " : ", "%s", feat_esc(d, s));
}

void
feature_desc_nrcpus(struct feat_desc *d)
{
	feat_rowf(d, "", "nrcpus online", " : ", "%" PRIu32, d->f->nr_cpus_online);
	feat_rowf(d, "", "nrcpus avail", " : ", "%" PRIu32, d->f->nr_cpus_avail);
}

void
feature_desc_total_mem(struct feat_desc *d)
{
	feat_rowf(d, "", "total memory", " : ", "%" PRIu64 " kB", d->f->total_mem);
}

/* Each argument escaped, its quotes as \', followed by a space. */
void
feature_desc_cmdline(struct feat_desc *d)
{
	struct feat_str s = { NULL, 0, 0 };

	for (uint32_t i = 0; i < d->f->cmdline_n; i++) {
		for (const char *c = feat_esc(d, d->f->cmdline[i]); *c != '\0'; c++) {
			if (*c == '\'')
				feat_str_addf(&s, "\\'");
			else
				feat_str_addf(&s, "%c", *c);
		}
		feat_str_addf(&s, " ");
	}
	feat_row_take(d, "", xstrdup("cmdline"), " : ", feat_str_take(&s));
}

void
feature_desc_cpu_topology(struct feat_desc *d)
{
	const struct features *f = d->f;
	bool dies = f->topo.nr_sibling_dies != 0;

	for (uint32_t i = 0; i < f->topo.nr_sibling_cores; i++)
		feat_rowf(d, "", "sibling sockets", " : ", "%s", feat_esc(d, f->topo.sibling_cores[i]));
	for (uint32_t i = 0; i < f->topo.nr_sibling_dies; i++)
		feat_rowf(d, "", "sibling dies", "    : ", "%s", feat_esc(d, f->topo.sibling_dies[i]));
	for (uint32_t i = 0; i < f->topo.nr_sibling_threads; i++)
		feat_rowf(d, "", "sibling threads", " : ", "%s", feat_esc(d, f->topo.sibling_threads[i]));
	if (f->topo.cpu_ids == NULL) {
		feat_rowf(d, "", dies ? "Core ID, Die ID and Socket ID information is not available" :
		    "Core ID and Socket ID information is not available", "", NULL);
		return;
	}
	for (uint32_t i = 0; i < f->topo.ncpu_ids; i++) {
		char nm[32];

		snprintf(nm, sizeof nm, "CPU %" PRIu32, i);
		if (dies)
			feat_rowf(d, "", nm, ": ", "Core ID %d, Die ID %d, Socket ID %d",
			    (int)f->topo.cpu_ids[i].core_id, (int)f->topo.cpu_ids[i].die_id,
			    (int)f->topo.cpu_ids[i].socket_id);
		else
			feat_rowf(d, "", nm, ": ", "Core ID %d, Socket ID %d",
			    (int)f->topo.cpu_ids[i].core_id, (int)f->topo.cpu_ids[i].socket_id);
	}
}

void
feature_desc_numa(struct feat_desc *d)
{
	for (uint32_t i = 0; i < d->f->topo.nnuma; i++) {
		const struct feat_numa_node *n = &d->f->topo.numa[i];
		char nm[48];

		snprintf(nm, sizeof nm, "node%" PRIu32 " meminfo", n->node);
		feat_rowf(d, "", nm, "  : ", "total = %" PRIu64 " kB, free = %" PRIu64 " kB",
		    n->mem_total, n->mem_free);
		snprintf(nm, sizeof nm, "node%" PRIu32 " cpu list", n->node);
		feat_row_take(d, "", xstrdup(nm), " : ", cpu_list(d, n->cpus));
	}
}

void
feature_desc_branch_stack(struct feat_desc *d)
{
	feat_rowf(d, "", "contains samples with branch stack", "", NULL);
}

void
feature_desc_pmu_mappings(struct feat_desc *d)
{
	struct feat_str s = { NULL, 0, 0 };

	if (d->f->npmus == 0) {
		feat_rowf(d, "", "pmu mappings", ": ", "not available");
		return;
	}
	for (uint32_t i = 0; i < d->f->npmus; i++)
		feat_str_addf(&s, "%s%s = %" PRIu32, i ? ", " : "", feat_esc(d, d->f->pmus[i].name),
		    d->f->pmus[i].type);
	feat_row_take(d, "", xstrdup("pmu mappings"), ": ", feat_str_take(&s));
}

/* Name of event idx as perf's group line shows it. */
static const char *
event_name(const struct feat_desc *d, uint32_t idx)
{
	const struct features *f = d->f;

	if (idx < f->nevents && f->events[idx].name != NULL)
		return f->events[idx].name;
	if (d->attrs != NULL && idx < d->attrs->n)
		return d->attrs->v[idx].name != NULL ? d->attrs->v[idx].name : "unknown";
	return NULL;
}

/* "name{leader,member,...}"; a group cut short by the events known stays
 * open, without its "}" and its newline, as perf leaves it. */
void
feature_desc_group_desc(struct feat_desc *d)
{
	const struct features *f = d->f;
	size_t nattrs = d->attrs != NULL ? d->attrs->n : 0;
	uint32_t nev = nattrs > f->nevents ? (uint32_t)nattrs : f->nevents;

	for (uint32_t g = 0; g < f->ngroups; g++) {
		const struct feat_group *gr = &f->groups[g];
		struct feat_str s = { NULL, 0, 0 };
		bool done = false;

		if (gr->nr_members <= 1 || gr->leader_idx >= nev)
			continue;
		feat_str_addf(&s, "%s{%s", strcmp(gr->name, "{anon_group}") ?
		    feat_esc(d, gr->name) : "", feat_esc(d, event_name(d, gr->leader_idx)));
		for (uint32_t m = 1; m < gr->nr_members; m++) {
			if (gr->leader_idx + m >= nev)
				break;
			feat_str_addf(&s, ",%s", feat_esc(d, event_name(d, gr->leader_idx + m)));
			if (m + 1 == gr->nr_members) {
				feat_str_addf(&s, "}");
				done = true;
			}
		}
		feat_row_take(d, "", xstrdup("group"), ": ", feat_str_take(&s))->open = !done;
	}
}

void
feature_desc_auxtrace(struct feat_desc *d)
{
	feat_rowf(d, "", "contains AUX area data (e.g. instruction trace)", "", NULL);
}

void
feature_desc_stat(struct feat_desc *d)
{
	feat_rowf(d, "", "contains stat data", "", NULL);
}

void
feature_desc_cache(struct feat_desc *d)
{
	feat_rowf(d, "", "CPU cache info:", "", NULL);
	for (uint32_t i = 0; i < d->f->ncaches; i++) {
		const struct feat_cache *c = &d->f->caches[i];
		struct feat_str l = { NULL, 0, 0 };

		feat_str_addf(&l, "L%d %-15s", (int)c->level, feat_esc(d, c->type));
		feat_row_take(d, " ", feat_str_take(&l), " ", NULL);
		feat_str_addf(&l, "%8s [%s]", feat_esc(d, c->size), feat_esc(d, c->map));
		d->out->v[d->out->n - 1].value = feat_str_take(&l);
	}
}

void
feature_desc_sample_time(struct feat_desc *d)
{
	const struct features *f = d->f;
	char b[32];

	text_time_us(b, sizeof b, f->sample_time_first);
	feat_rowf(d, "", "time of first sample", " : ", "%s", b);
	text_time_us(b, sizeof b, f->sample_time_last);
	feat_rowf(d, "", "time of last sample", " : ", "%s", b);
	feat_rowf(d, "", "sample duration", " : ", "%10.3f ms",
	    (double)(f->sample_time_last - f->sample_time_first) / 1e6);
}

void
feature_desc_mem_topology(struct feat_desc *d)
{
	const struct features *f = d->f;
	char head[96];

	snprintf(head, sizeof head, "memory nodes (nr %d, block size 0x%" PRIx64 "):",
	    (int)f->topo.nmem_nodes, f->topo.mem_block_size);
	feat_rowf(d, "", head, "", NULL);
	for (uint64_t i = 0; i < f->topo.nmem_nodes; i++) {
		const struct feat_mem_node *n = &f->topo.mem_nodes[i];
		uint64_t weight = 0;
		char size[50], map[100], nm[96];

		for (uint64_t b = 0; b < n->nbits; b++)
			weight += bit_set(n->bits, b);
		unit_number(size, sizeof size, f->topo.mem_block_size * weight);
		snprint_bitmap(map, sizeof map, n->bits, n->nbits);
		snprintf(nm, sizeof nm, "%3" PRIu64 " [%s]", n->node, size);
		feat_rowf(d, " ", nm, ": ", "%s", map);
	}
}

void
feature_desc_clockid(struct feat_desc *d)
{
	feat_rowf(d, "", "clockid frequency", ": ", "%" PRIu64 " MHz", d->f->clockid_res_ns * 1000);
}

void
feature_desc_dir_format(struct feat_desc *d)
{
	feat_rowf(d, "", "directory data version", " : ", "%" PRIu64, d->f->dir_format_version);
}

void
feature_desc_bpf_progs(struct feat_desc *d)
{
	const struct features *f = d->f;
	char name[512], nm[48];

	for (uint32_t i = 0; i < f->bpf.nbpf_progs; i++) {
		const struct feat_bpf_prog *p = &f->bpf.bpf_progs[i];

		if (!p->printable)
			continue;
		snprintf(nm, sizeof nm, "bpf_prog_info %" PRIu32 "%s", p->id, p->nsubs == 1 ? "" : ":");
		if (p->nsubs == 1) {
			features_bpf_prog_name(f, p, 0, name, sizeof name);
			feat_rowf(d, "", nm, ": ", "%s addr 0x%" PRIx64 " size %" PRIu32,
			    feat_esc(d, name), p->subs[0].addr, p->subs[0].len);
			continue;
		}
		feat_rowf(d, "", nm, "", NULL);
		for (uint32_t k = 0; k < p->nsubs; k++) {
			features_bpf_prog_name(f, p, k, name, sizeof name);
			snprintf(nm, sizeof nm, "sub_prog %" PRIu32, k);
			feat_rowf(d, "\t", nm, ": ", "%s addr 0x%" PRIx64 " size %" PRIu32,
			    feat_esc(d, name), p->subs[k].addr, p->subs[k].len);
		}
	}
}

void
feature_desc_btf(struct feat_desc *d)
{
	for (uint32_t i = 0; i < d->f->bpf.nbtfs; i++) {
		char nm[48];

		snprintf(nm, sizeof nm, "btf info of id %" PRIu32, d->f->bpf.btfs[i].id);
		feat_rowf(d, "", nm, "", NULL);
	}
}

void
feature_desc_compressed(struct feat_desc *d)
{
	feat_rowf(d, "", "compressed", " : ", "%s, level = %d, ratio = %d",
	    d->f->comp.comp_type == 1 ? "Zstd" : "Unknown", (int)d->f->comp.comp_level,
	    (int)d->f->comp.comp_ratio);
}

static void
caps(struct feat_desc *d, const struct feat_pmu_caps *p, const char *pmu)
{
	struct feat_str s = { NULL, 0, 0 };

	feat_str_addf(&s, "%s pmu capabilities", feat_esc(d, pmu));
	if (p->nr_caps == 0) {
		feat_row_take(d, "", feat_str_take(&s), ": ", xstrdup("not available"));
		return;
	}
	feat_row_take(d, "", feat_str_take(&s), ": ", NULL);
	for (uint32_t i = 0; i < p->nr_caps; i++)
		feat_str_addf(&s, "%s%s", i ? ", " : "", feat_esc(d, p->caps[i]));
	d->out->v[d->out->n - 1].value = feat_str_take(&s);
}

void
feature_desc_cpu_pmu_caps(struct feat_desc *d)
{
	caps(d, &d->f->cpu_pmu_caps, "cpu");
}

void
feature_desc_pmu_caps(struct feat_desc *d)
{
	for (uint32_t i = 0; i < d->f->npmu_caps; i++)
		caps(d, &d->f->pmu_caps[i], d->f->pmu_caps[i].pmu_name);
}

void
feature_desc_clock_data(struct feat_desc *d)
{
	const struct features *f = d->f;
	uint64_t tod = f->clock.clock_data_tod_ns, cns = f->clock.clock_data_clockid_ns;
	time_t sec = (time_t)(tod / 1000000000);
	long usec = (long)(tod % 1000000000 / 1000);
	const char *cname = names_clockid(f->clock.clock_data_clockid);
	char date[64], tstr[96];
	struct tm tm;

	if (localtime_r(&sec, &tm) == NULL) {
		snprintf(tstr, sizeof tstr, "<error>");
	} else {
		strftime(date, sizeof date, "%F %T", &tm);
		snprintf(tstr, sizeof tstr, "%s.%06ld", date, usec);
	}
	feat_rowf(d, "", "clockid", ": ", "%s (%" PRIu32 ")", cname, f->clock.clock_data_clockid);
	feat_rowf(d, "", "reference time", ": ", "%s = %ld.%06ld (TOD) = %ld.%09ld (%s)", tstr,
	    (long)sec, usec, (long)(cns / 1000000000), (long)(cns % 1000000000), cname);
}

void
feature_desc_hybrid(struct feat_desc *d)
{
	feat_rowf(d, "", "hybrid cpu system:", "", NULL);
	for (uint32_t i = 0; i < d->f->topo.nhybrid; i++) {
		struct feat_str s = { NULL, 0, 0 };

		feat_str_addf(&s, "%s cpu list", feat_esc(d, d->f->topo.hybrid[i].pmu_name));
		feat_row_take(d, "", feat_str_take(&s), " : ",
		    xstrdup(feat_esc(d, d->f->topo.hybrid[i].cpus)));
	}
}

/* perf's lines: the version and the largest domain, then each cpu's domains. */
void
feature_desc_cpu_domain(struct feat_desc *d)
{
	const struct features *f = d->f;
	bool named = f->topo.schedstat_version >= 17;

	feat_rowf(d, "", "schedstat version", "\t: ", "%" PRIu32, f->topo.schedstat_version);
	feat_rowf(d, "", "Maximum sched domains", "\t: ", "%" PRIu32, f->topo.max_sched_domains);
	for (uint32_t i = 0; i < f->topo.ndomains; i++) {
		const struct feat_domain *dm = &f->topo.domains[i];

		if (i == 0 || dm->cpu != f->topo.domains[i - 1].cpu) {
			uint32_t n = 0;

			while (i + n < f->topo.ndomains && f->topo.domains[i + n].cpu == dm->cpu)
				n++;
			feat_rowf(d, "", "cpu", "\t\t: ", "%" PRIu32, dm->cpu);
			feat_rowf(d, "", "nr_domains", "\t: ", "%" PRIu32, n);
		}
		feat_rowf(d, "", "Domain", "\t\t: ", "%" PRIu32, dm->domain);
		if (named)
			feat_rowf(d, "", "Domain name", "      : ", "%s", feat_esc(d, dm->dname));
		feat_rowf(d, "", "Domain cpu map", "   : ", "%s", feat_esc(d, dm->cpumask));
		feat_rowf(d, "", "Domain cpu list", "  : ", "%s", feat_esc(d, dm->cpulist));
	}
}

/* A few ELF machines by name (<elf.h> numbers), others by number only. */
static const char *
elf_machine_name(uint32_t m)
{
	switch (m) {
	case 3:
		return "i386";
	case 8:
		return "mips";
	case 20:
		return "powerpc";
	case 21:
		return "powerpc64";
	case 22:
		return "s390";
	case 40:
		return "arm";
	case 62:
		return "x86_64";
	case 183:
		return "aarch64";
	case 243:
		return "riscv";
	case 258:
		return "loongarch";
	default:
		return NULL;
	}
}

/* perfnav's lines (perf 6.18 has no E_MACHINE to print). */
void
feature_desc_e_machine(struct feat_desc *d)
{
	const char *n = elf_machine_name(d->f->e_machine);

	if (n != NULL)
		feat_rowf(d, "", "e_machine", " : ", "%" PRIu32 " (%s)", d->f->e_machine, n);
	else
		feat_rowf(d, "", "e_machine", " : ", "%" PRIu32, d->f->e_machine);
	feat_rowf(d, "", "e_flags", " : ", "%#" PRIx32, d->f->e_flags);
}

void
feature_desc_cln_size(struct feat_desc *d)
{
	feat_rowf(d, "", "cache line size", " : ", "%" PRIu64, d->f->cln_size);
}

/* ---- perfnav's own rows ---- */

void
feature_notes_build_ids(struct feat_desc *d)
{
	if (!d->f->sec[PF_FEAT_BUILD_ID].present && d->f->n_build_ids == 0)
		return;
	feat_rowf(d, "  ", "build ids", ": ", "%zu", d->f->n_build_ids);
	/* each whole, as perf buildid-list prints them: the id's hex, then its file */
	for (size_t i = 0; i < d->f->n_build_ids; i++) {
		const struct feat_build_id *b = &d->f->build_ids[i];
		char hex[2 * sizeof b->id + 1];
		size_t n = b->id_len <= sizeof b->id ? b->id_len : sizeof b->id;

		for (size_t k = 0; k < n; k++)
			snprintf(hex + 2 * k, 3, "%02x", b->id[k]);
		hex[2 * n] = '\0';
		feat_rowf(d, "    ", "build id", " ", "%s %s", hex,
		    b->filename ? feat_esc(d, b->filename) : "?");
	}
}

void
feature_notes_tracing(struct feat_desc *d)
{
	if (d->f->sec[PF_FEAT_TRACING_DATA].present)
		feat_rowf(d, "  ", "tracing data", ": ", "version %s, %" PRIu32 " tracepoint formats",
		    d->f->tracing_version ? feat_esc(d, d->f->tracing_version) : "?",
		    d->f->ntracepoints);
}

void
feature_notes_bpf_progs(struct feat_desc *d)
{
	if (d->f->sec[PF_FEAT_BPF_PROG_INFO].present)
		feat_rowf(d, "  ", "bpf programs", ": ", "%" PRIu32 " announced, %" PRIu32 " decoded",
		    d->f->bpf.bpf_prog_count, d->f->bpf.nbpf_progs);
}

void
feature_notes_btf(struct feat_desc *d)
{
	if (d->f->sec[PF_FEAT_BPF_BTF].present)
		feat_rowf(d, "  ", "btf blobs", ": ", "%" PRIu32 " announced, %" PRIu32 " decoded",
		    d->f->bpf.btf_count, d->f->bpf.nbtfs);
}

void
feature_notes_auxtrace(struct feat_desc *d)
{
	if (d->f->sec[PF_FEAT_AUXTRACE].present)
		feat_rowf(d, "  ", "auxtrace index", ": ", "%" PRIu64 " entries", d->f->nauxtrace);
}
