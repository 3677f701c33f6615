/* Large tables: zeroed anonymous pages, on huge pages where the kernel allows.
 * Transposition tables are probed at random, so with 4 KiB pages nearly every
 * probe misses the TLB; 2 MiB pages cover a whole table with a few entries. */
#ifndef KALAH_MEMORY_H
#define KALAH_MEMORY_H

#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <stddef.h>

#ifdef __EMSCRIPTEN__
/* WebAssembly (the browser's engine, wasm_*.c) has one linear memory and no pages to map: a
 * zeroed block of it. */
#include <stdlib.h>

static inline void *kalah_table_alloc(size_t bytes)
{ return bytes ? calloc(1, bytes) : NULL; }

static inline void kalah_table_free(void *table, size_t bytes)
{
    (void)bytes;
    free(table);
}
#else
#include <sys/mman.h>

/* NULL when there is no memory (or bytes is 0). */
static inline void *kalah_table_alloc(size_t bytes)
{
    if (bytes == 0) return NULL;
    void *table = mmap(NULL, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (table == MAP_FAILED) return NULL;
#ifdef MADV_HUGEPAGE
    madvise(table, bytes, MADV_HUGEPAGE);
#endif
    return table;
}

static inline void kalah_table_free(void *table, size_t bytes)
{
    if (table) munmap(table, bytes);
}
#endif

#endif
