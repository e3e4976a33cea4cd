/*
 * memsrc.h: a memory sample's DATA_SRC (union perf_mem_data_src) in
 * words, as perf report's memory columns (--mem-mode: mem, tlb, snoop,
 * locked, blocked) and perf script's data_src field print it, and a
 * DATA_PAGE_SIZE as perf names it ("4K").  Pure functions of the value.
 */
#ifndef PERFNAV_SYMBOLIZE_MEMSRC_H
#define PERFNAV_SYMBOLIZE_MEMSRC_H

#include <stddef.h>
#include <stdint.h>

/* The bits of each part of the value (the host's layout, as the kernel writes it). */
#define MEMSRC_OP	UINT64_C(0x000000000000001f)	/* mem_op */
#define MEMSRC_LVL	UINT64_C(0x000000000007ffe0)	/* mem_lvl */
#define MEMSRC_SNOOP	UINT64_C(0x0000000000f80000)	/* mem_snoop */
#define MEMSRC_LOCK	UINT64_C(0x0000000003000000)	/* mem_lock */
#define MEMSRC_DTLB	UINT64_C(0x00000001fc000000)	/* mem_dtlb */
#define MEMSRC_LVLNUM	UINT64_C(0x0000001e00000000)	/* mem_lvl_num */
#define MEMSRC_REMOTE	UINT64_C(0x0000002000000000)	/* mem_remote */
#define MEMSRC_SNOOPX	UINT64_C(0x000000c000000000)	/* mem_snoopx */
#define MEMSRC_BLK	UINT64_C(0x0000070000000000)	/* mem_blk */
#define MEMSRC_HOPS	UINT64_C(0x0000380000000000)	/* mem_hops */

/* Each returns buf: the words perf prints for that part of v. */
const char *memsrc_op(uint64_t v, char *buf, size_t n);
const char *memsrc_lvl(uint64_t v, char *buf, size_t n);	/* "L1 hit", "N/A or N/A" */
const char *memsrc_snoop(uint64_t v, char *buf, size_t n);
const char *memsrc_tlb(uint64_t v, char *buf, size_t n);
const char *memsrc_lock(uint64_t v, char *buf, size_t n);
const char *memsrc_blk(uint64_t v, char *buf, size_t n);	/* " N/A", " Data Addr" */
/* perf script's: "|OP LOAD|LVL L1 hit|SNP None|TLB L1 or L2 hit|LCK No|BLK  N/A". */
const char *memsrc_text(uint64_t v, char *buf, size_t n);
/* perf's page size name: "N/A" for 0, else the size in B, K, M or G ("4K", "1024M"). */
const char *memsrc_page_size(uint64_t size, char *buf, size_t n);

#endif
