/*
 * script_brmem.h: perf script's branch stack and memory fields
 * (-F brstack, brstacksym, data_src, weight, phys_addr, data_page_size)
 * as perf 6.1 prints them, for tui/cmd/cmd_script.c.  A sample without the
 * field's bit prints nothing for it (perf refuses such a -F).
 */
#ifndef PERFNAV_TUI_CMD_SCRIPT_BRMEM_H
#define PERFNAV_TUI_CMD_SCRIPT_BRMEM_H

#include <stdbool.h>

#include "core/core.h"
#include "symbolize/symbolizer.h"
#include "tui/cmd/fmt.h"

/*
 * data_src: the value ("%16x") and its words, padded to the longest such
 * text so far (*maxlen, 0 at the start), as perf pads it; weight ("%16u").
 */
void script_data_src(struct fmt *b, const struct sample *smp, int *maxlen);
void script_weight(struct fmt *b, const struct sample *smp);
/*
 * The branch stack: per entry " 0xFROM/0xTO/P/-/-/CYCLES/TYPE " (brstack),
 * or "FROM_SYM+0xOFF/TO_SYM+0xOFF/P/-/-/CYCLES/TYPE " (brstacksym, names
 * escaped, "[unknown]" for none; each address resolved in the sample's
 * cpumode, then in its own); with dso each end's DSO after it,
 * "0x400100(/usr/lib/libc.so.6)", as -F ...,dso prints it.
 */
void script_brstack(struct fmt *b, struct symbolizer *z, const struct sample *smp,
    uint8_t cpumode, bool sym, bool dso);
/* phys_addr ("%16x"), data_page_size (" 4K"). */
void script_phys_addr(struct fmt *b, const struct sample *smp);
void script_page_size(struct fmt *b, const struct sample *smp);

#endif
