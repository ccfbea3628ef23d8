/* store_buffer.c — resolving S: WS_STORE_BUFFER, else the conservative
 * default.  (Calibration files and the CPU table come in later.) */
#include <stdint.h>

#include "config.h"
#include "store_buffer.h"

ws_store_bound ws_resolve_store_buffer(const ws_env *env) {
  ws_store_bound b = {WS_DEFAULT_STORE_BUFFER, 0, "default"};
  if (env->s_set) {
    b.S = env->S;
    b.inf = env->S_inf;
    b.source = "env";
  }
  return b;
}

int64_t ws_delta_for(const ws_store_bound *s, uint32_t x) {
  if (s->inf)
    return INT64_MAX;
  if (x == UINT32_MAX) /* no take follows another: any delta >= 1 is sound */
    return 1;
  uint64_t d = ((uint64_t)s->S + x) / ((uint64_t)x + 1);
  return d < 1 ? 1 : (int64_t)d;
}
