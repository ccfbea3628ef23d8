/* pool_env.c — the pool variants by name (ws/pools.def), WS_POOL and WS_POOL_CHUNK.  Same
 * style as the runtime's env.c: a bad value is one line naming the variable
 * and what it accepts, then exit status 2. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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

__attribute__((noreturn)) static void bad(const char *var, const char *val,
                                          const char *accepts) {
  fflush(stdout);
  fprintf(stderr, "ws: %s=\"%s\" is not valid: expected %s\n", var, val,
          accepts);
  exit(2);
}

const ws_pool_ops *ws_pool_env_variant(void) {
  const char *v = getenv("WS_POOL");
  if (!v)
    return NULL;
  const ws_pool_ops *ops = ws_pool_ops_by_name(v);
  if (!ops) {
    char what[160];
    snprintf(what, sizeof what, "one of %s", ws_pool_variants());
    bad("WS_POOL", v, what);
  }
  return ops;
}

size_t ws_pool_env_chunk(void) {
  const char *v = getenv("WS_POOL_CHUNK");
  if (!v)
    return 0;
  char what[96];
  snprintf(what, sizeof what, "an integer from 1 to %ld (tasks per SALSA chunk)",
           WS_POOL_MAX_CHUNK);
  int digits = *v != '\0';
  for (const char *c = v; *c; c++)
    digits &= *c >= '0' && *c <= '9';
  errno = 0;
  char *end;
  unsigned long long n = digits ? strtoull(v, &end, 10) : 0;
  if (!digits || errno || *end || n < 1 || n > WS_POOL_MAX_CHUNK)
    bad("WS_POOL_CHUNK", v, what);
  return (size_t)n;
}
