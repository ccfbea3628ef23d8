/*
 * env.h — the runtime's own variables of ws/env.def (WS_NUM_WORKERS,
 * WS_DEQUE, WS_STORE_BUFFER, WS_DEQUE_SIZE, WS_STACK_SIZE, WS_STATS,
 * WS_BARRIER), read together at start-up with the parsers every library
 * shares (env_value.h).  A bad value is reported as one line naming the
 * variable and what it accepts; the caller then exits with status 2.
 */
#ifndef WS_ENV_H
#define WS_ENV_H

#include <stddef.h>
#include <stdint.h>

#include "deque.h"
#include "env_value.h"

typedef struct ws_env {
  int nworkers;               /* WS_NUM_WORKERS; 0: not set */
  const ws_deque_ops *deque;  /* WS_DEQUE; NULL: not set */
  int s_set;                  /* WS_STORE_BUFFER given */
  uint32_t S;                 /*   its value */
  int S_inf;                  /*   "inf" */
  size_t deque_size;          /* WS_DEQUE_SIZE rounded up to a power of two; 0: not set */
  size_t stack_size;          /* WS_STACK_SIZE in bytes; 0: not set */
  int stats;                  /* WS_STATS */
  int barrier_signal;         /* WS_BARRIER=signal: FF-MB's fallback */
} ws_env;

/* Returns 0, or -1 with one line (no newline) in err. */
int ws_env_parse(ws_env_lookup lookup, void *ctx, ws_env *out, char *err,
                 size_t errlen);

#endif
