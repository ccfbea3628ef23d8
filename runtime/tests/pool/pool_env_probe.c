/*
 * pool_env_probe.c — creates a one-worker pool from the environment
 * (WS_POOL, WS_POOL_CHUNK), with PRODUCERS producer slots, and puts TASK
 * COUNT times from slot 0.  The error-path tests run it with bad values.
 *
 *   pool_env_probe [PRODUCERS [TASK [COUNT]]]
 */
#include <stdio.h>
#include <stdlib.h>

#include "ws/pool.h"

int main(int argc, char **argv) {
  int producers = argc > 1 ? atoi(argv[1]) : 0;
  ws_pool *p = ws_pool_create(&(ws_pool_config){.workers = 1, .producers = producers});
  long count = argc > 3 ? atol(argv[3]) : argc > 2;
  for (long i = 0; i < count; i++)
    ws_pool_put(p, 0, (ws_pool_task)strtoull(argv[2], NULL, 0));
  printf("%s\n", ws_pool_variant(p));
  ws_pool_destroy(p);
  return 0;
}
