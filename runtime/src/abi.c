/* abi.c — the per-thread worker pointer and the worker queries of ws.h. */
#include "worker.h"

__thread ws_worker *ws_tls_self __attribute__((tls_model("initial-exec")));

int ws_num_workers(void) { return ws_rt.nworkers; }

int ws_worker_id(void) {
  ws_worker *w = ws_tls_self;
  return w ? w->id : -1;
}
