/*
 * core.h: the umbrella header of core/, for use from symbolize/ and tui/.
 * core/ loads a recording and indexes it; it never prints or exits.
 */
#ifndef PERFNAV_CORE_CORE_H
#define PERFNAV_CORE_CORE_H

#include "core/attr.h"
#include "core/bytes.h"
#include "core/carve.h"
#include "core/err.h"
#include "core/feature.h"
#include "core/fields.h"
#include "core/hmap.h"
#include "core/index.h"
#include "core/merge.h"
#include "core/names.h"
#include "core/origin.h"
#include "core/perf_file.h"
#include "core/record.h"
#include "core/safefile.h"
#include "core/sample_read.h"
#include "core/session.h"
#include "core/session_cache.h"
#include "core/text.h"
#include "core/thread.h"

#endif
