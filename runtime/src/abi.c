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

/* What __ws_views_above compares with (ws/abi.h, views.c). */
__thread ws_slot *ws_tls_views_max __attribute__((tls_model("initial-exec")));

/* The count is fixed from here on: the workers start. */
int ws_num_workers(void) {
  ws_start();
  return ws_rt.nworkers;
}

/* The main thread is worker 0 before it binds its deque too; a thread of
 * the program's is -1, also when it runs its calls itself (one worker). */
int ws_worker_id(void) {
  ws_worker *w = ws_tls_self;
  if (w)
    return w->id;
  return ws_is_main_thread() ? 0 : -1;
}
