/*
 * merge.h: several recordings written as one file-mode perf.data (perfnav
 * merge), each input's records after the one before, and a section
 * naming which data bytes came from which input (core/origin.h).
 *
 * What the output holds:
 *  - attrs paired by event name (the k-th attr of a name in an input pairs
 *    with the k-th of that name in the others); an event of some inputs
 *    only is kept too; each merged attr's id list is the union of its
 *    inputs' ids.  Inputs whose events of one name differ in sample_type,
 *    read_format or sample_id_all, whose sample ids clash (one id, two
 *    events), whose byte orders differ, or whose events perf could not tell
 *    apart in one file (the id's place in samples differs) are refused,
 *    the message naming the input;
 *  - the data section: every input's records as carve_write() copies them
 *    (decompressed, the header's records left out), input after input, in
 *    each input's own order, a FINISHED_ROUND after each; timestamps are
 *    kept as recorded (inputs taken at other times stay at their times);
 *  - the feature sections: SAMPLE_TIME (first and last sample of all),
 *    EVENT_DESC (the merged attrs' names and ids) and BUILD_ID (every
 *    input's entries) written anew; COMPRESSED, DIR_FORMAT, AUXTRACE and
 *    the inputs' own origins sections dropped; GROUP_DESC kept when every
 *    input has the same (event groups are of each input); any other section copied
 *    from the first input that has it (the host's sections are the first
 *    input's); PERFNAV_ORIGINS: each input's name and data bytes.
 *
 * Nothing here prints.  Damage in an input is what loading it said (its
 * session's diagnostics): the records it could load are merged.
 */
#ifndef PERFNAV_CORE_MERGE_H
#define PERFNAV_CORE_MERGE_H

#include <stddef.h>
#include <stdint.h>

#include "core/err.h"

struct session;

struct merge_input {
	const struct session	*s;
	const char		*name;	/* in messages and the origins section */
};

struct merge_result {
	uint64_t	samples;	/* samples written */
	uint64_t	records;	/* records written */
	uint64_t	size;		/* bytes of the file */
	size_t		nattrs;		/* events after pairing */
};

/*
 * Write the n inputs as one recording to fd (a regular file) from offset
 * 0.  Returns 0, or -1 with err filled (inputs that cannot be merged, a
 * write error).  res (may be NULL) gets the counts.
 */
int merge_write(const struct merge_input *in, size_t n, int fd, struct merge_result *res,
    struct perf_err *err);

#endif
