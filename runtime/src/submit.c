/*
 * submit.c — calls of spawning functions from threads the runtime does
 * not own.  Such a thread has no deque (its entry point's __ws_tail is
 * NULL): it queues the call, a worker that has nothing to do runs it with
 * its own tail, as it would a stolen task, and the caller sleeps on a
 * futex until it is done.  Any number of threads may submit at once; each
 * call runs exactly once, in the order the calls came.  (With one worker,
 * the main thread, a thread runs its calls itself, on a deque of its own:
 * ws_bind_own_deque.  So does a call whose entry point found more, if the
 * count dropped to one before it was queued, or when the workers have not
 * started or have stopped.)
 *
 * errno: the call starts with the caller's errno and gives back its own,
 * as a plain call does; the runtime's calls around it change neither.
 *
 * A queued call cannot be taken back: a worker may be running it on the
 * closure, in the caller's frame.  So the caller is not cancelled while
 * its call is out; a request made meanwhile acts when the call has
 * returned.  Holding cancellation off takes more than disabling it: with
 * glibc 2.36, a caller whose cancellation was asynchronous when the
 * request came was still cancelled inside pthread_cond_wait, its
 * cancellation disabled and deferred by then, and died holding the queue's
 * lock (tests/cancel.c, 16 workers, a run in four).  So the caller makes
 * its cancellation deferred and disabled, and waits in no cancellation
 * point: on a raw futex.
 */
#include <errno.h>
#include <linux/futex.h>
#include <pthread.h>

#include "idle.h"
#include "views.h"
#include "worker.h"

typedef struct ws_submission {
  struct ws_submission *next;
  void (*run)(void *closure, ws_slot *tail);
  void *closure;
  ws_views *left;        /* the reducer views the call left */
  int err;               /* errno: the caller's, then the call's */
  _Atomic uint32_t done; /* the futex the caller waits on */
} ws_submission;

static pthread_mutex_t queue_lock = PTHREAD_MUTEX_INITIALIZER;
static ws_submission *queue_head, **queue_tail = &queue_head;
static int serving; /* calls taken from the queue and not done (the lock's) */

/* A thread of the program's runs its calls itself when there is one
 * worker (the main thread, which may be the thread waiting for them), on a
 * deque of its own that no thief visits, freed when the thread ends. */
static pthread_key_t own_deque_key;
static pthread_once_t own_deque_once = PTHREAD_ONCE_INIT;

static void free_own_deque(void *w) {
  ws_slots_free(&ws_my_dq);
  atomic_store_explicit(&ws_my_dq.T, NULL, ws_relaxed);
  ws_tls_self = NULL;
  free(w);
}

static void make_own_deque_key(void) {
  if (pthread_key_create(&own_deque_key, free_own_deque))
    ws_fatal("cannot create a thread key for the deques of other threads");
}

ws_slot *ws_bind_own_deque(int id) {
  pthread_once(&own_deque_once, make_own_deque_key);
  ws_worker *w = ws_worker_new(id);
  if (ws_rt.ops->init(&ws_my_dq, w, ws_rt.deque_size))
    ws_fatal("cannot allocate a deque of %zu tasks for a thread of the "
             "program; lower WS_DEQUE_SIZE",
             ws_rt.deque_size);
  w->dq = &ws_my_dq;
  w->thread = pthread_self();
  ws_tls_self = w;
  pthread_setspecific(own_deque_key, w);
  return atomic_load_explicit(&ws_my_dq.T, ws_relaxed);
}

/* Nobody would take a call from the queue: one worker (the count may have
 * dropped to 1 since the entry point asked, ws_set_num_workers changes it
 * under the queue's lock), the workers not started yet (a constructor
 * before libws's), stopped (at exit), or not in this process (a child of
 * fork).  Under the queue's lock. */
static int nobody_serves(void) {
  return atomic_load_explicit(&ws_rt.nworkers, ws_relaxed) == 1 ||
         !atomic_load_explicit(&ws_rt.started, ws_acquire) ||
         atomic_load_explicit(&ws_rt.shutdown, ws_acquire) || ws_rt.forked;
}

