/* abi.c — the per-thread state of the runtime and the worker queries of
 * ws.h. */
#include "worker.h"

__thread ws_worker *ws_tls_self __attribute__((tls_model("initial-exec")));

/* The calling thread's deque, addressed by the fast paths without any
 * pointer (deque.h). */
__thread ws_dq ws_my_dq __attribute__((tls_model("initial-exec")));

/* Where compiled code makes the stores it inserts after take() (anti-
 * coalescing and padding, see the ws-anticoalesce pass): eight cache lines
 * per thread, so consecutive padding stores go to different lines. */
__thread volatile uint64_t ws_tls_scratch[WS_SCRATCH_LINES * 8]
    __attribute__((aligned(WS_CACHE_LINE), tls_model("initial-exec")));

__thread uint64_t ws_tls_spawns __attribute__((tls_model("initial-exec")));

int ws_num_workers(void) { return ws_rt.nworkers; }

int ws_worker_id(void) {
  ws_worker *w = ws_tls_self;
  return w ? w->id : -1;
}
