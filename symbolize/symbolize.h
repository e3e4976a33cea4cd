/*
 * symbolize.h: the umbrella header of symbolize/ (sample addresses to
 * functions, callchains, DWARF unwinding, aggregations).  Built on core/;
 * never includes curses.  The symbolizer arrives with issue 3; this header
 * marks the layer's place in the build.
 */
#ifndef PERFNAV_SYMBOLIZE_SYMBOLIZE_H
#define PERFNAV_SYMBOLIZE_SYMBOLIZE_H

#include "core/core.h"

#endif
