/*
 * perf_file.h: the on-disk layout of perf.data (file, pipe and directory
 * mode) and the tables that must stay in step with it: record types,
 * header feature bits.  The kernel ABI (struct perf_event_attr,
 * PERF_SAMPLE_*, PERF_RECORD_* up to 21) comes from <linux/perf_event.h>, what it added
 * since (CALLCHAIN_DEFERRED, PERF_CONTEXT_USER_DEFERRED) is defined here;
 * what the perf tool itself adds (record types 64 and up, the file header,
 * feature sections) is described here.
 *
 * These structs describe bytes only: never read a field directly from a
 * mapped file, go through bytes.h with the session's swap flag.
 */
#ifndef PERFNAV_CORE_PERF_FILE_H
#define PERFNAV_CORE_PERF_FILE_H

#include <stdint.h>
#include <linux/perf_event.h>

/* "PERFILE2" as a little-endian u64, and the same bytes read by a host of
 * the other byte order. */
#define PERF_MAGIC2		0x32454c4946524550ULL
#define PERF_MAGIC2_SWAPPED	0x50455246494c4532ULL
/* perf 2.6.3x's "PERFFILE" magic (version 1): recognised to say so. */
#define PERF_MAGIC1		0x454c494646524550ULL

struct pf_section {
	uint64_t offset;
	uint64_t size;
};
_Static_assert(sizeof(struct pf_section) == 16, "perf_file_section");

/* The file-mode header.  Older perf wrote a shorter header (header.size
 * tells); the feature bitmap follows event_types. */
struct pf_header {
	uint64_t		magic;
	uint64_t		size;		/* size of this header */
	uint64_t		attr_size;	/* stride of one attrs entry */
	struct pf_section	attrs;
	struct pf_section	data;
	struct pf_section	event_types;
	uint64_t		features[4];	/* 256 feature bits */
};
_Static_assert(sizeof(struct pf_header) == 104, "perf_file_header");

/* Offset of the feature bitmap inside the header. */
#define PF_HEADER_FEATURES_OFF	72

/* Pipe mode header: magic + size (16). */
struct pf_pipe_header {
	uint64_t magic;
	uint64_t size;
};
_Static_assert(sizeof(struct pf_pipe_header) == 16, "perf_pipe_file_header");

/* Every record starts with this. */
struct pf_event_header {
	uint32_t type;
	uint16_t misc;
	uint16_t size;
};
_Static_assert(sizeof(struct pf_event_header) == 8, "perf_event_header");

/* The first attr_size perf ever wrote (PERF_ATTR_SIZE_VER0). */
#define PF_ATTR_SIZE_VER0	64
/* The smallest attr we can use: type, size, config, period, sample_type,
 * read_format and the bitfield word. */
#define PF_ATTR_SIZE_VER0_MIN	48
/* One event_types entry: u64 event_id + char name[64]. */
#define PF_EVENT_TYPE_NAME_LEN	64
#define PF_EVENT_TYPE_SIZE	(8 + PF_EVENT_TYPE_NAME_LEN)

/* PERF_RECORD_MISC_* bits beyond the kernel header's. */
#ifndef PERF_RECORD_MISC_MMAP_BUILD_ID
#define PERF_RECORD_MISC_MMAP_BUILD_ID	(1 << 14)
#endif

/*
 * Record types: X(value, NAME) where NAME is what perf prints after
 * PERF_RECORD_ in "perf report -D" and before " events" in --stats.
 */
