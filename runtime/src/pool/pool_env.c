/* pool_env.c — the pool variants by name (ws/pools.def), and the pools'
 * variables of ws/env.def, WS_POOL and WS_POOL_CHUNK, read with the
 * runtime's parsers (env_value.h): a bad value is one line naming the
 * variable and what it accepts, then exit status 2. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../env_value.h"
#include "pool_impl.h"

/* The rows of ws/pools.def. */
static const ws_pool_ops *const pool_variants[] = {
#define WS_POOL_VARIANT(symbol, name) &ws_pool_##symbol,
#include "ws/pools.def"
};

/* "cl|ffcl|...": the names, each after a '|'; the first is dropped. */
static const char pool_names[] =
#define WS_POOL_VARIANT(symbol, name) "|" name
#include "ws/pools.def"
    ;

const char *ws_pool_variants(void) { return pool_names + 1; }

const ws_pool_ops *ws_pool_ops_by_name(const char *name) {
  for (size_t i = 0; i < sizeof pool_variants / sizeof *pool_variants; i++)
    if (strcmp(pool_variants[i]->name, name) == 0)
      return pool_variants[i];
  return NULL;
}

const ws_pool_ops *ws_pool_env_variant(void) {
  const char *v = ws_env_getenv("WS_POOL", NULL);
  if (!v)
    return NULL;
  const ws_pool_ops *ops = ws_pool_ops_by_name(v);
  char what[160];
  snprintf(what, sizeof what, "one of %s", ws_pool_variants());
  if (!ops)
    ws_env_refuse("WS_POOL", v, what);
  return ops;
}

size_t ws_pool_env_chunk(void) {
  const char *v = ws_env_getenv("WS_POOL_CHUNK", NULL);
  if (!v)
    return 0;
  char what[96];
  snprintf(what, sizeof what, "an integer from 1 to %ld (tasks per SALSA chunk)",
           WS_POOL_MAX_CHUNK);
  uint64_t n = 0;
  if (ws_env_uint(v, 1, WS_POOL_MAX_CHUNK, &n))
    ws_env_refuse("WS_POOL_CHUNK", v, what);
  return (size_t)n;
}
