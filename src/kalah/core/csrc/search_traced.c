/* The search engine compiled with its trace hooks (trace.h): the kalah.core.trace extension.
 * A file of its own so that its object does not replace the release build's search.o. */
#ifndef KALAH_TRACE
#error "search_traced.c is the trace build: compile it with -DKALAH_TRACE"
#endif
#include "search.c"
