#include "config.h"

#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "symbolize/brhist.h"
#include "symbolize/memsrc.h"
#include "tui/cmd/script_brmem.h"
#include "tui/cmd/textout.h"

void
script_data_src(struct fmt *b, const struct sample *smp, int *maxlen)
{
	char words[128], out[100];
	int len;

	if (!(smp->sample_type & PERF_SAMPLE_DATA_SRC))
		return;
	/* perf writes value and words into 100 bytes: a long text is cut */
	len = snprintf(out, sizeof out, "%16" PRIx64 " %s", smp->data_src,
	    memsrc_text(smp->data_src, words, sizeof words));
	if (len > (int)sizeof out - 1)
		len = (int)sizeof out - 1;
	if (len > *maxlen)
		*maxlen = len;
	fmt_printf(b, "%-*s", *maxlen, out);
}

void
script_weight(struct fmt *b, const struct sample *smp)
{
	if (!(smp->sample_type & (PERF_SAMPLE_WEIGHT | PERF_SAMPLE_WEIGHT_STRUCT)))
		return;
	fmt_printf(b, "%16" PRIu64, smp->weight);
}

void
script_phys_addr(struct fmt *b, const struct sample *smp)
{
	if (!(smp->sample_type & PERF_SAMPLE_PHYS_ADDR))
		return;
	fmt_printf(b, "%16" PRIx64, smp->phys_addr);
}

void
script_page_size(struct fmt *b, const struct sample *smp)
{
	char buf[32];

	if (!(smp->sample_type & PERF_SAMPLE_DATA_PAGE_SIZE))
		return;
	fmt_printf(b, " %s", memsrc_page_size(smp->data_page_size, buf, sizeof buf));
}

/*
 * addr resolved as perf script resolves a branch address: in the sample's
 * cpumode, then, if no map has it, in the mode of the address (kernel for
 * the top half).
 */
static void
branch_frame(struct symbolizer *z, const struct sample *smp, uint8_t cpumode, uint64_t addr,
    struct frame *f)
{
	uint8_t by_addr = (addr >> 63) ? PERF_RECORD_MISC_KERNEL : PERF_RECORD_MISC_USER;

	symbolizer_resolve(z, (int32_t)smp->pid, (int32_t)smp->tid, smp->time, cpumode, addr, f);
	if (f->dso == DSO_NONE && by_addr != cpumode)
		symbolizer_resolve(z, (int32_t)smp->pid, (int32_t)smp->tid, smp->time, by_addr, addr,
		    f);
}

/* One end of a branch: its address or symbol name, and with dso its DSO in parentheses. */
static void
branch_end(struct fmt *b, struct symbolizer *z, const struct sample *smp, uint8_t cpumode,
    uint64_t addr, bool sym, bool dso)
{
	struct frame f;

	if (sym || dso)
		branch_frame(z, smp, cpumode, addr, &f);
	if (sym && f.sym != SYM_NONE) {
		textout_fmt(b, symbolizer_sym_name(z, f.sym));
		fmt_printf(b, "+0x%" PRIx64, f.symoff);
	} else if (sym)
		fmt_str(b, "[unknown]");
	else
		fmt_printf(b, "0x%" PRIx64, addr);
	if (dso) {
		fmt_char(b, '(');
		textout_fmt(b, f.dso != DSO_NONE ? symbolizer_dso_long(z, f.dso) : "[unknown]");
		fmt_char(b, ')');
	}
}

void
script_brstack(struct fmt *b, struct symbolizer *z, const struct sample *smp, uint8_t cpumode,
    bool sym, bool dso)
{
	for (uint64_t i = 0; smp->branch != NULL && i < smp->branch_nr; i++) {
		struct branch_ent be = sample_branch(smp, i);
		uint64_t fl = be.flags;

		if (!sym)
			fmt_char(b, ' ');
		branch_end(b, z, smp, cpumode, be.from, sym, dso);
		fmt_char(b, '/');
		branch_end(b, z, smp, cpumode, be.to, sym, dso);
		fmt_printf(b, "/%c/%c/%c/%u/%s ", BRF_MISPRED(fl) ? 'M' : BRF_PREDICTED(fl) ? 'P' : '-',
		    BRF_IN_TX(fl) ? 'X' : '-', BRF_ABORT(fl) ? 'A' : '-', BRF_CYCLES(fl),
		    BRF_TYPE(fl) ? br_type_name(BRF_TYPE(fl)) : "");
	}
}
