/*
 * fuzz_feature.c: one header feature section through feature_decode() and
 * what core does with the result (names of tracepoints and BPF programs,
 * EVENT_DESC given to an attr table, features_free()).  Input: a byte
 * choosing the feature bit (low 6 bits, modulo 33: 0..31 and pipe mode's
 * end marker), the byte order (bit 6) and a second decoding of the same
 * section (bit 7, as a repeated HEADER_FEATURE record does); a byte
 * choosing the attr table (0: none, as in pipe mode; 1: empty, EVENT_DESC
 * then adds its events; 2, 3: two events with ids 1..4); the section.
 */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "tests/fuzz/fuzz.h"

static void
two_attrs(struct attr_table *t)
{
	struct perf_event_attr a;

	memset(&a, 0, sizeof a);
	a.type = PERF_TYPE_SOFTWARE;
	a.size = sizeof a;
	a.sample_type = PERF_SAMPLE_IP | PERF_SAMPLE_TID | PERF_SAMPLE_ID;
	a.sample_id_all = 1;
	for (uint32_t i = 0; i < 2; i++) {
		uint32_t idx;

		a.config = i;
		idx = attr_table_add(t, &a, sizeof a, 0);
		attr_table_add_id(t, idx, 1 + 2 * i);
		attr_table_add_id(t, idx, 2 + 2 * i);
	}
	attr_table_finish(t);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct features f;
	struct attr_table t;
	struct diag_list diags;
	unsigned bit;
	bool swap, twice;
	int tab;
	char name[256];

	if (size < 2)
		return 0;
	bit = (data[0] & 0x3f) % (PF_FEAT_LAST_KNOWN + 2);
	swap = data[0] & 0x40;
	twice = data[0] & 0x80;
	tab = data[1] & 3;
	memset(&f, 0, sizeof f);
	memset(&t, 0, sizeof t);
	memset(&diags, 0, sizeof diags);
	if (tab >= 2)
		two_attrs(&t);
	for (int k = 0; k < 1 + twice; k++)
		feature_decode(&f, bit, data + 2, size - 2, swap, 0x1000, tab ? &t : NULL, &diags);
	if (tab == 1) {
		features_apply_event_desc(&f, &t, true);
		attr_table_finish(&t);
	}
	if (!f.sec[bit].present || feat_status_name(f.sec[bit].status) == NULL)
		abort();
	if ((f.sec[bit].status == FEAT_MISSING || f.sec[bit].status == FEAT_SIZE_MISMATCH ||
	    f.sec[bit].status == FEAT_UNDECODABLE) && f.sec[bit].why == NULL)
		abort();	/* damage says why */
	for (uint32_t i = 0; i < f.ntracepoints; i++)
		if (features_tracepoint_name(&f, f.tracepoints[i].id) == NULL)
			abort();
	for (uint32_t i = 0; i < f.bpf.nbpf_progs; i++)
		for (uint32_t k = 0; k <= f.bpf.bpf_progs[i].nsubs; k++) {
			features_bpf_prog_name(&f, &f.bpf.bpf_progs[i], k, name, sizeof name);
			fuzz_use(strlen(name));
		}
	for (size_t i = 0; i < t.n; i++)
		fuzz_use(t.v[i].name != NULL ? strlen(t.v[i].name) : 0);
	fuzz_use(feat_name(bit) != NULL);
	features_free(&f);
	attr_table_free(&t);
	diag_free(&diags);
	return 0;
}
