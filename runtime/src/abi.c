/* abi.c — the per-thread state of the runtime, which the fast paths and
 * the tools that test the deques address. */
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
