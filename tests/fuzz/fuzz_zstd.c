/*
 * fuzz_zstd.c: PERF_RECORD_COMPRESSED decompression.  The input is a flag
 * byte (bit 0: COMPRESSED2 records, with their data size, instead of
 * COMPRESSED) and then zstd data cut at each FUZZ_SEP into the payloads of
 * successive records (a payload too big for one record continues in the
 * next, as perf's stream would); they go into a small file-mode recording
 * made here (one cpu-clock event with callchains, as tests/data/zstd.data
 * has), which is loaded with its index and read back.
 */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "tests/fuzz/fuzz.h"
#include "tests/helpers.h"

/* Payload bytes of one record at most: header.size is a u16, and a
 * COMPRESSED2 record pads its payload to 8 bytes after a 16-byte start. */
#define PAYLOAD_MAX	(65536 - 24)

/* A record header, in the host's byte order as the rest. */
static void
put_hdr(struct pdbuf *o, uint32_t type, uint16_t misc, uint16_t size)
{
	pd_u32(o, type);
	pd_u16(o, misc);
	pd_u16(o, size);
}

/* Header, one attr with ids 3441 and 3442, a COMM: the data section starts
 * at 264 (as in zstd.data). */
static void
head(struct pdbuf *o)
{
	struct perf_event_attr a;
	static const char comm[16] = "cpu";

	pd_u64(o, PERF_MAGIC2);
	pd_u64(o, sizeof(struct pf_header));
	pd_u64(o, sizeof a + 16);			/* attr_size */
	pd_u64(o, 104);					/* attrs */
	pd_u64(o, sizeof a + 16);
	pd_u64(o, 264);					/* data, size patched */
	pd_u64(o, 0);
	pd_u64(o, 0);					/* event_types */
	pd_u64(o, 0);
	for (int i = 0; i < 4; i++)
		pd_u64(o, 0);				/* no feature sections */
	memset(&a, 0, sizeof a);
	a.type = PERF_TYPE_SOFTWARE;
	a.size = sizeof a;
	a.config = PERF_COUNT_SW_CPU_CLOCK;
	a.sample_freq = 2000;
	a.freq = 1;
	a.sample_type = PERF_SAMPLE_IP | PERF_SAMPLE_TID | PERF_SAMPLE_TIME |
	    PERF_SAMPLE_CALLCHAIN | PERF_SAMPLE_PERIOD;
	a.read_format = PERF_FORMAT_ID | PERF_FORMAT_LOST;
	a.mmap = a.comm = a.sample_id_all = a.mmap2 = a.comm_exec = 1;
	pd_bytes(o, &a, sizeof a);
	pd_u64(o, 104 + sizeof a + 16);			/* ids */
	pd_u64(o, 16);
	pd_u64(o, 3441);
	pd_u64(o, 3442);
	/* COMM cpu 26134/26134, sample_id_all trailer (tid, time). */
	put_hdr(o, PF_REC_COMM, PERF_RECORD_MISC_COMM_EXEC, 8 + 8 + 16 + 16);
	pd_u64(o, (uint64_t)26134 << 32 | 26134);
	pd_bytes(o, comm, sizeof comm);
	pd_u64(o, (uint64_t)26134 << 32 | 26134);
	pd_u64(o, 1);
}

static void
compressed(struct pdbuf *o, bool v2, const uint8_t *p, size_t n)
{
	static const uint8_t zero[8];

	if (v2) {
		size_t pad = (8 - n % 8) % 8;

		put_hdr(o, PF_REC_COMPRESSED2, 0, (uint16_t)(16 + n + pad));
		pd_u64(o, n);
		pd_bytes(o, p, n);
		pd_bytes(o, zero, pad);
	} else {
		put_hdr(o, PF_REC_COMPRESSED, 0, (uint16_t)(8 + n));
		pd_bytes(o, p, n);
	}
	put_hdr(o, PF_REC_FINISHED_ROUND, 0, 8);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct session_mem parts[64], mem;
	struct pdbuf o = { NULL, 0, 0, false };
	struct perf_err err;
	struct session *s;
	size_t nparts;
	bool v2;
	uint64_t data_size;

	if (size < 1)
		return 0;
	v2 = data[0] & 1;
	nparts = fuzz_split(data + 1, size - 1, parts, 64);
	head(&o);
	for (size_t i = 0; i < nparts; i++) {
		const uint8_t *p = parts[i].base;
		size_t left = parts[i].size;

		do {
			size_t n = left < PAYLOAD_MAX ? left : PAYLOAD_MAX;

			compressed(&o, v2, p, n);
			p += n;
			left -= n;
		} while (left > 0);
	}
	data_size = o.len - 264;
	pd_put64(&o, 48, data_size);
	mem.base = o.p;
	mem.size = o.len;
	s = session_open_mem("zstd", &mem, 1, NULL, &err);
	if (s == NULL)
		abort();	/* the header made here is valid */
	for (size_t i = 0; i < session_index(s)->n; i++) {
		const struct rec_ent *e = index_ent(session_index(s), i);
		struct sample smp;
		const char *why;
		struct rec r;

		if (session_rec(s, ent_loc(e), &r) < 0)
			abort();
		if (ent_loc(e) >= SESSION_ZLOC && session_zorigin(s, ent_loc(e)) == NULL)
			abort();
		if (r.type == PF_REC_SAMPLE && record_decode_sample(session_attrs(s), &r, &smp, &why) == 0)
			fuzz_use(smp.ip + smp.callchain_nr);
	}
	session_close(s);
	free(o.p);
	return 0;
}
