/* self.c — __ws_self(): the worker running on this thread.  Compiled into
 * the fast-path bitcode as well, so it inlines into every spawning function. */
#include "worker.h"

__attribute__((noreturn)) void ws_self_missing(void);

ws_worker *__ws_self(void) {
  ws_worker *w = ws_tls_self;
  if (ws_unlikely(!w))
    ws_self_missing();
  return w;
}

#ifndef WS_FASTPATH_ONLY
__attribute__((noreturn, cold)) void ws_self_missing(void) {
  if (!ws_rt.ops)
    ws_fatal("ws_spawn/ws_sync before the runtime started (a constructor "
             "that runs before libws's?)");
  ws_fatal("ws_spawn/ws_sync on a thread the runtime does not own; spawn "
           "from the main thread or from tasks");
}
#endif
