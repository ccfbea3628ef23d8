/* store_buffer.h — S, the bound on how many stores a load can pass (paper
 * 000 §2, TSO[S]), as the runtime resolves it at start-up. */
#ifndef WS_STORE_BUFFER_H
#define WS_STORE_BUFFER_H

#include <stdint.h>

#include "env.h"

typedef struct ws_store_bound {
  uint32_t S;
  int inf;            /* WS_STORE_BUFFER=inf */
  const char *source; /* "env", "default", ... */
} ws_store_bound;

ws_store_bound ws_resolve_store_buffer(const ws_env *env);

/* ceil(S / (x + 1)); INT64_MAX for an infinite S. */
int64_t ws_delta_for(const ws_store_bound *s, uint32_t x);

#endif