/* The call on the calling thread, as when there is one worker: in the
 * thread's own reducer context, on its own deque. */
static void run_here(void (*run)(void *closure, ws_slot *tail), void *closure) {
  ws_slot *tail = atomic_load_explicit(&ws_my_dq.T, ws_relaxed);
  if (!tail)
    tail = ws_bind_own_deque(-1);
  run(closure, tail);
  atomic_store_explicit(&ws_my_dq.T, tail, ws_relaxed);
}

void __ws_submit(void (*run)(void *closure, ws_slot *tail), void *closure) {
  /* The caller's errno goes with the call and comes back with the call's:
   * the futex, the locks and the cancellation calls below leave theirs
   * out of it. */
  int err = errno;
  int cancel_type, cancel_state;
  pthread_setcanceltype(PTHREAD_CANCEL_DEFERRED, &cancel_type);
  pthread_setcancelstate(PTHREAD_CANCEL_DISABLE, &cancel_state);
  ws_submission s = {.run = run, .closure = closure, .err = err};
  pthread_mutex_lock(&queue_lock);
  if (nobody_serves()) {
    pthread_mutex_unlock(&queue_lock);
    pthread_setcancelstate(cancel_state, NULL);
    pthread_setcanceltype(cancel_type, NULL);
    errno = err;
    run_here(run, closure);
    return;
  }
  *queue_tail = &s;
  queue_tail = &s.next;
  /* Counted before we look for sleepers; a worker about to sleep counts
   * itself before it looks at this (idle.c, ws_sleep_a_while). */
  atomic_fetch_add_explicit(&ws_rt.submitted, 1, ws_seq_cst);
  pthread_mutex_unlock(&queue_lock);
  ws_wake_one();
  while (!atomic_load_explicit(&s.done, ws_acquire))
    ws_futex(&s.done, FUTEX_WAIT_PRIVATE, 0, NULL);
  /* The worker sets done and wakes us under the lock: once we hold it, it
   * is done with s, which goes with our frame. */
  pthread_mutex_lock(&queue_lock);
  pthread_mutex_unlock(&queue_lock);
  /* Our own views come before and after the call in serial order: its
   * views join them at our tail (none: this thread has no deque). */
  if (s.left)
    ws_views_join(atomic_load_explicit(&ws_my_dq.T, ws_relaxed), s.left);
  pthread_setcancelstate(cancel_state, NULL);
  pthread_setcanceltype(cancel_type, NULL); /* acts now, if asynchronous */
  if (cancel_state == PTHREAD_CANCEL_ENABLE)
    pthread_testcancel();
  errno = s.err;
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
    serving++;
  }
  pthread_mutex_unlock(&queue_lock);
  if (!s)
    return 0;
  ws_views_saved saved;
  ws_views_enter(&saved);
  ws_slot *tail = atomic_load_explicit(&ws_my_dq.T, ws_relaxed);
  /* The call starts with the caller's errno, as a plain call would, and
   * its errno goes back to the caller. */
  int mine = errno;
  errno = s->err;
  s->run(s->closure, tail);
  s->err = errno;
  errno = mine;
  /* As after a stolen task (scheduler.c): split and private deques' fast
   * paths leave the tail last published, above ours. */
  atomic_store_explicit(&ws_my_dq.T, tail, ws_relaxed);
  s->left = ws_views_leave(&saved);
  /* The caller takes the lock once it sees done: it cannot go (and take
   * s with it) before we let go. */
  pthread_mutex_lock(&queue_lock);
  serving--;
  atomic_store_explicit(&s->done, 1, ws_release);
  ws_futex(&s->done, FUTEX_WAKE_PRIVATE, 1, NULL);
  pthread_mutex_unlock(&queue_lock);
  return 1;
}

int ws_submissions_quiet_then(void (*fn)(void *), void *arg) {
  pthread_mutex_lock(&queue_lock);
  int quiet = !queue_head && !serving;
  if (quiet)
    fn(arg);
  pthread_mutex_unlock(&queue_lock);
  return quiet;
}
