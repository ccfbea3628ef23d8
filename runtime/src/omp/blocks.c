/*
 * omp/blocks.c — the memory of general-path tasks.  A task block is
 * allocated where the task is created and freed where it ran (often
 * another thread).  glibc's aligned_alloc takes the slow memalign path
 * every time, which was most of a small task's cost (issue 35: a tree
 * search with one task per node and a variable-length array in the
 * creating function, outside the fast path, ran 1.4x its serial time
 * under wsff against 1.2x under libomp).  Blocks up to CLASSES cache lines
 * are kept per thread, at most KEEP of each size, and reused; the others
 * go back to the C library.  A block freed by another thread than the one
 * that allocated it joins the freeing thread's list; what a thread keeps
 * when it exits is bounded (CLASSES x KEEP blocks).
 */
#include <stdlib.h>

#include "../worker.h"
#include "blocks.h"

enum { CLASSES = 8, KEEP = 256 };

typedef struct free_block {
  struct free_block *next;
} free_block;

static __thread free_block *lists[CLASSES];
static __thread unsigned counts[CLASSES];

static inline size_t lines_of(size_t size) {
  return (size + WS_CACHE_LINE - 1) / WS_CACHE_LINE;
}

void *ws_omp_block_alloc(size_t size) {
  size_t lines = lines_of(size ? size : 1);
  if (lines <= CLASSES) {
    free_block *b = lists[lines - 1];
    if (b) {
      lists[lines - 1] = b->next;
      counts[lines - 1]--;
      return b;
    }
  }
  return aligned_alloc(WS_CACHE_LINE, lines * WS_CACHE_LINE);
}

void ws_omp_block_free(void *block, size_t size) {
  size_t lines = lines_of(size ? size : 1);
  if (lines <= CLASSES && counts[lines - 1] < KEEP) {
    free_block *b = block;
    b->next = lists[lines - 1];
    lists[lines - 1] = b;
    counts[lines - 1]++;
    return;
  }
  free(block);
}
