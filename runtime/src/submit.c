/*
 * submit.c — calls of spawning functions from threads the runtime does
 * not own.  Such a thread has no deque (its entry point's __ws_tail is
 * NULL): it queues the call, a worker that has nothing to do runs it with
 * its own tail, as it would a stolen task, and the caller sleeps on a
 * condition variable until it is done.  Any number of threads may submit
 * at once; each call runs exactly once, in the order the calls came.
 * (With one worker, the main thread, a thread runs its calls itself:
 * init.c, ws_bind_caller.)
 */
#include <pthread.h>

#include "views.h"
#include "worker.h"

typedef struct ws_submission {
  struct ws_submission *next;
  void (*run)(void *closure, ws_slot *tail);
  void *closure;
  ws_views *left; /* the reducer views the call left */
  int done;       /* under queue_lock */
  pthread_cond_t done_cond;
} ws_submission;

static pthread_mutex_t queue_lock = PTHREAD_MUTEX_INITIALIZER;
static ws_submission *queue_head, **queue_tail = &queue_head;

void __ws_submit(void (*run)(void *closure, ws_slot *tail), void *closure) {
  ws_submission s = {.run = run, .closure = closure};
  pthread_cond_init(&s.done_cond, NULL);
  pthread_mutex_lock(&queue_lock);
  *queue_tail = &s;
  queue_tail = &s.next;
  /* Counted before we look for sleepers; a worker about to sleep counts
   * itself before it looks at this (scheduler.c, sleep_a_while). */
  atomic_fetch_add_explicit(&ws_rt.submitted, 1, ws_seq_cst);
  pthread_mutex_unlock(&queue_lock);
  ws_wake_one();
  pthread_mutex_lock(&queue_lock);
  while (!s.done)
    pthread_cond_wait(&s.done_cond, &queue_lock);
  pthread_mutex_unlock(&queue_lock);
  pthread_cond_destroy(&s.done_cond);
  /* Our own views come before and after the call in serial order: its
   * views join them at our tail (none: this thread has no deque). */
  if (s.left)
    ws_views_join(atomic_load_explicit(&ws_my_dq.T, ws_relaxed), s.left);
}

int ws_serve_submission(ws_worker *self) {
  (void)self;
  if (!atomic_load_explicit(&ws_rt.submitted, ws_relaxed))
    return 0;
  pthread_mutex_lock(&queue_lock);
  ws_submission *s = queue_head;
  if (s) {
    queue_head = s->next;
    if (!queue_head)
      queue_tail = &queue_head;
    atomic_fetch_sub_explicit(&ws_rt.submitted, 1, ws_relaxed);
  }
  pthread_mutex_unlock(&queue_lock);
  if (!s)
    return 0;
  ws_views_saved saved;
  ws_views_enter(&saved);
  ws_slot *tail = atomic_load_explicit(&ws_my_dq.T, ws_relaxed);
  s->run(s->closure, tail);
  /* As after a stolen task (scheduler.c): split and private deques' fast
   * paths leave the tail last published, above ours. */
  atomic_store_explicit(&ws_my_dq.T, tail, ws_relaxed);
  s->left = ws_views_leave(&saved);
  /* The caller returns once it sees done, under the lock: it cannot go
   * (and take s and its condition with it) before we let go of both. */
  pthread_mutex_lock(&queue_lock);
  s->done = 1;
  pthread_cond_signal(&s->done_cond);
  pthread_mutex_unlock(&queue_lock);
  return 1;
}