#define PF_RECORD_TYPES(X) \
	X(1, MMAP) \
	X(2, LOST) \
	X(3, COMM) \
	X(4, EXIT) \
	X(5, THROTTLE) \
	X(6, UNTHROTTLE) \
	X(7, FORK) \
	X(8, READ) \
	X(9, SAMPLE) \
	X(10, MMAP2) \
	X(11, AUX) \
	X(12, ITRACE_START) \
	X(13, LOST_SAMPLES) \
	X(14, SWITCH) \
	X(15, SWITCH_CPU_WIDE) \
	X(16, NAMESPACES) \
	X(17, KSYMBOL) \
	X(18, BPF_EVENT) \
	X(19, CGROUP) \
	X(20, TEXT_POKE) \
	X(21, AUX_OUTPUT_HW_ID) \
	X(22, CALLCHAIN_DEFERRED) \
	X(64, ATTR) \
	X(65, EVENT_TYPE) \
	X(66, TRACING_DATA) \
	X(67, BUILD_ID) \
	X(68, FINISHED_ROUND) \
	X(69, ID_INDEX) \
	X(70, AUXTRACE_INFO) \
	X(71, AUXTRACE) \
	X(72, AUXTRACE_ERROR) \
	X(73, THREAD_MAP) \
	X(74, CPU_MAP) \
	X(75, STAT_CONFIG) \
	X(76, STAT) \
	X(77, STAT_ROUND) \
	X(78, EVENT_UPDATE) \
	X(79, TIME_CONV) \
	X(80, FEATURE) \
	X(81, COMPRESSED) \
	X(82, FINISHED_INIT) \
	X(83, COMPRESSED2) \
	X(84, BPF_METADATA) \
	X(85, SCHEDSTAT_CPU) \
	X(86, SCHEDSTAT_DOMAIN)

enum pf_record_type {
#define X(v, n) PF_REC_##n = v,
	PF_RECORD_TYPES(X)
#undef X
	PF_REC_MAX_KNOWN = 87,
};

/*
 * A sample whose user callchain the kernel deferred ends its callchain with
 * this marker and a cookie; the PERF_RECORD_CALLCHAIN_DEFERRED of the same
 * thread that follows carries the cookie and the user callchain.
 */
#define PF_CONTEXT_USER_DEFERRED	((uint64_t)-640)

/*
 * perf ends a pipe's HEADER_FEATURE records with an empty one of bit
 * HEADER_LAST_FEATURE, which each perf version puts one past its last
 * feature: 32 for perf 6.1 to 6.18 (CPU_DOMAIN_INFO since).  An empty
 * section of a bit from this one up is that marker.
 */
#define PF_FEAT_FIRST_END_MARKER	32

/* First type the perf tool (not the kernel) defines. */
#define PF_REC_USER_TYPE_START	64

/*
 * Header feature bits: X(bit, NAME).  NAME is perf's HEADER_<NAME>.
 */
#define PF_FEATURES(X) \
	X(1, TRACING_DATA) \
	X(2, BUILD_ID) \
	X(3, HOSTNAME) \
	X(4, OSRELEASE) \
	X(5, VERSION) \
	X(6, ARCH) \
	X(7, NRCPUS) \
	X(8, CPUDESC) \
	X(9, CPUID) \
	X(10, TOTAL_MEM) \
	X(11, CMDLINE) \
	X(12, EVENT_DESC) \
	X(13, CPU_TOPOLOGY) \
	X(14, NUMA_TOPOLOGY) \
	X(15, BRANCH_STACK) \
	X(16, PMU_MAPPINGS) \
	X(17, GROUP_DESC) \
	X(18, AUXTRACE) \
	X(19, STAT) \
	X(20, CACHE) \
	X(21, SAMPLE_TIME) \
	X(22, MEM_TOPOLOGY) \
	X(23, CLOCKID) \
	X(24, DIR_FORMAT) \
	X(25, BPF_PROG_INFO) \
	X(26, BPF_BTF) \
	X(27, COMPRESSED) \
	X(28, CPU_PMU_CAPS) \
	X(29, CLOCK_DATA) \
	X(30, HYBRID_TOPOLOGY) \
	X(31, PMU_CAPS) \
	X(32, CPU_DOMAIN_INFO) \
	X(33, E_MACHINE) \
	X(34, CLN_SIZE)

enum pf_feature {
#define X(v, n) PF_FEAT_##n = v,
	PF_FEATURES(X)
#undef X
	PF_FEAT_LAST_KNOWN = 34,
	/* perfnav's own (perfnav merge: core/origin.h), far above perf's: perf
	 * counts a section it does not know and skips it */
	PF_FEAT_PERFNAV_ORIGINS = 255,
	PF_FEAT_BITS = 256,
};

#endif
