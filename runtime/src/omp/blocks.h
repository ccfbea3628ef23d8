/*
 * omp/blocks.h — the memory of general-path tasks (blocks.c): blocks of a
 * cache line's alignment, kept per thread for reuse by size.
 */
#ifndef WS_OMP_BLOCKS_H
#define WS_OMP_BLOCKS_H

#include <stddef.h>

/* A block of at least size bytes, aligned to a cache line; NULL when out
 * of memory. */
void *ws_omp_block_alloc(size_t size);
/* Gives back a block of ws_omp_block_alloc(size), on any thread. */
void ws_omp_block_free(void *block, size_t size);

#endif
