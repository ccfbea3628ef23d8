/*
 * pool_alloc.c — the pools' allocation: cache-line aligned, and a failure
 * stops the program naming what it allocated.  The bottom of the pools'
 * layers: every variant and pool.c use it, it uses only fatal.h.
 */
#include <stdlib.h>
#include <string.h>

#include "../fatal.h"
#include "pool_impl.h"

void *ws_pool_alloc(size_t size, const char *what) {
  void *m = aligned_alloc(WS_CACHE_LINE,
                          (size + WS_CACHE_LINE - 1) & ~(size_t)(WS_CACHE_LINE - 1));
  if (!m)
    ws_fatal("out of memory allocating %s (%zu bytes)", what, size);
  return m;
}

void *ws_pool_zalloc(size_t size, const char *what) {
  return memset(ws_pool_alloc(size, what), 0, size);
}
