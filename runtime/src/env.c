/* env.c — the runtime's variables of ws/env.def (WS_NUM_WORKERS, WS_DEQUE,
 * WS_STORE_BUFFER, WS_DEQUE_SIZE, WS_STACK_SIZE, WS_STATS, WS_BARRIER)
 * into a ws_env, with env_value.h's parsers. */
#include <stdio.h>
#include <string.h>

#include "config.h"
#include "env.h"
#include "env_value.h"

int ws_env_parse(ws_env_lookup lookup, void *ctx, ws_env *out, char *err,
                 size_t n) {
  memset(out, 0, sizeof *out);
  const char *v;
  uint64_t x;
  char what[128];
  static const char *const off_on[] = {"0", "1", NULL};
  static const char *const barriers[] = {"auto", "signal", NULL};

  if ((v = lookup("WS_NUM_WORKERS", ctx))) {
    snprintf(what, sizeof what, "an integer from 1 to %d", WS_MAX_WORKERS);
    if (ws_env_uint(v, 1, WS_MAX_WORKERS, &x))
      return ws_env_bad(err, n, "WS_NUM_WORKERS", v, what);
    out->nworkers = (int)x;
  }
  if ((v = lookup("WS_DEQUE", ctx))) {
    out->deque = ws_variant_by_name(v);
    if (!out->deque) {
      snprintf(what, sizeof what, "one of %s", ws_variant_names());
      return ws_env_bad(err, n, "WS_DEQUE", v, what);
    }
  }
  if ((v = lookup("WS_STORE_BUFFER", ctx))) {
    snprintf(what, sizeof what, "an integer from 1 to %d, or inf",
             WS_MAX_STORE_BUFFER);
    if (strcmp(v, "inf") == 0) {
      out->S_inf = 1;
    } else if (ws_env_uint(v, 1, WS_MAX_STORE_BUFFER, &x)) {
      return ws_env_bad(err, n, "WS_STORE_BUFFER", v, what);
    }
    out->s_set = 1;
    out->S = out->S_inf ? 0 : (uint32_t)x;
  }
  if ((v = lookup("WS_DEQUE_SIZE", ctx))) {
    snprintf(what, sizeof what, "an integer from %d to %ld (tasks per worker)",
             WS_MIN_DEQUE_SIZE, (long)WS_MAX_DEQUE_SIZE);
    if (ws_env_uint(v, WS_MIN_DEQUE_SIZE, WS_MAX_DEQUE_SIZE, &x))
      return ws_env_bad(err, n, "WS_DEQUE_SIZE", v, what);
    size_t p = 1;
    while (p < (size_t)x)
      p <<= 1;
    out->deque_size = p;
  }
  if ((v = lookup("WS_STACK_SIZE", ctx))) {
    snprintf(what, sizeof what,
             "bytes, optionally with K, M or G, from %luK to %luG (the stack of "
             "each worker thread)",
             (unsigned long)(WS_MIN_STACK_SIZE >> 10),
             (unsigned long)(WS_MAX_STACK_SIZE >> 30));
    if (ws_env_size(v, WS_MIN_STACK_SIZE, WS_MAX_STACK_SIZE, &out->stack_size))
      return ws_env_bad(err, n, "WS_STACK_SIZE", v, what);
  }
  if ((v = lookup("WS_STATS", ctx))) {
    if ((out->stats = ws_env_choice(v, off_on)) < 0)
      return ws_env_bad(err, n, "WS_STATS", v, "0 or 1");
  }
  if ((v = lookup("WS_BARRIER", ctx))) {
    if ((out->barrier_signal = ws_env_choice(v, barriers)) < 0)
      return ws_env_bad(err, n, "WS_BARRIER", v, "auto or signal");
  }
  return 0;
}
