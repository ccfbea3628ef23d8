/* tail.c — __ws_tail(): the calling worker's tail, where an entry point into
 * spawning code starts.  Compiled into the fast-path bitcode as well, so it
 * inlines into every entry point. */
#include "worker.h"

__attribute__((noreturn)) void ws_tail_missing(void);

ws_slot *__ws_tail(void) {
  ws_slot *t = atomic_load_explicit(&ws_my_dq.T, ws_relaxed);
  if (ws_unlikely(!t))
    ws_tail_missing();
  return t;
}

void __ws_publish_tail(ws_slot *t) { ws_store_tail(&ws_my_dq, t); }

#ifndef WS_FASTPATH_ONLY
__attribute__((noreturn, cold)) void ws_tail_missing(void) {
  if (!ws_rt.ops)
    ws_fatal("ws_spawn/ws_sync before the runtime started (a constructor "
             "that runs before libws's?)");
  ws_fatal("ws_spawn/ws_sync on a thread the runtime does not own; spawn "
           "from the main thread or from tasks");
}
#endif
