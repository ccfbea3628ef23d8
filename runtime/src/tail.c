/* tail.c — __ws_tail(): the calling thread's tail, where an entry point into
 * spawning code starts.  Compiled into the fast-path bitcode as well, so it
 * inlines into every entry point: two loads and a test once the thread
 * runs spawning code; the first call binds the thread (startup.c), a call
 * from a signal handler of the program's is refused there (signals.c), and
 * one that a sleeping thief asked for wakes it there (idle.c). */
#include "worker.h"

__attribute__((noreturn)) void ws_tail_missing(void);

ws_slot *__ws_tail(void) {
  ws_slot *t = atomic_load_explicit(&ws_my_dq.T, ws_relaxed);
  if (ws_unlikely(!t | !!atomic_load_explicit(&ws_my_dq.entry.any, ws_relaxed)))
    t = ws_bind_caller();
  return t;
}

ws_slot *__ws_tail_owned(void) {
  ws_slot *t = __ws_tail();
  if (ws_unlikely(!t))
    ws_tail_missing();
  return t;
}

void __ws_publish_tail(ws_slot *t) { ws_store_tail(&ws_my_dq, t); }

#ifndef WS_FASTPATH_ONLY
__attribute__((noreturn, cold)) void ws_tail_missing(void) {
  ws_fatal("a variadic or interposable (weak) spawning function called on a "
           "thread the runtime does not own: its call cannot be handed to the "
           "workers; call it from a function that is neither, or from a task");
}
#endif
