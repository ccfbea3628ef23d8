/* tail.c — __ws_tail(): the calling thread's tail, where an entry point into
 * spawning code starts.  Compiled into the fast-path bitcode as well, so it
 * inlines into every entry point: two loads and a test once the thread
 * runs spawning code; the first call binds the thread (startup.c), a call
 * from a signal handler of the program's is refused there (signals.c), and
 * one that a sleeping thief asked for wakes it there (idle.c). */
#include "worker.h"

ws_slot *ws_tail_in_place(void);

ws_slot *__ws_tail(void) {
  ws_slot *t = atomic_load_explicit(&ws_my_dq.T, ws_relaxed);
  if (ws_unlikely(!t | !!atomic_load_explicit(&ws_my_dq.entry.any, ws_relaxed)))
    t = ws_bind_caller();
  return t;
}

/* The tail of a spawning function lowered in place (variadic, weak, a
 * coroutine's body): it has no entry point to hand its call to the workers,
 * so on a thread of the program's it runs on a deque of the thread's own,
 * serially, as with one worker (startup.c, ws_tail_in_place). */
ws_slot *__ws_tail_owned(void) {
  ws_slot *t = __ws_tail();
  if (ws_unlikely(!t))
    t = ws_tail_in_place();
  return t;
}

void __ws_publish_tail(ws_slot *t) { ws_store_tail(&ws_my_dq, t); }
